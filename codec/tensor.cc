#include "codec/tensor.h"

#include <string>

#include "codec/float_traits.h"
#include "codec/fp8_row.h"
#include "codec/grouped.h"
#include "codec/nvfp4.h"
#include "codec/words.h"

namespace nc::codec {
namespace {

struct Geometry {
  uint64_t rows;  // product of the leading extents (1 for rank 1)
  uint64_t k;
  uint64_t group;  // elements per scale along K (FP8 row: k)
  uint64_t scales_per_row;
};

std::string shape_text(std::span<const uint64_t> shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s.push_back('x');
    s.append(std::to_string(shape[i]));
  }
  return s.empty() ? "(rank 0)" : s;
}

Result<Geometry> geometry(Format fmt, std::span<const uint64_t> shape) {
  const std::string name(info(fmt).name);
  const FormatInfo& fi = info(fmt);
  if (fi.category == Category::Direct)
    return Error{name, "", Rule::Unsupported, "a direct format has no code/scale tensor"};
  const bool rank2 = fi.category != Category::GroupedInt;
  if (shape.empty() || (rank2 && shape.size() != 2))
    return Error{name, "shape " + shape_text(shape), Rule::Shape,
                 rank2 ? "rank must be 2 ([N, K])" : "rank must be at least 1"};
  uint64_t rows = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return Error{name, "shape " + shape_text(shape), Rule::Shape, "every extent must be positive"};
    if (i + 1 < shape.size()) rows *= shape[i];
  }
  const uint64_t k = shape.back();
  const uint64_t group = fi.category == Category::RowScaledFloat ? k : fi.group_size;
  // Spec 3.3: "every K-axis group contains 16 E2M1 code words"; spec 4's partial final group is
  // for the grouped signed-integer schemes only.
  if (fi.category == Category::BlockScaledFloat && k % group != 0)
    return Error{name, "shape " + shape_text(shape), Rule::Shape, "NVFP4 K must be a multiple of 16"};
  return Geometry{rows, k, group, ceil_div(k, group)};
}

std::string coord(uint64_t row, uint64_t col, const char* plane) {
  return std::string(plane) + "[" + std::to_string(row) + "," + std::to_string(col) + "]";
}

}  // namespace

Result<uint64_t> scale_count(Format fmt, std::span<const uint64_t> shape) {
  auto g = geometry(fmt, shape);
  if (!g) return g.error();
  return g->rows * g->scales_per_row;
}

