/* Hardening (issue #9): one table-driven place that drives EVERY public entry point of
   contact.h through allocation failure, scale and translation, bad input and touching contacts.
   The concurrency half lives in tests/tsan/tsan_all.c (ThreadSanitizer, 8 pthreads); the
   broad phase thread-count check is here (OpenMP).

   This file embeds a static copy of the implementation with CT_MALLOC/CT_FREE routed to the
   test's failing/counting allocator, so that the paths without an allocator argument (NULL
   scratch of ct_contact_hulls and ct_signed_distance, ct_broadphase_foreach, ct_broadphase
   with a NULL allocator) are swept too. CT_MALLOC takes no user pointer, so the route is one
   file-level pointer: test-only state (Criterion runs every test in its own process, and the
   library allocates on the calling thread only).

   SCALE AND TRANSLATION SWEEP (hardening/scale_translation_sweep)
   Each unit-size scene (every body has extent ~1) is scaled by s in {1e-6, 1e-3, 1, 1e3, 1e6}
   and translated by T = tau * s * (1, -0.7, 0.4) with tau in {0, 1e3, 1e6} (double) or
   {0, 10, 100} (float): the translation is RELATIVE to the scale, because float cannot
   represent a unit feature at 1e6 (its ulp there is 0.06) and neither precision can represent
   a 1e-6 feature at an absolute 1e6. Outputs are mapped back (lengths / s, points (p - T) / s,
   areas / s^2, volumes / s^3) and compared with the unscaled, untranslated answer. With
   u = eps(ct_real) * (1 + tau) (the rounding the translated coordinates carry), the bounds are:

     routine                 quantity                        double        float
     ct_hull_build           counts, vertex set (exact)      equal         equal
                             volume (relative)               1e3 u         1e3 u
     ct_signed_distance      distance, witnesses (abs)       1e4 u         4e3 u
                             normal (1 - cos)                1e4 u         4e3 u
     ct_contact_hulls        gap, point, centroid (abs)      1e5 u         1e4 u
                             area, volume (relative)         1e5 u         1e4 u
                             normal (1 - cos)                1e5 u         1e4 u
     ct_intersect            volume (relative)               1e5 u         1e4 u
     ct_manifold_hulls/      count, ids (exact)              equal         equal
       _hull_sphere          separation, points (abs)        1e3 u         1e3 u
                             normal (1 - cos)                1e3 u         1e3 u
     ct_ellipsoids           F, lambda (relative/abs)        1e3 u         1e3 u
                             normal (1 - cos), gap, point    1e3 u         1e3 u

   The GJK/EPA and polar bounds are those of their part's own tests (the GJK termination and
   the polar LP are relative tolerances of a few thousand ulps); the measured worst ratio is
   printed by the test. */
#include <stdlib.h>
#include <string.h>
static void *hd_malloc(size_t n);
static void hd_free(void *p);
#define CT_MALLOC(n) hd_malloc(n)
#define CT_FREE(p) hd_free(p)
#define CONTACT_STATIC
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "testutil.h"
static tu_alloc *hd_route; /* where CT_MALLOC goes (NULL: plain malloc) */
static void *hd_malloc(size_t n) { return hd_route ? hd_route->a.alloc(n, hd_route->a.user) : malloc(n); }
static void hd_free(void *p) {
    if (hd_route) hd_route->a.free(p, hd_route->a.user);
    else free(p);
}
#include "workload.h"
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- shared fixtures ------------------------------------------------------------------- */
static void cloud(ct_vec3 *p, int n, double r, double sx, double sy, double sz, unsigned long long seed) {
    double xyz[3 * 600];
    int i;
    cr_assert(n <= 600);
    wl_sphere(xyz, n, r, &seed);
    for (i = 0; i < n; ++i) p[i] = tu_vec(xyz[3 * i] * sx, xyz[3 * i + 1] * sy, xyz[3 * i + 2] * sz);
}

static ct_xform xf(double ax, double ay, double az, double angle, double px, double py, double pz) {
    return ct_xform_from_axis_angle(tu_vec(ax, ay, az), (ct_real)angle, tu_vec(px, py, pz));
}

