/* Single thread, FDR: custom events (__xray_customevent) and typed events
 * (__xray_typedevent) between function calls. LLVM 14's runtime leaves the
 * buffer extent 16 bytes short after each typed event, so the file ends with
 * records outside the extent; see doc/formats/xray-real.md. */
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

__attribute__((xray_always_instrument)) NOINLINE void typed(uint16_t type, const char *msg)
{
    __xray_typedevent(type, msg, strlen(msg));
}

NO_XRAY int main(void)
{
    volatile int acc = 0;
    rt_start("xray-fdr", "buffer_size=4096:buffer_max=1:func_duration_threshold_us=0");
    uint16_t t = __xray_register_event_type("tracerd.test");
    acc += work(1);
    custom("hello, xray");
    acc += work(2);
    custom("second custom event, a little longer than the first one");
    acc += work(3);
    typed(t, "typed payload");
    acc += work(4);
    rt_stop();
    return acc == 0;
}
