#include "codec/nvfp4.h"

#include <bit>

#include "codec/float_traits.h"

namespace nc::codec {

std::optional<Rule> e4m3fn_block_scale_rule(uint32_t s) {
  if (s & E4M3FNTraits::kSignBit) return Rule::ScaleNegative;
  if (s == E4M3FNTraits::kNaN) return Rule::ScaleNonfinite;
  return std::nullopt;
}

bool nvfp4_divisor_valid(uint32_t d) { return !(d >> 31) && d != 0 && (d & 0x7f800000u) != 0x7f800000u; }

uint32_t nvfp4_reconstruct(uint32_t code4, uint32_t scale8, uint32_t d_w) {
  const float c = std::bit_cast<float>(decode_to_f32<E2M1Traits>(code4));
  const float s = std::bit_cast<float>(decode_to_f32<E4M3FNTraits>(scale8));
  const float p = c * s;  // exact (see header)
  return std::bit_cast<uint32_t>(p / std::bit_cast<float>(d_w));
}

}  // namespace nc::codec
