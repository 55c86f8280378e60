#include "codec/blockscale_layout.h"

namespace nc::codec {

std::optional<BlockscalePlacement> blockscale_k16_m128x4_v1(uint64_t n, uint64_t k, uint64_t m, uint64_t j) {
  if (k % 16 != 0) return std::nullopt;  // spec 3.3: no partial final block (FORMAT.md "Layout refusals")
  const uint64_t blocks = k / 16;
  if (m >= n || j >= blocks) return std::nullopt;
  const uint64_t tiles_per_row = (blocks + 3) / 4, tile_rows = (n + 127) / 128;
  const uint64_t offset = ((m / 128) * tiles_per_row + j / 4) * 512 + (m % 32) * 16 + ((m % 128) / 32) * 4 + j % 4;
  return BlockscalePlacement{offset, tile_rows * tiles_per_row * 512};
}

}  // namespace nc::codec
