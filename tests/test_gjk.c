/* Shapes, GJK, EPA and ct_signed_distance against independent oracles:
   - qhull (libqhull_r) hull of the Minkowski difference A - B: the distance from the origin to
     that hull (min over its triangles when outside, min over facet planes when inside = the
     penetration depth), in double, for thousands of seeded polytope pairs;
   - closed forms for spheres, axis-aligned boxes, spheres against boxes, ellipsoids against
     planes (the support function h(n) = |A n|);
   - invariants: witness points are support points along the normal, moving B by
     -distance*normal makes the shapes touch, swapping A and B, scaling and translating.
   Tolerances scale with TU_EPS so the float build runs the same tests. */
#include "contact.h"
#include "testutil.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef CT_HAVE_QHULL
#include <libqhull_r/qhull_ra.h>
#endif

/* Relative tolerance of polytope answers: a few thousand ulps of the scale (double: ~1e-12,
   float: ~5e-4). Smooth shapes converge to CT__*_SMOOTH tolerances, looser. */
#define TOL_POLY ((double)(TU_FLOAT ? 4e3 : 1e4) * (double)TU_EPS)
#define TOL_SMOOTH (TU_FLOAT ? 2e-3 : 1e-6)

/* ---- small double helpers for the oracles ------------------------------------------------ */
typedef struct dv { double x, y, z; } dv;
static dv dvv(double x, double y, double z) { dv r; r.x = x; r.y = y; r.z = z; return r; }
static dv dsub(dv a, dv b) { return dvv(a.x - b.x, a.y - b.y, a.z - b.z); }
static dv dadd(dv a, dv b) { return dvv(a.x + b.x, a.y + b.y, a.z + b.z); }
static dv dscl(dv a, double s) { return dvv(a.x * s, a.y * s, a.z * s); }
static double ddot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dv dcross(dv a, dv b) { return dvv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double dlen(dv a) { return sqrt(ddot(a, a)); }
static dv dof(ct_vec3 v) { return dvv(v.x, v.y, v.z); }
static dv dxf(const ct_xform *x, ct_vec3 v) { /* world point in double */
    if (!x) return dof(v);
    return dvv(x->r[0][0] * v.x + x->r[0][1] * v.y + x->r[0][2] * v.z + x->p.x,
               x->r[1][0] * v.x + x->r[1][1] * v.y + x->r[1][2] * v.z + x->p.y,
               x->r[2][0] * v.x + x->r[2][1] * v.y + x->r[2][2] * v.z + x->p.z);
}

static ct_vec3 ct__test_inv(const ct_xform *x, ct_vec3 w) { /* local point of world w */
    ct_vec3 d = tu_vec(w.x - x->p.x, w.y - x->p.y, w.z - x->p.z);
    return tu_vec(x->r[0][0] * d.x + x->r[1][0] * d.y + x->r[2][0] * d.z,
                  x->r[0][1] * d.x + x->r[1][1] * d.y + x->r[2][1] * d.z,
                  x->r[0][2] * d.x + x->r[1][2] * d.y + x->r[2][2] * d.z);
}

/* Closest point of triangle abc to p (Ericson, Real-Time Collision Detection, 5.1.5). */
static dv closest_on_tri(dv p, dv a, dv b, dv c) {
    dv ab = dsub(b, a), ac = dsub(c, a), ap = dsub(p, a), bp, cp;
    double d1 = ddot(ab, ap), d2 = ddot(ac, ap), d3, d4, d5, d6, va, vb, vc, v, w, den;
    if (d1 <= 0 && d2 <= 0) return a;
    bp = dsub(p, b);
    d3 = ddot(ab, bp); d4 = ddot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return dadd(a, dscl(ab, d1 / (d1 - d3)));
    cp = dsub(p, c);
    d5 = ddot(ab, cp); d6 = ddot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return dadd(a, dscl(ac, d2 / (d2 - d6)));
    va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
        return dadd(b, dscl(dsub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))));
    den = 1 / (va + vb + vc);
    v = vb * den; w = vc * den;
    return dadd(a, dadd(dscl(ab, v), dscl(ac, w)));
}

/* ---- the qhull oracle -------------------------------------------------------------------- */
#ifdef CT_HAVE_QHULL
/* Signed distance between the hulls of two world point sets: > 0 apart, < 0 depth. *normal
   (A -> B) is the facet normal for penetration. Returns 0 when qhull fails (flat input). */
static int qhull_signed_distance(const dv *a, int na, const dv *b, int nb, double *dist, dv *normal) {
    qhT qh_qh, *qh = &qh_qh;
    coordT *pts = (coordT *)malloc(sizeof(coordT) * 3 * (size_t)na * (size_t)nb);
    facetT *facet;
    int i, j, k = 0, ok;
    double best_in = 1e300, best_out = 1e300;
    dv nin = dvv(0, 0, 0), nout = dvv(0, 0, 0);
    int inside = 1;
    for (i = 0; i < na; ++i)
        for (j = 0; j < nb; ++j) {
            dv d = dsub(a[i], b[j]);
            pts[k++] = d.x; pts[k++] = d.y; pts[k++] = d.z;
        }
    qh_zero(qh, stderr);
    ok = qh_new_qhull(qh, 3, na * nb, pts, False, (char *)"qhull Qt Q12", NULL, stderr) == 0;
    if (ok) {
        FORALLfacets {
            dv n = dvv(facet->normal[0], facet->normal[1], facet->normal[2]);
            double off = facet->offset; /* n.x + off = 0, outward n */
            vertexT *vertex, **vertexp;
            dv t[3];
            int m = 0;
            if (off > 0) inside = 0;
            if (-off < best_in) { best_in = -off; nin = n; }
            FOREACHvertex_(facet->vertices) {
                if (m < 3) t[m] = dvv(vertex->point[0], vertex->point[1], vertex->point[2]);
                ++m;
            }
            if (m == 3) {
                dv c = closest_on_tri(dvv(0, 0, 0), t[0], t[1], t[2]);
                double l = dlen(c);
                if (l < best_out) { best_out = l; nout = dscl(c, -1 / (l > 0 ? l : 1)); }
            }
        }
        if (inside) { *dist = -best_in; *normal = nin; }
        else { *dist = best_out; *normal = nout; }
    }
    {
        int curlong, totlong;
        qh_freeqhull(qh, !qh_ALL);
        qh_memfreeshort(qh, &curlong, &totlong);
    }
    free(pts);
    return ok;
}
#endif

/* ---- helpers ------------------------------------------------------------------------------ */
#define CT_PI_4 ((ct_real)0.78539816339744830962)
static int ct__test_finite(const ct_distance *d) {
    double v[10] = { d->distance, d->normal.x, d->normal.y, d->normal.z, d->pa.x, d->pa.y, d->pa.z, d->pb.x, d->pb.y, d->pb.z };
    int i;
    for (i = 0; i < 10; ++i)
        if (!(fabs(v[i]) < 1e300)) return 0;
    return 1;
}
static double uni(unsigned long long *s, double lo, double hi) { return lo + (hi - lo) * tu_uniform(s); }

/* n random points of an ellipsoid-ish blob (a random convex polytope's generators). */
static void random_cloud(ct_vec3 *p, int n, double size, unsigned long long *s) {
    int i;
    double ax = uni(s, 0.3, 1), ay = uni(s, 0.3, 1), az = uni(s, 0.3, 1);
    for (i = 0; i < n; ++i) {
        ct_vec3 u = tu_random_unit(s);
        double r = size * (0.6 + 0.4 * tu_uniform(s));
        p[i] = tu_vec(u.x * r * ax, u.y * r * ay, u.z * r * az);
    }
}

static double world_support(const ct_vec3 *p, int n, const ct_xform *x, dv d) {
    int i;
    double best = -1e300;
    for (i = 0; i < n; ++i) {
        double t = ddot(dxf(x, p[i]), d);
        if (t > best) best = t;
    }
    return best;
}

/* Checks the answer of ct_signed_distance for two point clouds against the properties every
   answer must have: unit normal, pb - pa = distance * normal, pa a support point of A along
   the normal and pb one of B along -normal. */
static void check_witnesses(const ct_vec3 *a, int na, const ct_xform *xa, const ct_vec3 *b, int nb,
                            const ct_xform *xb, const ct_distance *d, double tol) {
    dv n = dof(d->normal), pa = dof(d->pa), pb = dof(d->pb);
    dv gap = dsub(dsub(pb, pa), dscl(n, d->distance));
    cr_assert(fabs(dlen(n) - 1) < 1e3 * TU_EPS, "normal not unit: %g", dlen(n));
    cr_assert(dlen(gap) < tol, "pb - pa != distance * normal (%g) d=%g", dlen(gap), (double)d->distance);
    cr_assert(fabs(world_support(a, na, xa, n) - ddot(pa, n)) < tol, "pa is not extreme on A along n: %g",
              world_support(a, na, xa, n) - ddot(pa, n));
    cr_assert(fabs(world_support(b, nb, xb, dscl(n, -1)) + ddot(pb, n)) < tol, "pb is not extreme on B along -n");
}

/* ---- polytopes against qhull -------------------------------------------------------------- */
#ifdef CT_HAVE_QHULL
static void qhull_pairs(unsigned long long seed, int count, int maxn, double translation) {
    int k, agree = 0;
    for (k = 0; k < count; ++k) {
        ct_vec3 a[48], b[48];
        dv wa[48], wb[48], on;
        int na = 4 + (int)(tu_uniform(&seed) * (maxn - 3)), nb = 4 + (int)(tu_uniform(&seed) * (maxn - 3)), i;
        ct_xform xa = tu_random_xform(&seed, translation), xb = tu_random_xform(&seed, 0);
        ct_shape sa, sb;
        ct_distance d, g;
        double oracle, scale = 2, tol;
        ct_vec3 dir = tu_random_unit(&seed);
        double sep = uni(&seed, -1.2, 1.5);
        random_cloud(a, na, 1, &seed);
        random_cloud(b, nb, uni(&seed, 0.3, 1.5), &seed);
        xb.p = tu_vec(xa.p.x + dir.x * (1 + sep), xa.p.y + dir.y * (1 + sep), xa.p.z + dir.z * (1 + sep));
        for (i = 0; i < na; ++i) wa[i] = dxf(&xa, a[i]);
        for (i = 0; i < nb; ++i) wb[i] = dxf(&xb, b[i]);
        cr_assert(qhull_signed_distance(wa, na, wb, nb, &oracle, &on));
        sa = ct_shape_points(a, na);
        sb = ct_shape_points(b, nb);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d), CT_OK);
        tol = TOL_POLY * scale * (1 + fabs(translation) * (TU_FLOAT ? 1 : 1));
        cr_assert(fabs(d.distance - oracle) < tol, "case %d: signed distance %.17g, qhull %.17g", k, (double)d.distance, oracle);
        check_witnesses(a, na, &xa, b, nb, &xb, &d, 10 * tol);
        cr_assert_eq(ct_gjk(&sa, &xa, &sb, &xb, NULL, &g), CT_OK);
        cr_assert(fabs(g.distance - (oracle > 0 ? oracle : 0)) < tol, "case %d: gjk %.17g, qhull %.17g", k,
                  (double)g.distance, oracle);
        if (oracle < -tol) agree++;
    }
    cr_assert_gt(agree, count / 10, "too few penetrating cases (%d)", agree);
}

