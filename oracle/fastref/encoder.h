// Integer-only model of the canonical encoder MAXABS_F16_RECIP_RNE_V1 (spec 7) for one group of
// finite-or-not binary32 words, for the sweeps. Every step is one exact operation followed by one
// rounding through round_exact, in the spec's order.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nc::fastref {

enum class EncodeOutcome : uint8_t { Ok, NonFinite, ScaleOverflow };

// qmax is the scale denominator (7, 15, 31, 127); codes are clamped to [qmin, qmax].
EncodeOutcome encode_group(int qmin, int qmax, const uint32_t* x, size_t n, uint32_t* scale16, int32_t* codes);

// Building blocks, exposed for tests: binary32(a / b) for finite a and finite b != 0, and the
// integral value of binary32 word w rounded to nearest, ties to even (|w| < 2^62).
uint32_t binary32_div(uint32_t a, uint32_t b);
int64_t round_integral_rne(uint32_t w);

}  // namespace nc::fastref
