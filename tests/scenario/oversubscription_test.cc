// An all-to-all of long flows across 3:1-oversubscribed leaves of a two-tier Clos, end to end in
// virtual time: each host's goodput must be a third of its link (the closed form of a leaf with
// three times as many host links as up-links), lossless (PFC, the default) and deterministic.
//
// The share. Every flow crosses leaves, so all the traffic of a leaf's D hosts leaves by its U
// up-links and all the traffic to them arrives by its U spine links: with D = 3U each host gets
// U x rate / D = rate / 3 in each direction. Of that, payload is the fraction the frames leave:
// a full data packet takes WireBytesOfFrame(RoceFrameBytes(mtu)) wire bytes, and each link
// direction also carries one ACK (WireBytesOfFrame(RoceFrameBytes(0) + AETH)) per data packet,
// for the flows going the other way (the receiver acknowledges every packet by default): 4,096 of
// 4,264 bytes, 32.02 Gb/s of payload per host. No congestion control runs (DCQCN, tried with two
// up-links and 4 flows per pair, gave the same goodput: with 72 QPs per NIC each sends far below
// the rate its first cuts leave, so PFC does the throttling either way), so ECN marking is off:
// with it on, nearly every packet came marked and drew a CNP, a third kind of frame on the wire.
// PFC frames are left out: a few 64-byte frames against megabytes.
//
// The measure. Every host sends the same bytes in flows that all start at 0. Over [0, the first
// delivery of a whole message] every flow is active, so every host offers the fabric more than
// its share the whole time; its goodput is the payload of its flows delivered by then over that
// span. A second run of the same scenario, stopped there, gives those bytes (the run is
// deterministic, and stopping it changes nothing before the stop).
//
// The bounds, [0.9, 1.02] x the share. Above: no host can beat its share but at the expense of
// another host of its leaf, the up-links being every host's bottleneck, so the 2 % bounds how
// unfairly the leaf serves its hosts. Below, 10 % for what a real fabric loses: the first
// microseconds, before anything is delivered; PFC's head-of-line blocking (a paused up-link
// pauses the hosts, which stalls their flows through the other up-link too); and, with two
// up-links, hash ECMP putting more flows on one than on the other.
//
// Hash ECMP needs many flows per up-link. With one flow per host pair (54 per up-link) the hosts
// got 0.87 to 1.14 x the share, and the whole run 0.84: outside the bounds by the collisions
// alone. The count on one of two links of N flows spreads by sqrt(N) / 2, so 32 flows per pair
// (1,728 per up-link, 1.7 % spread) averages them out: for seeds 1 to 5 the least served host
// got 0.95 to 0.97 x the share and the best served 0.99 to 1.001.
//
// Measured (seed 1): one up-link 0.9995 to 1.0065 x the share, two up-links 0.959 to 0.990.
// Counted by destination instead, the same runs spread wider (0.993 to 1.025 with one up-link,
// 0.928 to 1.010 with two): what a receiver has got by the cut depends on which of its bytes the
// switch queues (16 MiB each, still filling) hold then, so it is reported, not asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "control/run/report_writer.h"
#include "control/run/software_run.h"
#include "control/scenario/scenario_loader.h"
#include "dataplane/packet.h"
#include "scenario_run.h"
#include "traffic/message_outcomes.h"

