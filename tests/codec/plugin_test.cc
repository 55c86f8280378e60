// The ABI table (include/ninfer_conform/plugin.h) adapts nc_codec faithfully.
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "codec/codec_plugin.h"

TEST_CASE("the cpu plugin table is complete", "[codec][plugin]") {
  const nc_plugin_v1* p = nc_codec_plugin_table();
  REQUIRE(p);
  CHECK(p->abi_version == NC_PLUGIN_ABI_VERSION);
  CHECK(p->name);
  CHECK(p->decode);
  CHECK(p->validate_word);
  CHECK(p->parse_format);
  CHECK(p->reconstruct);
  CHECK(p->convert);
  CHECK(p->encode);
  CHECK(p->validate_tensor);
  CHECK(p->dequantize);
}

TEST_CASE("plugin entry points on hand-derived cases", "[codec][plugin]") {
  const nc_plugin_v1* p = nc_codec_plugin_table();
  uint32_t out[4];
  uint8_t valid[4];
  const uint32_t e4[2] = {0x7e, 0x01};
  REQUIRE(p->decode(NC_WT_E4M3FN, e4, 2, out, valid) == NC_OK);
  CHECK(out[0] == 0x43e00000u);  // 448
  CHECK(out[1] == 0x3b000000u);  // 2^-9
  const uint32_t w8[2] = {0x80, 0x81};
  REQUIRE(p->decode(NC_WT_W8_CODE, w8, 2, out, valid) == NC_OK);
  CHECK(valid[0] == 0);
  CHECK(valid[1] == 1);
  CHECK(int32_t(out[1]) == -127);
  const uint32_t too_wide = 0x10;
  CHECK(p->decode(NC_WT_E2M1, &too_wide, 1, out, valid) == NC_EINVALID);

  const uint32_t scales[3] = {0x0000, 0x8000, 0x7c00};
  REQUIRE(p->validate_word(NC_FORMAT_Q4G64_F16S, NC_COMP_SCALE, scales, 3, valid) == NC_OK);
  CHECK((valid[0] == 1 && valid[1] == 0 && valid[2] == 0));
  CHECK(p->validate_word(NC_FORMAT_BF16, NC_COMP_SCALE, scales, 1, valid) == NC_EINVALID);

  int32_t f = 99;
  REQUIRE(p->parse_format("NVFP4", 5, &f) == NC_OK);
  CHECK(f == NC_FORMAT_NVFP4);
  REQUIRE(p->parse_format("BF16 ", 5, &f) == NC_OK);
  CHECK(f == -1);
  REQUIRE(p->parse_format("BF16\0", 5, &f) == NC_OK);
  CHECK(f == -1);

  const uint32_t src[2] = {0x3f808000u, 0x3f818000u};
  REQUIRE(p->convert(NC_RECIPE_F32_TO_BF16_RNE, src, 2, out) == NC_OK);
  CHECK((out[0] == 0x3f80u && out[1] == 0x3f82u));

  const uint32_t code = 0x7, scale = 0x7e, d = 0x40400000;
  REQUIRE(p->reconstruct(NC_FORMAT_NVFP4, &code, &scale, &d, 1, out) == NC_OK);
  CHECK(out[0] == 0x44600000u);  // 896

  // Spec 6.1 and 3.4: a nonzero code under a +0 scale is an invalid pair, refused like W8's 0x80;
  // a zero code there (FP8 row: either signed zero) has its value.
  const uint32_t q_codes[2] = {0x0, 0x8}, zero_scales[2] = {0, 0}, w8_code = 0x81, fp8_codes[2] = {0x80, 0x38};
  CHECK(p->reconstruct(NC_FORMAT_Q4G64_F16S, q_codes, zero_scales, nullptr, 2, out) == NC_EINVALID);
  CHECK(p->reconstruct(NC_FORMAT_W8G32_F16S, &w8_code, zero_scales, nullptr, 1, out) == NC_EINVALID);
  REQUIRE(p->reconstruct(NC_FORMAT_Q4G64_F16S, q_codes, zero_scales, nullptr, 1, out) == NC_OK);
  CHECK(out[0] == 0u);
  CHECK(p->reconstruct(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, fp8_codes, zero_scales, nullptr, 2, out) == NC_EINVALID);
  REQUIRE(p->reconstruct(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, fp8_codes, zero_scales, nullptr, 1, out) == NC_OK);
  CHECK(out[0] == 0x80000000u);
}

TEST_CASE("plugin encode reports scales, codes, trace and outcome", "[codec][plugin]") {
  const nc_plugin_v1* p = nc_codec_plugin_table();
  const uint64_t src[3] = {0x3f800000, 0xbf000000, 0x3e800000};
  uint32_t scale = 0, trace[4] = {};
  int32_t codes[3] = {}, outcome = -1;
  REQUIRE(p->encode(NC_FORMAT_Q4G64_F16S, NC_SRC_FP32, src, 1, 3, &scale, codes, trace, &outcome) == NC_OK);
  CHECK(outcome == NC_ENCODE_OK);
  CHECK(scale == 0x3092u);
  CHECK((codes[0] == 7 && codes[1] == -4 && codes[2] == 2));
  CHECK((trace[0] == 0x3f800000u && trace[1] == 0x3e124925u && trace[2] == 0x3092u && trace[3] == 0x40e00e01u));
  const uint64_t big = 0x4afe213e;
  REQUIRE(p->encode(NC_FORMAT_W8G32_F16S, NC_SRC_FP32, &big, 1, 1, &scale, codes, nullptr, &outcome) == NC_OK);
  CHECK(outcome == NC_ENCODE_FAIL_SCALE_OVERFLOW);
  CHECK(p->encode(NC_FORMAT_NVFP4, NC_SRC_FP32, src, 1, 3, &scale, codes, nullptr, &outcome) == NC_EUNSUPPORTED);
}

TEST_CASE("plugin validate_tensor and dequantize", "[codec][plugin]") {
  const nc_plugin_v1* p = nc_codec_plugin_table();
  const uint64_t shape[2] = {1, 3};
  const uint32_t codes[3] = {0x01, 0x80, 0x7f}, scale = 0x3c00;
  int32_t rule = -1;
  int64_t where = -2;
  REQUIRE(p->validate_tensor(NC_FORMAT_W8G32_F16S, 2, shape, codes, 3, &scale, 1, nullptr, &rule, &where) == NC_OK);
  CHECK(rule == NC_RULE_CODE_ILLEGAL);
  CHECK(where == 1);
  const uint32_t ok_codes[3] = {0x01, 0x81, 0x7f};
  REQUIRE(p->validate_tensor(NC_FORMAT_W8G32_F16S, 2, shape, ok_codes, 3, &scale, 1, nullptr, &rule, &where) == NC_OK);
  CHECK(rule == NC_RULE_NONE);
  uint32_t out[3];
  REQUIRE(p->dequantize(NC_FORMAT_W8G32_F16S, 2, shape, ok_codes, 3, &scale, 1, nullptr, out) == NC_OK);
  CHECK((out[0] == 0x3f800000u && out[1] == 0xc2fe0000u && out[2] == 0x42fe0000u));  // 1, -127, 127
}
