#include "core/chunked_fifo.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <thread>

namespace fe {
namespace {

struct Item {
  uint64_t a;
  uint32_t b;
  uint16_t c;
  uint8_t d;
};
using Fifo16 = ChunkedFifo<Item>;

Item ItemOf(uint64_t i) {
  return Item{i, static_cast<uint32_t>(i * 7), static_cast<uint16_t>(i), static_cast<uint8_t>(i)};
}
void ExpectSame(const Item& got, const Item& want) {
  EXPECT_EQ(got.a, want.a);
  EXPECT_EQ(got.b, want.b);
  EXPECT_EQ(got.c, want.c);
  EXPECT_EQ(got.d, want.d);
}

// Makes sure the thread's free list holds at least n chunks, so that counts below are exact.
void Reserve(size_t n) {
  std::vector<Fifo16> fifos(n);
  for (Fifo16& f : fifos) f.push(ItemOf(0));
}

TEST(ChunkedFifoTest, ChunkHoldsWhatFitsAfterItsLink) {
  // 256 bytes less the 8-byte link, which a 16-byte item's slot rounds up to 16 so that no item
  // straddles two cache lines: (256 - 16) / 16 = 15. 4-byte items: (256 - 8) / 4 = 62.
  EXPECT_EQ(kFifoChunkBytes, 256u);
  EXPECT_EQ(Fifo16::kItems, 15u);
  EXPECT_EQ(ChunkedFifo<uint32_t>::kItems, 62u);
}

TEST(ChunkedFifoTest, MatchesADequeUnderRandomOperations) {
  // The same random pushes and pops on a std::deque: every pop, front and size must agree.
  // Runs of pushes and of pops make the queue cross chunk boundaries both ways and empty often.
  std::mt19937_64 rng(19);
  Fifo16 fifo;
  std::deque<Item> reference;
  uint64_t next = 0;
  for (int round = 0; round < 2000; ++round) {
    const int pushes = static_cast<int>(rng() % 70);
    const int pops = static_cast<int>(rng() % 70);
    for (int i = 0; i < pushes; ++i) {
      fifo.push(ItemOf(next));
      reference.push_back(ItemOf(next));
      ++next;
    }
    for (int i = 0; i < pops && !reference.empty(); ++i) {
      ExpectSame(fifo.front(), reference.front());
      ExpectSame(fifo.pop(), reference.front());
      reference.pop_front();
    }
    ASSERT_EQ(fifo.size(), reference.size());
    ASSERT_EQ(fifo.empty(), reference.empty());
  }
  while (!reference.empty()) {
    ExpectSame(fifo.pop(), reference.front());
    reference.pop_front();
  }
  EXPECT_TRUE(fifo.empty());
}

TEST(ChunkedFifoTest, HoldsExactlyTheChunksItsItemsNeed) {
  Reserve(64);
  const size_t free_before = FifoChunkPool::FreeChunks();
  {
    Fifo16 fifo;
    // n items from an empty queue fill ceil(n / 31) chunks.
    for (uint64_t i = 0; i < 100; ++i) fifo.push(ItemOf(i));
    EXPECT_EQ(FifoChunkPool::FreeChunks(), free_before - 7);  // ceil(100 / 15)
    // Popping the 15 items of the first chunk gives it back; one more pop gives nothing.
    for (int i = 0; i < 15; ++i) fifo.pop();
    EXPECT_EQ(FifoChunkPool::FreeChunks(), free_before - 6);
    fifo.pop();
    EXPECT_EQ(FifoChunkPool::FreeChunks(), free_before - 6);
    // Emptied, the queue holds no chunk at all.
    while (!fifo.empty()) fifo.pop();
    EXPECT_EQ(FifoChunkPool::FreeChunks(), free_before);
    // Destroyed with items, it gives their chunks back.
    for (uint64_t i = 0; i < 40; ++i) fifo.push(ItemOf(i));
    EXPECT_EQ(FifoChunkPool::FreeChunks(), free_before - 3);  // ceil(40 / 15)
  }
  EXPECT_EQ(FifoChunkPool::FreeChunks(), free_before);
}

TEST(ChunkedFifoTest, QueuesShareChunksRatherThanKeepingTheirPeaks) {
  // 100 queues, each filled to 15 x 10 items and emptied in turn, need 10 chunks in all at once,
  // not 1,000: the pool makes no chunk beyond those the thread already had free.
  Reserve(10);
  const size_t made_before = FifoChunkPool::ChunksMade();
  std::vector<Fifo16> fifos(100);
  for (Fifo16& f : fifos) {
    for (uint64_t i = 0; i < 150; ++i) f.push(ItemOf(i));
    while (!f.empty()) f.pop();
  }
  EXPECT_EQ(FifoChunkPool::ChunksMade(), made_before);
}

TEST(ChunkedFifoTest, AnEndedThreadsChunksAreReused) {
  // A thread that made chunks hands them to the shared list when it ends; this thread, short of
  // chunks, takes them rather than making more.
  size_t made_by_thread = 0;
  std::thread([&made_by_thread] {
    const size_t before = FifoChunkPool::ChunksMade();
    Fifo16 fifo;
    for (uint64_t i = 0; i < 15 * 300; ++i) fifo.push(ItemOf(i));
    made_by_thread = FifoChunkPool::ChunksMade() - before;
  }).join();
  ASSERT_GE(made_by_thread, 300u);
  const size_t made_before = FifoChunkPool::ChunksMade();
  Fifo16 fifo;
  const size_t need = FifoChunkPool::FreeChunks() + 300;  // more than this thread has free
  for (uint64_t i = 0; i < 15 * need; ++i) fifo.push(ItemOf(i));
  EXPECT_EQ(FifoChunkPool::ChunksMade(), made_before);
}

}  // namespace
}  // namespace fe
