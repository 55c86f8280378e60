"""Issue 31 item 4: every Python adapter of targets/thirdparty is one description (nc_pipe.Adapter)
served on the pipe and run in process. Its decode and convert judged in process come out as the
pipe adapter's: the same findings (certify.py's findings(): verdicts, counts, failing cases, policy
passes, sweeps) for each adapter whose library this venv holds, and, where the implementation has
CI's sampled findings, the committed ones that `certify.py --check` holds the pipe adapter to."""
import json
import os
import sys

import pytest


def rows():
    """The rows of targets/thirdparty/implementations.json served by a Python pipe adapter."""
    source = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    with open(os.path.join(source, "targets", "thirdparty", "implementations.json")) as f:
        table = json.load(f)["implementations"]
    return {r["name"]: r for r in table if r["adapter"].get("pipe", "").endswith("_adapter.py")}


ROWS = rows()
STRIDE = 257  # CI's sampled stride (implementations.json ci_stride)

# Run in a process of its own, as the pipe adapter runs: the row's arguments and environment are
# read when the adapter module is imported (pytorch's layout and CPU capability, OpenVINO's shapes).
IN_PROCESS = """
import json, sys
script, args, out, stride = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], int(sys.argv[4])
sys.argv = [script] + args
import importlib, os, importlib.metadata
sys.path.insert(0, os.path.dirname(script))
module = importlib.import_module(os.path.basename(script)[:-3])
try:
    target = module.adapter()
except (ImportError, importlib.metadata.PackageNotFoundError) as e:
    print("SKIP its library is not installed in this venv (%s)" % e); sys.exit(0)
token_ops = sorted(set(target.handlers) - {"decode", "convert"})
if token_ops:
    print("SKIP it also serves %s, which run on the pipe only" % ", ".join(token_ops)); sys.exit(0)
import certify, ninfer_conform
cert = ninfer_conform.certify(target, out=out, sweep=certify.SWEEP_DOMAINS, stride=stride, jobs=2,
                              max_failures=certify.MAX_LISTED_FAILURES, timeout=120)
json.dump(certify.findings(cert), open(os.path.join(out, "findings.json"), "w"))
"""


def certify_in_process(row, source, out):
    """The row's findings with its adapter run in process, or None with a skip reason printed."""
    import subprocess
    script = os.path.join(source, "targets", "thirdparty", row["adapter"]["pipe"])
    env = dict(os.environ, **row["adapter"].get("env", {}))
    run = subprocess.run([sys.executable, "-c", IN_PROCESS, script, json.dumps(row["adapter"].get("args", [])),
                          str(out), str(STRIDE)], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    if run.stdout.startswith("SKIP "):
        pytest.skip("%s: %s" % (row["name"], run.stdout[5:].strip()))
    with open(os.path.join(out, "findings.json")) as f:
        return json.load(f)


def certify_findings(target, out):
    import certify  # targets/thirdparty/certify.py
    import ninfer_conform
    cert = ninfer_conform.certify(target, out=out, sweep=certify.SWEEP_DOMAINS, stride=STRIDE, jobs=2,
                                  max_failures=certify.MAX_LISTED_FAILURES, timeout=120)
    return certify.findings(cert)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_in_process_equals_the_pipe(name, tmp_path, source):
    import certify
    row = ROWS[name]
    os.mkdir(tmp_path / "in-process")
    inproc = certify_in_process(row, source, tmp_path / "in-process")
    spec = " ".join(["%s=%s" % kv for kv in row["adapter"].get("env", {}).items()] +
                    [sys.executable, os.path.join(source, "targets", "thirdparty", row["adapter"]["pipe"])] +
                    row["adapter"].get("args", []))
    pipe = certify_findings("pipe:" + spec, tmp_path / "pipe")
    assert inproc["suites"], "nothing was judged"
    changes = certify.diff(pipe, inproc)
    assert not changes, "\n".join(changes)


def test_in_process_numpy_has_the_committed_sampled_findings(tmp_path, source):
    import certify
    import numpy_adapter
    with open(os.path.join(source, "docs", "certifications", "numpy", "expected-findings.stride-%d.json" % STRIDE)) as f:
        expected = json.load(f)
    changes = certify.diff(expected, certify_findings(numpy_adapter.adapter(), tmp_path))
    assert not changes, "\n".join(changes)


def test_an_adapter_answers_unsupported_in_process_for_what_it_does_not_serve():
    import numpy as np
    import numpy_adapter
    a = numpy_adapter.adapter()
    assert a.convert("F32_TO_BF16_RNE", np.zeros(4, dtype=np.uint32)) is None
    assert a.decode("E4M3FN", np.zeros(4, dtype=np.uint32)) is None
    # binary32 1.0 and 65520 (past binary16's largest finite: RNE gives infinity), by hand.
    got = a.convert("F32_TO_F16_RNE", np.array([0x3F800000, 0x477FF000], dtype=np.uint32))
    assert [int(w) for w in got] == [0x3C00, 0x7C00]
