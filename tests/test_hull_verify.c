/* The quickhull's full check (ct__qh_verify), reached directly: this file embeds a static copy
   of the implementation for its private functions. */
#define CONTACT_STATIC
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "testutil.h"
#include "workload.h"
#include <criterion/criterion.h>
#include <stdlib.h>

/* The containment check above 1e6 points x faces walks the face graph per point
   (ct__qh_contained), each from the start face of its direction's cell in a cube map: a point
   put beyond a face by 20 bounds must fail it, and one put 0.5 bound beyond must pass, whichever
   point comes before it (a copy of a random input point). 2000 points on a sphere make ~4000
   faces. */
Test(hull_verify, walk_finds_a_point_outside) {
    int n = 2000, i, f, trial;
    ct_vec3 *p = (ct_vec3 *)malloc((size_t)n * sizeof(ct_vec3)), *x = (ct_vec3 *)malloc((size_t)(n + 2) * sizeof(ct_vec3));
    double *xyz = (double *)malloc(3 * (size_t)n * sizeof(double));
    unsigned long long s = 0x3a1cULL;
    ct_scratch sc;
    ct__qh_result q;
    ct__mark m;
    cr_assert(p && x && xyz);
    wl_sphere(xyz, n, 1, &s);
    for (i = 0; i < n; ++i) p[i] = tu_vec(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    ct_scratch_init(&sc, NULL);
    cr_assert_eq(ct__quickhull(&sc, p, n, 0, 1, &q), CT_OK);
    cr_assert((double)n * q.nfaces > CT__QH_VERIFY_PAIRS, "%d faces: the walk is not used", q.nfaces);
    m = ct__scratch_mark(&sc);
    cr_assert_eq(ct__qh_verify(&sc, &q, p, n, CT__QH_BOUND * q.tol), 1);
    for (trial = 0; trial < 40; ++trial) {
        double bound = CT__QH_BOUND * (double)q.tol, out[2] = { 20, 0.5 };
        int before = (int)(tu_uniform(&s) * n) % n, k;
        f = (int)(tu_uniform(&s) * q.nfaces) % q.nfaces;
        for (k = 0; k < 2; ++k) {
            ct_vec3 c = ct__v3(0, 0, 0), extra;
            int a = q.face_first[f], b = q.face_first[f + 1], j;
            for (j = a; j < b; ++j) c = ct__add(c, p[q.face_verts[j]]);
            c = ct__scale(c, (ct_real)1 / (ct_real)(b - a));
            /* on the plane, then out along the normal */
            c = ct__madd(c, q.planes[f].n, -(ct__dot(q.planes[f].n, c) + q.planes[f].d));
            extra = ct__madd(c, q.planes[f].n, (ct_real)(out[k] * bound));
            for (i = 0; i < n; ++i) x[i] = p[i];
            x[n] = p[before];
            x[n + 1] = extra;
            ct__scratch_reset(&sc, m);
            cr_assert_eq(ct__qh_verify(&sc, &q, x, n + 2, (ct__qreal)bound), k ? 1 : 0,
                         "face %d, after a copy of point %d, %g bounds out", f, before, out[k]);
        }
    }
    ct_scratch_release(&sc);
    free(p); free(x); free(xyz);
}

/* The brute-force convexity check of ct__qh_verify: the largest distance of a face's vertex to
   the right of one of its edges, over every face and every pair (in units of length). */
static double right_of_edges(const ct__qh_result *q, const ct_vec3 *p) {
    double worst = -1e300;
    int f, k, j;
    for (f = 0; f < q->nfaces; ++f) {
        int a = q->face_first[f], m = q->face_first[f + 1] - a;
        ct_vec3 nr = q->planes[f].n;
        for (k = 0; k < m; ++k) {
            ct_vec3 u = p[q->face_verts[a + k]], e = ct__sub(p[q->face_verts[a + (k + 1) % m]], u), in = ct__cross(nr, e);
            for (j = 0; j < m; ++j) {
                double d = -(double)ct__dot(in, ct__sub(p[q->face_verts[a + j]], u)) / (double)ct__len(e);
                if (d > worst) worst = d;
            }
        }
    }
    return worst;
}

/* Faces of more than CT__QH_CONVEX_PAIRS vertices are checked for convexity on their 2D hull
   (ct__qh_face_convex), the others pair by pair. A cylinder's cap (300 vertices) with one
   vertex pulled inside the chord of its two neighbours by 0.05 to 50 bounds: the verdict must
   be the brute force's (a vertex right of an edge by more than the bound fails), away from a
   1% band around the bound; both verdicts are met. */
Test(hull_verify, big_face_convexity_matches_every_pair) {
    int m = 300, n = 2 * m, i, trial, pass = 0, fail = 0, cap = -1, f;
    ct_vec3 *p = (ct_vec3 *)malloc((size_t)n * sizeof(ct_vec3)), *x = (ct_vec3 *)malloc((size_t)n * sizeof(ct_vec3));
    unsigned long long s = 0x51deULL;
    ct_xform xf = tu_random_xform(&s, 3);
    ct_scratch sc;
    ct__qh_result q;
    ct__mark mk;
    double bound;
    cr_assert(p && x);
    for (i = 0; i < m; ++i) {
        double a = 0.1 + 6.283185307179586 * i / m;
        p[2 * i] = ct__xf_point(&xf, tu_vec(cos(a), sin(a), -0.5));
        p[2 * i + 1] = ct__xf_point(&xf, tu_vec(cos(a), sin(a), 0.5));
    }
    ct_scratch_init(&sc, NULL);
    cr_assert_eq(ct__quickhull(&sc, p, n, 0, 1, &q), CT_OK);
    for (f = 0; f < q.nfaces; ++f)
        if (q.face_first[f + 1] - q.face_first[f] == m) cap = f;
    cr_assert(cap >= 0 && m > CT__QH_CONVEX_PAIRS, "no cap of %d vertices", m);
    bound = CT__QH_BOUND * (double)q.tol;
    mk = ct__scratch_mark(&sc);
    cr_assert_eq(ct__qh_verify(&sc, &q, p, n, (ct__qreal)bound), 1);
    for (trial = 0; trial < 80; ++trial) {
        int a = q.face_first[cap], k = (int)(tu_uniform(&s) * m) % m;
        int vj = q.face_verts[a + k], vp = q.face_verts[a + (k + m - 1) % m], vn = q.face_verts[a + (k + 1) % m];
        double X = 0.05 * pow(1000, tu_uniform(&s)), worst;
        ct_vec3 chord, w, foot;
        int got, want;
        for (i = 0; i < n; ++i) x[i] = p[i];
        /* the foot of vj on the chord (vp, vn), then X bounds to the chord's left (inside) */
        chord = ct__sub(p[vn], p[vp]);
        foot = ct__madd(p[vp], chord, ct__dot(ct__sub(p[vj], p[vp]), chord) / ct__len2(chord));
        w = ct__normalize(ct__cross(q.planes[cap].n, chord), NULL);
        x[vj] = ct__madd(foot, w, (ct_real)(X * bound));
        worst = right_of_edges(&q, x);
        if (fabs(worst / bound - 1) < 0.01) continue;
        want = worst > bound ? 0 : 1;
        ct__scratch_reset(&sc, mk);
        got = ct__qh_verify(&sc, &q, x, n, (ct__qreal)bound);
        cr_assert_eq(got, want, "trial %d: vertex %d pulled %g bounds in, worst %g bounds right of an edge: verify %d",
                     trial, vj, X, worst / bound, got);
        pass += want == 1;
        fail += want == 0;
    }
    cr_assert(pass >= 5 && fail >= 5, "verdicts: %d pass, %d fail", pass, fail);
    ct_scratch_release(&sc);
    free(p); free(x);
}
