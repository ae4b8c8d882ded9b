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
    cr_assert_eq(ct__quickhull(&sc, p, n, 0, &q), CT_OK);
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
