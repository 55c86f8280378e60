#!/usr/bin/env python3
"""Speaks the pipe protocol (runners/PIPE.md) to one ML framework adapter and checks hand-derived
spec values (the derivations of spec_cases.h and docs/recipes.md "Boundaries, worked by hand")
for every capability it offers, the capabilities it must decline, each documented departure
(so a change in the framework shows up), and the binary framing the sweeps use.

usage: framework_adapters_test.py SOURCE_DIR ADAPTER
ADAPTER: a row of implementations.json whose adapter_test is this file (pytorch, fbgemm, jax, tensorflow,
         paddle, mlx, tinygrad, openvino,
         onnxruntime, torchao, ...); tests.cmake registers one ctest per such row
exit 77 = skipped: no venv (the row's: .venv, or .venv-fbgemm), or the venv cannot import the
framework (the reason is printed).
"""
import os
import struct
import subprocess
import sys

# Spec 3.1/3.3 and docs/recipes.md, by capability: (request, expected tokens).
SPEC = {
    "decode E4M3FN": ("decode E4M3FN 7e fe 01 07 08 38 00 80",
                      "43e00000 c3e00000 3b000000 3c600000 3c800000 3f800000 00000000 80000000"),
    "decode E2M1": ("decode E2M1 0 1 2 3 4 5 6 7 8 f",
                    "00000000 3f000000 3f800000 3fc00000 40000000 40400000 40800000 40c00000 80000000 c0c00000"),
    "decode BF16": ("decode BF16 3f80 0001 8000 7f80 ff7f", "3f800000 00010000 80000000 7f800000 ff7f0000"),
    "decode F16": ("decode F16 3c00 0001 03ff 7bff fc00 8000",
                   "3f800000 33800000 387fc000 477fe000 ff800000 80000000"),
    # ties to even both ways, a sticky bit above and below the tie, overflow, -inf, subnormals, -0
    "convert F32_TO_BF16_RNE": ("convert F32_TO_BF16_RNE 3f808000 3f818000 3f808001 3f807fff 7f7fffff ff800000 00010000 00008001 80000000",
                                "3f80 3f82 3f81 3f80 7f80 ff80 0001 0001 8000"),
    # 464 is the tie between 448 and 480 (even: 448); just above it overflows
    "convert F32_TO_E4M3FN_RNE_OVF_NAN": ("convert F32_TO_E4M3FN_RNE_OVF_NAN 3f800000 43e00000 43e7ffff 43e80000 43e80001 c3fa0000 7f800000 ff800000",
                                          "38 7e 7e 7e 7f ff 7f ff"),
    "convert F32_TO_E4M3FN_RNE_SATFINITE": ("convert F32_TO_E4M3FN_RNE_SATFINITE 3f800000 43fa0000 7f800000 ff800000 43e80000 3a800000 3b400000 3ac00000 80000000",
                                            "38 7e 7e fe 7e 00 02 01 80"),
    "convert F32_TO_E2M1_RNE_SATFINITE": ("convert F32_TO_E2M1_RNE_SATFINITE 40a00000 40200000 3f400000 3e800000 4e6e6b28 ff800000 80000000",
                                          "6 4 2 0 7 f 8"),
    "convert F32_TO_F16_RNE": ("convert F32_TO_F16_RNE 3f800000 477ff000 477fefff 33000000 33000001 33c00000 ff800000 80000000",
                               "3c00 7c00 7bff 0000 0001 0002 fc00 8000"),
    # FP8 row (spec 3.4): c32 * s32, one rounding: 1*1, 448*2, 2^-9*1, -1*2^-126 (BF16 0x0080)
    "reconstruct FP8_E4M3FN_ROW_BF16S": ("reconstruct FP8_E4M3FN_ROW_BF16S 38:3f80 7e:4000 01:3f80 b8:0080",
                                         "3f800000 44600000 3b000000 80800000"),
    # rows scaled by 2 and 0.5: 1, -1; 2 (0x40), +0
    "dequantize FP8_E4M3FN_ROW_BF16S": ("dequantize FP8_E4M3FN_ROW_BF16S 2x2 38,b8,40,00 4000,3f00 -",
                                        "40000000,c0000000,3f800000,00000000"),
    # NVFP4 (spec 3.3): e2m1 * e4m3 / d_w. 0.5 * 1 / 1; 6 * 448 / 1; 1 * 1 / 16 (exact quotients)
    "reconstruct NVFP4": ("reconstruct NVFP4 1:38:3f800000 7:7e:3f800000 2:38:41800000",
                          "3f000000 45280000 3d800000"),
    # a 1x16 block, scale 1 (0x38), d_w = 2: every e2m1 value halved (exact)
    "dequantize NVFP4": ("dequantize NVFP4 1x16 0,1,2,3,4,5,6,7,8,9,a,b,c,d,e,f 38 40000000",
                         "00000000,3e800000,3f000000,3f400000,3f800000,3fc00000,40000000,40400000,"
                         "80000000,be800000,bf000000,bf400000,bf800000,bfc00000,c0000000,c0400000"),
}
CONVERTS_16 = ["convert F32_TO_BF16_RNE", "convert F32_TO_F16_RNE"]
# E2M1 by docs/recipes.md beyond SPEC's: the ties the encoders built from midpoint comparisons
# must send to the even neighbour, each way (1.25 -> 1, 1.75 -> 2, 3.5 -> 4, 0.75 + 1 ulp -> 1,
# 0.25 + 1 ulp -> 0.5), 6, 7 (the tie with 8: saturates) and a negative value rounding to zero
# (-0.125 -> -0, 0x8), for the NVFP4 encoders whose -0 and NaN answers are departures.
E2M1_TIES = ("convert F32_TO_E2M1_RNE_SATFINITE 3fa00000 3fe00000 40600000 3f400001 3e800001 40c00000 40e00000 be000000 c0600000",
             "2 4 6 2 1 7 7 8 e")
