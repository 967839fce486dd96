// summary.json's `jobs`: per job of the workload, what it is and what became of its messages.
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "traffic/workload.h"

namespace fe::control {

// One object per job, in job order: name, kind, dscp, messages, bytes, messages_completed (its
// last ACK reached the sender, dp::SenderState::completed), first_start_ns (earliest actual start) and last_delivery_ns (latest delivery);
// the two times are null when no message of the job started, or none was delivered.
nlohmann::ordered_json JobsJson(const Workload& workload, std::span<const MessageOutcome> outcomes);

}  // namespace fe::control