Test(gjk_qhull, random_polytopes_signed_distance) { qhull_pairs(11, 1500, 20, 0); }
Test(gjk_qhull, random_polytopes_far_from_origin) { qhull_pairs(12, 300, 12, 20); }
/* clouds of 4..44 points: every block count and remainder of the support scan's four lanes
   (the SSE2 blocks included), the witnesses checked extreme against a plain scan */
Test(gjk_qhull, clouds_of_every_scan_length) { qhull_pairs(13, 600, 44, 0); }

Test(gjk_qhull, point_cloud_with_duplicates) {
    unsigned long long seed = 5;
    int k;
    for (k = 0; k < 200; ++k) {
        ct_vec3 a[24], b[12];
        dv wa[24], wb[12], on;
        int i;
        ct_xform xa = tu_random_xform(&seed, 1), xb = tu_random_xform(&seed, 1);
        ct_shape sa, sb;
        ct_distance d;
        double oracle;
        random_cloud(a, 12, 1, &seed);
        for (i = 12; i < 24; ++i) a[i] = a[i % 5]; /* every point of the first 5 again */
        random_cloud(b, 12, 0.7, &seed);
        for (i = 0; i < 24; ++i) wa[i] = dxf(&xa, a[i]);
        for (i = 0; i < 12; ++i) wb[i] = dxf(&xb, b[i]);
        cr_assert(qhull_signed_distance(wa, 24, wb, 12, &oracle, &on));
        sa = ct_shape_points(a, 24);
        sb = ct_shape_points(b, 12);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - oracle) < TOL_POLY * 4, "case %d: %.17g vs %.17g", k, (double)d.distance, oracle);
    }
}

Test(gjk_qhull, gjk_points_convenience) {
    unsigned long long seed = 21;
    int k;
    for (k = 0; k < 200; ++k) {
        ct_vec3 a[16], b[16], pa, pb;
        dv wa[16], wb[16], on;
        int i;
        double oracle, d;
        random_cloud(a, 16, 1, &seed);
        random_cloud(b, 16, 1, &seed);
        for (i = 0; i < 16; ++i) b[i].x += (ct_real)uni(&seed, 1, 3);
        for (i = 0; i < 16; ++i) { wa[i] = dof(a[i]); wb[i] = dof(b[i]); }
        cr_assert(qhull_signed_distance(wa, 16, wb, 16, &oracle, &on));
        d = ct_gjk_points(a, 16, b, 16, &pa, &pb);
        cr_assert(fabs(d - (oracle > 0 ? oracle : 0)) < TOL_POLY * 4, "%g vs %g", d, oracle);
        cr_assert(fabs(dlen(dsub(dof(pb), dof(pa))) - d) < TOL_POLY * 4);
    }
    cr_assert_eq(ct_gjk_points(NULL, 3, NULL, 3, NULL, NULL), -1);
}

