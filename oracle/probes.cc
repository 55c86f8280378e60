// Non-canonical arithmetic for case search only (see probes.h). Each probe differs from spec 7
// in exactly one named step.
#include "oracle/probes.h"

#include <algorithm>

#include "oracle/decode.h"
#include "oracle/maxabs_f16_recip_rne_v1.h"
#include "oracle/round.h"

namespace nc::oracle::probes {

namespace {
int32_t code_of(Context& ctx, Format f, uint32_t normalized32) {
  bool negative = false;
  mpq_class v;
  exact_into(FloatFormat::Binary32, normalized32, v, negative);
  const SchemeParams p = scheme_params(f);
  return static_cast<int32_t>(std::clamp<long>(round_to_integral_ties_even(ctx, v).get_si(), p.qmin, p.qmax));
}

uint32_t scale16_from(Context& ctx, const mpq_class& v) {
  uint32_t s = round_rne(ctx, FloatFormat::Binary16, v).word;
  return s == 0 ? 0x0001u : s;  // the same 2^-24 rescue
}

void amax_over_qmax(Format f, uint32_t amax, mpq_class& out) {
  bool negative = false;
  exact_into(FloatFormat::Binary32, amax, out, negative);
  out /= scheme_params(f).qmax;
}
}  // namespace

mpq_class exact_ratio(uint32_t x, uint32_t scale16) {
  bool negative = false;
  mpq_class xv, sv;
  exact_into(FloatFormat::Binary32, x, xv, negative);
  exact_into(FloatFormat::Binary16, scale16, sv, negative);
  return xv / sv;
}

int32_t code_by_division(Context& ctx, Format f, uint32_t x, uint32_t scale16) {
  const bool x_negative = (x >> 31) != 0;
  return code_of(ctx, f, round_rne(ctx, FloatFormat::Binary32, exact_ratio(x, scale16), x_negative).word);
}

int32_t code_by_reciprocal(Context& ctx, Format f, uint32_t x, uint32_t scale16) {
  bool negative = false;
  mpq_class sv, xv;
  exact_into(FloatFormat::Binary16, scale16, sv, negative);
  const uint32_t inv_word = round_f32(ctx, 1 / sv);
  mpq_class inv;
  exact_into(FloatFormat::Binary32, inv_word, inv, negative);
  const bool x_negative = (x >> 31) != 0;
  exact_into(FloatFormat::Binary32, x, xv, negative);
  return code_of(ctx, f, round_rne(ctx, FloatFormat::Binary32, mpq_class(xv * inv), x_negative).word);
}

uint32_t scale16_single_rounding(Context& ctx, Format f, uint32_t amax) {
  mpq_class v;
  amax_over_qmax(f, amax, v);
  return scale16_from(ctx, v);
}

uint32_t scale16_double_rounding(Context& ctx, Format f, uint32_t amax) {
  mpq_class v;
  amax_over_qmax(f, amax, v);
  const uint32_t raw = round_f32(ctx, v);
  bool negative = false;
  exact_into(FloatFormat::Binary32, raw, v, negative);
  return scale16_from(ctx, v);
}

}  // namespace nc::oracle::probes
