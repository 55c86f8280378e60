// Recipe conversions (docs/recipes.md): hand-computed ties and boundaries, then a sampled
// comparison against a second derivation in this file (nearest value by search over a table
// built with ldexp from the spec's field formulas, ties to the even word).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "codec/recipes.h"

using namespace nc::codec;

static uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

TEST_CASE("F32_TO_BF16_RNE at hand-computed points", "[codec][recipe]") {
  CHECK(f32_to_bf16_rne(0x3f808000u) == 0x3f80u);  // tie, even stays
  CHECK(f32_to_bf16_rne(0x3f818000u) == 0x3f82u);  // tie, odd rounds up
  CHECK(f32_to_bf16_rne(0x3f808001u) == 0x3f81u);  // above the tie
  CHECK(f32_to_bf16_rne(0xbf818000u) == 0xbf82u);  // negative tie
  CHECK(f32_to_bf16_rne(0x7f7fffffu) == 0x7f80u);  // rounds past the max: infinity
  CHECK(f32_to_bf16_rne(0x7f7f7fffu) == 0x7f7fu);
  CHECK(f32_to_bf16_rne(0x00008000u) == 0x0000u);  // subnormal tie to zero (even)
  CHECK(f32_to_bf16_rne(0x00018000u) == 0x0002u);
  CHECK(f32_to_bf16_rne(0x80000000u) == 0x8000u);  // signed zero kept
  CHECK(f32_to_bf16_rne(0xff800000u) == 0xff80u);
  // NaN: sign and top payload bits kept, quiet bit forced.
  CHECK(f32_to_bf16_rne(0x7f800001u) == 0x7fc0u);
  CHECK(f32_to_bf16_rne(0xff812345u) == 0xffc1u);
  CHECK(f32_to_bf16_rne(0x7fffffffu) == 0x7fffu);
  CHECK(f32_to_bf16_rne(Fp32Word(0x3f818000u)) == Bf16Word(0x3f82));
}

TEST_CASE("F32_TO_F16_RNE at hand-computed points", "[codec][recipe]") {
  CHECK(f32_to_f16_rne(bits(65504.0f)) == 0x7bffu);
  CHECK(f32_to_f16_rne(bits(65520.0f)) == 0x7c00u);  // tie between 65504 (odd) and 2^16: inf
  CHECK(f32_to_f16_rne(0x477fefffu) == 0x7bffu);     // just below 65520
  CHECK(f32_to_f16_rne(bits(-65520.0f)) == 0xfc00u);
  CHECK(f32_to_f16_rne(0x33000000u) == 0x0000u);  // 2^-25: tie 0 / 2^-24
  CHECK(f32_to_f16_rne(0x33000001u) == 0x0001u);
  CHECK(f32_to_f16_rne(0x33c00000u) == 0x0002u);  // 3*2^-25 = 1.5 units: tie 1 / 2, even
  CHECK(f32_to_f16_rne(0x33400000u) == 0x0001u);  // 0.75 units
  CHECK(f32_to_f16_rne(0x3f801000u) == 0x3c00u);  // 1 + 2^-11: tie, even
  CHECK(f32_to_f16_rne(0x3f803000u) == 0x3c02u);  // 1 + 3*2^-11: tie, up
  CHECK(f32_to_f16_rne(0x38800000u) == 0x0400u);  // 2^-14 min normal
  CHECK(f32_to_f16_rne(0x387fe000u) == 0x0400u);  // rounds up into the min normal
  CHECK(f32_to_f16_rne(0x80000001u) == 0x8000u);
  CHECK(f32_to_f16_rne(0x7f800000u) == 0x7c00u);
  CHECK(f32_to_f16_rne(0x7fa00000u) == 0x7f00u);  // payload top bit 0x100, quiet 0x200
  CHECK(f32_to_f16_rne(0xff800001u) == 0xfe00u);
}

