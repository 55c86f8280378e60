#!/usr/bin/env bash
# The issue 32 sweep domains: validate-tensor.*, parse.registry and reconstruct.NVFP4.divisors judge
# the CPU codec conformant, and each finds its mutant (the class the sweep names), which the corpus
# before issue 32 let through, also through the pipe protocol (the plugin host as the adapter); an
# adapter without the op declines; the reconstruct domains are refused for a pipe target.
#   tensor_domains_test.sh NINFER_CONFORM MUTANT_DIR
set -u
bin=$1
mutants=$2
here=$(cd "$(dirname "$0")" && pwd)
fail=0
check() {  # check WHAT EXPECTED_RC GREP_PATTERN -- command...
  local what=$1 want=$2 pattern=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -ne $want ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $what (exit $rc, wanted $want; pattern '$pattern')"
    echo "$out" | tail -20
    fail=1
  else
    echo "ok: $what"
  fi
}
check "cpu conformant on every new domain" 0 "parse.registry +97195 inputs \(100% of the domain\)  0 mismatches" -- \
  "$bin" sweep validate-tensor parse reconstruct.NVFP4.divisors --target cpu --jobs 2
check "largest finite scale reported non-finite" 1 "partial-group:positive-max-finite:rejected" -- \
  "$bin" sweep validate-tensor.Q4G64_F16S --target "plugin:$mutants/mutant-tensor-max-scale-nonfinite.so"
check "FP8 row: largest finite BF16 scale" 1 "positive-max-finite:rejected" -- \
  "$bin" sweep validate-tensor.FP8_E4M3FN_ROW_BF16S --target "plugin:$mutants/mutant-tensor-max-scale-nonfinite.so"
check "signalling-NaN divisor accepted" 1 "divisor:positive-signalling-nan:accepted +3" -- \
  "$bin" sweep validate-tensor.NVFP4 --target "plugin:$mutants/mutant-tensor-snan-divisor.so"
check "BOM stripped" 1 "bom:accepted" -- \
  "$bin" sweep parse.registry --target "plugin:$mutants/mutant-registry-bom-stripped.so"
check "multiplier form 2 ulp off" 1 "normal-result:2-ulp" -- \
  "$bin" sweep reconstruct.NVFP4.divisors --target "plugin:$mutants/mutant-nvfp4-reciprocal-multiplier.so"
# Through the pipe protocol's text requests: the plugin host serves a mutant as a pipe adapter.
check "pipe: BOM stripped" 1 "bom:accepted" -- \
  "$bin" sweep parse.registry --target "pipe:$bin plugin-host $mutants/mutant-registry-bom-stripped.so"
check "pipe: signalling-NaN divisor accepted" 1 "divisor:positive-signalling-nan:accepted +3" -- \
  "$bin" sweep validate-tensor.NVFP4 --target "pipe:$bin plugin-host $mutants/mutant-tensor-snan-divisor.so"
check "pipe: codec conformant" 0 "validate-tensor.FP8_E4M3FN_ROW_BF16S +196608 inputs \(100% of the domain\)  0 mismatches" -- \
  "$bin" sweep validate-tensor.FP8_E4M3FN_ROW_BF16S --target "pipe:$bin plugin-host $mutants/control-codec.so" --jobs 2
# An adapter without the ops answers `unsupported`: every input is counted unsupported, no
# mismatch, and sweep's usual "nothing was judged" (exit 1: no verdict from nothing).
check "pipe: adapter without parse declines" 1 "declined all 97195 inputs.*|0 mismatches  97195 unsupported" -- \
  "$bin" sweep parse.registry --target "pipe:python3 $here/truncating_adapter.py"
check "pipe: reconstruct domains refused" 2 "a pipe target sweeps the convert.\*, decode.\*, validate-tensor.\* and parse.\* domains only, not reconstruct.NVFP4.divisors" -- \
  "$bin" sweep reconstruct.NVFP4.divisors --target "pipe:python3 $here/truncating_adapter.py"
exit $fail
