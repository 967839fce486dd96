// What every section of the scenario validator shares: the scenario, its findings, the fabric the
// topology builds (when it builds), the common checks on hosts, times and sizes, and one entry
// point per section. scenario_validator.cc runs the sections in order; each lives in a file of
// its own (validate_<section>.cc), so a new section adds a file rather than a branch.
#pragma once

#include <google/protobuf/text_format.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "control/scenario/validate/scenario_validator.h"
#include "control/scenario/validate/validation_site.h"
#include "proto/scenario.pb.h"
#include "topology/graph.h"
#include "topology/limits.h"

namespace fe::control {

inline constexpr int kPriorities = 8;  // 802.1p priorities, one egress queue each
inline constexpr int kMaxDscp = 63;    // DSCP is a 6-bit field
// A positive time is at least the model's 1 ps resolution.
inline constexpr double kMinPositiveTimeNs = 0.001;
// The InfiniBand transport's largest message: 2^31 bytes. At the smallest MTU that is 2^23
// packets, so a message's PSNs never wrap.
inline constexpr int64_t kMaxMessageBytes = int64_t{1} << 31;

struct Validation {
  Validation(const fabric_emu::Scenario& scenario, const pb::TextFormat::ParseInfoTree& locations,
             const std::string& file);

  const fabric_emu::Scenario& scenario;
  const std::filesystem::path scenario_dir;  // relative paths inside the scenario start here
  const Site root;
  Findings out;
  // What the rest of the scenario refers to (hosts, switches, ports, links): only known once the
  // topology builds.
  std::optional<topo::Graph> graph;

  // "the topology has N hosts": the context of a host index refused.
  std::string DescribeFabric() const;
  // The slowest host link (NIC) rate in Gb/s: every NIC's rate floor must lie below it. The
  // fastest Ethernet rate while the fabric is unknown.
  double SlowestHostLinkGbps() const;

  // A host index field: demanded, and inside the topology when the topology is known.
  void CheckHost(const Site& s, int field, bool has, int32_t host);
  void CheckMessageBytes(const Site& s, int field, bool has, int64_t bytes);
  // A time in ns: [0, kMaxScenarioTimeNs], or [1 ps, kMaxScenarioTimeNs] when it must be
  // positive.
  bool Duration(const Site& s, int field, double ns, bool positive);
  bool LinkDelay(const Site& s, int field, double ns);
  // A sample interval: 0 (off) or at least a nanosecond.
  void CheckSampleInterval(const Site& s, int field, double v);
};

// One plain path component: 1 to 64 letters, digits, '_', '-' or '.', not starting with '.'
// (no directory, no hidden file, nothing outside the folder it is put in).
bool IsPlainName(const std::string& name);
// A plain name made from a file's stem: every other character becomes '_', leading dots go, and
// it is cut to 64 characters ("scenario" when nothing is left), so that a scenario file may be
// named "my run.textproto" and still run (as out/my_run).
std::string PlainNameFromStem(const std::string& stem);

// Reports an error of topo::BuildTopology or ResolveFailures (a Status::FieldError, its path
// inside Topology) at the line of that path in the file, as "topology.<path>: <reason>"; an error
// without a path, at the topology.
void ReportTopologyError(Validation& v, const Site& topology_site, const Status& error);

// The sections, in the order the driver runs them. Each reports into v.out.
void ValidateTopology(Validation& v);  // fills v.graph when the topology builds
void ValidateFailures(Validation& v);
void ValidateSwitch(Validation& v);
void ValidateLoadBalancing(Validation& v);  // the switch section's load_balancing blocks
void ValidateNic(Validation& v);
// One DCQCN section's fields (the scenario's nic.cc.dcqcn, a command's).
void CheckDcqcn(Validation& v, const fabric_emu::Dcqcn& d, const Site& s);
// Builds NICs and switches as the run will, once every field check has passed.
void ValidateBuilds(Validation& v);
// Returns how many messages the section makes (a cdf_load: how many on average).
double ValidateTraffic(Validation& v, const fabric_emu::Traffic& t, const Site& s);
double ValidateKvCache(Validation& v, const fabric_emu::KvCache& kv, const Site& s);
double ValidateTrace(Validation& v, const fabric_emu::TraceFile& t, const Site& s);
void ValidateRealtime(Validation& v);
void ValidateCapture(Validation& v);

}  // namespace fe::control
