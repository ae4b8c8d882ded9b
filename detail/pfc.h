/* contact.h detail: >>pfc - rigid-block contact as PFC's rblock model resolves it
   (Itasca PFC 7 documentation, "Rigid Block Contact Resolution"): the full resolution
   (the volumetric contact of detail/volcontact.h) warm-started from the previous step.

   Warm start. Between two steps of a simulation a contact's overlap A n B moves a little and
   its combinatorial structure (which planes of A and B meet at each vertex, which vertices
   bound each face) rarely changes. The cache keeps that structure (plane ids, so it is
   invariant under rigid motion of either body) and the overlap's centroid in both bodies'
   frames. A warm call
     1. places every cached vertex from its name (a vertex of one body, or Cramer on its three
        sorted planes: as ct__vc_canon places it) and checks it: strictly inside every other
        plane by the margin (CT__WARM_MARGIN). Then the cached
        structure IS A n B: each checked vertex is a vertex of A n B with exactly the cached
        planes tight (so its edges are the cached ones), a vertex's neighbour along an edge
        is the first vertex met on that line (any farther one would break the plane that
        stops the edge), so the cached graph is closed under adjacency and, the graph of a
        polytope being connected, it is the whole of A n B. Planes whose halfspace strictly
        holds the other body's bounding sphere (ct__polar_far) cannot be tight anywhere in
        A n B and are skipped. Cost: vertices x planes dot products instead of the interior
        point's LP and the dual hull.
     2. otherwise the cold path (ct__polar_run). (Building the dual hull about the moved
        centroid instead saved nothing measurable on the bench's motion - the LP is about a
        tenth of a call - and its structure could differ from the cold one by rounding.)
   The answer is then computed from the canonical form of A n B (ct__vc_canon: vertices placed
   from their names, faces in plane order, the cache holding that order) exactly as
   ct_contact_hulls computes it, so a warm call equals a cold one bit for bit whenever the
   cached structure is the one the cold call finds (they could differ only where rounding
   decides the structure within the margin; the tests see none). A vertex with
   more than three planes of both bodies (flush stacking, coincident features) would split
   under motion and is placed by the polar construction: such an overlap is not cached. */

/* Margin of the structure check, in touch bands of the working frame (ct__polar.touch,
   CT__POLAR_TOUCH scaled by the coordinates' magnitude): the same margin the plane filter
   keeps (4 touch), so a vertex that close to a plane it is not on is left to the cold path. */
#define CT__WARM_MARGIN 4
/* The cache's int block: triple (3 per vertex), vert_first (nv + 1), vert_planes (nhe),
   face_first (nf + 1), face_verts (nhe), face_plane (nf). */
CT__INLINE int *ct__warm_triple(const ct_contact_cache *c) { return c->ct__data; }
CT__INLINE int *ct__warm_vfirst(const ct_contact_cache *c) { return c->ct__data + 3 * c->count; }
CT__INLINE int *ct__warm_vplanes(const ct_contact_cache *c) { return ct__warm_vfirst(c) + c->count + 1; }
CT__INLINE int *ct__warm_ffirst(const ct_contact_cache *c) { return ct__warm_vplanes(c) + c->ct__nhe; }
CT__INLINE int *ct__warm_fverts(const ct_contact_cache *c) { return ct__warm_ffirst(c) + c->ct__nf + 1; }
CT__INLINE int *ct__warm_fplane(const ct_contact_cache *c) { return ct__warm_fverts(c) + c->ct__nhe; }

CTDEF void ct_contact_cache_init(ct_contact_cache *c, const ct_allocator *a) {
    if (!c) return;
    memset(c, 0, sizeof *c);
    if (a) { c->ct__alloc = *a; c->ct__has_alloc = 1; }
}

CTDEF void ct_contact_cache_free(ct_contact_cache *c) {
    ct_allocator al;
    int has;
    if (!c) return;
    al = ct__allocator(c->ct__has_alloc ? &c->ct__alloc : NULL);
    has = c->ct__has_alloc;
    ct__free(&al, c->ct__data);
    memset(c, 0, sizeof *c);
    if (has) { c->ct__alloc = al; c->ct__has_alloc = 1; }
}

/* The cache was filled for this pair of hulls (same objects, same blocks, same sizes). */
CT__INLINE int ct__warm_same(const ct_contact_cache *c, const ct_hull *a, const ct_hull *b) {
    return c->ct__a == a && c->ct__b == b && c->ct__ba == a->ct__block && c->ct__bb == b->ct__block &&
           c->ct__na == a->nfaces && c->ct__nb == b->nfaces;
}

/* Stores the structure of the overlap p (state OVERLAP, canonical: ct__vc_canon) in the cache,
   or empties it (count 0) when some vertex is not canonical (mixed planes beyond three, an
   ill-conditioned triple). */
