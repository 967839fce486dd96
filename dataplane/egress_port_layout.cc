// The compiler's check of EgressPort's cache-line layout (docs/architecture.md, "Hot state
// first, a cache line per queue"), apart from the header every hop's code includes.
#include <cstddef>

#include "dataplane/egress_port.h"

namespace fe::dp {

// offsetof on a class with virtual functions is conditionally supported: GCC and Clang give the
// offsets of the layout they use, which is what these rules are about.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
void EgressPort::CheckLayout() {
  constexpr size_t kLine = 64;
  static_assert(alignof(EgressPort) == kLine && sizeof(EgressPort) == 3 * kLine,
                "an egress port is two hot lines and a cold one, line-aligned: its queues follow");
  static_assert(offsetof(EgressPort, header_offset_) + sizeof(header_offset_) <= kLine &&
                    offsetof(EgressPort, rx_port_) + sizeof(rx_port_) <= kLine &&
                    offsetof(EgressPort, rx_node_) + sizeof(rx_node_) <= kLine &&
                    offsetof(EgressPort, peer_) + sizeof(peer_) <= kLine &&
                    offsetof(EgressPort, peer_port_) + sizeof(peer_port_) <= kLine,
                "hot fields in the first line: all an arrival reads (its receiver, the receiver's "
                "port, where the frame's headers sit)");
  static_assert(offsetof(EgressPort, busy_until_) + sizeof(busy_until_) <= kLine,
                "hot fields in the first line: busy_until_, which every enqueue tests");
  static_assert(offsetof(EgressPort, source_) >= kLine &&
                    offsetof(EgressPort, scheduler_) + sizeof(scheduler_) <= 2 * kLine,
                "hot fields in the second line: all that an enqueue, a dequeue and a transmission "
                "add to the first (source, observer, counters, masks, fault byte, DWRR position)");
  static_assert(
      offsetof(EgressPort, faults_) < 2 * kLine && offsetof(EgressPort, capturing_) < 2 * kLine,
      "a transmission tests the fault byte and the capture flag in the second line, "
      "never the cold state they stand for");
  static_assert(offsetof(EgressPort, rate_) >= 2 * kLine,
                "cold from the third line: the rate, the busy time at rates of no whole ps per "
                "byte, control frames, pause and watchdog state");
  static_assert(alignof(QueueState) == kLine && sizeof(QueueState) == kLine,
                "a cache line per queue: its FIFO, length, statistics and DWRR deficit");
  static_assert(sizeof(Queued) == 16,
                "a queued packet is a 16-byte FIFO entry (mbuf, frame length, tag, INT flag, "
                "QueueId): memory per queued packet in docs/performance.md");
  static_assert(sizeof(EgressPort) + 3 * sizeof(QueueState) == 384,
                "a link end with the default three queues is 384 bytes (docs/performance.md, "
                "memory)");
}
#pragma GCC diagnostic pop

}  // namespace fe::dp
