// The probes find what they are for (cases where a plausible wrong encoder differs), and the
// canonical encoder agrees with the reciprocal probe, never silently with the division one.
#include <catch2/catch.hpp>

#include "oracle/decode.h"
#include "oracle/maxabs_f16_recip_rne_v1.h"
#include "oracle/probes.h"
#include "oracle/round.h"

using namespace nc;
using namespace nc::oracle;

TEST_CASE("probes: reciprocal-vs-division cases exist and the encoder takes the reciprocal", "[oracle][probes]") {
  Context ctx;
  int found = 0;
  // x near (c + 1/2) * scale32, where the two orders can round to different integers.
  for (uint32_t scale16 = 0x3000; scale16 < 0x3400 && found < 3; ++scale16) {
    mpq_class s = exact_value(FloatFormat::Binary16, scale16).q;
    for (int c = 0; c < 7 && found < 3; ++c) {
      const uint32_t x0 = round_f32(ctx, mpq_class((2 * c + 1) * s / 2));
      for (uint32_t x = x0 - 2; x <= x0 + 2; ++x) {
        const int32_t by_div = probes::code_by_division(ctx, Format::Q4G64_F16S, x, scale16);
        const int32_t by_rec = probes::code_by_reciprocal(ctx, Format::Q4G64_F16S, x, scale16);
        if (by_div == by_rec) continue;
        ++found;
        // amax = 7 * scale32 (exact in binary32) makes raw_scale32 = scale32, so scale16 is this one
        const uint32_t amax = round_f32(ctx, mpq_class(7 * s));
        const EncodeResult r =
            encode_maxabs_f16_recip_rne_v1(ctx, Format::Q4G64_F16S, SourceType::FP32, 1, 2, {amax, x});
        REQUIRE(r.scales == std::vector<uint32_t>{scale16});
        CHECK(r.codes[1] == by_rec);
        CHECK(r.codes[1] != by_div);
        CHECK(abs(probes::exact_ratio(x, scale16) - mpq_class(2 * c + 1, 2)) < mpq_class(1, 1 << 16));
      }
    }
  }
  CHECK(found == 3);
}

TEST_CASE("probes: single and double rounding of the scale agree near every binary16 midpoint", "[oracle][probes]") {
  // For qmax = 2^n - 1 they cannot differ: binary32 rounding of amax/qmax lands on a binary16
  // midpoint m only if |amax/qmax - m| < ulp32(m)/2, but amax's neighbours of qmax*m are at least
  // 2^(n-1) ulp32(m) > (qmax/2) ulp32(m) apart. This samples that claim at every midpoint of
  // [2^-14, 2^-6) for W8 and Q4: amax = qmax*m and its four nearest binary32 neighbours.
  Context ctx;
  int mismatches = 0;
  for (Format f : {Format::W8G32_F16S, Format::Q4G64_F16S}) {
    const int qmax = scheme_params(f).qmax;
    for (uint32_t w = 0x0400; w < 0x2400; ++w) {
      const mpq_class m = (exact_value(FloatFormat::Binary16, w).q + exact_value(FloatFormat::Binary16, w + 1).q) / 2;
      const uint32_t a0 = round_f32(ctx, mpq_class(m * qmax));
      for (uint32_t a = a0 - 2; a <= a0 + 2; ++a) {
        if (probes::scale16_single_rounding(ctx, f, a) != probes::scale16_double_rounding(ctx, f, a)) ++mismatches;
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(probes::exact_ratio(0x3f800000u, 0x3c00u) == 1);
}
