// `fabric-emu report OUTDIR` and `run --report` on the command line (control/cli/cli_args.h).
#include <gtest/gtest.h>

#include <string>

#include "cli_parse.h"
#include "control/cli/cli_args.h"

namespace fe::control {
namespace {

TEST(ReportArgsTest, ReportTakesOneDirectory) {
  const StatusOr<CliArgs> a = ParseArgs({"report", "out/default"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->command, Command::kReport);
  EXPECT_EQ(a->scenario_path, "out/default");

  const StatusOr<CliArgs> none = ParseArgs({"report"});
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(Contains(none.status().message(), "missing OUTDIR")) << none.status().message();
  const StatusOr<CliArgs> two = ParseArgs({"report", "a", "b"});
  ASSERT_FALSE(two.ok());
  EXPECT_TRUE(Contains(two.status().message(), "give one directory")) << two.status().message();
  const StatusOr<CliArgs> option = ParseArgs({"report", "a", "--out", "b"});
  ASSERT_FALSE(option.ok());
  EXPECT_TRUE(Contains(option.status().message(), "unknown option '--out'"));
}

TEST(ReportArgsTest, RunReportIsAFlag) {
  const StatusOr<CliArgs> a = ParseArgs({"run", "s.textproto", "--report"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_TRUE(a->report);
  EXPECT_FALSE(ParseArgs({"run", "s.textproto"})->report);
  EXPECT_FALSE(ParseArgs({"run", "s.textproto", "--report=yes"}).ok());
  // Real-time mode writes no report: serve takes no --report.
  EXPECT_FALSE(ParseArgs({"serve", "s.textproto", "--report"}).ok());
}

TEST(ReportArgsTest, HelpDescribesTheReport) {
  const StatusOr<CliArgs> a = ParseArgs({"report", "--help"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->help_topic, Command::kReport);
  const std::string help = HelpText(Command::kReport);
  EXPECT_TRUE(Contains(help, "Usage: fabric-emu report OUTDIR"));
  EXPECT_TRUE(Contains(HelpText(Command::kRun), "--report"));
  EXPECT_TRUE(Contains(HelpText(Command::kHelp), "fabric-emu report OUTDIR"));
}

}  // namespace
}  // namespace fe::control
