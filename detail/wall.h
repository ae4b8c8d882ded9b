/* contact.h detail: >>pfc - a whole wall (a ct_mesh) against a block, PFC style: the DEM contact
   of the block with every facet it reaches, without duplicates at shared edges.

   Facet against block, directly. A facet's contact is that of the block with the facet's prism
   (the facet extruded behind itself, as ct_contact_facet_hull makes it): the overlap is the
   block cut by the facet's plane and by the prism's three side planes (the prism's back is
   deeper than the block reaches, so it never cuts). The block's faces are clipped plane by
   plane (Sutherland-Hodgman per face; the cut face is the 2D convex hull of the crossings), so
   no hull is built per facet.

   Shared edges. Two touched facets across an edge whose normals agree (CT__MESH_MERGE_COS: a
   flat tessellation) have prisms that share the side plane through that edge: the union of
   their overlaps is the block cut by the common plane, and the shared side faces are internal
   (the same polygon from both sides). So the contact of a connected group of such facets is
   computed from the faces of all its pieces with those internal faces dropped and the pieces
   of one plane (the common wall plane, one face of the block) summed into one face, exactly
   the quantities of ct__vc_overlap (Solfec's volumetric contact): surface centroid, area^2-
   weighted normal (wall faces minus block faces), half the surface area, volume and its
   centroid, and the chord along the normal. Across convex ridges and concave creases the
   facets' contacts stay separate (different normals). */

/* Sizes of a piece's face set: its polygons (block faces + the 3 cutting planes) and points
   (each clip adds at most one point per polygon and one cut face of at most 2 per polygon). */
#define CT__WALL_CUTS 3

typedef struct ct__wpoly { int first, count, key; } ct__wpoly;   /* key >= 0: block face; -1 wall top; -2-k side k */
typedef struct ct__wset { ct_vec3 *pt; ct__wpoly *poly; int npt, npoly; } ct__wset;

/* Face record of a piece: area, area-weighted centroid sum, the plane's unit normal. */
typedef struct ct__wrec { int key; ct_real a; ct_vec3 g, n; } ct__wrec;

/* A piece: the overlap of the block with one facet's prism. */
typedef struct ct__wpiece {
    int tri, group, rec0, nrec, pt0, npt;
    ct_real vol;
    ct_vec3 vm;            /* volume moment (sum vol x centroid) */
} ct__wpiece;

/* Appends point x (zero: it lies in the clip plane, within tol) to the polygon starting at
   first. A run of three or more in-plane points keeps only its ends: the polygon between them
   lies in the plane within tol, where the cut face (the 2D hull of every in-plane point) covers
   it, and counting it twice put both on the same side of the solid. A block face nearly
   parallel to a prism's side plane (0.23 above it to 0.69 below over 5e3, two vertices within
   the float tol) kept a triangle of 5e5 in the plane: the wall 2% above the facet's volume.
   run: the trailing run's kept length; lead: -1 until the first point off the plane, then the
   number of in-plane points before it (a polygon whose every point is in the plane is dropped
   by the caller before it gets here, its points kept out of the cut face's hull too). */
CT__PRIVATE void ct__wall_put(ct__wset *out, int first, ct_vec3 x, int zero, int *run, int *lead) {
    if (zero && *run >= 2) {
        out->pt[out->npt - 1] = x;
        return;
    }
    if (!zero && *lead < 0) *lead = out->npt - first;
    out->pt[out->npt++] = x;
    *run = zero ? *run + 1 : 0;
}

/* Clips the closed convex face set in by {x : n.x <= off} into out (capacities checked by the
   caller), the cut face keyed key. Returns 0 when nothing is left (the set lies on or above
   the plane within tol), 1 when out holds the cut set, 2 when the plane cuts nothing (out
   untouched: in is the answer). dist holds in->npt heights; cut2/work2 2 x in->npoly + in->npt
   + 1 points. */
