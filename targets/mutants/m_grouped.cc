// Grouped signed-integer code and scale mutants (spec 4-6). Each replaces one entry point for the
// four grouped formats and delegates every other format or word type to the base table.
#include <cmath>
#include <vector>

#include "targets/mutants/geometry.h"
#include "targets/mutants/mutant.h"
#include "targets/mutants/words.h"

namespace nc::mutants {
namespace {

int code_bits(nc_word_type wt) {
  switch (wt) {
    case NC_WT_Q4_CODE:
      return 4;
    case NC_WT_Q5_CODE:
      return 5;
    case NC_WT_Q6_CODE:
      return 6;
    case NC_WT_W8_CODE:
      return 8;
    default:
      return 0;
  }
}

// Sign-magnitude codes: bit b-1 is read as a sign on the remaining magnitude (a reading of "sign
// bit 0x8" in the spec's table that forgets two's complement). 0xF decodes to -7, not -1.
int decode_sign_magnitude(nc_word_type wt, const uint32_t* w, size_t n, uint32_t* out, uint8_t* valid) {
  const int b = code_bits(wt);
  if (b == 0) return base().decode ? base().decode(wt, w, n, out, valid) : NC_EUNSUPPORTED;
  const uint32_t sign = 1u << (b - 1), mask = (1u << b) - 1;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = w[i] & mask;
    const int32_t q = (u & sign) ? -int32_t(u & (sign - 1)) : int32_t(u);
    valid[i] = !(b == 8 && u == 0x80u);
    out[i] = valid[i] ? uint32_t(q) : 0;
  }
  return NC_OK;
}

// Offset-binary codes in reconstruction: q = u - 2^(b-1), the GPTQ/AWQ unsigned-with-zero-point
// habit applied to a zero-point-free format.
int reconstruct_offset_binary(nc_format f, const uint32_t* c, const uint32_t* s, const uint32_t* d, size_t n,
                              uint32_t* out) {
  int b;
  uint32_t g;
  if (!grouped_params(f, &b, &g)) return base().reconstruct ? base().reconstruct(f, c, s, d, n, out) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    const int32_t q = int32_t(c[i] & ((1u << b) - 1)) - int32_t(1u << (b - 1));
    out[i] = bits_of(float(f16_value(uint16_t(s[i]))) * float(q));
  }
  return NC_OK;
}

// code / scale: the stored scale taken for an inverse scale (spec 6.2 calls this out as wrong).
int reconstruct_code_over_scale(nc_format f, const uint32_t* c, const uint32_t* s, const uint32_t* d, size_t n,
                                uint32_t* out) {
  int b;
  uint32_t g;
  if (!grouped_params(f, &b, &g)) return base().reconstruct ? base().reconstruct(f, c, s, d, n, out) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) out[i] = bits_of(float(signed_code(c[i], b)) / float(f16_value(uint16_t(s[i]))));
  return NC_OK;
}

// Scale validity by "not less than zero and finite": -0.0 < 0 is false, so 0x8000 passes.
int validate_negative_zero_scale(nc_format f, nc_component comp, const uint32_t* w, size_t n, uint8_t* valid) {
  int b;
  uint32_t g;
  if (!grouped_params(f, &b, &g) || comp != NC_COMP_SCALE)
    return base().validate_word ? base().validate_word(f, comp, w, n, valid) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    const double v = f16_value(uint16_t(w[i]));
    valid[i] = std::isfinite(v) && !(v < 0.0);
  }
  return NC_OK;
}

// The zero-scale rule (a +0 scale's group holds only zero codes) is never checked. Implemented as
// the base validator over scales where each +0 reads as 1.0: both are valid scale words, so every
// other rule, and the order rules are found in, stays the base's.
int validate_tensor_zero_scale_unchecked(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                         const uint32_t* s, size_t ns, const uint32_t* d, int32_t* rule,
                                         int64_t* where) {
  int b;
  uint32_t g;
  if (!base().validate_tensor) return NC_EUNSUPPORTED;
  if (!grouped_params(f, &b, &g)) return base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where);
  std::vector<uint32_t> scales(s, s + ns);
  for (uint32_t& w : scales)
    if (w == 0) w = 0x3c00u;
  return base().validate_tensor(f, rank, shape, c, nc, scales.data(), ns, d, rule, where);
}

