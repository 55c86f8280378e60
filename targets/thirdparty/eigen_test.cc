// The Eigen adapter against hand-derived spec values.
#include "spec_cases.h"

using namespace nc_tp_test;

TEST_CASE("eigen: bfloat16 and half decode and RNE conversion", "[thirdparty][eigen]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_EIGEN);
  CHECK(std::string(p.name) == "eigen");
  CHECK(std::string(p.version) == "3.4.0");
  check_decode(p, NC_WT_BF16, kBF16Decode);
  check_decode(p, NC_WT_F16, kF16Decode);
  check_convert(p, NC_RECIPE_F32_TO_BF16_RNE, kBF16Rne);
  check_convert(p, NC_RECIPE_F32_TO_F16_RNE, kF16Rne);
  CHECK(decode(p, NC_WT_E4M3FN, {0x7e}).status == NC_EUNSUPPORTED);
  CHECK(convert(p, NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE, {0}).status == NC_EUNSUPPORTED);
  // Eigen's documented NaN convention: a canonical quiet NaN keeping only the sign.
  Batch nan = convert(p, NC_RECIPE_F32_TO_BF16_RNE, {0x7fa00001, 0xff800001});
  CHECK(nan.out[0] == 0x7fc0);
  CHECK(nan.out[1] == 0xffc0);
}
