/* A small plugin for the runner's own tests: E4M3FN and W8 code decode, written from the spec
 * (numeric-formats.txt 3.3 and 5), nothing else. One source, five behaviours chosen at build time,
 * so each broken plugin differs from the good one in exactly one way:
 *   NC_TEST_GOOD       decodes correctly
 *   NC_TEST_WRONG_BIT  flips bit 0 of the result for E4M3FN word 0x38 (1.0 -> the next binary32)
 *   NC_TEST_CRASH      aborts on any E4M3FN decode call
 *   NC_TEST_HANG       sleeps forever on any E4M3FN decode call
 *   NC_TEST_STDOUT     decodes correctly, but first prints a well-formed answer line of wrong
 *                      words to its stdout (a careless printf) and an escape sequence to stderr
 *   NC_TEST_UNWRITTEN  returns NC_OK from an E4M3FN decode and writes neither answers nor validity
 *   NC_TEST_DAEMON     decodes correctly, but its first E4M3FN decode forks a process that calls
 *                      setsid() (out of the host's group and session) and spins; the plugin
 *                      appends its pid to the file $NC_TEST_PID_FILE before answering
 *   NC_TEST_SETSID     on an E4M3FN decode the plugin's own process appends its pid to
 *                      $NC_TEST_PID_FILE, calls setsid() and spins, never answering
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "include/ninfer_conform/plugin.h"

/* (-1)^s * m * 2^e as binary32 bits, for the small exact values E4M3FN produces. */
static uint32_t binary32_of(uint32_t s, uint32_t m, int e) {
  if (m == 0) return s << 31;
  int top = 31 - __builtin_clz(m);
  int exp = top + e; /* E4M3FN values are all binary32 normals: exp >= -9 */
  uint32_t frac = (m << (23 - top)) & 0x7fffffu;
  return (s << 31) | ((uint32_t)(exp + 127) << 23) | frac;
}

static uint32_t e4m3fn_decode(uint32_t w) {
  uint32_t s = (w >> 7) & 1, e = (w >> 3) & 15, m = w & 7;
  if (e == 15 && m == 7) return (s << 31) | 0x7fc00000u;
  if (e == 0) return binary32_of(s, m, -9);
  return binary32_of(s, 8 | m, (int)e - 10);
}

#if defined(NC_TEST_DAEMON) || defined(NC_TEST_SETSID)
static void note_pid(pid_t pid) {
  const char* file = getenv("NC_TEST_PID_FILE");
  FILE* f = file ? fopen(file, "a") : NULL;
  if (f) fprintf(f, "%ld\n", (long)pid), fclose(f);
}
static void leave_session_and_spin(void) {
  setsid();
  for (volatile unsigned long spin = 0;; ++spin) {}
}
#endif

static int decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  if (wt == NC_WT_E4M3FN) {
#if defined(NC_TEST_CRASH)
    abort();
#elif defined(NC_TEST_UNWRITTEN)
    (void)words, (void)n, (void)out, (void)valid;
    return NC_OK;
#elif defined(NC_TEST_SETSID)
    note_pid(getpid());
    leave_session_and_spin();
#elif defined(NC_TEST_DAEMON)
    static int forked;
    if (!forked++) {
      const pid_t daemon = fork();
      if (daemon == 0) leave_session_and_spin();
      note_pid(daemon); /* before the answer: the runner cannot have ended it unnoted */
    }
#elif defined(NC_TEST_HANG)
    for (;;) pause();
#elif defined(NC_TEST_STDOUT)
    printf("ok");
    for (size_t i = 0; i < n; ++i) printf(" 00000000");
    printf("\n");
    fflush(stdout);
    fputs("\033[2J\033[Hplugin stderr\n", stderr);
#endif
    for (size_t i = 0; i < n; ++i) {
      out[i] = e4m3fn_decode(words[i] & 0xff);
      valid[i] = 1;
#if defined(NC_TEST_WRONG_BIT)
      if ((words[i] & 0xff) == 0x38) out[i] ^= 1u;
#endif
    }
    return NC_OK;
  }
  if (wt == NC_WT_W8_CODE) {
    for (size_t i = 0; i < n; ++i) {
      uint32_t u = words[i] & 0xff;
      valid[i] = u != 0x80;
      out[i] = u < 0x80 ? u : (uint32_t)((int32_t)u - 256);
    }
    return NC_OK;
  }
  return NC_EUNSUPPORTED;
}

static const nc_plugin_v1 kTable = {NC_PLUGIN_ABI_VERSION,
                                    "runner-test-plugin",
                                    NC_TEST_VARIANT,
                                    decode,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return &kTable; }
