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
#include <pthread.h>
#include <unistd.h>

#define BENCH_REPS 7            /* repetitions, median taken */
#define BENCH_TARGET 0.02       /* seconds per repetition per side */
#define BENCH_SLOW 0.5          /* seconds per call above which a row takes... */
#define BENCH_REPS_SLOW 3       /* ...this many repetitions (still alternating, median taken) */

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

static void bench_note_row(const char *line);

void bench_note(const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf - 2, fmt, ap);
    va_end(ap);
    strcat(buf, "\n");
    bench_emit(buf);
    bench_note_row(buf);
}

/* ---- progress: a line per row as it starts, and a heartbeat while a row runs ----
   Elapsed time counts from CT_BENCH_T0 (epoch seconds, set by the bench action for the whole
   run) or from this process's first table. The estimate of what remains comes from the last
   complete run (build/bench/timing.tsv: section, row, seconds per row) minus the rows done
   since CT_BENCH_T0 (build/bench/timing.new, which the action renames to timing.tsv at the
   end). Bench code, not the library: this file-scope state is the harness's own. */
#define BENCH_HEARTBEAT 20      /* seconds of silence before a "still running" line */
#define BENCH_MAXROWS 1024      /* rows remembered from the last run */

typedef struct bench_done { char key[256]; double sec; int used; } bench_done;
static struct {
    pthread_mutex_t lock;
    int started, in_row;
    double t0, mark, last_print;
    char section[256], row[256];
    int nprev;
    bench_done *prev;
} bench_pg = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0, "", "", 0, NULL };

