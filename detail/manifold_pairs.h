/* contact.h detail: >>pairs - contact manifolds of spheres, boxes, capsules and hulls in closed
   form (Box2D v3's b2CollideCircles / b2CollideCapsules / b2CollideCapsuleAndPolygon in 3D).

   Every shape here is a core (point, segment, box, hull) rounded by a radius: the manifold of
   the cores' closest features, each separation reduced by the radii. Conventions are those of
   ct_manifold_hulls (normal A -> B, points midway between the surfaces, speculative filter,
   ids from ct__sat_id over feature keys, points sorted by id). Segment endpoints are vertex
   keys 0 and 1 and its interior the edge key 0; a sphere's centre is face key 0. */

/* Segments closer to parallel than this (sine of the angle) give two points when their
   projections overlap: a capsule resting on a capsule or a face. 0.005 rad is Box2D's
   b2_linearSlop over a unit length, far above the rounding of a unit cross product. */
#define CT__PAIR_PARALLEL ((ct_real)0.005)
/* Core distances below this times the size count as touching cores (no direction from the
   closest points): rounding of a closest-point difference with a margin. */
#define CT__PAIR_TOUCH ((ct_real)64 * CT__EPS)
/* A face clip of a capsule stands when its deepest point is within this fraction of the size
   of the closest pair (else the closest pair alone is the contact), as for rounded hulls. */
#define CT__PAIR_FACE_TOL ((ct_real)5e-4)

#define CT__PAIR_SEG_KEY(t) ((t) <= 0 ? ct__sat_key(CT__KEY_VERT, 0) : ((t) >= 1 ? ct__sat_key(CT__KEY_VERT, 1) : ct__sat_key(CT__KEY_EDGE, 0)))

CT__INLINE int ct__pair_capsule_ok(const ct_capsule *c) {
    return c && ct__finite3(c->p0) && ct__finite3(c->p1) && ct__finite(c->radius) && c->radius >= 0;
}

/* Midway point of core points pa (on A's core) and pb (on B's core) along n with radii. */
CT__INLINE ct_vec3 ct__pair_mid(ct_vec3 pa, ct_real ra, ct_vec3 pb, ct_real rb, ct_vec3 n) {
    return ct__scale(ct__add(ct__madd(pa, n, ra), ct__madd(pb, n, -rb)), (ct_real)0.5);
}

/* A unit vector from a to b, or (when they coincide within tol) fallback. */
CT__INLINE ct_vec3 ct__pair_dir(ct_vec3 a, ct_vec3 b, ct_real tol, ct_vec3 fallback, ct_real *d) {
    ct_vec3 v = ct__sub(b, a);
    *d = ct__len(v);
    if (!(*d > tol)) { *d = 0; return fallback; }
    return ct__normalize(v, NULL);
}

/* The result must be representable: inputs near the range of ct_real (finite, yet whose
   sums overflow) are answered CT_INVALID with out zeroed rather than with Inf/NaN. */
CT__PRIVATE ct_status ct__pair_finish(ct_manifold *out) {
    int i, ok = ct__finite3(out->normal);
    for (i = 0; i < out->count; ++i)
        ok = ok && ct__finite3(out->points[i].point) && ct__finite(out->points[i].separation);
    if (ok) { ct__manifold_deepest(out); return CT_OK; }
    memset(out, 0, sizeof *out);
    return CT_INVALID;
}

CTDEF ct_status ct_manifold_spheres(ct_vec3 ca, ct_real ra, ct_vec3 cb, ct_real rb, ct_real speculative,
                                    ct_manifold *out) {
    ct_vec3 n;
    ct_real d, size;
    if (out) memset(out, 0, sizeof *out);
    if (!out || !ct__finite3(ca) || !ct__finite3(cb) || !ct__finite(ra) || !ct__finite(rb) || ra < 0 || rb < 0 ||
        !ct__finite(speculative) || speculative < 0)
        return CT_INVALID;
    size = ra + rb + ct__maxabs(ca) + ct__maxabs(cb);
    /* coincident centres: +z (any direction is a least-penetration direction) */
    n = ct__pair_dir(ca, cb, CT__PAIR_TOUCH * size, ct__v3(0, 0, 1), &d);
    if (!(d - ra - rb <= speculative)) return ct__pair_finish(out);
    out->normal = n;
    out->count = 1;
    out->points[0].point = ct__pair_mid(ca, ra, cb, rb, n);
    out->points[0].separation = d - ra - rb;
    out->points[0].id = ct__sat_id(ct__sat_key(CT__KEY_FACE, 0), ct__sat_key(CT__KEY_FACE, 0));
    return ct__pair_finish(out);
}

