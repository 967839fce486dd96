// The out-of-order mode's two halves on their own: the receiver's placement by PSN and its SACK
// blocks, and the sender's selective repeat, against the rules they implement (a PSN counts once,
// the first missing PSN runs over everything received, a resend is a PSN neither acknowledged
// nor sent after the deadline was set).
#include <gtest/gtest.h>

#include <array>

#include "dataplane/entropy.h"
#include "dataplane/ooo_receiver.h"
#include "dataplane/sack.h"
#include "dataplane/selective_sender.h"

namespace fe::dp {
namespace {

TEST(OooReceiverTest, PlacesOutOfOrderAndRunsOverTheGapWhenItFills) {
  OooReceiver rx(64);
  ReceiverState r;
  EXPECT_EQ(rx.Place(r, 2, 10), Placement::kPlaced);
  EXPECT_EQ(rx.Place(r, 1, 10), Placement::kPlaced);
  EXPECT_EQ(r.expected_psn, 0u);
  EXPECT_EQ(rx.Place(r, 2, 10), Placement::kDuplicate);
  EXPECT_EQ(rx.Place(r, 0, 10), Placement::kPlaced);
  EXPECT_EQ(r.expected_psn, 3u);
  EXPECT_EQ(r.reorder_window, kNoWindow);  // no gap left: the window went back to the pool
  EXPECT_EQ(rx.Place(r, 0, 10), Placement::kDuplicate);
  // 3 + 64 is the first PSN past the window.
  EXPECT_EQ(rx.Place(r, 67, 100), Placement::kBeyond);
  EXPECT_EQ(rx.Place(r, 66, 100), Placement::kPlaced);
}

TEST(OooReceiverTest, SackBlockHoldsTheCumulativePointAndWhatArrivedPastIt) {
  OooReceiver rx(128);
  ReceiverState r;
  for (uint32_t p : {0u, 1u, 2u, 5u, 70u}) rx.Place(r, p, 200);
  EXPECT_EQ(r.expected_psn, 3u);
  const SackBlock low = rx.Sack(r, 5);
  EXPECT_EQ(low.base_psn, 0u);
  EXPECT_EQ(low.received, 0b100111u);  // 0, 1, 2 (in order) and 5
  const SackBlock high = rx.Sack(r, 70);
  EXPECT_EQ(high.base_psn, 64u);
  EXPECT_EQ(high.received, 1u << 6);
  // A duplicate is answered with the first missing PSN's block.
  EXPECT_EQ(rx.Sack(r, 1).base_psn, 0u);
  // 3 + 128 = 131 is the first PSN past the window: block 128's bits past 130 must read as not
  // received, though the ring's word there also holds PSNs 0-31 a window earlier.
  EXPECT_EQ(rx.Sack(r, 130).received, 0u);
}

TEST(SackTest, BlockSurvivesTheWireAsAnOffsetFromTheFirstMissingPsn) {
  std::array<uint8_t, kSackBytes> b{};
  WriteSack(SackBlock{0x1240, 0x80000001u}, 0x1203, b.data());
  EXPECT_EQ(b[0], 0);
  EXPECT_EQ(b[1], 2);     // 0x1240 / 32 - 0x1203 / 32 = 0x92 - 0x90
  EXPECT_EQ(b[2], 0x80);  // big-endian bitmap
  EXPECT_EQ(b[5], 0x01);
}

// A sender that sent PSNs 0..9 (tests then tell it what the receiver has).
struct TenSent {
  explicit TenSent(uint32_t resend_threshold = 0) : tx(64, resend_threshold) {
    for (int i = 0; i < 10; ++i) {
      ++msg.next_psn;
      msg.max_psn_sent = msg.next_psn;
      tx.OnSent(msg);
      if (i == 0) tx.OnDeadlineSet(msg);  // the timer starts with the first packet
    }
  }
  SelectiveSender tx;
  SenderState msg;
};

TEST(SelectiveSenderTest, TimeoutResendsOnlyWhatIsMissingAndWasOverdue) {
  TenSent t;
  // Deadline set again after all ten were out: every one of them is overdue when it passes.
  t.tx.OnDeadlineSet(t.msg);
  const SackBlock sack{0, 0b1101110111};  // 0-2, 4-6, 8-9
  EXPECT_TRUE(t.tx.OnAck(t.msg, 3, &sack, 100));
  EXPECT_EQ(t.msg.acked_packets, 3u);
  EXPECT_EQ(t.msg.next_psn, 10u);  // nothing resent before the deadline
  t.tx.OnTimeout(t.msg);
  EXPECT_EQ(t.msg.next_psn, 3u);
  t.msg.next_psn = 4;  // PSN 3 went out
  t.tx.OnSent(t.msg);
  EXPECT_EQ(t.msg.next_psn, 7u);  // 4-6 skipped
  t.msg.next_psn = 8;
  t.tx.OnSent(t.msg);
  EXPECT_EQ(t.msg.next_psn, 10u);  // 8-9 skipped: new data next
}

TEST(SelectiveSenderTest, PacketsSentAfterTheDeadlineWasSetAreNotResent) {
  TenSent t;  // the deadline was set when only PSN 0 was out
  const SackBlock sack{0, 0b1};
  t.tx.OnAck(t.msg, 1, &sack, 100);
  t.tx.OnDeadlineSet(t.msg);  // progress: the deadline moves on with all ten out
  t.msg.next_psn = 12;        // two more go out after it
  t.msg.max_psn_sent = 12;
  t.tx.OnSent(t.msg);
  t.tx.OnTimeout(t.msg);
  EXPECT_EQ(t.msg.next_psn, 1u);
  for (uint32_t p = 1; p < 10; ++p) {
    EXPECT_EQ(t.msg.next_psn, p);
    t.msg.next_psn = p + 1;
    t.tx.OnSent(t.msg);
  }
  EXPECT_EQ(t.msg.next_psn, 12u);  // 10 and 11 may still be in flight
}

// RFC 6675's rule with DupThresh 3: a hole is lost once three PSNs past it are SACKed.
TEST(SelectiveSenderTest, HoleIsResentOnceThresholdPsnsPastItAreSacked) {
  TenSent t(3);
  SackBlock sack{0, 0b111};  // 0-2: the cumulative point is 3, nothing past it yet
  t.tx.OnAck(t.msg, 3, &sack, 100);
  EXPECT_FALSE(t.tx.FastResend(t.msg));
  sack.received = 0b110111;  // 4 and 5 past the hole: two, below the threshold
  t.tx.OnAck(t.msg, 3, &sack, 100);
  EXPECT_FALSE(t.tx.FastResend(t.msg));
  EXPECT_EQ(t.msg.next_psn, 10u);
  sack.received = 0b1110111;  // and 6: three
  t.tx.OnAck(t.msg, 3, &sack, 100);
  EXPECT_TRUE(t.tx.FastResend(t.msg));
  EXPECT_EQ(t.msg.next_psn, 3u);
  t.msg.next_psn = 4;  // PSN 3 went out again
  t.tx.OnSent(t.msg);
  EXPECT_EQ(t.msg.next_psn, 10u);  // and only it: new data next
  sack.received = 0b11110111;      // 7 too: the same hole is not resent twice
  t.tx.OnAck(t.msg, 3, &sack, 100);
  EXPECT_FALSE(t.tx.FastResend(t.msg));
  // The resend arrives: the cumulative point runs to 8, and 8 is the next hole, with 9 alone
  // past it (below the threshold).
  sack.received = 0b1011111111;
  t.tx.OnAck(t.msg, 8, &sack, 100);
  EXPECT_FALSE(t.tx.FastResend(t.msg));
}

TEST(SelectiveSenderTest, NoFastResendWithoutThreshold) {
  TenSent t;  // threshold 0: only the timeout resends
  const SackBlock sack{0, 0b1111110111};
  t.tx.OnAck(t.msg, 3, &sack, 100);
  EXPECT_FALSE(t.tx.FastResend(t.msg));
  EXPECT_EQ(t.msg.next_psn, 10u);
}

// What HPCC's window limits: sent, minus acknowledged, minus selectively acknowledged.
TEST(SelectiveSenderTest, InFlightExcludesWhatTheReceiverHolds) {
  TenSent t;
  EXPECT_EQ(t.tx.InFlightPackets(t.msg), 10u);
  const SackBlock sack{0, 0b1101110111};  // 0-2, 4-6, 8-9: 3 and 7 missing
  t.tx.OnAck(t.msg, 3, &sack, 100);
  EXPECT_EQ(t.tx.InFlightPackets(t.msg), 2u);
  t.tx.OnTimeout(t.msg);  // a resend pass rewinds next_psn, not what is in flight
  EXPECT_EQ(t.tx.InFlightPackets(t.msg), 2u);
}

TEST(SelectiveSenderTest, GivenUpMessageReturnsItsWindow) {
  TenSent t;
  const uint32_t w = t.msg.sack_window;
  ASSERT_NE(w, kNoWindow);
  t.tx.Release(t.msg);
  EXPECT_EQ(t.msg.sack_window, kNoWindow);
  // The pool hands the same window to the next message instead of growing.
  SenderState next;
  next.next_psn = 1;
  next.max_psn_sent = 1;
  t.tx.OnSent(next);
  EXPECT_EQ(next.sack_window, w);
}

TEST(SelectiveSenderTest, LastAcknowledgementReleasesTheWindow) {
  TenSent t;
  EXPECT_TRUE(t.tx.OnAck(t.msg, 10, nullptr, 10));
  EXPECT_EQ(t.msg.sack_window, kNoWindow);
  EXPECT_FALSE(t.tx.OnAck(t.msg, 10, nullptr, 10));  // a late duplicate changes nothing
}

TEST(EntropyTest, RotatesPerPacketOrPerBurstWithinTheDynamicRange) {
  const Entropy one;
  EXPECT_EQ(EntropyPort(0xC123, 5, one), 0xC123);
  const Entropy four{4, 1};
  EXPECT_EQ(EntropyPort(0xFFFE, 0, four), 0xFFFE);
  EXPECT_EQ(EntropyPort(0xFFFE, 1, four), 0xFFFF);
  EXPECT_EQ(EntropyPort(0xFFFE, 2, four), 0xC000);  // wraps within 49152-65535
  EXPECT_EQ(EntropyPort(0xFFFE, 4, four), 0xFFFE);
  const Entropy bursts{2, 3};
  EXPECT_EQ(EntropyPort(0xC000, 2, bursts), 0xC000);
  EXPECT_EQ(EntropyPort(0xC000, 3, bursts), 0xC001);
  EXPECT_EQ(EntropyPort(0xC000, 6, bursts), 0xC000);
}

}  // namespace
}  // namespace fe::dp
