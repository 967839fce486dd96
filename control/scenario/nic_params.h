// The scenario's nic section as the NIC's parameters (dataplane/nic.h): the one translation of
// every NIC, transport and congestion-control field, used to build the fabric, to check that it
// builds and by the set_nic command.
#pragma once

#include "core/status.h"
#include "dataplane/nic.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// The scenario's NIC section as NIC parameters: unset fields keep their documented defaults,
// DCQCN overrides replace single fields of the chosen preset.
StatusOr<dp::NicParams> BuildNicParams(const fabric_emu::NicConfig& nic);

}  // namespace fe::control
