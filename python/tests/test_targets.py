"""In-process Python targets: arrays in and out, unsupported selectors, exceptions, threads."""
import json
import threading

import numpy as np
import pytest

import ninfer_conform


class Truncating:
    """float32 -> bfloat16 by dropping the low half: the classic wrong cast."""
    name, version = "truncating-bf16", "1"

    def convert(self, recipe, words):
        if recipe != "F32_TO_BF16_RNE":
            return None
        return (words >> 16).astype(np.uint16)


class RoundNearestEven:
    """float32 -> bfloat16, round to nearest even in integers, NaNs quieted keeping their payload's top bits."""
    name, version = "rne-bf16", "1"

    def __init__(self):
        self.threads, self.flags, self.sizes = set(), [], []

    def convert(self, recipe, words):
        self.threads.add(threading.get_ident())
        self.flags.append((words.flags.writeable, words.flags.owndata, words.dtype))
        self.sizes.append(len(words))
        if recipe != "F32_TO_BF16_RNE":
            raise ninfer_conform.Unsupported(recipe)
        w = words.astype(np.uint64)
        rounded = (w + 0x7FFF + ((w >> 16) & 1)) >> 16
        nan = (w & 0x7FFFFFFF) > 0x7F800000
        return np.where(nan, (w >> 16) | 0x40, rounded).astype(np.uint16)


def test_a_correct_target_is_conformant_and_gets_read_only_views():
    t = RoundNearestEven()
    report = ninfer_conform.replay(t, suite="convert.F32_TO_BF16_RNE,convert.F32_TO_BF16_RNE.ties", jobs=2)
    assert report.conformant, report.verdict
    assert report["target"] == {"name": "rne-bf16", "version": "1"}
    assert report.suite("convert.F32_TO_BF16_RNE.ties")["counts"]["pass"] == 195840
    # the runner's buffer, not a copy: read-only, owned by nobody in Python
    assert all(f == (False, False, np.dtype(np.uint32)) for f in t.flags)
    assert max(t.sizes) > 1000  # batches, not a call per case


def test_unsupported_selectors_are_untested_not_passed():
    t = RoundNearestEven()
    report = ninfer_conform.replay(t, suite="convert.F32_TO_F16_RNE")
    s = report.suite("convert.F32_TO_F16_RNE")
    assert s["counts"]["untested"] == 1348 and s["counts"]["pass"] == 0
    assert "convert.F32_TO_F16_RNE" in report["scope"]["not_provided"]


def test_a_wrong_target_fails_with_its_departure_profile():
    with pytest.raises(ninfer_conform.ConformanceError) as e:
        ninfer_conform.assert_conformant(Truncating(), require="convert.F32_TO_BF16_RNE")
    message = str(e.value)
    assert "NOT CONFORMANT" in message
    assert "departure profile:" in message
    assert "first failing cases:" in message and "convert.F32_TO_BF16_RNE:" in message


def test_policies_are_judged_as_asked():
    import ml_dtypes

    class MlDtypes:
        def convert(self, recipe, words):
            return words.view(np.float32).astype(ml_dtypes.bfloat16).view(np.uint16) if recipe == "F32_TO_BF16_RNE" else None

    with pytest.raises(ninfer_conform.ConformanceError) as e:
        ninfer_conform.assert_conformant(MlDtypes(), require="convert.F32_TO_BF16_RNE")
    assert "nan-payload" in str(e.value) and "NaN payload dropped" in str(e.value)
    report = ninfer_conform.assert_conformant(MlDtypes(), require="convert.F32_TO_BF16_RNE", policies=["nan-payload"])
    assert report.policies() == ["nan-payload"]


def test_exceptions_and_bad_results_are_target_errors(capfd):
    class Raises:
        name = "raises"

        def convert(self, recipe, words):
            raise ValueError("no such luck")

    class Floats:
        name = "floats"

        def convert(self, recipe, words):
            return words.view(np.float32)

    class Short:
        name = "short"

        def convert(self, recipe, words):
            return np.zeros(len(words) - 1, np.uint16)

    for target, why in ((Raises(), "ValueError: no such luck"), (Floats(), "floats"), (Short(), "shape")):
        report = ninfer_conform.replay(target, suite="convert.F32_TO_BF16_RNE")
        assert not report.conformant
        assert report.suite("convert.F32_TO_BF16_RNE")["counts"]["target-error"] == 10750
        assert why in capfd.readouterr().err


