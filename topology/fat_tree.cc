#include "topology/fat_tree.h"

#include <string>
#include <vector>

#include "topology/field_error.h"
#include "topology/limits.h"
#include "topology/link_class.h"

namespace fe::topo {
namespace {

Status CheckK(int k) {
  if (k < 2 || k % 2 != 0 || k > kMaxFatTreeK) {
    return FieldError("fat_tree.k", "must be an even number from 2 to " +
                                        std::to_string(kMaxFatTreeK) + ", got " +
                                        std::to_string(k));
  }
  return Status::Ok();
}

// The class of a fat-tree given by rate and delay: copper, as the original paper's racks.
LinkClass OwnClass(Rate rate, Time delay) {
  LinkClass c;
  c.name = "fat_tree";
  c.rate = rate;
  c.delay = delay;
  c.media = Media::kDac;
  c.pj_per_bit = DefaultPjPerBit(c.media);
  return c;
}

// Nodes and links of a valid k into a graph without nodes; every link of class `link_class`.
void Wire(int k, LinkClassId link_class, Graph& g) {
  const int half = k / 2;
  const int hosts_per_pod = half * half;
  const int num_hosts = k * hosts_per_pod;

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
  for (int i = 0; i < num_hosts; ++i) g.Connect(host[i], edge[i / half], link_class);
  for (int p = 0; p < k; ++p) {
    for (int e = 0; e < half; ++e) {
      for (int a = 0; a < half; ++a) g.Connect(edge[p * half + e], agg[p * half + a], link_class);
    }
  }
  for (int p = 0; p < k; ++p) {
    for (int a = 0; a < half; ++a) {
      for (int c = 0; c < half; ++c) g.Connect(agg[p * half + a], core[a * half + c], link_class);
    }
  }
}

}  // namespace

StatusOr<Graph> BuildFatTree(const FatTreeParams& params) {
  Status s = CheckK(params.k);
  if (!s.ok()) return s;
  if (params.link_rate.bps() <= 0) {
    return FieldError("fat_tree.link_rate_gbps",
                      "must be positive, got " + std::to_string(params.link_rate.bps()) + " bps");
  }
  if (params.link_delay < Time::Zero()) {
    return FieldError("fat_tree.link_delay_ns", "must not be negative, got " +
                                                    std::to_string(params.link_delay.ps()) + " ps");
  }
  Graph g;
  Wire(params.k, g.AddLinkClass(OwnClass(params.link_rate, params.link_delay)), g);
  return g;
}

Status AddFatTree(const fabric_emu::FatTree& tree, Graph& graph) {
  Status s = CheckK(tree.k());
  if (!s.ok()) return s;
  if (tree.has_link_class()) {
    if (tree.has_link_rate_gbps() || tree.has_link_delay_ns()) {
      return FieldError(
          tree.has_link_rate_gbps() ? "fat_tree.link_rate_gbps" : "fat_tree.link_delay_ns",
          "give link_class or link_rate_gbps and link_delay_ns, not both");
    }
    StatusOr<LinkClassId> id = FindLinkClass(graph, tree.link_class(), "fat_tree.link_class");
    if (!id.ok()) return id.status();
    Wire(tree.k(), *id, graph);
    return Status::Ok();
  }
  s = CheckRange("fat_tree.link_rate_gbps", tree.link_rate_gbps(), kMinLinkRateGbps,
                 kMaxLinkRateGbps, "in Gb/s: 1 Mb/s up to 1600, the fastest Ethernet rate");
  if (!s.ok()) return s;
  s = CheckRange("fat_tree.link_delay_ns", tree.link_delay_ns(), 0, kMaxLinkDelayNs,
                 "in ns: 1 s is 200,000 km of fibre");
  if (!s.ok()) return s;
  const LinkClassId id = graph.AddLinkClass(
      OwnClass(Rate::FromGbps(tree.link_rate_gbps()), Time::FromNs(tree.link_delay_ns())));
  Wire(tree.k(), id, graph);
  return Status::Ok();
}

}  // namespace fe::topo
