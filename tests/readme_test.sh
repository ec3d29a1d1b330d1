#!/bin/sh
# Compiles the C example of README.md against the built library and runs it on
# a sample trace, so the README cannot drift from the API.
set -eu
B=${1:-build}
CC=${2:-cc}
SANFLAGS=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^```c$/{on=1; next} /^```$/{if (on) exit} on' README.md > "$tmp/readme.c"
$CC -std=c11 -Wall -Wextra -Werror $SANFLAGS -Iinclude "$tmp/readme.c" "$B/libtracerd.a" -o "$tmp/readme"
out=$("$tmp/readme" < tests/data/xray/fdr-v5-le.xray)
echo "$out" | grep -q "^enter fn=1 tid=42 cpu=3 t=500 ns$" && echo "$out" | grep -q "^5 function records$" || { echo "readme example: unexpected output: $out" >&2; exit 1; }
echo "readme example: builds and reads the sample "
