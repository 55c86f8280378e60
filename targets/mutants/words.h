// Word helpers private to the mutant catalogue. Mutants must not borrow the codec's internals (a
// mutant that shares the code it is meant to contradict proves nothing), so the few correct pieces
// a mutant needs around its one mistake are written again here, small and from the spec.
#pragma once

#include <cstdint>
#include <cstring>

namespace nc::mutants {

inline float f32_from_bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
inline uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
inline double f64_from_bits(uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

// A binary floating-point word layout with IEEE-style gradual underflow. max_exp_field and
// max_mant_at_top describe the largest finite magnitude (E4M3FN's top binade stops at m = 6).
struct MiniFormat {
  int mbits;
  int ebits;
  int bias;
  uint32_t max_exp_field;
  uint32_t max_mant_at_top;
};
inline constexpr MiniFormat kBinary16{10, 5, 15, 30, 1023};
inline constexpr MiniFormat kBfloat16{7, 8, 127, 254, 127};

enum class Tie { ToEven, AwayFromZero };

// The one rounding step every mutant uses for its correct parts: finite x to the nearest word of
// f (ties as `tie` says, gradual underflow, signed zero kept). *overflow is set when the rounded
// magnitude exceeds f's largest finite value; the returned word is then meaningless.
uint32_t round_to_format(double x, const MiniFormat& f, Tie tie, bool* overflow);

// Exact binary16 value (spec 6: every binary16 value expands exactly to binary32).
double f16_value(uint16_t h);
// binary32 -> binary16 as spec 7 requires: RNE, gradual underflow, overflow to infinity.
uint16_t f32_to_f16_rne(float x);

// E4M3FN and E2M1 as spec 3.3 defines them (NaN returned as quiet NaN with the word's sign).
float e4m3fn_value(uint32_t w);
float e2m1_value(uint32_t w);
// BF16 word to binary32: the word in the high half (spec 3.1).
inline float bf16_value(uint32_t w) { return f32_from_bits((w & 0xffffu) << 16); }

// Two's-complement code of `bits` width (spec 5).
inline int32_t signed_code(uint32_t u, int bits) {
  const uint32_t m = (1u << bits) - 1u;
  u &= m;
  return u < (1u << (bits - 1)) ? int32_t(u) : int32_t(u) - int32_t(1u << bits);
}

}  // namespace nc::mutants
