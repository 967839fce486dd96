#include "control/scenario_validator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "control/emulation.h"
#include "control/switch_params.h"
#include "dataplane/eal.h"
#include "dataplane/fabric.h"
#include "dataplane/switch_config.h"
#include "topology/fat_tree.h"
#include "traffic/cdf_load.h"
#include "traffic/flow_size_cdf.h"

namespace fe::control {
namespace {

namespace pb = google::protobuf;
using fabric_emu::CdfLoad;
using fabric_emu::CongestionControl;
using fabric_emu::Dcqcn;
using fabric_emu::DscpPriority;
using fabric_emu::ExternalPort;
using fabric_emu::FatTree;
using fabric_emu::Flow;
using fabric_emu::Hpcc;
using fabric_emu::Incast;
using fabric_emu::NicConfig;
using fabric_emu::Permutation;
using fabric_emu::Pfc;
using fabric_emu::PfcWatchdog;
using fabric_emu::PortSelector;
using fabric_emu::QueueConfig;
using fabric_emu::Scenario;
using fabric_emu::SwitchConfig;
using fabric_emu::SwitchPortRef;
using fabric_emu::SwitchTier;
using fabric_emu::SwitchTierOverride;
using fabric_emu::Traffic;
using fabric_emu::Wred;

constexpr int kPriorities = 8;  // 802.1p priorities, one egress queue each
constexpr int kMaxDscp = 63;    // DSCP is a 6-bit field
constexpr int kRoceLosslessPriority = 3;
// The shared buffer keeps alpha in 16-bit fixed point.
constexpr double kMinAlpha = 1.0 / 65536;
constexpr double kMaxAlpha = 64;
// DWRR credits weight x 9216 bytes per round and takes quanta up to 2^24 bytes.
constexpr int kMaxDwrrWeight = (1 << 24) / 9216;
// The shared buffer multiplies free bytes by a 16-bit fixed-point alpha in 64 bits.
constexpr int64_t kMaxBufferBytes = int64_t{1} << 40;
// Ethernet rates beyond this are not even in standardisation (802.3dj is 1.6 Tb/s); a larger
// value is far more likely Mb/s typed into a Gb/s field than a real link.
constexpr double kMaxLinkRateGbps = 1600;
// 256: the smallest RoCE path MTU. 9000: with its 62 bytes of Ethernet, IPv4, UDP, BTH, ICRC and
// FCS a packet still fits the 9216-byte jumbo frames datacenter switches carry.
constexpr int kMinMtuPayloadBytes = 256;
constexpr int kMaxMtuPayloadBytes = 9000;
// A positive time is at least the model's 1 ps resolution.
constexpr double kMinPositiveTimeNs = 0.001;
constexpr char kTimeRange[] = "in ns: 1 ps resolution, at most 11.6 days";
// A link's propagation delay (or a PFC response time) of one second is 200,000 km of fibre.
constexpr double kMaxLinkDelayNs = 1e9;
// The slowest link: 1 Mb/s, where a 9 KB frame takes 74 ms and the longest PFC pause 34 s.
constexpr double kMinLinkRateGbps = 0.001;
// A rate is kept in whole bits per second.
constexpr double kMinRateMbps = 1e-6;
// DCQCN replays its timers' expiries up to each paced packet's start: at a floor of 1 Mb/s
// and timers of 1 us, a 9 KB packet's gap holds some 74,000.
constexpr double kMinDcqcnRateMbps = 1;
constexpr double kMinDcqcnPeriodNs = 1000;
// The InfiniBand transport's largest message: 2^31 bytes. At the smallest MTU that is 2^23
// packets, so a message's PSNs never wrap.
constexpr int64_t kMaxMessageBytes = int64_t{1} << 31;

template <typename T>
std::string Num(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.15g", static_cast<double>(v));
    return buf;
  } else {
    return std::to_string(v);
  }
}

// A value quoted in an error, cut to its first 64 bytes: a mistaken 10 MB field must not fill
// the terminal.
std::string Quoted(const std::string& s) {
  constexpr size_t kShownBytes = 64;
  if (s.size() <= kShownBytes) return "\"" + s + "\"";
  return "\"" + s.substr(0, kShownBytes) + "\"... (" + std::to_string(s.size()) + " bytes)";
}

// Where a message sits in the scenario file: its field path and its parse locations. Fields are
// named by their generated field-number constants so that a typo fails to compile.
class Site {
 public:
  Site(const pb::Descriptor* type, const pb::TextFormat::ParseInfoTree* tree, std::string path,
       int line)
      : type_(type), tree_(tree), path_(std::move(path)), line_(line) {}

  // The site of the message held in `field` (element `index` of a repeated field).
  Site Nested(int field, int index = -1) const {
    const pb::FieldDescriptor* f = type_->FindFieldByNumber(field);
    const pb::TextFormat::ParseInfoTree* sub =
        HasLocation(f, index) ? tree_->GetTreeForNested(f, f->is_repeated() ? index : -1) : nullptr;
    return Site(f->message_type(), sub, Path(field, index), Line(field, index));
  }

  // 1-based line of `field`; the line of this message when the field is not in the text (or is
  // a repeated field named as a whole), and 0 when neither is (a top-level field left out).
  int Line(int field, int index = -1) const {
    const pb::FieldDescriptor* f = type_->FindFieldByNumber(field);
    if (!HasLocation(f, index)) return line_;
    const pb::TextFormat::ParseLocation at = tree_->GetLocation(f, f->is_repeated() ? index : -1);
    return at.line >= 0 ? at.line + 1 : line_;
  }

  std::string Path(int field, int index = -1) const {
    const std::string& name = type_->FindFieldByNumber(field)->name();
    std::string p = path_.empty() ? name : path_ + "." + name;
    if (index >= 0) p += "[" + std::to_string(index) + "]";
    return p;
  }

  const std::string& path() const { return path_; }
  int line() const { return line_; }

 private:
  // Whether the parse tree can be asked for f: it aborts the process when asked for a repeated
  // field as a whole (an empty one, whose error names the field, has no element to point at).
  bool HasLocation(const pb::FieldDescriptor* f, int index) const {
    return tree_ != nullptr && !(f->is_repeated() && index < 0);
  }

  const pb::Descriptor* type_;
  const pb::TextFormat::ParseInfoTree* tree_;  // null where the message is not in the text
  std::string path_;
  int line_;
};

class Findings {
 public:
  explicit Findings(const std::string& file) : file_(file) {}

  void Add(const Site& site, int field, const std::string& message) {
    AddAt(site.Line(field), site.Path(field), message);
  }
  // An error about a message as a whole.
  void AddWhole(const Site& site, const std::string& message) {
    AddAt(site.line(), site.path(), message);
  }

