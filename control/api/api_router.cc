#include "control/api/api_router.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "control/api/api_token.h"
#include "control/api/metrics_text.h"
#include "control/api/status_json.h"
#include "core/json_nesting.h"
#include "core/printable.h"

namespace fe::control::api {

namespace {

struct Route {
  std::string_view path;
  std::string_view method;
};

constexpr Route kRoutes[] = {
    {"/v1/status", "GET"},    {"/metrics", "GET"},      {"/v1/flows", "GET"},
    {"/v1/commands", "POST"}, {"/v1/shutdown", "POST"},
};

ApiResponse Busy() {
  ApiResponse r = ErrorResponse(
      503, "the run did not answer in time (a long slice, or it is writing its outputs); retry");
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

// A query component with its %XX escapes and '+' decoded (the form encoding a client may use,
// RFC 3986 2.1); nothing for a '%' without two hexadecimal digits after it.
std::optional<std::string> PercentDecoded(std::string_view s) {
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] != '%') {
      out += s[i];
    } else if (i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

// /v1/flows' one parameter, state, from a query string "state=all"; other keys, a key given
// twice and a malformed escape are refused.
StatusOr<std::string> FlowsQuery(std::string_view query) {
  std::optional<std::string> state;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    const std::optional<std::string> key = PercentDecoded(pair.substr(0, eq));
    const std::optional<std::string> value =
        PercentDecoded(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
    if (!key || !value) {
      return Status::Error("'" + std::string(pair) + "' has a '%' not followed by two hex digits");
    }
    if (*key != "state") {
      return Status::Error("unknown query parameter '" + *key +
                           "'; /v1/flows takes state=active|completed|pending|given_up|all");
    }
    if (state) return Status::Error("state is given twice; give it once");
    state = *value;
  }
  return state.value_or("");
}

ApiResponse Get(std::string_view path, std::string_view query, ApiBackend& backend) {
  if (path == "/v1/flows") {
    StatusOr<std::string> state = FlowsQuery(query);
    if (!state.ok()) return ErrorResponse(400, state.status().message());
    const std::optional<FlowFilter> filter = ParseFlowFilter(*state);
    if (!filter) {
      return ErrorResponse(
          400, "state='" + *state + "' is not one of active, completed, pending, given_up, all");
    }
    std::shared_ptr<const RunSnapshot> s = backend.Snapshot(true);
    if (s == nullptr) return Busy();
    return ApiResponse{200, "application/json", FlowsJson(*s, *filter), {}};
  }
  if (!query.empty()) {
    return ErrorResponse(400, std::string(path) + " takes no query parameters");
  }
  std::shared_ptr<const RunSnapshot> s = backend.Snapshot(false);
  if (s == nullptr) return Busy();
  if (path == "/metrics") return ApiResponse{200, kMetricsContentType, MetricsText(*s), {}};
  return ApiResponse{200, "application/json", StatusJson(*s), {}};
}

}  // namespace

ApiResponse ErrorResponse(int status, const std::string& reason) {
  // The reason may quote the request (a path, a query, a body's parse error): JSON text is
  // UTF-8, and a byte that is not would make the dump throw.
  return ApiResponse{
      status, "application/json", nlohmann::json{{"error", Printable(reason)}}.dump() + "\n", {}};
}

ApiResponse HandleRequest(const ApiRequest& request, const std::string& token,
                          ApiBackend& backend) {
  const std::string_view target = request.target;
  const size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query =
      question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  const Route* route = nullptr;
  for (const Route& r : kRoutes) {
    if (r.path == path) route = &r;
  }
  if (route == nullptr) {
    return ErrorResponse(404, "no endpoint " + std::string(path) +
                                  "; endpoints: GET /v1/status, GET /metrics, GET /v1/flows, "
                                  "POST /v1/commands, POST /v1/shutdown");
  }
  // HEAD is GET without the body (RFC 9110, 9.3.2): the server leaves the body out.
  const bool head_of_get = request.method == "HEAD" && route->method == "GET";
  if (request.method != route->method && !head_of_get) {
    const std::string allow = route->method == "GET" ? "GET, HEAD" : std::string(route->method);
    ApiResponse r = ErrorResponse(405, std::string(path) + " takes " + allow + " only");
    r.headers.emplace_back("Allow", allow);
    return r;
  }
  if (route->method == "GET") return Get(path, query, backend);

  // Mutating calls: the token before anything else, so an unauthorised client learns nothing.
  if (!BearerMatches(request.authorization, token)) {
    ApiResponse r = ErrorResponse(
        401, request.authorization.empty()
                 ? "this call needs the header 'Authorization: Bearer TOKEN' (the token the run "
                   "printed at start, also in its api-token file)"
                 : "wrong bearer token");
    r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"fabric-emu\"");
    return r;
  }
  if (!query.empty()) return ErrorResponse(400, std::string(path) + " takes no query parameters");
  if (path == "/v1/shutdown") return backend.Shutdown();
  // Whatever its Content-Type says (curl -d sends form-urlencoded), the body must be JSON.
  if (Status deep = CheckJsonNesting(request.body); !deep.ok()) {
    return ErrorResponse(400, "malformed JSON: " + deep.message());
  }
  try {
    const nlohmann::json parsed = nlohmann::json::parse(request.body);
  } catch (const nlohmann::json::parse_error& e) {
    return ErrorResponse(400, std::string("malformed JSON: ") + e.what());
  }
  return backend.Command(request.body);
}

}  // namespace fe::control::api
