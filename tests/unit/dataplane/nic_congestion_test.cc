// The NIC's congestion control on two NICs back to back (nic_back_to_back.h): CNP pacing, DCQCN
// and HPCC. Expectations come from the link arithmetic and the DCQCN and HPCC equations, never
// from the NIC's own output.
#include "dataplane/nic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "dataplane/int_stamp.h"
#include "dataplane/packet.h"
#include "nic_back_to_back.h"
#include "test_pool.h"

namespace fe::dp {
namespace {

TEST(NicTest, CeMarksGetAtMostOneCnpPerInterval) {
  NicParams p = Params(1000);
  p.cnp_pacer.min_interval = Time::FromUs(4);
  BackToBack w(p, k100G, kDelay);
  w.to_b->MarkCe();
  const uint32_t n = 1000;
  const uint32_t id = w.Send(n * 1000, Time::Zero());
  w.sched.RunUntil(Time::Infinite());

  // Marked packets arrive every ser; after a CNP the next one answers the first mark at least
  // one interval later, i.e. ceil(I / ser) packets on: one CNP per ceil(I / ser) packets.
  const Time ser = k100G.SerializationTime(1000 + kDataOverheadBytes);
  const int64_t spacing = (p.cnp_pacer.min_interval.ps() + ser.ps() - 1) / ser.ps();
  const uint64_t want = (n + spacing - 1) / spacing;
  EXPECT_EQ(w.b->counters().ce_marked_received, n);
  EXPECT_EQ(w.b->counters().cnps_sent, want);
  EXPECT_EQ(w.a->counters().cnps_received, want);
  EXPECT_EQ(w.messages.sender[id].cnps_received, want);
  // Each CNP is a RoCEv2 CNP (opcode 0x81) to the sender's QP with DSCP 48.
  uint64_t cnps_seen = 0;
  for (const HeaderView& h : w.to_a->others) {
    if (h.opcode != static_cast<uint8_t>(BthOpcode::kCnp)) continue;
    ++cnps_seen;
    EXPECT_EQ(h.dest_qp, QpnOf(id));
    EXPECT_EQ(h.dscp, 48);
  }
  EXPECT_EQ(cnps_seen, want);
}

// Hands a CNP for a QP to a NIC at a chosen time, as if the receiver had sent it.
class CnpInjector final : public EventHandler {
 public:
  CnpInjector(testing::TestPool* pool, Nic* nic, uint32_t qpn)
      : pool_(pool), nic_(nic), qpn_(qpn) {}
  void OnEvent(uint64_t) override {
    rte_mbuf* m = pool_->Alloc();
    const RoceFields f{1, 0, 0xC000, 48, kEcnNotEct, BthOpcode::kCnp, qpn_, 0, false};
    ASSERT_TRUE(WriteRoceCnp(m, f));
    nic_->Receive(0, m);
  }

