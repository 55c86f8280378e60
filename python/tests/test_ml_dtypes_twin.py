"""Issue 31 item 4 for ml_dtypes: the pipe adapter's description run in process certifies with the
committed certificate's findings (docs/certifications/ml_dtypes/expected-findings.json, which
certify.py --check holds the pipe adapter to): the whole corpus, every convert and decode domain
swept whole."""
import json
import os

import pytest

import ninfer_conform


# 651 s on the loaded 2-core machine (whole sweeps): not in CI's default run.
@pytest.mark.skipif(not os.environ.get("NC_PYTHON_LONG"), reason="whole sweeps (minutes): set NC_PYTHON_LONG=1")
def test_in_process_ml_dtypes_has_the_committed_findings(tmp_path, source):
    import certify  # targets/thirdparty/certify.py
    import ml_dtypes_adapter
    cert = ninfer_conform.certify(ml_dtypes_adapter.adapter(), out=tmp_path, sweep=certify.SWEEP_DOMAINS, stride=1,
                                  jobs=2, max_failures=certify.MAX_LISTED_FAILURES)
    with open(os.path.join(source, "docs", "certifications", "ml_dtypes", "expected-findings.json")) as f:
        expected = json.load(f)
    changes = certify.diff(expected, certify.findings(cert))
    assert not changes, "\n".join(changes)
