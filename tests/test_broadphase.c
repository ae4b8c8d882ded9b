/* Broad phase: ct_broadphase, ct_broadphase_bipartite, ct_broadphase_foreach against an
   O(n^2) brute-force oracle on seeded scenes of every hard distribution, across OpenMP
   thread counts; invalid input; allocation failure; scale and translation. */
#include "contact.h"
#include "testutil.h"
#include "workload.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- the oracle ------------------------------------------------------------------------ */
static int overlap(const ct_aabb *a, const ct_aabb *b) {
    return a->lo.x <= b->hi.x && b->lo.x <= a->hi.x && a->lo.y <= b->hi.y && b->lo.y <= a->hi.y &&
           a->lo.z <= b->hi.z && b->lo.z <= a->hi.z;
}

/* Brute force pairs, sorted by (a, b) by construction. Self when B == NULL. */
static ct_pair *brute(const ct_aabb *A, int na, const ct_aabb *B, int nb, size_t *count) {
    size_t cap = 1024, n = 0;
    ct_pair *p = (ct_pair *)malloc(cap * sizeof *p);
    int i, j;
    cr_assert_not_null(p);
    for (i = 0; i < na; ++i)
        for (j = B ? 0 : i + 1; j < (B ? nb : na); ++j)
            if (overlap(&A[i], B ? &B[j] : &A[j])) {
                if (n == cap) {
                    cap *= 2;
                    p = (ct_pair *)realloc(p, cap * sizeof *p);
                    cr_assert_not_null(p);
                }
                p[n].a = i;
                p[n].b = j;
                ++n;
            }
    *count = n;
    return p;
}

static void expect_equal(const ct_pairs *got, const ct_pair *want, size_t nwant, const char *what) {
    size_t i;
    cr_assert_eq(got->count, nwant, "%s: %zu pairs, brute force %zu", what, got->count, nwant);
    for (i = 0; i < nwant; ++i)
        cr_assert(got->items[i].a == want[i].a && got->items[i].b == want[i].b,
                  "%s: pair %zu is (%d,%d), brute force (%d,%d)", what, i, got->items[i].a,
                  got->items[i].b, want[i].a, want[i].b);
}


/* ---- scenes ---------------------------------------------------------------------------- */
static ct_aabb box(double x0, double y0, double z0, double x1, double y1, double z1) {
    ct_aabb b;
    b.lo = tu_vec(x0, y0, z0);
    b.hi = tu_vec(x1, y1, z1);
    return b;
}

static ct_aabb *scene_dem(int n, double factor, unsigned long long *seed) {
    double *lo = (double *)malloc(3 * sizeof(double) * (size_t)n), *hi = (double *)malloc(3 * sizeof(double) * (size_t)n);
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    int i;
    wl_dem_boxes(lo, hi, n, factor, seed);
    for (i = 0; i < n; ++i) b[i] = box(lo[3 * i], lo[3 * i + 1], lo[3 * i + 2], hi[3 * i], hi[3 * i + 1], hi[3 * i + 2]);
    free(lo);
    free(hi);
    return b;
}

/* A few Gaussian clusters of very different widths, box sizes varying 1:20. */
static ct_aabb *scene_clustered(int n, unsigned long long *seed) {
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    double centre[5][3], width[5];
    int i, k;
    for (k = 0; k < 5; ++k) {
        centre[k][0] = tu_uniform(seed) * 10;
        centre[k][1] = tu_uniform(seed) * 10;
        centre[k][2] = tu_uniform(seed) * 10;
        width[k] = 0.05 * pow(10.0, 1.5 * tu_uniform(seed));
    }
    for (i = 0; i < n; ++i) {
        double c[3], h = 0.01 + 0.2 * tu_uniform(seed);
        unsigned long long s2 = *seed;
        k = (int)(tu_uniform(seed) * 5);
        wl_gauss(c, 1, width[k], &s2);
        *seed = s2;
        b[i] = box(centre[k][0] + c[0] - h, centre[k][1] + c[1] - h, centre[k][2] + c[2] - h,
                   centre[k][0] + c[0] + h, centre[k][1] + c[1] + h, centre[k][2] + c[2] + h);
    }
    return b;
}

/* k^3 unit cubes on the integer lattice, exactly touching their 26 neighbours, in shuffled
   order; scale and shift are powers of two so every coordinate stays exact. */
static ct_aabb *scene_lattice(int k, double scale, double shift, unsigned long long *seed) {
    int n = k * k * k, i;
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    for (i = 0; i < n; ++i) {
        double x = i % k, y = (i / k) % k, z = i / (k * k);
        b[i] = box(shift + scale * x, shift + scale * y, shift + scale * z, shift + scale * (x + 1),
                   shift + scale * (y + 1), shift + scale * (z + 1));
    }
    for (i = n - 1; i > 0; --i) {
        int j = (int)(tu_uniform(seed) * (i + 1));
        ct_aabb t = b[i];
        b[i] = b[j];
        b[j] = t;
    }
    return b;
}

/* Every box contains the origin. */
static ct_aabb *scene_all_overlap(int n, unsigned long long *seed) {
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    int i;
    for (i = 0; i < n; ++i)
        b[i] = box(-tu_uniform(seed), -tu_uniform(seed), -tu_uniform(seed), tu_uniform(seed), tu_uniform(seed),
                   tu_uniform(seed));
    return b;
}

/* Many small boxes, plus huge boxes, rods and plates spanning the scene, at random indices. */
static ct_aabb *scene_huge(int n, unsigned long long *seed) {
    ct_aabb *b = scene_dem(n, 1.5, seed);
    int i;
    for (i = 0; i < 12; ++i) {
        int j = (int)(tu_uniform(seed) * n);
        double c = tu_uniform(seed), d = tu_uniform(seed);
        switch (i % 4) {
        case 0: b[j] = box(-0.1, -0.1, -0.1, 1.1, 1.1, 1.1); break;           /* whole scene */
        case 1: b[j] = box(-0.1, c, d, 1.1, c + 0.01, d + 0.01); break;        /* rod along x */
        case 2: b[j] = box(c, -0.1, -0.1, c + 0.002, 1.1, 1.1); break;         /* wall */
        default: b[j] = box(c * 0.5, d * 0.5, 0, c * 0.5 + 0.5, d * 0.5 + 0.5, 0.6); break;
        }
    }
    return b;
}

/* Zero-size boxes (points), many duplicated, some on a coarse lattice so they coincide with
   the corners of unit boxes that are also present. */
static ct_aabb *scene_zero(int n, unsigned long long *seed) {
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    int i;
    for (i = 0; i < n; ++i) {
        double x = floor(tu_uniform(seed) * 8), y = floor(tu_uniform(seed) * 8), z = floor(tu_uniform(seed) * 8);
        int kind = i % 3;
        if (kind == 0) b[i] = box(x, y, z, x, y, z);
        else if (kind == 1) b[i] = box(x, y, z, x + 1, y + 1, z + 1);
        else {
            double u = tu_uniform(seed) * 8, v = tu_uniform(seed) * 8, w = tu_uniform(seed) * 8;
            b[i] = box(u, v, w, u, v, w);
        }
    }
    return b;
}

/* Sizes spread over four decades (log-uniform): exercises the recursion on big boxes. */
static ct_aabb *scene_polydisperse(int n, unsigned long long *seed) {
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    int i;
    for (i = 0; i < n; ++i) {
        double h = 0.001 * pow(10.0, 4 * tu_uniform(seed) * tu_uniform(seed));
        double x = tu_uniform(seed), y = tu_uniform(seed), z = tu_uniform(seed);
        b[i] = box(x - h, y - h * tu_uniform(seed), z - h, x + h * tu_uniform(seed), y + h, z + h);
    }
    return b;
}

/* Flat (all in the plane z = 0) and collinear scenes. */
static ct_aabb *scene_flat(int n, int line, unsigned long long *seed) {
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    int i;
    for (i = 0; i < n; ++i) {
        double x = tu_uniform(seed) * 30, y = line ? 0 : tu_uniform(seed) * 30, h = 0.1 + tu_uniform(seed);
        b[i] = box(x, y, 0, x + h, y + (line ? 0 : h), 0);
    }
    return b;
}

/* A dense scene plus far-away boxes (two of them touching each other, one reaching back
   into the scene): the grid must not stretch over the empty space, and must not lose them. */
static ct_aabb *scene_outliers(int n, unsigned long long *seed) {
    ct_aabb *b = scene_dem(n, 1.5, seed);
    /* small far boxes (grid members clamped into the edge columns) */
    b[3] = box(1000, 1000, 1000, 1000.0625, 1000.0625, 1000.0625);
    b[n / 2] = box(1000.0625, 1000.0625, 1000, 1000.125, 1000.125, 1000.0625);   /* touches b[3] along an edge */
    b[7] = box(0.25, -5000, 0.25, 0.25, -5000, 0.25);
    b[8] = box(0.25, -5000, 0.25, 0.3125, -5000, 0.25);                     /* touches b[7] */
    b[n - 6] = box(-4000, 3000, 0.5, -4000, 3000, 0.5);
    /* a big one from far away reaching into the scene */
    b[n - 5] = box(-2000, 0.5, -3000, 0.5, 0.5, 0.5);
    return b;
}

