#include "dataplane/psn_window.h"

#include <algorithm>
#include <cstddef>

namespace fe::dp {

uint32_t PsnWindows::Acquire() {
  if (!free_.empty()) {
    const uint32_t w = free_.back();
    free_.pop_back();
    return w;
  }
  const auto w = static_cast<uint32_t>(set_.size());
  set_.push_back(0);
  bits_.resize(bits_.size() + words_, 0);
  return w;
}

void PsnWindows::Release(uint32_t w) {
  std::fill_n(bits_.begin() + static_cast<std::ptrdiff_t>(std::size_t{w} * words_), words_, 0);
  set_[w] = 0;
  free_.push_back(w);
}

}  // namespace fe::dp
