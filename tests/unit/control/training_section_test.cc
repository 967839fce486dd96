// The training section: a valid one loads and becomes the workload its fields describe; each bad
// one is refused with one "FILE:LINE: field.path: reason". The parser records no line for the
// elements of a list ([a, b]), so their errors carry the line of the message holding the list.
#include <gtest/gtest.h>

#include <string>

#include "control/scenario/scenario_loader.h"
#include "control/scenario/training_section.h"
#include "topology/build.h"

namespace fe::control {
namespace {

// A k = 4 fat-tree: 16 hosts, 2 behind each edge switch (hosts 2i and 2i + 1).
constexpr char kFabric[] = "topology { fat_tree { k: 4 link_rate_gbps: 100 } }\n";  // line 1

std::string Scenario(const std::string& training) {
  return std::string(kFabric) + "traffic { training {\n" + training + "} }\n";  // fields: line 3
}

constexpr char kValid[] =
    "  host: [0, 1, 2, 3, 4, 5, 6, 7]\n"                                                 // 3
    "  data_parallel: 2 tensor_parallel: 2 pipeline_parallel: 2\n"                       // 4
    "  microbatches: 4 iterations: 3 gradient_buckets: 2\n"                              // 5
    "  bucket_bytes: 1048576 tensor_parallel_bytes: 65536\n"                             // 6
    "  activation_bytes: 131072\n"                                                       // 7
    "  forward { mean_ns: 20000 } backward { mean_ns: 40000 }\n"                         // 8
    "  checkpoint { every_iterations: 3 shard_bytes: 4096 storage_hosts: [14, 15] }\n";  // 9

std::string OnlyError(const std::string& text) {
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "t.textproto");
  if (s.ok()) return "";
  const std::string m = s.status().message();
  EXPECT_EQ(m.find('\n'), std::string::npos) << "more than one error:\n" << m;
  return m;
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(TrainingSectionTest, AValidSectionBecomesItsWorkload) {
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(Scenario(kValid), "t.textproto");
  ASSERT_TRUE(s.ok()) << s.status().message();
  StatusOr<topo::Graph> graph = topo::BuildTopology(s->topology(), ".");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  StatusOr<Workload> w = TrainingWorkload(s->traffic(0).training(), *graph, 1, ".");
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->iterations.size(), 3u);
  EXPECT_TRUE(w->iterations[2].checkpoint);
  EXPECT_EQ(w->jobs[0].kind, "training");
  uint64_t to_storage = 0;
  for (const Flow& f : w->flows) {
    EXPECT_LT(f.src_host, 16u);
    if (f.dst_host >= 14)
      to_storage += f.size_bytes;
    else
      EXPECT_LT(f.dst_host, 8u);
  }
  EXPECT_EQ(to_storage, 8u * 4096);
  // 3 iterations of the fwd + bwd of 4 microbatches over 2 stages, 2 with an optimizer of 0.
  EXPECT_EQ(w->iterations[1].compute, Time::FromUs(60) * (4 + 2 - 1));
}

// 4 servers of 4 accelerators, each server a scale-up domain; hosts 12-15 (the last server) are
// storage. With `host` unset the ranks take every other host; TOPOLOGY_AWARE fills domains one
// after another, so tensor-parallel groups of 4 are whole servers whatever order `host` lists.
TEST(TrainingSectionTest, PlacementKeepsTensorParallelGroupsInsideDomains) {
  const std::string fabric =
      "topology { link_class { name: \"l\" rate_gbps: 100 delay_ns: 500 }\n"
      " link_class { name: \"su\" rate_gbps: 800 delay_ns: 150 }\n"
      " rail_optimized { servers: 4 accelerators_per_server: 4 servers_per_rail_group: 4\n"
      "  spines: 2 rail_up_links: 4 host_link_class: \"l\" uplink_class: \"l\" }\n"
      " scale_up { domain_size: 4 link_class: \"su\" } }\n";
  const std::string training =
      "  tensor_parallel: 4 data_parallel: 3 bucket_bytes: 65536 tensor_parallel_bytes: 4096\n"
      "  checkpoint { every_iterations: 1 shard_bytes: 1 storage_hosts: [12, 13, 14, 15] }\n";
  const StatusOr<fabric_emu::Scenario> s = LoadScenarioText(
      fabric + "traffic { training {\n  placement: TOPOLOGY_AWARE\n" + training + "} }\n",
      "t.textproto");
  ASSERT_TRUE(s.ok()) << s.status().message();
  StatusOr<topo::Graph> graph = topo::BuildTopology(s->topology(), ".");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  StatusOr<std::vector<uint32_t>> hosts = TrainingRankHosts(s->traffic(0).training(), *graph, 1);
  ASSERT_TRUE(hosts.ok()) << hosts.status().message();
  EXPECT_EQ(*hosts, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  // Listed across servers, LINEAR keeps that order and splits groups; TOPOLOGY_AWARE regroups.
  const std::string scattered = "  host: [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]\n";
  EXPECT_NE(OnlyError(fabric + "traffic { training {\n" + scattered + training + "} }\n"), "");
  EXPECT_EQ(OnlyError(fabric + "traffic { training {\n  placement: TOPOLOGY_AWARE\n" + scattered +
                      training + "} }\n"),
            "");
}

TEST(TrainingSectionTest, BadSectionsAreRefusedWithTheirFieldPath) {
  const std::string at = "t.textproto:";
  const std::string f = "traffic[0].training.";
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "pipeline_parallel: 2", "pipeline_parallel: 3")),
            at + "2: " + f +
                "host: data_parallel x tensor_parallel x pipeline_parallel = 12 ranks, but 8 "
                "hosts to place them on");
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "bucket_bytes: 1048576 ", "")),
            at + "2: " + f +
                "bucket_bytes: required: the bytes of each gradient bucket "
                "(data_parallel > 1)");
  EXPECT_EQ(
      OnlyError(Replaced(Scenario(kValid), "[0, 1, 2, 3, 4, 5, 6, 7]", "[0, 1, 2, 3, 4, 5, 6, 6]")),
      at + "2: " + f + "host[7]: host 6 is listed twice");
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "[0, 1, 2, 3, 4, 5, 6, 7]",
                               "[0, 1, 2, 3, 4, 5, 6, 16]")),
            at + "2: " + f +
                "host[7]: must be a host index in [0, 15] (the topology has "
                "16 hosts), got 16");
  EXPECT_EQ(
      OnlyError(Replaced(Scenario(kValid), "storage_hosts: [14, 15]", "storage_hosts: [15, 7]")),
      at + "9: " + f +
          "checkpoint.storage_hosts[1]: host 7 may hold a rank: a storage host "
          "is another endpoint, not in `host`");
  // Hosts 1 and 2 sit behind different edge switches: a tensor-parallel group across them.
  EXPECT_EQ(
      OnlyError(Replaced(Scenario(kValid), "[0, 1, 2, 3, 4, 5, 6, 7]", "[0, 2, 1, 3, 4, 5, 6, 7]")),
      at + "2: " + f +
          "host: rank 1 (host 2) is in the tensor-parallel group of rank 0 (host 0) "
          "but not in its scale-up domain (or, without domains, behind its switch): a "
          "tensor-parallel group is tensor_parallel consecutive ranks inside one");
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "forward { mean_ns: 20000 }",
                               "forward { distribution: LOGNORMAL stddev_ns: 5 }")),
            at + "8: " + f +
                "forward.mean_ns: must be in [0.001, 1e+15] (in ns: 1 ps resolution, at most 11.6 "
                "days), got 0");
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "forward { mean_ns: 20000 }",
                               "forward { mean_ns: 20000 stddev_ns: 5 }")),
            at + "8: " + f +
                "forward.stddev_ns: a FIXED time has no deviation; choose NORMAL or "
                "LOGNORMAL, got 5");
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "  host:", "  placement: RANDOM host:")),
            at + "3: " + f +
                "placement: RANDOM scatters tensor-parallel groups over scale-up domains; choose "
                "LINEAR or TOPOLOGY_AWARE with tensor_parallel > 1");
  // 65,536 iterations of 64 microbatches: about 2 x 10^8 messages, more than a run holds.
  const std::string huge = OnlyError(Replaced(Scenario(kValid), "microbatches: 4 iterations: 3",
                                              "microbatches: 64 iterations: 65536"));
  EXPECT_EQ(huge.rfind(at + "2: traffic[0]: the traffic up to here holds about ", 0), 0u) << huge;
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "microbatches: 4", "microbatches: 0")),
            at + "5: " + f + "microbatches: must be in [1, 65536], got 0");
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "  activation_bytes: 131072\n", "")),
            at + "2: " + f + "activation_bytes: required: message size in bytes, > 0");
  EXPECT_EQ(OnlyError(Replaced(Scenario(kValid), "every_iterations: 3 ", "")),
            at + "9: " + f +
                "checkpoint.every_iterations: required: how many iterations between "
                "checkpoints");
}

}  // namespace
}  // namespace fe::control
