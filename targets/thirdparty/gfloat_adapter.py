"""gfloat (Graphcore's generic floating-point reference in Python) as a pipe adapter.

gfloat describes each format by a FormatInfo and works on values, not words: decode_ndarray
gives each code's value (float64), round_ndarray rounds float64 values to the format's values,
encode_ndarray maps values back to codes. Its conventions, isolated here:
- Rounding is RoundMode.TiesToEven with gradual underflow (its formats carry subnormals).
- Saturation is the caller's `sat` flag: SATFINITE recipes pass sat=True; F32_TO_E4M3FN_RNE_OVF_NAN
  passes sat=False (OCP E4M3 has no infinity, so overflow is NaN); BF16/F16 pass sat=False
  (overflow to infinity).
- E2M1 has no NaN and gfloat raises on a NaN input there: such a request is answered `error`
  naming the refused inputs.
- NaN results are gfloat's one NaN code per format (it does not carry payloads), so NaN payloads
  are not preserved; decode returns values, so every NaN word decodes to numpy's default NaN.
Formats used: format_info_bfloat16, format_info_binary16, format_info_ocp_e4m3 (E4M3FN),
format_info_ocp_e2m1 (E2M1).
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

DECODE_TYPES = ("BF16", "F16", "E4M3FN", "E2M1")
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_F16_RNE", "F32_TO_E4M3FN_RNE_SATFINITE",
           "F32_TO_E4M3FN_RNE_OVF_NAN", "F32_TO_E2M1_RNE_SATFINITE")


@functools.lru_cache(maxsize=None)
def tables():
    """word type -> (format, low-bit mask); recipe -> (format, saturate)."""
    from gfloat.formats import (format_info_bfloat16, format_info_binary16, format_info_ocp_e2m1,
                                format_info_ocp_e4m3)
    decode = {
        "BF16": (format_info_bfloat16, 0xFFFF),
        "F16": (format_info_binary16, 0xFFFF),
        "E4M3FN": (format_info_ocp_e4m3, 0xFF),
        "E2M1": (format_info_ocp_e2m1, 0xF),
    }
    convert = {
        "F32_TO_BF16_RNE": (format_info_bfloat16, False),
        "F32_TO_F16_RNE": (format_info_binary16, False),
        "F32_TO_E4M3FN_RNE_SATFINITE": (format_info_ocp_e4m3, True),
        "F32_TO_E4M3FN_RNE_OVF_NAN": (format_info_ocp_e4m3, False),
        "F32_TO_E2M1_RNE_SATFINITE": (format_info_ocp_e2m1, True),
    }
    return decode, convert


def rne(fi, values, sat):
    from gfloat import RoundMode, encode_ndarray, round_ndarray
    return encode_ndarray(fi, round_ndarray(fi, values, RoundMode.TiesToEven, sat))


def decode(word_type, words):
    import numpy as np
    from gfloat import decode_ndarray
    fi, mask = tables()[0][word_type]
    # Every value of these formats is exact in binary32, so this narrowing is exact.
    return decode_ndarray(fi, (words & mask).astype(np.int64)).astype(np.float32).view(np.uint32)


def convert(recipe, words):
    import numpy as np
    fi, sat = tables()[1][recipe]
    src = words.view(np.float32).astype(np.float64)  # exact widening
    try:
        return rne(fi, src, sat).astype(np.uint32)
    except Exception:
        raise ValueError("gfloat refuses %s inputs %s" % (recipe, " ".join(refused(fi, sat, words))))


def refused(fi, sat, words):
    """The input words gfloat raises on (e.g. NaN into E2M1, which has no NaN): the protocol has
    no per-element error, so the request is answered `error` naming them rather than inventing
    a result gfloat does not give."""
    import numpy as np
    bad = []
    for w in words.tolist():
        try:
            rne(fi, np.array([w], dtype=np.uint32).view(np.float32).astype(np.float64), sat)
        except Exception:
            bad.append("%08x" % w)
            if len(bad) > 8:
                break
    return bad[:8] + (["..."] if len(bad) > 8 else [])


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    version = "%s+numpy-%s" % (md.version("gfloat"), md.version("numpy"))
    return nc_pipe.Adapter("gfloat", version, {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
