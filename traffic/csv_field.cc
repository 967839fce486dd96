#include "traffic/csv_field.h"

namespace fe {

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';  // a quote inside is doubled
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

}  // namespace fe
