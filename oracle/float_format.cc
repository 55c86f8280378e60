#include "oracle/float_format.h"

#include <array>
#include <cstddef>

namespace nc::oracle {

namespace {
// Bit layouts from the spec: binary32 (3.1), binary16 (6, IEEE 754), bfloat16 (3.1: bias 127,
// 7 fraction bits), E4M3FN (3.3: bias 7, no inf, only S.1111.111 NaN, max 448 = 0x7e),
// E2M1 (3.3: sign bit 3, exponent bits 2:1, mantissa bit 0; values 0 .. 6, no inf, no NaN).
constexpr std::array<FloatFormatInfo, kFloatFormatCount> kInfo{{
    {FloatFormat::Binary32, "binary32", 32, 8, 23, 127, 127, true, true, 0x7f7fffffu},
    {FloatFormat::Binary16, "binary16", 16, 5, 10, 15, 15, true, true, 0x7bffu},
    {FloatFormat::BFloat16, "bfloat16", 16, 8, 7, 127, 127, true, true, 0x7f7fu},
    {FloatFormat::E4M3FN, "E4M3FN", 8, 4, 3, 7, 8, false, true, 0x7eu},
    {FloatFormat::E2M1, "E2M1", 4, 2, 1, 1, 2, false, false, 0x7u},
}};
}  // namespace

const FloatFormatInfo& info(FloatFormat f) { return kInfo[static_cast<size_t>(f)]; }

}  // namespace nc::oracle