CT__PRIVATE ct_status ct__warm_store(ct_contact_cache *c, const ct__polar *p, const ct_hull *a, const ct_hull *b) {
    int nv = p->nv, nf = p->nf, nhe = p->face_first[p->nf], k, f, need;
    int *tri, *vfirst, *vpl, *ff, *fv, *fp;
    c->count = 0;
    if (!p->vkey) return CT_OK;   /* not in canonical form: not cached */
    need = 3 * nv + nv + 1 + nhe + nf + 1 + nhe + nf;
    if (need > c->ct__cap) {
        ct_allocator al = ct__allocator(c->ct__has_alloc ? &c->ct__alloc : NULL);
        int cap = need + need / 2, *d = (int *)ct__alloc(&al, sizeof(int) * (size_t)cap);
        if (!d) return CT_NO_MEMORY;
        ct__free(&al, c->ct__data);
        c->ct__data = d;
        c->ct__cap = cap;
    }
    c->count = nv; c->ct__nf = nf; c->ct__nhe = nhe;
    tri = ct__warm_triple(c); vfirst = ct__warm_vfirst(c); vpl = ct__warm_vplanes(c);
    ff = ct__warm_ffirst(c); fv = ct__warm_fverts(c); fp = ct__warm_fplane(c);
    memcpy(ff, p->face_first, sizeof(int) * (size_t)(nf + 1));
    memcpy(fv, p->face_verts, sizeof(int) * (size_t)nhe);
    memcpy(fp, p->face_plane, sizeof(int) * (size_t)nf);
    /* the planes of each vertex: the faces that list it (counting sort by vertex) */
    for (k = 0; k <= nv; ++k) vfirst[k] = 0;
    for (k = 0; k < nhe; ++k) vfirst[fv[k] + 1]++;
    for (k = 0; k < nv; ++k) vfirst[k + 1] += vfirst[k];
    for (k = 0; k < nv; ++k) tri[3 * k] = vfirst[k];   /* fill cursors, overwritten below */
    for (f = 0; f < nf; ++f)
        for (k = ff[f]; k < ff[f + 1]; ++k) vpl[tri[3 * fv[k]]++] = fp[f];
    /* each vertex by its canonical name (ct__vc_canon): a body's vertex, or its three planes */
    for (k = 0; k < 3 * nv && p->vkey[k - k % 3] != -2; ++k) tri[k] = p->vkey[k];
    if (k < 3 * nv) {
        c->count = 0;
        return CT_OK;
    }
    c->ct__a = a; c->ct__b = b; c->ct__ba = a->ct__block; c->ct__bb = b->ct__block;
    c->ct__na = a->nfaces; c->ct__nb = b->nfaces;
    return CT_OK;
}

/* Whether w (on the plane of face f of h, plane ids off + face) lies strictly inside the face
   polygon: strictly below the plane of every neighbouring face (across each edge) that is not
   one of w's own planes (mark == k). On a convex body the face polygon is its plane cut by
   the neighbours' halfspaces, and a point inside it is inside the body. */
CT__PRIVATE int ct__warm_in_face(const ct__polar *p, const ct_hull *h, int f, int off, const ct_real *slack,
                                 const int *mark, int k, ct_vec3 w, ct_real tol) {
    int e;
    for (e = h->face_first[f]; e < h->face_first[f + 1]; ++e) {
        int j = off + h->he_face[h->he_twin[e]];
        if (mark[j] != k && !(ct__dot(p->pl[j].n, w) - slack[j] < -tol)) return 0;
    }
    return 1;
}

/* Step 1: the cached structure, its vertices placed from their names as ct__vc_canon places
   them (about the working frame's origin), checked against every plane that can be tight.
   Fills p (the canonical A n B: v, faces, vkey, c, state OVERLAP) and returns 1 when it
   holds; 0 otherwise (p's arrays then are scratch garbage). */
CT__PRIVATE int ct__warm_try(ct_scratch *s, const ct_contact_cache *c, const ct_hull *ha, const ct_hull *hb,
                             const ct_xform *rel, ct__polar *p, ct_status *st) {
    int nv = c->count, m = p->m, k, j, t, nnear = 0;
    const int *tri = ct__warm_triple(c), *vfirst = ct__warm_vfirst(c), *vpl = ct__warm_vplanes(c);
    ct_real tol = CT__WARM_MARGIN * p->touch, *slack = CT__SALLOC(s, ct_real, m);
    int *mark = CT__SALLOC(s, int, m), *near = CT__SALLOC(s, int, m);
    ct_vec3 *v = CT__SALLOC(s, ct_vec3, nv);
    int local = ha->face_first && ha->he_twin && ha->he_face && hb->face_first && hb->he_twin && hb->he_face;
    *st = CT_OK;
    if (!slack || !mark || !near || !v) { *st = CT_NO_MEMORY; return 0; }
    for (j = 0; j < m; ++j) {   /* slacks about the working frame's origin, where the vertices are placed */
        slack[j] = -p->pl[j].d;
        mark[j] = -1;
        if (!ct__polar_far(p, j, tol)) near[nnear++] = j;
    }
    for (k = 0; k < nv; ++k) {
        int a = tri[3 * k], b = tri[3 * k + 1], q = tri[3 * k + 2];
        ct_vec3 w;
        if (a < 0) {   /* a vertex of body b: strictly inside the other body's planes */
            int lo = b ? 0 : p->na, hi = b ? p->na : m;
            const ct_hull *h = b ? hb : ha;
            if (q >= h->nverts) return 0;
            w = ct__vc_at_vertex(p, h, b, q, rel);
            for (t = 0; t < nnear; ++t) {
                j = near[t];
                if (j >= lo && j < hi && !(ct__dot(p->pl[j].n, w) - slack[j] < -tol)) return 0;
            }
        } else {       /* three planes of both bodies: strictly inside every other plane */
            if (!ct__vc_at_planes(p, a, b, q, &w)) return 0;
            for (t = vfirst[k]; t < vfirst[k + 1]; ++t) mark[vpl[t]] = k;
            if (local) {   /* inside both bodies: inside a face polygon of each (see above) */
                int fa = a < p->na ? a : (b < p->na ? b : q), fb = a >= p->na ? a : (b >= p->na ? b : q);
                if (!ct__warm_in_face(p, ha, fa, 0, slack, mark, k, w, tol) ||
                    !ct__warm_in_face(p, hb, fb - p->na, p->na, slack, mark, k, w, tol))
                    return 0;
            } else {
                for (t = 0; t < nnear; ++t) {
                    j = near[t];
                    if (mark[j] != k && !(ct__dot(p->pl[j].n, w) - slack[j] < -tol)) return 0;
                }
            }
        }
        v[k] = w;
    }
    ct__vc_centre(p, v, nv);   /* the cache holds the canonical order: this is ct__vc_canon's answer */
    p->nf = c->ct__nf;
    p->face_first = ct__warm_ffirst(c);
    p->face_verts = ct__warm_fverts(c);
    p->face_plane = ct__warm_fplane(c);
    p->face_twin = NULL;
    p->vkey = ct__warm_triple(c);
    p->cond = 1;
    p->state = CT__POLAR_OVERLAP;
    return 1;
}

