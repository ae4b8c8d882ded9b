/* contact.h detail: >>polar - the volumetric contact of two convex polyhedra (Solfec's
   contact from the intersection surface, goc.c: detect_convex_convex / point_and_normal /
   convex_convex_gap, T. Koziara 2008) and Solfec's sparsification of redundant contacts
   (dom.c: sparsify_contacts). Built on ct__polar_run (polar.h).

   Overlap (A n B has volume): with S_f the faces of A n B, a_f their areas, n_f their unit
   outward normals and g_f their centroids,
     point  = sum a_f g_f / sum a_f                      (centroid of the surface)
     normal = sum_{f on A} a_f^2 n_f - sum_{f on B} a_f^2 n_f, normalised (A -> B)
     area   = sum a_f / 2
     gap    = -(length of the chord of A n B through point along normal) when that chord
              is plausible (ct__vc_overlap), else the EPA penetration depth of A and B
     volume, centroid: the divergence theorem over a fan of tetrahedra from the interior
              point of the polar construction.
   Touching (zero volume): the normal is the separating direction from the Chebyshev LP's
   dual; the contact set is the 2D intersection of the support features of A (along the
   normal) and B (against it), computed in the common plane: vertices of one inside the
   other plus crossings of their edges, then their convex hull. point is its centroid,
   area its area, gap and volume 0. */

/* Support features are taken within this (relative) height of the extreme vertex: faces
   tilted by less than ~sqrt(eps) count as flush. */
#define CT__VC_FEATURE (ct__sqrt(CT__EPS))
/* A point within this (relative to the contact polygons' size) of an edge is inside in 2D. */
#define CT__VC_TOL2D   (64 * CT__EPS)
/* Edge crossings in the contact plane: parameters this many ulps outside [0,1] still count. */
#define CT__VC_SLACK2D (16 * CT__EPS)
/* The weighted normal is defined when longer than this many ulps of sum area^2 (else cancelled). */
#define CT__VC_NORMAL (64 * CT__EPS)
/* A face plane this close to parallel to the normal (|n_f . normal|) cannot bound the chord. */
#define CT__VC_PARALLEL (64 * CT__EPS)
/* The chord may exceed the width of A n B along the normal by this (relative) rounding. */
#define CT__VC_CHORD_SLACK (64 * CT__EPS)

typedef struct ct__v2 { ct_real x, y; } ct__v2;
CT__INLINE ct__v2 ct__v2_make(ct_real x, ct_real y) { ct__v2 v; v.x = x; v.y = y; return v; }
CT__INLINE ct__v2 ct__v2_sub(ct__v2 a, ct__v2 b) { return ct__v2_make(a.x - b.x, a.y - b.y); }
CT__INLINE ct_real ct__v2_cross(ct__v2 a, ct__v2 b) { return a.x * b.y - a.y * b.x; }
CT__INLINE ct_real ct__v2_len(ct__v2 a) { return ct__sqrt(a.x * a.x + a.y * a.y); }

/* The chain's step at b (between a and c, by x): b goes when the turn a -> b -> c is not to the
   left, or when b lies within tol of the segment a-c and between its ends. A point within tol of
   the line but beyond the segment (the tip of a sliver about tol wide that runs nearly along
   y, which the sort by x puts between its sides) stays: dropping it cut the sliver short, and
   the float wall clip lost a side face's vertex with it (0.42% of a contact's volume). */
CT__INLINE int ct__hull2d_pop(ct__v2 a, ct__v2 b, ct__v2 c, ct_real tol) {
    ct__v2 ab = ct__v2_sub(b, a), ac = ct__v2_sub(c, a);
    ct_real x = ct__v2_cross(ab, ac), t = ab.x * ac.x + ab.y * ac.y;
    if (x <= 0) return 1;
    return x <= tol * ct__v2_len(ac) && t >= 0 && t <= ac.x * ac.x + ac.y * ac.y;
}
/* Convex hull of n 2D points in place (Andrew's monotone chain), counter-clockwise, with
   points closer than tol to a hull edge (between its ends) dropped; returns the hull's size (1
   or 2 for a point or a segment). The sort is an insertion sort: feature sets are small and it
   is stable. */
CT__PRIVATE int ct__hull2d(ct__v2 *p, int n, ct__v2 *work, ct_real tol) {
    int i, k = 0, lo;
    for (i = 1; i < n; ++i) {
        ct__v2 t = p[i];
        int j = i - 1;
        while (j >= 0 && (p[j].x > t.x || (p[j].x == t.x && p[j].y > t.y))) { p[j + 1] = p[j]; --j; }
        p[j + 1] = t;
    }
    if (n <= 1) return n;
    for (i = 0; i < n; ++i) {          /* lower chain */
        while (k >= 2 && ct__hull2d_pop(work[k - 2], work[k - 1], p[i], tol)) --k;
        work[k++] = p[i];
    }
    lo = k + 1;
    for (i = n - 2; i >= 0; --i) {     /* upper chain */
        while (k >= lo && ct__hull2d_pop(work[k - 2], work[k - 1], p[i], tol)) --k;
        work[k++] = p[i];
    }
    k -= 1;                             /* the last point repeats the first */
    if (k < 1) k = 1;
    if (k == 2 && ct__v2_len(ct__v2_sub(work[0], work[1])) <= tol) k = 1;
    for (i = 0; i < k; ++i) p[i] = work[i];
    return k;
}

