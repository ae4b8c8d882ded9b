/* Regressions found by the libFuzzer harnesses (tests/fuzz/). Each test is the crashing input
   with its values hard-coded (the same input is in the harness's seed corpus,
   tests/fuzz/corpus/<harness>/regress_*) and checks the property the harness found broken. */
#include "contact.h"
#include "testutil.h"
#include "fuzz/fuzz_input.h"   /* fz_vertex_det: the fuzzers' vertex conditioning */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

/* Largest violation of h's planes by p (local frame). */
static double outside(const ct_hull *h, ct_vec3 p) {
    double m = -INFINITY;
    int k;
    for (k = 0; k < h->nfaces; ++k) m = fmax(m, (double)(ct__dot(h->planes[k].n, p) + h->planes[k].d));
    return m;
}

/* fuzz_polar, regress_hull_sliver_simplex: four points almost on the line x = y = z make a
   sliver initial tetrahedron; its faces were oriented one by one, rounding oriented two of them
   the same way, half-edges were left without twins and quickhull read out of bounds (ASan
   SEGV). Now: a closed hull holding every point. */
Test(fuzz_regress, hull_sliver_initial_simplex) {
    const double raw[7][3] = { { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 },
                               { -7999999.9000030514, -7999999.9007995604, -7999999.9000030514 },
                               { 4999999.9768615719, 4999999.9768615719, 5000000.0588928219 },
                               { 8000000.0592132565, 8000000.0592132565, 7999999.9768615719 },
                               { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 },
                               { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 },
                               { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 } };
    ct_vec3 p[7];
    ct_hull h;
    int i, k, n;
    for (i = 0; i < 7; ++i) p[i] = tu_vec(raw[i][0], raw[i][1], raw[i][2]);
    for (n = 4; n <= 7; ++n) {
        ct_status st = ct_hull_build(p, n, NULL, NULL, &h);
        /* in float the sliver may be flat within the tolerance */
        cr_assert(st == CT_OK || (TU_FLOAT && st == CT_DEGENERATE), "n %d: status %d", n, st);
        if (st != CT_OK) continue;
        cr_assert_eq(h.nverts - h.nedges + h.nfaces, 2);
        for (k = 0; k < 2 * h.nedges; ++k) cr_assert_eq(h.he_twin[h.he_twin[k]], k);
        for (i = 0; i < n; ++i)
            cr_assert(outside(&h, p[i]) <= 1e3 * (double)TU_EPS * 1.6e7, "point %d outside by %g", i, outside(&h, p[i]));
        /* every plane outward: some point strictly behind each (the volume itself, 240 in a
           box of 1.6e7, is below the rounding of the divergence sum) */
        for (k = 0; k < h.nfaces; ++k) {
            double lo = 0;
            for (i = 0; i < n; ++i) lo = fmin(lo, (double)(ct__dot(h.planes[k].n, p[i]) + h.planes[k].d));
            cr_assert(lo < 0, "face %d: no point behind it", k);
        }
        ct_hull_free(&h);
    }
}

/* fuzz_gjk, regress_gjk_negative_radius: a sphere of radius -r rounded by more than r added up
   to a valid positive radius, although the contract says a bad argument is remembered. */
Test(fuzz_regress, bad_radius_stays_bad) {
    ct_shape a = ct_shape_rounded(ct_shape_sphere(-1), 3), b = ct_shape_sphere(1);
    ct_shape c = ct_shape_rounded(ct_shape_box(tu_vec(1, 1, 1)), -0.5), ok = ct_shape_rounded(ct_shape_sphere(1), 0.5);
    ct_xform x = ct_xform_from_axis_angle(tu_vec(0, 0, 1), 0, tu_vec(10, 0, 0));
    ct_distance d;
    cr_assert_eq(ct_gjk(&a, NULL, &b, &x, NULL, &d), CT_INVALID);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, &x, NULL, NULL, &d), CT_INVALID);
    cr_assert_eq(ct_gjk(&c, NULL, &b, &x, NULL, &d), CT_INVALID);
    cr_assert_eq(ct_gjk(&ok, NULL, &b, &x, NULL, &d), CT_OK);
    cr_assert(fabs((double)d.distance - 7.5) <= 1e3 * (double)TU_EPS * 10);
}

/* fuzz_gjk, regress_gjk_subnormal: a triangle collapsed to the point p = (t, t, t) and a
   sphere-shaped ellipsoid of semi-axes t, t subnormal. Three defects met here: normalising a
   vector multiplied by 1 / (largest component), which overflows for a subnormal (CT_OK with a
   NaN normal); GJK's working scale 2^-e overflowing to +inf for a subnormal size (CT_INVALID);
   and the ellipsoid support squaring the semi-axes to zero (the ellipsoid became a point).
   Closed form: the point is (sqrt 3 - 1) t from the sphere, along -(1, 1, 1)/sqrt 3 from A. */
Test(fuzz_regress, subnormal_shapes_give_a_unit_normal) {
    ct_real t = (ct_real)(TU_FLOAT ? 1e-40 : 1e-310);
    ct_vec3 p = tu_vec(t, t, t);
    ct_shape a = ct_shape_triangle(p, p, p), b = ct_shape_ellipsoid(p);
    /* a subnormal carries about log2(t / denorm_min) bits: 16 in float, 44 in double */
    double want = (sqrt(3.0) - 1) * (double)t, tol = (TU_FLOAT ? 1e-3 : 1e-9) * want;
    ct_distance d;
    ct_status st = ct_signed_distance(&a, NULL, &b, NULL, NULL, NULL, &d);
    cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE, "status %d", (int)st);
    cr_assert(fabs((double)d.distance - want) <= tol, "distance %g, want %g", (double)d.distance, want);
    cr_assert(fabs((double)ct__len(d.normal) - 1) <= 1e3 * (double)TU_EPS, "normal %g %g %g", (double)d.normal.x,
              (double)d.normal.y, (double)d.normal.z);
    cr_assert((double)d.normal.x < -0.57 && (double)d.normal.y < -0.57 && (double)d.normal.z < -0.57);
    cr_assert(isfinite((double)d.pa.x) && isfinite((double)d.pb.z));
    st = ct_gjk(&b, NULL, &a, NULL, NULL, &d);
    cr_assert(st == CT_OK && fabs((double)d.distance - want) <= tol, "gjk %g", (double)d.distance);
}

/* fuzz_polar, regress_contact_negative_volume: B a sliver (volume 1e-13 of its extent cubed)
   across A: the divergence-theorem sum over A n B came out -1.4e-23 and ct_contact_hulls
   returned a negative overlap volume. */
Test(fuzz_regress, contact_volume_not_negative) {
    const double ra[11][3] = { { -3e-06, 2e-06, 5e-06 }, { 7e-06, 1e-06, 7e-06 }, { -7e-06, 7e-06, -8e-06 },
                               { 5e-06, -1e-06, 8e-06 }, { -8e-06, -8e-06, 3e-06 }, { -8e-06, -2e-06, -3e-06 },
                               { -5e-06, -8e-06, -8e-06 }, { -8e-06, -8e-06, 5e-06 }, { 2e-06, -8e-06, -5e-06 },
                               { 8e-06, 0, -4e-06 }, { 6e-06, -2e-06, -8e-06 } };
    const double rb[4][3] = { { -7.0000000458831783e-06, -7.0000000458831783e-06, -7.0000000458831783e-06 },
                              { -7.0000000458831783e-06, 9.999999541168213e-07, -7.0000000458831783e-06 },
                              { -4.9999999277770992e-06, 8.0000000600463872e-06, 7.9999999006225588e-06 },
                              { -7.0000000458831783e-06, -7.0000000458831783e-06, -7.0000000458068844e-06 } };
    const double xr[3][3] = { { -0.10024816335130859, -0.61104726177624014, 0.78522070121746568 },
                              { 0.99376201152272192, -0.10024816335130859, 0.048860722456825489 },
                              { 0.048860722456825489, 0.78522070121746568, 0.61728525025351821 } };
    ct_vec3 pa[11], pb[4];
    ct_hull A, B;
    ct_xform xa, xb;
    ct_contact c;
    ct_status st;
    int i, j;
    for (i = 0; i < 11; ++i) pa[i] = tu_vec(ra[i][0], ra[i][1], ra[i][2]);
    for (i = 0; i < 4; ++i) pb[i] = tu_vec(rb[i][0], rb[i][1], rb[i][2]);
    memset(&xa, 0, sizeof xa);
    xa.r[0][2] = xa.r[1][0] = xa.r[2][1] = 1;
    xa.p = tu_vec(-4.5883178710937499e-07, -4.5883178710937499e-07, -4.5883178710937499e-07);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) xb.r[i][j] = (ct_real)xr[i][j];
    xb.p = tu_vec(6.0046386718749997e-07, -9.9377441406249987e-07, -7.1899414062500001e-08);
    cr_assert_eq(ct_hull_build(pa, 11, NULL, NULL, &A), CT_OK);
    st = ct_hull_build(pb, 4, NULL, NULL, &B);
    if (st != CT_OK) { /* flat within the float tolerance */
        cr_assert(TU_FLOAT && st == CT_DEGENERATE);
        ct_hull_free(&A);
        return;
    }
    st = ct_contact_hulls(&A, &xa, &B, &xb, NULL, &c);
    cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE);
    cr_assert(c.volume >= 0 && c.area >= 0 && c.gap <= 0, "volume %g area %g gap %g", (double)c.volume,
              (double)c.area, (double)c.gap);
    ct_hull_free(&A);
    ct_hull_free(&B);
}

/* fuzz_sat, regress_sat_sphere_normal: a sphere centre 1.4e-11 outside a hull face (the sphere
   deep inside): the normal was (c - p) / sqrt(d2) with d2 the face distance squared, while
   c - p = c - (c - n d) cancels, so the normal was off unit by 2e-11 (1e5 ulps). */
Test(fuzz_regress, hull_sphere_normal_is_unit) {
    const double raw[4][3] = { { -7.9999999999999996e-06, -9.9999999999999995e-07, -4.9999999999999996e-06 },
                               { 6.9999999999999999e-06, -9.9999999999999995e-07, 7.9999999999999996e-06 },
                               { -3.0000000000000001e-06, 7.9999999999999996e-06, -4.9999999999999996e-06 },
                               { -3.9999999999999998e-06, -3.9999999999999998e-06, -1.9999999999999999e-06 } };
    ct_vec3 p[4], c = tu_vec(1.9999389648437498e-06, 1.9999389648437498e-06, 1.9999389648437498e-06);
    ct_real r = (ct_real)9.9996948242187492e-07;
    ct_hull h;
    ct_manifold m;
    int i;
    for (i = 0; i < 4; ++i) p[i] = tu_vec(raw[i][0], raw[i][1], raw[i][2]);
    cr_assert_eq(ct_hull_build(p, 4, NULL, NULL, &h), CT_OK);
    cr_assert_eq(ct_manifold_hull_sphere(&h, NULL, c, r, r, &m), CT_OK);
    cr_assert_eq(m.count, 1);
    cr_assert(fabs((double)ct__len(m.normal) - 1) <= 16 * (double)TU_EPS, "|n| - 1 = %g", (double)ct__len(m.normal) - 1);
    cr_assert(m.points[0].separation < 0);
    ct_hull_free(&h);
}

/* fuzz_ellipsoid, regress_ellipsoid_subnormal: two spheres of subnormal radius. Lengths were
   divided by the largest semi-axis as * (1 / s), which overflows to Inf: at coincident centres
   the gap came out -0.018 (-DBL_MAX * 1e-310) instead of -(ra + rb). */
Test(fuzz_regress, subnormal_ellipsoids) {
    ct_real t = (ct_real)(TU_FLOAT ? 1e-40 : 1e-310);
    ct_vec3 s = tu_vec(t, t, t);
    ct_xform x = ct_xform_identity();
    ct_pw p;
    cr_assert_eq(ct_ellipsoids(s, NULL, s, NULL, NULL, &p), CT_OK);
    cr_assert(p.F == 0 && p.gap < 0 && p.gap >= -2.01 * (double)t, "gap %g", (double)p.gap);
    x.p = tu_vec(t, 0, 0);
    cr_assert_eq(ct_ellipsoids(s, &x, s, NULL, NULL, &p), CT_OK);
    cr_assert(fabs((double)p.F - 0.25) <= 1e3 * (double)TU_EPS, "F %g", (double)p.F);
    cr_assert(fabs((double)p.gap + (double)t) <= 1e-2 * (double)t, "gap %g", (double)p.gap);
}

/* fuzz_ellipsoid (float), regress_ellipsoid_float_negative_support: B with semi-axes
   0.648, 0.000214, 3 (aspect 1.4e4), warm-started: n^T B^-1 n with the rotated B^-1 rounded
   below 0 along the thin axis and its square root made the gap NaN under CT_OK. */
Test(fuzz_regress, ellipsoid_thin_axis_support_not_nan) {
    const double r[3][3] = { { -0.24025368690490723, -0.32397249341011047, 0.91505181789398193 },
                             { 0.91570985317230225, 0.23716020584106445, 0.3243926465511322 },
                             { -0.32210811972618103, 0.91585850715637207, 0.23968613147735596 } };
    ct_vec3 sa = tu_vec(0.282073974609375, 0.5999755859375, 0.2862548828125);
    ct_vec3 sb = tu_vec(0.648406982421875, 0.000213623046875, 3);
    ct_real guess = (ct_real)0.25098040699958801;
    ct_xform xb;
    ct_pw p;
    ct_status st;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) xb.r[i][j] = (ct_real)r[i][j];
    if (!TU_FLOAT) { /* the float rotation is orthonormal to float precision only: Gram-Schmidt its columns */
        for (j = 0; j < 3; ++j) {
            int k;
            double l = 0;
            for (k = 0; k < j; ++k) {
                double d = 0;
                for (i = 0; i < 3; ++i) d += (double)xb.r[i][j] * (double)xb.r[i][k];
                for (i = 0; i < 3; ++i) xb.r[i][j] -= (ct_real)(d * (double)xb.r[i][k]);
            }
            for (i = 0; i < 3; ++i) l += (double)xb.r[i][j] * (double)xb.r[i][j];
            for (i = 0; i < 3; ++i) xb.r[i][j] /= (ct_real)sqrt(l);
        }
    }
    xb.p = tu_vec(2, -1.360107421875, -0.50006103515625);
    st = ct_ellipsoids(sa, NULL, sb, &xb, &guess, &p);
    cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE);
    cr_assert(isfinite((double)p.gap) && isfinite((double)p.F) && p.F > 1 && p.gap > 0, "F %g gap %g", (double)p.F,
              (double)p.gap);
    st = ct_ellipsoids(sa, NULL, sb, &xb, NULL, &p);
    cr_assert(st == CT_OK && isfinite((double)p.gap) && p.gap > 0);
}

/* fuzz_gjk, regress_gjk_stop_inside: a flat triangle (B) cutting 900 deep through a polytope
   (A), 4e6 from the origin. Queried as (B, A), GJK's triangle passed within rounding of the
   origin (|v| = 1.3e-7, the noise of 8.7e6-sized points) through the inside of A - B, the next
   support point repeated a simplex vertex, and the stop reported "apart by 1.3e-7" although the
   lower bound v.w / |v| was hugely negative: ct_signed_distance(B, A) = +1.3e-7 against
   ct_signed_distance(A, B) = -901.75 (exact SAT over all edge pairs: 901.7496). */
Test(fuzz_regress, gjk_stop_with_negative_lower_bound_is_contact) {
    const double pa[7][3] = { { 999969.482421875, 999969.482421875, 999969.482421875 },
                              { 999969.482421875, 999969.482421875, -679718.017578125 },
                              { -4000000, -4000000, -4000000 },
                              { -4000000, 607818.603515625, 607818.603515625 },
                              { 607818.603515625, 607818.603515625, 607818.603515625 },
                              { 607818.603515625, -686279.296875, -4000000 },
                              { -4000000, -4000000, -4000000 } };
    const double pb[3][3] = { { 999969.482421875, 999969.482421875, 999969.482421875 },
                              { 999969.482421875, -679718.017578125, -4000000 },
                              { -4000000, -4000000, -4000000 } };
    const double ra[3][3] = { { -0.0017120191640997984, -0.0017149552089033016, 0.9999970639551965 },
                              { 0.9999970639551965, 0.0017120191640997984, 0.0017149552089033016 },
                              { -0.0017149552089033016, 0.9999970639551965, 0.0017120191640997984 } };
    ct_vec3 a[7], b[3];
    ct_xform xa, xb;
    ct_shape sa, sb;
    ct_distance d1, d2;
    ct_status s1, s2;
    int i, j;
    for (i = 0; i < 7; ++i) a[i] = tu_vec(pa[i][0], pa[i][1], pa[i][2]);
    for (i = 0; i < 3; ++i) b[i] = tu_vec(pb[i][0], pb[i][1], pb[i][2]);
    memset(&xb, 0, sizeof xb);
    xb.r[0][2] = xb.r[1][0] = xb.r[2][1] = 1;
    xb.p = tu_vec(-4000000, -4000000, -4000000);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) xa.r[i][j] = (ct_real)ra[i][j];
    xa.p = xb.p;
    if (TU_FLOAT) xa = xb; /* the rotation is orthonormal to double precision only; the float
                              build checks the same symmetry with the axis permutation */
    sa = ct_shape_points(a, 7);
    sb = ct_shape_points(b, 3);
    s1 = ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d1);
    s2 = ct_signed_distance(&sb, &xb, &sa, &xa, NULL, NULL, &d2);
    cr_assert(s1 == CT_OK && s2 == CT_OK, "status %d %d", s1, s2);
    if (!TU_FLOAT) cr_assert(d1.distance < -800 && d2.distance < -800, "A,B %g; B,A %g", (double)d1.distance, (double)d2.distance);
    cr_assert(fabs((double)d1.distance - (double)d2.distance) <= 1e-6 * 8.7e6 + 1e3 * (double)TU_EPS * 8.7e6,
              "A,B %.17g; B,A %.17g", (double)d1.distance, (double)d2.distance);
}

/* fuzz_gjk, regress_gjk_needles_rescale: two crossing needle ellipsoids, semi-axes
   (t, t, 3) and (t, 3, t) with t tiny (subnormal in float). GJK's first vertices are ~t, so
   the working scale was picked from them and lifted A - B by ~1/t; the next support, 3 long,
   overflowed and EPA answered CT_INVALID for two valid shapes. The needles cross at the
   origin: they overlap by about 2t along x. */
Test(fuzz_regress, needles_keep_a_finite_working_scale) {
    ct_real t = (ct_real)(TU_FLOAT ? 1e-40 : 1e-310);
    ct_shape a = ct_shape_ellipsoid(tu_vec(t, t, 3)), b = ct_shape_ellipsoid(tu_vec(t, 3, t));
    ct_distance d;
    ct_status st = ct_signed_distance(&a, NULL, &b, NULL, NULL, NULL, &d);
    cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE, "status %d", (int)st);
    cr_assert(d.distance <= 0 && d.distance >= -4 * t, "distance %g", (double)d.distance);
    cr_assert(fabs((double)ct__len(d.normal) - 1) <= 1e3 * (double)TU_EPS);
    cr_assert(fabs((double)d.normal.x) > 0.99, "normal %g %g %g", (double)d.normal.x, (double)d.normal.y,
              (double)d.normal.z);
}

