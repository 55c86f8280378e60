// Validity of words and tensors (spec 3.1, 3.3, 3.4, 4, 5, 6), in the documented check order.
#include "oracle/validity.h"

#include "oracle/decode.h"
#include "oracle/reconstruct.h"

namespace nc::oracle {

namespace {
bool fits(WordType t, uint32_t word) {
  const uint32_t bits = info(t).bits;
  return bits >= 32 || (word >> bits) == 0;
}

// A scale must have sign bit zero (checked first: -0, negative values, -inf and negative NaNs
// are all scale-negative) and be finite; +0 is valid.
std::string_view nonnegative_finite_rule(FloatFormat ff, uint32_t word) {
  const FloatFormatInfo& fi = info(ff);
  if ((word >> (fi.bits - 1)) & 1u) return "scale-negative";
  const uint32_t e = (word >> fi.fraction_bits) & ((1u << fi.exponent_bits) - 1);
  const uint32_t m = word & ((1u << fi.fraction_bits) - 1);
  const bool all_ones_exponent = e == (1u << fi.exponent_bits) - 1;
  const bool nonfinite = fi.has_inf ? all_ones_exponent : (all_ones_exponent && m == (1u << fi.fraction_bits) - 1);
  return nonfinite ? "scale-nonfinite" : "";
}
}  // namespace

namespace {
// A float code word's bits but the sign, from the oracle's description of its format. FP8 row
// codes (E4M3FN: no infinity, one NaN) are NaN exactly when all of them are set.
uint32_t magnitude_bits(WordType t) { return (1u << (info(*float_format_of(t)).bits - 1)) - 1; }
}  // namespace

std::string_view word_rule(Format f, Component c, uint32_t word) {
  const FormatInfo& fi = info(f);
  switch (c) {
    case Component::Word:
    case Component::Code:
      if (!fits(fi.code, word)) return "code-illegal";
      if (fi.code == WordType::W8_CODE && word == 0x80u) return "code-illegal";
      if (fi.category == Category::RowScaledFloat && (word & magnitude_bits(fi.code)) == magnitude_bits(fi.code))
        return "code-illegal";
      return "";
    case Component::Scale:
      if (!fi.scale) return "shape";
      if (!fits(*fi.scale, word)) return "scale-nonfinite";
      switch (*fi.scale) {
        case WordType::F16:
          return nonnegative_finite_rule(FloatFormat::Binary16, word);
        case WordType::E4M3FN:
          return nonnegative_finite_rule(FloatFormat::E4M3FN, word);
        case WordType::BF16:
          return nonnegative_finite_rule(FloatFormat::BFloat16, word);
        default:
          return "shape";
      }
    case Component::Divisor: {
      if (!fi.divisor) return "shape";
      // finite and strictly positive: sign 0, exponent not all ones, not +0
      const bool positive = (word >> 31) == 0 && word != 0;
      const bool finite = ((word >> 23) & 0xffu) != 0xffu;
      return positive && finite ? "" : "divisor";
    }
  }
  return "shape";
}

std::string Violation::text() const {
  if (rule.empty()) return "valid";
  std::string s = "!" + rule + "@";
  if (plane == '-') return s + "-";
  return s + plane + std::to_string(index);
}

namespace {
Violation violation(std::string rule, char plane = '-', uint64_t index = 0) {
  return Violation{std::move(rule), plane, index};
}

// Elements per scale along K (grouped, NVFP4), or K (FP8 row: one scale per row).
uint64_t scale_span(const FormatInfo& fi, uint64_t k) {
  return fi.category == Category::RowScaledFloat ? k : fi.group_size;
}
}  // namespace

Violation validate_tensor(Format f, const Tensor& t) {
  const FormatInfo& fi = info(f);
  // 1. shape
  const size_t rank = t.shape.size();
  const bool matrix_only = fi.category == Category::BlockScaledFloat || fi.category == Category::RowScaledFloat;
  if (rank == 0 || (matrix_only && rank != 2)) return violation("shape");
  uint64_t elements = 1;
  for (uint64_t d : t.shape) {
    if (d == 0) return violation("shape");
    elements *= d;
  }
  const uint64_t k = t.shape.back();
  const uint64_t leading = elements / k;
  // NVFP4 (spec 3.3): "every K-axis group contains 16 E2M1 code words and one E4M3FN scale word",
  // so K is a multiple of 16; the partial final group of spec 4 is for the grouped schemes only.
  if (fi.category == Category::BlockScaledFloat && k % fi.group_size != 0) return violation("shape");
  if (t.codes.size() != elements) return violation("shape");
  if (fi.category == Category::Direct) {
    if (!t.scales.empty() || t.divisor) return violation("shape");
    for (uint64_t i = 0; i < elements; ++i) {
      if (!word_rule(f, Component::Word, t.codes[i]).empty()) return violation("code-illegal", 'c', i);
    }
    return {};
  }
  const uint64_t span = scale_span(fi, k);
  const uint64_t scales_per_row = (k + span - 1) / span;
  if (t.scales.size() != leading * scales_per_row) return violation("shape");
  if (t.divisor.has_value() != fi.divisor.has_value()) return violation("shape");
  // 2. divisor
  if (t.divisor) {
    if (auto rule = word_rule(f, Component::Divisor, *t.divisor); !rule.empty()) return violation(std::string(rule));
  }
  // 3. scales in row-major order
  for (uint64_t i = 0; i < t.scales.size(); ++i) {
    if (auto rule = word_rule(f, Component::Scale, t.scales[i]); !rule.empty())
      return violation(std::string(rule), 's', i);
  }
  // 4. codes in row-major order: word validity, then the zero-scale rule (grouped: code value 0;
  //    FP8 row: a signed zero word). NVFP4 has no zero-scale rule.
  for (uint64_t i = 0; i < elements; ++i) {
    const uint32_t w = t.codes[i];
    if (auto rule = word_rule(f, Component::Code, w); !rule.empty()) return violation(std::string(rule), 'c', i);
    const uint64_t s = (i / k) * scales_per_row + (i % k) / span;
    if (t.scales[s] != 0) continue;
    if (fi.category == Category::GroupedInt && w != 0) return violation("zero-scale-codes", 'c', i);
    if (fi.category == Category::RowScaledFloat && (w & magnitude_bits(fi.code)) != 0)
      return violation("zero-scale-codes", 'c', i);
  }
  return {};
}

std::vector<uint32_t> dequantize(Context& ctx, Format f, const Tensor& t) {
  const FormatInfo& fi = info(f);
  std::vector<uint32_t> out;
  out.reserve(t.codes.size());
  if (fi.category == Category::Direct) {
    if (f == Format::I32) return {};
    for (uint32_t w : t.codes) out.push_back(f == Format::BF16 ? w << 16 : w);
    return out;
  }
  const uint64_t k = t.shape.back();
  const uint64_t span = scale_span(fi, k);
  const uint64_t scales_per_row = (k + span - 1) / span;
  for (uint64_t i = 0; i < t.codes.size(); ++i) {
    const uint32_t s = t.scales[(i / k) * scales_per_row + (i % k) / span];
    Reconstructed r;
    switch (fi.category) {
      case Category::GroupedInt:
        r = reconstruct_grouped(ctx, f, t.codes[i], s);
        break;
      case Category::BlockScaledFloat:
        r = reconstruct_nvfp4(ctx, t.codes[i], s, *t.divisor);
        break;
      default:
        r = reconstruct_fp8_row(ctx, t.codes[i], s);
        break;
    }
    out.push_back(r.binary32);
  }
  return out;
}

}  // namespace nc::oracle
