/* Walls against blocks (detail/wall.h) and the mass properties of rounded blocks (erode.h),
   against independent oracles:
   - ct_contact_mesh_hull on a one-triangle mesh against ct_contact_facet_hull (the prism hull
     through the polar construction) on random blocks;
   - a box resting across the shared edge of a flat two-triangle wall: one contact, equal to
     the closed form of the slab (volume, centroid, point, area, normal, gap);
   - a flat block across a convex ridge and in a concave crease: two contacts;
   - random blocks on a tessellated floor against the same floor as one big box hull
     (ct_contact_hulls): one contact, same gap, normal, point, area and volume; any placement
     of the whole scene;
   - ct_hull_rounded_mass: radius 0 against ct_hull_mass, the rounded cube in closed form (box,
     slabs, quarter cylinders, ball octants), Monte Carlo on random blocks (3 sigma), volume
     against Steiner's formula (ct_hull_rounded_volume). */
#include "contact.h"
#include "testutil.h"
#include "workload.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define W_PI 3.14159265358979323846

static ct_hull w_hull(const ct_vec3 *p, int n) {
    ct_hull h;
    ct_status st = ct_hull_build(p, n, NULL, NULL, &h);
    cr_assert_eq(st, CT_OK, "hull build: %s", ct_status_string(st));
    return h;
}

static ct_hull w_box(double hx, double hy, double hz, ct_vec3 c) {
    ct_vec3 p[8];
    int i;
    for (i = 0; i < 8; ++i)
        p[i] = tu_vec(c.x + (i & 1 ? hx : -hx), c.y + (i & 2 ? hy : -hy), c.z + (i & 4 ? hz : -hz));
    return w_hull(p, 8);
}

static ct_hull w_sphere_hull(unsigned long long *seed, int n, double r) {
    double xyz[3 * 64];
    ct_vec3 p[64];
    int i;
    cr_assert(n <= 64);
    wl_sphere(xyz, n, r, seed);
    for (i = 0; i < n; ++i) p[i] = tu_vec(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    return w_hull(p, n);
}

static double w_dist(ct_vec3 a, ct_vec3 b) { return (double)ct_vec3_length(ct_vec3_sub(a, b)); }

/* A grid floor [0, n h]^2 at z = 0, two triangles per cell, counter-clockwise from +z. */
static ct_mesh w_floor(int n, double h) {
    ct_vec3 v[41 * 41];
    int t[6 * 40 * 40], i, j, k = 0;
    ct_mesh m;
    cr_assert(n <= 40);
    for (j = 0; j <= n; ++j)
        for (i = 0; i <= n; ++i) v[j * (n + 1) + i] = tu_vec(i * h, j * h, 0);
    for (j = 0; j < n; ++j)
        for (i = 0; i < n; ++i) {
            int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
            t[k++] = a; t[k++] = b; t[k++] = d;
            t[k++] = a; t[k++] = d; t[k++] = c;
        }
    cr_assert_eq(ct_mesh_build(v, (n + 1) * (n + 1), t, 2 * n * n, NULL, &m), CT_OK);
    return m;
}

/* Relative difference of two contacts' fields (size: the scene's length scale). */
static double w_diff(const ct_contact *a, const ct_contact *b, double size, int gap) {
    double d = w_dist(a->point, b->point) / size;
    d = fmax(d, w_dist(a->centroid, b->centroid) / size);
    d = fmax(d, w_dist(a->normal, b->normal));
    d = fmax(d, fabs((double)(a->area - b->area)) / (size * size));
    d = fmax(d, fabs((double)(a->volume - b->volume)) / (size * size * size));
    if (gap) d = fmax(d, fabs((double)(a->gap - b->gap)) / size);
    return d;
}

/* ---- one facet: the clipped block equals the prism's polar contact ------------------------ */
Test(wall, one_facet_equals_facet_hull) {
    unsigned long long seed = 2024;
    int trial, compared = 0, gaps = 0;
    double tol = TU_FLOAT ? 2e-3 : 1e-8;
    ct_wall_contacts out;
    ct_wall_contacts_init(&out, NULL);
    for (trial = 0; trial < 300; ++trial) {
        ct_vec3 tri[3];
        int idx[3] = { 0, 1, 2 }, k;
        ct_mesh m;
        ct_hull b = w_sphere_hull(&seed, 20, 0.3);
        ct_xform xb = tu_random_xform(&seed, 0);
        ct_contact c;
        for (k = 0; k < 3; ++k) tri[k] = tu_vec(2 * tu_uniform(&seed) - 1, 2 * tu_uniform(&seed) - 1, 0.3 * tu_uniform(&seed));
        if (ct_mesh_build(tri, 3, idx, 1, NULL, &m) != CT_OK) { ct_hull_free(&b); continue; }
        {   /* the block's centre over the triangle, sunk up to 0.2 below its plane */
            double u = tu_uniform(&seed), v = tu_uniform(&seed);
            ct_vec3 p, n = m.normals[0];
            if (u + v > 1) { u = 1 - u; v = 1 - v; }
            p = ct_vec3_add(tri[0], ct_vec3_add(ct_vec3_scale(ct_vec3_sub(tri[1], tri[0]), (ct_real)u),
                                                ct_vec3_scale(ct_vec3_sub(tri[2], tri[0]), (ct_real)v)));
            xb.p = ct_vec3_add(p, ct_vec3_scale(n, (ct_real)(0.3 - 0.2 * tu_uniform(&seed))));
            xb.p = ct_vec3_add(xb.p, tu_vec(0.4 * tu_uniform(&seed) - 0.2, 0.4 * tu_uniform(&seed) - 0.2, 0));
        }
        cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &b, &xb, NULL, &out), CT_OK);
        cr_assert_eq(ct_contact_facet_hull(tri, &b, &xb, 0, NULL, &c), CT_OK);
        if (c.found && c.volume > 1e-6) {
            double d;
            cr_assert_eq(out.count, 1, "trial %d: %d contacts", trial, out.count);
            d = w_diff(&out.contacts[0], &c, 1, 0);
            cr_expect_leq(d, tol, "trial %d: differs by %g", trial, d);
            gaps += fabs((double)(out.contacts[0].gap - c.gap)) <= tol;
            cr_expect_eq(out.contacts[0].face_a, 0);
            ++compared;
        } else if (!c.found) {
            cr_expect_eq(out.count, 0, "trial %d", trial);
        }
        ct_mesh_free(&m);
        ct_hull_free(&b);
    }
    cr_expect_geq(compared, 100, "only %d overlapping trials", compared);
    /* the gap: the same chord; where the chord is no measure the polar path takes EPA and we
       the depth below the wall's plane */
    cr_expect_geq(gaps, compared * 9 / 10, "gap agreed in %d of %d", gaps, compared);
    ct_wall_contacts_free(&out);
}

