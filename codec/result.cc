#include "codec/result.h"

#include "registry/registry.h"

namespace nc::codec {

// The corpus's rules begin this enum in the registry's order; the last two are codec's own.
static_assert(int(Rule::Index) + 1 == kRuleCount && int(Rule::Shape) == int(RuleId::Shape) &&
              int(Rule::ZeroScaleCodes) == int(RuleId::ZeroScaleCodes));

std::string_view rule_token(Rule r) {
  if (int(r) < kRuleCount) return rule_name(RuleId(int(r)));
  switch (r) {
    case Rule::WordRange:
      return "word-range";
    case Rule::Unsupported:
      return "unsupported";
    default:
      break;
  }
  return "?";
}

std::string Error::text() const {
  std::string s = subject;
  if (!where.empty()) s += ": " + where;
  s += ": ";
  s += rule_token(rule);
  if (!detail.empty()) s += ": " + detail;
  return s;
}

}  // namespace nc::codec
