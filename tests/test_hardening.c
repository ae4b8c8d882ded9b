/* Hardening: the promise that any input gives a ct_status (never a crash, hang or NaN) and
   leaks nothing, checked in one table-driven place that drives EVERY public entry point of
   contact.h through allocation failure, scale and translation, bad input and touching contacts.
   The concurrency half lives in tests/tsan/tsan_all.c (ThreadSanitizer, 8 pthreads); the
   broad phase thread-count check is here (OpenMP). No test here sets .timeout: Criterion 2.4's
   runner leaks 48 bytes (LeakSanitizer fails the sanitize run) when two tests with a timeout
   run at once under --jobs 2, and every test here takes well under a second.

   This file embeds a static copy of the implementation with CT_MALLOC/CT_FREE routed to the
   test's failing/counting allocator, so that the paths without an allocator argument (NULL
   scratch of ct_contact_hulls and ct_signed_distance, ct_broadphase_foreach, ct_broadphase
   with a NULL allocator) are swept too. CT_MALLOC takes no user pointer, so the route is one
   file-level pointer: test-only state (Criterion runs every test in its own process, and the
   library allocates on the calling thread only).

   SCALE AND TRANSLATION SWEEP (hardening/scale_translation_sweep)
   Eight unit-size scenes per routine (every body has extent ~1) are scaled by s in {1e-6, 1e-3,
   1, 1e3, 1e6} and translated by T = tau * s * (1, -0.7, 0.4) with tau in {0, 1e3, 1e6}
   (double) or {0, 10, 100} (float): the translation is RELATIVE to the scale, because float
   cannot represent a unit feature at 1e6 (its ulp there is 0.06) and neither precision can
   represent a 1e-6 feature at an absolute 1e6. Outputs are mapped back (lengths / s, points
   (p - T) / s, areas / s^2, volumes / s^3) and compared with the unscaled, untranslated answer.
   With u = eps(ct_real) * (1 + tau) (the rounding the translated coordinates carry), the bounds
   (measured worst in brackets, double / float) are:

     routine                 quantities                                 double         float
     ct_hull_build           volume (relative), centroid               100 u [5]      100 u [4]
                             counts, sorted vertex set                 exact          exact*
     ct_gjk,                 distance, normal, witnesses (polytopes)  2000 u [189]   1000 u [36]
     ct_signed_distance      normal, witnesses against an ellipsoid    sqrt(2000 u)   sqrt(1000 u)
                               (a depth error d tilts the normal and slides the witnesses by
                               sqrt(2 d R) on a curved body)        [0.16 of it]   [0.16 of it]
     ct_contact_hulls,       gap, point, centroid, normal (absolute),  1e4 u [1940]   1e4 u [743]
     ct_intersect            area, volume (relative), intersection volume
                             found; face_a, face_b                     exact          exact*
     ct_manifold_hulls,      normal, deepest separation                100 u [2]      100 u [4]
     ct_manifold_hull_sphere count, ids                                exact          exact*
                             each point and separation (by id)         100 u          100 u*
     ct_manifold_rounded_    normal, deepest separation               2000 u [12]     1000 u [5]
       hulls (rounded boxes  count, ids                                exact          exact*
       and hulls)            each point and separation (by id)        2000 u         1000 u*
                               (the GJK bounds: with the cores apart the distance, the normal
                               and the single point come from GJK on the cores)
     ct_ellipsoids           F (relative), lambda, normal, gap, point  100 u [6]      100 u [9]

   * float: compared only without translation. With tau = 10..100 the float coordinates carry
   1e-6..1e-5 relative rounding, which may rightly merge a near-coplanar hull face or swap a
   near-tied manifold feature; the metric quantities are still compared there. The GJK/EPA and
   polar bounds are those of their parts' own tests (relative termination tolerances of a few
   thousand ulps); the test prints the measured worst case. */
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
    ct_mesh mesh;       /* an 8 x 8 heightfield (spacing 0.5) that hc placed by xw sinks into */
    ct_xform xw;
} fixture;

static void fixture_init(fixture *f) {
    cloud(f->pa, 600, 1.0, 1, 1, 1, 101);
    cloud(f->pb, 600, 0.9, 1.2, 0.8, 1, 102);
    cloud(f->pc, 40, 1.0, 1, 1, 1, 103);
    cloud(f->pd, 40, 0.8, 1, 0.7, 1.3, 104);
    cr_assert_eq(ct_hull_build(f->pa, 600, NULL, NULL, &f->ha), CT_OK);
    cr_assert_eq(ct_hull_build(f->pb, 600, NULL, NULL, &f->hb), CT_OK);
    cr_assert_eq(ct_hull_build(f->pc, 40, NULL, NULL, &f->hc), CT_OK);
    cr_assert_eq(ct_hull_build(f->pd, 40, NULL, NULL, &f->hd), CT_OK);
    f->xa = xf(0.3, 1, 0.2, 0.4, 0, 0, 0);
    f->xb = xf(1, -0.5, 0.7, 1.1, 0.9, 0.4, -0.3);
    f->xc = xf(0.1, 0.2, 1, 0.3, 5, 5, 5);
    f->xd = xf(-1, 0.4, 0.3, 2.0, 5.8, 5.5, 4.6);
    f->nboxes = 1500;
    f->boxes = dem_boxes(f->nboxes, 1.5, 105);
    {
        ct_real hf[64];
        int i;
        for (i = 0; i < 64; ++i) hf[i] = (ct_real)(0.1 * ((i * 37) % 11) / 11.0);
        cr_assert_eq(ct_mesh_heightfield(hf, 8, 8, (ct_real)0.5, (ct_real)0.5, NULL, &f->mesh), CT_OK);
    }
    f->xw = xf(0.2, 0.1, 1, 0.4, 1.8, 1.7, 0.9);
}

static void fixture_free(fixture *f) {
    ct_hull_free(&f->ha); ct_hull_free(&f->hb); ct_hull_free(&f->hc); ct_hull_free(&f->hd);
    free(f->boxes);
    ct_mesh_free(&f->mesh);
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
    st = ct_hull_build(f->pa, 600, &desc, &t->a, &h);
    *cleared = all_zero(&h, sizeof h);
    if (st == CT_OK) dg_hull(d, &h);
    ct_hull_free(&h);
    return st;
}

