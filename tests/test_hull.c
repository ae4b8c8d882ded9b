/* Quickhull: against qhull (libqhull_r) on thousands of seeded sets, structural invariants on
   every hull, closed forms for mass properties, scale/translation invariance, bad input,
   allocation failure and the warm-scratch promise. */
#include "testutil.h"
#include "workload.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef CT_HAVE_QHULL
#include <libqhull_r/qhull_ra.h>
#endif

/* ---- invariants every hull must satisfy ----------------------------------------------------- */
static void check_hull(const ct_hull *h, const ct_vec3 *pts, int n, double tol) {
    int f, k, i;
    cr_assert_eq(h->nverts - h->nedges + h->nfaces, 2, "Euler: V=%d E=%d F=%d", h->nverts, h->nedges, h->nfaces);
    cr_assert_eq(h->face_first[h->nfaces], 2 * h->nedges);
    for (k = 0; k < 2 * h->nedges; ++k) {
        int t = h->he_twin[k];
        cr_assert(t >= 0 && t < 2 * h->nedges && h->he_twin[t] == k, "twin of %d", k);
        /* twin runs the other way */
        cr_assert_eq(h->face_verts[k], h->face_verts[h->he_next[t]]);
        cr_assert_eq(h->face_verts[t], h->face_verts[h->he_next[k]]);
        cr_assert_neq(h->he_face[k], h->he_face[t]);
    }
    for (i = 0; i < h->nverts; ++i) {
        int e = h->vert_edge[i];
        cr_assert(e >= 0 && h->face_verts[e] == i);
        cr_assert_geq(h->vert_first[i + 1] - h->vert_first[i], 3, "vertex degree >= 3");
        if (pts && h->vert_source[i] >= 0) cr_assert(ct__dist(h->verts[i], pts[h->vert_source[i]]) == 0);
        for (k = h->vert_first[i]; k < h->vert_first[i + 1]; ++k) {
            int j = h->vert_adj[k], found = 0, e2;
            for (e2 = 0; e2 < 2 * h->nedges && !found; ++e2)
                found = h->face_verts[e2] == i && h->face_verts[h->he_next[e2]] == j;
            cr_assert(found, "neighbour %d of %d is joined by an edge", j, i);
        }
    }
    for (f = 0; f < h->nfaces; ++f) {
        ct_plane pl = h->planes[f];
        int a = h->face_first[f], b = h->face_first[f + 1];
        cr_assert_geq(b - a, 3);
        cr_assert(fabs((double)ct__len(pl.n) - 1) < 10 * TU_EPS);
        for (k = a; k < b; ++k) {
            ct_vec3 p = h->verts[h->face_verts[k]], q = h->verts[h->face_verts[h->he_next[k]]];
            ct_vec3 edge = ct__sub(q, p), inward = ct__cross(pl.n, edge);
            int j;
            cr_assert(fabs((double)(ct__dot(pl.n, p) + pl.d)) <= tol, "face %d of %d planar: %g (tol %g, n=%d, fv=%d)", f, h->nfaces,
                      (double)(ct__dot(pl.n, p) + pl.d), tol, n, b - a);
            /* convex polygon, CCW from outside: other vertices lie left of each edge */
            for (j = a; j < b; ++j) {
                ct_vec3 r = h->verts[h->face_verts[j]];
                cr_assert((double)ct__dot(inward, ct__sub(r, p)) >= -tol * (double)ct__len(edge),
                          "face %d convex and CCW (%g, n=%d, fv=%d)", f, (double)ct__dot(inward, ct__sub(r, p)) / (double)ct__len(edge), n, b - a);
            }
        }
        for (i = 0; i < n; ++i)
            cr_assert((double)(ct__dot(pl.n, pts[i]) + pl.d) <= tol, "point %d outside face %d by %g", i, f,
                      (double)(ct__dot(pl.n, pts[i]) + pl.d));
    }
}

static double extent_of(const ct_vec3 *p, int n) {
    ct_vec3 lo = p[0], hi = p[0];
    int i;
    for (i = 1; i < n; ++i) { lo = ct__vmin(lo, p[i]); hi = ct__vmax(hi, p[i]); }
    return (double)ct__len(ct__sub(hi, lo)) + (double)ct__max(ct__maxabs(lo), ct__maxabs(hi));
}

/* ---- generators ----------------------------------------------------------------------------- */
enum { D_CUBE, D_BALL, D_SPHERE, D_GAUSS, D_LATTICE, D_SLAB, D_DUPS, D_COUNT };
static const char *dist_name[D_COUNT] = { "cube", "ball", "sphere", "gauss", "lattice", "slab", "duplicates" };

