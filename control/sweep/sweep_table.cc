#include "control/sweep/sweep_table.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/printable.h"

namespace fe::control {
namespace {

// Values wider than this are cut in the table, and points past kMaxRows left out: sweep.csv
// has them all.
constexpr size_t kMaxCellBytes = 24;
constexpr size_t kMaxRows = 100;

std::string Cell(std::string_view text) {
  const std::string p = Printable(text);
  return p.size() <= kMaxCellBytes ? p : p.substr(0, kMaxCellBytes - 3) + "...";
}

const HeadlineValue* Find(const PointRecord& r, std::string_view name) {
  const auto it = std::ranges::find(r.headline, name, &HeadlineValue::name);
  return it == r.headline.end() ? nullptr : &*it;
}

std::string Fixed(const HeadlineValue* v, double scale, int decimals) {
  if (v == nullptr) return "-";
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v->value * scale);
  return buf;
}

}  // namespace

std::string SweepTable(std::span<const SweepAxis> axes, std::span<const PointRecord> records) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"point"};
  for (const SweepAxis& a : axes) header.push_back(Cell(a.label));
  for (const char* h :
       {"flows", "FCT p99 us", "slowdown p99", "makespan us", "goodput Gb/s", "drops", "status"}) {
    header.emplace_back(h);
  }
  rows.push_back(header);
  for (const PointRecord& r : records.first(std::min(records.size(), kMaxRows))) {
    std::vector<std::string> row = {std::to_string(r.point->index)};
    for (const std::string& v : r.point->values) row.push_back(Cell(v));
    const HeadlineValue* done = Find(r, "flows_completed");
    const HeadlineValue* total = Find(r, "flows_total");
    row.push_back(done && total ? done->text + "/" + total->text : "-");
    row.push_back(Fixed(Find(r, "fct_p99_ns"), 1e-3, 3));
    row.push_back(Fixed(Find(r, "slowdown_p99"), 1, 3));
    row.push_back(Fixed(Find(r, "simulated_time_ns"), 1e-3, 3));
    row.push_back(Fixed(Find(r, "goodput_gbps"), 1, 1));
    const HeadlineValue* drops = Find(r, "drops");
    row.push_back(drops ? drops->text : "-");
    row.emplace_back(PointStatusName(r.status));
    rows.push_back(std::move(row));
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      line += "  " + row[c] + std::string(width[c] - row[c].size(), ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  if (records.size() > kMaxRows) {
    out += "  ... and " + std::to_string(records.size() - kMaxRows) + " more points in sweep.csv\n";
  }
  return out;
}

}  // namespace fe::control
