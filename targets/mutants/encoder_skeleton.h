// A copy of the MAXABS_F16_RECIP_RNE_V1 loop (spec 7) written for the mutants, with each ordered
// step a replaceable function. The defaults are the spec's steps; an encoder mutant swaps exactly
// one of them. (The codec's own encoder stays free of any such switch.)
#pragma once

#include <cstddef>
#include <cstdint>

#include "ninfer_conform/plugin.h"

namespace nc::mutants {

struct EncoderSteps {
  // Source word to binary32; false for a value that is not finite binary32 (the encoder fails).
  bool (*to_binary32)(nc_source_type type, uint64_t word, float* out);
  // amax over a group's n values.
  float (*amax)(const float* x, size_t n);
  // raw_scale32 from amax and the interval.
  float (*raw_scale)(float amax, int qmin, int qmax);
  // scale16 from raw_scale32 (before the rescue); amax is passed for profiles that recompute.
  uint16_t (*scale16)(float raw_scale32, float amax, int qmax);
  // The 2^-24 rescue of a zero scale16 (identity when a mutant omits it).
  uint16_t (*rescue)(uint16_t scale16);
  // true when scale16 may be stored (finite and positive).
  bool (*scale_storable)(uint16_t scale16);
  // normalized32 from x, scale32 and inv32.
  float (*normalize)(float x, float scale32, float inv32);
  // The integer code from normalized32.
  int32_t (*quantize)(float normalized32, int qmin, int qmax);
  // The interval used for codes (W8's is [-127, 127]).
  void (*interval)(nc_format fmt, int* qmin, int* qmax);
  // true: a partial final group's amax reads the whole G-entry group buffer, including entries
  // left over from the previous group (the stale-buffer bug); false: only its own values.
  bool amax_over_whole_buffer;
};

// The spec's steps.
EncoderSteps canonical_steps();

// The encode entry point over `steps` (signature of nc_plugin_v1::encode). Shapes the mutant copy
// does not handle (no rows, no columns, a format that is not grouped) go to the base table.
int encode_with(const EncoderSteps& steps, nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows,
                size_t k, uint32_t* scales, int32_t* codes, uint32_t* trace, int32_t* outcome);

// The default steps, for mutants that build on them.
bool source_to_binary32(nc_source_type type, uint64_t word, float* out);
int32_t quantize_rne_then_clamp(float normalized32, int qmin, int qmax);
void spec_interval(nc_format fmt, int* qmin, int* qmax);

}  // namespace nc::mutants
