// Index math and launch geometry, checked against positions worked out by hand from spec 4.
#include <catch2/catch.hpp>

#include "kernels/index_math.h"
#include "kernels/launch_geometry.h"

using namespace nc::kernels;

TEST_CASE("kernels: grouped scale index: Q4 K=130 has 3 groups per row, the last of 2 elements") {
  const ScaleGeometry g{130, 64};
  CHECK(scales_per_row(g) == 3);
  CHECK(scale_index(g, 0) == 0);
  CHECK(scale_index(g, 63) == 0);
  CHECK(scale_index(g, 64) == 1);
  CHECK(scale_index(g, 128) == 2);
  CHECK(scale_index(g, 129) == 2);
  CHECK(scale_index(g, 130) == 3);  // row 1, k 0: groups never cross a row
  CHECK(scale_index(g, 259) == 5);  // row 1, k 129
  CHECK(group_length(g, 0) == 64);
  CHECK(group_length(g, 2) == 2);
}

TEST_CASE("kernels: NVFP4 K=40: groups of 16, three per row") {
  const ScaleGeometry g{40, 16};
  CHECK(scales_per_row(g) == 3);
  CHECK(scale_index(g, 39) == 2);
  CHECK(scale_index(g, 47) == 3);  // row 1, k 7
  CHECK(group_length(g, 2) == 8);
}

TEST_CASE("kernels: FP8 row scale: one per row whatever K") {
  const ScaleGeometry g{130, 0};
  CHECK(scales_per_row(g) == 1);
  CHECK(scale_index(g, 129) == 0);
  CHECK(scale_index(g, 130) == 1);
  CHECK(scale_index(g, 3 * 130 + 5) == 3);
}

TEST_CASE("kernels: an element walk finds each visited element's scale as scale_index does") {
  // Odd and power-of-two K, partial last groups, strides below, equal to and far above K, and starts
  // past 2^32 (a batch offset of a large tensor).
  for (const ScaleGeometry g : {ScaleGeometry{130, 64}, ScaleGeometry{65537, 32}, ScaleGeometry{4096, 16},
                                ScaleGeometry{1, 64}, ScaleGeometry{99991, 0}, ScaleGeometry{40, 16}})
    for (uint64_t stride : {uint64_t{1}, uint64_t{7}, g.k, uint64_t{1048576}})
      for (uint64_t first : {uint64_t{0}, uint64_t{5}, g.k + 3, (uint64_t{1} << 32) + 17}) {
        uint32_t shift = 0;
        while ((1u << shift) < g.group) ++shift;
        ElementWalk w = element_walk(g.k, first, stride);
        int wrong = 0;
        for (uint64_t e = first, step = 0; step < 300; e += stride, ++step, advance(w))
          wrong += w.row * g.k + w.col != e ||
                   scale_index_at(g, scales_per_row(g), shift, w.row, w.col) != scale_index(g, e);
        INFO("k " << g.k << " group " << g.group << " stride " << stride << " first " << first);
        CHECK(wrong == 0);
      }
  CHECK(scale_index_at({130, 64}, 3, 6, 1, 129) == 5);  // Q4 K=130, row 1, k 129 (worked above)
}

TEST_CASE("kernels: grid covers n with a bounded number of blocks") {
  CHECK(grid_for(0).blocks == 0);
  CHECK(grid_for(1).blocks == 1);
  CHECK(grid_for(256).blocks == 1);
  CHECK(grid_for(257).blocks == 2);
  CHECK(grid_for(257).threads == kBlockThreads);
  CHECK(grid_for(uint64_t{1} << 40).blocks == kMaxBlocks);
  CHECK(grid_for(1000, 128).blocks == 8);
  CHECK(grid_for(uint64_t{1} << 40, kBlockThreads, kWalkMaxBlocks).blocks == kWalkMaxBlocks);
}

TEST_CASE("kernels: batches tile 0..n exactly, none longer than the limit") {
  CHECK(batch_count(0) == 0);
  CHECK(batch_count(kMaxElementsPerLaunch) == 1);
  CHECK(batch_count(kMaxElementsPerLaunch + 1) == 2);
  for (uint64_t n : {uint64_t{1}, uint64_t{9}, uint64_t{10}, uint64_t{11}, uint64_t{31}}) {
    uint64_t next = 0;
    for (uint64_t i = 0; i < batch_count(n, 10); ++i) {
      const Batch b = batch_at(n, i, 10);
      CHECK(b.begin == next);
      CHECK(b.count >= 1);
      CHECK(b.count <= 10);
      next = b.begin + b.count;
    }
    CHECK(next == n);
  }
  CHECK(batch_at(kMaxElementsPerLaunch + 1, 1).count == 1);
}
