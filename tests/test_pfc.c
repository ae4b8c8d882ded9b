/* PFC rigid blocks (detail/pfc.h) against independent oracles:
   - warm-started full resolution: ct_contact_hulls_warm against the cold ct_contact_hulls on
     every step of 1000-step random small-motion sequences (random hulls, boxes resting flush,
     pairs drifting apart and back), scaled and translated scenes; the cache must be used
     (hits counted through the cache's state), and must not matter for other hulls;
   - hardening: bad input, allocation failure sweep of the cache, no leaks. */
#include "contact.h"
#include "testutil.h"
#include "workload.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------------ */
static ct_hull pfc_hull(const ct_vec3 *p, int n) {
    ct_hull h;
    ct_status st = ct_hull_build(p, n, NULL, NULL, &h);
    cr_assert_eq(st, CT_OK, "hull build: %s", ct_status_string(st));
    return h;
}

static ct_hull pfc_sphere_hull(unsigned long long *seed, int n, double r, double scale, ct_vec3 shift) {
    double xyz[3 * 128];
    ct_vec3 p[128];
    int i;
    cr_assert(n <= 128);
    wl_sphere(xyz, n, r, seed);
    for (i = 0; i < n; ++i)
        p[i] = tu_vec(scale * xyz[3 * i] + shift.x, scale * xyz[3 * i + 1] + shift.y, scale * xyz[3 * i + 2] + shift.z);
    return pfc_hull(p, n);
}

static ct_hull pfc_box(double hx, double hy, double hz, double scale) {
    ct_vec3 p[8];
    int i;
    for (i = 0; i < 8; ++i)
        p[i] = tu_vec(scale * (i & 1 ? hx : -hx), scale * (i & 2 ? hy : -hy), scale * (i & 4 ? hz : -hz));
    return pfc_hull(p, 8);
}

/* c = a * b (apply b, then a) */
static ct_xform pfc_mul(const ct_xform *a, const ct_xform *b) {
    ct_xform c;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) c.r[i][j] = a->r[i][0] * b->r[0][j] + a->r[i][1] * b->r[1][j] + a->r[i][2] * b->r[2][j];
    c.p = ct_vec3_add(ct_xform_vector(a, b->p), a->p);
    return c;
}

/* one random small step: rotation by up to `ang` about a random axis through the body's
   position, translation by up to `mov` */
static ct_xform pfc_step(const ct_xform *x, unsigned long long *seed, double ang, double mov) {
    ct_xform d = ct_xform_from_axis_angle(tu_random_unit(seed), (ct_real)(ang * (2 * tu_uniform(seed) - 1)),
                                          ct_vec3_scale(tu_random_unit(seed), (ct_real)(mov * tu_uniform(seed))));
    ct_xform r = pfc_mul(&d, x);
    r.p = ct_vec3_add(x->p, d.p);   /* rotate about the body's own position */
    return r;
}

/* Two random hulls of nv points on the unit sphere, randomly turned, B's centre at a random
   distance in [lo, lo + span) from A's. */
static void pfc_random_pair(unsigned long long *seed, int nv, double lo, double span, ct_hull *a, ct_hull *b, ct_xform *xa,
                            ct_xform *xb) {
    *a = pfc_sphere_hull(seed, nv, 1, 1, tu_vec(0, 0, 0));
    *b = pfc_sphere_hull(seed, nv, 1, 1, tu_vec(0, 0, 0));
    *xa = tu_random_xform(seed, 0);
    *xb = tu_random_xform(seed, 0);
    xb->p = ct_vec3_scale(tu_random_unit(seed), (ct_real)(lo + span * tu_uniform(seed)));
}

static double pfc_vdist(ct_vec3 a, ct_vec3 b) { return (double)ct_vec3_length(ct_vec3_sub(a, b)); }

/* largest difference of warm and cold, in units of `size` (volume and area by their roots) */
static double pfc_contact_diff(const ct_contact *w, const ct_contact *c, double size) {
    double e;
    if (w->found != c->found) return INFINITY;
    if (!c->found) return 0;
    e = pfc_vdist(w->point, c->point);
    e = fmax(e, pfc_vdist(w->centroid, c->centroid));
    e = fmax(e, size * pfc_vdist(w->normal, c->normal));
    e = fmax(e, fabs((double)(w->gap - c->gap)));
    e = fmax(e, fabs(cbrt((double)w->volume) - cbrt((double)c->volume)));
    e = fmax(e, fabs(sqrt((double)w->area) - sqrt((double)c->area)));
    return e / size;
}

/* warm and cold bit for bit (every field) */
static int pfc_same_bits(const ct_contact *x, const ct_contact *y) {
    return x->found == y->found && !memcmp(&x->point, &y->point, sizeof x->point) &&
           !memcmp(&x->normal, &y->normal, sizeof x->normal) && !memcmp(&x->gap, &y->gap, sizeof x->gap) &&
           !memcmp(&x->area, &y->area, sizeof x->area) && !memcmp(&x->volume, &y->volume, sizeof x->volume) &&
           !memcmp(&x->centroid, &y->centroid, sizeof x->centroid) && x->face_a == y->face_a && x->face_b == y->face_b;
}

/* agreement bound of warm and cold (they are also checked bit for bit) */
#define PFC_AGREE (TU_FLOAT ? 1e-3 : 1e-12)

typedef struct pfc_run { int steps, hits, found, disagree, unequal; double worst; } pfc_run;

/* Runs `steps` random steps of B (and A, unless fix_a) and compares warm with cold at each.
   A step that would leave the pair apart by more than `keep` (overlap volume 0 for long) is
   undone, so the sequence stays near contact. */
static pfc_run pfc_sequence(const ct_hull *a, const ct_hull *b, ct_xform xa, ct_xform xb, int steps,
                            double ang, double mov, double size, int fix_a, unsigned long long seed) {
    pfc_run r;
    ct_contact_cache cache;
    ct_scratch s;
    int t;
    memset(&r, 0, sizeof r);
    memset(&cache, 0, sizeof cache);
    ct_scratch_init(&s, NULL);
    for (t = 0; t < steps; ++t) {
        ct_xform na = fix_a ? xa : pfc_step(&xa, &seed, ang, mov), nb = pfc_step(&xb, &seed, ang, mov);
        ct_contact cw, cc;
        int warm = cache.count > 0;
        ct_status sw = ct_contact_hulls_warm(a, &na, b, &nb, &cache, &s, &cw);
        ct_status sc = ct_contact_hulls(a, &na, b, &nb, &s, &cc);
        double e;
        cr_assert_eq(sw, sc, "step %d: warm %s, cold %s", t, ct_status_string(sw), ct_status_string(sc));
        e = pfc_contact_diff(&cw, &cc, size);
        if (!(e <= PFC_AGREE)) ++r.disagree;
        r.unequal += !pfc_same_bits(&cw, &cc);
        if (e > r.worst || e != e) r.worst = e;
        r.hits += warm;
        r.found += cc.found;
        ++r.steps;
        /* keep drifting near contact: pull B back towards A when the overlap is lost */
        if (!cc.found) nb.p = ct_vec3_add(nb.p, ct_vec3_scale(ct_vec3_sub(na.p, nb.p), (ct_real)0.05));
        xa = na;
        xb = nb;
    }
    /* both evaluate the canonical A n B: equal bit for bit, not just within PFC_AGREE */
    cr_expect_eq(r.unequal, 0, "%d of %d steps: warm and cold not bit for bit (worst %.3g of the size)", r.unequal, r.steps,
                 r.worst);
    ct_contact_cache_free(&cache);
    ct_scratch_release(&s);
    return r;
}

