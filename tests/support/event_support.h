/* Test support for the event view and the CLI: the event recorder
 * (event_recorder.h), a tiny ELF writer (32/64 bit, both byte orders) with an
 * xray_instr_map section and a symbol table, and a subprocess runner. */
#ifndef TESTS_SUPPORT_EVENT_SUPPORT_H
#define TESTS_SUPPORT_EVENT_SUPPORT_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/event.h>

#include "driver.h"
#include "event_recorder.h"


/* ---- ELF writer -------------------------------------------------------------- */
typedef struct ev_elf_sym {
    const char *name;
    uint64_t value;
    uint64_t size;
    bool func;
} ev_elf_sym_t;

/* Writes an ELF file with sections: null, .shstrtab, xray_instr_map (at
 * map_addr, one sled per entry: sled_fn[i] is the function address, kind
 * alternating enter/exit, sled version `sled_version`: 2 stores PC-relative
 * values), .symtab, .strtab. Returns a malloc'd buffer. */
uint8_t *ev_elf_write(bool is64, bool big, uint64_t map_addr, const uint64_t *sled_fn,
                      size_t nsleds, unsigned sled_version, const ev_elf_sym_t *syms, size_t nsyms,
                      size_t *len);
/* The instrumentation map of xw_sample_v5 (function ids 1..3) with C++
 * names: fn 1 _ZN2ns3Foo3runEv, fn 2 _Z4workIiEvT_, fn 3 plain_c, written
 * to a temp file; returns its path (malloc'd). */
char *ev_cpp_instr_map(void);

/* ---- subprocesses ------------------------------------------------------------ */
typedef struct ev_proc {
    char *out;      /* stdout, NUL-terminated (malloc'd) */
    size_t out_len;
    char *err;      /* stderr */
    size_t err_len;
    int status;     /* exit code, or 128 + signal */
} ev_proc_t;

/* Path of the tracerd CLI (TRACERD_CLI, else build/tracerd); NULL if absent. */
const char *ev_cli_path(void);
/* In a test: `cli`, the CLI's path, or the test skipped (returns) when it is not built. */
#define CLI_OR_SKIP(cli)                                                                           \
    const char *cli = ev_cli_path();                                                               \
    if (cli == NULL) {                                                                             \
        fprintf(stderr, "%s: tracerd CLI not built (set TRACERD_CLI), skipped\n", __func__);     \
        return;                                                                                    \
    }

/* How many times `what` occurs in `text`, matches not overlapping. Written
 * as a loop of its own: ASan's strstr measures the whole rest of the text at
 * every call, which made counting lines of a CLI output quadratic. */
unsigned ev_count(const char *text, const char *what);
/* Runs argv (argv[0] is the program) with stdin from stdin_path (NULL: /dev/null);
 * kills it after timeout_s seconds. */
void ev_run_proc(char *const argv[], const char *stdin_path, unsigned timeout_s, ev_proc_t *p);
void ev_proc_free(ev_proc_t *p);
/* Runs `cli CMD -q input`; once its first output was read, reads nothing
 * for 300 ms (the CLI blocks writing), cuts the file cut_path to cut_to
 * bytes, then reads the rest: a file cut short by another process while the
 * CLI reads it. */
void ev_run_cli_cut(const char *cli, const char *cmd, const char *input, const char *cut_path,
                    off_t cut_to, ev_proc_t *p);
/* Runs the CLI `cli` with the arguments up to NULL (at most 30), stdin from
 * stdin_path (NULL: /dev/null), with a 30 s timeout. */
void ev_run_cli(const char *cli, const char *stdin_path, ev_proc_t *p, ...);
/* Runs the CLI `cli CMD ARGS... path` (args: up to 8, NULL-terminated)
 * twice, with the environment variable `env` unset and then set to "1" (a
 * test hook that takes another path to the same output), and fails on any
 * difference of exit status, standard output or standard error. Returns 1
 * when the first run exits 0. */
unsigned ev_run_both_ways(const char *cli, const char *env, const char *cmd,
                          const char *const *args, const char *path);
/* The same, the second run with the arguments `more` (up to 4, ended by
 * NULL: another path to the same output, such as a filter every event
 * passes) before args instead of an environment variable. */
unsigned ev_run_with_args(const char *cli, const char *const *more, const char *cmd,
                          const char *const *args, const char *path);
/* The second way alone of ev_run_both_ways (env set to "1", env not NULL)
 * or ev_run_with_args (more before args, more not NULL): `cli CMD [more...]
 * ARGS... path` into ref (freed by the caller, ev_proc_free), the reference
 * of one or more first ways (ev_run_first_like), when several argument sets
 * must give the same output (chunk sizes) and the reference need not be
 * made again for each. */
void ev_run_second(const char *cli, const char *env, const char *const *more, const char *cmd,
                   const char *const *args, const char *path, ev_proc_t *ref);
/* The first way alone: `cli CMD ARGS... path` (env unset), failing on any
 * difference of exit status, output or errors from ref (ev_run_second's,
 * with the same env or more, which the message names). Returns 1 when it
 * exits 0. */
unsigned ev_run_first_like(const char *cli, const char *env, const char *const *more,
                           const char *cmd, const char *const *args, const char *path,
                           const ev_proc_t *ref);
/* Calls visit(ctx, path, is_dir) for dir and every file and directory below
 * it (names starting with '.' left out), parents before their contents. */
void ev_walk_tree(const char *dir, void (*visit)(void *ctx, const char *path, bool is_dir),
                  void *ctx);
/* Writes data to a new file under a temp dir; returns the path (malloc'd). */
char *ev_temp_file(const char *name, const void *data, size_t len);
/* The test temp dir (made once). */
const char *ev_temp_dir(void);
/* Removes the temp dir and what is in it, if one was made. */
void ev_temp_cleanup(void);
/* Every test of tc ends with ev_temp_cleanup (a checked teardown: it runs in
 * the test's own process), so a test that made the temp dir leaves nothing
 * in /tmp even when it did not clean up itself. */
void ev_temp_fixture(TCase *tc);

/* ---- an LTTng-UST function instrumentation trace (CTF) ---------------------- */
/* Metadata of lttng_ust_cyg_profile:func_entry / func_exit events (ust domain,
 * 1 GHz clock, cpu_id, vtid/vpid context). */
extern const char ev_lttng_func_metadata[];
/* One packet of it into buf (at least 128 bytes): the entry of 0x401000 at
 * 1000 ns and its exit at 1500 ns on cpu 3, thread 77 of process 7. Returns
 * its size. */
size_t ev_lttng_func_stream(uint8_t *buf);

#endif
