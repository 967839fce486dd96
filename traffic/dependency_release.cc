#include "traffic/dependency_release.h"

#include <algorithm>
#include <string>

namespace fe {

StatusOr<std::unique_ptr<DependencyRelease>> DependencyRelease::Create(const Workload& w,
                                                                       dp::Fabric* fabric) {
  const dp::MessageTable& messages = fabric->messages();
  const auto n = static_cast<uint32_t>(w.size());
  if (messages.size() != n) {
    return Status::Error("the fabric holds " + std::to_string(messages.size()) +
                         " messages, the workload " + std::to_string(n));
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (messages.spec(i).held != !w.dependencies(i).empty()) {
      return Status::Error("message " + std::to_string(i) +
                           (messages.spec(i).held ? " is held but waits for nothing"
                                                  : " waits for others but is not held"));
    }
  }
  std::unique_ptr<DependencyRelease> r(new DependencyRelease(fabric));
  const Time lookahead = fabric->lookahead();
  r->first_edge_.assign(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    for (const uint32_t d : w.dependencies(i)) ++r->first_edge_[d + 1];
  }
  for (uint32_t i = 0; i < n; ++i) r->first_edge_[i + 1] += r->first_edge_[i];
  r->edges_.resize(w.after.size());
  std::vector<uint32_t> fill(r->first_edge_.begin(), r->first_edge_.end() - 1);
  r->left_.resize(n);
  r->ready_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    r->left_[i] = static_cast<uint32_t>(w.dependencies(i).size());
    r->ready_[i] = w.flows[i].start;
    for (const uint32_t d : w.dependencies(i)) {
      // Delivered where i is sent from, the notice is local; anywhere else it crosses a link.
      const bool local = w.flows[d].dst_host == w.flows[i].src_host;
      r->edges_[fill[d]++] = Edge{i, local ? w.delay[i] : std::max(w.delay[i], lookahead)};
      if (local && w.delay[i] < lookahead) r->within_lookahead_ = true;
    }
  }
  r->dead_.assign(n, 0);
  r->fate_.assign(n, 0);
  fabric->SetMessageObserver(r.get());
  return r;
}

DependencyRelease::~DependencyRelease() { fabric_->SetMessageObserver(nullptr); }

void DependencyRelease::OnDelivered(uint32_t id, Time at) {
  // On a lane the report comes as it happens: `at` is the lane's now when the call runs.
  if (fabric_->scheduler()->on_lane()) {
    fabric_->scheduler()->Serial(&notices_, uint64_t{id} << 1);
  } else {
    Delivered(id, at);
  }
}

void DependencyRelease::OnGivenUp(uint32_t id) {
  if (fabric_->scheduler()->on_lane()) {
    fabric_->scheduler()->Serial(&notices_, (uint64_t{id} << 1) | 1);
  } else {
    GivenUp(id);
  }
}

void DependencyRelease::Notices::OnEvent(uint64_t arg) {
  const auto id = static_cast<uint32_t>(arg >> 1);
  if ((arg & 1) != 0) {
    r_->GivenUp(id);
  } else {
    r_->Delivered(id, r_->fabric_->scheduler()->Now());
  }
}

void DependencyRelease::Delivered(uint32_t id, Time at) {
  uint8_t& fate = fate_[id];
  if (fate & kDelivered) return;
  if (fate & kGivenUp) {
    for (const Edge& e : dependants(id)) Unblock(e.dependant);
  }
  fate |= kDelivered;
  for (const Edge& e : dependants(id)) {
    const uint32_t x = e.dependant;
    ready_[x] = std::max(ready_[x], at + e.wait);
    if (--left_[x] == 0) {
      fabric_->Release(x, ready_[x]);
      ++releases_;
    }
  }
}

void DependencyRelease::GivenUp(uint32_t id) {
  uint8_t& fate = fate_[id];
  if (fate != 0) return;  // delivered already (only the ACK was missing), or given up before
  fate = kGivenUp;
  for (const Edge& e : dependants(id)) Block(e.dependant);
}

void DependencyRelease::Block(uint32_t id) {
  stack_.push_back(id);
  while (!stack_.empty()) {
    const uint32_t x = stack_.back();
    stack_.pop_back();
    if (dead_[x]++ != 0) continue;  // blocked already, and so are its dependants
    fabric_->SetCancelled(x, true);
    for (const Edge& e : dependants(x)) stack_.push_back(e.dependant);
  }
}

void DependencyRelease::Unblock(uint32_t id) {
  stack_.push_back(id);
  while (!stack_.empty()) {
    const uint32_t x = stack_.back();
    stack_.pop_back();
    if (--dead_[x] != 0) continue;  // another dependency still blocks it
    fabric_->SetCancelled(x, false);
    for (const Edge& e : dependants(x)) stack_.push_back(e.dependant);
  }
}

}  // namespace fe