/* q inside the convex set P (hull of k points, CCW) within tol. */
CT__PRIVATE int ct__inside2d(const ct__v2 *P, int k, ct__v2 q, ct_real tol) {
    int i;
    if (k == 1) return ct__v2_len(ct__v2_sub(q, P[0])) <= tol;
    if (k == 2) {
        ct__v2 e = ct__v2_sub(P[1], P[0]), w = ct__v2_sub(q, P[0]);
        ct_real l2 = e.x * e.x + e.y * e.y, t = l2 > 0 ? (e.x * w.x + e.y * w.y) / l2 : 0;
        t = ct__clamp(t, 0, 1);
        return ct__v2_len(ct__v2_make(w.x - t * e.x, w.y - t * e.y)) <= tol;
    }
    for (i = 0; i < k; ++i) {
        ct__v2 e = ct__v2_sub(P[(i + 1) % k], P[i]);
        if (ct__v2_cross(e, ct__v2_sub(q, P[i])) < -tol * ct__v2_len(e)) return 0;
    }
    return 1;
}

/* Candidate points of the intersection of two convex polygons P (kp points) and Q (kq), as
   ct__hull2d makes them (1 or 2 points: a point or a segment): the points of each inside the
   other (within tol) and the crossings of their edges. cand holds kp kq + kp + kq points;
   returns the count (the caller takes their hull with ct__hull2d). */
CT__PRIVATE int ct__poly2d_clip(const ct__v2 *fa, int ka, const ct__v2 *fb, int kb, ct__v2 *cand, ct_real tol) {
    int i, j, nc = 0;
    for (i = 0; i < ka; ++i) if (ct__inside2d(fb, kb, fa[i], tol)) cand[nc++] = fa[i];
    for (i = 0; i < kb; ++i) if (ct__inside2d(fa, ka, fb[i], tol)) cand[nc++] = fb[i];
    if (ka >= 2 && kb >= 2) {
        int ea_n = ka == 2 ? 1 : ka, eb_n = kb == 2 ? 1 : kb;
        for (i = 0; i < ea_n; ++i) {
            ct__v2 a0 = fa[i], d1 = ct__v2_sub(fa[(i + 1) % ka], fa[i]);
            for (j = 0; j < eb_n; ++j) {
                ct__v2 b0 = fb[j], d2 = ct__v2_sub(fb[(j + 1) % kb], fb[j]), ab = ct__v2_sub(b0, a0);
                ct_real den = ct__v2_cross(d1, d2), t, q, slack = CT__VC_SLACK2D;
                if (!(ct__abs(den) > CT__EPS * ct__v2_len(d1) * ct__v2_len(d2))) continue;
                t = ct__v2_cross(ab, d2) / den;
                q = ct__v2_cross(ab, d1) / den;
                if (t >= -slack && t <= 1 + slack && q >= -slack && q <= 1 + slack)
                    cand[nc++] = ct__v2_make(a0.x + t * d1.x, a0.y + t * d1.y);
            }
        }
    }
    return nc;
}

/* Area of a convex polygon of nc >= 1 points (CCW, from ct__hull2d) and its centroid (a
   segment: its midpoint, area 0; a point: itself). */
CT__PRIVATE ct_real ct__poly2d_centroid(const ct__v2 *p, int nc, ct__v2 *cen) {
    ct_real cx = 0, cy = 0, ar = 0;
    int i;
    for (i = 1; nc >= 3 && i + 1 < nc; ++i) {   /* fan from p[0] */
        ct_real cr = ct__v2_cross(ct__v2_sub(p[i], p[0]), ct__v2_sub(p[i + 1], p[0]));
        ar += cr;
        cx += cr * (p[0].x + p[i].x + p[i + 1].x);
        cy += cr * (p[0].y + p[i].y + p[i + 1].y);
    }
    if (nc >= 3 && ar > 0) {
        *cen = ct__v2_make(cx / (3 * ar), cy / (3 * ar));
        return ar / 2;
    }
    *cen = nc >= 2 ? ct__v2_make((p[0].x + p[1].x) / 2, (p[0].y + p[1].y) / 2) : p[0];
    return 0;
}

/* Support feature of a vertex set along dir (within tol of the extreme), projected on the
   plane basis (u, w): written to out, returns its count; *ext gets the extreme height. */
CT__PRIVATE int ct__feature(const ct_vec3 *v, int n, ct_vec3 dir, ct_vec3 u, ct_vec3 w, ct_real tol,
                            ct__v2 *out, ct_real *ext) {
    int i, k = 0;
    ct_real mx = -CT__MAXR;
    for (i = 0; i < n; ++i) mx = ct__max(mx, ct__dot(v[i], dir));
    for (i = 0; i < n; ++i)
        if (ct__dot(v[i], dir) >= mx - tol) out[k++] = ct__v2_make(ct__dot(v[i], u), ct__dot(v[i], w));
    *ext = mx;
    return k;
}

