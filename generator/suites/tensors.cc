// Whole-tensor rules (spec 4 to 6, 3.3, 3.4): validate-tensor and dequantize per quantized
// format over geometries (K not a multiple of G, rank 1 to 3 for grouped, rank 2 for NVFP4 and
// FP8 row), bad plane sizes, the zero-scale rule, bad scales, illegal codes and NVFP4 divisors.
// Tensor contents are seeded (SplitMix64); every expectation from oracle::validate_tensor and
// oracle::dequantize.
#include <algorithm>

#include "generator/suites/common.h"
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
  return {f, hex_digits(fi.code), fi.scale ? hex_digits(*fi.scale) : 4, fi.group_size};
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
    if (g.f == Format::NVFP4) s = static_cast<uint32_t>(r.below(0x7f));                                        // E4M3FN 00..7e
    else if (g.f == Format::FP8_E4M3FN_ROW_BF16S) s = static_cast<uint32_t>(0x3800 + r.below(0x1000));        // BF16 near 1
    else s = static_cast<uint32_t>(0x1000 + r.below(0x4000));                                                 // binary16, normal
    t.scales.push_back(s);
  }
  if (g.f == Format::NVFP4) t.divisor = 0x3fc00000u;  // 1.5
  return t;
}

std::vector<std::vector<uint64_t>> valid_shapes(const Geometry& g) {
  if (g.f == Format::NVFP4) return {{1, 16}, {1, 1}, {1, 17}, {2, 33}, {3, 5}, {2, 48}};
  if (g.f == Format::FP8_E4M3FN_ROW_BF16S) return {{1, 1}, {1, 7}, {3, 4}, {4, 33}};
  const uint64_t G = g.group;
  return {{1}, {G}, {G - 1}, {G + 1}, {2 * G}, {2 * G + 3}, {3, G + 5}, {2, 1}, {2, 2, G}, {2, 3, 7}, {1, 1, 1}};
}

SuiteInfo tensor_info(Format f, bool deq) {
  std::string n(info(f).name);
  SuiteInfo s{(deq ? "dequantize." : "validate-tensor.") + n, (deq ? "dequantize " : "validate-tensor ") + n,
              deq ? "Valid " + n + " tensors of several geometries dequantized to binary32, row-major."
                  : n + " tensors at the logical-word boundary: valid geometries and each rule broken, with its location.",
              f == Format::NVFP4 ? "3.3" : f == Format::FP8_E4M3FN_ROW_BF16S ? "3.4" : "4,5,6", {}, {}};
  s.tags = {
      {"partial-group", "K is not a multiple of the group size: catches a missing or padded final group."},
      {"rank-1", "a rank-1 tensor."}, {"rank-2", "a rank-2 tensor."}, {"rank-3", "a rank-3 tensor: catches flattening only the last two axes."},
      {"bad-scale-count", "the scale plane has the wrong number of words: catches unchecked plane sizes."},
      {"bad-code-count", "the code plane has the wrong number of words: catches unchecked plane sizes."},
      {"bad-rank", "a rank the format does not allow: catches accepting any rank."},
      {"zero-extent", "an extent of 0: catches empty tensors accepted as valid."},
      {"divisor-presence", "a divisor given where none belongs, or missing for NVFP4."},
      {"divisor", "an NVFP4 divisor that is zero, negative, infinite or NaN."},
      {"zero-scale", "a +0 scale: codes in its group or row must be zero; catches an unchecked zero-scale rule."},
      {"bad-scale", "a negative, -0, infinite or NaN scale: catches unchecked scale words."},
      {"illegal-code", "an illegal code word (W8 0x80, E4M3FN NaN): catches unchecked codes."},
      {"order", "two violations: the first in check order (shape, divisor, scales, codes) must be reported."},
  };
  return s;
}

