#!/usr/bin/env bash
# The runner where it meets the file system and other users (issue 35): report temporaries that a
# planted link cannot redirect, reports that cannot overwrite the corpus or each other, one
# manifest reader for every command, certificates written as one unit, failed writes to standard
# output, MODIFIED on every verdict of a modified corpus, paths printed escaped.
# Usage: hostile_env_test.sh path/to/ninfer-conform SOURCE_DIR [GOOD_PLUGIN.so WRONG_BIT_PLUGIN.so]
set -u
bin="$1" src="$2" plugin_good="${3:-}" plugin_wrong="${4:-}"
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fails=0 cases=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect() {  # expect RC REASON ARGS...: exit RC within 60 s, and stdout+stderr say REASON ("" for any)
  local want="$1" reason="$2"; shift 2
  cases=$((cases + 1))
  timeout 60 "$bin" "$@" >"$work/out" 2>"$work/err" </dev/null
  local rc=$?
  [ $rc -eq "$want" ] || { fail "'$*' exited $rc, want $want: $(head -c 400 "$work/err")"; return; }
  [ -z "$reason" ] || cat "$work/out" "$work/err" | grep -qF -- "$reason" ||
    fail "'$*' does not say '$reason': $(head -c 400 "$work/err")"
}

# A small corpus of one suite (a copy: not the official one).
small="$work/small"
mkdir "$small"
cp "$src/vectors/decode.E4M3FN.vec.zst" "$small/"
python3 - "$src/vectors/MANIFEST.json" "$small/MANIFEST.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["suites"] = [s for s in m["suites"] if s["suite"] == "decode.E4M3FN"]
open(sys.argv[2], "w").write(json.dumps(m, indent=2) + "\n")
EOF
expect 0 "CONFORMANT for decode.E4M3FN" replay --target cpu --corpus "$small" --jobs 1

# 1. A planted `.NAME.tmp` link (the old temporary's name) is never opened: the victim keeps its
# bytes and the report lands where asked.
mkdir "$work/out1"
echo "victim" >"$work/victim"
ln -s "$work/victim" "$work/out1/.r.json.tmp"
expect 0 "" replay --target cpu --corpus "$small" --jobs 1 --json "$work/out1/r.json"
[ "$(cat "$work/victim")" = victim ] || fail "a planted .r.json.tmp link redirected the report into its target"
grep -q '"suites"' "$work/out1/r.json" || fail "the report was not written"
ls -a "$work/out1" | grep -v '^\.\{1,2\}$' | grep -qv '^r.json$\|^.r.json.tmp$' &&
  fail "a temporary was left behind: $(ls -a "$work/out1")"
ln -s "$work/victim" "$work/out1/.certificate.json.tmp"

# 2. Reports inside the corpus being read, and two reports into one file, are refused.
expect 2 "inside the corpus being read" replay --target cpu --corpus "$small" --json "$small/MANIFEST.json"
expect 2 "inside the corpus being read" replay --target cpu --corpus "$small" --junit "$small/new.vec.zst"
ln -s "$small/MANIFEST.json" "$work/m-link.json"
expect 2 "inside the corpus being read" replay --target cpu --corpus "$small" --json "$work/m-link.json"
expect 2 "inside the corpus being read" certify --target cpu --corpus "$small" --allow-modified-corpus --out "$small"
# Not beside the suites either, nor in a folder of the corpus, nor through a link into it
# (issue 35 item 2 as asked: any output path inside the corpus folder).
expect 2 "inside the corpus being read" replay --target cpu --corpus "$small" --json "$small/report.json"
expect 2 "inside the corpus being read" replay --target cpu --corpus "$small" --junit "$small/sub/j.xml"
ln -s "$small" "$work/corpus-link"
expect 2 "inside the corpus being read" replay --target cpu --corpus "$small" --json "$work/corpus-link/r.json"
expect 2 "inside the corpus being read" certify --target cpu --corpus "$small" --allow-modified-corpus --out "$small/cert"
expect 2 "inside the corpus being read" certify --target cpu --corpus "$small" --allow-modified-corpus --out "$work/c-html" --html "$small/c.html"
expect 2 "inside the corpus being read" certify --target cpu --corpus "$work/corpus-link" --allow-modified-corpus --out "$small/cert"
[ -e "$small/report.json" ] || [ -e "$small/sub" ] || [ -e "$small/cert" ] && fail "a report inside the corpus was written"
expect 2 "names the same file as" replay --target cpu --corpus "$small" --json "$work/x" --junit "$work/x"
expect 2 "names the same file as" replay --target cpu --corpus "$small" --json "$work/x" --junit "$work/./x"
[ -e "$small/new.vec.zst" ] || [ -e "$work/x" ] && fail "a refused report was written"
expect 0 "" replay --target cpu --corpus "$small" --jobs 1 --json /dev/null --junit /dev/null

