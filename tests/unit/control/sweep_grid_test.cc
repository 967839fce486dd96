// The sweep's grid: the values of each --set, the points in nested-loop order with readable
// names, every point validated (one refused point refuses the grid, named), and input paths
// anchored so a point's scenario runs from its own folder.
#include "control/sweep/sweep_grid.h"

#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "control/process/input_paths.h"
#include "control/scenario/scenario_loader.h"
#include "source_root.h"

namespace fe::control {
namespace {

namespace pb = google::protobuf;

fabric_emu::Scenario Load(const std::string& text) {
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "x.textproto");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? s.value() : fabric_emu::Scenario();
}

const char kFatTree[] =
    "topology { fat_tree { k: 4 } }\n"
    "traffic { permutation { message_bytes: 1048576 } }\n";

std::vector<SweepAxis> Axes(const std::vector<std::string>& args) {
  std::vector<SweepAxis> axes;
  for (const std::string& a : args) {
    StatusOr<SweepAxis> axis = ParseSweepAxis(a);
    EXPECT_TRUE(axis.ok()) << axis.status().message();
    if (axis.ok()) axes.push_back(axis.value());
  }
  return axes;
}

TEST(SweepGridTest, ValuesSplitAtCommasOutsideBracesAndQuotes) {
  StatusOr<SweepAxis> a = ParseSweepAxis("nic.cc={dcqcn {preset: NVIDIA, g: 0.5}},{hpcc {}}");
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->path, "nic.cc");
  EXPECT_EQ(a->values, (std::vector<std::string>{"{dcqcn {preset: NVIDIA, g: 0.5}}", "{hpcc {}}"}));
  a = ParseSweepAxis("traffic[0].job=\"a,b\",c");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->values, (std::vector<std::string>{"\"a,b\"", "c"}));
  a = ParseSweepAxis("name=");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->values, std::vector<std::string>{""});

  EXPECT_EQ(ParseSweepAxis("topology.fat_tree.k=4,8,4").status().message(),
            "--set topology.fat_tree.k: value \"4\" given twice");
  EXPECT_FALSE(ParseSweepAxis("topology.fat_tree.k").ok());
}

TEST(SweepGridTest, PointsRunInNestedLoopOrderWithReadableNames) {
  StatusOr<SweepGrid> grid = BuildSweepGrid(
      Load(kFatTree),
      Axes({"topology.fat_tree.k=2,4", "traffic[0].permutation.message_bytes=4096,65536"}),
      "x.textproto");
  ASSERT_TRUE(grid.ok()) << grid.status().message();
  ASSERT_EQ(grid->points.size(), 4u);  // 2 x 2
  EXPECT_EQ(grid->axes[0].label, "k");
  EXPECT_EQ(grid->axes[1].label, "message_bytes");
  const std::vector<std::string> names = {
      "point-000-k=2-message_bytes=4096", "point-001-k=2-message_bytes=65536",
      "point-002-k=4-message_bytes=4096", "point-003-k=4-message_bytes=65536"};
  for (size_t i = 0; i < 4; ++i) {
    const SweepPoint& p = grid->points[i];
    EXPECT_EQ(p.index, i);
    EXPECT_EQ(p.name, names[i]);
    // The first --set varies slowest.
    EXPECT_EQ(p.scenario.topology().fat_tree().k(), i < 2 ? 2 : 4);
    EXPECT_EQ(p.scenario.traffic(0).permutation().message_bytes(), i % 2 == 0 ? 4096 : 65536);
  }
  EXPECT_EQ(DescribePoint(grid->axes, grid->points[3]), "k=4 message_bytes=65536");
}

