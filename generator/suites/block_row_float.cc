// NVFP4 (spec 3.3) and FP8_E4M3FN_ROW_BF16S (spec 3.4): every E2M1 and E4M3FN word, component
// validity (all 256 block scales, binary32 divisor edges, all 256 row codes, all 65,536 BF16 row
// scales) and reconstruction. Expectations from nc::oracle.
//
// NVFP4 quotients are never binary32 ties: e2m1 * e4m3 = P * 2^f with P odd <= 45, so a dyadic
// quotient P/(D * 2^e) needs D | P and has at most 6 significant bits, with exponent >= -137
// (divisor < 2^128); it is exact. Every other quotient is not dyadic, hence never a midpoint. The
// divisor set therefore targets exact, rounded (non-dyadic, including near 1), subnormal and
// overflowing quotients.
#include "generator/suites/common.h"
#include "oracle/reconstruct.h"
#include "oracle/validity.h"
#include "oracle/value.h"

namespace nc::gen {
namespace {

SuiteInfo decode_info(const char* name, const char* op, const char* about, const char* spec) {
  SuiteInfo s{name, op, about, spec, {}, {}};
  add_decode_tags(s);
  return s;
}

SuiteInfo e2m1_info() {
  return decode_info("decode.E2M1", "decode E2M1", "All 16 E2M1 words decoded to their exact values (spec 3.3).",
                     "3.3");
}
void e2m1_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t w = 0; w < 16; ++w) b.add(decode_case(ctx, WordType::E2M1, w));
}
SuiteInfo e4m3_info() {
  return decode_info("decode.E4M3FN", "decode E4M3FN",
                     "All 256 E4M3FN words decoded to their exact binary32 expansion (spec 3.3, 3.4).", "3.3,3.4");
}
void e4m3_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t w = 0; w < 256; ++w) b.add(decode_case(ctx, WordType::E4M3FN, w));
}

// One `validate FMT.COMP` suite over a list of words.
SuiteInfo validate_info(const std::string& name, const std::string& about, const char* spec) {
  SuiteInfo s{name, "validate " + name.substr(name.find('.') + 1), about, spec, {}, {}};
  s.tags = {
      {"valid", "a word the component accepts: catches over-eager rejection."},
      {"rejected", "a word the component rejects: catches a missing validity check."},
      {"negative-zero", "a -0 word: catches sign-blind zero tests."},
      {"nan", "a NaN word: catches NaN accepted as a value."},
      {"inf", "an infinity: catches infinities accepted as finite."},
      {"subnormal", "a subnormal word: catches FTZ in validation."},
  };
  return s;
}
void add_validate(SuiteBuilder& b, Format f, Component c, uint32_t w, int digits, std::vector<std::string> tags) {
  std::string_view rule = oracle::word_rule(f, c, w);
  tags.push_back(rule.empty() ? "valid" : "rejected");
  b.add(Case{{hex_word(w, digits)}, rule.empty() ? "valid" : rejection(rule), {}, {}, tags, "component word"});
}

SuiteInfo nvfp4_code_info() {
  return validate_info("validate.NVFP4.code", "All 16 E2M1 code words: every one is valid (spec 3.3).", "3.3");
}
void nvfp4_code_build(SuiteBuilder& b) {
  for (uint32_t w = 0; w < 16; ++w) add_validate(b, Format::NVFP4, Component::Code, w, 1, {});
}
std::vector<std::string> e4m3_tags(uint32_t w) {
  if ((w & 0x7f) == 0x7f) return {"nan"};
  if (w == 0x80) return {"negative-zero"};
  if ((w & 0x78) == 0 && (w & 7)) return {"subnormal"};
  return {};
}
SuiteInfo nvfp4_scale_info() {
  return validate_info("validate.NVFP4.scale",
                       "All 256 E4M3FN words as NVFP4 block scales: NaN and any sign bit rejected (spec 3.3).", "3.3");
}
void nvfp4_scale_build(SuiteBuilder& b) {
  for (uint32_t w = 0; w < 256; ++w) add_validate(b, Format::NVFP4, Component::Scale, w, 2, e4m3_tags(w));
}
std::vector<uint32_t> binary32_edges() {
  std::vector<uint32_t> v;
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t m :
         {0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x3f7fffffu, 0x3f800000u, 0x3f800001u, 0x40400000u,
          0x7f000000u, 0x7f7fffffu, 0x7f800000u, 0x7f800001u, 0x7fbfffffu, 0x7fc00000u, 0x7fffffffu})
      v.push_back(sign | m);
  return v;
}
std::vector<std::string> binary32_tags(uint32_t w) {
  uint32_t m = w & 0x7fffffff;
  std::vector<std::string> t;
  if (m > 0x7f800000u) t.push_back("nan");
  else if (m == 0x7f800000u) t.push_back("inf");
  else if (m != 0 && m < 0x00800000u) t.push_back("subnormal");
  if (w == 0x80000000u) t.push_back("negative-zero");
  return t;
}
SuiteInfo nvfp4_divisor_info() {
  return validate_info("validate.NVFP4.divisor",
                       "Binary32 edge words as the NVFP4 divisor d_w: must be finite and > 0 (spec 3.3).", "3.3");
}
void nvfp4_divisor_build(SuiteBuilder& b) {
  for (uint32_t w : binary32_edges()) add_validate(b, Format::NVFP4, Component::Divisor, w, 8, binary32_tags(w));
}

