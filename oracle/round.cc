// The one rounding choke point. An exact rational is rounded by MPFR to the format's precision
// within its exponent range, then mpfr_subnormalize applies gradual underflow (using the ternary
// value so that the two steps are one correct rounding). The exponent range is set only for the
// duration of the call and restored, and the only MPFR variable touched in the narrow range is
// ctx.rounded[f]. A dyadic value is loaded with mpfr_set_z_2exp / mpfr_set_ui_2exp (no division);
// only a non-dyadic rational needs mpfr_set_q. Parameters per format are in oracle/README.md.
#include "oracle/round.h"

#include "oracle/decode.h"

namespace nc::oracle {

namespace {
// Restores the caller's MPFR exponent range.
class ExponentRange {
 public:
  ExponentRange(mpfr_exp_t emin, mpfr_exp_t emax) : old_emin_(mpfr_get_emin()), old_emax_(mpfr_get_emax()) {
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
  }
  ~ExponentRange() {
    mpfr_set_emin(old_emin_);
    mpfr_set_emax(old_emax_);
  }
  ExponentRange(const ExponentRange&) = delete;
  ExponentRange& operator=(const ExponentRange&) = delete;

 private:
  mpfr_exp_t old_emin_, old_emax_;
};

uint32_t sign_bit(const FloatFormatInfo& fi) { return 1u << (fi.bits - 1); }
uint32_t inf_word(const FloatFormatInfo& fi) { return ((1u << fi.exponent_bits) - 1) << fi.fraction_bits; }

// Rounds into ctx.rounded[f]: `load(x)` sets x from the exact value with MPFR_RNDN inside the
// format's exponent range and returns the ternary value; mpfr_subnormalize then applies gradual
// underflow. The word is read from x's single significand limb (precision <= 24 bits).
template <class Load>
Rounded round_loaded(Context& ctx, FloatFormat f, bool negative, Load&& load) {
  const FloatFormatInfo& fi = info(f);
  const uint32_t sign = negative ? sign_bit(fi) : 0;
  mpfr_ptr x = ctx.rounded[static_cast<int>(f)];
  // MPFR significands lie in [1/2, 1): the smallest subnormal 2^(1-bias-fraction_bits) is
  // 1/2 * 2^emin, so emin = 2 - bias - fraction_bits. emax is one above the format's largest
  // binade (emax + 1) plus one more, so a value that rounds just past the largest finite is still
  // an ordinary MPFR number and overflow is decided below by comparing words.
  Rounded r;
  {
    ExponentRange range(2 - fi.bias - fi.fraction_bits, fi.emax + 2);
    const int t = mpfr_subnormalize(x, load(x), MPFR_RNDN);
    r.inexact = t != 0;
  }
  if (mpfr_zero_p(x)) {
    r.word = sign;  // underflow to zero keeps the sign of v
    return r;
  }
  if (!mpfr_inf_p(x)) {
    // x = 0.1b..b * 2^e: the top `precision` bits of its only limb are the significand, and the
    // unbiased exponent of the leading bit is e - 1.
    const int precision = fi.fraction_bits + 1;
    const auto* limbs = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(x));
    uint32_t significand = static_cast<uint32_t>(limbs[0] >> (GMP_NUMB_BITS - precision));
    const long unbiased = static_cast<long>(mpfr_get_exp(x)) - 1;
    const long min_normal = 1 - fi.bias;
    long biased = 0;
    if (unbiased < min_normal) {
      // After subnormalize a subnormal keeps zero bits below the format's last fraction bit, so
      // the shift is exact.
      significand >>= min_normal - unbiased;
    } else {
      biased = unbiased + fi.bias;
    }
    const uint32_t frac = significand & ((1u << fi.fraction_bits) - 1);
    if (biased < (1l << fi.exponent_bits)) {
      const uint32_t magnitude = (static_cast<uint32_t>(biased) << fi.fraction_bits) | frac;
      if (magnitude <= fi.max_finite_magnitude_bits) {
        r.word = sign | magnitude;
        return r;
      }
    }
  }
  // Overflow: IEEE formats round to infinity (RNE); E4M3FN/E2M1 report it with the largest finite.
  r.overflow = true;
  r.inexact = true;
  r.word = sign | (fi.has_inf ? inf_word(fi) : fi.max_finite_magnitude_bits);
  return r;
}
}  // namespace

