// The exact GEMV criterion (kernels/gemv_reference.h) on dot products worked out by hand.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "kernels/gemv_reference.h"

using nc::kernels::check_dot;

TEST_CASE("kernels: exact and one-ulp results pass, two ulps on a short dot fail") {
  const std::vector<uint32_t> w{0x3f800000, 0x40000000}, x{0x40400000, 0x40800000};  // 1*3 + 2*4
  CHECK(check_dot(w, x, 0, 0x41300000).ok);                                          // 11
  CHECK(check_dot(w, x, 0, 0x41300001).ok);       // 11 + 2^-20 <= gamma_2 * 11 ~ 1.31e-6
  const auto v = check_dot(w, x, 0, 0x41300002);  // 11 + 2^-19 ~ 1.9e-6 > bound
  CHECK_FALSE(v.ok);
  CHECK(v.detail.find("exceeds bound") != std::string::npos);
}

TEST_CASE("kernels: cancellation: the bound scales with sum |w x|, not |y|") {
  // 2^24 + 1 - 2^24: exact 1, a left-to-right binary32 sum gives 0; S = 2^25 + 1, bound ~ 6.
  const std::vector<uint32_t> w{0x3f800000, 0x3f800000, 0xbf800000}, x{0x4b800000, 0x3f800000, 0x4b800000};
  CHECK(check_dot(w, x, 0, 0x00000000).ok);
  CHECK(check_dot(w, x, 0, 0x40a00000).ok);        // 5: error 4 <= 6
  CHECK_FALSE(check_dot(w, x, 0, 0x41000000).ok);  // 8: error 7 > 6
}

TEST_CASE("kernels: NVFP4 divisor: the exact weight is rational, one more rounding is allowed") {
  const std::vector<uint32_t> cs{0x3f800000}, x{0x3f800000};
  const uint32_t three = 0x40400000;
  CHECK(check_dot(cs, x, three, 0x3eaaaaab).ok);        // round(1/3), error 2^-25/3
  CHECK_FALSE(check_dot(cs, x, three, 0x3eaaaaad).ok);  // ~2.7 ulp > gamma_2 / 3
  CHECK_FALSE(check_dot(cs, x, 0, 0x3eaaaaab).ok);      // without the divisor it is 1, not 1/3
}

TEST_CASE("kernels: a long serial binary32 dot passes; a non-finite output fails") {
  std::vector<uint32_t> w, x;
  float acc = 0.0f;
  uint32_t state = 12345;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1664525u + 1013904223u;
    const float a = static_cast<float>(static_cast<int>(state >> 8) - (1 << 23)) / 8388608.0f;
    const float b = static_cast<float>(static_cast<int>(state & 0xffff) - 32768) / 1024.0f;
    uint32_t ab, bb;
    std::memcpy(&ab, &a, 4);
    std::memcpy(&bb, &b, 4);
    w.push_back(ab);
    x.push_back(bb);
    acc += a * b;  // the implementation under test: one serial order
  }
  uint32_t y;
  std::memcpy(&y, &acc, 4);
  CHECK(check_dot(w, x, 0, y).ok);
  CHECK_FALSE(check_dot(w, x, 0, 0x7f800000).ok);
}
