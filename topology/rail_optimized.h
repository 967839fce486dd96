// A rail-optimised fabric: servers of N accelerators, each with its own NIC; NIC i of every
// server in a rail group goes to rail switch i of the group, and every rail switch reaches every
// spine. Traffic between the same rank of two servers of a group crosses one switch.
//
// Numbering:
// - Nodes: hosts, then rail switches, then spines. Host (endpoint) index = server x N + i,
//   named "h<index>"; rail switch i of group g is "rail<g x N + i>"; spines "spine<j>".
// - Rail switch ports: server s of its group at port s % servers_per_rail_group, then the
//   up-links, rail_up_links / spines parallel links to each spine in spine order.
// - Spine ports: the rail switches' links in rail-switch order.
#pragma once

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::topo {

// The scenario's rail_optimized section into `graph`, which holds the scenario's link classes
// and no nodes yet. Errors name fields under "rail_optimized".
Status AddRailOptimized(const fabric_emu::RailOptimized& rail, Graph& graph);

}  // namespace fe::topo