DECODES_8 = ["decode BF16", "decode F16", "decode E4M3FN"]

# ADAPTER -> (hello name, capabilities, capabilities it must decline, documented departures:
#             (request, tokens) as the framework answers them). The adapter command (script,
#             arguments, environment) and the module it needs are ADAPTER's row of implementations.json.
ADAPTERS = {
    "pytorch": ("pytorch",
                DECODES_8 + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_SATFINITE"],
                ["decode E2M1", "convert F32_TO_E4M3FN_RNE_OVF_NAN", "convert F32_TO_E2M1_RNE_SATFINITE"],
                # NaN: the vectorized BF16 kernel gives 0xffff whatever the sign; F16 decode canonical
                [("convert F32_TO_BF16_RNE 7fc00000 ffc00000", "ffff ffff"), ("decode F16 7c01 7c01", "7fffffff 7fffffff")]),
    "pytorch-strided": ("pytorch-strided",
                        DECODES_8 + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_SATFINITE"],
                        ["decode E2M1", "convert F32_TO_E4M3FN_RNE_OVF_NAN"],
                        # the scalar path: 0x7fc0 for both signs; F16 decode quiets, keeping the payload
                        [("convert F32_TO_BF16_RNE 7fc00000 ffc00000", "7fc0 7fc0"), ("decode F16 7c01 7c01", "7fc02000 7fc02000")]),
    # torch.compile (Inductor's own C++ loop for x.to(dtype), at::vec at the ISA it picks): the
    # conversions of `pytorch` (SATFINITE: inf and above 464 give 0x7e), with BF16 NaN 0xffff
    # whatever the sign; unlike eager, which gives 0x7ff00000 / 0xfff00000, E4M3FN NaN decodes
    # to the canonical quiet NaN with its sign, and F16 decode quiets a NaN keeping its payload
    # wherever it sits in a request (eager's tail element gives 0x7fffffff)
    "pytorch-compile": ("pytorch-compile",
                        DECODES_8 + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_SATFINITE"],
                        ["decode E2M1", "convert F32_TO_E4M3FN_RNE_OVF_NAN", "convert F32_TO_E2M1_RNE_SATFINITE"],
                        [("convert F32_TO_BF16_RNE 7fc00000 ffc00000", "ffff ffff"),
                         ("decode E4M3FN 7f ff", "7fc00000 ffc00000"),
                         ("decode F16 7c01 fc01 7e00", "7fc02000 ffc02000 7fc00000")]),
    # FBGEMM's CPU operators (fbgemm_adapter.py). FloatToBfloat16Quantized is (bits + 0x8000) >>
    # 16: a tie goes up in magnitude (0x3f808000 -> 0x3f81, 0xbf808000 -> 0xbf81; the recipe's even
    # neighbours 0x3f80, 0xbf80; 0x3f818000 agrees), and a NaN gets no case of its own: a payload
    # below bit 15 is cut off (0x7f800001 -> 0x7f80, infinity), a low half of 0x8000 or more carries
    # (0x7fff8000 -> 0x8000, -0; 0xffff8000 wraps to 0x0000, +0), and a NaN whose low half is below
    # 0x8000 keeps its top bits (0x7fc00000 -> 0x7fc0). FloatToHFP8Quantized(x,
    # 4, 7, 448) clamps |x| with glibc's fminf, which returns 448 for a quiet NaN (-> 0x7e / 0xfe
    # by its sign; recipe 0x7f / 0xff) but a quieted NaN for a signalling one. That NaN fails the
    # `>= 2^-6` test and takes the subnormal path: 2^14 + NaN is the NaN (quiet bit set, payload
    # kept) and its low 8 bits, with the sign bit put in bit 7, are the code: 0x7f800001 -> 0x01,
    # 0xff800001 -> 0x81, 0x7f8000ff -> 0xff (a negative NaN code), 0x7f800080 -> 0x80 (-0),
    # 0x7f80007e -> 0x7e (448). HFP8QuantizedToFloat scales the shifted code by 2^120 with no NaN:
    # 0x7f -> 480 (0x43f00000), 0xff -> -480.
    "fbgemm": ("fbgemm",
               ["decode BF16", "decode E4M3FN", "convert F32_TO_E4M3FN_RNE_SATFINITE"],
               ["decode F16", "decode E2M1", "convert F32_TO_F16_RNE", "convert F32_TO_E4M3FN_RNE_OVF_NAN",
                "convert F32_TO_E2M1_RNE_SATFINITE", "reconstruct FP8_E4M3FN_ROW_BF16S", "dequantize FP8_E4M3FN_ROW_BF16S"],
               [(SPEC["convert F32_TO_BF16_RNE"][0], "3f81 3f82 3f81 3f80 7f80 ff80 0001 0001 8000"),
                ("convert F32_TO_BF16_RNE bf808000 7f800001 7fff8000 ffff8000 7fc00000 ffc00000",
                 "bf81 7f80 8000 0000 7fc0 ffc0"),
                ("convert F32_TO_E4M3FN_RNE_SATFINITE 7fc00000 ffc00000 ffffffff", "7e fe fe"),
                ("convert F32_TO_E4M3FN_RNE_SATFINITE 7f800001 ff800001 7f8000ff 7f800080 7f80007e", "01 81 ff 80 7e"),
                ("decode E4M3FN 7f ff", "43f00000 c3f00000")]),
    "jax": ("jax",
            DECODES_8 + ["decode E2M1"] + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_OVF_NAN", "convert F32_TO_E2M1_RNE_SATFINITE"],
            ["convert F32_TO_E4M3FN_RNE_SATFINITE"],
            # E2M1 has no NaN: XLA maps every NaN to -0 (0x8), the recipe to 0x7 / 0xf
            [("convert F32_TO_E2M1_RNE_SATFINITE 7fc00000 ffc00000", "8 8")]),
    # tf.cast (eager and XLA alike): float8_e4m3fn overflows to NaN (OVF_NAN: 464 is the tie, even
    # 448; 480 NaN); no float32 -> float4_e2m1fn cast. BF16 NaN is canonical with its sign
    # (payload dropped); F16 decode quiets a signalling NaN and keeps its payload.
    "tensorflow": ("tensorflow",
                   DECODES_8 + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_OVF_NAN"],
                   ["decode E2M1", "convert F32_TO_E4M3FN_RNE_SATFINITE", "convert F32_TO_E2M1_RNE_SATFINITE"],
                   [("convert F32_TO_BF16_RNE 7f800001 ff800001", "7fc0 ffc0"), ("decode F16 7c01 fc01", "7fc02000 ffc02000")]),
    "tensorflow-xla": ("tensorflow-xla",
                       DECODES_8 + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_OVF_NAN"],
                       ["decode E2M1", "convert F32_TO_E4M3FN_RNE_SATFINITE", "convert F32_TO_E2M1_RNE_SATFINITE"],
                       [("convert F32_TO_BF16_RNE 7f800001 ff800001", "7fc0 ffc0"), ("decode F16 7c01 fc01", "7fc02000 ffc02000")]),
    # paddle.cast on CPU: float8_e4m3fn saturates from 480 (0x43f00000) up, infinity included, so
    # the SATFINITE words above hold; but (464, 480) rounds up into the NaN code (recipe: 0x7e /
    # 0xfe) and every NaN becomes +-448 by its sign (recipe: 0x7f / 0xff). BF16 NaN is 0x7fff
    # whatever the sign (recipe 0x7fc0 / 0xffc0); F16 keeps a signalling NaN signalling and sets
    # the lowest fraction bit where the kept bits are zero (recipe 0x7f00, 0x7e00). F16: |x| in
    # [2^-89, 2^-77), far below half the smallest subnormal (2^-25, so the recipe gives +-0), comes
    # out as if 2^64 times larger: 2^-88 -> 2^-24 (0001), 2^-78 -> 2^-14 (0400), 1.5 * 2^-88 ->
    # the tie 1.5 * 2^-24, even 0002; just below the band, 0x12ffffff, is 0 as it should be.
    "paddle": ("paddle",
               DECODES_8 + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_SATFINITE"],
               ["decode E2M1", "convert F32_TO_E4M3FN_RNE_OVF_NAN", "convert F32_TO_E2M1_RNE_SATFINITE"],
               [("convert F32_TO_E4M3FN_RNE_SATFINITE 43e80001 c3efffff 43f00000 7fc00000 ffc00000 ff800001", "7f ff 7e 7e fe fe"),
                ("convert F32_TO_BF16_RNE 7fc00000 ffc00000 ff812345", "7fff 7fff 7fff"),
                ("convert F32_TO_F16_RNE 7fa00000 7f800001 ffc00000", "7d00 7c01 fe00"),
                ("convert F32_TO_F16_RNE 13800000 18800000 93000001 13c00000 12ffffff", "0001 0400 8001 0002 0000")]),
    # MLX: astype for BF16/F16, to_fp8/from_fp8 for E4M3FN (to_fp8 saturates, infinity included:
    # SATFINITE), E2M1 decoded by mxfp4 dequantize under a unit scale; no float32 -> E2M1 cast and
    # no FP32 divisor for NVFP4 (nvfp4 multiplies by global_scale / 2688). Departures, all NaN:
    # to_fp8 sends a NaN to +-448 (recipe: 7f / ff by the sign); BF16 NaN is 7fc0 whatever the sign;
    # F16 NaN is 7d00 / fd00 (sign kept, payload dropped, quiet bit 0x200 clear: recipe 7e00 /
    # fe00 for the quiet NaNs, 7f00 for 7fa00000).
    "mlx": ("mlx",
            DECODES_8 + ["decode E2M1"] + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_SATFINITE"],
            ["convert F32_TO_E4M3FN_RNE_OVF_NAN", "convert F32_TO_E2M1_RNE_SATFINITE", "reconstruct NVFP4",
             "dequantize NVFP4"],
            [("convert F32_TO_E4M3FN_RNE_SATFINITE 7fc00000 ffc00000 7f800001", "7e fe 7e"),
             ("convert F32_TO_BF16_RNE 7fc00000 ffc00000 ff812345", "7fc0 7fc0 7fc0"),
             ("convert F32_TO_F16_RNE 7fc00000 ffc00000 7fa00000", "7d00 fd00 7d00")]),
    # Tensor.cast on the CPU device. fp8e4m3 is emulated on top of the native binary16: float32 ->
    # binary16 (RNE), clamp to +-448 (infinity too), then integer RNE to fp8, where a binary16
    # value below 2^-6 flushes to a signed zero. So two roundings: 1.0625 + 2^-23 (0x3f880001)
    # becomes the binary16 tie 1.0625 and goes to even 1.0 (0x38), the recipe's 0x39; 0x3c7c0000
    # (1.96875 * 2^-7) rounds to 2^-6 (0x08) by the recipe, tinygrad flushes it (0x3c7fffff, which
    # binary16 already rounds to 2^-6, gives 0x08). Decoding reads fp8 subnormals as zero, and the
    # NaN 0x7f shifts its 7 bits into the binary16 fraction (0x7f80), i.e. 0x7ff00000 in binary32.
    # Default (CLANG) renderer: no bfloat16 with clang 14.
    "tinygrad": ("tinygrad",
                 ["decode F16", "convert F32_TO_F16_RNE"],
                 ["decode BF16", "convert F32_TO_BF16_RNE", "decode E2M1", "convert F32_TO_E4M3FN_RNE_OVF_NAN",
                  "convert F32_TO_E2M1_RNE_SATFINITE"],
                 # the SATFINITE case with its subnormals flushed; the flush and the double rounding above
                 [(SPEC["convert F32_TO_E4M3FN_RNE_SATFINITE"][0], "38 7e 7e fe 7e 00 00 00 80"),
                  ("convert F32_TO_E4M3FN_RNE_SATFINITE 3c800000 3c7fffff 3c7c0000 bc7c0000 3f880001", "08 08 00 80 38"),
                  (SPEC["decode E4M3FN"][0], "43e00000 c3e00000 00000000 00000000 3c800000 3f800000 00000000 80000000"),
                  ("decode E4M3FN 7f ff", "7ff00000 fff00000")]),
    # DEV=CPU:X86: bfloat16 goes through the same emulation: subnormal inputs and words flush to
    # zero; anything above the largest bfloat16 (0x7f7f0000) is clamped to infinity before
    # rounding, so (0x7f7f0000, 0x7f7f8000) gives 0x7f80 where the recipe rounds down to 0x7f7f;
    # a NaN keeps the top 7 fraction bits without forcing the quiet bit: 0x7f800001 -> 0x7f80.
    # fp8e4m3 as on CLANG (through binary16)
    "tinygrad-x86": ("tinygrad-x86",
                     ["decode F16", "convert F32_TO_F16_RNE"],
                     ["decode E2M1", "convert F32_TO_E4M3FN_RNE_OVF_NAN", "convert F32_TO_E2M1_RNE_SATFINITE"],
                     [(SPEC["convert F32_TO_BF16_RNE"][0], "3f80 3f82 3f81 3f80 7f80 ff80 0000 0000 8000"),
                      ("convert F32_TO_BF16_RNE 7f7f0001 7f7f7fff ff7f7fff 7f800001 ffc00001", "7f80 7f80 ff80 7f80 ffc0"),
                      (SPEC["decode BF16"][0], "3f800000 00000000 80000000 7f800000 ff7f0000"),
                      (SPEC["convert F32_TO_E4M3FN_RNE_SATFINITE"][0], "38 7e 7e fe 7e 00 00 00 80"),
                      ("convert F32_TO_E4M3FN_RNE_SATFINITE 3c7c0000 3f880001", "00 38"),
                      (SPEC["decode E4M3FN"][0], "43e00000 c3e00000 00000000 00000000 3c800000 3f800000 00000000 80000000")]),
    "openvino": ("openvino",
                 DECODES_8 + ["decode E2M1", "convert F32_TO_F16_RNE", "convert F32_TO_E2M1_RNE_SATFINITE"],
                 ["convert F32_TO_E4M3FN_RNE_SATFINITE"],
                 # BF16 drops the sticky bits below the tie, can turn a NaN into infinity or carry
                 # it into -0; f8e4m3 rounds twice (spec: 01, 01), so (464, 464.125] reaches 448
                 # (binary16 464, the E4M3FN tie) where the recipe overflows to NaN; 480 is NaN
                 [("convert F32_TO_BF16_RNE 3f808001 7f800001 7fff800a", "3f80 7f80 8000"),
                  ("convert F32_TO_E4M3FN_RNE_OVF_NAN 3b3ff017 3a800027", "02 00"),
                  ("convert F32_TO_E4M3FN_RNE_OVF_NAN 43e80001 43f00000 7f800000", "7e 7f 7f")]),
    # Static shapes: another BF16 kernel, round-to-nearest-even with the recipe's NaNs, but subnormal
    # results flushed to zero (0x00010000 -> 0x0001, 0x007fffff -> 0x0080 by the recipe).
    "openvino-static": ("openvino-static",
                        DECODES_8 + ["decode E2M1", "convert F32_TO_F16_RNE", "convert F32_TO_E2M1_RNE_SATFINITE"],
                        ["convert F32_TO_E4M3FN_RNE_SATFINITE"],
                        [("convert F32_TO_BF16_RNE 3f808001 7f800001 7fff800a ff812345 00010000 007fffff",
                          "3f81 7fc0 7fff ffc1 0000 0000"),
                         ("convert F32_TO_E4M3FN_RNE_OVF_NAN 43e80001 43f00000 7f800000", "7e 7f 7f")]),
    "onnxruntime": ("onnxruntime",
                    DECODES_8 + CONVERTS_16 + ["convert F32_TO_E4M3FN_RNE_SATFINITE", "convert F32_TO_E4M3FN_RNE_OVF_NAN",
                                               "reconstruct FP8_E4M3FN_ROW_BF16S", "dequantize FP8_E4M3FN_ROW_BF16S"],
                    ["decode E2M1", "convert F32_TO_E2M1_RNE_SATFINITE", "reconstruct NVFP4"],
                    # DequantizeLinear has no validity rules: the NaN code 0x7f dequantizes to NaN;
                    # Cast saturate=0 saturates [480, 496) instead of overflowing to NaN
                    [("reconstruct FP8_E4M3FN_ROW_BF16S 7f:3f80", "7fc00000"),
                     ("convert F32_TO_E4M3FN_RNE_OVF_NAN 43f00000 c3f7ffff 43f80000", "7e fe 7f")]),
    "onnx-reference": ("onnx-reference",
                       DECODES_8 + ["decode E2M1"] + CONVERTS_16 +
                       ["convert F32_TO_E4M3FN_RNE_SATFINITE", "convert F32_TO_E4M3FN_RNE_OVF_NAN",
                        "convert F32_TO_E2M1_RNE_SATFINITE", "reconstruct FP8_E4M3FN_ROW_BF16S",
                        "dequantize FP8_E4M3FN_ROW_BF16S"],
                       ["reconstruct NVFP4"],
                       # F16 keeps a signalling NaN signalling (recipe: quiet bit forced)
                       [("convert F32_TO_F16_RNE 7fa00000", "7d00")]),
    "torchao": ("torchao",
                ["decode E2M1", "convert F32_TO_E2M1_RNE_SATFINITE", "reconstruct NVFP4", "dequantize NVFP4",
                 "reconstruct FP8_E4M3FN_ROW_BF16S", "dequantize FP8_E4M3FN_ROW_BF16S"],
                ["decode BF16", "convert F32_TO_BF16_RNE", "convert F32_TO_E4M3FN_RNE_SATFINITE"],
                # multiply by float32(1/d_w) after rounding P * e4m3: 0.5 * 1.75 / 1.5 is 0x3f155555
                # correctly rounded, torchao 0x3f155556; a subnormal d_w makes P infinite:
                # 0 * inf = NaN; K = 1 is not a whole block (unsupported)
                [("reconstruct NVFP4 1:3e:3fc00000 8:27:00000001", "3f155556 ffc00000"),
                 ("dequantize NVFP4 1x1 a 7e 3fc00000", None),
                 E2M1_TIES,
                 # f32_to_f4_unpacked sends a NaN down its normal-range path: word - (126 << 23) +
                 # 0x1fffff + (bit 22), >> 22, low byte, sign back in bit 3. 0x7fc00000: 0x40e00000
                 # >> 22 = 0x103 -> 3; 0xffc00000 -> 0xb; 0x7f800001: 0x40a00000 >> 22 = 0x102 -> 2
                 # (recipe: 7, f, 7)
                 ("convert F32_TO_E2M1_RNE_SATFINITE 7fc00000 ffc00000 7f800001", "3 b 2"),
                 # Float8Tensor applies no validity rule: a nonzero code in a +0-scale row (spec 3.4
                 # invalid) is answered 2^-9 * +0 = +0, -2^-9 * +0 = -0
                 ("reconstruct FP8_E4M3FN_ROW_BF16S 01:0000 81:0000", "00000000 80000000"),
                 ("dequantize FP8_E4M3FN_ROW_BF16S 2x2x1 38,b8,40,00 4000,3f00", None)]),
    "compressed-tensors": ("compressed-tensors",
                           ["decode E2M1", "reconstruct NVFP4", "dequantize NVFP4"],
                           ["decode BF16", "convert F32_TO_BF16_RNE", "reconstruct FP8_E4M3FN_ROW_BF16S"],
                           # divides the block scale by d_w first, then multiplies: 1.5 * 1.625 / 1.25
                           # = 1.95 is 0x3ff9999a correctly rounded, 0x3ff99999 after float32(1.625 /
                           # 1.25) * 1.5; a subnormal d_w makes the quotient infinite: -0 * inf = NaN
                           [("reconstruct NVFP4 3:3d:3fa00000 8:27:00000001", "3ff99999 ffc00000"),
                            ("dequantize NVFP4 1x1 a 7e 3fc00000", None),
                            E2M1_TIES,
                            # cast_to_fp4 puts the sign back as |x| * sign(x), and sign(-0) is +0:
                            # -0 -> 0x0 (recipe 0x8); a NaN stays NaN, int8(NaN) is 0 on x86 and its
                            # sign is lost: every NaN -> 0x0 (recipe 0x7 / 0xf)
                            (SPEC["convert F32_TO_E2M1_RNE_SATFINITE"][0], "6 4 2 0 7 f 0"),
                            ("convert F32_TO_E2M1_RNE_SATFINITE 7fc00000 ffc00000 7f800001", "0 0 0")]),
    "modelopt": ("modelopt",
                 ["reconstruct NVFP4"],
                 ["decode BF16", "convert F32_TO_BF16_RNE", "reconstruct FP8_E4M3FN_ROW_BF16S"],
                 # its E2M1 table decodes 0x8 as +0 (spec: -0); multiply by float32(1/d_w) after
                 # rounding e4m3 * P, as torchao: 0.5 * 1.75 / 1.5 is 0x3f155555 correctly
                 # rounded, ModelOpt 0x3f155556
                 [("decode E2M1 0 1 2 3 4 5 6 7 8 f",
                   "00000000 3f000000 3f800000 3fc00000 40000000 40400000 40800000 40c00000 00000000 c0c00000"),
                  ("reconstruct NVFP4 1:3e:3fc00000 8:38:3f800000", "3f155556 00000000"),
                  (SPEC["dequantize NVFP4"][0], SPEC["dequantize NVFP4"][1].replace(",80000000,", ",00000000,")),
                  ("dequantize NVFP4 1x1 a 7e 3fc00000", None),
                  E2M1_TIES,
                  # _cast_fp4's sign is x < 0, false for -0 and for every NaN, and a NaN sorts
                  # above all seven bounds: -0 -> 0x0 (recipe 0x8), any NaN -> 0x7 (recipe 0xf
                  # for a negative one)
                  (SPEC["convert F32_TO_E2M1_RNE_SATFINITE"][0], "6 4 2 0 7 f 0"),
                  ("convert F32_TO_E2M1_RNE_SATFINITE 7fc00000 ffc00000 ff800001", "7 7 7")]),
}

