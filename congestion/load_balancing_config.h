// Settings, not the choice: dataplane/load_balancer.cc picks members (plain hash ECMP: switch.cc).
//
// Load balancing over the members of an equal-cost route group: the user's parameters, their
// compiled form, and the small pure pieces the switch's balancer is made of: the flowlet table
// (bounded flow state indexed by flow hash, as switch ASICs keep it), the decaying byte count that
// measures a port's recent utilisation, and the quantisation of local load into quality bands.
// docs/load-balancing.md describes each policy and the devices it models.
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "core/units.h"

namespace fe::cong {

enum class LbPolicy : uint8_t { kHash, kWeighted, kFlowlet, kAdaptive, kSpray };
enum class SprayOrder : uint8_t { kRandom, kRoundRobin };

const char* LbPolicyName(LbPolicy p);

struct LbParams {
  LbPolicy policy = LbPolicy::kHash;
  Time flowlet_gap = Time::FromNs(4000);
  uint32_t flowlet_table_entries = 4096;
  bool adaptive_per_packet = false;
  int64_t queue_band_bytes = 8192;
  Time utilisation_window = Time::FromNs(2000);
  SprayOrder spray_order = SprayOrder::kRandom;
};

inline constexpr uint32_t kMinFlowletTableEntries = 64;
inline constexpr uint32_t kMaxFlowletTableEntries = 1u << 20;
inline constexpr int kQualityBands = 8;  // per load measure, as DLB hardware quantises them

// Flowlet timestamps count ticks of 1,024 ps (a shift, not a divide, per packet).
inline constexpr int kTickShift = 10;
inline constexpr uint64_t TicksOf(Time t) { return static_cast<uint64_t>(t.ps()) >> kTickShift; }

struct LbConfig {
  LbPolicy policy = LbPolicy::kHash;
  SprayOrder spray_order = SprayOrder::kRandom;
  bool adaptive_per_packet = false;
  uint64_t flowlet_gap_ticks = 0;  // rounded up: a gap must last at least the configured time
  uint32_t flowlet_table_entries = 0;
  int64_t queue_band_bytes = 0;
  int64_t utilisation_window_ps = 0;
};

// Errors name the field ("flowlet_table_entries: ...").
StatusOr<LbConfig> Compile(const LbParams& params);

// A fixed-size table of flow state indexed by flow hash: one 8-byte word per slot holding the
// slot's last packet time (48 bits of ticks, which wrap after 3.3 days) and the group member its
// flow took (16 bits, member index + 1; 0: never used). Flows whose hashes share a slot share its
// state, as in hardware flowset tables; the table never grows.
class FlowletTable {
 public:
  explicit FlowletTable(uint32_t entries) : slots_(entries, 0), mask_(entries - 1) {}

  uint64_t* SlotOf(uint32_t flow_hash) { return &slots_[flow_hash & mask_]; }
  const uint64_t* SlotOf(uint32_t flow_hash) const { return &slots_[flow_hash & mask_]; }

  // The member the slot's flow took, or -1 if the slot was never used.
  static int LastMember(uint64_t slot) { return static_cast<int>(slot & 0xffff) - 1; }
  // Whether the slot's flow sent within `gap_ticks` of now: its flowlet goes on.
  static bool Active(uint64_t slot, uint64_t now_ticks, uint64_t gap_ticks) {
    return slot != 0 && ((now_ticks - (slot >> 16)) & kTickMask) <= gap_ticks;
  }
  static uint64_t Pack(uint64_t now_ticks, int member) {
    return ((now_ticks & kTickMask) << 16) | static_cast<uint64_t>(member + 1);
  }
  size_t size() const { return slots_.size(); }

 private:
  static constexpr uint64_t kTickMask = (uint64_t{1} << 48) - 1;
  std::vector<uint64_t> slots_;
  uint32_t mask_;
};

// A port's recent transmitted bytes, decayed with time constant W: each update multiplies the
// count by W / (W + dt) (exp(-dt/W) to first order, without an exp) and adds the bytes sent since.
// At a steady rate r the count settles at r x W, so count / (link rate x W) is the utilisation.
struct PortLoad {
  uint64_t tx_bytes_seen = 0;
  int64_t at_ps = 0;
  double bytes = 0;

  void Update(int64_t now_ps, uint64_t tx_bytes, int64_t window_ps) {
    const int64_t dt = now_ps - at_ps;
    if (dt > 0) bytes *= static_cast<double>(window_ps) / static_cast<double>(window_ps + dt);
    bytes += static_cast<double>(tx_bytes - tx_bytes_seen);
    tx_bytes_seen = tx_bytes;
    at_ps = now_ps;
  }
};

// Band in [0, kQualityBands) of a load measure: `value` in units of one band, the last band
// holding everything above.
inline int BandOf(double value_in_bands) {
  return value_in_bands >= kQualityBands - 1 ? kQualityBands - 1 : static_cast<int>(value_in_bands);
}

// A member's quality, lower is better: its queue band plus its utilisation band, so that either
// measure alone can tell two members apart.
inline int MemberQuality(int64_t queue_bytes, int64_t queue_band_bytes, double utilisation) {
  return BandOf(static_cast<double>(queue_bytes) / static_cast<double>(queue_band_bytes)) +
         BandOf(utilisation * kQualityBands);
}

}  // namespace fe::cong