CT__PRIVATE int ct__wall_clip(const ct__wset *in, ct_vec3 n, ct_real off, ct_real tol, int key, ct__wset *out,
                              ct_real *dist, ct__v2 *cut2, ct__v2 *work2) {
    ct_vec3 u, w;
    ct_real lo = CT__MAXR, hi = -CT__MAXR;
    int i, k, ncut = 0, run, lead;
    for (i = 0; i < in->npt; ++i) {
        ct_real d = ct__dot(n, in->pt[i]) - off;
        if (ct__abs(d) <= tol) d = 0;
        dist[i] = d;
        lo = ct__min(lo, d);
        hi = ct__max(hi, d);
    }
    if (!(lo < 0)) return 0;
    if (hi <= 0) return 2;
    ct__basis(n, &u, &w);
    out->npt = out->npoly = 0;
    for (i = 0; i < in->npoly; ++i) {
        const ct__wpoly *pg = &in->poly[i];
        ct__wpoly *q = &out->poly[out->npoly];
        /* a polygon lying in the plane (every vertex within tol) is the cut face itself: dropped,
           else both would count (its vertices reach the cut face through the polygons around
           them). A block face 150 float ulps off a prism's side plane was kept next to the cut
           face: the volume 1.3% high. */
        for (k = 0; k < pg->count && dist[pg->first + k] == 0; ++k) {}
        if (k == pg->count) continue;
        q->first = out->npt;
        q->key = pg->key;
        lead = -1;
        run = 0;
        for (k = 0; k < pg->count; ++k) {
            int ia = pg->first + k, ib = pg->first + (k + 1 < pg->count ? k + 1 : 0);
            ct_real da = dist[ia], db = dist[ib];
            if (da <= 0) {
                ct__wall_put(out, q->first, in->pt[ia], da == 0, &run, &lead);
                if (da == 0) cut2[ncut++] = ct__v2_make(ct__dot(in->pt[ia], u), ct__dot(in->pt[ia], w));
            }
            if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
                ct_vec3 x = ct__lerp(in->pt[ia], in->pt[ib], da / (da - db));
                ct__wall_put(out, q->first, x, 1, &run, &lead);
                /* each crossing once: where the polygon leaves (its neighbour across the edge
                   enters there) */
                if (da < 0) cut2[ncut++] = ct__v2_make(ct__dot(x, u), ct__dot(x, w));
            }
        }
        if (lead < 0) {   /* no point below the plane: the polygon only touches it (the cut face covers it) */
            out->npt = q->first;
            continue;
        }
        if (run > 0 && lead > 0 && run + lead >= 3) {   /* the run of in-plane points wraps around */
            if (run == 2) --out->npt;
            if (lead == 2) {
                memmove(out->pt + q->first, out->pt + q->first + 1, sizeof *out->pt * (size_t)(out->npt - q->first - 1));
                --out->npt;
            }
        }
        q->count = out->npt - q->first;
        if (q->count >= 3) ++out->npoly;
        else out->npt = q->first;
    }
    /* the points are world lengths: the 2D hull's tolerance is tol (64 ulps of the block's
       extent), not CT__VC_TOL2D, which is relative to a unit frame (absolute here, it merged
       the cut face of a 1e-5 block in float: 30% of its overlap lost) */
    ncut = ncut > 0 ? ct__hull2d(cut2, ncut, work2, tol) : 0;
    if (ncut >= 3) {   /* the cut face, counter-clockwise seen along +n (u x w = n) */
        ct__wpoly *q = &out->poly[out->npoly++];
        q->first = out->npt;
        q->count = ncut;
        q->key = key;
        for (k = 0; k < ncut; ++k) out->pt[out->npt++] = ct__madd(ct__madd(ct__scale(n, off), u, cut2[k].x), w, cut2[k].y);
    }
    return 1;
}

/* Face records (one per polygon) and volume of a clipped set; normals from the planes. */
CT__PRIVATE int ct__wall_records(const ct__wset *st, const ct_vec3 *bn, const ct_vec3 *cn, ct__wrec *rec,
                                 ct__wpiece *pc) {
    int i, k, nrec = 0;
    pc->vol = 0;
    pc->vm = ct__v3(0, 0, 0);
    for (i = 0; i < st->npoly; ++i) {
        const ct__wpoly *pg = &st->poly[i];
        const ct_vec3 *p = st->pt + pg->first;
        ct__wrec *r = &rec[nrec++];
        r->key = pg->key;
        r->n = pg->key >= 0 ? bn[pg->key] : cn[-1 - pg->key];
        r->a = 0;
        r->g = ct__v3(0, 0, 0);
        for (k = 1; k + 1 < pg->count; ++k) {
            ct_vec3 s = ct__add(p[0], ct__add(p[k], p[k + 1]));
            ct_real at = ct__dot(ct__cross(ct__sub(p[k], p[0]), ct__sub(p[k + 1], p[0])), r->n) / 2;
            ct_real vt = ct__dot(p[0], ct__cross(p[k], p[k + 1])) / 6;   /* tetrahedron (origin, p0, pk, pk+1) */
            r->a += at;
            r->g = ct__madd(r->g, s, at / 3);
            pc->vol += vt;
            pc->vm = ct__madd(pc->vm, s, vt / 4);
        }
    }
    return nrec;
}

