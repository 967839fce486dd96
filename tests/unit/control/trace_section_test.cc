// The trace section: the shipped traces load into the workloads their comments describe, a
// workload written in the native format reads back to the same one, and a bad line of a trace is
// refused at validation with the scenario's line and the trace's.
#include "control/scenario/trace_section.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "source_root.h"

#include "control/scenario/scenario_loader.h"
#include "control/scenario/workload_build.h"
#include "topology/build.h"
#include "traffic/trace/native.h"

namespace fe::control {
namespace {

namespace fs = std::filesystem;

fs::path Root() { return SourceRoot(); }

// The shipped scenario, loaded (which validates its trace) and its trace section replayed.
StatusOr<Workload> ShippedTrace(const std::string& scenario) {
  const fs::path path = Root() / "scenarios" / scenario;
  StatusOr<fabric_emu::Scenario> s = LoadScenarioFile(path.string());
  if (!s.ok()) return s.status();
  StatusOr<topo::Graph> g = topo::BuildTopology(s->topology(), path.parent_path().string());
  if (!g.ok()) return g.status();
  return TraceWorkload(s->traffic(0).trace(), *g, 1, path.parent_path().string());
}

std::vector<uint32_t> Deps(const Workload& w, uint32_t id) {
  const std::span<const uint32_t> d = w.dependencies(id);
  return {d.begin(), d.end()};
}

TEST(TraceSectionTest, ShippedHtsimRingHasItsChainsAndBarrier) {
  StatusOr<Workload> w = ShippedTrace("trace_htsim.textproto");
  ASSERT_TRUE(w.ok()) << w.status().message();
  // 4 chunks x 2(N-1) = 6 hops, a background flow and the barrier's message.
  ASSERT_EQ(w->size(), 26u);
  for (uint32_t chunk = 0; chunk < 4; ++chunk) {
    const uint32_t first = chunk * 6;
    EXPECT_TRUE(Deps(*w, first).empty());
    for (uint32_t hop = 1; hop < 6; ++hop) {
      EXPECT_EQ(Deps(*w, first + hop), (std::vector<uint32_t>{first + hop - 1}));
      // Each hop leaves the host the previous one reached: the ring 0 -> 4 -> 8 -> 12 -> 0.
      EXPECT_EQ(w->flows[first + hop].src_host, w->flows[first + hop - 1].dst_host);
      EXPECT_EQ((w->flows[first + hop].dst_host + 16 - w->flows[first + hop].src_host) % 16, 4u);
    }
  }
  EXPECT_EQ(w->flows[24].start, Time::FromNs(2500));                // "start 2.5" us
  EXPECT_EQ(Deps(*w, 25), (std::vector<uint32_t>{5, 11, 17, 23}));  // the last hop of each chunk
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < 24; ++i) bytes += w->flows[i].size_bytes;
  EXPECT_EQ(bytes, 4u * 6 * 262144);  // 2(N-1)/N x 1 MiB sent by each of the N ranks
}

TEST(TraceSectionTest, ShippedHpccFileReadsItsCountedFlows) {
  StatusOr<Workload> w = ShippedTrace("trace_hpcc.textproto");
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_EQ(w->size(), 8u);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(w->flows[i].dst_host, 0u);  // the incast
  EXPECT_EQ(w->flows[2].start, Time::FromUs(1));                         // 0.000001 s
  EXPECT_EQ(w->flows[5].start, Time::FromNs(500));                       // 0.0000005 s
  EXPECT_TRUE(w->after.empty());
}

TEST(TraceSectionTest, ShippedNativeTraceHasTwoJobsAndForwardDependencies) {
  StatusOr<Workload> w = ShippedTrace("trace_native.textproto");
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_EQ(w->size(), 11u);
  ASSERT_EQ(w->jobs.size(), 2u);
  EXPECT_EQ(w->jobs[0].name, "train");
  EXPECT_EQ(w->jobs[1].name, "storage");
  EXPECT_EQ(w->jobs[1].dscp, 10);
  EXPECT_EQ(Deps(*w, 4), (std::vector<uint32_t>{3}));
  EXPECT_EQ(w->delay[4], Time::FromUs(2));
  EXPECT_EQ(Deps(*w, 8), (std::vector<uint32_t>{9, 10}));  // rows listed after it
  EXPECT_EQ(w->flows[9].start, Time::FromPs(1500500));
}

// The scenario's workload, exported (as `fabric-emu export` writes it) and replayed by the same
// scenario with its traffic replaced by the export, is the same workload: hosts, sizes, starts,
// dependencies, delays, jobs and their DSCPs; and it exports to the same text again.
void ExpectExportReplaysAsItRan(const fabric_emu::Scenario& scenario, const std::string& dir) {
  SCOPED_TRACE(scenario.name());
  StatusOr<topo::Graph> g = topo::BuildTopology(scenario.topology(), dir);
  ASSERT_TRUE(g.ok()) << g.status().message();
  StatusOr<Workload> w = BuildWorkload(scenario, *g, 7, dir);
  ASSERT_TRUE(w.ok()) << w.status().message();
  StatusOr<std::string> csv = NativeTraceCsv(*w);
  ASSERT_TRUE(csv.ok()) << csv.status().message();
  const fs::path file = fs::temp_directory_path() / ("trace_section_" + scenario.name() + ".csv");
  std::ofstream(file) << *csv;
  fabric_emu::Scenario replay = scenario;
  replay.clear_traffic();
  replay.add_traffic()->mutable_trace()->set_file(file.string());
  StatusOr<Workload> back = BuildWorkload(replay, *g, 7, dir);
  fs::remove(file);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->size(), w->size());
  for (uint32_t i = 0; i < w->size(); ++i) {
    EXPECT_EQ(back->flows[i], w->flows[i]) << i;
    EXPECT_EQ(back->delay[i], w->delay[i]) << i;
    EXPECT_EQ(Deps(*back, i), Deps(*w, i)) << i;
    EXPECT_EQ(back->jobs[back->job_of[i]].name, w->jobs[w->job_of[i]].name) << i;
    EXPECT_EQ(back->jobs[back->job_of[i]].dscp, w->jobs[w->job_of[i]].dscp) << i;
  }
  StatusOr<std::string> again = NativeTraceCsv(*back);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(*again, *csv);
}