/* ---- warm start -------------------------------------------------------------------------- */
Test(pfc, warm_equals_cold_over_1000_step_random_motion) {
    unsigned long long seed = 2024;
    int pair, hits = 0, steps = 0, found = 0, unequal = 0;
    double worst = 0;
    for (pair = 0; pair < 6; ++pair) {
        int nv = pair < 4 ? 20 : 40;
        ct_hull a = pfc_sphere_hull(&seed, nv, 1, 1, tu_vec(0, 0, 0));
        ct_hull b = pfc_sphere_hull(&seed, nv, 1, 1, tu_vec(0, 0, 0));
        ct_xform xa = tu_random_xform(&seed, 0), xb = tu_random_xform(&seed, 0);
        pfc_run r;
        xb.p = ct_vec3_scale(tu_random_unit(&seed), (ct_real)(0.5 + 0.8 * tu_uniform(&seed)));
        r = pfc_sequence(&a, &b, xa, xb, 1000, 2e-3, 2e-3, 1, 0, seed + 7);
        cr_expect_eq(r.disagree, 0, "pair %d: %d of %d steps disagree (worst %.3g of the size)", pair, r.disagree,
                     r.steps, r.worst);
        worst = fmax(worst, r.worst);
        unequal += r.unequal;
        hits += r.hits;
        steps += r.steps;
        found += r.found;
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    /* the warm path was taken: the cache held a structure before most calls */
    cr_expect_gt(hits, steps / 2, "cache used on %d of %d steps", hits, steps);
    cr_expect_gt(found, steps / 2);
    printf("pfc: warm == cold on %d steps (%d with a cached structure), worst %.3g of the size, %d not bit for bit\n", steps,
           hits, worst, unequal);
}

Test(pfc, warm_equals_cold_scaled_and_translated) {
    static const double scales[] = { 1e-3, 1, 1e3 };
    unsigned long long seed = 77;
    int k;
    for (k = 0; k < 3; ++k) {
        double sc = scales[k];
        ct_vec3 shift = tu_vec(3 * sc, -2 * sc, 5 * sc);
        ct_hull a = pfc_sphere_hull(&seed, 24, 1, sc, shift), b = pfc_sphere_hull(&seed, 24, 1, sc, shift);
        ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
        pfc_run r;
        xb.p = tu_vec(0.7 * sc, 0.2 * sc, 0);
        r = pfc_sequence(&a, &b, xa, xb, 300, 2e-3, 2e-3 * sc, sc, 0, seed);
        cr_expect_eq(r.disagree, 0, "scale %g: %d steps disagree, worst %.3g", sc, r.disagree, r.worst);
        cr_expect_gt(r.hits, r.steps / 2, "scale %g: cache used on %d of %d steps", sc, r.hits, r.steps);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
}

/* Boxes resting flush (coincident faces: vertices where planes of both bodies meet) are not
   cached but still right; a box tilted on a box is cached. */
Test(pfc, warm_boxes_flush_and_tilted) {
    ct_hull a = pfc_box(1, 1, 0.5, 1), b = pfc_box(0.5, 0.5, 0.5, 1);
    ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
    pfc_run r;
    xb.p = tu_vec(0.2, 0.1, 0.9);   /* B on A's top face, 0.1 deep */
    r = pfc_sequence(&a, &b, xa, xb, 200, 0, 1e-3, 1, 1, 5);
    cr_expect_eq(r.disagree, 0, "flush: worst %.3g", r.worst);
    xb = ct_xform_from_axis_angle(tu_vec(1, 1, 0), (ct_real)0.3, tu_vec(0.2, 0.1, 0.95));
    r = pfc_sequence(&a, &b, xa, xb, 300, 2e-3, 1e-3, 1, 1, 6);
    cr_expect_eq(r.disagree, 0, "tilted: worst %.3g", r.worst);
    cr_expect_gt(r.hits, r.steps / 2, "tilted: cache used on %d of %d steps", r.hits, r.steps);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* A cache filled by one pair and handed to another pair (or to the pair swapped) changes
   nothing: it is refilled. */
Test(pfc, warm_cache_of_another_pair_is_ignored) {
    unsigned long long seed = 31;
    ct_hull a = pfc_sphere_hull(&seed, 20, 1, 1, tu_vec(0, 0, 0)), b = pfc_sphere_hull(&seed, 20, 1, 1, tu_vec(0, 0, 0));
    ct_hull c = pfc_sphere_hull(&seed, 30, 1, 1, tu_vec(0, 0, 0));
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(0, 1, 0), (ct_real)0.4, tu_vec(0.8, 0, 0));
    ct_contact_cache cache;
    ct_contact w, k;
    memset(&cache, 0, sizeof cache);
    cr_assert_eq(ct_contact_hulls_warm(&a, NULL, &b, &xb, &cache, NULL, &w), CT_OK);
    cr_assert_gt(cache.count, 0);
    cr_assert_eq(ct_contact_hulls_warm(&a, NULL, &c, &xb, &cache, NULL, &w), CT_OK);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &c, &xb, NULL, &k), CT_OK);
    cr_expect_leq(pfc_contact_diff(&w, &k, 1), PFC_AGREE);
    cr_assert_eq(ct_contact_hulls_warm(&c, &xb, &a, NULL, &cache, NULL, &w), CT_OK);
    cr_assert_eq(ct_contact_hulls(&c, &xb, &a, NULL, NULL, &k), CT_OK);
    cr_expect_leq(pfc_contact_diff(&w, &k, 1), PFC_AGREE);
    ct_contact_cache_free(&cache);
    cr_expect_eq(cache.count, 0);
    ct_hull_free(&a);
    ct_hull_free(&b);
    ct_hull_free(&c);
}

/* ---- hardening --------------------------------------------------------------------------- */
Test(pfc, warm_bad_input) {
    unsigned long long seed = 3;
    ct_hull a = pfc_sphere_hull(&seed, 20, 1, 1, tu_vec(0, 0, 0));
    ct_contact_cache cache;
    ct_contact out;
    ct_xform bad = ct_xform_identity();
    memset(&cache, 0, sizeof cache);
    bad.p.x = (ct_real)NAN;
    cr_expect_eq(ct_contact_hulls_warm(&a, NULL, &a, NULL, NULL, NULL, &out), CT_INVALID);
    cr_expect_eq(out.found, 0);
    cr_expect_eq(ct_contact_hulls_warm(&a, NULL, &a, NULL, &cache, NULL, NULL), CT_INVALID);
    cr_expect_eq(ct_contact_hulls_warm(NULL, NULL, &a, NULL, &cache, NULL, &out), CT_INVALID);
    cr_expect_eq(ct_contact_hulls_warm(&a, &bad, &a, NULL, &cache, NULL, &out), CT_INVALID);
    cr_expect_eq(out.found, 0);
    cr_expect_eq(out.face_a, -1);
    bad = ct_xform_identity();
    bad.r[0][0] = 2;   /* not rigid */
    cr_expect_eq(ct_contact_hulls_warm(&a, NULL, &a, &bad, &cache, NULL, &out), CT_INVALID);
    ct_contact_cache_free(NULL);
    ct_contact_cache_init(NULL, NULL);
    ct_hull_free(&a);
}

/* Every allocation of the cache failing in turn: CT_NO_MEMORY, outputs zeroed, cache empty,
   nothing leaked; then the call succeeds and agrees with the cold one. */
Test(pfc, warm_allocation_failure_sweep) {
    unsigned long long seed = 11;
    ct_hull a = pfc_sphere_hull(&seed, 20, 1, 1, tu_vec(0, 0, 0)), b = pfc_sphere_hull(&seed, 40, 1, 1, tu_vec(0, 0, 0));
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(1, 0, 0), (ct_real)0.2, tu_vec(0.6, 0.1, 0));
    ct_contact cold;
    long k;
    cr_assert_eq(ct_contact_hulls(&a, NULL, &b, &xb, NULL, &cold), CT_OK);
    for (k = 1; k < 50; ++k) {
        tu_alloc t;
        ct_contact_cache cache;
        ct_scratch s;
        ct_contact out;
        ct_status st;
        tu_alloc_init(&t, k);
        ct_contact_cache_init(&cache, &t.a);
        ct_scratch_init(&s, &t.a);
        st = ct_contact_hulls_warm(&a, NULL, &b, &xb, &cache, &s, &out);
        if (st == CT_OK) {
            cr_expect_leq(pfc_contact_diff(&out, &cold, 1), PFC_AGREE);
            /* a second call (warm) with the same allocator: it may still meet the failing
               allocation (a scratch or cache growth), then with the same guarantees */
            ct_status st2 = ct_contact_hulls_warm(&a, NULL, &b, &xb, &cache, &s, &out);
            cr_expect(st2 == CT_OK || (st2 == CT_NO_MEMORY && out.found == 0 && cache.count == 0),
                      "second call after failing allocation %ld: %s", k, ct_status_string(st2));
        } else {
            cr_expect_eq(st, CT_NO_MEMORY, "failing allocation %ld gave %s", k, ct_status_string(st));
            cr_expect_eq(out.found, 0);
            cr_expect_eq(cache.count, 0);
        }
        ct_contact_cache_free(&cache);
        ct_scratch_release(&s);
        cr_expect_eq(t.outstanding, 0, "failing allocation %ld: %ld blocks leaked", k, t.outstanding);
        if (st == CT_OK && t.calls < k) break;   /* every allocation site passed */
    }
    cr_expect_lt(k, 50);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* ---- reduced resolution ------------------------------------------------------------------ */
