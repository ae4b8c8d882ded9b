/* contact.h detail: >>polar - intersection of two convex polyhedra by polar duality.

   Method: D. E. Muller and F. P. Preparata, "Finding the intersection of two convex
   polyhedra", Theoretical Computer Science 7 (1978) 217-236, in the form Solfec's cvi.c
   uses it (T. Koziara, 2008), made scale-free:

     1. Work in A's local frame, translated to A's centre and scaled by the larger extent,
        so every quantity is O(1) and every tolerance is a multiple of CT__EPS.
     2. Planes whose halfspace strictly holds the other body are set aside
        (ct__polar_filter: its bounding sphere, else its support by hill climbing): they
        cannot touch A n B. Interior point: for a clear overlap the
        deepest point on the line of centres (ct__polar_quick_centre); otherwise the Chebyshev
        centre of A n B, i.e. max r s.t. n_i.x + r <= h_i over the unit face planes of both
        bodies (h_i = -d_i), first over the kept planes and, unless that solution is feasible
        for all of them, over all. Its LP dual has four equality rows,
        min sum h_i y_i s.t. sum y_i n_i = 0, sum y_i = 1, y >= 0, and is solved here by a
        dense two-phase simplex (Dantzig pricing, Bland's rule once pivots stall). The
        optimal radius r decides: r < -tol disjoint, |r| <= tol touching, r > tol overlap.
        For touching bodies the A-part of the optimal dual, sum_{i in A} y_i n_i, is the
        separating normal (Farkas certificate). A disjoint or touching verdict that the
        vertices contradict along that normal goes to GJK on the vertices (ct__polar_run):
        the planes of slivers and needles can stray from their vertices.
     3. Overlap only: thin overlaps get a better centre (ct__polar_slab_centre: the LP again with
        the thin direction taken out of the ball), then damped Newton steps towards the
        analytic centre (ct__polar_recentre), so c is central in every direction.
        Planes translated to the centre c have slacks s_i = h_i - n_i.c >= r > 0; their
        polar (dual) points are n_i / s_i with n_i kept unit (Muller-Preparata Sec. 3),
        rounded by a linear map (ct__polar_whiten) that makes their second moment nearly
        isotropic: combinatorics are invariant under it, conditioning is not.
     4. Convex hull of the dual points (ct__quickhull); when every plane of one body was set
        aside, the other body is A n B and its own faces are copied instead
        (ct__polar_inside). A dual vertex is a face of A n B (its
        plane is the tag); a dual face is a vertex of A n B: the point where the planes of its
        dual vertices meet, solved from the best-conditioned triple (Cramer) rather than from
        the dual plane, so the vertex is exact to rounding in primal space.
     5. The faces around each dual vertex, walked counter-clockwise, are the vertices of the
        primal face counter-clockwise seen from outside (polarity preserves the orientation
        of the normal fan).
   Coincident planes of A and B (flush stacking) give identical dual points; quickhull keeps
   one, and the face is then tagged with A's plane whenever an A plane coincides with it.

   Guards for hulls whose face planes stray from their vertices (needles and slivers, faces of
   width near rounding): a disjoint or touching verdict of the LP that the vertices do not bear
   out along its separating normal is decided by GJK on the vertices (overlapping or within
   the touching band is touching, i.e. found with zero volume); an A n B with an
   ill-conditioned vertex (plane triple determinant < CT__POLAR_ILL) is checked against every
   plane and, if one is crossed, rebuilt from all of them; such a vertex is placed by its dual
   face plane when that crosses the planes less than the best triple's point.

   Cost: the dual hull is about 70% of a call on random 20-vertex pairs and grows with the
   faces of A n B, not with the planes set aside. */

/* Tolerances in the working frame (unit = the larger extent of the two bodies). */
/* |Chebyshev radius| below touch (= CT__POLAR_TOUCH times the ratio of the coordinates'
   magnitude to the extent, the rounding the planes carry): touching */
#define CT__POLAR_TOUCH   (256 * CT__EPS)
#define CT__POLAR_PIVOT   (64 * CT__EPS)    /* simplex reduced-cost threshold */
#define CT__POLAR_PIVOT_ELEM (ct__sqrt(CT__EPS) / 16)   /* smallest simplex pivot element (entries are O(1)) */
#define CT__POLAR_SAME    (64 * CT__EPS)    /* planes of A and B this close are the same plane */
/* An overlap whose Chebyshev radius is below this fraction of the extent is thin: its centre
   is improved before the dual hull (a fat overlap's Chebyshev centre conditions it well). */
#define CT__POLAR_THIN    ((ct_real)1e-2)
/* A vertex of A n B whose planes' triple determinant is below this may come from a body
   whose face planes stray from its vertices (a needle or sliver hull): the planes set aside
   by the vertex-based filter are then checked against A n B (ct__polar_escapes). */
#define CT__POLAR_ILL     ((ct_real)1e-3)
/* A touching verdict whose bodies' vertices are apart by more than this (working frame) along
   the LP's separating normal is put to GJK (ct__polar_run). */
#define CT__POLAR_APART   (ct__sqrt(CT__EPS))
/* Phase 1 of the LP ending above this (entries O(1)): the planes do not close a polyhedron. */
#define CT__POLAR_RESIDUAL (ct__sqrt(CT__EPS))
/* Centres closer than this (relative to the radii sum) give no line of centres to search. */
#define CT__POLAR_COINCIDE (64 * CT__EPS)
/* Smallest eigenvalue, relative to the largest, kept when conditioning the overlap's shape. */
#define CT__POLAR_EIG_FLOOR (64 * CT__EPS)
/* Added to each plane's LP weight so that planes parallel to the search direction still count. */
#define CT__POLAR_WEIGHT_FLOOR (ct__sqrt(CT__EPS))
/* |n_a . (n_b x n_c)| of unit normals below this: the triple does not define a vertex. */
#define CT__POLAR_TRIPLE (64 * CT__EPS)

enum { CT__POLAR_DISJOINT = 0, CT__POLAR_TOUCHING = 1, CT__POLAR_OVERLAP = 2 };

/* The state of one intersection, everything in the working frame:
   local_A = origin + scale * x. Arrays live in the scratch of the call. */
typedef struct ct__polar {
    ct_vec3 origin;
    ct_real scale;
    int na, nb, m;          /* planes: A's faces 0..na-1, then B's faces na..m-1 */
    ct_plane *pl;
    ct_vec3 ca, cb;         /* bounding spheres of A and B (centre, radius) */
    ct_real ra, rb;
    int nkeep, *keep;       /* planes kept by ct__polar_filter: the only ones that can bound A n B */
    ct_hull body[2];        /* A and B with their vertices in the working frame (ct__polar_body) */
    ct_vec3 c;              /* Chebyshev centre (overlap: reference point of v) */
    ct_real r;              /* its radius (depth of c in A n B) */
    ct_real touch;          /* touching band for r (working frame) */
    ct_vec3 sep;            /* unit A->B normal from the LP dual (touching) */
    int sep_ok;
    int state;              /* CT__POLAR_DISJOINT / TOUCHING / OVERLAP */
    /* the polyhedron A n B (state OVERLAP): vertices relative to c */
    int nv, nf;
    ct_vec3 *v;
    int *face_first, *face_verts;
    int *face_plane;        /* index into pl */
    int *face_twin;         /* twin of each face_verts slot (as ct_hull's he_twin) */
    int *vkey;              /* 3 per vertex after ct__vc_canon (detail/volcontact.h), else NULL */
    ct_real cond;           /* smallest |det| of the plane triples that placed the vertices */
    int lost;               /* a kept plane off the dual hull cuts a vertex (ct__polar_build) */
} ct__polar;

/* ---- Chebyshev centre: the dual LP by a dense two-phase simplex ------------------------ */
typedef struct ct__lp {
    int m, w;               /* structural columns, row width (m + 4 artificials + rhs) */
    ct_real *t;             /* 6 rows: 4 constraints, phase-2 costs, phase-1 costs */
    int basis[4];
} ct__lp;

