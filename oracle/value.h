// Exact values and their canonical text (vectors/FORMAT.md): C99 hex floats for dyadic values,
// `p/q` in lowest terms otherwise, `inf`, `-inf`, `nan`.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace nc::oracle {

// Value class of a decoded word (the `class` column of decode suites).
enum class ValueClass : uint8_t { Zero, Subnormal, Normal, Inf, NaN, Int };
std::string_view class_name(ValueClass c);  // "zero", "subnormal", "normal", "inf", "nan", "int"

// An exact real value, or an infinity or NaN. Zero keeps its sign (mpq has no -0, so `negative`
// carries it); for finite nonzero values `negative` agrees with the sign of `q`.
struct Exact {
  enum class Kind : uint8_t { Finite, Inf, NaN };
  Kind kind = Kind::Finite;
  bool negative = false;
  mpq_class q;  // the value when kind == Finite (canonical, lowest terms)

  static Exact finite(mpq_class v, bool negative_zero = false);
  static Exact inf(bool negative);
  static Exact nan(bool negative);
  bool is_finite() const { return kind == Kind::Finite; }
  bool is_zero() const { return kind == Kind::Finite && sgn(q) == 0; }
};

// True when the denominator of v is a power of two.
bool is_dyadic(const mpq_class& v);

// Canonical text of an exact value:
//   zero            -> "0x0p+0" / "-0x0p+0"
//   dyadic nonzero  -> normalized C99 hex float, leading digit 1, no trailing zero hex digits,
//                      "p" exponent always signed: 0x1p-9, 0x1.cp+8, -0x1.8p+1
//   non-dyadic      -> "p/q" in lowest terms, sign on p: "-10/3"
//   inf / nan       -> "inf", "-inf", "nan" (a NaN's sign is not printed)
std::string format_exact(const Exact& v);
std::string format_exact(const mpq_class& v);  // finite, zero printed as "0x0p+0"

}  // namespace nc::oracle
