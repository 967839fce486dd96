// A pcapng capture file (draft-ietf-opsawg-pcapng) of frames leaving chosen egress ports, stamped
// with the virtual clock at nanosecond resolution. The virtual payload bytes of emulated packets
// are written as zeros up to the frame's real length, so dissectors see whole frames (the FCS is
// not captured, as NICs deliver frames without it).
//
// Not DPDK's rte_pcapng: in DPDK 22.11 it describes only ethdev ports (no interface block can be
// added for an emulated port) and stamps packets with the wall clock via the TSC, where a capture
// of a virtual-time run needs the virtual clock.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/units.h"

namespace fe::dp {

// A frame's direction on its interface, written as the packet block's epb_flags option.
enum class CaptureDirection : uint8_t { kInbound = 1, kOutbound = 2 };

class PcapngWriter {
 public:
  // Creates `path` with one Ethernet interface per name, numbered in order.
  static StatusOr<std::unique_ptr<PcapngWriter>> Open(const std::string& path,
                                                      const std::vector<std::string>& interfaces);
  ~PcapngWriter();
  PcapngWriter(const PcapngWriter&) = delete;
  PcapngWriter& operator=(const PcapngWriter&) = delete;

  // Appends the frame in m as seen on `interface` at `at`, going `direction`.
  void Write(uint32_t interface, Time at, const rte_mbuf* m,
             CaptureDirection direction = CaptureDirection::kOutbound);
  // From now on Write holds frames back until Flush, which writes them in time order (then by
  // interface, then as written). For a software run in windows, where a node runs a window's
  // events before the next node does: the frames come out of time order within a window, and a
  // file should list them in order.
  void HoldUntilFlush() { hold_ = true; }
  // Writes the frames held back, which must all be earlier than any frame written after.
  void Flush();
  // Flushes and closes; reports a write error that happened on the way.
  Status Close();
  uint64_t packets_written() const { return packets_; }

 private:
  explicit PcapngWriter(std::FILE* f) : f_(f) {}
  // A frame written (or held back, see HoldUntilFlush): its stored bytes are in held_bytes_
  // from `offset`.
  struct Held {
    Time at;
    uint32_t interface;
    uint32_t frame_bytes;
    uint32_t offset;
    uint32_t stored_bytes;
    CaptureDirection direction;
  };
  void Put(const void* data, size_t n);
  void PutPacket(const Held& h);

  std::FILE* f_;
  uint64_t packets_ = 0;
  bool failed_ = false;
  bool hold_ = false;
  std::vector<Held> held_;
  std::vector<uint8_t> held_bytes_;
};

}  // namespace fe::dp
