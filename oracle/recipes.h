// Named conversions from a binary32 word (docs/recipes.md). Each is RNE with gradual underflow
// and signed zero kept, differing only in overflow, infinity and NaN handling:
//   F32_TO_BF16_RNE, F32_TO_F16_RNE: overflow -> inf, inf -> inf, NaN -> quiet NaN with the sign
//     and the top payload bits (truncate the payload, then set the quiet bit).
//   F32_TO_E4M3FN_RNE_SATFINITE: overflow and +-inf -> +-448 (0x7e/0xfe); NaN -> 0x7f/0xff by sign.
//   F32_TO_E4M3FN_RNE_OVF_NAN: a finite value whose RNE rounding (unbounded exponent) exceeds 448
//     -> NaN 0x7f/0xff with its sign; +-inf -> NaN with sign; NaN -> 0x7f/0xff by sign.
//   F32_TO_E2M1_RNE_SATFINITE: overflow and +-inf -> +-6 (0x7/0xf); NaN -> 0x7/0xf by sign.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "oracle/context.h"
#include "registry/registry.h"

namespace nc::oracle {

// The recipes' identities are the registry's; what each one computes is written here.
using nc::find_recipe;
using nc::kRecipeCount;
using nc::Recipe;
inline std::string_view recipe_name(Recipe r) { return nc::info(r).name; }

// The destination word (BF16/F16: 16 bits, E4M3FN: 8 bits, E2M1: 4 bits).
uint32_t convert(Context& ctx, Recipe r, uint32_t binary32_word);

}  // namespace nc::oracle