CTDEF ct_status ct_manifold_box_sphere(ct_vec3 half, const ct_xform *xa, ct_vec3 center, ct_real radius,
                                       ct_real speculative, ct_manifold *out) {
    ct_vec3 c, q, n, p;
    ct_real d, sep, best = -CT__MAXR, size;
    unsigned key;
    int i, ax = 0, nclamp = 0, code = 0;
    if (out) memset(out, 0, sizeof *out);
    if (!out || !ct__finite3(half) || half.x < 0 || half.y < 0 || half.z < 0 || !ct__xf_valid(xa) ||
        !ct__finite3(center) || !ct__finite(radius) || radius < 0 || !ct__finite(speculative) || speculative < 0)
        return CT_INVALID;
    c = ct__xf_inv_point(xa, center);
    q = ct__vmin(ct__vmax(c, ct__neg(half)), half); /* closest point of the solid box */
    for (i = 0; i < 3; ++i) {
        ct_real ci = ct__vget(c, i), hi = ct__vget(half, i);
        if (ci > hi || ci < -hi) { nclamp++; code |= (ci > hi ? 1 : 2) << (2 * i); }
        if (ct__abs(ci) - hi > best) { best = ct__abs(ci) - hi; ax = i; }
    }
    size = ct__maxabs(half) + ct__maxabs(c);
    n = ct__pair_dir(q, c, CT__PAIR_TOUCH * size, ct__v3(0, 0, 0), &d);
    if (d > 0) { /* outside: the clamped coordinates name the face (1), edge (2) or corner (3) */
        sep = d - radius;
        p = q;
        key = ct__sat_key(nclamp == 1 ? CT__KEY_FACE : (nclamp == 2 ? CT__KEY_EDGE : CT__KEY_VERT), code);
    } else { /* inside or on the surface: the face of least penetration */
        ct_real s = ct__vget(c, ax) >= 0 ? 1 : -1;
        n = ct__v3(ax == 0 ? s : 0, ax == 1 ? s : 0, ax == 2 ? s : 0);
        sep = best - radius;
        p = ct__madd(c, n, -best);
        key = ct__sat_key(CT__KEY_FACE, (s > 0 ? 1 : 2) << (2 * ax));
    }
    if (!(sep <= speculative)) return ct__pair_finish(out);
    out->normal = ct__xf_dir(xa, n);
    out->count = 1;
    out->points[0].point = ct__xf_point(xa, ct__pair_mid(p, 0, c, radius, n));
    out->points[0].separation = sep;
    out->points[0].id = ct__sat_id(key, ct__sat_key(CT__KEY_FACE, 0));
    return ct__pair_finish(out);
}

/* Closest points of segments p0 + s u and q0 + t v, s, t in [0, 1] (Ericson, Real-Time
   Collision Detection, 5.1.9). */
CT__PRIVATE void ct__pair_seg_seg(ct_vec3 p0, ct_vec3 u, ct_vec3 q0, ct_vec3 v, ct_real *s, ct_real *t) {
    ct_vec3 r = ct__sub(p0, q0);
    ct_real a = ct__len2(u), e = ct__len2(v), f = ct__dot(v, r), c, b, den;
    if (!(a > 0) && !(e > 0)) { *s = *t = 0; return; }
    if (!(a > 0)) { *s = 0; *t = ct__clamp(f / e, 0, 1); return; }
    c = ct__dot(u, r);
    if (!(e > 0)) { *t = 0; *s = ct__clamp(-c / a, 0, 1); return; }
    b = ct__dot(u, v);
    den = a * e - b * b;
    *s = den > 0 ? ct__clamp((b * f - c * e) / den, 0, 1) : 0;
    *t = (b * *s + f) / e;
    if (*t < 0) { *t = 0; *s = ct__clamp(-c / a, 0, 1); }
    else if (*t > 1) { *t = 1; *s = ct__clamp((b - c) / a, 0, 1); }
}