// The zero-scale rule tested on the code's magnitude bits, the sign bit masked off as E4M3FN's two
// zero words would have it: the sign bit alone (-2^(b-1)) passes as a zero in a +0-scale group.
// Implemented as the base validator over codes where, inside a +0-scale group, that word reads as
// 0. Q4/Q5/Q6 only: W8's sign bit alone, 0x80, is an illegal code, reported before the rule.
int validate_tensor_zero_scale_sign_blind(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                          const uint32_t* s, size_t ns, const uint32_t* d, int32_t* rule,
                                          int64_t* where) {
  int b;
  uint32_t g;
  const Geometry geo = geometry(rank, shape);
  if (!base().validate_tensor) return NC_EUNSUPPORTED;
  if (!grouped_params(f, &b, &g) || b == 8 || !geo.ok || nc != geo.rows * geo.k || ns != geo.rows * ceil_div(geo.k, g))
    return base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where);
  std::vector<uint32_t> codes(c, c + nc);
  const uint64_t per_row = ceil_div(geo.k, g);
  for (uint64_t r = 0; r < geo.rows; ++r)
    for (uint64_t k = 0; k < geo.k; ++k) {
      uint32_t& code = codes[r * geo.k + k];
      if (s[r * per_row + k / g] == 0 && code == 1u << (b - 1)) code = 0;
    }
  return base().validate_tensor(f, rank, shape, codes.data(), nc, s, ns, d, rule, where);
}

// Scale count floor(K / G) instead of ceil_div(K, G): a tensor whose rows end in a partial group is
// rejected for carrying "too many" scales, and one missing the partial group's scale is accepted.
int validate_tensor_floor_count(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                const uint32_t* s, size_t ns, const uint32_t* d, int32_t* rule, int64_t* where) {
  int b;
  uint32_t g;
  const Geometry geo = geometry(rank, shape);
  if (!grouped_params(f, &b, &g) || !geo.ok || geo.k % g == 0 || nc != geo.rows * geo.k)
    return base().validate_tensor ? base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where)
                                  : NC_EUNSUPPORTED;
  *where = -1;
  *rule = ns == geo.rows * (geo.k / g) ? NC_RULE_NONE : NC_RULE_SHAPE;
  return NC_OK;
}

// Group index from the flat element index (i / G) instead of (row, k / G): right while K is a
// multiple of G, wrong from the second row on otherwise.
int dequantize_group_across_rows(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                 const uint32_t* s, size_t ns, const uint32_t* d, uint32_t* out) {
  int b;
  uint32_t g;
  const Geometry geo = geometry(rank, shape);
  if (!grouped_params(f, &b, &g) || !geo.ok || nc != geo.rows * geo.k || ns != geo.rows * ceil_div(geo.k, g))
    return base().dequantize ? base().dequantize(f, rank, shape, c, nc, s, ns, d, out) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < nc; ++i) {
    const float s32 = float(f16_value(uint16_t(s[i / g])));
    out[i] = bits_of(s32 * float(signed_code(c[i], b)));
  }
  return NC_OK;
}

