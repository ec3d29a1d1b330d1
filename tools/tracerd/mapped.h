/* Regular files read through mapped windows instead of read()'s copy, safe
 * against a file cut short by another process while it is read: the pages
 * past the new end raise SIGBUS, whose handler maps zero pages in their
 * place and notes the cut; the reading code then reports a read error. A
 * window lives in one of MAP_SLOTS slots the handler can see (a signal
 * handler has no other way to reach them: the one process-wide state of the
 * CLI, which reads one input per process). */
#ifndef TRACERD_CLI_MAPPED_H
#define TRACERD_CLI_MAPPED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/tracerd.h>

#define MAP_SLOTS 64

/* Maps len bytes of fd from offset off (any offset: the mapping starts at
 * the page below it) in a free slot, the SIGBUS handler installed first.
 * Returns the bytes and sets *slot, or NULL (no free slot, or mmap failed:
 * the caller reads instead). */
const uint8_t *map_window(int fd, uint64_t off, size_t len, int *slot);

/* Unmaps the window of slot; true when its file was cut short while it was
 * mapped (its missing pages read as zeros). */
bool map_release(int slot);

/* True when slot's file was cut short since it was mapped. */
bool map_slot_cut(int slot);

/* True once any window's file was cut short while it was read. */
bool map_any_cut(void);

/* The text of that read error. */
#define MAP_CUT_REASON "the file was cut short while it was read"

/* After a CTF directory read that failed with *st (reason *reason): when a
 * stream file was cut short while mapped, the reader's error came of the
 * zero pages; *st becomes E_IO, *reason the read error, and the input is
 * noted as not read to its end (c->read_failed). */
struct cli;
void map_dir_failed(struct cli *c, tracerd_status_t *st, const char **reason);

/* A CTF directory reader's file source (tracerd_ctf_dir_files_t) reading
 * every stream file through windows of the size the reader asks for (read()
 * into a buffer when no slot is free). */
typedef struct map_files {
    struct cli *c; /* out of memory is said through cli_oom */
    unsigned fds;  /* file descriptors the handles keep between views */
} map_files_t;

void map_dir_files(struct cli *c, map_files_t *ctx, tracerd_ctf_dir_files_t *out);

/* A directory read with the default read size (no --chunk) takes its
 * stream files through ctx (which must outlive the reader) in windows of
 * MAP_DIR_WINDOW bytes, all streams' windows together at most
 * MAP_DIR_BUDGET bytes (the peak RSS they add). */
#define MAP_DIR_WINDOW ((size_t)1 << 20)
#define MAP_DIR_BUDGET ((size_t)4 << 20)
void map_dir_config(struct cli *c, map_files_t *ctx, tracerd_ctf_dir_config_t *dc);

#endif
