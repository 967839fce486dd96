// Commands changing a running fabric (control/emulation/command_executor.h): each takes effect at
// its time and not before, does what its mechanism's definition says, and a run with commands is
// deterministic and replays from its events.csv to the same results.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "control/emulation/emulation.h"
#include "control/emulation/events_csv.h"
#include "control/run/report_writer.h"
#include "control/run/software_run.h"
#include "control/scenario/command_json.h"
#include "control/scenario/scenario_loader.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

constexpr uint64_t kSeed = 1;

fabric_emu::Scenario Load(const std::string& text) {
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "commands.textproto");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(s).value() : fabric_emu::Scenario{};
}

// The fabric a software run builds, run by the test in two steps.
std::unique_ptr<Emulation> Build(const fabric_emu::Scenario& scenario) {
  StatusOr<std::unique_ptr<Emulation>> e =
      BuildEmulation(scenario, kSeed, ".", dp::PoolMemory::kHostPages);
  EXPECT_TRUE(e.ok()) << e.status().message();
  (*e)->sched.EnableWindows((*e)->fabric->lookahead(), (*e)->fabric->num_domains());
  return std::move(e).value();
}

SoftwareRunResult RunScenario(const fabric_emu::Scenario& scenario,
                              std::vector<AppliedCommand> replay = {}) {
  SoftwareRunOptions options;
  options.seed = kSeed;
  options.replay = std::move(replay);
  StatusOr<SoftwareRunResult> run = RunSoftware(scenario, options);
  EXPECT_TRUE(run.ok()) << run.status().message();
  return std::move(run).value();
}

std::string Flows(const Emulation& e) {
  return FlowsCsv(CollectFlowMetrics(e, 4096), e.workload, OutcomesOf(e.fabric->messages()));
}

// ECN marks of priority 3 on every port of switch `name`.
uint64_t Marks(const Emulation& e, const std::string& name) {
  for (size_t i = 0; i < e.fabric->num_switches(); ++i) {
    const dp::Switch& sw = e.fabric->switch_at(i);
    if (e.graph.node(sw.node()).name != name) continue;
    uint64_t marks = 0;
    for (uint16_t p = 0; p < sw.num_ports(); ++p) marks += sw.queue_counters(p, 3).ecn_marks;
    return marks;
  }
  ADD_FAILURE() << "no switch " << name;
  return 0;
}

uint64_t Drops(const dp::FabricTotals& t, dp::DropReason r) {
  return t.drops.packets[static_cast<size_t>(r)];
}

// Eight senders to host 0 behind edge0 of a 4-ary fat-tree: edge0's port to host 0 takes 8 x
// 100 Gb/s into 100 Gb/s, so its priority-3 queue stands far above WRED's 5 KB kmin for as long
// as the senders send.
constexpr char kIncast[] = R"pb(
  topology { fat_tree { k: 4 } }
  nic { cc { dcqcn {} } }
  traffic { incast { senders: 8 receiver_host: 0 message_bytes: 2000000 } }
  run { progress: false }
)pb";

constexpr double kChangeNs = 40000;
// edge0's WRED on priority 3 turned off at kChangeNs.
constexpr char kWredOffAtChange[] = R"pb(
  schedule {
    at_ns: 40000
    set_ecn {
      switch_name: "edge0"
      priority: 3
      wred { enabled: false }
    }
  }
)pb";

TEST(CommandsTest, WredChangeActsFromItsTimeOnAndNotBefore) {
  const fabric_emu::Scenario plain = Load(kIncast);
  const fabric_emu::Scenario changed = Load(std::string(kIncast) + kWredOffAtChange);
  const Time just_before = Time::FromNs(kChangeNs) - Time::FromPs(1);
  std::unique_ptr<Emulation> a = Build(plain);
  std::unique_ptr<Emulation> b = Build(changed);
  a->sched.RunUntil(just_before);
  b->sched.RunUntil(just_before);
  const uint64_t a_before = Marks(*a, "edge0");
  const uint64_t b_before = Marks(*b, "edge0");
  a->sched.RunUntil(Time::Infinite());
  b->sched.RunUntil(Time::Infinite());
  // The standing queue marks before the change, and would go on marking after it.
  EXPECT_GT(a_before, 0u);
  EXPECT_GT(Marks(*a, "edge0"), a_before);
  // Not before: up to the change both runs are the same run.
  EXPECT_EQ(b_before, a_before);
  // After: a disabled WRED never marks (its thresholds are beyond any queue).
  EXPECT_EQ(Marks(*b, "edge0"), b_before);
  ASSERT_EQ(b->commands->applied().size(), 1u);
  EXPECT_EQ(b->commands->applied()[0].at, Time::FromNs(kChangeNs));
}

