/* contact.h detail: >>gjk shapes - constructors, validation and support functions.

   Every shape is a convex core plus a rounding radius (Minkowski sum with a ball). Support
   functions here return the support point of the CORE in the shape's local frame; the radius
   is handled by GJK/EPA (the distance of the rounded shapes is the core distance minus the
   radii, and the penetration depth of overlapping cores is the core depth plus the radii:
   for convex D, the inner distance from a point of D to the boundary of D + ball(r) is the
   distance to the boundary of D plus r).

   Support vertex ids (*id) let GJK rebuild a cached simplex under new transforms (Box2D's
   simplex cache): point and hull vertex index, box corner (bit i = sign of axis i), triangle
   corner; -1 for smooth shapes. For hulls *id is also the hill-climbing start.
   CT_HULL_SCAN_MAX (10): measured on GJK over random sphere hulls, cold and warm, climbing
   wins from about 10 vertices because consecutive support directions are close, so the
   threshold is lower than the ~32 usually quoted for cold scans. */

CT__INLINE ct_shape ct__shape_zero(ct_shape_type t) {
    ct_shape s;
    memset(&s, 0, sizeof s);
    s.type = t;
    return s;
}

CTDEF ct_shape ct_shape_points(const ct_vec3 *pts, int n) {
    ct_shape s = ct__shape_zero(CT_SHAPE_POINTS);
    s.ct__pts = pts;
    s.ct__n = n;
    return s;
}

CTDEF ct_shape ct_shape_hull(const ct_hull *h) {
    ct_shape s = ct__shape_zero(CT_SHAPE_HULL);
    s.ct__hull = h;
    return s;
}

/* A bad radius (negative or NaN) is remembered as a NaN radius, which no later rounding can
   turn back into a valid one (a sphere of radius -1 rounded by 2 is still invalid). */
CT__INLINE ct_real ct__radius_arg(ct_real r) { return r >= 0 ? r : (ct_real)NAN; }

CTDEF ct_shape ct_shape_sphere(ct_real radius) {
    ct_shape s = ct__shape_zero(CT_SHAPE_SPHERE);
    s.radius = ct__radius_arg(radius);
    return s;
}

CTDEF ct_shape ct_shape_ellipsoid(ct_vec3 semi_axes) {
    ct_shape s = ct__shape_zero(CT_SHAPE_ELLIPSOID);
    s.ct__v[0] = semi_axes;
    return s;
}

CTDEF ct_shape ct_shape_box(ct_vec3 half_extents) {
    ct_shape s = ct__shape_zero(CT_SHAPE_BOX);
    s.ct__v[0] = half_extents;
    return s;
}

/* A solid cylinder about the local z axis (PFC rigid blocks: detail/pfc.h uses it as a shape):
   ct__v[0] = (radius, radius, half_height). */
CTDEF ct_shape ct_shape_cylinder(ct_real radius, ct_real half_height) {
    ct_shape s = ct__shape_zero(CT_SHAPE_CYLINDER);
    s.ct__v[0] = ct__v3(radius, radius, half_height);
    return s;
}

CTDEF ct_shape ct_shape_triangle(ct_vec3 a, ct_vec3 b, ct_vec3 c) {
    ct_shape s = ct__shape_zero(CT_SHAPE_TRIANGLE);
    s.ct__v[0] = a;
    s.ct__v[1] = b;
    s.ct__v[2] = c;
    return s;
}

CTDEF ct_shape ct_shape_support(void (*support)(const void *user, const ct_vec3 *dir, ct_vec3 *out),
                                const void *user) {
    ct_shape s = ct__shape_zero(CT_SHAPE_SUPPORT);
    s.ct__fn = support;
    s.ct__user = user;
    return s;
}

CTDEF ct_shape ct_shape_rounded(ct_shape s, ct_real radius) {
    s.radius += ct__radius_arg(radius);
    return s;
}

CT__INLINE int ct__nonneg3(ct_vec3 v) { return ct__finite3(v) && v.x >= 0 && v.y >= 0 && v.z >= 0; }

