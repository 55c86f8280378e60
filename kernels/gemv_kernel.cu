// GEMV y = W x, one warp per output row, FP32 accumulation (fmaf), a shuffle-tree reduction.
// Each weight is reconstructed with the same device functions as reconstruct/dequantize, so the
// GEMV's only freedom is its summation order, which the acceptance bound (gemv_reference.h)
// covers for any order.
#include <cstring>

#include "kernels/kernels.h"
#include "kernels/reconstruct.cuh"
#include "kernels/word_decode.h"

namespace nc::kernels {
namespace {

constexpr uint32_t kWarpsPerBlock = 8;

// 16 one-byte codes from one 16-byte load (p 16-byte aligned).
struct Bytes16 {
  uint4 v;
  __device__ uint32_t at(int j) const {
    const uint32_t word = j < 4 ? v.x : j < 8 ? v.y : j < 12 ? v.z : v.w;
    return (word >> (8 * (j % 4))) & 0xffu;
  }
};
__device__ Bytes16 load16(const uint8_t* p) { return Bytes16{*reinterpret_cast<const uint4*>(p)}; }

template <nc_format F>
struct Weights;
template <>
struct Weights<NC_FORMAT_BF16> {
  const uint16_t* w;
  __device__ float at(uint64_t n, uint64_t k, uint64_t K) const {
    return __uint_as_float(bf16_to_f32_bits(w[n * K + k]));
  }
};
template <>
struct Weights<NC_FORMAT_FP32> {
  const uint32_t* w;
  __device__ float at(uint64_t n, uint64_t k, uint64_t K) const { return __uint_as_float(w[n * K + k]); }
};
template <nc_format F>
struct GroupedWeights {
  const uint8_t* code;
  const uint16_t* scale;
  __device__ float at(uint64_t n, uint64_t k, uint64_t K) const {
    constexpr uint32_t G = F == NC_FORMAT_W8G32_F16S ? 32 : 64;
    constexpr uint32_t bits = F == NC_FORMAT_Q4G64_F16S   ? 4
                              : F == NC_FORMAT_Q5G64_F16S ? 5
                              : F == NC_FORMAT_Q6G64_F16S ? 6
                                                          : 8;
    const uint64_t groups = (K + G - 1) / G;
    return grouped_weight(code[n * K + k], bits, scale[n * groups + k / G]);
  }
  // Weights k0 .. k0+15 of row n (k0 a multiple of 16: one group holds them all).
  __device__ void run16(uint64_t n, uint64_t k0, uint64_t K, float* w) const {
    constexpr uint32_t G = F == NC_FORMAT_W8G32_F16S ? 32 : 64;
    constexpr uint32_t bits = F == NC_FORMAT_Q4G64_F16S   ? 4
                              : F == NC_FORMAT_Q5G64_F16S ? 5
                              : F == NC_FORMAT_Q6G64_F16S ? 6
                                                          : 8;
    const uint32_t s = scale[n * ((K + G - 1) / G) + k0 / G];
    const Bytes16 c = load16(code + n * K + k0);
#pragma unroll
    for (int j = 0; j < 16; ++j) w[j] = grouped_weight(c.at(j), bits, s);
  }
};
template <>
struct Weights<NC_FORMAT_Q4G64_F16S> : GroupedWeights<NC_FORMAT_Q4G64_F16S> {};
template <>
struct Weights<NC_FORMAT_Q5G64_F16S> : GroupedWeights<NC_FORMAT_Q5G64_F16S> {};
template <>
struct Weights<NC_FORMAT_Q6G64_F16S> : GroupedWeights<NC_FORMAT_Q6G64_F16S> {};
template <>
struct Weights<NC_FORMAT_W8G32_F16S> : GroupedWeights<NC_FORMAT_W8G32_F16S> {};
template <>
struct Weights<NC_FORMAT_NVFP4> {
  const uint8_t* code;
  const uint8_t* scale;
  float d_w;
  __device__ float at(uint64_t n, uint64_t k, uint64_t K) const {
    return nvfp4_weight(code[n * K + k], scale[n * ((K + 15) / 16) + k / 16], d_w);
  }
  __device__ void run16(uint64_t n, uint64_t k0, uint64_t K, float* w) const {
    const uint32_t s = scale[n * ((K + 15) / 16) + k0 / 16];
    const Bytes16 c = load16(code + n * K + k0);
#pragma unroll
    for (int j = 0; j < 16; ++j) w[j] = nvfp4_weight(c.at(j), s, d_w);
  }
};
template <>
struct Weights<NC_FORMAT_FP8_E4M3FN_ROW_BF16S> {
  const uint8_t* code;
  const uint16_t* scale;
  __device__ float at(uint64_t n, uint64_t k, uint64_t K) const { return fp8_row_weight(code[n * K + k], scale[n]); }
  __device__ void run16(uint64_t n, uint64_t k0, uint64_t K, float* w) const {
    const uint32_t s = scale[n];
    const Bytes16 c = load16(code + n * K + k0);
#pragma unroll
    for (int j = 0; j < 16; ++j) w[j] = fp8_row_weight(c.at(j), s);
  }
};

template <nc_format F, bool XBF16>
__global__ void gemv_kernel(Weights<F> w, const void* xv, uint64_t N, uint64_t K, float* y) {
  const uint64_t n = uint64_t{blockIdx.x} * kWarpsPerBlock + threadIdx.x / 32;
  const uint32_t lane = threadIdx.x % 32;
  if (n >= N) return;
  float acc = 0.0f;
  for (uint64_t k = lane; k < K; k += 32) {
    const float x = XBF16 ? __uint_as_float(bf16_to_f32_bits(static_cast<const uint16_t*>(xv)[k]))
                          : __uint_as_float(static_cast<const uint32_t*>(xv)[k]);
    acc = fmaf(w.at(n, k, K), x, acc);
  }
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) y[n] = acc;
}

// Activations k0 .. k0+15 (k0 a multiple of 16, x 16-byte aligned): 64 or 32 bytes in 16-byte loads.
template <bool XBF16>
__device__ void activations16(const void* xv, uint64_t k0, float* x) {
  if (XBF16) {
    const uint4* p = static_cast<const uint4*>(xv) + k0 / 8;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const uint4 v = p[h];
      const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int j = 0; j < 8; ++j) x[8 * h + j] = __uint_as_float(bf16_to_f32_bits(words[j / 2] >> (16 * (j % 2))));
    }
  } else {
    const float4* p = static_cast<const float4*>(xv) + k0 / 4;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const float4 v = p[q];
      x[4 * q] = v.x, x[4 * q + 1] = v.y, x[4 * q + 2] = v.z, x[4 * q + 3] = v.w;
    }
  }
}