/* ---- shared edges ------------------------------------------------------------------------ */
/* A 0.6 x 0.4 x 0.5 box, turned 30 degrees about z, resting across the diagonal of the square
   [0, 2]^2 (two triangles), sunk by delta: the overlap is the slab of its footprint S = 0.24. */
Test(wall, block_across_shared_edge_of_flat_wall_is_one_contact) {
    ct_vec3 v[4];
    int t[6] = { 0, 1, 2, 0, 2, 3 }, k;
    ct_mesh m;
    ct_hull box = w_box(0.3, 0.2, 0.25, tu_vec(0, 0, 0));
    double delta = 0.05, S = 0.24, tol = TU_FLOAT ? 1e-4 : 1e-10;
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(W_PI / 6), tu_vec(1, 1, 0.25 - delta));
    ct_wall_contacts out;
    ct_contact c;
    v[0] = tu_vec(0, 0, 0); v[1] = tu_vec(2, 0, 0); v[2] = tu_vec(2, 2, 0); v[3] = tu_vec(0, 2, 0);
    cr_assert_eq(ct_mesh_build(v, 4, t, 2, NULL, &m), CT_OK);
    for (k = 0; k < 2; ++k) {   /* each facet alone does see the block */
        ct_vec3 tri[3] = { v[t[3 * k]], v[t[3 * k + 1]], v[t[3 * k + 2]] };
        cr_assert_eq(ct_contact_facet_hull(tri, &box, &xb, 0, NULL, &c), CT_OK);
        cr_expect(c.found && c.volume > 0.1 * S * delta);
    }
    memset(&out, 0, sizeof out);
    cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &box, &xb, NULL, &out), CT_OK);
    cr_assert_eq(out.count, 1, "%d contacts", out.count);
    c = out.contacts[0];
    cr_expect_leq(fabs(c.volume - S * delta), tol);
    cr_expect_leq(fabs(c.area - (S + delta)), tol, "area %g", (double)c.area);   /* (2 S + perimeter 2 x delta) / 2 */
    cr_expect_leq(fabs(c.gap + delta), tol);
    cr_expect_leq(w_dist(c.normal, tu_vec(0, 0, 1)), tol);
    cr_expect_leq(w_dist(c.point, tu_vec(1, 1, -delta / 2)), tol);
    cr_expect_leq(w_dist(c.centroid, tu_vec(1, 1, -delta / 2)), tol);
    cr_expect(c.face_a == 0 || c.face_a == 1);
    cr_expect_geq(c.face_b, 0);
    cr_expect_lt(box.planes[c.face_b].n.z, -0.99);   /* the box's bottom */
    ct_wall_contacts_free(&out);
    ct_mesh_free(&m);
    ct_hull_free(&box);
}

