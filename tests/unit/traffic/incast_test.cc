#include "traffic/incast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

namespace fe {
namespace {

IncastParams Base() {
  IncastParams p;
  p.num_hosts = 8;
  p.receiver = 6;
  p.num_senders = 3;
  p.message_bytes = 65536;
  p.start = Time::FromUs(2);
  return p;
}

std::vector<uint32_t> Senders(const std::vector<Flow>& flows) {
  std::vector<uint32_t> s;
  for (const Flow& f : flows) s.push_back(f.src_host);
  return s;
}

TEST(IncastTest, HostsAfterTheReceiverWrapAround) {
  auto flows = MakeIncast(Base());
  ASSERT_TRUE(flows.ok()) << flows.status().message();
  // Receiver 6 of 8: the next three hosts are 7, 0, 1; flows are listed by host id.
  EXPECT_EQ(Senders(*flows), (std::vector<uint32_t>{0, 1, 7}));
  for (uint32_t i = 0; i < flows->size(); ++i) {
    const Flow& f = (*flows)[i];
    EXPECT_EQ(f.id, i);
    EXPECT_EQ(f.dst_host, 6u);
    EXPECT_EQ(f.size_bytes, 65536u);
    EXPECT_EQ(f.start, Time::FromUs(2));
  }
}

TEST(IncastTest, ExplicitListKeepsItsOrder) {
  IncastParams p = Base();
  p.senders = IncastSenders::kList;
  p.sender_list = {5, 2, 3};
  auto flows = MakeIncast(p);
  ASSERT_TRUE(flows.ok()) << flows.status().message();
  EXPECT_EQ(Senders(*flows), (std::vector<uint32_t>{5, 2, 3}));
}

TEST(IncastTest, RandomSendersAreDistinctDeterministicAndUniform) {
  IncastParams p = Base();
  p.senders = IncastSenders::kRandom;
  p.seed = 11;
  EXPECT_EQ(MakeIncast(p).value(), MakeIncast(p).value());

  // Each of the 7 non-receiver hosts is chosen with probability 3/7 per draw.
  constexpr int kSeeds = 20000;
  std::vector<int> chosen(p.num_hosts, 0);
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    p.seed = seed;
    auto flows = MakeIncast(p);
    ASSERT_TRUE(flows.ok());
    const std::vector<uint32_t> s = Senders(*flows);
    ASSERT_EQ(std::set<uint32_t>(s.begin(), s.end()).size(), 3u);
    for (uint32_t h : s) ++chosen[h];
  }
  EXPECT_EQ(chosen[p.receiver], 0);
  const double q = 3.0 / 7;
  for (uint32_t h = 0; h < p.num_hosts; ++h) {
    if (h == p.receiver) continue;
    // Binomial(20000, 3/7): 5 standard deviations.
    EXPECT_NEAR(chosen[h], kSeeds * q, 5 * std::sqrt(kSeeds * q * (1 - q))) << "host " << h;
  }
}

TEST(IncastTest, JitteredStartsAreUniformWithinTheWindow) {
  IncastParams p;
  p.num_hosts = 4097;
  p.receiver = 0;
  p.num_senders = 4096;
  p.message_bytes = 1000;
  p.start = Time::FromUs(1);
  p.start_jitter = Time::FromNs(1000);
  p.seed = 3;
  auto flows = MakeIncast(p);
  ASSERT_TRUE(flows.ok());
  double sum_offset_ps = 0;
  for (const Flow& f : *flows) {
    ASSERT_GE(f.start, p.start);
    ASSERT_LT(f.start, p.start + p.start_jitter);
    sum_offset_ps += (f.start - p.start).ps();
  }
  // Uniform on [0, J): mean J/2, standard deviation J/sqrt(12); allow 5 standard errors.
  const double j = static_cast<double>(p.start_jitter.ps());
  EXPECT_NEAR(sum_offset_ps / flows->size(), j / 2, 5 * j / std::sqrt(12.0 * flows->size()));
}

TEST(IncastTest, RefusesInconsistentParameters) {
  auto refused = [](IncastParams p, const char* why) {
    auto r = MakeIncast(p);
    EXPECT_FALSE(r.ok()) << why;
  };
  IncastParams p = Base();
  p.receiver = 8;
  refused(p, "receiver outside hosts");
  p = Base();
  p.num_senders = 8;
  refused(p, "more senders than other hosts");
  p.num_senders = 0;
  refused(p, "no sender");
  p = Base();
  p.message_bytes = 0;
  refused(p, "empty message");
  p = Base();
  p.start_jitter = Time::FromNs(-1);
  refused(p, "negative jitter");
  p = Base();
  p.senders = IncastSenders::kList;
  p.sender_list = {1, 6};
  refused(p, "receiver among senders");
  p.sender_list = {1, 1};
  refused(p, "repeated sender");
  p.sender_list = {9};
  refused(p, "sender outside hosts");
}

}  // namespace
}  // namespace fe