typedef struct ct__wall_job { int *tri; int n, cap; } ct__wall_job;
CT__PRIVATE int ct__wall_visit(void *user, int t) {
    ct__wall_job *j = (ct__wall_job *)user;
    if (j->tri && j->n < j->cap) j->tri[j->n] = t;
    ++j->n;
    return 1;
}
CT__PRIVATE int ct__wall_int_cmp(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

CT__PRIVATE int ct__wall_find(int *parent, int i) {
    while (parent[i] != i) { parent[i] = parent[parent[i]]; i = parent[i]; }
    return i;
}

/* Index of triangle t among the sorted pieces, -1 when not touched. */
CT__PRIVATE int ct__wall_piece_of(const ct__wpiece *pc, int n, int t) {
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (pc[mid].tri == t) return mid;
        if (pc[mid].tri < t) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

CTDEF void ct_wall_contacts_init(ct_wall_contacts *c, const ct_allocator *a) {
    if (!c) return;
    memset(c, 0, sizeof *c);
    if (a) { c->ct__alloc = *a; c->ct__has_alloc = 1; }
}

CTDEF void ct_wall_contacts_free(ct_wall_contacts *c) {
    ct_allocator al;
    int has;
    if (!c) return;
    al = ct__allocator(c->ct__has_alloc ? &c->ct__alloc : NULL);
    has = c->ct__has_alloc;
    ct__free(&al, c->contacts);
    memset(c, 0, sizeof *c);
    if (has) { c->ct__alloc = al; c->ct__has_alloc = 1; }
}

CT__PRIVATE int ct__wall_grow(ct_wall_contacts *c, int need) {
    ct_allocator al;
    ct_contact *nc;
    int cap;
    if (need <= c->ct__cap) return 1;
    al = ct__allocator(c->ct__has_alloc ? &c->ct__alloc : NULL);
    cap = c->ct__cap ? 2 * c->ct__cap : 16;
    while (cap < need) cap *= 2;
    nc = (ct_contact *)ct__alloc(&al, ct__array_bytes(cap, sizeof *nc));
    if (!nc) return 0;
    if (c->count) memcpy(nc, c->contacts, (size_t)c->count * sizeof *nc);
    ct__free(&al, c->contacts);
    c->contacts = nc;
    c->ct__cap = cap;
    return 1;
}

/* The block's overlap with the prism of triangle t (mesh frame relative to o): the block's face
   set already cut by the facet's plane (top, plane f.x <= toff), cut by the three side planes.
   Fills the piece's records (rec) and volume; returns the clipped set (top, s0 or s1), NULL
   when it has no volume. */
CT__PRIVATE const ct__wset *ct__wall_piece(const ct_mesh *m, int t, ct_vec3 o, ct_real tol, const ct__wset *top,
                                           ct_vec3 f, ct__wset *s0, ct__wset *s1, ct_real *dist, ct__v2 *cut2,
                                           ct__v2 *work2, const ct_vec3 *bn, const ct_vec3 *bv, int nbv, ct_real rad,
                                           ct__wrec *rec, ct__wpiece *pc) {
    ct_vec3 v[3], cn[1 + CT__WALL_CUTS];
    const ct__wset *cur = top;
    int k;
    for (k = 0; k < 3; ++k) v[k] = ct__sub(ct__mesh_vert(m, t, k), o);
    cn[0] = f;
    for (k = 0; k < 3; ++k) {   /* the block wholly outside a side plane: no piece (its bounding
                                   sphere about o first, then its vertices) */
        ct_vec3 n = ct__normalize(ct__cross(ct__sub(v[(k + 1) % 3], v[k]), f), NULL);
        ct_real off = ct__dot(n, v[k]), lo = CT__MAXR;
        int i;
        if (off < -rad) return NULL;
        if (off > rad) continue;
        for (i = 0; i < nbv; ++i) lo = ct__min(lo, ct__dot(n, bv[i]));
        if (!(lo < off - tol)) return NULL;
    }
    for (k = 0; k < 3; ++k) {
        ct__wset *dst = cur == s0 ? s1 : s0;
        int r;
        cn[1 + k] = ct__normalize(ct__cross(ct__sub(v[(k + 1) % 3], v[k]), f), NULL);
        r = ct__wall_clip(cur, cn[1 + k], ct__dot(cn[1 + k], v[k]), tol, -2 - k, dst, dist, cut2, work2);
        if (r == 0) return NULL;
        if (r == 1) cur = dst;
    }
    pc->tri = t;
    pc->nrec = ct__wall_records(cur, bn, cn, rec, pc);
    pc->npt = cur->npt;
    return pc->vol > 0 ? cur : NULL;
}

/* Room for need more items in the scratch array *arr (used items, *cap): a larger copy from the
   scratch when full (the old one stays until the call ends: at most twice the final size). */
CT__PRIVATE int ct__wall_room(ct_scratch *s, void **arr, int used, int *cap, int need, size_t size) {
    void *na;
    int nc;
    if (used + need <= *cap) return 1;
    nc = 2 * (used + need);
    na = ct__scratch_array(s, nc, size);
    if (!na) return 0;
    if (used) memcpy(na, *arr, (size_t)used * size);
    *arr = na;
    *cap = nc;
    return 1;
}

/* The contact of group g (pieces with group == g), relative to o in the mesh frame. agg_a,
   agg_g: per block face scratch (zeroed here). */
CT__PRIVATE void ct__wall_group(const ct_mesh *m, ct_vec3 o, const ct__wpiece *pc, int np, int g, const ct__wrec *rec,
                                const ct_vec3 *pts, const ct_vec3 *bn, const ct_plane *bpl, int nbf, ct_real *agg_a,
                                ct_vec3 *agg_g, ct__wrec *side, ct_contact *c) {
    ct_real atop = 0, stot = 0, w2 = 0, vol = 0, abest = -1;
    ct_vec3 gtop = ct__v3(0, 0, 0), ntop = m->normals[pc[g].tri], pt = ct__v3(0, 0, 0), nrm = ct__v3(0, 0, 0),
            vm = ct__v3(0, 0, 0);
    int i, k, nside = 0, ok, best = pc[g].tri, fb = -1;
    for (k = 0; k < nbf; ++k) { agg_a[k] = 0; agg_g[k] = ct__v3(0, 0, 0); }
    for (i = g; i < np; ++i) {
        const ct__wpiece *p = &pc[i];
        ct_real at = 0;
        if (p->group != g) continue;
        vol += p->vol;
        vm = ct__add(vm, p->vm);
        for (k = p->rec0; k < p->rec0 + p->nrec; ++k) {
            const ct__wrec *r = &rec[k];
            if (r->key >= 0) { agg_a[r->key] += r->a; agg_g[r->key] = ct__add(agg_g[r->key], r->g); }
            else if (r->key == -1) { atop += r->a; gtop = ct__add(gtop, r->g); at += r->a; }
            else {   /* a side: internal when the neighbour across it is in the group */
                int u = m->adj[3 * p->tri + (-2 - r->key)], q = u >= 0 ? ct__wall_piece_of(pc, np, u) : -1;
                if (q < 0 || pc[q].group != g) side[nside++] = *r;
            }
        }
        if (at > abest) { abest = at; best = p->tri; }
    }
    /* the faces: the wall's top (one plane), its outer sides, the block's faces */
    stot = atop;
    pt = gtop;
    nrm = ct__scale(ntop, atop * atop);
    w2 = atop * atop;
    for (k = 0; k < nside; ++k) {
        stot += side[k].a; pt = ct__add(pt, side[k].g);
        nrm = ct__madd(nrm, side[k].n, side[k].a * side[k].a); w2 += side[k].a * side[k].a;
    }
    for (k = 0; k < nbf; ++k) {
        if (agg_a[k] <= 0) continue;
        stot += agg_a[k]; pt = ct__add(pt, agg_g[k]);
        nrm = ct__madd(nrm, bn[k], -agg_a[k] * agg_a[k]); w2 += agg_a[k] * agg_a[k];
    }
    c->found = 1;
    c->area = stot / 2;
    c->volume = vol;
    c->point = stot > 0 ? ct__scale(pt, 1 / stot) : ct__v3(0, 0, 0);
    c->centroid = vol > 0 ? ct__scale(vm, 1 / vol) : c->point;
    ok = ct__len(nrm) > CT__VC_NORMAL * w2;
    c->normal = ok ? ct__normalize(nrm, &ok) : ntop;
    if (!ok) c->normal = ntop;
    {
        /* the chord through point along normal, as ct__vc_overlap: leaving through a wall face,
           entering through a block face; otherwise the deepest point of the overlap below the
           wall's plane gives the gap */
        ct_real tlo = -CT__MAXR, thi = CT__MAXR, wlo = CT__MAXR, whi = -CT__MAXR, dmax = 0, top = 0, chord, width, tie;
        int hiA = 0, loB = 0, usable, pass;
        for (i = g; i < np; ++i) {
            if (pc[i].group != g) continue;
            for (k = pc[i].pt0; k < pc[i].pt0 + pc[i].npt; ++k) {
                ct_real h = ct__dot(pts[k], c->normal);
                wlo = ct__min(wlo, h);
                whi = ct__max(whi, h);
            }
        }
        top = ct__dot(ntop, ct__sub(ct__mesh_vert(m, pc[g].tri, 0), o));   /* the wall's plane */
        for (i = g; i < np; ++i)
            if (pc[i].group == g)
                for (k = pc[i].pt0; k < pc[i].pt0 + pc[i].npt; ++k) dmax = ct__max(dmax, top - ct__dot(ntop, pts[k]));
        width = whi - wlo;
        tie = CT__VC_FEATURE * width;
        for (pass = 0; pass < 2; ++pass) {
            for (k = -1 - nside; k < nbf; ++k) {   /* -1 - nside..-2: sides, -1: top, >= 0: block */
                ct_vec3 n;
                ct_real q, dn, tt;
                int wall = k < 0;
                if (k == -1) { if (atop <= 0) continue; n = ntop; q = top; }
                else if (k < -1) { const ct__wrec *r = &side[-2 - k]; if (r->a <= 0) continue; n = r->n; q = ct__dot(n, r->g) / r->a; }
                else { if (agg_a[k] <= 0) continue; n = bn[k]; q = -bpl[k].d; }
                dn = ct__dot(n, c->normal);
                if (ct__abs(dn) <= CT__VC_PARALLEL) continue;
                tt = (q - ct__dot(n, c->point)) / dn;
                if (pass == 0) {
                    if (dn > 0) thi = ct__min(thi, tt); else tlo = ct__max(tlo, tt);
                } else {
                    if (dn > 0 && wall && tt <= thi + tie) hiA = 1;
                    if (dn < 0 && !wall && tt >= tlo - tie) loB = 1;
                }
            }
        }
        chord = thi - tlo;
        usable = thi < CT__MAXR && tlo > -CT__MAXR && chord >= 0 && chord <= width * (1 + CT__VC_CHORD_SLACK);
        c->gap = usable && hiA && loB && chord > tie ? -chord : -dmax;
    }
    {
        ct_real dmin = CT__MAXR;
        for (k = 0; k < nbf; ++k) {
            ct_real dd;
            if (agg_a[k] <= 0) continue;
            dd = ct__abs(ct__dot(bn[k], c->point) + bpl[k].d);
            if (dd < dmin) { dmin = dd; fb = k; }
        }
    }
    c->face_a = best;
    c->face_b = fb;
}

CTDEF ct_status ct_contact_mesh_hull(const ct_mesh *m, const ct_xform *xm, const ct_hull *b, const ct_xform *xb,
                                     ct_scratch *user, ct_wall_contacts *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct_status st = CT_OK;
    ct_xform rel;
    ct_aabb box;
    ct__wall_job job;
    ct__wset blk, s0, s1, top;
    ct_vec3 tn = ct__v3(0, 0, 0);
    ct_real toff = 0, *dist;
    int tstate = -1;   /* top: -1 none yet, 0 empty, 1 cut, 2 the whole block */
    ct__wpiece *pc = NULL;
    ct__wrec *rec, *side;
    ct_vec3 o, *bn, *bv, *pts, *agg_g;
    ct_plane *bpl;
    ct__v2 *cut2, *work2;
    ct_real tol, *agg_a;
    ct__wrec *prec;
    int *parent = NULL, i, k, np = 0, nrec = 0, npts = 0, nbf, maxpoly, maxpt, caprec, cappts, pass;
    if (!out) return CT_INVALID;
    out->count = 0;
    if (!ct__mesh_ok(m) || !ct__polar_hull_ok(b) || !b->face_first || !b->face_verts || !ct__xf_valid(xm) ||
        !ct__xf_valid(xb))
        return CT_INVALID;
    s = ct__scratch_begin(user, &local, NULL);
    mk = ct__scratch_mark(s);
    rel = ct__xf_rel(xm, xb);   /* block -> mesh frame */
    box = ct_hull_aabb(b, &rel);
    o = ct__xf_point(&rel, b->center);
    tol = CT__PFC_ON_PLANE * b->extent;
    nbf = b->nfaces;
    maxpoly = nbf + 1 + CT__WALL_CUTS;
    maxpt = b->face_first[nbf] + (1 + CT__WALL_CUTS) * 3 * maxpoly;
    caprec = 4 * maxpoly;
    cappts = 4 * maxpt;
    rec = CT__SALLOC(s, ct__wrec, caprec);
    prec = CT__SALLOC(s, ct__wrec, maxpoly);
    pts = CT__SALLOC(s, ct_vec3, cappts);
    blk.pt = CT__SALLOC(s, ct_vec3, maxpt);
    s0.pt = CT__SALLOC(s, ct_vec3, maxpt);
    s1.pt = CT__SALLOC(s, ct_vec3, maxpt);
    top.pt = CT__SALLOC(s, ct_vec3, maxpt);
    top.poly = CT__SALLOC(s, ct__wpoly, maxpoly);
    dist = CT__SALLOC(s, ct_real, maxpt);
    blk.poly = CT__SALLOC(s, ct__wpoly, maxpoly);
    s0.poly = CT__SALLOC(s, ct__wpoly, maxpoly);
    s1.poly = CT__SALLOC(s, ct__wpoly, maxpoly);
    cut2 = CT__SALLOC(s, ct__v2, 2 * maxpoly + maxpt + 1);
    work2 = CT__SALLOC(s, ct__v2, 2 * maxpoly + maxpt + 2);
    bn = CT__SALLOC(s, ct_vec3, nbf);
    bv = CT__SALLOC(s, ct_vec3, b->nverts);
    bpl = CT__SALLOC(s, ct_plane, nbf);
    agg_a = CT__SALLOC(s, ct_real, nbf);
    agg_g = CT__SALLOC(s, ct_vec3, nbf);
    if (!rec || !prec || !pts || !blk.pt || !s0.pt || !s1.pt || !blk.poly || !s0.poly || !s1.poly || !top.pt ||
        !top.poly || !dist || !cut2 || !work2 || !bn || !bv || !bpl || !agg_a || !agg_g) {
        st = CT_NO_MEMORY;
        goto done;
    }
    /* the block's faces in the mesh frame, relative to o */
    for (i = 0; i < b->nverts; ++i) bv[i] = ct__sub(ct__xf_point(&rel, b->verts[i]), o);
    blk.npt = 0;
    blk.npoly = nbf;
    for (i = 0; i < nbf; ++i) {
        ct_plane pl = ct__xf_plane(&rel, b->planes[i]);
        ct_real len = ct__len(pl.n);
        bn[i] = ct__scale(pl.n, 1 / len);
        bpl[i].n = bn[i];
        bpl[i].d = (pl.d + ct__dot(pl.n, o)) / len;
        blk.poly[i].first = blk.npt;
        blk.poly[i].key = i;
        blk.poly[i].count = b->face_first[i + 1] - b->face_first[i];
        for (k = b->face_first[i]; k < b->face_first[i + 1]; ++k) blk.pt[blk.npt++] = bv[b->face_verts[k]];
    }
    /* the facets whose boxes meet the block's; when none gives a piece, those within the
       block's diameter of its box: a block pushed wholly behind the wall (its box no longer
       meets the facets) still meets their prisms */
    for (pass = 0; pass < 2 && np == 0; ++pass) {
        if (pass == 1) {
            box.lo = ct__sub(box.lo, ct__v3(2 * b->extent, 2 * b->extent, 2 * b->extent));
            box.hi = ct__add(box.hi, ct__v3(2 * b->extent, 2 * b->extent, 2 * b->extent));
        }
        memset(&job, 0, sizeof job);
        ct__mesh_query(m, box, ct__wall_visit, &job);
        job.cap = job.n;
        job.tri = CT__SALLOC(s, int, job.n + 1);
        pc = CT__SALLOC(s, ct__wpiece, job.n + 1);
        parent = CT__SALLOC(s, int, job.n + 1);
        if (!job.tri || !pc || !parent) { st = CT_NO_MEMORY; goto done; }
        job.n = 0;
        ct__mesh_query(m, box, ct__wall_visit, &job);
        qsort(job.tri, (size_t)job.n, sizeof(int), ct__wall_int_cmp);
        tstate = -1;
        for (i = 0; i < job.n; ++i) {
            int t = job.tri[i];
            ct__wpiece *p = &pc[np];
            const ct__wset *set;
            ct_vec3 f = m->normals[t];
            ct_real off;
            if (m->flags[t] & CT__MESH_F_DEGEN) continue;
            off = ct__dot(f, ct__sub(ct__mesh_vert(m, t, 0), o));
            if (off < -b->extent) continue;   /* the block's bounding sphere wholly in front of the facet */
            /* the cut by the facet's plane, shared by the run of coplanar facets (a flat wall) */
            if (tstate < 0 || ct__dot(f, tn) < CT__MESH_MERGE_COS || ct__abs(off - toff) > tol) {
                tn = f;
                toff = off;
                tstate = ct__wall_clip(&blk, f, off, tol, -1, &top, dist, cut2, work2);
            }
            if (tstate == 0) continue;
            set = ct__wall_piece(m, t, o, tol, tstate == 2 ? &blk : &top, tn, &s0, &s1, dist, cut2, work2, bn, bv,
                                 b->nverts, b->extent, prec, p);
            if (!set) continue;
            if (!ct__wall_room(s, (void **)&rec, nrec, &caprec, p->nrec, sizeof *rec) ||
                !ct__wall_room(s, (void **)&pts, npts, &cappts, p->npt, sizeof *pts)) {
                st = CT_NO_MEMORY;
                goto done;
            }
            memcpy(rec + nrec, prec, sizeof *rec * (size_t)p->nrec);
            memcpy(pts + npts, set->pt, sizeof *pts * (size_t)p->npt);
            p->rec0 = nrec; p->pt0 = npts;
            nrec += p->nrec; npts += p->npt;
            parent[np] = np;
            ++np;
        }
    }
    /* groups: touched neighbours across edges with agreeing normals */
    for (i = 0; i < np; ++i) {
        int t = pc[i].tri;
        for (k = 0; k < 3; ++k) {
            int u = m->adj[3 * t + k], q;
            if (u <= t || ct__dot(m->normals[t], m->normals[u]) < CT__MESH_MERGE_COS) continue;
            q = ct__wall_piece_of(pc, np, u);
            if (q >= 0) {
                int ra = ct__wall_find(parent, i), rb = ct__wall_find(parent, q);
                if (ra != rb) parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
            }
        }
    }
    for (i = 0; i < np; ++i) pc[i].group = ct__wall_find(parent, i);   /* the root is the group's first piece */
    side = CT__SALLOC(s, ct__wrec, nrec + 1);
    if (!side) { st = CT_NO_MEMORY; goto done; }
    for (i = 0; i < np; ++i) {
        ct_contact *c;
        if (pc[i].group != i) continue;
        if (!ct__wall_grow(out, out->count + 1)) { st = CT_NO_MEMORY; goto done; }
        c = &out->contacts[out->count++];
        memset(c, 0, sizeof *c);
        ct__wall_group(m, o, pc, np, i, rec, pts, bn, bpl, nbf, agg_a, agg_g, side, c);
        c->point = ct__xf_point(xm, ct__add(c->point, o));
        c->centroid = ct__xf_point(xm, ct__add(c->centroid, o));
        c->normal = ct__xf_dir(xm, c->normal);
    }
done:
    if (st != CT_OK) out->count = 0;
    ct__scratch_end(s, &local, mk);
    return st;
}
