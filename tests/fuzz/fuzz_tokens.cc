// libFuzzer harness: the token parsers of runners/tokens.cc, with the properties the protocol
// relies on: what parse_hex/parse_dec/parse_shape accept prints back to an equivalent token, and
// nothing they reject is half-stored.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runners/tokens.h"

namespace {
void check(bool ok) {
  if (!ok) __builtin_trap();
}

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nc::runners;
  std::string_view s(reinterpret_cast<const char*>(data), size);

  uint64_t h = 0;
  bool all_hex = !s.empty() && s.size() <= 16;
  for (char c : s) all_hex = all_hex && is_hex_digit(c);
  check(parse_hex(s, &h) == all_hex);
  if (all_hex) {
    // Same value, printed at the same width: equal ignoring case.
    std::string back = hex_word(h, int(s.size()));
    for (size_t i = 0; i < s.size(); ++i)
      check(back[i] == (s[i] >= 'A' && s[i] <= 'F' ? char(s[i] - 'A' + 'a') : s[i]));
    check(is_binary32_token(s) == (s.size() == 8));
  }

  int64_t d = 0;
  if (parse_dec(s, &d)) {
    // Accepted decimals are canonical apart from leading zeros and "-0".
    std::string back = std::to_string(d);
    std::string_view digits = s[0] == '-' ? s.substr(1) : s;
    while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
    std::string expect = (s[0] == '-' && digits != "0" ? "-" : "") + std::string(digits);
    check(back == expect);
  }

  std::vector<uint64_t> list;
  if (parse_hex_list(s, &list)) {
    size_t commas = 0;
    for (char c : s) commas += c == ',';
    check(s == "-" ? list.empty() : list.size() == commas + 1);
  }
  std::vector<uint64_t> shape;
  if (parse_shape(s, &shape)) {
    size_t xs = 0;
    for (char c : s) xs += c == 'x';
    check(shape.size() == xs + 1);
  }

  if (size >= 8) {
    uint32_t a = 0, b = 0;
    for (int i = 0; i < 4; ++i) a |= uint32_t(data[i]) << (8 * i), b |= uint32_t(data[4 + i]) << (8 * i);
    std::string v = binary32_value(a);
    check(!v.empty());
    check((v == "nan") == binary32_is_nan(a));
    if (!binary32_is_nan(a) && !binary32_is_nan(b)) {
      check(binary32_ulp_distance(a, b) == binary32_ulp_distance(b, a));
      check((binary32_ulp_distance(a, b) == 0) == (a == b || ((a | b) & 0x7fffffffu) == 0));
    }
  }
  return 0;
}
