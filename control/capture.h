// The scenario's capture section: a pcapng file in the output directory holding every frame the
// selected ports send, stamped with the virtual clock.
#pragma once

#include <memory>
#include <string>

#include "control/emulation.h"
#include "core/status.h"
#include "dataplane/pcapng_writer.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// Opens capture.file under out_dir and attaches it to the selected ports; nullptr when the
// scenario has no capture section. The caller keeps the writer until the run ends, then
// detaches it with DetachCapture and closes it.
StatusOr<std::unique_ptr<dp::PcapngWriter>> AttachCapture(const fabric_emu::Scenario& scenario,
                                                          const std::string& out_dir, Emulation* e);
void DetachCapture(const fabric_emu::Scenario& scenario, Emulation* e);

}  // namespace fe::control
