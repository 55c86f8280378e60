// MAXABS_F16_RECIP_RNE_V1 (spec 7) against examples.md and hand-derived groups.
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "codec/maxabs_f16_recip_rne_v1.h"

using namespace nc;
using namespace nc::codec;

namespace {
Encoding encode_ok(Format f, std::vector<uint64_t> src, uint64_t rows, uint64_t k, SourceType t = SourceType::FP32) {
  auto r = maxabs_f16_recip_rne_v1(f, t, src, rows, k);
  REQUIRE(r.ok());
  REQUIRE_FALSE(r->failure.has_value());
  return *r;
}
uint64_t f32w(float x) { return std::bit_cast<uint32_t>(x); }
}  // namespace

TEST_CASE("spec 7 integral rounding examples", "[codec][encoder]") {
  CHECK(round_integral_rne(f32w(0.5f)) == 0);
  CHECK(round_integral_rne(f32w(-0.5f)) == 0);
  CHECK(round_integral_rne(f32w(1.5f)) == 2);
  CHECK(round_integral_rne(f32w(-1.5f)) == -2);
  CHECK(round_integral_rne(f32w(2.5f)) == 2);
  CHECK(round_integral_rne(f32w(-2.5f)) == -2);
  CHECK(round_integral_rne(f32w(0.50000006f)) == 1);
  CHECK(round_integral_rne(f32w(126.5f)) == 126);
  CHECK(round_integral_rne(f32w(127.5f)) == 128);
  CHECK(round_integral_rne(0x00000001u) == 0);
  // Through the encoder: amax 7 makes scale 1.0 and inv32 1.0, so codes are the rounded inputs.
  const Encoding e = encode_ok(
      Format::Q4G64_F16S, {f32w(7), f32w(0.5f), f32w(1.5f), f32w(2.5f), f32w(-0.5f), f32w(-1.5f), f32w(-2.5f)}, 1, 7);
  CHECK(e.scales == std::vector<uint32_t>{0x3c00});
  CHECK(e.codes == std::vector<int32_t>{7, 0, 2, 2, 0, -2, -2});
}

TEST_CASE("examples.md: Q4 plain group", "[codec][encoder]") {
  const Encoding e = encode_ok(Format::Q4G64_F16S, {0x3f800000, 0xbf000000, 0x3e800000}, 1, 3);
  CHECK(e.scales == std::vector<uint32_t>{0x3092});
  CHECK(e.codes == std::vector<int32_t>{7, -4, 2});
  CHECK(*e.trace[0].amax32 == 0x3f800000u);
  CHECK(*e.trace[0].raw_scale32 == 0x3e124925u);
  CHECK(*e.trace[0].scale16 == 0x3092u);
  CHECK(*e.trace[0].inv32 == 0x40e00e01u);
  CHECK(*e.normalized32[0] == 0x40e00e01u);  // 0x1.c01c02p+2
  CHECK(*e.normalized32[1] == 0xc0600e01u);  // -0x1.c01c02p+1
  CHECK(*e.normalized32[2] == 0x3fe00e01u);  // 0x1.c01c02p+0
  // The same group from BF16, binary16 and binary64 words (exact conversions).
  CHECK(encode_ok(Format::Q4G64_F16S, {0x3f80, 0xbf00, 0x3e80}, 1, 3, SourceType::BF16).codes == e.codes);
  CHECK(encode_ok(Format::Q4G64_F16S, {0x3c00, 0xb800, 0x3400}, 1, 3, SourceType::F16).scales == e.scales);
  CHECK(
      encode_ok(Format::Q4G64_F16S, {0x3ff0000000000000, 0xbfe0000000000000, 0x3fd0000000000000}, 1, 3, SourceType::F64)
          .codes == e.codes);
}

