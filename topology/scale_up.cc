#include "topology/scale_up.h"

#include <string>
#include <vector>

#include "topology/builder_checks.h"
#include "topology/field_error.h"
#include "topology/limits.h"
#include "topology/link_class.h"

namespace fe::topo {

Status AddScaleUp(const fabric_emu::ScaleUp& scale_up, Graph& graph) {
  if (!scale_up.has_domain_size()) return FieldError("scale_up.domain_size", "demanded");
  const int64_t hosts = static_cast<int64_t>(graph.num_hosts());
  const int64_t size = scale_up.domain_size();
  Status s = CheckCount("scale_up.domain_size", size, 2, kMaxPortsPerSwitch,
                        "endpoints per domain, each on a port of every scale-up switch");
  if (!s.ok()) return s;
  if (hosts % size != 0) {
    return FieldError("scale_up.domain_size",
                      "the fabric's " + std::to_string(hosts) +
                          " endpoints do not split evenly into domains of " + std::to_string(size));
  }
  const int64_t per_domain = scale_up.switches_per_domain();
  s = CheckCount("scale_up.switches_per_domain", per_domain, 1, kMaxScaleUpSwitchesPerDomain,
                 "scale-up planes: NVL72 has 18");
  if (!s.ok()) return s;
  s = CheckLinkTotal("scale_up.switches_per_domain",
                     static_cast<int64_t>(graph.links().size()) + hosts * per_domain);
  if (!s.ok()) return s;
  StatusOr<LinkClassId> link_class =
      FindLinkClass(graph, scale_up.link_class(), "scale_up.link_class");
  if (!link_class.ok()) return link_class.status();

  const int64_t domains = hosts / size;
  std::vector<NodeId> su(domains * per_domain);
  for (int64_t i = 0; i < domains * per_domain; ++i) {
    const std::string name = "su" + std::to_string(i);
    if (const std::optional<NodeId> taken = graph.FindNode(name)) {
      return FieldError("scale_up", "the scale-up switch name " + Quoted(name) +
                                        " is already a node of the scale-out fabric");
    }
    const auto domain = static_cast<int32_t>(i / per_domain);
    su[i] = graph.AddNode(NodeKind::kSwitch, 0, -1, name);
    graph.SetDomain(su[i], domain);
  }
  for (int64_t h = 0; h < hosts; ++h) {
    const NodeId host = graph.hosts()[h];
    const int64_t domain = h / size;
    graph.SetDomain(host, static_cast<int32_t>(domain));
    for (int64_t j = 0; j < per_domain; ++j)
      graph.Connect(host, su[domain * per_domain + j], *link_class);
  }
  return Status::Ok();
}

}  // namespace fe::topo
