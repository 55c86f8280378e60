"""The speed of an in-process sweep (issue 31): one adapter's float32 conversion, 2 jobs, in one run:
(1) the cast's own rate over the same inputs in the runner's batches (262144 words, as a sweep
hands a Python target: python/core.cc kSweepBatch) on 2 threads, (2) `sweep convert.RECIPE` of the
adapter in process (targets/thirdparty/ADAPTER_adapter.py's adapter()), (3) the same sweep through
the pipe adapter, (4) the cast alone on one thread, (5) on 2 threads in batches of 65536 (what
other targets get, and what a Python target got before kSweepBatch), and (6) as (1) with each
batch's words advanced in place from the last batch's (own_rate).
Usage: bench_adapter_sweep.py [ADAPTER[:ARG] [RECIPE [STRIDE [REPEAT]]]] (defaults ml_dtypes,
F32_TO_BF16_RNE, 1: 1 in STRIDE of the 2^32 inputs, 5: the ways are run in turn REPEAT times and
each rate is the median of its runs, since a shared machine's speed swings from second to second;
the sweep's ratio to (1) and to (6) is the median of the ratios within runs of (1), (2) and (6)
one right after the other).
Stride 1 is the whole domain, the sweep a certificate runs. A sweep also has costs that do not
grow with its inputs (starting its threads and their buffers, the class sample that names the
profile, the report), which the cast alone has not: a fast cast's sweep of 1 in 17 inputs
(PyTorch's BF16, about 30 ms) looks up to a fifth slower than it runs on the whole domain.
ARG is the adapter's argument, both in process and on the pipe (pytorch:compile, tensorflow:xla).
The cast alone is also timed on one thread: where its calls hold the GIL for as long as its work
releases it (PyTorch's), two threads convert no faster than one, and the sweep's second thread
earns its keep by judging while the other converts.
Each rate is given twice: per second of wall time, and per second of CPU time (every thread of
this process; for the pipe, the executable and its adapter processes). On a machine that other
work shares, the wall rates swing with the load; the CPU rates say what each way costs."""
import os
import resource
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
STRIDE = int(sys.argv[3]) if len(sys.argv) > 3 else 1
REPEAT = int(sys.argv[4]) if len(sys.argv) > 4 else 5
sys.argv = [ADAPTER + "_adapter.py"] + ([ARG] if ARG else [])  # the adapter reads its argument on import
TARGET = importlib.import_module(ADAPTER + "_adapter").adapter()