static int gen(int dist, ct_vec3 *p, int n, unsigned long long *s) {
    double *xyz = (double *)malloc(sizeof(double) * 3 * (size_t)n);
    int i;
    switch (dist) {
    case D_CUBE: wl_cube(xyz, n, 1, s); break;
    case D_BALL: wl_ball(xyz, n, 1, s); break;
    case D_SPHERE: wl_sphere(xyz, n, 1, s); break;
    case D_GAUSS: wl_gauss(xyz, n, 1, s); break;
    case D_LATTICE: {
        int m = 2 + (int)(tu_uniform(s) * 3); /* m^3 grid points, shuffled order */
        n = m * m * m;
        xyz = (double *)realloc(xyz, sizeof(double) * 3 * (size_t)n);
        for (i = 0; i < n; ++i) {
            xyz[3 * i] = i % m; xyz[3 * i + 1] = (i / m) % m; xyz[3 * i + 2] = i / (m * m);
        }
        for (i = n - 1; i > 0; --i) {
            int j = (int)(tu_uniform(s) * (i + 1)), k;
            for (k = 0; k < 3; ++k) { double t = xyz[3 * i + k]; xyz[3 * i + k] = xyz[3 * j + k]; xyz[3 * j + k] = t; }
        }
        break;
    }
    case D_SLAB:
        wl_cube(xyz, n, 1, s);
        for (i = 0; i < n; ++i) xyz[3 * i + 2] *= 1e-3;
        break;
    case D_DUPS:
        wl_ball(xyz, n, 1, s);
        for (i = n / 2; i < n; ++i) {
            int j = (int)(tu_uniform(s) * (n / 2)), k;
            for (k = 0; k < 3; ++k) xyz[3 * i + k] = xyz[3 * j + k];
        }
        break;
    }
    for (i = 0; i < n; ++i) p[i] = tu_vec(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    free(xyz);
    return n;
}

#ifdef CT_HAVE_QHULL
/* qhull's volume and vertex coordinates (default options merge coplanar facets). */
static int qhull_of(const ct_vec3 *p, int n, double *vol, double *vxyz, int *nv) {
    qhT qh_qh, *qh = &qh_qh;
    double *c = (double *)malloc(sizeof(double) * 3 * (size_t)n);
    int i, code, curlong, totlong;
    vertexT *vertex;
    for (i = 0; i < n; ++i) { c[3 * i] = p[i].x; c[3 * i + 1] = p[i].y; c[3 * i + 2] = p[i].z; }
    FILE *devnull = fopen("/dev/null", "w");
    qh_zero(qh, devnull);
    code = qh_new_qhull(qh, 3, n, c, 0, (char *)"qhull FA", NULL, devnull);
    *nv = 0;
    if (!code) {
        *vol = qh->totvol;
        FORALLvertices {
            double *pt = vertex->point;
            vxyz[3 * *nv] = pt[0]; vxyz[3 * *nv + 1] = pt[1]; vxyz[3 * *nv + 2] = pt[2];
            ++*nv;
        }
    }
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    if (devnull) fclose(devnull);
    free(c);
    return code;
}
static int cmp3(const void *a, const void *b) {
    const double *x = (const double *)a, *y = (const double *)b;
    int k;
    for (k = 0; k < 3; ++k) if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    return 0;
}
#endif

Test(hull, against_qhull_10000_sets, .timeout = 120) {
#ifndef CT_HAVE_QHULL
    cr_skip_test("libqhull_r not installed");
#else
    unsigned long long seed = 12345;
    ct_vec3 *p = (ct_vec3 *)malloc(sizeof(ct_vec3) * 300);
    double *qv = (double *)malloc(sizeof(double) * 3 * 300), *ov = (double *)malloc(sizeof(double) * 3 * 300);
    ct_scratch s;
    ct_hull_desc desc;
    int it, compared = 0, same_vertices = 0;
    int iters = getenv("CT_TEST_CONFIG") && !strcmp(getenv("CT_TEST_CONFIG"), "sanitize") ? 2000 : 10000;
    ct_scratch_init(&s, NULL);
    memset(&desc, 0, sizeof desc);
    desc.scratch = &s;
    for (it = 0; it < iters; ++it) {
        int dist = it % D_COUNT, n = 4 + (int)(tu_uniform(&seed) * 120), nq, i;
        double qvol, vol, tol;
        ct_hull h;
        ct_status st;
        if (it % 97 == 0) n = 4 + (int)(tu_uniform(&seed) * 290);
        n = gen(dist, p, n, &seed);
        st = ct_hull_build(p, n, &desc, NULL, &h);
        if (qhull_of(p, n, &qvol, qv, &nq)) {
            /* qhull rejects it (flat or too few points); we must not claim a solid */
            cr_assert(st == CT_DEGENERATE, "%s n=%d: qhull fails but we say %s", dist_name[dist], n, ct_status_string(st));
            continue;
        }
        if (st == CT_DEGENERATE && qvol < 1e-6) continue; /* e.g. 4 nearly coplanar points */
        cr_assert_eq(st, CT_OK, "%s n=%d it=%d: %s", dist_name[dist], n, it, ct_status_string(st));
        tol = 64 * (double)TU_EPS * extent_of(p, n);
        if (getenv("CT_DEBUG_IT") && atoi(getenv("CT_DEBUG_IT")) == it) {
            FILE *df = fopen("/tmp/hull_fail.txt", "w");
            for (i = 0; i < n; ++i) fprintf(df, "%.9g %.9g %.9g\n", (double)p[i].x, (double)p[i].y, (double)p[i].z);
            fclose(df);
        }
        check_hull(&h, p, n, tol);
        vol = (double)ct_hull_volume(&h, NULL);
        /* double: exact to 1e-12. float: merging within the float tolerance moves faces by
           up to ~tol, so the volume may change by tol times the surface (~6 extent^2) */
        cr_assert(fabs(vol - qvol) <= (TU_FLOAT ? 1e-5 * qvol + 6 * tol * extent_of(p, n) * extent_of(p, n)
                                                : 1e-12 * qvol + 1e-3 * tol),
                  "%s n=%d it=%d: volume %.17g vs qhull %.17g", dist_name[dist], n, it, vol, qvol);
        ++compared;
        if (!TU_FLOAT && dist != D_SLAB) {
            /* vertex sets by coordinates (duplicates may pick either copy) */
            for (i = 0; i < h.nverts; ++i) {
                ov[3 * i] = (double)h.verts[i].x; ov[3 * i + 1] = (double)h.verts[i].y; ov[3 * i + 2] = (double)h.verts[i].z;
            }
            cr_assert_eq(h.nverts, nq, "%s n=%d it=%d: %d vertices vs qhull %d", dist_name[dist], n, it, h.nverts, nq);
            qsort(ov, (size_t)nq, 3 * sizeof(double), cmp3);
            qsort(qv, (size_t)nq, 3 * sizeof(double), cmp3);
            cr_assert(memcmp(ov, qv, (size_t)nq * 3 * sizeof(double)) == 0, "%s it=%d: vertex sets differ", dist_name[dist], it);
            ++same_vertices;
        }
        ct_hull_free(&h);
    }
    cr_assert_gt(compared, iters * 9 / 10);
    if (!TU_FLOAT) cr_assert_gt(same_vertices, iters / 2);
    ct_scratch_release(&s);
    free(p); free(qv); free(ov);
#endif
}

/* ---- closed forms ----------------------------------------------------------------------------- */
static ct_hull build_ok(const ct_vec3 *p, int n) {
    ct_hull h;
    ct_status st = ct_hull_build(p, n, NULL, NULL, &h);
    cr_assert_eq(st, CT_OK, "%s", ct_status_string(st));
    check_hull(&h, p, n, 64 * (double)TU_EPS * extent_of(p, n));
    return h;
}

Test(hull, lattice_3x3x3_is_a_cube) {
    ct_vec3 p[27];
    int i;
    ct_hull h;
    for (i = 0; i < 27; ++i) p[i] = tu_vec(i % 3, (i / 3) % 3, i / 9);
    h = build_ok(p, 27);
    cr_assert_eq(h.nverts, 8);
    cr_assert_eq(h.nfaces, 6);
    cr_assert_eq(h.nedges, 12);
    for (i = 0; i < 6; ++i) cr_assert_eq(h.face_first[i + 1] - h.face_first[i], 4);
    cr_assert_float_eq(ct_hull_volume(&h, NULL), 8, 1e3 * TU_EPS);
    ct_hull_free(&h);
}

Test(hull, regular_polyhedra_merge_exactly) {
    /* icosahedron (12 v, 20 triangles) and dodecahedron (20 v, 12 pentagons), plus face
       centres and edge midpoints that must not become vertices */
    const double g = 1.6180339887498949;
    ct_vec3 ico[12 + 30], dod[20 + 12];
    int i, n = 0, k;
    ct_hull h;
    for (i = 0; i < 4; ++i) {
        double a = i & 1 ? 1 : -1, b = i & 2 ? g : -g;
        ico[n++] = tu_vec(0, a, b); ico[n++] = tu_vec(a, b, 0); ico[n++] = tu_vec(b, 0, a);
    }
    /* edge midpoints: pairs at distance 2 */
    for (i = 0; i < 12; ++i)
        for (k = i + 1; k < 12; ++k)
            if (fabs((double)ct__dist(ico[i], ico[k]) - 2) < 1e-6) ico[n++] = ct__scale(ct__add(ico[i], ico[k]), (ct_real)0.5);
    cr_assert_eq(n, 42);
    h = build_ok(ico, n);
    cr_assert_eq(h.nverts, 12);
    cr_assert_eq(h.nfaces, 20);
    /* volume of the icosahedron with edge 2: 5/12 (3 + sqrt5) a^3 */
    cr_assert_float_eq(ct_hull_volume(&h, NULL), 5.0 / 12 * (3 + sqrt(5.0)) * 8, 1e3 * TU_EPS * 20);
    ct_hull_free(&h);
    n = 0;
    for (i = 0; i < 8; ++i) dod[n++] = tu_vec(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
    for (i = 0; i < 4; ++i) {
        double a = i & 1 ? 1 / g : -1 / g, b = i & 2 ? g : -g;
        dod[n++] = tu_vec(0, a, b); dod[n++] = tu_vec(a, b, 0); dod[n++] = tu_vec(b, 0, a);
    }
    h = build_ok(dod, n);
    cr_assert_eq(h.nverts, 20);
    cr_assert_eq(h.nfaces, 12);
    for (i = 0; i < 12; ++i) cr_assert_eq(h.face_first[i + 1] - h.face_first[i], 5);
    /* face centres added: still 20 vertices */
    for (i = 0; i < 12; ++i) {
        ct_vec3 c = ct__v3(0, 0, 0);
        for (k = h.face_first[i]; k < h.face_first[i + 1]; ++k) c = ct__add(c, h.verts[h.face_verts[k]]);
        dod[20 + i] = ct__scale(c, (ct_real)0.2);
    }
    ct_hull_free(&h);
    h = build_ok(dod, 32);
    cr_assert_eq(h.nverts, 20);
    cr_assert_eq(h.nfaces, 12);
    ct_hull_free(&h);
}

Test(hull, many_points_on_few_planes) {
    /* points scattered over the 6 faces of a box: the hull is the box */
    unsigned long long s = 99;
    ct_vec3 p[600];
    int i;
    ct_hull h;
    for (i = 0; i < 600; ++i) {
        double u = 2 * tu_uniform(&s) - 1, v = 2 * tu_uniform(&s) - 1, w = (i / 6) % 2 ? 1 : -1;
        int ax = i % 3;
        p[i] = ax == 0 ? tu_vec(2 * w, u, 3 * v) : ax == 1 ? tu_vec(2 * u, w, 3 * v) : tu_vec(2 * u, v, 3 * w);
    }
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1 ? 2 : -2, i & 2 ? 1 : -1, i & 4 ? 3 : -3);
    h = build_ok(p, 600);
    cr_assert_eq(h.nverts, 8);
    cr_assert_eq(h.nfaces, 6);
    cr_assert_float_eq(ct_hull_volume(&h, NULL), 48, 1e3 * TU_EPS * 48);
    ct_hull_free(&h);
}

Test(hull, mass_of_box_and_tetrahedron) {
    ct_hull h;
    ct_real m, I[3][3];
    ct_vec3 c;
    ct_vec3 t[4];
    double a = 2, b = 3, cc = 5, rho = 1.5;
    cr_assert_eq(ct_hull_box(tu_vec(a / 2, b / 2, cc / 2), NULL, &h), CT_OK);
    check_hull(&h, NULL, 0, 1e-12 + 64 * TU_EPS * 10);
    ct_hull_mass(&h, (ct_real)rho, &m, &c, I);
    cr_assert_float_eq(m, rho * a * b * cc, 1e3 * TU_EPS * 45);
    cr_assert(ct__len(c) < 1e3 * TU_EPS);
    cr_assert_float_eq(I[0][0], m * (b * b + cc * cc) / 12, 1e3 * TU_EPS * 100);
    cr_assert_float_eq(I[1][1], m * (a * a + cc * cc) / 12, 1e3 * TU_EPS * 100);
    cr_assert_float_eq(I[2][2], m * (a * a + b * b) / 12, 1e3 * TU_EPS * 100);
    cr_assert(fabs((double)I[0][1]) + fabs((double)I[0][2]) + fabs((double)I[1][2]) < 1e3 * TU_EPS * 100);
    ct_hull_free(&h);
    /* the corner tetrahedron (0, e1, e2, e3) moved far from the origin: V = 1/6, centroid at 1/4 */
    t[0] = tu_vec(100, 200, 300); t[1] = tu_vec(101, 200, 300); t[2] = tu_vec(100, 201, 300); t[3] = tu_vec(100, 200, 301);
    h = build_ok(t, 4);
    ct_hull_mass(&h, 1, &m, &c, I);
    cr_assert_float_eq(m, 1.0 / 6, 1e5 * TU_EPS);
    cr_assert_float_eq(c.x, 100.25, 1e6 * TU_EPS);
    /* unit corner tetrahedron: second moment about origin sum x^2 = 1/60, sum xy = 1/120;
       about the centroid: C_xx = 1/60 - (1/6)(1/16) = 1/160, C_xy = 1/120 - (1/6)(1/16) = -1/480;
       I_xx = C_yy + C_zz = 2/160 = 1/80, I_xy = -C_xy = 1/480 */
    cr_assert_float_eq(I[0][0], 1.0 / 80, 1e6 * TU_EPS);
    cr_assert_float_eq(I[0][1], 1.0 / 480, 1e6 * TU_EPS);
    ct_hull_free(&h);
}

Test(hull, sphere_sample_matches_the_ball) {
    double *xyz = (double *)malloc(sizeof(double) * 3 * 20000);
    ct_vec3 *p = (ct_vec3 *)malloc(sizeof(ct_vec3) * 20000);
    unsigned long long s = 3;
    int i;
    ct_hull h;
    ct_real m, I[3][3], v;
    ct_vec3 c;
    wl_sphere(xyz, 20000, 1, &s);
    for (i = 0; i < 20000; ++i) p[i] = tu_vec(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    cr_assert_eq(ct_hull_build(p, 20000, NULL, NULL, &h), CT_OK);
    /* in float a few random pairs are closer than the tolerance allows to tell apart */
    cr_assert(TU_FLOAT ? h.nverts >= 19900 : h.nverts == 20000, "%d vertices", h.nverts);
    cr_assert_eq(h.nverts - h.nedges + h.nfaces, 2);
    v = ct_hull_volume(&h, NULL);
    /* the inscribed polytope of 2e4 random points misses ~1e-3 of the ball */
    cr_assert(fabs((double)v - 4.18879020478639) < 1e-2, "volume %g", (double)v);
    ct_hull_mass(&h, 1, &m, &c, I);
    cr_assert(ct__len(c) < 1e-3);
    for (i = 0; i < 3; ++i) cr_assert(fabs((double)I[i][i] - 0.4 * (double)m) < 1e-2, "I[%d][%d] = %g", i, i, (double)I[i][i]);
    ct_hull_free(&h);
    free(xyz); free(p);
}

/* ---- scale and translation -------------------------------------------------------------------- */
Test(hull, scale_and_translation_invariance) {
    unsigned long long s = 777;
    ct_vec3 p[200], q[200];
    double scales[] = { 1e-6, 1e-3, 1e3, 1e6 }, shifts[] = { 1e3, 1e6 };
    int it, i, k;
    for (it = 0; it < 60; ++it) {
        int n = gen(it % 4, p, 10 + it * 3, &s);
        ct_hull h0 = build_ok(p, n), h;
        double v0 = (double)ct_hull_volume(&h0, NULL);
        for (k = 0; k < 4; ++k) {
            for (i = 0; i < n; ++i) q[i] = ct__scale(p[i], (ct_real)scales[k]);
            h = build_ok(q, n);
            cr_assert_eq(h.nverts, h0.nverts, "scale %g", scales[k]);
            cr_assert_eq(h.nfaces, h0.nfaces);
            cr_assert(fabs((double)ct_hull_volume(&h, NULL) / (scales[k] * scales[k] * scales[k]) - v0) <= 1e2 * TU_EPS * v0);
            ct_hull_free(&h);
        }
        for (k = 0; k < 2; ++k) {
            /* translation: combinatorics kept as far as the translated coordinates' own
               rounding allows (double: features of 1 at 1e6 keep ~1e-10; float: up to 1e2) */
            double sh = TU_FLOAT ? shifts[k] * 1e-4 : shifts[k];
            for (i = 0; i < n; ++i) q[i] = ct__add(p[i], tu_vec(sh, -sh, 0.5 * sh));
            h = build_ok(q, n);
            cr_assert_eq(h.nverts, h0.nverts, "shift %g", sh);
            cr_assert(fabs((double)ct_hull_volume(&h, NULL) - v0) <= 1e3 * TU_EPS * sh * v0);
            ct_hull_free(&h);
        }
        ct_hull_free(&h0);
    }
}

Test(hull, thin_slabs_and_tiny_cubes) {
    /* Solfec's hull fails for a cube of edge 1e-3 and slabs thinner than 1e-7 */
    ct_vec3 p[8];
    double sizes[] = { 1e-3, 1e-7, 1e-12 };
    int i, k;
    for (k = 0; k < 3; ++k) {
        ct_hull h;
        double t = TU_FLOAT ? (k == 0 ? 1e-3 : 1e-5) : sizes[k]; /* float: down to ~100 ulps */
        for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1 ? 1 : 0, i & 2 ? 1 : 0, i & 4 ? t : 0);
        h = build_ok(p, 8);
        cr_assert_eq(h.nfaces, 6, "slab %g", t);
        cr_assert(fabs((double)ct_hull_volume(&h, NULL) - t) < 1e2 * TU_EPS * t);
        ct_hull_free(&h);
        for (i = 0; i < 8; ++i) p[i] = ct__scale(p[i], (ct_real)sizes[k]);
    }
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1 ? 1e-3 : 0, i & 2 ? 1e-3 : 0, i & 4 ? 1e-3 : 0);
    {
        ct_hull h = build_ok(p, 8);
        cr_assert_eq(h.nfaces, 6);
        ct_hull_free(&h);
    }
}