TEST(SweepGridTest, AxesEndingAlikeAreLabelledByTheirPaths) {
  const fabric_emu::Scenario base = Load(R"pb(
    topology {
      link_class { name: "host" rate_gbps: 400 }
      link_class { name: "fabric" rate_gbps: 400 }
      clos {
        host_link_class: "host"
        tier { switches: 2 down_links: 2 up_links: 2 uplink_class: "fabric" }
        tier { switches: 2 down_links: 2 }
      }
    }
  )pb");
  StatusOr<SweepGrid> grid =
      BuildSweepGrid(base,
                     Axes({"topology.link_class[0].rate_gbps=400,800",
                           "topology.link_class[1].rate_gbps=400", "nic.mtu_payload_bytes=1024"}),
                     "x.textproto");
  ASSERT_TRUE(grid.ok()) << grid.status().message();
  EXPECT_EQ(grid->axes[0].label, "link_class0.rate_gbps");
  EXPECT_EQ(grid->axes[1].label, "link_class1.rate_gbps");
  EXPECT_EQ(grid->axes[2].label, "mtu_payload_bytes");
  EXPECT_EQ(grid->points[1].name,
            "point-001-link_class0.rate_gbps=800-link_class1.rate_gbps=400-mtu_payload_bytes=1024");
}

TEST(SweepGridTest, NamesKeepOnlyPlainCharacters) {
  StatusOr<SweepGrid> grid = BuildSweepGrid(
      Load(kFatTree), Axes({"nic.cc={dcqcn {preset: NVIDIA}},{hpcc {}}"}), "x.textproto");
  ASSERT_TRUE(grid.ok()) << grid.status().message();
  EXPECT_EQ(grid->points[0].name, "point-000-cc=dcqcn_preset_NVIDIA");
  EXPECT_EQ(grid->points[1].name, "point-001-cc=hpcc");
}

TEST(SweepGridTest, LongNamesAreCutTo200Bytes) {
  // Ten axes: "point-000" and ten "-label=value" parts come to 214 bytes.
  StatusOr<SweepGrid> grid = BuildSweepGrid(
      Load(kFatTree),
      Axes({"run.seed=1", "run.stop_ns=0", "run.progress=true", "run.rate_sample_interval_ns=0",
            "run.queue_sample_interval_ns=0", "run.no_progress_timeout_ns=0",
            "nic.mtu_payload_bytes=4096", "nic.ack_every_packets=1", "nic.cnp_interval_ns=50000",
            "nic.transport.retransmit_timeout_ns=67108864"}),
      "x.textproto");
  ASSERT_TRUE(grid.ok()) << grid.status().message();
  const std::string& name = grid->points[0].name;
  EXPECT_EQ(name.size(), 200u);  // file systems take 255
  EXPECT_TRUE(name.starts_with("point-000-seed=1-stop_ns=0-progress=true-")) << name;
}

TEST(SweepGridTest, ARefusedPointRefusesTheGridAndIsNamed) {
  // k must be even: k=3 is refused by the validator, k=2 and 4 are fine.
  StatusOr<SweepGrid> grid =
      BuildSweepGrid(Load(kFatTree), Axes({"topology.fat_tree.k=2,3,4"}), "x.textproto");
  ASSERT_FALSE(grid.ok());
  EXPECT_EQ(grid.status().message(),
            "point 1 (k=3) is refused:\n"
            "  x.textproto: topology.fat_tree.k: must be an even number from 2 to 64, got 3\n"
            "1 of 3 points refused; a sweep runs only when every point is valid");
}

TEST(SweepGridTest, AValueItsFieldCannotTakeIsNamedOnce) {
  StatusOr<SweepGrid> grid = BuildSweepGrid(
      Load(kFatTree), Axes({"topology.fat_tree.k=2,four", "run.seed=1,2,3"}), "x.textproto");
  ASSERT_FALSE(grid.ok());
  EXPECT_EQ(grid.status().message(),
            "--set topology.fat_tree.k=four: k (int32): takes a whole number from -2147483648 to "
            "2147483647, got \"four\"");
}

