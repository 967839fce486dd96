// The load_balancing blocks are checked before anything runs: each bad value is refused once,
// as "FILE:LINE: field.path: reason", at the block it stands in (the section or an override).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

std::vector<std::string> Errors(const std::string& text) {
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "lb.textproto");
  std::vector<std::string> lines;
  if (s.ok()) return lines;
  std::istringstream in(s.status().message());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

constexpr char kHead[] =
    "topology { fat_tree { k: 4 } }\n"
    "traffic { permutation { message_bytes: 100000 } }\n";

TEST(LoadBalancingValidationTest, AGoodBlockLoads) {
  EXPECT_TRUE(Errors(std::string(kHead) +
                     "switch { load_balancing { policy: ADAPTIVE flowlet_gap_ns: 1000 "
                     "flowlet_table_entries: 65536 adaptive_granularity: PER_PACKET } }\n")
                  .empty());
}

TEST(LoadBalancingValidationTest, EachBadFieldIsRefusedAtItsLine) {
  struct Case {
    std::string block;
    std::string want;  // after "lb.textproto:3: "
    std::string also;
  };
  const Case cases[] = {
      {"flowlet_table_entries: 1000",
       "switch.load_balancing.flowlet_table_entries:", "power of two"},
      {"flowlet_table_entries: 32", "switch.load_balancing.flowlet_table_entries:", "got 32"},
      {"flowlet_gap_ns: 0", "switch.load_balancing.flowlet_gap_ns:", "got 0"},
      {"utilisation_window_ns: -5", "switch.load_balancing.utilisation_window_ns:", "got -5"},
      {"queue_band_bytes: 0", "switch.load_balancing.queue_band_bytes:", "got 0"},
      {"policy: POLICY_UNSPECIFIED", "switch.load_balancing.policy:", "ADAPTIVE"},
      {"spray_order: SPRAY_ORDER_UNSPECIFIED", "switch.load_balancing.spray_order:", "ROUND_ROBIN"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.block);
    const std::vector<std::string> errors =
        Errors(std::string(kHead) + "switch { load_balancing { " + c.block + " } }\n");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].rfind("lb.textproto:3: " + c.want, 0), 0u) << errors[0];
    EXPECT_NE(errors[0].find(c.also), std::string::npos) << errors[0];
  }
}

TEST(LoadBalancingValidationTest, OverridesAreCheckedWhereTheyStand) {
  const std::vector<std::string> errors =
      Errors(std::string(kHead) +
             "switch {\n"
             "  tier_override { tier: EDGE config { load_balancing { flowlet_gap_ns: 0 } } }\n"
             "  role_override { role: \"agg\" config { load_balancing {\n"
             "    flowlet_table_entries: 3 } } }\n"
             "}\n");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].rfind("lb.textproto:4: switch.tier_override[0].config.load_balancing."
                            "flowlet_gap_ns:",
                            0),
            0u)
      << errors[0];
  EXPECT_EQ(errors[1].rfind("lb.textproto:6: switch.role_override[0].config.load_balancing."
                            "flowlet_table_entries:",
                            0),
            0u)
      << errors[1];
}

}  // namespace
}  // namespace fe::control