#define CT__LP(lp, i, j) ((lp)->t[(size_t)(i) * (size_t)(lp)->w + (size_t)(j)])

CT__PRIVATE void ct__lp_pivot(ct__lp *lp, int pr, int pc) {
    int i, j, w = lp->w;
    ct_real *row = &CT__LP(lp, pr, 0), inv = 1 / row[pc];
    for (j = 0; j < w; ++j) row[j] *= inv;
    row[pc] = 1;
    for (i = 0; i < 6; ++i) {
        ct_real *o, f;
        if (i == pr) continue;
        o = &CT__LP(lp, i, 0);
        f = o[pc];
        if (f == 0) continue;
        for (j = 0; j < w; ++j) o[j] -= f * row[j];
        o[pc] = 0;
    }
    lp->basis[pr] = pc;
}

/* Runs the simplex on cost row `cost` (4: phase 2, 5: phase 1) over structural columns.
   Returns 1 optimal, 0 iteration cap or unbounded. */
CT__PRIVATE int ct__lp_run(ct__lp *lp, int cost) {
    int iter, stall = 0, cap = 20 * (lp->m + 8);
    ct_real tol = CT__POLAR_PIVOT, ptol = CT__POLAR_PIVOT_ELEM;
    for (iter = 0; iter < cap; ++iter) {
        int j, i, pc = -1, pr = -1, bland = stall > 8;
        ct_real best = -tol, ratio = 0;
        for (j = 0; j < lp->m; ++j) {
            ct_real rc = CT__LP(lp, cost, j);
            if (rc < best) {
                pc = j;
                if (bland) break;
                best = rc;
            }
        }
        if (pc < 0) return 1;
        /* Harris's two-pass ratio test: the largest step that keeps every basic variable above
           -ptol, then among the rows that block within it the largest pivot element. Pivots
           on tiny elements are what ruin a tableau (parallel faces of A and B make them). */
        {
            ct_real tmax = CT__MAXR, amax = 0;
            for (i = 0; i < 4; ++i) {
                ct_real a = CT__LP(lp, i, pc);
                if (a > ptol) tmax = ct__min(tmax, (ct__max(CT__LP(lp, i, lp->w - 1), 0) + ptol) / a);
            }
            for (i = 0; i < 4; ++i) {
                ct_real a = CT__LP(lp, i, pc);
                if (!(a > ptol) || ct__max(CT__LP(lp, i, lp->w - 1), 0) / a > tmax) continue;
                if (pr < 0 || a > amax || (a == amax && lp->basis[i] < lp->basis[pr])) { pr = i; amax = a; }
            }
            if (pr >= 0) ratio = ct__max(CT__LP(lp, pr, lp->w - 1), 0) / amax;
        }
        if (pr < 0) return 0;
        stall = ratio == 0 ? stall + 1 : 0;
        ct__lp_pivot(lp, pr, pc);
    }
    return 0;
}

/* Largest weighted ball in {x : n_i.x + d_i <= 0} over the planes idx[0..n) (NULL: all):
   max r s.t. n_i.x + w_i r <= -d_i (w NULL: 1, the Chebyshev centre). Writes the centre to
   *c and, when sep is not NULL, the A-part of the optimal dual combination (the separating
   normal of touching bodies) to *sep. CT_NO_CONVERGENCE when the simplex gives up. */
CT__PRIVATE ct_status ct__polar_lp(ct_scratch *s, const ct__polar *p, const int *idx, int n, const ct_real *w,
                                   ct_vec3 *c, ct_vec3 *sep, int *sep_ok) {
    ct__lp lp;
    int i, j, ok;
    ct_real M[4][4], b[4], x[4];
    lp.m = n;
    lp.w = n + 5;
    lp.t = CT__SALLOC(s, ct_real, 6 * (long long)lp.w);
    if (!lp.t) return CT_NO_MEMORY;
    memset(lp.t, 0, sizeof(ct_real) * 6 * (size_t)lp.w);
    for (j = 0; j < n; ++j) {
        ct_plane q = p->pl[idx ? idx[j] : j];
        ct_real wj = w ? w[j] : 1;
        CT__LP(&lp, 0, j) = q.n.x; CT__LP(&lp, 1, j) = q.n.y; CT__LP(&lp, 2, j) = q.n.z; CT__LP(&lp, 3, j) = wj;
        CT__LP(&lp, 4, j) = -q.d;                            /* h_j */
        CT__LP(&lp, 5, j) = -(q.n.x + q.n.y + q.n.z + wj);   /* phase 1: minimise the artificials */
    }
    for (i = 0; i < 4; ++i) { CT__LP(&lp, i, n + i) = 1; lp.basis[i] = n + i; }
    CT__LP(&lp, 3, lp.w - 1) = 1;
    CT__LP(&lp, 5, lp.w - 1) = -1;
    ok = ct__lp_run(&lp, 5);
    /* The face normals of a bounded polyhedron always span the origin positively, so the
       dual is feasible and phase 1 ends at 0 in exact arithmetic. In floating point it can
       stall a little above (degenerate pivots with reduced costs at rounding level); such a
       basis is feasible to rounding and phase 2 proceeds from it: the point is re-solved
       from the data and its depth recomputed exactly, so nothing downstream trusts the
       tableau. Only a gross residual means the input is not a closed polyhedron. */
    if (ok && !(ct__abs(CT__LP(&lp, 5, lp.w - 1)) <= CT__POLAR_RESIDUAL)) ok = 0;
    /* artificials still basic (at zero level) leave on any usable structural column */
    for (i = 0; ok && i < 4; ++i) {
        int best = -1;
        if (lp.basis[i] < n) continue;
        for (j = 0; j < n; ++j)
            if (ct__abs(CT__LP(&lp, i, j)) > CT__POLAR_PIVOT_ELEM &&
                (best < 0 || ct__abs(CT__LP(&lp, i, j)) > ct__abs(CT__LP(&lp, i, best)))) best = j;
        if (best < 0) ok = 0; else ct__lp_pivot(&lp, i, best);
    }
    if (ok) ok = ct__lp_run(&lp, 4);
    if (!ok) return CT_NO_CONVERGENCE;
    /* primal point from the optimal basis: n_j.x + w_j r = h_j for the four basic planes,
       solved from the original data (the tableau's multipliers carry pivoting error) */
    for (i = 0; i < 4; ++i) {
        int jb = lp.basis[i];
        ct_plane q = p->pl[idx ? idx[jb] : jb];
        M[i][0] = q.n.x; M[i][1] = q.n.y; M[i][2] = q.n.z; M[i][3] = w ? w[jb] : 1; b[i] = -q.d;
    }
    if (!ct__solve4(M, b, x))
        for (i = 0; i < 4; ++i) x[i] = -CT__LP(&lp, 4, n + i);   /* multipliers: pi = -rc */
    *c = ct__v3(x[0], x[1], x[2]);
    if (sep) {   /* A's share of the dual combination (sum y n = 0 overall) */
        ct_vec3 v = ct__v3(0, 0, 0);
        for (i = 0; i < 4; ++i) {
            int q = idx ? idx[lp.basis[i]] : lp.basis[i];
            if (q < p->na) v = ct__madd(v, p->pl[q].n, ct__max(CT__LP(&lp, i, lp.w - 1), 0));
        }
        *sep = ct__normalize(v, sep_ok);
        if (*sep_ok && ct__len(v) < CT__POLAR_PIVOT) *sep_ok = 0;
    }
    return CT_OK;
}

/* Plane j cannot bind A n B, nor the Chebyshev ball of an overlap: the other body's bounding
   sphere lies strictly inside it (by the filter's margin). */
CT__INLINE int ct__polar_far(const ct__polar *p, int j, ct_real tol) {
    ct_plane q = p->pl[j];
    return j < p->na ? ct__dot(q.n, p->cb) + q.d + p->rb < -tol : ct__dot(q.n, p->ca) + q.d + p->ra < -tol;
}

