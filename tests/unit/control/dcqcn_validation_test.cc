// A DCQCN section is checked against the ranges DCQCN itself keeps (cong::Check): a value just
// outside a documented range (docs/scenario.md, proto/settings.proto) is refused at its field's
// line and path, naming the range; one on the edge inside is accepted.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "control/scenario/scenario_loader.h"

namespace fe::control {
namespace {

std::vector<std::string> Errors(const std::string& dcqcn_fields) {
  const std::string text =
      "topology { fat_tree { k: 4 link_rate_gbps: 100 } }\n"
      "traffic { incast { senders: 2 message_bytes: 100000 } }\n"
      "nic { cc { dcqcn { " +
      dcqcn_fields + " } } }\n";
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "dcqcn.textproto");
  std::vector<std::string> lines;
  if (s.ok()) return lines;
  std::istringstream in(s.status().message());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(DcqcnValidationTest, ValuesJustOutsideTheirRangeAreRefusedAtTheirField) {
  struct Case {
    std::string fields;
    std::string path;   // after "dcqcn.textproto:3: "
    std::string range;  // the allowed range the message must name
  };
  const Case cases[] = {
      {"g: 0", "nic.cc.dcqcn.g:", "(0, 1]"},
      {"g: 1.000001", "nic.cc.dcqcn.g:", "(0, 1]"},
      {"initial_alpha: -0.001", "nic.cc.dcqcn.initial_alpha:", "[0, 1]"},
      {"initial_alpha: 1.001", "nic.cc.dcqcn.initial_alpha:", "[0, 1]"},
      {"min_decrease_factor: 1", "nic.cc.dcqcn.min_decrease_factor:", "[0, 1)"},
      {"min_decrease_factor: -0.001", "nic.cc.dcqcn.min_decrease_factor:", "[0, 1)"},
      {"alpha_update_period_ns: 999", "nic.cc.dcqcn.alpha_update_period_ns:", "at least 1000"},
      {"increase_timer_period_ns: 999", "nic.cc.dcqcn.increase_timer_period_ns:", "at least 1000"},
      {"rate_reduce_monitor_period_ns: -1", "nic.cc.dcqcn.rate_reduce_monitor_period_ns:", ">= 0"},
      {"byte_counter_bytes: 0", "nic.cc.dcqcn.byte_counter_bytes:", "> 0"},
      {"fast_recovery_steps: -1", "nic.cc.dcqcn.fast_recovery_steps:", ">= 0"},
      {"additive_increase_mbps: -1", "nic.cc.dcqcn.additive_increase_mbps:", ">= 0"},
      {"hyper_increase_mbps: 1600001", "nic.cc.dcqcn.hyper_increase_mbps:", "1600000"},
      {"min_rate_mbps: 0.999", "nic.cc.dcqcn.min_rate_mbps:", "[1, 100000]"},
      {"min_rate_mbps: 100001", "nic.cc.dcqcn.min_rate_mbps:", "[1, 100000]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fields);
    const std::vector<std::string> errors = Errors(c.fields);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].rfind("dcqcn.textproto:3: " + c.path + " ", 0), 0u) << errors[0];
    EXPECT_NE(errors[0].find(c.range), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find("got "), std::string::npos) << errors[0];
  }
}

TEST(DcqcnValidationTest, ValuesOnTheEdgeOfTheirRangeAreAccepted) {
  for (const char* fields :
       {"g: 1", "g: 1e-9", "initial_alpha: 0", "initial_alpha: 1", "min_decrease_factor: 0",
        "min_decrease_factor: 0.999999", "alpha_update_period_ns: 1000",
        "increase_timer_period_ns: 1000", "rate_reduce_monitor_period_ns: 0",
        "byte_counter_bytes: 1", "fast_recovery_steps: 0", "additive_increase_mbps: 0",
        "hyper_increase_mbps: 1600000", "min_rate_mbps: 1", "min_rate_mbps: 100000"}) {
    EXPECT_TRUE(Errors(fields).empty()) << fields << ": " << Errors(fields)[0];
  }
}

// Every bad field is reported, not just the first DCQCN's own check meets.
TEST(DcqcnValidationTest, EveryBadFieldIsReported) {
  const std::vector<std::string> errors = Errors("g: 2 byte_counter_bytes: -5");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find("nic.cc.dcqcn.g:"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("nic.cc.dcqcn.byte_counter_bytes:"), std::string::npos) << errors[1];
}

}  // namespace
}  // namespace fe::control
