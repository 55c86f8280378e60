// NVIDIA CUDA Toolkit conversion headers (cuda_fp8.h, cuda_fp4.h, cuda_bf16.h, cuda_fp16.h)
// compiled for the host by the C++ compiler: the same inline functions device code calls, taking
// their host (software) branch.
//
// Conventions of this library, as its headers document them:
// - __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3): RNE, overflow and infinity saturate to
//   +-448, NaN -> 0x7f/0xff: recipe F32_TO_E4M3FN_RNE_SATFINITE.
// - __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3): RNE, overflow and infinity -> NaN:
//   recipe F32_TO_E4M3FN_RNE_OVF_NAN.
// - __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest): RNE, always saturating (E2M1 has no
//   NaN or infinity): recipe F32_TO_E2M1_RNE_SATFINITE.
// - __float2bfloat16_rn / __float2half_rn: RNE, overflow to infinity; the host branch returns one
//   canonical NaN (0x7fff) for every NaN, dropping the sign. The fp8/fp4 conversions likewise
//   return 0x7f / 0x7 for a NaN of either sign, and __half2float widens every NaN to 0x7fffffff.
// - Decoding goes through the headers' own widening: fp8/fp4 -> __half_raw -> float, bf16 -> float,
//   half -> float.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>

#include "adapter.h"

namespace {

using nc_tp::bits_of;
using nc_tp::f32_from_bits;

float half_raw_to_float(__half_raw h) { return __half2float(__half(h)); }

uint32_t decode_e4m3(uint32_t w) {
  return bits_of(half_raw_to_float(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(w & 0xffu), __NV_E4M3)));
}
uint32_t decode_e2m1(uint32_t w) {
  return bits_of(half_raw_to_float(__nv_cvt_fp4_to_halfraw(static_cast<__nv_fp4_storage_t>(w & 0xfu), __NV_E2M1)));
}
uint32_t decode_bf16(uint32_t w) {
  __nv_bfloat16_raw r;
  r.x = static_cast<unsigned short>(w & 0xffffu);
  return bits_of(__bfloat162float(__nv_bfloat16(r)));
}
uint32_t decode_f16(uint32_t w) {
  __half_raw r;
  r.x = static_cast<unsigned short>(w & 0xffffu);
  return bits_of(half_raw_to_float(r));
}

int decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  switch (wt) {
    case NC_WT_E4M3FN:
      return nc_tp::map_words(words, n, out, valid, decode_e4m3);
    case NC_WT_E2M1:
      return nc_tp::map_words(words, n, out, valid, decode_e2m1);
    case NC_WT_BF16:
      return nc_tp::map_words(words, n, out, valid, decode_bf16);
    case NC_WT_F16:
      return nc_tp::map_words(words, n, out, valid, decode_f16);
    default:
      return NC_EUNSUPPORTED;
  }
}

uint32_t to_bf16(uint32_t w) { return __bfloat16_as_ushort(__float2bfloat16_rn(f32_from_bits(w))); }
uint32_t to_f16(uint32_t w) { return __half_as_ushort(__float2half_rn(f32_from_bits(w))); }
uint32_t to_e4m3_satfinite(uint32_t w) { return __nv_cvt_float_to_fp8(f32_from_bits(w), __NV_SATFINITE, __NV_E4M3); }
uint32_t to_e4m3_nosat(uint32_t w) { return __nv_cvt_float_to_fp8(f32_from_bits(w), __NV_NOSAT, __NV_E4M3); }
uint32_t to_e2m1(uint32_t w) { return __nv_cvt_float_to_fp4(f32_from_bits(w), __NV_E2M1, cudaRoundNearest); }

int convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  switch (recipe) {
    case NC_RECIPE_F32_TO_BF16_RNE:
      return nc_tp::map_words(src, n, out, nullptr, to_bf16);
    case NC_RECIPE_F32_TO_F16_RNE:
      return nc_tp::map_words(src, n, out, nullptr, to_f16);
    case NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE:
      return nc_tp::map_words(src, n, out, nullptr, to_e4m3_satfinite);
    case NC_RECIPE_F32_TO_E4M3FN_RNE_OVF_NAN:
      return nc_tp::map_words(src, n, out, nullptr, to_e4m3_nosat);
    case NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE:
      return nc_tp::map_words(src, n, out, nullptr, to_e2m1);
  }
  return NC_EUNSUPPORTED;
}

constexpr nc_plugin_v1 kTable = nc_tp::scalar_table("cuda-toolkit-host", NC_TP_VERSION, decode, convert);

}  // namespace

NC_TP_EXPORT const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return &kTable; }
