#include "runners/tokens.h"

#include <array>
#include <cinttypes>
#include <cstdio>

namespace nc::runners {
namespace {
// Each character's hex digit value (any case), or 16 for a character that is none: one load per
// digit, no branch on which range it falls in (unpredictable in random words).
constexpr std::array<uint8_t, 256> kHexDigitValue = [] {
  std::array<uint8_t, 256> v{};
  for (int c = 0; c < 256; ++c)
    v[size_t(c)] = c >= '0' && c <= '9'   ? uint8_t(c - '0')
                   : c >= 'a' && c <= 'f' ? uint8_t(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? uint8_t(c - 'A' + 10)
                                          : 16;
  return v;
}();
}  // namespace

// Tokens are mostly a few characters long: a plain loop beats a memchr call per token.
std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  parts.push_back(s.substr(start));
  return parts;
}

bool parse_hex(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 16) return false;
  uint64_t v = 0;
  for (char c : s) {
    const uint8_t d = kHexDigitValue[uint8_t(c)];
    if (d > 15) return false;
    v = (v << 4) | d;
  }
  *out = v;
  return true;
}

bool parse_hex_list(std::string_view s, std::vector<uint64_t>* out) {
  out->clear();
  if (s == "-") return true;  // an empty plane (vectors/FORMAT.md: absent values are "-")
  for (std::string_view p : split(s, ',')) {
    uint64_t v;
    if (!parse_hex(p, &v)) return false;
    out->push_back(v);
  }
  return true;
}

bool parse_dec(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  bool neg = s[0] == '-';
  std::string_view digits = neg ? s.substr(1) : s;
  if (digits.empty()) return false;
  int64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    if (v > (INT64_MAX - (c - '0')) / 10) return false;
    v = v * 10 + (c - '0');
  }
  *out = neg ? -v : v;
  return true;
}

bool parse_shape(std::string_view s, std::vector<uint64_t>* out) {
  out->clear();
  for (std::string_view p : split(s, 'x')) {
    int64_t v;
    if (!parse_dec(p, &v) || v < 0 || p[0] == '-') return false;
    out->push_back(uint64_t(v));
  }
  return true;
}

std::string hex_word(uint64_t v, int digits) {
  std::string s;
  append_hex_word(&s, v, digits);
  return s;
}

void append_hex_word(std::string* s, uint64_t v, int digits) {
  const size_t at = s->size();
  s->resize(at + size_t(digits));
  write_hex_word(s->data() + at, v, digits);
}

bool is_binary32_token(std::string_view s) {
  uint64_t v;
  return s.size() == 8 && parse_hex(s, &v);
}

bool binary32_is_nan(uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x007fffffu) != 0; }

std::string binary32_value(uint32_t w) {
  const bool neg = w >> 31;
  const uint32_t e = (w >> 23) & 0xff, f = w & 0x7fffff;
  std::string sign = neg ? "-" : "";
  if (e == 0xff) return f ? "nan" : sign + "inf";
  if (e == 0 && f == 0) return sign + "0x0p+0";
  // Print as 0x1.<23 bits as 6 hex digits, shifted left by 1>p<exp>, exact for every binary32.
  int exp = e ? int(e) - 127 : -126;
  const char* lead = e ? "1" : "0";
  char digits[8];
  std::snprintf(digits, sizeof digits, "%06" PRIx32, f << 1);
  std::string frac = digits;
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s0x%s%s%sp%+d", sign.c_str(), lead, frac.empty() ? "" : ".", frac.c_str(), exp);
  return buf;
}

uint64_t binary32_ulp_distance(uint32_t a, uint32_t b) {
  // Map sign-magnitude to a monotone integer line where -0 and +0 coincide.
  auto line = [](uint32_t w) -> int64_t {
    int64_t mag = int64_t(w & 0x7fffffffu);
    return (w >> 31) ? -mag : mag;
  };
  int64_t d = line(a) - line(b);
  return uint64_t(d < 0 ? -d : d);
}

}  // namespace nc::runners
