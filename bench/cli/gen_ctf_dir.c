/* Writes an LTTng-UST-like CTF trace directory for benchmarks: `metadata`
 * and N stream files of the generator in tests/support/ctf_writer.c, each
 * with its own stream instance and cpu id (so the directory reader merges N
 * streams), events at the same timestamps in every stream (the merge
 * switches stream at every event: its worst case).
 *   gen_ctf_dir DIR MIB_PER_STREAM STREAMS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../tests/support/ctf_writer.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s DIR MIB_PER_STREAM STREAMS\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    uint64_t mib = strtoull(argv[2], NULL, 10);
    unsigned n = (unsigned)strtoul(argv[3], NULL, 10);
    mkdir(dir, 0755);
    char path[4096];
    snprintf(path, sizeof path, "%s/metadata", dir);
    FILE *f = fopen(path, "w");
    char *meta = ctf_writer_bench_metadata();
    if (f == NULL || fputs(meta, f) < 0 || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    free(meta);
    size_t len, pkt = 256 * 1024;
    uint64_t events;
    uint8_t *s = ctf_writer_bench_stream(mib << 20, pkt, &len, &events);
    for (unsigned i = 0; i < n; i++) {
        for (size_t off = 0; off + pkt <= len; off += pkt) {
            uint64_t inst = i + 1; /* packet header: stream_instance_id at 24 */
            memcpy(s + off + 24, &inst, 8);
            uint32_t cpu = i; /* packet context: cpu_id at 80 (little-endian host) */
            memcpy(s + off + 80, &cpu, 4);
        }
        snprintf(path, sizeof path, "%s/chan_%u", dir, i);
        f = fopen(path, "wb");
        if (f == NULL || fwrite(s, 1, len, f) != len || fclose(f) != 0) {
            perror(path);
            return 1;
        }
    }
    printf("%s: %u streams of %zu bytes, %llu events each\n", dir, n, len,
           (unsigned long long)events);
    free(s);
    return 0;
}
