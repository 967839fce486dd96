// The sweep command's line and run's --set: what the parser takes and refuses. The values of
// --set are parsed later, against the scenario (control/sweep/).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_parse.h"
#include "control/cli/cli_args.h"
#include "control/sweep/sweep_command.h"

namespace fe::control {
namespace {

TEST(SweepArgsTest, SweepTakesSetListsJobsOutQuietAndReport) {
  const StatusOr<CliArgs> a =
      ParseArgs({"sweep", "s.textproto", "--set", "topology.fat_tree.link_rate_gbps=400,800",
                 "--set=switch.queue[0].wred.kmin_bytes=5120", "--jobs", "3", "--out", "r",
                 "--quiet", "--report"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->command, Command::kSweep);
  EXPECT_EQ(a->scenario_path, "s.textproto");
  EXPECT_EQ(a->set, (std::vector<std::string>{"topology.fat_tree.link_rate_gbps=400,800",
                                              "switch.queue[0].wred.kmin_bytes=5120"}));
  EXPECT_EQ(a->jobs, 3);
  EXPECT_TRUE(a->quiet);
  EXPECT_TRUE(a->report);
  fabric_emu::Scenario scenario;
  scenario.set_name("lab");
  EXPECT_EQ(SweepDir(a.value(), scenario), "r");
  const StatusOr<CliArgs> plain = ParseArgs({"sweep", "s.textproto", "--set", "run.seed=1,2"});
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->jobs.has_value());
  EXPECT_EQ(SweepDir(plain.value(), scenario), "out/lab-sweep");
}

TEST(SweepArgsTest, ASweepNeedsASet) {
  const StatusOr<CliArgs> a = ParseArgs({"sweep", "s.textproto", "--jobs", "2"});
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().message(),
            "sweep: give the values to run, as --set PATH=V1,V2,... (see 'fabric-emu sweep "
            "--help')");
}

TEST(SweepArgsTest, JobsIsAWholeNumberFromOneTo1024) {
  for (const char* bad : {"0", "-1", "1025", "two", "1.5", ""}) {
    const StatusOr<CliArgs> a =
        ParseArgs({"sweep", "s.textproto", "--set", "run.seed=1", std::string("--jobs=") + bad});
    ASSERT_FALSE(a.ok()) << bad;
    EXPECT_TRUE(Contains(a.status().message(), "--jobs takes a whole number from 1 to 1024"))
        << a.status().message();
  }
  EXPECT_TRUE(ParseArgs({"sweep", "s.textproto", "--set", "run.seed=1", "--jobs", "1024"}).ok());
}

TEST(SweepArgsTest, RunTakesSetButNotJobs) {
  const StatusOr<CliArgs> a = ParseArgs({"run", "s.textproto", "--set", "run.seed=3"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->set, std::vector<std::string>{"run.seed=3"});
  const StatusOr<CliArgs> jobs = ParseArgs({"run", "s.textproto", "--jobs", "2"});
  ASSERT_FALSE(jobs.ok());
  EXPECT_TRUE(Contains(jobs.status().message(), "unknown option '--jobs'"));
}

TEST(SweepArgsTest, HelpDescribesTheSweep) {
  const StatusOr<CliArgs> a = ParseArgs({"sweep", "--help"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->help_topic, Command::kSweep);
  const std::string help = HelpText(Command::kSweep);
  for (const char* part : {"--set PATH=V1,V2", "--jobs N", "sweep.csv", "resumes", "130"}) {
    EXPECT_TRUE(Contains(help, part)) << part;
  }
  EXPECT_TRUE(Contains(HelpText(Command::kHelp), "fabric-emu sweep"));
  EXPECT_TRUE(Contains(HelpText(Command::kRun), "--set PATH=VALUE"));
}

}  // namespace
}  // namespace fe::control