/* A triangle (flat) against boxes; the Minkowski difference still has volume. */
Test(gjk_qhull, triangle_against_box) {
    unsigned long long seed = 77;
    int k;
    for (k = 0; k < 300; ++k) {
        ct_vec3 t[3], corner[8], h = tu_vec(uni(&seed, 0.2, 1), uni(&seed, 0.2, 1), uni(&seed, 0.2, 1));
        dv wa[3], wb[8], on;
        ct_xform xb = tu_random_xform(&seed, 1.5);
        ct_shape sa, sb;
        ct_distance d;
        double oracle;
        int i;
        for (i = 0; i < 3; ++i) t[i] = tu_vec(uni(&seed, -1, 1), uni(&seed, -1, 1), uni(&seed, -1, 1));
        for (i = 0; i < 8; ++i) corner[i] = tu_vec(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
        for (i = 0; i < 3; ++i) wa[i] = dof(t[i]);
        for (i = 0; i < 8; ++i) wb[i] = dxf(&xb, corner[i]);
        cr_assert(qhull_signed_distance(wa, 3, wb, 8, &oracle, &on));
        sa = ct_shape_triangle(t[0], t[1], t[2]);
        sb = ct_shape_box(h);
        cr_assert_eq(ct_signed_distance(&sa, NULL, &sb, &xb, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - oracle) < TOL_POLY * 8, "case %d: %.17g vs qhull %.17g", k, (double)d.distance, oracle);
        check_witnesses(t, 3, NULL, corner, 8, &xb, &d, TOL_POLY * 80);
    }
}
#endif

/* ---- closed forms ------------------------------------------------------------------------- */
Test(gjk_closed, spheres) {
    unsigned long long seed = 3;
    int k;
    for (k = 0; k < 500; ++k) {
        double ra = uni(&seed, 0.1, 2), rb = uni(&seed, 0.1, 2), gap = uni(&seed, -1.5, 1.5) * fmin(ra, rb);
        ct_shape a = ct_shape_sphere((ct_real)ra), b = ct_shape_sphere((ct_real)rb);
        ct_xform xa = tu_random_xform(&seed, 5), xb = tu_random_xform(&seed, 0);
        ct_vec3 u = tu_random_unit(&seed);
        ct_distance d;
        double c = ra + rb + gap;
        xb.p = tu_vec(xa.p.x + u.x * c, xa.p.y + u.y * c, xa.p.z + u.z * c);
        c = dlen(dsub(dof(xb.p), dof(xa.p)));
        cr_assert_eq(ct_signed_distance(&a, &xa, &b, &xb, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - (c - ra - rb)) < TOL_POLY * 10, "%g vs %g", (double)d.distance, c - ra - rb);
        cr_assert(ddot(dof(d.normal), dof(u)) > 1 - 1e3 * TU_EPS);
    }
}

Test(gjk_closed, coincident_sphere_centres) {
    ct_shape a = ct_shape_sphere(1), b = ct_shape_sphere((ct_real)0.5);
    ct_xform x = ct_xform_identity();
    ct_distance d;
    x.p = tu_vec(1e3, -2e3, 7);
    cr_assert_eq(ct_signed_distance(&a, &x, &b, &x, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance + 1.5) < 10 * TU_EPS, "%g", (double)d.distance);
    cr_assert(fabs(dlen(dof(d.normal)) - 1) < 10 * TU_EPS);
    cr_assert_eq(ct_gjk(&a, &x, &b, &x, NULL, &d), CT_OK);
    cr_assert_eq(d.distance, 0);
}

/* Axis-aligned boxes: A - B is the box of half size ha + hb centred at ca - cb. */
Test(gjk_closed, axis_aligned_boxes) {
    unsigned long long seed = 9;
    int k;
    for (k = 0; k < 1000; ++k) {
        ct_vec3 ha = tu_vec(uni(&seed, 0.1, 1), uni(&seed, 0.1, 1), uni(&seed, 0.1, 1));
        ct_vec3 hb = tu_vec(uni(&seed, 0.1, 1), uni(&seed, 0.1, 1), uni(&seed, 0.1, 1));
        ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
        ct_shape a = ct_shape_box(ha), b = ct_shape_box(hb);
        ct_distance d;
        double g[3], out2 = 0, depth = 1e300, h[3] = { ha.x + hb.x, ha.y + hb.y, ha.z + hb.z };
        int i, outside = 0, axis = 0;
        xa.p = tu_vec(uni(&seed, -1, 1), uni(&seed, -1, 1), uni(&seed, -1, 1));
        xb.p = tu_vec(uni(&seed, -1.5, 1.5), uni(&seed, -1.5, 1.5), uni(&seed, -1.5, 1.5));
        g[0] = fabs(xb.p.x - xa.p.x) - h[0]; g[1] = fabs(xb.p.y - xa.p.y) - h[1]; g[2] = fabs(xb.p.z - xa.p.z) - h[2];
        for (i = 0; i < 3; ++i) {
            if (g[i] > 0) { outside = 1; out2 += g[i] * g[i]; }
            if (-g[i] < depth) { depth = -g[i]; axis = i; }
        }
        cr_assert_eq(ct_signed_distance(&a, &xa, &b, &xb, NULL, NULL, &d), CT_OK);
        if (outside) {
            cr_assert(fabs(d.distance - sqrt(out2)) < TOL_POLY * 4, "case %d: %g vs %g", k, (double)d.distance, sqrt(out2));
        } else {
            double n[3] = { d.normal.x, d.normal.y, d.normal.z };
            cr_assert(fabs(d.distance + depth) < TOL_POLY * 4, "case %d: %g vs %g", k, (double)d.distance, -depth);
            if (depth < 0.9 * h[(axis + 1) % 3] && depth < 0.9 * h[(axis + 2) % 3])
                cr_assert(fabs(fabs(n[axis]) - 1) < 1e3 * TU_EPS, "case %d: normal not on the minimum axis", k);
        }
    }
}

/* The signed distance of a ball (centre c, radius r, world) to a box (half extents h, placed
   by xb): |p - clamp(p)| - r outside, minus the least depth below a face minus r inside. */
static double ball_box_distance(const ct_xform *xb, ct_vec3 h, ct_vec3 c, double r) {
    ct_vec3 lc = ct__test_inv(xb, c);
    double q[3], hh[3], o2 = 0, inner = 1e300;
    int i, outside = 0;
    q[0] = lc.x; q[1] = lc.y; q[2] = lc.z;
    hh[0] = h.x; hh[1] = h.y; hh[2] = h.z;
    for (i = 0; i < 3; ++i) {
        double e = fabs(q[i]) - hh[i];
        if (e > 0) { outside = 1; o2 += e * e; }
        if (-e < inner) inner = -e;
    }
    return outside ? sqrt(o2) - r : -inner - r;
}

/* Sphere (a rounded point) against a box: distance = |p - clamp(p)| - r outside. */
Test(gjk_closed, sphere_against_rotated_box) {
    unsigned long long seed = 15;
    int k;
    for (k = 0; k < 500; ++k) {
        ct_vec3 h = tu_vec(uni(&seed, 0.2, 1), uni(&seed, 0.2, 1), uni(&seed, 0.2, 1));
        ct_xform xb = tu_random_xform(&seed, 1);
        double r = uni(&seed, 0.05, 0.8);
        ct_vec3 c = tu_vec(uni(&seed, -2, 2), uni(&seed, -2, 2), uni(&seed, -2, 2));
        ct_xform xa = ct_xform_identity();
        ct_shape a = ct_shape_sphere((ct_real)r), b = ct_shape_box(h);
        ct_distance d;
        double expect = ball_box_distance(&xb, h, c, r);
        xa.p = c;
        cr_assert_eq(ct_signed_distance(&a, &xa, &b, &xb, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - expect) < TOL_POLY * 8, "case %d: %g vs %g", k, (double)d.distance, expect);
    }
}

/* The same ball given as an ellipsoid with three equal semi-axes (rotated, at scales 1e-6 to
   1e6), against a rotated box and, swapped, with the box as A: exact as the sphere is. The
   rounded box A - B is flat where the ball meets a face, the depth's minimum sits at a kink
   of its support function and the curved refinement of EPA cannot descend there: as an
   ellipsoid the ball's depth stopped at EPA's curved tolerance (1.9e-6 of the depth was seen,
   fuzz_gjk), far beyond TOL_POLY. */
Test(gjk_closed, ball_as_ellipsoid_against_rotated_box) {
    static const double scales[3] = { 1e-6, 1, 1e6 };
    unsigned long long seed = 16;
    int k;
    for (k = 0; k < 600; ++k) {
        double sc = scales[k % 3], r = sc * uni(&seed, 0.05, 0.8), expect;
        ct_vec3 h = tu_vec(sc * uni(&seed, 0.2, 1), sc * uni(&seed, 0.2, 1), sc * uni(&seed, 0.2, 1));
        ct_vec3 c = tu_vec(sc * uni(&seed, -1.5, 1.5), sc * uni(&seed, -1.5, 1.5), sc * uni(&seed, -1.5, 1.5));
        ct_xform xa = tu_random_xform(&seed, 0), xb = tu_random_xform(&seed, 1);
        ct_shape a = ct_shape_ellipsoid(tu_vec(r, r, r)), b = ct_shape_box(h);
        ct_distance d, e;
        xb.p = tu_vec(sc * xb.p.x, sc * xb.p.y, sc * xb.p.z);
        xa.p = c;
        expect = ball_box_distance(&xb, h, c, (double)a.ct__v[0].x);   /* the radius as stored */
        cr_assert_eq(ct_signed_distance(&a, &xa, &b, &xb, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - expect) < TOL_POLY * 8 * sc, "case %d: %.15g vs %.15g", k, (double)d.distance, expect);
        cr_assert_eq(ct_signed_distance(&b, &xb, &a, &xa, NULL, NULL, &e), CT_OK);
        cr_assert(fabs(e.distance - expect) < TOL_POLY * 8 * sc, "case %d swapped: %.15g vs %.15g", k, (double)e.distance, expect);
        cr_assert_eq(ct_gjk(&a, &xa, &b, &xb, NULL, &e), CT_OK);
        cr_assert(fabs(e.distance - (expect > 0 ? expect : 0)) < TOL_POLY * 8 * sc, "case %d gjk", k);
    }
}

/* Ellipsoid above / into the top face of a large thin box: h_E(m) = |S m| (S = semi-axes). */
Test(gjk_closed, ellipsoid_against_box_face) {
    unsigned long long seed = 31;
    int k;
    for (k = 0; k < 300; ++k) {
        ct_vec3 semi = tu_vec(uni(&seed, 0.2, 1), uni(&seed, 0.2, 1), uni(&seed, 0.2, 1));
        ct_xform xa = tu_random_xform(&seed, 0), xb = tu_random_xform(&seed, 0);
        ct_shape a = ct_shape_ellipsoid(semi), b = ct_shape_box(tu_vec(50, 50, 3));
        ct_distance d;
        dv n = dvv(xb.r[0][2], xb.r[1][2], xb.r[2][2]), m;
        double gap = uni(&seed, -0.4, 0.6), h, expect;
        /* B's top face plane through the origin + small lateral offset; A above it */
        xb.p = tu_vec(-3 * n.x, -3 * n.y, -3 * n.z);
        /* m = R_A^T (-n): support of A along -n is |S m| below A's centre */
        m = dvv(-(xa.r[0][0] * n.x + xa.r[1][0] * n.y + xa.r[2][0] * n.z),
                -(xa.r[0][1] * n.x + xa.r[1][1] * n.y + xa.r[2][1] * n.z),
                -(xa.r[0][2] * n.x + xa.r[1][2] * n.y + xa.r[2][2] * n.z));
        h = dlen(dvv(semi.x * m.x, semi.y * m.y, semi.z * m.z));
        xa.p = tu_vec(n.x * (h + gap), n.y * (h + gap), n.z * (h + gap));
        expect = gap;
        cr_assert_eq(ct_signed_distance(&b, &xb, &a, &xa, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - expect) < TOL_SMOOTH * 4, "case %d: %.12g vs %.12g", k, (double)d.distance, expect);
        cr_assert(ddot(dof(d.normal), n) > 1 - 1e2 * TOL_SMOOTH, "case %d: normal off the face normal", k);
        cr_assert_eq(ct_gjk(&b, &xb, &a, &xa, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - (expect > 0 ? expect : 0)) < TOL_SMOOTH * 4, "case %d: gjk %.12g vs %.12g", k,
                  (double)d.distance, expect);
    }
}

/* A curved core (an ellipsoid, or a cylinder on its rim or cap) pressed into a flat face (of a
   box, of the same box as a hull, of its corners as a cloud, of a large triangle), both
   argument orders: A - B is flat there, the depth's minimum sits at a kink of its support
   function, and the answer used to stop at EPA's curved tolerance (4e-6 of the size for the
   ellipsoids). Closed form: the face is the plane z = 0 (normal +z, the flat body below it),
   the curved body's lowest point along -z lies -gap below it (at most h below a triangle,
   which it would otherwise leave more easily downwards), h its support extent along
   -z (ellipsoid |S m|, cylinder hh |m_z| + r |m_xy|, m = R^T (-z)). Depth within TOL_POLY of
   the size, normal the face's. */
static double curved_extent(const ct_shape *c, const ct_xform *x) {
    double m[3], a = (double)c->ct__v[0].x, b = (double)c->ct__v[0].y, z = (double)c->ct__v[0].z;
    int i;
    for (i = 0; i < 3; ++i) m[i] = -(double)x->r[2][i];
    if (c->type == CT_SHAPE_ELLIPSOID) return sqrt(a * a * m[0] * m[0] + b * b * m[1] * m[1] + z * z * m[2] * m[2]);
    return z * fabs(m[2]) + a * sqrt(m[0] * m[0] + m[1] * m[1]);   /* cylinder: r = a, hh = z */
}
Test(gjk_closed, curved_core_pressed_into_a_flat_face) {
    unsigned long long seed = 77;
    ct_vec3 corner[8];
    ct_hull hb;
    int k, i;
    cr_assert_eq(ct_hull_box(tu_vec(50, 50, 3), NULL, &hb), CT_OK);
    for (i = 0; i < 8; ++i) corner[i] = tu_vec(i & 1 ? 50 : -50, i & 2 ? 50 : -50, i & 4 ? 3 : -3);
    for (k = 0; k < 1600; ++k) {
        int flat = k % 4, cyl = (k / 4) % 2, swap = (k / 8) % 2;
        ct_shape f, c;
        ct_xform xf = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)uni(&seed, 0, 6.28), tu_vec(0, 0, -3));
        ct_xform xc = tu_random_xform(&seed, 0);
        ct_distance d;
        double gap = uni(&seed, -0.4, -1e-3), h, got, nz;
        if (flat == 0) f = ct_shape_box(tu_vec(50, 50, 3));
        else if (flat == 1) f = ct_shape_hull(&hb);
        else if (flat == 2) f = ct_shape_points(corner, 8);
        else {
            f = ct_shape_triangle(tu_vec(-100, -100, 0), tu_vec(100, -100, 0), tu_vec(0, 100, 0));
            xf.p = tu_vec(0, 0, 0);
        }
        c = cyl ? ct_shape_cylinder((ct_real)uni(&seed, 0.2, 1), (ct_real)uni(&seed, 0.2, 1))
                : ct_shape_ellipsoid(tu_vec(uni(&seed, 0.2, 1), uni(&seed, 0.2, 1), uni(&seed, 0.2, 1)));
        if (cyl && k % 16 == 2) xc = ct_xform_identity();   /* a cap flat on the face */
        h = curved_extent(&c, &xc);
        if (flat == 3) gap *= h;   /* a triangle has no thickness: pushing the body through it takes 2 h + gap */
        xc.p = tu_vec(uni(&seed, -1, 1), uni(&seed, -1, 1), h + gap);
        if (!swap) cr_assert_eq(ct_signed_distance(&f, &xf, &c, &xc, NULL, NULL, &d), CT_OK, "case %d", k);
        else cr_assert_eq(ct_signed_distance(&c, &xc, &f, &xf, NULL, NULL, &d), CT_OK, "case %d", k);
        got = (double)d.distance;
        nz = swap ? -(double)d.normal.z : (double)d.normal.z;
        cr_assert(fabs(got - gap) < TOL_POLY * 8, "case %d (flat %d, cylinder %d, swapped %d): %.15g vs %.15g", k, flat,
                  cyl, swap, got, gap);
        cr_assert(nz > 1 - 1e3 * TU_EPS, "case %d: normal off the face normal (%g)", k, nz);
    }
    ct_hull_free(&hb);
}

/* An ellipsoid pressed onto an edge of a box (as a box, and as a hull), both argument orders:
   the minimum sits on the patch of the edge against the ellipsoid, where v1 and v2 stay tied
   (a kink across the circle of such normals), and the answer used to stop at EPA's curved
   tolerance (5e-6 of the size). Closed form by construction: the edge along x at y = z = 3,
   a normal n = (0, cos t, sin t) between its faces' (t in [0.3, 1.27]), the ellipsoid placed
   so that its support point along -n lies delta below the edge along n (delta below the
   least radius of curvature, so n is the minimum): depth delta, normal n. */
Test(gjk_closed, ellipsoid_pressed_onto_a_box_edge) {
    unsigned long long seed = 91;
    ct_hull hb;
    int k, i;
    cr_assert_eq(ct_hull_box(tu_vec(50, 3, 3), NULL, &hb), CT_OK);
    for (k = 0; k < 1200; ++k) {
        int hull = k % 2, swap = (k / 2) % 2;
        ct_vec3 semi = tu_vec(uni(&seed, 0.4, 1), uni(&seed, 0.4, 1), uni(&seed, 0.4, 1));
        ct_xform xe = tu_random_xform(&seed, 0), xb = ct_xform_identity();
        ct_shape a = ct_shape_ellipsoid(semi), b = hull ? ct_shape_hull(&hb) : ct_shape_box(tu_vec(50, 3, 3));
        ct_distance d;
        double t = uni(&seed, 0.3, 1.27), n[3], delta = uni(&seed, 0.001, 0.1), m[3], sl[3], q, e[3], c[3], S[3], nd[3];
        n[0] = 0; n[1] = cos(t); n[2] = sin(t);
        e[0] = uni(&seed, -1, 1); e[1] = 3; e[2] = 3;
        S[0] = (double)semi.x; S[1] = (double)semi.y; S[2] = (double)semi.z;
        for (i = 0; i < 3; ++i) m[i] = -((double)xe.r[0][i] * n[0] + (double)xe.r[1][i] * n[1] + (double)xe.r[2][i] * n[2]);
        q = sqrt(S[0] * S[0] * m[0] * m[0] + S[1] * S[1] * m[1] * m[1] + S[2] * S[2] * m[2] * m[2]);
        for (i = 0; i < 3; ++i) sl[i] = S[i] * S[i] * m[i] / q;   /* the support point along -n, local */
        for (i = 0; i < 3; ++i)
            c[i] = e[i] - delta * n[i] - ((double)xe.r[i][0] * sl[0] + (double)xe.r[i][1] * sl[1] + (double)xe.r[i][2] * sl[2]);
        xe.p = tu_vec(c[0], c[1], c[2]);
        if (!swap) cr_assert_eq(ct_signed_distance(&b, &xb, &a, &xe, NULL, NULL, &d), CT_OK, "case %d", k);
        else cr_assert_eq(ct_signed_distance(&a, &xe, &b, &xb, NULL, NULL, &d), CT_OK, "case %d", k);
        nd[0] = (double)d.normal.x; nd[1] = (double)d.normal.y; nd[2] = (double)d.normal.z;
        if (swap) for (i = 0; i < 3; ++i) nd[i] = -nd[i];
        cr_assert(fabs((double)d.distance + delta) < TOL_POLY * 8, "case %d (hull %d, swapped %d): %.15g vs %.15g", k, hull,
                  swap, (double)d.distance, -delta);
        cr_assert(nd[0] * n[0] + nd[1] * n[1] + nd[2] * n[2] > 1 - (TU_FLOAT ? 1e-4 : 1e-12), "case %d: normal off", k);
    }
    ct_hull_free(&hb);
}

