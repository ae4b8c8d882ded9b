/* contact.h detail: >>sat - contact manifolds of two convex hulls by the separating axis test
   and clipping (ct_manifold_hulls), and of a hull and a sphere (ct_manifold_hull_sphere).

   References
   - D. Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013: face queries,
     edge queries restricted to the edge pairs that build a face of the Minkowski difference
     (their arcs cross on the Gauss map), reference/incident faces and clipping.
   - E. Catto, Box2D v3 / Box3D manifolds: speculative contacts, feature keys, the reduction of
     a clipped polygon to four points (deepest point first, then largest area).
   - C. Ericson, "Real-Time Collision Detection" (2005), 5.1.9: closest points of two segments.

   Everything is computed in the local frame of A (B is brought in by the relative transform
   xf_rel(xa, xb)), which keeps a scene translated far from the origin as precise as one at the
   origin. Nothing is allocated; every buffer is a small fixed array on the stack and faces of
   any size are handled (beyond the cached part their data is recomputed on demand).

   Determinism and the cache. The query keeps, per group (faces of A, faces of B, edge pairs),
   the exact argmax under a total order (larger separation, then the smaller index). Candidates
   are skipped only by bounds that prove they cannot change that argmax or the final decision,
   so visiting a cached candidate first (ct_sat_cache) changes the work, never the answer.

   Rounded hulls (ct_manifold_rounded_hulls), case by case:
     1. A cached axis that still separates the cores by more than speculative + ra + rb answers
        at once (count 0; a separation along any axis is at most the distance).
     2. GJK on the cores (Box2D v3 / Box3D style). Cores apart by more than CT__SAT_ROUND_SLOP x
        (extent_a + extent_b): if a face of A (or of B) at the closest point is parallel to the
        GJK normal within CT__SAT_ROUND_PAR, the other hull's incident face is clipped against
        it as in ct_manifold_hulls (a resting rounded box gets 4 points, separation = gap - ra
        - rb, the face normal exactly); else one point (edge-edge, vertex-edge, vertex-vertex)
        with separation d - ra - rb exactly, midway between the rounded surfaces on the line of
        the closest points. A face clip whose deepest point is not the closest pair (within
        CT__SAT_EDGE_REL of d + CT__SAT_EDGE_ABS x (extent_a + extent_b)) gives way to that
        single point. Two boxes try the closed-form SAT first: a face axis whose clip holds the
        other box's deepest vertex at the axis's separation is exact (that is the distance) and
        gives the same clip without GJK.
     3. Cores overlapping or within the slop: the SAT manifold of the cores (with the
        speculative distance widened by ra + rb), each separation reduced by ra + rb and each
        point moved by (ra - rb)/2 along the normal; if that finds nothing (touching cores whose
        features do not face each other), the closest features give one point.
   The cache keeps an axis (the face most parallel to the normal when the cores are apart, the
   SAT's axis otherwise) for step 1 and the SAT. Two boxes' closed-form OBB test (the 15 axes,
   Gottschalk, Lin & Manocha 1996) costs about a third of the general search. */

/* ---- tolerances (all relative: dimensionless or times the scale L = extent_a + extent_b) --- */
/* Face versus edge: an edge axis wins only when it beats the best face by this much. */
#define CT__SAT_EDGE_REL ((ct_real)0.02)
#define CT__SAT_EDGE_ABS ((ct_real)5e-4)
/* Face of B versus face of A: B is the reference only when clearly better (bias for A). */
#define CT__SAT_FACE_REL ((ct_real)0.01)
#define CT__SAT_FACE_ABS ((ct_real)2.5e-4)
/* Clip points closer than this (relative to the hulls' extents) count as one in the reduction. */
#define CT__SAT_REDUCE_TOL ((ct_real)1e3 * CT__EPS)
/* Edge pairs whose directions make a sine below this are skipped (the face axes cover them;
   their normal would carry an error of eps / sine). About 16 sqrt(eps). */
#define CT__SAT_PARALLEL (CT__FLOAT ? (ct_real)5.5e-3 : (ct_real)2.4e-7)
/* Bounds used to skip candidates are widened by this many ulps of the coordinates. */
#define CT__SAT_MARGIN ((ct_real)64)
/* Face vertices and side planes cached on the stack while clipping (more are recomputed). */
#define CT__SAT_FC 16
/* B edges listed for the edge-pair loop after pruning (hulls with more are scanned whole). */
#define CT__SAT_COLS 64
/* Clipped candidates kept from the first pass; more make the reduction re-enumerate them. */
#define CT__SAT_KEEP 16
/* Faces per hull a certificate keeps an entry for (beyond: one bound for them all; a hull's best
   face beyond it leaves no certificate). */
#define CT__SAT_CE 256
/* Faces per hull whose bound terms are tabulated on the stack (more are recomputed). */
#define CT__SAT_FT 64
/* CT__SAT_LIVE (contact.h): live rows and columns a certificate holds; more: no certificate. */
/* Calls a cache without a certificate waits before the next full query keeps one, and the
   longest wait after certificates that did not pay. */
#define CT__SAT_CERT_WAIT 64
/* A certificate costs about two plain queries to make and a call it answers about half of one,
   so it pays from about three answered calls on (the scene's 1 degree per step gives two or
   three: no gain there; a tenth of that motion gives dozens). One that answered this many calls
   is renewed when it runs out; one that answered fewer waits this many calls (plain queries)
   before the next one is made, twice as many after each further one that did not pay, up to
   CT__SAT_CERT_WAIT. None is made while the motion sets a lead over twice the least
   (ct__sat_cached_query). On the 10,000-hull scene (8 moving steps, instructions) that saved
   4.3% at 0.5% of the size and 1 degree per step and 10.3% at twice that, and changed nothing
   at 0.05-0.25%; making none whenever the motion sets the lead cost 13% at 0.15%. */
#define CT__SAT_CERT_PAYS 3
#define CT__SAT_CERT_RETRY 8
/* A certificate lists the candidates within a lead of each decision: CT__SAT_CERT_LEAD calls'
   worth of the pair's motion per call so far, at least the smaller of CT__SAT_CERT_MIN x the
   scale (L = extent_a + extent_b) and CT__SAT_CERT_SLOW calls' worth (a slow contact keeps
   its certificate for many calls, a resting one lists its winners only), at most
   CT__SAT_CERT_MAX x the scale. */
#define CT__SAT_CERT_LEAD ((ct_real)3)
#define CT__SAT_CERT_MAX ((ct_real)0.1)
#define CT__SAT_CERT_MIN ((ct_real)0.02)
#define CT__SAT_CERT_SLOW ((ct_real)30)
/* The motion per call a cache estimates: the largest seen, decaying by this factor per call. */
#define CT__SAT_STEP_DECAY ((ct_real)0.75)


/* ---- small helpers ----------------------------------------------------------------------- */
/* Index of a vertex of h with the largest dot with d: a cold ct__hull_climb (a scan, first
   index on ties, up to 64 vertices; hill climbing beyond), so the answer does not depend on
   earlier calls. */
CT__INLINE int ct__sat_support(const ct_hull *h, ct_vec3 d) { return ct__hull_climb(h, d, -1); }

/* Key of a feature: 2 bits of kind, 14 bits of index. Edges are keyed by their smaller
   half-edge so both directions give one key. */
#define CT__KEY_VERT 0u
#define CT__KEY_EDGE 1u
#define CT__KEY_FACE 2u
CT__INLINE unsigned ct__sat_key(unsigned kind, int index) { return (kind << 14) | ((unsigned)index & 0x3FFFu); }
CT__INLINE unsigned ct__sat_edge_key(const ct_hull *h, int he) {
    int t = h->he_twin[he];
    return ct__sat_key(CT__KEY_EDGE, he < t ? he : t);
}
/* The id of a contact between a feature of A and one of B: symmetric in A and B, so swapping
   the hulls keeps the ids (see the header for the one collision this implies). */
CT__INLINE unsigned ct__sat_id(unsigned ka, unsigned kb) {
    return ka > kb ? (ka << 16) | kb : (kb << 16) | ka;
}

/* ---- the separating axis query ------------------------------------------------------------- */
typedef struct ct__sat {
    const ct_hull *a, *b;
    ct_xform rel;          /* B local -> A local */
    ct_vec3 ca, cb;        /* centres of A and B in A's frame */
    ct_real L;             /* scale: extent_a + extent_b */
    ct_real margin;        /* absolute slack of the pruning bounds */
    ct_real spec;          /* speculative distance */
    int exact;             /* 1: no bias between axis kinds (ct__sat_least_axis) */
} ct__sat;

/* Face i of A: the deepest vertex of B below its plane; returns the separation. below (may be
   NULL): the scan (hulls it scans, as ct__sat_support) may stop at a vertex whose separation, by
   the other way of evaluating it, reaches below *below; *exact = 0 then, and the value returned
   is that vertex's (an upper bound of the face's within s->margin, as for the witnesses in
   ct__sat_query). */
CT__INLINE int ct__sat_scans(const ct_hull *h) { return h->nverts <= 64 || !h->vert_first || !h->vert_adj; }
CT__PRIVATE ct_real ct__sat_face_a_upto(const ct__sat *s, int i, const ct_real *below, int *vb, int *exact) {
    ct_plane pl = s->a->planes[i];
    ct_vec3 d = ct__xf_inv_dir(&s->rel, ct__neg(pl.n));
    int reached = 0, v = below && ct__sat_scans(s->b)
                             ? ct__argmax_dot_goal(s->b->verts, s->b->nverts, d, ct__dot(pl.n, s->rel.p) + pl.d - *below, &reached)
                             : ct__sat_support(s->b, d);
    *vb = v;
    *exact = !reached;
    return ct__dot(pl.n, ct__xf_point(&s->rel, s->b->verts[v])) + pl.d;
}
CT__INLINE ct_real ct__sat_face_a(const ct__sat *s, int i, int *vb) {
    int exact;
    return ct__sat_face_a_upto(s, i, NULL, vb, &exact);
}

/* Face j of B (its plane brought to A's frame): the deepest vertex of A below it; below as
   for ct__sat_face_a_upto. */
CT__PRIVATE ct_real ct__sat_face_b_upto(const ct__sat *s, int j, const ct_real *below, int *va, int *exact) {
    ct_plane pl = ct__xf_plane(&s->rel, s->b->planes[j]);
    int reached = 0, v = below && ct__sat_scans(s->a)
                             ? ct__argmax_dot_goal(s->a->verts, s->a->nverts, ct__neg(pl.n), pl.d - *below, &reached)
                             : ct__sat_support(s->a, ct__neg(pl.n));
    *va = v;
    *exact = !reached;
    return ct__dot(pl.n, s->a->verts[v]) + pl.d;
}
CT__INLINE ct_real ct__sat_face_b(const ct__sat *s, int j, int *va) {
    int exact;
    return ct__sat_face_b_upto(s, j, NULL, va, &exact);
}

/* An edge of A prepared for the pair loop (see ct__sat_row_make). */
typedef struct ct__sat_row {
    ct_vec3 na, nb, u, o, p;   /* in B's frame */
} ct__sat_row;

/* 1 when no edge pair that involves edge k of hull h can separate by more than thr. Bound:
   with n on the edge's Gauss arc (A's edges) or -n on it (B's edges, then the roles swap),
   separation <= n.dc - depth_own - depth_other, dc = the other hull's centre minus this one's
   (in h's frame), depth_own = the smaller depth of h's centre below the edge's two faces,
   depth_other = the smallest depth of the other centre below any face of its hull (the
   supports along n lie at least that far beyond the centres). Over the arc, n.dc is at most
   max(xa, xb) / cos(half angle) and |dc| when positive, max(xa, xb) when not (xa, xb: the
   face normals' dots with dc). No square root. */
/* Per-face numbers of one hull, in its own frame: x = n.dc (dc: the other hull's centre minus
   this one's) and d = depth of this hull's centre below the face; tabulated for the first
   CT__SAT_FT faces, computed on demand beyond. m = the smallest d. */
typedef struct ct__sat_ft {
    const ct_hull *h;
    ct_vec3 c, dc, wv;
    ct_real dc2, m, x[CT__SAT_FT], w[CT__SAT_FT];   /* w, wv: ct__sat_ft_witness */
    ct_real e[CT__SAT_FT];    /* x - d: the face's bound before the other hull's depth */
    const ct_real *d;    /* the hull's own table (ct__depth) when it has one, else dbuf */
    ct_real dbuf[CT__SAT_FT];
    unsigned long long hot;   /* ct__sat_ft_witness: bit f set when table face f is hot */
    ct_real wcold;            /* and the largest w + margin of the cold faces (-CT__MAXR: none) */
    int seed;            /* the face of largest bound x - d (the first on ties), ct__sat_seed */
    ct_real seed_bound;  /* that bound */
} ct__sat_ft;

#if CT__SSE2
/* The tables of ct__sat_ft_fill for faces 0 .. n - 1 (n even), two faces per register with
   the scalar's operations in its order: x[f] = (nx dcx + ny dcy) + nz dcz, and the first face
   of largest xd[f] = x[f] - d[f] over them, as a scan from (bound -CT__MAXR, face 0) finds it (lanes
   keep their first maximum; the merge takes the smaller face on equal values); want_seed 0
   (a constant at each call): the tables only. */
CT__ALWAYS void ct__sat_xtab_sse2(const double *pl, int n, const double *dc, const double *d, double *x, double *xd,
                                  int *best, double *bound, const int want_seed) {
    const __m128d cx = _mm_set1_pd(dc[0]), cy = _mm_set1_pd(dc[1]), cz = _mm_set1_pd(dc[2]), two = _mm_set1_pd(2);
    __m128d bv = _mm_set1_pd(-(double)CT__MAXR), bi = _mm_setzero_pd(), fi = _mm_set_pd(1, 0);
    double v[2], i[2];
    int f;
    for (f = 0; f < n; f += 2, pl += 8) {
        __m128d px, py, pz, pd, t, e, g;
        ct__planes2_sse2(pl, &px, &py, &pz, &pd);
        t = _mm_add_pd(_mm_add_pd(_mm_mul_pd(px, cx), _mm_mul_pd(py, cy)), _mm_mul_pd(pz, cz));
        _mm_storeu_pd(x + f, t);
        e = _mm_sub_pd(t, _mm_loadu_pd(d + f));
        _mm_storeu_pd(xd + f, e);
        if (!want_seed) continue;
        g = _mm_cmpgt_pd(e, bv);
        bv = _mm_max_pd(e, bv);   /* e > bv ? e : bv (a NaN e keeps bv) */
        bi = _mm_or_pd(_mm_and_pd(g, fi), _mm_andnot_pd(g, bi));
        fi = _mm_add_pd(fi, two);
    }
    _mm_storeu_pd(v, bv);
    _mm_storeu_pd(i, bi);
    f = v[1] > v[0] || (v[1] == v[0] && i[1] < i[0]);
    *best = (int)i[f];
    *bound = v[f];
}
/* w[f] = ((nx wx + ny wy) + nz wz) + d for faces 0 .. n - 1 (n even), as ct__sat_ft_witness,
   with the hot faces' bits (mask, bits 0 .. n - 1) and the largest w + margin of the cold
   faces (*cold, -CT__MAXR when none or when want_cold is 0; a constant at each call, so the
   loop is compiled without the other case): a face is cold when w < 0 and w + margin <= thr. */
CT__ALWAYS void ct__sat_wtab_sse2(const double *pl, int n, const double *w, double margin, double thr, double *out,
                                  unsigned long long *mask, double *cold, const int want_cold) {
    const __m128d wx = _mm_set1_pd(w[0]), wy = _mm_set1_pd(w[1]), wz = _mm_set1_pd(w[2]);
    const __m128d mg = _mm_set1_pd(margin), th = _mm_set1_pd(thr), zero = _mm_setzero_pd(), lo = _mm_set1_pd(-(double)CT__MAXR);
    __m128d cm = lo;
    unsigned long long h = 0;
    double c[2];
    int f;
    for (f = 0; f < n; f += 2, pl += 8) {
        __m128d px, py, pz, pd, v, vm, k;
        ct__planes2_sse2(pl, &px, &py, &pz, &pd);
        v = _mm_add_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(px, wx), _mm_mul_pd(py, wy)), _mm_mul_pd(pz, wz)), pd);
        _mm_storeu_pd(out + f, v);
        vm = _mm_add_pd(v, mg);
        k = _mm_and_pd(_mm_cmplt_pd(v, zero), _mm_cmple_pd(vm, th));   /* cold */
        h |= (unsigned long long)(~_mm_movemask_pd(k) & 3) << f;
        if (want_cold) cm = _mm_max_pd(cm, _mm_or_pd(_mm_and_pd(k, vm), _mm_andnot_pd(k, lo)));
    }
    _mm_storeu_pd(c, cm);
    *mask = h;
    *cold = c[1] > c[0] ? c[1] : c[0];
}
#endif