static ct_aabb box6(double x0, double y0, double z0, double x1, double y1, double z1) {
    ct_aabb b;
    b.lo = tu_vec(x0, y0, z0);
    b.hi = tu_vec(x1, y1, z1);
    return b;
}

/* DEM-like boxes in the unit cube plus a few huge ones (the mixed-size path). */
static ct_aabb *dem_boxes(int n, double factor, unsigned long long seed) {
    double *lo = (double *)malloc(sizeof(double) * 3 * (size_t)n), *hi = (double *)malloc(sizeof(double) * 3 * (size_t)n);
    ct_aabb *b = (ct_aabb *)malloc(sizeof(ct_aabb) * (size_t)n);
    int i;
    wl_dem_boxes(lo, hi, n, factor, &seed);
    for (i = 0; i < n; ++i) b[i] = box6(lo[3 * i], lo[3 * i + 1], lo[3 * i + 2], hi[3 * i], hi[3 * i + 1], hi[3 * i + 2]);
    for (i = 0; i < n; i += n / 4 + 1) b[i].hi = ct__add(b[i].lo, tu_vec(0.6, 0.5, 0.7));
    free(lo);
    free(hi);
    return b;
}

/* A byte digest of a result, compared with memcmp (bit-identical answers). */
typedef struct digest {
    unsigned char *b;
    size_t n, cap;
} digest;
static void dg_put(digest *d, const void *p, size_t n) {
    if (d->n + n > d->cap) {
        d->cap = 2 * (d->n + n) + 256;
        d->b = (unsigned char *)realloc(d->b, d->cap);
    }
    memcpy(d->b + d->n, p, n);
    d->n += n;
}
static void dg_int(digest *d, long long v) { dg_put(d, &v, sizeof v); }
static void dg_real(digest *d, ct_real v) { dg_put(d, &v, sizeof v); }
static void dg_vec(digest *d, ct_vec3 v) { dg_real(d, v.x); dg_real(d, v.y); dg_real(d, v.z); }
static void dg_hull(digest *d, const ct_hull *h) {
    int i;
    dg_int(d, h->nverts); dg_int(d, h->nfaces); dg_int(d, h->nedges);
    for (i = 0; i < h->nverts; ++i) dg_vec(d, h->verts[i]);
    for (i = 0; i < h->nfaces; ++i) { dg_vec(d, h->planes[i].n); dg_real(d, h->planes[i].d); }
    if (h->nfaces > 0) dg_put(d, h->face_verts, sizeof(int) * (size_t)h->face_first[h->nfaces]);
    if (h->vert_source) dg_put(d, h->vert_source, sizeof(int) * (size_t)h->nverts);
    if (h->face_tag) dg_put(d, h->face_tag, sizeof(int) * (size_t)h->nfaces);
}
static void dg_contact(digest *d, const ct_contact *c) {
    dg_int(d, c->found); dg_vec(d, c->point); dg_vec(d, c->normal); dg_real(d, c->gap); dg_real(d, c->area);
    dg_real(d, c->volume); dg_vec(d, c->centroid); dg_int(d, c->face_a); dg_int(d, c->face_b);
}
static void dg_distance(digest *d, const ct_distance *x) {
    dg_real(d, x->distance); dg_vec(d, x->normal); dg_vec(d, x->pa); dg_vec(d, x->pb); dg_int(d, x->iterations);
}
static void dg_pairs(digest *d, const ct_pairs *p) {
    dg_int(d, (long long)p->count);
    if (p->count) dg_put(d, p->items, sizeof(ct_pair) * p->count);
}
static int all_zero(const void *p, size_t n) {
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; ++i)
        if (c[i]) return 0;
    return 1;
}
static int contact_cleared(const ct_contact *c) {
    return !c->found && c->face_a == -1 && c->face_b == -1 && c->gap == 0 && c->area == 0 && c->volume == 0 &&
           c->point.x == 0 && c->point.y == 0 && c->point.z == 0 && c->normal.x == 0 && c->normal.y == 0 &&
           c->normal.z == 0 && c->centroid.x == 0 && c->centroid.y == 0 && c->centroid.z == 0;
}

