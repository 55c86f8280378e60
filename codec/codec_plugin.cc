// Thin adapters from the C ABI to nc_codec. Statuses: NC_EINVALID for arguments the runner got
// wrong (a selector outside its enum, a word with bits above its type's width, NULL arrays,
// inconsistent sizes); NC_EUNSUPPORTED where the operation does not exist for the format (e.g.
// encode NVFP4). Trace words of steps a group did not reach (raw_scale32 and inv32 of an
// all-zero group; everything of a group after a failure) are written as 0.
#include "codec/codec_plugin.h"

#include <fenv.h>

#include <span>

#include "codec/blockscale_layout.h"
#include "codec/fp8_row.h"
#include "codec/grouped.h"
#include "codec/maxabs_f16_recip_rne_v1.h"
#include "codec/nvfp4.h"
#include "codec/recipes.h"
#include "codec/tensor.h"
#include "codec/words.h"
#include "registry/registry.h"

namespace {
using namespace nc;
using namespace nc::codec;

// The spec's arithmetic is IEEE 754 binary32 with round-to-nearest-even and subnormals; the few
// native float operations of the codec (dequantize's division, encode's F64 inputs) would follow a
// host's rounding direction or FTZ/DAZ (a fast-math library's constructor sets them). Every entry
// point runs in the default environment and gives the caller back its own.
class DefaultFpEnv {
 public:
  DefaultFpEnv() {
    fegetenv(&saved_);
    fesetenv(FE_DFL_ENV);
  }
  ~DefaultFpEnv() { fesetenv(&saved_); }
  DefaultFpEnv(const DefaultFpEnv&) = delete;
  DefaultFpEnv& operator=(const DefaultFpEnv&) = delete;

 private:
  fenv_t saved_;
};

bool format_ok(nc_format f) { return unsigned(f) < unsigned(kFormatCount); }

int decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  DefaultFpEnv fp_env;
  if (unsigned(wt) >= unsigned(kWordTypeCount) || (n && (!words || !out || !valid))) return NC_EINVALID;
  const WordType t = WordType(wt);
  for (size_t i = 0; i < n; ++i)
    if (!check_word(t, words[i])) return NC_EINVALID;
  if (is_float_word(t)) {
    for (size_t i = 0; i < n; ++i) {
      out[i] = float_word_to_f32(t, words[i]);
      valid[i] = 1;
    }
    return NC_OK;
  }
  for (size_t i = 0; i < n; ++i) {
    auto v = int_word_value(t, words[i]);
    out[i] = v ? uint32_t(*v) : 0;
    valid[i] = v ? 1 : 0;
  }
  return NC_OK;
}

int validate_word(nc_format fmt, nc_component comp, const uint32_t* words, size_t n, uint8_t* valid) {
  DefaultFpEnv fp_env;
  if (!format_ok(fmt) || (n && (!words || !valid))) return NC_EINVALID;
  const FormatInfo& fi = info(Format(fmt));
  std::optional<WordType> wt;
  switch (comp) {
    case NC_COMP_WORD:
      if (fi.category == Category::Direct) wt = fi.code;
      break;
    case NC_COMP_CODE:
      if (fi.category != Category::Direct) wt = fi.code;
      break;
    case NC_COMP_SCALE:
      wt = fi.scale;
      break;
    case NC_COMP_DIVISOR:
      wt = fi.divisor;
      break;
    default:
      return NC_EINVALID;
  }
  if (!wt) return NC_EINVALID;  // the format has no such component
  for (size_t i = 0; i < n; ++i) {
    const uint32_t w = words[i];
    if (!check_word(*wt, w)) return NC_EINVALID;
    bool ok = true;
    if (comp == NC_COMP_CODE) {
      if (fi.code == WordType::W8_CODE) ok = w != 0x80;
      else if (fi.category == Category::RowScaledFloat) ok = fp8_row_code_valid(w);
    } else if (comp == NC_COMP_SCALE) {
      switch (fi.category) {
        case Category::GroupedInt:
          ok = !f16_scale_rule(w);
          break;
        case Category::BlockScaledFloat:
          ok = !e4m3fn_block_scale_rule(w);
          break;
        default:
          ok = !bf16_row_scale_rule(w);
          break;
      }
    } else if (comp == NC_COMP_DIVISOR) {
      ok = nvfp4_divisor_valid(w);
    }
    valid[i] = ok ? 1 : 0;
  }
  return NC_OK;
}

