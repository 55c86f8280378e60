// MAXABS_F16_RECIP_RNE_V1 (spec 7) on the GPU: one group per thread, in the spec's order.
//
// Exactness in the default build, and where --use_fast_math departs (the negative control):
//  - amax: fmaxf/fabsf. Exact in both builds for normal values; under FTZ max.ftz flushes a
//    subnormal amax to 0, so a subnormal group takes the all-zero path instead of the 2^-24
//    rescue (spec examples.md, the Q5 rescue case).
//  - raw_scale32 = amax / qmax: a plain `/` -> div.rn.f32 by default, approximate under fast-math.
//  - scale16 = __float2half_rn(raw): cvt.rn.f16.f32 in both builds.
//  - inv32 = 1.0f / s32: a plain `/` -> div.rn.f32 (correctly rounded reciprocal, identical to
//    __frcp_rn) by default; rcp.approx under fast-math.
//  - normalized32 = x * inv32: a plain `*`, nothing to contract it with; FTZ flushes subnormal
//    products (which then round to code 0 either way).
//  - rintf: cvt.rni, round to nearest integral, ties to even; clamp after rounding.
#include <cuda_fp16.h>

#include "kernels/index_math.h"
#include "kernels/kernels.h"
#include "kernels/launch_geometry.h"
#include "kernels/word_decode.h"

namespace nc::kernels {
namespace {

struct CodeRange {
  int qmin, qmax;
  uint32_t group;
};

__device__ __forceinline__ float source_to_f32(nc_source_type t, uint64_t w, bool* finite) {
  uint32_t bits;
  switch (t) {
    case NC_SRC_BF16: bits = bf16_to_f32_bits(static_cast<uint32_t>(w)); break;
    case NC_SRC_F16: bits = f16_to_f32_bits(static_cast<uint32_t>(w)); break;
    case NC_SRC_F64: bits = __float_as_uint(__double2float_rn(__longlong_as_double(static_cast<long long>(w)))); break;
    default: bits = static_cast<uint32_t>(w); break;
  }
  *finite = ((bits >> 23) & 0xffu) != 0xffu;  // also catches F64 values that round to infinity
  return __uint_as_float(bits);
}

__global__ void encode_kernel(CodeRange cr, nc_source_type st, const uint64_t* src, uint64_t rows,
                              uint64_t k, uint32_t* scales, int32_t* codes, uint32_t* flags) {
  const ScaleGeometry geo{k, cr.group};
  const uint64_t per_row = scales_per_row(geo), total = rows * per_row;
  for (uint64_t gi = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; gi < total;
       gi += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t row = gi / per_row, g = gi % per_row;
    const uint64_t begin = row * k + g * cr.group, len = group_length(geo, g);
    float amax = 0.0f;
    bool all_finite = true;
    for (uint64_t i = 0; i < len; ++i) {
      bool finite;
      const float x = source_to_f32(st, src[begin + i], &finite);
      all_finite &= finite;
      if (finite) amax = fmaxf(amax, fabsf(x));
    }
    if (!all_finite) {
      atomicOr(flags, kEncodeFlagNonfinite);
      continue;
    }
    if (amax == 0.0f) {
      scales[gi] = 0;
      for (uint64_t i = 0; i < len; ++i) codes[begin + i] = 0;
      continue;
    }
    const float raw_scale32 = amax / static_cast<float>(cr.qmax);
    uint32_t scale16 = __half_as_ushort(__float2half_rn(raw_scale32));
    if (scale16 == 0) scale16 = 0x0001;  // 2^-24 underflow rescue
    if ((scale16 & 0x7c00u) == 0x7c00u) {
      atomicOr(flags, kEncodeFlagScaleOverflow);
      continue;
    }
    const float scale32 = __uint_as_float(f16_to_f32_bits(scale16));
    const float inv32 = 1.0f / scale32;
    scales[gi] = scale16;
    for (uint64_t i = 0; i < len; ++i) {
      bool finite;
      const float normalized32 = source_to_f32(st, src[begin + i], &finite) * inv32;
      float r = rintf(normalized32);
      r = fminf(fmaxf(r, static_cast<float>(cr.qmin)), static_cast<float>(cr.qmax));
      codes[begin + i] = static_cast<int32_t>(r);
    }
  }
}

}  // namespace

int launch_encode(nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows,
                  size_t k, uint32_t* scales, int32_t* codes, uint32_t* flags) {
  CodeRange cr;
  switch (fmt) {
    case NC_FORMAT_Q4G64_F16S: cr = {-8, 7, 64}; break;
    case NC_FORMAT_Q5G64_F16S: cr = {-16, 15, 64}; break;
    case NC_FORMAT_Q6G64_F16S: cr = {-32, 31, 64}; break;
    case NC_FORMAT_W8G32_F16S: cr = {-127, 127, 32}; break;
    default: return NC_EUNSUPPORTED;  // spec 7: the four grouped signed-integer schemes only
  }
  if (src_type < NC_SRC_FP32 || src_type > NC_SRC_F64) return NC_EUNSUPPORTED;
  if (rows == 0 || k == 0) return NC_EINVALID;
  const uint64_t groups = uint64_t{rows} * ceil_div(k, cr.group);
  const Grid g = grid_for(groups, 128);
  encode_kernel<<<g.blocks, g.threads>>>(cr, src_type, src, rows, k, scales, codes, flags);
  return NC_OK;
}

}  // namespace nc::kernels