/* 1 when every point of p[0..n) is finite: x - x is 0 for a finite x and NaN otherwise, and
   a NaN sticks in the sum (no branch per point). */
CT__INLINE int ct__points_finite(const ct_vec3 *p, int n) {
    ct_real z = 0;
    int i;
    for (i = 0; i < n; ++i) z += (p[i].x - p[i].x) + (p[i].y - p[i].y) + (p[i].z - p[i].z);
    return z == 0;
}

/* 1 when the shape's parameters can be queried: everything but the points of a point cloud,
   which the caller checks by ct__points_finite, or through its supports (GJK: every support of
   a cloud scans all its points, see ct__shape_support). Hulls are trusted to satisfy
   ct_hull_build's invariants (an O(n) check per query would defeat hill climbing), and every
   support point is checked finite by the caller. */
CT__PRIVATE int ct__shape_params_valid(const ct_shape *s) {
    if (!s || !ct__finite(s->radius) || s->radius < 0) return 0;
    switch (s->type) {
    case CT_SHAPE_POINTS: return s->ct__pts && s->ct__n >= 1;
    case CT_SHAPE_HULL:
        return s->ct__hull && s->ct__hull->nverts >= 1 && s->ct__hull->verts &&
               (s->ct__hull->nverts <= CT_HULL_SCAN_MAX ||
                (s->ct__hull->vert_first && s->ct__hull->vert_adj));
    case CT_SHAPE_SPHERE: return 1;
    case CT_SHAPE_ELLIPSOID:
    case CT_SHAPE_CYLINDER:
    case CT_SHAPE_BOX: return ct__nonneg3(s->ct__v[0]);
    case CT_SHAPE_TRIANGLE:
        return ct__finite3(s->ct__v[0]) && ct__finite3(s->ct__v[1]) && ct__finite3(s->ct__v[2]);
    case CT_SHAPE_SUPPORT: return s->ct__fn != NULL;
    }
    return 0;
}

/* 1 when the shape can be queried: its parameters, and every point of a point cloud finite. */
CT__PRIVATE int ct__shape_valid(const ct_shape *s) {
    return ct__shape_params_valid(s) &&
           (s->type != CT_SHAPE_POINTS || ct__points_finite(s->ct__pts, s->ct__n));
}

/* Number of support vertex ids of a shape (0: ids are not meaningful). */
CT__INLINE int ct__shape_nids(const ct_shape *s) {
    switch (s->type) {
    case CT_SHAPE_POINTS: return s->ct__n;
    case CT_SHAPE_HULL: return s->ct__hull->nverts;
    case CT_SHAPE_BOX: return 8;
    case CT_SHAPE_TRIANGLE: return 3;
    default: return 0;
    }
}

/* The core point with vertex id k (0 <= k < ct__shape_nids). */
CT__INLINE ct_vec3 ct__shape_vertex(const ct_shape *s, int k) {
    switch (s->type) {
    case CT_SHAPE_POINTS: return s->ct__pts[k];
    case CT_SHAPE_HULL: return s->ct__hull->verts[k];
    case CT_SHAPE_BOX: {
        ct_vec3 h = s->ct__v[0];
        return ct__v3(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z);
    }
    case CT_SHAPE_TRIANGLE: return s->ct__v[k];
    default: return ct__v3(0, 0, 0);
    }
}

/* Index of the point of p[0..n) with the largest dot with d (first on ties). Four
   independent lanes (point i in lane i & 3) break the compare-and-select dependency chain of a
   plain scan; the selects are written as conditional moves, so the loop has no data-dependent
   branch. The lanes keep the first maximum each, and the merge takes the smallest index among
   equal maxima, so ties resolve to the first index as in a plain scan. *sum (may be NULL) gets
   the sum of all the dots: finite when every point and d are finite and nothing overflows (a
   NaN or infinite coordinate makes its dot NaN or infinite: inf * 0 is NaN, and no finite term
   cancels an infinity), so a finite sum certifies the points at one add per point.
   With SSE2 and double, blocks of four points go two lanes per register (ct__argmax4_sse2):
   the same dots, rounded in the same order, and the same lanes, so the same index. */
