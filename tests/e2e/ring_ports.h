// Ethdev ports made of rte_rings (net_ring), for driving the real-time loop inside one process:
// what a test enqueues on a port's rx ring the loop receives, what the loop transmits lands on
// its tx ring. No device, no namespace, no root.
#pragma once

#include <rte_eth_ring.h>
#include <rte_ring.h>

#include <cstdio>
#include <string>

namespace fe::testing {

struct RingPort {
  std::string name;  // the ethdev name, "net_ring_" + the tag, to open with dp::EthPort
  rte_ring* rx = nullptr;
  rte_ring* tx = nullptr;
};

// Multi-producer/consumer rings: the feeding thread need not be an EAL lcore.
inline RingPort MakeRingPort(const std::string& tag, unsigned size = 4096) {
  RingPort p;
  p.name = "net_ring_" + tag;  // rte_eth_from_rings names the device so
  p.rx = rte_ring_create((tag + "_rx").c_str(), size, SOCKET_ID_ANY, 0);
  p.tx = rte_ring_create((tag + "_tx").c_str(), size, SOCKET_ID_ANY, 0);
  if (p.rx == nullptr || p.tx == nullptr ||
      rte_eth_from_rings(tag.c_str(), &p.rx, 1, &p.tx, 1, SOCKET_ID_ANY) < 0) {
    std::fprintf(stderr, "cannot make ring port %s\n", tag.c_str());
    p.rx = p.tx = nullptr;
  }
  return p;
}

}  // namespace fe::testing
