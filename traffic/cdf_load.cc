#include "traffic/cdf_load.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/random.h"

namespace fe {

double CdfLoadArrivalsPerSecond(double load, Rate host_link_rate, const FlowSizeCdf& sizes) {
  return load * static_cast<double>(host_link_rate.bps()) / (8 * sizes.MeanBytes());
}

StatusOr<std::vector<Flow>> MakeCdfLoad(const CdfLoadParams& p, const FlowSizeCdf& sizes) {
  if (p.host_link_rates.size() < 2) return Status::Error("cdf load needs at least 2 hosts");
  if (p.host_link_rates.size() > std::numeric_limits<uint32_t>::max()) {
    return Status::Error("cdf load has more hosts than host indices");
  }
  const auto num_hosts = static_cast<uint32_t>(p.host_link_rates.size());
  // Cumulative link rates: an arrival belongs to the host whose share of the sum it falls in.
  std::vector<int64_t> cumulative_bps;
  cumulative_bps.reserve(num_hosts);
  int64_t total_bps = 0;
  for (const Rate r : p.host_link_rates) {
    if (r.bps() <= 0) return Status::Error("cdf load host link rate must be positive");
    if (r.bps() > std::numeric_limits<int64_t>::max() - total_bps) {
      return Status::Error("cdf load host link rates sum past 2^63 b/s");
    }
    total_bps += r.bps();
    cumulative_bps.push_back(total_bps);
  }
  const bool one_rate = std::all_of(p.host_link_rates.begin(), p.host_link_rates.end(),
                                    [&](Rate r) { return r.bps() == p.host_link_rates[0].bps(); });
  if (!(p.load > 0 && p.load <= 1)) return Status::Error("cdf load must be within (0, 1]");
  if (p.duration < Time::Zero()) return Status::Error("cdf load duration is negative");
  if (p.duration == Time::Zero() && p.max_flows == 0) {
    return Status::Error("cdf load needs a duration or a flow count, or it never ends");
  }
  if (sizes.MeanBytes() <= 0) return Status::Error("cdf load flow-size mean must be positive");

  // Summed as n x one host's rate when the rates agree: the arrivals of such a fabric stay those
  // it always had, to the last bit.
  const double total_per_second =
      one_rate ? num_hosts * CdfLoadArrivalsPerSecond(p.load, p.host_link_rates[0], sizes)
               : CdfLoadArrivalsPerSecond(p.load, Rate::FromBps(total_bps), sizes);
  const double total_per_ps = total_per_second * 1e-12;
  const Time end = p.duration == Time::Zero() ? Time::Infinite() : p.start + p.duration;
  const uint64_t max_flows = p.max_flows == 0 ? std::numeric_limits<uint64_t>::max() : p.max_flows;
  const uint64_t refuse_above =
      p.refuse_above == 0 ? uint64_t{std::numeric_limits<uint32_t>::max()} : p.refuse_above;

  Random rng(p.seed);
  std::vector<Flow> flows;
  Time t = p.start;
  while (flows.size() < max_flows) {
    // 1 - u lies in (0, 1], so the logarithm is finite. std::log is the one libm call on this
    // path: runs agree bit for bit wherever the same libm is linked.
    const double gap_ps = -std::log(1 - rng.NextUnitDouble()) / total_per_ps;
    // Compared before it becomes a Time too: at a tiny load the gap can exceed what a Time
    // holds. A gap of at least end - t (a whole number) rounds to at least that, so this test
    // ends the load where the one after the addition would.
    if (gap_ps >= static_cast<double>((end - t).ps())) break;
    t += Time::FromPs(std::llround(gap_ps));
    if (t >= end) break;
    if (flows.size() >= refuse_above) {
      return Status::Error("cdf load generates more than " + std::to_string(refuse_above) +
                           " flows; shorten duration_ns or lower load_fraction");
    }
    // With one rate the proportional choice is the uniform one, drawn as such for the same
    // reason.
    const uint32_t src =
        one_rate ? static_cast<uint32_t>(rng.NextBelow(num_hosts))
                 : static_cast<uint32_t>(
                       std::upper_bound(
                           cumulative_bps.begin(), cumulative_bps.end(),
                           static_cast<int64_t>(rng.NextBelow(static_cast<uint64_t>(total_bps)))) -
                       cumulative_bps.begin());
    uint32_t dst = static_cast<uint32_t>(rng.NextBelow(num_hosts - 1));
    if (dst >= src) ++dst;  // skip self, keeping the others equally likely
    flows.push_back(Flow{.id = static_cast<uint32_t>(flows.size()),
                         .src_host = src,
                         .dst_host = dst,
                         .size_bytes = sizes.Sample(rng),
                         .start = t});
  }
  return flows;
}

}  // namespace fe
