"""In-process Python targets for the ABI's other entry points (issue 31 item 2): dequantize,
validate_tensor, encode, parse_format and layout_offsets, and reconstruct's invalid pairs.

Each correct target below is NumPy written from the spec for one format, not from the code under
test: W8G32_F16S (spec 4 groups, 5 codes, 6.1 scales, 6.2 reconstruction, 7 the canonical encoder),
the registry's names (spec 1) and the NVFP4 128x4 scale tile (vectors/FORMAT.md "layout"). Each is
judged against the official suites, which it must pass, and a deliberately wrong twin must fail."""
import math

import numpy as np
import pytest

import ninfer_conform

G, QMAX = 32, 127  # W8G32_F16S: group size and the encoder's qmax (spec 1, 7)
W8_SUITES = {
    "dequantize": ["dequantize.W8G32_F16S"],
    "encode": ["encode.W8G32_F16S"],
    "validate_tensor": ["validate-tensor.W8G32_F16S", "validate-tensor.W8G32_F16S.extremes"],
}


def f16(words):
    """binary16 words -> binary32 values, exact (spec 6.2: exact_binary16_to_binary32)."""
    return words.astype(np.uint16).view(np.float16).astype(np.float32)


def w8_values(codes):
    """W8 code words -> signed codes as binary32 (spec 5: 8-bit two's complement; exact)."""
    return codes.astype(np.uint8).view(np.int8).astype(np.float32)