TEST(TraceSectionTest, ShippedScenariosReplayTheirExport) {
  for (const char* name : {"trace_htsim", "trace_hpcc", "trace_native", "default"}) {
    const fs::path path = Root() / "scenarios" / (std::string(name) + ".textproto");
    StatusOr<fabric_emu::Scenario> s = LoadScenarioFile(path.string());
    ASSERT_TRUE(s.ok()) << s.status().message();
    ExpectExportReplaysAsItRan(*s, path.parent_path().string());
  }
}

// Sections of different classes stay different jobs in the replay, each with its DSCP.
TEST(TraceSectionTest, SectionsReplayAsJobsWithTheirDscp) {
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(
      "name: \"two_sections\"\n"
      "topology { fat_tree { k: 4 } }\n"
      "traffic { permutation { message_bytes: 4096 } }\n"
      "traffic { incast { senders: 3 message_bytes: 8192 } dscp: 10 job: \"bg\" }\n",
      "two_sections.textproto");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ExpectExportReplaysAsItRan(*s, "");
}

// A scenario replaying tests/data/traces/<file> is refused with its own line (the trace section's
// file field, line 3) and the trace's line and reason.
void ExpectRefused(const std::string& file, const std::string& trace_error) {
  const std::string trace = (Root() / "tests/data/traces" / file).string();
  const std::string text =
      "topology { fat_tree { k: 4 } }\n"
      "traffic { trace {\n"
      "  file: \"" +
      trace +
      "\"\n"
      "} }\n";
  StatusOr<fabric_emu::Scenario> s = LoadScenarioText(text, "replay.textproto");
  ASSERT_FALSE(s.ok()) << file;
  EXPECT_EQ(s.status().message(),
            "replay.textproto:3: traffic[0].trace.file: " + trace + ":" + trace_error);
}

