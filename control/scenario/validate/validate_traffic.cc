// The traffic sections: each pattern's fields, its host indices against the built fabric, and
// how many messages it makes.
#include <algorithm>
#include <filesystem>
#include <optional>

#include "control/scenario/collective_section.h"
#include "control/scenario/validate/validate_training.h"
#include "control/scenario/validate/validation.h"
#include "control/scenario/workload_build.h"
#include "core/printable.h"
#include "traffic/cdf_load.h"
#include "traffic/dependency_cycle.h"
#include "traffic/flow_size_cdf.h"

namespace fe::control {
namespace {

using fabric_emu::CdfLoad;
using fabric_emu::Flow;
using fabric_emu::Incast;
using fabric_emu::Permutation;
using fabric_emu::Traffic;

// Each `after` names another flow of the list, and the flows do not wait for one another in a
// cycle (it would never start).
void CheckFlowDependencies(Validation& v, const fabric_emu::FlowList& list, const Site& s) {
  using fabric_emu::FlowList;
  bool indices_ok = true;
  for (int i = 0; i < list.flow_size(); ++i) {
    const Site fs = s.Nested(FlowList::kFlowFieldNumber, i);
    const Flow& f = list.flow(i);
    for (int k = 0; k < f.after_size(); ++k) {
      const int32_t d = f.after(k);
      std::string why;
      if (d < 0 || d >= list.flow_size()) {
        why = "no flow " + std::to_string(d) + " in this list of " +
              std::to_string(list.flow_size()) + " (indices start at 0)";
      } else if (d == i) {
        why = "a flow cannot wait for itself";
      }
      if (why.empty()) continue;
      v.out.AddAt(fs.Line(Flow::kAfterFieldNumber, k), fs.Path(Flow::kAfterFieldNumber, k), why);
      indices_ok = false;
    }
  }
  if (!indices_ok) return;
  const std::vector<uint32_t> cycle = DependencyCycle(FlowListWorkload(list));
  if (cycle.empty()) return;
  // Reported at the first flow of the cycle, on its `after` entry naming the next one.
  const uint32_t first = cycle[0], next = cycle.size() > 1 ? cycle[1] : cycle[0];
  const Flow& f = list.flow(static_cast<int>(first));
  int k = 0;
  while (k < f.after_size() && static_cast<uint32_t>(f.after(k)) != next) ++k;
  std::string ring;
  for (const uint32_t c : cycle) ring += std::to_string(c) + " -> ";
  ring += std::to_string(first);
  const Site fs = s.Nested(FlowList::kFlowFieldNumber, static_cast<int>(first));
  v.out.AddAt(fs.Line(Flow::kAfterFieldNumber, k), fs.Path(Flow::kAfterFieldNumber, k),
              "flows wait for one another in a cycle and would never start: " + ring +
                  " (each waits for the next)");
}

void CheckFlowList(Validation& v, const fabric_emu::FlowList& list, const Site& s) {
  using fabric_emu::FlowList;
  v.out.Present(s, FlowList::kFlowFieldNumber, list.flow_size() > 0,
                "at least one flow { src_host dst_host message_bytes }");
  for (int i = 0; i < list.flow_size(); ++i) {
    const Flow& f = list.flow(i);
    const Site fs = s.Nested(FlowList::kFlowFieldNumber, i);
    v.CheckHost(fs, Flow::kSrcHostFieldNumber, f.has_src_host(), f.src_host());
    v.CheckHost(fs, Flow::kDstHostFieldNumber, f.has_dst_host(), f.dst_host());
    if (f.has_src_host() && f.has_dst_host() && f.src_host() == f.dst_host()) {
      v.out.Add(fs, Flow::kDstHostFieldNumber,
                "must differ from src_host: a flow crosses the fabric, got " +
                    std::to_string(f.dst_host()) + " twice");
    }
    v.CheckMessageBytes(fs, Flow::kMessageBytesFieldNumber, f.has_message_bytes(),
                        f.message_bytes());
    v.Duration(fs, Flow::kStartNsFieldNumber, f.start_ns(), false);
    v.Duration(fs, Flow::kDelayNsFieldNumber, f.delay_ns(), false);
  }
  CheckFlowDependencies(v, list, s);
}

// Returns the mean number of flows the load makes, once its table and the fabric are known.
double CheckCdfLoad(Validation& v, const CdfLoad& c, const Site& s) {
  std::optional<FlowSizeCdf> sizes;
  if (v.out.Present(s, CdfLoad::kCdfFileFieldNumber, !c.cdf_file().empty(),
                    "a flow-size CDF file")) {
    const std::filesystem::path file = v.scenario_dir / c.cdf_file();  // absolute stays
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
      v.out.Add(s, CdfLoad::kCdfFileFieldNumber, "no such file: " + file.string());
    } else if (!std::filesystem::is_regular_file(file, ec)) {
      v.out.Add(s, CdfLoad::kCdfFileFieldNumber, "not a regular file: " + file.string());
    } else if (StatusOr<FlowSizeCdf> cdf = FlowSizeCdf::FromFile(file.string()); !cdf.ok()) {
      // Read here as well as when the traffic is built: a bad table must stop the run before
      // it starts, with the scenario's line as well as the table's.
      v.out.Add(s, CdfLoad::kCdfFileFieldNumber, cdf.status().message());
    } else if (cdf->points().back().size_bytes > static_cast<double>(kMaxMessageBytes)) {
      v.out.Add(s, CdfLoad::kCdfFileFieldNumber,
                file.string() +
                    ": sizes must be at most 2^31 bytes, the largest message of the "
                    "InfiniBand transport; the largest is " +
                    Num(cdf->points().back().size_bytes));
    } else if (cdf->MeanBytes() < 1) {
      v.out.Add(s, CdfLoad::kCdfFileFieldNumber,
                file.string() + ": the mean size is " + Num(cdf->MeanBytes()) +
                    " bytes; a load needs flows of a byte or more on average");
    } else {
      sizes = std::move(cdf).value();
    }
  }
  const bool load_ok =
      v.out.Present(s, CdfLoad::kLoadFractionFieldNumber, c.has_load_fraction(),
                    "the offered load, a fraction of each host link's rate in (0, 1]") &&
      v.out.AboveUpTo(s, CdfLoad::kLoadFractionFieldNumber, c.load_fraction(), 0.0, 1.0,
                      "a fraction of the host link rate");
  const bool duration_ok = v.out.Present(s, CdfLoad::kDurationNsFieldNumber, c.has_duration_ns(),
                                         "how long flows keep arriving, in ns") &&
                           v.Duration(s, CdfLoad::kDurationNsFieldNumber, c.duration_ns(), true);
  v.Duration(s, CdfLoad::kStartNsFieldNumber, c.start_ns(), false);
  if (!sizes || !load_ok || !duration_ok || !v.graph) return 0;
  double per_second = 0;  // every host at its own link's rate
  for (const topo::NodeId h : v.graph->hosts()) {
    const Rate rate = v.graph->link(v.graph->node(h).links[0]).rate;
    per_second += CdfLoadArrivalsPerSecond(c.load_fraction(), rate, *sizes);
  }
  return per_second * c.duration_ns() * 1e-9;
}

}  // namespace

