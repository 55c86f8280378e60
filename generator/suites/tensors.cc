// Whole-tensor rules (spec 4 to 6, 3.3, 3.4): validate-tensor and dequantize per quantized
// format over geometries (K not a multiple of G, rank 1 to 3 for grouped, rank 2 for NVFP4 and
// FP8 row), bad plane sizes, the zero-scale rule, bad scales, illegal codes and NVFP4 divisors;
// NVFP4 K not a multiple of 16 (a shape error, spec 3.3); two or more violations in different
// groups, rows and planes (the check order decides, not the position); subnormal scales and
// subnormal results in every dequantize suite; for NVFP4 dequantize, every code and valid block
// scale over each divisor of reconstruct.NVFP4.
// Tensor contents are seeded (SplitMix64); every expectation from oracle::validate_tensor and
// oracle::dequantize.
#include <algorithm>
#include <stdexcept>

#include "generator/suites/common.h"
#include "oracle/maxabs_f16_recip_rne_v1.h"
#include "oracle/validity.h"

namespace nc::gen {
namespace {

using oracle::Tensor;

std::string shape_text(const std::vector<uint64_t>& s) {
  std::vector<std::string> p;
  for (auto e : s) p.push_back(std::to_string(e));
  return join(p, 'x');
}
std::string plane_text(const std::vector<uint32_t>& words, int digits) {
  if (words.empty()) return "-";
  std::vector<std::string> p;
  for (auto w : words) p.push_back(hex_word(w, digits));
  return join(p, ',');
}

struct Geometry {
  Format f;
  int code_digits, scale_digits;
  uint64_t group;  // elements per scale along K; 0 = one per row
};
Geometry geometry(Format f) {
  const auto& fi = info(f);
  return {f, word_hex_digits(fi.code), fi.scale ? word_hex_digits(*fi.scale) : 4, fi.group_size};
}

uint64_t scale_count(const Geometry& g, const std::vector<uint64_t>& shape) {
  uint64_t lead = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) lead *= shape[i];
  uint64_t k = shape.back();
  return g.group ? lead * ((k + g.group - 1) / g.group) : lead;
}

// A valid random tensor of the given shape.
Tensor random_tensor(const Geometry& g, const std::vector<uint64_t>& shape, SplitMix64& r) {
  Tensor t;
  t.shape = shape;
  uint64_t n = 1;
  for (auto e : shape) n *= e;
  const uint32_t code_bits = info(info(g.f).code).bits;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t c;
    do c = static_cast<uint32_t>(r.below(1ull << code_bits));
    while (!oracle::word_rule(g.f, Component::Code, c).empty());
    t.codes.push_back(c);
  }
  for (uint64_t i = 0, m = scale_count(g, shape); i < m; ++i) {
    uint32_t s;
    if (g.f == Format::NVFP4) s = static_cast<uint32_t>(r.below(0x7f));                                 // E4M3FN 00..7e
    else if (g.f == Format::FP8_E4M3FN_ROW_BF16S) s = static_cast<uint32_t>(0x3800 + r.below(0x1000));  // BF16 near 1
    else s = static_cast<uint32_t>(0x1000 + r.below(0x4000));  // binary16, normal
    t.scales.push_back(s);
  }
  if (g.f == Format::NVFP4) t.divisor = 0x3fc00000u;  // 1.5
  return t;
}

std::vector<std::vector<uint64_t>> valid_shapes(const Geometry& g) {
  if (g.f == Format::NVFP4) return {{1, 16}, {2, 32}, {3, 16}, {2, 48}, {1, 32}, {4, 16}};
  if (g.f == Format::FP8_E4M3FN_ROW_BF16S) return {{1, 1}, {1, 7}, {3, 4}, {4, 33}};
  const uint64_t G = g.group;
  return {{1}, {G}, {G - 1}, {G + 1}, {2 * G}, {2 * G + 3}, {3, G + 5}, {2, 1}, {2, 2, G}, {2, 3, 7}, {1, 1, 1}};
}

// A positive subnormal scale word (exponent field 0, fraction != 0) of the format's scale type.
bool subnormal_scale(Format f, uint32_t w) {
  if (f == Format::NVFP4) return w != 0 && w < 0x08;
  if (f == Format::FP8_E4M3FN_ROW_BF16S) return w != 0 && w < 0x0080;
  return w != 0 && w < 0x0400;
}

