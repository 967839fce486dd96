#include "dataplane/fabric.h"

#include <rte_errno.h>
#include <rte_mbuf.h>

#include <algorithm>
#include <cstdio>
#include <span>
#include <string>

#include "core/random.h"
#include "dataplane/credit_links.h"
#include "dataplane/packet.h"
#include "dataplane/packet_pool.h"
#include "topology/path.h"

namespace fe::dp {

namespace {
uint32_t DomainOf(topo::NodeId n) { return Fabric::domain_of(n); }
}  // namespace

Time PathBaseRtt(const topo::Graph& graph, const topo::RouteTable& routes, uint32_t src_host,
                 uint32_t dst_host, uint32_t mtu_payload_bytes, uint32_t spread) {
  const int64_t wire_bytes = WireBytesOfFrame(RoceFrameBytes(mtu_payload_bytes));
  Time one_way;
  for (const topo::LinkId l : topo::PathLinks(graph, routes, src_host, dst_host, spread)) {
    const topo::Link& link = graph.link(l);
    one_way += link.delay + link.rate.SerializationTime(wire_bytes);
  }
  return one_way + one_way;
}

namespace {
// The priorities anything queues on: every target of a switch's DSCP map (a variant's, a tier's
// or the fabric's), the NICs' ACKs and CNPs, and 0, where an external host's map (the fabric's
// rows, without its default priority) sends what it does not list. Each port has a queue for each
// of them and for no other. A map that does not compile adds nothing: the switch that has it
// refuses it.
uint8_t QueuedPriorities(const FabricParams& params) {
  uint8_t priorities = (1u << 0) | (1u << kAckQueue) | (1u << kCnpQueue);
  const auto add = [&](const SwitchParams& sp) {
    StatusOr<cong::DscpMapConfig> dscp = cong::Compile(sp.dscp);
    if (!dscp.ok()) return;
    for (const uint8_t p : dscp->priority_of_dscp) priorities |= static_cast<uint8_t>(1u << p);
  };
  add(params.switch_params);
  for (const std::optional<SwitchParams>& sp : params.tier_switch_params) {
    if (sp.has_value()) add(*sp);
  }
  for (const SwitchParams& sp : params.switch_variants) add(sp);
  return priorities;
}
}  // namespace

SwitchParams SwitchParamsOf(const FabricParams& params, topo::NodeId node, uint8_t tier) {
  const int32_t variant =
      node < params.node_switch_variant.size() ? params.node_switch_variant[node] : -1;
  SwitchParams sp =
      variant >= 0 && static_cast<size_t>(variant) < params.switch_variants.size()
          ? params.switch_variants[variant]
      : tier < params.tier_switch_params.size() && params.tier_switch_params[tier].has_value()
          ? *params.tier_switch_params[tier]
          : params.switch_params;
  // The NIC's frames are the largest the fabric carries: headroom is sized for them.
  sp.headroom.max_frame_bytes = RoceFrameBytes(params.nic.mtu_payload_bytes);
  return sp;
}

StatusOr<std::unique_ptr<Fabric>> Fabric::Create(const topo::Graph& graph,
                                                 const topo::RouteTable& routes,
                                                 const FabricParams& params, Scheduler* sched) {
  std::unique_ptr<Fabric> f(new Fabric(graph, routes, params, sched));

  // Pool names are process-wide in DPDK; the fabric's address keeps them unique.
  char name[RTE_MEMPOOL_NAMESIZE];
  std::snprintf(name, sizeof(name), "fe%p", static_cast<void*>(f.get()));
  // Only HPCC's INT stacks need the mbufs' private area: without, an element is a fifth smaller.
  const uint16_t priv_bytes = params.nic.cc == CongestionControl::kHpcc ? kPacketPrivBytes : 0;
  StatusOr<rte_mempool*> pool = CreatePacketPool(
      name, params.mbuf_pool_size, params.mbuf_data_room_bytes, params.pool_memory, priv_bytes);
  if (!pool.ok()) return pool.status();
  f->pool_ = *pool;

  const auto& nodes = graph.nodes();
  f->first_port_.resize(nodes.size());
  size_t total_ports = 0;
  for (size_t n = 0; n < nodes.size(); ++n) {
    f->first_port_[n] = static_cast<uint32_t>(total_ports);
    total_ports += nodes[n].links.size();
  }
  f->ports_ = EgressPortArray(QueuedPriorities(params), total_ports);
  for (const topo::Node& node : nodes) {
    for (topo::LinkId l : node.links) {
      EgressPort& port = f->ports_.emplace_back(sched, graph.link(l).rate, graph.link(l).delay);
      const topo::LinkClassId c = graph.link(l).link_class;
      const double ber =
          c < graph.link_classes().size() ? graph.link_classes()[c].bit_error_rate : 0;
      if (!(ber >= 0 && ber < 1)) {
        return Status::Error("link class " + graph.link_classes()[c].name +
                             ": bit_error_rate must be in [0, 1)");
      }
      if (ber > 0) {
        // Each port draws its own stream, so one port's losses do not shift another's.
        const uint64_t port_index = f->ports_.size() - 1;
        port.SetBitErrorRate(
            ber, SplitMix64(params.random_seed ^ (0xB17E44055ULL * (port_index + 1))).NextU64());
      }
    }
  }
  f->link_up_.assign(graph.links().size(), 1);

  StatusOr<cong::DscpMapConfig> dscp = cong::Compile(params.switch_params.dscp);
  if (!dscp.ok()) return Status::Error("switch dscp: " + dscp.status().message());
  // A NIC's data stops while the class of RoCE traffic is paused on its uplink.
  const uint8_t nic_priority = cong::PriorityOf(*dscp, MessageSpec{}.dscp);

  // By global port: the element frames arriving on that port go to.
  std::vector<PacketReceiver*> receiver(total_ports, nullptr);
  f->first_nic_.assign(graph.num_hosts() + 1, 0);
  for (uint32_t host = 0; host < graph.num_hosts(); ++host) {
    const size_t links = nodes[graph.hosts()[host]].links.size();
    if (links == 0) {
      return Status::Error("host " + nodes[graph.hosts()[host]].name + " has no link");
    }
    f->first_nic_[host + 1] = f->first_nic_[host] + static_cast<uint32_t>(links);
  }
  f->nics_.resize(f->first_nic_.back());
  for (topo::NodeId n = 0; n < nodes.size(); ++n) {
    if (nodes[n].kind == topo::NodeKind::kHost) {
      const auto host = static_cast<uint32_t>(graph.HostIndex(n));
      for (uint16_t port = 0; port < nodes[n].links.size(); ++port) {
        EgressPort* p = &f->port(n, port);
        StatusOr<NicConfig> config = CompileNicParams(params.nic, p->rate());
        if (!config.ok()) return config.status();
        std::unique_ptr<Nic>& nic = f->nics_[f->first_nic_[host] + port];
        nic = std::make_unique<Nic>(host, sched, p, f->pool_, &f->messages_, *config, &f->hpcc_);
        nic->set_event_domain(DomainOf(n));
        nic->SetReachability(f.get(), port);
        p->SetSource(nic.get());
        p->SetSourcePriority(nic_priority);
        receiver[f->first_port_[n] + port] = nic.get();
      }
    } else {
      const EgressPortSpan sw_ports(&f->ports_[f->first_port_[n]], f->ports_.stride_bytes(),
                                    static_cast<uint32_t>(nodes[n].links.size()));
      std::vector<PortLink> links;
      for (size_t p = 0; p < sw_ports.size(); ++p) {
        links.push_back(
            PortLinkOf(graph, nodes[n].links[p], RoceFrameBytes(params.nic.mtu_payload_bytes)));
      }
      StatusOr<SwitchConfig> config = Compile(SwitchParamsOf(params, n, nodes[n].tier), links);
      if (!config.ok())
        return Status::Error("switch " + nodes[n].name + ": " + config.status().message());
      SwitchWiring w;
      w.node = n;
      w.ports = sw_ports;
      w.routes = &routes;
      w.graph = &graph;
      w.num_hosts = static_cast<uint32_t>(graph.num_hosts());
      w.ecmp_seed = params.ecmp_seed * 0x9E3779B1u + n;
      w.random_seed = SplitMix64(params.random_seed ^ (uint64_t{n} << 32)).NextU64();
      w.sched = sched;
      w.pool = f->pool_;
      f->switches_.push_back(std::make_unique<Switch>(w, std::move(config).value()));
      f->switches_.back()->set_event_domain(DomainOf(n));
      for (uint16_t port = 0; port < nodes[n].links.size(); ++port) {
        receiver[f->first_port_[n] + port] = f->switches_.back().get();
      }
    }
  }
  for (topo::NodeId n = 0; n < nodes.size(); ++n) {
    for (uint16_t p = 0; p < nodes[n].links.size(); ++p) {
      f->port(n, p).set_event_domain(DomainOf(n));
      f->port(n, p).SetHeaderOffset(HeaderOffset(f->pool_));
    }
  }
  for (topo::NodeId n = 0; n < nodes.size(); ++n) {
    for (uint16_t p = 0; p < nodes[n].links.size(); ++p) {
      const topo::PortRef peer = graph.Peer(topo::PortRef{n, p});
      f->port(n, p).ConnectDuplex(receiver[f->first_port_[peer.node] + peer.port], peer.port,
                                  &f->port(peer.node, peer.port));
    }
  }
  EnableCreditLinks(*f, RoceFrameBytes(params.nic.mtu_payload_bytes), params.random_seed);
  return f;
}

Fabric::~Fabric() {
  for (size_t i = 0; i < ports_.size(); ++i) ports_[i].DrainAll();
  if (pool_ != nullptr) rte_mempool_free(pool_);
}

Status Fabric::AddMessages(std::span<const MessageSpec> specs) {
  const size_t hosts = graph_.num_hosts();
  if (messages_.size() + specs.size() > kMaxMessages) {
    return Status::Error("too many messages: at most " + std::to_string(kMaxMessages));
  }
  for (const MessageSpec& s : specs) {
    if (s.src_host >= hosts || s.dst_host >= hosts || s.src_host == s.dst_host) {
      return Status::Error("message from host " + std::to_string(s.src_host) + " to host " +
                           std::to_string(s.dst_host) + " is not between two distinct hosts of " +
                           std::to_string(hosts));
    }
    if (s.size_bytes == 0) return Status::Error("message of 0 bytes");
  }
  std::vector<cong::HpccConfig> hpcc;
  if (params_.nic.cc == CongestionControl::kHpcc) {
    hpcc.reserve(specs.size());
    for (const MessageSpec& s : specs) {
      const auto id = static_cast<uint32_t>(messages_.size() + hpcc.size());
      const uint16_t port = graph_.HostPortTo(s.src_host, s.dst_host, id);
      const Time base_rtt =
          PathBaseRtt(graph_, *routes_, s.src_host, s.dst_host, params_.nic.mtu_payload_bytes, id);
      StatusOr<cong::HpccConfig> c = CompileHpccQp(nic(s.src_host, port).config(), base_rtt);
      if (!c.ok()) {
        return Status::Error("message from host " + std::to_string(s.src_host) + " to host " +
                             std::to_string(s.dst_host) + ": " + c.status().message());
      }
      hpcc.push_back(*c);
    }
  }
  const uint32_t mtu = params_.nic.mtu_payload_bytes;
  for (size_t i = 0; i < specs.size(); ++i) {
    const MessageSpec& s = specs[i];
    const auto id = static_cast<uint32_t>(messages_.size());
    if (!hpcc.empty()) hpcc_.push_back(HpccQp{hpcc[i], {}});
    MessageInfo info;
    info.spec = s;
    info.packets_total = static_cast<uint32_t>((s.size_bytes + mtu - 1) / mtu);
    // RoCEv2 entropy: a per-QP UDP source port in the dynamic range (49152-65535).
    info.udp_src_port = static_cast<uint16_t>(0xC000 | ((id * 2654435761u) >> 18));
    info.src_port = graph_.HostPortTo(s.src_host, s.dst_host, id);
    messages_.Add(info);
    if (!s.held) sender(id).ScheduleMessage(id);
  }
  return Status::Ok();
}

EgressPort& Fabric::AttachExternal(uint32_t host, PacketReceiver* receiver) {
  const topo::NodeId node = graph_.hosts()[host];
  const topo::PortRef edge = graph_.Peer(topo::PortRef{node, 0});
  // Frames to a real host go out whole, MAC-control frames included: a one-way link.
  port(edge.node, edge.port).ConnectPeer(receiver, 0);
  EgressPort& uplink = port(node, 0);
  uplink.SetSource(nullptr);
  return uplink;
}

void Fabric::SetLinkUp(topo::LinkId link, bool up) {
  link_up_[link] = up ? 1 : 0;
  const topo::Link& l = graph_.link(link);
  port(l.a.node, l.a.port).SetLinkDown(!up);
  port(l.b.node, l.b.port).SetLinkDown(!up);
}

void Fabric::SetRoutes(std::shared_ptr<const topo::RouteTable> routes) {
  routes_ = routes.get();
  for (const auto& s : switches_) s->SetRoutes(routes_);
  held_routes_ = std::move(routes);
}

bool Fabric::Reachable(uint32_t src_host, uint16_t src_port, uint32_t dst_host) const {
  const topo::NodeId src = graph_.hosts()[src_host];
  if (src_port >= graph_.node(src).links.size()) return false;
  if (link_up_[graph_.node(src).links[src_port]] == 0) return false;
  const topo::NodeId next = graph_.Peer(topo::PortRef{src, src_port}).node;
  if (graph_.node(next).kind == topo::NodeKind::kHost) {
    return graph_.HostIndex(next) == static_cast<int32_t>(dst_host);
  }
  // Routes are built over live links only: a next hop means a live path to the host.
  return !routes_->NextHops(next, dst_host).empty();
}

bool Fabric::MoveToLivePort(uint32_t id) {
  MessageInfo& info = messages_.info[id];
  const MessageSpec& s = info.spec;
  if (info.src_port == 0) return false;
  // Ports 1..K lead to the domain's K scale-up switches: the others, in turn after its own.
  const uint16_t scale_up = num_nics(s.src_host) - 1;
  for (uint16_t j = 1; j < scale_up; ++j) {
    const auto port = static_cast<uint16_t>(1 + (info.src_port - 1 + j) % scale_up);
    if (!Reachable(s.src_host, port, s.dst_host)) continue;
    info.src_port = port;
    nic(s.src_host, port).StartAt(id, sched_->Now());
    return true;
  }
  return false;
}

uint64_t Fabric::MarkUnreachable() {
  const Time now = sched_->Now();
  uint64_t n = 0;
  for (uint32_t id = 0; id < messages_.size(); ++id) {
    const SenderState& m = messages_.sender[id];
    const MessageSpec& spec = messages_.spec(id);
    // A message yet to start is checked as it starts: its path may be back by then.
    if (m.completed() || m.unreachable || spec.start > now || (spec.held && !m.started())) {
      continue;
    }
    const uint16_t port = messages_.info[id].src_port;
    if (Reachable(spec.src_host, port, spec.dst_host)) continue;
    nic(spec.src_host, port).Abandon(id);
    ++n;
  }
  return n;
}

void Fabric::SetMessageObserver(MessageObserver* observer) {
  for (const auto& n : nics_) n->SetObserver(observer);
}

void Fabric::SetLossObserver(LinkLossObserver* observer) {
  for (topo::NodeId n = 0; n < graph_.nodes().size(); ++n) {
    for (uint16_t p = 0; p < graph_.node(n).links.size(); ++p) {
      port(n, p).SetLossObserver(observer, graph_.node(n).links[p]);
    }
  }
}

Time Fabric::lookahead() const {
  Time shortest = Time::Infinite();
  for (size_t i = 0; i < ports_.size(); ++i) shortest = std::min(shortest, ports_[i].delay());
  return ports_.size() == 0 ? Time::Zero() : shortest;
}

uint64_t Fabric::messages_delivered() const {
  uint64_t n = 0;
  for (const ReceiverState& m : messages_.receiver) n += m.delivered() ? 1 : 0;
  return n;
}

FabricTotals Fabric::Totals() const {
  FabricTotals t;
  for (size_t i = 0; i < ports_.size(); ++i) {
    const EgressPort& p = ports_[i];
    t.packet_hops += p.tx_packets();
    t.wire_bytes += p.tx_wire_bytes();
    const LinkLosses& l = p.losses();
    constexpr auto kDown = static_cast<size_t>(DropReason::kLinkDown);
    constexpr auto kBits = static_cast<size_t>(DropReason::kBitError);
    t.drops.packets[kDown] += l.sent_while_down + l.in_flight;
    t.drops.bytes[kDown] += l.link_down_bytes;
    t.drops.packets[kBits] += l.bit_errors;
    t.drops.bytes[kBits] += l.bit_error_bytes;
  }
  for (const auto& s : switches_) t.drops.Add(s->counters().drops);
  for (const auto& n : nics_) t.nics.Add(n->counters());
  t.drops.Add(t.nics.drops);
  return t;
}

uint64_t Fabric::nic_alloc_failures() const {
  uint64_t n = 0;
  for (const auto& nic : nics_) n += nic->alloc_failures();
  return n;
}

uint64_t Fabric::MessagesInProgress() const {
  int64_t n = 0;
  for (const auto& nic : nics_) n += nic->in_progress_change();
  return static_cast<uint64_t>(n);
}

uint64_t Fabric::MessagesUnfinished() const {
  int64_t finished = 0;
  for (const auto& nic : nics_) finished += nic->finished_change();
  return messages_.size() - static_cast<uint64_t>(finished);
}

uint32_t Fabric::mbufs_in_use() const { return PacketsInUse(pool_); }

}  // namespace fe::dp
