// The codec's ABI entry points compute in IEEE 754's default environment whatever the caller's
// (rounding direction, FTZ/DAZ), and hand the caller's environment back unchanged.
#include <fenv.h>
#include <xmmintrin.h>

#include <algorithm>

#include <catch2/catch.hpp>

#include "codec/codec_plugin.h"

namespace {
// NVFP4, one row of 16: code a (E2M1 -1.0), scale 7e (E4M3FN 448), divisor 1.5: -298.666...
// = -2^8 x (1 + 1/6). 1/6 = 0.001010101...b, the 24th fraction bit onwards is 0101...: below half
// an ulp, so RNE truncates: fraction 0x155555, word 0xc3955555. Rounding toward -inf would give
// 0xc3955556.
uint32_t dequantize_first() {
  const nc_plugin_v1* p = nc_codec_plugin_table();
  const uint64_t shape[2] = {1, 16};
  uint32_t codes[16] = {0xa}, out[16] = {};
  const uint32_t scale = 0x7e, divisor = 0x3fc00000;
  REQUIRE(p->dequantize(NC_FORMAT_NVFP4, 2, shape, codes, 16, &scale, 1, &divisor, out) == NC_OK);
  return out[0];
}
}  // namespace

TEST_CASE("codec entry points ignore the caller's rounding direction and restore it", "[codec][fpenv]") {
  for (int mode : {FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO}) {
    REQUIRE(fesetround(mode) == 0);
    const uint32_t w = dequantize_first();
    CHECK(fegetround() == mode);
    fesetround(FE_TONEAREST);
    CHECK(w == 0xc3955555u);
  }
}

// Binary64 sources 2^-150 x 1.0 and x 1.5 become binary32 subnormals (0 and 2^-149) on the way in,
// which flush-to-zero would turn into 0: the encoding must not change under FTZ/DAZ.
struct Encoded {
  uint32_t scale = 0, trace[4] = {};
  int32_t codes[2] = {}, outcome = -1;
  bool operator==(const Encoded& o) const {
    return scale == o.scale && codes[0] == o.codes[0] && codes[1] == o.codes[1] && outcome == o.outcome &&
           std::equal(trace, trace + 4, o.trace);
  }
};
Encoded encode_subnormal_sources() {
  const nc_plugin_v1* p = nc_codec_plugin_table();
  const uint64_t src[2] = {0x3690000000000000u, 0x3698000000000000u};
  Encoded e;
  REQUIRE(p->encode(NC_FORMAT_Q4G64_F16S, NC_SRC_F64, src, 1, 2, &e.scale, e.codes, e.trace, &e.outcome) == NC_OK);
  return e;
}

TEST_CASE("codec entry points ignore the caller's FTZ/DAZ and restore them", "[codec][fpenv]") {
  const Encoded in_default = encode_subnormal_sources();
  CHECK(in_default.trace[0] == 0x00000001u);  // amax32: the larger source, 2^-149 as a binary32 word
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x8040u);
  const Encoded flushed = encode_subnormal_sources();
  const uint32_t w = dequantize_first();
  const unsigned after = _mm_getcsr();
  _mm_setcsr(saved);
  CHECK((after & 0x8040u) == 0x8040u);
  CHECK(flushed == in_default);
  CHECK(w == 0xc3955555u);
}