SuiteInfo tensor_info(Format f, bool deq) {
  std::string n(info(f).name);
  SuiteInfo s{
      (deq ? "dequantize." : "validate-tensor.") + n,
      (deq ? "dequantize " : "validate-tensor ") + n,
      deq ? "Valid " + n + " tensors of several geometries dequantized to binary32, row-major."
          : n + " tensors at the logical-word boundary: valid geometries and each rule broken, with its location.",
      f == Format::NVFP4                  ? "3.3"
      : f == Format::FP8_E4M3FN_ROW_BF16S ? "3.4"
                                          : "4,5,6",
      {},
      {}};
  s.tags = {
      {"partial-group", "K is not a multiple of the group size: catches a missing or padded final group."},
      {"rank-1", "a rank-1 tensor."},
      {"rank-2", "a rank-2 tensor."},
      {"rank-3", "a rank-3 tensor: catches flattening only the last two axes."},
      {"bad-scale-count", "the scale plane has the wrong number of words: catches unchecked plane sizes."},
      {"bad-code-count", "the code plane has the wrong number of words: catches unchecked plane sizes."},
      {"bad-rank", "a rank the format does not allow: catches accepting any rank."},
      {"zero-extent",
       "an extent of 0 where the spec asks a positive one (a grouped K, spec 4; an FP8 row dimension, 3.4): "
       "catches empty tensors accepted as valid."},
      {"divisor-presence", "a divisor given where none belongs, or missing for NVFP4."},
      {"divisor", "an NVFP4 divisor that is zero, negative, infinite or NaN."},
      {"zero-scale", "a +0 scale: codes in its group or row must be zero; catches an unchecked zero-scale rule."},
      {"bad-scale", "a negative, -0, infinite or NaN scale: catches unchecked scale words."},
      {"illegal-code", "an illegal code word (W8 0x80, E4M3FN NaN): catches unchecked codes."},
      {"order", "two violations: the first in check order (shape, divisor, scales, codes) must be reported."},
      {"cross-group-order",
       "violations in different groups or rows, the later one earlier in check order (a bad scale after a code "
       "violation): catches a one-pass validator that checks scale g, the codes of g, then scale g+1."},
      {"same-rule-twice",
       "the same rule broken at two places: the first in row-major order is named; catches reporting the last."},
      {"nan-scale", "a NaN scale word inside a tensor (positive NaN: scale-nonfinite; negative: scale-negative)."},
      {"nan-code",
       "an E4M3FN NaN code word (0x7f or 0xff) inside an FP8 row tensor: catches a sign-blind or missing NaN check."},
      {"subnormal-scale", "subnormal scale words: catches a bulk path that reads them as zero (DAZ)."},
      {"subnormal-result",
       "some results are binary32 subnormals: catches a bulk path that flushes them to zero (FTZ)."},
  };
  if (is_grouped_int(f) && !deq)
    s.tags["negative-code"] =
        "the most negative legal code in a +0-scale group (the sign bit alone; W8: -127): catches a "
        "zero test that ignores the sign bit, as E4M3FN's two zero words invite, or that rejects "
        "positive codes only.";
  if (f == Format::NVFP4 && deq)
    s.tags["code-scale-grid"] =
        "every E2M1 code times every valid block scale over one divisor, each row one scale: "
        "catches folding d_w into the block scale first (two roundings), and saturating or "
        "flushing at the ends of the binary32 range.";
  if (is_grouped_int(f) && deq)
    s.tags["encode-chain"] =
        "codes and scales are the canonical encoder's output (spec 7) for the sources of the "
        "encode." +
        n +
        " record with the same comment: a partial final group of every residue "
        "K mod G, nonzero, rescued and clamped (spec 12's last item); catches a decoder that "
        "mishandles a partial group of some length.";
  if (f == Format::NVFP4)
    s.tags["partial-block"] =
        "K is not a multiple of 16, a shape error (spec 3.3: every K-axis group holds 16 codes): catches "
        "accepting a short final block as the grouped schemes' partial group.";
  return s;
}

