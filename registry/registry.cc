#include "registry/registry.h"

namespace nc {
namespace {
template <class Table, class Id = decltype(Table::value_type::id)>
std::optional<Id> find_by_name(const Table& t, std::string_view name) {
  for (const auto& row : t)
    if (row.name == name) return row.id;
  return std::nullopt;
}
}  // namespace

std::optional<Format> find_format(std::string_view name) { return find_by_name(kFormats, name); }
std::optional<WordType> find_word_type(std::string_view name) { return find_by_name(kWordTypes, name); }
std::optional<Recipe> find_recipe(std::string_view name) { return find_by_name(kRecipes, name); }
std::optional<Op> find_op(std::string_view name) { return find_by_name(kOps, name); }

std::optional<RuleId> find_rule(std::string_view name) {
  for (size_t i = 0; i < kRuleNames.size(); ++i)
    if (kRuleNames[i] == name) return RuleId(i);
  return std::nullopt;
}

bool is_policy(std::string_view name) {
  for (std::string_view p : kPolicies)
    if (p == name) return true;
  return false;
}

std::string op_columns_line(Op o) {
  const OpInfo& op = info(o);
  std::string s = "id ";
  s.append(op.inputs);
  s.append(" expect accept");
  if (!op.info.empty()) s.append(" ").append(op.info);
  s.append(" tags comment");
  return s;
}

std::string format_name_list() {
  std::string s;
  for (const FormatInfo& f : kFormats) s.append(s.empty() ? "" : " ").append(f.name);
  return s;
}

std::string word_type_name_list() {
  std::string s;
  for (const WordTypeInfo& w : kWordTypes) s.append(s.empty() ? "" : " ").append(w.name);
  return s;
}

}  // namespace nc
