/* MPI broad phase: run under mpirun -np 1..4. Every scene is generated identically on every
   rank and dealt out to the ranks (interleaved, in blocks, all on one rank, or migrated to the
   owners the call returned); the pairs of all ranks, gathered on rank 0 and mapped to global
   indices (rank order), must equal ct_broadphase on the gathered boxes bit for bit (and a
   brute-force loop on small scenes), with no pair twice; the foreach variant must call back
   the same pairs with the payloads of both boxes. Also: owners against region bounds read off
   the tree, balance, statuses agreed on all ranks for bad input on one rank, an allocation-
   failure sweep over every rank, thread-count independence.
   Prints "N passed, N failed" on rank 0; exits non-zero on any failure. */
#include <mpi.h>
#define CONTACT_MPI
#include "contact.h"
#include "testutil.h"
#include "../compile/api_list.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_rank, g_size;   /* test program state (the library has none) */
static long g_pass, g_fail;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) ++g_pass;                                                                        \
        else {                                                                                     \
            ++g_fail;                                                                              \
            fprintf(stderr, "[rank %d] %s:%d: ", g_rank, __FILE__, __LINE__);                      \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
        }                                                                                          \
    } while (0)

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) { fprintf(stderr, "out of memory in the test\n"); MPI_Abort(MPI_COMM_WORLD, 2); }
    return p;
}

static ct_aabb box(double lx, double ly, double lz, double hx, double hy, double hz) {
    ct_aabb b;
    b.lo = tu_vec(lx, ly, lz);
    b.hi = tu_vec(hx, hy, hz);
    return b;
}

/* ---- scenes (global, identical on every rank) ------------------------------------------- */
typedef struct scene { ct_aabb *b; int n; const char *name; } scene;

static scene uniform_scene(int n, unsigned long long seed) {
    scene s;
    double h = 0.75 * pow((double)n, -1.0 / 3.0);
    int i;
    s.b = (ct_aabb *)xmalloc((size_t)n * sizeof *s.b);
    s.n = n;
    s.name = "uniform";
    for (i = 0; i < n; ++i) {
        double x = tu_uniform(&seed), y = tu_uniform(&seed), z = tu_uniform(&seed), e = h * (0.5 + tu_uniform(&seed));
        s.b[i] = box(x - e, y - e, z - e, x + e, y + e, z + e);
    }
    return s;
}

/* Four tight clusters far apart, sizes over a decade and a half. */
static scene clustered_scene(int n, unsigned long long seed) {
    scene s = uniform_scene(n, seed);
    int i;
    s.name = "clustered";
    for (i = 0; i < n; ++i) {
        double c = 1000.0 * (i % 4), e = 0.0002 * pow(10.0, 1.5 * tu_uniform(&seed));
        double x = c + 0.1 * (tu_uniform(&seed) - 0.5), y = 0.1 * tu_uniform(&seed), z = -c + 0.1 * tu_uniform(&seed);
        s.b[i] = box(x - e, y - e, z - e, x + e, y + e, z + e);
    }
    return s;
}

/* Zero thickness in z: every box in the plane z = 0.5. */
static scene flat_scene(int n, unsigned long long seed) {
    scene s = uniform_scene(n, seed);
    int i;
    double h = 0.75 / sqrt((double)n); /* about 9 neighbours in the plane */
    s.name = "flat";
    for (i = 0; i < n; ++i) {
        double x = tu_uniform(&seed), y = tu_uniform(&seed), e = h * (0.5 + tu_uniform(&seed));
        s.b[i] = box(x - e, y - e, 0.5, x + e, y + e, 0.5);
    }
    return s;
}

/* Degenerate: points on a coarse lattice (many coincident), identical boxes, a few boxes
   spanning everything, zero-thickness boxes on one line. */
static scene degenerate_scene(int n, unsigned long long seed) {
    scene s = uniform_scene(n, seed);
    int i;
    s.name = "degenerate";
    for (i = 0; i < n; ++i) {
        int k = i % 4;
        if (k == 0) {
            double x = floor(4 * tu_uniform(&seed)) / 4, y = floor(4 * tu_uniform(&seed)) / 4;
            s.b[i] = box(x, y, 0, x, y, 0);
        } else if (k == 1 && i % 16 == 1) s.b[i] = box(0.25, 0.25, 0.25, 0.5, 0.5, 0.5);
        else if (k == 2 && i % 64 == 2) s.b[i] = box(-10, -10, -10, 10, 10, 10);
        else {
            double x = tu_uniform(&seed);
            s.b[i] = box(x, 0.5, 0.5, x + 0.01, 0.5, 0.5);
        }
    }
    return s;
}

/* Boxes on the cut planes of d: for each cut, boxes ending at it, starting at it, flat on it,
   and a lattice of touching pairs whose intersection corner is exactly on one or more cuts. */
