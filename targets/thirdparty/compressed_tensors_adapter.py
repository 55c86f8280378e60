"""compressed-tensors' NVFP4 (the `nvfp4-pack-quantized` checkpoint format) as a pipe adapter
(runners/PIPE.md), on CPU.

- decode E2M1: `compressors.nvfp4.helpers.unpack_fp4_from_uint8(packed, m, n, dtype=float32)`, its
  table decode (kE2M1ToFloat, sign bit 3 applied by multiplying by -1), one code per byte's low
  nibble.
- convert F32_TO_E2M1_RNE_SATFINITE: what the compressor's CPU path does to a scaled weight,
  `FP4_E2M1_DATA.cast_to_fp4(x)` (quantization.utils.fp4_utils.cast_to_fp4, the eager torch
  fallback: its Triton kernel needs CUDA) and then `pack_fp4_to_uint8`, whose nibbles are the
  codes. cast_to_fp4 rounds to the nearest E2M1 value, not to a code: it sets |x| by interval
  tests against the midpoints, closed where the even neighbour wins ([0, 0.25] -> 0, [0.75, 1.25]
  -> 1, [1.75, 2.5] -> 2, [3.5, 5] -> 4) and open where the odd one would ((0.25, 0.75) -> 0.5,
  (1.25, 1.75) -> 1.5, (2.5, 3.5) -> 3), and |x| > 5 (infinity included) -> 6: ties to even and
  saturation. The sign comes back as `|x| * torch.sign(x)`, and sign(-0) is +0, so -0 becomes +0
  (code 0x0; the recipe's is 0x8), while a negative value that rounds to zero keeps it (0 * -1 =
  -0). pack_fp4_to_uint8 then takes the sign bit (`signbit`) and the magnitude as
  `int8(2 * value)` matched against 1, 2, 3, 4, 6, 8 and >= 12. A NaN passes none of cast_to_fp4's
  tests and leaves it as NaN * sign(NaN), a positive NaN here; its int8 conversion is 0 on this
  CPU and signbit is clear, so every NaN gives +0 (0x0), not the recipe's 0x7 / 0xf
  (docs/recipes.md). (The quantizer's `_round` clamps to [-6, 6] before cast_to_fp4, which
  changes no result: the clamp keeps NaN and infinity saturates either way.)
- dequantize NVFP4 (tensor level): what `NVFP4PackedCompressor.decompress` does, in float32:
  `unpack_fp4_from_uint8` of the packed [N, K/2] uint8 plane (two codes per byte, the first in
  the low nibble), then `quantization.lifecycle.forward.dequantize(x_q, scale, args=
  QuantizationArgs(num_bits=4, type=float, strategy=tensor_group, group_size=16),
  global_scale=d_w, dtype=float32)` with the [N, K/16] float8_e4m3fn scales widened to float32
  (`_decompress_scale`) and d_w a float32 tensor of shape [1].
- reconstruct NVFP4 (element level): the same dequantize of a [n, 16] tensor per divisor, each
  row holding the element's code first and zeros after it.

compressed-tensors' global scale is a divisor, the spec's d_w (its weight_global_scale is 448 * 6
/ amax), but it divides the block scale first: W = e2m1 * float32(e4m3 / d_w) (`_dequantize`:
`scale = scale / global_scale`, then `x_q * scale`). The spec's one correctly rounded quotient
e2m1 * e4m3 / d_w (3.3) is replaced by a rounded partial quotient and a second rounding of the
product; it differs only where e2m1 is +-1.5, 3 or 6 (the other codes scale by a power of two,
exact barring subnormals) and the certificate counts by how much. The checkpoint path itself
(`NVFP4PackedCompressor.decompress`) unpacks with unpack_fp4_from_uint8's default dtype, bfloat16,
so its weights are further rounded to BF16; the adapter asks for float32, the closest a user can
get to the spec. K must be a multiple of 16 (`_process_group` raises otherwise: answered
`unsupported`). compressed-tensors applies none of the format's validity rules.
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
    from compressed_tensors.compressors.nvfp4.helpers import unpack_fp4_from_uint8
    n = len(words)
    packed = torch.from_numpy((words & 0xF).astype(np.uint8).reshape(n, 1))
    out = unpack_fp4_from_uint8(packed, n, 2, dtype=torch.float32)[:, 0]
    return out.contiguous().view(torch.int32).numpy().view(np.uint32)


def convert(recipe, words):
    """F32_TO_E2M1_RNE_SATFINITE: cast_to_fp4 then pack_fp4_to_uint8 of one [1, n] row (n made
    even with a trailing zero), the two nibbles of each byte unpacked again."""
    import numpy as np
    torch = torch_one_thread()
    from compressed_tensors.compressors.nvfp4.helpers import pack_fp4_to_uint8
    from compressed_tensors.quantization.quant_args import FP4_E2M1_DATA
    n = len(words)
    x = np.zeros(n + (n & 1), dtype=np.uint32)
    x[:n] = words
    values = FP4_E2M1_DATA.cast_to_fp4(torch.from_numpy(x.view(np.float32)))
    packed = pack_fp4_to_uint8(values.reshape(1, -1)).reshape(-1).numpy().astype(np.uint32)
    codes = np.empty(len(x), dtype=np.uint32)
    codes[0::2], codes[1::2] = packed & 0xF, packed >> 4
    return codes[:n]


def nvfp4_dequantize(codes, scales, divisor):
    """codes: uint8 [N, K] (one code each), scales: uint8 [N, K/16], divisor: binary32 bits."""
    import numpy as np
    torch = torch_one_thread()
    from compressed_tensors.compressors.nvfp4.helpers import unpack_fp4_from_uint8
    from compressed_tensors.quantization import QuantizationArgs
    from compressed_tensors.quantization.lifecycle.forward import dequantize
    n, k = codes.shape
    if k % BLOCK:
        raise Unsupported
    packed = torch.from_numpy((codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8))
    x_q = unpack_fp4_from_uint8(packed, n, k, dtype=torch.float32)
    scale = torch.from_numpy(scales.astype(np.uint8)).view(torch.float8_e4m3fn).to(torch.float32)
    d_w = torch.from_numpy(np.array([divisor], dtype=np.uint32).view(np.float32))
    args = QuantizationArgs(num_bits=4, type="float", strategy="tensor_group", group_size=BLOCK,
                            symmetric=True)
    w = dequantize(x_q=x_q, scale=scale, args=args, global_scale=d_w, dtype=torch.float32)
    return w.contiguous().view(torch.int32).numpy().view(np.uint32)


def dequantize(fmt, tokens):
    import numpy as np
    shape = [int(d) for d in tokens[0].split("x")]
    if len(shape) != 2:
        raise Unsupported  # the compressor's weights are matrices
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
    version = "%s+torch-%s" % (md.version("compressed-tensors"), md.version("torch"))
    return nc_pipe.Adapter("compressed-tensors", version,
                           {"decode": (("E2M1",), decode),
                            "convert": (("F32_TO_E2M1_RNE_SATFINITE",), convert),
                            "dequantize": (NVFP4, unsupported_as_answer(dequantize)),
                            "reconstruct": (NVFP4, unsupported_as_answer(reconstruct))})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
