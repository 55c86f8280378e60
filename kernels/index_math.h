// Where an element's scale lives (spec sections 3.3, 3.4, 4): groups run along the last axis K and
// never cross a row, so element i of a row-major [rows, K] tensor owns scale
// row * ceil_div(K, G) + (i % K) / G for grouped formats and NVFP4 (G = 16), and scale `row` for
// FP8_E4M3FN_ROW_BF16S (one multiplier per row).
#pragma once
#include <cstddef>
#include <cstdint>

#include "hd.h"

namespace nc::kernels {

NC_HD uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Scale geometry of a format: group along K, or 0 for one scale per row.
struct ScaleGeometry {
  uint64_t k;      // logical extent of the last axis
  uint32_t group;  // elements per scale along K; 0 = one scale per row
};

NC_HD uint64_t scales_per_row(ScaleGeometry g) { return g.group == 0 ? 1 : ceil_div(g.k, g.group); }

NC_HD uint64_t scale_index(ScaleGeometry g, uint64_t element) {
  const uint64_t row = element / g.k;
  if (g.group == 0) return row;
  return row * ceil_div(g.k, g.group) + (element % g.k) / g.group;
}

// A grid-stride loop visits elements first, first + stride, first + 2 * stride, ... of a row-major
// [rows, K] tensor. ElementWalk keeps the visited element's row and column by additions, so a thread
// divides once when it starts instead of at every element: a GPU divides integers in software, and
// per-element divisions held the dequantize kernels to a fifth of copy bandwidth on an H200.
struct ElementWalk {
  uint64_t k, step_rows, step_cols;  // stride = step_rows * k + step_cols, step_cols < k
  uint64_t row, col;                 // of the element visited now
};

NC_HD ElementWalk element_walk(uint64_t k, uint64_t first, uint64_t stride) {
  return ElementWalk{k, stride / k, stride % k, first / k, first % k};
}

NC_HD void advance(ElementWalk& w) {
  w.row += w.step_rows;
  w.col += w.step_cols;
  if (w.col >= w.k) {
    w.col -= w.k;
    ++w.row;
  }
}

// scale_index of the element at (row, col), given per_row = scales_per_row(g) and
// group_shift = log2(g.group): the registry's groups (16, 32, 64) are powers of two.
NC_HD uint64_t scale_index_at(ScaleGeometry g, uint64_t per_row, uint32_t group_shift, uint64_t row, uint64_t col) {
  return g.group == 0 ? row : row * per_row + (col >> group_shift);
}

// Number of elements in group `g_in_row` of a row (the last group may be partial, spec 4).
NC_HD uint64_t group_length(ScaleGeometry g, uint64_t g_in_row) {
  const uint64_t begin = g_in_row * g.group;
  const uint64_t end = begin + g.group < g.k ? begin + g.group : g.k;
  return end - begin;
}

// NVFP4 block scales in layout blockscale-k16-m128x4-v1 (cuBLAS/CUTLASS 1D block scaling,
// 16-element blocks): the [rows, ceil_div(k, 16)] scale matrix is padded to whole 128x4 tiles of
// 512 bytes, stored tile-row by tile-row; inside a tile, row r's 4 scales share a 16-byte line with
// rows r+32, r+64, r+96 (line r % 32, 4-byte slot (r % 128) / 32).
struct BlockscaleTiles {
  uint64_t blocks;         // scale columns: ceil_div(k, 16)
  uint64_t tiles_per_row;  // ceil_div(blocks, 4)
  uint64_t plane_bytes;    // ceil_div(rows, 128) * tiles_per_row * 512
};

NC_HD BlockscaleTiles blockscale_tiles(uint64_t rows, uint64_t k) {
  const uint64_t blocks = ceil_div(k, 16), per_row = ceil_div(blocks, 4);
  return {blocks, per_row, ceil_div(rows, 128) * per_row * 512};
}

NC_HD uint64_t blockscale_offset(BlockscaleTiles t, uint64_t row, uint64_t block) {
  const uint64_t tile = (row / 128) * t.tiles_per_row + block / 4;
  return tile * 512 + (row % 32) * 16 + ((row % 128) / 32) * 4 + block % 4;
}

}  // namespace nc::kernels
