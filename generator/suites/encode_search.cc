// Search probe for the canonical-encoder suites; see generator/encode_search.h. (Kept under
// suites/ so it is linked wherever the suites are.)
#include "generator/encode_search.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

namespace nc::gen::encsearch {

const std::array<Scheme, 4>& schemes() {
  static const std::array<Scheme, 4> k{{
      {"Q4G64_F16S", -8, 7, 64},
      {"Q5G64_F16S", -16, 15, 64},
      {"Q6G64_F16S", -32, 31, 64},
      {"W8G32_F16S", -127, 127, 32},
  }};
  return k;
}

float f32_of(uint32_t w) { return std::bit_cast<float>(w); }
uint32_t word_of(float f) { return std::bit_cast<uint32_t>(f); }
double f64_of(uint64_t w) { return std::bit_cast<double>(w); }
uint64_t word_of(double d) { return std::bit_cast<uint64_t>(d); }

namespace {

// Exponent of the binary16 quantum (ulp) at the binade of mant * 2^exp2 (mant != 0).
int f16_quantum_exp(uint64_t mant, int exp2) {
  const int binade = exp2 + 63 - std::countl_zero(mant);
  return binade < -14 ? -24 : binade - 10;
}

// |w| of a finite binary32 word as mant * 2^exp2.
void split_f32(uint32_t w, uint64_t& mant, int& exp2) {
  const uint32_t e = (w >> 23) & 0xff, m = w & 0x7fffff;
  mant = e == 0 ? m : (m | 0x800000u);
  exp2 = e == 0 ? -149 : static_cast<int>(e) - 150;
}

bool is_f16_midpoint(uint32_t w) {
  uint64_t mant;
  int exp2;
  split_f32(w, mant, exp2);
  if (mant == 0) return false;
  const int shift = f16_quantum_exp(mant, exp2) - exp2;
  if (shift < 1 || shift > 63) return false;
  return (mant & ((1ull << shift) - 1)) == (1ull << (shift - 1));
}

bool is_nonfinite_f32(uint32_t w) { return ((w >> 23) & 0xff) == 0xff; }
bool is_subnormal_f32(uint32_t w) { return ((w >> 23) & 0xff) == 0 && (w & 0x7fffff) != 0; }

int32_t clamp_code(int64_t r, int32_t lo, int32_t hi) { return static_cast<int32_t>(std::clamp<int64_t>(r, lo, hi)); }

}  // namespace

uint16_t round_to_f16(uint64_t mant, int exp2, bool sticky) {
  if (mant == 0) return 0;
  const int binade = exp2 + 63 - std::countl_zero(mant);
  const int qe = f16_quantum_exp(mant, exp2);
  const int shift = qe - exp2;
  uint64_t q = 0;
  if (shift <= 0) {
    q = mant << -shift;  // exact; a sticky tail is below half a quantum
  } else if (shift < 64) {
    q = mant >> shift;
    const uint64_t rem = mant & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (sticky || (q & 1)))) ++q;
  } else if (shift == 64) {
    q = (mant > (1ull << 63) || (mant == (1ull << 63) && sticky)) ? 1 : 0;
  }  // shift > 64: below half the smallest quantum, rounds to zero
  const uint64_t word = qe == -24 ? q : (static_cast<uint64_t>(binade + 15) << 10) + (q - 1024);
  return word >= 0x7c00 ? uint16_t{0x7c00} : static_cast<uint16_t>(word);
}

uint16_t f16_of_f32(uint32_t w) {
  uint64_t mant;
  int exp2;
  split_f32(w, mant, exp2);
  return round_to_f16(mant, exp2, false);
}

uint16_t f16_of_f64(double d) {
  const uint64_t w = word_of(d);
  const uint64_t e = (w >> 52) & 0x7ff, m = w & ((1ull << 52) - 1);
  return round_to_f16(e == 0 ? m : (m | (1ull << 52)), e == 0 ? -1074 : static_cast<int>(e) - 1075, false);
}

