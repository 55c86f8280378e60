// Exact expansion of each logical word type to binary32 bits (spec 3.1, 3.2, 3.3, 5), written with
// integer operations only. No float arithmetic happens here, so neither FTZ nor fast-math can
// change a decoded word; the build-flag-sensitive arithmetic lives in reconstruct.h.
//
// E2M1:   sign 3, exponent 2:1, mantissa 0: 0 0.5 1 1.5 2 3 4 6.
// E4M3FN: sign 7, exponent 6:3 (bias 7), mantissa 2:0; no infinity; S.1111.111 is NaN.
// F16:    IEEE binary16. BF16: the high half of a binary32.
#pragma once
#include <cstdint>

#include "hd.h"

namespace nc::kernels {

inline constexpr uint32_t kQuietNaN32 = 0x7fc00000u;

// Binary32 bits of (-1)^sign * m * 2^e for an integer m < 2^24 (m == 0 gives a signed zero). The
// callers' values are normal binary32 numbers or zero, so no rounding and no subnormal arise.
NC_HD uint32_t f32_bits_from_int_pow2(uint32_t sign, uint32_t m, int e) {
  if (m == 0) return sign << 31;
  const int top = 31 - leading_zeros32(m);  // m = 1.f * 2^top
  const uint32_t frac = (m << (23 - top)) & 0x7fffffu;
  return (sign << 31) | (static_cast<uint32_t>(top + e + 127) << 23) | frac;
}

NC_HD uint32_t e2m1_to_f32_bits(uint32_t w) {
  // Magnitudes in halves: 0 1 2 3 4 6 8 12, i.e. value = m * 2^-1, one nibble each of a constant
  // (an indexed array would live in a GPU thread's local memory).
  const uint32_t halves = (0xc8643210u >> (4 * (w & 7u))) & 0xfu;
  return f32_bits_from_int_pow2((w >> 3) & 1u, halves, -1);
}

NC_HD uint32_t e4m3fn_to_f32_bits(uint32_t w) {
  const uint32_t sign = (w >> 7) & 1u, e = (w >> 3) & 15u, m = w & 7u;
  if (e == 15 && m == 7) return (sign << 31) | kQuietNaN32;
  if (e == 0) return f32_bits_from_int_pow2(sign, m, -9);   // m * 2^-9, including zero
  return f32_bits_from_int_pow2(sign, 8u + m, static_cast<int>(e) - 10);  // (8+m) * 2^(e-10)
}

NC_HD uint32_t f16_to_f32_bits(uint32_t w) {
  const uint32_t sign = (w >> 15) & 1u, e = (w >> 10) & 31u, m = w & 0x3ffu;
  if (e == 31) return (sign << 31) | 0x7f800000u | (m << 13);  // inf, NaN with its payload
  if (e == 0) return f32_bits_from_int_pow2(sign, m, -24);      // zero and subnormals
  return f32_bits_from_int_pow2(sign, 1024u + m, static_cast<int>(e) - 25);
}

NC_HD uint32_t bf16_to_f32_bits(uint32_t w) { return (w & 0xffffu) << 16; }

// Two's-complement code of `bits` width to int32 (spec 5): u - 2^b when the sign bit is set.
NC_HD int32_t signed_code(uint32_t u, uint32_t bits) {
  const uint32_t mask = (1u << bits) - 1u;
  u &= mask;
  return (u >> (bits - 1)) ? static_cast<int32_t>(u) - static_cast<int32_t>(1u << bits)
                           : static_cast<int32_t>(u);
}

}  // namespace nc::kernels
