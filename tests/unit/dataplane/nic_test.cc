// Two NICs back to back over one link each way, with a test tap in the data direction that can
// drop chosen packets or CE-mark them. Expectations come from the link arithmetic (serialisation
// of the wire bytes at the rate, plus propagation), the InfiniBand go-back-N rules and the DCQCN
// equations, never from the NIC's own output.
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

TEST(NicTest, NakTriggersGoBackNFromTheMissingPsn) {
  BackToBack w(Params(1000), k100G, kDelay);
  const uint32_t n = 100, k = 10;
  w.to_b->DropOnce(k);
  const uint32_t id = w.Send(n * 1000, Time::Zero());
  w.sched.RunUntil(Time::Infinite());

  // Packet j starts at j x ser. Packet k+1 arrives at (k+2) ser + d and finds the gap; the NAK
  // (an idle reverse link) reaches the sender at t_nak = (k+2) ser + d + ser_ack + d. Every
  // packet started before t_nak went out once; the sender then resends from k, back to back.
  const Time ser = k100G.SerializationTime(1000 + kDataOverheadBytes);
  const Time t_nak = ser * (k + 2) + kDelay + k100G.SerializationTime(kAckWireBytes) + kDelay;
  const int64_t sent_before_nak = t_nak.ps() / ser.ps() + 1;  // j x ser < t_nak (no tie here)
  ASSERT_NE(t_nak.ps() % ser.ps(), 0);
  const int64_t resent = sent_before_nak - k;
  const SenderState& sent = w.messages.sender[id];
  const ReceiverState& received = w.messages.receiver[id];
  EXPECT_EQ(received.bytes_delivered, n * 1000);
  EXPECT_TRUE(sent.completed());
  EXPECT_EQ(sent.retransmitted_packets, static_cast<uint64_t>(resent));
  EXPECT_EQ(w.a->counters().retransmitted_packets, static_cast<uint64_t>(resent));
  EXPECT_EQ(w.a->counters().data_packets_sent, n + resent);
  // Packets k+1 .. sent_before_nak-1 were past the gap; one NAK for the one gap.
  EXPECT_EQ(w.b->counters().out_of_sequence, static_cast<uint64_t>(sent_before_nak - k - 1));
  EXPECT_EQ(w.b->counters().naks_sent, 1u);
  EXPECT_EQ(w.a->counters().naks_received, 1u);
  // The wire never idled: the last of n + resent packets is delivered at (n + resent) ser + d.
  EXPECT_EQ(received.delivered_at, ser * static_cast<int64_t>(n + resent) + kDelay);
  EXPECT_EQ(w.a->counters().retransmit_timeouts, 0u);
  EXPECT_EQ(w.pool.in_use(), 0u);
}

TEST(NicTest, TailLossIsRecoveredByTheRetransmissionTimeout) {
  NicParams p = Params(1000);
  p.retransmit_timeout = Time::FromUs(20);
  BackToBack w(p, k100G, kDelay);
  const uint32_t n = 50;
  w.to_b->DropOnce(n - 1);  // no later packet can reveal the gap: only the timer can
  const uint32_t id = w.Send(n * 1000, Time::Zero());
  w.sched.RunUntil(Time::Infinite());

  // The last ACK progress (for PSN n-2) reaches the sender at (n-1) ser + 2d + ser_ack; the
  // timer expires one timeout later and the resent packet arrives ser + d after that.
  const Time ser = k100G.SerializationTime(1000 + kDataOverheadBytes);
  const Time last_ack = ser * (n - 1) + kDelay * 2 + k100G.SerializationTime(kAckWireBytes);
  const ReceiverState& received = w.messages.receiver[id];
  EXPECT_EQ(received.bytes_delivered, n * 1000);
  EXPECT_EQ(received.delivered_at, last_ack + p.retransmit_timeout + ser + kDelay);
  EXPECT_EQ(w.messages.sender[id].retransmitted_packets, 1u);
  EXPECT_EQ(w.a->counters().retransmit_timeouts, 1u);
  EXPECT_EQ(w.b->counters().naks_sent, 0u);
  EXPECT_EQ(w.pool.in_use(), 0u);
}

