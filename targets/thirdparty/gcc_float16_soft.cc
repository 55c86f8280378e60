// GCC _Float16 <-> float compiled WITHOUT -mf16c: the conversions are libgcc's software routines
// (__extendhfsf2, __truncsfhf2). libgcc implements IEEE RNE with gradual underflow, overflow to
// infinity, and NaN -> quiet NaN keeping sign and the top payload bits.
#include "gcc_float16_ops.h"

namespace {
constexpr nc_plugin_v1 kTable =
    nc_tp::scalar_table("gcc-float16-libgcc", NC_TP_VERSION, nc_tp::gcc_f16_decode, nc_tp::gcc_f16_convert);
}  // namespace

NC_TP_EXPORT const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return &kTable; }
