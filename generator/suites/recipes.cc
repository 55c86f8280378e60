// The five named binary32 conversions (docs/recipes.md), one suite each: every tie between
// adjacent destination values (all of them for E4M3FN and E2M1; for BF16 and F16 the first,
// middle and last ties of every binade, subnormals included), each tie's binary32 neighbours,
// the underflow-to-zero tie, the overflow boundary, signed zeros, infinities, and NaNs (quiet and
// signaling, low/high/full payloads, both signs). Expected words from oracle::convert.
#include "generator/suites/common.h"
#include "oracle/recipes.h"
#include "oracle/round.h"
#include "oracle/value.h"

namespace nc::gen {
namespace {

struct RecipeCard {
  oracle::FloatFormat dest;
  int digits;
  bool all_ties;  // every adjacent pair, else a per-binade selection
};

// The destination word type is the registry's; its bits are the oracle's.
RecipeCard card(oracle::Recipe r) {
  const WordTypeInfo& dest = info(info(r).destination);
  return {*float_format_of(dest.id), int(dest.hex_digits), dest.bits <= 8};
}

template <oracle::Recipe R>
SuiteInfo recipe_info() {
  std::string n(oracle::recipe_name(R));
  SuiteInfo s{"convert." + n,
              "convert " + n,
              "Binary32 words converted by " + n +
                  ": ties, their neighbours, underflow, overflow, zeros, infinities and NaNs (docs/recipes.md).",
              "recipes",
              {},
              {}};
  s.tags = {
      {"tie-to-even-down",
       "exactly halfway, the lower neighbour is even: catches round-half-up / half-away-from-zero."},
      {"tie-to-even-up", "exactly halfway, the upper neighbour is even: catches round-half-down and truncation."},
      {"below-tie", "one binary32 ulp below a tie: catches rounding up too early (sticky bit lost)."},
      {"above-tie", "one binary32 ulp above a tie: catches rounding down (truncation, sticky bit lost)."},
      {"subnormal", "the destination result is subnormal: catches FTZ and a wrong subnormal rounding position."},
      {"underflow", "at or around half the smallest subnormal: catches flushing or rounding away from zero."},
      {"overflow", "at or past the overflow boundary: catches the wrong overflow policy (inf, saturate, NaN)."},
      {"zero", "a signed zero: catches a lost sign of zero."},
      {"inf", "an infinity: catches the wrong infinity policy."},
      {"nan-quiet", "a quiet NaN with a payload: catches payload, sign or quiet-bit mishandling."},
      {"nan-signaling",
       "a signaling NaN with a payload: catches a NaN that is not quieted, or a payload that truncates to infinity."},
      {"negative", "a negative source: catches sign errors in rounding (round toward zero instead of nearest)."},
  };
  // The NaN latitude (registry/registry.h): where the destination's NaN has a payload and a quiet bit.
  if (const std::string_view latitude = info(R).nan_latitude; !latitude.empty())
    s.policies = {{std::string(latitude),
                   "any NaN of the destination type for a NaN source, instead of the recipe's "
                   "sign- and payload-keeping quiet NaN (a canonical-NaN convention)."}};
  return s;
}

template <oracle::Recipe R>
void recipe_build(SuiteBuilder& b) {
  const RecipeCard rc = card(R);
  const auto& fi = oracle::info(rc.dest);
  oracle::Context ctx;
  // A NaN source has one defined result per recipe (docs/recipes.md). For BF16/F16, another NaN
  // is the documented alternative policy nan-any (canonical NaN, dropped payload or sign), so such
  // a target is reported conformant under that policy, not wrong. E4M3FN has exactly two NaN words
  // and no payload: the recipe's only choice is the sign, which it keeps, so no policy.
  const std::string_view latitude = info(R).nan_latitude;
  const uint32_t dest_sign = 1u << (fi.bits - 1);
  auto add = [&](uint32_t src, std::vector<std::string> tags) {
    uint32_t dst = oracle::convert(ctx, R, src);
    // Tags must be true (lint checks it): "underflow" only where the result is zero or the smallest
    // subnormal (BF16 keeps 2^-126 as its smallest normal), "overflow" only on a finite source.
    if ((dst & ~dest_sign) > 1) std::erase(tags, std::string("underflow"));
    if ((src & 0x7f800000u) == 0x7f800000u) std::erase(tags, std::string("overflow"));
    if (src >> 31) tags.push_back("negative");
    oracle::Exact e = oracle::exact_value(oracle::FloatFormat::Binary32, src);
    std::vector<std::string> accept;
    if (!latitude.empty() && (src & 0x7fffffffu) > 0x7f800000u) accept = {std::string(latitude)};
    b.add(
        Case{{hex_word(src, 8)}, hex_word(dst, rc.digits), accept, {oracle::format_exact(e)}, tags, "binary32 source"});
  };
  const uint32_t max = fi.max_finite_magnitude_bits;
  const uint32_t frac_one = 1u << fi.fraction_bits;
  auto selected = [&](uint32_t w) {
    if (rc.all_ties) return true;
    uint32_t m = w & (frac_one - 1);
    return m <= 2 || m == frac_one / 2 - 1 || m == frac_one / 2 || m >= frac_one - 2;
  };
  for (uint32_t sign : {0u, 1u}) {
    const uint32_t dsign = sign << (fi.bits - 1), ssign = sign << 31;
    // Ties between adjacent finite destination values, and their binary32 neighbours.
    for (uint32_t w = 0; w < max; ++w) {
      if (!selected(w)) continue;
      mpq_class mid = (oracle::exact_value(rc.dest, dsign | w).q + oracle::exact_value(rc.dest, dsign | (w + 1)).q) / 2;
      if (sgn(mid) == 0) continue;
      uint32_t t = oracle::round_f32(ctx, mid);  // exact: the midpoint has fewer bits than binary32
      std::vector<std::string> tags{(w & 1) ? "tie-to-even-up" : "tie-to-even-down"};
      if (w + 1 < frac_one) tags.push_back("subnormal");
      if (w == 0) tags.push_back("underflow");
      add(t, tags);
      std::vector<std::string> nt;
      if (w + 1 < frac_one) nt.push_back("subnormal");
      if (w == 0) nt.push_back("underflow");
      auto below = nt, above = nt;
      below.push_back("below-tie");
      above.push_back("above-tie");
      add(t - 1, below);
      add(t + 1, above);
    }
    // The overflow boundary: the largest finite value, the midpoint past it, its neighbours.
    mpq_class vmax = oracle::exact_value(rc.dest, max).q;
    mpq_class vprev = oracle::exact_value(rc.dest, max - 1).q;
    uint32_t over_mid = oracle::round_f32(ctx, vmax + (vmax - vprev) / 2);
    uint32_t at_max = oracle::round_f32(ctx, vmax);
    for (uint32_t w : {at_max, at_max + 1, over_mid - 1, over_mid, over_mid + 1, over_mid + 0x800000u, 0x7f7fffffu})
      add(ssign | w, {"overflow"});
    // Past the midpoint: one destination ulp past the maximum (what the top word would encode were
    // it finite, E4M3FN's NaN 0x7f) and the midpoint after it, with the binary32 word just below
    // that midpoint. An implementation that rounds such values to the top finite word, or treats
    // the top word as finite, passes every record above and fails these.
    const uint32_t past_one = oracle::round_f32(ctx, vmax + (vmax - vprev));
    const uint32_t past_mid = oracle::round_f32(ctx, vmax + 3 * (vmax - vprev) / 2);
    for (uint32_t w : {past_one, past_mid - 1, past_mid})  // BF16: past binary32's range, nothing new
      if (w < 0x7f7fffffu) add(ssign | w, {"overflow"});
    add(ssign | 0x7f800000u, {"inf"});
    add(ssign, {"zero"});
    add(ssign | 0x00000001u, {"underflow"});
    add(ssign | 0x00800000u, {"underflow"});
    for (uint32_t nan : {0x7fc00000u, 0x7fc00001u, 0x7fe00000u, 0x7fffffffu, 0x7fc0ffffu, 0x7fd55555u})
      add(ssign | nan, {"nan-quiet"});
    for (uint32_t nan : {0x7f800001u, 0x7fa00000u, 0x7fbfffffu, 0x7f80ffffu, 0x7f810000u, 0x7f955555u})
      add(ssign | nan, {"nan-signaling"});
  }
}

NC_SUITE(recipe_info<oracle::Recipe::F32_TO_BF16_RNE>, recipe_build<oracle::Recipe::F32_TO_BF16_RNE>);
NC_SUITE(recipe_info<oracle::Recipe::F32_TO_F16_RNE>, recipe_build<oracle::Recipe::F32_TO_F16_RNE>);
NC_SUITE(recipe_info<oracle::Recipe::F32_TO_E4M3FN_RNE_SATFINITE>,
         recipe_build<oracle::Recipe::F32_TO_E4M3FN_RNE_SATFINITE>);
NC_SUITE(recipe_info<oracle::Recipe::F32_TO_E4M3FN_RNE_OVF_NAN>,
         recipe_build<oracle::Recipe::F32_TO_E4M3FN_RNE_OVF_NAN>);
NC_SUITE(recipe_info<oracle::Recipe::F32_TO_E2M1_RNE_SATFINITE>,
         recipe_build<oracle::Recipe::F32_TO_E2M1_RNE_SATFINITE>);

}  // namespace
}  // namespace nc::gen