// Without congestion control, an 8-to-1 incast of 8 MiB into switches of 4 MiB of buffer is held
// lossless by PFC alone; with the switches' pausing off, the congested queue's ingress priority
// groups fill their share of the pool and overflow their headroom.
TEST(CommandsTest, PfcOffUnderIncastDropsWherePfcOnDropsNothing) {
  const std::string base = R"pb(
    topology { fat_tree { k: 4 } }
    switch { buffer_bytes: 4194304 }
    traffic { incast { senders: 8 receiver_host: 0 message_bytes: 1048576 } }
    nic { transport { retransmit_timeout_ns: 1000000 } }
    run { progress: false }
  )pb";
  const SoftwareRunResult on = RunScenario(Load(base));
  const SoftwareRunResult off = RunScenario(Load(base + R"pb(
    schedule {
      at_ns: 0
      set_pfc { priority: 3 enabled: false }
    }
  )pb"));
  const dp::FabricTotals t_on = on.emulation->fabric->Totals();
  const dp::FabricTotals t_off = off.emulation->fabric->Totals();
  EXPECT_EQ(t_on.drops.total_packets(), 0u);
  EXPECT_GT(Drops(t_off, dp::DropReason::kHeadroomOverflow), 0u);
  EXPECT_EQ(t_off.drops.total_packets(), Drops(t_off, dp::DropReason::kHeadroomOverflow));
  // Conservation: every message completes, each of its 256 packets (1 MiB / 4096 B) accepted once;
  // every data packet sent was either received or dropped.
  for (const SoftwareRunResult* r : {&on, &off}) {
    const dp::FabricTotals t = r->emulation->fabric->Totals();
    const dp::MessageTable& m = r->emulation->fabric->messages();
    for (uint32_t id = 0; id < m.size(); ++id) EXPECT_TRUE(m.completed(id)) << id;
    EXPECT_EQ(t.nics.data_packets_received - t.nics.out_of_sequence - t.nics.duplicates, 8u * 256u);
    EXPECT_EQ(t.nics.data_packets_sent, t.nics.data_packets_received + t.drops.total_packets());
  }
}

// A link taken down by a command is the same failure as the topology section's entry.
TEST(CommandsTest, LinkDownByCommandEqualsTheTopologyFailure) {
  const auto scenario = [](const std::string& failure, const std::string& schedule) {
    return Load(R"pb(
                  topology { fat_tree { k: 4 }
                             routing { reconverge_delay_ns: 5000 }
                )pb" +
                failure + R"pb(
                  }
                  traffic { permutation { message_bytes: 1000000 } }
                  run { progress: false }
                )pb" +
                schedule);
  };
  const SoftwareRunResult none = RunScenario(scenario("", ""));
  const SoftwareRunResult by_failure = RunScenario(scenario(R"pb(failure {
                                                                   at_ns: 20000
                                                                   link { a: "edge0" b: "agg0" }
                                                                 })pb",
                                                            ""));
  const SoftwareRunResult by_command =
      RunScenario(scenario("", R"pb(schedule {
                                      at_ns: 20000
                                      set_link { link { a: "edge0" b: "agg0" } }
                                    })pb"));
  // The failure changes the run (frames lost on the link, flows rerouted) ...
  EXPECT_NE(Flows(*by_failure.emulation), Flows(*none.emulation));
  // ... and the command makes the same change.
  EXPECT_EQ(Flows(*by_command.emulation), Flows(*by_failure.emulation));
  ASSERT_NE(by_command.emulation->failures, nullptr);
  const FailureSummary f = by_failure.emulation->failures->Summary();
  const FailureSummary c = by_command.emulation->failures->Summary();
  ASSERT_EQ(c.events.size(), 1u);
  ASSERT_EQ(f.events.size(), 1u);
  EXPECT_EQ(c.events[0].kind, "link_down");
  EXPECT_EQ(c.events[0].frames_lost, f.events[0].frames_lost);
  EXPECT_EQ(c.events[0].reroute_at, f.events[0].reroute_at);
}