/* The Chebyshev centre. First over the kept planes (p->keep): a relaxation,
   so its radius r' >= r. Its centre is kept when it proves disjointness (r' < -touch, so
   r < -touch too) or when every set-aside plane leaves it at least r' of slack: then (c, r') is
   feasible for the whole LP, hence optimal, and the dual certificate carries over (zero on
   the set-aside planes). Otherwise (rare: a disjoint pair, or the relaxation unbounded), or when
   fewer than a quarter of the planes were set aside, the LP over every plane decides. */
CT__PRIVATE ct_status ct__polar_centre(ct_scratch *s, ct__polar *p) {
    const int *idx = p->keep;
    int n = p->nkeep, j;
    if (n >= 4 && 4 * n <= 3 * p->m) {   /* worth a second LP only when it sheds a quarter */
        ct_vec3 c, sep;
        int sep_ok = 0;
        ct_status st = ct__polar_lp(s, p, idx, n, NULL, &c, &sep, &sep_ok);
        if (st == CT_NO_MEMORY) return st;
        if (st == CT_OK && ct__finite3(c)) {
            ct_real rr = CT__MAXR, rf = CT__MAXR;
            int t = 0;
            for (j = 0; j < p->m; ++j) {
                ct_real sl = -(ct__dot(p->pl[j].n, c) + p->pl[j].d);
                if (t < n && idx[t] == j) { rr = ct__min(rr, sl); ++t; }
                else rf = ct__min(rf, sl);
            }
            if (rr < -p->touch || rf >= rr) {
                p->c = c; p->sep = sep; p->sep_ok = sep_ok;
                return CT_OK;
            }
        }
    }
    return ct__polar_lp(s, p, NULL, p->m, NULL, &p->c, &p->sep, &p->sep_ok);
}

/* Depth of x in A n B: min over planes of -(n.x + d). */
CT__INLINE ct_real ct__polar_depth(const ct__polar *p, ct_vec3 x) {
    int j;
    ct_real r = CT__MAXR;
    for (j = 0; j < p->m; ++j) r = ct__min(r, -(ct__dot(p->pl[j].n, x) + p->pl[j].d));
    return r;
}

/* Validates a hull handed to the public entry points (cheap checks; the hull is assumed to
   come from ct_hull_build or ct__hull_assemble). A hull the library built (ct__valid) had its
   contents checked then: only the struct's own fields are looked at, as ct__sat_hull_ok does;
   one filled by hand has its planes scanned for non-finite values on every call. */
CT__PRIVATE int ct__polar_hull_ok(const ct_hull *h) {
    int i;
    ct_real z = 0;
    if (!h || h->nfaces < 4 || h->nverts < 4 || !h->planes || !h->verts) return 0;
    if (!ct__finite3(h->center) || !ct__finite(h->extent) || !(h->extent > 0)) return 0;
    if (h->ct__valid == CT__HULL_VALID) return 1;
    /* x * 0 is 0 for finite x and NaN for NaN and +-Inf: one branch-free sum for all planes */
    for (i = 0; i < h->nfaces; ++i)
        z += (h->planes[i].n.x + h->planes[i].n.y + h->planes[i].n.z + h->planes[i].d) * 0;
    return z == 0;
}

/* Step 1: planes of A and B in the working frame; rel = B's frame in A's frame. */
CT__PRIVATE ct_status ct__polar_frame(ct_scratch *s, const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                      const ct_xform *xb, const ct_xform *rel, ct__polar *p) {
    int j;
    ct_real inv;
    p->na = a->nfaces;
    p->nb = b->nfaces;
    p->m = p->na + p->nb;
    p->origin = a->center;
    p->scale = ct__max(a->extent, b->extent);
    inv = 1 / p->scale;
    {   /* the planes in the working frame carry rounding of the largest coordinates that
           went into them: the bodies' local vertices and the two placements */
        ct_real mag = ct__max(ct__maxabs(a->center) + a->extent, ct__maxabs(b->center) + b->extent);
        mag = ct__max(mag, ct__max(xa ? ct__maxabs(xa->p) : 0, xb ? ct__maxabs(xb->p) : 0));
        p->touch = CT__POLAR_TOUCH * (1 + mag * inv);
    }
    p->pl = CT__SALLOC(s, ct_plane, p->m);
    if (!p->pl) return CT_NO_MEMORY;
    for (j = 0; j < p->m; ++j) {
        ct_plane q = j < p->na ? a->planes[j] : ct__xf_plane(rel, b->planes[j - p->na]);
        ct_real l2 = ct__len2(q.n);
        if (l2 > (ct_real)0.25 && l2 < 4) q.n = ct__scale(q.n, 1 / ct__sqrt(l2));   /* unit to rounding */
        else {   /* not a unit normal as ct_hull_build makes: the careful way */
            int ok;
            q.n = ct__normalize(q.n, &ok);
            if (!ok) return CT_INVALID;
        }
        q.d = (q.d + ct__dot(q.n, p->origin)) * inv;
        p->pl[j] = q;
    }
    p->ca = ct__scale(ct__sub(a->center, p->origin), inv);
    p->cb = ct__scale(ct__sub(ct__xf_point(rel, b->center), p->origin), inv);
    p->ra = a->extent * inv;
    p->rb = b->extent * inv;
    return CT_OK;
}

/* min_j (h_j - t g_j) and the plane that attains it */
CT__INLINE ct_real ct__qc_depth(const ct_real *h, const ct_real *g, int m, ct_real t, int *arg) {
    ct_real r = CT__MAXR;
    int j;
    for (j = 0; j < m; ++j) {
        ct_real v = h[j] - t * g[j];
        if (v < r) { r = v; *arg = j; }
    }
    return r;
}

/* A clear overlap needs no LP: the deepest point of A n B on the line of centres (golden-
   section search of the depth, concave along the line, over the lens of the two bounding
   spheres) is taken when it is deeper than CT__POLAR_THIN and than a quarter of the lens bound
   (ra + rb - |cb - ca|) / 2, which no ball inside both bodies exceeds: then it conditions the
   dual within the factor 4 the slab centre accepts, and it proves the overlap (depth > touch)
   as the LP would. The search stops once half the bound is reached. Along the line the slack
   of plane j is h_j - t g_j (from its values at ca), so each probe costs one multiply-add
   per plane, over the kept planes only: inside A n B a dropped plane is never the nearest
   (its body-wide clearance exceeds the depth), and the point found is checked against every
   plane, so a disjoint pair whose kept planes still overlap is not mistaken. Returns 1 when
   taken, -1 when its memory failed (the caller reports it: falling back to the LP would change
   the answer's rounding behind the caller's back). */
CT__PRIVATE int ct__polar_quick_centre(ct_scratch *s, ct__polar *p) {
    ct_vec3 u = ct__sub(p->cb, p->ca);
    ct_real dist = ct__len(u), bound = (p->ra + p->rb - dist) / 2, need = ct__max(CT__POLAR_THIN, bound / 4);
    ct_real lo, hi, t1, t2, d1, d2, tb, db, *h, *g;
    const ct_real gold = (ct_real)0.6180339887498949;
    int it, j, j1 = 0, j2 = 0, m = p->nkeep;
    if (m < 4 || !(bound > CT__POLAR_THIN) || !(dist > CT__POLAR_COINCIDE * (p->ra + p->rb))) return 0;
    h = CT__SALLOC(s, ct_real, 2 * (long long)m);
    if (!h) return -1;
    g = h + m;
    u = ct__scale(u, 1 / dist);
    for (j = 0; j < m; ++j) {
        ct_plane q = p->pl[p->keep[j]];
        h[j] = -(ct__dot(q.n, p->ca) + q.d);
        g[j] = ct__dot(q.n, u);
    }
    lo = ct__max(-p->ra, dist - p->rb);
    hi = ct__min(p->ra, dist + p->rb);
    t1 = hi - gold * (hi - lo);
    t2 = lo + gold * (hi - lo);
    d1 = ct__qc_depth(h, g, m, t1, &j1);
    d2 = ct__qc_depth(h, g, m, t2, &j2);
    {   /* the two binding planes bound the depth everywhere on the line: give up at once (thin
           or shallow overlaps, the LP's business) when their lower envelope stays below need */
        ct_real ub = ct__max(ct__min(h[j1] - lo * g[j1], h[j2] - lo * g[j2]),
                             ct__min(h[j1] - hi * g[j1], h[j2] - hi * g[j2]));
        if (g[j1] != g[j2]) {
            ct_real tx = (h[j1] - h[j2]) / (g[j1] - g[j2]);
            if (tx > lo && tx < hi) ub = ct__max(ub, h[j1] - tx * g[j1]);
        }
        if (!(ub >= need)) return 0;
    }
    for (it = 0; it < 12 && ct__max(d1, d2) < bound / 2; ++it) {
        if (d1 < d2) { lo = t1; t1 = t2; d1 = d2; t2 = lo + gold * (hi - lo); d2 = ct__qc_depth(h, g, m, t2, &j); }
        else { hi = t2; t2 = t1; d2 = d1; t1 = hi - gold * (hi - lo); d1 = ct__qc_depth(h, g, m, t1, &j); }
    }
    tb = d1 >= d2 ? t1 : t2;
    db = ct__max(d1, d2);
    if (!(db >= need)) return 0;
    p->c = ct__madd(p->ca, u, tb);
    p->sep_ok = 0;
    return ct__polar_depth(p, p->c) >= need;   /* the depth as everything downstream sees it */
}

