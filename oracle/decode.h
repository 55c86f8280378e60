// Exact decoding of every logical word type (spec 3.1, 3.3, 3.4, 5, 6) from the bit-field
// definitions, independent of codec/.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "oracle/context.h"
#include "oracle/float_format.h"
#include "oracle/value.h"
#include "registry/registry.h"

namespace nc::oracle {

struct Decoded {
  ValueClass cls = ValueClass::Zero;
  Exact value;  // exact value; for the integer word types the integer as a rational
  // The exact binary32 expansion (float word types only):
  //   BF16: word << 16 (NaN payload and quiet bit kept); F16: payload-preserving expansion
  //   (sign, all-ones exponent, fraction << 13); E4M3FN/E2M1: the exact value; E4M3FN NaN has
  //   no defined payload, so this is empty and the corpus writes `nan*`. Empty for integer types.
  std::optional<uint32_t> binary32;
  std::optional<int64_t> integer;  // I32 value, or the signed code of a grouped code word
  // Validity at the format layer: every word is valid except the W8 code 0x80 (rule
  // "code-illegal"). Words wider than the type (high bits set) are rejected with rule "word".
  bool valid = true;
  std::string_view rule;  // empty when valid
};

Decoded decode(Context& ctx, WordType type, uint32_t word);
// The same into caller-owned storage, for sweeps: every field of `out` is overwritten.
void decode(Context& ctx, WordType type, uint32_t word, Decoded& out);

// Exact value of a word of a float format, without the extras (faster for inner loops).
// Precondition: word fits the format's width.
Exact exact_value(FloatFormat f, uint32_t word);

// The bit fields of a float word read as a value: (-1)^negative * significand * 2^exponent, exact
// when cls is Zero, Subnormal or Normal (significand and exponent are unset for Inf and NaN).
struct WordFields {
  ValueClass cls = ValueClass::Zero;
  bool negative = false;
  uint32_t significand = 0;
  long exponent = 0;
};
WordFields split_word(FloatFormat f, uint32_t word);

// The inner-loop form: classifies a float word, sets `negative` to its sign bit and, when finite,
// writes its exact value into `out` (reused storage, no allocation once grown).
ValueClass exact_into(FloatFormat f, uint32_t word, mpq_class& out, bool& negative);

// Signed value of a grouped code word: two's complement of the type's width (spec 5).
int32_t signed_code(WordType code_type, uint32_t word);

}  // namespace nc::oracle
