#!/usr/bin/env python3
"""Writes a tiny corpus (vectors/FORMAT.md schema 1) for testing the certification check itself
before and independently of the real corpus. Records are hand-derived from the spec and the recipe
definitions (same derivations as spec_cases.h). Uses the `zstd` command (scripts/install-deps).

usage: make_fixture_corpus.py OUT_DIR
"""
import hashlib
import json
import os
import subprocess
import sys

SUITES = {
    "convert.F32_TO_BF16_RNE": {
        "op": "convert F32_TO_BF16_RNE",
        "columns": "id src expect accept exact tags comment",
        "policies": ["nan-any Any NaN of the result type is accepted where the record names this policy."],
        # (src, expect, accept, exact, comment)
        "records": [
            ("3f808000", "3f80", "-", "0x1.01p+0", "tie, even kept"),
            ("3f818000", "3f82", "-", "0x1.03p+0", "tie, rounds up to even"),
            ("7f7fffff", "7f80", "-", "0x1.fffffep+127", "overflow to inf"),
            ("00010000", "0001", "-", "0x1p-133", "bf16 min subnormal"),
            ("7fa00001", "7fe0", "nan-any", "nan", "signaling NaN: top payload bits kept, quiet bit set"),
        ],
    },
    "decode.F16": {
        "op": "decode F16",
        "columns": "id word expect accept value class tags comment",
        "policies": [],
        # (word, expect, accept, value, class, comment)
        "records": [
            ("3c00", "3f800000", "-", "0x1p+0", "normal", "one"),
            ("0001", "33800000", "-", "0x1p-24", "subnormal", "min subnormal"),
            ("fc00", "ff800000", "-", "-inf", "inf", "negative infinity"),
        ],
    },
}


def main(out):
    os.makedirs(out, exist_ok=True)
    entries = []
    for suite in sorted(SUITES):
        s = SUITES[suite]
        rows = []
        for rec in s["records"]:
            case_id = "%s:%s" % (suite, hashlib.sha256((suite + "\n" + rec[0]).encode()).hexdigest()[:12])
            rows.append(" ".join((case_id,) + rec[:-1] + ("-", rec[-1])))
        rows.sort()
        head = ["#ninfer-conform-vectors 1", "#suite " + suite, "#op " + s["op"],
                "#about Fixture for the third-party certification check.", "#spec 3.1",
                "#columns " + s["columns"]] + ["#policy " + p for p in s["policies"]]
        text = "\n".join(head + ["#records %d" % len(rows)] + rows) + "\n"
        path = os.path.join(out, suite + ".vec.zst")
        packed = subprocess.run(["zstd", "-q", "-c", "-19"], input=text.encode(), capture_output=True, check=True).stdout
        with open(path, "wb") as f:
            f.write(packed)
        entries.append({"suite": suite, "file": suite + ".vec.zst", "records": len(rows),
                        "compressed_bytes": len(packed), "compressed_sha256": hashlib.sha256(packed).hexdigest(),
                        "text_bytes": len(text.encode()), "text_sha256": hashlib.sha256(text.encode()).hexdigest()})
    manifest = {"schema": 1, "generator_version": "fixture", "oracle_libraries": {}, "seed": "0x0",
                "suites": entries}
    with open(os.path.join(out, "MANIFEST.json"), "w") as f:
        f.write(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
