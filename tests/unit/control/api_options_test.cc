// The API's command-line options: the listen address, the pace, and the rules between them
// (loopback unless --api-allow-remote; the other options only with --api; no --pace in serve).
#include "control/api/api_options.h"

#include <gtest/gtest.h>

#include "cli_parse.h"

namespace fe::control::api {
namespace {

TEST(ApiOptionsTest, ParsesIpv4Ipv6AndLocalhost) {
  StatusOr<ListenAddress> v4 = ParseListenAddress("127.0.0.1:9100");
  ASSERT_TRUE(v4.ok()) << v4.status().message();
  EXPECT_EQ(v4->host, "127.0.0.1");
  EXPECT_EQ(v4->port, 9100);
  StatusOr<ListenAddress> v6 = ParseListenAddress("[::1]:0");
  ASSERT_TRUE(v6.ok()) << v6.status().message();
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 0);
  StatusOr<ListenAddress> local = ParseListenAddress("localhost:65535");
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local->host, "127.0.0.1");
  EXPECT_EQ(local->port, 65535);
}

TEST(ApiOptionsTest, RefusesBadAddressesWithTheReason) {
  EXPECT_TRUE(Contains(ParseListenAddress("9100").status().message(), "HOST:PORT"));
  EXPECT_TRUE(
      Contains(ParseListenAddress("example.org:9100").status().message(), "not an IP address"));
  EXPECT_TRUE(Contains(ParseListenAddress("127.0.0.1:65536").status().message(), "0 to 65535"));
  EXPECT_TRUE(Contains(ParseListenAddress("127.0.0.1:").status().message(), "0 to 65535"));
  EXPECT_TRUE(Contains(ParseListenAddress("127.0.0.1:9x").status().message(), "0 to 65535"));
}

// From a simulated nanosecond per wall second to a billion times real time.
TEST(ApiOptionsTest, PaceIsFrom1e9thTo1e9) {
  EXPECT_EQ(ParsePace("0.001").value(), 0.001);
  EXPECT_EQ(ParsePace("1e9").value(), 1e9);
  EXPECT_EQ(ParsePace("1e-9").value(), 1e-9);
  for (const char* bad : {"0", "-1", "inf", "nan", "1e10", "", "2x", "1e-10", "1e-300"}) {
    EXPECT_FALSE(ParsePace(bad).ok()) << bad;
  }
}

TEST(ApiOptionsTest, OnlyLoopbackUnlessAllowed) {
  ApiOptions o;
  o.listen = ListenAddress{"127.0.0.1", 9100};
  EXPECT_TRUE(CheckApiOptions(o).ok());
  o.listen = ListenAddress{"::1", 9100};
  EXPECT_TRUE(CheckApiOptions(o).ok());
  o.listen = ListenAddress{"0.0.0.0", 9100};
  const Status refused = CheckApiOptions(o);
  EXPECT_FALSE(refused.ok());
  EXPECT_TRUE(Contains(refused.message(), "--api-allow-remote")) << refused.message();
  o.allow_remote = true;
  EXPECT_TRUE(CheckApiOptions(o).ok());
}

TEST(ApiOptionsTest, TheCommandLineTakesTheOptionsForRunAndServe) {
  StatusOr<CliArgs> run = ParseArgs({"run", "s.textproto", "--api", "127.0.0.1:9100", "--pace",
                                     "0.5", "--api-hold", "--api-token-file", "t"});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->api.listen->port, 9100);
  EXPECT_EQ(*run->api.pace, 0.5);
  EXPECT_TRUE(run->api.hold);
  EXPECT_EQ(run->api.token_file, "t");
  StatusOr<CliArgs> serve = ParseArgs({"serve", "s.textproto", "--api", "127.0.0.1:9100"});
  ASSERT_TRUE(serve.ok()) << serve.status().message();

  EXPECT_TRUE(Contains(
      ParseArgs({"serve", "s.textproto", "--api", "127.0.0.1:1", "--pace", "1"}).status().message(),
      "--pace is for software runs"));
  // Without --api too: not told to add --api, which would then be refused the other way.
  EXPECT_TRUE(Contains(ParseArgs({"serve", "s.textproto", "--pace", "1"}).status().message(),
                       "--pace is for software runs"));
  EXPECT_TRUE(Contains(ParseArgs({"run", "s.textproto", "--pace", "1"}).status().message(),
                       "go with --api"));
  EXPECT_TRUE(
      Contains(ParseArgs({"run", "s.textproto", "--api", "10.1.2.3:9100"}).status().message(),
               "--api-allow-remote"));
  EXPECT_TRUE(
      ParseArgs({"run", "s.textproto", "--api", "10.1.2.3:9100", "--api-allow-remote"}).ok());
}

}  // namespace
}  // namespace fe::control::api