/* Brute force: every face of the placed hull clipped by the plane n.y = hm (each edge of
   each face polygon, every vertex on the plane), the points' 2D hull by gift wrapping. */
typedef struct pfc_pt { double x, y; } pfc_pt;

static int pfc_brute_section(const ct_hull *h, const ct_xform *x, const double n[3], double hm, const double u[3],
                             const double w[3], pfc_pt *out) {
    int f, k = 0;
    for (f = 0; f < h->nfaces; ++f) {
        int e0 = h->face_first[f], e1 = h->face_first[f + 1], e;
        for (e = e0; e < e1; ++e) {
            ct_vec3 p0 = ct_xform_point(x, h->verts[h->face_verts[e]]);
            ct_vec3 p1 = ct_xform_point(x, h->verts[h->face_verts[e + 1 < e1 ? e + 1 : e0]]);
            double q0[3] = { p0.x, p0.y, p0.z }, q1[3] = { p1.x, p1.y, p1.z }, c[3];
            double h0 = n[0] * q0[0] + n[1] * q0[1] + n[2] * q0[2] - hm;
            double h1 = n[0] * q1[0] + n[1] * q1[1] + n[2] * q1[2] - hm;
            int i, hit = 0;
            if (fabs(h0) < 1e-13) { for (i = 0; i < 3; ++i) c[i] = q0[i]; hit = 1; }
            else if ((h0 < 0) != (h1 < 0) && fabs(h1) >= 1e-13) {
                for (i = 0; i < 3; ++i) c[i] = q0[i] + (q1[i] - q0[i]) * h0 / (h0 - h1);
                hit = 1;
            }
            if (hit) {
                out[k].x = c[0] * u[0] + c[1] * u[1] + c[2] * u[2];
                out[k].y = c[0] * w[0] + c[1] * w[1] + c[2] * w[2];
                ++k;
            }
        }
    }
    return k;
}

