// Turns a validated scenario into a ready fabric: topology, routes, scheduler, elements, the
// scenario's workload (control/scenario/workload_build.h) added and its independent messages
// scheduled. Software and real-time runs both start from here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "control/emulation/command_executor.h"
#include "control/emulation/failure_injector.h"
#include "control/scenario/packet_budget.h"
#include "core/scheduler.h"
#include "core/status.h"
#include "dataplane/fabric.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"
#include "topology/routes.h"
#include "traffic/dependency_release.h"
#include "traffic/workload.h"

namespace fe::control {

struct Emulation {
  topo::Graph graph;
  topo::RouteTable routes;
  Scheduler sched;
  // What the fabric runs: message i of the workload is the fabric's message i.
  Workload workload;
  std::unique_ptr<dp::Fabric> fabric;
  // The scenario's failures, scheduled; null when it has none. Declared after the fabric so that
  // it goes first: it is the fabric's loss observer.
  std::unique_ptr<FailureInjector> failures;
  // Starts the messages that wait for others; null when none does. After the fabric, whose
  // message observer it is.
  std::unique_ptr<DependencyRelease> release;
  // Runs the scenario's schedule and commands from outside (control/emulation/command_executor.h).
  // Last: it acts on everything above.
  std::unique_ptr<CommandExecutor> commands;
  // A software run's packet pool: its cap and why (control/scenario/packet_budget.h).
  PacketBudget packet_budget;
};

// Builds everything and schedules the messages. The EAL must be running. Software runs take
// their packets from host pages; a fabric whose frames reach real ports needs DPDK's heap.
StatusOr<std::unique_ptr<Emulation>> BuildEmulation(
    const fabric_emu::Scenario& scenario, uint64_t seed, const std::string& scenario_dir,
    dp::PoolMemory pool_memory = dp::PoolMemory::kDpdkHeap);
// The same with the workload given instead of the scenario's traffic (which is not read).
StatusOr<std::unique_ptr<Emulation>> BuildEmulation(const fabric_emu::Scenario& scenario,
                                                    Workload workload, uint64_t seed,
                                                    const std::string& scenario_dir,
                                                    dp::PoolMemory pool_memory);

// The fabric's messages of a workload: message i is flow i, with its job's DSCP, held when it
// waits for others.
std::vector<dp::MessageSpec> MessagesOf(const Workload& w);

}  // namespace fe::control
