// The JSON views of a snapshot: GET /v1/status and GET /v1/flows.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "control/api/snapshot.h"

namespace fe::control::api {

// Which flows GET /v1/flows lists: ?state=active (the default), completed, pending, given_up or
// all.
enum class FlowFilter { kActive, kCompleted, kPending, kGivenUp, kAll };
std::optional<FlowFilter> ParseFlowFilter(std::string_view state);

std::string StatusJson(const RunSnapshot& snapshot);
// The snapshot must have its flows.
std::string FlowsJson(const RunSnapshot& snapshot, FlowFilter filter);

}  // namespace fe::control::api
