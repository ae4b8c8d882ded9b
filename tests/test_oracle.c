/* The benchmarks' independent oracles (bench/oracle.c) against closed forms and brute force:
   a verdict "the oracle supports ours" is only worth the oracle. */
#include "contact.h"
#include "testutil.h"
#include "oracle.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#define OR_TOL (TU_FLOAT ? 1e-5 : 1e-10)

Test(oracle, box_pairs_match_all_pairs) {
    unsigned long long s = 3;
    int n = 400, i, j, round;
    ct_aabb *b = (ct_aabb *)malloc(sizeof *b * (size_t)n);
    for (round = 0; round < 2; ++round) {
        long long want = 0;
        for (i = 0; i < n; ++i) {   /* round 1: integer lattice boxes, many exactly touching */
            ct_vec3 c = tu_vec(floor(8 * tu_uniform(&s)), floor(8 * tu_uniform(&s)), floor(8 * tu_uniform(&s)));
            if (!round) c = tu_vec(8 * tu_uniform(&s), 8 * tu_uniform(&s), 8 * tu_uniform(&s));
            b[i].lo = c;
            b[i].hi = ct_vec3_add(c, tu_vec(round ? 1 : tu_uniform(&s), round ? 1 : tu_uniform(&s), round ? 1 : 0.5));
        }
        for (i = 0; i < n; ++i)
            for (j = i + 1; j < n; ++j)
                want += b[i].lo.x <= b[j].hi.x && b[j].lo.x <= b[i].hi.x && b[i].lo.y <= b[j].hi.y &&
                        b[j].lo.y <= b[i].hi.y && b[i].lo.z <= b[j].hi.z && b[j].lo.z <= b[i].hi.z;
        cr_assert_gt(want, 100);
        cr_assert_eq(oracle_box_pairs(b, n), want, "round %d", round);
    }
    free(b);
}

Test(oracle, sat_on_boxes_has_the_closed_forms) {
    ct_hull a, b;
    ct_xform xb = ct_xform_identity();
    double axis[3], s;
    cr_assert_eq(ct_hull_box(tu_vec(1, 1, 1), NULL, &a), CT_OK);
    cr_assert_eq(ct_hull_box(tu_vec(0.5, 0.5, 0.5), NULL, &b), CT_OK);
    xb.p = tu_vec(1.7, 0.2, 0);        /* face-face, apart by 0.2 */
    s = oracle_sat(&a, NULL, &b, &xb, axis);
    cr_assert(fabs(s - 0.2) <= OR_TOL && fabs(axis[0] - 1) <= OR_TOL, "%g", s);
    xb.p = tu_vec(0, -1.2, 0.1);       /* penetrating by 0.3 along -y */
    s = oracle_sat(&a, NULL, &b, &xb, axis);
    cr_assert(fabs(s + 0.3) <= OR_TOL && fabs(axis[1] + 1) <= OR_TOL, "%g", s);
    /* B turned 45 degrees about z: its extent along x is 0.5 sqrt 2 */
    xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(3.14159265358979323846 / 4), tu_vec(2, 0, 0));
    s = oracle_sat(&a, NULL, &b, &xb, axis);
    cr_assert(fabs(s - (1 - 0.5 * sqrt(2.0))) <= OR_TOL, "%g", s);
    {   /* one axis, any length, signed from A to B: along -x B lies behind A */
        double px[3] = { 3, 0, 0 }, nx[3] = { -1, 0, 0 }, d[3] = { 1, 1, 0 };
        s = oracle_sat_along(&a, NULL, &b, &xb, px);
        cr_assert(fabs(s - (1 - 0.5 * sqrt(2.0))) <= OR_TOL, "%g", s);
        s = oracle_sat_along(&a, NULL, &b, &xb, nx);
        cr_assert(fabs(s + (3 + 0.5 * sqrt(2.0))) <= OR_TOL, "%g", s);
        s = oracle_sat_along(&a, NULL, &b, &xb, d);   /* A reaches sqrt 2 along it, B from (2 - sqrt 2 / 2) / sqrt 2 */
        cr_assert(fabs(s + 0.5) <= OR_TOL, "%g", s);
    }
    /* edge against edge: B turned about z and then x, placed along the diagonal; the SAT gap is
       at least the true distance's lower bound and the oracle must call it apart / overlapping
       exactly when a far / near placement is */
    xb = ct_xform_from_axis_angle(tu_vec(1, 1, 0), (ct_real)0.7, tu_vec(3, 3, 0));
    cr_assert_gt(oracle_sat(&a, NULL, &b, &xb, NULL), 0);
    xb.p = tu_vec(1.2, 1.2, 0);
    cr_assert_lt(oracle_sat(&a, NULL, &b, &xb, NULL), 0);
    ct_hull_free(&a); ct_hull_free(&b);
}

