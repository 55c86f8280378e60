#!/usr/bin/env python3
"""Certifies one third-party implementation and records or checks its findings.

    certify.py --cli BUILD/cli/ninfer-conform --build BUILD IMPL... --write   # refresh docs/certifications/IMPL/
    certify.py --cli BUILD/cli/ninfer-conform --build BUILD IMPL --check      # CI: fail if findings changed
    certify.py --cli BUILD/cli/ninfer-conform --build BUILD IMPL --check --full  # the certificate's sweeps

Each certification replays the whole corpus and sweeps every convert.* and decode.* domain the
implementation provides (`certify --sweep convert,decode`): every binary32 input, or 1 in STRIDE
of them where the implementation is too slow for CI (SWEEP_STRIDE; the certificate states the
coverage). The findings are what must not drift silently: the target's name and version, the
verdict per capability, per suite its verdict counts, policies used, target problem and the sorted
set of failing case IDs (beyond MAX_LISTED_FAILURES: their count and digest, and the first ones),
and per sweep its coverage, mismatch classes with counts, inputs passing
under a policy and failed batches. Timestamps and the order of failures are not findings. Standard
library only.

The ML frameworks are swept whole for their committed certificate (expected-findings.json, checked
by `--check --full`, ctest label `long`: minutes per domain) and 1 in CI_STRIDE in CI:
`--write` records both, the sampled findings in expected-findings.stride-S.json, which a plain
`--check` compares against.
`--write all` re-certifies every implementation. `--write --sampled IMPL` writes only the sampled
findings of a CI_STRIDE implementation (expected-findings.stride-S.json, minutes less than its
exhaustive sweeps) and leaves its certificate and expected-findings.json as they are: CI's plain
`--check` then passes, while `--check --full` (label `long`) still compares against the old
certificate until it is re-certified whole.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = 77  # ctest SKIP_RETURN_CODE
SWEEP_DOMAINS = "convert,decode"
# The ML frameworks, and the array libraries beneath model converters (NumPy's float16, gguf-py),
# which a pipe adapter sweeps at framework speed too: minutes per 2^32-input domain. (Arrow's
# halffloat cast sweeps its domain in under a minute: CI sweeps it whole.)
FRAMEWORKS = ("pytorch", "pytorch-strided", "onnx-reference", "onnxruntime", "jax", "openvino", "numpy", "gguf")
# 1 input in N of each 2^32-input conversion domain, for the implementations too slow to sweep
# whole (libgcc's software _Float16 path, about 2e7 conversions/s; gfloat, pure numpy). Every other
# implementation, the ML frameworks included, is swept over every input for its certificate.
SWEEP_STRIDE = {"gcc-float16-libgcc": 16, "gfloat": 64}
# The paths of a framework that users reach by configuration rather than by default, certified as
# targets of their own on a sample (1 in 257 inputs, as CI samples the frameworks; the certificate
# states the coverage): PyTorch capped at each lower ATen CPU capability level, OpenVINO's
# static-shape models. Their committed certificate is the sampled one: CI's --check repeats it.
PATHS = ("pytorch-avx2", "pytorch-default", "openvino-static")
SWEEP_STRIDE.update({p: 257 for p in PATHS})
# 1 input in N of each binary32 conversion domain in CI (`--check` without `--full`), where the
# certificate's own sweeps would cost CI minutes per implementation: the frameworks, and Highway,
# whose billions of mismatches are each classified.
CI_STRIDE = {f: 257 for f in FRAMEWORKS + ("highway-sse4", "highway-avx2")}
# Seconds an adapter may take to answer one request: importing torch, jax or openvino on a
# loaded machine takes more than the runner's default 10 s, and the first batch pays for it.
TIMEOUT = {f: 120 for f in FRAMEWORKS + PATHS + ("torchao", "compressed-tensors", "modelopt")}
# Failures listed per suite in each certificate.json (`certify --max-failures`): a library that
# truncates fails a hundred thousand corpus cases, and the committed record stays small. Beyond the
# list, a suite's failure count and the SHA-256 of all its failing IDs still pin the set.
MAX_LISTED_FAILURES = 1000
# Hardware adapters need their instructions; a CPU without them makes the certification a skip, not
# a changed finding (/proc/cpuinfo flag names).
NEEDS_CPU_FLAGS = {"gcc-float16-f16c": ("f16c",), "x86-avx512bf16-vcvtneps2bf16": ("avx512_bf16",),
                   "highway-sse4": ("ssse3", "sse4_1", "sse4_2", "pclmulqdq", "aes"),
                   "highway-avx2": ("ssse3", "sse4_1", "sse4_2", "pclmulqdq", "aes", "avx2", "bmi1", "bmi2",
                                    "fma", "f16c"),
                   "pytorch-avx2": ("avx2", "fma")}


def targets(build):
    """IMPL -> target spec for `ninfer-conform certify --target`. The Python adapters run under the
    project venv (scripts/install-thirdparty)."""
    plugin = lambda name: "plugin:" + os.path.join(build, "targets", "thirdparty", name + ".so")
    py = os.path.join(SOURCE, ".venv", "bin", "python")
    pipe = lambda script: "pipe:%s %s" % (py, os.path.join(SOURCE, "targets", "thirdparty", script))
    return {
        "cuda-toolkit-host": plugin("nc_tp_cuda_host"),
        "eigen": plugin("nc_tp_eigen"),
        "fp16-lib": plugin("nc_tp_fp16"),
        "gcc-float16-libgcc": plugin("nc_tp_gcc_float16_soft"),
        "gcc-float16-f16c": plugin("nc_tp_gcc_float16_f16c"),
        "x86-avx512bf16-vcvtneps2bf16": plugin("nc_tp_avx512_bf16"),
        "highway-sse4": plugin("nc_tp_highway_sse4"),
        "highway-avx2": plugin("nc_tp_highway_avx2"),
        "ml_dtypes": pipe("ml_dtypes_adapter.py"),
        "gfloat": pipe("gfloat_adapter.py"),
        "numpy": pipe("numpy_adapter.py"),
        "gguf": pipe("gguf_adapter.py"),
        "pyarrow": pipe("pyarrow_adapter.py"),
        "pytorch": pipe("pytorch_adapter.py contiguous"),
        "pytorch-strided": pipe("pytorch_adapter.py strided"),
        # ATen's CPU capability capped by the environment (the adapter reports the level in force).
        "pytorch-avx2": "pipe:ATEN_CPU_CAPABILITY=avx2 " + pipe("pytorch_adapter.py contiguous")[5:],
        "pytorch-default": "pipe:ATEN_CPU_CAPABILITY=default " + pipe("pytorch_adapter.py contiguous")[5:],
        "onnx-reference": pipe("onnx_adapter.py reference"),
        "onnxruntime": pipe("onnx_adapter.py runtime"),
        "jax": pipe("jax_adapter.py"),
        "openvino": pipe("openvino_adapter.py dynamic"),
        "openvino-static": pipe("openvino_adapter.py static"),
        "torchao": pipe("torchao_adapter.py"),
        "compressed-tensors": pipe("compressed_tensors_adapter.py"),
        "modelopt": pipe("modelopt_adapter.py"),
    }


# The Python module each framework adapter needs: a venv without it makes the check a skip that
# says so (scripts/install-thirdparty installs them all; a platform without a wheel lacks one).
NEEDS_MODULE = {"pytorch": "torch", "pytorch-strided": "torch", "pytorch-avx2": "torch", "pytorch-default": "torch",
                "openvino-static": "openvino", "onnx-reference": "onnx",
                "onnxruntime": "onnxruntime", "jax": "jax", "openvino": "openvino", "torchao": "torchao",
                "compressed-tensors": "compressed_tensors", "modelopt": "modelopt", "gguf": "gguf",
                "pyarrow": "pyarrow"}


def sweep_findings(s):
    if "failure" in s:
        return {"failure": s["failure"]}
    return {k: s[k] for k in ("provided", "stride", "covered", "errored", "classes", "accepted")} | {
        "departures": s.get("departures", {}), "target_error": bool(s["target_error"])}


def failing_ids(s):
    """A suite's failing case IDs, sorted; where the certificate lists only some of them, their
    count, the SHA-256 of all of them (record order, which is ID order) and the listed ones."""
    listed = sorted(f["id"] for f in s["failures"])
    total = s.get("failures_total", len(listed))
    if total == len(listed):
        return listed
    return {"count": total, "sha256": s["failing_ids_sha256"], "listed": listed}


def findings(cert):
    return {
        "target": cert["target"],
        "overall": cert.get("overall", "conformant" if cert["conformant"] else "not conformant"),
        "capabilities": {c["capability"]: c["verdict"] for c in cert["capabilities"]},
        "suites": {
            s["suite"]: {
                "counts": {k: v for k, v in s.items() if isinstance(v, int) and k not in ("failures_total", "policy_passes_total")},
                "policies": sorted(s.get("policies", [])),
                "departures": s.get("departures", {}),
                "target_problem": s.get("target_problem", ""),
                "failing_ids": failing_ids(s),
            }
            for s in cert["suites"]
        },
        "sweeps": {s["domain"]: sweep_findings(s) for s in cert.get("sweeps", [])},
    }


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            return {flag for line in f if line.startswith("flags") for flag in line.split(":", 1)[1].split()}
    except OSError:
        return set()


def diff(old, new, path=""):
    """Human-readable differences between two findings trees."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new)):
            if k not in new:
                out.append("%s/%s: removed" % (path, k))
            elif k not in old:
                out.append("%s/%s: new: %s" % (path, k, json.dumps(new[k])[:200]))
            else:
                out += diff(old[k], new[k], "%s/%s" % (path, k))
        return out
    if isinstance(old, list) and isinstance(new, list) and old != new:
        gone, came = sorted(set(map(str, old)) - set(map(str, new))), sorted(set(map(str, new)) - set(map(str, old)))
        return ["%s: no longer: %s; now also: %s" % (path, " ".join(gone[:10]) or "-", " ".join(came[:10]) or "-")]
    return [] if old == new else ["%s: was %s, now %s" % (path, json.dumps(old), json.dumps(new))]


