#include "control/api/http_server.h"

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <list>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace fe::control::api {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// Handlers wait for the run's answer (a snapshot) for up to a few seconds: two threads keep one
// slow answer from holding up the rest.
constexpr size_t kHandlerThreads = 2;

class Connection;

struct Shared {
  HttpServerParams params;
  HttpServer::Handler handler;
  asio::thread_pool pool{kHandlerThreads};
  // Every open connection, for the caps; under mu (a connection may end on a handler's thread).
  std::mutex mu;
  std::list<Connection*> open;
  // Answers handed to the socket thread and not yet written (or failed): the server waits for
  // them as it stops, so that the answer to POST /v1/shutdown reaches its client.
  std::atomic<size_t> unwritten{0};

  Shared(HttpServerParams p, HttpServer::Handler h) : params(std::move(p)), handler(std::move(h)) {}
};

using SteadyClock = std::chrono::steady_clock;

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket, asio::ip::address client, Shared* shared)
      : stream_(std::move(socket)), client_(std::move(client)), shared_(shared) {
    std::lock_guard lock(shared_->mu);
    shared_->open.push_back(this);
    self_in_open_ = std::prev(shared_->open.end());
  }
  ~Connection() {
    std::lock_guard lock(shared_->mu);
    shared_->open.erase(self_in_open_);
  }

  void Read() {
    parser_.emplace();
    parser_->body_limit(shared_->params.body_limit_bytes);
    parser_->header_limit(static_cast<uint32_t>(shared_->params.header_limit_bytes));
    MarkWaiting(true);
    stream_.expires_after(shared_->params.header_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Connection::OnHeader, shared_from_this()));
  }

  // Under shared_->mu.
  const asio::ip::address& client() const { return client_; }
  // When it started waiting for a request's headers; nullopt while it reads a body or answers.
  std::optional<SteadyClock::time_point> waiting_since() const { return waiting_since_; }

  // On the socket thread: closes a connection that waits for headers, to make room for a new one.
  // Its read then ends with operation_aborted, on this thread, after the caller has returned.
  void Evict() {
    {
      std::lock_guard lock(shared_->mu);
      waiting_since_.reset();  // no longer a candidate for the next eviction
      evicted_ = true;         // nor counted against the caps while its read winds up
    }
    Close();
  }
  bool evicted() const { return evicted_; }

 private:
  void MarkWaiting(bool waiting) {
    std::lock_guard lock(shared_->mu);
    waiting_since_ = waiting ? std::optional(SteadyClock::now()) : std::nullopt;
  }

  void OnHeader(beast::error_code ec, size_t /*bytes*/) {
    MarkWaiting(false);
    if (ec || parser_->is_done()) {
      OnRead(ec, 0);
      return;
    }
    stream_.expires_after(shared_->params.io_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Connection::OnRead, shared_from_this()));
  }

  void OnRead(beast::error_code ec, size_t /*bytes*/) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == asio::error::connection_reset) {
      Close();
      return;
    }
    if (ec == http::error::body_limit) {
      Answer(ErrorResponse(413, "the body is over the limit of " +
                                    std::to_string(shared_->params.body_limit_bytes) + " bytes"),
             false);
      return;
    }
    if (ec == http::error::header_limit) {
      Answer(ErrorResponse(431, "the request's headers are over " +
                                    std::to_string(shared_->params.header_limit_bytes) + " bytes"),
             false);
      return;
    }
    if (ec) {
      Answer(ErrorResponse(400, "not an HTTP/1.1 request: " + ec.message()), false);
      return;
    }
    http::request<http::string_body> req = parser_->release();
    ApiRequest request;
    request.method = std::string(req.method_string());
    request.target = std::string(req.target());
    request.authorization = std::string(req[http::field::authorization]);
    request.body = std::move(req.body());
    const bool keep_alive = req.keep_alive();
    version_ = req.version();
    head_ = req.method() == http::verb::head;
    // The handler may wait for the run: off the socket thread, which goes on serving the others.
    asio::post(shared_->pool,
               [self = shared_from_this(), request = std::move(request), keep_alive]() mutable {
                 ApiResponse response;
                 try {
                   response = self->shared_->handler(request);
                 } catch (const std::exception& e) {
                   // One request must never end the run it watches.
                   response = ErrorResponse(500, std::string("internal error: ") + e.what());
                 }
                 ++self->shared_->unwritten;
                 asio::post(self->stream_.get_executor(),
                            [self, response = std::move(response), keep_alive]() mutable {
                              self->Answer(std::move(response), keep_alive, true);
                            });
               });
  }

  // Takes one of shared_->unwritten when `counted` (an answer from the handler pool).
  void Answer(ApiResponse response, bool keep_alive, bool counted = false) {
    counted_ = counted;
    response_ = {};
    response_.version(version_);
    response_.result(static_cast<unsigned>(response.status));
    response_.set(http::field::server, "fabric-emu");
    response_.set(http::field::content_type, response.content_type);
    response_.set(http::field::cache_control, "no-store");
    for (const auto& [name, value] : response.headers) response_.set(name, value);
    response_.body() = std::move(response.body);
    response_.keep_alive(keep_alive);
    response_.prepare_payload();
    // Content-Length stays the GET's, as RFC 9110 (9.3.2) has it; the body is not sent.
    if (head_) response_.body().clear();
    stream_.expires_after(shared_->params.io_timeout);
    http::async_write(stream_, response_,
                      beast::bind_front_handler(&Connection::OnWrite, shared_from_this()));
  }

  void OnWrite(beast::error_code ec, size_t /*bytes*/) {
    if (counted_) --shared_->unwritten;
    counted_ = false;
    if (ec || !response_.keep_alive()) {
      Close();
      return;
    }
    Read();
  }

  void Close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  beast::tcp_stream stream_;
  const asio::ip::address client_;
  Shared* shared_;
  std::list<Connection*>::iterator self_in_open_;         // under shared_->mu
  std::optional<SteadyClock::time_point> waiting_since_;  // under shared_->mu
  bool evicted_ = false;                                  // under shared_->mu
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  unsigned version_ = 11;
  bool head_ = false;  // the request being answered is a HEAD: headers only
  bool counted_ = false;
};

}  // namespace

