#include "control/serve/serve_outputs.h"

#include "control/emulation/events_csv.h"

namespace fe::control {

namespace {

void LogEnd(std::ostream& log, const ServeReport& report, const std::string& out_dir,
            bool has_events) {
  const dp::LatenessHistogram& h = report.loop.lateness;
  log << "serve: stopped by " << report.stopped_by << " after " << report.loop.elapsed.seconds()
      << " s; lateness p50 " << h.QuantileNs(0.5) << " ns, p99 " << h.QuantileNs(0.99)
      << " ns, max " << h.max_ns() << " ns over " << h.count() << " events\n";
  if (report.loop.fell_behind()) {
    log << "serve: FELL BEHIND real time: " << report.loop.events_behind << " events ran more than "
        << report.behind_threshold.ns() / 1000
        << " us late; emulated delays were longer than the scenario says\n";
  }
  if (report.fabric_pool_in_use + report.rx_pool_in_use != 0) {
    log << "serve: " << report.fabric_pool_in_use + report.rx_pool_in_use
        << " mbufs were not returned to their pools (a leak)\n";
  }
  log << "serve: wrote " << out_dir << "/summary.json\n";
  if (has_events) log << "serve: wrote " << out_dir << "/events.csv\n";
}

}  // namespace

Status WriteServeOutputs(const ServeReport& report, const Emulation& e, const std::string& out_dir,
                         OutputSet* outputs, std::ostream& log) {
  if (Status s = outputs->Write("summary.json", ServeSummaryJson(report)); !s.ok()) return s;
  // The commands the run applied (its schedule's, the API's), to replay in software mode.
  const bool has_events = e.commands != nullptr && e.commands->any_scheduled();
  if (has_events) {
    if (Status s = outputs->Write("events.csv", EventsCsv(e.commands->applied())); !s.ok()) {
      return s;
    }
  }
  // The capture is still open: renamed, its descriptor writes on into the file at its new name.
  if (Status s = outputs->Commit(); !s.ok()) return s;
  LogEnd(log, report, out_dir, has_events);
  return Status::Ok();
}

}  // namespace fe::control
