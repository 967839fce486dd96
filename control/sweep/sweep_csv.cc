#include "control/sweep/sweep_csv.h"

#include <algorithm>

#include "traffic/csv_field.h"

namespace fe::control {

const char* PointStatusName(PointStatus status) {
  switch (status) {
    case PointStatus::kOk:
      return "ok";
    case PointStatus::kFailed:
      return "failed";
    case PointStatus::kInterrupted:
      return "interrupted";
    case PointStatus::kNotRun:
      return "not run";
  }
  return "";
}

std::vector<std::string> HeadlineColumns(std::span<const PointRecord> records) {
  std::vector<std::string> columns;
  for (const PointRecord& r : records) {
    for (const HeadlineValue& v : r.headline) {
      if (std::ranges::find(columns, v.name) == columns.end()) columns.push_back(v.name);
    }
  }
  return columns;
}

std::string SweepCsv(std::span<const SweepAxis> axes, std::span<const PointRecord> records) {
  const std::vector<std::string> columns = HeadlineColumns(records);
  std::string out = "point";
  for (const SweepAxis& a : axes) out += "," + CsvField(a.path);
  for (const std::string& c : columns) out += "," + CsvField(c);
  out += ",dir,status\n";
  for (const PointRecord& r : records) {
    out += std::to_string(r.point->index);
    for (const std::string& v : r.point->values) out += "," + CsvField(v);
    for (const std::string& c : columns) {
      const auto it = std::ranges::find(r.headline, c, &HeadlineValue::name);
      out += "," + (it == r.headline.end() ? std::string() : it->text);
    }
    out += "," + CsvField(r.point->name) + "," + PointStatusName(r.status) + "\n";
  }
  return out;
}

}  // namespace fe::control