static ct_status ac_hull_box(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_hull h;
    ct_status st = ct_hull_box(tu_vec(1, 2, 3), &t->a, &h);
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
        st = ct_hull_build(f->pb, sizes[k], &desc, &t->a, &h);
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

/* A cloud with a vertex at the centre of a rounded near-sphere (fuzz_regress's input): EPA
   fills up and the cloud's features are enumerated (quickhull of the cloud on the scratch). */
static ct_status ac_signed_enumerated(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_vec3 p[15];
    ct_xform xb;
    ct_shape a, b;
    ct_distance x;
    ct_status st;
    (void)f; (void)t;
    tu_near_sphere(p, &xb);
    a = ct_shape_points(p, 15);
    b = ct_shape_rounded(ct_shape_ellipsoid(tu_vec(TU_NEAR_SPHERE_AXES)), 1000);
    st = ct_signed_distance(&a, NULL, &b, &xb, NULL, sc, &x);
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

/* PFC rigid blocks: the warm cache (cold call, then warm) on t, the reduced and rounded
   resolutions, the facet prism (built through CT_MALLOC), erosion on t, the wall mesh's output
   on t. */
static ct_status ac_pfc_warm(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_contact_cache cache;
    ct_contact c;
    ct_status st;
    int k;
    ct_contact_cache_init(&cache, &t->a);
    for (k = 0, st = CT_OK; k < 2 && st == CT_OK; ++k) {
        st = ct_contact_hulls_warm(&f->hc, &f->xc, &f->hd, &f->xd, &cache, sc, &c);
        if (st == CT_OK) dg_contact(d, &c);
        else *cleared = contact_cleared(&c) && cache.count == 0;
    }
    if (st == CT_OK) *cleared = 1;
    ct_contact_cache_free(&cache);
    return st;
}
static ct_status ac_pfc_reduced(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_contact c;
    ct_status st = ct_contact_hulls_reduced(&f->ha, &f->xa, &f->hb, &f->xb, NULL, sc, &c);
    (void)t;
    *cleared = contact_cleared(&c);
    if (st == CT_OK) dg_contact(d, &c);
    return st;
}
static ct_status ac_cylinder(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_manifold m;
    ct_status st = ct_manifold_hull_cylinder(&f->hc, &f->xc, (ct_real)0.4, (ct_real)0.5, &f->xd, (ct_real)0.1, sc, &m);
    const unsigned char *z = (const unsigned char *)&m;
    size_t i;
    int k;
    (void)t;
    for (i = 0, *cleared = 1; i < sizeof m; ++i) *cleared &= z[i] == 0;
    if (st == CT_OK) {
        dg_vec(d, m.normal);
        dg_int(d, m.count);
        for (k = 0; k < m.count; ++k) { dg_vec(d, m.points[k].point); dg_real(d, m.points[k].separation); dg_int(d, m.points[k].id); }
    }
    return st;
}
static ct_status ac_pfc_rounded(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_contact c;
    ct_status st = ct_contact_rounded_hulls(&f->ha, &f->xa, (ct_real)0.05, &f->hb, &f->xb, (ct_real)0.1, 0, NULL, sc, &c);
    (void)t;
    *cleared = contact_cleared(&c);
    if (st == CT_OK) dg_contact(d, &c);
    return st;
}
static ct_status ac_pfc_facet(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_contact c;
    ct_vec3 tri[3];
    ct_status st;
    (void)t;
    tri[0] = tu_vec(-3, -3, 0.2); tri[1] = tu_vec(3, -3, 0.3); tri[2] = tu_vec(0, 3, 0.1);
    st = ct_contact_facet_hull(tri, &f->hb, &f->xa, 0, sc, &c);
    *cleared = contact_cleared(&c);
    if (st == CT_OK) dg_contact(d, &c);
    return st;
}
static ct_status ac_pfc_erode(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_hull h;
    ct_status st = ct_hull_erode(&f->ha, (ct_real)0.1, &t->a, &h);
    (void)sc;
    *cleared = all_zero(&h, sizeof h);
    if (st == CT_OK) dg_hull(d, &h);
    ct_hull_free(&h);
    return st;
}
static ct_status ac_pfc_wall(const fixture *f, tu_alloc *t, ct_scratch *sc, digest *d, int *cleared) {
    ct_wall_contacts out;
    ct_status st;
    int k;
    ct_wall_contacts_init(&out, &t->a);
    st = ct_contact_mesh_hull(&f->mesh, NULL, &f->hc, &f->xw, sc, &out);
    *cleared = out.count == 0;
    if (st == CT_OK) {
        dg_int(d, out.count);
        for (k = 0; k < out.count; ++k) dg_contact(d, &out.contacts[k]);
    }
    ct_wall_contacts_free(&out);
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
    { "ct_signed_distance, features enumerated (NULL scratch)", ac_signed_enumerated, 0 },
    { "ct_signed_distance, features enumerated (fresh scratch)", ac_signed_enumerated, 1 },
    { "ct_broadphase", ac_broadphase, 0 },
    { "ct_broadphase (NULL allocator: CT_MALLOC)", ac_broadphase_default, 0 },
    { "ct_broadphase_bipartite", ac_bipartite, 0 },
    { "ct_broadphase_foreach (CT_MALLOC)", ac_foreach, 0 },
    { "ct_contact_hulls_warm (cache on t, NULL scratch)", ac_pfc_warm, 0 },
    { "ct_contact_hulls_warm (cache on t, fresh scratch)", ac_pfc_warm, 1 },
    { "ct_contact_hulls_reduced (fresh scratch)", ac_pfc_reduced, 1 },
    { "ct_manifold_hull_cylinder (NULL scratch)", ac_cylinder, 0 },
    { "ct_manifold_hull_cylinder (fresh scratch)", ac_cylinder, 1 },
    { "ct_contact_rounded_hulls (NULL scratch)", ac_pfc_rounded, 0 },
    { "ct_contact_facet_hull (prism via CT_MALLOC)", ac_pfc_facet, 1 },
    { "ct_hull_erode", ac_pfc_erode, 0 },
    { "ct_contact_mesh_hull (NULL scratch)", ac_pfc_wall, 0 },
    { "ct_contact_mesh_hull (fresh scratch)", ac_pfc_wall, 1 },
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

Test(hardening, allocation_failure_sweep_every_allocating_entry_point) {
    fixture f;
    long total = 0, sites;
    int i, t;
    fixture_init(&f);
    for (t = 1; t <= 2; ++t) {     /* the broad phase's allocations are on the calling thread */
        tu_set_threads(t);
        for (i = 0; i < NALLOC_CASES; ++i) {
            if (t == 2 && strncmp(ALLOC_CASES[i].name, "ct_broadphase", 13) != 0) continue;
            sites = sweep_case(&f, &ALLOC_CASES[i]);
            cr_log_info("allocation sweep: %-50s %3ld sites (%d thread%s)", ALLOC_CASES[i].name, sites, t, t > 1 ? "s" : "");
            /* the printed figure counts the one-thread sweep: on two threads the per-thread
               buffers that overflow (and so the sites) depend on the dynamic schedule */
            if (t == 1) total += sites;
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
    ct_hull box1, box2;
    ct_xform xapart, xrest;
    ct_sat_cache rc[3];
    int k;
    fixture_init(&f);
    cr_assert_eq(ct_hull_box(tu_vec(1, 1, 0.5), NULL, &box1), CT_OK);
    cr_assert_eq(ct_hull_box(tu_vec(0.4, 0.3, 0.2), NULL, &box2), CT_OK);
    xapart = xf(0, 0, 1, 0.2, 7.5, 5, 5);
    xrest = xf(1, 0.3, 0, 0.03, 0.1, 0.2, 0.9);
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
    for (k = 0; k < 2; ++k) {   /* rounded hulls, every path (cold, then warm): overlapping cores (SAT),
                                   cores apart (GJK), resting boxes (closed form) */
        if (k == 0) memset(rc, 0, sizeof rc);
        cr_assert_eq(ct_manifold_rounded_hulls(&f.hc, &f.xc, (ct_real)0.05, &f.hd, &f.xd, (ct_real)0.1, (ct_real)0.1, &rc[0], &m), CT_OK);
        cr_assert_gt(m.count, 0);
        cr_assert_eq(ct_manifold_rounded_hulls(&f.hc, &f.xc, (ct_real)0.05, &f.hd, &xapart, (ct_real)0.1, 1, &rc[1], &m), CT_OK);
        cr_assert_gt(m.count, 0);
        cr_assert_eq(ct_manifold_rounded_hulls(&box1, NULL, (ct_real)0.1, &box2, &xrest, (ct_real)0.05, (ct_real)0.1, &rc[2], &m), CT_OK);
        cr_assert_gt(m.count, 1);
    }
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
    ct_hull_free(&box1);
    ct_hull_free(&box2);
    fixture_free(&f);
}

/* ---- 2. thread count (OpenMP): the broad phase gives the same answer for 1..8 threads ------ */
/* test_broadphase.c checks ct_broadphase against brute force for 1/2/3/4/7 threads; here all
   three entry points (ct_broadphase, _bipartite and _foreach's visiting set) for every count
   1..8, each compared with its 1-thread answer, on a dense DEM scene with huge boxes and a
   sparse clustered one. */

Test(hardening, broadphase_identical_for_1_to_8_threads) {
    static const double factors[2] = { 1.5, 0.6 };
    int sc, t, combos = 0;
    for (sc = 0; sc < 2; ++sc) {
        int n = 1200, na = 500;
        ct_aabb *b = dem_boxes(n, factors[sc], 200 + (unsigned long long)sc);
        ct_pairs ref_all, ref_bi;
        unsigned char *ref_seen = (unsigned char *)calloc((size_t)n * (size_t)n, 1);
        visits v;
        if (sc == 1) /* clusters far apart */
            for (t = 0; t < n; t += 2) { b[t].lo = ct__add(b[t].lo, tu_vec(50, 0, -30)); b[t].hi = ct__add(b[t].hi, tu_vec(50, 0, -30)); }
        tu_set_threads(1);
        cr_assert_eq(ct_broadphase(b, n, NULL, &ref_all), CT_OK);
        cr_assert_eq(ct_broadphase_bipartite(b, na, b + na, n - na, NULL, &ref_bi), CT_OK);
        v.n = n;
        v.seen = ref_seen;
        cr_assert_eq(ct_broadphase_foreach(b, n, visit_fn, &v), CT_OK);
        cr_assert_gt(ref_all.count, (size_t)n / 4, "the scene has pairs");
        cr_assert_gt(ref_bi.count, 0);
        for (t = 1; t <= 8; ++t) {
            ct_pairs p;
            tu_set_threads(t);
            cr_assert_eq(ct_broadphase(b, n, NULL, &p), CT_OK);
            cr_assert(p.count == ref_all.count && memcmp(p.items, ref_all.items, p.count * sizeof(ct_pair)) == 0,
                      "ct_broadphase differs with %d threads", t);
            ct_pairs_free(&p);
            cr_assert_eq(ct_broadphase_bipartite(b, na, b + na, n - na, NULL, &p), CT_OK);
            cr_assert(p.count == ref_bi.count && memcmp(p.items, ref_bi.items, p.count * sizeof(ct_pair)) == 0,
                      "ct_broadphase_bipartite differs with %d threads", t);
            ct_pairs_free(&p);
            v.seen = (unsigned char *)calloc((size_t)n * (size_t)n, 1);
            cr_assert_eq(ct_broadphase_foreach(b, n, visit_fn, &v), CT_OK);
            cr_assert(memcmp(v.seen, ref_seen, (size_t)n * (size_t)n) == 0, "foreach visits differ with %d threads", t);
            free(v.seen);
            combos += 3;
        }
        {   /* the visiting set is the pair list, each pair once */
            size_t i, ones = 0;
            for (i = 0; i < (size_t)n * (size_t)n; ++i) { cr_assert_leq(ref_seen[i], 1); ones += ref_seen[i]; }
            cr_assert_eq(ones, ref_all.count);
            for (i = 0; i < ref_all.count; ++i) cr_assert_eq(ref_seen[(size_t)ref_all.items[i].a * (size_t)n + (size_t)ref_all.items[i].b], 1);
        }
        ct_pairs_free(&ref_all);
        ct_pairs_free(&ref_bi);
        free(ref_seen);
        free(b);
    }
    tu_set_threads(2);
    cr_log_info("broad phase: %d (entry point, thread count, scene) combinations identical", combos);
}

/* ---- 3. scale and translation sweep (tolerance table at the top of the file) -------------- */
#define MEAS_MAX 160
typedef struct meas {
    int n, nc;
    double v[MEAS_MAX];
    char k[MEAS_MAX];   /* 'e' exact, 'a' absolute in unit-scene units, 'r' relative, 'w' normal or
                           witness against a curved body (absolute, bound sqrt(bound u)) */
    double c[MEAS_MAX]; /* combinatorics (counts, vertex sets, feature ids) and what depends on
                           them, compared where the input's rounding allows: in double, and in
                           float without translation (with it the float coordinates carry ~1e-5
                           relative rounding, which may rightly merge a near-coplanar face or
                           swap a near-tied feature) */
    char ck[MEAS_MAX];
} meas;
static void m_put(meas *m, char k, double v) {
    cr_assert_lt(m->n, MEAS_MAX);
    cr_assert_lt(m->nc, MEAS_MAX);
    if (k == 'c' || k == 'd') {   /* 'c': exact combinatorics, 'd': an 'a' quantity that depends on them */
        m->ck[m->nc] = k == 'c' ? 'e' : 'a';
        m->c[m->nc++] = v;
        return;
    }
    m->k[m->n] = k;
    m->v[m->n++] = v;
}
/* a world point of the scaled, translated scene mapped back to the unit scene */
typedef struct frame { double s; ct_vec3 T; int v; /* scene variant */ } frame;
static void m_point(meas *m, const frame *f, ct_vec3 p) {
    m_put(m, 'a', ((double)p.x - (double)f->T.x) / f->s);
    m_put(m, 'a', ((double)p.y - (double)f->T.y) / f->s);
    m_put(m, 'a', ((double)p.z - (double)f->T.z) / f->s);
}
static void m_witness(meas *m, const frame *f, ct_vec3 p) {
    m_put(m, 'w', ((double)p.x - (double)f->T.x) / f->s);
    m_put(m, 'w', ((double)p.y - (double)f->T.y) / f->s);
    m_put(m, 'w', ((double)p.z - (double)f->T.z) / f->s);
}
static void m_dir(meas *m, ct_vec3 n) { m_put(m, 'a', n.x); m_put(m, 'a', n.y); m_put(m, 'a', n.z); }
/* a unit-scene transform placed in the frame */
static ct_xform in_frame(const frame *f, ct_xform x) {
    x.p = tu_vec((double)x.p.x * f->s + (double)f->T.x, (double)x.p.y * f->s + (double)f->T.y,
                 (double)x.p.z * f->s + (double)f->T.z);
    return x;
}
static void scaled(ct_vec3 *out, const ct_vec3 *p, int n, double s) {
    int i;
    for (i = 0; i < n; ++i) out[i] = tu_vec(p[i].x * s, p[i].y * s, p[i].z * s);
}
static ct_vec3 sv(double x, double y, double z, double s) { return tu_vec(x * s, y * s, z * s); }

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void sw_hull(const frame *f, meas *m) {
    ct_vec3 p[60], q[60];
    ct_hull h;
    ct_vec3 c;
    int i, src[60];
    cloud(p, 40, 1, 1, 1 - 0.05 * f->v, 1, 301 + 10 * (unsigned long long)f->v);
    cloud(p + 40, 20, 0.7, 1, 0.9, 0.8, 302 + 10 * (unsigned long long)f->v);  /* interior points */
    for (i = 0; i < 60; ++i)
        q[i] = tu_vec(p[i].x * f->s + (double)f->T.x, p[i].y * f->s + (double)f->T.y, p[i].z * f->s + (double)f->T.z);
    cr_assert_eq(ct_hull_build(q, 60, NULL, NULL, &h), CT_OK);
    m_put(m, 'c', h.nverts); m_put(m, 'c', h.nfaces); m_put(m, 'c', h.nedges);
    memcpy(src, h.vert_source, sizeof(int) * (size_t)h.nverts);
    qsort(src, (size_t)h.nverts, sizeof(int), cmp_int);
    for (i = 0; i < h.nverts; ++i) m_put(m, 'c', src[i]);
    m_put(m, 'r', (double)ct_hull_volume(&h, &c) / (f->s * f->s * f->s));
    m_point(m, f, c);
    ct_hull_free(&h);
}

static void sw_distance(const frame *f, meas *m) {
    ct_vec3 a[20], b[20], as[20], bs[20];
    ct_xform xa = in_frame(f, xf(0.3, 1, 0.2, 0.4 + 0.3 * f->v, 0, 0, 0));
    ct_xform xapart = in_frame(f, xf(1, -0.5, 0.7, 1.1 - 0.2 * f->v, 1.9, 0.4, -0.3 + 0.1 * f->v));
    ct_xform xdeep = in_frame(f, xf(1, -0.5, 0.7, 1.1 + 0.2 * f->v, 0.9, 0.4, -0.3 - 0.05 * f->v));
    ct_shape sa, sb, box, ell;
    ct_distance d;
    cloud(a, 20, 1, 1, 1, 1, 311 + 10 * (unsigned long long)f->v);
    cloud(b, 20, 0.8, 1, 0.7, 1.2, 312 + 10 * (unsigned long long)f->v);
    scaled(as, a, 20, f->s);
    scaled(bs, b, 20, f->s);
    sa = ct_shape_points(as, 20);
    sb = ct_shape_points(bs, 20);
    box = ct_shape_box(sv(0.5, 0.7, 0.3, f->s));
    ell = ct_shape_rounded(ct_shape_ellipsoid(sv(0.6, 0.4, 0.5, f->s)), (ct_real)(0.1 * f->s));
    cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xapart, NULL, NULL, &d), CT_OK);
    cr_assert_gt(d.distance, 0);
    m_put(m, 'a', d.distance / f->s); m_dir(m, d.normal); m_point(m, f, d.pa); m_point(m, f, d.pb);
    cr_assert_eq(ct_gjk(&sa, &xa, &sb, &xapart, NULL, &d), CT_OK);
    m_put(m, 'a', d.distance / f->s); m_dir(m, d.normal); m_point(m, f, d.pa); m_point(m, f, d.pb);
    cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xdeep, NULL, NULL, &d), CT_OK);
    cr_assert_lt(d.distance, 0);
    m_put(m, 'a', d.distance / f->s); m_dir(m, d.normal); m_point(m, f, d.pa); m_point(m, f, d.pb);
    cr_assert_eq(ct_signed_distance(&box, &xa, &ell, &xdeep, NULL, NULL, &d), CT_OK);
    /* against a curved body a depth error d tilts the normal and slides the witnesses by
       sqrt(2 d R): both are compared against sqrt(bound u) */
    m_put(m, 'a', d.distance / f->s);
    m_put(m, 'w', d.normal.x); m_put(m, 'w', d.normal.y); m_put(m, 'w', d.normal.z);
    m_witness(m, f, d.pa); m_witness(m, f, d.pb);
}

static void sw_contact(const frame *f, meas *m) {
    ct_vec3 a[30], b[30], as[30], bs[30];
    ct_xform xa = in_frame(f, xf(0.3, 1, 0.2, 0.4 + 0.3 * f->v, 0, 0, 0));
    ct_xform xb = in_frame(f, xf(1, -0.5, 0.7, 1.1 - 0.25 * f->v, 1.1 - 0.05 * f->v, 0.4, -0.3));
    ct_hull ha, hb, hi;
    ct_contact c;
    cloud(a, 30, 1, 1, 1, 1, 321 + 10 * (unsigned long long)f->v);
    cloud(b, 30, 0.8, 1, 0.7, 1.2, 322 + 10 * (unsigned long long)f->v);
    scaled(as, a, 30, f->s);
    scaled(bs, b, 30, f->s);
    cr_assert_eq(ct_hull_build(as, 30, NULL, NULL, &ha), CT_OK);
    cr_assert_eq(ct_hull_build(bs, 30, NULL, NULL, &hb), CT_OK);
    cr_assert_eq(ct_contact_hulls(&ha, &xa, &hb, &xb, NULL, &c), CT_OK);
    cr_assert(c.found && c.volume > 0);
    m_put(m, 'e', c.found);
    m_put(m, 'a', c.gap / f->s);
    m_put(m, 'r', c.area / (f->s * f->s));
    m_put(m, 'r', c.volume / (f->s * f->s * f->s));
    m_point(m, f, c.point);
    m_point(m, f, c.centroid);
    m_dir(m, c.normal);
    m_put(m, 'c', c.face_a);
    m_put(m, 'c', c.face_b);
    cr_assert_eq(ct_intersect(&ha, &xa, &hb, &xb, NULL, NULL, &hi), CT_OK);
    cr_assert_gt(hi.nfaces, 0);
    m_put(m, 'r', ct_hull_volume(&hi, NULL) / (f->s * f->s * f->s));
    ct_hull_free(&hi);
    ct_hull_free(&ha);
    ct_hull_free(&hb);
}

/* normal and deepest separation always; the points (matched by id) with the combinatorics */
static void m_manifold(meas *m, const frame *f, const ct_manifold *mf) {
    int i;
    double deepest = 0;
    m_dir(m, mf->normal);
    for (i = 0; i < mf->count; ++i) deepest = i == 0 || mf->points[i].separation < deepest ? mf->points[i].separation : deepest;
    m_put(m, 'a', deepest / f->s);
    m_put(m, 'c', mf->count);
    for (i = 0; i < mf->count; ++i) {
        m_put(m, 'c', mf->points[i].id);
        m_put(m, 'd', mf->points[i].separation / f->s);
        m_put(m, 'd', ((double)mf->points[i].point.x - (double)f->T.x) / f->s);
        m_put(m, 'd', ((double)mf->points[i].point.y - (double)f->T.y) / f->s);
        m_put(m, 'd', ((double)mf->points[i].point.z - (double)f->T.z) / f->s);
    }
}

static void sw_manifold(const frame *f, meas *m) {
    ct_vec3 b[30], bs[30];
    ct_hull box, hb;
    ct_manifold mf;
    ct_xform xa = in_frame(f, xf(0, 0, 1, 0.1 + 0.2 * f->v, 0, 0, 0));
    ct_xform xb = in_frame(f, xf(0.2, 0.1, 1, 0.5 + 0.4 * f->v, 0.2, -0.1, 0.75));
    ct_xform xc = in_frame(f, xf(1, 1, 0.3, 0.7 + 0.3 * f->v, 0.3, 0.2, 1.65));
    cloud(b, 30, 0.8, 1, 1, 0.6, 331 + 10 * (unsigned long long)f->v);
    scaled(bs, b, 30, f->s);
    cr_assert_eq(ct_hull_box(sv(1, 1, 0.5, f->s), NULL, &box), CT_OK);
    cr_assert_eq(ct_hull_build(bs, 30, NULL, NULL, &hb), CT_OK);
    {   /* a tilted box resting on the box: a face manifold */
        ct_hull top;
        ct_xform xt = in_frame(f, xf(1, 0.3 + 0.2 * f->v, 0, 0.03 + 0.01 * f->v, 0.1 - 0.03 * f->v, 0.2, 0.69));
        cr_assert_eq(ct_hull_box(sv(0.4, 0.3, 0.2, f->s), NULL, &top), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&box, &xa, &top, &xt, (ct_real)(0.01 * f->s), NULL, &mf), CT_OK);
        cr_assert_gt(mf.count, 1);
        m_manifold(m, f, &mf);
        ct_hull_free(&top);
    }
    cr_assert_eq(ct_manifold_hulls(&box, &xa, &hb, &xb, 0, NULL, &mf), CT_OK);
    cr_assert_gt(mf.count, 0);
    m_manifold(m, f, &mf);
    cr_assert_eq(ct_manifold_hulls(&hb, &xb, &box, &xc, (ct_real)(0.1 * f->s), NULL, &mf), CT_OK);
    m_manifold(m, f, &mf);
    {
        ct_vec3 c = tu_vec(0.3 * f->s + (double)f->T.x, -0.2 * f->s + (double)f->T.y, 0.9 * f->s + (double)f->T.z);
        cr_assert_eq(ct_manifold_hull_sphere(&box, &xa, c, (ct_real)(0.5 * f->s), 0, &mf), CT_OK);
        cr_assert_eq(mf.count, 1);
        m_manifold(m, f, &mf);
    }
    ct_hull_free(&box);
    ct_hull_free(&hb);
}

