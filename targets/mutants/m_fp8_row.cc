// FP8_E4M3FN_ROW_BF16S mutants (spec 3.4): w = binary32(c32 * s32), one nonnegative finite BF16
// multiplier per row, a +0 row holding only signed-zero codes.
#include <cmath>
#include <vector>

#include "targets/mutants/mutant.h"
#include "targets/mutants/words.h"

namespace nc::mutants {
namespace {

// Reconstructs FP8-row elements with `combine(c32, s32)` and delegates other formats.
template <float (*combine)(float, float)>
int reconstruct_fp8_row_with(nc_format f, const uint32_t* c, const uint32_t* s, const uint32_t* d, size_t n,
                             uint32_t* out) {
  if (f != NC_FORMAT_FP8_E4M3FN_ROW_BF16S)
    return base().reconstruct ? base().reconstruct(f, c, s, d, n, out) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) out[i] = bits_of(combine(e4m3fn_value(c[i]), bf16_value(s[i])));
  return NC_OK;
}

// The row scale read as an inverse scale (the activation-quantization convention x_q = x / s).
float divide(float c32, float s32) { return c32 / s32; }

// The product formed in BF16 (a kernel's bf16 multiply) and widened: 16 fraction bits lost.
float product_in_bf16(float c32, float s32) {
  const float p = c32 * s32;
  if (!std::isfinite(p)) return p;
  bool overflow = false;
  const uint32_t b = round_to_format(p, kBfloat16, Tie::ToEven, &overflow);
  return overflow ? std::copysign(INFINITY, p) : bf16_value(b);
}

// Row-scale validity by "value >= 0 and finite": -0.0 passes.
int validate_negative_zero_row_scale(nc_format f, nc_component comp, const uint32_t* w, size_t n, uint8_t* valid) {
  if (f != NC_FORMAT_FP8_E4M3FN_ROW_BF16S || comp != NC_COMP_SCALE)
    return base().validate_word ? base().validate_word(f, comp, w, n, valid) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    const float v = bf16_value(w[i]);
    valid[i] = std::isfinite(v) && v >= 0.0f;
  }
  return NC_OK;
}

// The zero-scale-row rule never checked: the base validator over row scales where +0 reads as 1.0
// (both valid), so only that rule disappears.
int validate_tensor_zero_row_unchecked(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                       const uint32_t* s, size_t ns, const uint32_t* d, int32_t* rule, int64_t* where) {
  if (!base().validate_tensor) return NC_EUNSUPPORTED;
  if (f != NC_FORMAT_FP8_E4M3FN_ROW_BF16S) return base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where);
  std::vector<uint32_t> scales(s, s + ns);
  for (uint32_t& w : scales)
    if (w == 0) w = 0x3f80u;
  return base().validate_tensor(f, rank, shape, c, nc, scales.data(), ns, d, rule, where);
}

void install_divide(nc_plugin_v1* t) { t->reconstruct = reconstruct_fp8_row_with<divide>; }
void install_bf16_product(nc_plugin_v1* t) { t->reconstruct = reconstruct_fp8_row_with<product_in_bf16>; }
void install_negative_zero_scale(nc_plugin_v1* t) { t->validate_word = validate_negative_zero_row_scale; }
void install_zero_row_unchecked(nc_plugin_v1* t) { t->validate_tensor = validate_tensor_zero_row_unchecked; }

}  // namespace

std::span<const Mutant> fp8_row_mutants() {
  static const Mutant kMutants[] = {
      {{"fp8row-divide-by-scale", "fp8-row", "reconstruct", "w = c32 / s32 instead of c32 * s32",
        "reconstruct.FP8_E4M3FN_ROW_BF16S", "-", "multiplier divide"},
       install_divide},
      {{"fp8row-negative-zero-scale", "fp8-row", "validate", "row scale 0x8000 (-0) accepted",
        "validate.FP8_E4M3FN_ROW_BF16S.scale", "negative-zero", "negative zero"},
       install_negative_zero_scale},
      {{"fp8row-zero-scale-unchecked", "fp8-row", "validate_tensor", "+0 row scale with nonzero codes accepted",
        "validate-tensor.FP8_E4M3FN_ROW_BF16S", "zero-scale-codes", "zero-scale"},
       install_zero_row_unchecked},
      {{"fp8row-product-in-bf16", "fp8-row", "reconstruct", "c32 * s32 rounded to BF16 before binary32",
        "reconstruct.FP8_E4M3FN_ROW_BF16S", "-", "round bf16"},
       install_bf16_product},
  };
  return kMutants;
}

}  // namespace nc::mutants
