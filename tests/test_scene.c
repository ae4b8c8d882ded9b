/* Scene: ct_scene_step against the per-pair routines called directly on every pair (brute
   force over all n^2 pairs, the dispatch table of contact.h), across thread counts, with
   bodies added, removed and filtered, events checked against the touching sets of consecutive
   steps, every pair of shape kinds in both modes, bad input and an allocation-failure sweep. */
#include "contact.h"
#include "testutil.h"
#include "workload.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- a test world: bodies of every kind ------------------------------------------------ */
#define NKIND 9
enum { K_HULL, K_RHULL, K_SPHERE, K_ELLIPSOID, K_BOX, K_POINTS, K_TRIANGLE, K_SUPPORT, K_HULLBOX };

typedef struct world {
    int n;
    ct_vec3 pts[200][20];
    ct_hull hull[200];
    ct_real ball[200];         /* support-shape radius */
    ct_shape shape[200];
    int kind[200];
    ct_xform x0[200], x[200];
    ct_vec3 dir[200], axis[200];
} world;

static void ball_support(const void *user, const ct_vec3 *d, ct_vec3 *out) {
    ct_real r = *(const ct_real *)user, l = (ct_real)sqrt((double)(d->x * d->x + d->y * d->y + d->z * d->z));
    if (l > 0) { out->x = d->x * r / l; out->y = d->y * r / l; out->z = d->z * r / l; }
    else { out->x = r; out->y = 0; out->z = 0; }
}

/* n bodies, kinds cycling over kinds[0..nk), sizes 0.5..1, in a cube holding 0.78 per unit
   volume (the density of the benchmark: about 3.5 touching pairs per body). */
static world *world_make(int n, const int *kinds, int nk, unsigned long long seed) {
    world *w = (world *)calloc(1, sizeof *w);
    double side = cbrt(n / 0.78), xyz[60];
    int i, k;
    cr_assert_not_null(w);
    w->n = n;
    for (i = 0; i < n; ++i) {
        double s = 0.5 + 0.5 * tu_uniform(&seed);
        int kind = kinds[i % nk];
        wl_sphere(xyz, 20, s, &seed);
        for (k = 0; k < 20; ++k) w->pts[i][k] = tu_vec(xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2]);
        w->kind[i] = kind;
        switch (kind) {
        case K_HULL: case K_RHULL:
            cr_assert_eq(ct_hull_build(w->pts[i], 20, NULL, NULL, &w->hull[i]), CT_OK);
            w->shape[i] = ct_shape_hull(&w->hull[i]);
            if (kind == K_RHULL) w->shape[i] = ct_shape_rounded(w->shape[i], (ct_real)(0.1 * s));
            break;
        case K_HULLBOX:
            cr_assert_eq(ct_hull_box(tu_vec(0.7 * s, 0.5 * s, 0.6 * s), NULL, &w->hull[i]), CT_OK);
            w->shape[i] = ct_shape_hull(&w->hull[i]);
            break;
        case K_SPHERE: w->shape[i] = ct_shape_sphere((ct_real)s); break;
        case K_ELLIPSOID: w->shape[i] = ct_shape_ellipsoid(tu_vec(s, 0.6 * s, 0.8 * s)); break;
        case K_BOX: w->shape[i] = ct_shape_box(tu_vec(0.7 * s, 0.5 * s, 0.6 * s)); break;
        case K_POINTS: w->shape[i] = ct_shape_points(w->pts[i], 20); break;
        case K_TRIANGLE: { /* centred on its centroid, so that it crosses the body's origin */
            ct_vec3 g = ct__scale(ct__add(ct__add(w->pts[i][0], w->pts[i][1]), w->pts[i][2]), (ct_real)(1.0 / 3));
            w->shape[i] = ct_shape_triangle(ct__sub(w->pts[i][0], g), ct__sub(w->pts[i][1], g), ct__sub(w->pts[i][2], g));
            break;
        }
        case K_SUPPORT:
            w->ball[i] = (ct_real)s;
            w->shape[i] = ct_shape_support(ball_support, &w->ball[i]);
            break;
        }
        w->x0[i] = tu_random_xform(&seed, 0);
        w->x0[i].p = tu_vec(side * tu_uniform(&seed), side * tu_uniform(&seed), side * tu_uniform(&seed));
        w->x[i] = w->x0[i];
        w->dir[i] = tu_random_unit(&seed);
        w->axis[i] = tu_random_unit(&seed);
    }
    return w;
}

static void world_free(world *w) {
    int i;
    for (i = 0; i < w->n; ++i) ct_hull_free(&w->hull[i]);
    free(w);
}

/* Poses at step k: each body moved 0.05 along its direction and turned 0.03 rad per step. */
static void world_pose(world *w, double k) {
    int i, a, b, c;
    for (i = 0; i < w->n; ++i) {
        ct_xform r = ct_xform_from_axis_angle(w->axis[i], (ct_real)(0.03 * k), tu_vec(0, 0, 0));
        for (a = 0; a < 3; ++a)
            for (b = 0; b < 3; ++b) {
                ct_real t = 0;
                for (c = 0; c < 3; ++c) t += r.r[a][c] * w->x0[i].r[c][b];
                w->x[i].r[a][b] = t;
            }
        w->x[i].p = ct__madd(w->x0[i].p, w->dir[i], (ct_real)(0.05 * k));
    }
}

static ct_scene *scene_of(const world *w, ct_scene_mode mode, ct_real spec, int threads, int *ids) {
    ct_scene_desc d;
    ct_scene *s;
    int i;
    memset(&d, 0, sizeof d);
    d.mode = mode;
    d.speculative = spec;
    d.threads = threads;
    cr_assert_eq(ct_scene_create(&d, NULL, &s), CT_OK);
    for (i = 0; i < w->n; ++i) {
        ct_body_desc b;
        memset(&b, 0, sizeof b);
        b.shape = w->shape[i];
        b.xform_ref = &w->x[i];
        cr_assert_eq(ct_scene_add(s, &b, &ids[i]), CT_OK);
        cr_assert_eq(ids[i], i);
    }
    return s;
}

/* ---- the oracle: the routine of the dispatch table, called directly with cold caches ----- */
static int is_hull(const world *w, int i) { return w->kind[i] == K_HULL || w->kind[i] == K_HULLBOX; }
static int is_rhull(const world *w, int i) { return w->kind[i] == K_RHULL; }

