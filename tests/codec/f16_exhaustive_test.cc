// Long test (ctest label "long"): F32_TO_F16_RNE on all 2^32 binary32 inputs against the x86
// F16C instruction vcvtps2ph in round-to-nearest-even mode, an independent implementation of
// the same IEEE conversion (it quiets NaNs by truncating the payload and setting the quiet bit,
// as docs/recipes.md defines).
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "codec/recipes.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("f16c"))) static void f16c_convert(const uint32_t* in, size_t n, uint32_t* out) {
  for (size_t i = 0; i + 4 <= n; i += 4) {
    const __m128 v = _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)));
    const __m128i h = _mm_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
    alignas(16) uint16_t r[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(r), h);
    for (int j = 0; j < 4; ++j) out[i + j] = r[j];
  }
}

TEST_CASE("F32_TO_F16_RNE equals F16C vcvtps2ph on every binary32", "[codec][recipe][long]") {
  unsigned eax, ebx, ecx, edx;  // cpuid, not __builtin_cpu_supports("f16c"), which clang 14 lacks
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & bit_F16C)) {
    WARN("no F16C on this CPU: exhaustive comparison skipped");
    return;
  }
  const size_t N = 1 << 16;
  std::vector<uint32_t> in(N), ours(N), ref(N);
  uint64_t mismatches = 0;
  for (uint64_t base = 0; base < (1ull << 32); base += N) {
    for (size_t i = 0; i < N; ++i) in[i] = uint32_t(base + i);
    nc::codec::convert_batch(nc::codec::Recipe::F32_TO_F16_RNE, in.data(), N, ours.data());
    f16c_convert(in.data(), N, ref.data());
    for (size_t i = 0; i < N; ++i)
      if (ours[i] != ref[i] && ++mismatches <= 5)
        FAIL_CHECK("x=0x" << std::hex << in[i] << " codec 0x" << ours[i] << " f16c 0x" << ref[i]);
  }
  CHECK(mismatches == 0);
}
#endif
