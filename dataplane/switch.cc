#include "dataplane/switch.h"

#include "congestion/ecmp_hash.h"
#include "dataplane/addressing.h"
#include "dataplane/packet.h"

namespace fe::dp {

namespace {
DropReason ToDropReason(ParseError e) {
  switch (e) {
    case ParseError::kRunt:
      return DropReason::kRunt;
    case ParseError::kNotIpv4:
      return DropReason::kNotIpv4;
    case ParseError::kBadIpv4Header:
      return DropReason::kBadIpv4Header;
    case ParseError::kTruncatedL4:
    case ParseError::kNone:
      break;
  }
  return DropReason::kTruncatedL4;
}
}  // namespace

void Switch::Drop(rte_mbuf* m, DropReason reason) {
  counters_.drops.Count(reason, FrameBytes(m));
  rte_pktmbuf_free(m);
}

void Switch::Receive(uint16_t local_port, rte_mbuf* m) {
  ++counters_.rx_packets;
  HeaderView h;
  const ParseError err = ParseHeaders(m, &h);
  if (err != ParseError::kNone) return Drop(m, ToDropReason(err));
  const uint32_t dst = HostOfIp(h.dst_ip);
  if (dst >= num_hosts_) return Drop(m, DropReason::kUnknownDestination);

  const std::span<const uint16_t> group = routes_->NextHops(node_, dst);
  const uint32_t hash = cong::EcmpHash(h.src_ip, h.dst_ip, h.src_port, h.dst_port, ecmp_seed_);
  const uint16_t out = group[cong::PickEcmpMember(hash, static_cast<uint16_t>(group.size()))];

  PacketMeta& meta = Meta(m);
  meta.in_port = local_port;
  // Until the DSCP classifier lands every packet shares the default RoCE class.
  meta.priority = 3;
  ++counters_.forwarded_packets;
  ports_[out].Enqueue(m, meta.priority);
}

}  // namespace fe::dp
