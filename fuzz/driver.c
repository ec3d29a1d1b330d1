/* Replays fuzz inputs without libFuzzer: each argument is a file or a
 * directory of files, run once through LLVMFuzzerTestOneInput. As libFuzzer's
 * -timeout and -rss_limit_mb do, a slow or fat input fails the replay: each
 * input gets FUZZ_REPLAY_TIMEOUT seconds (default 10, SIGALRM ends the
 * process), and the peak RSS must stay under FUZZ_REPLAY_RSS_MB (default
 * 512) after each input. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned env_uint(const char *name, unsigned dflt)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? (unsigned)strtoul(v, NULL, 10) : dflt;
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
    }
    fclose(f);
    if (buf == NULL)
        return 1;
    alarm(env_uint("FUZZ_REPLAY_TIMEOUT", 10));
    LLVMFuzzerTestOneInput(buf, n);
    alarm(0);
    free(buf);
    struct rusage ru;
    unsigned long limit_kb = (unsigned long)env_uint("FUZZ_REPLAY_RSS_MB", 512) * 1024ul;
    if (getrusage(RUSAGE_SELF, &ru) == 0 && (unsigned long)ru.ru_maxrss > limit_kb) {
        fprintf(stderr, "%s: peak RSS %ld KiB is over FUZZ_REPLAY_RSS_MB\n", path, ru.ru_maxrss);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(sb.st_mode)) {
            if (run_file(argv[i]) != 0)
                return 1;
            count++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (d == NULL) {
            perror(argv[i]);
            return 1;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (run_file(path) != 0) {
                closedir(d);
                return 1;
            }
            count++;
        }
        closedir(d);
    }
    printf("replayed %lu inputs from %s\n", count, argc > 1 ? argv[1] : "(none)");
    return 0;
}