int parse_format(const char* name, size_t len, int32_t* out_format) {
  DefaultFpEnv fp_env;
  if (!out_format || (len && !name)) return NC_EINVALID;
  const auto f = find_format(std::string_view(name ? name : "", len));
  *out_format = f ? int32_t(*f) : -1;
  return NC_OK;
}

int reconstruct(nc_format fmt, const uint32_t* code, const uint32_t* scale, const uint32_t* divisor, size_t n,
                uint32_t* out) {
  DefaultFpEnv fp_env;
  if (!format_ok(fmt) || (n && (!code || !scale || !out))) return NC_EINVALID;
  const FormatInfo& fi = info(Format(fmt));
  if (fi.category == Category::Direct) return NC_EUNSUPPORTED;
  if (fi.category == Category::BlockScaledFloat && n && !divisor) return NC_EINVALID;
  for (size_t i = 0; i < n; ++i)
    if (!check_word(fi.code, code[i]) || !check_word(*fi.scale, scale[i])) return NC_EINVALID;
  switch (fi.category) {
    case Category::GroupedInt:
      for (size_t i = 0; i < n; ++i) {
        auto q = int_word_value(fi.code, code[i]);
        if (!q) return NC_EINVALID;                        // W8 0x80 has no value to reconstruct
        if (scale[i] == 0 && *q != 0) return NC_EINVALID;  // spec 6.1: an invalid pair has no value
        out[i] = grouped_reconstruct(scale[i], *q);
      }
      break;
    case Category::BlockScaledFloat:
      for (size_t i = 0; i < n; ++i) out[i] = nvfp4_reconstruct(code[i], scale[i], divisor[i]);
      break;
    default:
      for (size_t i = 0; i < n; ++i)  // spec 3.4: only signed-zero codes under a +0 row scale
        if (scale[i] == 0 && (code[i] & 0x7fu) != 0) return NC_EINVALID;
      for (size_t i = 0; i < n; ++i) out[i] = fp8_row_reconstruct(code[i], scale[i]);
      break;
  }
  return NC_OK;
}

int convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  DefaultFpEnv fp_env;
  if (unsigned(recipe) >= unsigned(kRecipeCount) || (n && (!src || !out))) return NC_EINVALID;
  convert_batch(Recipe(recipe), src, n, out);
  return NC_OK;
}

int encode(nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows, size_t k, uint32_t* scales,
           int32_t* codes, uint32_t* trace, int32_t* outcome) {
  DefaultFpEnv fp_env;
  if (!format_ok(fmt) || unsigned(src_type) > NC_SRC_F64 || !outcome) return NC_EINVALID;
  const auto scheme = grouped_scheme(Format(fmt));
  if (!scheme) return NC_EUNSUPPORTED;
  if (rows == 0 || k == 0 || !src || !scales || !codes) return NC_EINVALID;
  auto r = maxabs_f16_recip_rne_v1(Format(fmt), SourceType(src_type), std::span(src, rows * k), rows, k);
  if (!r) return NC_EINVALID;
  const Encoding& e = *r;
  if (trace)
    for (size_t g = 0; g < e.trace.size(); ++g) {
      const GroupTrace& t = e.trace[g];
      trace[4 * g + 0] = t.amax32.value_or(0);
      trace[4 * g + 1] = t.raw_scale32.value_or(0);
      trace[4 * g + 2] = t.scale16.value_or(0);
      trace[4 * g + 3] = t.inv32.value_or(0);
    }
  if (e.failure) {
    *outcome = e.failure->rule == Rule::Nonfinite ? NC_ENCODE_FAIL_NONFINITE : NC_ENCODE_FAIL_SCALE_OVERFLOW;
    return NC_OK;
  }
  for (size_t i = 0; i < e.scales.size(); ++i) scales[i] = e.scales[i];
  for (size_t i = 0; i < e.codes.size(); ++i) codes[i] = e.codes[i];
  *outcome = NC_ENCODE_OK;
  return NC_OK;
}