CT__INLINE ct_real ct__sat_ft_x(const ct__sat_ft *t, int f) { return f < CT__SAT_FT ? t->x[f] : ct__dot(t->h->planes[f].n, t->dc); }
CT__INLINE ct_real ct__sat_ft_d(const ct__sat_ft *t, int f) {
    return f < CT__SAT_FT ? t->d[f] : -(ct__dot(t->h->planes[f].n, t->c) + t->h->planes[f].d);
}
/* The tables, and the seed: the face whose separation bound (n.other_centre + d = x - d) is
   largest (the first on ties), found in the same pass (the SSE2 pass only when seed is set:
   ct__sat_seed is read only then). c is h's center: a hull the library built (ct__valid) has
   its d tabulated (ct__depth), read in place. */
CT__PRIVATE void ct__sat_ft_fill(ct__sat_ft *t, const ct_hull *h, ct_vec3 c, ct_vec3 other, int seed) {
    int f = 0, n = ct__imin(h->nfaces, CT__SAT_FT), best = 0;
    ct_real b = -CT__MAXR, e;
    t->h = h; t->c = c; t->dc = ct__sub(other, c); t->dc2 = ct__len2(t->dc);
    if (h->ct__valid == CT__HULL_VALID && h->ct__depth) {
        t->d = h->ct__depth;
        t->m = h->ct__inner;
#if CT__SSE2
        if (!CT__FLOAT && n >= 2) {   /* ct_real is double here: the casts only name it so */
            double dc[3];
            dc[0] = (double)t->dc.x; dc[1] = (double)t->dc.y; dc[2] = (double)t->dc.z;
            f = n & ~1;
            if (seed)
                ct__sat_xtab_sse2((const double *)(const void *)h->planes, f, dc, (const double *)(const void *)t->d,
                                  (double *)(void *)t->x, (double *)(void *)t->e, &best, (double *)(void *)&b, 1);
            else
                ct__sat_xtab_sse2((const double *)(const void *)h->planes, f, dc, (const double *)(const void *)t->d,
                                  (double *)(void *)t->x, (double *)(void *)t->e, &best, (double *)(void *)&b, 0);
        }
#endif
        for (; f < h->nfaces; ++f) {
            if (f < n) t->x[f] = ct__dot(h->planes[f].n, t->dc);
            e = ct__sat_ft_x(t, f) - ct__sat_ft_d(t, f);
            if (f < n) t->e[f] = e;
            if (e > b) { b = e; best = f; }
        }
    } else {
        t->m = CT__MAXR;
        t->d = t->dbuf;
        for (f = 0; f < h->nfaces; ++f) {
            ct_real x = ct__dot(h->planes[f].n, t->dc), d = -(ct__dot(h->planes[f].n, c) + h->planes[f].d);
            e = x - d;
            if (f < CT__SAT_FT) { t->x[f] = x; t->dbuf[f] = d; t->e[f] = e; }
            t->m = ct__min(t->m, d);
            if (e > b) { b = e; best = f; }
        }
    }
    t->seed = best;
    t->seed_bound = b;
}

/* The face whose separation bound (n.other_centre + d = x - d) is largest, and that bound. */
CT__INLINE int ct__sat_seed(const ct__sat_ft *t, ct_real *bound) {
    *bound = t->seed_bound;
    return t->seed;
}
CT__INLINE ct_real ct__sat_ft_e(const ct__sat_ft *t, int f) { return f < CT__SAT_FT ? t->e[f] : ct__sat_ft_x(t, f) - ct__sat_ft_d(t, f); }

/* The faces in the table whose bound ub = (e - m) + margin is not below lo (strict: not at or
   below it; a NaN bound is kept), as bits: the face loops visit only those (and the faces
   beyond the table). */
CT__PRIVATE unsigned long long ct__sat_ft_reach(const ct__sat_ft *t, ct_real m, ct_real margin, ct_real lo, int strict) {
    int f = 0, n = ct__imin(t->h->nfaces, CT__SAT_FT);
    unsigned long long bits = 0;
#if CT__SSE2
    if (!CT__FLOAT) {   /* ct_real is double here */
        const double *e = (const double *)(const void *)t->e;
        const __m128d mm = _mm_set1_pd((double)m), mg = _mm_set1_pd((double)margin), l = _mm_set1_pd((double)lo);
        if (strict)
            for (; f + 2 <= n; f += 2)
                bits |= (unsigned long long)_mm_movemask_pd(_mm_cmpnle_pd(_mm_add_pd(_mm_sub_pd(_mm_loadu_pd(e + f), mm), mg), l)) << f;
        else
            for (; f + 2 <= n; f += 2)
                bits |= (unsigned long long)_mm_movemask_pd(_mm_cmpnlt_pd(_mm_add_pd(_mm_sub_pd(_mm_loadu_pd(e + f), mm), mg), l)) << f;
    }
#endif
    for (; f < n; ++f) {
        ct_real ub = t->e[f] - m + margin;
        if (strict ? !(ub <= lo) : !(ub < lo)) bits |= 1ULL << f;
    }
    return bits;
}
/* The first face from f on that is in bits or beyond the table (n when none). */
CT__INLINE int ct__sat_bits_next(unsigned long long bits, int f, int n) {
    if (f < CT__SAT_FT) {
        unsigned long long m = bits >> f;
        if (m) return f + ct__ctz64(m);
        f = CT__SAT_FT;
    }
    return ct__imin(f, n);
}

/* The edge between faces fa and fb (the bound is symmetric in them: either order gives the
   same answer). */
CT__ALWAYS int ct__sat_arc_skip(const ct__sat_ft *t, int fa, int fb, ct_real other, ct_real thr) {
    const ct_hull *h = t->h;
    ct_real mx = ct__max(ct__sat_ft_x(t, fa), ct__sat_ft_x(t, fb)), ch2;
    ct_real tt = thr + ct__min(ct__sat_ft_d(t, fa), ct__sat_ft_d(t, fb)) + other;
    if (mx <= 0) return mx <= tt;
    if (tt <= 0) return 0;
    if (t->dc2 <= tt * tt) return 1;
    ch2 = ct__max((1 + ct__dot(h->planes[fa].n, h->planes[fb].n)) / 2, 0);
    return mx * mx <= tt * tt * ch2;
}

/* A second bound for the edge pairs of edge k of t's hull, from a vertex w of the other hull
   (in this hull's frame; ct__sat_ft_witness tabulates its plane values): for n on the edge's
   Gauss arc the edge holds the hull's support along n, so the separation along n is at most
   n.(w - p), p on the edge; at the arc's ends that is the plane value of w for the edge's two
   faces, and inside the arc (n = (s na + t nb) / |s na + t nb|, s, t >= 0, |s na + t nb| <= 1)
   it stays below the larger end value when that is negative. Returns that value, or CT__MAXR
   when it is not negative (no bound). */
CT__INLINE ct_real ct__sat_ft_w(const ct__sat_ft *t, int f) {
    return f < CT__SAT_FT ? t->w[f] : ct__dot(t->h->planes[f].n, t->wv) + t->h->planes[f].d;
}
/* The witness table for w, and which faces are hot at threshold thr (ct__sat_hot): t->hot for
   the faces in the table, t->wcold over all faces (when cold is set: a certificate's bound;
   else it may stay -CT__MAXR). */
CT__PRIVATE void ct__sat_ft_witness(ct__sat_ft *t, ct_vec3 w, ct_real margin, ct_real thr, int cold) {
    int f = 0, n = ct__imin(t->h->nfaces, CT__SAT_FT);
    ct_real v;
    t->wv = w;
    t->hot = 0;
    t->wcold = -CT__MAXR;
#if CT__SSE2
    if (!CT__FLOAT) {   /* ct_real is double here */
        double wd[3];
        wd[0] = (double)w.x; wd[1] = (double)w.y; wd[2] = (double)w.z;
        f = n & ~1;
        if (cold)
            ct__sat_wtab_sse2((const double *)(const void *)t->h->planes, f, wd, (double)margin, (double)thr,
                              (double *)(void *)t->w, &t->hot, (double *)(void *)&t->wcold, 1);
        else
            ct__sat_wtab_sse2((const double *)(const void *)t->h->planes, f, wd, (double)margin, (double)thr,
                              (double *)(void *)t->w, &t->hot, (double *)(void *)&t->wcold, 0);
    }
#endif
    for (; f < t->h->nfaces; ++f) {
        v = ct__dot(t->h->planes[f].n, w) + t->h->planes[f].d;
        if (f < n) t->w[f] = v;
        if (v < 0 && v + margin <= thr) t->wcold = ct__max(t->wcold, v + margin);
        else if (f < n) t->hot |= 1ULL << f;
    }
}
/* The edge between faces fa and fb (symmetric in them, as ct__sat_arc_skip). */
CT__INLINE ct_real ct__sat_arc_witness(const ct__sat_ft *t, int fa, int fb) {
    ct_real m = ct__max(ct__sat_ft_w(t, fa), ct__sat_ft_w(t, fb));
    return m < 0 ? m : CT__MAXR;
}

/* Edge k of A in B's frame, for the pair loop. Gauss map (Gregorius): the edge is the arc
   from na to nb (its two face normals); u is parallel to nb x na (taken from the edge vector,
   so it exists for flat hulls whose two faces are opposite); o = e x (na - nb) points to the
   middle of the arc and orients the axis without any centroid: with e = k (na x nb), k > 0,
   o = k (1 - na.nb)(na + nb), and for a flat hull (nb = -na) o = 2 e x na, the outward
   direction in the plane. */
CT__PRIVATE void ct__sat_row_make(const ct__sat *s, int k, ct__sat_row *r) {
    const ct_hull *A = s->a;
    ct_vec3 p = A->verts[A->face_verts[k]], q = A->verts[A->face_verts[A->he_next[k]]];
    ct_vec3 na = A->planes[A->he_face[k]].n, nb = A->planes[A->he_face[A->he_twin[k]]].n;
    ct_vec3 e = ct__sub(q, p);
    r->na = ct__xf_inv_dir(&s->rel, na);
    r->nb = ct__xf_inv_dir(&s->rel, nb);
    r->u = ct__xf_inv_dir(&s->rel, ct__neg(e));
    r->o = ct__xf_inv_dir(&s->rel, ct__cross(e, ct__sub(na, nb)));
    r->p = ct__xf_inv_point(&s->rel, p);
}

/* Edge j of B for the pair loop, in B's frame: the arc (c, d) of the Gauss map of -B (its
   negated face normals), w parallel to d x c (from the edge vector) and a point pb. */
typedef struct ct__sat_col { ct_vec3 c, d, w, pb; int j; } ct__sat_col;

CT__PRIVATE void ct__sat_col_make(const ct_hull *B, int j, ct__sat_col *col) {
    ct_vec3 qb = B->verts[B->face_verts[B->he_next[j]]];
    col->pb = B->verts[B->face_verts[j]];
    col->c = ct__neg(B->planes[B->he_face[j]].n);
    col->d = ct__neg(B->planes[B->he_face[B->he_twin[j]]].n);
    col->w = ct__sub(col->pb, qb);
    col->j = j;
}

/* Edge pair (row of A, column of B). Returns 1 when the pair builds a face of the Minkowski
   difference A - B and is not near-parallel; then *sep and *n (unit, in B's frame, pointing
   from A to B) hold the separation along that face's normal. */
/* ct__sat_edge given the first half of the arc test's dots, cba = c.u and dba = d.u. */
CT__PRIVATE int ct__sat_edge_cd(const ct__sat_row *r, const ct__sat_col *col, ct_real cba, ct_real dba, ct_real *sep,
                                ct_vec3 *n) {
    ct_real adc, bdc, x2, l;
    ct_vec3 x;
    if (!(cba * dba < 0)) return 0;
    adc = ct__dot(r->na, col->w);
    bdc = ct__dot(r->nb, col->w);
    if (!(adc * bdc < 0 && cba * bdc > 0)) return 0;
    x = ct__cross(r->u, col->w);
    x2 = ct__len2(x);
    if (!(x2 > CT__SAT_PARALLEL * CT__SAT_PARALLEL * ct__len2(r->u) * ct__len2(col->w))) return 0;
    l = ct__sqrt(x2);
    x = ct__scale(x, (ct__dot(x, r->o) < 0 ? -1 : 1) / l);
    *n = x;
    *sep = ct__dot(x, ct__sub(col->pb, r->p));
    return 1;
}
CT__INLINE int ct__sat_edge(const ct__sat_row *r, const ct__sat_col *col, ct_real *sep, ct_vec3 *n) {
    /* Gregorius' arc test: arcs (na, nb) and (c, d) of the Gauss maps of A and of -B cross. */
    return ct__sat_edge_cd(r, col, ct__dot(col->c, r->u), ct__dot(col->d, r->u), sep, n);
}

/* The separation along an edge pair's axis n (unit, B's frame) from the hulls' support
   points: min(x, that), x the value ct__sat_edge found. x = n.(pb - pa) is the separation
   along n only when the edges are the supports along n, as they are when the pair builds a
   face of the Minkowski difference; the arc test reads that from the edge vectors, and an edge
   whose length is of the order of the hull's tolerance (two vertices merged into one face of
   nearly coplanar ones, e.g. a float hull) has a direction that the faces around it do not
   share: the test can then pass for edges far from the supports, and x overestimates, by the
   hulls' size in the worst case (deeply overlapping float hulls seemed apart by +1 on an edge
   1.3e-5 long). The support separation is a true lower bound of the signed distance along any
   axis, so the minimum never overestimates and, for a genuine pair, differs from x by
   rounding. Called only for pairs that could change the answer (x above the threshold). */
CT__PRIVATE ct_real ct__sat_edge_check(const ct__sat *s, ct_vec3 n, ct_real x) {
    ct_vec3 na = ct__xf_dir(&s->rel, n);
    ct_vec3 pa = s->a->verts[ct__sat_support(s->a, na)];
    ct_vec3 pb = ct__xf_point(&s->rel, s->b->verts[ct__sat_support(s->b, ct__neg(n))]);
    return ct__min(x, ct__dot(na, ct__sub(pb, pa)));
}

/* The outcome of the query. */
typedef struct ct__satq {
    int separated;         /* an axis separates by more than the speculative distance */
    int type;              /* winning kind: CT_SAT_FACE_A, _FACE_B or _EDGE */
    int fa, va, fb, vb;    /* best face of A and its deepest B vertex; best face of B, A vertex */
    int ea, eb;            /* best edge pair (half-edges of A and of B), -1 if none */
    ct_real sa, sb, se;    /* their separations */
    ct_vec3 ne;            /* edge axis, A's frame */
    int ctype, cia, cib;   /* what goes back into the cache */
} ct__satq;
CT__PRIVATE void ct__sat_query_end(const ct__sat *s, ct__satq *q);

CT__INLINE ct_real ct__sat_face_tol(const ct__sat *s, ct_real x) { return s->exact ? 0 : CT__SAT_FACE_REL * ct__abs(x) + CT__SAT_FACE_ABS * s->L; }
CT__INLINE ct_real ct__sat_edge_tol(const ct__sat *s, ct_real x) { return s->exact ? 0 : CT__SAT_EDGE_REL * ct__abs(x) + CT__SAT_EDGE_ABS * s->L; }

/* (x, i) beats (best, bi) in the total order: larger value, then smaller index. */
CT__INLINE int ct__sat_better(ct_real x, int i, ct_real best, int bi) {
    return x > best || (x == best && (bi < 0 || i < bi));
}

CT__PRIVATE void ct__sat_separated(ct__satq *q, int type, int ia, int ib) {
    q->separated = 1;
    q->ctype = type; q->cia = ia; q->cib = ib;
}

/* ---- the certificate of a full query (ct_sat_cache's private part) -------------------------
   A full query that did not separate also leaves upper bounds on everything it did not pick:
   on every face of A (the value where it was evaluated, else the bound that pruned it), of B
   likewise, and gE on every edge pair except those of the live rows x live columns (the edges
   whose bounds did not prune them). Every value and every bound is 1-Lipschitz in the positions
   of the other hull's points, so when the relative transform moves B's points (in A's frame)
   and A's points (in B's frame) by at most delta, the same numbers plus delta bound the same
   candidates at the new pose, whatever the rotation did to the edge axes (a pair's axis stays
   on the Gauss arcs of its two edges, and the bounds hold on the whole arc).
   The certificate lists the faces of each hull whose entries lie within a lead of the decision
   they take part in (A's best face; B's best face or the threshold a face of B must beat), at
   most CT__SAT_LIST of them, and keeps gA and gB, the largest entries it did not list; the
   edges are made live down to the same lead below the edge threshold. A later call evaluates
   the listed faces and the live pairs exactly, as the full query would, and answers when every
   other candidate, moved by the motion since, stays below what it would have to beat
   (ct__sat_cert_query): the answer is the full query's, only the work changes. The lead is a
   few calls' worth of the pair's motion, so a moving contact keeps its certificate for several
   calls, not for none. */
