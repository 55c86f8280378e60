"""The pytest plugin, run as a user runs it: pytest --ninfer-conform=MODULE:TARGET."""
import subprocess
import sys

WRONG = '''
import numpy as np
class Truncating:
    name = "truncating"
    def convert(self, recipe, words):
        return (words >> 16).astype(np.uint16) if recipe == "F32_TO_BF16_RNE" else None
TARGET = Truncating()
'''

FLOAT16 = '''
import numpy as np
class Float16:
    """numpy.float16, the binary16 type ml_dtypes users cast to (ml_dtypes has no float16 of its own)."""
    name = "numpy-float16"
    def convert(self, recipe, words):
        return words.view(np.float32).astype(np.float16).view(np.uint16) if recipe == "F32_TO_F16_RNE" else None
TARGET = Float16()
'''


def pytest_run(tmp_path, module, code, *options):
    (tmp_path / (module + ".py")).write_text(code)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "--ninfer-conform=%s:TARGET" % module] + list(options),
                          cwd=tmp_path, capture_output=True, text=True, env=_env(tmp_path))


def _env(tmp_path):
    import os
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tmp_path)
    return env


def test_plugin_fails_a_wrong_target_with_its_profile_and_cases(tmp_path):
    run = pytest_run(tmp_path, "wrong_target", WRONG, "--ninfer-conform-require=convert.F32_TO_BF16_RNE")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "ninfer-conform[convert.F32_TO_BF16_RNE]" in run.stdout
    assert "departure profile:" in run.stdout and "first failing cases:" in run.stdout
    assert "convert.F32_TO_BF16_RNE:" in run.stdout


def test_plugin_passes_float16_under_its_policy_and_not_without(tmp_path):
    require = "--ninfer-conform-require=convert.F32_TO_F16_RNE*"
    run = pytest_run(tmp_path, "f16_target", FLOAT16, require, "--ninfer-conform-policies=nan-payload")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed" in run.stdout  # two suites and the requirements
    run = pytest_run(tmp_path, "f16_target", FLOAT16, require)
    assert run.returncode == 1 and "nan-payload" in run.stdout, run.stdout


def test_plugin_refuses_a_target_it_cannot_import(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "--ninfer-conform=no_such_module:X"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert run.returncode == 4 and "cannot import no_such_module" in run.stderr
