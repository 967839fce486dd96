// The example topologies in scenarios/ build, and say what their comments say.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "topology/build.h"
#include "topology/engines.h"
#include "topology/metrics.h"

namespace fe::topo {
namespace {

namespace fs = std::filesystem;

StatusOr<Graph> BuildShipped(const std::string& name) {
  const char* root = std::getenv("FABRIC_EMU_ROOT");
  if (root == nullptr) return Status::Error("FABRIC_EMU_ROOT is not set: run through ctest");
  const fs::path path = fs::path(root) / "scenarios" / name;
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  fabric_emu::Scenario scenario;
  if (!google::protobuf::TextFormat::ParseFromString(text.str(), &scenario)) {
    return Status::Error(path.string() + " does not parse");
  }
  return BuildTopology(scenario.topology(), path.parent_path().string());
}

TEST(ShippedScenariosTest, EveryScenarioBuilds) {
  const char* root = std::getenv("FABRIC_EMU_ROOT");
  ASSERT_NE(root, nullptr) << "run through ctest, which sets FABRIC_EMU_ROOT";
  int count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(root) / "scenarios")) {
    if (entry.path().extension() != ".textproto") continue;
    ++count;
    StatusOr<Graph> g = BuildShipped(entry.path().filename().string());
    EXPECT_TRUE(g.ok()) << entry.path() << ": " << g.status().message();
  }
  EXPECT_GE(count, 3);
}

// 16 leaves of 8 hosts and 4 up-links at 400 Gb/s: 2:1, bisection min(64, 8 x 4) x 400 Gb/s.
TEST(ShippedScenariosTest, ClosTwoToOneIsTwoToOne) {
  StatusOr<Graph> g = BuildShipped("clos_2to1.textproto");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->num_hosts(), 128u);
  EXPECT_DOUBLE_EQ(TierLoads(*g)[0].oversubscription(), 2.0);
  EXPECT_DOUBLE_EQ(BisectionBps(*g), std::min(64.0, 8.0 * 4) * 400e9);
}

TEST(ShippedScenariosTest, RailScaleUpHasADomainPerServer) {
  StatusOr<Graph> g = BuildShipped("rail_scaleup.textproto");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->num_hosts(), 16u * 8);
  for (uint32_t h = 0; h < g->num_hosts(); ++h) {
    EXPECT_EQ(g->node(g->hosts()[h]).domain, static_cast<int32_t>(h / 8));
  }
}

// Engine 0 of spine0 serves its first 4 CPO ports: the 2 links to leaf0 and the 2 to leaf1.
TEST(ShippedScenariosTest, CpoEngineZeroOfSpineZeroServesLeavesZeroAndOne) {
  StatusOr<Graph> g = BuildShipped("cpo_engine_failure.textproto");
  ASSERT_TRUE(g.ok()) << g.status().message();
  const NodeId spine0 = *g->FindNode("spine0");
  bool found = false;
  for (const OpticalEngine& e : OpticalEngines(*g)) {
    if (e.switch_node != spine0 || e.engine != 0) continue;
    found = true;
    ASSERT_EQ(e.ports.size(), 4u);
    const char* peers[] = {"leaf0", "leaf0", "leaf1", "leaf1"};
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(g->node(g->Peer({spine0, e.ports[i]}).node).name, peers[i]);
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace fe::topo