/* Index in [lo, hi) of the plane nearest to x (|n.x + d| smallest), ties within tol going to
   the plane best aligned with dir. cand (size ncand) restricts the search when not NULL. */
CT__PRIVATE int ct__vc_nearest(const ct__polar *p, int lo, int hi, const int *cand, int ncand,
                               ct_vec3 x, ct_vec3 dir, ct_real tol) {
    int t, best = -1, count = cand ? ncand : hi - lo;
    ct_real dmin = CT__MAXR, amax = -CT__MAXR;
    for (t = 0; t < count; ++t) {
        int j = cand ? cand[t] : lo + t;
        if (j < lo || j >= hi) continue;
        dmin = ct__min(dmin, ct__abs(ct__dot(p->pl[j].n, x) + p->pl[j].d));
    }
    for (t = 0; t < count; ++t) {
        int j = cand ? cand[t] : lo + t;
        ct_real al;
        if (j < lo || j >= hi) continue;
        if (ct__abs(ct__dot(p->pl[j].n, x) + p->pl[j].d) > dmin + tol) continue;
        al = ct__dot(p->pl[j].n, dir);
        if (al > amax) { amax = al; best = j; }
    }
    return best;
}

/* The touching contact: point (working frame, absolute), normal, area. */
CT__PRIVATE ct_status ct__vc_touching(ct_scratch *s, const ct__polar *p, const ct_hull *a, const ct_hull *b,
                                      const ct_xform *rel, ct_vec3 *point, ct_vec3 *normal, ct_real *area) {
    ct_vec3 *va, *vb, u, w, n;
    ct__v2 *fa, *fb, *cand, *work;
    int i, ka, kb, nc = 0, ok;
    ct_real ea, eb, tol = CT__VC_TOL2D, inv = 1 / p->scale;
    va = CT__SALLOC(s, ct_vec3, a->nverts);
    vb = CT__SALLOC(s, ct_vec3, b->nverts);
    fa = CT__SALLOC(s, ct__v2, a->nverts);
    fb = CT__SALLOC(s, ct__v2, b->nverts);
    work = CT__SALLOC(s, ct__v2, ct__imax(a->nverts, b->nverts) + 1);
    if (!va || !vb || !fa || !fb || !work) return CT_NO_MEMORY;
    for (i = 0; i < a->nverts; ++i) va[i] = ct__scale(ct__sub(a->verts[i], p->origin), inv);
    for (i = 0; i < b->nverts; ++i) vb[i] = ct__scale(ct__sub(ct__xf_point(rel, b->verts[i]), p->origin), inv);
    n = p->sep;
    ok = p->sep_ok;
    if (!ok) {   /* no dual certificate: the line of centres */
        ct_vec3 ca = ct__v3(0, 0, 0), cb = ct__v3(0, 0, 0);
        for (i = 0; i < a->nverts; ++i) ca = ct__add(ca, va[i]);
        for (i = 0; i < b->nverts; ++i) cb = ct__add(cb, vb[i]);
        n = ct__normalize(ct__sub(ct__scale(cb, (ct_real)1 / (ct_real)b->nverts), ct__scale(ca, (ct_real)1 / (ct_real)a->nverts)), &ok);
        if (!ok) n = ct__v3(1, 0, 0);
    }
    ct__basis(n, &u, &w);
    ka = ct__feature(va, a->nverts, n, u, w, CT__VC_FEATURE, fa, &ea);
    kb = ct__feature(vb, b->nverts, ct__neg(n), u, w, CT__VC_FEATURE, fb, &eb);
    eb = -eb;
    ka = ct__hull2d(fa, ka, work, tol);
    kb = ct__hull2d(fb, kb, work, tol);
    cand = CT__SALLOC(s, ct__v2, (long long)ka * kb + ka + kb + 1);
    work = CT__SALLOC(s, ct__v2, (long long)ka * kb + ka + kb + 2);
    if (!cand || !work) return CT_NO_MEMORY;
    nc = ct__poly2d_clip(fa, ka, fb, kb, cand, tol);
    *normal = n;
    {
        ct__v2 cen;
        if (nc == 0) {   /* rounding left nothing: nearest points of the two features */
            cand[nc++] = ct__v2_make((fa[0].x + fb[0].x) / 2, (fa[0].y + fb[0].y) / 2);
        }
        nc = ct__hull2d(cand, nc, work, tol);
        *area = ct__poly2d_centroid(cand, nc, &cen);
        *point = ct__madd(ct__madd(ct__scale(n, (ea + eb) / 2), u, cen.x), w, cen.y);
    }
    return CT_OK;
}

/* The overlap contact from A n B (vertices relative to p->c). Everything in the working frame;
   point and centroid relative to p->c. Returns a CT__VC_* code: whether the chord (c->gap)
   measures the interpenetration, and if not whether the normal itself is a stand-in. */
enum { CT__VC_CHORD = 0, CT__VC_BAD_CHORD = 1, CT__VC_BAD_NORMAL = 2 };
/* The cones' volume sum is redone exactly when its rounding bound passes this share of it:
   CT__VOL_REL (detail/mass.h) in double; in float, whose own rounding is 1e-7, 1e-3. */
