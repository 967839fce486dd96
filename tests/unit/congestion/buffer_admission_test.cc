#include "congestion/buffer_admission.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/random.h"

namespace fe::cong {
namespace {

constexpr uint8_t kLossy = 0;
constexpr uint8_t kLossless = 3;

BufferParams AllLossy(int64_t total_bytes, int num_ports) {
  BufferParams params;
  params.total_bytes = total_bytes;
  params.num_ports = num_ports;
  for (PriorityBufferParams& p : params.priorities) p.lossless = false;
  return params;
}

PriorityBufferParams Lossless(double alpha, int64_t reserved_bytes, PfcThresholdParams pfc) {
  PriorityBufferParams p;
  p.lossless = true;
  p.alpha = alpha;
  p.reserved_bytes = reserved_bytes;
  p.pfc = pfc;
  return p;
}

BufferAdmission Build(const BufferParams& params) {
  StatusOr<BufferConfig> config = Compile(params);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return BufferAdmission(std::move(config).value());
}

TEST(BufferAdmissionTest, ReservesFillBeforeTheSharedPool) {
  BufferParams params = AllLossy(1'000'000, 2);
  params.priorities[kLossy].reserved_bytes = 10'000;
  params.priorities[kLossless] = Lossless(1.0, 8'000, {});
  params.headroom_bytes = {50'000, 50'000};
  BufferAdmission mmu = Build(params);
  // Shared pool: 1e6 - 2 ports * (10,000 + 8,000) reserved - 2 ports * 50,000 headroom.
  EXPECT_EQ(mmu.config().shared_bytes, 1'000'000 - 36'000 - 100'000);

  for (int i = 0; i < 10; ++i) ASSERT_EQ(mmu.Admit(0, 1, kLossy, 1'000), AdmitVerdict::kAdmit);
  EXPECT_EQ(mmu.shared_used_bytes(), 0);
  mmu.Admit(0, 1, kLossy, 1'000);
  EXPECT_EQ(mmu.shared_used_bytes(), 1'000);

  // The lossless PG's reserve is per ingress port: 6,000 of its 8,000 bytes taken, then 1,000
  // bytes of a 3,000-byte packet spill into the pool.
  for (int i = 0; i < 3; ++i) mmu.Admit(1, 0, kLossless, 2'000);
  EXPECT_EQ(mmu.shared_used_bytes(), 1'000);
  mmu.Admit(1, 0, kLossless, 3'000);
  EXPECT_EQ(mmu.shared_used_bytes(), 2'000);
}

// One congested lossy queue under a dynamic threshold: packet n (of b bytes) is admitted while
// n b <= alpha (S - (n - 1) b), so N = floor(alpha (S + b) / ((1 + alpha) b)) are, and the queue
// settles within a packet of the fixed point q = alpha / (1 + alpha) S.
TEST(BufferAdmissionTest, OneCongestedLossyQueueSettlesAtAlphaOverOnePlusAlphaOfThePool) {
  constexpr int64_t kShared = 1'000'000;
  constexpr int64_t kB = 1'000;
  // alpha as num / den, so the expected count is exact integer arithmetic.
  for (const auto& [num, den] : {std::pair{1, 2}, std::pair{1, 1}, std::pair{2, 1}}) {
    const double alpha = static_cast<double>(num) / den;
    BufferParams params = AllLossy(kShared, 2);
    params.priorities[kLossy].alpha = alpha;
    BufferAdmission mmu = Build(params);
    const int64_t want_admitted = num * (kShared + kB) / ((den + num) * kB);
    int64_t admitted = 0;
    while (mmu.Admit(0, 1, kLossy, kB) == AdmitVerdict::kAdmit) ++admitted;
    EXPECT_EQ(admitted, want_admitted) << "alpha " << alpha;
    const double fixed_point = alpha / (1 + alpha) * kShared;
    EXPECT_NEAR(mmu.queue(1, kLossy).bytes, fixed_point, kB) << "alpha " << alpha;
    // The refused packet charged nothing, and the limit it met is alpha x free.
    EXPECT_EQ(mmu.used_bytes(), admitted * kB);
    EXPECT_EQ(mmu.QueueLimitBytes(kLossy),
              static_cast<int64_t>(alpha * static_cast<double>(kShared - admitted * kB)));
    EXPECT_EQ(mmu.Admit(0, 1, kLossy, kB), AdmitVerdict::kDropQueueLimit);
  }
}

// Two congested queues share the pool: each settles at alpha S / (1 + 2 alpha), within the
// packets in flight between their alternating arrivals (two packets).
TEST(BufferAdmissionTest, TwoCongestedLossyQueuesSettleAtAlphaOverOnePlusTwoAlpha) {
  constexpr int64_t kShared = 900'000;
  constexpr int64_t kB = 1'000;
  BufferAdmission mmu = Build(AllLossy(kShared, 3));
  for (int i = 0; i < 2'000; ++i) {
    mmu.Admit(0, 1, kLossy, kB);
    mmu.Admit(0, 2, kLossy, kB);
  }
  EXPECT_NEAR(mmu.queue(1, kLossy).bytes, kShared / 3.0, 2 * kB);
  EXPECT_NEAR(mmu.queue(2, kLossy).bytes, kShared / 3.0, 2 * kB);
}

BufferParams StaticLossless() {
  BufferParams params = AllLossy(1'000'000, 2);
  params.priorities[kLossless] = Lossless(1.0, 0, {.xoff_bytes = 20'000, .xon_bytes = 10'000});
  params.headroom_bytes = {50'000, 50'000};
  return params;
}

TEST(BufferAdmissionTest, XoffAtThresholdXonAfterDrainingToXonAndEdgesFireOnce) {
  BufferAdmission mmu = Build(StaticLossless());
  for (int n = 1; n <= 19; ++n) {
    ASSERT_EQ(mmu.Admit(0, 1, kLossless, 1'000), AdmitVerdict::kAdmit);
    ASSERT_EQ(mmu.PfcCheck(0, kLossless), PfcAction::kNone) << n;
  }
  ASSERT_EQ(mmu.Admit(0, 1, kLossless, 1'000), AdmitVerdict::kAdmit);  // shared = 20,000
  EXPECT_EQ(mmu.PfcCheck(0, kLossless), PfcAction::kSendXoff);
  EXPECT_EQ(mmu.PfcCheck(0, kLossless), PfcAction::kNone);  // edge, not level
  EXPECT_TRUE(mmu.pg(0, kLossless).xoff);
  // The other port's PG is untouched.
  EXPECT_EQ(mmu.PfcCheck(1, kLossless), PfcAction::kNone);

  for (int n = 0; n < 5; ++n) {
    ASSERT_EQ(mmu.Admit(0, 1, kLossless, 1'000), AdmitVerdict::kAdmitToHeadroom);
  }
  // Draining: the headroom empties first, then shared use falls; XON exactly at 10,000.
  for (int released = 1; released <= 15; ++released) {
    mmu.Release(0, 1, kLossless, 1'000);
    const PfcAction action = mmu.PfcCheck(0, kLossless);
    const int64_t shared = mmu.shared_used_bytes();
    EXPECT_EQ(action, released == 15 ? PfcAction::kSendXon : PfcAction::kNone)
        << "released " << released << ", shared " << shared;
  }
  EXPECT_EQ(mmu.shared_used_bytes(), 10'000);
  mmu.Release(0, 1, kLossless, 1'000);
  EXPECT_EQ(mmu.PfcCheck(0, kLossless), PfcAction::kNone);
}

TEST(BufferAdmissionTest, LosslessIsNeverDroppedWhileHeadroomRemains) {
  BufferAdmission mmu = Build(StaticLossless());
  for (int n = 0; n < 20; ++n) ASSERT_EQ(mmu.Admit(0, 1, kLossless, 1'000), AdmitVerdict::kAdmit);
  for (int n = 0; n < 50; ++n) {
    ASSERT_EQ(mmu.Admit(0, 1, kLossless, 1'000), AdmitVerdict::kAdmitToHeadroom) << n;
  }
  EXPECT_EQ(mmu.Admit(0, 1, kLossless, 1'000), AdmitVerdict::kDropHeadroomOverflow);
  EXPECT_EQ(mmu.pg(0, kLossless).headroom_bytes, 50'000);
  // Peak ingress use is exactly XOFF + headroom.
  EXPECT_EQ(mmu.pg(0, kLossless).peak_bytes, 20'000 + 50'000);
  EXPECT_EQ(mmu.used_bytes(), 70'000);
}

// Dynamic XOFF at alpha = 1/8: the PG takes packet n into the pool while
// n b <= (S - (n - 1) b) / 8, i.e. up to N = floor((S + b) / (9 b)) packets, raises XOFF as its
// usage reaches the threshold, and sends the next packet to headroom.
TEST(BufferAdmissionTest, DynamicXoffStopsThePgAtAlphaOverOnePlusAlphaOfThePool) {
  BufferParams params = AllLossy(1'000'000, 2);
  params.priorities[kLossless] = Lossless(1.0 / 8, 0, {});
  params.headroom_bytes = {100'000, 100'000};
  BufferAdmission mmu = Build(params);
  constexpr int64_t kB = 1'000;
  const int64_t shared = mmu.config().shared_bytes;
  ASSERT_EQ(shared, 800'000);
  const int64_t want_n = (shared + kB) / (9 * kB);
  int64_t n = 0;
  PfcAction action = PfcAction::kNone;
  while (action == PfcAction::kNone) {
    ASSERT_EQ(mmu.Admit(0, 1, kLossless, kB), AdmitVerdict::kAdmit);
    ++n;
    action = mmu.PfcCheck(0, kLossless);
  }
  EXPECT_EQ(action, PfcAction::kSendXoff);
  EXPECT_EQ(n, want_n);
  EXPECT_NEAR(mmu.pg(0, kLossless).bytes, shared / 9.0, kB);
  EXPECT_EQ(mmu.Admit(0, 1, kLossless, kB), AdmitVerdict::kAdmitToHeadroom);
  // XON once the headroom is empty and the usage s has fallen xon_offset_bytes (8,192) below
  // the threshold: s <= (S - s) / 8 - 8,192, i.e. at the largest multiple of b with
  // 9 s <= S - 65,536. The first release empties the headroom.
  const int64_t want_xon_bytes = (shared - 8 * 8'192) / 9 / kB * kB;
  int64_t released = 0;
  do {
    mmu.Release(0, 1, kLossless, kB);
    ++released;
    action = mmu.PfcCheck(0, kLossless);
  } while (action == PfcAction::kNone);
  EXPECT_EQ(action, PfcAction::kSendXon);
  EXPECT_EQ(mmu.pg(0, kLossless).headroom_bytes, 0);
  EXPECT_EQ(mmu.pg(0, kLossless).bytes, want_xon_bytes);
  EXPECT_EQ(released, 1 + (want_n * kB - want_xon_bytes) / kB);
}

// Only the priorities in use get entries of their own; the MMU must decide and count exactly as
// one that keeps all eight. The same random admissions, releases and PFC checks go to both:
// every verdict, PFC action and entry must match, and the idle priorities read zero.
TEST(BufferAdmissionTest, PrioritiesInUseAccountAsWithAllEight) {
  BufferParams params = AllLossy(400'000, 4);
  params.priorities[kLossy].reserved_bytes = 3'000;
  params.priorities[5].alpha = 4;
  params.priorities[kLossless] = Lossless(0.5, 5'000, {});
  params.headroom_bytes = {30'000, 30'000, 30'000, 30'000};
  BufferAdmission all = Build(params);
  params.priorities_in_use = (1u << kLossy) | (1u << kLossless) | (1u << 5);
  BufferAdmission some = Build(params);
  // Four ports, three rows in use and one shared by the idle five, instead of eight rows.
  EXPECT_EQ(some.config().num_entries, 4u * 4u);
  EXPECT_EQ(all.config().num_entries, 4u * 8u);

  struct Held {
    uint16_t in, out;
    uint8_t prio;
    uint32_t bytes;
  };
  std::vector<Held> held;
  Random rng(7);
  const uint8_t prios[] = {kLossy, kLossless, 5};
  for (int step = 0; step < 50'000; ++step) {
    Held h{static_cast<uint16_t>(rng.NextBelow(4)), static_cast<uint16_t>(rng.NextBelow(4)),
           prios[rng.NextBelow(3)], static_cast<uint32_t>(64 + rng.NextBelow(4033))};
    if (held.empty() || rng.NextBelow(100) < 55) {
      const AdmitVerdict v = all.Admit(h.in, h.out, h.prio, h.bytes);
      ASSERT_EQ(some.Admit(h.in, h.out, h.prio, h.bytes), v) << step;
      if (Admitted(v)) held.push_back(h);
    } else {
      const size_t i = rng.NextBelow(held.size());
      h = held[i];
      held[i] = held.back();
      held.pop_back();
      all.Release(h.in, h.out, h.prio, h.bytes);
      some.Release(h.in, h.out, h.prio, h.bytes);
    }
    ASSERT_EQ(some.PfcCheck(h.in, kLossless), all.PfcCheck(h.in, kLossless)) << step;
  }
  EXPECT_GT(held.size(), 0u);
  EXPECT_EQ(some.used_bytes(), all.used_bytes());
  EXPECT_EQ(some.shared_used_bytes(), all.shared_used_bytes());
  for (uint16_t port = 0; port < 4; ++port) {
    for (uint8_t prio = 0; prio < kNumPriorities; ++prio) {
      EXPECT_EQ(some.pg(port, prio).bytes, all.pg(port, prio).bytes) << port << " " << +prio;
      EXPECT_EQ(some.pg(port, prio).headroom_bytes, all.pg(port, prio).headroom_bytes);
      EXPECT_EQ(some.pg(port, prio).peak_bytes, all.pg(port, prio).peak_bytes);
      EXPECT_EQ(some.pg(port, prio).xoff, all.pg(port, prio).xoff);
      EXPECT_EQ(some.queue(port, prio).bytes, all.queue(port, prio).bytes);
      EXPECT_EQ(some.queue(port, prio).peak_bytes, all.queue(port, prio).peak_bytes);
      if (prio != kLossy && prio != kLossless && prio != 5) {
        EXPECT_EQ(some.pg(port, prio).peak_bytes, 0);
        EXPECT_EQ(some.queue(port, prio).peak_bytes, 0);
      }
    }
  }
}

// Conservation: after any interleaving of admissions and releases, every counter equals the
// bytes still held, counted independently here, and releasing everything returns all to zero.
TEST(BufferAdmissionTest, CountersConserveBytesAndReturnToZero) {
  BufferParams params = AllLossy(400'000, 4);
  params.priorities[kLossy].reserved_bytes = 3'000;
  params.priorities[5].reserved_bytes = 1'000;
  params.priorities[5].alpha = 4;
  params.priorities[kLossless] = Lossless(0.5, 5'000, {});
  params.headroom_bytes = {30'000, 30'000, 30'000, 30'000};
  BufferAdmission mmu = Build(params);

  struct Held {
    uint16_t in, out;
    uint8_t prio;
    uint32_t bytes;
  };
  std::vector<Held> held;
  using Key = std::pair<int, int>;  // (egress port, priority)
  std::map<Key, int64_t> queue_bytes;
  int64_t total = 0;
  Random rng(99);
  const uint8_t prios[] = {kLossy, kLossless, 5};
  auto check = [&] {
    ASSERT_EQ(mmu.used_bytes(), total);
    ASSERT_LE(mmu.used_bytes(), params.total_bytes);
    ASSERT_GE(mmu.shared_used_bytes(), 0);
    ASSERT_LE(mmu.shared_used_bytes(), mmu.config().shared_bytes);
    int64_t ingress = 0;
    for (uint16_t port = 0; port < 4; ++port) {
      for (const uint8_t prio : prios) {
        ASSERT_EQ(mmu.queue(port, prio).bytes, queue_bytes[Key(port, prio)]);
        ASSERT_LE(mmu.pg(port, prio).headroom_bytes, 30'000);
        ingress += mmu.pg(port, prio).bytes + mmu.pg(port, prio).headroom_bytes;
      }
    }
    ASSERT_EQ(ingress, total);
  };
  for (int step = 0; step < 100'000; ++step) {
    if (held.empty() || rng.NextBelow(100) < 55) {
      const Held h{static_cast<uint16_t>(rng.NextBelow(4)), static_cast<uint16_t>(rng.NextBelow(4)),
                   prios[rng.NextBelow(3)], static_cast<uint32_t>(64 + rng.NextBelow(4033))};
      if (Admitted(mmu.Admit(h.in, h.out, h.prio, h.bytes))) {
        held.push_back(h);
        queue_bytes[Key(h.out, h.prio)] += h.bytes;
        total += h.bytes;
      }
    } else {
      const size_t i = rng.NextBelow(held.size());
      const Held h = held[i];
      held[i] = held.back();
      held.pop_back();
      mmu.Release(h.in, h.out, h.prio, h.bytes);
      queue_bytes[Key(h.out, h.prio)] -= h.bytes;
      total -= h.bytes;
    }
    mmu.PfcCheck(0, kLossless);
    check();
  }
  for (const Held& h : held) {
    mmu.Release(h.in, h.out, h.prio, h.bytes);
    queue_bytes[Key(h.out, h.prio)] -= h.bytes;
    total -= h.bytes;
  }
  check();
  EXPECT_EQ(mmu.used_bytes(), 0);
  EXPECT_EQ(mmu.shared_used_bytes(), 0);
  for (uint16_t port = 0; port < 4; ++port) {
    for (const uint8_t prio : prios) {
      EXPECT_EQ(mmu.pg(port, prio).bytes, 0);
      EXPECT_EQ(mmu.pg(port, prio).headroom_bytes, 0);
      EXPECT_EQ(mmu.queue(port, prio).bytes, 0);
    }
  }
}

TEST(BufferAdmissionTest, RefusesABufferSmallerThanItsReservesAndHeadroomsNamingTheFields) {
  BufferParams params;  // priority 3 lossless by default
  params.num_ports = 32;
  params.total_bytes = 5'000'000;
  for (PriorityBufferParams& p : params.priorities) p.reserved_bytes = 10'000;
  params.headroom_bytes.assign(32, 100'000);
  // Reserved 32 ports x 8 x 10,000 = 2,560,000; headroom 1 x 32 x 100,000 = 3,200,000.
  const std::string message = Compile(params).status().message();
  EXPECT_EQ(message,
            "total_bytes (5000000) < reserved (2560000 = num_ports 32 x sum of "
            "priorities[].reserved_bytes 80000) + headroom (3200000 = 1 lossless priorities x "
            "sum of headroom_bytes 3200000): it needs at least 5760000 bytes");
  params.total_bytes = 5'760'000;  // exactly enough: an empty shared pool is allowed
  EXPECT_TRUE(Compile(params).ok());
}

TEST(BufferAdmissionTest, RefusesBadPriorityParametersNamingTheField) {
  BufferParams params = StaticLossless();
  params.priorities[kLossless].pfc = {.xoff_bytes = 10'000, .xon_bytes = 20'000};
  EXPECT_EQ(Compile(params).status().message(),
            "priorities[3].pfc.xon_bytes (20000) > xoff_bytes (10000)");
  params = StaticLossless();
  params.priorities[2].alpha = 0;
  EXPECT_EQ(Compile(params).status().message(),
            "priorities[2].alpha (0.000000) outside [1/65536, 64]");
  params = StaticLossless();
  params.headroom_bytes = {1'000};
  EXPECT_NE(Compile(params).status().message().find("headroom_bytes"), std::string::npos);
  params = StaticLossless();
  params.num_ports = 0;
  EXPECT_EQ(Compile(params).status().message(), "num_ports (0) outside [1, 65535]");
}

}  // namespace
}  // namespace fe::cong