static scene cut_scene(const ct_mpi_decomp *d, int n, unsigned long long seed) {
    scene s = uniform_scene(n, seed);
    int i, nc = d->nranks - 1;
    s.name = "on cut planes";
    for (i = 0; i < n && nc > 0; ++i) {
        int k = (int)(tu_uniform(&seed) * nc), k2 = (int)(tu_uniform(&seed) * nc), ax = d->axis[k], ax2 = d->axis[k2];
        ct_real c = d->cut[k], c2 = d->cut[k2];
        ct_aabb *b = &s.b[i];
        switch (i % 5) {
        case 0: if (ax == 0) b->hi.x = c; else if (ax == 1) b->hi.y = c; else b->hi.z = c; break;
        case 1: if (ax == 0) b->lo.x = c; else if (ax == 1) b->lo.y = c; else b->lo.z = c; break;
        case 2: if (ax == 0) b->lo.x = b->hi.x = c; else if (ax == 1) b->lo.y = b->hi.y = c; else b->lo.z = b->hi.z = c; break;
        default: /* a corner where two cuts meet (or one cut twice) */
            if (ax == 0) b->lo.x = c; else if (ax == 1) b->lo.y = c; else b->lo.z = c;
            if (ax2 == 0) b->hi.x = c2; else if (ax2 == 1) b->hi.y = c2; else b->hi.z = c2;
            if (!(b->lo.x <= b->hi.x)) b->hi.x = b->lo.x;
            if (!(b->lo.y <= b->hi.y)) b->hi.y = b->lo.y;
            if (!(b->lo.z <= b->hi.z)) b->hi.z = b->lo.z;
            break;
        }
        if (!(b->lo.x <= b->hi.x)) b->lo.x = b->hi.x;
        if (!(b->lo.y <= b->hi.y)) b->lo.y = b->hi.y;
        if (!(b->lo.z <= b->hi.z)) b->lo.z = b->hi.z;
    }
    return s;
}

/* ---- dealing a scene to the ranks ------------------------------------------------------- */
enum { DEAL_INTERLEAVED, DEAL_BLOCKS, DEAL_ONE_RANK, DEAL_COUNT };
static const char *deal_name[] = { "interleaved", "blocks", "all on the last rank" };

static int deal(const scene *s, int mode, ct_aabb *local) {
    int i, m = 0;
    for (i = 0; i < s->n; ++i) {
        int r = mode == DEAL_INTERLEAVED ? i % g_size
              : mode == DEAL_BLOCKS ? (int)((long long)i * g_size / s->n) : g_size - 1;
        if (r == g_rank) local[m++] = s->b[i];
    }
    return m;
}

/* ---- gathering and comparing ------------------------------------------------------------ */
static int cmp_pair(const void *a, const void *b) {
    const ct_pair *p = (const ct_pair *)a, *q = (const ct_pair *)b;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return 0;
}

static int overlap(const ct_aabb *a, const ct_aabb *b) {
    return a->lo.x <= b->hi.x && b->lo.x <= a->hi.x && a->lo.y <= b->hi.y && b->lo.y <= a->hi.y &&
           a->lo.z <= b->hi.z && b->lo.z <= a->hi.z;
}

/* Gathers the local boxes on rank 0 (rank order); returns the global count there and the
   offset of every rank's first box (on every rank). */