# 3. One manifest reader: not a regular file, too big, no suites; the text hash and the frame
# checksum are checked by replay as by lint.
bad="$work/bad"
mkdir "$bad"
cp "$small/decode.E4M3FN.vec.zst" "$bad/"
ln -s /dev/zero "$bad/MANIFEST.json"
expect 2 "not a regular file" replay --target cpu --corpus "$bad"
expect 2 "not a regular file" certify --target cpu --corpus "$bad" --allow-modified-corpus --out "$work/c3"
expect 2 "not a regular file" lint --corpus "$bad"
rm "$bad/MANIFEST.json"
mkfifo "$bad/MANIFEST.json"
expect 2 "not a regular file" replay --target cpu --corpus "$bad"
expect 2 "not a regular file" certify --target cpu --corpus "$bad" --allow-modified-corpus --out "$work/c3"
rm "$bad/MANIFEST.json"
{ cat "$small/MANIFEST.json"; head -c 2000000 /dev/zero | tr '\0' ' '; } >"$bad/MANIFEST.json"
expect 2 "bytes, more than the" replay --target cpu --corpus "$bad"
expect 2 "bytes, more than the" lint --corpus "$bad"
python3 - "$small/MANIFEST.json" "$bad/MANIFEST.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1])); m["suites"] = []
open(sys.argv[2], "w").write(json.dumps(m, indent=2) + "\n")
EOF
expect 2 "lists no suites" lint --corpus "$bad"
expect 2 "lists no suites" replay --target cpu --corpus "$bad"
python3 - "$small/MANIFEST.json" "$bad/MANIFEST.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1])); m["suites"][0]["text_sha256"] = "0" * 64
open(sys.argv[2], "w").write(json.dumps(m, indent=2) + "\n")
EOF
expect 2 "" lint --corpus "$bad"
expect 2 "manifest expects 0000000000000000" replay --target cpu --corpus "$bad" --jobs 1

# 6. A certificate is one unit; a FIFO where a certificate file goes is refused at once.
cert="$work/cert"
expect 0 "CONFORMANT" certify --target cpu --corpus "$small" --allow-modified-corpus --out "$cert" --jobs 1
[ -f "$cert/certificate.json" ] && [ -f "$cert/certificate.md" ] || fail "certify did not write both files"
echo keep >"$cert/expected-findings.json"
expect 0 "" certify --target cpu --corpus "$small" --allow-modified-corpus --out "$cert" --jobs 1
[ "$(cat "$cert/expected-findings.json" 2>/dev/null)" = keep ] || fail "certify lost a file of its --out folder"
ls -a "$work" | grep -q '\.cert\.staging' && fail "a staged certificate folder was left behind"
mkdir "$work/fifo"
mkfifo "$work/fifo/certificate.md"
expect 2 "is not a regular file" certify --target cpu --corpus "$small" --allow-modified-corpus --out "$work/fifo"
[ -e "$work/fifo/certificate.json" ] && fail "certify wrote half a certificate beside a FIFO"