/* ---- bad input -------------------------------------------------------------------------------- */
Test(hull, bad_input_statuses) {
    ct_vec3 p[8];
    ct_hull h;
    int i;
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1, (i >> 1) & 1, (i >> 2) & 1);
    cr_assert_eq(ct_hull_build(p, 8, NULL, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_hull_build(NULL, 8, NULL, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_hull_build(p, -1, NULL, NULL, &h), CT_INVALID);
    cr_assert_eq(ct_hull_build(p, 0, NULL, NULL, &h), CT_DEGENERATE);
    cr_assert_eq(ct_hull_build(p, 3, NULL, NULL, &h), CT_DEGENERATE);
    p[5].y = (ct_real)NAN;
    cr_assert_eq(ct_hull_build(p, 8, NULL, NULL, &h), CT_INVALID);
    cr_assert_null(h.verts);
    p[5].y = (ct_real)INFINITY;
    cr_assert_eq(ct_hull_build(p, 8, NULL, NULL, &h), CT_INVALID);
    /* flat, collinear, single point (with duplicates) */
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1, (i >> 1) & 1, 0);
    cr_assert_eq(ct_hull_build(p, 8, NULL, NULL, &h), CT_DEGENERATE);
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i, 2 * i, 3 * i);
    cr_assert_eq(ct_hull_build(p, 8, NULL, NULL, &h), CT_DEGENERATE);
    for (i = 0; i < 8; ++i) p[i] = tu_vec(1, 2, 3);
    cr_assert_eq(ct_hull_build(p, 8, NULL, NULL, &h), CT_DEGENERATE);
    cr_assert_eq(h.nverts, 0);
    /* nearly flat within rounding is flat; a 1e-9 relative slab is not (double) */
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1, (i >> 1) & 1, (i >> 2) & 1 ? 4 * TU_EPS : 0);
    cr_assert_eq(ct_hull_build(p, 8, NULL, NULL, &h), CT_DEGENERATE);
    {
        ct_hull_desc d;
        memset(&d, 0, sizeof d);
        d.eps = -1;
        for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1, (i >> 1) & 1, (i >> 2) & 1);
        cr_assert_eq(ct_hull_build(p, 8, &d, NULL, &h), CT_INVALID);
        /* a coarse tolerance merges a bump on the top face: still 6 faces */
        ct_vec3 q[9];
        for (i = 0; i < 8; ++i) q[i] = p[i];
        q[8] = tu_vec(0.5, 0.5, 1.01);
        cr_assert_eq(ct_hull_build(q, 9, NULL, NULL, &h), CT_OK);
        cr_assert_eq(h.nfaces, 9, "default tolerance: the bump is a pyramid");
        ct_hull_free(&h);
        d.eps = (ct_real)0.1;
        cr_assert_eq(ct_hull_build(q, 9, &d, NULL, &h), CT_OK);
        cr_assert_eq(h.nfaces, 6);
        ct_hull_free(&h);
    }
    ct_hull_free(NULL);
    cr_assert_eq(ct_hull_box(tu_vec(1, 0, 1), NULL, &h), CT_INVALID);
    cr_assert_eq(ct_hull_box(tu_vec(1, (ct_real)NAN, 1), NULL, &h), CT_INVALID);
}

Test(hull, duplicates_are_fine) {
    ct_vec3 p[64];
    int i;
    ct_hull h;
    for (i = 0; i < 64; ++i) p[i] = tu_vec((i % 8) & 1, ((i % 8) >> 1) & 1, ((i % 8) >> 2) & 1);
    h = build_ok(p, 64);
    cr_assert_eq(h.nverts, 8);
    cr_assert_eq(h.nfaces, 6);
    ct_hull_free(&h);
}

/* ---- memory ------------------------------------------------------------------------------------ */
Test(hull, allocation_failure_sweep) {
    unsigned long long s = 5;
    ct_vec3 p[500];
    long k;
    int n = gen(D_SPHERE, p, 500, &s), ok = 0;
    for (k = 1; k < 200 && !ok; ++k) {
        tu_alloc t;
        ct_hull h;
        ct_status st;
        tu_alloc_init(&t, k);
        st = ct_hull_build(p, n, NULL, &t.a, &h);
        if (st == CT_OK) { ok = 1; ct_hull_free(&h); }
        else {
            cr_assert_eq(st, CT_NO_MEMORY);
            cr_assert_null(h.verts);
            cr_assert_eq(h.nfaces, 0);
        }
        cr_assert_eq(t.outstanding, 0, "leak after failing allocation %ld", k);
    }
    cr_assert(ok);
    cr_assert_gt(k, 3, "the sweep exercised several allocation sites");
}

Test(hull, warm_scratch_allocates_only_the_output) {
    unsigned long long s = 6;
    ct_vec3 p[300];
    tu_alloc t, out;
    ct_scratch sc;
    ct_hull_desc d;
    int it;
    int n = gen(D_BALL, p, 300, &s);
    tu_alloc_init(&t, 0);
    tu_alloc_init(&out, 0);
    ct_scratch_init(&sc, &t.a);
    memset(&d, 0, sizeof d);
    d.scratch = &sc;
    for (it = 0; it < 5; ++it) {
        ct_hull h;
        long before = t.calls;
        cr_assert_eq(ct_hull_build(p, n, &d, &out.a, &h), CT_OK);
        if (it > 0) cr_assert_eq(t.calls, before, "build %d allocated from a warm scratch", it);
        ct_hull_free(&h);
    }
    cr_assert_eq(out.calls, 5, "one output block per hull");
    cr_assert_eq(out.outstanding, 0);
    ct_scratch_release(&sc);
    cr_assert_eq(t.outstanding, 0);
}

Test(hull, aabb_under_transform) {
    unsigned long long s = 8;
    ct_vec3 p[50];
    int n = gen(D_CUBE, p, 50, &s), i, k;
    ct_hull h = build_ok(p, n);
    for (k = 0; k < 20; ++k) {
        ct_xform x = tu_random_xform(&s, 5);
        ct_aabb b = ct_hull_aabb(&h, &x);
        ct_vec3 lo = ct__xf_point(&x, p[0]), hi = lo;
        for (i = 1; i < n; ++i) { lo = ct__vmin(lo, ct__xf_point(&x, p[i])); hi = ct__vmax(hi, ct__xf_point(&x, p[i])); }
        cr_assert(ct__dist(lo, b.lo) < 1e2 * TU_EPS && ct__dist(hi, b.hi) < 1e2 * TU_EPS);
    }
    ct_hull_free(&h);
}

/* ---- fuzzer regressions ------------------------------------------------------------------------ */
/* The hull's tolerance, computed here from its definition in contact.h (>>hull). */
static double hull_tolerance(const ct_vec3 *p, int n, double eps) {
    double lo[3], hi[3], ext = 0, absmax = 0, feps = (double)TU_EPS;
    int i, k;
    for (k = 0; k < 3; ++k) lo[k] = hi[k] = (double)ct__vget(p[0], k);
    for (i = 1; i < n; ++i)
        for (k = 0; k < 3; ++k) {
            double x = (double)ct__vget(p[i], k);
            lo[k] = x < lo[k] ? x : lo[k];
            hi[k] = x > hi[k] ? x : hi[k];
        }
    for (k = 0; k < 3; ++k) {
        ext += 0.5 * (hi[k] - lo[k]);
        absmax = fmax(absmax, fmax(fabs(lo[k]), fabs(hi[k])));
    }
    return eps > 0 ? eps * fmax(ext, feps * absmax) : feps * (3 * ext + 2 * absmax);
}

/* Every input point inside every face plane within the documented bound (contact.h, >>hull):
   HULL_OUTSIDE_TOLS tolerances plus the rounding of evaluating the plane in ct_real. */
#define HULL_OUTSIDE_TOLS 8
static void check_contains(const ct_vec3 *p, int n, double eps, const char *name) {
    ct_hull h;
    ct_hull_desc d;
    double tol = hull_tolerance(p, n, eps), absmax = 0, worst = -1e300;
    int i, f;
    ct_status st;
    memset(&d, 0, sizeof d);
    d.eps = (ct_real)eps;
    st = ct_hull_build(p, n, &d, NULL, &h);
    cr_assert_eq(st, CT_OK, "%s eps %g: %s", name, eps, ct_status_string(st));
    for (i = 0; i < n; ++i) absmax = fmax(absmax, (double)ct__maxabs(p[i]));
    for (f = 0; f < h.nfaces; ++f)
        for (i = 0; i < n; ++i) {
            const ct_plane *pl = &h.planes[f];
            double s = (double)pl->n.x * (double)p[i].x + (double)pl->n.y * (double)p[i].y +
                       (double)pl->n.z * (double)p[i].z + (double)pl->d;
            worst = fmax(worst, s);
        }
    cr_assert(worst <= HULL_OUTSIDE_TOLS * tol + 8 * (double)TU_EPS * absmax,
              "%s eps %g: a point is %g tolerances outside the hull", name, eps, worst / tol);
    check_hull(&h, p, n, HULL_OUTSIDE_TOLS * tol + 64 * (double)TU_EPS * extent_of(p, n));
    ct_hull_free(&h);
}

static void load_points(ct_vec3 *p, const double (*xyz)[3], int n) {
    int i;
    for (i = 0; i < n; ++i) p[i] = tu_vec(xyz[i][0], xyz[i][1], xyz[i][2]);
}

/* Float fuzzer, scale 1: a merge took in a small face of the previous hull whose outside
   point was outside a neighbouring old face and lost it (0.73 outside). In double it shows
   with eps = 1e-6. */
static const double fz_old_face[27][3] = {
    { -4, -4, -4 }, { -0.929718017578125, -0.93719482421875, -4 }, { -0.929443359375, -4, -0.929412841796875 },
    { -0.929443359375, -4, -0.929412841796875 }, { 0.657745361328125, 0, 0.564300537109375 },
    { -1, -0.56243896484375, 0.302978515625 }, { 0.568634033203125, -3, -0.212646484375 },
    { -0.929443359375, -4, -0.929412841796875 }, { -0.929718017578125, -0.93719482421875, -4 },
    { -0.929718017578125, -0.93719482421875, -4 }, { -4, -2, -4 }, { -3, -2, -4 },
    { 0.7568359375, 0.7568359375, 0.7568359375 }, { 0.7568359375, 0.7568359375, 0.751434326171875 },
    { 0.75689697265625, 0.7568359375, 0.7568359375 }, { 0.7568359375, 0.750885009765625, 0.754608154296875 },
    { 0.7568359375, 0.7568359375, 0.7568359375 }, { 0.7568359375, 0.7568359375, -0.5516357421875 },
    { -0.929718017578125, -0.93719482421875, -4 }, { -4, -2, -4 }, { -4, -2, -4 },
    { -0.929718017578125, -0.93719482421875, -4 }, { -4, -2, -4 }, { 0, -4, -3 },
    { -2, -4, -0.788970947265625 }, { -0.929718017578125, -0.93719482421875, -4 }, { -4, -2, -4 },
};
/* Float fuzzer, scale 1: rounding of float arithmetic (0.0037 outside). */
static const double fz_float_rounding[27][3] = {
    { -4, -4, -3 }, { -4, -4, -3 }, { -0.929718017578125, -0.93719482421875, -0.937255859375 },
    { -3, -4, -0.929656982421875 }, { -0.607391357421875, 0.5635986328125, -1 }, { -2, -1, -0.61712646484375 },
    { 0.56756591796875, 0.568634033203125, -3 }, { -0.9188232421875, -3, -4 }, { -4, -2, -4 }, { -3, -2, -4 },
    { 0.7568359375, -0.9931640625, -0.937255859375 }, { -4, -2, -4 }, { -0.929718017578125, -0.93719482421875, -4 },
    { -0.929443359375, -4, -0.929412841796875 }, { 0, 0.657745361328125, -2 },
    { -1, -0.53826904296875, -0.61712646484375 }, { 0.56756591796875, 0.568634033203125, -3 },
    { -0.9188232421875, -3, -4 }, { -4, -2, -4 }, { -3, -2, -4 }, { 0.7568359375, 0.7568359375, 0.7568359375 },
    { 0.7568359375, 0.7568359375, 0.751434326171875 }, { 0.75689697265625, 0.7568359375, 0.7568359375 },
    { 0.7568359375, 0.7568359375, 0.7568359375 }, { 0.7568359375, 0.75146484375, 0.7568359375 },
    { 0.7568359375, 0.7568359375, -0.92156982421875 }, { -3, -2, -3 },
};

/* Double fuzzer, scale 1e-6 with a denormal coordinate and many copies: a copy of a vertex was
   outside a sliver face through it by the rounding of that face's plane (more than the default
   tolerance, 3 ulps of the extent) and became an eye with zero-area cone faces (2e-5 of the
   extent outside). */
