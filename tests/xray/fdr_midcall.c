/* One thread, FDR, a ring of two 256-byte buffers: one long call makes 100
 * short ones, so the ring wraps many times and the surviving buffers start in
 * the middle of the long call: its exit is in the file, its enter is not. */
#include "xray_rt.h"

NOINLINE int leaf(int x)
{
    return x ^ 0x33;
}

NOINLINE int outer(int n)
{
    int acc = 0;
    for (int k = 0; k < n; k++)
        acc += leaf(k);
    return acc;
}

NO_XRAY int main(void)
{
    volatile int acc = 0;
    rt_start("xray-fdr", "buffer_size=256:buffer_max=2:func_duration_threshold_us=0");
    acc += outer(100);
    rt_stop();
    return acc == 0;
}
