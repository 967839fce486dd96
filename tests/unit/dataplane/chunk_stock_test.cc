// The memory a host-page pool grows by (dataplane/chunk_stock.h): as many chunks as asked, each a
// whole huge page on its boundary, zero and writable; the first backed by the stock's thread
// (every page resident once the thread is done, which destroying the stock waits for), and none
// after the last.
#include "dataplane/chunk_stock.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace fe::dp {
namespace {

constexpr size_t kBytes = ChunkStock::kChunkBytes;

size_t ResidentPages(char* chunk) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core(kBytes / page);
  if (mincore(chunk, kBytes, in_core.data()) != 0) return 0;
  return static_cast<size_t>(
      std::count_if(in_core.begin(), in_core.end(), [](unsigned char c) { return (c & 1) != 0; }));
}

TEST(ChunkStockTest, HandsOutAlignedZeroChunksThenNone) {
  std::vector<char*> taken;
  {
    ChunkStock stock(3);
    for (int i = 0; i < 3; ++i) {
      char* c = stock.Take();
      ASSERT_NE(c, nullptr) << i;
      EXPECT_EQ(reinterpret_cast<uintptr_t>(c) % kBytes, 0u) << i;
      // Fresh anonymous memory: zero, and the pool's to write.
      EXPECT_EQ(c[0], 0);
      EXPECT_EQ(c[kBytes - 1], 0);
      c[kBytes / 2] = 1;
      taken.push_back(c);
    }
    EXPECT_EQ(stock.Take(), nullptr);
    EXPECT_EQ(stock.Take(), nullptr);
  }
  // Distinct chunks that do not overlap.
  std::set<char*> starts(taken.begin(), taken.end());
  EXPECT_EQ(starts.size(), 3u);
  for (size_t i = 1; i < taken.size(); ++i) {
    const auto gap = taken[i] > taken[i - 1] ? taken[i] - taken[i - 1] : taken[i - 1] - taken[i];
    EXPECT_GE(static_cast<size_t>(gap), kBytes);
  }
  // Taken chunks are the taker's: still mapped after the stock is gone.
  for (char* c : taken) EXPECT_EQ(c[kBytes / 2], 1);
  for (char* c : taken) munmap(c, kBytes);
}

TEST(ChunkStockTest, TheThreadBacksTheFirstChunk) {
  char* first = nullptr;
  {
    ChunkStock stock(2);
    first = stock.Take();
    ASSERT_NE(first, nullptr);
  }  // joins the thread, which backs the first chunk before anything else
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(ResidentPages(first), kBytes / page);
  munmap(first, kBytes);
}

TEST(ChunkStockTest, NoChunksMeansNothingToTake) {
  ChunkStock stock(0);
  EXPECT_EQ(stock.Take(), nullptr);
}

TEST(ChunkStockTest, ReleasedSpareReadsAsZero) {
  ChunkStock stock(2);
  char* first = stock.Take();
  ASSERT_NE(first, nullptr);
  stock.ReleaseSpare();  // the second chunk, made or being made, gives its pages back
  char* second = stock.Take();
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second[0], 0);
  EXPECT_EQ(second[kBytes - 1], 0);
  munmap(first, kBytes);
  munmap(second, kBytes);
}

}  // namespace
}  // namespace fe::dp
