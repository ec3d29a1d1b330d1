/* Single thread, FDR, one buffer: functions that log their first argument
 * (EnterArg records followed by CallArgument metadata). */
#include "xray_rt.h"

__attribute__((xray_always_instrument, xray_log_args(1))) NOINLINE long scale(long x)
{
    return x * 5 - 2;
}

__attribute__((xray_always_instrument, xray_log_args(1))) NOINLINE unsigned long
mix(unsigned long x)
{
    return (x ^ 0x5a5aull) + (unsigned long)scale((long)x);
}

NOINLINE int plain(int x)
{
    return x + 11;
}

NO_XRAY int main(void)
{
    volatile unsigned long acc = 0;
    rt_start("xray-fdr", "buffer_size=4096:buffer_max=1:func_duration_threshold_us=0");
    acc += mix(0x1122334455667788ull);
    acc += (unsigned long)scale(-3);
    acc += (unsigned long)scale(0);
    acc += (unsigned long)plain((int)acc);
    acc += mix(0xffffffffffffffffull);
    rt_stop();
    return acc == 0;
}
