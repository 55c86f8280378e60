// Scale/code validity, reconstruction and whole-tensor checks for the six quantized formats
// (spec 3.3, 3.4, 4-6). Expected values are computed by hand in the comments.
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "codec/fp8_row.h"
#include "codec/grouped.h"
#include "codec/nvfp4.h"
#include "codec/tensor.h"

using namespace nc;
using namespace nc::codec;

static float f32(uint32_t b) { return std::bit_cast<float>(b); }

TEST_CASE("binary16 scale validity", "[codec][grouped]") {
  CHECK_FALSE(f16_scale_rule(0x0000));  // +0
  CHECK_FALSE(f16_scale_rule(0x0001));  // 2^-24, the minimum positive scale
  CHECK_FALSE(f16_scale_rule(0x03ff));
  CHECK_FALSE(f16_scale_rule(0x7bff));
  CHECK(f16_scale_rule(0x8000) == Rule::ScaleNegative);
  CHECK(f16_scale_rule(0xbc00) == Rule::ScaleNegative);
  CHECK(f16_scale_rule(0xfc00) == Rule::ScaleNegative);
  CHECK(f16_scale_rule(0x7c00) == Rule::ScaleNonfinite);
  CHECK(f16_scale_rule(0x7e00) == Rule::ScaleNonfinite);
  CHECK(f16_scale_rule(0x7c01) == Rule::ScaleNonfinite);
}

TEST_CASE("grouped reconstruction is s32 * q in binary32", "[codec][grouped]") {
  CHECK(f32(grouped_reconstruct(0x3c00, -8)) == -8.0f);
  CHECK(f32(grouped_reconstruct(0x0001, 7)) == std::ldexp(7.0f, -24));
  CHECK(f32(grouped_reconstruct(0x7bff, -127)) == -8319008.0f);   // 65504 * 127, exact
  CHECK(f32(grouped_reconstruct(0x3092, 7)) == 0.999755859375f);  // 0x1.248p-3 * 7
  CHECK(grouped_reconstruct(0x0000, 0) == 0u);
  CHECK(grouped_reconstruct(0x3c00, 0) == 0u);  // +0, not -0
}

TEST_CASE("NVFP4 validity and reconstruction", "[codec][nvfp4]") {
  CHECK_FALSE(e4m3fn_block_scale_rule(0x00));
  CHECK_FALSE(e4m3fn_block_scale_rule(0x7e));
  CHECK(e4m3fn_block_scale_rule(0x80) == Rule::ScaleNegative);
  CHECK(e4m3fn_block_scale_rule(0xff) == Rule::ScaleNegative);
  CHECK(e4m3fn_block_scale_rule(0x7f) == Rule::ScaleNonfinite);
  CHECK(nvfp4_divisor_valid(0x3f800000));
  CHECK(nvfp4_divisor_valid(0x00000001));  // positive subnormal is finite and > 0
  CHECK_FALSE(nvfp4_divisor_valid(0x00000000));
  CHECK_FALSE(nvfp4_divisor_valid(0x80000000));
  CHECK_FALSE(nvfp4_divisor_valid(0xbf800000));
  CHECK_FALSE(nvfp4_divisor_valid(0x7f800000));
  CHECK_FALSE(nvfp4_divisor_valid(0x7fc00000));
  CHECK(f32(nvfp4_reconstruct(0x7, 0x7e, 0x3f800000)) == 2688.0f);           // 6 * 448 / 1
  CHECK(f32(nvfp4_reconstruct(0x7, 0x7e, 0x40400000)) == 896.0f);            // / 3
  CHECK(f32(nvfp4_reconstruct(0x9, 0x38, 0x40400000)) == -f32(0x3e2aaaab));  // -0.5 * 1 / 3: RNE(1/6)
  // 0.5 * 2^-9 / (3 * 2^116) = 2^-126 / 3 = 2796202.67 units of 2^-149 -> 2796203 (subnormal).
  CHECK(nvfp4_reconstruct(0x1, 0x01, 0x7a400000) == 0x002aaaabu);
  CHECK(nvfp4_reconstruct(0x8, 0x38, 0x3f800000) == 0x80000000u);  // -0 code keeps its sign
}

