// Direct formats (spec 3.1): every BF16 word; FP32 edge words plus a seeded sample; I32 edges
// plus a seeded sample. Expected binary32 words and exact values from oracle::decode. The
// `validate FMT.word` suites hold the same kinds of words as the word component: every one valid.
#include "generator/suites/common.h"
#include "oracle/validity.h"

namespace nc::gen {
namespace {

SuiteInfo decode_info(const char* name, const char* op, const char* about) {
  SuiteInfo s{name, op, about, "3.1", {}, {}};
  add_decode_tags(s);
  s.tags["seeded"] = "a seeded random word (SplitMix64, suite_seed): catches errors the hand-picked edges miss.";
  return s;
}

SuiteInfo bf16_info() {
  return decode_info("decode.BF16", "decode BF16",
                     "Every BF16 word decoded to its exact binary32 expansion, value and class (spec 3.1).");
}
void bf16_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t w = 0; w < 0x10000; ++w) b.add(decode_case(ctx, WordType::BF16, w));
}

SuiteInfo fp32_info() {
  return decode_info("decode.FP32", "decode FP32",
                     "FP32 edge words and a seeded sample decoded bit-exactly, with value and class (spec 3.1).");
}
void fp32_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t mag :
         {0x00000000u, 0x00000001u, 0x00000002u, 0x00400000u, 0x007ffffeu, 0x007fffffu, 0x00800000u, 0x00800001u,
          0x3f7fffffu, 0x3f800000u, 0x3f800001u, 0x7f7ffffeu, 0x7f7fffffu, 0x7f800000u,
          // NaNs: quiet with low, high and full payloads; signaling likewise.
          0x7fc00000u, 0x7fc00001u, 0x7fe00000u, 0x7fffffffu, 0x7f800001u, 0x7fa00000u, 0x7fbfffffu, 0x7f955555u})
      b.add(decode_case(ctx, WordType::FP32, sign | mag));
    // Every binade's first and last word.
    for (uint32_t e = 1; e < 255; ++e) {
      b.add(decode_case(ctx, WordType::FP32, sign | (e << 23)));
      b.add(decode_case(ctx, WordType::FP32, sign | (e << 23) | 0x7fffff));
    }
  }
  SplitMix64 r(suite_seed("decode.FP32"));
  for (int i = 0; i < 4096; ++i)
    b.add(decode_case(ctx, WordType::FP32, static_cast<uint32_t>(r.next() >> 32), {"seeded"}));
}

SuiteInfo i32_info() {
  return decode_info("decode.I32", "decode I32",
                     "I32 extrema and edges plus a seeded sample, two's complement (spec 3.1).");
}
void i32_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t w : {0x00000000u, 0x00000001u, 0x7ffffffeu, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu,
                     0xffffffffu, 0x0000ffffu, 0x00010000u, 0xffff0000u, 0xffff7fffu, 0x00007fffu, 0x00008000u,
                     0x000000ffu, 0x00000080u, 0xffffff80u, 0xffffff7fu, 0x40000000u, 0xc0000000u})
    b.add(decode_case(ctx, WordType::I32, w));
  SplitMix64 r(suite_seed("decode.I32"));
  for (int i = 0; i < 1024; ++i)
    b.add(decode_case(ctx, WordType::I32, static_cast<uint32_t>(r.next() >> 32), {"seeded"}));
}

