// Applies commands to a running fabric. Every command runs as an event of scheduler domain 0,
// which sees the whole model at one instant: the scheduler runs it between windows, never in the
// middle of one, so no element sees half a change. Each command applied is recorded with its
// time and source, for events.csv.
//
// Determinism: a command scheduled at time T (the scenario's schedule, a replayed events.csv)
// runs after every event before T and before every other event at T but the domain-0 ones pushed
// earlier. A command from outside the run (the HTTP API) is taken between two slices of the run
// loop and runs 1 ps after the latest event run so far, before anything not yet run: recorded at
// that time, a replay runs it at the same point of the run.
#pragma once

#include <map>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/scheduler.h"
#include "core/status.h"
#include "core/units.h"
#include "proto/command.pb.h"
#include "proto/scenario.pb.h"

namespace fe::control {

struct Emulation;

enum class CommandSource { kSchedule, kApi, kReplay };
// "schedule", "api", "replay": events.csv's source column.
std::string_view SourceName(CommandSource source);

struct AppliedCommand {
  Time at;
  CommandSource source = CommandSource::kSchedule;
  fabric_emu::Command command;
};

class CommandExecutor final : public EventHandler {
 public:
  // `scenario` is the validated one the emulation was built from; the emulation, whose graph,
  // fabric and scheduler the commands act on, must outlive the executor.
  CommandExecutor(const fabric_emu::Scenario& scenario, Emulation* emulation);
  CommandExecutor(const CommandExecutor&) = delete;
  CommandExecutor& operator=(const CommandExecutor&) = delete;

  // Schedules every entry of the scenario's schedule at its time.
  void ScheduleScenario();
  // Schedules a command known before the run starts (a replayed events.csv row) at `at`.
  void ScheduleAt(Time at, fabric_emu::Command command, CommandSource source);
  // From the run loop between slices, on the loop's thread: checks `command` as the scenario
  // validator would (ValidateCommand) and, if it passes, runs it before any event not yet run.
  // The error names the field: "set_ecn.wred.pmax: must be in [0, 1] ...".
  Status Apply(const fabric_emu::Command& command, CommandSource source);
  // The same at a later time `at` (a command sent ahead of its time, as a schedule entry would
  // give it). Refuses a time before the one Apply would take: "at_ns: 1000 is past; the run is
  // at 2000.5 ns".
  Status ApplyAt(Time at, const fabric_emu::Command& command, CommandSource source);
  // In real time: as Apply, at `clock`'s time once the command has passed its checks, which take
  // their while on the loop's thread (dated before them, it would run late by their length and
  // count against the loop's lateness). Returns the time taken.
  StatusOr<Time> ApplyLive(const Clock& clock, const fabric_emu::Command& command,
                           CommandSource source);

  // Every command applied so far, in the order applied.
  const std::vector<AppliedCommand>& applied() const { return applied_; }
  // Commands scheduled, applied or not yet (a run with some writes events.csv).
  bool any_scheduled() const { return !pending_.empty(); }

  void OnEvent(uint64_t arg) override;

 private:
  void Run(const AppliedCommand& c);
  void SetEcn(const fabric_emu::SetEcn& c);
  void SetPfc(const fabric_emu::SetPfc& c);
  void SetDcqcn(const fabric_emu::SetDcqcn& c);
  void SetLink(const fabric_emu::SetLink& c);
  // Indices (fabric switch order) of the switches a command names.
  template <typename M>
  std::vector<size_t> SwitchesOf(const M& m) const;

  const fabric_emu::Scenario scenario_;  // a copy: a caller's may end before the emulation
  Emulation* e_;
  std::vector<AppliedCommand> pending_;  // by event argument
  std::vector<AppliedCommand> applied_;
  // By NIC: its DCQCN section as commands left it, for the next one to change a few fields of.
  std::map<std::pair<uint32_t, uint16_t>, fabric_emu::Dcqcn> dcqcn_;  // by (host, port)
};

}  // namespace fe::control