 private:
  testing::TestPool* pool_;
  Nic* nic_;
  uint32_t qpn_;
};

TEST(NicTest, DcqcnPacesTheQpAtItsRateAfterACnp) {
  NicParams p = Params(1000);
  p.cc = CongestionControl::kDcqcn;
  p.dcqcn = cong::DcqcnParams::Sigcomm2015();
  BackToBack w(p, k100G, kDelay);
  const uint32_t id = w.Send(1'000'000, Time::Zero());
  CnpInjector cnp(&w.pool, w.a.get(), QpnOf(id));
  const Time t_cnp = Time::FromUs(3);
  w.sched.At(t_cnp, &cnp);
  w.sched.RunUntil(Time::Infinite());

  // Before the CNP the QP runs at line rate: one packet per serialisation time. The first cut
  // (alpha = initial 1) halves the rate: R_C = 100 x (1 - 1/2) = 50 Gb/s, so later packets are
  // wire_bytes / 50 Gb/s apart until the first increase (T = 55 us after the cut).
  const int64_t wire = 1000 + kDataOverheadBytes;
  const Time ser_line = k100G.SerializationTime(wire);
  const Time ser_cut = Rate::FromGbps(50).SerializationTime(wire);
  const std::vector<Time>& t = w.to_b->data_arrivals;
  int checked_line = 0, checked_cut = 0;
  for (size_t i = 1; i < t.size(); ++i) {
    if (t[i] < t_cnp) {
      EXPECT_EQ(t[i] - t[i - 1], ser_line) << i;
      ++checked_line;
    } else if (t[i - 1] > t_cnp + ser_line + kDelay && t[i] < t_cnp + Time::FromUs(55)) {
      EXPECT_EQ(t[i] - t[i - 1], ser_cut) << i;
      ++checked_cut;
    }
  }
  EXPECT_GT(checked_line, 10);
  EXPECT_GT(checked_cut, 100);
  EXPECT_EQ(w.messages.sender[id].cnps_received, 1u);
  EXPECT_EQ(w.messages.receiver[id].bytes_delivered, 1'000'000u);
  EXPECT_EQ(w.pool.in_use(), 0u);
}

TEST(NicTest, DcqcnIncreasesShortenTheGapAQpIsWaitingOut) {
  NicParams p = Params(4096);
  p.cc = CongestionControl::kDcqcn;
  p.dcqcn = cong::DcqcnParams::Sigcomm2015();  // min rate 100 Mb/s, T = 55 us, F = 5
  BackToBack w(p, k100G, kDelay);
  const uint32_t id = w.Send(12 * 4096, Time::Zero());
  CnpInjector cnp(&w.pool, w.a.get(), QpnOf(id));
  // Ten CNPs at once. Alpha starts at 1 and stays 1 ((1 - g) + g), so each cut halves R_C and
  // sets R_T to the rate before it: 100G / 2^9 = 195,312,500 b/s after nine, and the tenth cuts
  // to the 100 Mb/s floor with R_T = 195,312,500.
  const Time t_cnp = Time::FromUs(3);
  for (int i = 0; i < 10; ++i) w.sched.At(t_cnp, &cnp);
  w.sched.RunUntil(Time::Infinite());

  // At line rate packet j starts at j x 334.24 ns: packet 8 (at 2673.92 ns) is the last before
  // the CNPs, and packet 9 is waiting for 3008.16 ns. The cut re-spaces it to the floor's gap
  // after packet 8 (+334.24 us). The timer then fires at 3 + 55 k us, each time halving the gap
  // to R_T, the midpoint rounded up:
  //   58 us: 147,656,250    113 us: 171,484,375    168 us: 183,398,438 b/s
  // and each increase re-spaces packet 9, which leaves at 2673.92 ns + 4178 B / 183,398,438 b/s
  // = 184.93 us, before the next expiry (223 us). Packet 10 waits after it through two more
  // fast-recovery steps and the first additive one (F = 5; R_T + 40 Mb/s = 235,312,500):
  //   223 us: 189,355,469    278 us: 192,333,985    333 us: 213,823,243 b/s
  // and leaves 4178 B / 213,823,243 b/s (156.32 us) after packet 9, before the expiry at 388 us.
  // Without re-spacing, packet 9 would have left at line rate and packet 10 at the floor's gap.
  const int64_t wire = 4096 + kDataOverheadBytes;
  const Time ser_line = k100G.SerializationTime(wire);
  const Time gap9 = Rate::FromBps(183'398'438).SerializationTime(wire);
  const Time gap10 = Rate::FromBps(213'823'243).SerializationTime(wire);
  const Time t_last_before_cnp = ser_line * 8;
  ASSERT_LT(t_last_before_cnp, t_cnp);
  ASSERT_GT(t_last_before_cnp + ser_line, t_cnp);
  ASSERT_GT(t_last_before_cnp + gap9, Time::FromUs(168));
  ASSERT_LT(t_last_before_cnp + gap9, Time::FromUs(223));
  ASSERT_GT(t_last_before_cnp + gap9 + gap10, Time::FromUs(333));
  ASSERT_LT(t_last_before_cnp + gap9 + gap10, Time::FromUs(388));
  // Arrivals are starts shifted by one serialisation and the propagation delay; exact in ps.
  const std::vector<Time>& t = w.to_b->data_arrivals;
  ASSERT_EQ(t.size(), 12u);
  EXPECT_EQ(t[8], t_last_before_cnp + ser_line + kDelay);
  EXPECT_EQ(t[9] - t[8], gap9);
  EXPECT_EQ(t[10] - t[9], gap10);
  EXPECT_EQ(w.messages.receiver[id].bytes_delivered, 12u * 4096);
  EXPECT_EQ(w.pool.in_use(), 0u);
}

// The lazy-timer contract: DCQCN schedules no event (its expiries are replayed by the policy), and
// a QP keeps one retransmission event at a time, which follows the deadline instead of a new
// event per packet. So a throttled QP whose every packet is ACKed before the next leaves, once
// complete, exactly one event behind: that RTO event, which then lapses. (Scheduling per packet
// and per increase period would leave one stale RTO event per packet and an increase event every
// T until the rate is back at line rate.)
TEST(NicTest, ACompletedThrottledQpLeavesOnlyItsRetransmissionEvent) {
  NicParams p = Params(4096);
  p.cc = CongestionControl::kDcqcn;
  p.dcqcn = cong::DcqcnParams::Sigcomm2015();
  BackToBack w(p, k100G, kDelay);
  const uint32_t id = w.Send(12 * 4096, Time::Zero());
  CnpInjector cnp(&w.pool, w.a.get(), QpnOf(id));
  for (int i = 0; i < 10; ++i) w.sched.At(Time::FromUs(3), &cnp);  // down to the 100 Mb/s floor
  while (!w.messages.completed(id) && w.sched.RunOne()) {
  }
  ASSERT_TRUE(w.messages.completed(id));
  // Preconditions: packets after the cut are spaced by far more than the 2 us round trip, so
  // each is ACKed before the next leaves, and the QP ends below line rate.
  const std::vector<Time>& t = w.to_b->data_arrivals;
  ASSERT_EQ(t.size(), 12u);
  for (size_t i = 9; i < t.size(); ++i) ASSERT_GT(t[i] - t[i - 1], kDelay * 10) << i;
  ASSERT_LT(w.messages.sender[id].dcqcn.current_rate, k100G);
  EXPECT_EQ(w.sched.pending(), 1u);
  EXPECT_EQ(w.sched.RunUntil(Time::Infinite()), 1u);
  EXPECT_EQ(w.a->counters().retransmit_timeouts, 0u);
}

TEST(NicTest, HpccWindowBoundsTheBytesInFlight) {
  NicParams p = Params(1000);
  p.cc = CongestionControl::kHpcc;
  BackToBack w(p, k100G, Time::FromUs(10));
  // T = 1 us against a real RTT over 20 us: W_init = 100 Gb/s x 1 us = 12,500 B. No switch
  // stamps telemetry, so the ACKs leave the window at W_init. A packet may leave while the bytes
  // in flight (1082 wire bytes per full packet) are below W: 12 packets (11 x 1082 = 11,902 <
  // 12,500 <= 12 x 1082), then nothing until the first ACK is back.
  w.hpcc_base_rtt = Time::FromUs(1);
  w.Send(100'000, Time::Zero());
  w.sched.RunUntil(Time::Infinite());
  const Time ser_data = k100G.SerializationTime(1000 + kDataOverheadBytes);
  const Time ser_ack = k100G.SerializationTime(kAckWireBytes);
  const std::vector<Time>& t = w.to_b->data_arrivals;
  ASSERT_EQ(t.size(), 100u);
  EXPECT_EQ(t[11] - t[0], ser_data * 11);  // the first window, back to back
  // Packet 12 leaves when packet 0's ACK arrives: packet 0's trip after its serialisation, the
  // ACK's serialisation and trip back, then packet 12's own serialisation.
  EXPECT_EQ(t[12] - t[0], Time::FromUs(10) + ser_ack + Time::FromUs(10) + ser_data);
  EXPECT_EQ(w.messages.receiver[0].bytes_delivered, 100'000u);
  EXPECT_EQ(w.pool.in_use(), 0u);
}

// In front of the receiver, stamps each data packet with the INT record of a 100 Gb/s hop that
// carried exactly this flow and held `queue_bytes` (a 400 KB queue for the first 300 packets,
// none after), so the sender's HPCC first cuts its rate and then raises it ACK by ACK.
class IntStamper final : public PacketReceiver {
 public:
  IntStamper(Scheduler* sched, PacketReceiver* next) : sched_(sched), next_(next) {}
  void Receive(uint16_t port, rte_mbuf* m) override {
    tx_bytes_ += WireBytes(m);
    const uint32_t queue = ++seen_ <= 300 ? 400'000 : 0;
    StampInt(m, cong::IntHop{tx_bytes_, sched_->Now(), Rate::FromGbps(100), queue});
    next_->Receive(port, m);
  }

 private:
  Scheduler* sched_;
  PacketReceiver* next_;
  uint64_t tx_bytes_ = 0;
  uint32_t seen_ = 0;
};

// In front of the sender: notes each change of the QP's HPCC rate an ACK makes, and when.
class RateWatch final : public PacketReceiver {
 public:
  RateWatch(Scheduler* sched, Nic* nic, const HpccTable* hpcc)
      : sched_(sched), nic_(nic), hpcc_(hpcc) {}
  void Receive(uint16_t port, rte_mbuf* m) override {
    const Rate before = (*hpcc_)[0].state.rate;
    nic_->Receive(port, m);
    if ((*hpcc_)[0].state.rate != before)
      changes.push_back({sched_->Now(), (*hpcc_)[0].state.rate});
  }
  struct Change {
    Time at;
    Rate rate;
  };
  std::vector<Change> changes;

 private:
  Scheduler* sched_;
  Nic* nic_;
  const HpccTable* hpcc_;
};

TEST(NicTest, HpccRateChangesReSpaceTheGapAQpIsWaitingOut) {
  NicParams p = Params(1000);
  p.cc = CongestionControl::kHpcc;
  BackToBack w(p, k100G, kDelay);
  // T of 20 us against a real RTT of about 2 us: the window (R x T) never binds, so every packet
  // after the first starts exactly one gap after the previous one, the gap being its wire bytes
  // at the rate in force, counted from the previous start (HPCC paces at R = W / T), or at the
  // instant the rate changed if that gap had already passed.
  w.hpcc_base_rtt = Time::FromUs(20);
  IntStamper stamper(&w.sched, w.to_b.get());
  RateWatch watch(&w.sched, w.a.get(), &w.hpcc);
  w.a_port.ConnectPeer(&stamper, 0);
  w.b_port.ConnectPeer(&watch, 0);
  w.Send(1000 * 1000, Time::Zero());
  w.sched.RunUntil(Time::Infinite());

  const int64_t wire = 1000 + kDataOverheadBytes;
  const Time ser_line = k100G.SerializationTime(wire);
  std::vector<Time> start;  // of each data packet, from its arrival
  for (Time t : w.to_b->data_arrivals) start.push_back(t - ser_line - kDelay);
  ASSERT_EQ(start.size(), 1000u);
  size_t next_change = 0;
  Rate rate = k100G;
  int respaced = 0;
  // Applies the changes before `until` (or at it too) made while packet i waited.
  const auto apply = [&](size_t i, Time until, bool inclusive, Time* due) {
    while (next_change < watch.changes.size() &&
           (watch.changes[next_change].at < until ||
            (inclusive && watch.changes[next_change].at == until))) {
      const RateWatch::Change& c = watch.changes[next_change++];
      if (c.at > start[i - 1]) ++respaced;
      rate = c.rate;
      *due = std::max(c.at, start[i - 1] + rate.SerializationTime(wire));
    }
  };
  for (size_t i = 1; i < start.size(); ++i) {
    Time due = start[i - 1] + rate.SerializationTime(wire);
    apply(i, start[i], false, &due);
    // An ACK at the very instant the packet starts acts first when it brings the start forward.
    if (start[i] != due) apply(i, start[i], true, &due);
    ASSERT_EQ(start[i], due) << "packet " << i << ", rate " << rate.bps();
  }
  // The run exercised both directions while packets waited.
  EXPECT_GT(respaced, 50);
  const auto slowest =
      std::min_element(watch.changes.begin(), watch.changes.end(),
                       [](const auto& a, const auto& b) { return a.rate < b.rate; });
  ASSERT_NE(slowest, watch.changes.end());
  EXPECT_LT(slowest->rate, Rate::FromGbps(50));
  EXPECT_GT(watch.changes.back().rate, slowest->rate);
  EXPECT_EQ(w.pool.in_use(), 0u);
}

}  // namespace
}  // namespace fe::dp