void add_tensor(SuiteBuilder& b, const Geometry& g, bool deq, const Tensor& t, std::vector<std::string> tags,
                const std::string& why) {
  oracle::Violation v = oracle::validate_tensor(g.f, t);
  if (deq && !v.valid()) return;  // dequantize suites hold valid tensors only
  tags.push_back("rank-" + std::to_string(std::min<size_t>(t.shape.size(), 3)));
  if (g.group && t.shape.back() % g.group) tags.push_back(g.f == Format::NVFP4 ? "partial-block" : "partial-group");
  if (v.valid()) {
    // Class tags from the values themselves, so every subnormal scale and result is marked.
    for (uint32_t w : t.scales)
      if (subnormal_scale(g.f, w)) {
        tags.push_back("subnormal-scale");
        break;
      }
  }
  Case c{{shape_text(t.shape), plane_text(t.codes, g.code_digits), plane_text(t.scales, g.scale_digits),
          t.divisor ? hex_word(*t.divisor, 8) : "-"},
         "",
         {},
         {},
         tags,
         why};
  if (deq) {
    oracle::Context ctx;
    std::vector<std::string> out;
    bool subnormal_result = false;
    for (uint32_t w : oracle::dequantize(ctx, g.f, t)) {
      out.push_back(hex_word(w, 8));
      subnormal_result |= (w & 0x7fffffffu) != 0 && (w & 0x7f800000u) == 0;
    }
    if (subnormal_result) c.tags.push_back("subnormal-result");
    c.expect = join(out, ',');
  } else {
    c.expect = v.text();
  }
  b.add(std::move(c));
}

// Scale words of the format's scale type: -1, the positive non-finite words (grouped and FP8 row:
// +inf and two positive NaNs; NVFP4: its positive NaN 0x7f) and a valid 1.0.
struct ScaleWords {
  uint32_t one, minus_one, neg_zero;
  std::vector<uint32_t> nonfinite;
};
ScaleWords scale_words(Format f) {
  if (f == Format::NVFP4) return {0x38, 0xb8, 0x80, {0x7f}};
  if (f == Format::FP8_E4M3FN_ROW_BF16S) return {0x3f80, 0xbf80, 0x8000, {0x7f80, 0x7fc0, 0x7f81}};
  return {0x3c00, 0xbc00, 0x8000, {0x7c00, 0x7e00, 0x7c01}};
}

// Valid tensors with subnormal scale words (every dequantize suite), and NVFP4 / FP8 row tensors
// whose results are binary32 subnormals (a grouped result never is: the smallest binary16 scale
// 2^-24 times a nonzero code is a binary32 normal).
void subnormal_cases(SuiteBuilder& b, const Geometry& g, bool deq, SplitMix64& r) {
  const Format f = g.f;
  auto fill = [&](Tensor& t, uint32_t lo, uint32_t hi) {  // scales uniform in [lo, hi]
    for (uint32_t& w : t.scales) w = lo + static_cast<uint32_t>(r.below(hi - lo + 1));
  };
  if (is_grouped_int(f)) {
    for (const auto& shape : {std::vector<uint64_t>{2, g.group + 3}, std::vector<uint64_t>{g.group}}) {
      Tensor t = random_tensor(g, shape, r);
      fill(t, 0x0001, 0x03ff);
      add_tensor(b, g, deq, t, {}, "binary16 subnormal scales");
    }
    Tensor t = random_tensor(g, {1, g.group}, r);
    t.scales = {0x0001};
    add_tensor(b, g, deq, t, {}, "smallest subnormal scale 2^-24");
  } else if (f == Format::NVFP4) {
    Tensor t = random_tensor(g, {2, 32}, r);
    fill(t, 0x01, 0x07);
    add_tensor(b, g, deq, t, {}, "E4M3FN subnormal block scales");
    for (uint32_t d : {0x7f000000u /*2^127*/, 0x7e000000u /*2^125*/}) {
      Tensor u = random_tensor(g, {2, 32}, r);
      fill(u, 0x01, 0x3f);
      u.divisor = d;
      add_tensor(b, g, deq, u, {}, "small block scales over a large divisor " + hex_word(d, 8) + ": subnormal results");
    }
  } else {
    Tensor t = random_tensor(g, {3, 8}, r);
    fill(t, 0x0001, 0x007f);
    add_tensor(b, g, deq, t, {}, "BF16 subnormal row scales: subnormal results");
    Tensor u = random_tensor(g, {2, 8}, r);
    u.scales = {0x0080, 0x0100};  // 2^-126, 2^-125: a code below 1 gives a subnormal product
    add_tensor(b, g, deq, u, {}, "smallest normal row scales: products below 1 are subnormal");
  }
}

