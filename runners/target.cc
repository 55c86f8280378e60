#include "runners/target.h"

#include <array>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nc::runners {
namespace {
constexpr std::array<const char*, kCapabilityCount> kVerbs{
    "decode", "validate", "parse", "reconstruct", "convert", "encode", "validate-tensor", "dequantize", "layout"};

}  // namespace

const char* capability_verb(Capability c) { return kVerbs[size_t(c)]; }

bool capability_from_op(const std::string& op, Capability* out) {
  for (size_t i = 0; i < kVerbs.size(); ++i)
    if (op == kVerbs[i]) return *out = Capability(i), true;
  return false;
}

std::string request_line(const Request& r) {
  std::string s = capability_verb(r.cap);
  s.reserve(s.size() + 1 + r.selector.size() + r.elements.size());
  if (!r.selector.empty()) s += ' ', s += r.selector;
  s += r.elements;
  return s;
}

void Response::index_tokens() {
  token_starts.clear();
  if (line.size() <= 3) return;
  token_starts.push_back(3);
  // The spaces after "ok ", 16 bytes at a time (a token is about 9 bytes: a call to find each
  // cost more than the looking), then the rest byte by byte.
  const char* const p = line.data();
  size_t at = 3;
#if defined(__SSE2__)
  for (; at + 16 <= line.size(); at += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    for (unsigned m = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(' ')))); m != 0; m &= m - 1)
      token_starts.push_back(at + unsigned(__builtin_ctz(m)) + 1);
  }
#endif
  for (; at < line.size(); ++at)
    if (p[at] == ' ') token_starts.push_back(at + 1);
}

}  // namespace nc::runners
