// The same _Float16 casts as gcc_float16_soft.cc, but this file alone is compiled with -mf16c, so
// GCC emits the F16C instructions vcvtph2ps / vcvtps2ph (imm8 = 4: round per MXCSR, which is RNE
// by default). Only gcc_float16_f16c.cc calls these, after checking the CPU has F16C.
#include "gcc_float16_ops.h"

int nc_tp_f16c_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  return nc_tp::gcc_f16_decode(wt, words, n, out, valid);
}

int nc_tp_f16c_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  return nc_tp::gcc_f16_convert(recipe, src, n, out);
}
