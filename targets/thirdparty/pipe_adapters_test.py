#!/usr/bin/env python3
"""Speaks the pipe protocol (runners/PIPE.md) to the pipe adapters of the rows of implementations.json
whose adapter_test is this file (ml_dtypes, gfloat, numpy, gguf, pyarrow) and checks hand-derived values (same derivations as spec_cases.h), plus each library's documented
departures (NaN and overflow conventions) so a change in either shows up.

usage: pipe_adapters_test.py SOURCE_DIR   (exit 77 = skipped: no .venv, run scripts/install-thirdparty)
"""
import os
import struct
import subprocess
import sys

src = sys.argv[1]
python = os.path.join(src, ".venv", "bin", "python")
if not os.access(python, os.X_OK):
    print("SKIPPED: no %s; run scripts/install-thirdparty" % python)
    sys.exit(77)

# Spec 3.1 and F32_TO_BF16_RNE: (request, expected response tokens).
BF16 = [
    ("decode BF16 3f80 0001 8000 7f80 ff7f", "3f800000 00010000 80000000 7f800000 ff7f0000"),
    ("convert F32_TO_BF16_RNE 3f808000 3f818000 3f808001 3f807fff 7f7fffff ff800000 00010000 00008000 80000000",
     "3f80 3f82 3f81 3f80 7f80 ff80 0001 0000 8000"),
]

# Spec 3.3/3.1 and the recipes.
COMMON = BF16 + [
    ("decode E4M3FN 7e fe 01 07 08 38 00 80",
     "43e00000 c3e00000 3b000000 3c600000 3c800000 3f800000 00000000 80000000"),
    ("decode E2M1 0 1 2 3 4 5 6 7 8 f",
     "00000000 3f000000 3f800000 3fc00000 40000000 40400000 40800000 40c00000 80000000 c0c00000"),
    ("convert F32_TO_E4M3FN_RNE_OVF_NAN 3f800000 43e00000 43e7ffff", "38 7e 7e"),
    ("convert F32_TO_E2M1_RNE_SATFINITE 40a00000 40200000 3f400000 3e800000 4e6e6b28 ff800000 80000000",
     "6 4 2 0 7 f 8"),
    ("frobnicate 1", None),  # unknown op
    ("encode Q4G64_F16S FP32 1x2 3f800000,bf000000", None),
]

# binary16 (spec 3.1 and F32_TO_F16_RNE): 1, the smallest subnormal, the largest subnormal, the
# largest finite, -inf, -0; and 1, the overflow tie (65520 -> inf), just below it (-> 65504), half
# the smallest subnormal (a tie to even: 0), just above it, 1.5 subnormals (tie to 2), -inf, -0.
F16 = [
    ("decode F16 3c00 0001 03ff 7bff fc00 8000",
     "3f800000 33800000 387fc000 477fe000 ff800000 80000000"),
    ("convert F32_TO_F16_RNE 3f800000 477ff000 477fefff 33000000 33000001 33c00000 ff800000 80000000",
     "3c00 7c00 7bff 0000 0001 0002 fc00 8000"),
]

# NumPy's float32 -> float16 NaN (documented departure): the top fraction bits are kept but the
# quiet bit is not forced, so a signalling NaN stays signalling, and one whose kept bits are all
# zero gets the lowest bit instead (0x7c01). The recipe's NaN rule gives 7e00 7fff fe00.
# Its float16 -> float32 is spec 3.1's widening: sign and payload kept, a signalling NaN not quieted.
# NumPy's float16 is this; Arrow's has the same profile.
NUMPY_F16 = F16 + [
    ("convert F32_TO_F16_RNE 7f800001 7fbfffff ffc00000", "7c01 7dff fe00"),
    ("decode F16 7c01 fe01", "7f802000 ffc02000"),
]

# What each row's adapter answers: (hello name, what its version must contain, cases).
ADAPTERS = {
    "ml_dtypes": ("ml_dtypes", "+numpy-", COMMON + [
        # ml_dtypes has no saturating e4m3fn cast and no binary16 of its own.
        ("convert F32_TO_E4M3FN_RNE_SATFINITE 3f800000", None),
        ("decode F16 3c00", None),
        # Documented: overflow and infinity -> NaN (OVF_NAN profile), sign kept.
        ("convert F32_TO_E4M3FN_RNE_OVF_NAN 43fa0000 c3fa0000 7f800000 ff800000", "7f ff 7f ff"),
    ]),
    "gfloat": ("gfloat", "+numpy-", COMMON + F16 + [
        ("convert F32_TO_E4M3FN_RNE_SATFINITE 3f800000 43fa0000 7f800000 ff800000 43e80000 3a800000 3b400000 3ac00000 80000000",
         "38 7e 7e fe 7e 00 02 01 80"),
    ]),
    "numpy": ("numpy", ".", NUMPY_F16 + [
        # NumPy has no bfloat16 or 8-bit float types.
        ("decode BF16 3f80", None),
        ("convert F32_TO_BF16_RNE 3f800000", None),
        ("convert F32_TO_E4M3FN_RNE_SATFINITE 3f800000", None),
    ]),
    # gguf-py's F16 is NumPy's cast.
    "gguf": ("gguf", "+numpy-", NUMPY_F16 + BF16 + [
        # The BF16 NaN rule of docs/recipes.md, which gguf-py's code follows: sign and top fraction
        # bits kept, quiet bit set (a signalling NaN becomes quiet).
        ("convert F32_TO_BF16_RNE 7f800001 ff812345 7fc00000", "7fc0 ffc1 7fc0"),
        ("decode E4M3FN 38", None),
    ]),
    # Arrow C++'s own float16 code, with the same NaN profile as NumPy's.
    "pyarrow": ("pyarrow", "+numpy-", NUMPY_F16 + [
        ("decode BF16 3f80", None),
        ("convert F32_TO_BF16_RNE 3f800000", None),
    ]),
}

