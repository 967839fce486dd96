// What became of the messages, in the one sense of "complete" every output uses: the ACK of a
// message's last packet reached its sender (dp::MessageTable::completed).
#pragma once

#include <cstdint>

#include "dataplane/message.h"

namespace fe::control {

// Every message in exactly one class, so completed + delivered_unacknowledged + undelivered is
// the number of messages.
struct MessageCounts {
  uint64_t completed = 0;
  uint64_t delivered_unacknowledged = 0;  // last byte at the receiver, last ACK not at the sender
  uint64_t undelivered = 0;               // in flight, given up, or never started
};

MessageCounts CountMessages(const dp::MessageTable& messages);

}  // namespace fe::control