// The one-byte-code formats with K % 16 == 0: each lane takes 16 consecutive weights per step (one
// 16-byte load of codes, one scale), the warp 512. One code per lane per step kept these GEMVs at 6
// to 12 times their memory floor on an H200. (Four rows per warp, sharing each activation load,
// measured slower: 72 registers a thread, fewer warps in flight.)
template <nc_format F, bool XBF16>
__global__ void gemv16_kernel(Weights<F> w, const void* xv, uint64_t N, uint64_t K, float* y) {
  const uint64_t n = uint64_t{blockIdx.x} * kWarpsPerBlock + threadIdx.x / 32;
  const uint32_t lane = threadIdx.x % 32;
  if (n >= N) return;
  float acc = 0.0f;
  for (uint64_t k0 = uint64_t{lane} * 16; k0 < K; k0 += 32 * 16) {
    float wk[16], xk[16];
    w.run16(n, k0, K, wk);
    activations16<XBF16>(xv, k0, xk);
#pragma unroll
    for (int j = 0; j < 16; ++j) acc = fmaf(wk[j], xk[j], acc);
  }
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) y[n] = acc;
}

// The formats with one byte per code word here, which provide run16.
template <nc_format F>
constexpr bool kOneByteCodes = F != NC_FORMAT_BF16&& F != NC_FORMAT_FP32;

template <nc_format F>
void launch(Weights<F> w, const void* codes, const void* x, bool x_bf16, size_t n, size_t k, float* y) {
  const uint32_t blocks = static_cast<uint32_t>((n + kWarpsPerBlock - 1) / kWarpsPerBlock);
  const bool aligned16 = (reinterpret_cast<uintptr_t>(codes) | reinterpret_cast<uintptr_t>(x)) % 16 == 0;
  if constexpr (kOneByteCodes<F>) {
    if (k % 16 == 0 && aligned16) {
      if (x_bf16) gemv16_kernel<F, true><<<blocks, kWarpsPerBlock * 32>>>(w, x, n, k, y);
      else gemv16_kernel<F, false><<<blocks, kWarpsPerBlock * 32>>>(w, x, n, k, y);
      return;
    }
  }
  if (x_bf16) gemv_kernel<F, true><<<blocks, kWarpsPerBlock * 32>>>(w, x, n, k, y);
  else gemv_kernel<F, false><<<blocks, kWarpsPerBlock * 32>>>(w, x, n, k, y);
}

}  // namespace

int launch_gemv(nc_format fmt, const void* codes, const void* scales, uint32_t divisor_bits, const void* x, bool x_bf16,
                size_t n, size_t k, float* y) {
  if (n == 0 || k == 0 || n / kWarpsPerBlock >= (1u << 31)) return NC_EINVALID;
  const auto* c8 = static_cast<const uint8_t*>(codes);
  const auto* s16 = static_cast<const uint16_t*>(scales);
  switch (fmt) {
    case NC_FORMAT_BF16:
      launch(Weights<NC_FORMAT_BF16>{static_cast<const uint16_t*>(codes)}, codes, x, x_bf16, n, k, y);
      break;
    case NC_FORMAT_FP32:
      launch(Weights<NC_FORMAT_FP32>{static_cast<const uint32_t*>(codes)}, codes, x, x_bf16, n, k, y);
      break;
    case NC_FORMAT_Q4G64_F16S:
      launch(Weights<NC_FORMAT_Q4G64_F16S>{{c8, s16}}, codes, x, x_bf16, n, k, y);
      break;
    case NC_FORMAT_Q5G64_F16S:
      launch(Weights<NC_FORMAT_Q5G64_F16S>{{c8, s16}}, codes, x, x_bf16, n, k, y);
      break;
    case NC_FORMAT_Q6G64_F16S:
      launch(Weights<NC_FORMAT_Q6G64_F16S>{{c8, s16}}, codes, x, x_bf16, n, k, y);
      break;
    case NC_FORMAT_W8G32_F16S:
      launch(Weights<NC_FORMAT_W8G32_F16S>{{c8, s16}}, codes, x, x_bf16, n, k, y);
      break;
    case NC_FORMAT_NVFP4: {
      float d_w;
      std::memcpy(&d_w, &divisor_bits, sizeof d_w);
      launch(Weights<NC_FORMAT_NVFP4>{c8, static_cast<const uint8_t*>(scales), d_w}, codes, x, x_bf16, n, k, y);
      break;
    }
    case NC_FORMAT_FP8_E4M3FN_ROW_BF16S:
      launch(Weights<NC_FORMAT_FP8_E4M3FN_ROW_BF16S>{c8, s16}, codes, x, x_bf16, n, k, y);
      break;
    default:
      return NC_EUNSUPPORTED;  // I32 is not a weight format
  }
  return NC_OK;
}

}  // namespace nc::kernels
