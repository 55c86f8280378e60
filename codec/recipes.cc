#include "codec/recipes.h"

namespace nc::codec {
namespace {
// encode_rne is branch-free; its per-lane variable shifts vectorize with AVX2 (vpsrlvd), so
// the loop is cloned for AVX2 and chosen at load time (baseline x86-64 otherwise), and this file
// is built with -O3 so GCC's vectorizer runs with its dynamic cost model. Integer code only: the
// clone cannot change a result. (Clang 14, used by the asan preset, cannot clone templates.)
template <uint32_t (*F)(uint32_t)>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void loop(const uint32_t* __restrict src, size_t n, uint32_t* __restrict out) {
  for (size_t i = 0; i < n; ++i) out[i] = F(src[i]);
}
}  // namespace

uint32_t convert(Recipe r, uint32_t f) {
  uint32_t out;
  convert_batch(r, &f, 1, &out);
  return out;
}

void convert_batch(Recipe r, const uint32_t* src, size_t n, uint32_t* out) {
  switch (r) {
    case Recipe::F32_TO_BF16_RNE:
      return loop<f32_to_bf16_rne>(src, n, out);
    case Recipe::F32_TO_F16_RNE:
      return loop<f32_to_f16_rne>(src, n, out);
    case Recipe::F32_TO_E4M3FN_RNE_SATFINITE:
      return loop<f32_to_e4m3fn_rne_satfinite>(src, n, out);
    case Recipe::F32_TO_E4M3FN_RNE_OVF_NAN:
      return loop<f32_to_e4m3fn_rne_ovf_nan>(src, n, out);
    case Recipe::F32_TO_E2M1_RNE_SATFINITE:
      return loop<f32_to_e2m1_rne_satfinite>(src, n, out);
  }
}

}  // namespace nc::codec