static const double fz_vertex_copy[30][3] = {
    { 9.9999999999999694e-311, 9.9996948242187492e-07, 9.9996948242187492e-07 },
    { 9.9999999999999694e-311, 9.9996948242187492e-07, 9.9996948242187492e-07 },
    { 9.9999999999999694e-311, 9.9996948242187492e-07, 9.9996948242187492e-07 },
    { 9.9999999999999694e-311, 9.9996948242187492e-07, 9.9996948242187492e-07 },
    { -9.3444824218749994e-07, -3.9999999999999998e-06, -9.3139648437499995e-07 },
    { -9.3444824218749994e-07, -3.9999999999999998e-06, -9.3139648437499995e-07 },
    { 9.9999999999999694e-311, 9.9996948242187492e-07, 9.9996948242187492e-07 },
    { -3.0000000000000001e-06, -3.0000000000000001e-06, -3.9999999999999998e-06 },
    { -1.9999999999999999e-06, -9.3722534179687496e-07, 9.0649414062499993e-07 },
    { -1.9999999999999999e-06, -9.3722534179687496e-07, 9.0649414062499993e-07 },
    { 9.9999999999999694e-311, 9.9996948242187492e-07, 9.9996948242187492e-07 },
    { -9.3725585937499999e-07, -9.3719482421874993e-07, -3.9999999999999998e-06 },
    { -9.2944335937499991e-07, -3.9999999999999998e-06, -9.2941284179687498e-07 },
    { -3.9999999999999998e-06, -1.9999999999999999e-06, -9.3725585937499999e-07 },
    { -1.9999999999999999e-06, -9.3722534179687496e-07, 9.0649414062499993e-07 },
    { -3.9999999999999998e-06, -9.21600341796875e-07, -3.9999999999999998e-06 },
    { -9.2156982421874997e-07, -3.9999999999999998e-06, -9.2944335937499991e-07 },
    { -1.9999999999999999e-06, -9.3722534179687496e-07, 9.0649414062499993e-07 },
    { -1.9999999999999999e-06, -9.3722534179687496e-07, 9.0649414062499993e-07 },
    { -2.1847534179687499e-07, -9.2944335937499991e-07, -9.2944335937499991e-07 },
    { -1.9999999999999999e-06, -9.3722534179687496e-07, 9.0649414062499993e-07 },
    { -9.2944335937499991e-07, -9.2944335937499991e-07, -3.0000000000000001e-06 },
    { -3.0000000000000001e-06, 1.9999999999999999e-06, -3.0000000000000001e-06 },
    { -1.9999999999999999e-06, -9.3722534179687496e-07, 9.0649414062499993e-07 },
    { -1.9999999999999999e-06, -3.0000000000000001e-06, -3.0000000000000001e-06 },
    { -3.9999999999999998e-06, -1.9999999999999999e-06, -3.0000000000000001e-06 },
    { -3.0000000000000001e-06, -1.9999999999999999e-06, -3.0000000000000001e-06 },
    { -3.0000000000000001e-06, -3.0000000000000001e-06, -9.3121337890624998e-07 },
    { -1.9999999999999999e-06, -9.3722534179687496e-07, 9.0649414062499993e-07 },
    { -3.9999999999999998e-06, -1.9999999999999999e-06, -9.2938232421874995e-07 },
};

/* Stress, points near a box (noise 2 eps), eps = 1e-4: a merge where the absorbed face kept a
   single edge tidied one junction through that edge's stale link and left the merged face
   with freed half-edges (4150 tolerances outside; a crash or a hang at other settings). */
static const double st_merge_single_edge[46][3] = {
    { -0.99989046867867748, 0.78201405318472106, 0.68338400069799721 },
    { 0.16701812762624346, -0.99995590440971349, 0.71221920838239283 },
    { 0.52840411162171486, -0.21939995502452514, -1.0000742679603625 },
    { 1.0000704616667355, 0.77555809277516663, 0.36089468329910024 },
    { -0.70985525456068665, 0.99980915595689046, 0.31958232511047457 },
    { -0.13039871372037481, -0.48954020456016534, 0.99985409261422764 },
    { -0.99981302160001817, 0.76750953803188016, -0.44043669328516888 },
    { 0.71780969057774668, -1.0001241319198002, 0.48113235271990784 },
    { 0.23456800856726612, -0.34268946097676367, -1.000073741119236 },
    { 1.000041648227294, -0.17049683717114728, -0.33571968777044781 },
    { -0.23808537298466481, 0.99986431711016466, 0.72952002925583326 },
    { 0.037818136833816185, 0.80393178015098887, 1.0000075841987748 },
    { -0.99982903814847768, -0.73505034852187823, 0.10465014197769995 },
    { -0.51261182898782454, -1.0000191157037901, -0.56153567059641318 },
    { -0.83081518284761091, 0.82120917790763781, -1.0001091853266955 },
    { 0.99994182824335831, 0.053859405707001873, 0.14699350676768264 },
    { 0.14723385031077929, 0.99992077483647779, -0.33706759422003651 },
    { -0.16004442968232335, -0.12883785345607768, 0.99997437872230865 },
    { -1.0001584230691534, 0.040385654749282907, -0.5427040802460279 },
    { 0.67855738977204227, -1.0001012273979262, -0.91465671294964035 },
    { 0.81263031928636642, -0.55076628205961242, -1.0000068769899819 },
    { 1.0000460370738811, -0.31722707092656299, 0.37680021875040803 },
    { 0.65090161292329785, 0.99992808085349427, -0.75358264402540276 },
    { -0.73070486048061389, -0.58586494786889953, 1.0001776152908717 },
    { -1.0000616769828097, -0.72628759205255045, -0.68578899150349804 },
    { -0.067003186995683084, -0.99980619333140763, 0.74357808582923646 },
    { 0.84043546826709781, -0.32601374958843765, -0.99998513930307276 },
    { 1.0001409653915312, 0.91179861924728223, 0.81914135498090235 },
    { -0.65698638298406276, 1.0000982026779592, -0.73406722630520549 },
    { 0.67165013771737803, -0.62038193455523039, 0.99996864621664772 },
    { -1.0000900001662631, 0.23802696935477075, -0.95272132513016738 },
    { -0.83109921752834692, -1.0001148050209041, -0.16741792549127044 },
    { -0.29247898565874775, -0.96243219555258719, -1.000039992462876 },
    { 1.0000470779713651, -0.65607536715027948, -0.17311918153836392 },
    { 0.5576397015941732, 0.99996544628927575, 0.080844168442737452 },
    { -0.3905055876166672, 0.045977347264950952, 0.99998809603475525 },
    { -0.99998866432087874, -0.84441410706627407, 0.93758697555960646 },
    { -0.2776718383230472, -1.0001953561717523, 0.3545227012347627 },
    { -0.27879551109437473, -0.71712825880817865, -0.99998748074677424 },
    { 0.99980282269938636, 0.32840015280783597, -0.016112691177651906 },
    { 0.21579856906476502, 0.99998426506088267, 0.080782454098575096 },
    { -0.007442582612835924, 0.36040622964351043, 0.9998414562076875 },
    { -0.99992902992056654, 0.62684172977441022, 0.34324997543732882 },
    { -0.52762335043408459, -1.0001016333180512, 0.15774600074674017 },
    { -0.19191458932940408, 0.62293453873483173, -0.99994446616863442 },
    { 1.0001014899751057, 0.2574430708516886, -0.47805116767205713 },
};
/* Stress, eps = 1e-3: quickhull did not terminate (the same corrupted merge). */
static const double st_coarse_hang[55][3] = {
    { -1.001906423391359, 0.69992673510418824, 0.87839488791981624 },
    { -0.93955011213441764, -0.99953810276748645, -0.59011826160794234 },
    { 0.13681855777413143, 0.093641670446465541, -1.001399416332815 },
    { 0.99849301284560688, -0.43636359594204444, 0.29764203495360553 },
    { -0.16592640858444496, 0.99918109864744331, -0.31281784227056764 },
    { 0.28739673826254264, -0.66210814477123892, 0.99961573580536145 },
    { -1.001534996654128, -0.68328206581523698, -0.20356104505598349 },
    { 0.27659172415907363, -1.0006837049675885, -0.2992596905069238 },
    { 0.62748912870280504, 0.66490439079669716, -0.99863740332911355 },
    { 1.0016818857196654, -0.18889159599017025, -0.10702680077398341 },
    { -0.977976225631767, 1.0008843233564131, 0.14251864041945228 },
    { -0.060199915304846474, -0.51127620479364477, 0.99841916450903057 },
    { -1.0016026976587096, 0.75738241506161175, -0.25547612097464234 },
    { 0.064070700620180832, -0.99932350934311964, 0.35275052584853883 },
    { -0.76492524469824419, 0.66279528029308898, -1.0004907679459256 },
    { 1.0007226989870521, 0.95876910623088518, -0.5959750488272928 },
    { -0.83710648285810607, 1.0018641598586444, 0.54944600311159753 },
    { 0.94055265793780518, 0.18362290864906461, 1.0018961091301612 },
    { -0.99829723730328923, -0.91825834583297361, -0.8059157795269789 },
    { 0.29942315903141181, -0.99836037468705474, -0.012100725381137378 },
    { -0.13161267071773586, -0.80738768595958743, -1.0011358247601896 },
    { 1.0010578996205499, 0.022231889048208719, -0.72430642193380734 },
    { 0.089137038863992935, 1.0011303383526424, 0.69694771975633785 },
    { -0.88641715605876059, -0.79355217458195471, 1.0004932461188438 },
    { -1.0005941550342337, -0.24225117652135619, 0.48861939878828697 },
    { -0.21740859032614868, -0.9986330051573199, -0.014143964702304723 },
    { 0.55846133006135568, 0.61224993515711801, -1.0001239605247636 },
    { 1.0015466354005849, -0.54912436201085768, 0.72065147130822305 },
    { -0.73726460005407923, 0.99844449514410649, 0.48125404572261332 },
    { -0.3363166948463725, -0.53771535090067601, 1.0011631627921151 },
    { -1.0013671608115307, -0.037120988823932555, 0.91833373789008355 },
    { 0.26663597358377866, -0.99924154804280163, -0.012576123854919574 },
    { -0.51451231630088801, -0.12479376694810274, -1.0018458884016141 },
    { 0.9983575521496828, 0.046332573997860838, 0.38098342667882945 },
    { 0.37345933119592534, 1.0019595202579554, -0.23163838565413863 },
    { 0.39024171227105531, -0.53625185333977354, 0.99977187791566446 },
    { -0.99801056184732984, -0.63913664792192049, -0.88877301824830535 },
    { 0.037592567260297471, -1.0017625689458716, 0.33670227263971175 },
    { 0.6777614643932548, 0.61741439534216869, -0.99887646167740929 },
    { 1.0000329284856033, -0.27170534521537948, -0.20363421843591367 },
    { 0.80318906477106289, 1.0000571424475084, 0.16727189435354051 },
    { -0.73803475749474234, 0.83264901973185879, 0.99850771180242093 },
    { -0.99842919257648055, 0.41452572291139544, 0.32401361605914092 },
    { 0.20416391037324155, -1.0002952020463671, 0.92455936955203377 },
    { 0.10788291487109403, -0.12575743206185086, -1.0008853235381283 },
    { 1.0004900577877267, -0.74807656879458317, 0.79299164586802262 },
    { -0.45276231321568328, 1.0016922717225265, 0.6161910449389596 },
    { 0.1808338395596889, -0.35877564761062497, 0.99892580811494225 },
    { -1.0012420279417575, 0.049690265369839004, 0.4566856511732893 },
    { 0.37479983810236406, -0.99990986241561275, 0.49070227288698165 },
    { -0.93028202131169335, -0.23919194349722428, -1.0014566212348104 },
    { 1.0009598040949692, 0.23356489650507517, -0.86562692427037047 },
    { -0.62867635679838085, 1.0009365245872095, 0.67210289262823553 },
    { 0.87238218716233118, -0.84819712536332292, 0.99882630478302237 },
    { -1.0012460182063565, -0.34345825276694808, 0.48111023928985874 },
};
/* Stress, a sphere flattened to 1/100, eps = 1e-3: points within tol of two nearly coplanar
   faces were dropped, then a new face next to them left them 85 tolerances outside. */