CTDEF ct_status ct_contact_hulls_warm(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                      const ct_xform *xb, ct_contact_cache *cache, ct_scratch *user,
                                      ct_contact *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct__polar p;
    ct_status st = CT_OK;
    ct_xform rel;
    int hit = 0;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->face_a = out->face_b = -1;
    if (!cache || !ct__polar_args_ok(a, xa, b, xb)) return CT_INVALID;
    s = ct__scratch_begin(user, &local, NULL);
    mk = ct__scratch_mark(s);
    if (cache->count > 0 && ct__warm_same(cache, a, b)) {
        memset(&p, 0, sizeof p);
        rel = ct__xf_rel(xa, xb);
        st = ct__polar_frame(s, a, xa, b, xb, &rel, &p);
        if (st == CT_OK) hit = ct__warm_try(s, cache, a, b, &rel, &p, &st);
#ifdef CT_PFC_DEBUG
        CT_PFC_DEBUG(hit);
#endif
    }
    /* a miss is a cold call; either way the answer comes from the canonical A n B */
    if (st == CT_OK && !hit) {
        ct__scratch_reset(s, mk);
        st = ct__vc_polar_canonical(s, a, xa, b, xb, &p);
    }
    if (st == CT_OK) st = ct__vc_from_polar(s, &p, a, xa, b, xb, out);
    if (st == CT_OK && !hit) {
        if (p.state == CT__POLAR_OVERLAP) st = ct__warm_store(cache, &p, a, b);
        else cache->count = 0;
    }
    if (st == CT_OK && cache->count > 0) {
        cache->point_a = ct__xf_inv_point(xa, out->centroid);
        cache->point_b = ct__xf_inv_point(xb, out->centroid);
    }
    if (st != CT_OK) {
        memset(out, 0, sizeof *out);
        out->face_a = out->face_b = -1;
        cache->count = 0;
    }
    ct__scratch_end(s, &local, mk);
    return st;
}

/* ---- reduced resolution ------------------------------------------------------------------
   PFC's reduced resolution needs no overlap volume: the penetration vector (normal n, depth)
   and the deepest points pa on A and pb on B give a mid-plane through (pa + pb) / 2 normal to
   n; both bodies are cut by that plane and the contact point is the centroid of the
   intersection of the two cross-section polygons.

   Penetration. For polytopes the least separating translation is the SAT's axis of least
   penetration (ct__sat_least_axis: faces of A and B, edge pairs that build a face of the
   Minkowski difference), EPA's answer without the Minkowski polytope; the SAT hint kept in
   the ct_gjk_cache makes a coherent step cost a few supports. Hulls without adjacency go
   through ct_signed_distance (EPA) instead.

   Section. As PFC does, the cut starts from the cached edge of the last step and walks the
   section by facet connectivity: from a half-edge crossing the plane (tail above, head below)
   along its face to the face's other crossing, over it (he_twin) into the next face, around
   to the start. When the cached edge no longer crosses, a descent from the support vertex
   along the steepest edges finds one. A vertex of a walked face within CT__PFC_ON_PLANE of the
   plane (a plane through a vertex or along a face: rounding would decide the combinatorics)
   makes the cut scan every vertex and edge instead, vertices that near counting as on the
   plane. Either way the section is the 2D hull of its points (ct__hull2d, a canonical order),
   so the answer does not depend on where the walk started: a cached call equals a cold one. */

/* Vertices within this (relative to the hull's extent) of the mid-plane lie on it. */
#define CT__PFC_ON_PLANE (64 * CT__EPS)
/* A clipped intersection of area below this (in units of the larger extent squared) is a
   sliver whose fan centroid would be rounding: the candidates' hull (ct__poly2d_clip) instead. */
#define CT__PFC_SLIVER (64 * CT__EPS)

/* The cut's plane in one hull's frame: height(x) = d.x - c (> 0: above, towards the other
   body's deepest point) and its tolerance. */
typedef struct ct__pfc_plane { ct_vec3 d; ct_real c, tol; } ct__pfc_plane;
/* The section's 2D basis (u, w) about o, in A's frame, lengths in units of 1 / inv. */
typedef struct ct__pfc_frame { ct_vec3 o, u, w; ct_real inv; } ct__pfc_frame;

CT__INLINE ct_real ct__pfc_h(const ct_hull *h, const ct__pfc_plane *pl, int v) { return ct__dot(pl->d, h->verts[v]) - pl->c; }
CT__INLINE int ct__pfc_head(const ct_hull *h, int e) { return h->face_verts[h->he_next[e]]; }

/* A half-edge of h crossing the plane from above (tail, height > 0) to below (head, <= 0):
   the cached one (either direction) when it still crosses, else by descent from the vertex top
   along the steepest edge (heights are linear: on a convex polytope a vertex without a lower
   neighbour is the lowest). -1 when there is none (h does not reach below the plane). */
