// Bit-parity cases through the plugin ABI. Every expected word is derived by hand from the spec
// (encoder cases: /work/shared/spec/examples.md, themselves exact-arithmetic derivations).
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "tests/kernels/gpu_test.h"

namespace nc::kernels::gputest {
namespace {

using Words = std::vector<uint32_t>;

struct Case {
  const char* name;
  std::function<bool(const nc_plugin_v1&)> run;
};

bool same(const char* what, const Words& got, const Words& want) {
  if (got == want) return true;
  for (size_t i = 0; i < want.size(); ++i)
    if (i >= got.size() || got[i] != want[i]) {
      std::printf("  %s[%zu]: got %08x want %08x\n", what, i, i < got.size() ? got[i] : 0u, want[i]);
      break;
    }
  return false;
}

bool encode_case(const nc_plugin_v1& p, nc_format f, size_t rows, size_t k, const std::vector<uint64_t>& src,
                 int32_t want_outcome, const Words& want_scales, const std::vector<int32_t>& want_codes) {
  const size_t g = f == NC_FORMAT_W8G32_F16S ? 32 : 64;
  Words scales(rows * ((k + g - 1) / g));
  std::vector<int32_t> codes(rows * k);
  int32_t outcome = -1;
  if (p.encode(f, NC_SRC_FP32, src.data(), rows, k, scales.data(), codes.data(), nullptr, &outcome) != NC_OK)
    return false;
  if (outcome != want_outcome) {
    std::printf("  outcome %d want %d\n", outcome, want_outcome);
    return false;
  }
  if (outcome != NC_ENCODE_OK) return true;
  return same("scales", scales, want_scales) &
         same("codes", Words(codes.begin(), codes.end()), Words(want_codes.begin(), want_codes.end()));
}

bool reconstruct_case(const nc_plugin_v1& p, nc_format f, uint32_t code, uint32_t scale, const uint32_t* divisor,
                      uint32_t want) {
  uint32_t out = 0;
  if (p.reconstruct(f, &code, &scale, divisor, 1, &out) != NC_OK) return false;
  return same("out", {out}, {want});
}

bool convert_case(const nc_plugin_v1& p, nc_recipe r, const Words& src, const Words& want) {
  Words out(src.size());
  if (p.convert(r, src.data(), src.size(), out.data()) != NC_OK) return false;
  return same("out", out, want);
}

const uint32_t kThree = 0x40400000, kTwo = 0x40000000, kTwoPow120 = 0x7b800000;

std::vector<Case> cases() {
  return {
      {"encode.q4_plain_group",
       [](auto& p) {
         return encode_case(p, NC_FORMAT_Q4G64_F16S, 1, 3, {0x3f800000, 0xbf000000, 0x3e800000}, NC_ENCODE_OK, {0x3092},
                            {7, -4, 2});
       }},
      {"encode.q4_mixed_group",
       [](auto& p) {
         return encode_case(p, NC_FORMAT_Q4G64_F16S, 1, 4, {0x40400000, 0xbfc00000, 0x3f400000, 0xbe4ccccd},
                            NC_ENCODE_OK, {0x36db}, {7, -4, 2, 0});
       }},
      {"encode.w8_symmetric_extremes",
       [](auto& p) {
         return encode_case(p, NC_FORMAT_W8G32_F16S, 1, 3, {0x3f800000, 0xbf800000, 0x3f000000}, NC_ENCODE_OK, {0x2008},
                            {127, -127, 64});
       }},
      {"encode.q6_all_zero_negative_zero",
       [](auto& p) {
         return encode_case(p, NC_FORMAT_Q6G64_F16S, 1, 2, {0x00000000, 0x80000000}, NC_ENCODE_OK, {0x0000}, {0, 0});
       }},
      {"encode.q5_subnormal_rescue",
       [](auto& p) {
         return encode_case(p, NC_FORMAT_Q5G64_F16S, 1, 2, {0x00000005, 0x80000002}, NC_ENCODE_OK, {0x0001}, {0, 0});
       }},
      {"encode.q4_recip_multiply_not_divide",
       [](auto& p) {
         // x * round_f32(1/s) -> just below 3.5 -> 3; x / s would be exactly 3.5 -> 4.
         return encode_case(p, NC_FORMAT_Q4G64_F16S, 1, 2, {0x3fc60f92, 0x3f461400}, NC_ENCODE_OK, {0x3313}, {7, 3});
       }},
      {"encode.w8_scale_overflow",
       [](auto& p) {
         return encode_case(p, NC_FORMAT_W8G32_F16S, 1, 1, {0x4afe213e}, NC_ENCODE_FAIL_SCALE_OVERFLOW, {}, {});
       }},
      {"encode.q4_nan_source",
       [](auto& p) {
         return encode_case(p, NC_FORMAT_Q4G64_F16S, 1, 2, {0x7fc00000, 0x3f800000}, NC_ENCODE_FAIL_NONFINITE, {}, {});
       }},
      {"encode.q4_partial_group_two_rows",
       [](auto& p) {
         // Row 0: 65 ones -> groups of 64 and 1, both amax 1 (examples.md plain group: 0x3092,
         // code 7). Row 1: zeros -> scale +0, codes 0.
         std::vector<uint64_t> src(130, 0);
         for (int i = 0; i < 65; ++i) src[i] = 0x3f800000;
         std::vector<int32_t> codes(130, 0);
         for (int i = 0; i < 65; ++i) codes[i] = 7;
         return encode_case(p, NC_FORMAT_Q4G64_F16S, 2, 65, src, NC_ENCODE_OK, {0x3092, 0x3092, 0, 0}, codes);
       }},
      {"reconstruct.q4_min_code",
       [](auto& p) {
         return reconstruct_case(p, NC_FORMAT_Q4G64_F16S, 0x8, 0x3c00, nullptr, 0xc1000000);  // -8 * 1
       }},
      {"reconstruct.w8_min_scale",
       [](auto& p) {
         return reconstruct_case(p, NC_FORMAT_W8G32_F16S, 0x81, 0x0001, nullptr, 0xb6fe0000);  // -127 * 2^-24
       }},
      {"reconstruct.nvfp4_one_third",
       [](auto& p) {
         return reconstruct_case(p, NC_FORMAT_NVFP4, 0x2, 0x38, &kThree, 0x3eaaaaab);  // RNE(1/3)
       }},
      {"reconstruct.nvfp4_subnormal_quotient",
       [](auto& p) {
         // 0.5 * 2^-9 / 2^120 = 2^-130, a binary32 subnormal (0x00080000); FTZ gives 0.
         return reconstruct_case(p, NC_FORMAT_NVFP4, 0x1, 0x01, &kTwoPow120, 0x00080000);
       }},
      {"reconstruct.fp8_subnormal_product",
       [](auto& p) {
         // 1.0 * BF16 2^-133 = binary32 subnormal 0x00010000; FTZ gives 0.
         return reconstruct_case(p, NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0x38, 0x0001, nullptr, 0x00010000);
       }},
      {"reconstruct.fp8_max",
       [](auto& p) {
         return reconstruct_case(p, NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0xfe, 0x4000, nullptr, 0xc4600000);  // -896
       }},
      {"reconstruct.w8_code_without_value_refused",
       [](auto& p) {
         // W8 0x80 (-128) has no value (spec 5): the ABI refuses the whole call; its neighbours pass.
         const Words code{0x81, 0x80}, scale{0x3c00, 0x3c00};
         Words out(2);
         return p.reconstruct(NC_FORMAT_W8G32_F16S, code.data(), scale.data(), nullptr, 2, out.data()) == NC_EINVALID &&
                reconstruct_case(p, NC_FORMAT_W8G32_F16S, 0x7f, 0x3c00, nullptr, 0x42fe0000);  // 127 * 1
       }},
      {"reconstruct.zero_scale_pair_refused",
       [](auto& p) {
         // Spec 6.1: a nonzero code under a +0 scale has no value, refused like W8 0x80; code 0 is +0.
         const Words code{0x0, 0x1}, scale{0x0000, 0x0000};
         Words out(2);
         return p.reconstruct(NC_FORMAT_Q4G64_F16S, code.data(), scale.data(), nullptr, 2, out.data()) == NC_EINVALID &&
                reconstruct_case(p, NC_FORMAT_Q4G64_F16S, 0x0, 0x0000, nullptr, 0x00000000);
       }},
      {"decode.mixed_word_types",
       [](auto& p) {
         const Words w{0x7e, 0x7f, 0x01};
         Words out(3);
         std::vector<uint8_t> valid(3);
         if (p.decode(NC_WT_E4M3FN, w.data(), 3, out.data(), valid.data()) != NC_OK) return false;
         const bool ok1 = same("e4m3", out, {0x43e00000, 0x7fc00000, 0x3b000000});
         const Words c{0x80, 0x81};
         Words o2(2);
         std::vector<uint8_t> v2(2);
         if (p.decode(NC_WT_W8_CODE, c.data(), 2, o2.data(), v2.data()) != NC_OK) return false;
         return ok1 && v2[0] == 0 && v2[1] == 1 && o2[1] == 0xffffff81u;
       }},
      {"convert.e4m3fn_satfinite_hw",
       [](auto& p) {
         // 448 -> 7e; inf and 464 saturate to 7e; 2^-10 ties to 0; 1.5*2^-9 ties to 2*2^-9; +-1.
         return convert_case(p, NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE,
                             {0x43e00000, 0x7f800000, 0x43e80000, 0x3a800000, 0x3b400000, 0x3f800000, 0xbf800000},
                             {0x7e, 0x7e, 0x7e, 0x00, 0x02, 0x38, 0xb8});
       }},
      {"convert.e4m3fn_satfinite_nan_keeps_sign",
       [](auto& p) {
         // docs/recipes.md: a NaN of either kind gives the NaN word with its sign. The hardware
         // instruction alone answers 0x7f for the negative ones.
         return convert_case(p, NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE,
                             {0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0xffffffff},
                             {0x7f, 0xff, 0x7f, 0xff, 0xff});
       }},
      {"convert.bf16_f16_ties",
       [](auto& p) {
         return convert_case(p, NC_RECIPE_F32_TO_BF16_RNE, {0x3f808000, 0x3f818000}, {0x3f80, 0x3f82}) &&
                convert_case(p, NC_RECIPE_F32_TO_F16_RNE, {0x3f800000, 0x477ff000, 0x33000000},
                             {0x3c00, 0x7c00, 0x0000});  // 65520 ties up to inf; 2^-25 ties to 0
       }},
      {"convert.e2m1_unsupported_on_sm90",
       [](auto& p) {
         uint32_t w = 0, out = 0;
         return p.convert(NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE, &w, 1, &out) == NC_EUNSUPPORTED;
       }},
      {"dequantize.q4_partial_group",
       [](auto& p) {
         Words codes(65, 0x1), out(65);
         codes[64] = 0x8;
         const Words scales{0x3c00, 0x4000};  // 1.0, 2.0
         const uint64_t shape[2] = {1, 65};
         if (p.dequantize(NC_FORMAT_Q4G64_F16S, 2, shape, codes.data(), 65, scales.data(), 2, nullptr, out.data()) !=
             NC_OK)
           return false;
         Words want(65, 0x3f800000);
         want[64] = 0xc1800000;  // -8 * 2
         return same("out", out, want);
       }},
      {"dequantize.bf16_direct",
       [](auto& p) {
         // A direct format: each word's own binary32 expansion (1.0, -0, a NaN with its payload).
         const Words codes{0x3f80, 0x8000, 0x7fc1};
         Words out(3);
         const uint64_t shape[2] = {1, 3};
         if (p.dequantize(NC_FORMAT_BF16, 2, shape, codes.data(), 3, nullptr, 0, nullptr, out.data()) != NC_OK)
           return false;
         return same("out", out, {0x3f800000, 0x80000000, 0x7fc10000});
       }},
      {"dequantize.fp8_rows",
       [](auto& p) {
         const Words codes{0x38, 0x38, 0x38, 0x38}, scales{0x3f80, 0x4000};
         Words out(4);
         const uint64_t shape[2] = {2, 2};
         if (p.dequantize(NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 2, shape, codes.data(), 4, scales.data(), 2, nullptr,
                          out.data()) != NC_OK)
           return false;
         return same("out", out, {0x3f800000, 0x3f800000, 0x40000000, 0x40000000});
       }},
      {"dequantize.nvfp4_divisor",
       [](auto& p) {
         const Words codes(16, 0x2), scales{0x38};
         Words out(16);
         const uint64_t shape[2] = {1, 16};
         if (p.dequantize(NC_FORMAT_NVFP4, 2, shape, codes.data(), 16, scales.data(), 1, &kTwo, out.data()) != NC_OK)
           return false;
         return same("out", out, Words(16, 0x3f000000));
       }},
  };
}

}  // namespace

std::string run_plugin_cases(const nc_plugin_v1& p, int* n_cases, int* n_failed) {
  std::string failed;
  *n_cases = *n_failed = 0;
  for (const Case& c : cases()) {
    ++*n_cases;
    if (!c.run(p)) {
      ++*n_failed;
      failed += std::string(" ") + c.name;
    }
  }
  return failed;
}

}  // namespace nc::kernels::gputest
