#include "control/report/html/section_common.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

#include "control/report/html/csv_reader.h"

namespace fe::control::html {
namespace {

bool KeyLess(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), NaturalLess);
}

// The key columns' values joined by a byte no CSV text field of ours holds, into `key` (reused
// from row to row: the files run to millions of rows).
void Join(const CsvReader& csv, const std::vector<size_t>& columns, std::string* key) {
  key->clear();
  for (const size_t c : columns) {
    *key += csv.Text(c);
    *key += '\x1f';
  }
}

struct Columns {
  std::vector<size_t> key;
  size_t time = 0;
  size_t value = 0;
};

StatusOr<Columns> FindColumns(const CsvReader& csv, const std::vector<std::string>& key_columns,
                              const std::string& value_column) {
  Columns c;
  for (const std::string& name : key_columns) {
    StatusOr<size_t> k = csv.Column(name);
    if (!k.ok()) return k.status();
    c.key.push_back(*k);
  }
  for (const auto& [name, out] :
       {std::pair{"time_ns", &c.time}, {value_column.c_str(), &c.value}}) {
    StatusOr<size_t> k = csv.Column(name);
    if (!k.ok()) return k.status();
    *out = *k;
  }
  return c;
}

}  // namespace

svg::AxisSpec TimeAxisUs() { return {.title = "time (us)", .label_divisor = 1000}; }

std::vector<svg::RefLine> EventLines(const ReportInput& in) {
  std::vector<svg::RefLine> lines;
  for (const RunEvent& e : in.events) {
    if (lines.size() == kMaxEventLines) break;
    lines.push_back({.axis = svg::RefLine::Axis::kX,
                     .value = e.at_ns,
                     .label = e.failure ? e.source + " " + e.what : e.source});
  }
  return lines;
}

bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i]));
    const bool db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      // Without leading zeros, the longer run is the larger number.
      size_t si = i, sj = j;
      while (si + 1 < ei && a[si] == '0') ++si;
      while (sj + 1 < ej && b[sj] == '0') ++sj;
      if (ei - si != ej - sj) return ei - si < ej - sj;
      const int c = a.compare(si, ei - si, b, sj, ej - sj);
      if (c != 0) return c < 0;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  if ((a.size() - i) != (b.size() - j)) return a.size() - i < b.size() - j;
  return a < b;  // equal as numbers ("01" and "1"): a strict order all the same
}

StatusOr<TopSeries> ReadTopSeries(const std::string& path,
                                  const std::vector<std::string>& key_columns,
                                  const std::string& value_column, size_t count, bool lowest) {
  TopSeries top;
  struct Stats {
    std::vector<std::string> key;
    double max = 0, min = 0;
  };
  std::unordered_map<std::string, Stats> stats;
  std::string key;
  {
    StatusOr<CsvReader> csv = CsvReader::Open(path);
    if (!csv.ok()) return csv.status();
    StatusOr<Columns> cols = FindColumns(*csv, key_columns, value_column);
    if (!cols.ok()) return cols.status();
    while (true) {
      StatusOr<bool> next = csv->Next();
      if (!next.ok()) return next.status();
      if (!*next) break;
      ++top.rows;
      StatusOr<double> t = csv->Number(cols->time);
      if (!t.ok()) return t.status();
      StatusOr<double> v = csv->Number(cols->value);
      if (!v.ok()) return v.status();
      Join(*csv, cols->key, &key);
      auto [it, fresh] = stats.try_emplace(key);
      if (fresh) {
        for (const size_t k : cols->key) it->second.key.push_back(csv->Text(k));
        it->second.max = it->second.min = *v;
      }
      it->second.max = std::max(it->second.max, *v);
      it->second.min = std::min(it->second.min, *v);
    }
  }
  top.total = stats.size();
  std::vector<const Stats*> ranked;
  for (const auto& [key, s] : stats) ranked.push_back(&s);
  std::sort(ranked.begin(), ranked.end(), [lowest](const Stats* a, const Stats* b) {
    const double va = lowest ? a->min : a->max, vb = lowest ? b->min : b->max;
    if (va != vb) return lowest ? va < vb : va > vb;
    return KeyLess(a->key, b->key);
  });
  ranked.resize(std::min(ranked.size(), count));
  std::map<std::string, size_t> chosen;  // joined key -> index in top.series
  for (const Stats* s : ranked) {
    SampledSeries series;
    series.key = s->key;
    series.max = s->max;
    series.min = s->min;
    std::string joined;
    for (const std::string& k : s->key) joined += k + '\x1f';
    chosen[joined] = top.series.size();
    top.series.push_back(std::move(series));
  }
  if (chosen.empty()) return top;
  StatusOr<CsvReader> csv = CsvReader::Open(path);
  if (!csv.ok()) return csv.status();
  StatusOr<Columns> cols = FindColumns(*csv, key_columns, value_column);
  if (!cols.ok()) return cols.status();
  while (true) {
    StatusOr<bool> next = csv->Next();
    if (!next.ok()) return next.status();
    if (!*next) break;
    Join(*csv, cols->key, &key);
    const auto it = chosen.find(key);
    if (it == chosen.end()) continue;
    // Both parsed whole in the first reading.
    top.series[it->second].points.push_back(
        {csv->Number(cols->time).value(), csv->Number(cols->value).value()});
  }
  return top;
}

}  // namespace fe::control::html
