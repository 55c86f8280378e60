// The GEMV acceptance criterion, decided exactly (GMP rationals; no native float in the expected
// value). For one output y[n] of y = W x with finite binary32 weights w_k and activations x_k:
//
//   |y - sum_k w_k x_k|  <=  gamma_m * sum_k |w_k x_k|  +  K * 2^-149        (plain weights)
//
// where gamma_m = m u / (1 - m u), u = 2^-24 and m = K. That is Higham's bound for a length-K dot
// product in binary32 under ANY summation order, with or without FMA (each term takes at most one
// product rounding and K-1 addition roundings); the second term covers product underflow into the
// subnormal range (at most half an ulp, 2^-150, per product, doubled to absorb the (1+gamma)
// factor). For NVFP4 the exact weight c*s/d_w is not a binary32 number: the kernel rounds it once
// (w_hat = binary32(c*s / d_w)), so m = K + 1, the sums use the exact rational weights
// (c*s)/d_w, and the underflow term gains 2^-149 * sum_k |x_k|. y must be finite.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace nc::kernels {

struct GemvVerdict {
  bool ok;
  std::string detail;  // why it failed (exact error and bound as hex-free decimal ratios), or ""
};

// w: K binary32 weight words (for NVFP4: the exact products c*s as binary32 words, which are
// exact since |c*s| <= 6 * 448 with few significant bits); x: K binary32 activation words;
// divisor_bits: NVFP4's d_w, or 0 for "no divisor". y_bits: the kernel's output.
GemvVerdict check_dot(std::span<const uint32_t> w, std::span<const uint32_t> x, uint32_t divisor_bits, uint32_t y_bits);

}  // namespace nc::kernels
