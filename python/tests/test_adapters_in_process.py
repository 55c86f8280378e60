"""Issue 31 item 4: every Python adapter of targets/thirdparty is one description (nc_pipe.Adapter)
served on the pipe and run in process. Its decode and convert judged in process come out as the
pipe adapter's: the same findings (certify.py's findings(): verdicts, counts, failing cases, policy
passes, sweeps) for each adapter whose library this venv holds, and, where the implementation has
CI's sampled findings, the committed ones that `certify.py --check` holds the pipe adapter to."""
import importlib
import json
import os
import sys

import pytest

# The adapters served by nc_pipe, with the module each needs (the test venv holds numpy and
# ml_dtypes; the others are checked where their library is installed).
ADAPTERS = {"numpy": "numpy", "ml_dtypes": "ml_dtypes", "pyarrow": "pyarrow", "gfloat": "gfloat", "gguf": "gguf",
            "jax": "jax", "pytorch": "torch", "openvino": "openvino", "tensorflow": "tensorflow"}
STRIDE = 257  # CI's sampled stride (implementations.json ci_stride)


def adapter_or_skip(name):
    try:
        importlib.import_module(ADAPTERS[name])
    except ImportError:
        pytest.skip("%s is not installed in this venv" % ADAPTERS[name])
    return importlib.import_module(name + "_adapter")


def certify_findings(target, out):
    import certify  # targets/thirdparty/certify.py
    import ninfer_conform
    cert = ninfer_conform.certify(target, out=out, sweep=certify.SWEEP_DOMAINS, stride=STRIDE, jobs=2,
                                  max_failures=certify.MAX_LISTED_FAILURES, timeout=120)
    return certify.findings(cert)


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_in_process_equals_the_pipe(name, tmp_path, source):
    import certify
    module = adapter_or_skip(name)
    inproc = certify_findings(module.adapter(), tmp_path / "in-process")
    pipe = certify_findings("pipe:%s %s" % (sys.executable, os.path.join(source, "targets", "thirdparty",
                                                                          name + "_adapter.py")), tmp_path / "pipe")
    assert inproc["suites"], "nothing was judged"
    changes = certify.diff(pipe, inproc)
    assert not changes, "\n".join(changes)


def test_in_process_numpy_has_the_committed_sampled_findings(tmp_path, source):
    import certify
    module = adapter_or_skip("numpy")
    with open(os.path.join(source, "docs", "certifications", "numpy", "expected-findings.stride-%d.json" % STRIDE)) as f:
        expected = json.load(f)
    changes = certify.diff(expected, certify_findings(module.adapter(), tmp_path))
    assert not changes, "\n".join(changes)


def test_an_adapter_answers_unsupported_in_process_for_what_it_does_not_serve():
    module = adapter_or_skip("numpy")
    import numpy as np
    a = module.adapter()
    assert a.convert("F32_TO_BF16_RNE", np.zeros(4, dtype=np.uint32)) is None
    assert a.decode("E4M3FN", np.zeros(4, dtype=np.uint32)) is None
    # binary32 1.0 and 65520 (past binary16's largest finite: RNE gives infinity), by hand.
    got = a.convert("F32_TO_F16_RNE", np.array([0x3F800000, 0x477FF000], dtype=np.uint32))
    assert [int(w) for w in got] == [0x3C00, 0x7C00]
