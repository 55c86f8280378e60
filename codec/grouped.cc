#include "codec/grouped.h"

#include <bit>

#include "codec/float_traits.h"

namespace nc::codec {

std::optional<GroupedScheme> grouped_scheme(Format f) {
  switch (f) {
    case Format::Q4G64_F16S:
      return GroupedScheme{f, WordType::Q4_CODE, 64, -8, 7};
    case Format::Q5G64_F16S:
      return GroupedScheme{f, WordType::Q5_CODE, 64, -16, 15};
    case Format::Q6G64_F16S:
      return GroupedScheme{f, WordType::Q6_CODE, 64, -32, 31};
    case Format::W8G32_F16S:
      return GroupedScheme{f, WordType::W8_CODE, 32, -127, 127};
    default:
      return std::nullopt;
  }
}

std::optional<Rule> f16_scale_rule(uint32_t s) {
  if (s & F16Traits::kSignBit) return Rule::ScaleNegative;
  if ((s & F16Traits::kInf) == F16Traits::kInf) return Rule::ScaleNonfinite;
  return std::nullopt;
}

uint32_t grouped_reconstruct(uint32_t scale16, int32_t q) {
  const float s32 = std::bit_cast<float>(decode_to_f32<F16Traits>(scale16));
  return std::bit_cast<uint32_t>(s32 * float(q));  // float(q) exact: |q| <= 127
}

}  // namespace nc::codec
