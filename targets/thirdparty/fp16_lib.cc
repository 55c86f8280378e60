// The FP16 library (Maratyszcza's header-only fp16.h, Debian libfp16-dev): IEEE binary16 <->
// binary32 through the value functions most users call.
//
// Conventions of this library (fp16.h comments): fp16_ieee_from_fp32_value rounds to nearest even
// by scaling in binary32 arithmetic (it relies on the default rounding mode and on subnormals not
// being flushed, which this project guarantees: no FTZ/DAZ, SSE math); overflow -> infinity;
// NaN -> the canonical quiet NaN 0x7e00 / 0xfe00 (payload dropped, sign kept).
// fp16_ieee_to_fp32_value widens through binary32 arithmetic, so a signalling NaN comes back
// quieted (payload and sign kept).
// The library has no bfloat16, FP8 or FP4, so only F16 decode and F32_TO_F16_RNE are provided.
#include <fp16.h>

#include "adapter.h"

namespace {

uint32_t decode_f16(uint32_t w) { return nc_tp::bits_of(fp16_ieee_to_fp32_value(static_cast<uint16_t>(w & 0xffffu))); }
uint32_t to_f16(uint32_t w) { return fp16_ieee_from_fp32_value(nc_tp::f32_from_bits(w)); }

int decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  if (wt != NC_WT_F16) return NC_EUNSUPPORTED;
  return nc_tp::map_words(words, n, out, valid, decode_f16);
}

int convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (recipe != NC_RECIPE_F32_TO_F16_RNE) return NC_EUNSUPPORTED;
  return nc_tp::map_words(src, n, out, nullptr, to_f16);
}

constexpr nc_plugin_v1 kTable = nc_tp::scalar_table("fp16-lib", NC_TP_VERSION, decode, convert);

}  // namespace

NC_TP_EXPORT const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return &kTable; }
