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
// Recipes too, and the rules after NC_RULE_NONE in the registry's rule order.
static_assert(int(NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE) + 1 == kRecipeCount);
static_assert(int(NC_RULE_SHAPE) == int(RuleId::Shape) + 1 && int(NC_RULE_DIVISOR) == int(RuleId::Divisor) + 1);

constexpr std::array<std::pair<std::string_view, nc_component>, 4> kComponents{
    {{"word", NC_COMP_WORD}, {"code", NC_COMP_CODE}, {"scale", NC_COMP_SCALE}, {"divisor", NC_COMP_DIVISOR}}};

struct SourceInfo {
  std::string_view name;
  nc_source_type id;
  int digits;
};
constexpr std::array<SourceInfo, 4> kSources{
    {{"FP32", NC_SRC_FP32, 8}, {"BF16", NC_SRC_BF16, 4}, {"F16", NC_SRC_F16, 4}, {"F64", NC_SRC_F64, 16}}};

// Which plane each ABI rule's `where` points into; the names are the registry's.
constexpr std::array<std::pair<nc_rule, char>, 7> kRulePlanes{{
    {NC_RULE_NONE, 0},
    {NC_RULE_SHAPE, 0},
    {NC_RULE_CODE_ILLEGAL, 'c'},
    {NC_RULE_SCALE_NEGATIVE, 's'},
    {NC_RULE_SCALE_NONFINITE, 's'},
    {NC_RULE_ZERO_SCALE_CODES, 'c'},
    {NC_RULE_DIVISOR, 0},
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
  if (auto r = find_recipe(s)) return nc_recipe(int(*r));
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
  if (int(r) >= 0 && int(r) < kRecipeCount) return info(Recipe(int(r))).name;
  return "unknown-recipe";
}
std::string_view rule_name(nc_rule r) {
  if (r == NC_RULE_NONE) return "none";
  if (int(r) >= int(NC_RULE_SHAPE) && int(r) <= int(NC_RULE_DIVISOR)) return nc::rule_name(RuleId(int(r) - 1));
  return "unknown-rule";
}
char rule_plane(nc_rule r) {
  for (auto& [id, plane] : kRulePlanes)
    if (id == r) return plane;
  return 0;
}
bool word_type_is_float(nc_word_type wt) {
  return int(wt) >= 0 && int(wt) < kWordTypeCount && info(WordType(int(wt))).is_float;
}
int word_type_hex_digits(nc_word_type wt) { return int((info(WordType(int(wt))).bits + 3) / 4); }
int recipe_result_hex_digits(nc_recipe r) {
  if (int(r) >= 0 && int(r) < kRecipeCount) return int(info(info(Recipe(int(r))).destination).hex_digits);
  return 8;
}
int source_type_hex_digits(nc_source_type t) {
  for (auto& x : kSources)
    if (x.id == t) return x.digits;
  return 8;
}

}  // namespace nc::runners
