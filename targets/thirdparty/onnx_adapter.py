"""ONNX `Cast` and `DequantizeLinear` as a pipe adapter (runners/PIPE.md), run by one of two
engines:

    onnx_adapter.py reference   # name `onnx-reference`: onnx.reference.ReferenceEvaluator (numpy)
    onnx_adapter.py runtime     # name `onnxruntime`: an ONNX Runtime CPUExecutionProvider session

Every request is a one-node opset-23 model with a dynamic 1-D (or the tensor's) shape:
- convert: Cast(to=T) from FLOAT. FLOAT8E4M3FN has the `saturate` attribute: saturate=1 is
  F32_TO_E4M3FN_RNE_SATFINITE, saturate=0 is F32_TO_E4M3FN_RNE_OVF_NAN (the operator's own
  definition of the two). FLOAT4E2M1 saturates (it has no infinity or NaN): offered as
  F32_TO_E2M1_RNE_SATFINITE.
- decode: Cast(to=FLOAT) from the word's type.
- reconstruct / dequantize FP8_E4M3FN_ROW_BF16S: DequantizeLinear(x: FLOAT8E4M3FN, x_scale:
  FLOAT, axis=0), i.e. y = x * x_scale rounded once to binary32, the spec's c32 * s32 (3.4). The
  BF16 row scale is passed as the binary32 of the same value (16 zero bits appended: exact, spec
  3.1); DequantizeLinear applies none of the format's validity rules (NaN codes, negative or
  infinite scales), so invalid tensors are dequantized, not rejected.
Tensors of the 16-bit and narrower types enter and leave ONNX Runtime as raw bytes (its numpy
binding has no bfloat16); the reference evaluator takes and returns ml_dtypes arrays.
ONNX Runtime has no FLOAT4E2M1 Cast kernel in this version (NOT_IMPLEMENTED), so E2M1 is
unsupported there.
Run with the project venv's python.
"""
import ctypes
import functools
import importlib.metadata as md
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nc_pipe  # noqa: E402

RUNTIME = len(sys.argv) > 1 and sys.argv[1] == "runtime"
DECODE_TYPES = ("BF16", "F16", "E4M3FN") + (() if RUNTIME else ("E2M1",))
RECIPES = ("F32_TO_BF16_RNE", "F32_TO_F16_RNE", "F32_TO_E4M3FN_RNE_SATFINITE",
           "F32_TO_E4M3FN_RNE_OVF_NAN") + (() if RUNTIME else ("F32_TO_E2M1_RNE_SATFINITE",))
FP8_ROW = ("FP8_E4M3FN_ROW_BF16S",)
# word type -> (TensorProto type name, storage bits); recipe -> (type name, bits, saturate)
DECODE = {"BF16": ("BFLOAT16", 16), "F16": ("FLOAT16", 16), "E4M3FN": ("FLOAT8E4M3FN", 8), "E2M1": ("FLOAT4E2M1", 4)}
CONVERT = {"F32_TO_BF16_RNE": ("BFLOAT16", 16, None), "F32_TO_F16_RNE": ("FLOAT16", 16, None),
           "F32_TO_E4M3FN_RNE_SATFINITE": ("FLOAT8E4M3FN", 8, 1),
           "F32_TO_E4M3FN_RNE_OVF_NAN": ("FLOAT8E4M3FN", 8, 0),
           "F32_TO_E2M1_RNE_SATFINITE": ("FLOAT4E2M1", 4, None)}
STORAGE = {32: "uint32", 16: "uint16", 8: "uint8", 4: "uint8"}


