#include "traffic/collective/builder.h"

#include <algorithm>

namespace fe {

CollectiveBuilder::CollectiveBuilder(std::span<const uint32_t> hosts,
                                     std::span<const RankGate> gates, uint32_t channels,
                                     const OpContext& context, const Workload& w)
    : hosts_(hosts),
      gates_(gates),
      channels_(channels),
      context_(context),
      base_(static_cast<uint32_t>(w.size())),
      anchor_(hosts.size() * channels, kNoIndex) {}

uint32_t CollectiveBuilder::Send(uint32_t from, uint32_t to, uint64_t bytes, uint32_t channel,
                                 std::initializer_list<uint32_t> deps) {
  return Send(from, to, bytes, channel, std::span<const uint32_t>(deps.begin(), deps.size()));
}

uint32_t CollectiveBuilder::Send(uint32_t from, uint32_t to, uint64_t bytes, uint32_t channel,
                                 std::span<const uint32_t> deps) {
  const uint32_t id = base_ + static_cast<uint32_t>(pending_.size());
  Pending p{.from = from, .to = to, .bytes = bytes};
  p.deps_begin = static_cast<uint32_t>(deps_.size());
  deps_.insert(deps_.end(), deps.begin(), deps.end());
  const bool gated = !gates_.empty() && !gates_[from].empty();
  // A message that follows one of the sender's own is after the sender's gate already.
  const bool follows_own = std::any_of(deps.begin(), deps.end(), [&](uint32_t d) {
    return Own(d) && pending_[d - base_].from == from;
  });
  if (gated && !follows_own) {
    uint32_t& anchor = anchor_[from * channels_ + channel];
    if (anchor == kNoIndex) {
      anchor = id;
      p.anchored = true;
    } else {
      deps_.push_back(anchor);
    }
  }
  p.deps_end = static_cast<uint32_t>(deps_.size());
  pending_.push_back(p);
  return id;
}

std::vector<RankGate> CollectiveBuilder::Finish(Workload* w) {
  const auto n = static_cast<uint32_t>(hosts_.size());
  std::vector<bool> sends(n, false);
  for (const Pending& p : pending_) sends[p.from] = true;
  // A rank that sends nothing waits for its gate before it receives anything.
  std::vector<uint32_t> first_received(n, kNoIndex);
  for (uint32_t i = 0; i < pending_.size(); ++i) {
    uint32_t& first = first_received[pending_[i].to];
    if (first == kNoIndex) first = i;
  }
  // Which messages a later send of their sender, or of their receiver, waits for.
  std::vector<bool> followed_by_src(pending_.size(), false);
  std::vector<bool> followed_by_dst(pending_.size(), false);
  std::vector<uint32_t> deps;
  for (uint32_t i = 0; i < pending_.size(); ++i) {
    const Pending& p = pending_[i];
    deps.assign(deps_.begin() + p.deps_begin, deps_.begin() + p.deps_end);
    if (p.anchored) deps.insert(deps.end(), gates_[p.from].begin(), gates_[p.from].end());
    if (!gates_.empty() && !sends[p.to] && first_received[p.to] == i) {
      deps.insert(deps.end(), gates_[p.to].begin(), gates_[p.to].end());
    }
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    for (const uint32_t d : deps) {
      if (!Own(d)) continue;
      const Pending& dep = pending_[d - base_];
      if (dep.from == p.from) followed_by_src[d - base_] = true;
      if (dep.to == p.from) followed_by_dst[d - base_] = true;
    }
    w->Add(Flow{.src_host = hosts_[p.from],
                .dst_host = hosts_[p.to],
                .size_bytes = p.bytes,
                .start = context_.start},
           deps, p.anchored ? context_.delay : Time::Zero(), context_.job, context_.op,
           context_.iteration);
  }
  std::vector<RankGate> out(n);
  for (uint32_t i = 0; i < pending_.size(); ++i) {
    const Pending& p = pending_[i];
    if (!followed_by_src[i]) out[p.from].push_back(base_ + i);
    if (!followed_by_dst[i]) out[p.to].push_back(base_ + i);
  }
  for (uint32_t r = 0; r < n; ++r) {
    if (out[r].empty() && !gates_.empty()) out[r] = gates_[r];
  }
  return out;
}

}  // namespace fe
