// Which profile is it: a conversion's results on the class sample (runners/sweep/geometry.h)
// compared with every known profile of that conversion, the way diagnosis.cc groups a suite's
// failures by tag but over the whole result set. A profile is the recipe, another recipe of the
// same destination, or the recipe with one classic mistake (docs/mutants.md); the report names the
// one that matches exactly or, failing that, the nearest, with counts.
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/fastref/recipes.h"
#include "registry/registry.h"
#include "runners/sweep/domain.h"

namespace nc::sweep {

// The profiles of binary32 -> recipe's destination, judged on (input, result) pairs.
ProfileResult identify_convert(fastref::Recipe recipe, const std::vector<uint32_t>& in,
                               const std::vector<uint32_t>& got);
// The profiles of decoding a floating word type to binary32 (F16, BF16, E4M3FN, E2M1; other types
// give a result with sample 0).
ProfileResult identify_decode(WordType type, const std::vector<uint32_t>& in, const std::vector<uint32_t>& got);

}  // namespace nc::sweep
