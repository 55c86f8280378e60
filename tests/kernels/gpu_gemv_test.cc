// GEMV y = W x for every weight format x {FP32, BF16} activations at N = 2047 (the last warp's
// rows partly past N; the last row is among those checked), K = 4096 (the
// kernels' 16-codes-per-lane path) and K = 4100 (their one-code path, partial last groups; not
// NVFP4, whose rows hold whole 16-code blocks), judged row by row against the exact criterion of
// kernels/gemv_reference.h (a sample of rows: the exact rational check costs milliseconds per row).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "kernels/gemv_reference.h"
#include "kernels/kernels.h"
#include "kernels/word_decode.h"
#include "tests/kernels/gpu_test.h"

namespace nc::kernels::gputest {
namespace {

constexpr size_t kN = 2047, kRowsChecked = 24;

struct Rng {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  uint32_t next() {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return static_cast<uint32_t>(s >> 16);
  }
};

template <typename T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  cudaMalloc(&d, v.size() * sizeof(T));
  cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

// Exact weight words for the reference. Grouped: s32 * q has <= 11 + 7 significant bits and no
// underflow (s >= 2^-24), so the binary32 product below is exact. FP8 row with normal BF16 row
// scales: <= 4 + 8 bits, exact. NVFP4: the exact numerator c*s (<= 7 bits), divisor separately.
uint32_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float f32(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

int run_one(nc_format fmt, bool x_bf16, size_t kK) {
  Rng rng;
  const uint32_t G = fmt == NC_FORMAT_W8G32_F16S ? 32 : fmt == NC_FORMAT_NVFP4 ? 16 : 64;
  const size_t groups = (kK + G - 1) / G;
  std::vector<uint8_t> c8(kN * kK), s8(kN * groups);
  std::vector<uint16_t> w16(kN * kK), s16(kN * groups);
  std::vector<uint32_t> w32(kN * kK), wexact(kN * kK);
  const uint32_t bits = fmt == NC_FORMAT_Q4G64_F16S   ? 4
                        : fmt == NC_FORMAT_Q5G64_F16S ? 5
                        : fmt == NC_FORMAT_Q6G64_F16S ? 6
                                                      : 8;
  for (size_t i = 0; i < kN * groups; ++i) {
    s16[i] = static_cast<uint16_t>(0x2000 + rng.next() % 0x1000);  // binary16 scales near 2^-7
    s8[i] = static_cast<uint8_t>(0x20 + rng.next() % 0x20);        // E4M3FN scales, positive normal
  }
  std::vector<uint16_t> row_scale(kN);
  for (auto& r : row_scale) r = static_cast<uint16_t>(0x3c00 + rng.next() % 0x200);  // BF16 ~ 2^-7
  for (size_t n = 0; n < kN; ++n)
    for (size_t k = 0; k < kK; ++k) {
      const size_t i = n * kK + k;
      uint32_t code = rng.next() & ((1u << bits) - 1u);
      if (fmt == NC_FORMAT_W8G32_F16S && code == 0x80) code = 0x81;
      if (fmt == NC_FORMAT_FP8_E4M3FN_ROW_BF16S && (code & 0x7f) == 0x7f) code ^= 1;
      c8[i] = static_cast<uint8_t>(code);
      const uint32_t s = s16[n * groups + k / G];
      switch (fmt) {
        case NC_FORMAT_BF16:
          w16[i] = static_cast<uint16_t>(0x3c00 + rng.next() % 0x800 + ((rng.next() & 1) << 15));
          wexact[i] = bf16_to_f32_bits(w16[i]);
          break;
        case NC_FORMAT_FP32:
          w32[i] = 0x3c000000u + rng.next() % 0x4000000u + ((rng.next() & 1u) << 31);
          wexact[i] = w32[i];
          break;
        case NC_FORMAT_NVFP4:
          c8[i] &= 0xf;
          wexact[i] = f32_bits(f32(e2m1_to_f32_bits(c8[i])) * f32(e4m3fn_to_f32_bits(s8[n * groups + k / G])));
          break;
        case NC_FORMAT_FP8_E4M3FN_ROW_BF16S:
          wexact[i] = f32_bits(f32(e4m3fn_to_f32_bits(c8[i])) * f32(bf16_to_f32_bits(row_scale[n])));
          break;
        default:
          wexact[i] = f32_bits(f32(f16_to_f32_bits(s)) * static_cast<float>(signed_code(code, bits)));
          break;
      }
    }
  std::vector<uint32_t> x32(kK), xexact(kK);
  std::vector<uint16_t> x16(kK);
  for (size_t k = 0; k < kK; ++k) {
    x16[k] = static_cast<uint16_t>(0x3e00 + rng.next() % 0x1000 + ((rng.next() & 1) << 15));
    x32[k] = 0x3e000000u + rng.next() % 0x8000000u + ((rng.next() & 1u) << 31);
    xexact[k] = x_bf16 ? bf16_to_f32_bits(x16[k]) : x32[k];
  }
  const uint32_t divisor = fmt == NC_FORMAT_NVFP4 ? 0x40400000u : 0u;  // d_w = 3: inexact quotients
  const void* codes = fmt == NC_FORMAT_BF16   ? static_cast<const void*>(upload(w16))
                      : fmt == NC_FORMAT_FP32 ? static_cast<const void*>(upload(w32))
                                              : static_cast<const void*>(upload(c8));
  const void* scales = fmt == NC_FORMAT_NVFP4                  ? static_cast<const void*>(upload(s8))
                       : fmt == NC_FORMAT_FP8_E4M3FN_ROW_BF16S ? static_cast<const void*>(upload(row_scale))
                                                               : static_cast<const void*>(upload(s16));
  const void* x = x_bf16 ? static_cast<const void*>(upload(x16)) : static_cast<const void*>(upload(x32));
  float* y = nullptr;
  cudaMalloc(&y, kN * sizeof(float));
  int failures = 0;
  if (launch_gemv(fmt, codes, scales, divisor, x, x_bf16, kN, kK, y) != NC_OK ||
      cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("  gemv fmt %d: launch failed\n", fmt);
    failures = 1;
  } else {
    std::vector<float> yh(kN);
    cudaMemcpy(yh.data(), y, kN * sizeof(float), cudaMemcpyDeviceToHost);
    for (size_t r = 0; r < kRowsChecked; ++r) {
      const size_t n = r + 1 == kRowsChecked ? kN - 1 : r * (kN / kRowsChecked);
      const GemvVerdict v = check_dot({wexact.data() + n * kK, kK}, xexact, divisor, f32_bits(yh[n]));
      if (!v.ok) {
        std::printf("  gemv fmt %d x_bf16 %d row %zu: %s\n", fmt, x_bf16, n, v.detail.c_str());
        ++failures;
      }
    }
  }
  cudaFree(const_cast<void*>(codes));
  cudaFree(const_cast<void*>(scales));
  cudaFree(const_cast<void*>(x));
  cudaFree(y);
  return failures;
}

}  // namespace

int run_gemv_cases() {
  int failures = 0;
  for (nc_format f : {NC_FORMAT_BF16, NC_FORMAT_FP32, NC_FORMAT_Q4G64_F16S, NC_FORMAT_Q5G64_F16S, NC_FORMAT_Q6G64_F16S,
                      NC_FORMAT_W8G32_F16S, NC_FORMAT_NVFP4, NC_FORMAT_FP8_E4M3FN_ROW_BF16S})
    for (size_t k : {size_t{4096}, size_t{4100}})
      for (bool xb : {false, true}) {
        if (f == NC_FORMAT_NVFP4 && k % 16 != 0) continue;
        const int f_fail = run_one(f, xb, k);
        std::printf("gemv %d %s N=%zu K=%zu: %s\n", f, xb ? "BF16-x" : "FP32-x", kN, k,
                    f_fail ? "FAILED" : "within bound");
        failures += f_fail;
      }
  return failures;
}

}  // namespace nc::kernels::gputest
