/* MPI broad phase (built and run only when MPI is installed; see premake5.lua's bench action):
   the DEM scene of BENCH.md (n boxes in the unit cube, edge 1.5x the mean spacing, about 13
   pairs per box), 1e6 boxes by default (CT_BENCH_MPI_N), over the ranks of mpirun -np P.

   Every rank generates the whole scene from the same seed and starts with a contiguous slice
   (spatially random: nearly every box is a ghost somewhere). The decomposition is built, the
   owners come back from a first ct_mpi_broadphase, and each rank keeps the boxes it owns (the
   migration a DEM code does between steps). Timed: ct_mpi_broadphase on the migrated boxes
   with the decomposition reused (a steady-state step), one OpenMP thread per rank; the time
   of a repetition is the slowest rank's (barrier before each). Peer: ct_broadphase on the
   whole scene in one process, one thread (the same job without MPI), on rank 0 in the same
   run, alternating with ours, median of CT_BENCH_MPI_REPS (5). Before timing, the global
   pair count must equal ct_broadphase's. On a 2-core machine more than 2 ranks are
   oversubscribed: their ratio measures the overhead, not a speedup.

   `bench_mpi --header` prints the table heading only. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#define CONTACT_MPI
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "harness.h"
#include "oracle.h"
#include "workload.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
static void die(const char *what) {
    fprintf(stderr, "bench_mpi: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv) {
    int me, p, n = 1000000, reps = 5, i, r, slice0, slice1, m, k = 0, *owner, *all_owner, *cnt, *dis;
    unsigned long long seed = 2026;
    double *lo, *hi, t, *tours, *tpeer, t_decomp;
    ct_aabb *scene, *local;
    ct_mpi_decomp d;
    ct_mpi_pairs mp;
    ct_mpi_stats st;
    long long pairs, sent, maxghost, maxlocal, ref = 0;
    char row[640], check[128];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc > 1 && !strcmp(argv[1], "--header")) {
        if (me == 0)
            bench_table("MPI broad phase (steady state, decomposition reused), 1 thread per rank",
                        "DEM scene in the unit cube, edge 1.5x spacing; ours = ct_mpi_broadphase, slowest rank, median of 5; "
                        "peer = ct_broadphase on all boxes in one process, 1 thread; ratio > 1: MPI faster. "
                        "Ghosts: records received from other ranks / n; bytes: total over ranks. 2-core machine: "
                        "more than 2 ranks are oversubscribed.");
        MPI_Finalize();
        return 0;
    }
    if (getenv("CT_BENCH_MPI_N")) n = atoi(getenv("CT_BENCH_MPI_N"));
    if (getenv("CT_BENCH_MPI_REPS")) reps = atoi(getenv("CT_BENCH_MPI_REPS"));
    if (n < 1 || reps < 1) die("bad CT_BENCH_MPI_N / CT_BENCH_MPI_REPS");
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
    lo = (double *)malloc(3 * sizeof(double) * (size_t)n);
    hi = (double *)malloc(3 * sizeof(double) * (size_t)n);
    scene = (ct_aabb *)malloc(sizeof(ct_aabb) * (size_t)n);
    local = (ct_aabb *)malloc(sizeof(ct_aabb) * (size_t)n);
    owner = (int *)malloc(sizeof(int) * (size_t)n);
    all_owner = (int *)malloc(sizeof(int) * (size_t)n);
    cnt = (int *)malloc(sizeof(int) * (size_t)p);
    dis = (int *)malloc(sizeof(int) * (size_t)p);
    tours = (double *)malloc(sizeof(double) * (size_t)reps);
    tpeer = (double *)malloc(sizeof(double) * (size_t)reps);
    if (!lo || !hi || !scene || !local || !owner || !all_owner || !cnt || !dis || !tours || !tpeer) die("out of memory");
    wl_dem_boxes(lo, hi, n, 1.5, &seed);
    for (i = 0; i < n; ++i) {
        scene[i].lo.x = (ct_real)lo[3 * i]; scene[i].lo.y = (ct_real)lo[3 * i + 1]; scene[i].lo.z = (ct_real)lo[3 * i + 2];
        scene[i].hi.x = (ct_real)hi[3 * i]; scene[i].hi.y = (ct_real)hi[3 * i + 1]; scene[i].hi.z = (ct_real)hi[3 * i + 2];
    }
    free(lo);
    free(hi);
    slice0 = (int)((long long)n * me / p);
    slice1 = (int)((long long)n * (me + 1) / p);
    m = slice1 - slice0;

    /* decomposition and owners from the initial (random) slices */
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    if (ct_mpi_decomp_build(MPI_COMM_WORLD, scene + slice0, m, 0, NULL, &d) != CT_OK) die("decomposition failed");
    t_decomp = MPI_Wtime() - t;
    MPI_Allreduce(MPI_IN_PLACE, &t_decomp, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (ct_mpi_broadphase(MPI_COMM_WORLD, scene + slice0, m, &d, NULL, &mp, owner, &st) != CT_OK) die("first call failed");
    ct_mpi_pairs_free(&mp);
    /* migration: everyone has the scene, so keeping the boxes one owns is the migration */
    MPI_Allgather(&m, 1, MPI_INT, cnt, 1, MPI_INT, MPI_COMM_WORLD);
    for (r = 0, i = 0; r < p; ++r) { dis[r] = i; i += cnt[r]; }
    MPI_Allgatherv(owner, m, MPI_INT, all_owner, cnt, dis, MPI_INT, MPI_COMM_WORLD);
    for (i = 0; i < n; ++i)
        if (all_owner[i] == me) local[k++] = scene[i];

    /* agreement before timing */
    if (ct_mpi_broadphase(MPI_COMM_WORLD, local, k, &d, NULL, &mp, NULL, &st) != CT_OK) die("steady call failed");
    pairs = (long long)mp.count;
    ct_mpi_pairs_free(&mp);
    MPI_Allreduce(MPI_IN_PLACE, &pairs, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    sent = st.bytes_sent;
    MPI_Allreduce(MPI_IN_PLACE, &sent, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    maxghost = st.received;
    MPI_Allreduce(MPI_IN_PLACE, &maxghost, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    {
        long long g = st.received;
        MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        st.received = g;
    }
    maxlocal = k;
    MPI_Allreduce(MPI_IN_PLACE, &maxlocal, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0) {
        ct_pairs pr;
        if (ct_broadphase(scene, n, NULL, &pr) != CT_OK) die("ct_broadphase failed");
        ref = (long long)pr.count;
        ct_pairs_free(&pr);
    }
    MPI_Bcast(&ref, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (ref == pairs) snprintf(check, sizeof check, "agree: %lld pairs", pairs);
    else {   /* the independent sweep of bench/oracle.c, on all boxes at once */
        long long sweep = 0;
        if (me == 0) sweep = oracle_box_pairs(scene, n);
        MPI_Bcast(&sweep, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        snprintf(check, sizeof check, "DISAGREE: %lld pairs over the ranks, ct_broadphase %lld; the brute-force sweep counts %lld",
                 pairs, ref, sweep);
    }

    for (i = 0; i < reps; ++i) {
        double mine;
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime();
        if (ct_mpi_broadphase(MPI_COMM_WORLD, local, k, &d, NULL, &mp, NULL, NULL) != CT_OK) die("timed call failed");
        mine = MPI_Wtime() - t;
        ct_mpi_pairs_free(&mp);
        MPI_Allreduce(&mine, &tours[i], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) {
            ct_pairs pr;
            t = MPI_Wtime();
            if (ct_broadphase(scene, n, NULL, &pr) != CT_OK) die("ct_broadphase failed");
            tpeer[i] = MPI_Wtime() - t;
            ct_pairs_free(&pr);
        }
    }
    if (me == 0) {
        double to = median(tours, reps), tp = median(tpeer, reps);
        snprintf(row, sizeof row,
                 "| %d boxes, %d rank%s: max %lld boxes/rank, ghosts %.2f%% (max %lld on a rank), %.1f MB exchanged, "
                 "decomposition %.1f ms | %.0f | ct_broadphase 1 process | %.0f | %.2f | %s |",
                 n, p, p > 1 ? "s" : "", maxlocal, 100.0 * (double)st.received / n, maxghost, (double)sent / 1e6,
                 1e3 * t_decomp, 1e6 * to, 1e6 * tp, tp / to, check);
        bench_note("%s", row);
    }
    ct_mpi_decomp_free(&d);
    free(scene);
    free(local);
    free(owner);
    free(all_owner);
    free(cnt);
    free(dis);
    free(tours);
    free(tpeer);
    MPI_Finalize();
    return ref == pairs ? 0 : 1;
}
