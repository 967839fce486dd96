#include "topology/rail_optimized.h"

#include <string>
#include <vector>

#include "topology/builder_checks.h"
#include "topology/field_error.h"
#include "topology/limits.h"
#include "topology/link_class.h"

namespace fe::topo {

Status AddRailOptimized(const fabric_emu::RailOptimized& rail, Graph& graph) {
  for (const auto& [set, field] :
       {std::pair{rail.has_servers(), "servers"},
        std::pair{rail.has_servers_per_rail_group(), "servers_per_rail_group"},
        std::pair{rail.has_spines(), "spines"},
        std::pair{rail.has_rail_up_links(), "rail_up_links"}}) {
    if (!set) return FieldError(std::string("rail_optimized.") + field, "demanded");
  }
  const int64_t servers = rail.servers();
  const int64_t rails = rail.accelerators_per_server();
  const int64_t per_group = rail.servers_per_rail_group();
  const int64_t spines = rail.spines();
  const int64_t up = rail.rail_up_links();
  Status s = CheckCount("rail_optimized.accelerators_per_server", rails, 1, kMaxPortsPerSwitch);
  if (!s.ok()) return s;
  s = CheckCount("rail_optimized.servers", servers, 1, kMaxEndpoints / rails,
                 "so that servers x accelerators_per_server fit the host addresses");
  if (!s.ok()) return s;
  if (servers * rails < 2) {
    return FieldError("rail_optimized.servers",
                      "1 server of 1 accelerator is one host: traffic needs two");
  }
  s = CheckCount("rail_optimized.servers_per_rail_group", per_group, 1, servers,
                 "(down-links of each rail switch)");
  if (!s.ok()) return s;
  if (servers % per_group != 0) {
    return FieldError("rail_optimized.servers_per_rail_group",
                      std::to_string(servers) + " servers do not split evenly into groups of " +
                          std::to_string(per_group));
  }
  s = CheckCount("rail_optimized.spines", spines, 1, kMaxEndpoints);
  if (!s.ok()) return s;
  s = CheckCount("rail_optimized.rail_up_links", up, 1, kMaxPortsPerSwitch);
  if (!s.ok()) return s;
  if (up % spines != 0) {
    return FieldError("rail_optimized.rail_up_links", std::to_string(up) +
                                                          " up-links do not split evenly over " +
                                                          std::to_string(spines) + " spines");
  }
  s = CheckSwitchPorts("rail_optimized.rail_up_links", per_group + up, 0, "");
  if (!s.ok()) return s;
  const int64_t groups = servers / per_group;
  const int64_t rail_switches = groups * rails;
  s = CheckSwitchPorts("rail_optimized.spines", rail_switches * up / spines, 0, "");
  if (!s.ok()) return s;
  s = CheckLinkTotal("rail_optimized.servers", servers * rails + rail_switches * up);
  if (!s.ok()) return s;
  StatusOr<LinkClassId> host_class =
      FindLinkClass(graph, rail.host_link_class(), "rail_optimized.host_link_class");
  if (!host_class.ok()) return host_class.status();
  StatusOr<LinkClassId> up_class =
      FindLinkClass(graph, rail.uplink_class(), "rail_optimized.uplink_class");
  if (!up_class.ok()) return up_class.status();

  const int64_t hosts = servers * rails;
  std::vector<NodeId> host(hosts), rail_sw(rail_switches), spine(spines);
  for (int64_t h = 0; h < hosts; ++h) {
    host[h] = graph.AddNode(NodeKind::kHost, 0, static_cast<int32_t>(h / rails / per_group),
                            "h" + std::to_string(h));
  }
  for (int64_t r = 0; r < rail_switches; ++r) {
    rail_sw[r] = graph.AddNode(NodeKind::kSwitch, 1, static_cast<int32_t>(r / rails),
                               "rail" + std::to_string(r));
  }
  for (int64_t j = 0; j < spines; ++j) {
    spine[j] = graph.AddNode(NodeKind::kSwitch, 2, -1, "spine" + std::to_string(j));
  }
  // Per rail switch its servers in order: attach by rail switch, then server within the group.
  for (int64_t r = 0; r < rail_switches; ++r) {
    const int64_t group = r / rails, nic = r % rails;
    for (int64_t s_in = 0; s_in < per_group; ++s_in) {
      graph.Connect(host[(group * per_group + s_in) * rails + nic], rail_sw[r], *host_class);
    }
  }
  const int64_t parallel = up / spines;
  for (int64_t r = 0; r < rail_switches; ++r) {
    for (int64_t j = 0; j < spines; ++j) {
      for (int64_t p = 0; p < parallel; ++p) graph.Connect(rail_sw[r], spine[j], *up_class);
    }
  }
  return Status::Ok();
}

}  // namespace fe::topo
