// Runs tshark over a capture file and returns the requested fields of every frame, one row per
// frame (an empty cell where the frame lacks the field), for tests that check what a dissector
// independent of this project reads in our frames.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace fe::testing {

inline bool TsharkAvailable() { return std::system("tshark --version >/dev/null 2>&1") == 0; }

inline std::vector<std::vector<std::string>> TsharkFields(const std::string& file,
                                                          const std::vector<std::string>& fields) {
  std::string cmd = "tshark -r '" + file + "' -T fields -E separator=/t";
  for (const std::string& f : fields) cmd += " -e " + f;
  cmd += " 2>/dev/null";
  std::vector<std::vector<std::string>> rows;
  std::FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return rows;
  char line[4096];
  while (std::fgets(line, sizeof(line), p) != nullptr) {
    std::string s(line);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    std::vector<std::string> row;
    std::stringstream ss(s);
    for (std::string cell; std::getline(ss, cell, '\t');) row.push_back(cell);
    row.resize(fields.size());
    rows.push_back(row);
  }
  pclose(p);
  return rows;
}

// Lines of tshark's full dissection (-V) that contain `text`: for what tshark shows only in its
// protocol tree, such as the name it gives a field's value.
inline uint64_t TsharkVerboseLinesWith(const std::string& file, const std::string& text) {
  std::FILE* p = popen(("tshark -r '" + file + "' -V 2>/dev/null").c_str(), "r");
  if (p == nullptr) return 0;
  uint64_t n = 0;
  char line[4096];
  while (std::fgets(line, sizeof(line), p) != nullptr) {
    n += std::string(line).find(text) != std::string::npos ? 1 : 0;
  }
  pclose(p);
  return n;
}

}  // namespace fe::testing
