// The scenario's topology.failure list resolved against the graph: each entry's target and its
// link changes at their times, flaps unrolled, and the routing section's reconvergence delay.
// The emulation's FailureInjector (control/emulation/failure_injector.h) runs them; the
// validator and the link commands resolve through here too, so that both read a name alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"

namespace fe::control {

// What one entry of topology.failure acts on, resolved against the graph.
struct FailureTarget {
  std::string kind;                 // "link", "engine" or "switch"
  std::string name;                 // "h0-leaf0[0]", "leaf3.engine1", "spine0"
  std::vector<topo::LinkId> links;  // every link it takes down or up, ascending
};

// One change of the fabric: a target going down or coming back.
struct FailureChange {
  int32_t failure = 0;  // index in topology.failure
  Time at;
  bool up = false;
  // Part of a flap: its up ends its own down only (the link stays down while another failure
  // holds it); an explicit up repairs what it names: a link up every link failure of that link
  // (not a switch or an engine still down), a switch or engine up every failure of it.
  bool flap = false;
};

struct ResolvedFailures {
  std::vector<FailureTarget> targets;  // by failure index
  std::vector<FailureChange> changes;  // every change, flaps unrolled, by time then failure
  Time reconverge_delay;
};

// Resolves the failure list and routing section of `topology` against its graph. Errors read
// "<field path inside Topology>: <reason>", e.g. "failure[2].link.a: no node named \"leaf9\"".
// Every entry is checked: with `errors`, it receives each error found, in list order (the
// routing section's first), each a Status::FieldError; the status holds the first.
StatusOr<ResolvedFailures> ResolveFailures(const fabric_emu::Topology& topology,
                                           const topo::Graph& graph,
                                           std::vector<Status>* errors = nullptr);

// The link `ref` names in `graph`. Errors read "<field>.a: no node named \"leaf9\"", ...
StatusOr<FailureTarget> ResolveLink(const fabric_emu::LinkRef& ref, const topo::Graph& graph,
                                    const std::string& field);

}  // namespace fe::control
