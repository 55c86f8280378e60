// E4M3FN and E2M1 word mutants (spec 3.3): the decode entry point for one word type, every other
// word type delegated to the base table.
#include <cmath>

#include "targets/mutants/mutant.h"
#include "targets/mutants/words.h"

namespace nc::mutants {
namespace {

// Decodes E4M3FN words with `value` and delegates other word types.
template <float (*value)(uint32_t)>
int decode_e4m3fn_with(nc_word_type wt, const uint32_t* w, size_t n, uint32_t* out, uint8_t* valid) {
  if (wt != NC_WT_E4M3FN) return base().decode ? base().decode(wt, w, n, out, valid) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    out[i] = bits_of(value(w[i] & 0xffu));
    valid[i] = 1;
  }
  return NC_OK;
}

// IEEE-754-style E4M3 (as in the OCP draft's E5M2 sibling): exponent 15 is inf/NaN, so 0x78 is
// infinity and 0x79..0x7e NaN, where E4M3FN has finite 256..448.
float e4m3_ieee_like(uint32_t w) {
  const float sign = (w & 0x80u) ? -1.0f : 1.0f;
  if (((w >> 3) & 0xf) == 15) return (w & 7) == 0 ? sign * INFINITY : std::copysign(NAN, sign);
  return e4m3fn_value(w);
}

// Every e == 15 word is NaN: the "FN" taken to mean "no infinities, top exponent all NaN".
float e4m3_top_binade_nan(uint32_t w) {
  if (((w >> 3) & 0xf) == 15) return std::copysign(NAN, (w & 0x80u) ? -1.0f : 1.0f);
  return e4m3fn_value(w);
}

// Subnormals scaled by 2^-10 instead of 2^-9: the subnormal exponent written as -bias - mbits
// instead of 1 - bias - mbits.
float e4m3_subnormal_bias_off(uint32_t w) {
  if (((w >> 3) & 0xf) == 0) return ((w & 0x80u) ? -1.0f : 1.0f) * std::ldexp(float(w & 7), -10);
  return e4m3fn_value(w);
}

// E2M1 table with 2.5 for code 5 (0b101): "1.mantissa times 2^(e-1)" with the mantissa weighted
// 0.25 as in the exponent-1 binade; the spec's value is 3.0.
int decode_e2m1_wrong_entry(nc_word_type wt, const uint32_t* w, size_t n, uint32_t* out, uint8_t* valid) {
  if (wt != NC_WT_E2M1) return base().decode ? base().decode(wt, w, n, out, valid) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = w[i] & 0xfu;
    const float v = (u & 7) == 5 ? ((u & 8) ? -2.5f : 2.5f) : e2m1_value(u);
    out[i] = bits_of(v);
    valid[i] = 1;
  }
  return NC_OK;
}

void install_ieee_like(nc_plugin_v1* t) { t->decode = decode_e4m3fn_with<e4m3_ieee_like>; }
void install_top_binade_nan(nc_plugin_v1* t) { t->decode = decode_e4m3fn_with<e4m3_top_binade_nan>; }
void install_subnormal_bias(nc_plugin_v1* t) { t->decode = decode_e4m3fn_with<e4m3_subnormal_bias_off>; }
void install_e2m1_wrong_entry(nc_plugin_v1* t) { t->decode = decode_e2m1_wrong_entry; }

}  // namespace

std::span<const Mutant> minifloat_mutants() {
  static const Mutant kMutants[] = {
      {{"e4m3-ieee-infinities", "e4m3fn", "decode", "IEEE-like E4M3: 0x78 = inf, 0x79..0x7f NaN", "decode.E4M3FN",
        "top-binade", "inf top binade"},
       install_ieee_like},
      {{"e4m3-top-binade-nan", "e4m3fn", "decode", "every e == 15 word decoded as NaN", "decode.E4M3FN", "top-binade",
        "top binade nan"},
       install_top_binade_nan},
      {{"e4m3-subnormal-bias", "e4m3fn", "decode", "subnormals m * 2^-10 instead of m * 2^-9", "decode.E4M3FN",
        "subnormal", "subnormal"},
       install_subnormal_bias},
      {{"e2m1-wrong-entry", "e4m3fn", "decode", "E2M1 code 5 decoded as 2.5 instead of 3.0", "decode.E2M1", "-",
        "e2m1 table"},
       install_e2m1_wrong_entry},
  };
  return kMutants;
}

}  // namespace nc::mutants
