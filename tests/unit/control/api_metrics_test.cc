// The Prometheus view of a finished incast run: the exposition format's rules (HELP and TYPE
// before a family's samples, counters in _total, cumulative histogram buckets), and values
// against what the run must give: 8 senders x 1 MiB all delivered to host 0, the FCT histogram
// holding every flow's FCT from flows.csv's definition, lateness buckets counted exactly.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "control/api/metrics_text.h"
#include "control/api/snapshot.h"
#include "control/run/report_writer.h"
#include "scenario_run.h"

namespace fe::control::api {
namespace {

constexpr char kIncast[] = R"pb(
  name: "incast"
  topology { fat_tree { k: 4 link_rate_gbps: 100 link_delay_ns: 1000 } }
  traffic { incast { senders: 8 message_bytes: 1048576 } }
  run { seed: 1 }
)pb";

struct Scraped {
  std::map<std::string, std::string> type;  // family -> TYPE
  std::map<std::string, double> value;      // "name{labels}" -> value
  std::vector<std::string> order;           // sample keys as they came
};

// Parses the text format strictly enough to catch a malformed line.
Scraped Parse(const std::string& text) {
  Scraped s;
  std::istringstream in(text);
  std::string line;
  const std::regex sample(R"re(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$)re");
  std::string family;
  bool helped = false;
  while (std::getline(in, line)) {
    if (line.starts_with("# HELP ")) {
      family = line.substr(7, line.find(' ', 7) - 7);
      helped = true;
      continue;
    }
    if (line.starts_with("# TYPE ")) {
      EXPECT_TRUE(helped) << line;
      std::istringstream t(line.substr(7));
      std::string name, type;
      t >> name >> type;
      EXPECT_EQ(name, family);
      s.type[name] = type;
      helped = false;
      continue;
    }
    std::smatch m;
    EXPECT_TRUE(std::regex_match(line, m, sample)) << line;
    const std::string name = m[1];
    // Every sample belongs to the family announced last (a histogram's by its suffixes).
    EXPECT_TRUE(name == family || name == family + "_bucket" || name == family + "_sum" ||
                name == family + "_count")
        << name << " after " << family;
    const std::string key = name + m[2].str();
    s.value[key] = std::stod(m[3]);
    s.order.push_back(key);
  }
  return s;
}

class ApiMetricsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    run_ = new testing::ScenarioRun(testing::RunScenarioText(kIncast, "incast.textproto", 1));
    SnapshotSource source;
    source.emulation = run_->run.emulation.get();
    source.mode = "software";
    source.scenario = "incast";
    RunProgress progress;
    progress.finished = true;
    progress.events = run_->run.events;
    snapshot_ = new RunSnapshot(TakeSnapshot(source, progress, true));
  }
  static void TearDownTestSuite() {
    delete snapshot_;
    delete run_;
  }
  static testing::ScenarioRun* run_;
  static RunSnapshot* snapshot_;
};
testing::ScenarioRun* ApiMetricsTest::run_ = nullptr;
RunSnapshot* ApiMetricsTest::snapshot_ = nullptr;

TEST_F(ApiMetricsTest, EveryFamilyIsAnnouncedAndCountersEndInTotal) {
  const Scraped s = Parse(MetricsText(*snapshot_));
  ASSERT_GT(s.type.size(), 20u);
  for (const auto& [name, type] : s.type) {
    EXPECT_TRUE(type == "counter" || type == "gauge" || type == "histogram") << name;
    EXPECT_EQ(type == "counter", name.ends_with("_total")) << name << " is a " << type;
  }
}

