// Reads the run's CSV outputs back for the report, strictly: RFC 4180 fields (quoted ones may
// hold commas, quotes and line breaks), every record as many fields as the header, numbers that
// parse whole. Any other input is an error naming the file and the line the record starts on
// ("out/queues.csv:17: 3 fields, the header has 5"), never a guess. Records stream one at a
// time, so a queues.csv of millions of rows costs one row of memory.
#pragma once

#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace fe::control::html {

class CsvReader {
 public:
  // Opens `path` and reads its header.
  static StatusOr<CsvReader> Open(const std::string& path);

  // The index of the column named `name`; an error naming the file if the header lacks it.
  StatusOr<size_t> Column(std::string_view name) const;
  // Whether the header has the column.
  bool Has(std::string_view name) const;

  // Reads the next record: true if there is one, false at the end of the file.
  StatusOr<bool> Next();

  const std::string& Text(size_t column) const { return fields_[column]; }
  // The field as a finite number; an error naming file, line and column otherwise.
  StatusOr<double> Number(size_t column) const;
  // An empty field is nullopt (a flow the run did not complete has no finish).
  StatusOr<std::optional<double>> OptionalNumber(size_t column) const;

  // "path:line: what", for the record just read.
  Status Error(std::string_view what) const;
  const std::string& path() const { return path_; }

 private:
  // Splits one record starting with `line`, reading further lines while a quote is open.
  Status Split(std::string& line);

  std::string path_;
  std::unique_ptr<std::ifstream> in_;
  std::vector<std::string> header_;
  std::vector<std::string> fields_;
  std::string line_buffer_;  // the line being split, kept to reuse its allocation
  size_t line_ = 0;          // the last physical line read
  size_t record_line_ = 0;   // where the current record starts
};

}  // namespace fe::control::html
