#include "oracle/fastref/minifloat_round.h"

namespace nc::fastref {

namespace {
int bit_length(uint64_t m) { return m ? 64 - __builtin_clzll(m) : 0; }
}  // namespace

uint32_t round_exact(bool negative, uint64_t m, int q, bool sticky, const MinifloatSpec& dst) {
  const uint32_t sign = negative ? 1u << (dst.exp_bits + dst.man_bits) : 0u;
  if (m == 0 && !sticky) return sign;
  // Quantum of the destination at this magnitude: 2^(max(floor(log2 v), emin) - man_bits).
  int top = bit_length(m) - 1 + q;  // floor(log2 v) (sticky bits lie below m's last bit)
  int exponent = top < dst.emin ? dst.emin : top;
  int quantum = exponent - dst.man_bits;
  int shift = quantum - q;  // bits of m below the quantum
  uint64_t k;
  if (shift <= 0) {
    k = m << -shift;  // exact: sticky is then necessarily false for our callers' ranges
  } else {
    uint64_t kept = shift >= 64 ? 0 : m >> shift;
    bool half, below;
    if (shift > 64) {
      half = false;
      below = true;
    } else {
      uint64_t rest = shift == 64 ? m : m & ((uint64_t(1) << shift) - 1);
      uint64_t halfway = uint64_t(1) << (shift - 1);
      half = rest >= halfway;
      below = (rest & (halfway - 1)) != 0 || sticky;
    }
    // Round to nearest; on an exact tie keep the even quotient.
    k = kept + (half && (below || (kept & 1)) ? 1 : 0);
  }
  if (k >> (dst.man_bits + 1)) {  // rounding carried into a new binade
    k >>= 1;
    ++quantum;
  }
  uint32_t magnitude;
  bool too_big;
  if (k >> dst.man_bits) {
    int biased = quantum + dst.man_bits - dst.emin + 1;
    too_big = biased >= (1 << dst.exp_bits);
    magnitude = too_big ? 0 : (uint32_t(biased) << dst.man_bits) | uint32_t(k & ((1u << dst.man_bits) - 1));
  } else {
    too_big = false;
    magnitude = uint32_t(k);  // subnormal, or zero after rounding
  }
  // E4M3FN's top binade holds finite values, so "beyond the largest finite" is a magnitude test.
  if (too_big || magnitude > dst.max_finite) {
    switch (dst.overflow) {
      case Overflow::ToInfinity: magnitude = dst.inf_bits; break;
      case Overflow::Saturate: magnitude = dst.max_finite; break;
      case Overflow::ToNaN: magnitude = dst.nan_bits; break;
    }
  }
  return sign | magnitude;
}

}  // namespace nc::fastref
