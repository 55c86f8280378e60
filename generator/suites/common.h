// Helpers shared by the suite files: word text, and the decode case every decode-style suite
// builds from the oracle. Expected values only ever come from nc::oracle.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corpus/schema.h"
#include "generator/suite.h"
#include "oracle/context.h"
#include "oracle/decode.h"
#include "oracle/float_format.h"
#include "registry/registry.h"

namespace nc::gen {

// Fixed-width lowercase hex (vectors/FORMAT.md "Words").
std::string hex_word(uint64_t word, int digits);
using corpus::word_hex_digits;  // a word's hex width in the corpus (corpus/schema.h)
std::string join(const std::vector<std::string>& v, char sep);
// "!<rule>", the expect text of a required rejection.
std::string rejection(std::string_view rule);

std::optional<oracle::FloatFormat> float_format_of(WordType t);  // nullopt for integer types

// The tags every decode suite shares, defined once here with the bug each targets.
void add_decode_tags(SuiteInfo& s);

// One `decode WT` case for `word`: expect (binary32 word, signed decimal, `nan*`, or
// `!code-illegal`), value, class, and class/sign/boundary tags. `extra_tags` are added.
Case decode_case(oracle::Context& ctx, WordType t, uint32_t word, std::vector<std::string> extra_tags = {},
                 std::string comment = "");

}  // namespace nc::gen
