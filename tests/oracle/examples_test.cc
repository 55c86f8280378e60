// Every worked group of /work/shared/spec/examples.md (spec 7), transcribed from that document.
#include <catch2/catch.hpp>

#include "oracle/maxabs_f16_recip_rne_v1.h"

using namespace nc;
using namespace nc::oracle;

namespace {
struct Example {
  Format f;
  std::vector<uint64_t> src;
  uint32_t amax32, raw_scale32, scale16, inv32;
  std::vector<uint32_t> norm;
  std::vector<int32_t> codes;
};

void check(const Example& e) {
  Context ctx;
  const EncodeResult r = encode_maxabs_f16_recip_rne_v1(ctx, e.f, SourceType::FP32, 1, e.src.size(), e.src);
  REQUIRE(r.failure == EncodeFailure::None);
  REQUIRE(r.trace.size() == 1);
  CHECK(*r.trace[0].amax32 == e.amax32);
  CHECK(*r.trace[0].raw_scale32 == e.raw_scale32);
  CHECK(*r.trace[0].scale16 == e.scale16);
  CHECK(*r.trace[0].inv32 == e.inv32);
  CHECK(r.scales == std::vector<uint32_t>{e.scale16});
  CHECK(r.codes == e.codes);
  for (size_t i = 0; i < e.norm.size(); ++i) CHECK(*r.normalized32[i] == e.norm[i]);
}
}  // namespace

TEST_CASE("examples.md: Q4 plain group", "[oracle][examples]") {
  // 0x1.c01c02p+2 = 0x40e00e01, -0x1.c01c02p+1 = 0xc0600e01, 0x1.c01c02p+0 = 0x3fe00e01
  check({Format::Q4G64_F16S,
         {0x3f800000, 0xbf000000, 0x3e800000},
         0x3f800000,
         0x3e124925,
         0x3092,
         0x40e00e01,
         {0x40e00e01, 0xc0600e01, 0x3fe00e01},
         {7, -4, 2}});
}

TEST_CASE("examples.md: Q4 mixed group", "[oracle][examples]") {
  // 0x1.c01cp+2 = 0x40e00e00; -0x1.ddfbbep-2 = 0xbeeefddf
  check({Format::Q4G64_F16S,
         {0x40400000, 0xbfc00000, 0x3f400000, 0xbe4ccccd},
         0x40400000,
         0x3edb6db7,
         0x36db,
         0x40155eab,
         {0x40e00e00, 0xc0600e00, 0x3fe00e00, 0xbeeefddf},
         {7, -4, 2, 0}});
}

TEST_CASE("examples.md: W8 symmetric extremes", "[oracle][examples]") {
  // 0x1.fc07fp+6 = 0x42fe03f8, 0x1.fc07fp+5 = 0x427e03f8
  check({Format::W8G32_F16S,
         {0x3f800000, 0xbf800000, 0x3f000000},
         0x3f800000,
         0x3c010204,
         0x2008,
         0x42fe03f8,
         {0x42fe03f8, 0xc2fe03f8, 0x427e03f8},
         {127, -127, 64}});
}

TEST_CASE("examples.md: Q5 subnormal sources, 2^-24 rescue", "[oracle][examples]") {
  // 0x1.4p-123 = 0x02200000, -0x1p-124 = 0x81800000
  check({Format::Q5G64_F16S,
         {0x00000005, 0x80000002},
         0x00000005,
         0x00000000,
         0x0001,
         0x4b800000,
         {0x02200000, 0x81800000},
         {0, 0}});
}

TEST_CASE("examples.md: Q6 all-zero group with a negative zero", "[oracle][examples]") {
  Context ctx;
  const EncodeResult r =
      encode_maxabs_f16_recip_rne_v1(ctx, Format::Q6G64_F16S, SourceType::FP32, 1, 2, {0x0, 0x80000000});
  REQUIRE(r.failure == EncodeFailure::None);
  CHECK(r.scales == std::vector<uint32_t>{0});
  CHECK(r.codes == std::vector<int32_t>{0, 0});
  CHECK_FALSE(r.trace[0].raw_scale32.has_value());
}

TEST_CASE("examples.md: W8 scale overflow and Q4 NaN source fail", "[oracle][examples]") {
  Context ctx;
  const EncodeResult over =
      encode_maxabs_f16_recip_rne_v1(ctx, Format::W8G32_F16S, SourceType::FP32, 1, 1, {0x4afe213e});
  CHECK(over.failure == EncodeFailure::ScaleOverflow);
  CHECK(failure_rule(over.failure) == "scale-overflow");
  CHECK(over.trace[0].scale16 == 0x7c00u);
  const EncodeResult nan =
      encode_maxabs_f16_recip_rne_v1(ctx, Format::Q4G64_F16S, SourceType::FP32, 1, 2, {0x7fc00000, 0x3f800000});
  CHECK(nan.failure == EncodeFailure::Nonfinite);
  CHECK(nan.failure_index == 0);
}

TEST_CASE("encoder: source conversion and group geometry", "[oracle][encoder]") {
  Context ctx;
  // F64 1.0 and BF16 / F16 1.0 become binary32 1.0 exactly
  CHECK(*source_to_binary32(ctx, SourceType::F64, 0x3ff0000000000000ull) == 0x3f800000u);
  CHECK(*source_to_binary32(ctx, SourceType::BF16, 0x3f80) == 0x3f800000u);
  CHECK(*source_to_binary32(ctx, SourceType::F16, 0x3c00) == 0x3f800000u);
  // F64 1 + 2^-24 (tie) -> 1.0; 1 + 2^-24 + 2^-52 -> next up; 2^-150 (tie with 0) -> +0
  CHECK(*source_to_binary32(ctx, SourceType::F64, 0x3ff0000010000000ull) == 0x3f800000u);
  CHECK(*source_to_binary32(ctx, SourceType::F64, 0x3ff0000010000001ull) == 0x3f800001u);
  CHECK(*source_to_binary32(ctx, SourceType::F64, 0x3690000000000000ull) == 0x00000000u);
  CHECK(*source_to_binary32(ctx, SourceType::F64, 0xb690000000000000ull) == 0x80000000u);
  CHECK_FALSE(source_to_binary32(ctx, SourceType::F64, 0x47f0000000000000ull).has_value());  // 2^128
  CHECK_FALSE(source_to_binary32(ctx, SourceType::F16, 0x7c00).has_value());
  // [2, 33] W8: two groups per row (32 + 1); the tail group scales from its one value
  std::vector<uint64_t> src(66, 0x3f800000);
  src[32] = 0x40000000;  // row 0 tail: 2.0
  const EncodeResult r = encode_maxabs_f16_recip_rne_v1(ctx, Format::W8G32_F16S, SourceType::FP32, 2, 33, src);
  REQUIRE(r.failure == EncodeFailure::None);
  REQUIRE(r.scales.size() == 4);
  CHECK(r.scales[0] == 0x2008);  // as the W8 example: amax 1
  CHECK(r.scales[1] == 0x2408);  // amax 2: one binade up
  CHECK(r.codes[32] == 127);
}