static ct_aabb *gather_boxes(const ct_aabb *local, int n, int *offsets, int *total) {
    int *cnt = (int *)xmalloc((size_t)g_size * sizeof(int)), *dis = (int *)xmalloc((size_t)g_size * sizeof(int)), r;
    ct_aabb *all;
    int nb = n * (int)sizeof(ct_aabb);
    MPI_Allgather(&n, 1, MPI_INT, offsets, 1, MPI_INT, MPI_COMM_WORLD);
    *total = 0;
    for (r = 0; r < g_size; ++r) {
        int c = offsets[r];
        offsets[r] = *total;
        *total += c;
        cnt[r] = c * (int)sizeof(ct_aabb);
        dis[r] = offsets[r] * (int)sizeof(ct_aabb);
    }
    all = (ct_aabb *)xmalloc((size_t)*total * sizeof(ct_aabb));
    MPI_Gatherv(local, nb, MPI_BYTE, all, cnt, dis, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(cnt);
    free(dis);
    return all;
}

/* Gathers the pairs of every rank on rank 0 as global index pairs (in rank order, unsorted). */
static ct_pair *gather_pairs(const ct_mpi_pair *p, long long n, const int *offsets, long long *total) {
    ct_pair *mine = (ct_pair *)xmalloc((size_t)n * sizeof(ct_pair)), *all = NULL;
    int *cnt = (int *)xmalloc((size_t)g_size * sizeof(int)), *dis = (int *)xmalloc((size_t)g_size * sizeof(int));
    int nb = (int)(n * (long long)sizeof(ct_pair)), r;
    long long i;
    for (i = 0; i < n; ++i) {
        mine[i].a = offsets[p[i].a.rank] + p[i].a.index;
        mine[i].b = offsets[p[i].b.rank] + p[i].b.index;
    }
    MPI_Gather(&nb, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
    *total = 0;
    if (g_rank == 0) {
        for (r = 0; r < g_size; ++r) { dis[r] = (int)*total; *total += cnt[r]; }
        all = (ct_pair *)xmalloc((size_t)*total);
        *total /= (long long)sizeof(ct_pair);
    }
    MPI_Gatherv(mine, nb, MPI_BYTE, all, cnt, dis, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(mine);
    free(cnt);
    free(dis);
    return all;
}

/* On rank 0: the union equals ct_broadphase (and brute force when small), no repeats. */
static void compare_union(const char *what, ct_pair *u, long long nu, const ct_aabb *all, int total) {
    ct_pairs ref;
    long long i, dup = 0, bf = 0, diff = 0;
    if (g_rank != 0) return;
    qsort(u, (size_t)nu, sizeof *u, cmp_pair);
    for (i = 1; i < nu; ++i) dup += cmp_pair(&u[i - 1], &u[i]) == 0;
    CHECK(dup == 0, "%s: %lld pairs reported twice", what, dup);
    CHECK(ct_broadphase(all, total, NULL, &ref) == CT_OK, "%s: reference ct_broadphase failed", what);
    CHECK((long long)ref.count == nu, "%s: %lld pairs over the ranks, ct_broadphase %zu", what, nu, ref.count);
    if ((long long)ref.count == nu)
        for (i = 0; i < nu; ++i) diff += ref.items[i].a != u[i].a || ref.items[i].b != u[i].b;
    CHECK(diff == 0, "%s: %lld pairs differ from ct_broadphase", what, diff);
    if (total <= 3000) {
        int a, b;
        for (a = 0; a < total; ++a)
            for (b = a + 1; b < total; ++b) bf += overlap(&all[a], &all[b]);
        CHECK(bf == nu, "%s: brute force %lld pairs, ranks %lld", what, bf, nu);
    }
    ct_pairs_free(&ref);
}

/* ---- the foreach collector --------------------------------------------------------------- */
typedef struct payload { ct_aabb b; int rank, index; double pad; } payload;
typedef struct collect { ct_mpi_pair *p; long long n, cap, bad; } collect;

static void on_pair(void *user, ct_mpi_id a, const void *da, ct_mpi_id b, const void *db, int thread) {
    collect *c = (collect *)user;
    const payload *pa = (const payload *)da, *pb = (const payload *)db;
    long long k;
    (void)thread;
    if (!pa || !pb || pa->rank != a.rank || pa->index != a.index || pb->rank != b.rank || pb->index != b.index ||
        ((size_t)da % 16) != 0 || ((size_t)db % 16) != 0 || !overlap(&pa->b, &pb->b) ||
        !(a.rank < b.rank || (a.rank == b.rank && a.index < b.index))) {
#ifdef _OPENMP
#pragma omp atomic
#endif
        c->bad++;
        return;
    }
#ifdef _OPENMP
#pragma omp atomic capture
#endif
    k = c->n++;
    if (k < c->cap) { c->p[k].a = a; c->p[k].b = b; }
}

/* ---- one scene, one deal ------------------------------------------------------------------ */
static int sum_int(int v) { int r; MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); return r; }
static long long sum_ll(long long v) { long long r; MPI_Allreduce(&v, &r, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD); return r; }
static int same_status(ct_status st) {
    int v = (int)st, lo, hi;
    MPI_Allreduce(&v, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&v, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

/* Region bounds of every rank read off the tree (an independent walk). */
static void region_bounds(const ct_mpi_decomp *d, int c, ct_real lo[3], ct_real hi[3], ct_real (*rlo)[3], ct_real (*rhi)[3]) {
    int k;
    if (c < 0) {
        for (k = 0; k < 3; ++k) { rlo[-c - 1][k] = lo[k]; rhi[-c - 1][k] = hi[k]; }
        return;
    } else {
        ct_real l2[3], h2[3];
        for (k = 0; k < 3; ++k) { l2[k] = lo[k]; h2[k] = hi[k]; }
        h2[d->axis[c]] = d->cut[c] < h2[d->axis[c]] ? d->cut[c] : h2[d->axis[c]];
        region_bounds(d, d->child[2 * c], lo, h2, rlo, rhi);
        l2[d->axis[c]] = d->cut[c] > l2[d->axis[c]] ? d->cut[c] : l2[d->axis[c]];
        region_bounds(d, d->child[2 * c + 1], l2, hi, rlo, rhi);
    }
}

static int in_region(ct_vec3 p, const ct_real lo[3], const ct_real hi[3]) {
    ct_real v[3];
    int k;
    v[0] = p.x; v[1] = p.y; v[2] = p.z;
    for (k = 0; k < 3; ++k)
        if (!(lo[k] <= v[k] && v[k] < hi[k])) return 0;
    return 1;
}

/* Owners: each in the region holding the centre, by the independent bounds. */
static void check_owners(const char *what, const ct_mpi_decomp *d, const ct_aabb *b, int n, const int *owner) {
    ct_real (*rlo)[3] = (ct_real(*)[3])xmalloc((size_t)g_size * sizeof *rlo), (*rhi)[3] = (ct_real(*)[3])xmalloc((size_t)g_size * sizeof *rhi);
    ct_real lo[3], hi[3];
    int i, k, bad = 0;
    for (k = 0; k < 3; ++k) { lo[k] = -(ct_real)INFINITY; hi[k] = (ct_real)INFINITY; }
    region_bounds(d, d->nranks > 1 ? 0 : -1, lo, hi, rlo, rhi);
    for (i = 0; i < n; ++i) {
        ct_vec3 c = tu_vec(b[i].lo.x / 2 + b[i].hi.x / 2, b[i].lo.y / 2 + b[i].hi.y / 2, b[i].lo.z / 2 + b[i].hi.z / 2);
        int r, inside = 0;
        for (r = 0; r < g_size; ++r) inside += in_region(c, rlo[r], rhi[r]);
        bad += owner[i] < 0 || owner[i] >= g_size || inside != 1 || !in_region(c, rlo[owner[i]], rhi[owner[i]]);
    }
    CHECK(bad == 0, "%s: %d owners outside their region", what, bad);
    free(rlo);
    free(rhi);
}

/* The list and foreach variants on one dealt scene, against the gathered reference. */
static void run_case(const char *what, const ct_aabb *local, int n, const ct_mpi_decomp *d) {
    int *offsets = (int *)xmalloc((size_t)g_size * sizeof(int)), total, i, *owner = (int *)xmalloc((size_t)n * sizeof(int) + 1);
    ct_aabb *all = gather_boxes(local, n, offsets, &total);
    ct_mpi_pairs mp;
    ct_mpi_stats st;
    ct_status s;
    long long nu;
    ct_pair *u;
    char buf[256];
    payload *pl = (payload *)xmalloc((size_t)n * sizeof(payload) + 1);
    collect c;
    ct_mpi_decomp own;

    s = ct_mpi_broadphase(MPI_COMM_WORLD, local, n, d, NULL, &mp, owner, &st);
    CHECK(s == CT_OK && same_status(s), "%s: status %d", what, (int)s);
    {
        long long unordered = 0;
        size_t k;
        for (k = 0; k < mp.count; ++k) {
            const ct_mpi_pair *p = &mp.items[k];
            unordered += !(p->a.rank < p->b.rank || (p->a.rank == p->b.rank && p->a.index < p->b.index));
            if (k > 0) {
                const ct_mpi_pair *q = &mp.items[k - 1];
                long long qa = (long long)q->a.rank << 32 | (unsigned)q->a.index, pa = (long long)p->a.rank << 32 | (unsigned)p->a.index;
                long long qb = (long long)q->b.rank << 32 | (unsigned)q->b.index, pb = (long long)p->b.rank << 32 | (unsigned)p->b.index;
                unordered += !(qa < pa || (qa == pa && qb < pb));
            }
        }
        CHECK(unordered == 0, "%s: %lld pairs not a < b or not sorted", what, unordered);
    }
    u = gather_pairs(mp.items, (long long)mp.count, offsets, &nu);
    snprintf(buf, sizeof buf, "%s (list)", what);
    compare_union(buf, u, nu, all, total);
    free(u);
    /* traffic adds up */
    CHECK(sum_ll(st.sent) == sum_ll(st.received), "%s: sent %lld != received", what, st.sent);
    CHECK(sum_ll(st.pairs) == sum_ll((long long)mp.count) && st.pairs == (long long)mp.count, "%s: stats.pairs", what);
    /* owners against the decomposition actually used */
    if (d) check_owners(what, d, local, n, owner);
    else if (ct_mpi_decomp_build(MPI_COMM_WORLD, local, n, 0, NULL, &own) == CT_OK) {
        check_owners(what, &own, local, n, owner);
        ct_mpi_decomp_free(&own);
    } else CHECK(0, "%s: decomposition build failed", what);

    /* foreach with payloads */
    for (i = 0; i < n; ++i) {
        memset(&pl[i], 0, sizeof pl[i]);
        pl[i].b = local[i];
        pl[i].rank = g_rank;
        pl[i].index = i;
    }
    c.cap = (long long)mp.count + 1;
    c.p = (ct_mpi_pair *)xmalloc((size_t)c.cap * sizeof(ct_mpi_pair));
    c.n = c.bad = 0;
    s = ct_mpi_broadphase_foreach(MPI_COMM_WORLD, local, n, pl, sizeof(payload), d, on_pair, &c, NULL, &st);
    CHECK(s == CT_OK && c.bad == 0 && c.n == (long long)mp.count && st.pairs == c.n,
          "%s (foreach): status %d, %lld bad payloads, %lld calls, %zu pairs", what, (int)s, c.bad, c.n, mp.count);
    if (c.n > c.cap) c.n = c.cap;
    u = gather_pairs(c.p, c.n, offsets, &nu);
    snprintf(buf, sizeof buf, "%s (foreach)", what);
    compare_union(buf, u, nu, all, total);
    free(u);
    free(c.p);
    ct_mpi_pairs_free(&mp);
    free(pl);
    free(owner);
    free(all);
    free(offsets);
}

static void scenes(void) {
    int sizes[] = { 2000, 12000 }, si, mode, which;
    for (si = 0; si < 2; ++si)
        for (which = 0; which < 4; ++which) {
            int n = sizes[si];
            scene s = which == 0 ? uniform_scene(n, 11u + (unsigned)si) : which == 1 ? clustered_scene(n, 12)
                    : which == 2 ? flat_scene(n, 13) : degenerate_scene(si == 0 ? n : 3000, 14);
            ct_aabb *local = (ct_aabb *)xmalloc((size_t)s.n * sizeof(ct_aabb));
            for (mode = 0; mode < DEAL_COUNT; ++mode) {
                char what[160];
                int m = deal(&s, mode, local);
                double t = MPI_Wtime();
                snprintf(what, sizeof what, "%s n=%d %s", s.name, s.n, deal_name[mode]);
                run_case(what, local, m, NULL);
                if (g_rank == 0 && getenv("CT_MPI_VERBOSE")) fprintf(stderr, "    %-44s %.2f s\n", what, MPI_Wtime() - t);
            }
            free(local);
            free(s.b);
        }
}

/* Boxes exactly on the cut planes of the decomposition in use; also a decomposition from
   another scene (correctness never depends on its quality) and reuse after the boxes move. */
static void cut_planes(void) {
    scene u = uniform_scene(4000, 21), c;
    ct_aabb *local = (ct_aabb *)xmalloc(4000 * sizeof(ct_aabb));
    ct_mpi_decomp d;
    int m = deal(&u, DEAL_BLOCKS, local), i, mode;
    ct_status s = ct_mpi_decomp_build(MPI_COMM_WORLD, local, m, 64, NULL, &d);
    CHECK(s == CT_OK, "decomposition: status %d", (int)s);
    if (s != CT_OK) return;
    c = cut_scene(&d, 4000, 22);
    for (mode = 0; mode < DEAL_COUNT; ++mode) {
        char what[160];
        m = deal(&c, mode, local);
        snprintf(what, sizeof what, "%s n=4000 %s", c.name, deal_name[mode]);
        run_case(what, local, m, &d);
    }
    /* the uniform scene moved by up to a quarter of the domain, old decomposition reused */
    for (i = 0; i < u.n; ++i) {
        ct_real dx = (ct_real)(0.25 * sin(i * 0.1)), dy = (ct_real)(0.25 * cos(i * 0.3));
        u.b[i].lo.x += dx; u.b[i].hi.x += dx; u.b[i].lo.y += dy; u.b[i].hi.y += dy;
    }
    m = deal(&u, DEAL_INTERLEAVED, local);
    run_case("uniform moved, decomposition reused", local, m, &d);
    /* a decomposition from a clustered scene used on the uniform one */
    ct_mpi_decomp_free(&d);
    free(c.b);
    c = clustered_scene(4000, 23);
    m = deal(&c, DEAL_BLOCKS, local);
    s = ct_mpi_decomp_build(MPI_COMM_WORLD, local, m, 0, NULL, &d);
    CHECK(s == CT_OK, "decomposition: status %d", (int)s);
    m = deal(&u, DEAL_BLOCKS, local);
    if (s == CT_OK) run_case("uniform on a clustered decomposition", local, m, &d);
    ct_mpi_decomp_free(&d);
    free(c.b);
    free(u.b);
    free(local);
}

/* Empty ranks, an empty world, one box, migration to the owners, balance. */
static void small_and_migration(void) {
    ct_aabb one = box(0, 0, 0, 1, 1, 1);
    scene u = uniform_scene(40000, 31);
    ct_aabb *local = (ct_aabb *)xmalloc(40000 * sizeof(ct_aabb));
    int m, i, *owner, *hist = (int *)xmalloc((size_t)g_size * sizeof(int)), *tot = (int *)xmalloc((size_t)g_size * sizeof(int));
    ct_mpi_decomp d;
    ct_mpi_pairs mp;
    ct_mpi_stats st;
    ct_status s;
    long long before, after;
    run_case("no boxes anywhere", local, 0, NULL);
    run_case("one box on rank 0", &one, g_rank == 0, NULL);
    m = deal(&u, DEAL_INTERLEAVED, local);
    owner = (int *)xmalloc((size_t)m * sizeof(int) + 1);
    s = ct_mpi_decomp_build(MPI_COMM_WORLD, local, m, 0, NULL, &d);
    CHECK(s == CT_OK, "migration: decomposition status %d", (int)s);
    if (s != CT_OK) return;
    s = ct_mpi_broadphase(MPI_COMM_WORLD, local, m, &d, NULL, &mp, owner, &st);
    CHECK(s == CT_OK, "migration: status %d", (int)s);
    before = sum_ll(st.received);
    ct_mpi_pairs_free(&mp);
    /* balance: the owners' counts within 15% of n / ranks (1024 samples per rank) */
    memset(hist, 0, (size_t)g_size * sizeof(int));
    for (i = 0; i < m; ++i) hist[owner[i]]++;
    MPI_Allreduce(hist, tot, g_size, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < g_size; ++i)
        CHECK(tot[i] <= 1.15 * 40000 / g_size && tot[i] >= 0.85 * 40000 / g_size, "balance: rank %d owns %d of 40000", i, tot[i]);
    /* migrate (every rank knows the scene, so keeping one's own is the migration) and rerun:
       the global pair set is the same; ghosts are now a thin layer */
    {
        int k = 0;
        /* owners of all boxes: gather them in deal order */
        {
            int *all_owner = (int *)xmalloc(40000 * sizeof(int)), *cnt = (int *)xmalloc((size_t)g_size * sizeof(int)),
                *dis = (int *)xmalloc((size_t)g_size * sizeof(int));
            int r, acc = 0;
            MPI_Allgather(&m, 1, MPI_INT, cnt, 1, MPI_INT, MPI_COMM_WORLD);
            for (r = 0; r < g_size; ++r) { dis[r] = acc; acc += cnt[r]; }
            MPI_Allgatherv(owner, m, MPI_INT, all_owner, cnt, dis, MPI_INT, MPI_COMM_WORLD);
            /* global box i (interleaved) is local index i / size on rank i % size */
            for (i = 0; i < u.n; ++i)
                if (all_owner[dis[i % g_size] + i / g_size] == g_rank) local[k++] = u.b[i];
            free(all_owner);
            free(cnt);
            free(dis);
        }
        CHECK(sum_int(k) == 40000, "migration lost boxes");
        /* the same decomposition: a rebuilt one may cut along other axes (a cube's extents
           tie), so a caller keeps it between migrations */
        ct_mpi_broadphase(MPI_COMM_WORLD, local, k, &d, NULL, &mp, NULL, &st);
        after = sum_ll(st.received);
        ct_mpi_pairs_free(&mp);
        if (g_size > 1)
            CHECK(after < before / 5 && after < 40000 / 5, "ghosts %lld before migration, %lld after (40000 boxes)", before, after);
        run_case("uniform n=40000 migrated to owners", local, k, &d);
    }
    ct_mpi_decomp_free(&d);
    free(owner);
    free(hist);
    free(tot);
    free(local);
    free(u.b);
}

/* Bad input on one rank: every rank returns the same status, outputs empty, owners -1. */
static void bad_input(void) {
    scene u = uniform_scene(600, 41);
    ct_aabb *local = (ct_aabb *)xmalloc(600 * sizeof(ct_aabb));
    int m = deal(&u, DEAL_INTERLEAVED, local), c, owner[600], bad_rank;
    ct_mpi_pairs mp;
    ct_mpi_decomp d, self, broken;
    ct_mpi_stats st;
    collect col;
    ct_status s;
    memset(&col, 0, sizeof col);
    for (c = 0; c < 12; ++c)
        for (bad_rank = 0; bad_rank < g_size; ++bad_rank) {
            ct_aabb save = local[0];
            int n = m, mine = g_rank == bad_rank, i;
            const ct_aabb *bx = local;
            ct_mpi_pairs *out = &mp;
            const char *what = "";
            ct_status want = CT_INVALID;
            switch (c) {
            case 0: what = "NaN"; if (mine) local[0].lo.y = (ct_real)NAN; break;
            case 1: what = "Inf"; if (mine) local[0].hi.z = (ct_real)INFINITY; break;
            case 2: what = "lo > hi"; if (mine) local[0].lo.x = local[0].hi.x + 1; break;
            case 3: what = "n < 0"; if (mine) n = -1; break;
            case 4: what = "NULL boxes"; if (mine) bx = NULL; break;
            case 5: what = "NULL out"; if (mine) out = NULL; break;
            case 6: what = "-Inf lo"; if (mine) local[0].lo.x = -(ct_real)INFINITY; break;
            case 7: what = "NaN hi"; if (mine) local[0].hi.x = (ct_real)NAN; break;
            default: what = "valid"; want = CT_OK; break;
            }
            for (i = 0; i < 600; ++i) owner[i] = 7;
            s = ct_mpi_broadphase(MPI_COMM_WORLD, bx, n, NULL, NULL, out, owner, &st);
            CHECK(s == want && same_status(s), "bad input %s on rank %d: status %d", what, bad_rank, (int)s);
            if (s != CT_OK) {
                int bad_owner = 0;
                for (i = 0; i < (n > 0 ? n : 0); ++i) bad_owner += owner[i] != -1;
                CHECK(mp.count == 0 && mp.items == NULL && st.sent == 0 && bad_owner == 0, "bad input %s: outputs not empty", what);
            }
            if (out) ct_mpi_pairs_free(out);
            s = ct_mpi_broadphase_foreach(MPI_COMM_WORLD, bx, n, NULL, 0, NULL, c == 5 && mine ? NULL : on_pair, &col, NULL, NULL);
            CHECK(s == want && same_status(s), "foreach bad input %s on rank %d: status %d", what, bad_rank, (int)s);
            s = ct_mpi_decomp_build(MPI_COMM_WORLD, bx, n, 0, NULL, c == 5 && mine ? NULL : &d);
            CHECK(s == want && same_status(s), "decomp bad input %s on rank %d: status %d", what, bad_rank, (int)s);
            if (s == CT_OK) ct_mpi_decomp_free(&d);
            local[0] = save;
        }
    /* payload missing on one rank, negative samples, a decomposition for another size or broken */
    s = ct_mpi_broadphase_foreach(MPI_COMM_WORLD, local, m, g_rank == g_size - 1 ? NULL : local, sizeof(ct_aabb), NULL, on_pair, &col, NULL, NULL);
    CHECK(s == (m > 0 || g_size > 1 ? CT_INVALID : CT_OK) && same_status(s), "NULL payload: status %d", (int)s);
    s = ct_mpi_decomp_build(MPI_COMM_WORLD, local, m, g_rank == 0 ? -1 : 0, NULL, &d);
    CHECK(s == CT_INVALID && same_status(s) && d.nranks == 0, "negative samples: status %d", (int)s);
    s = ct_mpi_decomp_build(MPI_COMM_SELF, local, m, 0, NULL, &self);
    CHECK(s == CT_OK, "decomposition on MPI_COMM_SELF: status %d", (int)s);
    s = ct_mpi_broadphase(MPI_COMM_WORLD, local, m, &self, NULL, &mp, NULL, NULL);
    CHECK(s == (g_size == 1 ? CT_OK : CT_INVALID) && same_status(s), "decomposition of another size: status %d", (int)s);
    ct_mpi_pairs_free(&mp);
    ct_mpi_decomp_free(&self);
    if (ct_mpi_decomp_build(MPI_COMM_WORLD, local, m, 0, NULL, &d) == CT_OK) {
        /* broken on the last rank only: a loop (child 0), the root's children swapped (in
           range, but not the shape the build makes), an axis out of range */
        int kind, saved[3] = { 0, 0, 0 };
        for (kind = 0; kind < 3; ++kind) {
            int mine = g_size > 1 && g_rank == g_size - 1;
            broken = d;
            if (mine) {
                saved[0] = d.child[0];
                saved[1] = d.child[1];
                saved[2] = d.axis[0];
                if (kind == 0) d.child[0] = 0;
                else if (kind == 1) { d.child[0] = saved[1]; d.child[1] = saved[0]; }
                else d.axis[0] = 3;
            }
            s = ct_mpi_broadphase(MPI_COMM_WORLD, local, m, &broken, NULL, &mp, NULL, NULL);
            CHECK(s == (g_size == 1 ? CT_OK : CT_INVALID) && same_status(s), "broken decomposition %d: status %d", kind, (int)s);
            ct_mpi_pairs_free(&mp);
            if (mine) {
                d.child[0] = saved[0];
                d.child[1] = saved[1];
                d.axis[0] = saved[2];
            }
        }
        ct_mpi_decomp_free(&d);
    }
    s = ct_mpi_broadphase(MPI_COMM_NULL, local, m, NULL, NULL, &mp, NULL, NULL);
    CHECK(s == CT_INVALID && mp.count == 0, "MPI_COMM_NULL: status %d", (int)s);
    CHECK(ct_mpi_decomp_rank(NULL, tu_vec(0, 0, 0)) == -1, "rank of NULL decomposition");
    ct_mpi_decomp_free(NULL);
    ct_mpi_pairs_free(NULL);
    free(local);
    free(u.b);
}

/* Allocation failure at every allocation of every rank in turn: CT_NO_MEMORY everywhere,
   nothing outstanding; then the same answer as without failure. */
static void alloc_sweep(void) {
    scene u = uniform_scene(3000, 51);
    ct_aabb *local = (ct_aabb *)xmalloc(3000 * sizeof(ct_aabb));
    int m = deal(&u, DEAL_BLOCKS, local), quiet = 0, k, fn;
    ct_mpi_pairs ref, mp;
    CHECK(ct_mpi_broadphase(MPI_COMM_WORLD, local, m, NULL, NULL, &ref, NULL, NULL) == CT_OK, "sweep reference");
    for (fn = 0; fn < 2; ++fn)
        for (k = 0, quiet = 0; quiet < g_size && k < 4000; ++k) {
            tu_alloc t;
            ct_mpi_decomp d;
            ct_status s;
            int fail_rank = k % g_size, hit;
            tu_alloc_init(&t, g_rank == fail_rank ? k / g_size + 1 : 0);
            if (fn == 0) s = ct_mpi_broadphase(MPI_COMM_WORLD, local, m, NULL, &t.a, &mp, NULL, NULL);
            else s = ct_mpi_decomp_build(MPI_COMM_WORLD, local, m, 0, &t.a, &d);
            hit = sum_int(g_rank == fail_rank && t.calls >= t.fail_at);
            CHECK(same_status(s) && s == (hit ? CT_NO_MEMORY : CT_OK), "sweep %d at %d: status %d", fn, k, (int)s);
            if (s == CT_OK && fn == 0) {
                CHECK(mp.count == ref.count && (mp.count == 0 || !memcmp(mp.items, ref.items, mp.count * sizeof *mp.items)),
                      "sweep: answer differs after failures");
                ct_mpi_pairs_free(&mp);
            }
            if (s == CT_OK && fn == 1) ct_mpi_decomp_free(&d);
            if (s != CT_OK && fn == 0) CHECK(mp.count == 0 && mp.items == NULL, "sweep: output not empty");
            CHECK(t.outstanding == 0, "sweep %d at %d: %ld blocks outstanding", fn, k, t.outstanding);
            quiet = hit ? 0 : quiet + 1;
        }
    ct_mpi_pairs_free(&ref);
    free(local);
    free(u.b);
}

/* Thread counts 1 and 2, and a repeated call: the same pairs on every rank. The
   decomposition is identical on all ranks. */
static void determinism(void) {
    scene u = clustered_scene(20000, 61);
    ct_aabb *local = (ct_aabb *)xmalloc(20000 * sizeof(ct_aabb));
    int m = deal(&u, DEAL_INTERLEAVED, local), k;
    ct_mpi_pairs a, b;
    ct_mpi_decomp d;
    tu_set_threads(1);
    ct_mpi_broadphase(MPI_COMM_WORLD, local, m, NULL, NULL, &a, NULL, NULL);
    tu_set_threads(2);
    ct_mpi_broadphase(MPI_COMM_WORLD, local, m, NULL, NULL, &b, NULL, NULL);
    CHECK(a.count == b.count && (a.count == 0 || !memcmp(a.items, b.items, a.count * sizeof *a.items)),
          "1 and 2 threads differ");
    ct_mpi_pairs_free(&a);
    ct_mpi_pairs_free(&b);
    if (ct_mpi_decomp_build(MPI_COMM_WORLD, local, m, 0, NULL, &d) == CT_OK) {
        int nc = d.nranks - 1, diff = 0;
        ct_real *cut0 = (ct_real *)xmalloc((size_t)(nc + 1) * sizeof(ct_real));
        int *ax0 = (int *)xmalloc((size_t)(3 * nc + 1) * sizeof(int));
        if (nc > 0) {
            memcpy(cut0, d.cut, (size_t)nc * sizeof(ct_real));
            memcpy(ax0, d.axis, (size_t)nc * sizeof(int));
            memcpy(ax0 + nc, d.child, (size_t)(2 * nc) * sizeof(int));
        }
        MPI_Bcast(cut0, nc * (int)sizeof(ct_real), MPI_BYTE, 0, MPI_COMM_WORLD);
        MPI_Bcast(ax0, 3 * nc, MPI_INT, 0, MPI_COMM_WORLD);
        for (k = 0; k < nc; ++k)
            diff += memcmp(&cut0[k], &d.cut[k], sizeof(ct_real)) != 0 || ax0[k] != d.axis[k] ||
                    ax0[nc + 2 * k] != d.child[2 * k] || ax0[nc + 2 * k + 1] != d.child[2 * k + 1];
        CHECK(sum_int(diff) == 0, "decompositions differ between ranks");
        free(cut0);
        free(ax0);
        ct_mpi_decomp_free(&d);
    }
    free(local);
    free(u.b);
}

/* Runs one group of checks; rank 0 reports its time (stderr). */
static void section(const char *name, void (*fn)(void)) {
    double t = MPI_Wtime();
    fn();
    if (g_rank == 0) fprintf(stderr, "  %-22s %.2f s\n", name, MPI_Wtime() - t);
}

/* Every public MPI function is defined with its declared signature (by address). */
static void api(void) {
#define CT_TAKE(f) CHECK(&f != NULL, "%s missing", #f);
    CT_API_MPI(CT_TAKE)
#undef CT_TAKE
}

int main(int argc, char **argv) {
    long totals[2], mine[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    api();
    section("scenes", scenes);
    section("cut planes", cut_planes);
    section("small and migration", small_and_migration);
    section("bad input", bad_input);
    section("allocation sweep", alloc_sweep);
    section("determinism", determinism);
    mine[0] = g_pass;
    mine[1] = g_fail;
    MPI_Reduce(mine, totals, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Bcast(totals, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    if (g_rank == 0) printf("mpi tests on %d ranks (%s): %ld passed, %ld failed\n", g_size, TU_FLOAT ? "float" : "double", totals[0], totals[1]);
    MPI_Finalize();
    return totals[1] == 0 ? 0 : 1;
}
