// `fabric-emu export` on the command line: its options, its refusals and its help.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_parse.h"

#include "control/cli/cli_args.h"
#include "traffic/trace/native.h"

namespace fe::control {
namespace {

TEST(ExportArgsTest, TakesAScenarioAnOutputAndASeed) {
  for (const auto& form :
       {std::vector<std::string>{"export", "s.textproto", "-o", "w.csv", "--seed", "7"},
        std::vector<std::string>{"export", "--output=w.csv", "--seed=7", "s.textproto"}}) {
    StatusOr<CliArgs> a = ParseArgs(form);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->command, Command::kExport);
    EXPECT_EQ(a->scenario_path, "s.textproto");
    EXPECT_EQ(a->export_file, "w.csv");
    EXPECT_EQ(a->seed, 7u);
  }
  StatusOr<CliArgs> stdout_form = ParseArgs({"export", "s.textproto", "-o", "-"});
  ASSERT_TRUE(stdout_form.ok()) << stdout_form.status().message();
  EXPECT_EQ(stdout_form->export_file, "-");
  StatusOr<CliArgs> plain = ParseArgs({"export", "s.textproto"});
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->export_file, "");
}

TEST(ExportArgsTest, BadUsageIsRefusedWithAReason) {
  const auto error = [](const std::vector<std::string>& args) {
    StatusOr<CliArgs> a = ParseArgs(args);
    return a.ok() ? std::string() : a.status().message();
  };
  EXPECT_EQ(error({"export"}),
            "export: missing SCENARIO, the scenario file to export (see 'fabric-emu export "
            "--help')");
  EXPECT_TRUE(Contains(error({"export", "s.textproto", "--out", "d"}), "unknown option '--out'"));
  EXPECT_TRUE(Contains(error({"export", "s.textproto", "-o"}), "-o needs a value"));
  EXPECT_TRUE(Contains(error({"export", "s.textproto", "--seed", "x"}), "--seed takes a whole"));
  EXPECT_TRUE(Contains(error({"export", "a.textproto", "b.textproto"}), "give one scenario"));
}

TEST(ExportArgsTest, HelpTeachesTheFormatAndTheReplay) {
  StatusOr<CliArgs> a = ParseArgs({"export", "--help"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->command, Command::kHelp);
  EXPECT_EQ(a->help_topic, Command::kExport);
  const std::string help = HelpText(Command::kExport);
  for (const char* part : {"-o, --output FILE", "--seed N",
                           "traffic { trace { file:", "same flows.csv", "Exit status:"}) {
    EXPECT_TRUE(Contains(help, part)) << part;
  }
  // The columns it explains are the ones the writer writes.
  EXPECT_TRUE(Contains(help, std::string(kNativeTraceHeader)));
  EXPECT_TRUE(Contains(HelpText(Command::kHelp), "fabric-emu export SCENARIO"));
  StatusOr<CliArgs> topic = ParseArgs({"help", "export"});
  ASSERT_TRUE(topic.ok());
  EXPECT_EQ(topic->help_topic, Command::kExport);
}

}  // namespace
}  // namespace fe::control
