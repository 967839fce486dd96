// In-band network telemetry for HPCC, carried in the mbuf's metadata rather than in the frame:
// the emulated fabric's data packets stay byte-exact RoCEv2 while every switch egress port on the
// path appends one hop record. The stack fits PacketMeta::int_stack (60 bytes): one header byte
// and up to five 9-byte records, enough for the five switch egress ports of a 3-tier fat-tree
// path. Records use the field widths of the HPCC paper's INT header (wrapping counters), and the
// sender expands them against the previous full record of the same hop (ExpandIntHop).
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <span>

#include "congestion/hpcc.h"
#include "core/units.h"
#include "dataplane/packet.h"

namespace fe::dp {

inline constexpr uint32_t kMaxStampedHops = 5;

// One stamped record, as stored: the counters wrap (timestamp every 2^24 ns = 16.8 ms, tx bytes
// every 2^20 x 128 B = 128 MiB); an ACK arrives far more often than either wraps.
struct StampedHop {
  uint32_t timestamp_ns;  // 24 bits
  uint32_t tx_units;      // 20 bits, 128-byte units
  uint16_t queue_units;   // 16 bits, 128-byte units, saturating (8 MiB)
  uint16_t rate_gbps;     // 12 bits, saturating (4095 Gb/s)
};

inline constexpr uint32_t kIntTxUnitBytes = 128;
inline constexpr uint32_t kIntQueueUnitBytes = 128;

// Header byte of the stack: bit 7 = collecting, bits 0..2 = records stamped.
inline constexpr uint8_t kIntCollectFlag = 0x80;

// Marks m as collecting telemetry (a NIC's data packet under HPCC) or not, with an empty stack.
// Every packet a NIC builds passes here: mbufs are reused and their metadata is not cleared.
void InitIntStack(rte_mbuf* m, bool collect);

// A switch egress port's record for m, appended if m collects telemetry and the stack has room.
void StampInt(rte_mbuf* m, const cong::IntHop& hop);

// The receiver echoes the data packet's stack in its ACK. The echo collects nothing: switches on
// the way back must not stamp over the forward path's records.
void CopyIntStack(const rte_mbuf* from, rte_mbuf* to);

// The records stamped into m, first hop first; returns how many (at most kMaxStampedHops).
uint32_t ReadIntStack(const rte_mbuf* m, std::span<StampedHop, kMaxStampedHops> out);

// The full record a stamped one stands for, given the previous full record of the same hop
// (wrapping fields advance by their difference modulo their width).
cong::IntHop ExpandIntHop(const StampedHop& stamped, const cong::IntHop& previous);

}  // namespace fe::dp
