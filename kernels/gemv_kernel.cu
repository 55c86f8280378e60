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
    constexpr uint32_t bits = F == NC_FORMAT_Q4G64_F16S ? 4 : F == NC_FORMAT_Q5G64_F16S ? 5
                              : F == NC_FORMAT_Q6G64_F16S ? 6 : 8;
    const uint64_t groups = (K + G - 1) / G;
    return grouped_weight(code[n * K + k], bits, scale[n * groups + k / G]);
  }
};
template <> struct Weights<NC_FORMAT_Q4G64_F16S> : GroupedWeights<NC_FORMAT_Q4G64_F16S> {};
template <> struct Weights<NC_FORMAT_Q5G64_F16S> : GroupedWeights<NC_FORMAT_Q5G64_F16S> {};
template <> struct Weights<NC_FORMAT_Q6G64_F16S> : GroupedWeights<NC_FORMAT_Q6G64_F16S> {};
template <> struct Weights<NC_FORMAT_W8G32_F16S> : GroupedWeights<NC_FORMAT_W8G32_F16S> {};
template <>
struct Weights<NC_FORMAT_NVFP4> {
  const uint8_t* code;
  const uint8_t* scale;
  float d_w;
  __device__ float at(uint64_t n, uint64_t k, uint64_t K) const {
    return nvfp4_weight(code[n * K + k], scale[n * ((K + 15) / 16) + k / 16], d_w);
  }
};
template <>
struct Weights<NC_FORMAT_FP8_E4M3FN_ROW_BF16S> {
  const uint8_t* code;
  const uint16_t* scale;
  __device__ float at(uint64_t n, uint64_t k, uint64_t K) const {
    return fp8_row_weight(code[n * K + k], scale[n]);
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

template <nc_format F>
void launch(Weights<F> w, const void* x, bool x_bf16, size_t n, size_t k, float* y) {
  const uint32_t blocks = static_cast<uint32_t>((n + kWarpsPerBlock - 1) / kWarpsPerBlock);
  if (x_bf16) gemv_kernel<F, true><<<blocks, kWarpsPerBlock * 32>>>(w, x, n, k, y);
  else gemv_kernel<F, false><<<blocks, kWarpsPerBlock * 32>>>(w, x, n, k, y);
}

}  // namespace

int launch_gemv(nc_format fmt, const void* codes, const void* scales, uint32_t divisor_bits,
                const void* x, bool x_bf16, size_t n, size_t k, float* y) {
  if (n == 0 || k == 0 || n / kWarpsPerBlock >= (1u << 31)) return NC_EINVALID;
  const auto* c8 = static_cast<const uint8_t*>(codes);
  const auto* s16 = static_cast<const uint16_t*>(scales);
  switch (fmt) {
    case NC_FORMAT_BF16: launch(Weights<NC_FORMAT_BF16>{static_cast<const uint16_t*>(codes)}, x, x_bf16, n, k, y); break;
    case NC_FORMAT_FP32: launch(Weights<NC_FORMAT_FP32>{static_cast<const uint32_t*>(codes)}, x, x_bf16, n, k, y); break;
    case NC_FORMAT_Q4G64_F16S: launch(Weights<NC_FORMAT_Q4G64_F16S>{{c8, s16}}, x, x_bf16, n, k, y); break;
    case NC_FORMAT_Q5G64_F16S: launch(Weights<NC_FORMAT_Q5G64_F16S>{{c8, s16}}, x, x_bf16, n, k, y); break;
    case NC_FORMAT_Q6G64_F16S: launch(Weights<NC_FORMAT_Q6G64_F16S>{{c8, s16}}, x, x_bf16, n, k, y); break;
    case NC_FORMAT_W8G32_F16S: launch(Weights<NC_FORMAT_W8G32_F16S>{{c8, s16}}, x, x_bf16, n, k, y); break;
    case NC_FORMAT_NVFP4: {
      float d_w;
      std::memcpy(&d_w, &divisor_bits, sizeof d_w);
      launch(Weights<NC_FORMAT_NVFP4>{c8, static_cast<const uint8_t*>(scales), d_w}, x, x_bf16, n, k, y);
      break;
    }
    case NC_FORMAT_FP8_E4M3FN_ROW_BF16S: launch(Weights<NC_FORMAT_FP8_E4M3FN_ROW_BF16S>{c8, s16}, x, x_bf16, n, k, y); break;
    default: return NC_EUNSUPPORTED;  // I32 is not a weight format
  }
  return NC_OK;
}

}  // namespace nc::kernels
