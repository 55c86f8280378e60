"""The speed of an in-process sweep (issue 31): one adapter's float32 conversion, 2 jobs, in one run:
(1) the cast's own rate over the same inputs in the runner's batches of 65536 on 2 threads, (2)
`sweep convert.RECIPE` of the adapter in process (targets/thirdparty/ADAPTER_adapter.py's
adapter()), (3) the same sweep through the pipe adapter.
Usage: bench_adapter_sweep.py [ADAPTER[:ARG] [RECIPE [STRIDE]]] (defaults ml_dtypes, F32_TO_BF16_RNE,
17: 1 in STRIDE of the 2^32 inputs). ARG is the adapter's argument, both in process and on the pipe
(pytorch:compile, tensorflow:xla)."""
import os
import subprocess
import sys
import threading
import time

import numpy as np

import ninfer_conform

CLI = os.path.join(os.path.dirname(sys.executable), "ninfer-conform")  # the console script

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "targets", "thirdparty"))
import importlib  # noqa: E402

ADAPTER, _, ARG = (sys.argv[1] if len(sys.argv) > 1 else "ml_dtypes").partition(":")
RECIPE = sys.argv[2] if len(sys.argv) > 2 else "F32_TO_BF16_RNE"
STRIDE = int(sys.argv[3]) if len(sys.argv) > 3 else 17
sys.argv = [ADAPTER + "_adapter.py"] + ([ARG] if ARG else [])  # the adapter reads its argument on import
TARGET = importlib.import_module(ADAPTER + "_adapter").adapter()

JOBS, BATCH, DOMAIN = 2, 1 << 16, "convert." + RECIPE
inputs = -(-(1 << 32) // STRIDE)


def warm_up():
    """The library's import and first-call set-up (TensorFlow: seconds) are not the cast's rate."""
    import numpy as np
    TARGET.convert(RECIPE, np.zeros(64, dtype=np.uint32))


def own_rate():
    """The cast alone: each thread converts its half of the inputs, batch by batch."""
    def work(lo, hi):
        out = None
        for first in range(lo, hi, BATCH):
            words = (np.arange(first, min(first + BATCH, hi), dtype=np.uint64) * STRIDE).astype(np.uint32)
            out = TARGET.convert(RECIPE, words)
        return out
    start = time.perf_counter()
    threads = [threading.Thread(target=work, args=(k * inputs // JOBS, (k + 1) * inputs // JOBS)) for k in range(JOBS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return inputs / (time.perf_counter() - start)


def sweep_rate(target):
    start = time.perf_counter()
    if isinstance(target, str):
        # the adapter's first batch pays for importing its library (torch: tens of seconds on a
        # loaded machine), beyond the runner's default 10 s per batch
        run = subprocess.run([CLI, "sweep", DOMAIN, "--target", target, "--jobs", str(JOBS), "--stride",
                              str(STRIDE), "--no-geometry", "--timeout", "300"], capture_output=True, text=True)
        assert run.returncode in (0, 1), run.stderr
    else:
        ninfer_conform.sweep(target, DOMAIN, jobs=JOBS, stride=STRIDE, no_geometry=True)
    return inputs / (time.perf_counter() - start)


warm_up()
own = own_rate()
inproc = sweep_rate(TARGET)
pipe = sweep_rate("pipe:%s %s%s" % (sys.executable, os.path.join(SOURCE, "targets", "thirdparty", ADAPTER + "_adapter.py"),
                                     " " + ARG if ARG else ""))
print("%s %s: %d inputs (1 in %d of 2^32), %d jobs" % (TARGET.name, RECIPE, inputs, STRIDE, JOBS))
print("the cast alone      %8.1f M inputs/s" % (own / 1e6))
print("in-process sweep    %8.1f M inputs/s  (%.0f%% of the cast's own rate)" % (inproc / 1e6, 100 * inproc / own))
print("pipe adapter sweep  %8.1f M inputs/s  (in-process is %.1fx)" % (pipe / 1e6, inproc / pipe))
