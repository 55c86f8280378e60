#!/usr/bin/env python3
"""Certifies one third-party implementation and records or checks its findings.

    certify.py --cli BUILD/cli/ninfer-conform --build BUILD IMPL... --write   # refresh docs/certifications/IMPL/
    certify.py --cli BUILD/cli/ninfer-conform --build BUILD IMPL --check      # CI: fail if findings changed
    certify.py --cli BUILD/cli/ninfer-conform --build BUILD IMPL --check --full  # the certificate's sweeps

Each certification replays the whole corpus and sweeps every convert.* and decode.* domain the
implementation provides (`certify --sweep convert,decode`): every binary32 input, or 1 in
sweep_stride of them where the implementation is too slow for that (the certificate states the
coverage). Everything per implementation (its adapter, strides, timeout, the Python module or CPU
flags it needs) is its row of implementations.json (implementations.py). The findings are what
must not drift silently: the target's name and version, the
verdict per capability, per suite its verdict counts, policies used, target problem and the sorted
set of failing case IDs (beyond MAX_LISTED_FAILURES: their count and digest, and the first ones),
and per sweep its coverage, mismatch classes with counts, inputs passing
under a policy and failed batches. Timestamps and the order of failures are not findings. Standard
library only.

The ML frameworks are swept whole for their committed certificate (expected-findings.json, checked
by `--check --full`, ctest label `long`: minutes per domain) and 1 in ci_stride in CI:
`--write` records both, the sampled findings in expected-findings.stride-S.json, which a plain
`--check` compares against.
`--write all` re-certifies every implementation. `--write --sampled IMPL` writes only the sampled
findings of a ci_stride implementation (expected-findings.stride-S.json, minutes less than its
exhaustive sweeps) and leaves its certificate and expected-findings.json as they are: CI's plain
`--check` then passes, while `--check --full` (label `long`) still compares against the old
certificate until it is re-certified whole.

`--write` replaces docs/certifications/IMPL/ as one unit: every file `ninfer-conform certify`
wrote (certificate.json, .md, .html and .sha256, which `ninfer-conform verify` checks) and the
findings made from them, staged beside the folder and swapped in.

`--sweep-reports DIR` certifies on sweep reports made beforehand instead of sweeping: DIR/IMPL.json,
written by

    ninfer-conform sweep convert decode --target SPEC --jobs N --timeout T --json DIR/IMPL.json

with SPEC exactly this script's target string for IMPL (`implementations.py`; certify refuses a
report of another target or version, or a shard) and T its timeout. The sweeps do not depend on
the corpus, so after a corpus change a re-certification costs a replay: minutes, where the
frameworks' whole sweeps take about 75. An implementation without a report is swept live, and a
report that does not hold every convert.* and decode.* domain at the certification's stride is
refused, saying how to write it. The sampled run of a ci_stride implementation always sweeps live
(1 in S is quick). The findings are the same either way (checked on fp16-lib: see
docs/certifications/README.md).

`--check --in-process PYTHON IMPL` certifies a Python adapter's row in process instead: the adapter
module (targets/thirdparty/SCRIPT, imported with the row's arguments and environment) is handed to
the ninfer_conform package inside PYTHON, an interpreter that imports both the package and the
adapter's library, and certified there with the same options; its findings are checked against
the same committed ones. Plugin rows are refused, as is --write: a committed certificate is made
through the pipe.
"""
import argparse
import ctypes
import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import implementations  # noqa: E402 (beside this file)

