// The encode -> dequantize chains of spec 12's last evidence item (declared in common.h): chosen
// binary32 sources only, no oracle, so the encode-input search test builds it from source too.
#include <cmath>
#include <cstring>

#include "generator/suites/common.h"

namespace nc::gen {

std::vector<ChainSource> chain_sources(Format f) {
  const auto& fi = info(f);
  const uint32_t G = fi.group_size;
  const int32_t qmax = f == Format::W8G32_F16S ? 127 : (1 << (info(fi.code).bits - 1)) - 1;
  SplitMix64 r(0x636861696e00ull + uint64_t(f));  // "chain": fixed, chosen inputs
  auto word = [](float v) {
    uint32_t w;
    std::memcpy(&w, &v, 4);
    return w;
  };
  auto unit = [&] { return float(r.below(1u << 20)) / float(1u << 20); };  // exact, [0, 1)
  auto sign = [&](float v) { return r.below(2) ? -v : v; };
  // Ordinary nonzero values of one binade scale: +-(0.25 .. 1) * 2^e.
  auto ordinary = [&](std::vector<uint32_t>& out, size_t n, int e) {
    for (size_t i = 0; i < n; ++i) out.push_back(word(sign(std::ldexp(0.25f + 0.75f * unit(), e))));
  };
  // Rescued: magnitudes in [2^-24, qmax * 2^-25], so raw_scale32 <= 2^-25 rounds to binary16 zero
  // and is rescued to 0x0001 (inv32 = 2^24): codes round(x * 2^24) are 1 .. qmax/2, nonzero.
  auto rescued = [&](std::vector<uint32_t>& out, size_t n) {
    for (size_t i = 0; i < n; ++i) out.push_back(word(sign(std::ldexp(1.0f + unit() * (float(qmax) / 2 - 1), -24))));
  };
  // Clamped: amax A = qmax * (h + 1/4) * 2^-24 rounds to the subnormal scale h * 2^-24, so
  // +-A * inv32 = +-qmax * (1 + 1/(4h)) rounds beyond qmax and qmin and is clamped.
  auto clamped = [&](std::vector<uint32_t>& out, size_t n, int h) {
    const float a = float(qmax) * (float(h) + 0.25f) * std::ldexp(1.0f, -24);
    const size_t at = out.size();
    for (size_t i = 0; i < n; ++i) out.push_back(word(sign(a * unit())));
    out[at] = word(a);
    if (n > 1) out[at + n - 1] = word(-a);
  };
  std::vector<ChainSource> chains;
  for (uint32_t res = 1; res < G; ++res) {
    ChainSource c;
    c.rows = 2;
    c.k = G + res;
    const int h = 1 + int(res % 3);
    for (int row = 0; row < 2; ++row) {
      ordinary(c.src, G, int(res % 7) - 3);
      if ((row + res) % 2) clamped(c.src, res, h);
      else rescued(c.src, res);
    }
    c.what = "chain " + std::string(fi.name) + " K = G + " + std::to_string(res) +
             ": canonical encoder output of a partial final group of " + std::to_string(res) +
             " (one row rescued, one clamped), dequantized";
    chains.push_back(std::move(c));
  }
  for (uint32_t res : {1u, G / 2, G - 1}) {
    ChainSource c;
    c.k = res;
    if (res % 2) clamped(c.src, res, 1);
    else rescued(c.src, res);
    c.what = "chain " + std::string(fi.name) + " K = " + std::to_string(res) + " < G: one partial group (" +
             (res % 2 ? "clamped" : "rescued") + "), encoded and dequantized";
    chains.push_back(std::move(c));
  }
  return chains;
}

}  // namespace nc::gen
