// Integer-only reference for the named recipe conversions from binary32 (docs/recipes.md) and for
// the element reconstructions the sweeps cover. Every result is a word; nothing passes through a
// host float.
#pragma once

#include <cstddef>
#include <cstdint>

#include "registry/registry.h"

namespace nc::fastref {

using nc::Recipe;  // the registry's recipes; what each computes is written here

uint32_t convert(Recipe r, uint32_t binary32_word);
void convert_batch(Recipe r, const uint32_t* src, size_t n, uint32_t* out);
// out[k] = convert(r, first + k * stride) for the n words of the lattice from first (stride >= 1,
// first + (n - 1) * stride < 2^32): consecutive words by default, a strided sweep's batch otherwise.
// The same results as convert_batch, found by bisection on finite inputs: every recipe is monotone
// non-decreasing in the input word within each sign half there (rounding to nearest is monotone,
// and each destination orders its words as its values), so a run whose two ends agree is constant.
// Non-finite inputs (not monotone: F16 keeps NaN payload bits) are converted one by one. This is
// what lets the sweeps cover 2^32 inputs (or 1 in a stride of them) at the speed of the target,
// not of the reference.
void convert_range(Recipe r, uint32_t first, size_t n, uint32_t* out, uint64_t stride = 1);
// Whether actual[k] == convert(r, first + k * stride) for every k < n, found from the same runs of
// equal results without writing them: a sweep compares a target's results against the
// expectation at the cost of reading them once.
bool convert_range_matches(Recipe r, uint32_t first, size_t n, const uint32_t* actual, uint64_t stride = 1);
// The same for results held at a width of their own (a target's 8- or 16-bit words, judged without
// widening them first): actual[k] is the result word zero-extended.
bool convert_range_matches(Recipe r, uint32_t first, size_t n, const uint16_t* actual, uint64_t stride = 1);
bool convert_range_matches(Recipe r, uint32_t first, size_t n, const uint8_t* actual, uint64_t stride = 1);

// Exact decodes to binary32 bits of the small word types used as scales and codes.
uint32_t f16_to_binary32(uint32_t w);     // NaN payload kept (shifted into the top bits)
uint32_t bf16_to_binary32(uint32_t w);    // the word in the high half
uint32_t e4m3fn_to_binary32(uint32_t w);  // NaN words give 0x7fc00000 with the sign
uint32_t e2m1_to_binary32(uint32_t w);
// The decode above of a float word type of at most 16 bits; nullptr for the others.
using WordDecode = uint32_t (*)(uint32_t);
WordDecode word_decode(WordType w);

// The binary32 word of an integer, rounded to nearest even where |v| > 2^24.
uint32_t int_to_binary32(int64_t v);

// binary32(a * b) for finite binary32 words a, b: RNE, gradual underflow, overflow to infinity.
uint32_t binary32_mul(uint32_t a, uint32_t b);
// binary32(a * b / d) from the exact quotient (NVFP4, spec 3.3): a an E2M1 value, b an E4M3FN
// value (both as binary32 words), d finite and > 0.
uint32_t binary32_mul_div(uint32_t a, uint32_t b, uint32_t d);

}  // namespace nc::fastref