static ct_status direct(const world *w, int a, int b, ct_scene_mode mode, ct_real spec, ct_manifold *m, ct_contact *c,
                        int *touching) {
    const ct_shape *A = &w->shape[a], *B = &w->shape[b];
    const ct_xform *xa = &w->x[a], *xb = &w->x[b];
    ct_status st;
    int dem = mode == CT_SCENE_VOLUMETRIC;
    memset(m, 0, sizeof *m);
    memset(c, 0, sizeof *c);
    c->face_a = c->face_b = -1;
    if (w->kind[a] == K_ELLIPSOID && w->kind[b] == K_ELLIPSOID) {
        ct_pw pw;
        st = ct_ellipsoids(A->ct__v[0], xa, B->ct__v[0], xb, NULL, &pw);
        if (dem && pw.gap <= 0) { c->found = 1; c->point = c->centroid = pw.point; c->normal = pw.normal; c->gap = pw.gap; }
        if (!dem && pw.gap <= spec) { m->count = 1; m->normal = pw.normal; m->points[0].point = pw.point; m->points[0].separation = pw.gap; }
    } else if (!dem && is_hull(w, a) && is_hull(w, b)) {
        st = ct_manifold_hulls(&w->hull[a], xa, &w->hull[b], xb, spec, NULL, m);
    } else if (!dem && (is_hull(w, a) || is_rhull(w, a)) && (is_hull(w, b) || is_rhull(w, b))) {
        st = ct_manifold_rounded_hulls(&w->hull[a], xa, A->radius, &w->hull[b], xb, B->radius, spec, NULL, m);
    } else if (!dem && is_hull(w, a) && w->kind[b] == K_SPHERE) {
        st = ct_manifold_hull_sphere(&w->hull[a], xa, xb->p, B->radius, spec, m);
    } else if (!dem && w->kind[a] == K_SPHERE && is_hull(w, b)) {
        st = ct_manifold_hull_sphere(&w->hull[b], xb, xa->p, A->radius, spec, m);
        m->normal = ct__neg(m->normal);
    } else if (dem && is_hull(w, a) && is_hull(w, b)) {
        st = ct_contact_hulls(&w->hull[a], xa, &w->hull[b], xb, NULL, c);
    } else {
        ct_distance d;
        ct_gjk_cache gc;
        memset(&gc, 0, sizeof gc);
        st = ct_signed_distance(A, xa, B, xb, &gc, NULL, &d);
        if (dem && d.distance <= 0) {
            c->found = 1; c->point = c->centroid = ct__scale(ct__add(d.pa, d.pb), (ct_real)0.5); c->normal = d.normal; c->gap = d.distance;
        }
        if (!dem && d.distance <= spec) {
            m->count = 1; m->normal = d.normal; m->points[0].point = ct__scale(ct__add(d.pa, d.pb), (ct_real)0.5);
            m->points[0].separation = d.distance;
        }
    }
    *touching = dem ? c->found : m->count > 0;
    return st;
}

static int same_manifold(const ct_manifold *x, const ct_manifold *y) {
    int i;
    if (x->count != y->count || memcmp(&x->normal, &y->normal, sizeof x->normal)) return 0;
    for (i = 0; i < x->count; ++i)
        if (memcmp(&x->points[i].point, &y->points[i].point, sizeof(ct_vec3)) || x->points[i].separation != y->points[i].separation ||
            x->points[i].id != y->points[i].id)
            return 0;
    return 1;
}
static int same_contact(const ct_contact *x, const ct_contact *y) {
    return x->found == y->found && !memcmp(&x->point, &y->point, sizeof x->point) && !memcmp(&x->normal, &y->normal, sizeof x->normal) &&
           x->gap == y->gap && x->area == y->area && x->volume == y->volume && !memcmp(&x->centroid, &y->centroid, sizeof x->centroid) &&
           x->face_a == y->face_a && x->face_b == y->face_b;
}
static int same_entry(const ct_scene_contact *x, const ct_scene_contact *y) {
    return x->a == y->a && x->b == y->b && x->event == y->event && x->status == y->status &&
           same_manifold(&x->manifold, &y->manifold) && same_contact(&x->contact, &y->contact);
}

/* Every pair (brute force): the scene's touching set equals the direct routines', each entry
   bit-identical to the direct call when `exact` (else touching status only, away from the
   speculative boundary). With spec > 0 a pair may be missed only when its bodies are apart
   (the scene culls by boxes and bounding spheres). Returns the touching count. */
static int check_against_direct(const world *w, const ct_scene_result *r, ct_scene_mode mode, ct_real spec, int exact_all) {
    int a, b, k = 0, count = 0;
    for (a = 0; a < w->n; ++a)
        for (b = a + 1; b < w->n; ++b) {
            ct_manifold m;
            ct_contact c;
            int t, in = k < r->ntouching && r->touching[k].a == a && r->touching[k].b == b;
            ct_status st = direct(w, a, b, mode, spec, &m, &c, &t);
            int cachefree = mode == CT_SCENE_VOLUMETRIC ? (is_hull(w, a) && is_hull(w, b))
                                                        : ((is_hull(w, a) || is_rhull(w, a)) && (is_hull(w, b) || is_rhull(w, b))) ||
                                                              (is_hull(w, a) && w->kind[b] == K_SPHERE) || (w->kind[a] == K_SPHERE && is_hull(w, b));
            cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE, "pair %d %d: %s", a, b, ct_status_string(st));
            if (in) {
                const ct_scene_contact *e = &r->touching[k++];
                cr_assert(t || !(exact_all || cachefree), "pair (%d, %d) kinds %d %d: scene touching, direct not", a, b, w->kind[a], w->kind[b]);
                if (exact_all || cachefree) {
                    cr_assert(mode == CT_SCENE_VOLUMETRIC ? same_contact(&e->contact, &c) : same_manifold(&e->manifold, &m),
                              "pair (%d, %d) kinds %d %d: scene result differs from the direct call", a, b, w->kind[a], w->kind[b]);
                }
                ++count;
            } else if (t) {
                ct_distance d;
                cr_assert(spec > 0 || !(exact_all || cachefree), "pair (%d, %d) kinds %d %d: direct touching, scene not", a, b, w->kind[a], w->kind[b]);
                cr_assert_eq(ct_signed_distance(&w->shape[a], &w->x[a], &w->shape[b], &w->x[b], NULL, NULL, &d), CT_OK);
                cr_assert(d.distance > 0 || !(exact_all || cachefree), "pair (%d, %d): missed while not apart (%g)", a, b, (double)d.distance);
            }
        }
    cr_assert_eq(k, r->ntouching, "the scene reports pairs that are not (a < b, sorted)");
    return count;
}

static const int ALL_KINDS[NKIND] = { K_HULL, K_RHULL, K_SPHERE, K_ELLIPSOID, K_BOX, K_POINTS, K_TRIANGLE, K_SUPPORT, K_HULLBOX };

Test(scene, equals_direct_calls_on_every_pair) {
    static const ct_real specs[2] = { 0, (ct_real)0.05 };
    int mode, si, ids[200], step;
    world *w = world_make(180, ALL_KINDS, NKIND, 7);
    for (mode = 0; mode < 2; ++mode)
        for (si = 0; si < 2; ++si) {
            ct_scene_result r;
            ct_scene *s;
            int total = 0;
            world_pose(w, 0);
            s = scene_of(w, (ct_scene_mode)mode, specs[si], 0, ids);
            for (step = 0; step < 4; ++step) {
                world_pose(w, step);
                cr_assert_eq(ct_scene_step(s, &r), CT_OK);
                /* first step: caches cold on both sides, every kind exact; later steps: the
                   routines whose answer does not depend on a cache exact */
                total += check_against_direct(w, &r, (ct_scene_mode)mode, specs[si], step == 0);
            }
            cr_assert_gt(total, 100, "too few contacts to test anything (%d)", total);
            ct_scene_destroy(s);
        }
    world_free(w);
}

/* ---- thread counts --------------------------------------------------------------------- */
typedef struct record { ct_scene_contact *t, *e; int nt, ne; } record;
static void rec_take(record *rec, const ct_scene_result *r) {
    rec->t = (ct_scene_contact *)malloc(sizeof *rec->t * (size_t)(r->ntouching + 1));
    rec->e = (ct_scene_contact *)malloc(sizeof *rec->e * (size_t)(r->nended + 1));
    cr_assert(rec->t && rec->e);
    if (r->ntouching) memcpy(rec->t, r->touching, sizeof *rec->t * (size_t)r->ntouching);
    if (r->nended) memcpy(rec->e, r->ended, sizeof *rec->e * (size_t)r->nended);
    rec->nt = r->ntouching;
    rec->ne = r->nended;
}

