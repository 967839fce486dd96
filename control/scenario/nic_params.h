// The scenario's nic section as the NIC's parameters (dataplane/nic.h): the one translation of
// every NIC, transport and congestion-control field, used to build the fabric, to check that it
// builds and by the set_nic command.
#pragma once

#include "congestion/dcqcn.h"
#include "core/status.h"
#include "dataplane/nic.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// The scenario's NIC section as NIC parameters: unset fields keep their documented defaults,
// DCQCN overrides replace single fields of the chosen preset.
StatusOr<dp::NicParams> BuildNicParams(const fabric_emu::NicConfig& nic);

// One DCQCN section as the reaction point's parameters: the chosen preset with the fields set
// here on top. The line rate stays the preset's; the NIC sets its port's.
cong::DcqcnParams BuildDcqcnParams(const fabric_emu::Dcqcn& d);

// The field number in fabric_emu::Dcqcn that sets a DcqcnParams field, so that an error of
// cong::Check points at the line that set the value; 0 for the line rate, which no field sets.
int DcqcnProtoField(cong::DcqcnField field);

}  // namespace fe::control
