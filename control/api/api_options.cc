#include "control/api/api_options.h"

#include <boost/asio/ip/address.hpp>
#include <charconv>
#include <cmath>

namespace fe::control::api {

namespace {

constexpr double kMaxPace = 1e9;
constexpr double kMinPace = 1e-9;

}  // namespace

StatusOr<ListenAddress> ParseListenAddress(std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    return Status::Error("--api takes HOST:PORT (e.g. 127.0.0.1:9100), got " + quoted);
  }
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host == "localhost") host = "127.0.0.1";
  boost::system::error_code ec;
  boost::asio::ip::make_address(std::string(host), ec);
  if (host.empty() || ec) {
    return Status::Error("--api: '" + std::string(host) +
                         "' is not an IP address (IPv6 goes in brackets: [::1]:9100)");
  }
  unsigned port = 0;
  const auto [end, perr] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || perr != std::errc() || end != port_text.data() + port_text.size() ||
      port > 65535) {
    return Status::Error("--api: the port must be a whole number from 0 to 65535, got '" +
                         std::string(port_text) + "'");
  }
  return ListenAddress{std::string(host), static_cast<uint16_t>(port)};
}

StatusOr<double> ParsePace(std::string_view text) {
  double pace = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pace);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(pace) || pace < kMinPace || pace > kMaxPace) {
    return Status::Error(
        "--pace takes a number of times real time from 1e-9 (a simulated nanosecond per wall "
        "second) to 1e9 (0.001: a simulated microsecond per wall millisecond), got '" +
        std::string(text) + "'");
  }
  return pace;
}

Status CheckApiOptions(const ApiOptions& options) {
  if (!options.listen) {
    if (!options.token_file.empty() || options.allow_remote || options.hold || options.pace) {
      return Status::Error(
          "--api-token-file, --api-allow-remote, --api-hold and --pace go with --api");
    }
    return Status::Ok();
  }
  const boost::asio::ip::address address = boost::asio::ip::make_address(options.listen->host);
  if (!address.is_loopback() && !options.allow_remote) {
    return Status::Error("--api " + options.listen->host +
                         " is not a loopback address: anyone who can reach it could read the "
                         "fabric's state; add --api-allow-remote to listen there anyway");
  }
  return Status::Ok();
}

}  // namespace fe::control::api
