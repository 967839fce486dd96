#include "control/report/html/csv_reader.h"

#include <charconv>
#include <cmath>

namespace fe::control::html {

StatusOr<CsvReader> CsvReader::Open(const std::string& path) {
  CsvReader r;
  r.path_ = path;
  r.in_ = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*r.in_) return Status::Error(path + ": cannot open");
  StatusOr<bool> header = r.Next();
  if (!header.ok()) return header.status();
  if (!*header) return Status::Error(path + ":1: empty file, expected a header");
  r.header_ = std::move(r.fields_);
  return r;
}

bool CsvReader::Has(std::string_view name) const {
  for (const std::string& h : header_) {
    if (h == name) return true;
  }
  return false;
}

StatusOr<size_t> CsvReader::Column(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] == name) return i;
  }
  return Status::Error(path_ + ":1: no column '" + std::string(name) + "' in the header");
}

StatusOr<bool> CsvReader::Next() {
  std::string& line = line_buffer_;
  if (!std::getline(*in_, line)) {
    if (in_->bad())
      return Status::Error(path_ + ": read error after line " + std::to_string(line_));
    return false;
  }
  record_line_ = ++line_;
  if (Status s = Split(line); !s.ok()) return s;
  if (!header_.empty() && fields_.size() != header_.size()) {
    return Error(std::to_string(fields_.size()) + " fields, the header has " +
                 std::to_string(header_.size()));
  }
  return true;
}

Status CsvReader::Split(std::string& line) {
  // A file written on Windows ends its lines with \r\n; the \r is not part of the last field.
  const auto trim_cr = [](std::string* l) {
    if (!l->empty() && l->back() == '\r') l->pop_back();
  };
  trim_cr(&line);
  if (line.find('"') == std::string::npos) {
    // No quote: fields are what lies between commas. The common case, and the one of millions of
    // rows: the field strings are reused, not reallocated.
    size_t n = 0;
    for (size_t start = 0;; ++n) {
      const size_t comma = line.find(',', start);
      const std::string_view piece(line.data() + start,
                                   (comma == std::string::npos ? line.size() : comma) - start);
      if (n < fields_.size()) {
        fields_[n].assign(piece);
      } else {
        fields_.emplace_back(piece);
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    fields_.resize(n + 1);
    return Status::Ok();
  }
  fields_.clear();
  std::string field;
  bool quoted = false;      // inside a quoted field
  bool was_quoted = false;  // the current field was quoted (nothing may follow its closing quote)
  size_t i = 0;
  while (true) {
    if (i == line.size()) {
      if (!quoted) break;
      // A line break inside quotes belongs to the field; the record goes on on the next line.
      std::string next;
      if (!std::getline(*in_, next))
        return Error("a quoted field is not closed at the end of the file");
      ++line_;
      trim_cr(&next);
      field += '\n';
      line = std::move(next);
      i = 0;
      continue;
    }
    const char c = line[i++];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i < line.size() && line[i] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == ',') {
      fields_.push_back(std::move(field));
      field.clear();
      was_quoted = false;
    } else if (was_quoted) {
      return Error("text after the closing quote of field " + std::to_string(fields_.size() + 1));
    } else if (c == '"') {
      if (!field.empty())
        return Error("a quote inside unquoted field " + std::to_string(fields_.size() + 1));
      quoted = true;
      was_quoted = true;
    } else {
      field += c;
    }
  }
  fields_.push_back(std::move(field));
  return Status::Ok();
}

StatusOr<double> CsvReader::Number(size_t column) const {
  const std::string& f = fields_[column];
  double v = 0;
  const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (f.empty() || ec != std::errc() || end != f.data() + f.size() || !std::isfinite(v)) {
    return Error("column '" + header_[column] + "': '" + f + "' is not a number");
  }
  return v;
}

StatusOr<std::optional<double>> CsvReader::OptionalNumber(size_t column) const {
  if (fields_[column].empty()) return std::optional<double>();
  StatusOr<double> v = Number(column);
  if (!v.ok()) return v.status();
  return std::optional<double>(*v);
}

Status CsvReader::Error(std::string_view what) const {
  return Status::Error(path_ + ":" + std::to_string(record_line_) + ": " + std::string(what));
}

}  // namespace fe::control::html
