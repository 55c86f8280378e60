// NVFP4 mutants (spec 3.3): W = e2m1 * e4m3fn / d_w, block scales sign-zero finite E4M3FN words,
// d_w finite and strictly positive, one scale per 16 along K.
#include <cmath>
#include <vector>

#include "targets/mutants/geometry.h"
#include "targets/mutants/mutant.h"
#include "targets/mutants/words.h"

namespace nc::mutants {
namespace {

// d_w taken as a global multiplier (the "global scale" of other block formats) instead of a divisor.
int reconstruct_multiply_divisor(nc_format f, const uint32_t* c, const uint32_t* s, const uint32_t* d, size_t n,
                                 uint32_t* out) {
  if (f != NC_FORMAT_NVFP4 || !d) return base().reconstruct ? base().reconstruct(f, c, s, d, n, out) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) out[i] = bits_of(e2m1_value(c[i]) * e4m3fn_value(s[i]) * f32_from_bits(d[i]));
  return NC_OK;
}

// Block-scale validity by "value >= 0 and not NaN": -0.0 >= 0 holds, so 0x80 passes.
int validate_negative_zero_block_scale(nc_format f, nc_component comp, const uint32_t* w, size_t n, uint8_t* valid) {
  if (f != NC_FORMAT_NVFP4 || comp != NC_COMP_SCALE)
    return base().validate_word ? base().validate_word(f, comp, w, n, valid) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) valid[i] = e4m3fn_value(w[i] & 0xffu) >= 0.0f;  // false for NaN
  return NC_OK;
}

// Divisor checked for finiteness only: zero and negative divisors pass.
int validate_divisor_finite_only(nc_format f, nc_component comp, const uint32_t* w, size_t n, uint8_t* valid) {
  if (f != NC_FORMAT_NVFP4 || comp != NC_COMP_DIVISOR)
    return base().validate_word ? base().validate_word(f, comp, w, n, valid) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) valid[i] = std::isfinite(f32_from_bits(w[i]));
  return NC_OK;
}

// A dequantize over a well-formed NVFP4 tensor (scale plane [N, ceil_div(K, 16)]) that gives
// element k of row r as value(code, the scale word at r * ceil_div(K, 16) + k / block, d_w);
// any other request goes to the base table.
template <class Value>
int dequantize_nvfp4_as(uint64_t block, Value value, nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c,
                        size_t nc, const uint32_t* s, size_t ns, const uint32_t* d, uint32_t* out) {
  const Geometry geo = geometry(rank, shape);
  if (f != NC_FORMAT_NVFP4 || !d || !geo.ok || nc != geo.rows * geo.k || ns != geo.rows * ceil_div(geo.k, 16))
    return base().dequantize ? base().dequantize(f, rank, shape, c, nc, s, ns, d, out) : NC_EUNSUPPORTED;
  const float dw = f32_from_bits(*d);
  const uint64_t per_row = ceil_div(geo.k, 16);
  for (uint64_t r = 0; r < geo.rows; ++r)
    for (uint64_t k = 0; k < geo.k; ++k)
      out[r * geo.k + k] = bits_of(value(c[r * geo.k + k], s[r * per_row + k / block], dw));
  return NC_OK;
}

// Blocks of 32 along K (MXFP4's geometry) over NVFP4's scale plane: element k of row r reads
// scale r * ceil_div(K, 16) + k / 32.
int dequantize_group_32(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                        const uint32_t* s, size_t ns, const uint32_t* d, uint32_t* out) {
  auto value = [](uint32_t code, uint32_t scale, float dw) { return e2m1_value(code) * e4m3fn_value(scale) / dw; };
  return dequantize_nvfp4_as(32, value, f, rank, shape, c, nc, s, ns, d, out);
}