JOBS, BATCH, DOMAIN = 2, 1 << 18, "convert." + RECIPE
inputs = -(-(1 << 32) // STRIDE)


def warm_up():
    """The library's import and first-call set-up (TensorFlow: seconds) are not the cast's rate."""
    import numpy as np
    TARGET.convert(RECIPE, np.zeros(64, dtype=np.uint32))


def timed(fn):
    """(inputs per wall second, inputs per CPU second) of fn(): this process's CPU, and its waited-for
    children's."""
    def cpu():
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime
    start, start_cpu = time.perf_counter(), cpu()
    fn()
    return inputs / (time.perf_counter() - start), inputs / (cpu() - start_cpu)


def own_rate(threads, batch=BATCH, in_place=False):
    """The cast alone: each thread converts its share of the inputs, batch by batch. A batch's words
    are written into a buffer of the thread's own, as the runner writes its input buffer: the
    cast's rate is not the allocations and passes of making each batch anew (np.arange, a 64-bit
    product, a narrowing copy), which cost some of these casts more than the cast itself. They are
    batch 0's words plus the batch's first input, or (in_place) the last batch's words advanced in
    place: no read of a second buffer, the cheapest way NumPy has to make them, so the strictest
    baseline (PyTorch's BF16 cast: a quarter to a third faster than the other way)."""
    lattice = (np.arange(batch, dtype=np.uint64) * STRIDE).astype(np.uint32)  # the words of batch 0
    step = np.uint32(batch * STRIDE % (1 << 32))  # from one batch's words to the next's

    def work(lo, hi):
        buffer, out = lattice + np.uint32(lo * STRIDE % (1 << 32)), None
        for first in range(lo, hi, batch):
            n = min(batch, hi - first)
            words = buffer[:n]
            if in_place:
                if first > lo:
                    np.add(buffer, step, out=buffer)  # inputs stay below 2^32 (uint32 wraps)
            else:
                np.add(lattice[:n], np.uint32(first * STRIDE % (1 << 32)), out=words)
            out = TARGET.convert(RECIPE, words)
        return out

    def run():
        workers = [threading.Thread(target=work, args=(k * inputs // threads, (k + 1) * inputs // threads))
                   for k in range(threads)]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
    return timed(run)


def sweep_rate(target):
    def run():
        if isinstance(target, str):
            # the adapter's first batch pays for importing its library (torch: tens of seconds on a
            # loaded machine), beyond the runner's default 10 s per batch
            done = subprocess.run([CLI, "sweep", DOMAIN, "--target", target, "--jobs", str(JOBS), "--stride",
                                   str(STRIDE), "--no-geometry", "--timeout", "300"], capture_output=True, text=True)
            assert done.returncode in (0, 1), done.stderr
        else:
            ninfer_conform.sweep(target, DOMAIN, jobs=JOBS, stride=STRIDE, no_geometry=True)
    return timed(run)


warm_up()
PIPE = "pipe:%s %s%s" % (sys.executable, os.path.join(SOURCE, "targets", "thirdparty", ADAPTER + "_adapter.py"),
                          " " + ARG if ARG else "")
UNIT = 1 << 16  # the batch of every other target (and of Python ones before kSweepBatch)


def paired(k):
    """The cast alone, the in-process sweep and the cast over words moved in place, one right after
    the other, their order turning with k: the machine's speed swings from second to second
    (PyTorch's F16 cast of 262,144 words took 27, 52 and 97 µs a call on average in three
    consecutive sweeps), so each ratio is taken within one such run, under one load."""
    ways = [lambda: own_rate(JOBS), lambda: sweep_rate(TARGET), lambda: own_rate(JOBS, in_place=True)]
    order = [(k + i) % 3 for i in range(3)]
    rates = {w: ways[w]() for w in order}
    return rates[0], rates[1], rates[2]


runs = [paired(k) + (sweep_rate(PIPE), own_rate(1), own_rate(JOBS, UNIT)) for k in range(REPEAT)]


def median(values):
    return sorted(values)[len(values) // 2]


(own, own_cpu), (inproc, inproc_cpu), (moved, moved_cpu), (pipe, pipe_cpu), (one, one_cpu), (unit, unit_cpu) = [
    (median([run[w][0] for run in runs]), median([run[w][1] for run in runs])) for w in range(6)]


def ratio_to(baseline):
    """The sweep's ratio to a baseline within each run: 'median% | median% ...; lowest to highest'."""
    wall, cpu = [sorted(run[1][c] / run[baseline][c] for run in runs) for c in (0, 1)]
    return "%.0f%% | %.0f%% of it: the median ratio within each run; %.0f to %.0f%% | %.0f to %.0f%%" % (
        100 * median(wall), 100 * median(cpu), 100 * wall[0], 100 * wall[-1], 100 * cpu[0], 100 * cpu[-1])


print("%s %s: %d inputs (1 in %d of 2^32), %d jobs, median of %d runs; M inputs per second of wall time | of CPU time" %
      (TARGET.name, RECIPE, inputs, STRIDE, JOBS, REPEAT))
print("in-process sweep       %8.1f | %8.1f" % (inproc / 1e6, inproc_cpu / 1e6))
print("the cast alone         %8.1f | %8.1f  (the sweep is %s)" % (own / 1e6, own_cpu / 1e6, ratio_to(0)))
print("  words moved in place %8.1f | %8.1f  (the sweep is %s)" % (moved / 1e6, moved_cpu / 1e6, ratio_to(2)))
print("  on one thread        %8.1f | %8.1f" % (one / 1e6, one_cpu / 1e6))
print("  in batches of 2^16   %8.1f | %8.1f  (the sweep is %.1fx | %.1fx)" %
      (unit / 1e6, unit_cpu / 1e6, inproc / unit, inproc_cpu / unit_cpu))
print("pipe adapter sweep     %8.1f | %8.1f  (in-process is %.1fx | %.1fx)" %
      (pipe / 1e6, pipe_cpu / 1e6, inproc / pipe, inproc_cpu / pipe_cpu))
