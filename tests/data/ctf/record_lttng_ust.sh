#!/bin/sh
# Records the small LTTng-UST trace in tests/data/ctf/demo-lttng-ust/ and writes
# babeltrace2's own CTF rewrite of it in tests/data/ctf/bt2-sink-ctf/.
#
# Needs (Debian): lttng-tools, liblttng-ust-dev, babeltrace2, a C compiler,
# and root (lttng-sessiond runs as root here; tools/lttng_record.sh records
# the trace). Run from the repository root:
#     sh tests/data/ctf/record_lttng_ust.sh
set -e
out=tests/data/ctf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/tp.h" <<'H'
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tracerd
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tp.h"
#if !defined(TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define TP_H
#include <lttng/tracepoint.h>
LTTNG_UST_TRACEPOINT_ENUM(tracerd, state,
    LTTNG_UST_TP_ENUM_VALUES(
        lttng_ust_field_enum_value("IDLE", 0)
        lttng_ust_field_enum_range("BUSY", 1, 9)
        lttng_ust_field_enum_auto("AUTO")))
LTTNG_UST_TRACEPOINT_EVENT(tracerd, sample,
    LTTNG_UST_TP_ARGS(int, i, const char *, msg, const unsigned short *, seq, size_t, n,
                      double, d, int, st),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int, i, i)
        lttng_ust_field_integer_hex(unsigned long, hex, (unsigned long)i * 0x1000u + 0xabc)
        lttng_ust_field_integer_network(int, net, i)
        lttng_ust_field_string(msg, msg)
        lttng_ust_field_sequence(unsigned short, seq, seq, size_t, n)
        lttng_ust_field_array_text(char, text, "text\0xyz", 8)
        lttng_ust_field_float(double, d, d)
        lttng_ust_field_enum(tracerd, state, int, st, st)))
LTTNG_UST_TRACEPOINT_EVENT(tracerd, tick,
    LTTNG_UST_TP_ARGS(unsigned long long, n),
    LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(unsigned long long, n, n)))
#endif
#include <lttng/tracepoint-event.h>
H
cat > "$tmp/app.c" <<'C'
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "tp.h"
#include <unistd.h>
int main(void)
{
    static const unsigned short seq[5] = {1, 2, 3, 500, 65535};
    static const char *const msgs[] = {"hello", "", "a \"quoted\" word", "tab\there"};
    for (int i = 0; i < 40; i++) {
        lttng_ust_tracepoint(tracerd, sample, i - 20, msgs[i % 4], seq, (size_t)(i % 6),
                             i * 0.5, i % 12);
        lttng_ust_tracepoint(tracerd, tick, (unsigned long long)i * 1000003ull);
        if (i % 10 == 9)
            usleep(2000);
    }
    return 0;
}
C
LTTNG_EVENTS='tracerd:*' LTTNG_CHANNEL='--subbuf-size=8192 --num-subbuf=2' \
    LTTNG_CONTEXTS='-t vpid -t vtid -t procname' LTTNG_CFLAGS='' \
    sh tools/lttng_record.sh "$tmp" "$out/demo-lttng-ust"
# babeltrace2's CTF writer (sink.ctf.fs) rewriting the same trace
rm -rf "$out/bt2-sink-ctf" "$tmp/bt2"
babeltrace2 "$out/demo-lttng-ust" -c sink.ctf.fs -p "path=\"$tmp/bt2\"" >/dev/null
m=$(dirname "$(find "$tmp/bt2" -name metadata | head -n 1)")
mkdir -p "$out/bt2-sink-ctf"
cp "$m"/* "$out/bt2-sink-ctf/"
du -sh "$out/demo-lttng-ust" "$out/bt2-sink-ctf"
