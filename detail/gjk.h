/* contact.h detail: >>gjk - GJK distance with the signed-volume subalgorithm.

   GJK (Gilbert, Johnson & Keerthi 1988) in van den Bergen's formulation ("A fast and robust
   GJK implementation for collision detection of convex objects", JGT 1999): v is the point of
   the current simplex closest to the origin, w = s_{A-B}(-v) the next support point; stop when
   ||v||^2 - v.w <= eps ||v||^2 (the lower bound v.w/||v|| and the upper bound ||v|| agree).
   The closest point of a simplex comes from Montanari, Petrinic & Barbieri, "Improving the GJK
   algorithm for faster and more reliable distance queries between convex objects", ACM TOG
   36(3) 2017: barycentric coordinates as ratios of signed volumes (S3D), of signed areas in
   the best-conditioned coordinate plane (S2D, sec. 3.2) and of signed lengths on the
   best-conditioned axis (S1D); a sub-simplex is searched only when a sign test fails.

   Everything runs in A's local frame (B is mapped by the relative transform), so translating
   the whole scene does not cost precision beyond that of the relative placement itself. */

/* Tolerances, all relative (see contact.h TOLERANCES):
   CT__GJK_REL    relative gap of the distance bounds at convergence (van den Bergen's eps);
   CT__GJK_NOISE  rounding floor of v.w, in units of |v| * max|w|;
   CT__GJK_ZERO   |v| below this times max|w| counts as the origin touching the simplex. */
#define CT__GJK_REL   ((ct_real)1e3 * CT__EPS)
#define CT__GJK_NOISE ((ct_real)16 * CT__EPS)
#define CT__GJK_ZERO  ((ct_real)64 * CT__EPS)
/* CT__GJK_TOUCH  |v| below this times max|w| with a negative lower bound at a stalled step:
                  contact (the origin is within rounding of the simplex) */
#define CT__GJK_TOUCH ((ct_real)128 * CT__EPS)
/* CT__GJK_STALL  the same for a support point that lies clearly beyond the origin along -v
                  (v.w below -CT__GJK_NOISE max|w|^2, beyond the rounding of v.w whatever v
                  is) and repeats a vertex of the simplex or brings it no closer: a vertex of
                  the simplex cannot be farther along -v than its closest point, and such a
                  point added to it must bring it closer, so v is rounding, which grows with
                  the simplex's conditioning
                  (a flat triangle through the origin at 1e7 gave |v| = 270 ulps of the scale
                  while the bodies overlapped by 19); sqrt of the epsilon of the scale. */
#define CT__GJK_STALL (ct__sqrt(CT__EPS))

/* A vertex of A - B: w = a - b, with a and b in A's frame and their support ids. */
typedef struct ct__sv { ct_vec3 w, a, b; int ia, ib; } ct__sv;
typedef struct ct__simplex { int n; ct__sv v[4]; ct_real l[4]; } ct__simplex;

/* The Minkowski difference A - B in A's local frame. */
typedef struct ct__mink {
    const ct_shape *a, *b;
    ct_xform rel;          /* x_A = rel.r x_B + rel.p */
    ct_vec3 ab;            /* from A's centre to B's centre: a first guess of the normal */
    int hint_a, hint_b;    /* hill-climbing starts, updated by every support call */
    int climb;             /* supports near the hints (a warm start from a cache): hulls of up to
                              CT__HULL_SCAN_COLD vertices climb from them instead of scanning */
    int bad;               /* a support point was not finite */
    int scanned;           /* a support was taken: the points of a cloud are certified */
    ct_real scale, inv;    /* A - B is worked on multiplied by inv = 1 / scale, a power of two
                              (exact) chosen by ct__gjk_rescale: the solver forms products of
                              up to four coordinates, which must neither overflow nor underflow */
} ct__mink;