/* A roof (ridge along y at height 0.5 over x = 0, slopes to z = 0 at x = +-1) and a valley
   (the same upside down); a flat 0.8 x 0.6 x 0.2 box pressed on the ridge, and one sitting in
   the valley, touch both slopes: two contacts each, with the slopes' sides of the normals. */
Test(wall, convex_ridge_and_concave_crease_give_two_contacts) {
    int t[12] = { 0, 2, 3, 0, 3, 1, 2, 4, 5, 2, 5, 3 }, pass;
    ct_hull box = w_box(0.4, 0.3, 0.1, tu_vec(0, 0, 0));
    ct_wall_contacts out;
    ct_wall_contacts_init(&out, NULL);
    for (pass = 0; pass < 2; ++pass) {
        double hz = pass == 0 ? 0.5 : -0.5, base = pass == 0 ? 0 : 0.5;
        ct_vec3 v[6];
        ct_mesh m;
        ct_xform xb = ct_xform_identity();
        int k;
        v[0] = tu_vec(-1, -1, base); v[1] = tu_vec(-1, 1, base);
        v[2] = tu_vec(0, -1, base + hz); v[3] = tu_vec(0, 1, base + hz);
        v[4] = tu_vec(1, -1, base); v[5] = tu_vec(1, 1, base);
        cr_assert_eq(ct_mesh_build(v, 6, t, 4, NULL, &m), CT_OK);
        /* ridge: the box's bottom 0.05 below the ridge (it overlaps the roof for |x| < 0.1);
           valley: its bottom at z = 0.15, below the slopes z = 0.5 |x| for 0.3 < |x| <= 0.4 */
        xb.p = pass == 0 ? tu_vec(0, 0, 0.5 - 0.05 + 0.1) : tu_vec(0, 0, 0.15 + 0.1);
        cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &box, &xb, NULL, &out), CT_OK);
        cr_expect_eq(out.count, 2, "%s: %d contacts", pass == 0 ? "ridge" : "valley", out.count);
        for (k = 0; k < out.count; ++k) {
            const ct_contact *c = &out.contacts[k];
            ct_vec3 f = m.normals[c->face_a];
            cr_expect_gt(c->volume, 0);
            cr_expect_gt(ct_vec3_dot(c->normal, f), 0.9);   /* along its slope's normal */
            cr_expect_lt(c->gap, 0);
        }
        if (out.count == 2) {
            cr_expect_lt(out.contacts[0].normal.x * out.contacts[1].normal.x, 0);   /* one per slope */
            /* mirror symmetry x -> -x */
            cr_expect_leq(fabs((double)(out.contacts[0].volume - out.contacts[1].volume)), TU_FLOAT ? 1e-6 : 1e-12);
            cr_expect_leq(fabs((double)(out.contacts[0].point.x + out.contacts[1].point.x)), TU_FLOAT ? 1e-5 : 1e-12);
        }
        ct_mesh_free(&m);
    }
    ct_wall_contacts_free(&out);
    ct_hull_free(&box);
}

/* Random blocks on a 12 x 12 floor of 0.25 cells (288 triangles) against the floor as one
   box 3 x 3 x 2 deep, the whole scene placed by a random rigid motion: one contact, equal to
   ct_contact_hulls(box, block). */
