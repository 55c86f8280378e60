// Validity oracles: one word of a (format, component), and whole tensors, with the rule broken.
// Rule names are those of vectors/FORMAT.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/context.h"
#include "registry/registry.h"

namespace nc::oracle {

// Empty when valid, else the rule: "code-illegal", "scale-negative", "scale-nonfinite",
// "divisor". A word wider than the component's type gives "code-illegal" (codes) or the
// component's rule. Direct formats accept every word of their width.
//   scales (binary16 grouped, E4M3FN NVFP4, BF16 FP8 row): the sign bit is checked first, so -0,
//     negative values, -inf and negative NaNs are scale-negative; +inf and positive NaNs
//     (E4M3FN: 0x7f) are scale-nonfinite
//   FP8 row code (E4M3FN): NaN -> code-illegal
//   NVFP4 divisor (FP32): must be finite and > 0, else "divisor"
//   W8 code 0x80 -> code-illegal
std::string_view word_rule(Format f, Component c, uint32_t word);

struct Violation {
  std::string rule;    // empty when valid
  char plane = '-';    // 'c' codes, 's' scales, '-' (shape, divisor)
  uint64_t index = 0;  // flat index in that plane (row-major)
  // vectors/FORMAT.md text: "valid" or "!<rule>@<plane><index>" / "!<rule>@-".
  std::string text() const;
  bool valid() const { return rule.empty(); }
};

// A tensor at the logical-word boundary: codes (one word per element, row-major), scales (one
// word per group or row, row-major), divisor (NVFP4 only).
struct Tensor {
  std::vector<uint64_t> shape;
  std::vector<uint32_t> codes;
  std::vector<uint32_t> scales;
  std::optional<uint32_t> divisor;
};

// Check order (the first violation is returned):
//   1. shape: grouped rank >= 1, NVFP4 and FP8 row rank 2, direct rank >= 1; every extent >= 1
//      (the spec asks it of a grouped K and of FP8 row; for grouped leading extents and NVFP4 it
//      is this project's choice, which no corpus case tests: FORMAT.md "Zero extents");
//      NVFP4 K a multiple of 16 (spec 3.3: every K-axis group holds 16 codes); code plane size = product of extents;
//      scale plane size = leading product * ceil(K/G) (grouped; NVFP4 K/16) or N (FP8 row); a divisor present exactly
//      for NVFP4 (else "shape")
//   2. divisor (NVFP4): finite and > 0
//   3. scales in row-major order: word validity
//   4. codes in row-major order: word validity, then the zero-scale rule (a code in a group/row
//      whose scale is +0 must be zero: grouped code value 0; FP8 row 0x00 or 0x80) as
//      "zero-scale-codes" at the code's index
// Direct formats: codes are the words; scales must be empty; every word is valid.
Violation validate_tensor(Format f, const Tensor& t);

// Dequantize a valid tensor: one binary32 word per element, row-major (direct formats: BF16 and
// FP32 give their binary32 expansion, I32 is not dequantizable -> empty). Precondition: valid.
std::vector<uint32_t> dequantize(Context& ctx, Format f, const Tensor& t);

}  // namespace nc::oracle