/* Support point of A - B in direction d (A's frame). */
CT__PRIVATE void ct__mink_support(ct__mink *m, ct_vec3 d, ct__sv *out) {
    int ia = m->hint_a, ib = m->hint_b;
    ct_vec3 pa = ct__shape_support_fast(m->a, d, &ia, m->climb);
    const ct_xform *rel = &m->rel;
    ct_vec3 pb = ct__xf_point(rel, ct__shape_support_fast(m->b, ct__xf_inv_dir(rel, ct__neg(d)), &ib, m->climb));
    if (m->inv != 1) { /* a power of two: skipping the product by 1 changes no bit */
        pa = ct__scale(pa, m->inv);
        pb = ct__scale(pb, m->inv);
    }
    m->scanned = 1;
    if (ia >= 0) m->hint_a = ia;
    if (ib >= 0) m->hint_b = ib;
    out->a = pa;
    out->b = pb;
    out->ia = ia;
    out->ib = ib;
    out->w = ct__sub(pa, pb);
    if (!ct__finite3(out->w)) m->bad = 1;
}

/* The vertex of A - B made of vertex ia of A and ib of B (both valid ids). */
CT__PRIVATE void ct__mink_vertex(const ct__mink *m, int ia, int ib, ct__sv *out) {
    out->a = ct__scale(ct__shape_vertex(m->a, ia), m->inv);
    out->b = ct__scale(ct__xf_point(&m->rel, ct__shape_vertex(m->b, ib)), m->inv);
    out->ia = ia;
    out->ib = ib;
    out->w = ct__sub(out->a, out->b);
}

/* ---- signed-volume subalgorithm (Montanari et al. 2017, sec. 3) -------------------------- */
CT__INLINE int ct__same_sign(ct_real a, ct_real b) { return (a > 0 && b > 0) || (a < 0 && b < 0); }

/* Component k of cross(u, v). */
CT__INLINE ct_real ct__cross_k(ct_vec3 u, ct_vec3 v, int k) {
    return k == 0 ? u.y * v.z - u.z * v.y : (k == 1 ? u.z * v.x - u.x * v.z : u.x * v.y - u.y * v.x);
}

/* Each S*D writes barycentric weights into l[] (indices of p[]; l is zero on entry) and returns
   the squared distance of the closest point. */
CT__PRIVATE ct_real ct__s1d(const ct_vec3 *p, int i, int j, ct_real *l) {
    ct_vec3 a = p[i], b = p[j], t = ct__sub(b, a), p0;
    ct_real tt = ct__dot(t, t), mu, ci, cj;
    int k;
    if (!(tt > 0)) { l[j] = 1; return ct__len2(b); }
    /* origin projected on the line, then the ratio of signed lengths on the longest axis */
    p0 = ct__madd(a, t, -ct__dot(a, t) / tt);
    k = ct__argmaxabs(t);
    mu = ct__vget(a, k) - ct__vget(b, k);
    ci = ct__vget(p0, k) - ct__vget(b, k);
    cj = ct__vget(a, k) - ct__vget(p0, k);
    if (ct__same_sign(mu, ci) && ct__same_sign(mu, cj)) {
        l[i] = ci / mu;
        l[j] = cj / mu;
        return ct__len2(ct__add(ct__scale(a, l[i]), ct__scale(b, l[j])));
    }
    if (!ct__same_sign(mu, ci)) { l[j] = 1; return ct__len2(b); }
    l[i] = 1;
    return ct__len2(a);
}

