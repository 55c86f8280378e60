// The sweep reference: a fast, integer-only model of IEEE-style round-to-nearest-even onto any
// small binary format. It is part of the oracle (it shares nothing with codec/) and is itself
// checked against the MPFR oracle (tests/oracle/fastref_test.cc). No native floating point.
#pragma once

#include <cstdint>

namespace nc::fastref {

// What the destination does with values beyond its largest finite magnitude.
enum class Overflow : uint8_t { ToInfinity, Saturate, ToNaN };

// A destination format, described once (cf. ml_dtypes float8 traits).
struct MinifloatSpec {
  int exp_bits;          // width of the exponent field
  int man_bits;          // width of the trailing significand field
  int emin;              // exponent of the smallest normal: 1 - bias
  uint32_t max_finite;   // bit pattern (magnitude) of the largest finite value
  uint32_t inf_bits;     // magnitude of infinity; 0 when the format has none
  uint32_t nan_bits;     // magnitude of the quiet NaN it produces; 0 when the format has none
  Overflow overflow;
};

// Round the exact value (-1)^negative * m * 2^q (m < 2^63) to the destination, ties to even,
// with gradual underflow. sticky says that bits below m were nonzero (a truncated quotient).
// Returns the destination word (sign in the bit just above exp+man).
uint32_t round_exact(bool negative, uint64_t m, int q, bool sticky, const MinifloatSpec& dst);

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

// Destination specs used by the recipes (docs/recipes.md).
inline constexpr MinifloatSpec kBinary32{8, 23, -126, 0x7f7fffffu, 0x7f800000u, 0x7fc00000u, Overflow::ToInfinity};
inline constexpr MinifloatSpec kBfloat16{8, 7, -126, 0x7f7fu, 0x7f80u, 0x7fc0u, Overflow::ToInfinity};
inline constexpr MinifloatSpec kBinary16{5, 10, -14, 0x7bffu, 0x7c00u, 0x7e00u, Overflow::ToInfinity};
inline constexpr MinifloatSpec kE4M3FNSat{4, 3, -6, 0x7eu, 0, 0x7fu, Overflow::Saturate};
inline constexpr MinifloatSpec kE4M3FNOvfNaN{4, 3, -6, 0x7eu, 0, 0x7fu, Overflow::ToNaN};
inline constexpr MinifloatSpec kE2M1Sat{2, 1, 0, 0x7u, 0, 0, Overflow::Saturate};

}  // namespace nc::fastref
