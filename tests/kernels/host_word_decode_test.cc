// The word decoders the kernels use, against binary32 words worked out by hand from spec 3.
#include <catch2/catch.hpp>

#include "kernels/word_decode.h"

using namespace nc::kernels;

TEST_CASE("kernels: E4M3FN words") {
  CHECK(e4m3fn_to_f32_bits(0x00) == 0x00000000u);
  CHECK(e4m3fn_to_f32_bits(0x80) == 0x80000000u);  // negative zero kept
  CHECK(e4m3fn_to_f32_bits(0x01) == 0x3b000000u);  // 2^-9, min subnormal
  CHECK(e4m3fn_to_f32_bits(0x07) == 0x3c600000u);  // 7 * 2^-9 = 1.75 * 2^-7
  CHECK(e4m3fn_to_f32_bits(0x08) == 0x3c800000u);  // 2^-6, min normal
  CHECK(e4m3fn_to_f32_bits(0x38) == 0x3f800000u);  // 1.0
  CHECK(e4m3fn_to_f32_bits(0x7e) == 0x43e00000u);  // 448, max finite
  CHECK(e4m3fn_to_f32_bits(0xfe) == 0xc3e00000u);
  CHECK(e4m3fn_to_f32_bits(0x7f) == 0x7fc00000u);  // NaN
  CHECK(e4m3fn_to_f32_bits(0xff) == 0xffc00000u);
  CHECK(e4m3fn_to_f32_bits(0x78) == 0x43800000u);  // e = 15, m = 0: 256, not infinity
}

TEST_CASE("kernels: E2M1 words: 0 0.5 1 1.5 2 3 4 6 and their negations") {
  const uint32_t expect[16] = {0x00000000, 0x3f000000, 0x3f800000, 0x3fc00000, 0x40000000, 0x40400000,
                               0x40800000, 0x40c00000, 0x80000000, 0xbf000000, 0xbf800000, 0xbfc00000,
                               0xc0000000, 0xc0400000, 0xc0800000, 0xc0c00000};
  for (uint32_t w = 0; w < 16; ++w) CHECK(e2m1_to_f32_bits(w) == expect[w]);
}

TEST_CASE("kernels: binary16 words expand exactly, NaN payload kept") {
  CHECK(f16_to_f32_bits(0x0001) == 0x33800000u);  // 2^-24, the rescue scale
  CHECK(f16_to_f32_bits(0x03ff) == 0x387fc000u);  // max subnormal 1023 * 2^-24
  CHECK(f16_to_f32_bits(0x0400) == 0x38800000u);  // 2^-14
  CHECK(f16_to_f32_bits(0x3c00) == 0x3f800000u);
  CHECK(f16_to_f32_bits(0x3092) == 0x3e124000u);  // examples.md scale 0x1.248p-3
  CHECK(f16_to_f32_bits(0x7bff) == 0x477fe000u);  // 65504
  CHECK(f16_to_f32_bits(0x7c00) == 0x7f800000u);
  CHECK(f16_to_f32_bits(0x7e01) == 0x7fc02000u);
  CHECK(f16_to_f32_bits(0x7d00) == 0x7fa00000u);  // signaling NaN stays signaling
  CHECK(f16_to_f32_bits(0x8000) == 0x80000000u);
}

TEST_CASE("kernels: BF16 words are the high half") {
  CHECK(bf16_to_f32_bits(0x3f80) == 0x3f800000u);
  CHECK(bf16_to_f32_bits(0x7fc1) == 0x7fc10000u);
  CHECK(bf16_to_f32_bits(0x0001) == 0x00010000u);
}

TEST_CASE("kernels: two's-complement codes") {
  CHECK(signed_code(0x7, 4) == 7);
  CHECK(signed_code(0x8, 4) == -8);
  CHECK(signed_code(0xf, 4) == -1);
  CHECK(signed_code(0x1f, 5) == -1);
  CHECK(signed_code(0x10, 5) == -16);
  CHECK(signed_code(0x20, 6) == -32);
  CHECK(signed_code(0x1f, 6) == 31);
  CHECK(signed_code(0x7f, 8) == 127);
  CHECK(signed_code(0x81, 8) == -127);
  CHECK(signed_code(0x80, 8) == -128);  // decodable arithmetic; validity is checked separately
}