namespace fe::control {
namespace {

constexpr double kLinkRateGbps = 100;
constexpr uint32_t kMtu = 4096;  // nic.mtu_payload_bytes' default

struct TwoTierClos {
  int leaves = 0;
  int hosts_per_leaf = 0;  // down-links of a leaf
  int up_links = 0;        // per leaf, split evenly over the spines
  int spines = 0;
  int hosts() const { return leaves * hosts_per_leaf; }
};

// Every host sends `per_pair` messages of message_bytes to every host of every other leaf, all at
// time 0, over links of kLinkRateGbps. stop: when the run stops; Infinite: when the traffic is
// done.
std::string AllToAllScenario(const TwoTierClos& c, int per_pair, int64_t message_bytes,
                             Time stop = Time::Infinite()) {
  std::string text = "topology { link_class { name: \"link\" delay_ns: 1000 rate_gbps: " +
                     std::to_string(kLinkRateGbps) + " }\n clos { host_link_class: \"link\"\n";
  text += "tier { switches: " + std::to_string(c.leaves) +
          " down_links: " + std::to_string(c.hosts_per_leaf) +
          " up_links: " + std::to_string(c.up_links) + " uplink_class: \"link\" }\n";
  text += "tier { switches: " + std::to_string(c.spines) +
          " down_links: " + std::to_string(c.leaves * c.up_links / c.spines) + " }\n";
  text += "} }\nswitch { queue { priority: 3 wred { enabled: false } } }\n";
  text += "run { progress: false ";
  if (stop != Time::Infinite()) text += "stop_ns: " + std::to_string(stop.ps() / 1e3);
  text += " }\ntraffic { flow_list {\n";
  for (int src = 0; src < c.hosts(); ++src) {
    for (int dst = 0; dst < c.hosts(); ++dst) {
      if (src / c.hosts_per_leaf == dst / c.hosts_per_leaf) continue;
      for (int k = 0; k < per_pair; ++k) {
        text += "flow { src_host: " + std::to_string(src) + " dst_host: " + std::to_string(dst) +
                " message_bytes: " + std::to_string(message_bytes) + " }\n";
      }
    }
  }
  text += "} }\n";
  return text;
}

struct Outputs {
  SoftwareRunResult run;
  std::string flows;
};

Outputs RunScenario(const std::string& text, uint64_t seed) {
  Outputs o;
  o.run = fe::testing::RunScenarioText(text, "all_to_all.textproto", seed).run;
  o.flows = FlowsCsv(CollectFlowMetrics(*o.run.emulation, kMtu), o.run.emulation->workload,
                     OutcomesOf(o.run.emulation->fabric->messages()));
  return o;
}

// The share of each host in Gb/s of payload, as the header comment derives it.
double PayloadShareGbps(const TwoTierClos& c) {
  const double data_wire = dp::WireBytesOfFrame(dp::RoceFrameBytes(kMtu));
  const double ack_wire = dp::WireBytesOfFrame(dp::RoceFrameBytes(0) + dp::kAethBytes);
  return kLinkRateGbps * c.up_links / c.hosts_per_leaf * kMtu / (data_wire + ack_wire);
}

// Payload of each host's flows delivered by the end of the run, over `span`, in Gb/s.
std::vector<double> GoodputBySource(const dp::MessageTable& messages, int hosts, Time span) {
  std::vector<double> gbps(hosts);
  const double gbps_per_byte = 8 / span.seconds() * 1e-9;
  for (uint32_t id = 0; id < messages.size(); ++id) {
    gbps[messages.spec(id).src_host] +=
        static_cast<double>(messages.receiver[id].bytes_delivered) * gbps_per_byte;
  }
  return gbps;
}

Time FirstDelivery(const dp::MessageTable& messages) {
  Time first = Time::Infinite();
  for (const dp::ReceiverState& m : messages.receiver) first = std::min(first, m.delivered_at);
  return first;
}

// Lossless: every message delivered in full, no frame dropped or sent twice, nothing left over.
void ExpectConservation(const Outputs& o) {
  const dp::Fabric& fabric = *o.run.emulation->fabric;
  uint64_t offered = 0;
  uint64_t delivered = 0;
  const dp::MessageTable& messages = fabric.messages();
  for (uint32_t id = 0; id < messages.size(); ++id) {
    EXPECT_TRUE(messages.completed(id));
    offered += messages.spec(id).size_bytes;
    delivered += messages.receiver[id].bytes_delivered;
  }
  const dp::FabricTotals totals = fabric.Totals();
  EXPECT_EQ(delivered, offered);
  EXPECT_EQ(totals.nics.payload_bytes_sent, offered);
  EXPECT_EQ(totals.nics.payload_bytes_received, offered);
  EXPECT_EQ(totals.nics.data_packets_sent, totals.nics.data_packets_received);
  EXPECT_EQ(totals.nics.retransmitted_packets, 0u);
  EXPECT_EQ(totals.drops.total_packets(), 0u);
  EXPECT_EQ(fabric.mbufs_in_use(), 0u);
}

// Runs the all-to-all to its end (lossless), then again up to its first delivery of a whole
// message, and checks every host's goodput over that span.
void ExpectEachHostGetsItsShare(const TwoTierClos& c, int per_pair, int64_t message_bytes) {
  const Outputs whole = RunScenario(AllToAllScenario(c, per_pair, message_bytes), 1);
  ExpectConservation(whole);
  // The share counts data frames and ACKs only.
  EXPECT_EQ(whole.run.emulation->fabric->Totals().nics.cnps_sent, 0u);
  const Time span = FirstDelivery(whole.run.emulation->fabric->messages());
  ASSERT_NE(span, Time::Infinite());
  const Outputs cut = RunScenario(AllToAllScenario(c, per_pair, message_bytes, span), 1);
  ASSERT_TRUE(cut.run.stopped_early);
  const double share_gbps = PayloadShareGbps(c);
  const std::vector<double> gbps =
      GoodputBySource(cut.run.emulation->fabric->messages(), c.hosts(), span);
  const auto [min, max] = std::minmax_element(gbps.begin(), gbps.end());
  EXPECT_GE(*min, 0.9 * share_gbps);
  EXPECT_LE(*max, 1.02 * share_gbps);
}

// Leaves of 3 hosts and 1 up-link to the one spine: one path between any two hosts, so the share
// follows from the oversubscription and the leaf's queue alone, without hashing. 256 KiB flows,
// 21 per host: 1.4 ms at the share.
TEST(OversubscriptionScenarioTest, OneUplinkLeavesGiveEachHostAThirdOfItsLink) {
  const TwoTierClos clos{.leaves = 8, .hosts_per_leaf = 3, .up_links = 1, .spines = 1};
  ExpectEachHostGetsItsShare(clos, 1, 256 * 1024);
}

// Leaves of 6 hosts and 2 up-links, one to each of 2 spines: hash ECMP picks the spine, with 32
// flows per host pair of 64 KiB each so that collisions average out (header comment): 10 ms at
// the share.
TEST(OversubscriptionScenarioTest, TwoUplinkLeavesGiveEachHostAThirdOfItsLink) {
  const TwoTierClos clos{.leaves = 4, .hosts_per_leaf = 6, .up_links = 2, .spines = 2};
  ExpectEachHostGetsItsShare(clos, 32, 64 * 1024);
}

// The ECMP hashes take the run's seed and every other choice follows virtual time: a second run
// of the same scenario and seed is the same run, flow for flow.
TEST(OversubscriptionScenarioTest, SameSeedGivesTheSameFlows) {
  const TwoTierClos clos{.leaves = 4, .hosts_per_leaf = 6, .up_links = 2, .spines = 2};
  const std::string text = AllToAllScenario(clos, 2, 64 * 1024);
  const Outputs a = RunScenario(text, 1);
  const Outputs b = RunScenario(text, 1);
  ExpectConservation(a);
  EXPECT_EQ(a.flows, b.flows);
  const Outputs c = RunScenario(text, 2);
  EXPECT_NE(a.flows, c.flows);  // another seed hashes the flows onto other spines
}

}  // namespace
}  // namespace fe::control
