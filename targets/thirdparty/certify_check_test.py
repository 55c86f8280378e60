#!/usr/bin/env python3
"""Tests the certification check (targets/thirdparty/certify.py) end to end with the real
`ninfer-conform certify` on a small hand-derived fixture corpus: recording findings, an unchanged
re-run passing, and a changed finding (a failing case ID, a verdict) failing the check, also where
the certificate lists only some of a suite's failures; the written folder is certify's whole (its
digest verifies); --sweep-reports gives the live sweeps' findings.

usage: certify_check_test.py CLI BUILD_DIR
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import implementations  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
cli, build = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(ok, what):
    global passed, failed
    passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
    if not ok:
        print("FAIL:", what)


with tempfile.TemporaryDirectory() as tmp:
    corpus, certs = os.path.join(tmp, "corpus"), os.path.join(tmp, "certs")
    subprocess.run([sys.executable, os.path.join(HERE, "make_fixture_corpus.py"), corpus], check=True)

    def certify(impl, mode, *extra):
        r = subprocess.run([sys.executable, os.path.join(SOURCE, "targets", "thirdparty", "certify.py"),
                            "--cli", cli, "--build", build, "--corpus", corpus, "--certs", certs,
                            "--stride", "65537", *extra, impl, mode],
                           capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr

    rc, out = certify("eigen", "--check")
    check(rc == 77, "check before any --write is skipped, got %d: %s" % (rc, out))

    for impl, failing in (("eigen", []), ("x86-avx512bf16-vcvtneps2bf16", ["00010000"])):
        rc, out = certify(impl, "--write")
        if rc == 77 and "lacks" in out:  # a CPU without AVX512-BF16: said, not failed
            print("note:", out.strip())
            continue
        check(rc == 0, "%s --write: %d %s" % (impl, rc, out))
        expected_file = os.path.join(certs, impl, "expected-findings.json")
        with open(expected_file) as f:
            found = json.load(f)
        suite = found["suites"]["convert.F32_TO_BF16_RNE"]
        # Hand-derived: Eigen passes every record (NaN under nan-any); VCVTNEPS2BF16 flushes the
        # subnormal 0x00010000 (DAZ), so exactly that record fails.
        with open(os.path.join(certs, impl, "certificate.json")) as f:
            inputs = sorted(x["inputs"] for s in json.load(f)["suites"] for x in s["failures"])
        check(inputs == ["src=" + w for w in failing],
              "%s failing inputs %s, expected %s" % (impl, inputs, failing))
        check(len(suite["failing_ids"]) == len(failing), "%s failing ids %s" % (impl, suite["failing_ids"]))
        check(os.path.exists(os.path.join(certs, impl, "certificate.md")), "%s certificate.md" % impl)
        # The sweep finds the same: Eigen's BF16 results differ only on NaN inputs, whose sign it
        # keeps (0x7fc0 / 0xffc0, canonical): the finer latitude nan-payload, never nan-any, with the
        # payload dropped; VCVTNEPS2BF16 flushes subnormal inputs and nothing else.
        sweep = found["sweeps"]["convert.F32_TO_BF16_RNE"]
        check(sweep["provided"] and sweep["stride"] == 65537 and sweep["covered"] == (2**32 + 65536) // 65537,
              "%s sweep coverage %s" % (impl, sweep))
        classes = sorted(sweep["classes"])
        check(classes == (["subnormal-input:flushed"] if failing else []), "%s sweep classes %s" % (impl, classes))
        check((sweep["accepted"].get("nan-payload", 0) > 0) == (impl == "eigen"), "%s nan-payload %s" % (impl, sweep))
        check("nan-any" not in sweep["accepted"], "%s: a sign-keeping NaN is not nan-any: %s" % (impl, sweep))
        check(("NaN payload dropped" in sweep["departures"]) == (impl == "eigen"), "%s departures %s" % (impl, sweep))
        check(not found["sweeps"]["convert.F32_TO_E2M1_RNE_SATFINITE"]["provided"], "%s provides no E2M1" % impl)

        # The folder is certify's whole: the digest too, which `verify` checks.
        check(os.path.exists(os.path.join(certs, impl, "certificate.sha256")), "%s: no certificate.sha256 copied" % impl)
        v = subprocess.run([cli, "verify", os.path.join(certs, impl)], capture_output=True, text=True)
        check(v.returncode == 0, "%s: the written folder does not verify: %s" % (impl, v.stdout + v.stderr))

        if impl == "eigen":
            # --sweep-reports: the same findings from sweeps made beforehand (the binary32 domains 1 in
            # 65537 as --stride asks, the decodes whole, as certify sweeps them), without sweeping.
            spec = implementations.target_spec(implementations.by_name()["eigen"], os.path.abspath(build))
            reports_dir = os.path.join(tmp, "reports")
            os.mkdir(reports_dir)
            parts = []
            for domains, stride in ((["convert"], ["--stride", "65537"]), (["decode"], [])):
                part = os.path.join(tmp, domains[0] + ".json")
                subprocess.run([cli, "sweep", *domains, "--target", spec, "--jobs", "1", *stride, "--json", part],
                               check=True, capture_output=True)
                parts += json.load(open(part))
            with open(os.path.join(reports_dir, "eigen.json"), "w") as f:
                json.dump(parts, f)
            other = os.path.join(tmp, "certs-from-reports")
            rc, out = certify(impl, "--write", "--certs", other, "--sweep-reports", reports_dir)
            check(rc == 0, "eigen --write --sweep-reports: %d %s" % (rc, out))
            if rc == 0:
                with open(os.path.join(other, "eigen", "expected-findings.json")) as f:
                    check(json.load(f) == found, "eigen: findings from the sweep reports differ from the live sweeps'")
                with open(os.path.join(other, "eigen", "certificate.json")) as f:
                    check("--sweep-report" in json.load(f)["identity"]["command_line"], "eigen: the certificate was swept live")
            # A report of the decodes at the binary32 stride is not what the certification sweeps.
            for r in parts:
                r["stride"] = 65537
            with open(os.path.join(reports_dir, "eigen.json"), "w") as f:
                json.dump(parts, f)
            rc, out = certify(impl, "--write", "--certs", other, "--sweep-reports", reports_dir)
            check(rc not in (0, 77) and "decode.BF16 at stride 65537, not 1" in out,
                  "eigen: a report at the wrong stride must be refused: %d %s" % (rc, out))

        rc, out = certify(impl, "--check")
        check(rc == 0 and "unchanged" in out, "%s unchanged re-run: %d %s" % (impl, rc, out))

        # A drifted finding must fail the check and say what changed.
        found["capabilities"]["decode"] = "tampered"
        sweep["classes"]["normal-input:other"] = 1
        suite["failing_ids"] = suite["failing_ids"][1:] if suite["failing_ids"] else ["convert.F32_TO_BF16_RNE:000000000000"]
        with open(expected_file, "w") as f:
            json.dump(found, f)
        rc, out = certify(impl, "--check")
        check(rc == 1 and "CHANGED /capabilities/decode" in out and "failing_ids" in out
              and "/sweeps/convert.F32_TO_BF16_RNE/classes/normal-input:other: removed" in out,
              "%s tampered expectations must fail: %d %s" % (impl, rc, out))

    # A failure list cut short (--max-failures 1): Highway's SSE4 target truncates, so of the BF16
    # records 3f818000 (a tie that RNE rounds up to even) and 7f7fffff (FLT_MAX, which RNE rounds to
    # infinity) fail, and its emulated float16 decodes fc00 as -2^16. The findings keep the count,
    # the SHA-256 of both failing IDs (each with a newline, in ID order) and the first ID.
    rc, out = certify("highway-sse4", "--write", "--max-failures", "1")
    if rc == 77 and "lacks" in out:
        print("note:", out.strip())
    else:
        check(rc == 0, "highway-sse4 --write: %d %s" % (rc, out))
        ids = sorted("convert.F32_TO_BF16_RNE:" + hashlib.sha256(("convert.F32_TO_BF16_RNE\n" + w).encode()).hexdigest()[:12]
                     for w in ("3f818000", "7f7fffff"))
        expected_file = os.path.join(certs, "highway-sse4", "expected-findings.json")
        with open(expected_file) as f:
            found = json.load(f)
        want = {"count": 2, "sha256": hashlib.sha256("".join(i + "\n" for i in ids).encode()).hexdigest(),
                "listed": ids[:1]}
        got = found["suites"]["convert.F32_TO_BF16_RNE"]["failing_ids"]
        check(got == want, "highway-sse4 shortened failing ids %s, expected %s" % (got, want))
        check(len(found["suites"]["decode.F16"]["failing_ids"]) == 1, "highway-sse4 decode.F16 %s" % found["suites"]["decode.F16"])
        rc, out = certify("highway-sse4", "--check", "--max-failures", "1")
        check(rc == 0 and "unchanged" in out, "highway-sse4 unchanged re-run: %d %s" % (rc, out))
        # A change beyond the listed IDs shows only in the digest: it must still fail the check.
        found["suites"]["convert.F32_TO_BF16_RNE"]["failing_ids"]["sha256"] = "0" * 64
        with open(expected_file, "w") as f:
            json.dump(found, f)
        rc, out = certify("highway-sse4", "--check", "--max-failures", "1")
        check(rc == 1 and "failing_ids/sha256" in out, "highway-sse4 tampered digest must fail: %d %s" % (rc, out))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
