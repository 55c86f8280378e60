// x86 AVX512-BF16 VCVTNEPS2BF16 (binary32 -> bfloat16), detected at run time via CPUID. The one
// function that uses the instruction carries a target attribute; the rest of the file is baseline
// x86-64, so loading the plugin on any CPU is safe.
//
// Conventions of the instruction (Intel SDM, VCVTNEPS2BF16): round to nearest even regardless of
// MXCSR; denormal inputs are treated as zero and denormal results flushed to zero (DAZ/FTZ
// behaviour fixed by the instruction, not by MXCSR); NaN -> quiet NaN. So it implements RNE with
// flush-to-zero, not the gradual-underflow F32_TO_BF16_RNE of docs/recipes.md: its certificate
// lists the subnormal cases it departs on. The ISA has no bfloat16 -> binary32 instruction (that
// is a shift), so decode is not provided.
#include <immintrin.h>

#include <cstring>

#include "adapter.h"
#include "cpu_features.h"

namespace {

constexpr const char* kName = "x86-avx512bf16-vcvtneps2bf16";

// Full blocks of 16 go straight through; the tail goes through a zero-padded local block, so no
// masked load or store is needed.
__attribute__((target("avx512f,avx512vl,avx512bf16"))) void cvtneps2bf16(const uint32_t* src, size_t n, uint32_t* out) {
  for (size_t i = 0; i < n; i += 16) {
    const size_t m = n - i < 16 ? n - i : 16;
    alignas(64) uint32_t in_block[16] = {};
    alignas(32) uint16_t out_block[16];
    std::memcpy(in_block, src + i, m * sizeof(uint32_t));
    const __m512 x = _mm512_castsi512_ps(_mm512_load_si512(in_block));
    const __m256i h = reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(x));
    _mm256_store_si256(reinterpret_cast<__m256i*>(out_block), h);
    for (size_t j = 0; j < m; ++j) out[i + j] = out_block[j];
  }
}

int convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  static const bool has = nc_tp::cpu_has_avx512_bf16();
  if (!has) {
    nc_tp::report_unavailable(kName, "AVX512-BF16 (with AVX512F and AVX512VL)");
    return NC_EUNSUPPORTED;
  }
  if (recipe != NC_RECIPE_F32_TO_BF16_RNE) return NC_EUNSUPPORTED;
  if (n != 0 && (src == nullptr || out == nullptr)) return NC_EINVALID;
  cvtneps2bf16(src, n, out);
  return NC_OK;
}

constexpr nc_plugin_v1 kTable = nc_tp::scalar_table(kName, NC_TP_VERSION, nullptr, convert);

}  // namespace

NC_TP_EXPORT const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return &kTable; }