/* fuzz_polar, regress_hull_needle_pillow: seven points along a needle 1.4e7 long and ~0.2
   thick. A new face folded back onto its neighbour so the two shared every edge (a pillow);
   the coplanarity merge then walked the shared run forever (before: a hang; earlier still a
   SEGV). The build must end with a closed hull. */
Test(fuzz_regress, hull_needle_pillow_terminates) {
    const double p[7][3] = { { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 },
                             { -7999999.9000030514, -7999999.9007995604, -8000000.0515655521 },
                             { 4999999.9768615719, 4999999.9768615719, 4999999.9768615719 },
                             { 8000000.0592132565, 8000000.0592132565, 7999999.9771820074 },
                             { -8000000.0999999996, -8000000.0995178213, -7999999.9007751467 },
                             { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 },
                             { -6000000.0450988766, -6000000.0450988766, -6000000.0138488766 } };
    ct_vec3 v[7];
    ct_hull h;
    ct_status st;
    int i, k;
    for (i = 0; i < 7; ++i) v[i] = tu_vec(p[i][0], p[i][1], p[i][2]);
    st = ct_hull_build(v, 7, NULL, NULL, &h);
    cr_assert(st == CT_OK || st == CT_DEGENERATE, "status %d", (int)st);
    if (st != CT_OK) return;
    cr_assert_eq(h.nverts - h.nedges + h.nfaces, 2);
    for (k = 0; k < 2 * h.nedges; ++k) cr_assert_eq(h.he_twin[h.he_twin[k]], k);
    cr_assert(ct_hull_volume(&h, NULL) > 0);
    {   /* contained: before the default-tolerance check, point 4 (a near copy of the end
           point) was ~2e4 tolerances outside two faces */
        double lo = 0, tol, worst = -1e300, absmax = 0;
        for (i = 0; i < 7; ++i) absmax = fmax(absmax, (double)ct__maxabs(v[i]));
        for (i = 0; i < 7; ++i) lo = fmax(lo, fabs((double)v[i].x - (double)v[2].x));
        tol = (double)TU_EPS * (3 * 3 * lo + 2 * absmax);   /* >= the default tolerance */
        for (k = 0; k < h.nfaces; ++k)
            for (i = 0; i < 7; ++i)
                worst = fmax(worst, (double)h.planes[k].n.x * (double)v[i].x + (double)h.planes[k].n.y * (double)v[i].y +
                                        (double)h.planes[k].n.z * (double)v[i].z + (double)h.planes[k].d);
        cr_assert(worst <= 8 * 16 * tol, "a point %g tolerances outside", worst / tol);
    }
    ct_hull_free(&h);
}

/* fuzz_sat (float), regress_sat_float_tiny_edge: deeply overlapping hulls (EPA depth 9.5 at
   size 14) gave no contact. In float, B's two vertices 1.3e-5 apart stay separate vertices of
   faces merged from nearly coplanar ones, so the edge between them runs along z while the
   faces around it meet along (-0.53, 0.05, -0.55): the Gauss-map arc test, which reads the
   edge vector, accepted it with an edge of A far from the supports, and n.(pb - pa) said
   "apart by +1". Edge pairs are now checked against the supports along their axis. */
Test(fuzz_regress, sat_tiny_edge_does_not_separate_overlapping_hulls) {
    const double pa[13][3] = { { -8, -8, -8 }, { -8, -7, 2 }, { -8, -4, -8 }, { -1, -1, -8 }, { 5, 8, -7 },
                               { 2, -1, -8 },  { 4, -8, -1 }, { 4, -5, -7 }, { 2, -8, -8 },  { 5, 4, 4 },
                               { -6, 8, 6 },   { 4, -6, 8 },  { 4, -7, 4 } };
    const double pb[8][3] = { { -7.9990038871765137, 3.9990024566650391, -5.0003690719604492 },
                              { -7.9990053176879883, -7.999000072479248, -7.999000072479248 },
                              { -6.0004868507385254, -5.0007567405700684, 5.9992432594299316 },
                              { 8.0008029937744141, -6.000370979309082, 3.9990103244781494 },
                              { 5.9992432594299316, 5.9992432594299316, 5.9992566108703613 },
                              { 5.9992432594299316, 5.9992432594299316, 5.9992432594299316 },
                              { -7.0008039474487305, -0.00080392457311972976, -0.00080392457311972976 },
                              { -5.0009922981262207, 1.9990381002426147, -6.9991970062255859 } };
    ct_vec3 va[13], vb[8];
    ct_hull A, B;
    ct_shape sa, sb;
    ct_distance d;
    ct_manifold m;
    ct_sat_cache cache;
    double L;
    int i, pass;
    for (i = 0; i < 13; ++i) va[i] = tu_vec(pa[i][0], pa[i][1], pa[i][2]);
    for (i = 0; i < 8; ++i) vb[i] = tu_vec(pb[i][0], pb[i][1], pb[i][2]);
    cr_assert_eq(ct_hull_build(va, 13, NULL, NULL, &A), CT_OK);
    cr_assert_eq(ct_hull_build(vb, 8, NULL, NULL, &B), CT_OK);
    L = (double)A.extent + (double)B.extent;
    sa = ct_shape_hull(&A);
    sb = ct_shape_hull(&B);
    cr_assert_eq(ct_signed_distance(&sa, NULL, &sb, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(d.distance < -9, "EPA depth %g", (double)d.distance);
    memset(&cache, 0, sizeof cache);
    for (pass = 0; pass < 3; ++pass) { /* no cache, cold cache, warm cache */
        cr_assert_eq(ct_manifold_hulls(&A, NULL, &B, NULL, 3, pass ? &cache : NULL, &m), CT_OK);
        cr_assert(m.count > 0, "pass %d: overlapping by %g, no contact", pass, -(double)d.distance);
        /* the deepest point at the penetration depth EPA finds (the axis is the same one) */
        {
            double deepest = 1e300;
            for (i = 0; i < m.count; ++i) deepest = fmin(deepest, (double)m.points[i].separation);
            cr_assert(fabs(deepest - (double)d.distance) <= 1e-3 * L, "deepest %g, EPA %g", deepest, (double)d.distance);
        }
    }
    ct_hull_free(&A);
    ct_hull_free(&B);
}

/* fuzz_sat (float), regress_sat_edge_speculative: two hulls of size 1e-5 whose edges touch,
   speculative 0: the edge contact reported a separation of +2.4e-14, recomputed from the
   closest points of the edges, while the query had found 0 (the contract: every point has
   separation <= speculative). The contact now reports the query's value. */
Test(fuzz_regress, sat_edge_contact_within_speculative) {
    const double pa[5][3] = { { 3.9999999899009708e-06, -3.9999999899009708e-06, 6.0000002122251317e-06 },
                              { 6.0000002122251317e-06, 4.9999998736893758e-06, -3.0000001061125658e-06 },
                              { -3.0000001061125658e-06, -3.0000001061125658e-06, -3.0000001061125658e-06 },
                              { -3.0000001061125658e-06, 3.9999999899009708e-06, 1.9999999949504854e-06 },
                              { -4.9999998736893758e-06, 3.9999999899009708e-06, 3.9999999899009708e-06 } };
    const double pb[6][3] = { { -4.9999998736893758e-06, -7.9999999798019417e-06, -7.9999999798019417e-06 },
                              { -3.0000001061125658e-06, -7.9999999798019417e-06, 1.9999999949504854e-06 },
                              { -3.9999999899009708e-06, -3.0000001061125658e-06, -4.9999998736893758e-06 },
                              { -3.0000001061125658e-06, -3.9999999899009708e-06, 3.9999999899009708e-06 },
                              { -3.0000001061125658e-06, -3.0000001061125658e-06, 3.9999999899009708e-06 },
                              { -3.0000001061125658e-06, -3.0000001061125658e-06, -3.0000001061125658e-06 } };
    ct_vec3 va[5], vb[6];
    ct_hull A, B;
    ct_manifold m;
    int i, k;
    for (i = 0; i < 5; ++i) va[i] = tu_vec(pa[i][0], pa[i][1], pa[i][2]);
    for (i = 0; i < 6; ++i) vb[i] = tu_vec(pb[i][0], pb[i][1], pb[i][2]);
    cr_assert_eq(ct_hull_build(va, 5, NULL, NULL, &A), CT_OK);
    cr_assert_eq(ct_hull_build(vb, 6, NULL, NULL, &B), CT_OK);
    for (k = 0; k < 2; ++k) { /* and swapped */
        cr_assert_eq(ct_manifold_hulls(k ? &B : &A, NULL, k ? &A : &B, NULL, 0, NULL, &m), CT_OK);
        for (i = 0; i < m.count; ++i)
            cr_assert(m.points[i].separation <= 0, "swap %d point %d: separation %g > speculative 0", k, i,
                      (double)m.points[i].separation);
        cr_assert_eq(ct_manifold_rounded_hulls(k ? &B : &A, NULL, 0, k ? &A : &B, NULL, 0, 0, NULL, &m), CT_OK);
        for (i = 0; i < m.count; ++i) cr_assert(m.points[i].separation <= 0);
    }
    ct_hull_free(&A);
    ct_hull_free(&B);
}

/* fuzz_ellipsoid (float), regress_ellipsoid_float_warm_at_end: the thin B of
   ellipsoid_thin_axis_support_not_nan (aspect 1.4e4), warm-started at lambda = 1. G(1) = B^-1
   does not factor in float: CT_DEGENERATE, while the cold call answers F = 1.7527. Started at
   1 - 1e-5, G factored into noise, x^T B^-1 x came out negative, S' had the wrong sign and
   the iteration stopped on a false root: F = 0.496 (overlap) under CT_OK. Now every start is
   clamped into the bracket the semi-axes give, and B^-1 is applied in B's own frame. */
Test(fuzz_regress, ellipsoid_warm_start_at_the_end_of_the_bracket) {
    const ct_real q[4] = { (ct_real)0.57208251953125, (ct_real)0.999969482421875, (ct_real)0.288360595703125,
                           (ct_real)0.2862548828125 };
    const ct_real guess[6] = { 1, (ct_real)(1 - 1e-5), (ct_real)0.9999, 0, (ct_real)1e-5, (ct_real)0.5 };
    ct_vec3 sa = tu_vec(0.282073974609375, 0.5999755859375, 0.2862548828125);
    ct_vec3 sb = tu_vec(0.648406982421875, 0.000213623046875, 3);
    ct_xform xb = ct_xform_from_quat(q, tu_vec(1.199951171875, -1.282470703125, -0.813232421875));
    ct_pw cold, warm;
    int i;
    cr_assert_eq(ct_ellipsoids(sa, NULL, sb, &xb, NULL, &cold), CT_OK);
    /* double: F = 1.75272622 (float agrees to 1e-7 although the condition of G is 2e8) */
    cr_assert(fabs((double)cold.F - 1.75272622) <= 1e-5, "cold F %.9g", (double)cold.F);
    for (i = 0; i < 6; ++i) {
        cr_assert_eq(ct_ellipsoids(sa, NULL, sb, &xb, &guess[i], &warm), CT_OK, "guess %g", (double)guess[i]);
        cr_assert(fabs((double)warm.F - (double)cold.F) <= 1e-5 * (double)cold.F, "guess %g: F %.9g, cold %.9g",
                  (double)guess[i], (double)warm.F, (double)cold.F);
        cr_assert(warm.gap > 0 && fabs((double)warm.lambda - (double)cold.lambda) <= 1e-4);
    }
}

/* ct_signed_distance of two point clouds both ways round, both CT_OK. */
static void clouds_both_ways(const ct_vec3 *pa, int na, const ct_xform *xa, const ct_vec3 *pb, int nb, const ct_xform *xb,
                             ct_distance *d1, ct_distance *d2) {
    ct_shape sa = ct_shape_points(pa, na), sb = ct_shape_points(pb, nb);
    ct_status s1 = ct_signed_distance(&sa, xa, &sb, xb, NULL, NULL, d1), s2 = ct_signed_distance(&sb, xb, &sa, xa, NULL, NULL, d2);
    cr_assert(s1 == CT_OK && s2 == CT_OK, "%s %s", ct_status_string(s1), ct_status_string(s2));
}

/* fuzz_gjk (CI mode, about 1 run in 3), regress_gjk_flat_stall: a 16-point and a 6-point cloud
   at 4e6 overlapping by 19.11 (the hull of A - B: the origin 19.112 inside its nearest face).
   ct_signed_distance(A, B) stopped GJK on a repeated support point with the origin 6.3e-7 (270
   ulps of the scale) off a flat triangle of the simplex and a support point beyond the origin,
   and answered apart by +6.3e-7; (B, A) went on to EPA and answered -19.11. A repeated support
   point beyond the origin within sqrt(eps) of the scale is now contact, and EPA decides. */
Test(fuzz_regress, gjk_flat_stall_beyond_the_origin_is_contact) {
    static const double a[16][3] = {
        { 999969.482421875, 999969.482421875, 999969.482421875 }, { 999969.482421875, 999969.482421875, -679718.017578125 },
        { -4000000, -679718.017578125, -4000000 }, { -4000000, -686279.296875, -4000000 }, { -4000000, -4000000, -4000000 },
        { -4000000, -4000000, -4000000 }, { -4000000, -4000000, -4000000 }, { -4000000, -4000000, -4000000 },
        { -4000000, -4000000, -4000000 }, { -4000000, -4000000, -4000000 }, { -679718.017578125, -4000000, -4000000 },
        { -4000000, 607818.603515625, 607818.603515625 }, { 607818.603515625, 607818.603515625, 607818.603515625 },
        { 607818.603515625, -686279.296875, -4000000 }, { -4000000, -4000000, -4000000 }, { -4000000, -4000000, -4000000 } };
    static const double b[6][3] = { { -4000000, -4000000, -4000000 }, { 607818.603515625, 607818.603515625, 607818.603515625 },
                                    { 607818.603515625, 607818.603515625, 607818.603515625 },
                                    { 602813.720703125, -970306.396484375, 607818.603515625 },
                                    { -673431.396484375, -3000000, -673461.9140625 }, { -3000000, -3000000, -3000000 } };
    static const double rb[3][3] = { { -2.2234080387262267e-05, -2.2234574752755254e-05, 0.99999999950563456 },
                                     { 0.99999999950563456, 2.2234080387706356e-05, 2.2234574752755254e-05 },
                                     { -2.2234574752755254e-05, 0.99999999950563456, 2.2234080387706356e-05 } };
    ct_vec3 pa[16], pb[6];
    ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
    ct_distance d1, d2;
    int i, k;
    for (i = 0; i < 16; ++i) pa[i] = tu_vec(a[i][0], a[i][1], a[i][2]);
    for (i = 0; i < 6; ++i) pb[i] = tu_vec(b[i][0], b[i][1], b[i][2]);
    xa.r[0][0] = 0; xa.r[0][2] = 1; xa.r[1][1] = 0; xa.r[1][0] = 1; xa.r[2][2] = 0; xa.r[2][1] = 1;
    xa.p = tu_vec(-3e6, -3e6, -3e6);
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) xb.r[i][k] = (ct_real)rb[i][k];
    xb.p = tu_vec(-4e6, -4e6, -4e6);
    clouds_both_ways(pa, 16, &xa, pb, 6, &xb, &d1, &d2);
    /* the same depth both ways, to the rounding of the 1.4e7 scene (float: its coordinates and
       rotation round differently, so only the agreement is checked) */
    cr_assert(fabs((double)d1.distance - (double)d2.distance) <= 1e3 * (double)TU_EPS * 1.4e7, "A,B %.9g, B,A %.9g",
              (double)d1.distance, (double)d2.distance);
    if (!TU_FLOAT)
        cr_assert(fabs((double)d1.distance + 19.112088938825764) <= 1e-6, "A,B %.17g, not -19.11209 (the hull of A - B)",
                  (double)d1.distance);
}

/* A 16-point and a 6-point cloud met by fuzz_gjk at 4e6 (two tests below),
   A turned by a rotation within 2e-4 of an axis permutation; the exact depth (rational
   arithmetic over the hull of A - B) is given. */
/* A (16 points) turned by ra and B (6 points) by the axis permutation (z, x, y), both moved
   to (m, m, m): the same both ways to 1e4 ulps of S and, in double, the exact depth to 1e-9 of
   S along opposite normals. */
static void turned_clouds_depth(const ct_vec3 *pa, const ct_vec3 *pb, const double ra[3][3], double m, double S,
                                double depth) {
    ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
    ct_distance d1, d2;
    int i, k;
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) xa.r[i][k] = (ct_real)ra[i][k];
    xa.p = xb.p = tu_vec(m, m, m);
    xb.r[0][0] = 0; xb.r[0][2] = 1; xb.r[1][1] = 0; xb.r[1][0] = 1; xb.r[2][2] = 0; xb.r[2][1] = 1;
    clouds_both_ways(pa, 16, &xa, pb, 6, &xb, &d1, &d2);
    cr_assert(fabs((double)d1.distance - (double)d2.distance) <= 1e4 * (double)TU_EPS * S, "A,B %.9g, B,A %.9g",
              (double)d1.distance, (double)d2.distance);
    if (TU_FLOAT) return;
    cr_assert(fabs((double)d1.distance + depth) <= 1e-9 * S && fabs((double)d2.distance + depth) <= 1e-9 * S,
              "A,B %.17g, B,A %.17g, not -%.17g", (double)d1.distance, (double)d2.distance, depth);
    cr_assert(fabs((double)(d1.normal.x + d2.normal.x)) <= 1e-6 && fabs((double)(d1.normal.z + d2.normal.z)) <= 1e-6);
}

static void family_both_ways(const double ra[3][3], double depth) {
    const double a = 999969.482421875, m = -4000000, c = 607818.603515625;
    ct_vec3 pa[16], pb[6];
    int i;
    for (i = 0; i < 16; ++i) pa[i] = tu_vec(m, m, m);
    pa[0] = tu_vec(a, a, a);
    pa[8] = tu_vec(m, a, a);
    pa[9] = tu_vec(a, a, -679718.017578125);
    pb[0] = tu_vec(m, m, m);
    pb[1] = tu_vec(m, m, c);
    pb[2] = tu_vec(c, c, c);
    pb[3] = tu_vec(c, c, a);
    pb[4] = tu_vec(a, -695343.017578125, a);
    pb[5] = tu_vec(a, -686279.296875, m);
    turned_clouds_depth(pa, pb, ra, m, 1.6e7, depth);
}

