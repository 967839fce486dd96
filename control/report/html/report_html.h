// report.html: one self-contained page (inline SVG and CSS, no script, nothing fetched) drawn
// from a run's output directory. The same directory gives the same bytes.
#pragma once

#include <ostream>
#include <string>

#include "core/status.h"

namespace fe::control::html {

// The page for the run whose outputs are in `dir`. Errors: no such directory, no (or a broken)
// summary.json, a malformed CSV (file:line).
StatusOr<std::string> BuildReport(const std::string& dir);

// `fabric-emu report OUTDIR` (and `run --report`): writes OUTDIR/report.html, atomically as every
// output, and prints its path; 0, or 2 with the reason on `err` for bad input, 1 when the file
// cannot be written.
int RunReportCommand(const std::string& dir, std::ostream& out, std::ostream& err);

}  // namespace fe::control::html