class W8:
    """W8G32_F16S from the spec; every other format is declined (None)."""
    name, version = "w8-from-the-spec", "1"

    def __init__(self):
        self.seen = []  # (writeable, owndata, dtype, ndim) of every input array

    def note(self, *arrays):
        # (an empty plane, as in some shape-error cases, is an empty array of NumPy's own)
        self.seen += [(a.flags.writeable, a.flags.owndata, a.dtype, a.ndim) for a in arrays if a.size]

    def dequantize(self, fmt, shape, codes, scales, divisor):
        if fmt != "W8G32_F16S":
            return None
        self.note(codes, scales)
        k = shape[-1]
        q = self.values(codes).reshape(-1, k)
        s32 = f16(scales).reshape(len(q), -1)[:, np.arange(k) // G]  # group(p, k) = floor(k / G) (spec 4)
        return self.product(s32, q).view(np.uint32).reshape(-1)

    def values(self, codes):
        return w8_values(codes)

    def product(self, s32, q):
        return s32 * q  # binary32(s32 * binary32(q)): one IEEE binary32 multiplication (spec 6.2)

    def validate_tensor(self, fmt, shape, codes, scales, divisor):
        if fmt != "W8G32_F16S":
            return None
        self.note(codes, scales)
        # Shape first (FORMAT.md "Rule precedence"): rank >= 1, positive extents (spec 4), the
        # planes' sizes, and no divisor plane (NVFP4's alone).
        k = shape[-1] if shape else 0
        rows = math.prod(shape[:-1])
        if not shape or min(shape) == 0 or divisor is not None or len(codes) != rows * k or \
                len(scales) != rows * -(-k // G):
            return ("shape", None)
        # Then every scale, row-major: the sign bit (negative values and -0) before non-finite (6.1).
        bad = self.bad_scales(scales)
        if bad.size:
            i = int(bad[0])
            return ("scale-negative" if self.negative(scales[i]) else "scale-nonfinite", i)
        # Then every code: 0x80 is outside the language (spec 5), then a +0 scale's group must hold
        # zero codes only (6.1).
        group_scale = scales.reshape(rows, -1)[:, np.arange(k) // G].reshape(-1)
        illegal = codes == 0x80
        bad = np.flatnonzero(illegal | ((group_scale == 0) & (codes != 0)))
        if bad.size:
            i = int(bad[0])
            return ("code-illegal" if illegal[i] else "zero-scale-codes", i)
        return "valid"

    def negative(self, word):
        return bool(word & 0x8000)

    def bad_scales(self, scales):
        return np.flatnonzero((scales & 0x8000 != 0) | (scales & 0x7C00 == 0x7C00))

    def encode(self, fmt, source_type, words):
        if fmt != "W8G32_F16S":
            return None
        self.note(words)
        with np.errstate(all="ignore"):
            # Every source value to binary32, round to nearest even, before grouping (spec 7).
            if source_type == "FP32":
                x = (words & 0xFFFFFFFF).astype(np.uint32).view(np.float32)
            elif source_type == "BF16":
                x = ((words & 0xFFFF) << 16).astype(np.uint32).view(np.float32)
            elif source_type == "F16":
                x = f16(words & 0xFFFF)
            else:  # F64
                x = words.view(np.float64).astype(np.float32)
            if not np.isfinite(x).all():
                return "nonfinite"
            rows, k = x.shape
            scales, codes = [], np.zeros((rows, k), dtype=np.int32)
            for g0 in range(0, k, G):
                grp = x[:, g0:g0 + G]
                amax = np.abs(grp).max(axis=1)
                s16 = (amax / np.float32(QMAX)).astype(np.float16)  # raw_scale32, then round_f16
                s16[(s16 == 0) & (amax != 0)] = np.uint16(1).view(np.float16)  # 2^-24 rescue
                if np.isinf(s16).any():
                    return "scale-overflow"
                s32 = s16.astype(np.float32)
                normalized = self.normalize(grp, s32)
                q = np.clip(np.rint(normalized), -QMAX, QMAX)  # ties to even, then the clamp
                codes[:, g0:g0 + G] = np.where(amax[:, None] == 0, 0, q).astype(np.int32)
                scales.append(np.where(amax == 0, np.uint16(0), s16.view(np.uint16)))
            return np.stack(scales, axis=1), codes.astype(np.int8)  # a matrix and signed bytes are read as such

    def normalize(self, x, s32):
        inv32 = np.float32(1) / s32  # round_f32(1 / scale32), then round_f32(x * inv32) (spec 7)
        return x * inv32[:, None]


class W8UnsignedCodes(W8):
    """Reads the codes as unsigned bytes: offset binary instead of two's complement (spec 5)."""
    name = "w8-unsigned-codes"

    def values(self, codes):
        return codes.astype(np.float32)


class W8Divides(W8):
    """Divides by the scale instead of multiplying by its reciprocal (spec 7 forbids it)."""
    name = "w8-divides"

    def normalize(self, x, s32):
        return x / s32[:, None]


class W8NegativeZeroScale(W8):
    """Takes a -0 scale for +0: misses that 6.1 makes negative zero invalid."""
    name = "w8-negative-zero-scale"

    def negative(self, word):
        return bool(word & 0x8000) and word != 0x8000

    def bad_scales(self, scales):
        return np.flatnonzero(((scales & 0x8000 != 0) & (scales != 0x8000)) | (scales & 0x7C00 == 0x7C00))


def judged(report, suites):
    counts = [report.suite(s)["counts"] for s in suites]
    return {k: sum(c.get(k, 0) for c in counts) for k in ("pass", "fail", "untested", "target-error")}


def test_a_w8_target_from_the_spec_passes_the_tensor_suites_and_gets_read_only_views():
    t = W8()
    suites = sum(W8_SUITES.values(), [])
    report = ninfer_conform.replay(t, suite=",".join(suites), jobs=2)
    assert report.conformant, report.verdict
    for op, names in W8_SUITES.items():
        c = judged(report, names)
        assert c["pass"] > 0 and c["fail"] == c["untested"] == c["target-error"] == 0, (op, c)
    assert t.seen and all(not w and not own for w, own, _, _ in t.seen)  # the runner's buffers, no copies
    assert {(d, n) for _, _, d, n in t.seen} == {(np.dtype(np.uint32), 1), (np.dtype(np.uint64), 2)}


@pytest.mark.parametrize("wrong, op", [(W8UnsignedCodes, "dequantize"), (W8Divides, "encode"),
                                       (W8NegativeZeroScale, "validate_tensor")])
def test_a_wrong_w8_target_fails_the_suite_of_its_op(wrong, op):
    report = ninfer_conform.replay(wrong(), suite=",".join(W8_SUITES[op]))
    assert not report.conformant
    c = judged(report, W8_SUITES[op])
    assert c["fail"] > 0 and c["target-error"] == 0, c


def test_formats_a_target_declines_are_untested():
    report = ninfer_conform.replay(W8(), suite="dequantize.Q4G64_F16S,encode.Q4G64_F16S,validate-tensor.NVFP4")
    for s in ("dequantize.Q4G64_F16S", "encode.Q4G64_F16S", "validate-tensor.NVFP4"):
        c = report.suite(s)["counts"]
        assert c["untested"] > 0 and c.get("pass", 0) == 0, (s, c)


def test_exceptions_and_bad_results_of_the_tensor_ops_are_target_errors(capfd):
    class Raises:
        name = "raises"

        def dequantize(self, fmt, shape, codes, scales, divisor):
            raise ValueError("no dequantize here")

    class BadAnswers:
        name = "bad-answers"

        def validate_tensor(self, fmt, shape, codes, scales, divisor):
            return ("no-such-rule", 0)

        def encode(self, fmt, source_type, words):
            return "overflowed"

    for target, suite, why in ((Raises(), "dequantize.W8G32_F16S", "ValueError: no dequantize here"),
                               (BadAnswers(), "validate-tensor.W8G32_F16S", "no-such-rule"),
                               (BadAnswers(), "encode.W8G32_F16S", "overflowed")):
        report = ninfer_conform.replay(target, suite=suite)
        c = report.suite(suite)["counts"]
        assert not report.conformant and c["target-error"] > 0 and c.get("pass", 0) == 0, (suite, c)
        assert why in capfd.readouterr().err


class W8Reconstruct:
    """reconstruct W8G32_F16S (spec 6.2), refusing the pairs without a value: code 0x80 (spec 5) and a
    nonzero code under a +0 scale (6.1; FORMAT.md "Invalid pairs")."""
    name, version = "w8-reconstruct", "1"

    def reconstruct(self, fmt, code, scale, divisor):
        if fmt != "W8G32_F16S":
            return None
        bits = (f16(scale) * w8_values(code)).view(np.uint32)
        valid = ((code != 0x80) & ((scale != 0) | (code == 0))).astype(np.uint8)
        return bits, valid


def test_reconstruct_refuses_pairs_through_a_validity_array():
    report = ninfer_conform.replay(W8Reconstruct(), suite="reconstruct.W8G32_F16S")
    assert report.conformant, report.verdict
    c = report.suite("reconstruct.W8G32_F16S")["counts"]
    assert c["pass"] > 0 and c.get("fail", 0) == 0


def test_an_exception_in_reconstruct_is_a_target_error_never_an_invalid_answer():
    class Raises:
        name = "raises"

        def reconstruct(self, fmt, code, scale, divisor):
            raise ValueError("no reconstruct here")

    report = ninfer_conform.replay(Raises(), suite="reconstruct.W8G32_F16S")
    c = report.suite("reconstruct.W8G32_F16S")["counts"]
    assert c.get("pass", 0) == 0 and c["target-error"] > 0, c  # not the refused pairs' cases passed


REGISTRY = ("BF16", "FP32", "I32", "Q4G64_F16S", "Q5G64_F16S", "Q6G64_F16S", "W8G32_F16S", "NVFP4",
            "FP8_E4M3FN_ROW_BF16S")  # spec 1: a closed registry, names compared whole


class Names:
    name, version = "registry-names", "1"

    def parse_format(self, name):
        assert isinstance(name, bytes)
        text = name.decode("latin-1")
        return text if text in REGISTRY else False


class NamesIgnoringCase(Names):
    name = "registry-names-ignoring-case"

    def parse_format(self, name):
        upper = name.decode("latin-1").upper()
        return upper if upper in REGISTRY else False


def test_parse_format_judged_against_the_registry_suites():
    suites = "parse.registry,parse.registry.edits"
    assert ninfer_conform.replay(Names(), suite=suites).conformant
    report = ninfer_conform.replay(NamesIgnoringCase(), suite=suites)
    assert not report.conformant
    assert sum(report.suite(s)["counts"]["fail"] for s in suites.split(",")) > 0


class Tile:
    """NVFP4 scale offsets in blockscale-k16-m128x4-v1 (vectors/FORMAT.md): 128x4 tiles of 512 bytes;
    inside one, line m % 32 holds row m of each group of 32 rows, 4 bytes each."""
    name, version = "nvfp4-tile", "1"

    def layout_offsets(self, fmt, layout, rows, k, row, block):
        if (fmt, layout) != ("NVFP4", "blockscale-k16-m128x4-v1"):
            return None
        blocks = k // 16
        c = -(-blocks // 4)
        valid = (k % 16 == 0) & (rows > 0) & (k > 0) & (row < rows) & (block < blocks)
        offset = ((row // 128) * c + block // 4) * 512 + self.inside(row, block)
        plane = -(-rows // 128) * c * 512
        return offset, plane, valid.astype(np.uint8)

    def inside(self, m, j):
        return (m % 32) * 16 + ((m % 128) // 32) * 4 + j % 4


class TileRowMajor(Tile):
    """The tile's rows in plain order: no interleave of the four row groups."""
    name = "nvfp4-tile-row-major"

    def inside(self, m, j):
        return (m % 128) * 4 + j % 4


def test_layout_offsets_judged_against_the_layout_suite():
    suite = "layout.NVFP4.blockscale-k16-m128x4-v1"
    report = ninfer_conform.replay(Tile(), suite=suite)
    assert report.conformant, report.verdict
    assert report.suite(suite)["counts"]["pass"] > 0
    report = ninfer_conform.replay(TileRowMajor(), suite=suite)
    assert not report.conformant and report.suite(suite)["counts"]["fail"] > 0
