// A receiver that records when each frame arrives (by the scheduler's clock) and frees it.
#pragma once

#include <rte_mbuf.h>

#include <vector>

#include "core/scheduler.h"
#include "dataplane/element.h"

namespace fe::dp::testing {

struct ArrivalSink : PacketReceiver {
  explicit ArrivalSink(Scheduler* s) : sched(s) {}
  void Receive(uint16_t, rte_mbuf* m) override {
    arrivals.push_back(sched->Now());
    rte_pktmbuf_free(m);
  }
  Scheduler* sched;
  std::vector<Time> arrivals;
};

}  // namespace fe::dp::testing