uint32_t f32_of_f16(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return sign | 0x7f800000u | (m << 13);
  if (e == 0) {
    if (m == 0) return sign;
    int ex = -14;
    while (!(m & 0x400)) {
      m <<= 1;
      --ex;
    }
    return sign | (static_cast<uint32_t>(ex + 127) << 23) | ((m & 0x3ff) << 13);
  }
  return sign | ((e - 15 + 127) << 23) | (m << 13);
}

uint32_t bf16_round_f32(uint32_t w) {
  const uint32_t lsb = (w >> 16) & 1;
  return (w + 0x7fffu + lsb) & 0xffff0000u;
}

uint16_t f16_of_exact_ratio(uint32_t amax, int32_t q) {
  uint64_t mant;
  int exp2;
  split_f32(amax, mant, exp2);
  const uint64_t num = mant << 40, uq = static_cast<uint64_t>(q);
  return round_to_f16(num / uq, exp2 - 40, num % uq != 0);
}

std::string_view src_name(Src s) {
  switch (s) {
    case Src::FP32:
      return "FP32";
    case Src::BF16:
      return "BF16";
    case Src::F16:
      return "F16";
    case Src::F64:
      return "F64";
  }
  return "?";
}

Converted to_f32(Src s, uint64_t word) {
  Converted c;
  switch (s) {
    case Src::FP32: {
      const auto w = static_cast<uint32_t>(word);
      if (!is_nonfinite_f32(w)) c.f32 = w;
      return c;
    }
    case Src::BF16: {
      const auto w = static_cast<uint32_t>(word) << 16;
      if (!is_nonfinite_f32(w)) c.f32 = w;
      return c;
    }
    case Src::F16:
      if (((word >> 10) & 0x1f) != 0x1f) c.f32 = f32_of_f16(static_cast<uint16_t>(word));
      return c;
    case Src::F64: {
      const double d = f64_of(word);
      if (!std::isfinite(d)) return c;
      const float f = static_cast<float>(d);  // RNE: the default rounding mode
      if (std::isinf(f)) {
        c.overflow = true;
        return c;
      }
      c.f32 = word_of(f);
      c.underflow = d != 0 && f == 0;
      c.carry = f != 0 && std::ilogb(f) > std::ilogb(d);  // the significand rounded up to a power of two
      c.inexact = static_cast<double>(f) != d;
      if (c.inexact) {
        const float g =
            std::nextafter(f, d > f ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
        if (std::isfinite(g)) c.tie = (static_cast<double>(f) + static_cast<double>(g)) / 2 == d;
      }
      return c;
    }
  }
  return c;
}

Outcome probe_group(const Scheme& s, std::span<const uint32_t> x, GroupProbe& out) {
  out = GroupProbe{};
  float amax = 0;
  for (uint32_t w : x) {
    if (is_nonfinite_f32(w)) return Outcome::Nonfinite;
    amax = std::max(amax, f32_of(w & 0x7fffffffu));
  }
  out.amax = word_of(amax);
  out.codes.assign(x.size(), 0);
  if (amax == 0) return Outcome::Ok;
  const float raw = amax / static_cast<float>(s.qmax);
  out.raw = word_of(raw);
  uint16_t h = f16_of_f32(out.raw);
  if (h == 0) {
    h = 1;
    out.rescued = true;
  }
  if (h == 0x7c00) return Outcome::ScaleOverflow;
  out.scale16 = h;
  const float inv = 1.0f / f32_of(f32_of_f16(h));
  out.inv = word_of(inv);
  for (size_t i = 0; i < x.size(); ++i) {
    const float v = f32_of(x[i]) * inv;
    const auto r = static_cast<int64_t>(std::nearbyint(v));
    out.norm.push_back(word_of(v));
    out.rounded.push_back(static_cast<int32_t>(r));
    out.codes[i] = clamp_code(r, s.qmin, s.qmax);
  }
  return Outcome::Ok;
}

std::optional<VariantResult> probe_variant(Variant v, const Scheme& s, std::span<const uint32_t> x) {
  VariantResult out;
  out.codes.assign(x.size(), 0);
  float amax = 0;
  bool any = false;
  for (uint32_t w : x) {
    if (is_nonfinite_f32(w)) return std::nullopt;
    const float a = v == Variant::SignedMax ? f32_of(w) : f32_of(w & 0x7fffffffu);
    amax = any ? std::max(amax, a) : a;
    any = true;
  }
  if (v == Variant::SignedMax && amax < 0) return std::nullopt;  // a negative scale: rejected
  if (amax == 0) {
    out.scales.push_back(0);
    return out;
  }
  // 2^(b-1): |qmin| for Q4/Q5/Q6, 128 for W8 (whose qmin is -127).
  const int32_t den = v != Variant::QminDenominator ? s.qmax : s.qmin == -127 ? 128 : -s.qmin;
  const int32_t lo = (v == Variant::NoClampW8 && s.qmin == -127) ? -128 : s.qmin;
  uint16_t h;
  if (v == Variant::Binary64) {
    h = f16_of_f64(static_cast<double>(amax) / den);
  } else if (v == Variant::SingleRounding) {
    h = f16_of_exact_ratio(word_of(amax), den);
  } else {
    h = f16_of_f32(word_of(amax / static_cast<float>(den)));
  }
  if (h == 0) h = 1;
  if (h == 0x7c00) return std::nullopt;
  out.scales.push_back(h);
  float sc = f32_of(f32_of_f16(h));
  if (v == Variant::Bf16Scale) sc = f32_of(bf16_round_f32(word_of(sc)));
  const float inv = 1.0f / sc;
  const double inv64 = 1.0 / static_cast<double>(sc);
  for (size_t i = 0; i < x.size(); ++i) {
    const float xi = f32_of(x[i]);
    double r;
    if (v == Variant::Binary64) {
      r = std::nearbyint(static_cast<double>(xi) * inv64);
    } else {
      const float n = v == Variant::DirectDivision ? xi / sc : xi * inv;
      if (v == Variant::TiesAway) {
        r = std::round(n);
      } else if (v == Variant::HalfUp) {
        const float fl = std::floor(n);
        r = (n - fl >= 0.5f) ? fl + 1.0 : fl;
      } else {
        r = std::nearbyint(n);
      }
    }
    out.codes[i] = clamp_code(static_cast<int64_t>(r), lo, s.qmax);
  }
  return out;
}

const std::map<std::string, std::string>& tag_meanings() {
  static const std::map<std::string, std::string> k{
      {"amax-abs",
       "a signed max (max(x) instead of max(|x|)) would pick a different scale: the most negative value has the "
       "largest magnitude"},
      {"bf16-scale", "passing the scale through bfloat16 before the reciprocal would change a code"},
      {"binary64",
       "computing the steps in binary64 (one rounding to binary16, x*(1/s) in binary64) would change a scale or code"},
      {"clamp", "integral rounding leaves [qmin, qmax]: the clamp after rounding is needed (a rounded-down scale)"},
      {"double-rounding",
       "rounding amax/qmax once to binary16 would give a different scale than the f32-then-f16 order"},
      {"encode-chain",
       "a chain of spec 12's last item: the canonical encoder's output for these sources is the input of the "
       "dequantize.<FMT> record with the same comment (a partial final group of every residue K mod G, "
       "rescued and clamped): catches an encoder and decoder that agree with each other but not with spec 7 and 6.2"},
      {"example", "a worked example of examples.md: catches a misreading of spec 7"},
      {"f16-tie",
       "raw_scale32 lies exactly halfway between two binary16 values: catches ties-away or truncation in f32->f16"},
      {"f64-overflow", "a finite binary64 source overflows binary32: must fail nonfinite, not saturate"},
      {"f64-carry",
       "a binary64 source whose binary32 rounding carries into the exponent (the significand rounds up to the "
       "next power of two) below the overflow threshold: catches a conversion that drops the carry"},
      {"f64-tie", "a binary64 source exactly halfway between two binary32 values: catches non-RNE f64->f32"},
      {"f64-underflow", "a nonzero binary64 source rounds to binary32 zero and counts as zero"},
      {"multi-group", "more than one group per row: catches groups that share or leak state"},
      {"multi-row", "more than one row: catches groups crossing rows"},
      {"near-f16-tie", "raw_scale32 is one binary32 step from a binary16 tie: catches sloppy scale rounding"},
      {"neg-zero", "a zero group containing -0: catches sign handling of zero (scale must be +0)"},
      {"nonfinite", "a NaN or infinity (after conversion) in a group: must fail, never quantize"},
      {"overflow", "round_f16(raw_scale32) overflows: must fail scale-overflow, not clip"},
      {"overflow-edge", "the largest amax that still encodes (one binary32 step below the overflow threshold)"},
      {"partial-group", "K is not a multiple of G: the final group's scale comes from its logical values only"},
      {"qmax-denominator", "dividing amax by |qmin| (8/16/32/128) instead of qmax would change the result"},
      {"qmin", "a code equal to qmin (Q4/Q5/Q6): catches a symmetric clamp to -qmax"},
      {"random", "seeded random group (SplitMix64): broad coverage of ordinary values"},
      {"recip-vs-div", "round_f32(x/scale32) picks a different code than round_f32(x*inv32): catches direct division"},
      {"rescue", "a nonzero amax whose scale rounds to binary16 zero: the 2^-24 rescue (0x0001)"},
      {"src-bf16", "sources given as BF16 words: catches a wrong BF16->binary32 expansion"},
      {"src-f16", "sources given as binary16 words: catches a wrong binary16->binary32 expansion"},
      {"src-f64", "sources given as binary64 words: catches a wrong f64->f32 conversion"},
      {"subnormal-scale", "a binary16 subnormal scale: catches FTZ or a missing subnormal path in f32->f16"},
      {"subnormal-source", "binary32 subnormal sources: catches FTZ/DAZ"},
      {"tie", "a normalized32 exactly k+0.5: catches non-even integral rounding"},
      {"tie-even", "half-away or half-up integral rounding would change a code"},
      {"w8-no-m128", "W8 integral rounding reaches -128: the clamp must stop at -127"},
      {"zero", "an all-zero group: scale +0 and zero codes, handled before the reciprocal"},
  };
  return k;
}

std::vector<std::string> derived_tags(const Scheme& s, const EncodeCase& c) {
  std::set<std::string> t;
  if (c.src == Src::BF16) t.insert("src-bf16");
  if (c.src == Src::F16) t.insert("src-f16");
  if (c.src == Src::F64) t.insert("src-f64");
  if (c.k % s.group != 0) t.insert("partial-group");
  if (c.k > s.group) t.insert("multi-group");
  if (c.rows > 1) t.insert("multi-row");
  std::vector<uint32_t> x;
  bool nonfinite = false;
  for (uint64_t w : c.src_words) {
    const Converted cv = to_f32(c.src, w);
    if (cv.overflow) t.insert("f64-overflow");
    if (cv.underflow) t.insert("f64-underflow");
    if (cv.tie) t.insert("f64-tie");
    if (cv.carry) t.insert("f64-carry");
    if (!cv.f32) {
      nonfinite = true;
      x.push_back(0x7fc00000u);
      continue;
    }
    if (is_subnormal_f32(*cv.f32)) t.insert("subnormal-source");
    x.push_back(*cv.f32);
  }
  if (nonfinite) t.insert("nonfinite");
  const std::pair<Variant, const char*> variants[] = {
      {Variant::DirectDivision, "recip-vs-div"},
      {Variant::Binary64, "binary64"},
      {Variant::Bf16Scale, "bf16-scale"},
      {Variant::QminDenominator, "qmax-denominator"},
      {Variant::SingleRounding, "double-rounding"},
      {Variant::TiesAway, "tie-even"},
      {Variant::HalfUp, "tie-even"},
      {Variant::SignedMax, "amax-abs"},
      {Variant::NoClampW8, "w8-no-m128"},
  };
  // Spec 7 converts every source first: a non-finite one fails the whole tensor, and no reading of
  // the later steps, nor any other source's conversion, can change that result (lint checks it).
  if (nonfinite) {
    t.erase("f64-tie");
    t.erase("f64-carry");
    t.erase("f64-underflow");
    t.erase("subnormal-source");
    return {t.begin(), t.end()};
  }
  // The whole tensor as spec 7 encodes it, and as each wrong reading would: a variant's tag is
  // true only if the tensor's result (outcome, every scale, every code) changes.
  struct Whole {
    bool fails = false;
    std::vector<uint16_t> scales;
    std::vector<int32_t> codes;
    bool operator==(const Whole& o) const {
      return fails == o.fails && (fails || (scales == o.scales && codes == o.codes));
    }
  };
  auto each_group = [&](auto&& fn) {
    for (uint64_t r = 0; r < c.rows; ++r)
      for (uint64_t g0 = 0; g0 < c.k; g0 += s.group) {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(s.group, c.k - g0));
        if (!fn(std::span<const uint32_t>(x.data() + r * c.k + g0, n))) return;
      }
  };
  Whole right;
  std::set<std::string> group_tags;
  each_group([&](std::span<const uint32_t> grp) {
    GroupProbe p;
    if (probe_group(s, grp, p) == Outcome::ScaleOverflow) {
      right.fails = true;
      return false;
    }
    right.scales.push_back(p.scale16);
    right.codes.insert(right.codes.end(), p.codes.begin(), p.codes.end());
    if (p.amax == 0) {
      group_tags.insert("zero");
      if (std::any_of(grp.begin(), grp.end(), [](uint32_t w) { return w == 0x80000000u; }))
        group_tags.insert("neg-zero");
      return true;
    }
    if (p.rescued) group_tags.insert("rescue");
    if (p.scale16 < 0x400) group_tags.insert("subnormal-scale");
    if (is_f16_midpoint(p.raw)) group_tags.insert("f16-tie");
    for (size_t i = 0; i < grp.size(); ++i) {
      const float v = f32_of(p.norm[i]);
      if (v - std::floor(v) == 0.5f) group_tags.insert("tie");
      if (p.rounded[i] > s.qmax || p.rounded[i] < s.qmin) group_tags.insert("clamp");
      if (p.codes[i] == s.qmin && s.qmin != -127) group_tags.insert("qmin");
    }
    return true;
  });
  // A failing tensor's groups before the failure cannot change its result: their classes are not
  // tagged, only the overflow itself.
  if (right.fails) t.insert("overflow");
  else t.insert(group_tags.begin(), group_tags.end());
  for (const auto& variant : variants) {
    const Variant v = variant.first;  // not a structured binding: clang 14 cannot capture one
    const char* const tag = variant.second;
    Whole alt;
    each_group([&](std::span<const uint32_t> grp) {
      const auto a = probe_variant(v, s, grp);
      if (!a) {
        alt.fails = true;
        return false;
      }
      alt.scales.push_back(a->scales[0]);
      alt.codes.insert(alt.codes.end(), a->codes.begin(), a->codes.end());
      return true;
    });
    if (!(alt == right)) t.insert(tag);
  }
  return {t.begin(), t.end()};
}

}  // namespace nc::gen::encsearch
