// Google Highway's vector float conversions, compiled for ONE static target chosen by this file's
// compile flags (targets/thirdparty/CMakeLists.txt builds it twice: SSE4 and AVX2), so that the
// certificate names the code path it judged instead of whatever a run-time dispatcher picks on the
// machine at hand. Only highway.cc calls in here, after checking that the CPU has the target.
//
// Requests go through the ops a Highway user writes for these types (hwy/ops/*-inl.h):
// PromoteTo(f32, bf16 or f16 vector) to decode, DemoteTo(bf16 or f16 tag, f32 vector) to convert.
// Inputs are padded to whole vectors with zero words; padding results are discarded.
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "adapter.h"

namespace hn = hwy::HWY_NAMESPACE;

namespace {

const hn::ScalableTag<float> kF32;
const hn::Rebind<hwy::bfloat16_t, decltype(kF32)> kBF16;
const hn::Rebind<hwy::float16_t, decltype(kF32)> kF16;
const hn::Rebind<uint32_t, decltype(kF32)> kU32;
constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);

// Narrow words (bf16 or f16) -> binary32 words, one vector at a time.
template <class D16>
void promote_words(D16 d16, const uint32_t* in, size_t n, uint32_t* out) {
  using T16 = hn::TFromD<D16>;
  const size_t lanes = hn::Lanes(kF32);
  HWY_ALIGN T16 narrow[kMaxLanes];
  HWY_ALIGN uint32_t wide[kMaxLanes];
  for (size_t i = 0; i < n; i += lanes) {
    const size_t k = std::min(lanes, n - i);
    for (size_t j = 0; j < lanes; ++j) {
      const uint16_t bits = j < k ? static_cast<uint16_t>(in[i + j]) : 0;
      std::memcpy(&narrow[j], &bits, sizeof bits);
    }
    hn::Store(hn::BitCast(kU32, hn::PromoteTo(kF32, hn::Load(d16, narrow))), kU32, wide);
    std::copy(wide, wide + k, out + i);
  }
}

// binary32 words -> narrow words, one vector at a time.
template <class D16>
void demote_words(D16 d16, const uint32_t* in, size_t n, uint32_t* out) {
  using T16 = hn::TFromD<D16>;
  const size_t lanes = hn::Lanes(kF32);
  HWY_ALIGN uint32_t wide[kMaxLanes];
  HWY_ALIGN T16 narrow[kMaxLanes];
  for (size_t i = 0; i < n; i += lanes) {
    const size_t k = std::min(lanes, n - i);
    for (size_t j = 0; j < lanes; ++j) wide[j] = j < k ? in[i + j] : 0;
    hn::Store(hn::DemoteTo(d16, hn::BitCast(kF32, hn::Load(kU32, wide))), d16, narrow);
    for (size_t j = 0; j < k; ++j) {
      uint16_t bits;
      std::memcpy(&bits, &narrow[j], sizeof bits);
      out[i + j] = bits;
    }
  }
}

}  // namespace

int nc_tp_hwy_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  if (n != 0 && (words == nullptr || out == nullptr)) return NC_EINVALID;
  switch (wt) {
    case NC_WT_BF16:
      promote_words(kBF16, words, n, out);
      break;
    case NC_WT_F16:
      promote_words(kF16, words, n, out);
      break;
    default:
      return NC_EUNSUPPORTED;
  }
  if (valid != nullptr) std::fill(valid, valid + n, uint8_t{1});
  return NC_OK;
}

int nc_tp_hwy_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (n != 0 && (src == nullptr || out == nullptr)) return NC_EINVALID;
  switch (recipe) {
    case NC_RECIPE_F32_TO_BF16_RNE:
      demote_words(kBF16, src, n, out);
      return NC_OK;
    case NC_RECIPE_F32_TO_F16_RNE:
      demote_words(kF16, src, n, out);
      return NC_OK;
    default:
      return NC_EUNSUPPORTED;
  }
}
