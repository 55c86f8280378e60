// Shared plumbing for the third-party plugin adapters: bit casts and the one batch loop.
//
// Each adapter .cc wraps ONE library and keeps that library's conventions (NaN policy,
// saturation, hardware availability) to itself; this header knows nothing about any of them.
// Results cross the ABI as bit patterns (plugin.h), so no host float conversion touches a NaN.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "ninfer_conform/plugin.h"

#define NC_TP_EXPORT extern "C" __attribute__((visibility("default")))

namespace nc_tp {

inline float f32_from_bits(uint32_t w) { return std::bit_cast<float>(w); }
inline uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

// Applies word -> word `f` to n inputs; every word type these adapters decode has a value for
// every word (W8 0x80 is never handled here), so valid[] is all ones when given.
template <class F>
int map_words(const uint32_t* in, size_t n, uint32_t* out, uint8_t* valid, F f) {
  if (n != 0 && (in == nullptr || out == nullptr)) return NC_EINVALID;
  for (size_t i = 0; i < n; ++i) {
    out[i] = f(in[i]);
    if (valid != nullptr) valid[i] = 1;
  }
  return NC_OK;
}

// A table offering only decode and convert, the two capabilities a scalar-conversion library has.
constexpr nc_plugin_v1 scalar_table(const char* name, const char* version, decltype(nc_plugin_v1::decode) decode,
                                    decltype(nc_plugin_v1::convert) convert) {
  return nc_plugin_v1{NC_PLUGIN_ABI_VERSION,
                      name,
                      version,
                      decode,
                      nullptr,
                      nullptr,
                      nullptr,
                      convert,
                      nullptr,
                      nullptr,
                      nullptr,
                      nullptr};
}

}  // namespace nc_tp
