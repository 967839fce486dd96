#include "traffic/trace/htsim.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "traffic/trace/text.h"

namespace fe {
namespace {

constexpr char kNoFailures[] =
    "failures are not replayed from a connection matrix: describe them in the scenario's "
    "topology { failure { ... } }";

// A header line's number and where it was.
struct Header {
  uint64_t value = 0;
  uint32_t line = 0;
};

struct Connection {
  uint32_t line = 0;
  Flow flow;
  uint64_t trigger = 0;  // 0: starts at flow.start
  uint64_t send_done_trigger = 0;
  uint64_t recv_done_trigger = 0;
};

struct TriggerDef {
  enum class Type { kOneShot, kBarrier };
  uint32_t line = 0;  // 0: used but not defined (yet)
  Type type = Type::kOneShot;
  uint64_t count = 0;
  uint32_t first_use_line = 0;
  std::vector<uint32_t> activators;  // connections, in file order; one per activation
  uint32_t targets = 0;
};

class HtsimReader {
 public:
  explicit HtsimReader(const TraceParams& params) : params_(params) {}

  StatusOr<Workload> Read(std::string_view text);

 private:
  Status Line(uint32_t line, const std::vector<std::string_view>& tokens);
  Status HeaderLine(uint32_t line, const std::vector<std::string_view>& tokens);
  Status ConnectionLine(uint32_t line, const std::vector<std::string_view>& tokens);
  Status TriggerLine(uint32_t line, const std::vector<std::string_view>& tokens);
  // The trigger id after a keyword, noted as used at this line.
  Status UseTrigger(uint32_t line, std::string_view keyword, std::string_view value, uint64_t* id);
  Status CheckCounts(uint32_t last_line) const;
  Status CheckTriggers();
  Status Error(uint32_t line, const std::string& reason) const {
    return TraceLineError(params_, line, reason);
  }

