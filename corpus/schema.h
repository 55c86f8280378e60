// Field syntax of every record, per the op table of vectors/FORMAT.md: words fixed-width lowercase
// hex sized to their word type, exact values as hex floats, decimals or rationals, rule names from
// the closed list, shapes, and list lengths against the shape. The reader compiles one schema per
// suite from its #op and #columns, then checks every record with it: plain character loops, no
// allocation unless a field is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "corpus/error.h"
#include "registry/registry.h"

namespace nc::corpus {

struct SuiteHeader;

// Hex digits of a word in the corpus (FORMAT.md): the registry's hex_digits (grouped codes are
// padded to a byte).
int word_hex_digits(WordType w);

class RecordSchema {
 public:
  // The checks for a header's #op and #columns. An Error (rule only) when the op, its selector
  // (word type, FMT.COMP, format, recipe) or the column list is not one FORMAT.md defines.
  static Result<RecordSchema> compile(const SuiteHeader& header);
  // "" when every field is well-formed; otherwise what is wrong, naming the column and the value.
  std::string check(const std::vector<std::string_view>& fields) const;

  using Op = nc::Op;  // the registry's ops

 private:
  Op op_ = Op::Decode;
  int word_digits_ = 0;        // decode/validate word, convert destination, tensor code words
  int scale_digits_ = 0;       // reconstruct / tensor scale words, encode scales
  bool float_result_ = false;  // decode: binary32 result (else a signed decimal)
  bool has_divisor_ = false;   // NVFP4
  uint32_t group_ = 0;         // elements per scale along K; 0 = one scale per row
};

}  // namespace nc::corpus
