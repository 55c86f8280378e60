// Issue 32, items 3, 4 and 7: the records for the classes the systematic sweeps found (the sweeps
// themselves are runners/sweep/tensor_domains.cc and reconstruct.NVFP4.divisors).
//   validate-tensor.FMT.extremes: the extreme scale words of each plane inside valid tensors (the
//     largest finite scale, the smallest subnormal, the words just past the largest finite), for
//     NVFP4 every class of divisor word (each NaN kind with its payload extremes, the infinities,
//     both zeros, subnormals, the largest finite), and for FP8 row subnormal row scales beside the
//     two signed-zero codes.
//   parse.registry.edits: the one-edit variants of the nine names that realistic parsers accept (a
//     leading byte-order mark, Unicode spaces a trimming routine strips, separators removed,
//     replaced or doubled, neighbours transposed, title case).
//   reconstruct.NVFP4.divisors: element reconstructions at realistic divisors where the
//     multiplier form e2m1 * e4m3 * binary32(1/d_w) or the folded form e2m1 * binary32(e4m3/d_w)
//     is 2 ulp or more off the single rounding (found by search with host binary32 arithmetic,
//     which only picks inputs: every expected value is oracle::reconstruct_nvfp4's).
// Every expectation comes from nc::oracle (validate_tensor, reconstruct_nvfp4) or, for names, from
// the nine names written out from spec section 1.
#include <bit>
#include <cmath>

#include "generator/suites/common.h"
#include "oracle/reconstruct.h"
#include "oracle/validity.h"

