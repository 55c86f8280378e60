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
               "not one of the nine registered formats (BF16 FP32 I32 Q4G64_F16S Q5G64_F16S "
               "Q6G64_F16S W8G32_F16S NVFP4 FP8_E4M3FN_ROW_BF16S)"};
}

Result<WordType> parse_word_type(std::string_view name) {
  if (auto w = find_word_type(name)) return *w;
  return Error{quoted(name), "", Rule::UnknownFormat,
               "not a word type (BF16 FP32 I32 F16 E4M3FN E2M1 Q4G64_F16S.code Q5G64_F16S.code "
               "Q6G64_F16S.code W8G32_F16S.code)"};
}

}  // namespace nc::codec