CT__PRIVATE ct_real ct__s2d(const ct_vec3 *p, int i, int j, int k, ct_real *l) {
    const int id[3] = { i, j, k };
    ct_vec3 a = p[i], b = p[j], c = p[k];
    ct_vec3 n = ct__cross(ct__sub(b, a), ct__sub(c, a));
    ct_real nn = ct__dot(n, n), best = -1;
    int e, ok[3] = { 0, 0, 0 };
    if (nn > 0) {
        /* origin projected on the plane; signed areas in the coordinate plane where the
           triangle's projection is largest (Montanari et al., eq. 12-14) */
        ct_vec3 p0 = ct__scale(n, ct__dot(a, n) / nn);
        int ax = ct__argmaxabs(n);
        ct_real mu = ct__vget(n, ax), cc[3];
        cc[0] = ct__cross_k(ct__sub(b, p0), ct__sub(c, p0), ax);
        cc[1] = ct__cross_k(ct__sub(c, p0), ct__sub(a, p0), ax);
        cc[2] = ct__cross_k(ct__sub(a, p0), ct__sub(b, p0), ax);
        for (e = 0; e < 3; ++e) ok[e] = ct__same_sign(mu, cc[e]);
        if (ok[0] && ok[1] && ok[2]) {
            ct_vec3 v;
            for (e = 0; e < 3; ++e) l[id[e]] = cc[e] / mu;
            v = ct__add(ct__add(ct__scale(a, l[i]), ct__scale(b, l[j])), ct__scale(c, l[k]));
            return ct__len2(v);
        }
    }
    /* the closest point lies on an edge opposite a vertex that failed the sign test */
    for (e = 0; e < 3; ++e) {
        ct_real t[4] = { 0, 0, 0, 0 }, d2;
        if (ok[e]) continue;
        d2 = ct__s1d(p, id[(e + 1) % 3], id[(e + 2) % 3], t);
        if (best < 0 || d2 < best) {
            best = d2;
            l[i] = t[i]; l[j] = t[j]; l[k] = t[k];
        }
    }
    return best;
}

CT__PRIVATE ct_real ct__s3d(const ct_vec3 *p, ct_real *l) {
    ct_vec3 a = p[0], ab = ct__sub(p[1], a), ac = ct__sub(p[2], a), ad = ct__sub(p[3], a);
    ct_real det = ct__dot(ab, ct__cross(ac, ad)), c[4], best = -1;
    int f, ok[4];
    static const int face[4][3] = { { 1, 2, 3 }, { 0, 2, 3 }, { 0, 1, 3 }, { 0, 1, 2 } };
    /* c[j] = signed volume of the tetrahedron with vertex j replaced by the origin */
    c[0] = ct__dot(p[1], ct__cross(p[2], p[3]));
    c[1] = -ct__dot(a, ct__cross(ac, ad));
    c[2] = -ct__dot(ab, ct__cross(a, ad));
    c[3] = -ct__dot(ab, ct__cross(ac, a));
    for (f = 0; f < 4; ++f) ok[f] = ct__same_sign(det, c[f]);
    if (ok[0] && ok[1] && ok[2] && ok[3]) {
        for (f = 0; f < 4; ++f) l[f] = c[f] / det;
        return 0;
    }
    for (f = 0; f < 4; ++f) {
        ct_real t[4] = { 0, 0, 0, 0 }, d2;
        if (ok[f]) continue;
        d2 = ct__s2d(p, face[f][0], face[f][1], face[f][2], t);
        if (best < 0 || d2 < best) {
            best = d2;
            memcpy(l, t, sizeof t);
        }
    }
    return best;
}

/* The closest point to the origin of simplex in (its newest vertex last); out (may be in)
   gets the support set of that point with its weights in out->l. */
CT__PRIVATE ct_vec3 ct__simplex_solve(const ct__simplex *in, ct__simplex *out) {
    ct_vec3 p[4], v = ct__v3(0, 0, 0);
    ct_real l[4] = { 0, 0, 0, 0 }, sum = 0;
    int i, n = 0, m = in->n;
    for (i = 0; i < m; ++i) p[i] = in->v[i].w;
    switch (m) {
    case 1: l[0] = 1; break;
    case 2: ct__s1d(p, 0, 1, l); break;
    case 3: ct__s2d(p, 0, 1, 2, l); break;
    default: ct__s3d(p, l); break;
    }
    for (i = 0; i < m; ++i) sum += l[i] > 0 ? l[i] : 0;
    if (!(sum > 0)) { l[m - 1] = 1; sum = 1; } /* cannot happen for finite input */
    for (i = 0; i < m; ++i) {
        if (!(l[i] > 0)) continue;
        if (out != in || n != i) out->v[n] = in->v[i];
        out->l[n] = l[i] / sum;
        v = ct__madd(v, in->v[i].w, out->l[n]);
        ++n;
    }
    CT_ASSERT(n <= m && m <= 4);
    out->n = n;
    return v;
}