def certify(a, table, impl, stride, out):
    """Runs `ninfer-conform certify` on impl, writing into the folder out; returns the certificate."""
    cmd = [a.cli, "certify", "--target", table[impl], "--out", out, "--corpus", a.corpus,
           "--sweep", SWEEP_DOMAINS, "--stride", str(stride), "--jobs", str(a.jobs),
           "--timeout", str(TIMEOUT.get(impl, 10)), "--max-failures", str(a.max_failures)]
    if os.path.realpath(a.corpus) != os.path.realpath(os.path.join(SOURCE, "vectors")):
        cmd.append("--allow-modified-corpus")  # a --corpus of its own (the tests' fixture) is not the official one
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode not in (0, 1):  # 0 conformant, 1 not: both are certificates
        sys.stderr.write(run.stdout[-2000:] + run.stderr[-2000:])
        sys.exit("certify.py: %s exited %d" % (" ".join(cmd), run.returncode))
    with open(os.path.join(out, "certificate.json")) as f:
        return json.load(f)


def write_json(path, value):
    with open(path + ".tmp", "w") as f:
        json.dump(value, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)


def skip_reason(a, table, impl, expected_file):
    """Why impl cannot be certified here, or None."""
    if not os.path.exists(os.path.join(a.corpus, "MANIFEST.json")):
        return "no corpus at %s (vectors/MANIFEST.json not committed yet)" % a.corpus
    if a.check and not os.path.exists(expected_file):
        return "%s not certified yet (no %s); run certify.py --write" % (impl, expected_file)
    if table[impl].startswith("plugin:") and not os.path.exists(table[impl][7:]):
        return "%s was not built on this machine (%s)" % (impl, table[impl][7:])
    # The program after any VAR=VALUE assignments of the pipe command (pytorch-avx2's).
    python = next((t for t in table[impl][5:].split() if "=" not in t), "")
    if table[impl].startswith("pipe:") and not os.access(python, os.X_OK):
        return "no .venv; run scripts/install-thirdparty"
    module = NEEDS_MODULE.get(impl)
    if module:
        probe = subprocess.run([python, "-c", "import " + module], capture_output=True, text=True)
        if probe.returncode:
            last = (probe.stderr.strip().splitlines() or ["exit %d" % probe.returncode])[-1]
            return "%s: the venv cannot import %s (%s); run scripts/install-thirdparty" % (impl, module, last)
    lacking = [flag for flag in NEEDS_CPU_FLAGS.get(impl, ()) if flag not in cpu_flags()]
    if lacking:
        return "%s needs the CPU features %s, which this machine lacks" % (impl, " ".join(lacking))
    return None