// d_w folded into each block scale first, as bulk kernels combine their two scales: e4m3fn / d_w is
// rounded to binary32, then multiplied by the code and rounded again (spec 3.3 rounds once).
int dequantize_folded_divisor(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                              const uint32_t* s, size_t ns, const uint32_t* d, uint32_t* out) {
  auto value = [](uint32_t code, uint32_t scale, float dw) {
    const float folded = e4m3fn_value(scale) / dw;
    return e2m1_value(code) * folded;
  };
  return dequantize_nvfp4_as(16, value, f, rank, shape, c, nc, s, ns, d, out);
}

// A K that is not a multiple of 16 accepted as a short final block (the grouped schemes' partial
// group of spec 4, which spec 3.3 does not give NVFP4): the tensor is padded to full blocks with
// +0 codes and handed to the correct validator (every E2M1 code is valid, so no code index to map).
int validate_tensor_partial_block(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                  const uint32_t* s, size_t ns, const uint32_t* d, int32_t* rule, int64_t* where) {
  if (!base().validate_tensor) return NC_EUNSUPPORTED;
  const Geometry geo = geometry(rank, shape);
  if (f != NC_FORMAT_NVFP4 || rank != 2 || !geo.ok || geo.k % 16 == 0 || nc != geo.rows * geo.k)
    return base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where);
  const uint64_t padded_k = ceil_div(geo.k, 16) * 16;
  std::vector<uint32_t> codes(geo.rows * padded_k, 0);
  for (uint64_t r = 0; r < geo.rows; ++r)
    for (uint64_t k = 0; k < geo.k; ++k) codes[r * padded_k + k] = c[r * geo.k + k];
  const uint64_t padded_shape[2] = {geo.rows, padded_k};
  return base().validate_tensor(f, 2, padded_shape, codes.data(), codes.size(), s, ns, d, rule, where);
}

// blockscale-k16-m128x4-v1 offsets with the tile formula of vectors/FORMAT.md, refusing what
// `lenient` lets through differently: ceil_blocks lays out K not a multiple of 16 with
// ceil_div(K, 16) block columns (a short final block); padded_ok answers any coordinate inside the
// padded plane (rows up to the tile's 128, block columns up to its 4) instead of the logical matrix.
template <bool ceil_blocks, bool padded_ok>
int layout_lenient(nc_format f, nc_layout l, const uint64_t* rows, const uint64_t* k, const uint64_t* row,
                   const uint64_t* block, size_t n, uint64_t* offset, uint64_t* plane_bytes) {
  if (!base().layout_offsets) return NC_EUNSUPPORTED;
  if (f != NC_FORMAT_NVFP4 || l != NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1)
    return base().layout_offsets(f, l, rows, k, row, block, n, offset, plane_bytes);
  for (size_t i = 0; i < n; ++i) {
    if (!ceil_blocks && k[i] % 16) return NC_EINVALID;
    const uint64_t blocks = (k[i] + 15) / 16, c = (blocks + 3) / 4, tile_rows = (rows[i] + 127) / 128;
    const uint64_t max_row = padded_ok ? tile_rows * 128 : rows[i], max_block = padded_ok ? c * 4 : blocks;
    if (rows[i] == 0 || blocks == 0 || row[i] >= max_row || block[i] >= max_block) return NC_EINVALID;
    const uint64_t m = row[i], j = block[i];
    offset[i] = ((m / 128) * c + j / 4) * 512 + (m % 32) * 16 + ((m % 128) / 32) * 4 + j % 4;
    plane_bytes[i] = tile_rows * c * 512;
  }
  return NC_OK;
}
void install_layout_ceil_blocks(nc_plugin_v1* t) { t->layout_offsets = layout_lenient<true, false>; }
void install_layout_padded_index(nc_plugin_v1* t) { t->layout_offsets = layout_lenient<false, true>; }

