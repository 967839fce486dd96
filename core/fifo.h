// A growable ring-buffer FIFO for trivially copyable items (packet handles, in-flight records).
// Capacity doubles when full and never shrinks, so a steady state allocates nothing.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace fe {

template <typename T>
class Fifo {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  Fifo() = default;
  Fifo(Fifo&&) noexcept = default;
  Fifo& operator=(Fifo&&) noexcept = default;

  bool empty() const { return head_ == tail_; }
  size_t size() const { return tail_ - head_; }
  size_t capacity() const { return size_t{mask_} + 1; }

  void push(const T& v) {
    if (size() == capacity() || !buf_) Grow();
    buf_[tail_++ & mask_] = v;
  }
  T& front() { return buf_[head_ & mask_]; }
  const T& front() const { return buf_[head_ & mask_]; }
  T pop() { return buf_[head_++ & mask_]; }
  // i-th item from the front (0 = front); for scans such as draining at teardown.
  const T& at(size_t i) const { return buf_[(head_ + i) & mask_]; }

 private:
  void Grow() {
    const size_t new_cap = buf_ ? 2 * capacity() : 8;
    assert(new_cap <= (size_t{1} << 31));
    std::unique_ptr<T[]> nb(new T[new_cap]);
    const size_t n = size();
    for (size_t i = 0; i < n; ++i) nb[i] = buf_[(head_ + i) & mask_];
    buf_ = std::move(nb);
    head_ = 0;
    tail_ = static_cast<uint32_t>(n);
    mask_ = static_cast<uint32_t>(new_cap - 1);
  }

  // 32-bit positions keep a FIFO at 16 bytes plus its buffer pointer, so a port's hot lines
  // hold more; they wrap harmlessly (tail - head is the size up to 2^31 items).
  std::unique_ptr<T[]> buf_;
  uint32_t head_ = 0;
  uint32_t tail_ = 0;
  uint32_t mask_ = 0;
};

}  // namespace fe
