// Whole logical tensors of the six quantized formats: validity (first violation) and
// dequantization. Geometry: grouped rank >= 1 with scales [leading..., ceil_div(K, G)]; NVFP4
// rank 2 with K a multiple of 16 (spec 3.3: 16 codes in every K-axis group) and scales [N, K/16];
// FP8 row rank 2 with scales [N]. Every extent must be
// positive: spec 4 asks a positive K and 3.4 positive dimensions; for a grouped tensor's leading
// extents and NVFP4's the spec is silent and rejecting an empty tensor is this codec's choice
// (vectors/FORMAT.md "Zero extents").
//
// Check order (shared with the oracle): shape, then the NVFP4 divisor, then every scale in
// row-major order, then every code in row-major order (for one code: legality, then the
// zero-scale rule of its group or row).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "codec/result.h"
#include "registry/registry.h"

namespace nc::codec {

struct TensorView {
  std::span<const uint64_t> shape;   // last extent is K
  std::span<const uint32_t> codes;   // every element's code word, row-major
  std::span<const uint32_t> scales;  // natural scale plane, row-major
  std::optional<uint32_t> divisor;   // NVFP4 d_w only
};

enum class Plane : char { None = '-', Codes = 'c', Scales = 's' };

struct Violation {
  Rule rule;
  Plane plane;
  int64_t index;  // flat index in its plane; -1 for shape and divisor rules
  Error error;    // the same, as one line with coordinates
};

// Scale-plane size for a shape, or an error (Shape / Unsupported).
Result<uint64_t> scale_count(Format fmt, std::span<const uint64_t> shape);

// nullopt when the tensor is valid. WordRange (a word with bits above its width) is reported
// like a rule, so an adapter can turn it into a bad-argument status.
std::optional<Violation> validate_tensor(Format fmt, const TensorView& t);

// Every element's binary32 bits, row-major. Only the geometry is checked; the words are assumed
// valid (validate_tensor first).
Result<std::vector<uint32_t>> dequantize(Format fmt, const TensorView& t);

}  // namespace nc::codec