#define CT__VC_VOL_REL ((ct_real)(CT__EPS > (ct_real)1e-10 ? 1e-3 : CT__VOL_REL))
CT__PRIVATE int ct__vc_overlap(const ct__polar *p, ct_contact *c) {
    int f, k, bigA = -1, bigB = p->face_plane[0], code = CT__VC_CHORD;
    ct_real stot = 0, vol = 0, w2 = 0, abig = -1, bbig = -1, rmax = 0, err;
    ct_vec3 pt = ct__v3(0, 0, 0), cen = ct__v3(0, 0, 0), nrm = ct__v3(0, 0, 0);
    int ntri = 0;
    for (f = 0; f < p->nf; ++f) {
        int b0 = p->face_first[f], e0 = p->face_first[f + 1], q = p->face_plane[f];
        ct_vec3 v0 = p->v[p->face_verts[b0]], n = p->pl[q].n, g = ct__v3(0, 0, 0);
        ct_real af = 0;
        for (k = b0 + 1; k + 1 < e0; ++k) {
            ct_vec3 v1 = p->v[p->face_verts[k]], v2 = p->v[p->face_verts[k + 1]];
            ct_vec3 sum = ct__add(v0, ct__add(v1, v2));
            ct_real at = ct__dot(ct__cross(ct__sub(v1, v0), ct__sub(v2, v0)), n) / 2;
            ct_real vt = ct__dot(v0, ct__cross(v1, v2)) / 6;   /* tetrahedron (c, v0, v1, v2) */
            ++ntri;
            af += at;
            g = ct__madd(g, sum, at / 3);
            vol += vt;
            cen = ct__madd(cen, sum, vt / 4);
        }
        stot += af;
        pt = ct__add(pt, g);
        if (q < p->na && af > abig) { abig = af; bigA = q; }
        if (q >= p->na && af > bbig) { bbig = af; bigB = q; }
        nrm = ct__madd(nrm, n, (q < p->na ? af : -af) * af);
        w2 += af * af;
    }
    /* The cones' sum cancels to rounding for a needle (a fuzz_polar needle 1.6e7 long, 0.2
       thick, against itself: 1985 for 645): as in ct_hull_volume (detail/mass.h, whose bound
       this is with every |a| |b| |c| taken as the largest vertex's cube, so the fan loop pays
       nothing for it), volume and centroid are then summed exactly over the same faces. */
    for (k = 0; k < p->nv; ++k) rmax = ct__max(rmax, ct__maxabs(p->v[k]));
    err = 16 * CT__EPS * (ct_real)ntri * rmax * rmax * rmax / 6;
    if (!(err + (ct_real)(ntri + 4) * CT__EPS * (ct__abs(vol) + err) <= CT__VC_VOL_REL * vol)) {
        double v6, m24[3];
        ct__moments_exact(p->v, p->nv, p->face_first, p->face_verts, p->nf, &v6, m24);
        if (ct__finite((ct_real)v6) && ct__finite((ct_real)m24[0]) && ct__finite((ct_real)m24[1]) &&
            ct__finite((ct_real)m24[2])) {
            vol = (ct_real)(v6 / 6);
            cen = ct__v3((ct_real)(m24[0] / 24), (ct_real)(m24[1] / 24), (ct_real)(m24[2] / 24));
        }
    }
    c->area = stot / 2;
    c->volume = vol > 0 ? vol : 0;   /* a sliver A n B can sum to -(rounding) */
    c->point = stot > 0 ? ct__scale(pt, 1 / stot) : ct__v3(0, 0, 0);
    c->centroid = vol > 0 ? ct__scale(cen, 1 / vol) : c->point;
    {
        /* the weighted normals cancel for identical or symmetric bodies: then the largest
           face of A n B on A (else on B) gives the direction */
        int ok = ct__len(nrm) > CT__VC_NORMAL * w2;
        c->normal = ok ? ct__normalize(nrm, &ok) : ct__v3(0, 0, 0);
        if (!ok) {
            c->normal = bigA >= 0 ? p->pl[bigA].n : ct__neg(p->pl[bigB].n);
            code = CT__VC_BAD_NORMAL;
        }
    }
    {
        /* chord through point along the normal (Solfec's convex_convex_gap): it leaves A n B
           at thi through the faces with n_f.normal > 0 and enters at tlo through the others.
           It measures the interpenetration only when it enters through a face of B and leaves
           through a face of A (at a corner, through any face within `tie` of the exit) */
        ct_real tlo = -CT__MAXR, thi = CT__MAXR, wlo = CT__MAXR, whi = -CT__MAXR, chord, width, tie;
        int j, hiA = 0, loB = 0, usable;
        for (j = 0; j < p->nv; ++j) {
            ct_real h = ct__dot(p->v[j], c->normal);
            wlo = ct__min(wlo, h);
            whi = ct__max(whi, h);
        }
        width = whi - wlo;
        tie = CT__VC_FEATURE * width;
        for (f = 0; f < p->nf; ++f) {
            ct_plane pl = p->pl[p->face_plane[f]];
            ct_real sl = -(ct__dot(pl.n, p->c) + pl.d), dn = ct__dot(pl.n, c->normal);
            ct_real t;
            if (ct__abs(dn) <= CT__VC_PARALLEL) continue;
            t = (sl - ct__dot(pl.n, c->point)) / dn;
            if (dn > 0) thi = ct__min(thi, t); else tlo = ct__max(tlo, t);
        }
        chord = thi - tlo;
        for (f = 0; f < p->nf && !(hiA && loB); ++f) {
            int q = p->face_plane[f];
            ct_plane pl = p->pl[q];
            ct_real sl = -(ct__dot(pl.n, p->c) + pl.d), dn = ct__dot(pl.n, c->normal), t;
            if (ct__abs(dn) <= CT__VC_PARALLEL) continue;
            t = (sl - ct__dot(pl.n, c->point)) / dn;
            if (dn > 0 && q < p->na && t <= thi + tie) hiA = 1;
            if (dn < 0 && q >= p->na && t >= tlo - tie) loB = 1;
        }
        usable = thi < CT__MAXR && tlo > -CT__MAXR && chord >= 0 && chord <= width * (1 + CT__VC_CHORD_SLACK);
        if (!usable) chord = width;
        if (code == CT__VC_CHORD && !(usable && hiA && loB && chord > tie)) code = CT__VC_BAD_CHORD;
        c->gap = -chord;
    }
    return code;
}

