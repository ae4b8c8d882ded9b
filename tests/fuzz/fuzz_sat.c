/* fuzz-ci-runs: 45000 */
/* Fuzz ct_manifold_hulls (without, with a cold, a warm and a foreign cache) and
   ct_manifold_hull_sphere. Hulls from lattice points (optionally jittered into slivers), rigid
   or broken transforms, speculative distances including negative, NaN and infinite ones.
   Checks: CT_INVALID exactly for bad arguments; count 0..4, unit normal when count > 0, every
   separation <= speculative, finite points, zero points and normal when count == 0; a cache
   (cold, warm, or holding indices of another pair) never changes the answer; against GJK/EPA:
   overlapping hulls always give a contact (apart within `speculative` they may not: the points
   are clipped to the reference face, and each is kept only within `speculative`), and the
   hull-sphere separation is the signed distance of hull and ball. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fz_manifold_eq(const ct_manifold *a, const ct_manifold *b) {
    int i;
    if (a->count != b->count || memcmp(&a->normal, &b->normal, sizeof a->normal)) return 0;
    for (i = 0; i < a->count; ++i)
        if (memcmp(&a->points[i].point, &b->points[i].point, sizeof a->points[i].point) ||
            memcmp(&a->points[i].separation, &b->points[i].separation, sizeof a->points[i].separation) ||
            a->points[i].id != b->points[i].id)
            return 0;
    return 1;
}

static void fz_check_manifold(const ct_manifold *m, ct_real spec) {
    int i;
#ifdef FZ_DEBUG
    fprintf(stderr, "manifold count %d normal %.17g %.17g %.17g (|n|-1 = %g) spec %g\n", m->count, (double)m->normal.x,
            (double)m->normal.y, (double)m->normal.z, (double)ct__len(m->normal) - 1, (double)spec);
    for (i = 0; i < m->count; ++i)
        fprintf(stderr, "  point %.17g %.17g %.17g sep %.17g id %u\n", (double)m->points[i].point.x, (double)m->points[i].point.y,
                (double)m->points[i].point.z, (double)m->points[i].separation, m->points[i].id);
#endif
    FZ_CHECK(m->count >= 0 && m->count <= CT_MANIFOLD_MAX);
    if (m->count == 0) {
        FZ_CHECK(m->normal.x == 0 && m->normal.y == 0 && m->normal.z == 0);
        return;
    }
    FZ_CHECK(fz_unit(m->normal));
    for (i = 0; i < m->count; ++i) {
        FZ_CHECK(fz_finite3(m->points[i].point) && fz_finite((double)m->points[i].separation));
        FZ_CHECK(m->points[i].separation <= spec);
        if (i > 0) FZ_CHECK(m->points[i - 1].id <= m->points[i].id); /* sorted by id */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    ct_hull A, B;
    ct_xform xa, xb;
    const ct_xform *pa, *pb;
    int ra, rb, okA, okB, valid;
    double scale = fz_scale(&f), L, P;
    unsigned flags;
    ct_real spec, radius;
    ct_vec3 center;
    ct_status st, st2;
    ct_manifold m, m2;
    ct_sat_cache cache, foreign;
    memset(&A, 0, sizeof A);
    memset(&B, 0, sizeof B);
    okA = fz_safe_hull(&f, &A, scale);
    okB = fz_safe_hull(&f, &B, scale);
    xa = fz_xform_r(&f, scale * 2, &ra);
    xb = fz_xform_r(&f, scale * 2, &rb);
    flags = fz_byte(&f);
    pa = flags & 1 ? NULL : &xa;
    pb = flags & 2 ? NULL : &xb;
    spec = (flags & 4) ? fz_real(&f, scale) : (ct_real)((double)fz_byte(&f) / 64.0 * scale);
    center = fz_vec(&f, scale * 2);
    radius = (flags & 8) ? fz_real(&f, scale) : (ct_real)((double)fz_byte(&f) / 32.0 * scale);
    memset(&foreign, 0, sizeof foreign);
    foreign.type = (int)(fz_byte(&f) % 5) - 1;
    foreign.index_a = (int)fz_u16(&f) - 8;
    foreign.index_b = (int)fz_u16(&f) - 8;
    if (!okA || !okB) goto done;
    valid = (!pa || (ra && fz_finite3(xa.p))) && (!pb || (rb && fz_finite3(xb.p)));
    L = (double)A.extent + (double)B.extent;
    P = L + fz_maxabs(A.verts, A.nverts) + fz_maxabs(B.verts, B.nverts) + (pa ? fz_maxabs(&xa.p, 1) : 0) +
        (pb ? fz_maxabs(&xb.p, 1) : 0);
    if (valid && P > FZ_BIG) valid = -1;
    if (!(fz_finite((double)spec) && spec >= 0)) valid = 0;

    st = ct_manifold_hulls(&A, pa, &B, pb, spec, NULL, &m);
    FZ_CHECK(st == CT_OK || st == CT_INVALID);
    if (valid == 0) FZ_CHECK(st == CT_INVALID);
    if (valid == 1) FZ_CHECK(st == CT_OK);
    if (st != CT_OK) {
        FZ_CHECK(m.count == 0);
        goto done;
    }
    fz_check_manifold(&m, spec);

    /* caches: cold, then warm, then one from another pair: always the cold answer */
    memset(&cache, 0, sizeof cache);
    st2 = ct_manifold_hulls(&A, pa, &B, pb, spec, &cache, &m2);
    FZ_CHECK(st2 == CT_OK && fz_manifold_eq(&m, &m2));
    st2 = ct_manifold_hulls(&A, pa, &B, pb, spec, &cache, &m2);
    FZ_CHECK(st2 == CT_OK && fz_manifold_eq(&m, &m2));
    st2 = ct_manifold_hulls(&A, pa, &B, pb, spec, &foreign, &m2);
    FZ_CHECK(st2 == CT_OK && fz_manifold_eq(&m, &m2));
    /* the warm cache (by now holding a certificate, for a contact) at poses moved a little
       further on each of four calls (a certificate's lists re-evaluated, outrun, renewed),
       then moved back: the cold answer each time */
    {
        ct_xform xm = pb ? xb : ct_xform_identity(), turn, prev;
        double e = (double)fz_byte(&f) / 255.0 * 1e-2;
        ct_vec3 ax = fz_vec(&f, 1), zero = { 0, 0, 0 };
        int r, c, k, step;
        turn = ct_xform_from_axis_angle(ax, (ct_real)e, zero);
        for (step = 0; step < 5; ++step) {
            const ct_xform *px = pb;
            ct_manifold mc;
            if (step < 4) {
                prev = xm;
                for (r = 0; r < 3; ++r)
                    for (c = 0; c < 3; ++c) {
                        double v = 0;
                        for (k = 0; k < 3; ++k) v += (double)turn.r[r][k] * (double)prev.r[k][c];
                        xm.r[r][c] = (ct_real)v;
                    }
                xm.p.x += (ct_real)(e * L);
                xm.p.z -= (ct_real)(0.5 * e * L);
                px = &xm;
            }
            st = ct_manifold_hulls(&A, pa, &B, px, spec, NULL, &mc);
            st2 = ct_manifold_hulls(&A, pa, &B, px, spec, &cache, &m2);
            FZ_CHECK(st == st2 && (st != CT_OK || fz_manifold_eq(&mc, &m2)));
        }
    }

    /* GJK/EPA on the same hulls (not for slivers, whose GJK answers carry the conditioning
       of their thin direction) */
    if (valid == 1 && ct_hull_volume(&A, NULL) >= cbrt(FZ_EPS) * pow((double)A.extent, 3) &&
        ct_hull_volume(&B, NULL) >= cbrt(FZ_EPS) * pow((double)B.extent, 3)) {
        ct_shape sa = ct_shape_hull(&A), sb = ct_shape_hull(&B);
        ct_distance d;
        double clear = 1e4 * FZ_EPS * P;
        ct_status dst = ct_signed_distance(&sa, pa, &sb, pb, NULL, NULL, &d);
#ifdef FZ_DEBUG
        {
            const ct_hull *hs[2] = { &A, &B };
            const ct_xform *xs[2] = { pa, pb };
            int h, k;
            for (h = 0; h < 2; ++h) {
                fprintf(stderr, "hull %c: nv %d nf %d extent %g\n", 'A' + h, hs[h]->nverts, hs[h]->nfaces, (double)hs[h]->extent);
                for (k = 0; k < hs[h]->nverts; ++k)
                    fprintf(stderr, "  { %.17g, %.17g, %.17g },\n", (double)hs[h]->verts[k].x, (double)hs[h]->verts[k].y, (double)hs[h]->verts[k].z);
                if (xs[h]) for (k = 0; k < 3; ++k)
                    fprintf(stderr, "  x { %.17g, %.17g, %.17g }, %.17g\n", (double)xs[h]->r[k][0], (double)xs[h]->r[k][1],
                            (double)xs[h]->r[k][2], (double)(k == 0 ? xs[h]->p.x : k == 1 ? xs[h]->p.y : xs[h]->p.z));
            }
            fprintf(stderr, "spec %.17g count %d sep0 %.17g normal %g %g %g; signed distance st %d d %.17g n %g %g %g\n", (double)spec, m.count,
                    (double)m.points[0].separation, (double)m.normal.x, (double)m.normal.y, (double)m.normal.z, dst,
                    (double)d.distance, (double)d.normal.x, (double)d.normal.y, (double)d.normal.z);
        }
#endif
        if (dst == CT_OK) {
            if (d.distance < -clear) FZ_CHECK(m.count > 0);
        }
    }

    /* hull against sphere: the separation is the signed distance of hull and ball */
    {
        int vs = valid == 1 && fz_finite3(center) && fz_finite((double)radius) && radius >= 0;
        double Ps = P + fz_maxabs(&center, 1) + fabs((double)radius);
        st = ct_manifold_hull_sphere(&A, pa, center, radius, spec, &m);
#ifdef FZ_DEBUG
        fprintf(stderr, "hull-sphere st %d center %.17g %.17g %.17g radius %.17g\n", st, (double)center.x, (double)center.y,
                (double)center.z, (double)radius);
#endif
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (valid == 1 && !vs && fz_finite((double)spec) && spec >= 0) FZ_CHECK(st == CT_INVALID);
        if (vs && Ps <= FZ_BIG) FZ_CHECK(st == CT_OK);
        if (st == CT_OK) {
            fz_check_manifold(&m, spec);
            FZ_CHECK(m.count <= 1);
            if (vs && Ps <= FZ_BIG) {
                ct_shape sa = ct_shape_hull(&A), sb = ct_shape_sphere(radius);
                ct_xform xc = ct_xform_identity();
                ct_distance d;
                /* GJK stops on a repeated support point before its bounds agree when the centre
                   is on the hull's boundary and the simplex is a sliver: ~1e-9 of the size
                   (3e6 ulps) was seen; the SAT answer (the face plane) is the exact one there */
                double tol = sqrt(FZ_EPS) * Ps;
                xc.p = center;
                ct_status dst = ct_signed_distance(&sa, pa, &sb, &xc, NULL, NULL, &d);
#ifdef FZ_DEBUG
                fprintf(stderr, "hull-ball signed distance st %d d %.17g n %.17g %.17g %.17g tol %g\n", dst, (double)d.distance,
                        (double)d.normal.x, (double)d.normal.y, (double)d.normal.z, tol);
#endif
                if (dst == CT_OK) {
                    if (m.count == 1) FZ_CHECK(fabs((double)m.points[0].separation - (double)d.distance) <= tol);
                    else FZ_CHECK((double)d.distance > (double)spec - tol);
                    if ((double)d.distance < (double)spec - tol) FZ_CHECK(m.count == 1);
                }
            }
        } else {
            FZ_CHECK(m.count == 0);
        }
    }
done:
    ct_hull_free(&A);
    ct_hull_free(&B);
    return 0;
}
