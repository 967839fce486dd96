// The scenario's capture section: a pcapng file in the output directory holding the frames the
// selected ports send, receive or both (PortSelector.direction), each with its direction
// (epb_flags), stamped with the emulator's clock. A real host's port (serve) is recorded at the
// cable: every frame the server sends and every frame that goes to it.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "control/emulation/emulation.h"
#include "core/status.h"
#include "dataplane/pcapng_writer.h"
#include "dataplane/realtime/external_host.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// Opens capture.file under out_dir and attaches it to the selected ports, those of `real_hosts`
// at their cables; nullptr when the scenario has no capture section. The caller keeps the writer
// until the run ends, then detaches it with DetachCapture (the same real hosts) and closes it.
StatusOr<std::unique_ptr<dp::PcapngWriter>> AttachCapture(
    const fabric_emu::Scenario& scenario, const std::string& out_dir, Emulation* e,
    std::span<dp::ExternalHost* const> real_hosts = {});
void DetachCapture(const fabric_emu::Scenario& scenario, Emulation* e,
                   std::span<dp::ExternalHost* const> real_hosts = {});

}  // namespace fe::control
