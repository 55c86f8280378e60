"""tinygrad `Tensor.cast` on the CPU device, as a pipe adapter (runners/PIPE.md).

    tinygrad_adapter.py        # name `tinygrad`: DEV=CPU, the renderer tinygrad picks (CLANG: C source
                               # compiled by the system's clang; what a user gets by default)
    tinygrad_adapter.py x86    # name `tinygrad-x86`: DEV=CPU:X86, tinygrad's own x86-64 code generator

What tinygrad 0.14 exposes: dtypes.bfloat16, dtypes.half, dtypes.fp8e4m3 (OCP E4M3FN: one NaN per
sign, largest finite 448), fp8e5m2 and the fnuz variants; `Tensor.cast` between any of them and
float32; `Tensor.bitcast` to reinterpret. Every cast is a kernel that tinygrad generates, compiles
and runs on the device. There is no saturation option: what the kernel does is the profile.
Which code does the cast (tinygrad/renderer, tinygrad/codegen/decomp/dtype.py):
- half: a native conversion on both renderers here (clang's `(__fp16)x` with -march=native, and
  X86's own instructions).
- fp8e4m3: no renderer on the CPU supports it natively, so tinygrad emulates it on top of the
  native binary16 (`f2f`, "NB: denormals are zero!"): float32 -> binary16 (RNE), clamp to +-448
  (infinity included: saturating), then integer RNE to fp8, flushing every binary16 value below
  the smallest fp8 normal (2^-6) to a signed zero. Two roundings, so an input just above an fp8
  tie that binary16 rounds onto the tie goes to even; the decode reads fp8 subnormals as zero.
  Offered as F32_TO_E4M3FN_RNE_SATFINITE (the saturation it implements).
- bfloat16 on CLANG: the cast is integer RNE code (`cast_float_to_bf16`), but the kernel keeps
  the buffers as `__bf16`, which Debian 12's clang 14 rejects ("__bf16 is not supported on this
  target"), so the default device cannot cast to or from bfloat16 on this machine: not offered.
- bfloat16 on X86: emulated by the same `f2f` as fp8 (so subnormal inputs flush to zero, decode
  included, values above the largest bfloat16 are clamped to infinity before rounding, and a NaN
  keeps its top 7 fraction bits unquieted, so one with its payload in the low half becomes infinity).
Other CPU backends found here and not certified: CPU:LLVM (libLLVM 15 rejects the vectorised IR
tinygrad 0.14 emits for any batch of 4 or more: "'%v2' defined with type 'float*' but expected
'<4 x float>*'"), CPU:LVP (needs mesa, not installed) and the PYTHON emulator (about 1,500 words/s
here: a month for one 2^32 sweep).

Conventions isolated here:
- tinygrad compiles a kernel per shape, so each request is padded to a fixed length (the next
  power of two, at least 64, at most 65536; longer requests are cut in pieces of 65536): a
  sweep compiles about a dozen kernels, not one per batch length (tinygrad also keeps them in its
  disk cache, ~/.cache/tinygrad).
- The cast runs under `TinyJit`, one per pair of dtypes and length, on one input tensor whose
  buffer takes each request's bytes; the result buffer's bytes are read back (`cast` below). The
  kernels are the plain cast's (checked equal on 2^18 random inputs per recipe and every decode
  word); the request costs about 1.5 ms instead of 12 (graph building for the copies).
- Every call into tinygrad runs on one thread of this module's (in process the runner's threads
  take turns): tinygrad is not thread-safe, and its compile cache is an SQLite connection that
  only the thread that opened it may use.
- NUM_CPU_THREADS=1 (one adapter per sweep thread); DEV is set by the mode, whatever the
  environment says. `info 1` reports the device, renderer and compiler.
Run with the project venv's python.
"""
import functools
import importlib.metadata as md
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

X86 = len(sys.argv) > 1 and sys.argv[1] == "x86"
DEV = "CPU:X86" if X86 else "CPU"
DECODE_TYPES = ("BF16", "F16", "E4M3FN") if X86 else ("F16", "E4M3FN")
RECIPES = (("F32_TO_BF16_RNE",) if X86 else ()) + ("F32_TO_F16_RNE", "F32_TO_E4M3FN_RNE_SATFINITE")
MIN_LEN, MAX_LEN = 64, 1 << 16
# tinygrad is not thread-safe (and its compile cache is an SQLite connection bound to the thread
# that opened it): every call into it runs on this one thread
TINYGRAD_THREAD = ThreadPoolExecutor(max_workers=1)