/* rounded boxes and hulls, each path of ct_manifold_rounded_hulls: a tilted rounded box resting
   on a rounded box with the cores apart (the closed-form box SAT), a rounded hull above a
   rounded box and two rounded hulls with the cores apart (GJK on the cores: a face clip or one
   point), a rounded hull sunk into a rounded box (the SAT of the overlapping cores) */
static void sw_rounded(const frame *f, meas *m) {
    ct_vec3 a[30], b[30], as[30], bs[30];
    ct_hull box, top, ha, hb;
    ct_manifold mf;
    const ct_real s = (ct_real)f->s;
    ct_xform xa = in_frame(f, xf(0, 0, 1, 0.1 + 0.2 * f->v, 0, 0, 0));
    ct_xform xt = in_frame(f, xf(1, 0.3 + 0.2 * f->v, 0, 0.03 + 0.01 * f->v, 0.1 - 0.03 * f->v, 0.2, 0.88));
    ct_xform xh = in_frame(f, xf(0.2, 0.1, 1, 0.5 + 0.4 * f->v, 0.2, -0.1, 1.45 + 0.02 * f->v));
    ct_xform xs = in_frame(f, xf(0.2, 0.1, 1, 0.5 + 0.4 * f->v, 0.2, -0.1, 0.85));
    ct_xform x1 = in_frame(f, xf(1, -0.5, 0.7, 1.1 - 0.2 * f->v, 1.65 + 0.05 * f->v, 0.4, -0.3));
    cloud(a, 30, 0.8, 1, 1, 0.6, 341 + 10 * (unsigned long long)f->v);
    cloud(b, 30, 0.8, 1, 0.7, 1.2, 342 + 10 * (unsigned long long)f->v);
    scaled(as, a, 30, f->s);
    scaled(bs, b, 30, f->s);
    cr_assert_eq(ct_hull_box(sv(1, 1, 0.5, f->s), NULL, &box), CT_OK);
    cr_assert_eq(ct_hull_box(sv(0.4, 0.3, 0.2, f->s), NULL, &top), CT_OK);
    cr_assert_eq(ct_hull_build(as, 30, NULL, NULL, &ha), CT_OK);
    cr_assert_eq(ct_hull_build(bs, 30, NULL, NULL, &hb), CT_OK);
    cr_assert_eq(ct_manifold_rounded_hulls(&box, &xa, (ct_real)0.1 * s, &top, &xt, (ct_real)0.05 * s, (ct_real)0.1 * s, NULL, &mf), CT_OK);
    cr_assert_gt(mf.count, 1);
    m_manifold(m, f, &mf);
    cr_assert_eq(ct_manifold_rounded_hulls(&box, &xa, (ct_real)0.1 * s, &ha, &xh, (ct_real)0.2 * s, (ct_real)0.5 * s, NULL, &mf), CT_OK);
    cr_assert_gt(mf.count, 0);
    m_manifold(m, f, &mf);
    cr_assert_eq(ct_manifold_rounded_hulls(&ha, &xa, (ct_real)0.15 * s, &box, &xs, (ct_real)0.05 * s, 0, NULL, &mf), CT_OK);
    cr_assert_gt(mf.count, 0);
    m_manifold(m, f, &mf);
    cr_assert_eq(ct_manifold_rounded_hulls(&ha, &xa, (ct_real)0.2 * s, &hb, &x1, (ct_real)0.1 * s, (ct_real)0.5 * s, NULL, &mf), CT_OK);
    cr_assert_gt(mf.count, 0);
    m_manifold(m, f, &mf);
    ct_hull_free(&box);
    ct_hull_free(&top);
    ct_hull_free(&ha);
    ct_hull_free(&hb);
}

static void sw_ellipsoids(const frame *f, meas *m) {
    static const double px[2] = { 1.1, 2.5 };   /* overlapping, apart */
    int k;
    for (k = 0; k < 2; ++k) {
        ct_xform xa = in_frame(f, xf(0.3, 1, 0.2, 0.4 + 0.3 * f->v, 0, 0, 0));
        ct_xform xb = in_frame(f, xf(1, -0.5, 0.7, 1.1 - 0.2 * f->v, px[k], 0.4, -0.3));
        ct_pw pw;
        cr_assert_eq(ct_ellipsoids(sv(1, 0.5 + 0.1 * f->v, 0.3, f->s), &xa, sv(0.4, 0.8, 0.6 - 0.05 * f->v, f->s), &xb, NULL, &pw), CT_OK);
        m_put(m, 'r', pw.F);
        m_put(m, 'a', pw.lambda);
        m_dir(m, pw.normal);
        m_put(m, 'a', pw.gap / f->s);
        m_point(m, f, pw.point);
    }
}

#define SWEEP_VARIANTS 8
typedef struct sweep_routine {
    const char *name;
    void (*fn)(const frame *f, meas *m);
    double c_double, c_float;   /* the bound, in units of u = eps * (1 + tau) */
} sweep_routine;

static const sweep_routine SWEEP[] = {
    { "ct_hull_build", sw_hull, 1e2, 1e2 },
    { "ct_gjk / ct_signed_distance", sw_distance, 2e3, 1e3 },
    { "ct_contact_hulls / ct_intersect", sw_contact, 1e4, 1e4 },
    { "ct_manifold_hulls / _hull_sphere", sw_manifold, 1e2, 1e2 },
    { "ct_manifold_rounded_hulls", sw_rounded, 2e3, 1e3 },
    { "ct_ellipsoids", sw_ellipsoids, 1e2, 1e2 },
};

/* Compares one list; returns the worst error in units of u ('w': of sqrt(u)) through *worst. */
static void compare_list(const char *what, int n, const double *got, const char *gk, const double *ref, const char *rk,
                         double u, double bound, double *worst, double *worst_w) {
    int k;
    for (k = 0; k < n; ++k) {
        double err;
        cr_assert_eq(gk[k], rk[k], "%s: the answer changed shape", what);
        if (rk[k] == 'e') {
            cr_assert_eq(got[k], ref[k], "%s: quantity %d is %g, %g at unit scale", what, k, got[k], ref[k]);
            continue;
        }
        err = rk[k] == 'r' ? fabs(got[k] / ref[k] - 1) : fabs(got[k] - ref[k]);
        if (rk[k] == 'w') {
            err /= sqrt(bound * u);
            if (err > *worst_w) *worst_w = err;
            cr_assert_leq(err, 1, "%s: witness/normal %d is %.17g, %.17g at unit scale (%.3g sqrt(bound u))", what, k, got[k], ref[k], err);
            continue;
        }
        err /= u;
        if (err > *worst) *worst = err;
        cr_assert_leq(err, bound, "%s: quantity %d is %.17g, %.17g at unit scale (%.3g u > %g u)", what, k, got[k], ref[k], err, bound);
    }
}

Test(hardening, scale_translation_sweep) {
    static const double scales[5] = { 1e-6, 1e-3, 1, 1e3, 1e6 };
    const double taus[3] = { 0, TU_FLOAT ? 10 : 1e3, TU_FLOAT ? 100 : 1e6 };
    int r, i, j, v, cases = 0;
    for (r = 0; r < (int)(sizeof SWEEP / sizeof SWEEP[0]); ++r) {
        const sweep_routine *R = &SWEEP[r];
        double bound = TU_FLOAT ? R->c_float : R->c_double, worst = 0, worst_w = 0;
        int nq = 0;
        for (v = 0; v < SWEEP_VARIANTS; ++v) {
            meas ref, got;
            frame f0;
            f0.s = 1;
            f0.T = tu_vec(0, 0, 0);
            f0.v = v;
            memset(&ref, 0, sizeof ref);
            R->fn(&f0, &ref);
            nq += ref.n + ref.nc;
            for (i = 0; i < 5; ++i)
                for (j = 0; j < 3; ++j) {
                    frame f;
                    char what[160];
                    double u = (double)TU_EPS * (1 + taus[j]);
                    if (i == 2 && j == 0) continue;   /* the reference itself */
                    f.s = scales[i];
                    f.T = tu_vec(taus[j] * f.s, -0.7 * taus[j] * f.s, 0.4 * taus[j] * f.s);
                    f.v = v;
                    memset(&got, 0, sizeof got);
                    R->fn(&f, &got);
                    snprintf(what, sizeof what, "%s #%d, scale %g, tau %g", R->name, v, f.s, taus[j]);
                    cr_assert_eq(got.n, ref.n, "%s: %d quantities, %d at unit scale", what, got.n, ref.n);
                    compare_list(what, ref.n, got.v, got.k, ref.v, ref.k, u, bound, &worst, &worst_w);
                    if (!TU_FLOAT || taus[j] == 0) {
                        cr_assert_eq(got.nc, ref.nc, "%s: combinatorics changed (%d vs %d entries)", what, got.nc, ref.nc);
                        compare_list(what, ref.nc, got.c, got.ck, ref.c, ref.ck, u, bound, &worst, &worst_w);
                    }
                    ++cases;
                }
        }
        cr_log_info("scale/translation sweep: %-34s %d cases, %4d quantities, worst %.3g u (bound %g u), curved-body normal/witnesses %.3g sqrt(bound u)",
                    R->name, 14 * SWEEP_VARIANTS, nq, worst, bound, worst_w);
    }
    printf("hardening: %d scale/translation sweep cases\n", cases);
}

