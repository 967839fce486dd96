#include "topology/clos.h"

#include <array>
#include <string>
#include <vector>

#include "topology/builder_checks.h"
#include "topology/field_error.h"
#include "topology/limits.h"
#include "topology/link_class.h"

namespace fe::topo {
namespace {

constexpr std::array<const char*, 3> kDefaultRoles = {"leaf", "spine", "superspine"};

struct Tier {
  std::string role;
  int64_t switches = 0;
  int64_t down = 0;
  int64_t up = 0;
  LinkClassId up_class = 0;
  std::vector<NodeId> ids;
};

std::string TierPath(int t) { return "clos.tier[" + std::to_string(t) + "]"; }

// Fields of each tier on their own, before the tiers are matched against each other.
Status ReadTier(const fabric_emu::ClosTier& in, int t, int num_tiers, const Graph& graph,
                Tier& out) {
  const std::string path = TierPath(t);
  out.role = in.has_role() ? in.role() : kDefaultRoles[t];
  Status s = CheckRole(out.role, FieldPath(path, "role"));
  if (!s.ok()) return s;
  if (!in.has_switches()) return FieldError(FieldPath(path, "switches"), "demanded");
  if (!in.has_down_links()) return FieldError(FieldPath(path, "down_links"), "demanded");
  s = CheckCount(FieldPath(path, "switches"), in.switches(), 1, kMaxEndpoints);
  if (!s.ok()) return s;
  s = CheckCount(FieldPath(path, "down_links"), in.down_links(), 1, kMaxPortsPerSwitch);
  if (!s.ok()) return s;
  out.switches = in.switches();
  out.down = in.down_links();
  out.up = in.up_links();
  const bool top = t == num_tiers - 1;
  if (top) {
    if (out.up != 0) return FieldError(FieldPath(path, "up_links"), "the top tier has none: 0");
    if (in.has_uplink_class()) {
      return FieldError(FieldPath(path, "uplink_class"), "the top tier has no up-links");
    }
  } else {
    s = CheckCount(FieldPath(path, "up_links"), out.up, 1, kMaxPortsPerSwitch,
                   "(a tier below the top reaches the one above)");
    if (!s.ok()) return s;
    StatusOr<LinkClassId> id =
        FindLinkClass(graph, in.uplink_class(), FieldPath(path, "uplink_class"));
    if (!id.ok()) return id.status();
    out.up_class = *id;
  }
  if (in.has_radix()) {
    s = CheckCount(FieldPath(path, "radix"), in.radix(), 1, kMaxPortsPerSwitch);
    if (!s.ok()) return s;
  }
  return CheckSwitchPorts(FieldPath(path, "down_links"), out.down + out.up, in.radix(),
                          FieldPath(path, "radix"));
}

// `groups` groups of the lower tier each join every switch of a matching group of `above`
// switches with up / above parallel links: checks the counts divide and add up.
Status CheckJoin(int t, const Tier& below, const Tier& above, int64_t groups,
                 const std::string& group_word) {
  const std::string path = TierPath(t);
  const int64_t reach = above.switches / groups;  // switches each lower switch must reach
  if (below.up % reach != 0) {
    return FieldError(FieldPath(path, "up_links"),
                      std::to_string(below.up) + " up-links do not split evenly over the " +
                          std::to_string(reach) + " " + above.role + " switches" + group_word +
                          " each " + below.role + " reaches");
  }
  if (below.switches * below.up != above.switches * above.down) {
    return FieldError(
        FieldPath(TierPath(t + 1), "down_links"),
        std::to_string(below.switches) + " " + below.role + " x " + std::to_string(below.up) +
            " up-links = " + std::to_string(below.switches * below.up) + " links, but " +
            std::to_string(above.switches) + " " + above.role + " x " + std::to_string(above.down) +
            " down-links = " + std::to_string(above.switches * above.down));
  }
  return Status::Ok();
}

}  // namespace

Status AddClos(const fabric_emu::Clos& clos, Graph& graph) {
  const int num_tiers = clos.tier_size();
  if (num_tiers != 2 && num_tiers != 3) {
    return FieldError("clos.tier",
                      "give 2 or 3 tiers, from the leaves up; got " + std::to_string(num_tiers));
  }
  StatusOr<LinkClassId> host_class =
      FindLinkClass(graph, clos.host_link_class(), "clos.host_link_class");
  if (!host_class.ok()) return host_class.status();
  std::vector<Tier> tiers(num_tiers);
  for (int t = 0; t < num_tiers; ++t) {
    Status s = ReadTier(clos.tier(t), t, num_tiers, graph, tiers[t]);
    if (!s.ok()) return s;
    for (int u = 0; u < t; ++u) {
      if (tiers[u].role == tiers[t].role) {
        return FieldError(FieldPath(TierPath(t), "role"),
                          Quoted(tiers[t].role) + " is tier[" + std::to_string(u) + "]'s role too");
      }
    }
  }
  const int64_t pods = clos.pods();
  if (num_tiers == 2 && pods != 1) {
    return FieldError("clos.pods", "only a three-tier Clos has pods");
  }
  Status s = CheckCount("clos.pods", pods, 1, kMaxEndpoints);
  if (!s.ok()) return s;
  const int64_t hosts = tiers[0].switches * tiers[0].down;
  s = CheckCount("clos.tier[0].down_links", hosts, 1, kMaxEndpoints,
                 "hosts in all (tier[0].switches x down_links), as host addresses allow");
  if (!s.ok()) return s;

  if (num_tiers == 3) {
    for (int t = 0; t < 2; ++t) {
      if (tiers[t].switches % pods != 0) {
        return FieldError(FieldPath(TierPath(t), "switches"), std::to_string(tiers[t].switches) +
                                                                  " do not split evenly into " +
                                                                  std::to_string(pods) + " pods");
      }
    }
    const int64_t planes = tiers[1].switches / pods;  // spines per pod
    if (tiers[2].switches % planes != 0) {
      return FieldError(FieldPath(TierPath(2), "switches"),
                        std::to_string(tiers[2].switches) + " do not split evenly into " +
                            std::to_string(planes) + " planes, one per spine of a pod");
    }
    s = CheckJoin(0, tiers[0], tiers[1], pods, " of its pod");
    if (!s.ok()) return s;
    s = CheckJoin(1, tiers[1], tiers[2], planes, " of its plane");
    if (!s.ok()) return s;
  } else {
    s = CheckJoin(0, tiers[0], tiers[1], 1, "");
    if (!s.ok()) return s;
  }

  int64_t links = hosts;
  for (const Tier& tier : tiers) links += tier.switches * tier.up;
  s = CheckLinkTotal("clos.tier", links);
  if (!s.ok()) return s;

  // Nodes: hosts, then each tier.
  const int64_t leaves_per_pod = tiers[0].switches / pods;
  const int64_t spines_per_pod = tiers[1].switches / (num_tiers == 3 ? pods : 1);
  std::vector<NodeId> host(hosts);
  for (int64_t i = 0; i < hosts; ++i) {
    const int64_t leaf = i / tiers[0].down;
    host[i] = graph.AddNode(NodeKind::kHost, 0, static_cast<int32_t>(leaf / leaves_per_pod),
                            "h" + std::to_string(i));
  }
  for (int t = 0; t < num_tiers; ++t) {
    Tier& tier = tiers[t];
    const bool in_pods = t < num_tiers - 1;
    const int64_t per_pod = t == 0 ? leaves_per_pod : spines_per_pod;
    tier.ids.resize(tier.switches);
    for (int64_t j = 0; j < tier.switches; ++j) {
      tier.ids[j] = graph.AddNode(NodeKind::kSwitch, static_cast<uint8_t>(t + 1),
                                  in_pods ? static_cast<int32_t>(j / per_pod) : -1,
                                  tier.role + std::to_string(j));
    }
  }

  // Links, tier by tier from the bottom, so each switch's down-ports come before its up-ports.
  for (int64_t i = 0; i < hosts; ++i)
    graph.Connect(host[i], tiers[0].ids[i / tiers[0].down], *host_class);
  const Tier& leaf = tiers[0];
  const Tier& spine = tiers[1];
  for (int64_t l = 0; l < leaf.switches; ++l) {
    const int64_t pod = l / leaves_per_pod;
    const int64_t parallel = leaf.up / spines_per_pod;
    for (int64_t j = 0; j < spines_per_pod; ++j) {
      for (int64_t r = 0; r < parallel; ++r) {
        graph.Connect(leaf.ids[l], spine.ids[pod * spines_per_pod + j], leaf.up_class);
      }
    }
  }
  if (num_tiers == 3) {
    const Tier& super = tiers[2];
    const int64_t per_plane = super.switches / spines_per_pod;
    const int64_t parallel = spine.up / per_plane;
    for (int64_t sp = 0; sp < spine.switches; ++sp) {
      const int64_t plane = sp % spines_per_pod;
      for (int64_t c = 0; c < per_plane; ++c) {
        for (int64_t r = 0; r < parallel; ++r) {
          graph.Connect(spine.ids[sp], super.ids[plane * per_plane + c], spine.up_class);
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace fe::topo
