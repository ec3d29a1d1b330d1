/* Four threads, FDR, small buffers: each thread fills two or three buffers,
 * so the file holds several buffers per thread in allocation order.
 * Built with -DBUFFER_MAX='"3"' (fdr_exhausted), the ring wraps: released
 * buffers are reused and their old records overwritten. */
#include <pthread.h>
#include <sched.h>

#include "xray_rt.h"

#define NTHREADS 4
#ifndef BUFFER_MAX
#define BUFFER_MAX "64"
#endif

NOINLINE int leaf(int x)
{
    return x ^ 0x55;
}

NOINLINE int step(int x)
{
    return leaf(x) + 1;
}

static pthread_barrier_t start;

/* All threads start together and yield between calls, so their buffers are
 * taken from the queue in turn and interleave in the file. */
NO_XRAY static void *worker(void *arg)
{
    volatile int acc = (int)(intptr_t)arg;
    pthread_barrier_wait(&start);
    for (int k = 0; k < 12; k++) {
        acc += step(k);
        sched_yield();
    }
    return NULL;
}

NO_XRAY int main(void)
{
    pthread_t t[NTHREADS];
    pthread_barrier_init(&start, NULL, NTHREADS);
    /* 256-byte buffers: 80 bytes of preamble, then room for 22 records. */
    rt_start("xray-fdr", "buffer_size=256:buffer_max=" BUFFER_MAX ":func_duration_threshold_us=0");
    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) != 0)
            return 2;
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    rt_stop();
    pthread_barrier_destroy(&start);
    return 0;
}