/* ---- 4. bad input: every entry point, every coordinate position ---------------------------- */
/* The documented answers (contact.h): NaN/Inf anywhere, a negative count, NULL where a value is
   needed, an invalid transform (non-finite, not orthonormal, a reflection), a negative radius /
   semi-axis / extent, a negative speculative distance -> CT_INVALID with the outputs zeroed
   (ct_contact: found = 0, face_a = face_b = -1; ct_pairs: empty); ct_gjk_points -> -1;
   ct_sparsify -> 0. Flat, collinear, coincident and too-few points -> CT_DEGENERATE for
   ct_hull_build (GJK takes them as the lower-dimensional convex sets they are). */
static const double POISON[3] = { NAN, INFINITY, -INFINITY };

typedef struct badctx {
    fixture f;
    ct_hull box;       /* half extents 1 */
    int cases;
    tu_alloc count;    /* CT_MALLOC counted during the test: bad input leaks nothing either */
} badctx;

#define EXPECT(ctx, got, want, ...) do { cr_assert_eq((got), (want), __VA_ARGS__); (ctx)->cases++; } while (0)

static void set_coord(ct_vec3 *v, int c, ct_real x) {
    if (c == 0) v->x = x;
    else if (c == 1) v->y = x;
    else v->z = x;
}

/* The invalid transforms: each of the 12 entries NaN/+Inf/-Inf, then not orthonormal (a scaled
   axis, a shear, a 1.001 uniform scale, zero), a reflection, a rotation composed with a mirror. */
static int bad_xform(int i, ct_xform *x) {
    *x = xf(0.3, 1, 0.2, 0.4, 0.1, 0.2, 0.3);
    if (i < 36) {
        int e = i / 3;
        ct_real v = (ct_real)POISON[i % 3];
        if (e < 9) x->r[e / 3][e % 3] = v;
        else set_coord(&x->p, e - 9, v);
        return 1;
    }
    switch (i - 36) {
    case 0: x->r[0][0] *= 2; x->r[1][0] *= 2; x->r[2][0] *= 2; return 1;
    case 1: x->r[0][1] += (ct_real)0.1; return 1;
    case 2: { int a, b; for (a = 0; a < 3; ++a) for (b = 0; b < 3; ++b) x->r[a][b] *= (ct_real)1.001; } return 1;
    case 3: memset(x->r, 0, sizeof x->r); return 1;
    case 4: *x = ct_xform_identity(); x->r[2][2] = -1; return 1;
    case 5: { int a; for (a = 0; a < 3; ++a) x->r[a][1] = -x->r[a][1]; } return 1;
    }
    return 0;
}

/* Each slot calls one entry point with *x in one transform position and reports whether its
   outputs were cleared. */
