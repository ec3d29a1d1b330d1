/* FDR with the runtime's default options (empty configuration): 5 us
 * duration threshold, so calls shorter than that are rewound (erased) and
 * only the slow ones stay. */
#include <unistd.h>

#include "xray_rt.h"

NOINLINE int slow(int x)
{
    usleep(20);
    return x + 1;
}

NOINLINE int fast(int x)
{
    return x * 3;
}

NOINLINE int both(int x)
{
    return slow(x) + fast(x);
}

NO_XRAY int main(void)
{
    volatile int acc = 0;
    rt_start("xray-fdr", "");
    for (int k = 0; k < 3; k++) {
        acc += both(k);
        acc += fast(k);
    }
    rt_stop();
    return acc == 0;
}