TEST_CASE("FP8 row validity and reconstruction", "[codec][fp8row]") {
  CHECK(fp8_row_code_valid(0x00));
  CHECK(fp8_row_code_valid(0x80));
  CHECK(fp8_row_code_valid(0x7e));
  CHECK_FALSE(fp8_row_code_valid(0x7f));
  CHECK_FALSE(fp8_row_code_valid(0xff));
  CHECK_FALSE(bf16_row_scale_rule(0x0000));
  CHECK_FALSE(bf16_row_scale_rule(0x0001));
  CHECK(bf16_row_scale_rule(0x8000) == Rule::ScaleNegative);
  CHECK(bf16_row_scale_rule(0x7f80) == Rule::ScaleNonfinite);
  CHECK(bf16_row_scale_rule(0x7fc1) == Rule::ScaleNonfinite);
  CHECK(fp8_row_reconstruct(0x7e, 0x7f7f) == 0x7f800000u);  // 448 * 0x1.fep127 overflows to inf
  CHECK(fp8_row_reconstruct(0x01, 0x0001) == 0x00000080u);  // 2^-9 * 2^-133 = 2^-142
  CHECK(f32(fp8_row_reconstruct(0x38, 0x3fc0)) == 1.5f);
  CHECK(fp8_row_reconstruct(0x80, 0x3f80) == 0x80000000u);
}

namespace {
std::optional<Violation> check(Format f, std::vector<uint64_t> shape, std::vector<uint32_t> codes,
                               std::vector<uint32_t> scales, std::optional<uint32_t> d = std::nullopt) {
  return validate_tensor(f, TensorView{shape, codes, scales, d});
}
void expect(const std::optional<Violation>& v, Rule rule, Plane plane, int64_t index) {
  REQUIRE(v.has_value());
  INFO(v->error.text());
  CHECK(v->rule == rule);
  CHECK(v->plane == plane);
  CHECK(v->index == index);
}
}  // namespace

TEST_CASE("grouped tensor validity: geometry and first violation", "[codec][tensor]") {
  // [2, 70]: ceil_div(70, 64) = 2 scales per row.
  std::vector<uint32_t> codes(140, 0), scales(4, 0x3c00);
  CHECK_FALSE(check(Format::Q4G64_F16S, {2, 70}, codes, scales));
  CHECK(*scale_count(Format::Q4G64_F16S, std::vector<uint64_t>{2, 70}) == 4u);
  CHECK(*scale_count(Format::W8G32_F16S, std::vector<uint64_t>{3, 2, 33}) == 12u);  // rank 3
  CHECK(*scale_count(Format::Q5G64_F16S, std::vector<uint64_t>{64}) == 1u);         // rank 1
  expect(check(Format::Q4G64_F16S, {2, 70}, codes, std::vector<uint32_t>(3, 0x3c00)), Rule::Shape, Plane::None, -1);
  expect(check(Format::Q4G64_F16S, {}, {}, {}), Rule::Shape, Plane::None, -1);
  expect(check(Format::Q4G64_F16S, {0, 70}, {}, {}), Rule::Shape, Plane::None, -1);
  // Zero-scale rule: scale [0,1] owns codes 64..69 of row 0.
  auto z = scales;
  z[1] = 0;
  auto c = codes;
  c[65] = 0x1;
  expect(check(Format::Q4G64_F16S, {2, 70}, c, z), Rule::ZeroScaleCodes, Plane::Codes, 65);
  c[65] = 0;
  c[64 + 70] = 0xf;  // row 1, group 1: its scale is fine
  CHECK_FALSE(check(Format::Q4G64_F16S, {2, 70}, c, z));
  // Scales are checked before codes.
  z[3] = 0x8000;
  c[65] = 0x1;
  expect(check(Format::Q4G64_F16S, {2, 70}, c, z), Rule::ScaleNegative, Plane::Scales, 3);
  z[2] = 0x7c00;
  expect(check(Format::Q4G64_F16S, {2, 70}, c, z), Rule::ScaleNonfinite, Plane::Scales, 2);
  // W8 0x80 is illegal; a word wider than the code is a range error.
  std::vector<uint32_t> w8(32, 0x01);
  w8[5] = 0x80;
  expect(check(Format::W8G32_F16S, {1, 32}, w8, {0x3c00}), Rule::CodeIllegal, Plane::Codes, 5);
  expect(check(Format::Q4G64_F16S, {1, 2}, {0x1, 0x10}, {0x3c00}), Rule::WordRange, Plane::Codes, 1);
}

