// The API's endpoints as a pure function from a request to a response: routing, methods, the
// bearer token, query and body checks. No sockets here (control/api/http_server.h carries the
// bytes), so every answer can be tested directly.
//   GET  /v1/status            the run: mode, state, simulated time, progress, counters (JSON)
//   GET  /metrics              Prometheus text format 0.0.4
//   GET  /v1/flows?state=S     flows by state: active (default), completed, pending, given_up, all
//   POST /v1/commands          a command for the fabric (bearer token)
//   POST /v1/shutdown          stop the run at its next slice, or end --api-hold (bearer token)
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "control/api/snapshot.h"

namespace fe::control::api {

struct ApiRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query, as sent
  std::string authorization;
  std::string body;
};

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type
};

// A JSON error body: {"error": reason}.
ApiResponse ErrorResponse(int status, const std::string& reason);

// What the endpoints need from the run; the API thread calls it.
class ApiBackend {
 public:
  virtual ~ApiBackend() = default;
  // A snapshot taken after the call, or null when the run did not answer in time.
  virtual std::shared_ptr<const RunSnapshot> Snapshot(bool with_flows) = 0;
  // POST /v1/commands with a valid token and a body that is JSON.
  virtual ApiResponse Command(const std::string& body) = 0;
  // POST /v1/shutdown with a valid token.
  virtual ApiResponse Shutdown() = 0;
};

// Answers one request. `token`: the bearer token mutating calls must carry.
ApiResponse HandleRequest(const ApiRequest& request, const std::string& token, ApiBackend& backend);

}  // namespace fe::control::api
