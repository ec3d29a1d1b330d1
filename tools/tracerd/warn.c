/* --lenient warnings, coalesced: consecutive skips of the same kind become
 * one warning with a count. Two skips are consecutive when the second starts
 * where the first ended (offset + skipped bytes): no record was decoded in
 * between. They are of the same kind when the status, the stream and the
 * reason are the same, numbers in the reason aside (reasons quote offsets
 * and values). A run is printed when it ends: at a skip that does not
 * continue it, before the next record of a dump (cli_warning_flush), and at
 * the end of the input. 100 MB of zeros after an FXT header is one warning,
 * not 13 million. */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

/* The reasons a and b, digits runs counting as one character. */
static bool same_kind(const char *a, const char *b)
{
    for (;;) {
        bool da = *a >= '0' && *a <= '9', db = *b >= '0' && *b <= '9';
        if (da != db)
            return false;
        if (da) {
            while (*a >= '0' && *a <= '9')
                a++;
            while (*b >= '0' && *b <= '9')
                b++;
            continue;
        }
        if (*a != *b)
            return false;
        if (*a == '\0')
            return true;
        a++;
        b++;
    }
}

static void print(cli_t *c, const struct cli_warn_run *p)
{
    const cli_warn_sink_t *s = &p->sink;
    if (s->dump_out != NULL) {
        wr_t *f = s->dump_out;
        WR_LIT(f, "{\"");
        wr_cstr(f, s->key != NULL ? s->key : "type");
        WR_LIT(f, "\":\"warning\"");
        if (s->stream != NULL)
            cli_json_member(f, "stream", p->stream, strlen(p->stream));
        wr_printf(f, ",\"offset\":%" PRIu64 ",\"status\":\"%s\",\"skipped_bytes\":%" PRIu64,
                  p->offset, tracerd_status_name(p->status), p->skipped);
        cli_json_member(f, "reason", p->reason, strlen(p->reason));
        if (p->count > 1)
            wr_printf(f, ",\"count\":%" PRIu64, p->count);
        WR_LIT(f, "}\n");
        return;
    }
    if (c->quiet)
        return;
    cli_progress_done(c);
    fprintf(stderr, "%s: %s: %s%swarning %s at byte %" PRIu64 ": %s", c->prog,
            s->stream != NULL ? s->stream : c->path, s->format != NULL ? s->format : "",
            s->format != NULL ? " " : "", tracerd_status_name(p->status), p->offset, p->reason);
    if (p->count > 1)
        fprintf(stderr, " (%" PRIu64 " times, %" PRIu64 " bytes skipped up to byte %" PRIu64 ")",
                p->count, p->skipped, p->offset + p->skipped);
    else if (p->skipped > 0)
        fprintf(stderr, " (skipped %" PRIu64 " bytes)", p->skipped);
    fputc('\n', stderr);
}

void cli_warning_flush(cli_t *c)
{
    struct cli_warn_run *p = &c->warn;
    if (!p->pending)
        return;
    p->pending = false;
    print(c, p);
}

int cli_warning(cli_t *c, const cli_warn_sink_t *sink, const tracerd_warning_t *w)
{
    struct cli_warn_run *p = &c->warn;
    const char *reason = w->reason != NULL ? w->reason : "";
    c->warnings++;
    if (p->pending && p->sink.dump_out == sink->dump_out && p->sink.key == sink->key &&
        p->sink.format == sink->format && (p->sink.stream != NULL) == (sink->stream != NULL) &&
        (sink->stream == NULL || strncmp(p->stream, sink->stream, sizeof p->stream - 1) == 0) &&
        p->status == w->status && w->offset == p->offset + p->skipped &&
        same_kind(p->reason, reason)) {
        p->skipped += w->skipped_bytes;
        p->count++;
        return TRACERD_CB_CONTINUE;
    }
    cli_warning_flush(c);
    p->pending = true;
    p->sink = *sink;
    if (sink->stream != NULL) {
        snprintf(p->stream, sizeof p->stream, "%s", sink->stream);
        p->sink.stream = p->stream;
    }
    p->status = w->status;
    p->offset = w->offset;
    p->skipped = w->skipped_bytes;
    p->count = 1;
    snprintf(p->reason, sizeof p->reason, "%s", reason);
    return TRACERD_CB_CONTINUE;
}
