#include "control/scenario/validate/validation.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace fe::control {
namespace {

constexpr char kTimeRange[] = "in ns: 1 ps resolution, at most 11.6 days";

}  // namespace

Validation::Validation(const fabric_emu::Scenario& scenario,
                       const pb::TextFormat::ParseInfoTree& locations, const std::string& file)
    : scenario(scenario),
      scenario_dir(std::filesystem::path(file).parent_path()),
      root(fabric_emu::Scenario::descriptor(), &locations, "", 0),
      out(file) {}

std::string Validation::DescribeFabric() const {
  return "the topology has " + std::to_string(graph->num_hosts()) + " hosts";
}

double Validation::SlowestHostLinkGbps() const {
  if (!graph || graph->num_hosts() == 0) return topo::kMaxLinkRateGbps;
  int64_t slowest_bps = std::numeric_limits<int64_t>::max();
  for (const topo::NodeId h : graph->hosts()) {
    slowest_bps = std::min(slowest_bps, graph->link(graph->node(h).links[0]).rate.bps());
  }
  return static_cast<double>(slowest_bps) / 1e9;
}

void Validation::CheckHost(const Site& s, int field, bool has, int32_t host) {
  if (!out.Present(s, field, has, "a host index")) return;
  const auto hosts = graph ? static_cast<int64_t>(graph->num_hosts()) : int64_t{0};
  if (host < 0 || (graph && host >= hosts)) {
    out.Add(s, field,
            "must be a host index in [0, " +
                (graph ? std::to_string(hosts - 1) + "] (" + DescribeFabric() + ")"
                       : std::string("hosts-1]")) +
                ", got " + std::to_string(host));
  }
}

void Validation::CheckMessageBytes(const Site& s, int field, bool has, int64_t bytes) {
  if (out.Present(s, field, has, "message size in bytes, > 0")) {
    out.InRange<int64_t>(s, field, bytes, 1, kMaxMessageBytes,
                         "2^31, the largest message of the InfiniBand transport");
  }
}

bool Validation::Duration(const Site& s, int field, double ns, bool positive) {
  return out.InRange(s, field, ns, positive ? kMinPositiveTimeNs : 0.0, kMaxScenarioTimeNs,
                     kTimeRange);
}

bool Validation::LinkDelay(const Site& s, int field, double ns) {
  return out.InRange(s, field, ns, 0.0, topo::kMaxLinkDelayNs, "in ns: 1 s is 200,000 km of fibre");
}

// 0 is off. Times are kept in picoseconds, so a positive interval below 1 ns (far finer than
// any rate change: a 64-byte frame takes 6.7 ns at 100 Gb/s) is a unit mistake and, rounded,
// could reach 0 and sample forever at one instant.
void Validation::CheckSampleInterval(const Site& s, int field, double v) {
  if (!std::isfinite(v) || (v != 0 && (v < 1 || v > kMaxScenarioTimeNs))) {
    out.Add(s, field,
            "must be 0 (off) or in [1, " + Num(kMaxScenarioTimeNs) + "] ns, got " + Num(v));
  }
}

bool IsPlainName(const std::string& name) {
  return !name.empty() && name.size() <= 64 && name[0] != '.' &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
         });
}

std::string PlainNameFromStem(const std::string& stem) {
  std::string name = stem.substr(std::min(stem.find_first_not_of('.'), stem.size()));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  }
  if (name.size() > 64) name.resize(64);
  return name.empty() ? "scenario" : name;
}

}  // namespace fe::control