#if defined(__SSE2__) && !defined(CT_NO_SIMD)
#include <emmintrin.h>
#define CT__SSE2 1
/* Dots of points p[i], p[i+1] (q = p as 3n doubles, r = q + 3i) with d as (dx dy), (dz dx),
   (dy dz): three loads give a = (x0 dx, y0 dy), b = (z0 dz, x1 dx), c = (y1 dy, z1 dz), then
   ((a0 + a1) + b0, (b1 + c0) + c1), the scalar (x dx + y dy) + z dz. */
CT__INLINE __m128d ct__dot2_sse2(const double *r, __m128d d0, __m128d d1, __m128d d2) {
    __m128d a = _mm_mul_pd(_mm_loadu_pd(r), d0), b = _mm_mul_pd(_mm_loadu_pd(r + 2), d1);
    __m128d c = _mm_mul_pd(_mm_loadu_pd(r + 4), d2);
    return _mm_add_pd(_mm_add_pd(_mm_shuffle_pd(a, b, 2), _mm_shuffle_pd(a, c, 1)), _mm_shuffle_pd(b, c, 2));
}

/* Planes pl (4 doubles each: nx ny nz d, a ct_plane of doubles) of two faces as lanes:
   x = (nx0, nx1), y = (ny0, ny1), z = (nz0, nz1), d = (d0, d1). */
CT__INLINE void ct__planes2_sse2(const double *pl, __m128d *x, __m128d *y, __m128d *z, __m128d *d) {
    __m128d a0 = _mm_loadu_pd(pl), b0 = _mm_loadu_pd(pl + 2), a1 = _mm_loadu_pd(pl + 4), b1 = _mm_loadu_pd(pl + 6);
    *x = _mm_unpacklo_pd(a0, a1); *y = _mm_unpackhi_pd(a0, a1);
    *z = _mm_unpacklo_pd(b0, b1); *d = _mm_unpackhi_pd(b0, b1);
}

/* One block of four points (from r, ids i01, i23) into the lanes of ct__argmax_sse2; *t gets
   the block's dots summed in pairs. */
CT__INLINE void ct__argmax_sse2_block(const double *r, __m128d d0, __m128d d1, __m128d d2, __m128d i01, __m128d i23,
                                      __m128d *m01, __m128d *m23, __m128d *b01, __m128d *b23, __m128d *t) {
    __m128d t01 = ct__dot2_sse2(r, d0, d1, d2), t23 = ct__dot2_sse2(r + 6, d0, d1, d2);
    __m128d g01 = _mm_cmpgt_pd(t01, *m01), g23 = _mm_cmpgt_pd(t23, *m23);
    *m01 = _mm_max_pd(t01, *m01);   /* t > m ? t : m, lane by lane (a NaN t keeps m) */
    *m23 = _mm_max_pd(t23, *m23);
    *b01 = _mm_or_pd(_mm_and_pd(g01, i01), _mm_andnot_pd(g01, *b01));
    *b23 = _mm_or_pd(_mm_and_pd(g23, i23), _mm_andnot_pd(g23, *b23));
    *t = _mm_add_pd(t01, t23);
}

/* ct__argmax_dot_sum for double, n >= 4, two lanes per register (point i in lane i & 3): the
   first block seeds the lanes, blocks of four follow, a tail of up to three points goes
   scalar into its lanes. goal (may be NULL): the scan stops after the first block in which
   some point's dot reaches *goal and returns that point (*reached = 1), not the argmax. */
