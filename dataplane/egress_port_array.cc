#include "dataplane/egress_port_array.h"

#include <cassert>
#include <utility>

#include "core/prefault.h"

namespace fe::dp {

EgressPortArray::EgressPortArray(uint8_t priorities, size_t capacity)
    : stride_bytes_(static_cast<uint32_t>(EgressPort::StrideBytes(priorities))),
      priorities_(priorities),
      capacity_(capacity) {
  storage_ = static_cast<std::byte*>(
      ::operator new (capacity* stride_bytes_, std::align_val_t{alignof(EgressPort)}));
  // Every port of the fabric is built here, writing all of it.
  PrefaultForWrite(storage_, capacity * stride_bytes_);
}

EgressPortArray& EgressPortArray::operator=(EgressPortArray&& o) noexcept {
  Clear();
  storage_ = std::exchange(o.storage_, nullptr);
  stride_bytes_ = o.stride_bytes_;
  priorities_ = o.priorities_;
  size_ = std::exchange(o.size_, 0);
  capacity_ = std::exchange(o.capacity_, 0);
  return *this;
}

void EgressPortArray::Clear() {
  if (storage_ == nullptr) return;
  for (size_t i = 0; i < size_; ++i) At(storage_, i)->~EgressPort();
  ::operator delete (storage_, std::align_val_t{alignof(EgressPort)});
  storage_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

EgressPort& EgressPortArray::emplace_back(Scheduler* sched, Rate rate, Time delay) {
  assert(size_ < capacity_);
  EgressPort* p =
      new (storage_ + size_ * stride_bytes_) EgressPort(sched, rate, delay, priorities_);
  ++size_;
  return *p;
}

}  // namespace fe::dp
