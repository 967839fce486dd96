// The EAL arguments a user may give real-time mode: every spelling of a secondary process type
// is refused before the EAL starts (as one, it would wait for a primary that never comes).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dataplane/eal.h"

namespace fe::dp {
namespace {

TEST(EalArgsTest, SplitsAtWhiteSpace) {
  EXPECT_EQ(SplitEalArgs("  -l 0-1\t--no-huge\n--vdev net_null0 "),
            (std::vector<std::string>{"-l", "0-1", "--no-huge", "--vdev", "net_null0"}));
  EXPECT_TRUE(SplitEalArgs("   ").empty());
}

TEST(EalArgsTest, OnlyThePrimaryProcessTypeIsAccepted) {
  EXPECT_EQ(RefusedEalArgs({"--no-huge", "-l", "0"}), "");
  EXPECT_EQ(RefusedEalArgs({"--proc-type=primary"}), "");
  EXPECT_EQ(RefusedEalArgs({"--proc-type", "primary", "--no-huge"}), "");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--proc-type=secondary"},
        std::vector<std::string>{"--no-huge", "--proc-type", "secondary"},
        std::vector<std::string>{"--proc-type=auto"},  // secondary wherever a primary runs
        std::vector<std::string>{"--proc-type"}}) {
    const std::string why = RefusedEalArgs(args);
    EXPECT_NE(why.find("primary process only"), std::string::npos)
        << ::testing::PrintToString(args) << " -> " << why;
  }
}

}  // namespace
}  // namespace fe::dp
