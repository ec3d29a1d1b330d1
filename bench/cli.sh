#!/bin/sh
# make bench-cli: the tracerd CLI end to end on big inputs of every format,
# beside the tool each command replaces, on the same bytes in the same run.
#
#   sh bench/cli.sh [BUILD]      (BUILD: the build folder, default build)
#
# Inputs, made in $BENCH_DIR (default /tmp/tracerd-bench-cli, reused when
# present; BENCH_FRESH=1 makes them again):
#   xray        a real FDR trace: bench/cli/xray_load.c built with clang
#               -fxray-instrument and run (as tests/xray/record.sh does);
#   ctf-writer  an LTTng-UST-like CTF directory of 2 streams from the CTF
#               writer of the tests (bench/cli/gen_ctf_dir.c);
#   ctf-lttng   a real LTTng-UST trace recorded with lttng-tools (when lttng
#               and root are available);
#   fxt         the generator of bench/bench_fxt.c (write mode);
#   xtrace      the generator of bench/bench_xtrace.c (write mode).
# Each tracerd command (and xxhsum) runs BENCH_RUNS times (default 3), each
# time over the input repeated to about 256 MB, and the best CPU time (user +
# system, from /usr/bin/time) counts: other jobs on the machine shift wall
# time much more than CPU time; the wall time of the same run is shown too.
# Peers run BENCH_PEER_RUNS times (default 1: llvm-xray account takes
# minutes on a few MB).
# MB/s are of input bytes, events/s of `tracerd stats`'s event count, RSS is
# the peak resident set. "x peer" is the peer's CPU time over tracerd's.
# Peers: llvm-xray (fdr-dump, account, convert), babeltrace2 (dummy sink,
# text), xxhsum -H3 (read-every-byte reference). Not run in CI.
set -eu
B=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
D=${BENCH_DIR:-/tmp/tracerd-bench-cli}
RUNS=${BENCH_RUNS:-3}
PRUNS=${BENCH_PEER_RUNS:-1}
MIB=${BENCH_MIB:-128}
T="$root/$B/tracerd"
mkdir -p "$D"
[ "${BENCH_FRESH:-0}" = 1 ] && rm -rf "${D:?}"/*
have() { command -v "$1" >/dev/null 2>&1; }

# ---- inputs ------------------------------------------------------------------
gen() { # NAME: prints nothing, makes $D/NAME unless present
    case "$1" in
    xray)
        have clang || return 1
        clang -O2 -g0 -pthread -fxray-instrument -fxray-instruction-threshold=1 \
            -fxray-modes=xray-fdr -o "$D/xray_load" bench/cli/xray_load.c
        rm -f "$D"/xray-trace-*
        XRAY_OPTIONS="patch_premain=false verbosity=0 xray_logfile_base=$D/xray-trace-" \
            BENCH_XRAY_ROUNDS=400000 "$D/xray_load" \
            "buffer_size=1048576:buffer_max=${BENCH_XRAY_MIB:-4}:func_duration_threshold_us=0" \
            2>/dev/null
        mv "$D"/xray-trace-* "$D/xray"
        ;;
    ctf-writer)
        "$B/bench/gen_ctf_dir" "$D/ctf-writer" $((MIB / 2)) 2 >/dev/null ;;
    ctf-lttng)
        sh bench/cli/record_lttng.sh "$D/ctf-lttng" "${BENCH_LTTNG_EVENTS:-2000000}" >/dev/null ;;
    fxt)
        "$B/bench/bench_fxt" 1000000000 "$MIB" write "$D/fxt" >/dev/null ;;
    xtrace)
        "$B/bench/bench_xtrace" write "$D/x.xinsndata.bin" "$MIB" >/dev/null ;;
    esac
}
input_path() {
    case "$1" in xtrace) echo "$D/x.xinsndata.bin" ;; *) echo "$D/$1" ;; esac
}
size_of() { # bytes of a file, or of every file in a folder
    if [ -d "$1" ]; then du -sb --apparent-size "$1" | cut -f1; else wc -c <"$1"; fi
}

# ---- timing ------------------------------------------------------------------
# run N REPEAT CMD...: best of N runs by CPU time, each running CMD REPEAT
# times in a row (small inputs: the time of one pass is the total / REPEAT);
# sets R_CPU R_WALL (per pass) R_RSS (KiB) R_OK.
run() {
    R_CPU="" R_WALL="" R_RSS="" R_OK=yes
    _n=$1 _r=$2
    shift 2
    i=0
    while [ "$i" -lt "$_n" ]; do
        if ! /usr/bin/time -f "%U %S %e %M" -o "$D/.time" sh -c \
            'r=$1; shift; while [ "$r" -gt 0 ]; do "$@" || exit 1; r=$((r - 1)); done' \
            sh "$_r" "$@" >/dev/null 2>"$D/.err"; then
            R_OK=no
        fi

        line=$(tail -n 1 "$D/.time")
        cpu=$(echo "$line" | awk -v r="$_r" '{printf "%.4f", ($1 + $2) / r}')
        wall=$(echo "$line" | awk -v r="$_r" '{printf "%.4f", $3 / r}')
        rss=$(echo "$line" | awk '{print $4}')
        if [ -z "$R_CPU" ] || awk "BEGIN{exit !($cpu < $R_CPU)}"; then
            R_CPU=$cpu R_WALL=$wall R_RSS=$rss
        fi
        i=$((i + 1))
    done
}

OUT="$D/results.md"
: >"$OUT"
emit() { echo "$*" | tee -a "$OUT"; }
row() { # FORMAT COMMAND TOOL BYTES EVENTS [PEER_CPU]
    mbs=$(awk "BEGIN{c=$R_CPU; if (c < 0.001) c = 0.001; printf \"%.0f\", $4 / 1e6 / c}")
    wmbs=$(awk "BEGIN{w=$R_WALL; if (w < 0.01) w = 0.01; printf \"%.0f\", $4 / 1e6 / w}")
    evs=$(awk "BEGIN{c=$R_CPU; if (c < 0.001) c = 0.001; printf \"%.1f\", $5 / 1e6 / c}")
    ratio=""
    if [ -n "${6:-}" ]; then
        ratio=$(awk "BEGIN{c=$R_CPU; if (c < 0.001) c = 0.001; printf \"%.1fx\", $6 / c}")
    fi
    note=""
    [ "$R_OK" = yes ] || note=" (exit != 0)"
    emit "| $1 | $2 | $3$note | $R_CPU | $R_WALL | $mbs | $wmbs | $evs | $((R_RSS / 1024)) | $ratio |"
}

emit "tracerd bench-cli, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
emit "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), tracerd best of $RUNS runs by CPU time, peers best of $PRUNS"
emit ""
emit "| format | command | tool | CPU s | wall s | MB/s (CPU) | MB/s (wall) | M events/s (CPU) | peak RSS MiB | tracerd x faster than the peer (CPU) |"
emit "|---|---|---|---|---|---|---|---|---|---|"

for f in ${BENCH_FORMATS:-xray ctf-writer ctf-lttng fxt xtrace}; do
    p=$(input_path "$f")
    if [ ! -e "$p" ]; then
        gen "$f" || { emit "| $f | (input not made: tool missing) | | | | | | | | |"; continue; }
    fi
    [ -e "$p" ] || { emit "| $f | (input not made) | | | | | | | | |"; continue; }
    bytes=$(size_of "$p")
    # tracerd and xxhsum pass over at least ~256 MB per timing; peers run once
    reps=$(awk "BEGIN{r = int(256e6 / $bytes); print r < 1 ? 1 : r}")
    extra=""
    [ "$f" = xray ] && extra="--instr-map $D/xray_load"
    events=$("$T" stats -q $extra "$p" 2>/dev/null | sed -n 's/^events: \([0-9]*\).*/\1/p' | head -n 1)
    events=${events:-0}
    if [ "$f" = xtrace ]; then # the event view has no instructions: count instruction records
        events=$("$T" info -q "$p" | sed -n 's/^instructions: *\([0-9]*\).*/\1/p')
    fi
    if have xxhsum; then
        if [ -d "$p" ]; then run "$RUNS" "$reps" sh -c "cat '$p'/* | xxhsum -H3"; else run "$RUNS" "$reps" xxhsum -H3 "$p"; fi
        row "$f" "read every byte" "xxhsum -H3" "$bytes" 0
    fi
    # peers first, so their CPU times give the ratios
    PI="" PS="" PD="" PJ=""
    case "$f" in
    xray)
        run "$PRUNS" 1 llvm-xray fdr-dump "$p"; PI=$R_CPU; row "$f" info "llvm-xray fdr-dump" "$bytes" "$events"
        run "$PRUNS" 1 llvm-xray account -k --instr_map="$D/xray_load" "$p"; PS=$R_CPU
        row "$f" stats "llvm-xray account -k" "$bytes" "$events"
        run "$PRUNS" 1 llvm-xray convert --output-format=yaml --instr_map="$D/xray_load" "$p"; PD=$R_CPU
        row "$f" dump "llvm-xray convert yaml" "$bytes" "$events"
        run "$PRUNS" 1 llvm-xray convert --output-format=trace_event --instr_map="$D/xray_load" "$p"; PJ=$R_CPU
        row "$f" json "llvm-xray convert trace_event" "$bytes" "$events"
        ;;
    ctf-*)
        if have babeltrace2; then
            run "$PRUNS" 1 babeltrace2 -c sink.utils.dummy "$p"; PI=$R_CPU PS=$R_CPU
            row "$f" "info, stats" "babeltrace2 -c sink.utils.dummy" "$bytes" "$events"
            run "$PRUNS" 1 babeltrace2 "$p"; PD=$R_CPU
            row "$f" dump "babeltrace2 (text)" "$bytes" "$events"
        fi
        ;;
    esac
    for cmd in info stats dump json; do
        case "$cmd" in info) peer=$PI ;; stats) peer=$PS ;; dump) peer=$PD ;; json) peer=$PJ ;; esac
        x=""
        [ "$cmd" != dump ] && [ "$cmd" != info ] && x=$extra
        run "$RUNS" "$reps" "$T" "$cmd" -q $x "$p"
        row "$f" "$cmd" "tracerd $cmd" "$bytes" "$events" "$peer"
    done
done
emit ""
emit "inputs in $D: $(ls "$D" | tr '\n' ' ')"
echo "(written to $OUT)"
