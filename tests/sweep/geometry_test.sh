#!/usr/bin/env bash
# Batch geometry (runners/README.md): an adapter that drops a NaN's sign only in full groups of 8
# lanes and keeps it in a batch's tail passes every full-batch judgement (the sign of a NaN is
# forgiven by nan-any), so only presenting inputs outside full vectors can see it. Both the sweep
# (its class sample at lengths 1..64) and the replay (each case again in a request of 7) must report
# it as position-dependent, name the 8-lane pattern, and not certify it; the correct codec stays clean.
# Usage: geometry_test.sh NINFER_CONFORM SOURCE_DIR
set -u
nc=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
lanes="pipe:python3 $src/tests/sweep/lane_adapter.py"

# Sweep: position-dependent, the pattern named, the report carrying it.
"$nc" sweep convert.F32_TO_BF16_RNE --target "$lanes" --stride 65521 --jobs 1 --json "$work/sweep.json" > "$work/sweep.txt"
[ $? -eq 1 ] || { cat "$work/sweep.txt"; fail "the lane adapter's sweep should exit 1"; }
grep -q 'position-dependent: 16 of .* sample inputs (nan-input 16)' "$work/sweep.txt" \
  || { cat "$work/sweep.txt"; fail "the sweep should find the 16 negative NaNs of the sample position-dependent"; }
grep -q 'lanes 0-7 of each full group of 8 give nan-input:sign .*, the tail .* gives the reference result' "$work/sweep.txt" \
  || { cat "$work/sweep.txt"; fail "the sweep should name the 8-lane pattern"; }
python3 - "$work/sweep.json" <<'PY' || fail "the sweep report's geometry member is wrong"
import json, sys
g = json.load(open(sys.argv[1]))["geometry"]
assert g["position_dependent"] == 16, g["position_dependent"]
assert len(g["tried"]) == 3 and "1..64" in g["tried"][1], g["tried"]
assert g["first"][0]["full"] != g["first"][0]["other"], g["first"]
PY
# Without the geometry pass the same sweep is clean: the full batches cannot see it.
"$nc" sweep convert.F32_TO_BF16_RNE --target "$lanes" --stride 65521 --jobs 1 --no-geometry > "$work/plain.txt"
[ $? -eq 0 ] || { cat "$work/plain.txt"; fail "without --no-geometry's pass the full batches see nothing"; }

# Replay: each case again in a request of 7.
"$nc" replay --target "$lanes" --suite convert.F32_TO_BF16_RNE --jobs 1 --json "$work/replay.json" > "$work/replay.txt"
[ $? -eq 1 ] || { cat "$work/replay.txt"; fail "the lane adapter's replay should exit 1"; }
grep -q 'position-dependent: .* lanes 0-7 of each full group of 8 give (pass-under-policy .*), the tail of a request .* gives (pass ' \
  "$work/replay.txt" || { cat "$work/replay.txt"; fail "the replay should name the 8-lane pattern"; }
grep -q '^NOT CONFORMANT: .*position-dependent' "$work/replay.txt" || { cat "$work/replay.txt"; fail "verdict"; }
python3 - "$work/replay.json" <<'PY' || fail "the replay report's geometry member is wrong"
import json, sys
s = json.load(open(sys.argv[1]))["suites"][0]["geometry"]
assert s["position_dependent"] > 0 and s["tail_batch"] == 7, s
c = s["cases"][0]
assert c["full"]["verdict"] == "pass-under-policy" and c["short"]["verdict"] == "pass", c
assert c["short"]["length"] <= 7, c
PY
"$nc" replay --target "$lanes" --suite convert.F32_TO_BF16_RNE --jobs 1 --tail-batch 0 > "$work/replay0.txt"
[ $? -eq 0 ] || { cat "$work/replay0.txt"; fail "with --tail-batch 0 the replay sees nothing"; }

# Certify: the capability is not conformant, the certificate lists the geometries and the finding.
"$nc" certify --target "$lanes" --out "$work/cert" --sweep convert.F32_TO_BF16_RNE --stride 65521 --jobs 1 > "$work/cert.txt"
[ $? -eq 1 ] || { cat "$work/cert.txt"; fail "the lane adapter must not be certified"; }
grep -q 'batch lengths 1..64' "$work/cert/certificate.md" || fail "certificate.md lists no geometries"
grep -q 'position-dependent' "$work/cert/certificate.md" || fail "certificate.md has no position-dependent finding"
python3 - "$work/cert/certificate.json" <<'PY' || fail "certificate.json's geometry members are wrong"
import json, sys
c = json.load(open(sys.argv[1]))
assert {x["capability"]: x["verdict"] for x in c["capabilities"]}["convert"] == "not conformant"
s = [x for x in c["suites"] if x["suite"] == "convert.F32_TO_BF16_RNE"][0]
assert s["geometry"]["position_dependent"] > 0
w = c["sweeps"][0]["geometry"]
assert w["position_dependent"] == 16 and "lanes 0-7" in w["finding"], w
PY

# The correct codec: every geometry agrees.
"$nc" sweep convert decode --target cpu --stride 65521 --jobs 1 --json "$work/cpu.json" > "$work/cpu.txt"
[ $? -eq 0 ] || { cat "$work/cpu.txt"; fail "the codec's sweep with geometry should be clean"; }
[ "$(grep -c 'no result depends on position' "$work/cpu.txt")" -ge 9 ] || { cat "$work/cpu.txt"; fail "geometry lines missing"; }
echo PASS
