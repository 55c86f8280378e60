#!/usr/bin/env bash
# The sweep command end to end: a planted FTZ/DAZ bug is found, counted by class and written as a
# replayable corpus; the same cases pass against the correct codec; shards merge to the unsharded
# report. Usage: sweep_cli_test.sh NINFER_CONFORM FTZ_PLUGIN
set -u
nc=$1 plugin=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$nc" sweep convert.F32_TO_BF16_RNE --target "plugin:$plugin" --stride 4099 --jobs 2 \
  --json "$work/ftz.json" --vectors "$work/found" > "$work/out.txt"
[ $? -eq 1 ] || fail "the DAZ plugin's sweep should exit 1"
grep -q '"subnormal-input:flushed"' "$work/ftz.json" || fail "no subnormal-input:flushed class in the report"
grep -q '"normal-input:' "$work/ftz.json" && fail "normal inputs must not mismatch"
[ -f "$work/found/sweep.convert.F32_TO_BF16_RNE.vec.zst" ] || fail "no findings suite written"
zstdcat "$work/found/sweep.convert.F32_TO_BF16_RNE.vec.zst" | grep -q '^#op convert F32_TO_BF16_RNE' \
  || fail "findings suite has no #op line"

"$nc" replay --corpus "$work/found" --target cpu > "$work/replay_cpu.txt" 2>&1
[ $? -eq 0 ] || { cat "$work/replay_cpu.txt"; fail "the findings must pass against the correct codec"; }
"$nc" replay --corpus "$work/found" --target "plugin:$plugin" > "$work/replay_ftz.txt" 2>&1
[ $? -eq 1 ] || { cat "$work/replay_ftz.txt"; fail "the findings must fail against the DAZ plugin"; }

for k in 0 1 2; do
  "$nc" sweep decode.F16 --target cpu --shard $k/3 --json "$work/s$k.json" > /dev/null || fail "shard $k"
done
"$nc" sweep decode.F16 --target cpu --json "$work/all.json" > /dev/null || fail "unsharded"
"$nc" merge "$work/s0.json" "$work/s1.json" "$work/s2.json" --json "$work/merged.json" > /dev/null || fail "merge"
cmp -s "$work/merged.json" "$work/all.json" || fail "merged shards differ from the unsharded report"
GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 "$nc" sweep decode.F16 --target cpu --json "$work/g1.json" > /dev/null
cmp -s "$work/g1.json" "$work/s1.json" || fail "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS not honoured"
"$nc" merge "$work/s0.json" "$work/s2.json" > /dev/null 2>&1 && fail "merge must refuse a missing shard"
echo "sweep CLI: 8 checks passed"
