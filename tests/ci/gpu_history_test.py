#!/usr/bin/env python3
"""scripts/gpu-history on fabricated nightly outputs (verdicts.tsv, bench.md in nc_gpu_bench's
format) and histories: every expected verdict and figure below is worked out by hand from the
fabricated numbers, not taken from the script. Also checks that the committed seed history
(docs/gpu-runs/history.jsonl) holds the figures of docs/gpu-runs/2026-12-04-h200/bench.md.

Usage: gpu_history_test.py SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

SRC = os.path.abspath(sys.argv[1])
TOOL = os.path.join(SRC, "scripts", "gpu-history")
failures = []


def check(cond, what):
    if cond:
        print("ok: " + what)
    else:
        failures.append(what)
        print("FAIL: " + what)


def bench(device, copy=4000.0, deq=60.0, enc=8.0, gemv=3.00):
    """A bench.md as nc_gpu_bench prints it: the copy's GB/s, two kernels' share of it, one GEMV ratio."""
    return f"""device: {device}

| kernel | GiB moved | ms | GB/s | of D2D copy | target |
|---|---|---|---|---|---|
| cudaMemcpy D2D 2 GiB (baseline) | 4.00 | - | {copy:.1f} | 100% | - |
| dequantize Q4G64_F16S | 2.02 | 0.841 | {copy * deq / 100:.1f} | {deq:.1f}% | >= 80% |
| encode MAXABS Q4G64 (FP32 in uint64) | 3.02 | 9.687 | {copy * enc / 100:.1f} | {enc:.1f}% | >= 50% |

