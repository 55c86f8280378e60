// Sweep throughput, one core: for each binary32 recipe conversion, inputs/s of our codec (the
// cpu target) and of the sweep's integer reference, word by word (strided sweeps) and by range
// (convert_range, what an exhaustive sweep uses: 16384 consecutive words a batch, the batches
// spread over the whole domain), next to two ceilings measured in the same run over the same
// buffers: memcpy of the input words and a plain loop that touches each input.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "codec/codec_plugin.h"
#include "oracle/fastref/recipes.h"

namespace {

constexpr size_t kN = size_t(1) << 24;  // inputs per timed pass (64 MiB of words)
constexpr size_t kBatch = 1 << 14;      // consecutive words per convert_range call, as the sweeps

template <class F>
double best_seconds(F&& f) {
  double best = 1e9;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s < best) best = s;
  }
  return best;
}

}  // namespace

int main() {
  std::vector<uint32_t> in(kN), out(kN);
  for (size_t i = 0; i < kN; ++i) in[i] = uint32_t(i * 0x9e3779b1u);  // spread over the whole domain
  volatile uint32_t sink = 0;
  double memcpy_s = best_seconds([&] {
    std::memcpy(out.data(), in.data(), kN * 4);
    sink = out[kN / 2];
  });
  double loop_s = best_seconds([&] {
    uint32_t acc = 0;
    for (size_t i = 0; i < kN; ++i) acc += in[i] ^ uint32_t(i);
    sink = acc;
  });
  std::printf("inputs per pass: %zu (one core; best of 5)\n", kN);
  std::printf("%-30s %14s %14s %14s %10s %10s %10s\n", "sweep", "codec in/s", "ref word in/s", "ref range in/s",
              "codec/mem", "word/mem", "range/mem");
  std::printf("%-30s %14.3g %14s\n", "ceiling: memcpy", kN / memcpy_s, "-");
  std::printf("%-30s %14.3g %14s\n", "ceiling: plain loop", kN / loop_s, "-");
  struct R {
    const char* name;
    nc_recipe abi;
    nc::fastref::Recipe ref;
  };
  const R recipes[] = {
      {"F32_TO_BF16_RNE", NC_RECIPE_F32_TO_BF16_RNE, nc::fastref::Recipe::F32_TO_BF16_RNE},
      {"F32_TO_F16_RNE", NC_RECIPE_F32_TO_F16_RNE, nc::fastref::Recipe::F32_TO_F16_RNE},
      {"F32_TO_E4M3FN_RNE_SATFINITE", NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE,
       nc::fastref::Recipe::F32_TO_E4M3FN_RNE_SATFINITE},
      {"F32_TO_E4M3FN_RNE_OVF_NAN", NC_RECIPE_F32_TO_E4M3FN_RNE_OVF_NAN,
       nc::fastref::Recipe::F32_TO_E4M3FN_RNE_OVF_NAN},
      {"F32_TO_E2M1_RNE_SATFINITE", NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE,
       nc::fastref::Recipe::F32_TO_E2M1_RNE_SATFINITE},
  };
  const nc_plugin_v1* cpu = nc_codec_plugin_table();
  for (const R& r : recipes) {
    double c = best_seconds([&] {
      cpu->convert(r.abi, in.data(), kN, out.data());
      sink = out[1];
    });
    double f = best_seconds([&] {
      nc::fastref::convert_batch(r.ref, in.data(), kN, out.data());
      sink = out[1];
    });
    double g = best_seconds([&] {
      for (size_t b = 0; b < kN / kBatch; ++b)
        nc::fastref::convert_range(r.ref, uint32_t(b * (uint64_t(1) << 32) / (kN / kBatch)), kBatch,
                                   out.data() + b * kBatch);
      sink = out[1];
    });
    std::printf("%-30s %14.3g %14.3g %14.3g %10.2f %10.2f %10.2f\n", r.name, kN / c, kN / f, kN / g, memcpy_s / c,
                memcpy_s / f, memcpy_s / g);
  }
  return 0;
}
