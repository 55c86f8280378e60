// The kernels' own per-group encoder and per-element reconstruction (the NC_HD functions of
// kernels/encode_group.cuh and kernels/reconstruct.cuh), run on the CPU. Expected words are hand
// derivations from the spec: the encoder cases are shared/spec/examples.md's. This checks the
// kernels' logic without a GPU; the device's arithmetic itself is checked by `kernels.gpu`.
// A plain main (nvcc-compiled host code): prints each failure, exits 1 if any.
#include <cstdio>
#include <vector>

#include "kernels/encode_group.cuh"
#include "kernels/reconstruct.cuh"

using namespace nc::kernels;

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

const CodeRange kQ4{-8, 7, 64}, kQ5{-16, 15, 64}, kQ6{-32, 31, 64}, kW8{-127, 127, 32};

void encode_case(const char* name, CodeRange cr, nc_source_type st, std::vector<uint64_t> src, uint32_t want_flags,
                 uint32_t want_scale, std::vector<int32_t> want_codes) {
  std::vector<int32_t> codes(src.size(), 0x5a5a5a5a);
  uint32_t scale = 0xdead;
  const uint32_t flags = encode_group(cr, st, src.data(), src.size(), codes.data(), &scale);
  bool ok = flags == want_flags;
  if (ok && flags == 0) ok = scale == want_scale && codes == want_codes;
  if (!ok) {
    std::printf("  %s: flags %u scale %04x codes", name, flags, scale);
    for (int32_t c : codes) std::printf(" %d", c);
    std::printf("\n");
  }
  check(ok, name);
}

}  // namespace

