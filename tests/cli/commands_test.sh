#!/usr/bin/env bash
# Every command that takes options reads them with the one grammar of cli/options.h: an unknown
# option, an option given twice, a value missing and a value given to a flag are refused with exit
# 2 and the same reason; --opt=value works everywhere.
# Usage: commands_test.sh path/to/ninfer-conform SOURCE_DIR
set -u
bin="$1" src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
refused() {  # refused REASON ARGS...: exit 2, and standard error names REASON
  local reason="$1"; shift
  "$bin" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [ $rc -eq 2 ] || { fail "'$*' exited $rc, want 2"; return; }
  grep -qF -- "$reason" "$work/err" || fail "'$*' does not say '$reason': $(head -c 300 "$work/err")"
}
accepted() {  # accepted ARGS...: exit 0
  "$bin" "$@" >"$work/out" 2>"$work/err" || fail "'$*' exited $?: $(head -c 300 "$work/err")"
}

# command words | a single-valued option | a value for it
while IFS='|' read -r cmd opt value; do
  # shellcheck disable=SC2086  # cmd is several words on purpose
  refused "unknown option '--bogus'" $cmd --bogus 1
  refused "unknown option '--bogus'" $cmd --bogus=1
  refused "$opt given twice" $cmd "$opt" "$value" "$opt=$value"
  refused "$opt needs a value" $cmd "$opt"
  refused "$opt needs a value (found the option --bogus)" $cmd "$opt" --bogus
done <<LIST
replay|--corpus|$work
certify|--out|$work/c
sweep decode.E4M3FN|--json|$work/s.json
merge $work/r.json|--json|$work/m.json
generate|--jobs|1
lint|--corpus|$work
show decode.E4M3FN|--case|x
diff $work $work|--limit|3
mutants|--dir|$work
encode Q4G64_F16S 3f800000|--src|FP32
LIST

refused "--check takes no value" generate --check=yes
refused "--unverified takes no value" show decode.E4M3FN --unverified=1
refused "unexpected argument 'stray'" lint stray
refused "unexpected argument 'stray'" generate stray
refused "--jobs takes a whole number from 1 to 1024, not '0'" sweep decode.E4M3FN --target cpu --jobs 0
refused "--jobs takes a whole number from 1 to 256, not '2x'" generate --jobs=2x
refused "--limit takes a whole number of at least 0, not '-3'" diff "$work" "$work" --limit -3
refused "--out and --corpus name the same folder" generate --out "$work" --corpus "$work"
refused "--timeout takes a whole number of at least 1, not '5s'" mutants --timeout 5s

accepted encode Q4G64_F16S 3c00 --src=F16
accepted sweep decode.E4M3FN --target=cpu --jobs=1 --json="$work/s.json"
accepted generate --check --suite=decode.E4M3FN --out="$src/vectors" --jobs=1
accepted show decode.E4M3FN --corpus="$src/vectors" --unverified --tag=nan
accepted diff --limit=0 "$src/vectors" "$src/vectors"

[ $fails -eq 0 ] && echo "all commands share one grammar"
exit $((fails > 0))
