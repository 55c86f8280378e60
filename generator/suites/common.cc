#include "generator/suites/common.h"

#include "oracle/value.h"

namespace nc::gen {

std::string hex_word(uint64_t word, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(static_cast<size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, word >>= 4) s[static_cast<size_t>(i)] = kHex[word & 15];
  return s;
}

std::string join(const std::vector<std::string>& v, char sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

std::string rejection(std::string_view rule) {
  std::string out = "!";  // append(): GCC 12 -Wrestrict misfires on "!" + s at -O3
  out.append(rule);
  return out;
}

void add_decode_tags(SuiteInfo& s) {
  s.tags.insert({
      {"zero", "a signed zero: catches -0 folded to +0."},
      {"subnormal",
       "exponent field 0, fraction != 0: catches a missing subnormal path or a wrong subnormal exponent (FTZ)."},
      {"normal", "an ordinary normal value: catches bias and fraction-width errors."},
      {"inf", "an infinity: catches infinities decoded as NaN or as the largest finite value."},
      {"nan-quiet", "a quiet NaN: catches payload or sign canonicalisation."},
      {"nan-signaling", "a signaling NaN: catches quieting on decode (payload and quiet bit must survive)."},
      {"nan",
       "a NaN word of a type with no quiet bit (E4M3FN 0x7f, 0xff): catches a NaN decoded as a number or infinity."},
      {"negative", "sign bit set: catches a dropped or misplaced sign bit."},
      {"min-subnormal", "the smallest positive subnormal magnitude: catches an off-by-one subnormal exponent."},
      {"max-subnormal", "the largest subnormal magnitude: catches the subnormal/normal boundary."},
      {"min-normal", "the smallest normal magnitude: catches the subnormal/normal boundary from above."},
      {"max-finite", "the largest finite magnitude: catches a wrong top binade (E4M3FN: exponent 15 is finite)."},
      {"int", "an integer word: catches sign extension and two's complement errors."},
      {"int-extreme", "the most negative or most positive integer: catches overflow in sign handling."},
      {"illegal", "a word the format rejects: catches accepting W8's -128."},
  });
}

Case decode_case(oracle::Context& ctx, WordType t, uint32_t word, std::vector<std::string> tags, std::string comment) {
  oracle::Decoded d = oracle::decode(ctx, t, word);
  Case c;
  c.inputs = {hex_word(word, word_hex_digits(t))};
  c.tags = std::move(tags);
  const uint32_t bits = info(t).bits;
  const bool neg = (word >> (bits - 1)) & 1;
  if (!d.valid) {
    c.expect = rejection(d.rule);
    c.info = {"-", "-"};
    c.tags.push_back("illegal");
    c.comment = comment.empty() ? "rejected: " + std::string(d.rule) : comment;
    return c;
  }
  if (d.integer) {
    c.expect = std::to_string(*d.integer);
  } else if (d.binary32) {
    c.expect = hex_word(*d.binary32, 8);
  } else {
    c.expect = "nan*";  // E4M3FN NaN: no payload is defined
  }
  c.info = {oracle::format_exact(d.value), std::string(oracle::class_name(d.cls))};
  switch (d.cls) {
    case oracle::ValueClass::Zero:
      c.tags.push_back("zero");
      break;
    case oracle::ValueClass::Subnormal:
      c.tags.push_back("subnormal");
      break;
    case oracle::ValueClass::Normal:
      c.tags.push_back("normal");
      break;
    case oracle::ValueClass::Inf:
      c.tags.push_back("inf");
      break;
    case oracle::ValueClass::NaN: {
      // Quiet bit = top fraction bit, for the IEEE-style types that carry a payload.
      uint32_t frac_bits = t == WordType::BF16 ? 7 : t == WordType::F16 ? 10 : t == WordType::FP32 ? 23 : 0;
      if (frac_bits) c.tags.push_back(((word >> (frac_bits - 1)) & 1) ? "nan-quiet" : "nan-signaling");
      else c.tags.push_back("nan");
      break;
    }
    case oracle::ValueClass::Int:
      c.tags.push_back("int");
      break;
  }
  if (neg && d.cls != oracle::ValueClass::Int) c.tags.push_back("negative");
  if (auto ff = float_format_of(t)) {
    const auto& fi = oracle::info(*ff);
    const uint32_t mag = word & ((1u << (bits - 1)) - 1);
    const uint32_t frac_one = 1u << fi.fraction_bits;
    if (mag == 1) c.tags.push_back("min-subnormal");
    if (mag == frac_one - 1) c.tags.push_back("max-subnormal");
    if (mag == frac_one) c.tags.push_back("min-normal");
    if (mag == fi.max_finite_magnitude_bits) c.tags.push_back("max-finite");
  }
  if (t == WordType::I32 && (word == 0x80000000u || word == 0x7fffffffu)) c.tags.push_back("int-extreme");
  c.comment = std::move(comment);
  // A fixed phrase compresses to nothing; the value column already says what the word means.
  if (c.comment.empty()) c.comment = std::string(info(t).name) + " word";
  return c;
}

}  // namespace nc::gen