int main() {
  // shared/spec/examples.md
  encode_case("q4 plain group", kQ4, NC_SRC_FP32, {0x3f800000, 0xbf000000, 0x3e800000}, 0, 0x3092, {7, -4, 2});
  encode_case("q4 mixed group", kQ4, NC_SRC_FP32, {0x40400000, 0xbfc00000, 0x3f400000, 0xbe4ccccd}, 0, 0x36db,
              {7, -4, 2, 0});
  encode_case("w8 symmetric extremes", kW8, NC_SRC_FP32, {0x3f800000, 0xbf800000, 0x3f000000}, 0, 0x2008,
              {127, -127, 64});
  encode_case("q6 all zero with -0", kQ6, NC_SRC_FP32, {0x00000000, 0x80000000}, 0, 0x0000, {0, 0});
  encode_case("q5 subnormal rescue", kQ5, NC_SRC_FP32, {0x00000005, 0x80000002}, 0, 0x0001, {0, 0});
  encode_case("w8 scale overflow", kW8, NC_SRC_FP32, {0x4afe213e}, kEncodeFlagScaleOverflow, 0, {});
  encode_case("q4 NaN source", kQ4, NC_SRC_FP32, {0x7fc00000, 0x3f800000}, kEncodeFlagNonfinite, 0, {});
  // Reciprocal-multiply, not division (spec 7): scale16 = 1811 * 2^-13 (0x3313), inv32 = 0x4090c03f;
  // x * inv32 = 3.49999988.. rounds to binary32 just below 3.5 -> code 3, while x / scale32 is
  // exactly 3.5 -> ties to even -> 4. Found by an exact-rational search of spec 7's steps.
  encode_case("q4 recip-multiply not divide", kQ4, NC_SRC_FP32, {0x3fc60f92, 0x3f461400}, 0, 0x3313, {7, 3});
  // Spec 7's integral-rounding examples: W8 with amax 127 -> scale 1.0, inv 1, so the codes are
  // rint(x): +-0.5 -> 0, +-1.5 -> +-2, +-2.5 -> +-2.
  encode_case("w8 ties to even", kW8, NC_SRC_FP32,
              {0x42fe0000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000}, 0, 0x3c00,
              {127, 0, 0, 2, -2, 2, -2});
  // Other source types convert to binary32 first: BF16 1.0 / -0.5 / 0.25, F16 the same, F64 the same.
  encode_case("q4 BF16 source", kQ4, NC_SRC_BF16, {0x3f80, 0xbf00, 0x3e80}, 0, 0x3092, {7, -4, 2});
  encode_case("q4 F16 source", kQ4, NC_SRC_F16, {0x3c00, 0xb800, 0x3400}, 0, 0x3092, {7, -4, 2});
  encode_case("q4 F64 source", kQ4, NC_SRC_F64, {0x3ff0000000000000ull, 0xbfe0000000000000ull, 0x3fd0000000000000ull},
              0, 0x3092, {7, -4, 2});
  encode_case("q4 F64 beyond binary32 range", kQ4, NC_SRC_F64, {0x47f0000000000000ull}, kEncodeFlagNonfinite, 0, {});
  encode_case("q4 F16 infinity", kQ4, NC_SRC_F16, {0x7c00}, kEncodeFlagNonfinite, 0, {});

  // Reconstruction (spec 6.2, 3.3, 3.4).
  check(reconstruct_bits(NC_FORMAT_Q4G64_F16S, 0x8, 0x3c00, 0) == 0xc1000000u, "q4 -8 * 1.0");
  check(reconstruct_bits(NC_FORMAT_W8G32_F16S, 0x81, 0x0001, 0) == 0xb6fe0000u, "w8 -127 * 2^-24");
  check(reconstruct_bits(NC_FORMAT_Q6G64_F16S, 0x20, 0x3800, 0) == 0xc1800000u, "q6 -32 * 0.5");
  check(reconstruct_bits(NC_FORMAT_NVFP4, 0x2, 0x38, 0x40400000) == 0x3eaaaaabu, "nvfp4 1/3 RNE");
  check(reconstruct_bits(NC_FORMAT_NVFP4, 0x1, 0x01, 0x7b800000) == 0x00080000u, "nvfp4 subnormal quotient");
  check(reconstruct_bits(NC_FORMAT_NVFP4, 0xf, 0x7e, 0x3f800000) == 0xc5280000u, "nvfp4 -6 * 448");
  check(reconstruct_bits(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0x38, 0x0001, 0) == 0x00010000u, "fp8 subnormal product");
  check(reconstruct_bits(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0xfe, 0x4000, 0) == 0xc4600000u, "fp8 -448 * 2");
  check(reconstruct_bits(NC_FORMAT_BF16, 0x7fc1, 0, 0) == 0x7fc10000u, "bf16 direct NaN payload");
  // Which elements reconstruct refuses: W8's code without a value and words wider than their type.
  check(!reconstructible(NC_FORMAT_W8G32_F16S, 0x80, 0x3c00), "w8 0x80 has no value");
  check(reconstructible(NC_FORMAT_W8G32_F16S, 0x81, 0x3c00), "w8 0x81 is -127");
  check(reconstructible(NC_FORMAT_Q4G64_F16S, 0x8, 0x3c00), "q4 0x8 is -8");
  check(!reconstructible(NC_FORMAT_Q4G64_F16S, 0x10, 0x3c00), "q4 code wider than 4 bits");
  check(!reconstructible(NC_FORMAT_Q6G64_F16S, 0x20, 0x10000), "grouped scale wider than 16 bits");
  check(reconstructible(NC_FORMAT_NVFP4, 0xf, 0xff), "nvfp4 widest words");
  check(!reconstructible(NC_FORMAT_NVFP4, 0x10, 0x38), "nvfp4 code wider than 4 bits");
  check(!reconstructible(NC_FORMAT_NVFP4, 0x2, 0x100), "nvfp4 scale wider than 8 bits");
  check(reconstructible(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0xff, 0xffff), "fp8 row: every 8-bit code has a value");
  check(!reconstructible(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0x100, 0x3f80), "fp8 code wider than 8 bits");
  // Spec 6.1 / 3.4: a nonzero code under a +0 scale is an invalid pair (FORMAT.md "Invalid pairs").
  check(!reconstructible(NC_FORMAT_Q4G64_F16S, 0x1, 0x0000), "q4 code 1 under a +0 scale");
  check(!reconstructible(NC_FORMAT_Q5G64_F16S, 0x10, 0x0000), "q5 code -16 under a +0 scale");
  check(!reconstructible(NC_FORMAT_W8G32_F16S, 0x81, 0x0000), "w8 code -127 under a +0 scale");
  check(reconstructible(NC_FORMAT_Q6G64_F16S, 0x0, 0x0000), "q6 code 0 under a +0 scale");
  check(!reconstructible(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0x01, 0x0000), "fp8 code 0x01 under a +0 row scale");
  check(reconstructible(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0x80, 0x0000), "fp8 -0 under a +0 row scale");
  check(reconstructible(NC_FORMAT_NVFP4, 0x7, 0x00), "nvfp4 has no zero-scale rule");

  std::printf(failures ? "%d FAILED\n" : "all host-run kernel logic cases passed\n", failures);
  return failures ? 1 : 0;
}
