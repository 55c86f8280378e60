/* ninfer-conform plugin ABI, version 2 (version 1 tables are accepted: see abi_version).
 *
 * An implementation under test is a shared object exporting one symbol:
 *
 *     const nc_plugin_v1* ninfer_conform_plugin_v1(void);
 *
 * The table names the implementation and offers one optional entry point per capability. A NULL
 * entry point means "not provided": the runner reports those cases as untested, never as passed.
 * Every entry point is a batch call over plain arrays (no allocation, no callbacks), returns
 * NC_OK or an NC_E* status, and must be safe to call repeatedly from one thread. The runner loads
 * plugins in a child process, so a crash or hang costs the plugin its suite, not the run.
 *
 * All words are logical words (spec "logical-word boundary"): a value's bit pattern right-aligned
 * in a uint32_t (E2M1 in bits 3:0, E4M3FN in 7:0, BF16/F16 in 15:0, FP32/I32 in 31:0). Binary32
 * results are returned as their bit patterns, never as C floats, so no host conversion can touch a
 * NaN payload or a subnormal on the way back.
 *
 * Enumerations below are the ABI's own numbering; their spellings equal the corpus tokens
 * documented in vectors/FORMAT.md. This file is C, so a plugin can be written in C, C++, Rust or
 * anything with a C FFI.
 */
#ifndef NINFER_CONFORM_PLUGIN_H
#define NINFER_CONFORM_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2 appended layout_offsets to the table. A version 1 table ends after dequantize; the
 * runner reads no field past it, and reports the layout capability as not provided. */
#define NC_PLUGIN_ABI_VERSION 2u
#define NC_PLUGIN_ABI_VERSION_MIN 1u

/* Status of a call. */
#define NC_OK 0
#define NC_EUNSUPPORTED 1 /* this selector (word type, format, recipe) is not provided */
#define NC_EINVALID 2     /* bad arguments (sizes, shapes); the runner's fault, never a verdict */

/* Registry formats, in spec section 1 order. */
typedef enum nc_format {
  NC_FORMAT_BF16 = 0,
  NC_FORMAT_FP32 = 1,
  NC_FORMAT_I32 = 2,
  NC_FORMAT_Q4G64_F16S = 3,
  NC_FORMAT_Q5G64_F16S = 4,
  NC_FORMAT_Q6G64_F16S = 5,
  NC_FORMAT_W8G32_F16S = 6,
  NC_FORMAT_NVFP4 = 7,
  NC_FORMAT_FP8_E4M3FN_ROW_BF16S = 8
} nc_format;

/* Component word types (corpus tokens BF16 FP32 I32 F16 E4M3FN E2M1 Q4G64_F16S.code ...). */
typedef enum nc_word_type {
  NC_WT_BF16 = 0,
  NC_WT_FP32 = 1,
  NC_WT_I32 = 2,
  NC_WT_F16 = 3,
  NC_WT_E4M3FN = 4,
  NC_WT_E2M1 = 5,
  NC_WT_Q4_CODE = 6,
  NC_WT_Q5_CODE = 7,
  NC_WT_Q6_CODE = 8,
  NC_WT_W8_CODE = 9
} nc_word_type;

/* A component of a format, for word validity (corpus token FORMAT.code / .scale / .divisor). */
typedef enum nc_component {
  NC_COMP_WORD = 0, /* the element word of a direct format */
  NC_COMP_CODE = 1,
  NC_COMP_SCALE = 2,
  NC_COMP_DIVISOR = 3
} nc_component;

/* Named recipe conversions from binary32 (docs/recipes.md defines each exactly). */
typedef enum nc_recipe {
  NC_RECIPE_F32_TO_BF16_RNE = 0,
  NC_RECIPE_F32_TO_F16_RNE = 1,
  NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE = 2, /* overflow and infinity saturate to +-448 */
  NC_RECIPE_F32_TO_E4M3FN_RNE_OVF_NAN = 3,   /* overflow and infinity become NaN */
  NC_RECIPE_F32_TO_E2M1_RNE_SATFINITE = 4    /* overflow and infinity saturate to +-6 */
} nc_recipe;

/* Source word types accepted by the canonical encoder (spec 7 converts each to binary32 first). */
typedef enum nc_source_type {
  NC_SRC_FP32 = 0, /* words[i] low 32 bits */
  NC_SRC_BF16 = 1, /* low 16 bits */
  NC_SRC_F16 = 2,  /* low 16 bits */
  NC_SRC_F64 = 3   /* all 64 bits */
} nc_source_type;

/* Outcome of a canonical encoding (spec 7). */
#define NC_ENCODE_OK 0
#define NC_ENCODE_FAIL_NONFINITE 1      /* a source value is not finite binary32 */
#define NC_ENCODE_FAIL_SCALE_OVERFLOW 2 /* raw_scale32 rounds to binary16 infinity */

