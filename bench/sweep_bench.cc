// Sweep throughput, one core: for each binary32 recipe conversion, inputs/s of our codec (the
// cpu target) and of the sweep's integer reference, word by word (strided sweeps) and by range
// (convert_range, what an exhaustive sweep uses: 16384 consecutive words a batch, the batches
// spread over the whole domain), next to two ceilings measured in the same run over the same
// buffers: memcpy of the input words and a plain loop that touches each input. Then the judging of a
// target's results as a sweep does it, over batches that stay in the cache: the expectation made a
// block at a time and compared (convert_range + memcmp), against convert_range_matches, which reads
// the results once and writes nothing.
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
constexpr int kReps = 5;                // timed passes; the best is kept

template <class F>
double best_seconds(F&& f) {
  double best = 1e9;
  for (int rep = 0; rep < kReps; ++rep) {
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
  std::printf("inputs per pass: %zu (one core; best of %d)\n", kN, kReps);
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

  // A sweep's batch: 65536 results of a lattice at stride 5, judged 4096 at a time; 4 batches
  // across the domain (1 MiB of results, one core's L2 here), each judged kRounds times a pass.
  constexpr size_t kJudgeBatch = 1 << 16, kJudgeBlock = 1 << 12, kBatches = 4, kRounds = 64;
  constexpr uint64_t kStride = 5;
  const size_t judged = kJudgeBatch * kBatches * kRounds;
  std::printf("\njudging %zu results a pass as a sweep does (batches of %zu at stride %llu, in cache)\n", judged,
              kJudgeBatch, static_cast<unsigned long long>(kStride));
  std::printf("%-30s %16s %14s %10s\n", "recipe", "expect+cmp in/s", "matches in/s", "ratio");
  for (const R& r : recipes) {
    std::vector<uint32_t> firsts, results(kJudgeBatch * kBatches), want(kJudgeBlock);
    for (size_t b = 0; b < kBatches; ++b) {
      firsts.push_back(uint32_t(b * (0xffffffffull / kStride / kBatches) * kStride));
      nc::fastref::convert_range(r.ref, firsts[b], kJudgeBatch, results.data() + b * kJudgeBatch, kStride);
    }
    size_t agree_expect = 0, agree_matches = 0;
    double e = best_seconds([&] {
      for (size_t round = 0; round < kRounds; ++round)
        for (size_t b = 0; b < kBatches; ++b)
          for (size_t at = 0; at < kJudgeBatch; at += kJudgeBlock) {
            nc::fastref::convert_range(r.ref, uint32_t(firsts[b] + at * kStride), kJudgeBlock, want.data(), kStride);
            agree_expect += std::memcmp(want.data(), results.data() + b * kJudgeBatch + at, kJudgeBlock * 4) == 0;
          }
    });
    double m = best_seconds([&] {
      for (size_t round = 0; round < kRounds; ++round)
        for (size_t b = 0; b < kBatches; ++b)
          for (size_t at = 0; at < kJudgeBatch; at += kJudgeBlock)
            agree_matches += nc::fastref::convert_range_matches(r.ref, uint32_t(firsts[b] + at * kStride), kJudgeBlock,
                                                                results.data() + b * kJudgeBatch + at, kStride);
    });
    if (agree_expect != agree_matches || agree_expect != kReps * judged / kJudgeBlock) {
      std::fprintf(stderr, "sweep_bench: %s: a block of the expectation's own results was refused\n", r.name);
      return 1;
    }
    std::printf("%-30s %16.3g %14.3g %10.2f\n", r.name, judged / e, judged / m, e / m);
  }
  return 0;
}