typedef struct ct__sat_cert {
    /* per face of A and of B (the first CT__SAT_CE): the value or the pruning bound, the
       smaller when met twice; faces beyond: their largest entry */
    ct_real ea[CT__SAT_CE], eb[CT__SAT_CE], over_a, over_b, ge;   /* ge: the edge bound */
    unsigned char xa[CT__SAT_CE], xb[CT__SAT_CE];                  /* 1: the entry is the value */
    ct_real lead;               /* how far below the decisions the certificate lists candidates */
    int rows[CT__SAT_COLS], cols[CT__SAT_COLS], nrows, ncols;   /* live edges and their bounds */
    ct_real rbound[CT__SAT_COLS], cbound[CT__SAT_COLS];
    int ok;                     /* 0: more live edges than the lists hold */
} ct__sat_cert;

/* Records v, an upper bound on face i's separation (exact: its value). */
CT__INLINE void ct__sat_cert_face(ct_real *e, unsigned char *ex, ct_real *over, ct_real v, int i, int exact) {
    if (i >= CT__SAT_CE) *over = ct__max(*over, v);
    else if (v < e[i] || (exact && v == e[i])) { e[i] = v; ex[i] = (unsigned char)exact; }
}
/* Records live edge e with u, an upper bound on its pairs' separations (CT__MAXR: none). */
CT__INLINE void ct__sat_cert_live(int *list, ct_real *bound, int *n, int *ok, int e, ct_real u) {
    int k;
    if (e > 65535) { *ok = 0; return; }   /* the cache keeps 16-bit half-edge ids */
    for (k = 0; k < *n; ++k)
        if (list[k] == e) { bound[k] = ct__max(bound[k], u); return; }
    if (*n == CT__SAT_COLS) *ok = 0;
    else { list[*n] = e; bound[(*n)++] = u; }
}
/* Keeps the CT__SAT_LIVE live edges of largest bound; the others' pairs go under *ge. */
CT__PRIVATE void ct__sat_cert_trim(int *list, ct_real *bound, int *n, ct_real *ge) {
    while (*n > CT__SAT_LIVE) {
        int k, lo = 0;
        for (k = 1; k < *n; ++k)
            if (bound[k] < bound[lo]) lo = k;
        *ge = ct__max(*ge, bound[lo]);
        list[lo] = list[*n - 1];
        bound[lo] = bound[--*n];
    }
}
/* An edge is worth a look only when its arc's witness bound (ct__sat_arc_witness) can reach
   thr: exactly when one of its two faces is hot (w >= 0 or w + margin > thr, w its witness value).
   thr is the threshold ct__sat_ft_witness was given: faces in the table read its mask. */
CT__INLINE int ct__sat_hot(const ct__sat_ft *t, int f, ct_real margin, ct_real thr) {
    ct_real w;
    if (f < CT__SAT_FT) return (int)(t->hot >> f & 1);
    w = ct__sat_ft_w(t, f);
    return !(w < 0 && w + margin <= thr);
}
/* The first hot face from f on (t->h->nfaces when none). */
CT__INLINE int ct__sat_hot_next(const ct__sat_ft *t, int f, ct_real margin, ct_real thr) {
    int n = t->h->nfaces;
    if (f < CT__SAT_FT) {
        unsigned long long m = t->hot >> f;
        if (m) return f + ct__ctz64(m);
        f = CT__SAT_FT;
    }
    while (f < n && !ct__sat_hot(t, f, margin, thr)) ++f;
    return ct__imin(f, n);
}
/* The edge of half-edge k of hot face f as its canonical half-edge (he_twin > itself), and in
   *g its other face; -1 when that face is hot too and comes first: each edge is visited from
   one face. */
CT__INLINE int ct__sat_hot_edge(const ct__sat_ft *t, int f, int k, ct_real margin, ct_real thr, int *g) {
    int tw = t->h->he_twin[k];
    *g = t->h->he_face[tw];
    if (*g < f && ct__sat_hot(t, *g, margin, thr)) return -1;
    return tw > k ? k : tw;
}

/* Edge i of A against the prepared columns (ncols < 0: every edge of B). Keeps the best pair
   above thr in q under the total order (larger separation, then smaller (i, j)); returns 1 when
   the pair separates by more than the speculative distance (q then says so). */
/* The columns' arcs as lanes for the first half of the arc test: soa[0..2][k] = c of column k,
   soa[3..5][k] = d. */
typedef struct ct__sat_colsoa { ct_real v[6][CT__SAT_COLS]; } ct__sat_colsoa;
/* Column k of a prepared list: edge j of B, into cols[k] and its arcs into the lanes. */
CT__INLINE void ct__sat_col_add(const ct_hull *B, int j, ct__sat_col *cols, ct__sat_colsoa *soa, int k) {
    const ct__sat_col *col = &cols[k];
    ct__sat_col_make(B, j, &cols[k]);
    soa->v[0][k] = col->c.x; soa->v[1][k] = col->c.y; soa->v[2][k] = col->c.z;
    soa->v[3][k] = col->d.x; soa->v[4][k] = col->d.y; soa->v[5][k] = col->d.z;
}
#if CT__SSE2
/* Bit k set when column k (< n <= 64) passes the first half of the arc test against u:
   (c.u) (d.u) < 0, each dot (x ux + y uy) + z uz as ct__dot, two columns per register; the
   dots into cus[k], dus[k]. */
CT__INLINE unsigned long long ct__sat_arc_half_sse2(const double (*v)[CT__SAT_COLS], int n, const double *u, double *cus,
                                                    double *dus) {
    const __m128d ux = _mm_set1_pd(u[0]), uy = _mm_set1_pd(u[1]), uz = _mm_set1_pd(u[2]), zero = _mm_setzero_pd();
    unsigned long long bits = 0;
    int k;
    for (k = 0; k + 2 <= n; k += 2) {
        __m128d cu = _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_loadu_pd(v[0] + k), ux), _mm_mul_pd(_mm_loadu_pd(v[1] + k), uy)),
                                _mm_mul_pd(_mm_loadu_pd(v[2] + k), uz));
        __m128d du = _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_loadu_pd(v[3] + k), ux), _mm_mul_pd(_mm_loadu_pd(v[4] + k), uy)),
                                _mm_mul_pd(_mm_loadu_pd(v[5] + k), uz));
        bits |= (unsigned long long)_mm_movemask_pd(_mm_cmplt_pd(_mm_mul_pd(cu, du), zero)) << k;
        _mm_storeu_pd(cus + k, cu);
        _mm_storeu_pd(dus + k, du);
    }
    if (k < n) {
        double cu = (v[0][k] * u[0] + v[1][k] * u[1]) + v[2][k] * u[2], du = (v[3][k] * u[0] + v[4][k] * u[1]) + v[5][k] * u[2];
        if (cu * du < 0) bits |= 1ULL << k;
        cus[k] = cu;
        dus[k] = du;
    }
    return bits;
}
#endif

/* One pair of the row past the first half of the arc test (its dots cba, dba): kept in q when
   it is the best above thr; 1 when it separates by more than the speculative distance. */
CT__ALWAYS int ct__sat_edge_pair(const ct__sat *s, int i, const ct__sat_row *row, const ct__sat_col *col, ct_real cba,
                                 ct_real dba, ct_real thr, ct__satq *q) {
    int j = col->j;
    ct_real x;
    ct_vec3 nv;
    if (i == q->ea && j == q->eb) return 0;
    if (!ct__sat_edge_cd(row, col, cba, dba, &x, &nv) || !(x > thr)) return 0;
    /* the check lowers x: a pair whose unchecked x is below the best cannot win */
    if (q->ea >= 0 && x < q->se) return 0;
    x = ct__sat_edge_check(s, nv, x);
    if (!(x > thr)) return 0;
    if (x > s->spec) { ct__sat_separated(q, CT_SAT_EDGES, i, j); return 1; }
    if (q->ea < 0 || x > q->se || (x == q->se && (i < q->ea || (i == q->ea && j < q->eb)))) {
        q->se = x; q->ea = i; q->eb = j; q->ne = nv;
    }
    return 0;
}

CT__PRIVATE int ct__sat_edge_row(const ct__sat *s, int i, const ct__sat_col *cols, const ct__sat_colsoa *soa, int ncols,
                                 ct_real thr, ct__satq *q) {
    const ct_hull *B = s->b;
    ct__sat_row row;
    ct__sat_col one;
    ct_real cba, dba;
    int c, all = ncols < 0, n = all ? B->face_first[B->nfaces] : ncols;
    ct__sat_row_make(s, i, &row);
#if CT__SSE2
    if (!CT__FLOAT && soa && !all) {   /* ct_real is double here: the columns that pass the first
                                          half of the arc test, in order */
        double u[3], cu[CT__SAT_COLS], du[CT__SAT_COLS];
        unsigned long long m;
        u[0] = (double)row.u.x; u[1] = (double)row.u.y; u[2] = (double)row.u.z;
        for (m = ct__sat_arc_half_sse2((const double (*)[CT__SAT_COLS])(const void *)soa->v, n, u, cu, du); m; m &= m - 1) {
            c = ct__ctz64(m);
            if (ct__sat_edge_pair(s, i, &row, &cols[c], (ct_real)cu[c], (ct_real)du[c], thr, q)) return 1;
        }
        return 0;
    }
#endif
    (void)soa;
    for (c = 0; c < n; ++c) {
        const ct__sat_col *col = &one;
        if (all) {
            if (B->he_twin[c] < c) continue;
            ct__sat_col_make(B, c, &one);
        } else col = &cols[c];
        /* the first half of the arc test inline: most pairs stop here */
        cba = ct__dot(col->c, row.u);
        dba = ct__dot(col->d, row.u);
        if (!(cba * dba < 0)) continue;
        if (ct__sat_edge_pair(s, i, &row, col, cba, dba, thr, q)) return 1;
    }
    return 0;
}

/* A certificate's bound on every pair of an edge (faces' planes pa, pb in the edge's hull's
   frame): for n on the edge's Gauss arc the separation along n is at most n.(w - p) for every
   vertex w of the other hull (in the same frame), and that is at most the larger of w's two
   plane values when that is negative (see ct__sat_arc_witness). w: the other hull's support
   along minus the arc's middle (pa.n + pb.n), near the deepest below both planes. CT__MAXR
   when that gives no bound. */
CT__INLINE ct_real ct__sat_edge_tight(ct_plane pa, ct_plane pb, ct_vec3 w) {
    ct_real x = ct__max(ct__dot(pa.n, w) + pa.d, ct__dot(pb.n, w) + pb.d);
    return x < 0 ? x : CT__MAXR;
}
/* For edge i of A (row) and edge j of B (column); start: a vertex of the other hull near the
   contact to climb from (any vertex gives a bound). */
CT__PRIVATE ct_real ct__sat_row_tight(const ct__sat *s, int i, int start) {
    const ct_hull *A = s->a;
    ct_plane pa = A->planes[A->he_face[i]], pb = A->planes[A->he_face[A->he_twin[i]]];
    int v = ct__hull_climb(s->b, ct__xf_inv_dir(&s->rel, ct__neg(ct__add(pa.n, pb.n))), start);
    return ct__sat_edge_tight(pa, pb, ct__xf_point(&s->rel, s->b->verts[v]));
}
CT__PRIVATE ct_real ct__sat_col_tight(const ct__sat *s, int j, int start) {
    const ct_hull *B = s->b;
    ct_plane pa = B->planes[B->he_face[j]], pb = B->planes[B->he_face[B->he_twin[j]]];
    int v = ct__hull_climb(s->a, ct__xf_dir(&s->rel, ct__neg(ct__add(pa.n, pb.n))), start);
    return ct__sat_edge_tight(pa, pb, ct__xf_inv_point(&s->rel, s->a->verts[v]));
}

/* The query. hint: cached axis (type, ia, ib), already range-checked. Returns with
   q->separated set as soon as an axis separates by more than the speculative distance. */
