// events.csv read back: the rows a run wrote, whatever the line endings an editor gave them.
#include "control/emulation/events_csv.h"

#include <gtest/gtest.h>

#include <string>

#include "control/scenario/command_json.h"

namespace fe::control {
namespace {

// Two commands as a run writes them (EventsCsv's quoting: "" stands for ").
constexpr char kEvents[] =
    "time_ns,source,command\n"
    "20000.000,schedule,\"{\"\"set_ecn\"\":{\"\"priority\"\":3,\"\"wred\"\":{\"\"kmin_bytes\"\":"
    "\"\"20000\"\"}}}\"\n"
    "\n"
    "30000.125,replay,\"{\"\"set_pfc\"\":{\"\"priority\"\":3,\"\"enabled\"\":false}}\"\n";

std::string WithCrLf(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// A file saved on Windows (every line ended CR LF) holds the same rows, at the same lines, as the
// file the run wrote: the CR is part of no field.
TEST(EventsCsvTest, CrLfLinesReadAsLfLines) {
  StatusOr<std::vector<EventRow>> lf = ParseEventsCsv(kEvents, "events.csv");
  ASSERT_TRUE(lf.ok()) << lf.status().message();
  StatusOr<std::vector<EventRow>> crlf = ParseEventsCsv(WithCrLf(kEvents), "events.csv");
  ASSERT_TRUE(crlf.ok()) << crlf.status().message();
  ASSERT_EQ(lf->size(), 2u);
  ASSERT_EQ(crlf->size(), lf->size());
  for (size_t i = 0; i < lf->size(); ++i) {
    EXPECT_EQ((*crlf)[i].line, (*lf)[i].line);
    EXPECT_EQ((*crlf)[i].applied.at, (*lf)[i].applied.at);
    EXPECT_EQ((*crlf)[i].applied.source, (*lf)[i].applied.source);
    EXPECT_EQ(CommandJson((*crlf)[i].applied.command), CommandJson((*lf)[i].applied.command));
  }
  EXPECT_EQ((*lf)[1].line, 4);  // the blank line 3 is skipped, and counted
  EXPECT_EQ((*lf)[1].applied.at, Time::FromPs(30'000'125));
}

// Only a line's ending is taken off: a CR anywhere else is still an error, at its line.
TEST(EventsCsvTest, CrInsideARowIsStillRefused) {
  StatusOr<std::vector<EventRow>> rows =
      ParseEventsCsv("time_ns,source,command\r\n20000.000,sched\rule,\"{}\"\r\n", "e.csv");
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().message().find("e.csv:2: source"), std::string::npos)
      << rows.status().message();
}

}  // namespace
}  // namespace fe::control