/* A direction for touching segments: across both (u x v), else across u, signed towards
   B's midpoint (world frame). */
CT__PRIVATE ct_vec3 ct__pair_touch_normal(ct_vec3 u, ct_vec3 v, ct_vec3 ab) {
    int ok;
    ct_vec3 n = ct__normalize(ct__cross(u, v), &ok), e, w;
    if (!ok) {
        e = ct__normalize(ct__len2(u) > 0 ? u : ct__v3(0, 0, 1), NULL);
        ct__basis(e, &n, &w);
        w = ct__sub(ab, ct__scale(e, ct__dot(ab, e)));
        n = ct__normalize(w, &ok);
        if (!ok) ct__basis(e, &n, &w);
    }
    return ct__dot(n, ab) < 0 ? ct__neg(n) : n;
}

/* The capsule pair in world coordinates (segments a0-a1 and b0-b1, radii ra and rb). */
CT__PRIVATE ct_status ct__pair_capsules(ct_vec3 a0, ct_vec3 a1, ct_real ra, ct_vec3 b0, ct_vec3 b1, ct_real rb,
                                        ct_real speculative, ct_manifold *out) {
    ct_vec3 u, v, pa, pb, n;
    ct_real s, t, d, size, lu, lv;
    ct__cand pts[2];
    int np = 0;
    u = ct__sub(a1, a0); v = ct__sub(b1, b0);
    lu = ct__len(u); lv = ct__len(v);
    size = lu + lv + ra + rb;
    ct__pair_seg_seg(a0, u, b0, v, &s, &t);
    pa = ct__madd(a0, u, s);
    pb = ct__madd(b0, v, t);
    n = ct__pair_dir(pa, pb, CT__PAIR_TOUCH * (size + ct__maxabs(pa)), ct__v3(0, 0, 0), &d);
    if (!(d > 0))
        n = ct__pair_touch_normal(u, v, ct__sub(ct__lerp(b0, b1, (ct_real)0.5), ct__lerp(a0, a1, (ct_real)0.5)));
    if (!(d - ra - rb <= speculative)) return ct__pair_finish(out);
    /* nearly parallel segments apart: clip B's projection to A's extent, two points */
    if (d > 0 && lu > 0 && lv > 0 && ct__len(ct__cross(u, v)) <= CT__PAIR_PARALLEL * lu * lv) {
        ct_real s0 = ct__dot(ct__sub(b0, a0), u) / (lu * lu), s1 = ct__dot(ct__sub(b1, a0), u) / (lu * lu);
        ct_real lo = ct__max(0, ct__min(s0, s1)), hi = ct__min(1, ct__max(s0, s1));
        if (hi - lo > CT__PAIR_PARALLEL) {
            int k;
            for (k = 0; k < 2; ++k) {
                ct_real sk = k ? hi : lo, tk = ct__clamp((sk - s0) / (s1 - s0), 0, 1);
                ct_vec3 qa = ct__madd(a0, u, sk), qb = ct__madd(b0, v, tk);
                ct_real sep = ct__dot(ct__sub(qb, qa), n) - ra - rb;
                if (!(sep <= speculative)) continue;
                pts[np].p = ct__pair_mid(qa, ra, qb, rb, n);
                pts[np].s = sep;
                pts[np].id = ct__sat_id(CT__PAIR_SEG_KEY(sk), CT__PAIR_SEG_KEY(tk));
                np++;
            }
            if (np == 2 && pts[0].id == pts[1].id) pts[1].id ^= 1u << 31; /* both interior: keep apart */
            ct__sat_emit(pts, np, NULL, n, out);
            return ct__pair_finish(out);
        }
    }
    pts[0].p = ct__pair_mid(pa, ra, pb, rb, n);
    pts[0].s = d - ra - rb;
    pts[0].id = ct__sat_id(CT__PAIR_SEG_KEY(s), CT__PAIR_SEG_KEY(t));
    ct__sat_emit(pts, 1, NULL, n, out);
    return ct__pair_finish(out);
}