@functools.lru_cache(maxsize=None)
def session(op, src, dst, saturate, rank):
    """A callable running the one-node model on numpy arrays of storage words (uint*), inputs in
    order; returns the output's storage words."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper
    attrs = {"to": getattr(TensorProto, dst)} if op == "Cast" else {"axis": 0}
    if saturate is not None:
        attrs["saturate"] = saturate
    names = ["x"] if op == "Cast" else ["x", "x_scale"]
    types = [getattr(TensorProto, t) for t in ([src] if op == "Cast" else [src, "FLOAT"])]
    shapes = [[None] * rank] if op == "Cast" else [[None] * rank, [None]]
    graph = helper.make_graph(
        [helper.make_node(op, names, ["y"], **attrs)], "g",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in zip(names, types, shapes)],
        [helper.make_tensor_value_info("y", getattr(TensorProto, dst), [None] * rank)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])
    if RUNTIME:
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1  # one process per sweep thread
        sess = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])

        def run(*arrays):
            io = sess.io_binding()
            for name, t, a in zip(names, types, arrays):
                io.bind_ortvalue_input(name, ort.OrtValue.ortvalue_from_numpy_with_onnx_type(a, t))
            io.bind_output("y", "cpu")
            sess.run_with_iobinding(io)
            out = io.get_outputs()[0]
            n = int(np.prod(out.shape()))
            width = {"FLOAT": 4, "BFLOAT16": 2, "FLOAT16": 2, "FLOAT8E4M3FN": 1}[dst]
            raw = (ctypes.c_uint8 * (n * width)).from_address(out.data_ptr())
            return np.frombuffer(bytes(raw), dtype={4: np.uint32, 2: np.uint16, 1: np.uint8}[width]).reshape(out.shape())
        return run
    from onnx import helper as h  # noqa: F401  (the reference evaluator takes ml_dtypes arrays)
    from onnx.reference import ReferenceEvaluator
    import ml_dtypes
    ev = ReferenceEvaluator(model)
    dtype = {"FLOAT": np.float32, "BFLOAT16": ml_dtypes.bfloat16, "FLOAT16": np.float16,
             "FLOAT8E4M3FN": ml_dtypes.float8_e4m3fn, "FLOAT4E2M1": ml_dtypes.float4_e2m1fn}

    def run(*arrays):
        feeds = {n: a.view(dtype[t]) if t != "FLOAT4E2M1" else a.astype(np.uint8).view(dtype[t])
                 for n, t, a in zip(names, [src, "FLOAT"][:len(names)], arrays)}
        y = np.asarray(ev.run(None, feeds)[0])
        return y.view({4: np.uint32, 2: np.uint16, 1: np.uint8}[y.dtype.itemsize])
    return run


def decode(word_type, words):
    import numpy as np
    name, bits = DECODE[word_type]
    src = (words & ((1 << bits) - 1)).astype(STORAGE[bits])
    return session("Cast", name, "FLOAT", None, 1)(src).astype(np.uint32)


def convert(recipe, words):
    import numpy as np
    name, bits, saturate = CONVERT[recipe]
    return session("Cast", "FLOAT", name, saturate, 1)(words.astype(np.uint32)).astype(np.uint32) & ((1 << bits) - 1)


def dequantize_row(codes, scales):
    """DequantizeLinear of E4M3FN codes (uint8, any rank, rows on axis 0) by BF16 row scales."""
    import numpy as np
    scale32 = scales.astype(np.uint32) << 16  # the binary32 of the BF16 value: exact
    return session("DequantizeLinear", "FLOAT8E4M3FN", "FLOAT", None, codes.ndim)(codes, scale32)


def reconstruct(fmt, tokens):
    import numpy as np
    pairs = [t.split(":") for t in tokens]
    codes = np.array([int(p[0], 16) for p in pairs], dtype=np.uint8)
    scales = np.array([int(p[1], 16) for p in pairs], dtype=np.uint16)
    return ["%08x" % w for w in dequantize_row(codes, scales).tolist()]


def dequantize(fmt, tokens):
    import numpy as np
    shape, codes, scales = [int(d) for d in tokens[0].split("x")], tokens[1], tokens[2]
    c = np.array([int(w, 16) for w in codes.split(",")], dtype=np.uint8).reshape(shape)
    s = np.array([int(w, 16) for w in scales.split(",")], dtype=np.uint16)
    return [",".join("%08x" % w for w in dequantize_row(c, s).reshape(-1).tolist())]


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    if RUNTIME:
        name, version = "onnxruntime", "%s+onnx-%s" % (md.version("onnxruntime"), md.version("onnx"))
    else:
        name, version = "onnx-reference", "%s+ml_dtypes-%s" % (md.version("onnx"), md.version("ml_dtypes"))
    return nc_pipe.Adapter(name, version, {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert),
                                           "reconstruct": (FP8_ROW, reconstruct), "dequantize": (FP8_ROW, dequantize)})


if __name__ == "__main__":
    nc_pipe.serve(adapter())
