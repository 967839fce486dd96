// --set PATH=VALUE through reflection: what each kind of field takes, and the message of each
// refusal. The expected field lists come from proto/scenario.proto's declarations.
#include "control/scenario/field_override.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

#include "proto/scenario.pb.h"

namespace fe::control {
namespace {

fabric_emu::Scenario Parse(const std::string& text) {
  fabric_emu::Scenario s;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &s));
  return s;
}

const char kBase[] = R"pb(
  name: "base"
  topology { fat_tree { k: 4 link_rate_gbps: 100 } }
  switch {
    queue {
      priority: 3
      wred { kmin_bytes: 5120 }
    }
  }
  traffic { permutation { message_bytes: 1048576 } }
  traffic {
    collective {
      op: ALL_REDUCE
      host: [ 0, 1, 2, 3 ]
      size_bytes: 1024
    }
  }
)pb";

// The error of setting `path` to `value` in kBase; the scenario must come back unchanged.
std::string ErrorOf(const std::string& path, const std::string& value) {
  fabric_emu::Scenario s = Parse(kBase);
  const Status status = SetFieldByPath(&s, path, value);
  EXPECT_FALSE(status.ok()) << path << "=" << value;
  EXPECT_EQ(s.SerializeAsString(), Parse(kBase).SerializeAsString()) << "changed by a refusal";
  return status.message();
}

TEST(FieldOverrideTest, SetsNestedRepeatedEnumBoolStringAndMessageFields) {
  fabric_emu::Scenario s = Parse(kBase);
  ASSERT_TRUE(SetFieldByPath(&s, "topology.fat_tree.link_rate_gbps", "400").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "switch.queue[0].wred.kmin_bytes", "20480").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "traffic[0].permutation.message_bytes", "1e6").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "traffic[1].collective.host[2]", "7").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "traffic[1].collective.algorithm", "DOUBLE_BINARY_TREE").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "switch.pfc.enabled", "false").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "traffic[0].job", "\"a,b\"").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "name", "swept").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "nic.cc", "{dcqcn {preset: NVIDIA}}").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "run.seed", "18446744073709551615").ok());

  EXPECT_EQ(s.topology().fat_tree().link_rate_gbps(), 400);
  EXPECT_EQ(s.topology().fat_tree().k(), 4);  // its neighbours untouched
  EXPECT_EQ(s.switch_().queue(0).wred().kmin_bytes(), 20480);
  EXPECT_EQ(s.switch_().queue(0).priority(), 3);
  EXPECT_EQ(s.traffic(0).permutation().message_bytes(), 1000000);
  EXPECT_EQ(s.traffic(1).collective().host(2), 7);
  EXPECT_EQ(s.traffic(1).collective().host(3), 3);
  EXPECT_EQ(s.traffic(1).collective().algorithm(), fabric_emu::Collective::DOUBLE_BINARY_TREE);
  EXPECT_TRUE(s.switch_().pfc().has_enabled());
  EXPECT_FALSE(s.switch_().pfc().enabled());
  EXPECT_EQ(s.traffic(0).job(), "a,b");  // the quotes taken off, the comma kept
  EXPECT_EQ(s.name(), "swept");
  ASSERT_TRUE(s.nic().cc().has_dcqcn());
  EXPECT_EQ(s.nic().cc().dcqcn().preset(), fabric_emu::Dcqcn::NVIDIA);
  EXPECT_EQ(s.run().seed(), 18446744073709551615u);  // 2^64 - 1, exact
}

TEST(FieldOverrideTest, AFieldOfAnotherOneofMemberSwitchesTheOneof) {
  fabric_emu::Scenario s = Parse(kBase);
  ASSERT_TRUE(SetFieldByPath(&s, "topology.clos.pods", "2").ok());
  EXPECT_EQ(s.topology().kind_case(), fabric_emu::Topology::kClos);
  EXPECT_FALSE(s.topology().has_fat_tree());
  EXPECT_EQ(s.topology().clos().pods(), 2);

  // A whole message value switches too: HPCC replaces DCQCN.
  ASSERT_TRUE(SetFieldByPath(&s, "nic.cc.dcqcn.g", "0.5").ok());
  ASSERT_TRUE(SetFieldByPath(&s, "nic.cc", "hpcc {eta: 0.9}").ok());  // braces optional
  EXPECT_EQ(s.nic().cc().algorithm_case(), fabric_emu::CongestionControl::kHpcc);
  EXPECT_DOUBLE_EQ(s.nic().cc().hpcc().eta(), 0.9);
}

TEST(FieldOverrideTest, UnknownFieldListsTheFieldsThere) {
  EXPECT_EQ(ErrorOf("topology.fat_tree.link_rat_gbps", "400"),
            "no field \"link_rat_gbps\" in FatTree; fields are k, link_rate_gbps, link_delay_ns, "
            "link_class");
  // Fields added to Scenario later come at the end of the list.
  EXPECT_TRUE(ErrorOf("topolgy.fat_tree.k", "4")
                  .starts_with("no field \"topolgy\" in Scenario; fields are name, topology, "
                               "switch, nic, traffic, run, realtime, capture"));
}

