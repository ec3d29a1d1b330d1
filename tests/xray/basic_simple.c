/* One traced thread, basic ("naive") mode: nested calls, a tail call and a
 * function that logs its first argument. Basic mode writes a thread's records
 * when the thread exits (the main thread's are never written), so the work
 * runs in a second thread. */
#include <pthread.h>

#include "xray_rt.h"

NOINLINE int leaf(int x)
{
    return x * 3 + 1;
}

NOINLINE int mid(int x)
{
    return leaf(x) + leaf(x + 1);
}

NOINLINE int tail(int x)
{
    return leaf(x + 7);
}

__attribute__((xray_always_instrument, xray_log_args(1))) NOINLINE long scale(long x)
{
    return x * 5 - 2;
}

NO_XRAY static void *worker(void *arg)
{
    volatile long acc = (long)(intptr_t)arg;
    for (int k = 0; k < 2; k++)
        acc += mid(k);
    acc += tail((int)acc);
    acc += scale(0x123456789abcdefl);
    acc += scale(-1);
    return NULL;
}

NO_XRAY int main(void)
{
    pthread_t t;
    rt_start("xray-basic", "func_duration_threshold_us=0");
    if (pthread_create(&t, NULL, worker, NULL) != 0)
        return 2;
    pthread_join(t, NULL);
    rt_stop();
    return 0;
}