CT__PRIVATE int ct__pfc_crossing(const ct_hull *h, const ct__pfc_plane *pl, int cached, int top) {
    int nhe = h->face_first[h->nfaces], u = top, steps;
    ct_real hu;
    if (cached >= 0 && cached < nhe) {
        ct_real h0 = ct__pfc_h(h, pl, h->face_verts[cached]), h1 = ct__pfc_h(h, pl, ct__pfc_head(h, cached));
        if (h0 > 0 && !(h1 > 0)) return cached;
        if (h1 > 0 && !(h0 > 0)) return h->he_twin[cached];
    }
    hu = ct__pfc_h(h, pl, u);
    if (!(hu > 0)) return -1;
    for (steps = 0; steps < h->nverts; ++steps) {
        int g = h->vert_edge[u], best = -1, k;
        ct_real hb = hu;
        for (k = 0; k < h->nverts; ++k) {   /* the half-edges leaving u */
            ct_real t = ct__pfc_h(h, pl, ct__pfc_head(h, g));
            if (t < hb) { hb = t; best = g; }
            g = h->he_next[h->he_twin[g]];
            if (g == h->vert_edge[u]) break;
        }
        if (best < 0) return -1;
        if (!(hb > 0)) return best;
        u = ct__pfc_head(h, best);
        hu = hb;
    }
    return -1;
}

/* The section walked from the crossing half-edge e0: its crossings in order (h's frame) into
   pts (room for nedges), and in *lo the index of the crossing of the least edge id (a start
   that does not depend on e0: every crossing point is computed from its edge alone, so the
   cycle is the same bits from any start). Returns the count, or -1 when a vertex of a walked
   face lies within the tolerance of the plane or the walk does not close (the caller scans). */
CT__PRIVATE int ct__pfc_walk(const ct_hull *h, const ct__pfc_plane *pl, int e0, ct_vec3 *pts, int *lo) {
    int e = e0, k = 0, nhe = h->face_first[h->nfaces], least = nhe, head = ct__pfc_head(h, e0);
    ct_real ht = ct__pfc_h(h, pl, h->face_verts[e0]), hh = ct__pfc_h(h, pl, head);
    *lo = 0;
    if (ct__abs(ht) <= pl->tol || ct__abs(hh) <= pl->tol) return -1;
    while (k < h->nedges) {
        int g = h->he_next[e], guard = 0, id = ct__imin(e, h->he_twin[e]), gh;
        ct_real hg;
        if (id < least) { least = id; *lo = k; }
        pts[k++] = ct__lerp(h->verts[h->face_verts[e]], h->verts[head], ht / (ht - hh));
        for (;;) {   /* along the face to the half-edge whose head is above again; hh: the
                        height of g's tail */
            gh = ct__pfc_head(h, g);
            hg = ct__pfc_h(h, pl, gh);
            if (ct__abs(hg) <= pl->tol) return -1;
            if (hg > 0) break;
            g = h->he_next[g];
            if (g == e || ++guard > nhe) return -1;
            head = gh;
            hh = hg;
        }
        e = h->he_twin[g];   /* tail above (g's head), head below (g's tail: its height is hh) */
        if (e == e0) return k;
        ht = hg;
    }
    return -1;
}

/* The section by a scan: vertices within the tolerance of the plane and the edges crossing it
   beyond (pts: room for nverts + nedges; hv: nverts heights). Returns the count. */
CT__PRIVATE int ct__pfc_scan(const ct_hull *h, const ct__pfc_plane *pl, ct_real *hv, ct_vec3 *pts) {
    int i, f, k = 0;
    for (i = 0; i < h->nverts; ++i) {
        hv[i] = ct__pfc_h(h, pl, i);
        if (ct__abs(hv[i]) <= pl->tol) pts[k++] = h->verts[i];
    }
    for (f = 0; f < h->nfaces; ++f) {
        int e0 = h->face_first[f], e1 = h->face_first[f + 1], e;
        for (e = e0; e < e1; ++e) {
            int v0 = h->face_verts[e], v1 = h->face_verts[e + 1 < e1 ? e + 1 : e0];
            ct_real h0 = hv[v0], h1 = hv[v1];
            if (h->he_twin && h->he_twin[e] < e) continue;   /* each edge once */
            if ((h0 < -pl->tol && h1 > pl->tol) || (h0 > pl->tol && h1 < -pl->tol))
                pts[k++] = ct__lerp(h->verts[v0], h->verts[v1], h0 / (h0 - h1));
        }
    }
    return k;
}

/* The walked section (k points in order from its canonical start, 2D) as a CCW polygon: points
   within tol of the last one kept dropped (a clip edge that short would have a direction made of
   rounding), then counter-clockwise about the first. Returns the count. */
CT__PRIVATE int ct__pfc_canon(ct__v2 *p, int k, ct_real tol) {
    int i, m = 0;
    ct_real ar = 0, t2 = tol * tol;
    ct__v2 d;
    for (i = 0; i < k; ++i) {
        d = ct__v2_sub(p[i], p[m > 0 ? m - 1 : 0]);
        if (m == 0 || d.x * d.x + d.y * d.y > t2) p[m++] = p[i];
    }
    for (; m > 1; --m) {
        d = ct__v2_sub(p[m - 1], p[0]);
        if (d.x * d.x + d.y * d.y > t2) break;
    }
    for (i = 1; i + 1 < m; ++i) ar += ct__v2_cross(ct__v2_sub(p[i], p[0]), ct__v2_sub(p[i + 1], p[0]));
    if (ar < 0)
        for (i = 1; i < m - i; ++i) { ct__v2 t = p[i]; p[i] = p[m - i]; p[m - i] = t; }
    return m;
}

/* The section of h (its frame mapped to A's by x; NULL: h is A) as a CCW convex polygon in the
   frame f: walked from *start (the cached crossing; out: the one used) when top >= 0 (the vertex
   of h deepest across the plane), else scanned (then its 2D hull, ct__hull2d). Either way a
   canonical order: the walk's from its least edge, the hull's from its lowest point. Returns the
   count (1 or 2: a point or a segment). */