src, which = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import implementations  # noqa: E402
row = implementations.by_name()[which]
name, provides, declines, departures = ADAPTERS[which]
module = row["module"]
python = implementations.venv_python(row, src)
if not os.access(python, os.X_OK):
    print("SKIPPED: no %s; run scripts/install-thirdparty" % python)
    sys.exit(77)
probe = subprocess.run([python, "-c", "import " + module], capture_output=True, text=True)
if probe.returncode:
    print("SKIPPED: the venv cannot import %s (%s); run scripts/install-thirdparty" %
          (module, (probe.stderr.strip().splitlines() or ["?"])[-1]))
    sys.exit(77)

cases = [SPEC[c] for c in provides] + [(SPEC[c][0], None) for c in declines] + departures
cases += [("frobnicate 1", None), ("encode Q4G64_F16S FP32 1x2 3f800000,bf000000", None)]
cmd = [python, os.path.join(src, "targets", "thirdparty", row["adapter"]["pipe"])] + row["adapter"].get("args", [])
os.environ.update(row["adapter"].get("env", {}))
passed = failed = 0
# A session's wall-clock limit: the adapter's first request of each capability may take its row's
# per-request timeout (torch.compile compiles each cast then; TensorFlow and torch import).
SESSION_TIMEOUT = max(240, 4 * row.get("timeout", 10))


