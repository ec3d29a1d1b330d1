#!/bin/sh
# Records the real XRay traces in tests/data/xray/real/ (and the demo sample
# tests/data/xray/demo-fdr.xray) by building the small programs of this folder
# with clang -fxray-instrument, running them, and storing each trace with the
# reference output of `llvm-xray convert --output-format=yaml`.
#
# Usage: tests/xray/record.sh [NAME...]   (from anywhere; needs clang and
#        llvm-xray; made with Debian 12's clang/llvm 14). With names, only
#        those traces are recorded again.
# Env:   CC (default clang), LLVM_XRAY (default llvm-xray), TASKSET (default
#        "taskset -c 0" when taskset exists: single-thread cases run pinned so
#        no NewCPUId appears mid-trace).
#
# The traces are not reproducible byte for byte (TSCs, thread ids, stack
# garbage in unused metadata bytes change on every run); the Check suite
# xray_real compares our reader with the YAML stored beside each trace, so
# re-record both together and commit them together, after rewriting the
# golden logs: TRACERD_UPDATE_GOLDEN=1 CK_RUN_SUITE=xray_real
# ./build/check_tracerd. Byte offsets and counts quoted in
# doc/formats/xray-real.md come from the committed recording.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/tests/data/xray/real"
CC=${CC:-clang}
LLVM_XRAY=${LLVM_XRAY:-llvm-xray}
if [ -z "${TASKSET+set}" ]; then
    if command -v taskset >/dev/null 2>&1; then TASKSET="taskset -c 0"; else TASKSET=""; fi
fi

XFAIL=no
XOPTS=patch_premain=false
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$out"

# record NAME SOURCE MODE PIN OPT [extra cflags]
#   SOURCE: the program (tests/xray/SOURCE.c);
#   MODE: xray-fdr or xray-basic (the program selects and initialises it);
#   PIN: yes to run under $TASKSET; OPT: optimisation level.
only=" $* "
record() {
    name=$1 src=$2 mode=$3 pin=$4 opt=$5
    shift 5
    case "$only" in
    "  " | *" $name "*) ;;
    *) return 0 ;;
    esac
    echo "== $name ($mode)"
    "$CC" "$opt" -g0 -pthread -fxray-instrument -fxray-instruction-threshold=1 \
        -fxray-modes="$mode" "$@" -o "$tmp/$name" "$here/$src.c"
    rm -f "$tmp/trace-"*
    run=""
    if [ "$pin" = yes ]; then run=$TASKSET; fi
    # XOPTS=patch_premain=false (default): the program patches after
    # selecting and initialising its mode. No xray_mode then: with xray_mode
    # set the runtime initialises that mode before main with the XRAY_OPTIONS
    # defaults (a 5 us duration threshold that drops short calls) and ignores
    # the program's own options.
    XRAY_OPTIONS="$XOPTS verbosity=0 xray_logfile_base=$tmp/trace-" \
        $run "$tmp/$name" 2>"$tmp/$name.log" || {
        cat "$tmp/$name.log" >&2
        echo "record.sh: $name failed" >&2
        exit 1
    }
    set -- "$tmp/trace-"*
    if [ "$#" -ne 1 ] || [ ! -f "$1" ]; then
        echo "record.sh: $name wrote $# trace files" >&2
        exit 1
    fi
    cat "$1" >"$out/$name.xray" # the runtime makes it 0600
    # --symbolize=false: function ids stay numbers (no instrumentation map
    # needed); the binary is not kept. XFAIL=yes: llvm-xray is expected to
    # reject the trace; its complaint is kept in NAME.llvm-xray.txt instead.
    if "$LLVM_XRAY" convert --output-format=yaml --symbolize=false \
        "$out/$name.xray" >"$tmp/$name.yaml" 2>"$tmp/$name.xerr"; then
        if [ "${XFAIL:-no}" = yes ]; then
            echo "record.sh: llvm-xray accepted $name, expected a failure" >&2
            exit 1
        fi
        mv "$tmp/$name.yaml" "$out/$name.yaml"
    elif [ "${XFAIL:-no}" = yes ]; then
        # Keep llvm-xray's own lines, not the binary it echoes back.
        grep -a -E '^(llvm-xray:|Failed )' "$tmp/$name.xerr" | sed "s|$out/||" \
            >"$out/$name.llvm-xray.txt" || true
        echo "   llvm-xray rejects it: $(head -n 1 "$out/$name.llvm-xray.txt")"
    else
        echo "record.sh: llvm-xray failed on $name:" >&2
        cat "$tmp/$name.xerr" >&2
        exit 1
    fi
    echo "   $(wc -c <"$out/$name.xray") bytes"
}

# clang 14 crashes (X86 AsmPrinter, PATCHABLE_EVENT_CALL) compiling
# __xray_customevent/__xray_typedevent above -O0, so the event programs are -O0.
record fdr_simple fdr_simple xray-fdr yes -O2
record fdr_args fdr_args xray-fdr yes -O2
record fdr_custom fdr_custom xray-fdr yes -O0
record fdr_events fdr_events xray-fdr yes -O0
XFAIL=yes
record fdr_typed_cut fdr_typed_cut xray-fdr yes -O0
XFAIL=no
record fdr_tscwrap fdr_tscwrap xray-fdr yes -O2
record fdr_threads fdr_threads xray-fdr no -O2
record fdr_midcall fdr_midcall xray-fdr yes -O2
record fdr_exhausted fdr_threads xray-fdr no -O2 '-DBUFFER_MAX="3"'
record fdr_default fdr_default xray-fdr yes -O2
record basic_simple basic_simple xray-basic yes -O2
record basic_threads basic_threads xray-basic no -O2
# The documentation's way: the runtime starts basic mode before main.
XOPTS="patch_premain=true xray_mode=xray-basic"
record basic_quickstart basic_quickstart xray-basic yes -O2
XOPTS=patch_premain=false

case "$only" in
"  " | *" fdr_simple "*)
    cp "$out/fdr_simple.xray" "$root/tests/data/xray/demo-fdr.xray"
    echo "demo: tests/data/xray/demo-fdr.xray = real/fdr_simple.xray"
    ;;
esac