/* The inputs every allocation case uses: clouds large enough that the scratch grows several
   times (EPA, polar and quickhull temporaries beyond the 4 KB first block). */
typedef struct fixture {
    ct_vec3 pa[600], pb[600], pc[40], pd[40];
    ct_hull ha, hb, hc, hd;
    ct_xform xa, xb, xc, xd;
    ct_aabb *boxes;
    int nboxes;
} fixture;

static void fixture_init(fixture *f) {
    cloud(f->pa, 600, 1.0, 1, 1, 1, 101);
    cloud(f->pb, 600, 0.9, 1.2, 0.8, 1, 102);
    cloud(f->pc, 40, 1.0, 1, 1, 1, 103);
    cloud(f->pd, 40, 0.8, 1, 0.7, 1.3, 104);
    cr_assert_eq(ct_hull_build(&f->ha, f->pa, 600, NULL, NULL), CT_OK);
    cr_assert_eq(ct_hull_build(&f->hb, f->pb, 600, NULL, NULL), CT_OK);
    cr_assert_eq(ct_hull_build(&f->hc, f->pc, 40, NULL, NULL), CT_OK);
    cr_assert_eq(ct_hull_build(&f->hd, f->pd, 40, NULL, NULL), CT_OK);
    f->xa = xf(0.3, 1, 0.2, 0.4, 0, 0, 0);
    f->xb = xf(1, -0.5, 0.7, 1.1, 0.9, 0.4, -0.3);
    f->xc = xf(0.1, 0.2, 1, 0.3, 5, 5, 5);
    f->xd = xf(-1, 0.4, 0.3, 2.0, 5.8, 5.5, 4.6);
    f->nboxes = 1500;
    f->boxes = dem_boxes(f->nboxes, 1.5, 105);
}

static void fixture_free(fixture *f) {
    ct_hull_free(&f->ha); ct_hull_free(&f->hb); ct_hull_free(&f->hc); ct_hull_free(&f->hd);
    free(f->boxes);
}

/* ---- 1. allocation failure -------------------------------------------------------------- */
/* One allocating call. t is the allocator under test (explicit allocator argument and the
   scratch's allocator); CT_MALLOC is routed to it as well. sc is NULL or a fresh scratch on t.
   The call records its result in *d, frees it, and on failure checks its outputs are
   cleared (*cleared = 1). */
typedef ct_status (*alloc_call)(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared);

static ct_status ac_hull_build(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_hull h;
    ct_hull_desc desc;
    ct_status st;
    memset(&desc, 0, sizeof desc);
    desc.scratch = sc;
    st = ct_hull_build(&h, f->pa, 600, &desc, &t->a);
    *cleared = all_zero(&h, sizeof h);
    if (st == CT_OK) dg_hull(d, &h);
    ct_hull_free(&h);
    return st;
}

static ct_status ac_hull_box(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_hull h;
    ct_status st = ct_hull_box(&h, tu_vec(1, 2, 3), &t->a);
    (void)f; (void)sc;
    *cleared = all_zero(&h, sizeof h);
    if (st == CT_OK) dg_hull(d, &h);
    ct_hull_free(&h);
    return st;
}

/* Several calls on one scratch, each larger than the last: the arena grows at each. */
static ct_status ac_scratch_growth(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    static const int sizes[4] = { 8, 40, 200, 600 };
    ct_hull_desc desc;
    ct_status st = CT_OK;
    int k;
    memset(&desc, 0, sizeof desc);
    desc.scratch = sc;
    *cleared = 1;
    for (k = 0; k < 4 && st == CT_OK; ++k) {
        ct_hull h;
        st = ct_hull_build(&h, f->pb, sizes[k], &desc, &t->a);
        if (st == CT_OK) dg_hull(d, &h);
        else *cleared = all_zero(&h, sizeof h);
        ct_hull_free(&h);
    }
    if (st == CT_OK) {
        ct_contact c;
        st = ct_contact_hulls(&f->ha, &f->xa, &f->hb, &f->xb, sc, &c);
        if (st == CT_OK) dg_contact(d, &c);
        else *cleared = contact_cleared(&c);
    }
    return st;
}