/* A user support function: a ball of radius 0.75 (smooth, not a rounded point). */
static void ball_support(const void *user, const ct_vec3 *dir, ct_vec3 *out) {
    double r = *(const double *)user, l = sqrt(dir->x * dir->x + dir->y * dir->y + dir->z * dir->z);
    *out = tu_vec(r * dir->x / l, r * dir->y / l, r * dir->z / l);
}

Test(gjk_closed, user_support_ball_against_box) {
    unsigned long long seed = 41;
    double r = 0.75;
    int k;
    for (k = 0; k < 300; ++k) {
        ct_shape a = ct_shape_support(ball_support, &r), b = ct_shape_box(tu_vec(1, 1, 1));
        ct_xform xa = ct_xform_identity();
        ct_distance d;
        double gap = uni(&seed, -0.3, 0.5), lat = uni(&seed, -0.8, 0.8);
        xa.p = tu_vec(lat, 1 + r + gap, 0.3 * lat);
        cr_assert_eq(ct_signed_distance(&a, &xa, &b, NULL, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - gap) < TOL_SMOOTH * 4, "case %d: %.12g vs %.12g", k, (double)d.distance, gap);
        cr_assert(d.normal.y < -(1 - 1e2 * TOL_SMOOTH), "case %d: normal (%g %g %g)", k, (double)d.normal.x, (double)d.normal.y, (double)d.normal.z);
    }
}

/* Rounded boxes: distance = core distance - radii, depth = core depth + radii (exact). */
Test(gjk_closed, rounded_boxes) {
    unsigned long long seed = 51;
    int k;
    for (k = 0; k < 600; ++k) {
        ct_vec3 ha = tu_vec(uni(&seed, 0.1, 1), uni(&seed, 0.1, 1), uni(&seed, 0.1, 1));
        ct_vec3 hb = tu_vec(uni(&seed, 0.1, 1), uni(&seed, 0.1, 1), uni(&seed, 0.1, 1));
        double ra = uni(&seed, 0, 0.3), rb = uni(&seed, 0, 0.3);
        ct_xform xb = ct_xform_identity();
        ct_shape a = ct_shape_rounded(ct_shape_box(ha), (ct_real)ra), b = ct_shape_rounded(ct_shape_box(hb), (ct_real)rb);
        ct_distance d;
        double g[3], out2 = 0, depth = 1e300, core;
        int i, outside = 0;
        xb.p = tu_vec(uni(&seed, -2, 2), uni(&seed, -2, 2), uni(&seed, -2, 2));
        g[0] = fabs(xb.p.x) - ha.x - hb.x; g[1] = fabs(xb.p.y) - ha.y - hb.y; g[2] = fabs(xb.p.z) - ha.z - hb.z;
        for (i = 0; i < 3; ++i) {
            if (g[i] > 0) { outside = 1; out2 += g[i] * g[i]; }
            if (-g[i] < depth) depth = -g[i];
        }
        core = outside ? sqrt(out2) : -depth;
        cr_assert_eq(ct_signed_distance(&a, NULL, &b, &xb, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - (core - ra - rb)) < TOL_POLY * 4, "case %d: %g vs %g", k, (double)d.distance, core - ra - rb);
        cr_assert(fabs(dlen(dsub(dof(d.pb), dof(d.pa))) - fabs(d.distance)) < TOL_POLY * 8);
        cr_assert_eq(ct_gjk(&a, NULL, &b, &xb, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance - fmax(core - ra - rb, 0)) < TOL_POLY * 4);
    }
}

/* ---- touching, deep, coincident, flat ------------------------------------------------------ */
static void check_touch(const ct_shape *a, const ct_xform *xa, const ct_shape *b, const ct_xform *xb,
                        double gap, dv normal) {
    ct_distance d, g;
    double tol = TU_FLOAT ? 1e-5 : 1e-12; /* gap resolution: 1e-9 gaps are below float rounding */
    cr_assert_eq(ct_signed_distance(a, xa, b, xb, NULL, NULL, &d), CT_OK);
    cr_assert_eq(ct_gjk(a, xa, b, xb, NULL, &g), CT_OK);
    cr_assert(ct__test_finite(&d) && ct__test_finite(&g), "NaN/Inf in the answer");
    cr_assert(fabs(d.distance - gap) < tol, "gap %g: signed distance %.17g", gap, (double)d.distance);
    cr_assert(fabs(g.distance - fmax(gap, 0)) < tol, "gap %g: gjk distance %.17g", gap, (double)g.distance);
    /* consistent classification: GJK says apart exactly when the signed distance is positive */
    cr_assert((g.distance > 0) == (d.distance > 0), "gap %g: gjk %.3g vs signed %.3g", gap, (double)g.distance, (double)d.distance);
    cr_assert(fabs(dlen(dof(d.normal)) - 1) < 1e3 * TU_EPS, "gap %g: normal not unit", gap);
    cr_assert(ddot(dof(d.normal), normal) > 1 - 1e3 * TU_EPS, "gap %g: normal (%g %g %g)", gap,
              (double)d.normal.x, (double)d.normal.y, (double)d.normal.z);
}

Test(gjk_touch, stacked_edge_edge_vertex_face) {
    const double gaps[5] = { 0, 1e-9, -1e-9, 1e-6, -1e-6 };
    ct_shape box = ct_shape_box(tu_vec(1, 1, 1));
    int g, kind;
    for (kind = 0; kind < 4; ++kind)
        for (g = 0; g < 5; ++g) {
            ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
            double h = 0;
            if (kind == 0) h = 2; /* face to face */
            if (kind == 1) { xb.p.x = (ct_real)0.3; xb.p.y = (ct_real)-0.45; h = 2; } /* face to face, offset */
            if (kind == 2) { /* crossing edges */
                xa = ct_xform_from_axis_angle(tu_vec(1, 0, 0), CT_PI_4, tu_vec(0, 0, 0));
                xb = ct_xform_from_axis_angle(tu_vec(0, 1, 0), CT_PI_4, tu_vec(0, 0, 0));
                h = 2 * sqrt(2.0);
            }
            if (kind == 3) { /* B's corner (-1,-1,-1) down onto A's top face */
                dv u = dvv(-1, -1, -1), axis = dcross(dscl(u, 1 / sqrt(3.0)), dvv(0, 0, -1));
                double ang = acos(1 / sqrt(3.0));
                xb = ct_xform_from_axis_angle(tu_vec(axis.x, axis.y, axis.z), (ct_real)ang, tu_vec(0, 0, 0));
                h = 1 + sqrt(3.0);
            }
            xb.p.z = (ct_real)(h + gaps[g]);
            check_touch(&box, &xa, &box, &xb, (double)xb.p.z - h, dvv(0, 0, 1));
        }
}

Test(gjk_touch, deep_penetration_minimum_axis) {
    ct_shape big = ct_shape_box(tu_vec(1, 1, 1)), small = ct_shape_box(tu_vec(0.2, 0.2, 0.2));
    ct_xform xb = ct_xform_identity();
    ct_distance d;
    xb.p = tu_vec(0.5, 0.1, -0.2);
    cr_assert_eq(ct_signed_distance(&big, NULL, &small, &xb, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance + 0.7) < TOL_POLY, "%.17g", (double)d.distance);
    cr_assert(d.normal.x > 1 - 1e3 * TU_EPS);
    /* swapped: the same depth, the opposite normal */
    cr_assert_eq(ct_signed_distance(&small, &xb, &big, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance + 0.7) < TOL_POLY);
    cr_assert(d.normal.x < -(1 - 1e3 * TU_EPS));
}

Test(gjk_touch, identical_shapes_coincident) {
    ct_shape box = ct_shape_box(tu_vec(1, 2, 3));
    ct_distance d;
    ct_xform x = tu_random_xform(&(unsigned long long){ 4 }, 10);
    cr_assert_eq(ct_signed_distance(&box, &x, &box, &x, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance + 2) < TOL_POLY * 20, "%.17g", (double)d.distance);
    cr_assert(fabs(fabs(ddot(dof(d.normal), dvv(x.r[0][0], x.r[1][0], x.r[2][0]))) - 1) < 1e3 * TU_EPS);
    cr_assert_eq(ct_gjk(&box, &x, &box, &x, NULL, &d), CT_OK);
    cr_assert_eq(d.distance, 0);
}

Test(gjk_touch, coplanar_triangles) {
    ct_shape a = ct_shape_triangle(tu_vec(0, 0, 0), tu_vec(1, 0, 0), tu_vec(0, 1, 0));
    ct_shape b = ct_shape_triangle(tu_vec(0.2, 0.2, 0), tu_vec(1.2, 0.2, 0), tu_vec(0.2, 1.2, 0));
    ct_xform xb = ct_xform_identity();
    ct_distance d;
    /* overlapping in their common plane: A - B is flat, the depth is 0 along the plane normal */
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance) < 1e2 * TU_EPS, "%g", (double)d.distance);
    cr_assert(fabs(fabs(d.normal.z) - 1) < 1e2 * TU_EPS);
    /* apart in the plane: the in-plane distance */
    xb.p = tu_vec(1.5, 0, 0);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, &xb, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance - sqrt(0.53)) < TOL_POLY, "%.17g", (double)d.distance); /* (1.7,0.2) to (1,0) */
    /* the same triangle, same place */
    cr_assert_eq(ct_signed_distance(&a, NULL, &a, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance) < 1e2 * TU_EPS && fabs(dlen(dof(d.normal)) - 1) < 1e2 * TU_EPS);
    /* a triangle through a box: flat shape, real depth */
    {
        ct_shape box = ct_shape_box(tu_vec(1, 1, 1));
        ct_shape t = ct_shape_triangle(tu_vec(-3, -3, 0.8), tu_vec(3, -3, 0.8), tu_vec(0, 3, 0.8));
        cr_assert_eq(ct_signed_distance(&box, NULL, &t, NULL, NULL, NULL, &d), CT_OK);
        cr_assert(fabs(d.distance + 0.2) < TOL_POLY, "%.17g", (double)d.distance);
        cr_assert(d.normal.z > 1 - 1e3 * TU_EPS);
    }
}

