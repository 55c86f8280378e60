// The MPFR rounding choke point against a third method: round-to-nearest-even written with
// integer (mpz) arithmetic only, straight from the definition. Exhaustive over every adjacent
// pair of finite values of the 16-, 8- and 4-bit formats (the values, their midpoints and points
// just either side), a strided sweep of binary32, and seeded random rationals.
#include <catch2/catch.hpp>

#include "generator/splitmix64.h"
#include "oracle/float_format.h"
#include "oracle/round.h"

using namespace nc::oracle;

namespace {
// Integer RNE: the word of the format nearest to num/den (> 0), ties to even; `overflow` when the
// rounded magnitude is above the largest finite word.
uint32_t integer_rne(const FloatFormatInfo& f, const mpz_class& num, const mpz_class& den, bool& overflow) {
  // E = floor(log2(num/den))
  long e =
      static_cast<long>(mpz_sizeinbase(num.get_mpz_t(), 2)) - static_cast<long>(mpz_sizeinbase(den.get_mpz_t(), 2));
  {
    mpz_class a = num, b = den;
    if (e >= 0) b <<= e;
    else a <<= -e;
    if (a < b) --e;
  }
  const long min_normal = 1 - f.bias;
  if (e < min_normal) e = min_normal;
  const long lsb = e - f.fraction_bits;
  mpz_class n = num, d = den;
  if (lsb >= 0) d <<= lsb;
  else n <<= -lsb;
  mpz_class q, r;
  mpz_fdiv_qr(q.get_mpz_t(), r.get_mpz_t(), n.get_mpz_t(), d.get_mpz_t());
  r <<= 1;
  if (r > d || (r == d && mpz_odd_p(q.get_mpz_t()))) q += 1;
  const mpz_class hidden = mpz_class(1) << f.fraction_bits;
  mpz_class word = q < hidden ? q : mpz_class((mpz_class(e + f.bias) << f.fraction_bits) + (q - hidden));
  overflow = word > f.max_finite_magnitude_bits;
  return overflow ? 0 : static_cast<uint32_t>(word.get_ui());
}

// The exact value of a positive finite word, from the fields (num/den form).
mpq_class value_of(const FloatFormatInfo& f, uint32_t w) {
  const uint32_t e = w >> f.fraction_bits;
  const uint32_t m = w & ((1u << f.fraction_bits) - 1);
  mpq_class v = e == 0 ? mpq_class(m) : mpq_class((1u << f.fraction_bits) | m);
  const long x = (e == 0 ? 1 : static_cast<long>(e)) - f.bias - f.fraction_bits;
  if (x >= 0) v *= mpq_class(mpz_class(1) << x);
  else v /= mpq_class(mpz_class(1) << -x);
  return v;
}

struct Mismatch {
  int count = 0;
};

void compare(Context& ctx, const FloatFormatInfo& f, const mpq_class& v, Mismatch& mm) {
  for (int s = 0; s < 2; ++s) {
    const mpq_class x = s ? mpq_class(-v) : v;
    bool ovf = false;
    const uint32_t expect = integer_rne(f, v.get_num(), v.get_den(), ovf);
    const uint32_t sign = s ? 1u << (f.bits - 1) : 0;
    auto check = [&](const Rounded& got, const char* entry) {
      const bool ok = ovf ? got.overflow : (!got.overflow && got.word == (sign | expect));
      if (!ok && ++mm.count <= 5) {
        FAIL_CHECK(f.name << " " << entry << ": " << x.get_str(16) << " oracle word " << std::hex << got.word
                          << " overflow " << got.overflow << ", integer method " << (sign | expect) << " overflow "
                          << ovf);
      }
    };
    check(round_rne(ctx, f.id, x), "round_rne");
    // The dyadic entry, wherever the value is num * 2^-k with num < 2^64.
    const mpz_class& den = v.get_den();
    if (mpz_popcount(den.get_mpz_t()) == 1 && mpz_sizeinbase(v.get_num_mpz_t(), 2) <= 64) {
      uint64_t num = 0;
      mpz_export(&num, nullptr, -1, sizeof num, 0, 0, v.get_num_mpz_t());
      const long k = static_cast<long>(mpz_scan1(den.get_mpz_t(), 0));
      check(round_rne_dyadic(ctx, f.id, s != 0, num, -k), "round_rne_dyadic");
    }
  }
}

void sweep(const FloatFormatInfo& f, uint32_t stride) {
  Context ctx;
  Mismatch mm;
  const uint32_t max = f.max_finite_magnitude_bits;
  mpq_class a, b, mid, eps;
  for (uint64_t w = 0; w <= max; w += stride) {
    a = value_of(f, static_cast<uint32_t>(w));
    b = w < max ? value_of(f, static_cast<uint32_t>(w + 1)) : mpq_class(2 * a - value_of(f, max - 1));
    mid = (a + b) / 2;
    eps = (b - a) / (1 << 20);
    if (w > 0) compare(ctx, f, a, mm);
    compare(ctx, f, mid, mm);
    compare(ctx, f, mid + eps, mm);
    compare(ctx, f, mid - eps, mm);
  }
  CHECK(mm.count == 0);
}
}  // namespace