CT__PRIVATE int ct__pfc_section(const ct_hull *h, const ct_xform *x, const ct__pfc_plane *pl, int top, int *start,
                                const ct__pfc_frame *f, ct_vec3 *pts, ct_real *hv, ct__v2 *out, ct__v2 *work) {
    int k = -1, i, lo = 0;
    ct_vec3 o = f->o, u = f->u, w = f->w;   /* the frame in h's */
    if (top >= 0) {
        int e = ct__pfc_crossing(h, pl, *start, top);
        if (e >= 0) { k = ct__pfc_walk(h, pl, e, pts, &lo); *start = e; }
    }
    if (x) { o = ct__xf_inv_point(x, o); u = ct__xf_inv_dir(x, u); w = ct__xf_inv_dir(x, w); }
    if (k >= 0) {
        for (i = 0; i < k; ++i) {
            ct_vec3 q = ct__sub(pts[i + lo < k ? i + lo : i + lo - k], o);
            out[i] = ct__v2_make(ct__dot(q, u) * f->inv, ct__dot(q, w) * f->inv);
        }
        return ct__pfc_canon(out, k, CT__VC_TOL2D);
    }
    k = ct__pfc_scan(h, pl, hv, pts);
    for (i = 0; i < k; ++i) {
        ct_vec3 q = ct__sub(pts[i], o);
        out[i] = ct__v2_make(ct__dot(q, u) * f->inv, ct__dot(q, w) * f->inv);
    }
    return ct__hull2d(out, k, work, CT__VC_TOL2D);
}

/* Sutherland-Hodgman: the convex polygon p (k >= 3 points, CCW) clipped by every edge of the
   convex CCW polygon q (kq >= 3): their intersection, CCW, into out. out and buf hold cap
   points each (k + kq + 2 suffice: each edge replaces a run of one or more points by two).
   A point's side of an edge a -> a + e is e x s - e x a (>= 0: inside). A convex polygon has
   one run of points outside an edge, around its deepest point, and as q's edges turn
   counter-clockwise that point moves forward along p (rotating calipers): each edge walks on
   from the last one's deepest point (after a cut, from the crossing where p left the edge's
   line) while the values do not rise by more than a rounding allowance above the lowest seen,
   so an edge that cuts nothing costs a few points, not all of them, and one that cuts finds
   its run from the deepest point outwards; the run is replaced by its two crossings. Rounding
   makes p and q convex only to within a few ulps: the allowance, 64 ulps of the sizes, keeps a
   walk from stopping on a dent, and a point outside by less than that is not cut. */
#define CT__PFC_CLIP_TOL (64 * CT__EPS)
CT__INLINE ct__v2 ct__pfc_cross_at(ct__v2 s0, ct__v2 s1, ct_real cs, ct_real ce) {
    ct_real t0 = cs / (cs - ce);
    return ct__v2_make(s0.x + t0 * (s1.x - s0.x), s0.y + t0 * (s1.y - s0.y));
}
CT__PRIVATE int ct__pfc_clip2d(const ct__v2 *p, int k, const ct__v2 *q, int kq, ct__v2 *out, ct__v2 *buf, int cap) {
    ct__v2 *cur = out, *nxt = buf, *t;
    ct_real r = 0;
    int i, j, n = k, lo = -1;
    if (k > cap) return 0;
    for (i = 0; i < k; ++i) { cur[i] = p[i]; r = ct__max(r, ct__abs(p[i].x) + ct__abs(p[i].y)); }
    for (j = 0; j < kq; ++j) r = ct__max(r, ct__abs(q[j].x) + ct__abs(q[j].y));
    for (j = 0; j < kq && n > 0; ++j) {
        ct__v2 a = q[j], e = ct__v2_sub(q[j + 1 < kq ? j + 1 : 0], a);
        ct_real c0 = ct__v2_cross(e, a), del = CT__PFC_CLIP_TOL * (ct__abs(e.x) + ct__abs(e.y)) * 2 * r, best, x;
        int m = 0, b, f0, l0, nout, i1, steps;
        if (n + 2 > cap) return 0;
#define CT__PFC_SIDE(i_) (ct__v2_cross(e, cur[i_]) - c0)
        if (lo < 0) {   /* the first edge: every point */
            b = 0;
            best = CT__PFC_SIDE(0);
            for (i = 1; i < n; ++i) {
                x = CT__PFC_SIDE(i);
                if (x < best) { best = x; b = i; }
            }
        } else {
            b = lo;
            best = CT__PFC_SIDE(lo);
            for (steps = 1, i = lo; steps < n; ++steps) {
                i = i + 1 < n ? i + 1 : 0;
                x = CT__PFC_SIDE(i);
                if (x > best + del) break;
                if (x < best) { best = x; b = i; }
            }
        }
        lo = b;
        if (!(best < 0)) continue;   /* every point inside: unchanged */
        /* the run outside: f0..l0 about b; kept: l0 + 1 .. f0 - 1 */
        f0 = l0 = b;
        nout = 1;
        while (nout < n && CT__PFC_SIDE(f0 > 0 ? f0 - 1 : n - 1) < 0) { f0 = f0 > 0 ? f0 - 1 : n - 1; ++nout; }
        while (nout < n && CT__PFC_SIDE(l0 + 1 < n ? l0 + 1 : 0) < 0) { l0 = l0 + 1 < n ? l0 + 1 : 0; ++nout; }
        if (nout == n) { n = 0; break; }
        i1 = l0 + 1 < n ? l0 + 1 : 0;
        nxt[m++] = ct__pfc_cross_at(cur[l0], cur[i1], CT__PFC_SIDE(l0), CT__PFC_SIDE(i1));   /* p enters */
        if (i1 < f0) {   /* the kept run, in one piece or wrapping around the end */
            memcpy(nxt + m, cur + i1, sizeof *cur * (size_t)(f0 - i1));
            m += f0 - i1;
        } else {
            memcpy(nxt + m, cur + i1, sizeof *cur * (size_t)(n - i1));
            m += n - i1;
            memcpy(nxt + m, cur, sizeof *cur * (size_t)f0);
            m += f0;
        }
        i = f0 > 0 ? f0 - 1 : n - 1;
        nxt[m++] = ct__pfc_cross_at(cur[i], cur[f0], CT__PFC_SIDE(i), CT__PFC_SIDE(f0));   /* p leaves */
#undef CT__PFC_SIDE
        t = cur; cur = nxt; nxt = t;
        n = m;
        lo = n - 1;   /* the next edge's deepest point is at or after where p left this one */
    }
    if (cur != out)
        for (i = 0; i < n; ++i) out[i] = cur[i];
    return n;
}