static double pfc_cross(pfc_pt o, pfc_pt a, pfc_pt b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

/* gift wrapping, counter-clockwise; collinear points dropped */
static int pfc_wrap(const pfc_pt *p, int n, pfc_pt *out) {
    int start = 0, cur, k = 0, i;
    if (n < 3) return 0;
    for (i = 1; i < n; ++i)
        if (p[i].x < p[start].x || (p[i].x == p[start].x && p[i].y < p[start].y)) start = i;
    cur = start;
    do {
        int nxt = -1;
        out[k++] = p[cur];
        for (i = 0; i < n && nxt < 0; ++i)   /* a first candidate distinct from cur */
            if (hypot(p[i].x - p[cur].x, p[i].y - p[cur].y) > 1e-14) nxt = i;
        if (nxt < 0) return 0;
        for (i = 0; i < n; ++i) {
            double c = pfc_cross(p[cur], p[nxt], p[i]);
            double d1 = hypot(p[nxt].x - p[cur].x, p[nxt].y - p[cur].y), d2 = hypot(p[i].x - p[cur].x, p[i].y - p[cur].y);
            if (c < -1e-14 || (fabs(c) <= 1e-14 && d2 > d1)) nxt = i;
        }
        cur = nxt;
    } while (hypot(p[cur].x - p[start].x, p[cur].y - p[start].y) > 1e-14 && k < n);
    return k;
}

/* Sutherland-Hodgman: polygon p clipped by the convex CCW polygon q */
static int pfc_clip(const pfc_pt *p, int np, const pfc_pt *q, int nq, pfc_pt *out) {
    pfc_pt buf[512], cur[512];
    int i, j, n = np;
    memcpy(cur, p, sizeof(pfc_pt) * (size_t)np);
    for (j = 0; j < nq && n > 0; ++j) {
        pfc_pt a = q[j], b = q[(j + 1) % nq];
        int m = 0;
        for (i = 0; i < n; ++i) {
            pfc_pt s = cur[i], e = cur[(i + 1) % n];
            double cs = pfc_cross(a, b, s), ce = pfc_cross(a, b, e);
            if (cs >= 0) buf[m++] = s;
            if ((cs >= 0) != (ce >= 0)) {
                double t = cs / (cs - ce);
                pfc_pt r = { s.x + t * (e.x - s.x), s.y + t * (e.y - s.y) };
                buf[m++] = r;
            }
        }
        n = m;
        memcpy(cur, buf, sizeof(pfc_pt) * (size_t)n);
    }
    memcpy(out, cur, sizeof(pfc_pt) * (size_t)n);
    return n;
}

static double pfc_area_centroid(const pfc_pt *p, int n, pfc_pt *c) {
    double a = 0, cx = 0, cy = 0;
    int i;
    for (i = 0; i < n; ++i) {
        pfc_pt s = p[i], e = p[(i + 1) % n];
        double cr = s.x * e.y - e.x * s.y;
        a += cr;
        cx += (s.x + e.x) * cr;
        cy += (s.y + e.y) * cr;
    }
    c->x = cx / (3 * a);
    c->y = cy / (3 * a);
    return a / 2;
}

/* 1 when face f of h (placed by x) has the plane nearest to the world point p among all its
   faces (brute force; ties within 1e-12 of the nearest count). */
static int pfc_nearest_face_ok(const ct_hull *h, const ct_xform *x, ct_vec3 p, int f) {
    ct_vec3 l = ct_xform_inv_point(x, p);
    double best = 1e300, mine;
    int g;
    if (f < 0 || f >= h->nfaces) return 0;
    for (g = 0; g < h->nfaces; ++g)
        best = fmin(best, fabs(ct_vec3_dot(h->planes[g].n, l) + h->planes[g].d));
    mine = fabs(ct_vec3_dot(h->planes[f].n, l) + h->planes[f].d);
    return mine <= best + 1e-12;
}

Test(pfc, reduced_against_brute_force_sections) {
    unsigned long long seed = 404;
    int pair, checked = 0;
    double worst = 0;
    for (pair = 0; pair < 40; ++pair) {
        int nv = pair % 2 ? 20 : 12;
        ct_hull a = pfc_sphere_hull(&seed, nv, 1, 1, tu_vec(0, 0, 0)), b = pfc_sphere_hull(&seed, nv, 0.8, 1, tu_vec(0, 0, 0));
        ct_xform xa = tu_random_xform(&seed, 0.3), xb = tu_random_xform(&seed, 0);
        ct_shape sa = ct_shape_hull(&a), sb = ct_shape_hull(&b);
        ct_distance d;
        ct_contact c;
        xb.p = ct_vec3_add(xa.p, ct_vec3_scale(tu_random_unit(&seed), (ct_real)(0.6 + 0.9 * tu_uniform(&seed))));
        cr_assert_eq(ct_contact_hulls_reduced(&a, &xa, &b, &xb, NULL, NULL, &c), CT_OK);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d), CT_OK);
        cr_expect_eq(c.found, d.distance <= 0);
        if (c.found && !TU_FLOAT) {
            double n[3] = { d.normal.x, d.normal.y, d.normal.z }, u[3], w[3], hm, area;
            ct_vec3 m = ct_vec3_scale(ct_vec3_add(d.pa, d.pb), 0.5), uu, ww;
            pfc_pt sa2[256], sb2[256], pa[256], pb[256], cl[512], cen;
            int na, nb, nc;
            ct_vec3 p3;
            uu = fabs(n[0]) < 0.6 ? tu_vec(1, 0, 0) : tu_vec(0, 1, 0);
            uu = ct_vec3_cross(d.normal, uu);
            uu = ct_vec3_scale(uu, 1 / ct_vec3_length(uu));
            ww = ct_vec3_cross(d.normal, uu);
            u[0] = uu.x; u[1] = uu.y; u[2] = uu.z; w[0] = ww.x; w[1] = ww.y; w[2] = ww.z;
            hm = n[0] * m.x + n[1] * m.y + n[2] * m.z;
            na = pfc_wrap(sa2, pfc_brute_section(&a, &xa, n, hm, u, w, sa2), pa);
            nb = pfc_wrap(sb2, pfc_brute_section(&b, &xb, n, hm, u, w, sb2), pb);
            cr_assert(na >= 3 && nb >= 3, "pair %d: sections of %d and %d points", pair, na, nb);
            nc = pfc_clip(pa, na, pb, nb, cl);
            cr_assert(nc >= 3, "pair %d: sections do not overlap", pair);
            area = pfc_area_centroid(cl, nc, &cen);
            p3 = ct_vec3_add(ct_vec3_scale(d.normal, hm), ct_vec3_add(ct_vec3_scale(uu, cen.x), ct_vec3_scale(ww, cen.y)));
            worst = fmax(worst, pfc_vdist(p3, c.point));
            cr_expect_leq(pfc_vdist(p3, c.point), 1e-9, "pair %d: point off by %g", pair, pfc_vdist(p3, c.point));
            cr_expect_leq(fabs(area - c.area), 1e-9 * area, "pair %d: area %g vs %g", pair, c.area, area);
            /* the SAT's least axis and EPA: the same depth up to rounding */
            cr_expect_leq(fabs(c.gap - d.distance), 1e-12, "pair %d: gap %.17g vs EPA %.17g", pair, c.gap, d.distance);
            cr_expect_leq(fabs(ct_vec3_dot(c.normal, c.point) - hm), 1e-12);   /* on the mid-plane */
            cr_expect(pfc_nearest_face_ok(&a, &xa, c.point, c.face_a), "pair %d: face_a %d not the nearest", pair, c.face_a);
            cr_expect(pfc_nearest_face_ok(&b, &xb, c.point, c.face_b), "pair %d: face_b %d not the nearest", pair, c.face_b);
            ++checked;
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_expect(TU_FLOAT || checked >= 20, "only %d overlapping pairs", checked);
    printf("pfc: reduced resolution vs brute-force sections on %d pairs, worst point %.3g\n", checked, worst);
}

/* A small box sunk 0.1 into a large one: mid-plane 0.05 below the top, the section of the
   small box inside the large one's: area = 1, point above the small box's centre. */
Test(pfc, reduced_box_on_box_closed_form) {
    ct_hull a = pfc_box(2, 2, 1, 1), b = pfc_box(0.5, 0.5, 0.5, 1);
    ct_xform xb = ct_xform_identity();
    ct_contact c;
    xb.p = tu_vec(0.3, -0.4, 1.4);
    cr_assert_eq(ct_contact_hulls_reduced(&a, NULL, &b, &xb, NULL, NULL, &c), CT_OK);
    cr_assert_eq(c.found, 1);
    cr_expect_leq(fabs(c.gap + 0.1), 1e-5);
    cr_expect_leq(fabs(c.area - 1), 1e-5);
    cr_expect_leq(pfc_vdist(c.point, tu_vec(0.3, -0.4, 0.95)), 1e-5);
    cr_expect_leq(pfc_vdist(c.normal, tu_vec(0, 0, 1)), 1e-5);
    xb.p = tu_vec(0.3, -0.4, 1.6);   /* apart */
    cr_assert_eq(ct_contact_hulls_reduced(&a, NULL, &b, &xb, NULL, NULL, &c), CT_OK);
    cr_expect_eq(c.found, 0);
    cr_expect_eq(ct_contact_hulls_reduced(&a, NULL, &b, NULL, NULL, NULL, NULL), CT_INVALID);
    xb.p.x = (ct_real)NAN;
    cr_expect_eq(ct_contact_hulls_reduced(&a, NULL, &b, &xb, NULL, NULL, &c), CT_INVALID);
    cr_expect_eq(c.found, 0);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* ---- erosion ----------------------------------------------------------------------------- */
/* The cube: core = the cube shrunk by r on every side; the rounded volume in closed form;
   Hausdorff distance of core (+) ball to the cube = the corner's, r (sqrt 3 - 1). */
Test(pfc, erode_cube_closed_form) {
    static const double scales[] = { 1e-3, 1, 1e3 };
    int k;
    for (k = 0; k < 3; ++k) {
        double sc = scales[k], a = 0.8 * sc, r = 0.2 * sc, tol = (TU_FLOAT ? 1e-5 : 1e-12);
        ct_hull cube = pfc_box(1, 1, 1, sc), core;
        int i;
        cr_assert_eq(ct_hull_erode(&cube, (ct_real)r, NULL, &core), CT_OK);
        cr_expect_eq(core.nverts, 8);
        cr_expect_eq(core.nfaces, 6);
        cr_expect_eq(core.nverts - core.nedges + core.nfaces, 2);
        for (i = 0; i < core.nverts; ++i) {
            cr_expect_leq(fabs(fabs((double)core.verts[i].x) - a), tol * sc);
            cr_expect_leq(fabs(fabs((double)core.verts[i].y) - a), tol * sc);
            cr_expect_leq(fabs(fabs((double)core.verts[i].z) - a), tol * sc);
        }
        for (i = 0; i < core.nfaces; ++i) cr_expect(core.face_tag[i] >= 0 && core.face_tag[i] < 6);
        {
            double v = 8 * a * a * a + 24 * a * a * r + 6 * M_PI * a * r * r + 4.0 / 3 * M_PI * r * r * r;
            double got = (double)ct_hull_rounded_volume(&core, (ct_real)r);
            cr_expect_leq(fabs(got - v), (TU_FLOAT ? 1e-5 : 1e-12) * v, "scale %g: rounded volume %.17g vs %.17g", sc, got, v);
        }
        {   /* the corner of the cube is the farthest point from core (+) ball */
            ct_shape sc_core = ct_shape_rounded(ct_shape_hull(&core), (ct_real)r);
            ct_vec3 corner = tu_vec(sc, sc, sc);
            ct_shape pt = ct_shape_points(&corner, 1);
            ct_distance d;
            cr_assert_eq(ct_gjk(&pt, NULL, &sc_core, NULL, NULL, &d), CT_OK);
            cr_expect_leq(fabs((double)d.distance - r * (sqrt(3.0) - 1)), (TU_FLOAT ? 1e-5 : 1e-10) * sc);
        }
        ct_hull_free(&core);
        ct_hull_free(&cube);
    }
}

/* Random blocks: core (+) ball lies inside the block and touches every surviving face
   (support of the core along the face normal = the moved plane), vanished faces are farther;
   the rounded volume (Steiner) against Monte Carlo (GJK point in the rounded core) within 4
   sigma, and below the block's. */
Test(pfc, erode_random_blocks_against_planes_and_monte_carlo) {
    unsigned long long seed = 99;
    int blk;
    for (blk = 0; blk < 6; ++blk) {
        ct_hull block = pfc_sphere_hull(&seed, 16 + 4 * blk, 1, 1, tu_vec(0.1, -0.2, 0.3)), core;
        double r = 0.05 + 0.05 * blk;
        int f, i, used[256] = { 0 };
        cr_assert_eq(ct_hull_erode(&block, (ct_real)r, NULL, &core), CT_OK, "block %d", blk);
        cr_assert(core.nfaces <= block.nfaces && core.nfaces >= 4);
        for (f = 0; f < core.nfaces; ++f) used[core.face_tag[f]] = 1;
        for (f = 0; f < block.nfaces; ++f) {
            ct_plane q = block.planes[f];
            double hmax = -1e300;
            for (i = 0; i < core.nverts; ++i) hmax = fmax(hmax, (double)(ct_vec3_dot(q.n, core.verts[i]) + q.d));
            if (used[f]) cr_expect_leq(fabs(hmax + r), TU_FLOAT ? 1e-5 : 1e-12, "block %d face %d: support %g, -r %g", blk, f, hmax, -r);
            else cr_expect_lt(hmax, -r + (TU_FLOAT ? 1e-5 : 1e-12), "block %d vanished face %d reaches %g", blk, f, hmax);
        }
        {   /* Monte Carlo volume of core (+) ball in the block's bounding box */
            ct_aabb bb = ct_hull_aabb(&block, NULL);
            ct_shape rc = ct_shape_rounded(ct_shape_hull(&core), (ct_real)r);
            double box = (double)((bb.hi.x - bb.lo.x) * (bb.hi.y - bb.lo.y) * (bb.hi.z - bb.lo.z));
            int n = 20000, in = 0, t;
            double frac, sigma, v = (double)ct_hull_rounded_volume(&core, (ct_real)r);
            for (t = 0; t < n; ++t) {
                ct_vec3 x = tu_vec(bb.lo.x + (bb.hi.x - bb.lo.x) * tu_uniform(&seed), bb.lo.y + (bb.hi.y - bb.lo.y) * tu_uniform(&seed),
                                   bb.lo.z + (bb.hi.z - bb.lo.z) * tu_uniform(&seed));
                ct_shape pt = ct_shape_points(&x, 1);
                ct_distance d;
                cr_assert_eq(ct_gjk(&pt, NULL, &rc, NULL, NULL, &d), CT_OK);
                in += d.distance <= 0;
            }
            frac = (double)in / n;
            sigma = sqrt(frac * (1 - frac) / n) * box;
            cr_expect_leq(fabs(frac * box - v), 4 * sigma, "block %d: Monte Carlo %g, Steiner %g (sigma %g)", blk, frac * box, v, sigma);
            cr_expect_lt(v, (double)ct_hull_volume(&block, NULL));   /* inside the block */
        }
        ct_hull_free(&core);
        ct_hull_free(&block);
    }
}

Test(pfc, erode_bad_input_and_allocation_sweep) {
    ct_hull cube = pfc_box(1, 1, 1, 1), core;
    long k;
    cr_expect_eq(ct_hull_erode(&cube, -1, NULL, &core), CT_INVALID);
    cr_expect_eq(core.nverts, 0);
    cr_expect_eq(ct_hull_erode(&cube, (ct_real)NAN, NULL, &core), CT_INVALID);
    cr_expect_eq(ct_hull_erode(NULL, (ct_real)0.1, NULL, &core), CT_INVALID);
    cr_expect_eq(ct_hull_erode(&cube, (ct_real)0.1, NULL, NULL), CT_INVALID);
    cr_expect_eq(ct_hull_erode(&cube, 1, NULL, &core), CT_DEGENERATE);   /* radius = inradius */
    cr_expect_eq(ct_hull_erode(&cube, 2, NULL, &core), CT_DEGENERATE);
    cr_expect_eq(core.nverts, 0);
    cr_expect_lt(ct_hull_rounded_volume(NULL, 1), 0);
    cr_expect_lt(ct_hull_rounded_volume(&cube, -1), 0);
    cr_assert_eq(ct_hull_erode(&cube, 0, NULL, &core), CT_OK);   /* radius 0: the block */
    cr_expect_leq(fabs((double)ct_hull_volume(&core, NULL) - 8), 1e-5);
    ct_hull_free(&core);
    for (k = 1; k < 40; ++k) {
        tu_alloc t;
        ct_status st;
        tu_alloc_init(&t, k);
        st = ct_hull_erode(&cube, (ct_real)0.25, &t.a, &core);
        cr_expect(st == CT_OK || st == CT_NO_MEMORY, "failing allocation %ld: %s", k, ct_status_string(st));
        if (st != CT_OK) cr_expect_eq(core.nverts, 0);
        ct_hull_free(&core);
        cr_expect_eq(t.outstanding, 0, "failing allocation %ld: %ld blocks leaked", k, t.outstanding);
        if (st == CT_OK) break;
    }
    cr_expect_lt(k, 40);
    ct_hull_free(&cube);
}

/* ---- rounded blocks and balls -------------------------------------------------------------- */
/* gap == ct_signed_distance on ct_shape_rounded (both modes), for cores apart, rounded shells
   overlapping, and cores overlapping; found iff gap <= 0. */
Test(pfc, rounded_against_signed_distance_of_rounded_shapes) {
    unsigned long long seed = 515;
    int pair, mode, found = 0;
    for (pair = 0; pair < 30; ++pair) {
        ct_hull a = pfc_sphere_hull(&seed, 16, 1, 1, tu_vec(0, 0, 0)), b = pfc_sphere_hull(&seed, 16, 0.7, 1, tu_vec(0, 0, 0));
        ct_real ra = (ct_real)(0.02 + 0.2 * tu_uniform(&seed)), rb = (ct_real)(0.02 + 0.2 * tu_uniform(&seed));
        ct_xform xa = tu_random_xform(&seed, 0.5), xb = tu_random_xform(&seed, 0);
        ct_shape sa = ct_shape_rounded(ct_shape_hull(&a), ra), sb = ct_shape_rounded(ct_shape_hull(&b), rb);
        ct_distance d;
        xb.p = ct_vec3_add(xa.p, ct_vec3_scale(tu_random_unit(&seed), (ct_real)(1.2 + 0.8 * tu_uniform(&seed))));
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d), CT_OK);
        for (mode = 0; mode < 2; ++mode) {
            ct_contact c;
            cr_assert_eq(ct_contact_rounded_hulls(&a, &xa, ra, &b, &xb, rb, mode, NULL, NULL, &c), CT_OK);
            cr_expect_eq(c.found, d.distance <= 0, "pair %d mode %d: found %d, distance %g", pair, mode, c.found, (double)d.distance);
            if (c.found) {
                cr_expect_leq(fabs((double)(c.gap - d.distance)), TU_FLOAT ? 1e-4 : 1e-9, "pair %d mode %d: gap %g vs %g",
                              pair, mode, (double)c.gap, (double)d.distance);
                /* the volumetric normal may differ from EPA's by design (contact.h's table);
                   the reduced one is the moved cores' EPA normal: along the same line */
                if (mode == 1) cr_expect_gt(ct_vec3_dot(c.normal, d.normal), 0.5, "pair %d: normals %g", pair, (double)ct_vec3_dot(c.normal, d.normal));
                found += mode == 0;
            }
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_expect_gt(found, 5);
}

/* Rounded cubes (cores of half 0.5, radius 0.1 each): face to face 0.1 apart (gap -0.1: the
   moved cores overlap in a 0.1 x 1 x 1 slab), edge to edge (cores turned 45 degrees). */
Test(pfc, rounded_cubes_face_and_edge_closed_forms) {
    ct_hull cube = pfc_box(0.5, 0.5, 0.5, 1);
    ct_xform xb = ct_xform_identity();
    ct_contact c;
    double tol = TU_FLOAT ? 1e-4 : 1e-9;
    xb.p = tu_vec(1.1, 0, 0);
    cr_assert_eq(ct_contact_rounded_hulls(&cube, NULL, (ct_real)0.1, &cube, &xb, (ct_real)0.1, 0, NULL, NULL, &c), CT_OK);
    cr_expect_eq(c.found, 1);
    cr_expect_leq(fabs(c.gap + 0.1), tol);
    cr_expect_leq(fabs(c.volume - 0.1), tol);
    cr_expect_leq(fabs(c.area - 1.2), tol);
    cr_expect_leq(pfc_vdist(c.point, tu_vec(0.55, 0, 0)), tol);
    cr_expect_leq(pfc_vdist(c.normal, tu_vec(1, 0, 0)), tol);
    cr_assert_eq(ct_contact_rounded_hulls(&cube, NULL, (ct_real)0.1, &cube, &xb, (ct_real)0.1, 1, NULL, NULL, &c), CT_OK);
    cr_expect_leq(fabs(c.gap + 0.1), tol);
    cr_expect_leq(fabs(c.area - 1), tol);
    cr_expect_leq(pfc_vdist(c.point, tu_vec(0.55, 0, 0)), tol);
    xb.p = tu_vec(1.25, 0, 0);   /* apart by 0.05 */
    cr_assert_eq(ct_contact_rounded_hulls(&cube, NULL, (ct_real)0.1, &cube, &xb, (ct_real)0.1, 0, NULL, NULL, &c), CT_OK);
    cr_expect_eq(c.found, 0);
    {   /* edge to edge: vertical edges at x = +-sqrt(1/2) face each other */
        ct_xform xa = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(M_PI / 4), tu_vec(0, 0, 0));
        double D = sqrt(2.0) + 0.15;
        ct_xform x2 = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(M_PI / 4), tu_vec(D, 0, 0));
        int mode;
        for (mode = 0; mode < 2; ++mode) {
            cr_assert_eq(ct_contact_rounded_hulls(&cube, &xa, (ct_real)0.1, &cube, &x2, (ct_real)0.1, mode, NULL, NULL, &c), CT_OK);
            cr_expect_eq(c.found, 1);
            cr_expect_leq(fabs(c.gap + 0.05), tol, "mode %d: gap %g", mode, (double)c.gap);
            cr_expect_leq(fabs(c.point.x - D / 2), tol);
            cr_expect_leq(fabs(c.point.y), tol);
            cr_expect_leq(pfc_vdist(c.normal, tu_vec(1, 0, 0)), mode ? tol : (TU_FLOAT ? 1e-4 : 1e-6), "mode %d: normal %g %g %g", mode,
                          (double)c.normal.x, (double)c.normal.y, (double)c.normal.z);
        }
    }
    cr_expect_eq(ct_contact_rounded_hulls(&cube, NULL, -(ct_real)0.1, &cube, &xb, (ct_real)0.1, 0, NULL, NULL, &c), CT_INVALID);
    cr_expect_eq(ct_contact_rounded_hulls(&cube, NULL, (ct_real)0.1, &cube, &xb, (ct_real)NAN, 0, NULL, NULL, &c), CT_INVALID);
    cr_expect_eq(ct_contact_rounded_hulls(&cube, NULL, (ct_real)0.1, &cube, &xb, (ct_real)0.1, 2, NULL, NULL, &c), CT_INVALID);
    cr_expect_eq(c.found, 0);
    ct_hull_free(&cube);
}