// --- `validate FMT.word`: a direct format's words are all valid (spec 3.1: every BF16 and FP32
// word, NaNs, infinities and -0 included, is a value of the format; I32 is any 32-bit word).
SuiteInfo word_validate_info(const std::string& fmt, const std::string& about) {
  SuiteInfo s{"validate." + fmt + ".word", "validate " + fmt + ".word", about, "3.1", {}, {}};
  s.tags = {
      {"valid", "a word the component accepts (every direct word): catches a reader that rejects words of the format."},
      {"nan", "a NaN word: catches a direct reader that rejects or canonicalises NaNs."},
      {"inf", "an infinity: catches a direct reader that rejects infinities."},
      {"subnormal", "a subnormal word: catches FTZ in validation."},
      {"negative-zero", "-0: catches sign-blind zero handling."},
      {"int-extreme", "the most negative or most positive I32: catches a signed range check."},
      {"seeded", "a seeded random word (high 32 bits of SplitMix64 outputs, suite_seed)."},
  };
  return s;
}
void add_word(SuiteBuilder& b, Format f, uint32_t w, std::vector<std::string> tags = {}) {
  const std::string_view rule = oracle::word_rule(f, Component::Word, w);
  tags.push_back(rule.empty() ? "valid" : "rejected");
  if (f == Format::I32) {
    if (w == 0x80000000u || w == 0x7fffffffu) tags.push_back("int-extreme");
  } else {
    const bool bf16 = f == Format::BF16;
    const uint32_t x = bf16 ? w << 16 : w, m = x & 0x7fffffffu;
    if (m > 0x7f800000u) tags.push_back("nan");
    else if (m == 0x7f800000u) tags.push_back("inf");
    else if (m != 0 && m < 0x00800000u) tags.push_back("subnormal");
    if (x == 0x80000000u) tags.push_back("negative-zero");
  }
  b.add(Case{{hex_word(w, f == Format::BF16 ? 4 : 8)},
             rule.empty() ? "valid" : rejection(rule),
             {},
             {},
             tags,
             std::string(info(f).name) + " word"});
}
// Each binade's first and last word, zeros, subnormal edges, infinities and NaNs, both signs.
std::vector<uint32_t> float_edges(int exponent_bits, int fraction_bits) {
  std::vector<uint32_t> v;
  const uint32_t frac = (1u << fraction_bits) - 1, emax = (1u << exponent_bits) - 1;
  for (uint32_t sign : {0u, 1u << (exponent_bits + fraction_bits)}) {
    for (uint32_t m : {0u, 1u, 2u, frac >> 1, frac}) v.push_back(sign | m);  // zero and subnormals
    for (uint32_t e = 1; e <= emax; ++e) {
      v.push_back(sign | (e << fraction_bits));
      v.push_back(sign | (e << fraction_bits) | frac);
    }
    for (uint32_t m : {1u, 2u, (frac >> 1) + 1, frac >> 1, (frac >> 1) + 2})
      v.push_back(sign | (emax << fraction_bits) | m);  // NaNs: signaling and quiet, small payloads
  }
  return v;
}
SuiteInfo bf16_word_info() {
  return word_validate_info(
      "BF16", "BF16 edge words (every binade's ends, zeros, subnormals, inf, NaNs): every one valid (spec 3.1).");
}
void bf16_word_build(SuiteBuilder& b) {
  for (uint32_t w : float_edges(8, 7)) add_word(b, Format::BF16, w);
}
SuiteInfo fp32_word_info() {
  return word_validate_info("FP32", "FP32 edge words and a seeded sample: every one valid (spec 3.1).");
}
void fp32_word_build(SuiteBuilder& b) {
  for (uint32_t w : float_edges(8, 23)) add_word(b, Format::FP32, w);
  SplitMix64 r(suite_seed("validate.FP32.word"));
  for (int i = 0; i < 256; ++i) add_word(b, Format::FP32, static_cast<uint32_t>(r.next() >> 32), {"seeded"});
}
SuiteInfo i32_word_info() {
  return word_validate_info("I32",
                            "I32 extrema, edges and a seeded sample: every 32-bit word is a valid I32 (spec 3.1).");
}
void i32_word_build(SuiteBuilder& b) {
  for (uint32_t w :
       {0x00000000u, 0x00000001u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu, 0x0000ffffu, 0xffff8000u})
    add_word(b, Format::I32, w);
  SplitMix64 r(suite_seed("validate.I32.word"));
  for (int i = 0; i < 256; ++i) add_word(b, Format::I32, static_cast<uint32_t>(r.next() >> 32), {"seeded"});
}

NC_SUITE(bf16_info, bf16_build);
NC_SUITE(bf16_word_info, bf16_word_build);
NC_SUITE(fp32_word_info, fp32_word_build);
NC_SUITE(i32_word_info, i32_word_build);
NC_SUITE(fp32_info, fp32_build);
NC_SUITE(i32_info, i32_build);

}  // namespace
}  // namespace nc::gen