Test(wall, random_blocks_on_tessellated_floor_equal_one_big_box) {
    unsigned long long seed = 99;
    ct_mesh m = w_floor(12, 0.25);
    ct_hull big = w_box(1.5, 1.5, 1, tu_vec(1.5, 1.5, -1));
    ct_wall_contacts out;
    ct_scratch s;
    int trial, gaps = 0, n = 0;
    double tol = TU_FLOAT ? 2e-3 : 1e-8;
    ct_wall_contacts_init(&out, NULL);
    ct_scratch_init(&s, NULL);
    for (trial = 0; trial < 200; ++trial) {
        ct_hull b = w_sphere_hull(&seed, 20, 0.2 + 0.2 * tu_uniform(&seed));
        ct_xform xm = tu_random_xform(&seed, 5), rb = tu_random_xform(&seed, 0), xb;
        ct_aabb bb;
        ct_contact c;
        int i, j;
        rb.p = tu_vec(0.5 + 2 * tu_uniform(&seed), 0.5 + 2 * tu_uniform(&seed), 0);
        bb = ct_hull_aabb(&b, &rb);
        rb.p.z = -bb.lo.z - (ct_real)(0.01 + 0.1 * tu_uniform(&seed));   /* lowest point below the floor */
        xb = rb;   /* xb = xm * rb */
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) xb.r[i][j] = xm.r[i][0] * rb.r[0][j] + xm.r[i][1] * rb.r[1][j] + xm.r[i][2] * rb.r[2][j];
        xb.p = ct_xform_point(&xm, rb.p);
        cr_assert_eq(ct_contact_mesh_hull(&m, &xm, &b, &xb, &s, &out), CT_OK);
        cr_assert_eq(ct_contact_hulls(&big, &xm, &b, &xb, &s, &c), CT_OK);
        cr_assert(c.found);
        cr_assert_eq(out.count, 1, "trial %d: %d contacts", trial, out.count);
        {
            double d = w_diff(&out.contacts[0], &c, 1, 0);
            cr_expect_leq(d, tol, "trial %d: differs by %g", trial, d);
            gaps += fabs((double)(out.contacts[0].gap - c.gap)) <= tol;
            ++n;
        }
        ct_hull_free(&b);
    }
    cr_expect_geq(gaps, n * 9 / 10, "gap agreed in %d of %d", gaps, n);
    ct_scratch_release(&s);
    ct_wall_contacts_free(&out);
    ct_hull_free(&big);
    ct_mesh_free(&m);
}

Test(wall, bad_input_and_allocation_sweep) {
    ct_mesh m = w_floor(4, 0.5);
    ct_hull box = w_box(0.3, 0.2, 0.25, tu_vec(0, 0, 0));
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)0.3, tu_vec(1, 1, 0.2)), bad = xb;
    ct_wall_contacts out, ref;
    ct_hull empty;
    long k;
    memset(&empty, 0, sizeof empty);
    ct_wall_contacts_init(&out, NULL);
    ct_wall_contacts_init(&ref, NULL);
    cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &box, &xb, NULL, &ref), CT_OK);
    cr_assert_eq(ref.count, 1);
    cr_expect_eq(ct_contact_mesh_hull(NULL, NULL, &box, &xb, NULL, &out), CT_INVALID);
    cr_expect_eq(out.count, 0);
    cr_expect_eq(ct_contact_mesh_hull(&m, NULL, NULL, &xb, NULL, &out), CT_INVALID);
    cr_expect_eq(ct_contact_mesh_hull(&m, NULL, &empty, &xb, NULL, &out), CT_INVALID);
    cr_expect_eq(ct_contact_mesh_hull(&m, NULL, &box, &xb, NULL, NULL), CT_INVALID);
    bad.p.x = (ct_real)NAN;
    cr_expect_eq(ct_contact_mesh_hull(&m, NULL, &box, &bad, NULL, &out), CT_INVALID);
    cr_expect_eq(ct_contact_mesh_hull(&m, &bad, &box, &xb, NULL, &out), CT_INVALID);
    bad = xb;
    bad.r[0][0] = 2;
    cr_expect_eq(ct_contact_mesh_hull(&m, NULL, &box, &bad, NULL, &out), CT_INVALID);
    cr_expect_eq(out.count, 0);
    for (k = 1; k < 40; ++k) {
        tu_alloc t;
        ct_scratch s;
        ct_status st;
        tu_alloc_init(&t, k);
        ct_wall_contacts_init(&out, &t.a);
        ct_scratch_init(&s, &t.a);
        st = ct_contact_mesh_hull(&m, NULL, &box, &xb, &s, &out);
        if (st == CT_OK) {
            cr_expect_eq(out.count, 1);
            cr_expect_leq(w_diff(&out.contacts[0], &ref.contacts[0], 1, 1), 0);
        } else {
            cr_expect_eq(st, CT_NO_MEMORY, "failing allocation %ld gave %s", k, ct_status_string(st));
            cr_expect_eq(out.count, 0);
        }
        ct_wall_contacts_free(&out);
        ct_scratch_release(&s);
        cr_expect_eq(t.outstanding, 0, "failing allocation %ld: %ld blocks leaked", k, t.outstanding);
        if (st == CT_OK && t.calls < k) break;
    }
    cr_expect_lt(k, 40);
    {   /* warm: a second call with the same scratch and output allocates nothing */
        tu_alloc t;
        ct_scratch s;
        long before;
        tu_alloc_init(&t, 0);
        ct_wall_contacts_init(&out, &t.a);
        ct_scratch_init(&s, &t.a);
        cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &box, &xb, &s, &out), CT_OK);
        before = t.calls;
        cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &box, &xb, &s, &out), CT_OK);
        cr_expect_eq(t.calls, before);
        ct_wall_contacts_free(&out);
        ct_scratch_release(&s);
    }
    ct_wall_contacts_free(&ref);
    ct_hull_free(&box);
    ct_mesh_free(&m);
}

