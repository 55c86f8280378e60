// Direct formats BF16, FP32, I32 (spec 3.1). Each is a distinct word type: persistence is the
// identity on the word, and no constructor or conversion operator turns one into another. The
// only way from FP32 to BF16 is a named recipe (codec/recipes.h).
#pragma once

#include <cstdint>

#include "codec/float_traits.h"

namespace nc::codec {

struct Bf16Word {
  uint16_t bits;
  explicit constexpr Bf16Word(uint16_t b) : bits(b) {}
  constexpr uint32_t to_f32_bits() const { return decode_to_f32<Bf16Traits>(bits); }
  constexpr ValueClass value_class() const { return classify<Bf16Traits>(bits); }
  friend constexpr bool operator==(Bf16Word, Bf16Word) = default;
};

struct Fp32Word {
  uint32_t bits;
  explicit constexpr Fp32Word(uint32_t b) : bits(b) {}
  constexpr ValueClass value_class() const { return classify<Fp32Traits>(bits); }
  friend constexpr bool operator==(Fp32Word, Fp32Word) = default;
};

struct I32Word {
  uint32_t bits;
  explicit constexpr I32Word(uint32_t b) : bits(b) {}
  // value = u if u < 2^31, u - 2^32 otherwise; independent of the host int's width semantics.
  constexpr int64_t value() const { return bits < 0x80000000u ? int64_t(bits) : int64_t(bits) - 0x100000000ll; }
  friend constexpr bool operator==(I32Word, I32Word) = default;
};

}  // namespace nc::codec
