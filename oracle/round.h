// The one rounding choke point: an exact rational rounded to a float format with
// round-to-nearest, ties-to-even, gradual underflow and IEEE overflow, emulated with MPFR
// (precision, emin/emax, mpfr_subnormalize; parameters in oracle/README.md).
#pragma once

#include <gmpxx.h>

#include <cstdint>

#include "oracle/context.h"
#include "oracle/float_format.h"
#include "oracle/value.h"

namespace nc::oracle {

struct Rounded {
  uint32_t word = 0;      // the format's word; on overflow of an IEEE format (binary32, binary16,
                          // bfloat16) the signed infinity; for E4M3FN/E2M1 (no infinity) the
                          // signed largest finite word, with `overflow` set so callers choose
  bool overflow = false;  // the rounded magnitude (unbounded exponent) exceeds the largest finite
  bool inexact = false;
};

// RNE of an exact value. A zero result keeps `negative_zero_sign` when v == 0, and the sign of v
// when a nonzero v underflows to zero.
Rounded round_rne(Context& ctx, FloatFormat f, const mpq_class& v, bool negative_zero_sign = false);
// RNE of the dyadic value (-1)^negative * significand * 2^exponent, rounded once without building
// a rational (the inner-loop form: a decoded word, or a product of two). significand == 0 is a
// zero with the sign `negative`.
Rounded round_rne_dyadic(Context& ctx, FloatFormat f, bool negative, uint64_t significand, long exponent);
// The same for an Exact: inf -> signed inf (IEEE formats) or overflow; NaN is not accepted here
// (callers handle NaN explicitly; a NaN argument returns the format's canonical NaN if any).
Rounded round_rne(Context& ctx, FloatFormat f, const Exact& v);

// Round to an integral value, ties to even (spec 7: +0.5 -> 0, +1.5 -> 2, -2.5 -> -2).
mpz_class round_to_integral_ties_even(Context& ctx, const mpq_class& v);
// The same into caller-owned storage (no allocation once `out` has grown).
void round_to_integral_ties_even(Context& ctx, const mpq_class& v, mpz_class& out);

// The value of a finite word of format f rounded to an integral value, ties to even, saturated to
// the range of long (the encoder's step 5 on normalized32, spec 7). Precondition: word is finite.
long round_word_to_integral_ties_even(Context& ctx, FloatFormat f, uint32_t word);

// Convenience: binary32 word of the correctly rounded exact value.
uint32_t round_f32(Context& ctx, const mpq_class& v);

}  // namespace nc::oracle