/* ---- mass properties of rounded blocks ---------------------------------------------------- */
Test(wall, rounded_mass_radius_zero_is_hull_mass) {
    unsigned long long seed = 5;
    int trial, i, j;
    for (trial = 0; trial < 20; ++trial) {
        ct_hull h = w_sphere_hull(&seed, 8 + trial, 1);
        ct_real m0, m1, I0[3][3], I1[3][3];
        ct_vec3 c0, c1;
        ct_hull_mass(&h, 2.5, &m0, &c0, I0);
        cr_assert_eq(ct_hull_rounded_mass(&h, 0, 2.5, &m1, &c1, I1), CT_OK);
        cr_expect_leq(fabs((double)(m0 - m1)), 10 * TU_EPS * m0);
        cr_expect_leq(w_dist(c0, c1), 10 * TU_EPS);
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) cr_expect_leq(fabs((double)(I0[i][j] - I1[i][j])), 10 * TU_EPS * m0);
        ct_hull_free(&h);
    }
}

/* The cube of side a rounded by r: box + 6 slabs + 12 quarter cylinders + 8 ball octants. */
Test(wall, rounded_mass_cube_closed_form) {
    double a = 1.3, r = 0.25, rho = 1.7;
    ct_vec3 c = tu_vec(0.4, -2, 7);
    ct_hull h = w_box(a / 2, a / 2, a / 2, c);
    double V = a * a * a + 6 * a * a * r + 3 * W_PI * a * r * r + 4 * W_PI * r * r * r / 3;
    double core = a * a * a * a * a / 6;
    double slabs = 2 * r * a * a * a * a / 6 + 4 * (a * a * (pow(a / 2 + r, 3) - a * a * a / 8) / 3 + r * a * a * a * a / 12);
    double edges_z = 4 * a * (a * a / 2 * (W_PI / 2) * (r * r / 2) + a * 2 * r * r * r / 3 + W_PI / 2 * r * r * r * r / 4);
    double edges_xy = 8 * ((a * a * a / 12) * (W_PI * r * r / 4) +
                           a * (a * a / 4 * W_PI * r * r / 4 + a * r * r * r / 3 + W_PI * r * r * r * r / 16));
    double verts = 8 * (a * a * W_PI * r * r * r / 12 + a * r * r * r * r / 4 * W_PI / 2 + r * r * r * r * r / 5 * W_PI / 3);
    double Izz = rho * (core + slabs + edges_z + edges_xy + verts), tol = TU_FLOAT ? 1e-5 : 1e-12;
    ct_real m, I[3][3];
    ct_vec3 cen;
    int i, j;
    cr_assert_eq(ct_hull_rounded_mass(&h, (ct_real)r, (ct_real)rho, &m, &cen, I), CT_OK);
    cr_expect_leq(fabs(m - rho * V), tol * rho * V, "mass %.15g vs %.15g", (double)m, rho * V);
    cr_expect_leq(fabs((double)(ct_hull_rounded_volume(&h, (ct_real)r) - V)), tol * V);
    cr_expect_leq(w_dist(cen, c), tol);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j)
            cr_expect_leq(fabs(I[i][j] - (i == j ? Izz : 0)), tol * Izz, "I[%d][%d] %.15g vs %.15g", i, j, (double)I[i][j],
                          i == j ? Izz : 0.0);
    ct_hull_free(&h);
}

