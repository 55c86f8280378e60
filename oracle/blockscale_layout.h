// NVFP4 block-scale layout blockscale-k16-m128x4-v1, derived from its tile description (the
// public cuBLAS/CUTLASS scale-factor tile for 1D block scaling with 16-element blocks; the layout
// registry owns the bytes, spec section 2):
//   - the scale matrix of a logical [N, K] NVFP4 matrix is [N, ceil_div(K, 16)] E4M3FN words, one
//     byte each;
//   - it is padded to whole tiles of 128 rows x 4 block columns; a tile is 512 contiguous bytes,
//     and tiles are stored row-major over the grid of tiles;
//   - inside a tile the 128 rows form 4 groups of 32 (rows 0-31, 32-63, 64-95, 96-127); the tile
//     is 32 lines of 16 bytes, line i holding row i of each group in group order, each row's 4
//     block columns in column order.
// The oracle evaluates this as a nested (hierarchical) layout, each level a list of
// (extent, stride) modes walked with a mixed-radix decomposition of the coordinate, rather than
// as one closed formula, so an error in either shows up as a disagreement with codec/.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace nc::oracle {

struct BlockscalePosition {
  uint64_t offset;                     // byte offset of scale (m, j) in the plane
  uint64_t plane_bytes;                // bytes of the padded plane: every whole tile
  uint64_t tile, line, group, column;  // where it sits: tile index, 16-byte line, row group, byte in group
};

// The refusal of a request, or "" when the scale (m, j) of an [n, k] matrix has a position:
// "shape" when n or k is 0 or k is not a multiple of 16 (spec 3.3: every K-axis group holds 16
// codes, so there is no partial final block to lay out), else "index" when m >= n or j >= k / 16
// (a coordinate outside the logical scale matrix). FORMAT.md "Layout refusals".
std::string_view blockscale_k16_m128x4_v1_refusal(uint64_t n, uint64_t k, uint64_t m, uint64_t j);

// nullopt exactly when blockscale_k16_m128x4_v1_refusal is not "".
std::optional<BlockscalePosition> blockscale_k16_m128x4_v1(uint64_t n, uint64_t k, uint64_t m, uint64_t j);

}  // namespace nc::oracle