CT__PRIVATE void ct__sat_query(const ct__sat *s, int htype, int hia, int hib, ct__satq *q, ct__sat_cert *ce) {
    const ct_hull *A = s->a, *B = s->b;
    ct_vec3 ca_in_b = ct__xf_inv_point(&s->rel, s->ca);
    ct_real x, thr, below;
    int i, j, v, ex;
    ct__sat_row row;
    ct__sat_ft ta, tb;
    ct_vec3 wa = ct__v3(0, 0, 0), wb;
    unsigned long long reach;
    memset(q, 0, sizeof *q);
    q->fa = q->fb = q->ea = q->eb = -1;
    q->sa = q->sb = q->se = -CT__MAXR;

    /* the cached axis first: it either separates (done) or seeds its group's best */
    if (htype == CT_SAT_FACE_A) {
        x = ct__sat_face_a(s, hia, &v);
        if (x > s->spec) { ct__sat_separated(q, htype, hia, 0); return; }
        q->sa = x; q->fa = hia; q->vb = v;
        if (ce) ct__sat_cert_face(ce->ea, ce->xa, &ce->over_a, x, hia, 1);
    } else if (htype == CT_SAT_FACE_B) {
        x = ct__sat_face_b(s, hib, &v);
        if (x > s->spec) { ct__sat_separated(q, htype, 0, hib); return; }
        q->sb = x; q->fb = hib; q->va = v;
        if (ce) ct__sat_cert_face(ce->eb, ce->xb, &ce->over_b, x, hib, 1);
    } else if (htype == CT_SAT_EDGES) {
        ct_vec3 n;
        ct__sat_col col;
        ct__sat_row_make(s, hia, &row);
        ct__sat_col_make(B, hib, &col);
        if (ct__sat_edge(&row, &col, &x, &n)) {
            x = ct__sat_edge_check(s, n, x);
            if (x > s->spec) { ct__sat_separated(q, htype, hia, hib); return; }
            q->se = x; q->ea = hia; q->eb = hib; q->ne = n;
        }
    }
    /* the bound tables only once the cached axis has not answered (a warm separated pair
       costs one support) */
    ct__sat_ft_fill(&ta, A, s->ca, s->cb, q->fa < 0);
    ct__sat_ft_fill(&tb, B, B->center, ca_in_b, q->fb < 0);

    /* faces of A: sep_i = min over B of (n.x + d) <= n.cb + d - m_b, since B holds the ball of
       radius m_b (the smallest depth of its centre below its faces) around its centre.
       Without a cached face, the face of largest bound goes first: it usually prunes the rest. */
    if (q->fa < 0) {
        int i0 = ct__sat_seed(&ta, &x);
        x = ct__sat_face_a(s, i0, &v);
        if (x > s->spec) { ct__sat_separated(q, CT_SAT_FACE_A, i0, 0); return; }
        q->sa = x; q->fa = i0; q->vb = v;
        if (ce) ct__sat_cert_face(ce->ea, ce->xa, &ce->over_a, x, i0, 1);
    }
    /* A second bound: any vertex of B bounds the separation from above, and the deepest one
       below the best face so far (wb, A's frame) is near-deepest below the faces around it
       (the ball bound is loose there); s->margin covers the rounding between the two ways of
       evaluating a vertex. */
    wb = ct__xf_point(&s->rel, B->verts[q->vb]);
    /* without a certificate to fill, a face whose first bound is below q->sa now stays below
       it (q->sa only rises) and needs no visit */
    reach = ce ? ~0ULL : ct__sat_ft_reach(&ta, tb.m, s->margin, q->sa, 0);
    for (i = ct__sat_bits_next(reach, 0, A->nfaces); i < A->nfaces; i = ct__sat_bits_next(reach, i + 1, A->nfaces)) {
        ct_real ub;
        if (i == q->fa) continue;
        ub = ct__sat_ft_e(&ta, i) - tb.m + s->margin;
        if (ub >= q->sa - (ce ? ce->lead : 0)) ub = ct__min(ub, ct__dot(A->planes[i].n, wb) + A->planes[i].d + s->margin);
        if (ub < q->sa) {
            if (ce) ct__sat_cert_face(ce->ea, ce->xa, &ce->over_a, ub, i, 0);
            continue;
        }
        /* a vertex of B deep enough below the face rules it out as the witness would */
        below = q->sa - 2 * s->margin;
        x = ct__sat_face_a_upto(s, i, &below, &v, &ex);
        if (!ex) {
            if (x + s->margin < q->sa) {
                if (ce) ct__sat_cert_face(ce->ea, ce->xa, &ce->over_a, x + s->margin, i, 0);
                continue;
            }
            x = ct__sat_face_a(s, i, &v);
        }
        if (x > s->spec) { ct__sat_separated(q, CT_SAT_FACE_A, i, 0); return; }
        if (ce) ct__sat_cert_face(ce->ea, ce->xa, &ce->over_a, x, i, 1);
        if (ct__sat_better(x, i, q->sa, q->fa)) { q->sa = x; q->fa = i; q->vb = v; wb = ct__xf_point(&s->rel, B->verts[v]); }
    }
    /* faces of B: one matters only if it beats A's face by the bias, or separates */
    thr = ct__min(q->sa + ct__sat_face_tol(s, q->sa), s->spec);
    if (q->fb < 0) {
        ct_real b0;
        int j0 = ct__sat_seed(&tb, &b0);
        if (b0 - ta.m + s->margin > thr) {
            x = ct__sat_face_b(s, j0, &v);
            if (x > s->spec) { ct__sat_separated(q, CT_SAT_FACE_B, 0, j0); return; }
            q->sb = x; q->fb = j0; q->va = v;
            if (ce) ct__sat_cert_face(ce->eb, ce->xb, &ce->over_b, x, j0, 1);
        }
    }
    /* the same second bound with A's vertex deepest below the best face of B (B's frame) */
    if (q->fb >= 0) wa = ct__xf_inv_point(&s->rel, A->verts[q->va]);
    /* likewise a face whose first bound does not exceed thr */
    reach = ce ? ~0ULL : ct__sat_ft_reach(&tb, ta.m, s->margin, thr, 1);
    for (j = ct__sat_bits_next(reach, 0, B->nfaces); j < B->nfaces; j = ct__sat_bits_next(reach, j + 1, B->nfaces)) {
        ct_real ub;
        if (j == q->fb) continue;
        ub = ct__sat_ft_e(&tb, j) - ta.m + s->margin;
        if (q->fb >= 0) ub = ct__min(ub, ct__dot(B->planes[j].n, wa) + B->planes[j].d + s->margin);
        if (ub <= thr || (q->fb >= 0 && ub < q->sb)) {
            if (ce) ct__sat_cert_face(ce->eb, ce->xb, &ce->over_b, ub, j, 0);
            continue;
        }
        below = (q->fb >= 0 ? ct__max(thr, q->sb) : thr) - 2 * s->margin;
        x = ct__sat_face_b_upto(s, j, &below, &v, &ex);
        if (!ex) {
            if (x + s->margin <= thr || (q->fb >= 0 && x + s->margin < q->sb)) {
                if (ce) ct__sat_cert_face(ce->eb, ce->xb, &ce->over_b, x + s->margin, j, 0);
                continue;
            }
            x = ct__sat_face_b(s, j, &v);
        }
        if (x > s->spec) { ct__sat_separated(q, CT_SAT_FACE_B, 0, j); return; }
        if (ce) ct__sat_cert_face(ce->eb, ce->xb, &ce->over_b, x, j, 1);
        if (ct__sat_better(x, j, q->sb, q->fb)) { q->sb = x; q->fb = j; q->va = v; wa = ct__xf_inv_point(&s->rel, A->verts[v]); }
    }
    q->type = (q->fb >= 0 && q->sb > q->sa + ct__sat_face_tol(s, q->sa)) ? CT_SAT_FACE_B : CT_SAT_FACE_A;
    x = q->type == CT_SAT_FACE_B ? q->sb : q->sa;

    /* edge pairs: one matters only if it beats the face by the tolerance, or separates */
    thr = ct__min(x + ct__sat_edge_tol(s, x), s->spec);
    if (q->ea >= 0 && !(q->se > thr)) { q->ea = q->eb = -1; q->se = -CT__MAXR; }
    {
        /* columns: B's edges that can matter, prepared once (a list when few enough) */
        ct__sat_col cols[CT__SAT_COLS];
        ct__sat_colsoa soa;
        int ncols = 0, all = 0, f, k, g;
        /* a certificate lists the edges within its lead of the threshold as live (work only:
           the pairs still have to beat thr) */
        ct_real lead = ce ? ce->lead : 0, t0 = (q->ea >= 0 ? ct__max(thr, q->se) : thr) - s->margin - lead;
        /* witnesses for ct__sat_arc_witness: B's vertex deepest below A's best face (wb, A's
           frame) and A's deepest below B's best face, else A's support towards B (wa, B's
           frame); deep inside the other hull, they bound most arcs below the threshold. An
           edge passes that bound only when one of its two faces is hot (ct__sat_hot), so the
           edges are visited from the hot faces, each once. */
        if (q->fb < 0) wa = ct__xf_inv_point(&s->rel, A->verts[ct__sat_support(A, ct__sub(s->cb, s->ca))]);
        ct__sat_ft_witness(&tb, wa, s->margin, t0, ce != NULL);
        /* an edge with two cold faces: its bound is at most the larger w */
        if (ce) ce->ge = ct__max(ce->ge, tb.wcold);
        for (f = ct__sat_hot_next(&tb, 0, s->margin, t0); f < B->nfaces && !all; f = ct__sat_hot_next(&tb, f + 1, s->margin, t0)) {
            for (k = B->face_first[f]; k < B->face_first[f + 1]; ++k) {
                if ((j = ct__sat_hot_edge(&tb, f, k, s->margin, t0, &g)) < 0) continue;
                if (ct__sat_arc_skip(&tb, f, g, ta.m, t0)) {
                    if (ce) ce->ge = ct__max(ce->ge, t0 + s->margin);
                    continue;
                }
                if (ce) {   /* a certificate's tighter bound (fewer live edges) */
                    ct_real u = ct__sat_col_tight(s, j, q->fb >= 0 && A->nverts > CT__HULL_SCAN_COLD ? q->va : -1) + s->margin;
                    if (u <= t0) { ce->ge = ct__max(ce->ge, u); continue; }
                    ct__sat_cert_live(ce->cols, ce->cbound, &ce->ncols, &ce->ok, j, u);
                }
                if (ncols == CT__SAT_COLS) { all = 1; break; }
                ct__sat_col_add(B, j, cols, &soa, ncols++);
            }
        }
        if (ncols > 0 || all) {
            ct__sat_ft_witness(&ta, wb, s->margin, t0, ce != NULL);
            if (ce) ce->ge = ct__max(ce->ge, ta.wcold);
            for (f = ct__sat_hot_next(&ta, 0, s->margin, t0); f < A->nfaces; f = ct__sat_hot_next(&ta, f + 1, s->margin, t0)) {
                for (k = A->face_first[f]; k < A->face_first[f + 1]; ++k) {
                    /* the threshold rises with the best pair found so far */
                    ct_real t1 = (q->ea >= 0 ? ct__max(thr, q->se) : thr) - s->margin - lead;
                    if ((i = ct__sat_hot_edge(&ta, f, k, s->margin, t0, &g)) < 0) continue;
                    if (ct__sat_arc_witness(&ta, f, g) + s->margin <= t1 || ct__sat_arc_skip(&ta, f, g, tb.m, t1)) {
                        if (ce) ce->ge = ct__max(ce->ge, t1 + s->margin);
                        continue;
                    }
                    if (ce) {
                        ct_real u = ct__sat_row_tight(s, i, B->nverts > CT__HULL_SCAN_COLD ? q->vb : -1) + s->margin;
                        if (u <= t1) { ce->ge = ct__max(ce->ge, u); continue; }
                        ct__sat_cert_live(ce->rows, ce->rbound, &ce->nrows, &ce->ok, i, u);
                    }
                    if (ct__sat_edge_row(s, i, cols, &soa, all ? -1 : ncols, thr, q)) return;
                }
            }
        }
        if (ce && all) ce->ok = 0;
    }
    if (ce) {
        if (q->ea >= 0) { /* a cached pair that kept the lead stays live */
            ct__sat_cert_live(ce->rows, ce->rbound, &ce->nrows, &ce->ok, q->ea, CT__MAXR);
            ct__sat_cert_live(ce->cols, ce->cbound, &ce->ncols, &ce->ok, q->eb, CT__MAXR);
        }
    }
    ct__sat_query_end(s, q);
}

/* The outcome's kind and its cache entry, once the groups' best are known. */
CT__PRIVATE void ct__sat_query_end(const ct__sat *s, ct__satq *q) {
    if (q->ea >= 0) {
        q->type = CT_SAT_EDGES;
        q->ne = ct__xf_dir(&s->rel, q->ne);
    }
    q->ctype = q->type;
    q->cia = q->type == CT_SAT_FACE_B ? 0 : (q->type == CT_SAT_EDGES ? q->ea : q->fa);
    q->cib = q->type == CT_SAT_FACE_A ? 0 : (q->type == CT_SAT_EDGES ? q->eb : q->fb);
}

/* ---- the query for two boxes ---------------------------------------------------------------- */
/* A hull that is a box (8 vertices, 6 quads whose planes come in 3 opposite pairs of mutually
   orthogonal normals, within CT__SAT_BOX_TOL) has the 15 SAT axes of Gottschalk's OBB test in
   closed form: face separations from the half extents, and only 3 x 3 edge directions. The
   query below answers as ct__sat_query does (the same argmax rules, tolerances and outcome
   fields), at a fraction of the cost; it ignores the cache hint (it would save nothing). */
#define CT__SAT_BOX_TOL ((ct_real)256 * CT__EPS)

typedef struct ct__sat_box {
    ct_vec3 u[3];          /* unit axes (the normals of the + faces), in the hull's frame */
    ct_real h[3];          /* half extents */
    ct_vec3 c;             /* centre */
    int face[3][2];        /* faces with normal +u[k] and -u[k] */
} ct__sat_box;

CT__PRIVATE int ct__sat_box_of(const ct_hull *h, ct__sat_box *b) {
    const ct_plane *pl = h->planes;
    int f, k, fp[3], fm[3] = { -1, -1, -1 }, extra = -1;
    ct_real c;
    /* (a trusted hull is the intersection of its face planes: 3 orthogonal pairs of parallel
       planes make a cuboid, so its faces are rectangles) */
    if (h->nfaces != 6 || h->nverts != 8) return 0;
    /* axis 0 is face 0: one face opposite, the four others orthogonal to it */
    fp[0] = 0;
    for (f = 1; f < 6; ++f) {
        c = ct__dot(pl[f].n, pl[0].n);
        if (c <= -1 + CT__SAT_BOX_TOL && fm[0] < 0) fm[0] = f;
        else if (!(ct__abs(c) <= CT__SAT_BOX_TOL)) return 0;
    }
    if (fm[0] < 0) return 0;
    /* axis 1 is the first of those four: one opposite, the other two orthogonal */
    fp[1] = fm[0] == 1 ? 2 : 1;
    fp[2] = -1;
    for (f = fp[1] + 1; f < 6; ++f) {
        if (f == fm[0]) continue;
        c = ct__dot(pl[f].n, pl[fp[1]].n);
        if (c <= -1 + CT__SAT_BOX_TOL && fm[1] < 0) fm[1] = f;
        else if (!(ct__abs(c) <= CT__SAT_BOX_TOL)) return 0;
        else if (fp[2] < 0) fp[2] = f;
        else extra = f;
    }
    /* axis 2: the last two, opposite each other */
    if (fm[1] < 0 || fp[2] < 0 || extra < 0 || !(ct__dot(pl[extra].n, pl[fp[2]].n) <= -1 + CT__SAT_BOX_TOL)) return 0;
    fm[2] = extra;
    b->c = ct__v3(0, 0, 0);
    for (k = 0; k < 3; ++k) {
        /* u.x <= hi on the + face, u.x >= lo on the - face (-u.x + d = 0: u.x = d) */
        ct_real hi = -pl[fp[k]].d, lo = pl[fm[k]].d;
        b->u[k] = pl[fp[k]].n;
        b->face[k][0] = fp[k];
        b->face[k][1] = fm[k];
        b->h[k] = (hi - lo) / 2;
        if (!(b->h[k] > 0)) return 0;
        b->c = ct__madd(b->c, b->u[k], (hi + lo) / 2);
    }
    return 1;
}

/* The edge of box hull h parallel to axis u that supports direction n (h's frame), as the
   half-edge listed by the generic edge loop (the smaller of the pair). */
CT__PRIVATE int ct__sat_box_edge(const ct_hull *h, ct_vec3 u, ct_vec3 n) {
    int v = ct__sat_support(h, n), e0 = h->vert_edge[v], e = e0, best = e0, guard = 8;
    ct_real bd = -1;
    do {
        ct_vec3 d = ct__sub(h->verts[h->face_verts[h->he_next[e]]], h->verts[v]);
        ct_real x = ct__abs(ct__dot(d, u)) / ct__len(d);
        if (x > bd) { bd = x; best = e; }
        e = h->he_next[h->he_twin[e]];
    } while (e != e0 && --guard > 0);
    return ct__imin(best, h->he_twin[best]);
}

CT__PRIVATE void ct__sat_query_boxes(const ct__sat *s, const ct__sat_box *ba, const ct__sat_box *bb, ct__satq *q) {
    ct_vec3 ub[3], dc, nbest = ct__v3(0, 0, 0);
    ct_real x, thr, t, R[3][3], AR[3][3];
    int i, j, k, sg, bi = -1, bj = -1;
    memset(q, 0, sizeof *q);
    q->fa = q->fb = q->ea = q->eb = -1;
    q->sa = q->sb = q->se = -CT__MAXR;
    for (j = 0; j < 3; ++j) ub[j] = ct__xf_dir(&s->rel, bb->u[j]);
    dc = ct__sub(ct__xf_point(&s->rel, bb->c), ba->c);
    /* R[i][j] = ua_i . ub_j: every support width below is a sum of |R| times half extents */
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) { R[i][j] = ct__dot(ba->u[i], ub[j]); AR[i][j] = ct__abs(R[i][j]); }
    /* faces of A: the separation of face (k, +-) is +-u.dc - hA - hB(u) */
    for (k = 0; k < 3; ++k) {
        ct_real w = ba->h[k] + AR[k][0] * bb->h[0] + AR[k][1] * bb->h[1] + AR[k][2] * bb->h[2];
        t = ct__dot(ba->u[k], dc);
        for (sg = 0; sg < 2; ++sg) {
            int f = ba->face[k][sg];
            x = (sg ? -t : t) - w;
            if (ct__sat_better(x, f, q->sa, q->fa)) { q->sa = x; q->fa = f; }
        }
    }
    if (q->sa > s->spec) { ct__sat_separated(q, CT_SAT_FACE_A, q->fa, 0); return; }
    /* faces of B (outward normal +-ub[j]): -+ub.dc - hB - hA(ub) */
    for (j = 0; j < 3; ++j) {
        ct_real w = bb->h[j] + AR[0][j] * ba->h[0] + AR[1][j] * ba->h[1] + AR[2][j] * ba->h[2];
        t = ct__dot(ub[j], dc);
        for (sg = 0; sg < 2; ++sg) {
            int f = bb->face[j][sg];
            x = (sg ? t : -t) - w;
            if (ct__sat_better(x, f, q->sb, q->fb)) { q->sb = x; q->fb = f; }
        }
    }
    if (q->sb > s->spec) { ct__sat_separated(q, CT_SAT_FACE_B, 0, q->fb); return; }
    q->type = q->sb > q->sa + ct__sat_face_tol(s, q->sa) ? CT_SAT_FACE_B : CT_SAT_FACE_A;
    /* the deepest vertex below the face that would be the reference (the only one used) */
    if (q->type == CT_SAT_FACE_A) q->vb = ct__sat_support(s->b, ct__xf_inv_dir(&s->rel, ct__neg(s->a->planes[q->fa].n)));
    else q->va = ct__sat_support(s->a, ct__neg(ct__xf_dir(&s->rel, s->b->planes[q->fb].n)));
    x = q->type == CT_SAT_FACE_B ? q->sb : q->sa;
    /* Edge directions (Gottschalk's OBB axes): n = ua_i x ub_j, |n| = sine of their angle; for
       the other axes |ua_k . n| = |R[m][j]| and |ub_k . n| = |R[i][m]| (m: the third index).
       Near-parallel pairs, and axes on a normal cone's boundary (a zero |R|: the axis is a
       face normal's neighbour, not a Minkowski face), are left to the face axes as in the
       generic loop. */
    thr = ct__min(x + ct__sat_edge_tol(s, x), s->spec);
    for (i = 0; i < 3; ++i) {
        int i1 = i == 0 ? 1 : 0, i2 = i == 2 ? 1 : 2;
        for (j = 0; j < 3; ++j) {
            int j1 = j == 0 ? 1 : 0, j2 = j == 2 ? 1 : 2;
            ct_vec3 n = ct__cross(ba->u[i], ub[j]);
            ct_real l = ct__len(n), tol = CT__SAT_BOX_TOL * l, e, d;
            if (!(l > CT__SAT_PARALLEL) || !(AR[i2][j] > tol && AR[i1][j] > tol && AR[i][j2] > tol && AR[i][j1] > tol))
                continue;
            d = ct__dot(n, dc);
            e = (ct__abs(d) - ba->h[i1] * AR[i2][j] - ba->h[i2] * AR[i1][j] - bb->h[j1] * AR[i][j2] - bb->h[j2] * AR[i][j1]) / l;
            if (!(e > thr)) continue;
            n = ct__scale(n, (d < 0 ? -1 : 1) / l);
            if (e > s->spec) {
                int ea = ct__sat_box_edge(s->a, ba->u[i], n);
                int eb = ct__sat_box_edge(s->b, bb->u[j], ct__xf_inv_dir(&s->rel, ct__neg(n)));
                ct__sat_separated(q, CT_SAT_EDGES, ea, eb);
                return;
            }
            if (bi < 0 || e > q->se) { q->se = e; bi = i; bj = j; nbest = n; }
        }
    }
    if (bi >= 0) {
        q->type = CT_SAT_EDGES;
        q->ne = nbest;
        q->ea = ct__sat_box_edge(s->a, ba->u[bi], nbest);
        q->eb = ct__sat_box_edge(s->b, bb->u[bj], ct__xf_inv_dir(&s->rel, ct__neg(nbest)));
    }
    q->ctype = q->type;
    q->cia = q->type == CT_SAT_FACE_B ? 0 : (q->type == CT_SAT_EDGES ? q->ea : q->fa);
    q->cib = q->type == CT_SAT_FACE_A ? 0 : (q->type == CT_SAT_EDGES ? q->eb : q->fb);
}

