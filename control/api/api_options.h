// What the command line asks of the HTTP API (--api, --api-token-file, --api-allow-remote,
// --api-hold, --pace) and the checks each value gets as it is parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace fe::control::api {

struct ListenAddress {
  std::string host;  // an IP address, without brackets
  uint16_t port = 0;
};

struct ApiOptions {
  std::optional<ListenAddress> listen;  // --api HOST:PORT; none: no API
  bool allow_remote = false;            // --api-allow-remote: a non-loopback address is allowed
  std::string token_file;               // --api-token-file; empty: a fresh random token
  bool hold = false;                    // --api-hold: keep answering after the run ends
  std::optional<double> pace;           // --pace X: at most X times real time (software mode)
};

// "127.0.0.1:9100", "[::1]:9100" or "localhost:9100" (taken as 127.0.0.1). Port 0 asks the
// system for a free port, which the API prints once it listens.
StatusOr<ListenAddress> ParseListenAddress(std::string_view text);
// A number of times real time, > 0 and at most 1e9.
StatusOr<double> ParsePace(std::string_view text);
// The options taken together: the other options need --api; an address that is not loopback
// needs --api-allow-remote.
Status CheckApiOptions(const ApiOptions& options);

}  // namespace fe::control::api
