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

/* Coordinates within 2^+-20 (float) / 2^+-200 (double) (ct__in_range) are used as they are; beyond, the pair
   is solved scaled by a power of two (exactly) so that the closest-point solver's quartic
   products stay in range, and the answer scaled back: the same answer either way round. */
CTDEF ct_status ct_manifold_capsules(const ct_capsule *a, const ct_xform *xa, const ct_capsule *b,
                                     const ct_xform *xb, ct_real speculative, ct_manifold *out) {
    const int maxe = CT__FLOAT ? 128 : 1024; /* FLT/DBL_MAX_EXP */
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
    if (!(M > 0) || ct__in_range(M))
        return ct__pair_capsules(a0, a1, a->radius, b0, b1, b->radius, speculative, out);
    (void)frexp((double)M, &e);
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

/* The segment p0-p1 (B's core, rounded by rb; A's frame) against face f of the hull a: the
   segment clipped to the face's prism, each end measured against its plane, kept when within
   speculative (a clip shorter than the parallel tolerance: its deeper end alone). Ends get the
   keys (clipping half-edge, or the face) x (key0, key1). Returns the count (<= 2) in pts and
   the deepest end's plane distance (CT__MAXR: none) in *deepest. */
CT__PRIVATE int ct__pair_segment_face(const ct_hull *a, int face, ct_vec3 p0, ct_vec3 p1, ct_real rb,
                                      ct_real speculative, unsigned key0, unsigned key1, ct__cand *pts,
                                      ct_real *deepest) {
    ct_real t0, t1, dk[2];
    int e0, e1, k, np = 0, only = -1;
    ct_plane pl = a->planes[face];
    *deepest = CT__MAXR;
    if (!ct__pair_clip_face(a, face, p0, p1, &t0, &t1, &e0, &e1)) return 0;
    for (k = 0; k < 2; ++k) dk[k] = ct__dot(pl.n, ct__lerp(p0, p1, k ? t1 : t0)) + pl.d;
    if (t1 - t0 <= CT__PAIR_PARALLEL) only = dk[1] < dk[0] ? 1 : 0;
    for (k = 0; k < 2; ++k) {
        int ek = k ? e1 : e0;
        ct_vec3 q = ct__lerp(p0, p1, k ? t1 : t0);
        if (only >= 0 && k != only) continue;
        *deepest = ct__min(*deepest, dk[k]);
        if (!(dk[k] - rb <= speculative)) continue;
        pts[np].p = ct__pair_mid(ct__madd(q, pl.n, -dk[k]), 0, q, rb, pl.n);
        pts[np].s = dk[k] - rb;
        pts[np].id = ct__sat_id(ek >= 0 ? ct__sat_edge_key(a, ek) : ct__sat_key(CT__KEY_FACE, face), k ? key1 : key0);
        np++;
    }
    return np;
}

/* A clip stands for the contact when it holds the closest pair (apart) / the least separation
   sep (overlapping): its deepest point no farther than that (beyond rounding, touch x the
   coordinates' scale), and nearer only by a reference plane's tilt within the parallel
   tolerance (CT__PAIR_FACE_TOL x L plus 2% of the separation, as for rounded hulls). */
CT__INLINE int ct__pair_face_holds(int np, ct_real deepest, ct_real sep, ct_real scale, ct_real L) {
    return np > 0 && deepest <= sep + CT__PAIR_TOUCH * scale &&
           deepest >= sep - (ct_real)0.02 * ct__abs(sep) - CT__PAIR_FACE_TOL * L;
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
    {   /* GJK on the cores (the segment as a triangle with a repeated corner); it stops at the
           first support plane that puts them beyond speculative + radius: no contact */
        ct_shape sa = ct_shape_hull(a), sb = ct_shape_triangle(p0, p1, p1);
        ct_distance g;
        ct__gjk_run r;
        ct_status st = ct__gjk_query(&sa, NULL, &sb, NULL, NULL, speculative + rb, &r);
        if (st == CT_INVALID) return st;
        if (r.beyond) return ct__pair_finish(out);
        memset(&g, 0, sizeof g);
        ct__gjk_answer(&r, NULL, &g);
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
        ct_real deepest;
        np = ct__pair_segment_face(a, face, p0, p1, rb, speculative, ct__sat_key(CT__KEY_VERT, 0),
                                   ct__sat_key(CT__KEY_VERT, 1), pts, &deepest);
        if (ct__pair_face_holds(np, deepest, sep, L + ct__maxabs(p0), L)) {
            ct__sat_emit(pts, np, xa, a->planes[face].n, out);
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

/* ---- a hull against a cylinder ---------------------------------------------------------------
   The cylinder's contact features: a cap (a disk) when the normal is parallel to its axis, a
   side line when it is normal to the axis, a rim point otherwise. The signed distance (GJK/EPA,
   exact for a cylinder: its caps are flat and its side is ruled) gives the normal and the
   closest or deepest pair; a hull face parallel to the normal then clips the cap (as a polygon
   of CT__CYL_SIDES rim points at fixed angles, plus the deepest rim point when it is deeper,
   and the face's own vertices that fall on the true disk) or the side line, and a cap parallel
   to the normal clips the hull's edge facing it to the disk. A clip stands when it holds the
   deepest pair (ct__pair_face_holds), else the pair alone is the contact (Jolt clips its
   cylinder caps as polygons the same way). */
#define CT__CYL_SIDES 8
/* Cylinder feature keys: cap vertices (cap c, rim point k, deepest point CT__CYL_SIDES), cap
   rim edges, cap faces, the side line's ends and the side. */
#define CT__CYL_VKEY(c, k) ct__sat_key(CT__KEY_VERT, (c) * 16 + (k))
#define CT__CYL_EKEY(c, k) ct__sat_key(CT__KEY_EDGE, (c) * 16 + (k))
#define CT__CYL_FKEY(c) ct__sat_key(CT__KEY_FACE, (c))
#define CT__CYL_SIDE_KEY(k) ct__sat_key(CT__KEY_VERT, 32 + (k))

/* Whether p lies in the prism of a face: inside (<= 0) every side plane but skip (-1: none);
   side[j] is the outward normal of the side plane through the face's j-th vertex vert[j]. */
CT__INLINE int ct__cyl_in_prism(const ct_vec3 *side, const ct_vec3 *vert, int nf, int skip, ct_vec3 p) {
    int j;
    for (j = 0; j < nf; ++j)
        if (j != skip && ct__dot(side[j], ct__sub(p, vert[j])) > 0) return 0;
    return 1;
}

/* Cap polygon (cap c centred at cc, rim points at fixed angles in the basis ex, ey, radius R,
   axis u) clipped to the prism of face f of a (A's frame): candidates (midway points, keyed)
   into out (room for 3 (CT__CYL_SIDES + 1) + the face's vertices); returns the count. side and
   vert: room for the face's vertex count, filled here (the side planes, computed once). */
CT__PRIVATE int ct__cyl_cap_face(const ct_hull *a, int f, int c, ct_vec3 cc, ct_vec3 ex, ct_vec3 ey, ct_real R,
                                 ct_vec3 u, ct_real speculative, ct_real tol, ct_vec3 *side, ct_vec3 *vert,
                                 ct__cand *out) {
    /* cos and sin of the rim points' fixed angles, k 45 degrees */
    static const double cs[CT__CYL_SIDES][2] = { { 1, 0 }, { 0.70710678118654752, 0.70710678118654752 }, { 0, 1 },
                                                 { -0.70710678118654752, 0.70710678118654752 }, { -1, 0 },
                                                 { -0.70710678118654752, -0.70710678118654752 }, { 0, -1 },
                                                 { 0.70710678118654752, -0.70710678118654752 } };
    ct_plane pl = a->planes[f];
    ct_vec3 poly[CT__CYL_SIDES + 1], w;
    unsigned pk[CT__CYL_SIDES + 1];
    ct_real best = CT__MAXR, wl, den;
    int k, j, np = 0, nc = 0, e0 = a->face_first[f], nf = a->face_first[f + 1] - e0, deep = -1;
    for (j = 0; j < nf; ++j) {
        vert[j] = a->verts[a->face_verts[e0 + j]];
        side[j] = ct__cross(ct__sub(a->verts[a->face_verts[a->he_next[e0 + j]]], vert[j]), pl.n);
    }
    /* the deepest rim point along -n, when the cap is tilted enough to have one */
    w = ct__madd(ct__neg(pl.n), u, ct__dot(pl.n, u));
    wl = ct__len(w);
    for (k = 0; k < CT__CYL_SIDES; ++k) {
        poly[np] = ct__madd(ct__madd(cc, ex, R * (ct_real)cs[k][0]), ey, R * (ct_real)cs[k][1]);
        pk[np++] = (unsigned)k;
        best = ct__min(best, ct__dot(pl.n, poly[np - 1]) + pl.d);
    }
    if (wl > 0) {
        ct_vec3 q = ct__madd(cc, w, R / wl);
        ct_real sq = ct__dot(pl.n, q) + pl.d;
        if (sq < best - tol) {   /* inserted in angular order: after rim point floor(angle / step) */
            ct_real ang = ct__atan2(ct__dot(w, ey), ct__dot(w, ex));
            if (ang < 0) ang += (ct_real)6.283185307179586;
            deep = (int)(ang / ((ct_real)6.283185307179586 / CT__CYL_SIDES)) % CT__CYL_SIDES;
            for (j = np; j > deep + 1; --j) { poly[j] = poly[j - 1]; pk[j] = pk[j - 1]; }
            poly[deep + 1] = q;
            pk[deep + 1] = CT__CYL_SIDES;
            np++;
        }
    }
    /* (0) rim points inside the face's prism, (1) rim edges crossing a side plane inside the
       others (the side planes: edge x n points out of a counter-clockwise face) */
    for (k = 0; k < np; ++k) {
        ct_vec3 p0 = poly[k], p1 = poly[k + 1 == np ? 0 : k + 1];
        if (ct__cyl_in_prism(side, vert, nf, -1, p0)) {
            ct_real sp = ct__dot(pl.n, p0) + pl.d;
            if (sp <= speculative) {
                out[nc].p = ct__madd(p0, pl.n, -sp / 2);
                out[nc].s = sp;
                out[nc++].id = ct__sat_id(ct__sat_key(CT__KEY_FACE, f), CT__CYL_VKEY(c, (int)pk[k]));
            }
        }
        for (j = 0; j < nf; ++j) {
            ct_real d0 = ct__dot(side[j], ct__sub(p0, vert[j])), d1 = ct__dot(side[j], ct__sub(p1, vert[j])), sq;
            ct_vec3 q;
            if ((d0 <= 0) == (d1 <= 0)) continue;
            q = ct__lerp(p0, p1, d0 / (d0 - d1));
            if (!ct__cyl_in_prism(side, vert, nf, j, q)) continue;
            sq = ct__dot(pl.n, q) + pl.d;
            if (!(sq <= speculative)) continue;
            out[nc].p = ct__madd(q, pl.n, -sq / 2);
            out[nc].s = sq;
            out[nc++].id = ct__sat_id(ct__sat_edge_key(a, e0 + j), CT__CYL_EKEY(c, (int)pk[k]));
        }
    }
    /* (2) the face's vertices that fall on the disk, projected onto the cap along n */
    den = ct__dot(u, pl.n);
    if (ct__abs(den) > 0)
        for (j = 0; j < nf; ++j) {
            ct_vec3 v = vert[j], x;
            ct_real t = ct__dot(u, ct__sub(cc, v)) / den;
            x = ct__madd(v, pl.n, t);
            if (!(ct__len2(ct__sub(x, cc)) <= R * R) || !(t <= speculative)) continue;
            out[nc].p = ct__madd(v, pl.n, t / 2);
            out[nc].s = t;
            out[nc++].id = ct__sat_id(ct__sat_key(CT__KEY_VERT, a->face_verts[e0 + j]), CT__CYL_FKEY(c));
        }
    return nc;
}

/* The hull's edge at its support vertex v along n (A's frame) most nearly normal to n, within
   the parallel tolerance: its half-edge from v, or -1. */
CT__PRIVATE int ct__cyl_flat_edge(const ct_hull *a, int v, ct_vec3 n) {
    int e0 = a->vert_edge[v], e = e0, best = -1, guard = a->face_first[a->nfaces];
    ct_real bc = CT__PAIR_PARALLEL;
    do {
        ct_vec3 d = ct__sub(a->verts[a->face_verts[a->he_next[e]]], a->verts[v]);
        ct_real l = ct__len(d), c = l > 0 ? ct__abs(ct__dot(d, n)) / l : 1;
        if (c <= bc) { bc = c; best = e; }
        e = a->he_next[a->he_twin[e]];
    } while (e != e0 && --guard > 0);
    return best;
}

/* The manifold checked as every pair's (ct__pair_finish); else EPA's status (CT_OK, or
   CT_NO_CONVERGENCE with its best answer). */
CT__INLINE ct_status ct__cyl_done(ct_manifold *out, ct_status st) {
    ct_status f = ct__pair_finish(out);
    return f == CT_OK ? st : f;
}

CTDEF ct_status ct_manifold_hull_cylinder(const ct_hull *a, const ct_xform *xa, ct_real radius, ct_real half_height,
                                          const ct_xform *xb, ct_real speculative, ct_scratch *s, ct_manifold *out) {
    ct_xform rel;
    ct_shape sa, sb;
    ct_distance g;
    ct_status st;
    ct_vec3 n, u, c, ex, ey;
    ct_real d, L, scale, cu, par = 1 - CT__PAIR_PARALLEL * CT__PAIR_PARALLEL / 2, cf = -CT__MAXR;
    ct__cand pts[CT_MANIFOLD_MAX];
    int face = -1, k, np = 0, cap;
    if (out) memset(out, 0, sizeof *out);
    if (!out || !ct__sat_hull_ok(a) || !ct__xf_valid(xa) || !ct__xf_valid(xb) || !ct__finite(radius) || radius < 0 ||
        !ct__finite(half_height) || half_height < 0 || !ct__finite(speculative) || speculative < 0)
        return CT_INVALID;
    rel = ct__xf_rel(xa, xb);
    {   /* apart beyond speculative along the line of the centres (a separating axis bounds the
           distance from below): no contact, without GJK */
        ct_vec3 cc = ct__sub(rel.p, a->center);
        ct_real l = ct__len(cc);
        if (l > 0) {
            ct_vec3 m = ct__scale(cc, 1 / l), mu = ct__xf_inv_dir(&rel, m);
            ct_real ha = ct__dot(m, a->verts[ct__sat_support(a, m)]);
            ct_real lb = ct__dot(m, rel.p) - half_height * ct__abs(mu.z) - radius * ct__sqrt(ct__max(0, 1 - mu.z * mu.z));
            if (lb - ha > speculative + CT__PAIR_TOUCH * (a->extent + radius + half_height + ct__maxabs(rel.p)))
                return CT_OK;
        }
    }
    sa = ct_shape_hull(a);
    sb = ct_shape_cylinder(radius, half_height);
    {   /* GJK stops as soon as a support plane puts them beyond speculative: no contact */
        ct__gjk_run r;
        st = ct__gjk_query(&sa, NULL, &sb, &rel, NULL, speculative, &r);
        if (st == CT_INVALID) return st;
        if (r.beyond) return CT_OK;
        memset(&g, 0, sizeof g);
        st = ct__signed_distance_run(NULL, &rel, &r, st, s, &g);
    }
    if (st != CT_OK && st != CT_NO_CONVERGENCE) { memset(out, 0, sizeof *out); return st; }
    d = g.distance;
    n = g.normal;
    if (!(d <= speculative)) return ct__cyl_done(out, st);
    c = rel.p;
    u = ct__xf_dir(&rel, ct__v3(0, 0, 1));
    ex = ct__xf_dir(&rel, ct__v3(1, 0, 0));
    ey = ct__xf_dir(&rel, ct__v3(0, 1, 0));
    L = a->extent + radius + half_height;
    scale = L + ct__maxabs(c);
    cu = ct__dot(n, u);
    cap = cu > 0 ? 0 : 1;   /* the cap facing A: bottom (-u, cap 0) when n runs along +u */
    for (k = 0; k < a->nfaces; ++k)
        if (ct__dot(a->planes[k].n, n) > cf) { cf = ct__dot(a->planes[k].n, n); face = k; }
    if (cf >= par && ct__abs(cu) >= par) {   /* a cap on a face of A */
        ct_scratch local, *sc = ct__scratch_begin(s, &local, NULL);
        ct__mark mk = ct__scratch_mark(sc);
        int nf = a->face_first[face + 1] - a->face_first[face], nc;
        ct__cand *cand = CT__SALLOC(sc, ct__cand, 3 * (CT__CYL_SIDES + 1) + nf);
        ct_vec3 cc = ct__madd(c, u, cap ? half_height : -half_height), *side = CT__SALLOC(sc, ct_vec3, 2 * nf);
        if (!cand || !side) { ct__scratch_end(sc, &local, mk); memset(out, 0, sizeof *out); return CT_NO_MEMORY; }
        nc = ct__cyl_cap_face(a, face, cap, cc, ex, ey, radius, u, speculative, CT__SAT_REDUCE_TOL * L, side, side + nf,
                              cand);
        if (nc > 0) {
            ct_real deepest = CT__MAXR;
            for (k = 0; k < nc; ++k) deepest = ct__min(deepest, cand[k].s);
            np = ct__red_reduce(NULL, cand, nc, a->planes[face].n, L, pts);
            if (!ct__pair_face_holds(np, deepest, d, scale, L)) np = 0;
        }
        ct__scratch_end(sc, &local, mk);
        if (np > 0) { ct__sat_emit(pts, np, xa, a->planes[face].n, out); return ct__cyl_done(out, st); }
    } else if (cf >= par && ct__abs(cu) <= CT__PAIR_PARALLEL) {   /* the side line on a face of A */
        ct_vec3 w = ct__madd(ct__neg(a->planes[face].n), u, ct__dot(a->planes[face].n, u)), side;
        ct_real wl = ct__len(w), deepest;
        if (wl > 0) {
            side = ct__madd(c, w, radius / wl);
            np = ct__pair_segment_face(a, face, ct__madd(side, u, -half_height), ct__madd(side, u, half_height), 0,
                                       speculative, CT__CYL_SIDE_KEY(0), CT__CYL_SIDE_KEY(1), pts, &deepest);
            if (ct__pair_face_holds(np, deepest, d, scale, L)) {
                ct__sat_emit(pts, np, xa, a->planes[face].n, out);
                return ct__cyl_done(out, st);
            }
            np = 0;
        }
    } else if (ct__abs(cu) >= par) {   /* A's edge facing a cap: the edge clipped to the disk */
        int v = ct__sat_support(a, n), e = ct__cyl_flat_edge(a, v, n);
        ct_vec3 m = cap ? u : ct__neg(u), cc = ct__madd(c, m, half_height);   /* m: the cap's outward normal */
        if (e >= 0) {
            ct_vec3 p0 = a->verts[v], p1 = a->verts[a->face_verts[a->he_next[e]]], dv = ct__sub(p1, p0);
            ct_vec3 q0 = ct__sub(p0, cc), qp = ct__madd(q0, m, -ct__dot(q0, m)), dp = ct__madd(dv, m, -ct__dot(dv, m));
            ct_real qa = ct__len2(dp), qb = ct__dot(qp, dp), qc = ct__len2(qp) - radius * radius, disc = qb * qb - qa * qc;
            ct_real deepest = CT__MAXR;
            if (qa > 0 && disc >= 0) {
                ct_real r = ct__sqrt(disc), t0 = ct__max((-qb - r) / qa, 0), t1 = ct__min((-qb + r) / qa, 1);
                for (k = 0; k < 2 && t0 <= t1; ++k) {
                    ct_real t = k ? t1 : t0, sp;
                    ct_vec3 x = ct__madd(p0, dv, t);
                    unsigned ka = t <= 0 ? ct__sat_key(CT__KEY_VERT, v)
                                 : (t >= 1 ? ct__sat_key(CT__KEY_VERT, a->face_verts[a->he_next[e]]) : ct__sat_edge_key(a, e));
                    if (k == 1 && t1 - t0 <= CT__PAIR_PARALLEL) break;   /* one point: a vertex on the disk */
                    sp = ct__dot(m, ct__sub(x, cc));
                    deepest = ct__min(deepest, sp);
                    if (!(sp <= speculative)) continue;
                    pts[np].p = ct__madd(x, m, -sp / 2);
                    pts[np].s = sp;
                    pts[np++].id = ct__sat_id(ka, CT__CYL_FKEY(cap));
                }
            }
            if (ct__pair_face_holds(np, deepest, d, scale, L)) {
                ct__sat_emit(pts, np, xa, ct__neg(m), out);
                return ct__cyl_done(out, st);
            }
            np = 0;
        }
    }
    {   /* one point: the closest (apart) or deepest (overlapping) pair, keyed by A's feature at it
           and the cylinder's (rim, cap or side) */
        unsigned ka = 0, kb;
        ct_vec3 q = ct__sub(g.pb, c), pa = g.pa;
        ct_real z = ct__dot(q, u), rr = ct__len(ct__madd(q, u, -z)), tol = CT__SAT_REDUCE_TOL * L;
        int on_cap = ct__abs(z) >= half_height - tol, on_rim = rr >= radius - tol;
        (void)ct__sat_closest(a, g.pa, &pa, &ka);
        kb = on_cap && on_rim ? CT__CYL_EKEY(z > 0, 15) : (on_cap ? CT__CYL_FKEY(z > 0) : CT__CYL_SIDE_KEY(2));
        pts[0].p = ct__scale(ct__add(g.pa, g.pb), (ct_real)0.5);
        pts[0].s = d;
        pts[0].id = ct__sat_id(ka, kb);
        ct__sat_emit(pts, 1, xa, n, out);
    }
    return ct__cyl_done(out, st);
}
