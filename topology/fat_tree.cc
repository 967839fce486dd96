#include "topology/fat_tree.h"

#include <string>
#include <vector>

namespace fe::topo {

StatusOr<Graph> BuildFatTree(const FatTreeParams& params) {
  const int k = params.k;
  if (k < 2 || k % 2 != 0 || k > kMaxFatTreeK) {
    return Status::Error("fat_tree.k must be an even number from 2 to " +
                         std::to_string(kMaxFatTreeK) + ", got " + std::to_string(k));
  }
  if (params.link_rate.bps() <= 0) {
    return Status::Error("fat_tree link rate must be positive, got " +
                         std::to_string(params.link_rate.bps()) + " bps");
  }
  if (params.link_delay < Time::Zero()) {
    return Status::Error("fat_tree link delay must not be negative, got " +
                         std::to_string(params.link_delay.ps()) + " ps");
  }

  const int half = k / 2;
  const int hosts_per_pod = half * half;
  const int num_hosts = k * hosts_per_pod;
  const Rate rate = params.link_rate;
  const Time delay = params.link_delay;
  Graph g;

  std::vector<NodeId> host(num_hosts), edge(k * half), agg(k * half), core(half * half);
  for (int i = 0; i < num_hosts; ++i) {
    host[i] = g.AddNode(NodeKind::kHost, 0, i / hosts_per_pod, "h" + std::to_string(i));
  }
  for (int i = 0; i < k * half; ++i) {
    edge[i] = g.AddNode(NodeKind::kSwitch, 1, i / half, "edge" + std::to_string(i));
  }
  for (int i = 0; i < k * half; ++i) {
    agg[i] = g.AddNode(NodeKind::kSwitch, 2, i / half, "agg" + std::to_string(i));
  }
  for (int i = 0; i < half * half; ++i) {
    core[i] = g.AddNode(NodeKind::kSwitch, 3, -1, "core" + std::to_string(i));
  }

  // Graph numbers ports in attach order, so links are attached tier by tier from the bottom:
  // each switch then receives all its down-facing links before any up-facing one.
  for (int i = 0; i < num_hosts; ++i) g.Connect(host[i], edge[i / half], rate, delay);
  for (int p = 0; p < k; ++p) {
    for (int e = 0; e < half; ++e) {
      for (int a = 0; a < half; ++a) g.Connect(edge[p * half + e], agg[p * half + a], rate, delay);
    }
  }
  for (int p = 0; p < k; ++p) {
    for (int a = 0; a < half; ++a) {
      for (int c = 0; c < half; ++c) g.Connect(agg[p * half + a], core[a * half + c], rate, delay);
    }
  }
  return g;
}

}  // namespace fe::topo
