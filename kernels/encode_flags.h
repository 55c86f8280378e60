// Encoder failure flags, OR-ed by the groups of one call (nonfinite wins: spec 7 converts every
// source value before group processing).
#pragma once
#include <cstdint>

namespace nc::kernels {
inline constexpr uint32_t kEncodeFlagNonfinite = 1u;
inline constexpr uint32_t kEncodeFlagScaleOverflow = 2u;
}  // namespace nc::kernels
