/* contact.h benchmark harness: timing, medians, markdown tables. See harness.h. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define BENCH_REPS 7            /* repetitions, median taken */
#define BENCH_TARGET 0.02       /* seconds per repetition per side */

double bench_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *bench_outdir(void) {
    mkdir("build", 0755);
    mkdir("build/bench", 0755);
    return "build/bench";
}

static FILE *bench_results(void) {
    char path[256];
    snprintf(path, sizeof path, "%s/results.md", bench_outdir());
    return fopen(path, "a");
}

static void bench_emit(const char *line) {
    FILE *f = bench_results();
    fputs(line, stdout);
    fflush(stdout);
    if (f) { fputs(line, f); fclose(f); }
}

void bench_note(const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf - 2, fmt, ap);
    va_end(ap);
    strcat(buf, "\n");
    bench_emit(buf);
}

void bench_table(const char *title, const char *setup) {
    char buf[2048];
    snprintf(buf, sizeof buf,
             "\n### %s\n\n%s\n\n| workload | ours (us/call) | peer | peer (us/call) | peer/ours | check |\n"
             "|---|---:|---|---:|---:|---|\n", title, setup ? setup : "");
    bench_emit(buf);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Calls per repetition so that one repetition of fn takes about BENCH_TARGET seconds. */
static long bench_calibrate(bench_fn fn, void *ctx) {
    long calls = 1;
    for (;;) {
        double t0 = bench_seconds(), dt;
        fn(ctx, calls);
        dt = bench_seconds() - t0;
        if (dt >= BENCH_TARGET / 4 || calls >= (1L << 30)) {
            double per = dt / (double)calls;
            long want = per > 0 ? (long)(BENCH_TARGET / per) : calls;
            return want < 1 ? 1 : want;
        }
        calls *= 4;
    }
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Alternates a and b (b may be NULL) over BENCH_REPS repetitions; medians per call. */
static void bench_pair(bench_fn a, void *actx, bench_fn b, void *bctx, double *ta, double *tb) {
    double sa[BENCH_REPS], sb[BENCH_REPS];
    long ca = bench_calibrate(a, actx), cb = b ? bench_calibrate(b, bctx) : 0;
    int r;
    for (r = 0; r < BENCH_REPS; ++r) {
        double t0 = bench_seconds();
        a(actx, ca);
        sa[r] = (bench_seconds() - t0) / (double)ca;
        if (b) {
            t0 = bench_seconds();
            b(bctx, cb);
            sb[r] = (bench_seconds() - t0) / (double)cb;
        }
    }
    *ta = median(sa, BENCH_REPS);
    *tb = b ? median(sb, BENCH_REPS) : 0;
}

double bench_time(bench_fn fn, void *ctx) {
    double t, u;
    bench_pair(fn, ctx, NULL, NULL, &t, &u);
    return t;
}

double bench_row(const char *workload, bench_fn ours, void *ours_ctx,
                 const char *peer_name, bench_fn peer_fn, void *peer_ctx, const char *check) {
    char buf[2048], peer_t[64] = "-", ratio[64] = "-";
    double to, tp, r = 0;
    bench_pair(ours, ours_ctx, peer_fn, peer_ctx, &to, &tp);
    if (peer_fn) {
        r = tp / to;
        snprintf(peer_t, sizeof peer_t, "%.4g", tp * 1e6);
        snprintf(ratio, sizeof ratio, "**%.2fx**", r);
    }
    snprintf(buf, sizeof buf, "| %s | %.4g | %s | %s | %s | %s |\n", workload, to * 1e6,
             peer_name ? peer_name : "-", peer_t, ratio, check ? check : "");
    bench_emit(buf);
    return r;
}

double bench_row_ours(const char *workload, bench_fn ours, void *ours_ctx, const char *note) {
    return bench_row(workload, ours, ours_ctx, "-", NULL, NULL, note);
}

int bench_gnuplot(const char *script) {
    char path[256], cmd[512];
    FILE *f;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        bench_note("(gnuplot not installed: plot skipped)");
        return -1;
    }
    snprintf(path, sizeof path, "%s/plot.gp", bench_outdir());
    f = fopen(path, "w");
    if (!f) return -1;
    fputs(script, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "gnuplot %s", path);
    return system(cmd) == 0 ? 0 : -1;
}

static unsigned long long splitmix(unsigned long long *s) {
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double bench_uniform(unsigned long long *state) { return (double)(splitmix(state) >> 11) * (1.0 / 9007199254740992.0); }

double bench_gauss(unsigned long long *state) {
    double u = bench_uniform(state), v = bench_uniform(state);
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}
