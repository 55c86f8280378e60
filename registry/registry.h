// The closed registry of NInfer persistent numeric formats (spec sections 1, 3.2, 11).
//
// This is the one table every stage shares: the nine canonical names, their category, the word
// types of their components, and their group sizes. It says nothing about what a bit means; that
// is written twice on purpose, once in oracle/ and once in codec/.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
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
    {Format::FP8_E4M3FN_ROW_BF16S, "FP8_E4M3FN_ROW_BF16S", Category::RowScaledFloat, WordType::E4M3FN, WordType::BF16, std::nullopt, 0, 8},
}};

struct WordTypeInfo {
  WordType id;
  std::string_view name;  // the token used in the corpus and on the command line
  uint32_t bits;
};

inline constexpr std::array<WordTypeInfo, kWordTypeCount> kWordTypes{{
    {WordType::BF16, "BF16", 16},
    {WordType::FP32, "FP32", 32},
    {WordType::I32, "I32", 32},
    {WordType::F16, "F16", 16},
    {WordType::E4M3FN, "E4M3FN", 8},
    {WordType::E2M1, "E2M1", 4},
    {WordType::Q4_CODE, "Q4G64_F16S.code", 4},
    {WordType::Q5_CODE, "Q5G64_F16S.code", 5},
    {WordType::Q6_CODE, "Q6G64_F16S.code", 6},
    {WordType::W8_CODE, "W8G32_F16S.code", 8},
}};

constexpr const FormatInfo& info(Format f) { return kFormats[static_cast<size_t>(f)]; }
constexpr const WordTypeInfo& info(WordType w) { return kWordTypes[static_cast<size_t>(w)]; }
constexpr bool is_grouped_int(Format f) { return info(f).category == Category::GroupedInt; }

// Exact, case-sensitive comparison against the nine names; no splitting into components
// (spec 3.2: the names are identifiers, not a grammar). Embedded NULs and padding never match.
std::optional<Format> find_format(std::string_view name);
std::optional<WordType> find_word_type(std::string_view name);

// The canonical encoder profile's identity (spec 7); the one profile this registry knows.
inline constexpr std::string_view kCanonicalEncoderProfile = "MAXABS_F16_RECIP_RNE_V1";

}  // namespace nc