| GEMV (FP32 x) | N x K | weight GiB | ms | floor ms | ratio | target |
|---|---|---|---|---|---|---|
| NVFP4 | 32768x32768 | 1.00 | {0.268 * gemv:.3f} | 0.268 | {gemv:.2f}x | <= 1.5x |
"""


PASS = "device\tpass\tok\nctest-gpu\tpass\tok\nreplay-cuda\tpass\tconformant\n"


def run_dir(tmp, name, bench_md=None, verdicts=PASS):
    d = os.path.join(tmp, name)
    os.mkdir(d)
    if bench_md is not None:
        open(os.path.join(d, "bench.md"), "w").write(bench_md)
    if verdicts is not None:
        open(os.path.join(d, "verdicts.tsv"), "w").write(verdicts)
    return d


def record(out, history, run, *extra):
    p = subprocess.run([TOOL, "record", "--out", out, "--history", history, "--run", run, "--commit", "c-" + run,
                        "--date", "2026-12-05T03:17:00Z", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return p.returncode, p.stdout


def lines_of(history, run):
    return [json.loads(x) for x in open(history) if json.loads(x)["run"] == run]


def verdict(history, run, step):
    v = [r for r in lines_of(history, run) if r["kind"] == "verdict" and r["step"] == step]
    return (v[0]["verdict"], v[0]["detail"]) if v else (None, "")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        h = os.path.join(tmp, "sub", "history.jsonl")  # the folder is created on the first record

        rc, out = record(run_dir(tmp, "r1", bench("GPU-A")), h, "r1")
        lines = lines_of(h, "r1")
        check(rc == 0 and len(lines) == 4 + 4, f"first run: exit 0, 4 kernel + 4 verdict lines (got {rc}, {len(lines)})")
        deq = [r for r in lines if r.get("kernel") == "dequantize Q4G64_F16S"]
        check(deq and deq[0]["metric"] == "of_copy" and deq[0]["value"] == 0.6 and deq[0]["gb_s"] == 2400.0,
              "dequantize recorded as its share of the copy, 0.6 (2400.0 GB/s)")
        g = [r for r in lines if r.get("kernel") == "GEMV NVFP4 32768x32768 (FP32 x)"]
        check(g and g[0]["value"] == 3.0 and g[0]["better"] == "lower", "GEMV recorded by its ratio to the floor, 3.00, lower is better")
        check(verdict(h, "r1", "bandwidth")[0] == "pass" and "no kept run on GPU-A" in verdict(h, "r1", "bandwidth")[1],
              "first run: nothing to compare with, bandwidth verdict pass saying so")

        # dequantize 60% -> 53%: 11.7% less throughput, beyond 10%; encode 8% -> 7.4%: 7.5%, within.
        rc, out = record(run_dir(tmp, "r2", bench("GPU-A", deq=53.0, enc=7.4)), h, "r2")
        v = verdict(h, "r2", "bandwidth")
        check(rc == 1 and v[0] == "fail" and "dequantize Q4G64_F16S 11.7%" in v[1] and "encode" not in v[1]
              and "against r1" in v[1], f"11.7% drop fails against r1, 7.5% does not (exit {rc}: {v[1]})")
        check("DROP beyond 10%" in out and "-11.7%" in out, "the comparison table marks the drop")

        # The same drop within --margin 15 passes (a dry run: nothing appended).
        before = open(h).read()
        rc, out = record(run_dir(tmp, "r2b", bench("GPU-A", deq=53.0)), h, "r2b", "--margin", "15", "--dry-run")
        check(rc == 0 and open(h).read() == before, f"--margin 15 accepts 11.7%; --dry-run appends nothing (exit {rc})")

        # r2 failed, so the kept run is still r1: 57% is a 5% drop from r1's 60% (from r2's 53% it would be a gain).
        # GEMV 3.00x -> 3.40x: 1 - 3.00/3.40 = 11.8% less throughput, beyond 10%.
        rc, out = record(run_dir(tmp, "r3", bench("GPU-A", deq=57.0, gemv=3.40)), h, "r3")
        v = verdict(h, "r3", "bandwidth")
        check(rc == 1 and "against r1" in v[1] and "GEMV NVFP4 32768x32768 (FP32 x) 11.8%" in v[1]
              and "dequantize" not in v[1], f"a failed run is no baseline; GEMV 3.00x -> 3.40x fails (exit {rc}: {v[1]})")
        # GEMV 3.00x -> 3.30x: 9.1%, within; the copy 4000 -> 3500 GB/s: 12.5%, beyond (its own GB/s is compared).
        rc, out = record(run_dir(tmp, "r4", bench("GPU-A", copy=3500.0, gemv=3.30)), h, "r4")
        v = verdict(h, "r4", "bandwidth")
        check(rc == 1 and "cudaMemcpy D2D 2 GiB (baseline) 12.5%" in v[1] and "GEMV" not in v[1],
              f"a slower copy fails on its GB/s; the kernels' shares of it do not move (exit {rc}: {v[1]})")

        # A conformance failure fails the run whatever the bandwidth, and the run is no baseline.
        rc, out = record(run_dir(tmp, "r5", bench("GPU-A"), PASS.replace("replay-cuda\tpass", "replay-cuda\tfail")), h, "r5")
        check(rc == 1 and verdict(h, "r5", "replay-cuda")[0] == "fail" and verdict(h, "r5", "bandwidth")[0] == "pass",
              f"replay-cuda fail: exit 1, bandwidth itself passed (exit {rc})")
        rc, out = record(run_dir(tmp, "r6", bench("GPU-A", deq=55.0)), h, "r6")
        check(rc == 0 and "against r1" in verdict(h, "r6", "bandwidth")[1],
              f"after failed runs the kept run is still r1 (8.3% drop, within): exit {rc}")
        rc, out = record(run_dir(tmp, "r7", bench("GPU-A", deq=50.0)), h, "r7")
        check(rc == 0 and "against r6" in verdict(h, "r7", "bandwidth")[1],
              f"a passing run becomes the kept run: against r6, 55% -> 50% is 9.1%, within (exit {rc})")

        # Another device has no kept run: its first figures pass.
        rc, out = record(run_dir(tmp, "b1", bench("GPU-B", deq=20.0)), h, "b1")
        check(rc == 0 and "no kept run on GPU-B" in verdict(h, "b1", "bandwidth")[1], "another device is compared only with itself")

        # The nightly ended early: no verdicts.tsv, or no bench.md; --nightly-exit is recorded.
        rc, out = record(run_dir(tmp, "e1", bench("GPU-A"), None), h, "e1", "--nightly-exit", "2")
        check(rc == 1 and verdict(h, "e1", "verdicts")[0] == "fail" and verdict(h, "e1", "nightly")[1] == "scripts/gpu-nightly exit 2",
              f"no verdicts.tsv: fails, and the nightly's exit 2 is recorded (exit {rc})")
        rc, out = record(run_dir(tmp, "e2", None, "device\tfail\tno usable CUDA device\n"), h, "e2", "--device", "GPU-A")
        check(rc == 1 and verdict(h, "e2", "bandwidth")[0] == "fail" and verdict(h, "e2", "device")[0] == "fail",
              f"no bench.md: device and bandwidth verdicts fail (exit {rc})")

        # Usage and malformed input: exit 2, naming the file and line.
        rc, out = record(run_dir(tmp, "dup", bench("GPU-A")), h, "r1")
        check(rc == 2 and "run r1 is already recorded" in out, f"a run id recorded twice: exit 2 ({out.strip()})")
        bad = os.path.join(tmp, "bad.jsonl")
        open(bad, "w").write(open(h).readline() + "{not json\n")
        rc, out = record(run_dir(tmp, "m1", bench("GPU-A")), bad, "m1")
        check(rc == 2 and f"{bad}:2: not JSON" in out, f"a malformed history line: exit 2 naming line 2")
        rc, out = record(run_dir(tmp, "m2", bench("GPU-A"), "device\tmaybe\tx\n"), h, "m2")
        check(rc == 2 and "verdicts.tsv:1: expected STEP<TAB>pass|fail<TAB>DETAIL" in out, f"a malformed verdict: exit 2 ({out.strip()})")
        rc, out = record(run_dir(tmp, "m3", bench("GPU-A").replace("| 0.268 | 3.00x |", "| 0.268 |")), h, "m3")
        check(rc == 2 and "bench.md:11: 6 cells, the table's header has 7" in out, f"a malformed bench row: exit 2 naming line 11")

        p = subprocess.run([TOOL, "show", "--history", h, "--device", "GPU-A"], stdout=subprocess.PIPE, text=True)
        row = [x for x in p.stdout.splitlines() if x.startswith("| dequantize Q4G64_F16S |")]
        check(p.returncode == 0 and row and row[0].startswith("| dequantize Q4G64_F16S | 60.0% | 53.0% | 57.0% | 60.0% | 60.0% | 55.0% | 50.0% |"),
              "show: the dequantize trend run by run")

    # The committed seed: the H200 run of 2026-12-04, figures as its bench.md prints them.
    seed = os.path.join(SRC, "docs", "gpu-runs", "history.jsonl")
    recs = [json.loads(x) for x in open(seed)]
    fig = {r["kernel"]: r["value"] for r in recs if r["kind"] == "kernel" and r["run"] == "2026-12-04-h200"}
    check(len(fig) == 18 and fig.get("dequantize NVFP4") == 0.541 and fig.get("GEMV NVFP4 32768x32768 (FP32 x)") == 6.67
          and fig.get("cudaMemcpy D2D 2 GiB (baseline)") == 4260.9 and fig.get("encode MAXABS Q4G64 (FP32 in uint64)") == 0.078,
          "seed history: 18 kernels of the 2026-12-04 H200 run (NVFP4 dequantize 54.1%, GEMV 6.67x, copy 4260.9 GB/s)")
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([TOOL, "show", "--history", seed], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        check(p.returncode == 0, "the seed history reads back")

    print(f"gpu-history: {len(failures)} failure(s)" if failures else "gpu-history: all checks passed")
    return 1 if failures else 0


sys.exit(main())
