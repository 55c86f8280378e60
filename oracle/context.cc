#include "oracle/context.h"

namespace nc::oracle {

Context::Context() { mpfr_init2(fr, 64); }
Context::~Context() { mpfr_clear(fr); }

}  // namespace nc::oracle