TEST(SweepGridTest, APathThatNamesNoFieldIsNamedOnce) {
  StatusOr<SweepGrid> grid = BuildSweepGrid(
      Load(kFatTree), Axes({"topology.fat_tree.link_rat_gbps=400,800,1600", "run.seed=1,2"}),
      "x.textproto");
  ASSERT_FALSE(grid.ok());
  EXPECT_EQ(grid.status().message(),
            "--set topology.fat_tree.link_rat_gbps: no field \"link_rat_gbps\" in FatTree; fields "
            "are k, link_rate_gbps, link_delay_ns, link_class");
}

TEST(SweepGridTest, RefusesRepeatsEmptinessAndHugeGrids) {
  const fabric_emu::Scenario base = Load(kFatTree);
  EXPECT_EQ(
      BuildSweepGrid(base, Axes({"run.seed=1,2", "run.seed=3"}), "x.textproto").status().message(),
      "--set run.seed given twice");
  EXPECT_FALSE(BuildSweepGrid(base, {}, "x.textproto").ok());
  // 22^3 = 10648 points, over the 10000 a sweep takes.
  std::string values;
  for (int i = 1; i <= 22; ++i) values += (i == 1 ? "" : ",") + std::to_string(i);
  StatusOr<SweepGrid> huge =
      BuildSweepGrid(base,
                     Axes({"run.seed=" + values, "topology.fat_tree.link_delay_ns=" + values,
                           "traffic[0].permutation.message_bytes=" + values}),
                     "x.textproto");
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(huge.status().message().starts_with("the grid has more than 10000 points"));
}

TEST(SweepGridTest, InputPathsBecomeAbsoluteUnderTheScenarioFolder) {
  const std::string path = SourceRoot() + "/scenarios/multi_tenant.textproto";
  StatusOr<fabric_emu::Scenario> base = LoadScenarioFile(path);
  ASSERT_TRUE(base.ok()) << base.status().message();
  ASSERT_EQ(base->traffic(2).cdf_load().cdf_file(), "../traffic/data/websearch.cdf");
  StatusOr<SweepGrid> grid = BuildSweepGrid(*base, Axes({"run.seed=1,2"}), path);
  ASSERT_TRUE(grid.ok()) << grid.status().message();
  const std::filesystem::path want =
      std::filesystem::absolute(SourceRoot() + "/traffic/data/websearch.cdf").lexically_normal();
  EXPECT_EQ(grid->points[0].scenario.traffic(2).cdf_load().cdf_file(), want.string());
  EXPECT_TRUE(std::filesystem::exists(want));
}

void CollectInputPathFields(const pb::Descriptor* type, std::set<const pb::Descriptor*>* seen,
                            std::set<std::string>* out) {
  if (!seen->insert(type).second) return;
  for (int i = 0; i < type->field_count(); ++i) {
    const pb::FieldDescriptor* f = type->field(i);
    if (IsInputPathField(f)) out->insert(f->full_name());
    if (f->message_type() != nullptr) CollectInputPathFields(f->message_type(), seen, out);
  }
}

TEST(SweepGridTest, InputPathFieldsAreTheOnesTheProtosDocumentAsRelativeToTheScenario) {
  // The fields whose comments in proto/*.proto say "relative paths start at the scenario's
  // folder" (and the graph's file, "relative to the scenario's folder"); capture.file is an
  // output, relative to the output directory.
  std::set<const pb::Descriptor*> seen;
  std::set<std::string> found;
  CollectInputPathFields(fabric_emu::Scenario::descriptor(), &seen, &found);
  EXPECT_EQ(found, (std::set<std::string>{
                       "fabric_emu.CdfLoad.cdf_file", "fabric_emu.ExplicitGraph.file",
                       "fabric_emu.KvMooncakeTrace.file",
                       "fabric_emu.KvPoisson.input_tokens_cdf_file", "fabric_emu.TraceFile.file"}));
}

}  // namespace
}  // namespace fe::control
