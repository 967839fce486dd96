// What a summary says of the switches' queues and the paused host uplinks, written the same way
// by a software run (summary.json of `run`) and a real-time one (of `serve`), so the two compare
// field by field.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "control/emulation/emulation.h"

namespace fe::control {

// Per switch port and queue, the entries where anything happened, in (switch, port, queue) order:
// max and time-mean depth, ECN marks, drops by reason, pause frames sent, received and the time
// paused, up to the scheduler's now. An array as JSON text, for a top-level member's place (a
// fabric has thousands: see control/report/json_text.h).
std::string SwitchQueuesText(const Emulation& e);
// Host uplinks that were paused by their edge switch: frames received and time paused per queue.
nlohmann::ordered_json PausedHostsJson(const Emulation& e);

}  // namespace fe::control
