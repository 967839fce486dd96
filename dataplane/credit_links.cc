#include "dataplane/credit_links.h"

#include <vector>

#include "core/random.h"
#include "dataplane/fabric.h"

namespace fe::dp {

std::optional<cong::CreditParams> CreditParamsOf(const topo::Graph& graph, topo::LinkId link,
                                                 uint32_t max_frame_bytes) {
  const topo::Link& l = graph.link(link);
  if (l.link_class >= graph.link_classes().size()) return std::nullopt;
  const std::optional<topo::CreditFlowControl>& c = graph.link_classes()[l.link_class].credit;
  if (!c.has_value()) return std::nullopt;
  cong::CreditParams p;
  p.update_delay = c->update_delay;
  p.resync_period = c->resync_period;
  p.update_loss_probability = c->update_loss_probability;
  p.buffer_bytes = c->buffer_bytes > 0 ? c->buffer_bytes
                                       : cong::DefaultCreditBufferBytes(
                                             l.rate, l.delay, c->update_delay, max_frame_bytes);
  return p;
}

PortLink PortLinkOf(const topo::Graph& graph, topo::LinkId link, uint32_t max_frame_bytes) {
  const std::optional<cong::CreditParams> credit = CreditParamsOf(graph, link, max_frame_bytes);
  return PortLink{graph.link(link).rate, graph.link(link).delay,
                  credit.has_value() ? credit->buffer_bytes : 0};
}

void EnableCreditLinks(Fabric& fabric, uint32_t max_frame_bytes, uint64_t seed) {
  const topo::Graph& graph = fabric.graph();
  std::vector<const cong::BufferAdmission*> mmu_of(graph.nodes().size(), nullptr);
  for (size_t i = 0; i < fabric.num_switches(); ++i) {
    mmu_of[fabric.switch_at(i).node()] = &fabric.switch_at(i).buffer();
  }
  uint64_t port_index = 0;
  for (topo::NodeId n = 0; n < graph.nodes().size(); ++n) {
    const std::vector<topo::LinkId>& links = graph.node(n).links;
    for (uint16_t p = 0; p < links.size(); ++p, ++port_index) {
      const std::optional<cong::CreditParams> credit =
          CreditParamsOf(graph, links[p], max_frame_bytes);
      if (!credit.has_value()) continue;
      const topo::PortRef peer = graph.Peer(topo::PortRef{n, p});
      CreditPortSetup setup;
      setup.params = *credit;
      // Each port its own stream, so one port's losses do not shift another's.
      setup.seed = SplitMix64(seed ^ (0xC4ED17ULL * (port_index + 1))).NextU64();
      setup.max_source_frame_bytes = max_frame_bytes;
      setup.peer_consumes_on_arrival = mmu_of[peer.node] == nullptr;
      setup.mmu = mmu_of[n];
      setup.mmu_port = p;
      fabric.port(n, p).EnableCredit(setup);
    }
  }
}

}  // namespace fe::dp
