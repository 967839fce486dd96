// Every answer of the API's router, without sockets: routes, methods (405 with Allow), the token
// (401 before anything else is looked at), malformed bodies (400 with the parser's reason), a run
// too busy to answer (503), and the views it renders.
#include "control/api/api_router.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "control/api/metrics_text.h"

namespace fe::control::api {
namespace {

class FakeBackend : public ApiBackend {
 public:
  std::shared_ptr<const RunSnapshot> Snapshot(bool with_flows) override {
    asked_flows = with_flows;
    if (busy) return nullptr;
    auto s = std::make_shared<RunSnapshot>();
    s->mode = "software";
    s->flows_total = 3;
    s->has_flows = with_flows;
    for (uint32_t id = 0; id < 3; ++id) {
      FlowRow f;
      f.id = id;
      f.state = id == 0 ? FlowState::kCompleted : FlowState::kActive;
      s->flows.push_back(f);
    }
    return s;
  }
  ApiResponse Command(const std::string& body) override {
    commands.push_back(body);
    return ApiResponse{202, "application/json", "{}", {}};
  }
  ApiResponse Shutdown() override {
    ++shutdowns;
    return ApiResponse{200, "application/json", "{}", {}};
  }

  bool busy = false;
  bool asked_flows = false;
  std::vector<std::string> commands;
  int shutdowns = 0;
};

constexpr char kToken[] = "t0k3n";

ApiResponse Send(FakeBackend& b, const std::string& method, const std::string& target,
                 const std::string& body = "", const std::string& auth = "") {
  ApiRequest r;
  r.method = method;
  r.target = target;
  r.body = body;
  r.authorization = auth;
  return HandleRequest(r, kToken, b);
}

std::string Error(const ApiResponse& r) { return nlohmann::json::parse(r.body).at("error"); }

TEST(ApiRouterTest, GetEndpointsRenderTheSnapshot) {
  FakeBackend b;
  const ApiResponse status = Send(b, "GET", "/v1/status");
  EXPECT_EQ(status.status, 200);
  EXPECT_EQ(nlohmann::json::parse(status.body).at("state"), "running");
  EXPECT_FALSE(b.asked_flows);
  const ApiResponse metrics = Send(b, "GET", "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_EQ(metrics.content_type, kMetricsContentType);
  const ApiResponse active = Send(b, "GET", "/v1/flows?state=active");
  EXPECT_TRUE(b.asked_flows);
  EXPECT_EQ(nlohmann::json::parse(active.body).at("count"), 2);
  EXPECT_EQ(nlohmann::json::parse(Send(b, "GET", "/v1/flows").body).at("count"), 2);
  EXPECT_EQ(nlohmann::json::parse(Send(b, "GET", "/v1/flows?state=completed").body).at("count"), 1);
  EXPECT_EQ(nlohmann::json::parse(Send(b, "GET", "/v1/flows?state=all").body).at("count"), 3);
}

TEST(ApiRouterTest, BadQueriesAre400WithTheReason) {
  FakeBackend b;
  const ApiResponse state = Send(b, "GET", "/v1/flows?state=running");
  EXPECT_EQ(state.status, 400);
  EXPECT_NE(Error(state).find("not one of active"), std::string::npos);
  const ApiResponse key = Send(b, "GET", "/v1/flows?limit=3");
  EXPECT_EQ(key.status, 400);
  EXPECT_NE(Error(key).find("unknown query parameter 'limit'"), std::string::npos);
  EXPECT_EQ(Send(b, "GET", "/v1/status?x=1").status, 400);
  // Escaped as a client may escape it (RFC 3986, 2.1): the same query.
  EXPECT_EQ(Send(b, "GET", "/v1/flows?state=%61ll").status, 200);
  EXPECT_EQ(Send(b, "GET", "/v1/flows?%73tate=all").status, 200);
  EXPECT_EQ(Send(b, "GET", "/v1/flows?state=%6").status, 400);
  const ApiResponse twice = Send(b, "GET", "/v1/flows?state=active&state=all");
  EXPECT_EQ(twice.status, 400);
  EXPECT_NE(Error(twice).find("state is given twice"), std::string::npos) << Error(twice);
}

TEST(ApiRouterTest, UnknownPathIs404AndWrongMethodIs405WithAllow) {
  FakeBackend b;
  EXPECT_EQ(Send(b, "GET", "/v2/status").status, 404);
  const ApiResponse post_status = Send(b, "POST", "/v1/status");
  EXPECT_EQ(post_status.status, 405);
  ASSERT_EQ(post_status.headers.size(), 1u);
  EXPECT_EQ(post_status.headers[0], std::make_pair(std::string("Allow"), std::string("GET, HEAD")));
  // HEAD of a GET endpoint answers as the GET (the server leaves the body out).
  EXPECT_EQ(Send(b, "HEAD", "/v1/status").status, 200);
  EXPECT_EQ(Send(b, "HEAD", "/v1/commands").status, 405);
  const ApiResponse get_commands = Send(b, "GET", "/v1/commands");
  EXPECT_EQ(get_commands.status, 405);
  EXPECT_EQ(get_commands.headers[0].second, "POST");
}

TEST(ApiRouterTest, MutatingCallsNeedTheTokenFirst) {
  FakeBackend b;
  // Even a malformed body is not looked at without the token.
  const ApiResponse none = Send(b, "POST", "/v1/commands", "{bad");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.headers[0].first, "WWW-Authenticate");
  EXPECT_EQ(Send(b, "POST", "/v1/commands", "{}", "Bearer wrong").status, 401);
  EXPECT_EQ(Send(b, "POST", "/v1/shutdown", "", "Bearer t0k3").status, 401);
  EXPECT_TRUE(b.commands.empty());
  EXPECT_EQ(b.shutdowns, 0);
  EXPECT_EQ(Send(b, "POST", "/v1/commands", "{\"a\": 1}", "Bearer t0k3n").status, 202);
  EXPECT_EQ(b.commands.size(), 1u);
  EXPECT_EQ(Send(b, "POST", "/v1/shutdown", "", "Bearer t0k3n").status, 200);
  EXPECT_EQ(b.shutdowns, 1);
}

// JSON text is UTF-8 (RFC 8259, 8.1): a request's bytes that are not, quoted in the reason, are
// escaped, and the answer is the 4xx it would be otherwise.
TEST(ApiRouterTest, BytesThatAreNotUtf8AreEscapedInTheReason) {
  FakeBackend b;
  const ApiResponse path = Send(b, "GET", "/nope\xff");
  EXPECT_EQ(path.status, 404);
  EXPECT_NE(Error(path).find("/nope\\xff"), std::string::npos) << Error(path);
  const ApiResponse query = Send(b, "GET", "/v1/flows?state=\xff");
  EXPECT_EQ(query.status, 400);
  EXPECT_NE(Error(query).find("\\xff"), std::string::npos) << Error(query);
  const ApiResponse body = Send(b, "POST", "/v1/commands", "{\"a\": \"\xff\"}", "Bearer t0k3n");
  EXPECT_EQ(body.status, 400);
  EXPECT_TRUE(b.commands.empty());
}

TEST(ApiRouterTest, TheSchemeNameIsCaseInsensitive) {
  FakeBackend b;
  EXPECT_EQ(Send(b, "POST", "/v1/shutdown", "", "bearer t0k3n").status, 200);
  EXPECT_EQ(Send(b, "POST", "/v1/shutdown", "", "BEARER t0k3n").status, 200);
  EXPECT_EQ(Send(b, "POST", "/v1/shutdown", "", "Bearer T0K3N").status, 401);  // the token is not
}

TEST(ApiRouterTest, MalformedJsonIs400WithWhereItBroke) {
  FakeBackend b;
  const ApiResponse bad = Send(b, "POST", "/v1/commands", "{\"a\": }", "Bearer t0k3n");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(Error(bad).find("malformed JSON"), std::string::npos);
  EXPECT_NE(Error(bad).find("column 7"), std::string::npos) << Error(bad);
  EXPECT_EQ(Send(b, "POST", "/v1/commands", "", "Bearer t0k3n").status, 400);
  EXPECT_TRUE(b.commands.empty());
}

TEST(ApiRouterTest, DeeplyNestedJsonIs400BeforeAnyParserSeesIt) {
  FakeBackend b;
  // The body limit (64 KiB) lets through 65,536 '[': deep enough to overflow a recursive parse.
  const ApiResponse deep = Send(b, "POST", "/v1/commands", std::string(65536, '['), "Bearer t0k3n");
  EXPECT_EQ(deep.status, 400);
  EXPECT_EQ(Error(deep), "malformed JSON: nested deeper than 64 levels at byte 65");
  EXPECT_TRUE(b.commands.empty());
}

TEST(ApiRouterTest, ARunThatDoesNotAnswerIs503WithRetryAfter) {
  FakeBackend b;
  b.busy = true;
  const ApiResponse r = Send(b, "GET", "/v1/status");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.headers[0].first, "Retry-After");
}

}  // namespace
}  // namespace fe::control::api
