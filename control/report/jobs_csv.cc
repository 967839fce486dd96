#include "control/report/jobs_csv.h"

#include <cstdio>
#include <sstream>

#include "traffic/csv_field.h"

namespace fe::control {

std::string JobsCsv(const Workload& w, std::span<const JobTiming> jobs) {
  std::ostringstream out;
  out << "job,iteration,start_ns,end_ns,time_ns,compute_ns,communication_share,checkpoint\n";
  char line[256];
  for (const JobTiming& job : jobs) {
    const std::string name = CsvField(w.jobs[job.job].name);
    for (const IterationTiming& t : job.iterations) {
      out << name << ',' << t.index << ',';
      // An iteration after one that did not end never started: no start, rather than the
      // sentinel printed as a time.
      if (t.start != Time::Infinite()) {
        std::snprintf(line, sizeof(line), "%.3f", t.start.fractional_ns());
        out << line;
      }
      out << ',';
      if (t.completed) {
        std::snprintf(line, sizeof(line), "%.3f,%.3f,%.3f,%.6f,", t.end.fractional_ns(),
                      t.time().fractional_ns(), t.compute.fractional_ns(), t.communication_share());
      } else {
        std::snprintf(line, sizeof(line), ",,%.3f,,", t.compute.fractional_ns());
      }
      out << line << (t.checkpoint ? "true" : "false") << "\n";
    }
  }
  return out.str();
}

StatusOr<std::string> WriteJobsCsv(const Workload& w, std::span<const MessageOutcome> outcomes,
                                   OutputSet* outputs) {
  if (w.iterations.empty()) return std::string();
  const std::string name = "jobs.csv";
  if (Status s = outputs->Write(name, JobsCsv(w, JobTimings(w, outcomes))); !s.ok()) return s;
  return name;
}

}  // namespace fe::control
