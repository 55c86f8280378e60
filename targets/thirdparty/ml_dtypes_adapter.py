"""ml_dtypes (bfloat16, float8_e4m3fn, float4_e2m1fn) as a pipe adapter (runners/PIPE.md).

Conventions of this library, isolated here:
- Casts are numpy casts through ml_dtypes' C++ converters: round to nearest even, gradual
  underflow.
- float32 -> float8_e4m3fn: overflow and infinity become NaN (the type has no infinity), so the
  cast implements F32_TO_E4M3FN_RNE_OVF_NAN. ml_dtypes has no saturating cast, so
  F32_TO_E4M3FN_RNE_SATFINITE is unsupported (a caller would have to clip first: that is a
  different implementation, not ml_dtypes').
- float32 -> float4_e2m1fn: the type has no infinity or NaN; overflow saturates to +-6, so the cast
  is offered as F32_TO_E2M1_RNE_SATFINITE (its NaN result is whatever ml_dtypes picks).
- float32 -> bfloat16: F32_TO_BF16_RNE; NaN handling as ml_dtypes does it.
- binary16 is numpy's, not ml_dtypes', so F16 is not provided.
Run with the project venv's python: .venv/bin/python targets/thirdparty/ml_dtypes_adapter.py
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

DECODE_TYPES = ("BF16", "E4M3FN", "E2M1")
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_E4M3FN_RNE_OVF_NAN", "F32_TO_E2M1_RNE_SATFINITE")


@functools.lru_cache(maxsize=None)
def tables():
    """word type -> (storage dtype, ml_dtypes type, low-bit mask);
    recipe -> (destination type, storage dtype, low-bit mask)."""
    import ml_dtypes
    import numpy as np
    decode = {
        "BF16": (np.uint16, ml_dtypes.bfloat16, 0xFFFF),
        "E4M3FN": (np.uint8, ml_dtypes.float8_e4m3fn, 0xFF),
        "E2M1": (np.uint8, ml_dtypes.float4_e2m1fn, 0xF),
    }
    convert = {
        "F32_TO_BF16_RNE": (ml_dtypes.bfloat16, np.uint16, 0xFFFF),
        "F32_TO_E4M3FN_RNE_OVF_NAN": (ml_dtypes.float8_e4m3fn, np.uint8, 0xFF),
        "F32_TO_E2M1_RNE_SATFINITE": (ml_dtypes.float4_e2m1fn, np.uint8, 0xF),
    }
    return decode, convert


def decode(word_type, words):
    import numpy as np
    storage, dtype, mask = tables()[0][word_type]
    return (words & mask).astype(storage).view(dtype).astype(np.float32).view(np.uint32)


def convert(recipe, words):
    import numpy as np
    dtype, storage, mask = tables()[1][recipe]
    return words.view(np.float32).astype(dtype).view(storage) & mask


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    version = "%s+numpy-%s" % (md.version("ml_dtypes"), md.version("numpy"))
    return nc_pipe.Adapter("ml_dtypes", version, {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
