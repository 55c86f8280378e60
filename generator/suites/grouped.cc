// Grouped signed-integer formats Q4G64/Q5G64/Q6G64/W8G32_F16S (spec 4 to 6): every code word,
// every binary16 word as a scale (valid or the rule broken), every binary16 word's exact value,
// and reconstruction of every code times boundary scales. Expectations from nc::oracle.
#include <string>

#include "generator/suites/common.h"
#include "oracle/reconstruct.h"
#include "oracle/validity.h"
#include "oracle/value.h"

namespace nc::gen {
namespace {

std::string fmt_name(Format f) { return std::string(info(f).name); }

// --- every logical code word -> signed code or rejection
template <Format F>
SuiteInfo codes_info() {
  std::string n = fmt_name(F);
  SuiteInfo s{"decode." + n + ".code",
              "decode " + n + ".code",
              "Every " + n + " logical code word to its signed code (two's complement) or rejection (spec 5).",
              "5",
              {},
              {}};
  add_decode_tags(s);
  return s;
}
template <Format F>
void codes_build(SuiteBuilder& b) {
  oracle::Context ctx;
  WordType t = info(F).code;
  for (uint32_t w = 0; w < (1u << info(t).bits); ++w) {
    std::vector<std::string> tags;
    int32_t v = oracle::signed_code(t, w);
    int32_t lo = -(1 << (info(t).bits - 1));
    if (v == lo || v == -lo - 1 || (F == Format::W8G32_F16S && v == lo + 1)) tags.push_back("int-extreme");
    b.add(decode_case(ctx, t, w, tags));
  }
}

// --- every binary16 word as a scale of this format
template <Format F>
SuiteInfo scales_info() {
  std::string n = fmt_name(F);
  SuiteInfo s{"validate." + n + ".scale",
              "validate " + n + ".scale",
              "Every binary16 word as a " + n + " group scale: valid or the rule broken (spec 6.1).",
              "6.1",
              {},
              {}};
  s.tags = {
      {"scale-zero", "+0: valid (and triggers the zero-scale rule on codes); catches rejecting a zero scale."},
      {"scale-negative-zero", "-0: rejected as negative; catches sign-blind zero tests."},
      {"scale-negative",
       "a negative scale, finite or not (the sign bit is checked first, so -inf and negative NaNs are "
       "scale-negative): catches accepting negative scales."},
      {"scale-nonfinite", "+inf or a positive NaN (a sign-zero non-finite word): catches accepting inf/NaN."},
      {"scale-subnormal", "a positive subnormal binary16 scale: catches FTZ in scale validation."},
      {"scale-normal", "a positive normal scale: the ordinary valid case."},
  };
  return s;
}
template <Format F>
void scales_build(SuiteBuilder& b) {
  for (uint32_t w = 0; w < 0x10000; ++w) {
    std::string_view rule = oracle::word_rule(F, Component::Scale, w);
    const uint32_t exp = (w >> 10) & 31;
    const bool neg = w & 0x8000;
    std::string tag = (w == 0x8000) ? "scale-negative-zero"
                      : neg         ? "scale-negative"
                      : exp == 31   ? "scale-nonfinite"
                      : w == 0      ? "scale-zero"
                      : exp == 0    ? "scale-subnormal"
                                    : "scale-normal";
    b.add(Case{{hex_word(w, 4)}, rule.empty() ? "valid" : rejection(rule), {}, {}, {tag}, "binary16 scale word"});
  }
}

// --- every logical code word as a code component: valid, or (W8 0x80) code-illegal
template <Format F>
SuiteInfo code_validate_info() {
  std::string n = fmt_name(F);
  SuiteInfo s{"validate." + n + ".code",
              "validate " + n + ".code",
              "Every " + n + " logical code word as a code component: valid, except W8's 0x80 (spec 5).",
              "5",
              {},
              {}};
  s.tags = {
      {"valid", "a code word the component accepts: catches over-eager rejection."},
      {"rejected", "a code word the component rejects (W8 0x80, -128): catches a missing interval check."},
      {"int-extreme", "the most negative or most positive code (W8: also -127): catches an off-by-one interval."},
  };
  return s;
}
template <Format F>
void code_validate_build(SuiteBuilder& b) {
  WordType t = info(F).code;
  for (uint32_t w = 0; w < (1u << info(t).bits); ++w) {
    std::string_view rule = oracle::word_rule(F, Component::Code, w);
    std::vector<std::string> tags{rule.empty() ? "valid" : "rejected"};
    int32_t v = oracle::signed_code(t, w);
    int32_t lo = -(1 << (info(t).bits - 1));
    if (v == lo || v == -lo - 1 || (F == Format::W8G32_F16S && v == lo + 1)) tags.push_back("int-extreme");
    b.add(Case{
        {hex_word(w, 2)}, rule.empty() ? "valid" : rejection(rule), {}, {}, tags, "code word " + std::to_string(v)});
  }
}

// --- every binary16 word decoded (the exact values of the scale words)
SuiteInfo f16_info() {
  SuiteInfo s{"decode.F16",
              "decode F16",
              "Every binary16 (F16S scale) word decoded to its exact value and payload-preserving binary32 expansion "
              "(spec 6.1).",
              "6.1",
              {},
              {}};
  add_decode_tags(s);
  s.policies = {{std::string(info(WordType::F16).decode_nan_latitude),
                 "any binary32 NaN for a binary16 NaN word: binary16 is only a scale type, whose NaN words "
                 "are invalid (spec 6.1), so a conversion that quiets or canonicalises the NaN is an "
                 "alternative, reported as such."}};
  return s;
}
void f16_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t w = 0; w < 0x10000; ++w) {
    Case c = decode_case(ctx, WordType::F16, w);
    if ((w & 0x7c00u) == 0x7c00u && (w & 0x3ffu)) c.accept = {std::string(info(WordType::F16).decode_nan_latitude)};
    b.add(std::move(c));
  }
}

