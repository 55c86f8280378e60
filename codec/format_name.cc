#include "codec/format_name.h"

#include <cstdio>
#include <string>

namespace nc::codec {
namespace {
// Quote with escapes so padding and control bytes are visible in the one-line error.
std::string quoted(std::string_view s) {
  std::string q = "'";
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      q += char(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      q += b;
    }
  }
  return q + "'";
}
}  // namespace

Result<Format> parse_format(std::string_view name) {
  if (auto f = find_format(name)) return *f;
  return Error{quoted(name), "", Rule::UnknownFormat,
               "not one of the nine registered formats (" + format_name_list() + ")"};
}

Result<WordType> parse_word_type(std::string_view name) {
  if (auto w = find_word_type(name)) return *w;
  return Error{quoted(name), "", Rule::UnknownFormat, "not a word type (" + word_type_name_list() + ")"};
}

}  // namespace nc::codec
