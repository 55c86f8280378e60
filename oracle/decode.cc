// Decoding from the bit fields of spec 3.1 (BF16, FP32, I32), 3.3 (E2M1, E4M3FN), 5 (codes) and
// 6 (binary16 scales). Values are built as integer * 2^exponent in GMP, never through a double.
#include "oracle/decode.h"

#include "oracle/round.h"

namespace nc::oracle {

WordFields split_word(FloatFormat f, uint32_t word) {
  const FloatFormatInfo& fi = info(f);
  const uint32_t exp_mask = (1u << fi.exponent_bits) - 1;
  const uint32_t frac_mask = (1u << fi.fraction_bits) - 1;
  WordFields w;
  w.negative = ((word >> (fi.bits - 1)) & 1u) != 0;
  const uint32_t e = (word >> fi.fraction_bits) & exp_mask;
  const uint32_t m = word & frac_mask;
  if (fi.has_inf && e == exp_mask) {
    w.cls = m == 0 ? ValueClass::Inf : ValueClass::NaN;
  } else if (!fi.has_inf && fi.has_nan && e == exp_mask && m == frac_mask) {
    w.cls = ValueClass::NaN;
  } else if (e == 0) {
    w.cls = m == 0 ? ValueClass::Zero : ValueClass::Subnormal;
    w.significand = m;
    w.exponent = 1 - fi.bias - fi.fraction_bits;
  } else {
    w.cls = ValueClass::Normal;
    w.significand = (1u << fi.fraction_bits) | m;
    w.exponent = static_cast<long>(e) - fi.bias - fi.fraction_bits;
  }
  return w;
}

namespace {
// out = the finite value of w.
void finite_into(const WordFields& w, mpq_class& out) {
  mpq_set_ui(out.get_mpq_t(), w.significand, 1);
  if (w.exponent >= 0) {
    mpq_mul_2exp(out.get_mpq_t(), out.get_mpq_t(), static_cast<unsigned long>(w.exponent));
  } else {
    mpq_div_2exp(out.get_mpq_t(), out.get_mpq_t(), static_cast<unsigned long>(-w.exponent));
  }
  if (w.negative) mpq_neg(out.get_mpq_t(), out.get_mpq_t());
}
}  // namespace

ValueClass exact_into(FloatFormat f, uint32_t word, mpq_class& out, bool& negative) {
  const WordFields w = split_word(f, word);
  negative = w.negative;
  if (w.cls != ValueClass::Inf && w.cls != ValueClass::NaN) finite_into(w, out);
  return w.cls;
}

Exact exact_value(FloatFormat f, uint32_t word) {
  mpq_class v;
  bool negative = false;
  const ValueClass cls = exact_into(f, word, v, negative);
  if (cls == ValueClass::Inf) return Exact::inf(negative);
  if (cls == ValueClass::NaN) return Exact::nan(negative);
  return Exact::finite(std::move(v), negative);
}

int32_t signed_code(WordType code_type, uint32_t word) {
  const uint32_t bits = info(code_type).bits;
  const uint32_t half = 1u << (bits - 1);
  return word < half ? static_cast<int32_t>(word) : static_cast<int32_t>(word) - static_cast<int32_t>(2 * half);
}

Decoded decode(Context& ctx, WordType type, uint32_t word) {
  Decoded d;
  decode(ctx, type, word, d);
  return d;
}

void decode(Context& ctx, WordType type, uint32_t word, Decoded& d) {
  // Every field is reset; d.value.q keeps its storage (no allocation once grown).
  d.cls = ValueClass::Zero;
  d.value.kind = Exact::Kind::Finite;
  d.value.negative = false;
  mpq_set_ui(d.value.q.get_mpq_t(), 0, 1);
  d.binary32.reset();
  d.integer.reset();
  d.valid = true;
  d.rule = {};
  const uint32_t bits = info(type).bits;
  if (bits < 32 && (word >> bits) != 0) {
    d.valid = false;
    d.rule = "word";
    return;
  }
  if (const auto ff = float_format_of(type)) {
    const WordFields w = split_word(*ff, word);
    d.cls = w.cls;
    d.value.negative = w.negative;
    if (w.cls == ValueClass::Inf) {
      d.value.kind = Exact::Kind::Inf;
    } else if (w.cls == ValueClass::NaN) {
      d.value.kind = Exact::Kind::NaN;
    } else {
      finite_into(w, d.value.q);  // straight into the result: no copy of a rational
    }
    switch (type) {
      case WordType::FP32:
        d.binary32 = word;
        break;
      case WordType::BF16:
        d.binary32 = word << 16;
        break;  // spec 3.1: the exact expansion
      case WordType::F16:
        if (d.cls == ValueClass::Inf || d.cls == ValueClass::NaN) {
          // Payload-preserving: sign, all-ones exponent, the 10 fraction bits at the top.
          d.binary32 = ((word & 0x8000u) << 16) | 0x7f800000u | ((word & 0x3ffu) << 13);
        } else {
          d.binary32 =
              round_rne_dyadic(ctx, FloatFormat::Binary32, w.negative, w.significand, w.exponent).word;  // exact
        }
        break;
      default:  // E4M3FN, E2M1: finite values are exact in binary32; E4M3FN NaN has no payload
        if (d.cls != ValueClass::NaN)
          d.binary32 = round_rne_dyadic(ctx, FloatFormat::Binary32, w.negative, w.significand, w.exponent).word;
        break;
    }
    return;
  }
  d.cls = ValueClass::Int;
  int64_t v;
  if (type == WordType::I32) {
    v = word < 0x80000000u ? static_cast<int64_t>(word) : static_cast<int64_t>(word) - (int64_t{1} << 32);
  } else {
    v = signed_code(type, word);
    if (type == WordType::W8_CODE && word == 0x80u) {  // spec 5: -128 is outside the language
      d.valid = false;
      d.rule = "code-illegal";
    }
  }
  d.integer = v;
  d.value.negative = v < 0;
  mpq_set_si(d.value.q.get_mpq_t(), static_cast<long>(v), 1);
}

}  // namespace nc::oracle