# 7. A failed write to standard output is exit 2 with the reason, for every command.
if [ -w /dev/full ]; then
  for args in "replay --target cpu --corpus $small --jobs 1" "lint --corpus $small" \
              "show decode.E4M3FN --corpus $small" "--version" "--help" "sweep decode.E4M3FN --target cpu --jobs 1"; do
    cases=$((cases + 1))
    # shellcheck disable=SC2086  # args is several words on purpose
    "$bin" $args >/dev/full 2>"$work/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "cannot write standard output: No space left on device" "$work/err" ||
      fail "'$args > /dev/full' exited $rc: $(head -c 300 "$work/err")"
  done
fi
cases=$((cases + 1))
"$bin" lint --corpus "$small" >&- 2>"$work/err"
rc=$?
[ $rc -eq 2 ] && grep -q "cannot write standard output" "$work/err" || fail "lint with standard output closed exited $rc"

# 8. A modified corpus says MODIFIED in the overall verdict, the verdict line and JUnit.
grep -q '^| overall | conformant (MODIFIED corpus) |' "$cert/certificate.md" ||
  fail "certificate.md overall: $(grep overall "$cert/certificate.md")"
grep '^| verdict |' "$cert/certificate.md" | grep -q "MODIFIED" || fail "certificate.md verdict line lacks MODIFIED"
grep -q '"overall": "conformant (MODIFIED corpus)"' "$cert/certificate.json" || fail "certificate.json overall lacks MODIFIED"
expect 0 "" replay --target cpu --corpus "$small" --jobs 1 --junit "$work/j.xml"
grep 'name="verdict"' "$work/j.xml" | grep -q "MODIFIED corpus" || fail "JUnit verdict lacks MODIFIED"
grep '^CONFORMANT' "$work/out" | grep -q "MODIFIED corpus" || fail "the replay verdict line lacks MODIFIED"
expect 0 "" replay --target cpu --corpus "$src/vectors" --suite decode.E4M3FN --jobs 1
grep '^CONFORMANT' "$work/out" | grep -q MODIFIED && fail "the official corpus is called MODIFIED"

# 5. A certificate binds its identity and digest; verify checks them and the files' consistency.
expect 0 "certificate checks" verify "$cert"
grep -q '"build_sha256": "[0-9a-f]\{64\}"' "$cert/certificate.json" || fail "certificate.json has no build id"
grep -q '"kind": "cpu"' "$cert/certificate.json" || fail "certificate.json does not name the target kind"
grep -q '"command_line"' "$cert/certificate.json" || fail "certificate.json has no command line"
# The library versions and configuration a target reports (PIPE.md `info 1`) are in the identity.
cat >"$work/info_adapter.sh" <<'EOF2'
while read -r line; do
  case $line in
    hello*) echo "ok info-adapter 2.5" ;;
    "info 1") echo "ok libexample=2.5.1 blas=openblas-0.3.21 threads=1" ;;
    *) echo unsupported ;;
  esac
done
EOF2
expect 1 "" certify --target "pipe:sh $work/info_adapter.sh" --corpus "$small" --allow-modified-corpus --out "$work/cert-info" --jobs 1
python3 - "$work/cert-info/certificate.json" <<'EOF2' || fail "the identity lacks the versions the target reported"
import json, sys
t = json.load(open(sys.argv[1]))["identity"]["target"]
assert t["info"] == {"libexample": "2.5.1", "blas": "openblas-0.3.21", "threads": "1"}, t
assert t["reports"] == {"name": "info-adapter", "version": "2.5"}, t
EOF2
cp -r "$cert" "$work/forged"
sed -i 's/"conformant": true/"conformant": false/' "$work/forged/certificate.json"
expect 1 "certificate.json: sha256" verify "$work/forged"
(cd "$work/forged" && sha256sum certificate.json certificate.md >certificate.sha256)
expect 1 "conformant is false, overall says conformant" verify "$work/forged"
expect 2 "certificate.sha256" verify "$work/nothing-here"
# A folder copied without its digest: --write-digest writes the one certify wrote, byte for byte.
cp -r "$cert" "$work/undigested"
rm "$work/undigested/certificate.sha256"
expect 2 "certificate.sha256" verify "$work/undigested"
expect 0 "certificate checks" verify --write-digest "$work/undigested"
cmp -s "$cert/certificate.sha256" "$work/undigested/certificate.sha256" ||
  fail "verify --write-digest did not write the digest certify wrote"
