#include "traffic/trace/htsim.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fe {
namespace {

TraceParams Params(uint32_t hosts = 16) {
  TraceParams p;
  p.source = "t.cm";
  p.hosts = hosts;
  p.job = Job{"replay", "trace", 26};
  return p;
}

std::vector<uint32_t> Deps(const Workload& w, uint32_t id) {
  const std::span<const uint32_t> d = w.dependencies(id);
  return {d.begin(), d.end()};
}

// The error must name the file and line first, then say why.
void ExpectError(const std::string& text, const std::string& where, const std::string& why,
                 const TraceParams& params = Params()) {
  StatusOr<Workload> w = ParseHtsimTrace(text, params);
  ASSERT_FALSE(w.ok()) << text;
  const std::string m = w.status().message();
  EXPECT_EQ(m.rfind(where + ": ", 0), 0u) << m;
  EXPECT_NE(m.find(why), std::string::npos) << m;
}

// A ring step as htsim's gen_allreduce.py writes it, then a barrier joining two chains.
constexpr char kChainAndBarrier[] =
    "# a comment\n"
    "Nodes 4\n"
    "Connections 4\n"
    "Triggers 2\n"
    "\n"
    "0->1 id 1 start 0 size 1000 send_done_trigger 1\n"
    "1->2 id 2 trigger 1 size 2000 send_done_trigger 2\n"
    "3->0 id 3 start 2.5 size 3000 recv_done_trigger 2 prio 5 addon\n"
    "2->3 id 4 trigger 2 size 4000\n"
    "trigger id 1 oneshot\n"
    "trigger id 2 barrier count 2\n";

TEST(TraceHtsimTest, ConnectionsBecomeMessagesInFileOrder) {
  StatusOr<Workload> w = ParseHtsimTrace(kChainAndBarrier, Params());
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_EQ(w->size(), 4u);
  const uint32_t src[] = {0, 1, 3, 2}, dst[] = {1, 2, 0, 3};
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(w->flows[i].id, i);
    EXPECT_EQ(w->flows[i].src_host, src[i]);
    EXPECT_EQ(w->flows[i].dst_host, dst[i]);
    EXPECT_EQ(w->flows[i].size_bytes, 1000u * (i + 1));
    EXPECT_EQ(w->delay[i], Time::Zero());
    EXPECT_EQ(w->job_of[i], 0u);
  }
  EXPECT_EQ(w->flows[2].start, Time::FromPs(2500000));  // 2.5 us
  ASSERT_EQ(w->jobs.size(), 1u);
  EXPECT_EQ(w->jobs[0].name, "replay");
}

TEST(TraceHtsimTest, TriggersBecomeDependenciesOnTheirActivators) {
  StatusOr<Workload> w = ParseHtsimTrace(kChainAndBarrier, Params());
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_TRUE(Deps(*w, 0).empty());
  EXPECT_EQ(Deps(*w, 1), (std::vector<uint32_t>{0}));  // oneshot 1: connection 0 done
  EXPECT_TRUE(Deps(*w, 2).empty());
  EXPECT_EQ(Deps(*w, 3), (std::vector<uint32_t>{1, 2}));  // barrier 2: both activators done
}

TEST(TraceHtsimTest, NodesLandOnHostsAndTimesScale) {
  TraceParams p = Params();
  p.host_offset = 8;
  p.time_scale = 2;
  p.start = Time::FromNs(100);
  StatusOr<Workload> w = ParseHtsimTrace(kChainAndBarrier, p);
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->flows[2].src_host, 11u);
  EXPECT_EQ(w->flows[2].dst_host, 8u);
  EXPECT_EQ(w->flows[2].start, Time::FromNs(100) + Time::FromNs(5000));  // 2 x 2.5 us + 100 ns
  EXPECT_EQ(w->flows[1].start, Time::FromNs(100));  // triggered: no earlier than the section

  p = Params();
  p.node_hosts = {15, 14, 13, 12};
  w = ParseHtsimTrace(kChainAndBarrier, p);
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->flows[0].src_host, 15u);
  EXPECT_EQ(w->flows[0].dst_host, 14u);
}

TEST(TraceHtsimTest, BadNumbersAreRefusedAtTheirLine) {
  ExpectError("Nodes 4\nConnections 1\n0->1 start 0 size 1k\n", "t.cm:3",
              "`size` takes a size in bytes, a whole number, got '1k'");
  ExpectError("Nodes 4\nConnections 1\n0->1 start 0 size 18446744073709551616\n", "t.cm:3",
              "`size` is too large for a whole number of 64 bits (at most 18446744073709551615)");
  ExpectError("Nodes 4\nConnections 1\n0->1 start -1 size 10\n", "t.cm:3",
              "`start` takes a time in microseconds");
  ExpectError("Nodes four\n", "t.cm:1", "expected `Nodes N` with N a whole number");
  ExpectError("Nodes 4\nConnections 1\n0->x start 0 size 10\n", "t.cm:3",
              "expected `src->dst` with two node numbers");
  ExpectError("Nodes 4\nConnections 1\n0->1 start 0 size 0\n", "t.cm:3",
              "size must be from 1 to 2147483648 bytes");
  ExpectError("Nodes 4\nConnections 1\n0->1 start 0 size\n", "t.cm:3",
              "`size` needs a value after it");
  // One value a key: which of two would htsim take is not for a replay to guess.
  ExpectError("Nodes 4\nConnections 1\n0->1 start 0 start 5 size 5\n", "t.cm:3",
              "`start` is given twice");
}

