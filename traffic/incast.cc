#include "traffic/incast.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/random.h"

namespace fe {
namespace {

std::vector<uint32_t> HostsAfter(uint32_t receiver, uint32_t count, uint32_t num_hosts) {
  std::vector<uint32_t> hosts(count);
  for (uint32_t i = 0; i < count; ++i) hosts[i] = (receiver + 1 + i) % num_hosts;
  std::sort(hosts.begin(), hosts.end());
  return hosts;
}

// A partial Fisher-Yates shuffle over the hosts other than the receiver.
std::vector<uint32_t> RandomHosts(uint32_t receiver, uint32_t count, uint32_t num_hosts,
                                  Random& rng) {
  std::vector<uint32_t> candidates;
  candidates.reserve(num_hosts - 1);
  for (uint32_t h = 0; h < num_hosts; ++h) {
    if (h != receiver) candidates.push_back(h);
  }
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t j = i + rng.NextBelow(candidates.size() - i);
    std::swap(candidates[i], candidates[j]);
  }
  candidates.resize(count);
  std::sort(candidates.begin(), candidates.end());
  return candidates;
}

Status CheckSenderList(const IncastParams& p) {
  std::vector<bool> seen(p.num_hosts, false);
  for (uint32_t s : p.sender_list) {
    if (s >= p.num_hosts) {
      return Status::Error("incast sender " + std::to_string(s) + " is not a host (num_hosts " +
                           std::to_string(p.num_hosts) + ")");
    }
    if (s == p.receiver) {
      return Status::Error("incast sender " + std::to_string(s) + " is the receiver");
    }
    if (seen[s]) return Status::Error("incast sender " + std::to_string(s) + " is repeated");
    seen[s] = true;
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::vector<Flow>> MakeIncast(const IncastParams& p) {
  if (p.receiver >= p.num_hosts) {
    return Status::Error("incast receiver " + std::to_string(p.receiver) +
                         " is not a host (num_hosts " + std::to_string(p.num_hosts) + ")");
  }
  if (p.message_bytes == 0) return Status::Error("incast message_bytes must be positive");
  if (p.start_jitter < Time::Zero()) return Status::Error("incast start_jitter is negative");
  const uint32_t count = p.senders == IncastSenders::kList
                             ? static_cast<uint32_t>(p.sender_list.size())
                             : p.num_senders;
  if (count == 0 || count > p.num_hosts - 1) {
    return Status::Error("incast needs between 1 and " + std::to_string(p.num_hosts - 1) +
                         " senders, got " + std::to_string(count));
  }

  Random rng(p.seed);
  std::vector<uint32_t> senders;
  switch (p.senders) {
    case IncastSenders::kAfterReceiver:
      senders = HostsAfter(p.receiver, count, p.num_hosts);
      break;
    case IncastSenders::kRandom:
      senders = RandomHosts(p.receiver, count, p.num_hosts, rng);
      break;
    case IncastSenders::kList:
      if (Status s = CheckSenderList(p); !s.ok()) return s;
      senders = p.sender_list;
      break;
  }

  std::vector<Flow> flows(count);
  for (uint32_t i = 0; i < count; ++i) {
    const Time jitter = p.start_jitter > Time::Zero()
                            ? Time::FromPs(static_cast<int64_t>(
                                  rng.NextBelow(static_cast<uint64_t>(p.start_jitter.ps()))))
                            : Time::Zero();
    flows[i] = Flow{.id = i,
                    .src_host = senders[i],
                    .dst_host = p.receiver,
                    .size_bytes = p.message_bytes,
                    .start = p.start + jitter};
  }
  return flows;
}

}  // namespace fe
