#include "congestion/cnp_pacer.h"

#include <string>

namespace fe::cong {

StatusOr<CnpPacerConfig> Compile(const CnpPacerParams& params) {
  if (params.min_interval < Time::Zero()) {
    return Status::Error("cnp_pacer.min_interval: must not be negative, got " +
                         std::to_string(params.min_interval.ps()) + " ps");
  }
  return CnpPacerConfig{params.min_interval};
}

}  // namespace fe::cong
