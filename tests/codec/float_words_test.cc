// Component words against hand-derived or independently computed values (spec 3.1, 3.3).
#include <bit>
#include <cmath>
#include <cstdint>

#include <catch2/catch.hpp>

#include "codec/direct.h"
#include "codec/float_traits.h"
#include "codec/words.h"

using namespace nc;
using namespace nc::codec;

static float f32(uint32_t b) { return std::bit_cast<float>(b); }

TEST_CASE("every E2M1 word decodes to the spec 3.3 table", "[codec][e2m1]") {
  const float table[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  for (uint32_t w = 0; w < 16; ++w) {
    const uint32_t bits = float_word_to_f32(WordType::E2M1, w);
    const float expect = (w & 8) ? -table[w & 7] : table[w & 7];
    CHECK(f32(bits) == expect);
    CHECK(std::signbit(f32(bits)) == bool(w & 8));  // 0x8 is negative zero
    const ValueClass c = float_word_class(WordType::E2M1, w);
    CHECK(c == ((w & 7) == 0 ? ValueClass::Zero : (w & 7) == 1 ? ValueClass::Subnormal : ValueClass::Normal));
  }
}

TEST_CASE("every E4M3FN word matches ldexp on its fields", "[codec][e4m3fn]") {
  for (uint32_t w = 0; w < 256; ++w) {
    const int s = w >> 7, e = (w >> 3) & 15, m = w & 7;
    const uint32_t bits = float_word_to_f32(WordType::E4M3FN, w);
    const ValueClass c = float_word_class(WordType::E4M3FN, w);
    INFO("word " << w);
    if (e == 15 && m == 7) {
      CHECK(c == ValueClass::NaN);
      CHECK(std::isnan(f32(bits)));
      CHECK(std::signbit(f32(bits)) == bool(s));
      continue;
    }
    const double mag = e == 0 ? std::ldexp(double(m), -9) : std::ldexp(1.0 + m / 8.0, e - 7);
    CHECK(double(f32(bits)) == (s ? -mag : mag));
    CHECK(std::signbit(f32(bits)) == bool(s));
    CHECK(c == (e == 0 ? (m ? ValueClass::Subnormal : ValueClass::Zero) : ValueClass::Normal));
  }
  CHECK(f32(float_word_to_f32(WordType::E4M3FN, 0x7e)) == 448.0f);
  CHECK(f32(float_word_to_f32(WordType::E4M3FN, 0x01)) == std::ldexp(1.0f, -9));
}

TEST_CASE("binary16 words match ldexp on their fields", "[codec][f16]") {
  for (uint32_t w = 0; w < 0x10000; ++w) {
    const int s = w >> 15, e = (w >> 10) & 31, m = w & 1023;
    const uint32_t bits = float_word_to_f32(WordType::F16, w);
    if (e == 31) {
      CHECK((m ? std::isnan(f32(bits)) : std::isinf(f32(bits))));
      CHECK((bits & 0x7fffffu) == uint32_t(m) << 13);  // payload kept
      continue;
    }
    const double mag = e == 0 ? std::ldexp(double(m), -24) : std::ldexp(1.0 + m / 1024.0, e - 15);
    if (double(f32(bits)) != (s ? -mag : mag)) FAIL("F16 word " << w);
  }
  CHECK(f32(float_word_to_f32(WordType::F16, 0x0001)) == std::ldexp(1.0f, -24));
  CHECK(f32(float_word_to_f32(WordType::F16, 0x7bff)) == 65504.0f);
}

TEST_CASE("BF16 words: zeros, subnormals, NaN payloads", "[codec][bf16]") {
  CHECK(Bf16Word(0x0000).to_f32_bits() == 0x00000000u);
  CHECK(Bf16Word(0x8000).to_f32_bits() == 0x80000000u);
  CHECK(Bf16Word(0x8000).value_class() == ValueClass::Zero);
  CHECK(f32(Bf16Word(0x0001).to_f32_bits()) == std::ldexp(1.0f, -133));  // spec: fraction * 2^-133
  CHECK(Bf16Word(0x0001).value_class() == ValueClass::Subnormal);
  CHECK(Bf16Word(0x807f).to_f32_bits() == 0x807f0000u);
  CHECK(Bf16Word(0x7f80).value_class() == ValueClass::Inf);
  // Signaling NaN with payload 1 and a negative quiet NaN keep every bit.
  CHECK(Bf16Word(0x7f81).to_f32_bits() == 0x7f810000u);
  CHECK(Bf16Word(0xffc1).to_f32_bits() == 0xffc10000u);
  CHECK(Bf16Word(0x7f81).value_class() == ValueClass::NaN);
  // Every word expands by appending 16 zero bits (spec 3.1 equivalence).
  for (uint32_t w = 0; w < 0x10000; ++w)
    if (float_word_to_f32(WordType::BF16, w) != w << 16) FAIL("BF16 word " << w);
}

TEST_CASE("FP32 and I32 words persist bit-exactly", "[codec][direct]") {
  for (uint32_t w :
       {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x7f800001u, 0xffbfffffu, 0x7fc00000u, 0x7f7fffffu}) {
    CHECK(float_word_to_f32(WordType::FP32, w) == w);
    CHECK(Fp32Word(w) == Fp32Word(w));
  }
  CHECK(Fp32Word(0x00000001u).value_class() == ValueClass::Subnormal);
  CHECK(Fp32Word(0x7f800001u).value_class() == ValueClass::NaN);
  CHECK(Fp32Word(0x80000000u).value_class() == ValueClass::Zero);
  CHECK(I32Word(0x7fffffffu).value() == 2147483647);
  CHECK(I32Word(0x80000000u).value() == -2147483648ll);
  CHECK(I32Word(0xffffffffu).value() == -1);
  CHECK(*int_word_value(WordType::I32, 0x80000000u) == INT32_MIN);
  CHECK(*int_word_value(WordType::I32, 0x7fffffffu) == INT32_MAX);
  // No implicit cross-type encoding: the direct word types do not convert into each other.
  STATIC_REQUIRE(!std::is_convertible_v<Fp32Word, Bf16Word>);
  STATIC_REQUIRE(!std::is_convertible_v<Bf16Word, Fp32Word>);
  STATIC_REQUIRE(!std::is_convertible_v<uint32_t, Fp32Word>);
  STATIC_REQUIRE(!std::is_convertible_v<I32Word, Fp32Word>);
}

TEST_CASE("grouped code words are two's complement of their width", "[codec][codes]") {
  CHECK(*int_word_value(WordType::Q4_CODE, 0x7) == 7);
  CHECK(*int_word_value(WordType::Q4_CODE, 0x8) == -8);
  CHECK(*int_word_value(WordType::Q4_CODE, 0xf) == -1);
  CHECK(*int_word_value(WordType::Q5_CODE, 0x10) == -16);
  CHECK(*int_word_value(WordType::Q5_CODE, 0x0f) == 15);
  CHECK(*int_word_value(WordType::Q6_CODE, 0x20) == -32);
  CHECK(*int_word_value(WordType::Q6_CODE, 0x1f) == 31);
  CHECK(*int_word_value(WordType::W8_CODE, 0x81) == -127);
  CHECK(*int_word_value(WordType::W8_CODE, 0x7f) == 127);
  const auto w8min = int_word_value(WordType::W8_CODE, 0x80);
  REQUIRE_FALSE(w8min.ok());
  CHECK(w8min.error().rule == Rule::CodeIllegal);
  const auto wide = int_word_value(WordType::Q4_CODE, 0x10);
  REQUIRE_FALSE(wide.ok());
  CHECK(wide.error().rule == Rule::WordRange);
  CHECK(code_word_from_signed(WordType::Q5_CODE, -16) == 0x10);
  CHECK(code_word_from_signed(WordType::W8_CODE, -127) == 0x81);
  CHECK_FALSE(check_word(WordType::E2M1, 0x10).ok());
  CHECK(check_word(WordType::FP32, 0xffffffffu).ok());
}