/* Witness points (A's frame) of the simplex's closest point. */
CT__PRIVATE void ct__simplex_witness(const ct__simplex *s, ct_vec3 *pa, ct_vec3 *pb) {
    int i;
    *pa = *pb = ct__v3(0, 0, 0);
    for (i = 0; i < s->n; ++i) {
        *pa = ct__madd(*pa, s->v[i].a, s->l[i]);
        *pb = ct__madd(*pb, s->v[i].b, s->l[i]);
    }
}

/* ---- the GJK iteration ------------------------------------------------------------------- */
typedef struct ct__gjk_run {
    ct__mink m;
    ct__simplex *s;        /* the current simplex: one of buf[] (double-buffered, no copies) */
    ct__simplex buf[2];
    ct_vec3 v;             /* closest point of A - B found (A's frame) */
    ct_real wmax;          /* largest |w| seen: the scale of A - B */
    int overlap;           /* the origin is in (or within rounding of) A - B */
    ct_real limit;         /* stop once the lower bound of the distance exceeds this (world) */
    int beyond;            /* stopped so: the cores are farther apart than limit */
    int stalled;           /* overlap decided by rounding (a stalled step, the origin on the simplex) */
    int iters;
    ct_shape ball[2];      /* ct__gjk_begin: an ellipsoid with equal semi-axes as a ball */
} ct__gjk_run;

/* Whether support point w repeats a vertex of simplex s. */
CT__INLINE int ct__gjk_repeated(const ct__simplex *s, const ct__sv *w) {
    int i;
    for (i = 0; i < s->n; ++i)
        if (w->w.x == s->v[i].w.x && w->w.y == s->v[i].w.y && w->w.z == s->v[i].w.z) return 1;
    return 0;
}

/* A support point along -v repeated a vertex of the triangle s, whose closest point v lies inside
   it, or brought no progress. v's direction is only as good as eps max|w| / |v|: when the origin is within a few
   hundred ulps of the triangle's plane (a point on an edge of a nearly flat cloud), it can miss
   a vertex of A - B that lies beyond the plane by far more than rounding, and GJK would stop
   short of contact, by ~1e-9 of the scene. The triangle's normal gives that direction to eps
   whatever |v| (to eps |e1| |e2| / |n| for edges e1, e2: a sliver's is poor): one more
   support along it; when it is a new point clearly beyond the plane (below it by more than the
   rounding of the normal and the products) it replaces w and the iteration goes on (returns 1;
   the caller keeps its verdict from the first support if no progress follows). */
CT__PRIVATE int ct__gjk_normal_support(ct__gjk_run *r, const ct__simplex *s, ct_vec3 v, ct__sv *w) {
    ct_vec3 a = s->v[0].w, e1 = ct__sub(s->v[1].w, a), e2 = ct__sub(s->v[2].w, a), n = ct__cross(e1, e2);
    ct_real nl = ct__len(n), below;
    if (!(nl > 0)) return 0;
    if (ct__dot(n, v) < 0) n = ct__neg(n);     /* from the origin towards the triangle */
    ct__mink_support(&r->m, ct__neg(n), w);
    if (r->m.bad) return 1;
    r->wmax = ct__max(r->wmax, ct__len(w->w));
    below = ct__dot(n, ct__sub(a, w->w));
    return below > CT__GJK_NOISE * (nl + ct__len(e1) * ct__len(e2)) * r->wmax && !ct__gjk_repeated(s, w);
}

/* The same for a segment s whose closest point v lies inside it: v's component along the
   segment is rounding, and at |v| far below the segment's length it turns v (2.8e-3 rad for a
   float segment 1.9 long at 4.3e-5 from the origin), enough for the support along -v to
   repeat the segment's far end while the cloud held a point 3.7e-3 beyond it (GJK called a
   pair apart that overlapped). One more support along v made perpendicular to the segment;
   a new point clearly beyond the segment's line replaces w (returns 1, as above). */