CT__INLINE int ct__argmax_sse2(const double *q, int n, const double *d, double *sum, const double *goal, int *reached) {
    const __m128d d0 = _mm_set_pd(d[1], d[0]), d1 = _mm_set_pd(d[0], d[2]), d2 = _mm_set_pd(d[2], d[1]);
    const __m128d four = _mm_set1_pd(4);
    __m128d m01 = ct__dot2_sse2(q, d0, d1, d2), m23 = ct__dot2_sse2(q + 6, d0, d1, d2), s = _mm_add_pd(m01, m23), t;
    __m128d i01 = _mm_set_pd(5, 4), i23 = _mm_set_pd(7, 6);
    __m128d b01 = _mm_set_pd(1, 0), b23 = _mm_set_pd(3, 2);
    double md[4], bd[4], sd[2], u;
    int i, k;
    if (goal) {
        const __m128d g = _mm_set1_pd(*goal);
        for (i = 4;; i += 4) {
            int hit = _mm_movemask_pd(_mm_cmpge_pd(m01, g)) | (_mm_movemask_pd(_mm_cmpge_pd(m23, g)) << 2);
            if (hit) {
                _mm_storeu_pd(bd, b01);
                _mm_storeu_pd(bd + 2, b23);
                *reached = 1;
                return (int)bd[(hit & 1) ? 0 : (hit & 2) ? 1 : (hit & 4) ? 2 : 3];
            }
            if (i + 4 > n) break;
            ct__argmax_sse2_block(q + 3 * i, d0, d1, d2, i01, i23, &m01, &m23, &b01, &b23, &t);
            i01 = _mm_add_pd(i01, four);
            i23 = _mm_add_pd(i23, four);
        }
    } else {
        for (i = 4; i + 4 <= n; i += 4) {
            ct__argmax_sse2_block(q + 3 * i, d0, d1, d2, i01, i23, &m01, &m23, &b01, &b23, &t);
            s = _mm_add_pd(s, t);
            i01 = _mm_add_pd(i01, four);
            i23 = _mm_add_pd(i23, four);
        }
    }
    _mm_storeu_pd(md, m01);
    _mm_storeu_pd(md + 2, m23);
    _mm_storeu_pd(bd, b01);
    _mm_storeu_pd(bd + 2, b23);
    _mm_storeu_pd(sd, s);
    sd[0] += sd[1];
    for (; i < n; ++i) {
        const double *r = q + 3 * i;
        u = (r[0] * d[0] + r[1] * d[1]) + r[2] * d[2];
        sd[0] += u;
        if (u > md[i & 3]) { md[i & 3] = u; bd[i & 3] = (double)i; }
    }
    k = 0;
    for (i = 1; i < 4; ++i)
        if (md[i] > md[k] || (md[i] == md[k] && bd[i] < bd[k])) k = i;
    if (sum) *sum = sd[0];
    return (int)bd[k];
}
#else
#define CT__SSE2 0
#endif

CT__INLINE int ct__argmax_dot_sum(const ct_vec3 *p, int n, ct_vec3 d, ct_real *sum) {
    int i, k, b0 = 0, b1 = 1, b2 = 2, b3 = 3, bi[4];
    ct_real m0, m1, m2, m3, bd[4], t, s0, s1;
    if (n < 8) {
        int best = 0;
        m0 = s0 = ct__dot(p[0], d);
        for (i = 1; i < n; ++i) {
            t = ct__dot(p[i], d);
            s0 += t;
            best = t > m0 ? i : best;
            m0 = t > m0 ? t : m0;
        }
        if (sum) *sum = s0;
        return best;
    }
#if CT__SSE2
    if (!CT__FLOAT) { /* ct_real is double here: the casts only name it so */
        double dd[3], sd;
        dd[0] = (double)d.x; dd[1] = (double)d.y; dd[2] = (double)d.z;
        k = ct__argmax_sse2((const double *)(const void *)p, n, dd, &sd, NULL, NULL);
        if (sum) *sum = (ct_real)sd;
        return k;
    }
#endif
    m0 = ct__dot(p[0], d); m1 = ct__dot(p[1], d); m2 = ct__dot(p[2], d); m3 = ct__dot(p[3], d);
    s0 = m0 + m1;
    s1 = m2 + m3;
    for (i = 4; i + 4 <= n; i += 4) {
        ct_real t0 = p[i].x * d.x + p[i].y * d.y + p[i].z * d.z;
        ct_real t1 = p[i + 1].x * d.x + p[i + 1].y * d.y + p[i + 1].z * d.z;
        ct_real t2 = p[i + 2].x * d.x + p[i + 2].y * d.y + p[i + 2].z * d.z;
        ct_real t3 = p[i + 3].x * d.x + p[i + 3].y * d.y + p[i + 3].z * d.z;
        b0 = t0 > m0 ? i : b0;         m0 = t0 > m0 ? t0 : m0;
        b1 = t1 > m1 ? i + 1 : b1;     m1 = t1 > m1 ? t1 : m1;
        b2 = t2 > m2 ? i + 2 : b2;     m2 = t2 > m2 ? t2 : m2;
        b3 = t3 > m3 ? i + 3 : b3;     m3 = t3 > m3 ? t3 : m3;
        s0 += t0 + t1;
        s1 += t2 + t3;
    }
    bd[0] = m0; bd[1] = m1; bd[2] = m2; bd[3] = m3;
    bi[0] = b0; bi[1] = b1; bi[2] = b2; bi[3] = b3;
    for (; i < n; ++i) {
        t = ct__dot(p[i], d);
        s0 += t;
        if (t > bd[i & 3]) { bd[i & 3] = t; bi[i & 3] = i; }
    }
    k = 0;
    for (i = 1; i < 4; ++i)
        if (bd[i] > bd[k] || (bd[i] == bd[k] && bi[i] < bi[k])) k = i;
    if (sum) *sum = s0 + s1;
    return bi[k];
}

