#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "build_test_util.h"
#include "topology/metrics.h"

namespace fe::topo {
namespace {

constexpr char kClass[] = "link_class { name: \"c\" rate_gbps: 100 }\n";

// Two switches in a line, two hosts on each.
constexpr char kLine[] = R"(
  node { name: "a" host: true } node { name: "b" host: true }
  node { name: "c1" host: true } node { name: "d" host: true }
  node { name: "s1" } node { name: "s2" role: "spine" radix: 4 }
  link { a: "a" b: "s1" link_class: "c" } link { a: "b" b: "s1" link_class: "c" }
  link { a: "c1" b: "s2" link_class: "c" } link { a: "d" b: "s2" link_class: "c" }
  link { a: "s1" b: "s2" link_class: "c" count: 2 }
)";

TEST(ExplicitGraphTest, BuildsListedNodesWithDerivedTiers) {
  StatusOr<Graph> g = BuildText(std::string(kClass) + "graph {" + kLine + "}");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->num_hosts(), 4u);
  EXPECT_EQ(g->links().size(), 6u);
  EXPECT_EQ(g->node(*g->FindNode("s1")).tier, 1);
  EXPECT_EQ(g->node(*g->FindNode("s1")).role, "switch");
  EXPECT_EQ(g->node(*g->FindNode("s2")).role, "spine");
  // Both halves ({a, b} on s1, {c1, d} on s2) meet over the two parallel links.
  EXPECT_DOUBLE_EQ(BisectionBps(*g), 2 * 100e9);
  EXPECT_EQ(DiameterLinks(*g), 3u);
}

TEST(ExplicitGraphTest, ReadsAFileBesideTheScenario) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("fe_graph_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "g.textproto") << kLine;
  StatusOr<Graph> g = BuildText(std::string(kClass) + "graph { file: \"g.textproto\" }", dir);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->num_hosts(), 4u);
  // An error in the file names the file and line.
  std::ofstream(dir / "bad.textproto") << "node { name: \"x\" host: true }\n"
                                          "node { name: \"x\" }\n";
  EXPECT_EQ(ErrorOf(std::string(kClass) + "graph { file: \"bad.textproto\" }", dir),
            "graph.file: bad.textproto:2: node[1].name: \"x\" is already node[0]'s name");
  // A name in Latin-1, as an old tool might write it: 0xe9 is no UTF-8 sequence's start here.
  std::ofstream(dir / "latin1.textproto") << "node { name: \"a\" host: true }\n"
                                             "node { name: \"caf\xe9\" }\n";
  EXPECT_EQ(ErrorOf(std::string(kClass) + "graph { file: \"latin1.textproto\" }", dir),
            "graph.file: latin1.textproto:2: node[1].name: is not UTF-8 text (byte 0xe9 at "
            "offset 3); names and paths reach summary.json and the CSV outputs, which hold "
            "UTF-8 only");
  EXPECT_EQ(ErrorOf(std::string(kClass) + "graph { file: \"none.textproto\" }", dir)
                .rfind("graph.file: \"none.textproto\": no such regular file", 0),
            0u);
  // A file past 64 MiB is refused by its size, before it is read (sparse: costs no disk).
  std::ofstream(dir / "huge.textproto").put('#');
  std::filesystem::resize_file(dir / "huge.textproto", (std::uintmax_t{64} << 20) + 1);
  EXPECT_EQ(ErrorOf(std::string(kClass) + "graph { file: \"huge.textproto\" }", dir),
            "graph.file: \"huge.textproto\" has 67108865 bytes, more than the 64 MiB a graph "
            "file may have");
  std::filesystem::remove_all(dir);
}

std::string With(const std::string& extra) {
  return std::string(kClass) + "graph {" + kLine + extra + "}";
}

