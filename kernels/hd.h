// NC_HD marks functions compiled for both host and device, so the index math, launch geometry,
// word decoders and the per-group encoder that the kernels use are the very code the CPU tests
// exercise (tests/kernels/host_device_logic_test.cu runs them on the host).
#pragma once
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define NC_HD __host__ __device__ __forceinline__
#else
#define NC_HD inline
#endif

namespace nc::kernels {

NC_HD float f32_from_bits(uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
#endif
}

NC_HD uint32_t bits_from_f32(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
#endif
}

// Leading zero bits of a nonzero word: one instruction on either side (a bit-by-bit loop here cost
// the decoders 21 iterations per binary16 word and made them the GPU kernels' bottleneck).
NC_HD int leading_zeros32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __clz(x);
#else
  return __builtin_clz(x);
#endif
}

// binary32 product rounded to nearest even, never contracted into an FMA. On the host (SSE, default
// FP environment, -ffp-contract=off) a plain product is exactly that.
NC_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

}  // namespace nc::kernels
