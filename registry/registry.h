// The closed registry of NInfer persistent numeric formats (spec sections 1, 3.2, 11).
//
// This is the one table every stage shares: the nine canonical names, their category, the word
// types of their components, and their group sizes. It says nothing about what a bit means; that
// is written twice on purpose, once in oracle/ and once in codec/.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nc {

enum class Format : uint8_t {
  BF16,
  FP32,
  I32,
  Q4G64_F16S,
  Q5G64_F16S,
  Q6G64_F16S,
  W8G32_F16S,
  NVFP4,
  FP8_E4M3FN_ROW_BF16S,
};
inline constexpr int kFormatCount = 9;

enum class Category : uint8_t { Direct, GroupedInt, BlockScaledFloat, RowScaledFloat };

// Component word types. These name logical words, not registry formats: F16 is the binary16
// scale word of the grouped formats, never a direct format (spec 3.2 exclusions).
enum class WordType : uint8_t {
  BF16,
  FP32,
  I32,
  F16,
  E4M3FN,
  E2M1,
  Q4_CODE,
  Q5_CODE,
  Q6_CODE,
  W8_CODE,
};
inline constexpr int kWordTypeCount = 10;

enum class Component : uint8_t { Word, Code, Scale, Divisor };

struct FormatInfo {
  Format id;
  std::string_view name;
  Category category;
  WordType code;                    // direct: the element word; otherwise the code word
  std::optional<WordType> scale;    // per group (grouped, NVFP4) or per row (FP8 row)
  std::optional<WordType> divisor;  // NVFP4's one matrix divisor
  uint32_t group_size;              // elements per scale along K; 0 = direct, no groups; FP8 row: 0 (one per row)
  uint32_t code_bits;
};

// Spec section 1 table, in registry order.
inline constexpr std::array<FormatInfo, kFormatCount> kFormats{{
    {Format::BF16, "BF16", Category::Direct, WordType::BF16, std::nullopt, std::nullopt, 0, 16},
    {Format::FP32, "FP32", Category::Direct, WordType::FP32, std::nullopt, std::nullopt, 0, 32},
    {Format::I32, "I32", Category::Direct, WordType::I32, std::nullopt, std::nullopt, 0, 32},
    {Format::Q4G64_F16S, "Q4G64_F16S", Category::GroupedInt, WordType::Q4_CODE, WordType::F16, std::nullopt, 64, 4},
    {Format::Q5G64_F16S, "Q5G64_F16S", Category::GroupedInt, WordType::Q5_CODE, WordType::F16, std::nullopt, 64, 5},
    {Format::Q6G64_F16S, "Q6G64_F16S", Category::GroupedInt, WordType::Q6_CODE, WordType::F16, std::nullopt, 64, 6},
    {Format::W8G32_F16S, "W8G32_F16S", Category::GroupedInt, WordType::W8_CODE, WordType::F16, std::nullopt, 32, 8},
    {Format::NVFP4, "NVFP4", Category::BlockScaledFloat, WordType::E2M1, WordType::E4M3FN, WordType::FP32, 16, 4},
    {Format::FP8_E4M3FN_ROW_BF16S, "FP8_E4M3FN_ROW_BF16S", Category::RowScaledFloat, WordType::E4M3FN, WordType::BF16,
     std::nullopt, 0, 8},
}};

// How a float word type spells NaN: the letters of its name say it (IEEE types; "FN" = finite,
// NaN only where every exponent and fraction bit is set; E2M1 has none). An identity fact, like the
// field widths below: with them a judge can tell a NaN word without any implementation's decoder.
enum class NanSpelling : uint8_t {
  None,     // no NaN word (E2M1; integer and code words)
  Ieee,     // exponent all ones, fraction not zero; the top fraction bit is the quiet bit
  AllOnes,  // only S.1..1.1..1 (E4M3FN); no payload, no quiet bit, no infinity
};

// The NaN-latitude policies a runner grants by name (vectors/FORMAT.md "Policies"), finest first.
inline constexpr std::string_view kPolicyNanPayload = "nan-payload";      // a NaN with the required sign
inline constexpr std::string_view kPolicyNanAny = "nan-any";              // any NaN of the result type
inline constexpr std::string_view kPolicyNanCanonical = "nan-canonical";  // the canonical quiet NaN
inline constexpr std::array<std::string_view, 3> kPolicies{kPolicyNanPayload, kPolicyNanAny, kPolicyNanCanonical};

