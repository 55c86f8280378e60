#!/usr/bin/env bash
# Runs one libFuzzer harness: replays its regression inputs (regressions/<harness>/), builds a seed
# corpus (from vectors/ for the suite reader and the manifest, hand-written protocol answers and
# tokens for the others), then fuzzes for SECONDS. Exit non-zero on any crash, sanitizer report
# or failed property; the input that did it is left in WORK/ as crash-* (see README.md).
# usage: run-fuzzer.sh FUZZER KIND WORK SECONDS [extra libFuzzer flags...]
set -euo pipefail
fuzzer=$1 kind=$2 work=$3 seconds=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
vectors=$here/../../vectors
name=$(basename "$fuzzer")
mkdir -p "$work/seeds" "$work/corpus"
seeds=$work/seeds
rm -f "$seeds"/*
max_len=4096
case $kind in
  suites)
    # Whole small suites, and the header plus the first records of every suite.
    for f in "$vectors"/*.vec.zst; do
      s=$(basename "$f" .vec.zst)
      zstd -q -dc "$f" >"$work/text"
      head -n 48 "$work/text" >"$seeds/$s.head"
      if [ "$(stat -c %s "$work/text")" -lt 16384 ]; then mv "$work/text" "$seeds/$s.whole"; fi
    done
    max_len=16384 ;;
  manifest)
    cp "$vectors/MANIFEST.json" "$seeds/MANIFEST.json"
    max_len=16384 ;;
  pipe)
    # Byte 0: bit i set = request i is a binary batch; byte 1: element count - 1; then the answers.
    printf '\x00\x02ok 3f800000 00000000 7fc00000\n' >"$seeds/text-ok"
    printf '\x00\x00unsupported\n' >"$seeds/text-unsupported"
    printf '\x00\x00error bad word\n' >"$seeds/text-error"
    printf '\x00\x01ok 3f800000\nok 1 2\n' >"$seeds/text-extra-answer"
    printf '\x00\x00ok 3f800000\nunsupported\nerror x\nok 00000000\n' >"$seeds/text-four"
    printf '\x01\x00ok\nok\n\x00\x00\x80\x3f\x01' >"$seeds/bin-ok"
    printf '\x03\x00ok\nok\n\x00\x00\x80\x3f\x01ok\n\x00\x00\x80\x3f\x00' >"$seeds/bin-two"
    printf '\x05\x00ok\nok\n\x00\x00\x80\x3f\x01ok 3f800000\nok\n\x00\x00\x80\x3f\x01' >"$seeds/bin-text-bin"
    printf '\x01\x01ok\nok\n\x00\x00\x80' >"$seeds/bin-short"
    printf '\x01\x00no\n' >"$seeds/bin-refused"
    printf '\x01\x00ok\nerror nope\n' >"$seeds/bin-error" ;;
  tokens)
    for t in 7e 0x7e 3f800000 FFFFFFFFFFFFFFFF 10000000000000000 -9223372036854775808 \
             9223372036854775807 -0 00012 3x130 0x0 x 1,2,3 - ,, ''; do
      printf '%s' "$t" >"$seeds/tok-$(printf '%s' "$t" | od -An -tx1 | tr -d ' \n')"
    done ;;
  *) echo "run-fuzzer.sh: unknown seed kind $kind" >&2; exit 2 ;;
esac
regressions=$here/regressions/$name
if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
  echo "== $name: regression inputs"
  "$fuzzer" "$regressions"/*
fi
echo "== $name: fuzzing for $seconds s (corpus $work/corpus)"
# -use_value_profile: comparisons guide the search (magic words, hex digits, header keywords).
exec "$fuzzer" -max_total_time="$seconds" -max_len="$max_len" -timeout=30 -rss_limit_mb=2048 \
  -use_value_profile=1 -print_final_stats=1 -artifact_prefix="$work/" "$@" "$work/corpus" "$seeds"
