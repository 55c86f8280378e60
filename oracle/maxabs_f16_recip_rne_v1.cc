// MAXABS_F16_RECIP_RNE_V1, spec 7, step by step. Every arithmetic step is exact in GMP and then
// rounded once by round_rne to the format the spec names (binary32 or binary16), which is the
// correctly rounded IEEE operation.
#include "oracle/maxabs_f16_recip_rne_v1.h"

#include <algorithm>

#include "oracle/decode.h"
#include "oracle/round.h"

namespace nc::oracle {

std::optional<SourceType> find_source_type(std::string_view name) {
  if (name == "FP32") return SourceType::FP32;
  if (name == "BF16") return SourceType::BF16;
  if (name == "F16") return SourceType::F16;
  if (name == "F64") return SourceType::F64;
  return std::nullopt;
}

std::string_view source_type_name(SourceType t) {
  switch (t) {
    case SourceType::FP32:
      return "FP32";
    case SourceType::BF16:
      return "BF16";
    case SourceType::F16:
      return "F16";
    case SourceType::F64:
      return "F64";
  }
  return "?";
}

std::string_view failure_rule(EncodeFailure f) {
  switch (f) {
    case EncodeFailure::None:
      return "";
    case EncodeFailure::Nonfinite:
      return "nonfinite";
    case EncodeFailure::ScaleOverflow:
      return "scale-overflow";
  }
  return "";
}

SchemeParams scheme_params(Format f) {
  switch (f) {
    case Format::Q4G64_F16S:
      return {-8, 7, 64};
    case Format::Q5G64_F16S:
      return {-16, 15, 64};
    case Format::Q6G64_F16S:
      return {-32, 31, 64};
    case Format::W8G32_F16S:
      return {-127, 127, 32};  // spec 5: -128 is not a legal code
    default:
      return {0, 0, 0};
  }
}

namespace {
// binary64 bit fields (IEEE 754): the oracle has no binary64 traits entry since it never rounds
// to binary64; the exact value is built here from the fields.
bool f64_exact(uint64_t w, mpq_class& out, bool& negative) {
  negative = (w >> 63) != 0;
  const uint64_t e = (w >> 52) & 0x7ffu;
  const uint64_t m = w & ((uint64_t{1} << 52) - 1);
  if (e == 0x7ffu) return false;
  const uint64_t significand = e == 0 ? m : (m | (uint64_t{1} << 52));
  const long scale_exp = (e == 0 ? 1 : static_cast<long>(e)) - 1023 - 52;
  mpz_class z;
  mpz_import(z.get_mpz_t(), 1, 1, sizeof significand, 0, 0, &significand);
  out = z;
  if (scale_exp >= 0) {
    mpq_mul_2exp(out.get_mpq_t(), out.get_mpq_t(), static_cast<unsigned long>(scale_exp));
  } else {
    mpq_div_2exp(out.get_mpq_t(), out.get_mpq_t(), static_cast<unsigned long>(-scale_exp));
  }
  if (negative) out = -out;
  return true;
}
}  // namespace

std::optional<uint32_t> source_to_binary32(Context& ctx, SourceType t, uint64_t word) {
  bool negative = false;
  switch (t) {
    case SourceType::FP32: {
      const uint32_t w = static_cast<uint32_t>(word);
      if (((w >> 23) & 0xffu) == 0xffu) return std::nullopt;
      return w;
    }
    case SourceType::BF16: {
      const uint32_t w = static_cast<uint32_t>(word) << 16;  // exact (spec 3.1)
      if (((w >> 23) & 0xffu) == 0xffu) return std::nullopt;
      return w;
    }
    case SourceType::F16: {
      const ValueClass cls = exact_into(FloatFormat::Binary16, static_cast<uint32_t>(word), ctx.q2, negative);
      if (cls == ValueClass::Inf || cls == ValueClass::NaN) return std::nullopt;
      return round_rne(ctx, FloatFormat::Binary32, ctx.q2, negative).word;  // exact
    }
    case SourceType::F64: {
      if (!f64_exact(word, ctx.q2, negative)) return std::nullopt;
      const Rounded r = round_rne(ctx, FloatFormat::Binary32, ctx.q2, negative);
      if (r.overflow) return std::nullopt;  // cannot be represented as finite binary32
      return r.word;
    }
  }
  return std::nullopt;
}

EncodeResult encode_maxabs_f16_recip_rne_v1(Context& ctx, Format f, SourceType src_type, uint64_t rows, uint64_t k,
                                            const std::vector<uint64_t>& src) {
  const SchemeParams p = scheme_params(f);
  const uint64_t groups_per_row = (k + p.group_size - 1) / p.group_size;
  EncodeResult out;
  out.scales.reserve(rows * groups_per_row);
  out.codes.assign(rows * k, 0);
  out.normalized32.assign(rows * k, std::nullopt);
  out.trace.assign(rows * groups_per_row, GroupTrace{});

  // Step 0 (spec 7: "before group processing"): every source value to binary32 with RNE; the
  // first one that is not finite binary32 fails the encoding before any group is processed.
  std::vector<uint32_t> x32(rows * k);
  for (uint64_t i = 0; i < rows * k; ++i) {
    const auto w = source_to_binary32(ctx, src_type, src[i]);
    if (!w) {
      out.failure = EncodeFailure::Nonfinite;
      out.failure_index = i;
      out.scales.clear();
      out.codes.clear();
      return out;
    }
    x32[i] = *w;
  }
  mpq_class& scale32 = ctx.q2;
  bool negative = false;

  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t g = 0; g < groups_per_row; ++g) {
      const uint64_t begin = r * k + g * p.group_size;
      const uint64_t end = r * k + std::min<uint64_t>(k, (g + 1) * p.group_size);
      const uint64_t group_index = r * groups_per_row + g;
      GroupTrace& tr = out.trace[group_index];
      const uint32_t* x = x32.data() + begin;
      const uint64_t len = end - begin;
      // Step 1: amax = max |x| over binary32 values. For finite binary32 words the magnitude
      // bits order exactly like the magnitudes they encode.
      uint32_t amax = 0;
      for (uint64_t i = 0; i < len; ++i) amax = std::max(amax, x[i] & 0x7fffffffu);
      tr.amax32 = amax;
      if (amax == 0) {  // all-zero group (either sign): +0 scale, zero codes
        tr.scale16 = 0;
        out.scales.push_back(0);
        continue;
      }
      // Step 2: raw_scale32 = round_f32(amax / binary32(qmax))
      exact_into(FloatFormat::Binary32, amax, ctx.q0, negative);
      mpq_set_ui(ctx.q1.get_mpq_t(), static_cast<unsigned long>(p.qmax), 1);
      mpq_div(ctx.q0.get_mpq_t(), ctx.q0.get_mpq_t(), ctx.q1.get_mpq_t());
      const uint32_t raw_scale32 = round_f32(ctx, ctx.q0);
      tr.raw_scale32 = raw_scale32;
      // Step 3: scale16 = round_f16(raw_scale32), rescue +0 to 2^-24, fail on infinity.
      exact_into(FloatFormat::Binary32, raw_scale32, ctx.q0, negative);
      uint32_t scale16 = round_rne(ctx, FloatFormat::Binary16, ctx.q0).word;
      if (scale16 == 0) scale16 = 0x0001;
      tr.scale16 = scale16;
      if (scale16 == 0x7c00u) {
        out.failure = EncodeFailure::ScaleOverflow;
        out.failure_index = group_index;
        out.scales.clear();
        out.codes.clear();
        return out;
      }
      out.scales.push_back(scale16);
      // Step 4: inv32 = round_f32(1 / scale32), scale32 the exact binary16 value.
      exact_into(FloatFormat::Binary16, scale16, scale32, negative);
      mpq_inv(ctx.q0.get_mpq_t(), scale32.get_mpq_t());
      const uint32_t inv_word = round_f32(ctx, ctx.q0);
      tr.inv32 = inv_word;
      const WordFields inv = split_word(FloatFormat::Binary32, inv_word);  // positive, normal
      // Step 5: normalized32 = round_f32(x * inv32); code = clamp(rint_even(normalized32)).
      // The exact product of two binary32 values is the product of their significands (< 2^48)
      // times 2^(sum of exponents), rounded once.
      for (uint64_t i = begin; i < end; ++i) {
        const WordFields xf = split_word(FloatFormat::Binary32, x[i - begin]);
        const uint32_t norm_word =
            round_rne_dyadic(ctx, FloatFormat::Binary32, xf.negative, uint64_t{xf.significand} * inv.significand,
                             xf.exponent + inv.exponent)
                .word;
        out.normalized32[i] = norm_word;
        const long q =
            std::clamp<long>(round_word_to_integral_ties_even(ctx, FloatFormat::Binary32, norm_word), p.qmin, p.qmax);
        out.codes[i] = static_cast<int32_t>(q);
      }
    }
  }
  return out;
}

}  // namespace nc::oracle