/* fuzz_gjk (CI mode from a fresh clone), regress_gjk_origin_on_a_face: a 16-point and a 6-point
   cloud at 4e6. ct_signed_distance(A, B) said apart by 4.49e-6 (1e-12 of the scale); (B, A)
   ended GJK on a tetrahedron holding the origin only by a weight of 3e-16 and EPA from it
   answered a depth of 35.3. An earlier fix made both ways "apart"; that was wrong: the exact
   hull of A - B (rational arithmetic over its 24 points, the transforms' entries taken as
   exact) holds the origin 35.30100073876437 inside. GJK stopped on a sliver triangle through
   the interior of A - B with a support point far beyond the origin that it could not make
   progress with (rounding); that is contact by rounding now, as a repeated support point was,
   and EPA finds the depth both ways. */
Test(fuzz_regress, gjk_origin_on_a_face_of_the_simplex_is_checked) {
    static const double ra[3][3] = { { -0.00011117040061803252, -0.00011118276085031464, 0.99999998763976772 },
                                     { 0.99999998763976772, 0.00011117040061814354, 0.00011118276085031464 },
                                     { -0.00011118276085031464, 0.99999998763976772, 0.00011117040061814354 } };
    family_both_ways(ra, 35.30100073876437);
}

/* fuzz_gjk (time-limited run), regress_gjk_coincident_rescale: two rounded 7-point clouds
   (all 7 points at (3e6, 3e6, 3e6), radius 3e6), A rotated about the (1, 1, 1) axis and moved
   by a subnormal 1e-310, B in place. The cores coincide, so A - B spans 1e-310: GJK's rescale
   lifted that by 2^1023 and the bodies' own points overflowed, giving CT_OK with NaN
   witnesses. The scale now keeps A's and B's points in range: contact, finite witnesses on
   the cores, the same both ways. */
Test(fuzz_regress, gjk_coincident_cores_keep_finite_witnesses) {
    static const double rot[3][3] = { { 0.016592746249278645, -0.016321848572051711, 0.99972910232277301 },
                                      { 0.99972910232277301, 0.016592746249278645, -0.016321848572051711 },
                                      { -0.016321848572051711, 0.99972910232277301, 0.016592746249278645 } };
    ct_vec3 p[7];
    ct_xform xa = ct_xform_identity();
    ct_shape sa;
    ct_distance d1, d2;
    int i, k;
    for (i = 0; i < 7; ++i) p[i] = tu_vec(3e6, 3e6, 3e6);
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) xa.r[i][k] = (ct_real)rot[i][k];
    xa.p = tu_vec(1e-310, 1e-310, 1e-310);   /* 0 in float */
    sa = ct_shape_rounded(ct_shape_points(p, 7), (ct_real)3e6);
    cr_assert_eq(ct_gjk(&sa, &xa, &sa, NULL, NULL, &d1), CT_OK);
    cr_assert_eq(ct_gjk(&sa, NULL, &sa, &xa, NULL, &d2), CT_OK);
    cr_assert(d1.distance == 0 && d2.distance == 0, "%g %g", (double)d1.distance, (double)d2.distance);
    for (i = 0; i < 3; ++i) {
        const ct_real *w[4] = { &d1.pa.x, &d1.pb.x, &d2.pa.x, &d2.pb.x };
        for (k = 0; k < 4; ++k) /* on the cores: within rounding of the 5.2e6 point */
            cr_assert(fabs((double)w[k][i] - 3e6) <= 1e3 * (double)TU_EPS * 3e6, "witness %d: %g", k, (double)w[k][i]);
    }
    cr_assert_eq(ct_signed_distance(&sa, &xa, &sa, NULL, NULL, NULL, &d1), CT_OK);
    cr_assert(d1.distance < 0 && fabs((double)d1.distance + 6e6) <= 1e3 * (double)TU_EPS * 6e6, "%g", (double)d1.distance);
}

/* fuzz_query (float, time-limited run), regress_query_point_sphere_normal: a ray from the
   centre of a sphere of radius 0 (a point) hit it at fraction 0 with a zero normal, and one
   along an axis through the point from afar did the same. A point's normal is now the ray's reverse
   direction: unit, finite, facing the ray. */
Test(fuzz_regress, ray_cast_point_sphere_has_a_unit_normal) {
    ct_shape s = ct_shape_sphere(0);
    ct_xform x = ct_xform_identity();
    ct_ray_hit h;
    int k;
    x.r[0][0] = 0; x.r[0][2] = 1; x.r[1][1] = 0; x.r[1][0] = 1; x.r[2][2] = 0; x.r[2][1] = 1;
    for (k = 0; k < 2; ++k) {
        ct_vec3 o = k == 0 ? tu_vec(0, 0, 0) : tu_vec(3, 0, 0), d = k == 0 ? tu_vec(0, -5020.75195, 0) : tu_vec(-6, 0, 0);
        ct_xform *xs = k == 0 ? &x : NULL;
        cr_assert_eq(ct_ray_cast(&s, xs, o, d, &h), CT_OK);
        cr_assert(h.hit == 1 && fabs((double)h.fraction - (k == 0 ? 0.0 : 0.5)) <= 8 * (double)TU_EPS, "hit %d at %g", h.hit,
                  (double)h.fraction);
        cr_assert(fabs((double)ct__len(h.normal) - 1) <= 8 * (double)TU_EPS && ct__dot(h.normal, d) < 0, "normal %g %g %g",
                  (double)h.normal.x, (double)h.normal.y, (double)h.normal.z);
        cr_assert(ct__len(h.point) <= 8 * (double)TU_EPS * ct__len(d), "point %g %g %g", (double)h.point.x,
                  (double)h.point.y, (double)h.point.z);
    }
}

/* fuzz_query (double, time-limited run), regress_query_capsule_huge_swap: a capsule whose
   segment reaches y = 1e300 against a small one 2 away. ct_manifold_capsules(A, B) answered
   CT_OK and (B, A) CT_INVALID: the squared length overflowed and the closest-point solver's
   NaN fell one way or the other. Pairs beyond 2^200 (float 2^20) are now solved scaled by a
   power of two: the same answer both ways, and at ordinary sizes bit for bit as before. */
Test(fuzz_regress, capsules_far_beyond_unit_scale_are_swap_symmetric) {
    ct_capsule a, b, c, d;
    ct_manifold m1, m2, n1, n2;
    ct_real big = TU_FLOAT ? (ct_real)1e30 : (ct_real)1e300;
    ct_real k = TU_FLOAT ? (ct_real)4096 : (ct_real)1099511627776.0; /* 2^12 / 2^40: a power of two */
    int i;
    a.p0 = tu_vec(1, 1, 1); a.p1 = tu_vec(-1, 0, 0); a.p1.y = big; a.radius = (ct_real)0.01175;
    b.p0 = tu_vec(2.0117, 2.0117, 2.0091); b.p1 = tu_vec(2.0117, 2.0117, 2.0117); b.radius = (ct_real)0.01175;
    cr_assert_eq(ct_manifold_capsules(&a, NULL, &b, NULL, 0, &m1), CT_OK);
    cr_assert_eq(ct_manifold_capsules(&b, NULL, &a, NULL, 0, &m2), CT_OK);
    for (i = 0; i < m1.count; ++i) cr_assert(ct__finite3(m1.points[i].point) && isfinite((double)m1.points[i].separation));
    for (i = 0; i < m2.count; ++i) cr_assert(ct__finite3(m2.points[i].point) && isfinite((double)m2.points[i].separation));
    /* scale invariance across the threshold: a pair of ordinary capsules and the same pair
       scaled by 2^40 (float 2^12) x 2^170 (float 2^10) give the same manifold scaled */
    c.p0 = tu_vec(0, 0, 0); c.p1 = tu_vec(2, 0.5, 0); c.radius = (ct_real)0.25;
    d.p0 = tu_vec(1, 0.75, -1); d.p1 = tu_vec(1.5, 0.5, 1); d.radius = (ct_real)0.3;
    cr_assert_eq(ct_manifold_capsules(&c, NULL, &d, NULL, 0, &n1), CT_OK);
    cr_assert(n1.count >= 1);
    {
        ct_real f = k * (TU_FLOAT ? (ct_real)1024 : (ct_real)ldexp(1.0, 170));
        c.p0 = ct__scale(c.p0, f); c.p1 = ct__scale(c.p1, f); c.radius *= f;
        d.p0 = ct__scale(d.p0, f); d.p1 = ct__scale(d.p1, f); d.radius *= f;
        cr_assert_eq(ct_manifold_capsules(&c, NULL, &d, NULL, 0, &n2), CT_OK);
        cr_assert_eq(n2.count, n1.count);
        for (i = 0; i < n1.count; ++i) {
            cr_assert(fabs((double)n2.points[i].separation - (double)n1.points[i].separation * (double)f) <=
                          64 * (double)TU_EPS * (double)f, "separation %g vs %g", (double)n2.points[i].separation,
                      (double)n1.points[i].separation * (double)f);
            cr_assert(n2.points[i].id == n1.points[i].id);
        }
    }
}

/* fuzz_query (float, time-limited run), regress_query_toi_point_meets_point: a point (a sphere
   of radius 0) swept 1000 along +z onto a sphere of radius 1e-40 at its end: the advancement
   stepped to fraction 1, where the cores coincide, and reported the hit with a zero normal
   (allowed only when the sweep starts overlapping). Cores that meet exactly later in the sweep
   now get the approach direction: +z, A -> B. */
Test(fuzz_regress, toi_cores_meeting_exactly_get_the_approach_normal) {
    /* the harness's rotations (float-rounded: rotations only in float; double sweeps the
       same point unrotated) */
    static const double r1[3][3] = { { 5.96046448e-08, 0.168986022, 0.985618353 }, { 0.99999994, 5.96046448e-08, 0 },
                                     { 0, 0.985618353, -0.168985963 } };
    static const double rb[3][3] = { { 0.00184607506, -0.00184932351, 0.999996424 },
                                     { 0.999996424, -0.00184571743, -0.00184932351 },
                                     { 0.00184932351, 0.999996424, 0.00184607506 } };
    ct_shape a = ct_shape_sphere(0), b = ct_shape_sphere(TU_FLOAT ? (ct_real)1e-40 : (ct_real)1e-300);
    ct_xform x0 = ct_xform_identity(), x1 = ct_xform_identity(), xb = ct_xform_identity();
    ct_toi t;
    int i, k;
    x0.r[0][0] = 0; x0.r[0][2] = 1; x0.r[1][1] = 0; x0.r[1][0] = 1; x0.r[2][2] = 0; x0.r[2][1] = 1;
    x0.p = tu_vec(0, 0, -1000);
    if (TU_FLOAT)
        for (i = 0; i < 3; ++i)
            for (k = 0; k < 3; ++k) {
                x1.r[i][k] = (ct_real)r1[i][k];
                xb.r[i][k] = (ct_real)rb[i][k];
            }
    cr_assert_eq(ct_time_of_impact(&a, &x0, &x1, &b, &xb, NULL, 0, NULL, &t), CT_OK);
    cr_assert(t.hit == 1 && t.fraction > 0 && t.fraction <= 1, "hit %d at %g", t.hit, (double)t.fraction);
    cr_assert(fabs((double)t.normal.z - 1) <= 8 * (double)TU_EPS && fabs((double)t.normal.x) <= 8 * (double)TU_EPS &&
                  fabs((double)t.normal.y) <= 8 * (double)TU_EPS,
              "normal %g %g %g", (double)t.normal.x, (double)t.normal.y, (double)t.normal.z);
    cr_assert(ct__finite3(t.pa) && ct__finite3(t.pb) && fabs((double)t.pa.z) <= 1e3 * (double)TU_EPS);
}

/* fuzz_gjk (CI mode), regress_gjk_near_sphere_two_minima: a point 43 from the centre of a
   rounded ellipsoid (semi-axes 993713, 999969, 999969, radius 999969). The depth has two
   local minima, through the short axis's two ends: 1993652.3 and 1993713.3. EPA stopped at
   its vertex cap with bounds far looser than the 61 between them, and Newton from its closest
   face found the farther end; with a warm cache it found the nearer one. Newton now starts
   from several closest faces apart from each other when EPA alone does not converge. */
Test(fuzz_regress, signed_distance_near_sphere_finds_the_least_of_two_minima) {
    ct_vec3 p[16];
    ct_shape a, b;
    ct_xform xb = ct_xform_identity();
    ct_distance d1, d2, g;
    ct_gjk_cache c;
    double want = -(993713.37890625 - 30.517578125 + 999969.482421875); /* the -x end, in B's frame */
    int i;
    for (i = 0; i < 16; ++i) p[i] = tu_vec(999969.482421875, 999969.482421875, 1000000);
    a = ct_shape_points(p, 16);
    b = ct_shape_rounded(ct_shape_ellipsoid(tu_vec(993713.37890625, 999969.482421875, 999969.482421875)), (ct_real)999969.482421875);
    xb.r[0][0] = 0; xb.r[0][2] = 1; xb.r[1][1] = 0; xb.r[1][0] = 1; xb.r[2][2] = 0; xb.r[2][1] = 1;
    xb.p = tu_vec(1e6, 1e6, 1e6);
    memset(&c, 0, sizeof c);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, &xb, NULL, NULL, &d1), CT_OK);
    cr_assert_eq(ct_gjk(&a, NULL, &b, &xb, &c, &g), CT_OK);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, &xb, &c, NULL, &d2), CT_OK);
    /* the point's offset (-30.5, 0, -30.5) in B's frame moves the minimum off the axis end by
       less than 0.01; EPA/Newton's curved-core accuracy is ~sqrt(eps) of the 2e6 scale */
    cr_assert(fabs((double)d1.distance - want) <= (TU_FLOAT ? 2e2 : 1.0), "cold %.9g, want %.9g", (double)d1.distance, want);
    cr_assert(fabs((double)d2.distance - want) <= (TU_FLOAT ? 2e2 : 1.0), "warm %.9g, want %.9g", (double)d2.distance, want);
    cr_assert(fabs((double)d1.normal.y) > 0.999, "normal %g %g %g", (double)d1.normal.x, (double)d1.normal.y, (double)d1.normal.z);
}

/* *h built from the n (at most 64) points q, as the fuzzer's hull input printed them. */
static void hull_of_points(const double (*q)[3], int n, ct_hull *h) {
    ct_vec3 p[64];
    int i;
    cr_assert_leq(n, 64);
    for (i = 0; i < n; ++i) p[i] = tu_vec(q[i][0], q[i][1], q[i][2]);
    cr_assert_eq(ct_hull_build(p, n, NULL, NULL, h), CT_OK);
}

/* Two lattice-like hulls from 14 and 24 points (fuzz_polar's family): every vertex of
   ct_intersect's A n B inside both to 1e3 ulps of the pair's size, its volume expect (to 1e-2;
   skipped when negative), and ct_contact_hulls' volume equal to it. */
static void lattice_pair_inside_both(const double pa[14][3], const double pb[24][3], double expect) {
    ct_hull A, B, I;
    ct_contact c;
    double vol, L;
    int i;
    hull_of_points(pa, 14, &A);
    hull_of_points(pb, 24, &B);
    L = (double)A.extent + (double)B.extent;
    cr_assert_eq(ct_intersect(&A, NULL, &B, NULL, NULL, NULL, &I), CT_OK);
    cr_assert(I.nfaces > 0);
    for (i = 0; i < I.nverts; ++i) {
        cr_assert(outside(&A, I.verts[i]) <= 1e3 * TU_EPS * L, "vertex %d %g outside A", i, outside(&A, I.verts[i]));
        cr_assert(outside(&B, I.verts[i]) <= 1e3 * TU_EPS * L, "vertex %d %g outside B", i, outside(&B, I.verts[i]));
    }
    vol = (double)ct_hull_volume(&I, NULL);
    if (expect >= 0) cr_assert(fabs(vol - expect) < 1e-2, "volume %g", vol);
    cr_assert_eq(ct_contact_hulls(&A, NULL, &B, NULL, NULL, &c), CT_OK);
    cr_assert(c.found && fabs((double)c.volume - vol) <= (1e-9 + 64 * TU_EPS) * vol, "contact volume %.17g, intersection %.17g",
              (double)c.volume, vol);
    ct_hull_free(&I);
    ct_hull_free(&A);
    ct_hull_free(&B);
}

/* fuzz_polar, regress_polar_dual_fold: two lattice-like hulls (coordinates +-8, +-7, +-2 off by
   1e-7) with flush faces and a face tilted 2 degrees against them: three planes nearly share a
   line, their dual points are nearly collinear, and the first dual hull had a face folded
   across that line (its cheap check failed, but the polar intersection did not check): a vertex
   of A n B came out 2.96 outside a face of A (a well-conditioned vertex, det 0.32). The dual
   hull is now checked and rebuilt as ct_hull_build's hulls are (ct__quickhull_checked). */
Test(fuzz_regress, polar_dual_hull_is_checked) {
    const double ra[14][3] = {
        { -8.0000000996032714, -8.0000000999999994, -7.9999999000030515 },
        { -2.0000000019622801, -8.0000000992218023, -8.0000000910247806 },
        { 2.0000000193725587, -8.0000000993774414, 8.0000000944213863 },
        { -2.0000000019622801, -8.0000000992218023, -8.0000000910247806 },
        { -8.0000000999999994, -8.0000000929718009, -8.0000000999999994 },
        { 3.0000000328460694, -6.0000001000000003, -7.9999999000030515 },
        { -7.9999999000030515, -8.0000000349029534, 7.0000000999969485 },
        { -7.9999999000030515, -7.9999999000030515, -7.0000000486297607 },
        { 7.1975708007812498e-08, 1.9999999945281983, -8.0000000984405517 },
        { -7.9999999006256104, -8.0000000976593011, -6.9999999000030515 },
        { -5.9999999117675777, -5.9999999117675777, -5.9999999117675777 },
        { -5.9999999117675777, -5.9999999117675777, -5.9999999117675777 },
        { -5.9999999117675777, -7.9999999000030515, -7.9999999484405517 },
        { -4.0000000740905763, 8.0000000999755851, 2.9999999696380617 } };
    const double rb[24][3] = {
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -2.0000000988372801, -8.0000000999999994, -8.0000000999999994 },
        { -2.0000000988372801, -8.0000000999999994, -8.0000000999999994 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -2.0000000019622801, -1.9999999273468017, -8.0000000620330809 },
        { -8.0000000999999994, -7.9999999007781986, -7.9999999006286622 },
        { -7.9999999000030515, -0.99999990078125001, -7.9999999000030515 },
        { -7.0000000486297607, -4.0000000740905763, 8.0000000999755851 },
        { 2.0000000999938963, -7.9999999828155515, -8.0000000994934091 },
        { -4.9020385742187499e-08, -4.000000049090576, 7.9999999282836916 },
        { -7.9999999000366211, -7.9999999000030515, -7.0000000507812503 },
        { -4.0000000861999512, -8.0000000073059088, -7.999999927853394 },
        { 6.0000000993286129, -7.9999999007812503, -8.0000000996337892 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -6.9999999000030515, 8.0000000999969476, -7.9999999007751468 },
        { -6.9999999000030515, -8.0000000615905762, 8.0000000999755851 },
        { 8.0000000999755851, -6.9999999007812503, -6.9999999000030515 },
        { 1.9999999074493409, -8.0000000996032714, -8.0000000999999994 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -8.00000009289856, -8.0000000999999994, -8.0000000999999994 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -4.9020385742187499e-08, -4.000000049090576, 7.9999999282836916 } };
    /* the overlap is most of both bodies (volumes 1100.7 and 1279.2): 875.06 */
    lattice_pair_inside_both(ra, rb, 875.064);
}

