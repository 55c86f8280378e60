// NVFP4 (spec 3.3): E2M1 codes, one E4M3FN block scale per 16 along K, one FP32 divisor d_w.
#pragma once

#include <cstdint>
#include <optional>

#include "codec/result.h"

namespace nc::codec {

inline constexpr uint32_t kNvfp4Block = 16;

// Block scale: sign-zero finite E4M3FN words (incl. +0) are valid; sign set (incl. -0) is
// ScaleNegative; the positive NaN 0x7f is ScaleNonfinite (0xff has the sign bit: ScaleNegative).
std::optional<Rule> e4m3fn_block_scale_rule(uint32_t scale8);

// d_w must be finite and strictly positive (positive subnormals included).
bool nvfp4_divisor_valid(uint32_t d_w);

// W = e2m1 * e4m3 / d_w, rounded to binary32 once. The product of a 2-bit and a 4-bit
// significand is exact in binary32 (|p| in [2^-10, 2688]), so the one IEEE binary32 division
// p / d_w is the correctly rounded exact quotient, subnormal results included.
uint32_t nvfp4_reconstruct(uint32_t code4, uint32_t scale8, uint32_t d_w);

}  // namespace nc::codec