TEST_CASE("NVFP4 tensor validity: divisor first, no zero-scale rule", "[codec][tensor]") {
  std::vector<uint32_t> codes(2 * 32, 0x7), scales(4, 0x38);
  CHECK_FALSE(check(Format::NVFP4, {2, 32}, codes, scales, 0x3f800000));
  scales[0] = 0;  // +0 block scale with nonzero codes is valid for NVFP4
  CHECK_FALSE(check(Format::NVFP4, {2, 32}, codes, scales, 0x3f800000));
  scales[1] = 0x80;
  expect(check(Format::NVFP4, {2, 32}, codes, scales, 0x3f800000), Rule::ScaleNegative, Plane::Scales, 1);
  expect(check(Format::NVFP4, {2, 32}, codes, scales, 0x00000000), Rule::Divisor, Plane::None, -1);
  // A missing divisor plane is a shape error, like any missing or extra plane (vectors/FORMAT.md,
  // rule precedence); a present but non-positive d_w breaks the divisor rule.
  expect(check(Format::NVFP4, {2, 32}, codes, scales), Rule::Shape, Plane::None, -1);
  expect(check(Format::NVFP4, {64}, codes, scales, 0x3f800000), Rule::Shape, Plane::None, -1);
}

TEST_CASE("NVFP4 K must be a multiple of 16: no partial block (spec 3.3)", "[codec][tensor]") {
  // [2, 17] with ceil(17/16) = 2 scales per row would be a "partial final block"; spec 3.3 says
  // every K-axis group holds 16 codes, so it is a shape error before the bad divisor and scale.
  std::vector<uint32_t> codes(2 * 17, 0x7), scales(4, 0x38);
  expect(check(Format::NVFP4, {2, 17}, codes, scales, 0x3f800000), Rule::Shape, Plane::None, -1);
  scales[1] = 0x80;
  expect(check(Format::NVFP4, {2, 17}, codes, scales, 0x00000000), Rule::Shape, Plane::None, -1);
  std::vector<uint32_t> one(1, 0x2), one_scale(1, 0x38);
  expect(check(Format::NVFP4, {1, 1}, one, one_scale, 0x3f800000), Rule::Shape, Plane::None, -1);
  std::vector<uint64_t> shape{1, 2};
  std::vector<uint32_t> c2{0x7, 0xf}, s1{0x7e};
  CHECK_FALSE(dequantize(Format::NVFP4, TensorView{shape, c2, s1, 0x40400000u}).ok());
}

TEST_CASE("FP8 row tensor validity", "[codec][tensor]") {
  CHECK_FALSE(check(Format::FP8_E4M3FN_ROW_BF16S, {2, 2}, {0x00, 0x80, 0x7e, 0x01}, {0x0000, 0x3f80}));
  expect(check(Format::FP8_E4M3FN_ROW_BF16S, {2, 2}, {0x00, 0x01, 0x7e, 0x01}, {0x0000, 0x3f80}), Rule::ZeroScaleCodes,
         Plane::Codes, 1);
  expect(check(Format::FP8_E4M3FN_ROW_BF16S, {2, 2}, {0x00, 0x00, 0xff, 0x01}, {0x0000, 0x3f80}), Rule::CodeIllegal,
         Plane::Codes, 2);
  expect(check(Format::FP8_E4M3FN_ROW_BF16S, {2, 2}, {0, 0, 0, 0}, {0x0000, 0x8000}), Rule::ScaleNegative,
         Plane::Scales, 1);
  expect(check(Format::BF16, {2}, {0, 0}, {}), Rule::Unsupported, Plane::None, -1);
}

TEST_CASE("dequantize reconstructs every element with its own scale", "[codec][tensor]") {
  // The partial-group encoding of encoder_test: [1, 66], scales 0x3092 and 0x3492.
  std::vector<uint32_t> codes(64, 0x7);
  codes.push_back(0x7);
  codes.push_back(0x9);  // -7
  std::vector<uint64_t> shape{1, 66};
  std::vector<uint32_t> scales{0x3092, 0x3492};
  auto out = dequantize(Format::Q4G64_F16S, TensorView{shape, codes, scales, std::nullopt});
  REQUIRE(out.ok());
  CHECK(f32((*out)[0]) == 0.999755859375f);
  CHECK(f32((*out)[63]) == 0.999755859375f);
  CHECK(f32((*out)[64]) == 1.99951171875f);
  CHECK(f32((*out)[65]) == -1.99951171875f);
  std::vector<uint64_t> nshape{1, 16};
  std::vector<uint32_t> ncodes(16, 0x0), nscales{0x7e};
  ncodes[0] = 0x7;
  ncodes[1] = 0xf;
  auto nv = dequantize(Format::NVFP4, TensorView{nshape, ncodes, nscales, 0x40400000u});
  REQUIRE(nv.ok());
  CHECK(f32((*nv)[0]) == 896.0f);  // 6 * 448 / 3
  CHECK(f32((*nv)[1]) == -896.0f);
}