/* The face of h (placed by x) whose plane is nearest to the point y (x's target frame). */
CT__PRIVATE int ct__pfc_nearest_face(const ct_hull *h, const ct_xform *x, ct_vec3 y) {
    ct_vec3 l = ct__xf_inv_point(x, y);
    ct_real best = CT__MAXR;
    int f = 0, arg = -1;
#if CT__SSE2
    if (!CT__FLOAT && h->nfaces >= 2) {   /* ct_real is double here: two faces per register, the
                                             scalar's operations in its order; lanes keep their
                                             first minimum, the merge the smaller face on ties */
        const __m128d lx = _mm_set1_pd((double)l.x), ly = _mm_set1_pd((double)l.y), lz = _mm_set1_pd((double)l.z);
        const __m128d sign = _mm_set1_pd(-0.0), two = _mm_set1_pd(2);
        __m128d bv = _mm_set1_pd((double)CT__MAXR), bi = _mm_set1_pd(-1), fi = _mm_set_pd(1, 0);
        const double *pl = (const double *)(const void *)h->planes;
        double v[2], i[2];
        int k;
        for (; f + 2 <= h->nfaces; f += 2, pl += 8) {
            __m128d px, py, pz, pd, a, g;
            ct__planes2_sse2(pl, &px, &py, &pz, &pd);
            a = _mm_andnot_pd(sign, _mm_add_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(px, lx), _mm_mul_pd(py, ly)), _mm_mul_pd(pz, lz)), pd));
            g = _mm_cmplt_pd(a, bv);
            bv = _mm_min_pd(a, bv);   /* a < bv ? a : bv (a NaN a keeps bv) */
            bi = _mm_or_pd(_mm_and_pd(g, fi), _mm_andnot_pd(g, bi));
            fi = _mm_add_pd(fi, two);
        }
        _mm_storeu_pd(v, bv);
        _mm_storeu_pd(i, bi);
        k = v[1] < v[0] || (v[1] == v[0] && i[1] < i[0]);
        best = (ct_real)v[k];
        arg = (int)i[k];
    }
#endif
    for (; f < h->nfaces; ++f) {
        ct_real dd = ct__abs(ct__dot(h->planes[f].n, l) + h->planes[f].d);
        if (dd < best) { best = dd; arg = f; }
    }
    return arg;
}

/* The cut of a and b (B placed in A's frame by rel) by the plane through m normal to n (unit,
   A -> B; both in A's frame) into *out, in A's frame (found, point = centroid, normal, area,
   faces; the caller sets gap and goes to world). ta, tb: the vertices of A along n and of B
   along -n to walk from (-1: scan); start[2]: the cached crossing half-edges, updated. */
CT__PRIVATE ct_status ct__pfc_cut(ct_scratch *s, const ct_hull *a, const ct_hull *b, const ct_xform *rel, ct_vec3 n,
                                  ct_vec3 m, int ta, int tb, int start[2], ct_contact *out) {
    ct__pfc_frame f;
    ct__pfc_plane pa, pb;
    ct_real unit = ct__max(a->extent, b->extent), hm = ct__dot(n, m), area;
    int na = a->nverts + a->nedges, nb = b->nverts + b->nedges, ka, kb, nc;
    ct_real *hv = CT__SALLOC(s, ct_real, ct__imax(a->nverts, b->nverts));
    ct_vec3 *pts = CT__SALLOC(s, ct_vec3, ct__imax(na, nb));
    ct__v2 *fa = CT__SALLOC(s, ct__v2, na), *fb = CT__SALLOC(s, ct__v2, nb), *work = CT__SALLOC(s, ct__v2, ct__imax(na, nb) + 1);
    ct__v2 *cand, cen;
    if (!hv || !pts || !fa || !fb || !work) return CT_NO_MEMORY;
    f.o = m;
    f.inv = 1 / unit;
    ct__basis(n, &f.u, &f.w);
    pa.d = n; pa.c = hm; pa.tol = CT__PFC_ON_PLANE * a->extent;
    pb.d = ct__neg(ct__xf_inv_dir(rel, n)); pb.c = ct__dot(n, rel->p) - hm; pb.tol = CT__PFC_ON_PLANE * b->extent;
    ka = ct__pfc_section(a, NULL, &pa, ta, &start[0], &f, pts, hv, fa, work);
    kb = ct__pfc_section(b, rel, &pb, tb, &start[1], &f, pts, hv, fb, work);
    cand = CT__SALLOC(s, ct__v2, (long long)ka * kb + ka + kb + 1);
    work = CT__SALLOC(s, ct__v2, (long long)ka * kb + ka + kb + 2);
    if (!cand || !work) return CT_NO_MEMORY;
    area = 0;
    if (ka >= 3 && kb >= 3) {   /* two polygons: clipped in linear time per edge */
        nc = ct__pfc_clip2d(fa, ka, fb, kb, cand, work, 2 * (ka + kb) + 2);   /* <= the buffers (ka, kb >= 3) */
        area = nc >= 3 ? ct__poly2d_centroid(cand, nc, &cen) : 0;
    }
    if (!(area > CT__PFC_SLIVER)) {   /* a point, a segment or a sliver: the candidates' hull */
        nc = ka > 0 && kb > 0 ? ct__poly2d_clip(fa, ka, fb, kb, cand, CT__VC_TOL2D) : 0;
        if (nc == 0) cand[nc++] = ct__v2_make(0, 0);   /* sections apart by rounding: the midpoint */
        nc = ct__hull2d(cand, nc, work, CT__VC_TOL2D);
        area = ct__poly2d_centroid(cand, nc, &cen);
    }
    out->found = 1;
    out->point = ct__madd(ct__madd(m, f.u, cen.x * unit), f.w, cen.y * unit);
    out->centroid = out->point;
    out->normal = n;
    out->area = area * unit * unit;
    out->volume = 0;
    out->face_a = ct__pfc_nearest_face(a, NULL, out->point);
    out->face_b = ct__pfc_nearest_face(b, rel, out->point);
    return CT_OK;
}