/* The gap when the chord does not measure the interpenetration: the EPA penetration depth of
   the two hulls (ct_signed_distance: the shortest translation that separates them, never more
   than the depth along any other direction, the contact normal included), in the working
   frame; EPA's normal too when ours is a stand-in (the weighted normals cancelled). When EPA
   sees no penetration (an overlap thinner than GJK's tolerance) the chord stays. */
CT__PRIVATE ct_status ct__vc_epa_gap(ct_scratch *s, const ct__polar *p, const ct_hull *a, const ct_xform *xa,
                                     const ct_hull *b, const ct_xform *xb, int code, ct_contact *c) {
    ct_shape sa = ct_shape_hull(a), sb = ct_shape_hull(b);
    ct_distance d;
    ct_status st = ct_signed_distance(&sa, xa, &sb, xb, NULL, s, &d);
    if (st == CT_NO_MEMORY) return st;
    if ((st == CT_OK || st == CT_NO_CONVERGENCE) && d.distance < 0 && ct__finite(d.distance) && ct__finite3(d.normal)) {
        c->gap = d.distance / p->scale;
        if (code == CT__VC_BAD_NORMAL) c->normal = ct__xf_inv_dir(xa, d.normal);
    }
    return CT_OK;
}

/* ---- canonical form of A n B ----------------------------------------------------------------
   The contact is a function of A n B's structure and the transforms only, not of the path that
   found it: ct_contact_hulls (the LP's interior point and the dual hull) and the warm start of
   detail/pfc.h (a cached structure about the moved centroid) evaluate the same canonical
   polyhedron, so they agree bit for bit whenever they find the same structure (the scene relies
   on it: its volumetric pairs are warm, its answers those of a cold call). A vertex is named by
   its planes, sorted; it is placed
     - on one body's planes only: at that body's vertex common to its first three faces
       (transformed into the working frame as the warm start's check does);
     - on exactly three planes of both bodies: by Cramer on the sorted triple, about the
       working frame's origin, when |det| of the unit normals is at least CT__VC_CANON_TRIPLE;
     - otherwise (more than three planes of both bodies: flush faces; an ill-conditioned
       triple; a named placement that strays from the polar construction's by more than
       CT__VC_CANON_AGREE, as a needle's stray planes make it; a body vertex outside the other
       body's planes by more than the touch band, which a needle thinner than the
       construction's resolution can name) where the polar construction put
       it: such an overlap is not canonical, and the warm start does not cache it.
   Faces are listed in plane order, each polygon from its vertex with the smallest plane list;
   vertices are numbered in order of first appearance; the reference point c is their mean. */
#define CT__VC_CANON_TRIPLE ((ct_real)1e-4)
/* A named placement farther than this from the polar construction's (working frame, scaled
   like the touching band by the coordinates' magnitude) is not trusted: well-placed vertices
   agree to rounding (1e-13 in double), a needle's stray planes by far more. */
#define CT__VC_CANON_AGREE (ct__sqrt(CT__EPS))

/* The vertex of hull h common to its faces f0, f1, f2; -1 when there is none. */
CT__PRIVATE int ct__vc_common_vertex(const ct_hull *h, int f0, int f1, int f2) {
    int i, j, k;
    if (f0 < 0 || f1 < 0 || f2 < 0 || f0 >= h->nfaces || f1 >= h->nfaces || f2 >= h->nfaces) return -1;
    for (i = h->face_first[f0]; i < h->face_first[f0 + 1]; ++i) {
        int v = h->face_verts[i], in1 = 0, in2 = 0;
        for (j = h->face_first[f1]; j < h->face_first[f1 + 1] && !in1; ++j) in1 = h->face_verts[j] == v;
        for (k = h->face_first[f2]; k < h->face_first[f2 + 1] && in1 && !in2; ++k) in2 = h->face_verts[k] == v;
        if (in1 && in2) return v;
    }
    return -1;
}