struct WordTypeInfo {
  WordType id;
  std::string_view name;  // the token used in the corpus and on the command line
  uint32_t bits;
  uint32_t hex_digits;  // of a word in the corpus (FORMAT.md): grouped codes are padded to a byte
  bool is_float;        // decodes to a binary32 word; otherwise to a signed decimal (I32, codes)
  // Float word types only (0 otherwise): field widths, and how NaN is spelled.
  uint32_t exponent_bits, fraction_bits;
  NanSpelling nan;
  // The policy a decode of a NaN word of this type grants ("" none): binary16 is only a scale
  // type, whose NaN payload no format defines (spec 3.2), so any binary32 NaN is accepted.
  std::string_view decode_nan_latitude;
};

inline constexpr std::array<WordTypeInfo, kWordTypeCount> kWordTypes{{
    {WordType::BF16, "BF16", 16, 4, true, 8, 7, NanSpelling::Ieee, ""},
    {WordType::FP32, "FP32", 32, 8, true, 8, 23, NanSpelling::Ieee, ""},
    {WordType::I32, "I32", 32, 8, false, 0, 0, NanSpelling::None, ""},
    {WordType::F16, "F16", 16, 4, true, 5, 10, NanSpelling::Ieee, kPolicyNanAny},
    {WordType::E4M3FN, "E4M3FN", 8, 2, true, 4, 3, NanSpelling::AllOnes, ""},
    {WordType::E2M1, "E2M1", 4, 1, true, 2, 1, NanSpelling::None, ""},
    {WordType::Q4_CODE, "Q4G64_F16S.code", 4, 2, false, 0, 0, NanSpelling::None, ""},
    {WordType::Q5_CODE, "Q5G64_F16S.code", 5, 2, false, 0, 0, NanSpelling::None, ""},
    {WordType::Q6_CODE, "Q6G64_F16S.code", 6, 2, false, 0, 0, NanSpelling::None, ""},
    {WordType::W8_CODE, "W8G32_F16S.code", 8, 2, false, 0, 0, NanSpelling::None, ""},
}};

// The named conversions (docs/recipes.md). The enum is the one every stage uses; the ABI's
// nc_recipe numbers them in this order (plugin.h).
enum class Recipe : uint8_t {
  F32_TO_BF16_RNE,
  F32_TO_F16_RNE,
  F32_TO_E4M3FN_RNE_SATFINITE,
  F32_TO_E4M3FN_RNE_OVF_NAN,
  F32_TO_E2M1_RNE_SATFINITE,
};
inline constexpr int kRecipeCount = 5;

struct RecipeInfo {
  Recipe id;
  std::string_view name;
  WordType source, destination;
  // The policy a NaN source's result may use ("" none): where the destination's NaN carries a
  // payload and a quiet bit (BF16, F16), another NaN of it is the documented alternative. E4M3FN's
  // two NaN words differ only in the sign the recipe keeps, and E2M1 has no NaN: fully defined.
  std::string_view nan_latitude;
};

inline constexpr std::array<RecipeInfo, kRecipeCount> kRecipes{{
    {Recipe::F32_TO_BF16_RNE, "F32_TO_BF16_RNE", WordType::FP32, WordType::BF16, kPolicyNanAny},
    {Recipe::F32_TO_F16_RNE, "F32_TO_F16_RNE", WordType::FP32, WordType::F16, kPolicyNanAny},
    {Recipe::F32_TO_E4M3FN_RNE_SATFINITE, "F32_TO_E4M3FN_RNE_SATFINITE", WordType::FP32, WordType::E4M3FN, ""},
    {Recipe::F32_TO_E4M3FN_RNE_OVF_NAN, "F32_TO_E4M3FN_RNE_OVF_NAN", WordType::FP32, WordType::E4M3FN, ""},
    {Recipe::F32_TO_E2M1_RNE_SATFINITE, "F32_TO_E2M1_RNE_SATFINITE", WordType::FP32, WordType::E2M1, ""},
}};

