/* Narrow phase: the speculative guarantee of the SAT manifolds against the signed distance
   (ct_signed_distance as the oracle), the manifold's deepest index and the public cache
   feature enum. */
#include "contact.h"
#include "testutil.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A random 20-point hull of size ~1 (points on an ellipsoid with semi-axes in [0.6, 1.4]). */
static int nw_hull(ct_hull *h, unsigned long long *seed, int n) {
    ct_vec3 p[64];
    int i;
    double ax = 0.6 + 0.8 * tu_uniform(seed), ay = 0.6 + 0.8 * tu_uniform(seed);
    for (i = 0; i < n; ++i) {
        ct_vec3 u = tu_random_unit(seed);
        p[i] = tu_vec(u.x * ax, u.y * ay, u.z);
    }
    return ct_hull_build(p, n, NULL, NULL, h) == CT_OK;
}

/* Places B (random rotation) along the random unit u from A so that the signed distance is
   near target: Newton on the centre distance, whose derivative is normal.u (the signed
   distance to a convex set is convex along a line). Returns the oracle's signed distance. */
static double nw_place(const ct_hull *a, const ct_xform *xa, const ct_hull *b, ct_xform *xb, ct_vec3 u,
                       double target) {
    ct_shape sa = ct_shape_hull(a), sb = ct_shape_hull(b);
    ct_distance d;
    double c = 1.5, sd = 0;
    int it;
    for (it = 0; it < 8; ++it) {
        double slope;
        xb->p = tu_vec(u.x * c, u.y * c, u.z * c);
        cr_assert_eq(ct_signed_distance(&sa, xa, &sb, xb, NULL, NULL, &d), CT_OK);
        sd = (double)d.distance;
        slope = (double)(d.normal.x * u.x + d.normal.y * u.y + d.normal.z * u.z);
        if (fabs(sd - target) < 1e-4) break;
        c += (target - sd) / (slope > 0.2 ? slope : 0.2);
    }
    return sd;
}

static double nw_deepest(const ct_manifold *m) {
    int i;
    double s = 1e300;
    for (i = 0; i < m->count; ++i)
        if ((double)m->points[i].separation < s) s = (double)m->points[i].separation;
    return s;
}

/* Every pair whose signed distance is within speculative gets a point; pairs apart gets their
   deepest separation equal to the distance; pairs beyond speculative get none. */
Test(narrow, speculative_pairs_against_signed_distance) {
    unsigned long long seed = 1501;
    const double spec = 0.02, tol = TU_FLOAT ? 1e-3 : 1e-9;
    int i, pairs = TU_FLOAT ? 3000 : 10000, within = 0, beyond = 0, apart = 0;
    double lo = 1e300, hi = -1e300;
    for (i = 0; i < pairs; ++i) {
        ct_hull a, b;
        ct_xform xa, xb;
        ct_manifold m, mr;
        ct_vec3 u;
        double sd, target = -0.05 + 0.1 * tu_uniform(&seed);
        cr_assert(nw_hull(&a, &seed, 20));
        cr_assert(nw_hull(&b, &seed, 20));
        xa = tu_random_xform(&seed, 0);
        xb = tu_random_xform(&seed, 0);
        u = tu_random_unit(&seed);
        sd = nw_place(&a, &xa, &b, &xb, u, target);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, (ct_real)spec, NULL, &m), CT_OK);
        cr_assert_eq(ct_manifold_rounded_hulls(&a, &xa, 0, &b, &xb, 0, (ct_real)spec, NULL, &mr), CT_OK);
        cr_assert(memcmp(&m, &mr, sizeof m) == 0, "pair %d: radius 0 differs from ct_manifold_hulls", i);
        {   /* a cache primed one small step earlier changes nothing; swapping A and B keeps
               the count, the ids and the deepest separation and negates the normal */
            ct_sat_cache cache;
            ct_manifold mc, ms;
            ct_xform xp = xb;
            memset(&cache, 0, sizeof cache);
            xp.p = tu_vec(xb.p.x + 0.005, xb.p.y - 0.004, xb.p.z + 0.003);
            cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xp, (ct_real)spec, &cache, &mc), CT_OK);
            cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, (ct_real)spec, &cache, &mc), CT_OK);
            cr_assert(memcmp(&m, &mc, sizeof m) == 0, "pair %d: warm cache differs from the cold call", i);
            cr_assert_eq(ct_manifold_hulls(&b, &xb, &a, &xa, (ct_real)spec, NULL, &ms), CT_OK);
            if (sd > tol && sd < spec - tol) { /* apart: both sides report the distance */
                cr_assert_eq(ms.count >= 1, m.count >= 1, "pair %d: swap changes contact", i);
                cr_assert(fabs(nw_deepest(&ms) - nw_deepest(&m)) <= 2 * tol, "pair %d: swap deepest %.17g vs %.17g", i,
                          nw_deepest(&ms), nw_deepest(&m));
                if (m.count == 1 && ms.count == 1) {
                    cr_assert_eq(m.points[0].id, ms.points[0].id, "pair %d: swap changes the id", i);
                    cr_assert(fabs((double)(m.normal.x + ms.normal.x)) + fabs((double)(m.normal.y + ms.normal.y)) +
                              fabs((double)(m.normal.z + ms.normal.z)) <= (TU_FLOAT ? 1e-3 : 1e-6), "pair %d: swap normal", i);
                }
            }
        }
        if (sd <= spec - tol) {
            double dp;
            ++within;
            cr_assert(m.count >= 1, "pair %d: signed distance %.17g within speculative, no point", i, sd);
            dp = nw_deepest(&m);
            cr_assert_eq((double)m.points[m.deepest].separation, dp);
            if (sd <= 0) { /* penetrating */
                if (dp - sd > hi) hi = dp - sd;
                if (dp - sd < lo) lo = dp - sd;
            }
            if (sd > tol) {
                ++apart;
                cr_assert(fabs(dp - sd) <= tol, "pair %d: apart by %.17g, deepest %.17g", i, sd, dp);
            }
        } else if (sd > spec + tol) {
            ++beyond;
            cr_assert_eq(m.count, 0, "pair %d: signed distance %.17g beyond speculative, %d points", i, sd, m.count);
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_log_info("within %d beyond %d apart %d; penetrating deepest - signed distance in [%g, %g]", within, beyond, apart, lo, hi);
    cr_assert(within > pairs / 2 && beyond > pairs / 5 && apart > pairs / 10, "%d %d %d", within, beyond, apart);
}

