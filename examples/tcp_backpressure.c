/* tcp_backpressure: read a trace from a TCP socket, with back-pressure.
 *
 *   tcp_backpressure HOST PORT
 *
 * Events are collected into a small batch. When the batch is full the
 * callback returns TRACERD_CB_PAUSE: feed() stops right after that event and
 * says how many bytes it used. We then process the batch (here: print a
 * line; a real client would write to a slow disk or network), resume, and
 * feed the rest of the same chunk. While we process, we do not read the
 * socket, so TCP flow control slows the sender down: memory stays bounded. */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tracerd/event.h>

#define BATCH 256

struct batch {
    uint64_t ticks[BATCH];
    size_t n;
    unsigned long total;
};

static int on_event(void *user, const tracerd_event_t *ev)
{
    struct batch *b = user;
    b->ticks[b->n++] = ev->ticks;
    b->total++;
    return b->n == BATCH ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

static void process(struct batch *b)
{
    if (b->n > 0)
        printf("batch of %zu events, ticks %llu..%llu\n", b->n, (unsigned long long)b->ticks[0],
               (unsigned long long)b->ticks[b->n - 1]);
    b->n = 0;
}

static int dial(const char *host, const char *port)
{
    struct addrinfo hints, *res;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &res) != 0)
        return -1;
    int fd = -1;
    for (struct addrinfo *ai = res; ai != NULL && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    return fd;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s HOST PORT\n", argv[0]);
        return 2;
    }
    int fd = dial(argv[1], argv[2]);
    if (fd < 0) {
        fprintf(stderr, "cannot connect to %s:%s\n", argv[1], argv[2]);
        return 3;
    }
    struct batch b;
    memset(&b, 0, sizeof b);
    tracerd_event_callbacks_t cbs = {.on_event = on_event};
    tracerd_auto_reader_t *r;
    if (tracerd_auto_new(NULL, &cbs, &b, NULL, &r) != TRACERD_OK)
        return 3;
    static unsigned char buf[16384];
    tracerd_status_t st = TRACERD_OK;
    ssize_t got;
    while (st == TRACERD_OK && (got = recv(fd, buf, sizeof buf, 0)) > 0) {
        size_t off = 0, len = (size_t)got;
        while (off < len) {
            size_t used = 0;
            st = tracerd_auto_feed(r, buf + off, len - off, &used);
            off += used; /* exact, even when paused mid-chunk */
            if (st == TRACERD_PAUSED) {
                process(&b);
                st = tracerd_auto_resume(r);
            }
            if (st != TRACERD_OK)
                break;
        }
    }
    /* finish may pause too: the last events are delivered here */
    while (st == TRACERD_OK || st == TRACERD_PAUSED) {
        st = tracerd_auto_finish(r);
        if (st != TRACERD_PAUSED)
            break;
        process(&b);
        st = tracerd_auto_resume(r);
    }
    process(&b);
    int rc = 0;
    if (st != TRACERD_OK) {
        fprintf(stderr, "%s at byte %llu: %s\n", tracerd_status_name(st),
                (unsigned long long)tracerd_auto_record_offset(r), tracerd_auto_error_reason(r));
        rc = 1;
    }
    printf("%lu events\n", b.total);
    tracerd_auto_free(r);
    close(fd);
    return rc;
}