static ct_status ac_intersect(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_hull h;
    ct_status st = ct_intersect(&f->ha, &f->xa, &f->hb, &f->xb, sc, &t->a, &h);
    *cleared = all_zero(&h, sizeof h);
    if (st == CT_OK) dg_hull(d, &h);
    ct_hull_free(&h);
    return st;
}

static ct_status ac_contact(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_contact c;
    ct_status st = ct_contact_hulls(&f->ha, &f->xa, &f->hb, &f->xb, sc, &c);
    (void)t;
    *cleared = contact_cleared(&c);
    if (st == CT_OK) dg_contact(d, &c);
    return st;
}

static ct_status ac_signed_distance(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_shape a = ct_shape_points(f->pa, 600), b = ct_shape_rounded(ct_shape_points(f->pb, 600), (ct_real)0.05);
    ct_distance x;
    ct_status st = ct_signed_distance(&a, &f->xa, &b, &f->xb, NULL, sc, &x);
    (void)t;
    *cleared = all_zero(&x, sizeof x);
    if (st == CT_OK) dg_distance(d, &x);
    return st;
}

static ct_status ac_broadphase(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_pairs p;
    ct_status st = ct_broadphase(f->boxes, f->nboxes, &t->a, &p);
    (void)sc;
    *cleared = p.items == NULL && p.count == 0;
    if (st == CT_OK) dg_pairs(d, &p);
    ct_pairs_free(&p);
    return st;
}

/* NULL allocator: the pair list comes from CT_MALLOC (routed to t) */
static ct_status ac_broadphase_default(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_pairs p;
    ct_status st = ct_broadphase(f->boxes, f->nboxes / 3, NULL, &p);
    (void)sc; (void)t;
    *cleared = p.items == NULL && p.count == 0;
    if (st == CT_OK) dg_pairs(d, &p);
    ct_pairs_free(&p);
    return st;
}

static ct_status ac_bipartite(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_pairs p;
    int na = f->nboxes / 3;
    ct_status st = ct_broadphase_bipartite(f->boxes, na, f->boxes + na, f->nboxes - na, &t->a, &p);
    (void)sc;
    *cleared = p.items == NULL && p.count == 0;
    if (st == CT_OK) dg_pairs(d, &p);
    ct_pairs_free(&p);
    return st;
}

/* foreach: the visit matrix (each cell written by one call, so OpenMP threads never share a
   cell); on failure fn must not have run at all. */
typedef struct visits {
    unsigned char *seen;
    int n;
} visits;
static void visit_fn(void *user, int a, int b, int thread) {
    visits *v = (visits *)user;
    (void)thread;
    v->seen[(size_t)a * (size_t)v->n + (size_t)b]++;
}
static ct_status ac_foreach(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    visits v;
    ct_status st;
    (void)sc; (void)t;
    v.n = f->nboxes;
    v.seen = (unsigned char *)calloc((size_t)v.n * (size_t)v.n, 1);
    st = ct_broadphase_foreach(f->boxes, v.n, visit_fn, &v);
    *cleared = all_zero(v.seen, (size_t)v.n * (size_t)v.n);
    if (st == CT_OK) dg_put(d, v.seen, (size_t)v.n * (size_t)v.n);
    free(v.seen);
    return st;
}

typedef struct alloc_case {
    const char *name;
    alloc_call fn;
    int scratch;   /* 0: NULL scratch; 1: a fresh scratch on the failing allocator */
} alloc_case;