CT__INLINE int ct__pfc_hulls_ok(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb) {
    return ct__polar_args_ok(a, xa, b, xb) && a->face_first && a->face_verts && b->face_first && b->face_verts;
}

/* The reduced resolution of the cores a, b grown by ra, rb (0: plain hulls); see the rounded
   blocks below for the moved cores. Cores that the SAT separates need GJK only when r > 0. */
CT__PRIVATE ct_status ct__pfc_reduced(ct_scratch *s, const ct_hull *a, const ct_xform *xa, ct_real ra, const ct_hull *b,
                                      const ct_xform *xb, ct_real rb, ct_block_cache *cache, ct_contact *out) {
    ct_real r = ra + rb, sep = 0;
    ct_xform rel;
    ct_vec3 n = ct__v3(0, 0, 1), m = n;
    int start[2] = { -1, -1 }, walk = ct__sat_hull_ok(a) && ct__sat_hull_ok(b);
    int ta = -1, tb = -1, apart = 1;
    ct_status st = CT_OK;
    if (cache) { start[0] = cache->ct__cut[0]; start[1] = cache->ct__cut[1]; }
    if (walk) {
        ct__sat q;
        ct__sat_setup(&q, a, xa, b, xb, 0);
        rel = q.rel;
        apart = ct__sat_least_axis(&q, cache ? &cache->sat : NULL, &sep, &n, &ta, &tb);
        if (!apart) m = ct__scale(ct__add(a->verts[ta], ct__xf_point(&rel, b->verts[tb])), (ct_real)0.5);
    } else rel = ct__xf_rel(xa, xb);
    if (!walk || (apart && r > 0)) {   /* EPA (no adjacency), or GJK on cores apart by < r */
        ct_shape sa = ct_shape_hull(a), sb = ct_shape_hull(b);
        ct_distance d;
        st = ct_signed_distance(&sa, xa, &sb, xb, cache ? &cache->gjk : NULL, s, &d);
        if (st != CT_OK && st != CT_NO_CONVERGENCE) return st;
        sep = d.distance;
        n = ct__xf_inv_dir(xa, d.normal);
        m = ct__xf_inv_point(xa, ct__scale(ct__add(d.pa, d.pb), (ct_real)0.5));
        if (walk) { ta = ct__sat_support(a, n); tb = ct__sat_support(b, ct__xf_inv_dir(&rel, ct__neg(n))); }
        apart = 0;
    }
    if (!apart && sep - r <= 0) {
        /* the cores moved towards each other by r / 2 each: in A's moved frame B moves by -r n
           and the mid-plane by -r / 2 n; the point goes back by +r / 2 n */
        ct_xform relm = rel;
        ct_status s2;
        relm.p = ct__madd(rel.p, n, -r);
        s2 = ct__pfc_cut(s, a, b, &relm, n, ct__madd(m, n, -r / 2), ta, tb, start, out);
        if (s2 != CT_OK) return s2;
        out->point = out->centroid = ct__xf_point(xa, ct__madd(out->point, n, r / 2));
        out->normal = ct__xf_dir(xa, n);
        out->gap = sep - r;
    }
    if (cache && walk) { cache->ct__cut[0] = start[0]; cache->ct__cut[1] = start[1]; }
    return st;
}

CTDEF void ct_block_cache_init(ct_block_cache *c, const ct_allocator *a) {
    if (!c) return;
    memset(c, 0, sizeof *c);
    ct_contact_cache_init(&c->full, a);
}

CTDEF void ct_block_cache_free(ct_block_cache *c) {
    if (!c) return;
    ct_contact_cache_free(&c->full);   /* keeps its allocator */
    memset(&c->gjk, 0, sizeof c->gjk);
    memset(&c->sat, 0, sizeof c->sat);
    c->ct__cut[0] = c->ct__cut[1] = 0;
}

CTDEF ct_status ct_contact_hulls_reduced(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                         const ct_xform *xb, ct_block_cache *cache, ct_scratch *user,
                                         ct_contact *out) {
    /* the rounded-block routine with radii 0 */
    return ct_contact_rounded_hulls(a, xa, 0, b, xb, 0, 1, cache, user, out);
}

/* ---- rounded blocks ---------------------------------------------------------------------
   A rounded block is a core hull grown by a ball (ct_shape_rounded). The signed distance of
   the rounded blocks is that of the cores minus ra + rb: GJK alone while the cores are apart
   (the overlap of the rounded blocks is below the summed radii), EPA (full resolution) or the
   SAT's least axis (reduced) only once the cores overlap. The cores, moved towards each other
   by (ra + rb) / 2 each along that normal, overlap by exactly the rounded blocks' penetration;
   the full or reduced resolution on the moved cores gives point, normal, area and volume (the
   midpoint between the cores does not move, so the point is in place). */
