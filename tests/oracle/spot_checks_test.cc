// Hand-derived checks, each from the spec text (section cited) or computed by hand, never from
// the oracle's own output.
#include <catch2/catch.hpp>

#include "oracle/decode.h"
#include "oracle/recipes.h"
#include "oracle/round.h"
#include "oracle/value.h"

using namespace nc;
using namespace nc::oracle;

namespace {
std::string text(WordType t, uint32_t w) {
  Context ctx;
  return format_exact(decode(ctx, t, w).value);
}
}  // namespace

TEST_CASE("E4M3FN words from spec 3.3", "[oracle][spot]") {
  Context ctx;
  CHECK(text(WordType::E4M3FN, 0x7e) == "0x1.cp+8");  // (1 + 6/8) * 2^8 = 448
  CHECK(text(WordType::E4M3FN, 0x01) == "0x1p-9");    // m * 2^-9
  CHECK(text(WordType::E4M3FN, 0x80) == "-0x0p+0");
  CHECK(text(WordType::E4M3FN, 0x08) == "0x1p-6");    // e = 1: 2^(1-7)
  CHECK(text(WordType::E4M3FN, 0x77) == "0x1.ep+7");  // e = 14, m = 7: 1.875 * 2^7 = 240
  CHECK(text(WordType::E4M3FN, 0x78) == "0x1p+8");    // e = 15, m = 0: 256
  const Decoded nan = decode(ctx, WordType::E4M3FN, 0x7f);
  CHECK(nan.cls == ValueClass::NaN);
  CHECK_FALSE(nan.binary32.has_value());  // no defined payload
  CHECK(decode(ctx, WordType::E4M3FN, 0xff).cls == ValueClass::NaN);
  CHECK(*decode(ctx, WordType::E4M3FN, 0x7e).binary32 == 0x43e00000u);
  CHECK(*decode(ctx, WordType::E4M3FN, 0x01).binary32 == 0x3b000000u);
  CHECK(decode(ctx, WordType::E4M3FN, 0x01).cls == ValueClass::Subnormal);
}

TEST_CASE("E2M1 table from spec 3.3", "[oracle][spot]") {
  const char* positive[8] = {"0x0p+0", "0x1p-1", "0x1p+0", "0x1.8p+0", "0x1p+1", "0x1.8p+1", "0x1p+2", "0x1.8p+2"};
  for (uint32_t w = 0; w < 8; ++w) {
    CHECK(text(WordType::E2M1, w) == positive[w]);
    CHECK(text(WordType::E2M1, w | 8) == std::string("-") + positive[w]);
  }
}

TEST_CASE("BF16, binary16, FP32 and I32 from spec 3.1 and 6", "[oracle][spot]") {
  Context ctx;
  CHECK(text(WordType::BF16, 0x0001) == "0x1p-133");
  CHECK(text(WordType::F16, 0x0001) == "0x1p-24");      // the minimum positive binary16 scale
  CHECK(text(WordType::F16, 0x7bff) == "0x1.ffcp+15");  // 65504
  CHECK(text(WordType::FP32, 0x00000001) == "0x1p-149");
  CHECK(text(WordType::F16, 0xfc00) == "-inf");
  CHECK(*decode(ctx, WordType::BF16, 0x7f81).binary32 == 0x7f810000u);  // NaN payload kept
  CHECK(*decode(ctx, WordType::F16, 0x7d01).binary32 == 0x7fa02000u);   // signalling NaN kept
  CHECK(*decode(ctx, WordType::F16, 0x0001).binary32 == 0x33800000u);
  CHECK(*decode(ctx, WordType::I32, 0x80000000u).integer == -2147483648LL);
  CHECK(*decode(ctx, WordType::I32, 0x7fffffffu).integer == 2147483647LL);
  CHECK(*decode(ctx, WordType::Q4_CODE, 0x8).integer == -8);
  CHECK(*decode(ctx, WordType::Q5_CODE, 0x1f).integer == -1);
  CHECK(*decode(ctx, WordType::Q6_CODE, 0x1f).integer == 31);
  CHECK(*decode(ctx, WordType::W8_CODE, 0x81).integer == -127);
  const Decoded w8 = decode(ctx, WordType::W8_CODE, 0x80);
  CHECK_FALSE(w8.valid);
  CHECK(w8.rule == "code-illegal");
}

TEST_CASE("canonical exact-value text", "[oracle][spot]") {
  CHECK(format_exact(mpq_class(10, 3)) == "10/3");
  CHECK(format_exact(mpq_class(-10, 3)) == "-10/3");
  CHECK(format_exact(mpq_class(-3, 2)) == "-0x1.8p+0");
  CHECK(format_exact(mpq_class(1, 512)) == "0x1p-9");
  CHECK(format_exact(Exact::nan(true)) == "nan");
  CHECK(format_exact(Exact::inf(true)) == "-inf");
}

TEST_CASE("round to integral, ties to even: spec 7 examples", "[oracle][spot]") {
  Context ctx;
  CHECK(round_to_integral_ties_even(ctx, mpq_class(1, 2)) == 0);
  CHECK(round_to_integral_ties_even(ctx, mpq_class(-1, 2)) == 0);
  CHECK(round_to_integral_ties_even(ctx, mpq_class(3, 2)) == 2);
  CHECK(round_to_integral_ties_even(ctx, mpq_class(-3, 2)) == -2);
  CHECK(round_to_integral_ties_even(ctx, mpq_class(5, 2)) == 2);
  CHECK(round_to_integral_ties_even(ctx, mpq_class(-5, 2)) == -2);
  CHECK(round_to_integral_ties_even(ctx, mpq_class(-7, 3)) == -2);
  CHECK(round_to_integral_ties_even(ctx, mpq_class(-8, 3)) == -3);
}