static const double st_flat_crease[43][3] = {
    { -0.023867150363308162, 0.9753229065809379, -0.0021948937328802177 },
    { -0.40159587217134007, -0.27877028093147654, -0.0087235765815615023 },
    { -0.82237688840731449, -0.09473824650428242, -0.0056099992538416535 },
    { 0.22399941643458227, -0.83034867107757315, -0.0051024047584470045 },
    { 0.20276998227388784, -0.89651679388356409, -0.0039388065463513413 },
    { -0.2841138497120172, -0.7196832946869014, 0.0063351027812810481 },
    { 0.917342576467993, 0.058902216350399418, -0.0039371706109452721 },
    { -0.74505937471547956, 0.02455795050730164, 0.0066654589676283576 },
    { 0.87117396506684708, -0.48128452842324365, 0.00097062452184376667 },
    { 0.14399761157366608, -0.93890071797347352, -0.0031261818188999891 },
    { -0.40062280505604547, -0.57893243500400227, -0.0071016800992232685 },
    { 0.22127366357755382, 0.88866858456709541, 0.0040162931870641166 },
    { 0.016989115005338472, -0.58494654636468124, -0.0081089389330111575 },
    { 0.044053184164280217, -0.2144122476792984, -0.0097574930330078212 },
    { 0.57131592269959774, -0.49293195905009107, 0.0065621353052235125 },
    { -0.69865305882050166, 0.35267470822840213, 0.006224985559567001 },
    { 0.77678540340895752, 0.36248536531250741, -0.00514984263812749 },
    { -0.99941842533022751, 0.03269141520142084, -9.6993824143232362e-05 },
    { 0.26450406210404426, -0.77187584331244474, 0.0057813950046660045 },
    { -0.4292968587420935, -0.10542214114490119, -0.0089698961942209429 },
    { 0.21969919827816456, -0.46416004454466603, -0.0085807209094069734 },
    { -0.2072593899009893, 0.024214937149143051, -0.0097798628804532314 },
    { 0.92833670428720805, -0.36867860554105825, 0.00047613519802668601 },
    { -0.79784571622392542, 0.228911470487873, 0.0055771117056444223 },
    { 0.018927924955488867, 0.97506046069466257, 0.002211307933571327 },
    { 0.70776800478267976, -0.61057084089747815, -0.0035534166267591765 },
    { -0.36636926179538198, -0.066599318454030346, 0.0092808302012279027 },
    { -0.28654077887133783, 0.57093474306531877, 0.0076936850703695379 },
    { -0.6030645063106238, 0.64641780299043028, 0.004673940776979627 },
    { -0.92086118451713495, -0.389694736834092, -0.00012356650295862443 },
    { 0.3843387315264809, -0.74658701907593106, -0.0054303918904454185 },
    { -0.11219947736390792, -0.31987031177046815, -0.0094079448262531958 },
    { -0.57685760654596696, 0.81554186609705237, -0.00046116852665793138 },
    { 0.41271735998789966, -0.70761705048293355, -0.0057353508088772596 },
    { -0.83513352027011656, 0.5402725642022963, 0.001032354487609776 },
    { 0.18735446964938027, -0.98133570201928855, 0.00043342131238557023 },
    { 0.88162634158015285, 0.099617515890707983, -0.0046131479683896581 },
    { 0.45305694240542721, 0.33204832929576372, 0.0082733506602807368 },
    { -0.69056457415211103, 0.44212021043505639, -0.0057240744816782199 },
    { -0.73608647664405735, 0.45771451842540778, -0.0049867235438084429 },
    { -0.72765797484864647, 0.51689233909651622, 0.0045092813136362779 },
    { 0.34593022983867927, 0.80258274192397072, -0.0048599713457261867 },
    { 0.72615529241853949, -0.4798730686790752, 0.0049236198733901785 },
};

/* Float fuzzer (a 60 s run, 2026-11-27): three hull vertices on the line x = y = 0.99997 (one
   of them on the edge between the others) came out as a triangle of zero area: a face with a
   zero normal, which every containment check passes. Such a result now counts as failed and
   is built again (ct__quickhull, ct__qh_verify). */
static const double fz_zero_area_face[60][3] = {
    { -0.999176025, -0.937255859, -2 },
    { 0.999969482, 0.999969482, 0.999938965 },
    { 0.999969482, 0.996063232, 0.999969482 },
    { 0.984344482, 0.999969482, -0.929718018 },
    { -0.929656982, -4, -0.929382324 },
    { 0.984344482, 0.999969482, -0.929718018 },
    { -4, -2, -4 },
    { -0.921600342, -4, -0.632507324 },
    { 0.999969482, 0.999969482, 0.999938965 },
    { -3, -4, -3 },
    { -3, -4, -3 },
    { 0.984344482, 0.999969482, -0.929718018 },
    { -0.999176025, -0.937255859, -2 },
    { -2, 9.9999461e-41, -3 },
    { 0.999969482, 0.999969482, 0.999969482 },
    { 0.999969482, 0.999969482, -0.284088135 },
    { 0.276245117, 0.278411865, 0.999969482 },
    { -0.901275635, 0.278411865, 0.996063232 },
    { 0.999969482, 0.984344482, 0.999969482 },
    { -0.124755859, -0.929412842, -4 },
    { -2, -3, -4 },
    { -4, -2, -4 },
    { -0.921600342, -4, -0.632507324 },
    { -0.999176025, -0.937255859, -2 },
    { -4, -4, -2 },
    { 0.999969482, 0.999969482, -0.523468018 },
    { 0.999969482, 0.996063232, 0.998016357 },
    { 0.984344482, 0.999969482, -0.914093018 },
    { -0.929656982, -4, -0.929382324 },
    { 0.999969482, 0.999969482, 0.999938965 },
    { -4, -2, 0 },
    { -0.921600342, -4, -0.632507324 },
    { -3, -4, -3 },
    { -3, -4, -3 },
    { -3, -4, -3 },
    { 0.984344482, 0.999969482, -0.929718018 },
    { -0.999176025, -0.937255859, -2 },
    { -2, 9.9999461e-41, -3 },
    { -0.926635742, -2, -4 },
    { -3, -0.937225342, -3 },
    { -3, -4, -3 },
    { 0.278411865, 0.999969482, -2 },
    { -3, -4, -3 },
    { 0.997161865, -0.278686523, 0.997161865 },
    { 0.999969482, 0.999969482, 0.999938965 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 },
    { -0.999176025, -0.937255859, -2 }
};

/* Float fuzzer, scale 1e6, many copies: the fold rule put the eye in line with a horizon edge;
   the zero-area cone face led to a face merging with itself (quickhull did not terminate). */
static const double fz_eye_in_line[8][3] = {
    { -42938.232421875, 11749.267578125, 9155.2734375 }, { 11749.267578125, 11749.267578125, 13671.875 },
    { -19683.837890625, 11749.267578125, 11749.267578125 }, { -4000000, 0, -937194.82421875 },
    { -42938.232421875, 11749.267578125, 9155.2734375 }, { -4000000, 0, -4000000 },
    { -2000000, -2000000, -921569.82421875 }, { -4000000, 0, -937194.82421875 },
};

/* st_flipped_bottom: a box with faces noisy by ~eps (157 points): a cone triangle on the bottom
   face, coplanar with its neighbours, was merged with one and the vertex of degree two this left
   was cut out, which flipped the rest of it to face up (every point of the top was two box
   widths outside it). The default-tolerance check now rebuilds such a hull. */
