// The canonical grouped encoder MAXABS_F16_RECIP_RNE_V1 (spec 7) as a bit-level software
// implementation of the ordered algorithm. Each step is an exact GMP operation followed by the
// one MPFR rounding choke point (oracle/round.h) to the stated format, so the reciprocal-multiply
// order, the f32-then-f16 double rounding, the 2^-24 rescue and the clamp after integral rounding
// are reproduced exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "oracle/context.h"
#include "registry/registry.h"

namespace nc::oracle {

// Source word types the encoder accepts; each word is converted to binary32 with RNE first.
enum class SourceType : uint8_t { FP32, BF16, F16, F64 };
std::optional<SourceType> find_source_type(std::string_view name);  // "FP32" "BF16" "F16" "F64"
std::string_view source_type_name(SourceType t);

enum class EncodeFailure : uint8_t {
  None,
  Nonfinite,      // a source word is NaN or infinite, or an F64 word overflows binary32  (rule "nonfinite")
  ScaleOverflow,  // round_f16(raw_scale32) is infinite                                    (rule "scale-overflow")
};
std::string_view failure_rule(EncodeFailure f);  // "", "nonfinite", "scale-overflow"

// Steps of one group, filled as far as they were reached (empty = not reached).
struct GroupTrace {
  std::optional<uint32_t> amax32;       // binary32 word (positive)
  std::optional<uint32_t> raw_scale32;  // binary32 word; absent for an all-zero group
  std::optional<uint32_t> scale16;      // binary16 word, after the rescue; 0x0000 for all-zero
  std::optional<uint32_t> inv32;        // binary32 word; absent for an all-zero group
};

struct EncodeResult {
  EncodeFailure failure = EncodeFailure::None;
  // Failure location: flat source index for Nonfinite, flat group index for ScaleOverflow.
  uint64_t failure_index = 0;
  std::vector<uint32_t> scales;                       // binary16 words, [rows, ceil(k/G)] row-major
  std::vector<int32_t> codes;                         // signed codes, [rows, k] row-major
  std::vector<GroupTrace> trace;                      // one per group, row-major (unreached: all empty)
  std::vector<std::optional<uint32_t>> normalized32;  // per element; empty where not reached
};

// Encodes a rank-2 [rows, k] matrix (rows >= 1, k >= 1; a rank-1 tensor is rows = 1) of source
// words for a grouped signed-integer format. Every source is converted to binary32 first (spec 7,
// "before group processing"): a non-finite one fails with failure_index = its flat index and every
// group trace empty. Groups are then processed in row-major order; on a scale overflow the
// earlier groups' traces are complete, the failing group's trace stops at scale16 = 0x7c00, later
// groups' traces are empty. On any failure scales/codes are cleared.
// Precondition: is_grouped_int(f), src.size() == rows*k.
EncodeResult encode_maxabs_f16_recip_rne_v1(Context& ctx, Format f, SourceType src_type, uint64_t rows, uint64_t k,
                                            const std::vector<uint64_t>& src);

// The source word converted to binary32 (RNE; F64 overflow -> nullopt, as are NaN and inf).
std::optional<uint32_t> source_to_binary32(Context& ctx, SourceType t, uint64_t word);

// The reference-encoder parameters (spec 7 table): qmax is the scale denominator.
struct SchemeParams {
  int32_t qmin, qmax;
  uint32_t group_size;
};
SchemeParams scheme_params(Format f);  // precondition: is_grouped_int(f)

}  // namespace nc::oracle
