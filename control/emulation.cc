#include "control/emulation.h"

#include <cmath>

#include "congestion/dcqcn.h"
#include "congestion/hpcc.h"
#include "control/switch_params.h"
#include "topology/build.h"
#include "traffic/cdf_load.h"
#include "traffic/flow_size_cdf.h"
#include "traffic/incast.h"
#include "traffic/permutation.h"

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

// Each traffic section draws from its own stream so adding a section leaves the others unchanged.
uint64_t SectionSeed(uint64_t seed, int section) {
  return seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(section) + 1;
}

StatusOr<std::vector<Flow>> SectionFlows(const fabric_emu::Traffic& t, const topo::Graph& graph,
                                         uint64_t seed, const std::string& scenario_dir) {
  const auto hosts = static_cast<uint32_t>(graph.num_hosts());
  switch (t.pattern_case()) {
    case fabric_emu::Traffic::kPermutation:
      return MakePermutation(hosts, static_cast<uint64_t>(t.permutation().message_bytes()),
                             TimeFromNs(t.permutation().start_ns()), seed);
    case fabric_emu::Traffic::kIncast: {
      IncastParams p;
      p.num_hosts = hosts;
      p.receiver = static_cast<uint32_t>(t.incast().receiver_host());
      p.senders = IncastSenders::kRandom;
      p.num_senders = static_cast<uint32_t>(t.incast().senders());
      p.message_bytes = static_cast<uint64_t>(t.incast().message_bytes());
      p.start = TimeFromNs(t.incast().start_ns());
      p.seed = seed;
      return MakeIncast(p);
    }
    case fabric_emu::Traffic::kFlowList: {
      std::vector<Flow> flows;
      for (const auto& f : t.flow_list().flow()) {
        Flow x;
        x.id = static_cast<uint32_t>(flows.size());
        x.src_host = static_cast<uint32_t>(f.src_host());
        x.dst_host = static_cast<uint32_t>(f.dst_host());
        x.size_bytes = static_cast<uint64_t>(f.message_bytes());
        x.start = TimeFromNs(f.start_ns());
        flows.push_back(x);
      }
      return flows;
    }
    case fabric_emu::Traffic::kCdfLoad: {
      std::string path = t.cdf_load().cdf_file();
      if (!path.empty() && path[0] != '/') path = scenario_dir + "/" + path;
      StatusOr<FlowSizeCdf> cdf = FlowSizeCdf::FromFile(path);
      if (!cdf.ok()) return cdf.status();
      CdfLoadParams p;
      for (const topo::NodeId h : graph.hosts()) {
        p.host_link_rates.push_back(graph.link(graph.node(h).links[0]).rate);
      }
      p.load = t.cdf_load().load_fraction();
      p.start = TimeFromNs(t.cdf_load().start_ns());
      p.duration = TimeFromNs(t.cdf_load().duration_ns());
      p.seed = seed;
      p.refuse_above = dp::kMaxMessages;
      return MakeCdfLoad(p, *cdf);
    }
    case fabric_emu::Traffic::PATTERN_NOT_SET:
      break;
  }
  return Status::Error("traffic section without a pattern");
}

}  // namespace

StatusOr<dp::NicParams> BuildNicParams(const fabric_emu::NicConfig& nic) {
  dp::NicParams p;
  p.mtu_payload_bytes = static_cast<uint32_t>(nic.mtu_payload_bytes());
  p.ack_every_packets = static_cast<uint32_t>(nic.ack_every_packets());
  p.retransmit_timeout = TimeFromNs(nic.transport().retransmit_timeout_ns());
  p.cnp_pacer.min_interval = TimeFromNs(nic.cnp_interval_ns());
  switch (nic.cc().algorithm_case()) {
    case fabric_emu::CongestionControl::kDcqcn:
      p.cc = dp::CongestionControl::kDcqcn;
      p.dcqcn = BuildDcqcnParams(nic.cc().dcqcn());
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
  return p;
}

StatusOr<std::vector<dp::MessageSpec>> BuildMessages(const fabric_emu::Scenario& scenario,
                                                     const topo::Graph& graph, uint64_t seed,
                                                     const std::string& scenario_dir) {
  std::vector<dp::MessageSpec> messages;
  for (int i = 0; i < scenario.traffic_size(); ++i) {
    const fabric_emu::Traffic& t = scenario.traffic(i);
    StatusOr<std::vector<Flow>> flows = SectionFlows(t, graph, SectionSeed(seed, i), scenario_dir);
    if (!flows.ok()) {
      return Status::Error("traffic[" + std::to_string(i) + "]: " + flows.status().message());
    }
    for (const Flow& f : *flows) {
      messages.push_back(dp::MessageSpec{f.src_host, f.dst_host, f.size_bytes, f.start,
                                         static_cast<uint8_t>(t.dscp())});
    }
  }
  return messages;
}

StatusOr<std::unique_ptr<Emulation>> BuildEmulation(const fabric_emu::Scenario& scenario,
                                                    uint64_t seed, const std::string& scenario_dir,
                                                    dp::PoolMemory pool_memory) {
  auto e = std::make_unique<Emulation>();
  StatusOr<topo::Graph> graph = topo::BuildTopology(scenario.topology(), scenario_dir);
  if (!graph.ok()) return Status::Error("topology." + graph.status().message());
  e->graph = std::move(graph).value();
  e->routes = topo::RouteTable::Build(e->graph);

  StatusOr<std::vector<dp::MessageSpec>> messages =
      BuildMessages(scenario, e->graph, seed, scenario_dir);
  if (!messages.ok()) return messages.status();

  dp::FabricParams params;
  StatusOr<dp::NicParams> nic = BuildNicParams(scenario.nic());
  if (!nic.ok()) return nic.status();
  params.nic = *nic;
  ApplySwitchSection(scenario.switch_(), e->graph, &params);
  params.ecmp_seed = static_cast<uint32_t>(seed);
  params.random_seed = seed;
  // Enough mbufs for every packet of every message to be in the fabric at once, within bounds:
  // a run that still runs out reports it instead of stalling.
  uint64_t packets = 0;
  for (const dp::MessageSpec& m : *messages) {
    packets += (m.size_bytes + params.nic.mtu_payload_bytes - 1) / params.nic.mtu_payload_bytes;
  }
  params.mbuf_pool_size = static_cast<uint32_t>(
      std::clamp<uint64_t>(2 * packets + 4096, dp::kMinMbufPoolSize, dp::kMaxMbufPoolSize));
  params.pool_memory = pool_memory;
  StatusOr<std::unique_ptr<dp::Fabric>> fabric =
      dp::Fabric::Create(e->graph, e->routes, params, &e->sched);
  if (!fabric.ok()) return fabric.status();
  e->fabric = std::move(fabric).value();
  if (Status s = e->fabric->AddMessages(*messages); !s.ok()) return s;
  if (scenario.topology().failure_size() > 0) {
    StatusOr<std::unique_ptr<FailureInjector>> failures =
        FailureInjector::Create(scenario.topology(), e->fabric.get(), &e->sched);
    if (!failures.ok()) return failures.status();
    e->failures = std::move(failures).value();
    e->failures->Start();
  }
  return e;
}

}  // namespace fe::control