namespace nc::gen {
namespace {

using oracle::Tensor;

std::string text_shape(const std::vector<uint64_t>& s) {
  std::vector<std::string> p;
  for (auto e : s) p.push_back(std::to_string(e));
  return join(p, 'x');
}
std::string text_plane(const std::vector<uint32_t>& w, int digits) {
  std::vector<std::string> p;
  for (auto x : w) p.push_back(hex_word(x, digits));
  return p.empty() ? "-" : join(p, ',');
}

// ---- validate-tensor.FMT.extremes ----

struct PlaneWords {
  uint32_t one, max_finite, min_subnormal, max_subnormal;
  std::vector<uint32_t> past_max;  // the words just past the largest finite (infinity, NaNs), positive
};
PlaneWords plane_words(Format f) {
  if (f == Format::NVFP4) return {0x38, 0x7e, 0x01, 0x07, {0x7f}};
  if (f == Format::FP8_E4M3FN_ROW_BF16S) return {0x3f80, 0x7f7f, 0x0001, 0x007f, {0x7f80, 0x7f81, 0x7fc0, 0x7fff}};
  return {0x3c00, 0x7bff, 0x0001, 0x03ff, {0x7c00, 0x7c01, 0x7e00, 0x7fff}};
}

SuiteInfo extremes_info(Format f) {
  const std::string n(info(f).name);
  SuiteInfo s{
      "validate-tensor." + n + ".extremes",
      "validate-tensor " + n,
      n +
          " tensors holding the extreme words of each plane (issue 32): the largest finite scale, subnormal scales, "
          "the words past the largest finite" +
          std::string(f == Format::NVFP4 ? ", every class of divisor word" : "") + ".",
      f == Format::NVFP4                  ? "3.3"
      : f == Format::FP8_E4M3FN_ROW_BF16S ? "3.4"
                                          : "4,5,6",
      {},
      {}};
  s.tags = {
      {"max-finite-scale",
       "the largest finite scale word of the plane in a valid tensor: catches a tensor check whose "
       "finiteness test is off by one (>= instead of >) while the word check is right."},
      {"past-max-scale",
       "a scale word just past the largest finite (infinity, a NaN): catches a tensor check that "
       "compares the magnitude with the largest finite value loosely."},
      {"subnormal-scale",
       "a subnormal scale word in a valid tensor: catches a tensor check that treats it as zero "
       "(a DAZ zero test) or rejects it."},
      {"rank-1", "a rank-1 tensor."},
      {"rank-2", "a rank-2 tensor."},
  };
  if (f == Format::NVFP4)
    s.tags["nan-divisor"] =
        "a NaN divisor of each kind (quiet or signalling, either sign, smallest and largest payload): "
        "catches a NaN test on the quiet bit or on one canonical pattern.";
  if (f == Format::NVFP4)
    s.tags["divisor-class"] =
        "a divisor word of each non-NaN class (zeros, subnormals, normals, the largest finite, "
        "infinities, either sign): d_w must be finite and strictly positive (spec 3.3).";
  if (f == Format::FP8_E4M3FN_ROW_BF16S)
    s.tags["signed-zero-codes"] =
        "a subnormal or +0 row scale beside both signed-zero codes 0x00 and 0x80: catches a "
        "zero-scale rule that reads 0x80 as nonzero, or a subnormal scale read as zero.";
  return s;
}

void extremes_build(Format f, SuiteBuilder& b) {
  const FormatInfo& fi = info(f);
  const int cd = word_hex_digits(fi.code), sd = word_hex_digits(*fi.scale);
  const PlaneWords pw = plane_words(f);
  const bool nvfp4 = f == Format::NVFP4, fp8 = f == Format::FP8_E4M3FN_ROW_BF16S;
  const uint64_t g = fp8 ? 0 : fi.group_size;
  auto add = [&](const Tensor& t, std::vector<std::string> tags, const std::string& why) {
    tags.push_back("rank-" + std::to_string(t.shape.size()));
    const oracle::Violation v = oracle::validate_tensor(f, t);
    b.add(Case{{text_shape(t.shape), text_plane(t.codes, cd), text_plane(t.scales, sd),
                t.divisor ? hex_word(*t.divisor, 8) : "-"},
               v.text(),
               {},
               {},
               tags,
               why});
  };
  // The tensors a scale word is placed in: first scale of a two-group (row) tensor, the last scale
  // (grouped: the partial final group of the last row), a lone group.
  auto tensors_with = [&](uint32_t w) {
    std::vector<std::pair<Tensor, std::string>> out;
    const uint32_t nonzero = nvfp4 ? 0x9 : 0x01;
    if (nvfp4) {
      Tensor a{{2, 32}, std::vector<uint32_t>(64, nonzero), {w, pw.one, pw.one, pw.one}, 0x3f800000u};
      Tensor z = a;
      z.scales = {pw.one, pw.one, pw.one, w};
      Tensor lone{{1, 16}, std::vector<uint32_t>(16, 0x7), {w}, 0x3f800000u};
      out = {{a, "first block"}, {z, "last block"}, {lone, "lone block"}};
    } else if (fp8) {
      Tensor a{{2, 3}, {0x7e, 0x80, 0x00, 0x01, 0xfe, 0x38}, {w, pw.one}, std::nullopt};
      Tensor z{{2, 3}, {0x01, 0xfe, 0x38, 0x7e, 0x80, 0x00}, {pw.one, w}, std::nullopt};
      Tensor lone{{1, 1}, {0x7e}, {w}, std::nullopt};
      out = {{a, "first row"}, {z, "last row"}, {lone, "lone row"}};
    } else {
      const uint32_t neg = f == Format::W8G32_F16S ? 0x81 : 1u << (info(fi.code).bits - 1);
      Tensor a{{2, g + 1}, std::vector<uint32_t>(2 * (g + 1), nonzero), {w, pw.one, pw.one, pw.one}, std::nullopt};
      a.codes[0] = neg;
      Tensor z = a;
      z.scales = {pw.one, pw.one, pw.one, w};
      z.codes.back() = neg;
      Tensor lone{{1}, {neg}, {w}, std::nullopt};
      out = {{a, "first group"}, {z, "partial final group of the last row"}, {lone, "lone element"}};
    }
    return out;
  };
  for (auto& [t, where] : tensors_with(pw.max_finite))
    add(t, {"max-finite-scale"},
        "largest finite scale " + hex_word(pw.max_finite, sd) + " in the " + where + ": valid");
  for (uint32_t w : pw.past_max)
    for (auto& [t, where] : tensors_with(w))
      add(t, {"past-max-scale"}, "scale " + hex_word(w, sd) + " (past the largest finite) in the " + where);
  for (uint32_t w : {pw.min_subnormal, pw.max_subnormal})
    for (auto& [t, where] : tensors_with(w))
      add(t, {"subnormal-scale"}, "subnormal scale " + hex_word(w, sd) + " in the " + where + ": valid");
  if (fp8) {
    // Spec 3.4: a +0 row scale allows exactly the codes 0x00 and 0x80; a subnormal scale is not zero.
    for (uint32_t w : {0x0000u, 0x0001u, 0x007fu}) {
      Tensor t{{1, 4}, {0x80, 0x00, 0x80, 0x00}, {w}, std::nullopt};
      std::vector<std::string> tags{"signed-zero-codes"};
      if (w) tags.push_back("subnormal-scale");
      add(t, tags, "row scale " + hex_word(w, 4) + " beside the signed-zero codes 80 and 00: valid");
      Tensor u{{2, 3}, {0x38, 0x80, 0x00, 0x80, 0x00, 0x01}, {pw.one, w}, std::nullopt};
      add(u, tags, "row scale " + hex_word(w, 4) + " beside 80 and 00 with code 01 last");
    }
  }
  if (nvfp4) {
    const Tensor base{{1, 16}, std::vector<uint32_t>(16, 0x9), {pw.one}, std::nullopt};
    for (uint32_t d : {0x7fc00000u, 0x7fc00001u, 0x7fffffffu, 0x7f800001u, 0x7fa00000u, 0x7fbfffffu, 0xffc00000u,
                       0xffc00001u, 0xffffffffu, 0xff800001u, 0xffa00000u, 0xffbfffffu}) {
      Tensor t = base;
      t.divisor = d;
      add(t, {"nan-divisor"},
          std::string(d >> 31 ? "negative " : "positive ") + ((d & 0x400000u) ? "quiet" : "signalling") +
              " NaN divisor " + hex_word(d, 8));
    }
    for (uint32_t d : {0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu, 0x80000001u, 0x00800000u, 0x7f7fffffu,
                       0xff7fffffu, 0x7f800000u, 0xff800000u}) {
      Tensor t = base;
      t.divisor = d;
      add(t, {"divisor-class"}, "divisor " + hex_word(d, 8));
    }
  }
}

template <Format F>
SuiteInfo ei() {
  return extremes_info(F);
}
template <Format F>
void eb(SuiteBuilder& b) {
  extremes_build(F, b);
}

// ---- parse.registry.edits ----

constexpr const char* kNames[] = {"BF16",       "FP32",       "I32",   "Q4G64_F16S",          "Q5G64_F16S",
                                  "Q6G64_F16S", "W8G32_F16S", "NVFP4", "FP8_E4M3FN_ROW_BF16S"};

std::string hex_name(const std::string& s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) out += kHex[c >> 4], out += kHex[c & 15];
  return out.empty() ? "\"\"" : out;
}

SuiteInfo edits_info() {
  SuiteInfo s{"parse.registry.edits",
              "parse",
              "One-edit variants of the nine names that realistic parsers accept (issue 32): byte-order marks, Unicode "
              "spaces, separators, transpositions, title case; every one refused (spec 1, 3.2).",
              "1,3.2,11",
              {},
              {}};
  s.tags = {
      {"bom",
       "a byte-order mark before or after a name (UTF-8 EF BB BF, UTF-16 FE FF / FF FE): catches a reader that "
       "skips it (Python's utf-8-sig, a BOM-aware field reader)."},
      {"unicode-space",
       "a Unicode space or format character around a name (NBSP, NEL, ZWSP, ideographic space): catches "
       "a Unicode-aware strip()."},
      {"separator",
       "the underscores removed, doubled, or replaced by '-', '.' or a space: catches normalising "
       "separators before the lookup."},
      {"transposed", "two neighbouring characters swapped: catches a fuzzy or edit-distance match."},
      {"title-case", "a name in title case (first letter upper, the rest lower): catches case folding."},
  };
  return s;
}

void edits_build(SuiteBuilder& b) {
  auto reject = [&](const std::string& bytes, const std::string& tag, const std::string& why) {
    b.add(Case{{hex_name(bytes)}, "!unknown-format", {}, {}, {tag}, why});
  };
  for (const std::string n : kNames) {
    reject("\xef\xbb\xbf" + n, "bom", "UTF-8 byte-order mark before " + n);
    reject(n + "\xef\xbb\xbf", "bom", "UTF-8 byte-order mark after " + n);
    reject("\xfe\xff" + n, "bom", "UTF-16 big-endian byte-order mark before " + n);
    reject("\xff\xfe" + n, "bom", "UTF-16 little-endian byte-order mark before " + n);
    for (const auto& [u, what] :
         std::vector<std::pair<std::string, std::string>>{{"\xc2\xa0", "no-break space"},
                                                          {"\xc2\x85", "next line (NEL)"},
                                                          {"\xe2\x80\x8b", "zero-width space"},
                                                          {"\xe3\x80\x80", "ideographic space"}}) {
      reject(u + n, "unicode-space", what + " before " + n);
      reject(n + u, "unicode-space", what + " after " + n);
    }
    if (n.find('_') != std::string::npos) {
      std::string none, hyphen, dot, doubled;
      for (char c : n) {
        if (c != '_') {
          none += c, hyphen += c, dot += c, doubled += c;
          continue;
        }
        hyphen += '-', dot += '.', doubled += "__";
      }
      reject(none, "separator", n + " with its underscores removed");
      reject(hyphen, "separator", n + " with hyphens for underscores");
      reject(dot, "separator", n + " with dots for underscores");
      reject(doubled, "separator", n + " with its underscores doubled");
    } else {
      reject(n.substr(0, 2) + "_" + n.substr(2), "separator", n + " with an underscore added");
    }
    // The last two characters swapped, and the first two.
    std::string last = n, first = n;
    std::swap(last[n.size() - 1], last[n.size() - 2]);
    std::swap(first[0], first[1]);
    if (last != n) reject(last, "transposed", n + " with its last two characters swapped");
    if (first != n) reject(first, "transposed", n + " with its first two characters swapped");
    std::string title = n;
    for (size_t i = 1; i < title.size(); ++i)
      if (title[i] >= 'A' && title[i] <= 'Z') title[i] = char(title[i] - 'A' + 'a');
    if (title != n) reject(title, "title-case", n + " in title case");
  }
}

// ---- reconstruct.NVFP4.divisors ----

SuiteInfo divisors_info() {
  SuiteInfo s{
      "reconstruct.NVFP4.divisors",
      "reconstruct NVFP4",
      "e2m1 * e4m3fn / d_w at realistic divisors where the multiplier form e2m1 * e4m3 * binary32(1/d_w) or the "
      "folded form e2m1 * binary32(e4m3/d_w) is 2 ulp or more off the one rounding spec 3.3 defines (issue 32).",
      "3.3",
      {},
      {}};
  s.tags = {
      {"multiplier-2ulp",
       "the multiplier form e2m1 * e4m3 * binary32(1/d_w) (the reciprocal rounded first, subnormal for "
       "d_w above 2^126) is exactly 2 ulp off: catches a reciprocal-multiply kernel even under a 1-ulp "
       "tolerance."},
      {"folded-2ulp",
       "the folded form e2m1 * binary32(e4m3 / d_w) (d_w folded into the block scale and rounded, then "
       "multiplied and rounded again) is 2 ulp or more off: catches it under a 1-ulp tolerance."},
      {"subnormal", "a subnormal binary32 result: catches FTZ."},
  };
  return s;
}

float f32(uint32_t w) { return std::bit_cast<float>(w); }
uint32_t w32(float f) { return std::bit_cast<uint32_t>(f); }
uint32_t ulps(uint32_t a, uint32_t b) {  // same sign and finite assumed by the callers
  const uint32_t x = a & 0x7fffffffu, y = b & 0x7fffffffu;
  return x > y ? x - y : y - x;
}
float e2m1f(uint32_t c) {
  static constexpr float kV[] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  return (c & 8) ? -kV[c & 7] : kV[c & 7];
}
float e4m3f(uint32_t s) {
  const uint32_t e = (s >> 3) & 15, m = s & 7;
  return e == 0 ? std::ldexp(float(m), -9) : std::ldexp(1.0f + float(m) / 8.0f, int(e) - 7);
}

void divisors_build(SuiteBuilder& b) {
  oracle::Context ctx;
  SplitMix64 r(suite_seed(b.info().name));
  size_t multiplier = 0, folded = 0;
  // Candidates: divisors in the top binades (2^120 .. 2^127, where 1/d_w or e4m3/d_w is subnormal)
  // and across the normal range, drawn in a fixed order; positive codes only (the sign is symmetric).
  for (int draw = 0; draw < 4000 && (multiplier < 48 || folded < 48); ++draw) {
    const uint32_t e = draw % 2 ? 247 + uint32_t(r.below(7)) : 100 + uint32_t(r.below(54));
    const uint32_t d = e << 23 | uint32_t(r.below(1u << 23));
    for (uint32_t scale = 1; scale <= 0x7e; ++scale)
      for (uint32_t code = 1; code < 8; ++code) {
        // Host binary32 arithmetic picks candidates only (ordinary RNE, SSE, no contraction).
        const float product = e2m1f(code) * e4m3f(scale), inverse = 1.0f / f32(d);
        const uint32_t mult = w32(product * inverse), fold = w32(e2m1f(code) * (e4m3f(scale) / f32(d)));
        const uint32_t single = w32(float(double(product) / double(f32(d))));  // binary64 quotient: rounds as once
        const bool m2 = ulps(mult, single) == 2 && multiplier < 48, f2 = ulps(fold, single) >= 2 && folded < 48;
        if (!m2 && !f2) continue;
        const oracle::Reconstructed rec = oracle::reconstruct_nvfp4(ctx, code, scale, d);
        // Tags are checked against the oracle's word, not the host's: a candidate the host misjudged is dropped.
        const bool mult2 = ulps(mult, rec.binary32) == 2, fold2 = ulps(fold, rec.binary32) >= 2;
        if (!(m2 && mult2) && !(f2 && fold2)) continue;
        for (uint32_t sign : {0u, 8u}) {
          Case c{{hex_word(code | sign, 1), hex_word(scale, 2), hex_word(d, 8)}, "", {}, {}, {}, ""};
          const oracle::Reconstructed rs = oracle::reconstruct_nvfp4(ctx, code | sign, scale, d);
          c.expect = hex_word(rs.binary32, 8);
          c.info = {oracle::format_exact(rs.exact)};
          if (m2 && mult2) c.tags.push_back("multiplier-2ulp");
          if (f2 && fold2) c.tags.push_back("folded-2ulp");
          if ((rs.binary32 & 0x7f800000u) == 0) c.tags.push_back("subnormal");
          c.comment = std::string("the multiplier form gives ") + hex_word(mult ^ (sign << 28), 8) +
                      ", the folded form " + hex_word(fold ^ (sign << 28), 8);
          b.add(std::move(c));
        }
        multiplier += m2 && mult2;
        folded += f2 && fold2;
      }
  }
}

NC_SUITE((ei<Format::Q4G64_F16S>), (eb<Format::Q4G64_F16S>));
NC_SUITE((ei<Format::Q5G64_F16S>), (eb<Format::Q5G64_F16S>));
NC_SUITE((ei<Format::Q6G64_F16S>), (eb<Format::Q6G64_F16S>));
NC_SUITE((ei<Format::W8G32_F16S>), (eb<Format::W8G32_F16S>));
NC_SUITE((ei<Format::NVFP4>), (eb<Format::NVFP4>));
NC_SUITE((ei<Format::FP8_E4M3FN_ROW_BF16S>), (eb<Format::FP8_E4M3FN_ROW_BF16S>));
NC_SUITE(edits_info, edits_build);
NC_SUITE(divisors_info, divisors_build);

}  // namespace
}  // namespace nc::gen