Test(gjk_touch, single_points_and_segments) {
    ct_vec3 p[2] = { { 0, 0, 0 }, { 1, 0, 0 } }, q[2] = { { 0.5, -1, 0 }, { 0.5, 1, 0 } };
    ct_shape a = ct_shape_points(p, 2), b = ct_shape_points(q, 2), pt = ct_shape_points(p, 1);
    ct_xform xb = ct_xform_identity();
    ct_distance d;
    /* crossing segments: touching */
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance) < 1e2 * TU_EPS && ct__test_finite(&d));
    xb.p = tu_vec(0, 0, 0.25);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, &xb, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance - 0.25) < TOL_POLY && d.normal.z > 1 - 1e3 * TU_EPS);
    /* a point on a point */
    cr_assert_eq(ct_signed_distance(&pt, NULL, &pt, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(d.distance == 0 && fabs(dlen(dof(d.normal)) - 1) < 1e2 * TU_EPS);
}

/* ---- bad input ------------------------------------------------------------------------------ */
static void nan_support(const void *user, const ct_vec3 *dir, ct_vec3 *out) {
    (void)user; (void)dir;
    *out = tu_vec(NAN, 0, 0);
}

static void expect_invalid(const ct_shape *a, const ct_xform *xa, const ct_shape *b, const ct_xform *xb) {
    ct_distance d;
    memset(&d, 0x5a, sizeof d);
    cr_assert_eq(ct_signed_distance(a, xa, b, xb, NULL, NULL, &d), CT_INVALID);
    cr_assert(d.distance == 0 && d.normal.x == 0 && d.pa.x == 0 && d.iterations == 0, "output not zeroed");
    memset(&d, 0x5a, sizeof d);
    cr_assert_eq(ct_gjk(a, xa, b, xb, NULL, &d), CT_INVALID);
    cr_assert(d.distance == 0 && d.normal.x == 0 && d.pb.z == 0, "output not zeroed");
}

Test(gjk_invalid, nan_inf_null_negative) {
    ct_vec3 p[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, bad[4];
    ct_shape ok = ct_shape_points(p, 4), s;
    ct_xform x = ct_xform_identity();
    ct_distance d;
    memcpy(bad, p, sizeof p);
    bad[2].y = (ct_real)NAN;
    s = ct_shape_points(bad, 4);
    expect_invalid(&s, NULL, &ok, NULL);
    expect_invalid(&ok, NULL, &s, NULL);
    bad[2].y = (ct_real)INFINITY;
    expect_invalid(&ok, NULL, &s, NULL);
    s = ct_shape_points(p, 0); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_points(p, -3); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_points(NULL, 3); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_sphere(-1); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_sphere((ct_real)NAN); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_rounded(ok, (ct_real)INFINITY); expect_invalid(&ok, NULL, &s, NULL);
    s = ct_shape_box(tu_vec(1, -1, 1)); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_ellipsoid(tu_vec(1, NAN, 1)); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_triangle(tu_vec(0, 0, 0), tu_vec(INFINITY, 0, 0), tu_vec(0, 1, 0)); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_support(NULL, NULL); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_support(nan_support, NULL); expect_invalid(&s, NULL, &ok, NULL);
    s = ct_shape_hull(NULL); expect_invalid(&s, NULL, &ok, NULL);
    expect_invalid(NULL, NULL, &ok, NULL);
    expect_invalid(&ok, NULL, NULL, NULL);
    x.p.z = (ct_real)NAN; expect_invalid(&ok, &x, &ok, NULL);
    x = ct_xform_identity(); x.r[1][0] = (ct_real)INFINITY; expect_invalid(&ok, NULL, &ok, &x);
    x = ct_xform_identity(); x.r[0][0] = 3; expect_invalid(&ok, NULL, &ok, &x); /* not a rotation */
    memset(&s, 0, sizeof s); expect_invalid(&s, NULL, &ok, NULL); /* zeroed: no type */
    cr_assert_eq(ct_gjk(&ok, NULL, &ok, NULL, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_signed_distance(&ok, NULL, &ok, NULL, NULL, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_gjk(&ok, NULL, &ok, NULL, NULL, &d), CT_OK);
}

/* A point cloud's points are certified by GJK's first support (every support scans them all)
   instead of a pass of their own: a NaN or infinite coordinate anywhere, in either shape, at
   any scan length, still gives CT_INVALID, cold, warm, and warm with a cached tetrahedron that
   takes no support at all. */
Test(gjk_invalid, bad_point_anywhere_in_a_cloud) {
    static const int sizes[4] = { 5, 8, 20, 23 };
    static const double bad[3] = { NAN, INFINITY, -INFINITY };
    unsigned long long seed = 77;
    ct_vec3 p[23], q[23];
    int z, i, c, k;
    for (z = 0; z < 4; ++z) {
        int n = sizes[z];
        random_cloud(p, n, 1, &seed);
        random_cloud(q, n, 1, &seed);
        for (i = 0; i < n; ++i)
            for (c = 0; c < 3; ++c)
                for (k = 0; k < 3; ++k) {
                    ct_vec3 keep = p[i];
                    ct_shape sp = ct_shape_points(p, n), sq = ct_shape_points(q, n);
                    ct_xform xq = ct_xform_identity();
                    xq.p = tu_vec(3, 0.5, 0);
                    if (c == 0) p[i].x = (ct_real)bad[k]; else if (c == 1) p[i].y = (ct_real)bad[k]; else p[i].z = (ct_real)bad[k];
                    expect_invalid(&sp, NULL, &sq, &xq);
                    expect_invalid(&sq, &xq, &sp, NULL);
                    p[i] = keep;
                }
    }
}

Test(gjk_invalid, bad_point_with_a_warm_cache) {
    unsigned long long seed = 78;
    ct_vec3 p[20], q[20];
    ct_shape sp, sq;
    ct_gjk_cache cache;
    ct_distance d;
    int i, hit = 0;
    random_cloud(p, 20, 1, &seed);
    random_cloud(q, 20, 1, &seed);
    sp = ct_shape_points(p, 20);
    sq = ct_shape_points(q, 20);
    for (i = 0; i < 20; ++i) {
        ct_vec3 keep = q[i];
        memset(&cache, 0, sizeof cache);
        /* deep overlap: the cache ends as a tetrahedron around the origin */
        cr_assert_eq(ct_gjk(&sp, NULL, &sq, NULL, &cache, &d), CT_OK);
        hit += cache.count == 4;
        q[i].y = (ct_real)NAN;
        cr_assert_eq(ct_gjk(&sp, NULL, &sq, NULL, &cache, &d), CT_INVALID, "point %d", i);
        q[i] = keep;
        cr_assert_eq(ct_gjk(&sp, NULL, &sq, NULL, &cache, &d), CT_OK);
        q[i].z = (ct_real)INFINITY;
        cr_assert_eq(ct_signed_distance(&sp, NULL, &sq, NULL, &cache, NULL, &d), CT_INVALID, "point %d", i);
        q[i] = keep;
    }
    cr_assert_gt(hit, 0, "no call ended with a cached tetrahedron");
}

/* Finite points whose dots with the first search direction overflow (the scan's certificate
   is then not finite) are valid: the exact check clears them, and the answer scales exactly
   (a power of two) with the input. */
Test(gjk_invalid, huge_finite_clouds_are_valid) {
    unsigned long long seed = 79;
    const double big = ldexp(1, TU_FLOAT ? 100 : 1000);
    ct_vec3 p[20], q[20], P[20], Q[20];
    int k, i;
    for (k = 0; k < 50; ++k) {
        ct_shape sp, sq, sP, sQ;
        ct_xform xq = tu_random_xform(&seed, 0), xQ;
        ct_distance d, D;
        ct_vec3 dir = tu_random_unit(&seed);
        double sep = uni(&seed, -0.5, 1);
        random_cloud(p, 20, 1, &seed);
        random_cloud(q, 20, 1, &seed);
        xq.p = tu_vec(dir.x * (1.5 + sep), dir.y * (1.5 + sep), dir.z * (1.5 + sep));
        xQ = xq;
        xQ.p = tu_vec(xq.p.x * big, xq.p.y * big, xq.p.z * big);
        for (i = 0; i < 20; ++i) {
            P[i] = tu_vec(p[i].x * big, p[i].y * big, p[i].z * big);
            Q[i] = tu_vec(q[i].x * big, q[i].y * big, q[i].z * big);
        }
        sp = ct_shape_points(p, 20); sq = ct_shape_points(q, 20);
        sP = ct_shape_points(P, 20); sQ = ct_shape_points(Q, 20);
        cr_assert_eq(ct_signed_distance(&sp, NULL, &sq, &xq, NULL, NULL, &d), CT_OK);
        cr_assert_eq(ct_signed_distance(&sP, NULL, &sQ, &xQ, NULL, NULL, &D), CT_OK, "case %d", k);
        cr_assert(fabs(D.distance / big - d.distance) < TOL_POLY * 4, "case %d: %.17g vs %.17g", k,
                  (double)(D.distance / big), (double)d.distance);
        cr_assert_eq(ct_gjk(&sP, NULL, &sQ, &xQ, NULL, &D), CT_OK, "case %d", k);
    }
}

/* ---- invariants ---------------------------------------------------------------------------- */
static double pair_case(unsigned long long *seed, ct_vec3 *a, ct_vec3 *b, ct_xform *xa, ct_xform *xb) {
    ct_vec3 dir = tu_random_unit(seed);
    double sep = uni(seed, -1, 1.2);
    random_cloud(a, 12, 1, seed);
    random_cloud(b, 12, 0.8, seed);
    *xa = tu_random_xform(seed, 0);
    *xb = tu_random_xform(seed, 0);
    xb->p = tu_vec(dir.x * (1 + sep), dir.y * (1 + sep), dir.z * (1 + sep));
    return sep;
}

Test(gjk_invariant, swap_negates_normal) {
    unsigned long long seed = 61;
    int k;
    for (k = 0; k < 500; ++k) {
        ct_vec3 a[12], b[12];
        ct_xform xa, xb;
        ct_shape sa, sb;
        ct_distance d1, d2;
        pair_case(&seed, a, b, &xa, &xb);
        sa = ct_shape_points(a, 12);
        sb = ct_shape_points(b, 12);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d1), CT_OK);
        cr_assert_eq(ct_signed_distance(&sb, &xb, &sa, &xa, NULL, NULL, &d2), CT_OK);
        cr_assert(fabs(d1.distance - d2.distance) < TOL_POLY * 4, "case %d: %.17g vs %.17g", k, (double)d1.distance, (double)d2.distance);
        /* the normal is unique unless two directions tie; ties are measure-zero here */
        cr_assert(ddot(dof(d1.normal), dof(d2.normal)) < -(1 - (TU_FLOAT ? 1e-3 : 1e-6)), "case %d: normals not opposite", k);
    }
}

Test(gjk_invariant, scale_and_translation) {
    const double scales[3] = { 1e-6, 1e6, 1 };
    const double shift = TU_FLOAT ? 1e2 : 1e6; /* float has no digits left for unit shapes at 1e6 */
    unsigned long long seed = 71;
    int k, j, i;
    for (k = 0; k < 200; ++k) {
        ct_vec3 a[12], b[12], as[12], bs[12];
        ct_xform xa, xb, ya, yb;
        ct_shape sa, sb;
        ct_distance d0, d1;
        pair_case(&seed, a, b, &xa, &xb);
        sa = ct_shape_points(a, 12);
        sb = ct_shape_points(b, 12);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d0), CT_OK);
        for (j = 0; j < 3; ++j) {
            double s = scales[j], t = j == 2 ? shift : 0;
            for (i = 0; i < 12; ++i) {
                as[i] = tu_vec(a[i].x * s, a[i].y * s, a[i].z * s);
                bs[i] = tu_vec(b[i].x * s, b[i].y * s, b[i].z * s);
            }
            ya = xa; yb = xb;
            ya.p = tu_vec(xa.p.x * s + t, xa.p.y * s - t, xa.p.z * s + t);
            yb.p = tu_vec(xb.p.x * s + t, xb.p.y * s - t, xb.p.z * s + t);
            sa = ct_shape_points(as, 12);
            sb = ct_shape_points(bs, 12);
            cr_assert_eq(ct_signed_distance(&sa, &ya, &sb, &yb, NULL, NULL, &d1), CT_OK);
            cr_assert(fabs(d1.distance / s - d0.distance) < TOL_POLY * 4 + 8 * TU_EPS * t,
                      "case %d scale %g shift %g: %.17g vs %.17g", k, s, t, (double)(d1.distance / s), (double)d0.distance);
            cr_assert(ddot(dof(d0.normal), dof(d1.normal)) > 1 - (TU_FLOAT ? 1e-3 : 1e-6));
        }
    }
}