  // Each range check reports unless the value passes, and returns whether it passed.
  template <typename T>
  bool AtLeast(const Site& s, int field, T v, T min) {
    if (!Finite(s, field, v)) return false;
    if (v >= min) return true;
    Add(s, field, "must be >= " + Num(min) + ", got " + Num(v));
    return false;
  }
  template <typename T>
  bool Above(const Site& s, int field, T v, T bound) {
    if (!Finite(s, field, v)) return false;
    if (v > bound) return true;
    Add(s, field, "must be > " + Num(bound) + ", got " + Num(v));
    return false;
  }
  // lo <= v <= hi; `why` explains a bound that is not obvious.
  template <typename T>
  bool InRange(const Site& s, int field, T v, T lo, T hi, const std::string& why = "") {
    return Between(s, field, v, lo, Bound::kClosed, hi, Bound::kClosed, why);
  }
  // lo < v <= hi.
  template <typename T>
  bool AboveUpTo(const Site& s, int field, T v, T lo, T hi, const std::string& why = "") {
    return Between(s, field, v, lo, Bound::kOpen, hi, Bound::kClosed, why);
  }
  // lo <= v < hi.
  template <typename T>
  bool FromBelow(const Site& s, int field, T v, T lo, T hi, const std::string& why = "") {
    return Between(s, field, v, lo, Bound::kClosed, hi, Bound::kOpen, why);
  }
  bool Present(const Site& s, int field, bool has, const std::string& what) {
    if (!has) Add(s, field, "required: " + what);
    return has;
  }

  bool empty() const { return found_.empty(); }

  std::vector<std::string> SortedByLine() && {
    std::stable_sort(found_.begin(), found_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    out.reserve(found_.size());
    for (auto& [line, text] : found_) out.push_back(std::move(text));
    return out;
  }

 private:
  enum class Bound { kClosed, kOpen };

  template <typename T>
  bool Between(const Site& s, int field, T v, T lo, Bound lo_kind, T hi, Bound hi_kind,
               const std::string& why) {
    if (!Finite(s, field, v)) return false;
    const bool above_lo = lo_kind == Bound::kClosed ? v >= lo : v > lo;
    const bool below_hi = hi_kind == Bound::kClosed ? v <= hi : v < hi;
    if (above_lo && below_hi) return true;
    Add(s, field,
        "must be in " + std::string(lo_kind == Bound::kClosed ? "[" : "(") + Num(lo) + ", " +
            Num(hi) + (hi_kind == Bound::kClosed ? "]" : ")") +
            (why.empty() ? "" : " (" + why + ")") + ", got " + Num(v));
    return false;
  }

  template <typename T>
  bool Finite(const Site& s, int field, T v) {
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isfinite(v)) {
        Add(s, field, "must be a finite number, got " + Num(v));
        return false;
      }
    }
    return true;
  }

  void AddAt(int line, const std::string& path, const std::string& message) {
    const std::string where = line > 0 ? file_ + ":" + std::to_string(line) : file_;
    found_.emplace_back(line, where + ": " + path + ": " + message);
  }

  std::string file_;
  std::vector<std::pair<int, std::string>> found_;
};

// What the rest of the scenario may refer to: only known when the topology is valid.
struct FabricShape {
  int k = 0;  // ports per switch
  int64_t hosts = 0;
  std::map<SwitchTier, int> switches_per_tier;
  std::optional<double> link_rate_gbps;  // when valid
  std::optional<double> link_delay_ns;   // when valid

  std::string Describe() const {
    return "the k=" + std::to_string(k) + " fat-tree has " + std::to_string(hosts) + " hosts";
  }
};

// One SwitchConfig as it stands in the file: the scenario-wide one or a tier override's.
struct SwitchLayer {
  const SwitchConfig* config;
  Site site;
};

// Where the effective value of a switch field comes from, given the layers in force (the
// scenario-wide config, then possibly a tier override): the topmost layer that sets it, else
// the schema default.
template <typename T>
struct Effective {
  T value{};
  int layer = -1;            // -1: the schema default
  std::optional<Site> site;  // the message that sets it
};

// find(layer) yields the sub-message of a layer (and its site) when the layer has it.
template <typename T, typename Find, typename Has, typename Get>
Effective<T> Resolve(const std::vector<SwitchLayer>& layers, Find find, Has has, Get get,
                     T schema_default) {
  for (int i = static_cast<int>(layers.size()) - 1; i >= 0; --i) {
    const auto found = find(layers[i]);
    if (found && has(*found->first)) return {get(*found->first), i, found->second};
  }
  return {schema_default, -1, std::nullopt};
}

std::optional<std::pair<const QueueConfig*, Site>> QueueOf(const SwitchLayer& layer, int priority) {
  for (int i = 0; i < layer.config->queue_size(); ++i) {
    if (layer.config->queue(i).priority() == priority) {
      return std::make_pair(&layer.config->queue(i),
                            layer.site.Nested(SwitchConfig::kQueueFieldNumber, i));
    }
  }
  return std::nullopt;
}

std::optional<std::pair<const Wred*, Site>> WredOf(const SwitchLayer& layer, int priority) {
  const auto queue = QueueOf(layer, priority);
  if (!queue || !queue->first->has_wred()) return std::nullopt;
  return std::make_pair(&queue->first->wred(), queue->second.Nested(QueueConfig::kWredFieldNumber));
}

std::optional<std::pair<const Pfc*, Site>> PfcOf(const SwitchLayer& layer) {
  if (!layer.config->has_pfc()) return std::nullopt;
  return std::make_pair(&layer.config->pfc(), layer.site.Nested(SwitchConfig::kPfcFieldNumber));
}

class Validator {
 public:
  Validator(const Scenario& scenario, const pb::TextFormat::ParseInfoTree& locations,
            const std::string& file)
      : scenario_(scenario),
        scenario_dir_(std::filesystem::path(file).parent_path()),
        root_(Scenario::descriptor(), &locations, "", 0),
        out_(file) {}

