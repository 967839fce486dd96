// Checks that every builder makes alike: role names, counts, ports per switch.
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"

namespace fe::topo {

// A switch role names switches <role><index>, so it must not end in a digit, and it must not be
// taken by hosts ("host", "h") or scale-up switches ("su").
Status CheckRole(const std::string& role, const std::string& path);

// A count of things (switches, links) in [lo, hi].
Status CheckCount(const std::string& path, int64_t v, int64_t lo, int64_t hi,
                  const std::string& why = "");

// A switch with `ports` ports: within its radix (0: none given; its field at radix_path) and
// within kMaxPortsPerSwitch (blamed on `path`).
Status CheckSwitchPorts(const std::string& path, int64_t ports, int32_t radix,
                        const std::string& radix_path);

// A fabric of `links` links in all, at most kMaxLinks; checked before anything is built.
Status CheckLinkTotal(const std::string& path, int64_t links);

}  // namespace fe::topo