/* r bit for bit as the reference step ref (taken at another thread count). */
static void expect_same_step(const ct_scene_result *r, const record *ref, int threads, int step) {
    int i;
    cr_assert_eq(r->ntouching, ref->nt, "%d threads, step %d: touching count", threads, step);
    cr_assert_eq(r->nended, ref->ne, "%d threads, step %d: ended count", threads, step);
    for (i = 0; i < r->ntouching; ++i)
        cr_assert(same_entry(&r->touching[i], &ref->t[i]), "%d threads, step %d: entry %d differs", threads, step, i);
    for (i = 0; i < r->nended; ++i)
        cr_assert(same_entry(&r->ended[i], &ref->e[i]), "%d threads, step %d: ended %d differs", threads, step, i);
}

Test(scene, identical_for_thread_counts_1_2_3_4_7) {
    static const int threads[5] = { 1, 2, 3, 4, 7 };
    enum { STEPS = 6 };
    int mode, ti, step, ids[200];
    world *w = world_make(200, ALL_KINDS, NKIND, 11);
    for (mode = 0; mode < 2; ++mode) {
        record ref[STEPS];
        for (ti = 0; ti < 5; ++ti) {
            ct_scene *s;
            world_pose(w, 0);
            tu_set_threads(threads[ti]);
            s = scene_of(w, (ct_scene_mode)mode, (ct_real)0.02, threads[ti], ids);
            for (step = 0; step < STEPS; ++step) {
                ct_scene_result r;
                world_pose(w, 3 * step);
                cr_assert_eq(ct_scene_step(s, &r), CT_OK);
                if (ti == 0) {
                    rec_take(&ref[step], &r);
                    continue;
                }
                expect_same_step(&r, &ref[step], threads[ti], step);
            }
            ct_scene_destroy(s);
        }
        for (step = 0; step < STEPS; ++step) { free(ref[step].t); free(ref[step].e); }
    }
    tu_set_threads(2);
    world_free(w);
}

/* A scene whose table spans many commit chunks (6,000 hulls, ~45,000 fat pairs): the same
   outputs for 1, 3 and 7 threads, and at every step BEGIN exactly for the touching pairs that
   did not touch at the step before, PERSIST for the others, and ENDED exactly the pairs that
   touched then and do not now (merges of the sorted lists, independent of the scene). */
static int pair_less(const ct_scene_contact *x, int a, int b) { return x->a < a || (x->a == a && x->b < b); }
Test(scene, chunked_commit_identical_for_thread_counts) {
    enum { N = 6000, STEPS = 4 };
    static const int threads[3] = { 1, 3, 7 };
    unsigned long long seed = 29;
    double side = cbrt(N / 0.78), xyz[60];
    ct_hull *hull = (ct_hull *)calloc(N, sizeof *hull);
    ct_xform *x0 = (ct_xform *)malloc(sizeof *x0 * N), *x = (ct_xform *)malloc(sizeof *x * N);
    ct_vec3 *dir = (ct_vec3 *)malloc(sizeof *dir * N), *axis = (ct_vec3 *)malloc(sizeof *axis * N), pts[20];
    record ref[STEPS];
    int i, k, ti, step;
    cr_assert(hull && x0 && x && dir && axis);
    for (i = 0; i < N; ++i) {
        double sz = 0.5 + 0.5 * tu_uniform(&seed);
        wl_sphere(xyz, 20, sz, &seed);
        for (k = 0; k < 20; ++k) pts[k] = tu_vec(xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2]);
        cr_assert_eq(ct_hull_build(pts, 20, NULL, NULL, &hull[i]), CT_OK);
        x0[i] = tu_random_xform(&seed, 0);
        x0[i].p = tu_vec(side * tu_uniform(&seed), side * tu_uniform(&seed), side * tu_uniform(&seed));
        dir[i] = tu_random_unit(&seed);
        axis[i] = tu_random_unit(&seed);
    }
    for (ti = 0; ti < 3; ++ti) {
        ct_scene_desc d;
        ct_scene *s;
        memset(&d, 0, sizeof d);
        d.speculative = (ct_real)0.02;
        d.threads = threads[ti];
        tu_set_threads(threads[ti]);
        cr_assert_eq(ct_scene_create(&d, NULL, &s), CT_OK);
        memcpy(x, x0, sizeof *x * N);
        for (i = 0; i < N; ++i) {
            ct_body_desc b;
            int id;
            memset(&b, 0, sizeof b);
            b.shape = ct_shape_hull(&hull[i]);
            b.xform_ref = &x[i];
            cr_assert_eq(ct_scene_add(s, &b, &id), CT_OK);
        }
        for (step = 0; step < STEPS; ++step) {
            ct_scene_result r;
            for (i = 0; i < N; ++i) {   /* 0.05 along dir and 0.03 rad per step, as world_pose */
                ct_xform rot = ct_xform_from_axis_angle(axis[i], (ct_real)(0.03 * step), tu_vec(0, 0, 0));
                int a, b, c;
                for (a = 0; a < 3; ++a)
                    for (b = 0; b < 3; ++b) {
                        ct_real t = 0;
                        for (c = 0; c < 3; ++c) t += rot.r[a][c] * x0[i].r[c][b];
                        x[i].r[a][b] = t;
                    }
                x[i].p = ct__madd(x0[i].p, dir[i], (ct_real)(0.05 * step));
            }
            cr_assert_eq(ct_scene_step(s, &r), CT_OK);
            if (ti == 0) {
                int nb = 0, j = 0, e = 0;
                cr_assert_gt(r.npairs, 8 * 4096, "the table spans few chunks (%d pairs)", r.npairs);
                for (i = 0; i < r.ntouching; ++i) {   /* BEGIN iff not touching at the step before */
                    int was;
                    if (step == 0) { cr_assert_eq(r.touching[i].event, CT_SCENE_BEGIN); ++nb; continue; }
                    while (j < ref[step - 1].nt && pair_less(&ref[step - 1].t[j], r.touching[i].a, r.touching[i].b)) {
                        /* touching before, not now: ENDED, in order */
                        cr_assert_lt(e, r.nended);
                        cr_assert(r.ended[e].a == ref[step - 1].t[j].a && r.ended[e].b == ref[step - 1].t[j].b &&
                                  r.ended[e].event == CT_SCENE_END, "step %d: ended %d", step, e);
                        ++e;
                        ++j;
                    }
                    was = j < ref[step - 1].nt && ref[step - 1].t[j].a == r.touching[i].a && ref[step - 1].t[j].b == r.touching[i].b;
                    j += was;
                    cr_assert_eq(r.touching[i].event, was ? CT_SCENE_PERSIST : CT_SCENE_BEGIN, "step %d: entry %d", step, i);
                    nb += !was;
                }
                if (step > 0)
                    for (; j < ref[step - 1].nt; ++j, ++e) {
                        cr_assert_lt(e, r.nended);
                        cr_assert(r.ended[e].a == ref[step - 1].t[j].a && r.ended[e].b == ref[step - 1].t[j].b);
                    }
                cr_assert_eq(e, r.nended, "step %d: %d ended, %d expected", step, r.nended, e);
                cr_assert_eq(nb, r.nbegan);
                cr_assert_gt(r.ntouching, 1000);
                rec_take(&ref[step], &r);
                continue;
            }
            expect_same_step(&r, &ref[step], threads[ti], step);
        }
        ct_scene_destroy(s);
    }
    for (step = 0; step < STEPS; ++step) { free(ref[step].t); free(ref[step].e); }
    for (i = 0; i < N; ++i) ct_hull_free(&hull[i]);
    free(hull); free(x0); free(x); free(dir); free(axis);
    tu_set_threads(2);
}

