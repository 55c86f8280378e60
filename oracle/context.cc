#include "oracle/context.h"

#include <stdexcept>

namespace nc::oracle {

Context::Context() {
  // round_rne sets the MPFR exponent range per call; that is per thread only when MPFR keeps it
  // in thread-local storage, which the generator's parallel suites rely on.
  if (!mpfr_buildopt_tls_p()) {
    throw std::runtime_error("oracle: MPFR was built without thread-local storage; one Context per thread is unsafe");
  }
  for (int f = 0; f < kFloatFormatCount; ++f)
    mpfr_init2(rounded[f], info(static_cast<FloatFormat>(f)).fraction_bits + 1);
  mpfr_init2(integral, 64);
}
Context::~Context() {
  for (auto& r : rounded) mpfr_clear(r);
  mpfr_clear(integral);
}

}  // namespace nc::oracle