TensorView view(size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes, const uint32_t* scales,
                size_t n_scales, const uint32_t* divisor) {
  return TensorView{std::span(shape, rank), std::span(codes, n_codes), std::span(scales, n_scales),
                    divisor ? std::optional<uint32_t>(*divisor) : std::nullopt};
}

int validate_tensor(nc_format fmt, size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes,
                    const uint32_t* scales, size_t n_scales, const uint32_t* divisor, int32_t* rule, int64_t* where) {
  DefaultFpEnv fp_env;
  if (!format_ok(fmt) || !rule || !where || (rank && !shape) || (n_codes && !codes) || (n_scales && !scales))
    return NC_EINVALID;
  if (info(Format(fmt)).category == Category::Direct) return NC_EUNSUPPORTED;
  const auto v = nc::codec::validate_tensor(Format(fmt), view(rank, shape, codes, n_codes, scales, n_scales, divisor));
  if (!v) {
    *rule = NC_RULE_NONE;
    *where = -1;
    return NC_OK;
  }
  switch (v->rule) {
    case Rule::Shape:
      *rule = NC_RULE_SHAPE;
      break;
    case Rule::CodeIllegal:
      *rule = NC_RULE_CODE_ILLEGAL;
      break;
    case Rule::ScaleNegative:
      *rule = NC_RULE_SCALE_NEGATIVE;
      break;
    case Rule::ScaleNonfinite:
      *rule = NC_RULE_SCALE_NONFINITE;
      break;
    case Rule::ZeroScaleCodes:
      *rule = NC_RULE_ZERO_SCALE_CODES;
      break;
    case Rule::Divisor:
      *rule = NC_RULE_DIVISOR;
      break;
    default:
      return NC_EINVALID;  // WordRange: not words of their type
  }
  *where = v->index;
  return NC_OK;
}

int dequantize(nc_format fmt, size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes,
               const uint32_t* scales, size_t n_scales, const uint32_t* divisor, uint32_t* out) {
  DefaultFpEnv fp_env;
  if (!format_ok(fmt) || (rank && !shape) || (n_codes && (!codes || !out)) || (n_scales && !scales)) return NC_EINVALID;
  if (info(Format(fmt)).category == Category::Direct) return NC_EUNSUPPORTED;
  auto r = nc::codec::dequantize(Format(fmt), view(rank, shape, codes, n_codes, scales, n_scales, divisor));
  if (!r) return NC_EINVALID;
  for (size_t i = 0; i < r->size(); ++i) out[i] = (*r)[i];
  return NC_OK;
}

int layout_offsets(nc_format fmt, nc_layout layout, const uint64_t* rows, const uint64_t* k, const uint64_t* row,
                   const uint64_t* block, size_t n, uint64_t* offset, uint64_t* plane_bytes) {
  if (n && (!rows || !k || !row || !block || !offset || !plane_bytes)) return NC_EINVALID;
  if (fmt != NC_FORMAT_NVFP4 || layout != NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1) return NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    auto p = nc::codec::blockscale_k16_m128x4_v1(rows[i], k[i], row[i], block[i]);
    if (!p) return NC_EINVALID;
    offset[i] = p->offset;
    plane_bytes[i] = p->plane_bytes;
  }
  return NC_OK;
}

const nc_plugin_v1 kTable = {
    NC_PLUGIN_ABI_VERSION,
    "ninfer-conform-cpu-codec",
    "0.1.0",
    decode,
    validate_word,
    parse_format,
    reconstruct,
    convert,
    encode,
    validate_tensor,
    dequantize,
    layout_offsets,
};
}  // namespace

extern "C" const nc_plugin_v1* nc_codec_plugin_table(void) { return &kTable; }
