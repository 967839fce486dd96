// EventLog: appends read back in order across blocks, and an event once appended stays where it
// is while more are appended (what lets another thread read it meanwhile).
#include "core/event_log.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/scheduler.h"

namespace fe {
namespace {

class Dummy final : public EventHandler {
 public:
  void OnEvent(uint64_t /*arg*/) override {}
};

Event Nth(uint32_t i, EventHandler* h) {
  return Event{Time::FromPs(7 * static_cast<int64_t>(i)), i * 3ULL, h, ~uint64_t{i}};
}

bool Same(const Event& a, const Event& b) {
  return a.at == b.at && a.seq == b.seq && a.handler == b.handler && a.arg == b.arg;
}

TEST(EventLogTest, ReadsBackWhatWasAppendedAcrossBlocks) {
  Dummy h;
  EventLog log;
  const uint32_t n = 3 * EventLog::kBlockEvents + 5;
  std::vector<const Event*> first_places;
  for (uint32_t i = 0; i < n; ++i) {
    log.push_back(Nth(i, &h));
    if (i % EventLog::kBlockEvents == 0) first_places.push_back(&log[i]);
  }
  ASSERT_EQ(log.size(), n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_TRUE(Same(log[i], Nth(i, &h))) << i;
  // Each block's first event is where it was when appended, blocks later.
  for (uint32_t b = 0; b < first_places.size(); ++b) {
    EXPECT_EQ(first_places[b], &log[b * EventLog::kBlockEvents]);
  }
}

TEST(EventLogTest, ClearKeepsTheBlocksForTheNextAppends) {
  Dummy h;
  EventLog log;
  for (uint32_t i = 0; i < EventLog::kBlockEvents + 1; ++i) log.push_back(Nth(i, &h));
  const Event* second_block = &log[EventLog::kBlockEvents];
  log.clear();
  EXPECT_EQ(log.size(), 0u);
  for (uint32_t i = 0; i < EventLog::kBlockEvents + 1; ++i) log.push_back(Nth(i + 9, &h));
  EXPECT_EQ(&log[EventLog::kBlockEvents], second_block);
  EXPECT_TRUE(Same(log[EventLog::kBlockEvents], Nth(EventLog::kBlockEvents + 9, &h)));
}

}  // namespace
}  // namespace fe
