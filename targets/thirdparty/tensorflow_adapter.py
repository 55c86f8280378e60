"""TensorFlow CPU casts (`tf.cast`) as a pipe adapter (runners/PIPE.md).

    tensorflow_adapter.py          # name `tensorflow`: eager tf.cast (TensorFlow's own CPU kernels)
    tensorflow_adapter.py xla      # name `tensorflow-xla`: the same cast inside
                                   # tf.function(jit_compile=True), compiled by XLA for the CPU

Conventions of this library, isolated here:
- Words are reinterpreted in NumPy (a view as the dtype's NumPy type, no conversion; `tf.bitcast`
  does not take float8) and handed to TensorFlow as tensors of that dtype; float32 -> bfloat16 /
  float16 / float8_e4m3fn is `tf.cast`, decode is `tf.cast(..., tf.float32)`.
- float8_e4m3fn lives in tensorflow.python.framework.dtypes (not exported as tf.float8_e4m3fn in
  2.21). Its cast turns overflow and infinity into NaN (the type has no infinity), so it is offered
  as F32_TO_E4M3FN_RNE_OVF_NAN; there is no saturating cast.
- float4_e2m1fn exists as a dtype, but 2.21 has no CPU cast from float32 to it ("Cast float to
  float4_e2m1fn is not supported"), so E2M1 is not provided either way.
`info 1` reports the path (eager or XLA), the intra-op thread count and whether oneDNN is on.
Run with the project venv's python.
"""
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

DECODE_TYPES = ("BF16", "F16", "E4M3FN")
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_F16_RNE", "F32_TO_E4M3FN_RNE_OVF_NAN")
XLA = len(sys.argv) > 1 and sys.argv[1] == "xla"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # TensorFlow's start-up log lines (standard error)


@functools.lru_cache(maxsize=None)
def tf():
    import tensorflow
    tensorflow.config.threading.set_intra_op_parallelism_threads(1)  # one adapter per sweep thread
    tensorflow.config.threading.set_inter_op_parallelism_threads(1)
    return tensorflow


@functools.lru_cache(maxsize=None)
def tables():
    """word type or recipe -> (TensorFlow dtype, NumPy unsigned storage dtype of its width): the
    words go in and out through views, no widening or masking copy."""
    import numpy as np
    from tensorflow.python.framework import dtypes
    t = tf()
    decode = {"BF16": (t.bfloat16, np.uint16), "F16": (t.float16, np.uint16),
              "E4M3FN": (dtypes.float8_e4m3fn, np.uint8)}
    convert = {"F32_TO_BF16_RNE": decode["BF16"], "F32_TO_F16_RNE": decode["F16"],
               "F32_TO_E4M3FN_RNE_OVF_NAN": decode["E4M3FN"]}
    return decode, convert


@functools.lru_cache(maxsize=None)
def cast_function(dtype):
    """x -> tf.cast(x, dtype), compiled by XLA in xla mode (one compilation per batch length)."""
    t = tf()
    cast = lambda x: t.cast(x, dtype)  # noqa: E731
    return t.function(cast, jit_compile=True) if XLA else cast


def decode(word_type, words):
    import numpy as np
    t = tf()
    dtype, storage = tables()[0][word_type]
    x = t.constant(words.astype(storage).view(dtype.as_numpy_dtype))  # numpy's narrowing keeps the low bits
    return cast_function(t.float32)(x).numpy().view(np.uint32)


def convert(recipe, words):
    import numpy as np
    t = tf()
    dtype, storage = tables()[1][recipe]
    return cast_function(dtype)(t.constant(words.view(np.float32))).numpy().view(storage)


def info():
    t = tf()
    return {"path": "xla" if XLA else "eager", "intra_op_threads": t.config.threading.get_intra_op_parallelism_threads(),
            "onednn": os.environ.get("TF_ENABLE_ONEDNN_OPTS", "default")}


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    return nc_pipe.Adapter("tensorflow-xla" if XLA else "tensorflow", "%s" % md.version("tensorflow-cpu"),
                           {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)}, info)


if __name__ == "__main__":
    nc_pipe.serve(adapter())