  std::vector<std::string> Run() && {
    CheckName();
    if (out_.Present(root_, Scenario::kTopologyFieldNumber, scenario_.has_topology(),
                     "a topology { fat_tree { ... } }")) {
      CheckTopology(root_.Nested(Scenario::kTopologyFieldNumber));
    }
    if (scenario_.has_switch_()) CheckSwitch(root_.Nested(Scenario::kSwitchFieldNumber));
    if (scenario_.has_nic()) CheckNic(root_.Nested(Scenario::kNicFieldNumber));
    // Built as the run will build them, so that what the field checks cannot see (a value
    // that rounds to nothing, headroom that the links make larger than the buffer) stops the
    // run here. Without a switch section the defaults meet the links.
    CheckNicBuilds(root_.Nested(Scenario::kNicFieldNumber));
    if (scenario_.has_switch_()) {
      CheckSwitchesBuild(root_.Nested(Scenario::kSwitchFieldNumber),
                         SwitchConfig::kBufferBytesFieldNumber, "");
    } else if (scenario_.has_topology()) {
      // The links alone decide the headroom the default buffer must hold: name them.
      CheckSwitchesBuild(root_.Nested(Scenario::kTopologyFieldNumber)
                             .Nested(fabric_emu::Topology::kFatTreeFieldNumber),
                         FatTree::kLinkDelayNsFieldNumber, " with the default switch settings");
    }
    double messages = 0;  // a cdf_load's: its mean
    for (int i = 0; i < scenario_.traffic_size(); ++i) {
      const Site ts = root_.Nested(Scenario::kTrafficFieldNumber, i);
      messages += CheckTraffic(scenario_.traffic(i), ts);
      if (messages > dp::kMaxMessages) {
        out_.AddWhole(ts, "the traffic up to here holds about " + Num(std::round(messages)) +
                              " messages, more than the " + std::to_string(dp::kMaxMessages) +
                              " a run holds");
        break;
      }
    }
    if (scenario_.has_run()) {
      const Site s = root_.Nested(Scenario::kRunFieldNumber);
      Duration(s, fabric_emu::Run::kStopNsFieldNumber, scenario_.run().stop_ns(), false);
      CheckSampleInterval(s, fabric_emu::Run::kRateSampleIntervalNsFieldNumber,
                          scenario_.run().rate_sample_interval_ns());
      CheckSampleInterval(s, fabric_emu::Run::kQueueSampleIntervalNsFieldNumber,
                          scenario_.run().queue_sample_interval_ns());
    }
    if (scenario_.has_realtime()) CheckRealtime(root_.Nested(Scenario::kRealtimeFieldNumber));
    if (scenario_.has_capture()) CheckCapture(root_.Nested(Scenario::kCaptureFieldNumber));
    return std::move(out_).SortedByLine();
  }

 private:
  // One plain path component: 1 to 64 letters, digits, '_', '-' or '.', not starting with '.'
  // (no directory, no hidden file, nothing outside the folder it is put in).
  static bool IsPlainName(const std::string& name) {
    return !name.empty() && name.size() <= 64 && name[0] != '.' &&
           std::all_of(name.begin(), name.end(), [](char c) {
             return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
           });
  }

  void CheckName() {
    // The name becomes a directory under out/.
    const std::string& name = scenario_.name();
    if (!IsPlainName(name)) {
      // Not in the text (no line): the loader took it from the file name.
      const bool from_file_name = root_.Line(Scenario::kNameFieldNumber) == 0;
      out_.Add(
          root_, Scenario::kNameFieldNumber,
          "must be 1 to 64 letters, digits, '_', '-' or '.', not starting with '.', since "
          "it names the output directory out/<name>; got " +
              Quoted(name) +
              (from_file_name ? " (taken from the file name: set name: \"...\" in the file)" : ""));
    }
  }

  // 0 is off. Times are kept in picoseconds, so a positive interval below 1 ns (far finer than
  // any rate change: a 64-byte frame takes 6.7 ns at 100 Gb/s) is a unit mistake and, rounded,
  // could reach 0 and sample forever at one instant.
  // A sample interval: 0 (off) or at least a nanosecond.
  void CheckSampleInterval(const Site& s, int field, double v) {
    if (!std::isfinite(v) || (v != 0 && (v < 1 || v > kMaxScenarioTimeNs))) {
      out_.Add(s, field,
               "must be 0 (off) or in [1, " + Num(kMaxScenarioTimeNs) + "] ns, got " + Num(v));
    }
  }

  void CheckTopology(const Site& s) {
    const auto& topology = scenario_.topology();
    if (topology.kind_case() != fabric_emu::Topology::kFatTree) {
      out_.AddWhole(s, "choose a builder: fat_tree { ... }");
      return;
    }
    const Site ft = s.Nested(fabric_emu::Topology::kFatTreeFieldNumber);
    const FatTree& tree = topology.fat_tree();
    const int k = tree.k();
    const bool k_ok = k >= 2 && k % 2 == 0 && k <= topo::kMaxFatTreeK;
    if (!k_ok) {
      const int64_t max_k = topo::kMaxFatTreeK;
      out_.Add(ft, FatTree::kKFieldNumber,
               "must be even and in [2, " + std::to_string(max_k) + "] (" +
                   std::to_string(max_k * max_k * max_k / 4) + " hosts at most), got " +
                   std::to_string(k));
    }
    const bool rate_ok =
        out_.InRange(ft, FatTree::kLinkRateGbpsFieldNumber, tree.link_rate_gbps(), kMinLinkRateGbps,
                     kMaxLinkRateGbps, "in Gb/s: 1 Mb/s up to 1600, the fastest Ethernet rate");
    const bool delay_ok = LinkDelay(ft, FatTree::kLinkDelayNsFieldNumber, tree.link_delay_ns());
    if (!k_ok) return;
    FabricShape shape;
    shape.k = k;
    shape.hosts = static_cast<int64_t>(k) * k * k / 4;
    shape.switches_per_tier = {{fabric_emu::EDGE, k * k / 2},
                               {fabric_emu::AGGREGATION, k * k / 2},
                               {fabric_emu::CORE, k * k / 4}};
    if (rate_ok) shape.link_rate_gbps = tree.link_rate_gbps();
    if (delay_ok) shape.link_delay_ns = tree.link_delay_ns();
    shape_ = shape;
  }

  // A host index field: demanded, and inside the topology when the topology is known.
  void CheckHost(const Site& s, int field, bool has, int32_t host) {
    if (!out_.Present(s, field, has, "a host index")) return;
    if (host < 0 || (shape_ && host >= shape_->hosts)) {
      out_.Add(s, field,
               "must be a host index in [0, " +
                   (shape_ ? std::to_string(shape_->hosts - 1) + "] (" + shape_->Describe() + ")"
                           : std::string("hosts-1]")) +
                   ", got " + std::to_string(host));
    }
  }

  void CheckMessageBytes(const Site& s, int field, bool has, int64_t bytes) {
    if (out_.Present(s, field, has, "message size in bytes, > 0")) {
      out_.InRange<int64_t>(s, field, bytes, 1, kMaxMessageBytes,
                            "2^31, the largest message of the InfiniBand transport");
    }
  }

  // A time in ns: [0, kMaxScenarioTimeNs], or [1 ps, kMaxScenarioTimeNs] when it must be positive.
  bool Duration(const Site& s, int field, double ns, bool positive) {
    return out_.InRange(s, field, ns, positive ? kMinPositiveTimeNs : 0.0, kMaxScenarioTimeNs,
                        kTimeRange);
  }
  bool LinkDelay(const Site& s, int field, double ns) {
    return out_.InRange(s, field, ns, 0.0, kMaxLinkDelayNs, "in ns: 1 s is 200,000 km of fibre");
  }