CT__PRIVATE int ct__gjk_segment_support(ct__gjk_run *r, const ct__simplex *s, ct_vec3 v, ct__sv *w) {
    ct_vec3 a = s->v[0].w, e = ct__sub(s->v[1].w, a), u;
    ct_real ee = ct__len2(e), ul, below;
    if (!(ee > 0)) return 0;
    u = ct__sub(v, ct__scale(e, ct__dot(v, e) / ee));
    ul = ct__len(u);
    if (!(ul > 0)) return 0;
    ct__mink_support(&r->m, ct__neg(u), w);
    if (r->m.bad) return 1;
    r->wmax = ct__max(r->wmax, ct__len(w->w));
    below = ct__dot(u, ct__sub(a, w->w));
    return below > CT__GJK_NOISE * ul * r->wmax && !ct__gjk_repeated(s, w);
}

/* Iterates from the solved simplex r->s / r->v. CT_INVALID when a support point is not finite,
   CT_NO_CONVERGENCE at the cap (r holds the best simplex). */
CT__PRIVATE ct_status ct__gjk_iterate(ct__gjk_run *r) {
    ct_vec3 v = r->v;
    for (r->iters = 0; r->iters < CT_GJK_MAX_ITERS; ++r->iters) {
        ct__simplex *s = r->s, *next = s == &r->buf[0] ? &r->buf[1] : &r->buf[0];
        ct__sv *w = &s->v[s->n];
        ct_real vv = ct__len2(v), vw, wmax = r->wmax;
        int dup = 0, deep, retried;
        if (s->n == 4 || vv <= CT__GJK_ZERO * CT__GJK_ZERO * wmax * wmax) {
            /* a tetrahedron holding the origin only by a weight at rounding level (the origin
               on its face): contact by rounding, as at a stalled step */
            r->overlap = 1;
            r->stalled = s->n == 4 && ct__min(ct__min(s->l[0], s->l[1]), ct__min(s->l[2], s->l[3])) <= CT__GJK_REL;
            break;
        }
        ct__mink_support(&r->m, ct__neg(v), w); /* into the free slot: s is unchanged if rejected */
        if (r->m.bad) return CT_INVALID;
        r->wmax = ct__max(wmax, ct__len(w->w));
        vw = ct__dot(v, w->w);
        /* a caller that only asks "within limit?" stops at a support plane beyond it (v.w / |v|
           bounds the distance from below; its rounding is allowed for) */
        if (vw > 0 && vw * r->m.scale > (r->limit + CT__GJK_NOISE * r->wmax * r->m.scale) * ct__sqrt(vv)) {
            r->beyond = 1;
            break;
        }
        /* van den Bergen's termination test, with a floor for the rounding of v.w */
        if (vv - vw <= CT__GJK_REL * vv + CT__GJK_NOISE * ct__sqrt(vv) * r->wmax) break;
        /* A repeated support point or no progress ends the iteration (rounding). If |v| is
           then within CT__GJK_TOUCH of the scale and the lower bound v.w / |v| is negative,
           the bounds do not show A - B to miss the origin: the origin is within rounding of
           a simplex that may cut through A - B. The shapes count as in contact and EPA
           decides the depth (0 when they only touch). So also when the support lies clearly
           beyond the origin (CT__GJK_STALL): both exits, a sliver simplex through the interior
           of A - B (depth 143 at 4e6) stopped either way. The verdict is the first support's
           (along -v), whatever the normal's retry below adds. */
        deep = vw < 0 && vv <= CT__GJK_TOUCH * CT__GJK_TOUCH * r->wmax * r->wmax;
        deep = deep || (vw < -CT__GJK_NOISE * r->wmax * r->wmax && vv <= CT__GJK_STALL * CT__GJK_STALL * r->wmax * r->wmax);
        dup = ct__gjk_repeated(s, w);
        retried = dup && s->n == 3;
        if (retried && ct__gjk_normal_support(r, s, v, w)) {
            if (r->m.bad) return CT_INVALID;
            dup = 0;
        } else if (dup && s->n == 2 && ct__gjk_segment_support(r, s, v, w)) {
            if (r->m.bad) return CT_INVALID;
            dup = 0;
        }
        if (dup) {
            if (deep) r->overlap = r->stalled = 1;
            break;
        }
        CT_ASSERT(s->n >= 0 && s->n < 4);   /* room for the new support point */
        s->n++;
        v = ct__simplex_solve(s, next);
        s->n--;
        /* no progress from a triangle: the same retry along its normal (clouds touching
           exactly at 4e6 stopped 5.6e-4 apart, v's direction known only to 6e-6 there) */
        if (ct__len2(v) >= vv && next->n < 4 && !retried && s->n == 3 && ct__gjk_normal_support(r, s, r->v, w)) {
            if (r->m.bad) return CT_INVALID;
            s->n++;
            v = ct__simplex_solve(s, next);
            s->n--;
        }
        if (ct__len2(v) >= vv && next->n < 4) { v = r->v; if (deep) r->overlap = r->stalled = 1; break; }
        r->s = next;
        r->v = v;
    }
    r->v = v;
    return r->iters >= CT_GJK_MAX_ITERS ? CT_NO_CONVERGENCE : CT_OK;
}