/* fuzz_polar (this session's canonical form of A n B, caught before it landed): a needle A
   (5 vertices, volume 1152 at extent 1.4e7) whose face planes miss its vertices, across B. The
   canonical form placed A n B's vertices from their names (A's vertices, plane triples) where
   the polar construction had placed them from the planes, and the overlap's faces came out
   twisted: area -1.97e6, volume 0. Names whose placement strays from the construction's
   (CT__VC_CANON_AGREE) are no longer trusted. */
Test(fuzz_regress, polar_canonical_form_keeps_a_needles_vertices) {
    const double ra[5][3] = { { -8000000.0851562498, -8000000.0999999996, -7999999.9007659918 },
                              { -1999999.9752960205, -1999999.9752960205, -2000000.0245147706 },
                              { 4999999.9768615719, 4999999.9771820074, 4999999.9768615719 },
                              { -7999999.9000030514, -7999999.9007995604, -7999999.9000030514 },
                              { -1999999.9752960205, -1999999.9752960205, -1999999.9752960205 } };
    const double rb[9][3] = { { -7200439.453125, -8253860.4736328125, -4500793.45703125 },
                              { 8362731.93359375, -7700805.6640625, -8335876.46484375 },
                              { -8498062.1337890625, -7876480.1025390625, -1876480.1025390625 },
                              { 2629959.1064453125, -5322479.248046875, -640121.4599609375 },
                              { 1511718.75, 1265853.8818359375, 6770507.8125 },
                              { -7229415.8935546875, 6770584.1064453125, -7229415.8935546875 },
                              { 6640625, 8296066.2841796875, 8296066.2841796875 },
                              { -1739593.505859375, -640121.4599609375, 5856857.2998046875 },
                              { -6723205.56640625, 3276458.740234375, 3276458.740234375 } };
    const double xa[3][4] = { { 0.00083139284021482851, -0.00083208462989708964, 0.99999930821031757, -458831.787109375 },
                              { 0.99999930821031757, -0.00083139284021460647, -0.00083208462989708964, -458831.787109375 },
                              { 0.00083208462989708964, 0.99999930821031757, 0.00083139284021482851, -685394.287109375 } };
    const double xb[3][4] = { { 0.0044229260594360609, -0.0044425756290622509, 0.99998035043037348, 720855.712890625 },
                              { 0.99998035043037348, -0.0044229260594357278, -0.0044425756290622509, -459808.349609375 },
                              { 0.0044425756290622509, 0.99998035043037348, 0.0044229260594360609, -735473.6328125 } };
    ct_vec3 pa[5], pb[9];
    ct_xform XA, XB;
    ct_hull A, B;
    ct_contact c;
    int i, j;
    if (TU_FLOAT) return;   /* coordinates of 8e6 with fractions: a double input */
    for (i = 0; i < 5; ++i) pa[i] = tu_vec(ra[i][0], ra[i][1], ra[i][2]);
    for (i = 0; i < 9; ++i) pb[i] = tu_vec(rb[i][0], rb[i][1], rb[i][2]);
    for (i = 0; i < 3; ++i) {
        for (j = 0; j < 3; ++j) { XA.r[i][j] = (ct_real)xa[i][j]; XB.r[i][j] = (ct_real)xb[i][j]; }
    }
    XA.p = tu_vec(xa[0][3], xa[1][3], xa[2][3]);
    XB.p = tu_vec(xb[0][3], xb[1][3], xb[2][3]);
    cr_assert_eq(ct_hull_build(pa, 5, NULL, NULL, &A), CT_OK);
    cr_assert_eq(ct_hull_build(pb, 9, NULL, NULL, &B), CT_OK);
    cr_assert_eq(A.nverts, 5);
    cr_assert_eq(ct_contact_hulls(&A, &XA, &B, &XB, NULL, &c), CT_OK);
    cr_assert(c.found);
    cr_assert(c.gap <= 0 && c.area >= 0 && c.volume >= 0, "gap %g area %g volume %g", (double)c.gap, (double)c.area,
              (double)c.volume);
    ct_hull_free(&A);
    ct_hull_free(&B);
}

/* fuzz_polar (a CI-mode run of a refactor not landed, 2026-11-28; tests/fuzz/open/ until
   2026-11-28): lattice-like hulls of extent 1.6e7 overlapping in a needle 2.5e6 long and about
   0.1 wide. The polar construction, resolving such a needle to ~sqrt(eps) of the extent, named
   two of A n B's vertices as B's vertices; B's vertices are 0.0105 outside A's plane 7, and the
   canonical form placed them there: the needle's faces turned inside out, ct_contact_hulls gave
   CT_OK with area -16099.6 and volume 0. A body vertex outside the other body's planes is no
   longer trusted as a name. That answer (an overlap of volume 96..111) was itself wrong: an
   exact SAT over every face and edge-pair axis (rational arithmetic) separates the pair by
   7.45365e-4, as ct_signed_distance says; the hulls' planes, from plain cross products of
   edges meeting at 1e-8 rad, had made an overlap of the needle. With accurate planes (see
   hull/needles_with_clusters_build_and_contain) the LP gives up and GJK on the vertices
   finds the pair apart: disjoint. */
Test(fuzz_regress, polar_needles_apart_by_an_exact_sat_are_disjoint) {
    const double ra[6][3] = { { 4999999.9768615719, 4999999.9768615719, 4999999.9768615719 },
                              { -6000000.0490203863, 5999999.9509796137, 5999999.9509796137 },
                              { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 },
                              { 8000000.0592132565, 8000000.0592132565, 7999999.9771820074 },
                              { -7999999.9001464844, -7999999.9007995604, -8000000.0515655521 },
                              { -8000000.0999999996, -8000000.0995178213, -7999999.9007751467 } };
    const double rb[4][3] = { { -7000000.0877868645, 999999.95072021487, -7000000.0458831787 },
                              { 5999999.9509796137, 5999999.9509796137, 5999999.9541046135 },
                              { 8000000.0722228996, 8000000.0037963875, 7999999.9006225588 },
                              { 5999999.9509796137, 5999999.9509796137, 5999999.9509796137 } };
    ct_vec3 pa[6], pb[4];
    ct_xform XB;
    ct_hull A, B, I;
    ct_contact c;
    int i;
    if (TU_FLOAT) cr_skip_test("coordinates of 8e6 with fractions: a double input");
    for (i = 0; i < 6; ++i) pa[i] = tu_vec(ra[i][0], ra[i][1], ra[i][2]);
    for (i = 0; i < 4; ++i) pb[i] = tu_vec(rb[i][0], rb[i][1], rb[i][2]);
    memset(&XB, 0, sizeof XB);
    XB.r[0][2] = XB.r[1][0] = XB.r[2][1] = 1;
    XB.p = tu_vec(-460784.912109375, -458831.787109375, -458831.787109375);
    cr_assert_eq(ct_hull_build(pa, 6, NULL, NULL, &A), CT_OK);
    cr_assert_eq(ct_hull_build(pb, 4, NULL, NULL, &B), CT_OK);
    {
        ct_shape sa = ct_shape_hull(&A), sb = ct_shape_hull(&B);
        ct_distance d;
        cr_assert_eq(ct_signed_distance(&sa, NULL, &sb, &XB, NULL, NULL, &d), CT_OK);
        cr_assert(fabs((double)d.distance - 7.45365e-4) <= 1e-8, "signed distance %.9g", (double)d.distance);
    }
    cr_assert_eq(ct_intersect(&A, NULL, &B, &XB, NULL, NULL, &I), CT_OK);
    cr_assert_eq(I.nfaces, 0);
    cr_assert_eq(ct_contact_hulls(&A, NULL, &B, &XB, NULL, &c), CT_OK);
    cr_assert(!c.found, "gap %g area %g volume %g", (double)c.gap, (double)c.area, (double)c.volume);
    ct_hull_free(&I);
    ct_hull_free(&A);
    ct_hull_free(&B);
}

/* fuzz_pfc (a 120 s local run; older than the session that found it): a sliver tetrahedron
   (two vertices 1e-4 apart at coordinates of 8e6) rounded by 5e5. ct_hull_rounded_mass summed
   the vertices' ball sectors to 0.9949 x 4 pi (the sliver's face normals, off by rounding, made
   the computed normal cones overlap or gap) and its mass was 1.25e-5 below Steiner's volume
   (ct_hull_rounded_volume). The sectors are now scaled to tile the sphere exactly. */
Test(fuzz_regress, rounded_mass_of_a_sliver_is_steiners_volume) {
    const double p[4][3] = { { -1999999.9000030516, -7999999.9029998779, 8000000.0995269772 },
                             { -7999999.9000030514, -7999999.9000030514, -7999999.9006591802 },
                             { 7999999.9792144774, 8000000.0987945562, -7999999.900027466 },
                             { -7999999.900100708, -7999999.9000030514, -7999999.9000030514 } };
    ct_vec3 v[4];
    ct_hull h;
    ct_real m, I[3][3];
    ct_vec3 g;
    double vol;
    int i;
    if (TU_FLOAT) return;   /* 1e-4 apart at 8e6: a double input */
    for (i = 0; i < 4; ++i) v[i] = tu_vec(p[i][0], p[i][1], p[i][2]);
    cr_assert_eq(ct_hull_build(v, 4, NULL, NULL, &h), CT_OK);
    cr_assert_eq(ct_hull_rounded_mass(&h, (ct_real)5e5, 1, &m, &g, I), CT_OK);
    vol = (double)ct_hull_rounded_volume(&h, (ct_real)5e5);
    cr_assert(fabs((double)m - vol) <= 1e3 * TU_EPS * vol, "mass %.17g, Steiner volume %.17g", (double)m, vol);
    ct_hull_free(&h);
}

/* The block (hull of b[0..nb)) placed by xb against triangle tri, as ct_contact_facet_hull
   (into *c) and as a one-triangle wall (ct_contact_mesh_hull: its one contact into *w); both
   must find it. */
/* fuzz_gjk (the CI-mode run of 2026-11-28 once a hull change moved its trajectory; older code
   fails too; tests/fuzz/open/ until then): a 15-point cloud with a vertex at the centre of a
   rounded near-sphere (semi-axes 999.97, 1000, 1000, rounding 1000) and an edge from there along
   -z. EPA hits its vertex cap on the near-sphere and its Newton starts stop at the kinks of the
   cloud's normal fan: cold -1999.9695, warm (from a ct_gjk cache) -2000.0000. The polytope's
   features are now enumerated there (faces, edge arcs, vertex patches). Independent bounds, from
   the closed-form support of the rounded ellipsoid: the depth is at least the short semi-axis
   plus the rounding (A reaches at least its vertex at the centre along every direction) and at
   most h(n0) at the short axis turned onto the edge's circle (n0 . z = 0); cold, warm and
   swapped all within them. */
static double near_sphere_h(const ct_vec3 *p, int np, const ct_xform *xb, const double ax[3], double r, ct_vec3 n) {
    double ha = -1e300, l[3], e = 0;
    int i, k;
    for (i = 0; i < np; ++i) ha = fmax(ha, (double)ct__dot(n, p[i]));
    for (k = 0; k < 3; ++k) {   /* -n in B's frame, scaled by the semi-axes */
        l[k] = -((double)xb->r[0][k] * (double)n.x + (double)xb->r[1][k] * (double)n.y + (double)xb->r[2][k] * (double)n.z) * ax[k];
        e += l[k] * l[k];
    }
    return ha - (double)ct__dot(n, xb->p) + sqrt(e) + r;
}
Test(fuzz_regress, gjk_cloud_vertex_at_a_near_sphere_centre_is_enumerated) {
    const double ax[3] = { TU_NEAR_SPHERE_AXES };
    ct_vec3 p[15], n0;
    ct_xform xb;
    ct_shape A, B;
    ct_gjk_cache cache;
    ct_distance g, d[3];
    double lo = 999.969482421875 + 1000, hi;
    int i, ok;
    if (TU_FLOAT) cr_skip_test("a double input (coordinates 1e3 with 2^-15 fractions, a 1e-7 relative margin)");
    tu_near_sphere(p, &xb);
    A = ct_shape_points(p, 15);
    B = ct_shape_rounded(ct_shape_ellipsoid(tu_vec(ax[0], ax[1], ax[2])), 1000);
    n0 = ct__normalize(tu_vec((double)xb.r[0][0], (double)xb.r[1][0], 0), &ok);   /* B's short axis, z taken out */
    hi = near_sphere_h(p, 15, &xb, ax, 1000, n0);
    cr_assert(hi - lo < 1e-6 && hi >= lo, "bounds %.17g %.17g", lo, hi);
    cr_assert_eq(ct_signed_distance(&A, NULL, &B, &xb, NULL, NULL, &d[0]), CT_OK);
    memset(&cache, 0, sizeof cache);
    cr_assert_eq(ct_gjk(&A, NULL, &B, &xb, &cache, &g), CT_OK);
    cr_assert_eq(ct_signed_distance(&A, NULL, &B, &xb, &cache, NULL, &d[1]), CT_OK);
    cr_assert_eq(ct_signed_distance(&B, &xb, &A, NULL, NULL, NULL, &d[2]), CT_OK);
    for (i = 0; i < 3; ++i) {
        double depth = -(double)d[i].distance;
        cr_assert(depth >= lo - 1e-12 * lo && depth <= hi + 1e-12 * hi, "call %d: depth %.17g outside [%.17g, %.17g]", i, depth, lo, hi);
        /* the depth is h at the reported normal (A's side: d[i].normal points from A to B) */
        cr_assert(fabs(near_sphere_h(p, 15, &xb, ax, 1000, i == 2 ? ct__neg(d[i].normal) : d[i].normal) - depth) <= 1e-9 * lo,
                  "call %d: h at the normal %.17g, depth %.17g", i, near_sphere_h(p, 15, &xb, ax, 1000, i == 2 ? ct__neg(d[i].normal) : d[i].normal), depth);
    }
}

/* fuzz_gjk, CI mode (2026-11-28): a 6-vertex hull 4e-6 across with a vertex 3e-11 from the
   centre of a rounded near-sphere (semi-axes 2.34e-7, 2.34e-7, 2.31e-7, radius 2.31e-7). The cold
   call's EPA converged and Newton found the depth on the arc of the edge between the hull's +y
   face and its +z face, 3.3 degrees from the +y face's normal (there the edge's two vertices tie);
   warm-started, EPA stayed loose and the feature enumeration answered the +y face itself,
   1e-11 deeper (2e-5 of the depth; the allowance is 10 sqrt(eps) of the size): it refined only
   the arcs' interior sampled minima, and this one lies between the arc's end and its first
   sample. The ends are refined too now. Cold, warm and swapped agree, and no direction within
   5 degrees of the normal has a smaller support of A - B (the depth is that minimum). */
Test(fuzz_regress, gjk_enumeration_refines_an_arc_minimum_next_to_a_face) {
    const ct_vec3 p[7] = { tu_vec(-3.0000000000000001e-06, 9.9999999999999995e-07, 9.9356079101562487e-07),
                           tu_vec(9.9999999999999995e-07, 9.9996948242187492e-07, 9.9996948242187492e-07),
                           tu_vec(9.9996948242187492e-07, 3.7496948242187498e-07, 9.9996948242187492e-07),
                           tu_vec(9.0621948242187497e-07, 9.9996948242187492e-07, 2.31353759765625e-07),
                           tu_vec(2.31353759765625e-07, 2.31353759765625e-07, 2.31353759765625e-07),
                           tu_vec(2.31353759765625e-07, 2.31353759765625e-07, 2.31353759765625e-07),
                           tu_vec(2.31353759765625e-07, 2.31353759765625e-07, 9.9996948242187492e-07) };
    const double rb[3][3] = { { 0.052500537204619557, 0.99737463416419292, -0.049875171368812532 },
                              { -0.049875171368812532, 0.052500537204619557, 0.99737463416419292 },
                              { 0.99737463416419292, -0.049875171368812532, 0.052500537204619557 } };
    const double ax[3] = { 2.34344482421875e-07, 2.34344482421875e-07, 2.31353759765625e-07 }, r = 2.31353759765625e-07;
    ct_hull h;
    ct_xform xb;
    ct_shape A, B;
    ct_gjk_cache cache;
    ct_distance g, d[3];
    double depth0;
    int i, a, b;
    if (TU_FLOAT) cr_skip_test("a double input (a 1e-11 difference at 4.6e-7)");
    tu_printed_rotation(rb, &xb);
    xb.p = tu_vec(9.9999999999999995e-07, 9.9999999999999995e-07, 9.9999999999999995e-07);
    cr_assert_eq(ct_hull_build(p, 7, NULL, NULL, &h), CT_OK);
    A = ct_shape_hull(&h);
    B = ct_shape_rounded(ct_shape_ellipsoid(tu_vec(ax[0], ax[1], ax[2])), (ct_real)r);
    cr_assert_eq(ct_signed_distance(&A, NULL, &B, &xb, NULL, NULL, &d[0]), CT_OK);
    memset(&cache, 0, sizeof cache);
    cr_assert_eq(ct_gjk(&A, NULL, &B, &xb, &cache, &g), CT_OK);
    cr_assert_eq(ct_signed_distance(&A, NULL, &B, &xb, &cache, NULL, &d[1]), CT_OK);
    cr_assert_eq(ct_signed_distance(&B, &xb, &A, NULL, NULL, NULL, &d[2]), CT_OK);
    depth0 = -(double)d[0].distance;
    for (i = 0; i < 3; ++i) {
        ct_vec3 n = i == 2 ? ct__neg(d[i].normal) : d[i].normal, u, w;
        double depth = -(double)d[i].distance;
        cr_assert(fabs(depth - depth0) <= 1e-9 * depth0, "call %d: depth %.17g, cold %.17g", i, depth, depth0);
        cr_assert(fabs(near_sphere_h(p, 7, &xb, ax, r, n) - depth) <= 1e-9 * depth0, "call %d: h at the normal %.17g, depth %.17g", i,
                  near_sphere_h(p, 7, &xb, ax, r, n), depth);
        ct__basis(n, &u, &w);
        for (a = -50; a <= 50; ++a)   /* a 0.1-degree grid over 5 degrees around the normal */
            for (b = -50; b <= 50; ++b) {
                double s = a * 0.1 * M_PI / 180, t = b * 0.1 * M_PI / 180;
                ct_vec3 m = ct__normalize(ct__add(n, ct__add(ct__scale(u, (ct_real)s), ct__scale(w, (ct_real)t))), NULL);
                cr_assert(near_sphere_h(p, 7, &xb, ax, r, m) >= depth - 1e-9 * depth0, "call %d: h %.17g below the depth %.17g at (%d, %d)",
                          i, near_sphere_h(p, 7, &xb, ax, r, m), depth, a, b);
            }
    }
    ct_hull_free(&h);
}

