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

using oracle::float_format_of;  // nullopt for integer types (oracle/float_format.h)

// NVFP4 divisors d_w that reconstruct.NVFP4 crosses with every code and valid block scale, and
// dequantize.NVFP4 lays out as whole tensors: 1, powers of two at both ends of the range and
// in between, quotients that are not dyadic (3, ~0.1, 1.5, 21, 45), 1 + 2^-23, and the largest
// binary32.
inline constexpr uint32_t kNvfp4Divisors[] = {0x3f800000u /*1*/,    0x35800000u /*2^-20*/,   0x40400000u /*3*/,
                                              0x3dcccccdu /*~0.1*/, 0x3fc00000u /*1.5*/,     0x41a80000u /*21*/,
                                              0x42340000u /*45*/,   0x3f800001u /*1+2^-23*/, 0x7f000000u /*2^127*/,
                                              0x7f7fffffu /*max*/,  0x00800000u /*2^-126*/,  0x00000001u /*2^-149*/};

// The tags every decode suite shares, defined once here with the bug each targets.
void add_decode_tags(SuiteInfo& s);

// One `decode WT` case for `word`: expect (binary32 word, signed decimal, `nan*`, or
// `!code-illegal`), value, class, and class/sign/boundary tags. `extra_tags` are added.
Case decode_case(oracle::Context& ctx, WordType t, uint32_t word, std::vector<std::string> extra_tags = {},
                 std::string comment = "");

}  // namespace nc::gen

namespace nc::gen {

// The encode -> dequantize chains of spec 12's last evidence item ("canonical quantization
// followed by exact stored code/scale decode for a partially populated group"): binary32 source
// matrices of a grouped scheme with a partial final group of every residue r = K mod G (1..G-1),
// shape [2, G + r], and [r] alone for three residues. Every partial group holds nonzero values; in
// each [2, G + r] one row's partial group is rescued (amax/qmax rounds to binary16 zero, codes
// nonzero under 0x0001) and the other's clamps (a subnormal scale that rounds down, +-amax beyond
// [qmin, qmax]). encode.<FMT> holds them as encode records and dequantize.<FMT> holds the oracle
// encoder's output of each, tagged encode-chain in both, with the same comment.
struct ChainSource {
  uint64_t rows = 1, k = 0;
  std::vector<uint32_t> src;  // binary32 words, row-major
  std::string what;           // the shared comment
};
std::vector<ChainSource> chain_sources(Format f);

}  // namespace nc::gen