def one(a, table, impl):
    cert_dir = os.path.join(a.certs, impl)
    full_stride = a.stride or SWEEP_STRIDE.get(impl, 1)
    ci_stride = None if (a.full or a.stride) else CI_STRIDE.get(impl)
    expected_file = os.path.join(cert_dir, "expected-findings.stride-%d.json" % ci_stride if ci_stride
                                 else "expected-findings.json")
    reason = skip_reason(a, table, impl, expected_file)
    if reason:
        print("SKIPPED: " + reason)
        return SKIP
    with tempfile.TemporaryDirectory() as out:
        return record(a, table, impl, full_stride, out) if a.write else compare(a, table, impl, ci_stride or full_stride, expected_file, out)


def record(a, table, impl, full_stride, out):
    """--write: the certificate and its findings; for a CI_STRIDE implementation also the sampled
    findings the plain --check compares against."""
    cert_dir = os.path.join(a.certs, impl)
    if a.sampled:
        if impl not in CI_STRIDE:
            sys.exit("certify.py: --sampled is for the implementations CI samples (%s), not %s" %
                     (" ".join(CI_STRIDE), impl))
        sampled = certify(a, table, impl, CI_STRIDE[impl], out)
        write_json(os.path.join(cert_dir, "expected-findings.stride-%d.json" % CI_STRIDE[impl]), findings(sampled))
        print("%s: sampled findings (1 in %d) written to %s" % (impl, CI_STRIDE[impl], cert_dir))
        return 0
    cert = certify(a, table, impl, full_stride, out)
    os.makedirs(cert_dir, exist_ok=True)
    for name in ("certificate.md", "certificate.json", "certificate.html"):
        with open(os.path.join(out, name)) as src, open(os.path.join(cert_dir, name + ".tmp"), "w") as dst:
            dst.write(src.read())
        os.replace(os.path.join(cert_dir, name + ".tmp"), os.path.join(cert_dir, name))
    write_json(os.path.join(cert_dir, "expected-findings.json"), findings(cert))
    if impl in CI_STRIDE and not a.stride:
        os.mkdir(os.path.join(out, "sampled"))
        sampled = certify(a, table, impl, CI_STRIDE[impl], os.path.join(out, "sampled"))
        write_json(os.path.join(cert_dir, "expected-findings.stride-%d.json" % CI_STRIDE[impl]), findings(sampled))
    print("%s: %s, findings written to %s" % (impl, cert.get("overall", cert["conformant"]), cert_dir))
    return 0