/* A canonical vertex in the working frame: body vertex q of h (B's when one) ... */
CT__INLINE ct_vec3 ct__vc_at_vertex(const ct__polar *p, const ct_hull *h, int one, int q, const ct_xform *rel) {
    ct_vec3 x = one ? ct__xf_point(rel, h->verts[q]) : h->verts[q];
    return ct__scale(ct__sub(x, p->origin), 1 / p->scale);
}
/* ... or where planes l0 < l1 < l2 meet (Cramer about the working frame's origin); 0 when
   |det| of their unit normals is below CT__VC_CANON_TRIPLE. */
CT__INLINE int ct__vc_at_planes(const ct__polar *p, int l0, int l1, int l2, ct_vec3 *w) {
    ct_vec3 n0 = p->pl[l0].n, n1 = p->pl[l1].n, n2 = p->pl[l2].n, x;
    ct_real det = ct__dot(n0, ct__cross(n1, n2));
    if (!(ct__abs(det) >= CT__VC_CANON_TRIPLE)) return 0;
    x = ct__scale(ct__cross(n1, n2), -p->pl[l0].d);
    x = ct__madd(x, ct__cross(n2, n0), -p->pl[l1].d);
    x = ct__madd(x, ct__cross(n0, n1), -p->pl[l2].d);
    *w = ct__scale(x, 1 / det);
    return 1;
}
/* The reference point: c = the mean of the n vertices w (working frame, in order); w becomes
   relative to it. (p->r, the depth of the construction's interior point, is not kept up: no
   step after this one reads it.) */
CT__PRIVATE void ct__vc_centre(ct__polar *p, ct_vec3 *w, int n) {
    ct_vec3 c = ct__v3(0, 0, 0);
    int k;
    for (k = 0; k < n; ++k) c = ct__add(c, w[k]);
    c = ct__scale(c, 1 / (ct_real)n);
    for (k = 0; k < n; ++k) w[k] = ct__sub(w[k], c);
    p->c = c;
    p->v = w;
    p->nv = n;
}

/* Whether w (a vertex of body `one` placed from its name, working frame) lies inside the other
   body's planes up to the touch band. The construction names a vertex by the planes it found
   tight; about a needle or a sliver thinner than its resolution (~sqrt(eps) of the extent) it
   can name a body vertex that another plane cuts off, and placing the vertex there turns the
   sliver's faces inside out (an area of -16099 for +157610 on a needle 0.1 wide and 2.5e6
   long): such a name is not trusted. */
CT__PRIVATE int ct__vc_inside_other(const ct__polar *p, int one, ct_vec3 w) {
    int j, lo = one ? 0 : p->na, hi = one ? p->na : p->m;
    for (j = lo; j < hi; ++j)
        if (!(ct__dot(p->pl[j].n, w) + p->pl[j].d <= p->touch)) return 0;
    return 1;
}

/* Key order of two vertex names (3 ints each). */
CT__INLINE int ct__vc_key_less(const int *x, const int *y) {
    return x[0] != y[0] ? x[0] < y[0] : x[1] != y[1] ? x[1] < y[1] : x[2] < y[2];
}

/* Rewrites the overlap p (state OVERLAP, vertices relative to p->c) in the canonical form above;
   p->vkey gets each vertex's name for the warm cache: (-1, body, vertex) on one body, the sorted
   triple on three planes, -2 first when not canonical. Copies of one body vertex (the dual hull
   can list a vertex of degree > 3 once per triple of its faces, joined by edges of zero length)
   become one vertex. Returns 1 when every vertex is canonical, 0 otherwise (p rewritten all the
   same), -1 when p was left as it is (a plane carrying two faces, a vertex on no face, a face
   left with fewer than 3 vertices); *st CT_NO_MEMORY on failure. */
