"""Tests of the installed ninfer_conform package (scripts/python-test runs them against a wheel
installed in a fresh venv, not the source tree). SOURCE is the repository, for the pipe adapters
and certify.py whose results the in-process ones are compared with."""
import os
import sys

import pytest

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture(scope="session")
def source():
    return SOURCE


def pytest_configure(config):
    import ninfer_conform
    # The package under test must be the installed one, not python/ of the source tree.
    assert not os.path.abspath(ninfer_conform.__file__).startswith(os.path.join(SOURCE, "python") + os.sep), \
        "tests must run against the installed package"
    sys.path.insert(0, os.path.join(SOURCE, "targets", "thirdparty"))  # certify.py's findings()
