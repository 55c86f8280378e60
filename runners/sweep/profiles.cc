#include "runners/sweep/profiles.h"

#include "oracle/fastref/minifloat_round.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

namespace nc::sweep {

namespace {

using fastref::Recipe;

// A destination word type of the recipes: its word layout, from the oracle side's description
// (oracle/fastref, which reads oracle/float_format.h) of the registry's destination word type.
struct Dest {
  uint32_t sign, max_finite, min_normal;  // sign bit; largest finite and smallest normal magnitudes
  uint32_t canonical_nan;                 // 0: no NaN (E2M1)
  uint32_t (*to_binary32)(uint32_t);
  bool ieee;  // has infinities (BF16, binary16)
};

Dest dest_of(Recipe r) {
  const WordType w = info(r).destination;
  const fastref::MinifloatSpec s = fastref::spec_of(w);
  return {s.sign_bit, s.max_finite, 1u << s.man_bits, s.nan_bits, fastref::word_decode(w), s.inf_bits != 0};
}

bool nan32(uint32_t w) { return (w & 0x7fffffffu) > 0x7f800000u; }
float f32(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}
std::string input_class(uint32_t w) {
  const uint32_t e = (w >> 23) & 0xff, f = w & 0x7fffff;
  if (e == 0xff) return f ? "nan-input" : "inf-input";
  if (e == 0) return f ? "subnormal-input" : "zero-input";
  return "normal-input";
}

struct Profile {
  std::string name, about;
  std::function<uint32_t(uint32_t)> f;
};

// nan_result: whether a result word is a NaN of the result type.
ProfileResult judge(const std::vector<Profile>& profiles, const std::vector<uint32_t>& in,
                    const std::vector<uint32_t>& got, const std::function<std::string(uint32_t)>& cls,
                    const std::function<bool(uint32_t)>& nan_result) {
  ProfileResult r;
  r.sample = in.size();
  std::vector<size_t> nan_only;  // candidates that differ only by giving another NaN for a NaN
  for (const Profile& p : profiles) {
    // A mistake that changes no sample input (DAZ where every binary32 subnormal rounds to zero
    // anyway) cannot be told from the recipe: not a candidate.
    if (&p != &profiles.front() &&
        std::all_of(in.begin(), in.end(), [&](uint32_t x) { return p.f(x) == profiles.front().f(x); }))
      continue;
    ProfileResult::Candidate c{p.name, p.about, 0, {}};
    std::map<std::string, uint64_t> by;
    uint64_t other_nan = 0;  // differences that are another NaN where the profile gives a NaN
    for (size_t k = 0; k < in.size(); ++k)
      if (const uint32_t want = p.f(in[k]); want != got[k]) {
        ++c.differ, ++by[cls(in[k])];
        other_nan += nan_result(want) && nan_result(got[k]);
      }
    if (c.differ && other_nan == c.differ) nan_only.push_back(r.candidates.size());
    c.by_input.assign(by.begin(), by.end());
    r.candidates.push_back(std::move(c));
  }
  const ProfileResult::Candidate* best = nullptr;
  for (const auto& c : r.candidates) {
    if (c.differ == 0 && r.exact.empty()) r.exact = c.name;
    if (!best || c.differ < best->differ) best = &c;
  }
  auto counts = [](const ProfileResult::Candidate& c) {
    std::string s;
    for (const auto& [k, v] : c.by_input) s += (s.empty() ? "" : ", ") + k + " " + std::to_string(v);
    return s;
  };
  const std::string n = std::to_string(r.sample);
  if (!r.exact.empty()) {
    r.summary = "matches " + r.exact + " exactly on the " + n + "-input class sample";
    for (const auto& c : r.candidates)
      if (c.differ == 0 && c.name != r.exact) r.summary += " (as does " + c.name + " there)";
  } else if (!nan_only.empty()) {
    const ProfileResult::Candidate& c = r.candidates[nan_only.front()];
    r.exact = c.name;
    r.summary = "matches " + c.name + " on the " + n +
                "-input class sample apart from NaN bits: " + std::to_string(c.differ) + " inputs give another NaN (" +
                counts(c) + ")";
  } else if (best) {
    r.nearest = best->name;
    r.summary = "matches no known profile; nearest: " + best->name + " (" + best->about + "), differing on " +
                std::to_string(best->differ) + " of " + n + " sample inputs (" + counts(*best) + ")";
    const ProfileResult::Candidate& recipe = r.candidates.front();
    if (best != &recipe)
      r.summary += "; the recipe differs on " + std::to_string(recipe.differ) + " (" + counts(recipe) + ")";
  }
  return r;
}

}  // namespace

ProfileResult identify_convert(Recipe recipe, const std::vector<uint32_t>& in, const std::vector<uint32_t>& got) {
  const Dest d = dest_of(recipe);
  auto rne = [recipe](uint32_t x) { return fastref::convert(recipe, x); };
  auto is_nan_code = [d](uint32_t c) {
    const uint32_t m = c & ~d.sign;
    return d.canonical_nan && (d.ieee ? m > d.max_finite + 1 : m == d.canonical_nan);
  };
  auto is_inf_code = [d](uint32_t c) {
    const uint32_t m = c & ~d.sign;
    return d.ieee && m == d.max_finite + 1;
  };
  auto magnitude = [d](uint32_t c) { return double(f32(d.to_binary32(c & ~d.sign))); };
  // Round toward zero: the recipe's result, one step toward zero where it lies beyond the input.
  auto rtz = [=](uint32_t x) {
    const uint32_t r = rne(x);
    if (nan32(x)) return r;
    const uint32_t s = r & d.sign;
    if (is_nan_code(r)) return s | d.max_finite;  // OVF_NAN's overflow
    const double ax = std::fabs(double(f32(x)));
    return magnitude(r) > ax ? r - 1 : r;  // sign-magnitude words: one code down is one step toward 0
  };
  std::vector<Profile> ps;
  ps.push_back({std::string(info(recipe).name), "the recipe", rne});
  // The other overflow rules of the same destination (an OVF/SAT swap): the registry's recipes
  // with this one's source and destination.
  for (const RecipeInfo& other : kRecipes)
    if (other.id != recipe && other.source == info(recipe).source && other.destination == info(recipe).destination)
      ps.push_back({std::string(other.name),
                    "the other " + std::string(nc::info(other.destination).name) + " overflow rule",
                    [o = other.id](uint32_t x) { return fastref::convert(o, x); }});
  ps.push_back({"truncation", "rounds toward zero; NaNs as the recipe", rtz});
  ps.push_back({"ties away from zero", "round half away from zero instead of to even", [=](uint32_t x) {
                  const uint32_t r = rne(x), lo = rtz(x);
                  if (nan32(x) || is_nan_code(r) || is_inf_code(lo + 1) || (lo & ~d.sign) == d.max_finite) return r;
                  const double ax = std::fabs(double(f32(x))), a = magnitude(lo), b = magnitude(lo + 1);
                  return a < ax && ax - a == b - ax ? lo + 1 : r;
                }});
  ps.push_back({"FTZ", "subnormal results flushed to zero", [=](uint32_t x) {
                  const uint32_t r = rne(x), m = r & ~d.sign;
                  return m != 0 && m < d.min_normal ? (r & d.sign) : r;
                }});
  ps.push_back({"DAZ", "subnormal inputs read as zero",
                [=](uint32_t x) { return (x & 0x7f800000u) == 0 ? rne(x & 0x80000000u) : rne(x); }});
  if (recipe != Recipe::F32_TO_F16_RNE)
    ps.push_back(
        {"double rounding through binary16", "rounded to binary16 first, then to the destination",
         [=](uint32_t x) { return rne(fastref::f16_to_binary32(fastref::convert(Recipe::F32_TO_F16_RNE, x))); }});
  if (recipe != Recipe::F32_TO_BF16_RNE)
    ps.push_back({"double rounding through BF16", "rounded to BF16 first, then to the destination", [=](uint32_t x) {
                    return rne(fastref::bf16_to_binary32(fastref::convert(Recipe::F32_TO_BF16_RNE, x)));
                  }});
  if (d.canonical_nan)
    ps.push_back({"NaN canonicalised", "every NaN becomes the positive quiet canonical NaN",
                  [=](uint32_t x) { return nan32(x) ? d.canonical_nan : rne(x); }});
  if (d.ieee || recipe == Recipe::F32_TO_E4M3FN_RNE_OVF_NAN)
    ps.push_back({"saturating", "saturates to the largest finite value where the recipe overflows", [=](uint32_t x) {
                    const uint32_t r = rne(x);
                    return !nan32(x) && (is_inf_code(r) || is_nan_code(r)) ? (r & d.sign) | d.max_finite : r;
                  }});
  if (d.ieee)
    ps.push_back({"overflow at the largest finite value",
                  "finite inputs beyond the largest finite value overflow "
                  "instead of rounding down to it",
                  [=](uint32_t x) {
                    const uint32_t r = rne(x);
                    const bool beyond = !nan32(x) && std::fabs(double(f32(x))) > magnitude(d.max_finite);
                    return beyond ? (r & d.sign) | (d.max_finite + 1) : r;
                  }});
  return judge(ps, in, got, input_class, is_nan_code);
}

ProfileResult identify_decode(WordType type, const std::vector<uint32_t>& in, const std::vector<uint32_t>& got) {
  uint32_t (*ref)(uint32_t) = fastref::word_decode(type);
  if (!ref) return {};
  const fastref::MinifloatSpec spec = fastref::spec_of(type);
  const uint32_t sign = spec.sign_bit, frac_mask = (1u << spec.man_bits) - 1, exp_mask = (sign - 1) & ~frac_mask;
  auto subnormal = [=](uint32_t w) { return (w & exp_mask) == 0 && (w & frac_mask) != 0; };
  auto cls = [=](uint32_t w) {
    if (nan32(ref(w))) return std::string("nan-word");
    if (subnormal(w)) return std::string("subnormal-word");
    return std::string((w & ~sign) == 0 ? "zero-word" : "word");
  };
  std::vector<Profile> ps;
  ps.push_back({"decode " + std::string(info(type).name), "the word's exact value", ref});
  ps.push_back({"NaN canonicalised", "every NaN word decodes to 0x7fc00000",
                [=](uint32_t w) { return nan32(ref(w)) ? 0x7fc00000u : ref(w); }});
  ps.push_back({"FTZ", "subnormal words decode to a signed zero",
                [=](uint32_t w) { return subnormal(w) ? ((w & sign) ? 0x80000000u : 0u) : ref(w); }});
  ProfileResult r = judge(ps, in, got, cls, nan32);
  // A NaN without payload (E4M3FN) decodes to any binary32 NaN exactly (as the domain accepts).
  if (info(type).nan == NanSpelling::AllOnes &&
      (r.exact.empty() || r.summary.find("apart from NaN") != std::string::npos)) {
    bool only_nans = true;
    for (size_t k = 0; k < in.size() && only_nans; ++k)
      only_nans = ref(in[k]) == got[k] || (nan32(ref(in[k])) && nan32(got[k]));
    if (only_nans)
      r.exact = r.candidates[0].name, r.nearest.clear(),
      r.summary = "matches " + r.exact + " exactly on the " + std::to_string(r.sample) +
                  "-input class sample (a NaN word to any binary32 NaN)";
  }
  return r;
}

}  // namespace nc::sweep