TEST_CASE("examples.md: Q4 mixed group", "[codec][encoder]") {
  const Encoding e = encode_ok(Format::Q4G64_F16S, {0x40400000, 0xbfc00000, 0x3f400000, 0xbe4ccccd}, 1, 4);
  CHECK(e.scales == std::vector<uint32_t>{0x36db});
  CHECK(e.codes == std::vector<int32_t>{7, -4, 2, 0});
  CHECK(*e.trace[0].raw_scale32 == 0x3edb6db7u);
  CHECK(*e.trace[0].inv32 == 0x40155eabu);
}

TEST_CASE("examples.md: W8 symmetric extremes", "[codec][encoder]") {
  const Encoding e = encode_ok(Format::W8G32_F16S, {0x3f800000, 0xbf800000, 0x3f000000}, 1, 3);
  CHECK(e.scales == std::vector<uint32_t>{0x2008});
  CHECK(e.codes == std::vector<int32_t>{127, -127, 64});
  CHECK(*e.trace[0].raw_scale32 == 0x3c010204u);
  CHECK(*e.trace[0].inv32 == 0x42fe03f8u);
}

TEST_CASE("examples.md: all-zero group with a negative zero", "[codec][encoder]") {
  const Encoding e = encode_ok(Format::Q6G64_F16S, {0x00000000, 0x80000000}, 1, 2);
  CHECK(e.scales == std::vector<uint32_t>{0x0000});
  CHECK(e.codes == std::vector<int32_t>{0, 0});
  CHECK(*e.trace[0].amax32 == 0u);
  CHECK_FALSE(e.trace[0].raw_scale32.has_value());  // handled before the division
  CHECK_FALSE(e.trace[0].inv32.has_value());
}

TEST_CASE("examples.md: subnormal sources use the 2^-24 rescue", "[codec][encoder]") {
  const Encoding e = encode_ok(Format::Q5G64_F16S, {0x00000005, 0x80000002}, 1, 2);
  CHECK(*e.trace[0].raw_scale32 == 0u);
  CHECK(e.scales == std::vector<uint32_t>{0x0001});
  CHECK(*e.trace[0].inv32 == 0x4b800000u);
  CHECK(e.codes == std::vector<int32_t>{0, 0});
}

TEST_CASE("examples.md failures: scale overflow and NaN source", "[codec][encoder]") {
  auto r = maxabs_f16_recip_rne_v1(Format::W8G32_F16S, SourceType::FP32, std::vector<uint64_t>{0x4afe213e}, 1, 1);
  REQUIRE(r.ok());
  REQUIRE(r->failure.has_value());
  CHECK(r->failure->rule == Rule::ScaleOverflow);
  CHECK(*r->trace[0].amax32 == 0x4afe213eu);
  CHECK(*r->trace[0].scale16 == 0x7c00u);
  CHECK_FALSE(r->trace[0].inv32.has_value());
  auto n = maxabs_f16_recip_rne_v1(Format::Q4G64_F16S, SourceType::FP32, std::vector<uint64_t>{0x7fc00000, 0x3f800000},
                                   1, 2);
  REQUIRE(n->failure.has_value());
  CHECK(n->failure->rule == Rule::Nonfinite);
  CHECK_FALSE(n->trace[0].amax32.has_value());
  // Infinity sources of every type fail too; a binary64 beyond binary32 overflows to inf.
  for (auto [t, w] : {std::pair{SourceType::BF16, uint64_t(0xff80)},
                      {SourceType::F16, 0x7c00},
                      {SourceType::F64, 0x47f0000000000000},
                      {SourceType::F64, 0x7ff8000000000000}}) {
    auto f = maxabs_f16_recip_rne_v1(Format::Q4G64_F16S, t, std::vector<uint64_t>{w}, 1, 1);
    REQUIRE(f->failure.has_value());
    CHECK(f->failure->rule == Rule::Nonfinite);
  }
}

