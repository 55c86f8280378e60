#!/usr/bin/env bash
# The sweep command end to end: a planted FTZ/DAZ bug is found, counted by class and written as a
# replayable corpus; the same cases pass against the correct codec; shards, from --shard or a
# scheduler's environment, merge to the unsharded report and merge refuses bad shard sets; pipe adapters sweep in binary and in text framing with the same result, and a crashing or
# lying adapter is reported without stopping the sweep.
# Usage: sweep_cli_test.sh NINFER_CONFORM FTZ_PLUGIN SOURCE_DIR
set -u
nc=$1 plugin=$2 src=$3
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

# Shards of one sweep writing their findings into one folder keep a suite each.
for k in 0 1; do
  "$nc" sweep convert.F32_TO_BF16_RNE --target "plugin:$plugin" --stride 4099 --shard $k/2 \
    --vectors "$work/found-shards" > /dev/null
  [ $? -eq 1 ] || fail "shard $k/2 of the DAZ plugin's sweep should exit 1"
done
for k in 0 1; do
  [ -f "$work/found-shards/sweep.convert.F32_TO_BF16_RNE.shard-$k-of-2.vec.zst" ] || fail "shard $k's findings were not kept"
done
"$nc" replay --corpus "$work/found-shards" --target "plugin:$plugin" > "$work/replay_shards.txt" 2>&1
[ $? -eq 1 ] || { cat "$work/replay_shards.txt"; fail "the shards' findings must fail against the DAZ plugin"; }
grep -q 'shard-0-of-2' "$work/replay_shards.txt" && grep -q 'shard-1-of-2' "$work/replay_shards.txt" \
  || { cat "$work/replay_shards.txt"; fail "replay must judge both shards' suites"; }

for k in 0 1 2; do
  "$nc" sweep decode.F16 --target cpu --shard $k/3 --json "$work/s$k.json" > /dev/null || fail "shard $k"
done
"$nc" sweep decode.F16 --target cpu --json "$work/all.json" > /dev/null || fail "unsharded"
"$nc" merge "$work/s0.json" "$work/s1.json" "$work/s2.json" --json "$work/merged.json" > /dev/null || fail "merge"
cmp -s "$work/merged.json" "$work/all.json" || fail "merged shards differ from the unsharded report"
GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 "$nc" sweep decode.F16 --target cpu --json "$work/g1.json" > /dev/null
cmp -s "$work/g1.json" "$work/s1.json" || fail "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS not honoured"
"$nc" merge "$work/s0.json" "$work/s2.json" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q 'missing shards 1/3' "$work/err.txt" || fail "merge must refuse a missing shard, naming it"

# The scheduler's index and count name the same shard as --shard: a Slurm array from 1 with a step
# (--array=1-5:2 runs 1, 3, 5, so task 3 is shard 1/3), a Kubernetes Indexed Job, GitLab's 1-based
# CI_NODE_INDEX. An explicit --shard wins; two engines that disagree are a usage error naming both.
SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=5 SLURM_ARRAY_TASK_STEP=2 SLURM_ARRAY_TASK_COUNT=3 \
  "$nc" sweep decode.F16 --target cpu --json "$work/e1.json" > "$work/e1.txt" || fail "Slurm array task"
cmp -s "$work/e1.json" "$work/s1.json" || fail "SLURM_ARRAY_TASK_* not honoured"
grep -q '^shard 1/3 from Slurm job array' "$work/e1.txt" || fail "the sweep does not say where its shard came from"
grep -q 'decode.F16 \[PARTIAL: shard 1/3: 21845..43690\]' "$work/e1.txt" || fail "the summary does not name the shard"
JOB_COMPLETION_INDEX=2 JOB_COMPLETIONS=3 "$nc" sweep decode.F16 --target cpu --json "$work/e2.json" > /dev/null
cmp -s "$work/e2.json" "$work/s2.json" || fail "JOB_COMPLETION_INDEX/JOB_COMPLETIONS not honoured"
CI_NODE_INDEX=1 CI_NODE_TOTAL=3 "$nc" sweep decode.F16 --target cpu --json "$work/e0.json" > /dev/null
cmp -s "$work/e0.json" "$work/s0.json" || fail "CI_NODE_INDEX (1-based)/CI_NODE_TOTAL not honoured"
CI_NODE_INDEX=1 CI_NODE_TOTAL=3 JOB_COMPLETION_INDEX=1 "$nc" sweep decode.F16 --target cpu --shard 2/3 \
  --json "$work/e3.json" > /dev/null
cmp -s "$work/e3.json" "$work/s2.json" || fail "an explicit --shard must win over the environment"
CI_NODE_INDEX=1 CI_NODE_TOTAL=3 GTEST_SHARD_INDEX=2 GTEST_TOTAL_SHARDS=3 "$nc" sweep decode.F16 --target cpu \
  > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q 'GTEST_SHARD_INDEX=2.*CI_NODE_INDEX=1' "$work/err.txt" \
  || fail "conflicting scheduler variables must be a usage error naming both"

