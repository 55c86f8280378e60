// Tensor geometry the whole-tensor mutants need (spec 4): rows = product of the leading extents,
// K = the last; one scale per ceil_div(K, G) group per row.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ninfer_conform/plugin.h"

namespace nc::mutants {

struct Geometry {
  uint64_t rows = 0, k = 0;
  bool ok = false;  // rank >= 1, positive extents, no overflow
};
Geometry geometry(size_t rank, const uint64_t* shape);

inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Grouped signed-integer formats: code width and group size; false for any other format.
bool grouped_params(nc_format f, int* bits, uint32_t* group);

}  // namespace nc::mutants
