// Reconstruction oracles: the represented value of one element of a quantized format.
#pragma once

#include <cstdint>
#include <string_view>

#include "oracle/context.h"
#include "oracle/value.h"
#include "registry/registry.h"

namespace nc::oracle {

struct Reconstructed {
  std::string_view rule;  // empty, or the validity rule the inputs break (then nothing else is set)
  Exact exact;            // the exact real result before rounding to binary32
  uint32_t binary32 = 0;  // its RNE binary32 word (overflow -> inf)
};

// Grouped signed-integer formats (spec 6.2): binary32(s32 * binary32(q)), with s32 the exact
// binary16 scale. The code is the logical code word, the scale a binary16 word. Invalid words
// (W8 0x80, invalid scale) give their rule, and so does a nonzero code under a +0 scale
// ("zero-scale-codes": spec 6.1 makes that pair invalid wherever it occurs in a group).
Reconstructed reconstruct_grouped(Context& ctx, Format f, uint32_t code_word, uint32_t scale_word);

// NVFP4 (spec 3.3): e2m1 * e4m3fn / d_w exact (a rational), and its correctly rounded binary32.
Reconstructed reconstruct_nvfp4(Context& ctx, uint32_t e2m1_word, uint32_t e4m3_scale_word, uint32_t divisor_word);

// FP8_E4M3FN_ROW_BF16S (spec 3.4): binary32(c32 * s32), overflow to inf. A code other than 0x00
// and 0x80 under a +0 row scale gives "zero-scale-codes" (spec 3.4), as does an invalid word its rule.
Reconstructed reconstruct_fp8_row(Context& ctx, uint32_t e4m3_code_word, uint32_t bf16_scale_word);

}  // namespace nc::oracle
