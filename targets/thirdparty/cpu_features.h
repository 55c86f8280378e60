// Run-time detection of the x86 conversion instructions the hardware adapters use. A feature
// counts only when the CPU reports it AND the OS saves the register state it needs (XGETBV).
//
// NC_THIRDPARTY_NO_X86_FEATURES=1 in the environment makes every check answer false, so the
// "target unavailable" path can be tested on a machine that has the instructions.
#pragma once

#include <cpuid.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace nc_tp {

inline bool x86_features_disabled_by_env() {
  const char* v = std::getenv("NC_THIRDPARTY_NO_X86_FEATURES");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

inline uint64_t xgetbv0() {
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

// XCR0 bits: 1 SSE, 2 AVX (YMM upper halves), 5-7 AVX-512 (opmask, ZMM upper, ZMM16-31).
inline bool os_saves(uint64_t mask) {
  uint32_t a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return false;
  return (xgetbv0() & mask) == mask;
}

// F16C: CPUID.1:ECX[29]; it uses VEX-encoded YMM/XMM registers, so AVX state must be enabled.
inline bool cpu_has_f16c() {
  if (x86_features_disabled_by_env()) return false;
  uint32_t a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  return (c & bit_F16C) && (c & bit_AVX) && os_saves(0x6);
}

// AVX512-BF16: CPUID.(7,1):EAX[5], plus AVX512F and AVX512VL (CPUID.(7,0):EBX[16], [31]).
inline bool cpu_has_avx512_bf16() {
  if (x86_features_disabled_by_env()) return false;
  uint32_t a, b, c, d;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 0, a, b, c, d);
  const bool f_vl = (b & (1u << 16)) && (b & (1u << 31));
  __cpuid_count(7, 1, a, b, c, d);
  return f_vl && (a & (1u << 5)) && os_saves(0xe6);
}

// The static targets of Google Highway that its plugins are compiled for (hwy/detect_targets.h,
// 1.0.3): SSE4 needs SSSE3, SSE4.1, SSE4.2, PCLMULQDQ and AES-NI; AVX2 adds AVX2, BMI, BMI2, FMA
// and F16C, with the AVX register state saved by the OS.
enum class HwyTarget { SSE4, AVX2 };
inline bool cpu_has_hwy_target(HwyTarget target) {
  if (x86_features_disabled_by_env()) return false;
  uint32_t a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const bool sse4 = (c & bit_SSSE3) && (c & bit_SSE4_1) && (c & bit_SSE4_2) && (c & bit_PCLMUL) && (c & bit_AES);
  if (target == HwyTarget::SSE4 || !sse4) return sse4;
  const bool vex = (c & bit_AVX) && (c & bit_FMA) && (c & bit_F16C) && os_saves(0x6);
  if (!vex || __get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 0, a, b, c, d);
  return (b & bit_AVX2) && (b & bit_BMI) && (b & bit_BMI2);
}

// Says once, on stderr, why a hardware target reports every entry point unsupported.
inline void report_unavailable(const char* target, const char* feature) {
  static bool said = false;
  if (said) return;
  said = true;
  std::fprintf(stderr,
               "%s: this CPU (or OS) lacks %s; target unavailable, every entry point "
               "returns NC_EUNSUPPORTED\n",
               target, feature);
}

}  // namespace nc_tp