TEST_CASE("F32_TO_E4M3FN recipes at the 448/464 boundary and ties", "[codec][recipe]") {
  // 464 = 448 + half an ulp (32): a tie between 448 (mantissa 110, even) and the unrepresentable
  // 480 (111): RNE keeps 448, so only values above 464 overflow.
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(448.0f)) == 0x7eu);
  CHECK(f32_to_e4m3fn_rne_ovf_nan(bits(448.0f)) == 0x7eu);
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(464.0f)) == 0x7eu);
  CHECK(f32_to_e4m3fn_rne_ovf_nan(bits(464.0f)) == 0x7eu);
  CHECK(f32_to_e4m3fn_rne_satfinite(0x43e80001u) == 0x7eu);
  CHECK(f32_to_e4m3fn_rne_ovf_nan(0x43e80001u) == 0x7fu);
  CHECK(f32_to_e4m3fn_rne_ovf_nan(bits(-500.0f)) == 0xffu);
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(-500.0f)) == 0xfeu);
  CHECK(f32_to_e4m3fn_rne_satfinite(0x7f800000u) == 0x7eu);
  CHECK(f32_to_e4m3fn_rne_satfinite(0xff800000u) == 0xfeu);
  CHECK(f32_to_e4m3fn_rne_ovf_nan(0x7f800000u) == 0x7fu);
  CHECK(f32_to_e4m3fn_rne_ovf_nan(0xff800000u) == 0xffu);
  CHECK(f32_to_e4m3fn_rne_satfinite(0xffc00000u) == 0xffu);
  CHECK(f32_to_e4m3fn_rne_satfinite(0x7f800001u) == 0x7fu);
  CHECK(f32_to_e4m3fn_rne_ovf_nan(0xffc00000u) == 0xffu);
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(0x1p-10f)) == 0x00u);  // tie 0 / 2^-9
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(0x3p-10f)) == 0x02u);  // tie 1 / 2 units
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(0x1p-9f)) == 0x01u);
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(1.0625f)) == 0x38u);  // tie 1.0 / 1.125
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(1.1875f)) == 0x3au);  // tie 1.125 / 1.25
  CHECK(f32_to_e4m3fn_rne_satfinite(bits(-0.0f)) == 0x80u);
}

TEST_CASE("F32_TO_E2M1_RNE_SATFINITE at hand-computed points", "[codec][recipe]") {
  const std::pair<float, uint32_t> cases[] = {{0.25f, 0x0}, {0.2500001f, 0x1}, {0.75f, 0x2},  {1.25f, 0x2},
                                              {1.75f, 0x4}, {2.5f, 0x4},       {3.5f, 0x6},   {5.0f, 0x6},
                                              {6.0f, 0x7},  {7.0f, 0x7},       {100.0f, 0x7}, {-0.75f, 0xa},
                                              {-0.0f, 0x8}, {-6.5f, 0xf},      {1e-40f, 0x0}};
  for (auto [x, w] : cases) {
    INFO("x = " << x);
    CHECK(f32_to_e2m1_rne_satfinite(bits(x)) == w);
  }
  CHECK(f32_to_e2m1_rne_satfinite(0xff800000u) == 0xfu);
  CHECK(f32_to_e2m1_rne_satfinite(0x7fc00001u) == 0x7u);  // no NaN: largest magnitude, NaN's sign
  CHECK(f32_to_e2m1_rne_satfinite(0xffc00000u) == 0xfu);
}

