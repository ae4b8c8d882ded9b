/* Triangle meshes and heightfields (issue #19): ct_mesh_build, ct_mesh_heightfield and
   ct_manifold_hull_mesh against independent oracles.
   - adjacency and active flags against the geometry (flat grid: interior edges and vertices
     internal, boundary active; a convex ridge active, a concave valley internal);
   - the tree against brute force: the union over every triangle (no tree) of its contacts
     computed on its own one-ring patch (which has the same flags) equals the full answer;
   - every point: the hull-side point (point - sep/2 n) on the hull's surface and the mesh-side
     point (point + sep/2 n) on its triangle (closed-form point-triangle distance);
   - the sliding box: over flat tessellated floors (a regular heightfield and an irregular
     triangulation), 2000 positions with random rotation about the vertical, every normal is
     the floor's within 1 degree, one manifold of the 4 bottom corners with the closed-form
     separation; a box across a shared edge gets no duplicate point;
   - convex ridge: an edge-edge contact keeps its (legitimate) normal and closed-form depth;
   - one triangle against ct_signed_distance (separation a lower bound, equal over the face);
   - bad input, allocation-failure sweep, scale/translation invariance, threads. */
#include "contact.h"
#include "testutil.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MS_TOL (TU_FLOAT ? 2e-4 : 1e-9)
/* a corner may be merged with an edge crossing within CT__MESH_DUP (1e-9, float 2e-4) x the
   scale (about 10 here) */
#define MS_CORNER (TU_FLOAT ? 5e-3 : 1e-8)

static ct_xform ms_xf(ct_vec3 axis, double angle, ct_vec3 p) { return ct_xform_from_axis_angle(axis, (ct_real)angle, p); }
static ct_vec3 ms_v(double x, double y, double z) { return tu_vec(x, y, z); }

