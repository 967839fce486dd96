// What `fabric-emu serve` reports: summary.json at the end and a progress line every second.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "dataplane/fabric.h"
#include "dataplane/realtime/eth_port.h"
#include "dataplane/realtime/external_host.h"
#include "dataplane/realtime/realtime_loop.h"

namespace fe::control {

struct ServePortReport {
  std::string device_args;
  uint32_t host = 0;
  dp::EthPortCounters device;
  dp::DeviceRxLoss rx_lost;
  dp::ExternalHostCounters host_side;
  bool host_mac_learned = false;
};

struct ServeReport {
  std::string scenario_name;
  uint64_t seed = 0;
  size_t hosts = 0;
  size_t switches = 0;
  std::vector<std::string> eal_args;
  bool two_lcores = false;
  std::string stopped_by;  // "signal", "duration" or "api" (POST /v1/shutdown)
  dp::RealtimeStats loop;
  Time behind_threshold;
  std::vector<ServePortReport> ports;
  dp::FabricTotals fabric;
  size_t links = 0;
  // As a software run's summary writes them (control/report/switch_queues_json.h), taken when the
  // loop stopped, before teardown drains the queues; switch_queues as JSON text.
  std::string switch_queues = "[]";
  nlohmann::ordered_json paused_host_uplinks;
  uint64_t messages = 0;  // emulated messages that ran
  uint64_t messages_delivered = 0;
  uint64_t messages_left_out = 0;        // scenario messages from or to a real host, not emulated
  uint64_t mbufs_freed_at_teardown = 0;  // still queued, on a link or in a ring at the end
  // After teardown: anything but 0 is a leak.
  uint64_t fabric_pool_in_use = 0;
  uint64_t rx_pool_in_use = 0;
};

std::string ServeSummaryJson(const ServeReport& report);
// One line: elapsed time, frames, and the interval's lateness; says so when it fell behind.
std::string ServeProgressLine(const dp::RealtimeProgress& p, Time behind_threshold);

}  // namespace fe::control