CT__INLINE int ct__argmax_dot(const ct_vec3 *p, int n, ct_vec3 d) { return ct__argmax_dot_sum(p, n, d, NULL); }

/* ct__argmax_dot that may stop early at a point whose dot reaches goal (*reached = 1: that
   point, not the argmax; only the SSE2 scan of doubles stops early, every other path
   returns the argmax with *reached = 0). */
CT__INLINE int ct__argmax_dot_goal(const ct_vec3 *p, int n, ct_vec3 d, ct_real goal, int *reached) {
    *reached = 0;
#if CT__SSE2
    if (!CT__FLOAT && n >= 8) {
        double dd[3], g = (double)goal;
        dd[0] = (double)d.x; dd[1] = (double)d.y; dd[2] = (double)d.z;
        return ct__argmax_sse2((const double *)(const void *)p, n, dd, NULL, &g, reached);
    }
#endif
    (void)goal;
    return ct__argmax_dot(p, n, d);
}

/* A neighbour above level b along d of the cluster of v: the vertices joined to v by edges
   shorter than h->ct__short (a breadth-first walk over at most CT__HULL_CLUSTER of them), or
   -1. */
#define CT__HULL_CLUSTER 16
CT__PRIVATE int ct__hull_cluster(const ct_hull *h, ct_vec3 d, int v, ct_real b) {
    int seen[CT__HULL_CLUSTER], n = 1, i, k, j;
    ct_real s2 = h->ct__short * h->ct__short;
    seen[0] = v;
    for (i = 0; i < n; ++i) {
        int w = seen[i], end = h->vert_first[w + 1];
        for (k = h->vert_first[w]; k < end; ++k) {
            int u = h->vert_adj[k];
            if (ct__dot(h->verts[u], d) > b) return u;
            if (n == CT__HULL_CLUSTER || ct__len2(ct__sub(h->verts[u], h->verts[w])) > s2) continue;
            for (j = 0; j < n && seen[j] != u; ++j) {}
            if (j == n) seen[n++] = u;
        }
    }
    return -1;
}

/* Steepest ascent over h's vertex adjacency along d from vertex v, stopping early once a
   vertex reaches goal (pass CT__MAXR for none); *best gets the last vertex's dot with d. On an
   exactly convex polytope a vertex with no neighbour strictly higher along d is a global
   maximiser. A hull is convex only to rounding, and an edge not much longer than that points
   anywhere: at a vertex of such an edge the graph can have a false local maximum (a float hull
   with a copy of a vertex 5e-6 of the extent away stopped climbs 20% of the extent below the
   support, on random float hulls with near copies up to 79%, double ones 1e-8). Hulls with
   edges shorter than sqrt(eps) of their coordinates' magnitude
   (ct__short, set by ct__hull_assemble) have the cluster of the vertex a climb stops at
   explored (ct__hull_cluster) before the climb ends. The dot strictly increases, so it ends.
   Warm-started from the previous support vertex it takes O(1) steps for coherent
   directions, and O(sqrt n) cold on round hulls (Cameron 1997, "Enhancing GJK"). The one hill
   climb of the library: supports (ct__hull_climb), SAT and the polar plane filter use it. */
