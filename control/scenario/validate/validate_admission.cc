#include "control/scenario/validate/validate_admission.h"

#include "control/scenario/admission_check.h"
#include "dataplane/roce_headers.h"

namespace fe::control {

bool CheckAdmitsFullFrames(Validation& v, const Site& settings, const topo::Node& node,
                           const dp::SwitchConfig& config, uint32_t mtu_payload_bytes) {
  const uint32_t frame_bytes = dp::RoceFrameBytes(mtu_payload_bytes);
  for (uint8_t prio = 0; prio < cong::kNumPriorities; ++prio) {
    if (AdmitsOnEmptyBuffer(config.buffer, prio, frame_bytes)) continue;
    const std::string message =
        "switch " + node.name + " drops every " + std::to_string(frame_bytes) +
        "-byte frame (nic.mtu_payload_bytes " + std::to_string(mtu_payload_bytes) +
        " plus headers) of priority " + std::to_string(prio) +
        ": the priority is lossy and even on an empty buffer its queue holds at most " +
        EmptyQueueLimitText(config.buffer, prio) +
        "; raise the queue's alpha or reserved_bytes, or make the priority lossless with pfc";
    const fabric_emu::SwitchConfig& sw = v.scenario.switch_();
    const Site section = v.root.Nested(fabric_emu::Scenario::kSwitchFieldNumber);
    for (int i = 0; i < sw.queue_size(); ++i) {
      if (sw.queue(i).priority() != prio) continue;
      v.out.Add(section.Nested(fabric_emu::SwitchConfig::kQueueFieldNumber, i),
                fabric_emu::QueueConfig::kAlphaFieldNumber, message);
      return false;
    }
    v.out.AddWhole(settings, message);
    return false;
  }
  return true;
}

}  // namespace fe::control
