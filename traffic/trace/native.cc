#include "traffic/trace/native.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/utf8.h"
#include "traffic/csv_field.h"
#include "traffic/trace/text.h"

namespace fe {
namespace {

enum Column { kId, kSrc, kDst, kBytes, kStartNs, kAfter, kDelayNs, kDscp, kJob, kColumns };
constexpr std::array<std::string_view, kColumns> kColumnNames = {
    "id", "src", "dst", "bytes", "start_ns", "after", "delay_ns", "dscp", "job"};
constexpr int kRequiredColumns = 4;  // id, src, dst, bytes
constexpr uint64_t kMaxDscp = 63;    // a 6-bit field

// The fields of one CSV line, RFC 4180 quoting; false with the reason for a broken quote.
bool SplitCsv(std::string_view line, std::vector<std::string>* fields, std::string* reason) {
  fields->clear();
  size_t i = 0;
  while (true) {
    std::string field;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) {
          *reason = "a quoted field is not closed";
          return false;
        }
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      if (i < line.size() && line[i] != ',') {
        *reason = "text after a quoted field's closing quote";
        return false;
      }
    } else {
      const size_t end = std::min(line.find(',', i), line.size());
      field = std::string(line.substr(i, end - i));
      i = end;
    }
    fields->push_back(std::move(field));
    if (i >= line.size()) return true;
    ++i;  // the comma
  }
}

// Picoseconds as ns, exactly: "1500", "1500.5", "0.001".
std::string FormatNs(Time t) {
  const int64_t ps = t.ps();
  std::string s = std::to_string(ps / 1000);
  if (const int64_t frac = ps % 1000; frac != 0) {
    std::string digits = std::to_string(1000 + frac).substr(1);  // 3 digits, leading zeros
    digits.erase(digits.find_last_not_of('0') + 1);
    s += "." + digits;
  }
  return s;
}

class NativeReader {
 public:
  explicit NativeReader(const TraceParams& params) : params_(params) {}
  StatusOr<Workload> Read(std::string_view text);

 private:
  Status HeaderRow(uint32_t line, const std::vector<std::string>& names);
  Status Row(uint32_t line, const std::vector<std::string>& fields);
  Status Error(uint32_t line, const std::string& reason) const {
    return TraceLineError(params_, line, reason);
  }
  const std::string* Field(const std::vector<std::string>& fields, Column c) const {
    return column_[c] < 0 ? nullptr : &fields[column_[c]];
  }
  bool ParseTime(const std::string* field, const char* name, fe::Time* out,
                 std::string* reason) const;

  const TraceParams& params_;
  std::array<int, kColumns> column_{};  // index in the row, -1: absent
  size_t columns_ = 0;
  Workload w_;
  std::vector<uint32_t> line_of_;
  std::unordered_map<uint64_t, uint32_t> index_of_id_;
  std::vector<std::vector<uint64_t>> after_ids_;  // by message, resolved once all rows are read
  std::map<std::string, uint32_t> job_index_;
  std::vector<uint32_t> job_line_;  // the row that set each job's dscp
};

Status NativeReader::HeaderRow(uint32_t line, const std::vector<std::string>& names) {
  column_.fill(-1);
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string_view name = names[i];
    int c = 0;
    while (c < kColumns && kColumnNames[c] != name) ++c;
    if (c == kColumns) {
      return Error(line, "unknown column '" + names[i] + "'; the columns are " +
                             std::string(kNativeTraceHeader));
    }
    if (column_[c] >= 0) return Error(line, "column '" + names[i] + "' appears twice");
    column_[c] = static_cast<int>(i);
  }
  if ((column_[kJob] < 0) != (column_[kDscp] < 0)) {
    return Error(line,
                 "columns job and dscp come together (a job's messages carry its dscp), or "
                 "neither: the section's job and dscp");
  }
  for (int c = 0; c < kRequiredColumns; ++c) {
    if (column_[c] < 0) {
      return Error(line, "no column '" + std::string(kColumnNames[c]) +
                             "': the header must name id, src, dst and bytes");
    }
  }
  columns_ = names.size();
  return Status::Ok();
}

bool NativeReader::ParseTime(const std::string* field, const char* name, fe::Time* out,
                             std::string* reason) const {
  *out = fe::Time::Zero();
  if (field == nullptr || field->empty()) return true;
  const std::optional<uint64_t> ps = ParseDecimalScaled(*field, 3);
  if (!ps) {
    *reason = std::string(name) + " must be a time in ns, a decimal >= 0, got '" + *field + "'";
    return false;
  }
  return ScaledTraceTime(params_, *ps, name, out, reason);
}

