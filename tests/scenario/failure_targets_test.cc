// The topology section's failure list resolved against a graph: targets by name, flaps unrolled,
// and every reference the graph does not have refused by its field path.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "control/scenario/failure_schedule.h"
#include "topology/fat_tree.h"
#include "topology_text.h"

namespace fe::control {
namespace {

using fe::testing::FatTree4;
using fe::testing::TopologyText;

TEST(FailureTargetsTest, RefusesTargetsTheGraphDoesNotHave) {
  const topo::Graph g = FatTree4();
  const std::pair<const char*, const char*> cases[] = {
      {R"pb(failure {
              at_ns: 1
              link { a: "edge0" b: "nope" }
            })pb",
       "failure[0].link.b: no node named \"nope\""},
      {R"pb(failure {
              at_ns: 1
              link { a: "edge0" b: "core0" }
            })pb",
       "failure[0].link: no link between edge0 and core0"},
      {R"pb(failure {
              at_ns: 1
              link { a: "edge0" b: "agg0" index: 1 }
            })pb",
       "failure[0].link.index: edge0 and agg0 have 1 link(s), numbered from 0"},
      {R"pb(failure { at_ns: 1 switch_name: "h3" })pb",
       "failure[0].switch_name: h3 is a host, not a switch"},
      {R"pb(failure { at_ns: 1 switch_name: "core0" }
            failure {
              at_ns: 1
              engine { switch_name: "core0" }
            })pb",
       "failure[1].engine.engine: core0 has 0 optical engine(s), numbered from 0"},
      {R"pb(failure { link { a: "edge0" b: "agg0" } })pb", "failure[0].at_ns: demanded"},
      {R"pb(failure {
              at_ns: 1
              link { a: "edge0" }
            })pb",
       "failure[0].link.b: demanded: a node's name"},
      {R"pb(failure {
              at_ns: 1
              switch_name: "core0"
              flap { down_ns: 5 period_ns: 5 }
            })pb",
       "failure[0].flap.period_ns: must exceed down_ns"},
      {R"pb(failure {
              at_ns: 1
              switch_name: "core0"
              flap { down_ns: 5 period_ns: 1e12 count: 100000 }
            })pb",
       "failure[0].flap: its last up falls after 1000000000000000 ns"},
      {R"pb(failure { at_ns: -3 switch_name: "core0" })pb",
       "failure[0].at_ns: must be in [0, 1000000000000000] ns"},
      {R"pb(failure { at_ns: 1 switch_name: "core0" }
            routing { reconverge_delay_ns: nan })pb",
       "routing.reconverge_delay_ns: must be in [0, 1000000000000000] ns"},
  };
  for (const auto& [text, error] : cases) {
    const StatusOr<ResolvedFailures> r = ResolveFailures(TopologyText(text), g);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().message(), error);
  }
}

TEST(FailureTargetsTest, SwitchFailureTakesAllItsLinksAndFlapsUnroll) {
  const topo::Graph g = FatTree4();
  const StatusOr<ResolvedFailures> r =
      ResolveFailures(TopologyText(R"pb(
                        failure {
                          at_ns: 100
                          switch_name: "agg1"
                          flap { down_ns: 10 period_ns: 50 count: 3 }
                        }
                      )pb"),
                      g);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->targets.size(), 1u);
  EXPECT_EQ(r->targets[0].links.size(), 4u);  // k = 4 ports
  const int64_t want_ns[] = {100, 110, 150, 160, 200, 210};
  ASSERT_EQ(r->changes.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(r->changes[i].at, Time::FromNs(want_ns[i]));
    EXPECT_EQ(r->changes[i].up, i % 2 == 1);
  }
}

}  // namespace
}  // namespace fe::control
