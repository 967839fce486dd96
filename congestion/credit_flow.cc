#include "congestion/credit_flow.h"

namespace fe::cong {

int64_t DefaultCreditBufferBytes(Rate rate, Time delay, Time update_delay,
                                 uint32_t max_frame_bytes) {
  const Time loop = rate.SerializationTime(max_frame_bytes) + delay + delay + update_delay;
  return rate.BytesIn(loop) + 2 * int64_t{max_frame_bytes};
}

}  // namespace fe::cong
