// Whether a switch's shared buffer can admit a frame at all: asked of the MMU's own admission
// code (cong::BufferAdmission) on an empty buffer, where a lossy queue's dynamic threshold is at
// its highest. A frame refused there is refused always: its flow can never be delivered.
#pragma once

#include <cstdint>
#include <string>

#include "congestion/buffer_admission.h"

namespace fe::control {

// True when an empty buffer of `config` admits a frame of frame_bytes (FCS included) to a queue
// of priority prio. Lossless priorities always admit (their headroom takes what the threshold
// does not).
bool AdmitsOnEmptyBuffer(const cong::BufferConfig& config, uint8_t prio, uint32_t frame_bytes);

// "alpha 1.52587890625e-05 x 16777216 shared bytes + 0 reserved = 256 bytes": the most a lossy
// queue of prio may hold while the buffer is empty, and what it comes from.
std::string EmptyQueueLimitText(const cong::BufferConfig& config, uint8_t prio);

}  // namespace fe::control
