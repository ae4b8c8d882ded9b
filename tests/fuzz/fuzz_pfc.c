/* fuzz-ci-runs: 4000 */
/* Fuzz the PFC rigid-block entry points: ct_contact_hulls_warm (two calls, the second after a
   small motion), ct_contact_hulls_reduced, ct_contact_rounded_hulls (both modes),
   ct_contact_facet_hull, ct_contact_hull_sphere, ct_hull_erode (+ ct_hull_rounded_volume) and
   ct_shape_cylinder. Two lattice hulls placed by rigid or broken transforms, radii from the
   input. Checks: allowed statuses, CT_INVALID exactly for broken transforms / bad radii;
   found contacts have finite fields, a unit normal and gap <= 0; warm == cold in found (and
   in every field to the polar tolerance when the overlap is clear); the eroded core is a
   valid hull inside the block with volume <= the block's. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_contact_ok(const ct_contact *c) {
    if (!c->found) return;
    FZ_CHECK(fz_finite3(c->point) && fz_finite3(c->centroid) && fz_finite((double)c->gap));
    FZ_CHECK(fz_finite((double)c->area) && c->area >= 0 && fz_finite((double)c->volume) && c->volume >= 0);
    FZ_CHECK(fz_unit(c->normal));
    FZ_CHECK(c->gap <= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    ct_hull A, B, core;
    ct_xform xa, xb, xb2;
    int ra, rb, okA, okB, valid;
    double scale = fz_scale(&f), P;
    unsigned flags;
    ct_real rad_a, rad_b;
    ct_contact c, cw, cc;
    ct_contact_cache cache;
    ct_status st, st2;
    memset(&A, 0, sizeof A);
    memset(&B, 0, sizeof B);
    memset(&cache, 0, sizeof cache);
    okA = fz_safe_hull(&f, &A, scale);
    okB = fz_safe_hull(&f, &B, scale);
    xa = fz_xform_r(&f, scale, &ra);
    xb = fz_xform_r(&f, scale, &rb);
    flags = fz_byte(&f);
    rad_a = fz_real(&f, scale * 0.25);
    rad_b = fz_real(&f, scale * 0.25);
    if (!okA || !okB) goto done;
    valid = ra && rb && fz_finite3(xa.p) && fz_finite3(xb.p);
    P = (double)A.extent + (double)B.extent + fz_maxabs(A.verts, A.nverts) + fz_maxabs(B.verts, B.nverts) +
        (valid ? fz_maxabs(&xa.p, 1) + fz_maxabs(&xb.p, 1) : 0);
    if (P > FZ_BIG) valid = -1;   /* overflowing placements: any allowed status */

    /* warm: two calls, the second after a small motion of B */
    st = ct_contact_hulls_warm(&A, &xa, &B, &xb, &cache, NULL, &cw);
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE);
    if (valid == 1) FZ_CHECK(st != CT_INVALID);
    if (valid == 0) FZ_CHECK(st == CT_INVALID && !cw.found);
    if (st == CT_OK) fz_contact_ok(&cw);
    xb2 = xb;
    xb2.p.x = (ct_real)((double)xb2.p.x + 1e-3 * (double)B.extent * ((flags & 1) ? 1 : -1));
    st = ct_contact_hulls_warm(&A, &xa, &B, &xb2, &cache, NULL, &cw);
    st2 = ct_contact_hulls(&A, &xa, &B, &xb2, NULL, &cc);
    FZ_CHECK(st == st2);
    if (st == CT_OK && valid == 1) {
        fz_contact_ok(&cw);
        FZ_CHECK(cw.found == cc.found || cc.volume <= 1e-6 * (double)(A.extent * A.extent * A.extent));
    }
    ct_contact_cache_free(&cache);

    st = ct_contact_hulls_reduced(&A, &xa, &B, &xb, NULL, NULL, &c);
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
    if (valid == 0) FZ_CHECK(st == CT_INVALID && !c.found);
    if (st == CT_OK) fz_contact_ok(&c);

    st = ct_contact_rounded_hulls(&A, &xa, rad_a, &B, &xb, rad_b, (int)((flags >> 1) & 1), NULL, NULL, &c);
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
    if (valid == 0 || !(rad_a >= 0) || !(rad_b >= 0)) FZ_CHECK(st == CT_INVALID && !c.found);
    if (st == CT_OK) fz_contact_ok(&c);

    {
        ct_vec3 tri[3];
        int k;
        for (k = 0; k < 3; ++k) tri[k] = ct__xf_point(&xa, A.verts[k % A.nverts]);
        st = ct_contact_facet_hull(tri, &B, &xb, (int)((flags >> 2) & 1), NULL, &c);
        FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
        if (st == CT_OK) fz_contact_ok(&c);
        st = ct_contact_hull_sphere(&A, &xa, tri[0], rad_b, &c);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (!(rad_b >= 0)) FZ_CHECK(st == CT_INVALID);
    }

    st = ct_hull_erode(&A, rad_a, NULL, &core);
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE || st == CT_NO_CONVERGENCE);
    if (!(rad_a >= 0) || !fz_finite((double)rad_a)) FZ_CHECK(st == CT_INVALID);
    if (st == CT_OK) {
        int k, j;
        double tol = 1e4 * FZ_EPS * ((double)A.extent + fz_maxabs(A.verts, A.nverts));
        FZ_CHECK(core.nverts - core.nedges + core.nfaces == 2);
        FZ_CHECK((double)ct_hull_volume(&core, NULL) <= (double)ct_hull_volume(&A, NULL) * (1 + 1e3 * FZ_EPS) + tol * tol * tol);
        for (k = 0; k < core.nverts; ++k)   /* inside the block by the radius, to rounding */
            for (j = 0; j < A.nfaces; ++j)
                FZ_CHECK((double)(ct__dot(A.planes[j].n, core.verts[k]) + A.planes[j].d) <= -(double)rad_a + tol);
        FZ_CHECK((double)ct_hull_rounded_volume(&core, rad_a) >= 0);
        ct_hull_free(&core);
    }

    {   /* a cylinder of the input's sizes against B */
        ct_shape cy = ct_shape_cylinder(rad_a, rad_b), sb = ct_shape_hull(&B);
        ct_distance d;
        st = ct_signed_distance(&cy, &xa, &sb, &xb, NULL, NULL, &d);
        FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
        if (!(rad_a >= 0) || !(rad_b >= 0) || valid == 0) FZ_CHECK(st == CT_INVALID);
        if (st == CT_OK && valid == 1) FZ_CHECK(fz_finite((double)d.distance));
    }
done:
    ct_hull_free(&A);
    ct_hull_free(&B);
    return 0;
}
