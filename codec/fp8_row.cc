#include "codec/fp8_row.h"

#include <bit>

#include "codec/float_traits.h"

namespace nc::codec {

bool fp8_row_code_valid(uint32_t c) { return (c & ~E4M3FNTraits::kSignBit) != E4M3FNTraits::kNaN; }

std::optional<Rule> bf16_row_scale_rule(uint32_t s) {
  if (s & Bf16Traits::kSignBit) return Rule::ScaleNegative;
  if ((s & Bf16Traits::kInf) == Bf16Traits::kInf) return Rule::ScaleNonfinite;
  return std::nullopt;
}

uint32_t fp8_row_reconstruct(uint32_t code8, uint32_t scale16) {
  const float c = std::bit_cast<float>(decode_to_f32<E4M3FNTraits>(code8));
  const float s = std::bit_cast<float>(decode_to_f32<Bf16Traits>(scale16));
  return std::bit_cast<uint32_t>(c * s);
}

}  // namespace nc::codec
