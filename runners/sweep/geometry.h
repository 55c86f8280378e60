// Batch geometry (runners/README.md, "Batch geometry"): a sweep's 65,536-input batches are a
// multiple of every SIMD width, so a vectorised target's scalar head and tail paths would never
// run. The geometry pass presents a sample that covers every class of input again, at batch
// lengths 1..64 and at unaligned start offsets, and reports a result that depends on where the
// input sits as a finding of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runners/sweep/domain.h"

namespace nc::sweep {

// How a word domain runs and judges one input (domains.cc's WordDomain fills it).
struct WordJudge {
  // Runs the target on n words; in and out may sit at any 4-byte alignment.
  std::function<int(const uint32_t* in, size_t n, uint32_t* out)> call;
  // The reference results of n words that need not be consecutive.
  std::function<void(const uint32_t* in, size_t n, uint32_t* out)> reference;
  // How `actual` relates to the reference `want` for input `in`: "" when equal, else a class
  // ("nan-input:sign"); *allowed says a policy or the domain allows it (then not a mismatch).
  std::function<std::string(uint32_t in, uint32_t want, uint32_t actual, bool* allowed)> judge;
  int in_digits = 8, out_digits = 8;
};

// The binary32 class sample: for both signs and every exponent field (zeros and subnormals,
// every binade, infinities and NaNs) the fractions 0, 1, all ones, the quiet bit alone and just
// below it, and for each destination (BF16, binary16, E4M3FN, E2M1) its rounding tie with an even
// and an odd kept part and the words next to the tie, and the word just above its largest finite
// value (which rounds down to it); for the exponents whose binary16, E4M3FN or
// E2M1 result is subnormal (binary32 exponents 2^-24 .. 2^-1) every single-bit and two-bit tie
// position; and one pseudo-random fraction per sign and exponent. Sorted, without repeats.
std::vector<uint32_t> class_sample32();
// The part of the binary32 class sample the other geometries present (about 3,000 words): every
// word of it whose exponent is 0 or 255 (zeros, subnormals, infinities, NaNs) or near a
// destination's edges: 1.0 and its neighbours, E2M1's whole range, the exponents where E4M3FN and
// binary16 results turn subnormal or overflow, BF16's largest binade.
bool in_geometry_core32(uint32_t w);
// The results of the sample in full batches (4096, aligned): false with *error if a batch failed.
bool present_full(const WordJudge& j, const std::vector<uint32_t>& sample, std::vector<uint32_t>* out,
                  std::string* error);

// Every word of a type of at most 12 bits; for 16-bit types every 61st word and the windows
// around zero, the subnormal/normal boundaries, infinity and both NaN kinds of binary16 and BF16
// (each sign).
std::vector<uint32_t> class_sample_words(unsigned bits);

// The geometries (the first is the one every other is compared with):
//   a full batch: the sample in batches of 4096 starting on a 64-byte boundary;
//   lengths 1..64: the sample cut into consecutive batches of L, for each L (the last shorter);
//   offsets 1..15: batches of 4096 starting 1..15 words past a 64-byte boundary (for a pipe
//   target the position is the same as the full batch's: its adapter copies into its own array).
// *full_results: the results of the full batches (the profile report's input); empty when the
// target failed one.
void run_geometry(const WordJudge& j, const std::vector<uint32_t>& sample, const std::string& sample_about,
                  GeometryResult* out, std::vector<uint32_t>* full_results = nullptr);

}  // namespace nc::sweep