  // ---------------------------------------------------------------- switch

  void CheckSwitch(const Site& s) {
    const SwitchConfig& base = scenario_.switch_();
    CheckSwitchFields(base, s, /*top_level=*/true);
    const std::vector<SwitchLayer> base_only = {{&base, s}};
    CheckSwitchConsistency(base_only, "");
    std::map<SwitchTier, int> seen;
    for (int i = 0; i < base.tier_override_size(); ++i) {
      const SwitchTierOverride& o = base.tier_override(i);
      const Site os = s.Nested(SwitchConfig::kTierOverrideFieldNumber, i);
      const int tier_field = SwitchTierOverride::kTierFieldNumber;
      if (!out_.Present(os, tier_field,
                        o.has_tier() && o.tier() != fabric_emu::SWITCH_TIER_UNSPECIFIED,
                        "EDGE, AGGREGATION or CORE")) {
        continue;
      }
      if (const auto [it, fresh] = seen.emplace(o.tier(), i); !fresh) {
        out_.Add(os, tier_field,
                 fabric_emu::SwitchTier_Name(o.tier()) + " is already overridden by " +
                     s.Path(SwitchConfig::kTierOverrideFieldNumber, it->second));
      }
      const Site cs = os.Nested(SwitchTierOverride::kConfigFieldNumber);
      CheckSwitchFields(o.config(), cs, /*top_level=*/false);
      CheckSwitchConsistency({{&base, s}, {&o.config(), cs}},
                             " for " + fabric_emu::SwitchTier_Name(o.tier()) + " switches");
    }
  }

  // The rules each field obeys on its own, in one SwitchConfig.
  void CheckSwitchFields(const SwitchConfig& c, const Site& s, bool top_level) {
    std::map<int, int> dscp_seen;
    for (int i = 0; i < c.dscp_to_priority_size(); ++i) {
      const DscpPriority& m = c.dscp_to_priority(i);
      const Site ms = s.Nested(SwitchConfig::kDscpToPriorityFieldNumber, i);
      if (out_.Present(ms, DscpPriority::kDscpFieldNumber, m.has_dscp(), "a DSCP, 0..63") &&
          out_.InRange(ms, DscpPriority::kDscpFieldNumber, m.dscp(), 0, kMaxDscp)) {
        if (const auto [it, fresh] = dscp_seen.emplace(m.dscp(), i); !fresh) {
          out_.Add(ms, DscpPriority::kDscpFieldNumber,
                   "DSCP " + std::to_string(m.dscp()) + " is already mapped by " +
                       s.Path(SwitchConfig::kDscpToPriorityFieldNumber, it->second));
        }
      }
      if (out_.Present(ms, DscpPriority::kPriorityFieldNumber, m.has_priority(),
                       "a priority, 0..7")) {
        out_.InRange(ms, DscpPriority::kPriorityFieldNumber, m.priority(), 0, kPriorities - 1);
      }
    }
    out_.InRange(s, SwitchConfig::kDefaultPriorityFieldNumber, c.default_priority(), 0,
                 kPriorities - 1);
    out_.InRange<int64_t>(s, SwitchConfig::kBufferBytesFieldNumber, c.buffer_bytes(), 1,
                          kMaxBufferBytes, "2^40: alpha x free bytes must fit in 64 bits");
    std::map<int, int> priority_seen;
    for (int i = 0; i < c.queue_size(); ++i) {
      const QueueConfig& q = c.queue(i);
      const Site qs = s.Nested(SwitchConfig::kQueueFieldNumber, i);
      if (out_.Present(qs, QueueConfig::kPriorityFieldNumber, q.has_priority(),
                       "the priority this queue serves, 0..7") &&
          out_.InRange(qs, QueueConfig::kPriorityFieldNumber, q.priority(), 0, kPriorities - 1)) {
        if (const auto [it, fresh] = priority_seen.emplace(q.priority(), i); !fresh) {
          out_.Add(qs, QueueConfig::kPriorityFieldNumber,
                   "priority " + std::to_string(q.priority()) + " is already configured by " +
                       s.Path(SwitchConfig::kQueueFieldNumber, it->second));
        }
      }
      out_.InRange(qs, QueueConfig::kAlphaFieldNumber, q.alpha(), kMinAlpha, kMaxAlpha,
                   "the buffer keeps alpha in 1/65536 steps; above 64 one queue may take it all");
      out_.AtLeast<int64_t>(qs, QueueConfig::kReservedBytesFieldNumber, q.reserved_bytes(), 0);
      out_.InRange(qs, QueueConfig::kDwrrWeightFieldNumber, q.dwrr_weight(), 1, kMaxDwrrWeight,
                   "a round credits weight x 9216 bytes, at most 2^24");
      if (q.has_wred()) {
        const Site ws = qs.Nested(QueueConfig::kWredFieldNumber);
        out_.AtLeast<int64_t>(ws, Wred::kKminBytesFieldNumber, q.wred().kmin_bytes(), 0);
        out_.InRange(ws, Wred::kPmaxFieldNumber, q.wred().pmax(), 0.0, 1.0, "a probability");
      }
    }
    if (c.has_pfc()) {
      const Site ps = s.Nested(SwitchConfig::kPfcFieldNumber);
      const Pfc& p = c.pfc();
      out_.AtLeast<int64_t>(ps, Pfc::kXoffBytesFieldNumber, p.xoff_bytes(), 0);
      out_.AtLeast<int64_t>(ps, Pfc::kXonBytesFieldNumber, p.xon_bytes(), 0);
      out_.AtLeast<int64_t>(ps, Pfc::kXonOffsetBytesFieldNumber, p.xon_offset_bytes(), 0);
      out_.AtLeast<int64_t>(ps, Pfc::kHeadroomBytesFieldNumber, p.headroom_bytes(), 0);
      out_.InRange(ps, Pfc::kCableLengthMFieldNumber, p.cable_length_m(), 0.0, 2e8,
                   "in m: 200,000 km is a second of light in fibre");
      LinkDelay(ps, Pfc::kResponseTimeNsFieldNumber, p.response_time_ns());
    }
    if (c.has_pfc_watchdog()) {
      const Site ws = s.Nested(SwitchConfig::kPfcWatchdogFieldNumber);
      const PfcWatchdog& w = c.pfc_watchdog();
      Duration(ws, PfcWatchdog::kDetectionTimeNsFieldNumber, w.detection_time_ns(), true);
      Duration(ws, PfcWatchdog::kRestorationTimeNsFieldNumber, w.restoration_time_ns(), true);
    }
    if (!top_level && c.tier_override_size() > 0) {
      out_.Add(s, SwitchConfig::kTierOverrideFieldNumber,
               "an override cannot hold overrides; put every tier_override directly in switch");
    }
  }