/* Picks the working scale of A - B from its first vertices, the centre offset and (when those
   are out of range) its six axis supports: 1 (results
   bit for bit as unscaled) while they lie within 2^+-20 (float) / 2^+-200 (double), else the
   power of two nearest their size, so that sizes from the smallest to the largest finite
   numbers keep the solver's quartic products in range. The first vertices are rescaled.
   The scale never lifts the bodies' own points out of range: where A - B is far smaller
   than A and B (cores that coincide), its size is below their rounding anyway. */
CT__PRIVATE void ct__gjk_rescale(ct__gjk_run *r) {
    const int lim = CT__FLOAT ? 20 : 200, maxe = CT__FLOAT ? 128 : 1024; /* FLT/DBL_MAX_EXP */
    ct_real M = ct__maxabs(r->m.ab), P = 0;
    int i, e, ep;
    for (i = 0; i < r->s->n; ++i) M = ct__max(M, ct__maxabs(r->s->v[i].w));
    if (!(M > 0) || !ct__finite(M) || ct__in_range(M)) return;
    /* Out of range (rare): the first vertices may be tiny where A - B is long in another
       direction (a needle seen end-on), so its size is taken from its support in the six axis
       directions too; scaling it up by the first vertices alone overflowed later supports. */
    for (i = 0; i < 6; ++i) {
        ct__sv w;
        ct_real u = (i & 1) ? -1 : 1;
        ct__mink_support(&r->m, ct__v3(i < 2 ? u : 0, (i >> 1) == 1 ? u : 0, i >= 4 ? u : 0), &w);
        M = ct__max(M, ct__maxabs(w.w));
        P = ct__max(P, ct__max(ct__maxabs(w.a), ct__maxabs(w.b)));   /* A's and B's boxes */
    }
    if (!(M > 0) || !ct__finite(M)) return;
    (void)frexp((double)M, &e);
    if (e >= -lim && e <= lim) return;
    /* both 2^e and 2^-e must be finite: a subnormal size (e below the least normal exponent)
       takes the largest finite inverse, which still lifts it to within a factor 2^-maxe */
    if (e < 1 - maxe) e = 1 - maxe;
    /* A's and B's points (bounded by their six axis supports) stay 2^8 below overflow */
    if (P > 0 && ct__finite(P)) {
        (void)frexp((double)P, &ep);
        if (e < ep - (maxe - 8)) e = ep - (maxe - 8);
    }
    if (e > maxe - 1) e = maxe - 1;
    r->m.scale = (ct_real)ldexp(1.0, e);
    r->m.inv = (ct_real)ldexp(1.0, -e);
    r->m.ab = ct__scale(r->m.ab, r->m.inv);
    for (i = 0; i < r->s->n; ++i) {
        r->s->v[i].a = ct__scale(r->s->v[i].a, r->m.inv);
        r->s->v[i].b = ct__scale(r->s->v[i].b, r->m.inv);
        r->s->v[i].w = ct__scale(r->s->v[i].w, r->m.inv);
    }
}

/* Checks the arguments, sets up A - B, warm-starts from the cache, runs GJK and updates the
   cache. */
