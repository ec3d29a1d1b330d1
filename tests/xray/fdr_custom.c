/* Single thread, FDR, one buffer: custom events only (no typed events, so
 * the buffer extent is exact and llvm-xray reads every record). */
#include <string.h>

#include "xray_rt.h"

NOINLINE int work(int x)
{
    return x * 7;
}

__attribute__((xray_always_instrument)) NOINLINE void custom(const char *msg)
{
    __xray_customevent(msg, strlen(msg));
}

NO_XRAY int main(void)
{
    volatile int acc = 0;
    rt_start("xray-fdr", "buffer_size=4096:buffer_max=1:func_duration_threshold_us=0");
    acc += work(1);
    custom("hello, xray");
    acc += work(2);
    custom("second custom event, a little longer than the first one");
    custom("x");
    acc += work(3);
    rt_stop();
    return acc == 0;
}
