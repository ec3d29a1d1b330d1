#!/bin/sh
# Records an LTTng-UST trace of a small program: the one recording procedure
# of tests/data/ctf/record_lttng_ust.sh (the test trace) and
# bench/cli/record_lttng.sh (the benchmark trace). SRC holds the program's
# tracepoint provider `tp.h` and `app.c`; the program is built, run with
# APP_ARGS while one userspace session records it, and the trace's metadata
# and non-empty stream files (one per CPU that ran the program) are copied to
# OUT (replaced). Needs lttng-tools, liblttng-ust-dev, a C compiler and root;
# starts lttng-sessiond when none runs, and stops the one it started.
#   sh tools/lttng_record.sh SRC OUT [APP_ARGS...]
# Environment (defaults in brackets):
#   LTTNG_EVENTS   event pattern to enable ['*']
#   LTTNG_CHANNEL  lttng enable-channel options [--subbuf-size=8192 --num-subbuf=2]
#   LTTNG_CONTEXTS lttng add-context options [-t vpid -t vtid]
#   LTTNG_CFLAGS   compiler flags [-O2; set empty for none]; LTTNG_LIBS extra libraries []
# The program runs with the caller's environment (LTTNG_UST_ALLOW_BLOCKING=1
# for a blocking channel).
set -eu
src=$1
out=$2
shift 2
tmp=$(mktemp -d)
started=""
cleanup() {
    if [ -n "$started" ]; then kill "$started" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
cp "$src/tp.h" "$src/app.c" "$tmp/"
# shellcheck disable=SC2086 # flag lists are split on purpose
${CC:-cc} ${LTTNG_CFLAGS--O2} -I"$tmp" -o "$tmp/app" "$tmp/app.c" -llttng-ust -ldl ${LTTNG_LIBS:-}
if ! pgrep -x lttng-sessiond >/dev/null; then
    lttng-sessiond --background --sig-parent >/dev/null 2>&1 || lttng-sessiond --daemonize
    sleep 1
    started=$(pgrep -x -n lttng-sessiond || true)
fi
sess=tracerd-$$
lttng create "$sess" --output="$tmp/trace" >/dev/null
# shellcheck disable=SC2086
lttng enable-channel --userspace ${LTTNG_CHANNEL:---subbuf-size=8192 --num-subbuf=2} chan >/dev/null
lttng enable-event --userspace --channel=chan "${LTTNG_EVENTS:-*}" >/dev/null
# shellcheck disable=SC2086
lttng add-context --userspace --channel=chan ${LTTNG_CONTEXTS:--t vpid -t vtid} >/dev/null
lttng start >/dev/null
"$tmp/app" "$@"
lttng stop >/dev/null
lttng destroy "$sess" >/dev/null
# ust/uid/<uid>/64-bit/{metadata,chan_*,index/}
trace=$(dirname "$(find "$tmp/trace" -name metadata | head -n 1)")
rm -rf "$out"
mkdir -p "$out"
cp "$trace/metadata" "$out/"
for f in "$trace"/chan_*; do
    if [ -s "$f" ]; then cp "$f" "$out/"; fi
done
