#include "oracle/context.h"

#include <stdexcept>

namespace nc::oracle {

Context::Context() {
  // round_rne sets the MPFR exponent range per call; that is per thread only when MPFR keeps it
  // in thread-local storage, which the generator's parallel suites rely on.
  if (!mpfr_buildopt_tls_p()) {
    throw std::runtime_error("oracle: MPFR was built without thread-local storage; one Context per thread is unsafe");
  }
  mpfr_init2(fr, 64);
}
Context::~Context() { mpfr_clear(fr); }

}  // namespace nc::oracle
