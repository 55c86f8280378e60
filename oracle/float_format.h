// The floating-point formats the oracle rounds to, each described once by its parameters
// (spec 3.1, 3.3, 6; IEEE 754 for binary32/binary16). Generic decode and rounding read these.
#pragma once

#include <cstdint>

namespace nc::oracle {

enum class FloatFormat : uint8_t { Binary32, Binary16, BFloat16, E4M3FN, E2M1 };
inline constexpr int kFloatFormatCount = 5;

struct FloatFormatInfo {
  FloatFormat id;
  const char* name;
  int bits;            // word width
  int exponent_bits;
  int fraction_bits;   // trailing fraction bits; precision = fraction_bits + 1
  int bias;
  int emax;            // largest exponent of a finite normal value (E4M3FN: 8, uses e == 15)
  bool has_inf;        // IEEE-style: top exponent is inf (fraction 0) / NaN (fraction != 0)
  bool has_nan;        // E4M3FN: only S.1111.111 is NaN; E2M1: no NaN
  uint32_t max_finite_magnitude_bits;  // word of the largest finite positive value
};

const FloatFormatInfo& info(FloatFormat f);

}  // namespace nc::oracle