CT__PRIVATE int ct__hull_ascend(const ct_hull *h, ct_vec3 d, int v, ct_real goal, ct_real *best) {
    ct_real b = ct__dot(h->verts[v], d);
    while (b < goal) {
        int next = v, k, end = h->vert_first[v + 1];
        for (k = h->vert_first[v]; k < end; ++k) {
            int u = h->vert_adj[k];
            ct_real t = ct__dot(h->verts[u], d);
            if (t > b) { b = t; next = u; }
        }
        if (next == v) {
            if (!(h->ct__short > 0) || (next = ct__hull_cluster(h, d, v, b)) < 0) break;
            b = ct__dot(h->verts[next], d);
        }
        v = next;
    }
    *best = b;
    return v;
}

/* An exact support vertex of h along d. start: the previous support vertex (warm: climb from
   it), or out of range (cold: hulls of up to 64 vertices are scanned, first index on ties;
   larger ones climb from the best of 16 spread-out vertices, so a cold answer depends on
   nothing but h and d). Hulls without adjacency are scanned. */
CT__PRIVATE int ct__hull_climb(const ct_hull *h, ct_vec3 d, int start) {
    int v = start, k;
    ct_real best;
    if (!h->vert_first || !h->vert_adj) return ct__argmax_dot(h->verts, h->nverts, d);
    if (v < 0 || v >= h->nverts) {
        int step = h->nverts / 16;
        if (h->nverts <= 64) return ct__argmax_dot(h->verts, h->nverts, d);
        v = 0;
        best = ct__dot(h->verts[0], d);
        for (k = step; k < h->nverts; k += step) {
            ct_real t = ct__dot(h->verts[k], d);
            if (t > best) { best = t; v = k; }
        }
    }
    return ct__hull_ascend(h, d, v, CT__MAXR, &best);
}

/* Support of a point cloud. The scan certifies the points (ct__argmax_dot_sum): only a
   non-finite sum (a bad point, or an overflow of finite ones) costs the exact check, and a bad
   point makes the support point NaN, which the caller reports. */
CT__INLINE ct_vec3 ct__points_support(const ct_shape *s, ct_vec3 d, int *id) {
    ct_real sum;
    *id = ct__argmax_dot_sum(s->ct__pts, s->ct__n, d, &sum);
    if (!ct__finite(sum) && !ct__points_finite(s->ct__pts, s->ct__n))
        return ct__v3((ct_real)NAN, (ct_real)NAN, (ct_real)NAN);
    return s->ct__pts[*id];
}

/* Support point of the core of s (local frame) in direction d (any length, finite). *id: in,
   the hill-climbing start (hulls; -1: none); out, the support vertex id or -1. */
