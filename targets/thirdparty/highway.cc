// Google Highway (Debian libhwy-dev) float16 and bfloat16 vector conversions on one static target,
// NC_TP_HWY_TARGET ("SSE4" or "AVX2"): highway_kernel.cc is compiled for it, this file for baseline
// x86-64, so loading the plugin on a CPU without the target is safe: each call checks the CPU first
// and answers NC_EUNSUPPORTED if it lacks the target's instructions.
//
// Conventions of this library (hwy/ops/x86_128-inl.h, x86_256-inl.h, Highway 1.0.3):
// - DemoteTo(bfloat16): keeps the top 16 bits of the binary32 word (truncation) on every x86
//   target; PromoteTo(bfloat16) widens exactly.
// - DemoteTo/PromoteTo(float16) on AVX2: the F16C instructions (vcvtps2ph rounding to nearest
//   even, vcvtph2ps). On SSE4 and below Highway emulates them with integer code that neither
//   rounds (it drops the low bits) nor treats exponent 255 / 31 (infinity, NaN) apart.
// Highway has no FP8 or FP4 types, so E4M3FN and E2M1 are not provided.
#include "adapter.h"
#include "cpu_features.h"

int nc_tp_hwy_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid);
int nc_tp_hwy_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out);

namespace {

constexpr const char* kName = "highway-" NC_TP_HWY_NAME;

bool available() {
  static const bool has = nc_tp::cpu_has_hwy_target(NC_TP_HWY_TARGET);
  if (!has) nc_tp::report_unavailable(kName, "Highway's " NC_TP_HWY_NAME " target");
  return has;
}

int decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  return available() ? nc_tp_hwy_decode(wt, words, n, out, valid) : NC_EUNSUPPORTED;
}
int convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  return available() ? nc_tp_hwy_convert(recipe, src, n, out) : NC_EUNSUPPORTED;
}

constexpr nc_plugin_v1 kTable = nc_tp::scalar_table(kName, NC_TP_VERSION, decode, convert);

}  // namespace

NC_TP_EXPORT const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return &kTable; }
