// Token syntax shared by the pipe protocol and the corpus: fixed-width lowercase hex words, signed
// decimals, comma and 'x' lists. Parsers return false instead of throwing on malformed input.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nc::runners {

std::vector<std::string_view> split(std::string_view s, char sep);
// Hex word of at most 16 digits, any case; false on an empty or non-hex token.
bool parse_hex(std::string_view s, uint64_t* out);
bool parse_hex_list(std::string_view s, std::vector<uint64_t>* out);  // "a,b,c"
bool parse_dec(std::string_view s, int64_t* out);
bool parse_shape(std::string_view s, std::vector<uint64_t>* out);  // "3x130", positive or zero extents
std::string hex_word(uint64_t v, int digits);                      // lowercase, zero padded
void append_hex_word(std::string* s, uint64_t v, int digits);      // the same, written onto *s
// The same at out, returning its end (inline: answer lines are written a word at a time).
inline char* write_hex_word(char* out, uint64_t v, int digits) {
  for (int i = digits - 1; i >= 0; --i, v >>= 4) out[i] = "0123456789abcdef"[v & 15];
  return out + digits;
}
// Fixed-width lowercase hex of a binary32 result token: exactly 8 hex digits.
bool is_binary32_token(std::string_view s);
bool binary32_is_nan(uint32_t w);
// A readable exact value of a binary32 word (C99 hex float, inf, nan).
std::string binary32_value(uint32_t w);
// Distance in units in the last place between two non-NaN binary32 words (ordered as integers,
// +0 and -0 are 0 apart).
uint64_t binary32_ulp_distance(uint32_t a, uint32_t b);

}  // namespace nc::runners
