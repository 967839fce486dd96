// Commands are refused with the field named, the same way from a scenario's schedule and from
// JSON (the HTTP API's form): the same field path and reason, only the file and line apart.
#include <gtest/gtest.h>

#include <string>

#include "control/scenario/command_json.h"
#include "control/scenario/scenario_loader.h"
#include "control/scenario/validate/validate_command.h"
#include "topology/build.h"

namespace fe::control {
namespace {

// A 4-ary fat-tree (16 hosts; edge0..7, agg0..7, core0..3 of 4 ports) running DCQCN.
constexpr char kBase[] = R"pb(
  topology { fat_tree { k: 4 } }
  nic { cc { dcqcn {} } }
  traffic { permutation { message_bytes: 1000 } }
)pb";

// The error a schedule entry holding `command` (text format) gets, less "FILE:LINE: schedule[0].".
std::string ScheduleError(const std::string& command) {
  StatusOr<fabric_emu::Scenario> s =
      LoadScenarioText(std::string(kBase) + "schedule { at_ns: 1000 " + command + " }", "s.txt");
  if (s.ok()) return "accepted";
  const std::string m = s.status().message();
  const std::string marker = "schedule[0].";
  const size_t at = m.find(marker);
  return at == std::string::npos
             ? m
             : m.substr(at + marker.size(), m.find('\n', at) - at - marker.size());
}

// The error ValidateCommand gives the same command sent as JSON.
std::string JsonError(const std::string& json) {
  StatusOr<fabric_emu::Command> c = ParseCommandJson(json);
  if (!c.ok()) return c.status().message();
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(kBase, "s.txt");
  EXPECT_TRUE(s.ok()) << s.status().message();
  StatusOr<topo::Graph> g = topo::BuildTopology(s->topology(), ".");
  EXPECT_TRUE(g.ok());
  const Status v = ValidateCommand(*c, *s, *g);
  return v.ok() ? "accepted" : v.message();
}

struct Case {
  std::string text;
  std::string json;
  std::string error;  // field path and reason
};

TEST(CommandValidationTest, ScheduleAndJsonRefuseAlike) {
  const Case cases[] = {
      {"set_ecn { priority: 3 wred { kmin_bytes: -1 } }",
       R"({"set_ecn": {"priority": 3, "wred": {"kmin_bytes": -1}}})",
       "set_ecn.wred.kmin_bytes: must be >= 0, got -1"},
      {"set_ecn { priority: 3 wred { pmax: 2 } }",
       R"({"set_ecn": {"priority": 3, "wred": {"pmax": 2}}})",
       "set_ecn.wred.pmax: must be in [0, 1] (a probability), got 2"},
      {"set_ecn { priority: 3 wred { kmin_bytes: 300000 } }",
       R"({"set_ecn": {"priority": 3, "wred": {"kmin_bytes": 300000}}})",
       "set_ecn.wred.kmin_bytes: must be <= kmax_bytes (204800), got 300000"},
      {"set_ecn { priority: 9 wred {} }", R"({"set_ecn": {"priority": 9, "wred": {}}})",
       "set_ecn.priority: must be in [0, 7], got 9"},
      {"set_ecn { switch_name: \"leaf9\" priority: 3 wred {} }",
       R"({"set_ecn": {"switch_name": ["leaf9"], "priority": 3, "wred": {}}})",
       "set_ecn.switch_name[0]: no switch is named \"leaf9\" (switches are named role + index, "
       "e.g. leaf3)"},
      {"set_pfc { switch_name: \"edge0\" port: 4 priority: 3 enabled: false }",
       R"({"set_pfc": {"switch_name": ["edge0"], "port": 4, "priority": 3, "enabled": false}})",
       "set_pfc.port: must be a local port in [0, 3] of the switches named, got 4"},
      {"set_pfc { priority: 3 }", R"({"set_pfc": {"priority": 3}})",
       "set_pfc.enabled: required: enabled: true or false"},
      {"set_dcqcn { dcqcn { g: 0 } }", R"({"set_dcqcn": {"dcqcn": {"g": 0}}})",
       "set_dcqcn.dcqcn.g: must be in (0, 1], got 0"},
      {"set_dcqcn { host: 16 dcqcn { g: 0.5 } }",
       R"({"set_dcqcn": {"host": [16], "dcqcn": {"g": 0.5}}})",
       "set_dcqcn.host: must be a host index in [0, 15] (the topology has 16 hosts), got 16"},
      {"set_link { link { a: \"edge0\" b: \"core0\" } }",
       R"({"set_link": {"link": {"a": "edge0", "b": "core0"}}})",
       "set_link.link: no link between edge0 and core0"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ScheduleError(c.text), c.error) << c.text;
    EXPECT_EQ(JsonError(c.json), c.error) << c.json;
  }
}

TEST(CommandValidationTest, ScheduleNamesTheFileLineAndEntry) {
  // kBase holds 4 lines; the second entry is on line 6.
  StatusOr<fabric_emu::Scenario> s =
      LoadScenarioText(std::string(kBase) +
                           "schedule { at_ns: 1000 set_ecn { priority: 3 wred {} } }\n"
                           "schedule { at_ns: -5 set_ecn { priority: 3 wred {} } }\n",
                       "s.txt");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            "s.txt:6: schedule[1].at_ns: must be in [0, 1e+15] (in ns: 1 ps resolution, at most "
            "11.6 days), got -5");
}

