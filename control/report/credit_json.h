// What summary.json says of a fabric's credit-based links (docs/scenario.md, "Outputs"): absent
// when every link runs PFC.
#pragma once

#include <nlohmann/json.hpp>

#include "dataplane/fabric.h"

namespace fe::control {

// {"link_ends", "updates_sent", "updates_lost", "resyncs", "overdrafts", "buffer_overruns",
// "blocked_time_ns"}: summed over every credit-based link end (and, for the overruns, every
// switch); blocked_time_ns over every priority, up to `now`. Null when the fabric has none.
nlohmann::ordered_json CreditLinksJson(const dp::Fabric& fabric, Time now);

}  // namespace fe::control
