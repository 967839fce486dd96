// A small deterministic pseudo-random generator: xoshiro256** seeded through splitmix64.
//
// Every random choice in the emulator (traffic, WRED marks, ECMP salts) draws from one of these,
// never from std:: distributions: their algorithms are unspecified and differ between standard
// libraries, which would break "same scenario + seed -> same bytes" across machines. Both
// generators are the public-domain reference algorithms of Blackman and Vigna
// (https://prng.di.unimi.it/); an object holds all its state, so independent streams coexist.
#pragma once

#include <cassert>
#include <cstdint>

namespace fe {

// splitmix64: a 64-bit state advanced by a Weyl sequence and mixed. Used to expand one seed into
// the 256-bit xoshiro state, as the xoshiro authors recommend.
class SplitMix64 {
 public:
  constexpr explicit SplitMix64(uint64_t state) : state_(state) {}

  constexpr uint64_t NextU64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

// xoshiro256**: 256 bits of state, period 2^256 - 1, passes BigCrush; a few ns per draw.
class Random {
 public:
  constexpr explicit Random(uint64_t seed) {
    SplitMix64 expand(seed);
    for (uint64_t& word : s_) word = expand.NextU64();
  }

  // Starts from an explicit state, e.g. to reproduce the published reference vectors. The
  // all-zero state is a fixed point and must not be used.
  static constexpr Random FromState(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) {
    Random r(0);
    r.s_[0] = s0;
    r.s_[1] = s1;
    r.s_[2] = s2;
    r.s_[3] = s3;
    return r;
  }

  constexpr uint64_t NextU64() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1): the top 53 bits fill a double's mantissa exactly, so every value is a
  // multiple of 2^-53 and 1.0 is never returned.
  constexpr double NextUnitDouble() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }

  // Uniform in [0, n) without modulo bias, by Lemire's multiply-and-reject method ("Fast Random
  // Integer Generation in an Interval", ACM TOMACS 2019): the high word of x * n is the result,
  // and draws whose low word falls in the 2^64 mod n short slice are rejected. n must be > 0.
  constexpr uint64_t NextBelow(uint64_t n) {
    assert(n > 0);
    unsigned __int128 m = static_cast<unsigned __int128>(NextU64()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        m = static_cast<unsigned __int128>(NextU64()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

 private:
  static constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t s_[4] = {};
};

}  // namespace fe