  const TraceParams& params_;
  std::optional<Header> nodes_, connections_, triggers_;
  bool in_body_ = false;  // past the headers
  std::vector<Connection> conns_;
  std::map<uint64_t, uint32_t> line_of_flow_id_;
  std::map<uint64_t, TriggerDef> trigger_defs_;  // ordered: errors come in id order
  uint32_t defined_triggers_ = 0;
};

Status HtsimReader::HeaderLine(uint32_t line, const std::vector<std::string_view>& tokens) {
  const std::string name(tokens[0]);
  if (name == "Failures") return Error(line, kNoFailures);
  if (in_body_) {
    return Error(line, "header `" + name + "` after the first connection or trigger: the " +
                           "headers come first");
  }
  const std::optional<uint64_t> v = tokens.size() == 2 ? ParseWhole(tokens[1]) : std::nullopt;
  if (!v) return Error(line, "expected `" + name + " N` with N a whole number");
  std::optional<Header>& h = name == "Nodes"         ? nodes_
                             : name == "Connections" ? connections_
                                                     : triggers_;
  if (h) {
    return Error(line, "a second `" + name + "` header (the first is on line " +
                           std::to_string(h->line) + ")");
  }
  h = Header{*v, line};
  return Status::Ok();
}

Status HtsimReader::UseTrigger(uint32_t line, std::string_view keyword, std::string_view value,
                               uint64_t* id) {
  const std::optional<uint64_t> v = ParseWhole(value);
  if (!v || *v == 0) {
    return Error(line, "`" + std::string(keyword) + "` takes a trigger id, a whole number >= 1, " +
                           "got '" + std::string(value) + "'");
  }
  TriggerDef& t = trigger_defs_[*v];
  if (t.first_use_line == 0) t.first_use_line = line;
  *id = *v;
  return Status::Ok();
}

Status HtsimReader::ConnectionLine(uint32_t line, const std::vector<std::string_view>& tokens) {
  if (!nodes_) return Error(line, "a connection before the `Nodes N` header");
  if (!connections_) return Error(line, "a connection before the `Connections C` header");
  const std::string_view pair = tokens[0];
  const size_t arrow = pair.find("->");
  const std::optional<uint64_t> src = ParseWhole(pair.substr(0, arrow));
  const std::optional<uint64_t> dst = ParseWhole(pair.substr(arrow + 2));
  if (!src || !dst) {
    return Error(line,
                 "expected `src->dst` with two node numbers, got '" + std::string(pair) + "'");
  }
  Connection c;
  c.line = line;
  std::string reason;
  for (const uint64_t node : {*src, *dst}) {
    if (node >= nodes_->value) {
      return Error(line, "node " + std::to_string(node) + " is not below `Nodes " +
                             std::to_string(nodes_->value) + "` (line " +
                             std::to_string(nodes_->line) + ")");
    }
  }
  if (!TraceHost(params_, *src, &c.flow.src_host, &reason) ||
      !TraceHost(params_, *dst, &c.flow.dst_host, &reason)) {
    return Error(line, reason);
  }
  if (c.flow.src_host == c.flow.dst_host) {
    return Error(line, "source and destination are both host " + std::to_string(c.flow.src_host) +
                           ": a message crosses the fabric");
  }
  std::optional<uint64_t> start_ps, size, flow_id;
  std::vector<std::string_view> seen;  // keys given so far: one value each
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string key(tokens[i]);
    if (key == "addon") continue;  // an htsim-internal flag with no bearing on the traffic
    if (std::ranges::find(seen, tokens[i]) != seen.end()) {
      return Error(line, "`" + key + "` is given twice");
    }
    seen.push_back(tokens[i]);
    if (i + 1 == tokens.size()) return Error(line, "`" + key + "` needs a value after it");
    const std::string_view value = tokens[++i];
    const auto bad = [&](const std::string& what) {
      if (IsDigits(value) && !ParseWhole(value)) {
        return Error(line, "`" + key + "` " + NotWholeReason(value));
      }
      return Error(line, "`" + key + "` takes " + what + ", got '" + std::string(value) + "'");
    };
    if (key == "start") {
      start_ps = ParseDecimalScaled(value, 6);  // microseconds
      if (!start_ps) return bad("a time in microseconds, a decimal >= 0");
    } else if (key == "size") {
      size = ParseWhole(value);
      if (!size) return bad("a size in bytes, a whole number");
    } else if (key == "id") {
      flow_id = ParseWhole(value);
      if (!flow_id || *flow_id == 0) return bad("a flow id, a whole number >= 1");
    } else if (key == "prio") {
      if (!ParseWhole(value)) return bad("a whole number");  // the section's dscp sets the class
    } else if (key == "trigger" || key == "send_done_trigger" || key == "recv_done_trigger") {
      uint64_t& slot = key == "trigger"             ? c.trigger
                       : key == "send_done_trigger" ? c.send_done_trigger
                                                    : c.recv_done_trigger;
      if (Status s = UseTrigger(line, key, value, &slot); !s.ok()) return s;
    } else {
      return Error(line, "unknown token `" + key +
                             "`; a connection takes start, size, id, trigger, "
                             "send_done_trigger, recv_done_trigger, prio and addon");
    }
  }
  if (start_ps && c.trigger != 0) return Error(line, "both `start` and `trigger`: choose one");
  if (!start_ps && c.trigger == 0) return Error(line, "no `start T` and no `trigger N`");
  if (c.trigger != 0 && !flow_id) {
    return Error(line, "a connection started by a trigger needs an `id` (as htsim demands)");
  }
  if (!size) return Error(line, "no `size B`: without one htsim sends forever");
  if (!TraceMessageBytes(params_, *size, &reason)) return Error(line, reason);
  c.flow.size_bytes = *size;
  if (flow_id) {
    const auto [it, fresh] = line_of_flow_id_.emplace(*flow_id, line);
    if (!fresh) {
      return Error(line, "id " + std::to_string(*flow_id) + " is also the id on line " +
                             std::to_string(it->second));
    }
  }
  c.flow.start = params_.start;
  if (start_ps) {
    Time t;
    if (!ScaledTraceTime(params_, *start_ps, "start", &t, &reason)) return Error(line, reason);
    c.flow.start += t;
  }
  const auto index = static_cast<uint32_t>(conns_.size());
  if (c.trigger != 0) ++trigger_defs_[c.trigger].targets;
  for (const uint64_t t : {c.send_done_trigger, c.recv_done_trigger}) {
    if (t != 0) trigger_defs_[t].activators.push_back(index);
  }
  conns_.push_back(c);
  return Status::Ok();
}

Status HtsimReader::TriggerLine(uint32_t line, const std::vector<std::string_view>& tokens) {
  std::optional<uint64_t> id, count;
  std::optional<TriggerDef::Type> type;
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string key(tokens[i]);
    if (key == "oneshot" || key == "barrier" || key == "multishot") {
      if (type) return Error(line, "a second trigger type `" + key + "`");
      if (key == "multishot") {
        return Error(line,
                     "multishot triggers are not replayed: one starts its k-th target at its "
                     "k-th activation, whichever connection that is, and a replayed message "
                     "waits for named messages; use oneshot or barrier triggers");
      }
      type = key == "oneshot" ? TriggerDef::Type::kOneShot : TriggerDef::Type::kBarrier;
    } else if (key == "id" || key == "count") {
      if (i + 1 == tokens.size()) return Error(line, "`" + key + "` needs a value after it");
      const std::optional<uint64_t> v = ParseWhole(tokens[++i]);
      if (!v || (key == "id" && *v == 0)) {
        return Error(line, "`" + key + "` takes a whole number" + (key == "id" ? " >= 1" : "") +
                               ", got '" + std::string(tokens[i]) + "'");
      }
      (key == "id" ? id : count) = v;
    } else {
      return Error(
          line, "unknown token `" + key + "`; a trigger takes id, oneshot or barrier, and count");
    }
  }
  if (!id) return Error(line, "a trigger with no `id`");
  if (!type)
    return Error(line, "trigger " + std::to_string(*id) + " has no type: oneshot or barrier");
  TriggerDef& t = trigger_defs_[*id];
  if (t.line != 0) {
    return Error(line, "trigger " + std::to_string(*id) + " is also defined on line " +
                           std::to_string(t.line));
  }
  t.line = line;
  t.type = *type;
  t.count = count.value_or(0);
  ++defined_triggers_;
  return Status::Ok();
}

