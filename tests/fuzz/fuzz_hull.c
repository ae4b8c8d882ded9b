/* fuzz-ci-runs: 200000 */
/* Fuzz ct_hull_build: any bytes -> a status; on CT_OK the hull is a closed convex polyhedron
   (Euler, twins, unit planes, every input point inside within tolerance). */
#include <stdio.h>
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    ct_vec3 pts[64];
    double scale = fz_scale(&f);
    int n = fz_points(&f, pts, 64, scale), i, k;
    ct_hull h;
    ct_hull_desc d;
    ct_status st;
    memset(&d, 0, sizeof d);
    if (fz_byte(&f) == 7) d.eps = (ct_real)1e-3;
    st = ct_hull_build(pts, n, &d, NULL, &h);
#ifdef FZ_DEBUG
    fprintf(stderr, "hull of %d points (eps %g): status %d, nv %d nf %d\n", n, (double)d.eps, st, h.nverts, h.nfaces);
    for (i = 0; i < n; ++i) fprintf(stderr, "  { %.9g, %.9g, %.9g },\n", (double)pts[i].x, (double)pts[i].y, (double)pts[i].z);
    for (k = 0; st == CT_OK && k < h.nfaces; ++k)
        fprintf(stderr, "  plane %d n %.9g %.9g %.9g |n| %.9g d %.9g\n", k, (double)h.planes[k].n.x, (double)h.planes[k].n.y,
                (double)h.planes[k].n.z, (double)ct__len(h.planes[k].n), (double)h.planes[k].d);
    for (k = 0; st == CT_OK && k < h.nfaces; ++k) {
        fprintf(stderr, "  face %d:", k);
        for (i = h.face_first[k]; i < h.face_first[k + 1]; ++i) {
            ct_vec3 v = h.verts[h.face_verts[i]];
            fprintf(stderr, " (%.9g %.9g %.9g)", (double)v.x, (double)v.y, (double)v.z);
        }
        fprintf(stderr, "\n");
    }
#endif
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE);
    if (st != CT_OK) { FZ_CHECK(h.verts == NULL && h.nfaces == 0); return 0; }
    FZ_CHECK(h.nverts - h.nedges + h.nfaces == 2);
    {
        ct_vec3 lo = pts[0], hi = pts[0];
        double tol, absmax;
        for (i = 1; i < n; ++i) { lo = ct__vmin(lo, pts[i]); hi = ct__vmax(hi, pts[i]); }
        absmax = (double)ct__max(ct__maxabs(lo), ct__maxabs(hi));
        if (d.eps > 0) {   /* the guarantee (contact.h, >>hull): 8 tolerances plus rounding */
            ct_vec3 w = ct__sub(hi, lo);
            double ext = 0.5 * ((double)w.x + (double)w.y + (double)w.z);
            tol = 8 * (double)d.eps * fmax(ext, (double)CT__EPS * absmax) + 8 * (double)CT__EPS * absmax;
        } else   /* the default tolerance (checked and rebuilt, contact.h): 1e3 eps, tighter than the
                    documented 8 x (up to 4096) default tolerances, has held */
            tol = 1e3 * (double)CT__EPS * ((double)ct__len(ct__sub(hi, lo)) + absmax);
        for (k = 0; k < 2 * h.nedges; ++k) FZ_CHECK(h.he_twin[h.he_twin[k]] == k);
        for (k = 0; k < h.nfaces; ++k) {
            FZ_CHECK(fabs((double)ct__len(h.planes[k].n) - 1) < 1e-3);
            for (i = 0; i < n; ++i) FZ_CHECK((double)(ct__dot(h.planes[k].n, pts[i]) + h.planes[k].d) <= tol);
        }
        FZ_CHECK(ct_hull_volume(&h, NULL) > 0);
    }
    ct_hull_free(&h);
    return 0;
}
