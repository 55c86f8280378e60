#!/usr/bin/env python3
"""Certifies one third-party implementation and records or checks its findings.

    certify.py --cli BUILD/cli/ninfer-conform --build BUILD IMPL --write   # refresh docs/certifications/IMPL/
    certify.py --cli BUILD/cli/ninfer-conform --build BUILD IMPL --check   # CI: fail if findings changed

Each certification replays the whole corpus and sweeps every convert.* and decode.* domain the
implementation provides (`certify --sweep convert,decode`): every binary32 input, or 1 in STRIDE
of them where the implementation is too slow for CI (SWEEP_STRIDE; the certificate states the
coverage). The findings are what must not drift silently: the target's name and version, the
verdict per capability, per suite its verdict counts, policies used, target problem and the sorted
set of failing case IDs, and per sweep its coverage, mismatch classes with counts, inputs passing
under a policy and failed batches. Timestamps and the order of failures are not findings. Standard
library only.
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
# 1 input in N of each 2^32-input conversion domain, for the implementations too slow to sweep
# whole in CI (libgcc's software _Float16 path, about 2e7 conversions/s; gfloat, pure numpy).
# Every other implementation is swept over every input.
SWEEP_STRIDE = {"gcc-float16-libgcc": 16, "gfloat": 64}
# Hardware adapters need the instruction; a CPU without it makes the certification a skip, not a
# changed finding (/proc/cpuinfo flag names).
NEEDS_CPU_FLAG = {"gcc-float16-f16c": "f16c", "x86-avx512bf16-vcvtneps2bf16": "avx512_bf16"}


def targets(build):
    """IMPL -> target spec for `ninfer-conform certify --target`. The Python adapters run under the
    project venv (scripts/install-thirdparty)."""
    plugin = lambda name: "plugin:" + os.path.join(build, "runners", "thirdparty", name + ".so")
    py = os.path.join(SOURCE, ".venv", "bin", "python")
    pipe = lambda script: "pipe:%s %s" % (py, os.path.join(SOURCE, "runners", "thirdparty", script))
    return {
        "cuda-toolkit-host": plugin("nc_tp_cuda_host"),
        "eigen": plugin("nc_tp_eigen"),
        "fp16-lib": plugin("nc_tp_fp16"),
        "gcc-float16-libgcc": plugin("nc_tp_gcc_float16_soft"),
        "gcc-float16-f16c": plugin("nc_tp_gcc_float16_f16c"),
        "x86-avx512bf16-vcvtneps2bf16": plugin("nc_tp_avx512_bf16"),
        "ml_dtypes": pipe("ml_dtypes_adapter.py"),
        "gfloat": pipe("gfloat_adapter.py"),
    }


def sweep_findings(s):
    if "failure" in s:
        return {"failure": s["failure"]}
    return {k: s[k] for k in ("provided", "stride", "covered", "errored", "classes", "accepted")} | {
        "target_error": bool(s["target_error"])}


def findings(cert):
    return {
        "target": cert["target"],
        "capabilities": {c["capability"]: c["verdict"] for c in cert["capabilities"]},
        "suites": {
            s["suite"]: {
                "counts": {k: v for k, v in s.items() if isinstance(v, int)},
                "policies": sorted(s.get("policies", [])),
                "target_problem": s.get("target_problem", ""),
                "failing_ids": sorted(f["id"] for f in s["failures"]),
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
    ap.add_argument("impl")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    a = ap.parse_args()

    table = targets(os.path.abspath(a.build))
    if a.impl not in table:
        sys.exit("certify.py: unknown implementation %r (known: %s)" % (a.impl, " ".join(table)))
    cert_dir = os.path.join(a.certs, a.impl)
    expected_file = os.path.join(cert_dir, "expected-findings.json")
    if not os.path.exists(os.path.join(a.corpus, "MANIFEST.json")):
        print("SKIPPED: no corpus at %s (vectors/MANIFEST.json not committed yet)" % a.corpus)
        return SKIP
    if a.check and not os.path.exists(expected_file):
        print("SKIPPED: %s not certified yet (no %s); run certify.py --write" % (a.impl, expected_file))
        return SKIP
    if table[a.impl].startswith("plugin:") and not os.path.exists(table[a.impl][7:]):
        print("SKIPPED: %s was not built on this machine (%s)" % (a.impl, table[a.impl][7:]))
        return SKIP
    if table[a.impl].startswith("pipe:") and not os.access(table[a.impl].split()[0][5:], os.X_OK):
        print("SKIPPED: no .venv; run scripts/install-thirdparty")
        return SKIP
    flag = NEEDS_CPU_FLAG.get(a.impl)
    if flag and flag not in cpu_flags():
        print("SKIPPED: %s needs the CPU feature %s, which this machine lacks" % (a.impl, flag))
        return SKIP

    with tempfile.TemporaryDirectory() as out:
        cmd = [a.cli, "certify", "--target", table[a.impl], "--out", out, "--corpus", a.corpus,
               "--sweep", SWEEP_DOMAINS, "--stride", str(a.stride or SWEEP_STRIDE.get(a.impl, 1)), "--jobs", str(a.jobs)]
        if os.path.realpath(a.corpus) != os.path.realpath(os.path.join(SOURCE, "vectors")):
            cmd.append("--allow-modified-corpus")  # a --corpus of its own (the tests' fixture) is not the official one
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode not in (0, 1):  # 0 conformant, 1 not: both are certificates
            sys.stderr.write(run.stdout[-2000:] + run.stderr[-2000:])
            sys.exit("certify.py: %s exited %d" % (" ".join(cmd), run.returncode))
        with open(os.path.join(out, "certificate.json")) as f:
            cert = json.load(f)
        new = findings(cert)
        if a.write:
            os.makedirs(cert_dir, exist_ok=True)
            for name in ("certificate.md", "certificate.json"):
                with open(os.path.join(out, name)) as src, open(os.path.join(cert_dir, name + ".tmp"), "w") as dst:
                    dst.write(src.read())
                os.replace(os.path.join(cert_dir, name + ".tmp"), os.path.join(cert_dir, name))
            with open(expected_file + ".tmp", "w") as f:
                json.dump(new, f, indent=1, sort_keys=True)
                f.write("\n")
            os.replace(expected_file + ".tmp", expected_file)
            print("%s: %s, findings written to %s" % (a.impl, "conformant" if cert["conformant"] else "not conformant", cert_dir))
            return 0
    with open(expected_file) as f:
        old = json.load(f)
    changes = diff(old, new)
    for c in changes:
        print("CHANGED", c)
    print("%s: findings %s (%d suites)" % (a.impl, "changed" if changes else "unchanged", len(new["suites"])))
    return 1 if changes else 0


if __name__ == "__main__":
    sys.exit(main())
