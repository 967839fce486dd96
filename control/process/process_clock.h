// The process's age in wall time, for the start-up figure a run reports: the time from the
// program's start to its first event is what a user waits for before the fabric runs.
#pragma once

namespace fe::control {

// Wall seconds since the program started: since its static initialisation, which follows the
// dynamic loader (under a millisecond for fabric-emu) and precedes main.
double WallSecondsSinceProcessStart();

}  // namespace fe::control
