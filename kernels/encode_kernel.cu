// The canonical encoder kernel: one group (encode_group.cuh) per thread.
#include "kernels/encode_group.cuh"
#include "kernels/index_math.h"
#include "kernels/kernels.h"
#include "kernels/launch_geometry.h"

namespace nc::kernels {
namespace {

__global__ void encode_kernel(CodeRange cr, nc_source_type st, const uint64_t* src, uint64_t rows, uint64_t k,
                              uint32_t* scales, int32_t* codes, uint32_t* flags) {
  const ScaleGeometry geo{k, cr.group};
  const uint64_t per_row = scales_per_row(geo), total = rows * per_row;
  for (uint64_t gi = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; gi < total;
       gi += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t row = gi / per_row, g = gi % per_row;
    const uint64_t begin = row * k + g * cr.group;
    const uint32_t f = encode_group(cr, st, src + begin, group_length(geo, g), codes + begin, scales + gi);
    if (f) atomicOr(flags, f);
  }
}

}  // namespace

int launch_encode(nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows, size_t k, uint32_t* scales,
                  int32_t* codes, uint32_t* flags) {
  CodeRange cr;
  switch (fmt) {
    case NC_FORMAT_Q4G64_F16S:
      cr = {-8, 7, 64};
      break;
    case NC_FORMAT_Q5G64_F16S:
      cr = {-16, 15, 64};
      break;
    case NC_FORMAT_Q6G64_F16S:
      cr = {-32, 31, 64};
      break;
    case NC_FORMAT_W8G32_F16S:
      cr = {-127, 127, 32};
      break;
    default:
      return NC_EUNSUPPORTED;  // spec 7: the four grouped signed-integer schemes only
  }
  if (src_type < NC_SRC_FP32 || src_type > NC_SRC_F64) return NC_EUNSUPPORTED;
  if (rows == 0 || k == 0) return NC_EINVALID;
  const uint64_t groups = uint64_t{rows} * ceil_div(k, cr.group);
  const Grid g = grid_for(groups, 128);
  encode_kernel<<<g.blocks, g.threads>>>(cr, src_type, src, rows, k, scales, codes, flags);
  return NC_OK;
}

}  // namespace nc::kernels
