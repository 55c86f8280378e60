#include "oracle/value.h"

#include <string>

#include "registry/registry.h"

namespace nc::oracle {

static_assert(int(ValueClass::Int) + 1 == kValueClassCount);

std::string_view class_name(ValueClass c) { return kValueClassTokens[static_cast<size_t>(c)]; }

Exact Exact::finite(mpq_class v, bool negative_zero) {
  Exact e;
  e.kind = Kind::Finite;
  e.negative = sgn(v) < 0 || (sgn(v) == 0 && negative_zero);
  e.q = std::move(v);
  return e;
}
Exact Exact::inf(bool negative) {
  Exact e;
  e.kind = Kind::Inf;
  e.negative = negative;
  return e;
}
Exact Exact::nan(bool negative) {
  Exact e;
  e.kind = Kind::NaN;
  e.negative = negative;
  return e;
}

bool is_dyadic(const mpq_class& v) {
  const mpz_class& d = v.get_den();
  return mpz_popcount(d.get_mpz_t()) == 1;
}

namespace {
std::string hex_float(const mpq_class& v) {
  // v = num / 2^d exactly; printed as 0x1.<hex>p<E> with the fraction's trailing zeros dropped.
  mpz_class num = abs(v.get_num());
  const long d = static_cast<long>(mpz_scan1(v.get_den().get_mpz_t(), 0));
  const long nb = static_cast<long>(mpz_sizeinbase(num.get_mpz_t(), 2));
  const long exponent = nb - 1 - d;
  mpz_class frac = num - (mpz_class(1) << (nb - 1));
  const long frac_bits = nb - 1;
  const long digits = (frac_bits + 3) / 4;
  frac <<= (digits * 4 - frac_bits);
  std::string hex = digits > 0 ? frac.get_str(16) : std::string();
  if (static_cast<long>(hex.size()) < digits) hex.insert(0, digits - hex.size(), '0');
  while (!hex.empty() && hex.back() == '0') hex.pop_back();
  std::string out = sgn(v) < 0 ? "-0x1" : "0x1";
  if (!hex.empty()) out += "." + hex;
  out += exponent < 0 ? "p-" : "p+";
  out += std::to_string(exponent < 0 ? -exponent : exponent);
  return out;
}
}  // namespace

std::string format_exact(const mpq_class& v) {
  if (sgn(v) == 0) return "0x0p+0";
  if (is_dyadic(v)) return hex_float(v);
  return v.get_str(10);  // GMP prints canonical "p/q", sign on p
}

std::string format_exact(const Exact& v) {
  switch (v.kind) {
    case Exact::Kind::Inf:
      return v.negative ? "-inf" : "inf";
    case Exact::Kind::NaN:
      return "nan";
    case Exact::Kind::Finite:
      break;
  }
  if (sgn(v.q) == 0) return v.negative ? "-0x0p+0" : "0x0p+0";
  return format_exact(v.q);
}

}  // namespace nc::oracle
