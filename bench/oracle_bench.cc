// The oracle's cost next to the codec's for the same work, measured in the same run: ns per
// decoded word, per rounded value (binary32 -> binary16 RNE) and per encoded 64-value Q4 group.
// A table for people, not a test: nothing here asserts a time.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "codec/maxabs_f16_recip_rne_v1.h"
#include "codec/recipes.h"
#include "codec/words.h"
#include "oracle/decode.h"
#include "oracle/maxabs_f16_recip_rne_v1.h"
#include "oracle/recipes.h"

using namespace nc;
namespace o = nc::oracle;

namespace {
volatile uint64_t g_sink;  // keeps results observable so the loops are not removed

template <class F>
double ns_per_item(uint64_t items, F&& body) {
  const auto t0 = std::chrono::steady_clock::now();
  body();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(items);
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

int main() {
  o::Context ctx;
  // Decode: every BF16 word, 8 times.
  const uint64_t decode_n = 8 * 65536;
  const double dec_o = ns_per_item(decode_n, [&] {
    uint64_t acc = 0;
    for (int r = 0; r < 8; ++r)
      for (uint32_t w = 0; w < 65536; ++w) acc += o::decode(ctx, WordType::BF16, w).binary32.value_or(0);
    g_sink = acc;
  });
  const double dec_c = ns_per_item(decode_n, [&] {
    uint64_t acc = 0;
    for (int r = 0; r < 8; ++r)
      for (uint32_t w = 0; w < 65536; ++w) acc += codec::float_word_to_f32(WordType::BF16, w);
    g_sink = acc;
  });
  // Rounding: 2^20 seeded binary32 words -> binary16 (F32_TO_F16_RNE).
  uint64_t seed = 1;
  std::vector<uint32_t> words(1 << 20);
  for (auto& w : words) w = static_cast<uint32_t>(splitmix(seed));
  const double rnd_o = ns_per_item(words.size(), [&] {
    uint64_t acc = 0;
    for (uint32_t w : words) acc += o::convert(ctx, o::Recipe::F32_TO_F16_RNE, w);
    g_sink = acc;
  });
  const double rnd_c = ns_per_item(words.size(), [&] {
    uint64_t acc = 0;
    for (uint32_t w : words) acc += codec::convert(codec::Recipe::F32_TO_F16_RNE, w);
    g_sink = acc;
  });
  // Encoding: 2000 seeded Q4 groups of 64 FP32 values in [-4, 4).
  const uint64_t groups = 2000;
  std::vector<uint64_t> src(groups * 64);
  for (auto& w : src) w = (splitmix(seed) & 0x807fffffu) | (0x7cu << 23) | (static_cast<uint32_t>(splitmix(seed) % 5) << 23);
  const double enc_o = ns_per_item(groups, [&] {
    const auto r = o::encode_maxabs_f16_recip_rne_v1(ctx, Format::Q4G64_F16S, o::SourceType::FP32, groups, 64, src);
    g_sink = r.scales.size();
  });
  const double enc_c = ns_per_item(groups, [&] {
    const auto r = codec::maxabs_f16_recip_rne_v1(Format::Q4G64_F16S, codec::SourceType::FP32, src, groups, 64);
    g_sink = r.ok() ? r.value().scales.size() : 0;
  });
  std::printf("%-34s %12s %12s %10s\n", "work", "oracle ns", "codec ns", "ratio");
  std::printf("%-34s %12.1f %12.2f %10.0f\n", "decode BF16 word", dec_o, dec_c, dec_o / dec_c);
  std::printf("%-34s %12.1f %12.2f %10.0f\n", "round binary32 -> binary16 (RNE)", rnd_o, rnd_c, rnd_o / rnd_c);
  std::printf("%-34s %12.1f %12.2f %10.0f\n", "encode Q4G64 group (64 values)", enc_o, enc_c, enc_o / enc_c);
  return 0;
}
