// Direct formats (spec 3.1): every BF16 word; FP32 edge words plus a seeded sample; I32 edges
// plus a seeded sample. Expected binary32 words and exact values from oracle::decode.
#include "generator/suites/common.h"

namespace nc::gen {
namespace {

SuiteInfo decode_info(const char* name, const char* op, const char* about) {
  SuiteInfo s{name, op, about, "3.1", {}, {}};
  add_decode_tags(s);
  s.tags["seeded"] = "a seeded random word (SplitMix64, suite_seed): catches errors the hand-picked edges miss.";
  return s;
}

SuiteInfo bf16_info() { return decode_info("decode.BF16", "decode BF16", "Every BF16 word decoded to its exact binary32 expansion, value and class (spec 3.1)."); }
void bf16_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t w = 0; w < 0x10000; ++w) b.add(decode_case(ctx, WordType::BF16, w));
}

SuiteInfo fp32_info() { return decode_info("decode.FP32", "decode FP32", "FP32 edge words and a seeded sample decoded bit-exactly, with value and class (spec 3.1)."); }
void fp32_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t mag : {0x00000000u, 0x00000001u, 0x00000002u, 0x00400000u, 0x007ffffeu, 0x007fffffu, 0x00800000u, 0x00800001u,
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
  for (int i = 0; i < 4096; ++i) b.add(decode_case(ctx, WordType::FP32, static_cast<uint32_t>(r.next() >> 32), {"seeded"}));
}

SuiteInfo i32_info() { return decode_info("decode.I32", "decode I32", "I32 extrema and edges plus a seeded sample, two's complement (spec 3.1)."); }
void i32_build(SuiteBuilder& b) {
  oracle::Context ctx;
  for (uint32_t w : {0x00000000u, 0x00000001u, 0x7ffffffeu, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu,
                     0x0000ffffu, 0x00010000u, 0xffff0000u, 0xffff7fffu, 0x00007fffu, 0x00008000u, 0x000000ffu, 0x00000080u,
                     0xffffff80u, 0xffffff7fu, 0x40000000u, 0xc0000000u})
    b.add(decode_case(ctx, WordType::I32, w));
  SplitMix64 r(suite_seed("decode.I32"));
  for (int i = 0; i < 1024; ++i) b.add(decode_case(ctx, WordType::I32, static_cast<uint32_t>(r.next() >> 32), {"seeded"}));
}

NC_SUITE(bf16_info, bf16_build);
NC_SUITE(fp32_info, fp32_build);
NC_SUITE(i32_info, i32_build);

}  // namespace
}  // namespace nc::gen
