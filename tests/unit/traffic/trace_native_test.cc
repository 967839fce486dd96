#include "traffic/trace/native.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fe {
namespace {

TraceParams Params() {
  TraceParams p;
  p.source = "w.csv";
  p.hosts = 8;
  p.job = Job{"section", "trace", 26};
  return p;
}

std::vector<uint32_t> Deps(const Workload& w, uint32_t id) {
  const std::span<const uint32_t> d = w.dependencies(id);
  return {d.begin(), d.end()};
}

void ExpectError(const std::string& text, const std::string& where, const std::string& why) {
  StatusOr<Workload> w = ParseNativeTrace(text, Params());
  ASSERT_FALSE(w.ok()) << text;
  const std::string m = w.status().message();
  EXPECT_EQ(m.rfind(where + ": ", 0), 0u) << m;
  EXPECT_NE(m.find(why), std::string::npos) << m;
}

// Two jobs, a dependency on two messages, sub-nanosecond times and a name that needs quoting.
Workload Sample() {
  Workload w;
  w.jobs = {Job{"train", "training", 26}, Job{"bg, \"x\"", "permutation", 10}};
  w.Add(Flow{0, 0, 1, 1000, Time::FromNs(5)}, {}, Time::Zero(), 0);
  const uint32_t first[] = {0};
  w.Add(Flow{0, 1, 2, 2000, Time::Zero()}, first, Time::FromPs(1500500), 0);
  const uint32_t both[] = {0, 1};
  w.Add(Flow{0, 2, 3, 3000, Time::FromPs(1)}, both, Time::FromPs(20), 1);
  return w;
}

constexpr char kSampleCsv[] =
    "id,src,dst,bytes,start_ns,after,delay_ns,dscp,job\n"
    "0,0,1,1000,5,,0,26,train\n"
    "1,1,2,2000,0,0,1500.5,26,train\n"
    "2,2,3,3000,0.001,0 1,0.02,10,\"bg, \"\"x\"\"\"\n";

TEST(TraceNativeTest, WritesTheDocumentedColumnsWithExactTimes) {
  StatusOr<std::string> csv = NativeTraceCsv(Sample());
  ASSERT_TRUE(csv.ok()) << csv.status().message();
  EXPECT_EQ(*csv, kSampleCsv);
}

TEST(TraceNativeTest, ReadsBackWhatItWrote) {
  StatusOr<Workload> w = ParseNativeTrace(kSampleCsv, Params());
  ASSERT_TRUE(w.ok()) << w.status().message();
  const Workload original = Sample();
  ASSERT_EQ(w->size(), original.size());
  for (uint32_t i = 0; i < w->size(); ++i) {
    EXPECT_EQ(w->flows[i], original.flows[i]) << i;
    EXPECT_EQ(w->delay[i], original.delay[i]) << i;
    EXPECT_EQ(Deps(*w, i), Deps(original, i)) << i;
    EXPECT_EQ(w->jobs[w->job_of[i]].name, original.jobs[original.job_of[i]].name) << i;
    EXPECT_EQ(w->jobs[w->job_of[i]].dscp, original.jobs[original.job_of[i]].dscp) << i;
  }
  StatusOr<std::string> again = NativeTraceCsv(*w);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, kSampleCsv);
}

TEST(TraceNativeTest, ColumnsInAnyOrderAndForwardReferences) {
  // Ids are the file's own; message order is row order; `after` may name a later row.
  const char text[] =
      "# hand-written\n"
      "after,id,src,dst,bytes\n"
      "20,10,0,1,5\n"
      "\n"
      ",20,1,0,7\n";
  StatusOr<Workload> w = ParseNativeTrace(text, Params());
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_EQ(w->size(), 2u);
  EXPECT_EQ(Deps(*w, 0), (std::vector<uint32_t>{1}));
  EXPECT_EQ(w->flows[1].size_bytes, 7u);
  EXPECT_EQ(w->flows[0].start, Time::Zero());
  ASSERT_EQ(w->jobs.size(), 1u);  // no job and dscp columns: the section's
  EXPECT_EQ(w->jobs[0].name, "section");
  EXPECT_EQ(w->jobs[0].dscp, 26);
}