// Spec 3.3: W = decode_e2m1(c) * decode_e4m3fn(s) / d_w, exact, rounded once. One [127, 16]
// tensor per divisor of reconstruct.NVFP4: row n has the n-th valid block scale word (0x00 to
// 0x7e) and the 16 E2M1 codes, so a bulk path meets every product reconstruct checks one by one.
void code_scale_grid(SuiteBuilder& b, const Geometry& g) {
  for (uint32_t d : kNvfp4Divisors) {
    Tensor t;
    for (uint32_t scale = 0; scale < 0x100; ++scale) {
      if (!oracle::word_rule(Format::NVFP4, Component::Scale, scale).empty()) continue;
      t.scales.push_back(scale);
      for (uint32_t code = 0; code < 16; ++code) t.codes.push_back(code);
    }
    t.shape = {t.scales.size(), 16};
    t.divisor = d;
    add_tensor(b, g, true, t, {"code-scale-grid"}, "every code and valid block scale over divisor " + hex_word(d, 8));
  }
}

// Spec 12's last item: canonical quantization (the oracle's MAXABS_F16_RECIP_RNE_V1) of the chain
// sources (common.h), then their exact decode. The same sources are encode.<FMT> records.
void encode_chain_cases(SuiteBuilder& b, const Geometry& g) {
  oracle::Context ctx;
  const uint32_t code_mask = (1u << info(info(g.f).code).bits) - 1;
  for (const ChainSource& ch : chain_sources(g.f)) {
    const std::vector<uint64_t> src(ch.src.begin(), ch.src.end());
    const oracle::EncodeResult e =
        oracle::encode_maxabs_f16_recip_rne_v1(ctx, g.f, oracle::SourceType::FP32, ch.rows, ch.k, src);
    if (e.failure != oracle::EncodeFailure::None) throw std::logic_error("encode chain fails: " + ch.what);
    Tensor t;
    t.shape = ch.rows == 1 ? std::vector<uint64_t>{ch.k} : std::vector<uint64_t>{ch.rows, ch.k};
    t.scales = e.scales;
    for (int32_t q : e.codes) t.codes.push_back(uint32_t(q) & code_mask);
    add_tensor(b, g, true, t, {"encode-chain"}, ch.what);
  }
}

// NVFP4 K not a multiple of 16 (spec 3.3): a shape error whatever the planes hold, checked before
// the divisor and the scales.
void partial_block_cases(SuiteBuilder& b, const Geometry& g, SplitMix64& r) {
  for (const auto& shape : std::vector<std::vector<uint64_t>>{{1, 1}, {1, 15}, {1, 17}, {2, 33}, {3, 5}, {2, 8}}) {
    Tensor t = random_tensor(g, shape, r);  // ceil(K/16) scales per row: a "partial final block"
    add_tensor(b, g, false, t, {},
               "K = " + std::to_string(shape[1]) + " with ceil(K/16) scales: no partial block in NVFP4");
    if (shape[1] > 16) {
      Tensor fl = t;
      fl.scales.resize(shape[0] * (shape[1] / 16));
      add_tensor(b, g, false, fl, {}, "K = " + std::to_string(shape[1]) + " with floor(K/16) scales");
    }
    Tensor d = t;
    d.divisor = 0x00000000u;
    add_tensor(b, g, false, d, {"divisor", "order"}, "partial block and a zero divisor: shape comes first");
    Tensor sc = t;
    sc.scales.back() = 0xb8;
    add_tensor(b, g, false, sc, {"bad-scale", "order"}, "partial block and a negative scale: shape comes first");
  }
}

