"""gguf-py (llama.cpp's Python GGUF library, the one its convert_hf_to_gguf.py writes models with)
as a pipe adapter (runners/PIPE.md).

Requests go through the library's public entry points, `gguf.quants.quantize(data, qtype)` and
`gguf.quants.dequantize(data, qtype)`, with qtype GGMLQuantizationType.BF16 or .F16: the calls a
conversion to a BF16 or F16 GGUF file makes for each tensor. Its conventions, isolated here:
- BF16 is gguf-py's own numpy code, written to match ggml's ggml_compute_fp32_to_bf16: a NaN keeps
  its sign and top fraction bits with the quiet bit set, every other value is rounded to nearest
  even with integer arithmetic (overflow to infinity). Offered as F32_TO_BF16_RNE and decode BF16.
- F16 is `astype(np.float16)` inside gguf-py, i.e. NumPy's cast (certified on its own as `numpy`);
  offered as F32_TO_F16_RNE and decode F16 so that the converter's whole path is on record.
- GGML's block quantizations (Q4_0, Q8_0, K-quants, ...) are other formats than NInfer's grouped
  ones: nothing else is provided.
Run with the project venv's python: .venv/bin/python targets/thirdparty/gguf_adapter.py
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

WORD_TYPES = ("BF16", "F16")
RECIPES = {"F32_TO_BF16_RNE": "BF16", "F32_TO_F16_RNE": "F16"}


@functools.lru_cache(maxsize=None)
def qtype(name):
    from gguf import GGMLQuantizationType
    return GGMLQuantizationType[name]


def decode(word_type, words):
    import numpy as np
    from gguf import quants
    # A GGUF tensor's bytes as the reader maps them: uint8 for BF16, the float16 view for F16.
    stored = (words & 0xFFFF).astype("<u2")
    data = stored.view(np.uint8) if word_type == "BF16" else stored.view(np.float16)
    return np.asarray(quants.dequantize(data, qtype(word_type)), dtype=np.float32).view(np.uint32)


def convert(recipe, words):
    import numpy as np
    from gguf import quants
    out = np.asarray(quants.quantize(words.view(np.float32), qtype(RECIPES[recipe])))
    return out.view("<u2").astype(np.uint32)


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    version = "%s+numpy-%s" % (md.version("gguf"), md.version("numpy"))
    return nc_pipe.Adapter("gguf", version, {"decode": (WORD_TYPES, decode), "convert": (tuple(RECIPES), convert)})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