/* Monte Carlo: points uniform in the grown box, inside when within r of the hull (GJK). Each
   estimate (volume, first and second moments) within 3 sigma of the closed forms. */
Test(wall, rounded_mass_random_blocks_monte_carlo) {
    unsigned long long seed = 31;
    int trial;
    for (trial = 0; trial < 3; ++trial) {
        ct_hull h = w_sphere_hull(&seed, 12 + 4 * trial, 1);
        double r = 0.15 + 0.1 * trial, lo[3], hi[3], box, acc[10], acc2[10], mean[10], ref[10];
        ct_aabb bb = ct_hull_aabb(&h, NULL);
        ct_real m, I[3][3];
        ct_vec3 cen;
        ct_shape sh = ct_shape_hull(&h);
        long i, N = 100000;
        int k, bad = 0;
        cr_assert_eq(ct_hull_rounded_mass(&h, (ct_real)r, 1, &m, &cen, I), CT_OK);
        cr_expect_leq(fabs((double)(m - ct_hull_rounded_volume(&h, (ct_real)r))), (TU_FLOAT ? 1e-5 : 1e-12) * m);
        lo[0] = bb.lo.x - r; lo[1] = bb.lo.y - r; lo[2] = bb.lo.z - r;
        hi[0] = bb.hi.x + r; hi[1] = bb.hi.y + r; hi[2] = bb.hi.z + r;
        box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
        memset(acc, 0, sizeof acc);
        memset(acc2, 0, sizeof acc2);
        for (i = 0; i < N; ++i) {
            double p[3], f[10];
            ct_shape pt;
            ct_xform xp = ct_xform_identity();
            ct_distance d;
            for (k = 0; k < 3; ++k) p[k] = lo[k] + (hi[k] - lo[k]) * tu_uniform(&seed);
            pt = ct_shape_sphere(0);
            xp.p = tu_vec(p[0], p[1], p[2]);
            cr_assert_eq(ct_gjk(&sh, NULL, &pt, &xp, NULL, &d), CT_OK);
            if (d.distance > r) continue;
            f[0] = 1; f[1] = p[0]; f[2] = p[1]; f[3] = p[2];
            f[4] = p[0] * p[0]; f[5] = p[1] * p[1]; f[6] = p[2] * p[2];
            f[7] = p[0] * p[1]; f[8] = p[0] * p[2]; f[9] = p[1] * p[2];
            for (k = 0; k < 10; ++k) { acc[k] += f[k]; acc2[k] += f[k] * f[k]; }
        }
        {   /* the closed forms' raw moments about the origin: V, V c, second moments */
            double V = (double)m, c[3] = { (double)cen.x, (double)cen.y, (double)cen.z }, C[3][3];
            int a, b;
            for (a = 0; a < 3; ++a)
                for (b = 0; b < 3; ++b) {
                    double tr = (double)(I[0][0] + I[1][1] + I[2][2]) / 2;   /* I = tr(C) 1 - C: C = tr(I)/2 1 - I */
                    C[a][b] = (a == b ? tr : 0) - (double)I[a][b] + V * c[a] * c[b];
                }
            ref[0] = V; ref[1] = V * c[0]; ref[2] = V * c[1]; ref[3] = V * c[2];
            ref[4] = C[0][0]; ref[5] = C[1][1]; ref[6] = C[2][2]; ref[7] = C[0][1]; ref[8] = C[0][2]; ref[9] = C[1][2];
        }
        for (k = 0; k < 10; ++k) {
            double mu = acc[k] / N, var = acc2[k] / N - mu * mu, sig = box * sqrt(var / N);
            mean[k] = box * mu;
            if (!(fabs(mean[k] - ref[k]) <= 3 * sig + 1e-12)) ++bad;
            cr_expect_leq(fabs(mean[k] - ref[k]), 4 * sig + 1e-12, "trial %d moment %d: %g vs %g (sigma %g)", trial, k,
                          mean[k], ref[k], sig);
        }
        cr_expect_leq(bad, 2, "trial %d: %d of 10 moments beyond 3 sigma", trial, bad);
        ct_hull_free(&h);
    }
}

