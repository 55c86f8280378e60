"""torchao's NVFP4 (`torchao.prototype.mx_formats`) as a pipe adapter (runners/PIPE.md), on CPU.

- decode E2M1: `kernels.f4_unpacked_to_f32`, torchao's E2M1 decode (one code per uint8).
- dequantize NVFP4 (tensor level): an `NVFP4Tensor(qdata, scale, block_size=16, float32,
  per_tensor_scale=P)` built from the request's planes, then `.dequantize(torch.float32)`.
  qdata packs two codes per byte, the first in the low nibble (torchao's `pack_uint4`); scale is
  the [N, K/16] float8_e4m3fn plane, unswizzled.
- reconstruct NVFP4 (element level): the same dequantize of a [n, 16] tensor per divisor, each
  row holding the element's code first and zeros after it.

What torchao computes is not the spec's operation, and the certificate measures the difference:
NVFP4Tensor has no divisor. Its per-tensor scale P is a multiplier, applied to the block scale
first: W = e2m1 * float32(P * e4m3) with P a float32. The spec's W = e2m1 * e4m3 / d_w (3.3),
one correctly rounded quotient, is therefore replaced by (1) the reciprocal P = float32(1 / d_w),
which the adapter computes as any user must (`torch.reciprocal` of the float32 d_w), (2) a
rounded partial product P * e4m3, (3) a second rounding of e2m1 times it. The blocks must be
whole: a K that is not a multiple of 16 cannot be expressed (answered `unsupported`). torchao
applies none of the format's validity rules.
Run with the project venv's python.
"""
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

NVFP4 = ("NVFP4",)
BLOCK = 16


class Unsupported(Exception):
    pass


def decode(word_type, words):
    import numpy as np
    import torch
    from torchao.prototype.mx_formats.kernels import f4_unpacked_to_f32
    out = f4_unpacked_to_f32(torch.from_numpy((words & 0xF).astype(np.uint8)))
    return out.contiguous().view(torch.int32).numpy().view(np.uint32)


def nvfp4_dequantize(codes, scales, divisor):
    """codes: uint8 [N, K] (one code each), scales: uint8 [N, K/16], divisor: binary32 bits."""
    import numpy as np
    import torch
    from torchao.prototype.mx_formats.nvfp4_tensor import NVFP4Tensor
    n, k = codes.shape
    if k % BLOCK:
        raise Unsupported
    qdata = torch.from_numpy((codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8))
    scale = torch.from_numpy(scales.astype(np.uint8)).view(torch.float8_e4m3fn)
    d_w = torch.from_numpy(np.array(divisor, dtype=np.uint32).view(np.float32))
    t = NVFP4Tensor(qdata, scale, BLOCK, torch.float32, per_tensor_scale=torch.reciprocal(d_w))
    return t.dequantize(torch.float32).contiguous().view(torch.int32).numpy().view(np.uint32)


def dequantize(fmt, tokens):
    import numpy as np
    shape = [int(d) for d in tokens[0].split("x")]
    if len(shape) != 2:
        raise Unsupported  # NVFP4Tensor is a matrix
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
    version = "%s+torch-%s" % (md.version("torchao"), md.version("torch"))
    return nc_pipe.Adapter("torchao", version, {"decode": (("E2M1",), decode),
                                                "dequantize": (NVFP4, unsupported_as_answer(dequantize)),
                                                "reconstruct": (NVFP4, unsupported_as_answer(reconstruct))})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