expect 2 "usage" verify --write-digest
# verify --rerun certifies again as the identity says and names each difference.
expect 0 "its re-run agrees" verify "$cert" --rerun
if [ -n "$plugin_good" ]; then
  cp "$plugin_good" "$work/p.so"
  expect 0 "" certify --target "plugin:$work/p.so" --corpus "$small" --allow-modified-corpus --out "$work/cert-p" --jobs 1
  expect 0 "its re-run agrees" verify "$work/cert-p" --rerun
  cp "$plugin_wrong" "$work/p.so"  # the same path, another library: one result bit flipped
  expect 1 "re-run differs: suite decode.E4M3FN fail: certificate 0, re-run 1" verify "$work/cert-p" --rerun
  grep -q "re-run differs: conformant: certificate true, re-run false" "$work/out" || fail "verify --rerun does not name the verdict"
  grep -q "re-run differs: identity target" "$work/out" || fail "verify --rerun does not name the changed .so"
  rm "$work/p.so"
  expect 2 "ended without a certificate" verify "$work/cert-p" --rerun

  # A sweep report is held to the replay of the same certification: a hand-edited report claiming 0
  # mismatches in decode.E4M3FN while the replay fails decode.E4M3FN's 0x38 is refused, naming both.
  cp "$plugin_wrong" "$work/w.so"
  cases=$((cases + 1))
  "$bin" sweep decode.E4M3FN --target "plugin:$work/w.so" --jobs 1 --json "$work/w-sweep.json" >/dev/null 2>&1
  [ $? -eq 1 ] || fail "the wrong-bit sweep did not find its mismatch"
  expect 1 "NOT CONFORMANT" certify --target "plugin:$work/w.so" --corpus "$small" --allow-modified-corpus --jobs 1 \
    --sweep-report "$work/w-sweep.json" --out "$work/cert-w"
  python3 - "$work/w-sweep.json" "$work/w-edited.json" <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))
r["mismatches"], r["classes"], r["first"] = 0, {}, []
r["cells"]["mismatches"] = "0*256"
json.dump(r, open(sys.argv[2], "w"), indent=2)
EOF2
  expect 2 "the sweep report of decode.E4M3FN claims 0 mismatches, but this certification's" certify \
    --target "plugin:$work/w.so" --corpus "$small" --allow-modified-corpus --jobs 1 --sweep-report "$work/w-edited.json" --out "$work/cert-w2"
  grep -q "w-edited.json" "$work/err" && grep -q "(first: decode.E4M3FN:.*word=38" "$work/err" ||
    fail "the refusal does not name the report and the failed case: $(head -c 400 "$work/err")"
  [ -e "$work/cert-w2" ] && fail "a certificate was written on a contradicted sweep report"
fi
if command -v ssh-keygen >/dev/null; then
  # Detached signatures with a standard tool (docs/certifications/README.md), no crypto of ours.
  ssh-keygen -q -t ed25519 -N '' -C signer -f "$work/key" >/dev/null
  echo "signer $(cat "$work/key.pub")" >"$work/allowed"
  ssh-keygen -Y sign -q -f "$work/key" -n ninfer-conform-certificate "$cert/certificate.sha256" 2>/dev/null
  ssh-keygen -Y verify -f "$work/allowed" -I signer -n ninfer-conform-certificate -s "$cert/certificate.sha256.sig" \
    <"$cert/certificate.sha256" >/dev/null 2>&1 || fail "ssh-keygen does not verify the signed digest"
  ssh-keygen -Y verify -f "$work/allowed" -I signer -n ninfer-conform-certificate -s "$cert/certificate.sha256.sig" \
    <"$work/forged/certificate.sha256" >/dev/null 2>&1 && fail "ssh-keygen verified a forged digest"
