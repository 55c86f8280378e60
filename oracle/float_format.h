// The floating-point formats the oracle rounds to, each described once by its parameters
// (spec 3.1, 3.3, 6; IEEE 754 for binary32/binary16). Generic decode and rounding read these.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "registry/registry.h"

namespace nc::oracle {

enum class FloatFormat : uint8_t { Binary32, Binary16, BFloat16, E4M3FN, E2M1 };
inline constexpr int kFloatFormatCount = 5;

struct FloatFormatInfo {
  FloatFormat id;
  const char* name;
  int bits;  // word width
  int exponent_bits;
  int fraction_bits;  // trailing fraction bits; precision = fraction_bits + 1
  int bias;
  int emax;                            // largest exponent of a finite normal value (E4M3FN: 8, uses e == 15)
  bool has_inf;                        // IEEE-style: top exponent is inf (fraction 0) / NaN (fraction != 0)
  bool has_nan;                        // E4M3FN: only S.1111.111 is NaN; E2M1: no NaN
  uint32_t max_finite_magnitude_bits;  // word of the largest finite positive value
};

// Bit layouts from the spec: binary32 (3.1), binary16 (6, IEEE 754), bfloat16 (3.1: bias 127,
// 7 fraction bits), E4M3FN (3.3: bias 7, no inf, only S.1111.111 NaN, max 448 = 0x7e),
// E2M1 (3.3: sign bit 3, exponent bits 2:1, mantissa bit 0; values 0 .. 6, no inf, no NaN).
// The oracle side's one description of each format: the MPFR oracle and oracle/fastref read it.
inline constexpr std::array<FloatFormatInfo, kFloatFormatCount> kFloatFormats{{
    {FloatFormat::Binary32, "binary32", 32, 8, 23, 127, 127, true, true, 0x7f7fffffu},
    {FloatFormat::Binary16, "binary16", 16, 5, 10, 15, 15, true, true, 0x7bffu},
    {FloatFormat::BFloat16, "bfloat16", 16, 8, 7, 127, 127, true, true, 0x7f7fu},
    {FloatFormat::E4M3FN, "E4M3FN", 8, 4, 3, 7, 8, false, true, 0x7eu},
    {FloatFormat::E2M1, "E2M1", 4, 2, 1, 1, 2, false, false, 0x7u},
}};

constexpr const FloatFormatInfo& info(FloatFormat f) { return kFloatFormats[static_cast<size_t>(f)]; }

// The oracle's description of a registry float word type; nullopt for integer and code words.
constexpr std::optional<FloatFormat> float_format_of(WordType t) {
  switch (t) {
    case WordType::BF16:
      return FloatFormat::BFloat16;
    case WordType::FP32:
      return FloatFormat::Binary32;
    case WordType::F16:
      return FloatFormat::Binary16;
    case WordType::E4M3FN:
      return FloatFormat::E4M3FN;
    case WordType::E2M1:
      return FloatFormat::E2M1;
    default:
      return std::nullopt;
  }
}

}  // namespace nc::oracle