  // Rules between fields, on the configuration the switches of one tier actually get. With a
  // tier override in force, only errors the override takes part in are reported: those of the
  // scenario-wide config alone were reported on their own.
  void CheckSwitchConsistency(const std::vector<SwitchLayer>& layers, const std::string& scope) {
    const int top = static_cast<int>(layers.size()) - 1;
    const auto involves_top = [&](std::initializer_list<int> used) {
      return top == 0 || std::max(used) == top;
    };
    // Reports at the setting of the value from the topmost layer.
    const auto report = [&](const auto& a, int a_field, const auto& b, int b_field,
                            const std::string& message_at_a, const std::string& message_at_b) {
      if (a.layer >= b.layer && a.site) {
        out_.Add(*a.site, a_field, message_at_a + scope);
      } else if (b.site) {
        out_.Add(*b.site, b_field, message_at_b + scope);
      }
    };

    // Unset thresholds resolve to -1: a dynamic XOFF, an XON relative to it.
    const auto xoff = Resolve(
        layers, PfcOf, [](const Pfc& p) { return p.has_xoff_bytes(); },
        [](const Pfc& p) { return p.xoff_bytes(); }, int64_t{-1});
    const auto xon = Resolve(
        layers, PfcOf, [](const Pfc& p) { return p.has_xon_bytes(); },
        [](const Pfc& p) { return p.xon_bytes(); }, int64_t{-1});
    if (xon.site && !xoff.site && involves_top({xon.layer})) {
      out_.Add(*xon.site, Pfc::kXonBytesFieldNumber,
               "needs a static xoff_bytes: a dynamic XOFF moves, so XON is given as "
               "xon_offset_bytes below it" +
                   scope);
    } else if (xon.site && xoff.site && xon.value > xoff.value &&
               involves_top({xon.layer, xoff.layer})) {
      report(xon, Pfc::kXonBytesFieldNumber, xoff, Pfc::kXoffBytesFieldNumber,
             "must be <= xoff_bytes (" + Num(xoff.value) + "), got " + Num(xon.value),
             "must be >= xon_bytes (" + Num(xon.value) + "), got " + Num(xoff.value));
    }

    const Wred& wred_default = Wred::default_instance();
    for (int p = 0; p < kPriorities; ++p) {
      const auto wred_of = [p](const SwitchLayer& l) { return WredOf(l, p); };
      const auto kmin = Resolve(
          layers, wred_of, [](const Wred& w) { return w.has_kmin_bytes(); },
          [](const Wred& w) { return w.kmin_bytes(); }, wred_default.kmin_bytes());
      const auto kmax = Resolve(
          layers, wred_of, [](const Wred& w) { return w.has_kmax_bytes(); },
          [](const Wred& w) { return w.kmax_bytes(); }, wred_default.kmax_bytes());
      if (kmin.value > kmax.value && involves_top({kmin.layer, kmax.layer})) {
        report(kmin, Wred::kKminBytesFieldNumber, kmax, Wred::kKmaxBytesFieldNumber,
               "must be <= kmax_bytes (" + Num(kmax.value) + "), got " + Num(kmin.value),
               "must be >= kmin_bytes (" + Num(kmin.value) + "), got " + Num(kmax.value));
      }
    }

    CheckBufferHoldsReserves(layers, scope, involves_top);
  }

  // Every port reserves reserved_bytes per queue, and headroom_bytes per lossless priority
  // while PFC is on, out of one buffer. A computed headroom is not known here and not counted.
  template <typename InvolvesTop>
  void CheckBufferHoldsReserves(const std::vector<SwitchLayer>& layers, const std::string& scope,
                                InvolvesTop involves_top) {
    if (!shape_) return;  // the port count comes from the topology
    const auto buffer = Resolve(
        layers,
        [](const SwitchLayer& l) { return std::make_optional(std::make_pair(l.config, l.site)); },
        [](const SwitchConfig& c) { return c.has_buffer_bytes(); },
        [](const SwitchConfig& c) { return c.buffer_bytes(); },
        SwitchConfig::default_instance().buffer_bytes());
    const auto pfc_on = Resolve(
        layers, PfcOf, [](const Pfc& p) { return p.has_enabled(); },
        [](const Pfc& p) { return p.enabled(); }, Pfc::default_instance().enabled());
    const auto headroom = Resolve(
        layers, PfcOf, [](const Pfc& p) { return p.has_headroom_bytes(); },
        [](const Pfc& p) { return p.headroom_bytes(); }, int64_t{0});
    int last_layer = std::max({buffer.layer, pfc_on.layer, headroom.layer});
    double per_port_bytes = 0;  // double: a sum of int64 values must not overflow
    for (int p = 0; p < kPriorities; ++p) {
      const auto queue_of = [p](const SwitchLayer& l) { return QueueOf(l, p); };
      const auto reserved = Resolve(
          layers, queue_of, [](const QueueConfig& q) { return q.has_reserved_bytes(); },
          [](const QueueConfig& q) { return q.reserved_bytes(); },
          QueueConfig::default_instance().reserved_bytes());
      const auto lossless = Resolve(
          layers, queue_of, [](const QueueConfig& q) { return q.has_lossless(); },
          [](const QueueConfig& q) { return q.lossless(); }, p == kRoceLosslessPriority);
      per_port_bytes += static_cast<double>(reserved.value);
      if (pfc_on.value && lossless.value) per_port_bytes += static_cast<double>(headroom.value);
      last_layer = std::max({last_layer, reserved.layer, lossless.layer});
    }
    const double need_bytes = per_port_bytes * shape_->k;
    if (static_cast<double>(buffer.value) >= need_bytes || !involves_top({last_layer})) return;
    const std::string message =
        "must hold the reserves of all " + std::to_string(shape_->k) + " ports, " +
        std::to_string(shape_->k) + " x " + Num(per_port_bytes) + " = " + Num(need_bytes) +
        " bytes (queue reserved_bytes, plus pfc.headroom_bytes per lossless priority), got " +
        Num(buffer.value) + scope;
    out_.Add(buffer.site ? *buffer.site : layers.back().site, SwitchConfig::kBufferBytesFieldNumber,
             message);
  }

  // The checks above cannot know a headroom the fabric derives from each port's link (its rate
  // and a cable as long as its delay): build each tier's switch configuration as the fabric
  // will, so that a buffer too small for it is refused here, with the file and line, rather
  // than when the run starts. Only once everything else about the switches holds, so that an
  // error is reported once, at its field.
  void CheckNicBuilds(const Site& s) {
    if (!out_.empty()) return;
    const StatusOr<dp::NicParams> nic = BuildNicParams(scenario_.nic());
    if (!nic.ok()) out_.AddWhole(s, "the NICs cannot be built: " + nic.status().message());
  }