// DCQCN's floor: a cut never leaves a QP below min_rate (rpg_min_rate), and increases only raise
// its rate. Raised to 40 Gb/s while eight QPs share 100 Gb/s (12.5 Gb/s each), it shows in the
// sampled rates once each QP has been cut again.
TEST(CommandsTest, DcqcnFloorChangeShowsInTheRates) {
  const std::string base = R"pb(
    topology { fat_tree { k: 4 } }
    nic { cc { dcqcn {} } }
    traffic { incast { senders: 8 receiver_host: 0 message_bytes: 4000000 } }
    run { progress: false rate_sample_interval_ns: 2000 }
  )pb";
  const SoftwareRunResult plain = RunScenario(Load(base));
  const SoftwareRunResult changed = RunScenario(Load(base + R"pb(
    schedule {
      at_ns: 500000
      set_dcqcn { dcqcn { min_rate_mbps: 40000 } }
    }
  )pb"));
  const Time change = Time::FromNs(500000);
  // Every QP is cut within a CNP interval (50 us) of the change: the queue stands above kmax,
  // where every packet is marked. 200 us leaves room for the CNPs' round trip.
  const Time settled = change + Time::FromUs(200);
  const Rate floor = Rate::FromGbps(40);
  Rate min_before = Rate::FromGbps(1000);
  size_t after = 0;
  const auto& samples = changed.rates->samples();
  ASSERT_EQ(plain.rates->samples().size() > 0, true);
  for (size_t i = 0; i < samples.size(); ++i) {
    const RateSample& s = samples[i];
    if (s.at < change) {
      // Not before: the samples up to the change are the unchanged run's.
      ASSERT_LT(i, plain.rates->samples().size());
      EXPECT_EQ(s.rate, plain.rates->samples()[i].rate);
      min_before = std::min(min_before, s.rate);
    } else if (s.at >= settled) {
      EXPECT_GE(s.rate, floor) << "flow " << s.flow << " at " << s.at.ns() << " ns";
      ++after;
    }
  }
  EXPECT_LT(min_before, floor);
  EXPECT_GT(after, 0u);
}

// Every command kind in one schedule: the same run twice gives the same commands applied and the
// same flows; replaying its events gives the same again.
constexpr char kEveryCommand[] = R"pb(
  topology { fat_tree { k: 4 } }
  nic { cc { dcqcn {} } }
  traffic { incast { senders: 6 receiver_host: 0 message_bytes: 1000000 } }
  traffic { permutation { message_bytes: 200000 } }
  run { progress: false queue_sample_interval_ns: 5000 }
  schedule {
    at_ns: 20000
    set_ecn {
      role: "edge"
      priority: 3
      wred { kmin_bytes: 20000 kmax_bytes: 100000 pmax: 0.2 }
    }
  }
  schedule {
    at_ns: 30000
    set_pfc { switch_name: "edge0" port: 0 priority: 3 enabled: false }
  }
  schedule {
    at_ns: 30000
    set_dcqcn {
      host: [ 1, 2 ]
      dcqcn { additive_increase_mbps: 500 }
    }
  }
  schedule {
    at_ns: 45000
    set_link { link { a: "edge1" b: "agg0" } }
  }
  schedule {
    at_ns: 90000
    set_link {
      link { a: "edge1" b: "agg0" }
      up: true
    }
  }
  schedule {
    at_ns: 95000
    set_pfc { switch_name: "edge0" port: 0 priority: 3 enabled: true }
  }
)pb";

TEST(CommandsTest, ScheduleIsDeterministicAndReplaysIdentically) {
  const fabric_emu::Scenario scenario = Load(kEveryCommand);
  const SoftwareRunResult first = RunScenario(scenario);
  const SoftwareRunResult second = RunScenario(scenario);
  const std::vector<AppliedCommand>& applied = first.emulation->commands->applied();
  ASSERT_EQ(applied.size(), 6u);
  const std::string events = EventsCsv(applied);
  EXPECT_EQ(EventsCsv(second.emulation->commands->applied()), events);
  EXPECT_EQ(Flows(*second.emulation), Flows(*first.emulation));

  // The replay reads events.csv back, and runs the scenario without its schedule.
  StatusOr<std::vector<EventRow>> rows = ParseEventsCsv(events, "events.csv");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  std::vector<AppliedCommand> replay;
  for (EventRow& r : *rows) replay.push_back(std::move(r.applied));
  fabric_emu::Scenario without_schedule = scenario;
  without_schedule.clear_schedule();
  const SoftwareRunResult replayed = RunScenario(without_schedule, replay);
  EXPECT_EQ(Flows(*replayed.emulation), Flows(*first.emulation));
  EXPECT_EQ(QueuesCsv(replayed.queues->samples(), replayed.emulation->graph),
            QueuesCsv(first.queues->samples(), first.emulation->graph));
  std::string as_replayed = events;
  for (size_t at = 0; (at = as_replayed.find(",schedule,", at)) != std::string::npos;) {
    as_replayed.replace(at, 10, ",replay,");
  }
  EXPECT_EQ(EventsCsv(replayed.emulation->commands->applied()), as_replayed);
}

