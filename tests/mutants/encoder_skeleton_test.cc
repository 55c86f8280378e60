// The mutants' copy of the canonical encoder, with no step replaced, must be the spec's encoder:
// otherwise an encoder mutant could be killed for a bug that is not its own. Expected values are
// the worked examples of shared/spec/examples.md (exact arithmetic, derived independently).
#include <catch2/catch.hpp>

#include <vector>

#include "targets/mutants/encoder_skeleton.h"

namespace {
using nc::mutants::canonical_steps;
using nc::mutants::encode_with;

struct Encoded {
  int32_t outcome = -1;
  std::vector<uint32_t> scales, trace;
  std::vector<int32_t> codes;
};

Encoded run(nc_format f, std::vector<uint64_t> src, size_t rows = 1) {
  const size_t k = src.size() / rows, g = f == NC_FORMAT_W8G32_F16S ? 32 : 64, groups = (k + g - 1) / g;
  Encoded e;
  e.scales.assign(rows * groups, 0xdead);
  e.codes.assign(rows * k, 99);
  e.trace.assign(4 * rows * groups, 0);
  REQUIRE(encode_with(canonical_steps(), f, NC_SRC_FP32, src.data(), rows, k, e.scales.data(), e.codes.data(),
                      e.trace.data(), &e.outcome) == NC_OK);
  return e;
}
}  // namespace

TEST_CASE("canonical skeleton reproduces the worked examples", "[mutants][encoder]") {
  Encoded e = run(NC_FORMAT_Q4G64_F16S, {0x3f800000, 0xbf000000, 0x3e800000});
  CHECK(e.outcome == NC_ENCODE_OK);
  CHECK(e.scales == std::vector<uint32_t>{0x3092});
  CHECK(e.codes == std::vector<int32_t>{7, -4, 2});
  CHECK(e.trace == std::vector<uint32_t>{0x3f800000, 0x3e124925, 0x3092, 0x40e00e01});

  e = run(NC_FORMAT_Q4G64_F16S, {0x40400000, 0xbfc00000, 0x3f400000, 0xbe4ccccd});
  CHECK(e.scales == std::vector<uint32_t>{0x36db});
  CHECK(e.codes == std::vector<int32_t>{7, -4, 2, 0});
  CHECK(e.trace[3] == 0x40155eab);

  e = run(NC_FORMAT_W8G32_F16S, {0x3f800000, 0xbf800000, 0x3f000000});
  CHECK(e.scales == std::vector<uint32_t>{0x2008});
  CHECK(e.codes == std::vector<int32_t>{127, -127, 64});

  e = run(NC_FORMAT_Q6G64_F16S, {0x00000000, 0x80000000});
  CHECK(e.scales == std::vector<uint32_t>{0x0000});
  CHECK(e.codes == std::vector<int32_t>{0, 0});

  e = run(NC_FORMAT_Q5G64_F16S, {0x00000005, 0x80000002});
  CHECK(e.scales == std::vector<uint32_t>{0x0001});
  CHECK(e.codes == std::vector<int32_t>{0, 0});
  CHECK(e.trace[3] == 0x4b800000);

  CHECK(run(NC_FORMAT_W8G32_F16S, {0x4afe213e}).outcome == NC_ENCODE_FAIL_SCALE_OVERFLOW);
  CHECK(run(NC_FORMAT_Q4G64_F16S, {0x7fc00000, 0x3f800000}).outcome == NC_ENCODE_FAIL_NONFINITE);
}

TEST_CASE("canonical skeleton groups along K and never across rows", "[mutants][encoder]") {
  // 2 x 65 Q4: each row has a full group of 64 and a partial group of one (spec 4).
  std::vector<uint64_t> src(130, 0x40e00000);  // 7.0
  src[64] = 0x3f800000;                        // row 0's partial group: 1.0
  src[65 + 64] = 0x40000000;                   // row 1's partial group: 2.0
  Encoded e = run(NC_FORMAT_Q4G64_F16S, src, 2);
  // amax 7 -> raw 1.0 -> 0x3c00; amax 1 -> 0x3092 (examples.md); amax 2 -> raw 2/7 -> 0x3492.
  CHECK(e.scales == std::vector<uint32_t>{0x3c00, 0x3092, 0x3c00, 0x3492});
  CHECK(e.codes[64] == 7);
  CHECK(e.codes[129] == 7);
}