/* ---- face contact: the incident face clipped by the reference face's side planes --------- */
/* Computed in the reference hull's frame. The clipped polygon (Sutherland-Hodgman's result)
   is enumerated directly, one candidate at a time, without buffers: its vertices are
   (0) incident vertices inside every side plane, (1) crossings of an incident edge with a side
   plane that lie inside the other side planes, (2) reference vertices inside the incident
   face (seen along the reference normal). The reduction below visits them several times. */
typedef struct ct__clip {
    const ct_hull *ref, *inc;
    int fr, fi, nr, ni, ref_is_a;
    ct_xform x;            /* incident local -> reference local */
    ct_plane pr, pi;       /* reference plane; incident plane in the reference frame */
    ct_real spec;
    ct_vec3 rv[CT__SAT_FC], side[CT__SAT_FC], iv[CT__SAT_FC];
} ct__clip;

typedef struct ct__cand { ct_vec3 p; ct_real s; unsigned id; } ct__cand;

CT__INLINE ct_vec3 ct__clip_rv(const ct__clip *c, int k) {
    if (k < CT__SAT_FC) return c->rv[k];
    return c->ref->verts[c->ref->face_verts[c->ref->face_first[c->fr] + k]];
}
CT__INLINE ct_vec3 ct__clip_iv(const ct__clip *c, int k) {
    if (k < CT__SAT_FC) return c->iv[k];
    return ct__xf_point(&c->x, c->inc->verts[c->inc->face_verts[c->inc->face_first[c->fi] + k]]);
}
/* Outward normal (not unit) of the side plane through reference edge k: for a face that is
   counter-clockwise about n, edge x n points out of the face. */
CT__INLINE ct_vec3 ct__clip_side(const ct__clip *c, int k) {
    if (k < CT__SAT_FC) return c->side[k];
    return ct__cross(ct__sub(ct__clip_rv(c, k + 1 == c->nr ? 0 : k + 1), ct__clip_rv(c, k)), c->pr.n);
}

CT__PRIVATE void ct__clip_init(ct__clip *c, const ct_hull *ref, int fr, const ct_hull *inc, int fi,
                               const ct_xform *x, int ref_is_a, ct_real spec) {
    int k;
    c->ref = ref; c->inc = inc; c->fr = fr; c->fi = fi; c->x = *x;
    c->ref_is_a = ref_is_a; c->spec = spec;
    c->nr = ref->face_first[fr + 1] - ref->face_first[fr];
    c->ni = inc->face_first[fi + 1] - inc->face_first[fi];
    c->pr = ref->planes[fr];
    c->pi = ct__xf_plane(x, inc->planes[fi]);
    for (k = 0; k < c->nr && k < CT__SAT_FC; ++k) c->rv[k] = ref->verts[ref->face_verts[ref->face_first[fr] + k]];
    for (k = 0; k < c->ni && k < CT__SAT_FC; ++k)
        c->iv[k] = ct__xf_point(x, inc->verts[inc->face_verts[inc->face_first[fi] + k]]);
    for (k = 0; k < c->nr && k < CT__SAT_FC; ++k)
        c->side[k] = ct__cross(ct__sub(ct__clip_rv(c, k + 1 == c->nr ? 0 : k + 1), c->rv[k]), c->pr.n);
}

/* Feature keys as (A, B) whatever the reference side. */
CT__INLINE unsigned ct__clip_id(const ct__clip *c, unsigned kref, unsigned kinc) {
    return c->ref_is_a ? ct__sat_id(kref, kinc) : ct__sat_id(kinc, kref);
}

/* The reduction to CT_MANIFOLD_MAX points (Box3D's order): the deepest point, the point
   farthest from it in the contact plane, the one making the largest triangle with both, the
   one adding the most area outside that triangle. Every choice is an argmax under a total
   order (score, then the smaller id), so it depends on the set of candidates, not on the
   order in which they are visited. */
typedef struct ct__red {
    int mode, count;
    ct_vec3 n;
    ct_real tol;           /* lengths below this count as zero */
    ct__cand first[CT__SAT_KEEP], pick[CT_MANIFOLD_MAX], best;
    ct_real score;
    int have, npick;
    ct_real sign;
} ct__red;

CT__INLINE ct_real ct__red_score(const ct__red *r, const ct__cand *k) {
    const ct__cand *p = r->pick;
    ct_vec3 d, ba;
    switch (r->mode) {
    case 0: return -k->s;
    case 1:
        d = ct__sub(k->p, p[0].p);
        return ct__len2(ct__madd(d, r->n, -ct__dot(d, r->n)));
    case 2:
        ba = ct__sub(p[1].p, p[0].p);
        return ct__abs(ct__dot(r->n, ct__cross(ba, ct__sub(k->p, p[0].p))));
    default: {
        /* area added outside the triangle: the largest signed area over its three edges */
        ct_real u1 = ct__dot(r->n, ct__cross(ct__sub(p[1].p, p[0].p), ct__sub(k->p, p[0].p)));
        ct_real u2 = ct__dot(r->n, ct__cross(ct__sub(p[2].p, p[1].p), ct__sub(k->p, p[1].p)));
        ct_real u3 = ct__dot(r->n, ct__cross(ct__sub(p[0].p, p[2].p), ct__sub(k->p, p[2].p)));
        return ct__max(-r->sign * u1, ct__max(-r->sign * u2, -r->sign * u3));
    }
    }
}

CT__PRIVATE void ct__red_visit(ct__red *r, const ct__cand *k) {
    ct_real sc;
    int i;
    if (r->mode == 0) {
        if (r->count < CT__SAT_KEEP) r->first[r->count] = *k;
        r->count++;
    } else {
        for (i = 0; i < r->npick; ++i)
            if (r->pick[i].id == k->id) return;
    }
    sc = ct__red_score(r, k);
    if (!r->have || sc > r->score || (sc == r->score && k->id < r->best.id)) {
        r->have = 1; r->score = sc; r->best = *k;
    }
}

/* Side-plane distance of reference edge j to point p (not normalised: only signs and ratios
   are used). */
CT__INLINE ct_real ct__clip_sd(const ct__clip *c, int j, ct_vec3 p) {
    return ct__dot(ct__clip_side(c, j), ct__sub(p, ct__clip_rv(c, j)));
}
/* The distances of p to all side planes: the first CT__SAT_FC stored, the rest on demand. */
CT__INLINE void ct__clip_row(const ct__clip *c, ct_vec3 p, ct_real *d) {
    int j;
    for (j = 0; j < c->nr && j < CT__SAT_FC; ++j) d[j] = ct__clip_sd(c, j, p);
}
CT__INLINE ct_real ct__clip_get(const ct__clip *c, const ct_real *d, int j, ct_vec3 p) {
    return j < CT__SAT_FC ? d[j] : ct__clip_sd(c, j, p);
}

/* Visits every candidate of the clipped polygon. Each incident vertex's side distances are
   computed once; a crossing point's distances to the other planes are interpolated along
   its edge (the distances are affine). */
CT__PRIVATE void ct__clip_enum(const ct__clip *c, ct__red *r) {
    const ct_hull *R = c->ref, *I = c->inc;
    int i, j, k, fir = R->face_first[c->fr], fii = I->face_first[c->fi];
    ct_vec3 n = c->pr.n, p0, p1;
    ct_real da[CT__SAT_FC], db[CT__SAT_FC], *d0 = da, *d1 = db, den;
    ct_vec3 en[CT__SAT_FC];
    ct__cand cd;
    p1 = ct__clip_iv(c, 0);
    ct__clip_row(c, p1, d1);
    for (i = 0; i < c->ni; ++i) {
        ct_real *t = d0;
        d0 = d1; d1 = t;
        p0 = p1;
        p1 = ct__clip_iv(c, i + 1 == c->ni ? 0 : i + 1);
        ct__clip_row(c, p1, d1);
        /* (0) incident vertex i inside the reference face's prism */
        for (j = 0; j < c->nr; ++j)
            if (ct__clip_get(c, d0, j, p0) > 0) break;
        if (j == c->nr) {
            cd.s = ct__dot(n, p0) + c->pr.d;
            if (cd.s <= c->spec) {
                cd.p = ct__madd(p0, n, -cd.s / 2);
                cd.id = ct__clip_id(c, ct__sat_key(CT__KEY_FACE, c->fr), ct__sat_key(CT__KEY_VERT, I->face_verts[fii + i]));
                ct__red_visit(r, &cd);
            }
        }
        /* (1) incident edge i crossing side plane j, inside the other side planes */
        for (j = 0; j < c->nr; ++j) {
            ct_real a0 = ct__clip_get(c, d0, j, p0), a1 = ct__clip_get(c, d1, j, p1), tt;
            if ((a0 <= 0) == (a1 <= 0)) continue;
            tt = a0 / (a0 - a1);
            for (k = 0; k < c->nr; ++k) {
                ct_real b0, b1;
                if (k == j) continue;
                b0 = ct__clip_get(c, d0, k, p0);
                b1 = ct__clip_get(c, d1, k, p1);
                if (b0 + tt * (b1 - b0) > 0) break;
            }
            if (k < c->nr) continue;
            cd.p = ct__lerp(p0, p1, tt);
            cd.s = ct__dot(n, cd.p) + c->pr.d;
            if (cd.s > c->spec) continue;
            cd.p = ct__madd(cd.p, n, -cd.s / 2);
            cd.id = ct__clip_id(c, ct__sat_edge_key(R, fir + j), ct__sat_edge_key(I, fii + i));
            ct__red_visit(r, &cd);
        }
    }
    /* (2) reference vertices inside the incident face, projected onto it along n. The incident
       face is counter-clockwise about its own normal, i.e. about -n, so n x edge points out. */
    den = ct__dot(c->pi.n, n);
    if (!(den < 0)) return;
    for (i = 0; i < c->ni && i < CT__SAT_FC; ++i) /* the incident edges' outward normals, once */
        en[i] = ct__cross(n, ct__sub(ct__clip_iv(c, i + 1 == c->ni ? 0 : i + 1), ct__clip_iv(c, i)));
    for (j = 0; j < c->nr; ++j) {
        ct_vec3 v = ct__clip_rv(c, j);
        for (i = 0; i < c->ni; ++i) {
            ct_vec3 q0 = ct__clip_iv(c, i);
            ct_vec3 e = i < CT__SAT_FC ? en[i] : ct__cross(n, ct__sub(ct__clip_iv(c, i + 1 == c->ni ? 0 : i + 1), q0));
            if (ct__dot(e, ct__sub(v, q0)) > 0) break;
        }
        if (i < c->ni) continue;
        cd.s = -(ct__dot(c->pi.n, v) + c->pi.d) / den;
        if (!(cd.s <= c->spec)) continue;
        cd.p = ct__madd(v, n, cd.s / 2);
        cd.id = ct__clip_id(c, ct__sat_key(CT__KEY_VERT, R->face_verts[fir + j]), ct__sat_key(CT__KEY_FACE, c->fi));
        ct__red_visit(r, &cd);
    }
}

/* Runs the reduction over the candidates of the clip c, or (c NULL) over the array arr[0..narr)
   in the contact plane normal to n; returns the number of points kept in pts. */
CT__PRIVATE int ct__red_reduce(const ct__clip *c, const ct__cand *arr, int narr, ct_vec3 n, ct_real L, ct__cand *pts) {
    ct__red r;
    int i;
    memset(&r, 0, sizeof r);
    r.n = n;
    r.tol = CT__SAT_REDUCE_TOL * L;
    if (c) ct__clip_enum(c, &r);
    else for (i = 0; i < narr; ++i) ct__red_visit(&r, &arr[i]);
    if (r.count <= CT_MANIFOLD_MAX) {
        for (i = 0; i < r.count; ++i) pts[i] = r.first[i];
        return r.count;
    }
    r.pick[0] = r.best;
    r.npick = 1;
    for (r.mode = 1; r.mode < CT_MANIFOLD_MAX; ++r.mode) {
        ct_real need;
        r.have = 0;
        if (r.count <= CT__SAT_KEEP)
            for (i = 0; i < r.count; ++i) ct__red_visit(&r, &r.first[i]);
        else if (c)
            ct__clip_enum(c, &r);
        else
            for (i = 0; i < narr; ++i) ct__red_visit(&r, &arr[i]);
        if (r.mode == 1) need = r.tol * r.tol;
        else need = r.tol * ct__len(ct__sub(r.pick[1].p, r.pick[0].p));
        if (!r.have || !(r.score > need)) break;
        if (r.mode == 2) {
            ct_vec3 ba = ct__sub(r.pick[1].p, r.pick[0].p);
            r.sign = ct__dot(r.n, ct__cross(ba, ct__sub(r.best.p, r.pick[0].p))) < 0 ? -1 : 1;
        }
        r.pick[r.npick++] = r.best;
    }
    for (i = 0; i < r.npick; ++i) pts[i] = r.pick[i];
    return r.npick;
}
CT__INLINE int ct__clip_reduce(const ct__clip *c, ct_real L, ct__cand *pts) { return ct__red_reduce(c, NULL, 0, c->pr.n, L, pts); }

/* The incident face: among the faces around the incident hull's deepest vertex v, the most
   anti-parallel to the reference normal (dir, in the incident frame). The globally most
   anti-parallel face can be far from the contact on a wedge; the faces at v cannot. Faces are
   ranked by (dot, index); this returns the first one ranked after (*pd, *pf) (pass *pf = -1
   for the best), or -1 when none is left. */
CT__PRIVATE int ct__sat_incident(const ct_hull *h, int v, ct_vec3 dir, ct_real *pd, int *pf) {
    int e0 = h->vert_edge[v], e = e0, best = -1, guard = h->face_first[h->nfaces];
    ct_real bd = 0;
    do {
        int f = h->he_face[e];
        ct_real x = ct__dot(h->planes[f].n, dir);
        if ((*pf < 0 || x > *pd || (x == *pd && f > *pf)) && (best < 0 || x < bd || (x == bd && f < best))) {
            bd = x;
            best = f;
        }
        e = h->he_next[h->he_twin[e]];
    } while (e != e0 && --guard > 0);
    *pd = bd;
    *pf = best;
    return best;
}

/* Sorts by id (insertion sort, at most CT_MANIFOLD_MAX entries) and writes world output. */
CT__PRIVATE void ct__sat_emit(ct__cand *pts, int n, const ct_xform *x, ct_vec3 normal, ct_manifold *out) {
    int i, j;
    CT_ASSERT(n >= 0 && n <= CT_MANIFOLD_MAX);
    for (i = 1; i < n; ++i) {
        ct__cand t = pts[i];
        for (j = i; j > 0 && pts[j - 1].id > t.id; --j) pts[j] = pts[j - 1];
        pts[j] = t;
    }
    for (i = 1; i < n; ++i) CT_ASSERT(pts[i - 1].id <= pts[i].id);
    if (n == 0) return; /* no contact: the manifold stays zero */
    out->normal = ct__xf_dir(x, normal);
    out->count = n;
    for (i = 0; i < n; ++i) {
        out->points[i].point = ct__xf_point(x, pts[i].p);
        out->points[i].separation = pts[i].s;
        out->points[i].id = pts[i].id;
    }
}

/* out->deepest: the index of the least separation (first on ties). */
CT__PRIVATE void ct__manifold_deepest(ct_manifold *out) {
    int i;
    out->deepest = 0;
    for (i = 1; i < out->count; ++i)
        if (out->points[i].separation < out->points[out->deepest].separation) out->deepest = i;
}