CT__PRIVATE int ct__vc_canon(ct_scratch *s, ct__polar *p, const ct_hull *a, const ct_hull *b, const ct_xform *rel,
                             ct_status *st) {
    int nv = p->nv, nf = p->nf, m = p->m, nhe = p->face_first[p->nf], k, f, j, t, cnt = 0, all = 1;
    /* per vertex: its degree, its three least planes and its greatest one (all that naming needs) */
    int *deg = CT__SALLOC(s, int, nv), *low = CT__SALLOC(s, int, 3 * nv), *high = CT__SALLOC(s, int, nv);
    int *key = CT__SALLOC(s, int, 3 * nv), *fmap = CT__SALLOC(s, int, m), *ident = CT__SALLOC(s, int, nv);
    int *bmap = CT__SALLOC(s, int, a->nverts + b->nverts), *newid = CT__SALLOC(s, int, nv);
    int *order = CT__SALLOC(s, int, nv), *nfirst = CT__SALLOC(s, int, nf + 1), *nverts = CT__SALLOC(s, int, nhe);
    int *nplane = CT__SALLOC(s, int, nf), *nkey = CT__SALLOC(s, int, 3 * nv);
    ct_vec3 *w = CT__SALLOC(s, ct_vec3, nv), *nvtx = CT__SALLOC(s, ct_vec3, nv);
    ct_real agree = CT__VC_CANON_AGREE * (p->touch / CT__POLAR_TOUCH);
    *st = CT_OK;
    if (!deg || !low || !high || !key || !fmap || !ident || !bmap || !newid || !order || !nfirst || !nverts ||
        !nplane || !nkey || !w || !nvtx) {
        *st = CT_NO_MEMORY;
        return -1;
    }
    for (j = 0; j < m; ++j) fmap[j] = -1;
    for (f = 0; f < nf; ++f) {
        int q = p->face_plane[f];
        if (q < 0 || q >= m || fmap[q] >= 0) return -1;
        fmap[q] = f;
    }
    for (k = 0; k < a->nverts + b->nverts; ++k) bmap[k] = -1;
    for (k = 0; k < nv; ++k) {
        deg[k] = 0;
        high[k] = -1;
        low[3 * k] = low[3 * k + 1] = low[3 * k + 2] = m;
        newid[k] = -1;
    }
    for (f = 0; f < nf; ++f) {
        int q = p->face_plane[f];
        for (k = p->face_first[f]; k < p->face_first[f + 1]; ++k) {
            int u = p->face_verts[k], *l = low + 3 * u;
            deg[u]++;
            high[u] = q > high[u] ? q : high[u];
            if (q < l[2]) {   /* insert into the three least */
                if (q < l[1]) {
                    l[2] = l[1];
                    if (q < l[0]) { l[1] = l[0]; l[0] = q; }
                    else l[1] = q;
                } else l[2] = q;
            }
        }
    }
    for (k = 0; k < nv; ++k) {
        const int *l = low + 3 * k;
        int d = deg[k], one = -1;
        if (d == 0) return -1;
        key[3 * k] = -2;
        ident[k] = k;
        if (d >= 3 && l[0] >= p->na) one = 1;        /* planes of B only */
        else if (d >= 3 && high[k] < p->na) one = 0; /* planes of A only */
        if (one >= 0) {   /* a vertex of one body */
            int off = one ? p->na : 0;
            const ct_hull *h = one ? b : a;
            int q = ct__vc_common_vertex(h, l[0] - off, l[1] - off, l[2] - off);
            if (q >= 0) {
                w[k] = ct__vc_at_vertex(p, h, one, q, rel);
                if (ct__vc_inside_other(p, one, w[k])) { key[3 * k] = -1; key[3 * k + 1] = one; key[3 * k + 2] = q; }
            }
        } else if (d == 3 && ct__vc_at_planes(p, l[0], l[1], l[2], &w[k])) {   /* three planes of both bodies */
            key[3 * k] = l[0]; key[3 * k + 1] = l[1]; key[3 * k + 2] = l[2];
        }
        /* a name whose placement strays from the polar construction's (a needle's or sliver's
           planes can miss its vertices, an ill-conditioned triple slides along its line) is
           not trusted: the construction's placement stays, and the overlap is not canonical */
        if (key[3 * k] != -2 && !(ct__len2(ct__sub(w[k], ct__add(p->v[k], p->c))) <= agree * agree)) key[3 * k] = -2;
        if (key[3 * k] == -1) {   /* copies of a body vertex, each where its name puts it, are one vertex */
            int *slot = &bmap[(key[3 * k + 1] ? a->nverts : 0) + key[3 * k + 2]];
            if (*slot < 0) *slot = k;
            ident[k] = *slot;
        } else if (key[3 * k] == -2) {   /* where the polar construction put it */
            w[k] = ct__add(p->v[k], p->c);
            key[3 * k + 1] = l[0]; key[3 * k + 2] = d > 1 ? l[1] : -2;
            all = 0;
        }
    }
    /* faces in plane order, each from its least vertex (copies of it give the same cycle once
       the repeats are dropped); vertices numbered by first appearance */
    nfirst[0] = 0;
    for (j = 0, f = 0, t = 0; j < m; ++j) {
        int g = fmap[j], b0, e0, start, i, t0 = t;
        if (g < 0) continue;
        b0 = p->face_first[g];
        e0 = p->face_first[g + 1];
        start = b0;
        for (i = b0 + 1; i < e0; ++i)
            if (ct__vc_key_less(key + 3 * p->face_verts[i], key + 3 * p->face_verts[start])) start = i;
        for (i = 0; i < e0 - b0; ++i) {
            int u = ident[p->face_verts[start + i < e0 ? start + i : start + i - (e0 - b0)]];
            if (newid[u] < 0) { newid[u] = cnt; order[cnt++] = u; }
            if (t == t0 || nverts[t - 1] != newid[u]) nverts[t++] = newid[u];
        }
        if (t - t0 > 1 && nverts[t - 1] == nverts[t0]) --t;
        if (t - t0 < 3) return -1;
        nplane[f] = j;
        nfirst[++f] = t;
    }
    for (k = 0; k < cnt; ++k) {
        nvtx[k] = w[order[k]];
        nkey[3 * k] = key[3 * order[k]]; nkey[3 * k + 1] = key[3 * order[k] + 1]; nkey[3 * k + 2] = key[3 * order[k] + 2];
    }
    ct__vc_centre(p, nvtx, cnt);
    p->face_first = nfirst;
    p->face_verts = nverts;
    p->face_plane = nplane;
    p->face_twin = NULL;
    p->vkey = nkey;
#ifdef CT_CANON_DEBUG
    CT_CANON_DEBUG(p);
#endif
    return all;
}

