// The named binary32 -> narrow conversions. Finite values go through the rounding choke point;
// each recipe only decides what overflow, infinity and NaN become.
#include "oracle/recipes.h"

#include <array>

#include "oracle/decode.h"
#include "oracle/round.h"

namespace nc::oracle {

namespace {
// The registry's destination word type, in the oracle's description.
FloatFormat target_of(Recipe r) { return *float_format_of(nc::info(r).destination); }
}  // namespace

uint32_t convert(Context& ctx, Recipe r, uint32_t w) {
  const FloatFormat target = target_of(r);
  const FloatFormatInfo& fi = info(target);
  const WordFields x = split_word(FloatFormat::Binary32, w);
  const ValueClass cls = x.cls;
  const bool negative = x.negative;
  const uint32_t sign = negative ? 1u << (fi.bits - 1) : 0;
  // The target's words from its description: the largest finite, and the NaN a non-IEEE format
  // has (E4M3FN: S.1111.111, every bit but the sign set).
  const uint32_t max_finite = sign | fi.max_finite_magnitude_bits;
  const uint32_t all_ones_nan = sign | ((1u << (fi.bits - 1)) - 1);
  if (cls == ValueClass::NaN) {
    const uint32_t payload = w & 0x7fffffu;
    const uint32_t exp_ones = ((1u << fi.exponent_bits) - 1) << fi.fraction_bits;
    switch (r) {
      // Truncate the payload to the target's fraction width, then set the quiet bit.
      case Recipe::F32_TO_BF16_RNE:
      case Recipe::F32_TO_F16_RNE:
        return sign | exp_ones | (payload >> (23 - fi.fraction_bits)) | (1u << (fi.fraction_bits - 1));
      case Recipe::F32_TO_E4M3FN_RNE_SATFINITE:
      case Recipe::F32_TO_E4M3FN_RNE_OVF_NAN:
        return all_ones_nan;
      case Recipe::F32_TO_E2M1_RNE_SATFINITE:
        return max_finite;  // no NaN: the signed largest finite
    }
  }
  Rounded rounded;
  if (cls == ValueClass::Inf) {
    rounded.overflow = true;
    rounded.word =
        sign | (fi.has_inf ? (((1u << fi.exponent_bits) - 1) << fi.fraction_bits) : fi.max_finite_magnitude_bits);
  } else {
    rounded = round_rne_dyadic(ctx, target, negative, x.significand, x.exponent);
  }
  if (!rounded.overflow) return rounded.word;
  switch (r) {
    case Recipe::F32_TO_BF16_RNE:
    case Recipe::F32_TO_F16_RNE:
      return rounded.word;  // already the signed infinity
    case Recipe::F32_TO_E4M3FN_RNE_SATFINITE:
      return max_finite;
    case Recipe::F32_TO_E4M3FN_RNE_OVF_NAN:
      return all_ones_nan;
    case Recipe::F32_TO_E2M1_RNE_SATFINITE:
      return max_finite;
  }
  return rounded.word;
}

}  // namespace nc::oracle
