// Text in a CSV field (RFC 4180): as it is, or quoted when it holds a comma, a quote or a line
// break, so that a name a user chose (a job's) cannot shift the columns after it.
#pragma once

#include <string>
#include <string_view>

namespace fe {

std::string CsvField(std::string_view text);

}  // namespace fe