  // Reports a failure at `field` of s; `settings` qualifies which switch settings were used.
  void CheckSwitchesBuild(const Site& s, int field, const std::string& settings) {
    if (!out_.empty() || !shape_ || !shape_->link_rate_gbps || !shape_->link_delay_ns) return;
    dp::FabricParams params;
    StatusOr<dp::NicParams> nic = BuildNicParams(scenario_.nic());
    if (!nic.ok()) return;  // reported by CheckNicBuilds
    params.nic = *nic;
    ApplySwitchSection(scenario_.switch_(), &params);
    const std::vector<dp::PortLink> ports(
        shape_->k,
        dp::PortLink{Rate::FromGbps(*shape_->link_rate_gbps), TimeFromNs(*shape_->link_delay_ns)});
    for (const auto& [tier, name] :
         {std::pair{fabric_emu::EDGE, "edge"}, std::pair{fabric_emu::AGGREGATION, "aggregation"},
          std::pair{fabric_emu::CORE, "core"}}) {
      const StatusOr<dp::SwitchConfig> config =
          dp::Compile(dp::SwitchParamsOf(params, 0, static_cast<uint8_t>(tier)), ports);
      if (!config.ok()) {
        out_.Add(s, field,
                 std::string("the ") + name + " switches cannot be built" + settings + ": " +
                     config.status().message());
        return;
      }
    }
  }

  // ---------------------------------------------------------------- NIC

  void CheckNic(const Site& s) {
    const NicConfig& nic = scenario_.nic();
    out_.InRange(s, NicConfig::kMtuPayloadBytesFieldNumber, nic.mtu_payload_bytes(),
                 kMinMtuPayloadBytes, kMaxMtuPayloadBytes,
                 "256: the smallest RoCE path MTU; 9000: with its headers a packet still fits a "
                 "9216-byte jumbo frame");
    out_.AtLeast(s, NicConfig::kAckEveryPacketsFieldNumber, nic.ack_every_packets(), 1);
    Duration(s, NicConfig::kCnpIntervalNsFieldNumber, nic.cnp_interval_ns(), false);
    if (nic.has_transport()) {
      // Below a microsecond a timeout fires before any round trip can end, and the senders
      // flood the fabric with resends; IB's longest local ACK timeout is 4.096 us x 2^31.
      out_.InRange(s.Nested(NicConfig::kTransportFieldNumber),
                   fabric_emu::Transport::kRetransmitTimeoutNsFieldNumber,
                   nic.transport().retransmit_timeout_ns(), 1e3, 1e13,
                   "in ns: from 1 us to 1e13 ns (2.8 hours)");
    }
    if (nic.has_cc()) CheckCongestionControl(s.Nested(NicConfig::kCcFieldNumber));
  }

  void CheckCongestionControl(const Site& s) {
    const CongestionControl& cc = scenario_.nic().cc();
    switch (cc.algorithm_case()) {
      case CongestionControl::kNone:
        return;
      case CongestionControl::kDcqcn:
        CheckDcqcn(cc.dcqcn(), s.Nested(CongestionControl::kDcqcnFieldNumber));
        return;
      case CongestionControl::kHpcc:
        CheckHpcc(cc.hpcc(), s.Nested(CongestionControl::kHpccFieldNumber));
        return;
      case CongestionControl::ALGORITHM_NOT_SET:
        out_.AddWhole(s, "choose one of none {}, dcqcn { ... }, hpcc { ... }");
        return;
    }
  }

  // A rate floor: at least min_mbps, and at most the line rate (the fastest there is when the
  // topology gives none).
  void CheckMinRateMbps(const Site& s, int field, double rate_mbps, double min_mbps,
                        const std::string& why) {
    const double max_mbps =
        (shape_ && shape_->link_rate_gbps ? *shape_->link_rate_gbps : kMaxLinkRateGbps) * 1000;
    out_.InRange(s, field, rate_mbps, min_mbps, max_mbps, why);
  }
  // A DCQCN timer: the NIC replays every expiry up to a paced packet's start, so a period far
  // below the gap between packets at the floor rate would be replayed millions of times.
  void CheckDcqcnPeriod(const Site& s, int field, double ns) {
    out_.InRange(s, field, ns, kMinDcqcnPeriodNs, kMaxScenarioTimeNs,
                 "in ns: DCQCN's timers run in microseconds; at most 11.6 days");
  }
  // A rate step: 0 up to the fastest link.
  void CheckRateStepMbps(const Site& s, int field, double rate_mbps) {
    out_.InRange(s, field, rate_mbps, 0.0, kMaxLinkRateGbps * 1000,
                 "in Mb/s: at most the fastest link");
  }

  void CheckDcqcn(const Dcqcn& d, const Site& s) {
    if (d.preset() == Dcqcn::PRESET_UNSPECIFIED) {
      out_.Add(s, Dcqcn::kPresetFieldNumber, "must be PAPER or NVIDIA");
    }
    // Overrides are checked only when given: unset ones take the preset's value.
    if (d.has_g()) out_.AboveUpTo(s, Dcqcn::kGFieldNumber, d.g(), 0.0, 1.0);
    if (d.has_initial_alpha()) {
      out_.InRange(s, Dcqcn::kInitialAlphaFieldNumber, d.initial_alpha(), 0.0, 1.0);
    }
    if (d.has_alpha_update_period_ns()) {
      CheckDcqcnPeriod(s, Dcqcn::kAlphaUpdatePeriodNsFieldNumber, d.alpha_update_period_ns());
    }
    if (d.has_rate_reduce_monitor_period_ns()) {
      Duration(s, Dcqcn::kRateReduceMonitorPeriodNsFieldNumber, d.rate_reduce_monitor_period_ns(),
               false);
    }
    if (d.has_min_decrease_factor()) {
      out_.FromBelow(s, Dcqcn::kMinDecreaseFactorFieldNumber, d.min_decrease_factor(), 0.0, 1.0);
    }
    if (d.has_increase_timer_period_ns()) {
      CheckDcqcnPeriod(s, Dcqcn::kIncreaseTimerPeriodNsFieldNumber, d.increase_timer_period_ns());
    }
    if (d.has_byte_counter_bytes()) {
      out_.Above<int64_t>(s, Dcqcn::kByteCounterBytesFieldNumber, d.byte_counter_bytes(), 0);
    }
    if (d.has_fast_recovery_steps()) {
      out_.AtLeast(s, Dcqcn::kFastRecoveryStepsFieldNumber, d.fast_recovery_steps(), 0);
    }
    if (d.has_additive_increase_mbps()) {
      CheckRateStepMbps(s, Dcqcn::kAdditiveIncreaseMbpsFieldNumber, d.additive_increase_mbps());
    }
    if (d.has_hyper_increase_mbps()) {
      CheckRateStepMbps(s, Dcqcn::kHyperIncreaseMbpsFieldNumber, d.hyper_increase_mbps());
    }
    if (d.has_min_rate_mbps()) {
      CheckMinRateMbps(s, Dcqcn::kMinRateMbpsFieldNumber, d.min_rate_mbps(), kMinDcqcnRateMbps,
                       "in Mb/s: 1 (ConnectX's smallest rpg_min_rate) up to the link rate");
    }
  }

