// The codec's table, except that each entry point that takes input words writes zeros over them
// after answering, as an in-place torch op does on a tensor over a Python target's read-only NumPy
// view: a runner must judge, and ask again about, the words it meant, never what a call left.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "codec/codec_plugin.h"

namespace nc::test {

template <typename T>
void scribble(const T* words, size_t n) {
  if (words) std::fill_n(const_cast<T*>(words), n, T(0));
}

inline int scribbling_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  const int rc = nc_codec_plugin_table()->convert(recipe, src, n, out);
  scribble(src, n);
  return rc;
}

inline int scribbling_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  const int rc = nc_codec_plugin_table()->decode(wt, words, n, out, valid);
  scribble(words, n);
  return rc;
}

inline int scribbling_reconstruct(nc_format fmt, const uint32_t* code, const uint32_t* scale, const uint32_t* divisor,
                                  size_t n, uint32_t* out) {
  const int rc = nc_codec_plugin_table()->reconstruct(fmt, code, scale, divisor, n, out);
  for (const uint32_t* words : {code, scale, divisor}) scribble(words, n);
  return rc;
}

inline int scribbling_layout(nc_format fmt, nc_layout layout, const uint64_t* rows, const uint64_t* k,
                             const uint64_t* row, const uint64_t* block, size_t n, uint64_t* offset,
                             uint64_t* plane_bytes) {
  const int rc = nc_codec_plugin_table()->layout_offsets(fmt, layout, rows, k, row, block, n, offset, plane_bytes);
  for (const uint64_t* words : {rows, k, row, block}) scribble(words, n);
  return rc;
}

inline nc_plugin_v1 scribbling_codec_table() {
  nc_plugin_v1 t = *nc_codec_plugin_table();
  t.convert = scribbling_convert;
  t.decode = scribbling_decode;
  t.reconstruct = scribbling_reconstruct;
  t.layout_offsets = scribbling_layout;
  return t;
}

}  // namespace nc::test
