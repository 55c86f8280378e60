// The GCC _Float16 adapters (libgcc software path, F16C path) against hand-derived spec values.
#include <cstdlib>

#include "spec_cases.h"

using namespace nc_tp_test;

namespace {
void check_binary16(const nc_plugin_v1& p) {
  check_decode(p, NC_WT_F16, kF16Decode);
  check_convert(p, NC_RECIPE_F32_TO_F16_RNE, kF16Rne);
  // IEEE NaN conversion keeps the sign and the top payload bits and sets the quiet bit:
  // 0x7fa00000 (payload 0x200000, signaling) -> 0x7e00 | (0x200000 >> 13) = 0x7f00.
  Batch nan = convert(p, NC_RECIPE_F32_TO_F16_RNE, {0x7fa00000, 0xffc00000});
  CHECK(nan.out[0] == 0x7f00);
  CHECK(nan.out[1] == 0xfe00);
  CHECK(convert(p, NC_RECIPE_F32_TO_BF16_RNE, {0}).status == NC_EUNSUPPORTED);
}
bool x86_features_disabled() {
  const char* v = std::getenv("NC_THIRDPARTY_NO_X86_FEATURES");
  return v != nullptr && std::string(v) == "1";
}
}  // namespace

TEST_CASE("gcc-float16-libgcc: binary16 decode and RNE conversion", "[thirdparty][gcc_float16]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_GCC_FLOAT16_SOFT);
  CHECK(std::string(p.name) == "gcc-float16-libgcc");
  check_binary16(p);
}

TEST_CASE("gcc-float16-f16c: binary16 decode and RNE conversion", "[thirdparty][gcc_float16]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_GCC_FLOAT16_F16C);
  if (__builtin_cpu_supports("f16c") && !x86_features_disabled()) {
    check_binary16(p);
  } else {
    CHECK(decode(p, NC_WT_F16, {0x3c00}).status == NC_EUNSUPPORTED);
  }
}

// Run by ctest with NC_THIRDPARTY_NO_X86_FEATURES=1: the hardware adapters must say unavailable.
TEST_CASE("x86 hardware adapters report unavailable when the CPU feature is absent", "[.unavailable]") {
  REQUIRE(x86_features_disabled());
  const nc_plugin_v1& f16c = load_plugin(NC_TP_PLUGIN_GCC_FLOAT16_F16C);
  CHECK(decode(f16c, NC_WT_F16, {0x3c00}).status == NC_EUNSUPPORTED);
  CHECK(convert(f16c, NC_RECIPE_F32_TO_F16_RNE, {0x3f800000}).status == NC_EUNSUPPORTED);
  const nc_plugin_v1& bf16 = load_plugin(NC_TP_PLUGIN_AVX512_BF16);
  CHECK(convert(bf16, NC_RECIPE_F32_TO_BF16_RNE, {0x3f800000}).status == NC_EUNSUPPORTED);
}