  void CheckHpcc(const Hpcc& h, const Site& s) {
    out_.AboveUpTo(s, Hpcc::kEtaFieldNumber, h.eta(), 0.0, 1.0, "a target utilisation");
    out_.AtLeast(s, Hpcc::kMaxStageFieldNumber, h.max_stage(), 0);
    out_.AtLeast<int64_t>(s, Hpcc::kWAiBytesFieldNumber, h.w_ai_bytes(), 0);
    out_.AtLeast(s, Hpcc::kExpectedFlowsFieldNumber, h.expected_flows(), 1);
    CheckMinRateMbps(s, Hpcc::kMinRateMbpsFieldNumber, h.min_rate_mbps(), kMinRateMbps,
                     "in Mb/s: 1 b/s up to the link rate");
  }

  // ---------------------------------------------------------------- traffic

  // Returns how many messages the section makes (a cdf_load: how many on average).
  double CheckTraffic(const Traffic& t, const Site& s) {
    out_.InRange(s, Traffic::kDscpFieldNumber, t.dscp(), 0, kMaxDscp);
    switch (t.pattern_case()) {
      case Traffic::kPermutation: {
        const Site ps = s.Nested(Traffic::kPermutationFieldNumber);
        const Permutation& p = t.permutation();
        CheckMessageBytes(ps, Permutation::kMessageBytesFieldNumber, p.has_message_bytes(),
                          p.message_bytes());
        Duration(ps, Permutation::kStartNsFieldNumber, p.start_ns(), false);
        return shape_ ? static_cast<double>(shape_->hosts) : 0;
      }
      case Traffic::kIncast: {
        const Site is = s.Nested(Traffic::kIncastFieldNumber);
        const Incast& inc = t.incast();
        if (out_.Present(is, Incast::kSendersFieldNumber, inc.has_senders(),
                         "the number of senders")) {
          if (shape_) {
            out_.InRange<int64_t>(is, Incast::kSendersFieldNumber, inc.senders(), 1,
                                  shape_->hosts - 1,
                                  "every host but the receiver at most; " + shape_->Describe());
          } else {
            out_.AtLeast(is, Incast::kSendersFieldNumber, inc.senders(), 1);
          }
        }
        CheckHost(is, Incast::kReceiverHostFieldNumber, true, inc.receiver_host());
        CheckMessageBytes(is, Incast::kMessageBytesFieldNumber, inc.has_message_bytes(),
                          inc.message_bytes());
        Duration(is, Incast::kStartNsFieldNumber, inc.start_ns(), false);
        return inc.senders();
      }
      case Traffic::kFlowList:
        CheckFlowList(t.flow_list(), s.Nested(Traffic::kFlowListFieldNumber));
        return t.flow_list().flow_size();
      case Traffic::kCdfLoad:
        return CheckCdfLoad(t.cdf_load(), s.Nested(Traffic::kCdfLoadFieldNumber));
      case Traffic::PATTERN_NOT_SET:
        out_.AddWhole(s, "choose a pattern: permutation, incast, flow_list or cdf_load");
        return 0;
    }
    return 0;
  }

  void CheckFlowList(const fabric_emu::FlowList& list, const Site& s) {
    using fabric_emu::FlowList;
    out_.Present(s, FlowList::kFlowFieldNumber, list.flow_size() > 0,
                 "at least one flow { src_host dst_host message_bytes }");
    for (int i = 0; i < list.flow_size(); ++i) {
      const Flow& f = list.flow(i);
      const Site fs = s.Nested(FlowList::kFlowFieldNumber, i);
      CheckHost(fs, Flow::kSrcHostFieldNumber, f.has_src_host(), f.src_host());
      CheckHost(fs, Flow::kDstHostFieldNumber, f.has_dst_host(), f.dst_host());
      if (f.has_src_host() && f.has_dst_host() && f.src_host() == f.dst_host()) {
        out_.Add(fs, Flow::kDstHostFieldNumber,
                 "must differ from src_host: a flow crosses the fabric, got " +
                     std::to_string(f.dst_host()) + " twice");
      }
      CheckMessageBytes(fs, Flow::kMessageBytesFieldNumber, f.has_message_bytes(),
                        f.message_bytes());
      Duration(fs, Flow::kStartNsFieldNumber, f.start_ns(), false);
    }
  }

  // Returns the mean number of flows the load makes, once its table and the fabric are known.
  double CheckCdfLoad(const CdfLoad& c, const Site& s) {
    std::optional<FlowSizeCdf> sizes;
    if (out_.Present(s, CdfLoad::kCdfFileFieldNumber, !c.cdf_file().empty(),
                     "a flow-size CDF file")) {
      const std::filesystem::path file = scenario_dir_ / c.cdf_file();  // absolute stays
      std::error_code ec;
      if (!std::filesystem::exists(file, ec)) {
        out_.Add(s, CdfLoad::kCdfFileFieldNumber, "no such file: " + file.string());
      } else if (!std::filesystem::is_regular_file(file, ec)) {
        out_.Add(s, CdfLoad::kCdfFileFieldNumber, "not a regular file: " + file.string());
      } else if (StatusOr<FlowSizeCdf> cdf = FlowSizeCdf::FromFile(file.string()); !cdf.ok()) {
        // Read here as well as when the traffic is built: a bad table must stop the run before
        // it starts, with the scenario's line as well as the table's.
        out_.Add(s, CdfLoad::kCdfFileFieldNumber, cdf.status().message());
      } else if (cdf->points().back().size_bytes > static_cast<double>(kMaxMessageBytes)) {
        out_.Add(s, CdfLoad::kCdfFileFieldNumber,
                 file.string() +
                     ": sizes must be at most 2^31 bytes, the largest message of the "
                     "InfiniBand transport; the largest is " +
                     Num(cdf->points().back().size_bytes));
      } else if (cdf->MeanBytes() < 1) {
        out_.Add(s, CdfLoad::kCdfFileFieldNumber,
                 file.string() + ": the mean size is " + Num(cdf->MeanBytes()) +
                     " bytes; a load needs flows of a byte or more on average");
      } else {
        sizes = std::move(cdf).value();
      }
    }
    const bool load_ok =
        out_.Present(s, CdfLoad::kLoadFractionFieldNumber, c.has_load_fraction(),
                     "the offered load, a fraction of each host link's rate in (0, 1]") &&
        out_.AboveUpTo(s, CdfLoad::kLoadFractionFieldNumber, c.load_fraction(), 0.0, 1.0,
                       "a fraction of the host link rate");
    const bool duration_ok = out_.Present(s, CdfLoad::kDurationNsFieldNumber, c.has_duration_ns(),
                                          "how long flows keep arriving, in ns") &&
                             Duration(s, CdfLoad::kDurationNsFieldNumber, c.duration_ns(), true);
    Duration(s, CdfLoad::kStartNsFieldNumber, c.start_ns(), false);
    if (!sizes || !load_ok || !duration_ok || !shape_ || !shape_->link_rate_gbps) return 0;
    CdfLoadParams p;
    p.host_link_rate = Rate::FromGbps(*shape_->link_rate_gbps);
    p.load = c.load_fraction();
    return CdfLoadArrivalsPerHostPerSecond(p, *sizes) * static_cast<double>(shape_->hosts) *
           c.duration_ns() * 1e-9;
  }