static const alloc_case ALLOC_CASES[] = {
    { "ct_hull_build (NULL scratch)", ac_hull_build, 0 },
    { "ct_hull_build (fresh scratch)", ac_hull_build, 1 },
    { "ct_hull_box", ac_hull_box, 0 },
    { "scratch growth: 4 hulls + contact on one scratch", ac_scratch_growth, 1 },
    { "ct_intersect (NULL scratch)", ac_intersect, 0 },
    { "ct_intersect (fresh scratch)", ac_intersect, 1 },
    { "ct_contact_hulls (NULL scratch: CT_MALLOC)", ac_contact, 0 },
    { "ct_contact_hulls (fresh scratch)", ac_contact, 1 },
    { "ct_signed_distance (NULL scratch: CT_MALLOC)", ac_signed_distance, 0 },
    { "ct_signed_distance (fresh scratch)", ac_signed_distance, 1 },
    { "ct_broadphase", ac_broadphase, 0 },
    { "ct_broadphase (NULL allocator: CT_MALLOC)", ac_broadphase_default, 0 },
    { "ct_broadphase_bipartite", ac_bipartite, 0 },
    { "ct_broadphase_foreach (CT_MALLOC)", ac_foreach, 0 },
};
#define NALLOC_CASES ((int)(sizeof ALLOC_CASES / sizeof ALLOC_CASES[0]))

/* Runs c failing at allocation k = 1, 2, ... until it succeeds. Every failure must return
   CT_NO_MEMORY with cleared outputs and nothing outstanding; with a scratch, the same scratch
   must then give the reference answer once memory is back. Returns the number of sites. */
static long sweep_case(const fixture *f, const alloc_case *c) {
    digest ref, d;
    tu_alloc t;
    ct_scratch sc;
    ct_status st;
    int cleared;
    long k, sites = 0;
    memset(&ref, 0, sizeof ref);
    tu_alloc_init(&t, 0);
    hd_route = &t;
    ct_scratch_init(&sc, &t.a);
    st = c->fn(f, &t, c->scratch ? &sc : NULL, &ref, &cleared);
    ct_scratch_release(&sc);
    hd_route = NULL;
    cr_assert_eq(st, CT_OK, "%s: reference call: %s", c->name, ct_status_string(st));
    cr_assert_eq(t.outstanding, 0, "%s: reference call leaks", c->name);
    cr_assert_gt(t.calls, 0, "%s allocates nothing: the case tests nothing", c->name);
    for (k = 1;; ++k) {
        memset(&d, 0, sizeof d);
        tu_alloc_init(&t, k);
        hd_route = &t;
        ct_scratch_init(&sc, &t.a);
        st = c->fn(f, &t, c->scratch ? &sc : NULL, &d, &cleared);
        if (st == CT_NO_MEMORY) {
            cr_assert(cleared, "%s: outputs not cleared after failing allocation %ld", c->name, k);
            if (c->scratch) { /* the scratch survives the failure */
                digest again;
                memset(&again, 0, sizeof again);
                t.fail_at = 0;
                cr_assert_eq(c->fn(f, &t, &sc, &again, &cleared), CT_OK, "%s: scratch unusable after failure %ld", c->name, k);
                cr_assert(again.n == ref.n && memcmp(again.b, ref.b, ref.n) == 0,
                          "%s: answer after failure %ld differs from the reference", c->name, k);
                free(again.b);
            }
        }
        ct_scratch_release(&sc);
        hd_route = NULL;
        cr_assert_eq(t.outstanding, 0, "%s: %ld blocks leaked after failing allocation %ld", c->name, t.outstanding, k);
        cr_assert_eq(t.bytes, 0);
        if (st == CT_NO_MEMORY) {
            ++sites;
            free(d.b);
            cr_assert_lt(k, 100000, "%s: never succeeds", c->name);
            continue;
        }
        cr_assert_eq(st, CT_OK, "%s: failing allocation %ld gave %s", c->name, k, ct_status_string(st));
        cr_assert(d.n == ref.n && memcmp(d.b, ref.b, ref.n) == 0, "%s: answer differs from the reference", c->name);
        free(d.b);
        break;
    }
    free(ref.b);
    cr_assert_gt(sites, 0, "%s: no allocation site was swept", c->name);
    return sites;
}

