// Test-only LD_PRELOAD helper: before main() runs, puts the process in the floating-point
// environment named by NC_TEST_FPENV, so a test can run the real ninfer-conform binary under it.
// Threads started later inherit it (Linux copies the FPU control state on clone).
//   ftz-daz     SSE flush-to-zero and denormals-are-zero (what -ffast-math's crtfastmath.o does)
//   upward, downward, towardzero   the other IEEE 754 rounding directions (fesetround)
// An unknown name aborts, so a typo cannot turn a test into a run in the default environment.
#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xmmintrin.h>

__attribute__((constructor)) static void nc_test_fpenv(void) {
  const char* mode = getenv("NC_TEST_FPENV");
  if (!mode || !*mode) return;
  if (!strcmp(mode, "ftz-daz")) {
    _mm_setcsr(_mm_getcsr() | 0x8040u);  // FTZ (bit 15) | DAZ (bit 6)
  } else if (!strcmp(mode, "upward")) {
    fesetround(FE_UPWARD);
  } else if (!strcmp(mode, "downward")) {
    fesetround(FE_DOWNWARD);
  } else if (!strcmp(mode, "towardzero")) {
    fesetround(FE_TOWARDZERO);
  } else {
    fprintf(stderr, "fpenv_preload: unknown NC_TEST_FPENV '%s'\n", mode);
    abort();
  }
}