def check(ok, what):
    global passed, failed
    passed, failed = passed + ok, failed + (not ok)
    if not ok:
        print("FAIL:", what)


requests = ["hello 1"] + [r for r, _ in cases]
proc = subprocess.run(cmd, input="".join(r + "\n" for r in requests), capture_output=True, text=True, timeout=SESSION_TIMEOUT)
lines = proc.stdout.splitlines()
check(proc.returncode == 0, "exit status %d: %s" % (proc.returncode, proc.stderr[-500:]))
check(len(lines) == len(requests), "answered %d lines for %d requests" % (len(lines), len(requests)))
hello = lines[0].split(" ") if lines else []
check(len(hello) == 3 and hello[:2] == ["ok", name], "hello: %r" % lines[:1])
for (request, expect), got in zip(cases, lines[1:]):
    want = "unsupported" if expect is None else "ok " + expect
    check(got == want, "%s\n  want %s\n  got  %s" % (request, want, got))


# The configuration the adapter reports (PIPE.md `info 1`), where it reports one: the path judged.
INFO = {"mlx": ["device=Device(cpu,_0)", "stream=thread-local", "path=eager"],
        "pytorch": ["aten_cpu_capability=", "layout=contiguous", "threads=1"],
        "pytorch-strided": ["aten_cpu_capability=", "layout=strided"],
        "pytorch-compile": ["path=torch.compile", "backend=inductor", "block=65536", "threads=1", "inductor_isa=", "cxx="],
        "openvino": ["shapes=dynamic", "inference_precision_hint=f32", "inference_num_threads=1"],
        "openvino-static": ["shapes=static", "inference_precision_hint=f32"],
        "paddle": ["mode=dynamic", "place=cpu", "omp_num_threads=1"],
        "fbgemm": ["torch=2.14.1", "fbgemm_gpu=1.9.0", "threads=1"],
        "tinygrad": ["device=CPU", "renderer=ClangRenderer", "threads=1"],
        "tinygrad-x86": ["device=CPU", "renderer=X86Renderer", "threads=1"]}
