// Eigen's Eigen::bfloat16 and Eigen::half scalar types (Eigen/Core), host build without -mf16c,
// so Eigen::half takes its portable software path (float_to_half_rtne / half_to_float).
//
// Conventions of this library (Eigen/src/Core/arch/Default/BFloat16.h, Half.h):
// - float -> bfloat16: RNE; a NaN becomes a canonical quiet NaN keeping only its sign.
// - float -> half: RNE, overflow to infinity, NaN -> quiet NaN.
// - bfloat16/half -> float: exact widening.
// Eigen has no FP8 or FP4 types, so E4M3FN and E2M1 are not provided.
#include <Eigen/Core>

#include "adapter.h"

namespace {

using nc_tp::bits_of;
using nc_tp::f32_from_bits;

uint32_t decode_bf16(uint32_t w) {
  return bits_of(static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(static_cast<uint16_t>(w & 0xffffu))));
}
uint32_t decode_f16(uint32_t w) {
  return bits_of(static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(static_cast<uint16_t>(w & 0xffffu))));
}

int decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  switch (wt) {
    case NC_WT_BF16:
      return nc_tp::map_words(words, n, out, valid, decode_bf16);
    case NC_WT_F16:
      return nc_tp::map_words(words, n, out, valid, decode_f16);
    default:
      return NC_EUNSUPPORTED;
  }
}

uint32_t to_bf16(uint32_t w) { return Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(f32_from_bits(w))); }
uint32_t to_f16(uint32_t w) { return Eigen::numext::bit_cast<uint16_t>(Eigen::half(f32_from_bits(w))); }

int convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  switch (recipe) {
    case NC_RECIPE_F32_TO_BF16_RNE:
      return nc_tp::map_words(src, n, out, nullptr, to_bf16);
    case NC_RECIPE_F32_TO_F16_RNE:
      return nc_tp::map_words(src, n, out, nullptr, to_f16);
    default:
      return NC_EUNSUPPORTED;
  }
}

constexpr nc_plugin_v1 kTable = nc_tp::scalar_table("eigen", NC_TP_VERSION, decode, convert);

}  // namespace

NC_TP_EXPORT const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return &kTable; }