/* One triangle against a block (B's rotation the fuzzer's axis cycle x <- z, y <- x, z <- y,
   offset p): the facet's and the one-triangle wall's contacts both found, their volumes within
   1e-5 of vref (a double reference) and their areas within 1e-5 of each other. */
static void wall_facet_agree(const ct_vec3 *bp, int nb, const ct_vec3 tri[3], ct_vec3 p, double vref) {
    const int tris[3] = { 0, 1, 2 };
    ct_xform xb;
    ct_hull hb;
    ct_mesh m;
    ct_contact c;
    ct_wall_contacts wc;
    memset(&xb, 0, sizeof xb);
    xb.r[0][2] = 1; xb.r[1][0] = 1; xb.r[2][1] = 1;
    xb.p = p;
    cr_assert_eq(ct_hull_build(bp, nb, NULL, NULL, &hb), CT_OK);
    cr_assert_eq(ct_mesh_build(tri, 3, tris, 1, NULL, &m), CT_OK);
    cr_assert_eq(ct_contact_facet_hull(tri, &hb, &xb, 0, NULL, &c), CT_OK);
    ct_wall_contacts_init(&wc, NULL);
    cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &hb, &xb, NULL, &wc), CT_OK);
    cr_assert_eq(c.found, 1);
    cr_assert_eq(wc.count, 1);
    cr_expect(fabs((double)c.volume - vref) <= 1e-5 * vref, "facet volume %.9g, double reference %.9g", (double)c.volume, vref);
    cr_expect(fabs((double)wc.contacts[0].volume - vref) <= 1e-5 * vref, "wall volume %.9g, double reference %.9g",
              (double)wc.contacts[0].volume, vref);
    cr_expect(fabs((double)wc.contacts[0].area - (double)c.area) <= 1e-5 * (double)c.area, "wall area %.9g, facet %.9g",
              (double)wc.contacts[0].area, (double)c.area);
    ct_wall_contacts_free(&wc);
    ct_mesh_free(&m);
    ct_hull_free(&hb);
}

/* fuzz_pfc, float (a 90 s local run, 2026-11-28; older code fails too): a 6-vertex block of
   extent ~7e-6 with two vertices 1.2e-10 apart, pushed 4.9e-6 through one triangle. One of its
   faces lies 150 float ulps off a side plane of the triangle's prism: within the clip's
   tolerance, so the wall's clip kept that face next to the cut face it coincides with, and the
   one-triangle wall's volume came out 1.3% above ct_contact_facet_hull's (which is right to
   3e-9: both give 3.32241637e-17 in double). A polygon lying in the clip plane is now dropped.
   Wall == facet == the double value, both precisions. */
Test(fuzz_regress, wall_clip_drops_a_block_face_lying_in_a_prism_side_plane) {
    const ct_vec3 bp[6] = { tu_vec(5.50001505e-06, -7.60589592e-06, -6.05895991e-07), tu_vec(-6.05895991e-07, -6.05895991e-07, -6.05895991e-07),
                            tu_vec(6.48822015e-06, 6.48822015e-06, 6.48809828e-06), tu_vec(6.48822015e-06, -4.80621338e-07, 5.88822923e-06),
                            tu_vec(6.48822015e-06, 6.48822015e-06, 6.48822015e-06), tu_vec(6.29681381e-06, 6.48822015e-06, 6.48822015e-06) };
    const ct_vec3 tri[3] = { tu_vec(4.92938216e-06, -2.07061771e-06, -2.07061771e-06), tu_vec(6.92938238e-06, -2.07061771e-06, 6.92938238e-06),
                             tu_vec(-2.07061771e-06, -2.07061771e-06, -2.07061771e-06) };
    wall_facet_agree(bp, 6, tri, tu_vec(9.29382338e-07, 9.29382338e-07, 9.29382338e-07), 3.32241637e-17);
}

/* fuzz_pfc, float (a 120 s local run, 2026-11-28; older code fails too): a 5-vertex block of
   extent 1.3e4 pushed 3.1e3 through one triangle. One block face is nearly parallel to a side
   plane of the triangle's prism: its clipped polygon ran from 0.23 above that plane to 0.69
   below over 5e3, two vertices within the float tolerance. Clipped, it kept those two and the
   crossing as a run of three in-plane points, so a triangle of 5e5 in the plane belonged both to
   it and to the cut face (the 2D hull of the in-plane points), on the same side of the solid: the
   one-triangle wall's volume 3.5846e10, 2% above the facet's 3.5142e10 (right: the double
   value). A run of in-plane points now keeps only its ends. Wall == facet == the double value,
   both precisions. */
Test(fuzz_regress, wall_clip_keeps_only_the_ends_of_a_run_of_in_plane_points) {
    const ct_vec3 bp[5] = { tu_vec(-500, -7539.0625, 6488.22021), tu_vec(6488.22021, 6488.22021, 6488.22021),
                            tu_vec(-7535.17139, 464.691162, 464.691162), tu_vec(-7500.01514, -7500.01514, -7500.01514),
                            tu_vec(2464.69116, 464.691162, 464.691162) };
    const ct_vec3 tri[3] = { tu_vec(-5024.27734, -5024.27734, -5024.27734), tu_vec(977.440186, -5024.27734, -5022.63037),
                             tu_vec(-1024.27344, -5023.31641, -1023.3125) };
    wall_facet_agree(bp, 5, tri, tu_vec(976.44043, 976.44043, 976.44043), 3.51414895e10);
}

/* fuzz_ellipsoid, float (a 55 s local run, 2026-11-28): two needles of aspect 1:32700 (past
   float's 1:1e4), 14 apart. G = (1 - l) A^-1 + l B^-1 has entries of 1e9 and an eigenvalue near 1:
   in float it factors at some lambdas and not at others next to them. The cold call converged
   (22 evaluations); warm-started at lambda = 1 the solver kept bisecting away from failures and
   at its 64th evaluation answered CT_DEGENERATE, for a pair it had just solved. A solver that
   factored G somewhere now answers CT_NO_CONVERGENCE with that iterate (CT_DEGENERATE only when
   G never factors). Every warm start: CT_OK or CT_NO_CONVERGENCE with finite outputs (float has
   no accuracy left at this aspect: the documented error grows like its square, 1e9 ulps); in
   double CT_OK and F within 1e-6 of the cold F. */
Test(fuzz_regress, ellipsoid_needles_past_float_resolution_do_not_turn_degenerate) {
    const double ra[3][3] = { { -0.922288775, 0.20763579, 0.325992316 }, { -0.0735169351, -0.922288775, 0.379445463 },
                              { 0.379445463, 0.325992316, 0.865881145 } };
    const double rb[3][3] = { { 0.25434339046478271, -0.92022359371185303, -0.29748639464378357 },
                              { 0.29495429992675781, -0.21913766860961914, 0.93004345893859863 },
                              { -0.92103826999664307, -0.32429537177085876, 0.21568751335144043 } };
    const ct_real guesses[5] = { 0, (ct_real)0.25, (ct_real)0.5, (ct_real)0.75, 1 };
    ct_vec3 semi = tu_vec(0.99859619140625, 3.0517578125e-05, 3.0517578125e-05);
    ct_xform xa, xb;
    ct_pw cold, warm;
    ct_status st;
    int i;
    tu_printed_rotation(ra, &xa);
    tu_printed_rotation(rb, &xb);
    xa.p = tu_vec(4, -1.26202392578125, -1.568115234375);
    xb.p = tu_vec(-8, -8, -8);
    cr_assert_eq(ct_ellipsoids(semi, &xa, semi, &xb, NULL, &cold), CT_OK);
    for (i = 0; i < 5; ++i) {
        ct_real g = guesses[i];
        st = ct_ellipsoids(semi, &xa, semi, &xb, &g, &warm);
        cr_assert(st == CT_OK || (TU_FLOAT && st == CT_NO_CONVERGENCE), "guess %g: status %s", (double)guesses[i],
                  ct_status_string(st));
        cr_assert(warm.F > 0 && warm.F < CT__MAXR && warm.gap > 0 && warm.gap < 20 && warm.lambda > 0 && warm.lambda < 1,
                  "guess %g: F %g gap %g lambda %g", (double)guesses[i], (double)warm.F, (double)warm.gap, (double)warm.lambda);
        cr_assert(fabs((double)ct__len(warm.normal) - 1) <= 1e-5);
        if (!TU_FLOAT)
            cr_assert(fabs((double)warm.F / (double)cold.F - 1) <= 1e-6, "guess %g: F %.17g, cold %.17g", (double)guesses[i],
                      (double)warm.F, (double)cold.F);
    }
}

/* The fuzzer's permutation of the axes (x <- z, y <- x, z <- y), translated by t on each axis. */
static ct_xform permuted_axes(double t) {
    ct_xform x;
    memset(&x, 0, sizeof x);
    x.r[0][2] = x.r[1][0] = x.r[2][1] = 1;
    x.p = tu_vec(t, t, t);
    return x;
}

static void wall_and_facet(const ct_vec3 tri[3], const ct_vec3 *b, int nb, const ct_xform *xb, ct_contact *c, ct_contact *w) {
    ct_hull B;
    ct_mesh m;
    ct_wall_contacts wc;
    int idx[3] = { 0, 1, 2 };
    cr_assert_eq(ct_hull_build(b, nb, NULL, NULL, &B), CT_OK);
    cr_assert_eq(ct_mesh_build(tri, 3, idx, 1, NULL, &m), CT_OK);
    ct_wall_contacts_init(&wc, NULL);
    cr_assert_eq(ct_contact_facet_hull(tri, &B, xb, 0, NULL, c), CT_OK);
    cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &B, xb, NULL, &wc), CT_OK);
    cr_assert(c->found && wc.count == 1);
    *w = wc.contacts[0];
    ct_wall_contacts_free(&wc);
    ct_mesh_free(&m);
    ct_hull_free(&B);
}

/* fuzz_pfc, float (a 120 s local run; older than the session that found it): a tetrahedral
   block of size 1.2e-5 under a one-triangle wall. The wall's cut face was the 2D hull of the cut
   points with CT__VC_TOL2D as an absolute tolerance (7.6e-6 in float, most of the block's size):
   points merged and ct_contact_mesh_hull lost 30% of the overlap against ct_contact_facet_hull.
   The cut's tolerance is now 64 ulps of the block's extent. */
Test(fuzz_regress, one_triangle_wall_at_1e5_equals_the_facet) {
    const float t[3][3] = { { -1.64678277e-05f, -4.4256376e-06f, -1.10653446e-06f },
                            { -1.04871538e-06f, 1.55915131e-06f, -1.05104355e-05f },
                            { -1.07506803e-05f, -4.64142613e-06f, -7.60789408e-06f } };
    const float bv[4][3] = { { -7.99999998e-06f, -7.99999998e-06f, -7.99999998e-06f }, { 3.00000011e-06f, 0, 7.99999998e-06f },
                             { 6.00000021e-06f, 3.00000011e-06f, 0 }, { -1.99999999e-06f, -7.99999998e-06f, 0 } };
    const double r[3][3] = { { -0.193036556, -0.492419183, 0.84868145 },
                             { 0.848368108, 0.35079515, 0.396502525 },
                             { -0.492958784, 0.796533823, 0.350036442 } };
    double a[3][3];
    ct_vec3 tri[3], b[4];
    ct_xform xb;
    ct_contact c, w;
    int i, j, k;
    for (i = 0; i < 3; ++i) tri[i] = tu_vec(t[i][0], t[i][1], t[i][2]);
    for (i = 0; i < 4; ++i) b[i] = tu_vec(bv[i][0], bv[i][1], bv[i][2]);
    for (i = 0; i < 3; ++i) {   /* the fuzzer's rotation, orthonormal in double too (Gram-Schmidt) */
        double l = 0;
        for (j = 0; j < 3; ++j) a[i][j] = r[i][j];
        for (k = 0; k < i; ++k) {
            double d = a[i][0] * a[k][0] + a[i][1] * a[k][1] + a[i][2] * a[k][2];
            for (j = 0; j < 3; ++j) a[i][j] -= d * a[k][j];
        }
        for (j = 0; j < 3; ++j) l += a[i][j] * a[i][j];
        for (j = 0; j < 3; ++j) xb.r[i][j] = (ct_real)(a[i][j] / sqrt(l));
    }
    xb.p = tu_vec(-6.23535129e-07, -3.99999999e-06, -5.06347646e-07);
    wall_and_facet(tri, b, 4, &xb, &c, &w);
    cr_assert(fabs((double)(w.volume - c.volume)) <= 1e-3 * (double)c.volume, "wall %.9g, facet %.9g", (double)w.volume,
              (double)c.volume);
}

/* fuzz_pfc, float (a 75 s local run; fails on older code too): a block of extent 8700 sunk 6879
   through one triangle. The facet's plane cuts the block in a sliver about 0.08 wide, the float
   tolerance of the wall's clip being 0.076; the cut face's 2D hull (ct__hull2d) dropped the
   sliver's tip as "within tol of a hull edge" although it lay beyond that edge's end (a sliver
   running nearly along y sorts its tip between its sides), the next side plane then removed the
   shortened sliver, and that side's cut polygon missed the vertex only the sliver supplied: the
   wall's volume came out 0.42% short of ct_contact_facet_hull's (in double both agree). A point
   within tol of the line but beyond the segment now stays. Both precisions, both answers. */
Test(fuzz_regress, one_triangle_wall_keeps_a_sliver_tip) {
    const double t[3][3] = { { -3023.55957, 4976.44043, 6976.44043 }, { 6976.44043, -2023.55957, 6976.44043 },
                             { 6976.44043, 6976.44043, 6976.44043 } };
    const double bv[8][3] = { { 1272.94922, 4487.38086, 6488.22021 }, { 464.691162, 6488.22021, 6488.22021 },
                              { -3080.39844, -3483.6731, 5888.22949 }, { -3080.39844, -3080.39844, -3080.39844 },
                              { 6464.78271, 464.691162, 464.691162 }, { 464.691162, 464.691162, 464.660645 },
                              { 6488.22021, 6488.22021, 6488.22021 }, { 6888.22949, 5689.01074, 5919.47949 } };
    ct_vec3 tri[3], b[8];
    ct_xform xb = permuted_axes(976.44043);
    ct_contact c, w;
    int i;
    for (i = 0; i < 3; ++i) tri[i] = tu_vec(t[i][0], t[i][1], t[i][2]);
    for (i = 0; i < 8; ++i) b[i] = tu_vec(bv[i][0], bv[i][1], bv[i][2]);
    wall_and_facet(tri, b, 8, &xb, &c, &w);
    /* 1.3015070e11 in double; float within 1e-5 of it */
    cr_assert(fabs((double)c.volume / 1.301507045e11 - 1) < 1e-5, "facet %.9g", (double)c.volume);
    cr_assert(fabs((double)w.volume / 1.301507045e11 - 1) < 1e-5, "wall %.9g, facet %.9g", (double)w.volume, (double)c.volume);
    cr_assert(fabs((double)(w.area / c.area) - 1) < 1e-5, "wall area %.9g, facet %.9g", (double)w.area, (double)c.area);
}

/* fuzz_pfc, float (a 90 s local run, 2026-11-28; older code fails too; tests/fuzz/open/ until
   then): a tetrahedral block of extent 1.2e-5 pressed 2e-7 into one triangle, whose plane is
   0.15 degrees off one of the block's faces. The polar construction took the block's face and
   the facet's plane for the same plane (it compared 1 - n.n' with 64 ulps, which in float lets
   normals 4e-3 rad apart pass), the face took the facet's plane and A n B came out as the block
   less nothing: ct_contact_facet_hull 5% above the wall's exact clip, with its normal turned by
   ~100 degrees. Same planes now differ by at most the band in slack and in normal. Both
   precisions: the double answer, 1.2505187e-17, from both routines. */
Test(fuzz_regress, facet_plane_a_tenth_of_a_degree_off_a_block_face_is_not_that_face) {
    const float t[3][3] = { { -7.50003073e-06f, -7.49954233e-06f, -7.50003073e-06f },
                            { -2.50016774e-06f, 6.95774816e-06f, 4.7077333e-06f },
                            { -7.08988955e-06f, 4.49995423e-06f, -6.50004586e-06f } };
    const float bv[4][3] = { { -8.49951175e-06f, -8.50000015e-06f, -8.50000015e-06f },
                             { 5.95777874e-06f, 3.70776365e-06f, -3.50013738e-06f },
                             { 3.49998481e-06f, -7.50001527e-06f, -8.06251501e-06f },
                             { -7.50001527e-06f, -7.50001527e-06f, -7.50001527e-06f } };
    ct_vec3 tri[3], b[4];
    ct_xform xb = permuted_axes(9.99969529e-07f);
    ct_contact c, w;
    int i;
    for (i = 0; i < 3; ++i) tri[i] = tu_vec(t[i][0], t[i][1], t[i][2]);
    for (i = 0; i < 4; ++i) b[i] = tu_vec(bv[i][0], bv[i][1], bv[i][2]);
    wall_and_facet(tri, b, 4, &xb, &c, &w);
    cr_assert(fabs((double)c.volume / 1.2505187e-17 - 1) < 1e-5, "facet %.9g", (double)c.volume);
    cr_assert(fabs((double)w.volume / 1.2505187e-17 - 1) < 1e-5, "wall %.9g", (double)w.volume);
    cr_assert(ct__dot(c.normal, w.normal) > 0.99999, "facet normal %g %g %g, wall %g %g %g", (double)c.normal.x,
              (double)c.normal.y, (double)c.normal.z, (double)w.normal.x, (double)w.normal.y, (double)w.normal.z);
}

/* fuzz_polar (a 120 s local run; older than the session that found it): lattice-like hulls with
   nearly flush faces (coordinates +-8 with 1e-7 offsets). The dual hull's cheap check passed a
   hull that missed a dual point (planes near the interior point have huge dual points, and the
   dual hull's tolerance grows with them), and a well-conditioned vertex of A n B came out 0.635
   outside B (volume 414.47 for 411.86). When ct__polar_escapes sees a vertex outside a plane,
   the dual hull of every plane is now rebuilt with the full check of every dual point. */
