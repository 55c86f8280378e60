// Grouped signed-integer schemes Q4G64/Q5G64/Q6G64/W8G32_F16S (spec 4-6): the description of each
// ("int4 codes, group 64, binary16 scale"), scale validity, group geometry and reconstruction.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "codec/result.h"
#include "registry/registry.h"

namespace nc::codec {

struct GroupedScheme {
  Format format;
  WordType code;
  uint32_t group;      // G
  int32_t qmin, qmax;  // legal interval; qmax is also the encoder's scale denominator
};

// nullopt for the five formats that are not grouped signed-integer schemes.
std::optional<GroupedScheme> grouped_scheme(Format f);

// Binary16 scale validity (spec 6.1): +0 and positive finite (incl. subnormals). Checks the sign
// bit first, so -0, negative values, -inf and negative NaNs are ScaleNegative; +inf and positive
// NaNs are ScaleNonfinite. Returns nullopt when valid.
std::optional<Rule> f16_scale_rule(uint32_t scale16);

inline constexpr uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// w_hat = binary32(s32 * binary32(q)): one binary32 multiply of two exact operands.
uint32_t grouped_reconstruct(uint32_t scale16, int32_t q);

}  // namespace nc::codec
