// A real host at an emulated host's attachment point (real-time mode). It stands where the
// emulated NIC would be: frames the real host sends enter the host's uplink, frames the fabric
// delivers to the host leave towards it. It moves no frames to or from a device itself: the loop
// hands it received bursts and drains its outbox, so the same element serves one lcore (ethdev
// directly) or two (rte_rings between an I/O lcore and the fabric lcore).
//
// Addressing model (docs/lab-guide.md): the fabric is one routed IPv4 network, 198.18.0.0/15,
// host i at 198.18.0.0 + 1 + i. Every host, real or emulated, sees every other host as on-link:
// the emulator answers ARP for each fabric address with that host's fabric MAC 02:fe:00:xx:xx:xx,
// so an ordinary Linux host needs only its address and prefix. Switches route on the destination
// IP and never look at MACs; at delivery, the frame gets the real host's own MAC (learned from
// what it sends) as destination and the sending host's fabric MAC as source, as the last router
// of a routed fabric would write them.
#pragma once

#include <rte_ether.h>
#include <rte_mbuf.h>

#include <cstdint>

#include "congestion/dscp_map.h"
#include "core/fifo.h"
#include "core/scheduler.h"
#include "core/units.h"
#include "dataplane/drop_reason.h"
#include "dataplane/egress_port.h"
#include "dataplane/element.h"
#include "dataplane/pcapng_writer.h"

namespace fe::dp {

// The emulator's own MAC, source of its ARP probes: locally administered, outside the range of
// host MACs (02:fe:00:...).
inline constexpr rte_ether_addr kEmulatorMac = {{0x02, 0xfe, 0xff, 0xff, 0xff, 0xff}};
inline constexpr Time kProbeInterval = Time::FromMs(100);

struct ExternalHostParams {
  uint32_t host = 0;             // the host index the real host takes the place of
  uint32_t num_hosts = 0;        // hosts of the fabric: ARP is answered for each of their addresses
  cong::DscpMapConfig dscp_map;  // picks the uplink queue of what the real host sends
  rte_mempool* probe_pool = nullptr;  // for the ARP probes that learn the host's MAC
  // The emulated uplink queues what the real host sends faster than the emulated link rate; past
  // this many bytes in one queue a frame is dropped, as a NIC's full transmit ring would refuse it
  // (1 MiB: 42 ms at 200 Mb/s, 84 us at 100 Gb/s, a deep NIC ring at both ends).
  uint32_t uplink_queue_limit_bytes = 1 << 20;
};

struct ExternalHostCounters {
  uint64_t rx_frames = 0;        // from the real host
  uint64_t rx_forwarded = 0;     // entered the fabric
  uint64_t arp_replies = 0;      // answered for a fabric address
  uint64_t arp_ignored = 0;      // ARP that asks for nothing the fabric holds, or is no request
  uint64_t arp_probes = 0;       // sent to learn the host's MAC
  uint64_t mac_control_rx = 0;   // pause frames from the host, passed on to pause the switch
  uint64_t uplink_overflow = 0;  // dropped: uplink queue over its limit
  DropCounters rx_drops;         // malformed or unroutable frames from the real host
  uint64_t tx_frames = 0;        // delivered by the fabric towards the real host
  uint64_t tx_pause_frames = 0;  // of which PFC frames from the edge switch (PFC out)
  uint64_t tx_ce_frames = 0;     // of which IPv4 frames marked CE on the way
  // Emulated frames whose payload is virtual cannot go out as real bytes: dropped, counted.
  uint64_t tx_virtual_dropped = 0;
};

class ExternalHost final : public PacketReceiver {
 public:
  explicit ExternalHost(const ExternalHostParams& params) : params_(params) {}
  // The host's egress port into the fabric (Fabric::AttachExternal's result); before any OnRx.
  void ConnectUplink(EgressPort* uplink) { uplink_ = uplink; }

  // Frames received from the real host, in arrival order; takes ownership of all n. Runs at the
  // scheduler's current time.
  void OnRx(rte_mbuf* const* frames, uint16_t n);
  // A frame the fabric delivers to the host: rewritten for the real host and queued in the outbox.
  // MAC-control (PFC) frames the edge switch sends go out unchanged (PFC out).
  void Receive(uint16_t local_port, rte_mbuf* m) override;
  // Until the real host's MAC is known, asks for it every kProbeInterval with an ARP probe
  // (RFC 5227: sender address 0.0.0.0, which a host answers for its own address without adding
  // anything to its neighbour table). A host that never spoke would otherwise get its frames
  // broadcast, and TCP ignores segments that were not addressed to the host's own MAC.
  void ProbeHostMac(Time now);

  // Records what crosses the cable into `writer` as `interface`, as the host's port sees it:
  // the frames the real host sends (outbound) when `sent`, the frames that go to it (inbound:
  // the fabric's, ARP replies and probes) when `received`, each stamped with `sched`'s time when
  // the emulator takes it in or hands it on. nullptr: none.
  void SetCapture(PcapngWriter* writer, uint32_t interface, bool sent, bool received,
                  const Scheduler* sched);

  // Frames waiting to go to the real host, oldest first; the caller transmits and pops them.
  Fifo<rte_mbuf*>& outbox() { return outbox_; }
  // Frees everything in the outbox (teardown); returns how many.
  uint64_t DrainAll();

  uint32_t host() const { return params_.host; }
  bool host_mac_known() const { return host_mac_known_; }
  const ExternalHostCounters& counters() const { return counters_; }

 private:
  void OnArp(rte_mbuf* m);
  void OnIpv4(rte_mbuf* m);
  void Learn(const rte_ether_hdr* eth);
  void DropRx(rte_mbuf* m, DropReason reason);
  // Queues m for the real host.
  void Deliver(rte_mbuf* m);

  ExternalHostParams params_;
  EgressPort* uplink_ = nullptr;
  rte_ether_addr host_mac_{};
  bool host_mac_known_ = false;
  Time next_probe_;
  Fifo<rte_mbuf*> outbox_;
  ExternalHostCounters counters_;
  PcapngWriter* capture_ = nullptr;
  uint32_t capture_interface_ = 0;
  bool capture_sent_ = false;
  bool capture_received_ = false;
  const Scheduler* capture_clock_ = nullptr;
};

}  // namespace fe::dp