Test(wall, rounded_mass_bad_input) {
    ct_hull h = w_box(0.5, 0.5, 0.5, tu_vec(0, 0, 0)), empty;
    ct_real m = 1, I[3][3];
    ct_vec3 c;
    memset(&empty, 0, sizeof empty);
    cr_expect_eq(ct_hull_rounded_mass(NULL, 0.1, 1, &m, &c, I), CT_INVALID);
    cr_expect_eq(m, 0);
    cr_expect_eq(ct_hull_rounded_mass(&empty, 0.1, 1, &m, &c, I), CT_INVALID);
    cr_expect_eq(ct_hull_rounded_mass(&h, -0.1, 1, &m, &c, I), CT_INVALID);
    cr_expect_eq(ct_hull_rounded_mass(&h, (ct_real)NAN, 1, &m, &c, I), CT_INVALID);
    cr_expect_eq(ct_hull_rounded_mass(&h, (ct_real)INFINITY, 1, &m, &c, I), CT_INVALID);
    cr_expect_eq(ct_hull_rounded_mass(&h, 0.1, (ct_real)NAN, &m, &c, I), CT_INVALID);
    cr_expect_eq(m, 0);
    cr_expect_eq(ct_hull_rounded_mass(&h, 0.1, 1, NULL, NULL, NULL), CT_OK);
    ct_hull_free(&h);
}

/* A cube wholly behind a flat two-triangle wall (its top 0.1 below the plane, across the shared
   edge): one contact, the whole cube; no wall face bounds the chord, so gap = minus the depth
   of its deepest point below the wall's plane (the push out of the wall's side), as the
   prism's EPA depth of ct_contact_facet_hull on one big facet. */
Test(wall, block_wholly_behind_the_wall) {
    ct_vec3 v[4], big[3];
    int t[6] = { 0, 1, 2, 0, 2, 3 };
    ct_mesh m;
    ct_hull box = w_box(0.2, 0.2, 0.2, tu_vec(0, 0, 0));
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)0.5, tu_vec(1, 1, -0.3));
    ct_wall_contacts out;
    ct_contact c;
    double tol = TU_FLOAT ? 1e-4 : 1e-10;
    v[0] = tu_vec(0, 0, 0); v[1] = tu_vec(2, 0, 0); v[2] = tu_vec(2, 2, 0); v[3] = tu_vec(0, 2, 0);
    big[0] = tu_vec(-10, -10, 0); big[1] = tu_vec(10, -10, 0); big[2] = tu_vec(0, 10, 0);
    cr_assert_eq(ct_mesh_build(v, 4, t, 2, NULL, &m), CT_OK);
    ct_wall_contacts_init(&out, NULL);
    cr_assert_eq(ct_contact_mesh_hull(&m, NULL, &box, &xb, NULL, &out), CT_OK);
    cr_assert_eq(out.count, 1);
    cr_expect_leq(fabs(out.contacts[0].volume - 0.064), tol);
    cr_expect_leq(fabs(out.contacts[0].gap + 0.5), tol, "gap %g", (double)out.contacts[0].gap);
    cr_expect_leq(w_dist(out.contacts[0].normal, tu_vec(0, 0, 1)), tol);
    cr_expect_leq(w_dist(out.contacts[0].centroid, tu_vec(1, 1, -0.3)), tol);
    cr_assert_eq(ct_contact_facet_hull(big, &box, &xb, 0, NULL, &c), CT_OK);
    cr_expect_leq(fabs((double)(c.gap - out.contacts[0].gap)), tol);
    cr_expect_leq(fabs((double)(c.volume - out.contacts[0].volume)), tol);
    ct_wall_contacts_free(&out);
    ct_mesh_free(&m);
    ct_hull_free(&box);
}
