#!/bin/sh
# make bench-cli: the tracerd CLI end to end on big inputs of every format,
# beside the tool each command replaces, on the same bytes in the same run.
#
#   sh bench/cli.sh [BUILD]      (BUILD: the build folder, default build;
#                                relative to the repository or absolute)
#
# Inputs, made in $BENCH_DIR (default /tmp/tracerd-bench-cli, reused when
# present; BENCH_FRESH=1 makes them again):
#   xray        a real FDR trace: bench/cli/xray_load.c built with clang
#               -fxray-instrument and run (as tests/xray/record.sh does),
#               BENCH_XRAY_MIB (default 32) MiB: info, dump, json and their peers;
#   xray-small  the same program's trace of 4 MiB, for stats beside
#               llvm-xray account (which needs seconds per MiB);
#   ctf-writer  an LTTng-UST-like CTF directory of 2 streams from the CTF
#               writer of the tests (bench/cli/gen_ctf_dir.c);
#   ctf-lttng   a real LTTng-UST trace recorded with lttng-tools (when lttng
#               and root are available);
#   fxt         the generator of bench/bench_fxt.c (write mode);
#   xtrace      the generator of bench/bench_xtrace.c (write mode).
# A command with a peer runs in pairs, BENCH_PEER_RUNS times (default 3):
# the peer once, then tracerd (over the input repeated to about 256 MB);
# the ratio is the peer's CPU time (user + system, /usr/bin/time) over
# tracerd's per pass, in each pair, and the median of the pairs is shown,
# with the median CPU and wall times of each side. Commands without a peer
# (and xxhsum) run BENCH_RUNS times (default 3): the median. BENCH_PASS_BYTES
# (default 256e6) is the input tracerd reads per timing; info and stats, which
# run at 1-3 GB/s, read at least BENCH_FAST_PASS_BYTES (default 1e9) and
# xxhsum, at 10 GB/s and more, BENCH_XXH_PASS_BYTES (default 4e9): at 256 MB
# their timings were 20-100 ms, within a few steps of /usr/bin/time's 10 ms.
# xray-small's stats beside llvm-xray account: tracerd reads the 32 MiB xray
# input (a pass of the 4 MiB one is ~3 ms, a third of it the process start),
# and the ratio is per byte (the peer's CPU time per byte over tracerd's).
# Commands without a peer show, for info, their CPU time over xxhsum's on
# the same bytes ("x XXH3's time"). CPU time
# counts: other jobs on the machine shift wall time much more than CPU time.
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
PRUNS=${BENCH_PEER_RUNS:-3}
MIB=${BENCH_MIB:-128}
case "$B" in /*) T="$B/tracerd" ;; *) T="$root/$B/tracerd" ;; esac
if [ ! -x "$T" ]; then
    echo "bench/cli.sh: $T: no tracerd binary (give the build folder, e.g. build)" >&2
    exit 2
fi
mkdir -p "$D"
[ "${BENCH_FRESH:-0}" = 1 ] && rm -rf "${D:?}"/*
have() { command -v "$1" >/dev/null 2>&1; }

# ---- inputs ------------------------------------------------------------------
gen() { # NAME: prints nothing, makes $D/NAME unless present
    case "$1" in
    xray | xray-small)
        have clang || return 1
        [ -x "$D/xray_load" ] || clang -O2 -g0 -pthread -fxray-instrument \
            -fxray-instruction-threshold=1 -fxray-modes=xray-fdr -o "$D/xray_load" \
            bench/cli/xray_load.c
        mib=4 rounds=400000
        [ "$1" = xray ] && mib=${BENCH_XRAY_MIB:-32} rounds=$((mib * 125000))
        rm -f "$D"/xray-trace-*
        XRAY_OPTIONS="patch_premain=false verbosity=0 xray_logfile_base=$D/xray-trace-" \
            BENCH_XRAY_ROUNDS=$rounds "$D/xray_load" \
            "buffer_size=1048576:buffer_max=$mib:func_duration_threshold_us=0" \
            2>/dev/null
        mv "$D"/xray-trace-* "$D/$1"
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
passes() { # BUDGET BYTES: the passes over BYTES that read about BUDGET bytes (at least 1)
    awk "BEGIN{r = int($1 / $2); print r < 1 ? 1 : r}"
}
size_of() { # bytes of a file, or of every file in a folder (through symbolic links)
    if [ -d "$1" ]; then du -sbL --apparent-size "$1" | cut -f1; else wc -c <"$1"; fi
}

# ---- timing ------------------------------------------------------------------
median() { # of the numbers on standard input
    sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2];
        else printf "%.4f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}
# once REPEAT CMD...: one run of CMD REPEAT times in a row (small inputs: the
# time of one pass is the total / REPEAT); sets O_CPU O_WALL (per pass),
# O_RSS (KiB), and R_OK=no when CMD failed.
once() {
    _r=$1
    shift
    if ! /usr/bin/time -f "%U %S %e %M" -o "$D/.time" sh -c \
        'r=$1; shift; while [ "$r" -gt 0 ]; do "$@" || exit 1; r=$((r - 1)); done' \
        sh "$_r" "$@" >/dev/null 2>"$D/.err"; then
        R_OK=no
    fi
    line=$(tail -n 1 "$D/.time")
    O_CPU=$(echo "$line" | awk -v r="$_r" '{printf "%.4f", ($1 + $2) / r}')
    O_WALL=$(echo "$line" | awk -v r="$_r" '{printf "%.4f", $3 / r}')
    O_RSS=$(echo "$line" | awk '{print $4}')
}
# run N REPEAT CMD...: N runs; sets R_CPU R_WALL (medians, per pass),
# R_RSS (the largest, KiB), R_OK.
run() {
    R_OK=yes R_RSS=0
    _n=$1 _rr=$2
    shift 2
    cpus="" walls=""
    i=0
    while [ "$i" -lt "$_n" ]; do
        once "$_rr" "$@"
        cpus="$cpus $O_CPU" walls="$walls $O_WALL"
        [ "$O_RSS" -gt "$R_RSS" ] && R_RSS=$O_RSS
        i=$((i + 1))
    done
    R_CPU=$(echo $cpus | tr ' ' '\n' | median)
    R_WALL=$(echo $walls | tr ' ' '\n' | median)
}
# paired N PEER REPEAT CMD...: N pairs of one run of the shell command PEER
# and one run of CMD (REPEAT times); sets the peer's P_CPU P_WALL P_RSS P_OK,
# tracerd's R_* (medians) and RATIO, the median of peer CPU / tracerd CPU
# per pair, times SCALE (default 1: CMD's input bytes over the peer's, when
# they read different inputs).
paired() {
    _n=$1 _peer=$2 _rr=$3
    shift 3
    pcpus="" pwalls="" cpus="" walls="" ratios="" P_RSS=0 R_RSS=0
    i=0
    while [ "$i" -lt "$_n" ]; do
        R_OK=yes
        once 1 sh -c "$_peer"
        P_OK=$R_OK
        pc=$O_CPU
        pcpus="$pcpus $O_CPU" pwalls="$pwalls $O_WALL"
        [ "$O_RSS" -gt "$P_RSS" ] && P_RSS=$O_RSS
        R_OK=yes
        once "$_rr" "$@"
        cpus="$cpus $O_CPU" walls="$walls $O_WALL"
        [ "$O_RSS" -gt "$R_RSS" ] && R_RSS=$O_RSS
        ratios="$ratios $(awk "BEGIN{c=$O_CPU; if (c < 0.001) c = 0.001; printf \"%.2f\", $pc * ${SCALE:-1} / c}")"
        i=$((i + 1))
    done
    P_CPU=$(echo $pcpus | tr ' ' '\n' | median)
    P_WALL=$(echo $pwalls | tr ' ' '\n' | median)
    R_CPU=$(echo $cpus | tr ' ' '\n' | median)
    R_WALL=$(echo $walls | tr ' ' '\n' | median)
    RATIO=$(echo $ratios | tr ' ' '\n' | median)
    RATIOS=$ratios
}

OUT="$D/results.md"
: >"$OUT"
emit() { echo "$*" | tee -a "$OUT"; }
row() { # FORMAT COMMAND TOOL BYTES EVENTS [RATIO]
    mbs=$(awk "BEGIN{c=$R_CPU; if (c < 0.001) c = 0.001; printf \"%.0f\", $4 / 1e6 / c}")
    wmbs=$(awk "BEGIN{w=$R_WALL; if (w < 0.01) w = 0.01; printf \"%.0f\", $4 / 1e6 / w}")
    evs=$(awk "BEGIN{c=$R_CPU; if (c < 0.001) c = 0.001; printf \"%.1f\", $5 / 1e6 / c}")
    ratio=${NOTE:-}
    if [ -n "${6:-}" ]; then
        ratio="${6}x (pairs:$RATIOS)"
    fi
    note=""
    [ "$R_OK" = yes ] || note=" (exit != 0)"
    emit "| $1 | $2 | $3$note | $R_CPU | $R_WALL | $mbs | $wmbs | $evs | $((R_RSS / 1024)) | $ratio |"
}

emit "tracerd bench-cli, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
emit "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), medians: $PRUNS pairs (peer, tracerd) per command with a peer, $RUNS runs otherwise"
emit ""
emit "| format | command | tool | CPU s | wall s | MB/s (CPU) | MB/s (wall) | M events/s (CPU) | peak RSS MiB | tracerd x faster than the peer (CPU) |"
emit "|---|---|---|---|---|---|---|---|---|---|"

for f in ${BENCH_FORMATS:-xray xray-small ctf-writer ctf-lttng fxt xtrace}; do
    p=$(input_path "$f")
    if [ ! -e "$p" ]; then
        gen "$f" || { emit "| $f | (input not made: tool missing) | | | | | | | | |"; continue; }
    fi
    [ -e "$p" ] || { emit "| $f | (input not made) | | | | | | | | |"; continue; }
    bytes=$(size_of "$p")
    # tracerd passes over at least ~256 MB per timing (BENCH_PASS_BYTES;
    # more makes the short timings finer than /usr/bin/time's 10 ms step),
    # info and stats over ~1 GB, xxhsum over ~4 GB (above); peers run once
    reps=$(passes "${BENCH_PASS_BYTES:-256e6}" "$bytes")
    freps=$(passes "${BENCH_FAST_PASS_BYTES:-1e9}" "$bytes")
    [ "$freps" -gt "$reps" ] || freps=$reps
    extra=""
    case "$f" in xray*) extra="--instr-map $D/xray_load" ;; esac
    events=$("$T" stats -q $extra "$p" 2>/dev/null | sed -n 's/^events: \([0-9]*\).*/\1/p' | head -n 1)
    events=${events:-0}
    if [ "$f" = xtrace ]; then # the event view has no instructions: count instruction records
        events=$("$T" info -q "$p" | sed -n 's/^instructions: *\([0-9]*\).*/\1/p')
    fi
    X_CPU=""
    if have xxhsum && [ "$f" != xray-small ]; then
        xreps=$(passes "${BENCH_XXH_PASS_BYTES:-4e9}" "$bytes")
        if [ -d "$p" ]; then run "$RUNS" "$xreps" sh -c "cat '$p'/* | xxhsum -H3"; else run "$RUNS" "$xreps" xxhsum -H3 "$p"; fi
        row "$f" "read every byte" "xxhsum -H3" "$bytes" 0
        X_CPU=$R_CPU
    fi
    # xray-small's stats: tracerd reads the big xray input (per byte, above)
    tp=$p tbytes=$bytes tevents=$events
    if [ "$f" = xray-small ] && [ -e "$(input_path xray)" ]; then
        tp=$(input_path xray)
        tbytes=$(size_of "$tp")
        tevents=$("$T" stats -q $extra "$tp" 2>/dev/null | sed -n 's/^events: \([0-9]*\).*/\1/p' | head -n 1)
        tevents=${tevents:-0}
    fi
    treps=$(passes "${BENCH_FAST_PASS_BYTES:-1e9}" "$tbytes")
    # the peer of each command (a shell command), run in pairs with tracerd's
    PI="" PS="" PD="" PJ="" cmds="info stats dump json"
    case "$f" in
    xray)
        PI="llvm-xray fdr-dump '$p'"
        PD="llvm-xray convert --output-format=yaml --instr_map='$D/xray_load' '$p'"
        PJ="llvm-xray convert --output-format=trace_event --instr_map='$D/xray_load' '$p'"
        ;;
    xray-small)
        PS="llvm-xray account -k --instr_map='$D/xray_load' '$p'" cmds="stats"
        ;;
    ctf-*)
        if have babeltrace2; then
            PI="babeltrace2 -c sink.utils.dummy '$p'" PS=$PI
            PD="babeltrace2 '$p'"
        fi
        ;;
    esac
    for cmd in $cmds; do
        case "$cmd" in
        info) peer=$PI tool="llvm-xray fdr-dump" ;;
        stats) peer=$PS tool="llvm-xray account -k" ;;
        dump) peer=$PD tool="llvm-xray convert yaml" ;;
        json) peer=$PJ tool="llvm-xray convert trace_event" ;;
        esac
        case "$f:$cmd" in
        ctf-*:info | ctf-*:stats) tool="babeltrace2 -c sink.utils.dummy" ;;
        ctf-*:dump) tool="babeltrace2 (text)" ;;
        esac
        x=""
        [ "$cmd" != dump ] && [ "$cmd" != info ] && x=$extra
        r=$reps tin=$p tb=$bytes tev=$events label="tracerd $cmd" SCALE=1
        case "$cmd" in info | stats) r=$freps ;; esac
        if [ -n "$peer" ] && [ "$tp" != "$p" ]; then # the xray input, the ratio per byte
            r=$treps tin=$tp tb=$tbytes tev=$tevents label="tracerd $cmd (on the xray input; per byte)"
            SCALE=$(awk "BEGIN{print $tbytes / $bytes}")
        fi
        if [ -n "$peer" ]; then
            paired "$PRUNS" "$peer" "$r" "$T" "$cmd" -q $x "$tin"
            SCALE=1
            T_CPU=$R_CPU T_WALL=$R_WALL T_RSS=$R_RSS T_OK=$R_OK
            R_CPU=$P_CPU R_WALL=$P_WALL R_RSS=$P_RSS R_OK=$P_OK
            row "$f" "$cmd" "$tool" "$bytes" "$events"
            R_CPU=$T_CPU R_WALL=$T_WALL R_RSS=$T_RSS R_OK=$T_OK
            row "$f" "$cmd" "$label" "$tb" "$tev" "$RATIO"
        else
            run "$RUNS" "$r" "$T" "$cmd" -q $x "$p"
            NOTE=""
            [ "$cmd" = info ] && [ -n "$X_CPU" ] &&
                NOTE=$(awk "BEGIN{x=$X_CPU; if (x < 0.0001) x = 0.0001; printf \"%.2fx XXH3's time\", $R_CPU / x}")
            row "$f" "$cmd" "tracerd $cmd" "$bytes" "$events"
            NOTE=""
        fi
    done
done
emit ""
emit "inputs in $D: $(ls "$D" | tr '\n' ' ')"
echo "(written to $OUT)"