Test(oracle, rays_have_the_closed_forms) {
    ct_xform x = ct_xform_identity();
    double from[3] = { -5, 0, 0 }, dir[3] = { 10, 0, 0 }, h[3] = { 1, 1, 1 }, e[3] = { 2, 1, 0.5 };
    double diag_from[3] = { -5, -5, -5 }, diag_dir[3] = { 10, 10, 10 }, up[3] = { 0, 0, 10 };
    double miss_from[3] = { -5, 3, 0 }, t, want;
    ct_hull hb;
    unsigned long long s = 11;
    int k;
    x.p = tu_vec(0.5, 0, 0);
    cr_assert(fabs(oracle_ray_sphere(2, &x, from, dir) - 0.35) <= OR_TOL);
    cr_assert(fabs(oracle_ray_box(h, 0, &x, from, dir) - 0.45) <= OR_TOL);
    cr_assert(fabs(oracle_ray_box(h, 0.5, &x, from, dir) - 0.40) <= OR_TOL);
    cr_assert(fabs(oracle_ray_ellipsoid(e, &x, from, dir) - 0.35) <= OR_TOL);
    cr_assert_eq(oracle_ray_sphere(2, &x, miss_from, dir), -1);
    cr_assert_eq(oracle_ray_box(h, 0.5, &x, miss_from, dir), -1);
    cr_assert_eq(oracle_ray_sphere(2, &x, from, up), -1);
    x.p = tu_vec(0, 0, 0);
    /* the rounded corner: the diagonal enters where |p - (-1,-1,-1)| = 0.5 */
    want = (5 - 1 - 0.5 / sqrt(3.0)) / 10;
    cr_assert(fabs(oracle_ray_box(h, 0.5, &x, diag_from, diag_dir) - want) <= OR_TOL);
    /* a start inside gives 0 */
    cr_assert_eq(oracle_ray_box(h, 0, &x, (double[3]){ 0.2, 0, 0 }, dir), 0);
    /* the hull of a box (planes, Cyrus-Beck) against the slabs on random placed segments */
    cr_assert_eq(ct_hull_box(tu_vec(1, 0.6, 0.3), NULL, &hb), CT_OK);
    for (k = 0; k < 500; ++k) {
        double hh[3] = { 1, 0.6, 0.3 }, f[3], d[3];
        ct_vec3 u = tu_random_unit(&s), v = tu_random_unit(&s);
        x = tu_random_xform(&s, 0.3);
        f[0] = 3 * (double)u.x; f[1] = 3 * (double)u.y; f[2] = 3 * (double)u.z;
        d[0] = -6 * (double)u.x + (double)v.x; d[1] = -6 * (double)u.y + (double)v.y; d[2] = -6 * (double)u.z + (double)v.z;
        t = oracle_ray_hull(&hb, &x, f, d);
        want = oracle_ray_box(hh, 0, &x, f, d);
        cr_assert((t < 0) == (want < 0) && (t < 0 || fabs(t - want) <= OR_TOL), "ray %d: %g vs %g", k, t, want);
    }
    ct_hull_free(&hb);
}

Test(oracle, ellipsoids_as_spheres_have_the_closed_form) {
    double a[3] = { 1, 1, 1 }, b[3] = { 2, 2, 2 }, v;
    ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
    xb.p = tu_vec(3.1, 0, 0);
    cr_assert_eq(oracle_ellipsoids_overlap(a, &xa, b, &xb, &v), 0);
    cr_assert(fabs(v - 1.1 * 1.1) <= 1e3 * OR_TOL, "%g", v);   /* ((D - b) / a)^2 */
    xb.p = tu_vec(0, 2.9, 0);
    cr_assert_eq(oracle_ellipsoids_overlap(a, &xa, b, &xb, &v), 1);
    cr_assert(fabs(v - 0.81) <= 1e3 * OR_TOL, "%g", v);
    /* a long thin ellipsoid along x reaching a sphere 4.5 away (semi-axis 4 + radius 0.4) */
    {
        double l[3] = { 4, 0.2, 0.2 }, r[3] = { 0.4, 0.4, 0.4 };
        xb.p = tu_vec(4.3, 0, 0);
        cr_assert_eq(oracle_ellipsoids_overlap(l, &xa, r, &xb, NULL), 1);
        xb.p = tu_vec(4.5, 0, 0);
        cr_assert_eq(oracle_ellipsoids_overlap(l, &xa, r, &xb, NULL), 0);
        xb.p = tu_vec(0, 0.7, 0);
        cr_assert_eq(oracle_ellipsoids_overlap(l, &xa, r, &xb, NULL), 0);
    }
}