/* Face contact with the reference face on A (ref_a) or on B. The incident face is tried in
   the order of ct__sat_incident: when the best one misses the reference face's prism (the
   deepest vertex sits just outside it), a neighbour around that vertex crosses it. If none
   does and the hulls overlap, the deepest vertex alone is the contact; hulls apart whose
   faces do not face each other have no contact yet. */
CT__PRIVATE void ct__sat_face_contact(const ct__sat *s, const ct__satq *q, int ref_a, const ct_xform *xa,
                                      const ct_xform *xb, ct_manifold *out) {
    ct__clip c;
    ct__cand pts[CT_MANIFOLD_MAX];
    ct_xform inv;
    const ct_hull *ref = ref_a ? s->a : s->b, *inc = ref_a ? s->b : s->a;
    const ct_xform *x = ref_a ? &s->rel : &inv;
    int n = 0, fi = -1, fr = ref_a ? q->fa : q->fb, v = ref_a ? q->vb : q->va;
    ct_real pd = 0;
    ct_vec3 dir;
    ct_plane pr = ref->planes[fr];
    if (!ref_a) inv = ct__xf_rel(&s->rel, NULL); /* the inverse */
    dir = ct__xf_inv_dir(x, ref->planes[fr].n);
    while (n == 0 && ct__sat_incident(inc, v, dir, &pd, &fi) >= 0) {
        ct__clip_init(&c, ref, fr, inc, fi, x, ref_a, s->spec);
        n = ct__clip_reduce(&c, s->L, pts);
    }
    if (n == 0 && (ref_a ? q->sa : q->sb) <= 0) {
        ct_vec3 p = ct__xf_point(x, inc->verts[v]);
        unsigned kf = ct__sat_key(CT__KEY_FACE, fr), kv = ct__sat_key(CT__KEY_VERT, v);
        pts[0].s = ct__dot(pr.n, p) + pr.d;
        if (!(pts[0].s <= s->spec)) return;
        pts[0].p = ct__madd(p, pr.n, -pts[0].s / 2);
        pts[0].id = ref_a ? ct__sat_id(kf, kv) : ct__sat_id(kv, kf);
        n = 1;
    }
    ct__sat_emit(pts, n, ref_a ? xa : xb, ref_a ? pr.n : ct__neg(pr.n), out);
}

/* Edge contact: one point midway between the closest points of the two edges (Ericson 5.1.9
   for lines; the SAT guarantees they are not parallel). Returns 0 when the closest points
   fall outside either segment (then the caller uses the face contact). The separation is the
   query's q->se, the value that decided "within speculative", not ne.(c2 - c1): the two are
   the same distance between the edges' lines and equally accurate (a few ulps of L), but
   rounded differently, and the recomputed one exceeded speculative by an ulp in 5% of the
   contacts whose separation equals it. */
CT__PRIVATE int ct__sat_edge_contact(const ct__sat *s, const ct__satq *q, const ct_xform *xa, ct_manifold *out) {
    const ct_hull *A = s->a, *B = s->b;
    ct_vec3 p1 = A->verts[A->face_verts[q->ea]], q1 = A->verts[A->face_verts[A->he_next[q->ea]]];
    ct_vec3 p2 = ct__xf_point(&s->rel, B->verts[B->face_verts[q->eb]]);
    ct_vec3 q2 = ct__xf_point(&s->rel, B->verts[B->face_verts[B->he_next[q->eb]]]);
    ct_vec3 d1 = ct__sub(q1, p1), d2 = ct__sub(q2, p2), r = ct__sub(p1, p2), c1, c2;
    ct_real a = ct__dot(d1, d1), e = ct__dot(d2, d2), f = ct__dot(d2, r), c = ct__dot(d1, r);
    ct_real b = ct__dot(d1, d2), den = a * e - b * b, t1, t2, tol = CT__SAT_MARGIN * CT__EPS;
    ct__cand pt;
    if (!(den > 0) || !(e > 0)) return 0;
    t1 = (b * f - c * e) / den;
    t2 = (b * t1 + f) / e;
    if (!(t1 >= -tol && t1 <= 1 + tol && t2 >= -tol && t2 <= 1 + tol)) return 0;
    t1 = ct__clamp(t1, 0, 1);
    t2 = ct__clamp(t2, 0, 1);
    c1 = ct__madd(p1, d1, t1);
    c2 = ct__madd(p2, d2, t2);
    pt.s = q->se;
    pt.p = ct__scale(ct__add(c1, c2), (ct_real)0.5);
    pt.id = ct__sat_id(ct__sat_edge_key(A, q->ea), ct__sat_edge_key(B, q->eb));
    ct__sat_emit(&pt, 1, xa, q->ne, out);
    return 1;
}

/* A hull as ct_hull_build / ct__hull_assemble make it: the contents are trusted, the shape of
   the struct is checked (a zeroed or half-filled struct is rejected, not dereferenced). */
CT__PRIVATE int ct__sat_hull_ok(const ct_hull *h) {
    /* built by the library: its contents were checked at build; only the struct's own fields
       (a copy whose arrays were taken away) are looked at, nothing behind its pointers */
    int arrays = h && h->verts && h->planes && h->face_first && h->face_verts && h->he_twin && h->he_next &&
                 h->he_face && h->vert_edge;
    if (arrays && h->ct__valid == CT__HULL_VALID) return h->nverts >= 3 && h->nfaces >= 2 && h->nedges >= 3;
    return arrays && h->nverts >= 3 && h->nfaces >= 2 && h->nedges >= 3 && h->face_first[h->nfaces] == 2 * h->nedges && ct__finite3(h->center) && ct__finite(h->extent) &&
           h->extent > 0;
}

/* The common setup of an entry point: relative transform, scale, margins, speculative. */
CT__PRIVATE void ct__sat_setup(ct__sat *s, const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                               const ct_xform *xb, ct_real spec) {
    s->a = a; s->b = b;
    s->rel = ct__xf_rel(xa, xb); /* NULL: identity */
    s->ca = a->center;
    s->cb = ct__xf_point(&s->rel, b->center);
    s->L = a->extent + b->extent;
    s->margin = CT__SAT_MARGIN * CT__EPS * (s->L + ct__len(s->rel.p));
    s->spec = spec;
    s->exact = 0;
}

/* Runs the query with the cache's hint (range-checked) and stores the outcome back. */
/* The separation along the cached axis alone (face of A, face of B, or an edge pair that
   builds a face of the Minkowski difference); 0 when the axis gives no bound. */
CT__PRIVATE int ct__sat_axis(const ct__sat *s, int type, int ia, int ib, ct_real *x) {
    int v;
    if (type == CT_SAT_FACE_A) { *x = ct__sat_face_a(s, ia, &v); return 1; }
    if (type == CT_SAT_FACE_B) { *x = ct__sat_face_b(s, ib, &v); return 1; }
    if (type == CT_SAT_EDGES) {
        ct__sat_row row;
        ct__sat_col col;
        ct_vec3 n;
        ct__sat_row_make(s, ia, &row);
        ct__sat_col_make(s->b, ib, &col);
        if (!ct__sat_edge(&row, &col, x, &n)) return 0;
        *x = ct__sat_edge_check(s, n, *x);
        return 1;
    }
    return 0;
}

/* 1 when (h->ctype, h->cia, h->cib) names an axis of these hulls (a cache from another pair
   is harmless: it is range-checked). */
CT__PRIVATE int ct__sat_hint_ok(const ct__sat *s, const ct__satq *h) {
    const ct_hull *a = s->a, *b = s->b;
    int t = h->ctype, ia = h->cia, ib = h->cib;
    int nha = a->face_first[a->nfaces], nhb = b->face_first[b->nfaces];
    return (t == CT_SAT_FACE_A && ia >= 0 && ia < a->nfaces) || (t == CT_SAT_FACE_B && ib >= 0 && ib < b->nfaces) ||
           (t == CT_SAT_EDGES && ia >= 0 && ia < nha && ib >= 0 && ib < nhb && a->he_twin[ia] > ia && b->he_twin[ib] > ib);
}

/* How far the relative transform has moved, since base, any point of B in A's frame and any
   point of A in B's frame (the larger): each centre's displacement plus the hull's extent times
   a bound on the spectral norm of the change of rotation D = R1 - R0. For rotations U0, U1,
   |U1 - U0|_2 = 2 sin(theta/2) = |U1 - U0|_F / sqrt 2 (U0^T U1 turns by theta about one axis);
   R0 and R1 are rotations up to E0, E1 (|E|_2 <= 7 CT__XF_TOL: each input transform's
   columns are orthonormal within CT__XF_TOL, and rel is their product), so |D|_2 <=
   (|D|_F + |E1 - E0|_F) / sqrt 2 + |E1 - E0|_2 <= |D|_F / sqrt 2 + 32 CT__XF_TOL. */
CT__PRIVATE ct_real ct__sat_motion(const ct__sat *s, const ct_xform *base) {
    ct_real f2 = 0, e, f;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) { e = s->rel.r[i][j] - base->r[i][j]; f2 += e * e; }
    f = ct__sqrt(f2 / 2) + 32 * CT__XF_TOL;
    return ct__max(ct__len(ct__sub(ct__xf_point(&s->rel, s->b->center), ct__xf_point(base, s->b->center))) + f * s->b->extent,
                   ct__len(ct__sub(ct__xf_inv_point(&s->rel, s->a->center), ct__xf_inv_point(base, s->a->center))) + f * s->a->extent);
}

/* 1 when edges[0..n) are canonical half-edges (he_twin[k] > k) of h. */
CT__PRIVATE int ct__sat_edges_ok(const ct_hull *h, const unsigned short *edges, int n) {
    int k, nh = h->face_first[h->nfaces];
    if (n < 0 || n > CT__SAT_LIVE) return 0;
    for (k = 0; k < n; ++k)
        if (edges[k] >= nh || h->he_twin[edges[k]] < edges[k]) return 0;
    return 1;
}

/* 1 when the cache holds a certificate (ct__ok 1) or a motion probe (2) of these hulls. */
CT__PRIVATE int ct__sat_cert_same(const ct__sat *s, const ct_sat_cache *c) {
    return (c->ct__ok == 1 || c->ct__ok == 2) && c->ct__key[0] == (const void *)s->a->planes &&
           c->ct__key[1] == (const void *)s->b->planes && c->ct__hash[0] == s->a->ct__hash &&
           c->ct__hash[1] == s->b->ct__hash;
}

/* 1 when list[0..n) are faces of h. */
CT__PRIVATE int ct__sat_faces_ok(const ct_hull *h, const unsigned short *list, int n) {
    int k;
    if (n < 0 || n > CT__SAT_LIST) return 0;
    for (k = 0; k < n; ++k)
        if (list[k] >= h->nfaces) return 0;
    return 1;
}

/* The query answered from the cache's certificate (see ct__sat_cert), the motion since it was
   made plus the rounding allowance being slack: 1 with q filled as the full query fills it, 0
   when the certificate is not conclusive at this pose. */
CT__PRIVATE int ct__sat_cert_query(const ct__sat *s, const ct_sat_cache *c, ct_real slack, ct__satq *q) {
    const ct_hull *A = s->a, *B = s->b;
    ct__sat_col cols[CT__SAT_LIVE];
    ct__sat_colsoa soa;
    ct_real x, thr;
    int k, v;
    if (c->ct__nla < 1 || !ct__sat_faces_ok(A, c->ct__la, c->ct__nla) || !ct__sat_faces_ok(B, c->ct__lb, c->ct__nlb) ||
        !ct__sat_edges_ok(A, c->ct__rows, c->ct__nrows) || !ct__sat_edges_ok(B, c->ct__cols, c->ct__ncols))
        return 0;
    memset(q, 0, sizeof *q);
    q->fa = q->fb = q->ea = q->eb = -1;
    q->sa = q->sb = q->se = -CT__MAXR;
    /* A's best face: the best listed one, when every face not listed stays below it */
    for (k = 0; k < c->ct__nla; ++k) {
        int i = c->ct__la[k];
        x = ct__sat_face_a(s, i, &v);
        if (x > s->spec) { ct__sat_separated(q, CT_SAT_FACE_A, i, 0); return 1; }
        if (ct__sat_better(x, i, q->sa, q->fa)) { q->sa = x; q->fa = i; q->vb = v; }
    }
    if (!(c->ct__g[0] + slack < q->sa)) return 0;
    /* B's: the best listed one wins B's group when it beats the threshold and every face not
       listed stays below it; or no face of B reaches the threshold */
    thr = ct__min(q->sa + ct__sat_face_tol(s, q->sa), s->spec);
    for (k = 0; k < c->ct__nlb; ++k) {
        int j = c->ct__lb[k];
        x = ct__sat_face_b(s, j, &v);
        if (x > s->spec) { ct__sat_separated(q, CT_SAT_FACE_B, 0, j); return 1; }
        if (ct__sat_better(x, j, q->sb, q->fb)) { q->sb = x; q->fb = j; q->va = v; }
    }
    if (q->fb >= 0 && q->sb > thr ? !(c->ct__g[1] + slack < q->sb) : !(c->ct__g[1] + slack <= thr)) return 0;
    q->type = (q->fb >= 0 && q->sb > q->sa + ct__sat_face_tol(s, q->sa)) ? CT_SAT_FACE_B : CT_SAT_FACE_A;
    x = q->type == CT_SAT_FACE_B ? q->sb : q->sa;
    /* the live edge pairs exactly; every other pair stays below the threshold, or the best */
    thr = ct__min(x + ct__sat_edge_tol(s, x), s->spec);
    for (k = 0; k < c->ct__ncols; ++k) ct__sat_col_add(B, c->ct__cols[k], cols, &soa, k);
    for (k = 0; k < c->ct__nrows; ++k)
        if (ct__sat_edge_row(s, c->ct__rows[k], cols, &soa, c->ct__ncols, thr, q)) return 1;
    if (q->ea >= 0 ? !(c->ct__g[2] + slack < q->se) : !(c->ct__g[2] + slack <= thr)) return 0;
    ct__sat_query_end(s, q);
    return 1;
}

/* The faces of one hull (of B when side, else of A; entries e, exactness ex, over: the largest
   entry beyond CT__SAT_CE) a certificate lists: the group's best (first, when >= 0), then those
   whose value is at or above level, at most CT__SAT_LIST: candidates in decreasing order of
   their entries, a bound evaluated exactly when it gets there (fewer listed, each of those
   evaluated on every later call). Returns their count and the largest entry not listed in *g,
   or -1 when an index does not fit the cache. */
CT__PRIVATE int ct__sat_cert_list(const ct__sat *s, int side, const ct_real *e, const unsigned char *ex, ct_real over,
                                  int first, ct_real level, unsigned short *list, ct_real *g) {
    int cand[CT__SAT_CE];
    int k, j, v, m = 0, nc = 0, n = ct__imin(side ? s->b->nfaces : s->a->nfaces, CT__SAT_CE);
    *g = over;
    if (first > 65535) return -1;
    if (first >= 0) list[m++] = (unsigned short)first;
    for (k = 0; k < n; ++k) {
        if (k == first) continue;
        if (!(e[k] >= level)) { *g = ct__max(*g, e[k]); continue; }
        for (j = nc++; j > 0 && e[cand[j - 1]] < e[k]; --j) cand[j] = cand[j - 1];
        cand[j] = k;
    }
    for (k = 0; k < nc; ++k) {
        int f = cand[k];
        ct_real x = e[f];
        if (m == CT__SAT_LIST) { *g = ct__max(*g, x); break; }   /* the rest are no larger */
        if (!ex[f]) x = side ? ct__sat_face_b(s, f, &v) : ct__sat_face_a(s, f, &v);
        if (!(x >= level)) { *g = ct__max(*g, x); continue; }
        if (f > 65535) return -1;
        list[m++] = (unsigned short)f;
    }
    return m;
}

