#include "control/emulation/command_executor.h"
#include "control/scenario/nic_params.h"

#include <algorithm>

#include <utility>

#include "control/emulation/emulation.h"
#include "control/emulation/events_csv.h"
#include "control/emulation/failure_injector.h"
#include "control/scenario/command_json.h"
#include "control/scenario/switch_params.h"
#include "control/scenario/validate/validate_command.h"

namespace fe::control {

std::string_view SourceName(CommandSource source) {
  switch (source) {
    case CommandSource::kSchedule:
      return "schedule";
    case CommandSource::kApi:
      return "api";
    case CommandSource::kReplay:
      return "replay";
  }
  return "schedule";
}

CommandExecutor::CommandExecutor(const fabric_emu::Scenario& scenario, Emulation* emulation)
    : scenario_(scenario), e_(emulation) {}

void CommandExecutor::ScheduleScenario() {
  for (const fabric_emu::ScheduledCommand& entry : scenario_.schedule()) {
    ScheduleAt(Time::FromNs(entry.at_ns()), CommandOf(entry), CommandSource::kSchedule);
  }
}

void CommandExecutor::ScheduleAt(Time at, fabric_emu::Command command, CommandSource source) {
  e_->sched.At(at, this, pending_.size());
  pending_.push_back(AppliedCommand{at, source, std::move(command)});
}

Status CommandExecutor::Apply(const fabric_emu::Command& command, CommandSource source) {
  return ApplyAt(e_->sched.Now() + Time::FromPs(1), command, source);
}

Status CommandExecutor::ApplyAt(Time at, const fabric_emu::Command& command, CommandSource source) {
  // Every event run so far is at or before now: 1 ps later is the earliest time a command can
  // take without running behind one of them.
  if (at <= e_->sched.Now()) {
    return Status::Error("at_ns: " + NsExact(at) + " is past; the run is at " +
                         NsExact(e_->sched.Now()) + " ns");
  }
  if (Status s = ValidateCommand(command, scenario_, e_->graph); !s.ok()) return s;
  ScheduleAt(at, command, source);
  return Status::Ok();
}

StatusOr<Time> CommandExecutor::ApplyLive(const Clock& clock, const fabric_emu::Command& command,
                                          CommandSource source) {
  if (Status s = ValidateCommand(command, scenario_, e_->graph); !s.ok()) return s;
  const Time at = std::max(e_->sched.Now() + Time::FromPs(1), clock.Now());
  ScheduleAt(at, command, source);
  return at;
}

void CommandExecutor::OnEvent(uint64_t arg) {
  AppliedCommand& c = pending_[arg];
  c.at = e_->sched.Now();
  Run(c);
  applied_.push_back(c);
}

void CommandExecutor::Run(const AppliedCommand& c) {
  const fabric_emu::Command& command = c.command;
  switch (command.command_case()) {
    case fabric_emu::Command::kSetEcn:
      return SetEcn(command.set_ecn());
    case fabric_emu::Command::kSetPfc:
      return SetPfc(command.set_pfc());
    case fabric_emu::Command::kSetDcqcn:
      return SetDcqcn(command.set_dcqcn());
    case fabric_emu::Command::kSetLink:
      return SetLink(command.set_link());
    case fabric_emu::Command::COMMAND_NOT_SET:
      return;  // refused before it was scheduled
  }
}

template <typename M>
std::vector<size_t> CommandExecutor::SwitchesOf(const M& m) const {
  std::vector<size_t> out;
  const dp::Fabric& fabric = *e_->fabric;
  for (size_t i = 0; i < fabric.num_switches(); ++i) {
    const topo::Node& n = e_->graph.node(fabric.switch_at(i).node());
    bool chosen = m.has_role() ? n.role == m.role() : m.switch_name_size() == 0;
    for (const std::string& name : m.switch_name()) chosen = chosen || n.name == name;
    if (chosen) out.push_back(i);
  }
  return out;
}

void CommandExecutor::SetEcn(const fabric_emu::SetEcn& c) {
  // Checked by the validator: the profile compiles.
  StatusOr<cong::WredConfig> wred = cong::Compile(BuildWredParams(c.wred()));
  if (!wred.ok()) return;
  for (size_t i : SwitchesOf(c)) {
    e_->fabric->switch_at(i).SetWred(static_cast<uint8_t>(c.priority()), *wred);
  }
}

void CommandExecutor::SetPfc(const fabric_emu::SetPfc& c) {
  for (size_t i : SwitchesOf(c)) {
    dp::Switch& sw = e_->fabric->switch_at(i);
    for (size_t p = 0; p < sw.num_ports(); ++p) {
      // A switch without the port named (a smaller one of a role) is left as it is.
      if (c.has_port() && static_cast<size_t>(c.port()) != p) continue;
      sw.SetPfcEnabled(static_cast<uint16_t>(p), static_cast<uint8_t>(c.priority()), c.enabled());
    }
  }
}

void CommandExecutor::SetDcqcn(const fabric_emu::SetDcqcn& c) {
  std::vector<uint32_t> hosts(c.host().begin(), c.host().end());
  if (hosts.empty()) {
    for (uint32_t h = 0; h < e_->graph.num_hosts(); ++h) hosts.push_back(h);
  }
  for (uint32_t h : hosts) {
    for (uint16_t port = 0; port < e_->fabric->num_nics(h); ++port) {
      // Each NIC's section as earlier commands left it, with this one's fields on top.
      auto [it, fresh] = dcqcn_.try_emplace({h, port}, scenario_.nic().cc().dcqcn());
      it->second.MergeFrom(c.dcqcn());
      fabric_emu::NicConfig section = scenario_.nic();
      *section.mutable_cc()->mutable_dcqcn() = it->second;
      StatusOr<dp::NicParams> params = BuildNicParams(section);
      if (!params.ok()) continue;  // the validator checked every field
      dp::Nic& nic = e_->fabric->nic(h, port);
      params->dcqcn.line_rate = Rate::FromBps(nic.config().dcqcn.line_rate_bps);
      if (StatusOr<cong::DcqcnConfig> d = cong::Compile(params->dcqcn); d.ok()) nic.SetDcqcn(*d);
    }
  }
}

void CommandExecutor::SetLink(const fabric_emu::SetLink& c) {
  if (e_->failures == nullptr) {
    // A scenario without failures has no injector yet; its topology lists none to schedule.
    StatusOr<std::unique_ptr<FailureInjector>> failures =
        FailureInjector::Create(scenario_.topology(), e_->fabric.get(), &e_->sched);
    if (!failures.ok()) return;
    e_->failures = std::move(failures).value();
  }
  (void)e_->failures->ChangeLinkNow(c.link(), c.up());  // the validator resolved the link
}

}  // namespace fe::control
