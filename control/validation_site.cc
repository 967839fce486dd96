#include "control/validation_site.h"

namespace fe::control {

std::string Quoted(const std::string& s) {
  constexpr size_t kShownBytes = 64;
  if (s.size() <= kShownBytes) return "\"" + s + "\"";
  return "\"" + s.substr(0, kShownBytes) + "\"... (" + std::to_string(s.size()) + " bytes)";
}

}  // namespace fe::control
