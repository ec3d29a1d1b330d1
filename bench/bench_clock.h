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
#include <time.h>

static double bench_clock_now(int clock_id)
{
    struct timespec ts;
    clock_gettime(clock_id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Effective GHz over about 20 ms of process CPU time (0 when unknown). */
static double bench_clock_ghz(void)
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
static void bench_cycles_report(double *cycles, int n, double bytes, double records)
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
