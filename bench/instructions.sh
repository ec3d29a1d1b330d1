#!/bin/sh
# Instructions per record of a reader, counted by callgrind: exact and
# repeatable, where MB/s on the shared machines moves by +-30 % from one run
# to the next. Usage (after `make all`):
#
#     bench/instructions.sh xray [MiB]     # default 16 MiB
#     bench/instructions.sh fxt [MiB]     # 4 MiB is the generated archive's repeated block
#     bench/instructions.sh xtrace [MiB]  # the instruction stream, 256 KiB feeds
#     TRACERD_BENCH_FIELDS_ONLY=1 TRACERD_BENCH_NO_BT2=1 bench/instructions.sh ctf [MiB]
#                                         # every field, 1 MiB chunks
#
# It builds bench/bench_<fmt>.c at -O2 without -march=native (valgrind cannot
# run every AVX-512 instruction), runs it under callgrind with BENCH_RUNS=1,
# counts only instructions executed inside tracerd_<fmt>_* (the reader and the
# counting callbacks it calls: the format's recorder in COUNT mode,
# tests/support/<fmt>_recorder.c; not the generator or XXH3) and
# divides by the records the benchmark reports having read (its line
# "records read: N").
set -eu
fmt=${1:?usage: bench/instructions.sh FORMAT [MiB]}
size=${2:-16}
B=${B:-build}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The benchmark links what the Makefile links into it: the writers and the
# recorders of tests/support/ (their counting callbacks are the ones counted).
# shellcheck disable=SC2046 # the writers and recorders are one word each
${CC:-cc} -O2 -g -Iinclude -Itests -o "$tmp/bench" "bench/bench_$fmt.c" $(ls tests/support/*_writer.c) tests/support/tlog.c \
    tests/support/rec.c $(ls tests/support/*_recorder.c) "$B/libtracerd.a" -ljansson -lm
# bench_fxt's arguments are TICKS_PER_SECOND MiB MODE ("once": one counting pass)
case $fmt in
fxt) args="1000000000 $size once" ;;
*) args="$size" ;;
esac
# shellcheck disable=SC2086 # args is split on purpose
BENCH_RUNS=1 XR_NO_PEERS=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
    --toggle-collect="tracerd_${fmt}_*" "$tmp/bench" $args >"$tmp/out" 2>"$tmp/err"
insns=$(callgrind_annotate "$tmp/cg.out" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
# Each benchmark prints "records read: N", the records of all its timed reads.
records=$(awk -F': ' '/^records read: / { print $2 }' "$tmp/out")
[ -n "$records" ] || { echo "bench_$fmt does not print 'records read: N'" >&2; exit 1; }
cat "$tmp/out"
awk -v i="$insns" -v r="$records" 'BEGIN {
    printf "instructions inside the reader: %d over %d records read = %.1f per record\n", i, r, i / r }'
