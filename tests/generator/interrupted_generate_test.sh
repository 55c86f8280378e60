#!/usr/bin/env bash
# `generate` killed with SIGKILL at each step of the corpus write and at arbitrary moments, and two
# `generate` runs on one folder at once: afterwards the folder is always either the old corpus byte
# for byte or the complete new one (corpus/writer.h). NC_TEST_KILL_AT names the step at which the
# writer kills itself (corpus/writer.cc); the arbitrary moments are plain kill -9 from here.
# usage: interrupted_generate_test.sh NINFER_CONFORM
set -uo pipefail
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
gen() { "$tool" generate --suite 'decode.E*' --jobs 1 --out "$@"; }

# Every path, then every file's hash: equal listings mean equal trees, byte for byte.
state() { (cd "$1" 2>/dev/null && find . | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) || echo "(no folder)"; }

# The old corpus: one suite, plus a file generate does not own. The new one: two suites.
"$tool" generate --suite decode.E2M1 --jobs 1 --out "$work/old" >/dev/null || exit 1
echo "kept by generate" >"$work/old/NOTES.txt"
cp -a "$work/old" "$work/new"
gen "$work/new" >/dev/null || exit 1
old=$(state "$work/old") new=$(state "$work/new")
[ "$old" != "$new" ] || { echo "FAIL: old and new corpus are the same"; exit 1; }
cmp -s "$work/new/NOTES.txt" "$work/old/NOTES.txt" || { echo "FAIL: generate lost NOTES.txt"; fail=1; }

verdict() {  # what D holds: old, new, or neither
  local s; s=$(state "$work/D")
  if [ "$s" = "$old" ]; then echo old; elif [ "$s" = "$new" ]; then echo new; else echo neither; fi
}
leftovers() { find "$work" -maxdepth 1 -name '.D.staging-*' | wc -l; }

for point in locked copied suites-written staged exchanged; do
  rm -rf "$work/D" && cp -a "$work/old" "$work/D"
  NC_TEST_KILL_AT=$point gen "$work/D" >/dev/null 2>&1
  rc=$?
  want=old; [ "$point" = exchanged ] && want=new
  got=$(verdict)
  if [ "$rc" -ne 137 ] || [ "$got" != "$want" ]; then
    echo "FAIL: killed at $point (exit $rc): folder is $got, expected $want"; fail=1
  else
    echo "ok: killed at $point: folder is the $got corpus byte for byte"
  fi
  # The next run completes the job and clears what the killed one left beside the folder.
  gen "$work/D" >/dev/null 2>&1 || { echo "FAIL: generate after a kill at $point failed"; fail=1; }
  [ "$(verdict)" = new ] && [ "$(leftovers)" -eq 0 ] || { echo "FAIL: after a kill at $point, a new run left $(verdict) / $(leftovers) staging dirs"; fail=1; }
done

# A folder that does not exist yet stays absent until the new corpus is complete.
rm -rf "$work/D"
NC_TEST_KILL_AT=staged gen "$work/D" >/dev/null 2>&1
[ "$(state "$work/D")" = "(no folder)" ] || { echo "FAIL: a killed first generate left a folder"; fail=1; }

# kill -9 from outside at moments spread over a run (any state old or new is fine; never a mix).
declare -A seen=()
for delay in 0 0.01 0.03 0.06 0.1 0.15 0.2 0.3 0.45 0.6 0.8 1.0 1.5 2.0; do
  rm -rf "$work/D" && cp -a "$work/old" "$work/D"
  "$tool" generate --suite 'decode.E*' --jobs 1 --out "$work/D" >/dev/null 2>&1 &  # $! is the tool itself
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  got=$(verdict)
  seen[$got]=$(( ${seen[$got]:-0} + 1 ))
  [ "$got" != neither ] || { echo "FAIL: kill -9 after ${delay}s left a folder that is neither corpus"; fail=1; }
done
echo "ok: kill -9 at 14 moments: ${seen[old]:-0} old, ${seen[new]:-0} new, ${seen[neither]:-0} neither"

# Two runs at once: each finishes or is refused for the lock, changing nothing; the folder ends new.
for round in 1 2 3; do
  rm -rf "$work/D" && cp -a "$work/old" "$work/D"
  gen "$work/D" >"$work/a.out" 2>&1 & a=$!
  gen "$work/D" >"$work/b.out" 2>&1 & b=$!
  wait $a; ra=$?
  wait $b; rb=$?
  for x in "$ra:$work/a.out" "$rb:$work/b.out"; do
    rc=${x%%:*} out=${x#*:}
    if [ "$rc" -ne 0 ] && ! { [ "$rc" -eq 2 ] && grep -q "another process is writing this corpus" "$out"; }; then
      echo "FAIL: concurrent run exited $rc:"; cat "$out"; fail=1
    fi
  done
  [ "$ra" -eq 0 ] || [ "$rb" -eq 0 ] || { echo "FAIL: both concurrent runs were refused"; fail=1; }
  [ "$(verdict)" = new ] || { echo "FAIL: after two concurrent runs the folder is $(verdict)"; fail=1; }
  echo "ok: concurrent round $round: exits $ra and $rb, folder is the new corpus"
done
exit $fail