// A command from outside the run (the HTTP API's path) runs 1 ps after the latest event run, and
// a replay of its row runs it at the same point: the same results.
TEST(CommandsTest, CommandAppliedBetweenSlicesReplaysIdentically) {
  const fabric_emu::Scenario scenario = Load(kIncast);
  std::unique_ptr<Emulation> live = Build(scenario);
  live->sched.RunUntil(Time::Infinite(), 5000);  // a slice of the run loop
  StatusOr<fabric_emu::Command> command = ParseCommandJson(
      R"({"set_ecn": {"switch_name": ["edge0"], "priority": 3, "wred": {"enabled": false}}})");
  ASSERT_TRUE(command.ok());
  const Time slice_end = live->sched.Now();
  ASSERT_TRUE(live->commands->Apply(*command, CommandSource::kApi).ok());
  live->sched.RunUntil(Time::Infinite());
  ASSERT_EQ(live->commands->applied().size(), 1u);
  EXPECT_EQ(live->commands->applied()[0].at, slice_end + Time::FromPs(1));

  std::unique_ptr<Emulation> replayed = Build(scenario);
  const AppliedCommand& c = live->commands->applied()[0];
  replayed->commands->ScheduleAt(c.at, c.command, CommandSource::kReplay);
  replayed->sched.RunUntil(Time::Infinite());
  EXPECT_EQ(Flows(*replayed), Flows(*live));
  EXPECT_EQ(Marks(*replayed, "edge0"), Marks(*live, "edge0"));

  // A refused command is not scheduled, and names its field.
  StatusOr<fabric_emu::Command> bad = ParseCommandJson(
      R"({"set_pfc": {"switch_name": ["edge0"], "priority": 8, "enabled": true}})");
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(live->commands->Apply(*bad, CommandSource::kApi).message(),
            "set_pfc.priority: must be in [0, 7], got 8");
  EXPECT_EQ(live->commands->ApplyAt(slice_end, *command, CommandSource::kApi).message(),
            "at_ns: " + NsExact(slice_end) + " is past; the run is at " +
                NsExact(live->sched.Now()) + " ns");
  EXPECT_EQ(live->commands->applied().size(), 1u);
}

// A command sent ahead of its time runs when a schedule entry at that time would: the same
// results as the schedule, and the same events.csv but for the source.
TEST(CommandsTest, CommandSentAheadRunsAsTheScheduleWould) {
  const fabric_emu::Scenario plain = Load(kIncast);
  const fabric_emu::Scenario scheduled = Load(std::string(kIncast) + kWredOffAtChange);
  std::unique_ptr<Emulation> by_schedule = Build(scheduled);
  by_schedule->sched.RunUntil(Time::Infinite());
  std::unique_ptr<Emulation> by_api = Build(plain);
  by_api->sched.RunUntil(Time::Infinite(), 5000);  // the run loop's first slice
  ASSERT_LT(by_api->sched.Now(), Time::FromNs(kChangeNs));
  ASSERT_TRUE(
      by_api->commands
          ->ApplyAt(Time::FromNs(kChangeNs), CommandOf(scheduled.schedule(0)), CommandSource::kApi)
          .ok());
  by_api->sched.RunUntil(Time::Infinite());
  EXPECT_EQ(Flows(*by_api), Flows(*by_schedule));
  EXPECT_EQ(Marks(*by_api, "edge0"), Marks(*by_schedule, "edge0"));
  std::string events = EventsCsv(by_schedule->commands->applied());
  events.replace(events.find(",schedule,"), 10, ",api,");
  EXPECT_EQ(EventsCsv(by_api->commands->applied()), events);
}

}  // namespace
}  // namespace fe::control