Status NativeReader::Row(uint32_t line, const std::vector<std::string>& fields) {
  if (fields.size() != columns_) {
    return Error(line, "expected " + std::to_string(columns_) + " fields as the header has, got " +
                           std::to_string(fields.size()));
  }
  uint64_t v[kRequiredColumns];
  for (int c = 0; c < kRequiredColumns; ++c) {
    const std::optional<uint64_t> x = ParseWhole(fields[column_[c]]);
    if (!x) {
      return Error(line, std::string(kColumnNames[c]) + " " + NotWholeReason(fields[column_[c]]));
    }
    v[c] = *x;
  }
  const auto index = static_cast<uint32_t>(w_.size());
  if (const auto [it, fresh] = index_of_id_.emplace(v[kId], index); !fresh) {
    return Error(line, "id " + std::to_string(v[kId]) + " is also the id on line " +
                           std::to_string(line_of_[it->second]));
  }
  std::string reason;
  Flow f;
  if (!TraceHost(params_, v[kSrc], &f.src_host, &reason) ||
      !TraceHost(params_, v[kDst], &f.dst_host, &reason)) {
    return Error(line, reason);
  }
  if (f.src_host == f.dst_host) {
    return Error(line, "source and destination are both host " + std::to_string(f.src_host) +
                           ": a message crosses the fabric");
  }
  if (!TraceMessageBytes(params_, v[kBytes], &reason)) return Error(line, reason);
  f.size_bytes = v[kBytes];
  fe::Time start, delay;
  if (!ParseTime(Field(fields, kStartNs), "start_ns", &start, &reason) ||
      !ParseTime(Field(fields, kDelayNs), "delay_ns", &delay, &reason)) {
    return Error(line, reason);
  }
  f.start = params_.start + start;
  std::vector<uint64_t> after;
  if (const std::string* a = Field(fields, kAfter)) {
    for (const std::string_view token : Tokens(*a)) {
      const std::optional<uint64_t> id = ParseWhole(token);
      if (!id) {
        return Error(line,
                     "after must list ids separated by spaces, got '" + std::string(token) + "'");
      }
      after.push_back(*id);
    }
  }
  Job job = params_.job;
  if (const std::string* j = Field(fields, kJob)) {
    if (j->empty()) return Error(line, "job is empty: every row names its job");
    // The name reaches summary.json and jobs.csv, which hold UTF-8 only.
    if (const size_t bad = FirstNonUtf8(*j); bad != std::string::npos) {
      return Error(line, "job is not UTF-8 text (byte " + std::to_string(bad + 1) +
                             " of the name): summary.json and jobs.csv hold UTF-8 only");
    }
    job.name = *j;
    const std::string& d = *Field(fields, kDscp);
    const std::optional<uint64_t> dscp = ParseWhole(d);
    if (!dscp || *dscp > kMaxDscp) return Error(line, "dscp must be 0 to 63, got '" + d + "'");
    job.dscp = static_cast<uint8_t>(*dscp);
  }
  const auto [it, fresh] = job_index_.emplace(job.name, static_cast<uint32_t>(w_.jobs.size()));
  if (fresh) {
    w_.jobs.push_back(job);
    job_line_.push_back(line);
  } else if (w_.jobs[it->second].dscp != job.dscp) {
    return Error(line, "job '" + job.name + "' has dscp " +
                           std::to_string(w_.jobs[it->second].dscp) + " on line " +
                           std::to_string(job_line_[it->second]) + " and " +
                           std::to_string(job.dscp) + " here: a job's messages share its dscp");
  }
  w_.Add(f, {}, delay, it->second);
  line_of_.push_back(line);
  after_ids_.push_back(std::move(after));
  return Status::Ok();
}

StatusOr<Workload> NativeReader::Read(std::string_view text) {
  TraceLines lines(text);
  std::string_view line;
  std::vector<std::string> fields;
  std::string reason;
  bool header = false;
  while (lines.Next(&line)) {
    if (IsBlank(line) || line[0] == '#') continue;
    if (!SplitCsv(line, &fields, &reason)) return Error(lines.number(), reason);
    Status s = header ? Row(lines.number(), fields) : HeaderRow(lines.number(), fields);
    if (!s.ok()) return s;
    header = true;
  }
  if (!header)
    return Error(1, "empty: the first line is the header " + std::string(kNativeTraceHeader));
  // Dependencies name rows by id, earlier or later: resolved now that every row is known.
  Workload out;
  out.jobs = w_.jobs.empty() ? std::vector<Job>{params_.job} : std::move(w_.jobs);
  out.flows.reserve(w_.size());
  std::vector<uint32_t> deps;
  for (uint32_t i = 0; i < w_.size(); ++i) {
    deps.clear();
    for (const uint64_t id : after_ids_[i]) {
      const auto it = index_of_id_.find(id);
      if (it == index_of_id_.end()) {
        return Error(line_of_[i], "after names id " + std::to_string(id) + ", which no row has");
      }
      deps.push_back(it->second);
    }
    out.Add(w_.flows[i], deps, w_.delay[i], w_.job_of[i]);
  }
  if (Status s = CheckTraceDependencies(out, line_of_, params_); !s.ok()) return s;
  return out;
}

}  // namespace

StatusOr<Workload> ParseNativeTrace(std::string_view text, const TraceParams& params) {
  return NativeReader(params).Read(text);
}

StatusOr<std::string> NativeTraceCsv(const Workload& w) {
  std::string out(kNativeTraceHeader);
  out += '\n';
  for (uint32_t i = 0; i < w.size(); ++i) {
    const Flow& f = w.flows[i];
    const Job& job = w.jobs[w.job_of[i]];
    if (job.name.empty() || job.name.find_first_of("\r\n") != std::string::npos) {
      return Status::Error("job '" + job.name + "' of message " + std::to_string(i) +
                           ": a job's name in the native format is one line, not empty");
    }
    out += std::to_string(i) + ',' + std::to_string(f.src_host) + ',' + std::to_string(f.dst_host) +
           ',' + std::to_string(f.size_bytes) + ',' + FormatNs(f.start) + ',';
    const std::span<const uint32_t> deps = w.dependencies(i);
    for (size_t k = 0; k < deps.size(); ++k) {
      if (k > 0) out += ' ';
      out += std::to_string(deps[k]);
    }
    out += ',' + FormatNs(w.delay[i]) + ',' + std::to_string(job.dscp) + ',' + CsvField(job.name) +
           '\n';
  }
  return out;
}

}  // namespace fe
