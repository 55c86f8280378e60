// A planted bug for the sweep tests: our codec, except that recipe conversions flush subnormal
// binary32 inputs to signed zero first (what an FTZ/DAZ floating-point mode does).
#include "codec/codec_plugin.h"

namespace {
nc_plugin_v1 table;

int convert_with_daz(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  for (size_t k = 0; k < n; ++k) {
    uint32_t w = src[k];
    if ((w & 0x7f800000u) == 0) w &= 0x80000000u;
    int rc = nc_codec_plugin_table()->convert(recipe, &w, 1, &out[k]);
    if (rc != NC_OK) return rc;
  }
  return NC_OK;
}
}  // namespace

extern "C" const nc_plugin_v1* ninfer_conform_plugin_v1(void) {
  table = *nc_codec_plugin_table();
  table.name = "codec-with-daz";
  table.convert = convert_with_daz;
  return &table;
}
