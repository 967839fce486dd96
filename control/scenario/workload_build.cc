#include "control/scenario/workload_build.h"

#include <algorithm>
#include <vector>

#include "control/scenario/collective_section.h"
#include "control/scenario/kv_cache_section.h"
#include "control/scenario/trace_section.h"
#include "control/scenario/training_section.h"
#include "core/units.h"
#include "dataplane/message.h"
#include "traffic/cdf_load.h"
#include "traffic/flow_size_cdf.h"
#include "traffic/incast.h"
#include "traffic/permutation.h"

namespace fe::control {

namespace {

// Each traffic section draws from its own stream so adding a section leaves the others unchanged.
uint64_t SectionSeed(uint64_t seed, int section) {
  return seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(section) + 1;
}

StatusOr<Workload> SectionWorkload(const fabric_emu::Traffic& t, const topo::Graph& graph,
                                   uint64_t seed, const std::string& scenario_dir) {
  const auto hosts = static_cast<uint32_t>(graph.num_hosts());
  StatusOr<std::vector<Flow>> flows = Status::Error("traffic section without a pattern");
  switch (t.pattern_case()) {
    case fabric_emu::Traffic::kPermutation:
      flows = MakePermutation(hosts, static_cast<uint64_t>(t.permutation().message_bytes()),
                              Time::FromNs(t.permutation().start_ns()), seed);
      break;
    case fabric_emu::Traffic::kIncast: {
      IncastParams p;
      p.num_hosts = hosts;
      p.receiver = static_cast<uint32_t>(t.incast().receiver_host());
      p.senders = IncastSenders::kRandom;
      p.num_senders = static_cast<uint32_t>(t.incast().senders());
      p.message_bytes = static_cast<uint64_t>(t.incast().message_bytes());
      p.start = Time::FromNs(t.incast().start_ns());
      p.seed = seed;
      flows = MakeIncast(p);
      break;
    }
    case fabric_emu::Traffic::kFlowList:
      return FlowListWorkload(t.flow_list());
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
      p.start = Time::FromNs(t.cdf_load().start_ns());
      p.duration = Time::FromNs(t.cdf_load().duration_ns());
      p.seed = seed;
      p.refuse_above = dp::kMaxMessages;
      flows = MakeCdfLoad(p, *cdf);
      break;
    }
    case fabric_emu::Traffic::kCollective:
      return CollectiveWorkload(t.collective(), graph, seed, scenario_dir);
    case fabric_emu::Traffic::kTraining:
      return TrainingWorkload(t.training(), graph, seed, scenario_dir);
    case fabric_emu::Traffic::kKvCache:
      return KvCacheWorkload(t.kv_cache(), graph, seed, scenario_dir);
    case fabric_emu::Traffic::kTrace:
      return TraceWorkload(t.trace(), graph, seed, scenario_dir);
    case fabric_emu::Traffic::PATTERN_NOT_SET:
      break;
  }
  if (!flows.ok()) return flows.status();
  return WorkloadOf(std::move(flows).value(), Job{});
}

}  // namespace

Workload FlowListWorkload(const fabric_emu::FlowList& list) {
  Workload w;
  w.jobs.emplace_back();
  std::vector<uint32_t> deps;
  for (const fabric_emu::Flow& f : list.flow()) {
    Flow x;
    x.src_host = static_cast<uint32_t>(f.src_host());
    x.dst_host = static_cast<uint32_t>(f.dst_host());
    x.size_bytes = static_cast<uint64_t>(f.message_bytes());
    x.start = Time::FromNs(f.start_ns());
    // A negative index becomes one past any workload, which CheckDependencies refuses.
    deps.assign(f.after().begin(), f.after().end());
    w.Add(x, deps, Time::FromNs(f.delay_ns()));
  }
  return w;
}

StatusOr<Workload> BuildWorkload(const fabric_emu::Scenario& scenario, const topo::Graph& graph,
                                 uint64_t seed, const std::string& scenario_dir) {
  Workload all;
  for (int i = 0; i < scenario.traffic_size(); ++i) {
    const fabric_emu::Traffic& t = scenario.traffic(i);
    const std::string where = "traffic[" + std::to_string(i) + "]: ";
    StatusOr<Workload> w = SectionWorkload(t, graph, SectionSeed(seed, i), scenario_dir);
    if (!w.ok()) return Status::Error(where + w.status().message());
    // Sections wait only within themselves: checked here, the error names the section's ids.
    if (Status s = CheckDependencies(*w); !s.ok()) return Status::Error(where + s.message());
    if (t.pattern_case() == fabric_emu::Traffic::kTrace && !w->jobs[0].name.empty()) {
      all.Append(*w);  // the jobs a native trace lists, so that an export replays as it ran
      continue;
    }
    // One job per section, whatever the generator called its own.
    const std::string pattern =
        t.pattern_case() == fabric_emu::Traffic::PATTERN_NOT_SET
            ? "traffic"
            : t.GetDescriptor()->FindFieldByNumber(t.pattern_case())->name();
    w->jobs.assign(1, Job{t.has_job() ? t.job() : pattern + std::to_string(i), pattern,
                          static_cast<uint8_t>(t.dscp())});
    std::fill(w->job_of.begin(), w->job_of.end(), 0);
    for (CollectiveOp& op : w->ops) op.job = 0;
    for (Iteration& it : w->iterations) it.job = 0;
    for (KvRequest& r : w->requests) r.job = 0;
    all.Append(*w);
  }
  return all;
}

}  // namespace fe::control
