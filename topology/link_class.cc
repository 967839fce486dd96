#include "topology/link_class.h"

#include <cmath>
#include <unordered_map>

#include "topology/field_error.h"
#include "topology/limits.h"

namespace fe::topo {

double DefaultPjPerBit(Media media) {
  // Per link end: the module or the engine's share, not the switch's own SerDes. 800G figures,
  // W / 800 Gb/s; docs/topology.md gives the sources.
  switch (media) {
    case Media::kDac:
      return 0;  // passive copper draws nothing itself
    case Media::kAoc:
      return 15;  // a short-reach transceiver fixed to each end, ~12 W
    case Media::kPluggable:
      return 18;  // DSP modules, 14-16 W
    case Media::kLpo:
      return 10;  // linear drive, no DSP, 8-9 W
    case Media::kCpo:
      return 7;  // co-packaged engines, 5.5 W per 800G port (51.2T, 2023)
  }
  return 0;
}

const char* MediaName(Media media) {
  switch (media) {
    case Media::kDac:
      return "DAC";
    case Media::kAoc:
      return "AOC";
    case Media::kPluggable:
      return "PLUGGABLE";
    case Media::kLpo:
      return "LPO";
    case Media::kCpo:
      return "CPO";
  }
  return "?";
}

namespace {

StatusOr<Media> ToMedia(fabric_emu::Media media, const std::string& path) {
  switch (media) {
    case fabric_emu::DAC:
      return Media::kDac;
    case fabric_emu::AOC:
      return Media::kAoc;
    case fabric_emu::PLUGGABLE:
      return Media::kPluggable;
    case fabric_emu::LPO:
      return Media::kLpo;
    case fabric_emu::CPO:
      return Media::kCpo;
    default:
      return FieldError(path, "choose DAC, AOC, PLUGGABLE, LPO or CPO");
  }
}

StatusOr<CreditFlowControl> ToCreditFlowControl(const fabric_emu::CreditFlowControl& proto,
                                                const std::string& path) {
  CreditFlowControl c;
  if (proto.has_buffer_bytes()) {
    // One jumbo frame at least: a smaller buffer could never take a frame.
    Status s =
        CheckRange(FieldPath(path, "buffer_bytes"), static_cast<double>(proto.buffer_bytes()),
                   kMinCreditBufferBytes, static_cast<double>(kMaxCreditBufferBytes),
                   "bytes per priority: at least a 9216-byte jumbo frame, at most 1 GiB");
    if (!s.ok()) return s;
    c.buffer_bytes = proto.buffer_bytes();
  }
  Status s = CheckRange(FieldPath(path, "update_delay_ns"), proto.update_delay_ns(), 0,
                        kMaxCreditTimeNs, "in ns, up to 1 ms");
  if (!s.ok()) return s;
  c.update_delay = Time::FromNs(proto.update_delay_ns());
  // Below 10 ns a blocked sender would flood the link with resync requests.
  s = CheckRange(FieldPath(path, "resync_period_ns"), proto.resync_period_ns(), 10,
                 kMaxCreditTimeNs, "in ns, from 10 ns up to 1 ms");
  if (!s.ok()) return s;
  c.resync_period = Time::FromNs(proto.resync_period_ns());
  const double p = proto.update_loss_probability();
  if (!(p >= 0 && p < 1)) {
    return FieldError(FieldPath(path, "update_loss_probability"),
                      "a probability in [0, 1): at 1 no credit ever returns");
  }
  c.update_loss_probability = p;
  return c;
}

}  // namespace

StatusOr<LinkClass> ToLinkClass(const fabric_emu::LinkClass& proto, const std::string& path) {
  LinkClass c;
  c.name = proto.name();
  if (c.name.empty()) return FieldError(FieldPath(path, "name"), "demanded: a non-empty name");

  const std::string rate_path = FieldPath(path, "rate_gbps");
  if (!proto.has_rate_gbps()) return FieldError(rate_path, "demanded: the link rate in Gb/s");
  Status s = CheckRange(rate_path, proto.rate_gbps(), kMinLinkRateGbps, kMaxLinkRateGbps,
                        "in Gb/s: 1 Mb/s up to 1600, the fastest Ethernet rate");
  if (!s.ok()) return s;
  c.rate = Rate::FromGbps(proto.rate_gbps());

  if (proto.has_delay_ns() && proto.has_length_m()) {
    return FieldError(FieldPath(path, "length_m"), "give delay_ns or length_m, not both");
  }
  double delay_ns = 0;
  if (proto.has_delay_ns()) {
    s = CheckRange(FieldPath(path, "delay_ns"), proto.delay_ns(), 0, kMaxLinkDelayNs,
                   "in ns: 1 s is 200,000 km of fibre");
    if (!s.ok()) return s;
    delay_ns = proto.delay_ns();
  } else if (proto.has_length_m()) {
    s = CheckRange(FieldPath(path, "length_m"), proto.length_m(), 0, kMaxLinkDelayNs / kNsPerMetre,
                   "in metres, at 5 ns/m up to a 1 s delay");
    if (!s.ok()) return s;
    delay_ns = proto.length_m() * kNsPerMetre;
  }
  c.delay = Time::FromNs(delay_ns);

  StatusOr<Media> media = ToMedia(proto.media(), FieldPath(path, "media"));
  if (!media.ok()) return media.status();
  c.media = *media;

  c.pj_per_bit = DefaultPjPerBit(c.media);
  if (proto.has_pj_per_bit()) {
    s = CheckRange(FieldPath(path, "pj_per_bit"), proto.pj_per_bit(), 0, kMaxPjPerBit,
                   "per link end: real optics draw a few tens");
    if (!s.ok()) return s;
    c.pj_per_bit = proto.pj_per_bit();
  }

  if (c.media == Media::kCpo) {
    c.ports_per_engine = kDefaultPortsPerEngine;
    if (proto.has_ports_per_engine()) {
      s = CheckRange(FieldPath(path, "ports_per_engine"), proto.ports_per_engine(), 1,
                     kMaxPortsPerSwitch, "switch ports per optical engine");
      if (!s.ok()) return s;
      c.ports_per_engine = static_cast<uint32_t>(proto.ports_per_engine());
    }
  } else if (proto.has_ports_per_engine()) {
    return FieldError(FieldPath(path, "ports_per_engine"),
                      "only a CPO class shares optical engines between ports");
  }

  s = CheckRange(FieldPath(path, "bit_error_rate"), proto.bit_error_rate(), 0, kMaxBitErrorRate,
                 "per bit: at 1e-3 nearly every jumbo frame is lost already");
  if (!s.ok()) return s;
  c.bit_error_rate = proto.bit_error_rate();

  if (proto.flow_control() == fabric_emu::CREDIT) {
    StatusOr<CreditFlowControl> credit =
        ToCreditFlowControl(proto.credit(), FieldPath(path, "credit"));
    if (!credit.ok()) return credit.status();
    c.credit = *credit;
  } else if (proto.flow_control() != fabric_emu::PFC) {
    return FieldError(FieldPath(path, "flow_control"), "choose PFC or CREDIT");
  } else if (proto.has_credit()) {
    return FieldError(FieldPath(path, "credit"),
                      "only a class with flow_control: CREDIT has credits");
  }
  return c;
}

Status AddLinkClasses(const google::protobuf::RepeatedPtrField<fabric_emu::LinkClass>& classes,
                      Graph& graph) {
  if (classes.size() > kMaxLinkClasses) {
    return FieldError("link_class", "at most " + std::to_string(kMaxLinkClasses) +
                                        " classes, got " + std::to_string(classes.size()));
  }
  std::unordered_map<std::string, int> index_of;
  for (int i = 0; i < classes.size(); ++i) {
    const std::string path = FieldPath("", "link_class", i);
    StatusOr<LinkClass> c = ToLinkClass(classes[i], path);
    if (!c.ok()) return c.status();
    const auto [it, fresh] = index_of.emplace(c->name, i);
    if (!fresh) {
      return FieldError(FieldPath(path, "name"), Quoted(c->name) +
                                                     " is already the name of link_class[" +
                                                     std::to_string(it->second) + "]");
    }
    graph.AddLinkClass(std::move(c).value());
  }
  return Status::Ok();
}

StatusOr<LinkClassId> FindLinkClass(const Graph& graph, const std::string& name,
                                    const std::string& path) {
  if (name.empty()) return FieldError(path, "demanded: the name of a link_class");
  const auto& classes = graph.link_classes();
  for (size_t i = 0; i < classes.size(); ++i) {
    if (classes[i].name == name) return static_cast<LinkClassId>(i);
  }
  return FieldError(path, "no link_class is named " + Quoted(name));
}

}  // namespace fe::topo
