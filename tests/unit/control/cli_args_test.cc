#include "control/cli/cli_args.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cli_parse.h"
#include "control/api/api_token.h"
#include "control/cli/cli_options.h"
#include "control/process/output_dir.h"

namespace fe::control {
namespace {

TEST(CliArgsTest, RunWithDefaults) {
  const StatusOr<CliArgs> a = ParseArgs({"run", "scenarios/default.textproto"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->command, Command::kRun);
  EXPECT_EQ(a->scenario_path, "scenarios/default.textproto");
  EXPECT_EQ(a->out_dir, "");
  EXPECT_FALSE(a->seed.has_value());
  EXPECT_FALSE(a->quiet);

  fabric_emu::Scenario scenario;
  scenario.set_name("default");
  scenario.mutable_run()->set_seed(5);
  EXPECT_EQ(OutputDir(a.value(), scenario), "out/default");
  ApplyCliOverrides(a.value(), &scenario);
  EXPECT_EQ(scenario.run().seed(), 5u);  // no --seed: the scenario's own
  EXPECT_TRUE(scenario.run().progress());
}

TEST(CliArgsTest, RunOptionsOverrideTheScenario) {
  // Options may come before or after the scenario, as "--opt value" or "--opt=value".
  for (const auto& form :
       {std::vector<std::string>{"run", "--out", "results", "s.textproto", "--seed", "42",
                                 "--quiet"},
        std::vector<std::string>{"run", "s.textproto", "--out=results", "--seed=42", "--quiet"}}) {
    const StatusOr<CliArgs> a = ParseArgs(form);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->scenario_path, "s.textproto");
    EXPECT_EQ(a->out_dir, "results");
    ASSERT_TRUE(a->seed.has_value());
    EXPECT_EQ(*a->seed, 42u);
    EXPECT_TRUE(a->quiet);

    fabric_emu::Scenario scenario;
    scenario.set_name("x");
    EXPECT_EQ(OutputDir(a.value(), scenario), "results");
    ApplyCliOverrides(a.value(), &scenario);
    EXPECT_EQ(scenario.run().seed(), 42u);
    EXPECT_FALSE(scenario.run().progress());
  }
}

TEST(CliArgsTest, SeedCoversTheWhole64BitRange) {
  const StatusOr<CliArgs> max =
      ParseArgs({"run", "s", "--seed", "18446744073709551615"});  // 2^64-1
  ASSERT_TRUE(max.ok()) << max.status().message();
  EXPECT_EQ(*max->seed, UINT64_MAX);
  EXPECT_FALSE(ParseArgs({"run", "s", "--seed", "18446744073709551616"}).ok());  // 2^64
}

TEST(CliArgsTest, HelpAndVersion) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"}, {"-h"}, {"help"}}) {
    const StatusOr<CliArgs> a = ParseArgs(args);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->command, Command::kHelp);
    EXPECT_EQ(a->help_topic, Command::kHelp);
  }
  // Help wins over whatever else is on the line, even a bad option.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"run", "--help"}, {"run", "s", "--seed", "oops", "-h"}, {"help", "run"}}) {
    const StatusOr<CliArgs> a = ParseArgs(args);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->command, Command::kHelp);
    EXPECT_EQ(a->help_topic, Command::kRun);
  }
  const StatusOr<CliArgs> v = ParseArgs({"--version"});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->command, Command::kVersion);
  EXPECT_EQ(VersionText().rfind("fabric-emu ", 0), 0u);
}