static const double st_flipped_bottom[157][3] = {
    { -0.80488552948117276, 1, 0.18832178946929434 },
    { 0.30810627864853157, 0.99999999999999889, -0.80053475808800112 },
    { 0.68469842557021932, -1.0000000000000013, 0.24817961144801548 },
    { -0.099727868410495635, -0.99999999999999889, 0.87605002673148746 },
    { -0.33708547942595857, 0.0095540353851311099, -0.999999999999999 },
    { 0.94076761363345218, 0.99999999999999889, -0.017200633707878277 },
    { 0.51917056152901786, 0.04567344730858669, -1.0000000000000013 },
    { 0.29592490193222942, -0.99999999999999867, 0.80241419271905112 },
    { -0.81764407796523275, 1.0000000000000007, -0.17328560856002717 },
    { 0.45209950100437246, -0.99999999999999956, 0.54475101519225877 },
    { -0.13669222600181175, 1.0000000000000002, 0.03297340102436852 },
    { -0.5181386518576685, -0.99999999999999867, 0.016030589673246665 },
    { -0.99999999999999889, 0.23813357211015118, -0.70129593939739676 },
    { 1.0000000000000013, 0.58450489596524502, 0.32287671005710572 },
    { -0.34382951743680268, -1, -0.75632970903130481 },
    { -0.065029366777046294, -1.0000000000000002, -0.0476940365662335 },
    { -0.37639841292014631, 0.99999999999999867, 0.79741343314526203 },
    { -0.49753958666175935, -0.53060826976155195, -1.0000000000000013 },
    { 0.091241825382856856, -0.85312236821873277, -0.99999999999999989 },
    { -0.99999999999999956, 0.66467054839674922, 0.98133289838008086 },
    { -1.0000000000000002, -0.10666386329818467, 0.49516570045960062 },
    { -0.85342271193485542, -0.63043021428096013, 0.99999999999999978 },
    { -0.84913687089029599, 0.093668254131316298, -0.99999999999999878 },
    { -1.0000000000000013, 0.35029340269972065, -0.91264588147121728 },
    { 0.9577330966647819, -0.79846929201007688, -0.99999999999999911 },
    { 0.36305883542972284, 0.74379611755877506, 0.99999999999999922 },
    { 0.3605443639387742, 0.99999999999999911, 0.56007664009199964 },
    { -1.0000000000000011, -0.55722477616703481, -0.9008420410836715 },
    { -0.022317624256088964, -0.56477332031515615, 0.99999999999999922 },
    { -0.99999999999999889, 0.27784616352529756, 0.36319143911203899 },
    { 0.99999999999999933, 0.21137478780057117, -0.64743893858424273 },
    { -0.99999999999999956, -0.49657427581675129, 0.49473460711296724 },
    { -1.0000000000000004, -0.15081246089688127, 0.71590583295033206 },
    { 0.91574511533958103, 1, -0.1703270205405083 },
    { -0.99999999999999967, -0.59410619069407966, 0.26939852752568472 },
    { 0.99999999999999967, -0.52544209763653038, 0.4482174652656985 },
    { -1.0000000000000011, 0.07762859200250527, 0.78618799913963322 },
    { -0.99999999999999889, 0.3088672761051876, 0.35559629296336515 },
    { 0.039412951183865896, -0.99999999999999911, 0.48781063052166918 },
    { -0.60663847059511133, 0.99999999999999933, 0.40734195877947021 },
    { -0.60437860690728962, 0.94744028605922459, -0.99999999999999867 },
    { -0.81506708725849286, 0.32409091592026829, 0.99999999999999878 },
    { -0.92510191756661686, -0.68080179186237322, -1 },
    { 0.34508225573811968, -1, -0.80059282726710257 },
    { -0.46563464458853043, -0.35625565609626797, 0.99999999999999956 },
    { 1.0000000000000004, 0.98645099990128404, 0.59428729934002789 },
    { -0.47522027933853805, -0.38845558004842418, -0.999999999999999 },
    { -1.0000000000000013, 0.82981078345665926, 0.025030718260190987 },
    { -0.64561253319483014, 0.99999999999999989, -0.19364967620760321 },
    { 0.58458470529237827, 0.99999999999999989, 0.085258051964148596 },
    { 1.0000000000000002, 0.38498417149195019, -0.60119663814436475 },
    { -0.28254120117282144, -0.62912010234727878, -1.0000000000000002 },
    { -0.50831774969383048, 0.049191118138898871, -1.0000000000000011 },
    { 0.34335816481783366, 1.0000000000000002, 0.58943508050700788 },
    { -0.75968594020449798, -0.99999999999999944, 0.92418023854427545 },
    { 1.0000000000000013, 0.80981469309530119, 0.82052800834133288 },
    { -0.57647632148554928, -0.8718876450642703, -0.99999999999999867 },
    { -0.99999999999999956, -0.17737083285364585, 0.55614862327611991 },
    { -0.999999999999999, 0.58822797153007089, 0.072954819857226738 },
    { -1.0000000000000002, 0.48801814882537276, -0.61696213127706812 },
    { -0.99999999999999867, 0.79647909272703954, 0.93807004520662929 },
    { -0.2831234234205029, 0.6013303498157816, 1.0000000000000011 },
    { 0.51432036731963726, -0.99999999999999933, 0.52415752209240885 },
    { -0.99999999999999933, -0.99139265167034485, -0.53092355102987532 },
    { 0.66710872169351698, -1.0000000000000011, -0.76856310988710219 },
    { 0.010507446788021291, -1.0000000000000004, 0.52865414875446515 },
    { 0.82972473792035784, -1.0000000000000002, 0.32413689149991476 },
    { 0.99999999999999867, 0.64714482623290959, -0.71385410853565245 },
    { 0.67765909142585334, -0.3099316034833266, -1.0000000000000011 },
    { -0.74039645642901619, 0.40742822119736499, 0.99999999999999889 },
    { 0.41845206050321293, 1.0000000000000007, 0.016161611005394372 },
    { -0.37856144260037183, 0.8392564908038147, 0.999999999999999 },
    { 1.0000000000000013, -0.025963079734057315, 0.31212867339631112 },
    { 0.68050090223758897, 0.63520013780127149, 0.99999999999999911 },
    { 0.99999999999999944, -0.77515601203623641, -0.76733160195317063 },
    { -0.092023226695947091, -0.25286665652307594, 0.99999999999999944 },
    { -0.64180996241711008, 0.99999999999999878, -0.017344948792493264 },
    { -0.42416736361740437, -0.13271093775965781, 1.0000000000000009 },
    { 0.4954183731562869, 0.99999999999999967, 0.50054679933922164 },
    { 0.99999999999999978, -0.11909302497922014, 0.71882163168628344 },
    { 0.21829427833779125, -1.0000000000000011, 0.30537965378531151 },
    { -1.0000000000000011, 0.40303635923929226, 0.56444452260031186 },
    { 1.0000000000000004, 0.22444621901677109, -0.53658960556830215 },
    { 1.0000000000000004, 0.95463674236139684, -0.83308920854693547 },
    { 0.85435534224012311, -0.18658039523700287, -1.0000000000000011 },
    { -0.28144223092346077, 1.0000000000000004, 0.65132443269839402 },
    { -0.18290607829037908, -0.99999999999999989, 0.39717132636833785 },
    { 0.5927851320259101, 0.99999999999999878, -0.24483377371973503 },
    { 0.52326415298544759, -0.99999999999999889, 0.12631378008532157 },
    { -0.55321850606875955, -1.0000000000000004, 0.44627621974343734 },
    { 0.58610136100525989, -1.0000000000000007, 0.16570276080890589 },
    { 0.43782965552020792, 0.59757782176315799, 1.0000000000000009 },
    { 0.084711983966292204, -0.55069574884121275, -1 },
    { -0.96568609624253821, -0.80373081229675325, 0.99999999999999956 },
    { -0.7065290393867647, -0.63628413593458966, -0.99999999999999878 },
    { 0.99999999999999889, 0.26647578856652832, -0.81889346494832371 },
    { 0.50373100845223751, 0.99999999999999867, 0.23918132294449435 },
    { 0.12287825264959196, -0.99999999999999956, 0.35201566441197407 },
    { 0.9608845227741678, 0.99999999999999856, -0.91167504595111204 },
    { 0.12750499832542816, 0.92125246547013417, -1.0000000000000007 },
    { -0.015171182751741119, 0.74908052515336476, -1 },
    { 0.59521908432185233, 0.14737417066777359, 0.99999999999999867 },
    { -0.37032580476457277, -0.99999999999999922, -0.27150414308355808 },
    { 0.99999999999999978, 0.92785358954056685, -0.79074014770093637 },
    { -0.31915939530747739, -0.80427071678145334, -1.0000000000000011 },
    { 1.0000000000000011, 0.20827690137249988, 0.30132323046705567 },
    { 0.57921447818824201, -0.99999999999999944, 0.62410507287293426 },
    { 1.0000000000000011, -0.52477598219085397, -0.51646935937540106 },
    { -0.99999999999999878, 0.46484336337987076, -0.073822929938031079 },
    { -1.0000000000000007, 0.67089661859821415, -0.21678144247328057 },
    { -0.25466085050685727, 1.0000000000000007, 0.57741569144972305 },
    { 1.0000000000000013, 0.11785290415656591, 0.88691839967731467 },
    { -0.99999999999999944, -0.42716694404459798, -0.012564886918984053 },
    { 0.52497503671340029, -0.81530153960130614, 1.0000000000000013 },
    { -0.7848532665388781, 0.68957374475954158, -1.0000000000000013 },
    { -0.21386287952364547, -0.49846284030789123, 1 },
    { 0.007126958372948522, 0.99999999999999956, -0.87956840640190004 },
    { 0.91297848387090008, -0.85176259181846969, 1.0000000000000009 },
    { 0.61701370453531013, -0.87492719623361315, -0.99999999999999889 },
    { -0.99999999999999989, 0.78575175873972891, 0.82194439446961387 },
    { -0.9439690929084561, -0.023655985695199444, 0.99999999999999878 },
    { -0.187331713487777, 1.0000000000000009, 0.14896938294438256 },
    { 1.0000000000000007, 0.41247538478418444, -0.072164274839744413 },
    { 1.0000000000000002, 0.39774249072680212, -0.056517025035851098 },
    { 0.13412659905544477, -0.99999999999999944, 0.47628045772694794 },
    { -0.83041018139562195, -0.67742005680810391, -1.0000000000000009 },
    { -1.0000000000000007, -0.98129409383603217, -0.37772489800288866 },
    { 0.59882454861775347, -0.99999999999999867, -0.29829132487089405 },
    { 0.99999999999999967, 0.8556184224516783, -0.58408521904417832 },
    { 0.77143294468021484, -0.046723570419078486, 0.99999999999999956 },
    { 0.30332294886355293, 0.26222587602597791, -0.999999999999999 },
    { 0.70986257522075569, 0.20359645980437979, -1.0000000000000002 },
    { -0.85961135441345005, -0.47731871858964969, -0.99999999999999967 },
    { -0.99999999999999867, 0.98951340677275246, 0.56583377016855696 },
    { -0.60698235480518314, -0.99999999999999878, 0.93163732409271094 },
    { -0.99735398135715103, 1.0000000000000013, -0.46129578710675911 },
    { -0.74922503640463778, -0.64002877761042876, -0.99999999999999933 },
    { -1.0000000000000011, 0.46523844580548346, 0.68809655024172334 },
    { 0.40853598669092683, -1.0000000000000004, -0.84360369707254712 },
    { 0.77324964858170886, 1.0000000000000002, 0.60754070369648128 },
    { -0.99999999999999944, 0.47657167980028992, 0.41798054394110462 },
    { 1.0000000000000013, 0.84763199517421017, -0.95152989965292201 },
    { -0.999999999999999, 0.98442279940498678, -0.85947828308979268 },
    { -0.60464660737355769, -0.12833980244633891, -0.99999999999999978 },
    { 1.0000000000000004, -0.29805620740309768, 0.64635649187303756 },
    { 0.40133457626006419, 1.0000000000000013, -0.17517511262181951 },
    { -0.99999999999999878, 0.6654549208458731, 0.96694960008167508 },
    { -0.23417425825273797, 0.23605348314175667, 0.99999999999999867 },
    { 1.0000000000000002, 0.5060630636327359, 0.55184968172088644 },
    { -1.0000000000000011, -0.049754754511796673, -0.49291521555584428 },
    { -0.99999999999999933, -0.5498845405838686, -0.86655986114436612 },
    { 0.99999999999999922, 0.94093970833349805, -0.18656504090590653 },
    { 0.64453788231630793, -0.99999999999999922, -0.88291384842649157 },
    { 0.66577425052993555, 0.69743418550303971, 0.99999999999999989 },
    { 0.37753973299594845, 1.0000000000000007, -0.28746138377278552 },
    { -1.0000000000000013, -0.47732170393424123, 0.29164923866827452 },
    { 0.010326830732769521, 1.0000000000000011, 0.10261883249121295 } };

Test(hull, fuzz_regressions) {
    /* each set, padded to `total` points with copies of its first (as the fuzzer made them) */
    static const struct { const double (*xyz)[3]; int n, total; const char *name; } sets[] = {
        { fz_old_face, 27, 27, "old face" },
        { fz_float_rounding, 27, 27, "float rounding" },
        { fz_vertex_copy, 30, 30, "vertex copy" },
        { st_merge_single_edge, 46, 46, "merge keeping a single edge" },
        { st_coarse_hang, 55, 55, "coarse hang" },
        { st_flat_crease, 43, 43, "flat crease" },
        { fz_eye_in_line, 8, 27, "eye in line" },
        { st_flipped_bottom, 157, 157, "flipped bottom" },
        { fz_zero_area_face, 60, 60, "zero-area face" },
    };
    static const double eps[] = { 0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3 };
    ct_vec3 p[160];
    int j, k, i;
    for (k = 0; k < 6; ++k)
        for (j = 0; j < (int)(sizeof sets / sizeof sets[0]); ++j) {
            load_points(p, sets[j].xyz, sets[j].n);
            for (i = sets[j].n; i < sets[j].total; ++i) p[i] = p[0];
            check_contains(p, sets[j].total, eps[k], sets[j].name);
        }
}

/* Stress: geometry a few tolerances thick, where chains of coplanarity merges tilt
   faces. Without the verified fallback of ct_hull_build, at every eps > 0, about 2% of the
   flattened spheres and 0.2% of the noisy boxes left points up to ~800 tolerances outside
   (a few a whole corner, ~1e4), and more had faces folded by hundreds of tolerances or a
   vertex inside an edge. */
enum { ST_FLAT_SPHERE, ST_THIN_BOX, ST_NOISY_BOX, ST_COUNT };
static const char *st_name[ST_COUNT] = { "flattened sphere", "box faces, noise ~eps", "box faces, noise ~6 eps" };
static int stress_set(int fam, double eps, ct_vec3 *p, unsigned long long *s) {
    int n = 20 + (int)(tu_uniform(s) * 200), i;
    double flat = eps * (5 + 25 * tu_uniform(s));   /* a sphere flattened to 5-30 eps */
    for (i = 0; i < n; ++i) {
        if (fam == ST_FLAT_SPHERE) {
            ct_vec3 u = tu_random_unit(s);
            p[i] = tu_vec((double)u.x, (double)u.y, (double)u.z * flat);
        } else {   /* a point on a random face of [-1,1]^3, pushed off it by the noise */
            int f = (int)(tu_uniform(s) * 6), ax = f / 2;
            double noise = eps * (fam == ST_THIN_BOX ? 0.5 + tu_uniform(s) : 2 + 8 * tu_uniform(s)), v[3];
            v[ax] = (f & 1 ? 1 : -1) * (1 + noise * (2 * tu_uniform(s) - 1));
            v[(ax + 1) % 3] = 2 * tu_uniform(s) - 1;
            v[(ax + 2) % 3] = 2 * tu_uniform(s) - 1;
            p[i] = tu_vec(v[0], v[1], v[2]);
        }
    }
    return n;
}

Test(hull, stress_near_coplanar_sets_stay_contained, .timeout = 300) {
    static const double eps[] = { 1e-5, 1e-3, 1e-2 };
    ct_vec3 p[220];
    int fam, k, j;
    for (fam = 0; fam < ST_COUNT; ++fam)
        for (k = 0; k < 3; ++k) {
            unsigned long long s = 0x5eed0000ULL + (unsigned long long)(100 * fam + k);
            for (j = 0; j < 300; ++j) {
                int n = stress_set(fam, eps[k], p, &s);
                check_contains(p, n, eps[k], st_name[fam]);
            }
        }
}

