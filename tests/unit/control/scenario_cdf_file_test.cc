// A traffic section's flow-size CDF file, found and checked as the scenario loads.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "control/scenario/scenario_loader.h"
#include "source_root.h"

namespace fe::control {
namespace {

namespace fs = std::filesystem;

TEST(ScenarioLoaderTest, CdfFileIsFoundFromTheScenarioFolder) {
  // The scenario "lives" in traffic/, so the relative name resolves to traffic/data/...
  const std::string text =
      "topology { fat_tree { k: 4 } }\n"
      "traffic { cdf_load { cdf_file: \"data/websearch.cdf\" load_fraction: 0.5 "
      "duration_ns: 1e6 } }\n";
  const std::string here = (fs::path(SourceRoot()) / "traffic/scenario.textproto").string();
  const StatusOr<fabric_emu::Scenario> found = LoadScenarioText(text, here);
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->traffic(0).cdf_load().cdf_file(), "data/websearch.cdf");  // as written

  const std::string elsewhere = (fs::path(SourceRoot()) / "scenarios/scenario.textproto").string();
  const StatusOr<fabric_emu::Scenario> missing = LoadScenarioText(text, elsewhere);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find(":2: traffic[0].cdf_load.cdf_file: no such file"),
            std::string::npos)
      << missing.status().message();
}

// A table that cannot be sampled is refused before the run, naming both files' lines.
TEST(ScenarioLoaderTest, CdfFileWithDecreasingSizesIsRefused) {
  const fs::path dir = fs::path(::testing::TempDir()) / "cdf_decreasing";
  fs::create_directories(dir);
  std::ofstream(dir / "bad.cdf") << "# size percent\n100 50\n50 100\n";
  const std::string text =
      "topology { fat_tree { k: 4 } }\n"
      "traffic { cdf_load { cdf_file: \"bad.cdf\" load_fraction: 0.5 duration_ns: 1e6 } }\n";
  const std::string scenario = (dir / "s.textproto").string();
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, scenario);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), scenario + ":2: traffic[0].cdf_load.cdf_file: " +
                                      (dir / "bad.cdf").string() + ":3: size decreases");
}

// Sizes that average under a byte make no load: every flow would be empty or nearly so.
TEST(ScenarioLoaderTest, CdfFileWithAZeroMeanIsRefused) {
  const fs::path dir = fs::path(::testing::TempDir()) / "cdf_zero_mean";
  fs::create_directories(dir);
  std::ofstream(dir / "zero.cdf") << "0 0\n0 100\n";
  const std::string text =
      "topology { fat_tree { k: 4 } }\n"
      "traffic { cdf_load { cdf_file: \"zero.cdf\" load_fraction: 0.5 duration_ns: 1e6 } }\n";
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, (dir / "s.textproto").string());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find(":2: traffic[0].cdf_load.cdf_file: " +
                                      (dir / "zero.cdf").string() + ": the mean size is 0 bytes"),
            std::string::npos)
      << s.status().message();
}

}  // namespace
}  // namespace fe::control