/* ---- events ------------------------------------------------------------------------------ */
/* Over a moving scene: BEGIN exactly for pairs touching now and not at the last step, ENDED
   exactly the pairs touching at the last step and not now, everything else PERSIST. */
Test(scene, events_follow_the_touching_sets) {
    enum { STEPS = 25 };
    int ids[200], step, i, j, begins = 0, ends = 0;
    world *w = world_make(150, ALL_KINDS, NKIND, 23);
    unsigned char *prev = (unsigned char *)calloc(150 * 150, 1), *now = (unsigned char *)calloc(150 * 150, 1);
    ct_scene *s = scene_of(w, CT_SCENE_MANIFOLD, (ct_real)0.01, 0, ids);
    cr_assert(prev && now);
    for (step = 0; step < STEPS; ++step) {
        ct_scene_result r;
        int nb = 0;
        world_pose(w, step);
        cr_assert_eq(ct_scene_step(s, &r), CT_OK);
        memset(now, 0, 150 * 150);
        for (i = 0; i < r.ntouching; ++i) {
            const ct_scene_contact *c = &r.touching[i];
            now[c->a * 150 + c->b] = 1;
            cr_assert_eq(c->event, prev[c->a * 150 + c->b] ? CT_SCENE_PERSIST : CT_SCENE_BEGIN, "step %d pair (%d, %d)", step, c->a, c->b);
            nb += c->event == CT_SCENE_BEGIN;
        }
        cr_assert_eq(nb, r.nbegan);
        begins += nb;
        for (i = 0; i < r.nended; ++i) {
            const ct_scene_contact *c = &r.ended[i];
            cr_assert_eq(c->event, CT_SCENE_END);
            cr_assert(prev[c->a * 150 + c->b] && !now[c->a * 150 + c->b], "step %d: end of (%d, %d) is wrong", step, c->a, c->b);
            if (i > 0) cr_assert(r.ended[i - 1].a < c->a || (r.ended[i - 1].a == c->a && r.ended[i - 1].b < c->b));
        }
        j = 0;
        for (i = 0; i < 150 * 150; ++i) j += prev[i] && !now[i];
        cr_assert_eq(j, r.nended, "step %d: %d pairs ended, %d reported", step, j, r.nended);
        ends += r.nended;
        memcpy(prev, now, 150 * 150);
    }
    cr_assert_gt(ends, 10, "the motion ended too few contacts (%d) to test anything", ends);
    cr_assert_gt(begins, 10);
    ct_scene_destroy(s);
    free(prev); free(now);
    world_free(w);
}

/* A sphere passing through another: one BEGIN, PERSIST while they touch, one END. */
Test(scene, pass_through_begins_once_and_ends_once) {
    ct_scene *s;
    ct_scene_result r;
    ct_body_desc d;
    ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
    int a, b, k, begin = 0, persist = 0, end = 0, touching_steps = 0;
    cr_assert_eq(ct_scene_create(NULL, NULL, &s), CT_OK);
    memset(&d, 0, sizeof d);
    d.shape = ct_shape_sphere(1);
    d.xform_ref = &xa;
    cr_assert_eq(ct_scene_add(s, &d, &a), CT_OK);
    d.shape = ct_shape_box(tu_vec(0.5, 0.5, 0.5));
    d.xform_ref = &xb;
    cr_assert_eq(ct_scene_add(s, &d, &b), CT_OK);
    for (k = 0; k <= 80; ++k) {
        xb.p = tu_vec(-5 + 0.125 * k, 0.2, 0);  /* touching for x in [-1.5, 1.5]: 25 steps */
        cr_assert_eq(ct_scene_step(s, &r), CT_OK);
        if (r.ntouching) {
            cr_assert_eq(r.ntouching, 1);
            cr_assert(r.touching[0].a == a && r.touching[0].b == b);
            begin += r.touching[0].event == CT_SCENE_BEGIN;
            persist += r.touching[0].event == CT_SCENE_PERSIST;
            ++touching_steps;
            cr_assert(r.touching[0].manifold.normal.x * (xb.p.x - xa.p.x) >= 0, "normal from A to B");
        }
        end += r.nended;
    }
    cr_assert_eq(begin, 1);
    cr_assert_eq(end, 1);
    cr_assert_eq(persist, touching_steps - 1);
    cr_assert(touching_steps >= 23 && touching_steps <= 26, "%d", touching_steps);
    ct_scene_destroy(s);
}

/* ---- add / remove / filters -------------------------------------------------------------- */
Test(scene, add_and_remove_between_steps) {
    int ids[200], i, k, nid;
    world *w = world_make(120, ALL_KINDS, NKIND, 31);
    ct_scene *s = scene_of(w, CT_SCENE_MANIFOLD, 0, 0, ids);
    ct_scene_result r;
    ct_body_desc d;
    int victim = -1, partners = 0;
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    /* remove a body with contacts: its touching pairs end, nothing else changes */
    for (i = 0; i < r.ntouching && victim < 0; ++i) victim = r.touching[i].a;
    for (i = 0; i < r.ntouching; ++i) partners += r.touching[i].a == victim || r.touching[i].b == victim;
    cr_assert_gt(partners, 0);
    k = r.ntouching;
    cr_assert_eq(ct_scene_remove(s, victim), CT_OK);
    cr_assert_eq(ct_scene_remove(s, victim), CT_INVALID, "removed twice");
    cr_assert_eq(ct_scene_set_xform(s, victim, &w->x[0]), CT_INVALID);
    cr_assert_null(ct_scene_user(s, victim));
    /* an id is not reused before the next step */
    memset(&d, 0, sizeof d);
    d.shape = ct_shape_sphere((ct_real)0.01);
    d.xform.r[0][0] = d.xform.r[1][1] = d.xform.r[2][2] = 1;
    d.xform.p = tu_vec(-100, -100, -100);
    cr_assert_eq(ct_scene_add(s, &d, &nid), CT_OK);
    cr_assert_neq(nid, victim);
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    cr_assert_eq(r.nended, partners);
    for (i = 0; i < r.nended; ++i) cr_assert(r.ended[i].a == victim || r.ended[i].b == victim);
    cr_assert_eq(r.ntouching, k - partners);
    for (i = 0; i < r.ntouching; ++i) {
        cr_assert(r.touching[i].a != victim && r.touching[i].b != victim);
        cr_assert_eq(r.touching[i].event, CT_SCENE_PERSIST);
    }
    /* after the step the slot is free again; re-adding the same body restores its pairs */
    memset(&d, 0, sizeof d);
    d.shape = w->shape[victim];
    d.xform_ref = &w->x[victim];
    d.user = &w->x[victim];
    cr_assert_eq(ct_scene_add(s, &d, &nid), CT_OK);
    cr_assert_eq(nid, victim);
    cr_assert_eq(ct_scene_user(s, nid), &w->x[victim]);
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    cr_assert_eq(r.ntouching, k);
    cr_assert_eq(r.nbegan, partners);
    /* two new bodies (new ids) on top of body 0, after steps that kept the bodies: they touch
       body 0 and each other at once (the narrow phase's order must take in the new bodies) */
    memset(&d, 0, sizeof d);
    d.shape = w->shape[0];
    d.xform_ref = &w->x[0];
    cr_assert_eq(ct_scene_add(s, &d, &nid), CT_OK);
    cr_assert_eq(ct_scene_add(s, &d, &victim), CT_OK);
    cr_assert(nid >= w->n && victim > nid);
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    cr_assert_eq(r.nbegan, r.ntouching - k, "only the copies' pairs begin");
    for (i = 0, partners = 0; i < r.ntouching; ++i)
        partners += (r.touching[i].a == 0 && (r.touching[i].b == nid || r.touching[i].b == victim)) ||
                    (r.touching[i].a == nid && r.touching[i].b == victim);
    cr_assert_eq(partners, 3, "the copies touch body 0 and each other");
    ct_scene_destroy(s);
    world_free(w);
}

