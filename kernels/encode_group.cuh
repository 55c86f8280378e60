// MAXABS_F16_RECIP_RNE_V1 (spec 7) for one group, in the spec's order. Host + device: the GPU
// kernel (encode_kernel.cu) runs it one group per thread; the CPU test runs the same code on the host.
//
// Exactness in the default build, and where --use_fast_math departs (the negative control):
//  - amax: fmaxf/fabsf. Exact in both builds for normal values; under FTZ max.ftz flushes a
//    subnormal amax to 0, so a subnormal group takes the all-zero path instead of the 2^-24
//    rescue (spec examples.md, the Q5 rescue case).
//  - raw_scale32 = amax / qmax: a plain `/` -> div.rn.f32 by default, approximate under fast-math.
//  - scale16 = __float2half_rn(raw): cvt.rn.f16.f32 in both builds.
//  - inv32 = 1.0f / s32: a plain `/` -> rcp.rn.f32 (correctly rounded reciprocal, identical to
//    __frcp_rn) by default; rcp.approx.ftz under fast-math.
//  - normalized32 = x * inv32: a plain `*`, nothing to contract it with; FTZ flushes subnormal
//    products (which then round to code 0 either way).
//  - rintf: cvt.rni, round to nearest integral, ties to even; clamp after rounding.
#pragma once
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>

#include "ninfer_conform/plugin.h"
#include "kernels/encode_flags.h"
#include "kernels/hd.h"
#include "kernels/word_decode.h"

namespace nc::kernels {

struct CodeRange {
  int qmin, qmax;
  uint32_t group;
};

NC_HD float source_to_f32(nc_source_type t, uint64_t w, bool* finite) {
  uint32_t bits;
  switch (t) {
    case NC_SRC_BF16:
      bits = bf16_to_f32_bits(static_cast<uint32_t>(w));
      break;
    case NC_SRC_F16:
      bits = f16_to_f32_bits(static_cast<uint32_t>(w));
      break;
    case NC_SRC_F64: {
#if defined(__CUDA_ARCH__)
      bits = __float_as_uint(__double2float_rn(__longlong_as_double(static_cast<long long>(w))));
#else
      double d;
      std::memcpy(&d, &w, sizeof d);
      bits = bits_from_f32(static_cast<float>(d));  // RNE in the default FP environment
#endif
      break;
    }
    default:
      bits = static_cast<uint32_t>(w);
      break;
  }
  *finite = ((bits >> 23) & 0xffu) != 0xffu;  // also catches F64 values that round to infinity
  return f32_from_bits(bits);
}

// Encodes src[0, len) into codes[0, len) and *scale16_out; returns 0 or kEncodeFlag* (then the
// outputs are not written).
NC_HD uint32_t encode_group(CodeRange cr, nc_source_type st, const uint64_t* src, uint64_t len, int32_t* codes,
                            uint32_t* scale16_out) {
  float amax = 0.0f;
  bool all_finite = true;
  for (uint64_t i = 0; i < len; ++i) {
    bool finite;
    const float x = source_to_f32(st, src[i], &finite);
    all_finite &= finite;
    if (finite) amax = fmaxf(amax, fabsf(x));
  }
  if (!all_finite) return kEncodeFlagNonfinite;
  if (amax == 0.0f) {
    *scale16_out = 0;
    for (uint64_t i = 0; i < len; ++i) codes[i] = 0;
    return 0;
  }
  const float raw_scale32 = amax / static_cast<float>(cr.qmax);
  uint32_t scale16 = __half_as_ushort(__float2half_rn(raw_scale32));
  if (scale16 == 0) scale16 = 0x0001;  // 2^-24 underflow rescue
  if ((scale16 & 0x7c00u) == 0x7c00u) return kEncodeFlagScaleOverflow;
  const float scale32 = f32_from_bits(f16_to_f32_bits(scale16));
  const float inv32 = 1.0f / scale32;
  *scale16_out = scale16;
  for (uint64_t i = 0; i < len; ++i) {
    bool finite;
    const float normalized32 = source_to_f32(st, src[i], &finite) * inv32;
    float r = rintf(normalized32);
    r = fminf(fmaxf(r, static_cast<float>(cr.qmin)), static_cast<float>(cr.qmax));
    codes[i] = static_cast<int32_t>(r);
  }
  return 0;
}

}  // namespace nc::kernels
