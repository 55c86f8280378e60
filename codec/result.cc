#include "codec/result.h"

namespace nc::codec {

std::string_view rule_token(Rule r) {
  switch (r) {
    case Rule::Shape: return "shape";
    case Rule::CodeIllegal: return "code-illegal";
    case Rule::ScaleNegative: return "scale-negative";
    case Rule::ScaleNonfinite: return "scale-nonfinite";
    case Rule::ZeroScaleCodes: return "zero-scale-codes";
    case Rule::Divisor: return "divisor";
    case Rule::UnknownFormat: return "unknown-format";
    case Rule::Nonfinite: return "nonfinite";
    case Rule::ScaleOverflow: return "scale-overflow";
    case Rule::WordRange: return "word-range";
    case Rule::Unsupported: return "unsupported";
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