Test(fuzz_regress, polar_dual_hull_full_check_after_an_escape) {
    const double pa_[14][3] = {
      { -8.0000000996032714, -8.0000000999999994, -7.9999999000030515 },
      { -2.0000000019622801, -8.0000000992218023, -8.0000000910247806 },
      { 2.0000000193725587, -8.0000000993774414, 8.0000000944213863 },
      { -2.0000000019622801, -8.0000000992218023, -8.0000000910247806 },
      { -8.0000000999999994, -8.0000000929718009, -8.0000000999999994 },
      { 3.0000000328460694, -5.9999999007812503, 0.99999990077819823 },
      { -7.9999999000030515, -8.0000000343780524, 7.0000000994720457 },
      { -7.9999999000030515, -7.9999999000030515, -7.0000000486297607 },
      { 7.1975708007812498e-08, 1.9999999945281983, -8.0000000984405517 },
      { -7.9999999006225586, -8.0000000976593011, 1.0000000999969483 },
      { -5.9999999117675777, -5.9999999117675777, -5.9999999117675777 },
      { -5.9999999117675777, -5.9999999117675777, -5.9999999117675777 },
      { -5.9999999617675783, -7.9999999000030515, -7.9999999484405517 },
      { -4.0000000740905763, 8.0000000999755851, -7.0000000303619387 },
    };
    const double pb_[24][3] = {
      { -2.0000000019622801, -0.99999999804077144, 3.0000000011627197 },
      { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
      { -2.0000000019622801, -2.0000000019622801, -8.000000073318482 },
      { -4.0000000719848634, -6.0000000998901371, -7.9999999007812503 },
      { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
      { -7.0000000325500489, -7.0000000325500489, -8.0000000915985101 },
      { 8.0000000599975589, -7.9999999280242919, 2.0000000992218019 },
      { -2.0000000019622801, -0.99999999804077144, 3.0000000011627197 },
      { -2.0000000019622801, -0.99999999804077144, 3.0000000011627197 },
      { -2.0000000019622801, -0.99999999804077144, 3.0000000011627197 },
      { -8.0000000999755851, -8.0000000023437501, 3.0000000328460694 },
      { -8.0000000999999994, -7.9999999000030515, -7.9999999000030515 },
      { -8.0000000349029534, -8.0000000677154546, -7.9999999000030515 },
      { -6.0000000984405517, -6.0000000302703853, 7.1975708007812498e-08 },
      { -8.0000000996337892, -7.9999999007781986, -7.9999999006256104 },
      { -7.9999999132751469, -7.9999999000030515, -7.9999999000030515 },
      { -7.9999999122650145, -5.9999999117675777, -5.9999999117675777 },
      { -5.9999999117675777, -5.9999999117675777, -0.99999991176757808 },
      { 8.0000000999969476, -7.9999999000030515, -2.0000000302703858 },
      { 8.0000000944213863, -8.0000000726226812, -4.0000000019622801 },
      { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
      { -2.0000000019622801, -2.0000000144622803, -2.0000000019622801 },
      { -2.0000000019622801, -2.0000000019622801, -8.0000000725372313 },
      { -4.0000000719848634, -7.0000000998901371, -7.9999999007812503 },
    };
    lattice_pair_inside_both(pa_, pb_, -1);
}

/* fuzz_gjk (CI, 2026-11-27), regress_gjk_point_on_a_flat_edge(_ci): a point (a box with zero
   half-extents) on an edge of a 7-point cloud at 3e-6 whose two faces there are 2e-3 from
   coplanar. ct_gjk(A, B) = 0; (B, A) stopped at 1.05e-14 (3e-9 of the scene) on a repeated
   support point: the origin was 1e-14 beyond the plane of the last triangle, but v, that small,
   points along the triangle's normal only to 1e-8, and the vertex beyond was missed. GJK now
   takes one more support along the triangle's normal (computed from its edges) before it stops. */
Test(fuzz_regress, gjk_point_on_a_flat_edge_is_found_both_ways) {
    static const double p[7][3] = { { -3.0000000000000001e-06, 9.9999999999999995e-07, 9.9356079101562487e-07 },
                                    { 9.9999999999999995e-07, 9.9996948242187492e-07, 9.9996948242187492e-07 },
                                    { 9.9996948242187492e-07, 9.9996948242187492e-07, 9.9996948242187492e-07 },
                                    { 9.9996948242187492e-07, 2.31353759765625e-07, 2.31353759765625e-07 },
                                    { 0, 0, 0 }, { 0, 0, -7.8124999999999993e-07 }, { 0, 0, 0 } };
    static const double r[3][3] = { { 2.2204460492503131e-16, 0.83842658873400167, -0.54501454595622023 },
                                    { 0.99999999999999978, 2.2204460492503131e-16, 0 },
                                    { 0, -0.54501454595622023, -0.83842658873400144 } };
    const double t = 2.31353759765625e-07, S = 3.4e-6;
    ct_vec3 pa[7];
    ct_xform xb;
    ct_shape a, b = ct_shape_box(tu_vec(0, 0, 0));
    ct_distance g1, g2, d1, d2;
    int i, k;
    for (i = 0; i < 7; ++i) pa[i] = tu_vec(p[i][0], p[i][1], p[i][2]);
    a = ct_shape_points(pa, 7);
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) xb.r[i][k] = (ct_real)r[i][k];
    xb.p = tu_vec(t, t, t);   /* on the edge from (0, 0, 0) to p[2] */
    cr_assert(ct_gjk(&a, NULL, &b, &xb, NULL, &g1) == CT_OK && ct_gjk(&b, &xb, &a, NULL, NULL, &g2) == CT_OK);
    cr_assert(fabs((double)g1.distance - (double)g2.distance) <= 1e4 * (double)TU_EPS * S, "A,B %.17g; B,A %.17g",
              (double)g1.distance, (double)g2.distance);
    cr_assert(ct_signed_distance(&a, NULL, &b, &xb, NULL, NULL, &d1) == CT_OK &&
              ct_signed_distance(&b, &xb, &a, NULL, NULL, NULL, &d2) == CT_OK);
    cr_assert(fabs((double)d1.distance) <= 1e4 * (double)TU_EPS * S && fabs((double)d2.distance) <= 1e4 * (double)TU_EPS * S,
              "touching: A,B %.17g; B,A %.17g", (double)d1.distance, (double)d2.distance);
}

/* fuzz_gjk (local CI-mode runs, 2026-11-27): (A, B) said apart by 1.9e-6: GJK's last triangle
   was a sliver along the diagonal through the interior of A - B, and the support point, 7e6
   beyond the origin, brought no progress (rounding); only a repeated support point counted as
   contact then. A cousin at 4e-3 (below) overlaps by 1.6e-7: (B, A) stopped on a repeated
   point of such a sliver; a first version of the normal's retry turned that into "no
   progress" and lost the contact. */
Test(fuzz_regress, gjk_sliver_through_the_interior_is_contact) {
    static const double r1[3][3] = { { -0.00017787264019775151, -4.4484968843849781e-05, 0.99999998319120553 },
                                     { 0.99999996835991634, 0.00017787264019764049, 0.00017788055021850102 },
                                     { -0.00017788055021850102, 0.99999998319120553, 4.4453328760241106e-05 } };
    static const double r2[3][3] = { { 0.00011117040061814354, -0.00011118276085031464, 0.99999998763976772 },
                                     { 0.99999998763976772, -0.00011117040061803252, -0.00011118276085031464 },
                                     { 0.00011118276085031464, 0.99999998763976772, 0.00011117040061814354 } };
    const double a = 0.00099996948242187509, m = -0.0040000000000000001, c = 0.00060781860351562505;
    ct_vec3 pa[16], pb[6];
    int i;
    family_both_ways(r1, 143.46787410439896);
    for (i = 0; i < 16; ++i) pa[i] = tu_vec(m, m, m);
    pa[0] = pa[9] = tu_vec(a, a, a);
    pa[1] = tu_vec(a, m, m);
    pa[8] = tu_vec(m, m, a);
    pa[10] = tu_vec(-0.00068530273437499999, m, m);
    pb[0] = pb[1] = tu_vec(m, m, m);
    pb[2] = pb[3] = tu_vec(c, c, c);
    pb[4] = tu_vec(a, a, a);
    pb[5] = tu_vec(a, a, -0.00067971801757812499);
    turned_clouds_depth(pa, pb, r2, m, 0.016, 1.5717894112113284e-07);
}

/* fuzz_polar (a 60 s local run, 2026-11-27), regress_polar_canon_stray_copy: lattice-like hulls
   (coordinates +-8 with 1e-7 offsets, nearly flush faces). ct_intersect's A n B had volume
   607.7317090 (exact: 607.731709047412, rational vertex enumeration over both hulls' planes),
   ct_contact_hulls 509.41: its canonical form merged a vertex of A n B with the copies of the
   body vertex its planes named although that name's placement strayed from it (the vertex kept
   its own place, but joined the body vertex's slot and disappeared with the merge). Only vertices
   placed at their body vertex are merged now. */
Test(fuzz_regress, polar_canonical_form_merges_only_placed_copies) {
    static const double pa[14][3] = {
        { -8.0000000996032714, -8.0000000999999994, -7.9999999000030515 },
        { -2.0000000019622801, -8.0000000992218023, -8.0000000910247806 },
        { 2.0000000193725587, -8.0000000993774414, 8.0000000944213863 },
        { -2.0000000019622801, -8.0000000992218023, -8.0000000910247806 },
        { -8.0000000999999994, -8.0000000929718009, -8.0000000999999994 },
        { 3.0000000328460694, -6.000000099609375, -7.9999999000030515 },
        { -7.9999999000030515, -8.0000000343780524, 7.0000000994720457 },
        { -7.9999999000030515, -7.9999999000030515, -6.999999900192261 },
        { -5.9999999117675777, -5.9999999117675777, -5.9999999117675777 },
        { -5.9999999117675777, -5.9999999117675777, -5.9999999117675777 },
        { -5.9999999117675777, -7.9999999000030515, -7.9999999484405517 },
        { -4.0000000740905763, 8.0000000999755851, -7.0000000303619387 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { 1.9999999980377197, -2.0000000019622801, -2.0000000019622801 }
    };
    static const double pb[24][3] = {
        { -2.0000000019622801, -2.0000000019622801, -8.000000073318482 },
        { -4.0000000719848634, -6.0000000998901371, -7.9999999007812503 },
        { -4.0000000719848634, -6.0000000998901371, -7.9999999007812503 },
        { -7.0000000325500489, -7.0000000325500489, -8.0000000915985101 },
        { 8.0000000599975589, -7.9999999280242919, 2.0000000992218019 },
        { -2.0000000019622801, -2.0000000019622801, -8.000000073318482 },
        { -2.0000000019622801, -2.0000000019622801, -8.000000073318482 },
        { -2.0000000019622801, -2.0000000019622801, -8.000000073318482 },
        { -8.0000000999755851, -8.0000000023437501, 3.0000000328460694 },
        { -8.0000000999999994, -7.9999999000030515, -7.9999999000030515 },
        { -8.0000000349029534, -8.0000000677154546, -7.9999999000030515 },
        { -6.0000000984405517, -6.0000000302703853, 7.1975708007812498e-08 },
        { -8.0000000996337892, -7.9999999007781986, -7.9999999006256104 },
        { -7.9999999132751469, -7.9999999000030515, -7.9999999000030515 },
        { -2.9999999000030519, 1.0000000882324218, -5.9999999117675777 },
        { -5.9999999117675777, -5.9999999117675777, -5.9999999117675777 },
        { -5.9999999000030515, -7.9999999000030515, -2.0000000302703858 },
        { 8.0000000944213863, -8.0000000726226812, -4.0000000019622801 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -2.0000000019622801, -2.0000000019622801, -2.0000000019622801 },
        { -2.0000000019622801, -2.0000000019622801, -8.0000000725372313 },
        { -4.0000000719848634, 2.0000000411743164, 2.0000000411743164 },
        { 2.0000000411743164, 2.0000000411743164, 2.0000000411743164 },
        { -7.0000000998901371, -7.9999999007812503, -7.0000000325500489 }
    };
    const double exact = 607.731709047412;
    ct_vec3 va[24], vb[24];
    ct_hull a, b, in;
    ct_contact c1, c2;
    int i;
    for (i = 0; i < 14; ++i) va[i] = tu_vec(pa[i][0], pa[i][1], pa[i][2]);
    for (i = 0; i < 24; ++i) vb[i] = tu_vec(pb[i][0], pb[i][1], pb[i][2]);
    cr_assert(ct_hull_build(va, 14, NULL, NULL, &a) == CT_OK && ct_hull_build(vb, 24, NULL, NULL, &b) == CT_OK);
    cr_assert(ct_intersect(&a, NULL, &b, NULL, NULL, NULL, &in) == CT_OK);
    cr_assert(ct_contact_hulls(&a, NULL, &b, NULL, NULL, &c1) == CT_OK && ct_contact_hulls(&b, NULL, &a, NULL, NULL, &c2) == CT_OK);
    cr_assert(c1.found && c2.found);
    /* float: the lattice's 1e-7 offsets are at its rounding; only the agreement is checked */
    cr_assert(fabs((double)c1.volume - (double)ct_hull_volume(&in, NULL)) <= 1e-9 * exact + 1e4 * (double)TU_EPS * exact &&
                  fabs((double)c2.volume - (double)c1.volume) <= 1e-9 * exact + 1e4 * (double)TU_EPS * exact,
              "contact %.17g / %.17g, intersect %.17g", (double)c1.volume, (double)c2.volume, (double)ct_hull_volume(&in, NULL));
    if (!TU_FLOAT)
        cr_assert(fabs((double)c1.volume - exact) <= 1e-9 * exact && fabs((double)c2.volume - exact) <= 1e-9 * exact,
                  "contact %.17g / %.17g, exact %.15g", (double)c1.volume, (double)c2.volume, exact);
    ct_hull_free(&in);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* fuzz_gjk (a 60 s local run, 2026-11-27), regress_gjk_touching_no_progress: a 16-point and a
   12-point cloud at 4e6 that touch exactly (the rational hull of A - B has the origin on its
   boundary). ct_gjk(A, B) stopped 5.6e-4 apart: the support along -v brought no progress, and v,
   5.6e-4 long where the points are 1e7, points along the last triangle's normal only to 6e-6.
   The retry along the triangle's normal now runs at that exit too. */
Test(fuzz_regress, gjk_exact_touch_is_found_after_no_progress) {
    static const double r[3][3] = { { -4.4468160708799331e-05, 4.4466183379554547e-05, 0.99999999802267059 },
                                    { 0.99999999802267059, 4.4468160708910354e-05, 4.4466183379554547e-05 },
                                    { -4.4466183379554547e-05, 0.99999999802267059, -4.4468160708799331e-05 } };
    const double a = 999969.482421875, m = -4000000, S = 1.6e7;
    ct_vec3 pa[16], pb[12];
    ct_xform xa = ct_xform_identity();
    ct_shape sa, sb;
    ct_distance g1, g2, d1, d2;
    int i, k;
    for (i = 0; i < 16; ++i) pa[i] = tu_vec(m, m, m);
    pa[0] = pa[1] = tu_vec(a, a, a);
    pa[2] = tu_vec(m, m, -1000000);
    pa[6] = tu_vec(m, m, a);
    pa[7] = tu_vec(a, m, m);
    for (i = 0; i < 12; ++i) pb[i] = tu_vec(m, m, m);
    pb[0] = tu_vec(m, -686279.296875, m);
    pb[1] = tu_vec(m, a, a);
    pb[2] = tu_vec(a, a, a);
    pb[3] = tu_vec(-686279.296875, m, -679718.017578125);
    pb[4] = tu_vec(m, m, -686279.296875);
    pb[10] = tu_vec(m, m, 607818.603515625);
    pb[11] = tu_vec(607818.603515625, 607818.603515625, 607818.603515625);
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) xa.r[i][k] = (ct_real)r[i][k];
    xa.p = tu_vec(m, m, m);
    if (TU_FLOAT) xa.r[0][0] = xa.r[0][1] = xa.r[1][1] = xa.r[1][2] = xa.r[2][0] = xa.r[2][2] = 0,
                  xa.r[0][2] = xa.r[1][0] = xa.r[2][1] = 1;   /* orthonormal in float: the permutation */
    sa = ct_shape_points(pa, 16);
    sb = ct_shape_points(pb, 12);
    cr_assert(ct_gjk(&sa, &xa, &sb, NULL, NULL, &g1) == CT_OK && ct_gjk(&sb, NULL, &sa, &xa, NULL, &g2) == CT_OK);
    cr_assert(fabs((double)g1.distance - (double)g2.distance) <= 1e4 * (double)TU_EPS * S, "A,B %.17g; B,A %.17g",
              (double)g1.distance, (double)g2.distance);
    cr_assert(ct_signed_distance(&sa, &xa, &sb, NULL, NULL, NULL, &d1) == CT_OK &&
              ct_signed_distance(&sb, NULL, &sa, &xa, NULL, NULL, &d2) == CT_OK);
    cr_assert(fabs((double)d1.distance - (double)d2.distance) <= 1e4 * (double)TU_EPS * S, "A,B %.17g; B,A %.17g",
              (double)d1.distance, (double)d2.distance);
    if (!TU_FLOAT)
        cr_assert(fabs((double)g1.distance) <= 1e4 * (double)TU_EPS * S && fabs((double)d1.distance) <= 1e4 * (double)TU_EPS * S,
                  "touching: gjk %.17g, signed %.17g", (double)g1.distance, (double)d1.distance);
}

/* fuzz_polar's needle (a 90 s local run, 2026-11-27; tests/fuzz/open/): 7 points along the
   diagonal of a 1.6e7 cube, about 0.2 thick (1e-8 of its length). */
static const double needle7[7][3] = {
    { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 },
    { -7999999.9000030514, -7999999.9007995604, -8000000.0515655521 },
    { 4999999.9768615719, 4999999.9767608643, 4999999.9768615719 },
    { 8000000.0592132565, 8000000.0592132565, 7999999.9771820074 },
    { -8000000.0999999996, -8000000.0995178213, -7999999.9007751467 },
    { -8000000.0999999996, -8000000.0999999996, -7999999.9007659918 },
    { -6000000.0450988766, -6000000.0450988766, -5999999.9005676266 } };

/* fuzz_polar (a 90 s local run, 2026-11-27), regress_polar_needle_planes_unbounded: A, 7
   points along the diagonal of a 1.6e7 cube, a needle ~0.2 thick, and B the same needle turned
   and moved across it. The long faces meet at the tips at ~1e-8 rad, about the rounding of
   their normals, so the planes bound a far longer needle than the vertices: A n B by the
   planes had all 10 vertices 4e12..1.9e21 outside both bodies, reported as CT_OK. A vertex
   outside a body's bounding sphere (radius doubled) cannot belong to A n B; such an answer is
   then CT_NO_CONVERGENCE, from ct_intersect and ct_contact_hulls alike. Those planes came from
   plain cross products of edges 1e-8 rad apart; computed accurately (see
   hull/needles_with_clusters_build_and_contain) they resolve the pair: the two needles are
   4.76e6 apart (ct_signed_distance), and both calls say disjoint. Whatever the status, nothing
   returned may lie far outside (an answer, if given, stays in both bodies' spheres).
   Double only (the needle is flat in float). */
Test(fuzz_regress, polar_needle_planes_resolve_the_needles_apart) {
    static const double r[3][3] = { { 0.42987036418771041, -0.28620025593322362, 0.85632989174551322 },
                                    { 0.85632989174551322, 0.42987036418771041, -0.28620025593322362 },
                                    { -0.28620025593322362, 0.85632989174551322, 0.42987036418771041 } };
    ct_vec3 v[7];
    ct_hull h, x;
    ct_xform xb = ct_xform_identity();
    ct_contact c;
    ct_status st;
    int i, j;
    if (TU_FLOAT) cr_skip_test("the needle is flat in float");
    for (i = 0; i < 7; ++i) v[i] = tu_vec(needle7[i][0], needle7[i][1], needle7[i][2]);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) xb.r[i][j] = (ct_real)r[i][j];
    xb.p = tu_vec(3999877.9296875, 3999877.9296875, -1835327.1484375);
    cr_assert_eq(ct_hull_build(v, 7, NULL, NULL, &h), CT_OK);
    st = ct_intersect(&h, NULL, &h, &xb, NULL, NULL, &x);
    cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE);
    cr_assert(st == CT_OK || x.nfaces == 0);
    for (i = 0; i < x.nverts; ++i) {   /* within both bounding spheres, radius doubled */
        ct_vec3 q = x.verts[i], qb = ct_xform_inv_point(&xb, q);
        cr_assert_leq(ct__len(ct__sub(q, h.center)), 2 * h.extent, "vertex %d", i);
        cr_assert_leq(ct__len(ct__sub(qb, h.center)), 2 * h.extent, "vertex %d", i);
    }
    cr_assert_eq(st, CT_OK, "accurate planes resolve these needles");
    cr_assert_eq(x.nfaces, 0);
    ct_hull_free(&x);
    st = ct_contact_hulls(&h, NULL, &h, &xb, NULL, &c);
    cr_assert_eq(st, CT_OK);
    cr_assert(!c.found);
    {
        ct_shape sh = ct_shape_hull(&h);
        ct_distance d;
        cr_assert_eq(ct_signed_distance(&sh, NULL, &sh, &xb, NULL, NULL, &d), CT_OK);
        cr_assert_gt(d.distance, 4e6);
    }
    ct_hull_free(&h);
}

/* The same needle's volume: the fan sum gave -14852; the volume and centroid in
   rational arithmetic over the same faces are 645.1695993503888 and (-3022269.501048323,
   -3022269.501152083, -3022269.4696961436). Moved by 2^20 along x (exact), the volume stays.
   Double only (the needle is flat in float). */
Test(fuzz_regress, needle_volume_is_exact) {
    ct_vec3 v[7], c;
    ct_hull h;
    ct_real m, I[3][3];
    int i, k;
    if (TU_FLOAT) cr_skip_test("the needle is flat in float");
    for (k = 0; k < 2; ++k) {
        double sh = k ? 1048576.0 : 0;
        for (i = 0; i < 7; ++i) v[i] = tu_vec(needle7[i][0] + sh, needle7[i][1], needle7[i][2]);
        cr_assert_eq(ct_hull_build(v, 7, NULL, NULL, &h), CT_OK);
        cr_assert_eq(h.nverts, 5);
        cr_assert(fabs((double)ct_hull_volume(&h, &c) - 645.1695993503888) <= 1e-12 * 645.2, "volume %.17g",
                  (double)ct_hull_volume(&h, NULL));
        cr_assert(fabs((double)c.x - (-3022269.501048323 + sh)) <= 1e-6 && fabs((double)c.y + 3022269.501152083) <= 1e-6 &&
                  fabs((double)c.z + 3022269.4696961436) <= 1e-6, "centroid %.17g %.17g %.17g", (double)c.x, (double)c.y,
                  (double)c.z);
        ct_hull_mass(&h, 2, &m, &c, I);
        cr_assert(fabs((double)m - 2 * 645.1695993503888) <= 1e-12 * 1290.4);
        ct_hull_free(&h);
    }
}

/* fuzz_polar (seeded with the needle above), regress_polar_needle_inverted_faces: A and B the
   same needle in the same place. A n B by the planes had vertices 1.7e5..3e5 outside both
   (within the doubled bounding spheres) and inverted faces: ct_contact_hulls gave CT_OK with
   area -29124 and volume 1.47 (the needle's is 645.17). With an ill-conditioned vertex, faces
   whose fan areas along their planes' normals are negative (beyond 1e-3 of the total) made
   the answer CT_NO_CONVERGENCE. With the needle's planes computed accurately (its faces are
   slivers: plain cross products turned them by 1e-8 rad) the planes resolve it, and the
   contact's volume, whose cone sum cancels to rounding (it gave 1985), is summed exactly when
   its error bound says so: volume within 1e-5 of the rational one, area half the surface,
   centroid on the rational one to 1e-6 of the length. Whatever the status, nothing
   meaningless is returned. */
Test(fuzz_regress, polar_identical_needles_are_answered_not_inverted) {
    ct_vec3 v[7];
    ct_hull h, x;
    ct_contact c;
    ct_status st;
    int i;
    if (TU_FLOAT) cr_skip_test("the needle is flat in float");
    for (i = 0; i < 7; ++i) v[i] = tu_vec(needle7[i][0], needle7[i][1], needle7[i][2]);
    cr_assert_eq(ct_hull_build(v, 7, NULL, NULL, &h), CT_OK);
    st = ct_contact_hulls(&h, NULL, &h, NULL, NULL, &c);
    cr_assert(st == CT_NO_CONVERGENCE || (st == CT_OK && c.area >= 0 && c.volume <= 645.1695993503888 * (1 + 1e-5)),
              "status %d area %g volume %g", (int)st, (double)c.area, (double)c.volume);
    cr_assert_eq(st, CT_OK, "accurate planes resolve the needle");
    {
        double half = 0;
        int f, k;
        for (f = 0; f < h.nfaces; ++f)
            for (k = h.face_first[f] + 1; k + 1 < h.face_first[f + 1]; ++k) {
                ct_vec3 p0 = h.verts[h.face_verts[h.face_first[f]]];
                half += 0.25 * (double)ct__len(ct__cross(ct__sub(h.verts[h.face_verts[k]], p0),
                                                         ct__sub(h.verts[h.face_verts[k + 1]], p0)));
            }
        cr_assert(c.found && fabs((double)c.volume - 645.1695993503888) <= 1e-5 * 645.17, "volume %.17g", (double)c.volume);
        cr_assert(fabs((double)c.area - half) <= 1e-4 * half, "area %.17g, half the surface %.17g", (double)c.area, half);
        cr_assert(fabs((double)c.centroid.x + 3022269.501048323) <= 25 && fabs((double)c.centroid.y + 3022269.501152083) <= 25 &&
                      fabs((double)c.centroid.z + 3022269.4696961436) <= 25,
                  "centroid %.17g %.17g %.17g", (double)c.centroid.x, (double)c.centroid.y, (double)c.centroid.z);
    }
    st = ct_intersect(&h, NULL, &h, NULL, NULL, NULL, &x);
    cr_assert_eq(st, CT_OK);
    cr_assert(fabs((double)ct_hull_volume(&x, NULL) - 645.1695993503888) <= 1e-4 * 645.17, "volume %.17g",
              (double)ct_hull_volume(&x, NULL));
    for (i = 0; i < x.nverts; ++i) cr_assert_leq(ct__len(ct__sub(x.verts[i], h.center)), 2 * h.extent);
    ct_hull_free(&x);
    ct_hull_free(&h);
}

/* fuzz_polar (a 120 s local float run, 2026-11-27), regress_polar_float_climb_local_max: two
   hulls of extent 1.3e-5 and 1.5e-5 near the origin (float build). ct_intersect returned CT_OK
   with vertices up to 4e-7 (3% of the extent) below A's bottom face z = -8e-6: the plane
   filter had set that face aside. B reaches 5e-7 below it (its vertex at z = -8.5e-6), but the
   hill climb over B's vertex graph stopped at a vertex 1.3e-7 above it: that vertex's
   neighbours are a copy of it 7.6e-11 away (the same z in float) and two higher ones, and the
   way down runs through the copy. A hull is convex only to rounding; its vertex graph can
   have such false local maxima, so a plane the climb finds unreached is now confirmed by a
   scan of every vertex before it is dropped. In double the same points give a sound hull: the
   check holds there too. */
static const float climb_a[15][3] = {
    { -7.99999998e-06f, -1.99999999e-06f, -3.00000011e-06f }, { 4.99999987e-06f, -7.99999998e-06f, -7.99999998e-06f },
    { -7.0000001e-06f, -7.0000001e-06f, 7.99999998e-06f },   { -7.0000001e-06f, 4.99999987e-06f, 7.99999998e-06f },
    { -7.99999998e-06f, 4.99999987e-06f, 1.99999999e-06f },  { 7.99999998e-06f, 0, -3.99999999e-06f },
    { -7.0000001e-06f, 7.0000001e-06f, -7.99999998e-06f },   { 0, -7.99999998e-06f, -4.99999987e-06f },
    { 3.99999999e-06f, -4.99999987e-06f, -7.99999998e-06f }, { -7.99999998e-06f, 4.99999987e-06f, -9.99999997e-07f },
    { 7.99999998e-06f, 6.00000021e-06f, -1.99999999e-06f },  { -9.99999997e-07f, 1.99999999e-06f, -7.99999998e-06f },
    { 7.99999998e-06f, -7.99999998e-06f, -1.99999999e-06f }, { -7.99999998e-06f, -4.99999987e-06f, 3.99999999e-06f },
    { -7.99999998e-06f, -7.99999998e-06f, -7.99999998e-06f },
};
static const float climb_b[24][3] = {
    { 7.8564608e-06f, -8.05961645e-06f, -7.8671419e-06f },   { 7.50228878e-07f, 6.49999993e-06f, -8.49998469e-06f },
    { 5.66542076e-06f, 5.98008728e-06f, 1.96429437e-06f },   { -4.11274732e-06f, -8.49945081e-06f, -3.31246952e-06f },
    { 7.43849205e-06f, -4.2376405e-06f, 2.70648184e-06f },   { -8.50000015e-06f, -8.49998469e-06f, -2.15135196e-06f },
    { 5.77058427e-06f, -7.1317595e-06f, -7.22941604e-06f },  { -7.22941604e-06f, -7.2274629e-06f, -6.50285347e-06f },
    { -7.50001527e-06f, -7.50001527e-06f, -7.50001527e-06f }, { -7.50001527e-06f, -7.50001527e-06f, -7.50001527e-06f },
    { -7.50001527e-06f, -7.50001527e-06f, -7.50001527e-06f }, { -7.50001527e-06f, -7.50001527e-06f, -8.22941547e-06f },
    { -8.50000015e-06f, -7.50285335e-06f, -7.50001527e-06f }, { -8.1406406e-06f, -8.05954005e-06f, -7.57107546e-06f },
    { 7.8564608e-06f, -8.05961645e-06f, -7.8671419e-06f },   { -4.85168471e-07f, 4.29873671e-06f, -7.51564039e-06f },
    { -7.22941604e-06f, -7.2274629e-06f, -6.50285347e-06f }, { 7.8564608e-06f, -8.05954005e-06f, -7.8671419e-06f },
    { -4.85168471e-07f, 4.29873671e-06f, -7.51564039e-06f }, { 6.77050775e-06f, -7.50390609e-06f, -6.74609373e-06f },
    { -4.24545306e-06f, 2.13858038e-06f, 8.49789467e-06f },  { -7.29927069e-06f, -6.48046853e-06f, -8.0070804e-06f },
    { 5.85131829e-06f, 3.60397337e-07f, -7.49945048e-06f },  { 7.8564608e-06f, -8.05961645e-06f, -7.8671419e-06f },
};
Test(fuzz_regress, polar_filter_confirms_a_climb_that_stops_below) {
    ct_vec3 pa[15], pb[24];
    ct_hull a, b, x;
    double L, worst = 0, vx, va, vb;
    int i;
    for (i = 0; i < 15; ++i) pa[i] = tu_vec(climb_a[i][0], climb_a[i][1], climb_a[i][2]);
    for (i = 0; i < 24; ++i) pb[i] = tu_vec(climb_b[i][0], climb_b[i][1], climb_b[i][2]);
    cr_assert_eq(ct_hull_build(pa, 15, NULL, NULL, &a), CT_OK);
    cr_assert_eq(ct_hull_build(pb, 24, NULL, NULL, &b), CT_OK);
    L = (double)a.extent + (double)b.extent;
    cr_assert_eq(ct_intersect(&a, NULL, &b, NULL, NULL, NULL, &x), CT_OK);
    cr_assert_gt(x.nverts, 4);
    for (i = 0; i < x.nverts; ++i) worst = fmax(worst, fmax(outside(&a, x.verts[i]), outside(&b, x.verts[i])));
    cr_assert_leq(worst, 1e-3 * L, "a vertex of A n B %g outside A or B (extent %g)", worst, L);
    vx = (double)ct_hull_volume(&x, NULL);
    va = (double)ct_hull_volume(&a, NULL);
    vb = (double)ct_hull_volume(&b, NULL);
    cr_assert_leq(vx, fmin(va, vb) * (1 + 1e-3));
    ct_hull_free(&x);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* The same hull B through GJK: warm-started supports climb B's vertex graph (13 vertices, above
   CT_HULL_SCAN_MAX), and the false local maximum made ct_gjk from B to a point 2-30% of the
   extent outside it wrong by up to 6% of the extent in float (136 of 200,000 points around
   it, each query warm-started from the one before). Hulls with edges within reach of rounding
   (ct_hull's ct__short) now have the cluster of the vertex a climb stops at explored. Oracle:
   the same vertices as a scanned point cloud. */
Test(fuzz_regress, warm_climbs_cross_a_copy_of_a_vertex) {
    ct_vec3 pb[24];
    ct_hull b;
    unsigned long long seed = 3;
    double worst;
    int i;
    for (i = 0; i < 24; ++i) pb[i] = tu_vec(climb_b[i][0], climb_b[i][1], climb_b[i][2]);
    cr_assert_eq(ct_hull_build(pb, 24, NULL, NULL, &b), CT_OK);
    worst = tu_warm_hull_vs_scan(&b, 40000, &seed);
    cr_assert_leq(worst, 1e-4, "warm hull vs scanned cloud: %g of the extent", worst);
    ct_hull_free(&b);
}

/* fuzz_gjk (regress_gjk_ball_as_ellipsoid_against_cloud): a 16-point cloud of extent 4e6
   (repeated points) overlapping a sphere given as an ellipsoid with three equal semi-axes R,
   both at the identity. ct_signed_distance gave -343301.136 cold and -343301.795 warm-started:
   the rounded polytope A - B is flat where the ball meets a face, EPA's curved refinement
   cannot descend at that kink, and EPA alone stopped 1.9e-6 of the depth short. Oracle: the
   ball's centre (the origin) is inside the cloud's hull, so the depth is R plus the centre's
   distance to the hull's boundary, the least depth below its face planes. Cold, warm-started
   and swapped, and as ct_shape_sphere. */
Test(fuzz_regress, ball_as_ellipsoid_against_a_cloud) {
    static const double q[16][3] = {
        { 999969.482421875, 999969.482421875, 999969.482421875 }, { 999969.482421875, 999969.482421875, -679718.017578125 },
        { -4000000, -4000000, -4000000 }, { -4000000, -4000000, -4000000 }, { -4000000, -4000000, -4000000 },
        { -4000000, -4000000, -4000000 }, { -4000000, -4000000, -4000000 }, { -4000000, -4000000, 999969.482421875 },
        { 999969.482421875, 999969.482421875, 999969.482421875 }, { -4000000, -4000000, -4000000 },
        { 607818.603515625, 607818.603515625, 607818.603515625 }, { 607818.603515625, 607818.603515625, 607818.603515625 },
        { -3000000, 607818.603515625, 607818.603515625 }, { 341156.005859375, 341156.005859375, 341156.005859375 },
        { 341156.005859375, 337860.107421875, 341156.005859375 }, { 341156.005859375, 341156.005859375, 341156.005859375 }
    };
    const double R = 341156.005859375, tol = (TU_FLOAT ? 1e-4 : 1e-11) * 4e6;
    ct_vec3 p[16];
    ct_hull h;
    ct_shape a, b, s;
    ct_gjk_cache cache;
    ct_distance d;
    double inner = 1e300, expect;
    int i;
    for (i = 0; i < 16; ++i) p[i] = tu_vec(q[i][0], q[i][1], q[i][2]);
    cr_assert_eq(ct_hull_build(p, 16, NULL, NULL, &h), CT_OK);
    for (i = 0; i < h.nfaces; ++i) inner = fmin(inner, -(double)h.planes[i].d);   /* the origin's depth below face i */
    ct_hull_free(&h);
    cr_assert_gt(inner, 0);
    expect = -(R + inner);
    a = ct_shape_points(p, 16);
    b = ct_shape_ellipsoid(tu_vec(R, R, R));
    s = ct_shape_sphere((ct_real)R);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance - expect) <= tol, "cold %.12g vs %.12g", (double)d.distance, expect);
    memset(&cache, 0, sizeof cache);
    cr_assert_eq(ct_gjk(&a, NULL, &b, NULL, &cache, &d), CT_OK);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, NULL, &cache, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance - expect) <= tol, "warm %.12g vs %.12g", (double)d.distance, expect);
    cr_assert_eq(ct_signed_distance(&b, NULL, &a, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance - expect) <= tol, "swapped %.12g vs %.12g", (double)d.distance, expect);
    cr_assert_eq(ct_signed_distance(&a, NULL, &s, NULL, NULL, NULL, &d), CT_OK);
    cr_assert(fabs(d.distance - expect) <= tol, "as a sphere %.12g vs %.12g", (double)d.distance, expect);
}

