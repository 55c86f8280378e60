#!/usr/bin/env bash
# CLI exit codes and key outputs of the codec commands. Usage: cli_test.sh path/to/ninfer-conform
set -u
bin="$1"
fails=0
expect_rc() {  # expect_rc RC ARGS...: run, compare the exit status
  local want="$1"; shift
  "$bin" "$@" >/dev/null 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then echo "FAIL: '$*' exited $got, want $want"; fails=$((fails + 1)); fi
}
expect_out() {  # expect_out PATTERN ARGS...: stdout must contain PATTERN (fixed string)
  local pat="$1"; shift
  if ! "$bin" "$@" 2>/dev/null | grep -qF -- "$pat"; then echo "FAIL: '$*' does not print '$pat'"; fails=$((fails + 1)); fi
}
expect_one_line_err() {  # stderr is exactly one line
  local n
  n=$("$bin" "$@" 2>&1 >/dev/null | wc -l)
  if [ "$n" != 1 ]; then echo "FAIL: '$*' printed $n stderr lines, want 1"; fails=$((fails + 1)); fi
}

for c in formats format decode encode; do expect_rc 0 "$c" --help; done
expect_rc 0 formats
expect_out "FP8_E4M3FN_ROW_BF16S" formats
for f in BF16 FP32 I32 Q4G64_F16S Q5G64_F16S Q6G64_F16S W8G32_F16S NVFP4 FP8_E4M3FN_ROW_BF16S; do
  expect_rc 0 format "$f"
done
for bad in E4M3FN FP16 bf16 " BF16" Q4 INT32 NF4; do
  expect_rc 2 format "$bad"
  expect_one_line_err format "$bad"
done
expect_out " 448 " decode E4M3FN 0x7e
expect_out "0x1.cp+8" decode E4M3FN 7e
expect_out "-127 int" decode W8G32_F16S.code 0x81
expect_out "-8 int" decode Q4G64_F16S.code 0x8
expect_out "-2147483648 int" decode I32 0x80000000
expect_out "subnormal" decode BF16 0x0001
expect_out "nan" decode FP32 0x7f800001
expect_rc 1 decode W8G32_F16S.code 0x80
expect_rc 2 decode E2M1 0x10          # word out of range
expect_rc 2 decode E4M3FN 0xzz        # malformed
expect_rc 2 decode FP16 0x0           # unknown word type
expect_one_line_err decode E2M1 0x10
expect_rc 0 encode Q4G64_F16S 0x3f800000 0xbf000000 0x3e800000
expect_out "scale 0x3092" encode Q4G64_F16S 0x3f800000 0xbf000000 0x3e800000
expect_out "codes 7 -4 2" encode Q4G64_F16S 0x3f800000 0xbf000000 0x3e800000
expect_out "codes 127 -127 64" encode W8G32_F16S 3f800000 bf800000 3f000000
expect_out "scale 0x0001" encode Q5G64_F16S 0x00000005 0x80000002
expect_out "codes 7 -4 2" encode Q4G64_F16S 0x3f80 0xbf00 0x3e80 --src BF16
expect_rc 1 encode W8G32_F16S 0x4afe213e            # scale overflow
expect_rc 1 encode Q4G64_F16S 0x7fc00000 0x3f800000 # NaN source
expect_rc 2 encode NVFP4 0x3f800000
expect_rc 2 encode Q4 0x3f800000
expect_rc 2 encode Q4G64_F16S 0x3f8000001           # does not fit 32 bits
expect_rc 2 encode Q4G64_F16S 1.0                   # malformed
expect_rc 2 encode Q4G64_F16S 0x3f800000 --src FP8
expect_rc 2 encode W8G32_F16S $(for i in $(seq 33); do printf '0x3f800000 '; done)  # 33 > G
expect_rc 0 encode W8G32_F16S $(for i in $(seq 32); do printf '0x3f800000 '; done)
echo "cli_test: $fails failure(s)"
[ "$fails" = 0 ]
