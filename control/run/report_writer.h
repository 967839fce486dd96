// Run outputs that other tools read: summary.json (one object, stable key order) and flows.csv
// (one row per message). For a given scenario and seed both are byte-identical from run to run,
// except the summary's wall-clock fields (wall_time_s, packet_hops_per_wall_s,
// events_per_wall_s).
#pragma once

#include <span>
#include <string>

#include "control/report/json_text.h"
#include "control/run/software_run.h"
#include "core/status.h"
#include "proto/scenario.pb.h"
#include "traffic/flow_metrics.h"
#include "traffic/workload.h"

namespace fe::control {

// Per-message records (FCT, ideal FCT) of a finished run, in message order; a record is
// completed when its message is (control/report/message_counts.h).
FlowMetrics CollectFlowMetrics(const Emulation& e, uint32_t mtu_payload_bytes);

// summary.json, as the pieces WriteFileAtomically writes (the switch queues' text is most of it
// at k = 16), and whole.
SplicedJson SummaryDocument(const fabric_emu::Scenario& scenario, uint64_t seed,
                            const SoftwareRunResult& run, const FlowSummary& flows);
std::string SummaryJson(const fabric_emu::Scenario& scenario, uint64_t seed,
                        const SoftwareRunResult& run, const FlowSummary& flows);
// One row per message, with its job, actual start and dependencies (ids, space-separated) from
// the run's workload and outcomes (traffic/message_outcomes.h).
std::string FlowsCsv(const FlowMetrics& metrics, const Workload& workload,
                     std::span<const MessageOutcome> outcomes);
// A few lines for a person at a terminal.
std::string HumanSummary(const fabric_emu::Scenario& scenario, uint64_t seed,
                         const SoftwareRunResult& run, const FlowSummary& flows);

}  // namespace fe::control