namespace {
// Positive finite words 0..max of a minifloat, valued by the spec's field formula.
struct Table {
  std::vector<double> value;  // value[word]
  double beyond;              // the next value an unbounded exponent would give (overflow step)
};

Table table(int exp_bits, int mant_bits, int bias, uint32_t max_word) {
  Table t;
  for (uint32_t w = 0; w <= max_word + 1; ++w) {
    const int e = int(w >> mant_bits), m = int(w & ((1u << mant_bits) - 1));
    const double v = e == 0 ? std::ldexp(double(m), 1 - bias - mant_bits)
                            : std::ldexp(1.0 + std::ldexp(double(m), -mant_bits), e - bias);
    (w <= max_word ? t.value.push_back(v) : void(t.beyond = v));
  }
  (void)exp_bits;
  return t;
}

// Returns the word (without sign) or max_word+1 for "overflowed".
uint32_t nearest_even(const Table& t, double a) {
  const auto& v = t.value;
  if (a >= t.beyond) return uint32_t(v.size());
  const size_t hi = size_t(std::lower_bound(v.begin(), v.end(), a) - v.begin());
  if (hi < v.size() && v[hi] == a) return uint32_t(hi);
  const size_t lo = hi - 1;
  const double up = hi < v.size() ? v[hi] : t.beyond;
  const double dl = a - v[lo], du = up - a;  // exact: neighbours of a in a narrow range
  if (dl < du) return uint32_t(lo);
  if (du < dl) return uint32_t(hi);
  return uint32_t((lo & 1) ? hi : lo);
}

template <class F>
void sweep(const Table& t, uint32_t sign_bit, uint32_t overflow_word, F convert) {
  uint64_t mismatches = 0;
  for (uint64_t i = 0; i < (1ull << 32); i += 65537 * 7) {
    const uint32_t x = uint32_t(i);
    const float xf = std::bit_cast<float>(x);
    if (!std::isfinite(xf)) continue;
    uint32_t w = nearest_even(t, std::fabs(double(xf)));
    if (w == t.value.size()) w = overflow_word;
    if (std::signbit(xf)) w |= sign_bit;
    if (convert(x) != w && ++mismatches < 5)
      FAIL_CHECK("x=0x" << std::hex << x << " got " << convert(x) << " want " << w);
  }
  CHECK(mismatches == 0);
}
}  // namespace

TEST_CASE("recipes agree with a nearest-value search on a binary32 sample", "[codec][recipe]") {
  const Table f16 = table(5, 10, 15, 0x7bff);
  sweep(f16, 0x8000, 0x7c00, [](uint32_t x) { return f32_to_f16_rne(x); });
  const Table e4 = table(4, 3, 7, 0x7e);
  sweep(e4, 0x80, 0x7e, [](uint32_t x) { return f32_to_e4m3fn_rne_satfinite(x); });
  sweep(e4, 0x80, 0x7f, [](uint32_t x) { return f32_to_e4m3fn_rne_ovf_nan(x); });
  const Table e2 = table(2, 1, 1, 0x7);
  sweep(e2, 0x8, 0x7, [](uint32_t x) { return f32_to_e2m1_rne_satfinite(x); });
  // Every midpoint and its neighbours for binary16 (the tie cases a sample would miss).
  for (uint32_t w = 0; w < 0x7bff; ++w) {
    const double mid = (f16.value[w] + f16.value[w + 1]) / 2;  // exact in binary32
    const uint32_t m = std::bit_cast<uint32_t>(float(mid));
    const uint32_t tie = (w & 1) ? w + 1 : w;
    if (f32_to_f16_rne(m) != tie || f32_to_f16_rne(m + 1) != w + 1 || f32_to_f16_rne(m - 1) != w)
      FAIL("binary16 midpoint above word " << w);
  }
}

TEST_CASE("BF16 and E4M3FN midpoints round to the even neighbour", "[codec][recipe]") {
  // BF16 word w and w+1 differ in the 16th bit of a binary32; their midpoint is w<<16 | 0x8000.
  for (uint32_t w = 0; w < 0x7f7f; ++w) {
    const uint32_t m = (w << 16) | 0x8000u, tie = (w & 1) ? w + 1 : w;
    if (f32_to_bf16_rne(m) != tie || f32_to_bf16_rne(m - 1) != w || f32_to_bf16_rne(m + 1) != w + 1 ||
        f32_to_bf16_rne(m | 0x80000000u) != (tie | 0x8000u))
      FAIL("BF16 midpoint above word " << w);
  }
  const Table e4 = table(4, 3, 7, 0x7e);
  for (uint32_t w = 0; w < 0x7e; ++w) {
    const uint32_t m = std::bit_cast<uint32_t>(float((e4.value[w] + e4.value[w + 1]) / 2));
    const uint32_t tie = (w & 1) ? w + 1 : w;
    if (f32_to_e4m3fn_rne_satfinite(m) != tie || f32_to_e4m3fn_rne_satfinite(m - 1) != w ||
        f32_to_e4m3fn_rne_satfinite(m + 1) != w + 1)
      FAIL("E4M3FN midpoint above word " << w);
  }
}
