// The sweep reference against values worked by hand from the spec and IEEE 754 (each comment
// shows the arithmetic). The MPFR cross-check over whole domains is in tests/oracle.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "oracle/fastref/encoder.h"
#include "oracle/fastref/recipes.h"

using nc::fastref::convert;
using R = nc::fastref::Recipe;

TEST_CASE("F32_TO_BF16_RNE: ties, overflow, underflow, NaN", "[fastref]") {
  CHECK(convert(R::F32_TO_BF16_RNE, 0x3f808000u) == 0x3f80u);  // 1 + 2^-8: tie, 0x3f80 is even
  CHECK(convert(R::F32_TO_BF16_RNE, 0x3f818000u) == 0x3f82u);  // 1 + 3*2^-8: tie, up to even
  CHECK(convert(R::F32_TO_BF16_RNE, 0x3f808001u) == 0x3f81u);  // just above the tie
  CHECK(convert(R::F32_TO_BF16_RNE, 0x7f7fffffu) == 0x7f80u);  // max binary32 rounds past bf16 max
  CHECK(convert(R::F32_TO_BF16_RNE, 0x00008000u) == 0x0000u);  // 2^-134: half the min subnormal, even
  CHECK(convert(R::F32_TO_BF16_RNE, 0x00018000u) == 0x0002u);  // 3*2^-134: tie between 1 and 2 ulps
  CHECK(convert(R::F32_TO_BF16_RNE, 0x80000000u) == 0x8000u);  // -0 stays -0
  CHECK(convert(R::F32_TO_BF16_RNE, 0x7fa00001u) == 0x7fe0u);  // signalling NaN quieted, top payload kept
  CHECK(convert(R::F32_TO_BF16_RNE, 0xff800000u) == 0xff80u);  // -inf
}

TEST_CASE("F32_TO_F16_RNE: the 65520 boundary and subnormals", "[fastref]") {
  CHECK(convert(R::F32_TO_F16_RNE, 0x477ff000u) == 0x7c00u);  // 65520 = 65504 + half ulp: tie to even = inf
  CHECK(convert(R::F32_TO_F16_RNE, 0x477fefffu) == 0x7bffu);  // just below: 65504
  CHECK(convert(R::F32_TO_F16_RNE, 0x3f800000u) == 0x3c00u);  // 1.0
  CHECK(convert(R::F32_TO_F16_RNE, 0x33800000u) == 0x0001u);  // 2^-24, the min subnormal
  CHECK(convert(R::F32_TO_F16_RNE, 0x33000000u) == 0x0000u);  // 2^-25: tie between 0 and 2^-24, even
  CHECK(convert(R::F32_TO_F16_RNE, 0x33000001u) == 0x0001u);  // above that tie
  CHECK(convert(R::F32_TO_F16_RNE, 0x33c00000u) == 0x0002u);  // 3*2^-25: tie between 1 and 2 ulps, even
  CHECK(convert(R::F32_TO_F16_RNE, 0x387fe000u) == 0x0400u);  // 2^-14 - 2^-25: rounds up into min normal
  CHECK(convert(R::F32_TO_F16_RNE, 0x7f800001u) == 0x7e00u);  // payload below the kept bits, quiet
  CHECK(convert(R::F32_TO_F16_RNE, 0xffffe000u) == 0xffffu);  // full payload kept
}

TEST_CASE("F32 to E4M3FN under both overflow policies", "[fastref]") {
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x43e00000u) == 0x7eu);  // 448, the max
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x43e80000u) == 0x7eu);  // 464 saturates
  // 464 is the tie between 448 (m=6, even) and 480 (m=7, the NaN pattern): RNE keeps 448, and only
  // values above 464 round to 480, which does not exist: that is the overflow.
  CHECK(convert(R::F32_TO_E4M3FN_RNE_OVF_NAN, 0x43e80000u) == 0x7eu);
  CHECK(convert(R::F32_TO_E4M3FN_RNE_OVF_NAN, 0x43e80001u) == 0x7fu);    // just above 464: NaN
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x3b000000u) == 0x01u);  // 2^-9
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x3a800000u) == 0x00u);  // 2^-10: tie, even 0
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x3b400000u) == 0x02u);  // 3*2^-10: tie, even 2
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x3ac00000u) == 0x01u);  // 3*2^-11: 0.75 ulp, up
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x3f800000u) == 0x38u);  // 1.0 = e 7, m 0
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0xff800000u) == 0xfeu);  // -inf saturates
  CHECK(convert(R::F32_TO_E4M3FN_RNE_OVF_NAN, 0xff800000u) == 0xffu);    // -inf becomes NaN
  CHECK(convert(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x7fc00000u) == 0x7fu);  // NaN
}