Status HtsimReader::Line(uint32_t line, const std::vector<std::string_view>& tokens) {
  const std::string_view first = tokens[0];
  if (first == "Nodes" || first == "Connections" || first == "Triggers" || first == "Failures") {
    return HeaderLine(line, tokens);
  }
  if (first.find("->") != std::string_view::npos) {
    in_body_ = true;
    return ConnectionLine(line, tokens);
  }
  if (first == "trigger") {
    in_body_ = true;
    return TriggerLine(line, tokens);
  }
  if (first == "failure") return Error(line, kNoFailures);
  return Error(line, "unknown line starting '" + std::string(first) +
                         "'; expected a header (Nodes, Connections, Triggers), a connection "
                         "`src->dst ...` or a `trigger id ...`");
}

Status HtsimReader::CheckCounts(uint32_t last_line) const {
  if (!nodes_) return Error(std::max(last_line, 1u), "no `Nodes N` header");
  if (!connections_) return Error(std::max(last_line, 1u), "no `Connections C` header");
  if (conns_.size() != connections_->value) {
    return Error(connections_->line, "`Connections " + std::to_string(connections_->value) +
                                         "`, but the file has " + std::to_string(conns_.size()));
  }
  const uint64_t promised = triggers_ ? triggers_->value : 0;
  if (defined_triggers_ != promised) {
    return Error(triggers_ ? triggers_->line : nodes_->line,
                 "`Triggers " + std::to_string(promised) + "`" + (triggers_ ? "" : " (no header)") +
                     ", but the file defines " + std::to_string(defined_triggers_));
  }
  return Status::Ok();
}

Status HtsimReader::CheckTriggers() {
  for (const auto& [id, t] : trigger_defs_) {
    const std::string name = "trigger " + std::to_string(id);
    if (t.line == 0) {
      return Error(t.first_use_line, name + " is not defined: add a line `trigger id " +
                                         std::to_string(id) +
                                         " oneshot` (or barrier with a count)");
    }
    const size_t activations = t.activators.size();
    if (t.type == TriggerDef::Type::kOneShot && activations > 1) {
      return Error(t.line, name + " is oneshot but " + std::to_string(activations) +
                               " connections activate it (lines " +
                               std::to_string(conns_[t.activators[0]].line) + " and " +
                               std::to_string(conns_[t.activators[1]].line) +
                               "); a oneshot trigger fires once: use a barrier with count " +
                               std::to_string(activations));
    }
    if (t.type == TriggerDef::Type::kBarrier && activations != t.count) {
      return Error(t.line, name + " is a barrier of count " + std::to_string(t.count) + ", but " +
                               std::to_string(activations) +
                               " connections activate it: it fires once all of them are done");
    }
    if (t.targets > 0 && activations == 0) {
      return Error(t.line, name + " starts " + std::to_string(t.targets) +
                               " connections but no connection's send_done_trigger or "
                               "recv_done_trigger names it: they would never start");
    }
  }
  return Status::Ok();
}

StatusOr<Workload> HtsimReader::Read(std::string_view text) {
  TraceLines lines(text);
  std::string_view line;
  uint32_t last = 0;
  while (lines.Next(&line)) {
    last = lines.number();
    const std::vector<std::string_view> tokens = Tokens(line);
    if (tokens.empty() || tokens[0][0] == '#') continue;
    if (Status s = Line(last, tokens); !s.ok()) return s;
  }
  if (Status s = CheckCounts(last); !s.ok()) return s;
  if (Status s = CheckTriggers(); !s.ok()) return s;

  Workload w;
  w.jobs.push_back(params_.job);
  w.flows.reserve(conns_.size());
  std::vector<uint32_t> line_of;
  line_of.reserve(conns_.size());
  std::vector<uint32_t> deps;
  for (const Connection& c : conns_) {
    deps.clear();
    if (c.trigger != 0) {
      deps = trigger_defs_.at(c.trigger).activators;
      // A connection naming the trigger twice (send and receive done) is one dependency.
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    }
    w.Add(c.flow, deps);
    line_of.push_back(c.line);
  }
  if (Status s = CheckTraceDependencies(w, line_of, params_); !s.ok()) return s;
  return w;
}

}  // namespace

StatusOr<Workload> ParseHtsimTrace(std::string_view text, const TraceParams& params) {
  return HtsimReader(params).Read(text);
}

}  // namespace fe
