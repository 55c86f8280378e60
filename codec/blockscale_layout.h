// NVFP4 block-scale layout blockscale-k16-m128x4-v1 (registered in spec section 2; its bytes are
// owned by the layout registry): the public cuBLAS/CUTLASS 128x4 scale-factor tile for 1D block
// scaling with 16-element blocks. Scale (m, j) of the [N, ceil_div(K, 16)] scale matrix lives at
//   ((m / 128) * C + j / 4) * 512 + (m % 32) * 16 + ((m % 128) / 32) * 4 + j % 4,
// C = ceil_div(ceil_div(K, 16), 4) tiles per row of tiles; the plane holds every whole tile.
#pragma once

#include <cstdint>
#include <optional>

namespace nc::codec {

struct BlockscalePlacement {
  uint64_t offset;       // byte offset of the scale word in the scale plane
  uint64_t plane_bytes;  // the plane's size: ceil_div(N, 128) * C * 512
};

// nullopt when (m, j) is outside the [n, ceil_div(k, 16)] scale matrix.
std::optional<BlockscalePlacement> blockscale_k16_m128x4_v1(uint64_t n, uint64_t k, uint64_t m, uint64_t j);

}  // namespace nc::codec
