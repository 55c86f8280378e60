// Regression (UBSan in the asan preset, sweep_cli and sweep_reconstruct_encode_cpu): encode_rne
// computes its subnormal branch for every input and selects it away for normal ones; at the one
// binary32 exponent where that unused shift count reached 0, rne_shift shifted by -1 (undefined).
// Constant evaluation rejects undefined behaviour, so these static_asserts stop compiling if it
// comes back. Inputs: the binary32 power of two with exponent field 151 - bias - mantissa bits.
#include <catch2/catch.hpp>

#include "codec/recipes.h"

using namespace nc::codec;

// 2^-110 (e32 = 17): BF16 keeps the top half of the word.
static_assert(f32_to_bf16_rne(0x08800000u) == 0x0880u);
// 0.5 (e32 = 126): F16 0x3800.
static_assert(f32_to_f16_rne(0x3f000000u) == 0x3800u);
// 2^14 (e32 = 141): above E4M3FN's 448, so 0x7e saturating, 0x7f (NaN) otherwise.
static_assert(f32_to_e4m3fn_rne_satfinite(0x46800000u) == 0x7eu);
static_assert(f32_to_e4m3fn_rne_ovf_nan(0x46800000u) == 0x7fu);
// 2^22 (e32 = 149): above E2M1's 6, saturates to 0x7.
static_assert(f32_to_e2m1_rne_satfinite(0x4a800000u) == 0x7u);

TEST_CASE("recipe conversions at the exponent where the unused subnormal shift is 0", "[codec][recipe]") {
  // The same words at run time, through the batch loop the sweeps use.
  const uint32_t in[1] = {0x08800000u};
  uint32_t out[1] = {};
  convert_batch(Recipe::F32_TO_BF16_RNE, in, 1, out);
  CHECK(out[0] == 0x0880u);
}
