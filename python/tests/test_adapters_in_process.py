"""Issue 31 item 4: every Python adapter of targets/thirdparty is one description (nc_pipe.Adapter)
served on the pipe and run in process. What it serves judged in process (decode and convert, and
the token ops reconstruct and dequantize through the same handlers) comes out as the pipe
adapter's: the same findings (certify.py's findings(): verdicts, counts, failing cases, policy
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
import certify, ninfer_conform
cert = ninfer_conform.certify(target, out=out, sweep=certify.SWEEP_DOMAINS, stride=stride, jobs=2,
                              max_failures=certify.MAX_LISTED_FAILURES, timeout=120)
json.dump(certify.findings(cert), open(os.path.join(out, "findings.json"), "w"))
json.dump(sorted(target.handlers), open(os.path.join(out, "ops.json"), "w"))
"""


def certify_in_process(row, source, out):
    """The row's findings with its adapter run in process (a skip where its library is missing)."""
    import subprocess
    script = os.path.join(source, "targets", "thirdparty", row["adapter"]["pipe"])
    env = dict(os.environ, **row["adapter"].get("env", {}))
    run = subprocess.run([sys.executable, "-c", IN_PROCESS, script, json.dumps(row["adapter"].get("args", [])),
                          str(out), str(STRIDE)], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    if run.stdout.startswith("SKIP "):
        pytest.skip("%s: %s" % (row["name"], run.stdout[5:].strip()))
    with open(os.path.join(out, "findings.json")) as f:
        found = json.load(f)
    with open(os.path.join(out, "ops.json")) as f:
        found["served"] = json.load(f)  # the ops the adapter's handlers serve
    return found


def certify_findings(target, out, timeout=120):
    """timeout: the seconds a pipe adapter may take per request (the row's, as certify.py gives it, or 120:
    importing modelopt or Paddle on a loaded machine takes more than the default)."""
    import certify  # targets/thirdparty/certify.py
    import ninfer_conform
    cert = ninfer_conform.certify(target, out=out, sweep=certify.SWEEP_DOMAINS, stride=STRIDE, jobs=2,
                                  max_failures=certify.MAX_LISTED_FAILURES, timeout=timeout)
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
    pipe = certify_findings("pipe:" + spec, tmp_path / "pipe", max(120, certify.TIMEOUT[name]))
    assert inproc["suites"], "nothing was judged"
    # Every op the adapter serves was judged in process, the token ops (reconstruct, dequantize)
    # included: some case of that op's suites was judged (passed, failed, ...), not all untested.
    for op in inproc.pop("served"):
        counts = [c["counts"] for suite, c in inproc["suites"].items() if suite.split(".")[0] == op]
        judged = sum(v for c in counts for k, v in c.items() if k not in ("untested", "target-error"))
        print("%s %s: %d suites, %d cases judged" % (name, op, len(counts), judged))
        assert judged > 0, "%s: no case of %s was judged in process" % (name, op)
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


def test_the_token_ops_in_process_send_the_pipes_tokens_to_the_same_handler():
    """Adapter.reconstruct/dequantize write the request tokens the runner writes on the pipe (the
    corpus's widths: NVFP4 code 1 digit, scale 2, divisor 8; W8 and Q4 code 2, scale 4) and read the answer
    tokens back; `invalid` becomes a validity array, UnsupportedRequest a declined selector."""
    import numpy as np
    import nc_pipe
    seen = []

    def reconstruct(fmt, tokens):
        seen.append((fmt, tokens))
        if fmt == "W8G32_F16S":
            raise nc_pipe.UnsupportedRequest
        return ["3f800000", "invalid"][:len(tokens)]

    def dequantize(fmt, tokens):
        seen.append((fmt, tokens))
        return ["00000000,bf800000"]

    a = nc_pipe.Adapter("tokens", "1", {"reconstruct": (("NVFP4", "W8G32_F16S", "Q4G64_F16S"), reconstruct),
                                        "dequantize": (("W8G32_F16S",), dequantize)})
    u32 = lambda *w: np.array(w, dtype=np.uint32)  # noqa: E731
    bits, valid = a.reconstruct("NVFP4", u32(0x6, 0xF), u32(0x0C, 0x38), u32(0x41A80000, 0x3F800000))
    assert seen[-1] == ("NVFP4", ["6:0c:41a80000", "f:38:3f800000"])
    assert bits.tolist()[0] == 0x3F800000 and valid.tolist() == [1, 0]
    assert a.reconstruct("W8G32_F16S", u32(0x7F), u32(0x3C00), None) is None  # unsupported, as on the pipe
    assert seen[-1] == ("W8G32_F16S", ["7f:3c00"])
    assert a.reconstruct("Q4G64_F16S", u32(0xC), u32(0x3C00), None).tolist() == [0x3F800000]
    assert seen[-1] == ("Q4G64_F16S", ["0c:3c00"])  # vectors/reconstruct.Q4G64_F16S: `0c 3c00`
    assert a.reconstruct("Q5G64_F16S", u32(1), u32(0x3C00), None) is None and len(seen) == 3  # not served
    got = a.dequantize("W8G32_F16S", (1, 2), u32(0x00, 0xFF), u32(0x3C00), None)
    assert seen[-1] == ("W8G32_F16S", ["1x2", "00,ff", "3c00", "-"])
    assert got.dtype == np.uint32 and got.tolist() == [0, 0xBF800000]


def test_token_ops_and_first_calls_run_one_at_a_time_in_process():
    """A pipe adapter process answers one request at a time; in process the runner's two threads
    call the Adapter at once. Its token handlers and the first call of each decode/convert selector
    (where adapters import their library) must still never overlap: torchao's did, and stopped in
    import deadlocks or answered wrong words. The handler here records any overlap (a sleep holds
    each call open long enough for the other thread to come in)."""
    import threading
    import time
    import nc_pipe
    import ninfer_conform
    inside, overlaps, guard = [0], [], threading.Lock()

    def one_at_a_time(answer):
        def handler(selector, arg):
            with guard:
                inside[0] += 1
                if inside[0] > 1:
                    overlaps.append(selector)
            time.sleep(0.0005)
            with guard:
                inside[0] -= 1
            return answer(selector, arg)
        return handler

    # Every reconstruct suite (the runner replays suites side by side on its threads); the words
    # answered do not matter here, only that each call came alone and was judged, not an error.
    formats = ("Q4G64_F16S", "Q5G64_F16S", "Q6G64_F16S", "W8G32_F16S", "NVFP4", "FP8_E4M3FN_ROW_BF16S")
    a = nc_pipe.Adapter("serial", "1", {"reconstruct": (formats, one_at_a_time(lambda fmt, t: ["00000000"] * len(t)))})
    report = ninfer_conform.replay(a, jobs=2)
    assert overlaps == [], "%d token calls overlapped (%s)" % (len(overlaps), ", ".join(sorted(set(overlaps))))
    judged = [s for s in report["suites"] if s["op"].startswith("reconstruct")]
    assert len(judged) >= len(formats) and all(s["counts"]["target-error"] == 0 for s in judged)


def test_certify_py_checks_a_python_row_in_process(tmp_path, source):
    """certify.py --check --in-process: ml_dtypes' row certified through the package in this
    interpreter has the findings its pipe adapter wrote (--write, through the pipe: certify.py's
    own target spec, the project venv); a changed finding fails it; --write and a plugin row are
    refused."""
    import subprocess
    import ninfer_conform
    here = os.path.join(source, "targets", "thirdparty")
    venv_python = os.path.join(source, ".venv", "bin", "python")
    if subprocess.run([venv_python, "-c", "import ml_dtypes"], capture_output=True).returncode:
        pytest.skip("no project venv with ml_dtypes (scripts/install-thirdparty) for the pipe side")
    corpus, certs = str(tmp_path / "corpus"), str(tmp_path / "certs")
    subprocess.run([sys.executable, os.path.join(here, "make_fixture_corpus.py"), corpus], check=True)

    def certify(*args):
        run = subprocess.run([sys.executable, os.path.join(here, "certify.py"), "--cli", ninfer_conform.EXECUTABLE,
                              "--build", str(tmp_path), "--corpus", corpus, "--certs", certs, "--stride", "65537",
                              "--jobs", "2", *args], capture_output=True, text=True)
        return run.returncode, run.stdout + run.stderr

    rc, out = certify("ml_dtypes", "--write")
    assert rc == 0, out
    with open(os.path.join(certs, "ml_dtypes", "certificate.json")) as f:
        assert json.load(f)["identity"]["target"]["kind"] == "pipe"
    rc, out = certify("ml_dtypes", "--check", "--in-process", sys.executable)
    assert rc == 0 and "certified python:nc_pipe.Adapter in process" in out and "findings unchanged" in out, out

    # A finding the in-process run does not reproduce: F32_TO_BF16_RNE's sweep judged one input more.
    expected_file = os.path.join(certs, "ml_dtypes", "expected-findings.json")
    with open(expected_file) as f:
        expected = json.load(f)
    expected["sweeps"]["convert.F32_TO_BF16_RNE"]["covered"] += 1
    with open(expected_file, "w") as f:
        json.dump(expected, f)
    rc, out = certify("ml_dtypes", "--check", "--in-process", sys.executable)
    assert rc == 1 and "CHANGED /sweeps/convert.F32_TO_BF16_RNE/covered" in out, out

    rc, out = certify("ml_dtypes", "--write", "--in-process", sys.executable)
    assert rc != 0 and "checks findings only" in out, out
    rc, out = certify("eigen", "--check", "--in-process", sys.executable)
    assert rc != 0 and "eigen is a plugin" in out, out
