#!/usr/bin/env bash
# The profile report (runners/sweep/profiles.h) names each catalogue mutant whose mistake is a whole
# profile of a conversion (docs/mutants.md, "Profiles"): the sweep of the domain it breaks says the
# target matches that profile exactly, or has it as the nearest; the control (the codec's own table
# through the same plugin path) matches the recipe exactly.
# Usage: profile_test.sh NINFER_CONFORM MUTANT_DIR
set -u
nc=$1 dir=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failed=0
check() {  # PLUGIN DOMAIN PROFILE
  "$nc" sweep "$2" --target "plugin:$dir/$1.so" --stride 65521 --jobs 1 --json "$work/r.json" > "$work/out.txt"
  got=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["geometry"]["profile"]
print(p["exact"] or p["nearest"])' "$work/r.json")
  if [ "$got" != "$3" ]; then
    echo "FAIL: $1 on $2: profile '$got', expected '$3'"; grep profile: "$work/out.txt"; failed=1
  else
    echo "ok: $1 on $2: $(grep -m1 profile: "$work/out.txt" | sed 's/^ *//')"
  fi
}
check mutant-f32-to-bf16-truncate convert.F32_TO_BF16_RNE "truncation"
check mutant-f32-to-bf16-ties-away convert.F32_TO_BF16_RNE "ties away from zero"
check mutant-f32-to-f16-overflow-65504 convert.F32_TO_F16_RNE "overflow at the largest finite value"
check mutant-f32-to-f16-ftz convert.F32_TO_F16_RNE "FTZ"
check mutant-e4m3-satfinite-as-ovf-nan convert.F32_TO_E4M3FN_RNE_SATFINITE "F32_TO_E4M3FN_RNE_OVF_NAN"
check mutant-f32-to-e4m3-through-f16 convert.F32_TO_E4M3FN_RNE_SATFINITE "double rounding through binary16"
check mutant-bf16-nan-canonicalized decode.BF16 "NaN canonicalised"
for d in convert.F32_TO_BF16_RNE:F32_TO_BF16_RNE convert.F32_TO_F16_RNE:F32_TO_F16_RNE \
         convert.F32_TO_E4M3FN_RNE_SATFINITE:F32_TO_E4M3FN_RNE_SATFINITE \
         convert.F32_TO_E4M3FN_RNE_OVF_NAN:F32_TO_E4M3FN_RNE_OVF_NAN \
         convert.F32_TO_E2M1_RNE_SATFINITE:F32_TO_E2M1_RNE_SATFINITE "decode.BF16:decode BF16"; do
  check control-codec "${d%%:*}" "${d#*:}"
done
exit $failed
