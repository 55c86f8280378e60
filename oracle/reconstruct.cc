// Reconstruction equations of spec 6.2, 3.3 and 3.4: the exact product or quotient in GMP, then
// one RNE rounding to binary32 (overflow -> inf). A zero result carries the IEEE sign of the
// operation (xor of the operand signs; the divisor and scales are positive when valid).
#include "oracle/reconstruct.h"

#include "oracle/decode.h"
#include "oracle/round.h"
#include "oracle/validity.h"

namespace nc::oracle {

namespace {
Reconstructed finish(Context& ctx, bool negative_zero) {
  Reconstructed r;
  r.exact = Exact::finite(ctx.q0, negative_zero);
  r.binary32 = round_rne(ctx, FloatFormat::Binary32, ctx.q0, negative_zero).word;
  return r;
}
Reconstructed broken(std::string_view rule) {
  Reconstructed r;
  r.rule = rule;
  return r;
}
}  // namespace

Reconstructed reconstruct_grouped(Context& ctx, Format f, uint32_t code_word, uint32_t scale_word) {
  if (auto rule = word_rule(f, Component::Code, code_word); !rule.empty()) return broken(rule);
  if (auto rule = word_rule(f, Component::Scale, scale_word); !rule.empty()) return broken(rule);
  bool scale_negative = false;
  exact_into(FloatFormat::Binary16, scale_word, ctx.q0, scale_negative);
  const int32_t q = signed_code(info(f).code, code_word);
  // Spec 6.1: under a +0 scale "every logical code in that group must be zero", so a nonzero code
  // with a +0 scale is not a valid pair and has no represented value (FORMAT.md "Invalid pairs").
  if (scale_word == 0 && q != 0) return broken("zero-scale-codes");
  // binary32(q) is exact (|q| <= 127); q == 0 is +0, so only a negative q gives a negative zero.
  mpq_set_si(ctx.q1.get_mpq_t(), q, 1);
  mpq_mul(ctx.q0.get_mpq_t(), ctx.q0.get_mpq_t(), ctx.q1.get_mpq_t());
  return finish(ctx, q < 0);
}

Reconstructed reconstruct_nvfp4(Context& ctx, uint32_t e2m1_word, uint32_t e4m3_scale_word, uint32_t divisor_word) {
  if (auto rule = word_rule(Format::NVFP4, Component::Code, e2m1_word); !rule.empty()) return broken(rule);
  if (auto rule = word_rule(Format::NVFP4, Component::Divisor, divisor_word); !rule.empty()) return broken(rule);
  if (auto rule = word_rule(Format::NVFP4, Component::Scale, e4m3_scale_word); !rule.empty()) return broken(rule);
  bool code_negative = false, other_negative = false;
  exact_into(FloatFormat::E2M1, e2m1_word, ctx.q0, code_negative);
  exact_into(FloatFormat::E4M3FN, e4m3_scale_word, ctx.q1, other_negative);
  mpq_mul(ctx.q0.get_mpq_t(), ctx.q0.get_mpq_t(), ctx.q1.get_mpq_t());
  exact_into(FloatFormat::Binary32, divisor_word, ctx.q1, other_negative);
  mpq_div(ctx.q0.get_mpq_t(), ctx.q0.get_mpq_t(), ctx.q1.get_mpq_t());
  return finish(ctx, code_negative);
}

Reconstructed reconstruct_fp8_row(Context& ctx, uint32_t e4m3_code_word, uint32_t bf16_scale_word) {
  if (auto rule = word_rule(Format::FP8_E4M3FN_ROW_BF16S, Component::Code, e4m3_code_word); !rule.empty())
    return broken(rule);
  if (auto rule = word_rule(Format::FP8_E4M3FN_ROW_BF16S, Component::Scale, bf16_scale_word); !rule.empty())
    return broken(rule);
  // Spec 3.4: under a +0 row scale "every code in that row must be either positive zero 0x00 or
  // negative zero 0x80"; any other code makes the pair invalid (FORMAT.md "Invalid pairs").
  if (bf16_scale_word == 0 && (e4m3_code_word & 0x7fu) != 0) return broken("zero-scale-codes");
  bool code_negative = false, scale_negative = false;
  exact_into(FloatFormat::E4M3FN, e4m3_code_word, ctx.q0, code_negative);
  exact_into(FloatFormat::BFloat16, bf16_scale_word, ctx.q1, scale_negative);
  mpq_mul(ctx.q0.get_mpq_t(), ctx.q0.get_mpq_t(), ctx.q1.get_mpq_t());
  return finish(ctx, code_negative);
}

}  // namespace nc::oracle
