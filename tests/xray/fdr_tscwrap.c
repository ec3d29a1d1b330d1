/* Single thread, FDR, one buffer: a sleep long enough that the TSC moves by
 * more than INT32_MAX ticks between two calls, so the runtime writes a
 * TSCWrap record instead of a delta (run pinned to one CPU, else a NewCPUId
 * may be written instead). */
#include <time.h>

#include "xray_rt.h"

NOINLINE int before(int x)
{
    return x + 1;
}

NOINLINE int after(int x)
{
    return x + 2;
}

NO_XRAY int main(void)
{
    volatile int acc = 0;
    struct timespec ts = {3, 0}; /* 3 s: above INT32_MAX ticks up to a 715 MHz TSC */
    rt_start("xray-fdr", "buffer_size=4096:buffer_max=1:func_duration_threshold_us=0");
    acc += before(1);
    nanosleep(&ts, NULL);
    acc += after(2);
    acc += before(3);
    rt_stop();
    return acc == 0;
}