TEST_CASE("recipes: ties, overflow, NaN by hand", "[oracle][spot]") {
  Context ctx;
  auto cv = [&](Recipe r, uint32_t w) { return convert(ctx, r, w); };
  using R = Recipe;
  // BF16: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 -> even (1)
  CHECK(cv(R::F32_TO_BF16_RNE, 0x3f808000u) == 0x3f80u);
  CHECK(cv(R::F32_TO_BF16_RNE, 0x3f818000u) == 0x3f82u);
  CHECK(cv(R::F32_TO_BF16_RNE, 0xbf808000u) == 0xbf80u);
  CHECK(cv(R::F32_TO_BF16_RNE, 0x3f808001u) == 0x3f81u);
  CHECK(cv(R::F32_TO_BF16_RNE, 0x7f7fffffu) == 0x7f80u);  // above the last midpoint -> inf
  CHECK(cv(R::F32_TO_BF16_RNE, 0x7f800001u) == 0x7fc0u);  // sNaN -> quiet, payload truncated
  CHECK(cv(R::F32_TO_BF16_RNE, 0xff812345u) == 0xffc1u);
  CHECK(cv(R::F32_TO_BF16_RNE, 0x80000000u) == 0x8000u);
  // F16
  CHECK(cv(R::F32_TO_F16_RNE, 0x3f801000u) == 0x3c00u);  // 1 + 2^-11 tie -> 1
  CHECK(cv(R::F32_TO_F16_RNE, 0x3f803000u) == 0x3c02u);  // 1 + 3*2^-11 tie -> up
  CHECK(cv(R::F32_TO_F16_RNE, 0x477ff000u) == 0x7c00u);  // 65520: tie with 65536 -> inf
  CHECK(cv(R::F32_TO_F16_RNE, 0x477fefffu) == 0x7bffu);
  CHECK(cv(R::F32_TO_F16_RNE, 0x33000000u) == 0x0000u);  // 2^-25: tie 0 / 2^-24 -> 0
  CHECK(cv(R::F32_TO_F16_RNE, 0xb3000000u) == 0x8000u);
  CHECK(cv(R::F32_TO_F16_RNE, 0x33000001u) == 0x0001u);
  CHECK(cv(R::F32_TO_F16_RNE, 0x33c00000u) == 0x0002u);  // 1.5 * 2^-24 -> 2 * 2^-24
  CHECK(cv(R::F32_TO_F16_RNE, 0x7fa00000u) == 0x7f00u);  // sNaN payload 0x200000 -> 0x100|0x200
  // E4M3FN
  CHECK(cv(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x43e00000u) == 0x7eu);  // 448
  CHECK(cv(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x43f00000u) == 0x7eu);  // 480 saturates
  CHECK(cv(R::F32_TO_E4M3FN_RNE_SATFINITE, 0xff800000u) == 0xfeu);
  CHECK(cv(R::F32_TO_E4M3FN_RNE_SATFINITE, 0xffc00000u) == 0xffu);
  CHECK(cv(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x3a800000u) == 0x00u);  // 2^-10: tie -> 0
  CHECK(cv(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x3b400000u) == 0x02u);  // 3*2^-10: tie -> m = 2
  CHECK(cv(R::F32_TO_E4M3FN_RNE_SATFINITE, 0x80000000u) == 0x80u);
  CHECK(cv(R::F32_TO_E4M3FN_RNE_OVF_NAN, 0x43e00000u) == 0x7eu);
  // 464 is halfway between 448 (m = 6, even) and 480 -> 448: does not overflow under RNE
  CHECK(cv(R::F32_TO_E4M3FN_RNE_OVF_NAN, 0x43e80000u) == 0x7eu);
  CHECK(cv(R::F32_TO_E4M3FN_RNE_OVF_NAN, 0x43e80001u) == 0x7fu);
  CHECK(cv(R::F32_TO_E4M3FN_RNE_OVF_NAN, 0xc3f00000u) == 0xffu);
  CHECK(cv(R::F32_TO_E4M3FN_RNE_OVF_NAN, 0x7f800000u) == 0x7fu);
  // E2M1
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0x3e800000u) == 0x0u);  // 0.25 tie -> 0
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0x3f400000u) == 0x2u);  // 0.75 tie -> 1.0
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0x3fa00000u) == 0x2u);  // 1.25 tie -> 1.0
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0x40200000u) == 0x4u);  // 2.5 tie -> 2
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0x40600000u) == 0x6u);  // 3.5 tie -> 4
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0xc0a00000u) == 0xeu);  // -5 tie -> -4
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0x40e00000u) == 0x7u);  // 7 -> 8 overflows -> 6
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0xffc00000u) == 0xfu);
  CHECK(cv(R::F32_TO_E2M1_RNE_SATFINITE, 0x3e800001u) == 0x1u);
  CHECK(find_recipe("F32_TO_BF16_RNE") == Recipe::F32_TO_BF16_RNE);
  CHECK_FALSE(find_recipe("f32_to_bf16_rne").has_value());
}
