#include "targets/mutants/words.h"

#include <cmath>

namespace nc::mutants {

uint32_t round_to_format(double x, const MiniFormat& f, Tie tie, bool* overflow) {
  *overflow = false;
  const uint32_t sign = std::signbit(x) ? 1u << (f.ebits + f.mbits) : 0u;
  const double a = std::fabs(x);
  if (a == 0) return sign;
  // a = M * 2^E with M a 53-bit integer; the result's quantum is 2^qe.
  int e;
  const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const uint64_t M = uint64_t(std::ldexp(m, 53));
  const int E = e - 53;
  const int emin = 1 - f.bias;
  int qe = (e - 1 > emin ? e - 1 : emin) - f.mbits;
  const int shift = qe - E;  // > 0: the format has fewer than 52 fraction bits
  uint64_t n = 0;
  if (shift < 64) {
    n = M >> shift;
    const uint64_t rem = M & ((uint64_t(1) << shift) - 1);
    const uint64_t half = uint64_t(1) << (shift - 1);
    if (rem > half || (rem == half && (tie == Tie::AwayFromZero || (n & 1)))) ++n;
  }
  const uint64_t hidden = uint64_t(1) << f.mbits;
  if (n == 2 * hidden) {
    n = hidden;
    ++qe;
  }
  uint32_t exp_field = 0, mant = uint32_t(n);
  if (n >= hidden) {
    exp_field = uint32_t(qe + f.mbits + f.bias);
    mant = uint32_t(n - hidden);
  }
  if (exp_field > f.max_exp_field || (exp_field == f.max_exp_field && mant > f.max_mant_at_top)) *overflow = true;
  return sign | (exp_field << f.mbits) | mant;
}

double f16_value(uint16_t h) {
  const double s = (h & 0x8000u) ? -1.0 : 1.0;
  const int e = (h >> 10) & 0x1f;
  const int m = h & 0x3ff;
  if (e == 0x1f) return m ? std::nan("") : s * INFINITY;
  if (e == 0) return s * std::ldexp(double(m), -24);
  return s * std::ldexp(double(1024 + m), e - 25);
}

uint16_t f32_to_f16_rne(float x) {
  if (std::isnan(x)) return uint16_t((std::signbit(x) ? 0x8000u : 0u) | 0x7e00u);
  bool overflow = false;
  uint32_t w = round_to_format(x, kBinary16, Tie::ToEven, &overflow);
  if (std::isinf(x) || overflow) w = (std::signbit(x) ? 0x8000u : 0u) | 0x7c00u;
  return uint16_t(w);
}

float e4m3fn_value(uint32_t w) {
  const float s = (w & 0x80u) ? -1.0f : 1.0f;
  const int e = (w >> 3) & 0xf;
  const int m = w & 7;
  if (e == 15 && m == 7) return std::copysign(NAN, s);
  if (e == 0) return s * std::ldexp(float(m), -9);
  return s * std::ldexp(float(8 + m), e - 10);
}

float e2m1_value(uint32_t w) {
  static constexpr float kMagnitude[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  const float v = kMagnitude[w & 7];
  return (w & 8u) ? -v : v;
}

}  // namespace nc::mutants