/* deepest names the least separation; the public enum has the documented values. */
Test(narrow, deepest_index_and_feature_enum) {
    unsigned long long seed = 77;
    int i, multi = 0;
    cr_assert_eq((int)CT_SAT_NONE, 0);
    cr_assert_eq((int)CT_SAT_FACE_A, 1);
    cr_assert_eq((int)CT_SAT_FACE_B, 2);
    cr_assert_eq((int)CT_SAT_EDGES, 3);
    for (i = 0; i < 500; ++i) {
        ct_hull a, b;
        ct_xform xa = tu_random_xform(&seed, 0), xb = tu_random_xform(&seed, 0);
        ct_manifold m;
        ct_sat_cache cache;
        int k;
        memset(&cache, 0, sizeof cache);
        cr_assert(nw_hull(&a, &seed, 20));
        cr_assert(nw_hull(&b, &seed, 20));
        xb.p = tu_vec(1.6, 0.1, 0);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, (ct_real)0.02, &cache, &m), CT_OK);
        cr_assert(cache.type >= CT_SAT_NONE && cache.type <= CT_SAT_EDGES);
        if (m.count == 0) cr_assert_eq(m.deepest, 0);
        multi += m.count > 1;
        for (k = 0; k < m.count; ++k) {
            cr_assert(m.points[m.deepest].separation <= m.points[k].separation);
            if (k < m.deepest) cr_assert(m.points[k].separation > m.points[m.deepest].separation);
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_assert(multi > 10);
}

/* ---- EPA on curved cores: closed forms ----------------------------------------------------- */
static double nw_rel(void) { return TU_FLOAT ? 2e-4 : 1e-9; }

/* Concentric axis-aligned ellipsoids: h_{A-B}(n) = |A n| + |B n| is a concave function of
   (n_x^2, n_y^2, n_z^2) on the simplex, so the depth is min_i (a_i + b_i). Spheres given as
   ellipsoids included (Bullet's sphere-sphere grid found depths 1.5-6.8% short here). */
