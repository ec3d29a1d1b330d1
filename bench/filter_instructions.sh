#!/bin/sh
# Instructions per event of the event view's filters (bench/bench_filter.c),
# counted by callgrind inside tracerd_auto_feed/_finish (the readers, the
# mappings, the filter and the benchmark's one-line callback), for
# delivering every event and each rejecting case, on the XRay and the FXT
# trace: exact and repeatable where CPU time on the shared machines moves by
# +-30 %. Usage (after `make build/libtracerd.a`): bench/filter_instructions.sh [MiB]
set -eu
size=${1:-8}
B=${B:-build}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The writers and the recorders of tests/support/ (the delivering callback is
# the event recorder's counting one), as the Makefile links them.
# shellcheck disable=SC2046 # the writers and recorders are one word each
${CC:-cc} -O2 -g -Iinclude -Itests -o "$tmp/bench" bench/bench_filter.c $(ls tests/support/*_writer.c) \
    tests/support/tlog.c tests/support/rec.c $(ls tests/support/*_recorder.c) "$B/libtracerd.a" -ljansson -lm
for t in 0 1 2; do
    base=
    for c in 0 1 2 3 4; do
        BENCH_ONLY=$t.$c valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
            --toggle-collect='tracerd_auto_feed' --toggle-collect='tracerd_auto_finish' \
            "$tmp/bench" "$size" > "$tmp/out" 2>/dev/null
        ir=$(callgrind_annotate "$tmp/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
        what=$(cat "$tmp/out")
        [ "$c" = 0 ] && { base=$ir; events=$(echo "$what" | sed 's/.*: \([0-9]*\) delivered/\1/'); }
        awk -v ir="$ir" -v base="$base" -v n="$events" -v w="$what" \
            'BEGIN { printf "%-75s %7.1f instructions/event  %.2f\n", w, ir / n, ir / base }'
    done
done
