#!/bin/sh
# A big real LTTng-UST trace for `make bench-cli`: a small program with two
# tracepoints (integers, a string, a sequence, a float) runs EVENTS loop turns
# on two threads while lttng-tools records them in blocking mode (nothing
# discarded), one stream per CPU. Needs lttng-tools, liblttng-ust-dev, a C
# compiler and root (tools/lttng_record.sh records it).
#   sh bench/cli/record_lttng.sh OUTDIR EVENTS
set -eu
out=$1
events=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cat >"$tmp/tp.h" <<'H'
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER bench
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tp.h"
#if !defined(BENCH_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_TP_H
#include <lttng/tracepoint.h>
LTTNG_UST_TRACEPOINT_EVENT(bench, request,
    LTTNG_UST_TP_ARGS(int, id, const char *, path, const unsigned short *, v, size_t, n, double, ms),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int, id, id)
        lttng_ust_field_integer(unsigned long, bytes, (unsigned long)id * 97u)
        lttng_ust_field_string(path, path)
        lttng_ust_field_sequence(unsigned short, v, v, size_t, n)
        lttng_ust_field_float(double, ms, ms)))
LTTNG_UST_TRACEPOINT_EVENT(bench, tick,
    LTTNG_UST_TP_ARGS(unsigned long long, n),
    LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(unsigned long long, n, n)))
#endif
#include <lttng/tracepoint-event.h>
H
cat >"$tmp/app.c" <<'C'
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "tp.h"
#include <pthread.h>
#include <stdlib.h>
static long turns;
static void *work(void *arg)
{
    static const unsigned short v[6] = {1, 2, 3, 500, 65535, 7};
    static const char *const paths[] = {"/index.html", "/api/v1/items?id=42", "/static/app.js",
                                        "/health"};
    long base = (long)(size_t)arg;
    for (long i = 0; i < turns; i++) {
        lttng_ust_tracepoint(bench, request, (int)(base + i), paths[i & 3], v, (size_t)(i % 7),
                             (double)i * 0.25);
        lttng_ust_tracepoint(bench, tick, (unsigned long long)i);
    }
    return NULL;
}
int main(int argc, char **argv)
{
    turns = argc > 1 ? atol(argv[1]) / 4 : 1000;
    pthread_t t[2];
    for (long k = 0; k < 2; k++)
        pthread_create(&t[k], NULL, work, (void *)(size_t)(k << 30));
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    return 0;
}
C
LTTNG_EVENTS='bench:*' LTTNG_CHANNEL='--subbuf-size=1M --num-subbuf=8 --blocking-timeout=inf' \
    LTTNG_CONTEXTS='-t vpid -t vtid' LTTNG_CFLAGS=-O2 LTTNG_LIBS=-lpthread LTTNG_UST_ALLOW_BLOCKING=1 \
    sh tools/lttng_record.sh "$tmp" "$out" "$events"
du -sh "$out"
