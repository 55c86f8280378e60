#include "oracle/blockscale_layout.h"

#include <array>

namespace nc::oracle {
namespace {

// One mode of a layout: a coordinate range of `extent`, advancing `stride` bytes per step.
struct Mode {
  uint64_t extent, stride;
};

// A coordinate along one axis split over modes, innermost first (mixed radix, like CuTe's
// colexicographic order): mode i takes (x / product of earlier extents) % extent_i.
template <size_t N>
uint64_t walk(const std::array<Mode, N>& modes, uint64_t x, std::array<uint64_t, N>* digits) {
  uint64_t offset = 0;
  for (size_t i = 0; i < N; ++i) {
    (*digits)[i] = x % modes[i].extent;
    offset += (*digits)[i] * modes[i].stride;
    x /= modes[i].extent;
  }
  return offset;
}

constexpr uint64_t kTileRows = 128, kTileColumns = 4, kGroupRows = 32, kLineBytes = 16;
constexpr uint64_t kTileBytes = kTileRows * kTileColumns;  // 512: one byte per scale

}  // namespace

std::string_view blockscale_k16_m128x4_v1_refusal(uint64_t n, uint64_t k, uint64_t m, uint64_t j) {
  if (n == 0 || k == 0 || k % 16 != 0) return "shape";
  if (m >= n || j >= k / 16) return "index";
  return "";
}

std::optional<BlockscalePosition> blockscale_k16_m128x4_v1(uint64_t n, uint64_t k, uint64_t m, uint64_t j) {
  if (!blockscale_k16_m128x4_v1_refusal(n, k, m, j).empty()) return std::nullopt;
  const uint64_t blocks = k / 16;
  const uint64_t tile_grid_rows = n / kTileRows + (n % kTileRows != 0);
  const uint64_t tile_grid_columns = blocks / kTileColumns + (blocks % kTileColumns != 0);
  // Row axis: row within group (a 16-byte line each), group within tile (4 bytes each), then
  // tile row of the grid (a whole row of tiles each).
  const std::array<Mode, 3> row_modes{{{kGroupRows, kLineBytes},
                                       {kTileRows / kGroupRows, kTileColumns},
                                       {tile_grid_rows, tile_grid_columns * kTileBytes}}};
  // Column axis: block column within tile (1 byte each), then tile column (a whole tile each).
  const std::array<Mode, 2> column_modes{{{kTileColumns, 1}, {tile_grid_columns, kTileBytes}}};
  std::array<uint64_t, 3> r{};
  std::array<uint64_t, 2> c{};
  const uint64_t offset = walk(row_modes, m, &r) + walk(column_modes, j, &c);
  return BlockscalePosition{
      offset, tile_grid_rows * tile_grid_columns * kTileBytes, r[2] * tile_grid_columns + c[1], r[0], r[1], c[0]};
}

}  // namespace nc::oracle
