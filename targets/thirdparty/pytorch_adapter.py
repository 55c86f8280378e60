"""PyTorch CPU dtype conversions (Tensor.to) as a pipe adapter (runners/PIPE.md).

    pytorch_adapter.py contiguous   # name `pytorch`: dense 1-D tensors (the vectorized copy kernel)
    pytorch_adapter.py strided      # name `pytorch-strided`: every other element of a buffer twice
                                    # the size, so TensorIterator takes its non-contiguous loop
    pytorch_adapter.py compile      # name `pytorch-compile`: the same casts as functions compiled by
                                    # torch.compile (Inductor, CPU: C++ of its own, built with the
                                    # system's C++ compiler), on blocks of one fixed length

Conventions of this library, isolated here:
- float32 -> bfloat16 / float16 / float8_e4m3fn is `Tensor.to(dtype)`; decode is `.to(float32)`
  of a tensor whose bits were set through an integer view (a reinterpretation, no conversion).
- float8_e4m3fn conversion saturates: overflow and infinity become +-448 (c10's
  fp8e4m3fn_from_fp32_value), so it is offered as F32_TO_E4M3FN_RNE_SATFINITE; there is no
  non-saturating cast.
- float4_e2m1fn_x2 is a packed storage type without conversion kernels in this version
  (`copy_kernel not implemented`), so E2M1 is not provided.
The CPU kernels dispatch on the capability level ATen picks at start-up: the best the CPU offers
(`torch.backends.cpu.get_cpu_capability()`), or the one the environment variable
`ATEN_CPU_CAPABILITY` (default, avx2, avx512) caps it at. certify.py certifies each level this CPU
offers as a target of its own (pytorch-default, pytorch-avx2; pytorch is the level ATen picks), and
`info 1` reports the level in force.
torch.compile (compile): Inductor does not call ATen's copy kernels; it writes a C++ loop of its own
for `x.to(dtype)`, vectorised with at::vec at the ISA it picks (torch._inductor.cpu_vec_isa), and
compiles it with the C++ compiler on the PATH (g++), so NaN words and E4M3FN overflow are its own.
Each request is cut into blocks of BLOCK elements, the last one padded with zeros, and each block
goes through one function per dtype compiled with dynamic=False for that one shape: one compilation
per cast (6 in all), cached on disk by Inductor (TORCHINDUCTOR_CACHE_DIR, default
/tmp/torchinductor_USER); the first request of each cast pays for its compilation (seconds to a
minute on a loaded machine). `info 1` also reports the Inductor ISA, the compiler and how many
graphs were compiled.
Run with the project venv's python.
"""
import functools
import importlib.metadata as md
import os
import sys
import threading
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

DECODE_TYPES = ("BF16", "F16", "E4M3FN")
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_F16_RNE", "F32_TO_E4M3FN_RNE_SATFINITE")
NAMES = {"contiguous": "pytorch", "strided": "pytorch-strided", "compile": "pytorch-compile"}
# The mode is the first argument; anything else (a script importing this module) is contiguous.
MODE = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] in NAMES else "contiguous"
STRIDED, COMPILED = MODE == "strided", MODE == "compile"
BLOCK = 1 << 16  # the compiled functions' one shape: the pipe's batch length (runners/PIPE.md)
COMPILING = threading.Lock()  # in process, the sweep's threads share one compilation of each cast
# In process the runner hands each batch over as a read-only view of its buffer (no copy). A tensor
# over it is safe here, since Tensor.to only reads its source; torch warns (once) that it cannot
# mark such a tensor read-only.
warnings.filterwarnings("ignore", message="The given NumPy array is not writable")


@functools.lru_cache(maxsize=None)
def tables():
    """word type -> (numpy integer storage, float dtype); recipe -> (float dtype, torch storage,
    numpy unsigned storage): the words go in and out through views, no widening or masking copy."""
    import torch
    torch.set_num_threads(1)  # one adapter process per sweep thread already
    import numpy as np
    decode = {"BF16": (np.int16, torch.bfloat16), "F16": (np.int16, torch.float16),
              "E4M3FN": (np.uint8, torch.float8_e4m3fn)}
    convert = {"F32_TO_BF16_RNE": (torch.bfloat16, torch.int16, np.uint16),
               "F32_TO_F16_RNE": (torch.float16, torch.int16, np.uint16),
               "F32_TO_E4M3FN_RNE_SATFINITE": (torch.float8_e4m3fn, torch.uint8, np.uint8)}
    return decode, convert


def layout(t):
    """t itself, or (strided) a view of every other element of a buffer holding t's bits (a
    one-element view is contiguous whatever its stride: torch takes the dense path for it)."""
    if not STRIDED:
        return t
    import torch
    buf = torch.zeros(2 * t.numel(), dtype=t.dtype)
    buf[::2] = t
    return buf[::2]


@functools.lru_cache(maxsize=None)
def build(source, dtype):
    """x -> x.to(dtype) compiled by Inductor for the CPU for 1-D `source` tensors of BLOCK elements,
    compiled here on a block of zeros (the one shape it will see)."""
    import torch
    tables()  # the thread setting, before Inductor reads it
    fn = torch.compile(lambda x: x.to(dtype), backend="inductor", dynamic=False, fullgraph=True)
    fn(torch.zeros(BLOCK, dtype=source))
    return fn


def compiled(source, dtype):
    with COMPILING:
        return build(source, dtype)


def cast(t, dtype):
    """t.to(dtype): eager (on layout(t)), or block by block through its compiled function."""
    if not COMPILED:
        return layout(t).to(dtype)
    import torch
    n = t.numel()
    padded = torch.zeros(max(1, -(-n // BLOCK)) * BLOCK, dtype=t.dtype)
    padded[:n] = t
    fn = compiled(t.dtype, dtype)
    return torch.cat([fn(block) for block in padded.split(BLOCK)])[:n]


def decode(word_type, words):
    import numpy as np
    import torch
    storage, dtype = tables()[0][word_type]
    bits = torch.from_numpy(words.astype(storage))  # numpy's integer narrowing keeps the low bits
    out = cast(bits.view(dtype), torch.float32)
    return out.contiguous().view(torch.int32).numpy().view(np.uint32)


def convert(recipe, words):
    import numpy as np
    import torch
    dtype, storage, unsigned = tables()[1][recipe]
    out = cast(torch.from_numpy(words.view(np.float32)), dtype)
    return out.contiguous().view(storage).numpy().view(unsigned)


def info():
    import torch
    tables()  # the thread setting
    about = {"aten_cpu_capability": torch.backends.cpu.get_cpu_capability(),
             "ATEN_CPU_CAPABILITY": os.environ.get("ATEN_CPU_CAPABILITY", "-"),
             "threads": torch.get_num_threads(), "layout": "strided" if STRIDED else "contiguous"}
    if COMPILED:
        from torch._dynamo.utils import counters
        from torch._inductor import config, cpu_vec_isa
        about.update({"path": "torch.compile", "backend": "inductor", "block": BLOCK,
                      "inductor_isa": str(cpu_vec_isa.pick_vec_isa()) or "scalar",
                      "cxx": os.path.basename(str(config.cpp.cxx[-1] if isinstance(config.cpp.cxx, tuple) else config.cpp.cxx)),
                      "graphs_compiled": counters["stats"]["unique_graphs"]})
    return about


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    version = "%s+numpy-%s" % (md.version("torch"), md.version("numpy"))
    return nc_pipe.Adapter(NAMES[MODE], version,
                           {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)}, info)


if __name__ == "__main__":
    nc_pipe.serve(adapter())