Test(pfc, hull_sphere_contact_closed_form) {
    ct_hull cube = pfc_box(1, 1, 1, 1);
    ct_contact c;
    double tol = TU_FLOAT ? 1e-5 : 1e-12;
    cr_assert_eq(ct_contact_hull_sphere(&cube, NULL, tu_vec(0.2, -0.3, 1.5), (ct_real)0.7, &c), CT_OK);
    cr_expect_eq(c.found, 1);
    cr_expect_leq(fabs(c.gap + 0.2), tol);
    cr_expect_leq(pfc_vdist(c.point, tu_vec(0.2, -0.3, 0.9)), tol);
    cr_expect_leq(pfc_vdist(c.normal, tu_vec(0, 0, 1)), tol);
    cr_assert(c.face_a >= 0);
    cr_expect_leq(pfc_vdist(cube.planes[c.face_a].n, tu_vec(0, 0, 1)), tol);
    cr_expect_eq(c.face_b, -1);
    cr_assert_eq(ct_contact_hull_sphere(&cube, NULL, tu_vec(0, 0, 2.5), (ct_real)0.7, &c), CT_OK);
    cr_expect_eq(c.found, 0);
    cr_expect_eq(ct_contact_hull_sphere(&cube, NULL, tu_vec(0, 0, 2.5), -1, &c), CT_INVALID);
    cr_expect_eq(ct_contact_hull_sphere(&cube, NULL, tu_vec(0, 0, 2.5), 1, NULL), CT_INVALID);
    ct_hull_free(&cube);
}

