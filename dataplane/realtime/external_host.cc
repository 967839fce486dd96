#include "dataplane/realtime/external_host.h"

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_ip.h>

#include <cstring>

#include "dataplane/addressing.h"
#include "dataplane/packet.h"
#include "dataplane/pfc_frame.h"

namespace fe::dp {

namespace {

constexpr uint32_t kArpFrameBytes = kEthHeaderBytes + sizeof(rte_arp_hdr);

void SetMac(rte_ether_addr* out, uint32_t host) { HostMac(host, out->addr_bytes); }

}  // namespace

void ExternalHost::DropRx(rte_mbuf* m, DropReason reason) {
  counters_.rx_drops.Count(reason, FrameBytes(m));
  rte_pktmbuf_free(m);
}

void ExternalHost::Learn(const rte_ether_hdr* eth) {
  if (rte_is_unicast_ether_addr(&eth->src_addr)) {
    rte_ether_addr_copy(&eth->src_addr, &host_mac_);
    host_mac_known_ = true;
  }
}

void ExternalHost::SetCapture(PcapngWriter* writer, uint32_t interface, bool sent, bool received,
                              const Scheduler* sched) {
  capture_ = writer;
  capture_interface_ = interface;
  capture_sent_ = sent;
  capture_received_ = received;
  capture_clock_ = sched;
}

void ExternalHost::Deliver(rte_mbuf* m) {
  if (capture_received_ && capture_ != nullptr) {
    capture_->Write(capture_interface_, capture_clock_->Now(), m, CaptureDirection::kInbound);
  }
  outbox_.push(m);
}

void ExternalHost::OnRx(rte_mbuf* const* frames, uint16_t n) {
  for (uint16_t i = 0; i < n; ++i) {
    rte_mbuf* m = frames[i];
    // The private area holds whatever the mbuf's previous life left there.
    ResetMeta(m);
    // Before anything is rewritten: an ARP request becomes its reply in place.
    if (capture_sent_ && capture_ != nullptr) {
      capture_->Write(capture_interface_, capture_clock_->Now(), m, CaptureDirection::kOutbound);
    }
    ++counters_.rx_frames;
    if (rte_pktmbuf_data_len(m) < kEthHeaderBytes) {
      DropRx(m, DropReason::kRunt);
      continue;
    }
    const auto* eth = rte_pktmbuf_mtod(m, const rte_ether_hdr*);
    if (eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP)) {
      OnArp(m);
    } else if (IsMacControlFrame(m)) {
      // A pause frame crosses the emulated host link like any frame and, arriving, pauses the
      // switch port that sends towards this host (PFC in).
      Learn(eth);
      ++counters_.mac_control_rx;
      uplink_->EnqueueControl(m);
    } else {
      OnIpv4(m);  // ParseHeaders refuses every other EtherType
    }
  }
}

void ExternalHost::OnArp(rte_mbuf* m) {
  if (rte_pktmbuf_data_len(m) < kArpFrameBytes) {
    DropRx(m, DropReason::kRunt);
    return;
  }
  auto* eth = rte_pktmbuf_mtod(m, rte_ether_hdr*);
  auto* arp = rte_pktmbuf_mtod_offset(m, rte_arp_hdr*, kEthHeaderBytes);
  Learn(eth);
  const uint32_t target_ip = rte_be_to_cpu_32(arp->arp_data.arp_tip);
  const uint32_t target = HostOfIp(target_ip);
  const bool answerable = arp->arp_hardware == rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) &&
                          arp->arp_protocol == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) &&
                          arp->arp_hlen == RTE_ETHER_ADDR_LEN && arp->arp_plen == 4 &&
                          arp->arp_opcode == rte_cpu_to_be_16(RTE_ARP_OP_REQUEST) &&
                          target < params_.num_hosts && target != params_.host;
  if (!answerable) {
    ++counters_.arp_ignored;
    rte_pktmbuf_free(m);
    return;
  }
  // The reply reuses the request's mbuf (RFC 826: swap sender and target, fill in the sender).
  rte_ether_addr_copy(&arp->arp_data.arp_sha, &eth->dst_addr);
  SetMac(&eth->src_addr, target);
  arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REPLY);
  rte_ether_addr_copy(&arp->arp_data.arp_sha, &arp->arp_data.arp_tha);
  arp->arp_data.arp_tip = arp->arp_data.arp_sip;
  SetMac(&arp->arp_data.arp_sha, target);
  arp->arp_data.arp_sip = rte_cpu_to_be_32(target_ip);
  // Trailing padding the request carried is not part of the reply.
  rte_pktmbuf_trim(m, static_cast<uint16_t>(rte_pktmbuf_pkt_len(m) - kArpFrameBytes));
  ++counters_.arp_replies;
  Deliver(m);
}

