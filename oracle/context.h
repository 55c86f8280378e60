// The oracle's scratch state: MPFR and GMP variables allocated once and reused, so that sweeps of
// millions of values do no allocation per value. One Context per thread; it is not shareable.
//
// Every oracle entry point takes a Context&. The exact values it returns (mpq_class) are owned by
// the caller.
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

namespace nc::oracle {

class Context {
 public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Scratch, for oracle/ internals only. `fr` has the widest precision any oracle format needs
  // (set per use with mpfr_set_prec); q0..q2 and z0 are GMP scratch.
  mpfr_t fr;
  mpq_class q0, q1, q2;
  mpz_class z0;
};

}  // namespace nc::oracle
