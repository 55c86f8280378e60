// Every rounding tie of the two 16-bit recipes (docs/recipes.md), one suite each
// (`convert.F32_TO_BF16_RNE.ties`, `convert.F32_TO_F16_RNE.ties`): the midpoint between every
// pair of adjacent finite destination values, both signs, every binade from the subnormals up, and
// the overflow midpoint past the largest finite value; each with its binary32 neighbours one ulp
// below and above. The main `convert.*` suites keep a per-binade selection of ties beside the
// other classes; these suites are the exhaustive set. Comments are fixed per class and the tags
// few, so the ~193k records of a suite compress to a few bytes each beyond their ids.
// Expected words from oracle::convert.
#include "generator/suites/common.h"
#include "oracle/recipes.h"
#include "oracle/round.h"
#include "oracle/value.h"

namespace nc::gen {
namespace {

template <oracle::Recipe R>
constexpr oracle::FloatFormat destination() {
  return R == oracle::Recipe::F32_TO_BF16_RNE ? oracle::FloatFormat::BFloat16 : oracle::FloatFormat::Binary16;
}

template <oracle::Recipe R>
SuiteInfo ties_info() {
  std::string n(oracle::recipe_name(R));
  SuiteInfo s{"convert." + n + ".ties",
              "convert " + n,
              "Every rounding tie of " + n +
                  " (each midpoint between adjacent destination values, both signs, "
                  "subnormals and the overflow midpoint included) and its binary32 neighbours (docs/recipes.md).",
              "recipes",
              {},
              {}};
  s.tags = {
      {"tie-to-even-down",
       "exactly halfway, the lower neighbour is even: catches round-half-up / half-away-from-zero."},
      {"tie-to-even-up", "exactly halfway, the upper neighbour is even: catches round-half-down and truncation."},
      {"below-tie", "one binary32 ulp below a tie: catches rounding up too early (sticky bit lost)."},
      {"above-tie", "one binary32 ulp above a tie: catches rounding down (truncation, sticky bit lost)."},
      {"subnormal",
       "the tie lies below the smallest normal destination value: catches FTZ and a wrong subnormal rounding "
       "position."},
      {"underflow", "the tie between zero and the smallest subnormal: catches flushing or rounding away from zero."},
      {"overflow",
       "the tie between the largest finite value and the next power of two: catches an overflow threshold at the "
       "largest finite value."},
      {"negative", "a negative source: catches sign errors in rounding (round toward zero instead of nearest)."},
  };
  return s;
}

template <oracle::Recipe R>
void ties_build(SuiteBuilder& b) {
  constexpr oracle::FloatFormat dest = destination<R>();
  const auto& fi = oracle::info(dest);
  oracle::Context ctx;
  auto add = [&](uint32_t src, std::vector<std::string> tags, const char* comment) {
    const uint32_t dst = oracle::convert(ctx, R, src);
    if (src >> 31) tags.push_back("negative");
    oracle::Exact e = oracle::exact_value(oracle::FloatFormat::Binary32, src);
    b.add(Case{{hex_word(src, 8)}, hex_word(dst, 4), {}, {oracle::format_exact(e)}, std::move(tags), comment});
  };
  const uint32_t max = fi.max_finite_magnitude_bits;
  const uint32_t min_normal = 1u << fi.fraction_bits;
  // Word max + 1 is +infinity: its "value" for the overflow midpoint is the next power of two,
  // max + ulp(max), the value the unbounded-exponent rounding of docs/recipes.md rounds to.
  auto value = [&](uint32_t sign_bit, uint32_t w) {
    if (w <= max) return oracle::exact_value(dest, sign_bit | w).q;
    mpq_class top = oracle::exact_value(dest, sign_bit | max).q;
    return mpq_class(top + (top - oracle::exact_value(dest, sign_bit | (max - 1)).q));
  };
  for (uint32_t sign : {0u, 1u}) {
    const uint32_t sign_bit = sign << (fi.bits - 1);
    for (uint32_t w = 0; w <= max; ++w) {
      mpq_class mid = (value(sign_bit, w) + value(sign_bit, w + 1)) / 2;
      const uint32_t t = oracle::round_f32(ctx, mid);  // exact: a midpoint has fewer bits than binary32
      std::vector<std::string> cls;
      if (w + 1 < min_normal) cls.push_back("subnormal");
      if (w == 0) cls.push_back("underflow");
      if (w == max) cls.push_back("overflow");
      auto tie = cls, below = cls, above = cls;
      tie.push_back((w & 1) ? "tie-to-even-up" : "tie-to-even-down");
      below.push_back("below-tie");
      above.push_back("above-tie");
      add(t, tie, "midpoint");
      add(t - 1, below, "one binary32 ulp below a midpoint");
      add(t + 1, above, "one binary32 ulp above a midpoint");
    }
  }
}

NC_SUITE(ties_info<oracle::Recipe::F32_TO_BF16_RNE>, ties_build<oracle::Recipe::F32_TO_BF16_RNE>);
NC_SUITE(ties_info<oracle::Recipe::F32_TO_F16_RNE>, ties_build<oracle::Recipe::F32_TO_F16_RNE>);

}  // namespace
}  // namespace nc::gen
