/* Regressions found by the libFuzzer harnesses (tests/fuzz/). Each test is the crashing input
   with its values hard-coded (the same input is in the harness's seed corpus,
   tests/fuzz/corpus/<harness>/regress_*) and checks the property the harness found broken. */
#include "contact.h"
#include "testutil.h"
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
        ct_status st = ct_hull_build(&h, p, n, NULL, NULL);
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

/* fuzz_gjk, regress_gjk_subnormal: a triangle and an ellipsoid of subnormal size. The
   Minkowski difference has no usable length, EPA took the normal from the centres' offset,
   and normalising it multiplied by 1 / (largest component), which overflows for a subnormal:
   CT_OK with a NaN normal. */
Test(fuzz_regress, subnormal_shapes_give_a_unit_normal) {
    ct_real t = (ct_real)(TU_FLOAT ? 1e-40 : 1e-310);
    ct_vec3 p = tu_vec(t, t, t);
    ct_shape a = ct_shape_triangle(p, p, p), b = ct_shape_ellipsoid(p);
    ct_distance d;
    ct_status st = ct_signed_distance(&a, NULL, &b, NULL, NULL, NULL, &d);
    cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE);
    cr_assert(isfinite((double)d.distance) && d.distance <= 0);
    cr_assert(fabs((double)ct__len(d.normal) - 1) <= 1e3 * (double)TU_EPS, "normal %g %g %g", (double)d.normal.x,
              (double)d.normal.y, (double)d.normal.z);
    cr_assert(isfinite((double)d.pa.x) && isfinite((double)d.pb.z));
    st = ct_gjk(&b, NULL, &a, NULL, NULL, &d);
    cr_assert(st == CT_OK && d.distance == 0);
}
