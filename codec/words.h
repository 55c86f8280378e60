// Component words by registry WordType: range checks, exact decode and value class. A word is
// a logical word right-aligned in a uint32_t (E2M1 bits 3:0 ... FP32/I32 bits 31:0).
#pragma once

#include <cstdint>

#include "codec/float_traits.h"
#include "codec/result.h"
#include "registry/registry.h"

namespace nc::codec {

bool is_float_word(WordType wt);  // the registry's is_float
bool is_code_word(WordType wt);   // the four grouped code words

// Error (WordRange) when bits above the type's width are set.
Result<uint32_t> check_word(WordType wt, uint32_t word);

// Float word types: the exact binary32 expansion's bits (see decode_to_f32).
uint32_t float_word_to_f32(WordType wt, uint32_t word);
ValueClass float_word_class(WordType wt, uint32_t word);

// I32 and grouped codes: the signed value (two's complement of the type's width). W8 0x80 is
// outside the W8G32_F16S language: CodeIllegal.
Result<int32_t> int_word_value(WordType wt, uint32_t word);

// Grouped code word from a signed value in the legal interval (the encoder's output path).
uint32_t code_word_from_signed(WordType wt, int32_t q);

}  // namespace nc::codec