/* ---- cache, scratch ------------------------------------------------------------------------ */
Test(gjk_cache, warm_equals_cold_and_saves_iterations) {
    unsigned long long seed = 81;
    ct_vec3 a[20], b[20];
    ct_shape sa, sb;
    ct_gjk_cache cache;
    int k, warm_iters = 0, cold_iters = 0;
    random_cloud(a, 20, 1, &seed);
    random_cloud(b, 20, 1, &seed);
    sa = ct_shape_points(a, 20);
    sb = ct_shape_points(b, 20);
    memset(&cache, 0, sizeof cache);
    for (k = 0; k < 300; ++k) {
        double t = 0.02 * k;
        ct_xform xb = ct_xform_from_axis_angle(tu_vec(0.3, 1, 0.2), (ct_real)t, tu_vec(2.2 + 0.4 * sin(t), 0.3 * cos(t), 0));
        ct_distance dw, dc;
        cr_assert_eq(ct_signed_distance(&sa, NULL, &sb, &xb, &cache, NULL, &dw), CT_OK);
        cr_assert_eq(ct_signed_distance(&sa, NULL, &sb, &xb, NULL, NULL, &dc), CT_OK);
        cr_assert(fabs(dw.distance - dc.distance) < TOL_POLY * 4, "frame %d: warm %.17g cold %.17g", k, (double)dw.distance, (double)dc.distance);
        cr_assert(cache.count >= 1 && cache.count <= 4);
        warm_iters += dw.iterations;
        cold_iters += dc.iterations;
    }
    cr_assert_lt(warm_iters, cold_iters, "warm %d vs cold %d iterations", warm_iters, cold_iters);
    /* a cache from another pair is harmless */
    {
        ct_shape box = ct_shape_box(tu_vec(1, 1, 1));
        ct_distance d;
        cache.ct__ia[0] = 1000000;
        cr_assert_eq(ct_gjk(&box, NULL, &sa, NULL, &cache, &d), CT_OK);
    }
}

static ct_status one_deep_query(ct_scratch *s) {
    ct_shape a = ct_shape_box(tu_vec(1, 1, 1)), b = ct_shape_box(tu_vec(0.5, 0.7, 0.3));
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(1, 2, 3), 0.4, tu_vec(0.2, 0.1, 0.3));
    ct_distance d;
    return ct_signed_distance(&a, NULL, &b, &xb, NULL, s, &d);
}

Test(gjk_scratch, allocation_failures_and_warm_scratch) {
    long k;
    int done = 0;
    for (k = 1; k < 50 && !done; ++k) {
        tu_alloc t;
        ct_scratch s;
        ct_status st;
        tu_alloc_init(&t, k);
        ct_scratch_init(&s, &t.a);
        st = one_deep_query(&s);
        cr_assert(st == CT_OK || st == CT_NO_MEMORY);
        done = st == CT_OK;
        ct_scratch_release(&s);
        cr_assert_eq(t.outstanding, 0, "leak after failing allocation %ld", k);
    }
    cr_assert(done);
    {
        tu_alloc t;
        ct_scratch s;
        long before;
        tu_alloc_init(&t, 0);
        ct_scratch_init(&s, &t.a);
        cr_assert_eq(one_deep_query(&s), CT_OK);
        before = t.calls;
        cr_assert_eq(one_deep_query(&s), CT_OK);
        cr_assert_eq(one_deep_query(&s), CT_OK);
        cr_assert_eq(t.calls, before, "a warm scratch allocated");
        ct_scratch_release(&s);
        cr_assert_eq(t.outstanding, 0);
    }
}

/* ---- ellipsoids: optimality conditions + support-function bounds ---------------------------- */
/* h_E(n) = n.c + |S R^T n| for an ellipsoid with semi-axes S placed by x. */
static double ell_h(ct_vec3 semi, const ct_xform *x, dv n) {
    dv m = dvv(x->r[0][0] * n.x + x->r[1][0] * n.y + x->r[2][0] * n.z,
               x->r[0][1] * n.x + x->r[1][1] * n.y + x->r[2][1] * n.z,
               x->r[0][2] * n.x + x->r[1][2] * n.y + x->r[2][2] * n.z);
    return ddot(n, dof(x->p)) + dlen(dvv(semi.x * m.x, semi.y * m.y, semi.z * m.z));
}

Test(gjk_closed, ellipsoid_pairs_support_bounds) {
    unsigned long long seed = 91;
    int k, j;
    for (k = 0; k < 150; ++k) {
        ct_vec3 sa = tu_vec(uni(&seed, 0.2, 1), uni(&seed, 0.2, 1), uni(&seed, 0.2, 1));
        ct_vec3 sb = tu_vec(uni(&seed, 0.2, 1), uni(&seed, 0.2, 1), uni(&seed, 0.2, 1));
        ct_xform xa = tu_random_xform(&seed, 0), xb = tu_random_xform(&seed, 0);
        ct_shape a = ct_shape_ellipsoid(sa), b = ct_shape_ellipsoid(sb);
        ct_vec3 u = tu_random_unit(&seed);
        double c = uni(&seed, 0.3, 2.2), best = 1e300, hn;
        ct_distance d;
        dv n;
        xb.p = tu_vec(u.x * c, u.y * c, u.z * c);
        cr_assert_eq(ct_signed_distance(&a, &xa, &b, &xb, NULL, NULL, &d), CT_OK);
        n = dof(d.normal);
        /* the answer's normal realises it: h_A(n) + h_B(-n) = -distance ... */
        hn = ell_h(sa, &xa, n) + ell_h(sb, &xb, dscl(n, -1));
        cr_assert(fabs(hn + d.distance) < 4 * TOL_SMOOTH, "case %d: h(n) %.12g vs %.12g", k, hn, -(double)d.distance);
        /* ... and no other direction does better (depth = min_n h_{A-B}(n) when overlapping;
           distance = max_n -h_{A-B}(n) when apart) */
        for (j = 0; j < 400; ++j) {
            dv m = dof(tu_random_unit(&seed));
            double hm = ell_h(sa, &xa, m) + ell_h(sb, &xb, dscl(m, -1));
            if (hm < best) best = hm;
        }
        if (d.distance < 0) cr_assert(-d.distance <= best + 4 * TOL_SMOOTH, "case %d: depth %g > sampled %g", k, -(double)d.distance, best);
        else cr_assert(d.distance >= -best - 4 * TOL_SMOOTH, "case %d: distance %g < sampled %g", k, (double)d.distance, -best);
        /* witnesses on the surfaces */
        cr_assert(fabs(ddot(dof(d.pa), n) - ell_h(sa, &xa, n)) < 8 * TOL_SMOOTH);
        cr_assert(fabs(-ddot(dof(d.pb), n) - ell_h(sb, &xb, dscl(n, -1))) < 8 * TOL_SMOOTH);
    }
}

/* A support function that lies (not convex, not even a function of dir): never a hang, never
   NaN; whatever status comes back, the outputs are finite. */
static void lying_support(const void *user, const ct_vec3 *dir, ct_vec3 *out) {
    unsigned long long *s = (unsigned long long *)(size_t)user;
    (void)dir;
    *out = tu_random_unit(s);
}

Test(gjk_invalid, inconsistent_support_terminates) {
    unsigned long long state = 99;
    int k;
    for (k = 0; k < 200; ++k) {
        ct_shape a = ct_shape_support(lying_support, &state), b = ct_shape_box(tu_vec(0.5, 0.5, 0.5));
        ct_xform xb = ct_xform_identity();
        ct_distance d;
        ct_status st;
        xb.p = tu_vec(0.3 * (k % 7), 0, 0);
        st = ct_signed_distance(&a, NULL, &b, &xb, NULL, NULL, &d);
        cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE);
        cr_assert(ct__test_finite(&d));
        st = ct_gjk(&a, NULL, &b, &xb, NULL, &d);
        cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE);
        cr_assert(ct__test_finite(&d));
    }
}

/* ---- hulls: scan below CT_HULL_SCAN_MAX vertices, hill climbing above --------------------- */
#include "workload.h"
static int sphere_hull(ct_hull *h, ct_vec3 *pts, int n, unsigned long long *seed) {
    double xyz[3 * 2000];
    int i;
    wl_sphere(xyz, n, 1, seed);
    for (i = 0; i < n; ++i) pts[i] = tu_vec(xyz[3 * i] * 1.3, xyz[3 * i + 1], xyz[3 * i + 2] * 0.8);
    return ct_hull_build(pts, n, NULL, NULL, h) == CT_OK;
}

Test(gjk_hull, hull_shapes_match_point_clouds) {
    static const int sizes[4] = { 12, 32, 200, 2000 };
    ct_vec3 *pa = (ct_vec3 *)malloc(sizeof(ct_vec3) * 2000), *pb = (ct_vec3 *)malloc(sizeof(ct_vec3) * 2000);
    unsigned long long seed = 101;
    int z, k;
    for (z = 0; z < 4; ++z) {
        ct_hull ha, hb;
        ct_shape sa, sb, qa, qb;
        ct_gjk_cache cache;
        int n = sizes[z];
        cr_assert(sphere_hull(&ha, pa, n, &seed) && sphere_hull(&hb, pb, n, &seed));
        cr_assert_eq(ha.nverts, n, "points on a sphere are all hull vertices");
        sa = ct_shape_hull(&ha); sb = ct_shape_hull(&hb);
        qa = ct_shape_points(pa, n); qb = ct_shape_points(pb, n);
        memset(&cache, 0, sizeof cache);
        for (k = 0; k < (n > 500 ? 60 : 200); ++k) {
            ct_xform xa = tu_random_xform(&seed, 0), xb = tu_random_xform(&seed, 0);
            ct_vec3 u = tu_random_unit(&seed);
            double c = uni(&seed, 1.2, 3);
            ct_distance dh, dp, dw;
            xb.p = tu_vec(u.x * c, u.y * c, u.z * c);
            cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &dh), CT_OK);
            cr_assert_eq(ct_signed_distance(&qa, &xa, &qb, &xb, NULL, NULL, &dp), CT_OK);
            cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, &cache, NULL, &dw), CT_OK);
            cr_assert(fabs(dh.distance - dp.distance) < TOL_POLY * 4, "n %d case %d: hull %.17g points %.17g", n, k,
                      (double)dh.distance, (double)dp.distance);
            cr_assert(fabs(dw.distance - dp.distance) < TOL_POLY * 4, "n %d case %d: warm hull %.17g", n, k, (double)dw.distance);
            check_witnesses(pa, n, &xa, pb, n, &xb, &dh, TOL_POLY * 40);
        }
        ct_hull_free(&ha);
        ct_hull_free(&hb);
    }
    free(pa);
    free(pb);
}