/* ---- cylinders ----------------------------------------------------------------------------- */
/* Cylinder (radius 0.5, half height 1) against spheres and a box: side, cap and rim distances,
   penetrations, and the world box of a tilted cylinder, all in closed form. */
Test(pfc, cylinder_closed_forms) {
    ct_shape cyl = ct_shape_cylinder((ct_real)0.5, 1), ball = ct_shape_sphere((ct_real)0.5), small = ct_shape_sphere((ct_real)0.2);
    ct_xform xc = ct_xform_from_axis_angle(tu_vec(1, 1, 0), (ct_real)0.7, tu_vec(3, -1, 2)), xs;
    ct_distance d;
    ct_aabb bb;
    double tol = TU_FLOAT ? 2e-4 : 1e-7;
    struct { double x, y, z; const ct_shape *s; double dist; } cases[] = {
        { 2, 0, 0, &ball, 1.0 },                      /* side */
        { 0, 0, 3, &ball, 1.5 },                      /* cap */
        { 1.5, 0, 2, &small, 1.4142135623730951 - 0.2 }, /* rim */
        { 0.9, 0, 0, &ball, -0.1 },                   /* into the side */
        { 0.1, 0.1, 1.3, &ball, -0.2 },               /* into the cap */
    };
    int k;
    for (k = 0; k < 5; ++k) {   /* the pair placed by xc: the answer does not move */
        ct_vec3 c = ct_xform_point(&xc, tu_vec(cases[k].x, cases[k].y, cases[k].z));
        xs = ct_xform_identity();
        xs.p = c;
        cr_assert_eq(ct_signed_distance(&cyl, &xc, cases[k].s, &xs, NULL, NULL, &d), CT_OK);
        cr_expect_leq(fabs((double)d.distance - cases[k].dist), tol, "case %d: %.12g vs %.12g", k, (double)d.distance, cases[k].dist);
    }
    cr_assert_eq(ct_shape_aabb(&cyl, NULL, &bb), CT_OK);
    cr_expect_leq(pfc_vdist(bb.hi, tu_vec(0.5, 0.5, 1)), tol);
    {   /* axis turned onto x: half extents (1, 0.5, 0.5) */
        ct_xform xr = ct_xform_from_axis_angle(tu_vec(0, 1, 0), (ct_real)(M_PI / 2), tu_vec(1, 2, 3));
        cr_assert_eq(ct_shape_aabb(&cyl, &xr, &bb), CT_OK);
        cr_expect_leq(pfc_vdist(bb.lo, tu_vec(0, 1.5, 2.5)), tol);
        cr_expect_leq(pfc_vdist(bb.hi, tu_vec(2, 2.5, 3.5)), tol);
    }
    {   /* standing on a box, sunk 0.05: depth 0.05 along z */
        ct_hull box = pfc_box(2, 2, 1, 1);
        ct_shape sb = ct_shape_hull(&box);
        ct_xform xt = ct_xform_identity();
        xt.p = tu_vec(0.3, 0.2, 1.95);
        cr_assert_eq(ct_signed_distance(&sb, NULL, &cyl, &xt, NULL, NULL, &d), CT_OK);
        cr_expect_leq(fabs((double)d.distance + 0.05), tol);
        cr_expect_leq(pfc_vdist(d.normal, tu_vec(0, 0, 1)), 1e-4);
        ct_hull_free(&box);
    }
    {   /* bad sizes: every query says CT_INVALID */
        ct_shape bad = ct_shape_cylinder(-1, 1);
        xs = ct_xform_identity();
        cr_expect_eq(ct_signed_distance(&bad, NULL, &ball, &xs, NULL, NULL, &d), CT_INVALID);
        bad = ct_shape_cylinder(1, (ct_real)NAN);
        cr_expect_eq(ct_shape_aabb(&bad, NULL, &bb), CT_INVALID);
    }
}

