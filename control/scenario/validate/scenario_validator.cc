// The driver: runs each section's checks (validate_<section>.cc) in the order later sections
// depend on: the topology first, since hosts, switches and links come from the graph it builds.
#include "control/scenario/validate/scenario_validator.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "control/scenario/packet_budget.h"
#include "control/scenario/validate/validate_command.h"
#include "control/scenario/validate/validation.h"
#include "dataplane/fabric.h"
#include "topology/proto_utf8.h"

namespace fe::control {
namespace {

using fabric_emu::Scenario;

// The name becomes a directory under out/.
void CheckName(Validation& v) {
  const std::string& name = v.scenario.name();
  if (IsPlainName(name)) return;
  // Set in the text or by --set: one taken from the file name is made plain (PlainNameFromStem).
  v.out.Add(v.root, Scenario::kNameFieldNumber,
            "must be 1 to 64 letters, digits, '_', '-' or '.', not starting with '.', since "
            "it names the output directory out/<name>; got " +
                Quoted(name));
}

// Every string of the scenario may reach an output (a job's name, a switch's, a file's), and
// JSON and CSV hold UTF-8 only: one that is not is refused here, at its line.
bool CheckUtf8(Validation& v) {
  bool ok = true;
  topo::ForEachNonUtf8String(
      v.scenario, [&](std::span<const topo::FieldStep> path, const std::string& value, size_t at) {
        Site site = v.root;
        for (size_t i = 0; i + 1 < path.size(); ++i) {
          site = site.Nested(path[i].field->number(), path[i].index);
        }
        const topo::FieldStep& last = path.back();
        v.out.AddAt(site.Line(last.field->number(), last.index),
                    site.Path(last.field->number(), last.index), topo::NonUtf8Reason(value, at));
        ok = false;
      });
  return ok;
}

void CheckTraffic(Validation& v) {
  double messages = 0;  // a cdf_load's: its mean
  for (int i = 0; i < v.scenario.traffic_size(); ++i) {
    const Site ts = v.root.Nested(Scenario::kTrafficFieldNumber, i);
    messages += ValidateTraffic(v, v.scenario.traffic(i), ts);
    if (messages > dp::kMaxMessages) {
      v.out.AddWhole(ts, "the traffic up to here holds about " + Num(std::round(messages)) +
                             " messages, more than the " + std::to_string(dp::kMaxMessages) +
                             " a run holds");
      break;
    }
  }
}

void CheckRun(Validation& v) {
  const Site s = v.root.Nested(Scenario::kRunFieldNumber);
  const fabric_emu::Run& run = v.scenario.run();
  v.Duration(s, fabric_emu::Run::kStopNsFieldNumber, run.stop_ns(), false);
  v.CheckSampleInterval(s, fabric_emu::Run::kRateSampleIntervalNsFieldNumber,
                        run.rate_sample_interval_ns());
  v.CheckSampleInterval(s, fabric_emu::Run::kQueueSampleIntervalNsFieldNumber,
                        run.queue_sample_interval_ns());
  v.Duration(s, fabric_emu::Run::kNoProgressTimeoutNsFieldNumber, run.no_progress_timeout_ns(),
             false);
  v.out.InRange<uint32_t>(s, fabric_emu::Run::kCoresFieldNumber, run.cores(), 1, kMaxRunCores);
  if (run.memory_limit_bytes() != 0) {
    v.out.InRange<uint64_t>(s, fabric_emu::Run::kMemoryLimitBytesFieldNumber,
                            run.memory_limit_bytes(), kMinMemoryLimitBytes, UINT64_MAX >> 1,
                            "0 leaves the machine's available memory");
  }
}

}  // namespace

uint32_t MachineCores() { return std::max(1u, std::thread::hardware_concurrency()); }

Status CheckCoresFitMachine(const Scenario& scenario, const std::string& display_name) {
  const uint32_t cores = scenario.run().cores();
  if (cores <= MachineCores()) return Status::Ok();
  return Status::Error(display_name + ": run.cores: " + std::to_string(cores) +
                       " is more than this machine's " + std::to_string(MachineCores()) +
                       " cores; --cores N runs the scenario here on N of them");
}

std::vector<std::string> ValidateScenario(const Scenario& scenario,
                                          const pb::TextFormat::ParseInfoTree& locations,
                                          const std::string& display_name) {
  Validation v(scenario, locations, display_name);
  if (!CheckUtf8(v)) return std::move(v.out).SortedByLine();
  CheckName(v);
  if (v.out.Present(v.root, Scenario::kTopologyFieldNumber, scenario.has_topology(),
                    "a topology { fat_tree | clos | rail_optimized | graph { ... } }")) {
    ValidateTopology(v);
    ValidateFailures(v);
  }
  if (scenario.has_switch_()) ValidateSwitch(v);
  if (scenario.has_switch_()) ValidateLoadBalancing(v);
  if (scenario.has_nic()) ValidateNic(v);
  ValidateBuilds(v);
  ValidateSchedule(v);
  CheckTraffic(v);
  if (scenario.has_run()) CheckRun(v);
  if (scenario.has_realtime()) ValidateRealtime(v);
  if (scenario.has_capture()) ValidateCapture(v);
  return std::move(v.out).SortedByLine();
}

}  // namespace fe::control
