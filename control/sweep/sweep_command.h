// `fabric-emu sweep SCENARIO --set PATH=V1,V2,... [--set ...] [--jobs N] [--out DIR] [--quiet]`:
// every point of the grid (sweep_grid.h) validated before anything runs, then each run by a
// child `fabric-emu run` on the point's own point.textproto in DIR/<point name>/, at most N at
// a time, and DIR/sweep.csv and DIR/sweep.html written from the points' summary.json files.
// A point that finished before with the same scenario is not run again (resumed); Ctrl-C stops
// the launching, ends the running points and keeps the finished ones.
#pragma once

#include "control/cli/cli_args.h"
#include "proto/scenario.pb.h"

namespace fe::control {

// Where a sweep writes: --out, else out/<scenario name>-sweep.
std::string SweepDir(const CliArgs& args, const fabric_emu::Scenario& scenario);

// The exit status: 0 every point ran, 1 a point failed (or was stopped alone), 2 the sweep was
// refused (nothing ran), 128 + the signal when SIGINT or SIGTERM stopped it.
int RunSweep(const CliArgs& args, const fabric_emu::Scenario& base);

}  // namespace fe::control
