// Host entry points of the CUDA kernels. Every pointer is a device pointer; every call enqueues on
// the default stream and returns NC_OK, NC_EUNSUPPORTED (selector not provided) or NC_EINVALID.
// Callers synchronise and check cudaGetLastError themselves (the plugin does, after each launch).
#pragma once
#include <cstddef>
#include <cstdint>

#include "ninfer_conform/plugin.h"
#include "kernels/encode_flags.h"

namespace nc::kernels {

int launch_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid);
int launch_reconstruct(nc_format fmt, const uint32_t* code, const uint32_t* scale, const uint32_t* divisor, size_t n,
                       uint32_t* out);
int launch_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out);
// flags: one device word, zeroed by the caller.
int launch_encode(nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows, size_t k, uint32_t* scales,
                  int32_t* codes, uint32_t* flags);
// rows * k elements; divisor: device pointer to d_w (NVFP4) or nullptr.
int launch_dequantize(nc_format fmt, size_t rows, size_t k, const uint32_t* codes, const uint32_t* scales,
                      const uint32_t* divisor, uint32_t* out);

// GEMV y[N] = W[N,K] x[K] with FP32 accumulation. Planes in their narrow native widths: codes one
// byte per element (grouped, NVFP4, FP8 row), BF16 weights as uint16, FP32 weights as uint32;
// scales uint16 (F16/BF16) or uint8 (E4M3FN). x is binary32 (x_bf16 == false) or BF16 words.
int launch_gemv(nc_format fmt, const void* codes, const void* scales, uint32_t divisor_bits, const void* x, bool x_bf16,
                size_t n, size_t k, float* y);

}  // namespace nc::kernels