TEST_F(ApiMetricsTest, ReceiverGotEveryByteOfTheIncast) {
  const Scraped s = Parse(MetricsText(*snapshot_));
  const std::string h0 = snapshot_->host_names[0];
  // 8 senders x 1 MiB, delivered in order to host 0: exactly 8 MiB, conservation of payload.
  EXPECT_EQ(
      s.value.at("fabric_emu_nic_received_payload_bytes_total{host=\"" + h0 + "\",port=\"0\"}"),
      8.0 * 1048576);
  EXPECT_EQ(s.value.at("fabric_emu_flows{state=\"completed\"}"), 8);
  EXPECT_EQ(s.value.at("fabric_emu_run_finished"), 1);
  // Nothing is sending once the run is over.
  for (const NicRow& n : snapshot_->nics) {
    EXPECT_EQ(n.active_qps, 0u);
    EXPECT_EQ(n.rate_bps, 0);
  }
}

TEST_F(ApiMetricsTest, FctHistogramHoldsEveryCompletedFlow) {
  const FlowMetrics metrics = CollectFlowMetrics(*run_->run.emulation, 4096);
  double sum_s = 0;
  size_t completed = 0;
  for (const FlowRecord& r : metrics.SortedRecords()) {
    if (!r.completed) continue;
    ++completed;
    sum_s += r.fct().seconds();
  }
  const Histogram& h = snapshot_->fct;
  EXPECT_EQ(h.count, completed);
  // Both sum the same picosecond FCTs as doubles, in the same order: equal to rounding.
  EXPECT_NEAR(h.sum_s, sum_s, 1e-15 * completed);
  // Cumulative: never decreasing, never above the count; the last finite bound (10 s) holds all.
  for (size_t i = 1; i < h.counts.size(); ++i) EXPECT_LE(h.counts[i - 1], h.counts[i]);
  EXPECT_EQ(h.counts.back(), h.count);
  // Incast FCTs here are hundreds of microseconds (8 MiB through one 100 Gb/s port takes 671
  // us): none fits under 100 us, all under 1 ms.
  const auto at = [&h](double bound) {
    for (size_t i = 0; i < h.upper_bounds_s.size(); ++i) {
      if (h.upper_bounds_s[i] == bound) return h.counts[i];
    }
    ADD_FAILURE() << "no bound " << bound;
    return uint64_t{0};
  };
  EXPECT_EQ(at(1e-4), 0u);
  EXPECT_EQ(at(1e-3), 8u);
}

TEST(ApiLatenessBucketsTest, CountsBelowEachPowerOfTwoExactly) {
  dp::LatenessHistogram h;
  for (int64_t ns : {0, 63, 64, 127, 128, 1000, 5000, 5000}) h.Record(Time::FromNs(ns));
  const Histogram b = LatenessBuckets(h);
  ASSERT_EQ(b.upper_bounds_s.front(), 64e-9);
  const auto at = [&b](double ns) {
    for (size_t i = 0; i < b.upper_bounds_s.size(); ++i) {
      if (b.upper_bounds_s[i] == ns * 1e-9) return b.counts[i];
    }
    ADD_FAILURE() << "no bound " << ns;
    return uint64_t{0};
  };
  EXPECT_EQ(at(64), 2u);  // 0, 63
  EXPECT_EQ(at(128), 4u);
  EXPECT_EQ(at(1024), 6u);
  EXPECT_EQ(at(4096), 6u);
  EXPECT_EQ(at(8192), 8u);
  EXPECT_EQ(b.count, 8u);
  // The sum counts each event at its bucket's upper edge: never below the true 11382 ns, at most
  // 1/32 above it.
  EXPECT_GE(b.sum_s, 11382e-9);
  EXPECT_LE(b.sum_s, 11382e-9 * (1 + 1.0 / 32));
}

TEST(ApiMetricsEscapeTest, LabelValuesEscapeQuotesBackslashesAndNewlines) {
  RunSnapshot s;
  s.mode = "software";
  s.scenario = "a\"b\\c\nd";
  const std::string text = MetricsText(s);
  EXPECT_NE(text.find(R"(scenario="a\"b\\c\nd")"), std::string::npos) << text.substr(0, 400);
}

}  // namespace
}  // namespace fe::control::api
