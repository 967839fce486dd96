#include "control/run/stall_report.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "control/report/ideal_fct.h"
#include "control/scenario/admission_check.h"
#include "dataplane/drop_reason.h"
#include "dataplane/roce_headers.h"
#include "topology/path.h"

namespace fe::control {
namespace {

// Enough to see the pattern; a fabric-wide fault would otherwise list every flow.
constexpr size_t kFlowsNamed = 3;

// The hop of a flow's path that dropped most frames, and why.
struct WorstHop {
  uint64_t packets = 0;
  dp::DropReason reason = dp::DropReason::kCount;
  topo::PortRef at;
  int switch_index = -1;  // -1: a host's port
  uint8_t queue = 0;
};

void Consider(WorstHop& worst, uint64_t packets, dp::DropReason reason, topo::PortRef at,
              int switch_index, uint8_t queue) {
  if (packets <= worst.packets) return;
  worst = WorstHop{packets, reason, at, switch_index, queue};
}

WorstHop WorstHopOf(const Emulation& e, const std::vector<int>& switch_of, uint32_t id) {
  const dp::MessageSpec& spec = e.fabric->messages().spec(id);
  WorstHop worst;
  topo::NodeId at = e.graph.hosts()[spec.src_host];
  for (const topo::LinkId l :
       topo::PathLinks(e.graph, e.fabric->routes(), spec.src_host, spec.dst_host, id)) {
    const topo::Link& link = e.graph.link(l);
    const topo::PortRef from = link.a.node == at ? link.a : link.b;
    at = link.a.node == at ? link.b.node : link.a.node;
    const int sw = switch_of[from.node];
    const dp::LinkLosses& losses = e.fabric->port(from.node, from.port).losses();
    Consider(worst, losses.bit_errors, dp::DropReason::kBitError, from, sw, 0);
    Consider(worst, losses.sent_while_down + losses.in_flight, dp::DropReason::kLinkDown, from, sw,
             0);
    if (sw < 0) continue;
    for (uint8_t q = 0; q < dp::kNumQueues; ++q) {
      const dp::DropCounters& drops = e.fabric->switch_at(sw).queue_counters(from.port, q).drops;
      for (const dp::DropReason r : dp::kQueueDropReasons) {
        Consider(worst, drops.packets[static_cast<size_t>(r)], r, from, sw, q);
      }
    }
  }
  return worst;
}

std::string Setting(const Emulation& e, const WorstHop& w, uint32_t frame_bytes) {
  const std::string q = std::to_string(w.queue);
  switch (w.reason) {
    case dp::DropReason::kQueueLimit: {
      const cong::BufferConfig& config = e.fabric->switch_at(w.switch_index).buffer().config();
      const std::string limit = EmptyQueueLimitText(config, w.queue);
      if (!AdmitsOnEmptyBuffer(config, w.queue, frame_bytes)) {
        return "queue " + q + " is lossy and even on an empty buffer holds at most " + limit +
               ", less than the flow's " + std::to_string(frame_bytes) +
               "-byte frames: raise switch.queue (priority " + q +
               ") alpha or reserved_bytes, or make the priority lossless with switch.pfc";
      }
      return "queue " + q + " is lossy and its dynamic threshold (on an empty buffer " + limit +
             ") overflows: raise switch.queue (priority " + q +
             ") alpha, or make the priority lossless with switch.pfc";
    }
    case dp::DropReason::kBitError:
      return "the link loses frames to its class's bit_error_rate (topology.link_class)";
    case dp::DropReason::kLinkDown:
      return "the link is down (topology.failure)";
    case dp::DropReason::kWredDrop:
      return "WRED drops the queue's frames that are not ECN-capable (switch.queue wred)";
    case dp::DropReason::kHeadroomOverflow:
      return "the PFC headroom is too small for the link (switch.pfc)";
    case dp::DropReason::kPfcWatchdog:
      return "the PFC watchdog declared the queue stormed (switch.pfc_watchdog)";
    default:
      return "see summary.json's drops";
  }
}

// Why a flow whose frames were not dropped got no acknowledgement: a timeout shorter than one
// frame's round trip on the idle path (a slow link), else frames held back in the fabric.
std::string HeldBack(const Emulation& e, const dp::MessageSpec& spec, uint32_t id,
                     uint32_t payload_bytes) {
  std::vector<PathHop> out_hops;
  PathHopsOf(e.graph, e.routes, spec.src_host, spec.dst_host, id, &out_hops);
  // The acknowledgement comes back over links of the same rates and delays, a minimum frame.
  const Time round_trip =
      StandaloneFct(payload_bytes, payload_bytes, out_hops) + StandaloneFct(1, 1, out_hops);
  const Time timeout = e.fabric->nic(0).config().retransmit_timeout;
  if (round_trip < timeout) return "its frames are held back (paused, or queued)";
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "one frame's round trip on the idle path (%.3f us) is longer than the "
                "retransmission timeout (%.3f us): raise nic.transport.retransmit_timeout_ns",
                static_cast<double>(round_trip.ps()) * 1e-6,
                static_cast<double>(timeout.ps()) * 1e-6);
  return buf;
}

}  // namespace

std::string DescribeStall(const Emulation& e, const std::string& why,
                          std::span<const uint32_t> flows, uint32_t mtu_payload_bytes) {
  std::vector<int> switch_of(e.graph.nodes().size(), -1);
  for (size_t i = 0; i < e.fabric->num_switches(); ++i) {
    switch_of[e.fabric->switch_at(i).node()] = static_cast<int>(i);
  }
  std::string out = why;
  for (size_t k = 0; k < flows.size() && k < kFlowsNamed; ++k) {
    const uint32_t id = flows[k];
    const dp::MessageSpec& spec = e.fabric->messages().spec(id);
    out += "\n  flow " + std::to_string(id) + " (host " + std::to_string(spec.src_host) +
           " -> host " + std::to_string(spec.dst_host) + "): ";
    const WorstHop w = WorstHopOf(e, switch_of, id);
    const auto payload =
        static_cast<uint32_t>(std::min<uint64_t>(spec.size_bytes, mtu_payload_bytes));
    if (w.packets == 0) {
      out += "no hop of its path dropped a frame: " + HeldBack(e, spec, id, payload);
      continue;
    }
    out += std::to_string(w.packets) + " frames dropped (" + dp::DropReasonName(w.reason) +
           ") at " + e.graph.node(w.at.node).name + " port " + std::to_string(w.at.port);
    if (w.switch_index >= 0 && w.reason != dp::DropReason::kBitError &&
        w.reason != dp::DropReason::kLinkDown) {
      out += " queue " + std::to_string(w.queue);
    }
    out += "; " + Setting(e, w, dp::RoceFrameBytes(payload));
  }
  if (flows.size() > kFlowsNamed) {
    out += "\n  and " + std::to_string(flows.size() - kFlowsNamed) + " more flows";
  }
  return out;
}

}  // namespace fe::control