passed = failed = 0
# The adapter each row runs (its script, arguments and environment) is the row's.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import implementations  # noqa: E402
ROWS = {r["name"]: r for r in implementations.rows() if r.get("adapter_test") == os.path.basename(__file__)}


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


check(set(ROWS) == set(ADAPTERS), "rows of implementations.json tested here %s, cases for %s" % (sorted(ROWS), sorted(ADAPTERS)))


def command(row):
    """The row's adapter command and environment (implementations.target_spec's pipe: COMMAND)."""
    a = ROWS[row]["adapter"]
    return ([python, os.path.join(src, "targets", "thirdparty", a["pipe"])] + a.get("args", []),
            dict(os.environ, **a.get("env", {})))


for row, (name, version_mark, cases) in ADAPTERS.items():
    if row not in ROWS:
        continue
    requests = ["hello 1"] + [r for r, _ in cases]
    cmd, env = command(row)
    proc = subprocess.run(cmd, input="".join(r + "\n" for r in requests), capture_output=True,
                          text=True, timeout=50, env=env)
    lines = proc.stdout.splitlines()
    check(proc.returncode == 0, "%s exit status %d: %s" % (row, proc.returncode, proc.stderr[-500:]))
    check(len(lines) == len(requests), "%s answered %d lines for %d requests" % (row, len(lines), len(requests)))
    if not lines:
        continue
    hello = lines[0].split(" ")
    check(len(hello) == 3 and hello[:2] == ["ok", name] and version_mark in hello[2],
          "%s hello: %r" % (row, lines[0]))
    for (request, expect), got in zip(cases, lines[1:]):
        want = "unsupported" if expect is None else "ok " + expect
        check(got == want, "%s: %s\n  want %s\n  got  %s" % (row, request, want, got))


def words_le(tokens):
    return b"".join(struct.pack("<I", int(t, 16)) for t in tokens.split())


def binary_request(request):
    """`bin OP SELECTOR N` + payload for a text request of the cases above."""
    op, selector, *words = request.split(" ")
    return ("bin %s %s %d\n" % (op, selector, len(words))).encode() + words_le(" ".join(words))


# The same hand-derived cases through the binary framing (PIPE.md "Binary batches"), which the
# sweeps use: the answer must be `ok` + the same words (+ one validity byte each for decode), an
# unsupported request's payload must be consumed (the next request still answers), and the
# session must end cleanly.
for row, (name, _, cases) in ADAPTERS.items():
    if row not in ROWS:
        continue
    word_cases = [(r, e) for r, e in cases if r.split(" ")[0] in ("decode", "convert")]
    stream = b"hello 1\nbinary 1\n" + b"".join(binary_request(r) for r, _ in word_cases) + b"hello 1\n"
    cmd, env = command(row)
    proc = subprocess.run(cmd, input=stream, capture_output=True, timeout=50, env=env)
    out = proc.stdout
    check(proc.returncode == 0, "%s binary session exit status %d: %s" % (row, proc.returncode, proc.stderr[-500:]))
    hello = out.split(b"\n", 1)[0]
    check(hello.startswith(b"ok " + name.encode()), "%s binary session hello: %r" % (row, hello))
    out = out[len(hello) + 1:]
    check(out.startswith(b"ok\n"), "%s: binary 1 answered %r" % (row, out[:20]))
    out = out[3:]
    for request, expect in word_cases:
        n = len(request.split(" ")) - 2
        if expect is None:
            want = b"unsupported\n"
        else:
            want = b"ok\n" + words_le(expect) + (b"\x01" * n if request.startswith("decode") else b"")
        check(out[:len(want)] == want, "%s: bin %s\n  want %r\n  got  %r" % (row, request, want, out[:len(want)]))
        out = out[len(want):]
    check(out.startswith(b"ok " + name.encode()), "%s: the session after the binary batches: %r" % (row, out[:40]))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
