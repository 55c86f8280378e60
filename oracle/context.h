// The oracle's scratch state: MPFR and GMP variables allocated once and reused, so that sweeps of
// millions of values do no allocation per value. One Context per thread; it is not shareable.
//
// Every oracle entry point takes a Context&. The exact values it returns (mpq_class) are owned by
// the caller.
#pragma once

#include <gmpxx.h>
#include <mpfr.h>

#include "oracle/float_format.h"

namespace nc::oracle {

class Context {
 public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Scratch, for oracle/ internals only. `rounded[f]` holds round_rne's result for format f at
  // that format's precision (fraction_bits + 1), set once here; `integral` (64 bits, so any
  // format's word value is exact in it) is round_word_to_integral_ties_even's; q0..q2 and z0 are
  // GMP scratch.
  mpfr_t rounded[kFloatFormatCount];
  mpfr_t integral;
  mpq_class q0, q1, q2;
  mpz_class z0;
};

}  // namespace nc::oracle
