#include "targets/mutants/geometry.h"

namespace nc::mutants {

Geometry geometry(size_t rank, const uint64_t* shape) {
  Geometry g;
  if (rank == 0) return g;
  g.rows = 1;
  for (size_t i = 0; i + 1 < rank; ++i) {
    if (shape[i] == 0 || g.rows > (uint64_t(1) << 40) / shape[i]) return g;
    g.rows *= shape[i];
  }
  g.k = shape[rank - 1];
  g.ok = g.k > 0 && g.k < (uint64_t(1) << 40);
  return g;
}

bool grouped_params(nc_format f, int* bits, uint32_t* group) {
  switch (f) {
    case NC_FORMAT_Q4G64_F16S:
      *bits = 4, *group = 64;
      return true;
    case NC_FORMAT_Q5G64_F16S:
      *bits = 5, *group = 64;
      return true;
    case NC_FORMAT_Q6G64_F16S:
      *bits = 6, *group = 64;
      return true;
    case NC_FORMAT_W8G32_F16S:
      *bits = 8, *group = 32;
      return true;
    default:
      return false;
  }
}

}  // namespace nc::mutants