TEST_CASE("third method: every binary16 value and midpoint", "[oracle][rounding]") {
  sweep(info(FloatFormat::Binary16), 1);
}
TEST_CASE("third method: every bfloat16 value and midpoint", "[oracle][rounding]") {
  sweep(info(FloatFormat::BFloat16), 1);
}
TEST_CASE("third method: every E4M3FN and E2M1 value and midpoint", "[oracle][rounding]") {
  sweep(info(FloatFormat::E4M3FN), 1);
  sweep(info(FloatFormat::E2M1), 1);
}
TEST_CASE("third method: binary32 values and midpoints, stride 4099", "[oracle][rounding]") {
  sweep(info(FloatFormat::Binary32), 4099);
}

TEST_CASE("third method: seeded random rationals to binary32 and binary16", "[oracle][rounding]") {
  Context ctx;
  Mismatch mm;
  nc::gen::SplitMix64 rng(0x6f7261636c65ull);
  auto next = [&rng] { return rng.next(); };
  for (int i = 0; i < 100000; ++i) {
    const uint64_t n = next() | 1, d = next() | 1;
    const long shift = static_cast<long>(next() % 320) - 170;  // covers underflow and overflow
    mpz_class num, den;
    mpz_import(num.get_mpz_t(), 1, 1, 8, 0, 0, &n);
    mpz_import(den.get_mpz_t(), 1, 1, 8, 0, 0, &d);
    if (shift >= 0) num <<= shift;
    else den <<= -shift;
    mpq_class v(num, den);
    v.canonicalize();
    compare(ctx, info(FloatFormat::Binary32), v, mm);
    if (i % 8 == 0) compare(ctx, info(FloatFormat::Binary16), v / (mpz_class(1) << 100), mm);
  }
  CHECK(mm.count == 0);
}

TEST_CASE("third method: seeded random 64-bit significands times powers of two", "[oracle][rounding]") {
  // Products of two binary32 significands (the encoder's x * inv32) reach 48 bits; 64 covers them.
  Context ctx;
  Mismatch mm;
  nc::gen::SplitMix64 rng(0x647961646963ull);
  auto next = [&rng] { return rng.next(); };
  for (int i = 0; i < 100000; ++i) {
    const uint64_t n = next() >> (next() % 64);
    if (n == 0) continue;
    const long shift = static_cast<long>(next() % 400) - 250;
    mpz_class num;
    mpz_import(num.get_mpz_t(), 1, 1, 8, 0, 0, &n);
    mpq_class v(num);
    if (shift >= 0) v *= mpq_class(mpz_class(1) << shift);
    else v /= mpq_class(mpz_class(1) << -shift);
    for (const FloatFormat f :
         {FloatFormat::Binary32, FloatFormat::Binary16, FloatFormat::BFloat16, FloatFormat::E4M3FN, FloatFormat::E2M1})
      compare(ctx, info(f), v, mm);
  }
  CHECK(mm.count == 0);
}

TEST_CASE("integral rounding of a word: spec 7 examples and the rational method", "[oracle][rounding]") {
  Context ctx;
  // Spec 7: ties to even. 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -2.5 -> -2, 3.5 -> 4, -0.75 -> -1.
  CHECK(round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, 0x3f000000u) == 0);
  CHECK(round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, 0x3fc00000u) == 2);
  CHECK(round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, 0x40200000u) == 2);
  CHECK(round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, 0xc0200000u) == -2);
  CHECK(round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, 0x40600000u) == 4);
  CHECK(round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, 0xbf400000u) == -1);
  CHECK(round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, 0x80000001u) == 0);
  CHECK(round_word_to_integral_ties_even(ctx, FloatFormat::Binary16, 0x7bffu) == 65504);
  // Every binary32 word below 2^40 in magnitude on a stride, against floor-and-compare on the
  // exact rational (round_to_integral_ties_even).
  int mismatches = 0;
  mpz_class expect;
  for (uint64_t w = 0; w < 0x53800000u; w += 997) {
    for (const uint32_t word : {static_cast<uint32_t>(w), static_cast<uint32_t>(w) | 0x80000000u}) {
      round_to_integral_ties_even(
          ctx, value_of(info(FloatFormat::Binary32), word & 0x7fffffffu) * (word >> 31 ? -1 : 1), expect);
      const long got = round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, word);
      if (got != expect.get_si() && ++mismatches <= 5)
        FAIL_CHECK(std::hex << word << ": " << std::dec << got << " vs " << expect.get_str());
    }
  }
  CHECK(mismatches == 0);
}
