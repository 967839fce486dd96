#include "congestion/wred.h"

#include <cmath>
#include <limits>
#include <string>

namespace fe::cong {

StatusOr<WredConfig> Compile(const WredParams& params) {
  WredConfig config;
  config.mark_at_dequeue = params.mark_at_dequeue;
  if (!params.enabled) {
    config.kmin_bytes = config.kmax_bytes = std::numeric_limits<int64_t>::max();
    return config;
  }
  if (params.kmin_bytes < 0) {
    return Status::Error("kmin_bytes (" + std::to_string(params.kmin_bytes) + ") < 0");
  }
  if (params.kmin_bytes > params.kmax_bytes) {
    return Status::Error("kmin_bytes (" + std::to_string(params.kmin_bytes) + ") > kmax_bytes (" +
                         std::to_string(params.kmax_bytes) + ")");
  }
  // Written so that NaN fails too.
  if (!(params.pmax >= 0.0 && params.pmax <= 1.0)) {
    return Status::Error("pmax (" + std::to_string(params.pmax) + ") outside [0, 1]");
  }
  config.kmin_bytes = params.kmin_bytes;
  config.kmax_bytes = params.kmax_bytes;
  const int64_t band_bytes = params.kmax_bytes - params.kmin_bytes;
  if (band_bytes > 0) {
    // pmax = 1 over a one-byte band is exactly 2^64: saturate (an error of 2^-64).
    const long double slope = std::ldexp(static_cast<long double>(params.pmax), 64) / band_bytes;
    config.slope = slope >= 0x1p64L ? std::numeric_limits<uint64_t>::max()
                                    : static_cast<uint64_t>(std::roundl(slope));
  }
  return config;
}

}  // namespace fe::cong