/* Step 2: the interior point and the classification. */
CT__PRIVATE ct_status ct__polar_classify(ct_scratch *s, ct__polar *p, const ct_hull *b, const ct_xform *rel) {
    ct__mark mk = ct__scratch_mark(s);
    int quick = ct__polar_quick_centre(s, p);
    ct_status st = quick < 0 ? CT_NO_MEMORY : quick ? CT_OK : ct__polar_centre(s, p);
    ct__scratch_reset(s, mk);
    if (st == CT_NO_MEMORY) return st;
    if (st != CT_OK) {
        /* the simplex gave up (not seen in 50,000 random pairs): the deepest of the two
           centres and their midpoint still proves an overlap, but a shallow one cannot tell
           touching from disjoint, and that is reported rather than guessed */
        ct_vec3 cb = ct__scale(ct__sub(ct__xf_point(rel, b->center), p->origin), 1 / p->scale), cand[3];
        int k;
        cand[0] = ct__v3(0, 0, 0);
        cand[1] = cb;
        cand[2] = ct__scale(cb, (ct_real)0.5);
        p->c = cand[0];
        for (k = 1; k < 3; ++k)
            if (ct__polar_depth(p, cand[k]) > ct__polar_depth(p, p->c)) p->c = cand[k];
        p->sep_ok = 0;
        if (!(ct__polar_depth(p, p->c) > p->touch)) return CT_NO_CONVERGENCE;
    }
    p->r = ct__polar_depth(p, p->c);
    p->state = p->r > p->touch ? CT__POLAR_OVERLAP
             : (p->r >= -p->touch ? CT__POLAR_TOUCHING : CT__POLAR_DISJOINT);
    return CT_OK;
}

/* Rounds the dual point set in place: y <- W y with W symmetric positive, so that the second
   moment sum y y^T is within a factor 256 of isotropic (widths within 16). A thin overlap
   (flush faces, shallow edges) has dual points of size 1/thickness along its thin directions;
   squeezing them makes the hull's predicates well-conditioned while its combinatorics, which
   a linear map preserves, are all that is used. Eigenvalues below eps of the largest are
   noise, so each round squeezes by at most 1/sqrt(eps) and the next round goes on. */
CT__PRIVATE void ct__polar_whiten(ct_vec3 *y, int m, ct_real W[3][3]) {
    int round, i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) W[i][j] = i == j;
    for (round = 0; round < 4; ++round) {
        ct_real M[3][3], E[3][3], beta[3], lmax, llo, T[3][3], nw[3][3];
        memset(M, 0, sizeof M);
        for (k = 0; k < m; ++k) {
            ct_vec3 q = y[k];
            M[0][0] += q.x * q.x; M[0][1] += q.x * q.y; M[0][2] += q.x * q.z;
            M[1][1] += q.y * q.y; M[1][2] += q.y * q.z; M[2][2] += q.z * q.z;
        }
        M[1][0] = M[0][1]; M[2][0] = M[0][2]; M[2][1] = M[1][2];
        {   /* Gershgorin discs already within the factor: round enough, no eigenproblem */
            ct_real glo = CT__MAXR, ghi = 0;
            for (i = 0; i < 3; ++i) {
                ct_real rad = ct__abs(M[i][(i + 1) % 3]) + ct__abs(M[i][(i + 2) % 3]);
                glo = ct__min(glo, M[i][i] - rad);
                ghi = ct__max(ghi, M[i][i] + rad);
            }
            if (glo * 256 >= ghi && glo > 0) break;
        }
        ct__sym3_eigen(M, E);
        lmax = ct__max(M[0][0], ct__max(M[1][1], M[2][2]));
        llo = ct__min(M[0][0], ct__min(M[1][1], M[2][2]));
        if (!(lmax > 0) || llo * 256 >= lmax) break;
        llo = ct__max(llo, lmax * CT__POLAR_EIG_FLOOR);
        for (k = 0; k < 3; ++k) beta[k] = ct__sqrt(llo / ct__max(M[k][k], llo));
        for (i = 0; i < 3; ++i)               /* T = E diag(beta) E^T */
            for (j = 0; j < 3; ++j)
                T[i][j] = E[i][0] * beta[0] * E[j][0] + E[i][1] * beta[1] * E[j][1] + E[i][2] * beta[2] * E[j][2];
        for (k = 0; k < m; ++k) y[k] = ct__m3_mul((const ct_real(*)[3])T, y[k]);
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) nw[i][j] = T[i][0] * W[0][j] + T[i][1] * W[1][j] + T[i][2] * W[2][j];
        memcpy(W, nw, sizeof nw);
    }
}

/* The working-frame copy of hull h (placed by x, NULL: A's own frame) that the filter
   climbs: a shallow copy of the hull with verts replaced (the adjacency serves as it is). */
CT__PRIVATE ct_status ct__polar_body(ct_scratch *s, const ct__polar *p, const ct_hull *h, const ct_xform *x,
                                     ct_hull *out) {
    ct_vec3 *v = CT__SALLOC(s, ct_vec3, h->nverts);
    ct_real inv = 1 / p->scale;
    int i;
    if (!v) return CT_NO_MEMORY;
    for (i = 0; i < h->nverts; ++i) v[i] = ct__scale(ct__sub(ct__xf_point(x, h->verts[i]), p->origin), inv);
    *out = *h;
    out->verts = v;
    out->ct__depth = NULL;   /* of h's centre: not of these vertices */
    return CT_OK;
}

/* Whether body h (working-frame vertices) reaches above plane q + lim, i.e. max_v q.n.v + q.d
   >= lim: hill climbing over h's vertex graph (ct__hull_ascend) from vertex *start, which
   stops at the first vertex above (a plane that h crosses is decided in a step or two); a
   plane that h stays below climbs to a local maximum, confirmed by scanning every vertex.
   *start gets the last vertex of the climb, the next plane's start. Hulls without adjacency
   are scanned. */
CT__PRIVATE int ct__polar_reaches(const ct_hull *h, ct_plane q, ct_real lim, int *start) {
    int v = *start;
    ct_real best, goal = lim - q.d;
    if (!h->vert_first || !h->vert_adj) {
        v = ct__argmax_dot(h->verts, h->nverts, q.n);
        return ct__dot(q.n, h->verts[v]) >= goal;
    }
    if (v < 0 || v >= h->nverts) v = 0;
    *start = v = ct__hull_ascend(h, q.n, v, goal, &best);
    if (best >= goal) return 1;
    /* "below" drops the plane, so it is confirmed by a scan: the climb is exact on an exactly
       convex vertex graph only, and a hull's is convex only to rounding (a float hull whose
       merged faces are no longer planar; two vertices 1e-5 of the extent apart whose
       tiny edge points anywhere) can stop it at a local maximum far below the support */
    v = ct__argmax_dot(h->verts, h->nverts, q.n);
    return ct__dot(q.n, h->verts[v]) >= goal;
}

