// Which inputs the canonical-encoder suites contain, class by class (spec 7; tags in
// encode_search.cc). Every loop is bounded and deterministic; expectations come later, from the
// oracle (encode_suites.cc).
#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <set>

#include "generator/encode_search.h"
#include "generator/suite.h"
#include "generator/suites/common.h"

namespace nc::gen::encsearch {
namespace {

constexpr uint32_t kPosInf = 0x7f800000u, kQNaN = 0x7fc00000u;

uint32_t w32(float f) { return word_of(f); }
uint32_t neg(uint32_t w) { return w ^ 0x80000000u; }
float pow2f(int e) { return std::ldexp(1.0f, e); }

// Unbiased enough for choosing inputs; the stream is fixed by SplitMix64, so the cases are too.
uint64_t pick(SplitMix64& r, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(r.next()) * n) >> 64);
}

class Collector {
 public:
  Collector() = default;
  // One row of FP32 words.
  void row(std::vector<uint32_t> x, std::vector<std::string> tags, std::string comment) {
    matrix(1, std::move(x), std::move(tags), std::move(comment));
  }
  void matrix(uint64_t rows, std::vector<uint32_t> x, std::vector<std::string> tags, std::string comment,
              std::vector<uint64_t> shape = {}) {
    EncodeCase c;
    c.rows = rows;
    c.k = x.size() / rows;
    c.shape = shape.empty() ? (rows == 1 ? std::vector<uint64_t>{c.k} : std::vector<uint64_t>{rows, c.k}) : shape;
    c.src_words.assign(x.begin(), x.end());
    c.tags = std::move(tags);
    c.comment = std::move(comment);
    out_.push_back(std::move(c));
  }
  void typed(Src src, std::vector<uint64_t> words, std::vector<std::string> tags, std::string comment) {
    EncodeCase c;
    c.src = src;
    c.k = words.size();
    c.shape = {c.k};
    c.src_words = std::move(words);
    c.tags = std::move(tags);
    c.comment = std::move(comment);
    out_.push_back(std::move(c));
  }
  std::vector<EncodeCase> take() { return std::move(out_); }

 private:
  std::vector<EncodeCase> out_;
};

Outcome probe(const Scheme& s, std::vector<uint32_t> x, GroupProbe& p) { return probe_group(s, x, p); }

uint16_t scale_of(const Scheme& s, uint32_t amax) {
  GroupProbe p;
  const uint32_t x[1] = {amax};
  return probe_group(s, x, p) == Outcome::Ok ? p.scale16 : uint16_t{0x7c00};
}