struct HttpServer::Impl {
  // Before io: the connections that io's handlers still hold count themselves out of it when io
  // goes.
  Shared shared;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  std::thread thread;

  Impl(HttpServerParams params, Handler handler) : shared(std::move(params), std::move(handler)) {}

  void Accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) {
        beast::error_code no_peer;
        const asio::ip::address client = socket.remote_endpoint(no_peer).address();
        if (!no_peer && MakeRoom(client)) {
          std::make_shared<Connection>(std::move(socket), client, &shared)->Read();
        } else {
          beast::error_code ignored;
          socket.close(ignored);
        }
      }
      Accept();
    });
  }

  // Whether a new connection from `client` may open: under both caps, or once the connection
  // that has waited longest for its headers (the client's own when its cap is the one reached)
  // is closed for it. A connection busy with a request is never closed so.
  bool MakeRoom(const asio::ip::address& client) {
    Connection* oldest = nullptr;
    {
      std::lock_guard lock(shared.mu);
      size_t total = 0;
      size_t from_client = 0;
      for (const Connection* c : shared.open) {
        if (c->evicted()) continue;
        ++total;
        from_client += c->client() == client ? 1 : 0;
      }
      const bool client_full = from_client >= shared.params.max_connections_per_client;
      if (!client_full && total < shared.params.max_connections) return true;
      for (Connection* c : shared.open) {
        if (client_full && c->client() != client) continue;
        if (c->waiting_since() &&
            (oldest == nullptr || *c->waiting_since() < *oldest->waiting_since())) {
          oldest = c;
        }
      }
      if (oldest == nullptr) return false;
    }
    // On this, the socket thread, as every socket operation: the connection stays alive until
    // its cancelled read completes here, after this returns.
    oldest->Evict();
    return true;
  }
};

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(const HttpServerParams& params,
                                                        Handler handler) {
  auto impl = std::make_unique<Impl>(params, std::move(handler));
  beast::error_code ec;
  const tcp::endpoint endpoint(asio::ip::make_address(params.address.host, ec),
                               params.address.port);
  const std::string where = params.address.host + ":" + std::to_string(params.address.port);
  if (ec) return Status::Error("--api " + where + ": " + ec.message());
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Status::Error("--api " + where + ": cannot listen: " + ec.message());
  impl->Accept();
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->io.run(); });
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::~HttpServer() {
  // The pool first: a handler still waiting for the run gets its answer (the run has finished)
  // and posts its write. No new connection comes; the answers already made are written (each
  // write has its deadline, so this ends), then the socket thread stops.
  impl_->shared.pool.join();
  asio::post(impl_->io, [impl = impl_.get()] {
    beast::error_code ignored;
    impl->acceptor.close(ignored);
  });
  const auto deadline = std::chrono::steady_clock::now() + impl_->shared.params.io_timeout;
  while (impl_->shared.unwritten.load() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  impl_->io.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

uint16_t HttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }

}  // namespace fe::control::api
