// The oracle's blockscale-k16-m128x4-v1 derivation against two independent checks: offsets worked
// by hand from the tile description, and the closed formula of issue 13 (the cuBLAS documentation's
// 128x4 tile); plus the layout's defining property: a bijection of the padded scale matrix onto
// [0, plane_bytes), padding included.
#include <catch2/catch.hpp>

#include <vector>

#include "oracle/blockscale_layout.h"

using nc::oracle::blockscale_k16_m128x4_v1;

TEST_CASE("blockscale layout: hand-worked offsets", "[oracle][layout]") {
  // [1, 16]: one scale, one whole tile of 512 bytes.
  auto p = blockscale_k16_m128x4_v1(1, 16, 0, 0);
  REQUIRE(p);
  CHECK(p->offset == 0);
  CHECK(p->plane_bytes == 512);
  // Row 1 is line 1 (byte 16); row 32 is line 0, group 1 (byte 4); column 3 is byte 3 of its group.
  CHECK(blockscale_k16_m128x4_v1(128, 64, 1, 0)->offset == 16);
  CHECK(blockscale_k16_m128x4_v1(128, 64, 32, 0)->offset == 4);
  CHECK(blockscale_k16_m128x4_v1(128, 64, 127, 3)->offset == 31 * 16 + 3 * 4 + 3);
  // [129, 80]: 5 block columns -> 2 tiles per tile row, 2 tile rows, plane 2048; (128, 4) is the
  // first scale of tile 3.
  p = blockscale_k16_m128x4_v1(129, 80, 128, 4);
  REQUIRE(p);
  CHECK(p->offset == 3 * 512);
  CHECK(p->plane_bytes == 2048);
  CHECK(p->tile == 3);
  // Outside the scale matrix.
  CHECK_FALSE(blockscale_k16_m128x4_v1(129, 80, 129, 0));
  CHECK_FALSE(blockscale_k16_m128x4_v1(129, 80, 0, 5));
  // Refusals (FORMAT.md "Layout refusals"): K not a multiple of 16 is a shape refusal whatever the
  // coordinate (spec 3.3: no partial final block); a coordinate outside the logical scale matrix,
  // even inside the padded tile, is an index refusal.
  CHECK(nc::oracle::blockscale_k16_m128x4_v1_refusal(1, 17, 0, 0) == "shape");
  CHECK(nc::oracle::blockscale_k16_m128x4_v1_refusal(1, 8, 0, 0) == "shape");
  CHECK(nc::oracle::blockscale_k16_m128x4_v1_refusal(0, 16, 0, 0) == "shape");
  CHECK_FALSE(blockscale_k16_m128x4_v1(2, 33, 0, 0));
  CHECK(nc::oracle::blockscale_k16_m128x4_v1_refusal(129, 80, 129, 0) == "index");
  CHECK(nc::oracle::blockscale_k16_m128x4_v1_refusal(129, 80, 255, 0) == "index");  // the padded tile's last row
  CHECK(nc::oracle::blockscale_k16_m128x4_v1_refusal(1, 16, 0, 3) == "index");      // the padded tile's last column
  CHECK(nc::oracle::blockscale_k16_m128x4_v1_refusal(129, 80, 128, 4).empty());
}

TEST_CASE("blockscale layout: a bijection onto the padded plane, equal to the closed formula", "[oracle][layout]") {
  for (auto [n, k] : std::vector<std::pair<uint64_t, uint64_t>>{{1, 16}, {33, 48}, {129, 80}, {300, 272}, {256, 128}}) {
    const uint64_t blocks = k / 16, c = (blocks + 3) / 4, tile_rows = (n + 127) / 128;
    const uint64_t plane = tile_rows * c * 512;
    std::vector<int> hits(plane, 0);
    // Every coordinate of the padded matrix: the real ones from the oracle, the padding from the
    // formula, so the two together must cover the plane exactly once.
    for (uint64_t m = 0; m < tile_rows * 128; ++m)
      for (uint64_t j = 0; j < c * 4; ++j) {
        const uint64_t formula = ((m / 128) * c + j / 4) * 512 + (m % 32) * 16 + ((m % 128) / 32) * 4 + j % 4;
        REQUIRE(formula < plane);
        ++hits[formula];
        if (m < n && j < blocks) {
          auto p = blockscale_k16_m128x4_v1(n, k, m, j);
          REQUIRE(p);
          CHECK(p->offset == formula);
          CHECK(p->plane_bytes == plane);
        }
      }
    for (int h : hits) REQUIRE(h == 1);
  }
}
