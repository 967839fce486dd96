// GET /metrics: a snapshot in the Prometheus text exposition format 0.0.4. Counters end in
// _total, units are in the names (bytes, seconds, bytes_per_second), every family has its HELP
// and TYPE lines. docs/api.md lists the families and their labels.
#pragma once

#include <string>

#include "control/api/snapshot.h"

namespace fe::control::api {

inline constexpr char kMetricsContentType[] = "text/plain; version=0.0.4; charset=utf-8";

std::string MetricsText(const RunSnapshot& snapshot);

}  // namespace fe::control::api
