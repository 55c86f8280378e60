"""Apache Arrow's half float (pyarrow, Arrow C++'s `cast` kernels) as a pipe adapter (runners/PIPE.md).

Arrow's `halffloat` is the float16 of Arrow and Parquet files (Parquet's FLOAT16 logical type), with
its own conversion code in Arrow C++ (arrow::util::Float16), independent of NumPy's. Requests go
through `pyarrow.compute.cast` on arrays built over the words' own buffers, and the results are
read back from the output array's data buffer, so no NumPy float16 cast is involved. Conventions,
isolated here:
- float32 -> halffloat is offered as F32_TO_F16_RNE; its NaN results are Arrow's.
- halffloat -> float32 is offered as decode F16.
- Arrow has no bfloat16 or 8-bit float types: nothing else is provided.
Run with the project venv's python: .venv/bin/python targets/thirdparty/pyarrow_adapter.py
"""
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402


def cast_words(words, src_type, dst_type, dst_storage):
    """Casts the array whose data buffer holds `words` (as src_type) to dst_type; returns the
    result's data buffer as dst_storage words."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    src = pa.Array.from_buffers(src_type, len(words), [None, pa.py_buffer(np.ascontiguousarray(words))])
    out = pc.cast(src, dst_type)
    data = np.frombuffer(out.buffers()[1], dtype=dst_storage)
    return data[out.offset:out.offset + len(out)]


def decode(word_type, words):
    import numpy as np
    import pyarrow as pa
    return cast_words((words & 0xFFFF).astype("<u2"), pa.float16(), pa.float32(), "<u4").astype(np.uint32)


def convert(recipe, words):
    import numpy as np
    import pyarrow as pa
    return cast_words(words.astype("<u4"), pa.float32(), pa.float16(), "<u2").astype(np.uint32)


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    version = "%s+numpy-%s" % (md.version("pyarrow"), md.version("numpy"))
    return nc_pipe.Adapter("pyarrow", version, {"decode": (("F16",), decode), "convert": (("F32_TO_F16_RNE",), convert)})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