CT__PRIVATE ct_vec3 ct__shape_support(const ct_shape *s, ct_vec3 d, int *id) {
    switch (s->type) {
    case CT_SHAPE_POINTS: return ct__points_support(s, d, id);
    case CT_SHAPE_HULL: {
        const ct_hull *h = s->ct__hull;
        *id = h->nverts <= CT_HULL_SCAN_MAX ? ct__argmax_dot(h->verts, h->nverts, d)
                                            : ct__hull_climb(h, d, *id);
        return h->verts[*id];
    }
    case CT_SHAPE_BOX:
        *id = (d.x >= 0 ? 1 : 0) | (d.y >= 0 ? 2 : 0) | (d.z >= 0 ? 4 : 0);
        return ct__shape_vertex(s, *id);
    case CT_SHAPE_TRIANGLE:
        *id = ct__argmax_dot(s->ct__v, 3, d);
        return s->ct__v[*id];
    case CT_SHAPE_ELLIPSOID: {
        /* x = A^2 d / |A d| with A = diag(semi-axes): the maximiser of d.x on x^T A^-2 x = 1.
           d, then A d, are scaled by their largest component first (only the direction of A d
           matters), so |A d| neither under- nor overflows for any d or any finite semi-axes. */
        ct_vec3 a = s->ct__v[0], t;
        ct_real m = ct__maxabs(d), l;
        *id = -1;
        if (!(m > 0)) return ct__v3(a.x, 0, 0);
        t = ct__mul(a, ct__unscale(d, m));
        m = ct__maxabs(t);
        if (!(m > 0)) return ct__v3(0, 0, 0); /* d is orthogonal to every non-zero axis */
        t = ct__unscale(t, m);
        l = ct__len(t);
        return ct__mul(a, ct__scale(t, 1 / l));
    }
    case CT_SHAPE_CYLINDER: {   /* the rim point of the cap facing d: radius along d's xy part */
        ct_real r = s->ct__v[0].x, hh = s->ct__v[0].z, m = ct__max(ct__abs(d.x), ct__abs(d.y)), l;
        ct_vec3 out = ct__v3(0, 0, d.z >= 0 ? hh : -hh);
        *id = -1;
        if (m > 0) {   /* scaled first: neither under- nor overflows */
            l = ct__sqrt((d.x / m) * (d.x / m) + (d.y / m) * (d.y / m));
            out.x = r * (d.x / m) / l;
            out.y = r * (d.y / m) / l;
        }
        return out;
    }
    case CT_SHAPE_SUPPORT: {
        ct_vec3 out = ct__v3(0, 0, 0);
        *id = -1;
        s->ct__fn(s->ct__user, &d, &out);
        return out;
    }
    case CT_SHAPE_SPHERE:
    default:
        *id = -1;
        return ct__v3(0, 0, 0);
    }
}

/* ct__shape_support with the point-set cores (clouds, hulls scanned whole) inline: GJK's
   supports on small polytopes spent a fifth of their time in the call and the dispatch.
   climb 0 (cold GJK, EPA: directions far from the last support's) also scans hulls of up to
   CT__HULL_SCAN_COLD vertices: on 20-vertex hulls that made cold GJK 5-10% and EPA 9% faster,
   while GJK warm-started from a cache was 6% slower scanning than climbing from its hints. */
#define CT__HULL_SCAN_COLD 32
CT__INLINE ct_vec3 ct__shape_support_fast(const ct_shape *s, ct_vec3 d, int *id, int climb) {
    if (s->type == CT_SHAPE_POINTS) return ct__points_support(s, d, id);
    if (s->type == CT_SHAPE_HULL &&
        (s->ct__hull->nverts <= CT_HULL_SCAN_MAX || (!climb && s->ct__hull->nverts <= CT__HULL_SCAN_COLD))) {
        *id = ct__argmax_dot(s->ct__hull->verts, s->ct__hull->nverts, d);
        return s->ct__hull->verts[*id];
    }
    return ct__shape_support(s, d, id);
}

/* A point inside the core (local frame), for a first search direction: the hull's vertex
   mean, the triangle's centroid, else the local origin (point clouds are not averaged: O(n)). */
CT__INLINE ct_vec3 ct__shape_center(const ct_shape *s) {
    if (s->type == CT_SHAPE_HULL) return s->ct__hull->center;
    if (s->type == CT_SHAPE_TRIANGLE)
        return ct__scale(ct__add(ct__add(s->ct__v[0], s->ct__v[1]), s->ct__v[2]), (ct_real)1 / 3);
    return ct__v3(0, 0, 0);
}

/* Flat faces of a core, for the depth of a curved A - B at a face of one core (detail/epa.h):
   the face of s whose outward unit normal (local frame) is most aligned with d goes to *n and
   its id is returned (a hull's faces, a box's 0..5, a triangle's two sides 0/1, a cylinder's
   caps 0/1); -1 when s has none (clouds, spheres, ellipsoids, support functions, a hull
   without face lists or planes, a degenerate triangle). */