TEST(TraceHtsimTest, UnknownNodesAreRefused) {
  ExpectError("Nodes 4\nConnections 1\n0->4 start 0 size 10\n", "t.cm:3",
              "node 4 is not below `Nodes 4` (line 1)");
  // Within the file's nodes, but past the topology's hosts.
  ExpectError("Nodes 32\nConnections 1\n\n0->20 start 0 size 10\n", "t.cm:4",
              "node 20 runs on host 20, but the topology has 16 hosts (0 to 15)");
  TraceParams p = Params();
  p.node_hosts = {3, 4};
  ExpectError("Nodes 4\nConnections 1\n0->2 start 0 size 10\n", "t.cm:3",
              "node 2 has no host: the scenario's host list maps nodes 0 to 1", p);
  ExpectError("Nodes 4\nConnections 1\n2->2 start 0 size 10\n", "t.cm:3",
              "source and destination are both host 2");
}

TEST(TraceHtsimTest, UnknownTriggersAreRefused) {
  ExpectError(
      "Nodes 4\nConnections 2\nTriggers 1\n0->1 id 1 start 0 size 10 send_done_trigger 1\n"
      "1->2 id 2 trigger 7 size 10\ntrigger id 1 oneshot\n",
      "t.cm:5", "trigger 7 is not defined");
  ExpectError("Nodes 4\nConnections 1\n0->1 id 1 start 0 size 10 send_done_trigger 3\n", "t.cm:3",
              "trigger 3 is not defined");
}

TEST(TraceHtsimTest, CyclesAreRefusedAtAMessageOfTheCycle) {
  // Each connection waits for the other's send_done_trigger: htsim would start neither.
  ExpectError(
      "Nodes 4\nConnections 3\nTriggers 2\n0->3 id 9 start 0 size 10\n"
      "0->1 id 1 trigger 1 size 10 send_done_trigger 2\n"
      "1->2 id 2 trigger 2 size 10 send_done_trigger 1\n"
      "trigger id 1 oneshot\ntrigger id 2 oneshot\n",
      "t.cm:5", "message 1 is in, or waits for, a dependency cycle");
  ExpectError(
      "Nodes 4\nConnections 1\nTriggers 1\n0->1 id 1 trigger 1 size 10 send_done_trigger 1\n"
      "trigger id 1 oneshot\n",
      "t.cm:4", "message 0 waits for itself");
}

TEST(TraceHtsimTest, MissingHeadersAreRefused) {
  ExpectError("Connections 1\n0->1 start 0 size 10\n", "t.cm:2",
              "a connection before the `Nodes N` header");
  ExpectError("Nodes 4\n0->1 start 0 size 10\n", "t.cm:2",
              "a connection before the `Connections C` header");
  ExpectError("", "t.cm:1", "no `Nodes N` header");
  ExpectError("Nodes 4\nConnections 2\n0->1 start 0 size 10\n", "t.cm:2",
              "`Connections 2`, but the file has 1");
  ExpectError(
      "Nodes 4\nConnections 1\n0->1 id 1 start 0 size 10 send_done_trigger 1\n"
      "trigger id 1 oneshot\n",
      "t.cm:1", "`Triggers 0` (no header), but the file defines 1");
  ExpectError("Nodes 4\nConnections 1\n0->1 start 0 size 10\nNodes 4\n", "t.cm:4",
              "header `Nodes` after the first connection or trigger");
}

TEST(TraceHtsimTest, WhatIsNotADependencyIsRefusedWithTheReason) {
  const std::string head = "Nodes 4\nConnections 3\nTriggers 1\n";
  const std::string two_activators =
      "0->1 id 1 start 0 size 10 send_done_trigger 1\n"
      "2->3 id 2 start 0 size 10 send_done_trigger 1\n"
      "1->2 id 3 trigger 1 size 10\n";
  ExpectError(head + two_activators + "trigger id 1 multishot\n", "t.cm:7",
              "multishot triggers are not replayed");
  ExpectError(head + two_activators + "trigger id 1 oneshot\n", "t.cm:7",
              "trigger 1 is oneshot but 2 connections activate it (lines 4 and 5)");
  ExpectError(head + two_activators + "trigger id 1 barrier count 3\n", "t.cm:7",
              "trigger 1 is a barrier of count 3, but 2 connections activate it");
  ExpectError(
      "Nodes 4\nConnections 1\nTriggers 1\n1->2 id 3 trigger 1 size 10\n"
      "trigger id 1 oneshot\n",
      "t.cm:5", "no connection's send_done_trigger or recv_done_trigger names it");
  ExpectError("Nodes 4\nConnections 1\n0->1 id 1 start 0 trigger 1 size 10\n", "t.cm:3",
              "both `start` and `trigger`");
  ExpectError("Nodes 4\nConnections 1\n0->1 size 10\n", "t.cm:3",
              "no `start T` and no `trigger N`");
  ExpectError("Nodes 4\nConnections 1\n0->1 start 0\n", "t.cm:3", "no `size B`");
  ExpectError("Nodes 4\nConnections 2\n0->1 id 5 start 0 size 1\n1->2 id 5 start 0 size 1\n",
              "t.cm:4", "id 5 is also the id on line 3");
  ExpectError("Nodes 4\nConnections 1\n0->1 start 0 size 1 colour red\n", "t.cm:3",
              "unknown token `colour`");
  ExpectError("Nodes 4\nFailures 1\n", "t.cm:2", "failures are not replayed");
  ExpectError("Nodes 4\nfoo 1\n", "t.cm:2", "unknown line starting 'foo'");
}

}  // namespace
}  // namespace fe
