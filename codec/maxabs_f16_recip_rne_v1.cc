// Spec 7, step by step. Host binary32 operations are used exactly where the spec names a
// binary32 RNE operation (amax / qmax, 1 / scale32, x * inv32): under SSE without fast-math or
// FMA contraction each is the single correctly rounded IEEE operation. Narrowing to binary16 and
// the integral rounding go through the codec's one rounding choke point (float_traits.h).
#include "codec/maxabs_f16_recip_rne_v1.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

#include "codec/float_traits.h"
#include "codec/grouped.h"

namespace nc::codec {

uint32_t source_to_f32(SourceType t, uint64_t w) {
  switch (t) {
    case SourceType::FP32:
      return uint32_t(w);
    case SourceType::BF16:
      return decode_to_f32<Bf16Traits>(uint32_t(w & 0xffff));
    case SourceType::F16:
      return decode_to_f32<F16Traits>(uint32_t(w & 0xffff));
    case SourceType::F64:
      // IEEE binary64 -> binary32 conversion (cvtsd2ss), RNE in the default environment.
      return std::bit_cast<uint32_t>(static_cast<float>(std::bit_cast<double>(w)));
  }
  return 0;
}

int64_t round_integral_rne(uint32_t f) {
  const uint32_t abs = f & 0x7fffffffu;
  const int e = int(abs >> 23) - 127;
  int64_t mag;
  if (e >= 23) {
    mag = e >= 30 ? (int64_t(1) << 31) : int64_t((abs & 0x7fffffu) | 0x800000u) << (e - 23);
  } else {
    const uint32_t sig = (abs >> 23) ? ((abs & 0x7fffffu) | 0x800000u) : abs;
    mag = rne_shift(sig, unsigned(std::min(23 - e, 26)));
  }
  return (f >> 31) ? -mag : mag;
}

namespace {
bool finite32(uint32_t f) { return (f & 0x7f800000u) != 0x7f800000u; }

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
}  // namespace

Result<Encoding> maxabs_f16_recip_rne_v1(Format fmt, SourceType t, std::span<const uint64_t> src, uint64_t rows,
                                         uint64_t k) {
  const std::string name(info(fmt).name);
  const auto scheme = grouped_scheme(fmt);
  if (!scheme)
    return Error{name, "", Rule::Unsupported,
                 "MAXABS_F16_RECIP_RNE_V1 encodes only the four grouped signed-integer schemes"};
  if (rows == 0 || k == 0 || src.size() != rows * k)
    return Error{name, "", Rule::Shape,
                 "need a positive [rows, k] matrix with rows*k source words; got rows=" + std::to_string(rows) +
                     " k=" + std::to_string(k) + " words=" + std::to_string(src.size())};
  const uint64_t G = scheme->group, groups_per_row = ceil_div(k, G);
  Encoding out;
  out.scales.assign(rows * groups_per_row, 0);
  out.codes.assign(rows * k, 0);
  out.trace.assign(rows * groups_per_row, {});
  out.normalized32.assign(rows * k, std::nullopt);

  // Every source is converted before group processing; any non-finite one fails the encoding.
  std::vector<uint32_t> x(src.size());
  for (size_t i = 0; i < src.size(); ++i) {
    x[i] = source_to_f32(t, src[i]);
    if (!finite32(x[i])) {
      out.failure = Error{name, "src[" + std::to_string(i / k) + "," + std::to_string(i % k) + "]", Rule::Nonfinite,
                          "source word " + hex(src[i]) + " is not finite binary32 after RNE conversion"};
      return out;
    }
  }

  const float qmax32 = float(scheme->qmax);
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t g = 0; g < groups_per_row; ++g) {
      const uint64_t gi = r * groups_per_row + g;
      const uint64_t begin = r * k + g * G, end = r * k + std::min(k, (g + 1) * G);
      GroupTrace& tr = out.trace[gi];
      // Finite non-negative binary32 values order like their bit patterns.
      uint32_t amax = 0;
      for (uint64_t i = begin; i < end; ++i) amax = std::max(amax, x[i] & 0x7fffffffu);
      tr.amax32 = amax;
      if (amax == 0) {
        tr.scale16 = 0;  // codes already 0
        continue;
      }
      const uint32_t raw = std::bit_cast<uint32_t>(std::bit_cast<float>(amax) / qmax32);
      tr.raw_scale32 = raw;
      uint32_t s16 = encode_rne<F16Traits, Overflow::ToInf>(raw);
      if (s16 == 0) s16 = 0x0001;  // 2^-24 underflow rescue
      tr.scale16 = s16;
      if (s16 == F16Traits::kInf) {
        out.failure = Error{name, "group[" + std::to_string(r) + "," + std::to_string(g) + "]", Rule::ScaleOverflow,
                            "raw_scale32 " + hex(raw) + " rounds to binary16 infinity"};
        return out;
      }
      out.scales[gi] = s16;
      const float scale32 = std::bit_cast<float>(decode_to_f32<F16Traits>(s16));
      const float inv32 = 1.0f / scale32;
      tr.inv32 = std::bit_cast<uint32_t>(inv32);
      for (uint64_t i = begin; i < end; ++i) {
        const uint32_t norm = std::bit_cast<uint32_t>(std::bit_cast<float>(x[i]) * inv32);
        out.normalized32[i] = norm;
        const int64_t q = round_integral_rne(norm);
        out.codes[i] = int32_t(std::clamp<int64_t>(q, scheme->qmin, scheme->qmax));
      }
    }
  }
  return out;
}

}  // namespace nc::codec
