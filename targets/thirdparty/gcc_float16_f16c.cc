// GCC _Float16 conversions through the F16C instructions (see gcc_float16_f16c_kernel.cc, the one
// file compiled with -mf16c). This file is compiled for baseline x86-64 so loading the plugin on a
// CPU without F16C is safe: each call checks the CPU first and answers NC_EUNSUPPORTED if absent.
#include "adapter.h"
#include "cpu_features.h"

int nc_tp_f16c_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid);
int nc_tp_f16c_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out);

namespace {

constexpr const char* kName = "gcc-float16-f16c";

bool available() {
  static const bool has = nc_tp::cpu_has_f16c();
  if (!has) nc_tp::report_unavailable(kName, "F16C");
  return has;
}

int decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  return available() ? nc_tp_f16c_decode(wt, words, n, out, valid) : NC_EUNSUPPORTED;
}
int convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  return available() ? nc_tp_f16c_convert(recipe, src, n, out) : NC_EUNSUPPORTED;
}

constexpr nc_plugin_v1 kTable = nc_tp::scalar_table(kName, NC_TP_VERSION, decode, convert);

}  // namespace

NC_TP_EXPORT const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return &kTable; }
