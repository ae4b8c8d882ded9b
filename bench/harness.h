/* contact.h benchmark harness (the protocol: bench/README.md).

   Every row runs ours and a peer on the same inputs in the same process, alternating, over
   several repetitions, and reports the median time per call and the ratio peer/ours (> 1:
   we are faster). A row whose peer is not installed says so and still times ours. Before a
   row is timed the caller checks that ours and the peer agree and passes the verdict as
   `check` (e.g. "agree 1e-12", or "DISAGREE: ..." which is printed, not hidden).

   Output: a markdown table on stdout, appended to build/bench/results.md. */
#ifndef CT_BENCH_HARNESS_H
#define CT_BENCH_HARNESS_H
#ifdef __cplusplus
extern "C" {
#endif

/* Performs `calls` calls of the operation being measured (cycling over a prepared workload). */
typedef void (*bench_fn)(void *ctx, long calls);

/* Opens a table: a heading (e.g. "Quickhull per call") and a line on the setup. */
void bench_table(const char *title, const char *setup);
/* One row. peer_fn may be NULL (peer missing: peer_name should say "(not installed)").
   Returns the ratio peer/ours (0 when there is no peer). */
double bench_row(const char *workload, bench_fn ours, void *ours_ctx,
                 const char *peer_name, bench_fn peer_fn, void *peer_ctx, const char *check);
/* A row with only ours (a scaling series), reporting time per call and a free note. */
double bench_row_ours(const char *workload, bench_fn ours, void *ours_ctx, const char *note);
/* Median seconds per call of fn (same protocol as a row, no printing). */
double bench_time(bench_fn fn, void *ctx);
/* A plain line of text under the current table (e.g. "peer X skipped: libfoo-dev missing"). */
void bench_note(const char *fmt, ...);
/* Directory for results and plots ("build/bench"), created on first use. */
const char *bench_outdir(void);
/* Runs gnuplot on a script if gnuplot is installed; returns 0 on success. */
int bench_gnuplot(const char *script);
/* Deterministic generator: splitmix64 state in the caller. */
double bench_uniform(unsigned long long *state);            /* [0, 1) */
double bench_gauss(unsigned long long *state);              /* N(0, 1) */
double bench_seconds(void);                                 /* monotonic clock */

#ifdef __cplusplus
}
#endif
#endif
