// Where a fabric's egress ports live: a port's size is known at run time only (its queues follow
// it), so ports are laid out one after another with a stride, not held in a vector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include "core/scheduler.h"
#include "core/units.h"
#include "dataplane/egress_port.h"

namespace fe::dp {

// Ports with queues for the same priorities, laid out one after another in one allocation.
// Never grows past the capacity it is made with: the ports' addresses are held elsewhere.
class EgressPortArray {
 public:
  EgressPortArray() = default;
  EgressPortArray(uint8_t priorities, size_t capacity);
  EgressPortArray(EgressPortArray&& o) noexcept { *this = std::move(o); }
  EgressPortArray& operator=(EgressPortArray&& o) noexcept;
  ~EgressPortArray() { Clear(); }

  EgressPort& emplace_back(Scheduler* sched, Rate rate, Time delay);
  EgressPort& operator[](size_t i) { return *At(storage_, i); }
  const EgressPort& operator[](size_t i) const { return *At(storage_, i); }
  size_t size() const { return size_; }
  uint32_t stride_bytes() const { return stride_bytes_; }

 private:
  EgressPort* At(std::byte* base, size_t i) const {
    return std::launder(reinterpret_cast<EgressPort*>(base + i * stride_bytes_));
  }
  void Clear();

  std::byte* storage_ = nullptr;
  uint32_t stride_bytes_ = 0;
  uint8_t priorities_ = 0;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// Consecutive ports of an EgressPortArray, indexed from 0.
class EgressPortSpan {
 public:
  EgressPortSpan() = default;
  EgressPortSpan(EgressPort* first, uint32_t stride_bytes, uint32_t size)
      : first_(reinterpret_cast<std::byte*>(first)), stride_bytes_(stride_bytes), size_(size) {}
  EgressPort& operator[](size_t i) const {
    return *std::launder(reinterpret_cast<EgressPort*>(first_ + i * stride_bytes_));
  }
  size_t size() const { return size_; }

 private:
  std::byte* first_ = nullptr;
  uint32_t stride_bytes_ = 0;
  uint32_t size_ = 0;
};

}  // namespace fe::dp
