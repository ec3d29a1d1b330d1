/* A client built only with `pkg-config --cflags --libs tracerd`. */
#include <stdio.h>
#include <string.h>

#include <tracerd/tracerd.h>

static int on_function(void *user, const tracerd_xray_function_t *f)
{
    *(int *)user += f->function_id;
    return TRACERD_CB_CONTINUE;
}

int main(void)
{
    /* Basic-mode v3 trace: header, then one 32-byte function record (id 7). */
    unsigned char trace[64] = {3, 0, 0, 0};
    trace[36] = 7;
    int sum = 0;
    tracerd_xray_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.on_function = on_function;
    tracerd_xray_reader_t *r;
    if (tracerd_xray_new(NULL, &cb, &sum, NULL, &r) != TRACERD_OK)
        return 1;
    size_t used;
    tracerd_status_t st = tracerd_xray_feed(r, trace, sizeof trace, &used);
    if (st == TRACERD_OK)
        st = tracerd_xray_finish(r);
    tracerd_xray_free(r);
    printf("tracerd %s: %s, function ids sum %d\n", tracerd_version_string(),
           tracerd_status_name(st), sum);
    return st == TRACERD_OK && sum == 7 ? 0 : 1;
}
