// Reads flows.csv back (control/run/report_writer.h) to check what any workload must obey: no flow
// starts before every flow it waits for was delivered.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fe::testing {

// The fields of one line, split at commas (the columns this checks are never quoted).
inline std::vector<std::string> CsvFields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

// Empty when every flow that started did so at or after the finish (delivery) of each flow in its
// `after` column, and every flow waiting for one never delivered did not start; else the first
// violation. Also counts the dependencies checked into *checked.
inline std::string StartsAfterDependencies(const std::string& flows_csv, size_t* checked) {
  std::stringstream in(flows_csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = CsvFields(line);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* name : {"id", "finish_ns", "started_ns", "after"}) {
    if (!col.contains(name)) return std::string("no column ") + name;
  }
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(CsvFields(line));
  *checked = 0;
  for (const std::vector<std::string>& r : rows) {
    if (r.size() != header.size()) return "a row of " + std::to_string(r.size()) + " fields";
    std::stringstream after(r[col["after"]]);
    for (size_t d; after >> d;) {
      if (d >= rows.size()) return "flow " + r[col["id"]] + " waits for a flow not in the file";
      const std::string& finish = rows[d][col["finish_ns"]];
      const std::string& started = r[col["started_ns"]];
      ++*checked;
      if (started.empty()) continue;
      if (finish.empty() || std::stod(started) < std::stod(finish)) {
        return "flow " + r[col["id"]] + " started at " + started + " ns, before flow " +
               std::to_string(d) + " was delivered (" + (finish.empty() ? "never" : finish) + ")";
      }
    }
  }
  return "";
}

}  // namespace fe::testing
