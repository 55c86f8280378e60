#include "oracle/fastref/encoder.h"

#include "oracle/fastref/minifloat_round.h"
#include "oracle/fastref/recipes.h"

namespace nc::fastref {

uint32_t binary32_div(uint32_t a, uint32_t b) {
  Exact x = binary32_exact(a), y = binary32_exact(b);
  // A 24-bit by 24-bit quotient shifted by 50 keeps > 26 significant bits: enough to round once.
  const int s = 50;
  unsigned __int128 num = (unsigned __int128)x.m << s;
  unsigned __int128 q = num / y.m;
  bool sticky = (num % y.m) != 0;
  // q < 2^74: fold the bits above 63 into the exponent, keeping a sticky bit for what drops.
  int extra = 0;
  while (q >> 63) {
    sticky |= (q & 1) != 0;
    q >>= 1;
    ++extra;
  }
  return round_exact(x.negative != y.negative, uint64_t(q), x.q - y.q - s + extra, sticky, kBinary32);
}

int64_t round_integral_rne(uint32_t w) {
  Exact e = binary32_exact(w);
  int64_t v;
  if (e.q >= 0) {
    v = int64_t(e.m << e.q);
  } else if (e.q < -40) {
    v = 0;  // |w| < 2^-16: rounds to zero
  } else {
    int sh = -e.q;
    uint64_t kept = e.m >> sh, rest = e.m & ((uint64_t(1) << sh) - 1), half = uint64_t(1) << (sh - 1);
    v = int64_t(kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0));
  }
  return e.negative ? -v : v;
}

EncodeOutcome encode_group(int qmin, int qmax, const uint32_t* x, size_t n, uint32_t* scale16, int32_t* codes) {
  uint32_t amax = 0;  // |x| compared as magnitudes: for finite binary32, word order = value order
  for (size_t i = 0; i < n; ++i) {
    uint32_t mag = x[i] & 0x7fffffffu;
    if (mag >= 0x7f800000u) return EncodeOutcome::NonFinite;
    if (mag > amax) amax = mag;
  }
  if (amax == 0) {
    *scale16 = 0;
    for (size_t i = 0; i < n; ++i) codes[i] = 0;
    return EncodeOutcome::Ok;
  }
  uint32_t raw32 = binary32_div(amax, int_to_binary32(qmax));
  Exact r = binary32_exact(raw32);
  uint32_t s16 = round_exact(false, r.m, r.q, false, kBinary16);
  if (s16 == 0) s16 = 0x0001;  // 2^-24 underflow rescue
  if (s16 >= 0x7c00) return EncodeOutcome::ScaleOverflow;
  *scale16 = s16;
  uint32_t inv32 = binary32_div(0x3f800000u, f16_to_binary32(s16));
  for (size_t i = 0; i < n; ++i) {
    int64_t q = round_integral_rne(binary32_mul(x[i], inv32));
    codes[i] = int32_t(q < qmin ? qmin : q > qmax ? qmax : q);
  }
  return EncodeOutcome::Ok;
}

}  // namespace nc::fastref