if which in INFO:
    proc = subprocess.run(cmd, input="hello 1\ninfo 1\n", capture_output=True, text=True, timeout=SESSION_TIMEOUT)
    info = (proc.stdout.splitlines() + ["", ""])[1]
    check(info.startswith("ok ") and all(k in info.split(" ")[1:] or any(t.startswith(k) for t in info.split(" "))
                                         for k in INFO[which]), "info 1: %r, want %s" % (info, INFO[which]))
    if which == "pytorch":  # ATEN_CPU_CAPABILITY caps the level; the adapter reports the one in force
        env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
        proc = subprocess.run(cmd, input="hello 1\ninfo 1\n", capture_output=True, text=True, timeout=SESSION_TIMEOUT, env=env)
        info = (proc.stdout.splitlines() + ["", ""])[1]
        check("aten_cpu_capability=DEFAULT" in info.split(" "), "info 1 under ATEN_CPU_CAPABILITY=default: %r" % info)


def words_le(tokens):
    return b"".join(struct.pack("<I", int(t, 16)) for t in tokens.split())


# The same word cases in binary batches (PIPE.md): `ok` + words (+ validity bytes for decode); an
# unsupported batch's payload is consumed; token requests stay text only.
word_cases = [(r, e) for r, e in cases if r.split(" ")[0] in ("decode", "convert")]
stream = b"hello 1\nbinary 1\n"
for request, _ in word_cases:
    op, selector, *words = request.split(" ")
    stream += ("bin %s %s %d\n" % (op, selector, len(words))).encode() + words_le(" ".join(words))
proc = subprocess.run(cmd, input=stream + b"hello 1\n", capture_output=True, timeout=SESSION_TIMEOUT)
out = proc.stdout
check(proc.returncode == 0, "binary session exit status %d: %s" % (proc.returncode, proc.stderr[-500:]))
first = out.split(b"\n", 1)[0]
out = out[len(first) + 1:]
check(out.startswith(b"ok\n"), "binary 1 answered %r" % out[:20])
out = out[3:]
for request, expect in word_cases:
    n = len(request.split(" ")) - 2
    want = b"unsupported\n" if expect is None else \
        b"ok\n" + words_le(expect) + (b"\x01" * n if request.startswith("decode") else b"")
    check(out[:len(want)] == want, "bin %s\n  want %r\n  got  %r" % (request, want, out[:len(want)]))
    out = out[len(want):]
check(out.startswith(b"ok " + name.encode()), "the session after the binary batches: %r" % out[:40])

print("%s: %d passed, %d failed" % (which, passed, failed))
sys.exit(1 if failed else 0)
