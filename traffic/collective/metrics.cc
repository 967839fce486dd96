#include "traffic/collective/metrics.h"

#include <algorithm>

namespace fe {

double BusBandwidthFactor(CollectiveKind kind, uint32_t ranks) {
  const double n = ranks;
  switch (kind) {
    case CollectiveKind::kAllReduce:
      return 2 * (n - 1) / n;
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllToAll:
      return (n - 1) / n;
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kSendRecv:
      return 1;
  }
  return 1;
}

std::vector<CollectiveMeasure> MeasureCollectives(const Workload& w,
                                                  std::span<const MessageOutcome> outcomes) {
  std::vector<CollectiveMeasure> m(w.ops.size());
  std::vector<uint32_t> undelivered(w.ops.size(), 0);
  std::vector<bool> has_messages(w.ops.size(), false);
  for (uint32_t i = 0; i < m.size(); ++i) m[i].op = i;
  for (uint32_t id = 0; id < w.size(); ++id) {
    const uint32_t op = w.op_of[id];
    if (op == kNoIndex) continue;
    has_messages[op] = true;
    const MessageOutcome o = id < outcomes.size() ? outcomes[id] : MessageOutcome{};
    m[op].start = std::min(m[op].start, o.started);
    if (o.delivered == Time::Infinite()) {
      ++undelivered[op];
    } else {
      m[op].end = m[op].end == Time::Infinite() ? o.delivered : std::max(m[op].end, o.delivered);
    }
  }
  for (uint32_t op = 0; op < m.size(); ++op) {
    CollectiveMeasure& x = m[op];
    x.complete = has_messages[op] && undelivered[op] == 0 && x.end > x.start;
    if (!x.complete) continue;
    const CollectiveOp& c = w.ops[op];
    x.algbw_gbps = static_cast<double>(c.size_bytes) * 8 / x.time().seconds() * 1e-9;
    x.busbw_gbps = x.algbw_gbps * BusBandwidthFactor(c.kind, c.ranks);
  }
  return m;
}

}  // namespace fe
