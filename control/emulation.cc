#include "control/emulation.h"

#include <cmath>

#include "congestion/cnp_pacer.h"
#include "congestion/dcqcn.h"
#include "congestion/hpcc.h"
#include "control/packet_budget.h"
#include "control/switch_params.h"
#include "control/workload_build.h"
#include "core/machine_memory.h"
#include "dataplane/packet.h"
#include "topology/build.h"

namespace fe::control {

Time TimeFromNs(double ns) { return Time::FromPs(std::llround(ns * 1000.0)); }

namespace {

cong::DcqcnParams BuildDcqcnParams(const fabric_emu::Dcqcn& d) {
  cong::DcqcnParams p = d.preset() == fabric_emu::Dcqcn::NVIDIA
                            ? cong::DcqcnParams::NvidiaConnectX()
                            : cong::DcqcnParams::Sigcomm2015();
  if (d.has_g()) p.g = d.g();
  if (d.has_initial_alpha()) p.initial_alpha = d.initial_alpha();
  if (d.has_alpha_update_period_ns())
    p.alpha_update_period = TimeFromNs(d.alpha_update_period_ns());
  if (d.has_rate_reduce_monitor_period_ns()) {
    p.rate_reduce_monitor_period = TimeFromNs(d.rate_reduce_monitor_period_ns());
  }
  if (d.has_min_decrease_factor()) p.min_decrease_factor = d.min_decrease_factor();
  if (d.has_clamp_target_rate()) p.clamp_target_rate = d.clamp_target_rate();
  if (d.has_clamp_target_rate_after_time_inc()) {
    p.clamp_target_rate_after_time_inc = d.clamp_target_rate_after_time_inc();
  }
  if (d.has_increase_timer_period_ns()) {
    p.increase_timer_period = TimeFromNs(d.increase_timer_period_ns());
  }
  if (d.has_byte_counter_bytes()) p.byte_counter_bytes = d.byte_counter_bytes();
  if (d.has_fast_recovery_steps()) {
    p.fast_recovery_steps = static_cast<uint32_t>(d.fast_recovery_steps());
  }
  if (d.has_additive_increase_mbps()) {
    p.additive_increase = Rate::FromMbps(d.additive_increase_mbps());
  }
  if (d.has_hyper_increase_mbps()) p.hyper_increase = Rate::FromMbps(d.hyper_increase_mbps());
  if (d.has_min_rate_mbps()) p.min_rate = Rate::FromMbps(d.min_rate_mbps());
  return p;
}

cong::HpccParams BuildHpccParams(const fabric_emu::Hpcc& h) {
  cong::HpccParams p;
  p.eta = h.eta();
  p.max_stage = static_cast<uint32_t>(h.max_stage());
  p.w_ai_bytes = h.w_ai_bytes();
  p.expected_flows = static_cast<uint32_t>(h.expected_flows());
  p.min_rate = Rate::FromMbps(h.min_rate_mbps());
  return p;
}

}  // namespace

StatusOr<dp::NicParams> BuildNicParams(const fabric_emu::NicConfig& nic) {
  dp::NicParams p;
  p.mtu_payload_bytes = static_cast<uint32_t>(nic.mtu_payload_bytes());
  p.ack_every_packets = static_cast<uint32_t>(nic.ack_every_packets());
  p.retransmit_timeout = TimeFromNs(nic.transport().retransmit_timeout_ns());
  p.retry_count = static_cast<uint32_t>(nic.transport().retry_count());
  p.out_of_order = nic.transport().delivery() == fabric_emu::Transport::OUT_OF_ORDER;
  p.reorder_window_packets = static_cast<uint32_t>(nic.transport().reorder_window_packets());
  p.sack_resend_threshold = static_cast<uint32_t>(nic.transport().sack_resend_threshold_packets());
  p.entropy.values = static_cast<uint32_t>(nic.transport().entropy().values());
  p.entropy.packets_per_value =
      static_cast<uint32_t>(nic.transport().entropy().packets_per_value());
  switch (nic.cc().algorithm_case()) {
    case fabric_emu::CongestionControl::kDcqcn:
      p.cc = dp::CongestionControl::kDcqcn;
      p.dcqcn = BuildDcqcnParams(nic.cc().dcqcn());
      // A preset is the whole vendor behaviour: its notification point paces CNPs too.
      if (nic.cc().dcqcn().preset() == fabric_emu::Dcqcn::NVIDIA) {
        p.cnp_pacer = cong::CnpPacerParams::NvidiaConnectX();
      }
      break;
    case fabric_emu::CongestionControl::kHpcc:
      p.cc = dp::CongestionControl::kHpcc;
      p.hpcc = BuildHpccParams(nic.cc().hpcc());
      break;
    case fabric_emu::CongestionControl::kNone:
    case fabric_emu::CongestionControl::ALGORITHM_NOT_SET:
      p.cc = dp::CongestionControl::kNone;
      break;
  }
  // Given explicitly, the interval wins over any preset's.
  if (nic.has_cnp_interval_ns()) p.cnp_pacer.min_interval = TimeFromNs(nic.cnp_interval_ns());
  return p;
}

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

// The software run's packet budget on this machine (control/packet_budget.h).
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
