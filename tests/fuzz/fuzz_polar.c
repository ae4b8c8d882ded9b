/* fuzz-ci-runs: 35000 */
/* Fuzz ct_intersect, ct_contact_hulls and ct_sparsify. Two hulls built from lattice points
   (optionally jittered into slivers), placed by rigid or broken transforms (huge, tiny and
   non-finite translations included). Checks: allowed statuses, CT_INVALID exactly for broken
   transforms; A n B is a valid hull (Euler, twins, unit planes) inside both A and B with
   volume <= min(vol A, vol B) (1 + tol), face tags in range; the contact agrees with it (found,
   volume), has gap <= 0, area >= 0, a unit normal and finite fields, and is the same with and
   without a scratch; both agree with GJK/EPA on clear separation or clear overlap.
   ct_sparsify on decoded contacts: 0..n kept, a stable subsequence, equal to a brute force of
   its documented rule. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Largest violation of the planes of h (placed by x) by point p (world). */
static double fz_outside(const ct_hull *h, const ct_xform *x, ct_vec3 p) {
    ct_vec3 q = ct__xf_inv_point(x, p);
    double m = -INFINITY;
    int k;
    for (k = 0; k < h->nfaces; ++k) {
        double d = (double)ct__dot(h->planes[k].n, q) + (double)h->planes[k].d;
        if (d > m) m = d;
    }
    return m;
}

/* The smallest sine of the angle between two face normals of A and B (world; pairs within a
   body included: jittered hulls have faces 1e-8 off coplanar). Two nearly parallel planes meet
   in a line known only to eps / sin, so a sliver of A n B between them is resolved only to
   about eps L / sin (exactly parallel pairs are one plane: skipped). */
static double fz_min_sine(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb) {
    ct_vec3 n[256];
    double m = 1;
    int i, j, k = 0;
    for (i = 0; i < a->nfaces && k < 256; ++i) n[k++] = ct__xf_dir(xa, a->planes[i].n);
    for (i = 0; i < b->nfaces && k < 256; ++i) n[k++] = ct__xf_dir(xb, b->planes[i].n);
    for (i = 0; i < k; ++i)
        for (j = i + 1; j < k; ++j) {
            double s = (double)ct__len(ct__cross(n[i], n[j]));
            if (s > 1e3 * FZ_EPS && s < m) m = s;
        }
    return m;
}

/* Field-by-field equality (struct padding is not compared). */
static int fz_contact_eq(const ct_contact *a, const ct_contact *b) {
    return a->found == b->found && !memcmp(&a->point, &b->point, sizeof a->point) &&
           !memcmp(&a->normal, &b->normal, sizeof a->normal) && !memcmp(&a->gap, &b->gap, sizeof a->gap) &&
           !memcmp(&a->area, &b->area, sizeof a->area) && !memcmp(&a->volume, &b->volume, sizeof a->volume) &&
           !memcmp(&a->centroid, &b->centroid, sizeof a->centroid) && a->face_a == b->face_a && a->face_b == b->face_b;
}

/* Brute force of ct_sparsify's documented rule, on a copy. */
static int fz_sparsify_ref(const ct_contact *c, int n, ct_real thr, ct_real minarea, ct_real mindist, int *keep) {
    int i, j, kept = 0;
    for (i = 0; i < n; ++i) {
        ct_real other = -CT__MAXR;
        int drop = c[i].area < minarea;
        for (j = 0; j < n; ++j)
            if (j != i && c[j].area > other) other = c[j].area;
        if (n > 1) drop = drop || c[i].area < thr * other;
        for (j = 0; j < kept && !drop; ++j)
            if (ct__dist(c[keep[j]].point, c[i].point) < mindist) drop = 1;
        if (!drop) keep[kept++] = i;
    }
    return kept;
}

