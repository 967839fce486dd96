#include "dataplane/realtime/eth_port.h"

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_errno.h>

#include <dirent.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace fe::dp {

std::string DeviceName(std::string_view device_args) {
  return std::string(device_args.substr(0, device_args.find(',')));
}

namespace {

std::string DpdkError(int ret) { return rte_strerror(ret < 0 ? -ret : ret); }

// The value of option `key` in "name,key=value,...", or empty.
std::string Option(const std::string& device_args, const std::string& key) {
  size_t at = device_args.find(',');
  while (at != std::string::npos) {
    const size_t end = device_args.find(',', at + 1);
    const std::string kv = device_args.substr(at + 1, end - at - 1);
    if (kv.compare(0, key.size() + 1, key + "=") == 0) return kv.substr(key.size() + 1);
    at = end;
  }
  return "";
}

bool IsAfPacket(const std::string& device_args) {
  return device_args.rfind("net_af_packet", 0) == 0 || device_args.rfind("eth_af_packet", 0) == 0;
}

// The packet sockets of this process bound to interface `ifindex`: the ones the af_packet driver
// opened (it keeps no public handle on them).
std::vector<int> PacketSocketsOn(unsigned ifindex) {
  std::vector<int> fds;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return fds;
  while (const dirent* d = readdir(dir)) {
    const int fd = std::atoi(d->d_name);
    if (d->d_name[0] == '.' || fd == dirfd(dir)) continue;
    int domain = 0;
    socklen_t len = sizeof(domain);
    if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_PACKET) continue;
    sockaddr_ll addr{};
    len = sizeof(addr);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) continue;
    if (static_cast<unsigned>(addr.sll_ifindex) == ifindex) fds.push_back(fd);
  }
  closedir(dir);
  return fds;
}

}  // namespace

std::string WithDefaultDeviceArgs(const std::string& device_args) {
  if (!IsAfPacket(device_args) || !Option(device_args, "framecnt").empty()) return device_args;
  return device_args + ",framecnt=4096";
}

StatusOr<std::unique_ptr<EthPort>> EthPort::Open(const EthPortParams& params,
                                                 rte_mempool* rx_pool) {
  const std::string name = DeviceName(params.device_args);
  if (name.empty()) return Status::Error("empty device arguments");
  uint16_t port_id = 0;
  bool probed = false;
  if (rte_eth_dev_get_port_by_name(name.c_str(), &port_id) != 0) {
    const int ret = rte_dev_probe(params.device_args.c_str());
    if (ret < 0) {
      return Status::Error("cannot probe device \"" + params.device_args + "\": " + DpdkError(ret) +
                           " (a virtual device's interface must exist; a PCI device must be "
                           "bound to a DPDK-capable driver and EAL started without --no-pci)");
    }
    probed = true;
    if (rte_eth_dev_get_port_by_name(name.c_str(), &port_id) != 0) {
      return Status::Error("device \"" + params.device_args + "\" probed but has no ethdev port");
    }
  }
  std::unique_ptr<EthPort> port(new EthPort(port_id, name, probed));

  rte_eth_dev_info info;
  int ret = rte_eth_dev_info_get(port_id, &info);
  if (ret != 0) return Status::Error(name + ": cannot read device info: " + DpdkError(ret));
  rte_eth_conf conf;
  std::memset(&conf, 0, sizeof(conf));
  ret = rte_eth_dev_configure(port_id, 1, 1, &conf);
  if (ret != 0) return Status::Error(name + ": cannot configure: " + DpdkError(ret));
  uint16_t rx_desc = params.rx_descriptors;
  uint16_t tx_desc = params.tx_descriptors;
  ret = rte_eth_dev_adjust_nb_rx_tx_desc(port_id, &rx_desc, &tx_desc);
  if (ret != 0) return Status::Error(name + ": descriptor counts refused: " + DpdkError(ret));
  const int socket = rte_eth_dev_socket_id(port_id);
  const unsigned socket_id = socket < 0 ? SOCKET_ID_ANY : static_cast<unsigned>(socket);
  ret = rte_eth_rx_queue_setup(port_id, 0, rx_desc, socket_id, nullptr, rx_pool);
  if (ret != 0) return Status::Error(name + ": rx queue setup failed: " + DpdkError(ret));
  ret = rte_eth_tx_queue_setup(port_id, 0, tx_desc, socket_id, nullptr);
  if (ret != 0) return Status::Error(name + ": tx queue setup failed: " + DpdkError(ret));
  ret = rte_eth_dev_start(port_id);
  if (ret != 0) return Status::Error(name + ": cannot start: " + DpdkError(ret));
  port->started_ = true;
  // Some virtual devices (net_null, net_ring) have no promiscuous mode and always accept
  // everything; only a device that has one and refuses it is an error.
  ret = rte_eth_promiscuous_enable(port_id);
  if (ret != 0 && ret != -ENOTSUP) {
    return Status::Error(name + ": cannot enable promiscuous mode: " + DpdkError(ret));
  }
  rte_eth_macaddr_get(port_id, &port->mac_);
  if (IsAfPacket(params.device_args)) {
    const std::string iface = Option(params.device_args, "iface");
    const unsigned ifindex = iface.empty() ? 0 : if_nametoindex(iface.c_str());
    if (ifindex != 0) port->kernel_sockets_ = PacketSocketsOn(ifindex);
  }
  return port;
}

EthPort::~EthPort() {
  for (uint16_t i = 0; i < tx_count_; ++i) rte_pktmbuf_free(tx_buffer_[i]);
  tx_count_ = 0;
  if (started_) rte_eth_dev_stop(port_id_);
  rte_eth_dev_info info;
  rte_device* dev = rte_eth_dev_info_get(port_id_, &info) == 0 ? info.device : nullptr;
  rte_eth_dev_close(port_id_);
  if (probed_ && dev != nullptr) rte_dev_remove(dev);
}

void EthPort::Flush() {
  if (tx_count_ == 0) return;
  const uint16_t sent = rte_eth_tx_burst(port_id_, 0, tx_buffer_.data(), tx_count_);
  ++counters_.tx_bursts;
  counters_.tx_packets += sent;
  for (uint16_t i = sent; i < tx_count_; ++i) rte_pktmbuf_free(tx_buffer_[i]);
  counters_.tx_dropped += tx_count_ - sent;
  tx_count_ = 0;
}

DeviceRxLoss EthPort::RxLoss() {
  DeviceRxLoss loss;
  rte_eth_stats stats;
  if (rte_eth_stats_get(port_id_, &stats) == 0) {
    loss.missed = stats.imissed;
    loss.errors = stats.ierrors;
    loss.no_mbuf = stats.rx_nombuf;
  }
  for (const int fd : kernel_sockets_) {
    // The TPACKET_V3 layout is the largest; the kernel fills as much as its version has.
    tpacket_stats_v3 st{};
    socklen_t len = sizeof(st);
    if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
      kernel_ring_drops_ += st.tp_drops;
  }
  loss.kernel_ring = kernel_ring_drops_;
  return loss;
}

}  // namespace fe::dp
