#!/usr/bin/env bash
# `replay --target cpu` and `generate --check` under FTZ/DAZ and each non-default rounding direction
# (set before main() by the preloaded fpenv_preload.so) must print exactly what they print in the
# default environment. A probe first shows the preload really changes the environment, so the
# test cannot pass by running everything in the default one.
# usage: fpenv_test.sh NINFER_CONFORM PRELOAD_SO
set -euo pipefail
tool=$1 preload=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# Probe: python's float division and multiplication use the hardware environment. 1/3 rounds down
# to nearest, 1/10 up, so each direction changes one of them; DAZ turns the subnormal into 0.
probe() { env NC_TEST_FPENV="$1" LD_PRELOAD="$preload" python3 -c 'x = 3.0; print(1.0/x, 1.0/(x*x+1.0), -1.0/x, 5e-324*1.0)'; }
default_probe=$(probe "")
for mode in ftz-daz upward downward towardzero; do
  if [ "$(probe "$mode")" = "$default_probe" ]; then
    echo "FAIL: the preload did not change the environment for $mode (probe: $default_probe)"; fail=1
  fi
done

run_all() {  # mode -> $work/<mode>.{replay,check}
  local mode=$1 rc
  set +e
  env NC_TEST_FPENV="$mode" LD_PRELOAD="$preload" "$tool" replay --target cpu >"$work/$mode.replay" 2>&1
  echo "exit $?" >>"$work/$mode.replay"
  # Timings ("(3.2 s)") are the only part of the check summary that may differ.
  env NC_TEST_FPENV="$mode" LD_PRELOAD="$preload" "$tool" generate --check --jobs 2 2>&1 | sed 's/([0-9.]* s)//' >"$work/$mode.check"
  echo "exit ${PIPESTATUS[0]}" >>"$work/$mode.check"
  set -e
}
run_all ""
grep -q "^exit 0" "$work/.replay" || { echo "FAIL: replay in the default environment:"; cat "$work/.replay"; fail=1; }
grep -q "^exit 0" "$work/.check" || { echo "FAIL: generate --check in the default environment:"; cat "$work/.check"; fail=1; }
for mode in ftz-daz upward downward towardzero; do
  run_all "$mode"
  for what in replay check; do
    if cmp -s "$work/.$what" "$work/$mode.$what"; then
      echo "ok: $what under $mode is identical to the default environment"
    else
      echo "FAIL: $what under $mode differs from the default environment:"
      diff "$work/.$what" "$work/$mode.$what" | head -20
      fail=1
    fi
  done
done
exit $fail
