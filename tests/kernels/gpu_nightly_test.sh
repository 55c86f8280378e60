#!/usr/bin/env bash
# scripts/gpu-nightly's arguments and its answer on a machine without a device (CI): usage errors
# exit 2 before anything is written, a prebuilt tree missing its plugin is named, and a complete
# tree on a machine with no GPU exits 77 saying so, having measured nothing.
# Usage: gpu_nightly_test.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
nightly="$src/scripts/gpu-nightly"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$nightly" --prebuilt > "$work/out" 2>&1
[ $? -eq 2 ] && grep -q '^usage: scripts/gpu-nightly \[--prebuilt BUILD_DIR\]' "$work/out" \
  || { cat "$work/out"; fail "--prebuilt without a tree must be a usage error"; }
"$nightly" --bogus > "$work/out" 2>&1
[ $? -eq 2 ] || { cat "$work/out"; fail "an unknown option must be a usage error"; }
"$nightly" --help > "$work/out" 2>&1
[ $? -eq 0 ] && grep -q -- '--prebuilt DIR' "$work/out" || { cat "$work/out"; fail "--help must describe --prebuilt"; }

mkdir -p "$work/empty"
NC_NIGHTLY_OUT="$work/out-empty" "$nightly" --prebuilt "$work/empty" > "$work/out" 2>&1
[ $? -eq 2 ] && grep -q "$work/empty/kernels/libnc_cuda_plugin.so is missing" "$work/out" \
  || { cat "$work/out"; fail "a tree without the plugin must be named"; }
[ -e "$work/out-empty" ] && fail "a refused run must not create its output folder"

NC_NIGHTLY_OUT="$work/nightly" "$nightly" --prebuilt "$build" > "$work/out" 2>&1
[ $? -eq 77 ] && grep -q 'gpu-nightly: no usable CUDA device on this machine; nothing was measured' "$work/out" \
  || { cat "$work/out"; fail "without a device the nightly must exit 77 and say so"; }
echo "gpu-nightly: usage errors, a missing plugin and the no-device skip behave"