// --- reconstruction: every code x boundary scales
template <Format F>
SuiteInfo recon_info() {
  std::string n = fmt_name(F);
  SuiteInfo s{"reconstruct." + n,
              "reconstruct " + n,
              "binary32(code * scale) for every code times boundary binary16 scales: each exponent's extremes, all "
              "subnormal scales for the smallest codes; a nonzero code under a +0 scale is refused (spec 6.1, 6.2).",
              "6.1,6.2",
              {},
              {}};
  s.tags = {
      {"scale-binade-edge",
       "a scale at the first or last fraction of its binade: catches exponent/fraction split errors."},
      {"scale-subnormal", "a subnormal binary16 scale: catches FTZ of the scale."},
      {"scale-zero", "a +0 scale: code 0 gives +0; any other code is the invalid pair of spec 6.1."},
      {"zero-scale-pair",
       "a nonzero code under a +0 scale: spec 6.1 makes every code of a +0-scale group zero, so the "
       "pair has no value and must be refused (!zero-scale-codes), as W8's 0x80 is; catches "
       "answering +-0."},
      {"scale-max", "the largest binary16 scale 65504: catches overflow handling of large products."},
      {"code-extreme", "the most negative or positive code: catches sign extension and range errors."},
      {"illegal", "an illegal code (W8 0x80): the rule must be reported, not a value."},
  };
  return s;
}
template <Format F>
void recon_build(SuiteBuilder& b) {
  oracle::Context ctx;
  WordType t = info(F).code;
  const uint32_t ncodes = 1u << info(t).bits;
  auto add = [&](uint32_t code, uint32_t scale, std::vector<std::string> tags) {
    oracle::Reconstructed r = oracle::reconstruct_grouped(ctx, F, code, scale);
    int32_t v = oracle::signed_code(t, code);
    int32_t lo = -(1 << (info(t).bits - 1));
    if (v == lo || v == -lo - 1) tags.push_back("code-extreme");
    Case c{{hex_word(code, 2), hex_word(scale, 4), "-"},
           "",
           {},
           {},
           tags,
           "code " + std::to_string(v) + " x scale " + hex_word(scale, 4)};
    if (!r.rule.empty()) {
      c.expect = rejection(r.rule);
      c.info = {"-"};
      c.tags.push_back(r.rule == "zero-scale-codes" ? "zero-scale-pair" : "illegal");
    } else {
      c.expect = hex_word(r.binary32, 8);
      c.info = {oracle::format_exact(r.exact)};
    }
    b.add(std::move(c));
  };
  for (uint32_t code = 0; code < ncodes; ++code) {
    add(code, 0x0000, {"scale-zero"});
    add(code, 0x7bff, {"scale-max", "scale-binade-edge"});
    for (uint32_t e = 1; e < 31; ++e) {
      add(code, e << 10, {"scale-binade-edge"});
      add(code, (e << 10) | 0x3ff, {"scale-binade-edge"});
    }
    add(code, 0x0001, {"scale-subnormal"});
    add(code, 0x03ff, {"scale-subnormal"});
  }
  // All subnormal scales for the smallest codes: -2, -1, 1, 2 (and 0 once above).
  for (int32_t v : {-2, -1, 1, 2}) {
    uint32_t code = static_cast<uint32_t>(v) & (ncodes - 1);
    for (uint32_t s = 1; s < 0x400; ++s) add(code, s, {"scale-subnormal"});
  }
}

NC_SUITE(codes_info<Format::Q4G64_F16S>, codes_build<Format::Q4G64_F16S>);
NC_SUITE(scales_info<Format::Q4G64_F16S>, scales_build<Format::Q4G64_F16S>);
NC_SUITE(recon_info<Format::Q4G64_F16S>, recon_build<Format::Q4G64_F16S>);
NC_SUITE(code_validate_info<Format::Q4G64_F16S>, code_validate_build<Format::Q4G64_F16S>);
NC_SUITE(codes_info<Format::Q5G64_F16S>, codes_build<Format::Q5G64_F16S>);
NC_SUITE(scales_info<Format::Q5G64_F16S>, scales_build<Format::Q5G64_F16S>);
NC_SUITE(recon_info<Format::Q5G64_F16S>, recon_build<Format::Q5G64_F16S>);
NC_SUITE(code_validate_info<Format::Q5G64_F16S>, code_validate_build<Format::Q5G64_F16S>);
NC_SUITE(codes_info<Format::Q6G64_F16S>, codes_build<Format::Q6G64_F16S>);
NC_SUITE(scales_info<Format::Q6G64_F16S>, scales_build<Format::Q6G64_F16S>);
NC_SUITE(recon_info<Format::Q6G64_F16S>, recon_build<Format::Q6G64_F16S>);
NC_SUITE(code_validate_info<Format::Q6G64_F16S>, code_validate_build<Format::Q6G64_F16S>);
NC_SUITE(codes_info<Format::W8G32_F16S>, codes_build<Format::W8G32_F16S>);
NC_SUITE(scales_info<Format::W8G32_F16S>, scales_build<Format::W8G32_F16S>);
NC_SUITE(recon_info<Format::W8G32_F16S>, recon_build<Format::W8G32_F16S>);
NC_SUITE(code_validate_info<Format::W8G32_F16S>, code_validate_build<Format::W8G32_F16S>);
NC_SUITE(f16_info, f16_build);

}  // namespace
}  // namespace nc::gen
