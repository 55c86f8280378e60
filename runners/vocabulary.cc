#include "runners/vocabulary.h"

#include <array>
#include <utility>

#include "registry/registry.h"

namespace nc::runners {
namespace {
// The ABI numbers word types and formats in registry order (plugin.h), so the registry's tables
// give the spellings.
static_assert(int(NC_WT_W8_CODE) + 1 == kWordTypeCount);
static_assert(int(NC_FORMAT_FP8_E4M3FN_ROW_BF16S) + 1 == kFormatCount);

constexpr std::array<std::pair<std::string_view, nc_component>, 4> kComponents{{
    {"word", NC_COMP_WORD}, {"code", NC_COMP_CODE}, {"scale", NC_COMP_SCALE}, {"divisor", NC_COMP_DIVISOR}}};

struct RecipeInfo {
  std::string_view name;
  nc_recipe id;
  int result_digits;
};
constexpr std::array<RecipeInfo, 5> kRecipes{{
    {"F32_TO_BF16_RNE", NC_RECIPE_F32_TO_BF16_RNE, 4},
    {"F32_TO_F16_RNE", NC_RECIPE_F32_TO_F16_RNE, 4},
    {"F32_TO_E4M3FN_RNE_SATFINITE", NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE, 2},
    {"F32_TO_E4M3FN_RNE_OVF_NAN", NC_RECIPE_F32_TO_E4M3FN_RNE_OVF_NAN, 2},
    {"F32_TO_E2M1_RNE_SATFINITE", NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE, 1},
}};

struct SourceInfo {
  std::string_view name;
  nc_source_type id;
  int digits;
};
constexpr std::array<SourceInfo, 4> kSources{{
    {"FP32", NC_SRC_FP32, 8}, {"BF16", NC_SRC_BF16, 4}, {"F16", NC_SRC_F16, 4}, {"F64", NC_SRC_F64, 16}}};

struct RuleInfo {
  nc_rule id;
  std::string_view name;
  char plane;
};
constexpr std::array<RuleInfo, 7> kRules{{
    {NC_RULE_NONE, "none", 0},
    {NC_RULE_SHAPE, "shape", 0},
    {NC_RULE_CODE_ILLEGAL, "code-illegal", 'c'},
    {NC_RULE_SCALE_NEGATIVE, "scale-negative", 's'},
    {NC_RULE_SCALE_NONFINITE, "scale-nonfinite", 's'},
    {NC_RULE_ZERO_SCALE_CODES, "zero-scale-codes", 'c'},
    {NC_RULE_DIVISOR, "divisor", 0},
}};
}  // namespace

std::optional<nc_word_type> word_type_token(std::string_view s) {
  if (auto w = find_word_type(s)) return nc_word_type(int(*w));
  return std::nullopt;
}
std::optional<nc_format> format_token(std::string_view s) {
  if (auto f = find_format(s)) return nc_format(int(*f));
  return std::nullopt;
}
std::optional<nc_component> component_token(std::string_view s) {
  for (auto& [name, id] : kComponents)
    if (name == s) return id;
  return std::nullopt;
}
std::optional<nc_recipe> recipe_token(std::string_view s) {
  for (auto& r : kRecipes)
    if (r.name == s) return r.id;
  return std::nullopt;
}
std::optional<nc_layout> layout_token(std::string_view s) {
  if (s == "blockscale-k16-m128x4-v1") return NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1;
  return std::nullopt;
}
std::optional<nc_source_type> source_type_token(std::string_view s) {
  for (auto& t : kSources)
    if (t.name == s) return t.id;
  return std::nullopt;
}
std::string_view format_name(nc_format f) { return info(Format(int(f))).name; }
std::string_view word_type_name(nc_word_type wt) { return info(WordType(int(wt))).name; }
std::string_view recipe_name(nc_recipe r) {
  for (auto& x : kRecipes)
    if (x.id == r) return x.name;
  return "unknown-recipe";
}
std::string_view rule_name(nc_rule r) {
  for (auto& x : kRules)
    if (x.id == r) return x.name;
  return "unknown-rule";
}
char rule_plane(nc_rule r) {
  for (auto& x : kRules)
    if (x.id == r) return x.plane;
  return 0;
}
bool word_type_is_float(nc_word_type wt) {
  switch (wt) {
    case NC_WT_BF16: case NC_WT_FP32: case NC_WT_F16: case NC_WT_E4M3FN: case NC_WT_E2M1: return true;
    default: return false;
  }
}
int word_type_hex_digits(nc_word_type wt) { return int((info(WordType(int(wt))).bits + 3) / 4); }
int recipe_result_hex_digits(nc_recipe r) {
  for (auto& x : kRecipes)
    if (x.id == r) return x.result_digits;
  return 8;
}
int source_type_hex_digits(nc_source_type t) {
  for (auto& x : kSources)
    if (x.id == t) return x.digits;
  return 8;
}

}  // namespace nc::runners
