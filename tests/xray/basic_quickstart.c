/* Basic mode the way the XRay documentation starts it: no runtime calls in
 * the program, XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic", the
 * default 5 us duration threshold (fast() is dropped), and the main thread's
 * records written at exit. */
#include <unistd.h>

__attribute__((noinline)) int slow(int x)
{
    usleep(20);
    return x + 1;
}

__attribute__((noinline)) int fast(int x)
{
    return x * 3;
}

int main(void)
{
    volatile int acc = 0;
    for (int k = 0; k < 3; k++) {
        acc += slow(k);
        acc += fast(k);
    }
    return acc == 0;
}