Test(gjk_hull, box_hull_against_box_shape) {
    ct_hull h;
    ct_shape hs, bs = ct_shape_box(tu_vec(0.5, 1, 1.5)), other = ct_shape_box(tu_vec(0.3, 0.3, 0.3));
    unsigned long long seed = 111;
    int k;
    cr_assert_eq(ct_hull_box(tu_vec(0.5, 1, 1.5), NULL, &h), CT_OK);
    hs = ct_shape_hull(&h);
    for (k = 0; k < 300; ++k) {
        ct_xform xb = tu_random_xform(&seed, 2);
        ct_distance d1, d2;
        cr_assert_eq(ct_signed_distance(&hs, NULL, &other, &xb, NULL, NULL, &d1), CT_OK);
        cr_assert_eq(ct_signed_distance(&bs, NULL, &other, &xb, NULL, NULL, &d2), CT_OK);
        cr_assert(fabs(d1.distance - d2.distance) < TOL_POLY * 4, "case %d: %.17g vs %.17g", k, (double)d1.distance, (double)d2.distance);
    }
    ct_hull_free(&h);
}

/* Hill climbing over a long coherent motion: the warm answer equals the cold one, and the
   warm calls need fewer support evaluations (iterations). */
Test(gjk_hull, warm_hill_climbing_follows_motion) {
    ct_vec3 *pa = (ct_vec3 *)malloc(sizeof(ct_vec3) * 1000), *pb = (ct_vec3 *)malloc(sizeof(ct_vec3) * 1000);
    unsigned long long seed = 121;
    ct_hull ha, hb;
    ct_shape sa, sb;
    ct_gjk_cache cache;
    int k, warm = 0, cold = 0;
    cr_assert(sphere_hull(&ha, pa, 1000, &seed) && sphere_hull(&hb, pb, 1000, &seed));
    sa = ct_shape_hull(&ha); sb = ct_shape_hull(&hb);
    memset(&cache, 0, sizeof cache);
    for (k = 0; k < 400; ++k) {
        double t = 0.01 * k;
        ct_xform xb = ct_xform_from_axis_angle(tu_vec(0.2, 1, 0.4), (ct_real)(3 * t), tu_vec(2.7 * cos(t), 2.7 * sin(t), 0.3));
        ct_distance dw, dc;
        cr_assert_eq(ct_gjk(&sa, NULL, &sb, &xb, &cache, &dw), CT_OK);
        cr_assert_eq(ct_gjk(&sa, NULL, &sb, &xb, NULL, &dc), CT_OK);
        cr_assert(fabs(dw.distance - dc.distance) < TOL_POLY * 4, "frame %d", k);
        warm += dw.iterations;
        cold += dc.iterations;
    }
    cr_assert_lt(warm, cold);
    ct_hull_free(&ha);
    ct_hull_free(&hb);
    free(pa);
    free(pb);
}

/* ---- libccd as a cross-check (GJK classification, GJK+EPA depth) ---------------------------- */
#ifdef CT_HAVE_CCD
#include <ccd/ccd.h>
typedef struct ccd_cloud { const ct_vec3 *p; int n; const ct_xform *x; } ccd_cloud;
static void ccd_cloud_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out) {
    const ccd_cloud *c = (const ccd_cloud *)obj;
    dv d = dvv(dir->v[0], dir->v[1], dir->v[2]), best = dvv(0, 0, 0);
    double bd = -1e300;
    int i;
    for (i = 0; i < c->n; ++i) {
        dv w = dxf(c->x, c->p[i]);
        if (ddot(w, d) > bd) { bd = ddot(w, d); best = w; }
    }
    out->v[0] = best.x; out->v[1] = best.y; out->v[2] = best.z;
}

Test(gjk_ccd, classification_and_depth_agree_with_libccd) {
    unsigned long long seed = 131;
    int k, compared = 0, agree = 0;
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = ccd.support2 = ccd_cloud_support;
    ccd.max_iterations = 500;
    ccd.epa_tolerance = 1e-6;
    for (k = 0; k < 400; ++k) {
        ct_vec3 a[12], b[12];
        ct_xform xa, xb;
        ct_shape sa, sb;
        ct_distance d;
        ccd_cloud ca, cb;
        pair_case(&seed, a, b, &xa, &xb);
        sa = ct_shape_points(a, 12);
        sb = ct_shape_points(b, 12);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d), CT_OK);
        ca.p = a; ca.n = 12; ca.x = &xa;
        cb.p = b; cb.n = 12; cb.x = &xb;
        if (fabs(d.distance) > 1e-3)
            cr_assert_eq(ccdGJKIntersect(&ca, &cb, &ccd) != 0, d.distance < 0, "case %d: libccd classifies %g differently", k,
                         (double)d.distance);
        if (d.distance < -1e-3) {
            ccd_real_t depth = 0;
            ccd_vec3_t dir, pos;
            if (ccdGJKPenetration(&ca, &cb, &ccd, &depth, &dir, &pos) == 0) {
                compared++;
                agree += fabs(depth + d.distance) < 1e-3;
            }
        }
    }
    /* libccd's EPA occasionally stops early (we saw depth ~0 on some pairs); the great majority
       must match, and qhull above is the exact oracle */
    cr_assert_gt(compared, 100);
    cr_assert_geq(agree, compared * 95 / 100, "libccd agrees on %d of %d depths", agree, compared);
}
#endif

/* Moving B by -distance * normal makes the shapes touch: the query there answers ~0 with the
   same normal, and +-1e-9 (relative) off that contact the sign follows, GJK and EPA agreeing. */
Test(gjk_touch, moving_b_by_the_answer_makes_them_touch) {
    unsigned long long seed = 141;
    int k, j;
    for (k = 0; k < 400; ++k) {
        ct_vec3 a[12], b[12];
        ct_xform xa, xb, xt;
        ct_shape sa, sb;
        ct_distance d, t, g;
        pair_case(&seed, a, b, &xa, &xb);
        if (k % 3 == 0) { /* boxes too: parallel faces and edges are the hard touching cases */
            for (j = 0; j < 8; ++j) a[j] = tu_vec(j & 1 ? 0.5 : -0.5, j & 2 ? 0.5 : -0.5, j & 4 ? 0.5 : -0.5);
            for (j = 8; j < 12; ++j) a[j] = a[j - 8];
            xb.r[0][0] = xa.r[0][0]; /* keep rotations valid: reuse A's rotation for B */
            memcpy(xb.r, xa.r, sizeof xa.r);
            for (j = 0; j < 8; ++j) b[j] = tu_vec(j & 1 ? 0.3 : -0.3, j & 2 ? 0.4 : -0.4, j & 4 ? 0.2 : -0.2);
            for (j = 8; j < 12; ++j) b[j] = b[j - 8];
        }
        sa = ct_shape_points(a, 12);
        sb = ct_shape_points(b, 12);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d), CT_OK);
        for (j = -1; j <= 1; ++j) {
            double off = TU_FLOAT ? 0 : 1e-9 * j, tol = TU_FLOAT ? 2e-5 : 1e-12;
            xt = xb;
            xt.p = tu_vec(xb.p.x - (d.distance - off) * d.normal.x, xb.p.y - (d.distance - off) * d.normal.y,
                          xb.p.z - (d.distance - off) * d.normal.z);
            cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xt, NULL, NULL, &t), CT_OK);
            cr_assert_eq(ct_gjk(&sa, &xa, &sb, &xt, NULL, &g), CT_OK);
            cr_assert(ct__test_finite(&t) && ct__test_finite(&g));
            /* apart by off along the normal: exactly off. Pushed in by |off|: a depth of at most
               |off| (less when the contact is at a corner of A - B) */
            if (off >= 0) cr_assert(fabs(t.distance - off) < tol, "case %d off %g: %.17g (was %.17g)", k, off, (double)t.distance, (double)d.distance);
            else cr_assert(t.distance > off - tol && t.distance <= 0, "case %d off %g: %.17g", k, off, (double)t.distance);
            cr_assert(fabs(g.distance - fmax(off, 0)) < tol, "case %d off %g: gjk %.17g", k, off, (double)g.distance);
            cr_assert(fabs(dlen(dof(t.normal)) - 1) < 1e3 * TU_EPS);
            if (!TU_FLOAT && j != 0) {
                cr_assert((t.distance > 0) == (j > 0), "case %d: sign of a %g offset: %.3g", k, off, (double)t.distance);
                cr_assert((g.distance > 0) == (j > 0), "case %d: gjk sign of a %g offset: %.3g", k, off, (double)g.distance);
            }
        }
    }
}

/* A support that keeps improving (a ball growing by ~k^-1.5 per call): GJK progresses at every
   iteration without ever meeting its tolerance, so it must stop at CT_GJK_MAX_ITERS with
   CT_NO_CONVERGENCE and the best estimate in the output. */
static void growing_support(const void *user, const ct_vec3 *dir, ct_vec3 *out) {
    long *k = (long *)(size_t)user;
    double r = 2 - 1.0 / sqrt((double)(++*k)), l = dlen(dof(*dir));
    *out = tu_vec(r * dir->x / l, r * dir->y / l, r * dir->z / l);
}

Test(gjk_invalid, iteration_cap_returns_best_estimate) {
    long calls = 0;
    ct_shape a = ct_shape_support(growing_support, &calls), b = ct_shape_sphere(0);
    ct_xform xb = ct_xform_identity();
    ct_distance d;
    double limit;
    xb.p = tu_vec(3, 0.5, 0);
    limit = sqrt(9.25) - 2;
    cr_assert_eq(ct_gjk(&a, NULL, &b, &xb, NULL, &d), CT_NO_CONVERGENCE);
    cr_assert_eq(d.iterations, CT_GJK_MAX_ITERS);
    cr_assert(ct__test_finite(&d) && d.distance > limit && d.distance < limit + 0.1, "%g", (double)d.distance);
    cr_assert(d.normal.x > 0.9); /* towards B */
    calls = 0;
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, &xb, NULL, NULL, &d), CT_NO_CONVERGENCE);
    cr_assert(ct__test_finite(&d) && d.distance > limit && d.distance < limit + 0.1);
}

/* EPA on a ball that keeps growing never meets its tolerance: the vertex cap stops it with
   CT_NO_CONVERGENCE and a finite best estimate (a depth between the first and last radii). */
static void growing_ball(const void *user, const ct_vec3 *dir, ct_vec3 *out) {
    long *k = (long *)(size_t)user;
    double r = 3 - 2 / pow((double)(++*k), 0.2), l = dlen(dof(*dir));
    *out = tu_vec(r * dir->x / l, r * dir->y / l, r * dir->z / l);
}