// The multiplier form of bulk kernels: 1 / d_w rounded to binary32 once, then e2m1 * e4m3 * that
// reciprocal (the code-scale product is exact in binary32, so one more rounding): up to 2 ulp off
// the single rounding of e2m1 * e4m3 / d_w that spec 3.3 defines. A divisor whose reciprocal
// overflows (below 2^-128) is divided instead, as a host that precomputes the reciprocal must.
int reconstruct_reciprocal_multiplier(nc_format f, const uint32_t* c, const uint32_t* s, const uint32_t* d, size_t n,
                                      uint32_t* out) {
  if (f != NC_FORMAT_NVFP4 || !d) return base().reconstruct ? base().reconstruct(f, c, s, d, n, out) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    const float inverse = 1.0f / f32_from_bits(d[i]), product = e2m1_value(c[i]) * e4m3fn_value(s[i]);
    out[i] = bits_of(std::isfinite(inverse) ? product * inverse : product / f32_from_bits(d[i]));
  }
  return NC_OK;
}

void install_multiply_divisor(nc_plugin_v1* t) { t->reconstruct = reconstruct_multiply_divisor; }
void install_reciprocal_multiplier(nc_plugin_v1* t) { t->reconstruct = reconstruct_reciprocal_multiplier; }
void install_negative_zero_scale(nc_plugin_v1* t) { t->validate_word = validate_negative_zero_block_scale; }
void install_divisor_finite_only(nc_plugin_v1* t) { t->validate_word = validate_divisor_finite_only; }
void install_group_32(nc_plugin_v1* t) { t->dequantize = dequantize_group_32; }
void install_folded_divisor(nc_plugin_v1* t) { t->dequantize = dequantize_folded_divisor; }
void install_partial_block(nc_plugin_v1* t) { t->validate_tensor = validate_tensor_partial_block; }

}  // namespace

std::span<const Mutant> nvfp4_mutants() {
  static const Mutant kMutants[] = {
      {{"nvfp4-multiply-divisor", "nvfp4", "reconstruct", "W = e2m1 * e4m3 * d_w instead of / d_w", "reconstruct.NVFP4",
        "-", "divisor multipl"},
       install_multiply_divisor},
      {{"nvfp4-negative-zero-scale", "nvfp4", "validate", "block scale 0x80 (-0) accepted", "validate.NVFP4.scale",
        "negative-zero", "negative zero"},
       install_negative_zero_scale},
      {{"nvfp4-nonpositive-divisor", "nvfp4", "validate", "divisor d_w <= 0 accepted (finiteness only)",
        "validate.NVFP4.divisor", "divisor", "positive divisor"},
       install_divisor_finite_only},
      {{"nvfp4-group-32", "nvfp4", "dequantize", "one block scale per 32 along K instead of 16", "dequantize.NVFP4",
        "-", "group 16"},
       install_group_32},
      {{"nvfp4-folded-divisor", "nvfp4", "dequantize",
        "d_w folded into the block scale first: e2m1 * (e4m3 / d_w), rounded twice", "dequantize.NVFP4",
        "code-scale-grid", "fold"},
       install_folded_divisor},
      {{"nvfp4-partial-block", "nvfp4", "validate_tensor", "K not a multiple of 16 accepted with a short final block",
        "validate-tensor.NVFP4", "partial-block", "partial block 16 shape"},
       install_partial_block},
      {{"nvfp4-layout-ceil-blocks", "nvfp4", "layout_offsets",
        "K not a multiple of 16 laid out with ceil_div(K, 16) block columns instead of refused", "layout.NVFP4.*",
        "refused-k", "refusal multiple 16"},
       install_layout_ceil_blocks},
      {{"nvfp4-layout-padded-index", "nvfp4", "layout_offsets",
        "a row or block column inside the padded tile but outside the logical scale matrix given an offset",
        "layout.NVFP4.*", "refused-index", "refusal outside"},
       install_layout_padded_index},

      {{"nvfp4-reciprocal-multiplier", "nvfp4", "reconstruct",
        "W = e2m1 * e4m3 * binary32(1 / d_w): the reciprocal rounded first (up to 2 ulp off)", "reconstruct.NVFP4*",
        "multiplier-2ulp", "reciprocal multipl"},
       install_reciprocal_multiplier},
  };
  return kMutants;
}

}  // namespace nc::mutants