/* Two dense clusters 1000 sizes apart along the diagonal (the column grid cannot be dense
   over the gap), plus one box spanning both. */
static ct_aabb *scene_far_clusters(int n, unsigned long long *seed) {
    ct_aabb *b = scene_dem(n, 1.5, seed);
    int i;
    for (i = 1; i < n; i += 2) {
        b[i].lo = tu_vec(b[i].lo.x + 1000, b[i].lo.y + 1000, b[i].lo.z + 1000);
        b[i].hi = tu_vec(b[i].hi.x + 1000, b[i].hi.y + 1000, b[i].hi.z + 1000);
    }
    b[n / 3] = box(0.5, 0.5, 0.5, 1000.5, 1000.5, 1000.5);
    return b;
}

/* Zero-size boxes only (no extent to size the cells by), a third of them duplicated. */
static ct_aabb *scene_points(int n, unsigned long long *seed) {
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    int i;
    for (i = 0; i < n; ++i) {
        if (i % 3 == 2) { b[i] = b[i - 1]; continue; }
        b[i].lo = tu_vec(floor(tu_uniform(seed) * 64) / 8, floor(tu_uniform(seed) * 64) / 8, floor(tu_uniform(seed) * 64) / 8);
        b[i].hi = b[i].lo;
    }
    return b;
}

typedef struct scene { const char *name; ct_aabb *b; int n; } scene;

/* Builds scene number k (0 .. NSCENES-1) with a seed. */
#define NSCENES 13
static scene make_scene(int k, unsigned long long seed) {
    scene s;
    unsigned long long st = seed * 1000003ULL + (unsigned long long)k;
    switch (k) {
    case 0: s.name = "uniform"; s.n = 2000; s.b = scene_dem(s.n, 1.5, &st); break;
    case 1: s.name = "uniform sparse"; s.n = 1500; s.b = scene_dem(s.n, 0.3, &st); break;
    case 2: s.name = "clustered"; s.n = 2000; s.b = scene_clustered(s.n, &st); break;
    case 3: s.name = "touching lattice"; s.n = 1000; s.b = scene_lattice(10, 1, 0, &st); break;
    case 4: s.name = "all overlapping"; s.n = 500; s.b = scene_all_overlap(s.n, &st); break;
    case 5: s.name = "huge among small"; s.n = 2000; s.b = scene_huge(s.n, &st); break;
    case 6: s.name = "zero-size"; s.n = 1500; s.b = scene_zero(s.n, &st); break;
    case 7: s.name = "polydisperse"; s.n = 2000; s.b = scene_polydisperse(s.n, &st); break;
    case 8: s.name = "flat"; s.n = 1000; s.b = scene_flat(s.n, 0, &st); break;
    case 9: s.name = "collinear"; s.n = 600; s.b = scene_flat(s.n, 1, &st); break;
    case 10: s.name = "far outliers"; s.n = 2000; s.b = scene_outliers(s.n, &st); break;
    case 11: s.name = "far clusters"; s.n = 2000; s.b = scene_far_clusters(s.n, &st); break;
    default: s.name = "points"; s.n = 1500; s.b = scene_points(s.n, &st); break;
    }
    return s;
}

/* ---- tests ----------------------------------------------------------------------------- */
Test(broadphase, matches_brute_force_on_every_scene) {
    int k, seed;
    for (seed = 1; seed <= 3; ++seed)
        for (k = 0; k < NSCENES; ++k) {
            scene s = make_scene(k, (unsigned long long)seed);
            size_t nw;
            ct_pair *want = brute(s.b, s.n, NULL, 0, &nw);
            ct_pairs got;
            cr_assert_eq(ct_broadphase(s.b, s.n, NULL, &got), CT_OK);
            expect_equal(&got, want, nw, s.name);
            if (k == 0) cr_assert(nw > (size_t)s.n * 8, "uniform scene has about 13 pairs per box");
            ct_pairs_free(&got);
            cr_assert_null(got.items);
            free(want);
            free(s.b);
        }
}

/* Exact count for the touching lattice: each unit cube touches every cube whose index differs
   by at most one on each axis. */
Test(broadphase, touching_lattice_has_every_neighbour) {
    unsigned long long seed = 5;
    int k = 9, n = k * k * k;
    ct_aabb *b = scene_lattice(k, 1, 0, &seed);
    ct_pairs got;
    /* pairs of lattice neighbours: for each of the 13 half-directions, the product over axes
       of (k - |d|) */
    size_t want = 0;
    int dx, dy, dz;
    for (dx = -1; dx <= 1; ++dx)
        for (dy = -1; dy <= 1; ++dy)
            for (dz = -1; dz <= 1; ++dz)
                if (dx || dy || dz) want += (size_t)((k - abs(dx)) * (k - abs(dy)) * (k - abs(dz)));
    want /= 2;
    cr_assert_eq(ct_broadphase(b, n, NULL, &got), CT_OK);
    cr_assert_eq(got.count, want);
    ct_pairs_free(&got);
    free(b);
}

Test(broadphase, identical_for_thread_counts_1_2_3_4_7) {
    static const int threads[5] = { 1, 2, 3, 4, 7 };
    int k, t;
    for (k = 0; k < NSCENES; ++k) {
        scene s = make_scene(k, 11);
        size_t nw;
        ct_pair *want = brute(s.b, s.n, NULL, 0, &nw);
        for (t = 0; t < 5; ++t) {
            ct_pairs got;
            tu_set_threads(threads[t]);
            cr_assert_eq(ct_broadphase(s.b, s.n, NULL, &got), CT_OK);
            expect_equal(&got, want, nw, s.name);
            ct_pairs_free(&got);
        }
        tu_set_threads(2);
        free(want);
        free(s.b);
    }
}

Test(broadphase, bipartite_matches_brute_force) {
    int k, seed;
    for (seed = 1; seed <= 2; ++seed)
        for (k = 0; k < NSCENES; ++k) {
            scene s = make_scene(k, (unsigned long long)seed + 50), w = make_scene((k + 5) % NSCENES, (unsigned long long)seed + 70);
            int na = s.n / 2, t;
            size_t nw;
            ct_pair *want;
            ct_pairs got;
            /* set A: half of one scene; set B: the other half plus a different scene's boxes */
            ct_aabb *B = (ct_aabb *)malloc(sizeof *B * (size_t)(s.n - na + w.n));
            memcpy(B, s.b + na, sizeof *B * (size_t)(s.n - na));
            memcpy(B + (s.n - na), w.b, sizeof *B * (size_t)w.n);
            want = brute(s.b, na, B, s.n - na + w.n, &nw);
            for (t = 1; t <= 3; t += 2) {
                tu_set_threads(t);
                cr_assert_eq(ct_broadphase_bipartite(s.b, na, B, s.n - na + w.n, NULL, &got), CT_OK);
                expect_equal(&got, want, nw, s.name);
                ct_pairs_free(&got);
            }
            free(want);
            /* swapped roles */
            want = brute(B, s.n - na + w.n, s.b, na, &nw);
            cr_assert_eq(ct_broadphase_bipartite(B, s.n - na + w.n, s.b, na, NULL, &got), CT_OK);
            expect_equal(&got, want, nw, s.name);
            ct_pairs_free(&got);
            free(want);
            free(B);
            free(s.b);
            free(w.b);
        }
    tu_set_threads(2);
}

Test(broadphase, bipartite_small_and_empty_sets) {
    ct_aabb a[2], b[1];
    ct_pairs got;
    a[0] = box(0, 0, 0, 1, 1, 1);
    a[1] = box(2, 2, 2, 3, 3, 3);
    b[0] = box(1, 1, 1, 2, 2, 2);   /* touches both at a corner */
    cr_assert_eq(ct_broadphase_bipartite(a, 2, b, 1, NULL, &got), CT_OK);
    cr_assert_eq(got.count, 2);
    cr_assert(got.items[0].a == 0 && got.items[0].b == 0 && got.items[1].a == 1 && got.items[1].b == 0);
    ct_pairs_free(&got);
    cr_assert_eq(ct_broadphase_bipartite(a, 2, NULL, 0, NULL, &got), CT_OK);
    cr_assert_eq(got.count, 0);
    cr_assert_eq(ct_broadphase_bipartite(NULL, 0, b, 1, NULL, &got), CT_OK);
    cr_assert_eq(got.count, 0);
}

/* ---- foreach ----------------------------------------------------------------------------- */
typedef struct visit {
    const ct_pair *want;
    size_t nwant;
    int *seen;                /* per expected pair */
    long bad;                 /* calls that are not an expected pair, or a bad thread */
    int maxthreads;
    unsigned long long checksum;
    int caller;               /* thread number of the caller (nested test), -1: unchecked */
} visit;

