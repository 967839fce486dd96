// Scenario files made to break the loader: deep nesting, a FIFO, control characters.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

// Each nesting level is a frame of the text parser's recursion: 4,000 levels of a recursive
// message (a tier override's config holds tier overrides) once overflowed the stack. Now the
// file is refused at the level past the limit, with its line.
TEST(ScenarioLoaderHostileTest, DeepNestingIsRefusedNotACrash) {
  std::string text = "topology { fat_tree { k: 4 } }\nswitch {\n";
  constexpr int kLevels = 4000;
  for (int i = 0; i < kLevels; ++i) text += "tier_override { config {\n";
  for (int i = 0; i < kLevels; ++i) text += "} }\n";
  text += "}\n";
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "deep.textproto");
  ASSERT_FALSE(s.ok());
  // Line 2 opens the switch section (level 1), and line k >= 3 levels 2(k - 2) and 2(k - 2) + 1:
  // level 65, the first past the limit of 64, is on line 34.
  EXPECT_EQ(s.status().message().rfind("deep.textproto:34:", 0), 0u) << s.status().message();
  EXPECT_NE(s.status().message().find("recursion limit"), std::string::npos)
      << s.status().message();
}

// Opening a FIFO blocks until a writer comes: it is refused before it is opened.
TEST(ScenarioLoaderHostileTest, AFifoIsRefusedWithoutBlocking) {
  const std::string fifo = ::testing::TempDir() + "/scenario.fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioFile(fifo);
  std::filesystem::remove(fifo);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            fifo + ": not a regular file (a FIFO, socket or device); a scenario is a text file");
}

}  // namespace
}  // namespace fe::control

namespace fe::control {
namespace {

// A value's control characters reach error messages as escapes: a line feed in a value would
// start a line without FILE:LINE, and ESC would drive the terminal. Each bad value below makes
// one error, so the message has exactly one line per error, each starting with the file.
TEST(ScenarioLoaderHostileTest, ControlCharactersInValuesAreEscapedInErrors) {
  const std::string text =
      "name: \"a\\nb\"\n"
      "topology { fat_tree { k: 4 } }\n"
      "traffic { cdf_load { cdf_file: \"x\\r\\033[2J\" load_fraction: 0.5 duration_ns: 1e6 } }\n"
      "capture { port { host: 0 } file: \"c\\000d/e\" }\n";
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "ctl.textproto");
  ASSERT_FALSE(s.ok());
  const std::string m = s.status().message();
  std::vector<std::string> lines;
  std::istringstream in(m);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << m;
  for (const std::string& line : lines) {
    EXPECT_EQ(line.rfind("ctl.textproto:", 0), 0u) << line;
    for (const char c : line) {
      EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << line;
    }
  }
  EXPECT_NE(m.find("\\x1b[2J"), std::string::npos) << m;
}

}  // namespace
}  // namespace fe::control
