// The Google Highway adapters (static targets SSE4 and AVX2) against hand-derived values, and the
// departures of Highway 1.0.3 worked out by hand from its documented behaviour (hwy/ops/x86_*.h):
// DemoteTo(bfloat16) keeps the top 16 bits on every target, and the SSE4 float16 emulation drops
// the low bits, has no infinity or NaN, and zeroes the sign of what it flushes. Each departure is also stated as what
// the recipe wants.
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "spec_cases.h"

using namespace nc_tp_test;

namespace {

bool x86_features_hidden() { return std::getenv("NC_THIRDPARTY_NO_X86_FEATURES") != nullptr; }

// Whether the kernel lists every one of `flags` for this CPU (/proc/cpuinfo names): a second
// opinion, independent of the adapter's CPUID code and of the compiler's builtins.
bool cpu_has(std::initializer_list<const char*> flags) {
  std::ifstream info("/proc/cpuinfo");
  std::set<std::string> have;
  for (std::string line; std::getline(info, line);)
    if (line.rfind("flags", 0) == 0) {
      std::istringstream words(line.substr(line.find(':') + 1));
      for (std::string w; words >> w;) have.insert(w);
      break;
    }
  for (const char* f : flags)
    if (!have.count(f)) return false;
  return true;
}

// F32 -> bfloat16 by truncation: the word's top half.
const std::vector<Case> kBF16Truncated = {
    {0x3f808000, 0x3f80, "exact tie: truncation agrees with RNE here (even kept)"},
    {0x3f818000, 0x3f81, "exact tie: truncated down (RNE rounds to the even 0x3f82)"},
    {0x3f808001, 0x3f80, "just above the tie: truncated down (RNE 0x3f81)"},
    {0x7f7fffff, 0x7f7f, "FLT_MAX: truncated to the largest bf16 (RNE overflows to 0x7f80)"},
    {0x7f800001, 0x7f80, "signalling NaN with a low payload: becomes +inf (the recipe gives quiet 0x7fc0)"},
    {0x00008000, 0x0000, "half the min subnormal: 0, as RNE's tie to even"},
    {0x80000000, 0x8000, "-0"},
};

void check_bf16(const nc_plugin_v1& p) {
  check_decode(p, NC_WT_BF16, kBF16Decode);
  check_convert(p, NC_RECIPE_F32_TO_BF16_RNE, kBF16Truncated);
  CHECK(decode(p, NC_WT_E4M3FN, {0x7e}).status == NC_EUNSUPPORTED);
  CHECK(convert(p, NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE, {0}).status == NC_EUNSUPPORTED);
  // Several vectors plus a tail (the adapter pads the last vector): 37 words 1.0 + i bf16 ulps.
  std::vector<uint32_t> many;
  for (uint32_t i = 0; i < 37; ++i) many.push_back(0x3f800000u + (i << 16) + 0xffffu);
  Batch b = convert(p, NC_RECIPE_F32_TO_BF16_RNE, many);
  REQUIRE(b.status == NC_OK);
  for (uint32_t i = 0; i < 37; ++i) CHECK(b.out[i] == 0x3f80u + i);
}

}  // namespace

TEST_CASE("highway-sse4: truncating bfloat16 and the emulated float16", "[thirdparty][highway]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_HIGHWAY_SSE4);
  CHECK(std::string(p.name) == "highway-sse4");
  CHECK(std::string(p.version) == "1.0.3");
  if (!cpu_has({"ssse3", "sse4_1", "sse4_2", "pclmulqdq", "aes"}) || x86_features_hidden()) {
    CHECK(convert(p, NC_RECIPE_F32_TO_F16_RNE, {0}).status == NC_EUNSUPPORTED);
    return;
  }
  check_bf16(p);
  // Finite float16 words widen exactly; exponent 31 is read as a finite exponent (2^16).
  std::vector<Case> finite;
  for (const Case& c : kF16Decode)
    if ((c.in & 0x7c00) != 0x7c00) finite.push_back(c);
  REQUIRE(finite.size() == kF16Decode.size() - 1);
  check_decode(p, NC_WT_F16, finite);
  check_decode(p, NC_WT_F16,
               {{0x7c00, 0x47800000, "+inf read as 2^16"},
                {0xfc00, 0xc7800000, "-inf read as -2^16"},
                {0x7e00, 0x47c00000, "a quiet NaN read as 1.5 * 2^16"}});
  check_convert(p, NC_RECIPE_F32_TO_F16_RNE,
                {{0x3f800000, 0x3c00, "1.0 exact"},
                 {0x3f803000, 0x3c01, "1 + 1.5 ulp truncated to 1 + 1 ulp (RNE 0x3c02)"},
                 {0x477ff000, 0x7bff, "65520 truncated to 65504 (RNE overflows to 0x7c00)"},
                 {0x48000000, 0x7800, "2^17: exponent clamped to 15, 2^15 (RNE 0x7c00)"},
                 {0x7f800000, 0x7800, "+inf: 2^15 (RNE 0x7c00)"},
                 {0xff800000, 0xf800, "-inf: -2^15 (RNE 0xfc00)"},
                 {0x7fc00000, 0x7a00, "quiet NaN: 1.5 * 2^15 (the recipe gives 0x7e00)"},
                 {0x33800000, 0x0001, "2^-24, the min subnormal, exact"},
                 {0x33000001, 0x0000, "just above 2^-25: flushed (RNE 0x0001)"},
                 {0x80000000, 0x0000, "-0: below 2^-24 the whole word is zeroed, sign too (RNE 0x8000)"},
                 {0xb3000001, 0x0000, "-(just above 2^-25): +0 (RNE 0x8001)"}});
}

TEST_CASE("highway-avx2: truncating bfloat16, float16 through F16C", "[thirdparty][highway]") {
  const nc_plugin_v1& p = load_plugin(NC_TP_PLUGIN_HIGHWAY_AVX2);
  CHECK(std::string(p.name) == "highway-avx2");
  CHECK(std::string(p.version) == "1.0.3");
  if (!cpu_has({"ssse3", "sse4_1", "sse4_2", "pclmulqdq", "aes", "avx2", "bmi1", "bmi2", "fma", "f16c"}) ||
      x86_features_hidden()) {
    CHECK(convert(p, NC_RECIPE_F32_TO_F16_RNE, {0}).status == NC_EUNSUPPORTED);
    return;
  }
  check_bf16(p);
  check_decode(p, NC_WT_F16, kF16Decode);
  check_convert(p, NC_RECIPE_F32_TO_F16_RNE, kF16Rne);
}

// Run by ctest with NC_THIRDPARTY_NO_X86_FEATURES=1: both targets must say unavailable.
TEST_CASE("highway adapters report unavailable when the CPU features are absent", "[.unavailable]") {
  REQUIRE(x86_features_hidden());
  for (const char* path : {NC_TP_PLUGIN_HIGHWAY_SSE4, NC_TP_PLUGIN_HIGHWAY_AVX2}) {
    const nc_plugin_v1& p = load_plugin(path);
    CHECK(decode(p, NC_WT_BF16, {0x3f80}).status == NC_EUNSUPPORTED);
    CHECK(convert(p, NC_RECIPE_F32_TO_F16_RNE, {0x3f800000}).status == NC_EUNSUPPORTED);
  }
}