SuiteInfo nvfp4_recon_info() {
  SuiteInfo s{"reconstruct.NVFP4",
              "reconstruct NVFP4",
              "e2m1 * e4m3fn / d_w, exact and correctly rounded to binary32, for every code x every valid scale x a "
              "divisor set (spec 3.3).",
              "3.3",
              {},
              {}};
  s.tags = {
      {"exact", "the quotient is a binary32 value: catches needless rounding or a reciprocal-multiply."},
      {"rounded",
       "the quotient is not dyadic: catches multiply-by-reciprocal or double rounding instead of one correct "
       "rounding."},
      {"near-one-divisor", "divisor 1 + 2^-23: catches dropping the divisor when it is close to 1."},
      {"subnormal", "a subnormal binary32 result: catches FTZ."},
      {"overflow", "the quotient exceeds the binary32 range: must be infinity; catches saturation."},
      {"zero", "a zero code or scale: catches the sign of zero (-0 code gives -0)."},
  };
  return s;
}
void nvfp4_recon_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t code = 0; code < 16; ++code)
    for (uint32_t scale = 0; scale < 256; ++scale) {
      if (!oracle::word_rule(Format::NVFP4, Component::Scale, scale).empty()) continue;
      for (uint32_t d : kNvfp4Divisors) {
        oracle::Reconstructed r = oracle::reconstruct_nvfp4(ctx, code, scale, d);
        Case c{{hex_word(code, 1), hex_word(scale, 2), hex_word(d, 8)}, "", {}, {}, {}, "code x scale / divisor"};
        if (!r.rule.empty()) {
          c.expect = rejection(r.rule);
          c.info = {"-"};
        } else {
          c.expect = hex_word(r.binary32, 8);
          c.info = {oracle::format_exact(r.exact)};
          uint32_t m = r.binary32 & 0x7fffffff;
          if (r.exact.is_zero()) c.tags.push_back("zero");
          else if (m == 0x7f800000u) c.tags.push_back("overflow");
          else if (m < 0x00800000u) c.tags.push_back("subnormal");
          if (m != 0x7f800000u)
            c.tags.push_back(r.exact.q == oracle::exact_value(oracle::FloatFormat::Binary32, r.binary32).q ? "exact"
                                                                                                           : "rounded");
          if (d == 0x3f800001u) c.tags.push_back("near-one-divisor");
        }
        b.add(std::move(c));
      }
    }
}

SuiteInfo fp8_code_info() {
  return validate_info("validate.FP8_E4M3FN_ROW_BF16S.code",
                       "All 256 E4M3FN words as FP8 row codes: only the NaNs are illegal (spec 3.4).", "3.4");
}
void fp8_code_build(SuiteBuilder& b) {
  for (uint32_t w = 0; w < 256; ++w) add_validate(b, Format::FP8_E4M3FN_ROW_BF16S, Component::Code, w, 2, e4m3_tags(w));
}
SuiteInfo fp8_scale_info() {
  return validate_info("validate.FP8_E4M3FN_ROW_BF16S.scale",
                       "All 65,536 BF16 words as FP8 row scales: inf/NaN and any sign bit rejected (spec 3.4).", "3.4");
}
void fp8_scale_build(SuiteBuilder& b) {
  for (uint32_t w = 0; w < 0x10000; ++w) {
    std::vector<std::string> t = binary32_tags(w << 16);
    add_validate(b, Format::FP8_E4M3FN_ROW_BF16S, Component::Scale, w, 4, t);
  }
}