Test(gjk_invalid, epa_vertex_cap_returns_best_estimate) {
    long calls = 0;
    ct_shape a = ct_shape_support(growing_ball, &calls), b = ct_shape_sphere(0);
    ct_xform xb = ct_xform_identity();
    ct_distance d;
    xb.p = tu_vec(0.1, 0.05, 0);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, &xb, NULL, NULL, &d), CT_NO_CONVERGENCE);
    cr_assert(ct__test_finite(&d) && d.distance < -0.5 && d.distance > -3, "%g", (double)d.distance);
    cr_assert(fabs(dlen(dof(d.normal)) - 1) < 1e3 * TU_EPS);
    cr_assert_geq(calls, CT_EPA_MAX_VERTS - 4);
}

/* ---- every pair of shape types --------------------------------------------------------------- */
/* The support function of each test shape in world space, written independently of the library:
   h(n) = max over the shape of n.x. */
typedef struct zoo_shape {
    ct_shape s;
    int kind;           /* 0 points, 1 hull, 2 sphere, 3 ellipsoid, 4 box, 5 triangle, 6 support ball, 7 rounded hull */
    ct_vec3 v[3];       /* box half / ellipsoid semi / triangle */
    double r;           /* sphere or rounding radius */
    const ct_vec3 *pts;
    int n;
} zoo_shape;

static double zoo_h(const zoo_shape *z, const ct_xform *x, dv n) {
    dv m = dvv(x->r[0][0] * n.x + x->r[1][0] * n.y + x->r[2][0] * n.z,
               x->r[0][1] * n.x + x->r[1][1] * n.y + x->r[2][1] * n.z,
               x->r[0][2] * n.x + x->r[1][2] * n.y + x->r[2][2] * n.z); /* R^T n */
    double c = ddot(n, dof(x->p)), best = -1e300;
    int i;
    switch (z->kind) {
    case 0: case 1: case 7:
        for (i = 0; i < z->n; ++i) best = fmax(best, ddot(dof(z->pts[i]), m));
        return c + best + (z->kind == 7 ? z->r : 0);
    case 2: case 6: return c + z->r;
    case 3: return ell_h(z->v[0], x, n);
    case 4: return c + fabs(z->v[0].x * m.x) + fabs(z->v[0].y * m.y) + fabs(z->v[0].z * m.z);
    default:
        for (i = 0; i < 3; ++i) best = fmax(best, ddot(dof(z->v[i]), m));
        return c + best;
    }
}

static int zoo_smooth(int kind) { return kind == 3 || kind == 6; }

Test(gjk_zoo, every_pair_of_shape_types) {
    unsigned long long seed = 151;
    ct_vec3 pts[24];
    ct_hull hull;
    double ball = 0.6;
    zoo_shape z[8];
    int i, j, k;
    random_cloud(pts, 24, 0.8, &seed);
    cr_assert_eq(ct_hull_build(pts, 24, NULL, NULL, &hull), CT_OK);
    memset(z, 0, sizeof z);
    for (i = 0; i < 8; ++i) { z[i].kind = i; z[i].pts = hull.verts; z[i].n = hull.nverts; }
    z[0].s = ct_shape_points(hull.verts, hull.nverts);
    z[1].s = ct_shape_hull(&hull);
    z[2].r = 0.7; z[2].s = ct_shape_sphere((ct_real)z[2].r);
    z[3].v[0] = tu_vec(0.9, 0.4, 0.6); z[3].s = ct_shape_ellipsoid(z[3].v[0]);
    z[4].v[0] = tu_vec(0.5, 0.8, 0.3); z[4].s = ct_shape_box(z[4].v[0]);
    z[5].v[0] = tu_vec(-0.8, -0.5, 0.1); z[5].v[1] = tu_vec(0.9, -0.3, -0.2); z[5].v[2] = tu_vec(0, 0.9, 0.3);
    z[5].s = ct_shape_triangle(z[5].v[0], z[5].v[1], z[5].v[2]);
    z[6].r = ball; z[6].s = ct_shape_support(ball_support, &ball);
    z[7].r = 0.15; z[7].s = ct_shape_rounded(ct_shape_hull(&hull), (ct_real)z[7].r);
    for (i = 0; i < 8; ++i)
        for (j = 0; j < 8; ++j)
            for (k = 0; k < 40; ++k) {
                ct_xform xa = tu_random_xform(&seed, 3), xb = tu_random_xform(&seed, 0), xt;
                ct_vec3 u = tu_random_unit(&seed);
                double c = uni(&seed, 0.2, 2.5), tol = (zoo_smooth(i) || zoo_smooth(j)) ? 8 * TOL_SMOOTH : 40 * TOL_POLY;
                ct_distance d, e, t;
                dv n;
                xb.p = tu_vec(xa.p.x + u.x * c, xa.p.y + u.y * c, xa.p.z + u.z * c);
                cr_assert_eq(ct_signed_distance(&z[i].s, &xa, &z[j].s, &xb, NULL, NULL, &d), CT_OK, "types %d %d case %d", i, j, k);
                cr_assert(ct__test_finite(&d));
                n = dof(d.normal);
                /* the normal realises the answer: h_A(n) + h_B(-n) = -distance */
                cr_assert(fabs(zoo_h(&z[i], &xa, n) + zoo_h(&z[j], &xb, dscl(n, -1)) + d.distance) < tol,
                          "types %d %d case %d: h %.12g vs %.12g", i, j, k,
                          zoo_h(&z[i], &xa, n) + zoo_h(&z[j], &xb, dscl(n, -1)), -(double)d.distance);
                /* witnesses: pb - pa = distance * normal */
                cr_assert(dlen(dsub(dsub(dof(d.pb), dof(d.pa)), dscl(n, d.distance))) < 4 * tol, "types %d %d case %d: witnesses", i, j, k);
                /* swap */
                cr_assert_eq(ct_signed_distance(&z[j].s, &xb, &z[i].s, &xa, NULL, NULL, &e), CT_OK);
                cr_assert(fabs(e.distance - d.distance) < 2 * tol, "types %d %d case %d: swap %.12g vs %.12g", i, j, k,
                          (double)e.distance, (double)d.distance);
                /* moving B by -distance * normal makes them touch */
                xt = xb;
                xt.p = tu_vec(xb.p.x - d.distance * n.x, xb.p.y - d.distance * n.y, xb.p.z - d.distance * n.z);
                cr_assert_eq(ct_signed_distance(&z[i].s, &xa, &z[j].s, &xt, NULL, NULL, &t), CT_OK);
                cr_assert(fabs(t.distance) < 2 * tol, "types %d %d case %d: after the move %.3g", i, j, k, (double)t.distance);
            }
    ct_hull_free(&hull);
}

/* Boxes on a quarter grid, sizes in quarters, in one random common frame far from the origin:
   exact coplanar faces, coincident edges and exact touching everywhere (the classic EPA
   degeneracies). The Minkowski difference is a box, so the answer is in closed form. */
Test(gjk_touch, coplanar_grid_boxes) {
    unsigned long long seed = 161;
    int k, i;
    for (k = 0; k < 20000; ++k) {
        double h[6], c[3], g[3], out2 = 0, depth = 1e300, expect;
        int outside = 0;
        ct_real q[4];
        ct_xform xa, xb;
        ct_shape a, b;
        ct_distance d;
        for (i = 0; i < 6; ++i) h[i] = 0.25 * (1 + (int)(tu_uniform(&seed) * 3));
        for (i = 0; i < 3; ++i) c[i] = 0.25 * ((int)(tu_uniform(&seed) * 13) - 6);
        for (i = 0; i < 4; ++i) q[i] = (ct_real)(tu_uniform(&seed) - 0.5);
        xa = ct_xform_from_quat(q, tu_vec(1e3, -2e3, 5e2));
        xb = xa;
        xb.p = tu_vec(xa.p.x + xa.r[0][0] * c[0] + xa.r[0][1] * c[1] + xa.r[0][2] * c[2],
                      xa.p.y + xa.r[1][0] * c[0] + xa.r[1][1] * c[1] + xa.r[1][2] * c[2],
                      xa.p.z + xa.r[2][0] * c[0] + xa.r[2][1] * c[1] + xa.r[2][2] * c[2]);
        a = ct_shape_box(tu_vec(h[0], h[1], h[2]));
        b = ct_shape_box(tu_vec(h[3], h[4], h[5]));
        for (i = 0; i < 3; ++i) {
            g[i] = fabs(c[i]) - h[i] - h[i + 3];
            if (g[i] > 0) { outside = 1; out2 += g[i] * g[i]; }
            if (-g[i] < depth) depth = -g[i];
        }
        expect = outside ? sqrt(out2) : -depth;
        cr_assert_eq(ct_signed_distance(&a, &xa, &b, &xb, NULL, NULL, &d), CT_OK, "case %d", k);
        cr_assert(fabs(d.distance - expect) < (TU_FLOAT ? 2e-3 : 1e-9), "case %d: %.17g vs %g", k, (double)d.distance, expect);
        cr_assert(fabs(dlen(dof(d.normal)) - 1) < 1e3 * TU_EPS, "case %d: normal", k);
    }
}

/* Warm-started supports climb a hull's vertex graph, which is convex only to rounding: near a
   copy of a vertex (an edge a few ulps to 1e-4 of the extent long, whose direction rounding can
   turn) the graph had false local maxima, and ct_gjk from a hull to a nearby point was wrong by
   up to several percent of the extent in float. Lattice hulls with jittered near copies, at
   scales 1e-3..1e3, a point walked around each with one warm cache; oracle: the hull's
   vertices as a scanned cloud. */
Test(gjk, warm_hull_climbs_match_the_scan_near_vertex_copies) {
    unsigned long long seed = 2718;
    double worst = 0;
    int h, i;
    for (h = 0; h < 60; ++h) {
        ct_vec3 p[40];
        int n = 16 + h % 24;
        double sc = pow(10.0, -3 + 6 * tu_uniform(&seed));
        ct_hull b;
        for (i = 0; i < n; ++i) {
            if (i > 3 && tu_uniform(&seed) < 0.3) {   /* a near copy of an earlier point */
                ct_vec3 q = p[(int)(tu_uniform(&seed) * i)];
                double j = 8 * sc * pow(10.0, -7 + 3 * tu_uniform(&seed));
                p[i] = tu_vec((double)q.x + j * (tu_uniform(&seed) - 0.5), (double)q.y + j * (tu_uniform(&seed) - 0.5), (double)q.z);
            } else {
                p[i] = tu_vec(sc * floor(17 * tu_uniform(&seed) - 8), sc * floor(17 * tu_uniform(&seed) - 8),
                              sc * floor(17 * tu_uniform(&seed) - 8));
            }
        }
        if (ct_hull_build(p, n, NULL, NULL, &b) != CT_OK) continue;
        worst = fmax(worst, tu_warm_hull_vs_scan(&b, 1500, &seed));
        ct_hull_free(&b);
    }
    cr_assert_leq(worst, TU_FLOAT ? 1e-4 : 1e-12, "warm hull vs scanned cloud: %g of the extent", worst);
}
