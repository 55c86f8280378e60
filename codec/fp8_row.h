// FP8_E4M3FN_ROW_BF16S (spec 3.4): finite E4M3FN codes, one BF16 multiplier per row.
#pragma once

#include <cstdint>
#include <optional>

#include "codec/result.h"

namespace nc::codec {

// Codes: every finite word incl. both zeros; the NaN words 0x7f and 0xff are CodeIllegal.
bool fp8_row_code_valid(uint32_t code8);

// Row scale: BF16 with sign zero and finite (+0 and positive subnormals valid). Sign first:
// -0/negatives/-inf/-NaN are ScaleNegative; +inf/+NaN ScaleNonfinite.
std::optional<Rule> bf16_row_scale_rule(uint32_t scale16);

// binary32(c32 * s32): one binary32 multiply of exact operands (overflow to inf, gradual underflow).
uint32_t fp8_row_reconstruct(uint32_t code8, uint32_t scale16);

}  // namespace nc::codec