static void visit_fn(void *user, int a, int b, int thread) {
    visit *v = (visit *)user;
    size_t lo = 0, hi = v->nwant;
    unsigned long long h = (unsigned long long)a * 1000003ULL + (unsigned long long)b;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (v->want[m].a < a || (v->want[m].a == a && v->want[m].b < b)) lo = m + 1; else hi = m;
    }
    if (thread < 0 || thread >= v->maxthreads || (v->caller >= 0 && thread != v->caller)) {
#ifdef _OPENMP
#pragma omp atomic
#endif
        v->bad++;
    }
#ifdef _OPENMP
    if (thread != omp_get_thread_num()) {
#pragma omp atomic
        v->bad++;
    }
#endif
    if (lo == v->nwant || v->want[lo].a != a || v->want[lo].b != b) {
#ifdef _OPENMP
#pragma omp atomic
#endif
        v->bad++;
        return;
    }
#ifdef _OPENMP
#pragma omp atomic
#endif
    v->seen[lo]++;
#ifdef _OPENMP
#pragma omp atomic
#endif
    v->checksum += h * h;
}

static void check_visits(const visit *v) {
    size_t i;
    unsigned long long sum = 0;
    cr_assert_eq(v->bad, 0);
    for (i = 0; i < v->nwant; ++i) {
        unsigned long long h = (unsigned long long)v->want[i].a * 1000003ULL + (unsigned long long)v->want[i].b;
        cr_assert_eq(v->seen[i], 1, "pair (%d,%d) visited %d times", v->want[i].a, v->want[i].b, v->seen[i]);
        sum += h * h;
    }
    cr_assert_eq(v->checksum, sum);
}

Test(broadphase, foreach_visits_every_pair_once) {
    int k, t;
    for (k = 0; k < NSCENES; k += 2) {
        scene s = make_scene(k, 23);
        size_t nw;
        ct_pair *want = brute(s.b, s.n, NULL, 0, &nw);
        for (t = 1; t <= 4; t += 3) {
            visit v;
            memset(&v, 0, sizeof v);
            v.want = want;
            v.nwant = nw;
            v.seen = (int *)calloc(nw + 1, sizeof(int));
            v.caller = -1;
            tu_set_threads(t);
#ifdef _OPENMP
            v.maxthreads = omp_get_max_threads();
#else
            v.maxthreads = 1;
#endif
            cr_assert_eq(ct_broadphase_foreach(s.b, s.n, visit_fn, &v), CT_OK);
            check_visits(&v);
            free(v.seen);
        }
        tu_set_threads(2);
        free(want);
        free(s.b);
    }
}

Test(broadphase, foreach_inside_a_parallel_region_runs_on_the_caller) {
    scene s = make_scene(0, 29);
    size_t nw;
    ct_pair *want = brute(s.b, s.n, NULL, 0, &nw);
    visit v[2];
    int i, st[2] = { -1, -1 };
    for (i = 0; i < 2; ++i) {
        memset(&v[i], 0, sizeof v[i]);
        v[i].want = want;
        v[i].nwant = nw;
        v[i].seen = (int *)calloc(nw + 1, sizeof(int));
        v[i].maxthreads = 2;
        v[i].caller = i;
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        st[me] = ct_broadphase_foreach(s.b, s.n, visit_fn, &v[me]);
    }
    if (st[1] == -1) { v[1].caller = 0; st[1] = ct_broadphase_foreach(s.b, s.n, visit_fn, &v[1]); } /* team of one */
#else
    for (i = 0; i < 2; ++i) { v[i].caller = 0; st[i] = ct_broadphase_foreach(s.b, s.n, visit_fn, &v[i]); }
#endif
    for (i = 0; i < 2; ++i) {
        cr_assert_eq(st[i], CT_OK);
        check_visits(&v[i]);
        free(v[i].seen);
    }
    free(want);
    free(s.b);
}

