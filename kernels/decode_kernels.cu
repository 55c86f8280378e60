// Word decode, element reconstruction and whole-tensor dequantization kernels. One thread per
// element in a grid-stride loop; calls longer than kMaxElementsPerLaunch are batched.
#include "kernels/index_math.h"
#include "kernels/kernels.h"
#include "kernels/launch_geometry.h"
#include "kernels/reconstruct.cuh"
#include "kernels/word_decode.h"

namespace nc::kernels {
namespace {

__global__ void decode_kernel(nc_word_type wt, const uint32_t* words, uint32_t n, uint32_t* out, uint8_t* valid) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint32_t w = words[i];
    uint32_t r = 0;
    uint8_t ok = 1;
    switch (wt) {
      case NC_WT_BF16:
        r = bf16_to_f32_bits(w);
        break;
      case NC_WT_FP32:
      case NC_WT_I32:
        r = w;
        break;
      case NC_WT_F16:
        r = f16_to_f32_bits(w);
        break;
      case NC_WT_E4M3FN:
        r = e4m3fn_to_f32_bits(w);
        break;
      case NC_WT_E2M1:
        r = e2m1_to_f32_bits(w);
        break;
      case NC_WT_Q4_CODE:
        r = static_cast<uint32_t>(signed_code(w, 4));
        break;
      case NC_WT_Q5_CODE:
        r = static_cast<uint32_t>(signed_code(w, 5));
        break;
      case NC_WT_Q6_CODE:
        r = static_cast<uint32_t>(signed_code(w, 6));
        break;
      case NC_WT_W8_CODE:
        r = static_cast<uint32_t>(signed_code(w, 8));
        ok = (w & 0xffu) != 0x80u;  // -128 is outside the W8 language (spec 5)
        break;
    }
    out[i] = r;
    valid[i] = ok;
  }
}

__global__ void reconstruct_kernel(nc_format fmt, const uint32_t* code, const uint32_t* scale, const uint32_t* divisor,
                                   uint32_t n, uint32_t* out) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = reconstruct_bits(fmt, code[i], scale ? scale[i] : 0u, divisor ? divisor[i] : 0u);
}

// Element `first + i` of a rows x k tensor; `first` is the batch offset. Each thread walks its
// elements' (row, column) by additions (ElementWalk), so no element costs a division.
__global__ void dequantize_kernel(nc_format fmt, ScaleGeometry geo, uint64_t per_row, uint32_t group_shift,
                                  uint64_t first, const uint32_t* codes, const uint32_t* scales,
                                  const uint32_t* divisor, uint32_t n, uint32_t* out) {
  const uint32_t d = divisor ? *divisor : 0u;
  const uint32_t start = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  if (!scales) {  // a direct format: no scale to find, so no walk
    for (uint32_t i = start; i < n; i += stride) out[first + i] = reconstruct_bits(fmt, codes[first + i], 0u, 0u);
    return;
  }
  ElementWalk at = element_walk(geo.k, first + start, stride);
  for (uint32_t i = start; i < n; i += stride, advance(at)) {
    const uint64_t e = first + i;
    const uint32_t s = scales[scale_index_at(geo, per_row, group_shift, at.row, at.col)];
    out[e] = reconstruct_bits(fmt, codes[e], s, d);
  }
}

bool valid_word_type(nc_word_type wt) { return wt >= NC_WT_BF16 && wt <= NC_WT_W8_CODE; }
bool valid_format(nc_format f) { return f >= NC_FORMAT_BF16 && f <= NC_FORMAT_FP8_E4M3FN_ROW_BF16S; }

uint32_t group_of(nc_format f) {
  switch (f) {
    case NC_FORMAT_Q4G64_F16S:
    case NC_FORMAT_Q5G64_F16S:
    case NC_FORMAT_Q6G64_F16S:
      return 64;
    case NC_FORMAT_W8G32_F16S:
      return 32;
    case NC_FORMAT_NVFP4:
      return 16;
    default:
      return 0;  // FP8 row: one scale per row; direct formats: none
  }
}

}  // namespace

int launch_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  if (!valid_word_type(wt)) return NC_EUNSUPPORTED;
  for (uint64_t b = 0; b < batch_count(n); ++b) {
    const Batch bt = batch_at(n, b);
    const Grid g = grid_for(bt.count);
    decode_kernel<<<g.blocks, g.threads>>>(wt, words + bt.begin, static_cast<uint32_t>(bt.count), out + bt.begin,
                                           valid + bt.begin);
  }
  return NC_OK;
}

int launch_reconstruct(nc_format fmt, const uint32_t* code, const uint32_t* scale, const uint32_t* divisor, size_t n,
                       uint32_t* out) {
  if (!valid_format(fmt) || fmt <= NC_FORMAT_I32) return NC_EUNSUPPORTED;  // direct: use decode
  if (!scale || (fmt == NC_FORMAT_NVFP4 && !divisor)) return NC_EINVALID;
  for (uint64_t b = 0; b < batch_count(n); ++b) {
    const Batch bt = batch_at(n, b);
    const Grid g = grid_for(bt.count);
    reconstruct_kernel<<<g.blocks, g.threads>>>(fmt, code + bt.begin, scale + bt.begin,
                                                divisor ? divisor + bt.begin : nullptr, static_cast<uint32_t>(bt.count),
                                                out + bt.begin);
  }
  return NC_OK;
}

int launch_dequantize(nc_format fmt, size_t rows, size_t k, const uint32_t* codes, const uint32_t* scales,
                      const uint32_t* divisor, uint32_t* out) {
  if (!valid_format(fmt)) return NC_EUNSUPPORTED;
  if (k == 0) return NC_EINVALID;
  if (fmt == NC_FORMAT_NVFP4 && !divisor) return NC_EINVALID;
  const ScaleGeometry geo{k, group_of(fmt)};
  const uint64_t n = uint64_t{rows} * k;
  uint32_t group_shift = 0;
  while ((1u << group_shift) < geo.group) ++group_shift;  // 16, 32, 64: powers of two
  const bool direct = fmt <= NC_FORMAT_I32;
  for (uint64_t b = 0; b < batch_count(n); ++b) {
    const Batch bt = batch_at(n, b);
    const Grid g = grid_for(bt.count, kBlockThreads, direct ? kMaxBlocks : kWalkMaxBlocks);
    dequantize_kernel<<<g.blocks, g.threads>>>(fmt, geo, scales_per_row(geo), group_shift, bt.begin, codes,
                                               direct ? nullptr : scales, divisor, static_cast<uint32_t>(bt.count),
                                               out);
  }
  return NC_OK;
}

}  // namespace nc::kernels
