// GCC's _Float16 conversions written once as plain C++ casts. What instructions they become is
// decided by how the including file is compiled: without -mf16c GCC calls libgcc's
// __truncsfhf2 / __extendhfsf2 (software); with -mf16c it emits vcvtps2ph / vcvtph2ps.
// Internal linkage, so each including translation unit gets its own compiled copy.
#pragma once

#include "adapter.h"

namespace nc_tp {
namespace {

inline uint32_t gcc_f16_widen(uint32_t w) {
  return bits_of(static_cast<float>(std::bit_cast<_Float16>(static_cast<uint16_t>(w & 0xffffu))));
}
inline uint32_t gcc_f16_narrow(uint32_t w) { return std::bit_cast<uint16_t>(static_cast<_Float16>(f32_from_bits(w))); }

inline int gcc_f16_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  if (wt != NC_WT_F16) return NC_EUNSUPPORTED;
  return map_words(words, n, out, valid, gcc_f16_widen);
}

inline int gcc_f16_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (recipe != NC_RECIPE_F32_TO_F16_RNE) return NC_EUNSUPPORTED;
  return map_words(src, n, out, nullptr, gcc_f16_narrow);
}

}  // namespace
}  // namespace nc_tp
