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
#include <string_view>
#include <vector>

#include "core/status.h"

namespace fe::dp {

inline constexpr uint16_t kBurstSize = 32;

struct EthPortParams {
  // What a DPDK user would pass to --vdev or -a: "net_af_packet0,iface=veth-a", "0000:3b:00.0".
  std::string device_args;
  uint16_t rx_descriptors = 1024;
  uint16_t tx_descriptors = 1024;
};

// The device's name: the part of its arguments before the first comma ("net_af_packet0" of
// "net_af_packet0,iface=veth-a"), the name its ethdev carries.
std::string DeviceName(std::string_view device_args);

// The device arguments serve opens a port with: the user's, plus defaults for the options they
// leave out on the virtual devices whose defaults lose frames. net_af_packet's kernel ring of 512
// frames overflows whenever the loop is a few hundred microseconds late at a gigabit, silently
// for TCP; 4096 frames (8 MiB) hold 50 ms of a gigabit. An option the user gives is kept.
std::string WithDefaultDeviceArgs(const std::string& device_args);

// Frames lost on their way in before the emulator saw them, by where.
struct DeviceRxLoss {
  uint64_t missed = 0;       // rte_eth_stats imissed: the device's rx ring was full
  uint64_t errors = 0;       // rte_eth_stats ierrors: bad frames
  uint64_t no_mbuf = 0;      // rte_eth_stats rx_nombuf: no mbuf to receive into
  uint64_t kernel_ring = 0;  // net_af_packet: dropped by the kernel, its ring full (tp_drops)
  uint64_t total() const { return missed + errors + no_mbuf + kernel_ring; }
};

struct EthPortCounters {
  uint64_t rx_packets = 0;
  uint64_t tx_packets = 0;
  uint64_t tx_dropped = 0;  // refused by a full tx ring
  uint64_t rx_bursts = 0;   // receive calls that returned frames
  uint64_t tx_bursts = 0;   // transmit calls (one per flush of a non-empty buffer)
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
    counters_.rx_bursts += n > 0 ? 1 : 0;
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
  // What was lost before the emulator received it, so far, from the driver's counters and, for
  // net_af_packet (whose driver in DPDK 22.11 does not read them), the kernel's. Reading the
  // kernel's counter resets it, so one thread only calls this; it may be another than the one
  // polling the port.
  DeviceRxLoss RxLoss();

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
  // net_af_packet: the driver's packet sockets on the interface, read for the kernel's drops.
  std::vector<int> kernel_sockets_;
  uint64_t kernel_ring_drops_ = 0;
};

}  // namespace fe::dp
