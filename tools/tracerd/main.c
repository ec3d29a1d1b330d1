/* tracerd: command-line front end. See doc/tracerd.1. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const struct cli_format *const formats[] = {
#define X(name) &cli_format_##name,
#include "formats.h"
#undef X
    NULL};

static int usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [options] COMMAND TRACE\n"
            "commands:\n"
            "  info    format, version, byte order, clock, record counts, threads, time span\n"
            "  dump    one JSON object per record, one per line\n"
            "TRACE is a file, a CTF trace directory, or - for standard input.\n"
            "options:\n"
            "  --format NAME     skip detection (",
            prog);
    for (size_t i = 0; formats[i]; i++)
        fprintf(f, "%s%s", i ? ", " : "", formats[i]->name);
    fprintf(f, ")\n"
               "  --metadata PATH   CTF metadata for a single stream file\n"
               "  --chunk BYTES     read size (default 262144)\n"
               "  --version         print the library version\n");
    return CLI_EXIT_USAGE;
}

static int open_input(cli_t *c)
{
    struct stat sb;
    if (strcmp(c->path, "-") == 0) {
        c->fd = STDIN_FILENO;
    } else {
        if (stat(c->path, &sb) != 0) {
            fprintf(stderr, "%s: %s: %s\n", c->prog, c->path, strerror(errno));
            return CLI_EXIT_IO;
        }
        if (S_ISDIR(sb.st_mode)) {
            c->is_dir = true;
            c->fd = -1;
            return CLI_EXIT_OK;
        }
        c->fd = open(c->path, O_RDONLY);
        if (c->fd < 0) {
            fprintf(stderr, "%s: %s: %s\n", c->prog, c->path, strerror(errno));
            return CLI_EXIT_IO;
        }
    }
    /* Read the head for detection; it is fed to the reader first. */
    while (c->head_len < sizeof c->head) {
        ssize_t n = read(c->fd, c->head + c->head_len, sizeof c->head - c->head_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            fprintf(stderr, "%s: %s: read error: %s\n", c->prog, c->path, strerror(errno));
            return CLI_EXIT_IO;
        }
        if (n == 0)
            break;
        c->head_len += (size_t)n;
    }
    c->bytes_read = c->head_len;
    return CLI_EXIT_OK;
}

static const struct cli_format *pick_format(const cli_t *c)
{
    const struct cli_format *best = NULL;
    int best_score = 0;
    for (size_t i = 0; formats[i]; i++) {
        if (c->format != NULL) {
            if (strcmp(c->format, formats[i]->name) == 0)
                return formats[i];
            continue;
        }
        int s = formats[i]->detect(c->head, c->head_len, c->path, c->is_dir);
        if (s > best_score) {
            best_score = s;
            best = formats[i];
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    cli_t c;
    memset(&c, 0, sizeof c);
    c.prog = "tracerd";
    c.out = stdout;
    c.fd = -1;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--version") == 0) {
            printf("tracerd %s\n", tracerd_version_string());
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--help") == 0) {
            usage(stdout, c.prog);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--format") == 0 && i + 1 < argc) {
            c.format = argv[++i];
        } else if (strcmp(a, "--metadata") == 0 && i + 1 < argc) {
            c.metadata = argv[++i];
        } else if (strcmp(a, "--chunk") == 0 && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end != '\0' || v == 0 || v > (1ul << 30))
                return usage(stderr, c.prog);
            c.chunk = v;
        } else {
            return usage(stderr, c.prog);
        }
    }
    if (argc - i != 2)
        return usage(stderr, c.prog);
    c.cmd = argv[i];
    c.path = argv[i + 1];
    if (strcmp(c.cmd, "info") != 0 && strcmp(c.cmd, "dump") != 0)
        return usage(stderr, c.prog);
    int rc = open_input(&c);
    if (rc != CLI_EXIT_OK)
        return rc;
    const struct cli_format *fmt = pick_format(&c);
    if (fmt == NULL) {
        fprintf(stderr, "%s: %s: %s\n", c.prog, c.path,
                c.format ? "unknown --format name" : "not a trace format tracerd recognises");
        rc = c.format ? CLI_EXIT_USAGE : CLI_EXIT_FORMAT;
    } else if (strcmp(c.cmd, "info") == 0) {
        rc = fmt->info(&c);
    } else {
        rc = fmt->dump(&c);
    }
    if (c.fd > STDIN_FILENO)
        close(c.fd);
    if (fflush(stdout) != 0 && rc == CLI_EXIT_OK)
        rc = CLI_EXIT_IO;
    return rc;
}