Test(oracle, halfspace_volume_and_excess) {
    double cube[8 * 4] = { 1, 0, 0, -1, -1, 0, 0, -1, 0, 1, 0, -1, 0, -1, 0, -1, 0, 0, 1, -1, 0, 0, -1, -1,
                           1, 1, 1, -10, 2, 0, 0, -5 };   /* two redundant planes */
    double pts[6] = { 0.5, 0.5, 0.5, 1.5, 0, 0 };
    ct_vec3 p[30];
    ct_hull h;
    double *pl, v;
    unsigned long long s = 5;
    int i;
    cr_assert(fabs(oracle_halfspace_volume(cube, 8) - 8) <= OR_TOL);
    cr_assert(fabs(oracle_plane_excess(pts, 2, cube, 6) - 0.5) <= OR_TOL);
    cr_assert(fabs(oracle_plane_excess(pts, 1, cube, 6) + 0.5) <= OR_TOL);
    /* a random hull's planes: the volume of the hull */
    for (i = 0; i < 30; ++i) p[i] = tu_random_unit(&s);
    cr_assert_eq(ct_hull_build(p, 30, NULL, NULL, &h), CT_OK);
    pl = (double *)malloc(sizeof(double) * 4 * (size_t)h.nfaces);
    for (i = 0; i < h.nfaces; ++i) {
        pl[4 * i] = (double)h.planes[i].n.x; pl[4 * i + 1] = (double)h.planes[i].n.y;
        pl[4 * i + 2] = (double)h.planes[i].n.z; pl[4 * i + 3] = (double)h.planes[i].d;
    }
    v = oracle_halfspace_volume(pl, h.nfaces);
    cr_assert(fabs(v - (double)ct_hull_volume(&h, NULL)) <= (TU_FLOAT ? 1e-4 : 1e-9) * v, "%g", v);
    free(pl);
    ct_hull_free(&h);
}

Test(oracle, votes_count_the_nearer_side) {
    oracle_tally t = { 0, 0, 0 };
    char buf[160] = "DISAGREE";
    oracle_vote(&t, 1.0, 1.0, 1.5);
    oracle_vote(&t, 1.0, 0.2, 1.01);
    oracle_vote(&t, 1.0, 0.9, 1.1);
    oracle_vote_bool(&t, 1, 1, 0);
    oracle_vote_bool(&t, 1, 1, 1);
    cr_assert(t.ours == 2 && t.peer == 1 && t.neither == 2);
    oracle_say(buf, sizeof buf, "brute force", &t);
    cr_assert_str_eq(buf, "DISAGREE; brute force supports ours on 2, the peer on 1, neither on 2");
}

Test(oracle, time_of_impact_has_the_closed_forms) {
    ct_hull a, b;
    ct_xform a0 = ct_xform_identity(), b0 = ct_xform_identity(), b1 = ct_xform_identity();
    double pi = 3.14159265358979323846, t, want;
    cr_assert_eq(ct_hull_box(tu_vec(0.5, 0.5, 0.5), NULL, &a), CT_OK);
    cr_assert_eq(ct_hull_box(tu_vec(0.5, 0.5, 0.5), NULL, &b), CT_OK);
    b0.p = tu_vec(3, 0.1, 0); b1.p = tu_vec(-3, 0.1, 0);   /* faces meet at x = 1: t = 1/3 */
    t = oracle_toi(&a, &a0, &a0, &b, &b0, &b1);
    cr_assert(fabs(t - 1.0 / 3) <= 1e-6, "%g", t);
    b1.p = tu_vec(3, 5, 0);                               /* never meets */
    cr_assert_eq(oracle_toi(&a, &a0, &a0, &b, &b0, &b1), -1);
    /* B 1.2 away turns about z by up to 90 degrees: its reach along x is 0.5 (cos + sin) */
    b0.p = tu_vec(1.2, 0, 0);
    b1 = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(pi / 2), tu_vec(1.2, 0, 0));
    want = (asin(1.4 / sqrt(2.0)) - pi / 4) / (pi / 2);
    t = oracle_toi(&a, &a0, &a0, &b, &b0, &b1);
    cr_assert(fabs(t - want) <= (TU_FLOAT ? 1e-4 : 1e-6), "%g vs %g", t, want);
    ct_hull_free(&a); ct_hull_free(&b);
}