CT__PRIVATE ct_status ct__gjk_query(const ct_shape *a, const ct_xform *xa, const ct_shape *b,
                                    const ct_xform *xb, ct_gjk_cache *cache, ct_real limit, ct__gjk_run *r) {
    ct_status st;
    int i, na, nb, warm = 0;
    r->s = &r->buf[0];
    r->s->n = 0;
    r->wmax = 0;
    r->limit = limit;
    r->overlap = r->stalled = r->iters = r->beyond = 0;
    r->m.bad = r->m.scanned = r->m.climb = 0;
    r->m.scale = r->m.inv = 1;
    r->v = ct__v3(0, 0, 0);
    /* the points of a cloud are certified by the first support (ct__shape_support), not by a
       pass of their own; a warm call that takes no support checks them at the end */
    if (!ct__shape_params_valid(a) || !ct__shape_params_valid(b) || !ct__xf_valid(xa) || !ct__xf_valid(xb))
        return CT_INVALID;
    r->m.a = a;
    r->m.b = b;
    r->m.rel = ct__xf_rel(xa, xb);
    r->m.ab = ct__sub(ct__xf_point(&r->m.rel, ct__shape_center(b)), ct__shape_center(a));
    na = ct__shape_nids(a);
    nb = ct__shape_nids(b);
    r->m.hint_a = r->m.hint_b = -1;
    if (cache) { /* hints are stored + 1 so that a zeroed cache means "none" */
        r->m.hint_a = cache->ct__hint_a - 1;
        r->m.hint_b = cache->ct__hint_b - 1;
        if (cache->count >= 1 && cache->count <= 4 && na > 0 && nb > 0) {
            warm = 1;
            for (i = 0; i < cache->count; ++i)
                if (cache->ct__ia[i] < 0 || cache->ct__ia[i] >= na || cache->ct__ib[i] < 0 || cache->ct__ib[i] >= nb)
                    warm = 0;
        }
    }
    if (warm) { /* Box2D's simplex cache: the same vertex pairs under the new transforms */
        r->m.climb = 1;
        r->s->n = cache->count;
        for (i = 0; i < cache->count; ++i) ct__mink_vertex(&r->m, cache->ct__ia[i], cache->ct__ib[i], &r->s->v[i]);
    } else {
        ct_vec3 d = r->m.ab; /* towards B's centre: a guess of the closest direction */
        if (cache && cache->count > 0) {
            ct_vec3 c = ct__v3(cache->ct__dir[0], cache->ct__dir[1], cache->ct__dir[2]);
            if (ct__finite3(c) && ct__len2(c) > 0) d = ct__neg(c);
        }
        if (!(ct__len2(d) > 0)) d = ct__v3(1, 0, 0);
        r->s->n = 1;
        ct__mink_support(&r->m, d, &r->s->v[0]);
        if (r->m.bad) return CT_INVALID;
    }
    ct__gjk_rescale(r);
    for (i = 0; i < r->s->n; ++i) r->wmax = ct__max(r->wmax, ct__len(r->s->v[i].w));
    r->v = ct__simplex_solve(r->s, r->s);
    st = ct__gjk_iterate(r);
    if (st == CT_INVALID) return st;
    if (!r->m.scanned && !(ct__shape_valid(a) && ct__shape_valid(b))) return CT_INVALID;
    if (cache) {
        cache->count = r->s->n;
        for (i = 0; i < 4; ++i) {
            cache->ct__ia[i] = i < r->s->n ? r->s->v[i].ia : -1;
            cache->ct__ib[i] = i < r->s->n ? r->s->v[i].ib : -1;
        }
        cache->ct__hint_a = r->m.hint_a + 1;
        cache->ct__hint_b = r->m.hint_b + 1;
        cache->ct__dir[0] = r->v.x;
        cache->ct__dir[1] = r->v.y;
        cache->ct__dir[2] = r->v.z;
    }
    return st;
}