Test(narrow, concentric_ellipsoids_depth_closed_form) {
    unsigned long long seed = 99;
    int i, cases = 0;
    for (i = 0; i < 300; ++i) {
        double s = pow(10, -3 + 6 * tu_uniform(&seed)), a[3], b[3], best = 1e300;
        int k, sphere = i < 60;
        ct_shape A, B;
        ct_distance d;
        ct_xform x = ct_xform_identity(), y = ct_xform_identity();
        ct_status st;
        for (k = 0; k < 3; ++k) {
            a[k] = s * (sphere ? 1 : pow(10, -1 + 2 * tu_uniform(&seed)));
            b[k] = s * (sphere ? 0.4 : pow(10, -1 + 2 * tu_uniform(&seed)));
        }
        if (i % 3 == 1) { /* the same placement anywhere */
            ct_vec3 p = tu_vec(s * (tu_uniform(&seed) - 0.5), s * (tu_uniform(&seed) - 0.5), s * 3);
            x.p = p;
            y.p = p;
        }
        for (k = 0; k < 3; ++k) if (a[k] + b[k] < best) best = a[k] + b[k];
        A = ct_shape_ellipsoid(tu_vec(a[0], a[1], a[2]));
        B = ct_shape_ellipsoid(tu_vec(b[0], b[1], b[2]));
        st = ct_signed_distance(&A, &x, &B, &y, NULL, NULL, &d);
        cr_assert_eq(st, CT_OK, "case %d: status %d", i, (int)st);
        cr_assert(fabs((double)d.distance + best) <= nw_rel() * best, "case %d: depth %.17g, expected %.17g",
                  i, -(double)d.distance, best);
        ++cases;
    }
    cr_assert_eq(cases, 300);
}

/* Nested and overlapping spheres given as ellipsoids at any offset: |c| - ra - rb. */
Test(narrow, offset_sphere_ellipsoids_closed_form) {
    unsigned long long seed = 7;
    int i;
    for (i = 0; i < 300; ++i) {
        double ra = 0.2 + tu_uniform(&seed), rb = 0.2 + tu_uniform(&seed), c = (ra + rb) * tu_uniform(&seed), sd;
        ct_vec3 u = tu_random_unit(&seed);
        ct_shape A = ct_shape_ellipsoid(tu_vec(ra, ra, ra)), B = ct_shape_ellipsoid(tu_vec(rb, rb, rb));
        ct_xform xa = tu_random_xform(&seed, 2), xb = tu_random_xform(&seed, 0);
        ct_distance d;
        ct_status st;
        xb.p = tu_vec(xa.p.x + c * u.x, xa.p.y + c * u.y, xa.p.z + c * u.z);
        sd = c - ra - rb;
        st = ct_signed_distance(&A, &xa, &B, &xb, NULL, NULL, &d);
        cr_assert_eq(st, CT_OK, "case %d: status %d", i, (int)st);
        cr_assert(fabs((double)d.distance - sd) <= nw_rel() * (ra + rb) * (TU_FLOAT ? 4 : 1),
                  "case %d: %.17g, expected %.17g", i, (double)d.distance, sd);
        /* the witnesses: pa - pb = distance * normal */
        cr_assert(fabs((double)(d.pa.x - d.pb.x) + (double)d.distance * d.normal.x) <= 1e-6 * (ra + rb) + (TU_FLOAT ? 1e-3 : 0));
    }
}

/* A sphere (point core) at the centre of an ellipsoid: depth min_i a_i + r; and an ellipsoid
   inside a rotated ellipsoid, both concentric, equal up to the rotation about a principal axis
   that they share: min over the shared axis and the in-plane closed form is not needed, the
   swap must agree. */
Test(narrow, sphere_in_ellipsoid_and_swap) {
    unsigned long long seed = 5;
    int i;
    for (i = 0; i < 200; ++i) {
        double a[3], r = 0.05 + 0.3 * tu_uniform(&seed), m = 1e300;
        int k;
        ct_shape A, S;
        ct_distance d, e;
        ct_xform x = tu_random_xform(&seed, 1);
        for (k = 0; k < 3; ++k) { a[k] = 0.3 + 2 * tu_uniform(&seed); if (a[k] < m) m = a[k]; }
        A = ct_shape_ellipsoid(tu_vec(a[0], a[1], a[2]));
        S = ct_shape_sphere((ct_real)r);
        cr_assert_eq(ct_signed_distance(&A, &x, &S, &x, NULL, NULL, &d), CT_OK);
        cr_assert(fabs((double)d.distance + m + r) <= nw_rel() * (m + r) * (TU_FLOAT ? 4 : 1), "case %d: %.17g vs %.17g", i,
                  (double)d.distance, -(m + r));
        cr_assert_eq(ct_signed_distance(&S, &x, &A, &x, NULL, NULL, &e), CT_OK);
        cr_assert(fabs((double)(d.distance - e.distance)) <= nw_rel() * (m + r) * (TU_FLOAT ? 4 : 1));
    }
}