TEST(TraceNativeTest, TimesScaleAndShift) {
  TraceParams p = Params();
  p.time_scale = 0.5;
  p.start = Time::FromNs(1);
  StatusOr<Workload> w = ParseNativeTrace(
      "id,src,dst,bytes,start_ns,after,delay_ns\n0,0,1,5,3,,\n1,1,0,5,0,0,10\n", p);
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->flows[0].start, Time::FromPs(2500));  // 3 ns x 0.5 + 1 ns
  EXPECT_EQ(w->delay[1], Time::FromNs(5));           // delays scale, without the shift
}

TEST(TraceNativeTest, MalformedRowsAreRefusedAtTheirLine) {
  const std::string head = "id,src,dst,bytes,start_ns,after,delay_ns,dscp,job\n";
  ExpectError("id,src,dst,bytes,colour\n", "w.csv:1", "unknown column 'colour'");
  ExpectError("id,src,dst\n", "w.csv:1", "no column 'bytes'");
  ExpectError("id,src,id,bytes\n", "w.csv:1", "column 'id' appears twice");
  ExpectError("", "w.csv:1", "empty: the first line is the header");
  ExpectError(head + "0,0,1,100,0,,0,26,a\n0,1,2\n", "w.csv:3", "expected 9 fields");
  ExpectError(head + "0,0,1,1e2,0,,0,26,a\n", "w.csv:2", "bytes must be a whole number, got '1e2'");
  ExpectError(head + "99999999999999999999,0,1,100,0,,0,26,a\n", "w.csv:2",
              "id is too large for a whole number of 64 bits (at most 18446744073709551615)");
  ExpectError(head + "0,0,1,100,-5,,0,26,a\n", "w.csv:2", "start_ns must be a time in ns");
  ExpectError(head + "0,0,1,100,0,,0,64,a\n", "w.csv:2", "dscp must be 0 to 63, got '64'");
  ExpectError(head + "0,0,8,100,0,,0,26,a\n", "w.csv:2",
              "node 8 runs on host 8, but the topology has 8 hosts");
  ExpectError(head + "0,0,1,100,0,,0,26,a\n0,1,2,100,0,,0,26,a\n", "w.csv:3",
              "id 0 is also the id on line 2");
  ExpectError(head + "0,0,1,100,0,,0,26,a\n1,1,2,100,0,,0,10,a\n", "w.csv:3",
              "job 'a' has dscp 26 on line 2 and 10 here");
  ExpectError(head + "0,0,1,100,0,,0,26,\"a\n", "w.csv:2", "a quoted field is not closed");
  ExpectError(head + "0,0,1,100,0,x,0,26,a\n", "w.csv:2", "after must list ids");
  ExpectError("id,src,dst,bytes,job\n", "w.csv:1", "columns job and dscp come together");
  ExpectError(head + "0,0,1,100,0,,0,26,\n", "w.csv:2", "job is empty: every row names its job");
  ExpectError(head + "0,0,1,100,0,,0,,a\n", "w.csv:2", "dscp must be 0 to 63, got ''");
  // 0xff is never a byte of UTF-8; the name would reach summary.json and jobs.csv.
  ExpectError(head + "0,0,1,100,0,,0,26,a\xff\n", "w.csv:2",
              "job is not UTF-8 text (byte 2 of the name)");
}

TEST(TraceNativeTest, BadDependenciesAreRefusedAtTheirRow) {
  const std::string head = "id,src,dst,bytes,after\n";
  ExpectError(head + "0,0,1,100,\n1,1,2,100,7\n", "w.csv:3", "after names id 7, which no row has");
  ExpectError(head + "0,0,1,100,\n5,1,2,100,5\n", "w.csv:3", "message 1 waits for itself");
  ExpectError(head + "0,0,1,100,\n1,1,2,100,2\n2,2,3,100,1\n", "w.csv:3",
              "message 1 is in, or waits for, a dependency cycle");
}

TEST(TraceNativeTest, RefusesToWriteAJobNameThatIsNotOneLine) {
  for (const char* name : {"a\nb", ""}) {
    Workload w = WorkloadOf({Flow{0, 0, 1, 10, Time::Zero()}}, Job{name, "trace", 26});
    EXPECT_FALSE(NativeTraceCsv(w).ok()) << name;
  }
}

}  // namespace
}  // namespace fe