/* The planes that can bound A n B (p->keep). A plane is dropped when the other body lies
   strictly inside its halfspace (by 4 touch): then so does A n B, the plane touches it
   nowhere, and A n B is the intersection of the kept halfspaces (a segment from an interior
   point leaves it through a tight, hence kept, plane), as is its Chebyshev ball when it is
   not empty. Two tests, cheapest first: the other body's bounding sphere (ct__polar_far),
   then its exact support by hill climbing (ct__polar_reaches), which stops as soon as a
   vertex crosses the plane. On random 20-vertex pairs they keep 41 of 72 planes (29 facets),
   the sphere alone 52; each dual point dropped saves quickhull about a third of a
   microsecond, the climbs cost a fraction of that. A further test (the face polygon outside
   some face plane of the other body) drops 10 more, but those lie deep inside the dual hull
   where quickhull discards them almost for free: it costs more than it saves. */
CT__PRIVATE ct_status ct__polar_filter(ct_scratch *s, ct__polar *p, const ct_hull *a, const ct_hull *b,
                                       const ct_xform *rel) {
    ct_real tol = 4 * p->touch;
    int j, start[2] = { 0, 0 };
    ct_status st;
    p->keep = CT__SALLOC(s, int, p->m);
    if (!p->keep) return CT_NO_MEMORY;
    p->nkeep = 0;
    st = ct__polar_body(s, p, a, NULL, &p->body[0]);
    if (st == CT_OK) st = ct__polar_body(s, p, b, rel, &p->body[1]);
    if (st != CT_OK) return st;
    for (j = 0; j < p->m; ++j) {
        int inA = j < p->na;
        if (ct__polar_far(p, j, tol) || !ct__polar_reaches(&p->body[inA], p->pl[j], -tol, &start[inA])) continue;
        p->keep[p->nkeep++] = j;
    }
    return CT_OK;
}

/* A thin overlap (flush faces) pins the Chebyshev ball between two nearly parallel planes and
   leaves it anywhere across the slab, often against side walls, where the dual is badly
   conditioned and Newton would need ~log2(width/thickness) steps to walk out. Re-solve with
   the thin direction t (the dual's separating normal) taken out of the ball, weights
   |n_i - (n_i.t) t| (+ sqrt(eps) so the slab's own planes still count): the largest cylinder
   across the slab. Then back to the mid-slab height of the Chebyshev centre. */
CT__PRIVATE ct_status ct__polar_slab_centre(ct_scratch *s, ct__polar *p) {
    ct__mark mk;
    ct_real *w, d0 = p->r;
    ct_vec3 t = p->sep, c2;
    ct_status st;
    int j;
    if (!p->sep_ok) return CT_OK;
    mk = ct__scratch_mark(s);
    w = CT__SALLOC(s, ct_real, p->nkeep);
    if (!w) return CT_NO_MEMORY;
    for (j = 0; j < p->nkeep; ++j) {
        ct_vec3 n = p->pl[p->keep[j]].n;
        w[j] = ct__len(ct__madd(n, t, -ct__dot(n, t))) + CT__POLAR_WEIGHT_FLOOR;
    }
    st = ct__polar_lp(s, p, p->keep, p->nkeep, w, &c2, NULL, NULL);
    ct__scratch_reset(s, mk);
    if (st == CT_NO_MEMORY) return st;
    if (st != CT_OK) return CT_OK;
    c2 = ct__madd(c2, t, ct__dot(t, ct__sub(p->c, c2)));
    if (ct__finite3(c2) && ct__polar_depth(p, c2) > d0 / 4) {
        p->c = c2;
        p->r = ct__polar_depth(p, c2);
    }
    return CT_OK;
}

/* Moves c towards the analytic centre of A n B (the minimiser of -sum log slack) by damped
   Newton steps (Nesterov & Nemirovski: a step 1/(1+lambda) keeps a self-concordant barrier
   finite, so c stays strictly inside). The gradient is the sum of the dual points and the
   Hessian their second moment, both taken in the rounded dual frame so a slab 1e-12 thin
   solves as well as a cube. The Chebyshev centre can sit against side walls of a thin slab;
   the analytic centre cannot, and the dual hull about it is far better conditioned. */
CT__PRIVATE ct_status ct__polar_recentre(ct_scratch *s, ct__polar *p) {
    ct__mark mk = ct__scratch_mark(s);
    ct_vec3 *y = CT__SALLOC(s, ct_vec3, p->nkeep);
    int it, j, nk = p->nkeep;
    if (!y) return CT_NO_MEMORY;
    for (it = 0; it < 16; ++it) {
        ct_real W[3][3], M[3][3], lam2, t, det;
        ct_vec3 g = ct__v3(0, 0, 0), z, dx, cn;
        int ok = 1;
        for (j = 0; j < nk; ++j) {
            ct_plane q = p->pl[p->keep[j]];
            ct_real sl = -(ct__dot(q.n, p->c) + q.d);
            if (!(sl > 0)) { ok = 0; break; }
            y[j] = ct__scale(q.n, 1 / sl);
        }
        if (!ok) break;
        ct__polar_whiten(y, nk, W);
        memset(M, 0, sizeof M);
        for (j = 0; j < nk; ++j) {
            ct_vec3 q = y[j];
            g = ct__add(g, q);
            M[0][0] += q.x * q.x; M[0][1] += q.x * q.y; M[0][2] += q.x * q.z;
            M[1][1] += q.y * q.y; M[1][2] += q.y * q.z; M[2][2] += q.z * q.z;
        }
        M[1][0] = M[0][1]; M[2][0] = M[0][2]; M[2][1] = M[1][2];
        /* z = M^-1 g by Cramer (M is well-conditioned after rounding) */
        {
            ct_vec3 c0 = ct__v3(M[0][0], M[1][0], M[2][0]), c1 = ct__v3(M[0][1], M[1][1], M[2][1]),
                    c2 = ct__v3(M[0][2], M[1][2], M[2][2]);
            det = ct__dot(c0, ct__cross(c1, c2));
            if (!(det > 0)) break;
            z = ct__v3(ct__dot(g, ct__cross(c1, c2)), ct__dot(c0, ct__cross(g, c2)), ct__dot(c0, ct__cross(c1, g)));
            z = ct__scale(z, 1 / det);
        }
        lam2 = ct__dot(g, z);
        if (!(lam2 > 1)) break;                    /* close enough to centred */
        /* the full Newton step, cut to 90% of the way to the nearest plane it would cross
           (fraction to the boundary); never shorter than the damped step 1/(1+lambda),
           which is always feasible */
        dx = ct__neg(ct__m3_tmul((const ct_real(*)[3])W, z));
        t = 1;
        for (j = 0; j < nk; ++j) {
            ct_plane q = p->pl[p->keep[j]];
            ct_real nd = ct__dot(q.n, dx), sl = -(ct__dot(q.n, p->c) + q.d);
            if (nd > 0 && 0.9 * (double)sl < (double)(t * nd)) t = (ct_real)0.9 * sl / nd;
        }
        t = ct__max(t, 1 / (1 + ct__sqrt(lam2)));
        cn = ct__madd(p->c, dx, t);
        if (!ct__finite3(cn) || !(ct__polar_depth(p, cn) > 0)) break;
        p->c = cn;
    }
    p->r = ct__polar_depth(p, p->c);
    ct__scratch_reset(s, mk);
    return CT_OK;
}

/* How far x (relative to c) lies outside the kept planes: max n.x - slack. */
CT__PRIVATE ct_real ct__polar_excess(const ct__polar *p, const ct_real *slack, ct_vec3 x) {
    ct_real e = -CT__MAXR;
    int j;
    for (j = 0; j < p->nkeep; ++j) {
        int q = p->keep[j];
        e = ct__max(e, ct__dot(p->pl[q].n, x) - slack[q]);
    }
    return e;
}

