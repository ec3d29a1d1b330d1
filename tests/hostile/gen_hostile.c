/* Writes one hostile input (tests/support/hostile.c) to files, with any size
 * parameter, to reproduce issue 14's table with the CLI:
 *   build/hostile_gen CLASS N OUTDIR
 * CTF classes write OUTDIR/metadata and OUTDIR/stream (a trace directory);
 * the others write OUTDIR/trace (xtrace: OUTDIR/t.xinsndata.bin). Classes:
 * fxt-large fxt-strings fxt-threads fxt-providers xray-event xray-args
 * xray-buffers xtrace-iovs xtrace-iov-len xtrace-mem xtrace-snap (N snapshots)
 * xtrace-snap-vl (snapshot 5 of 10 with the trailing vector length N;
 * snapshot files are OUTDIR/xtrace.1.1.hint9.xsnapshot.bin) ctf-laughs ctf-empty-array
 * ctf-empty-seq ctf-enum ctf-aliases ctf-events ctf-fields ctf-streams ctf-unused (N structs of 1000 members, unused)
 * ctf-kernel (N event classes of 4 fields declared in place, as LTTng does)
 * ctf-clocks (N clock blocks) ctf-env (an env block of N entries)
 * ctf-variant; and `ctf-dir STREAMS OUTDIR EVENTS` writes a trace directory
 * of STREAMS stream files of EVENTS events each, interleaved in time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support/hostile.h"

static int write_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4 && !(argc == 5 && !strcmp(argv[1], "ctf-dir"))) {
        fprintf(stderr, "usage: %s CLASS N OUTDIR | ctf-dir STREAMS OUTDIR EVENTS\n", argv[0]);
        return 2;
    }
    const char *c = argv[1];
    if (!strcmp(c, "ctf-dir")) /* a trace directory of N streams of EVENTS events (20 bytes) */
        return hg_ctf_dir_streams(argv[3], (unsigned)strtoul(argv[2], NULL, 0),
                                  argc == 5 ? (unsigned)strtoul(argv[4], NULL, 0) : 64) != 0;
    unsigned long long n = strtoull(argv[2], NULL, 0);
    unsigned u = (unsigned)n;
    hostile_t h;
    memset(&h, 0, sizeof h);
    if (!strcmp(c, "fxt-large")) hg_fxt_large_record(&h, n);
    else if (!strcmp(c, "fxt-strings")) hg_fxt_string_churn(&h, u);
    else if (!strcmp(c, "fxt-threads")) hg_fxt_thread_churn(&h, u);
    else if (!strcmp(c, "fxt-providers")) hg_fxt_providers(&h, u);
    else if (!strcmp(c, "xray-event")) hg_xray_event_size(&h, (int32_t)n);
    else if (!strcmp(c, "xray-args")) hg_xray_args(&h, u);
    else if (!strcmp(c, "xray-buffers")) hg_xray_buffer_churn(&h, u);
    else if (!strcmp(c, "xtrace-iovs")) hg_xtrace_iov_count(&h, n);
    else if (!strcmp(c, "xtrace-iov-len")) hg_xtrace_iov_len(&h, n);
    else if (!strcmp(c, "xtrace-mem")) hg_xtrace_mem_size(&h, u);
    else if (!strcmp(c, "xtrace-snap")) hg_xtrace_snap(&h, u, HG_SNAP_NONE, 0, 0);
    else if (!strcmp(c, "xtrace-snap-vl")) hg_xtrace_snap(&h, 10, HG_SNAP_VL, 5, n);
    else if (!strcmp(c, "ctf-laughs")) hg_ctf_laughs(&h, u);
    else if (!strcmp(c, "ctf-empty-array")) hg_ctf_empty_array(&h, u);
    else if (!strcmp(c, "ctf-empty-seq")) hg_ctf_empty_sequence(&h, u);
    else if (!strcmp(c, "ctf-enum")) hg_ctf_enum(&h, u, 1000);
    else if (!strcmp(c, "ctf-aliases")) hg_ctf_aliases(&h, u);
    else if (!strcmp(c, "ctf-events")) hg_ctf_event_classes(&h, u);
    else if (!strcmp(c, "ctf-unused")) hg_ctf_unused_structs(&h, u, 1000);
    else if (!strcmp(c, "ctf-kernel")) hg_ctf_kernel_like(&h, u, 4);
    else if (!strcmp(c, "ctf-clocks")) hg_ctf_clocks(&h, u);
    else if (!strcmp(c, "ctf-env")) hg_ctf_env(&h, u);
    else if (!strcmp(c, "ctf-fields")) hg_ctf_struct_fields(&h, u);
    else if (!strcmp(c, "ctf-streams")) hg_ctf_stream_classes(&h, u);
    else if (!strcmp(c, "ctf-variant")) hg_ctf_variant_options(&h, u, 1000);
    else {
        fprintf(stderr, "%s: unknown class %s\n", argv[0], c);
        return 2;
    }
    mkdir(argv[3], 0777);
    int rc;
    if (h.metadata != NULL)
        rc = write_file(argv[3], "metadata", h.metadata, strlen(h.metadata)) ||
             write_file(argv[3], "stream", h.data, h.len);
    else
        rc = write_file(argv[3],
                        h.snapshot ? "xtrace.1.1.hint9.xsnapshot.bin"
                        : h.format == TRACERD_EVENT_FORMAT_XTRACE ? "t.xinsndata.bin"
                                                                  : "trace",
                        h.data, h.len);
    hostile_free(&h);
    return rc;
}