/* ---- wall facets --------------------------------------------------------------------------- */
/* A unit box against a large floor triangle (outward normal +z): sunk 0.1 from above, the
   contact is the 1 x 1 x 0.1 slab; sunk 0.7 from above (its centre below the floor), the
   prism still pushes it up by 0.7, where the bare triangle would push it down through. */
Test(pfc, facet_against_box_closed_forms) {
    ct_vec3 tri[3];
    ct_hull box = pfc_box(0.5, 0.5, 0.5, 1);
    ct_xform xb = ct_xform_identity();
    ct_contact c;
    double tol = TU_FLOAT ? 1e-4 : 1e-9;
    tri[0] = tu_vec(-5, -5, 0); tri[1] = tu_vec(5, -5, 0); tri[2] = tu_vec(0, 8, 0);
    xb.p = tu_vec(0.2, 0.3, 0.4);
    cr_assert_eq(ct_contact_facet_hull(tri, &box, &xb, 0, NULL, &c), CT_OK);
    cr_expect_eq(c.found, 1);
    cr_expect_leq(fabs(c.gap + 0.1), tol);
    cr_expect_leq(fabs(c.volume - 0.1), tol);
    cr_expect_leq(pfc_vdist(c.normal, tu_vec(0, 0, 1)), tol);
    cr_expect_eq(c.face_a, 0);
    cr_assert_eq(ct_contact_facet_hull(tri, &box, &xb, 1, NULL, &c), CT_OK);
    cr_expect_leq(fabs(c.gap + 0.1), tol);
    cr_expect_leq(fabs(c.area - 1), tol);
    cr_expect_leq(pfc_vdist(c.point, tu_vec(0.2, 0.3, -0.05)), tol);
    xb.p = tu_vec(0.2, 0.3, -0.2);   /* centre below the floor */
    {
        ct_shape st = ct_shape_triangle(tri[0], tri[1], tri[2]), sb = ct_shape_hull(&box);
        ct_distance d;
        cr_assert_eq(ct_signed_distance(&st, NULL, &sb, &xb, NULL, NULL, &d), CT_OK);
        cr_expect_lt(d.normal.z, 0);   /* the bare triangle pushes the box down, through the wall */
    }
    cr_assert_eq(ct_contact_facet_hull(tri, &box, &xb, 1, NULL, &c), CT_OK);
    cr_expect_leq(fabs(c.gap + 0.7), tol);
    cr_expect_leq(pfc_vdist(c.normal, tu_vec(0, 0, 1)), tol);
    xb.p = tu_vec(0.2, 0.3, 0.6);   /* apart */
    cr_assert_eq(ct_contact_facet_hull(tri, &box, &xb, 0, NULL, &c), CT_OK);
    cr_expect_eq(c.found, 0);
    tri[2] = tri[1];
    cr_expect_eq(ct_contact_facet_hull(tri, &box, &xb, 0, NULL, &c), CT_DEGENERATE);
    tri[2] = tu_vec(0, (double)NAN, 0);
    cr_expect_eq(ct_contact_facet_hull(tri, &box, &xb, 0, NULL, &c), CT_INVALID);
    cr_expect_eq(ct_contact_facet_hull(NULL, &box, &xb, 0, NULL, &c), CT_INVALID);
    cr_expect_eq(c.found, 0);
    ct_hull_free(&box);
}

/* ---- reduced resolution: the SAT's least axis and the walked cut --------------------------- */
/* The cache (ct_block_cache: the SAT axis, its certificate and the cut's starting edges) changes the
   work, never the answer: cached == cold on every step of 1000-step random small-motion sequences. */
