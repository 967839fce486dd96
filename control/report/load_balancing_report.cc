#include "control/report/load_balancing_report.h"

#include <algorithm>

namespace fe::control {

std::vector<UplinkGroupStats> UplinkGroups(const Emulation& e, Time run_time) {
  std::vector<UplinkGroupStats> out;
  const dp::Fabric& f = *e.fabric;
  for (size_t i = 0; i < f.num_switches(); ++i) {
    const dp::Switch& sw = f.switch_at(i);
    f.routes().Of(sw.node()).ForEachGroup([&](std::span<const uint16_t> group) {
      if (group.size() < 2) return;
      UplinkGroupStats g;
      g.node = sw.node();
      g.policy = sw.lb_policy();
      double sum = 0;
      double max = 0;
      for (const uint16_t p : group) {
        const double u = static_cast<double>(f.port(sw.node(), p).counters().busy_time.ps()) /
                         static_cast<double>(run_time.ps());
        g.ports.push_back(p);
        g.utilisation.push_back(u);
        g.flowlet_changes += sw.flowlet_changes(p);
        sum += u;
        max = std::max(max, u);
      }
      g.imbalance = sum > 0 ? max / (sum / static_cast<double>(group.size())) : 0;
      out.push_back(std::move(g));
    });
  }
  return out;
}

nlohmann::ordered_json LoadBalancingJson(const Emulation& e) {
  using Json = nlohmann::ordered_json;
  const Time now = e.sched.Now();
  Json groups = Json::array();
  uint64_t flowlet_changes = 0;
  double imbalance_sum = 0;
  double imbalance_max = 0;
  int loaded = 0;
  if (now.ps() > 0) {
    for (const UplinkGroupStats& g : UplinkGroups(e, now)) {
      groups.push_back(Json{{"switch", e.graph.node(g.node).name},
                            {"policy", cong::LbPolicyName(g.policy)},
                            {"ports", g.ports},
                            {"utilisation", g.utilisation},
                            {"imbalance", g.imbalance > 0 ? Json(g.imbalance) : Json(nullptr)},
                            {"flowlet_changes", g.flowlet_changes}});
      flowlet_changes += g.flowlet_changes;
      if (g.imbalance > 0) {
        ++loaded;
        imbalance_sum += g.imbalance;
        imbalance_max = std::max(imbalance_max, g.imbalance);
      }
    }
  }
  return Json{{"uplink_groups", groups.size()},
              {"imbalance_mean", loaded > 0 ? Json(imbalance_sum / loaded) : Json(nullptr)},
              {"imbalance_max", loaded > 0 ? Json(imbalance_max) : Json(nullptr)},
              {"flowlet_changes", flowlet_changes},
              {"groups", groups}};
}

}  // namespace fe::control