CT__PRIVATE int ct__shape_facet(const ct_shape *s, ct_vec3 d, ct_vec3 *n) {
    switch (s->type) {
    case CT_SHAPE_HULL: {
        const ct_hull *h = s->ct__hull;
        int f, best = -1;
        ct_real bd = 0;
        if (!h->planes || !h->face_first || !h->face_verts || h->nfaces < 1) return -1;
        for (f = 0; f < h->nfaces; ++f) {
            ct_real t = ct__dot(h->planes[f].n, d);
            if (best < 0 || t > bd) { bd = t; best = f; }
        }
        *n = h->planes[best].n;
        return best;
    }
    case CT_SHAPE_BOX: {
        ct_real ax = ct__abs(d.x), ay = ct__abs(d.y), az = ct__abs(d.z);
        int k = ax >= ay && ax >= az ? 0 : (ay >= az ? 1 : 2), up = ct__vget(d, k) >= 0;
        *n = ct__v3(k == 0 ? (up ? 1 : -1) : 0, k == 1 ? (up ? 1 : -1) : 0, k == 2 ? (up ? 1 : -1) : 0);
        return 2 * k + up;
    }
    case CT_SHAPE_TRIANGLE: {
        int ok;
        ct_vec3 t = ct__normalize(ct__cross(ct__sub(s->ct__v[1], s->ct__v[0]), ct__sub(s->ct__v[2], s->ct__v[0])), &ok);
        if (!ok) return -1;
        *n = ct__dot(t, d) >= 0 ? t : ct__neg(t);
        return ct__dot(t, d) >= 0 ? 0 : 1;
    }
    case CT_SHAPE_CYLINDER:
        *n = ct__v3(0, 0, d.z >= 0 ? 1 : -1);
        return d.z >= 0 ? 0 : 1;
    default:
        return -1;
    }
}

/* Whether x lies left of the edge p -> q about the normal n, or right of it by at most tol
   (counter-clockwise polygons about n hold the points left of every edge). */
CT__INLINE int ct__left_of(ct_vec3 p, ct_vec3 q, ct_vec3 n, ct_vec3 x, ct_real tol) {
    ct_vec3 e = ct__sub(q, p);
    return ct__dot(n, ct__cross(e, ct__sub(x, p))) >= -tol * ct__len(e);
}

/* Whether x (local frame, on the plane of face `face` of s with normal n, ct__shape_facet)
   lies within tol of that face: inside its polygon (each edge turning left about n), a box
   face's rectangle, a cap's disk. */
CT__PRIVATE int ct__shape_facet_holds(const ct_shape *s, int face, ct_vec3 n, ct_vec3 x, ct_real tol) {
    switch (s->type) {
    case CT_SHAPE_HULL: {
        const ct_hull *h = s->ct__hull;
        int k0 = h->face_first[face], k1 = h->face_first[face + 1], k;
        for (k = k0; k < k1; ++k)
            if (!ct__left_of(h->verts[h->face_verts[k]], h->verts[h->face_verts[k + 1 < k1 ? k + 1 : k0]], n, x, tol)) return 0;
        return k1 - k0 >= 3;
    }
    case CT_SHAPE_BOX: {
        int k = face / 2, j;
        for (j = 0; j < 3; ++j)
            if (j != k && ct__abs(ct__vget(x, j)) > ct__vget(s->ct__v[0], j) + tol) return 0;
        return 1;
    }
    case CT_SHAPE_TRIANGLE: {
        int k;
        for (k = 0; k < 3; ++k)   /* counter-clockwise about n: v0 v1 v2 for side 0, reversed for side 1 */
            if (!ct__left_of(s->ct__v[face ? (3 - k) % 3 : k], s->ct__v[face ? (2 - k + 3) % 3 : (k + 1) % 3], n, x, tol))
                return 0;
        return 1;
    }
    case CT_SHAPE_CYLINDER: {
        ct_real r = s->ct__v[0].x + tol;
        (void)face; (void)n;
        return x.x * x.x + x.y * x.y <= r * r;
    }
    default:
        return 0;
    }
}

/* 1 for cores with curved boundaries (GJK/EPA converge only to a tolerance there). */
CT__INLINE int ct__shape_smooth(const ct_shape *s) {
    return s->type == CT_SHAPE_ELLIPSOID || s->type == CT_SHAPE_SUPPORT || s->type == CT_SHAPE_CYLINDER;
}