TEST(ExplicitGraphTest, RefusesBadGraphsWithTheFieldPath) {
  EXPECT_EQ(ErrorOf(With("link { a: \"s1\" b: \"ghost\" link_class: \"c\" }")),
            "graph.link[5].b: no node is named \"ghost\"");
  EXPECT_EQ(ErrorOf(With("node { name: \"a\" }")),
            "graph.node[6].name: \"a\" is already node[0]'s name");
  EXPECT_EQ(ErrorOf(With("node { name: \"lonely\" host: true }")),
            "graph.node[6]: host \"lonely\" has no link");
  EXPECT_EQ(ErrorOf(With("link { a: \"a\" b: \"s2\" link_class: \"c\" }"))
                .rfind("graph.link[5]: host \"a\" already has link[0]", 0),
            0u);
  // s2 has 2 hosts + 2 links to s1 = 4 ports, its radix; one more exceeds it.
  EXPECT_EQ(ErrorOf(With(
                "node { name: \"e\" host: true } link { a: \"e\" b: \"s2\" link_class: \"c\" }")),
            "graph.node[5].radix: a switch needs 5 ports, more than its radix 4");
  // A host whose switch leads to no other host.
  EXPECT_EQ(ErrorOf(With("node { name: \"e\" host: true } node { name: \"s3\" } "
                         "link { a: \"e\" b: \"s3\" link_class: \"c\" }")),
            "graph.node[6]: host \"e\" can reach no other host");
}

// "h<N>" is how commands and outputs name host N, the (N+1)-th host listed: a node may bear such a
// name only if it is that host.
TEST(ExplicitGraphTest, ANameOfTheFormHNIsHostNOrRefused) {
  const std::string two_hosts = R"(
    node { name: "h1" host: true } node { name: "h0" host: true } node { name: "s" }
    link { a: "h0" b: "s" link_class: "c" } link { a: "h1" b: "s" link_class: "c" })";
  EXPECT_EQ(ErrorOf(std::string(kClass) + "graph {" + two_hosts + "}"),
            "graph.node[0].name: \"h1\" reads as host 1, but this is host 0 (hosts are numbered "
            "in the order listed); name it otherwise");
  EXPECT_EQ(ErrorOf(With("node { name: \"h9\" }")),
            "graph.node[6].name: \"h9\" reads as host 9, but this node is a switch; name it "
            "otherwise");
  StatusOr<Graph> g = BuildText(std::string(kClass) + R"(graph {
    node { name: "h0" host: true } node { name: "h1" host: true } node { name: "h01x" }
    link { a: "h0" b: "h01x" link_class: "c" } link { a: "h1" b: "h01x" link_class: "c" } })");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->HostIndex(*g->FindNode("h1")), 1);
}

// 16,385 switch pairs of 1,024 parallel links each: within every switch's ports, but past the
// 2^24 links a fabric may have; refused before any link is made.
TEST(ExplicitGraphTest, RefusesMoreLinksThanAFabricMayHave) {
  std::string extra;
  for (int i = 0; i <= (1 << 24) / 1024; ++i) {
    const std::string n = std::to_string(i);
    extra += "node { name: \"x" + n + "\" } node { name: \"y" + n + "\" } link { a: \"x" + n +
             "\" b: \"y" + n + "\" link_class: \"c\" count: 1024 }\n";
  }
  EXPECT_EQ(ErrorOf(With(extra)).rfind("graph.link: the fabric would have 16778246 links", 0), 0u);
}

