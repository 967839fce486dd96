#include "traffic/message_outcomes.h"

namespace fe {

std::vector<MessageOutcome> OutcomesOf(const dp::MessageTable& messages) {
  std::vector<MessageOutcome> out(messages.size());
  for (size_t id = 0; id < messages.size(); ++id) {
    out[id].started = messages.sender[id].started_at;
    out[id].delivered = messages.receiver[id].delivered_at;
    out[id].completed = messages.sender[id].completed_at;
  }
  return out;
}

}  // namespace fe
