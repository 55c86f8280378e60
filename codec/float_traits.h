// One traits description per minifloat, driving one generic exact decode (word -> binary32 bits)
// and one generic round-to-nearest-even encode (binary32 bits -> word). rne_shift() is the single
// rounding choke point: every narrowing in codec/ (recipes, the binary16 scale of the canonical
// encoder, its integral rounding) goes through it.
//
// Cards (ml_dtypes style):
//   BF16    Exponent: 8, Mantissa: 7,  bias 127. IEEE inf/NaN (exponent 255).
//   F16     Exponent: 5, Mantissa: 10, bias 15.  IEEE inf/NaN (exponent 31). binary16.
//   E4M3FN  Exponent: 4, Mantissa: 3,  bias 7.   No inf; only S.1111.111 is NaN (max 448).
//   E2M1    Exponent: 2, Mantissa: 1,  bias 1.   No inf, no NaN (max 6).
//   FP32    Exponent: 8, Mantissa: 23, bias 127. IEEE binary32 (decode is the identity).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace nc::codec {

// What the all-ones exponent field means.
enum class Specials : uint8_t {
  IeeeInfNan,  // mantissa 0: infinity; otherwise NaN with payload
  FnNanOnly,   // finite except the one all-ones word S.1..1.1..1, which is NaN
  None,        // every word is finite
};

// What a finite value beyond the largest finite word (after rounding) and an infinity become.
enum class Overflow : uint8_t { ToInf, Saturate, ToNaN };

enum class ValueClass : uint8_t { Zero, Subnormal, Normal, Inf, NaN };

template <int ExpBits, int MantBits, int Bias, Specials Sp>
struct FloatTraits {
  static constexpr int kExpBits = ExpBits;
  static constexpr int kMantBits = MantBits;
  static constexpr int kBias = Bias;
  static constexpr Specials kSpecials = Sp;
  static constexpr int kBits = 1 + ExpBits + MantBits;
  static constexpr uint32_t kSignBit = 1u << (ExpBits + MantBits);
  static constexpr uint32_t kMantMask = (1u << MantBits) - 1;
  static constexpr uint32_t kExpMax = (1u << ExpBits) - 1;
  static constexpr uint32_t kWordMask = (kSignBit << 1) - 1;
  static constexpr uint32_t kInf = kExpMax << MantBits;                // IeeeInfNan only
  static constexpr uint32_t kNaN = (kExpMax << MantBits) | kMantMask;  // FnNanOnly: the NaN word
  static constexpr uint32_t kQuietBit = MantBits > 0 ? 1u << (MantBits - 1) : 0;
  static constexpr uint32_t kMaxFinite = Sp == Specials::IeeeInfNan  ? kInf - 1
                                         : Sp == Specials::FnNanOnly ? kNaN - 1
                                                                     : kNaN;
};

using Bf16Traits = FloatTraits<8, 7, 127, Specials::IeeeInfNan>;
using F16Traits = FloatTraits<5, 10, 15, Specials::IeeeInfNan>;
using E4M3FNTraits = FloatTraits<4, 3, 7, Specials::FnNanOnly>;
using E2M1Traits = FloatTraits<2, 1, 1, Specials::None>;
using Fp32Traits = FloatTraits<8, 23, 127, Specials::IeeeInfNan>;

// The rounding choke point: x / 2^sh rounded to nearest, ties to even, for 1 <= sh <= 31 and
// x + 2^(sh-1) < 2^32. Adding half-minus-one plus the kept lsb carries exactly when the dropped
// bits are above half, or equal to half with an odd kept part. Plain integer arithmetic with no
// branches or bool lanes, so batch loops vectorize.
constexpr uint32_t rne_shift(uint32_t x, unsigned sh) { return (x + ((1u << (sh - 1)) - 1u) + ((x >> sh) & 1u)) >> sh; }

template <class T>
constexpr ValueClass classify(uint32_t word) {
  const uint32_t e = (word >> T::kMantBits) & T::kExpMax;
  const uint32_t m = word & T::kMantMask;
  if constexpr (T::kSpecials == Specials::IeeeInfNan) {
    if (e == T::kExpMax) return m ? ValueClass::NaN : ValueClass::Inf;
  } else if constexpr (T::kSpecials == Specials::FnNanOnly) {
    if ((word & ~T::kSignBit) == T::kNaN) return ValueClass::NaN;
  }
  if (e == 0) return m ? ValueClass::Subnormal : ValueClass::Zero;
  return ValueClass::Normal;
}

