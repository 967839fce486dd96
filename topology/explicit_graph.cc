#include "topology/explicit_graph.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "topology/builder_checks.h"
#include "topology/field_error.h"
#include "topology/graph_file.h"
#include "topology/limits.h"
#include "topology/link_class.h"

namespace fe::topo {
namespace {

// The path of element `index` of the repeated field "node" or "link".
using Where = std::function<std::string(const char* field, int index)>;

constexpr int kMaxTier = 255;  // Node.tier is 8 bits

int Find(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// The number in a name of the form h<digits> ("h12": 12), as host names are written.
std::optional<int64_t> HostNumberIn(const std::string& name) {
  if (name.size() < 2 || name.size() > 12 || name[0] != 'h') return std::nullopt;
  int64_t v = 0;
  for (size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    v = v * 10 + (name[i] - '0');
  }
  return v;
}

Status AddNodesAndLinks(const fabric_emu::ExplicitGraph& in, const Where& where, Graph& graph) {
  const int num_nodes = in.node_size();
  std::unordered_map<std::string, int> index_of;
  int64_t hosts = 0;
  for (int i = 0; i < num_nodes; ++i) {
    const fabric_emu::GraphNode& n = in.node(i);
    const std::string at = where("node", i);
    if (n.name().empty()) return FieldError(at + ".name", "demanded: a non-empty name");
    const auto [it, fresh] = index_of.emplace(n.name(), i);
    if (!fresh) {
      return FieldError(at + ".name", Quoted(n.name()) + " is already node[" +
                                          std::to_string(it->second) + "]'s name");
    }
    // Commands and outputs take "h3" as host 3, the fourth host listed: a node named so must be
    // that host, or `--pair h0,h1` and links.csv would mean other hosts than they say.
    if (const std::optional<int64_t> h = HostNumberIn(n.name()); h && !(n.host() && *h == hosts)) {
      return FieldError(at + ".name",
                        Quoted(n.name()) + " reads as host " + std::to_string(*h) + ", but this " +
                            (n.host() ? "is host " + std::to_string(hosts) +
                                            " (hosts are numbered in the order listed)"
                                      : std::string("node is a switch")) +
                            "; name it otherwise");
    }
    if (n.host()) {
      ++hosts;
      for (const auto& [set, field] :
           {std::pair{n.has_role(), ".role"}, std::pair{n.has_tier(), ".tier"},
            std::pair{n.has_radix(), ".radix"}}) {
        if (set) return FieldError(at + field, "only switches have one; this node is a host");
      }
      continue;
    }
    if (n.has_role()) {
      Status s = CheckRole(n.role(), at + ".role");
      if (!s.ok()) return s;
    }
    if (n.has_tier()) {
      Status s = CheckCount(at + ".tier", n.tier(), 1, kMaxTier, "(1 = host-facing)");
      if (!s.ok()) return s;
    }
    if (n.has_radix()) {
      Status s = CheckCount(at + ".radix", n.radix(), 1, kMaxPortsPerSwitch);
      if (!s.ok()) return s;
    }
  }
  Status s = CheckCount(where("node", -1), hosts, 2, kMaxEndpoints,
                        "hosts: traffic needs two, host addresses allow no more");
  if (!s.ok()) return s;

  // Links, checked before any is made so a huge count cannot build a huge graph first.
  struct Want {
    int a, b;
    LinkClassId link_class;
    int count;
  };
  std::vector<Want> wants;
  wants.reserve(in.link_size());
  std::vector<int64_t> ports(num_nodes, 0);
  std::vector<int> host_link(num_nodes, -1);
  for (int j = 0; j < in.link_size(); ++j) {
    const fabric_emu::GraphLink& l = in.link(j);
    const std::string at = where("link", j);
    int ends[2];
    for (int e = 0; e < 2; ++e) {
      const std::string& name = e == 0 ? l.a() : l.b();
      const std::string field = at + (e == 0 ? ".a" : ".b");
      if (name.empty()) return FieldError(field, "demanded: a node's name");
      const auto it = index_of.find(name);
      if (it == index_of.end()) return FieldError(field, "no node is named " + Quoted(name));
      ends[e] = it->second;
    }
    if (ends[0] == ends[1]) return FieldError(at + ".b", "a link joins two different nodes");
    if (in.node(ends[0]).host() && in.node(ends[1]).host()) {
      return FieldError(at, "joins two hosts; a host's NIC goes to a switch");
    }
    s = CheckCount(at + ".count", l.count(), 1, kMaxPortsPerSwitch, "parallel links");
    if (!s.ok()) return s;
    StatusOr<LinkClassId> c = FindLinkClass(graph, l.link_class(), at + ".link_class");
    if (!c.ok()) return c.status();
    for (int e : ends) {
      ports[e] += l.count();
      if (!in.node(e).host()) continue;
      if (host_link[e] >= 0 || l.count() > 1) {
        const std::string already =
            host_link[e] >= 0 ? "already has link[" + std::to_string(host_link[e]) + "]"
                              : "would have " + std::to_string(l.count()) + " parallel links";
        return FieldError(at, "host " + Quoted(in.node(e).name()) + " " + already +
                                  ": a host has one scale-out NIC (scale-up links come from "
                                  "scale_up)");
      }
      host_link[e] = j;
    }
    wants.push_back({ends[0], ends[1], *c, l.count()});
  }
  int64_t total_links = 0;
  for (const Want& w : wants) total_links += w.count;
  s = CheckLinkTotal(where("link", -1), total_links);
  if (!s.ok()) return s;
  for (int i = 0; i < num_nodes; ++i) {
    const fabric_emu::GraphNode& n = in.node(i);
    if (n.host()) {
      if (host_link[i] < 0)
        return FieldError(where("node", i), "host " + Quoted(n.name()) + " has no link");
      continue;
    }
    s = CheckSwitchPorts(where("node", i), ports[i], n.radix(), where("node", i) + ".radix");
    if (!s.ok()) return s;
  }

  // Hosts do not forward: a host reaches another only through switches. Components of the
  // switch-only graph, and the hosts hanging off each.
  std::vector<std::vector<int>> adjacent(num_nodes);
  std::vector<int> parent(num_nodes);
  std::iota(parent.begin(), parent.end(), 0);
  for (const Want& w : wants) {
    adjacent[w.a].push_back(w.b);
    adjacent[w.b].push_back(w.a);
    if (!in.node(w.a).host() && !in.node(w.b).host()) parent[Find(parent, w.a)] = Find(parent, w.b);
  }
  std::vector<int> switch_of(num_nodes, -1), hosts_in(num_nodes, 0);
  for (int i = 0; i < num_nodes; ++i) {
    if (!in.node(i).host()) continue;
    switch_of[i] = adjacent[i].front();
    ++hosts_in[Find(parent, switch_of[i])];
  }
  for (int i = 0; i < num_nodes; ++i) {
    if (in.node(i).host() && hosts_in[Find(parent, switch_of[i])] < 2) {
      return FieldError(where("node", i),
                        "host " + Quoted(in.node(i).name()) + " can reach no other host");
    }
  }

  // Tiers: switch hops to the nearest host, found from every host at once.
  std::vector<int> hops(num_nodes, -1);
  std::deque<int> queue;
  for (int i = 0; i < num_nodes; ++i) {
    if (in.node(i).host()) {
      hops[i] = 0;
      queue.push_back(i);
    }
  }
  while (!queue.empty()) {
    const int x = queue.front();
    queue.pop_front();
    for (int y : adjacent[x]) {
      if (hops[y] >= 0 || in.node(y).host()) continue;
      hops[y] = hops[x] + 1;
      queue.push_back(y);
    }
  }

  std::unordered_map<std::string, int32_t> role_count;
  for (int i = 0; i < num_nodes; ++i) {
    const fabric_emu::GraphNode& n = in.node(i);
    if (n.host()) {
      graph.AddNode(NodeKind::kHost, 0, -1, n.name());
      continue;
    }
    int tier = n.tier();
    if (!n.has_tier()) {
      if (hops[i] < 0) {
        return FieldError(where("node", i), "switch " + Quoted(n.name()) +
                                                " is joined to no host; give it a tier or a link");
      }
      if (hops[i] > kMaxTier) {
        return FieldError(where("node", i), "switch " + Quoted(n.name()) + " is " +
                                                std::to_string(hops[i]) +
                                                " hops from a host; give it a tier up to 255");
      }
      tier = hops[i];
    }
    const std::string role = n.has_role() ? n.role() : "switch";
    const NodeId id = graph.AddNode(NodeKind::kSwitch, static_cast<uint8_t>(tier), -1, n.name());
    graph.SetRole(id, role, role_count[role]++);
  }
  // Node ids follow the listed order, so index i is NodeId i.
  for (const Want& w : wants) {
    for (int c = 0; c < w.count; ++c) graph.Connect(w.a, w.b, w.link_class);
  }
  return Status::Ok();
}

}  // namespace

Status AddExplicitGraph(const fabric_emu::ExplicitGraph& explicit_graph,
                        const std::string& scenario_dir, Graph& graph) {
  if (!explicit_graph.has_file()) {
    return AddNodesAndLinks(
        explicit_graph,
        [](const char* field, int index) { return FieldPath("graph", field, index); }, graph);
  }
  if (explicit_graph.node_size() > 0 || explicit_graph.link_size() > 0) {
    return FieldError("graph.file", "give nodes and links inline or in a file, not both");
  }
  GraphFile file;
  Status s = ReadGraphFile(explicit_graph.file(), scenario_dir, file);
  if (!s.ok()) return s;
  const google::protobuf::Descriptor* type = fabric_emu::ExplicitGraph::descriptor();
  // The scenario's field is graph.file; the file's own line and field go into the reason.
  Status added = AddNodesAndLinks(
      file.graph,
      [&](const char* field, int index) {
        std::string at = file.name;
        if (index >= 0) {
          const auto loc = file.locations.GetLocation(type->FindFieldByName(field), index);
          if (loc.line >= 0) at += ":" + std::to_string(loc.line + 1);
        }
        return at + ": " + FieldPath("", field, index);
      },
      graph);
  if (added.ok()) return added;
  return FieldError("graph.file", added.message());
}

}  // namespace fe::topo