/* Fills out from a separated GJK result (cores apart): the core distance minus the radii. */
CT__PRIVATE void ct__gjk_separated(const ct__gjk_run *r, const ct_xform *xa, int clamp, ct_distance *out) {
    ct_vec3 pa, pb, n;
    ct_real d = ct__len(r->v) * r->m.scale, ra = r->m.a->radius, rb = r->m.b->radius;
    ct__simplex_witness(r->s, &pa, &pb);
    pa = ct__scale(pa, r->m.scale);
    pb = ct__scale(pb, r->m.scale);
    n = ct__normalize(ct__neg(r->v), NULL);
    pa = ct__madd(pa, n, ra);
    pb = ct__madd(pb, n, -rb);
    out->distance = d - (ra + rb);
    if (clamp && out->distance < 0) out->distance = 0;
    out->normal = ct__xf_dir(xa, n);
    out->pa = ct__xf_point(xa, pa);
    out->pb = ct__xf_point(xa, pb);
    out->iterations = r->iters;
}

/* s itself, or when s is an ellipsoid with three equal semi-axes R the same ball as a sphere
   (a point core with radius R + s->radius) in *ball. The Minkowski difference of a polytope
   and a ball is a rounded polytope, flat where the ball meets a face: its depth's minimum
   sits at a kink of the support function, where the curved refinement of EPA cannot descend,
   and EPA alone converges there only to its curved tolerance (1.9e-6 of the depth, a cloud
   of extent 4e6 against a sphere given as an ellipsoid). As a point core the same ball is
   exact, EPA on a polytope, and the radius is added in closed form. */
CT__INLINE const ct_shape *ct__shape_as_ball(const ct_shape *s, ct_shape *ball) {
    ct_real R;
    if (!s || s->type != CT_SHAPE_ELLIPSOID || s->ct__v[0].x != s->ct__v[0].y || s->ct__v[0].x != s->ct__v[0].z)
        return s;
    R = s->ct__v[0].x + s->radius;
    if (!(s->ct__v[0].x >= 0) || !ct__finite(R) || !(s->radius >= 0)) return s;  /* invalid: left to the checks */
    *ball = ct_shape_sphere(R);
    return ball;
}

/* The entry of ct_gjk and ct_signed_distance: out checked and zeroed, then GJK (no limit) on
   the shapes, balls given as ellipsoids taken as spheres (the run's m.a and m.b). */
CT__INLINE ct_status ct__gjk_begin(const ct_shape *a, const ct_xform *xa, const ct_shape *b, const ct_xform *xb,
                                   ct_gjk_cache *cache, ct_distance *out, ct__gjk_run *r) {
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    a = ct__shape_as_ball(a, &r->ball[0]);
    b = ct__shape_as_ball(b, &r->ball[1]);
    return ct__gjk_query(a, xa, b, xb, cache, CT__MAXR, r);
}

/* ct_gjk's answer from a finished run r (out zeroed): the separated distance, or contact. */
CT__PRIVATE void ct__gjk_answer(const ct__gjk_run *r, const ct_xform *xa, ct_distance *out) {
    if (!r->overlap) {
        ct__gjk_separated(r, xa, 1, out);
    } else { /* cores overlap: distance 0, normal unspecified (zero), witnesses coincide */
        ct_vec3 pa, pb;
        ct__simplex_witness(r->s, &pa, &pb);
        out->pa = ct__xf_point(xa, ct__scale(pa, r->m.scale));
        out->pb = ct__xf_point(xa, ct__scale(pb, r->m.scale));
        out->iterations = r->iters;
    }
}

CTDEF ct_status ct_gjk(const ct_shape *a, const ct_xform *xa, const ct_shape *b, const ct_xform *xb,
                       ct_gjk_cache *cache, ct_distance *out) {
    ct__gjk_run r;
    ct_status st = ct__gjk_begin(a, xa, b, xb, cache, out, &r);
    if (st == CT_INVALID) return st;
    ct__gjk_answer(&r, xa, out);
    return st;
}

CTDEF ct_real ct_gjk_points(const ct_vec3 *a, int na, const ct_vec3 *b, int nb, ct_vec3 *pa, ct_vec3 *pb) {
    ct_shape sa = ct_shape_points(a, na), sb = ct_shape_points(b, nb);
    ct_distance d;
    ct_status st = ct_gjk(&sa, NULL, &sb, NULL, NULL, &d);
    if (st == CT_INVALID) return -1;
    if (pa) *pa = d.pa;
    if (pb) *pb = d.pb;
    return d.distance;
}