TEST_CASE("F32_TO_E2M1_RNE_SATFINITE: every tie of the E2M1 grid", "[fastref]") {
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x3e800000u) == 0x0u);  // 0.25: tie 0 / 0.5
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x3f400000u) == 0x2u);  // 0.75: tie 0.5 / 1.0
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x3fa00000u) == 0x2u);  // 1.25: tie 1.0 / 1.5
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x3fe00000u) == 0x4u);  // 1.75: tie 1.5 / 2.0
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x40200000u) == 0x4u);  // 2.5: tie 2 / 3
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x40600000u) == 0x6u);  // 3.5: tie 3 / 4
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x40a00000u) == 0x6u);  // 5: tie 4 / 6
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x40e00000u) == 0x7u);  // 7 saturates to 6
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0x80000000u) == 0x8u);  // -0
  CHECK(convert(R::F32_TO_E2M1_RNE_SATFINITE, 0xc0a00001u) == 0xfu);  // just beyond -5: -6
}

TEST_CASE("decodes to binary32", "[fastref]") {
  CHECK(nc::fastref::e4m3fn_to_binary32(0x7e) == 0x43e00000u);  // 1.75 * 2^8 = 448
  CHECK(nc::fastref::e4m3fn_to_binary32(0x01) == 0x3b000000u);  // 2^-9
  CHECK(nc::fastref::e4m3fn_to_binary32(0x80) == 0x80000000u);  // -0
  CHECK(nc::fastref::e4m3fn_to_binary32(0x08) == 0x3c800000u);  // 2^-6, min normal
  CHECK(nc::fastref::e2m1_to_binary32(0x7) == 0x40c00000u);     // 6
  CHECK(nc::fastref::e2m1_to_binary32(0x9) == 0xbf000000u);     // -0.5
  CHECK(nc::fastref::f16_to_binary32(0x0001) == 0x33800000u);   // 2^-24
  CHECK(nc::fastref::f16_to_binary32(0x7bff) == 0x477fe000u);   // 65504
  CHECK(nc::fastref::f16_to_binary32(0x03ff) == 0x387fc000u);   // max subnormal 1023 * 2^-24
  CHECK(nc::fastref::bf16_to_binary32(0x0001) == 0x00010000u);  // 2^-133
}

TEST_CASE("binary32 products and the NVFP4 quotient", "[fastref]") {
  CHECK(nc::fastref::binary32_mul(0x33800000u, 0xc1000000u) == 0xb5000000u);  // 2^-24 * -8 = -2^-21
  CHECK(nc::fastref::binary32_mul(0x43e00000u, 0x7f7f0000u) == 0x7f800000u);  // 448 * bf16 max: inf
  CHECK(nc::fastref::binary32_mul(0x33800000u, 0x00800000u) == 0x00000000u);  // 2^-150: tie to 0
  CHECK(nc::fastref::binary32_mul(0x34400000u, 0x00800000u) == 0x00000002u);  // 1.5*2^-149*... = 3*2^-150 -> 2^-148
  CHECK(nc::fastref::binary32_mul_div(0x40c00000u, 0x43e00000u, 0x3f800000u) == 0x45280000u);  // 6*448 = 2688
  CHECK(nc::fastref::binary32_mul_div(0x3f800000u, 0x3f800000u, 0x40400000u) == 0x3eaaaaabu);  // 1/3 rounded up
  CHECK(nc::fastref::binary32_mul_div(0x3f000000u, 0x3b000000u, 0x7f000000u) == 0x00001000u);  // 2^-10/2^127 = 2^-137
  CHECK(nc::fastref::binary32_mul_div(0x40c00000u, 0x43e00000u, 0x00000001u) == 0x7f800000u);  // /2^-149: inf
}

