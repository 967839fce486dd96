// The API's HTTP/1.1 server on Boost.Beast: one thread runs the sockets (asynchronous reads and
// writes, each with a deadline), a small pool runs the handler, so a client that connects and
// sends nothing, or reads its answer slowly, holds only its own connection: never the other
// clients, never the run. Connections are capped, in all and per client address; when a cap is
// reached, a new connection takes the place of the one that has waited longest for its request's
// headers, so stalled clients can never lock out a new one.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

#include "control/api/api_options.h"
#include "control/api/api_router.h"
#include "core/status.h"

namespace fe::control::api {

struct HttpServerParams {
  ListenAddress address;
  // A request's headers must arrive within this from the connection's start (or the previous
  // answer, on a kept-alive connection); then the connection closes.
  std::chrono::milliseconds header_timeout{std::chrono::seconds(10)};
  // Its body, and the answer's being taken, within this each.
  std::chrono::milliseconds io_timeout{std::chrono::seconds(30)};
  size_t body_limit_bytes = 64 * 1024;     // larger bodies get 413
  size_t header_limit_bytes = 8 * 1024;    // larger headers get 431
  size_t max_connections = 64;             // in all
  size_t max_connections_per_client = 16;  // from one address
};

class HttpServer {
 public:
  using Handler = std::function<ApiResponse(const ApiRequest&)>;

  // Binds and listens, then serves from its own threads until destroyed. The handler runs on the
  // server's pool, never on the socket thread.
  static StatusOr<std::unique_ptr<HttpServer>> Start(const HttpServerParams& params,
                                                     Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The port it listens on (the one the system chose when asked for port 0).
  uint16_t port() const;

 private:
  struct Impl;
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fe::control::api
