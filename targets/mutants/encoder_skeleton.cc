#include "targets/mutants/encoder_skeleton.h"

#include <cmath>
#include <vector>

#include "targets/mutants/mutant.h"
#include "targets/mutants/words.h"

namespace nc::mutants {

bool source_to_binary32(nc_source_type type, uint64_t word, float* out) {
  switch (type) {
    case NC_SRC_FP32:
      *out = f32_from_bits(uint32_t(word));
      break;
    case NC_SRC_BF16:
      *out = bf16_value(uint32_t(word));
      break;
    case NC_SRC_F16:
      *out = float(f16_value(uint16_t(word)));
      break;  // exact
    case NC_SRC_F64:
      *out = float(f64_from_bits(word));
      break;  // one RNE rounding
    default:
      return false;
  }
  return std::isfinite(*out);
}

int32_t quantize_rne_then_clamp(float normalized32, int qmin, int qmax) {
  // NaN cannot arise from the spec's steps; a mutant that lets one through gets code 0 rather
  // than undefined behaviour from converting NaN to an integer.
  if (std::isnan(normalized32)) return 0;
  const float r = std::nearbyint(normalized32);  // default environment: ties to even
  if (r < float(qmin)) return qmin;
  if (r > float(qmax)) return qmax;
  return int32_t(r);
}

void spec_interval(nc_format fmt, int* qmin, int* qmax) {
  switch (fmt) {
    case NC_FORMAT_Q4G64_F16S:
      *qmin = -8, *qmax = 7;
      break;
    case NC_FORMAT_Q5G64_F16S:
      *qmin = -16, *qmax = 15;
      break;
    case NC_FORMAT_Q6G64_F16S:
      *qmin = -32, *qmax = 31;
      break;
    default:
      *qmin = -127, *qmax = 127;
      break;
  }
}

namespace {
float amax_abs(const float* x, size_t n) {
  float m = 0.0f;
  for (size_t i = 0; i < n; ++i)
    if (std::fabs(x[i]) > m) m = std::fabs(x[i]);
  return m;
}
float raw_scale_over_qmax(float amax, int, int qmax) { return amax / float(qmax); }
uint16_t scale16_rne(float raw, float, int) { return f32_to_f16_rne(raw); }
uint16_t rescue_zero(uint16_t s) { return s == 0 ? uint16_t(0x0001) : s; }
bool finite_positive(uint16_t s) { return !(s & 0x8000u) && (s & 0x7c00u) != 0x7c00u && s != 0; }
float times_reciprocal(float x, float, float inv32) { return x * inv32; }

bool is_grouped(nc_format f) {
  return f == NC_FORMAT_Q4G64_F16S || f == NC_FORMAT_Q5G64_F16S || f == NC_FORMAT_Q6G64_F16S ||
         f == NC_FORMAT_W8G32_F16S;
}
}  // namespace

EncoderSteps canonical_steps() {
  return {source_to_binary32, amax_abs,         raw_scale_over_qmax,     scale16_rne,   rescue_zero,
          finite_positive,    times_reciprocal, quantize_rne_then_clamp, spec_interval, false};
}

int encode_with(const EncoderSteps& st, nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows,
                size_t k, uint32_t* scales, int32_t* codes, uint32_t* trace, int32_t* outcome) {
  if (!is_grouped(fmt) || rows == 0 || k == 0 || src_type > NC_SRC_F64) {
    if (!base().encode) return NC_EUNSUPPORTED;
    return base().encode(fmt, src_type, src, rows, k, scales, codes, trace, outcome);
  }
  const size_t g = fmt == NC_FORMAT_W8G32_F16S ? 32 : 64;
  const size_t groups = (k + g - 1) / g;
  int qmin, qmax;
  st.interval(fmt, &qmin, &qmax);

  std::vector<float> x(rows * k);
  for (size_t i = 0; i < rows * k; ++i)
    if (!st.to_binary32(src_type, src[i], &x[i])) return *outcome = NC_ENCODE_FAIL_NONFINITE, NC_OK;

  std::vector<float> buffer(g, 0.0f);  // one group's values, reused group after group
  for (size_t r = 0; r < rows; ++r) {
    for (size_t gi = 0; gi < groups; ++gi) {
      const size_t begin = gi * g, n = (k - begin < g) ? k - begin : g;
      const float* xs = &x[r * k + begin];
      for (size_t i = 0; i < n; ++i) buffer[i] = xs[i];
      const float amax = st.amax(buffer.data(), st.amax_over_whole_buffer ? g : n);
      uint32_t* tr = trace ? trace + 4 * (r * groups + gi) : nullptr;
      int32_t* cs = codes + r * k + begin;
      uint32_t& scale_word = scales[r * groups + gi];
      if (tr) tr[0] = bits_of(amax), tr[1] = tr[2] = tr[3] = 0;
      if (amax == 0.0f) {
        scale_word = 0;
        for (size_t i = 0; i < n; ++i) cs[i] = 0;
        continue;
      }
      const float raw = st.raw_scale(amax, qmin, qmax);
      const uint16_t s16 = st.rescue(st.scale16(raw, amax, qmax));
      if (tr) tr[1] = bits_of(raw), tr[2] = s16;
      if (!st.scale_storable(s16)) return *outcome = NC_ENCODE_FAIL_SCALE_OVERFLOW, NC_OK;
      const float scale32 = float(f16_value(s16));
      const float inv32 = 1.0f / scale32;
      if (tr) tr[3] = bits_of(inv32);
      scale_word = s16;
      for (size_t i = 0; i < n; ++i) cs[i] = st.quantize(st.normalize(xs[i], scale32, inv32), qmin, qmax);
    }
  }
  *outcome = NC_ENCODE_OK;
  return NC_OK;
}

}  // namespace nc::mutants