std::optional<Violation> validate_tensor(Format fmt, const TensorView& t) {
  const std::string name(info(fmt).name);
  const FormatInfo& fi = info(fmt);
  auto geo = geometry(fmt, t.shape);
  if (!geo) return Violation{geo.error().rule, Plane::None, -1, geo.error()};
  const Geometry& g = *geo;
  if (t.codes.size() != g.rows * g.k || t.scales.size() != g.rows * g.scales_per_row)
    return Violation{
        Rule::Shape, Plane::None, -1,
        Error{name, "shape " + shape_text(t.shape), Rule::Shape,
              "needs " + std::to_string(g.rows * g.k) + " codes and " + std::to_string(g.rows * g.scales_per_row) +
                  " scales; got " + std::to_string(t.codes.size()) + " and " + std::to_string(t.scales.size())}};
  // The divisor is a plane of its own: present exactly for NVFP4 (spec 3.3), else a shape error.
  if (bool(t.divisor) != (fi.category == Category::BlockScaledFloat))
    return Violation{Rule::Shape, Plane::None, -1,
                     Error{name, "divisor", Rule::Shape,
                           t.divisor ? "only NVFP4 has a divisor plane" : "NVFP4 needs its divisor d_w"}};
  if (fi.category == Category::BlockScaledFloat) {
    if (!nvfp4_divisor_valid(*t.divisor))
      return Violation{Rule::Divisor, Plane::None, -1,
                       Error{name, "divisor", Rule::Divisor, "d_w must be finite and strictly positive"}};
  }
  const WordType scale_wt = *fi.scale;
  for (size_t i = 0; i < t.scales.size(); ++i) {
    const uint32_t s = t.scales[i];
    const std::string where = coord(i / g.scales_per_row, i % g.scales_per_row, "scale");
    if (auto r = check_word(scale_wt, s); !r)
      return Violation{Rule::WordRange, Plane::Scales, int64_t(i),
                       Error{name, where, Rule::WordRange, r.error().detail}};
    std::optional<Rule> rule;
    switch (fi.category) {
      case Category::GroupedInt:
        rule = f16_scale_rule(s);
        break;
      case Category::BlockScaledFloat:
        rule = e4m3fn_block_scale_rule(s);
        break;
      default:
        rule = bf16_row_scale_rule(s);
        break;
    }
    if (rule)
      return Violation{*rule, Plane::Scales, int64_t(i),
                       Error{name, where, *rule, *rule == Rule::ScaleNegative ? "sign bit set" : "not finite"}};
  }
  for (size_t i = 0; i < t.codes.size(); ++i) {
    const uint32_t c = t.codes[i];
    const uint64_t row = i / g.k, col = i % g.k;
    const std::string where = coord(row, col, "code");
    if (auto r = check_word(fi.code, c); !r)
      return Violation{Rule::WordRange, Plane::Codes, int64_t(i),
                       Error{name, where, Rule::WordRange, r.error().detail}};
    const bool illegal = (fi.code == WordType::W8_CODE && c == 0x80) ||
                         (fi.category == Category::RowScaledFloat && !fp8_row_code_valid(c));
    if (illegal)
      return Violation{Rule::CodeIllegal, Plane::Codes, int64_t(i),
                       Error{name, where, Rule::CodeIllegal, "code word outside the format's language"}};
    const uint32_t s = t.scales[row * g.scales_per_row + col / g.group];
    // Zero-scale rule: grouped (+0 scale -> code 0) and FP8 row (+0 scale -> 0x00 or 0x80).
    // NVFP4 has none.
    const bool zero_scale_broken =
        s == 0 && ((fi.category == Category::GroupedInt && c != 0) ||
                   (fi.category == Category::RowScaledFloat && (c & ~E4M3FNTraits::kSignBit) != 0));
    if (zero_scale_broken)
      return Violation{Rule::ZeroScaleCodes, Plane::Codes, int64_t(i),
                       Error{name, where, Rule::ZeroScaleCodes, "nonzero code under a +0 scale"}};
  }
  return std::nullopt;
}

Result<std::vector<uint32_t>> dequantize(Format fmt, const TensorView& t) {
  const std::string name(info(fmt).name);
  const FormatInfo& fi = info(fmt);
  auto geo = geometry(fmt, t.shape);
  if (!geo) return geo.error();
  const Geometry& g = *geo;
  if (t.codes.size() != g.rows * g.k || t.scales.size() != g.rows * g.scales_per_row)
    return Error{name, "shape " + shape_text(t.shape), Rule::Shape, "plane sizes disagree with the shape"};
  if (fi.category == Category::BlockScaledFloat && !t.divisor)
    return Error{name, "divisor", Rule::Divisor, "NVFP4 needs its divisor d_w"};
  std::vector<uint32_t> out(t.codes.size());
  for (size_t i = 0; i < t.codes.size(); ++i) {
    const uint64_t row = i / g.k, col = i % g.k;
    const uint32_t s = t.scales[row * g.scales_per_row + col / g.group];
    switch (fi.category) {
      case Category::GroupedInt: {
        auto q = int_word_value(fi.code, t.codes[i]);
        if (!q) return Error{name, coord(row, col, "code"), q.error().rule, q.error().detail};
        out[i] = grouped_reconstruct(s, *q);
        break;
      }
      case Category::BlockScaledFloat:
        out[i] = nvfp4_reconstruct(t.codes[i], s, *t.divisor);
        break;
      default:
        out[i] = fp8_row_reconstruct(t.codes[i], s);
        break;
    }
  }
  return out;
}

}  // namespace nc::codec
