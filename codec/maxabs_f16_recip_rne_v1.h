// The canonical grouped encoder profile MAXABS_F16_RECIP_RNE_V1 (spec 7), for the four grouped
// signed-integer schemes on a positive rank-two [rows, k] matrix.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "codec/result.h"
#include "registry/registry.h"

namespace nc::codec {

enum class SourceType : uint8_t { FP32, BF16, F16, F64 };

// Steps of one group, in the spec's order; a step not reached is nullopt. An all-zero group
// has amax32 = +0 and scale16 = +0 only; a scale-overflow group stops at scale16 = 0x7c00.
struct GroupTrace {
  std::optional<uint32_t> amax32, raw_scale32, scale16, inv32;
};

struct Encoding {
  std::vector<uint32_t> scales;                       // rows * ceil_div(k, G) binary16 words, row-major
  std::vector<int32_t> codes;                         // rows * k signed codes, row-major
  std::vector<GroupTrace> trace;                      // one per group
  std::vector<std::optional<uint32_t>> normalized32;  // one per element
  // Nonfinite (a source not finite binary32: nothing is encoded) or ScaleOverflow (groups before
  // the failing one are complete, later ones not reached). scales/codes are then not a result.
  std::optional<Error> failure;
};

// One source word to binary32 with RNE (BF16/F16 exact; F64 may round, overflow to inf, or
// underflow to a subnormal or zero). Only the low 32/16 bits of FP32/BF16/F16 words are read.
uint32_t source_to_f32(SourceType t, uint64_t word);

// Error (Unsupported / Shape) when fmt is not grouped, rows or k is zero, or src.size() !=
// rows * k. Encoder failures are reported in Encoding::failure, with the trace reached so far.
Result<Encoding> maxabs_f16_recip_rne_v1(Format fmt, SourceType t, std::span<const uint64_t> src, uint64_t rows,
                                         uint64_t k);

// round_to_integral_ties_to_even of a binary32, as an integer (|x| < 2^31 assumed by callers;
// larger magnitudes saturate).
int64_t round_integral_rne(uint32_t f32);

}  // namespace nc::codec