/* Rules a tensor can break, reported by validate_tensor (corpus tokens in vectors/FORMAT.md). */
typedef enum nc_rule {
  NC_RULE_NONE = 0,
  NC_RULE_SHAPE = 1,            /* rank/extent not allowed, or plane sizes disagree with the shape */
  NC_RULE_CODE_ILLEGAL = 2,     /* a code word outside the legal language (W8 0x80, E4M3FN NaN) */
  NC_RULE_SCALE_NEGATIVE = 3,   /* sign bit set, including negative zero */
  NC_RULE_SCALE_NONFINITE = 4,  /* infinity or NaN scale */
  NC_RULE_ZERO_SCALE_CODES = 5, /* a +0 scale whose group/row holds a nonzero code */
  NC_RULE_DIVISOR = 6           /* NVFP4 d_w not finite and strictly positive */
} nc_rule;

/* Registered storage layouts with an offsets entry (corpus token after the format in
 * `#op layout NVFP4 blockscale-k16-m128x4-v1`). The byte layout itself is owned by the layout
 * registry (spec section 2); vectors/FORMAT.md records the public tile it names. */
typedef enum nc_layout {
  NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1 = 0 /* NVFP4 E4M3FN block scales in 128x4 tiles of 512 bytes */
} nc_layout;

typedef struct nc_plugin_v1 {
  uint32_t abi_version; /* NC_PLUGIN_ABI_VERSION (1 for a table without layout_offsets) */
  const char* name;     /* e.g. "eigen-3.4.0" */
  const char* version;

  /* Decode n words of type wt. For float word types out[i] is the exact binary32 expansion's
   * bits; for I32 and grouped codes out[i] is the signed value as int32 bits. valid[i] is 1, or 0
   * where the word has no value in that type (only W8 0x80). */
  int (*decode)(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid);

  /* Word validity of one component of a format: valid[i] = 1 or 0. */
  int (*validate_word)(nc_format fmt, nc_component comp, const uint32_t* words, size_t n, uint8_t* valid);

  /* Canonical name lookup: *out_format = the format, or -1 for a rejected name. name is len bytes,
   * not NUL-terminated (it may contain NUL). */
  int (*parse_format)(const char* name, size_t len, int32_t* out_format);

  /* Element reconstruction to binary32 bits (spec 6.2, 3.3, 3.4). code[i] and scale[i] are the
   * element's code word and its group's (or row's) scale word; divisor[i] is NVFP4's d_w and is
   * NULL for other formats. */
  int (*reconstruct)(nc_format fmt, const uint32_t* code, const uint32_t* scale, const uint32_t* divisor, size_t n,
                     uint32_t* out);

  /* Recipe conversion of n binary32 words; out[i] is the destination word, right-aligned. */
  int (*convert)(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out);

  /* Canonical encoder MAXABS_F16_RECIP_RNE_V1 on a row-major [rows, k] matrix of source words.
   * Writes rows*ceil_div(k,G) binary16 scale words and rows*k signed codes (int32), and sets
   * *outcome to NC_ENCODE_*. On failure the output arrays are unspecified. trace, if not NULL,
   * receives 4 binary32/binary16 words per group: amax32, raw_scale32, scale16, inv32 (an
   * implementation that cannot report them leaves trace untouched). */
  int (*encode)(nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows, size_t k, uint32_t* scales,
                int32_t* codes, uint32_t* trace, int32_t* outcome);

  /* Whole-tensor validity. shape has rank entries (the last is K). codes holds every element's
   * code word row-major; scales every scale word in its natural shape (grouped: [.., ceil_div(K,G)];
   * NVFP4: [N, ceil_div(K,16)]; FP8 row: [N]); divisor points at NVFP4's d_w (NULL otherwise).
   * *rule receives NC_RULE_NONE or the first rule broken in row-major order; *where the flat index
   * of the offending code or scale word (-1 for shape and divisor rules). */
  int (*validate_tensor)(nc_format fmt, size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes,
                         const uint32_t* scales, size_t n_scales, const uint32_t* divisor, int32_t* rule,
                         int64_t* where);

  /* Whole-tensor reconstruction: out receives n_codes binary32 words. Geometry as validate_tensor;
   * the tensor is assumed valid. */
  int (*dequantize)(nc_format fmt, size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes,
                    const uint32_t* scales, size_t n_scales, const uint32_t* divisor, uint32_t* out);

  /* --- abi_version >= 2 --- */

  /* Byte offsets of scale words in a registered scale layout. For element i: the logical matrix
   * is [rows[i], k[i]] (its scale matrix [rows[i], ceil_div(k[i], 16)] for NVFP4), and
   * offset[i] receives the byte offset of the scale at (row[i], block[i]) in the layout's scale
   * plane, plane_bytes[i] the plane's size including padding. NC_EUNSUPPORTED for a format or
   * layout not provided; NC_EINVALID for a coordinate outside the scale matrix. */
  int (*layout_offsets)(nc_format fmt, nc_layout layout, const uint64_t* rows, const uint64_t* k, const uint64_t* row,
                        const uint64_t* block, size_t n, uint64_t* offset, uint64_t* plane_bytes);
} nc_plugin_v1;

typedef const nc_plugin_v1* (*nc_plugin_entry_v1)(void);
#define NC_PLUGIN_ENTRY_SYMBOL "ninfer_conform_plugin_v1"

#ifdef __cplusplus
}
#endif

#endif /* NINFER_CONFORM_PLUGIN_H */
