// Whole-tensor mutants common to the scaled formats (spec 3.3, 3.4, 4 to 6): the order in which a
// validator visits the planes, and a bulk dequantize path that flushes subnormals.
#include <algorithm>
#include <vector>

#include "targets/mutants/geometry.h"
#include "targets/mutants/mutant.h"

namespace nc::mutants {
namespace {

// Elements per scale along K (FP8 row: the whole row) and a valid nonzero scale word (1.0).
bool scale_geometry(nc_format f, uint64_t k, uint64_t* span, uint32_t* one) {
  int bits;
  uint32_t group;
  if (grouped_params(f, &bits, &group)) return *span = group, *one = 0x3c00u, true;
  if (f == NC_FORMAT_NVFP4) return *span = 16, *one = 0x38u, true;
  if (f == NC_FORMAT_FP8_E4M3FN_ROW_BF16S) return *span = k, *one = 0x3f80u, true;
  return false;
}

// One pass over the groups: scale g, then the codes of g, then scale g + 1 ... instead of every
// scale before any code. Each step asks the correct validator about a tensor holding only that
// scale (and its codes) with every other scale 1.0 and every other code 0, so only the visiting
// order differs; shape and divisor are still checked first.
int validate_tensor_one_pass(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                             const uint32_t* s, size_t ns, const uint32_t* d, int32_t* rule, int64_t* where) {
  if (!base().validate_tensor) return NC_EUNSUPPORTED;
  const int rc = base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where);
  const Geometry geo = geometry(rank, shape);
  uint64_t span;
  uint32_t one;
  if (rc != NC_OK || *rule == NC_RULE_NONE || *rule == NC_RULE_SHAPE || *rule == NC_RULE_DIVISOR || !geo.ok ||
      !scale_geometry(f, geo.k, &span, &one))
    return rc;
  const uint64_t per_row = ceil_div(geo.k, span);
  std::vector<uint32_t> codes(nc, 0), scales(ns, one);
  for (size_t j = 0; j < ns; ++j) {
    const uint64_t first = (j / per_row) * geo.k + (j % per_row) * span;
    const uint64_t end = std::min<uint64_t>(first + span, (j / per_row + 1) * geo.k);
    scales[j] = s[j];
    int r = base().validate_tensor(f, rank, shape, codes.data(), nc, scales.data(), ns, d, rule, where);
    if (r != NC_OK || *rule != NC_RULE_NONE) return r;
    for (uint64_t i = first; i < end; ++i) codes[i] = c[i];
    r = base().validate_tensor(f, rank, shape, codes.data(), nc, scales.data(), ns, d, rule, where);
    if (r != NC_OK || *rule != NC_RULE_NONE) return r;
    for (uint64_t i = first; i < end; ++i) codes[i] = 0;
    scales[j] = one;
  }
  return base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where);
}

// A bulk path with flush-to-zero on: every binary32 subnormal result becomes a zero of its sign.
int dequantize_ftz(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc, const uint32_t* s,
                   size_t ns, const uint32_t* d, uint32_t* out) {
  if (!base().dequantize) return NC_EUNSUPPORTED;
  const int rc = base().dequantize(f, rank, shape, c, nc, s, ns, d, out);
  if (rc == NC_OK)
    for (size_t i = 0; i < nc; ++i)
      if ((out[i] & 0x7f800000u) == 0) out[i] &= 0x80000000u;
  return rc;
}

// A bulk path with denormals-are-zero on: subnormal scale words (binary16, E4M3FN or BF16) read as +0.
bool subnormal_scale(nc_format f, uint32_t w) {
  int bits;
  uint32_t group;
  if (grouped_params(f, &bits, &group)) return (w & 0x7c00u) == 0 && (w & 0x03ffu) != 0;
  if (f == NC_FORMAT_NVFP4) return (w & 0x78u) == 0 && (w & 0x07u) != 0;
  return (w & 0x7f80u) == 0 && (w & 0x007fu) != 0;
}
int dequantize_daz_scales(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                          const uint32_t* s, size_t ns, const uint32_t* d, uint32_t* out) {
  if (!base().dequantize) return NC_EUNSUPPORTED;
  std::vector<uint32_t> scales(s, s + ns);
  for (uint32_t& w : scales)
    if (subnormal_scale(f, w)) w = 0;
  return base().dequantize(f, rank, shape, c, nc, scales.data(), ns, d, out);
}

// A bulk grouped dequantize whose partial final group is walked two codes at a time (two Q4 codes
// share a byte in packed layouts) with the pair loop bound i + 2 < end, and a lone last code
// handled after it when end - i == 1: a partial group of even length never writes its last pair
// (the output stays +0). Full groups take the vector path and are right; odd lengths are right.
int dequantize_even_tail_dropped(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                 const uint32_t* s, size_t ns, const uint32_t* d, uint32_t* out) {
  if (!base().dequantize) return NC_EUNSUPPORTED;
  const int rc = base().dequantize(f, rank, shape, c, nc, s, ns, d, out);
  int bits;
  uint32_t g;
  if (rc != NC_OK || !grouped_params(f, &bits, &g) || rank == 0) return rc;
  const uint64_t k = shape[rank - 1], tail = k % g;
  if (tail == 0 || tail % 2 || k == 0) return rc;
  for (uint64_t row = 0; (row + 1) * k <= nc; ++row) out[row * k + k - 2] = out[row * k + k - 1] = 0;
  return rc;
}