/* fuzz_polar (regress_polar_lost_plane_at_a_many_plane_corner, met by the CI-mode run once
   this round's changes moved its deterministic trajectory; fails on the session's starting
   commit too): two hulls of extent 1.2e-5 on a lattice of 1e-6 sharing two face planes
   (z = -8e-6 and x = -8e-6) meet at the corner (-8, -8, -8)e-6, where eight planes of the
   two pass. Their dual points make one dual face of eight coplanar points, and a merge there
   dropped B's plane y = -8e-6: A n B had a vertex (-8, -9.2, -8)e-6, 1.2e-6 (10% of the
   size) outside both. A kept plane off the dual hull that cuts a vertex now makes the
   intersection build again on every plane, checked in full. Oracle: every vertex inside A and
   B within 1e3 eps of the size, the swapped call's volume. */
Test(fuzz_regress, polar_plane_lost_at_a_corner_of_eight_planes) {
    static const double qa[15][3] = {
        { -7.9999999999999996e-06, -1.9999999999999999e-06, -3.0000000000000001e-06 },
        { -7.9999999999999996e-06, -7.9999999999999996e-06, 3.0000000000000001e-06 },
        { -7.9999999999999996e-06, -7.9999999999999996e-06, 3.0000000000000001e-06 },
        { -7.9999999999999996e-06, -7.9999999999999996e-06, 3.0000000000000001e-06 },
        { -3.0000000000000001e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, 4.9999999999999996e-06 },
        { -7.9999999999999996e-06, -7.9999999999999996e-06, -7.9999999999999996e-06 },
        { -7.9999999999999996e-06, -7.9999999999999996e-06, -6.9999999999999999e-06 },
        { 6.0000000000000002e-06, -3.9999999999999998e-06, 0 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { 1.9999999999999999e-06, 7.9999999999999996e-06, -7.9999999999999996e-06 },
        { -7.9999999999999996e-06, 4.9999999999999996e-06, -7.9999999999999996e-06 },
        { -7.9999999999999996e-06, 6.9999999999999999e-06, 0 },
        { 6.0000000000000002e-06, 3.0000000000000001e-06, 0 },
        { 7.9999999999999996e-06, -6.9999999999999999e-06, -6.0000000000000002e-06 }
    };
    static const double qb[15][3] = {
        { 7.9999999999999996e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { -7.9999999999999996e-06, -7.9999999999999996e-06, -6.9999999999999999e-06 },
        { -7.9999999999999996e-06, 7.9999999999999996e-06, -6.9999999999999999e-06 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { -7.9999999999999996e-06, -7.9999999999999996e-06, -7.9999999999999996e-06 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { -7.9999999999999996e-06, -1.9999999999999999e-06, -1.9999999999999999e-06 },
        { -1.9999999999999999e-06, -7.9999999999999996e-06, -7.9999999999999996e-06 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, -7.9999999999999996e-06 },
        { -1.9999999999999999e-06, 3.0000000000000001e-06, -7.9999999999999996e-06 },
        { -1.9999999999999999e-06, -7.9999999999999996e-06, -7.9999999999999996e-06 },
        { 7.9999999999999996e-06, -7.9999999999999996e-06, -7.9999999999999996e-06 }
    };
    ct_hull a, b, x, y;
    double L, worst = 0, vx, vy;
    int i;
    hull_of_points(qa, 15, &a);
    hull_of_points(qb, 15, &b);
    L = (double)a.extent + (double)b.extent;
    cr_assert_eq(ct_intersect(&a, NULL, &b, NULL, NULL, NULL, &x), CT_OK);
    cr_assert_eq(ct_intersect(&b, NULL, &a, NULL, NULL, NULL, &y), CT_OK);
    cr_assert_gt(x.nverts, 4);
    for (i = 0; i < x.nverts; ++i) worst = fmax(worst, fmax(outside(&a, x.verts[i]), outside(&b, x.verts[i])));
    for (i = 0; i < y.nverts; ++i) worst = fmax(worst, fmax(outside(&a, y.verts[i]), outside(&b, y.verts[i])));
    cr_assert_leq(worst, 1e3 * (double)TU_EPS * L, "a vertex of A n B %g outside A or B (size %g)", worst, L);
    vx = (double)ct_hull_volume(&x, NULL);
    vy = (double)ct_hull_volume(&y, NULL);
    cr_assert(fabs(vx - vy) <= 1e-6 * vx, "volumes %g and %g", vx, vy);
    ct_hull_free(&x);
    ct_hull_free(&y);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* fuzz_gjk (regress_gjk_float_segment_direction, a 120 s local float run; fails on 9408450
   too): a 16-point cloud that is nearly the segment (-0.898, 1, 1)..(1, 1, 1) plus points of
   the box's edge region (0.99997 = the box's half extent, some 4.5e-3 and 6.3e-3 lower),
   rounded by r, against that box, both at the identity. GJK's simplex became the segment, 4.3e-5
   from the origin, and v's component along it (one float ulp, rounding) turned v by 2.8e-3
   rad: the support along -v repeated the segment's far end, and GJK called the cores apart
   while the cloud reached 3.7e-3 into the box (the swapped call found the depth). A repeated
   support on a segment now retries along v made perpendicular to it. Oracle: a convex
   combination of three cloud points lies inside the box by more than 1e-3, so the cores
   overlap (core GJK distance 0, signed distance below -(r + 1e-3)); both orders agree. */
Test(fuzz_regress, gjk_segment_direction_rounding_hid_an_overlap) {
    static const double q[16][3] = {
        {0.999969482421875, 0.999969482421875, 0.999969482421875},
        {0.999969482421875, 0.999969482421875, 0.9954833984375},
        {0.999969482421875, 0.999969482421875, 0.999969482421875},
        {0.999969482421875, 0.999969482421875, 0.999969482421875},
        {0.999969482421875, 0.99365234375, 0.999969482421875},
        {-0.898040771484375, 1, 1},
        {0.999969482421875, 0.999969482421875, 0.9954833984375},
        {0.999969482421875, 0.999969482421875, 0.9954833984375},
        {-0.898040771484375, 1, 1},
        {0.999969482421875, 0.99365234375, 0.999969482421875},
        {0.999969482421875, 0.999969482421875, 0.999969482421875},
        {0.999969482421875, 0.999969482421875, 0.999969482421875},
        {0.999969482421875, 0.999969482421875, 0.9954833984375},
        {1, 1, 1},
        {1, 1, 1},
        {1, 1, 1}
    };
    const ct_real h = (ct_real)0.999969482421875;
    ct_vec3 p[16], in;
    ct_shape a, b, a0;
    ct_distance ab, ba, core;
    double tol = TU_FLOAT ? 1e-4 : 1e-10;
    int i;
    for (i = 0; i < 16; ++i) p[i] = tu_vec(q[i][0], q[i][1], q[i][2]);
    in = tu_vec(0.45 * q[1][0] + 0.45 * q[4][0] + 0.1 * q[5][0], 0.45 * q[1][1] + 0.45 * q[4][1] + 0.1 * q[5][1],
                0.45 * q[1][2] + 0.45 * q[4][2] + 0.1 * q[5][2]);
    cr_assert((double)h - fmax(fabs((double)in.x), fmax(fabs((double)in.y), fabs((double)in.z))) > 1e-3);
    a = a0 = ct_shape_points(p, 16);
    a.radius = h;
    b = ct_shape_box(tu_vec(h, h, h));
    cr_assert_eq(ct_gjk(&a0, NULL, &b, NULL, NULL, &core), CT_OK);
    cr_assert_eq(core.distance, 0, "core distance %g for overlapping cores", (double)core.distance);
    cr_assert_eq(ct_signed_distance(&a, NULL, &b, NULL, NULL, NULL, &ab), CT_OK);
    cr_assert_eq(ct_signed_distance(&b, NULL, &a, NULL, NULL, NULL, &ba), CT_OK);
    cr_assert_lt((double)ab.distance, -((double)h + 1e-3), "A, B: %.9g", (double)ab.distance);
    cr_assert(fabs((double)ab.distance - (double)ba.distance) <= tol, "A, B %.9g vs B, A %.9g", (double)ab.distance,
              (double)ba.distance);
}

/* fuzz_pfc (fuzz_pfc_double_erode_near_duplicate_vertices, a 90 s local run; older code fails
   too): a 7-vertex block of extent 16 with two vertices 2e-10 apart eroded by 1e-310 (radius
   0 does the same). The sliver faces between the near-duplicates make dual points within the
   dual hull's tolerance of its hull, and the polar construction left one of their planes out
   although it cuts the core (ct__polar_build's lost): a core vertex 1.95e-10 (5e4 ulps of the
   size) outside the block, in 420 of the 5040 orders of the block's points. The core is now
   cut by such planes. Oracle, in every order (one in five): at radius 0 the core is the block
   (each inside the other's planes to 4e3 ulps of the size), at radius 1e-12 every core vertex
   inside every moved plane. */
static const double erode_block[7][3] = {
    {5.9999999776458743, 5.9999999203918453, 1.0000000977355956},
    {6.0000000776458737, 5.9999999758880618, 5.9999999776458743},
    {0.99999992039184571, 0.99999990013732909, -7.9999999881225587},
    {6.0000000776458737, 5.999999976083374, 5.9999999776458743},
    {-2.0000000223541261, 5.9999999203918453, 0.99999992039184571},
    {-8.0000000675323495, -8.0000000037811283, -8.0000000595001222},
    {0.99999992039184571, 0.99999992039184571, 0.99999991336059568}};
/* The block's points in their order-th permutation (0..5039), built as a hull. */
static ct_status erode_block_hull(int order, ct_hull *h) {
    ct_vec3 w[7];
    int used[7] = {0}, t = order, k;
    for (k = 0; k < 7; ++k) {
        int pick = t % (7 - k), u;
        t /= 7 - k;
        for (u = 0; u < 7; ++u)
            if (!used[u] && pick-- == 0) {
                used[u] = 1;
                w[k] = tu_vec(erode_block[u][0], erode_block[u][1], erode_block[u][2]);
                break;
            }
    }
    return ct_hull_build(w, 7, NULL, NULL, h);
}
Test(fuzz_regress, erode_cuts_the_core_by_a_plane_the_dual_hull_lost) {
    double worst = -1e300, back = -1e300, L = 0;
    int order, tried = 0;
    long k;
    ct_hull h, c;
    for (order = 0; order < 5040; order += 5) {
        int r, i, j;
        if (erode_block_hull(order, &h) != CT_OK) continue;
        L = fmax(L, (double)h.extent + 8);
        for (r = 0; r < 2; ++r) {
            ct_real rad = r ? (ct_real)1e-12 * h.extent : 0;
            cr_assert_eq(ct_hull_erode(&h, rad, NULL, &c), CT_OK, "order %d", order);
            for (i = 0; i < c.nverts; ++i)
                for (j = 0; j < h.nfaces; ++j)
                    worst = fmax(worst, (double)(ct__dot(h.planes[j].n, c.verts[i]) + h.planes[j].d + rad));
            if (r == 0)
                for (i = 0; i < h.nverts; ++i)
                    for (j = 0; j < c.nfaces; ++j)
                        back = fmax(back, (double)(ct__dot(c.planes[j].n, h.verts[i]) + c.planes[j].d));
            ct_hull_free(&c);
        }
        ct_hull_free(&h);
        ++tried;
    }
    cr_assert_gt(tried, 1000);
    cr_assert_leq(worst, 4e3 * (double)TU_EPS * L, "a core vertex %g outside a moved plane of the block", worst);
    cr_assert_leq(back, 4e3 * (double)TU_EPS * L, "a block vertex %g outside the core at radius 0", back);
    /* the cut's allocations (order 3 is cut in double) fail cleanly */
    cr_assert_eq(erode_block_hull(3, &h), CT_OK);
    for (k = 1; k < 80; ++k) {
        tu_alloc t;
        ct_status st;
        tu_alloc_init(&t, k);
        st = ct_hull_erode(&h, 0, &t.a, &c);
        cr_expect(st == CT_OK || st == CT_NO_MEMORY, "failing allocation %ld: %s", k, ct_status_string(st));
        if (st != CT_OK) cr_expect_eq(c.nverts, 0);
        ct_hull_free(&c);
        cr_expect_eq(t.outstanding, 0, "failing allocation %ld: %ld blocks leaked", k, t.outstanding);
        if (st == CT_OK) break;
    }
    cr_expect_lt(k, 80);
    ct_hull_free(&h);
}

/* How far the worst core vertex lies beyond a moved plane of the block, past fuzz_pfc's
   allowance (1e4 ulps of the size, plus 1e3 ulps over the vertex's best det). */
static double erode_excess(const ct_hull *h, const ct_hull *c, double rad) {
    double L = (double)h->extent + fmax(fabs((double)h->center.x), fmax(fabs((double)h->center.y), fabs((double)h->center.z)));
    double det[256], worst = -1e300;
    int k, j;
    cr_assert_leq(c->nverts, 256);
    fz_vertex_det(c, det);   /* fuzz_pfc's: the best |det| of a unit-normal triple at each vertex */
    for (k = 0; k < c->nverts; ++k)
        for (j = 0; j < h->nfaces; ++j)
            worst = fmax(worst, (double)(ct__dot(h->planes[j].n, c->verts[k]) + h->planes[j].d) + rad -
                                    (1e4 * (double)TU_EPS * L + 1e3 * (double)TU_EPS * L / det[k]));
    return worst;
}
/* fuzz_pfc, double (a 180 s local run, 2026-11-29; older code fails too): a 7-point block with
   two vertices 2e-10 apart (a sliver face between them) eroded by 1e-310. The dual hull left a
   core vertex 1.95e-10 beyond the sliver's plane (det 0.30: 16x fuzz_pfc's allowance); the cut
   by that plane was found but two of its crossings were the same bits, and ct_hull_build
   answered CT_DEGENERATE for the 11 points (it builds the 10 without the copy), so the core was
   kept as it was. The cut now adds each crossing once. At radii 1e-310 and 0: every core vertex
   within the allowance of every moved plane. */
Test(fuzz_regress, erode_cut_adds_each_crossing_once) {
    static const unsigned char in[] = {
        0x03, 0x2d, 0xfd, 0x63, 0x63, 0x63, 0xe3, 0x63, 0x63, 0x61, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
        0x63, 0x1a, 0x1a, 0x1a, 0x1a, 0xfd, 0x63, 0x63, 0x63, 0xe3, 0x63, 0x23, 0x61, 0x63, 0x63, 0x63, 0x63,
        0x5b, 0x63, 0x63, 0x63, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a,
        0x1a, 0x11, 0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x2d, 0x00, 0x00, 0x34, 0x8f, 0x1b, 0x33, 0x8f, 0x31, 0xff,
        0x29, 0x7b, 0xff, 0xd7, 0x33, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x11, 0x00, 0x50, 0xe6, 0xe0, 0xfb,
        0xc5, 0xfb, 0xc5, 0xe8, 0x30, 0x23, 0xff, 0xff, 0xff, 0x02, 0x11, 0x11, 0x11, 0x1a, 0x1a, 0x1a, 0x1a,
        0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x11, 0x1a, 0x1a, 0x1a, 0x11, 0x11, 0x11, 0x11, 0x41, 0x03, 0x0a, 0x11,
        0x11, 0x93, 0x5f, 0xd0, 0xf5, 0xe6, 0xfb, 0x08, 0x14, 0xd0 };
    fz f = { in, sizeof in, 0 };
    double scale = fz_scale(&f);
    ct_hull h, c;
    int r;
    if (!fz_safe_hull(&f, &h, scale)) cr_assert(TU_FLOAT, "the block did not build");   /* the harness's block A */
    if (TU_FLOAT) {   /* float decodes another block: it is checked all the same */
        if (h.nverts == 0) return;
    } else {
        cr_assert_eq(h.nverts, 7);
        cr_assert_eq(h.nfaces, 10);
    }
    for (r = 0; r < 2; ++r) {
        double rad = r ? 9.9999999999999694e-311 : 0;
        cr_assert_eq(ct_hull_erode(&h, (ct_real)rad, NULL, &c), CT_OK);
        cr_expect_leq(erode_excess(&h, &c, rad), 0, "radius %g: a core vertex %g past the allowance", rad, erode_excess(&h, &c, rad));
        ct_hull_free(&c);
    }
    ct_hull_free(&h);
}

/* A random block with near-copies of its points (an 18-point one from that sweep; older code
   fails too): a well-conditioned core vertex (det 0.84) 1.8e-12 beyond two moved planes whose
   faces the core has (the dual face of a vertex where near-coplanar planes meet placed it by
   one triple): 1.5e-12 past the allowance at radius 0, though ct__polar_build reported no lost
   plane. Every core is now checked against every moved plane and cut where it crosses one (a
   cut the hull cannot resolve, points within its tolerance, leaves the core as it was). Also
   3000 random blocks of 6-25 points, 30% of them near-copies 1e-12..1e-7 of the size away,
   at radii 0, 1e-13 and 1e-9 of the extent: every core vertex within the allowance. */
Test(fuzz_regress, erode_checks_every_core_vertex_against_every_moved_plane) {
    static const double q[18][3] = {
        {-0.026063582295968619, -0.026168683505316953, 0.0097200767633575155},
        {-0.017360824572304309, 0.017875588918148569, 0.075677678874831927},
        {0.031549062012700947, -0.044880236528220672, 0.065330510693445434},
        {-0.052929119491187969, 0.052293714324768786, 0.067835516752447492},
        {-0.052929118651663561, 0.052293714324768786, 0.067835516359811901},
        {-0.0050023358276402854, -0.063840394699403225, -0.05939309419666506},
        {-0.010371727709045035, 0.028908055008437163, -0.073593551841345903},
        {0.060394538622206721, -0.060383483414420069, -0.029788473928586485},
        {-0.052929118759291557, 0.052293714324768786, 0.067835516359811901},
        {-0.063139788028891836, 0.019992828599690975, 0.013202533845224851},
        {-0.056584650390994091, 0.048525618295652946, -0.028820239737094851},
        {0.031549062012750123, -0.044880236528220672, 0.065330510693445434},
        {-0.00057174580521220629, -0.069124846982640945, 0.046887454332243457},
        {-0.063139787720245796, 0.019992828599690975, 0.01320253336991071},
        {-0.01001424253508087, -0.051075801537076922, -0.05107608518017976},
        {-0.019675427611667035, 0.0079518308515888012, -0.065351983703921562},
        {-0.01736082457766772, 0.017875588920119277, 0.075677678871685028},
        {-0.071067032824134957, -0.048504713723082973, -0.062766630405690513}};
    unsigned long long seed = 2911;
    ct_vec3 p[32];
    ct_hull h, c;
    double worst = -1e300;
    int i, trial, built = 0;
    for (i = 0; i < 18; ++i) p[i] = tu_vec(q[i][0], q[i][1], q[i][2]);
    cr_assert_eq(ct_hull_build(p, 18, NULL, NULL, &h), CT_OK);
    cr_assert_eq(ct_hull_erode(&h, 0, NULL, &c), CT_OK);
    cr_assert_leq(erode_excess(&h, &c, 0), 0, "a core vertex %g past the allowance", erode_excess(&h, &c, 0));
    ct_hull_free(&c);
    ct_hull_free(&h);
    for (trial = 0; trial < 3000; ++trial) {
        int n = 6 + (int)(tu_uniform(&seed) * 20), r;
        double sc = pow(10, -3 + 6 * tu_uniform(&seed));
        for (i = 0; i < n; ++i) {
            if (i > 3 && tu_uniform(&seed) < 0.3) {
                int src = (int)(tu_uniform(&seed) * i);
                double off = pow(10, -12 + 5 * tu_uniform(&seed)) * sc;
                p[i] = tu_vec((double)p[src].x + off * (tu_uniform(&seed) - 0.5), (double)p[src].y + off * (tu_uniform(&seed) - 0.5),
                              (double)p[src].z + off * (tu_uniform(&seed) - 0.5) * (tu_uniform(&seed) < 0.5));
            } else p[i] = tu_vec(sc * (2 * tu_uniform(&seed) - 1), sc * (2 * tu_uniform(&seed) - 1), sc * (2 * tu_uniform(&seed) - 1));
        }
        if (ct_hull_build(p, n, NULL, NULL, &h) != CT_OK) continue;
        ++built;
        for (r = 0; r < 3; ++r) {
            double rad = r == 0 ? 0 : (r == 1 ? 1e-13 : 1e-9) * (double)h.extent;
            ct_status st = ct_hull_erode(&h, (ct_real)rad, NULL, &c);
            cr_assert(st == CT_OK || (st == CT_DEGENERATE && r > 0), "trial %d radius %g: %s", trial, rad, ct_status_string(st));
            if (st != CT_OK) continue;
            worst = fmax(worst, erode_excess(&h, &c, rad));
            ct_hull_free(&c);
        }
        ct_hull_free(&h);
    }
    cr_assert_gt(built, 2500);
    cr_assert_leq(worst, 0, "a core vertex %g past the allowance", worst);
}
