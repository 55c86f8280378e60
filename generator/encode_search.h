// Input search for the canonical-encoder suites (MAXABS_F16_RECIP_RNE_V1, spec 7).
//
// Nothing here is an expected value: the suites take every expectation, trace and norm from the
// oracle's encoder. This file only CHOOSES inputs and says which edge classes an input falls in.
// To search quickly it runs the section-7 steps with hardware binary32 arithmetic (IEEE RNE under
// SSE, -ffp-contract=off, default FP environment: no FTZ/DAZ) and rounds to binary16 with one
// integer choke point, plus deliberately wrong variants (direct division, binary64, BF16 scale,
// |qmin| denominator, single-rounded scale, ties away, signed max) whose disagreement with the
// canonical order is what a tag records. A wrong search probe can only mis-tag a case; the test
// tests/generator/encode_search_test.cc cross-checks the probe with MPFR.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nc::gen::encsearch {

struct Scheme {
  std::string_view name;  // registry spelling
  int32_t qmin, qmax;     // qmax is the scale denominator (spec 7)
  uint32_t group;
};
const std::array<Scheme, 4>& schemes();

// ---- binary16 / binary32 / binary64 words -----------------------------------------------------
float f32_of(uint32_t w);
uint32_t word_of(float f);
double f64_of(uint64_t w);
uint64_t word_of(double d);
// Round a nonnegative dyadic value mant * 2^exp2 (plus an infinitesimal when `sticky`) to binary16
// with ties to even. Returns the positive binary16 word; 0x7c00 on overflow. The one rounding
// choke point for binary16 in the search.
uint16_t round_to_f16(uint64_t mant, int exp2, bool sticky);
uint16_t f16_of_f32(uint32_t w);      // |w| rounded, w finite
uint16_t f16_of_f64(double d);        // |d| rounded, d finite
uint32_t f32_of_f16(uint16_t h);      // exact expansion (any word)
uint32_t bf16_round_f32(uint32_t w);  // w rounded (RNE) to bfloat16 precision, as a binary32 word
// round_f16(amax / q) of the exact ratio, once (no binary32 step). amax is a finite binary32 word.
uint16_t f16_of_exact_ratio(uint32_t amax, int32_t q);

// ---- source words --------------------------------------------------------------------------------
enum class Src : uint8_t { FP32, BF16, F16, F64 };
std::string_view src_name(Src s);
struct Converted {
  std::optional<uint32_t> f32;  // nullopt: NaN, infinity, or an F64 that overflows binary32
  bool overflow = false;        // a finite F64 that rounds past binary32 max
  bool underflow = false;       // a nonzero F64 that rounds to binary32 zero
  bool carry = false;           // an F64 whose binary32 rounding carries into the exponent (finite result)
  bool tie = false;             // an F64 exactly halfway between two binary32 values
  bool inexact = false;
};
Converted to_f32(Src s, uint64_t word);

// ---- the search probe ------------------------------------------------------------------------
struct GroupProbe {
  uint32_t amax = 0, raw = 0, inv = 0;
  uint16_t scale16 = 0;
  bool rescued = false;
  std::vector<uint32_t> norm;
  std::vector<int32_t> rounded;  // integral rounding before the clamp
  std::vector<int32_t> codes;
};
enum class Outcome : uint8_t { Ok, Nonfinite, ScaleOverflow };
// Canonical steps for one group of binary32 words (all finite).
Outcome probe_group(const Scheme& s, std::span<const uint32_t> x, GroupProbe& out);

// Deliberately wrong encoders; each returns the scales and codes it would emit (nullopt = fails).
enum class Variant : uint8_t {
  DirectDivision,   // round_f32(x / scale32) instead of round_f32(x * inv32)
  Binary64,         // every step in binary64, one rounding to binary16 at the scale
  Bf16Scale,        // the scale passed through bfloat16 before the reciprocal
  QminDenominator,  // |qmin| (8/16/32/128) instead of qmax as the scale denominator
  SingleRounding,   // scale16 = round_f16(amax/qmax) rounded once, no binary32 step
  TiesAway,         // integral rounding half away from zero
  HalfUp,           // integral rounding floor(v + 0.5)
  SignedMax,        // amax = max(x) instead of max(|x|)
  NoClampW8,        // W8 clamped to [-128, 127]
};
struct VariantResult {
  std::vector<uint16_t> scales;
  std::vector<int32_t> codes;
};
std::optional<VariantResult> probe_variant(Variant v, const Scheme& s, std::span<const uint32_t> x);

// ---- a whole case --------------------------------------------------------------------------
struct EncodeCase {
  Src src = Src::FP32;
  uint64_t rows = 1, k = 0;
  std::vector<uint64_t> shape;  // as written in the record; product == rows * k
  std::vector<uint64_t> src_words;
  std::vector<std::string> tags;  // class tags chosen by the search, plus derived ones
  std::string comment;
};

// Tag -> the bug it targets (every tag any selected case can carry).
const std::map<std::string, std::string>& tag_meanings();

// Facts about a case found by running the probe and the variants over it; tags derived from them
// are added by select_cases, so a tag never claims more than the probe saw.
std::vector<std::string> derived_tags(const Scheme& s, const EncodeCase& c);

// Every case of every class for one scheme, in a deterministic order. `seed` drives the seeded
// random classes (the suite passes suite_seed(name)).
std::vector<EncodeCase> select_cases(const Scheme& s, uint64_t seed);

}  // namespace nc::gen::encsearch