# merge refuses, exit 2 and naming the file: a repeated shard, shards of another target or another
# encode domain size, and a shard that carries only a target error.
"$nc" merge "$work/s0.json" "$work/s1.json" "$work/e1.json" "$work/s2.json" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q "shard 1/3 is duplicated in $work/[se]1.json and $work/[se]1.json" "$work/err.txt" \
  || fail "merge must refuse a duplicated shard"
"$nc" sweep decode.F16 --target "plugin:$plugin" --shard 1/3 --json "$work/p1.json" > /dev/null
"$nc" merge "$work/s0.json" "$work/p1.json" "$work/s2.json" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q "different target ('cpu' and 'plugin:" "$work/err.txt" || fail "merge must refuse another target"
"$nc" sweep encode.Q4G64_F16S --target cpu --groups 999 --shard 0/2 --json "$work/g0.json" > /dev/null
"$nc" sweep encode.Q4G64_F16S --target cpu --groups 998 --shard 1/2 --json "$work/g1.json" > /dev/null
"$nc" merge "$work/g0.json" "$work/g1.json" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q "different domain size ('999' and '998')" "$work/err.txt" || fail "merge must refuse another domain size"
for k in 0 1; do
  "$nc" sweep decode.E4M3FN --target "pipe:$src/tests/runners/lying_adapter.sh" --shard $k/2 --json "$work/l$k.json" > /dev/null
done
"$nc" merge "$work/l0.json" "$work/l1.json" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q "l0.json (shard 0/2) judged nothing, it carries only a target error" "$work/err.txt" \
  || { cat "$work/err.txt"; fail "merge must refuse shards that carry only a target error"; }

# certify takes the merged report, and refuses, exit 2 naming the file, a malformed one, one of
# another target version or of a domain this build does not know.
"$nc" certify --target cpu --sweep-report "$work/merged.json" --out "$work/cert" > "$work/cert.txt" 2>&1
[ $? -eq 0 ] && grep -q '^| decode.F16 | 65536 | every input |' "$work/cert/certificate.md" \
  || { cat "$work/cert.txt"; fail "certify must take a whole merged report"; }
for edit in 's/"covered": [0-9]*/"covered": -1/|"covered" is not a count' \
            's/"covered": [0-9]*/"covered": 65537/|exceed the 65536 inputs' \
            's/"target_version": "[^"]*"/"target_version": "0.0"/|is of ninfer-conform-cpu-codec 0.0' \
            's/"domain": "decode.F16"/"domain": "decode.F17"/|decode.F17 is a domain this build does not know'; do
  sed "${edit%%|*}" "$work/merged.json" > "$work/bad.json"
  "$nc" certify --target cpu --sweep-report "$work/bad.json" --out "$work/cert-bad" > /dev/null 2> "$work/err.txt"
  [ $? -eq 2 ] && grep -qF "$work/bad.json: " "$work/err.txt" && grep -qF "${edit#*|}" "$work/err.txt" \
    || { cat "$work/err.txt"; fail "certify must refuse a report edited by ${edit%%|*}"; }
done
[ -e "$work/cert-bad" ] && fail "a refused certify must write no certificate"

# The encoder and reconstruction domains shard the same way: merged shards equal the unsharded run.
for d in encode.Q6G64_F16S reconstruct.NVFP4; do
  for k in 0 1 2 3; do "$nc" sweep $d --target cpu --groups 3001 --shard $k/4 --json "$work/d$k.json" > /dev/null; done
  "$nc" sweep $d --target cpu --groups 3001 --json "$work/dall.json" > /dev/null
  "$nc" merge "$work"/d[0-3].json --json "$work/dmerged.json" > "$work/dmerge.txt" || fail "merge of $d"
  cmp -s "$work/dmerged.json" "$work/dall.json" || fail "$d: merged shards differ from the unsharded report"
done
grep -q '^reconstruct.NVFP4: 4 shard reports tile the domain; coverage 24384/49152 = 0.496094 of the domain' \
  "$work/dmerge.txt" || { cat "$work/dmerge.txt"; fail "merge does not report the coverage"; }
# NVFP4's domain is 16 codes x 256 scale words x 12 divisors = 49152 indices; the 127 sign-zero
# finite E4M3FN words are its valid scales, so 16 * 127 * 12 = 24384 inputs and 24768 invalid words:
# a whole sweep covers every valid input, and says so rather than "part, 49.61%".
grep -q 'reconstruct.NVFP4 .* 24384 inputs (49.61% of the domain; 24768 invalid words skipped)' "$work/dmerge.txt" \
  || { cat "$work/dmerge.txt"; fail "the summary must count the invalid words skipped"; }