/* A broad step merges only the ct_bp's added and removed pairs into the committed table when
   nothing else changed; a scene that adds or removes a far-away body before every step merges
   the whole pair list instead. Both must give the same table (pair count), outputs and events
   at every step, with and without filters, over motion that keeps pairs appearing and
   disappearing. */
Test(scene, incremental_table_equals_full_merge) {
    int ids[200], i, step, filtered;
    world *w = world_make(150, ALL_KINDS, NKIND, 43);
    for (filtered = 0; filtered < 2; ++filtered) {
        ct_scene *s[2];
        ct_scene_result r[2];
        int dummy = -1, broad = 0, ended = 0, grew = 0, shrank = 0, prev = -1, k;
        world_pose(w, 0);
        for (k = 0; k < 2; ++k) {
            cr_assert_eq(ct_scene_create(NULL, NULL, &s[k]), CT_OK);
            for (i = 0; i < w->n; ++i) {
                ct_body_desc d;
                memset(&d, 0, sizeof d);
                d.shape = w->shape[i];
                d.xform_ref = &w->x[i];
                if (filtered && i % 3 == 0) { d.group = 2; d.mask = 1; }   /* these never meet each other */
                cr_assert_eq(ct_scene_add(s[k], &d, &ids[i]), CT_OK);
            }
        }
        for (step = 0; step < 24; ++step) {
            world_pose(w, 12 * sin(0.35 * step));
            if (dummy >= 0) { /* the second scene changes its bodies before every step */
                cr_assert_eq(ct_scene_remove(s[1], dummy), CT_OK);
                dummy = -1;
            } else {
                ct_body_desc d;
                memset(&d, 0, sizeof d);
                d.shape = ct_shape_sphere((ct_real)0.5);
                d.xform.r[0][0] = d.xform.r[1][1] = d.xform.r[2][2] = 1;
                d.xform.p = tu_vec(1e4, 1e4, 1e4);
                cr_assert_eq(ct_scene_add(s[1], &d, &dummy), CT_OK);
            }
            for (k = 0; k < 2; ++k) cr_assert_eq(ct_scene_step(s[k], &r[k]), CT_OK);
            cr_assert(r[1].broadphase);
            cr_assert_eq(r[0].npairs, r[1].npairs, "step %d: table sizes %d and %d", step, r[0].npairs, r[1].npairs);
            cr_assert_eq(r[0].ntouching, r[1].ntouching, "step %d", step);
            cr_assert_eq(r[0].nended, r[1].nended, "step %d", step);
            cr_assert_eq(r[0].nbegan, r[1].nbegan, "step %d", step);
            for (i = 0; i < r[0].ntouching; ++i)
                cr_assert(same_entry(&r[0].touching[i], &r[1].touching[i]), "step %d: entry %d", step, i);
            for (i = 0; i < r[0].nended; ++i)
                cr_assert(same_entry(&r[0].ended[i], &r[1].ended[i]), "step %d: ended %d", step, i);
            if (filtered)
                for (i = 0; i < r[0].ntouching; ++i)
                    cr_assert(r[0].touching[i].a % 3 || r[0].touching[i].b % 3, "a filtered pair touches");
            broad += step > 0 && r[0].broadphase;
            ended += r[0].nended;
            grew += prev >= 0 && r[0].npairs > prev;
            shrank += prev >= 0 && r[0].npairs < prev;
            prev = r[0].npairs;
        }
        /* the incremental merge ran, and the table both gained and lost pairs */
        cr_assert_gt(broad, 10, "%d broad steps", broad);
        cr_assert_gt(ended, 10);
        cr_assert(grew > 2 && shrank > 2, "grew %d shrank %d", grew, shrank);
        for (k = 0; k < 2; ++k) ct_scene_destroy(s[k]);
    }
    world_free(w);
}

Test(scene, filters_group_and_mask) {
    int ids[200], i, b;
    world *w = world_make(120, ALL_KINDS, NKIND, 41);
    ct_scene *all = scene_of(w, CT_SCENE_MANIFOLD, 0, 0, ids), *s;
    ct_scene_result ra, r;
    unsigned group[120], mask[120];
    unsigned long long seed = 5;
    int kept = 0, dropped = 0;
    cr_assert_eq(ct_scene_create(NULL, NULL, &s), CT_OK);
    for (i = 0; i < w->n; ++i) {
        ct_body_desc d;
        int id;
        memset(&d, 0, sizeof d);
        d.shape = w->shape[i];
        d.xform = w->x[i];
        group[i] = 1u << (int)(4 * tu_uniform(&seed));
        mask[i] = (unsigned)(16 * tu_uniform(&seed)) | 1u;
        d.group = group[i];
        d.mask = mask[i];
        cr_assert_eq(ct_scene_add(s, &d, &id), CT_OK);
    }
    cr_assert_eq(ct_scene_step(all, &ra), CT_OK);
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    /* the filtered set is exactly the unfiltered set minus the pairs the filter rejects */
    for (i = 0, b = 0; i < ra.ntouching; ++i) {
        int x = ra.touching[i].a, y = ra.touching[i].b;
        int pass = (group[x] & mask[y]) && (group[y] & mask[x]);
        if (pass) {
            cr_assert(b < r.ntouching && r.touching[b].a == x && r.touching[b].b == y, "pair (%d, %d) passes the filter", x, y);
            cr_assert(same_manifold(&r.touching[b].manifold, &ra.touching[i].manifold));
            ++b;
            ++kept;
        } else {
            ++dropped;
        }
    }
    cr_assert_eq(b, r.ntouching);
    cr_assert(kept > 5 && dropped > 5, "kept %d dropped %d", kept, dropped);
    ct_scene_destroy(all);
    ct_scene_destroy(s);
    world_free(w);
}

/* ---- every pair of shape kinds ------------------------------------------------------------ */
/* Two bodies of every pair of kinds, B placed along a direction from A overlapping, grazing
   and apart: touching as the direct routine says, normal from A to B, in both modes. */
