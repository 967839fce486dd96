// Strong unit types. Time is kept in integer picoseconds so that serialisation at common link
// rates (100 Gb/s: 80 ps per byte) is exact and a run is bit-for-bit deterministic.
#pragma once

#include <cmath>
#include <compare>
#include <concepts>
#include <cstdint>
#include <limits>

namespace fe {

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time FromPs(int64_t ps) { return Time(ps); }
  template <std::integral T>
  static constexpr Time FromNs(T ns) {
    return Time(static_cast<int64_t>(ns) * 1000);
  }
  // Scenario times are nanoseconds as doubles: rounded to the nearest picosecond, so that
  // 0.0015 ns is 2 ps on every machine rather than whatever truncation gives.
  template <std::floating_point T>
  static Time FromNs(T ns) {
    return Time(std::llround(static_cast<double>(ns) * 1000.0));
  }
  static constexpr Time FromUs(int64_t us) { return Time(us * 1000000); }
  static constexpr Time FromMs(int64_t ms) { return Time(ms * 1000000000); }
  static constexpr Time FromSeconds(double s) { return Time(static_cast<int64_t>(s * 1e12 + 0.5)); }
  static constexpr Time Zero() { return Time(0); }
  static constexpr Time Infinite() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t ps() const { return ps_; }
  // Truncates towards zero; use ps() where sub-nanosecond precision matters.
  constexpr int64_t ns() const { return ps_ / 1000; }
  // Exact to the picosecond, for outputs that give times in ns.
  constexpr double fractional_ns() const { return static_cast<double>(ps_) / 1000.0; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  // Saturating: a sum or product past the largest time (2^63 ps, about 106 days) is Infinite
  // (and one below the smallest is the smallest), never a time wrapped around to the other end,
  // so a deadline far away stays in the future. Infinite plus any delay stays Infinite.
  constexpr Time operator+(Time o) const {
    int64_t r = 0;
    return __builtin_add_overflow(ps_, o.ps_, &r) ? Saturated(o.ps_ > 0) : Time(r);
  }
  constexpr Time operator-(Time o) const {
    int64_t r = 0;
    return __builtin_sub_overflow(ps_, o.ps_, &r) ? Saturated(o.ps_ < 0) : Time(r);
  }
  constexpr Time operator*(int64_t k) const {
    int64_t r = 0;
    return __builtin_mul_overflow(ps_, k, &r) ? Saturated((ps_ > 0) == (k > 0)) : Time(r);
  }
  constexpr Time& operator+=(Time o) { return *this = *this + o; }
  constexpr Time& operator-=(Time o) { return *this = *this - o; }
  constexpr auto operator<=>(const Time&) const = default;

 private:
  constexpr explicit Time(int64_t ps) : ps_(ps) {}
  static constexpr Time Saturated(bool up) {
    return up ? Infinite() : Time(std::numeric_limits<int64_t>::min());
  }
  int64_t ps_ = 0;
};

// A data rate in bits per second.
class Rate {
 public:
  constexpr Rate() = default;
  static constexpr Rate FromBps(int64_t bps) { return Rate(bps); }
  static constexpr Rate FromMbps(double mbps) { return Rate(static_cast<int64_t>(mbps * 1e6)); }
  static constexpr Rate FromGbps(double gbps) { return Rate(static_cast<int64_t>(gbps * 1e9)); }

  constexpr int64_t bps() const { return bps_; }
  constexpr double gbps() const { return static_cast<double>(bps_) * 1e-9; }

  // Time to put size_bytes on the wire at this rate, rounded up to the picosecond so a link
  // never runs faster than its rate.
  constexpr Time SerializationTime(int64_t size_bytes) const {
    // Frames (below 1 MiB) fit a 64-bit dividend: a hardware divide instead of a 128-bit call.
    if (size_bytes >= 0 && size_bytes < (int64_t{1} << 20)) {
      const uint64_t bits_x_ps = static_cast<uint64_t>(size_bytes) * 8 * 1000000000000ULL;
      const auto bps = static_cast<uint64_t>(bps_);
      return Time::FromPs(static_cast<int64_t>((bits_x_ps + bps - 1) / bps));
    }
    const __int128 num = static_cast<__int128>(size_bytes) * 8 * 1000000000000LL;
    return Time::FromPs(static_cast<int64_t>((num + bps_ - 1) / bps_));
  }
  // Picoseconds per byte when that is a whole number (100 Gb/s: 80), else 0. Then
  // SerializationTime(n) is exactly n times it: a multiply where the general case divides.
  constexpr int64_t WholePsPerByte() const {
    constexpr int64_t kBitPsPerByte = 8 * 1000000000000LL;
    return bps_ > 0 && kBitPsPerByte % bps_ == 0 ? kBitPsPerByte / bps_ : 0;
  }
  // Bytes that fit in duration at this rate (rounded down).
  constexpr int64_t BytesIn(Time duration) const {
    const __int128 num = static_cast<__int128>(duration.ps()) * bps_;
    return static_cast<int64_t>(num / (8 * 1000000000000LL));
  }

  constexpr auto operator<=>(const Rate&) const = default;

 private:
  constexpr explicit Rate(int64_t bps) : bps_(bps) {}
  int64_t bps_ = 0;
};

}  // namespace fe