/* Stress at the default tolerance: the same families, a few default tolerances
   thick. Before the default-tolerance check in ct_hull_build, a noisy box could come out with
   a face of its bottom flipped to face up (a point two box widths outside it), flattened
   spheres left points up to ~600 tolerances outside, and a needle 1.6e7 long left a point
   ~2e4 tolerances outside. Now a hull built with the default tolerance is within 8 of the
   tolerance it was finally built with (rebuilt in two other point orders, then with the
   default one times 16, 256 or 4096); sets flat within it are CT_DEGENERATE. Empirically
   (asserted, on these seeds) the other point orders suffice: every OK hull is within 8
   default tolerances (before: 231 out on a flattened sphere, 112 on a noisy box), and the
   thickest flattened spheres are rarely degenerate. */
static double worst_outside(const ct_hull *h, const ct_vec3 *p, int n) {
    double worst = -1e300;
    int f, i;
    for (f = 0; f < h->nfaces; ++f)
        for (i = 0; i < n; ++i) {
            const ct_plane *pl = &h->planes[f];
            worst = fmax(worst, (double)pl->n.x * (double)p[i].x + (double)pl->n.y * (double)p[i].y +
                                    (double)pl->n.z * (double)p[i].z + (double)pl->d);
        }
    return worst;
}

Test(hull, stress_default_tolerance_is_checked, .timeout = 300) {
    static const double thick[] = { 0.5, 4, 100 };   /* in units of ct_real's epsilon */
    ct_vec3 p[220];
    int fam, k, j, sets = 0, flat = 0, flat_degenerate = 0;
    for (fam = 0; fam < ST_COUNT; ++fam)
        for (k = 0; k < 3; ++k) {
            unsigned long long s = 0xdefa0000ULL + (unsigned long long)(100 * fam + k);
            int degenerate = 0;
            double most = 0;
            for (j = 0; j < 400; ++j) {
                int n = stress_set(fam, thick[k] * (double)TU_EPS, p, &s), i;
                double tol = hull_tolerance(p, n, 0), absmax = 0, w;
                ct_hull h;
                ct_status st = ct_hull_build(p, n, NULL, NULL, &h);
                ++sets;
                flat += fam == ST_FLAT_SPHERE;
                if (st == CT_DEGENERATE && fam == ST_FLAT_SPHERE) { ++degenerate; ++flat_degenerate; continue; }
                cr_assert_eq(st, CT_OK, "%s, %g eps, set %d: %s", st_name[fam], thick[k], j, ct_status_string(st));
                for (i = 0; i < n; ++i) absmax = fmax(absmax, (double)ct__maxabs(p[i]));
                w = (worst_outside(&h, p, n) - 8 * (double)TU_EPS * absmax) / tol;
                most = fmax(most, w);
                cr_assert(w <= HULL_OUTSIDE_TOLS, "%s, %g eps, set %d: a point %g default tolerances outside",
                          st_name[fam], thick[k], j, w);
                cr_assert_eq(h.nverts - h.nedges + h.nfaces, 2);
                ct_hull_free(&h);
            }
            if (fam == ST_FLAT_SPHERE && k == 2) cr_assert(degenerate <= 4, "%d of 400 degenerate", degenerate);
            cr_log_info("default tolerance, %s, %g eps: %d of 400 degenerate, worst %.1f tolerances",
                        st_name[fam], thick[k], degenerate, most);
        }
    printf("hull: %d default-tolerance stress sets, %d of %d flattened spheres CT_DEGENERATE\n", sets,
           flat_degenerate, flat);
}

/* Needles: most points within w of one line (w = 1e-11..1e-7 of its length), many in clusters
   of exact copies and near-copies, plus two or three points well off the line, so the set spans
   3D by far more than its tolerance. The exact hull has sliver faces through three near-collinear
   points (a fuzz_pfc erosion met 11 such points, extent 16, w 1e-7): a plane from a plain cross
   product turns by eps over the sliver's aspect, so a vertex further along the line was 8e6
   tolerances above it and every rebuild failed (CT_DEGENERATE). Every set must build and
   contain every point within the documented bound. */
static int needle_set(ct_vec3 *p, unsigned long long *s) {
    ct_vec3 dir = tu_random_unit(s), e1, e2, c;
    double len = 4 + 12 * tu_uniform(s), w = len * pow(10, -7 - 4 * tu_uniform(s));
    int n = 8 + (int)(tu_uniform(s) * 12), off = 2 + (int)(tu_uniform(s) * 2), i;
    double a0 = 6.283185307179586 * tu_uniform(s);
    e1 = ct__normalize(ct__cross(dir, fabs((double)dir.x) < 0.6 ? tu_vec(1, 0, 0) : tu_vec(0, 1, 0)), NULL);
    e2 = ct__cross(dir, e1);
    c = tu_vec(10 * tu_uniform(s) - 5, 10 * tu_uniform(s) - 5, 10 * tu_uniform(s) - 5);
    for (i = 0; i < n; ++i) {
        double t = len * (tu_uniform(s) - 0.5), a = 6.283185307179586 * tu_uniform(s), u = tu_uniform(s);
        if (i < off) {   /* off the line by 1..8, at angles 2 pi / 3 apart about it */
            a = a0 + 2.0943951023931953 * i;
            double r = 1 + 7 * u;
            p[i] = ct__add(ct__add(c, ct__scale(dir, (ct_real)t)),
                           ct__add(ct__scale(e1, (ct_real)(r * cos(a))), ct__scale(e2, (ct_real)(r * sin(a)))));
        } else if (i < off + 2) {   /* the line's two ends */
            double r = w * sqrt(u);
            t = len * (i == off ? -0.5 : 0.5);
            p[i] = ct__add(ct__add(c, ct__scale(dir, (ct_real)t)),
                           ct__add(ct__scale(e1, (ct_real)(r * cos(a))), ct__scale(e2, (ct_real)(r * sin(a)))));
        } else if (u < 0.25) {   /* an exact copy of a line point */
            p[i] = p[off + (int)(tu_uniform(s) * (i - off))];
        } else if (u < 0.5) {   /* a near-copy, 1e-10 of the length away */
            ct_vec3 q = p[off + (int)(tu_uniform(s) * (i - off))];
            p[i] = ct__add(q, ct__scale(tu_random_unit(s), (ct_real)(1e-10 * len)));
        } else {
            double r = w * sqrt(u);
            p[i] = ct__add(ct__add(c, ct__scale(dir, (ct_real)t)),
                           ct__add(ct__scale(e1, (ct_real)(r * cos(a))), ct__scale(e2, (ct_real)(r * sin(a)))));
        }
    }
    return n;
}
Test(hull, needles_with_clusters_build_and_contain) {
    ct_vec3 p[20];
    unsigned long long s = 0x6eed1e5ULL;
    int j, failed = 0;
    double most = 0;
    for (j = 0; j < 20000; ++j) {
        int n = needle_set(p, &s), i;
        double tol = hull_tolerance(p, n, 0), absmax = 0, w;
        ct_hull h;
        ct_status st = ct_hull_build(p, n, NULL, NULL, &h);
        if (st != CT_OK) {
            if (!failed++) cr_log_error("set %d (%d points): %s", j, n, ct_status_string(st));
            continue;
        }
        for (i = 0; i < n; ++i) absmax = fmax(absmax, (double)ct__maxabs(p[i]));
        w = (worst_outside(&h, p, n) - 8 * (double)TU_EPS * absmax) / tol;
        most = fmax(most, w);
        cr_expect(w <= HULL_OUTSIDE_TOLS, "set %d: a point %g tolerances outside", j, w);
        cr_expect_eq(h.nverts - h.nedges + h.nfaces, 2);
        ct_hull_free(&h);
    }
    cr_assert_eq(failed, 0, "%d of 20000 needle sets did not build", failed);
    printf("hull: 20000 needle sets, worst point %.2f tolerances outside\n", most);
}

/* Cylinders (a DEM particle mesh): m points on each of two circles. Each rim point the caps
   take in lies in their plane to rounding, and the fold rule deleted and re-fanned the whole
   cap polygon from it and merged the fan back, one triangle at a time: O(m^2) per point, 2.7 s
   for m = 1000 (qhull: 0.15 s). The result was right; the speed is in bench_hull ("coplanar
   caps"). Here: two m-gon caps, m quads, 2m vertices and the polygon prism's volume. */
Test(hull, cylinders_merge_their_caps) {
    static const int ms[] = { 3, 16, 100, 1000 };
    ct_vec3 *p = (ct_vec3 *)malloc(2000 * sizeof(ct_vec3));
    int j, i;
    cr_assert(p != NULL);
    for (j = 0; j < 4; ++j) {
        int m = ms[j], quads = 0, caps = 0;
        double vol;
        ct_hull h;
        for (i = 0; i < m; ++i) {
            double a = 0.3 + 6.283185307179586 * i / m;
            p[2 * i] = tu_vec(cos(a), sin(a), -0.5);
            p[2 * i + 1] = tu_vec(cos(a), sin(a), 0.5);
        }
        cr_assert_eq(ct_hull_build(p, 2 * m, NULL, NULL, &h), CT_OK);
        cr_assert_eq(h.nverts, 2 * m, "m %d: %d vertices", m, h.nverts);
        cr_assert_eq(h.nfaces, m + 2, "m %d: %d faces", m, h.nfaces);
        for (i = 0; i < h.nfaces; ++i) {
            int nv = h.face_first[i + 1] - h.face_first[i];
            quads += nv == 4 && fabs((double)h.planes[i].n.z) < 1e-3;
            caps += nv == m && fabs(fabs((double)h.planes[i].n.z) - 1) < 1e3 * (double)TU_EPS;
        }
        cr_assert(quads == m && caps == 2, "m %d: %d quads, %d caps", m, quads, caps);
        vol = 0.5 * m * sin(6.283185307179586 / m);
        cr_assert(fabs((double)ct_hull_volume(&h, NULL) / vol - 1) < 1e3 * (double)TU_EPS, "m %d: volume %g, not %g", m,
                  (double)ct_hull_volume(&h, NULL), vol);
        ct_hull_free(&h);
    }
    free(p);
}

/* Big coplanar faces: a face of CT__QH_BIG vertices or more takes each coplanar triangle in
   keeping its plane (O(1) per merge, not O(m)), and the check runs the big faces' convexity on
   their 2D hulls. Cylinders of m = 1500 points per cap, placed by a random rigid motion (so the
   cap points are coplanar only to rounding and the kept plane is refitted as the cap grows),
   with points inside the caps' disks (coplanar points that are no vertex): every input point
   within the hull's bound, m side quads, the caps in a few coplanar pieces at most (rounding
   may keep a tolerance-coplanar piece apart; before the big-face merges, every piece was a
   fan that the whole cap was re-merged from), the prism's volume. */
Test(hull, big_coplanar_caps_under_motion) {
    const int m = 1500, inner = 300;
    int n = 2 * m + 2 * inner, t, i;
    ct_vec3 *p = (ct_vec3 *)malloc((size_t)n * sizeof(ct_vec3));
    unsigned long long s = 0xcab5ULL;
    cr_assert(p != NULL);
    for (t = 0; t < 3; ++t) {
        ct_xform x = tu_random_xform(&s, t == 0 ? 0 : 10);
        int quads = 0, pieces = 0, capverts = 0;
        double vol = 0.5 * m * sin(6.283185307179586 / m), scale = 2 + 10;
        ct_hull h;
        for (i = 0; i < m; ++i) {
            double a = 0.3 + 6.283185307179586 * i / m;
            p[2 * i] = ct__xf_point(&x, tu_vec(cos(a), sin(a), -0.5));
            p[2 * i + 1] = ct__xf_point(&x, tu_vec(cos(a), sin(a), 0.5));
        }
        for (i = 0; i < inner; ++i) {   /* inside the caps' disks: coplanar, never vertices */
            double r = 0.99 * sqrt(tu_uniform(&s)), a = 6.283185307179586 * tu_uniform(&s);
            p[2 * m + 2 * i] = ct__xf_point(&x, tu_vec(r * cos(a), r * sin(a), -0.5));
            p[2 * m + 2 * i + 1] = ct__xf_point(&x, tu_vec(r * cos(a), r * sin(a), 0.5));
        }
        cr_assert_eq(ct_hull_build(p, n, NULL, NULL, &h), CT_OK);
        check_hull(&h, p, n, HULL_OUTSIDE_TOLS * hull_tolerance(p, n, 0) + 64 * (double)TU_EPS * scale);
        cr_assert_eq(h.nverts, 2 * m, "motion %d: %d vertices", t, h.nverts);
        for (i = 0; i < h.nfaces; ++i) {
            int nv = h.face_first[i + 1] - h.face_first[i];
            ct_vec3 axis = ct__xf_dir(&x, tu_vec(0, 0, 1));
            double c = fabs((double)ct__dot(h.planes[i].n, axis));
            quads += nv == 4 && c < 1e-3;
            if (fabs(c - 1) < 1e3 * (double)TU_EPS) { ++pieces; capverts += nv; }
        }
        cr_assert(quads == m && pieces >= 2 && pieces <= 64 && h.nfaces == m + pieces && capverts >= 2 * m,
                  "motion %d: %d faces, %d quads, caps in %d pieces of %d vertices", t, h.nfaces, quads, pieces, capverts);
        cr_assert(fabs((double)ct_hull_volume(&h, NULL) / vol - 1) < 1e4 * (double)TU_EPS, "motion %d: volume %g, not %g", t,
                  (double)ct_hull_volume(&h, NULL), vol);
        ct_hull_free(&h);
    }
    free(p);
}

