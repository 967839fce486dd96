// Rules between the fields of a switch configuration, on the layers in force for a set of
// switches: XON below XOFF, kmin below kmax, reserves and headroom within the buffer.
#include <algorithm>
#include <optional>
#include <utility>

#include "control/scenario/validate/validate_switch.h"

namespace fe::control {
namespace {

using fabric_emu::Pfc;
using fabric_emu::QueueConfig;
using fabric_emu::SwitchConfig;
using fabric_emu::Wred;

constexpr int kRoceLosslessPriority = 3;

// Where the effective value of a switch field comes from, given the layers in force (the
// scenario-wide config, then possibly a tier override): the topmost layer that sets it, else
// the schema default.
template <typename T>
struct Effective {
  T value{};
  int layer = -1;            // -1: the schema default
  std::optional<Site> site;  // the message that sets it
};

// find(layer) yields the sub-message of a layer (and its site) when the layer has it.
template <typename T, typename Find, typename Has, typename Get>
Effective<T> Resolve(const std::vector<SwitchLayer>& layers, Find find, Has has, Get get,
                     T schema_default) {
  for (int i = static_cast<int>(layers.size()) - 1; i >= 0; --i) {
    const auto found = find(layers[i]);
    if (found && has(*found->first)) return {get(*found->first), i, found->second};
  }
  return {schema_default, -1, std::nullopt};
}

std::optional<std::pair<const QueueConfig*, Site>> QueueOf(const SwitchLayer& layer, int priority) {
  for (int i = 0; i < layer.config->queue_size(); ++i) {
    if (layer.config->queue(i).priority() == priority) {
      return std::make_pair(&layer.config->queue(i),
                            layer.site.Nested(SwitchConfig::kQueueFieldNumber, i));
    }
  }
  return std::nullopt;
}

std::optional<std::pair<const Wred*, Site>> WredOf(const SwitchLayer& layer, int priority) {
  const auto queue = QueueOf(layer, priority);
  if (!queue || !queue->first->has_wred()) return std::nullopt;
  return std::make_pair(&queue->first->wred(), queue->second.Nested(QueueConfig::kWredFieldNumber));
}

std::optional<std::pair<const Pfc*, Site>> PfcOf(const SwitchLayer& layer) {
  if (!layer.config->has_pfc()) return std::nullopt;
  return std::make_pair(&layer.config->pfc(), layer.site.Nested(SwitchConfig::kPfcFieldNumber));
}

// Every port reserves reserved_bytes per queue, and headroom_bytes per lossless priority
// while PFC is on, out of one buffer. A computed headroom is not known here and not counted.
template <typename InvolvesTop>
void CheckBufferHoldsReserves(Validation& v, const std::vector<SwitchLayer>& layers,
                              const std::string& scope, int max_ports, InvolvesTop involves_top) {
  if (max_ports == 0) return;  // the port count comes from the topology
  const auto buffer = Resolve(
      layers,
      [](const SwitchLayer& l) { return std::make_optional(std::make_pair(l.config, l.site)); },
      [](const SwitchConfig& c) { return c.has_buffer_bytes(); },
      [](const SwitchConfig& c) { return c.buffer_bytes(); },
      SwitchConfig::default_instance().buffer_bytes());
  const auto pfc_on = Resolve(
      layers, PfcOf, [](const Pfc& p) { return p.has_enabled(); },
      [](const Pfc& p) { return p.enabled(); }, Pfc::default_instance().enabled());
  const auto headroom = Resolve(
      layers, PfcOf, [](const Pfc& p) { return p.has_headroom_bytes(); },
      [](const Pfc& p) { return p.headroom_bytes(); }, int64_t{0});
  int last_layer = std::max({buffer.layer, pfc_on.layer, headroom.layer});
  double per_port_bytes = 0;  // double: a sum of int64 values must not overflow
  for (int p = 0; p < kPriorities; ++p) {
    const auto queue_of = [p](const SwitchLayer& l) { return QueueOf(l, p); };
    const auto reserved = Resolve(
        layers, queue_of, [](const QueueConfig& q) { return q.has_reserved_bytes(); },
        [](const QueueConfig& q) { return q.reserved_bytes(); },
        QueueConfig::default_instance().reserved_bytes());
    const auto lossless = Resolve(
        layers, queue_of, [](const QueueConfig& q) { return q.has_lossless(); },
        [](const QueueConfig& q) { return q.lossless(); }, p == kRoceLosslessPriority);
    per_port_bytes += static_cast<double>(reserved.value);
    if (pfc_on.value && lossless.value) per_port_bytes += static_cast<double>(headroom.value);
    last_layer = std::max({last_layer, reserved.layer, lossless.layer});
  }
  const double need_bytes = per_port_bytes * max_ports;
  if (static_cast<double>(buffer.value) >= need_bytes || !involves_top({last_layer})) return;
  const std::string message =
      "must hold the reserves of all " + std::to_string(max_ports) + " ports, " +
      std::to_string(max_ports) + " x " + Num(per_port_bytes) + " = " + Num(need_bytes) +
      " bytes (queue reserved_bytes, plus pfc.headroom_bytes per lossless priority), got " +
      Num(buffer.value) + scope;
  v.out.Add(buffer.site ? *buffer.site : layers.back().site, SwitchConfig::kBufferBytesFieldNumber,
            message);
}

}  // namespace

// Rules between fields, on the configuration the switches of one tier actually get. With a
// tier override in force, only errors the override takes part in are reported: those of the
// scenario-wide config alone were reported on their own.
void CheckSwitchConsistency(Validation& v, const std::vector<SwitchLayer>& layers,
                            const std::string& scope, int max_ports) {
  const int top = static_cast<int>(layers.size()) - 1;
  const auto involves_top = [&](std::initializer_list<int> used) {
    return top == 0 || std::max(used) == top;
  };
  // Reports at the setting of the value from the topmost layer.
  const auto report = [&](const auto& a, int a_field, const auto& b, int b_field,
                          const std::string& message_at_a, const std::string& message_at_b) {
    if (a.layer >= b.layer && a.site) {
      v.out.Add(*a.site, a_field, message_at_a + scope);
    } else if (b.site) {
      v.out.Add(*b.site, b_field, message_at_b + scope);
    }
  };

  // Unset thresholds resolve to -1: a dynamic XOFF, an XON relative to it.
  const auto xoff = Resolve(
      layers, PfcOf, [](const Pfc& p) { return p.has_xoff_bytes(); },
      [](const Pfc& p) { return p.xoff_bytes(); }, int64_t{-1});
  const auto xon = Resolve(
      layers, PfcOf, [](const Pfc& p) { return p.has_xon_bytes(); },
      [](const Pfc& p) { return p.xon_bytes(); }, int64_t{-1});
  if (xon.site && !xoff.site && involves_top({xon.layer})) {
    v.out.Add(*xon.site, Pfc::kXonBytesFieldNumber,
              "needs a static xoff_bytes: a dynamic XOFF moves, so XON is given as "
              "xon_offset_bytes below it" +
                  scope);
  } else if (xon.site && xoff.site && xon.value > xoff.value &&
             involves_top({xon.layer, xoff.layer})) {
    report(xon, Pfc::kXonBytesFieldNumber, xoff, Pfc::kXoffBytesFieldNumber,
           "must be <= xoff_bytes (" + Num(xoff.value) + "), got " + Num(xon.value),
           "must be >= xon_bytes (" + Num(xon.value) + "), got " + Num(xoff.value));
  }

  const Wred& wred_default = Wred::default_instance();
  for (int p = 0; p < kPriorities; ++p) {
    const auto wred_of = [p](const SwitchLayer& l) { return WredOf(l, p); };
    const auto kmin = Resolve(
        layers, wred_of, [](const Wred& w) { return w.has_kmin_bytes(); },
        [](const Wred& w) { return w.kmin_bytes(); }, wred_default.kmin_bytes());
    const auto kmax = Resolve(
        layers, wred_of, [](const Wred& w) { return w.has_kmax_bytes(); },
        [](const Wred& w) { return w.kmax_bytes(); }, wred_default.kmax_bytes());
    if (kmin.value > kmax.value && involves_top({kmin.layer, kmax.layer})) {
      report(kmin, Wred::kKminBytesFieldNumber, kmax, Wred::kKmaxBytesFieldNumber,
             "must be <= kmax_bytes (" + Num(kmax.value) + "), got " + Num(kmin.value),
             "must be >= kmin_bytes (" + Num(kmin.value) + "), got " + Num(kmax.value));
    }
  }

  CheckBufferHoldsReserves(v, layers, scope, max_ports, involves_top);
}

}  // namespace fe::control