/* ct__polar_run, an overlap then put in its canonical form: the cold path of ct_contact_hulls
   and of the warm start (detail/pfc.h). */
CT__PRIVATE ct_status ct__vc_polar_canonical(ct_scratch *s, const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                             const ct_xform *xb, ct__polar *p) {
    ct_status st = ct__polar_run(s, a, xa, b, xb, 1, p);
    if (st == CT_OK && p->state == CT__POLAR_OVERLAP) {
        ct_xform rel = ct__xf_rel(xa, xb);
        ct__vc_canon(s, p, a, b, &rel, &st);
    }
    return st;
}

/* The contact from a finished ct__polar (ct__polar_run, or the warm start of detail/pfc.h)
   into *out (zeroed by the caller); temporaries from s. */
CT__PRIVATE ct_status ct__vc_from_polar(ct_scratch *s, const ct__polar *p, const ct_hull *a, const ct_xform *xa,
                                        const ct_hull *b, const ct_xform *xb, ct_contact *out) {
    ct_status st = CT_OK;
    ct_contact c;
    ct_xform rel;
    int fa = -1, fb = -1;
    if (p->state == CT__POLAR_DISJOINT) return CT_OK;
    memset(&c, 0, sizeof c);
    rel = ct__xf_rel(xa, xb);
    c.found = 1;
    if (p->state == CT__POLAR_OVERLAP) {
        int code = ct__vc_overlap(p, &c);
        if (code != CT__VC_CHORD) {
            st = ct__vc_epa_gap(s, p, a, xa, b, xb, code, &c);
            if (st != CT_OK) return st;
        }
        c.point = ct__add(c.point, p->c);
        c.centroid = ct__add(c.centroid, p->c);
        fa = ct__vc_nearest(p, 0, p->na, p->face_plane, p->nf, c.point, c.normal, p->touch);
        fb = ct__vc_nearest(p, p->na, p->m, p->face_plane, p->nf, c.point, ct__neg(c.normal), p->touch);
    } else {
        st = ct__vc_touching(s, p, a, b, &rel, &c.point, &c.normal, &c.area);
        if (st != CT_OK) return st;
        c.centroid = c.point;
        c.gap = 0;
        c.volume = 0;
    }
    if (fa < 0) fa = ct__vc_nearest(p, 0, p->na, NULL, 0, c.point, c.normal, CT__VC_FEATURE);
    if (fb < 0) fb = ct__vc_nearest(p, p->na, p->m, NULL, 0, c.point, ct__neg(c.normal), CT__VC_FEATURE);
    /* to world */
    out->found = 1;
    out->point = ct__xf_point(xa, ct__madd(p->origin, c.point, p->scale));
    out->centroid = ct__xf_point(xa, ct__madd(p->origin, c.centroid, p->scale));
    out->normal = ct__xf_dir(xa, c.normal);
    out->gap = c.gap * p->scale;
    out->area = c.area * p->scale * p->scale;
    out->volume = c.volume * p->scale * p->scale * p->scale;
    out->face_a = fa;
    out->face_b = fb < 0 ? -1 : fb - p->na;
    return CT_OK;
}

CTDEF ct_status ct_contact_hulls(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                 const ct_xform *xb, ct_scratch *user, ct_contact *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct__polar p;
    ct_status st;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->face_a = out->face_b = -1;
    if (!ct__polar_args_ok(a, xa, b, xb)) return CT_INVALID;
    s = ct__scratch_begin(user, &local, NULL);
    mk = ct__scratch_mark(s);
    st = ct__vc_polar_canonical(s, a, xa, b, xb, &p);
    if (st == CT_OK) st = ct__vc_from_polar(s, &p, a, xa, b, xb, out);
    if (st != CT_OK) { memset(out, 0, sizeof *out); out->face_a = out->face_b = -1; }
    ct__scratch_end(s, &local, mk);
    return st;
}

/* Solfec's sparsification (dom.c: sparsify_contacts) for the contacts of one pair of bodies:
   c_i is dropped when area_i < minarea, or when area_i < threshold * area_j for some other
   contact j (for threshold <= 1 that is: below threshold times the largest other area), or
   when it lies within mindist of an earlier kept contact. Stable, in place. */
CTDEF int ct_sparsify(ct_contact *c, int n, ct_real threshold, ct_real minarea, ct_real mindist) {
    int i, j, kept = 0, imax = -1;
    ct_real max1 = -CT__MAXR, max2 = -CT__MAXR;
    if (!c || n <= 0) return 0;
    for (i = 0; i < n; ++i) {
        ct_real ar = c[i].area;
        if (ar > max1) { max2 = max1; max1 = ar; imax = i; }
        else if (ar > max2) max2 = ar;
    }
    for (i = 0; i < n; ++i) {
        ct_real ar = c[i].area, other = i == imax ? max2 : max1;
        int drop = ar < minarea || (n > 1 && ar < threshold * other);
        for (j = 0; j < kept && !drop; ++j)
            if (ct__dist(c[j].point, c[i].point) < mindist) drop = 1;
        if (!drop) {
            if (kept != i) c[kept] = c[i];
            ++kept;
        }
    }
    return kept;
}
