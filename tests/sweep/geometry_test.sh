#!/usr/bin/env bash
# Batch geometry (runners/README.md): an adapter that drops a NaN's sign only in full groups of 8
# lanes and keeps it in a batch's tail passes every full-batch judgement (the sign of a NaN is
# forgiven by nan-any), so only presenting inputs outside full vectors can see it. Both the sweep
# (its class sample at lengths 1..64) and the replay (each case again in a request of 7) must report
# it as position-dependent and name the 8-lane pattern; as both of its results are allowed, it costs
# no verdict. With a tail that also truncates (a mismatch only short batches show) it is not
# conformant. The correct codec stays clean.
# Usage: geometry_test.sh NINFER_CONFORM SOURCE_DIR
set -u
nc=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
lanes="pipe:python3 $src/tests/sweep/lane_adapter.py"
truncating="pipe:python3 $src/tests/sweep/lane_adapter.py --tail-truncates"

# Sweep: position-dependent, the pattern named, the report carrying it.
"$nc" sweep convert.F32_TO_BF16_RNE --target "$lanes" --stride 65521 --jobs 1 --json "$work/sweep.json" > "$work/sweep.txt"
[ $? -eq 0 ] || { cat "$work/sweep.txt"; fail "the lane adapter's results are each allowed: exit 0"; }
grep -q 'position-dependent: 19 of .* sample inputs (nan-input 19)' "$work/sweep.txt" \
  || { cat "$work/sweep.txt"; fail "the sweep should find the 19 negative NaNs of the sample position-dependent"; }
grep -q 'lanes 0-7 of each full group of 8 give nan-input:sign .*, the tail .* gives the reference result' "$work/sweep.txt" \
  || { cat "$work/sweep.txt"; fail "the sweep should name the 8-lane pattern"; }
python3 - "$work/sweep.json" <<'PY' || fail "the sweep report's geometry member is wrong"
import json, sys
g = json.load(open(sys.argv[1]))["geometry"]
assert g["position_dependent"] == 19, g["position_dependent"]
assert len(g["tried"]) == 3 and "1..64" in g["tried"][1], g["tried"]
assert g["first"][0]["full"] != g["first"][0]["other"], g["first"]
PY
# Without the geometry pass the full batches see nothing.
"$nc" sweep convert.F32_TO_BF16_RNE --target "$truncating" --stride 65521 --jobs 1 --no-geometry > "$work/plain.txt"
[ $? -eq 0 ] || { cat "$work/plain.txt"; fail "without the geometry pass the full batches see nothing"; }
grep -q position-dependent "$work/plain.txt" && fail "--no-geometry still ran the geometry pass"
# A tail that truncates: mismatches only outside a full batch, not conformant.
"$nc" sweep convert.F32_TO_BF16_RNE --target "$truncating" --stride 65521 --jobs 1 > "$work/trunc.txt"
[ $? -eq 1 ] || { cat "$work/trunc.txt"; fail "a truncating tail must fail the sweep"; }
grep -q 'normal-input:off-by-one-ulp .* (only outside a full batch)' "$work/trunc.txt" \
  || { cat "$work/trunc.txt"; fail "the tail's mismatches should be counted by class"; }

# Replay: each case again in a request of 7.
"$nc" replay --target "$lanes" --suite convert.F32_TO_BF16_RNE --jobs 1 --json "$work/replay.json" > "$work/replay.txt"
[ $? -eq 0 ] || { cat "$work/replay.txt"; fail "the lane adapter's replay results are each allowed: exit 0"; }
grep -q 'position-dependent: .* lanes 0-7 of each full group of 8 give (pass-under-policy .*), the tail of a request .* gives (pass ' \
  "$work/replay.txt" || { cat "$work/replay.txt"; fail "the replay should name the 8-lane pattern"; }
python3 - "$work/replay.json" <<'PY' || fail "the replay report's geometry member is wrong"
import json, sys
s = json.load(open(sys.argv[1]))["suites"][0]["geometry"]
assert s["position_dependent"] > 0 and s["position_failures"] == 0 and s["tail_batch"] == 7, s
c = s["cases"][0]
assert c["full"]["verdict"] == "pass-under-policy" and c["short"]["verdict"] == "pass", c
assert c["short"]["length"] <= 7, c
PY
"$nc" replay --target "$lanes" --suite convert.F32_TO_BF16_RNE --jobs 1 --tail-batch 0 > "$work/replay0.txt"
grep -q position-dependent "$work/replay0.txt" && fail "--tail-batch 0 still presented short requests"
"$nc" replay --target "$truncating" --suite convert.F32_TO_BF16_RNE --jobs 1 > "$work/replay_t.txt"
[ $? -eq 1 ] || { cat "$work/replay_t.txt"; fail "a truncating tail must fail the replay"; }
grep -q '^NOT CONFORMANT: .*failed only in short requests (position-dependent)' "$work/replay_t.txt" \
  || { cat "$work/replay_t.txt"; fail "the verdict should name the short-request failures"; }

# Certify: the certificate lists the geometries and the finding.
"$nc" certify --target "$lanes" --out "$work/cert" --sweep convert.F32_TO_BF16_RNE --stride 65521 --jobs 1 > "$work/cert.txt"
[ $? -eq 0 ] || { cat "$work/cert.txt"; fail "the lane adapter's results are each allowed: certified under policy"; }
grep -q 'batch lengths 1..64' "$work/cert/certificate.md" || fail "certificate.md lists no geometries"
grep -q 'position-dependent' "$work/cert/certificate.md" || fail "certificate.md has no position-dependent finding"
python3 - "$work/cert/certificate.json" <<'PY' || fail "certificate.json's geometry members are wrong"
import json, sys
c = json.load(open(sys.argv[1]))
s = [x for x in c["suites"] if x["suite"] == "convert.F32_TO_BF16_RNE"][0]
assert s["geometry"]["position_dependent"] > 0
w = c["sweeps"][0]["geometry"]
assert w["position_dependent"] == 19 and "lanes 0-7" in w["finding"], w
PY
"$nc" certify --target "$truncating" --out "$work/cert_t" --sweep convert.F32_TO_BF16_RNE --stride 65521 --jobs 1 > "$work/cert_t.txt"
[ $? -eq 1 ] || { cat "$work/cert_t.txt"; fail "a truncating tail must not be certified"; }

# The correct codec: every geometry agrees.
"$nc" sweep convert decode --target cpu --stride 65521 --jobs 1 --json "$work/cpu.json" > "$work/cpu.txt"
[ $? -eq 0 ] || { cat "$work/cpu.txt"; fail "the codec's sweep with geometry should be clean"; }
[ "$(grep -c 'no result depends on position' "$work/cpu.txt")" -ge 9 ] || { cat "$work/cpu.txt"; fail "geometry lines missing"; }
echo PASS