SuiteInfo fp8_recon_info() {
  SuiteInfo s{"reconstruct.FP8_E4M3FN_ROW_BF16S",
              "reconstruct FP8_E4M3FN_ROW_BF16S",
              "binary32(code * row scale) for every finite E4M3FN code x boundary BF16 scales, including products that "
              "overflow to infinity (spec 3.4).",
              "3.4",
              {},
              {}};
  s.tags = {
      {"scale-binade-edge", "a scale at the first or last fraction of its binade: catches exponent/fraction errors."},
      {"scale-subnormal", "a subnormal BF16 scale: catches FTZ of the scale."},
      {"scale-zero",
       "a +0 scale: a signed-zero code gives a signed zero; any other code is the invalid pair of spec 3.4."},
      {"zero-scale-pair",
       "a nonzero code under a +0 row scale: spec 3.4 allows only 0x00 and 0x80 there, so the pair "
       "has no value and must be refused (!zero-scale-codes); catches answering +-0."},
      {"overflow", "the product overflows binary32: must be infinity, not saturated."},
      {"subnormal", "a subnormal binary32 product: catches FTZ."},
      {"rounded", "the product needs rounding to binary32: catches truncation."},
  };
  return s;
}
void fp8_recon_build(SuiteBuilder& b) {
  oracle::Context ctx;
  std::vector<std::pair<uint32_t, const char*>> scales = {
      {0x0000, "scale-zero"}, {0x0001, "scale-subnormal"}, {0x007f, "scale-subnormal"}, {0x0040, "scale-subnormal"}};
  for (uint32_t e = 1; e < 255; ++e)
    if (e <= 8 || (e >= 120 && e <= 134) || e >= 240) {
      scales.push_back({e << 7, "scale-binade-edge"});
      scales.push_back({(e << 7) | 0x7f, "scale-binade-edge"});
    }
  for (uint32_t code = 0; code < 256; ++code) {
    if ((code & 0x7f) == 0x7f) continue;  // NaN codes are illegal; validate suites cover them
    for (auto [s, tag] : scales) {
      oracle::Reconstructed r = oracle::reconstruct_fp8_row(ctx, code, s);
      Case c{{hex_word(code, 2), hex_word(s, 4), "-"}, "", {}, {}, {tag}, "code x row scale"};
      if (!r.rule.empty()) {
        c.expect = rejection(r.rule);
        c.info = {"-"};
        if (r.rule == "zero-scale-codes") c.tags.push_back("zero-scale-pair");
      } else {
        c.expect = hex_word(r.binary32, 8);
        c.info = {oracle::format_exact(r.exact)};
        uint32_t m = r.binary32 & 0x7fffffff;
        if (m == 0x7f800000u) c.tags.push_back("overflow");
        else if (m != 0 && m < 0x00800000u) c.tags.push_back("subnormal");
        if (m != 0x7f800000u && !(r.exact.q == oracle::exact_value(oracle::FloatFormat::Binary32, r.binary32).q) &&
            !r.exact.is_zero())
          c.tags.push_back("rounded");
      }
      b.add(std::move(c));
    }
  }
}

NC_SUITE(e2m1_info, e2m1_build);
NC_SUITE(e4m3_info, e4m3_build);
NC_SUITE(nvfp4_code_info, nvfp4_code_build);
NC_SUITE(nvfp4_scale_info, nvfp4_scale_build);
NC_SUITE(nvfp4_divisor_info, nvfp4_divisor_build);
NC_SUITE(nvfp4_recon_info, nvfp4_recon_build);
NC_SUITE(fp8_code_info, fp8_code_build);
NC_SUITE(fp8_scale_info, fp8_scale_build);
NC_SUITE(fp8_recon_info, fp8_recon_build);

}  // namespace
}  // namespace nc::gen
