// The sweep reference: a fast, integer-only model of IEEE-style round-to-nearest-even onto any
// small binary format. It is part of the oracle (it shares nothing with codec/) and is itself
// checked against the MPFR oracle (tests/oracle/fastref_test.cc). No native floating point.
#pragma once

#include <cstdint>

#include "oracle/float_format.h"

namespace nc::fastref {

// What a recipe does with values beyond the destination's largest finite magnitude. A property of
// the recipe, not of the format: the two E4M3FN recipes share one format.
enum class Overflow : uint8_t { ToInfinity, Saturate, ToNaN };

// A destination format in the form the rounding wants, derived from the oracle's one description
// of it (oracle/float_format.h): nothing about a format is written here a second time.
struct MinifloatSpec {
  int exp_bits;         // width of the exponent field
  int man_bits;         // width of the trailing significand field
  int emin;             // exponent of the smallest normal: 1 - bias
  uint32_t max_finite;  // bit pattern (magnitude) of the largest finite value
  uint32_t inf_bits;    // magnitude of infinity; 0 when the format has none
  uint32_t nan_bits;    // magnitude of the quiet NaN it produces; 0 when the format has none
  uint32_t sign_bit;    // the word's sign bit
};

constexpr MinifloatSpec spec_of(oracle::FloatFormat f) {
  const oracle::FloatFormatInfo& i = oracle::info(f);
  const uint32_t exp_ones = ((1u << i.exponent_bits) - 1) << i.fraction_bits;
  const uint32_t nan = !i.has_nan  ? 0u
                       : i.has_inf ? exp_ones | (1u << (i.fraction_bits - 1))   // IEEE quiet NaN
                                   : exp_ones | ((1u << i.fraction_bits) - 1);  // the one all-ones word
  return {i.exponent_bits,   i.fraction_bits, 1 - i.bias, i.max_finite_magnitude_bits, i.has_inf ? exp_ones : 0u, nan,
          1u << (i.bits - 1)};
}

// Round the exact value (-1)^negative * m * 2^q (m < 2^63) to the destination, ties to even,
// with gradual underflow. sticky says that bits below m were nonzero (a truncated quotient).
// Returns the destination word (sign in the bit just above exp+man). Inline: the sweeps call it
// billions of times.
inline uint32_t round_exact(bool negative, uint64_t m, int q, bool sticky, const MinifloatSpec& dst,
                            Overflow overflow = Overflow::ToInfinity);

// Binary32 word -> (m, q): the exact value of a finite binary32 word as an integer times 2^q.
struct Exact {
  bool negative;
  uint64_t m;
  int q;
};
inline Exact binary32_exact(uint32_t w) {
  uint32_t e = (w >> 23) & 0xffu, f = w & 0x7fffffu;
  bool neg = (w >> 31) != 0;
  if (e == 0) return {neg, f, -149};
  return {neg, uint64_t(f | 0x800000u), int(e) - 150};
}

// The destinations of the recipes (docs/recipes.md) and of the reconstructions.
inline constexpr MinifloatSpec kBinary32 = spec_of(oracle::FloatFormat::Binary32);
inline constexpr MinifloatSpec kBfloat16 = spec_of(oracle::FloatFormat::BFloat16);
inline constexpr MinifloatSpec kBinary16 = spec_of(oracle::FloatFormat::Binary16);
inline constexpr MinifloatSpec kE4M3FN = spec_of(oracle::FloatFormat::E4M3FN);
inline constexpr MinifloatSpec kE2M1 = spec_of(oracle::FloatFormat::E2M1);
// A registry float word type's spec (precondition: a float word type).
constexpr MinifloatSpec spec_of(WordType w) { return spec_of(*oracle::float_format_of(w)); }

namespace detail {
inline int bit_length(uint64_t m) { return m ? 64 - __builtin_clzll(m) : 0; }
}  // namespace detail

inline uint32_t round_exact(bool negative, uint64_t m, int q, bool sticky, const MinifloatSpec& dst,
                            Overflow overflow) {
  const uint32_t sign = negative ? 1u << (dst.exp_bits + dst.man_bits) : 0u;
  if (m == 0 && !sticky) return sign;
  // Quantum of the destination at this magnitude: 2^(max(floor(log2 v), emin) - man_bits).
  int top = detail::bit_length(m) - 1 + q;  // floor(log2 v) (sticky bits lie below m's last bit)
  int exponent = top < dst.emin ? dst.emin : top;
  int quantum = exponent - dst.man_bits;
  int shift = quantum - q;  // bits of m below the quantum
  uint64_t k;
  if (shift <= 0) {
    k = m << -shift;  // exact: sticky is then necessarily false for our callers' ranges
  } else {
    uint64_t kept = shift >= 64 ? 0 : m >> shift;
    bool half, below;
    if (shift > 64) {
      half = false;
      below = true;
    } else {
      uint64_t rest = shift == 64 ? m : m & ((uint64_t(1) << shift) - 1);
      uint64_t halfway = uint64_t(1) << (shift - 1);
      half = rest >= halfway;
      below = (rest & (halfway - 1)) != 0 || sticky;
    }
    // Round to nearest; on an exact tie keep the even quotient.
    k = kept + (half && (below || (kept & 1)) ? 1 : 0);
  }
  if (k >> (dst.man_bits + 1)) {  // rounding carried into a new binade
    k >>= 1;
    ++quantum;
  }
  uint32_t magnitude;
  bool too_big;
  if (k >> dst.man_bits) {
    int biased = quantum + dst.man_bits - dst.emin + 1;
    too_big = biased >= (1 << dst.exp_bits);
    magnitude = too_big ? 0 : (uint32_t(biased) << dst.man_bits) | uint32_t(k & ((1u << dst.man_bits) - 1));
  } else {
    too_big = false;
    magnitude = uint32_t(k);  // subnormal, or zero after rounding
  }
  // E4M3FN's top binade holds finite values, so "beyond the largest finite" is a magnitude test.
  if (too_big || magnitude > dst.max_finite) {
    switch (overflow) {
      case Overflow::ToInfinity:
        magnitude = dst.inf_bits;
        break;
      case Overflow::Saturate:
        magnitude = dst.max_finite;
        break;
      case Overflow::ToNaN:
        magnitude = dst.nan_bits;
        break;
    }
  }
  return sign | magnitude;
}

}  // namespace nc::fastref
