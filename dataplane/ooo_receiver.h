// The receiving side of the out-of-order mode: a QP accepts a packet anywhere in a bounded window
// past its first missing PSN and places it by PSN (as a NIC with out-of-order data placement
// writes each packet's payload to its own offset), keeping one bit per PSN of what arrived. The
// first missing PSN advances over everything that arrived, and the message is delivered when it
// passes the last one. What arrived is told back in each ACK's SACK block (sack.h).
#pragma once

#include <cstdint>

#include "dataplane/message.h"
#include "dataplane/psn_window.h"
#include "dataplane/sack.h"

namespace fe::dp {

enum class Placement : uint8_t {
  kPlaced,     // new: its payload counts
  kDuplicate,  // below the first missing PSN, or already in the window
  kBeyond,     // past the window: discarded, the sender resends it
};

class OooReceiver {
 public:
  explicit OooReceiver(uint32_t window_packets) : windows_(window_packets) {}

  // Takes PSN psn of a message of packets_total packets into r (expected_psn is the first
  // missing PSN; r's window is taken and given back here).
  Placement Place(ReceiverState& r, uint32_t psn, uint32_t packets_total);
  // The SACK block for an ACK of psn: the 32 PSNs around it (or, for a duplicate, around the first
  // missing one), set for everything below the first missing PSN and what arrived of the rest.
  SackBlock Sack(const ReceiverState& r, uint32_t psn) const;
  uint32_t window_packets() const { return windows_.window_packets(); }

 private:
  PsnWindows windows_;
};

}  // namespace fe::dp
