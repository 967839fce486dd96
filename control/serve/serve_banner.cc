#include "control/serve/serve_banner.h"

#include <algorithm>
#include <cstdio>

#include "dataplane/addressing.h"
#include "dataplane/packet.h"
#include "topology/path.h"

namespace fe::control {

namespace {

Time OneWay(const topo::Graph& graph, const topo::RouteTable& routes, uint32_t src, uint32_t dst,
            uint32_t frame_bytes) {
  const std::vector<topo::LinkId> path = topo::PathLinks(graph, routes, src, dst);
  Time t = Time::Zero();
  for (const topo::LinkId l : path) {
    const topo::Link& link = graph.link(l);
    t += link.delay + link.rate.SerializationTime(dp::WireBytesOfFrame(frame_bytes));
  }
  return t;
}

std::string Ipv4(uint32_t ip) {
  char s[16];
  std::snprintf(s, sizeof(s), "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff,
                ip & 0xff);
  return s;
}

std::string Gbps(Rate r) {
  char s[32];
  std::snprintf(s, sizeof(s), "%g Gb/s", r.gbps());
  return s;
}

std::string Us(Time t) {
  char s[32];
  std::snprintf(s, sizeof(s), "%.3f us", static_cast<double>(t.ps()) * 1e-6);
  return s;
}

}  // namespace

Time MinRoundTrip(const topo::Graph& graph, const topo::RouteTable& routes, uint32_t a, uint32_t b,
                  uint32_t frame_bytes) {
  if (topo::PathLinks(graph, routes, a, b).empty() || topo::PathLinks(graph, routes, b, a).empty())
    return Time::Zero();
  return OneWay(graph, routes, a, b, frame_bytes) + OneWay(graph, routes, b, a, frame_bytes);
}

std::string ServeBanner(const std::string& scenario_name, const topo::Graph& graph,
                        const topo::RouteTable& routes, std::span<const RealHostPlace> real_hosts) {
  std::string s = "serve: fabric " + scenario_name + ": " + std::to_string(graph.num_hosts()) +
                  " hosts, " + std::to_string(graph.num_switches()) + " switches, " +
                  std::to_string(graph.links().size()) + " links";
  if (!graph.links().empty()) {
    const auto [slow, fast] = std::minmax_element(
        graph.links().begin(), graph.links().end(),
        [](const topo::Link& x, const topo::Link& y) { return x.rate < y.rate; });
    const auto [near, far] = std::minmax_element(
        graph.links().begin(), graph.links().end(),
        [](const topo::Link& x, const topo::Link& y) { return x.delay < y.delay; });
    s += ", " + (slow->rate == fast->rate ? Gbps(slow->rate)
                                          : Gbps(slow->rate) + " to " + Gbps(fast->rate));
    s += ", " +
         (near->delay == far->delay ? Us(near->delay) : Us(near->delay) + " to " + Us(far->delay));
    s += " a link";
  }
  s += "\n";
  for (const RealHostPlace& r : real_hosts) {
    const topo::Node& host = graph.node(graph.hosts()[r.host]);
    const topo::PortRef up = graph.Peer({graph.hosts()[r.host], 0});
    s += "serve: real host " + std::to_string(r.host) + " (" + Ipv4(dp::HostIp(r.host)) + ", " +
         host.name + ", below " + graph.node(up.node).name + " port " + std::to_string(up.port) +
         ") on " + r.device_args + "\n";
  }
  for (size_t i = 0; i < real_hosts.size(); ++i) {
    for (size_t j = i + 1; j < real_hosts.size(); ++j) {
      const uint32_t a = real_hosts[i].host;
      const uint32_t b = real_hosts[j].host;
      const Time rtt = MinRoundTrip(graph, routes, a, b, kPingFrameBytes);
      s += "serve: least ping RTT host " + std::to_string(a) + " <-> host " + std::to_string(b) +
           ": " + (rtt == Time::Zero() ? std::string("no path") : Us(rtt)) + " (" +
           std::to_string(topo::PathLinks(graph, routes, a, b).size() +
                          topo::PathLinks(graph, routes, b, a).size()) +
           " links, propagation and serialisation of a 98-byte echo frame, idle fabric)\n";
    }
  }
  return s;
}

}  // namespace fe::control
