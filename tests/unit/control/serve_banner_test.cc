#include "control/serve/serve_banner.h"

#include <gtest/gtest.h>

#include <vector>

#include "topology/routes.h"
#include "topology_text.h"

namespace fe::control {
namespace {

// k = 4 fat-tree of 100 Gb/s, 1 us links. A 102-byte frame occupies 122 bytes of wire time
// (IEEE 802.3: + 8 preamble/SFD + 12 inter-frame gap), 9.76 ns at 100 Gb/s.
constexpr int64_t kLinkPs = 1000 * 1000 + 122 * 8 * 10;

TEST(MinRoundTrip, IsTheClosedFormOfEachFatTreePath) {
  const topo::Graph g = testing::FatTree4();
  const topo::RouteTable routes = topo::RouteTable::Build(g);
  // Same edge switch (hosts 0, 1): host-edge-host, 2 links each way.
  EXPECT_EQ(MinRoundTrip(g, routes, 0, 1, kPingFrameBytes).ps(), 4 * kLinkPs);
  // Same pod, other edge (hosts 0, 2): via an aggregation switch, 4 links each way.
  EXPECT_EQ(MinRoundTrip(g, routes, 0, 2, kPingFrameBytes).ps(), 8 * kLinkPs);
  // Other pod (hosts 0, 15): via a core switch, 6 links each way.
  EXPECT_EQ(MinRoundTrip(g, routes, 0, 15, kPingFrameBytes).ps(), 12 * kLinkPs);
  EXPECT_EQ(MinRoundTrip(g, routes, 15, 0, kPingFrameBytes).ps(), 12 * kLinkPs);
}

TEST(MinRoundTrip, PadsARuntFrameToTheEthernetMinimum) {
  const topo::Graph g = testing::FatTree4();
  const topo::RouteTable routes = topo::RouteTable::Build(g);
  // 64 bytes + 20 of preamble and gap = 84 bytes of wire time, 6.72 ns at 100 Gb/s.
  EXPECT_EQ(MinRoundTrip(g, routes, 0, 1, 10).ps(), 4 * (1000 * 1000 + 84 * 8 * 10));
}

TEST(ServeBanner, NamesEveryRealHostAndEachPair) {
  const topo::Graph g = testing::FatTree4();
  const topo::RouteTable routes = topo::RouteTable::Build(g);
  const std::vector<RealHostPlace> hosts = {{0, "net_af_packet0,iface=a"},
                                            {15, "net_af_packet1,iface=b"}};
  const std::string s = ServeBanner("t", g, routes, hosts);
  EXPECT_NE(s.find("serve: fabric t: 16 hosts, 20 switches, 48 links, 100 Gb/s, 1.000 us a link\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("serve: real host 0 (198.18.0.1, "), std::string::npos) << s;
  EXPECT_NE(s.find(") on net_af_packet1,iface=b\n"), std::string::npos) << s;
  // 12 links of 1,009.76 ns.
  EXPECT_NE(s.find("serve: least ping RTT host 0 <-> host 15: 12.117 us (12 links"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace fe::control
