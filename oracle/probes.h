// PROBES: deliberately NON-CANONICAL arithmetic, used only by the case generator to search for
// inputs that discriminate a correct encoder from a plausible wrong one. Nothing here is an
// expected value; spec 7's ordered algorithm is oracle/maxabs_f16_recip_rne_v1.h.
#pragma once

#include <gmpxx.h>

#include <cstdint>

#include "oracle/context.h"
#include "registry/registry.h"

namespace nc::oracle::probes {

// The code a direct-division encoder would choose: clamp(rint_even(round_f32(x / scale32))).
// x is a binary32 word, scale16 a binary16 word (positive finite).
int32_t code_by_division(Context& ctx, Format f, uint32_t x_binary32, uint32_t scale16);

// The code the canonical order chooses for the same inputs (round_f32(x * round_f32(1/scale32)))
// — handy to compare against code_by_division without running a whole group.
int32_t code_by_reciprocal(Context& ctx, Format f, uint32_t x_binary32, uint32_t scale16);

// The binary16 scale from rounding the exact amax/qmax ONCE to binary16 (no binary32 step), with
// the same 2^-24 rescue; infinity on overflow (returned as the word 0x7c00).
// Note for case search: for the four schemes (qmax = 2^n - 1) this never differs from the
// canonical double rounding. The binary32 step could only matter by landing exactly on a binary16
// midpoint m from off it, i.e. |amax/qmax - m| < ulp32(m)/2, but binary32 amax values next to
// qmax*m are >= 2^(n-1) ulp32(m) > (qmax/2) ulp32(m) apart (tests/oracle/probes_test.cc samples
// it). A double-rounding suite can therefore only pin the agreement, not find a disagreement.
uint32_t scale16_single_rounding(Context& ctx, Format f, uint32_t amax_binary32);

// The binary16 scale by the canonical f32-then-f16 double rounding (same rescue and overflow).
uint32_t scale16_double_rounding(Context& ctx, Format f, uint32_t amax_binary32);

// The exact ratio x / scale32 (a rational).
mpq_class exact_ratio(uint32_t x_binary32, uint32_t scale16);

}  // namespace nc::oracle::probes
