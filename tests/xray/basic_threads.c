/* Three threads, basic mode: each thread's records are written when its
 * buffer fills or the thread exits, so chunks of threads follow each other. */
#include <pthread.h>

#include "xray_rt.h"

#define NTHREADS 3

NOINLINE int leaf(int x)
{
    return x ^ 0x55;
}

NOINLINE int step(int x)
{
    return leaf(x) + 1;
}

NO_XRAY static void *worker(void *arg)
{
    volatile int acc = (int)(intptr_t)arg;
    for (int k = 0; k < 10; k++)
        acc += step(k);
    return NULL;
}

NO_XRAY int main(void)
{
    pthread_t t[NTHREADS];
    rt_start("xray-basic", "func_duration_threshold_us=0");
    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) != 0)
            return 2;
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    rt_stop();
    return 0;
}
