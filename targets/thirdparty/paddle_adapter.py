"""PaddlePaddle CPU casts (`paddle.cast`) as a pipe adapter (runners/PIPE.md). Name `paddle`.

Conventions of this library, isolated here:
- Dynamic (eager) mode, the CPU place: words become tensors through `paddle.to_tensor` of a NumPy
  array of their width, reinterpreted in place by `Tensor.view(dtype)` (Paddle's view_dtype, no
  conversion); float32 -> bfloat16 / float16 / float8_e4m3fn is `paddle.cast`, decode is
  `paddle.cast(x, "float32")`. `Tensor.astype` is the same operator (`_C_ops.cast`, patched onto
  Tensor in paddle/base/dygraph/math_op_patch.py), so this certifies it too.
- float16: round-to-nearest-even, except that magnitudes in [2^-89, 2^-77) come out as if 2^64
  times larger instead of underflowing to zero (the certificate's sweep counts them); bfloat16
  turns every NaN into 0x7fff.
- float8_e4m3fn: the CPU cast saturates infinity and |x| >= 480 to +-448 (0x7e / 0xfe), but the
  band (464, 480) rounds up into the NaN code 0x7f / 0xff and every NaN becomes +-448 by its sign:
  the saturating variant of the bit-trick conversion Paddle took from PyTorch, with PyTorch's
  overflow threshold (480, where its cast turns to NaN) kept. Paddle has no other float32 ->
  float8_e4m3fn cast, so it is offered as F32_TO_E4M3FN_RNE_SATFINITE (the recipe it is closest to:
  saturation) and fails it in that band and on NaN; F32_TO_E4M3FN_RNE_OVF_NAN is not offered.
- Not provided: E2M1 (Paddle 3.3 has no float4 dtype), any FP8 or NVFP4 dequantization on the CPU:
  `paddle.incubate.nn.functional.fused_act_dequant` (float8 x, per-128-column scale -> bfloat16) and
  `fp8_quant_blockwise` have no CPU kernel ("The kernel `fused_act_dequant` is not registered."),
  `dequantize_linear` takes int8 codes only, and `paddle.nn.quant.format.fake_fp8_dequant` is
  Python arithmetic x / 448 * scale, a matrix-wide divisor that spec 3.4 calls another format.
`info 1` reports the mode, the place and the thread count. Paddle's import takes seconds.
Run with the project venv's python.
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

DECODE_TYPES = ("BF16", "F16", "E4M3FN")
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_F16_RNE", "F32_TO_E4M3FN_RNE_SATFINITE")
os.environ.setdefault("OMP_NUM_THREADS", "1")  # one adapter per sweep thread
os.environ.setdefault("GLOG_minloglevel", "2")  # Paddle's start-up log lines (standard error)


@functools.lru_cache(maxsize=None)
def imported():
    import paddle as p
    p.base.core.set_num_threads(1)
    p.set_device("cpu")
    return p


def paddle():
    """Paddle, with the calling thread in dynamic mode. Paddle keeps the mode per thread (a
    threading.local that copies the module's tracer when a thread first touches it), and in process
    a runner thread that first touched it while another thread was importing Paddle stayed in
    static mode, where `.numpy()` refuses ("please use other API to replace 'numpy'"): 4 of 6
    in-process certifications had one thread's batches fail so."""
    p = imported()
    if not p.in_dynamic_mode():
        p.disable_static()
    return p


@functools.lru_cache(maxsize=None)
def tables():
    """word type or recipe -> (Paddle dtype, NumPy storage dtype of its width, mask)."""
    import numpy as np
    p = paddle()
    decode = {"BF16": (p.bfloat16, np.uint16, 0xFFFF), "F16": (p.float16, np.uint16, 0xFFFF),
              "E4M3FN": (p.float8_e4m3fn, np.uint8, 0xFF)}
    convert = {"F32_TO_BF16_RNE": decode["BF16"], "F32_TO_F16_RNE": decode["F16"],
               "F32_TO_E4M3FN_RNE_SATFINITE": decode["E4M3FN"]}
    return decode, convert


def decode(word_type, words):
    import numpy as np
    p = paddle()
    dtype, storage, mask = tables()[0][word_type]
    x = p.to_tensor((words & mask).astype(storage)).view(dtype)
    return p.cast(x, "float32").numpy().view(np.uint32)


def convert(recipe, words):
    import numpy as np
    p = paddle()
    dtype, storage, mask = tables()[1][recipe]
    out = p.cast(p.to_tensor(words.view(np.float32)), dtype)
    # .numpy() gives float16, uint16 (bfloat16) or int8 (float8): reinterpret at the width
    return out.numpy().view(storage).astype(np.uint32) & mask


def info():
    p = paddle()
    return {"mode": "dynamic" if p.in_dynamic_mode() else "static", "place": str(p.get_device()),
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS", "")}


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    return nc_pipe.Adapter("paddle", md.version("paddlepaddle"),
                           {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)}, info)


if __name__ == "__main__":
    nc_pipe.serve(adapter())
