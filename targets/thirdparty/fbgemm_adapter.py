"""FBGEMM's CPU quantize/dequantize operators (fbgemm-gpu-cpu, `torch.ops.fbgemm`) as a pipe adapter
(runners/PIPE.md).

Conventions of this library, isolated here:
- The operators are registered when `fbgemm_gpu` is imported; each release is built for one torch
  release, so this adapter runs in a venv of its own (.venv-fbgemm, implementations.json).
- E4M3FN is FBGEMM's "HFP8" with ebits 4, exponent bias 7 and max_pos 448:
  `FloatToHFP8Quantized(x, 4, 7, 448.0)` (a 2-D float32 tensor in, uint8 codes out) clamps |x|
  to 448 with fminf, which also sends a NaN to 448 (fminf returns its other operand), then rounds
  to nearest even by adding and subtracting a power of two in binary32 (subnormals by adding
  2^14, whose ulp is E4M3FN's 2^-9): offered as F32_TO_E4M3FN_RNE_SATFINITE.
  `HFP8QuantizedToFloat(q, 4, 7)` decodes by shifting the code into a binary32 word and scaling
  by 2^120, with no NaN: 0x7f is 480.
- BF16: `FloatToBfloat16Quantized(x)` gives bfloat16 words as (bits + 0x8000) >> 16 (ties away
  from zero, a NaN's payload can carry into the exponent or the sign); offered as
  F32_TO_BF16_RNE. `Bfloat16QuantizedToFloat` widens by a 16-bit shift.
- FBGEMM has no CPU float16 or E2M1 conversion; its row-wise FP8 operators
  (`FloatToFP8RowwiseQuantized`, `FP8RowwiseQuantizedToFloat`) raise "fp8 is not supported by
  CPU", and its row formats carry a binary32 scale (and bias) in the row, not the registry's
  BF16 row scale: none of those is offered.
`info 1` reports the torch and fbgemm_gpu releases and the thread count.
Run with the .venv-fbgemm python.
"""
import functools
import importlib.metadata as md
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

DECODE_TYPES = ("BF16", "E4M3FN")
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_E4M3FN_RNE_SATFINITE")
E4M3 = (4, 7)  # FBGEMM's HFP8 parameters for E4M3FN: exponent bits, exponent bias
E4M3_MAX = 448.0
# In process the runner hands each batch over as a read-only view of its buffer (no copy); the
# operators only read their input, and torch warns (once) that it cannot mark it read-only.
warnings.filterwarnings("ignore", message="The given NumPy array is not writable")


@functools.lru_cache(maxsize=None)
def ops():
    import torch
    torch.set_num_threads(1)  # one adapter process per sweep thread already
    import fbgemm_gpu  # noqa: F401  registers torch.ops.fbgemm
    return torch.ops.fbgemm


def decode(word_type, words):
    import numpy as np
    import torch
    if word_type == "BF16":
        bits = torch.from_numpy(words.astype(np.int16))  # numpy's narrowing keeps the low 16 bits
        out = ops().Bfloat16QuantizedToFloat(bits.view(torch.bfloat16).reshape(1, -1))
    else:
        codes = torch.from_numpy(words.astype(np.uint8))
        out = ops().HFP8QuantizedToFloat(codes.reshape(1, -1), *E4M3)
    return out.reshape(-1).view(torch.int32).numpy().view(np.uint32)


def convert(recipe, words):
    import numpy as np
    import torch
    x = torch.from_numpy(words.view(np.float32)).reshape(1, -1)
    if recipe == "F32_TO_BF16_RNE":
        return ops().FloatToBfloat16Quantized(x).reshape(-1).view(torch.int16).numpy().view(np.uint16)
    return ops().FloatToHFP8Quantized(x, *E4M3, E4M3_MAX).reshape(-1).numpy()


def info():
    import torch
    ops()
    return {"torch": md.version("torch"), "fbgemm_gpu": md.version("fbgemm_gpu-cpu"), "threads": torch.get_num_threads()}


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    version = "%s+torch-%s" % (md.version("fbgemm_gpu-cpu"), md.version("torch"))
    return nc_pipe.Adapter("fbgemm", version, {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)}, info)


if __name__ == "__main__":
    nc_pipe.serve(adapter())