// The corpus operations (vectors/FORMAT.md "Operations"): each op's input columns, which the case
// id hashes, and its info columns, space-separated. A suite's #columns line is
// `id INPUTS expect accept INFO tags comment`.
enum class Op : uint8_t { Decode, Validate, Parse, Reconstruct, Convert, Encode, ValidateTensor, Dequantize, Layout };
inline constexpr int kOpCount = 9;

struct OpInfo {
  Op id;
  std::string_view name;
  std::string_view inputs, info;
};

inline constexpr std::array<OpInfo, kOpCount> kOps{{
    {Op::Decode, "decode", "word", "value class"},
    {Op::Validate, "validate", "word", ""},
    {Op::Parse, "parse", "name", ""},
    {Op::Reconstruct, "reconstruct", "code scale divisor", "exact"},
    {Op::Convert, "convert", "src", "exact"},
    {Op::Encode, "encode", "src_type shape src", "trace norm"},
    {Op::ValidateTensor, "validate-tensor", "shape codes scales divisor", ""},
    {Op::Dequantize, "dequantize", "shape codes scales divisor", ""},
    {Op::Layout, "layout", "shape row block", "position"},
}};

// The rejection rules of vectors/FORMAT.md "Rules", in this order (codec::Rule and the ABI's
// nc_rule, less its NONE, begin with the same order).
enum class RuleId : uint8_t {
  Shape,
  CodeIllegal,
  ScaleNegative,
  ScaleNonfinite,
  ZeroScaleCodes,
  Divisor,
  UnknownFormat,
  Nonfinite,
  ScaleOverflow,
  Index,
};
inline constexpr int kRuleCount = 10;
inline constexpr std::array<std::string_view, kRuleCount> kRuleNames{
    "shape",   "code-illegal",   "scale-negative", "scale-nonfinite", "zero-scale-codes",
    "divisor", "unknown-format", "nonfinite",      "scale-overflow",  "index"};

// The decode op's `class` column (FORMAT.md), in the oracle's ValueClass order.
inline constexpr int kValueClassCount = 6;
inline constexpr std::array<std::string_view, kValueClassCount> kValueClassTokens{"zero", "subnormal", "normal",
                                                                                  "inf",  "nan",       "int"};

constexpr const FormatInfo& info(Format f) { return kFormats[static_cast<size_t>(f)]; }
constexpr const WordTypeInfo& info(WordType w) { return kWordTypes[static_cast<size_t>(w)]; }
constexpr const RecipeInfo& info(Recipe r) { return kRecipes[static_cast<size_t>(r)]; }
constexpr const OpInfo& info(Op o) { return kOps[static_cast<size_t>(o)]; }
constexpr std::string_view rule_name(RuleId r) { return kRuleNames[static_cast<size_t>(r)]; }

// Every table lists its rows in enum order, so info() is an index.
template <class Table>
constexpr bool rows_in_enum_order(const Table& t) {
  for (size_t i = 0; i < t.size(); ++i)
    if (static_cast<size_t>(t[i].id) != i) return false;
  return true;
}
static_assert(rows_in_enum_order(kFormats) && rows_in_enum_order(kWordTypes) && rows_in_enum_order(kRecipes) &&
              rows_in_enum_order(kOps));
constexpr bool is_grouped_int(Format f) { return info(f).category == Category::GroupedInt; }

// Exact, case-sensitive comparison against the nine names; no splitting into components
// (spec 3.2: the names are identifiers, not a grammar). Embedded NULs and padding never match.
std::optional<Format> find_format(std::string_view name);
std::optional<WordType> find_word_type(std::string_view name);
std::optional<Recipe> find_recipe(std::string_view name);  // exact spelling only
std::optional<Op> find_op(std::string_view name);
std::optional<RuleId> find_rule(std::string_view name);
bool is_policy(std::string_view name);  // one of kPolicies
// The whole #columns line of an op: "id word expect accept value class tags comment".
std::string op_columns_line(Op o);
// "BF16 FP32 I32 ..." and "BF16 FP32 ... W8G32_F16S.code": the names, for error messages.
std::string format_name_list();
std::string word_type_name_list();

// The canonical encoder profile's identity (spec 7); the one profile this registry knows.
inline constexpr std::string_view kCanonicalEncoderProfile = "MAXABS_F16_RECIP_RNE_V1";

}  // namespace nc
