// The one rounding choke point. An exact rational is rounded by MPFR to the format's precision
// within its exponent range, then mpfr_subnormalize applies gradual underflow (using the ternary
// value so that the two steps are one correct rounding). The exponent range is set only for the
// duration of the call and restored, and the only MPFR variable live in the narrow range is
// ctx.fr. Parameters per format are documented in oracle/README.md.
#include "oracle/round.h"

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
}  // namespace

Rounded round_rne(Context& ctx, FloatFormat f, const mpq_class& v, bool negative_zero_sign) {
  const FloatFormatInfo& fi = info(f);
  Rounded r;
  const bool negative = sgn(v) < 0 || (sgn(v) == 0 && negative_zero_sign);
  const uint32_t sign = negative ? sign_bit(fi) : 0;
  if (sgn(v) == 0) {
    r.word = sign;
    return r;
  }
  // MPFR significands lie in [1/2, 1): the smallest subnormal 2^(1-bias-fraction_bits) is
  // 1/2 * 2^emin, so emin = 2 - bias - fraction_bits. emax is one above the format's largest
  // binade (emax + 1) plus one more, so a value that rounds just past the largest finite is still
  // an ordinary MPFR number and overflow is decided below by comparing words.
  const mpfr_exp_t emin = 2 - fi.bias - fi.fraction_bits;
  const mpfr_exp_t emax = fi.emax + 2;
  {
    ExponentRange range(emin, emax);
    mpfr_set_prec(ctx.fr, fi.fraction_bits + 1);
    int t = mpfr_set_q(ctx.fr, v.get_mpq_t(), MPFR_RNDN);
    t = mpfr_subnormalize(ctx.fr, t, MPFR_RNDN);
    r.inexact = t != 0;
    if (mpfr_inf_p(ctx.fr)) {
      r.overflow = true;
    } else if (mpfr_zero_p(ctx.fr)) {
      r.word = sign;  // underflow to zero keeps the sign of v
      return r;
    } else {
      const mpfr_exp_t e2 = mpfr_get_z_2exp(ctx.z0.get_mpz_t(), ctx.fr);  // fr = z0 * 2^e2
      mpz_abs(ctx.z0.get_mpz_t(), ctx.z0.get_mpz_t());
      const long nb = static_cast<long>(mpz_sizeinbase(ctx.z0.get_mpz_t(), 2));
      const long unbiased = static_cast<long>(e2) + nb - 1;
      const long min_normal = 1 - fi.bias;
      uint32_t biased;
      long frac_lsb_exp;  // exponent of the fraction's last bit
      if (unbiased < min_normal) {
        biased = 0;
        frac_lsb_exp = min_normal - fi.fraction_bits;
      } else {
        biased = static_cast<uint32_t>(unbiased + fi.bias);
        frac_lsb_exp = unbiased - fi.fraction_bits;
      }
      // Align z0 to the fraction's last bit. After subnormalize a subnormal keeps trailing zero
      // bits below that position, so a right shift is exact.
      const long shift = static_cast<long>(e2) - frac_lsb_exp;
      if (shift > 0) mpz_mul_2exp(ctx.z0.get_mpz_t(), ctx.z0.get_mpz_t(), static_cast<unsigned long>(shift));
      if (shift < 0) mpz_tdiv_q_2exp(ctx.z0.get_mpz_t(), ctx.z0.get_mpz_t(), static_cast<unsigned long>(-shift));
      const uint32_t significand = static_cast<uint32_t>(mpz_get_ui(ctx.z0.get_mpz_t()));
      const uint32_t frac = significand & ((1u << fi.fraction_bits) - 1);
      const uint32_t magnitude = (biased << fi.fraction_bits) | frac;
      if (biased >= (1u << fi.exponent_bits) || magnitude > fi.max_finite_magnitude_bits) {
        r.overflow = true;
      } else {
        r.word = sign | magnitude;
        return r;
      }
    }
  }
  // Overflow: IEEE formats round to infinity (RNE); E4M3FN/E2M1 report it with the largest finite.
  r.inexact = true;
  r.word = sign | (fi.has_inf ? inf_word(fi) : fi.max_finite_magnitude_bits);
  return r;
}

Rounded round_rne(Context& ctx, FloatFormat f, const Exact& v) {
  const FloatFormatInfo& fi = info(f);
  const uint32_t sign = v.negative ? sign_bit(fi) : 0;
  Rounded r;
  switch (v.kind) {
    case Exact::Kind::Finite: return round_rne(ctx, f, v.q, v.negative);
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

uint32_t round_f32(Context& ctx, const mpq_class& v) { return round_rne(ctx, FloatFormat::Binary32, v).word; }

}  // namespace nc::oracle
