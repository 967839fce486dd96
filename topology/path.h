// The path one message takes, link by link: what the ideal completion time, HPCC's base RTT and
// per-link accounting walk, so that each link's own rate and delay count.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::topo {

// The links a message from host src_host to host dst_host crosses, in order: it leaves the source
// by graph.HostPortTo(src_host, dst_host, spread), then every switch forwards it by the first of
// its next hops (the member a flow hashed to 0 would take). Empty if src_host == dst_host, if the
// table reaches no destination that way, or if the table loops (it was built for another graph).
// The source's own link is taken as it is: the table knows only the switches' links.
std::vector<LinkId> PathLinks(const Graph& graph, const RouteTable& routes, uint32_t src_host,
                              uint32_t dst_host, uint32_t spread = 0);

}  // namespace fe::topo