/* Float fuzzer: a hull of extent 1e30 (float's range) had a NaN volume (the cubes overflow);
   the moments are summed in double, so the volume is +inf in float and finite in double. */
Test(hull, huge_coordinates_give_no_nan) {
    ct_vec3 p[6];
    ct_hull h;
    ct_real m, I[3][3], v;
    ct_vec3 c;
    int i, j;
    p[0] = tu_vec(-0.937255859375, -3, -0.926361083984375);
    p[1] = tu_vec(-4, -3, -3);
    p[2] = tu_vec(-3, 1e30, 1e30);
    p[3] = tu_vec(1e30, 1e30, -0.968475341796875);
    p[4] = tu_vec(1e30, 1e30, 1e30);
    p[5] = tu_vec(0, -2, -0.601531982421875);
    cr_assert_eq(ct_hull_build(p, 6, NULL, NULL, &h), CT_OK);
    cr_assert(h.extent > 1e29 && ct__finite(h.extent), "extent %g", (double)h.extent);
    v = ct_hull_volume(&h, &c);
    cr_assert(v > 1e89, "volume %g", (double)v);
    cr_assert(ct__finite3(c) && c.x > 1e29, "centroid x %g", (double)c.x);
    ct_hull_mass(&h, 1, &m, &c, I);
    cr_assert(m > 1e89 && ct__finite3(c));
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) cr_assert(I[i][j] == I[i][j], "inertia[%d][%d] is NaN", i, j);
    ct_hull_free(&h);
}

/* Coordinates of every magnitude, 1e-300..1e300 (as libFuzzer makes them): the simplex's
   accurate cross product overflowed to NaN (inf - inf among its error terms) where the plain
   one of a unit edge had stayed finite, no point had a finite height, and the height search
   left its index at -1 and read before the array (fuzz_hull under ASan, 2026-11-29). Every
   set gets a status, a built hull finite planes. */
Test(hull, coordinates_of_every_magnitude_get_a_status) {
    ct_vec3 p[8];
    unsigned long long s = 0x3a9e11ULL;
    int j, i, f, built = 0;
    if (TU_FLOAT) cr_skip_test("double exponents");
    for (j = 0; j < 4000; ++j) {
        ct_hull h;
        ct_status st;
        for (i = 0; i < 8; ++i) {
            double c[3];
            int k;
            for (k = 0; k < 3; ++k) c[k] = (tu_uniform(&s) < 0.5 ? -1 : 1) * pow(10, 600 * tu_uniform(&s) - 300);
            p[i] = tu_vec(c[0], c[1], c[2]);
        }
        st = ct_hull_build(p, 8, NULL, NULL, &h);
        cr_assert(st == CT_OK || st == CT_DEGENERATE || st == CT_INVALID, "set %d: %s", j, ct_status_string(st));
        if (st != CT_OK) continue;
        ++built;
        for (f = 0; f < h.nfaces; ++f) cr_assert(ct__finite3(h.planes[f].n) && ct__finite(h.planes[f].d), "set %d face %d", j, f);
        ct_hull_free(&h);
    }
    cr_log_info("%d of 4000 built", built);
}

/* Points on a cube's surface (each on one face, uniform), exactly or within `jitter` of it:
   coplanar sets of n / 6 points. Merging into a face refiled its whole coplanar set, O(m^2)
   (1e5 exact points took 1.6 s, qhull 0.3 s; within 1e-13, 5e5 points did not finish), and
   above 3e7 points x faces the containment check covered the hull's vertices only. */
static void cube_surface(ct_vec3 *p, int n, double jitter, unsigned long long *s) {
    int i;
    for (i = 0; i < n; ++i) {
        int face = (int)(6 * tu_uniform(s)) % 6;
        double v[3], c = (face & 1) ? 1 : -1;
        v[0] = 2 * tu_uniform(s) - 1;
        v[1] = 2 * tu_uniform(s) - 1;
        v[2] = c + jitter * (2 * tu_uniform(s) - 1);
        p[i] = tu_vec(v[(face / 2 + 1) % 3], v[(face / 2 + 2) % 3], v[(face / 2) % 3]);
    }
}

Test(hull, cube_surface_sets_stay_contained_at_scale, .timeout = 300) {
    static const int ns[] = { 10000, 30000, 100000 };
    ct_vec3 *p = (ct_vec3 *)malloc(100000 * sizeof(ct_vec3));
    int j, jit;
    cr_assert(p != NULL);
    for (jit = 0; jit < 2; ++jit)
        for (j = 0; j < 3; ++j) {
            unsigned long long s = 0xc0be0000ULL + (unsigned long long)(10 * j + jit);
            int n = ns[j], i, big = 0;
            double tol, w, absmax = 0;
            ct_hull h;
            cube_surface(p, n, jit ? 500 * (double)TU_EPS : 0, &s);
            tol = hull_tolerance(p, n, 0);
            cr_assert_eq(ct_hull_build(p, n, NULL, NULL, &h), CT_OK, "n %d jitter %d", n, jit);
            for (i = 0; i < n; ++i) absmax = fmax(absmax, (double)ct__maxabs(p[i]));
            /* the bound is HULL_OUTSIDE_TOLS of the tolerance the hull was built with: the default
               one (exact points, asserted) or, on the jittered sets, a coarser rebuild's (16 times
               on these seeds, asserted; 4096 at most, documented) */
            w = (worst_outside(&h, p, n) - 8 * (double)TU_EPS * absmax) / tol;
            cr_assert(w <= HULL_OUTSIDE_TOLS * (jit ? 16 : 1), "n %d jitter %d: a point %g default tolerances outside", n,
                      jit, w);
            cr_assert_eq(h.nverts - h.nedges + h.nfaces, 2);
            /* exact: the six sides come out as six big faces (the hull's other faces are the
               small bevels at its edges and corners) */
            for (i = 0; i < h.nfaces; ++i) {
                ct_vec3 nr = h.planes[i].n;
                big += fmax(fabs((double)nr.x), fmax(fabs((double)nr.y), fabs((double)nr.z))) == 1 &&
                       h.face_first[i + 1] - h.face_first[i] > 4;
            }
            if (!jit) cr_assert_eq(big, 6, "n %d: %d axis-aligned faces", n, big);
            cr_log_info("cube surface n %d jitter %d: V %d F %d, worst %.2f tolerances", n, jit, h.nverts, h.nfaces, w);
            ct_hull_free(&h);
        }
    free(p);
}

/* Points within 1e-13 of a cube's surface, 5e4 and 1e5 of them, made as bench/bench_hull.cpp
   makes them: a merge met two faces that share a vertex off their common chain of edges (a
   triangle with two edges on one and one on the other), and the merged face kept edges whose
   twins were in the face itself. A later merge's walk along its shared run then never ended
   (5e4 points, seeds 4 and 29: the build hung) or a climb read a freed edge (1e5 points, seed
   3: a heap overflow, ASan). Each set: CT_OK, a valid hull, every point within the documented
   worst case (the coarsest rebuild, 4096 default tolerances, times the bound). */
Test(hull, near_cube_surface_merges_keep_faces_simple, .timeout = 300) {
    static const int ns[5] = { 50000, 50000, 100000, 100000, 100000 };
    static const unsigned long long seeds[5] = { 4, 29, 3, 17, 25 };
    double *u = (double *)malloc(3 * 100000 * sizeof(double));
    ct_vec3 *p = (ct_vec3 *)malloc(100000 * sizeof(ct_vec3));
    int k;
    cr_assert(u != NULL && p != NULL);
    for (k = 0; k < 5; ++k) {
        unsigned long long seed = seeds[k];
        int n = ns[k], i;
        double tol, absmax = 0, w;
        ct_hull h;
        wl_cube(u, n, 1, &seed);
        for (i = 0; i < n; ++i) {
            int face = (int)(6 * (0.5 * u[3 * i] + 0.5)) % 6;
            double v[3];
            v[0] = u[3 * i + 1];
            v[1] = u[3 * i + 2];
            v[2] = ((face & 1) ? 1.0 : -1.0) + 1e-13 * (2 * tu_uniform(&seed) - 1);
            p[i] = tu_vec(v[(face / 2 + 1) % 3], v[(face / 2 + 2) % 3], v[face / 2 % 3]);
            absmax = fmax(absmax, (double)ct__maxabs(p[i]));
        }
        tol = hull_tolerance(p, n, 0);
        cr_assert_eq(ct_hull_build(p, n, NULL, NULL, &h), CT_OK, "n %d seed %llu", n, seeds[k]);
        w = (worst_outside(&h, p, n) - 8 * (double)TU_EPS * absmax) / tol;
        cr_assert(w <= HULL_OUTSIDE_TOLS * 4096, "n %d seed %llu: a point %g default tolerances outside", n, seeds[k], w);
        check_hull(&h, NULL, 0, HULL_OUTSIDE_TOLS * 4096 * tol + 64 * (double)TU_EPS * absmax);
        ct_hull_free(&h);
    }
    free(u);
    free(p);
}

/* ---- the exact volume of ill-conditioned hulls (detail/mass.h) ---------------------------- */
/* Thin boxes (half extents 1e6 x 0.1 x 0.1) turned by random rotations and moved 1e6 away:
   the fan sums of cone products (vectors 1e6 long) are rounded beyond the accuracy asked here,
   and the exact sums must give the closed form 8 x 1e6 x 0.1 x 0.1 = 8e4 up to the rounding
   of the turned vertices themselves (2e-10 on a thickness of 0.2: 1e-6 relative is ample).
   The centroid is the box's centre to that rounding (an end's section off by 1e-9 of its
   area moves it by ~1e-3 along the 2e6 length). Double only. */
Test(hull, thin_box_volume_is_exact) {
    unsigned long long s = 4242;
    int it, i, k;
    if (TU_FLOAT) cr_skip_test("a 1e7 x 0.1 box is flat in float");
    for (it = 0; it < 40; ++it) {
        double r[9], off[3], hx = 1e6, hy = 0.1, hz = 0.1, vol = 8 * hx * hy * hz;
        ct_vec3 p[8], c;
        ct_hull h;
        ct_real v;
        wl_rotation(r, &s);
        wl_direction(off, &s);
        for (k = 0; k < 8; ++k) {
            double l[3] = { k & 1 ? hx : -hx, k & 2 ? hy : -hy, k & 4 ? hz : -hz }, w[3];
            for (i = 0; i < 3; ++i) w[i] = r[3 * i] * l[0] + r[3 * i + 1] * l[1] + r[3 * i + 2] * l[2] + 1e6 * off[i];
            p[k] = tu_vec(w[0], w[1], w[2]);
        }
        {
            ct_status st = ct_hull_build(p, 8, NULL, NULL, &h);
            cr_assert_eq(st, CT_OK, "rotation %d: status %d", it, (int)st);
        }
        v = ct_hull_volume(&h, &c);
        cr_assert(fabs((double)v - vol) <= 1e-6 * vol, "rotation %d: volume %.17g", it, (double)v);
        for (i = 0; i < 3; ++i)
            cr_assert(fabs((double)ct__vget(c, i) - 1e6 * off[i]) <= 1, "rotation %d: centroid axis %d off by %g", it, i,
                      (double)ct__vget(c, i) - 1e6 * off[i]);
        ct_hull_free(&h);
    }
}