Test(scene, every_pair_of_shape_kinds) {
    int ka, kb, mode, trial;
    world *w = world_make(NKIND, ALL_KINDS, NKIND, 3);
    for (mode = 0; mode < 2; ++mode)
        for (ka = 0; ka < NKIND; ++ka)
            for (kb = 0; kb < NKIND; ++kb)
                for (trial = 0; trial < 3; ++trial) {
                    static const double offs[3] = { 0.4, 0.9, 3.0 };
                    world two;
                    ct_scene *s;
                    ct_scene_result r;
                    ct_manifold m;
                    ct_contact c;
                    int ids[2], t;
                    memset(&two, 0, sizeof two);
                    two.n = 2;
                    two.shape[0] = w->shape[ka]; two.kind[0] = w->kind[ka]; two.hull[0] = w->hull[ka];
                    two.shape[1] = w->shape[kb]; two.kind[1] = w->kind[kb]; two.hull[1] = w->hull[kb];
                    if (two.kind[0] == K_HULL || two.kind[0] == K_RHULL || two.kind[0] == K_HULLBOX) two.shape[0].ct__hull = &two.hull[0];
                    if (two.kind[1] == K_HULL || two.kind[1] == K_RHULL || two.kind[1] == K_HULLBOX) two.shape[1].ct__hull = &two.hull[1];
                    two.x[0] = w->x0[ka];
                    two.x[1] = w->x0[kb];
                    two.x[0].p = tu_vec(0, 0, 0);
                    two.x[1].p = tu_vec(offs[trial], 0.3 * offs[trial], -0.2 * offs[trial]);
                    s = scene_of(&two, (ct_scene_mode)mode, (ct_real)0.01, 1, ids);
                    cr_assert_eq(ct_scene_step(s, &r), CT_OK, "kinds %d %d", ka, kb);
                    cr_assert_eq(direct(&two, 0, 1, (ct_scene_mode)mode, (ct_real)0.01, &m, &c, &t), CT_OK);
                    cr_assert_eq(r.ntouching, t, "kinds %d %d mode %d offset %g", ka, kb, mode, offs[trial]);
                    if (trial == 0 && !(two.kind[0] == K_TRIANGLE && two.kind[1] == K_TRIANGLE)) /* two flat triangles may miss */
                        cr_assert_eq(t, 1, "kinds %d %d overlap", ka, kb);
                    if (trial == 2) cr_assert_eq(t, 0, "kinds %d %d apart", ka, kb);
                    if (t) {
                        ct_vec3 n = mode ? r.touching[0].contact.normal : r.touching[0].manifold.normal;
                        cr_assert(mode ? same_contact(&r.touching[0].contact, &c) : same_manifold(&r.touching[0].manifold, &m),
                                  "kinds %d %d mode %d: differs from the direct call", ka, kb, mode);
                        /* B lies along +offset from A (a triangle's plane is off its origin: skipped) */
                        if (two.kind[0] != K_TRIANGLE && two.kind[1] != K_TRIANGLE)
                            cr_assert(ct__dot(n, two.x[1].p) > 0, "kinds %d %d: normal not from A to B", ka, kb);
                    }
                    ct_scene_destroy(s);
                }
    world_free(w);
}

/* ---- temporal coherence -------------------------------------------------------------------- */
Test(scene, static_step_reuses_and_moving_step_recomputes) {
    int ids[200], i;
    world *w = world_make(150, ALL_KINDS, NKIND, 51);
    ct_scene *s = scene_of(w, CT_SCENE_MANIFOLD, (ct_real)0.01, 0, ids);
    ct_scene_result r;
    record first;
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    cr_assert_eq(r.broadphase, 1);
    rec_take(&first, &r);
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    cr_assert_eq(r.broadphase, 0, "nothing moved: no broad phase");
    cr_assert_eq(r.ntouching, first.nt);
    cr_assert_eq(r.nended, 0);
    for (i = 0; i < r.ntouching; ++i) {
        cr_assert_eq(r.touching[i].event, CT_SCENE_PERSIST);
        first.t[i].event = CT_SCENE_PERSIST;
        cr_assert(same_entry(&r.touching[i], &first.t[i]));
    }
    /* a tiny motion stays inside the fat boxes (no broad phase) but is recomputed */
    for (i = 0; i < w->n; ++i) w->x[i].p.x += (ct_real)1e-3;
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    cr_assert_eq(r.broadphase, 0);
    check_against_direct(w, &r, CT_SCENE_MANIFOLD, (ct_real)0.01, 0);
    /* a large motion of one body runs the broad phase */
    w->x[0].p.x += 3;
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    cr_assert_eq(r.broadphase, 1);
    check_against_direct(w, &r, CT_SCENE_MANIFOLD, (ct_real)0.01, 0);
    free(first.t); free(first.e);
    ct_scene_destroy(s);
    world_free(w);
}