/* ---- bad input, allocation failure, invariance ---------------------------------------- */
Test(broadphase, invalid_input) {
    ct_aabb b[40];
    ct_pairs p;
    int i, k;
    unsigned long long seed = 3;
    for (i = 0; i < 40; ++i) {
        double x = tu_uniform(&seed), y = tu_uniform(&seed), z = tu_uniform(&seed);
        b[i] = box(x, y, z, x + 0.3, y + 0.3, z + 0.3);
    }
    cr_assert_eq(ct_broadphase(b, 40, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_broadphase(b, -1, NULL, &p), CT_INVALID);
    cr_assert(p.items == NULL && p.count == 0);
    cr_assert_eq(ct_broadphase(NULL, 3, NULL, &p), CT_INVALID);
    cr_assert_eq(ct_broadphase(NULL, 0, NULL, &p), CT_OK);
    cr_assert_eq(p.count, 0);
    cr_assert_eq(ct_broadphase(b, 1, NULL, &p), CT_OK);
    cr_assert_eq(p.count, 0);
    cr_assert_eq(ct_broadphase_bipartite(b, -2, b, 3, NULL, &p), CT_INVALID);
    cr_assert_eq(ct_broadphase_bipartite(b, 2, NULL, 3, NULL, &p), CT_INVALID);
    cr_assert_eq(ct_broadphase_foreach(b, 40, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_broadphase_foreach(b, -1, visit_fn, NULL), CT_INVALID);
    for (k = 0; k < 4; ++k)
        for (i = 0; i < 40; i += 13) {
            ct_aabb keep = b[i];
            if (k == 0) b[i].lo.y = (ct_real)NAN;
            if (k == 1) b[i].hi.z = (ct_real)INFINITY;
            if (k == 2) b[i].lo.x = -(ct_real)INFINITY;
            if (k == 3) { b[i].lo.z = b[i].hi.z + 1; }   /* lo > hi: invalid, documented */
            cr_assert_eq(ct_broadphase(b, 40, NULL, &p), CT_INVALID);
            cr_assert(p.items == NULL && p.count == 0);
            cr_assert_eq(ct_broadphase(b + i, 1, NULL, &p), CT_INVALID);
            cr_assert_eq(ct_broadphase_bipartite(b, 40, b, 2, NULL, &p), CT_INVALID);
            cr_assert_eq(ct_broadphase_bipartite(b, 2, b, 40, NULL, &p), CT_INVALID);
            b[i] = keep;
        }
    cr_assert_eq(ct_broadphase(b, 40, NULL, &p), CT_OK);
    ct_pairs_free(&p);
    ct_pairs_free(&p);   /* twice is fine */
    ct_pairs_free(NULL);
}

static void sweep_failures(const ct_aabb *b, int n, const ct_aabb *B, int nb) {
    size_t nw;
    ct_pair *want = B ? brute(b, n, B, nb, &nw) : brute(b, n, NULL, 0, &nw);
    long fail;
    for (fail = 1;; ++fail) {
        tu_alloc t;
        ct_pairs p;
        ct_status st;
        tu_alloc_init(&t, fail);
        st = B ? ct_broadphase_bipartite(b, n, B, nb, &t.a, &p) : ct_broadphase(b, n, &t.a, &p);
        if (st == CT_NO_MEMORY) {
            cr_assert_eq(t.outstanding, 0, "leak after failing allocation %ld", fail);
            cr_assert(p.items == NULL && p.count == 0);
            cr_assert(fail < 10000);
            continue;
        }
        cr_assert_eq(st, CT_OK);
        expect_equal(&p, want, nw, "after failures");
        ct_pairs_free(&p);
        cr_assert_eq(t.outstanding, 0);
        cr_assert(fail > 1, "the call allocates");
        break;
    }
    free(want);
}

Test(broadphase, allocation_failure_is_reported_and_nothing_leaks) {
    int t;
    for (t = 1; t <= 2; ++t) {
        scene s = make_scene(5, 31);   /* huge among small: exercises the recursion */
        scene a = make_scene(4, 31);   /* all overlapping: buffers overflow and grow */
        tu_set_threads(t);
        sweep_failures(s.b, s.n, NULL, 0);
        sweep_failures(a.b, a.n, NULL, 0);
        sweep_failures(s.b, 700, s.b + 700, s.n - 700);
        free(s.b);
        free(a.b);
    }
    tu_set_threads(2);
}

/* Scaling by powers of two and shifting by 2^20 keep the lattice exact: identical output.
   Scaling a random scene by 1e-6 .. 1e6 and translating it by 1e6 still matches the brute
   force on the transformed boxes. */
Test(broadphase, invariant_under_scaling_and_translation) {
    static const double scales[4] = { 1.0 / 1048576, 1.0 / 64, 64, 1048576 };
    unsigned long long seed = 41;
    ct_aabb *ref = scene_lattice(8, 1, 0, &seed);
    ct_pairs p0;
    int i, k;
    cr_assert_eq(ct_broadphase(ref, 512, NULL, &p0), CT_OK);
    for (k = 0; k < 4; ++k) {
        unsigned long long s2 = 41;
        ct_aabb *b = scene_lattice(8, scales[k], TU_FLOAT ? 0 : 1048576.0 * scales[k] * 4, &s2);
        ct_pairs p;
        cr_assert_eq(ct_broadphase(b, 512, NULL, &p), CT_OK);
        expect_equal(&p, p0.items, p0.count, "scaled lattice");
        ct_pairs_free(&p);
        free(b);
    }
    ct_pairs_free(&p0);
    free(ref);
    for (k = 0; k < 3; ++k) {
        static const double sc[3] = { 1e-6, 1, 1e6 };
        unsigned long long s3 = 43;
        scene s = make_scene(7, s3);
        size_t nw;
        ct_pair *want;
        ct_pairs p;
        for (i = 0; i < s.n; ++i) {
            double shift = TU_FLOAT ? 0 : 1e6 * sc[k];
            s.b[i].lo = tu_vec(s.b[i].lo.x * sc[k] + shift, s.b[i].lo.y * sc[k] - shift, s.b[i].lo.z * sc[k] + shift);
            s.b[i].hi = tu_vec(s.b[i].hi.x * sc[k] + shift, s.b[i].hi.y * sc[k] - shift, s.b[i].hi.z * sc[k] + shift);
        }
        want = brute(s.b, s.n, NULL, 0, &nw);
        cr_assert_eq(ct_broadphase(s.b, s.n, NULL, &p), CT_OK);
        expect_equal(&p, want, nw, "scaled and translated");
        ct_pairs_free(&p);
        free(want);
        free(s.b);
    }
}

/* Boxes at the extremes of the representable range: no overflow trouble, exact answer. */
Test(broadphase, extreme_coordinates) {
    ct_aabb b[64];
    unsigned long long seed = 47;
    ct_real big = (ct_real)(TU_FLOAT ? 3.0e38 : 1.0e308);
    size_t nw;
    ct_pair *want;
    ct_pairs p;
    int i;
    for (i = 0; i < 64; ++i) {
        ct_real x = (ct_real)(tu_uniform(&seed) * 2 - 1) * big, y = (ct_real)(tu_uniform(&seed) * 2 - 1) * big;
        b[i].lo = tu_vec(0, 0, 0);
        b[i].lo.x = x;
        b[i].lo.y = y;
        b[i].hi = b[i].lo;
        b[i].hi.x = i % 4 == 0 ? big : x;   /* some reach the top of the range */
        b[i].hi.y = i % 5 == 0 ? big : y;
        if (i % 7 == 0) b[i].lo.y = -big;
    }
    want = brute(b, 64, NULL, 0, &nw);
    cr_assert_eq(ct_broadphase(b, 64, NULL, &p), CT_OK);
    expect_equal(&p, want, nw, "extreme");
    ct_pairs_free(&p);
    free(want);
}

/* A box whose extent rounds down (hi - lo == 1 in floating point although lo < 0) touching
   another box exactly: the search windows must be widened against rounding or the pair is
   lost. Tried with the pair along each axis and the rest of the scene spread along each axis
   (so the pair meets both the sweep window and the column search). */
Test(broadphase, extent_rounding_does_not_lose_touching_pairs) {
    int pa, sa, i;
    ct_real tiny = (ct_real)(TU_FLOAT ? 1e-9 : 1e-17);
    for (pa = 0; pa < 3; ++pa)
        for (sa = 0; sa < 3; ++sa) {
            ct_aabb b[64];
            ct_pairs p;
            size_t nw;
            ct_pair *want;
            for (i = 0; i < 64; ++i) {
                ct_real lo[3] = { 0, 0, 0 }, hi[3] = { (ct_real)0.5, (ct_real)0.5, (ct_real)0.5 };
                hi[pa] = 1;   /* every box as long as the rounded one: it is not an outlier */
                if (i == 1) lo[pa] = -tiny;
                else if (i == 0) { lo[pa] = 1; hi[pa] = 2; }
                else { lo[sa] = (ct_real)(3 * i - 200); hi[sa] = lo[sa] + (sa == pa ? 1 : (ct_real)0.5); }
                b[i].lo = tu_vec(lo[0], lo[1], lo[2]);
                b[i].hi = tu_vec(hi[0], hi[1], hi[2]);
            }
            cr_assert(b[1].hi.x - b[1].lo.x <= 1 && b[1].hi.y - b[1].lo.y <= 1 && b[1].hi.z - b[1].lo.z <= 1);
            want = brute(b, 64, NULL, 0, &nw);
            cr_assert(nw >= 1 && want[0].a == 0 && want[0].b == 1);
            cr_assert_eq(ct_broadphase(b, 64, NULL, &p), CT_OK);
            expect_equal(&p, want, nw, "rounded extent");
            ct_pairs_free(&p);
            free(want);
        }
}

/* Large scenes (past the sizes where validation, quantiles and the grid build go parallel):
   every reported pair overlaps, the list is strictly sorted, and for 100 sampled boxes the
   pairs that involve them are exactly those of a brute-force scan against all n. Identical
   for 1 and 3 threads. */
Test(broadphase, large_scene_against_sampled_brute_force) {
    int k;
    for (k = 0; k < 2; ++k) {
        unsigned long long seed = 61 + (unsigned long long)k;
        int n = 80000, i, j, t;
        ct_aabb *b = k == 0 ? scene_dem(n, 1.5, &seed) : scene_huge(n, &seed);
        ct_pairs p[2];
        for (t = 0; t < 2; ++t) {
            tu_set_threads(t == 0 ? 1 : 3);
            cr_assert_eq(ct_broadphase(b, n, NULL, &p[t]), CT_OK);
        }
        tu_set_threads(2);
        cr_assert_eq(p[0].count, p[1].count);
        cr_assert_eq(memcmp(p[0].items, p[1].items, p[0].count * sizeof(ct_pair)), 0);
        for (i = 0; i < (int)p[0].count; ++i) {
            const ct_pair *q = &p[0].items[i];
            cr_assert(q->a < q->b && overlap(&b[q->a], &b[q->b]));
            if (i) cr_assert(q[-1].a < q->a || (q[-1].a == q->a && q[-1].b < q->b));
        }
        for (i = 0; i < 100; ++i) {
            int s = (int)(tu_uniform(&seed) * n);
            size_t want = 0, got = 0, lo = 0, hi = p[0].count;
            for (j = 0; j < n; ++j) want += j != s && overlap(&b[s], &b[j]);
            /* pairs (s, x): a contiguous run; pairs (x, s): scan */
            while (lo < hi) {
                size_t m = lo + (hi - lo) / 2;
                if (p[0].items[m].a < s) lo = m + 1; else hi = m;
            }
            for (; lo < p[0].count && p[0].items[lo].a == s; ++lo) ++got;
            for (j = 0; j < (int)p[0].count; ++j) got += p[0].items[j].b == s;
            cr_assert_eq(got, want, "box %d: %zu pairs, brute force %zu", s, got, want);
        }
        ct_pairs_free(&p[0]);
        ct_pairs_free(&p[1]);
        free(b);
    }
}

/* ---- incremental broad phase (ct_bp) ---------------------------------------------------- */
/* x \ y for sorted pair lists, by a plain merge. */
static ct_pair *pairs_minus(const ct_pair *x, size_t nx, const ct_pair *y, size_t ny, size_t *count) {
    ct_pair *o = (ct_pair *)malloc((nx + 1) * sizeof *o);
    size_t i, j = 0, w = 0;
    for (i = 0; i < nx; ++i) {
        while (j < ny && (y[j].a < x[i].a || (y[j].a == x[i].a && y[j].b < x[i].b))) ++j;
        if (j < ny && y[j].a == x[i].a && y[j].b == x[i].b) continue;
        o[w++] = x[i];
    }
    *count = w;
    return o;
}

static void expect_pairs(const ct_pairs *got, const ct_pair *want, size_t nwant, const char *what, int step) {
    char buf[160];
    snprintf(buf, sizeof buf, "%s, step %d", what, step);
    expect_equal(got, want, nwant, buf);
}

/* One step of motion: every box (or, when list is set, a random subset written to moved)
   shifts by up to frac of its size (plus a little of the scene span, so points move too);
   some steps also teleport a few boxes and grow one. Returns the number of moved entries. */
static int move_boxes(ct_aabb *b, int n, double frac, double span, int step, int *moved, unsigned long long *seed) {
    int i, nm = 0;
    for (i = 0; i < n; ++i) {
        double e = b[i].hi.x - b[i].lo.x, d[3];
        int k;
        if (moved && tu_uniform(seed) < 0.7) continue;
        for (k = 0; k < 3; ++k) d[k] = (2 * tu_uniform(seed) - 1) * (frac * e + 1e-4 * span);
        b[i].lo = tu_vec(b[i].lo.x + d[0], b[i].lo.y + d[1], b[i].lo.z + d[2]);
        b[i].hi = tu_vec(b[i].hi.x + d[0], b[i].hi.y + d[1], b[i].hi.z + d[2]);
        if (moved) {
            moved[nm++] = i;
            if (tu_uniform(seed) < 0.1) moved[nm++] = i;   /* repeats are fine */
        }
    }
    if (step % 3 == 2)
        for (i = 0; i < 5; ++i) {
            int j = (int)(tu_uniform(seed) * n);
            ct_aabb o = b[(int)(tu_uniform(seed) * n)];
            double g = i == 0 ? 0.3 * span : 0;   /* one grows past every cell */
            b[j].lo = tu_vec(o.lo.x - g, o.lo.y, o.lo.z);
            b[j].hi = tu_vec(o.hi.x, o.hi.y + g, o.hi.z);
            if (moved) moved[nm++] = j;
        }
    return nm;
}

static double scene_span(const ct_aabb *b, int n) {
    double lo = 1e300, hi = -1e300;
    int i;
    for (i = 0; i < n; ++i) {
        lo = fmin(lo, b[i].lo.x);
        hi = fmax(hi, b[i].hi.x);
    }
    return hi - lo;
}

/* Runs steps of motion through a ct_bp and checks every step against the one-shot call
   (itself checked against brute force above) and the added/removed sets against the set
   differences of consecutive steps. */
static void run_motion(scene s, int steps, double frac, int threads, unsigned long long seed) {
    ct_bp bp;
    ct_pairs prev;
    int step, *moved = (int *)malloc(sizeof(int) * (size_t)(2 * s.n + 8));
    double span = scene_span(s.b, s.n);
    memset(&prev, 0, sizeof prev);
    tu_set_threads(threads);
    cr_assert_eq(ct_bp_init(&bp, 0, NULL), CT_OK);
    for (step = 0; step < steps; ++step) {
        ct_pairs want;
        ct_pair *add, *rem;
        size_t nadd, nrem;
        int nm = 0, list = step % 2 == 1;
        if (step > 0) nm = move_boxes(s.b, s.n, frac, span, step, list ? moved : NULL, &seed);
        cr_assert_eq(ct_bp_update(&bp, s.b, s.n, list ? moved : NULL, nm), CT_OK);
        cr_assert_eq(ct_broadphase(s.b, s.n, NULL, &want), CT_OK);
        expect_pairs(&bp.pairs, want.items, want.count, s.name, step);
        add = pairs_minus(want.items, want.count, prev.items, prev.count, &nadd);
        rem = pairs_minus(prev.items, prev.count, want.items, want.count, &nrem);
        expect_pairs(&bp.added, add, nadd, "added", step);
        expect_pairs(&bp.removed, rem, nrem, "removed", step);
        free(add);
        free(rem);
        ct_pairs_free(&prev);
        prev = want;
    }
    ct_pairs_free(&prev);
    ct_bp_free(&bp);
    ct_bp_free(&bp);   /* twice is fine */
    free(moved);
    tu_set_threads(2);
}

Test(broadphase, incremental_matches_one_shot_every_step) {
    static const int kinds[7] = { 0, 2, 3, 5, 6, 7, 12 };
    int k;
    for (k = 0; k < 7; ++k) {
        scene s = make_scene(kinds[k], 41);
        run_motion(s, 12, 0.01, 2, 5 + (unsigned long long)k);
        free(s.b);
    }
}

Test(broadphase, incremental_identical_for_thread_counts_1_to_7) {
    int t;
    for (t = 1; t <= 7; ++t) {
        scene s = make_scene(0, 43);
        run_motion(s, 8, 0.03, t, 9);
        free(s.b);
    }
}

/* Steps whose escaped boxes are many enough to be re-queried on the threads (more than 256,
   fewer than an eighth of the boxes): 6000 boxes, uniform, and uniform with the first 600 in
   one dense clump (each with ~20x the mean partner count, so the shares of the escapes that
   hold them outgrow their regions and are finished after the others), small motion, every
   step against the one-shot call, for 1, 2, 3 and 7 threads. */
Test(broadphase, incremental_parallel_requery) {
    static const int threads[4] = { 1, 2, 3, 7 };
    int kind, t, i;
    for (kind = 0; kind < 2; ++kind)
        for (t = 0; t < 4; ++t) {
            unsigned long long st = 77;
            scene s;
            s.n = 6000;
            s.name = kind ? "clump of 600 in 6000" : "uniform 6000";
            s.b = scene_dem(s.n, 1.5, &st);
            if (kind) {
                ct_aabb c = s.b[0];
                double h = 0.5 * (c.hi.x - c.lo.x);
                for (i = 0; i < 600; ++i) {   /* centres within 3 box sizes of the first box's */
                    double x = c.lo.x + h * 6 * tu_uniform(&st), y = c.lo.y + h * 6 * tu_uniform(&st), z = c.lo.z + h * 6 * tu_uniform(&st);
                    s.b[i] = box(x - h, y - h, z - h, x + h, y + h, z + h);
                }
            }
            run_motion(s, 8, 0.04, threads[t], 13);
            free(s.b);
        }
}

/* The step's pairs also against brute force directly, with large motion (many escapes:
   rebuilds) and with a box count that changes between updates. */
Test(broadphase, incremental_large_motion_and_changing_count) {
    scene s = make_scene(2, 47);
    ct_bp bp;
    unsigned long long seed = 3;
    int step;
    cr_assert_eq(ct_bp_init(&bp, (ct_real)0.2, NULL), CT_OK);
    for (step = 0; step < 6; ++step) {
        int n = step == 3 ? s.n / 2 : s.n;
        size_t nw;
        ct_pair *want;
        move_boxes(s.b, s.n, step % 2 ? 0.8 : 0.002, scene_span(s.b, s.n), step, NULL, &seed);
        want = brute(s.b, n, NULL, 0, &nw);
        cr_assert_eq(ct_bp_update(&bp, s.b, n, NULL, 0), CT_OK);
        expect_pairs(&bp.pairs, want, nw, "large motion", step);
        free(want);
    }
    ct_bp_free(&bp);
    free(s.b);
}

/* Boxes within a few double ulps of touching, far from the origin: the step's float copy of the
   boxes (double builds) cannot decide them, so every such candidate must reach the exact test.
   A lattice of unit cells at 1e3 (a float ulp there is 6e-5), each box one cell wide give or
   take 0, 1e-12 or 1e-9, moved by such amounts each step; every step against brute force, and
   added/removed against the differences. */
Test(broadphase, incremental_near_touching_far_from_origin) {
    const int side = 9, n = side * side * side;
    static const double d[5] = { -1e-9, -1e-12, 0, 1e-12, 1e-9 };
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    ct_pair *prev = NULL;
    size_t nprev = 0;
    unsigned long long seed = 71;
    ct_bp bp;
    int step, i, pairs_changed = 0;
    cr_assert_not_null(b);
    cr_assert_eq(ct_bp_init(&bp, 0, NULL), CT_OK);
    for (step = 0; step < 6; ++step) {
        size_t nw, na, nr;
        ct_pair *want, *add, *rem;
        for (i = 0; i < n; ++i) {
            double x = 1000 + i % side, y = 1000 + (i / side) % side, z = 1000 + i / (side * side);
            double w = 1 + d[(int)(tu_uniform(&seed) * 5)], s = d[(int)(tu_uniform(&seed) * 5)];
            b[i].lo = tu_vec(x + s, y, z);
            b[i].hi = tu_vec(x + s + w, y + w, z + w);
        }
        want = brute(b, n, NULL, 0, &nw);
        cr_assert_eq(ct_bp_update(&bp, b, n, NULL, 0), CT_OK);
        expect_pairs(&bp.pairs, want, nw, "near touching", step);
        add = pairs_minus(want, nw, prev, nprev, &na);
        rem = pairs_minus(prev, nprev, want, nw, &nr);
        expect_pairs(&bp.added, add, na, "near touching, added", step);
        expect_pairs(&bp.removed, rem, nr, "near touching, removed", step);
        pairs_changed += na + nr > 0 && step > 0;
        free(add);
        free(rem);
        free(prev);
        prev = want;
        nprev = nw;
    }
    /* double: gaps of 1e-12 decide, so the pairs change from step to step; float rounds them away */
    if (!TU_FLOAT) cr_assert(pairs_changed >= 4, "pairs changed on %d steps", pairs_changed);
    free(prev);
    free(b);
    ct_bp_free(&bp);
}

/* The step's float copy is used only for scenes within 2^-100..2^100 (ct__bp_fmargin): every
   step against brute force from 1e-300 to 1e200 (float builds: 1e-35 to 1e35), at the origin
   and offset by 1e8 boxes, with boxes 1e-12 wider than others (near-touching) and a tenth
   moved far enough to escape each step. */
Test(broadphase, incremental_any_scale) {
    static const double scales[8] = { 1e-300, 1e-40, 1e-35, 1e-20, 1, 1e20, 1e35, 1e200 };
    const int n = 300;
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    unsigned long long seed = 73;
    int si, oi, step, i, runs = 0;
    cr_assert_not_null(b);
    for (si = 0; si < 8; ++si)
        for (oi = 0; oi < 2; ++oi) {
            double sc = scales[si], off = oi ? 1e8 * sc : 0;
            ct_bp bp;
            if (TU_FLOAT && (sc < 1e-35 || sc > 1e35 || off > 1e35)) continue;
            cr_assert_eq(ct_bp_init(&bp, 0, NULL), CT_OK);
            for (i = 0; i < n; ++i) {
                double x = off + 20 * sc * tu_uniform(&seed), y = 20 * sc * tu_uniform(&seed), z = 20 * sc * tu_uniform(&seed);
                double w = sc * (tu_uniform(&seed) < 0.2 ? 1 + 1e-12 : 1);
                b[i].lo = tu_vec(x, y, z);
                b[i].hi = tu_vec(x + w, y + w, z + w);
            }
            for (step = 0; step < 4; ++step) {
                size_t nw;
                ct_pair *want;
                if (step > 0)
                    for (i = 0; i < n; ++i) {
                        double d = sc * (tu_uniform(&seed) < 0.1 ? 0.3 : 0.003) * (tu_uniform(&seed) - 0.5);
                        b[i].lo.x = (ct_real)((double)b[i].lo.x + d);
                        b[i].hi.x = (ct_real)((double)b[i].hi.x + d);
                    }
                want = brute(b, n, NULL, 0, &nw);
                cr_assert_eq(ct_bp_update(&bp, b, n, NULL, 0), CT_OK, "scale %g offset %g step %d", sc, off, step);
                expect_pairs(&bp.pairs, want, nw, "any scale", step);
                free(want);
                ++runs;
            }
            ct_bp_free(&bp);
        }
    cr_assert_eq(runs, TU_FLOAT ? 36 : 64);
    free(b);
}

Test(broadphase, incremental_invalid_input) {
    scene s = make_scene(0, 53);
    ct_bp bp, zero;
    ct_pairs keep;
    int bad_moved[2] = { 3, 0 };
    cr_assert_eq(ct_bp_init(NULL, 0, NULL), CT_INVALID);
    cr_assert_eq(ct_bp_init(&bp, -1, NULL), CT_INVALID);
    cr_assert_eq(ct_bp_init(&bp, (ct_real)NAN, NULL), CT_INVALID);
    cr_assert_eq(ct_bp_init(&bp, (ct_real)INFINITY, NULL), CT_INVALID);
    memset(&zero, 0, sizeof zero);
    ct_bp_free(&zero);   /* a zeroed ct_bp is fine */
    cr_assert_eq(ct_bp_update(&zero, s.b, s.n, NULL, 0), CT_INVALID);   /* never initialised */
    cr_assert_eq(ct_bp_init(&bp, 0, NULL), CT_OK);
    cr_assert_eq(ct_bp_update(NULL, s.b, s.n, NULL, 0), CT_INVALID);
    cr_assert_eq(ct_bp_update(&bp, NULL, s.n, NULL, 0), CT_INVALID);
    cr_assert_eq(ct_bp_update(&bp, s.b, -1, NULL, 0), CT_INVALID);
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, NULL, 0), CT_OK);
    keep = bp.pairs;
    cr_assert(keep.count > 0);
    bad_moved[1] = s.n;
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, bad_moved, 2), CT_INVALID);
    bad_moved[1] = -1;
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, bad_moved, 2), CT_INVALID);
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, NULL, 1), CT_OK);   /* moved NULL: all may move */
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, bad_moved, -1), CT_INVALID);
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, bad_moved, 0), CT_OK);   /* an empty list: nothing moved */
    s.b[7].lo.y = (ct_real)NAN;
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, NULL, 0), CT_INVALID);
    s.b[7].lo.y = s.b[7].hi.y + 1;   /* lo > hi */
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, NULL, 0), CT_INVALID);
    cr_assert_eq(bp.pairs.count, keep.count, "an invalid update changes nothing");
    cr_assert_eq(bp.added.count, 0);
    ct_bp_free(&bp);
    free(s.b);
}