// The worked groups of ../shared/spec/examples.md (exact arithmetic, written from spec 7).
TEST_CASE("encode_group reproduces the spec's worked examples", "[fastref]") {
  using nc::fastref::encode_group;
  using nc::fastref::EncodeOutcome;
  uint32_t scale = 0xffff;
  int32_t codes[4];
  const uint32_t plain[] = {0x3f800000u, 0xbf000000u, 0x3e800000u};
  REQUIRE(encode_group(-8, 7, plain, 3, &scale, codes) == EncodeOutcome::Ok);
  CHECK(scale == 0x3092u);
  CHECK((codes[0] == 7 && codes[1] == -4 && codes[2] == 2));
  const uint32_t mixed[] = {0x40400000u, 0xbfc00000u, 0x3f400000u, 0xbe4ccccdu};
  REQUIRE(encode_group(-8, 7, mixed, 4, &scale, codes) == EncodeOutcome::Ok);
  CHECK(scale == 0x36dbu);
  CHECK((codes[0] == 7 && codes[1] == -4 && codes[2] == 2 && codes[3] == 0));
  const uint32_t w8[] = {0x3f800000u, 0xbf800000u, 0x3f000000u};
  REQUIRE(encode_group(-127, 127, w8, 3, &scale, codes) == EncodeOutcome::Ok);
  CHECK(scale == 0x2008u);
  CHECK((codes[0] == 127 && codes[1] == -127 && codes[2] == 64));
  const uint32_t zeros[] = {0x00000000u, 0x80000000u};
  REQUIRE(encode_group(-32, 31, zeros, 2, &scale, codes) == EncodeOutcome::Ok);
  CHECK((scale == 0 && codes[0] == 0 && codes[1] == 0));
  const uint32_t tiny[] = {0x00000005u, 0x80000002u};
  REQUIRE(encode_group(-16, 15, tiny, 2, &scale, codes) == EncodeOutcome::Ok);
  CHECK((scale == 0x0001u && codes[0] == 0 && codes[1] == 0));  // the 2^-24 rescue
  const uint32_t huge[] = {0x4afe213eu};
  CHECK(encode_group(-127, 127, huge, 1, &scale, codes) == EncodeOutcome::ScaleOverflow);
  const uint32_t nan[] = {0x7fc00000u, 0x3f800000u};
  CHECK(encode_group(-8, 7, nan, 2, &scale, codes) == EncodeOutcome::NonFinite);
}

TEST_CASE("division and integral rounding building blocks", "[fastref]") {
  CHECK(nc::fastref::binary32_div(0x3f800000u, 0x40e00000u) == 0x3e124925u);  // 1/7 (examples.md)
  CHECK(nc::fastref::binary32_div(0x3f800000u, 0x40400000u) == 0x3eaaaaabu);  // 1/3
  CHECK(nc::fastref::binary32_div(0x00000005u, 0x41700000u) == 0x00000000u);  // 5*2^-149/15 < half ulp
  CHECK(nc::fastref::round_integral_rne(0x3f000000u) == 0);                   // +0.5 -> 0
  CHECK(nc::fastref::round_integral_rne(0xbf000000u) == 0);                   // -0.5 -> 0
  CHECK(nc::fastref::round_integral_rne(0x3fc00000u) == 2);                   // +1.5 -> 2
  CHECK(nc::fastref::round_integral_rne(0xbfc00000u) == -2);                  // -1.5 -> -2
  CHECK(nc::fastref::round_integral_rne(0x40200000u) == 2);                   // +2.5 -> 2
  CHECK(nc::fastref::round_integral_rne(0xc0200000u) == -2);                  // -2.5 -> -2
  CHECK(nc::fastref::round_integral_rne(0x3f000001u) == 1);                   // just above 0.5
}

namespace {
const R kAllRecipes[] = {R::F32_TO_BF16_RNE, R::F32_TO_F16_RNE, R::F32_TO_E4M3FN_RNE_SATFINITE,
                         R::F32_TO_E4M3FN_RNE_OVF_NAN, R::F32_TO_E2M1_RNE_SATFINITE};

// Number of the n words first, first + stride, ... where convert_range disagrees with word-by-word
// conversion.
uint64_t range_disagreements(R r, uint32_t first, size_t n, uint64_t stride = 1) {
  std::vector<uint32_t> by_range(n);
  nc::fastref::convert_range(r, first, n, by_range.data(), stride);
  uint64_t bad = 0;
  for (size_t k = 0; k < n; ++k) bad += by_range[k] != convert(r, uint32_t(first + k * stride));
  return bad;
}

// Whether convert_range_matches judges the lattice first, first + stride, ... as it must: it accepts
// the word-by-word results, and refuses them with any one word changed, a different bit at each
// position (every position of a short range; of a long one, the last and one in 61). A run it
// skipped, or one it compared against its neighbour's value, would let a changed word pass. The
// results are held as Word (uint32_t as the runner widens them; 16 or 8 bits where the
// destination's words fit, as a target returns them). Returns the number of wrong judgements.
template <typename Word = uint32_t>
uint64_t matches_misjudged(R r, uint32_t first, size_t n, uint64_t stride = 1) {
  std::vector<Word> actual(n);
  for (size_t k = 0; k < n; ++k) actual[k] = Word(convert(r, uint32_t(first + k * stride)));
  uint64_t wrong = !nc::fastref::convert_range_matches(r, first, n, actual.data(), stride);
  for (size_t k = 0; k < n; ++k) {
    if (n > 4096 && k % 61 != 0 && k + 1 != n) continue;
    const Word bit = Word(1u << (k % (8 * sizeof(Word))));
    actual[k] ^= bit;
    wrong += nc::fastref::convert_range_matches(r, first, n, actual.data(), stride);
    actual[k] ^= bit;
  }
  return wrong;
}

// The width of the recipe's destination words (fastref's own table of them is the registry's).
unsigned destination_bits(R r) { return r == R::F32_TO_BF16_RNE || r == R::F32_TO_F16_RNE ? 16 : 8; }
}  // namespace

