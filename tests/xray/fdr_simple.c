/* Single thread, FDR, one buffer: nested calls and a tail call. */
#include "xray_rt.h"

NOINLINE int leaf(int x)
{
    return x * 3 + 1;
}

NOINLINE int mid(int x)
{
    return leaf(x) + leaf(x + 1);
}

/* Compiled at -O2, the call to leaf is a tail call: XRay logs a tail exit. */
NOINLINE int tail(int x)
{
    return leaf(x + 7);
}

NO_XRAY int main(void)
{
    volatile int acc = 0;
    rt_start("xray-fdr", "buffer_size=4096:buffer_max=1:func_duration_threshold_us=0");
    for (int k = 0; k < 3; k++)
        acc += mid(k);
    acc += tail(acc);
    rt_stop();
    return acc == 0;
}
