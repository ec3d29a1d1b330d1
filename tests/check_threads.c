/* Readers in several threads at once: every format through the auto reader
 * (and a CTF trace directory through the directory reader), each thread with
 * its own readers over the same shared, read-only input, must give what one
 * thread gives. `make check-tsan` runs this suite built with clang
 * -fsanitize=thread, which reports any data race (a hidden global, a static
 * buffer, strerror, ...). */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/tracerd.h>

#define NTHREADS 4
#define ROUNDS 3

typedef struct input {
    const char *path;     /* a stream file, or a CTF trace directory (dir) */
    const char *metadata; /* CTF: the metadata file of a stream, or NULL */
    tracerd_event_format_t format; /* forced (xtrace), or UNKNOWN */
    bool dir;
    uint8_t *data, *meta;
    size_t len, meta_len;
} input_t;

static input_t inputs[] = {
    {"tests/data/xray/demo-fdr.xray", NULL, TRACERD_EVENT_FORMAT_UNKNOWN, false, 0, 0, 0, 0},
    {"tests/data/xray/basic-v3-le.xray", NULL, TRACERD_EVENT_FORMAT_UNKNOWN, false, 0, 0, 0, 0},
    {"tests/data/fxt/demo.fxt", NULL, TRACERD_EVENT_FORMAT_UNKNOWN, false, 0, 0, 0, 0},
    {"tests/data/ctf/bt2-python/stream", "tests/data/ctf/bt2-python/metadata",
     TRACERD_EVENT_FORMAT_UNKNOWN, false, 0, 0, 0, 0},
    {"tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xinsndata.bin", NULL,
     TRACERD_EVENT_FORMAT_XTRACE, false, 0, 0, 0, 0},
    {"tests/data/ctf/demo-lttng-ust", NULL, TRACERD_EVENT_FORMAT_UNKNOWN, true, 0, 0, 0, 0},
};
#define NINPUTS (sizeof inputs / sizeof inputs[0])

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s: cannot open", path);
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    size_t k;
    while (b != NULL && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap)
            b = realloc(b, cap *= 2);
    }
    fclose(f);
    ck_assert_ptr_nonnull(b);
    *len = n;
    return b;
}

/* What a run saw: event count and a hash of every event's kind, time, ids
 * and name. */
typedef struct digest {
    uint64_t events, hash;
    tracerd_status_t status;
} digest_t;

static void mix(digest_t *d, uint64_t v)
{
    d->hash = (d->hash ^ v) * 0x100000001b3ull;
}

static int on_event(void *user, const tracerd_event_t *ev)
{
    digest_t *d = user;
    d->events++;
    mix(d, (uint64_t)ev->kind);
    mix(d, ev->ticks);
    mix(d, ev->ns);
    mix(d, ev->tid);
    mix(d, ev->nargs);
    for (size_t i = 0; i < ev->name.len; i++)
        mix(d, ev->name.data[i]);
    return TRACERD_CB_CONTINUE;
}

/* Reads one input with fresh readers, in chunks of `chunk` bytes. */
static digest_t read_input(const input_t *in, size_t chunk)
{
    digest_t d = {0, 0xcbf29ce484222325ull, TRACERD_OK};
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.format = in->format;
    tracerd_event_callbacks_t cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.on_event = on_event;
    if (in->dir) {
        tracerd_event_dir_t *dr = NULL;
        d.status = tracerd_event_dir_open(in->path, &cfg, &cbs, &d, NULL, &dr);
        while (d.status == TRACERD_OK || d.status == TRACERD_PAUSED) {
            d.status = tracerd_event_dir_run(dr);
            if (d.status == TRACERD_OK)
                break;
        }
        tracerd_event_dir_free(dr);
        return d;
    }
    tracerd_auto_reader_t *r = NULL;
    d.status = tracerd_auto_new(&cfg, &cbs, &d, NULL, &r);
    if (d.status == TRACERD_OK && in->meta != NULL)
        d.status = tracerd_auto_metadata(r, in->meta, in->meta_len);
    for (size_t off = 0; d.status == TRACERD_OK && off < in->len;) {
        size_t n = in->len - off < chunk ? in->len - off : chunk, used = 0;
        d.status = tracerd_auto_feed(r, in->data + off, n, &used);
        off += used;
    }
    if (d.status == TRACERD_OK)
        d.status = tracerd_auto_finish(r);
    tracerd_auto_free(r);
    return d;
}

static digest_t baseline[NINPUTS];

typedef struct job {
    unsigned id;
    bool ok;
    char what[256];
} job_t;

static void *worker(void *arg)
{
    job_t *j = arg;
    j->ok = true;
    for (unsigned round = 0; round < ROUNDS; round++) {
        for (size_t i = 0; i < NINPUTS; i++) {
            size_t chunk = 1 + (j->id * 131 + round * 17 + i * 7) % 509;
            digest_t d = read_input(&inputs[i], chunk);
            if (d.status != baseline[i].status || d.events != baseline[i].events ||
                d.hash != baseline[i].hash) {
                j->ok = false;
                snprintf(j->what, sizeof j->what, "%s, thread %u, chunk %zu: %s, %llu events",
                         inputs[i].path, j->id, chunk, tracerd_status_name(d.status),
                         (unsigned long long)d.events);
                return NULL;
            }
        }
    }
    return NULL;
}

START_TEST(test_readers_in_threads)
{
    for (size_t i = 0; i < NINPUTS; i++) {
        if (!inputs[i].dir)
            inputs[i].data = slurp(inputs[i].path, &inputs[i].len);
        if (inputs[i].metadata != NULL)
            inputs[i].meta = slurp(inputs[i].metadata, &inputs[i].meta_len);
        baseline[i] = read_input(&inputs[i], 1 << 20);
        ck_assert_msg(baseline[i].status == TRACERD_OK && baseline[i].events > 0, "%s: %s",
                      inputs[i].path, tracerd_status_name(baseline[i].status));
    }
    pthread_t th[NTHREADS];
    job_t jobs[NTHREADS];
    for (unsigned t = 0; t < NTHREADS; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].id = t;
        ck_assert_int_eq(pthread_create(&th[t], NULL, worker, &jobs[t]), 0);
    }
    for (unsigned t = 0; t < NTHREADS; t++)
        ck_assert_int_eq(pthread_join(th[t], NULL), 0);
    for (unsigned t = 0; t < NTHREADS; t++)
        ck_assert_msg(jobs[t].ok, "differs from one thread: %s", jobs[t].what);
    for (size_t i = 0; i < NINPUTS; i++) {
        free(inputs[i].data);
        free(inputs[i].meta);
        inputs[i].data = inputs[i].meta = NULL;
    }
}
END_TEST

Suite *suite_threads(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_readers_in_threads);
    suite_add_tcase(s, tc);
    return s;
}