// Two or more violations in one tensor, in different groups, rows or planes: the check order
// (shape, divisor, every scale, every code) decides, then the row-major position.
void combination_cases(SuiteBuilder& b, const Geometry& g, SplitMix64& r) {
  const Format f = g.f;
  const ScaleWords sw = scale_words(f);
  const bool fp8 = f == Format::FP8_E4M3FN_ROW_BF16S;
  const std::vector<uint64_t> shape = f == Format::NVFP4 ? std::vector<uint64_t>{2, 32}
                                      : fp8              ? std::vector<uint64_t>{3, 4}
                                                         : std::vector<uint64_t>{2, g.group + 5};
  const uint64_t k = shape[1], span = g.group ? g.group : k, per_row = (k + span - 1) / span;
  const Tensor t = random_tensor(g, shape, r);
  const uint64_t last = t.scales.size() - 1;
  auto first_code = [&](uint64_t s) { return (s / per_row) * k + (s % per_row) * span; };
  auto bad = [&](std::vector<std::pair<uint64_t, uint32_t>> scales, std::vector<std::string> tags,
                 const std::string& why) {
    Tensor u = t;
    for (auto [i, w] : scales) u.scales[i] = w;
    tags.push_back("bad-scale");
    add_tensor(b, g, false, u, tags, why);
  };
  // Several bad scales: the first in row-major order is named, whatever its rule.
  bad({{1, sw.minus_one}, {last, sw.nonfinite[0]}}, {"order"}, "negative scale s1, non-finite last scale: s1 is named");
  bad({{1, sw.nonfinite[0]}, {last, sw.minus_one}}, {"order"}, "non-finite scale s1, negative last scale: s1 is named");
  bad({{1, sw.neg_zero}, {last, sw.minus_one}}, {"same-rule-twice"},
      "-0 scale s1 and -1 last scale: both scale-negative, s1 is named");
  bad({{0, sw.nonfinite.back()}, {1, sw.nonfinite[0]}, {last, sw.nonfinite[0]}}, {"same-rule-twice"},
      "three non-finite scales: s0 is named");
  for (uint32_t w : sw.nonfinite)
    if ((f == Format::NVFP4 || (w & 0x7fffu) > (fp8 ? 0x7f80u : 0x7c00u)))
      bad({{1, w}}, {"nan-scale"},
          "positive NaN scale " + hex_word(w, g.scale_digits) + " inside the tensor: scale-nonfinite");
  // Shape before everything; divisor before scales.
  Tensor sh = t;
  sh.scales.pop_back();
  sh.scales[0] = sw.minus_one;
  add_tensor(b, g, false, sh, {"bad-scale-count", "bad-scale", "order"},
             "a scale missing and a negative scale: shape first");
  Tensor cc = t;
  cc.codes.push_back(0);
  cc.scales[1] = sw.nonfinite[0];
  add_tensor(b, g, false, cc, {"bad-code-count", "bad-scale", "order"},
             "a code too many and a non-finite scale: shape first");
  if (f == Format::NVFP4) {
    Tensor sd = t;
    sd.scales.push_back(sw.one);
    sd.divisor = 0xbf800000u;
    add_tensor(b, g, false, sd, {"bad-scale-count", "divisor", "order"},
               "a scale too many and divisor -1: shape first");
    for (uint32_t d : {0x00000000u, 0x7fc00000u}) {
      Tensor ds = t;
      ds.divisor = d;
      ds.scales[0] = sw.minus_one;
      ds.scales[last] = sw.nonfinite[0];
      add_tensor(b, g, false, ds, {"divisor", "bad-scale", "order"},
                 "divisor " + hex_word(d, 8) + " and bad scales: the divisor first");
    }
    return;  // NVFP4 codes are all valid and it has no zero-scale rule
  }
  // A code violation in an earlier group or row, a bad scale in a later one: the scale is named.
  auto zero_group = [&](Tensor& u, uint64_t s) {
    u.scales[s] = 0;
    for (uint64_t i = first_code(s), e = std::min(first_code(s) + span, (s / per_row + 1) * k); i < e; ++i)
      u.codes[i] = 0;
  };
  const uint32_t nonzero_code = fp8 ? 0x38 : 0x01;
  const uint64_t s_next = 1, s_row1 = per_row;  // the next group of row 0, the first of row 1
  {
    Tensor u = t;
    zero_group(u, 0);
    u.codes[first_code(0) + 1] = nonzero_code;
    u.scales[s_next] = sw.minus_one;
    add_tensor(b, g, false, u, {"zero-scale", "bad-scale", "cross-group-order"},
               fp8 ? "zero-scale-codes in row 0, negative scale in row 1: the scale is named"
                   : "zero-scale-codes in group 0, negative scale in the next group of the row: the scale is named");
    Tensor v = t;
    zero_group(v, 0);
    v.codes[first_code(0)] = nonzero_code;
    v.scales[last] = sw.nonfinite[0];
    add_tensor(b, g, false, v, {"zero-scale", "bad-scale", "cross-group-order"},
               "zero-scale-codes in row 0, non-finite scale in the last row: the scale is named");
  }
  if (f == Format::W8G32_F16S || fp8) {
    const uint32_t illegal = fp8 ? 0x7f : 0x80;
    Tensor u = t;
    u.codes[first_code(0)] = illegal;
    u.scales[s_row1] = sw.neg_zero;
    add_tensor(b, g, false, u, {"illegal-code", "bad-scale", "cross-group-order"},
               fp8 ? "illegal code in row 0, -0 scale in row 1: the scale is named"
                   : "illegal code in group 0, -0 scale in row 1: the scale is named");
    // The illegal word inside a +0-scale group: word validity is checked before the zero-scale rule.
    Tensor z = t;
    zero_group(z, 0);
    z.codes[first_code(0) + 2] = illegal;
    add_tensor(b, g, false, z, {"zero-scale", "illegal-code", "order"},
               std::string("illegal code inside a zero-scale ") + (fp8 ? "row" : "group") + ": code-illegal");
    Tensor z2 = z;
    z2.codes[first_code(0) + 1] = nonzero_code;
    add_tensor(b, g, false, z2, {"zero-scale", "illegal-code", "order"},
               std::string("a nonzero code, then an illegal code, in a zero-scale ") + (fp8 ? "row" : "group") +
                   ": zero-scale-codes at the first");
    Tensor z3 = z;
    z3.codes[first_code(0) + 3] = nonzero_code;
    add_tensor(b, g, false, z3, {"zero-scale", "illegal-code", "order"},
               std::string("an illegal code, then a nonzero code, in a zero-scale ") + (fp8 ? "row" : "group") +
                   ": code-illegal at the first");
    Tensor two = t;
    two.codes[first_code(0) + 1] = illegal;
    two.codes[first_code(last)] = illegal;
    add_tensor(b, g, false, two, {"illegal-code", "same-rule-twice"}, "two illegal codes: the first is named");
  }
  if (fp8) {
    // The negative NaN code word, alone and against the zero-scale rule of another row.
    Tensor n = t;
    n.codes[k + 1] = 0xff;
    add_tensor(b, g, false, n, {"illegal-code", "nan-code"}, "negative NaN code 0xff in row 1");
    Tensor nz = n;
    zero_group(nz, 0);
    nz.codes[2] = 0x01;
    add_tensor(b, g, false, nz, {"illegal-code", "nan-code", "zero-scale", "order"},
               "zero-scale-codes in row 0 before a NaN code in row 1: the earlier code is named");
    Tensor zn = t;
    zero_group(zn, 2);
    zn.codes[2 * k + 1] = 0x01;
    zn.codes[1] = 0xff;
    add_tensor(b, g, false, zn, {"illegal-code", "nan-code", "zero-scale", "order"},
               "NaN code in row 0 before zero-scale-codes in row 2: the NaN code is named");
    Tensor zneg = t;
    zero_group(zneg, 1);
    zneg.codes[k] = 0xff;
    add_tensor(b, g, false, zneg, {"illegal-code", "nan-code", "zero-scale"},
               "negative NaN code in a zero-scale row: code-illegal");
    Tensor all = n;
    zero_group(all, 0);
    all.codes[1] = 0x80 | 0x38;
    all.scales[2] = sw.nonfinite[1];
    add_tensor(b, g, false, all, {"illegal-code", "nan-code", "zero-scale", "bad-scale", "cross-group-order"},
               "zero-scale-codes row 0, NaN code row 1, NaN scale row 2: the scale is named");
  }
  // The same code rule broken in two groups: the first.
  Tensor twice = t;
  zero_group(twice, 0);
  zero_group(twice, last);
  twice.codes[first_code(last)] = nonzero_code;
  twice.codes[first_code(0) + 1] = nonzero_code;
  add_tensor(b, g, false, twice, {"zero-scale", "same-rule-twice"},
             fp8 ? "zero-scale-codes in the first and last row: the first is named"
                 : "zero-scale-codes in the first and last group: the first is named");
}

