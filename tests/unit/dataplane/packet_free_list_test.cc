// The free list behind a host-page pool (dataplane/packet_free_list.h), through DPDK's mempool ops
// calls: LIFO order against a reference stack, nothing lost or handed out twice, and no memory of
// its own in DPDK's heap.
#include "dataplane/packet_free_list.h"

#include <gtest/gtest.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "dataplane/packet_pool.h"

namespace fe::dp {
namespace {

class PacketFreeListTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Pool names are short (RTE_MEMPOOL_NAMESIZE): one per test, by number.
    static int made = 0;
    StatusOr<rte_mempool*> p = CreatePacketPool("free_list_" + std::to_string(made++), kPoolSize, 0,
                                                PoolMemory::kHostPages, 0);
    ASSERT_TRUE(p.ok()) << p.status().message();
    pool_ = *p;
  }
  void TearDown() override { rte_mempool_free(pool_); }

  // Takes every free object out, one at a time.
  std::vector<void*> TakeAll() {
    std::vector<void*> all;
    void* obj;
    while (rte_mempool_ops_dequeue_bulk(pool_, &obj, 1) == 0) all.push_back(obj);
    return all;
  }

  static constexpr uint32_t kPoolSize = 8191;
  rte_mempool* pool_ = nullptr;
};

TEST_F(PacketFreeListTest, IsALifoUpToAnLcoresShare) {
  std::vector<void*> held = TakeAll();
  ASSERT_EQ(held.size(), pool_->populated_size);
  EXPECT_EQ(rte_mempool_ops_get_count(pool_), 0u);
  // Random bulk frees and takes on this lcore, never past the 768 an lcore keeps to itself: every
  // take must give what a plain stack fed the same frees gives.
  std::mt19937 rng(7);
  std::vector<void*> reference;
  for (int round = 0; round < 500; ++round) {
    const unsigned frees = std::min<unsigned>(rng() % 40, 768 - reference.size());
    const unsigned n_free = std::min<unsigned>(frees, held.size());
    rte_mempool_ops_enqueue_bulk(pool_, held.data() + held.size() - n_free, n_free);
    reference.insert(reference.end(), held.end() - n_free, held.end());
    held.resize(held.size() - n_free);
    const unsigned takes = std::min<unsigned>(rng() % 40, reference.size());
    std::vector<void*> got(takes);
    ASSERT_EQ(rte_mempool_ops_dequeue_bulk(pool_, got.data(), takes), 0);
    for (void* obj : got) {
      ASSERT_EQ(obj, reference.back());
      reference.pop_back();
      held.push_back(obj);
    }
    ASSERT_EQ(rte_mempool_ops_get_count(pool_), reference.size());
  }
  rte_mempool_ops_enqueue_bulk(pool_, held.data(), held.size());
  rte_mempool_ops_enqueue_bulk(pool_, reference.data(), reference.size());
}

TEST_F(PacketFreeListTest, LosesAndDuplicatesNothingAcrossThreads) {
  std::vector<void*> all = TakeAll();
  const std::set<void*> objects(all.begin(), all.end());
  ASSERT_EQ(objects.size(), pool_->populated_size);  // no object handed out twice
  // A taking more than there is fails and changes nothing.
  std::vector<void*> too_many(1);
  EXPECT_NE(rte_mempool_ops_dequeue_bulk(pool_, too_many.data(), 1), 0);
  // Half come back on this lcore (past its share: the rest goes to the shared list), half on a
  // thread that is no lcore (the shared list, locked).
  const size_t half = all.size() / 2;
  rte_mempool_ops_enqueue_bulk(pool_, all.data(), half);
  std::thread([&] {
    rte_mempool_ops_enqueue_bulk(pool_, all.data() + half, all.size() - half);
  }).join();
  EXPECT_EQ(rte_mempool_ops_get_count(pool_), objects.size());
  std::vector<void*> again = TakeAll();
  EXPECT_EQ(std::set<void*>(again.begin(), again.end()), objects);
  EXPECT_EQ(again.size(), objects.size());
  rte_mempool_ops_enqueue_bulk(pool_, again.data(), again.size());
}

TEST(PacketFreeListMemoryTest, KeepsNothingPerMbufInDpdksHeap) {
  // DPDK's "stack" ops keep 8 bytes per mbuf of the pool's cap in DPDK's heap (8 MiB for 2^20),
  // and its 128 per-lcore caches take 1 MiB; this pool's descriptor must stay far below either.
  const auto heap_bytes = [] {
    size_t total = 0;
    for (int socket = 0; socket < RTE_MAX_NUMA_NODES; ++socket) {
      rte_malloc_socket_stats s{};
      if (rte_malloc_get_socket_stats(socket, &s) == 0) total += s.heap_allocsz_bytes;
    }
    return total;
  };
  const size_t before = heap_bytes();
  StatusOr<rte_mempool*> p =
      CreatePacketPool("free_list_mem", (1u << 20) - 1, 0, PoolMemory::kHostPages, 0);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_LT(heap_bytes() - before, size_t{64} << 10);
  rte_mempool_free(*p);
}

}  // namespace
}  // namespace fe::dp
