/* xray_durations: per-function call counts and durations from an XRay trace,
 * with names from the instrumented binary (a tiny `llvm-xray account`).
 *
 *   xray_durations TRACE [BINARY]
 *
 * Uses the XRay reader directly: entries push on a per-thread stack, exits
 * pop to the matching function. Function ids index a table sized by the
 * binary's instrumentation map (or 4096 without one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/event.h>
#include <tracerd/xray.h>

#define MAX_THREADS 64
#define MAX_DEPTH 256

struct frame {
    int32_t id;
    uint64_t start_ns;
};

struct thread {
    int32_t tid;
    int depth;
    struct frame stack[MAX_DEPTH];
};

struct acc {
    uint32_t nfuncs;
    uint64_t *count, *total_ns;
    struct thread threads[MAX_THREADS];
    int nthreads;
};

static struct thread *thread_of(struct acc *a, int32_t tid)
{
    for (int i = 0; i < a->nthreads; i++)
        if (a->threads[i].tid == tid)
            return &a->threads[i];
    if (a->nthreads == MAX_THREADS)
        return NULL;
    struct thread *t = &a->threads[a->nthreads++];
    t->tid = tid;
    t->depth = 0;
    return t;
}

static int on_function(void *user, const tracerd_xray_function_t *f)
{
    struct acc *a = user;
    struct thread *t = thread_of(a, f->tid);
    if (t == NULL || f->function_id <= 0 || (uint32_t)f->function_id > a->nfuncs)
        return TRACERD_CB_CONTINUE;
    if (f->kind == TRACERD_XRAY_ENTER || f->kind == TRACERD_XRAY_ENTER_ARGS) {
        if (t->depth < MAX_DEPTH)
            t->stack[t->depth++] = (struct frame){f->function_id, f->ns};
        return TRACERD_CB_CONTINUE;
    }
    int k = t->depth - 1; /* exit: find the matching entry */
    while (k >= 0 && t->stack[k].id != f->function_id)
        k--;
    if (k < 0)
        return TRACERD_CB_CONTINUE;
    for (int i = t->depth - 1; i >= k; i--) {
        int32_t id = t->stack[i].id;
        a->count[id]++;
        a->total_ns[id] += f->ns - t->stack[i].start_ns;
    }
    t->depth = k;
    return TRACERD_CB_CONTINUE;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t k;
    while (buf != NULL && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap *= 2);
            if (nb == NULL)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s TRACE [BINARY]\n", argv[0]);
        return 2;
    }
    tracerd_xray_names_t *names = NULL;
    struct acc a;
    memset(&a, 0, sizeof a);
    a.nfuncs = 4096;
    if (argc == 3) {
        size_t len;
        unsigned char *elf = slurp(argv[2], &len);
        if (elf == NULL || tracerd_xray_names_new(NULL, &names) != TRACERD_OK ||
            tracerd_xray_names_load(names, elf, len) != TRACERD_OK) {
            fprintf(stderr, "%s: %s\n", argv[2],
                    names ? tracerd_xray_names_error_reason(names) : "cannot read");
            return 2;
        }
        free(elf);
        a.nfuncs = tracerd_xray_names_count(names);
    }
    a.count = calloc((size_t)a.nfuncs + 1, sizeof *a.count);
    a.total_ns = calloc((size_t)a.nfuncs + 1, sizeof *a.total_ns);
    size_t len;
    unsigned char *trace = slurp(argv[1], &len);
    if (a.count == NULL || a.total_ns == NULL || trace == NULL) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 3;
    }
    tracerd_xray_callbacks_t cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.on_function = on_function;
    tracerd_xray_reader_t *r;
    tracerd_status_t st = tracerd_xray_new(NULL, &cbs, &a, NULL, &r);
    if (st == TRACERD_OK)
        st = tracerd_xray_feed(r, trace, len, NULL); /* the whole file in one feed */
    if (st == TRACERD_OK)
        st = tracerd_xray_finish(r);
    if (st != TRACERD_OK)
        fprintf(stderr, "%s: %s at byte %llu: %s\n", argv[1], tracerd_status_name(st),
                (unsigned long long)tracerd_xray_record_offset(r), tracerd_xray_error_reason(r));
    printf("%8s %10s %14s  %s\n", "id", "calls", "total_ns", "function");
    for (uint32_t id = 1; id <= a.nfuncs; id++) {
        if (a.count[id] == 0)
            continue;
        tracerd_str_t name;
        if (!tracerd_xray_names_lookup(names, (int32_t)id, &name))
            name = (tracerd_str_t){"?", 1};
        printf("%8u %10llu %14llu  %.*s\n", (unsigned)id, (unsigned long long)a.count[id],
               (unsigned long long)a.total_ns[id], (int)name.len, name.data);
    }
    tracerd_xray_free(r);
    tracerd_xray_names_free(names);
    free(trace);
    free(a.count);
    free(a.total_ns);
    return st == TRACERD_OK ? 0 : 1;
}
