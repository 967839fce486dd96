// The collective section: its fields, its hosts against the built fabric, and how many messages
// it makes (it is built here as the run will build it, which also checks what needs the fabric:
// hierarchical groups of equal size).
#include <set>

#include "control/scenario/collective_section.h"
#include "control/scenario/validate/validation.h"
#include "dataplane/message.h"

namespace fe::control {
namespace {

using fabric_emu::Collective;

// The largest size: 64 GiB, beyond what nccl-tests sweeps on any cluster today.
constexpr int64_t kMaxCollectiveBytes = int64_t{1} << 36;
constexpr int kMaxChannels = 64;  // NCCL's MAXCHANNELS
constexpr int kMaxIterations = 1000000;

bool AlgorithmFits(const Collective& c, Validation& v, const Site& s) {
  const CollectiveAlgorithm a = CollectiveAlgorithmOf(c);
  const CollectiveKind k = CollectiveKindOf(c.op());
  const bool ok = HasAlgorithm(k, a);
  if (!ok) {
    v.out.Add(s, Collective::kAlgorithmFieldNumber,
              std::string(CollectiveKindName(k)) + " has no " + CollectiveAlgorithmName(a) +
                  " algorithm (all_to_all: direct; double_binary_tree: all_reduce, broadcast; "
                  "halving_doubling: all_reduce, all_gather, reduce_scatter)");
  }
  return ok;
}

// across_algorithm: only for HIERARCHICAL, and one its op's phase across the groups can run.
bool AcrossAlgorithmFits(const Collective& c, Validation& v, const Site& s) {
  if (c.across_algorithm() == Collective::ALGORITHM_UNSPECIFIED) return true;
  if (c.algorithm() != Collective::HIERARCHICAL) {
    v.out.Add(s, Collective::kAcrossAlgorithmFieldNumber,
              "only algorithm: HIERARCHICAL has a phase across groups; got algorithm " +
                  std::string(CollectiveAlgorithmName(CollectiveAlgorithmOf(c))));
    return false;
  }
  const CollectiveAlgorithm a = AcrossAlgorithmOf(c);
  const CollectiveKind k = CollectiveKindOf(c.op());
  const bool ok = HasAcrossAlgorithm(k, a);
  if (!ok) {
    v.out.Add(s, Collective::kAcrossAlgorithmFieldNumber,
              "hierarchical " + std::string(CollectiveKindName(k)) + " has no " +
                  CollectiveAlgorithmName(a) +
                  " phase across groups (ring: all four; double_binary_tree: all_reduce, "
                  "broadcast; halving_doubling: all_reduce, all_gather, reduce_scatter)");
  }
  return ok;
}

// The hosts; returns how many the ranks may be drawn from (0 if unknown).
int64_t CheckHosts(Validation& v, const Collective& c, const Site& s) {
  std::set<int32_t> seen;
  for (int i = 0; i < c.host_size(); ++i) {
    const int32_t h = c.host(i);
    const int line = s.Line(Collective::kHostFieldNumber, i);
    const std::string path = s.Path(Collective::kHostFieldNumber, i);
    if (h < 0 || (v.graph && h >= static_cast<int64_t>(v.graph->num_hosts()))) {
      v.out.AddAt(line, path,
                  "must be a host index of the fabric (" + v.DescribeFabric() + "), got " +
                      std::to_string(h));
    } else if (!seen.insert(h).second) {
      v.out.AddAt(line, path,
                  "host " + std::to_string(h) + " is listed twice: a host holds one rank");
    }
  }
  if (c.host_size() == 1) {
    v.out.Add(s, Collective::kHostFieldNumber, "a collective needs at least 2 hosts, got 1");
  }
  if (c.host_size() > 0) return c.host_size();
  return v.graph ? static_cast<int64_t>(v.graph->num_hosts()) : 0;
}

bool CheckSizes(Validation& v, const Collective& c, const Site& s) {
  const bool sweep = c.has_min_bytes() || c.has_max_bytes();
  if (c.size_bytes_size() > 0 && sweep) {
    v.out.Add(s, Collective::kMinBytesFieldNumber,
              "give the sizes either as size_bytes or as min_bytes and max_bytes, not both");
    return false;
  }
  bool ok = true;
  for (int i = 0; i < c.size_bytes_size(); ++i) {
    if (c.size_bytes(i) < 1 || c.size_bytes(i) > kMaxCollectiveBytes) {
      v.out.AddAt(
          s.Line(Collective::kSizeBytesFieldNumber, i),
          s.Path(Collective::kSizeBytesFieldNumber, i),
          "must be in [1, " + Num(kMaxCollectiveBytes) + "] bytes, got " + Num(c.size_bytes(i)));
      ok = false;
    }
  }
  if (c.size_bytes_size() > 0) return ok;
  ok = v.out.Present(s, Collective::kMinBytesFieldNumber, c.has_min_bytes(),
                     "the sizes: size_bytes, or min_bytes and max_bytes") &&
       v.out.InRange<int64_t>(s, Collective::kMinBytesFieldNumber, c.min_bytes(), 1,
                              kMaxCollectiveBytes);
  ok = v.out.Present(s, Collective::kMaxBytesFieldNumber, c.has_max_bytes(),
                     "the largest size of the sweep") &&
       v.out.InRange<int64_t>(s, Collective::kMaxBytesFieldNumber, c.max_bytes(),
                              std::max<int64_t>(c.min_bytes(), 1), kMaxCollectiveBytes,
                              "from min_bytes") &&
       ok;
  return v.out.AtLeast(s, Collective::kStepFactorFieldNumber, c.step_factor(), 2) && ok;
}

}  // namespace

double ValidateCollective(Validation& v, const Collective& c, const Site& s) {
  bool ok = true;
  if (c.op() == Collective::OP_UNSPECIFIED) {
    v.out.Add(s, Collective::kOpFieldNumber,
              "choose an op: ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL or BROADCAST");
    ok = false;
  }
  ok = AlgorithmFits(c, v, s) && ok;
  ok = AcrossAlgorithmFits(c, v, s) && ok;
  const int64_t hosts = CheckHosts(v, c, s);
  const int64_t ranks = c.has_ranks() ? c.ranks() : hosts;
  if (c.has_ranks()) {
    ok = (hosts > 0 ? v.out.InRange<int64_t>(s, Collective::kRanksFieldNumber, c.ranks(), 2, hosts,
                                             "at most the hosts to place them on")
                    : v.out.AtLeast(s, Collective::kRanksFieldNumber, c.ranks(), 2)) &&
         ok;
  }
  ok = CheckSizes(v, c, s) && ok;
  ok =
      v.out.InRange(s, Collective::kIterationsFieldNumber, c.iterations(), 1, kMaxIterations) && ok;
  ok = v.out.InRange(s, Collective::kChannelsFieldNumber, c.channels(), 1, kMaxChannels,
                     "NCCL's most") &&
       ok;
  ok = v.out.InRange<int64_t>(s, Collective::kChunkBytesFieldNumber, c.chunk_bytes(), 1,
                              kMaxMessageBytes, "a chunk is one message") &&
       ok;
  if (c.op() == Collective::BROADCAST && ranks > 0) {
    ok =
        v.out.InRange<int64_t>(s, Collective::kRootFieldNumber, c.root(), 0, ranks - 1, "a rank") &&
        ok;
  }
  ok = v.Duration(s, Collective::kStartNsFieldNumber, c.start_ns(), false) && ok;
  if (!ok || !v.graph) return 0;
  // Each operation moves its size at least once in messages of at most a chunk (a
  // halving-doubling round: half of N chunks, over N ranks): a lower bound on the messages that
  // refuses a sweep far too large before it is built.
  double at_least = 0;
  for (const uint64_t size : CollectiveSizes(c)) {
    at_least += static_cast<double>(size) / static_cast<double>(c.chunk_bytes()) * c.iterations();
  }
  if (at_least > dp::kMaxMessages) {
    v.out.AddWhole(s, "makes at least " + Num(at_least) + " messages, more than the " +
                          std::to_string(dp::kMaxMessages) +
                          " a run holds: raise chunk_bytes, or lower the sizes or iterations");
    return at_least;
  }
  StatusOr<Workload> w =
      CollectiveWorkload(c, *v.graph, v.scenario.run().seed(), v.scenario_dir.string());
  if (!w.ok()) {
    v.out.AddWhole(s, w.status().message());
    return 0;
  }
  return static_cast<double>(w->size());
}

}  // namespace fe::control
