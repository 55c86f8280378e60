// Canonical-encoder mutants (spec 7): each is MAXABS_F16_RECIP_RNE_V1 with one step done the way
// a plausible converter gets it wrong. The entry point replaced is `encode`; the corpus suites that
// should kill them are the encoder suites (encode.*), by the tag named in each entry.
#include <cmath>
#include <cstring>

#include "targets/mutants/encoder_skeleton.h"
#include "targets/mutants/mutant.h"
#include "targets/mutants/words.h"

namespace nc::mutants {
namespace {

// One encode entry point per mutant, each over its own steps.
#define NC_ENCODER_MUTANT(fn, ...)                                                                                     \
  int fn(nc_format f, nc_source_type t, const uint64_t* s, size_t r, size_t k, uint32_t* sc, int32_t* c, uint32_t* tr, \
         int32_t* o) {                                                                                                 \
    static const EncoderSteps steps = [] {                                                                             \
      EncoderSteps st = canonical_steps();                                                                             \
      __VA_ARGS__;                                                                                                     \
      return st;                                                                                                       \
    }();                                                                                                               \
    return encode_with(steps, f, t, s, r, k, sc, c, tr, o);                                                            \
  }                                                                                                                    \
  void install_##fn(nc_plugin_v1* table) { table->encode = fn; }

// Direct division: x / scale32 looks like the same real number as x * (1 / scale32), and is what
// most people write first. The two roundings select different codes near .5 boundaries.
NC_ENCODER_MUTANT(
    direct_division, st.normalize = [](float x, float scale32, float) { return x / scale32; })

// The denominator is the magnitude of the two's-complement minimum, 2^(b-1) (8, 16, 32, 128),
// instead of qmax (7, 15, 31, 127): "the code range is [-2^(b-1), 2^(b-1))" thinking.
NC_ENCODER_MUTANT(
    abs_qmin_denominator, st.raw_scale = [](float amax, int, int qmax) { return amax / float(qmax + 1); })

// Clamp in float, then round: an easy reordering of the last two steps. Equivalent (see proof).
NC_ENCODER_MUTANT(
    clamp_before_round, st.quantize = [](float n, int qmin, int qmax) -> int32_t {
      if (std::isnan(n)) return 0;
      const float c = n < float(qmin) ? float(qmin) : (n > float(qmax) ? float(qmax) : n);
      return int32_t(std::nearbyint(c));
    })

// std::round (half away from zero) instead of the ties-to-even integral rounding.
NC_ENCODER_MUTANT(
    round_half_away,
    st.quantize = [](float n, int qmin, int qmax) { return quantize_rne_then_clamp(std::round(n), qmin, qmax); })

// floor(x + 0.5f): half up, and the float addition itself rounds just below .5 upwards.
NC_ENCODER_MUTANT(
    round_half_up,
    st.quantize = [](float n, int qmin, int qmax) { return quantize_rne_then_clamp(std::floor(n + 0.5f), qmin, qmax); })

// No 2^-24 rescue: a nonzero group whose raw scale underflows binary16 keeps scale +0, and its
// codes come from multiplying by 1/0 (the encoder does not fail; it stores what it computed).
NC_ENCODER_MUTANT(
    no_min_subnormal_rescue, st.rescue = [](uint16_t s) { return s; };
    st.scale_storable = [](uint16_t s) { return !(s & 0x8000u) && (s & 0x7c00u) != 0x7c00u; })

// The scale goes through BF16 on its way to binary16 (a framework's default low-precision type).
NC_ENCODER_MUTANT(
    scale_through_bf16, st.scale16 = [](float raw, float, int) {
      bool overflow = false;
      const uint32_t b = round_to_format(raw, kBfloat16, Tie::ToEven, &overflow);
      return f32_to_f16_rne(overflow ? std::copysign(INFINITY, raw) : bf16_value(b));
    })

// amax / qmax in binary64 (numpy's default), rounded once to binary16 instead of through binary32.
// Equivalent for the four qmax values (proof in the catalogue entry and docs/mutants.md).
NC_ENCODER_MUTANT(
    scale_in_binary64, st.scale16 = [](float, float amax, int qmax) {
      bool overflow = false;
      const uint32_t w = round_to_format(double(amax) / double(qmax), kBinary16, Tie::ToEven, &overflow);
      return uint16_t(overflow ? 0x7c00u : w);
    })

// max(x) instead of max(|x|): a group whose largest magnitude is negative gets too small a scale.
NC_ENCODER_MUTANT(
    amax_signed_max, st.amax = [](const float* x, size_t n) {
      float m = x[0];
      for (size_t i = 1; i < n; ++i)
        if (x[i] > m) m = x[i];
      return m;
    })

// Sources read with DAZ (denormals-are-zero, a common fast-math/-Ofast side effect): subnormal
// binary32 inputs count as zero, so an all-subnormal group gets scale +0 instead of 2^-24.
NC_ENCODER_MUTANT(
    daz_subnormal_sources, st.to_binary32 = [](nc_source_type t, uint64_t w, float* out) {
      if (!source_to_binary32(t, w, out)) return false;
      if (std::fpclassify(*out) == FP_SUBNORMAL) *out = std::copysign(0.0f, *out);
      return true;
    })

// binary64 -> binary32 rounded twice where the result is a binary32 subnormal (a hand-written
// conversion through frexp/ldexp): first to 24 significant bits as if the exponent were unbounded,
// then to the 2^-149 grid. A value just above 2^-150 lands on the tie and goes to +0, not 2^-149.
NC_ENCODER_MUTANT(
    f64_subnormal_double_round, st.to_binary32 = [](nc_source_type t, uint64_t w, float* out) {
      const double d = f64_from_bits(w);
      if (t != NC_SRC_F64 || !std::isfinite(d) || d == 0.0 || std::fabs(d) >= 0x1p-126)
        return source_to_binary32(t, w, out);
      int e;
      const double m = std::frexp(d, &e);
      *out = static_cast<float>(std::ldexp(std::nearbyint(std::ldexp(m, 24)), e - 24));
      return true;
    })

// binary64 -> binary32 by hand in the normal range: a value at or past the overflow threshold
// (2^128 - 2^103) is infinity, otherwise the 52-bit fraction is rounded to 23 bits to nearest-even
// and a carry out of the fraction is dropped (the fraction wraps to 0, the exponent is not
// incremented): (2 - 2^-24) * 2^e becomes 2^e instead of 2^(e+1).
NC_ENCODER_MUTANT(
    f64_carry_dropped, st.to_binary32 = [](nc_source_type t, uint64_t w, float* out) {
      const double d = f64_from_bits(w);
      if (t != NC_SRC_F64 || !std::isfinite(d) || std::fabs(d) < 0x1p-126 || std::fabs(d) >= 0x1.ffffffp127)
        return source_to_binary32(t, w, out);
      const uint64_t frac = w & 0xfffffffffffffull, low = frac & 0x1fffffffull;
      uint64_t f23 = frac >> 29;
      if (low > 0x10000000ull || (low == 0x10000000ull && (f23 & 1))) f23 = (f23 + 1) & 0x7fffffull;  // carry lost
      const uint32_t e32 = uint32_t(int((w >> 52) & 0x7ff) - 1023 + 127);
      const uint32_t bits = uint32_t(w >> 63) << 31 | e32 << 23 | uint32_t(f23);
      std::memcpy(out, &bits, 4);
      return true;
    })

// No finiteness check on sources: a NaN is skipped by the amax comparison and quantized to 0.
NC_ENCODER_MUTANT(
    nan_source_quantized, st.to_binary32 = [](nc_source_type t, uint64_t w, float* out) {
      source_to_binary32(t, w, out);
      return true;
    })

// Scale overflow not checked: binary16 infinity is stored and every code becomes 0.
NC_ENCODER_MUTANT(
    infinite_scale_stored,
    st.scale_storable = [](uint16_t s) { return !(s & 0x8000u) && s != 0 && (s & 0x7fffu) <= 0x7c00u; })

// W8's interval taken as the int8 range [-128, 127]: -128 is emitted where rounding reaches it.
NC_ENCODER_MUTANT(
    w8_clamp_to_minus_128, st.interval = [](nc_format f, int* qmin, int* qmax) {
      spec_interval(f, qmin, qmax);
      if (f == NC_FORMAT_W8G32_F16S) *qmin = -128;
    })

// The partial final group's amax runs over the whole G-entry scratch buffer, so values left from
// the previous group (or row) beyond K take part in its scale.
NC_ENCODER_MUTANT(partial_group_stale_amax, st.amax_over_whole_buffer = true)

}  // namespace

std::span<const Mutant> encoder_mutants() {
  static const Mutant kMutants[] = {
      {{"enc-direct-division", "encoder", "encode", "normalized32 = x / scale32 instead of x * inv32", "encode.*",
        "recip-vs-div", "division reciprocal"},
       install_direct_division},
      {{"enc-abs-qmin-denominator", "encoder", "encode",
        "raw scale = amax / 2^(b-1) (abs(qmin)) instead of amax / qmax", "encode.*", "qmax-denominator", "qmin qmax"},
       install_abs_qmin_denominator},
      {{"enc-clamp-before-round", "encoder", "encode", "clamp normalized32 to [qmin, qmax] before rounding", "encode.*",
        "clamp", "clamp"},
       install_clamp_before_round,
       "rounding to integral (ties-to-even) is monotone and fixes the integers qmin and qmax, so "
       "clamp(round(x)) == round(clamp(x)) for every binary32 x; NaN cannot reach this step."},
      {{"enc-round-half-away", "encoder", "encode", "integral rounding half away from zero (std::round)", "encode.*",
        "tie-even", "half-away even"},
       install_round_half_away},
      {{"enc-round-half-up", "encoder", "encode", "integral rounding as floor(x + 0.5f)", "encode.*", "tie-even",
        "half-up even"},
       install_round_half_up},
      {{"enc-no-rescue", "encoder", "encode", "no 2^-24 rescue: an underflowing scale stays +0", "encode.*", "rescue",
        "rescue 0x0001"},
       install_no_min_subnormal_rescue},
      {{"enc-scale-through-bf16", "encoder", "encode", "raw scale rounded to BF16 before binary16", "encode.*",
        "bf16-scale", "bfloat16 bf16"},
       install_scale_through_bf16},
      {{"enc-scale-in-binary64", "encoder", "encode", "amax / qmax computed in binary64 and rounded once to binary16",
        "encode.*", "double-rounding", "binary64 once"},
       install_scale_in_binary64,
       "round_f32(amax / q) can only change round_f16 of the exact quotient if it lands exactly on a "
       "binary16 rounding midpoint M (12 significant bits). Then amax - q*M is a nonzero multiple of "
       "ulp32(amax) >= 2^floor(log2 q) * ulp32(amax / q), so |amax/q - M| >= (2^floor(log2 q) / q) * "
       "ulp32 > ulp32 / 2 for q = 2^n - 1 (7, 15, 31, 127): binary32 never rounds onto M. Subnormal "
       "amax gives a quotient below 2^-128, which both paths round to binary16 zero (then rescued)."},
      {{"enc-amax-signed-max", "encoder", "encode", "amax = max(x) instead of max(|x|)", "encode.*", "amax-abs",
        "signed max"},
       install_amax_signed_max},
      {{"enc-daz-sources", "encoder", "encode", "subnormal binary32 sources read as zero (DAZ)", "encode.*",
        "subnormal-source", "ftz daz"},
       install_daz_subnormal_sources},
      {{"enc-f64-subnormal-double-round", "encoder", "encode",
        "binary64 sources rounded to 24 bits, then to the binary32 subnormal grid (two roundings)", "encode.*",
        "src-f64", "f64 binary64"},
       install_f64_subnormal_double_round},
      {{"enc-f64-carry-dropped", "encoder", "encode",
        "binary64 sources rounded by hand: a rounding carry out of the fraction is dropped (no exponent increment)",
        "encode.*", "f64-carry", "f64 binary64 carry"},
       install_f64_carry_dropped},
      {{"enc-nan-quantized", "encoder", "encode", "non-finite sources quantized instead of failing", "encode.*",
        "nonfinite", "nan infinity"},
       install_nan_source_quantized},
      {{"enc-infinite-scale-stored", "encoder", "encode",
        "a scale that rounds to binary16 infinity is stored instead of failing", "encode.*", "overflow", "overflow"},
       install_infinite_scale_stored},
      {{"enc-w8-minus-128", "encoder", "encode", "W8 codes clamped to [-128, 127]", "encode.W8G32_F16S*", "w8-no-m128",
        "-128"},
       install_w8_clamp_to_minus_128},
      {{"enc-partial-group-stale", "encoder", "encode",
        "partial final group's amax includes stale buffer entries beyond K", "encode.*", "partial-group",
        "final group logical"},
       install_partial_group_stale_amax},
  };
  return kMutants;
}

}  // namespace nc::mutants