TEST_CASE("binary64 sources round to binary32 first", "[codec][encoder]") {
  // 2^-160 underflows to +0: an all-zero group.
  CHECK(encode_ok(Format::Q4G64_F16S, {0x35f0000000000000}, 1, 1, SourceType::F64).scales == std::vector<uint32_t>{0});
  // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: rounds to 1.0 (even), so amax32 is exactly 1.
  auto r =
      maxabs_f16_recip_rne_v1(Format::Q4G64_F16S, SourceType::F64, std::vector<uint64_t>{0x3ff0000010000000}, 1, 1);
  CHECK(*r->trace[0].amax32 == 0x3f800000u);
  CHECK(source_to_f32(SourceType::F64, 0x3800000000000000) == 0x00400000u);  // 2^-127: subnormal
}

TEST_CASE("partial final group and rows are grouped independently", "[codec][encoder]") {
  // k = 66: one full group of 1.0 and a final group of two values {2, -2}. Scaling by two is
  // exact, so the second group's scale is the first's times two and its codes are the same.
  std::vector<uint64_t> src(64, 0x3f800000);
  src.push_back(0x40000000);
  src.push_back(0xc0000000);
  const Encoding e = encode_ok(Format::Q4G64_F16S, src, 1, 66);
  CHECK(e.scales == std::vector<uint32_t>{0x3092, 0x3492});
  CHECK(*e.trace[1].inv32 == 0x40600e01u);
  std::vector<int32_t> codes(64, 7);
  codes.push_back(7);
  codes.push_back(-7);
  CHECK(e.codes == codes);
  // Two rows of three: the zero row gets its own +0 scale.
  const Encoding two = encode_ok(Format::Q4G64_F16S, {0x3f800000, 0xbf000000, 0x3e800000, 0, 0, 0}, 2, 3);
  CHECK(two.scales == std::vector<uint32_t>{0x3092, 0x0000});
  CHECK(two.codes == std::vector<int32_t>{7, -4, 2, 0, 0, 0});
}

TEST_CASE("W8 never emits -128", "[codec][encoder]") {
  // amax = 178 * 2^-24: raw_scale32 = 1.40 * 2^-24 rounds to the binary16 unit 0x0001, so
  // normalized32 = -178, which rounds to -178 and is clamped to -127 (never -128).
  const float x = std::ldexp(178.0f, -24);
  const Encoding e = encode_ok(Format::W8G32_F16S, {f32w(-x), f32w(x)}, 1, 2);
  CHECK(e.scales == std::vector<uint32_t>{0x0001});
  CHECK(e.codes == std::vector<int32_t>{-127, 127});
  // Random groups, including tiny magnitudes where binary16 scales lose precision.
  std::mt19937 rng(12345);
  for (int rep = 0; rep < 2000; ++rep) {
    std::vector<uint64_t> src(32);
    const int scale = int(rng() % 200) - 150;
    for (auto& w : src) w = f32w(std::ldexp(float(int(rng() % 2001) - 1000) / 1000.0f, scale));
    auto r = maxabs_f16_recip_rne_v1(Format::W8G32_F16S, SourceType::FP32, src, 1, 32);
    if (r->failure) continue;
    for (int32_t c : r->codes) REQUIRE(c >= -127);
  }
}

TEST_CASE("bad encoder arguments are errors, not crashes", "[codec][encoder]") {
  auto nv = maxabs_f16_recip_rne_v1(Format::NVFP4, SourceType::FP32, std::vector<uint64_t>{0}, 1, 1);
  REQUIRE_FALSE(nv.ok());
  CHECK(nv.error().rule == Rule::Unsupported);
  auto shape = maxabs_f16_recip_rne_v1(Format::Q4G64_F16S, SourceType::FP32, std::vector<uint64_t>{0, 0}, 1, 3);
  REQUIRE_FALSE(shape.ok());
  CHECK(shape.error().rule == Rule::Shape);
  CHECK_FALSE(maxabs_f16_recip_rne_v1(Format::Q4G64_F16S, SourceType::FP32, {}, 0, 0).ok());
}
