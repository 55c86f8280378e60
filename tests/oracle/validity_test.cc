// Validity and reconstruction rules, hand-derived from spec 3.3, 3.4, 4, 5, 6.
#include <catch2/catch.hpp>

#include "oracle/reconstruct.h"
#include "oracle/validity.h"

using namespace nc;
using namespace nc::oracle;

TEST_CASE("word validity per component", "[oracle][validity]") {
  CHECK(word_rule(Format::W8G32_F16S, Component::Code, 0x80).size() > 0);
  CHECK(word_rule(Format::W8G32_F16S, Component::Code, 0x81).empty());
  CHECK(word_rule(Format::Q4G64_F16S, Component::Code, 0x10) == "code-illegal");  // too wide
  CHECK(word_rule(Format::Q4G64_F16S, Component::Scale, 0x0000).empty());
  CHECK(word_rule(Format::Q4G64_F16S, Component::Scale, 0x0001).empty());
  CHECK(word_rule(Format::Q4G64_F16S, Component::Scale, 0x8000) == "scale-negative");
  CHECK(word_rule(Format::Q4G64_F16S, Component::Scale, 0xbc00) == "scale-negative");
  CHECK(word_rule(Format::Q4G64_F16S, Component::Scale, 0x7c00) == "scale-nonfinite");
  CHECK(word_rule(Format::Q4G64_F16S, Component::Scale, 0x7e01) == "scale-nonfinite");
  CHECK(word_rule(Format::Q4G64_F16S, Component::Scale, 0xfe00) == "scale-negative");  // sign first
  CHECK(word_rule(Format::NVFP4, Component::Scale, 0x7e).empty());
  CHECK(word_rule(Format::NVFP4, Component::Scale, 0x00).empty());
  CHECK(word_rule(Format::NVFP4, Component::Scale, 0x80) == "scale-negative");
  CHECK(word_rule(Format::NVFP4, Component::Scale, 0x7f) == "scale-nonfinite");
  CHECK(word_rule(Format::NVFP4, Component::Scale, 0xff) == "scale-negative");
  CHECK(word_rule(Format::NVFP4, Component::Scale, 0x78).empty());  // 256 is finite
  CHECK(word_rule(Format::NVFP4, Component::Divisor, 0x3f800000).empty());
  CHECK(word_rule(Format::NVFP4, Component::Divisor, 0x00000001).empty());
  CHECK(word_rule(Format::NVFP4, Component::Divisor, 0x00000000) == "divisor");
  CHECK(word_rule(Format::NVFP4, Component::Divisor, 0x80000000) == "divisor");
  CHECK(word_rule(Format::NVFP4, Component::Divisor, 0x7f800000) == "divisor");
  CHECK(word_rule(Format::FP8_E4M3FN_ROW_BF16S, Component::Code, 0xff) == "code-illegal");
  CHECK(word_rule(Format::FP8_E4M3FN_ROW_BF16S, Component::Code, 0x80).empty());
  CHECK(word_rule(Format::FP8_E4M3FN_ROW_BF16S, Component::Scale, 0x7f80) == "scale-nonfinite");
  CHECK(word_rule(Format::FP8_E4M3FN_ROW_BF16S, Component::Scale, 0x0001).empty());
  CHECK(word_rule(Format::FP32, Component::Word, 0x7fc00001).empty());
}

TEST_CASE("tensor validity: check order and locations", "[oracle][validity]") {
  // Q4 [2, 65]: two scales per row. Scale s2 is -0 (invalid) and code c0 is fine.
  Tensor t{{2, 65}, std::vector<uint32_t>(130, 1), {0x3c00, 0x3c00, 0x8000, 0x3c00}, std::nullopt};
  CHECK(validate_tensor(Format::Q4G64_F16S, t).text() == "!scale-negative@s2");
  t.scales[2] = 0x0000;  // zero scale: row 1, group 0 = codes 65..128 must be 0
  CHECK(validate_tensor(Format::Q4G64_F16S, t).text() == "!zero-scale-codes@c65");
  for (int i = 65; i < 129; ++i) t.codes[i] = 0;
  CHECK(validate_tensor(Format::Q4G64_F16S, t).valid());
  t.scales.pop_back();
  CHECK(validate_tensor(Format::Q4G64_F16S, t).text() == "!shape@-");
  // NVFP4: divisor checked before scales
  Tensor n{{1, 16}, std::vector<uint32_t>(16, 2), {0x7f}, 0x00000000u};
  CHECK(validate_tensor(Format::NVFP4, n).text() == "!divisor@-");
  n.divisor = 0x3f800000u;
  CHECK(validate_tensor(Format::NVFP4, n).text() == "!scale-nonfinite@s0");
  n.scales[0] = 0x00;  // NVFP4 has no zero-scale rule
  CHECK(validate_tensor(Format::NVFP4, n).valid());
  n.shape = {16};
  CHECK(validate_tensor(Format::NVFP4, n).text() == "!shape@-");
  // Spec 3.3: every K-axis group holds 16 code words, so K = 17 is a shape error even with the
  // ceil(17/16) = 2 scales a partial final block would need, and before a bad divisor.
  Tensor p{{1, 17}, std::vector<uint32_t>(17, 2), {0x38, 0x38}, 0x3f800000u};
  CHECK(validate_tensor(Format::NVFP4, p).text() == "!shape@-");
  p.divisor = 0x00000000u;
  CHECK(validate_tensor(Format::NVFP4, p).text() == "!shape@-");
  // FP8 row: positive-zero row scale admits only signed zero codes
  Tensor r{{2, 2}, {0x80, 0x00, 0x01, 0x38}, {0x0000, 0x3f80}, std::nullopt};
  CHECK(validate_tensor(Format::FP8_E4M3FN_ROW_BF16S, r).valid());
  r.codes[1] = 0x08;
  CHECK(validate_tensor(Format::FP8_E4M3FN_ROW_BF16S, r).text() == "!zero-scale-codes@c1");
  r.codes[3] = 0x7f;
  CHECK(validate_tensor(Format::FP8_E4M3FN_ROW_BF16S, r).text() == "!zero-scale-codes@c1");
  r.codes[1] = 0;
  CHECK(validate_tensor(Format::FP8_E4M3FN_ROW_BF16S, r).text() == "!code-illegal@c3");
  // W8 -128
  Tensor w{{3}, {0x01, 0x80, 0x7f}, {0x3c00}, std::nullopt};
  CHECK(validate_tensor(Format::W8G32_F16S, w).text() == "!code-illegal@c1");
}

