// Hand-derived expectations from the spec (sections 3.1, 3.3) and the recipe definitions
// (docs/recipes.md: RNE, gradual underflow, signed zeros; saturation per recipe). Each value was
// worked out by hand from the bit layouts, never taken from code under test. NaN results are
// checked separately (nan_cases), since policies on payloads differ between libraries.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "plugin_loader.h"

namespace nc_tp_test {

struct Case {
  uint32_t in;
  uint32_t out;
  const char* why;
};

// E4M3FN (3.3): s.eeee.mmm, bias 7; subnormal m * 2^-9.
inline const std::vector<Case> kE4M3Decode = {
    {0x7e, 0x43e00000, "e=15 m=6: 1.75 * 2^8 = 448, binary32 exponent 135"},
    {0xfe, 0xc3e00000, "-448"},
    {0x01, 0x3b000000, "min subnormal 2^-9, binary32 exponent 118"},
    {0x07, 0x3c600000, "max subnormal 7 * 2^-9 = 1.75 * 2^-7, binary32 exponent 120"},
    {0x08, 0x3c800000, "min normal 2^-6"},
    {0x38, 0x3f800000, "e=7 m=0: 1.0"},
    {0x00, 0x00000000, "+0"},
    {0x80, 0x80000000, "-0 keeps its sign"},
};

// E2M1 (3.3): positive codes 0..7 = 0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 3 negates.
inline const std::vector<Case> kE2M1Decode = {
    {0x0, 0x00000000, "+0"},  {0x1, 0x3f000000, "0.5"},  {0x2, 0x3f800000, "1.0"}, {0x3, 0x3fc00000, "1.5"},
    {0x4, 0x40000000, "2.0"}, {0x5, 0x40400000, "3.0"},  {0x6, 0x40800000, "4.0"}, {0x7, 0x40c00000, "6.0 = 1.5 * 2^2"},
    {0x8, 0x80000000, "-0"},  {0xf, 0xc0c00000, "-6.0"},
};

// BF16 (3.1): the word in the high half of a binary32 word.
inline const std::vector<Case> kBF16Decode = {
    {0x3f80, 0x3f800000, "1.0"},  {0x0001, 0x00010000, "min subnormal 2^-133"}, {0x8000, 0x80000000, "-0"},
    {0x7f80, 0x7f800000, "+inf"}, {0xff7f, 0xff7f0000, "-max finite"},
};

// IEEE binary16: bias 15, subnormal m * 2^-24.
inline const std::vector<Case> kF16Decode = {
    {0x3c00, 0x3f800000, "1.0"},
    {0x0001, 0x33800000, "min subnormal 2^-24, binary32 exponent 103"},
    {0x03ff, 0x387fc000, "max subnormal 1023 * 2^-24 = 1.998046875 * 2^-15"},
    {0x7bff, 0x477fe000, "max finite 65504 = 1.9990234375 * 2^15"},
    {0xfc00, 0xff800000, "-inf"},
    {0x8000, 0x80000000, "-0"},
};

// F32_TO_BF16_RNE: keep the high 16 bits, round on the low 16 (ties to even).
inline const std::vector<Case> kBF16Rne = {
    {0x3f808000, 0x3f80, "exact tie, even kept"},
    {0x3f818000, 0x3f82, "exact tie, rounds up to even"},
    {0x3f808001, 0x3f81, "just above the tie"},
    {0x3f807fff, 0x3f80, "just below the tie"},
    {0x7f7fffff, 0x7f80, "FLT_MAX rounds past the largest bf16: overflow to +inf"},
    {0xff800000, 0xff80, "-inf stays -inf"},
    {0x00010000, 0x0001, "bf16 min subnormal, exact (gradual underflow)"},
    {0x00008000, 0x0000, "half the min subnormal: tie to even zero"},
    {0x80000000, 0x8000, "-0 keeps its sign"},
};

// F32_TO_F16_RNE.
inline const std::vector<Case> kF16Rne = {
    {0x3f800000, 0x3c00, "1.0"},
    {0x477ff000, 0x7c00, "65520: tie between 65504 (odd) and 2^16, even is 2^16: overflow to inf"},
    {0x477fefff, 0x7bff, "just below 65520 rounds to 65504"},
    {0x33000000, 0x0000, "2^-25: tie between 0 and the min subnormal, even is 0"},
    {0x33000001, 0x0001, "just above 2^-25 rounds to the min subnormal"},
    {0x33c00000, 0x0002, "1.5 * 2^-24: tie between 1 and 2 subnormal units, even is 2"},
    {0xff800000, 0xfc00, "-inf"},
    {0x80000000, 0x8000, "-0"},
};

// F32_TO_E4M3FN_RNE_SATFINITE: overflow and +-inf saturate to +-448.
inline const std::vector<Case> kE4M3Satfinite = {
    {0x3f800000, 0x38, "1.0"},
    {0x43fa0000, 0x7e, "500 saturates to 448"},
    {0x7f800000, 0x7e, "+inf saturates to 448"},
    {0xff800000, 0xfe, "-inf saturates to -448"},
    {0x43e80000, 0x7e, "464: tie between 448 (m=6 even) and 480 (m=7), 448"},
    {0x3a800000, 0x00, "2^-10: tie between 0 and 2^-9, even is 0"},
    {0x3b400000, 0x02, "1.5 * 2^-9: tie between m=1 and m=2 subnormals, even is 2"},
    {0x3ac00000, 0x01, "0.75 * 2^-9 rounds to the min subnormal"},
    {0x80000000, 0x80, "-0"},
};

// F32_TO_E4M3FN_RNE_OVF_NAN: finite results as SATFINITE; overflow and inf become NaN 0x7f/0xff.
inline const std::vector<Case> kE4M3OvfNan = {
    {0x3f800000, 0x38, "1.0"},
    {0x43e00000, 0x7e, "448 exact"},
    {0x43e7ffff, 0x7e, "just below 464 rounds to 448"},
    {0x43fa0000, 0x7f, "500 overflows: NaN"},
    {0xc3fa0000, 0xff, "-500 overflows: NaN with the sign"},
    {0x7f800000, 0x7f, "+inf: NaN"},
    {0xff800000, 0xff, "-inf: NaN with the sign"},
};

// F32_TO_E2M1_RNE_SATFINITE.
inline const std::vector<Case> kE2M1Satfinite = {
    {0x40a00000, 0x6, "5.0: tie between 4 (m=0) and 6 (m=1), even is 4"},
    {0x40200000, 0x4, "2.5: tie between 2 (m=0) and 3 (m=1), 2"},
    {0x3f400000, 0x2, "0.75: tie between 0.5 (m=1) and 1.0 (m=0), 1.0"},
    {0x3e800000, 0x0, "0.25: tie between 0 and 0.5, 0"},
    {0x4e6e6b28, 0x7, "1e9 saturates to 6"},
    {0xff800000, 0xf, "-inf saturates to -6"},
    {0x80000000, 0x8, "-0"},
};

inline std::vector<uint32_t> inputs(const std::vector<Case>& cases) {
  std::vector<uint32_t> v;
  for (const Case& c : cases) v.push_back(c.in);
  return v;
}

inline void check_cases(const std::vector<Case>& cases, const Batch& b) {
  REQUIRE(b.status == NC_OK);
  REQUIRE(b.out.size() == cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("input 0x" << std::hex << cases[i].in << ": " << cases[i].why);
    CHECK(b.out[i] == cases[i].out);
  }
}

inline void check_decode(const nc_plugin_v1& p, nc_word_type wt, const std::vector<Case>& cases) {
  check_cases(cases, decode(p, wt, inputs(cases)));
}
inline void check_convert(const nc_plugin_v1& p, nc_recipe r, const std::vector<Case>& cases) {
  check_cases(cases, convert(p, r, inputs(cases)));
}

inline bool is_f32_nan(uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu); }

}  // namespace nc_tp_test
