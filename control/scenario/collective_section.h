// A scenario's collective section as a workload: the ranks placed on the fabric, then every size
// of the sweep `iterations` times, each operation gated at every rank by the one before.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"
#include "traffic/collective/collective.h"
#include "traffic/placement.h"
#include "traffic/workload.h"

namespace fe::control {

struct Validation;
class Site;

// The sizes in the order they run: size_bytes as listed, else min_bytes x step_factor^i up to
// max_bytes.
std::vector<uint64_t> CollectiveSizes(const fabric_emu::Collective& c);

Placement PlacementOf(fabric_emu::Collective::Placement p);
CollectiveKind CollectiveKindOf(fabric_emu::Collective::Op op);
// The algorithm asked for, or the op's default: ring, direct for all-to-all.
CollectiveAlgorithm CollectiveAlgorithmOf(const fabric_emu::Collective& c);
// HIERARCHICAL's algorithm across the groups, or ring when unset.
CollectiveAlgorithm AcrossAlgorithmOf(const fabric_emu::Collective& c);

// The section's messages, all in one job named "collective" (the caller names it and sets its
// DSCP). Placement draws from `seed`. Errors name the field at fault.
StatusOr<Workload> CollectiveWorkload(const fabric_emu::Collective& c, const topo::Graph& graph,
                                      uint64_t seed, const std::string& scenario_dir);

// Checks the section's fields for the validator and returns how many messages it makes.
double ValidateCollective(Validation& v, const fabric_emu::Collective& c, const Site& s);

}  // namespace fe::control