// Exact expansion of a word to binary32 bits. IEEE NaNs keep sign and payload (appended zeros);
// the FN NaN becomes the quiet NaN 0x7fc00000 with the word's sign (it has no payload).
template <class T>
constexpr uint32_t decode_to_f32(uint32_t word) {
  const uint32_t s32 = ((word >> (T::kBits - 1)) & 1u) << 31;
  const uint32_t e = (word >> T::kMantBits) & T::kExpMax;
  const uint32_t m = word & T::kMantMask;
  constexpr int kUp = 23 - T::kMantBits;
  if constexpr (T::kSpecials == Specials::IeeeInfNan) {
    if (e == T::kExpMax) return s32 | 0x7f800000u | (m << kUp);
  } else if constexpr (T::kSpecials == Specials::FnNanOnly) {
    if (e == T::kExpMax && m == T::kMantMask) return s32 | 0x7fc00000u;
  }
  if (e == 0) {
    if (m == 0) return s32;
    if constexpr (T::kBias == 127) {
      return s32 | (m << kUp);  // same exponent range: a binary32 subnormal
    } else {
      // m * 2^(1-bias-mant): normalize around the leading one at bit p.
      const int p = 31 - std::countl_zero(m);
      const uint32_t exp32 = uint32_t(p + 1 - T::kBias - T::kMantBits + 127);
      return s32 | (exp32 << 23) | ((m ^ (1u << p)) << (23 - p));
    }
  }
  return s32 | (uint32_t(int(e) - T::kBias + 127) << 23) | (m << kUp);
}

// binary32 bits -> word of T, round to nearest even with gradual underflow, signed zeros kept.
// NaN: IEEE targets keep the sign and the top payload bits and set the quiet bit; FN targets give
// the NaN word with the sign; targets without NaN give the largest magnitude with the sign.
// Overflow (and infinity) follows OV. The rounding itself assumes an unbounded exponent, so a
// value overflows only when it rounds beyond the largest finite word.
template <class T, Overflow OV>
constexpr uint32_t encode_rne(uint32_t f32) {
  static_assert(T::kMantBits < 23, "narrowing only");
  static_assert(OV != Overflow::ToInf || T::kSpecials == Specials::IeeeInfNan, "no infinity");
  static_assert(OV != Overflow::ToNaN || T::kSpecials != Specials::None, "no NaN");
  constexpr uint32_t kOverflowWord = OV == Overflow::ToInf ? T::kInf : OV == Overflow::ToNaN ? T::kNaN : T::kMaxFinite;
  constexpr uint32_t kNaNMask = T::kSpecials == Specials::IeeeInfNan ? T::kMantMask : 0u;
  constexpr uint32_t kNaNBase = T::kSpecials == Specials::IeeeInfNan  ? T::kInf | T::kQuietBit
                                : T::kSpecials == Specials::FnNanOnly ? T::kNaN
                                                                      : T::kMaxFinite;
  // Branch-free (selects only), so batch loops vectorize.
  const uint32_t sign = (f32 & 0x80000000u) >> (32 - T::kBits);
  const uint32_t abs = f32 & 0x7fffffffu;
  const uint32_t e32 = abs >> 23;
  // Normal in T (before rounding): round the binary32 bits in place (the carry may step the
  // exponent), then rebias. Infinity lands above kMaxFinite and takes the overflow word.
  const uint32_t normal = rne_shift(abs, 23 - T::kMantBits) - (uint32_t(127 - T::kBias) << T::kMantBits);
  // Subnormal in T: count units of 2^(1-bias-mant); sh >= 24 - mant >= 1 on this path, and from
  // 26 on every significand is below half a unit. When the value is normal in T this branch is
  // computed and discarded: the clamp to [1, 26] absorbs the wrap-around and the 0 it reaches
  // there, which rne_shift must never see (a shift by -1 is undefined; tests/codec/rne_shift_edge_test.cc).
  const uint32_t sig = (abs & 0x7fffffu) | (e32 ? 0x800000u : 0u);
  const uint32_t sh = std::max(std::min(uint32_t(151 - T::kBias - T::kMantBits) - std::max(e32, 1u), 26u), 1u);
  const uint32_t sub = rne_shift(sig, sh);
  uint32_t r = e32 > uint32_t(127 - T::kBias) ? normal : sub;
  r = r > T::kMaxFinite ? kOverflowWord : r;
  r = abs > 0x7f800000u ? kNaNBase | ((abs >> (23 - T::kMantBits)) & kNaNMask) : r;
  return sign | r;
}

}  // namespace nc::codec
