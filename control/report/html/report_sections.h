// The sections of report.html, each made from the outputs it needs; a section whose data the
// run did not write says how to get it. Errors are malformed inputs (file:line).
#pragma once

#include "control/report/html/html_page.h"
#include "control/report/html/report_input.h"

namespace fe::control::html {

// The scenario, seed, topology and settings of the run, and its headline results.
StatusOr<Section> ParametersSection(const ReportInput& in);
// FCT slowdown: its CDF per size bucket and its p50/p99 against flow size (flows.csv).
StatusOr<Section> FctSection(const ReportInput& in);
// Queue depth over time of the busiest queues (queues.csv).
StatusOr<Section> QueuesSection(const ReportInput& in);
// Congestion-control rates over time of the most throttled flows (rates.csv).
StatusOr<Section> RatesSection(const ReportInput& in);
// PFC paused time per switch and port, per priority (summary.json).
StatusOr<Section> PfcSection(const ReportInput& in);
// ECN marks per switch and port, per priority (summary.json).
StatusOr<Section> EcnSection(const ReportInput& in);
// Utilisation per switch and port (links.csv).
StatusOr<Section> LinksSection(const ReportInput& in);
// Failures and commands on a timeline.
StatusOr<Section> EventsSection(const ReportInput& in);
// Jobs, training iterations and collective operations on a timeline.
StatusOr<Section> WorkloadSection(const ReportInput& in);

}  // namespace fe::control::html