// Largest positive finite binary32 word in [lo, hi] with pred(word) true (pred monotone: true
// then false); lo must satisfy it.
uint32_t last_true(uint32_t lo, uint32_t hi, const std::function<bool(uint32_t)>& pred) {
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo + 1) / 2;
    if (pred(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Filler for whole groups: values strictly inside (-amax, amax), deterministic, a spread of codes.
std::vector<uint32_t> fill_below(uint32_t amax, size_t n, uint64_t salt) {
  std::vector<uint32_t> x;
  SplitMix64 r(salt ^ amax);
  const float a = f32_of(amax);
  for (size_t i = 0; i < n; ++i) {
    const auto m = static_cast<float>(pick(r, 1u << 20)) / static_cast<float>(1u << 20);  // exact
    float v = a * m;                                                                      // rounded, |v| <= a
    if (pick(r, 2)) v = -v;
    x.push_back(w32(v));
  }
  return x;
}

void zero_cases(const Scheme& s, Collector& c) {
  const uint32_t G = s.group;
  c.row(std::vector<uint32_t>(G, 0), {}, "whole group of +0");
  std::vector<uint32_t> alt(G);
  for (uint32_t i = 0; i < G; ++i) alt[i] = (i % 2) ? 0x80000000u : 0;
  c.row(alt, {}, "whole group alternating +0 and -0");
  c.row(std::vector<uint32_t>(G, 0x80000000u), {}, "whole group of -0");
  c.row({0x80000000u}, {}, "one -0 (partial group)");
  c.row({0, 0x80000000u, 0, 0x80000000u, 0x80000000u}, {}, "partial group of signed zeros");
  std::vector<uint32_t> tail = fill_below(w32(1.0f), G, 1);
  tail[0] = w32(1.0f);
  for (int i = 0; i < 3; ++i) tail.push_back(0x80000000u);
  c.row(tail, {}, "nonzero group then a partial group of -0");
  std::vector<uint32_t> m(2 * G, 0);
  for (uint32_t i = G; i < 2 * G; ++i) m[i] = w32(static_cast<float>(i % 5) - 2.0f);
  c.matrix(2, m, {}, "row 0 all zero, row 1 not");
}

void tie_cases(const Scheme& s, Collector& c) {
  // amax = qmax * 2^e gives raw = 2^e exactly, scale = 2^e, inv = 2^-e: x = (k+0.5)*2^e ties.
  for (int e : {0, -3, 5}) {
    const float sc = pow2f(e);
    const uint32_t amax = w32(static_cast<float>(s.qmax) * sc);
    if (e == 0) {
      for (int k = 0; k < s.qmax; ++k) {
        const uint32_t t = w32((static_cast<float>(k) + 0.5f) * sc);
        c.row({amax, t, neg(t)}, {}, "normalized exactly +-(" + std::to_string(k) + "+0.5), power-of-two scale");
      }
    } else {
      // All tie magnitudes packed into whole groups.
      std::vector<uint32_t> g{amax};
      for (int k = 0; k < s.qmax; ++k) {
        const uint32_t t = w32((static_cast<float>(k) + 0.5f) * sc);
        g.push_back((k % 2) ? neg(t) : t);
        if (g.size() == s.group || k == s.qmax - 1) {
          while (g.size() < s.group) g.push_back(0);
          c.row(g, {}, "whole group of ties k+0.5, scale 2^" + std::to_string(e));
          g = {amax};
        }
      }
    }
  }
  // Ties through a non-power-of-two reciprocal (scale 0x3092, examples.md): x*inv32 rounds to
  // exactly k+0.5 only for some x, found by scanning the neighbours of (k+0.5)*scale.
  const uint32_t amax = w32(static_cast<float>(s.qmax) * f32_of(f32_of_f16(0x3092)));
  GroupProbe base;
  if (probe(s, {amax}, base) != Outcome::Ok) return;
  const float inv = f32_of(base.inv), sc = f32_of(f32_of_f16(base.scale16));
  for (int k = 0; k < s.qmax; k += std::max(1, s.qmax / 16)) {
    const float x0 = (static_cast<float>(k) + 0.5f) * sc;
    for (int d = -4; d <= 4; ++d) {
      const uint32_t x = w32(x0) + d;
      const float n = f32_of(x) * inv;
      if (n - std::floor(n) == 0.5f && f32_of(x) <= f32_of(amax)) {
        c.row({amax, (k % 2) ? neg(x) : x}, {}, "x*inv32 rounds to exactly k+0.5 with a non-power-of-two reciprocal");
        break;
      }
    }
  }
}

void recip_vs_div_cases(const Scheme& s, Collector& c, size_t target) {
  size_t found = 0;
  std::vector<std::vector<uint32_t>> packs;
  for (uint32_t h = 0x0400; h < 0x7800 && found < target; h += 37) {
    const float sc = f32_of(f32_of_f16(static_cast<uint16_t>(h)));
    const uint32_t amax = w32(sc * static_cast<float>(s.qmax));
    GroupProbe p;
    if (probe(s, {amax}, p) != Outcome::Ok || p.scale16 != h) continue;
    const float inv = f32_of(p.inv);
    std::vector<uint32_t> pack{amax};
    bool first = true;
    for (int k = 0; k < s.qmax && pack.size() < s.group; ++k) {
      const float x0 = (static_cast<float>(k) + 0.5f) * sc;  // exact
      for (int d = -2; d <= 2; ++d) {
        const uint32_t x = w32(x0) + d;
        const float xf = f32_of(x);
        if (std::nearbyint(xf * inv) == std::nearbyint(xf / sc)) continue;
        const uint32_t sx = (k + d) % 2 ? neg(x) : x;
        if (first) {
          c.row({amax, sx}, {}, "reciprocal-multiply and direct division pick different codes");
          ++found;
          first = false;
        }
        pack.push_back(sx);
        break;
      }
    }
    if (pack.size() > 4 && packs.size() < 4) packs.push_back(pack);
  }
  for (auto& pk : packs) {
    while (pk.size() < s.group) pk.push_back(0);
    pk.resize(s.group);
    c.row(pk, {}, "whole group, many elements where direct division differs");
  }
}

void scale_rounding_cases(const Scheme& s, Collector& c) {
  // raw_scale32 exactly at a binary16 tie: amax = midpoint * qmax is exact (12 + 7 bits).
  std::vector<uint16_t> words;
  for (uint16_t h = 0x0001; h < 0x0400; h = static_cast<uint16_t>(h * 3 + 1)) words.push_back(h);
  for (uint32_t h = 0x0400; h < 0x7bff; h += 613) words.push_back(static_cast<uint16_t>(h));
  words.push_back(0x3092);
  words.push_back(0x3093);
  words.push_back(0x7bfe);
  for (uint16_t h : words) {
    const float mid = (f32_of(f32_of_f16(h)) + f32_of(f32_of_f16(static_cast<uint16_t>(h + 1)))) / 2;
    const uint32_t amax = w32(mid * static_cast<float>(s.qmax));
    GroupProbe p;
    if (probe(s, {amax}, p) != Outcome::Ok || p.raw != w32(mid)) continue;
    const std::string parity = (h & 1) ? "odd lower neighbour: rounds up" : "even lower neighbour: rounds down";
    c.row({amax, w32(f32_of(amax) / 3.0f)}, {}, "raw_scale32 exactly at a binary16 tie (" + parity + ")");
    c.row({amax + 1}, {"near-f16-tie"}, "amax one binary32 step above a binary16-tie amax");
    c.row({amax - 1}, {"near-f16-tie"}, "amax one binary32 step below a binary16-tie amax");
  }
}

void subnormal_scale_cases(const Scheme& s, Collector& c) {
  const float q = static_cast<float>(s.qmax);
  for (uint16_t h : {0x0001, 0x0002, 0x0003, 0x0007, 0x0055, 0x0155, 0x0200, 0x02ab, 0x03ff, 0x0400}) {
    const uint32_t amax = w32(f32_of(f32_of_f16(h)) * q);
    std::vector<uint32_t> g = fill_below(amax, s.group, h);
    g[h % s.group] = neg(amax);
    c.row({amax, neg(w32(f32_of(amax) / 2))}, {},
          "amax = qmax * binary16 word " + std::to_string(h) + " (subnormal scales and the normal edge)");
    c.row(g, {}, "whole group with a subnormal-range scale");
  }
  // The 2^-24 rescue.
  const uint32_t at = w32(q * pow2f(-25));
  c.row({at}, {}, "raw_scale32 = 2^-25 exactly: ties to binary16 zero, rescued to 0x0001");
  c.row({at, neg(at), w32(f32_of(at) / 2)}, {}, "rescue at the tie with companions: codes from inv32 = 2^24");
  c.row({at - 1}, {}, "raw_scale32 just below 2^-25: rescued");
  c.row({at + 1}, {}, "raw_scale32 just above 2^-25: rounds to 0x0001 without the rescue");
  c.row({0x00000001u}, {}, "amax = 2^-149: raw_scale32 underflows to binary32 zero, rescued");
  c.row({w32(pow2f(-126))}, {}, "amax = 2^-126: raw_scale32 is a binary32 subnormal, rescued");
  c.row({w32(q * pow2f(-30)), neg(w32(q * pow2f(-31)))}, {}, "raw_scale32 = 2^-30: rescued, codes 0");
}

void overflow_cases(const Scheme& s, Collector& c) {
  const uint32_t ok = last_true(w32(1.0f), 0x7f7fffffu, [&](uint32_t a) { return scale_of(s, a) != 0x7c00; });
  const uint32_t bad = ok + 1;
  c.row({ok}, {"overflow-edge"}, "the largest amax that encodes");
  c.row({neg(ok), w32(1.0f)}, {"overflow-edge"}, "the largest amax that encodes, as a negative value");
  c.row({bad}, {}, "the smallest amax whose scale overflows binary16");
  c.row({w32(1.0f), neg(bad)}, {}, "the smallest overflowing amax, negative");
  c.row({0x7f7fffffu}, {}, "amax = FLT_MAX");
  std::vector<uint32_t> g = fill_below(ok, s.group, 7);
  g[s.group - 1] = ok;
  c.row(g, {"overflow-edge"}, "whole group whose last element is the largest encodable amax");
  std::vector<uint32_t> mg = fill_below(w32(1.0f), s.group + 3, 8);
  mg[s.group + 1] = bad;
  c.row(mg, {}, "scale overflow only in the second (partial) group of a row");
  std::vector<uint32_t> mr = fill_below(w32(2.0f), 10, 9);
  mr[7] = neg(bad);
  c.matrix(2, mr, {}, "scale overflow only in row 1");
}

void nonfinite_cases(const Scheme& s, Collector& c) {
  const uint32_t G = s.group;
  const std::pair<uint32_t, const char*> bad[] = {{kPosInf, "+inf"},
                                                  {neg(kPosInf), "-inf"},
                                                  {kQNaN, "quiet NaN"},
                                                  {0x7f800001u, "signalling NaN"},
                                                  {0xffc00000u, "negative NaN"},
                                                  {0x7fffffffu, "NaN with full payload"}};
  size_t i = 0;
  for (const auto& [w, what] : bad) {
    std::vector<uint32_t> g = fill_below(w32(3.0f), G, 10 + i);
    const size_t pos = (i * 17) % G;
    g[pos] = w;
    c.row(g, {}, std::string(what) + " at position " + std::to_string(pos) + " of a whole group");
    c.row({w}, {}, std::string(what) + " alone");
    ++i;
  }
  c.row({0, 0x80000000u, kPosInf}, {}, "infinity in an otherwise zero group");
  std::vector<uint32_t> later = fill_below(w32(1.0f), 2 * G + 5, 11);
  later[2 * G + 2] = kQNaN;
  c.row(later, {}, "NaN only in the third (partial) group of a row");
  std::vector<uint32_t> lr = fill_below(w32(1.0f), 3 * 7, 12);
  lr[2 * 7 + 6] = neg(kPosInf);
  c.matrix(3, lr, {}, "-inf only in the last element of the last row");
  std::vector<uint32_t> nf_then_ovf = fill_below(w32(1.0f), G + 2, 13);
  nf_then_ovf[1] = kQNaN;
  nf_then_ovf[G + 1] = 0x7f7fffffu;
  c.row(nf_then_ovf, {}, "NaN in group 0 and an overflowing scale in group 1: the NaN fails first");
}

void clamp_cases(const Scheme& s, Collector& c) {
  // For each binary16 scale word h (subnormal, where the relative rounding step is large), the
  // largest amax that still yields h: amax * inv32 can exceed qmax + 0.5.
  size_t kept = 0;
  const uint32_t top = w32(static_cast<float>(s.qmax) * pow2f(-12));
  for (uint16_t h = 1; h < 0x0400 && kept < 24; ++h) {
    const uint32_t hi = last_true(1, top, [&](uint32_t a) { return scale_of(s, a) <= h; });
    GroupProbe p;
    if (probe(s, {hi, neg(hi)}, p) != Outcome::Ok || p.scale16 != h) continue;
    if (p.rounded[0] <= s.qmax) continue;
    if (kept < 6 || h % 5 == 0) {
      c.row({hi, neg(hi)}, {},
            "largest amax for scale word " + std::to_string(h) + ": codes clamp to qmax / qmin side");
      ++kept;
    }
  }
  // Inside each coarse scale's amax range, negative values whose code reaches qmin (Q4/Q5/Q6
  // emit it) or rounds below it (W8 stops at -127).
  size_t low = 0;
  for (uint16_t h = 1; h < 0x0100 && low < 16; ++h) {
    const uint32_t hi = last_true(1, top, [&](uint32_t a) { return scale_of(s, a) <= h; });
    const uint32_t lo = last_true(1, top, [&](uint32_t a) { return scale_of(s, a) < h; }) + 1;
    for (int part = 1; part <= 3 && low < 16; ++part) {
      const uint32_t a = lo + static_cast<uint32_t>((static_cast<uint64_t>(hi - lo) * part) / 4);
      GroupProbe p;
      if (probe(s, {a, neg(a)}, p) != Outcome::Ok || p.scale16 != h || p.rounded[1] > s.qmin) continue;
      c.row({a, neg(a)}, {}, "scale word " + std::to_string(h) + ": the negative value rounds to qmin or below");
      ++low;
    }
  }
  // A whole group spanning [-amax, amax] on a coarse scale: both clamp directions at once.
  const uint32_t hi = last_true(1, top, [&](uint32_t a) { return scale_of(s, a) <= 2; });
  std::vector<uint32_t> g = fill_below(hi, s.group, 21);
  g[0] = hi;
  g[1] = neg(hi);
  c.row(g, {}, "whole group on scale word 2 with both extremes");
}

void subnormal_source_cases(const Scheme& s, Collector& c) {
  c.row({0x00000001u}, {}, "smallest binary32 subnormal alone: DAZ would make it an all-zero group");
  c.row({0x007fffffu, 0x80000001u}, {}, "largest subnormal and a negative smallest subnormal");
  c.row({0x80400000u, 0x00000003u}, {}, "negative subnormal amax");
  std::vector<uint32_t> g;
  SplitMix64 r(0x5ab0 + s.qmax);
  for (uint32_t i = 0; i < s.group; ++i)
    g.push_back(static_cast<uint32_t>(pick(r, 0x800000)) | (pick(r, 2) ? 0x80000000u : 0));
  c.row(g, {}, "whole group of random binary32 subnormals");
  const uint32_t amax = w32(static_cast<float>(s.qmax) * pow2f(-24));
  c.row({amax, 0x00400000u, 0x80000007u}, {}, "scale 0x0001 with subnormal companions (normalized values are tiny)");
}

void geometry_cases(const Scheme& s, Collector& c) {
  const uint32_t G = s.group;
  SplitMix64 r(0x6e0 + G);  // fixed: these are chosen shapes, not samples
  // Final partial groups whose values are far smaller than the full group's: a stale or padded
  // read would pull the scale up. The next row starts with a large value (read past K).
  for (uint32_t tail : {1u, 3u, G / 2, G - 1}) {
    std::vector<uint32_t> m;
    for (int row = 0; row < 3; ++row) {
      std::vector<uint32_t> full = fill_below(w32(64.0f), G, pick(r, 1u << 30));
      full[0] = w32(64.0f + static_cast<float>(row));
      std::vector<uint32_t> small = fill_below(w32(0.25f), tail, pick(r, 1u << 30));
      m.insert(m.end(), full.begin(), full.end());
      m.insert(m.end(), small.begin(), small.end());
    }
    c.matrix(3, m, {}, "3 rows, K = G + " + std::to_string(tail) + ": tails small, next row starts large");
  }
  std::vector<uint32_t> r1 = fill_below(w32(5.0f), 2 * G + 7, pick(r, 1u << 30));
  c.row(r1, {}, "rank 1, three groups, the last partial");
  std::vector<uint32_t> r3 = fill_below(w32(1.5f), 2 * 2 * (G / 2 + 3), pick(r, 1u << 30));
  c.matrix(4, r3, {}, "rank 3 [2, 2, K] flattened to four rows", {2, 2, G / 2 + 3});
  c.row(fill_below(w32(9.0f), G - 1, 31), {}, "one partial group, K = G - 1");
}

void amax_abs_cases(const Scheme& s, Collector& c) {
  c.row({w32(-3.0f), w32(1.0f), w32(2.0f)}, {}, "most negative value has the largest magnitude");
  c.row({w32(-1.0f), w32(0.5f)}, {}, "negative amax, examples-like");
  c.row({w32(-2.0f), w32(2.0f)}, {}, "equal magnitudes of both signs");
  c.row({w32(-7.0f), w32(-1.0f)}, {}, "all negative");
  std::vector<uint32_t> g = fill_below(w32(10.0f), s.group, 41);
  g[s.group / 2] = w32(-10.0f);
  c.row(g, {}, "whole group whose amax is negative");
}

// The groups worked in examples.md, each in the scheme it names.
void example_cases(const Scheme& s, Collector& c) {
  if (s.qmax == 7) {
    c.row({0x3f800000u, 0xbf000000u, 0x3e800000u}, {"example"}, "examples.md: a plain group");
    c.row({0x40400000u, 0xbfc00000u, 0x3f400000u, 0xbe4ccccdu}, {"example"}, "examples.md: a mixed group");
    c.row({kQNaN, 0x3f800000u}, {"example"}, "examples.md: NaN source");
  }
  if (s.qmax == 15) c.row({0x00000005u, 0x80000002u}, {"example"}, "examples.md: subnormal sources, 2^-24 rescue");
  if (s.qmax == 31) c.row({0x00000000u, 0x80000000u}, {"example"}, "examples.md: all-zero group with a negative zero");
  if (s.qmax == 127) {
    c.row({0x3f800000u, 0xbf800000u, 0x3f000000u}, {"example"}, "examples.md: symmetric extremes");
    c.row({0x4afe213eu}, {"example"}, "examples.md: W8 scale overflow");
  }
}

// Values of one random group from distribution d, magnitude around 2^e; integer-only transforms,
// every value exact in binary32.
std::vector<uint32_t> random_values(SplitMix64& r, int d, size_t n, int e) {
  std::vector<uint32_t> x;
  auto normalish = [&] {
    int64_t sum = 0;
    for (int i = 0; i < 4; ++i) sum += static_cast<int64_t>(r.next() >> 44);  // 20-bit
    return static_cast<float>(sum - (int64_t{1} << 21));                      // |.| <= 2^21, exact
  };
  for (size_t i = 0; i < n; ++i) {
    float v = 0;
    switch (d) {
      case 0:
        v = std::ldexp(static_cast<float>(static_cast<int64_t>(r.next() >> 40) - (1 << 23)), e - 23);
        break;
      case 1:
        v = std::ldexp(normalish(), e - 21);
        break;
      case 2: {
        const int g = std::min(30, std::countl_zero(r.next() | 1));
        v = std::ldexp(static_cast<float>((r.next() >> 40) | (1u << 23)), e - 53 + g);
        if (r.next() & 1) v = -v;
        break;
      }
      case 3:
        v = std::ldexp(normalish(), e - 31);
        break;  // outliers added below
      default: {
        const auto ex = static_cast<uint32_t>(127 + e - static_cast<int>(pick(r, 20)));
        x.push_back((ex << 23) | static_cast<uint32_t>(r.next() & 0x7fffff) | (r.next() & 1 ? 0x80000000u : 0));
        continue;
      }
    }
    x.push_back(w32(v));
  }
  if (d == 3 && n > 0) {
    for (int j = 0; j < 2; ++j) x[pick(r, n)] = w32(std::ldexp(normalish(), e - 21));
  }
  return x;
}

void random_cases(const Scheme& s, Collector& c, SplitMix64& r, int per_distribution) {
  static const char* names[] = {"uniform", "normal-ish (sum of four uniforms)", "heavy-tailed",
                                "normal-ish with outliers", "uniform bits"};
  const uint32_t G = s.group;
  for (int d = 0; d < 5; ++d) {
    for (int i = 0; i < per_distribution; ++i) {
      const int e = static_cast<int>(pick(r, 34)) - 19;
      uint64_t rows = 1, k = G;
      switch (i % 5) {
        case 0:
        case 1:
          k = G;
          break;
        case 2:
          k = 1 + pick(r, G - 1);
          break;
        case 3:
          k = G + 1 + pick(r, 2 * G);
          break;
        default:
          rows = 2;
          k = G / 2 + pick(r, 2 * G);
          break;
      }
      c.matrix(rows, random_values(r, d, rows * k, e), {"random"},
               std::string("seeded random, ") + names[d] + ", magnitude 2^" + std::to_string(e));
    }
  }
}

void source_type_cases(const Scheme& s, Collector& c, SplitMix64& r) {
  // BF16
  c.typed(Src::BF16, {0x3f80, 0xbf00, 0x3e80}, {}, "examples.md plain group as BF16 words");
  c.typed(Src::BF16, {0x8000, 0x0000}, {}, "BF16 signed zeros");
  c.typed(Src::BF16, {0x0001, 0x807f}, {}, "BF16 subnormals");
  c.typed(Src::BF16, {0x3f80, 0x7f80}, {}, "BF16 +inf");
  c.typed(Src::BF16, {0x7fc1, 0x3f80}, {}, "BF16 NaN");
  c.typed(Src::BF16, {0x7f7f}, {}, "BF16 max: scale overflows");
  for (int i = 0; i < 6; ++i) {
    std::vector<uint64_t> w;
    const size_t n = i % 2 ? s.group : 1 + pick(r, s.group - 1);
    for (uint32_t v : random_values(r, 1, n, static_cast<int>(pick(r, 20)) - 10)) w.push_back(bf16_round_f32(v) >> 16);
    c.typed(Src::BF16, w, {"random"}, "seeded random BF16 group");
  }
  // binary16
  c.typed(Src::F16, {0x3c00, 0xb800, 0x3400}, {}, "examples.md plain group as binary16 words");
  c.typed(Src::F16, {0x0001, 0x8003}, {}, "binary16 subnormal sources");
  c.typed(Src::F16, {0x7bff, 0xfbff}, {}, "binary16 max of both signs");
  c.typed(Src::F16, {0x3c00, 0x7c00}, {}, "binary16 +inf");
  c.typed(Src::F16, {0x7e00}, {}, "binary16 NaN");
  c.typed(Src::F16, {0x8000, 0x8000, 0x0000}, {}, "binary16 zeros");
  for (int i = 0; i < 6; ++i) {
    std::vector<uint64_t> w;
    const size_t n = i % 2 ? s.group : 1 + pick(r, s.group - 1);
    for (size_t j = 0; j < n; ++j) w.push_back(pick(r, 0x7c00) | (pick(r, 2) << 15));
    c.typed(Src::F16, w, {"random"}, "seeded random finite binary16 words");
  }
  // binary64
  auto d = [](double v) { return word_of(v); };
  c.typed(Src::F64, {d(1.0), d(-0.5), d(0.25)}, {}, "examples.md plain group as binary64 (exact)");
  c.typed(Src::F64, {d(1.0 + std::ldexp(1.0, -24)), d(1.0 + 3 * std::ldexp(1.0, -24)), d(-0.75)}, {},
          "binary64 ties to binary32: to even");
  c.typed(Src::F64, {d(1.0 + std::ldexp(1.0, -30)), d(-3.0 - std::ldexp(1.0, -28))}, {},
          "binary64 with bits below binary32 precision");
  c.typed(Src::F64, {d(1e39), d(1.0)}, {}, "binary64 overflows binary32: fails");
  c.typed(Src::F64, {d(std::ldexp(1.0, 128) - std::ldexp(1.0, 103))}, {},
          "binary64 exactly at the binary32 overflow tie: rounds to inf, fails nonfinite");
  c.typed(Src::F64, {d(std::ldexp(1.0, 128) - std::ldexp(1.0, 103)) - 1}, {},
          "binary64 just below the overflow tie: FLT_MAX, then the scale overflows");
  c.typed(Src::F64, {d(-1.7976931348623157e308)}, {}, "binary64 -DBL_MAX: fails");
  c.typed(Src::F64, {d(1e-50)}, {}, "binary64 underflowing to zero: all-zero group");
  c.typed(Src::F64, {d(1e-50), d(-1e-60), d(-0.0)}, {}, "binary64 underflows of both signs and -0: all-zero group");
  c.typed(Src::F64, {d(std::ldexp(1.0, -150)), d(1.5 * std::ldexp(1.0, -150))}, {},
          "binary64 2^-150 (tie to zero) and 1.5*2^-150 (to 2^-149)");
  c.typed(Src::F64, {d(2.0), d(1e-50)}, {}, "an underflowing element in a nonzero group");
  c.typed(Src::F64, {d(1.0), 0x7ff0000000000000ull}, {}, "binary64 +inf");
  c.typed(Src::F64, {0x7ff8000000000001ull}, {}, "binary64 NaN");
  for (int i = 0; i < 6; ++i) {
    std::vector<uint64_t> w;
    const size_t n = i % 2 ? s.group : 1 + pick(r, s.group - 1);
    const int e = static_cast<int>(pick(r, 20)) - 10;
    for (size_t j = 0; j < n; ++j) {
      const double v = std::ldexp(static_cast<double>(r.next() >> 11), e - 53);
      w.push_back(word_of(pick(r, 2) ? -v : v));
    }
    c.typed(Src::F64, w, {"random"}, "seeded random binary64 group (53-bit values)");
  }
}

// Spec 7 converts every source to binary32 before any group is processed, so a non-finite source
// anywhere fails the encoding (!nonfinite) even when an earlier group's scale overflows.
void failure_order_cases(const Scheme& s, Collector& c) {
  const uint32_t G = s.group;
  const uint32_t bad = last_true(w32(1.0f), 0x7f7fffffu, [&](uint32_t a) { return scale_of(s, a) != 0x7c00; }) + 1;
  std::vector<uint32_t> x = fill_below(w32(1.0f), G + 3, 51);
  x[2] = bad;
  x[G + 1] = kQNaN;
  c.row(x, {}, "overflowing scale in group 0, NaN in group 1: sources convert first, nonfinite");
  x[G + 1] = neg(kPosInf);
  c.row(x, {}, "overflowing scale in group 0, -inf in group 1: sources convert first, nonfinite");
  std::vector<uint32_t> m = fill_below(w32(2.0f), 2 * 9, 52);
  m[0] = neg(bad);
  m[9 + 8] = kPosInf;
  c.matrix(2, m, {}, "overflowing scale in row 0, +inf at the end of row 1: nonfinite");
  std::vector<uint32_t> three = fill_below(w32(1.0f), 2 * G + 4, 53);
  three[G] = bad;
  three[2 * G + 3] = 0x7f800001u;
  c.row(three, {}, "overflow in group 1, signalling NaN in the last (partial) group: nonfinite");
  c.row({bad, kQNaN}, {}, "overflowing amax and a NaN in one group: nonfinite");
  std::vector<uint64_t> bf(G + 2, 0x3f80);
  bf[0] = 0x7f7f;  // BF16 max: its scale overflows binary16
  bf[G + 1] = 0xffc1;
  c.typed(Src::BF16, bf, {}, "BF16: overflowing scale in group 0, negative NaN in group 1: nonfinite");
  std::vector<uint64_t> f64(G + 2, word_of(1.0));
  f64[1] = word_of(1e30);
  f64[G] = word_of(1e39);  // above the binary32 range: converts to +inf
  c.typed(Src::F64, f64, {}, "binary64: overflowing scale in group 0, a value past binary32 in group 1: nonfinite");
}

// normalized32 exactly +-(qmax + 1/2): the scale is a subnormal binary16 2^(j-24) that rounds down
// from amax/qmax (possible only where binary16 steps are coarse), and inv32 = 2^(24-j) is exact.
// +(qmax + 1/2) rounds to the even qmax + 1 and clamps to qmax; -(qmax + 1/2) rounds to
// -(qmax + 1): qmin for Q4/Q5/Q6, clamped to -127 for W8.
void integer_tie_cases(const Scheme& s, Collector& c) {
  for (int j : {0, 1, 2}) {
    const uint32_t amax = w32((static_cast<float>(s.qmax) + 0.5f) * pow2f(j - 24));
    GroupProbe p;
    if (probe(s, {amax}, p) != Outcome::Ok || p.scale16 != (1u << j)) continue;
    const std::string what = "+-(qmax + 1/2) on scale 2^" + std::to_string(j - 24);
    c.row({amax}, {}, "normalized exactly qmax + 1/2: " + what);
    c.row({neg(amax)}, {}, "normalized exactly -(qmax + 1/2): " + what);
    c.row({neg(amax), amax, w32(f32_of(amax) / 2)}, {}, "both signs of qmax + 1/2 in one group: " + what);
    std::vector<uint32_t> g = fill_below(amax, s.group, 54 + j);
    for (uint32_t i = 0; i < s.group; i += 5) g[i] = (i / 5) % 2 ? neg(amax) : amax;
    c.row(g, {}, "whole group with +-(qmax + 1/2) every fifth element: " + what);
  }
}

// Several independent records per source-conversion class, so one record is never the only kill:
// subnormal BF16 and binary16 sources (all-subnormal groups, where DAZ changes the scale), binary64
// values in the binary32 subnormal range, and binary64 values whose binary32 conversion differs
// under truncation or ties-away (amax = qmax gives scale 1 and inv32 1, so the code is
// round_to_integral(x32)).
void source_conversion_cases(const Scheme& s, Collector& c) {
  for (auto w : std::vector<std::vector<uint64_t>>{
           {0x0001}, {0x8001}, {0x007f, 0x0040}, {0x8040, 0x0003, 0x0000}, {0x0010, 0x807f}})
    c.typed(Src::BF16, w, {}, "BF16 subnormal sources only: DAZ would make an all-zero group");
  for (auto w : std::vector<std::vector<uint64_t>>{
           {0x0001}, {0x03ff}, {0x8002, 0x0001}, {0x0200, 0x8155}, {0x83ff, 0x0100, 0x0007}})
    c.typed(Src::F16, w, {}, "binary16 subnormal sources only: DAZ would change the scale");
  SplitMix64 r(0x5ab1 + s.qmax);  // fixed: chosen inputs, not a sample
  std::vector<uint64_t> bg, hg;
  for (uint32_t i = 0; i < s.group; ++i) {
    bg.push_back(pick(r, 0x7f) + 1 + (pick(r, 2) << 15));
    hg.push_back(pick(r, 0x3ff) + 1 + (pick(r, 2) << 15));
  }
  c.typed(Src::BF16, bg, {}, "whole group of BF16 subnormals");
  c.typed(Src::F16, hg, {}, "whole group of binary16 subnormals");
  auto d = [](double v) { return word_of(v); };
  const double tiny = std::ldexp(1.0, -149);
  for (auto w : std::vector<std::vector<uint64_t>>{{d(std::ldexp(1.0, -140))},
                                                   {d(-tiny)},
                                                   {d(3 * tiny), d(std::ldexp(1.0, -130))},
                                                   {d(2.5 * tiny), d(-1.5 * tiny)},
                                                   {d(std::ldexp(1.0, -127) * 1.5), d(-std::ldexp(1.0, -128))}})
    c.typed(Src::F64, w, {}, "binary64 values in the binary32 subnormal range (ties to even at 2^-149 steps)");
  // A hair above 2^-150 (half of 2^-149) rounds once to 2^-149, so the group is nonzero and rescued;
  // rounded to 24 bits first it becomes the tie 2^-150 and then +0.
  for (double sign : {1.0, -1.0})
    c.typed(Src::F64, {d(sign * std::ldexp(1.0 + std::ldexp(1.0, -49), -150))}, {},
            "binary64 just above 2^-150: one rounding gives 2^-149 (nonzero amax), two give the tie and +0");
  // binary64 -> binary32 rounding that carries into the exponent below the overflow threshold: the
  // tie (2 - 2^-24) * 2^e (the odd top significand rounds up to 2^(e+1)) and a value just above it,
  // of both signs, over binades from the binary16-subnormal scales to the largest that encode. Alone
  // (the carry doubles amax, so the scale), and beside amax = qmax * 2^(e+1) (scale 2^(e+1), where
  // the carried element is code +-1 and a dropped carry gives 2^e, the tie 0.5, code 0). Just below
  // the tie it rounds down: no carry.
  {
    const double qd = static_cast<double>(s.qmax);
    const double max_e = std::floor(std::log2(65504.0 * qd)) - 1;  // (2^(e+1)) / qmax stays finite in binary16
    for (int e : {-24, -13, -1, 0, 3, 9, 14, static_cast<int>(max_e)}) {
      const double top = std::ldexp(2.0 - std::ldexp(1.0, -24), e),
                   above = std::ldexp(2.0 - std::ldexp(1.0, -24) + std::ldexp(1.0, -45), e);
      const double below = std::ldexp(2.0 - std::ldexp(1.0, -24) - std::ldexp(1.0, -45), e);
      const std::string be = "2^" + std::to_string(e);
      if (e + 1 <= 15) {
        for (double sign : {1.0, -1.0}) {
          c.typed(Src::F64, {d(qd * std::ldexp(1.0, e + 1)), d(sign * top)}, {},
                  "binary64 tie (2 - 2^-24) * " + be + " beside amax qmax * 2^(e+1): carries to 2^(e+1), code +-1");
          c.typed(Src::F64, {d(qd * std::ldexp(1.0, e + 1)), d(sign * above)}, {},
                  "binary64 just above the carrying tie at " + be + " beside amax qmax * 2^(e+1): code +-1");
        }
        c.typed(Src::F64, {d(qd * std::ldexp(1.0, e + 1)), d(below)}, {},
                "binary64 just below the carrying tie at " + be + ": rounds down, no carry");
      }
      if (e >= -1) {
        c.typed(Src::F64, {d(top)}, {}, "binary64 tie (2 - 2^-24) * " + be + " alone: amax carries to 2^(e+1)");
        c.typed(Src::F64, {d(-above), d(0.5 * top)}, {},
                "binary64 just above the carrying tie, negative, as amax at " + be);
      }
    }
  }
  const double q = static_cast<double>(s.qmax);
  auto ulp32 = [](double v) {
    const float f = static_cast<float>(v);
    return static_cast<double>(std::nextafter(f, INFINITY)) - f;
  };
  for (int k : {1, 2, 3, 4}) {
    if (k + 1 > s.qmax) break;
    const double t = k + 0.5, u = ulp32(t);
    for (double sign : {1.0, -1.0}) {
      const std::string sg = sign > 0 ? "" : "-";
      if (k % 2)
        c.typed(Src::F64, {d(q), d(sign * (t - std::ldexp(1.0, -40)))}, {},
                "binary64 just below " + sg + std::to_string(k) + ".5: RNE gives the tie (code " + sg +
                    std::to_string(k + 1) + "), truncation does not");
      else {
        c.typed(Src::F64, {d(q), d(sign * (t + u / 2))}, {},
                "binary64 at the binary32 tie above " + sg + std::to_string(k) + ".5: to even keeps the tie (code " +
                    sg + std::to_string(k) + "), ties-away does not");
        c.typed(Src::F64, {d(q), d(sign * (t + u / 2 + std::ldexp(u, -20)))}, {},
                "binary64 just above the binary32 tie above " + sg + std::to_string(k) + ".5: RNE rounds up (code " +
                    sg + std::to_string(k + 1) + "), truncation does not");
      }
    }
  }
}

}  // namespace

std::vector<EncodeCase> select_cases(const Scheme& s, uint64_t seed) {
  SplitMix64 r(seed);
  Collector c;
  zero_cases(s, c);
  tie_cases(s, c);
  recip_vs_div_cases(s, c, 120);
  scale_rounding_cases(s, c);
  subnormal_scale_cases(s, c);
  overflow_cases(s, c);
  nonfinite_cases(s, c);
  clamp_cases(s, c);
  subnormal_source_cases(s, c);
  geometry_cases(s, c);
  amax_abs_cases(s, c);
  example_cases(s, c);
  random_cases(s, c, r, 40);
  source_type_cases(s, c, r);
  failure_order_cases(s, c);
  integer_tie_cases(s, c);
  source_conversion_cases(s, c);
  // Spec 12's chains: the same sources as dequantize.<FMT>'s encode-chain records (common.h).
  for (ChainSource& ch : chain_sources(*find_format(s.name)))
    c.matrix(ch.rows, std::move(ch.src), {"encode-chain"}, ch.what);
  std::vector<EncodeCase> out = c.take();
  for (EncodeCase& e : out) {
    std::set<std::string> t(e.tags.begin(), e.tags.end());
    for (auto& d : derived_tags(s, e)) t.insert(d);
    e.tags.assign(t.begin(), t.end());
  }
  return out;
}

}  // namespace nc::gen::encsearch