TEST(CliArgsTest, ValidateTakesJustAScenario) {
  const StatusOr<CliArgs> a = ParseArgs({"validate", "x.textproto"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->command, Command::kValidate);
  EXPECT_EQ(a->scenario_path, "x.textproto");
  const StatusOr<CliArgs> bad = ParseArgs({"validate", "x.textproto", "--seed", "1"});
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(Contains(bad.status().message(), "unknown option '--seed'"))
      << bad.status().message();
}

TEST(CliArgsTest, RunEventsReplaysInSoftwareModeOnly) {
  StatusOr<CliArgs> a = ParseArgs({"run", "x.textproto", "--events", "out/x/events.csv"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->events_file, "out/x/events.csv");
  StatusOr<CliArgs> realtime =
      ParseArgs({"run", "x.textproto", "--realtime", "--events", "events.csv"});
  ASSERT_FALSE(realtime.ok());
  EXPECT_TRUE(Contains(realtime.status().message(), "--events replays in software mode"))
      << realtime.status().message();
  EXPECT_FALSE(ParseArgs({"run", "x.textproto", "--events="}).ok());
}

TEST(CliArgsTest, ServeOptions) {
  // EAL arguments begin with dashes themselves; --eal takes them as its value.
  const StatusOr<CliArgs> a =
      ParseArgs({"serve", "lab.textproto", "--eal", "--no-huge -l 0-1", "--duration-s", "2.5"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->command, Command::kServe);
  ASSERT_TRUE(a->eal_args.has_value());
  EXPECT_EQ(*a->eal_args, "--no-huge -l 0-1");
  ASSERT_TRUE(a->duration_s.has_value());
  EXPECT_EQ(*a->duration_s, 2.5);

  fabric_emu::Scenario scenario;
  ApplyCliOverrides(a.value(), &scenario);
  EXPECT_EQ(scenario.realtime().eal_args(), "--no-huge -l 0-1");
  EXPECT_EQ(scenario.run().stop_ns(), 2.5e9);  // 2.5 s in ns
}

TEST(CliArgsTest, RunRealtimeIsServe) {
  const StatusOr<CliArgs> a =
      ParseArgs({"run", "lab.textproto", "--realtime", "--eal", "-l 0-1", "--duration-s", "3"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->command, Command::kServe);
  EXPECT_EQ(*a->eal_args, "-l 0-1");
  EXPECT_EQ(*a->duration_s, 3.0);
}

// Each refusal must say what was wrong; the fragment checked is the reason a user needs.
TEST(CliArgsTest, BadUsageIsRefusedWithAReason) {
  struct Case {
    std::vector<std::string> args;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {{}, "no command given"},
      {{"walk", "s"}, "unknown command 'walk'"},
      {{"--fast"}, "unknown option '--fast'"},
      {{"run"}, "missing SCENARIO"},
      {{"run", "a.textproto", "b.textproto"}, "unexpected argument 'b.textproto'"},
      {{"run", "s", "--fast"}, "unknown option '--fast'"},
      {{"run", "s", "--seed"}, "--seed needs a value"},
      {{"run", "s", "--out"}, "--out needs a value"},
      {{"run", "s", "--out", "--quiet"}, "--out needs a value"},
      {{"run", "s", "--out="}, "--out needs a directory"},
      {{"run", "s", "--seed", "12a"}, "--seed takes a whole number"},
      {{"run", "s", "--seed", "-1"}, "--seed takes a whole number from 0 to 2^64-1, got '-1'"},
      {{"run", "s", "--seed=-1"}, "--seed takes a whole number"},
      {{"run", "s", "--seed", "1.5"}, "--seed takes a whole number"},
      {{"run", "s", "--quiet=yes"}, "--quiet takes no value"},
      {{"run", "s", "--eal", "-l 0"}, "--eal and --duration-s go with --realtime"},
      {{"validate", "s", "--realtime"}, "unknown option '--realtime'"},
      {{"serve", "s", "--eal", "--no-huge --proc-type=secondary"},
       "--eal: --proc-type secondary: the emulator runs as DPDK's primary process only"},
      {{"serve", "s", "--duration-s", "0"}, "--duration-s takes a number of seconds > 0"},
      {{"serve", "s", "--duration-s", "soon"}, "--duration-s takes a number of seconds > 0"},
      // Past run.stop_ns's range: 1e7 s is 1e16 ns, beyond the 9.2e15 ns time ends at.
      {{"serve", "s", "--duration-s", "1e7"}, "at most 1e6"},
      {{"help", "fly"}, "no command 'fly'"},
  };
  for (const Case& c : cases) {
    const StatusOr<CliArgs> a = ParseArgs(c.args);
    ASSERT_FALSE(a.ok()) << "accepted: " << ::testing::PrintToString(c.args);
    EXPECT_TRUE(Contains(a.status().message(), c.reason))
        << ::testing::PrintToString(c.args) << " -> " << a.status().message();
  }
}

TEST(CliArgsTest, CommandErrorsPointToThatCommandsHelp) {
  const StatusOr<CliArgs> a = ParseArgs({"run", "s", "--fast"});
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(Contains(a.status().message(), "fabric-emu run --help")) << a.status().message();
}

// The help of a command documents every option the parser accepts for it, and every text
// states the exit codes it can return (validate runs nothing, so never 1).
TEST(CliArgsTest, HelpDocumentsEveryOptionAndTheExitCodes) {
  const std::vector<std::pair<Command, std::vector<std::string>>> accepted = {
      {Command::kRun, {"--out", "--seed", "--quiet", "--help"}},
      {Command::kServe, {"--eal", "--duration-s", "--out", "--seed", "--quiet", "--help"}},
      {Command::kValidate, {}},
      {Command::kHelp, {"run", "validate", "serve", "--version", "--help"}},
  };
  for (const auto& [topic, options] : accepted) {
    const std::string text = HelpText(topic);
    for (const std::string& option : options) {
      EXPECT_TRUE(Contains(text, option)) << option << " missing from:\n" << text;
    }
    for (const int code : {kExitOk, kExitRuntimeFailure, kExitBadInput}) {
      const bool listed = Contains(text, "  " + std::to_string(code) + "  ");
      EXPECT_EQ(listed, topic != Command::kValidate || code != kExitRuntimeFailure)
          << code << " in:\n"
          << text;
    }
  }
}

// Each command's help lists every option of its table with the first line of its description,
// so an option cannot lose its help. The only ones not listed are those taken to be explained
// elsewhere: run's real-time options (under --realtime) and serve's --pace (refused).
TEST(CliArgsTest, HelpListsEveryOptionOfTheTable) {
  const std::set<std::pair<Command, std::string_view>> unlisted = {
      {Command::kRun, "--eal"}, {Command::kRun, "--duration-s"}, {Command::kServe, "--pace"}};
  for (const Command command : {Command::kRun, Command::kValidate, Command::kServe, Command::kTopo,
                                Command::kExport, Command::kReport, Command::kSweep}) {
    const std::string text = HelpText(command);
    for (const OptionGroup& group : OptionGroupsOf(command)) {
      ASSERT_TRUE(Contains(text, std::string(group.heading) + "\n")) << group.heading;
      for (const OptionSpec& spec : group.options) {
        if (spec.help.empty()) {
          EXPECT_TRUE(unlisted.contains({command, spec.name})) << spec.name << " has no help in:\n"
                                                               << text;
          continue;
        }
        std::string label = spec.short_name.empty() ? "" : std::string(spec.short_name) + ", ";
        label += std::string(spec.name);
        if (!spec.placeholder.empty()) label += " " + std::string(spec.placeholder);
        const std::string_view first_line = spec.help.substr(0, spec.help.find('\n'));
        const size_t at = text.find("\n  " + label + "  ");
        ASSERT_NE(at, std::string::npos) << label << " missing from:\n" << text;
        const size_t line_end = text.find('\n', at + 1);
        EXPECT_TRUE(Contains(text.substr(at, line_end - at), std::string(first_line)))
            << label << " listed without its description in:\n"
            << text;
      }
    }
  }
}

// run --help lists every file a run may write, so no output is a surprise: the names the output
// directory is cleared of, and the API's token.
TEST(CliArgsTest, RunHelpListsEveryOutput) {
  const std::string text = HelpText(Command::kRun);
  for (const std::string_view name : kRunOutputNames) {
    EXPECT_TRUE(Contains(text, "DIR/" + std::string(name))) << name << " missing from:\n" << text;
  }
  EXPECT_TRUE(Contains(text, "DIR/" + std::string(kApiTokenFileName))) << text;
}

}  // namespace
}  // namespace fe::control