/* Keeps a full query's certificate in the cache (or marks it absent). */
CT__PRIVATE void ct__sat_cert_store(const ct__sat *s, ct_sat_cache *c, const ct__satq *q, ct__sat_cert *ce,
                                    int wait) {
    int k;
    /* a separated pair is answered by its cached axis: nothing to keep */
    if (q->separated) { c->ct__ok = 0; return; }
    /* without a certificate (ce NULL: a query that kept none) the cache still measures the
       motion (a probe), and keeps one after wait calls */
    c->ct__ok = 2;
    c->ct__room = 0;
    c->ct__wait = wait;
    c->ct__calls = 0;
    c->ct__hits = 0;
    c->ct__rel = s->rel;
    c->ct__key[0] = s->a->planes;
    c->ct__key[1] = s->b->planes;
    c->ct__hash[0] = s->a->ct__hash;
    c->ct__hash[1] = s->b->ct__hash;
    if (!ce || !ce->ok || q->fa < 0) return;
    {   /* the decisions at this pose and the lead of each over what it did not list (what
           ct__sat_cert_query checks) */
        ct_real ta = q->sa + ct__sat_face_tol(s, q->sa), tb = ct__min(ta, s->spec);
        int fb = q->fb >= 0 && q->sb > tb ? q->fb : -1;
        ct_real x = q->fb >= 0 && q->sb > ta ? q->sb : q->sa, te = ct__min(x + ct__sat_edge_tol(s, x), s->spec), room;
        int na = ct__sat_cert_list(s, 0, ce->ea, ce->xa, ce->over_a, q->fa, q->sa - ce->lead, c->ct__la, &c->ct__g[0]);
        int nb = ct__sat_cert_list(s, 1, ce->eb, ce->xb, ce->over_b, fb, (fb >= 0 ? q->sb : tb) - ce->lead, c->ct__lb, &c->ct__g[1]);
        if (na < 0 || nb < 0) return;
        c->ct__nla = na;
        c->ct__nlb = nb;
        room = q->sa - c->ct__g[0];
        room = ct__min(room, fb >= 0 ? q->sb - c->ct__g[1] : tb - c->ct__g[1]);
        c->ct__g[2] = ce->ge;
        /* more live edges than the cache holds: those of the least bounds go under gE */
        ct__sat_cert_trim(ce->rows, ce->rbound, &ce->nrows, &c->ct__g[2]);
        ct__sat_cert_trim(ce->cols, ce->cbound, &ce->ncols, &c->ct__g[2]);
        room = ct__min(room, (q->ea >= 0 ? q->se : te) - c->ct__g[2]);
        c->ct__nrows = ce->nrows;
        c->ct__ncols = ce->ncols;
        for (k = 0; k < ce->nrows; ++k) c->ct__rows[k] = (unsigned short)ce->rows[k];
        for (k = 0; k < ce->ncols; ++k) c->ct__cols[k] = (unsigned short)ce->cols[k];
        if (room > 2 * s->margin) { c->ct__ok = 1; c->ct__room = room; }
    }
}

/* The query with the cache's hint; with cert (ct_manifold_hulls) the certificate answers
   first and a full query leaves a new one. */
CT__PRIVATE void ct__sat_cached_query(const ct__sat *s, ct_sat_cache *cache, ct__satq *q, int cert) {
    ct__satq h;
    h.ctype = CT_SAT_NONE; h.cia = h.cib = 0;
    if (cache) { h.ctype = (int)cache->type; h.cia = cache->index_a; h.cib = cache->index_b; }
    ct__sat_box ba, bb;
    ct_real x;
    if (!ct__sat_hint_ok(s, &h)) { h.ctype = CT_SAT_NONE; h.cia = h.cib = 0; }
    if (s->a->nfaces == 6 && s->b->nfaces == 6 && ct__sat_box_of(s->a, &ba) && ct__sat_box_of(s->b, &bb)) {
        /* the cached axis first, as the general query does: one that still separates answers */
        if (h.ctype != CT_SAT_NONE && ct__sat_axis(s, h.ctype, h.cia, h.cib, &x) && x > s->spec) {
            memset(q, 0, sizeof *q);
            ct__sat_separated(q, h.ctype, h.cia, h.cib);
            return;
        }
        ct__sat_query_boxes(s, &ba, &bb, q);
        return;
    }
    if (cert && cache && s->a->ct__valid == CT__HULL_VALID && s->b->ct__valid == CT__HULL_VALID) {
        ct__sat_cert ce;
        int track = 0, same = ct__sat_cert_same(s, cache);
        ct_real step = 0, lead = 0;
        if (same) {
            /* every bound moves by at most the motion; twice the margin covers the rounding
               of the values the full query would compute at this pose */
            ct_real motion = ct__sat_motion(s, &cache->ct__rel), slack = motion + 2 * s->margin;
            int calls = cache->ct__calls < 1000000 ? ++cache->ct__calls : cache->ct__calls;
            /* the motion per call: a maximum that decays by CT__SAT_STEP_DECAY per call (the
               motion since the pose over the calls since understates a body that turned back,
               and a single call can stand still) */
            ct_real now = motion / (ct_real)calls;
            step = ct__max(now, CT__SAT_STEP_DECAY * cache->ct__step);
            cache->ct__step = step;
            /* a motion beyond the lead the certificate had when it was made would rarely leave
               it conclusive: the full query is cheaper than finding that out */
            if (cache->ct__ok == 1 && slack < cache->ct__room && ct__sat_cert_query(s, cache, slack, q)) {
                cache->ct__hits += cache->ct__hits < 1000000;
                return;
            }
            /* a new certificate is made at once when the last one answered CT__SAT_CERT_PAYS
               calls, else after CT__SAT_CERT_RETRY calls and more without (the motion may slow
               down) */
            if (cache->ct__ok == 1) {
                /* each certificate in a row that did not pay doubles the wait */
                track = cache->ct__hits >= CT__SAT_CERT_PAYS;
                cache->ct__retry = track ? CT__SAT_CERT_RETRY : ct__imin(2 * ct__imax(cache->ct__retry, CT__SAT_CERT_RETRY / 2), CT__SAT_CERT_WAIT);
                cache->ct__wait = cache->ct__retry;
                cache->ct__slow = track ? 0 : step;
            } else {
                /* waiting: a pair that slowed down to a quarter of the motion at which its
                   last certificate did not pay tries again at once */
                track = --cache->ct__wait <= 0 || (cache->ct__slow > 0 && step < cache->ct__slow / 4);
                if (track) cache->ct__slow = 0;
            }
            if (track) {
                /* listed candidates for CT__SAT_CERT_LEAD calls at the motion per call so far */
                lead = ct__min(ct__max(CT__SAT_CERT_LEAD * step, ct__min(CT__SAT_CERT_MIN * s->L, CT__SAT_CERT_SLOW * step)),
                               CT__SAT_CERT_MAX * s->L);
                /* a lead set by the motion leaves a certificate about lead / step - 1 answered
                   calls; when that lead is also large (more than twice the least, so it lists
                   many candidates) the certificate costs more than its two or three calls save:
                   none is made, and the next call looks again (the motion may slow down).
                   Measured on the 10,000-hull scene (instructions per step, see
                   CT__SAT_CERT_PAYS) */
                if (lead < (CT__SAT_CERT_PAYS + 1) * step && lead > 2 * CT__SAT_CERT_MIN * s->L) {
                    track = 0;
                    cache->ct__wait = 1;
                }
            }
            if (!track) { cache->ct__ok = 2; cache->ct__rel = s->rel; cache->ct__calls = 0; }
        }
        if (track) {
            int k;
            for (k = 0; k < ct__imin(s->a->nfaces, CT__SAT_CE); ++k) { ce.ea[k] = CT__MAXR; ce.xa[k] = 0; }
            for (k = 0; k < ct__imin(s->b->nfaces, CT__SAT_CE); ++k) { ce.eb[k] = CT__MAXR; ce.xb[k] = 0; }
            ce.over_a = ce.over_b = ce.ge = -CT__MAXR;
            ce.lead = lead;
            ce.nrows = ce.ncols = 0;
            ce.ok = 1;
            ct__sat_query(s, h.ctype, h.cia, h.cib, q, &ce);
            ct__sat_cert_store(s, cache, q, &ce, CT__SAT_CERT_WAIT);
            return;
        }
        ct__sat_query(s, h.ctype, h.cia, h.cib, q, NULL);
        /* a pair met for the first time keeps a certificate from its second call on: one
           call alone never pays for the bookkeeping */
        if (!same) { ct__sat_cert_store(s, cache, q, NULL, 1); cache->ct__step = cache->ct__slow = 0; }
        return;
    }
    ct__sat_query(s, h.ctype, h.cia, h.cib, q, NULL);
}

CT__PRIVATE void ct__sat_cache_store(ct_sat_cache *cache, const ct__satq *q) {
    if (!cache) return;
    cache->type = (ct_sat_feature)q->ctype;
    cache->index_a = q->cia;
    cache->index_b = q->cib;
}

/* The manifold of a query that did not separate. */
CT__PRIVATE void ct__sat_manifold(const ct__sat *s, ct__satq *q, const ct_xform *xa, const ct_xform *xb,
                                  ct_manifold *out) {
    int done = 0;
    /* Edge closest points outside the segments: hulls apart along an edge axis whose closest
       features are not these edges have no contact yet; overlapping ones (only by round-off)
       fall back to the face. */
    if (q->type == CT_SAT_EDGES) done = ct__sat_edge_contact(s, q, xa, out) || q->se > 0;
    if (!done) {
        int ref_a = !(q->fb >= 0 && q->sb > q->sa + ct__sat_face_tol(s, q->sa));
        ct__sat_face_contact(s, q, ref_a, xa, xb, out);
        if (q->type == CT_SAT_EDGES) { q->ctype = ref_a ? CT_SAT_FACE_A : CT_SAT_FACE_B; q->cia = q->fa; q->cib = q->fb; }
    }
}

/* ---- the axis of least penetration (PFC's reduced resolution) ------------------------------
   For two convex polytopes the penetration depth (the least translation that separates them,
   EPA's answer) is minus the largest separation over the face normals of the Minkowski
   difference A - B: the face normals of A and of B and the cross products of the edge pairs
   whose Gauss arcs cross (Gregorius 2013; the same candidates as the manifold's query). With
   s->exact set the query keeps its pruning (bounds only skip candidates that cannot win) but
   drops the face/edge biases the manifold needs for stable reference faces, so it returns that
   exact argmax. hint[3] (type, index_a, index_b; range-checked, any values) seeds it and gets
   the winner back: the work changes with it, never the answer. Returns 1 when an axis separates
   by more than spec; else 0 with *sep the largest separation (<= spec), *n the axis (unit,
   A -> B, A's frame) and *ia, *ib support vertices of A along n and of B along -n (ids):
   their heights along n differ by -sep up to rounding. cache (NULL: none) seeds the query with
   its axis and keeps it, and its certificate answers as for the manifolds (ct__sat_cert_query:
   the bounds are the same with the biases at zero). */
CT__PRIVATE int ct__sat_least_axis(ct__sat *s, ct_sat_cache *cache, ct_real *sep, ct_vec3 *n, int *ia, int *ib) {
    const ct_hull *A = s->a, *B = s->b;
    ct__satq q;
    s->exact = 1;
    ct__sat_cached_query(s, cache, &q, 1);
    ct__sat_cache_store(cache, &q);
    if (q.separated) return 1;
    if (q.type == CT_SAT_FACE_A) {
        *n = A->planes[q.fa].n;
        *sep = q.sa;
        *ia = A->face_verts[A->face_first[q.fa]];
        *ib = q.vb;
    } else if (q.type == CT_SAT_FACE_B) {
        *n = ct__neg(ct__xf_dir(&s->rel, B->planes[q.fb].n));
        *sep = q.sb;
        *ia = q.va;
        *ib = B->face_verts[B->face_first[q.fb]];
    } else {   /* edge pair: the supports (the edges are, unless ct__sat_edge_check lowered sep) */
        *n = q.ne;
        *sep = q.se;
        *ia = ct__sat_support(A, q.ne);
        *ib = ct__sat_support(B, ct__xf_inv_dir(&s->rel, ct__neg(q.ne)));
    }
    return 0;
}

/* ---- rounded hulls ------------------------------------------------------------------------- */
/* Cores closer than this (times L) count as touching: the SAT manifold of the cores serves, and
   no normal is taken from a closest-point difference this short (Box2D v3 uses 0.1 x its
   linear slop the same way). */
#define CT__SAT_ROUND_SLOP (CT__FLOAT ? (ct_real)1e-3 : (ct_real)1e-5)
/* A face is parallel to the separating direction when 1 - cos(angle) is below this (0.01 rad). */
#define CT__SAT_ROUND_PAR ((ct_real)5e-5)

/* Rounded output from a core manifold: each point moves to the middle of the rounded surfaces
   and its separation loses ra + rb; points beyond the speculative distance are dropped. */
CT__PRIVATE void ct__sat_round_shift(ct_manifold *m, ct_real ra, ct_real rb, ct_real spec) {
    int i, n = 0;
    for (i = 0; i < m->count; ++i) {
        ct_manifold_point p = m->points[i];
        p.point = ct__madd(p.point, m->normal, (ra - rb) / 2);
        p.separation -= ra + rb;
        if (p.separation <= spec) m->points[n++] = p;
    }
    for (i = n; i < m->count; ++i) memset(&m->points[i], 0, sizeof m->points[i]);
    m->count = n;
    if (n == 0) m->normal = ct__v3(0, 0, 0);
}

/* Key of the feature of h spanned by the distinct vertex ids ids[0..n) of a GJK simplex: a
   vertex, the edge between two adjacent vertices, else (three or more) the face `face`. */
CT__PRIVATE unsigned ct__sat_round_key(const ct_hull *h, const int *ids, int n, int face) {
    int u[4], m = 0, i, j;
    for (i = 0; i < n; ++i) {
        for (j = 0; j < m && u[j] != ids[i]; ++j) {}
        if (j == m) u[m++] = ids[i];
    }
    if (m == 1) return ct__sat_key(CT__KEY_VERT, u[0]);
    if (m == 2) {
        int e0 = h->vert_edge[u[0]], e = e0, guard = h->face_first[h->nfaces];
        do {
            if (h->face_verts[h->he_next[e]] == u[1]) return ct__sat_edge_key(h, e);
            e = h->he_next[h->he_twin[e]];
        } while (e != e0 && --guard > 0);
    }
    return ct__sat_key(CT__KEY_FACE, face);
}

/* The closest features of the cores from a GJK run (A's frame): the unit normal n (A -> B),
   the distance d, the witness points, and the faces of A and of B around the support vertices
   most parallel to n and to -n (fa, fb) with those cosines (ca, cb). */
typedef struct ct__round {
    ct__gjk_run r;
    ct_vec3 n, pa, pb;
    ct_real d, ca, cb;
    int fa, fb;
} ct__round;

CT__PRIVATE void ct__sat_round_faces(const ct__sat *s, ct__round *g) {
    ct_vec3 nb = ct__xf_inv_dir(&s->rel, ct__neg(g->n));
    ct_real pd = 0;
    g->fa = g->fb = -1;
    ct__sat_incident(s->a, ct__sat_support(s->a, g->n), ct__neg(g->n), &pd, &g->fa);
    g->ca = -pd;
    pd = 0;
    ct__sat_incident(s->b, ct__sat_support(s->b, nb), ct__neg(nb), &pd, &g->fb);
    g->cb = -pd;
}

/* Cores apart (or touching cores whose SAT manifold found nothing): when a face of A or of B
   at the closest point is parallel to n (within CT__SAT_ROUND_PAR), the other hull's incident
   face is clipped against it, as for a resting box; otherwise (edge-edge, vertex-edge,
   vertex-vertex) one point midway between the rounded surfaces, keyed by the simplex's
   features. s->spec is the speculative distance widened by ra + rb. A face clip is kept when
   its deepest point is within acc of the core distance. */
CT__PRIVATE void ct__sat_round_apart(const ct__sat *s, const ct__round *g, ct_real ra, ct_real rb, ct_real spec,
                                     ct_real acc, const ct_xform *xa, const ct_xform *xb, ct_manifold *out) {
    const ct__simplex *sx = g->r.s;
    int i, ia[4], ib[4];
    if (g->ca >= 1 - CT__SAT_ROUND_PAR || g->cb >= 1 - CT__SAT_ROUND_PAR) {
        int ref_a = g->ca >= 1 - CT__SAT_ROUND_PAR && !(g->cb > g->ca + CT__SAT_ROUND_PAR / 4);
        ct__satq fq;
        ct_manifold m;
        memset(&fq, 0, sizeof fq);
        memset(&m, 0, sizeof m);
        if (ref_a) { fq.fa = g->fa; fq.sa = ct__sat_face_a(s, g->fa, &fq.vb); fq.fb = -1; }
        else { fq.fb = g->fb; fq.sb = ct__sat_face_b(s, g->fb, &fq.va); fq.fa = -1; }
        ct__sat_face_contact(s, &fq, ref_a, xa, xb, &m);
        /* the clip must hold the closest points (a face clip beside them is not the contact) */
        if (m.count > 0) {
            ct_real deepest = m.points[0].separation;
            for (i = 1; i < m.count; ++i) deepest = ct__min(deepest, m.points[i].separation);
            if (deepest <= g->d + acc) {
                *out = m;
                ct__sat_round_shift(out, ra, rb, spec);
                return;
            }
        }
    }
    for (i = 0; i < sx->n; ++i) { ia[i] = sx->v[i].ia; ib[i] = sx->v[i].ib; }
    out->normal = ct__xf_dir(xa, g->n);
    out->count = 1;
    out->points[0].point = ct__xf_point(xa, ct__scale(ct__add(ct__madd(g->pa, g->n, ra), ct__madd(g->pb, g->n, -rb)), (ct_real)0.5));
    out->points[0].separation = g->d - (ra + rb);
    out->points[0].id = ct__sat_id(ct__sat_round_key(s->a, ia, sx->n, g->fa), ct__sat_round_key(s->b, ib, sx->n, g->fb));
}

