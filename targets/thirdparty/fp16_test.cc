// The FP16-library adapter against hand-derived spec values.
#include "spec_cases.h"

using namespace nc_tp_test;

TEST_CASE("fp16-lib: binary16 decode and RNE conversion", "[thirdparty][fp16]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_FP16);
  CHECK(std::string(p.name) == "fp16-lib");
  check_decode(p, NC_WT_F16, kF16Decode);
  check_convert(p, NC_RECIPE_F32_TO_F16_RNE, kF16Rne);
  CHECK(decode(p, NC_WT_BF16, {0x3f80}).status == NC_EUNSUPPORTED);
  CHECK(convert(p, NC_RECIPE_F32_TO_BF16_RNE, {0}).status == NC_EUNSUPPORTED);
  Batch nan = convert(p, NC_RECIPE_F32_TO_F16_RNE, {0x7fc00000});
  CHECK((nan.out[0] & 0x7c00) == 0x7c00);
  CHECK((nan.out[0] & 0x03ff) != 0);
}
