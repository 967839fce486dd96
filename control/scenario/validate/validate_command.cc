#include "control/scenario/validate/validate_command.h"

#include <optional>
#include <string>

#include "control/scenario/command_json.h"
#include "control/scenario/failure_schedule.h"
#include "control/scenario/validate/validate_switch.h"
#include "core/printable.h"

namespace fe::control {
namespace {

using fabric_emu::Command;
using fabric_emu::SetDcqcn;
using fabric_emu::SetEcn;
using fabric_emu::SetLink;
using fabric_emu::SetPfc;
using fabric_emu::Wred;

// Fields the switch-selecting commands share, at the same numbers.
static_assert(int{SetEcn::kSwitchNameFieldNumber} == int{SetPfc::kSwitchNameFieldNumber} &&
              int{SetEcn::kRoleFieldNumber} == int{SetPfc::kRoleFieldNumber});

// The switches a command names: by name, or a role; neither, every switch. Returns the most
// ports one of them has (0 when the fabric is unknown or nothing matched).
template <typename M>
size_t CheckSwitches(Validation& v, const M& m, const Site& s) {
  const int name_field = SetEcn::kSwitchNameFieldNumber;
  const int role_field = SetEcn::kRoleFieldNumber;
  if (m.has_role() && m.switch_name_size() > 0) {
    v.out.Add(s, role_field, "give switch_name or role, not both");
    return 0;
  }
  if (!v.graph) return 0;
  size_t ports = 0;
  if (m.has_role()) {
    for (const topo::Node& n : v.graph->nodes()) {
      if (n.kind == topo::NodeKind::kSwitch && n.role == m.role()) {
        ports = std::max(ports, n.links.size());
      }
    }
    if (ports == 0) {
      v.out.Add(s, role_field,
                "no switch has role " + Quoted(m.role()) + "; the roles are " + RolesOf(*v.graph));
    }
    return ports;
  }
  if (m.switch_name_size() == 0) {
    for (const topo::Node& n : v.graph->nodes()) {
      if (n.kind == topo::NodeKind::kSwitch) ports = std::max(ports, n.links.size());
    }
    return ports;
  }
  for (int i = 0; i < m.switch_name_size(); ++i) {
    const std::optional<topo::NodeId> node = v.graph->FindNode(m.switch_name(i));
    if (!node || v.graph->node(*node).kind != topo::NodeKind::kSwitch) {
      v.out.AddAt(s.Line(name_field, i), s.Path(name_field, i),
                  "no switch is named " + Quoted(m.switch_name(i)) +
                      " (switches are named role + index, e.g. leaf3)");
      continue;
    }
    ports = std::max(ports, v.graph->node(*node).links.size());
  }
  return ports;
}

void CheckPriority(Validation& v, const Site& s, int field, bool has, int32_t priority) {
  if (v.out.Present(s, field, has, "a priority, 0..7")) {
    v.out.InRange(s, field, priority, 0, kPriorities - 1);
  }
}

void CheckSetEcn(Validation& v, const SetEcn& c, const Site& s) {
  CheckSwitches(v, c, s);
  CheckPriority(v, s, SetEcn::kPriorityFieldNumber, c.has_priority(), c.priority());
  if (!v.out.Present(s, SetEcn::kWredFieldNumber, c.has_wred(),
                     "the queue's WRED profile, e.g. wred { kmin_bytes: 20000 }")) {
    return;
  }
  const Site ws = s.Nested(SetEcn::kWredFieldNumber);
  const Wred& w = c.wred();
  CheckWredFields(v, w, ws);
  // The whole profile is given (unset fields take the schema's defaults): the scenario's rule
  // between its layers applies to it alone, with that rule's message.
  if (w.kmin_bytes() > w.kmax_bytes()) {
    v.out.Add(
        ws, w.has_kmin_bytes() ? Wred::kKminBytesFieldNumber : Wred::kKmaxBytesFieldNumber,
        w.has_kmin_bytes()
            ? "must be <= kmax_bytes (" + Num(w.kmax_bytes()) + "), got " + Num(w.kmin_bytes())
            : "must be >= kmin_bytes (" + Num(w.kmin_bytes()) + "), got " + Num(w.kmax_bytes()));
  }
}

void CheckSetPfc(Validation& v, const SetPfc& c, const Site& s) {
  const size_t ports = CheckSwitches(v, c, s);
  if (c.has_port() && (c.port() < 0 || (ports > 0 && static_cast<size_t>(c.port()) >= ports))) {
    v.out.Add(s, SetPfc::kPortFieldNumber,
              "must be a local port in [0, " +
                  (ports > 0 ? std::to_string(ports - 1) : std::string("ports-1")) +
                  "] of the switches named, got " + std::to_string(c.port()));
  }
  CheckPriority(v, s, SetPfc::kPriorityFieldNumber, c.has_priority(), c.priority());
  v.out.Present(s, SetPfc::kEnabledFieldNumber, c.has_enabled(), "enabled: true or false");
}

void CheckSetDcqcn(Validation& v, const SetDcqcn& c, const Site& s) {
  if (!v.scenario.nic().cc().has_dcqcn()) {
    v.out.AddWhole(s, "the NICs do not run DCQCN (nic.cc has no dcqcn section)");
    return;
  }
  for (int i = 0; i < c.host_size(); ++i) {
    v.CheckHost(s, SetDcqcn::kHostFieldNumber, true, c.host(i));
  }
  if (v.out.Present(s, SetDcqcn::kDcqcnFieldNumber, c.has_dcqcn(),
                    "the parameters to change, e.g. dcqcn { min_rate_mbps: 1000 }")) {
    CheckDcqcn(v, c.dcqcn(), s.Nested(SetDcqcn::kDcqcnFieldNumber));
  }
}

void CheckSetLink(Validation& v, const SetLink& c, const Site& s) {
  const int field = SetLink::kLinkFieldNumber;
  if (!v.out.Present(s, field, c.has_link(), "link { a: \"leaf0\" b: \"spine0\" }") || !v.graph) {
    return;
  }
  const StatusOr<FailureTarget> target = ResolveLink(c.link(), *v.graph, s.Path(field));
  if (target.ok()) return;
  v.out.AddAt(s.Line(field), target.status().field_path(), target.status().reason());
}

}  // namespace

void CheckCommand(Validation& v, const Command& command, const Site& s) {
  switch (command.command_case()) {
    case Command::kSetEcn:
      return CheckSetEcn(v, command.set_ecn(), s.Nested(Command::kSetEcnFieldNumber));
    case Command::kSetPfc:
      return CheckSetPfc(v, command.set_pfc(), s.Nested(Command::kSetPfcFieldNumber));
    case Command::kSetDcqcn:
      return CheckSetDcqcn(v, command.set_dcqcn(), s.Nested(Command::kSetDcqcnFieldNumber));
    case Command::kSetLink:
      return CheckSetLink(v, command.set_link(), s.Nested(Command::kSetLinkFieldNumber));
    case Command::COMMAND_NOT_SET:
      v.out.AddWhole(s, "names no command: give one of set_ecn, set_pfc, set_dcqcn, set_link");
      return;
  }
}

void ValidateSchedule(Validation& v) {
  const int field = fabric_emu::Scenario::kScheduleFieldNumber;
  for (int i = 0; i < v.scenario.schedule_size(); ++i) {
    const fabric_emu::ScheduledCommand& entry = v.scenario.schedule(i);
    const Site s = v.root.Nested(field, i);
    if (v.out.Present(s, fabric_emu::ScheduledCommand::kAtNsFieldNumber, entry.has_at_ns(),
                      "the command's time in ns")) {
      v.Duration(s, fabric_emu::ScheduledCommand::kAtNsFieldNumber, entry.at_ns(), false);
    }
    CheckCommand(v, CommandOf(entry), s);
  }
}

namespace {

// The first finding of a check run without a file: Ok if none.
Status FirstFinding(Validation& v) {
  if (v.out.empty()) return Status::Ok();
  // Without a file or line, a finding reads ": path: reason" (": : reason" at the top).
  std::string first = std::move(v.out).SortedByLine().front();
  return Status::Error(first.substr(first.starts_with(": : ") ? 4 : 2));
}

}  // namespace

Status ValidateCommand(const Command& command, const fabric_emu::Scenario& scenario,
                       const topo::Graph& graph) {
  const pb::TextFormat::ParseInfoTree no_locations;
  Validation v(scenario, no_locations, "");
  v.graph = graph;
  CheckCommand(v, command, Site(Command::descriptor(), nullptr, "", 0));
  return FirstFinding(v);
}

Status ValidateCommandTime(const fabric_emu::ScheduledCommand& entry) {
  if (!entry.has_at_ns()) return Status::Ok();
  const pb::TextFormat::ParseInfoTree no_locations;
  const fabric_emu::Scenario none;
  Validation v(none, no_locations, "");
  v.Duration(Site(fabric_emu::ScheduledCommand::descriptor(), nullptr, "", 0),
             fabric_emu::ScheduledCommand::kAtNsFieldNumber, entry.at_ns(), false);
  return FirstFinding(v);
}

}  // namespace fe::control
