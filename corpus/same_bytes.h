// Equality of two short byte strings (an id's suite prefix, a tag list, a result word), compared
// inline 8 bytes at a time: per record the reader and the judge compare a few such strings, and a
// call to memcmp for each cost more than the comparing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace nc::corpus {

// Whether the n bytes at a and at b are the same.
inline bool same_bytes(const char* a, const char* b, size_t n) {
  if (n >= 8) {  // whole words, the last one overlapping the one before
    uint64_t x, y, diff = 0;
    for (size_t i = 0; i + 8 < n; i += 8) std::memcpy(&x, a + i, 8), std::memcpy(&y, b + i, 8), diff |= x ^ y;
    std::memcpy(&x, a + n - 8, 8), std::memcpy(&y, b + n - 8, 8), diff |= x ^ y;
    return diff == 0;
  }
  if (n >= 4) {  // the first four and the last four
    uint32_t x0, y0, x1, y1;
    std::memcpy(&x0, a, 4), std::memcpy(&y0, b, 4), std::memcpy(&x1, a + n - 4, 4), std::memcpy(&y1, b + n - 4, 4);
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
  }
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

inline bool same_bytes(std::string_view a, std::string_view b) {
  return a.size() == b.size() && same_bytes(a.data(), b.data(), a.size());
}

}  // namespace nc::corpus
