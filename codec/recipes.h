// Named recipe conversions from binary32 (docs/recipes.md defines each exactly). Each is one
// instantiation of the generic encode_rne; the name states rounding and overflow policy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "codec/direct.h"
#include "codec/float_traits.h"
#include "registry/registry.h"

namespace nc::codec {

// The recipes' names and identities are the registry's (registry/registry.h).
using nc::find_recipe;
using nc::kRecipeCount;
using nc::Recipe;
inline std::string_view recipe_name(Recipe r) { return info(r).name; }

constexpr uint32_t f32_to_bf16_rne(uint32_t f) { return encode_rne<Bf16Traits, Overflow::ToInf>(f); }
constexpr uint32_t f32_to_f16_rne(uint32_t f) { return encode_rne<F16Traits, Overflow::ToInf>(f); }
constexpr uint32_t f32_to_e4m3fn_rne_satfinite(uint32_t f) { return encode_rne<E4M3FNTraits, Overflow::Saturate>(f); }
constexpr uint32_t f32_to_e4m3fn_rne_ovf_nan(uint32_t f) { return encode_rne<E4M3FNTraits, Overflow::ToNaN>(f); }
constexpr uint32_t f32_to_e2m1_rne_satfinite(uint32_t f) { return encode_rne<E2M1Traits, Overflow::Saturate>(f); }

// The typed direct-format conversion: the recipe is in the function's name.
constexpr Bf16Word f32_to_bf16_rne(Fp32Word f) { return Bf16Word(uint16_t(f32_to_bf16_rne(f.bits))); }

uint32_t convert(Recipe r, uint32_t f32);
// Batch form; one switch outside the loop so each loop body inlines one encode_rne.
void convert_batch(Recipe r, const uint32_t* src, size_t n, uint32_t* out);

}  // namespace nc::codec
