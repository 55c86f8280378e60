"""torchao's NVFP4 (`torchao.prototype.mx_formats`) and its FP8 row-wise dequantization
(`quantization.Float8Tensor`) as a pipe adapter (runners/PIPE.md), on CPU, one intra-op thread.

- decode E2M1: `kernels.f4_unpacked_to_f32`, torchao's E2M1 decode (one code per uint8).
- convert F32_TO_E2M1_RNE_SATFINITE: `kernels.f32_to_f4_unpacked`, the element encoder of
  torchao's NVFP4 and MX quantization (`nvfp4_quantize` calls it on the clamped, scaled block;
  it is `custom_fp_utils._f32_to_floatx_unpacked(x, 2, 1)`). It works on the bits: the sign is
  taken off and put back at the end (so -0 gives 0x8 and negative values keep their sign);
  |x| >= 6 (infinity included) gives the largest code 0x7; |x| < 1 (the subnormal range) is
  rounded by adding 2^22, a float whose ulp is 0.5, and keeping the low bits of the sum, i.e. by
  the host's round-to-nearest-even addition; 1 <= |x| < 6 adds a rounding bias (0x1fffff plus the
  kept mantissa bit) to the binary32 word and shifts, which is ties to even. Its own docstring says "no special values
  (NaN, inf) support": a NaN fails both range tests and goes down the normal-range path, where
  the bias arithmetic on its exponent-255 word wraps in the uint8 cast. The result is a finite
  code that depends on the payload (0x7fc00000 -> 0x3, 0x7f800001 -> 0x2, 0x7fe00000 -> 0x4,
  the sign put back in bit 3), never the recipe's 0x7 / 0xf (docs/recipes.md).
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

FP8 row-wise ("Float8 rowwise", `Float8DynamicActivationFloat8WeightConfig(granularity=PerRow())`):
its weight is a `quantization.Float8Tensor` whose `dequantize(float32)` is
`quant_primitives._dequantize_affine_float8`: `qdata.to(float32) * scale`, one binary32 product
rounded once, with the [N, 1] scale broadcast over the row. That scale is a multiplier (quantize
divides by it), so with the spec's row multiplier it is FP8_E4M3FN_ROW_BF16S reconstruction
exactly (3.4: w_hat = binary32(c32 * s32)):
- reconstruct / dequantize FP8_E4M3FN_ROW_BF16S: `Float8Tensor(qdata, scale, block_size=[1, K],
  dtype=float32).dequantize(float32)`, qdata the float8_e4m3fn plane, scale the BF16 row words
  widened to float32 (16 zero bits appended: exact, 3.1); reconstruct is the same with one row
  per element. The difference lies in what torchao writes, not in how it reads: its own scale is
  a float32 (`_choose_scale_float8`: amax / 448, scale_dtype float32), which a BF16 row
  multiplier holds only when it happens to be BF16-representable, so a torchao checkpoint is
  this format only after its scales are rounded to BF16 (a different weight). Float8Tensor
  applies none of the format's validity rules (NaN codes, negative, infinite or NaN scales, the
  zero-scale row rule): such tensors are dequantized, not rejected.
Run with the project venv's python.
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

NVFP4 = ("NVFP4",)
FP8_ROW = ("FP8_E4M3FN_ROW_BF16S",)
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
    from torchao.prototype.mx_formats.kernels import f4_unpacked_to_f32
    out = f4_unpacked_to_f32(torch.from_numpy((words & 0xF).astype(np.uint8)))
    return out.contiguous().view(torch.int32).numpy().view(np.uint32)


def convert(recipe, words):
    """F32_TO_E2M1_RNE_SATFINITE: f32_to_f4_unpacked, one code per uint8 (right-aligned)."""
    import numpy as np
    torch = torch_one_thread()
    from torchao.prototype.mx_formats.kernels import f32_to_f4_unpacked
    x = torch.from_numpy(words.astype(np.uint32).view(np.float32))
    return f32_to_f4_unpacked(x).numpy().astype(np.uint32) & 0xF


def fp8_row_dequantize(codes, scales):
    """Float8Tensor.dequantize of E4M3FN codes (uint8 [N, K]) by BF16 row scales (uint16 [N])."""
    import numpy as np
    torch = torch_one_thread()
    from torchao.quantization import Float8Tensor
    n, k = codes.shape
    qdata = torch.from_numpy(codes.astype(np.uint8)).view(torch.float8_e4m3fn)
    scale32 = (scales.astype(np.uint32) << 16).view(np.float32).reshape(n, 1)  # exact widening
    t = Float8Tensor(qdata, torch.from_numpy(scale32), block_size=[1, k], dtype=torch.float32)
    return t.dequantize(torch.float32).contiguous().view(torch.int32).numpy().view(np.uint32)


def fp8_row_reconstruct(fmt, tokens):
    import numpy as np
    pairs = [t.split(":") for t in tokens]
    codes = np.array([[int(p[0], 16)] for p in pairs], dtype=np.uint8)
    scales = np.array([int(p[1], 16) for p in pairs], dtype=np.uint16)
    return ["%08x" % w for w in fp8_row_dequantize(codes, scales)[:, 0].tolist()]


def fp8_row_dequantize_tokens(fmt, tokens):
    import numpy as np
    shape = [int(d) for d in tokens[0].split("x")]
    if len(shape) != 2:
        raise Unsupported  # a Float8Tensor row-wise weight is a matrix
    n, k = shape
    codes = np.array([int(w, 16) for w in tokens[1].split(",")], dtype=np.uint8).reshape(n, k)
    scales = np.array([int(w, 16) for w in tokens[2].split(",")], dtype=np.uint16).reshape(n)
    return [",".join("%08x" % w for w in fp8_row_dequantize(codes, scales).reshape(-1).tolist())]


def by_format(nvfp4, fp8_row):
    """One token handler per op, dispatching on the selector (the format)."""
    return lambda fmt, tokens: (nvfp4 if fmt == "NVFP4" else fp8_row)(fmt, tokens)


def nvfp4_dequantize(codes, scales, divisor):
    """codes: uint8 [N, K] (one code each), scales: uint8 [N, K/16], divisor: binary32 bits."""
    import numpy as np
    torch = torch_one_thread()
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
    return nc_pipe.Adapter("torchao", version, {
        "decode": (("E2M1",), decode),
        "convert": (("F32_TO_E2M1_RNE_SATFINITE",), convert),
        "dequantize": (NVFP4 + FP8_ROW, unsupported_as_answer(by_format(dequantize, fp8_row_dequantize_tokens))),
        "reconstruct": (NVFP4 + FP8_ROW, unsupported_as_answer(by_format(reconstruct, fp8_row_reconstruct)))})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
