#include "traffic/trace/ns3.h"

#include <gtest/gtest.h>

#include <string>

namespace fe {
namespace {

TraceParams Params() {
  TraceParams p;
  p.source = "flow.txt";
  p.hosts = 8;
  return p;
}

void ExpectError(const std::string& text, const std::string& where, const std::string& why) {
  StatusOr<Workload> w = ParseNs3FlowFile(text, Params());
  ASSERT_FALSE(w.ok()) << text;
  const std::string m = w.status().message();
  EXPECT_EQ(m.rfind(where + ": ", 0), 0u) << m;
  EXPECT_NE(m.find(why), std::string::npos) << m;
}

TEST(TraceNs3Test, TakesTheCountedFlowsAndIgnoresTheRest) {
  // The head of HPCC's own mix/flow.txt: the count says 2, so the third line and the format's
  // description after the flows are not read, as in the simulator.
  const char text[] =
      "2\n"
      "2 1 3 100 200000000 2\n"
      "3 1 3 100 200000000 2.000001\n"
      "4 1 3 100 150000000 2\n"
      "\n"
      "First line: # of flows\n";
  StatusOr<Workload> w = ParseNs3FlowFile(text, Params());
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_EQ(w->size(), 2u);
  EXPECT_EQ(w->flows[0].src_host, 2u);
  EXPECT_EQ(w->flows[0].dst_host, 1u);
  EXPECT_EQ(w->flows[0].size_bytes, 200000000u);
  EXPECT_EQ(w->flows[0].start, Time::FromSeconds(2));
  EXPECT_EQ(w->flows[1].start, Time::FromPs(2000001000000));  // 2 s + 1 us, exactly
  EXPECT_TRUE(w->dependencies(0).empty());
  EXPECT_TRUE(w->dependencies(1).empty());
  ASSERT_EQ(w->jobs.size(), 1u);
  EXPECT_EQ(w->jobs[0].kind, "trace");
}

TEST(TraceNs3Test, FlowsNeedNotComeInOrderOfStart) {
  StatusOr<Workload> w = ParseNs3FlowFile("2\n0 1 3 100 10 0.5\n1 0 3 100 10 0.25\n", Params());
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->flows[0].start, Time::FromMs(500));
  EXPECT_EQ(w->flows[1].start, Time::FromMs(250));
}

TEST(TraceNs3Test, MalformedLinesAreRefusedAtTheirLine) {
  ExpectError("two\n", "flow.txt:1", "the first line is the number of flows, got 'two'");
  ExpectError("", "flow.txt:1", "empty: the first line is the number of flows");
  ExpectError("1\n0 1 3 100 10\n", "flow.txt:2", "expected 6 fields");
  ExpectError("1\n\n0 1 3 100 1e3 0\n", "flow.txt:3",
              "size_bytes must be a whole number, got '1e3'");
  // One past 2^64 - 1 is a whole number still: the message says what is wrong with it.
  ExpectError(
      "1\n0 1 3 100 18446744073709551616 0\n", "flow.txt:2",
      "size_bytes is too large for a whole number of 64 bits (at most 18446744073709551615), "
      "got '18446744073709551616'");
  ExpectError("1\n0 1 3 100 10 soon\n", "flow.txt:2", "start_s must be a time in seconds");
  ExpectError("1\n0 9 3 100 10 0\n", "flow.txt:2",
              "node 9 runs on host 9, but the topology has 8 hosts");
  ExpectError("1\n0 1 8 100 10 0\n", "flow.txt:2", "pg must be a priority group from 0 to 7");
  ExpectError("1\n0 1 3 70000 10 0\n", "flow.txt:2", "dport must be a UDP port");
  ExpectError("1\n0 1 3 100 0 0\n", "flow.txt:2", "size must be from 1 to");
  ExpectError("1\n4 4 3 100 10 0\n", "flow.txt:2", "source and destination are both host 4");
  ExpectError("3\n0 1 3 100 10 0\n1 2 3 100 10 0\n", "flow.txt:1",
              "the first line promises 3 flows, but the file has 2");
}

}  // namespace
}  // namespace fe
