// EthPort over net_ring's loopback device (a vdev named "net_ring<N>" transmits into the ring it
// receives from): probing, burst I/O, tx buffering, refusal accounting and removal.
#include "dataplane/realtime/eth_port.h"

#include <gtest/gtest.h>

#include <cstring>

#include "test_pool.h"

namespace fe::dp {
namespace {

rte_mbuf* Frame(testing::TestPool& pool, uint8_t tag) {
  rte_mbuf* m = pool.Alloc();
  auto* p = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, 60));
  if (p != nullptr) std::memset(p, tag, 60);
  return m;
}

TEST(EthPortTest, LoopbackCarriesBurstsInOrderAndRemovesTheDeviceItProbed) {
  testing::TestPool pool;
  {
    auto port = EthPort::Open(EthPortParams{.device_args = "net_ring7"}, pool.get());
    ASSERT_TRUE(port.ok()) << port.status().message();
    for (uint8_t i = 0; i < 3; ++i) (*port)->Send(Frame(pool, i));
    (*port)->Flush();
    rte_mbuf* got[kBurstSize];
    const uint16_t n = (*port)->RxBurst(got, kBurstSize);
    ASSERT_EQ(n, 3u);
    for (uint8_t i = 0; i < 3; ++i) {
      EXPECT_EQ(rte_pktmbuf_mtod(got[i], const uint8_t*)[0], i);
      rte_pktmbuf_free(got[i]);
    }
    EXPECT_EQ((*port)->counters().tx_packets, 3u);
    EXPECT_EQ((*port)->counters().rx_packets, 3u);
    EXPECT_EQ((*port)->counters().tx_dropped, 0u);
  }
  // The device went away with the port, so the same arguments probe it afresh.
  auto again = EthPort::Open(EthPortParams{.device_args = "net_ring7"}, pool.get());
  ASSERT_TRUE(again.ok()) << again.status().message();
  again->reset();
  EXPECT_EQ(pool.in_use(), 0u);
}

TEST(EthPortTest, FramesAFullRingRefusesAreFreedAndCounted) {
  testing::TestPool pool(4095);
  auto port = EthPort::Open(EthPortParams{.device_args = "net_ring8"}, pool.get());
  ASSERT_TRUE(port.ok()) << port.status().message();
  constexpr int kSent = 3000;  // more than the loopback ring holds
  for (int i = 0; i < kSent; ++i) (*port)->Send(Frame(pool, 0));
  (*port)->Flush();
  const EthPortCounters c = (*port)->counters();
  EXPECT_GT(c.tx_dropped, 0u);
  EXPECT_EQ(c.tx_packets + c.tx_dropped, static_cast<uint64_t>(kSent));  // each one, once
  // Only the frames the ring accepted are still out of the pool.
  EXPECT_EQ(pool.in_use(), c.tx_packets);
  rte_mbuf* got[kBurstSize];
  uint64_t drained = 0;
  for (uint16_t n; (n = (*port)->RxBurst(got, kBurstSize)) > 0; drained += n) {
    for (uint16_t i = 0; i < n; ++i) rte_pktmbuf_free(got[i]);
  }
  EXPECT_EQ(drained, c.tx_packets);
  EXPECT_EQ(pool.in_use(), 0u);
}

TEST(EthPortTest, UnknownDeviceIsRefusedWithItsName) {
  testing::TestPool pool;
  auto port = EthPort::Open(EthPortParams{.device_args = "net_no_such_driver0"}, pool.get());
  ASSERT_FALSE(port.ok());
  EXPECT_NE(port.status().message().find("net_no_such_driver0"), std::string::npos);
}

}  // namespace
}  // namespace fe::dp