void tensor_build(Format f, bool deq, SuiteBuilder& b) {
  const Geometry g = geometry(f);
  SplitMix64 r(suite_seed(b.info().name));
  const bool grouped = is_grouped_int(f);
  const uint32_t zero_scale = 0x0000, neg_zero_scale = f == Format::NVFP4 ? 0x80 : 0x8000;
  for (const auto& shape : valid_shapes(g)) {
    Tensor t = random_tensor(g, shape, r);
    add_tensor(b, g, deq, t, {}, "valid tensor");
    // Zero-scale rule: zero codes in a +0-scale group/row are valid, one nonzero code is not.
    if (f != Format::NVFP4) {
      Tensor z = t;
      z.scales[0] = zero_scale;
      const uint64_t span = g.group ? std::min<uint64_t>(g.group, shape.back()) : shape.back();
      for (uint64_t i = 0; i < span; ++i) z.codes[i] = (f == Format::FP8_E4M3FN_ROW_BF16S && i % 2) ? 0x80 : 0x00;
      add_tensor(
          b, g, deq, z, {"zero-scale"},
          f == Format::FP8_E4M3FN_ROW_BF16S ? "zero row scale with +0 and -0 codes" : "zero scale with zero codes");
      Tensor bad = z;
      bad.codes[span - 1] = 0x01;
      add_tensor(b, g, deq, bad, {"zero-scale"}, "zero scale with a nonzero code");
      if (grouped) {
        // Spec 6.1: "every logical code in that group must be zero"; the sign bit alone is -2^(b-1),
        // not a zero (W8's 0x80 is illegal, so its most negative legal code, 0x81).
        Tensor neg = z;
        const uint32_t bits = info(info(f).code).bits;
        neg.codes[span - 1] = f == Format::W8G32_F16S ? 0x81 : 1u << (bits - 1);
        add_tensor(b, g, deq, neg, {"zero-scale", "negative-code"}, "zero scale with the most negative legal code");
      }
    } else {
      Tensor z = t;
      z.scales[0] = zero_scale;
      add_tensor(b, g, deq, z, {"zero-scale"}, "NVFP4 has no zero-scale rule: a +0 block scale is valid");
    }
    if (deq) continue;
    Tensor s1 = t;
    s1.scales.pop_back();
    add_tensor(b, g, deq, s1, {"bad-scale-count"}, "one scale missing");
    Tensor s2 = t;
    s2.scales.push_back(t.scales[0]);
    add_tensor(b, g, deq, s2, {"bad-scale-count"}, "one scale too many");
    Tensor c1 = t;
    c1.codes.pop_back();
    add_tensor(b, g, deq, c1, {"bad-code-count"}, "one code missing");
    Tensor n1 = t;
    n1.scales.back() = neg_zero_scale;
    add_tensor(b, g, deq, n1, {"bad-scale"}, "-0 scale");
    Tensor n2 = t;
    n2.scales.back() = f == Format::NVFP4 ? 0x7f : f == Format::FP8_E4M3FN_ROW_BF16S ? 0x7f80 : 0x7c00;
    add_tensor(b, g, deq, n2, {"bad-scale"}, f == Format::NVFP4 ? "NaN scale" : "infinite scale");
    Tensor n3 = t;
    n3.scales.back() = f == Format::NVFP4 ? 0xff : f == Format::FP8_E4M3FN_ROW_BF16S ? 0xffc1 : 0xfe01;
    add_tensor(b, g, deq, n3, {"bad-scale", "nan-scale"},
               "negative NaN scale: scale-negative, the sign bit is checked before finiteness");
    Tensor n4 = t;
    n4.scales.back() = f == Format::NVFP4 ? 0xb8 : f == Format::FP8_E4M3FN_ROW_BF16S ? 0xbf80 : 0xbc00;
    add_tensor(b, g, deq, n4, {"bad-scale"}, "negative scale -1");
    if (f == Format::W8G32_F16S || f == Format::FP8_E4M3FN_ROW_BF16S) {
      Tensor ic = t;
      ic.codes.back() = f == Format::W8G32_F16S ? 0x80 : 0x7f;
      add_tensor(b, g, deq, ic, {"illegal-code"}, "illegal code word in the last element");
      Tensor both = ic;
      both.scales.back() = neg_zero_scale;
      add_tensor(b, g, deq, both, {"illegal-code", "bad-scale", "order"},
                 "bad scale and illegal code: the scale is reported");
    }
    Tensor dv = t;
    dv.divisor = f == Format::NVFP4 ? std::nullopt : std::optional<uint32_t>(0x3f800000u);
    add_tensor(b, g, deq, dv, {"divisor-presence"},
               f == Format::NVFP4 ? "divisor missing" : "a divisor where none belongs");
    if (f == Format::NVFP4)
      for (uint32_t d : {0x00000000u, 0x80000000u, 0xbf800000u, 0x7f800000u, 0x7fc00000u, 0xffc00000u, 0x00000001u}) {
        Tensor td = t;
        td.divisor = d;
        add_tensor(b, g, deq, td, {"divisor"}, "divisor " + hex_word(d, 8));
      }
  }
  subnormal_cases(b, g, deq, r);
  if (deq && f == Format::NVFP4) code_scale_grid(b, g);
  if (deq && grouped) encode_chain_cases(b, g);
  if (deq) return;
  if (f == Format::NVFP4) partial_block_cases(b, g, r);
  combination_cases(b, g, r);
  // Ranks the format does not allow, and the zero extents the spec rules out: a grouped K ("a
  // positive K", spec 4) and either FP8 row dimension ("positive dimensions", 3.4). The spec says
  // nothing of a grouped tensor's leading extents or of NVFP4's N and K being positive, so no case
  // holds a zero there (FORMAT.md "Zero extents").
  using Shapes = std::vector<std::vector<uint64_t>>;
  const Shapes bad_shapes = grouped                             ? Shapes{{0}, {2, 0}}
                            : f == Format::FP8_E4M3FN_ROW_BF16S ? Shapes{{16}, {2, 2, 16}, {0, 16}, {1, 0}}
                                                                : Shapes{{16}, {2, 2, 16}};
  for (const auto& shape : bad_shapes) {
    Tensor t;
    t.shape = shape;
    uint64_t n = 1;
    for (auto e : shape) n *= e;
    t.codes.assign(n, 0);
    t.scales.assign(shape.empty() || shape.back() == 0 ? 0 : scale_count(g, shape), f == Format::NVFP4 ? 0x38
                                                                                    : f == Format::FP8_E4M3FN_ROW_BF16S
                                                                                        ? 0x3f80
                                                                                        : 0x3c00);
    if (f == Format::NVFP4) t.divisor = 0x3f800000u;
    const bool zero_extent = std::find(shape.begin(), shape.end(), 0) != shape.end();
    add_tensor(b, g, deq, t, {zero_extent ? "zero-extent" : "bad-rank"}, "shape " + shape_text(shape) + " not allowed");
  }
}