  // ---------------------------------------------------------------- real time, capture

  void CheckRealtime(const Site& s) {
    const auto& rt = scenario_.realtime();
    if (const std::string why = dp::RefusedEalArgs(dp::SplitEalArgs(rt.eal_args())); !why.empty()) {
      out_.Add(s, fabric_emu::Realtime::kEalArgsFieldNumber, why);
    }
    std::map<int32_t, int> host_seen;
    std::map<std::string, int> device_seen;
    for (int i = 0; i < rt.port_size(); ++i) {
      const ExternalPort& p = rt.port(i);
      const Site ps = s.Nested(fabric_emu::Realtime::kPortFieldNumber, i);
      if (out_.Present(ps, ExternalPort::kDeviceArgsFieldNumber, !p.device_args().empty(),
                       "DPDK device arguments, e.g. \"net_af_packet0,iface=veth-a\"")) {
        // A device is named before its first comma; what follows are its options, so two
        // spellings of one device's options are still one device.
        const std::string& args = p.device_args();
        const std::string device = args.substr(0, args.find(','));
        if (std::any_of(args.begin(), args.end(),
                        [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
          out_.Add(
              ps, ExternalPort::kDeviceArgsFieldNumber,
              "must not contain white space (it becomes one EAL argument), got " + Quoted(args));
        } else if (const auto [it, fresh] = device_seen.emplace(device, i); !fresh) {
          out_.Add(ps, ExternalPort::kDeviceArgsFieldNumber,
                   "device " + device + " already used by " +
                       s.Path(fabric_emu::Realtime::kPortFieldNumber, it->second));
        }
      }
      CheckHost(ps, ExternalPort::kHostFieldNumber, p.has_host(), p.host());
      if (p.has_host()) {
        if (const auto [it, fresh] = host_seen.emplace(p.host(), i); !fresh) {
          out_.Add(ps, ExternalPort::kHostFieldNumber,
                   "host " + std::to_string(p.host()) + " is already attached to " +
                       s.Path(fabric_emu::Realtime::kPortFieldNumber, it->second));
        }
      }
    }
  }

  void CheckCapture(const Site& s) {
    const auto& cap = scenario_.capture();
    using fabric_emu::Capture;
    out_.Present(s, Capture::kPortFieldNumber, cap.port_size() > 0,
                 "at least one port { host: N } or port { switch_port { ... } }");
    if (out_.Present(s, Capture::kFileFieldNumber, !cap.file().empty(), "an output file name")) {
      if (!IsPlainName(cap.file())) {
        out_.Add(s, Capture::kFileFieldNumber,
                 "must be a file name in the output directory: 1 to 64 letters, digits, '_', '-' "
                 "or '.', not starting with '.'; got " +
                     Quoted(cap.file()));
      } else if (cap.file() == "summary.json" || cap.file() == "flows.csv" ||
                 cap.file() == "rates.csv" || cap.file() == "queues.csv") {
        out_.Add(s, Capture::kFileFieldNumber,
                 "must not be the name of another output of the run, got " + Quoted(cap.file()));
      }
    }
    for (int i = 0; i < cap.port_size(); ++i) {
      const PortSelector& sel = cap.port(i);
      const Site ss = s.Nested(Capture::kPortFieldNumber, i);
      switch (sel.node_case()) {
        case PortSelector::kHost:
          CheckHost(ss, PortSelector::kHostFieldNumber, true, sel.host());
          break;
        case PortSelector::kSwitchPort:
          CheckSwitchPort(sel.switch_port(), ss.Nested(PortSelector::kSwitchPortFieldNumber));
          break;
        case PortSelector::NODE_NOT_SET:
          out_.AddWhole(ss, "choose host: N or switch_port { tier: ... index: ... port: ... }");
          break;
      }
    }
  }

  void CheckSwitchPort(const SwitchPortRef& ref, const Site& s) {
    const bool tier_set = ref.tier() != fabric_emu::SWITCH_TIER_UNSPECIFIED;
    out_.Present(s, SwitchPortRef::kTierFieldNumber, tier_set, "EDGE, AGGREGATION or CORE");
    if (out_.Present(s, SwitchPortRef::kIndexFieldNumber, ref.has_index(),
                     "the switch's index within its tier")) {
      if (shape_ && tier_set) {
        const int count = shape_->switches_per_tier.at(ref.tier());
        out_.InRange(s, SwitchPortRef::kIndexFieldNumber, ref.index(), 0, count - 1,
                     "the tier has " + std::to_string(count) + " switches");
      } else {
        out_.AtLeast(s, SwitchPortRef::kIndexFieldNumber, ref.index(), 0);
      }
    }
    if (out_.Present(s, SwitchPortRef::kPortFieldNumber, ref.has_port(), "a port number")) {
      if (shape_) {
        out_.InRange(s, SwitchPortRef::kPortFieldNumber, ref.port(), 0, shape_->k - 1,
                     "every switch has k ports");
      } else {
        out_.AtLeast(s, SwitchPortRef::kPortFieldNumber, ref.port(), 0);
      }
    }
  }

  const Scenario& scenario_;
  const std::filesystem::path scenario_dir_;  // relative paths inside the scenario start here
  const Site root_;
  Findings out_;
  std::optional<FabricShape> shape_;
};

}  // namespace

std::vector<std::string> ValidateScenario(const Scenario& scenario,
                                          const pb::TextFormat::ParseInfoTree& locations,
                                          const std::string& display_name) {
  return Validator(scenario, locations, display_name).Run();
}

}  // namespace fe::control