static void fz_sparsify(fz *f, double scale) {
    ct_contact c[16], orig[16];
    int keep[16], n = (int)(fz_byte(f) % 17), i, k, ref;
    ct_real thr = (ct_real)((double)fz_byte(f) / 255.0), minarea = fz_real(f, scale * scale),
            mindist = fz_real(f, scale);
    memset(c, 0, sizeof c);
    for (i = 0; i < n; ++i) {
        unsigned d = fz_byte(f);
        if (i > 0 && d < 32) { c[i] = c[d % i]; c[i].face_a = i; continue; } /* same point, same area */
        c[i].found = 1;
        c[i].point = fz_vec(f, scale);
        c[i].area = fz_real(f, scale * scale);
        c[i].face_a = i; /* identifies the original */
    }
    memcpy(orig, c, sizeof c);
    k = ct_sparsify(c, n, thr, minarea, mindist);
    FZ_CHECK(k >= 0 && k <= n);
    ref = fz_sparsify_ref(orig, n, thr, minarea, mindist, keep);
    FZ_CHECK(k == ref);
    for (i = 0; i < k; ++i) FZ_CHECK(fz_contact_eq(&c[i], &orig[keep[i]]));
    FZ_CHECK(ct_sparsify(NULL, n, thr, minarea, mindist) == 0 && ct_sparsify(c, -n - 1, thr, minarea, mindist) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    ct_hull A, B, I;
    double det[256];
    ct_xform xa, xb;
    const ct_xform *pa, *pb;
    int ra, rb, okA, okB, valid, k;
    double scale = fz_scale(&f), tscale, L, P, tol, tolv, va, vb, vi = 0;
    unsigned flags;
    ct_status st, cst, cst2;
    ct_contact c, c2;
    ct_scratch scr;
    memset(&A, 0, sizeof A);
    memset(&B, 0, sizeof B);
    okA = fz_safe_hull(&f, &A, scale);
    okB = fz_safe_hull(&f, &B, scale);
    tscale = scale * (fz_byte(&f) & 1 ? 1 : 4);
    xa = fz_xform_r(&f, tscale, &ra);
    xb = fz_xform_r(&f, tscale, &rb);
    flags = fz_byte(&f);
    pa = flags & 1 ? NULL : &xa;
    pb = flags & 2 ? NULL : &xb;
    if (flags & 4) fz_sparsify(&f, scale);
    if (!okA || !okB) goto done;
    valid = (!pa || (ra && fz_finite3(xa.p))) && (!pb || (rb && fz_finite3(xb.p)));
    /* scales: L the hulls' size, P the largest coordinate anywhere (rounding of positions) */
    L = (double)A.extent + (double)B.extent;
    P = L + fz_maxabs(A.verts, A.nverts) + fz_maxabs(B.verts, B.nverts) + (pa ? fz_maxabs(&xa.p, 1) : 0) +
        (pb ? fz_maxabs(&xb.p, 1) : 0);
    if (!valid) P = 0;
    if (P > FZ_BIG) valid = -1; /* overflowing placements: any allowed status */
    /* vertices of A n B come from triples of planes: exact to rounding over the conditioning
       of the triple (plus the rounding of the positions), as test_polar.c's brute force has it */
    tol = 1e3 * FZ_EPS * P;
    va = (double)ct_hull_volume(&A, NULL);
    vb = (double)ct_hull_volume(&B, NULL);
    tolv = tol * L * L * 16;
    ct_scratch_init(&scr, NULL);

    st = ct_intersect(&A, pa, &B, pb, (flags & 8) ? &scr : NULL, NULL, &I);
#ifdef FZ_DEBUG
    {
        const ct_hull *hs[2] = { &A, &B };
        const ct_xform *xs[2] = { pa, pb };
        int h, i;
        for (h = 0; h < 2; ++h) {
            fprintf(stderr, "hull %c: nv %d nf %d extent %g vol %g\n", 'A' + h, hs[h]->nverts, hs[h]->nfaces,
                    (double)hs[h]->extent, (double)ct_hull_volume(hs[h], NULL));
            for (i = 0; i < hs[h]->nverts; ++i)
                fprintf(stderr, "  v { %.17g, %.17g, %.17g },\n", (double)hs[h]->verts[i].x, (double)hs[h]->verts[i].y, (double)hs[h]->verts[i].z);
            if (xs[h]) for (i = 0; i < 3; ++i)
                fprintf(stderr, "  x { %.17g, %.17g, %.17g }, %.17g\n", (double)xs[h]->r[i][0], (double)xs[h]->r[i][1],
                        (double)xs[h]->r[i][2], (double)(i == 0 ? xs[h]->p.x : i == 1 ? xs[h]->p.y : xs[h]->p.z));
        }
        fprintf(stderr, "intersect st %d nv %d nf %d tol %g L %g P %g\n", st, I.nverts, I.nfaces, tol, L, P);
        for (i = 0; i < I.nverts; ++i)
            fprintf(stderr, "  I %.17g %.17g %.17g outA %g outB %g\n", (double)I.verts[i].x, (double)I.verts[i].y, (double)I.verts[i].z,
                    fz_outside(&A, pa, I.verts[i]), fz_outside(&B, pb, I.verts[i]));
    }
#endif
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE);
    if (valid == 0) FZ_CHECK(st == CT_INVALID);
    if (valid == 1) FZ_CHECK(st != CT_INVALID);
    if (st != CT_OK) FZ_CHECK(I.nfaces == 0 && I.verts == NULL);
    if (st == CT_OK && I.nfaces > 0) {
        double vmax = tol, area = 0, thin;
        int f;
        fz_check_hull(&I);
        FZ_CHECK(I.nverts <= 256);
        fz_vertex_det(&I, det);
        vi = (double)ct_hull_volume(&I, NULL);
        for (f = 0; f < I.nfaces; ++f) /* surface area, by fans */
            for (k = I.face_first[f] + 1; k + 1 < I.face_first[f + 1]; ++k) {
                ct_vec3 p0 = I.verts[I.face_verts[I.face_first[f]]];
                area += 0.5 * (double)ct__len(ct__cross(ct__sub(I.verts[I.face_verts[k]], p0),
                                                        ct__sub(I.verts[I.face_verts[k + 1]], p0)));
            }
        /* a thin A n B (thickness t) is found through dual points of size 1/t: planes of the
           other body within eps L^2 / t of a vertex are not resolved */
        thin = 1e3 * FZ_EPS * L * L / fmax(2 * vi / fmax(area, 1e-300), 1e-300) +
               1e3 * FZ_EPS * L / fz_min_sine(&A, pa, &B, pb);
        for (k = 0; k < I.nverts; ++k) vmax = fmax(vmax, tol + thin + 1e3 * FZ_EPS * L / det[k]);
        tolv = 16 * vmax * L * L;
#ifdef FZ_DEBUG
        fprintf(stderr, "intersect volume %.17g tolv %g thin %g area %g\n", vi, tolv, thin, area);
#endif
        FZ_CHECK(vi >= -tolv && vi <= (va < vb ? va : vb) * (1 + 1e3 * FZ_EPS) + tolv);
        for (k = 0; k < I.nverts; ++k) {
            double vt = tol + thin + 1e3 * FZ_EPS * L / det[k];
#ifdef FZ_DEBUG
            fprintf(stderr, "vertex %d det %g thin %g vt %g outA %g outB %g\n", k, det[k], thin, vt, fz_outside(&A, pa, I.verts[k]),
                    fz_outside(&B, pb, I.verts[k]));
#endif
            FZ_CHECK(fz_outside(&A, pa, I.verts[k]) <= vt);
            FZ_CHECK(fz_outside(&B, pb, I.verts[k]) <= vt);
            FZ_CHECK(I.vert_source[k] == -1);
        }
        for (k = 0; k < I.nfaces; ++k)
            FZ_CHECK(I.face_tag[k] >= 0 ? I.face_tag[k] < A.nfaces : -I.face_tag[k] - 1 < B.nfaces);
    }

    cst = ct_contact_hulls(&A, pa, &B, pb, NULL, &c);
#ifdef FZ_DEBUG
    fprintf(stderr, "contact st %d found %d gap %.17g area %.17g volume %.17g normal %g %g %g (|n|-1 %g) point %g %g %g faces %d %d\n",
            cst, c.found, (double)c.gap, (double)c.area, (double)c.volume, (double)c.normal.x, (double)c.normal.y,
            (double)c.normal.z, (double)ct__len(c.normal) - 1, (double)c.point.x, (double)c.point.y, (double)c.point.z, c.face_a, c.face_b);
#endif
    FZ_CHECK(cst == CT_OK || cst == CT_INVALID || cst == CT_NO_CONVERGENCE);
    if (valid == 0) FZ_CHECK(cst == CT_INVALID);
    if (valid == 1) FZ_CHECK(cst != CT_INVALID);
    if (cst != CT_OK) FZ_CHECK(c.found == 0 && c.face_a == -1 && c.face_b == -1);
    if (cst == CT_OK) {
        if (c.found) {
            FZ_CHECK(fz_finite3(c.point) && fz_finite3(c.centroid) && fz_finite((double)c.gap) &&
                     fz_finite((double)c.area) && fz_finite((double)c.volume));
            FZ_CHECK(fz_unit(c.normal));
            FZ_CHECK(c.gap <= 0 && c.area >= 0 && c.volume >= 0);
            FZ_CHECK(c.face_a >= 0 && c.face_a < A.nfaces && c.face_b >= 0 && c.face_b < B.nfaces);
        } else {
            FZ_CHECK(c.face_a == -1 && c.face_b == -1);
        }
        if (st == CT_OK) {
            if (I.nfaces > 0) FZ_CHECK(c.found == 1 && fabs((double)c.volume - vi) <= tolv + 1e3 * FZ_EPS * vi);
            if (!c.found) FZ_CHECK(I.nfaces == 0);
        }
    }
    /* with a scratch (warm: the intersection may have used it): the same answer */
    cst2 = ct_contact_hulls(&A, pa, &B, pb, &scr, &c2);
    FZ_CHECK(cst2 == cst && fz_contact_eq(&c, &c2));

    /* an independent oracle: GJK/EPA on the same hulls */
    /* (not for slivers, volume < cbrt(eps) extent^3: a needle whose face planes stray far from
       its vertices can make a phantom zero-volume overlap with a body its vertices are apart
       from - an open polar finding, see the fuzzing notes in tests/fuzz/run.sh) */
    if (valid == 1 && cst == CT_OK && va >= cbrt(FZ_EPS) * pow((double)A.extent, 3) &&
        vb >= cbrt(FZ_EPS) * pow((double)B.extent, 3)) {
        ct_shape sa = ct_shape_hull(&A), sb = ct_shape_hull(&B);
        ct_distance d;
        ct_status dst = ct_signed_distance(&sa, pa, &sb, pb, NULL, &scr, &d);
#ifdef FZ_DEBUG
        fprintf(stderr, "signed distance st %d d %.17g n %g %g %g pa %.17g %.17g %.17g pb %.17g %.17g %.17g found %d\n", dst, (double)d.distance,
                (double)d.normal.x, (double)d.normal.y, (double)d.normal.z, (double)d.pa.x, (double)d.pa.y, (double)d.pa.z,
                (double)d.pb.x, (double)d.pb.y, (double)d.pb.z, c.found);
#endif
        if (dst == CT_OK) {
            /* GJK's answer is exact to rounding over the conditioning of its last simplex: on a
               sliver (thickness 1e-8 of the extent) a stop on a repeated support point can be
               off by ~1e-9 of the size (bounds not yet agreeing), so only clear cases count */
            double clear = sqrt(FZ_EPS) * P;
            if (d.distance > clear) FZ_CHECK(!c.found && (st != CT_OK || I.nfaces == 0));
            if (d.distance < -clear) FZ_CHECK(c.found && c.gap <= 0);
        }
    }
    ct_scratch_release(&scr);
    ct_hull_free(&I);
done:
    ct_hull_free(&A);
    ct_hull_free(&B);
    return 0;
}