Test(hardening, allocation_failure_sweep_every_allocating_entry_point, .timeout = 300) {
    fixture f;
    long total = 0, sites;
    int i, t;
    fixture_init(&f);
    for (t = 1; t <= 2; ++t) {     /* the broad phase's allocations are on the calling thread */
#ifdef _OPENMP
        omp_set_num_threads(t);
#endif
        for (i = 0; i < NALLOC_CASES; ++i) {
            if (t == 2 && strncmp(ALLOC_CASES[i].name, "ct_broadphase", 13) != 0) continue;
            sites = sweep_case(&f, &ALLOC_CASES[i]);
            cr_log_info("allocation sweep: %-50s %3ld sites (%d thread%s)", ALLOC_CASES[i].name, sites, t, t > 1 ? "s" : "");
            total += sites;
        }
    }
    printf("hardening: %ld allocation sites swept over %d cases\n", total, NALLOC_CASES);
    cr_log_info("allocation sites swept: %ld", total);
    fixture_free(&f);
}

/* The routines documented as allocation-free make no allocation, even through CT_MALLOC,
   even when every allocation would fail. */
Test(hardening, allocation_free_routines_allocate_nothing) {
    fixture f;
    tu_alloc t;
    ct_shape sa, sb;
    ct_distance d;
    ct_manifold m;
    ct_pw pw;
    ct_sat_cache sat;
    ct_gjk_cache gc;
    ct_contact cs[3];
    ct_real mass, inertia[3][3];
    ct_vec3 c;
    ct_xform x;
    ct_real q[4] = { 1, 2, 3, 4 };
    fixture_init(&f);
    tu_alloc_init(&t, 1);
    hd_route = &t;
    memset(&sat, 0, sizeof sat);
    memset(&gc, 0, sizeof gc);
    sa = ct_shape_hull(&f.hc);
    sb = ct_shape_rounded(ct_shape_box(tu_vec(0.5, 0.6, 0.7)), (ct_real)0.1);
    cr_assert_eq(ct_gjk(&sa, &f.xc, &sb, &f.xd, &gc, &d), CT_OK);
    cr_assert_eq(ct_gjk(&sa, &f.xc, &sb, &f.xd, &gc, &d), CT_OK);
    sb = ct_shape_ellipsoid(tu_vec(0.3, 0.4, 0.5));
    x = xf(0, 0, 1, 0.2, 7.5, 5, 5);
    cr_assert_eq(ct_signed_distance(&sa, &f.xc, &sb, &x, NULL, NULL, &d), CT_OK); /* apart: no EPA */
    cr_assert(d.distance > 0);
    cr_assert(ct_gjk_points(f.pc, 40, f.pd, 40, NULL, NULL) >= 0);
    cr_assert_eq(ct_manifold_hulls(&f.hc, &f.xc, &f.hd, &f.xd, (ct_real)0.1, &sat, &m), CT_OK);
    cr_assert_eq(ct_manifold_hulls(&f.hc, &f.xc, &f.hd, &f.xd, (ct_real)0.1, &sat, &m), CT_OK);
    cr_assert_eq(ct_manifold_hull_sphere(&f.hc, &f.xc, tu_vec(5, 5, 6.2), (ct_real)0.3, 0, &m), CT_OK);
    cr_assert_eq(ct_ellipsoids(tu_vec(1, 2, 3), &f.xa, tu_vec(2, 1, 1), &f.xb, NULL, &pw), CT_OK);
    cr_assert_gt(ct_hull_volume(&f.ha, &c), 0);
    ct_hull_mass(&f.ha, 2, &mass, &c, inertia);
    (void)ct_hull_aabb(&f.ha, &f.xa);
    memset(cs, 0, sizeof cs);
    cs[0].area = 1; cs[1].area = (ct_real)0.01; cs[2].area = 1; cs[2].point = tu_vec(3, 0, 0);
    cr_assert_eq(ct_sparsify(cs, 3, (ct_real)0.1, 0, (ct_real)0.5), 2);
    x = ct_xform_from_quat(q, tu_vec(1, 2, 3));
    x = ct_xform_from_axis_angle(tu_vec(1, 0, 0), 1, x.p);
    (void)ct_xform_identity();
    (void)ct_status_string(CT_NO_MEMORY);
    hd_route = NULL;
    cr_assert_eq(t.calls, 0, "%ld allocations in routines documented allocation-free", t.calls);
    fixture_free(&f);
}
