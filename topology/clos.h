// An n-tier Clos: leaf/spine, or leaf/spine/super-spine in pods (the wiring rules are in
// proto/scenario.proto, message Clos). Oversubscribed where a tier has fewer up-links than
// down-links.
//
// Numbering, fixed so that addresses and tests can rely on it:
// - Nodes are added hosts first, then tier by tier from the leaves up, each in index order;
//   names are "h<i>" and <role><i> (default roles leaf, spine, superspine).
// - Host i hangs off leaf i / D (D = tier[0].down_links) at that leaf's port i % D.
// - Leaf and spine j of pod p have index p x (per pod) + j; super-spine c of plane j has index
//   j x (per plane) + c.
// - Every switch numbers its down-facing ports first, then its up-facing ones; up-links to the
//   switches above go in their index order, parallel links side by side.
#pragma once

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::topo {

// The scenario's clos section into `graph`, which holds the scenario's link classes and no
// nodes yet. Errors name fields under "clos".
Status AddClos(const fabric_emu::Clos& clos, Graph& graph);

}  // namespace fe::topo
