// The corpus/pipe spellings of the ABI's enumerations (vectors/FORMAT.md, plugin.h), one table each.
#pragma once

#include <optional>
#include <string_view>

#include "ninfer_conform/plugin.h"

namespace nc::runners {

std::optional<nc_word_type> word_type_token(std::string_view s);
std::optional<nc_format> format_token(std::string_view s);
std::optional<nc_component> component_token(std::string_view s);  // "word" "code" "scale" "divisor"
std::optional<nc_recipe> recipe_token(std::string_view s);
std::optional<nc_source_type> source_type_token(std::string_view s);
std::optional<nc_layout> layout_token(std::string_view s);  // "blockscale-k16-m128x4-v1"
std::string_view format_name(nc_format f);
std::string_view word_type_name(nc_word_type wt);
std::string_view recipe_name(nc_recipe r);
std::string_view rule_name(nc_rule r);  // "shape", "code-illegal", ...
// Which plane a rule's `where` index points into: 'c' codes, 's' scales, 0 none.
char rule_plane(nc_rule r);
// Float word types decode to binary32 words; I32 and codes to signed decimals.
bool word_type_is_float(nc_word_type wt);
int word_type_hex_digits(nc_word_type wt);
int recipe_result_hex_digits(nc_recipe r);
int source_type_hex_digits(nc_source_type t);

}  // namespace nc::runners
