#!/bin/sh
# Regenerates xray_fdr_real.xray: a real XRay FDR v5 trace from LLVM 14's
# runtime (Debian 12 clang), of xray_demo.c (top -> 5 x mid -> 3 x leaf).
# The test suite compiles xray_demo.c itself to test the ELF name reader.
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
clang -O1 -fxray-instrument -fxray-instruction-threshold=1 xray_demo.c -o "$tmp/xray_demo"
(cd "$tmp" && XRAY_FDR_OPTIONS="func_duration_threshold_us=0" \
  XRAY_OPTIONS="patch_premain=false xray_mode=xray-fdr verbosity=0 xray_logfile_base=xr-" \
  ./xray_demo >/dev/null)
cp "$tmp"/xr-xray_demo.* xray_fdr_real.xray
rm -rf "$tmp"