template <Format F, bool D>
SuiteInfo ti() {
  return tensor_info(F, D);
}
template <Format F, bool D>
void tb(SuiteBuilder& b) {
  tensor_build(F, D, b);
}

NC_SUITE((ti<Format::Q4G64_F16S, false>), (tb<Format::Q4G64_F16S, false>));
NC_SUITE((ti<Format::Q5G64_F16S, false>), (tb<Format::Q5G64_F16S, false>));
NC_SUITE((ti<Format::Q6G64_F16S, false>), (tb<Format::Q6G64_F16S, false>));
NC_SUITE((ti<Format::W8G32_F16S, false>), (tb<Format::W8G32_F16S, false>));
NC_SUITE((ti<Format::NVFP4, false>), (tb<Format::NVFP4, false>));
NC_SUITE((ti<Format::FP8_E4M3FN_ROW_BF16S, false>), (tb<Format::FP8_E4M3FN_ROW_BF16S, false>));
NC_SUITE((ti<Format::Q4G64_F16S, true>), (tb<Format::Q4G64_F16S, true>));
NC_SUITE((ti<Format::Q5G64_F16S, true>), (tb<Format::Q5G64_F16S, true>));
NC_SUITE((ti<Format::Q6G64_F16S, true>), (tb<Format::Q6G64_F16S, true>));
NC_SUITE((ti<Format::W8G32_F16S, true>), (tb<Format::W8G32_F16S, true>));
NC_SUITE((ti<Format::NVFP4, true>), (tb<Format::NVFP4, true>));
NC_SUITE((ti<Format::FP8_E4M3FN_ROW_BF16S, true>), (tb<Format::FP8_E4M3FN_ROW_BF16S, true>));

}  // namespace
}  // namespace nc::gen
