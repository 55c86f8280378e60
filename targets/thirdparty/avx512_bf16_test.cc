// The AVX512-BF16 VCVTNEPS2BF16 adapter against hand-derived values. The instruction treats
// denormal inputs as zero and flushes denormal results (Intel SDM), so the gradual-underflow cases
// of kBF16Rne are checked separately as that documented departure.
#include <cstdlib>

#include "spec_cases.h"

using namespace nc_tp_test;

TEST_CASE("x86-avx512bf16: vcvtneps2bf16 rounding", "[thirdparty][avx512_bf16]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_AVX512_BF16);
  CHECK(p.decode == nullptr);
  // libgcc's own CPU detection, independent of the adapter's CPUID code.
  if (!__builtin_cpu_supports("avx512bf16") || std::getenv("NC_THIRDPARTY_NO_X86_FEATURES")) {
    CHECK(convert(p, NC_RECIPE_F32_TO_BF16_RNE, {0}).status == NC_EUNSUPPORTED);
    return;
  }
  std::vector<Case> normal;
  for (const Case& c : kBF16Rne)
    if ((c.in & 0x7f800000u) != 0 || (c.in & 0x007fffffu) == 0) normal.push_back(c);
  REQUIRE(normal.size() == kBF16Rne.size() - 2);
  check_convert(p, NC_RECIPE_F32_TO_BF16_RNE, normal);
  // Documented DAZ/FTZ: a binary32 subnormal becomes a signed zero.
  Batch sub = convert(p, NC_RECIPE_F32_TO_BF16_RNE, {0x00010000, 0x80010000});
  CHECK(sub.out[0] == 0x0000);
  CHECK(sub.out[1] == 0x8000);
  // More than one 16-lane block plus a tail: 37 inputs, each 1.0 + i ulp(bf16) exactly.
  std::vector<uint32_t> many;
  for (uint32_t i = 0; i < 37; ++i) many.push_back(0x3f800000u + (i << 16));
  Batch b = convert(p, NC_RECIPE_F32_TO_BF16_RNE, many);
  REQUIRE(b.status == NC_OK);
  for (uint32_t i = 0; i < 37; ++i) CHECK(b.out[i] == 0x3f80u + i);
  CHECK(convert(p, NC_RECIPE_F32_TO_F16_RNE, {0}).status == NC_EUNSUPPORTED);
}