/* ---- bad input ---------------------------------------------------------------------------- */
Test(scene, bad_input_is_an_answer_and_the_scene_survives) {
    int ids[200], i, id;
    world *w = world_make(100, ALL_KINDS, NKIND, 61);
    ct_scene *s, *t;
    ct_scene_result r, r2;
    ct_scene_desc d;
    ct_body_desc b;
    record ref;
    ct_xform keep;
    /* create */
    memset(&d, 0, sizeof d);
    d.speculative = -1;
    cr_assert_eq(ct_scene_create(&d, NULL, &t), CT_INVALID);
    cr_assert_null(t);
    d.speculative = (ct_real)NAN;
    cr_assert_eq(ct_scene_create(&d, NULL, &t), CT_INVALID);
    d.speculative = 0;
    d.mode = (ct_scene_mode)7;
    cr_assert_eq(ct_scene_create(&d, NULL, &t), CT_INVALID);
    d.mode = CT_SCENE_MANIFOLD;
    d.threads = -2;
    cr_assert_eq(ct_scene_create(&d, NULL, &t), CT_INVALID);
    cr_assert_eq(ct_scene_create(NULL, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_scene_step(NULL, &r), CT_INVALID);
    ct_scene_destroy(NULL);
    /* add */
    s = scene_of(w, CT_SCENE_MANIFOLD, 0, 0, ids);
    memset(&b, 0, sizeof b);
    b.shape = ct_shape_sphere(-1);
    b.xform = ct_xform_identity();
    cr_assert_eq(ct_scene_add(s, &b, &id), CT_INVALID);
    cr_assert_eq(id, -1);
    b.shape = ct_shape_sphere(1);
    b.margin = (ct_real)NAN;
    cr_assert_eq(ct_scene_add(s, &b, &id), CT_INVALID);
    b.margin = 0;
    b.xform.r[0][0] = 2; /* not rigid */
    cr_assert_eq(ct_scene_add(s, &b, &id), CT_INVALID);
    cr_assert_eq(ct_scene_add(s, NULL, &id), CT_INVALID);
    cr_assert_eq(ct_scene_add(s, &b, NULL), CT_INVALID);
    cr_assert_eq(ct_scene_remove(s, -1), CT_INVALID);
    cr_assert_eq(ct_scene_remove(s, 1000), CT_INVALID);
    cr_assert_eq(ct_scene_set_xform(s, 0, NULL), CT_INVALID);
    cr_assert_eq(ct_scene_set_xform(s, 0, &b.xform), CT_INVALID);
    cr_assert_eq(ct_scene_step(s, NULL), CT_INVALID);
    /* a NaN transform read through xform_ref fails the step and changes nothing */
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    rec_take(&ref, &r);
    world_pose(w, 2);
    keep = w->x[17];
    w->x[17].p.y = (ct_real)NAN;
    cr_assert_eq(ct_scene_step(s, &r), CT_INVALID);
    cr_assert_eq(r.ntouching, 0);
    cr_assert_null(r.touching);
    w->x[17].r[1][1] = (ct_real)INFINITY;
    w->x[17].p = keep.p;
    cr_assert_eq(ct_scene_step(s, &r), CT_INVALID);
    /* fixed: the step gives what it gives in a scene that never saw the bad ones */
    w->x[17] = keep;
    cr_assert_eq(ct_scene_step(s, &r), CT_OK);
    t = scene_of(w, CT_SCENE_MANIFOLD, 0, 0, ids);
    world_pose(w, 0);
    cr_assert_eq(ct_scene_step(t, &r2), CT_OK);
    world_pose(w, 2);
    cr_assert_eq(ct_scene_step(t, &r2), CT_OK);
    cr_assert_eq(r.ntouching, r2.ntouching);
    cr_assert_eq(r.nended, r2.nended);
    cr_assert_eq(r.nbegan, r2.nbegan);
    for (i = 0; i < r.ntouching; ++i) cr_assert(same_entry(&r.touching[i], &r2.touching[i]), "entry %d", i);
    for (i = 0; i < r.nended; ++i) cr_assert(same_entry(&r.ended[i], &r2.ended[i]), "ended %d", i);
    free(ref.t); free(ref.e);
    ct_scene_destroy(s);
    ct_scene_destroy(t);
    world_free(w);
}

/* A step that fails in the narrow phase (a user support turned non-finite: CT_INVALID from the
   pair's GJK) has already worked on every moved pair; the committed answers must not take its
   results. Back at the committed poses, the next step equals a second step at those poses in a
   scene that never failed, with and without a broad phase in the failed step. */
typedef struct poison_ball { ct_real r; int poison; } poison_ball;
static void poison_support(const void *user, const ct_vec3 *d, ct_vec3 *out) {
    const poison_ball *p = (const poison_ball *)user;
    ct_real l = (ct_real)sqrt((double)(d->x * d->x + d->y * d->y + d->z * d->z));
    int axes = (d->x != 0) + (d->y != 0) + (d->z != 0);
    if (p->poison && axes > 1) { out->x = out->y = out->z = (ct_real)NAN; return; }   /* not on the box's axes */
    out->x = l > 0 ? p->r * d->x / l : p->r;
    out->y = l > 0 ? p->r * d->y / l : 0;
    out->z = l > 0 ? p->r * d->z / l : 0;
}
/* r as r2, the poisoned body's (N - 1) pairs to EPA's rounding. */
static void expect_same_but_curved(const ct_scene_result *r, const ct_scene_result *r2, int last, int jump, int stage) {
    int k;
    cr_assert_eq(r->npairs, r2->npairs, "jump %d stage %d", jump, stage);
    cr_assert_eq(r->ntouching, r2->ntouching, "jump %d stage %d", jump, stage);
    cr_assert_eq(r->nended, r2->nended, "jump %d stage %d", jump, stage);
    for (k = 0; k < r->ntouching; ++k) {
        const ct_scene_contact *u = &r->touching[k], *v = &r2->touching[k];
        if (u->b != last) cr_assert(same_entry(u, v), "jump %d stage %d entry %d", jump, stage, k);
        else   /* the support shape's pairs run EPA on a curved set: warm and cold agree to rounding */
            cr_assert(u->a == v->a && u->event == v->event && u->status == v->status &&
                          u->manifold.count == v->manifold.count &&
                          fabs((double)(u->manifold.points[0].separation - v->manifold.points[0].separation)) < 1024 * (double)TU_EPS,
                      "jump %d stage %d entry %d", jump, stage, k);
    }
    for (k = 0; k < r->nended; ++k) cr_assert(same_entry(&r->ended[k], &r2->ended[k]), "jump %d stage %d ended %d", jump, stage, k);
}
Test(scene, failed_step_leaves_the_committed_answers) {
    enum { N = 28 };
    int jump, i;
    for (jump = 0; jump < 2; ++jump) {
        poison_ball pb = { (ct_real)0.6, 0 };
        ct_xform x[N], x0[N];
        ct_scene *s, *t;
        ct_scene_desc d;
        ct_scene_result r, r2;
        memset(&d, 0, sizeof d);
        d.threads = 1;
        cr_assert_eq(ct_scene_create(&d, NULL, &s), CT_OK);
        cr_assert_eq(ct_scene_create(&d, NULL, &t), CT_OK);
        for (i = 0; i < N; ++i) {   /* a 3x3x3 lattice of overlapping balls and the poisoned one */
            ct_body_desc b;
            int id;
            memset(&b, 0, sizeof b);
            x[i] = ct_xform_identity();
            if (i < 27) {
                x[i].p.x = (ct_real)(i % 3) + (ct_real)0.01 * (ct_real)i;
                x[i].p.y = (ct_real)(i / 3 % 3) - (ct_real)0.007 * (ct_real)i;
                x[i].p.z = (ct_real)(i / 9);
                b.shape = ct_shape_sphere((ct_real)0.55);
            } else {
                x[i].p.x = (ct_real)1.43; x[i].p.y = (ct_real)1.31; x[i].p.z = (ct_real)0.77;
                b.shape = ct_shape_support(poison_support, &pb);
            }
            x0[i] = x[i];
            b.xform_ref = &x[i];
            cr_assert_eq(ct_scene_add(s, &b, &id), CT_OK);
            cr_assert_eq(ct_scene_add(t, &b, &id), CT_OK);
        }
        cr_assert_eq(ct_scene_step(s, &r), CT_OK);
        cr_assert_gt(r.ntouching, 40);
        /* s: every body moved (far when jump: a broad phase), the poisoned pairs fail */
        for (i = 0; i < N; ++i) {
            x[i].p.x += (jump ? (ct_real)0.3 : (ct_real)0.01) * (ct_real)(1 + i % 4);
            x[i].p.z -= (ct_real)0.004 * (ct_real)(i % 5);
        }
        pb.poison = 1;
        cr_assert_eq(ct_scene_step(s, &r), CT_INVALID);
        pb.poison = 0;
        for (i = 0; i < N; ++i) x[i] = x0[i];
        cr_assert_eq(ct_scene_step(s, &r), CT_OK);
        /* t: two steps at the committed poses */
        cr_assert_eq(ct_scene_step(t, &r2), CT_OK);
        cr_assert_eq(ct_scene_step(t, &r2), CT_OK);
        expect_same_but_curved(&r, &r2, N - 1, jump, 0);
        /* then both on to other poses, far enough for a broad phase whose pairs differ from the
           failed step's: the table the failed step left stale must not be merged from */
        for (i = 0; i < N; ++i) {
            x[i].p.y += (ct_real)0.25 * (ct_real)(1 + i % 3);
            x[i].p.x -= (ct_real)0.02 * (ct_real)(i % 7);
        }
        cr_assert_eq(ct_scene_step(s, &r), CT_OK);
        cr_assert_eq(ct_scene_step(t, &r2), CT_OK);
        cr_assert(r.broadphase && r2.broadphase);
        cr_assert_gt(r2.nended, 0);
        expect_same_but_curved(&r, &r2, N - 1, jump, 1);
        ct_scene_destroy(s);
        ct_scene_destroy(t);
    }
}

/* ---- allocation failure -------------------------------------------------------------------- */
/* A whole session (create, add, steps with motion, remove, add, steps) on an allocator that
   fails its k-th allocation, for k = 1, 2, ... until the session never fails. A failing call
   returns CT_NO_MEMORY and is retried with the allocator healthy: the session must then give
   exactly the reference outputs, and nothing may be left allocated after destroy. */
static long session(world *w, ct_scene_mode mode, double dt, tu_alloc *t, long fail_at, record *out, int nrec) {
    ct_scene *s = NULL;
    ct_scene_desc d;
    ct_scene_result r;
    ct_status st;
    int i, step, id, failures = 0, rec = 0;
    memset(&d, 0, sizeof d);
    d.mode = mode;
    d.speculative = (ct_real)0.02;
    d.threads = 1; /* the counting allocator is not thread-safe */
    t->fail_at = fail_at;
#define RETRY(call)                                                                              \
    do {                                                                                          \
        st = (call);                                                                              \
        if (st == CT_NO_MEMORY) { ++failures; t->fail_at = 0; st = (call); }                      \
        cr_assert_eq(st, CT_OK, "fail_at %ld: %s", fail_at, ct_status_string(st));                \
    } while (0)
    RETRY(ct_scene_create(&d, &t->a, &s));
    for (i = 0; i < w->n; ++i) {
        ct_body_desc b;
        memset(&b, 0, sizeof b);
        b.shape = w->shape[i];
        b.xform_ref = &w->x[i];
        RETRY(ct_scene_add(s, &b, &id));
    }
    for (step = 0; step < 6; ++step) {
        world_pose(w, dt * step);
        if (step == 3) cr_assert_eq(ct_scene_remove(s, 5), CT_OK);
        if (step == 4) {
            ct_body_desc b;
            memset(&b, 0, sizeof b);
            b.shape = w->shape[5];
            b.xform_ref = &w->x[5];
            RETRY(ct_scene_add(s, &b, &id));
        }
        RETRY(ct_scene_step(s, &r));
        if (out) {
            if (fail_at == 0) rec_take(&out[rec], &r);
            else {
                cr_assert_eq(r.ntouching, out[rec].nt, "fail_at %ld step %d", fail_at, step);
                cr_assert_eq(r.nended, out[rec].ne, "fail_at %ld step %d", fail_at, step);
                for (i = 0; i < r.ntouching; ++i) cr_assert(same_entry(&r.touching[i], &out[rec].t[i]), "fail_at %ld step %d", fail_at, step);
                for (i = 0; i < r.nended; ++i) cr_assert(same_entry(&r.ended[i], &out[rec].e[i]), "fail_at %ld step %d", fail_at, step);
            }
            ++rec;
            cr_assert(rec <= nrec);
        }
    }
#undef RETRY
    ct_scene_destroy(s);
    cr_assert_eq(t->outstanding, 0, "fail_at %ld: %ld blocks leaked", fail_at, t->outstanding);
    return failures;
}

Test(scene, allocation_failure_sweep) {
    static const int kinds[4] = { K_HULL, K_SPHERE, K_ELLIPSOID, K_RHULL };
    int mode;
    world *w = world_make(60, kinds, 4, 71);
    for (mode = 0; mode < 2; ++mode) {
        record ref[6];
        tu_alloc t;
        long k, sites = 0;
        int i;
        tu_alloc_init(&t, 0);
        session(w, (ct_scene_mode)mode, 4, &t, 0, ref, 6);
        for (k = 1;; ++k) {
            tu_alloc_init(&t, k);
            if (session(w, (ct_scene_mode)mode, 4, &t, k, ref, 6) == 0) break;
            ++sites;
            cr_assert(k < 10000, "the sweep does not end");
        }
        cr_assert_gt(sites, 5, "mode %d: only %ld allocation sites", mode, sites);
        cr_log_info("scene allocation sweep, mode %d: %ld sites", mode, sites);
        for (i = 0; i < 6; ++i) { free(ref[i].t); free(ref[i].e); }
    }
    world_free(w);
}

/* Volumetric mode under small motion (1e-3 of a unit and 6e-4 rad per step): the scene's hull
   pairs run warm (ct_contact_hulls_warm, the pair's ct_contact_cache: most calls reuse the cached
   structure of A n B), yet every step equals cold direct calls bit for bit, and so does a session
   retried after an allocation failure at every site (a failed step leaves some caches refilled). */
Test(scene, volumetric_warm_steps_equal_cold_calls) {
    static const int kinds[2] = { K_HULL, K_HULLBOX };
    int ids[200], step, total = 0;
    world *w = world_make(150, kinds, 2, 91);
    ct_scene *s;
    world_pose(w, 0);
    s = scene_of(w, CT_SCENE_VOLUMETRIC, 0, 0, ids);
    for (step = 0; step < 12; ++step) {
        ct_scene_result r;
        world_pose(w, 0.02 * step);
        cr_assert_eq(ct_scene_step(s, &r), CT_OK);
        total += check_against_direct(w, &r, CT_SCENE_VOLUMETRIC, 0, 1);
    }
    cr_assert_gt(total, 200, "too few contacts to test anything (%d)", total);
    ct_scene_destroy(s);
    world_free(w);
}

Test(scene, volumetric_warm_allocation_failure_sweep) {
    static const int kinds[2] = { K_HULL, K_HULLBOX };
    world *w = world_make(60, kinds, 2, 93);
    record ref[6];
    tu_alloc t;
    long k, sites = 0;
    int i;
    tu_alloc_init(&t, 0);
    session(w, CT_SCENE_VOLUMETRIC, 0.02, &t, 0, ref, 6);
    for (k = 1;; ++k) {
        tu_alloc_init(&t, k);
        if (session(w, CT_SCENE_VOLUMETRIC, 0.02, &t, k, ref, 6) == 0) break;
        ++sites;
        cr_assert(k < 10000, "the sweep does not end");
    }
    cr_assert_gt(sites, 5, "only %ld allocation sites", sites);
    for (i = 0; i < 6; ++i) { free(ref[i].t); free(ref[i].e); }
    world_free(w);
}

/* After warm-up a step that needs no broad phase allocates nothing (the table, outputs and
   scratches are kept), in both modes. */
Test(scene, warm_steps_allocate_nothing) {
    int mode, i, k;
    world *w = world_make(150, ALL_KINDS, NKIND, 81);
    for (mode = 0; mode < 2; ++mode) {
        tu_alloc t;
        ct_scene_desc d;
        ct_scene *s;
        ct_scene_result r;
        long calls = 0;
        tu_alloc_init(&t, 0);
        memset(&d, 0, sizeof d);
        d.mode = (ct_scene_mode)mode;
        d.threads = 1;
        world_pose(w, 0);
        cr_assert_eq(ct_scene_create(&d, &t.a, &s), CT_OK);
        for (i = 0; i < w->n; ++i) {
            ct_body_desc b;
            int id;
            memset(&b, 0, sizeof b);
            b.shape = w->shape[i];
            b.xform_ref = &w->x[i];
            cr_assert_eq(ct_scene_add(s, &b, &id), CT_OK);
        }
        for (k = 0; k < 6; ++k) {
            for (i = 0; i < w->n; ++i) w->x[i].p.z += (ct_real)1e-4;
            if (k == 2) calls = t.calls;
            cr_assert_eq(ct_scene_step(s, &r), CT_OK);
            if (k > 0) cr_assert_eq(r.broadphase, 0);
        }
        cr_assert_gt(r.ntouching, 50);
        cr_assert_eq(t.calls, calls, "mode %d: %ld allocations in warm steps", mode, t.calls - calls);
        ct_scene_destroy(s);
        cr_assert_eq(t.outstanding, 0);
    }
    world_free(w);
}