/* Allocation failure at every site of a sequence of updates (first, incremental, with a
   moved list, with rebuilds): CT_NO_MEMORY, nothing leaks after ct_bp_free, the previous
   results stay, and the following update is right again. */
Test(broadphase, incremental_allocation_failure) {
    long fail;
    for (fail = 1;; ++fail) {
        scene s;   /* polydisperse, 600 boxes: every site is reached, each sweep step stays cheap */
        unsigned long long st0 = 59;
        tu_alloc t;
        ct_bp bp;
        unsigned long long seed = 17;
        int step, moved[8] = { 1, 2, 3, 100, 200, 300, 400, 5 };
        double span;
        s.name = "polydisperse"; s.n = 600; s.b = scene_polydisperse(s.n, &st0);
        span = scene_span(s.b, s.n);
        tu_alloc_init(&t, fail);
        cr_assert_eq(ct_bp_init(&bp, 0, &t.a), CT_OK);
        for (step = 0; step < 5; ++step) {
            ct_pairs want;
            size_t before = bp.pairs.count;
            ct_status st;
            if (step == 2) {
                int i;
                for (i = 0; i < 8; ++i) {
                    s.b[moved[i]].lo.x += (ct_real)(0.01 * span);
                    s.b[moved[i]].hi.x += (ct_real)(0.01 * span);
                }
            } else if (step > 0) {
                move_boxes(s.b, s.n, step == 4 ? 0.5 : 0.01, span, step, NULL, &seed);
            }
            /* a ct_bp keeps its scratch from step to step, so a step no larger than the ones
               before allocates no temporaries: released here, every step's temporaries are
               allocation sites again (as when a step outgrows the ones before) */
            if (step > 0) ct_scratch_release(&bp.ct__scr);
            st = ct_bp_update(&bp, s.b, s.n, step == 2 ? moved : NULL, step == 2 ? 8 : 0);
            if (st == CT_NO_MEMORY) {
                cr_assert_eq(bp.pairs.count, before, "failure keeps the previous pairs");
                st = ct_bp_update(&bp, s.b, s.n, NULL, 0);   /* allocations succeed again once failed */
            }
            cr_assert_eq(st, CT_OK);
            cr_assert_eq(ct_broadphase(s.b, s.n, NULL, &want), CT_OK);
            expect_pairs(&bp.pairs, want.items, want.count, "after failures", step);
            ct_pairs_free(&want);
        }
        ct_bp_free(&bp);
        cr_assert_eq(t.outstanding, 0, "leak with failing allocation %ld", fail);
        free(s.b);
        /* done when the run made fewer allocations than fail (a failure may also go unseen:
           the kept scratch's block of peak size is optional, the next step grows again) */
        if (t.calls < fail) break;
        cr_assert(fail < 20000);
    }
    cr_assert(fail > 30, "the sweep reached only %ld allocation sites", fail - 1);
}
/* A step keeps what it used: after a step, an update over the same boxes allocates nothing
   (the candidates, was bits and pairs go into the arrays the step before replaced, the
   temporaries into the kept scratch; added and removed are empty), and one in which a few
   boxes moved within their fat boxes allocates at most its added and removed arrays. */
