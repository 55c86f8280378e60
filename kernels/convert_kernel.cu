// The GPU's own conversion instructions as recipe conversions (docs/recipes.md on branch codec):
//   F32_TO_BF16_RNE              __float2bfloat16_rn   (cvt.rn.bf16.f32)
//   F32_TO_F16_RNE               __float2half_rn       (cvt.rn.f16.f32)
//   F32_TO_E4M3FN_RNE_SATFINITE  cvt.rn.satfinite.e4m3x2.f32 (sm_89+), inline PTX, except that a
//                                NaN takes the input's sign: the instruction returns 0x7f for every
//                                NaN (all 2^23 - 1 negative NaNs, measured on an H200), and the
//                                recipe requires 0xff for a negative one (docs/recipes.md)
//   F32_TO_E4M3FN_RNE_OVF_NAN    unsupported: PTX has no non-saturating e4m3 conversion
//   F32_TO_E2M1_RNE_SATFINITE    unsupported on sm_90: cvt.rn.satfinite.e2m1x2.f32 needs
//                                sm_100a/sm_120a. Emulating it would certify software, not the GPU.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/kernels.h"
#include "kernels/launch_geometry.h"

namespace nc::kernels {
namespace {

__device__ __forceinline__ uint32_t f32_to_e4m3fn_satfinite_hw(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  unsigned short pair;
  // d = {hi, lo}: the second source operand lands in the low byte.
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(pair) : "f"(0.0f), "f"(x));
  return pair & 0xffu;
#else
  (void)x;
  __trap();  // not reachable: the host only launches this on sm_89+ builds (CMake sets sm_90)
  return 0;
#endif
}

__global__ void convert_kernel(nc_recipe recipe, const uint32_t* src, uint32_t n, uint32_t* out) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const float x = __uint_as_float(src[i]);
    uint32_t r = 0;
    switch (recipe) {
      case NC_RECIPE_F32_TO_BF16_RNE:
        r = __bfloat16_as_ushort(__float2bfloat16_rn(x));
        break;
      case NC_RECIPE_F32_TO_F16_RNE:
        r = __half_as_ushort(__float2half_rn(x));
        break;
      default:
        r = isnan(x) ? 0x7fu | ((src[i] >> 31) << 7) : f32_to_e4m3fn_satfinite_hw(x);
        break;
    }
    out[i] = r;
  }
}

}  // namespace

int launch_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (recipe != NC_RECIPE_F32_TO_BF16_RNE && recipe != NC_RECIPE_F32_TO_F16_RNE &&
      recipe != NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE)
    return NC_EUNSUPPORTED;
  for (uint64_t b = 0; b < batch_count(n); ++b) {
    const Batch bt = batch_at(n, b);
    const Grid g = grid_for(bt.count);
    convert_kernel<<<g.blocks, g.threads>>>(recipe, src + bt.begin, static_cast<uint32_t>(bt.count), out + bt.begin);
  }
  return NC_OK;
}

}  // namespace nc::kernels
