// Turns a validated scenario into a ready fabric: topology, routes, scheduler, elements and the
// scenario's messages scheduled. Software and real-time runs both start from here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "control/failures.h"
#include "core/scheduler.h"
#include "core/status.h"
#include "dataplane/fabric.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"
#include "topology/routes.h"

namespace fe::control {

// Scenario times are nanoseconds as doubles; the engine keeps integer picoseconds.
Time TimeFromNs(double ns);

struct Emulation {
  topo::Graph graph;
  topo::RouteTable routes;
  Scheduler sched;
  std::unique_ptr<dp::Fabric> fabric;
  // The scenario's failures, scheduled; null when it has none. Declared after the fabric so that
  // it goes first: it is the fabric's loss observer.
  std::unique_ptr<FailureInjector> failures;
};

// The scenario's NIC section as NIC parameters: unset fields keep their documented defaults,
// DCQCN overrides replace single fields of the chosen preset.
StatusOr<dp::NicParams> BuildNicParams(const fabric_emu::NicConfig& nic);

// The messages of every traffic section, in section order, drawn from `seed`. Relative CDF file
// paths start at scenario_dir.
StatusOr<std::vector<dp::MessageSpec>> BuildMessages(const fabric_emu::Scenario& scenario,
                                                     const topo::Graph& graph, uint64_t seed,
                                                     const std::string& scenario_dir);

// Builds everything and schedules the messages. The EAL must be running. Software runs take
// their packets from host pages; a fabric whose frames reach real ports needs DPDK's heap.
StatusOr<std::unique_ptr<Emulation>> BuildEmulation(
    const fabric_emu::Scenario& scenario, uint64_t seed, const std::string& scenario_dir,
    dp::PoolMemory pool_memory = dp::PoolMemory::kDpdkHeap);

}  // namespace fe::control
