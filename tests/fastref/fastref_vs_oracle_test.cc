// The sweep reference (integer-only) against the MPFR oracle: on a boundary-dense sample of
// binary32 in the default run, and on every binary32 input for F32_TO_F16_RNE under label `long`.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

#include "oracle/context.h"
#include "oracle/recipes.h"
#include "oracle/fastref/recipes.h"

namespace {

struct Pair {
  nc::oracle::Recipe oracle;
  nc::fastref::Recipe ref;
  int man_bits;  // destination trailing significand width: where its rounding position lies
};
const Pair kPairs[] = {
    {nc::oracle::Recipe::F32_TO_BF16_RNE, nc::fastref::Recipe::F32_TO_BF16_RNE, 7},
    {nc::oracle::Recipe::F32_TO_F16_RNE, nc::fastref::Recipe::F32_TO_F16_RNE, 10},
    {nc::oracle::Recipe::F32_TO_E4M3FN_RNE_SATFINITE, nc::fastref::Recipe::F32_TO_E4M3FN_RNE_SATFINITE, 3},
    {nc::oracle::Recipe::F32_TO_E4M3FN_RNE_OVF_NAN, nc::fastref::Recipe::F32_TO_E4M3FN_RNE_OVF_NAN, 3},
    {nc::oracle::Recipe::F32_TO_E2M1_RNE_SATFINITE, nc::fastref::Recipe::F32_TO_E2M1_RNE_SATFINITE, 1},
};

// Significands whose low bits sit on, just off, and around every possible rounding position
// (normal and subnormal destinations shift the position by up to 24 bits).
std::vector<uint32_t> boundary_mantissas() {
  std::vector<uint32_t> out;
  for (int p = 1; p <= 23; ++p) {
    uint32_t half = 1u << (p - 1), below = (1u << p) - 1;
    for (uint32_t high : {0u, 1u, 2u, 3u, 0x55555u, 0x7fffffu})
      for (uint32_t low : {0u, 1u, half - 1, half, half + 1, below}) {
        uint32_t m = ((high << p) | (low & below)) & 0x7fffffu;
        out.push_back(m);
      }
  }
  return out;
}

}  // namespace

TEST_CASE("fastref agrees with the MPFR oracle on a boundary-dense binary32 sample", "[fastref][oracle]") {
  nc::oracle::Context ctx;
  const std::vector<uint32_t> mantissas = boundary_mantissas();
  uint64_t checked = 0;
  for (const Pair& p : kPairs) {
    for (uint32_t sign : {0u, 1u})
      for (uint32_t e = 0; e < 256; ++e)
        for (uint32_t m : mantissas) {
          uint32_t w = (sign << 31) | (e << 23) | m;
          uint32_t want = nc::oracle::convert(ctx, p.oracle, w);
          uint32_t got = nc::fastref::convert(p.ref, w);
          if (want != got)
            FAIL_CHECK("recipe " << int(p.ref) << " word " << std::hex << w << ": oracle " << want << " fastref "
                                 << got);
          ++checked;
        }
  }
  CHECK(checked > 1000000);
}

// Every binary32 input; minutes with MPFR, so under the `long` label (not in the default run).
TEST_CASE("fastref agrees with the MPFR oracle on every binary32 input of F32_TO_F16_RNE", "[.long]") {
  nc::oracle::Context ctx;
  uint64_t mismatches = 0;
  for (uint64_t w = 0; w <= 0xffffffffull; ++w)
    if (nc::oracle::convert(ctx, nc::oracle::Recipe::F32_TO_F16_RNE, uint32_t(w)) !=
        nc::fastref::convert(nc::fastref::Recipe::F32_TO_F16_RNE, uint32_t(w)))
      ++mismatches;
  CHECK(mismatches == 0);
}
