// What the collective tests share: a spec over hosts 0..n-1, the workload it builds (checked
// for a valid dependency graph) and the bytes and messages each rank sends and receives.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "traffic/collective/collective.h"

namespace fe::collective_test {

inline constexpr uint64_t kMiB = 1 << 20;

inline std::vector<uint32_t> Hosts(uint32_t n) {
  std::vector<uint32_t> h(n);
  std::iota(h.begin(), h.end(), 0u);
  return h;
}

inline CollectiveSpec Spec(CollectiveKind kind, CollectiveAlgorithm algorithm, uint32_t n,
                           uint64_t size_bytes, uint32_t channels = 1,
                           uint64_t chunk_bytes = kDefaultChunkBytes) {
  CollectiveSpec s;
  s.kind = kind;
  s.algorithm = algorithm;
  s.ranks = Hosts(n);
  s.size_bytes = size_bytes;
  s.channels = channels;
  s.chunk_bytes = chunk_bytes;
  return s;
}

inline Workload Build(const CollectiveSpec& spec) {
  Workload w;
  w.jobs.push_back(Job{"job", "collective"});
  auto gates = AppendCollective(spec, {}, Time::Zero(), Time::Zero(), 0, kNoIndex, &w);
  EXPECT_TRUE(gates.ok()) << gates.status().message();
  EXPECT_TRUE(CheckDependencies(w).ok());
  return w;
}

struct PerRank {
  std::vector<uint64_t> sent_bytes, received_bytes, sent_messages;
};

inline PerRank Count(const Workload& w, uint32_t n) {
  PerRank c{std::vector<uint64_t>(n), std::vector<uint64_t>(n), std::vector<uint64_t>(n)};
  for (const Flow& f : w.flows) {
    EXPECT_GT(f.size_bytes, 0u);
    EXPECT_NE(f.src_host, f.dst_host);
    c.sent_bytes[f.src_host] += f.size_bytes;
    c.received_bytes[f.dst_host] += f.size_bytes;
    ++c.sent_messages[f.src_host];
  }
  return c;
}

}  // namespace fe::collective_test
