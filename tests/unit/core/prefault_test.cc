#include "core/prefault.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstddef>
#include <vector>

namespace fe {
namespace {

// Minor page faults the calling thread has taken so far (the kernel's own count).
long MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

class FreshMapping : public ::testing::Test {
 protected:
  static constexpr size_t kPages = 64;
  void SetUp() override {
    page_bytes_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    bytes_ = kPages * page_bytes_;
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    base_ = static_cast<char*>(p);
    // Huge pages would back the block in one fault either way.
    madvise(base_, bytes_, MADV_NOHUGEPAGE);
  }
  void TearDown() override { munmap(base_, bytes_); }
  // Writes a byte in each page from `first` on and returns the faults that took. Not
  // instrumented: under AddressSanitizer each write would first read its shadow byte, whose
  // pages fault in on first use too.
  [[gnu::no_sanitize_address]] long FaultsWriting(size_t first) {
    const long before = MinorFaults();
    for (size_t page = first; page < kPages; ++page) base_[page * page_bytes_] = 1;
    return MinorFaults() - before;
  }
  // Which pages of the block are resident (the kernel's mincore).
  std::vector<bool> Resident() {
    std::vector<unsigned char> v(kPages);
    EXPECT_EQ(mincore(base_, bytes_, v.data()), 0);
    std::vector<bool> r;
    for (unsigned char c : v) r.push_back((c & 1) != 0);
    return r;
  }
  size_t page_bytes_ = 0;
  size_t bytes_ = 0;
  char* base_ = nullptr;
};

TEST_F(FreshMapping, WritesAfterPrefaultTakeNoFault) {
  // Without it, each page's first write is a fault of its own: the count the prefault saves.
  EXPECT_GE(FaultsWriting(kPages / 2), static_cast<long>(kPages / 2));
  if (!PrefaultForWrite(base_, kPages / 2 * page_bytes_)) {
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)";
  }
  EXPECT_EQ(FaultsWriting(0), 0);
}

TEST_F(FreshMapping, BacksOnlyTheWholePagesInside) {
  // From the middle of page 1 to the middle of page 5: pages 2, 3 and 4 lie wholly inside.
  if (!PrefaultForWrite(base_ + page_bytes_ + page_bytes_ / 2, 4 * page_bytes_)) {
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)";
  }
  std::vector<bool> expected(kPages, false);
  expected[2] = expected[3] = expected[4] = true;
  EXPECT_EQ(Resident(), expected);
}

TEST_F(FreshMapping, LessThanAPageBacksNothing) {
  EXPECT_TRUE(PrefaultForWrite(base_ + 1, page_bytes_ - 1));
  EXPECT_EQ(Resident(), std::vector<bool>(kPages, false));
}

}  // namespace
}  // namespace fe
