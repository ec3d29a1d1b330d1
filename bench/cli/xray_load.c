/* A real XRay FDR trace for `make bench-cli`: two threads run a few
 * thousand nested calls each per round, instrumented with
 * -fxray-instrument, until the FDR buffers (bench/cli.sh sets their count and
 * size) are full. Built and run by bench/cli.sh only. */
#include <pthread.h>

#include "../../tests/xray/xray_rt.h"

#define NTHREADS 2

NOINLINE int leaf(int x)
{
    return x ^ 0x55;
}

NOINLINE int mid(int x)
{
    return leaf(x) + leaf(x + 1);
}

NOINLINE int top(int x)
{
    return mid(x) + mid(x * 3) + leaf(x);
}

NO_XRAY static void *worker(void *arg)
{
    volatile int acc = (int)(intptr_t)arg;
    long rounds = atol(getenv("BENCH_XRAY_ROUNDS") ? getenv("BENCH_XRAY_ROUNDS") : "400000");
    for (long k = 0; k < rounds; k++)
        acc += top((int)k);
    return NULL;
}

NO_XRAY int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    rt_start("xray-fdr", argv[1]);
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) != 0)
            return 2;
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    rt_stop();
    return 0;
}