// Returns how many messages the section makes (a cdf_load: how many on average).
double ValidateTraffic(Validation& v, const Traffic& t, const Site& s) {
  v.out.InRange(s, Traffic::kDscpFieldNumber, t.dscp(), 0, kMaxDscp);
  // A job's name heads a column of the CSV outputs and of an exported trace: one printable line.
  if (t.has_job() && (t.job().empty() || std::ranges::any_of(t.job(), [](unsigned char c) {
                        return c < 0x20 || c == 0x7f;
                      }))) {
    v.out.Add(s, Traffic::kJobFieldNumber,
              "must be a name on one line, not empty and without control characters, got " +
                  Quoted(t.job()));
  }
  switch (t.pattern_case()) {
    case Traffic::kPermutation: {
      const Site ps = s.Nested(Traffic::kPermutationFieldNumber);
      const Permutation& p = t.permutation();
      v.CheckMessageBytes(ps, Permutation::kMessageBytesFieldNumber, p.has_message_bytes(),
                          p.message_bytes());
      v.Duration(ps, Permutation::kStartNsFieldNumber, p.start_ns(), false);
      return v.graph ? static_cast<double>(v.graph->num_hosts()) : 0;
    }
    case Traffic::kIncast: {
      const Site is = s.Nested(Traffic::kIncastFieldNumber);
      const Incast& inc = t.incast();
      if (v.out.Present(is, Incast::kSendersFieldNumber, inc.has_senders(),
                        "the number of senders")) {
        if (v.graph) {
          v.out.InRange<int64_t>(is, Incast::kSendersFieldNumber, inc.senders(), 1,
                                 static_cast<int64_t>(v.graph->num_hosts()) - 1,
                                 "every host but the receiver at most; " + v.DescribeFabric());
        } else {
          v.out.AtLeast(is, Incast::kSendersFieldNumber, inc.senders(), 1);
        }
      }
      v.CheckHost(is, Incast::kReceiverHostFieldNumber, true, inc.receiver_host());
      v.CheckMessageBytes(is, Incast::kMessageBytesFieldNumber, inc.has_message_bytes(),
                          inc.message_bytes());
      v.Duration(is, Incast::kStartNsFieldNumber, inc.start_ns(), false);
      return inc.senders();
    }
    case Traffic::kFlowList:
      CheckFlowList(v, t.flow_list(), s.Nested(Traffic::kFlowListFieldNumber));
      return t.flow_list().flow_size();
    case Traffic::kCdfLoad:
      return CheckCdfLoad(v, t.cdf_load(), s.Nested(Traffic::kCdfLoadFieldNumber));
    case Traffic::kKvCache:
      return ValidateKvCache(v, t.kv_cache(), s.Nested(Traffic::kKvCacheFieldNumber));
    case Traffic::kCollective:
      return ValidateCollective(v, t.collective(), s.Nested(Traffic::kCollectiveFieldNumber));
    case Traffic::kTraining:
      return ValidateTraining(v, t.training(), s.Nested(Traffic::kTrainingFieldNumber));
    case Traffic::kTrace:
      return ValidateTrace(v, t.trace(), s.Nested(Traffic::kTraceFieldNumber));
    case Traffic::PATTERN_NOT_SET:
      v.out.AddWhole(
          s,
          "choose a pattern: permutation, incast, flow_list, cdf_load, collective, training, "
          "kv_cache or trace");
      return 0;
  }
  return 0;
}

}  // namespace fe::control