TEST_CASE("reconstruction equations by hand", "[oracle][reconstruct]") {
  Context ctx;
  // Q4: scale 0x3c00 (1.0) * code 0x9 (-7) = -7 = 0xc0e00000
  CHECK(reconstruct_grouped(ctx, Format::Q4G64_F16S, 0x9, 0x3c00).binary32 == 0xc0e00000u);
  // W8: 2^-24 * 127 = 0x1.fcp-18 = 0x36fe0000
  CHECK(reconstruct_grouped(ctx, Format::W8G32_F16S, 0x7f, 0x0001).binary32 == 0x36fe0000u);
  CHECK(reconstruct_grouped(ctx, Format::W8G32_F16S, 0x80, 0x0001).rule == "code-illegal");
  // NVFP4: 6 * 448 / 3 = 896 exactly; 1 * 1 / 3 = 1/3 -> binary32 0x3eaaaaab
  const Reconstructed a = reconstruct_nvfp4(ctx, 0x7, 0x7e, 0x40400000);
  CHECK(format_exact(a.exact) == "0x1.cp+9");
  CHECK(a.binary32 == 0x44600000u);
  const Reconstructed b = reconstruct_nvfp4(ctx, 0x2, 0x38, 0x40400000);
  CHECK(format_exact(b.exact) == "1/3");
  CHECK(b.binary32 == 0x3eaaaaabu);
  CHECK(reconstruct_nvfp4(ctx, 0xa, 0x38, 0x40400000).binary32 == 0xbeaaaaabu);
  CHECK(reconstruct_nvfp4(ctx, 0x8, 0x38, 0x40400000).binary32 == 0x80000000u);  // -0 kept
  // 6 * 448 / 2^-149 overflows to inf
  CHECK(reconstruct_nvfp4(ctx, 0x7, 0x7e, 0x00000001).binary32 == 0x7f800000u);
  // FP8 row: 448 * max BF16 (0x7f7f) overflows to inf; -448 * 1 = -448
  CHECK(reconstruct_fp8_row(ctx, 0x7e, 0x7f7f).binary32 == 0x7f800000u);
  CHECK(reconstruct_fp8_row(ctx, 0xfe, 0x3f80).binary32 == 0xc3e00000u);
  CHECK(reconstruct_fp8_row(ctx, 0x7f, 0x3f80).rule == "code-illegal");
  // Invalid pairs (spec 6.1, 3.4): a nonzero code under a +0 scale has no value.
  CHECK(reconstruct_grouped(ctx, Format::Q4G64_F16S, 0x1, 0x0000).rule == "zero-scale-codes");
  CHECK(reconstruct_grouped(ctx, Format::Q4G64_F16S, 0x8, 0x0000).rule == "zero-scale-codes");  // -8
  CHECK(reconstruct_grouped(ctx, Format::W8G32_F16S, 0x81, 0x0000).rule == "zero-scale-codes");
  CHECK(reconstruct_grouped(ctx, Format::W8G32_F16S, 0x80, 0x0000).rule == "code-illegal");  // word first
  CHECK(reconstruct_grouped(ctx, Format::Q6G64_F16S, 0x0, 0x0000).rule.empty());
  CHECK(reconstruct_grouped(ctx, Format::Q6G64_F16S, 0x0, 0x0000).binary32 == 0u);
  CHECK(reconstruct_fp8_row(ctx, 0x38, 0x0000).rule == "zero-scale-codes");
  CHECK(reconstruct_fp8_row(ctx, 0x81, 0x0000).rule == "zero-scale-codes");  // -2^-9 is not a zero
  CHECK(reconstruct_fp8_row(ctx, 0x80, 0x0000).binary32 == 0x80000000u);
}