// convert_range is a second way to compute the same function (bisection over monotone stretches):
// it must agree word for word, above all where monotonicity ends (infinity, NaN payloads whose F16
// results are not monotone, the sign boundary) and at every step of the destination grid.
TEST_CASE("convert_range equals word-by-word conversion", "[fastref]") {
  const uint32_t anchors[] = {0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x33000000u, 0x387fe000u, 0x3f800000u,
                              0x43e80000u, 0x477ff000u, 0x7f7fffffu, 0x7f800000u, 0x7f802000u, 0x7fc00000u, 0x7fffffffu,
                              0x80000000u, 0x80800000u, 0xbf800000u, 0xff7fffffu, 0xff800000u, 0xffc00000u};
  for (R r : kAllRecipes) {
    INFO("recipe " << int(r));
    for (uint32_t a : anchors) {
      uint32_t first = a >= 5000 ? a - 5000 : 0;
      CHECK(range_disagreements(r, first, std::min<uint64_t>(10000, 0x100000000ull - first)) == 0);
    }
    // Across the whole F16 NaN payload region, where an end-points-agree shortcut would be wrong.
    CHECK(range_disagreements(r, 0x7f7fff00u, 0x00800200u) == 0);
    CHECK(range_disagreements(r, 0xfffff000u, 0x1000u) == 0);  // up to the last word
    // Long runs across many binades (a few thousand destination steps each).
    CHECK(range_disagreements(r, 0x3e000000u, 1u << 22) == 0);
    CHECK(range_disagreements(r, 0x80000000u - (1u << 21), 1u << 22) == 0);  // through the sign
    uint64_t s = 0x9e3779b97f4a7c15ull;                                      // splitmix64: seeded random ranges
    for (int i = 0; i < 200; ++i) {
      s += 0x9e3779b97f4a7c15ull;
      uint64_t z = (s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      z ^= z >> 31;
      uint32_t first = uint32_t(z);
      size_t n = size_t(1 + (z >> 40) % 40000);
      CHECK(range_disagreements(r, first, std::min<uint64_t>(n, 0x100000000ull - first)) == 0);
    }
  }
}

// A strided sweep's batches (in[k] = first + k * stride): the same bisection over the lattice, which
// must find every step of the destination grid between two lattice words and stop at the ends of
// the finite stretches whatever the stride's phase against them.
TEST_CASE("convert_range with a stride equals word-by-word conversion", "[fastref]") {
  const uint64_t strides[] = {2, 3, 17, 257, 4099, 65537, 1000003, 0x7fffffffu};
  const uint32_t anchors[] = {0x00000000u, 0x007fffffu, 0x3f800000u, 0x7f7fffffu, 0x7f800000u,
                              0x7fc00000u, 0x80000000u, 0xbf800000u, 0xff7fffffu, 0xff800000u};
  for (R r : kAllRecipes) {
    INFO("recipe " << int(r));
    for (uint64_t stride : strides) {
      INFO("stride " << stride);
      for (uint32_t a : anchors) {
        const uint64_t first = a > 3000 * stride ? a - 3000 * stride : a % stride;
        const uint64_t n = std::min<uint64_t>(6000, (0xffffffffull - first) / stride + 1);
        CHECK(range_disagreements(r, uint32_t(first), size_t(n), stride) == 0);
      }
      // Whole 2^32 at this stride in one call (strides of 65537 and more: few inputs), and from an
      // odd phase below each sign's infinity on through its NaNs (to the last lattice word below 2^32).
      if (stride >= 65537) CHECK(range_disagreements(r, 0, size_t(0xffffffffull / stride + 1), stride) == 0);
      for (uint64_t infinity : {0x7f800000ull, 0xff800000ull}) {
        const uint64_t first = (infinity > 50000 * stride ? infinity - 50000 * stride : 0) + 5;
        const uint64_t n = std::min<uint64_t>(1 << 20, (0xffffffffull - first) / stride + 1);
        CHECK(range_disagreements(r, uint32_t(first), size_t(n), stride) == 0);
      }
    }
  }
}

// convert_range_matches walks the same runs without writing them: where the stretches and runs
// turn (finite ends, NaN payloads, the sign, the destination's steps), on and off a stride.
TEST_CASE("convert_range_matches accepts the results and refuses any one word changed", "[fastref]") {
  const uint32_t anchors[] = {0x00000000u, 0x007fffffu, 0x33000000u, 0x3f800000u, 0x43e80000u,
                              0x477ff000u, 0x7f7fffffu, 0x7f800000u, 0x7fc00000u, 0x80000000u,
                              0xbf800000u, 0xff7fffffu, 0xff800000u, 0xffffff00u};
  for (R r : kAllRecipes) {
    INFO("recipe " << int(r));
    for (uint64_t stride : {uint64_t(1), uint64_t(3), uint64_t(4099)}) {
      INFO("stride " << stride);
      for (uint32_t a : anchors) {
        INFO("anchor " << a);
        const uint64_t first = a > 300 * stride ? a - 300 * stride : a % stride;
        const size_t n = size_t(std::min<uint64_t>(600, (0xffffffffull - first) / stride + 1));
        CHECK(matches_misjudged(r, uint32_t(first), n, stride) == 0);
        CHECK(matches_misjudged<uint16_t>(r, uint32_t(first), n, stride) == 0);
        if (destination_bits(r) == 8) CHECK(matches_misjudged<uint8_t>(r, uint32_t(first), n, stride) == 0);
      }
      // A batch of the sweeps' length centred on 1.0: at stride 4099 it spans 16 binades each way,
      // through thousands of results, F16's overflow and E4M3FN's and E2M1's saturation.
      const uint32_t first = 0x3f800000u - 32768 * uint32_t(stride);
      CHECK(matches_misjudged(r, first, 65536, stride) == 0);
      CHECK(matches_misjudged<uint16_t>(r, first, 65536, stride) == 0);
      if (destination_bits(r) == 8) CHECK(matches_misjudged<uint8_t>(r, first, 65536, stride) == 0);
    }
  }
}

// Results held in words narrower than the destination's lose their top bits: where an expected
// word does not fit (1.0 is BF16 0x3f80), the narrow results are refused, wherever a run of
// equal results starts; where every expected word fits, they are judged as the wide ones.
TEST_CASE("convert_range_matches refuses results too narrow for the expected words", "[fastref]") {
  std::vector<uint8_t> ones(64, 0x80);  // 0x3f80 cut to its low byte
  CHECK_FALSE(nc::fastref::convert_range_matches(R::F32_TO_BF16_RNE, 0x3f800000u, 64, ones.data()));
  std::vector<uint8_t> zeros(64, 0);  // +0 and the 63 smallest subnormals (below 2^-143) round to BF16 +0
  CHECK(nc::fastref::convert_range_matches(R::F32_TO_BF16_RNE, 0x00000000u, 64, zeros.data()));
  std::vector<uint16_t> inf(8, 0x7c00);  // F16 +inf from 65520 on: a 16-bit word holds it
  CHECK(nc::fastref::convert_range_matches(R::F32_TO_F16_RNE, 0x477ff000u, 8, inf.data()));
  std::vector<uint8_t> inf8(8, 0x00);  // 0x7c00's low byte
  CHECK_FALSE(nc::fastref::convert_range_matches(R::F32_TO_F16_RNE, 0x477ff000u, 8, inf8.data()));
}

// Every binary32 input of every recipe: minutes, so under the `long` label.
TEST_CASE("convert_range equals word-by-word conversion on every binary32 input", "[.long]") {
  for (R r : kAllRecipes) {
    INFO("recipe " << int(r));
    uint64_t bad = 0;
    for (uint64_t first = 0; first < 0x100000000ull; first += 1u << 24)
      bad += range_disagreements(r, uint32_t(first), 1u << 24);
    CHECK(bad == 0);
  }
}
