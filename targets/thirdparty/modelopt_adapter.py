"""NVIDIA ModelOpt's NVFP4 (`modelopt.torch.quantization.qtensor.NVFP4QTensor`) as a pipe adapter
(runners/PIPE.md), on CPU.

- decode E2M1: `NVFP4QTensor.get_e2m1_values(device)` indexed by the code, the 16-entry table
  its dequantize decodes with (nvfp4_tensor.e2m1_values).
- convert F32_TO_E2M1_RNE_SATFINITE: `NVFP4QTensor._cast_fp4(x)`, the element encoder
  `NVFP4QTensor.quantize` applies to the scaled weight (and the ONNX exporter's `_cast_fp4`
  calls), returning one code per uint8. It is built from comparisons: the code's magnitude is
  `torch.searchsorted(e2m1_bounds, |x|)`, the number of midpoints [0.25, 0.75, 1.25, 1.75, 2.5,
  3.5, 5] below |x|, plus one where |x| equals an odd-indexed midpoint (0.75, 1.75, 3.5), so a tie
  goes up there and down at the others: ties to even. Every |x| above 5 (6 and beyond, infinity
  included) counts all seven midpoints and saturates to 0x7. The sign bit is `x < 0`, a
  comparison, so -0 gives +0 (0x0, where the recipe keeps the sign: 0x8), and a NaN, which
  compares false, is positive and, sorted above every bound, gives 0x7 whatever its sign: the
  recipe's 0x7 for a positive NaN, 0x7 instead of 0xf for a negative one (docs/recipes.md).
- dequantize NVFP4 (tensor level): `NVFP4QTensor([N, K], float32, packed).dequantize(float32,
  scale=S, double_scale=P, block_sizes={-1: 16})`, the non-`fast` (pure torch) path, as ModelOpt's
  export and its NVFP4 quantizer dequantize. packed is [N, K/2] uint8, two codes per byte, the
  first in the low nibble (as NVFP4QTensor.quantize packs); S is the [N, K/16] float8_e4m3fn
  plane, unswizzled.
- reconstruct NVFP4 (element level): the same dequantize of a [n, 16] tensor per divisor, each
  row holding the element's code first and zeros after it.

What ModelOpt computes is not the spec's operation, and the certificate measures the difference:
its per-tensor scale P (`double_scale`, the checkpoint's weight_scale_2 = amax / (6 * 448)) is a
multiplier, applied to the block scale first: W = e2m1 * float32(float32(e4m3) * P). The spec's
W = e2m1 * e4m3 / d_w (3.3), one correctly rounded quotient, is therefore replaced by (1) the
reciprocal P = float32(1 / d_w), which the adapter computes as any user must (`torch.reciprocal`
of the float32 d_w), (2) a rounded partial product e4m3 * P, (3) a second rounding of e2m1 times
it. The blocks must be whole: a K that is not a multiple of 16 cannot be expressed (answered
`unsupported`). ModelOpt applies none of the format's validity rules.
Run with the project venv's python.
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

NVFP4 = ("NVFP4",)
BLOCK = 16


class Unsupported(Exception):
    pass


@functools.lru_cache(maxsize=None)
def torch_one_thread():
    import torch
    torch.set_num_threads(1)  # one adapter process per sweep thread already
    return torch


def decode(word_type, words):
    import numpy as np
    torch = torch_one_thread()
    from modelopt.torch.quantization.qtensor.nvfp4_tensor import NVFP4QTensor
    table = NVFP4QTensor.get_e2m1_values(torch.device("cpu"))
    out = table[torch.from_numpy((words & 0xF).astype(np.int64))].to(torch.float32)
    return out.contiguous().view(torch.int32).numpy().view(np.uint32)


def convert(recipe, words):
    """F32_TO_E2M1_RNE_SATFINITE: NVFP4QTensor._cast_fp4, one code per uint8 (right-aligned)."""
    import numpy as np
    torch = torch_one_thread()
    from modelopt.torch.quantization.qtensor.nvfp4_tensor import NVFP4QTensor
    x = torch.from_numpy(words.astype(np.uint32).view(np.float32))  # _cast_fp4 takes |x| in place: a copy
    return NVFP4QTensor._cast_fp4(x).numpy().astype(np.uint32) & 0xF


def nvfp4_dequantize(codes, scales, divisor):
    """codes: uint8 [N, K] (one code each), scales: uint8 [N, K/16], divisor: binary32 bits."""
    import numpy as np
    torch = torch_one_thread()
    from modelopt.torch.quantization.qtensor.nvfp4_tensor import NVFP4QTensor
    n, k = codes.shape
    if k % BLOCK:
        raise Unsupported
    packed = torch.from_numpy((codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8))
    scale = torch.from_numpy(scales.astype(np.uint8)).view(torch.float8_e4m3fn)
    d_w = torch.from_numpy(np.array(divisor, dtype=np.uint32).view(np.float32))
    t = NVFP4QTensor(torch.Size([n, k]), torch.float32, packed)
    w = t.dequantize(torch.float32, scale=scale, double_scale=torch.reciprocal(d_w),
                     block_sizes={-1: BLOCK})
    return w.contiguous().view(torch.int32).numpy().view(np.uint32)


def dequantize(fmt, tokens):
    import numpy as np
    shape = [int(d) for d in tokens[0].split("x")]
    if len(shape) != 2:
        raise Unsupported  # a quantized weight is a matrix
    n, k = shape
    codes = np.array([int(w, 16) for w in tokens[1].split(",")], dtype=np.uint8).reshape(n, k)
    scales = np.array([int(w, 16) for w in tokens[2].split(",")], dtype=np.uint8).reshape(n, -1)
    if tokens[3] == "-":
        raise Unsupported
    return [",".join("%08x" % w for w in nvfp4_dequantize(codes, scales, int(tokens[3], 16)).reshape(-1).tolist())]


def reconstruct(fmt, tokens):
    import numpy as np
    elems = [[int(f, 16) for f in t.split(":")] for t in tokens]
    out = [None] * len(elems)
    for d in sorted({e[2] for e in elems}):
        rows = [i for i, e in enumerate(elems) if e[2] == d]
        codes = np.zeros((len(rows), BLOCK), dtype=np.uint8)
        codes[:, 0] = [elems[i][0] for i in rows]
        scales = np.array([[elems[i][1]] for i in rows], dtype=np.uint8)
        w = nvfp4_dequantize(codes, scales, d)[:, 0]
        for i, v in zip(rows, w.tolist()):
            out[i] = "%08x" % v
    return out


def unsupported_as_answer(fn):
    """Unsupported shapes answer `unsupported` (PIPE.md), not `error`."""
    def wrapped(selector, tokens):
        try:
            return fn(selector, tokens)
        except Unsupported:
            raise nc_pipe.UnsupportedRequest from None
    return wrapped


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    version = "%s+torch-%s" % (md.version("nvidia-modelopt"), md.version("torch"))
    return nc_pipe.Adapter("modelopt", version, {"decode": (("E2M1",), decode),
                                                 "convert": (("F32_TO_E2M1_RNE_SATFINITE",), convert),
                                                 "dequantize": (NVFP4, unsupported_as_answer(dequantize)),
                                                 "reconstruct": (NVFP4, unsupported_as_answer(reconstruct))})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