/* Coordinates within 2^+-20 (float) / 2^+-200 (double) are used as they are; beyond, the pair
   is solved scaled by a power of two (exactly) so that the closest-point solver's quartic
   products stay in range, and the answer scaled back: the same answer either way round. */
CTDEF ct_status ct_manifold_capsules(const ct_capsule *a, const ct_xform *xa, const ct_capsule *b,
                                     const ct_xform *xb, ct_real speculative, ct_manifold *out) {
    const int lim = CT__FLOAT ? 20 : 200, maxe = CT__FLOAT ? 128 : 1024; /* FLT/DBL_MAX_EXP */
    ct_vec3 a0, a1, b0, b1;
    ct_real M, up, down;
    ct_status st;
    int e, i;
    if (out) memset(out, 0, sizeof *out);
    if (!out || !ct__pair_capsule_ok(a) || !ct__pair_capsule_ok(b) || !ct__xf_valid(xa) || !ct__xf_valid(xb) ||
        !ct__finite(speculative) || speculative < 0)
        return CT_INVALID;
    a0 = ct__xf_point(xa, a->p0); a1 = ct__xf_point(xa, a->p1);
    b0 = ct__xf_point(xb, b->p0); b1 = ct__xf_point(xb, b->p1);
    M = ct__max(ct__max(ct__maxabs(a0), ct__maxabs(a1)), ct__max(ct__maxabs(b0), ct__maxabs(b1)));
    M = ct__max(M, ct__max(a->radius, b->radius));
    if (!ct__finite(M)) return ct__pair_finish(out);
    (void)frexp((double)M, &e);
    if (!(M > 0) || (e >= -lim && e <= lim))
        return ct__pair_capsules(a0, a1, a->radius, b0, b1, b->radius, speculative, out);
    if (e < 1 - maxe) e = 1 - maxe;
    down = (ct_real)ldexp(1.0, -e);
    up = (ct_real)ldexp(1.0, e);
    st = ct__pair_capsules(ct__scale(a0, down), ct__scale(a1, down), a->radius * down, ct__scale(b0, down),
                           ct__scale(b1, down), b->radius * down, speculative * down, out);
    if (st != CT_OK) return st;
    for (i = 0; i < out->count; ++i) {
        out->points[i].point = ct__scale(out->points[i].point, up);
        out->points[i].separation *= up;
    }
    return ct__pair_finish(out);
}

/* Clips segment p0-p1 (A's frame) to the prism of face f: parameters [*t0, *t1] and the
   half-edge that clipped each end (-1: not clipped). 0 when nothing remains. */
CT__PRIVATE int ct__pair_clip_face(const ct_hull *h, int f, ct_vec3 p0, ct_vec3 p1, ct_real *t0, ct_real *t1,
                                   int *e0, int *e1) {
    ct_vec3 n = h->planes[f].n, dir = ct__sub(p1, p0);
    int k;
    *t0 = 0; *t1 = 1; *e0 = *e1 = -1;
    for (k = h->face_first[f]; k < h->face_first[f + 1]; ++k) {
        ct_vec3 a = h->verts[h->face_verts[k]], b = h->verts[h->face_verts[h->he_next[k]]];
        ct_vec3 side = ct__cross(ct__sub(b, a), n); /* outward in the face's plane */
        ct_real d0 = ct__dot(side, ct__sub(p0, a)), dd = ct__dot(side, dir), tc;
        if (dd == 0) { if (d0 > 0) return 0; continue; }
        tc = -d0 / dd;
        if (dd > 0) { if (tc < *t1) { *t1 = tc; *e1 = k; } }
        else if (tc > *t0) { *t0 = tc; *e0 = k; }
    }
    return *t1 > *t0;
}

/* SAT of a hull (radius 0) and a segment, both in A's frame: the largest separation over the
   face normals (*face) and over the hull edges crossed with the segment (*edge, *axis). */
