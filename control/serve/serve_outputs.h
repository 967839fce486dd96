// The end of `fabric-emu serve`: its outputs written and moved into place, and how it went.
#pragma once

#include <ostream>
#include <string>

#include "control/emulation/emulation.h"
#include "control/process/output_set.h"
#include "control/serve/serve_summary.h"
#include "core/status.h"

namespace fe::control {

// Stages summary.json, and events.csv when the run applied commands, then moves them (and the
// capture) into `out_dir`, which `outputs` stages for; then says on `log` how the run went and
// what it wrote. A write that fails is returned, and nothing is said.
Status WriteServeOutputs(const ServeReport& report, const Emulation& e, const std::string& out_dir,
                         OutputSet* outputs, std::ostream& log);

}  // namespace fe::control