@functools.lru_cache(maxsize=None)
def tinygrad():
    os.environ["DEV"] = DEV  # read at import
    os.environ["NUM_CPU_THREADS"] = "1"
    import tinygrad as tg
    return tg


@functools.lru_cache(maxsize=None)
def tables():
    """word type or recipe -> (tinygrad dtype, NumPy storage dtype of its width)."""
    import numpy as np
    d = tinygrad().dtypes
    decode = {"BF16": (d.bfloat16, np.uint16), "F16": (d.half, np.uint16), "E4M3FN": (d.fp8e4m3, np.uint8)}
    convert = {"F32_TO_BF16_RNE": decode["BF16"], "F32_TO_F16_RNE": decode["F16"],
               "F32_TO_E4M3FN_RNE_SATFINITE": decode["E4M3FN"]}
    return decode, convert


def padded(words, fn):
    """fn over words in pieces of fixed lengths (zeros appended), the results concatenated."""
    import numpy as np
    out = []
    for lo in range(0, len(words), MAX_LEN):
        piece = words[lo:lo + MAX_LEN]
        n = max(MIN_LEN, 1 << (len(piece) - 1).bit_length())
        out.append(fn(np.concatenate([piece, np.zeros(n - len(piece), dtype=np.uint32)]))[:len(piece)])
    return np.concatenate(out) if out else np.zeros(0, dtype=np.uint32)


@functools.lru_cache(maxsize=None)
def cast(source, dtype, length):
    """words -> the bits of Tensor.cast(dtype) of `length` elements of type source given as bits.
    The input is one realized tensor per (source, dtype, length) whose buffer takes each request's
    bytes (a host-to-device copy, what Tensor(ndarray) does, without building a graph for it); the
    cast runs under TinyJit (tinygrad's way to replay a fixed-shape computation: the plain cast's
    kernels, scheduled once); the result's buffer is read as bytes. Per request that leaves the
    kernel and two copies: about 1.5 ms, where a plain Tensor(...).cast(...).numpy() takes about 12."""
    import numpy as np
    tg = tinygrad()
    from tinygrad.device import Buffer
    x = tg.Tensor.empty(length, dtype=source).realize()
    jit = tg.TinyJit(lambda t: t.cast(dtype).realize())
    out = np.dtype("u%d" % dtype.itemsize)

    def run(words_of_source_width):
        data = memoryview(bytearray(words_of_source_width.tobytes()))
        x._buffer().copy_from(Buffer("PYTHON", length, source, opaque=data))
        result = jit(x)._buffer().as_memoryview(allow_zero_copy=True)
        return np.frombuffer(result, dtype=out).astype(np.uint32)
    return run


def decode(word_type, words):
    def work():
        import numpy as np
        tg = tinygrad()
        dtype, storage = tables()[0][word_type]
        mask = np.iinfo(storage).max
        return padded(words, lambda w: cast(dtype, tg.dtypes.float32, len(w))((w & mask).astype(storage)))
    return TINYGRAD_THREAD.submit(work).result()


def convert(recipe, words):
    def work():
        tg = tinygrad()
        dtype = tables()[1][recipe][0]
        return padded(words, lambda w: cast(tg.dtypes.float32, dtype, len(w))(w))
    return TINYGRAD_THREAD.submit(work).result()


def info():
    return TINYGRAD_THREAD.submit(info_here).result()


def info_here():
    tg = tinygrad()
    dev = tg.Device[tg.Device.DEFAULT]
    renderer = type(dev.renderer).__name__
    return {"device": tg.Device.DEFAULT, "renderer": renderer, "compiler": type(dev.compiler).__name__,
            "threads": os.environ["NUM_CPU_THREADS"]}


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    return nc_pipe.Adapter("tinygrad-x86" if X86 else "tinygrad", md.version("tinygrad"),
                           {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)}, info)


if __name__ == "__main__":
    nc_pipe.serve(adapter())
