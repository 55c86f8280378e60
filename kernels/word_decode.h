// Exact expansion of each logical word type to binary32 bits (spec 3.1, 3.2, 3.3, 5), written with
// integer operations only. No float arithmetic happens here, so neither FTZ nor fast-math can
// change a decoded word; the build-flag-sensitive arithmetic lives in reconstruct.h.
//
// The kernels describe no format themselves: one generic decode reads the registry's identity
// facts of a float word type (width, exponent and fraction field widths, how NaN is spelled) and
// takes the bias as 2^(exponent bits - 1) - 1, as every such type in spec 3 has it. Neither
// codec/'s nor oracle/'s description is included. BF16 is the high half of a binary32.
#pragma once
#include <cstdint>

#include "hd.h"
#include "registry/registry.h"

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

// A float word type of at most 16 bits whose values are normal binary32 numbers or zero (E2M1,
// E4M3FN, F16), from the registry's facts as template arguments (compile-time constants).
template <uint32_t Bits, uint32_t ExpBits, uint32_t FracBits, nc::NanSpelling Nan>
NC_HD uint32_t float_word_to_f32_bits(uint32_t w) {
  constexpr uint32_t kExpOnes = (1u << ExpBits) - 1u, kFracMask = (1u << FracBits) - 1u;
  constexpr int kBias = (1 << (ExpBits - 1)) - 1;
  const uint32_t sign = (w >> (Bits - 1)) & 1u, e = (w >> FracBits) & kExpOnes, m = w & kFracMask;
  if (Nan == nc::NanSpelling::AllOnes && e == kExpOnes && m == kFracMask) return (sign << 31) | kQuietNaN32;
  if (Nan == nc::NanSpelling::Ieee && e == kExpOnes)
    return (sign << 31) | 0x7f800000u | (m << (23 - FracBits));  // inf, NaN with its payload
  if (e == 0) return f32_bits_from_int_pow2(sign, m, 1 - kBias - static_cast<int>(FracBits));  // zero, subnormals
  return f32_bits_from_int_pow2(sign, (1u << FracBits) + m, static_cast<int>(e) - kBias - static_cast<int>(FracBits));
}

template <nc::WordType W>
NC_HD uint32_t float_word_to_f32_bits(uint32_t w) {
  return float_word_to_f32_bits<nc::info(W).bits, nc::info(W).exponent_bits, nc::info(W).fraction_bits,
                                nc::info(W).nan>(w);
}

NC_HD uint32_t e2m1_to_f32_bits(uint32_t w) { return float_word_to_f32_bits<nc::WordType::E2M1>(w); }
NC_HD uint32_t e4m3fn_to_f32_bits(uint32_t w) { return float_word_to_f32_bits<nc::WordType::E4M3FN>(w); }
NC_HD uint32_t f16_to_f32_bits(uint32_t w) { return float_word_to_f32_bits<nc::WordType::F16>(w); }

NC_HD uint32_t bf16_to_f32_bits(uint32_t w) { return (w & 0xffffu) << 16; }

// Two's-complement code of `bits` width to int32 (spec 5): u - 2^b when the sign bit is set.
NC_HD int32_t signed_code(uint32_t u, uint32_t bits) {
  const uint32_t mask = (1u << bits) - 1u;
  u &= mask;
  return (u >> (bits - 1)) ? static_cast<int32_t>(u) - static_cast<int32_t>(1u << bits) : static_cast<int32_t>(u);
}

}  // namespace nc::kernels