/* Vertex of A n B where the planes of one dual face meet (relative to c): Cramer on the
   best-conditioned triple (when even that is ill-conditioned, the point of the dual face plane
   m.y + e = 0 -> x = -m/e if it lies deeper); that dual point if every triple is poor. */
CT__PRIVATE ct_vec3 ct__polar_vertex(const ct__polar *p, const ct_real *slack, const int *idx,
                                     int k, ct_plane dual, ct_real *cond) {
    int a = idx[0], b = -1, c = -1, t;
    ct_real best = 0, det;
    ct_vec3 na = p->pl[a].n, nb, nc, out;
    if (k == 3) {   /* a triangle's triple is the only one */
        b = idx[1];
        c = idx[2];
        best = ct__abs(ct__dot(na, ct__cross(p->pl[b].n, p->pl[c].n)));
    } else {
        for (t = 1; t < k; ++t) {
            ct_real q = ct__len2(ct__cross(na, p->pl[idx[t]].n));
            if (q > best) { best = q; b = idx[t]; }
        }
    }
    if (b >= 0 && k > 3) {
        ct_vec3 ab = ct__cross(na, p->pl[b].n);
        best = 0;
        for (t = 1; t < k; ++t) {
            ct_real q = ct__abs(ct__dot(ab, p->pl[idx[t]].n));
            if (q > best) { best = q; c = idx[t]; }
        }
    }
    if (c >= 0 && best > CT__POLAR_TRIPLE) {
        nb = p->pl[b].n;
        nc = p->pl[c].n;
        det = ct__dot(na, ct__cross(nb, nc));
        *cond = ct__abs(det);
        out = ct__scale(ct__cross(nb, nc), slack[a]);
        out = ct__madd(out, ct__cross(nc, na), slack[b]);
        out = ct__madd(out, ct__cross(na, nb), slack[c]);
        out = ct__scale(out, 1 / det);
        if (*cond < CT__POLAR_ILL) {
            /* the face's planes nearly share a line, and the triple's point can slide along it
               out of A n B; the dual face's plane (fitted to all of them) places it by all:
               whichever crosses the kept planes less */
            ct_vec3 xd = ct__scale(dual.n, -1 / dual.d);
            if (ct__finite3(xd) && ct__polar_excess(p, slack, xd) < ct__polar_excess(p, slack, out)) out = xd;
        }
        return out;
    }
    *cond = 0;
    return ct__scale(dual.n, -1 / dual.d);
}

/* One body strictly inside the other (the filter dropped every plane of the other, so A n B
   is this body): A n B is the body itself, copied from its own faces and twins without a dual
   hull. Returns 0 (nothing done) unless every kept plane is a face of one body with face
   lists and twins. */
CT__PRIVATE int ct__polar_inside(ct_scratch *s, ct__polar *p, ct_status *st) {
    int one = p->nkeep > 0 && p->keep[0] >= p->na, off = one ? p->na : 0, j;
    const ct_hull *h = &p->body[one];
    int nhe;
    if (p->nkeep != h->nfaces || p->keep[0] != off || p->keep[p->nkeep - 1] != off + h->nfaces - 1 ||
        !h->face_first || !h->face_verts || !h->he_twin)
        return 0;
    nhe = h->face_first[h->nfaces];
    p->v = CT__SALLOC(s, ct_vec3, h->nverts);
    p->face_first = CT__SALLOC(s, int, h->nfaces + 1);
    p->face_verts = CT__SALLOC(s, int, nhe);
    p->face_plane = CT__SALLOC(s, int, h->nfaces);
    p->face_twin = CT__SALLOC(s, int, nhe);
    if (!p->v || !p->face_first || !p->face_verts || !p->face_plane || !p->face_twin) {
        *st = CT_NO_MEMORY;
        return 1;
    }
    for (j = 0; j < h->nverts; ++j) p->v[j] = ct__sub(h->verts[j], p->c);
    memcpy(p->face_first, h->face_first, sizeof(int) * (size_t)(h->nfaces + 1));
    memcpy(p->face_verts, h->face_verts, sizeof(int) * (size_t)nhe);
    memcpy(p->face_twin, h->he_twin, sizeof(int) * (size_t)nhe);
    for (j = 0; j < h->nfaces; ++j) p->face_plane[j] = off + j;
    p->nv = h->nverts;
    p->nf = h->nfaces;
    p->cond = 1;   /* the body's own vertices: nothing was solved */
    *st = CT_OK;
    return 1;
}

/* Whether plane q (slack sl at the interior point) has a vertex of A n B beyond it by more
   than the filter's margin, 4 touch. */
CT__INLINE int ct__polar_cuts(const ct__polar *p, int q, ct_real sl) {
    ct_vec3 n = p->pl[q].n;
    return ct__dot(n, p->v[ct__argmax_dot(p->v, p->nv, n)]) - sl > 4 * p->touch;
}

/* Steps 3-5: A n B as a polyhedron (state must be OVERLAP). CT_DEGENERATE when the dual
   hull is flat (the overlap is thinner than rounding: the caller treats it as touching). */
