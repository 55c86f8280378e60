// The CUDA Toolkit host-conversion adapter against hand-derived spec values.
#include "spec_cases.h"

using namespace nc_tp_test;

TEST_CASE("cuda-toolkit-host: decode E4M3FN, E2M1, BF16, F16", "[thirdparty][cuda_host]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_CUDA_HOST);
  CHECK(std::string(p.name) == "cuda-toolkit-host");
  check_decode(p, NC_WT_E4M3FN, kE4M3Decode);
  check_decode(p, NC_WT_E2M1, kE2M1Decode);
  check_decode(p, NC_WT_BF16, kBF16Decode);
  check_decode(p, NC_WT_F16, kF16Decode);
  Batch nan = decode(p, NC_WT_E4M3FN, {0x7f, 0xff});
  REQUIRE(nan.status == NC_OK);
  CHECK(is_f32_nan(nan.out[0]));
  CHECK(is_f32_nan(nan.out[1]));
  CHECK(decode(p, NC_WT_I32, {1}).status == NC_EUNSUPPORTED);
}

TEST_CASE("cuda-toolkit-host: recipe conversions", "[thirdparty][cuda_host]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_CUDA_HOST);
  check_convert(p, NC_RECIPE_F32_TO_BF16_RNE, kBF16Rne);
  check_convert(p, NC_RECIPE_F32_TO_F16_RNE, kF16Rne);
  check_convert(p, NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE, kE4M3Satfinite);
  check_convert(p, NC_RECIPE_F32_TO_E4M3FN_RNE_OVF_NAN, kE4M3OvfNan);
  check_convert(p, NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE, kE2M1Satfinite);
  // __NV_SATFINITE documents NaN -> the E4M3 NaN word.
  Batch nan = convert(p, NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE, {0x7fc00000});
  CHECK((nan.out[0] & 0x7f) == 0x7f);
}
