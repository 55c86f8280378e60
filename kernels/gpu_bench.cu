// Bandwidth table for scripts/gpu-nightly: each decode/encode kernel's achieved bandwidth as a
// fraction of a device-to-device copy measured in the same run (bytes read + written, best of
// kReps), at >= 1 GiB of weights; GEMV time against its memory-bound floor (bytes it must read,
// at the copy's bandwidth). Prints a Markdown table; asserts nothing (targets are columns).
// Exit 77 without a device.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <functional>

#include "kernels/kernels.h"

namespace {

constexpr int kReps = 5;
constexpr size_t kGiB = size_t{1} << 30;

float best_ms(const std::function<void()>& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();  // warm-up
  cudaDeviceSynchronize();
  float best = 1e30f;
  for (int i = 0; i < kReps; ++i) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (ms < best) best = ms;
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return best;
}

void* dev(size_t bytes, int byte_value) {
  void* p = nullptr;
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc(%zu) failed\n", bytes);
    std::exit(1);
  }
  cudaMemset(p, byte_value, bytes);
  return p;
}

double copy_gbps;  // bytes read + written per second, / 1e9

void row(const char* name, double bytes, float ms, const char* target) {
  const double gbps = bytes / (ms * 1e-3) / 1e9;
  std::printf("| %s | %.2f | %.3f | %.1f | %.1f%% | %s |\n", name, bytes / kGiB, ms, gbps, 100.0 * gbps / copy_gbps,
              target);
}

}  // namespace

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device; no benchmark table\n");
    return 77;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device: %s\n\n", prop.name);
  using namespace nc::kernels;

  {
    void* a = dev(2 * kGiB, 0);
    void* b = dev(2 * kGiB, 0);
    const float ms = best_ms([&] { cudaMemcpy(b, a, 2 * kGiB, cudaMemcpyDeviceToDevice); });
    copy_gbps = 2.0 * 2 * kGiB / (ms * 1e-3) / 1e9;
    cudaFree(a);
    cudaFree(b);
  }
  std::printf("| kernel | GiB moved | ms | GB/s | of D2D copy | target |\n|---|---|---|---|---|---|\n");
  std::printf("| cudaMemcpy D2D 2 GiB (baseline) | 4.00 | - | %.1f | 100%% | - |\n", copy_gbps);

  // Dequantize from logical uint32 planes: 1 GiB of code words in, 1 GiB of binary32 out.
  const size_t n = kGiB / 4, k = 4096, rows = n / k;
  auto* codes = static_cast<uint32_t*>(dev(n * 4, 0x01));
  auto* out = static_cast<uint32_t*>(dev(n * 4, 0));
  auto* scales = static_cast<uint32_t*>(dev(n / 16 * 4, 0x30));  // enough for G >= 16 and rows
  auto* divisor = static_cast<uint32_t*>(dev(4, 0x3f));
  struct F {
    nc_format f;
    const char* name;
    double scale_bytes;
  };
  const F fmts[] = {{NC_FORMAT_BF16, "dequantize BF16", 0},
                    {NC_FORMAT_Q4G64_F16S, "dequantize Q4G64_F16S", n / 64 * 4.0},
                    {NC_FORMAT_Q5G64_F16S, "dequantize Q5G64_F16S", n / 64 * 4.0},
                    {NC_FORMAT_Q6G64_F16S, "dequantize Q6G64_F16S", n / 64 * 4.0},
                    {NC_FORMAT_W8G32_F16S, "dequantize W8G32_F16S", n / 32 * 4.0},
                    {NC_FORMAT_NVFP4, "dequantize NVFP4", n / 16 * 4.0},
                    {NC_FORMAT_FP8_E4M3FN_ROW_BF16S, "dequantize FP8_E4M3FN_ROW_BF16S", rows * 4.0}};
  for (const F& f : fmts) {
    const float ms = best_ms([&] { launch_dequantize(f.f, rows, k, codes, scales, divisor, out); });
    row(f.name, 2.0 * n * 4 + f.scale_bytes, ms, ">= 80%");
  }
  {
    auto* valid = static_cast<uint8_t*>(dev(n, 0));
    const float ms = best_ms([&] { launch_decode(NC_WT_E4M3FN, codes, n, out, valid); });
    row("decode E4M3FN words", 2.0 * n * 4 + n, ms, ">= 80%");
    cudaFree(valid);
  }
  cudaFree(codes);
  cudaFree(out);

  // Encoder: 1 GiB of binary32 sources carried in the ABI's uint64 words (so 2 GiB read).
  {
    const size_t ne = kGiB / 4, ke = 4096;
    auto* src = static_cast<uint64_t*>(dev(ne * 8, 0x3e));
    auto* ecodes = static_cast<int32_t*>(dev(ne * 4, 0));
    auto* flags = static_cast<uint32_t*>(dev(4, 0));
    const float ms =
        best_ms([&] { launch_encode(NC_FORMAT_Q4G64_F16S, NC_SRC_FP32, src, ne / ke, ke, scales, ecodes, flags); });
    row("encode MAXABS Q4G64 (FP32 in uint64)", ne * 8.0 + ne * 4.0 + ne / 64 * 4.0, ms, ">= 50%");
    cudaFree(src);
    cudaFree(ecodes);
    cudaFree(flags);
  }
  cudaFree(scales);
  cudaFree(divisor);

  // GEMV at >= 1 GiB of weight planes; floor = bytes read / copy bandwidth.
  std::printf(
      "\n| GEMV (FP32 x) | N x K | weight GiB | ms | floor ms | ratio | target |\n|---|---|---|---|---|---|---|\n");
  struct G {
    nc_format f;
    const char* name;
    size_t code_bytes;
    size_t scale_bytes_per_group;
    size_t group;
  };
  const G gs[] = {{NC_FORMAT_BF16, "BF16", 2, 0, 1},
                  {NC_FORMAT_FP32, "FP32", 4, 0, 1},
                  {NC_FORMAT_Q4G64_F16S, "Q4G64_F16S", 1, 2, 64},
                  {NC_FORMAT_Q5G64_F16S, "Q5G64_F16S", 1, 2, 64},
                  {NC_FORMAT_Q6G64_F16S, "Q6G64_F16S", 1, 2, 64},
                  {NC_FORMAT_W8G32_F16S, "W8G32_F16S", 1, 2, 32},
                  {NC_FORMAT_NVFP4, "NVFP4", 1, 1, 16},
                  {NC_FORMAT_FP8_E4M3FN_ROW_BF16S, "FP8_E4M3FN_ROW_BF16S", 1, 0, 1}};
  const size_t N = 32768, K = 32768;
  for (const G& g : gs) {
    const size_t wbytes = N * K * g.code_bytes;
    const size_t sbytes = g.scale_bytes_per_group ? N * (K / g.group) * g.scale_bytes_per_group : N * 2;
    void* w = dev(wbytes, 0x11);
    void* s = dev(sbytes, 0x20);
    void* x = dev(K * 4, 0x3c);
    auto* y = static_cast<float*>(dev(N * 4, 0));
    const float ms = best_ms([&] { launch_gemv(g.f, w, s, 0x3f800000u, x, false, N, K, y); });
    const double floor_ms = (wbytes + sbytes + K * 4.0 + N * 4.0) / (copy_gbps * 1e9) * 1e3;
    std::printf("| %s | %zux%zu | %.2f | %.3f | %.3f | %.2fx | <= 1.5x |\n", g.name, N, K, double(wbytes) / kGiB, ms,
                floor_ms, ms / floor_ms);
    cudaFree(w);
    cudaFree(s);
    cudaFree(x);
    cudaFree(y);
  }
  return 0;
}
