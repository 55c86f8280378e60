"""JAX on CPU: XLA's convert through `jax.jit(lambda x: x.astype(T))`, as a pipe adapter
(runners/PIPE.md).

Conventions of this library, isolated here:
- The conversion is XLA's compiled `convert` on the CPU backend, not ml_dtypes' numpy cast: the
  input array is built on the host (bits set through a numpy view, a reinterpretation with no
  conversion), then the jitted astype runs on the CPU device and the result's bits are read back.
- float8_e4m3fn: overflow and infinity become NaN (the type has no infinity), so it is offered as
  F32_TO_E4M3FN_RNE_OVF_NAN; JAX has no saturating astype.
- float4_e2m1fn: no infinity or NaN; overflow saturates to +-6, offered as
  F32_TO_E2M1_RNE_SATFINITE (its NaN result is whatever XLA picks).
Run with the project venv's python.
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

DECODE_TYPES = ("BF16", "F16", "E4M3FN", "E2M1")
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_F16_RNE", "F32_TO_E4M3FN_RNE_OVF_NAN", "F32_TO_E2M1_RNE_SATFINITE")


@functools.lru_cache(maxsize=None)
def tables():
    """word type -> (storage dtype, JAX dtype, low-bit mask); recipe -> (JAX dtype, storage, mask)."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    # one adapter process per sweep thread already: keep XLA's CPU client to one thread
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    import jax.numpy as jnp
    import numpy as np
    decode = {"BF16": (np.uint16, jnp.bfloat16, 0xFFFF), "F16": (np.uint16, jnp.float16, 0xFFFF),
              "E4M3FN": (np.uint8, jnp.float8_e4m3fn, 0xFF), "E2M1": (np.uint8, jnp.float4_e2m1fn, 0xF)}
    convert = {"F32_TO_BF16_RNE": (jnp.bfloat16, np.uint16, 0xFFFF),
               "F32_TO_F16_RNE": (jnp.float16, np.uint16, 0xFFFF),
               "F32_TO_E4M3FN_RNE_OVF_NAN": (jnp.float8_e4m3fn, np.uint8, 0xFF),
               "F32_TO_E2M1_RNE_SATFINITE": (jnp.float4_e2m1fn, np.uint8, 0xF)}
    return decode, convert


@functools.lru_cache(maxsize=None)
def astype(dtype):
    import jax
    return jax.jit(lambda x: x.astype(dtype))


def decode(word_type, words):
    import jax.numpy as jnp
    import numpy as np
    storage, dtype, mask = tables()[0][word_type]
    src = (words & mask).astype(storage).view(dtype)
    return np.asarray(astype(jnp.float32)(src)).view(np.uint32)


def convert(recipe, words):
    import numpy as np
    dtype, storage, mask = tables()[1][recipe]
    return np.asarray(astype(dtype)(words.view(np.float32))).view(storage) & mask


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    version = "%s+jaxlib-%s" % (md.version("jax"), md.version("jaxlib"))
    return nc_pipe.Adapter("jax", version, {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