CT__PRIVATE ct_status ct__polar_build(ct_scratch *s, ct__polar *p, int full) {
    int m = p->m, j, f, k, nhe, nvd, nspare;
    ct_real *slack, W[3][3];
    ct_vec3 *dual;
    int *map, *spare, *he_face, *deg, *start, *slot_of, *via;
    ct__qh_result qh;
    ct_status st;
    if (ct__polar_inside(s, p, &st)) return st;
    slack = CT__SALLOC(s, ct_real, m);
    dual = CT__SALLOC(s, ct_vec3, p->nkeep);
    map = CT__SALLOC(s, int, m);
    spare = CT__SALLOC(s, int, p->nkeep);
    if (!slack || !dual || !map || !spare) return CT_NO_MEMORY;
    for (j = 0; j < p->nkeep; ++j) {   /* slacks of the kept planes (>= r > 0): nothing else reads them */
        int q = p->keep[j];
        slack[q] = -(ct__dot(p->pl[q].n, p->c) + p->pl[q].d);
    }
    for (j = 0; j < p->nkeep; ++j) dual[j] = ct__scale(p->pl[p->keep[j]].n, 1 / slack[p->keep[j]]);
    ct__polar_whiten(dual, p->nkeep, W);
    {   /* rebuilt as ct_hull_build rebuilds its hulls when quickhull's own check of the faces
           fails: a merge across a fold (dual points of planes that nearly share a line, e.g.
           flush faces next to a slightly tilted one) can leave a dual face whose primal vertex
           lies outside other planes */
        ct__mark mq = ct__scratch_mark(s);
        st = ct__quickhull(s, dual, p->nkeep, 0, 0, &qh);   /* plain normals (see CT__QH_SKINNY) */
        if (st == CT_OK) st = ct__quickhull_checked(s, dual, p->nkeep, mq, full, &qh);
        if (st == CT_DEGENERATE) {   /* no build passed its check: the first one, unchecked */
            ct__scratch_reset(s, mq);
            st = ct__quickhull(s, dual, p->nkeep, 0, 0, &qh);
        }
    }
    if (st != CT_OK) return st;
    nvd = qh.nverts;
    nhe = qh.face_first[qh.nfaces];
    for (j = 0; j < m; ++j) map[j] = -1;
    for (j = 0; j < nvd; ++j) { qh.verts[j] = p->keep[qh.verts[j]]; map[qh.verts[j]] = j; }   /* plane ids */
    /* prefer A: a face on a plane of B that coincides with a plane of A (not itself on the
       hull) takes A's plane; keeps flush stacking deterministic under argument order. Such a
       plane of A is kept (B reaches it), so only the kept planes of A off the hull (spare)
       are candidates. Same means within the band everywhere in the unit ball about c (where
       A n B lies, the working frame's unit being the larger extent): slacks within the band
       and normals within it too. (A test of 1 - n.n' against the band let planes 0.15 degrees
       apart count as one in float: the face took A's plane and A n B lost a wedge of B's,
       5% of the volume.) */
    for (j = 0, nspare = 0; j < p->nkeep && p->keep[j] < p->na; ++j)
        if (map[p->keep[j]] < 0) spare[nspare++] = p->keep[j];
    for (j = 0; j < nvd && nspare > 0; ++j) {
        int q = qh.verts[j], t;
        ct_real band;
        if (q < p->na) continue;
        band = ct__max(CT__POLAR_SAME * ct__max(1, slack[q]), p->touch);
        for (t = 0; t < nspare; ++t) {
            int u = spare[t];
            if (map[u] < 0 && ct__abs(slack[u] - slack[q]) <= band &&
                ct__len2(ct__sub(p->pl[u].n, p->pl[q].n)) <= band * band) {
                map[u] = j; qh.verts[j] = u;
                break;
            }
        }
    }
    he_face = CT__SALLOC(s, int, nhe);
    deg = CT__SALLOC(s, int, nvd);
    start = CT__SALLOC(s, int, nvd);
    p->v = CT__SALLOC(s, ct_vec3, qh.nfaces);
    p->face_first = CT__SALLOC(s, int, nvd + 1);
    p->face_verts = CT__SALLOC(s, int, nhe);
    p->face_plane = CT__SALLOC(s, int, nvd);
    p->face_twin = CT__SALLOC(s, int, nhe);
    slot_of = CT__SALLOC(s, int, nhe);
    via = CT__SALLOC(s, int, nhe);
    if (!he_face || !deg || !start || !p->v || !p->face_first || !p->face_verts || !p->face_plane ||
        !p->face_twin || !slot_of || !via)
        return CT_NO_MEMORY;
    /* primal vertices; the degree of every dual vertex and one half-edge leaving it */
    p->cond = 1;
    for (j = 0; j < nvd; ++j) deg[j] = 0;
    for (f = 0; f < qh.nfaces; ++f) {
        int b0 = qh.face_first[f], e0 = qh.face_first[f + 1];
        int idx[64], cnt = 0;
        for (k = b0; k < e0; ++k) {
            int v = qh.face_local[k];
            he_face[k] = f;
            if (deg[v]++ == 0) start[v] = k;
            if (cnt < 64) idx[cnt++] = qh.verts[v];
        }
        if (e0 - b0 < 3) return CT_DEGENERATE;
        {   /* the dual plane in the rounded frame, n'.Wy + d = 0, is (W^T n').y + d = 0 */
            ct_plane dp = qh.planes[f];
            dp.n = ct__m3_tmul((const ct_real(*)[3])W, dp.n);
            ct_real cond;
            p->v[f] = ct__polar_vertex(p, slack, idx, cnt, dp, &cond);
            p->cond = ct__min(p->cond, cond);
        }
    }
    /* primal face of dual vertex j: the dual faces around j, counter-clockwise. The primal edge
       of slot k (dual face fh to the next, fh') lies on planes j and u and is crossed by the
       dual edge prev (u -> j in fh); in u's walk the edge fh' -> fh is the slot crossed by
       twin(prev) (j -> u in fh'), which gives the primal twins */
    p->face_first[0] = 0;
    for (j = 0, k = 0; j < nvd; ++j) {
        int h0 = start[j], h = h0, guard = 0;
        p->face_plane[j] = qh.verts[j];
        if (deg[j] == 0) return CT_DEGENERATE;
        do {   /* h leaves j in dual face fh; the half-edge into j there is prev (u -> j), and
                  its twin (j -> u) leaves j in the next face counter-clockwise */
            int fh = he_face[h], b0 = qh.face_first[fh], prev = h == b0 ? qh.face_first[fh + 1] - 1 : h - 1;
            int next = qh.he_twin[prev];
            if (k >= nhe) return CT_DEGENERATE;
            slot_of[prev] = k;
            via[k] = prev;
            p->face_verts[k++] = fh;
            if (next < 0 || next >= nhe || qh.face_local[next] != j || ++guard > deg[j]) return CT_DEGENERATE;
            h = next;
        } while (h != h0);
        p->face_first[j + 1] = k;
        if (k - p->face_first[j] < 3) return CT_DEGENERATE;
    }
    if (k != nhe) return CT_DEGENERATE;   /* every dual half-edge crossed exactly once */
    for (k = 0; k < nhe; ++k) p->face_twin[k] = slot_of[qh.he_twin[via[k]]];
    p->nv = qh.nfaces;
    p->nf = nvd;
    /* a kept plane whose dual point the hull left inside must leave every vertex inside it (by
       the escape check's margin): a vertex where many planes meet (8 planes of two hulls with
       shared faces, one corner; a fuzz_polar input) makes a dual face of as many coplanar
       points, and a merge there dropped a plane that cut the face's vertex 10% of the size
       away (the caller then builds on every plane, checked in full) */
    p->lost = 0;
    for (j = 0; j < p->nkeep && !p->lost; ++j)
        p->lost = map[p->keep[j]] < 0 && ct__polar_cuts(p, p->keep[j], slack[p->keep[j]]);
    return CT_OK;
}

/* Whether a vertex of A n B lies outside one of the planes (by more than the filter's margin,
   4 touch). The filter judges a body by its vertices and the dual by its planes; on a
   well-formed hull they agree, but the planes of a needle or sliver (faces of width near
   rounding) can stray far from its vertices: a plane set aside may then bound A n B after
   all, and the dual points of such a body, some huge, can also hide a kept plane from the
   dual hull's tolerance. Only called when some vertex is ill-conditioned (p->cond <
   CT__POLAR_ILL), as the vertices such planes make are. */
CT__PRIVATE int ct__polar_escapes(const ct__polar *p) {
    int j;
    for (j = 0; j < p->m; ++j)
        if (ct__polar_cuts(p, j, -(ct__dot(p->pl[j].n, p->c) + p->pl[j].d))) return 1;
    return 0;
}

/* Whether the vertices are apart along the LP's separating normal (its dual certificate):
   every vertex of A below every vertex of B by more than lim. Two scans of the vertices;
   without a certificate, not apart. */
CT__PRIVATE int ct__polar_apart(const ct__polar *p, ct_real lim) {
    ct_real ha = -CT__MAXR, hb = CT__MAXR;
    int k;
    if (!p->sep_ok) return 0;
    for (k = 0; k < p->body[0].nverts; ++k) ha = ct__max(ha, ct__dot(p->sep, p->body[0].verts[k]));
    for (k = 0; k < p->body[1].nverts; ++k) hb = ct__min(hb, ct__dot(p->sep, p->body[1].verts[k]));
    return hb - ha > lim;
}

CT__PRIVATE ct_status ct__polar_finish(ct_scratch *s, ct__polar *p);

/* Whether every vertex of A n B lies in both bodies' bounding spheres (their radii doubled),
   as every point of A n B does. The planes of a needle can fail that by orders of magnitude:
   two long faces that meet at its tip at an angle near the rounding of their normals (0.2
   thick, 1.6e7 long: 1e-8 rad) cross anywhere along the line, so the planes bound a far longer
   needle than the vertices, and A n B by planes had vertices 1e12 away (a fuzz_polar input).
   No plane-based answer is then right, and the entry points report CT_NO_CONVERGENCE. The
   radii are doubled because ill-conditioned vertices of healthy answers do stray beyond a
   body's vertices (by up to ~1e-4 of the size, as the fuzz harnesses allow); this only
   catches the hopeless case. */
#define CT__POLAR_SPHERE ((ct_real)1)
/* With an ill-conditioned vertex (p->cond < CT__POLAR_ILL), the faces are checked too: each
   face's fan area along its plane's normal is positive for a convex A n B, and an inverted
   face (two identical needles in the same place: A n B by the planes with vertices 3e5 out,
   faces summing to -29124) makes the answer meaningless. More than CT__POLAR_INVERTED of
   the faces' total area inverted: not bounded either. */
