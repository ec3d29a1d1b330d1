/* The effective clock of the core a benchmark runs on, measured rather than
 * assumed. The project's machines are virtual CPUs shared with other work:
 * their clock moves between runs (1.4 to 2.2 GHz seen on the same machine
 * within minutes), so a MB/s figure alone does not say whether the code or the
 * machine changed. A chain of dependent one-cycle adds runs at one add per
 * cycle on every x86-64 and AArch64 core, so adds per second is the clock the
 * benchmark saw; cycles per record = seconds per record x that clock.
 * Elsewhere bench_clock_ghz() returns 0 and the benchmarks print no cycles. */
#ifndef TRACERD_BENCH_CLOCK_H
#define TRACERD_BENCH_CLOCK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static inline double bench_clock_now(int clock_id)
{
    struct timespec ts;
    clock_gettime(clock_id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds of this process's CPU time: the machines are shared, and the
 * wall clock counts the time other processes hold the core. With the
 * environment variable wall_env set (XR_WALL=1, XT_WALL=1; NULL: never), the
 * wall clock instead. */
static inline double bench_now(const char *wall_env)
{
    static int wall = -1;
    if (wall < 0)
        wall = wall_env != NULL && getenv(wall_env) != NULL;
    return bench_clock_now(wall ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID);
}

/* The process's peak resident set so far, in KiB. */
static inline long bench_max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Effective GHz over about 20 ms of process CPU time (0 when unknown). */
static inline double bench_clock_ghz(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
    const long n = 20000000;
    uint64_t x = 0;
    double t0 = bench_clock_now(CLOCK_PROCESS_CPUTIME_ID);
    for (long i = 0; i < n; i++) {
#if defined(__x86_64__)
        __asm__ volatile("add $1, %0" : "+r"(x));
#else
        __asm__ volatile("add %0, %0, #1" : "+r"(x));
#endif
    }
    double t = bench_clock_now(CLOCK_PROCESS_CPUTIME_ID) - t0;
    return t > 0 && x == (uint64_t)n ? (double)n / t / 1e9 : 0;
#else
    return 0;
#endif
}

/* Prints the median over runs of the cycles each run took (its CPU time x the
 * mean of the clock measured just before and just after it), per record and
 * per byte, and what that is in MB/s on a 2 GHz core (the machines' nominal
 * clock) and a 3 GHz one. The median, not the least: the clock readings are
 * noisy, and the least of noisy products is biased low. */
static inline void bench_cycles_report(double *cycles, int n, double bytes, double records)
{
    if (n == 0)
        return;
    for (int i = 1; i < n; i++) /* insertion sort: n is a handful */
        for (int j = i; j > 0 && cycles[j - 1] > cycles[j]; j--) {
            double t = cycles[j];
            cycles[j] = cycles[j - 1];
            cycles[j - 1] = t;
        }
    double med = n % 2 ? cycles[n / 2] : (cycles[n / 2 - 1] + cycles[n / 2]) / 2;
    printf("    median cycles: %.1f per record, %.3f per byte (%.0f MB/s on a 2 GHz core, "
           "%.0f on a 3 GHz one)\n",
           med / records, med / bytes, bytes / med * 2e3, bytes / med * 3e3);
}

#endif