TEST(NicTest, GivesUpAfterRetryCountTimeoutsInARow) {
  NicParams p = Params(1000);
  p.retransmit_timeout = Time::FromUs(20);
  p.retry_count = 3;
  BackToBack w(p, k100G, kDelay);
  w.to_b->DropEveryNth(1);  // nothing gets through: every timeout finds no ACK progress
  const uint32_t id = w.Send(1000, Time::Zero());
  w.sched.RunUntil(Time::Infinite());

  // As an RC QP with retry_cnt 3: the first send and 3 resends, one timeout after each; the
  // fourth timeout in a row finds the retries used up and gives the message up, at 4 RTO (each
  // resend leaves when its timeout fires: the port is idle).
  const SenderState& sent = w.messages.sender[id];
  EXPECT_TRUE(sent.retries_exhausted);
  EXPECT_TRUE(w.messages.finished(id));
  EXPECT_FALSE(sent.completed());
  EXPECT_EQ(w.a->counters().retransmit_timeouts, 4u);
  EXPECT_EQ(sent.retransmitted_packets, 3u);
  EXPECT_EQ(w.a->counters().data_packets_sent, 4u);
  EXPECT_EQ(w.to_b->dropped, 4u);
  EXPECT_EQ(w.a->counters().retry_exceeded, 1u);
  EXPECT_EQ(w.sched.Now(), p.retransmit_timeout * 4);  // nothing runs after the give-up
  EXPECT_EQ(w.pool.in_use(), 0u);
}

TEST(NicTest, AckProgressResetsTheRetries) {
  NicParams p = Params(1000);
  p.retransmit_timeout = Time::FromUs(20);
  p.retry_count = 1;
  BackToBack w(p, k100G, kDelay);
  // Two packets: both first sends are lost (timeout 1), the resend of PSN 0 gets through and is
  // ACKed (progress), the resend of PSN 1 is lost (timeout 2): two timeouts, but never two in a
  // row without progress, so a retry_count of 1 suffices.
  w.to_b->DropNth(1);
  w.to_b->DropNth(2);
  w.to_b->DropNth(4);
  const uint32_t id = w.Send(2000, Time::Zero());
  w.sched.RunUntil(Time::Infinite());
  EXPECT_TRUE(w.messages.completed(id));
  EXPECT_FALSE(w.messages.sender[id].retries_exhausted);
  EXPECT_EQ(w.a->counters().retransmit_timeouts, 2u);
  EXPECT_EQ(w.a->counters().retry_exceeded, 0u);
  EXPECT_EQ(w.to_b->dropped, 3u);
  EXPECT_EQ(w.messages.receiver[id].bytes_delivered, 2000u);
}

TEST(NicTest, HeavyLossDeliversEveryByteAndConservesPackets) {
  BackToBack w(Params(1000), k100G, kDelay);
  w.to_b->DropEveryNth(5);  // also hits resends and packets past a gap
  const uint64_t sizes[] = {200'000, 73'500, 1'000};
  uint64_t total_bytes = 0, total_packets = 0;
  for (uint64_t s : sizes) {
    const uint32_t id = w.Send(s, Time::FromNs(100));
    total_bytes += s;
    total_packets += w.messages.info[id].packets_total;
  }
  w.sched.RunUntil(Time::Infinite());
  for (uint32_t id = 0; id < w.messages.size(); ++id) {
    EXPECT_EQ(w.messages.receiver[id].bytes_delivered, w.messages.spec(id).size_bytes);
    EXPECT_TRUE(w.messages.completed(id));
  }
  const NicCounters& tx = w.a->counters();
  const NicCounters& rx = w.b->counters();
  ASSERT_GT(w.to_b->dropped, 0u);
  // Conservation: every packet sent was received or dropped on the way.
  EXPECT_EQ(tx.data_packets_sent, rx.data_packets_received + w.to_b->dropped);
  // Every packet's first transmission is not a retransmission; everything else is.
  EXPECT_EQ(tx.data_packets_sent - tx.retransmitted_packets, total_packets);
  EXPECT_EQ(tx.payload_bytes_sent - tx.retransmitted_bytes, total_bytes);
  EXPECT_EQ(rx.payload_bytes_received, total_bytes);
  // What the receiver discarded is exactly what arrived beyond a gap or twice.
  EXPECT_EQ(rx.data_packets_received - rx.out_of_sequence - rx.duplicates, total_packets);
  EXPECT_EQ(w.pool.in_use(), 0u);
}

}  // namespace
}  // namespace fe::dp