void add_tensor(SuiteBuilder& b, const Geometry& g, bool deq, const Tensor& t, std::vector<std::string> tags, const std::string& why) {
  oracle::Violation v = oracle::validate_tensor(g.f, t);
  if (deq && !v.valid()) return;  // dequantize suites hold valid tensors only
  tags.push_back("rank-" + std::to_string(std::min<size_t>(t.shape.size(), 3)));
  if (g.group && t.shape.back() % g.group) tags.push_back("partial-group");
  Case c{{shape_text(t.shape), plane_text(t.codes, g.code_digits), plane_text(t.scales, g.scale_digits),
          t.divisor ? hex_word(*t.divisor, 8) : "-"},
         "", {}, {}, tags, why};
  if (deq) {
    oracle::Context ctx;
    std::vector<std::string> out;
    for (uint32_t w : oracle::dequantize(ctx, g.f, t)) out.push_back(hex_word(w, 8));
    c.expect = join(out, ',');
  } else {
    c.expect = v.text();
  }
  b.add(std::move(c));
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
      add_tensor(b, g, deq, z, {"zero-scale"}, "zero scale with zero codes (FP8 row: +0 and -0 codes)");
      Tensor bad = z;
      bad.codes[span - 1] = 0x01;
      add_tensor(b, g, deq, bad, {"zero-scale"}, "zero scale with a nonzero code");
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
    add_tensor(b, g, deq, n3, {"bad-scale"}, "negative NaN scale (non-finiteness is checked first)");
    Tensor n4 = t;
    n4.scales.back() = f == Format::NVFP4 ? 0xb8 : f == Format::FP8_E4M3FN_ROW_BF16S ? 0xbf80 : 0xbc00;
    add_tensor(b, g, deq, n4, {"bad-scale"}, "negative scale -1");
    if (f == Format::W8G32_F16S || f == Format::FP8_E4M3FN_ROW_BF16S) {
      Tensor ic = t;
      ic.codes.back() = f == Format::W8G32_F16S ? 0x80 : 0x7f;
      add_tensor(b, g, deq, ic, {"illegal-code"}, "illegal code word in the last element");
      Tensor both = ic;
      both.scales.back() = neg_zero_scale;
      add_tensor(b, g, deq, both, {"illegal-code", "bad-scale", "order"}, "bad scale and illegal code: the scale is reported");
    }
    Tensor dv = t;
    dv.divisor = f == Format::NVFP4 ? std::nullopt : std::optional<uint32_t>(0x3f800000u);
    add_tensor(b, g, deq, dv, {"divisor-presence"}, f == Format::NVFP4 ? "divisor missing" : "a divisor where none belongs");
    if (f == Format::NVFP4)
      for (uint32_t d : {0x00000000u, 0x80000000u, 0xbf800000u, 0x7f800000u, 0x7fc00000u, 0xffc00000u, 0x00000001u}) {
        Tensor td = t;
        td.divisor = d;
        add_tensor(b, g, deq, td, {"divisor"}, "divisor " + hex_word(d, 8));
      }
  }
  if (deq) return;
  // Ranks the format does not allow, and zero extents.
  std::vector<std::vector<uint64_t>> bad_shapes = grouped ? std::vector<std::vector<uint64_t>>{{0}, {2, 0}, {0, 3}}
                                                          : std::vector<std::vector<uint64_t>>{{16}, {2, 2, 16}, {0, 16}, {1, 0}};
  for (const auto& shape : bad_shapes) {
    Tensor t;
    t.shape = shape;
    uint64_t n = 1;
    for (auto e : shape) n *= e;
    t.codes.assign(n, 0);
    t.scales.assign(shape.empty() || shape.back() == 0 ? 0 : scale_count(g, shape), f == Format::NVFP4 ? 0x38 : f == Format::FP8_E4M3FN_ROW_BF16S ? 0x3f80 : 0x3c00);
    if (f == Format::NVFP4) t.divisor = 0x3f800000u;
    const bool zero_extent = std::find(shape.begin(), shape.end(), 0) != shape.end();
    add_tensor(b, g, deq, t, {zero_extent ? "zero-extent" : "bad-rank"},
               "shape " + shape_text(shape) + " not allowed");
  }
}

template <Format F, bool D>
SuiteInfo ti() { return tensor_info(F, D); }
template <Format F, bool D>
void tb(SuiteBuilder& b) { tensor_build(F, D, b); }

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
