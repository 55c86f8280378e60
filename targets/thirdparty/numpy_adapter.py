"""NumPy's own binary16 (numpy.float16) as a pipe adapter (runners/PIPE.md).

numpy.float16 is the half type of NumPy itself, not of a plugin: every array library that hands a
float16 array to NumPy, and every converter that writes F16 weights with `astype(np.float16)`
(gguf-py's F16 among them), goes through these casts. Conventions, isolated here:
- float32 -> float16 is `ndarray.astype(np.float16)`: round to nearest even, gradual underflow,
  overflow to infinity, so it is offered as F32_TO_F16_RNE; its NaN results are NumPy's.
- float16 -> float32 is `astype(np.float32)`, offered as decode F16; its NaN results are NumPy's.
- NumPy has no bfloat16 or 8-bit float types: nothing else is provided.
Run with the project venv's python: .venv/bin/python targets/thirdparty/numpy_adapter.py
"""
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402


def decode(word_type, words):
    import numpy as np
    return (words & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)


def convert(recipe, words):
    import numpy as np
    return words.view(np.float32).astype(np.float16).view(np.uint16)


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    return nc_pipe.Adapter("numpy", md.version("numpy"), {"decode": (("F16",), decode), "convert": (("F32_TO_F16_RNE",), convert)})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
