// Element reconstruction to binary32 (spec 6.2, 3.3, 3.4): the build-flag-sensitive arithmetic.
//
// Which operator is written how, and why (see README "Exactness and the fast-math control"):
//  - grouped  w = binary32(s32 * binary32(q)): __fmul_rn (mul_rn). The product of a binary16 scale
//    (>= 2^-24) and a nonzero integer code is never subnormal, so FTZ cannot reach it; __fmul_rn
//    also forbids contraction into an FMA. Both builds agree here by construction.
//  - NVFP4    w = binary32(e2m1 * e4m3 / d_w): the product is exact; the division is a plain `/`.
//    The default nvcc build (-prec-div=true, -ftz=false) compiles it to div.rn.f32, IEEE
//    correctly rounded, identical to __fdiv_rn; --use_fast_math turns it into an approximate,
//    flushing division: the negative control.
//  - FP8 row  w = binary32(c32 * s32): a plain `*`. Exact-rounded in both builds for normal
//    results; under FTZ (fast-math) a subnormal product (BF16 subnormal row scales) becomes 0.
#pragma once
#include <cstdint>

#include "ninfer_conform/plugin.h"
#include "kernels/word_decode.h"

namespace nc::kernels {

NC_HD uint32_t code_bits_of(nc_format fmt) {
  switch (fmt) {
    case NC_FORMAT_Q4G64_F16S:
      return 4;
    case NC_FORMAT_Q5G64_F16S:
      return 5;
    case NC_FORMAT_Q6G64_F16S:
      return 6;
    default:
      return 8;  // W8G32_F16S
  }
}

NC_HD float grouped_weight(uint32_t code, uint32_t bits, uint32_t scale16) {
  const float s32 = f32_from_bits(f16_to_f32_bits(scale16));
  const float q = static_cast<float>(signed_code(code, bits));  // exact: |q| <= 127
  return mul_rn(s32, q);
}

NC_HD float nvfp4_weight(uint32_t code, uint32_t scale8, float d_w) {
  const float cs = f32_from_bits(e2m1_to_f32_bits(code)) * f32_from_bits(e4m3fn_to_f32_bits(scale8));
  return cs / d_w;  // plain '/': correctly rounded only in the default build (see above)
}

NC_HD float fp8_row_weight(uint32_t code, uint32_t scale_bf16) {
  return f32_from_bits(e4m3fn_to_f32_bits(code)) * f32_from_bits(bf16_to_f32_bits(scale_bf16));
}

// Whether an element's words can be reconstructed at all: each fits its component word type, and
// the code has a value (W8's 0x80 is the one code word without one, spec 5), and the pair is not a
// nonzero code under a +0 scale (spec 6.1 and 3.4 make it invalid: vectors/FORMAT.md "Invalid
// pairs"; NVFP4 has no such rule). The ABI has no
// per-element validity for reconstruct, so one such element refuses the whole call (NC_EINVALID);
// the runner then narrows it down (runners/abi_host.cc). Whether a scale is valid (sign, NaN) is
// validation's question, not reconstruction's: such words still have a value.
NC_HD bool reconstructible(nc_format fmt, uint32_t code, uint32_t scale) {
  const uint32_t code_bits = fmt == NC_FORMAT_NVFP4 ? 4 : fmt == NC_FORMAT_FP8_E4M3FN_ROW_BF16S ? 8 : code_bits_of(fmt);
  const uint32_t scale_bits = fmt == NC_FORMAT_NVFP4 ? 8 : 16;
  if ((code >> code_bits) != 0 || (scale >> scale_bits) != 0) return false;
  if (fmt == NC_FORMAT_W8G32_F16S && code == 0x80u) return false;
  if (scale == 0 && fmt == NC_FORMAT_FP8_E4M3FN_ROW_BF16S) return (code & 0x7fu) == 0;
  if (scale == 0 && fmt != NC_FORMAT_NVFP4 && fmt > NC_FORMAT_I32) return code == 0;
  return true;
}

// Direct formats reconstruct to their own word's binary32 expansion (I32: the integer's bits).
NC_HD uint32_t reconstruct_bits(nc_format fmt, uint32_t code, uint32_t scale, uint32_t divisor_bits) {
  switch (fmt) {
    case NC_FORMAT_BF16:
      return bf16_to_f32_bits(code);
    case NC_FORMAT_FP32:
    case NC_FORMAT_I32:
      return code;
    case NC_FORMAT_NVFP4:
      return bits_from_f32(nvfp4_weight(code, scale, f32_from_bits(divisor_bits)));
    case NC_FORMAT_FP8_E4M3FN_ROW_BF16S:
      return bits_from_f32(fp8_row_weight(code, scale));
    default:
      return bits_from_f32(grouped_weight(code, code_bits_of(fmt), scale));
  }
}

}  // namespace nc::kernels
