#include "control/report/message_counts.h"

namespace fe::control {

MessageCounts CountMessages(const dp::MessageTable& messages) {
  MessageCounts c;
  for (uint32_t id = 0; id < messages.size(); ++id) {
    if (messages.completed(id)) {
      ++c.completed;
    } else if (messages.delivered(id)) {
      ++c.delivered_unacknowledged;
    } else {
      ++c.undelivered;
    }
  }
  return c;
}

}  // namespace fe::control