TEST(LinkClassTest, RefusesOutOfRangeFieldsWithThePath) {
  EXPECT_EQ(ErrorOf("link_class { name: \"x\" rate_gbps: 2000 }")
                .rfind("link_class[0].rate_gbps: must be in [0.001, 1600]", 0),
            0u);
  EXPECT_EQ(
      ErrorOf("link_class { name: \"x\" rate_gbps: 1 } link_class { name: \"x\" rate_gbps: 1 }"),
      "link_class[1].name: \"x\" is already the name of link_class[0]");
  EXPECT_EQ(ErrorOf("link_class { rate_gbps: 1 }"),
            "link_class[0].name: demanded: a non-empty name");
  EXPECT_EQ(ErrorOf("link_class { name: \"x\" rate_gbps: 1 bit_error_rate: 0.1 }")
                .rfind("link_class[0].bit_error_rate: must be in [0, 0.001]", 0),
            0u);
  EXPECT_EQ(
      ErrorOf("link_class { name: \"x\" rate_gbps: 1 ports_per_engine: 4 }"),
      "link_class[0].ports_per_engine: only a CPO class shares optical engines between ports");
  EXPECT_EQ(ErrorOf("link_class { name: \"x\" rate_gbps: 1 delay_ns: 5 length_m: 1 }"),
            "link_class[0].length_m: give delay_ns or length_m, not both");
}

TEST(LinkClassTest, CreditFieldsAreCheckedAndDefaultedWithThePath) {
  EXPECT_EQ(ErrorOf("link_class { name: \"x\" rate_gbps: 1 credit { update_delay_ns: 5 } }"),
            "link_class[0].credit: only a class with flow_control: CREDIT has credits");
  EXPECT_EQ(ErrorOf("link_class { name: \"x\" rate_gbps: 1 flow_control: CREDIT "
                    "credit { update_loss_probability: 1 } }"),
            "link_class[0].credit.update_loss_probability: a probability in [0, 1): at 1 no "
            "credit ever returns");
  EXPECT_EQ(ErrorOf("link_class { name: \"x\" rate_gbps: 1 flow_control: CREDIT "
                    "credit { buffer_bytes: 100 } }")
                .rfind("link_class[0].credit.buffer_bytes: must be in [9216, 1073741824]", 0),
            0u);
  StatusOr<Graph> g = BuildText(
      "link_class { name: \"ib\" rate_gbps: 100 flow_control: CREDIT } "
      "link_class { name: \"eth\" rate_gbps: 100 } fat_tree { k: 4 link_class: \"ib\" }");
  ASSERT_TRUE(g.ok()) << g.status().message();
  // Unset fields take the documented defaults; a PFC class has no credits.
  ASSERT_TRUE(g->link_classes()[0].credit.has_value());
  EXPECT_EQ(g->link_classes()[0].credit->buffer_bytes, 0);  // derived by the dataplane
  EXPECT_EQ(g->link_classes()[0].credit->update_delay, Time::FromNs(200));
  EXPECT_EQ(g->link_classes()[0].credit->resync_period, Time::FromNs(2600));
  EXPECT_EQ(g->link_classes()[0].credit->update_loss_probability, 0);
  EXPECT_FALSE(g->link_classes()[1].credit.has_value());
}

TEST(LinkClassTest, FatTreeByClassKeepsItsNumbering) {
  StatusOr<Graph> by_class = BuildText(
      "link_class { name: \"x\" rate_gbps: 400 delay_ns: 250 } fat_tree { k: 4 link_class: \"x\" "
      "}");
  StatusOr<Graph> by_rate = BuildText("fat_tree { k: 4 link_rate_gbps: 400 link_delay_ns: 250 }");
  ASSERT_TRUE(by_class.ok() && by_rate.ok());
  ASSERT_EQ(by_class->links().size(), by_rate->links().size());
  for (size_t l = 0; l < by_rate->links().size(); ++l) {
    const Link& a = by_class->link(l);
    const Link& b = by_rate->link(l);
    EXPECT_EQ(a.a.node, b.a.node);
    EXPECT_EQ(a.b.port, b.b.port);
    EXPECT_EQ(a.rate, b.rate);
    EXPECT_EQ(a.delay, b.delay);
  }
  EXPECT_EQ(
      ErrorOf("fat_tree { k: 4 link_class: \"x\" link_rate_gbps: 10 } link_class { name: \"x\" "
              "rate_gbps: 1 }"),
      "fat_tree.link_rate_gbps: give link_class or link_rate_gbps and link_delay_ns, not both");
}

}  // namespace
}  // namespace fe::topo
