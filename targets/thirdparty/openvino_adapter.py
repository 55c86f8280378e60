"""OpenVINO CPU plugin `Convert` as a pipe adapter (runners/PIPE.md).

    openvino_adapter.py [dynamic]   # name `openvino`: one model per conversion, dynamic 1-D shape
    openvino_adapter.py static      # name `openvino-static`: one model per conversion and batch
                                    # length, static shape [N]

Each conversion is a compiled model Parameter -> Convert(T) -> Result on the "CPU" device,
INFERENCE_PRECISION_HINT f32 (so the plugin does not lower the graph to bf16 on its own), one
inference thread. The CPU plugin picks a different kernel by shape mode (the dynamic-shape BF16
Convert and the static one differ), so each mode is certified as a target of its own, and `info 1`
reports the mode, the hint and the threads. Input and output tensors are filled and read through
their raw bytes.

Conventions of this library, isolated here:
- f8e4m3: overflow and infinity become NaN (the type has no infinity), so it is offered as
  F32_TO_E4M3FN_RNE_OVF_NAN.
- f4e2m1 (packed two per byte, low nibble first): overflow saturates, offered as
  F32_TO_E2M1_RNE_SATFINITE.
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
# word type / recipe -> (OpenVINO element type name, bits per element)
DECODE = {"BF16": ("bf16", 16), "F16": ("f16", 16), "E4M3FN": ("f8e4m3", 8), "E2M1": ("f4e2m1", 4)}
CONVERT = {"F32_TO_BF16_RNE": ("bf16", 16), "F32_TO_F16_RNE": ("f16", 16),
           "F32_TO_E4M3FN_RNE_OVF_NAN": ("f8e4m3", 8), "F32_TO_E2M1_RNE_SATFINITE": ("f4e2m1", 4)}


STATIC = len(sys.argv) > 1 and sys.argv[1] == "static"
CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}


@functools.lru_cache(maxsize=None)
def compiled(src, dst, n):
    """The model for a batch of n (static) or for any length (dynamic: n is -1)."""
    import openvino as ov
    import openvino.opset13 as ops
    p = ops.parameter([n], getattr(ov.Type, src))
    model = ov.Model([ops.convert(p, getattr(ov.Type, dst))], [p])
    return ov.Core().compile_model(model, "CPU", CONFIG)


def to_bytes(words, bits):
    import numpy as np
    if bits == 4:
        w = (words & 0xF).astype(np.uint8)
        w = np.append(w, np.uint8(0)) if len(w) % 2 else w
        return (w[0::2] | (w[1::2] << 4)).tobytes()
    return words.astype({32: np.uint32, 16: np.uint16, 8: np.uint8}[bits]).tobytes()


def from_bytes(raw, bits, n):
    import numpy as np
    if bits == 4:
        b = np.frombuffer(raw, dtype=np.uint8)
        return np.stack([b & 0xF, b >> 4], axis=-1).reshape(-1)[:n].astype(np.uint32)
    return np.frombuffer(raw, dtype={32: np.uint32, 16: np.uint16, 8: np.uint8}[bits])[:n].astype(np.uint32)


def run(src, src_bits, dst, dst_bits, words):
    import numpy as np
    import openvino as ov
    n = len(words)
    t = ov.Tensor(getattr(ov.Type, src), ov.Shape([n]))
    t.data.reshape(-1).view(np.uint8)[:] = np.frombuffer(to_bytes(words, src_bits), dtype=np.uint8)
    request = compiled(src, dst, n if STATIC else -1).create_infer_request()
    request.infer({0: t})
    out = request.get_output_tensor(0)
    return from_bytes(out.data.reshape(-1).view(np.uint8).tobytes(), dst_bits, n)


def decode(word_type, words):
    return run(DECODE[word_type][0], DECODE[word_type][1], "f32", 32, words)


def convert(recipe, words):
    return run("f32", 32, CONVERT[recipe][0], CONVERT[recipe][1], words)


def info():
    import openvino as ov
    core = ov.Core()
    return {"shapes": "static" if STATIC else "dynamic", "device": "CPU",
            "inference_precision_hint": CONFIG["INFERENCE_PRECISION_HINT"],
            "inference_num_threads": CONFIG["INFERENCE_NUM_THREADS"],
            "cpu_capabilities": ",".join(core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"))}


def adapter():
    """This library's conversions as one description: what the pipe serves (below) and an
    in-process target of the Python package (nc_pipe.Adapter)."""
    return nc_pipe.Adapter("openvino-static" if STATIC else "openvino", md.version("openvino"),
                           {"decode": (DECODE_TYPES, decode), "convert": (RECIPES, convert)}, info)


if __name__ == "__main__":
    nc_pipe.serve(adapter())