Test(broadphase, incremental_steps_reuse_memory) {
    unsigned long long st0 = 59;
    int n = 600, i;
    ct_aabb *b = scene_polydisperse(n, &st0);
    tu_alloc t;
    ct_bp bp;
    long before;
    tu_alloc_init(&t, 0);
    cr_assert_eq(ct_bp_init(&bp, 0, &t.a), CT_OK);
    cr_assert_eq(ct_bp_update(&bp, b, n, NULL, 0), CT_OK);
    cr_assert_eq(ct_bp_update(&bp, b, n, NULL, 0), CT_OK);
    before = t.calls;
    cr_assert_eq(ct_bp_update(&bp, b, n, NULL, 0), CT_OK);
    cr_assert_eq(t.calls, before, "an unchanged step allocated %ld blocks", t.calls - before);
    cr_assert_eq(bp.added.count + bp.removed.count, 0);
    for (i = 0; i < n; i += 7) {   /* a hundredth of each box's own x extent: inside its fat box */
        ct_real d = (b[i].hi.x - b[i].lo.x) / 100;
        b[i].lo.x += d;
        b[i].hi.x += d;
    }
    before = t.calls;
    cr_assert_eq(ct_bp_update(&bp, b, n, NULL, 0), CT_OK);
    cr_assert_leq(t.calls - before, 2, "a step inside the fat boxes allocated %ld blocks", t.calls - before);
    ct_bp_free(&bp);
    cr_assert_eq(t.outstanding, 0);
    free(b);
}
/* ---- queries ---------------------------------------------------------------------------- */
/* Entry distance of the ray into b within [0, tmax] by slabs, -1 for a miss (the documented
   test, written independently). */