Rounded round_rne(Context& ctx, FloatFormat f, const mpq_class& v, bool negative_zero_sign) {
  const int s = sgn(v);
  if (s == 0) return Rounded{negative_zero_sign ? sign_bit(info(f)) : 0, false, false};
  const mpz_srcptr den = v.get_den_mpz_t();
  if (mpz_popcount(den) == 1) {  // dyadic: num * 2^-k, one rounding without a division
    const mpfr_exp_t k = static_cast<mpfr_exp_t>(mpz_scan1(den, 0));
    return round_loaded(ctx, f, s < 0,
                        [&](mpfr_ptr x) { return mpfr_set_z_2exp(x, v.get_num_mpz_t(), -k, MPFR_RNDN); });
  }
  return round_loaded(ctx, f, s < 0, [&](mpfr_ptr x) { return mpfr_set_q(x, v.get_mpq_t(), MPFR_RNDN); });
}

Rounded round_rne_dyadic(Context& ctx, FloatFormat f, bool negative, uint64_t significand, long exponent) {
  if (significand == 0) return Rounded{negative ? sign_bit(info(f)) : 0, false, false};
  static_assert(sizeof(unsigned long) >= sizeof(uint64_t), "mpfr_set_ui_2exp must take the whole significand");
  return round_loaded(ctx, f, negative, [&](mpfr_ptr x) {
    // One rounding of the magnitude; RNE is symmetric, so negating the result (exact) and its
    // ternary value rounds the signed value.
    const int t = mpfr_set_ui_2exp(x, significand, exponent, MPFR_RNDN);
    if (!negative) return t;
    mpfr_neg(x, x, MPFR_RNDN);
    return -t;
  });
}

Rounded round_rne(Context& ctx, FloatFormat f, const Exact& v) {
  const FloatFormatInfo& fi = info(f);
  const uint32_t sign = v.negative ? sign_bit(fi) : 0;
  Rounded r;
  switch (v.kind) {
    case Exact::Kind::Finite:
      return round_rne(ctx, f, v.q, v.negative);
    case Exact::Kind::Inf:
      r.word = sign | (fi.has_inf ? inf_word(fi) : fi.max_finite_magnitude_bits);
      r.overflow = !fi.has_inf;
      return r;
    case Exact::Kind::NaN:
      // The format's quiet NaN with the sign (IEEE: top fraction bit; E4M3FN: S.1111.111).
      if (fi.has_inf) {
        r.word = sign | inf_word(fi) | (1u << (fi.fraction_bits - 1));
      } else {
        r.word = sign | ((1u << (fi.bits - 1)) - 1);
      }
      return r;
  }
  return r;
}

void round_to_integral_ties_even(Context& ctx, const mpq_class& v, mpz_class& fl) {
  mpz_fdiv_q(fl.get_mpz_t(), v.get_num_mpz_t(), v.get_den_mpz_t());
  // twice the remainder, compared with the denominator
  mpz_mul(ctx.z0.get_mpz_t(), fl.get_mpz_t(), v.get_den_mpz_t());
  mpz_sub(ctx.z0.get_mpz_t(), v.get_num_mpz_t(), ctx.z0.get_mpz_t());
  mpz_mul_2exp(ctx.z0.get_mpz_t(), ctx.z0.get_mpz_t(), 1);
  const int c = mpz_cmp(ctx.z0.get_mpz_t(), v.get_den_mpz_t());
  if (c > 0 || (c == 0 && mpz_odd_p(fl.get_mpz_t()))) mpz_add_ui(fl.get_mpz_t(), fl.get_mpz_t(), 1);
}

mpz_class round_to_integral_ties_even(Context& ctx, const mpq_class& v) {
  mpz_class fl;
  round_to_integral_ties_even(ctx, v, fl);
  return fl;
}

long round_word_to_integral_ties_even(Context& ctx, FloatFormat f, uint32_t word) {
  const WordFields w = split_word(f, word);
  // Exact: a significand of at most 24 bits in a 64-bit variable. mpfr_rint with MPFR_RNDN rounds
  // halfway cases to the even integer, and its result needs no more bits than its argument.
  mpfr_set_ui_2exp(ctx.integral, w.significand, w.exponent, MPFR_RNDN);
  mpfr_rint(ctx.integral, ctx.integral, MPFR_RNDN);
  const long v = mpfr_get_si(ctx.integral, MPFR_RNDN);
  return w.negative ? -v : v;
}

uint32_t round_f32(Context& ctx, const mpq_class& v) { return round_rne(ctx, FloatFormat::Binary32, v).word; }

}  // namespace nc::oracle
