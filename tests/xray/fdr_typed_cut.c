/* Single thread, FDR, one buffer, ending: typed event, then a custom event
 * with a 5-byte payload. LLVM 14 leaves the extent 16 bytes short after the
 * typed event and writes the buffer by its extent, so the file ends 13 bytes
 * into the custom event's marker: a record cut by the extent, as real
 * runtimes write it. */
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
    uint16_t t = __xray_register_event_type("tracerd.cut");
    acc += work(1);
    typed(t, "abc");
    custom("12345");
    rt_stop();
    return acc == 0;
}