TEST(TraceSectionTest, BadNumberIsRefusedAtItsLine) {
  ExpectRefused("bad_number.cm", "4: `size` takes a size in bytes, a whole number, got '10kB'");
}

TEST(TraceSectionTest, UnknownNodeIsRefusedAtItsLine) {
  ExpectRefused("unknown_node.txt",
                "3: node 16 runs on host 16, but the topology has 16 hosts (0 to 15)");
}

TEST(TraceSectionTest, UnknownTriggerIsRefusedAtItsLine) {
  ExpectRefused("unknown_trigger.cm",
                "5: trigger 2 is not defined: add a line `trigger id 2 oneshot` (or barrier "
                "with a count)");
}

TEST(TraceSectionTest, CycleIsRefusedAtALineOfIt) {
  ExpectRefused("cycle.csv", "3: message 1 is in, or waits for, a dependency cycle");
}

TEST(TraceSectionTest, MissingHeaderIsRefusedAtTheFirstConnection) {
  ExpectRefused("missing_header.cm", "3: a connection before the `Nodes N` header");
}

TEST(TraceSectionTest, TraceOfNoFlowsIsRefused) {
  ExpectRefused("header_only.csv", " holds no flows: a run of it would send nothing");
  ExpectRefused("zero_flows.txt", " holds no flows: a run of it would send nothing");
}

TEST(TraceSectionTest, SectionFieldsAreChecked) {
  const auto refused = [](const std::string& trace_fields) {
    StatusOr<fabric_emu::Scenario> s = LoadScenarioText(
        "topology { fat_tree { k: 4 } }\ntraffic { trace { " + trace_fields + " } }\n",
        "s.textproto");
    return s.ok() ? std::string() : s.status().message();
  };
  EXPECT_EQ(refused(""),
            "s.textproto:2: traffic[0].trace.file: required: the trace file to replay");
  EXPECT_NE(refused("file: \"x.json\"").find("cannot tell the format of 'x.json'"),
            std::string::npos);
  EXPECT_NE(refused("file: \"missing.cm\"").find("missing.cm: no such regular file"),
            std::string::npos);
  EXPECT_NE(refused("file: \"t.cm\" time_scale: 0")
                .find("traffic[0].trace.time_scale: must be a finite number > 0"),
            std::string::npos);
  EXPECT_NE(refused("file: \"t.cm\" host_offset: 1 host: 3")
                .find("give host_offset or a host list, not both"),
            std::string::npos);
  EXPECT_NE(refused("file: \"t.cm\" host: 3 host: 16")
                .find("traffic[0].trace.host[1]: must be a host index in [0, 15]"),
            std::string::npos);
  EXPECT_NE(refused("file: \"t.cm\" host_offset: 16").find("traffic[0].trace.host_offset"),
            std::string::npos);
}

TEST(TraceSectionTest, FormatComesFromTheExtensionUnlessNamed) {
  fabric_emu::TraceFile t;
  t.set_file("a/b.cm");
  EXPECT_EQ(TraceFormatOf(t).value(), fabric_emu::TraceFile::HTSIM);
  t.set_file("flow.txt");
  EXPECT_EQ(TraceFormatOf(t).value(), fabric_emu::TraceFile::HPCC);
  t.set_file("w.csv");
  EXPECT_EQ(TraceFormatOf(t).value(), fabric_emu::TraceFile::NATIVE);
  t.set_file("trace.dat");
  EXPECT_FALSE(TraceFormatOf(t).ok());
  t.set_format(fabric_emu::TraceFile::HTSIM);
  EXPECT_EQ(TraceFormatOf(t).value(), fabric_emu::TraceFile::HTSIM);
}

}  // namespace
}  // namespace fe::control