static double ray_entry(const ct_aabb *b, ct_vec3 o, ct_vec3 d, ct_real tmax) {
    ct_real lo[3] = { b->lo.x, b->lo.y, b->lo.z }, hi[3] = { b->hi.x, b->hi.y, b->hi.z };
    ct_real oo[3] = { o.x, o.y, o.z }, dd[3] = { d.x, d.y, d.z }, t0 = 0, t1 = tmax;
    int k;
    for (k = 0; k < 3; ++k) {
        ct_real a, c;
        if (dd[k] == 0) {
            if (oo[k] < lo[k] || oo[k] > hi[k]) return -1;
            continue;
        }
        a = (lo[k] - oo[k]) / dd[k];
        c = (hi[k] - oo[k]) / dd[k];
        if (a > c) { ct_real t = a; a = c; c = t; }
        if (a > t0) t0 = a;
        if (c < t1) t1 = c;
        if (t0 > t1) return -1;
    }
    return t0;
}
static int hit_cmp(const void *x, const void *y) {
    const ct_hit *a = (const ct_hit *)x, *b = (const ct_hit *)y;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}
static void expect_hits(const ct_hits *got, const ct_hit *want, size_t n, const char *what, int q) {
    size_t i;
    cr_assert_eq(got->count, n, "%s, query %d: %zu hits, brute force %zu", what, q, got->count, n);
    for (i = 0; i < n; ++i)
        cr_assert(got->items[i].id == want[i].id && got->items[i].t == want[i].t, "%s, query %d: hit %zu is (%d, %g), brute force (%d, %g)",
                  what, q, i, got->items[i].id, (double)got->items[i].t, want[i].id, (double)want[i].t);
}

/* Box and ray queries after a few steps of motion (so the grid has moved boxes), against
   brute force over all boxes: random boxes (points, large ones, outside the scene), rays
   from inside and outside, axis-parallel ones, finite and infinite lengths. */
Test(broadphase, queries_match_brute_force) {
    static const int kinds[6] = { 0, 2, 5, 7, 10, 12 };
    int k;
    for (k = 0; k < 6; ++k) {
        scene s = make_scene(kinds[k], 61);
        ct_bp bp;
        ct_aabb lo = s.b[0];
        unsigned long long seed = 23 + (unsigned long long)k;
        int step, q, i;
        double span;
        for (i = 0; i < s.n; ++i) {
            lo.lo = tu_vec(fmin(lo.lo.x, s.b[i].lo.x), fmin(lo.lo.y, s.b[i].lo.y), fmin(lo.lo.z, s.b[i].lo.z));
            lo.hi = tu_vec(fmax(lo.hi.x, s.b[i].hi.x), fmax(lo.hi.y, s.b[i].hi.y), fmax(lo.hi.z, s.b[i].hi.z));
        }
        span = scene_span(s.b, s.n);
        cr_assert_eq(ct_bp_init(&bp, 0, NULL), CT_OK);
        for (step = 0; step < 3; ++step) {
            if (step) move_boxes(s.b, s.n, 0.1, span, step + 1, NULL, &seed);
            cr_assert_eq(ct_bp_update(&bp, s.b, s.n, NULL, 0), CT_OK);
        }
        ct_hit *want = (ct_hit *)malloc(sizeof *want * (size_t)s.n);
        for (q = 0; q < 60; ++q) {
            ct_hits got;
            size_t nw = 0;
            double u[3], h = q % 4 == 0 ? 0 : span * 0.3 * pow(tu_uniform(&seed), 3);
            int j;
            for (j = 0; j < 3; ++j) u[j] = tu_uniform(&seed) * 1.4 - 0.2;
            ct_vec3 p = tu_vec(lo.lo.x + u[0] * (lo.hi.x - lo.lo.x), lo.lo.y + u[1] * (lo.hi.y - lo.lo.y), lo.lo.z + u[2] * (lo.hi.z - lo.lo.z));
            ct_aabb qb;
            qb.lo = p;
            qb.hi = tu_vec(p.x + h, p.y + h * tu_uniform(&seed), p.z + h);
            if (q == 1) qb = s.b[5];   /* a member: touches itself */
            for (i = 0; i < s.n; ++i)
                if (overlap(&s.b[i], &qb)) { want[nw].id = i; want[nw++].t = 0; }
            cr_assert_eq(ct_bp_query_box(&bp, s.b, qb, NULL, &got), CT_OK);
            expect_hits(&got, want, nw, s.name, q);
            ct_hits_free(&got);
            {   /* a ray from p */
                ct_vec3 d = tu_vec(2 * tu_uniform(&seed) - 1, 2 * tu_uniform(&seed) - 1, 2 * tu_uniform(&seed) - 1);
                ct_real tmax = q % 3 == 0 ? (ct_real)INFINITY : (ct_real)(span * tu_uniform(&seed));
                if (q % 5 == 1) d = tu_vec(0, q % 2 ? -1 : 1, 0);        /* axis-parallel */
                if (q % 7 == 2) d = tu_vec(1e-3, 0, 2);
                if (q % 11 == 3) p = tu_vec(s.b[9].lo.x, s.b[9].lo.y, s.b[9].lo.z);   /* on a corner */
                for (nw = 0, i = 0; i < s.n; ++i) {
                    double t = ray_entry(&s.b[i], p, d, tmax);
                    if (t >= 0) { want[nw].id = i; want[nw++].t = (ct_real)t; }
                }
                qsort(want, nw, sizeof *want, hit_cmp);
                cr_assert_eq(ct_bp_query_ray(&bp, s.b, p, d, tmax, NULL, &got), CT_OK);
                expect_hits(&got, want, nw, s.name, q);
                ct_hits_free(&got);
            }
        }
        free(want);
        ct_bp_free(&bp);
        free(s.b);
    }
}

