#include "control/emulation/emulation.h"

#include <cmath>

#include "control/scenario/nic_params.h"
#include "control/scenario/packet_budget.h"
#include "control/scenario/switch_params.h"
#include "control/scenario/workload_build.h"
#include "core/machine_memory.h"
#include "dataplane/packet.h"
#include "topology/build.h"

namespace fe::control {

std::vector<dp::MessageSpec> MessagesOf(const Workload& w) {
  std::vector<dp::MessageSpec> messages;
  messages.reserve(w.size());
  for (uint32_t i = 0; i < w.size(); ++i) {
    const Flow& f = w.flows[i];
    const uint8_t dscp =
        w.job_of[i] < w.jobs.size() ? w.jobs[w.job_of[i]].dscp : dp::MessageSpec{}.dscp;
    messages.push_back(dp::MessageSpec{f.src_host, f.dst_host, f.size_bytes, f.start, dscp,
                                       !w.dependencies(i).empty()});
  }
  return messages;
}

namespace {

// The software run's packet budget on this machine (control/scenario/packet_budget.h).
// run.memory_limit_bytes, given, replaces what the machine has available.
StatusOr<PacketBudget> PlanSoftwarePackets(const topo::Graph& graph, size_t messages,
                                           uint64_t packets, bool hpcc,
                                           uint64_t memory_limit_bytes) {
  SetUpCost cost;
  for (const topo::Node& node : graph.nodes()) cost.link_ends += node.links.size();
  cost.hosts = graph.num_hosts();
  cost.switches = graph.num_switches();
  cost.messages = messages;
  const uint64_t bytes_per_packet =
      dp::HostPagePacketBytes(hpcc ? dp::kPacketPrivBytes : 0) + sizeof(Event);
  const bool limit_given = memory_limit_bytes > 0;
  return PlanPacketBudget(cost, packets, bytes_per_packet,
                          limit_given ? memory_limit_bytes : AvailableMemoryBytes(), limit_given,
                          dp::kMinMbufPoolSize);
}

// BuildEmulation once the graph and the workload are known.
StatusOr<std::unique_ptr<Emulation>> Assemble(const fabric_emu::Scenario& scenario,
                                              topo::Graph graph, Workload workload, uint64_t seed,
                                              dp::PoolMemory pool_memory) {
  if (Status s = CheckDependencies(workload); !s.ok()) return s;
  auto e = std::make_unique<Emulation>();
  e->graph = std::move(graph);
  e->routes = topo::RouteTable::Build(e->graph);
  e->workload = std::move(workload);
  const std::vector<dp::MessageSpec> messages = MessagesOf(e->workload);

  dp::FabricParams params;
  StatusOr<dp::NicParams> nic = BuildNicParams(scenario.nic());
  if (!nic.ok()) return nic.status();
  params.nic = *nic;
  ApplySwitchSection(scenario.switch_(), e->graph, &params);
  params.ecmp_seed = static_cast<uint32_t>(seed);
  params.random_seed = seed;
  uint64_t packets = 0;
  for (const dp::MessageSpec& m : messages) {
    packets += (m.size_bytes + params.nic.mtu_payload_bytes - 1) / params.nic.mtu_payload_bytes;
  }
  if (pool_memory == dp::PoolMemory::kHostPages) {
    StatusOr<PacketBudget> budget = PlanSoftwarePackets(
        e->graph, messages.size(), packets, params.nic.cc == dp::CongestionControl::kHpcc,
        scenario.run().memory_limit_bytes());
    if (!budget.ok()) return budget.status();
    e->packet_budget = *budget;
    params.mbuf_pool_size = static_cast<uint32_t>(std::min<uint64_t>(budget->pool_cap, UINT32_MAX));
  } else {
    // DPDK's heap holds the whole pool from the start, within the memory the EAL was given.
    params.mbuf_pool_size = static_cast<uint32_t>(
        std::clamp<uint64_t>(2 * packets + 4096, dp::kMinMbufPoolSize, dp::kMaxDpdkHeapPoolSize));
  }
  params.pool_memory = pool_memory;
  StatusOr<std::unique_ptr<dp::Fabric>> fabric =
      dp::Fabric::Create(e->graph, e->routes, params, &e->sched);
  if (!fabric.ok()) return fabric.status();
  e->fabric = std::move(fabric).value();
  if (Status s = e->fabric->AddMessages(messages); !s.ok()) return s;
  // Only a workload with dependencies needs to hear of deliveries.
  if (!e->workload.after.empty()) {
    StatusOr<std::unique_ptr<DependencyRelease>> release =
        DependencyRelease::Create(e->workload, e->fabric.get());
    if (!release.ok()) return release.status();
    e->release = std::move(release).value();
  }
  if (scenario.topology().failure_size() > 0) {
    StatusOr<std::unique_ptr<FailureInjector>> failures =
        FailureInjector::Create(scenario.topology(), e->fabric.get(), &e->sched);
    if (!failures.ok()) return failures.status();
    e->failures = std::move(failures).value();
    e->failures->Start();
  }
  e->commands = std::make_unique<CommandExecutor>(scenario, e.get());
  e->commands->ScheduleScenario();
  return e;
}

}  // namespace

StatusOr<std::unique_ptr<Emulation>> BuildEmulation(const fabric_emu::Scenario& scenario,
                                                    uint64_t seed, const std::string& scenario_dir,
                                                    dp::PoolMemory pool_memory) {
  StatusOr<topo::Graph> graph = topo::BuildTopology(scenario.topology(), scenario_dir);
  if (!graph.ok()) return Status::Error("topology." + graph.status().message());
  StatusOr<Workload> workload = BuildWorkload(scenario, *graph, seed, scenario_dir);
  if (!workload.ok()) return workload.status();
  return Assemble(scenario, std::move(graph).value(), std::move(workload).value(), seed,
                  pool_memory);
}

StatusOr<std::unique_ptr<Emulation>> BuildEmulation(const fabric_emu::Scenario& scenario,
                                                    Workload workload, uint64_t seed,
                                                    const std::string& scenario_dir,
                                                    dp::PoolMemory pool_memory) {
  StatusOr<topo::Graph> graph = topo::BuildTopology(scenario.topology(), scenario_dir);
  if (!graph.ok()) return Status::Error("topology." + graph.status().message());
  return Assemble(scenario, std::move(graph).value(), std::move(workload), seed, pool_memory);
}

}  // namespace fe::control