/* Cores overlapping or within the slop: the SAT manifold of the cores moved to the rounded
   surfaces. When it finds nothing (touching cores whose features do not face each other),
   the closest features give one point along the query's axis. */
CT__PRIVATE void ct__sat_round_touching(const ct__sat *s, ct_sat_cache *cache, ct__round *g, ct_real ra, ct_real rb,
                                        ct_real spec, const ct_xform *xa, const ct_xform *xb, ct_manifold *out) {
    ct__satq q;
    ct__sat_cached_query(s, cache, &q, 1);
    if (!q.separated) {
        ct__satq q2 = q;
        ct__sat_manifold(s, &q2, xa, xb, out);
        q.ctype = q2.ctype; q.cia = q2.cia; q.cib = q2.cib;
        ct__sat_round_shift(out, ra, rb, spec);
        if (out->count == 0) {
            if (g->r.overlap || !(g->d > 0)) {
                ct_real x = q.type == CT_SAT_FACE_A ? q.sa : (q.type == CT_SAT_FACE_B ? q.sb : q.se);
                g->d = ct__max(x, 0);
                g->n = q.type == CT_SAT_FACE_A ? s->a->planes[q.fa].n
                     : (q.type == CT_SAT_FACE_B ? ct__neg(ct__xf_dir(&s->rel, s->b->planes[q.fb].n)) : q.ne);
                ct__sat_round_faces(s, g);
            }
            if (g->d - (ra + rb) <= spec) ct__sat_round_apart(s, g, ra, rb, spec, ct__sat_edge_tol(s, g->d), xa, xb, out);
        }
    }
    ct__sat_cache_store(cache, &q);
}

/* Two boxes whose cores are apart: the closed-form SAT is cheaper than GJK and often exact.
   A face axis whose clip holds the deepest vertex of the other box at the axis's separation x
   has distance x (a separation is at most the distance, and that vertex is x above the face),
   and the clip is then what the GJK path builds (the face is parallel to the closest points'
   direction). Returns 0 (nothing written) when that does not hold: the caller runs GJK. */
CT__PRIVATE int ct__sat_round_boxes(const ct__sat *s, ct_real ra, ct_real rb, ct_real spec, const ct_xform *xa,
                                    const ct_xform *xb, ct_sat_cache *cache, ct_manifold *out) {
    ct__sat_box ba, bb;
    ct__satq q;
    ct_manifold m;
    ct_real x, deepest;
    int i;
    if (s->a->nfaces != 6 || s->b->nfaces != 6 || !ct__sat_box_of(s->a, &ba) || !ct__sat_box_of(s->b, &bb)) return 0;
    ct__sat_query_boxes(s, &ba, &bb, &q);
    if (q.separated) { ct__sat_cache_store(cache, &q); return 1; } /* apart beyond reach */
    x = q.type == CT_SAT_FACE_A ? q.sa : q.sb;
    if (q.type == CT_SAT_EDGES || !(x > CT__SAT_ROUND_SLOP * s->L)) return 0;
    memset(&m, 0, sizeof m);
    ct__sat_face_contact(s, &q, q.type == CT_SAT_FACE_A, xa, xb, &m);
    if (m.count == 0) return 0;
    deepest = m.points[0].separation;
    for (i = 1; i < m.count; ++i) deepest = ct__min(deepest, m.points[i].separation);
    if (!(deepest <= x + s->margin)) return 0;
    *out = m;
    ct__sat_round_shift(out, ra, rb, spec);
    ct__sat_cache_store(cache, &q);
    return 1;
}

/* Hulls that may be apart (the winning axis's separation x plus the biases by which the other
   axes may have lost is positive) whose manifold is empty or whose deepest point lies above
   max(x, 0) (when apart, x <= distance <= deepest, so an equal pair pins the distance) may
   have missed the closest features: the SAT's face clip can leave every point beyond
   speculative while the distance is within it, an edge axis can name edges whose closest
   points are off the segments, and a face axis can win by its bias over the edge pair that
   separates the hulls. GJK (cold, so the cache does not change the answer) gives the
   distance: within speculative, the manifold comes from the closest features (Box2D v3): the
   clip of a face parallel to the normal if its deepest point is the distance, else one point
   at the distance. Only the clip accepted here and the SAT clip already pinned reach the
   output, so the deepest separation is the distance (within CT__SAT_EXACT) when apart. */
#define CT__SAT_EXACT ((ct_real)1024 * CT__EPS)   /* x L: the distance pinned, GJK's accuracy */
CT__PRIVATE void ct__sat_closest_features(const ct__sat *s, const ct__satq *q, const ct_xform *xa,
                                          const ct_xform *xb, ct_manifold *out) {
    ct_shape sa = ct_shape_hull(s->a), sb = ct_shape_hull(s->b);
    ct_real x = q->type == CT_SAT_FACE_A ? q->sa : (q->type == CT_SAT_FACE_B ? q->sb : q->se);
    ct_real tol = CT__SAT_EXACT * s->L, deepest = CT__MAXR;
    ct__round g;
    int i;
    /* the signed distance is at most x plus the bias by which another axis lost */
    if (!(x + ct__sat_face_tol(s, x) + ct__sat_edge_tol(s, x) + s->margin > 0)) return;
    for (i = 0; i < out->count; ++i) deepest = ct__min(deepest, out->points[i].separation);
    if (out->count > 0 && deepest <= ct__max(x, 0) + tol) return;
    ct__gjk_query(&sa, xa, &sb, xb, NULL, CT__MAXR, &g.r);
    if (g.r.overlap) return;
    g.d = ct__len(g.r.v) * g.r.m.scale;
    if (out->count > 0 && deepest <= g.d + tol) return;
    memset(out, 0, sizeof *out);
    if (!(g.d > 0) || g.d > s->spec) return;
    ct__simplex_witness(g.r.s, &g.pa, &g.pb);
    g.pa = ct__scale(g.pa, g.r.m.scale);
    g.pb = ct__scale(g.pb, g.r.m.scale);
    g.n = ct__scale(g.r.v, -g.r.m.scale / g.d);
    ct__sat_round_faces(s, &g);
    ct__sat_round_apart(s, &g, 0, 0, s->spec, tol, xa, xb, out);
}

/* The SAT manifold of two hulls with the cache, completed from the closest features. */
CT__PRIVATE void ct__sat_hulls(const ct__sat *s, ct_sat_cache *cache, const ct_xform *xa, const ct_xform *xb,
                               ct_manifold *out) {
    ct__satq q;
    ct__sat_cached_query(s, cache, &q, 1);
    if (!q.separated) {
        ct__satq q2 = q;
        ct__sat_manifold(s, &q2, xa, xb, out);
        ct__sat_closest_features(s, &q, xa, xb, out);
        q.ctype = q2.ctype; q.cia = q2.cia; q.cib = q2.cib;
    }
    ct__sat_cache_store(cache, &q);
}

/* ct_manifold_hulls with the transforms already checked (the scene checks each body's transform
   once per step, not once per pair): the same answer. */
CT__PRIVATE ct_status ct__manifold_hulls_xf_ok(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                               const ct_xform *xb, ct_real speculative, ct_sat_cache *cache,
                                               ct_manifold *out) {
    ct__sat s;
    memset(out, 0, sizeof *out);
    if (!ct__sat_hull_ok(a) || !ct__sat_hull_ok(b) || !ct__finite(speculative) || speculative < 0) return CT_INVALID;
    ct__sat_setup(&s, a, xa, b, xb, speculative);
    ct__sat_hulls(&s, cache, xa, xb, out);
    ct__manifold_deepest(out);
    return CT_OK;
}

CTDEF ct_status ct_manifold_hulls(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                  const ct_xform *xb, ct_real speculative,
                                  ct_sat_cache *cache, ct_manifold *out) {
    if (!out) return CT_INVALID;
    if (!ct__xf_valid(xa) || !ct__xf_valid(xb)) { memset(out, 0, sizeof *out); return CT_INVALID; }
    return ct__manifold_hulls_xf_ok(a, xa, b, xb, speculative, cache, out);   /* zeroes out first */
}

CT__PRIVATE ct_status ct__manifold_rounded(const ct_hull *a, const ct_xform *xa, ct_real ra, const ct_hull *b,
                                           const ct_xform *xb, ct_real rb, ct_real speculative,
                                           ct_sat_cache *cache, ct_manifold *out) {
    ct__sat s;
    ct__round g;
    ct_shape sa = ct_shape_hull(a), sb = ct_shape_hull(b);
    ct_real r = ra + rb, x;
    if (out) memset(out, 0, sizeof *out);
    if (!out || !ct__sat_hull_ok(a) || !ct__sat_hull_ok(b) || !ct__shape_valid(&sa) || !ct__shape_valid(&sb) ||
        !ct__xf_valid(xa) || !ct__xf_valid(xb) || !ct__finite(speculative) || speculative < 0 || !ct__finite(ra) ||
        ra < 0 || !ct__finite(rb) || rb < 0 || !ct__finite(speculative + r))
        return CT_INVALID;
    /* the speculative distance of the cores is widened by the radii */
    ct__sat_setup(&s, a, xa, b, xb, speculative + r);
    if (r == 0) {
        ct__sat_hulls(&s, cache, xa, xb, out);
        return CT_OK;
    }
    /* A cached axis that still separates the cores by more proves the rounded hulls apart (a
       separation along any axis is at most the distance, and GJK's distance is an upper bound
       of it, so a cold call answers the same); the cache is kept. */
    if (cache) {
        ct__satq hint;
        memset(&hint, 0, sizeof hint);
        hint.ctype = (int)cache->type; hint.cia = cache->index_a; hint.cib = cache->index_b;
        if (ct__sat_hint_ok(&s, &hint) && ct__sat_axis(&s, hint.ctype, hint.cia, hint.cib, &x) && x > s.spec + s.margin)
            return CT_OK;
    }
    if (ct__sat_round_boxes(&s, ra, rb, speculative, xa, xb, cache, out)) return CT_OK;
    /* GJK on the cores (cold, so the answer does not depend on the cache; CT_NO_CONVERGENCE
       leaves the best estimate, which serves) */
    ct__gjk_query(&sa, xa, &sb, xb, NULL, CT__MAXR, &g.r);
    ct__simplex_witness(g.r.s, &g.pa, &g.pb);
    /* back from GJK's working scale (a power of two; 1 unless the sizes are extreme: beyond
       2^+-20 in float, so a float scene of size 1e6 takes it) */
    g.pa = ct__scale(g.pa, g.r.m.scale);
    g.pb = ct__scale(g.pb, g.r.m.scale);
    g.d = ct__len(g.r.v) * g.r.m.scale;
    if (!g.r.overlap && g.d > CT__SAT_ROUND_SLOP * s.L) {
        /* cores apart: their closest features; the cache gets the face most parallel to n */
        g.n = ct__scale(g.r.v, -g.r.m.scale / g.d);
        ct__sat_round_faces(&s, &g);
        if (g.d - r <= speculative) ct__sat_round_apart(&s, &g, ra, rb, speculative, ct__sat_edge_tol(&s, g.d), xa, xb, out);
        if (cache) {
            int fb = g.cb > g.ca;
            cache->type = fb ? CT_SAT_FACE_B : CT_SAT_FACE_A;
            cache->index_a = fb ? 0 : g.fa;
            cache->index_b = fb ? g.fb : 0;
        }
        return CT_OK;
    }
    if (!g.r.overlap && g.d > 0) {
        g.n = ct__scale(g.r.v, -g.r.m.scale / g.d);
        ct__sat_round_faces(&s, &g);
    }
    ct__sat_round_touching(&s, cache, &g, ra, rb, speculative, xa, xb, out);
    return CT_OK;
}

CTDEF ct_status ct_manifold_rounded_hulls(const ct_hull *a, const ct_xform *xa, ct_real ra, const ct_hull *b,
                                          const ct_xform *xb, ct_real rb, ct_real speculative,
                                          ct_sat_cache *cache, ct_manifold *out) {
    ct_status st = ct__manifold_rounded(a, xa, ra, b, xb, rb, speculative, cache, out);
    if (st == CT_OK) ct__manifold_deepest(out);
    return st;
}

/* ---- a hull against a sphere ----------------------------------------------------------------- */
/* Closest point of the hull (A's frame) to c outside it: the projection onto a face plane when
   it falls inside that face (the plane supports the hull there), else the nearest point over
   all edges (which covers the vertices). Returns the squared distance; *key is the feature. */
CT__PRIVATE ct_real ct__sat_closest(const ct_hull *h, ct_vec3 c, ct_vec3 *p, unsigned *key) {
    ct_real best = CT__MAXR;
    int f, k, n = h->face_first[h->nfaces];
    for (f = 0; f < h->nfaces; ++f) {
        ct_plane pl = h->planes[f];
        ct_real d = ct__dot(pl.n, c) + pl.d;
        ct_vec3 q;
        if (!(d > 0)) continue;
        q = ct__madd(c, pl.n, -d);
        for (k = h->face_first[f]; k < h->face_first[f + 1]; ++k) {
            ct_vec3 a = h->verts[h->face_verts[k]], b = h->verts[h->face_verts[h->he_next[k]]];
            if (ct__dot(ct__cross(ct__sub(b, a), pl.n), ct__sub(q, a)) > 0) break;
        }
        if (k == h->face_first[f + 1] && d * d < best) {
            best = d * d; *p = q; *key = ct__sat_key(CT__KEY_FACE, f);
        }
    }
    if (best < CT__MAXR) return best;
    for (k = 0; k < n; ++k) {
        ct_vec3 a, e, q;
        ct_real t, l2, d2;
        if (h->he_twin[k] < k) continue;
        a = h->verts[h->face_verts[k]];
        e = ct__sub(h->verts[h->face_verts[h->he_next[k]]], a);
        l2 = ct__len2(e);
        t = l2 > 0 ? ct__clamp(ct__dot(ct__sub(c, a), e) / l2, 0, 1) : 0;
        q = ct__madd(a, e, t);
        d2 = ct__len2(ct__sub(c, q));
        if (d2 < best) {
            best = d2; *p = q;
            *key = t <= 0 ? ct__sat_key(CT__KEY_VERT, h->face_verts[k])
                 : (t >= 1 ? ct__sat_key(CT__KEY_VERT, h->face_verts[h->he_next[k]]) : ct__sat_edge_key(h, k));
        }
    }
    return best;
}

CTDEF ct_status ct_manifold_hull_sphere(const ct_hull *a, const ct_xform *xa, ct_vec3 center, ct_real radius,
                                        ct_real speculative, ct_manifold *out) {
    ct_vec3 c, n, p;
    ct_real dmax = -CT__MAXR, sep;
    unsigned key = 0;
    int f, fm = 0;
    if (out) memset(out, 0, sizeof *out);
    if (!out || !ct__sat_hull_ok(a) || !ct__xf_valid(xa) || !ct__finite3(center) || !ct__finite(radius) ||
        radius < 0 || !ct__finite(speculative) || speculative < 0)
        return CT_INVALID;
    c = ct__xf_inv_point(xa, center);
    for (f = 0; f < a->nfaces; ++f) {
        ct_real d = ct__dot(a->planes[f].n, c) + a->planes[f].d;
        if (d > dmax) { dmax = d; fm = f; }
    }
    /* Inside (or on) the hull: the face of least penetration, as the SAT does. Outside: the
       closest point; when it is too close to give a direction, the face of dmax does. */
    n = a->planes[fm].n;
    p = ct__madd(c, n, -dmax);
    sep = dmax - radius;
    key = ct__sat_key(CT__KEY_FACE, fm);
    if (dmax > 0) {
        ct_real d2 = ct__sat_closest(a, c, &p, &key), d = ct__sqrt(d2);
        if (d > CT__SAT_MARGIN * CT__EPS * (a->extent + ct__len(ct__sub(c, a->center)))) {
            n = ct__normalize(ct__sub(c, p), NULL);   /* not / d: c - p cancels, |c - p| != d */
            sep = d - radius;
        } else {
            p = ct__madd(c, n, -dmax);
            key = ct__sat_key(CT__KEY_FACE, fm);
        }
    }
    if (!(sep <= speculative)) return CT_OK;
    out->normal = ct__xf_dir(xa, n);
    out->count = 1;
    /* midway between the hull point p and the sphere point c - radius n */
    out->points[0].point = ct__xf_point(xa, ct__scale(ct__add(p, ct__madd(c, n, -radius)), (ct_real)0.5));
    out->points[0].separation = sep;
    out->points[0].id = ct__sat_id(key, ct__sat_key(CT__KEY_FACE, 0));
    return CT_OK;
}