CT__PRIVATE ct_real ct__pair_sat_segment(const ct_hull *h, ct_vec3 p0, ct_vec3 p1, int *face, int *edge,
                                         ct_vec3 *axis, ct_real *face_sep) {
    ct_vec3 u = ct__sub(p1, p0);
    ct_real best = -CT__MAXR, eb = -CT__MAXR;
    int f, k;
    for (f = 0; f < h->nfaces; ++f) {
        ct_real s = ct__min(ct__dot(h->planes[f].n, p0), ct__dot(h->planes[f].n, p1)) + h->planes[f].d;
        if (s > best) { best = s; *face = f; }
    }
    *face_sep = best;
    *edge = -1;
    for (k = 0; k < 2 * h->nedges; ++k) {
        ct_vec3 a, m;
        ct_real s;
        int ok;
        if (h->he_twin[k] < k) continue;
        a = h->verts[h->face_verts[k]];
        m = ct__normalize(ct__cross(ct__sub(h->verts[h->face_verts[h->he_next[k]]], a), u), &ok);
        if (!ok) continue;
        if (ct__dot(m, ct__sub(a, h->center)) < 0) m = ct__neg(m); /* outward at the edge */
        /* the edge must be A's support along m (a Minkowski face), else the axis is not tight */
        if (ct__dot(m, ct__sub(h->verts[ct__sat_support(h, m)], a)) > CT__PAIR_TOUCH * h->extent) continue;
        s = ct__min(ct__dot(m, p0), ct__dot(m, p1)) - ct__dot(m, a);
        if (s > eb) { eb = s; *edge = k; *axis = m; }
    }
    return eb;
}

