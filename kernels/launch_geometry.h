// Launch geometry and batching. A grid-stride loop covers any n with a bounded grid; a call larger
// than one launch's index range is split into batches, so a 2^32-element call never overflows the
// 32-bit thread index arithmetic inside a kernel.
#pragma once
#include <cstdint>

#include "hd.h"

namespace nc::kernels {

inline constexpr uint32_t kBlockThreads = 256;
inline constexpr uint32_t kMaxBlocks = 65535u * 4u;  // a bounded grid; grid-stride loops do the rest
// Elements handed to one launch: kernels index with uint32_t, so stay well below 2^32.
inline constexpr uint64_t kMaxElementsPerLaunch = uint64_t{1} << 30;

struct Grid {
  uint32_t blocks;
  uint32_t threads;
};

// A grid for kernels whose threads pay a setup (an ElementWalk's divisions) before their elements:
// each thread takes dozens of elements of a large call. (4096 blocks, hundreds of elements each, cost
// streaming kernels a tenth of their bandwidth on an H200: too few loads in flight.)
inline constexpr uint32_t kWalkMaxBlocks = 16384;

// Enough blocks that every element has a thread, capped at max_blocks; n == 0 launches nothing.
NC_HD Grid grid_for(uint64_t n, uint32_t threads = kBlockThreads, uint32_t max_blocks = kMaxBlocks) {
  uint64_t blocks = (n + threads - 1) / threads;
  if (blocks > max_blocks) blocks = max_blocks;
  return Grid{static_cast<uint32_t>(blocks), threads};
}

struct Batch {
  uint64_t begin;
  uint64_t count;
};

// The i-th batch of a call over n elements, each at most `limit` long (limit a multiple of any
// group size the caller needs, so no group straddles two launches).
NC_HD uint64_t batch_count(uint64_t n, uint64_t limit = kMaxElementsPerLaunch) { return (n + limit - 1) / limit; }
NC_HD Batch batch_at(uint64_t n, uint64_t i, uint64_t limit = kMaxElementsPerLaunch) {
  const uint64_t begin = i * limit;
  const uint64_t left = n - begin;
  return Batch{begin, left < limit ? left : limit};
}

}  // namespace nc::kernels
