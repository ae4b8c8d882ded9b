/* contact.h detail: >>gjk - EPA penetration depth and ct_signed_distance.

   The Expanding Polytope Algorithm (van den Bergen, "Proximity queries and penetration depth
   computation on 3D game objects", GDC 2001; "Collision Detection in Interactive 3D
   Environments" sec. 4.3.8): start from a polytope inside A - B that contains the origin (the
   final GJK simplex, padded to a tetrahedron), repeatedly take the face closest to the origin
   and add the support point along its normal, replacing the faces that point sees by a fan
   over their horizon (found by a depth-first walk over face adjacency, so the removed region
   is connected and the polytope stays a closed 2-manifold). The closest face distance is a
   lower bound of the depth and its support value an upper bound; stop when they agree to a
   relative tolerance. Penetration depth of convex sets = min over unit n of h_{A-B}(n) when
   the origin is inside (Cameron & Culley 1986).

   All memory comes from the scratch (vertices, faces with a free list, horizon); the sizes
   are fixed by CT_EPA_MAX_VERTS, so a warm scratch makes no allocation. */

/* Relative tolerances: CT__EPA_REL for polytopes (exact up to rounding), CT__EPA_REL_SMOOTH
   when a core is curved (the polytope only approximates it; Bullet and libccd use ~1e-4 of
   the size in float). */
#define CT__EPA_REL        ((ct_real)256 * CT__EPS)
#define CT__EPA_REL_SMOOTH ((ct_real)(CT__FLOAT ? 1e-4 : 1e-7))
/* A degenerate step with a gain above this many tolerances is far from converged: reported. */
#define CT__EPA_STUCK 64

typedef struct ct__epa_face {
    int v[3];        /* vertex ids, counter-clockwise seen from outside */
    int adj[3];      /* face across edge i (v[i] -> v[i+1]) */
    int adje[3];     /* index of that edge in adj[i] */
    ct_vec3 n;       /* unit outward normal */
    ct_real d;       /* n . v[0]: signed distance of the plane from the origin */
    int alive;
    unsigned stamp;  /* times the slot was made: tells the heap's entries of earlier faces apart */
} ct__epa_face;

/* An entry of the heap of faces by distance (ct__epa_top). */
typedef struct ct__epa_hent { ct_real d; int f; unsigned stamp; } ct__epa_hent;

typedef struct ct__epa {
    ct__mink *m;
    ct__sv *vert;
    int nv, maxv;
    ct__epa_face *face;
    int nf, maxf;
    int *freed, nfreed;     /* free face slots */
    int *dead, ndead;       /* faces removed in the current step */
    int *hf, *he, nh, maxh; /* horizon: (face, edge) pairs */
    int *fan;               /* the new face of each horizon edge */
    ct_real tol, vis;       /* termination gap and visibility threshold (absolute) */
    ct__epa_hent *heap;     /* faces by (d, index), dead ones dropped lazily; used once the */
    int nheap, maxheap;     /* face slots exceed CT__EPA_HEAP_FROM (heap_on) */
    int heap_on;
} ct__epa;
/* Face slots beyond which the closest face comes from the heap instead of a scan (small
   polytopes, as of 20-vertex hulls, scan faster than they keep a heap). */
#define CT__EPA_HEAP_FROM 96

/* The heap's order: nearer first, then the smaller index (the scan it replaces took the first
   face of least distance: the same face, so the same answers bit for bit). */
CT__INLINE int ct__epa_hless(const ct__epa_hent *a, const ct__epa_hent *b) {
    return a->d < b->d || (a->d == b->d && a->f < b->f);
}
CT__PRIVATE void ct__epa_hdown(ct__epa *e, int i) {
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        ct__epa_hent t;
        if (l < e->nheap && ct__epa_hless(&e->heap[l], &e->heap[m])) m = l;
        if (r < e->nheap && ct__epa_hless(&e->heap[r], &e->heap[m])) m = r;
        if (m == i) return;
        t = e->heap[i]; e->heap[i] = e->heap[m]; e->heap[m] = t;
        i = m;
    }
}
/* Adds face f (live); a full heap is rebuilt from the live faces instead (at most maxf, half
   of it), as it is when the heap is first used. */