#define CT__POLAR_INVERTED ((ct_real)1e-3)
CT__PRIVATE int ct__polar_bounded(const ct__polar *p) {
    ct_real ra = p->ra * (1 + CT__POLAR_SPHERE) + p->touch, rb = p->rb * (1 + CT__POLAR_SPHERE) + p->touch;
    ct_real pos = 0, neg = 0;
    int k, f;
    for (k = 0; k < p->nv; ++k) {
        ct_vec3 x = ct__add(p->c, p->v[k]);
        if (!(ct__len2(ct__sub(x, p->ca)) <= ra * ra && ct__len2(ct__sub(x, p->cb)) <= rb * rb)) return 0;
    }
    if (!(p->cond < CT__POLAR_ILL)) return 1;
    for (f = 0; f < p->nf; ++f) {
        int b0 = p->face_first[f], e0 = p->face_first[f + 1];
        ct_vec3 v0 = p->v[p->face_verts[b0]], n = p->pl[p->face_plane[f]].n;
        ct_real af = 0;
        for (k = b0 + 1; k + 1 < e0; ++k)
            af += ct__dot(ct__cross(ct__sub(p->v[p->face_verts[k]], v0), ct__sub(p->v[p->face_verts[k + 1]], v0)), n);
        if (af >= 0) pos += af; else neg -= af;
    }
    return neg <= CT__POLAR_INVERTED * pos;
}

/* Everything up to A n B for the public entry points. On CT_OK p->state says what was
   found; an overlap too thin for the dual hull is reported as touching. */
CT__PRIVATE ct_status ct__polar_run(ct_scratch *s, const ct_hull *a, const ct_xform *xa,
                                    const ct_hull *b, const ct_xform *xb, int build, ct__polar *p) {
    ct_xform rel = ct__xf_rel(xa, xb);
    ct_status st;
    memset(p, 0, sizeof *p);
    st = ct__polar_frame(s, a, xa, b, xb, &rel, p);
    if (st == CT_OK) st = ct__polar_filter(s, p, a, b, &rel);
    if (st != CT_OK) return st;
    st = ct__polar_classify(s, p, b, &rel);
    if (st == CT_NO_CONVERGENCE) {
        /* the LP gave up and no candidate centre is deep: bodies clearly apart by their
           vertices (GJK) are disjoint, whatever their planes' conditioning (two needles of
           extent 1.6e7 whose planes meet at 1e-8 rad, 7.45e-4 apart by an exact SAT) */
        ct_shape sa = ct_shape_hull(a), sb = ct_shape_hull(b);
        ct_distance d;
        if (ct_gjk(&sa, xa, &sb, xb, NULL, &d) == CT_OK && ct__finite(d.distance) && d.distance > p->touch * p->scale) {
            p->state = CT__POLAR_DISJOINT;
            st = CT_OK;
        }
    }
    if (st == CT_OK && p->state != CT__POLAR_OVERLAP) {
        /* a verdict the vertices do not bear out: a sliver's faces (a wedge of nearly opposite
           planes, 1e-10 rad apart) are beyond the simplex's pivot threshold and stray from its
           vertices, so the LP can call a sliver lying across the other body disjoint, or one
           clearly apart from it touching. GJK on the vertices then decides. Disjoint is
           overturned within the touching band, touching only beyond CT__POLAR_APART (a touch
           of rounding-level planes, e.g. Solfec's flush pairs, stays a touch). */
        int disjoint = p->state == CT__POLAR_DISJOINT;
        ct_real lim = disjoint ? p->touch : CT__POLAR_APART;
        if (disjoint != ct__polar_apart(p, lim)) {
            ct_shape sa = ct_shape_hull(a), sb = ct_shape_hull(b);
            ct_distance d;
            if (ct_gjk(&sa, xa, &sb, xb, NULL, &d) == CT_OK && ct__finite(d.distance))
                p->state = d.distance <= lim * p->scale ? CT__POLAR_TOUCHING : CT__POLAR_DISJOINT;
        }
    }
    if (st != CT_OK || p->state != CT__POLAR_OVERLAP || !build) return st;
    st = ct__polar_finish(s, p);
    if (st == CT_OK && p->state == CT__POLAR_OVERLAP && !ct__polar_bounded(p)) st = CT_NO_CONVERGENCE;
    return st;
}

/* Steps 3-5 for an overlap whose interior point p->c (depth p->r > touch) is known, after
   ct__polar_frame and ct__polar_filter: from ct__polar_run, and from the warm start
   (detail/pfc.h), which brings the previous step's point. */
CT__PRIVATE ct_status ct__polar_finish(ct_scratch *s, ct__polar *p) {
    ct_status st = CT_OK;
    if (p->r < CT__POLAR_THIN) st = ct__polar_slab_centre(s, p);
    if (st == CT_OK && p->r < CT__POLAR_THIN) st = ct__polar_recentre(s, p);
    if (st != CT_OK) return st;
    {
        ct__mark mk = ct__scratch_mark(s);
        st = ct__polar_build(s, p, 0);
        if (st == CT_OK && (p->lost || (p->cond < CT__POLAR_ILL && ct__polar_escapes(p)))) {
            /* the filter was misled by stray planes, or the dual hull's cheap check by points
               of very different sizes (a plane near the interior point has a huge dual point,
               and the dual hull's tolerance grows with it): the dual hull of every plane,
               checked against every dual point (ct__qh_verify) */
            int j;
            ct__scratch_reset(s, mk);
            p->keep = CT__SALLOC(s, int, p->m);
            if (!p->keep) return CT_NO_MEMORY;
            for (j = 0; j < p->m; ++j) p->keep[j] = j;
            p->nkeep = p->m;
            st = ct__polar_build(s, p, 1);
        }
        if (st == CT_DEGENERATE) {
            ct__scratch_reset(s, mk);
            p->state = CT__POLAR_TOUCHING;
            p->nv = p->nf = 0;
            st = CT_OK;
        }
    }
    return st;
}

CT__INLINE int ct__polar_args_ok(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb) {
    return ct__polar_hull_ok(a) && ct__polar_hull_ok(b) && ct__xf_valid(xa) && ct__xf_valid(xb);
}

/* World position of a working-frame point given relative to c. */
CT__INLINE ct_vec3 ct__polar_world(const ct__polar *p, const ct_xform *xa, ct_vec3 v) {
    return ct__xf_point(xa, ct__madd(p->origin, ct__add(p->c, v), p->scale));
}

CTDEF ct_status ct_intersect(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb,
                             ct_scratch *user, const ct_allocator *alloc, ct_hull *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct__polar p;
    ct_status st;
    ct_vec3 *verts = NULL;
    int *src = NULL, *tag = NULL, j;
    ct_plane *planes = NULL;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    if (!ct__polar_args_ok(a, xa, b, xb)) return CT_INVALID;
    s = ct__scratch_begin(user, &local, alloc);
    mk = ct__scratch_mark(s);
    st = ct__polar_run(s, a, xa, b, xb, 1, &p);
    if (st != CT_OK || p.state != CT__POLAR_OVERLAP) goto done;
    verts = CT__SALLOC(s, ct_vec3, p.nv);
    src = CT__SALLOC(s, int, p.nv);
    tag = CT__SALLOC(s, int, p.nf);
    planes = CT__SALLOC(s, ct_plane, p.nf);
    if (!verts || !src || !tag || !planes) { st = CT_NO_MEMORY; goto done; }
    for (j = 0; j < p.nv; ++j) { verts[j] = ct__polar_world(&p, xa, p.v[j]); src[j] = -1; }
    for (j = 0; j < p.nf; ++j) {
        int q = p.face_plane[j];
        tag[j] = q < p.na ? q : -(q - p.na) - 1;
        planes[j] = q < p.na ? ct__xf_plane(xa, a->planes[q]) : ct__xf_plane(xb, b->planes[q - p.na]);
    }
    st = ct__hull_assemble(out, verts, src, p.nv, p.face_first, p.face_verts, p.nf, planes, tag, p.face_twin,
                              alloc);
    if (st == CT_DEGENERATE) { memset(out, 0, sizeof *out); st = CT_OK; }
done:
    if (st != CT_OK) memset(out, 0, sizeof *out);
    ct__scratch_end(s, &local, mk);
    return st;
}