Test(pfc, reduced_cached_equals_cold_over_1000_step_random_motion) {
    unsigned long long seed = 77;
    int pair, steps = 0, found = 0, cached = 0, disagree = 0, answered = 0;
    double worst = 0;
    ct_scratch s;
    ct_scratch_init(&s, NULL);
    for (pair = 0; pair < 4; ++pair) {
        int nv = pair < 3 ? 20 : 40, t;
        ct_hull a, b;
        ct_xform xa, xb;
        ct_block_cache cache;
        memset(&cache, 0, sizeof cache);
        pfc_random_pair(&seed, nv, 0.5, 0.8, &a, &b, &xa, &xb);
        for (t = 0; t < 1000; ++t) {
            ct_xform na = pfc_step(&xa, &seed, 2e-3, 2e-3), nb = pfc_step(&xb, &seed, 2e-3, 2e-3);
            ct_contact cw, cc;
            double e;
            int hits = cache.sat.ct__hits;
            cached += cache.sat.type != CT_SAT_NONE;
            cr_assert_eq(ct_contact_hulls_reduced(&a, &na, &b, &nb, &cache, &s, &cw), CT_OK);
            answered += cache.sat.ct__hits == hits + 1;   /* the certificate answered this step */
            cr_assert_eq(ct_contact_hulls_reduced(&a, &na, &b, &nb, NULL, &s, &cc), CT_OK);
            e = pfc_contact_diff(&cw, &cc, 1);
            disagree += !(e <= (TU_FLOAT ? 1e-5 : 1e-12));
            if (e > worst || e != e) worst = e;
            found += cc.found;
            ++steps;
            if (!cc.found) nb.p = ct_vec3_add(nb.p, ct_vec3_scale(ct_vec3_sub(na.p, nb.p), (ct_real)0.05));
            xa = na;
            xb = nb;
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    ct_scratch_release(&s);
    cr_expect_eq(disagree, 0, "%d of %d steps disagree (worst %.3g of the size)", disagree, steps, worst);
    cr_expect_gt(cached, steps * 9 / 10, "cache held an axis on %d of %d steps", cached, steps);
    /* 2e-3 of the size per step: the SAT's certificate answers most steps */
    cr_expect_gt(answered, steps / 2, "the certificate answered %d of %d steps", answered, steps);
    cr_expect_gt(found, steps / 2);
    printf("pfc: reduced cached == cold on %d steps (%d found, %d answered by the certificate), worst %.3g of the size\n", steps, found,
           answered, worst);
}

/* The SAT's least axis is the penetration: the reduced gap equals ct_signed_distance's (EPA on
   the hulls) within 1e-9 of the size on random overlapping pairs at several scales and far
   translations; pairs apart are not found. */
Test(pfc, reduced_depth_equals_epa_on_random_pairs) {
    unsigned long long seed = 4711;
    int pair, over = 0, same_normal = 0;
    double worst = 0, tol = TU_FLOAT ? 2e-4 : 1e-9;
    for (pair = 0; pair < 300; ++pair) {
        int nv = pair % 3 == 0 ? 8 : (pair % 3 == 1 ? 20 : 40);
        double scale = pow(10, 4 * tu_uniform(&seed) - 2);
        ct_hull a = pfc_sphere_hull(&seed, nv, 1, scale, tu_vec(0, 0, 0)), b = pfc_sphere_hull(&seed, nv, 0.7, scale, tu_vec(0, 0, 0));
        ct_xform xa = tu_random_xform(&seed, TU_FLOAT ? 0 : 10 * scale), xb = tu_random_xform(&seed, 0);
        ct_shape sa = ct_shape_hull(&a), sb = ct_shape_hull(&b);
        ct_distance d;
        ct_contact c;
        double size = scale;
        xb.p = ct_vec3_add(xa.p, ct_vec3_scale(tu_random_unit(&seed), (ct_real)(scale * 1.9 * tu_uniform(&seed))));
        cr_assert_eq(ct_contact_hulls_reduced(&a, &xa, &b, &xb, NULL, NULL, &c), CT_OK);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d), CT_OK);
        if (d.distance > tol * size) cr_expect_eq(c.found, 0, "pair %d: apart by %g, found", pair, (double)d.distance);
        if (d.distance < -tol * size) {
            double e = fabs((double)(c.gap - d.distance)) / size;
            cr_expect_eq(c.found, 1, "pair %d: overlap %g not found", pair, (double)d.distance);
            cr_expect_leq(e, tol, "pair %d: gap %.17g vs EPA %.17g (scale %g)", pair, (double)c.gap, (double)d.distance, scale);
            worst = fmax(worst, e);
            same_normal += ct_vec3_dot(c.normal, d.normal) > 1 - 1e-6;
            ++over;
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_expect_geq(over, 150, "only %d overlapping pairs", over);
    /* the normal is the same axis unless two axes tie within rounding */
    cr_expect_geq(same_normal, over - over / 50, "normals agree on %d of %d", same_normal, over);
    printf("pfc: reduced depth == EPA on %d overlapping pairs, worst %.3g of the size, normal agrees on %d\n", over, worst, same_normal);
}

/* Degenerate cuts: boxes exactly touching (the mid-plane through both faces: every vertex of
   the faces on it, the scan path) and a box turned 45 degrees sunk into another. */
Test(pfc, reduced_boxes_touching_and_turned) {
    ct_hull a = pfc_box(2, 2, 1, 1), b = pfc_box(0.5, 0.5, 0.5, 1);
    ct_xform xb = ct_xform_identity();
    ct_block_cache cache;
    ct_contact c, w;
    int k;
    double tol = TU_FLOAT ? 1e-5 : 1e-12;
    memset(&cache, 0, sizeof cache);
    xb.p = tu_vec(0.3, -0.4, 1.5);   /* resting exactly */
    for (k = 0; k < 2; ++k) {
        cr_assert_eq(ct_contact_hulls_reduced(&a, NULL, &b, &xb, &cache, NULL, &c), CT_OK);
        cr_assert_eq(c.found, 1);
        cr_expect_leq(fabs(c.gap), tol);
        cr_expect_leq(fabs(c.area - 1), tol);
        cr_expect_leq(pfc_vdist(c.point, tu_vec(0.3, -0.4, 1)), tol);
        cr_expect_leq(pfc_vdist(c.normal, tu_vec(0, 0, 1)), tol);
    }
    xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(M_PI / 4), tu_vec(-0.2, 0.1, 1.3));   /* sunk 0.2 */
    for (k = 0; k < 2; ++k) {
        cr_assert_eq(ct_contact_hulls_reduced(&a, NULL, &b, &xb, &cache, NULL, &c), CT_OK);
        cr_assert_eq(ct_contact_hulls_reduced(&a, NULL, &b, &xb, NULL, NULL, &w), CT_OK);
        cr_expect_leq(fabs(c.gap + 0.2), tol);
        cr_expect_leq(fabs(c.area - 1), tol);
        cr_expect_leq(pfc_vdist(c.point, tu_vec(-0.2, 0.1, 0.9)), tol);
        cr_expect_leq(pfc_contact_diff(&c, &w, 1), tol);
    }
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* Rounded blocks, full resolution, with a ct_block_cache: its full member warm-starts the moved
   cores' A n B (ct_contact_hulls_warm: bit for bit the cold structure), its gjk member the
   signed distance (a warm EPA agrees with a cold one to rounding on polytopes). Over 300-step
   random small-motion sequences the cached call equals the uncached one to 1e-9 of the size
   (the cores are moved along EPA's normal) and the cached structure is reused on most steps. */
Test(pfc, rounded_full_with_a_block_cache_equals_the_uncached_call) {
    unsigned long long seed = 91;
    int pair, t, steps = 0, found = 0, disagree = 0, reused = 0;
    double worst = 0;
    ct_scratch s;
    ct_scratch_init(&s, NULL);
    for (pair = 0; pair < 3; ++pair) {
        ct_hull a, b;
        ct_xform xa, xb;
        ct_real r = (ct_real)0.05;
        ct_block_cache cache;
        ct_block_cache_init(&cache, NULL);
        pfc_random_pair(&seed, 20, 0.6, 0.6, &a, &b, &xa, &xb);
        for (t = 0; t < 300; ++t) {
            ct_xform na = pfc_step(&xa, &seed, 2e-3, 2e-3), nb = pfc_step(&xb, &seed, 2e-3, 2e-3);
            ct_contact cw, cc;
            double e;
            int before = cache.full.count;
            cr_assert_eq(ct_contact_rounded_hulls(&a, &na, r, &b, &nb, r, 0, &cache, &s, &cw), CT_OK);
            cr_assert_eq(ct_contact_rounded_hulls(&a, &na, r, &b, &nb, r, 0, NULL, &s, &cc), CT_OK);
            e = pfc_contact_diff(&cw, &cc, 1);
            disagree += !(e <= (TU_FLOAT ? 1e-4 : 1e-9));
            if (e > worst || e != e) worst = e;
            found += cc.found;
            reused += cc.found && before > 0 && cache.full.count == before;
            ++steps;
            if (!cc.found) nb.p = ct_vec3_add(nb.p, ct_vec3_scale(ct_vec3_sub(na.p, nb.p), (ct_real)0.05));
            xa = na;
            xb = nb;
        }
        ct_block_cache_free(&cache);
        cr_expect_eq(cache.full.count, 0);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    ct_scratch_release(&s);
    cr_expect_eq(disagree, 0, "%d of %d steps disagree (worst %.3g of the size)", disagree, steps, worst);
    cr_expect_gt(found, steps / 2);
    cr_expect_gt(reused, found / 2, "the structure was kept on %d of %d overlapping steps", reused, found);
    printf("pfc: rounded full cached == uncached on %d steps (%d found, %d with the structure kept), worst %.3g of the size\n", steps,
           found, reused, worst);
}

/* Every allocation of the rounded resolutions with a ct_block_cache failing in turn (plain hulls,
   and rounded cores apart by less than the radii: the GJK branch; reduced, and full with the
   cache's structure growing through the same allocator): CT_NO_MEMORY with *out zeroed and
   nothing leaked, or the cold answer. */
Test(pfc, reduced_allocation_failure_sweep) {
    unsigned long long seed = 12;
    ct_hull a = pfc_sphere_hull(&seed, 20, 1, 1, tu_vec(0, 0, 0)), b = pfc_sphere_hull(&seed, 40, 1, 1, tu_vec(0, 0, 0));
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(1, 0, 0), (ct_real)0.2, tu_vec(0.6, 0.1, 0));
    ct_xform xr = ct_xform_from_axis_angle(tu_vec(1, 0, 0), (ct_real)0.2, tu_vec(2.1, 0.1, 0));
    int mode;
    for (mode = 0; mode < 4; ++mode) {
        const ct_xform *x = (mode & 1) ? &xr : &xb;
        ct_real r = (mode & 1) ? (ct_real)0.2 : 0;
        int reduced = !(mode >> 1);
        ct_contact cold;
        long k;
        cr_assert_eq(ct_contact_rounded_hulls(&a, NULL, r, &b, x, r, reduced, NULL, NULL, &cold), CT_OK);
        cr_assert_eq(cold.found, 1, "mode %d", mode);
        for (k = 1; k < 400; ++k) {
            tu_alloc t;
            ct_block_cache cache;
            ct_scratch s;
            ct_contact out;
            ct_status st;
            tu_alloc_init(&t, k);
            ct_block_cache_init(&cache, &t.a);
            ct_scratch_init(&s, &t.a);
            st = ct_contact_rounded_hulls(&a, NULL, r, &b, x, r, reduced, &cache, &s, &out);
            if (st == CT_OK) {
                cr_expect_leq(pfc_contact_diff(&out, &cold, 1), TU_FLOAT ? 1e-5 : 1e-12);
            } else {
                cr_expect_eq(st, CT_NO_MEMORY, "mode %d, failing allocation %ld gave %s", mode, k, ct_status_string(st));
                cr_expect_eq(out.found, 0);
            }
            ct_scratch_release(&s);
            ct_block_cache_free(&cache);
            cr_expect_eq(t.outstanding, 0, "mode %d, failing allocation %ld: %ld blocks leaked", mode, k, t.outstanding);
            if (st == CT_OK && t.calls < k) break;
        }
        cr_expect_lt(k, 400);
    }
    ct_hull_free(&a);
    ct_hull_free(&b);
}
