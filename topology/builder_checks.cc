#include "topology/builder_checks.h"

#include "topology/field_error.h"
#include "topology/limits.h"

namespace fe::topo {

Status CheckRole(const std::string& role, const std::string& path) {
  if (role.empty()) return FieldError(path, "must not be empty");
  for (char c : role) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return FieldError(path, Quoted(role) + ": only letters, digits, '_' and '-'");
  }
  if (role.back() >= '0' && role.back() <= '9') {
    return FieldError(path, Quoted(role) + " ends in a digit: switch names are role + index");
  }
  if (role == "host" || role == "h" || role == "su") {
    return FieldError(path, Quoted(role) + " is reserved for hosts and scale-up switches");
  }
  return Status::Ok();
}

Status CheckCount(const std::string& path, int64_t v, int64_t lo, int64_t hi,
                  const std::string& why) {
  return CheckRange(path, static_cast<double>(v), static_cast<double>(lo), static_cast<double>(hi),
                    why);
}

Status CheckSwitchPorts(const std::string& path, int64_t ports, int32_t radix,
                        const std::string& radix_path) {
  if (radix > 0 && ports > radix) {
    return FieldError(radix_path, "a switch needs " + std::to_string(ports) +
                                      " ports, more than its radix " + std::to_string(radix));
  }
  if (ports > kMaxPortsPerSwitch) {
    return FieldError(path, "a switch would need " + std::to_string(ports) + " ports, more than " +
                                std::to_string(kMaxPortsPerSwitch) +
                                " (the largest ASICs have 512)");
  }
  return Status::Ok();
}

Status CheckLinkTotal(const std::string& path, int64_t links) {
  if (links <= kMaxLinks) return Status::Ok();
  return FieldError(path, "the fabric would have " + std::to_string(links) + " links, more than " +
                              std::to_string(kMaxLinks) + " (~50 bytes each in the graph alone)");
}

}  // namespace fe::topo