static void bench_copy(char *dst, size_t cap, const char *src) {
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static double bench_wall(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void bench_fmt_time(char *out, size_t n, double sec) {
    if (sec < 0) sec = 0;
    if (sec >= 60) snprintf(out, n, "%dm%02ds", (int)(sec / 60), (int)sec % 60);
    else snprintf(out, n, "%.0fs", sec);
}

/* Reads "section \t row \t seconds" lines; returns the count. */
static int bench_read_timing(const char *name, bench_done *d, int cap) {
    char path[256], line[1024];
    int n = 0;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", bench_outdir(), name);
    f = fopen(path, "r");
    if (!f) return 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        char *tab = strrchr(line, '\t');
        if (!tab) continue;
        *tab = 0;
        bench_copy(d[n].key, sizeof d[n].key, line);
        d[n].sec = atof(tab + 1);
        d[n].used = 0;
        ++n;
    }
    fclose(f);
    return n;
}

/* Seconds the last run spent on rows not yet done in this one (-1: no last run). */
static double bench_remaining(void) {
    bench_done *now;
    int nnow, i, j;
    double left = 0;
    if (!bench_pg.nprev) return -1;
    now = (bench_done *)calloc(BENCH_MAXROWS, sizeof *now);
    if (!now) return -1;
    nnow = getenv("CT_BENCH_T0") ? bench_read_timing("timing.new", now, BENCH_MAXROWS) : 0;
    for (j = 0; j < bench_pg.nprev; ++j) bench_pg.prev[j].used = 0;
    for (i = 0; i < nnow; ++i)
        for (j = 0; j < bench_pg.nprev; ++j)
            if (!bench_pg.prev[j].used && strcmp(now[i].key, bench_pg.prev[j].key) == 0) { bench_pg.prev[j].used = 1; break; }
    for (j = 0; j < bench_pg.nprev; ++j)
        if (!bench_pg.prev[j].used) left += bench_pg.prev[j].sec;
    free(now);
    return left;
}

static void bench_say(const char *what) {
    char el[32], left[128];
    double rem = bench_remaining(), now = bench_wall();
    bench_fmt_time(el, sizeof el, now - bench_pg.t0);
    if (rem < 0) bench_copy(left, sizeof left, "remaining: unknown (no complete earlier run)");
    else {
        char t[32];
        bench_fmt_time(t, sizeof t, rem);
        snprintf(left, sizeof left, "remaining: about %s (by the last run)", t);
    }
    fprintf(stderr, "[bench %s] %s | %s | %s | %s\n", el, what, bench_pg.section, bench_pg.row, left);
    fflush(stderr);
    bench_pg.last_print = now;
}

static void *bench_heartbeat(void *arg) {
    (void)arg;
    for (;;) {
        sleep(1);
        pthread_mutex_lock(&bench_pg.lock);
        if (bench_wall() - bench_pg.last_print >= BENCH_HEARTBEAT)
            bench_say(bench_pg.in_row ? "still running" : "still running, preparing the row after");
        pthread_mutex_unlock(&bench_pg.lock);
    }
    return NULL;
}

static void bench_progress_start(void) {
    const char *t0 = getenv("CT_BENCH_T0");
    pthread_t th;
    if (bench_pg.started) return;
    bench_pg.started = 1;
    bench_pg.t0 = t0 ? atof(t0) : bench_wall();
    bench_pg.mark = bench_wall();
    bench_pg.last_print = bench_pg.mark;
    bench_pg.prev = (bench_done *)calloc(BENCH_MAXROWS, sizeof *bench_pg.prev);
    if (bench_pg.prev) bench_pg.nprev = bench_read_timing("timing.tsv", bench_pg.prev, BENCH_MAXROWS);
    if (pthread_create(&th, NULL, bench_heartbeat, NULL) == 0) pthread_detach(th);
}

/* A row starts: say so (stderr, so stdout stays the markdown table). */
static void bench_row_start(const char *row) {
    bench_progress_start();
    pthread_mutex_lock(&bench_pg.lock);
    bench_copy(bench_pg.row, sizeof bench_pg.row, row);
    bench_pg.in_row = 1;
    bench_say("row");
    pthread_mutex_unlock(&bench_pg.lock);
}

/* A row ended: its time (since the previous row ended) goes to timing.new. */
static void bench_row_end(void) {
    char path[256];
    FILE *f;
    double now = bench_wall();
    pthread_mutex_lock(&bench_pg.lock);
    snprintf(path, sizeof path, "%s/timing.new", bench_outdir());
    f = fopen(path, "a");
    if (f) { fprintf(f, "%s | %s\t%.3f\n", bench_pg.section, bench_pg.row, now - bench_pg.mark); fclose(f); }
    bench_pg.mark = now;
    bench_pg.in_row = 0;
    pthread_mutex_unlock(&bench_pg.lock);
}

/* A table row a benchmark printed itself through bench_note ("| workload | ..."): timed like
   a row from the previous one. */
static void bench_note_row(const char *line) {
    char row[256];
    const char *end;
    if (!bench_pg.started || strncmp(line, "| ", 2) != 0) return;
    end = strstr(line + 2, " |");
    snprintf(row, sizeof row, "%.*s (own row)", end ? (int)(end - line - 2) : 0, line + 2);
    pthread_mutex_lock(&bench_pg.lock);
    bench_copy(bench_pg.row, sizeof bench_pg.row, row);
    pthread_mutex_unlock(&bench_pg.lock);
    bench_row_end();
}

void bench_table(const char *title, const char *setup) {
    char buf[2048];
    bench_progress_start();
    pthread_mutex_lock(&bench_pg.lock);
    bench_copy(bench_pg.section, sizeof bench_pg.section, title);
    bench_pg.row[0] = 0;
    pthread_mutex_unlock(&bench_pg.lock);
    snprintf(buf, sizeof buf,
             "\n### %s\n\n%s\n\n| workload | ours (us/call) | peer | peer (us/call) | peer/ours | check |\n"
             "|---|---:|---|---:|---:|---|\n", title, setup ? setup : "");
    bench_emit(buf);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Calls per repetition so that one repetition of fn takes about BENCH_TARGET seconds; *per
   gets the time per call seen while calibrating. */
static long bench_calibrate(bench_fn fn, void *ctx, double *per) {
    long calls = 1;
    for (;;) {
        double t0 = bench_seconds(), dt;
        fn(ctx, calls);
        dt = bench_seconds() - t0;
        if (dt >= BENCH_TARGET / 4 || calls >= (1L << 30)) {
            long want;
            *per = dt / (double)calls;
            want = *per > 0 ? (long)(BENCH_TARGET / *per) : calls;
            return want < 1 ? 1 : want;
        }
        calls *= 4;
    }
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Alternates a and b (b may be NULL) over BENCH_REPS repetitions (BENCH_REPS_SLOW when one
   call of a side takes over BENCH_SLOW seconds: a 1e6-point hull); medians per call. */
static void bench_pair(bench_fn a, void *actx, bench_fn b, void *bctx, double *ta, double *tb) {
    double sa[BENCH_REPS], sb[BENCH_REPS], pa = 0, pb = 0;
    long ca = bench_calibrate(a, actx, &pa), cb = b ? bench_calibrate(b, bctx, &pb) : 0;
    int r, reps = pa > BENCH_SLOW || pb > BENCH_SLOW ? BENCH_REPS_SLOW : BENCH_REPS;
    for (r = 0; r < reps; ++r) {
        double t0 = bench_seconds();
        a(actx, ca);
        sa[r] = (bench_seconds() - t0) / (double)ca;
        if (b) {
            t0 = bench_seconds();
            b(bctx, cb);
            sb[r] = (bench_seconds() - t0) / (double)cb;
        }
    }
    *ta = median(sa, reps);
    *tb = b ? median(sb, reps) : 0;
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
    snprintf(buf, sizeof buf, "%s (%s)", workload, peer_name ? peer_name : "-");
    bench_row_start(buf);
    bench_pair(ours, ours_ctx, peer_fn, peer_ctx, &to, &tp);
    if (peer_fn) {
        r = tp / to;
        snprintf(peer_t, sizeof peer_t, "%.4g", tp * 1e6);
        snprintf(ratio, sizeof ratio, "**%.2fx**", r);
    }
    snprintf(buf, sizeof buf, "| %s | %.4g | %s | %s | %s | %s |\n", workload, to * 1e6,
             peer_name ? peer_name : "-", peer_t, ratio, check ? check : "");
    bench_emit(buf);
    bench_row_end();
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