CT__PRIVATE void ct__epa_hpush(ct__epa *e, int f) {
    int i;
    if (e->nheap == e->maxheap || !e->heap_on) {
        e->heap_on = 1;
        e->nheap = 0;
        for (i = 0; i < e->nf; ++i)
            if (e->face[i].alive) {
                e->heap[e->nheap].d = e->face[i].d;
                e->heap[e->nheap].f = i;
                e->heap[e->nheap++].stamp = e->face[i].stamp;
            }
        for (i = e->nheap / 2 - 1; i >= 0; --i) ct__epa_hdown(e, i);
        return;   /* f, live, is in */
    }
    i = e->nheap++;
    e->heap[i].d = e->face[f].d;
    e->heap[i].f = f;
    e->heap[i].stamp = e->face[f].stamp;
    while (i > 0 && ct__epa_hless(&e->heap[i], &e->heap[(i - 1) / 2])) {
        ct__epa_hent t = e->heap[i];
        e->heap[i] = e->heap[(i - 1) / 2];
        e->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}
/* The live face of least distance (first index on ties), or -1: entries of dead faces, or of
   slots made again since, are dropped on the way. O(log F) a step instead of a scan of every
   face (60% of EPA on ellipsoids, whose polytopes grow to hundreds of faces). */
CT__PRIVATE int ct__epa_top(ct__epa *e) {
    if (!e->heap_on) {
        int i, c = -1;
        for (i = 0; i < e->nf; ++i)
            if (e->face[i].alive && (c < 0 || e->face[i].d < e->face[c].d)) c = i;
        return c;
    }
    while (e->nheap > 0) {
        const ct__epa_hent *h = &e->heap[0];
        if (e->face[h->f].alive && e->face[h->f].stamp == h->stamp) return h->f;
        e->heap[0] = e->heap[--e->nheap];
        ct__epa_hdown(e, 0);
    }
    return -1;
}

/* A new face (a, b, c), or -1 when the face table is full or the face has no normal. */
CT__PRIVATE int ct__epa_face_new(ct__epa *e, int a, int b, int c) {
    ct__epa_face *f;
    ct_vec3 pa = e->vert[a].w;
    int ok, k;
    if (e->nfreed > 0) k = e->freed[--e->nfreed];
    else if (e->nf < e->maxf) { k = e->nf++; e->face[k].stamp = 0; }
    else return -1;
    f = &e->face[k];
    f->stamp++;
    f->v[0] = a; f->v[1] = b; f->v[2] = c;
    f->adj[0] = f->adj[1] = f->adj[2] = -1;
    f->adje[0] = f->adje[1] = f->adje[2] = 0;
    f->n = ct__cross(ct__sub(e->vert[b].w, pa), ct__sub(e->vert[c].w, pa));
    {   /* one square root when |n|^2 is safely inside the exponent range (an under/overflow
           guard, not a tolerance); otherwise the scaled normalisation */
        ct_real l2 = ct__len2(f->n), lo = (ct_real)(CT__FLOAT ? 1e-30 : 1e-280);
        ok = 1;
        if (l2 > lo && l2 < 1 / lo) f->n = ct__scale(f->n, 1 / ct__sqrt(l2));
        else f->n = ct__normalize(f->n, &ok);
    }
    f->d = ct__dot(f->n, pa);
    f->alive = 1;
    if (!ok) { f->alive = 0; e->freed[e->nfreed++] = k; return -1; }
    if (e->heap_on || e->nf > CT__EPA_HEAP_FROM) ct__epa_hpush(e, k);   /* the first push builds it */
    return k;
}

CT__INLINE void ct__epa_link(ct__epa *e, int f, int i, int g, int j) {
    e->face[f].adj[i] = g; e->face[f].adje[i] = j;
    e->face[g].adj[j] = f; e->face[g].adje[j] = i;
}

/* Van den Bergen's silhouette walk: entered face f through its edge i. Faces w sees are
   removed; the first face it does not see contributes a horizon edge. */
CT__PRIVATE void ct__epa_silhouette(ct__epa *e, int f, int i, ct_vec3 w) {
    ct__epa_face *F = &e->face[f];
    int i1, i2, g1, j1, g2, j2;
    if (!F->alive) return;
    if (ct__dot(F->n, w) - F->d <= e->vis) {
        if (e->nh < e->maxh) { e->hf[e->nh] = f; e->he[e->nh] = i; }
        e->nh++;
        return;
    }
    F->alive = 0;
    e->dead[e->ndead++] = f;
    i1 = (i + 1) % 3; i2 = (i + 2) % 3;
    g1 = F->adj[i1]; j1 = F->adje[i1];
    g2 = F->adj[i2]; j2 = F->adje[i2];
    ct__epa_silhouette(e, g1, j1, w);
    ct__epa_silhouette(e, g2, j2, w);
}

/* Adds vertex w seen from face c. Returns 0 when the step degenerates (a new face without a
   normal, an open horizon, a full table); the caller then stops with the face it had. */
CT__PRIVATE int ct__epa_expand(ct__epa *e, int c, const ct__sv *w) {
    int i, k, vi = e->nv;
    CT_ASSERT(e->nv < e->maxv);   /* the caller stops before the vertex table is full */
    e->vert[e->nv++] = *w;
    e->nh = 0;
    e->ndead = 0;
    e->face[c].alive = 0;
    e->dead[e->ndead++] = c;
    for (i = 0; i < 3; ++i) ct__epa_silhouette(e, e->face[c].adj[i], e->face[c].adje[i], w->w);
    if (e->nh < 3 || e->nh > e->maxh) return 0;
    for (i = 0; i < e->ndead; ++i) e->freed[e->nfreed++] = e->dead[i];
    /* one new face per horizon edge: (v[i+1], v[i], w), its edge 0 against edge i of f */
    for (k = 0; k < e->nh; ++k) {
        ct__epa_face *F = &e->face[e->hf[k]];
        int a = F->v[(e->he[k] + 1) % 3], b = F->v[e->he[k]];
        int g = ct__epa_face_new(e, a, b, vi);
        if (g < 0) return 0;
        ct__epa_link(e, g, 0, e->hf[k], e->he[k]);
        e->fan[k] = g;
    }
    /* the fan: edge 1 (b -> w) of a new face meets edge 2 (w -> a') of the face with a' = b */
    for (k = 0; k < e->nh; ++k) {
        int g = e->fan[k], b = e->face[g].v[1], j, found = 0;
        for (j = 0; j < e->nh && !found; ++j) {
            int h = e->fan[j];
            if (e->face[h].v[0] == b) { ct__epa_link(e, g, 1, h, 2); found = 1; }
        }
        if (!found) return 0;
    }
    return 1;
}

/* Hill-climbing starts for the support along face F's normal: of F's vertices, the one of A
   highest along n and the one of B lowest (the support is near them). */
CT__PRIVATE void ct__epa_hints(const ct__epa *e, const ct__epa_face *F) {
    int i, ba = -1, bb = -1;
    ct_real da = 0, db = 0;
    for (i = 0; i < 3; ++i) {
        const ct__sv *v = &e->vert[F->v[i]];
        ct_real ta = ct__dot(F->n, v->a), tb = -ct__dot(F->n, v->b);
        if (v->ia >= 0 && (ba < 0 || ta > da)) { ba = v->ia; da = ta; }
        if (v->ib >= 0 && (bb < 0 || tb > db)) { bb = v->ib; db = tb; }
    }
    if (ba >= 0) e->m->hint_a = ba;
    if (bb >= 0) e->m->hint_b = bb;
}

/* Pads the GJK simplex (origin on it, within rounding) to a tetrahedron with volume, by
   support points off its affine hull (as libccd and Bullet do). Returns the dimension of
   A - B when it is flat (0, 1 or 2: the depth is then 0 and *flat_n a normal), else 3. */
CT__PRIVATE int ct__epa_pad(ct__mink *m, ct__simplex *s, ct_real tol, ct_vec3 *flat_n) {
    int i, k;
    if (s->n == 1) {
        static const ct_real dirs[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
        for (k = 0; k < 6 && s->n == 1; ++k) {
            ct__sv w;
            ct__mink_support(m, ct__v3(dirs[k][0], dirs[k][1], dirs[k][2]), &w);
            if (ct__dist(w.w, s->v[0].w) > tol) s->v[s->n++] = w;
        }
        if (s->n == 1) {
            int ok;
            *flat_n = ct__normalize(m->ab, &ok);
            if (!ok) *flat_n = ct__v3(0, 0, 1);
            return 0;
        }
    }
    if (s->n == 2) {
        int ok;
        ct_vec3 ax = ct__normalize(ct__sub(s->v[1].w, s->v[0].w), &ok), u, v;
        ct_vec3 d[4];
        if (!ok) ax = ct__v3(1, 0, 0);
        ct__basis(ax, &u, &v);
        d[0] = u; d[1] = ct__neg(u); d[2] = v; d[3] = ct__neg(v);
        for (k = 0; k < 4 && s->n == 2; ++k) {
            ct__sv w;
            ct__mink_support(m, d[k], &w);
            if (ct__len(ct__cross(ct__sub(w.w, s->v[0].w), ax)) > tol) s->v[s->n++] = w;
        }
        if (s->n == 2) { /* A - B is a segment: any normal of it */
            ct_vec3 t = ct__sub(m->ab, ct__scale(ax, ct__dot(ax, m->ab)));
            *flat_n = ct__normalize(t, &ok);
            if (!ok) *flat_n = u;
            return 1;
        }
    }
    if (s->n == 3) {
        int ok;
        ct_vec3 n = ct__normalize(ct__cross(ct__sub(s->v[1].w, s->v[0].w), ct__sub(s->v[2].w, s->v[0].w)), &ok);
        ct__sv wp, wm;
        ct_real dp, dm;
        if (!ok) n = ct__v3(0, 0, 1);
        ct__mink_support(m, n, &wp);
        ct__mink_support(m, ct__neg(n), &wm);
        dp = ct__dot(n, ct__sub(wp.w, s->v[0].w));
        dm = -ct__dot(n, ct__sub(wm.w, s->v[0].w));
        if (ct__max(dp, dm) <= tol) { /* A - B is flat: depth 0 along the plane normal */
            *flat_n = ct__dot(n, m->ab) < 0 ? ct__neg(n) : n;
            return 2;
        }
        s->v[s->n++] = dp >= dm ? wp : wm;
    }
    for (i = 0; i < 4; ++i) s->l[i] = 0;
    return 3;
}

/* Builds the tetrahedron s (4 vertices) as the starting polytope. 0 when degenerate. */
CT__PRIVATE int ct__epa_init(ct__epa *e, const ct__simplex *s) {
    /* faces of a positively oriented tetrahedron, CCW from outside, and across each edge i
       (v[i] -> v[i+1]) the neighbouring face and its edge index */
    static const int tf[4][3] = { { 0, 2, 1 }, { 0, 1, 3 }, { 1, 2, 3 }, { 0, 3, 2 } };
    static const int adj[4][3][2] = { { { 3, 2 }, { 2, 0 }, { 1, 0 } }, { { 0, 2 }, { 2, 2 }, { 3, 0 } },
                                      { { 0, 1 }, { 3, 1 }, { 1, 1 } }, { { 1, 2 }, { 2, 1 }, { 0, 0 } } };
    int i, f, idx[4];
    ct_real det;
    for (i = 0; i < 4; ++i) e->vert[i] = s->v[i];
    e->nv = 4;
    det = ct__dot(ct__sub(e->vert[1].w, e->vert[0].w),
                  ct__cross(ct__sub(e->vert[2].w, e->vert[0].w), ct__sub(e->vert[3].w, e->vert[0].w)));
    if (det < 0) { ct__sv t = e->vert[1]; e->vert[1] = e->vert[2]; e->vert[2] = t; }
    for (f = 0; f < 4; ++f) {
        idx[f] = ct__epa_face_new(e, tf[f][0], tf[f][1], tf[f][2]);
        if (idx[f] < 0) return 0;
    }
    for (f = 0; f < 4; ++f)
        for (i = 0; i < 3; ++i) {
            e->face[idx[f]].adj[i] = idx[adj[f][i][0]];
            e->face[idx[f]].adje[i] = adj[f][i][1];
        }
    return 1;
}

typedef struct ct__epa_result {
    ct_vec3 n;          /* unit outward normal of A - B at the closest boundary point */
    ct_real depth;      /* >= 0, for the cores */
    ct_vec3 pa, pb;     /* core witnesses in A's frame */
    int iters;
} ct__epa_result;

/* Barycentric weights of p (on the plane of triangle (a, b, c), unit normal n); returns the
   smallest one (negative when p is outside the triangle). */
CT__PRIVATE ct_real ct__tri_bary(ct_vec3 p, ct_vec3 a, ct_vec3 b, ct_vec3 c, ct_vec3 n, ct_real *l) {
    ct_real s;
    l[0] = ct__dot(n, ct__cross(ct__sub(b, p), ct__sub(c, p)));
    l[1] = ct__dot(n, ct__cross(ct__sub(c, p), ct__sub(a, p)));
    l[2] = ct__dot(n, ct__cross(ct__sub(a, p), ct__sub(b, p)));
    s = l[0] + l[1] + l[2];
    if (!(s > 0)) { l[0] = 1; l[1] = l[2] = 0; return -1; }
    l[0] /= s; l[1] /= s; l[2] /= s;
    return ct__min(l[0], ct__min(l[1], l[2]));
}

/* The witness face: the closest face, or when the origin's projection falls outside it (A - B
   has coplanar facets, e.g. the parallelogram of two edges, split into triangles) the face of
   the same plane that contains it. */
CT__PRIVATE void ct__epa_witness(const ct__epa *e, const ct__epa_face *best, ct__epa_result *res) {
    ct_vec3 p = ct__scale(best->n, best->d);
    ct_real l[3], t[3], lo;
    const ct__epa_face *F = best;
    int i;
    lo = ct__tri_bary(p, e->vert[F->v[0]].w, e->vert[F->v[1]].w, e->vert[F->v[2]].w, F->n, l);
    for (i = 0; i < e->nf && lo < 0; ++i) {
        const ct__epa_face *G = &e->face[i];
        ct_real m;
        int j, off = 0;
        if (!G->alive || ct__dot(G->n, best->n) <= 0) continue;
        for (j = 0; j < 3; ++j) off |= ct__abs(ct__dot(best->n, e->vert[G->v[j]].w) - best->d) > e->tol;
        if (off) continue;
        m = ct__tri_bary(p, e->vert[G->v[0]].w, e->vert[G->v[1]].w, e->vert[G->v[2]].w, best->n, t);
        if (m > lo) { lo = m; F = G; memcpy(l, t, sizeof t); }
    }
    if (lo < 0) { /* clamp to the triangle */
        ct_real s;
        for (i = 0; i < 3; ++i) l[i] = ct__max(l[i], 0);
        s = l[0] + l[1] + l[2];
        if (!(s > 0)) { l[0] = 1; l[1] = l[2] = 0; s = 1; }
        for (i = 0; i < 3; ++i) l[i] /= s;
    }
    res->pa = res->pb = ct__v3(0, 0, 0);
    for (i = 0; i < 3; ++i) {
        res->pa = ct__madd(res->pa, e->vert[F->v[i]].a, l[i]);
        res->pb = ct__madd(res->pb, e->vert[F->v[i]].b, l[i]);
    }
    res->n = best->n;
    res->depth = ct__max(best->d, 0);
}


/* Curved cores: EPA's polytope approaches a curved A - B only slowly (a sphere needs
   thousands of vertices for 1e-7), so its answer is refined by Newton's method on the unit
   sphere for min_n h(n), h the support function of A - B (the depth, Cameron & Culley). In
   tangent coordinates (a, b) of n, n' = normalize(n + a u + b v), the gradient of h is the
   tangential part of the support point w(n') over |n + a u + b v| (the envelope theorem), zero
   where w is parallel to n: the closest boundary point. Its Hessian (the curvature tensor of
   the boundary at w minus h I) comes from forward differences of the gradient; a step that
   does not lower h is halved; where the Hessian is not positive definite (far from the
   minimum) the step is a quarter radian down the gradient. Converges quadratically on strictly convex smooth boundaries;
   h(n) is an upper bound of the depth at every step, EPA's closest face a lower bound. */
#define CT__EPA_NEWTON_ITERS 32
/* Newton starts when EPA stopped with loose bounds on curved cores (up to this many closest
   faces, each more than acos(CT__EPA_START_COS) = 0.6 rad from the others): enough to reach
   both basins of a near-sphere's two minima, paid only where EPA alone does not converge */
#define CT__EPA_STARTS    12
#define CT__EPA_START_COS ((ct_real)0.825)
/* forward-difference step of the normal: sqrt(eps) balances truncation against rounding */
#define CT__EPA_FD      (ct__sqrt(CT__EPS))
/* A step that does not descend is halved at most this many times (to 2^-16 of itself, about
   1e-5 rad): h that still does not descend is not smooth there (a kink: the minimum sits at a
   flat facet of the Minkowski difference, a hull's face against a cylinder's rim, where EPA's
   answer stands), or the gradient is rounding. Smooth minima descend within a few halvings;
   40 halvings cost a cylinder's refinement ~400 support calls to end the same way. */
#define CT__EPA_HALVINGS 16
/* converged when |gradient| <= this x wmax: the depth is then within ~eps of its minimum */
#define CT__EPA_GRAD    (ct__sqrt(CT__EPS))

/* A polytope core's vertex held fixed (ct__epa_features): the support of A - B with that
   vertex in place of the core's own support point, i.e. the support function of the patch that
   vertex makes with the other core. NULL: the plain support of A - B. */
typedef struct ct__epa_fix { int side; ct_vec3 v; } ct__epa_fix;
CT__INLINE void ct__epa_support(ct__mink *m, const ct__epa_fix *fx, ct_vec3 n, ct__sv *w) {
    ct__mink_support(m, n, w);
    if (!fx) return;
    if (fx->side) w->b = fx->v; else w->a = fx->v;
    w->w = ct__sub(w->a, w->b);
}

/* Tangential gradient of h at n' = normalize(n + a u + b v) into g[2]; *w the support point. */
CT__PRIVATE ct_real ct__epa_grad(ct__mink *m, const ct__epa_fix *fx, ct_vec3 n, ct_vec3 u, ct_vec3 v, ct_real a,
                                 ct_real b, ct_real g[2], ct__sv *w, ct_vec3 *np) {
    ct_vec3 q = ct__madd(ct__madd(n, u, a), v, b);
    ct_real len = ct__len(q);
    ct_vec3 nn = ct__scale(q, 1 / len);
    ct__epa_support(m, fx, nn, w);
    g[0] = (ct__dot(u, w->w) - ct__dot(nn, u) * ct__dot(nn, w->w)) / len;
    g[1] = (ct__dot(v, w->w) - ct__dot(nn, v) * ct__dot(nn, w->w)) / len;
    *np = nn;
    return ct__dot(nn, w->w);
}

/* Refines res (EPA's answer, working scale) on curved cores. 1 when converged. With fx, the
   support function minimised is that of the fixed vertex's patch (ct__epa_support). */
CT__PRIVATE int ct__epa_smooth(ct__mink *m, const ct__epa_fix *fx, ct_real wmax, ct__epa_result *res) {
    ct_vec3 n = res->n, u, v, np;
    ct__sv w, w1;
    ct_real g[2], g1[2], g2[2], h, H[2][2], e = CT__EPA_FD;
    int it;
    h = ct__epa_grad(m, fx, n, ct__v3(1, 0, 0), ct__v3(0, 1, 0), 0, 0, g, &w, &np);
    for (it = 0; it < CT__EPA_NEWTON_ITERS; ++it) {
        ct_real det, da, db, hn, t;
        int k;
        ct__basis(n, &u, &v);
        g[0] = ct__dot(u, w.w);
        g[1] = ct__dot(v, w.w);
        if (m->bad) return 0;
        if (ct__sqrt(g[0] * g[0] + g[1] * g[1]) <= CT__EPA_GRAD * wmax) {
            res->n = n;
            res->depth = ct__max(h, 0);
            res->pa = w.a;
            res->pb = w.b;
            return 1;
        }
        ct__epa_grad(m, fx, n, u, v, e, 0, g1, &w1, &np);
        ct__epa_grad(m, fx, n, u, v, 0, e, g2, &w1, &np);
        H[0][0] = (g1[0] - g[0]) / e;
        H[1][1] = (g2[1] - g[1]) / e;
        H[0][1] = H[1][0] = ((g1[1] - g[1]) + (g2[0] - g[0])) / (2 * e);
        det = H[0][0] * H[1][1] - H[0][1] * H[1][0];
        if (det > 0 && H[0][0] > 0) { /* Newton */
            da = -(H[1][1] * g[0] - H[0][1] * g[1]) / det;
            db = -(H[0][0] * g[1] - H[1][0] * g[0]) / det;
        } else { /* h is not convex here (far from the minimum): a quarter-radian step down
                    the gradient, halved below until it descends */
            t = (ct_real)0.25 / ct__sqrt(g[0] * g[0] + g[1] * g[1]);
            da = -g[0] * t;
            db = -g[1] * t;
        }
        t = ct__sqrt(da * da + db * db);
        if (t > (ct_real)0.5) { da *= (ct_real)0.5 / t; db *= (ct_real)0.5 / t; }
        for (k = 0; k <= CT__EPA_HALVINGS; ++k, da /= 2, db /= 2) {
            ct_real gg[2];
            hn = ct__epa_grad(m, fx, n, u, v, da, db, gg, &w1, &np);
            if (m->bad) return 0;
            if (hn <= h) break;
        }
        if (k > CT__EPA_HALVINGS) return 0; /* no descent: a kink, or rounding (the gradient test) */
        n = np;
        w = w1;
        h = hn;
    }
    return 0;
}

/* Flat facets of a curved A - B. Where the depth's minimum sits on a face F of one core
   against a point b of the other (an ellipsoid or a cylinder on a box's or hull's face, or on
   a flat patch of a cloud), A - B is flat there, h has a kink and the Newton refinement above
   cannot descend: EPA's curved tolerance would stand (4e-6 of the size for ellipsoids pressed
   into a box face). At the face's own normal n_f the support of A - B is F - b, and when the
   origin's foot point on that plane, h(n_f) n_f, lies on F - b, the foot point is the closest
   boundary point near n_f and h(n_f) the depth there exactly (the whole facet is boundary).
   Tried with the face of A most aligned with EPA's normal, B's face most aligned with its
   opposite, and, for a cloud, the plane of the three points of it that EPA's closest face is
   made of (kept only when they lie on the cloud's support plane along their normal: then
   they bound part of its face). A foot point within CT__EPA_FACET_IN x wmax of the face
   counts as on it. The least such h wins when it lies within EPA's bracket [L, L + tol]
   (another facet can be a local minimum only: EPA's bounds keep the global one); 1 when res
   was replaced (normal, depth and witnesses; working scale). */
#define CT__EPA_FACET_IN ((ct_real)64 * CT__EPS)
typedef struct ct__epa_facet_try { ct_vec3 n, pa, pb; ct_real h; int found; } ct__epa_facet_try;
CT__PRIVATE void ct__epa_facet_keep(ct__epa_facet_try *t, ct_vec3 n, ct_real h, ct_vec3 pa, ct_vec3 pb) {
    if (t->found && !(h < t->h)) return;
    t->found = 1; t->n = n; t->h = h; t->pa = pa; t->pb = pb;
}
/* The cloud triangle of side (0: A, 1: B) from EPA's closest face F: its three points of that
   side, their plane's normal outward (for B: along -n) into *nf, counter-clockwise about it.
   0 when the ids repeat or the plane has no normal. */
CT__PRIVATE int ct__epa_cloud_tri(const ct__epa *e, const ct__epa_face *F, int side, ct_vec3 n, ct_vec3 *p, ct_vec3 *nf) {
    int k, id[3], ok;
    for (k = 0; k < 3; ++k) {
        const ct__sv *v = &e->vert[F->v[k]];
        id[k] = side ? v->ib : v->ia;
        p[k] = side ? v->b : v->a;
    }
    if (id[0] < 0 || id[0] == id[1] || id[1] == id[2] || id[0] == id[2]) return 0;
    *nf = ct__normalize(ct__cross(ct__sub(p[1], p[0]), ct__sub(p[2], p[0])), &ok);
    if (!ok) return 0;
    if (ct__dot(*nf, side ? ct__neg(n) : n) < 0) {
        ct_vec3 t = p[1]; p[1] = p[2]; p[2] = t;
        *nf = ct__neg(*nf);
    }
    return 1;
}
CT__PRIVATE int ct__epa_facet(ct__mink *m, const ct__epa *e, const ct__epa_face *F, ct_real wmax, ct__epa_result *res) {
    ct__epa_facet_try t;
    ct_real lim = res->depth + e->tol + e->vis, tin = CT__EPA_FACET_IN * wmax, sc = m->scale;
    const ct_xform *rel = &m->rel;
    int side;
    memset(&t, 0, sizeof t);
    for (side = 0; side < 2; ++side) {
        const ct_shape *sh = side ? m->b : m->a;
        ct_vec3 nl, nc, tri[3], foot, x;
        ct__sv w;
        ct_real h;
        int f = -1, cloud = 0;
        if (sh->type == CT_SHAPE_POINTS) {
            cloud = ct__epa_cloud_tri(e, F, side, res->n, tri, &nl);
            if (!cloud) continue;
            nc = side ? ct__neg(nl) : nl;
        } else {
            f = ct__shape_facet(sh, side ? ct__xf_inv_dir(rel, ct__neg(res->n)) : res->n, &nl);
            if (f < 0) continue;
            nc = side ? ct__neg(ct__xf_dir(rel, nl)) : nl;
        }
        ct__mink_support(m, nc, &w);
        if (m->bad) return 0;
        h = ct__dot(nc, w.w);
        if (!(h <= lim)) continue;
        foot = ct__scale(nc, h);
        if (cloud) {   /* the triangle must lie on the cloud's support plane (part of its face) */
            ct_real top = side ? ct__dot(nl, w.b) : ct__dot(nl, w.a);
            int k, on = 1;
            for (k = 0; k < 3; ++k) on &= ct__dot(nl, tri[k]) >= top - tin;
            x = side ? ct__sub(w.a, foot) : ct__add(foot, w.b);
            on = on && ct__left_of(tri[0], tri[1], nl, x, tin) && ct__left_of(tri[1], tri[2], nl, x, tin) &&
                 ct__left_of(tri[2], tri[0], nl, x, tin);   /* x in the triangle */
            if (on) ct__epa_facet_keep(&t, nc, h, side ? w.a : x, side ? x : w.b);
        } else if (!side) {   /* A's face F: the foot point plus B's support point on F */
            x = ct__add(foot, w.b);
            if (ct__shape_facet_holds(sh, f, nl, ct__scale(x, sc), tin * sc)) ct__epa_facet_keep(&t, nc, h, x, w.b);
        } else {              /* B's face: A's support point minus the foot point on it */
            x = ct__sub(w.a, foot);
            if (ct__shape_facet_holds(sh, f, nl, ct__xf_inv_point(rel, ct__scale(x, sc)), tin * sc))
                ct__epa_facet_keep(&t, nc, h, w.a, x);
        }
    }
    if (!t.found) return 0;
    res->n = t.n;
    res->depth = ct__max(t.h, 0);
    res->pa = t.pa;
    res->pb = t.pb;
    return 1;
}

/* Edges of one core against a curved other: the same kink one dimension down. Where the
   minimum sits on the patch made by an edge [v1, v2] of a polytope core and the other core's
   curved surface (an ellipsoid pressed onto a box's edge), the normals that keep v1 and v2
   tied form the great circle n . (v2 - v1) = 0, along which h is smooth: Newton on the circle
   (the derivative of h along it is w . n', the envelope theorem; the second by a forward
   difference; steps halved until h descends) from EPA's normal. At its minimum the foot point
   h n plus the other core's support point lies on the line of the edge; it is the depth there
   when both ends are still support points of their core and the point lies between them. The
   edge is the one EPA's closest face names (its vertices carry exactly two distinct ids of a
   polytope core). Taken within EPA's bracket, as a facet; 1 when res was replaced. */
typedef struct ct__epa_arc { ct_vec3 u, w; } ct__epa_arc;
CT__INLINE ct_real ct__epa_arc_eval(ct__mink *m, const ct__epa_arc *c, ct_real t, ct__sv *sv, ct_real *g, ct_vec3 *n) {
    ct_real ct = ct__cos(t), st = ct__sin(t);
    *n = ct__add(ct__scale(c->u, ct), ct__scale(c->w, st));
    ct__mink_support(m, *n, sv);
    *g = ct__dot(sv->w, ct__add(ct__scale(c->u, -st), ct__scale(c->w, ct)));
    return ct__dot(*n, sv->w);
}
CT__PRIVATE int ct__epa_edge(ct__mink *m, const ct__epa *e, const ct__epa_face *F, ct_real wmax, ct__epa_result *res) {
    ct_real lim = res->depth + e->tol + e->vis, tin = CT__EPA_FACET_IN * wmax;
    int side;
    for (side = 0; side < 2; ++side) {
        const ct_shape *sh = side ? m->b : m->a;
        ct_vec3 q[3], v1, v2, ed, eh, n, foot, x;
        ct__epa_arc arc;
        ct__sv sv, s1;
        ct_real el, t = 0, h, g, g1, hn, top, lo, hi, u;
        int id[3], k, it, i1, i2, ok, done = 0;
        if (ct__shape_nids(sh) <= 0) continue;
        for (k = 0; k < 3; ++k) {
            const ct__sv *v = &e->vert[F->v[k]];
            id[k] = side ? v->ib : v->ia;
            q[k] = side ? v->b : v->a;
        }
        if (id[0] < 0 || id[1] < 0 || id[2] < 0) continue;
        if (id[0] == id[1] && id[1] != id[2]) { i1 = 0; i2 = 2; }
        else if (id[0] != id[1] && (id[0] == id[2] || id[1] == id[2])) { i1 = 0; i2 = 1; }
        else continue;   /* one vertex, or three: not an edge */
        v1 = q[i1]; v2 = q[i2];
        ed = ct__sub(v2, v1);
        el = ct__len(ed);
        if (!(el > tin)) continue;
        eh = ct__scale(ed, 1 / el);
        arc.u = ct__normalize(ct__sub(res->n, ct__scale(eh, ct__dot(eh, res->n))), &ok);
        if (!ok) continue;
        arc.w = ct__cross(eh, arc.u);
        h = ct__epa_arc_eval(m, &arc, t, &sv, &g, &n);
        for (it = 0; it < CT__EPA_NEWTON_ITERS && !m->bad; ++it) {
            ct_real H, step, fd = CT__EPA_FD;
            ct_vec3 n1;
            ct__epa_arc_eval(m, &arc, t + fd, &s1, &g1, &n1);
            H = (g1 - g) / fd;
            if (ct__abs(g) <= CT__EPA_GRAD * wmax) {   /* converged: one more Newton step for the
                                                          normal (h is already exact to eps) */
                done = 1;
                if (H > 0) {
                    hn = ct__epa_arc_eval(m, &arc, t - g / H, &s1, &g1, &n1);
                    if (hn <= h) { h = hn; sv = s1; n = n1; }
                }
                break;
            }
            step = H > 0 ? -g / H : (g > 0 ? (ct_real)-0.25 : (ct_real)0.25);
            if (step > (ct_real)0.5) step = (ct_real)0.5;
            if (step < (ct_real)-0.5) step = (ct_real)-0.5;
            for (k = 0; k <= CT__EPA_HALVINGS; ++k, step /= 2) {
                hn = ct__epa_arc_eval(m, &arc, t + step, &s1, &g1, &n1);
                if (m->bad || hn <= h) break;
            }
            if (m->bad || k > CT__EPA_HALVINGS) break;
            t += step; h = hn; g = g1; sv = s1; n = n1;
        }
        if (m->bad) return 0;
        if (!done || !(h <= lim)) continue;
        /* both ends still support points of their core along n, and the foot point's partner
           on the segment between them */
        top = side ? -ct__dot(n, sv.b) : ct__dot(n, sv.a);
        lo = side ? -ct__dot(n, v1) : ct__dot(n, v1);
        hi = side ? -ct__dot(n, v2) : ct__dot(n, v2);
        if (lo < top - tin || hi < top - tin) continue;
        foot = ct__scale(n, h);
        x = side ? ct__sub(sv.a, foot) : ct__add(foot, sv.b);
        u = ct__dot(ct__sub(x, v1), eh);
        if (u < -tin || u > el + tin) continue;
        res->n = n;
        res->depth = ct__max(h, 0);
        res->pa = side ? sv.a : x;
        res->pb = side ? x : sv.b;
        return 1;
    }
    return 0;
}

/* A polytope core against a curved one, enumerated (only when EPA's bounds stayed loose, so the
   depth may have several local minima and Newton's starts can each stop at a kink). A - B is
   then the union of patches, one per feature of the polytope P: a face's flat patch (its
   normal), an edge's patch (normals on the arc of the edge's great circle between its two
   faces' normals) and a vertex's patch (the vertex plus the curved core: smooth, normals in the
   vertex's cone). The closest boundary point lies on one of them: at a face normal, at a
   minimum of h along an edge's arc, or at a minimum of the vertex patch's own support function
   inside its cone. Every face normal is tried; each arc is sampled (CT__EPA_ARC_SAMPLES) and
   every sampled local minimum, its ends included (a minimum a few degrees from a face normal
   lies between the end and the next sample), refined by golden section; every vertex patch gets Newton
   (ct__epa_smooth with the vertex fixed) from the curved core's six axis directions and from
   its centre's direction. Every direction found is scored by h of A - B itself, an upper bound
   of the depth everywhere, so the least score is the depth (no candidate can undercut it), and
   exact once the enumeration holds the minimiser. P's faces: a hull's own (with adjacency),
   else quickhull of its vertices (a flat P is not enumerated). Polytopes of at most
   CT__EPA_ENUM_MAX vertices; *done 1 when res was filled. */
#define CT__EPA_ENUM_MAX    64
#define CT__EPA_ARC_SAMPLES 8
#define CT__EPA_GOLDEN      48
typedef struct ct__epa_best { ct_vec3 n; ct_real h; int found; } ct__epa_best;
/* Keeps direction n of score h when it is the least so far. Returns h. */
CT__INLINE ct_real ct__epa_keep(const ct__mink *m, ct_vec3 n, ct_real h, ct__epa_best *b) {
    if (!m->bad && (!b->found || h < b->h)) { b->found = 1; b->h = h; b->n = n; }
    return h;
}
/* Scores unit n by h of A - B (ct__epa_keep). */
CT__INLINE ct_real ct__epa_score(ct__mink *m, ct_vec3 n, ct__epa_best *b) {
    ct__sv w;
    ct__mink_support(m, n, &w);
    return ct__epa_keep(m, n, ct__dot(n, w.w), b);
}
/* Scores the arc's direction at angle t (ct__epa_arc_eval). */
CT__INLINE ct_real ct__epa_arc_score(ct__mink *m, const ct__epa_arc *c, ct_real t, ct__epa_best *b) {
    ct__sv sv;
    ct_real g;
    ct_vec3 n;
    ct_real h = ct__epa_arc_eval(m, c, t, &sv, &g, &n);
    return ct__epa_keep(m, n, h, b);
}
/* A direction of P's frame (side 1: B's) as a unit direction of A - B (B's features bound it
   reversed); the relative rotation is orthonormal only to rounding, so it is normalised. */
CT__INLINE ct_vec3 ct__epa_pdir(const ct__mink *m, int side, ct_vec3 n) {
    int ok;
    ct_vec3 d = ct__normalize(side ? ct__neg(ct__xf_dir(&m->rel, n)) : n, &ok);
    return ok ? d : n;
}
CT__PRIVATE ct_status ct__epa_features(ct__mink *m, ct_scratch *sc, ct_real wmax, ct__epa_result *res, int *done) {
    const ct_shape *sh;
    const ct_hull *hl = NULL;
    const int *ff, *tw, *vl = NULL;
    const ct_plane *pl;
    ct__qh_result qh;
    ct__epa_best best;
    ct__epa_result r1;
    ct__mark mk = ct__scratch_mark(sc);
    ct_vec3 *pts, *x, ax[7], cen;
    int side, nv, nf, nvl, f, k, j, t, *fof;
    *done = 0;
    if (ct__shape_smooth(m->b) && !ct__shape_smooth(m->a) && ct__shape_nids(m->a) >= 4) side = 0;
    else if (ct__shape_smooth(m->a) && !ct__shape_smooth(m->b) && ct__shape_nids(m->b) >= 4) side = 1;
    else return CT_OK;
    sh = side ? m->b : m->a;
    nv = ct__shape_nids(sh);
    if (nv > CT__EPA_ENUM_MAX) return CT_OK;
    pts = CT__SALLOC(sc, ct_vec3, nv);
    x = CT__SALLOC(sc, ct_vec3, nv);
    if (!pts || !x) return CT_NO_MEMORY;
    for (k = 0; k < nv; ++k) {
        pts[k] = ct__shape_vertex(sh, k);
        x[k] = ct__scale(side ? ct__xf_point(&m->rel, pts[k]) : pts[k], m->inv);   /* working frame */
    }
    if (sh->type == CT_SHAPE_HULL) hl = sh->ct__hull;
    if (hl && hl->face_first && hl->face_verts && hl->he_twin && hl->planes) {
        nf = hl->nfaces; ff = hl->face_first; tw = hl->he_twin; pl = hl->planes; nvl = nv;
    } else {
        ct_status st = ct__quickhull(sc, pts, nv, 0, 1, &qh);
        if (st == CT_NO_MEMORY) return st;
        if (st != CT_OK) { ct__scratch_reset(sc, mk); return CT_OK; }   /* flat: not enumerated */
        nf = qh.nfaces; ff = qh.face_first; tw = qh.he_twin; pl = qh.planes;
        nvl = qh.nverts; vl = qh.verts;
    }
    fof = CT__SALLOC(sc, int, ff[nf]);
    if (!fof) return CT_NO_MEMORY;
    memset(&best, 0, sizeof best);
    for (f = 0; f < nf; ++f) {   /* faces */
        for (k = ff[f]; k < ff[f + 1]; ++k) fof[k] = f;
        ct__epa_score(m, ct__epa_pdir(m, side, pl[f].n), &best);
    }
    for (k = 0; k < ff[nf] && !m->bad; ++k) {   /* edges, each once: the arc between its faces' normals */
        ct__epa_arc arc;
        ct_vec3 n2;
        ct_real wl, th, g[CT__EPA_ARC_SAMPLES + 1];
        if (tw[k] < k || tw[k] >= ff[nf]) continue;
        arc.u = ct__epa_pdir(m, side, pl[fof[k]].n);
        n2 = ct__epa_pdir(m, side, pl[fof[tw[k]]].n);
        arc.w = ct__sub(n2, ct__scale(arc.u, ct__dot(n2, arc.u)));
        wl = ct__len(arc.w);
        if (!(wl > CT__EPA_FD)) continue;   /* nearly coplanar faces: their normals stand for the arc */
        arc.w = ct__scale(arc.w, 1 / wl);
        th = ct__atan2(ct__dot(n2, arc.w), ct__dot(n2, arc.u));
        for (j = 0; j <= CT__EPA_ARC_SAMPLES; ++j) g[j] = ct__epa_arc_score(m, &arc, th * (ct_real)j / CT__EPA_ARC_SAMPLES, &best);
        for (j = 0; j <= CT__EPA_ARC_SAMPLES; ++j) {   /* the ends too: a minimum next to a face */
            ct_real a, b, c, d, fc, fd, gr = (ct_real)0.6180339887498949;
            if (!((j == 0 || g[j] <= g[j - 1]) && (j == CT__EPA_ARC_SAMPLES || g[j] <= g[j + 1]))) continue;
            a = th * (ct_real)ct__imax(j - 1, 0) / CT__EPA_ARC_SAMPLES;
            b = th * (ct_real)ct__imin(j + 1, CT__EPA_ARC_SAMPLES) / CT__EPA_ARC_SAMPLES;
            c = b - gr * (b - a);
            d = a + gr * (b - a);
            fc = ct__epa_arc_score(m, &arc, c, &best);
            fd = ct__epa_arc_score(m, &arc, d, &best);
            for (t = 0; t < CT__EPA_GOLDEN; ++t) {
                if (fc < fd) { b = d; d = c; fd = fc; c = b - gr * (b - a); fc = ct__epa_arc_score(m, &arc, c, &best); }
                else { a = c; c = d; fc = fd; d = a + gr * (b - a); fd = ct__epa_arc_score(m, &arc, d, &best); }
            }
        }
    }
    /* vertices: Newton on each vertex patch from the curved core's axes and centre */
    for (j = 0; j < 3; ++j) {
        ct_vec3 e = ct__v3(j == 0, j == 1, j == 2);
        ax[2 * j] = side ? e : ct__epa_pdir(m, 1, ct__neg(e));   /* B's axis in A's frame */
        ax[2 * j + 1] = ct__neg(ax[2 * j]);
    }
    cen = side ? ct__v3(0, 0, 0) : ct__scale(m->rel.p, m->inv);   /* the curved core's local origin */
    for (k = 0; k < nvl && !m->bad; ++k) {
        int q = vl ? vl[k] : k, ok;
        ct__epa_fix fx;
        fx.side = side;
        fx.v = x[q];
        ax[6] = ct__normalize(side ? ct__sub(x[q], cen) : ct__sub(cen, x[q]), &ok);   /* from the patch's centre */
        for (j = 0; j < (ok ? 7 : 6) && !m->bad; ++j) {
            r1 = *res;
            r1.n = ax[j];
            if (ct__epa_smooth(m, &fx, wmax, &r1)) ct__epa_score(m, r1.n, &best);
        }
    }
    ct__scratch_reset(sc, mk);
    if (m->bad || !best.found) return CT_OK;
    {   /* the witnesses: the foot point h n on the feature's patch, split between the cores
           (n unit to rounding: scored again as given back) */
        ct__sv w;
        ct_vec3 foot, n;
        ct_real h;
        int ok;
        n = ct__normalize(best.n, &ok);
        if (!ok) return CT_OK;
        ct__mink_support(m, n, &w);
        if (m->bad) return CT_OK;
        h = ct__dot(n, w.w);
        foot = ct__scale(n, h);
        res->n = n;
        res->depth = ct__max(h, 0);
        res->pa = side ? w.a : ct__add(foot, w.b);
        res->pb = side ? ct__sub(w.a, foot) : w.b;
    }
    r1 = *res;   /* polished by Newton where h is smooth there */
    if (ct__epa_smooth(m, NULL, wmax, &r1) && r1.depth < res->depth) *res = r1;
    *done = 1;
    return CT_OK;
}

/* EPA on the cores, from the GJK simplex *s (origin in it within rounding). */
CT__PRIVATE ct_status ct__epa_run(ct__mink *m, ct__simplex *s, ct_real wmax, ct_scratch *sc, ct__epa_result *res) {
    ct__epa e;
    ct_status st = CT_OK;
    ct_real rel = (ct__shape_smooth(m->a) || ct__shape_smooth(m->b)) ? CT__EPA_REL_SMOOTH : CT__EPA_REL;
    ct_real tol = CT__GJK_ZERO * wmax;
    ct__epa_face best;
    int dim, c = -1, i, have = 0;
    memset(res, 0, sizeof *res);
    ct__simplex_witness(s, &res->pa, &res->pb);
    m->climb = 0;   /* EPA's face normals turn far between supports: small hulls are scanned */
    dim = ct__epa_pad(m, s, tol, &res->n);
    if (m->bad) return CT_INVALID;
    if (dim < 3) return CT_OK;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.maxv = CT_EPA_MAX_VERTS;
    e.maxf = 2 * CT_EPA_MAX_VERTS;
    e.maxh = CT_EPA_MAX_VERTS;
    e.vert = CT__SALLOC(sc, ct__sv, e.maxv);
    e.face = CT__SALLOC(sc, ct__epa_face, e.maxf);
    e.freed = CT__SALLOC(sc, int, e.maxf);
    e.dead = CT__SALLOC(sc, int, e.maxf);
    e.hf = CT__SALLOC(sc, int, e.maxh);
    e.he = CT__SALLOC(sc, int, e.maxh);
    e.fan = CT__SALLOC(sc, int, e.maxh);
    e.maxheap = 2 * e.maxf;
    e.heap = CT__SALLOC(sc, ct__epa_hent, e.maxheap);
    if (!e.vert || !e.face || !e.freed || !e.dead || !e.hf || !e.he || !e.fan || !e.heap) return CT_NO_MEMORY;
    for (i = 0; i < 4; ++i) wmax = ct__max(wmax, ct__len(s->v[i].w));
    e.tol = rel * wmax;
    e.vis = CT__GJK_NOISE * wmax;
    if (!ct__epa_init(&e, s)) { /* flat within rounding: depth 0 */
        int ok;
        res->n = ct__normalize(m->ab, &ok);
        if (!ok) res->n = ct__v3(0, 0, 1);
        return CT_OK;
    }
    for (res->iters = 0;; ++res->iters) {
        ct__sv w;
        ct_real gain;
        c = ct__epa_top(&e);
        if (c < 0) { st = CT_NO_CONVERGENCE; break; } /* cannot happen: the polytope is closed */
        best = e.face[c];
        have = 1;
        ct__epa_hints(&e, &best);
        ct__mink_support(m, best.n, &w);
        if (m->bad) return CT_INVALID;
        gain = ct__dot(best.n, w.w) - best.d;
        if (gain <= e.tol) break;
        if (e.nv >= e.maxv) { st = CT_NO_CONVERGENCE; break; }
        /* a degenerate step (w on the horizon within rounding) stops with the closest face,
           still a lower bound; far from converged that is reported */
        if (!ct__epa_expand(&e, c, &w)) {
            if (gain > CT__EPA_STUCK * e.tol) st = CT_NO_CONVERGENCE;
            break;
        }
    }
    if (have) ct__epa_witness(&e, &best, res);
    if (have && rel == CT__EPA_REL_SMOOTH) {
        if (st == CT_OK) {
            if (!ct__epa_facet(m, &e, &best, wmax, res) && !ct__epa_edge(m, &e, &best, wmax, res))
                ct__epa_smooth(m, NULL, wmax, res);
            if (m->bad) return CT_INVALID;
        } else { /* the polytope's bounds stayed loose: the depth may have other local minima
                    (a point near the centre of a near-sphere): once Newton converges from the
                    closest face (else the status stays), it starts again from other closest
                    faces apart from each other and the least converged depth wins */
            ct__epa_result r1, win = *res;
            ct_vec3 start[CT__EPA_STARTS];
            int ns = 0, found = 0, k, j;
            for (k = 0; k < CT__EPA_STARTS; ++k) {
                int f = -1;
                for (i = 0; i < e.nf; ++i) {
                    int far = e.face[i].alive;
                    for (j = 0; j < ns && far; ++j) far = ct__dot(e.face[i].n, start[j]) < CT__EPA_START_COS;
                    if (far && (f < 0 || e.face[i].d < e.face[f].d)) f = i;
                }
                if (f < 0) break;
                start[ns++] = e.face[f].n;
                r1 = *res;
                r1.n = e.face[f].n;
                if (ct__epa_smooth(m, NULL, wmax, &r1) && (!found || r1.depth < win.depth)) { win = r1; found = 1; }
                if (m->bad) return CT_INVALID;
                if (!found) break;
            }
            if (found) { *res = win; st = CT_OK; }
            {   /* a polytope against the curved core: its features enumerated, the least wins */
                ct__epa_result r2 = *res;
                int done;
                ct_status fs = ct__epa_features(m, sc, wmax, &r2, &done);
                if (fs != CT_OK) return fs;
                if (m->bad) return CT_INVALID;
                if (done && (st != CT_OK || r2.depth < res->depth)) { *res = r2; st = CT_OK; }
            }
        }
    }
    return st;
}

/* ct_signed_distance after its GJK run r (status st): the separated answer, or EPA. Every
   field of out is written on success; on failure the caller's zeroed out stays as it was. */
CT__PRIVATE ct_status ct__signed_distance_run(const ct_xform *xa, const ct_xform *xb, ct__gjk_run *r,
                                              ct_status st, ct_scratch *s, ct_distance *out) {
    ct__epa_result e;
    ct_scratch local, *sc;
    ct__mark mk;
    ct_status st2;
    ct_real ra, rb;
    if (!r->overlap) { /* cores apart: exact from the cores and the radii, no EPA */
        ct__gjk_separated(r, xa, 0, out);
        return st;
    }
    if (r->stalled) {
        /* contact decided by rounding at a stalled step (a sliver simplex): GJK on B - A may
           still prove the cores apart (its bounds agree, the origin beyond a support plane),
           and then that is the answer, as the call with A and B swapped gives it; EPA from
           a stalled simplex of cores that in fact miss each other was seen to report a
           depth of 4e-6 of the scale (fuzz_gjk, regress_gjk_origin_on_a_face) */
        ct__gjk_run q;
        ct_status sq = ct__gjk_query(r->m.b, xb, r->m.a, xa, NULL, CT__MAXR, &q);
        if (sq == CT_OK && !q.overlap) {
            ct_vec3 t;
            ct__gjk_separated(&q, xb, 0, out);
            t = out->pa; out->pa = out->pb; out->pb = t;
            out->normal = ct__neg(out->normal);
            out->iterations += r->iters;
            return st;
        }
    }
    sc = ct__scratch_begin(s, &local, NULL);
    mk = ct__scratch_mark(sc);
    st2 = ct__epa_run(&r->m, r->s, r->wmax, sc, &e);
    ct__scratch_end(sc, &local, mk);
    if (st2 == CT_INVALID || st2 == CT_NO_MEMORY) return st2;
    ra = r->m.a->radius;   /* the run's shapes: a ball given as an ellipsoid is a sphere there */
    rb = r->m.b->radius;
    out->distance = -(e.depth * r->m.scale + ra + rb);   /* back from the working scale */
    out->normal = ct__xf_dir(xa, e.n);
    out->pa = ct__xf_point(xa, ct__madd(ct__scale(e.pa, r->m.scale), e.n, ra));
    out->pb = ct__xf_point(xa, ct__madd(ct__scale(e.pb, r->m.scale), e.n, -rb));
    out->iterations = r->iters + e.iters;
    return st2 != CT_OK ? st2 : st;
}

CTDEF ct_status ct_signed_distance(const ct_shape *a, const ct_xform *xa, const ct_shape *b,
                                   const ct_xform *xb, ct_gjk_cache *cache, ct_scratch *s,
                                   ct_distance *out) {
    ct__gjk_run r;
    ct_status st = ct__gjk_begin(a, xa, b, xb, cache, out, &r);
    if (st == CT_INVALID) return st;
    return ct__signed_distance_run(xa, xb, &r, st, s, out);
}