TEST(CommandValidationTest, CommandsThatPassAreAccepted) {
  EXPECT_EQ(ScheduleError("set_ecn { role: \"edge\" priority: 3 wred { kmin_bytes: 1000 } }"),
            "accepted");
  EXPECT_EQ(JsonError(R"({"set_link": {"link": {"a": "edge0", "b": "agg0"}, "up": true}})"),
            "accepted");
}

TEST(CommandValidationTest, JsonRefusesUnknownFieldsAndNoCommand) {
  const std::string unknown = JsonError(R"({"set_ecn": {"priority": 3, "kmin": 5}})");
  EXPECT_EQ(unknown, "bad command JSON: (set_ecn) kmin: Cannot find field.");
  EXPECT_NE(JsonError(R"({"set_ecn": )").find("bad command JSON"), std::string::npos);
  EXPECT_EQ(JsonError("{}"), "names no command: give one of set_ecn, set_pfc, set_dcqcn, set_link");
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(
      "topology { fat_tree { k: 4 } } traffic { permutation { message_bytes: 1000 } } "
      "schedule { at_ns: 0 set_dcqcn { dcqcn { g: 0.5 } } }",
      "s.txt");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find(
                "schedule[0].set_dcqcn: the NICs do not run DCQCN (nic.cc has no dcqcn section)"),
            std::string::npos);
}

TEST(CommandValidationTest, JsonRefusesDeepNestingAndTextThatIsNotUtf8) {
  // The same guard as every JSON reader's: 64 levels, whatever the parser behind it allows.
  EXPECT_EQ(ParseCommandJson(std::string(100000, '[')).status().message(),
            "bad command JSON: nested deeper than 64 levels at byte 65");
  // A switch's name reaches events.csv and the API's answer, which hold UTF-8 only.
  EXPECT_FALSE(
      ParseCommandJson("{\"set_ecn\": {\"switch_name\": [\"\xff\"], \"priority\": 3}}").ok());
}

TEST(CommandValidationTest, ScheduledJsonCarriesTheTimeBesideTheCommand) {
  StatusOr<fabric_emu::ScheduledCommand> entry = ParseScheduledCommandJson(
      R"({"at_ns": 40000, "set_pfc": {"role": "edge", "priority": 3, "enabled": false}})");
  ASSERT_TRUE(entry.ok()) << entry.status().message();
  EXPECT_EQ(entry->at_ns(), 40000);
  EXPECT_EQ(CommandJson(CommandOf(*entry)),
            R"({"set_pfc":{"role":"edge","priority":3,"enabled":false}})");
  EXPECT_EQ(ParseScheduledCommandJson(R"({"at": 1})").status().message(),
            "bad command JSON: at: Cannot find field.");
}

TEST(CommandValidationTest, JsonRoundTrips) {
  StatusOr<fabric_emu::Command> c = ParseCommandJson(
      R"({"set_ecn": {"switch_name": ["edge0", "agg1"], "priority": 3,
          "wred": {"kmin_bytes": "20000", "pmax": 0.25}}})");
  ASSERT_TRUE(c.ok()) << c.status().message();
  const std::string line = CommandJson(*c);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  StatusOr<fabric_emu::Command> back = ParseCommandJson(line);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->SerializeAsString(), c->SerializeAsString());
}

}  // namespace
}  // namespace fe::control