SOURCE = implementations.SOURCE
SKIP = 77  # ctest SKIP_RETURN_CODE
SWEEP_DOMAINS = "convert,decode"
# Everything per implementation is its row of implementations.json (implementations.py names the
# members): the adapter, the certificate's sweep stride (sweep_stride: 1 input in S of each 2^32
# domain for the implementations too slow to sweep whole, libgcc's software _Float16 path and
# gfloat; every other one is swept over every input for its certificate), CI's stride (ci_stride:
# the ML frameworks, NumPy, gguf-py and Highway, whose certificate sweeps cost CI minutes each; they
# also get a --check --full ctest, label `long`), the seconds an adapter may take per request
# (timeout: importing torch, jax or openvino on a loaded machine takes more than the runner's
# default 10 s, and the first batch pays for it), the Python module and CPU flags it needs (a venv
# or CPU without them makes the certification a skip, not a changed finding).
ROWS = implementations.by_name()
SWEEP_STRIDE = {n: r["sweep_stride"] for n, r in ROWS.items() if "sweep_stride" in r}
CI_STRIDE = {n: r["ci_stride"] for n, r in ROWS.items() if "ci_stride" in r}
TIMEOUT = {n: r.get("timeout", implementations.DEFAULT_TIMEOUT) for n, r in ROWS.items()}
NEEDS_MODULE = {n: r["module"] for n, r in ROWS.items() if "module" in r}
NEEDS_CPU_FLAGS = {n: tuple(r["cpu_flags"]) for n, r in ROWS.items() if "cpu_flags" in r}
# Failures listed per suite in each certificate.json (`certify --max-failures`): a library that
# truncates fails a hundred thousand corpus cases, and the committed record stays small. Beyond the
# list, a suite's failure count and the SHA-256 of all its failing IDs still pin the set.
MAX_LISTED_FAILURES = 1000


def targets(build):
    """IMPL -> target spec for `ninfer-conform certify --target`, in the rows' order."""
    return {n: implementations.target_spec(r, build) for n, r in ROWS.items()}


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


def sweep_report(a, impl, stride):
    """--sweep-reports DIR: the whole-domain report DIR/IMPL.json to certify on instead of sweeping
    live, where there is one and this certification sweeps at the stride it was swept at; None to
    sweep live. A report of the wrong domains or stride is refused, naming what to run."""
    if not a.sweep_reports:
        return None
    path = os.path.join(a.sweep_reports, impl + ".json")
    if not os.path.exists(path):
        print("%s: no %s; sweeping live" % (impl, path))
        return None
    with open(path) as f:
        reports = json.load(f)
    reports = reports if isinstance(reports, list) else [reports]
    # What `certify --sweep convert,decode --stride S` would sweep: every convert.* and decode.*
    # domain, 1 in S of the binary32 ones (over 2^24 inputs), the small ones whole.
    listed = subprocess.run([a.cli, "sweep", "--list"], capture_output=True, text=True, check=True).stdout.split()
    want = {d for d in listed if d.split(".")[0] in SWEEP_DOMAINS.split(",")}
    got = {r.get("domain"): r for r in reports}
    wrong = sorted(want - set(got)) + sorted(set(got) - want)
    wrong += ["%s at stride %s, not %d" % (d, r.get("stride"), stride if r.get("domain_size", 0) > 1 << 24 else 1)
              for d, r in sorted(got.items()) if d in want and r.get("stride") != (stride if r.get("domain_size", 0) > 1 << 24 else 1)]
    if wrong:
        sys.exit("certify.py: %s does not hold the sweeps this certification makes (%s): write it with\n"
                 "  %s sweep convert decode --target '%s' --jobs N --timeout %d%s --json %s" % (
                     path, "; ".join(wrong), a.cli, a.table[impl], TIMEOUT[impl],
                     "" if stride == 1 else " --stride %d (for the convert domains; the decode domains\n  unstrided, "
                     "joined into one JSON array)" % stride, path))
    return path


# --in-process: the row's adapter module run inside the interpreter given, with the row's arguments
# and environment (read when the module is imported, as the pipe adapter reads them), certified
# through the Python package (ninfer_conform.certify) with the options the CLI gets below.
IN_PROCESS = """
import importlib, importlib.metadata, json, os, sys
script, args, out, opts = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
sys.argv = [script] + args
sys.path.insert(0, os.path.dirname(script))
try:
    import ninfer_conform
    target = importlib.import_module(os.path.basename(script)[:-3]).adapter()
except (ImportError, importlib.metadata.PackageNotFoundError) as e:
    sys.exit("certify.py --in-process: %s cannot run in %s: %s" % (os.path.basename(script), sys.executable, e))
cert = ninfer_conform.certify(target, out=out, quiet=True, **opts)
print("certified %s in process (%s)" % (ninfer_conform.target_spec(target), cert.verdict))
sys.exit(cert.exit_code)
"""


