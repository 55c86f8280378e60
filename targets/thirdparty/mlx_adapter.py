"""MLX (Apple's array framework, Linux CPU wheel `mlx[cpu]`) as a pipe adapter (runners/PIPE.md).

What MLX 0.32 exposes for these formats, and what the adapter makes of it:
- `array.astype(mx.bfloat16 | mx.float16)` and `.astype(mx.float32)` back: convert
  F32_TO_BF16_RNE, F32_TO_F16_RNE and decode BF16, F16. Words go in and out through `mx.view`
  (a reinterpretation, no conversion).
- `mx.to_fp8(x)` (float32 -> E4M3 code as uint8) and `mx.from_fp8(codes, dtype=mx.float32)`:
  convert and decode E4M3FN. MLX has no float8 dtype, only these two functions. to_fp8 saturates
  finite overflow and infinity to +-448, so it is offered as F32_TO_E4M3FN_RNE_SATFINITE; there is
  no non-saturating form (OVF_NAN not offered). It maps a NaN to 0x7e / 0xfe (+-448), where the
  recipe wants the NaN words 0x7f / 0xff: the certificate counts those inputs.
- `mx.quantize` / `mx.dequantize` with mode "mxfp4", "mxfp8", "nvfp4" (and "affine"). The only
  E2M1 decoder is inside dequantize: decode E2M1 is `mx.dequantize(codes, E8M0 scale 127 (= 1),
  mode="mxfp4")`, 32 codes a group, 8 packed to a uint32 with the first in the low nibble.
  "mxfp8" dequantize with a unit scale decodes E4M3 as from_fp8 does (all 256 words equal).
- Not provided: a float32 -> E2M1 conversion. `mx.quantize` picks each group's scale itself from
  the group's maximum, so no call converts a word alone (F32_TO_E2M1_RNE_SATFINITE not offered).
  NVFP4 reconstruct/dequantize: nvfp4 dequantize multiplies by its `global_scale` / (6 * 448)
  (global_scale is the tensor's absolute maximum, as its quantize takes it) instead of dividing by
  the spec's FP32 divisor d_w (3.3): `W = e2m1 * e4m3 / d_w` has no exact expression there, so
  neither is offered. Its K must also be a multiple of 32 (K = 16: "[reshape] Cannot reshape array
  of size 2 into shape (0,4)"). Nor can "mxfp8" carry FP8_E4M3FN_ROW_BF16S (3.4): its E8M0 scale
  per 32 codes is a power of two, not a BF16 multiplier per row; "affine" (a scale and a bias per
  group) is none of the registered schemes.
- `mx.compile` gives the same words as these eager calls, checked with each cast fused with a
  negation so that MLX generates and builds its own C++ kernel (/tmp/mlx/VERSION/cpu): BF16 and F16
  over every binary32 input, the decodes over every word; to_fp8 stays an op of its own under
  compile (not fused) and was compared on 1 input in 31 plus every zero, subnormal, infinity and
  NaN. So there is one row.
MLX runs each CPU op on its stream's one thread (there is no intra-op thread setting); every
thread calling the adapter (the in-process runner calls it from its own threads) uses a stream of
its own, `mx.new_thread_local_stream(mx.cpu)`. `info 1` reports the device and the stream kind.
Run with the project venv's python.
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

DECODE_TYPES = ("BF16", "F16", "E4M3FN", "E2M1")
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_F16_RNE", "F32_TO_E4M3FN_RNE_SATFINITE")
MX_GROUP = 32  # mxfp4's group: one E8M0 scale per 32 codes
E8M0_ONE = 127  # 2^(127 - 127)


@functools.lru_cache(maxsize=None)
def mlx():
    import mlx.core as mx
    mx.set_default_device(mx.cpu)
    return mx, mx.new_thread_local_stream(mx.cpu)


def decode(word_type, words):
    import numpy as np
    mx, s = mlx()
    n = len(words)
    if word_type == "E2M1":
        codes = np.zeros(-(-max(n, 1) // MX_GROUP) * MX_GROUP, dtype=np.uint32)
        codes[:n] = words & 0xF
        packed = np.bitwise_or.reduce(codes.reshape(-1, 8) << (4 * np.arange(8, dtype=np.uint32)), axis=1)
        scales = np.full((len(codes) // MX_GROUP, 1), E8M0_ONE, dtype=np.uint8)
        out = mx.dequantize(mx.array(packed.reshape(len(scales), -1)), mx.array(scales), mode="mxfp4",
                            dtype=mx.float32, stream=s)
        return np.array(out.view(mx.uint32, stream=s)).reshape(-1)[:n]
    if word_type == "E4M3FN":
        out = mx.from_fp8(mx.array((words & 0xFF).astype(np.uint8)), dtype=mx.float32, stream=s)
    else:
        dtype = mx.bfloat16 if word_type == "BF16" else mx.float16
        x = mx.array((words & 0xFFFF).astype(np.uint16)).view(dtype, stream=s)
        out = x.astype(mx.float32, stream=s)
    return np.array(out.view(mx.uint32, stream=s))


def convert(recipe, words):
    import numpy as np
    mx, s = mlx()
    x = mx.array(words).view(mx.float32, stream=s)
    if recipe == "F32_TO_E4M3FN_RNE_SATFINITE":
        return np.array(mx.to_fp8(x, stream=s)).astype(np.uint32)
    dtype = mx.bfloat16 if recipe == "F32_TO_BF16_RNE" else mx.float16
    return np.array(x.astype(dtype, stream=s).view(mx.uint16, stream=s)).astype(np.uint32)


def info():
    mx, _ = mlx()
    return {"device": str(mx.default_device()), "stream": "thread-local", "path": "eager"}


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    return nc_pipe.Adapter("mlx", md.version("mlx"),
                           {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)}, info)


if __name__ == "__main__":
    nc_pipe.serve(adapter())
