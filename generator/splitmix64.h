// Seeded, specified PRNG: SplitMix64 (Steele, Lea, Flood 2014), written out so every standard
// library and language produces the same stream. Never std:: distributions. The corpus's seeded
// samples (vectors/FORMAT.md), the encode.* sweep domains and the tests' seeded cases all draw
// from this one definition.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace nc::gen {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by rejection, so the stream is the same on every platform.
  uint64_t below(uint64_t bound) {
    if (bound == 0) throw std::logic_error("SplitMix64::below(0)");
    // Reject the low (2^64 mod bound) values so that r % bound is uniform.
    const uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      uint64_t r = next();
      if (r >= threshold) return r % bound;
    }
  }

 private:
  uint64_t state_;
};

}  // namespace nc::gen