CTDEF ct_status ct_contact_rounded_hulls(const ct_hull *a, const ct_xform *xa, ct_real ra, const ct_hull *b,
                                         const ct_xform *xb, ct_real rb, int reduced, ct_block_cache *cache,
                                         ct_scratch *user, ct_contact *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct_shape sa, sb;
    ct_distance d;
    ct_status st;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->face_a = out->face_b = -1;
    if (!ct__pfc_hulls_ok(a, xa, b, xb) || !ct__finite(ra) || !ct__finite(rb) || ra < 0 || rb < 0 || (reduced != 0 && reduced != 1))
        return CT_INVALID;
    s = ct__scratch_begin(user, &local, NULL);
    mk = ct__scratch_mark(s);
    if (reduced) {
        st = ct__pfc_reduced(s, a, xa, ra, b, xb, rb, cache, out);
    } else {
        sa = ct_shape_hull(a);
        sb = ct_shape_hull(b);
        st = ct_signed_distance(&sa, xa, &sb, xb, cache ? &cache->gjk : NULL, s, &d);
        if ((st == CT_OK || st == CT_NO_CONVERGENCE) && d.distance - ra - rb <= 0) {
            ct_xform ma = xa ? *xa : ct__xf_identity(), mb = xb ? *xb : ct__xf_identity();
            ct_real half = (ra + rb) / 2, gap = d.distance - ra - rb;
            ct_status s2;
            ma.p = ct__madd(ma.p, d.normal, half);
            mb.p = ct__madd(mb.p, d.normal, -half);
            s2 = cache ? ct_contact_hulls_warm(a, &ma, b, &mb, &cache->full, s, out) : ct_contact_hulls(a, &ma, b, &mb, s, out);
            if (s2 != CT_OK && s2 != CT_NO_CONVERGENCE) st = s2;
            else if (!out->found) {   /* the moved cores only touch (rounding): the midpoint */
                out->found = 1;
                out->point = out->centroid = ct__scale(ct__add(d.pa, d.pb), (ct_real)0.5);
                out->normal = d.normal;
            }
            out->gap = gap;
        }
    }
    if (st != CT_OK && st != CT_NO_CONVERGENCE) { memset(out, 0, sizeof *out); out->face_a = out->face_b = -1; }
    ct__scratch_end(s, &local, mk);
    return st;
}
/* ---- balls and pebbles against blocks: the DEM contact struct ---------------------------- */
CTDEF ct_status ct_contact_hull_sphere(const ct_hull *a, const ct_xform *xa, ct_vec3 center, ct_real radius,
                                       ct_contact *out) {
    ct_manifold m;
    ct_status st;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->face_a = out->face_b = -1;
    st = ct_manifold_hull_sphere(a, xa, center, radius, 0, &m);
    if (st != CT_OK || m.count == 0) return st;
    out->found = 1;
    out->point = out->centroid = m.points[0].point;
    out->normal = m.normal;
    out->gap = m.points[0].separation;
    out->face_a = ct__pfc_nearest_face(a, xa, ct__madd(out->point, m.normal, -out->gap / 2));
    return CT_OK;
}

/* ---- wall facets --------------------------------------------------------------------------
   A triangle of a wall has no thickness: a block pushed past its middle would be pushed out
   through the back. PFC extrudes the facet away from the block into a prism; here the prism
   runs behind the facet (against its outward normal, the counter-clockwise side) far enough
   that the block cannot reach its back (twice the block's reach from the facet's plane), and
   the contact is computed on the prism as on any hull. */
CTDEF ct_status ct_contact_facet_hull(const ct_vec3 tri[3], const ct_hull *b, const ct_xform *xb, int reduced,
                                      ct_scratch *s, ct_contact *out) {
    ct_vec3 f, p[6], cb;
    ct_real len, depth;
    ct_hull prism;
    ct_hull_desc desc;
    ct_status st;
    int i, ok;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->face_a = out->face_b = -1;
    if (!tri || !ct__finite3(tri[0]) || !ct__finite3(tri[1]) || !ct__finite3(tri[2]) || !ct__polar_hull_ok(b) ||
        !ct__xf_valid(xb) || (reduced != 0 && reduced != 1))
        return CT_INVALID;
    f = ct__normalize(ct__cross(ct__sub(tri[1], tri[0]), ct__sub(tri[2], tri[0])), &ok);
    if (!ok) return CT_DEGENERATE;
    cb = ct__xf_point(xb, b->center);
    len = ct__max(ct__max(ct__dist(tri[0], tri[1]), ct__dist(tri[1], tri[2])), ct__dist(tri[2], tri[0]));
    depth = 2 * (ct__abs(ct__dot(f, ct__sub(cb, tri[0]))) + b->extent) + len;
    for (i = 0; i < 3; ++i) { p[i] = tri[i]; p[i + 3] = ct__madd(tri[i], f, -depth); }
    memset(&desc, 0, sizeof desc);
    desc.scratch = s;
    st = ct_hull_build(p, 6, &desc, NULL, &prism);
    if (st != CT_OK) return st == CT_DEGENERATE ? CT_DEGENERATE : st;
    st = reduced ? ct_contact_hulls_reduced(&prism, NULL, b, xb, NULL, s, out) : ct_contact_hulls(&prism, NULL, b, xb, s, out);
    if (st == CT_OK && out->found) {   /* faces of the prism: the facet itself is face 0 to the caller */
        out->face_a = ct__dot(prism.planes[out->face_a < 0 ? 0 : out->face_a].n, f) > 1 - CT__VC_FEATURE ? 0 : 1;
    }
    ct_hull_free(&prism);
    return st;
}
