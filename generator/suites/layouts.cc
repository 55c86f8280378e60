// layout.NVFP4.blockscale-k16-m128x4-v1: where each NVFP4 block scale sits in the registered scale
// layout (spec 2 registers it; spec 12 asks for "known block-scale swizzle offsets"). Per logical
// shape [N, K]: every scale of small and tile-straddling shapes, the edge rows (row groups of 32,
// tiles of 128, the last row) crossed with the edge block columns (tiles of 4, the last column),
// every scale of the last (padded) tile, and seeded samples of large model shapes; and the
// refusals: K not a multiple of 16 (!shape, spec 3.3: every K-axis group holds 16 code words) and
// coordinates outside the logical scale matrix (!index). Expected offsets, plane sizes and
// refusals from oracle/blockscale_layout.h.
#include <set>
#include <stdexcept>

#include "generator/suites/common.h"
#include "oracle/blockscale_layout.h"

namespace nc::gen {
namespace {

SuiteInfo layout_info() {
  SuiteInfo s{"layout.NVFP4.blockscale-k16-m128x4-v1",
              "layout NVFP4 blockscale-k16-m128x4-v1",
              "Byte offsets of NVFP4 block scales in layout blockscale-k16-m128x4-v1 (the cuBLAS/CUTLASS 128x4 "
              "scale-factor tile, 512 bytes) and the padded plane size, per logical shape.",
              "2, 3.3, 12",
              {},
              {}};
  s.tags = {
      {"row-group-edge",
       "a row on either side of a 32-row group boundary inside a tile: catches rows laid out "
       "linearly instead of interleaved by groups of 32."},
      {"tile-edge",
       "a row or block column on either side of a tile boundary (128 rows, 4 columns): catches a wrong "
       "tile size or tile order."},
      {"last-tile", "a scale of the last tile of the plane: catches a wrong tile count per row or column."},
      {"padded", "a shape whose scale matrix is not whole tiles: catches unpadded row strides and plane sizes."},
      {"whole-shape", "every scale of a small shape: catches any permutation error in one or two tiles."},
      {"random", "a seeded sample of a model-sized shape (SplitMix64): broad coverage."},
      {"refused-k",
       "K not a multiple of 16 (!shape): spec 3.3 gives every K-axis group 16 codes, so there is no "
       "partial final block to place; catches a ceil_div(K, 16) scale matrix laid out anyway."},
      {"refused-index",
       "a row or block column outside the logical [N, K/16] scale matrix (!index), though inside the "
       "padded tile: catches an offset computed for any coordinate the padded plane holds."},
  };
  return s;
}

void layout_build(SuiteBuilder& b) {
  SplitMix64 rng(suite_seed("layout.NVFP4.blockscale-k16-m128x4-v1"));
  auto add = [&](uint64_t n, uint64_t k, uint64_t m, uint64_t j, std::vector<std::string> tags) {
    auto p = oracle::blockscale_k16_m128x4_v1(n, k, m, j);
    if (!p) return;  // outside this shape's scale matrix
    const uint64_t blocks = k / 16;
    if (n % 128 || blocks % 4) tags.push_back("padded");
    std::string shape = std::to_string(n) + "x" + std::to_string(k);
    b.add(Case{{shape, std::to_string(m), std::to_string(j)},
               std::to_string(p->offset) + "/" + std::to_string(p->plane_bytes),
               {},
               {std::to_string(p->tile) + "." + std::to_string(p->line) + "." + std::to_string(p->group) + "." +
                std::to_string(p->column)},
               tags,
               "scale (" + std::to_string(m) + ", " + std::to_string(j) + ") of a " + shape + " matrix"});
  };
  // Small shapes and ones just past a tile boundary: every scale.
  const std::vector<std::pair<uint64_t, uint64_t>> whole{{1, 16},   {2, 32},   {31, 64},  {33, 48},
                                                         {128, 64}, {129, 80}, {160, 144}};
  for (auto [n, k] : whole)
    for (uint64_t m = 0; m < n; ++m)
      for (uint64_t j = 0; j < k / 16; ++j) add(n, k, m, j, {"whole-shape"});
  // Edge rows x edge columns, and the whole last tile.
  const std::vector<std::pair<uint64_t, uint64_t>> edged{
      {256, 128}, {300, 272}, {383, 1040}, {1000, 7168}, {4096, 4096}};
  for (auto [n, k] : edged) {
    const uint64_t blocks = k / 16;
    std::set<uint64_t> rows, columns;
    for (uint64_t base : {uint64_t(0), uint64_t(128), (n - 1) / 128 * 128})
      for (uint64_t d : {0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 126, 127}) rows.insert(base + d);
    for (uint64_t m : {n - 1, n - 2}) rows.insert(m);
    for (uint64_t j : {uint64_t(0), uint64_t(1), uint64_t(2), uint64_t(3), uint64_t(4), uint64_t(5), uint64_t(7),
                       uint64_t(8), blocks - 1, blocks - 2, blocks / 4 * 4, blocks / 4 * 4 - 1})
      columns.insert(j);
    for (uint64_t m : rows)
      for (uint64_t j : columns) {
        std::vector<std::string> tags;
        const uint64_t r = m % 128;
        if (r == 31 || r == 32 || r == 63 || r == 64 || r == 95 || r == 96) tags.push_back("row-group-edge");
        if (r == 0 || r == 127 || j % 4 == 0 || j % 4 == 3) tags.push_back("tile-edge");
        add(n, k, m, j, tags);
      }
    for (uint64_t m = (n - 1) / 128 * 128; m < n; ++m)
      for (uint64_t j = (blocks - 1) / 4 * 4; j < blocks; ++j) add(n, k, m, j, {"last-tile"});
  }
  // Refusals (FORMAT.md "Layout refusals"): K not a multiple of 16, whatever the coordinate; then
  // coordinates outside the logical scale matrix, just past its last row or block column (inside
  // the padded tile), and far outside.
  auto refuse = [&](uint64_t n, uint64_t k, uint64_t m, uint64_t j, const std::string& tag, const std::string& why) {
    const std::string_view rule = oracle::blockscale_k16_m128x4_v1_refusal(n, k, m, j);
    if (rule.empty()) throw std::logic_error("layout refusal has a position: " + why);
    std::string shape = std::to_string(n);
    shape.append(1, 'x').append(std::to_string(k));
    std::string comment = why;
    comment.append(" (").append(shape).append(1, ')');
    b.add(Case{{shape, std::to_string(m), std::to_string(j)}, rejection(rule), {}, {"-"}, {tag}, comment});
  };
  for (auto [n, k] : std::vector<std::pair<uint64_t, uint64_t>>{
           {1, 1}, {1, 8}, {1, 15}, {1, 17}, {2, 24}, {128, 40}, {129, 200}, {7168, 2056}}) {
    refuse(n, k, 0, 0, "refused-k", "K not a multiple of 16: the first scale");
    refuse(n, k, n - 1, k / 16, "refused-k", "K not a multiple of 16: the would-be partial block of the last row");
  }
  for (auto [n, k] : std::vector<std::pair<uint64_t, uint64_t>>{
           {1, 16}, {2, 32}, {31, 64}, {33, 48}, {128, 64}, {129, 80}, {300, 272}}) {
    const uint64_t blocks = k / 16;
    refuse(n, k, n, 0, "refused-index", "row N, one past the last row");
    refuse(n, k, 0, blocks, "refused-index", "block column K/16, one past the last");
    refuse(n, k, n, blocks, "refused-index", "row N and block column K/16");
    if (n % 128) refuse(n, k, (n + 127) / 128 * 128 - 1, 0, "refused-index", "the last padded row of the tile");
    if (blocks % 4)
      refuse(n, k, 0, (blocks + 3) / 4 * 4 - 1, "refused-index", "the last padded block column of the tile");
    refuse(n, k, uint64_t(1) << 40, 0, "refused-index", "a row far outside");
  }
  // Model-sized shapes: seeded samples anywhere in the plane.
  for (auto [n, k] : std::vector<std::pair<uint64_t, uint64_t>>{{7168, 2048}, {18432, 7168}, {129280, 7168}}) {
    for (int i = 0; i < 64; ++i) {
      const uint64_t m = rng.below(n), j = rng.below(k / 16);
      add(n, k, m, j, {"random"});
    }
  }
}

NC_SUITE(layout_info, layout_build);

}  // namespace
}  // namespace nc::gen
