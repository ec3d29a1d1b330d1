/* read_file: print every event of a trace file of any format, one per line.
 *
 *   read_file TRACE
 *
 * The auto reader detects the format from the first bytes; the file is fed
 * in 64 KiB chunks, and each event's views (names, arguments) are used inside
 * the callback only, as the API requires. */
#include <stdio.h>
#include <stdlib.h>

#include <tracerd/event.h>

static int on_event(void *user, const tracerd_event_t *ev)
{
    unsigned long *count = user;
    (*count)++;
    printf("%-12s t=%llu tid=%llu %.*s\n", tracerd_event_kind_name(ev->kind),
           (unsigned long long)ev->ticks, (unsigned long long)ev->tid, (int)ev->name.len,
           ev->name.data);
    return TRACERD_CB_CONTINUE;
}

static int on_source(void *user, const tracerd_event_source_t *src)
{
    (void)user;
    printf("format %s version %u, %s-endian, %llu ticks/s\n", src->format_name,
           (unsigned)src->version, tracerd_byte_order_name(src->byte_order),
           (unsigned long long)src->ticks_per_second);
    return TRACERD_CB_CONTINUE;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRACE\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 3;
    }
    unsigned long count = 0;
    tracerd_event_callbacks_t cbs = {.on_event = on_event, .on_source = on_source};
    tracerd_auto_reader_t *r;
    if (tracerd_auto_new(NULL, &cbs, &count, NULL, &r) != TRACERD_OK) {
        fclose(f);
        return 3;
    }
    static unsigned char buf[65536];
    tracerd_status_t st = TRACERD_OK;
    size_t n;
    while (st == TRACERD_OK && (n = fread(buf, 1, sizeof buf, f)) > 0)
        st = tracerd_auto_feed(r, buf, n, NULL); /* no callback pauses here */
    if (st == TRACERD_OK)
        st = tracerd_auto_finish(r);
    int rc = 0;
    if (st != TRACERD_OK) {
        fprintf(stderr, "%s: %s at byte %llu: %s\n", argv[1], tracerd_status_name(st),
                (unsigned long long)tracerd_auto_record_offset(r), tracerd_auto_error_reason(r));
        rc = 1;
    }
    printf("%lu events\n", count);
    tracerd_auto_free(r);
    fclose(f);
    return rc;
}