void install_sign_magnitude(nc_plugin_v1* t) { t->decode = decode_sign_magnitude; }
void install_offset_binary(nc_plugin_v1* t) { t->reconstruct = reconstruct_offset_binary; }
void install_code_over_scale(nc_plugin_v1* t) { t->reconstruct = reconstruct_code_over_scale; }
void install_negative_zero_scale(nc_plugin_v1* t) { t->validate_word = validate_negative_zero_scale; }
// A +0 scale read as "the product is zero": a nonzero code under a +0 scale (grouped or FP8 row)
// answered +-0 (the sign of the code) instead of refused. Spec 6.1 and 3.4 make that pair invalid,
// as W8's 0x80 is, so it has no value (FORMAT.md "Invalid pairs"). Every other element delegates.
int reconstruct_zero_scale_pair_value(nc_format f, const uint32_t* c, const uint32_t* s, const uint32_t* d, size_t n,
                                      uint32_t* out) {
  if (!base().reconstruct) return NC_EUNSUPPORTED;
  int b;
  uint32_t g;
  const bool grouped = grouped_params(f, &b, &g), fp8 = f == NC_FORMAT_FP8_E4M3FN_ROW_BF16S;
  if (!grouped && !fp8) return base().reconstruct(f, c, s, d, n, out);
  std::vector<uint32_t> codes(c, c + n);
  std::vector<uint32_t> zero_answer(n, 1);  // 1: not an invalid pair, else the word answered
  for (size_t i = 0; i < n; ++i) {
    const bool negative = grouped ? signed_code(c[i], b) < 0 : (c[i] & 0x80u) != 0;
    const bool nonzero = grouped ? signed_code(c[i], b) != 0 && !(b == 8 && (c[i] & 0xffu) == 0x80u)
                                 : (c[i] & 0x7fu) != 0 && (c[i] & 0x7fu) != 0x7fu;
    if (s[i] == 0 && nonzero) {
      zero_answer[i] = negative ? 0x80000000u : 0u;
      codes[i] = 0;
    }
  }
  const int rc = base().reconstruct(f, codes.data(), s, d, n, out);
  if (rc != NC_OK) return rc;
  for (size_t i = 0; i < n; ++i)
    if (zero_answer[i] != 1) out[i] = zero_answer[i];
  return NC_OK;
}
void install_zero_scale_pair_value(nc_plugin_v1* t) { t->reconstruct = reconstruct_zero_scale_pair_value; }
void install_zero_scale_unchecked(nc_plugin_v1* t) { t->validate_tensor = validate_tensor_zero_scale_unchecked; }
void install_zero_scale_sign_blind(nc_plugin_v1* t) { t->validate_tensor = validate_tensor_zero_scale_sign_blind; }
void install_floor_count(nc_plugin_v1* t) { t->validate_tensor = validate_tensor_floor_count; }
void install_group_across_rows(nc_plugin_v1* t) { t->dequantize = dequantize_group_across_rows; }

}  // namespace

std::span<const Mutant> grouped_mutants() {
  static const Mutant kMutants[] = {
      {{"grp-sign-magnitude-codes", "grouped", "decode", "codes decoded as sign-magnitude",
        "decode.Q*G64_F16S.code decode.W8G32_F16S.code", "negative-code", "two's complement sign"},
       install_sign_magnitude},
      {{"grp-offset-binary-codes", "grouped", "reconstruct", "codes reconstructed as offset binary u - 2^(b-1)",
        "reconstruct.Q*G64_F16S reconstruct.W8G32_F16S", "negative-code", "offset zero point"},
       install_offset_binary},
      {{"grp-negative-zero-scale", "grouped", "validate", "scale 0x8000 (-0) accepted",
        "validate.Q*G64_F16S.scale validate.W8G32_F16S.scale", "negative-zero", "negative zero"},
       install_negative_zero_scale},
      {{"grp-zero-scale-unchecked", "grouped", "validate_tensor",
        "zero-scale rule unchecked: +0 scale with nonzero codes accepted",
        "validate-tensor.Q*G64_F16S validate-tensor.W8G32_F16S", "zero-scale-codes", "zero-scale"},
       install_zero_scale_unchecked},
      {{"grp-zero-scale-sign-blind", "grouped", "validate_tensor",
        "zero-scale rule on the magnitude bits: the sign bit alone accepted as a zero code under a +0 scale",
        "validate-tensor.Q*G64_F16S", "negative-code", "sign"},
       install_zero_scale_sign_blind},
      {{"grp-floor-scale-count", "grouped", "validate_tensor", "scale count floor(K/G) instead of ceil_div(K/G)",
        "validate-tensor.Q*G64_F16S validate-tensor.W8G32_F16S", "partial-group", "ceil_div partial shape"},
       install_floor_count},
      {{"grp-group-across-rows", "grouped", "dequantize", "group index i / G over the flat tensor, crossing rows",
        "dequantize.Q*G64_F16S dequantize.W8G32_F16S", "row-boundary", "row"},
       install_group_across_rows},
      {{"grp-code-over-scale", "grouped", "reconstruct", "reconstruction code / scale instead of code * scale",
        "reconstruct.Q*G64_F16S reconstruct.W8G32_F16S", "-", "multiplier divide"},
       install_code_over_scale},
      {{"grp-zero-scale-pair-value", "grouped", "reconstruct",
        "a nonzero code under a +0 scale (grouped, FP8 row) reconstructed as +-0 instead of refused",
        "reconstruct.Q*G64_F16S reconstruct.W8G32_F16S reconstruct.FP8_E4M3FN_ROW_BF16S", "zero-scale-pair",
        "zero-scale"},
       install_zero_scale_pair_value},
  };
  return kMutants;
}

}  // namespace nc::mutants
