#include "gemv_reference.h"

#include <gmp.h>

#include <stdexcept>

namespace nc::kernels {
namespace {

// Exact rational value of a finite binary32 word: M * 2^E with |M| < 2^24, E >= -149.
void set_binary32(mpq_t q, uint32_t bits) {
  const uint32_t e = (bits >> 23) & 0xffu, f = bits & 0x7fffffu;
  if (e == 0xff) throw std::invalid_argument("non-finite binary32 word in GEMV reference");
  const uint32_t m = e == 0 ? f : (f | 0x800000u);
  const int exp = (e == 0 ? 1 : static_cast<int>(e)) - 150;
  mpq_set_ui(q, m, 1);
  if (exp >= 0) mpq_mul_2exp(q, q, static_cast<unsigned long>(exp));
  else mpq_div_2exp(q, q, static_cast<unsigned long>(-exp));
  if (bits >> 31) mpq_neg(q, q);
}

struct Q {
  mpq_t v;
  Q() { mpq_init(v); }
  ~Q() { mpq_clear(v); }
  Q(const Q&) = delete;
  Q& operator=(const Q&) = delete;
};

std::string ratio(const mpq_t q) {
  char* s = mpq_get_str(nullptr, 10, q);
  std::string out(s);
  void (*free_fn)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_fn);
  free_fn(s, out.size() + 1);
  return out;
}

}  // namespace

GemvVerdict check_dot(std::span<const uint32_t> w, std::span<const uint32_t> x, uint32_t divisor_bits,
                      uint32_t y_bits) {
  if (w.size() != x.size()) throw std::invalid_argument("check_dot: w and x lengths differ");
  if (((y_bits >> 23) & 0xffu) == 0xffu) return {false, "output is not finite"};
  const unsigned long k = w.size();
  const bool has_divisor = divisor_bits != 0;
  Q exact, abs_sum, abs_x, a, b, y, err, bound, term;
  for (size_t i = 0; i < w.size(); ++i) {
    set_binary32(a.v, w[i]);
    set_binary32(b.v, x[i]);
    mpq_mul(term.v, a.v, b.v);
    mpq_add(exact.v, exact.v, term.v);
    mpq_abs(term.v, term.v);
    mpq_add(abs_sum.v, abs_sum.v, term.v);
    mpq_abs(b.v, b.v);
    mpq_add(abs_x.v, abs_x.v, b.v);
  }
  if (has_divisor) {
    set_binary32(a.v, divisor_bits);
    if (mpq_sgn(a.v) <= 0) throw std::invalid_argument("check_dot: divisor not positive");
    mpq_div(exact.v, exact.v, a.v);
    mpq_div(abs_sum.v, abs_sum.v, a.v);
  }
  // gamma_m = m / (2^24 - m)
  const unsigned long m = has_divisor ? k + 1 : k;
  if (m >= (1ul << 24)) throw std::invalid_argument("check_dot: K too large for gamma_K");
  mpq_set_ui(bound.v, m, (1ul << 24) - m);
  mpq_canonicalize(bound.v);
  mpq_mul(bound.v, bound.v, abs_sum.v);
  mpq_set_ui(term.v, k, 1);  // K * 2^-149
  mpq_div_2exp(term.v, term.v, 149);
  mpq_add(bound.v, bound.v, term.v);
  if (has_divisor) {  // 2^-149 * sum |x|
    mpq_div_2exp(term.v, abs_x.v, 149);
    mpq_add(bound.v, bound.v, term.v);
  }
  set_binary32(y.v, y_bits);
  mpq_sub(err.v, y.v, exact.v);
  mpq_abs(err.v, err.v);
  if (mpq_cmp(err.v, bound.v) <= 0) return {true, ""};
  return {false, "|y - exact| = " + ratio(err.v) + " exceeds bound " + ratio(bound.v)};
}

}  // namespace nc::kernels