// The tensor check written apart from the word check, with an off-by-one finiteness test on the
// scale plane: "word >= largest finite" instead of ">" (binary16 0x7bff, BF16 0x7f7f), so the
// largest finite scale is reported scale-nonfinite; the word check (validate) stays right. The
// first scale in row-major order holding that word is named, unless the correct validator finds a
// shape or divisor error or an earlier bad scale.
int validate_tensor_max_scale_nonfinite(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                        const uint32_t* s, size_t ns, const uint32_t* d, int32_t* rule,
                                        int64_t* where) {
  if (!base().validate_tensor) return NC_EUNSUPPORTED;
  const int rc = base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where);
  int bits;
  uint32_t group;
  const uint32_t top = grouped_params(f, &bits, &group) ? 0x7bffu : f == NC_FORMAT_FP8_E4M3FN_ROW_BF16S ? 0x7f7fu : 0;
  if (rc != NC_OK || top == 0 || *rule == NC_RULE_SHAPE || *rule == NC_RULE_DIVISOR) return rc;
  const bool scale_rule = *rule == NC_RULE_SCALE_NEGATIVE || *rule == NC_RULE_SCALE_NONFINITE;
  for (size_t j = 0; j < ns; ++j) {
    if (scale_rule && int64_t(j) >= *where) break;
    if (s[j] == top) return *rule = NC_RULE_SCALE_NONFINITE, *where = int64_t(j), NC_OK;
  }
  return rc;
}

// The NVFP4 divisor's NaN test in the tensor check made on the quiet bit ((d & 0x7fc00000) ==
// 0x7fc00000), as a comparison with the canonical NaN's pattern is: a positive signalling NaN
// divisor (0x7f800001 .. 0x7fbfffff) passes as a valid d_w. Negative ones still fail on the sign.
int validate_tensor_snan_divisor(nc_format f, size_t rank, const uint64_t* shape, const uint32_t* c, size_t nc,
                                 const uint32_t* s, size_t ns, const uint32_t* d, int32_t* rule, int64_t* where) {
  if (!base().validate_tensor) return NC_EUNSUPPORTED;
  if (f == NC_FORMAT_NVFP4 && d && *d > 0x7f800000u && *d < 0x7fc00000u) {
    const uint32_t one = 0x3f800000u;  // read as an ordinary valid divisor
    return base().validate_tensor(f, rank, shape, c, nc, s, ns, &one, rule, where);
  }
  return base().validate_tensor(f, rank, shape, c, nc, s, ns, d, rule, where);
}

void install_max_scale_nonfinite(nc_plugin_v1* t) { t->validate_tensor = validate_tensor_max_scale_nonfinite; }
void install_snan_divisor(nc_plugin_v1* t) { t->validate_tensor = validate_tensor_snan_divisor; }
void install_one_pass(nc_plugin_v1* t) { t->validate_tensor = validate_tensor_one_pass; }
void install_ftz(nc_plugin_v1* t) { t->dequantize = dequantize_ftz; }
void install_daz_scales(nc_plugin_v1* t) { t->dequantize = dequantize_daz_scales; }
void install_even_tail_dropped(nc_plugin_v1* t) { t->dequantize = dequantize_even_tail_dropped; }

}  // namespace

std::span<const Mutant> tensor_mutants() {
  static const Mutant kMutants[] = {
      {{"tensor-one-pass-validator", "tensor", "validate_tensor",
        "one pass per group (scale g, codes of g, scale g+1) instead of every scale before any code",
        "validate-tensor.*", "cross-group-order", "order"},
       install_one_pass},
      {{"tensor-dequantize-ftz", "tensor", "dequantize", "subnormal binary32 results flushed to zero",
        "dequantize.NVFP4 dequantize.FP8_E4M3FN_ROW_BF16S", "subnormal-result", "subnormal"},
       install_ftz},
      {{"tensor-dequantize-daz-scales", "tensor", "dequantize", "subnormal scale words read as zero", "dequantize.*",
        "subnormal-scale", "subnormal"},
       install_daz_scales},
      {{"tensor-dequantize-even-tail", "tensor", "dequantize",
        "a partial final group of even length loses its last pair (pair loop bound i + 2 < end)",
        "dequantize.Q*G64_F16S dequantize.W8G32_F16S", "encode-chain", "partial group"},
       install_even_tail_dropped},
      {{"tensor-max-scale-nonfinite", "tensor", "validate_tensor",
        "the largest finite binary16/BF16 scale reported scale-nonfinite (>= instead of >), word check right",
        "validate-tensor.Q*G64_F16S* validate-tensor.W8G32_F16S* validate-tensor.FP8_E4M3FN_ROW_BF16S*",
        "max-finite-scale", "largest finite max"},
       install_max_scale_nonfinite},
      {{"tensor-snan-divisor", "tensor", "validate_tensor",
        "NVFP4 divisor NaN test on the quiet bit: a positive signalling-NaN d_w accepted", "validate-tensor.NVFP4*",
        "nan-divisor", "divisor nan"},
       install_snan_divisor},
  };
  return kMutants;
}

}  // namespace nc::mutants