def compare(a, table, impl, stride, expected_file, out):
    new = findings(certify(a, table, impl, stride, out))
    with open(expected_file) as f:
        old = json.load(f)
    changes = diff(old, new)
    for c in changes:
        print("CHANGED", c)
    print("%s: findings %s (%d suites, against %s)" % (impl, "changed" if changes else "unchanged",
                                                       len(new["suites"]), os.path.relpath(expected_file, a.certs)))
    return 1 if changes else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--corpus", default=os.path.join(SOURCE, "vectors"))
    ap.add_argument("--certs", default=os.path.join(SOURCE, "docs", "certifications"),
                    help="where certificates and expected findings live")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="sweep threads")
    ap.add_argument("--stride", type=int, help="sweep 1 in STRIDE binary32 inputs whatever the "
                    "implementation (default: SWEEP_STRIDE's, else every input); findings record it")
    ap.add_argument("--max-failures", type=int, default=MAX_LISTED_FAILURES,
                    help="failures listed per suite in certificate.json (default %(default)s)")
    ap.add_argument("--full", action="store_true", help="check against the committed certificate's "
                    "sweeps (expected-findings.json) even where CI_STRIDE names a sampled CI check")
    ap.add_argument("--sampled", action="store_true", help="with --write: only the 1 in CI_STRIDE findings "
                    "of a CI-sampled implementation; its certificate stays as it is")
    ap.add_argument("impl", nargs="+", help="implementation names, or `all` (with --write)")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    a = ap.parse_args()

    table = targets(os.path.abspath(a.build))
    impls = list(table) if a.impl == ["all"] and a.write else a.impl
    unknown = [i for i in impls if i not in table]
    if unknown:
        sys.exit("certify.py: unknown implementation %r (known: %s)" % (unknown[0], " ".join(table)))
    if a.check and len(impls) != 1:
        sys.exit("certify.py: --check takes one implementation (one ctest each)")
    results = [one(a, table, impl) for impl in impls]
    return max(results) if len(results) == 1 else (1 if any(r == 1 for r in results) else 0)


if __name__ == "__main__":
    sys.exit(main())
