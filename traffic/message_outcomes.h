// What a run made of each message, read from the fabric's message table, for the reports.
#pragma once

#include <vector>

#include "dataplane/message.h"
#include "traffic/workload.h"

namespace fe {

// By message id: when its start event ran (Infinite: it never started, e.g. it waited for a
// message that was given up), when its last byte reached the receiver and when its last ACK
// reached the sender (Infinite: not, or not before the run ended).
std::vector<MessageOutcome> OutcomesOf(const dp::MessageTable& messages);

}  // namespace fe
