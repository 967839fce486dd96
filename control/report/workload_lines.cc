#include "control/report/workload_lines.h"

#include <cstdio>

namespace fe::control {
namespace {

// As ns, then us: the same rounding as the other figures on the console.
double Us(Time t) { return t.fractional_ns() / 1000.0; }

}  // namespace

std::string JobLine(const std::string& name, const JobTiming& job) {
  std::string line = "  job       " + name + ": " + std::to_string(job.completed) + " of " +
                     std::to_string(job.iterations.size()) + " iterations, ";
  if (!job.time) return line + "time none: no iteration completed\n";
  char buf[128];
  std::snprintf(buf, sizeof(buf), "time p50 %.3f us, p99 %.3f us; ", Us(job.time->p50),
                Us(job.time->p99));
  line += buf;
  if (!job.communication_share) return line + "communication none\n";
  std::snprintf(buf, sizeof(buf), "communication %.1f%%\n", 100 * *job.communication_share);
  return line + buf;
}

std::string KvLine(const std::string& name, const KvJobSummary& kv) {
  std::string line = "  kv        " + name + ": " + std::to_string(kv.completed) + " of " +
                     std::to_string(kv.requests) + " requests, ";
  if (kv.transfer) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "transfer p50 %.3f us, p99 %.3f us; ", Us(kv.transfer->p50),
                  Us(kv.transfer->p99));
    line += buf;
  } else {
    line += "transfer none: no request completed; ";
  }
  return line + std::to_string(kv.reused_bytes) + " of " + std::to_string(kv.kv_bytes) +
         " KV bytes reused\n";
}

}  // namespace fe::control