TEST(FieldOverrideTest, BadValuesNameTheFieldAndItsType) {
  EXPECT_EQ(ErrorOf("topology.fat_tree.link_rate_gbps", "fast"),
            "link_rate_gbps (double): takes a finite number, got \"fast\"");
  EXPECT_EQ(ErrorOf("topology.fat_tree.link_rate_gbps", "inf"),
            "link_rate_gbps (double): takes a finite number, got \"inf\"");
  EXPECT_EQ(ErrorOf("topology.fat_tree.k", "4.5"),
            "k (int32): takes a whole number from -2147483648 to 2147483647, got \"4.5\"");
  EXPECT_EQ(ErrorOf("switch.pfc.enabled", "yes"),
            "enabled (bool): takes true or false, got \"yes\"");
  EXPECT_EQ(ErrorOf("nic.cc.dcqcn.preset", "NVIDA"),
            "preset (Preset): no value \"NVIDA\" in Preset; values are PRESET_UNSPECIFIED, PAPER, "
            "NVIDIA");
  EXPECT_EQ(ErrorOf("nic.cc", "{dcqcn {preset: NVIDA}}"),
            "cc (CongestionControl): not a CongestionControl in text format (column 21: Unknown "
            "enumeration value of \"NVIDA\" for field \"preset\".), got \"{dcqcn {preset: "
            "NVIDA}}\"");
}

TEST(FieldOverrideTest, NumbersOutsideTheirTypeAreRefused) {
  // int32 ends at 2^31 - 1; uint64 starts at 0; a double ends near 1.8e308.
  EXPECT_EQ(ErrorOf("topology.fat_tree.k", "2147483648"),
            "k (int32): out of range: takes -2147483648 to 2147483647, got \"2147483648\"");
  EXPECT_EQ(ErrorOf("topology.fat_tree.k", "3e9"),
            "k (int32): out of range: takes -2147483648 to 2147483647, got \"3e9\"");
  EXPECT_EQ(ErrorOf("run.seed", "-1"),
            "seed (uint64): out of range: takes 0 to 18446744073709551615, got \"-1\"");
  EXPECT_EQ(ErrorOf("topology.fat_tree.link_rate_gbps", "1e400"),
            "link_rate_gbps (double): out of range for a double, got \"1e400\"");
}

TEST(FieldOverrideTest, BadIndicesAndPathsAreRefused) {
  EXPECT_EQ(ErrorOf("traffic[2].permutation.message_bytes", "1"),
            "traffic[2]: no such element: the scenario has 2 traffic entries, [0] to [1]");
  EXPECT_EQ(ErrorOf("switch.queue[1].alpha", "1"),
            "queue[1]: no such element: the scenario has 1 queue entry, [0]");
  // A message not in the scenario has no elements: nothing is created for a refused index.
  EXPECT_EQ(ErrorOf("topology.clos.tier[0].switches", "4"),
            "tier[0]: no such element: the scenario has no tier entry");
  EXPECT_EQ(ErrorOf("traffic.permutation.message_bytes", "1"),
            "traffic is a repeated field: name one element, as traffic[0]");
  EXPECT_EQ(ErrorOf("topology[0].fat_tree.k", "4"),
            "topology is not a repeated field: it takes no [index]");
  EXPECT_EQ(ErrorOf("topology.fat_tree.k.bits", "4"),
            "k (int32) is not a message: nothing can follow it");
  for (const char* bad : {"topology..k", "traffic[x].job", "traffic[-1].job", "traffic[0.job",
                          "traffic[]", ".name", "name."}) {
    EXPECT_TRUE(ErrorOf(bad, "1").starts_with("bad path element")) << bad;
  }
}

TEST(FieldOverrideTest, ARefusedValueSwitchesNoOneof) {
  // Setting clos.pods to a bad value must not have switched the topology to an empty Clos.
  EXPECT_EQ(ErrorOf("topology.clos.pods", "two"),
            "pods (int32): takes a whole number from -2147483648 to 2147483647, got \"two\"");
}

TEST(FieldOverrideTest, ParsesPathEqualsValue) {
  StatusOr<FieldOverride> o = ParseFieldOverride("nic.cc={dcqcn {g: 0.5}}=x");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->path, "nic.cc");
  EXPECT_EQ(o->value, "{dcqcn {g: 0.5}}=x");  // split at the first '='
  o = ParseFieldOverride("name=");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->value, "");
  for (const char* bad : {"topology.fat_tree.k", "=4", ""}) {
    EXPECT_FALSE(ParseFieldOverride(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace fe::control
