// Credit flow control's pure state, and the MMU's handling of credit-based ingress ports: each
// checked against the rules of congestion/credit_flow.h and buffer_admission.h, with the
// figures worked out in the comments.
#include "congestion/credit_flow.h"

#include <gtest/gtest.h>

#include "congestion/buffer_admission.h"

namespace fe::cong {
namespace {

TEST(CreditFlowTest, DefaultBufferCoversTheCreditLoopAndTwoFrames) {
  // 100 Gb/s, 1 us each way, 200 ns update delay, 4178-byte frames: the loop is
  // 334.24 + 2 x 1000 + 200 = 2534.24 ns, 31,678 bytes at 12.5 bytes/ns, plus 2 x 4178.
  EXPECT_EQ(
      DefaultCreditBufferBytes(Rate::FromGbps(100), Time::FromNs(1000), Time::FromNs(200), 4178),
      31'678 + 2 * 4178);
}

TEST(CreditFlowTest, SenderSpendsUpToTheLimitAndIgnoresStaleAdvertisements) {
  CreditSender s;
  s.limit_bytes = 10'000;
  s.sent_bytes = 6'000;
  EXPECT_TRUE(s.CanSend(4'000));  // exactly the credit left
  EXPECT_FALSE(s.CanSend(4'001));
  EXPECT_TRUE(s.OnAdvertisement(12'000));
  EXPECT_EQ(s.available_bytes(), 6'000);
  // An older, smaller limit arriving late changes nothing: limits are absolute.
  EXPECT_FALSE(s.OnAdvertisement(11'000));
  EXPECT_EQ(s.limit_bytes, 12'000);
}

TEST(CreditFlowTest, ResyncCountsWhatTheReceiverDoesNotHoldAsFreed) {
  CreditReceiver r;
  r.freed_bytes = 5'000;  // reported so far
  // The sender sent 20,000; the receiver holds 3,000: 17,000 were freed, 12,000 of them
  // unreported (lost on the wire, or dropped after arrival).
  r.OnResync(20'000, 3'000);
  EXPECT_EQ(r.freed_bytes, 17'000);
  EXPECT_EQ(r.Limit(40'000), 57'000);
  // A resync never takes credit back.
  r.OnResync(16'000, 3'000);
  EXPECT_EQ(r.freed_bytes, 17'000);
}

constexpr uint8_t kLossless = 3;

BufferAdmission WithCreditPort(int64_t credit_bytes) {
  BufferParams params;
  params.total_bytes = 1'000'000;
  params.num_ports = 2;
  params.priorities_in_use = (1u << 0) | (1u << kLossless);
  params.priorities[kLossless].pfc.xoff_bytes = 10'000;
  params.headroom_bytes = {0, 50'000};  // port 0 is credit-based: no headroom
  params.credit_bytes = {credit_bytes, 0};
  StatusOr<BufferConfig> config = Compile(params);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return BufferAdmission(std::move(config).value());
}

TEST(CreditAdmissionTest, CreditBufferIsSetAsideAndNeverPauses) {
  BufferAdmission mmu = WithCreditPort(100'000);
  // Shared: 1e6 - 50,000 headroom (one lossless priority, port 1) - 100,000 x 2 priorities.
  EXPECT_EQ(mmu.config().shared_bytes, 1'000'000 - 50'000 - 200'000);
  // Far past the 10,000-byte XOFF threshold, the credit port's packets are admitted, take no
  // shared bytes and raise no pause.
  for (int i = 0; i < 25; ++i) {
    ASSERT_EQ(mmu.Admit(0, 1, kLossless, 4'000), AdmitVerdict::kAdmit);
    ASSERT_EQ(mmu.PfcCheck(0, kLossless), PfcAction::kNone);
  }
  EXPECT_EQ(mmu.shared_used_bytes(), 0);
  EXPECT_EQ(mmu.pg(0, kLossless).bytes, 100'000);
  EXPECT_EQ(mmu.credit_overruns(), 0u);
  // One more is beyond the buffer its sender was granted: admitted, and counted.
  EXPECT_EQ(mmu.Admit(0, 1, kLossless, 4'000), AdmitVerdict::kAdmit);
  EXPECT_EQ(mmu.credit_overruns(), 1u);
  // Release says the credit goes back; the PFC port's release does not.
  EXPECT_TRUE(mmu.Release(0, 1, kLossless, 4'000));
  ASSERT_EQ(mmu.Admit(1, 0, kLossless, 4'000), AdmitVerdict::kAdmit);
  EXPECT_FALSE(mmu.Release(1, 0, kLossless, 4'000));
  EXPECT_EQ(mmu.used_bytes(), 100'000);
}

TEST(CreditAdmissionTest, RefusesCreditBuffersTheTotalCannotHold) {
  BufferParams params;
  params.total_bytes = 100'000;
  params.num_ports = 2;
  params.priorities_in_use = 1u << kLossless;
  params.headroom_bytes = {0, 0};
  params.credit_bytes = {60'000, 60'000};
  StatusOr<BufferConfig> config = Compile(params);
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("credit buffers (120000"), std::string::npos)
      << config.status().message();
}

}  // namespace
}  // namespace fe::cong