def certify_in_process(a, impl, stride, out):
    """certify() of a Python pipe adapter's row, the adapter run in the interpreter a.in_process."""
    adapter = ROWS[impl]["adapter"]
    opts = {"sweep": SWEEP_DOMAINS, "stride": stride, "jobs": a.jobs, "timeout": TIMEOUT[impl],
            "max_failures": a.max_failures, "corpus": a.corpus,
            "allow_modified_corpus": os.path.realpath(a.corpus) != os.path.realpath(os.path.join(SOURCE, "vectors"))}
    cmd = [a.in_process, "-c", IN_PROCESS, os.path.join(implementations.HERE, adapter["pipe"]),
           json.dumps(adapter.get("args", [])), out, json.dumps(opts)]
    run = subprocess.run(cmd, env=dict(os.environ, **adapter.get("env", {})), capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.stderr.write(run.stdout[-2000:] + run.stderr[-2000:])
        sys.exit("certify.py: %s in process exited %d" % (impl, run.returncode))
    print(run.stdout.strip())
    with open(os.path.join(out, "certificate.json")) as f:
        return json.load(f)


def certify(a, table, impl, stride, out, live=False):
    """Runs `ninfer-conform certify` on impl, writing into the folder out; returns the certificate.
    live: sweep here whatever --sweep-reports holds (the 1 in ci_stride run)."""
    if a.in_process:
        return certify_in_process(a, impl, stride, out)
    report = None if live else sweep_report(a, impl, stride)
    sweeps = ["--sweep-report", report] if report else ["--sweep", SWEEP_DOMAINS, "--stride", str(stride)]
    cmd = [a.cli, "certify", "--target", table[impl], "--out", out, "--corpus", a.corpus, *sweeps,
           "--jobs", str(a.jobs), "--timeout", str(TIMEOUT[impl]), "--max-failures", str(a.max_failures)]
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
    python = a.in_process or next((t for t in table[impl][5:].split() if "=" not in t), "")
    if table[impl].startswith("pipe:") and not os.access(python, os.X_OK):
        return "no %s%s; run scripts/install-thirdparty" % ("interpreter " if a.in_process else "", python)
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
    findings the plain --check compares against. The folder docs/certifications/IMPL is replaced
    as one unit: every file `ninfer-conform certify` wrote (certificate.json, .md, .html, .sha256)
    with the findings made from it, staged beside the folder and swapped in, so a failure or a
    kill leaves the old certificate whole and never a mix of two."""
    cert_dir = os.path.join(a.certs, impl)
    if a.sampled:
        if impl not in CI_STRIDE:
            sys.exit("certify.py: --sampled is for the implementations CI samples (%s), not %s" %
                     (" ".join(CI_STRIDE), impl))
        sampled = certify(a, table, impl, CI_STRIDE[impl], out, live=True)
        write_json(os.path.join(cert_dir, "expected-findings.stride-%d.json" % CI_STRIDE[impl]), findings(sampled))
        print("%s: sampled findings (1 in %d) written to %s" % (impl, CI_STRIDE[impl], cert_dir))
        return 0
    made = os.path.join(out, "certificate")
    cert = certify(a, table, impl, full_stride, made)
    staged = {"expected-findings.json": findings(cert)}
    if impl in CI_STRIDE and not a.stride:
        sampled = certify(a, table, impl, CI_STRIDE[impl], os.path.join(out, "sampled"), live=True)
        staged["expected-findings.stride-%d.json" % CI_STRIDE[impl]] = findings(sampled)
    replace_folder(cert_dir, made, staged)
    print("%s: %s, findings written to %s" % (impl, cert.get("overall", cert["conformant"]), cert_dir))
    return 0


def replace_folder(cert_dir, made, findings_files):
    """cert_dir becomes: every file of the certificate folder made, the findings files, and the
    files of cert_dir that neither replaces (an expected-findings.stride-S.json not re-made)."""
    os.makedirs(os.path.dirname(os.path.abspath(cert_dir)), exist_ok=True)
    staging = tempfile.mkdtemp(prefix="." + os.path.basename(cert_dir) + ".staging-", dir=os.path.dirname(os.path.abspath(cert_dir)))
    try:
        made_names = sorted(os.listdir(made))
        if "certificate.json" not in made_names or "certificate.sha256" not in made_names:
            sys.exit("certify.py: %s lacks certificate.json or certificate.sha256: %s" % (made, " ".join(made_names)))
        for name in made_names:
            shutil.copyfile(os.path.join(made, name), os.path.join(staging, name))
        for name, value in findings_files.items():
            write_json(os.path.join(staging, name), value)
        if os.path.isdir(cert_dir):
            for name in os.listdir(cert_dir):
                if name not in made_names and name not in findings_files and os.path.isfile(os.path.join(cert_dir, name)):
                    shutil.copyfile(os.path.join(cert_dir, name), os.path.join(staging, name))
        os.chmod(staging, 0o755)
        if not os.path.isdir(cert_dir):
            os.rename(staging, cert_dir)
            return
        if not exchange(staging, cert_dir):  # no renameat2: two renames, the old folder kept until then
            old = staging + ".old"
            os.rename(cert_dir, old)
            os.rename(staging, cert_dir)
            staging = old
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # after the swap: the old folder


def exchange(a, b):
    """Swaps two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL):
        return False
    raise OSError(err, "cannot swap %s and %s: %s" % (a, b, os.strerror(err)))


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
                    "implementation (default: its sweep_stride, else every input); findings record it")
    ap.add_argument("--max-failures", type=int, default=MAX_LISTED_FAILURES,
                    help="failures listed per suite in certificate.json (default %(default)s)")
    ap.add_argument("--full", action="store_true", help="check against the committed certificate's "
                    "sweeps (expected-findings.json) even where its ci_stride names a sampled CI check")
    ap.add_argument("--sampled", action="store_true", help="with --write: only the 1 in ci_stride findings "
                    "of a CI-sampled implementation; its certificate stays as it is")
    ap.add_argument("--sweep-reports", metavar="DIR", help="certify on the whole-domain sweep reports DIR/IMPL.json "
                    "(ninfer-conform sweep convert decode --target SPEC --json DIR/IMPL.json) instead of sweeping; an "
                    "implementation without one is swept live")
    ap.add_argument("--in-process", metavar="PYTHON", help="with --check: run the row's Python adapter inside "
                    "PYTHON (an interpreter that imports the ninfer_conform package and the adapter's library) and "
                    "certify it through the package, not through the pipe; the findings must equal the committed "
                    "ones all the same")
    ap.add_argument("impl", nargs="+", help="implementation names, or `all` (with --write)")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    a = ap.parse_args()

    table = targets(os.path.abspath(a.build))
    a.table = table
    impls = list(table) if a.impl == ["all"] and a.write else a.impl
    unknown = [i for i in impls if i not in table]
    if unknown:
        sys.exit("certify.py: unknown implementation %r (known: %s)" % (unknown[0], " ".join(table)))
    if a.in_process and (a.write or a.sweep_reports):
        sys.exit("certify.py: --in-process checks findings only (with --check, sweeping live): a committed "
                 "certificate is made through the pipe, whose command its identity names")
    not_python = [i for i in impls if a.in_process and not ROWS[i]["adapter"].get("pipe", "").endswith(".py")]
    if not_python:
        sys.exit("certify.py: --in-process is for the rows of a Python pipe adapter; %s is %s" % (
            not_python[0], "a plugin" if "plugin" in ROWS[not_python[0]]["adapter"] else "not a Python script"))
    if a.check and len(impls) != 1:
        sys.exit("certify.py: --check takes one implementation (one ctest each)")
    results = [one(a, table, impl) for impl in impls]
    return max(results) if len(results) == 1 else (1 if any(r == 1 for r in results) else 0)


if __name__ == "__main__":
    sys.exit(main())