CTDEF ct_status ct_manifold_hull_capsule(const ct_hull *a, const ct_xform *xa, const ct_capsule *b,
                                         const ct_xform *xb, ct_real speculative, ct_manifold *out) {
    ct_vec3 p0, p1, n, pa, pb;
    ct_real rb, d, L, sep;
    ct__cand pts[2];
    int face = -1, np = 0, use_face, k;
    if (out) memset(out, 0, sizeof *out);
    if (!out || !ct__sat_hull_ok(a) || !ct__pair_capsule_ok(b) || !ct__xf_valid(xa) || !ct__xf_valid(xb) ||
        !ct__finite(speculative) || speculative < 0)
        return CT_INVALID;
    p0 = ct__xf_inv_point(xa, ct__xf_point(xb, b->p0));
    p1 = ct__xf_inv_point(xa, ct__xf_point(xb, b->p1));
    rb = b->radius;
    L = a->extent + ct__len(ct__sub(p1, p0)) + rb;
    {   /* GJK on the cores (the segment as a triangle with a repeated corner) */
        ct_shape sa = ct_shape_hull(a), sb = ct_shape_triangle(p0, p1, p1);
        ct_distance g;
        ct_status st = ct_gjk(&sa, NULL, &sb, NULL, NULL, &g);
        if (st == CT_INVALID) return st;
        d = g.distance; n = g.normal; pa = g.pa; pb = g.pb;
    }
    if (d > CT__PAIR_TOUCH * (L + ct__maxabs(p0))) { /* apart: the closest pair, or a face clip */
        ct_real cb = -CT__MAXR;
        if (!(d - rb <= speculative)) return ct__pair_finish(out);
        for (k = 0; k < a->nfaces; ++k)
            if (ct__dot(a->planes[k].n, n) > cb) { cb = ct__dot(a->planes[k].n, n); face = k; }
        use_face = cb >= 1 - CT__PAIR_PARALLEL * CT__PAIR_PARALLEL / 2;
        sep = d;
    } else { /* cores touch or overlap: SAT over faces and edge x segment axes */
        ct_vec3 axis = ct__v3(0, 0, 0);
        int edge;
        ct_real fs, es = ct__pair_sat_segment(a, p0, p1, &face, &edge, &axis, &fs);
        sep = fs;
        use_face = !(edge >= 0 && es > fs + (ct_real)0.02 * ct__abs(fs) + CT__PAIR_FACE_TOL * L);
        if (!use_face) { /* edge contact: the closest points of the edge and the segment */
            ct_vec3 e0 = a->verts[a->face_verts[edge]], e1 = a->verts[a->face_verts[a->he_next[edge]]];
            ct_real s, t;
            if (!(es - rb <= speculative)) return ct__pair_finish(out);
            ct__pair_seg_seg(e0, ct__sub(e1, e0), p0, ct__sub(p1, p0), &s, &t);
            pa = ct__lerp(e0, e1, s);
            pb = ct__lerp(p0, p1, t);
            pts[0].p = ct__pair_mid(pa, 0, pb, rb, axis);
            pts[0].s = es - rb;
            pts[0].id = ct__sat_id(ct__sat_edge_key(a, edge), CT__PAIR_SEG_KEY(t));
            ct__sat_emit(pts, 1, xa, axis, out);
            return ct__pair_finish(out);
        }
        if (!(fs - rb <= speculative)) return ct__pair_finish(out);
    }
    if (use_face) { /* face clip: the segment clipped to the prism of the face, each end against its plane */
        ct_real t0, t1, deepest = CT__MAXR;
        int e0, e1;
        ct_plane pl = a->planes[face];
        if (ct__pair_clip_face(a, face, p0, p1, &t0, &t1, &e0, &e1)) {
            ct_real dk[2];
            int only = -1; /* a clip shorter than the parallel tolerance: its deeper end alone */
            for (k = 0; k < 2; ++k) dk[k] = ct__dot(pl.n, ct__lerp(p0, p1, k ? t1 : t0)) + pl.d;
            if (t1 - t0 <= CT__PAIR_PARALLEL) only = dk[1] < dk[0] ? 1 : 0;
            for (k = 0; k < 2; ++k) {
                ct_real tk = k ? t1 : t0;
                int ek = k ? e1 : e0;
                ct_vec3 q = ct__lerp(p0, p1, tk);
                if (only >= 0 && k != only) continue;
                deepest = ct__min(deepest, dk[k]);
                if (!(dk[k] - rb <= speculative)) continue;
                pts[np].p = ct__pair_mid(ct__madd(q, pl.n, -dk[k]), 0, q, rb, pl.n);
                pts[np].s = dk[k] - rb;
                pts[np].id = ct__sat_id(ek >= 0 ? ct__sat_edge_key(a, ek) : ct__sat_key(CT__KEY_FACE, face),
                                        ct__sat_key(CT__KEY_VERT, k));
                np++;
            }
        }
        /* the clip must hold the closest pair (apart) / the SAT separation (overlapping): its
           deepest point no farther than that (beyond rounding), and nearer only by the plane's
           tilt (a face parallel to the normal within 0.005 rad) */
        if (np > 0 && deepest <= sep + CT__PAIR_TOUCH * (L + ct__maxabs(p0)) &&
            deepest >= sep - (ct_real)0.02 * ct__abs(sep) - CT__PAIR_FACE_TOL * L) {
            ct__sat_emit(pts, np, xa, pl.n, out);
            return ct__pair_finish(out);
        }
    }
    /* fallback: the closest pair (apart) or the deepest endpoint along the face (overlapping) */
    np = 0;
    if (d > CT__PAIR_TOUCH * (L + ct__maxabs(p0))) {
        unsigned ka = 0;
        ct_real t = 0, l2 = ct__len2(ct__sub(p1, p0));
        (void)ct__sat_closest(a, pa, &pa, &ka);
        if (l2 > 0) t = ct__clamp(ct__dot(ct__sub(pb, p0), ct__sub(p1, p0)) / l2, 0, 1);
        pts[0].p = ct__pair_mid(pa, 0, pb, rb, n);
        pts[0].s = d - rb;
        pts[0].id = ct__sat_id(ka, CT__PAIR_SEG_KEY(t));
        ct__sat_emit(pts, 1, xa, n, out);
    } else {
        ct_plane pl = a->planes[face];
        ct_real d0 = ct__dot(pl.n, p0) + pl.d, d1 = ct__dot(pl.n, p1) + pl.d;
        ct_vec3 q = d0 <= d1 ? p0 : p1;
        ct_real dist = ct__min(d0, d1);
        pts[0].p = ct__pair_mid(ct__madd(q, pl.n, -dist), 0, q, rb, pl.n);
        pts[0].s = dist - rb;
        pts[0].id = ct__sat_id(ct__sat_key(CT__KEY_FACE, face), ct__sat_key(CT__KEY_VERT, d0 <= d1 ? 0 : 1));
        ct__sat_emit(pts, 1, xa, pl.n, out);
    }
    return ct__pair_finish(out);
}
