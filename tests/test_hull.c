/* Quickhull: against qhull (libqhull_r) on thousands of seeded sets, structural invariants on
   every hull, closed forms for mass properties, scale/translation invariance, bad input,
   allocation failure and the warm-scratch promise. */
#include "testutil.h"
#include "workload.h"
#include <criterion/criterion.h>
#include <math.h>
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
        st = ct_hull_build(&h, p, n, &desc, NULL);
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
    ct_status st = ct_hull_build(&h, p, n, NULL, NULL);
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
    cr_assert_eq(ct_hull_box(&h, tu_vec(a / 2, b / 2, cc / 2), NULL), CT_OK);
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
    cr_assert_eq(ct_hull_build(&h, p, 20000, NULL, NULL), CT_OK);
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
    cr_assert_eq(ct_hull_build(NULL, p, 8, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_hull_build(&h, NULL, 8, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_hull_build(&h, p, -1, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_hull_build(&h, p, 0, NULL, NULL), CT_DEGENERATE);
    cr_assert_eq(ct_hull_build(&h, p, 3, NULL, NULL), CT_DEGENERATE);
    p[5].y = (ct_real)NAN;
    cr_assert_eq(ct_hull_build(&h, p, 8, NULL, NULL), CT_INVALID);
    cr_assert_null(h.verts);
    p[5].y = (ct_real)INFINITY;
    cr_assert_eq(ct_hull_build(&h, p, 8, NULL, NULL), CT_INVALID);
    /* flat, collinear, single point (with duplicates) */
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1, (i >> 1) & 1, 0);
    cr_assert_eq(ct_hull_build(&h, p, 8, NULL, NULL), CT_DEGENERATE);
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i, 2 * i, 3 * i);
    cr_assert_eq(ct_hull_build(&h, p, 8, NULL, NULL), CT_DEGENERATE);
    for (i = 0; i < 8; ++i) p[i] = tu_vec(1, 2, 3);
    cr_assert_eq(ct_hull_build(&h, p, 8, NULL, NULL), CT_DEGENERATE);
    cr_assert_eq(h.nverts, 0);
    /* nearly flat within rounding is flat; a 1e-9 relative slab is not (double) */
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1, (i >> 1) & 1, (i >> 2) & 1 ? 4 * TU_EPS : 0);
    cr_assert_eq(ct_hull_build(&h, p, 8, NULL, NULL), CT_DEGENERATE);
    {
        ct_hull_desc d;
        memset(&d, 0, sizeof d);
        d.eps = -1;
        for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1, (i >> 1) & 1, (i >> 2) & 1);
        cr_assert_eq(ct_hull_build(&h, p, 8, &d, NULL), CT_INVALID);
        /* a coarse tolerance merges a bump on the top face: still 6 faces */
        ct_vec3 q[9];
        for (i = 0; i < 8; ++i) q[i] = p[i];
        q[8] = tu_vec(0.5, 0.5, 1.01);
        cr_assert_eq(ct_hull_build(&h, q, 9, NULL, NULL), CT_OK);
        cr_assert_eq(h.nfaces, 9, "default tolerance: the bump is a pyramid");
        ct_hull_free(&h);
        d.eps = (ct_real)0.1;
        cr_assert_eq(ct_hull_build(&h, q, 9, &d, NULL), CT_OK);
        cr_assert_eq(h.nfaces, 6);
        ct_hull_free(&h);
    }
    ct_hull_free(NULL);
    cr_assert_eq(ct_hull_box(&h, tu_vec(1, 0, 1), NULL), CT_INVALID);
    cr_assert_eq(ct_hull_box(&h, tu_vec(1, (ct_real)NAN, 1), NULL), CT_INVALID);
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
        st = ct_hull_build(&h, p, n, NULL, &t.a);
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
        cr_assert_eq(ct_hull_build(&h, p, n, &d, &out.a), CT_OK);
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
    st = ct_hull_build(&h, p, n, &d, NULL);
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

static int load_points(ct_vec3 *p, const double (*xyz)[3], int n) {
    int i;
    for (i = 0; i < n; ++i) p[i] = tu_vec(xyz[i][0], xyz[i][1], xyz[i][2]);
    return n;
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

Test(hull, fuzz_regressions) {
    static const double eps[] = { 0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3 };
    ct_vec3 p[64];
    int n, k;
    for (k = 0; k < 6; ++k) {
        n = load_points(p, fz_old_face, 27);
        check_contains(p, n, eps[k], "old face");
        n = load_points(p, fz_float_rounding, 27);
        check_contains(p, n, eps[k], "float rounding");
        n = load_points(p, fz_vertex_copy, 30);
        check_contains(p, n, eps[k], "vertex copy");
    }
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
    cr_assert_eq(ct_hull_build(&h, p, 6, NULL, NULL), CT_OK);
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
