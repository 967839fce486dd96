// One DPDK ethdev port of real-time mode: a real NIC (PCI address) or a virtual device
// (net_af_packet, net_tap, net_ring, net_null), configured with one rx and one tx queue and
// promiscuous, since frames for every emulated host arrive on it. Transmission is buffered and
// sent in bursts; what the device refuses when its ring is full is freed and counted.
#pragma once

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/status.h"

namespace fe::dp {

inline constexpr uint16_t kBurstSize = 32;

struct EthPortParams {
  // What a DPDK user would pass to --vdev or -a: "net_af_packet0,iface=veth-a", "0000:3b:00.0".
  std::string device_args;
  uint16_t rx_descriptors = 1024;
  uint16_t tx_descriptors = 1024;
};

struct EthPortCounters {
  uint64_t rx_packets = 0;
  uint64_t tx_packets = 0;
  uint64_t tx_dropped = 0;  // refused by a full tx ring
};

class EthPort {
 public:
  // Probes the device if the EAL has not already (a --vdev or -a argument), then configures and
  // starts it. Received mbufs come from rx_pool, which must outlive the port.
  static StatusOr<std::unique_ptr<EthPort>> Open(const EthPortParams& params, rte_mempool* rx_pool);
  // Stops the device, frees what is still buffered and, if Open probed it, removes it again.
  ~EthPort();
  EthPort(const EthPort&) = delete;
  EthPort& operator=(const EthPort&) = delete;

  uint16_t RxBurst(rte_mbuf** out, uint16_t max) {
    const uint16_t n = rte_eth_rx_burst(port_id_, 0, out, max);
    counters_.rx_packets += n;
    return n;
  }
  // Buffers m; a full buffer goes out at once.
  void Send(rte_mbuf* m) {
    tx_buffer_[tx_count_++] = m;
    if (tx_count_ == kBurstSize) Flush();
  }
  // Transmits everything buffered; frees and counts what the device does not take.
  void Flush();

  uint16_t port_id() const { return port_id_; }
  const std::string& name() const { return name_; }
  const rte_ether_addr& mac() const { return mac_; }
  const EthPortCounters& counters() const { return counters_; }
  // Frames the device itself missed or could not get an mbuf for (rte_eth_stats imissed +
  // rx_nombuf), from the driver's counters.
  uint64_t DeviceRxMissed() const;

 private:
  EthPort(uint16_t port_id, std::string name, bool probed)
      : port_id_(port_id), name_(std::move(name)), probed_(probed) {}

  uint16_t port_id_;
  std::string name_;
  bool probed_;  // Open probed the device, so the destructor removes it
  bool started_ = false;
  rte_ether_addr mac_{};
  std::array<rte_mbuf*, kBurstSize> tx_buffer_{};
  uint16_t tx_count_ = 0;
  EthPortCounters counters_;
};

}  // namespace fe::dp