void ExternalHost::OnIpv4(rte_mbuf* m) {
  // A runt here is a frame too short to hold the header its EtherType announces. (A frame
  // shorter than the Ethernet header itself never gets this far over a kernel interface, which
  // refuses to send one.)
  const auto* eth = rte_pktmbuf_mtod(m, const rte_ether_hdr*);
  if (eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) &&
      rte_pktmbuf_data_len(m) < kIpv4Offset + kIpv4HeaderBytes) {
    DropRx(m, DropReason::kRunt);
    return;
  }
  HeaderView h;
  const ParseError err = ParseHeaders(m, &h);
  if (err != ParseError::kNone) {
    DropRx(m, ToDropReason(err));
    return;
  }
  if (HostOfIp(h.dst_ip) >= params_.num_hosts) {
    DropRx(m, DropReason::kUnknownDestination);
    return;
  }
  Learn(eth);
  const uint8_t queue = cong::PriorityOf(params_.dscp_map, h.dscp);
  if (uplink_->queue_bytes(queue) + FrameBytes(m) > params_.uplink_queue_limit_bytes) {
    ++counters_.uplink_overflow;
    rte_pktmbuf_free(m);
    return;
  }
  ++counters_.rx_forwarded;
  uplink_->Enqueue(m, queue);
}

void ExternalHost::Receive(uint16_t /*local_port*/, rte_mbuf* m) {
  if (VirtualBytes(m) != 0) {
    ++counters_.tx_virtual_dropped;
    rte_pktmbuf_free(m);
    return;
  }
  auto* eth = rte_pktmbuf_mtod(m, rte_ether_hdr*);
  // MAC-control frames (PFC) keep their reserved multicast destination and the switch port MAC.
  if (eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4)) {
    // Until the host has answered a probe or sent anything its MAC is unknown; broadcast
    // reaches it meanwhile.
    if (host_mac_known_) {
      rte_ether_addr_copy(&host_mac_, &eth->dst_addr);
    } else {
      std::memset(eth->dst_addr.addr_bytes, 0xff, RTE_ETHER_ADDR_LEN);
    }
    const auto* ip = rte_pktmbuf_mtod_offset(m, const rte_ipv4_hdr*, kIpv4Offset);
    const uint32_t src = HostOfIp(rte_be_to_cpu_32(ip->src_addr));
    if (src < params_.num_hosts) SetMac(&eth->src_addr, src);
    if ((ip->type_of_service & 0x3) == kEcnCe) ++counters_.tx_ce_frames;
  } else if (IsMacControlFrame(m)) {
    ++counters_.tx_pause_frames;
  }
  ++counters_.tx_frames;
  Deliver(m);
}

void ExternalHost::ProbeHostMac(Time now) {
  if (host_mac_known_ || now < next_probe_ || params_.probe_pool == nullptr) return;
  next_probe_ = now + kProbeInterval;
  rte_mbuf* m = rte_pktmbuf_alloc(params_.probe_pool);
  if (m == nullptr) return;
  auto* eth = reinterpret_cast<rte_ether_hdr*>(rte_pktmbuf_append(m, kArpFrameBytes));
  if (eth == nullptr) {
    rte_pktmbuf_free(m);
    return;
  }
  ResetMeta(m);
  std::memset(eth->dst_addr.addr_bytes, 0xff, RTE_ETHER_ADDR_LEN);
  rte_ether_addr_copy(&kEmulatorMac, &eth->src_addr);
  eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
  auto* arp = reinterpret_cast<rte_arp_hdr*>(eth + 1);
  arp->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
  arp->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
  arp->arp_hlen = RTE_ETHER_ADDR_LEN;
  arp->arp_plen = 4;
  arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REQUEST);
  rte_ether_addr_copy(&kEmulatorMac, &arp->arp_data.arp_sha);
  arp->arp_data.arp_sip = 0;
  std::memset(arp->arp_data.arp_tha.addr_bytes, 0, RTE_ETHER_ADDR_LEN);
  arp->arp_data.arp_tip = rte_cpu_to_be_32(HostIp(params_.host));
  ++counters_.arp_probes;
  Deliver(m);
}

uint64_t ExternalHost::DrainAll() {
  uint64_t n = 0;
  while (!outbox_.empty()) {
    rte_pktmbuf_free(outbox_.pop());
    ++n;
  }
  return n;
}

}  // namespace fe::dp