fi

# 4. Files another process writes into the corpus folder while generate runs are kept: 257 new
# files, a foreign file rewritten with another mode, all while generate waits between its copy of
# the folder and its swap (NC_TEST_PAUSE_AT: the window the old code lost them in).
gen="$work/gen"
expect 0 "" generate --suite decode.E2M1 --out "$gen"
echo before >"$gen/notes.txt"
cases=$((cases + 1))
NC_TEST_PAUSE_AT="copied:$work/paused" "$bin" generate --suite decode.E2M1 --out "$gen" >"$work/gen.out" 2>&1 &
genpid=$!
for i in $(seq 600); do [ -e "$work/paused" ] && break; sleep 0.1; done
[ -e "$work/paused" ] || fail "generate did not reach its pause"
for i in $(seq 257); do echo "racer $i" >"$gen/racer-$i.txt"; done
echo after >"$gen/notes.txt.new" && chmod 600 "$gen/notes.txt.new" && mv "$gen/notes.txt.new" "$gen/notes.txt"
rm -f "$work/paused"
wait $genpid || fail "generate racing a writer failed: $(head -c 300 "$work/gen.out")"
n=$(ls "$gen" | grep -c '^racer-[0-9]*\.txt$')
[ "$n" -eq 257 ] || fail "generate kept $n of the 257 files written during its run"
[ "$(cat "$gen/racer-257.txt" 2>/dev/null)" = "racer 257" ] || fail "a file written during generate lost its bytes"
[ "$(cat "$gen/notes.txt")" = after ] && [ "$(stat -c %a "$gen/notes.txt")" = 600 ] ||
  fail "a file rewritten during generate is not as it was written: $(cat "$gen/notes.txt") $(stat -c %a "$gen/notes.txt")"
expect 0 "" lint --corpus "$gen"

# 11. A path holding a newline is printed escaped: it cannot forge a line of output.
nl="$work/evil
CONFORMANT for all 57 suites"
mkdir -p "$nl"
expect 2 "" replay --target cpu --corpus "$nl"
grep -q '^CONFORMANT for all 57 suites' "$work/out" "$work/err" && fail "a corpus path forged an output line"

# 11. A sweep that shards itself from CI variables says so last, and certify refuses its report.
cases=$((cases + 1))
GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=1 "$bin" sweep decode.E4M3FN --target cpu --jobs 1 --json "$work/shard.json" \
  >"$work/out" 2>&1 || fail "a sharded sweep failed: $(head -c 300 "$work/out")"
grep -q "^PARTIAL: shard 1/4 (from GoogleTest sharding" "$work/out" || fail "a sharded sweep does not say PARTIAL: $(tail -n 2 "$work/out")"
python3 - "$work/shard.json" <<'EOF2' || fail "a shard's JSON report does not say PARTIAL"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["partial"] is True and r["shard_fraction"] == 0.25 and r["scope"].startswith("PARTIAL: shard 1/4 covers inputs 64..128 of 256"), r
EOF2
grep -q "^decode.E4M3FN \[PARTIAL: shard 1/4: 64..128\]" "$work/out" || fail "the shard's summary line does not say PARTIAL: $(head -n 1 "$work/out")"
# A report whose "partial" was edited away (or whose shard was) is malformed, and not certified.
sed 's/"partial": true/"partial": false/' "$work/shard.json" >"$work/shard-edited.json"
expect 2 "does not agree with" certify --target cpu --corpus "$small" --allow-modified-corpus --jobs 1 --sweep-report "$work/shard-edited.json" --out "$work/cert-shard"
expect 2 "PARTIAL, only shard 1/4" certify --target cpu --corpus "$small" --allow-modified-corpus --jobs 1 --sweep-report "$work/shard.json" --out "$work/cert-shard"

echo "$cases cases"
[ $fails -eq 0 ] && echo "the runner holds in a hostile environment"