Test(broadphase, queries_invalid_input_and_allocation_failure) {
    scene s = make_scene(0, 67);
    ct_bp bp, zero;
    ct_hits h;
    ct_aabb q = s.b[3], bad = s.b[3];
    ct_vec3 o = tu_vec(0.5, 0.5, 0.5), d = tu_vec(1, 0.3, 0.2);
    long fail;
    size_t nbox, nray;
    memset(&zero, 0, sizeof zero);
    cr_assert_eq(ct_bp_query_box(&zero, s.b, q, NULL, &h), CT_INVALID);   /* no update yet */
    cr_assert(h.items == NULL && h.count == 0);
    cr_assert_eq(ct_bp_init(&bp, 0, NULL), CT_OK);
    cr_assert_eq(ct_bp_query_ray(&bp, s.b, o, d, 1, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_update(&bp, s.b, s.n, NULL, 0), CT_OK);
    cr_assert_eq(ct_bp_query_box(NULL, s.b, q, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_query_box(&bp, NULL, q, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_query_box(&bp, s.b, q, NULL, NULL), CT_INVALID);
    bad.lo.x = (ct_real)NAN;
    cr_assert_eq(ct_bp_query_box(&bp, s.b, bad, NULL, &h), CT_INVALID);
    bad = q;
    bad.lo.z = bad.hi.z + 1;
    cr_assert_eq(ct_bp_query_box(&bp, s.b, bad, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_query_ray(&bp, s.b, o, tu_vec(0, 0, 0), 1, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_query_ray(&bp, s.b, o, d, -1, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_query_ray(&bp, s.b, o, d, (ct_real)NAN, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_query_ray(&bp, s.b, tu_vec(NAN, 0, 0), d, 1, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_query_ray(&bp, s.b, o, tu_vec(0, INFINITY, 0), 1, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_bp_query_ray(&bp, s.b, o, d, 1, NULL, NULL), CT_INVALID);
    cr_assert(h.items == NULL && h.count == 0);
    cr_assert_eq(ct_bp_query_box(&bp, s.b, q, NULL, &h), CT_OK);
    nbox = h.count;
    cr_assert(nbox > 1);
    ct_hits_free(&h);
    ct_hits_free(&h);
    ct_hits_free(NULL);
    cr_assert_eq(ct_bp_query_ray(&bp, s.b, o, d, (ct_real)INFINITY, NULL, &h), CT_OK);
    nray = h.count;
    cr_assert(nray > 1);
    ct_hits_free(&h);
    for (fail = 1;; ++fail) {
        tu_alloc t;
        ct_status st;
        tu_alloc_init(&t, fail);
        st = ct_bp_query_box(&bp, s.b, q, &t.a, &h);
        if (st == CT_OK) { cr_assert_eq(h.count, nbox); ct_hits_free(&h); }
        cr_assert_eq(t.outstanding, 0);
        tu_alloc_init(&t, fail);
        st |= ct_bp_query_ray(&bp, s.b, o, d, (ct_real)INFINITY, &t.a, &h);
        if (h.count) { cr_assert_eq(h.count, nray); ct_hits_free(&h); }
        cr_assert_eq(t.outstanding, 0);
        if (st == CT_OK) break;
        cr_assert(h.items == NULL && h.count == 0);
        cr_assert(fail < 1000);
    }
    ct_bp_free(&bp);
    free(s.b);
}

/* ---- periodic boundaries ------------------------------------------------------------------ */
static int ppair_cmp(const void *x, const void *y) {
    const ct_ppair *a = (const ct_ppair *)x, *b = (const ct_ppair *)y;
    int k;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    for (k = 0; k < 3; ++k)
        if (a->shift[k] != b->shift[k]) return a->shift[k] < b->shift[k] ? -1 : 1;
    return 0;
}
/* Brute force over the 27 images (shift 0 on the axes that are not periodic). */
static ct_ppair *brute_periodic(const ct_aabb *b, int n, ct_aabb cell, const int per[3], size_t *count) {
    size_t cap = 1024, w = 0;
    ct_ppair *o = (ct_ppair *)malloc(cap * sizeof *o);
    int i, j, c;
    ct_real L[3] = { cell.hi.x - cell.lo.x, cell.hi.y - cell.lo.y, cell.hi.z - cell.lo.z };
    for (i = 0; i < n; ++i)
        for (j = i + 1; j < n; ++j)
            for (c = 0; c < 27; ++c) {
                int d[3] = { c / 9 - 1, (c / 3) % 3 - 1, c % 3 - 1 }, k;
                ct_aabb im = b[j];
                for (k = 0; k < 3; ++k)
                    if (d[k] && !per[k]) break;
                if (k < 3) continue;
                im.lo = tu_vec(im.lo.x + d[0] * L[0], im.lo.y + d[1] * L[1], im.lo.z + d[2] * L[2]);
                im.hi = tu_vec(im.hi.x + d[0] * L[0], im.hi.y + d[1] * L[1], im.hi.z + d[2] * L[2]);
                if (!overlap(&b[i], &im)) continue;
                if (w == cap) { cap *= 2; o = (ct_ppair *)realloc(o, cap * sizeof *o); }
                o[w].a = i; o[w].b = j;
                for (k = 0; k < 3; ++k) o[w].shift[k] = d[k];
                ++w;
            }
    qsort(o, w, sizeof *o, ppair_cmp);
    *count = w;
    return o;
}

/* Boxes with lower corners in the cell [0, Lx) x [0, Ly) x [0, Lz): uniform, clustered at a
   corner (so pairs wrap on three axes), hugging the faces, and a few larger than half the
   cell (meeting others through two images). */
static ct_aabb *scene_periodic(int kind, int n, ct_aabb cell, unsigned long long *seed) {
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    double L[3] = { cell.hi.x - cell.lo.x, cell.hi.y - cell.lo.y, cell.hi.z - cell.lo.z };
    int i, k;
    for (i = 0; i < n; ++i) {
        double lo[3], e = 0.08 * L[0] * (0.3 + tu_uniform(seed));
        for (k = 0; k < 3; ++k) {
            double u = tu_uniform(seed);
            if (kind == 1) u = fmod(1 + 0.1 * (u - 0.5) + 1, 1.0);          /* around the corner */
            if (kind == 2) u = tu_uniform(seed) < 0.5 ? u * 0.02 : 1 - e / L[k] * (0.5 + u);   /* faces */
            lo[k] = u * L[k];
            if (lo[k] >= L[k]) lo[k] = 0;
        }
        if (kind == 3 && i % 25 == 0) e = L[0] * (0.5 + 0.5 * tu_uniform(seed));   /* > half the cell */
        b[i].lo = tu_vec(cell.lo.x + lo[0], cell.lo.y + lo[1], cell.lo.z + lo[2]);
        b[i].hi = tu_vec(b[i].lo.x + fmin(e, 0.99 * L[0]), b[i].lo.y + fmin(e * 0.7, 0.99 * L[1]), b[i].lo.z + fmin(e * 1.2, 0.99 * L[2]));
        if (kind == 2 && i % 7 == 0) b[i].hi = b[i].lo;   /* points on the faces */
    }
    return b;
}

Test(broadphase, periodic_matches_27_image_brute_force) {
    static const int pers[5][3] = { { 1, 1, 1 }, { 1, 0, 0 }, { 0, 1, 1 }, { 0, 0, 0 }, { 0, 0, 1 } };
    static const char *names[4] = { "uniform", "corner cluster", "boundary hugging", "larger than half the cell" };
    int kind, p, t;
    ct_aabb cell;
    cell.lo = tu_vec(-1, 2, 0.5);
    cell.hi = tu_vec(1, 3.5, 2.5);
    for (kind = 0; kind < 4; ++kind)
        for (p = 0; p < 5; ++p) {
            unsigned long long seed = 71 + (unsigned long long)(kind * 5 + p);
            int n = 700;
            ct_aabb *b = scene_periodic(kind, n, cell, &seed);
            size_t nw, i;
            ct_ppair *want = brute_periodic(b, n, cell, pers[p], &nw);
            for (t = 1; t <= 3; t += 2) {
                ct_ppairs got;
                tu_set_threads(t);
                cr_assert_eq(ct_broadphase_periodic(b, n, cell, pers[p], NULL, &got), CT_OK);
                cr_assert_eq(got.count, nw, "%s, axes %d%d%d: %zu pairs, brute force %zu", names[kind], pers[p][0], pers[p][1],
                             pers[p][2], got.count, nw);
                for (i = 0; i < nw; ++i)
                    cr_assert(ppair_cmp(&got.items[i], &want[i]) == 0, "%s: pair %zu differs", names[kind], i);
                ct_ppairs_free(&got);
            }
            if (kind == 3 && p == 0) {   /* some pair meets through two images */
                for (i = 1; i < nw && !(want[i].a == want[i - 1].a && want[i].b == want[i - 1].b); ++i) {}
                cr_assert(i < nw, "the scene has a pair meeting through two images");
            }
            free(want);
            free(b);
        }
    tu_set_threads(2);
}

Test(broadphase, periodic_invalid_input_and_allocation_failure) {
    ct_aabb cell, *b;
    int per[3] = { 1, 1, 0 }, i;
    unsigned long long seed = 5;
    ct_ppairs p;
    size_t nw;
    ct_ppair *want;
    long fail;
    cell.lo = tu_vec(0, 0, 0);
    cell.hi = tu_vec(1, 1, 1);
    b = scene_periodic(1, 300, cell, &seed);
    cr_assert_eq(ct_broadphase_periodic(b, 300, cell, per, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_broadphase_periodic(b, 300, cell, NULL, NULL, &p), CT_INVALID);
    cr_assert_eq(ct_broadphase_periodic(b, -1, cell, per, NULL, &p), CT_INVALID);
    cr_assert_eq(ct_broadphase_periodic(NULL, 3, cell, per, NULL, &p), CT_INVALID);
    cell.hi.x = 0;
    cr_assert_eq(ct_broadphase_periodic(b, 300, cell, per, NULL, &p), CT_INVALID);   /* empty periodic axis */
    cell.hi.x = (ct_real)NAN;
    cr_assert_eq(ct_broadphase_periodic(b, 300, cell, per, NULL, &p), CT_INVALID);
    cell.hi.x = 1;
    b[3].lo.x = (ct_real)1.0;   /* lower corner outside [0, 1) */
    b[3].hi.x = (ct_real)1.1;
    cr_assert_eq(ct_broadphase_periodic(b, 300, cell, per, NULL, &p), CT_INVALID);
    b[3].lo.x = 0;
    b[3].hi.x = (ct_real)1.5;   /* longer than the period */
    cr_assert_eq(ct_broadphase_periodic(b, 300, cell, per, NULL, &p), CT_INVALID);
    b[3].hi.x = (ct_real)0.1;
    b[4].lo.z = (ct_real)INFINITY;
    cr_assert_eq(ct_broadphase_periodic(b, 300, cell, per, NULL, &p), CT_INVALID);
    cr_assert(p.items == NULL && p.count == 0);
    b[4].lo.z = b[4].hi.z - (ct_real)0.01;
    b[5].lo.z = 7;   /* z is not periodic: anywhere is fine */
    b[5].hi.z = 8;
    want = brute_periodic(b, 300, cell, per, &nw);
    for (fail = 1;; ++fail) {
        tu_alloc t;
        ct_status st;
        tu_alloc_init(&t, fail);
        st = ct_broadphase_periodic(b, 300, cell, per, &t.a, &p);
        if (st == CT_NO_MEMORY) {
            cr_assert_eq(t.outstanding, 0);
            cr_assert(p.items == NULL && p.count == 0);
            cr_assert(fail < 10000);
            continue;
        }
        cr_assert_eq(st, CT_OK);
        cr_assert_eq(p.count, nw);
        for (i = 0; i < (int)nw; ++i) cr_assert(ppair_cmp(&p.items[i], &want[i]) == 0);
        ct_ppairs_free(&p);
        cr_assert_eq(t.outstanding, 0);
        break;
    }
    ct_ppairs_free(&p);
    free(want);
    free(b);
}
