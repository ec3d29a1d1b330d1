/* --lenient warnings. The readers deliver consecutive skips of one kind as
 * one warning with a count (tracerd_warning_t.count: the library's
 * coalescing, doc/api.md "Warnings"); this prints each where it arrives: a
 * dump line in place (with "count" when more than one), or a line on
 * standard error (silenced by --quiet). 100 MB of zeros after an FXT header
 * is one warning, not 13 million. */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

int cli_warning(cli_t *c, const cli_warn_sink_t *s, const tracerd_warning_t *w)
{
    const char *reason = w->reason != NULL ? w->reason : "";
    uint64_t count = w->count;
    c->warnings += count;
    if (s->dump_out != NULL) {
        wr_t *f = s->dump_out;
        WR_LIT(f, "{\"");
        wr_cstr(f, s->key != NULL ? s->key : "type");
        WR_LIT(f, "\":\"warning\"");
        if (s->stream != NULL)
            cli_json_member(f, "stream", s->stream, strlen(s->stream));
        wr_printf(f, ",\"offset\":%" PRIu64 ",\"status\":\"%s\",\"skipped_bytes\":%" PRIu64,
                  w->offset, tracerd_status_name(w->status), w->skipped_bytes);
        cli_json_member(f, "reason", reason, strlen(reason));
        if (count > 1)
            wr_printf(f, ",\"count\":%" PRIu64, count);
        WR_LIT(f, "}\n");
        return TRACERD_CB_CONTINUE;
    }
    if (c->quiet)
        return TRACERD_CB_CONTINUE;
    cli_progress_done(c);
    fprintf(stderr, "%s: %s: %s%swarning %s at byte %" PRIu64 ": %s", c->prog,
            s->stream != NULL ? s->stream : c->path, s->format != NULL ? s->format : "",
            s->format != NULL ? " " : "", tracerd_status_name(w->status), w->offset, reason);
    if (count > 1)
        fprintf(stderr, " (%" PRIu64 " times, %" PRIu64 " bytes skipped up to byte %" PRIu64 ")",
                count, w->skipped_bytes, w->offset + w->skipped_bytes);
    else if (w->skipped_bytes > 0)
        fprintf(stderr, " (skipped %" PRIu64 " bytes)", w->skipped_bytes);
    fputc('\n', stderr);
    return TRACERD_CB_CONTINUE;
}