/* Closest point of triangle abc to p (Ericson 5.1.5), in double. */
static double ms_tri_dist(ct_vec3 P, ct_vec3 A, ct_vec3 B, ct_vec3 C) {
    double p[3] = { P.x, P.y, P.z }, a[3] = { A.x, A.y, A.z }, b[3] = { B.x, B.y, B.z }, c[3] = { C.x, C.y, C.z };
    double ab[3], ac[3], ap[3], bp[3], cp[3], q[3], d1, d2, d3, d4, d5, d6, va, vb, vc, v, w, den;
    int i;
    for (i = 0; i < 3; ++i) { ab[i] = b[i] - a[i]; ac[i] = c[i] - a[i]; ap[i] = p[i] - a[i]; bp[i] = p[i] - b[i]; cp[i] = p[i] - c[i]; }
#define D3(x, y) (x[0] * y[0] + x[1] * y[1] + x[2] * y[2])
    d1 = D3(ab, ap); d2 = D3(ac, ap); d3 = D3(ab, bp); d4 = D3(ac, bp); d5 = D3(ab, cp); d6 = D3(ac, cp);
    if (d1 <= 0 && d2 <= 0) { for (i = 0; i < 3; ++i) q[i] = a[i]; }
    else if (d3 >= 0 && d4 <= d3) { for (i = 0; i < 3; ++i) q[i] = b[i]; }
    else if (d6 >= 0 && d5 <= d6) { for (i = 0; i < 3; ++i) q[i] = c[i]; }
    else if ((vc = d1 * d4 - d3 * d2) <= 0 && d1 >= 0 && d3 <= 0) { v = d1 / (d1 - d3); for (i = 0; i < 3; ++i) q[i] = a[i] + v * ab[i]; }
    else if ((vb = d5 * d2 - d1 * d6) <= 0 && d2 >= 0 && d6 <= 0) { w = d2 / (d2 - d6); for (i = 0; i < 3; ++i) q[i] = a[i] + w * ac[i]; }
    else if ((va = d3 * d6 - d5 * d4) <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (i = 0; i < 3; ++i) q[i] = b[i] + w * (c[i] - b[i]);
    } else {
        den = 1 / (va + vb + vc); v = vb * den; w = vc * den;
        for (i = 0; i < 3; ++i) q[i] = a[i] + ab[i] * v + ac[i] * w;
    }
#undef D3
    return sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

/* Largest plane value of world point p over the hull's faces (0 on the surface). */
static double ms_hull_plane_max(const ct_hull *h, const ct_xform *x, ct_vec3 p) {
    ct_vec3 l = ct_xform_inv_point(x, p);
    double best = -1e300;
    int f;
    for (f = 0; f < h->nfaces; ++f) {
        double s = (double)h->planes[f].n.x * l.x + (double)h->planes[f].n.y * l.y + (double)h->planes[f].n.z * l.z + h->planes[f].d;
        if (s > best) best = s;
    }
    return best;
}

static ct_mesh ms_grid(int nx, int ny, double dx, double amp, unsigned long long seed) {
    ct_real *h = (ct_real *)malloc(sizeof(ct_real) * (size_t)(nx * ny));
    ct_mesh m;
    int i;
    for (i = 0; i < nx * ny; ++i) h[i] = (ct_real)(amp * (tu_uniform(&seed) - 0.5));
    cr_assert_eq(ct_mesh_heightfield(h, nx, ny, (ct_real)dx, (ct_real)dx, NULL, &m), CT_OK);
    free(h);
    return m;
}

/* Checks every point of c: hull-side point on the hull's surface, mesh-side point on its
   triangle, unit normals, manifold bookkeeping. */
static void ms_check_points(const ct_hull *h, const ct_xform *xa, const ct_mesh *m, const ct_xform *xm,
                            const ct_mesh_contacts *c, double L) {
    int i, j;
    for (i = 0; i < c->npoints; ++i) {
        const ct_mesh_point *p = &c->points[i];
        ct_vec3 pa = ct__madd(p->point, p->normal, -p->separation / 2), pb = ct__madd(p->point, p->normal, p->separation / 2);
        ct_vec3 t[3];
        int k;
        cr_assert(fabs(ct__len(p->normal) - 1) < MS_TOL * 10, "normal not unit");
        cr_assert(fabs(ms_hull_plane_max(h, xa, pa)) <= MS_TOL * L * 10, "point %d: hull side %g off the hull", i,
                  ms_hull_plane_max(h, xa, pa));
        for (k = 0; k < 3; ++k) t[k] = ct_xform_point(xm, m->verts[m->tris[3 * p->triangle + k]]);
        cr_assert(ms_tri_dist(pb, t[0], t[1], t[2]) <= MS_TOL * L * 10, "point %d: mesh side %g off triangle %d", i,
                  ms_tri_dist(pb, t[0], t[1], t[2]), p->triangle);
        if (i > 0)
            cr_assert(c->points[i - 1].triangle < p->triangle ||
                      (c->points[i - 1].triangle == p->triangle && c->points[i - 1].id < p->id), "points not sorted");
    }
    for (j = 0; j < c->nmanifolds; ++j) {
        const ct_manifold *mf = &c->manifolds[j];
        int n = 0;
        cr_assert(mf->count >= 1 && mf->count <= CT_MANIFOLD_MAX);
        for (i = 0; i < c->npoints; ++i) n += c->points[i].manifold == j;
        cr_assert_eq(n, mf->count, "manifold %d: %d points marked, count %d", j, n, mf->count);
        for (i = 1; i < mf->count; ++i) cr_assert(mf->points[i - 1].id < mf->points[i].id);
    }
}

Test(mesh, flat_grid_adjacency_and_flags_match_geometry) {
    ct_mesh m = ms_grid(6, 5, 0.5, 0, 1);
    int t, k, interior_seen = 0;
    cr_assert_eq(m.ntris, 2 * 5 * 4);
    for (t = 0; t < m.ntris; ++t) {
        cr_assert(fabs(m.normals[t].z - 1) < MS_TOL);
        for (k = 0; k < 3; ++k) {
            int u = m.adj[3 * t + k], a = m.tris[3 * t + k], b = m.tris[3 * t + (k + 1) % 3], j, back = 0;
            ct_vec3 pa = m.verts[a], pb = m.verts[b];
            /* an edge on the grid's border: both ends on the same border line */
            int border = (pa.x == 0 && pb.x == 0) || (pa.y == 0 && pb.y == 0) || (pa.x == (ct_real)2.5 && pb.x == (ct_real)2.5) ||
                         (pa.y == 2 && pb.y == 2);
            cr_assert_eq(u < 0, border, "tri %d edge %d: adjacency %d, border %d", t, k, u, border);
            cr_assert_eq((m.flags[t] >> k) & 1, border ? 1 : 0, "flat edges are internal, borders active");
            if (u >= 0)
                for (j = 0; j < 3; ++j) back += m.adj[3 * u + j] == t;
            cr_assert(u < 0 || back == 1, "adjacency not symmetric");
        }
        for (k = 0; k < 3; ++k) {
            ct_vec3 v = m.verts[m.tris[3 * t + k]];
            int onb = v.x == 0 || v.y == 0 || v.x == (ct_real)2.5 || v.y == 2;
            cr_assert_eq((m.flags[t] >> (3 + k)) & 1, onb ? 1 : 0, "vertex flag");
            interior_seen += !onb;
        }
    }
    cr_assert(interior_seen > 0);
    ct_mesh_free(&m);
}

/* Two triangles sharing edge (0,0,0)-(1,0,0)... along x; the far vertices at (.,+-1, z). */
static ct_mesh ms_fold(double z) {
    ct_vec3 v[4];
    int tris[6] = { 0, 1, 2, 1, 0, 3 };
    ct_mesh m;
    v[0] = ms_v(-2, 0, 0); v[1] = ms_v(2, 0, 0); v[2] = ms_v(0, 1, z); v[3] = ms_v(0, -1, z);
    cr_assert_eq(ct_mesh_build(v, 4, tris, 2, NULL, &m), CT_OK);
    return m;
}

Test(mesh, ridge_is_active_valley_and_flat_are_internal) {
    ct_mesh ridge = ms_fold(-1), valley = ms_fold(1), flat = ms_fold(0), shallow = ms_fold(-0.01);
    cr_assert_eq(ridge.adj[0], 1);
    cr_assert_eq(ridge.adj[3], 0);
    cr_assert(ridge.flags[0] & 1u, "convex 90-degree ridge: active");
    cr_assert(!(valley.flags[0] & 1u), "concave: internal");
    cr_assert(!(flat.flags[0] & 1u), "flat: internal");
    /* 0.01 rad on each side: 1.15 degrees between the normals, above the 1 degree threshold */
    cr_assert(shallow.flags[0] & 1u);
    ct_mesh_free(&ridge); ct_mesh_free(&valley); ct_mesh_free(&flat); ct_mesh_free(&shallow);
}

Test(mesh, convex_ridge_keeps_edge_normal_with_closed_form_depth) {
    ct_mesh m = ms_fold(-1);
    ct_hull box;
    ct_mesh_contacts c;
    double h = 0.6, s;
    ct_xform x = ms_xf(ms_v(0, 1, 0), M_PI / 4, ms_v(0.1, 0, h));
    cr_assert_eq(ct_hull_box(ms_v(0.5, 0.5, 0.5), NULL, &box), CT_OK);
    ct_mesh_contacts_init(&c, NULL);
    cr_assert_eq(ct_manifold_hull_mesh(&box, &x, &m, NULL, 0, &c), CT_OK);
    /* the box's bottom edge (along y) crosses the ridge (along x): edge-edge, normal -z */
    cr_assert_eq(c.nmanifolds, 1, "%d manifolds", c.nmanifolds);
    cr_assert(fabs(c.manifolds[0].normal.z + 1) < MS_TOL, "normal (%g %g %g)", c.manifolds[0].normal.x,
              c.manifolds[0].normal.y, c.manifolds[0].normal.z);
    s = h - 0.5 * sqrt(2.0);
    cr_assert(fabs(c.manifolds[0].points[c.manifolds[0].deepest].separation - s) < MS_TOL, "separation %g, expected %g",
              c.manifolds[0].points[0].separation, s);
    ms_check_points(&box, &x, &m, NULL, &c, 2);
    ct_mesh_contacts_free(&c);
    ct_hull_free(&box);
    ct_mesh_free(&m);
}

Test(mesh, valley_gives_both_face_normals) {
    ct_mesh m = ms_fold(1);
    ct_hull box;
    ct_mesh_contacts c = { 0 };
    int i, seen[2] = { 0, 0 };
    ct_xform x = ms_xf(ms_v(1, 0, 0), M_PI / 4, ms_v(0, 0, 0.5 * sqrt(2.0) - 0.05));
    cr_assert_eq(ct_hull_box(ms_v(0.5, 0.5, 0.5), NULL, &box), CT_OK);
    cr_assert_eq(ct_manifold_hull_mesh(&box, &x, &m, NULL, 0, &c), CT_OK);
    cr_assert_eq(c.nmanifolds, 2);
    for (i = 0; i < 2; ++i) {
        ct_vec3 n = c.manifolds[i].normal;
        cr_assert(fabs(n.x) < MS_TOL && fabs(fabs(n.y) - sqrt(0.5)) < MS_TOL && fabs(n.z + sqrt(0.5)) < MS_TOL);
        seen[n.y > 0] = 1;
        cr_assert_eq(c.manifolds[i].count, 4, "a box face lying on each slope, inside its triangle");
    }
    cr_assert(seen[0] && seen[1]);
    ms_check_points(&box, &x, &m, NULL, &c, 2);
    ct_mesh_contacts_free(&c);
    ct_hull_free(&box);
    ct_mesh_free(&m);
}

/* A flat floor at z = 0 over [0, 10]^2 (regular grid, or jittered interior vertices with
   random diagonals), the box sliding with random yaw: every normal the floor's. */
static void ms_slide(const ct_mesh *m, unsigned long long seed, int trials) {
    ct_hull box;
    ct_mesh_contacts c;
    ct_vec3 half = ms_v(0.7, 0.45, 0.3);
    int k, i, j;
    double worst = 0, cos1 = cos(M_PI / 180);
    cr_assert_eq(ct_hull_box(half, NULL, &box), CT_OK);
    ct_mesh_contacts_init(&c, NULL);
    for (k = 0; k < trials; ++k) {
        double yaw = 2 * M_PI * tu_uniform(&seed), pen = 0.02 * tu_uniform(&seed);
        ct_xform x = ms_xf(ms_v(0, 0, 1), yaw, ms_v(1.5 + 7 * tu_uniform(&seed), 1.5 + 7 * tu_uniform(&seed), 0.3 - pen));
        cr_assert_eq(ct_manifold_hull_mesh(&box, &x, m, NULL, 0, &c), CT_OK);
        for (i = 0; i < c.npoints; ++i) {
            double d = -c.points[i].normal.z;
            cr_assert(d >= cos1, "trial %d: normal (%g %g %g) deviates %g degrees", k, c.points[i].normal.x, c.points[i].normal.y,
                      c.points[i].normal.z, acos(d < 1 ? d : 1) * 180 / M_PI);
            worst = fmax(worst, acos(d < 1 ? d : 1));
        }
        cr_assert_eq(c.nmanifolds, 1, "trial %d: %d manifolds", k, c.nmanifolds);
        cr_assert_eq(c.manifolds[0].count, 4, "trial %d: %d points", k, c.manifolds[0].count);
        /* the four bottom corners, separation -pen */
        for (i = 0; i < 4; ++i) {
            const ct_manifold_point *p = &c.manifolds[0].points[i];
            int hit = 0;
            cr_assert(fabs(p->separation + pen) < MS_TOL, "separation %g, expected %g", p->separation, -pen);
            for (j = 0; j < 4; ++j) {
                ct_vec3 corner = ct_xform_point(&x, ms_v(j & 1 ? 0.7 : -0.7, j & 2 ? 0.45 : -0.45, -0.3));
                hit += ct__dist(ct__madd(p->point, c.manifolds[0].normal, -p->separation / 2), corner) < MS_CORNER;
            }
            cr_assert_eq(hit, 1, "trial %d: point %d is not a bottom corner", k, i);
        }
        /* no duplicates among all points */
        for (i = 0; i < c.npoints; ++i)
            for (j = 0; j < i; ++j) cr_assert(ct__dist(c.points[i].point, c.points[j].point) > MS_TOL, "duplicate point");
        ms_check_points(&box, &x, m, NULL, &c, 2);
    }
    cr_log_info("sliding box: worst normal deviation %.3g degrees over %d positions", worst * 180 / M_PI, trials);
    ct_mesh_contacts_free(&c);
    ct_hull_free(&box);
}

Test(mesh, sliding_box_on_flat_heightfield_never_catches_an_edge) {
    ct_mesh m = ms_grid(21, 21, 0.5, 0, 3);
    ms_slide(&m, 11, 2000);
    ct_mesh_free(&m);
}

Test(mesh, sliding_box_on_irregular_flat_triangulation) {
    enum { N = 15 };
    ct_vec3 v[N * N];
    int tris[6 * (N - 1) * (N - 1)], i, j, k = 0;
    unsigned long long s = 5;
    ct_mesh m;
    for (j = 0; j < N; ++j)
        for (i = 0; i < N; ++i) {
            double jx = (i > 0 && i < N - 1) ? 0.25 * (tu_uniform(&s) - 0.5) : 0, jy = (j > 0 && j < N - 1) ? 0.25 * (tu_uniform(&s) - 0.5) : 0;
            v[j * N + i] = ms_v((i + jx) * 10.0 / (N - 1), (j + jy) * 10.0 / (N - 1), 0);
        }
    for (j = 0; j + 1 < N; ++j)
        for (i = 0; i + 1 < N; ++i) {
            int p = j * N + i;
            if (tu_uniform(&s) < 0.5) {
                tris[k++] = p; tris[k++] = p + 1; tris[k++] = p + N + 1;
                tris[k++] = p; tris[k++] = p + N + 1; tris[k++] = p + N;
            } else {
                tris[k++] = p; tris[k++] = p + 1; tris[k++] = p + N;
                tris[k++] = p + 1; tris[k++] = p + N + 1; tris[k++] = p + N;
            }
        }
    cr_assert_eq(ct_mesh_build(v, N * N, tris, k / 3, NULL, &m), CT_OK);
    ms_slide(&m, 12, 2000);
    ct_mesh_free(&m);
}

Test(mesh, box_across_shared_edge_has_no_duplicates) {
    ct_vec3 v[4];
    int tris[6] = { 0, 1, 2, 0, 2, 3 }, k;
    ct_mesh m;
    ct_hull box;
    ct_mesh_contacts c = { 0 };
    v[0] = ms_v(-2, -2, 0); v[1] = ms_v(2, -2, 0); v[2] = ms_v(2, 2, 0); v[3] = ms_v(-2, 2, 0);
    cr_assert_eq(ct_mesh_build(v, 4, tris, 2, NULL, &m), CT_OK);
    cr_assert_eq(ct_hull_box(ms_v(0.5, 0.5, 0.5), NULL, &box), CT_OK);
    for (k = 0; k < 8; ++k) {
        /* k = 0: two corners exactly on the diagonal (the shared edge) */
        ct_xform x = ms_xf(ms_v(0, 0, 1), k * M_PI / 8, ms_v(0, 0, 0.5 - 0.01));
        int i, j;
        cr_assert_eq(ct_manifold_hull_mesh(&box, &x, &m, NULL, 0, &c), CT_OK);
        cr_assert_eq(c.nmanifolds, 1);
        cr_assert_eq(c.manifolds[0].count, 4);
        cr_assert(c.npoints >= 4 && c.npoints <= 8, "%d points", c.npoints); /* corners + edge crossings */
        for (i = 0; i < c.npoints; ++i)
            for (j = 0; j < i; ++j)
                cr_assert(ct__dist(c.points[i].point, c.points[j].point) > 1e-3, "yaw %d: points %d and %d coincide", k, i, j);
        ms_check_points(&box, &x, &m, NULL, &c, 2);
    }
    ct_mesh_contacts_free(&c);
    ct_hull_free(&box);
    ct_mesh_free(&m);
}

/* The triangles sharing a vertex with t, t first: t's flags in this patch are its flags in m,
   and the patch's deduplication (which keeps the first triangle's points) leaves t's points
   as the per-triangle routine made them. */
static void ms_patch(const ct_mesh *m, int t, ct_mesh *out) {
    int *tr = (int *)malloc(sizeof(int) * 3 * (size_t)m->ntris), u, k, j, n = 1;
    for (k = 0; k < 3; ++k) tr[k] = m->tris[3 * t + k];
    for (u = 0; u < m->ntris; ++u) {
        int share = 0;
        for (k = 0; k < 3; ++k)
            for (j = 0; j < 3; ++j) share |= m->tris[3 * u + k] == m->tris[3 * t + j];
        if (!share || u == t) continue;
        for (k = 0; k < 3; ++k) tr[3 * n + k] = m->tris[3 * u + k];
        ++n;
    }
    cr_assert_eq(ct_mesh_build(m->verts, m->nverts, tr, n, NULL, out), CT_OK);
    cr_assert_eq(out->flags[0], m->flags[t], "triangle %d: flags %x in its patch, %x in the mesh", t, out->flags[0], m->flags[t]);
    free(tr);
}

Test(mesh, tree_and_dedup_match_per_triangle_brute_force) {
    ct_mesh m = ms_grid(9, 9, 0.5, 0.4, 21);
    ct_hull hull;
    ct_vec3 pts[24];
    unsigned long long s = 77;
    int trial, i, total = 0, dropped = 0;
    for (i = 0; i < 24; ++i) pts[i] = ct__scale(tu_random_unit(&s), (ct_real)(0.4 + 0.4 * tu_uniform(&s)));
    cr_assert_eq(ct_hull_build(pts, 24, NULL, NULL, &hull), CT_OK);
    for (trial = 0; trial < 40; ++trial) {
        ct_xform x = tu_random_xform(&s, 0);
        ct_mesh_contacts full = { 0 }, one = { 0 };
        ct_mesh_point *uni = NULL;
        int nuni = 0, nkept = 0, t;
        x.p = ms_v(0.8 + 2.4 * tu_uniform(&s), 0.8 + 2.4 * tu_uniform(&s), 0.55 * tu_uniform(&s));
        cr_assert_eq(ct_manifold_hull_mesh(&hull, &x, &m, NULL, (ct_real)0.05, &full), CT_OK);
        ms_check_points(&hull, &x, &m, NULL, &full, 2);
        uni = (ct_mesh_point *)malloc(sizeof *uni * 64 * (size_t)m.ntris);
        /* brute force: every triangle (no tree), in triangle order, on its own patch */
        for (t = 0; t < m.ntris; ++t) {
            ct_mesh p;
            int k;
            ms_patch(&m, t, &p);
            cr_assert_eq(ct_manifold_hull_mesh(&hull, &x, &p, NULL, (ct_real)0.05, &one), CT_OK);
            for (k = 0; k < one.npoints; ++k)
                if (one.points[k].triangle == 0) { uni[nuni] = one.points[k]; uni[nuni++].triangle = t; }
            ct_mesh_free(&p);
        }
        /* our own deduplication of the union: a point at the place of an earlier one (the
           documented CT__MESH_DUP, 1e-9 (float 2e-4) of the scale) with the same normal goes */
        double dup_tol = (TU_FLOAT ? 2e-4 : 1e-9) * (hull.extent + ct__maxabs(hull.center) + ct__maxabs(x.p));
        for (i = 0; i < nuni; ++i) {
            int k, dup = 0;
            for (k = 0; k < nkept && !dup; ++k)
                dup = ct__dist(uni[i].point, uni[k].point) <= dup_tol && ct__dot(uni[i].normal, uni[k].normal) > 1 - MS_TOL;
            if (!dup) uni[nkept++] = uni[i];
        }
        dropped += nuni - nkept;
        cr_assert_eq(full.npoints, nkept, "trial %d: %d points, brute force %d", trial, full.npoints, nkept);
        for (i = 0; i < nkept; ++i)
            cr_assert(uni[i].triangle == full.points[i].triangle && uni[i].id == full.points[i].id && ct__dist(uni[i].point, full.points[i].point) == 0 &&
                          uni[i].separation == full.points[i].separation,
                      "trial %d: point %d differs from the brute force", trial, i);
        total += full.npoints;
        free(uni);
        ct_mesh_contacts_free(&full);
        ct_mesh_contacts_free(&one);
    }
    cr_assert(total > 40, "the placements must touch the terrain (%d points)", total);
    cr_log_info("tree vs brute force: %d points, %d duplicates removed", total, dropped);
    ct_hull_free(&hull);
    ct_mesh_free(&m);
}

Test(mesh, single_triangle_against_signed_distance) {
    ct_vec3 v[3];
    int tri[3] = { 0, 1, 2 }, k, faces = 0;
    ct_mesh m;
    ct_hull hull;
    ct_vec3 pts[20];
    unsigned long long s = 9;
    ct_shape sh, st;
    v[0] = ms_v(-3, -3, 0); v[1] = ms_v(3, -3, 0); v[2] = ms_v(0, 3, 0);
    cr_assert_eq(ct_mesh_build(v, 3, tri, 1, NULL, &m), CT_OK);
    for (k = 0; k < 20; ++k) pts[k] = tu_random_unit(&s);
    cr_assert_eq(ct_hull_build(pts, 20, NULL, NULL, &hull), CT_OK);
    sh = ct_shape_hull(&hull);
    st = ct_shape_triangle(v[0], v[1], v[2]);
    for (k = 0; k < 400; ++k) {
        ct_xform x = tu_random_xform(&s, 0);
        ct_mesh_contacts c = { 0 };
        ct_distance d;
        double best = 1e300, L = 2 * hull.extent;
        int i;
        x.p = ms_v(4 * (tu_uniform(&s) - 0.5), 4 * (tu_uniform(&s) - 0.5), (k & 1 ? 0.9 : 0.2) + (k & 1 ? 0.4 : 1.0) * tu_uniform(&s));
        cr_assert_eq(ct_signed_distance(&sh, &x, &st, NULL, NULL, NULL, &d), CT_OK);
        cr_assert_eq(ct_manifold_hull_mesh(&hull, &x, &m, NULL, (ct_real)0.3, &c), CT_OK);
        for (i = 0; i < c.npoints; ++i) best = fmin(best, c.points[i].separation);
        if (d.distance <= 0.3 - 1e-3) cr_assert(c.npoints > 0, "trial %d: distance %g within speculative, no point", k, d.distance);
        if (c.npoints == 0) continue;
        /* SAT separations bound the distance from below (overlap: within the face/edge bias) */
        cr_assert(best <= d.distance + 0.02 * fabs(d.distance) + 5e-4 * L + MS_TOL, "trial %d: separation %g > distance %g", k, best, d.distance);
        /* the lowest vertex over the triangle's interior: the face axis is exact */
        if (fabs(c.manifolds[0].normal.z + 1) < 1e-12 && c.nmanifolds == 1) {
            const ct_manifold_point *dp = &c.manifolds[0].points[c.manifolds[0].deepest];
            ct_vec3 low = ct__madd(dp->point, c.manifolds[0].normal, -dp->separation / 2);
            if (ms_tri_dist(ms_v(low.x, low.y, 0), v[0], v[1], v[2]) < 1e-12 && d.distance > 0) {
                cr_assert(fabs(best - d.distance) < MS_TOL * 10, "face contact %g vs distance %g", best, d.distance);
                ++faces;
            }
        }
        ms_check_points(&hull, &x, &m, NULL, &c, L);
        ct_mesh_contacts_free(&c);
    }
    cr_assert(faces > 20, "%d face cases", faces);
    cr_log_info("single triangle: %d exact face cases", faces);
    ct_hull_free(&hull);
    ct_mesh_free(&m);
}

Test(mesh, bad_input_is_invalid) {
    ct_vec3 v[4];
    int tris[6] = { 0, 1, 2, 0, 2, 3 }, bad[3] = { 0, 1, 4 }, neg[3] = { 0, -1, 2 }, degen[6] = { 0, 0, 1, 0, 1, 1 };
    ct_real hf[4] = { 0, 0, 0, 0 };
    ct_mesh m, ok;
    ct_hull box;
    ct_mesh_contacts c = { 0 };
    ct_xform nan_x = ct_xform_identity();
    v[0] = ms_v(0, 0, 0); v[1] = ms_v(1, 0, 0); v[2] = ms_v(1, 1, 0); v[3] = ms_v(0, 1, 0);
    cr_assert_eq(ct_mesh_build(v, 4, tris, 2, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_mesh_build(NULL, 4, tris, 2, NULL, &m), CT_INVALID);
    cr_assert_eq(m.ct__block, NULL);
    cr_assert_eq(ct_mesh_build(v, 4, NULL, 2, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_build(v, 4, tris, 0, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_build(v, 2, tris, 1, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_build(v, -4, tris, 2, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_build(v, 4, tris, -2, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_build(v, 4, bad, 1, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_build(v, 4, neg, 1, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_build(v, 4, degen, 2, NULL, &m), CT_DEGENERATE);
    cr_assert_eq(m.ct__block, NULL);
    v[1].x = (ct_real)NAN;
    cr_assert_eq(ct_mesh_build(v, 4, tris, 2, NULL, &m), CT_INVALID);
    v[1].x = (ct_real)INFINITY;
    cr_assert_eq(ct_mesh_build(v, 4, tris, 2, NULL, &m), CT_INVALID);
    v[1].x = 1;
    cr_assert_eq(ct_mesh_heightfield(NULL, 2, 2, 1, 1, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_heightfield(hf, 1, 4, 1, 1, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_heightfield(hf, 2, 2, 0, 1, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_mesh_heightfield(hf, 2, 2, 1, (ct_real)NAN, NULL, &m), CT_INVALID);
    hf[3] = (ct_real)NAN;
    cr_assert_eq(ct_mesh_heightfield(hf, 2, 2, 1, 1, NULL, &m), CT_INVALID);
    hf[3] = 0;
    cr_assert_eq(ct_mesh_heightfield(hf, 2, 2, 1, 1, NULL, NULL), CT_INVALID);

    /* a degenerate triangle among good ones: kept, flagged, never collides */
    {
        int mixed[9] = { 0, 1, 2, 0, 2, 3, 1, 1, 2 };
        cr_assert_eq(ct_mesh_build(v, 4, mixed, 3, NULL, &ok), CT_OK);
        cr_assert(ok.flags[2] & 64u);
        cr_assert_eq(ok.adj[0 * 3 + 0], -1);
    }
    cr_assert_eq(ct_hull_box(ms_v(0.2, 0.2, 0.2), NULL, &box), CT_OK);
    {
        ct_xform x = ct_xform_identity();
        int i;
        x.p = ms_v(0.5, 0.5, 0.19);
        cr_assert_eq(ct_manifold_hull_mesh(&box, &x, &ok, NULL, 0, &c), CT_OK);
        cr_assert(c.npoints > 0);
        for (i = 0; i < c.npoints; ++i) cr_assert(c.points[i].triangle != 2);
    }
    memset(&m, 0, sizeof m);
    cr_assert_eq(ct_manifold_hull_mesh(&box, NULL, &m, NULL, 0, &c), CT_INVALID);
    cr_assert_eq(c.npoints, 0);
    cr_assert_eq(ct_manifold_hull_mesh(NULL, NULL, &ok, NULL, 0, &c), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_mesh(&box, NULL, &ok, NULL, 0, NULL), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_mesh(&box, NULL, &ok, NULL, -1, &c), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_mesh(&box, NULL, &ok, NULL, (ct_real)NAN, &c), CT_INVALID);
    nan_x.p.x = (ct_real)NAN;
    cr_assert_eq(ct_manifold_hull_mesh(&box, &nan_x, &ok, NULL, 0, &c), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_mesh(&box, NULL, &ok, &nan_x, 0, &c), CT_INVALID);
    nan_x = ct_xform_identity();
    nan_x.r[0][0] = 2;
    cr_assert_eq(ct_manifold_hull_mesh(&box, NULL, &ok, &nan_x, 0, &c), CT_INVALID);
    cr_assert_eq(c.npoints, 0);
    cr_assert_eq(c.nmanifolds, 0);
    ct_mesh_free(NULL);
    ct_mesh_contacts_free(NULL);
    ct_mesh_contacts_free(&c);
    ct_hull_free(&box);
    ct_mesh_free(&ok);
}

Test(mesh, allocation_failure_sweep) {
    ct_real hf[36];
    ct_hull box;
    long k;
    int i, done;
    for (i = 0; i < 36; ++i) hf[i] = (ct_real)(0.1 * sin(i));
    cr_assert_eq(ct_hull_box(ms_v(0.6, 0.6, 0.6), NULL, &box), CT_OK);
    for (done = 0, k = 1; !done; ++k) {
        tu_alloc t;
        ct_mesh m;
        ct_status st;
        tu_alloc_init(&t, k);
        st = ct_mesh_heightfield(hf, 6, 6, 1, 1, &t.a, &m);
        if (st == CT_OK) {
            ct_mesh_contacts c;
            ct_xform x = ct_xform_identity();
            long j;
            done = 1;
            x.p = ms_v(2.5, 2.5, 0.5);
            /* the contact output on a failing allocator: every allocation it makes */
            for (j = 1;; ++j) {
                tu_alloc u;
                tu_alloc_init(&u, j);
                ct_mesh_contacts_init(&c, &u.a);
                st = ct_manifold_hull_mesh(&box, &x, &m, NULL, 0, &c);
                if (st == CT_OK) {
                    cr_assert(c.npoints > 0);
                    ct_mesh_contacts_free(&c);
                    cr_assert_eq(u.outstanding, 0);
                    break;
                }
                cr_assert_eq(st, CT_NO_MEMORY);
                cr_assert_eq(c.npoints, 0);
                ct_mesh_contacts_free(&c);
                cr_assert_eq(u.outstanding, 0, "contacts: leak after failing allocation %ld", j);
            }
            ct_mesh_free(&m);
        } else {
            cr_assert_eq(st, CT_NO_MEMORY, "failing allocation %ld gave %s", k, ct_status_string(st));
            cr_assert_eq(m.ct__block, NULL);
        }
        cr_assert_eq(t.outstanding, 0, "mesh: %ld blocks leaked after failing allocation %ld", t.outstanding, k);
    }
    cr_log_info("mesh allocation sweep: %ld sites", k - 2);
    ct_hull_free(&box);
}

Test(mesh, scale_and_translation_invariance) {
    ct_mesh base = ms_grid(7, 7, 0.5, 0.3, 41);
    ct_hull hull;
    ct_vec3 pts[16];
    unsigned long long s = 3;
    int i, si;
    double scales[3] = { 1e-3, 1, 1e3 };
    ct_mesh_contacts ref = { 0 }, c = { 0 };
    ct_xform x0;
    for (i = 0; i < 16; ++i) pts[i] = ct__scale(tu_random_unit(&s), (ct_real)0.6);
    cr_assert_eq(ct_hull_build(pts, 16, NULL, NULL, &hull), CT_OK);
    x0 = tu_random_xform(&s, 0);
    x0.p = ms_v(1.4, 1.6, 0.45);
    cr_assert_eq(ct_manifold_hull_mesh(&hull, &x0, &base, NULL, 0, &ref), CT_OK);
    cr_assert(ref.npoints > 0);
    for (si = 0; si < 3; ++si) {
        double sc = scales[si];
        ct_vec3 off = ms_v(TU_FLOAT ? 10 * sc : 1e4 * sc, -3 * sc, 7 * sc);
        ct_vec3 sp[16], *mv = (ct_vec3 *)malloc(sizeof(ct_vec3) * (size_t)base.nverts);
        ct_hull sh;
        ct_mesh sm;
        ct_xform x = x0, xm = ct_xform_identity();
        for (i = 0; i < 16; ++i) sp[i] = ct__scale(pts[i], (ct_real)sc);
        for (i = 0; i < base.nverts; ++i) mv[i] = ct__scale(base.verts[i], (ct_real)sc);
        cr_assert_eq(ct_hull_build(sp, 16, NULL, NULL, &sh), CT_OK);
        cr_assert_eq(ct_mesh_build(mv, base.nverts, base.tris, base.ntris, NULL, &sm), CT_OK);
        x.p = ct__add(ct__scale(x0.p, (ct_real)sc), off);
        xm.p = off;
        cr_assert_eq(ct_manifold_hull_mesh(&sh, &x, &sm, &xm, 0, &c), CT_OK);
        cr_assert_eq(c.npoints, ref.npoints, "scale %g: %d points vs %d", sc, c.npoints, ref.npoints);
        for (i = 0; i < c.npoints; ++i) {
            ct_vec3 p = ct__scale(ct__sub(c.points[i].point, off), (ct_real)(1 / sc));
            cr_assert_eq(c.points[i].triangle, ref.points[i].triangle);
            cr_assert(ct__dist(p, ref.points[i].point) < (TU_FLOAT ? 1e-2 : 1e-8), "scale %g: point %d moved", sc, i);
            cr_assert(fabs(c.points[i].separation / sc - ref.points[i].separation) < (TU_FLOAT ? 1e-2 : 1e-8));
            cr_assert(ct__dot(c.points[i].normal, ref.points[i].normal) > 1 - (TU_FLOAT ? 1e-4 : 1e-12));
        }
        ct_hull_free(&sh);
        ct_mesh_free(&sm);
        free(mv);
    }
    ct_mesh_contacts_free(&ref);
    ct_mesh_contacts_free(&c);
    ct_hull_free(&hull);
    ct_mesh_free(&base);
}

Test(mesh, threads_share_one_mesh_and_agree_with_serial) {
    enum { Q = 64 };
    ct_mesh m = ms_grid(33, 33, 0.25, 0.3, 8);
    ct_hull box;
    ct_xform xs[Q];
    int np[Q], npar[Q], k;
    double sum[Q], sumpar[Q];
    unsigned long long s = 17;
    cr_assert_eq(ct_hull_box(ms_v(0.4, 0.3, 0.2), NULL, &box), CT_OK);
    for (k = 0; k < Q; ++k) {
        xs[k] = tu_random_xform(&s, 0);
        xs[k].p = ms_v(1 + 6 * tu_uniform(&s), 1 + 6 * tu_uniform(&s), 0.3 * tu_uniform(&s));
    }
    for (k = 0; k < Q; ++k) {
        ct_mesh_contacts c = { 0 };
        int i;
        cr_assert_eq(ct_manifold_hull_mesh(&box, &xs[k], &m, NULL, 0, &c), CT_OK);
        np[k] = c.npoints;
        sum[k] = 0;
        for (i = 0; i < c.npoints; ++i) sum[k] += c.points[i].separation + c.points[i].point.x + 3 * c.points[i].triangle;
        ct_mesh_contacts_free(&c);
    }
#pragma omp parallel for num_threads(2) schedule(dynamic, 1)
    for (k = 0; k < Q; ++k) {
        ct_mesh_contacts c = { 0 };
        int i;
        ct_manifold_hull_mesh(&box, &xs[k], &m, NULL, 0, &c);
        npar[k] = c.npoints;
        sumpar[k] = 0;
        for (i = 0; i < c.npoints; ++i) sumpar[k] += c.points[i].separation + c.points[i].point.x + 3 * c.points[i].triangle;
        ct_mesh_contacts_free(&c);
    }
    for (k = 0; k < Q; ++k) {
        cr_assert_eq(np[k], npar[k]);
        cr_assert(sum[k] == sumpar[k], "query %d differs under threads", k);
    }
    ct_hull_free(&box);
    ct_mesh_free(&m);
}

/* Brute force in double: every triangle, its plane's crossing and barycentric coordinates. */
static double ms_ray_brute(const ct_mesh *m, const ct_xform *xm, ct_vec3 o, ct_vec3 d, int *tri) {
    double best = 2;
    int t;
    *tri = -1;
    for (t = 0; t < m->ntris; ++t) {
        ct_vec3 a = ct_xform_point(xm, m->verts[m->tris[3 * t]]), b = ct_xform_point(xm, m->verts[m->tris[3 * t + 1]]),
                c = ct_xform_point(xm, m->verts[m->tris[3 * t + 2]]);
        double e1[3] = { b.x - a.x, b.y - a.y, b.z - a.z }, e2[3] = { c.x - a.x, c.y - a.y, c.z - a.z };
        double dd[3] = { d.x, d.y, d.z }, s[3] = { o.x - a.x, o.y - a.y, o.z - a.z }, n[3], det, u, w, f;
        n[0] = e1[1] * e2[2] - e1[2] * e2[1]; n[1] = e1[2] * e2[0] - e1[0] * e2[2]; n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        det = -(dd[0] * n[0] + dd[1] * n[1] + dd[2] * n[2]);
        if (!(det > 0)) continue; /* front faces only */
        f = (s[0] * n[0] + s[1] * n[1] + s[2] * n[2]) / det;
        {   /* barycentric coordinates of the plane point (Ericson 3.4) */
            double q[3] = { s[0] + f * dd[0], s[1] + f * dd[1], s[2] + f * dd[2] };
            double d00 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2], d01 = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
            double d11 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2], d20 = q[0] * e1[0] + q[1] * e1[1] + q[2] * e1[2];
            double d21 = q[0] * e2[0] + q[1] * e2[1] + q[2] * e2[2], den = d00 * d11 - d01 * d01;
            u = (d11 * d20 - d01 * d21) / den;
            w = (d00 * d21 - d01 * d20) / den;
        }
        if (f < 0 || f > 1 || u < 0 || w < 0 || u + w > 1) continue;
        if (f < best) { best = f; *tri = t; }
    }
    return best;
}

Test(mesh, ray_cast_matches_brute_force) {
    ct_mesh m = ms_grid(12, 12, 0.5, 0.8, 13);
    ct_xform xm = ms_xf(ms_v(0.3, -0.2, 1), 0.7, ms_v(2, -1, 0.5));
    unsigned long long s = 4;
    int k, hits = 0;
    for (k = 0; k < 4000; ++k) {
        ct_vec3 target = ct_xform_point(&xm, ms_v(5.5 * tu_uniform(&s), 5.5 * tu_uniform(&s), 0)), dir = tu_random_unit(&s), o, d;
        ct_ray_hit h;
        int tri;
        double f, len;
        if (k % 3 == 0) dir = ct__scale(ct_xform_vector(&xm, ms_v(0, 0, 1)), 1); /* straight down through the terrain */
        o = ct__madd(target, dir, (ct_real)3);
        d = ct__scale(dir, (ct_real)-6);
        cr_assert_eq(ct_ray_cast_mesh(&m, &xm, o, d, &h), CT_OK);
        f = ms_ray_brute(&m, &xm, o, d, &tri);
        len = 6;
        cr_assert_eq(h.hit, tri >= 0 ? 1 : 0, "ray %d: hit %d, brute force triangle %d (fraction %g)", k, h.hit, tri, f);
        if (!h.hit) continue;
        ++hits;
        cr_assert(fabs(h.fraction - f) * len < MS_TOL * 10, "ray %d: fraction %.17g vs %.17g", k, h.fraction, f);
        cr_assert(h.face == tri || fabs(h.fraction - f) * len < MS_TOL * 10, "ray %d: triangle", k);
        cr_assert(fabs(ct__len(h.normal) - 1) < MS_TOL && ct__dot(h.normal, d) < 0, "ray %d: normal", k);
        cr_assert(ct__dist(h.point, ct__madd(o, d, h.fraction)) < MS_TOL * 10);
    }
    cr_assert(hits > 1000, "%d hits", hits);
    cr_log_info("mesh ray casts: %d of 4000 hit", hits);
    {   /* from below (back faces) nothing; empty translation nothing; bad input */
        ct_ray_hit h;
        ct_mesh z;
        cr_assert_eq(ct_ray_cast_mesh(&m, NULL, ms_v(2, 2, -3), ms_v(0, 0, 6), &h), CT_OK);
        cr_assert_eq(h.hit, 0);
        cr_assert_eq(ct_ray_cast_mesh(&m, NULL, ms_v(2, 2, 3), ms_v(0, 0, 0), &h), CT_OK);
        cr_assert_eq(h.hit, 0);
        cr_assert_eq(ct_ray_cast_mesh(&m, NULL, ms_v(2, (ct_real)NAN, 3), ms_v(0, 0, -6), &h), CT_INVALID);
        cr_assert_eq(h.face, -1);
        cr_assert_eq(ct_ray_cast_mesh(&m, NULL, ms_v(2, 2, 3), ms_v(0, 0, (ct_real)INFINITY), &h), CT_INVALID);
        cr_assert_eq(ct_ray_cast_mesh(&m, NULL, ms_v(2, 2, 3), ms_v(0, 0, -6), NULL), CT_INVALID);
        memset(&z, 0, sizeof z);
        cr_assert_eq(ct_ray_cast_mesh(&z, NULL, ms_v(2, 2, 3), ms_v(0, 0, -6), &h), CT_INVALID);
        cr_assert_eq(ct_ray_cast_mesh(NULL, NULL, ms_v(2, 2, 3), ms_v(0, 0, -6), &h), CT_INVALID);
    }
    ct_mesh_free(&m);
}

Test(mesh, warm_contacts_allocate_nothing) {
    ct_mesh m = ms_grid(10, 10, 0.5, 0.2, 2);
    ct_hull box;
    tu_alloc t;
    ct_mesh_contacts c;
    ct_xform x = ms_xf(ms_v(0, 0, 1), 0.3, ms_v(2.2, 2.3, 0.3));
    long before;
    int k;
    cr_assert_eq(ct_hull_box(ms_v(0.8, 0.6, 0.4), NULL, &box), CT_OK);
    tu_alloc_init(&t, 0);
    ct_mesh_contacts_init(&c, &t.a);
    cr_assert_eq(ct_manifold_hull_mesh(&box, &x, &m, NULL, (ct_real)0.1, &c), CT_OK);
    cr_assert(c.npoints > 0);
    before = t.calls;
    for (k = 0; k < 20; ++k) {
        x.p.x += (ct_real)0.05;
        cr_assert_eq(ct_manifold_hull_mesh(&box, &x, &m, NULL, (ct_real)0.1, &c), CT_OK);
    }
    cr_assert(t.calls - before <= 1, "%ld allocations after warm-up", t.calls - before); /* at most one growth */
    ct_mesh_contacts_free(&c);
    cr_assert_eq(t.outstanding, 0);
    ct_hull_free(&box);
    ct_mesh_free(&m);
}

Test(mesh, sphere_rolling_on_flat_floor_one_point_face_normal) {
    ct_mesh m = ms_grid(11, 11, 0.5, 0, 1);
    ct_mesh_contacts c = { 0 };
    unsigned long long s = 8;
    int k;
    for (k = 0; k < 2000; ++k) {
        double r = 0.1 + 0.5 * tu_uniform(&s), pen = 0.02 * tu_uniform(&s);
        /* a quarter of the centres exactly over a vertex or an edge of the grid */
        double x = 1 + 3 * tu_uniform(&s), y = 1 + 3 * tu_uniform(&s);
        if (k % 4 == 1) { x = 0.5 * floor(2 * x); y = 0.5 * floor(2 * y); }
        if (k % 4 == 2) y = 0.5 * floor(2 * y);
        cr_assert_eq(ct_manifold_sphere_mesh(ms_v(x, y, r - pen), (ct_real)r, &m, NULL, 0, &c), CT_OK);
        cr_assert_eq(c.npoints, 1, "sphere %d at (%g %g): %d points", k, x, y, c.npoints);
        cr_assert_eq(c.nmanifolds, 1);
        cr_assert(c.points[0].normal.z == -1 && c.points[0].normal.x == 0 && c.points[0].normal.y == 0);
        cr_assert(fabs(c.points[0].separation + pen) < MS_TOL, "separation %g, expected %g", c.points[0].separation, -pen);
        cr_assert(ct__dist(c.points[0].point, ms_v(x, y, -pen / 2)) < MS_TOL);
    }
    ct_mesh_contacts_free(&c);
    ct_mesh_free(&m);
}

Test(mesh, sphere_against_one_triangle_closed_form) {
    ct_vec3 v[3];
    int tri[3] = { 0, 1, 2 }, k, n = 0;
    ct_mesh m;
    ct_mesh_contacts c = { 0 };
    unsigned long long s = 12;
    v[0] = ms_v(0, 0, 0); v[1] = ms_v(2, 0, 0.5); v[2] = ms_v(0.3, 1.8, -0.2);
    cr_assert_eq(ct_mesh_build(v, 3, tri, 1, NULL, &m), CT_OK);
    for (k = 0; k < 2000; ++k) {
        ct_vec3 ctr = ms_v(-1 + 4 * tu_uniform(&s), -1 + 4 * tu_uniform(&s), -0.5 + 2 * tu_uniform(&s));
        double r = 0.05 + 0.4 * tu_uniform(&s), dist = ms_tri_dist(ctr, v[0], v[1], v[2]);
        double front = ct__dot(ct__sub(ctr, v[0]), m.normals[0]);
        cr_assert_eq(ct_manifold_sphere_mesh(ctr, (ct_real)r, &m, NULL, (ct_real)0.1, &c), CT_OK);
        if (front < 0) { cr_assert_eq(c.npoints, 0, "behind: skipped"); continue; }
        if (dist - r > 0.1 + 1e-9) { cr_assert_eq(c.npoints, 0); continue; }
        if (dist - r < 0.1 - 1e-9) cr_assert_eq(c.npoints, 1, "sphere %d: dist %g r %g", k, dist, r);
        if (c.npoints == 0) continue;
        ++n;
        /* every feature of a lone triangle is active: the separation is the distance - r */
        cr_assert(fabs(c.points[0].separation - (dist - r)) < MS_TOL * 10, "sphere %d: %g vs %g", k, c.points[0].separation, dist - r);
        cr_assert(fabs(ms_tri_dist(ct__madd(c.points[0].point, c.points[0].normal, c.points[0].separation / 2), v[0], v[1], v[2])) < MS_TOL * 10);
    }
    cr_assert(n > 50, "%d contacts", n);
    ct_mesh_contacts_free(&c);
    ct_mesh_free(&m);
}

Test(mesh, capsule_lying_on_floor_two_points_and_on_a_ridge) {
    ct_mesh m = ms_grid(11, 11, 0.5, 0, 1), ridge = ms_fold(-1);
    ct_mesh_contacts c = { 0 };
    ct_capsule cap = { { -0.6, 0, 0 }, { 0.6, 0, 0 }, 0.25 };
    unsigned long long s = 14;
    int k, i;
    for (k = 0; k < 1000; ++k) {
        double pen = 0.02 * tu_uniform(&s);
        ct_xform x = ms_xf(ms_v(0, 0, 1), 2 * M_PI * tu_uniform(&s), ms_v(1.2 + 2.6 * tu_uniform(&s), 1.2 + 2.6 * tu_uniform(&s), 0.25 - pen));
        cr_assert_eq(ct_manifold_capsule_mesh(&cap, &x, &m, NULL, 0, &c), CT_OK);
        cr_assert_eq(c.nmanifolds, 1, "capsule %d: %d manifolds", k, c.nmanifolds);
        cr_assert_eq(c.manifolds[0].count, 2, "capsule %d: %d points", k, c.manifolds[0].count);
        for (i = 0; i < c.npoints; ++i) {
            cr_assert(c.points[i].normal.z == -1);
            cr_assert(fabs(c.points[i].separation + pen) < MS_TOL);
        }
        for (i = 0; i < 2; ++i) { /* the two ends of the segment */
            ct_vec3 e = ct_xform_point(&x, i ? cap.p1 : cap.p0), p = c.manifolds[0].points[i].point;
            cr_assert(fabs(p.x - e.x) + fabs(p.y - e.y) < MS_TOL * 10 || fabs(c.manifolds[0].points[1 - i].point.x - e.x) +
                      fabs(c.manifolds[0].points[1 - i].point.y - e.y) < MS_TOL * 10, "capsule %d: an end is missing", k);
        }
    }
    {   /* across the convex ridge (edge along x at z = 0, faces down at 45 degrees): the
           closest points are on the ridge edge, the normal vertical, depth closed form */
        ct_capsule across = { { 0, -0.6, 0 }, { 0, 0.6, 0 }, 0.25 };
        ct_xform x = ms_xf(ms_v(0, 0, 1), 0, ms_v(0.1, 0, 0.2));
        cr_assert_eq(ct_manifold_capsule_mesh(&across, &x, &ridge, NULL, 0, &c), CT_OK);
        cr_assert_eq(c.nmanifolds, 1);
        cr_assert(fabs(c.manifolds[0].normal.z + 1) < MS_TOL, "ridge normal (%g %g %g)", c.manifolds[0].normal.x, c.manifolds[0].normal.y,
                  c.manifolds[0].normal.z);
        cr_assert(fabs(c.manifolds[0].points[c.manifolds[0].deepest].separation - (0.2 - 0.25)) < MS_TOL);
    }
    {   /* bad input */
        ct_capsule bad = cap;
        ct_xform nx = ct_xform_identity();
        bad.radius = -1;
        cr_assert_eq(ct_manifold_capsule_mesh(&bad, NULL, &m, NULL, 0, &c), CT_INVALID);
        cr_assert_eq(c.npoints, 0);
        bad.radius = 0.2; bad.p0.x = (ct_real)NAN;
        cr_assert_eq(ct_manifold_capsule_mesh(&bad, NULL, &m, NULL, 0, &c), CT_INVALID);
        cr_assert_eq(ct_manifold_capsule_mesh(NULL, NULL, &m, NULL, 0, &c), CT_INVALID);
        nx.p.y = (ct_real)INFINITY;
        cr_assert_eq(ct_manifold_capsule_mesh(&cap, &nx, &m, NULL, 0, &c), CT_INVALID);
        cr_assert_eq(ct_manifold_capsule_mesh(&cap, NULL, &m, &nx, 0, &c), CT_INVALID);
        cr_assert_eq(ct_manifold_sphere_mesh(ms_v(1, 1, 0), (ct_real)NAN, &m, NULL, 0, &c), CT_INVALID);
        cr_assert_eq(ct_manifold_sphere_mesh(ms_v(1, 1, 0), 1, NULL, NULL, 0, &c), CT_INVALID);
        cr_assert_eq(ct_manifold_sphere_mesh(ms_v(1, 1, 0), 1, &m, NULL, -1, &c), CT_INVALID);
        cr_assert_eq(ct_manifold_sphere_mesh(ms_v(1, 1, 0), 1, &m, NULL, 0, NULL), CT_INVALID);
    }
    ct_mesh_contacts_free(&c);
    ct_mesh_free(&m);
    ct_mesh_free(&ridge);
}
