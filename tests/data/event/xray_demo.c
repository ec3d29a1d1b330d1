/* XRay FDR demo program for the event tests (tests/data/event/gen.sh, check_event.c). */
#include <stdio.h>
int __xray_log_select_mode(const char *);
int __xray_log_init_mode(const char *, const char *);
int __xray_patch(void);
int __xray_unpatch(void);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);
__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }
__attribute__((noinline)) int mid(int x) { int s = 0; for (int i = 0; i < 3; i++) s += leaf(x + i); return s; }
__attribute__((noinline)) int top(int n) { int s = 0; for (int i = 0; i < n; i++) s += mid(i); return s; }
int main(void) {
    if (__xray_log_select_mode("xray-fdr") != 0) return 2;
    if (__xray_log_init_mode("xray-fdr", "buffer_size=16384:buffer_max=4") != 2) return 3;
    __xray_patch();
    volatile int r = top(5);
    __xray_log_finalize();
    __xray_log_flushLog();
    __xray_unpatch();
    printf("%d\n", r);
    return 0;
}
