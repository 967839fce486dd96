#include "control/report/collectives_report.h"

#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

#include "traffic/collective/collective.h"

namespace fe::control {
namespace {

constexpr uint64_t kFloatBytes = 4;  // nccl-tests' default type

std::string Format(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

bool Reduces(CollectiveKind k) {
  return k == CollectiveKind::kAllReduce || k == CollectiveKind::kReduceScatter;
}

// nccl-tests prints the per-rank element count of the operations whose size is the whole
// gathered or scattered buffer.
uint64_t Count(const CollectiveOp& op) {
  const bool per_rank = op.kind == CollectiveKind::kAllGather ||
                        op.kind == CollectiveKind::kReduceScatter ||
                        op.kind == CollectiveKind::kAllToAll;
  return op.size_bytes / kFloatBytes / (per_rank ? op.ranks : 1);
}

}  // namespace

std::string CollectivesCsv(const Workload& w, std::span<const CollectiveMeasure> measures) {
  std::string out =
      "job,op,algorithm,bytes,ranks,channels,start_ns,end_ns,time_us,algbw_gbps,busbw_gbps\n";
  for (const CollectiveMeasure& m : measures) {
    const CollectiveOp& op = w.ops[m.op];
    out += w.jobs[op.job].name + "," + CollectiveKindName(op.kind) + "," +
           CollectiveAlgorithmName(op.algorithm) + "," + std::to_string(op.size_bytes) + "," +
           std::to_string(op.ranks) + "," + std::to_string(op.channels) + ",";
    out += m.start == Time::Infinite() ? "" : Format("%.3f", m.start.ps() * 1e-3);
    if (m.complete) {
      out += "," + Format("%.3f", m.end.ps() * 1e-3) + "," + Format("%.3f", m.time().ps() * 1e-6) +
             "," + Format("%.3f", m.algbw_gbps) + "," + Format("%.3f", m.busbw_gbps) + "\n";
    } else {
      out += ",,,,\n";
    }
  }
  return out;
}

std::string CollectivesTable(const Workload& w, std::span<const CollectiveMeasure> measures) {
  // Blocks by job and operation; rows by size, in the order they ran.
  using BlockKey = std::tuple<uint32_t, CollectiveKind, CollectiveAlgorithm, uint32_t>;
  struct Row {
    uint32_t first_op = 0;
    double time_s = 0;
    uint32_t runs = 0;
  };
  std::vector<BlockKey> blocks;
  std::map<BlockKey, std::vector<uint64_t>> sizes;
  std::map<std::pair<BlockKey, uint64_t>, Row> rows;
  for (const CollectiveMeasure& m : measures) {
    const CollectiveOp& op = w.ops[m.op];
    const BlockKey key{op.job, op.kind, op.algorithm, op.ranks};
    if (!sizes.count(key)) blocks.push_back(key);
    auto [it, added] = rows.try_emplace({key, op.size_bytes}, Row{m.op});
    if (added) sizes[key].push_back(op.size_bytes);
    if (m.complete) {
      it->second.time_s += m.time().seconds();
      ++it->second.runs;
    }
  }
  std::string out;
  char line[160];
  for (const BlockKey& key : blocks) {
    const auto& [job, kind, algorithm, ranks] = key;
    const CollectiveOp& first = w.ops[rows.at({key, sizes[key].front()}).first_op];
    std::snprintf(line, sizeof(line), "# %s: %s, %s, %u ranks, %u channels\n",
                  w.jobs[job].name.c_str(), CollectiveKindName(kind),
                  CollectiveAlgorithmName(algorithm), ranks, first.channels);
    out += line;
    out += "#\n#        size         count      type   redop    root      time   algbw   busbw\n";
    out += "#         (B)    (elements)                                (us)  (GB/s)  (GB/s)\n";
    double busbw_sum = 0;
    uint32_t measured = 0;
    for (const uint64_t size : sizes[key]) {
      const Row& r = rows.at({key, size});
      const CollectiveOp& op = w.ops[r.first_op];
      const int root = kind == CollectiveKind::kBroadcast ? static_cast<int>(op.root) : -1;
      std::snprintf(line, sizeof(line), "  %12llu  %12llu  %8s  %6s  %6d",
                    static_cast<unsigned long long>(size),
                    static_cast<unsigned long long>(Count(op)), "float",
                    Reduces(kind) ? "sum" : "none", root);
      out += line;
      if (r.runs == 0) {
        out += "  not completed\n";
        continue;
      }
      const double time_s = r.time_s / r.runs;
      const double algbw = static_cast<double>(size) / time_s * 1e-9;
      const double busbw = algbw * BusBandwidthFactor(kind, ranks);
      std::snprintf(line, sizeof(line), "  %8.2f  %6.2f  %6.2f\n", time_s * 1e6, algbw, busbw);
      out += line;
      busbw_sum += busbw;
      ++measured;
    }
    // An average of no size is none: 0 would pass for a measured, if dismal, bandwidth.
    if (measured > 0) {
      std::snprintf(line, sizeof(line), "# Avg bus bandwidth    : %g\n#\n", busbw_sum / measured);
      out += line;
    } else {
      out += "# Avg bus bandwidth    : none\n#\n";
    }
  }
  return out;
}

StatusOr<std::string> WriteCollectiveReports(const Workload& w,
                                             std::span<const MessageOutcome> outcomes,
                                             OutputSet* outputs, std::ostream& console) {
  if (w.ops.empty()) return std::string();
  const std::vector<CollectiveMeasure> measures = MeasureCollectives(w, outcomes);
  const std::string name = "collectives.csv";
  if (Status s = outputs->Write(name, CollectivesCsv(w, measures)); !s.ok()) return s;
  console << CollectivesTable(w, measures);
  return name;
}

}  // namespace fe::control
