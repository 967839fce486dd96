// BuildWorkload: one job per traffic section, named and classed as the section says, merged in
// section order; dependencies checked per section.
#include "control/scenario/workload_build.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

#include "topology_text.h"

namespace fe::control {
namespace {

fabric_emu::Scenario Parse(const std::string& traffic) {
  fabric_emu::Scenario s;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(traffic, &s));
  return s;
}

TEST(WorkloadBuildTest, EachSectionIsAJobWithItsNameAndDscp) {
  const topo::Graph g = fe::testing::FatTree4();  // 16 hosts
  const fabric_emu::Scenario s = Parse(R"pb(
    traffic { incast { senders: 3 message_bytes: 1000 } }
    traffic {
      job: "steps"
      dscp: 10
      flow_list {
        flow { src_host: 1 dst_host: 2 message_bytes: 10 }
        flow { src_host: 2 dst_host: 3 message_bytes: 20 after: 0 delay_ns: 7.5 }
      }
    }
    traffic { permutation { message_bytes: 100 } }
  )pb");
  StatusOr<Workload> w = BuildWorkload(s, g, 1, ".");
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_EQ(w->jobs.size(), 3u);
  EXPECT_EQ(w->jobs[0].name, "incast0");
  EXPECT_EQ(w->jobs[0].kind, "incast");
  EXPECT_EQ(w->jobs[0].dscp, 26);
  EXPECT_EQ(w->jobs[1].name, "steps");
  EXPECT_EQ(w->jobs[1].dscp, 10);
  EXPECT_EQ(w->jobs[2].name, "permutation2");
  ASSERT_EQ(w->size(), 3u + 2 + 16);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(w->job_of[i], 0u);
  EXPECT_EQ(w->job_of[3], 1u);
  EXPECT_EQ(w->job_of[5], 2u);
  // The flow list's dependency, renumbered past the incast's three messages.
  ASSERT_EQ(w->dependencies(4).size(), 1u);
  EXPECT_EQ(w->dependencies(4)[0], 3u);
  EXPECT_EQ(w->delay[4], Time::FromPs(7500));
  EXPECT_EQ(w->flows[4].size_bytes, 20u);
}

TEST(WorkloadBuildTest, BadDependenciesAreRefusedBySection) {
  const topo::Graph g = fe::testing::FatTree4();
  const auto error = [&](const std::string& traffic) {
    StatusOr<Workload> w = BuildWorkload(Parse(traffic), g, 1, ".");
    return w.ok() ? std::string("ok") : w.status().message();
  };
  EXPECT_EQ(error(R"pb(traffic { permutation { message_bytes: 100 } }
                       traffic {
                         flow_list { flow { src_host: 1 dst_host: 2 message_bytes: 10 after: -1 } }
                       })pb"),
            "traffic[1]: message 0 waits for message 4294967295, which does not exist");
  EXPECT_EQ(error(R"pb(traffic {
                         flow_list {
                           flow { src_host: 1 dst_host: 2 message_bytes: 10 after: 1 }
                           flow { src_host: 1 dst_host: 2 message_bytes: 10 after: 0 }
                         }
                       })pb"),
            "traffic[0]: message 0 is in, or waits for, a dependency cycle");
  EXPECT_EQ(error("traffic { }"), "traffic[0]: traffic section without a pattern");
}

}  // namespace
}  // namespace fe::control