typedef ct_status (*xform_slot)(badctx *c, const ct_xform *x, int *cleared);
static ct_status xs_gjk_a(badctx *c, const ct_xform *x, int *cl) {
    ct_shape a = ct_shape_hull(&c->f.hc), b = ct_shape_box(tu_vec(1, 1, 1));
    ct_distance d;
    ct_status st = ct_gjk(&a, x, &b, &c->f.xd, NULL, &d);
    *cl = all_zero(&d, sizeof d);
    return st;
}
static ct_status xs_gjk_b(badctx *c, const ct_xform *x, int *cl) {
    ct_shape a = ct_shape_hull(&c->f.hc), b = ct_shape_sphere(1);
    ct_distance d;
    ct_status st = ct_gjk(&a, &c->f.xc, &b, x, NULL, &d);
    *cl = all_zero(&d, sizeof d);
    return st;
}
static ct_status xs_sd_a(badctx *c, const ct_xform *x, int *cl) {
    ct_shape a = ct_shape_points(c->f.pc, 40), b = ct_shape_ellipsoid(tu_vec(1, 2, 1));
    ct_distance d;
    ct_status st = ct_signed_distance(&a, x, &b, &c->f.xd, NULL, NULL, &d);
    *cl = all_zero(&d, sizeof d);
    return st;
}
static ct_status xs_sd_b(badctx *c, const ct_xform *x, int *cl) {
    ct_shape a = ct_shape_points(c->f.pc, 40), b = ct_shape_triangle(tu_vec(0, 0, 0), tu_vec(1, 0, 0), tu_vec(0, 1, 0));
    ct_distance d;
    ct_status st = ct_signed_distance(&a, &c->f.xc, &b, x, NULL, NULL, &d);
    *cl = all_zero(&d, sizeof d);
    return st;
}
static ct_status xs_intersect_a(badctx *c, const ct_xform *x, int *cl) {
    ct_hull h;
    ct_status st = ct_intersect(&c->f.hc, x, &c->f.hd, &c->f.xd, NULL, NULL, &h);
    *cl = all_zero(&h, sizeof h);
    ct_hull_free(&h);
    return st;
}
static ct_status xs_intersect_b(badctx *c, const ct_xform *x, int *cl) {
    ct_hull h;
    ct_status st = ct_intersect(&c->f.hc, &c->f.xc, &c->f.hd, x, NULL, NULL, &h);
    *cl = all_zero(&h, sizeof h);
    ct_hull_free(&h);
    return st;
}
static ct_status xs_contact_a(badctx *c, const ct_xform *x, int *cl) {
    ct_contact k;
    ct_status st = ct_contact_hulls(&c->f.hc, x, &c->f.hd, &c->f.xd, NULL, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status xs_contact_b(badctx *c, const ct_xform *x, int *cl) {
    ct_contact k;
    ct_status st = ct_contact_hulls(&c->f.hc, &c->f.xc, &c->f.hd, x, NULL, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status xs_manifold_a(badctx *c, const ct_xform *x, int *cl) {
    ct_manifold m;
    ct_status st = ct_manifold_hulls(&c->box, x, &c->f.hd, &c->f.xd, 1, NULL, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status xs_manifold_b(badctx *c, const ct_xform *x, int *cl) {
    ct_manifold m;
    ct_status st = ct_manifold_hulls(&c->f.hc, &c->f.xc, &c->box, x, 1, NULL, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status xs_rounded_a(badctx *c, const ct_xform *x, int *cl) {
    ct_manifold m;
    ct_status st = ct_manifold_rounded_hulls(&c->box, x, (ct_real)0.1, &c->f.hd, &c->f.xd, (ct_real)0.2, 1, NULL, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status xs_rounded_b(badctx *c, const ct_xform *x, int *cl) {
    ct_manifold m;
    ct_status st = ct_manifold_rounded_hulls(&c->f.hc, &c->f.xc, (ct_real)0.1, &c->box, x, (ct_real)0.2, 1, NULL, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status xs_hull_sphere(badctx *c, const ct_xform *x, int *cl) {
    ct_manifold m;
    ct_status st = ct_manifold_hull_sphere(&c->box, x, tu_vec(0.5, 0.5, 1.2), (ct_real)0.5, 1, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status xs_cylinder(badctx *c, const ct_xform *x, int *cl) {
    ct_manifold m;
    ct_status st = ct_manifold_hull_cylinder(&c->box, NULL, (ct_real)0.5, (ct_real)0.5, x, 1, NULL, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status xs_ellipsoids_a(badctx *c, const ct_xform *x, int *cl) {
    ct_pw p;
    ct_status st = ct_ellipsoids(tu_vec(1, 2, 3), x, tu_vec(1, 1, 1), &c->f.xb, NULL, &p);
    *cl = all_zero(&p, sizeof p);
    return st;
}
static ct_status xs_ellipsoids_b(badctx *c, const ct_xform *x, int *cl) {
    ct_pw p;
    ct_status st = ct_ellipsoids(tu_vec(1, 2, 3), &c->f.xa, tu_vec(1, 1, 1), x, NULL, &p);
    *cl = all_zero(&p, sizeof p);
    return st;
}
static ct_status xs_pfc_warm_a(badctx *c, const ct_xform *x, int *cl) {
    ct_contact k;
    ct_contact_cache cache;
    ct_status st;
    memset(&cache, 0, sizeof cache);
    st = ct_contact_hulls_warm(&c->f.hc, x, &c->f.hd, &c->f.xd, &cache, NULL, &k);
    *cl = contact_cleared(&k) && cache.count == 0;
    ct_contact_cache_free(&cache);
    return st;
}
static ct_status xs_pfc_warm_b(badctx *c, const ct_xform *x, int *cl) {
    ct_contact k;
    ct_contact_cache cache;
    ct_status st;
    memset(&cache, 0, sizeof cache);
    st = ct_contact_hulls_warm(&c->f.hc, &c->f.xc, &c->f.hd, x, &cache, NULL, &k);
    *cl = contact_cleared(&k) && cache.count == 0;
    ct_contact_cache_free(&cache);
    return st;
}
static ct_status xs_pfc_reduced_a(badctx *c, const ct_xform *x, int *cl) {
    ct_contact k;
    ct_status st = ct_contact_hulls_reduced(&c->f.hc, x, &c->f.hd, &c->f.xd, NULL, NULL, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status xs_pfc_rounded_b(badctx *c, const ct_xform *x, int *cl) {
    ct_contact k;
    ct_status st = ct_contact_rounded_hulls(&c->f.hc, &c->f.xc, (ct_real)0.1, &c->f.hd, x, (ct_real)0.2, 0, NULL, NULL, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status xs_pfc_ball(badctx *c, const ct_xform *x, int *cl) {
    ct_contact k;
    ct_status st = ct_contact_hull_sphere(&c->box, x, tu_vec(0.5, 0.5, 1.2), (ct_real)0.5, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status xs_pfc_facet(badctx *c, const ct_xform *x, int *cl) {
    ct_contact k;
    ct_vec3 tri[3];
    ct_status st;
    tri[0] = tu_vec(-3, -3, 0.2); tri[1] = tu_vec(3, -3, 0.3); tri[2] = tu_vec(0, 3, 0.1);
    st = ct_contact_facet_hull(tri, &c->f.hd, x, 0, NULL, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status xs_pfc_wall(badctx *c, const ct_xform *x, int mesh, int *cl) {
    ct_wall_contacts out;
    ct_status st;
    ct_wall_contacts_init(&out, NULL);
    st = mesh ? ct_contact_mesh_hull(&c->f.mesh, x, &c->f.hc, &c->f.xw, NULL, &out)
              : ct_contact_mesh_hull(&c->f.mesh, NULL, &c->f.hc, x, NULL, &out);
    *cl = out.count == 0;
    ct_wall_contacts_free(&out);
    return st;
}
static ct_status xs_pfc_wall_m(badctx *c, const ct_xform *x, int *cl) { return xs_pfc_wall(c, x, 1, cl); }
static ct_status xs_pfc_wall_b(badctx *c, const ct_xform *x, int *cl) { return xs_pfc_wall(c, x, 0, cl); }
static const struct { const char *name; xform_slot fn; } XFORM_SLOTS[] = {
    { "ct_gjk xa", xs_gjk_a }, { "ct_gjk xb", xs_gjk_b },
    { "ct_signed_distance xa", xs_sd_a }, { "ct_signed_distance xb", xs_sd_b },
    { "ct_intersect xa", xs_intersect_a }, { "ct_intersect xb", xs_intersect_b },
    { "ct_contact_hulls xa", xs_contact_a }, { "ct_contact_hulls xb", xs_contact_b },
    { "ct_manifold_hulls xa", xs_manifold_a }, { "ct_manifold_hulls xb", xs_manifold_b },
    { "ct_manifold_rounded_hulls xa", xs_rounded_a }, { "ct_manifold_rounded_hulls xb", xs_rounded_b },
    { "ct_manifold_hull_sphere xa", xs_hull_sphere }, { "ct_manifold_hull_cylinder xb", xs_cylinder },
    { "ct_ellipsoids xa", xs_ellipsoids_a }, { "ct_ellipsoids xb", xs_ellipsoids_b },
    { "ct_contact_hulls_warm xa", xs_pfc_warm_a }, { "ct_contact_hulls_warm xb", xs_pfc_warm_b },
    { "ct_contact_hulls_reduced xa", xs_pfc_reduced_a }, { "ct_contact_rounded_hulls xb", xs_pfc_rounded_b },
    { "ct_contact_hull_sphere xa", xs_pfc_ball }, { "ct_contact_facet_hull xb", xs_pfc_facet },
    { "ct_contact_mesh_hull xm", xs_pfc_wall_m }, { "ct_contact_mesh_hull xb", xs_pfc_wall_b },
};

static void badctx_init(badctx *c) {
    memset(c, 0, sizeof *c);
    fixture_init(&c->f);
    cr_assert_eq(ct_hull_box(tu_vec(1, 1, 1), NULL, &c->box), CT_OK);
    tu_alloc_init(&c->count, 0);
    hd_route = &c->count;
}
static void badctx_free(badctx *c) {
    hd_route = NULL;
    cr_assert_gt(c->count.calls, 0, "the calls allocated nothing: the leak check is empty");
    cr_assert_eq(c->count.outstanding, 0, "%ld blocks leaked", c->count.outstanding);
    fixture_free(&c->f);
    ct_hull_free(&c->box);
}

Test(hardening, bad_transforms_every_entry_point) {
    badctx c;
    int s, i, cl;
    ct_xform x;
    badctx_init(&c);
    for (s = 0; s < (int)(sizeof XFORM_SLOTS / sizeof XFORM_SLOTS[0]); ++s) {
        /* the slot works with a valid transform and with NULL (identity) */
        x = xf(0.3, 1, 0.2, 0.4, 0.1, 0.2, 0.3);
        cr_assert_eq(XFORM_SLOTS[s].fn(&c, &x, &cl), CT_OK, "%s: valid transform", XFORM_SLOTS[s].name);
        cr_assert_eq(XFORM_SLOTS[s].fn(&c, NULL, &cl), CT_OK, "%s: NULL transform", XFORM_SLOTS[s].name);
        for (i = 0; bad_xform(i, &x); ++i) {
            EXPECT(&c, XFORM_SLOTS[s].fn(&c, &x, &cl), CT_INVALID, "%s: bad transform %d accepted", XFORM_SLOTS[s].name, i);
            cr_assert(cl, "%s: outputs not zeroed for bad transform %d", XFORM_SLOTS[s].name, i);
        }
    }
    /* transforms from the constructors are valid whatever they are given: a zero or
       non-finite quaternion or axis gives the identity rotation */
    {
        ct_real q0[4] = { 0, 0, 0, 0 }, qn[4] = { NAN, 0, 0, 1 }, qi[4] = { INFINITY, 0, 0, 1 };
        ct_xform y;
        y = ct_xform_from_quat(q0, tu_vec(1, 2, 3)); cr_assert(ct__xf_valid(&y) && y.r[0][0] == 1 && y.p.z == 3); c.cases++;
        y = ct_xform_from_quat(qn, tu_vec(1, 2, 3)); cr_assert(ct__xf_valid(&y) && y.r[1][1] == 1); c.cases++;
        y = ct_xform_from_quat(qi, tu_vec(1, 2, 3)); cr_assert(ct__xf_valid(&y) && y.r[2][2] == 1); c.cases++;
        y = ct_xform_from_quat(NULL, tu_vec(1, 2, 3)); cr_assert(ct__xf_valid(&y) && y.r[2][2] == 1); c.cases++;
        y = ct_xform_from_axis_angle(tu_vec(0, 0, 0), 1, tu_vec(0, 0, 0)); cr_assert(ct__xf_valid(&y) && y.r[0][0] == 1); c.cases++;
        y = ct_xform_from_axis_angle(tu_vec(NAN, 0, 1), 1, tu_vec(0, 0, 0)); cr_assert(ct__xf_valid(&y) && y.r[0][0] == 1); c.cases++;
        y = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)1e30, tu_vec(0, 0, 0)); cr_assert(ct__xf_valid(&y)); c.cases++;
        y = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)NAN, tu_vec(0, 0, 0)); cr_assert(ct__xf_valid(&y) && y.r[0][0] == 1); c.cases++;
        y = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)INFINITY, tu_vec(0, 0, 0)); cr_assert(ct__xf_valid(&y) && y.r[0][0] == 1); c.cases++;
    }
    /* a finite translation near the end of the range is valid (the finiteness test summed the
       entries, and three of 1.7e308 overflowed: CT_INVALID), and GJK measures at it: spheres of
       radius 2^(E-17) at 2^(E-1) and 2^(E-1) - 2^(E-14), E the largest exponent */
    {
        int E = TU_FLOAT ? 128 : 1024;
        ct_real top = (ct_real)ldexp(1, E - 1), step = (ct_real)ldexp(1, E - 14), rad = (ct_real)ldexp(1, E - 17);
        ct_xform y = ct_xform_identity(), z = ct_xform_identity();
        ct_shape sp = ct_shape_sphere(rad);
        ct_distance dd;
        ct_status st;
        y.p = tu_vec((double)top, (double)top, (double)top);
        z.p = tu_vec((double)(top - step), (double)top, (double)top);
        cr_assert(ct__xf_valid(&y) && ct__xf_valid(&z)); c.cases++;
        st = ct_gjk(&sp, &y, &sp, &z, NULL, &dd);
        cr_assert_eq(st, CT_OK, "%s", ct_status_string(st));
        cr_assert(fabs((double)dd.distance / ldexp(6, E - 17) - 1) < 1e-3, "distance %g", (double)dd.distance);
        c.cases++;
    }
    printf("hardening: %d bad-transform cases\n", c.cases);
    badctx_free(&c);
}

/* Inputs with coordinates: each slot poisons coordinate `pos` with value v. */
typedef ct_status (*coord_slot)(badctx *c, int pos, ct_real v, int *cleared);
/* the first n points of the fixture with coordinate pos poisoned */
static ct_status hull_build_poisoned(badctx *c, int n, int pos, ct_real v, int *cl) {
    ct_vec3 p[9];
    ct_hull h;
    ct_status st;
    memcpy(p, c->f.pc, sizeof p);
    set_coord(&p[pos / 3], pos % 3, v);
    st = ct_hull_build(p, n, NULL, NULL, &h);
    *cl = all_zero(&h, sizeof h);
    ct_hull_free(&h);
    return st;
}
static ct_status cs_hull_build(badctx *c, int pos, ct_real v, int *cl) { return hull_build_poisoned(c, 9, pos, v, cl); }
static ct_status cs_hull_build_small(badctx *c, int pos, ct_real v, int *cl) { /* fewer than 4 points */
    return hull_build_poisoned(c, 3, pos, v, cl);
}
static ct_status cs_hull_eps(badctx *c, int pos, ct_real v, int *cl) {
    ct_hull h;
    ct_hull_desc d;
    ct_status st;
    (void)pos;
    memset(&d, 0, sizeof d);
    d.eps = v;
    st = ct_hull_build(c->f.pc, 40, &d, NULL, &h);
    *cl = all_zero(&h, sizeof h);
    ct_hull_free(&h);
    return st;
}
static ct_status cs_hull_box(badctx *c, int pos, ct_real v, int *cl) {
    ct_vec3 half = tu_vec(1, 2, 3);
    ct_hull h;
    ct_status st;
    (void)c;
    set_coord(&half, pos, v);
    st = ct_hull_box(half, NULL, &h);
    *cl = all_zero(&h, sizeof h);
    ct_hull_free(&h);
    return st;
}
/* a shape made with a poisoned parameter, queried by both GJK entry points from both sides */
static ct_status shape_query(badctx *c, ct_shape s, int *cl) {
    ct_shape ok = ct_shape_hull(&c->f.hc);
    ct_distance d;
    ct_status st[4];
    int i, z = 1;
    st[0] = ct_gjk(&s, NULL, &ok, &c->f.xc, NULL, &d); z &= all_zero(&d, sizeof d);
    st[1] = ct_gjk(&ok, &c->f.xc, &s, NULL, NULL, &d); z &= all_zero(&d, sizeof d);
    st[2] = ct_signed_distance(&s, NULL, &ok, &c->f.xc, NULL, NULL, &d); z &= all_zero(&d, sizeof d);
    st[3] = ct_signed_distance(&ok, &c->f.xc, &s, NULL, NULL, NULL, &d); z &= all_zero(&d, sizeof d);
    *cl = z;
    for (i = 1; i < 4; ++i)
        if (st[i] != st[0]) return (ct_status)-1;   /* disagreement between the four calls */
    return st[0];
}
static ct_status cs_shape_points(badctx *c, int pos, ct_real v, int *cl) {
    ct_vec3 p[5];
    memcpy(p, c->f.pd, sizeof p);
    set_coord(&p[pos / 3], pos % 3, v);
    return shape_query(c, ct_shape_points(p, 5), cl);
}
static ct_status cs_shape_triangle(badctx *c, int pos, ct_real v, int *cl) {
    ct_vec3 p[3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } };
    set_coord(&p[pos / 3], pos % 3, v);
    return shape_query(c, ct_shape_triangle(p[0], p[1], p[2]), cl);
}
static ct_status cs_shape_box(badctx *c, int pos, ct_real v, int *cl) {
    ct_vec3 h = tu_vec(1, 2, 3);
    set_coord(&h, pos, v);
    return shape_query(c, ct_shape_box(h), cl);
}
static ct_status cs_shape_ellipsoid(badctx *c, int pos, ct_real v, int *cl) {
    ct_vec3 h = tu_vec(1, 2, 3);
    set_coord(&h, pos, v);
    return shape_query(c, ct_shape_ellipsoid(h), cl);
}
static ct_status cs_shape_sphere(badctx *c, int pos, ct_real v, int *cl) { (void)pos; return shape_query(c, ct_shape_sphere(v), cl); }
static ct_status cs_shape_rounded(badctx *c, int pos, ct_real v, int *cl) {
    (void)pos;
    return shape_query(c, ct_shape_rounded(ct_shape_box(tu_vec(1, 1, 1)), v), cl);
}
static void poison_support(const void *user, const ct_vec3 *dir, ct_vec3 *out) {
    const ct_real *v = (const ct_real *)user;
    out->x = dir->x > 0 ? 1 : -1;
    out->y = dir->y > 0 ? 1 : -1;
    out->z = dir->z > 0 ? 1 : -1;
    set_coord(out, (int)v[1], v[0]);
}
static ct_status cs_shape_support(badctx *c, int pos, ct_real v, int *cl) {
    ct_real user[2];
    user[0] = v;
    user[1] = (ct_real)pos;
    return shape_query(c, ct_shape_support(poison_support, user), cl);
}
static ct_status cs_manifold_spec(badctx *c, int pos, ct_real v, int *cl) {
    ct_manifold m;
    ct_status st;
    (void)pos;
    st = ct_manifold_hulls(&c->box, NULL, &c->f.hc, &c->f.xc, v, NULL, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status cs_rounded(badctx *c, int pos, ct_real v, int *cl) {   /* ra, rb, speculative */
    ct_manifold m;
    ct_real r[3] = { (ct_real)0.1, (ct_real)0.2, 1 };
    ct_status st;
    r[pos] = v;
    st = ct_manifold_rounded_hulls(&c->box, NULL, r[0], &c->f.hc, &c->f.xc, r[1], r[2], NULL, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status cs_hull_sphere(badctx *c, int pos, ct_real v, int *cl) {   /* centre x,y,z, radius, speculative */
    ct_manifold m;
    ct_vec3 ctr = tu_vec(0.5, 0.5, 1.2);
    ct_real r = (ct_real)0.5, spec = 1;
    ct_status st;
    if (pos < 3) set_coord(&ctr, pos, v);
    else if (pos == 3) r = v;
    else spec = v;
    st = ct_manifold_hull_sphere(&c->box, NULL, ctr, r, spec, &m);
    *cl = all_zero(&m, sizeof m);
    return st;
}
static ct_status cs_ellipsoids(badctx *c, int pos, ct_real v, int *cl) {  /* semi_a, semi_b, lambda */
    ct_vec3 sa = tu_vec(1, 2, 3), sb = tu_vec(1, 1, 2);
    ct_real lam = (ct_real)0.5;
    ct_pw p;
    ct_status st;
    if (pos < 3) set_coord(&sa, pos, v);
    else if (pos < 6) set_coord(&sb, pos - 3, v);
    else lam = v;
    st = ct_ellipsoids(sa, &c->f.xa, sb, &c->f.xb, pos == 6 ? &lam : NULL, &p);
    *cl = all_zero(&p, sizeof p);
    return st;
}
/* the broad phase: coordinate pos of box 7 (lo x,y,z then hi x,y,z) in each entry point */
static void poison_box(ct_aabb *b, int pos, ct_real v) {
    if (pos < 3) set_coord(&b->lo, pos, v);
    else set_coord(&b->hi, pos - 3, v);
}
static ct_status bp_all(badctx *c, int pos, ct_real v, int *cl) {
    ct_aabb *b = (ct_aabb *)malloc(sizeof(ct_aabb) * 200);
    ct_pairs p;
    ct_status st[4];
    visits vs;
    int i, z = 1;
    memcpy(b, c->f.boxes, sizeof(ct_aabb) * 200);
    poison_box(&b[7], pos, v);
    st[0] = ct_broadphase(b, 200, NULL, &p); z &= p.items == NULL && p.count == 0; ct_pairs_free(&p);
    st[1] = ct_broadphase_bipartite(b, 100, b + 100, 100, NULL, &p); z &= p.items == NULL && p.count == 0; ct_pairs_free(&p);
    st[2] = ct_broadphase_bipartite(b + 100, 100, b, 100, NULL, &p); z &= p.items == NULL && p.count == 0; ct_pairs_free(&p);
    vs.n = 200;
    vs.seen = (unsigned char *)calloc(200 * 200, 1);
    st[3] = ct_broadphase_foreach(b, 200, visit_fn, &vs);
    z &= all_zero(vs.seen, 200 * 200);
    free(vs.seen);
    free(b);
    *cl = z;
    for (i = 1; i < 4; ++i)
        if (st[i] != st[0]) return (ct_status)-1;
    return st[0];
}

static ct_status cs_pfc_radii(badctx *c, int pos, ct_real v, int *cl) {   /* ra, rb */
    ct_contact k;
    ct_real r[2] = { (ct_real)0.1, (ct_real)0.2 };
    ct_status st;
    r[pos] = v;
    st = ct_contact_rounded_hulls(&c->f.hc, &c->f.xc, r[0], &c->f.hd, &c->f.xd, r[1], pos, NULL, NULL, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status cs_pfc_ball(badctx *c, int pos, ct_real v, int *cl) {   /* centre x,y,z, radius */
    ct_contact k;
    ct_vec3 ctr = tu_vec(0.5, 0.5, 1.2);
    ct_real r = (ct_real)0.5;
    ct_status st;
    if (pos < 3) set_coord(&ctr, pos, v);
    else r = v;
    st = ct_contact_hull_sphere(&c->box, NULL, ctr, r, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status cs_pfc_facet(badctx *c, int pos, ct_real v, int *cl) {   /* the 9 corner coordinates */
    ct_contact k;
    ct_vec3 tri[3];
    ct_status st;
    tri[0] = tu_vec(-3, -3, 0.2); tri[1] = tu_vec(3, -3, 0.3); tri[2] = tu_vec(0, 3, 0.1);
    {   /* moved by v: a poison stays a poison, the valid value keeps a proper triangle */
        ct_vec3 *q = &tri[pos / 3];
        set_coord(q, pos % 3, (pos % 3 == 0 ? q->x : pos % 3 == 1 ? q->y : q->z) + v);
    }
    st = ct_contact_facet_hull(tri, &c->f.hd, &c->f.xd, pos % 2, NULL, &k);
    *cl = contact_cleared(&k);
    return st;
}
static ct_status cs_pfc_erode(badctx *c, int pos, ct_real v, int *cl) {   /* radius */
    ct_hull h;
    ct_status st = ct_hull_erode(&c->f.hd, v, NULL, &h);
    (void)pos;
    *cl = all_zero(&h, sizeof h);
    ct_hull_free(&h);
    if (st == CT_OK && !(ct_hull_rounded_volume(&c->f.hd, v) > 0)) return (ct_status)-1;
    if (st == CT_INVALID && ct_hull_rounded_volume(&c->f.hd, v) != -1) return (ct_status)-1;   /* the same verdict */
    return st;
}
static ct_status cs_pfc_mass(badctx *c, int pos, ct_real v, int *cl) {   /* radius, density */
    ct_real m = 1, I[3][3];
    ct_vec3 g = tu_vec(1, 1, 1);
    ct_status st = ct_hull_rounded_mass(&c->f.hd, pos == 0 ? v : (ct_real)0.1, pos == 1 ? v : 2, &m, &g, I);
    *cl = m == 0 && g.x == 0 && g.y == 0 && g.z == 0 && all_zero(I, sizeof I);
    return st;
}

/* pos count, poison values accepted, expected status */
typedef struct coord_case {
    const char *name;
    coord_slot fn;
    int npos;
    int negative_is_bad;   /* also try -1 (a negative size / tolerance) */
    int zero_is_bad;       /* also try 0 */
    double ok;             /* a valid value at positions < ok_npos: the call then succeeds, */
    int ok_npos;           /* so the poisoned calls fail because of the poison alone */
    ct_status ok_status;
} coord_case;
static const coord_case COORD_CASES[] = {
    { "ct_hull_build points", cs_hull_build, 27, 0, 0, 0.1, 27, CT_OK },
    { "ct_hull_build 3 points", cs_hull_build_small, 9, 0, 0, 0.1, 9, CT_DEGENERATE },
    { "ct_hull_desc eps", cs_hull_eps, 1, 1, 0, 0, 1, CT_OK },
    { "ct_hull_box half", cs_hull_box, 3, 1, 1, 0.5, 3, CT_OK },
    { "ct_shape_points", cs_shape_points, 15, 0, 0, 0.1, 15, CT_OK },
    { "ct_shape_triangle", cs_shape_triangle, 9, 0, 0, 0.5, 9, CT_OK },
    { "ct_shape_box half", cs_shape_box, 3, 1, 0, 0.5, 3, CT_OK },
    { "ct_shape_ellipsoid semi-axes", cs_shape_ellipsoid, 3, 1, 0, 0.5, 3, CT_OK },
    { "ct_shape_sphere radius", cs_shape_sphere, 1, 1, 0, 0.5, 1, CT_OK },
    { "ct_shape_rounded radius", cs_shape_rounded, 1, 1, 0, 0.5, 1, CT_OK },
    { "ct_shape_support output", cs_shape_support, 3, 0, 0, 1, 3, CT_OK },
    { "ct_manifold_hulls speculative", cs_manifold_spec, 1, 1, 0, 0.5, 1, CT_OK },
    { "ct_manifold_rounded_hulls ra/rb/speculative", cs_rounded, 3, 1, 0, 0.5, 3, CT_OK },
    { "ct_manifold_hull_sphere centre/radius/speculative", cs_hull_sphere, 5, 0, 0, 0.6, 5, CT_OK },
    { "ct_ellipsoids semi-axes/lambda", cs_ellipsoids, 7, 0, 0, 0.7, 7, CT_OK },
    { "ct_broadphase/_bipartite/_foreach box", bp_all, 6, 0, 0, -1, 3, CT_OK },
    { "ct_contact_rounded_hulls ra/rb", cs_pfc_radii, 2, 1, 0, 0.1, 2, CT_OK },
    { "ct_contact_hull_sphere centre/radius", cs_pfc_ball, 4, 0, 0, 0.6, 4, CT_OK },
    { "ct_contact_facet_hull corners", cs_pfc_facet, 9, 0, 0, 0.2, 9, CT_OK },
    { "ct_hull_erode/ct_hull_rounded_volume radius", cs_pfc_erode, 1, 1, 0, 0.05, 1, CT_OK },
    { "ct_hull_rounded_mass radius/density", cs_pfc_mass, 2, 0, 0, 0.05, 2, CT_OK },
};

Test(hardening, nan_inf_negative_every_coordinate_position) {
    badctx c;
    int k, pos, j, cl;
    badctx_init(&c);
    for (k = 0; k < (int)(sizeof COORD_CASES / sizeof COORD_CASES[0]); ++k) {
        const coord_case *cc = &COORD_CASES[k];
        for (pos = 0; pos < cc->npos; ++pos) {
            if (pos < cc->ok_npos)
                cr_assert_eq(cc->fn(&c, pos, (ct_real)cc->ok, &cl), cc->ok_status, "%s: valid value %g at %d", cc->name, cc->ok, pos);
            for (j = 0; j < 3; ++j) {
                EXPECT(&c, cc->fn(&c, pos, (ct_real)POISON[j], &cl), CT_INVALID, "%s: %g at position %d", cc->name, POISON[j], pos);
                cr_assert(cl, "%s: outputs not cleared (%g at %d)", cc->name, POISON[j], pos);
            }
            if (cc->negative_is_bad) {
                EXPECT(&c, cc->fn(&c, pos, -1, &cl), CT_INVALID, "%s: -1 at position %d", cc->name, pos);
                cr_assert(cl);
            }
            if (cc->zero_is_bad) {
                EXPECT(&c, cc->fn(&c, pos, 0, &cl), CT_INVALID, "%s: 0 at position %d", cc->name, pos);
                cr_assert(cl);
            }
        }
    }
    /* the documented negatives that are not a coordinate poisoning */
    for (pos = 0; pos < 3; ++pos) {   /* ct_ellipsoids: a semi-axis <= 0 */
        EXPECT(&c, cs_ellipsoids(&c, pos, -1, &cl), CT_INVALID, "semi_a %d negative", pos); cr_assert(cl);
        EXPECT(&c, cs_ellipsoids(&c, pos, 0, &cl), CT_INVALID, "semi_a %d zero", pos); cr_assert(cl);
        EXPECT(&c, cs_ellipsoids(&c, pos + 3, -1, &cl), CT_INVALID, "semi_b %d negative", pos); cr_assert(cl);
        EXPECT(&c, cs_ellipsoids(&c, pos + 3, 0, &cl), CT_INVALID, "semi_b %d zero", pos); cr_assert(cl);
        /* the broad phase: lo > hi on an axis */
        EXPECT(&c, bp_all(&c, pos, 2, &cl), CT_INVALID, "box lo > hi on axis %d", pos); cr_assert(cl);
    }
    EXPECT(&c, cs_hull_sphere(&c, 3, -1, &cl), CT_INVALID, "negative sphere radius"); cr_assert(cl);
    EXPECT(&c, cs_hull_sphere(&c, 4, -1, &cl), CT_INVALID, "negative speculative"); cr_assert(cl);
    EXPECT(&c, cs_pfc_ball(&c, 3, -1, &cl), CT_INVALID, "negative ball radius"); cr_assert(cl);
    EXPECT(&c, cs_pfc_mass(&c, 0, -1, &cl), CT_INVALID, "negative rounding radius"); cr_assert(cl);
    {   /* rounded hulls: finite radii and speculative distance whose sum overflows */
        ct_manifold m;
        const ct_real big = (ct_real)(TU_FLOAT ? 2e38 : 1e308);
        EXPECT(&c, ct_manifold_rounded_hulls(&c.box, NULL, big, &c.f.hc, &c.f.xc, big, 0, NULL, &m), CT_INVALID, "ra + rb overflows");
        cr_assert(all_zero(&m, sizeof m));
        EXPECT(&c, ct_manifold_rounded_hulls(&c.box, NULL, big, &c.f.hc, &c.f.xc, 0, big, NULL, &m), CT_INVALID, "ra + speculative overflows");
        cr_assert(all_zero(&m, sizeof m));
        EXPECT(&c, ct_manifold_rounded_hulls(&c.box, NULL, 0, &c.f.hc, &c.f.xc, 0, 0, NULL, &m), CT_OK, "zero radii are hulls");
    }
    {   /* a rounded shape whose total radius is negative */
        ct_shape s = ct_shape_rounded(ct_shape_sphere(1), -2);
        EXPECT(&c, shape_query(&c, s, &cl), CT_INVALID, "net negative radius"); cr_assert(cl);
    }
    /* zero sizes are valid points/segments for GJK (documented: negative or NaN sizes are bad) */
    EXPECT(&c, cs_shape_box(&c, 0, 0, &cl), CT_OK, "a flat box is a valid convex set");
    EXPECT(&c, cs_shape_sphere(&c, 0, 0, &cl), CT_OK, "a zero sphere is a point");
    printf("hardening: %d NaN/Inf/negative coordinate cases\n", c.cases);
    badctx_free(&c);
}

/* NULL pointers, counts, degenerate sets, harmless NULLs. */
Test(hardening, null_counts_and_degenerate_sets) {
    badctx c;
    ct_hull h;
    ct_distance d;
    ct_contact k;
    ct_manifold m;
    ct_pw pw;
    ct_pairs p;
    ct_shape ok, bad;
    ct_vec3 pts[8], w;
    int i, n;
    badctx_init(&c);
    ok = ct_shape_hull(&c.f.hc);
    /* hull */
    EXPECT(&c, ct_hull_build(c.f.pc, 40, NULL, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_hull_build(NULL, 40, NULL, NULL, &h), CT_INVALID, "NULL points"); cr_assert(all_zero(&h, sizeof h));
    for (n = -3; n < 0; ++n) { EXPECT(&c, ct_hull_build(c.f.pc, n, NULL, NULL, &h), CT_INVALID, "count %d", n); cr_assert(all_zero(&h, sizeof h)); }
    for (n = 0; n < 4; ++n) { EXPECT(&c, ct_hull_build(c.f.pc, n, NULL, NULL, &h), CT_DEGENERATE, "count %d", n); cr_assert(all_zero(&h, sizeof h)); }
    EXPECT(&c, ct_hull_build(NULL, 0, NULL, NULL, &h), CT_DEGENERATE, "no points");
    EXPECT(&c, ct_hull_box(tu_vec(1, 1, 1), NULL, NULL), CT_INVALID, "NULL out");
    {   /* flat, collinear, one point repeated, four coplanar points, a slab within rounding */
        const double t = 4 * (double)TU_EPS;
        for (i = 0; i < 8; ++i) pts[i] = tu_vec(i & 1, (i >> 1) & 1, 0);
        EXPECT(&c, ct_hull_build(pts, 8, NULL, NULL, &h), CT_DEGENERATE, "flat");
        for (i = 0; i < 8; ++i) pts[i] = tu_vec(1 + i, 2 + 2 * i, -3 * i);
        EXPECT(&c, ct_hull_build(pts, 8, NULL, NULL, &h), CT_DEGENERATE, "collinear");
        for (i = 0; i < 8; ++i) pts[i] = tu_vec(1e3, -2, 7);
        EXPECT(&c, ct_hull_build(pts, 8, NULL, NULL, &h), CT_DEGENERATE, "one point");
        for (i = 0; i < 8; ++i) pts[i] = tu_vec(i & 1, (i >> 1) & 1, (i >> 2) & 1 ? t : 0);
        EXPECT(&c, ct_hull_build(pts, 8, NULL, NULL, &h), CT_DEGENERATE, "slab within rounding");
        for (i = 0; i < 8; ++i) pts[i] = tu_vec(i % 2, i % 3 == 0, 0);
        EXPECT(&c, ct_hull_build(pts, 4, NULL, NULL, &h), CT_DEGENERATE, "4 coplanar");
        cr_assert(all_zero(&h, sizeof h));
        for (i = 0; i < 8; ++i) pts[i] = tu_vec(i % 4 == 1, i % 4 == 2, i % 4 == 3); /* duplicates of a tetrahedron */
        EXPECT(&c, ct_hull_build(pts, 8, NULL, NULL, &h), CT_OK, "duplicates are fine");
        cr_assert_eq(h.nverts, 4);
        ct_hull_free(&h);
    }
    /* shapes, GJK */
    bad = ct_shape_points(NULL, 3);     EXPECT(&c, shape_query(&c, bad, &i), CT_INVALID, "NULL points"); cr_assert(i);
    bad = ct_shape_points(c.f.pc, 0);   EXPECT(&c, shape_query(&c, bad, &i), CT_INVALID, "0 points"); cr_assert(i);
    bad = ct_shape_points(c.f.pc, -2);  EXPECT(&c, shape_query(&c, bad, &i), CT_INVALID, "-2 points"); cr_assert(i);
    bad = ct_shape_hull(NULL);          EXPECT(&c, shape_query(&c, bad, &i), CT_INVALID, "NULL hull"); cr_assert(i);
    memset(&h, 0, sizeof h);
    bad = ct_shape_hull(&h);            EXPECT(&c, shape_query(&c, bad, &i), CT_INVALID, "empty hull"); cr_assert(i);
    bad = ct_shape_support(NULL, NULL); EXPECT(&c, shape_query(&c, bad, &i), CT_INVALID, "NULL support"); cr_assert(i);
    memset(&bad, 0, sizeof bad);        EXPECT(&c, shape_query(&c, bad, &i), CT_INVALID, "zeroed shape"); cr_assert(i);
    EXPECT(&c, ct_gjk(NULL, NULL, &ok, NULL, NULL, &d), CT_INVALID, "NULL a");
    EXPECT(&c, ct_gjk(&ok, NULL, NULL, NULL, NULL, &d), CT_INVALID, "NULL b");
    EXPECT(&c, ct_gjk(&ok, NULL, &ok, NULL, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_signed_distance(NULL, NULL, &ok, NULL, NULL, NULL, &d), CT_INVALID, "NULL a");
    EXPECT(&c, ct_signed_distance(&ok, NULL, NULL, NULL, NULL, NULL, &d), CT_INVALID, "NULL b");
    EXPECT(&c, ct_signed_distance(&ok, NULL, &ok, NULL, NULL, NULL, NULL), CT_INVALID, "NULL out");
    cr_assert_eq(ct_gjk_points(NULL, 3, c.f.pd, 3, &w, NULL), -1); c.cases++;
    cr_assert_eq(ct_gjk_points(c.f.pc, 3, NULL, 3, NULL, &w), -1); c.cases++;
    cr_assert_eq(ct_gjk_points(c.f.pc, 0, c.f.pd, 3, NULL, NULL), -1); c.cases++;
    cr_assert_eq(ct_gjk_points(c.f.pc, 3, c.f.pd, -1, NULL, NULL), -1); c.cases++;
    for (i = 0; i < 6; ++i) {
        memcpy(pts, c.f.pc, sizeof pts);
        set_coord(&pts[i / 3], i % 3, (ct_real)POISON[i % 3]);
        cr_assert_eq(ct_gjk_points(pts, 8, c.f.pd, 8, NULL, NULL), -1); c.cases++;
        cr_assert_eq(ct_gjk_points(c.f.pd, 8, pts, 8, NULL, NULL), -1); c.cases++;
    }
    {   /* lower-dimensional sets are valid GJK shapes: closed-form distances to the unit box */
        ct_shape box = ct_shape_box(tu_vec(1, 1, 1)), s;
        ct_vec3 q[6];
        for (i = 0; i < 6; ++i) q[i] = tu_vec(3, 0, 0);                  /* one point, repeated */
        s = ct_shape_points(q, 6);
        EXPECT(&c, ct_signed_distance(&box, NULL, &s, NULL, NULL, NULL, &d), CT_OK, "repeated point");
        cr_assert_float_eq(d.distance, 2, 1e2 * TU_EPS);
        for (i = 0; i < 6; ++i) q[i] = tu_vec(2, -1 + 0.4 * i, 0);       /* collinear */
        s = ct_shape_points(q, 6);
        EXPECT(&c, ct_signed_distance(&box, NULL, &s, NULL, NULL, NULL, &d), CT_OK, "collinear");
        cr_assert_float_eq(d.distance, 1, 1e2 * TU_EPS);
        for (i = 0; i < 6; ++i) q[i] = tu_vec(2.5, i % 2, i / 2);        /* flat */
        s = ct_shape_points(q, 6);
        EXPECT(&c, ct_signed_distance(&box, NULL, &s, NULL, NULL, NULL, &d), CT_OK, "flat");
        cr_assert_float_eq(d.distance, 1.5, 1e2 * TU_EPS);
        s = ct_shape_box(tu_vec(0, 0.5, 0.5));                          /* a flat box */
        w = tu_vec(0.5, 0, 0);
        {
            ct_xform x = ct_xform_identity();
            x.p = w;
            EXPECT(&c, ct_signed_distance(&box, NULL, &s, &x, NULL, NULL, &d), CT_OK, "flat box inside");
            cr_assert_float_eq(d.distance, -0.5, 1e3 * TU_EPS);          /* pushed out through +x */
            cr_assert_float_eq(d.normal.x, 1, 1e3 * TU_EPS);
        }
    }
    /* polar, contact, manifold: NULL and empty hulls, NULL outputs */
    memset(&h, 0, sizeof h);
    {
        const ct_hull *hs[3] = { NULL, &h, &c.f.hd };
        int ia, ib;
        for (ia = 0; ia < 3; ++ia)
            for (ib = 0; ib < 3; ++ib) {
                ct_hull out;
                if (ia == 2 && ib == 2) continue;
                EXPECT(&c, ct_intersect(ia == 2 ? &c.f.hc : hs[ia], NULL, hs[ib], NULL, NULL, NULL, &out), CT_INVALID, "intersect %d %d", ia, ib);
                cr_assert(all_zero(&out, sizeof out));
                EXPECT(&c, ct_contact_hulls(ia == 2 ? &c.f.hc : hs[ia], NULL, hs[ib], NULL, NULL, &k), CT_INVALID, "contact %d %d", ia, ib);
                cr_assert(contact_cleared(&k));
                EXPECT(&c, ct_manifold_hulls(ia == 2 ? &c.f.hc : hs[ia], NULL, hs[ib], NULL, 0, NULL, &m), CT_INVALID, "manifold %d %d", ia, ib);
                cr_assert(all_zero(&m, sizeof m));
                EXPECT(&c, ct_manifold_rounded_hulls(ia == 2 ? &c.f.hc : hs[ia], NULL, (ct_real)0.1, hs[ib], NULL, (ct_real)0.1, 0, NULL, &m),
                       CT_INVALID, "rounded manifold %d %d", ia, ib);
                cr_assert(all_zero(&m, sizeof m));
            }
        EXPECT(&c, ct_manifold_hull_sphere(NULL, NULL, w, 1, 0, &m), CT_INVALID, "hull_sphere NULL hull");
        EXPECT(&c, ct_manifold_hull_sphere(&h, NULL, w, 1, 0, &m), CT_INVALID, "hull_sphere empty hull");
    }
    EXPECT(&c, ct_intersect(&c.f.hc, NULL, &c.f.hd, NULL, NULL, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_contact_hulls(&c.f.hc, NULL, &c.f.hd, NULL, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_manifold_hulls(&c.f.hc, NULL, &c.f.hd, NULL, 0, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_manifold_rounded_hulls(&c.f.hc, NULL, (ct_real)0.1, &c.f.hd, NULL, (ct_real)0.1, 0, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_manifold_hull_sphere(&c.f.hc, NULL, w, 1, 0, NULL), CT_INVALID, "NULL out");
    {   /* rounded hulls: a hull beyond CT_HULL_SCAN_MAX vertices without vertex adjacency */
        ct_hull bare = c.f.ha;
        cr_assert_gt(bare.nverts, CT_HULL_SCAN_MAX);
        bare.vert_first = NULL;
        EXPECT(&c, ct_manifold_rounded_hulls(&bare, NULL, (ct_real)0.1, &c.f.hd, &c.f.xd, (ct_real)0.1, 0, NULL, &m), CT_INVALID, "no vert_first");
        cr_assert(all_zero(&m, sizeof m));
        bare = c.f.ha;
        bare.vert_adj = NULL;
        EXPECT(&c, ct_manifold_rounded_hulls(&c.f.hd, &c.f.xd, (ct_real)0.1, &bare, NULL, (ct_real)0.1, 0, NULL, &m), CT_INVALID, "no vert_adj");
        cr_assert(all_zero(&m, sizeof m));
    }
    {   /* a hull from a disjoint intersection (nfaces 0) is an empty hull: invalid as input */
        ct_hull e;
        ct_xform far = xf(0, 0, 1, 0, 10, 0, 0);
        cr_assert_eq(ct_intersect(&c.f.hc, NULL, &c.f.hd, &far, NULL, NULL, &e), CT_OK);
        cr_assert_eq(e.nfaces, 0);
        EXPECT(&c, ct_contact_hulls(&e, NULL, &c.f.hd, NULL, NULL, &k), CT_INVALID, "empty intersection as input");
        EXPECT(&c, ct_manifold_hulls(&c.f.hd, NULL, &e, NULL, 0, NULL, &m), CT_INVALID, "empty intersection as input");
        EXPECT(&c, ct_manifold_rounded_hulls(&e, NULL, (ct_real)0.1, &c.f.hd, NULL, 0, 0, NULL, &m), CT_INVALID, "empty intersection as input");
        ct_hull_free(&e);
    }
    cr_assert_eq(ct_sparsify(NULL, 3, 0, 0, 0), 0); c.cases++;
    cr_assert_eq(ct_sparsify(&k, 0, 0, 0, 0), 0); c.cases++;
    cr_assert_eq(ct_sparsify(&k, -4, 0, 0, 0), 0); c.cases++;
    /* ellipsoids */
    EXPECT(&c, ct_ellipsoids(tu_vec(1, 1, 1), NULL, tu_vec(1, 1, 1), NULL, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_ellipsoids(tu_vec(1, 1, TU_FLOAT ? 1e-25 : 1e-170), NULL, tu_vec(1, 1, 1), &c.f.xb, NULL, &pw), CT_DEGENERATE,
           "a semi-axis whose square underflows");
    cr_assert(all_zero(&pw, sizeof pw) || pw.F == 0);
    {
        ct_xform far = ct_xform_identity();
        far.p.x = (ct_real)(TU_FLOAT ? 3e38 : 1.7e308);
        {
            ct_xform far2 = ct_xform_identity();
            far2.p.x = -far.p.x;
            EXPECT(&c, ct_ellipsoids(tu_vec(1, 1, 1), &far, tu_vec(1, 1, 1), &far2, NULL, &pw), CT_INVALID,
                   "centres too far apart to subtract");
            cr_assert(all_zero(&pw, sizeof pw));
        }
    }
    /* broad phase: counts and NULLs */
    for (n = -2; n < 0; ++n) {
        EXPECT(&c, ct_broadphase(c.f.boxes, n, NULL, &p), CT_INVALID, "n %d", n); cr_assert(p.items == NULL && p.count == 0);
        EXPECT(&c, ct_broadphase_bipartite(c.f.boxes, n, c.f.boxes, 3, NULL, &p), CT_INVALID, "na %d", n);
        EXPECT(&c, ct_broadphase_bipartite(c.f.boxes, 3, c.f.boxes, n, NULL, &p), CT_INVALID, "nb %d", n);
        EXPECT(&c, ct_broadphase_foreach(c.f.boxes, n, visit_fn, NULL), CT_INVALID, "foreach n %d", n);
    }
    EXPECT(&c, ct_broadphase(NULL, 5, NULL, &p), CT_INVALID, "NULL boxes");
    EXPECT(&c, ct_broadphase(c.f.boxes, 5, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_broadphase_bipartite(NULL, 5, c.f.boxes, 5, NULL, &p), CT_INVALID, "NULL A");
    EXPECT(&c, ct_broadphase_bipartite(c.f.boxes, 5, NULL, 5, NULL, &p), CT_INVALID, "NULL B");
    EXPECT(&c, ct_broadphase_bipartite(c.f.boxes, 5, c.f.boxes, 5, NULL, NULL), CT_INVALID, "NULL out");
    EXPECT(&c, ct_broadphase_foreach(NULL, 5, visit_fn, NULL), CT_INVALID, "NULL boxes");
    EXPECT(&c, ct_broadphase_foreach(c.f.boxes, 5, NULL, NULL), CT_INVALID, "NULL fn");
    EXPECT(&c, ct_broadphase(NULL, 0, NULL, &p), CT_OK, "no boxes"); cr_assert(p.count == 0 && p.items == NULL);
    EXPECT(&c, ct_broadphase_bipartite(NULL, 0, c.f.boxes, 5, NULL, &p), CT_OK, "empty A"); cr_assert(p.count == 0);
    EXPECT(&c, ct_broadphase_foreach(NULL, 0, visit_fn, NULL), CT_OK, "no boxes");
    /* harmless NULLs and empties */
    ct_hull_free(NULL);
    ct_pairs_free(NULL);
    ct_scratch_init(NULL, NULL);
    ct_scratch_release(NULL);
    memset(&h, 0, sizeof h);
    ct_hull_free(&h);
    cr_assert_eq(ct_hull_volume(NULL, &w), 0); cr_assert(w.x == 0 && w.y == 0 && w.z == 0); c.cases++;
    {
        ct_real mass = 1, I[3][3];
        ct_aabb b = ct_hull_aabb(NULL, NULL);
        memset(I, 1, sizeof I);
        ct_hull_mass(NULL, 1, &mass, &w, I);
        cr_assert(mass == 0 && all_zero(I, sizeof I)); c.cases++;
        ct_hull_mass(&c.f.hc, (ct_real)NAN, &mass, NULL, I);
        cr_assert(mass == 0 && all_zero(I, sizeof I), "NaN density gives zero mass"); c.cases++;
        cr_assert(b.lo.x == 0 && b.hi.z == 0); c.cases++;
    }
    cr_assert_str_eq(ct_status_string((ct_status)99), "unknown status"); c.cases++;
    printf("hardening: %d NULL/count/degenerate cases\n", c.cases);
    badctx_free(&c);
}

/* Touching contacts at three scales: face, edge and vertex contact of two boxes, sphere on a
   face, tangent spheres, touching boxes in the broad phase. Documented: ct_intersect CT_OK and
   nfaces == 0; ct_contact_hulls found = 1, gap = 0, volume = 0, area = the touching polygon's
   (0 for an edge or vertex), normal the separating direction; ct_gjk / ct_signed_distance
   distance 0 up to rounding with a finite unit normal; manifolds with separation 0 up to
   rounding; ct_ellipsoids F = 1, gap = 0; the broad phase counts touching boxes.
   Rounded hulls: the same face, edge and vertex contacts of rounded boxes (cores of half
   0.75 s, radii 0.25 s each, the cores apart by exactly ra + rb: the closed-form box path) and
   a rounded octahedron's vertex on the face (the GJK path) touch with separation 0, the face
   normal, points on the touching plane; radii 0 give ct_manifold_hulls' answer bit for bit. */
static ct_xform touching_pose(int kind, double s) {
    /* B is a box of half s; kind 0: face on A's +x face; 1: a vertical edge on it (45 deg about
       z); 2: a vertex on it (the body diagonal turned onto -x) */
    ct_xform x = ct_xform_identity();
    if (kind == 1) x = xf(0, 0, 1, CT__PI / 4, 0, 0, 0);
    if (kind == 2) {
        /* rotate (1,1,1)/sqrt3 onto (-1,0,0): axis (1,1,1) x (-1,0,0) = (0,-1,1) */
        x = xf(0, -1, 1, acos(-1 / sqrt(3.0)), 0, 0, 0);
    }
    x.p = tu_vec(s * (kind == 0 ? 2 : kind == 1 ? 1 + sqrt(2.0) : 1 + sqrt(3.0)), 0, 0);
    return x;
}

Test(hardening, touching_contacts) {
    static const double scales[3] = { 1e-3, 1, 1e3 };
    int si, kind, cases = 0;
    for (si = 0; si < 3; ++si) {
        double s = scales[si], tol = 1e3 * (double)TU_EPS * s;
        ct_hull A, B;
        cr_assert_eq(ct_hull_box(sv(1, 1, 1, s), NULL, &A), CT_OK);
        cr_assert_eq(ct_hull_box(sv(1, 1, 1, s), NULL, &B), CT_OK);
        for (kind = 0; kind < 3; ++kind) {
            ct_xform xb = touching_pose(kind, s);
            ct_hull I;
            ct_contact c;
            ct_distance d;
            ct_manifold m;
            ct_shape sa = ct_shape_hull(&A), sb = ct_shape_hull(&B);
            int i;
            cr_assert_eq(ct_intersect(&A, NULL, &B, &xb, NULL, NULL, &I), CT_OK);
            cr_assert_eq(I.nfaces, 0, "scale %g kind %d: touching has no volume", s, kind);
            ct_hull_free(&I);
            cr_assert_eq(ct_contact_hulls(&A, NULL, &B, &xb, NULL, &c), CT_OK);
            cr_assert(c.found, "scale %g kind %d: touching is a contact", s, kind);
            cr_assert(c.gap == 0 && c.volume == 0);
            cr_assert_float_eq(c.normal.x, 1, 1e3 * TU_EPS, "scale %g kind %d", s, kind);
            cr_assert_float_eq(c.area, kind == 0 ? 4 * s * s : 0, 1e3 * TU_EPS * s * s, "scale %g kind %d: area %g", s, kind, (double)c.area);
            cr_assert(fabs(c.point.x - s) <= tol, "contact point on the touching plane");
            cr_assert_eq(ct_gjk(&sa, NULL, &sb, &xb, NULL, &d), CT_OK);
            cr_assert_leq(fabs(d.distance), tol);
            cr_assert_eq(ct_signed_distance(&sa, NULL, &sb, &xb, NULL, NULL, &d), CT_OK);
            cr_assert_leq(fabs(d.distance), tol, "scale %g kind %d: %g", s, kind, (double)d.distance);
            cr_assert(ct__finite3(d.normal) && fabs(ct__len(d.normal) - 1) <= 1e2 * TU_EPS);
            cr_assert_gt(d.normal.x, 1 - 1e2 * TU_EPS);
            /* a speculative margin of the rounding the poses carry (the 45-degree pose is not exact) */
            cr_assert_eq(ct_manifold_hulls(&A, NULL, &B, &xb, (ct_real)tol, NULL, &m), CT_OK);
            cr_assert_eq(m.count, kind == 0 ? 4 : kind == 1 ? 2 : 1, "scale %g kind %d: %d points", s, kind, m.count);
            for (i = 0; i < m.count; ++i) cr_assert_leq(fabs(m.points[i].separation), tol);
            cr_assert_float_eq(m.normal.x, 1, 1e2 * TU_EPS);
            {   /* radii 0: ct_manifold_hulls bit for bit */
                ct_manifold m0;
                cr_assert_eq(ct_manifold_rounded_hulls(&A, NULL, 0, &B, &xb, 0, (ct_real)tol, NULL, &m0), CT_OK);
                cr_assert(memcmp(&m0, &m, sizeof m) == 0, "scale %g kind %d: radii 0 differ from ct_manifold_hulls", s, kind);
            }
            cases += 6;
        }
        {   /* rounded: box cores of half h = 0.75 s, radii 0.25 s; kind 3: an octahedron core */
            const double rho = 0.25, hc = (1 - rho) * s;
            ct_vec3 oct[6];
            ct_hull CA, CB[2];
            int i;
            cr_assert_eq(ct_hull_box(sv(1, 1, 1, hc), NULL, &CA), CT_OK);
            cr_assert_eq(ct_hull_box(sv(1, 1, 1, hc), NULL, &CB[0]), CT_OK);
            for (i = 0; i < 6; ++i) oct[i] = tu_vec(i == 0 ? hc : i == 1 ? -hc : 0, i == 2 ? hc : i == 3 ? -hc : 0, i == 4 ? hc : i == 5 ? -hc : 0);
            cr_assert_eq(ct_hull_build(oct, 6, NULL, NULL, &CB[1]), CT_OK);
            for (kind = 0; kind < 4; ++kind) {
                ct_xform xb = kind < 3 ? touching_pose(kind, hc) : ct_xform_identity();
                ct_manifold m;
                int j;
                if (kind == 3) xb.p.x = (ct_real)(2 * hc);
                xb.p.x += (ct_real)(2 * rho * s);   /* the cores apart by ra + rb */
                cr_assert_eq(ct_manifold_rounded_hulls(&CA, NULL, (ct_real)(rho * s), &CB[kind == 3], &xb, (ct_real)(rho * s), (ct_real)tol, NULL, &m), CT_OK);
                cr_assert_eq(m.count, kind == 0 ? 4 : kind == 1 ? 2 : 1, "rounded, scale %g kind %d: %d points", s, kind, m.count);
                cr_assert_float_eq(m.normal.x, 1, 1e2 * TU_EPS, "rounded, scale %g kind %d", s, kind);
                for (j = 0; j < m.count; ++j) {
                    cr_assert_leq(fabs(m.points[j].separation), tol, "rounded, scale %g kind %d: separation %g", s, kind, (double)m.points[j].separation);
                    cr_assert_leq(fabs(m.points[j].point.x - s), tol, "rounded, scale %g kind %d: point off the touching plane", s, kind);
                }
                ++cases;
            }
            ct_hull_free(&CA);
            ct_hull_free(&CB[0]);
            ct_hull_free(&CB[1]);
        }
        {
            ct_manifold m;
            ct_pw pw;
            ct_xform xs = ct_xform_identity();
            cr_assert_eq(ct_manifold_hull_sphere(&A, NULL, sv(1.5, 0.2, -0.3, s), (ct_real)(0.5 * s), 0, &m), CT_OK);
            cr_assert_eq(m.count, 1);
            cr_assert_leq(fabs(m.points[0].separation), tol);
            cr_assert_float_eq(m.normal.x, 1, 1e2 * TU_EPS);
            xs.p = sv(1.5, 0, 0, s);
            cr_assert_eq(ct_ellipsoids(sv(1, 1, 1, s), NULL, sv(0.5, 0.5, 0.5, s), &xs, NULL, &pw), CT_OK);
            cr_assert_float_eq(pw.F, 1, 1e2 * TU_EPS);
            cr_assert_leq(fabs(pw.gap), tol);
            cr_assert_float_eq(pw.normal.x, 1, 1e2 * TU_EPS);
            cases += 2;
        }
        {   /* boxes sharing a face, an edge, a corner: each pair counted, in both entry points */
            ct_aabb b[4];
            ct_pairs p;
            b[0] = box6(0, 0, 0, s, s, s);
            b[1] = box6(s, 0, 0, 2 * s, s, s);           /* face */
            b[2] = box6(s, s, 0, 2 * s, 2 * s, s);       /* edge with 0, face with 1 */
            b[3] = box6(-s, -s, -s, 0, 0, 0);            /* corner with 0 */
            cr_assert_eq(ct_broadphase(b, 4, NULL, &p), CT_OK);
            cr_assert_eq(p.count, 4);
            ct_pairs_free(&p);
            cr_assert_eq(ct_broadphase_bipartite(b, 1, b + 1, 3, NULL, &p), CT_OK);
            cr_assert_eq(p.count, 3);
            ct_pairs_free(&p);
            cases += 2;
        }
        ct_hull_free(&A);
        ct_hull_free(&B);
    }
    printf("hardening: %d touching-contact cases\n", cases);
}

/* GJK/EPA over the whole exponent range: the distance scenes of the sweep at sizes from about
   2^-100 to 2^100 (float) / 2^-900 to 2^900 (double), without translation, against the unit
   answer (the solver's products of four coordinates would overflow or underflow beyond about
   1e9 / 1e-11 in float without the working scale of detail/gjk.h). */
Test(hardening, gjk_whole_exponent_range) {
    const int lim = TU_FLOAT ? 60 : 500, step = TU_FLOAT ? 6 : 50;
    int e, v, cases = 0;
    double worst = 0, worst_w = 0;
    for (v = 0; v < SWEEP_VARIANTS; ++v) {
        meas ref;
        frame f0;
        f0.s = 1;
        f0.T = tu_vec(0, 0, 0);
        f0.v = v;
        memset(&ref, 0, sizeof ref);
        sw_distance(&f0, &ref);
        for (e = -lim; e <= lim; e += step) {
            meas got;
            frame f;
            char what[120];
            f.s = ldexp(1.0, e) * (1 + 0.1 * v);   /* not a power of two: exercises rounding */
            f.T = tu_vec(0, 0, 0);
            f.v = v;
            memset(&got, 0, sizeof got);
            sw_distance(&f, &got);
            snprintf(what, sizeof what, "GJK scene #%d at scale 2^%d", v, e);
            cr_assert_eq(got.n, ref.n);
            compare_list(what, ref.n, got.v, got.k, ref.v, ref.k, (double)TU_EPS, TU_FLOAT ? 1e3 : 2e3, &worst, &worst_w);
            ++cases;
        }
    }
    cr_log_info("GJK/EPA over 2^+-%d: %d cases, worst %.3g u, curved-body %.3g", lim, cases, worst, worst_w);
    printf("hardening: %d GJK exponent-range cases\n", cases);
}
