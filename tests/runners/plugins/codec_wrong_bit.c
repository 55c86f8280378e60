/* The CPU codec's plugin table with one wrong bit: E4M3FN word 0x38 (1.0) decodes to 0x3f800001.
 * Everything else is the codec's, so exactly one case of decode.E4M3FN must fail. */
#include "codec/codec_plugin.h"

static nc_plugin_v1 table;

static int decode_one_bit_wrong(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  int st = nc_codec_plugin_table()->decode(wt, words, n, out, valid);
  if (st == NC_OK && wt == NC_WT_E4M3FN)
    for (size_t i = 0; i < n; ++i)
      if ((words[i] & 0xff) == 0x38) out[i] ^= 1u;
  return st;
}

const nc_plugin_v1* ninfer_conform_plugin_v1(void) {
  table = *nc_codec_plugin_table();
  table.name = "codec-wrong-bit";
  table.decode = decode_one_bit_wrong;
  return &table;
}
