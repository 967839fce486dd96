// The workload's dependency graph helpers: DependencyCycle names a cycle whole, LeaveOut removes
// messages and everything that waits for them.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "traffic/dependency_cycle.h"
#include "traffic/workload_filter.h"

namespace fe {
namespace {

Flow F(uint32_t src, uint32_t dst) { return Flow{0, src, dst, 1000, Time::Zero(), 0}; }

// Messages 0..n-1; deps[i] are message i's dependencies.
Workload Graph(const std::vector<std::vector<uint32_t>>& deps) {
  Workload w;
  w.jobs.emplace_back();
  for (const std::vector<uint32_t>& d : deps) w.Add(F(0, 1), d, Time::FromNs(5));
  return w;
}

// Each message of the returned cycle must wait for the next, the last for the first.
void ExpectIsCycle(const Workload& w, const std::vector<uint32_t>& cycle) {
  ASSERT_FALSE(cycle.empty());
  for (size_t i = 0; i < cycle.size(); ++i) {
    const uint32_t next = cycle[(i + 1) % cycle.size()];
    const auto deps = w.dependencies(cycle[i]);
    EXPECT_NE(std::find(deps.begin(), deps.end(), next), deps.end())
        << cycle[i] << " does not wait for " << next;
  }
}

TEST(DependencyCycleTest, NoCycleInADagWithForwardReferences) {
  // 0 waits for 3 (a forward reference, as trace files make), 3 for 1 and 2, 2 for 1.
  EXPECT_TRUE(DependencyCycle(Graph({{3}, {}, {1}, {1, 2}})).empty());
  EXPECT_TRUE(DependencyCycle(Graph({})).empty());
}

TEST(DependencyCycleTest, FindsACycleBehindAnAcyclicPrefix) {
  // 0 -> 1 -> 2 -> 3 -> 1: the cycle is {1, 2, 3}; 0 only waits for it.
  const Workload w = Graph({{1}, {2}, {3}, {1}});
  const std::vector<uint32_t> cycle = DependencyCycle(w);
  EXPECT_EQ(cycle.size(), 3u);
  ExpectIsCycle(w, cycle);
}

TEST(DependencyCycleTest, ALongChainIsWalkedWithoutRecursion) {
  // 200,000 messages each waiting for the next, the last for the first: one cycle of them all.
  constexpr uint32_t kN = 200'000;
  std::vector<std::vector<uint32_t>> deps(kN);
  for (uint32_t i = 0; i < kN; ++i) deps[i] = {(i + 1) % kN};
  const Workload w = Graph(deps);
  const std::vector<uint32_t> cycle = DependencyCycle(w);
  EXPECT_EQ(cycle.size(), kN);
  ExpectIsCycle(w, cycle);
}

TEST(LeaveOutTest, DropsWhatWaitsForALeftOutMessageAndRenumbers) {
  // 0; 1 waits for 0; 2; 3 waits for 2 and 4 (forward); 4 waits for 1; 5 waits for 2.
  Workload w = Graph({{}, {0}, {}, {2, 4}, {1}, {2}});
  w.flows[5].size_bytes = 555;
  // Leaving out 0 takes 1, then 4, then 3 with it; 2 and 5 stay as 0 and 1.
  const Workload out = LeaveOut(w, {1, 0, 0, 0, 0, 0});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out.flows[0].id, 0u);
  EXPECT_EQ(out.flows[1].size_bytes, 555u);
  ASSERT_EQ(out.dependencies(1).size(), 1u);
  EXPECT_EQ(out.dependencies(1)[0], 0u);
  EXPECT_EQ(out.delay[1], Time::FromNs(5));
  EXPECT_TRUE(CheckDependencies(out).ok());
}

TEST(LeaveOutTest, KeepsForwardReferencesOfKeptMessages) {
  // 0 waits for 2, 1 is left out: 2 becomes 1, and 0 waits for it.
  const Workload out = LeaveOut(Graph({{2}, {}, {}}), {0, 1, 0});
  ASSERT_EQ(out.size(), 2u);
  ASSERT_EQ(out.dependencies(0).size(), 1u);
  EXPECT_EQ(out.dependencies(0)[0], 1u);
}

}  // namespace
}  // namespace fe