def test_a_module_is_a_target_and_decode_answers_bits(tmp_path, monkeypatch):
    (tmp_path / "bf16_module.py").write_text(
        "import numpy as np\n"
        "name = 'bf16-module'\n"
        "def decode(word_type, words):\n"
        "    return (words << 16).astype(np.uint32) if word_type == 'BF16' else None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import bf16_module
    report = ninfer_conform.replay(bf16_module, suite="decode.BF16")
    assert report.conformant and report.suite("decode.BF16")["counts"]["pass"] == 65536
    assert ninfer_conform.target_spec(bf16_module) == "python:bf16_module"


def test_a_result_is_read_in_any_integer_width_and_layout():
    """The runner copies a result by its width and stride (a memcpy for contiguous 32-bit words): the
    same BF16 words as uint16, uint32, int16 (signed: 0x8000 and up are negative), uint64, every
    other element of a buffer twice the size, and a view with a negative stride all judge alike."""
    def strided(a):
        buf = np.zeros(2 * len(a), a.dtype)
        buf[::2] = a
        return buf[::2]

    layouts = {"uint16": lambda a: a, "uint32": lambda a: a.astype(np.uint32), "int16": lambda a: a.view(np.int16),
               "uint64": lambda a: a.astype(np.uint64), "strided": strided,
               "negative stride": lambda a: np.ascontiguousarray(a[::-1])[::-1]}
    for name, layout in layouts.items():
        class Laid(RoundNearestEven):
            def convert(self, recipe, words):
                result = layout(RoundNearestEven.convert(self, recipe, words))
                assert len(result) < 2 or result.strides[0] != result.itemsize or name not in ("strided", "negative stride")
                return result
        report = ninfer_conform.replay(Laid(), suite="convert.F32_TO_BF16_RNE")
        counts = report.suite("convert.F32_TO_BF16_RNE")["counts"]
        assert report.conformant and counts["fail"] == 0 and counts["target-error"] == 0, (name, counts)
        sweep = ninfer_conform.sweep(Laid(), "convert.F32_TO_BF16_RNE", jobs=2, stride=65537, no_geometry=True)[0]
        assert sweep["mismatches"] == 0 and sweep["covered"] == 65536, (name, sweep["classes"])


def test_a_target_that_writes_into_its_inputs_is_judged_on_the_words_it_was_given():
    """The runner hands over its own buffer, read-only to NumPy; a torch tensor over it is writable
    all the same, and an in-place op writes into it (here ctypes does). The sweep judges each result
    against the input its index names, never the buffer read back, so right answers pass."""
    import ctypes

    class Scribbling(RoundNearestEven):
        def convert(self, recipe, words):
            result = super().convert(recipe, words)
            ctypes.memset(words.ctypes.data, 0, words.nbytes)
            return result

    sweep = ninfer_conform.sweep(Scribbling(), "convert.F32_TO_BF16_RNE", jobs=2, stride=4099, no_geometry=True)[0]
    assert sweep["covered"] == (1 << 32) // 4099 + 1
    assert sweep["mismatches"] == 0, sweep["classes"]


def test_sweep_runs_on_the_runner_threads():
    t = RoundNearestEven()
    reports = ninfer_conform.sweep(t, "convert.F32_TO_BF16_RNE", jobs=2, stride=4099, no_geometry=True)
    assert len(reports) == 1 and reports[0].exit_code == 0
    r = reports[0]
    assert r["domain"] == "convert.F32_TO_BF16_RNE" and r["target"] == "python:test_targets.RoundNearestEven"
    assert r["tally"]["covered"] if "tally" in r else r.get("covered", 1)
    assert not r.get("target_error") and t.sizes and max(t.sizes) == 1 << 18  # a Python target's batches


def test_a_runner_thread_keeps_one_python_thread_state():
    """A runner thread is one Python thread for as long as it runs: what a target keeps in a
    threading.local (a library's per-thread stream or cache) lasts from batch to batch, where a
    thread state made and deleted around every call started each one empty."""
    local, counts = threading.local(), {}

    class Counting(RoundNearestEven):
        def convert(self, recipe, words):
            local.calls = getattr(local, "calls", 0) + 1
            counts.setdefault(threading.get_ident(), []).append(local.calls)
            return super().convert(recipe, words)

    ninfer_conform.sweep(Counting(), "convert.F32_TO_BF16_RNE", jobs=2, stride=257, no_geometry=True)
    # 2^32 / 257 inputs in chunks of 2^22 (4, the last one short) cut in batches of 2^18: 16 calls each
    assert sum(map(len, counts.values())) == 64
    for seen in counts.values():
        assert seen == list(range(1, len(seen) + 1))


def test_one_command_at_a_time_and_usage_errors():
    with pytest.raises(RuntimeError, match="exit code 2"):
        ninfer_conform.replay(RoundNearestEven(), suite="convert.F32_TO_BF16_RNE", require="no-such-suite")
    with pytest.raises(ValueError, match="none of the methods"):
        ninfer_conform.replay(object(), suite="convert.F32_TO_BF16_RNE")