"$nc" certify --target cpu --sweep reconstruct.NVFP4 --out "$work/cert-rec" > /dev/null || fail "certify with a reconstruct sweep"
grep -qF '| reconstruct.NVFP4 | 24384 | every valid input (the other 24768 of 49152 are invalid words) |' \
  "$work/cert-rec/certificate.md" || { grep reconstruct "$work/cert-rec/certificate.md"; fail "the certificate must say every valid input"; }

# A pipe adapter with a planted bug (truncation), in both framings: the same report either way.
trunc="python3 $src/tests/sweep/truncating_adapter.py"
for framing in binary text; do
  adapter="$trunc"; [ $framing = text ] && adapter="$trunc --text-only"
  "$nc" sweep convert.F32_TO_BF16_RNE --target "pipe:$adapter" --stride 65537 --jobs 2 \
    --json "$work/trunc-$framing.json" > "$work/trunc-$framing.txt"
  [ $? -eq 1 ] || fail "the truncating adapter's $framing sweep should exit 1"
  # Hand-derived: 1 in 65537 of the 2^32 words is the 65536 words k*65537 = (k << 16) | k. Their
  # high half is k and their low half k, so RNE rounds up, and truncation differs by one ulp,
  # exactly when k > 0x8000: 32767 words, less the 128 with k >= 0xff80 (-inf and NaNs), of
  # which k = 0x8001..0x807f are the 127 subnormal ones.
  grep -q '"covered": 65536,' "$work/trunc-$framing.json" || fail "$framing sweep did not judge 65536 inputs"
  grep -q '"mismatches": 32639,' "$work/trunc-$framing.json" || fail "$framing sweep: not the 32639 truncations"
  grep -q '"subnormal-input:off-by-one-ulp": 127' "$work/trunc-$framing.json" || fail "$framing sweep: subnormals"
done
sed 's/ --text-only//' "$work/trunc-text.json" | cmp -s - "$work/trunc-binary.json" \
  || fail "binary and text framing gave different reports"

# An adapter that dies on one batch (3f7fffbf = 257 * 4145343 is on the stride) loses that batch
# only: the sweep goes on and says why.
"$nc" sweep convert.F32_TO_BF16_RNE --target "pipe:$trunc --die-at 3f7fffbf" --stride 257 --jobs 2 \
  --json "$work/die.json" > "$work/die.txt"
[ $? -eq 1 ] || fail "a dying adapter's sweep should exit 1"
grep -q '"errored": 65536,' "$work/die.json" || { cat "$work/die.txt"; fail "exactly the dying batch should be lost"; }
grep -q 'adapter failed on .bin convert F32_TO_BF16_RNE 65536' "$work/die.txt" || fail "the failure does not name the request"
grep -q '"covered": 16646400,' "$work/die.json" || fail "the sweep did not go on past the dying batch"

# A lying adapter (one token whatever the request) fails every batch: reported, not a crash.
"$nc" sweep decode.E4M3FN --target "pipe:$src/tests/runners/lying_adapter.sh" > "$work/liar.txt"
[ $? -eq 1 ] || fail "a lying adapter's sweep should exit 1"
grep -q 'wrong token count' "$work/liar.txt" || { cat "$work/liar.txt"; fail "the lie is not named"; }
# One that dies on the first line after hello (the binary framing question) is reported with how it
# ended, not as "adapter is not running".
"$nc" sweep decode.E4M3FN --target "pipe:sh $src/tests/runners/hostile_adapter.sh die" > "$work/die3.txt"
[ $? -eq 1 ] || fail "a dying adapter's sweep should exit 1"
grep -q 'adapter exited with status 3' "$work/die3.txt" || { cat "$work/die3.txt"; fail "how the adapter ended is not named"; }
"$nc" sweep reconstruct.NVFP4 --target "pipe:$trunc" > /dev/null 2>&1
[ $? -eq 2 ] || fail "a pipe target cannot sweep reconstruct domains: usage error"

# A target that declines every input offered tested nothing: exit 1, not a pass, and the report is
# still written. The truncating adapter provides neither of these; 1 in 4096 reaches word 0 of the
# 16 E2M1 words and 2^32 / 4096 = 1048576 binary32 inputs: 1048577 declined.
"$nc" sweep decode.E2M1 convert.F32_TO_E2M1_RNE_SATFINITE --target "pipe:$trunc" --stride 4096 \
  --json "$work/declined.json" > /dev/null 2> "$work/declined.txt"
[ $? -eq 1 ] && grep -q '^sweep: nothing was judged: the target declined all 1048577 inputs it was offered$' "$work/declined.txt" \
  || { cat "$work/declined.txt"; fail "a sweep that judged nothing must exit 1 and say why"; }
grep -q '"unsupported": 1048576' "$work/declined.json" || fail "the declined sweep's report must still be written"
echo "sweep CLI: all checks passed"
