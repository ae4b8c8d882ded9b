/* contact.h detail: >>scene - the whole collision step over a scene of bodies.

   State (all from the scene's allocator; the shapes and any transforms the user points at
   stay the user's):
     - one block of per-body arrays (the bodies, and the step's transforms, boxes and flags),
       grown geometrically by ct_scene_add;
     - the pair records, each holding the pair's caches (ct_sat_cache, ct_gjk_cache,
       Perram-Wertheim lambda) and this step's result, in a pool that keeps them in place from
       step to step (free slots reused), and the pair table: (a, b, record, and the pair's
       flags, status and gap: whether it touched at the last step) sorted by (a, b). Two
       buffers: a broad phase merges the old table with the new sorted pair list into the
       other buffer (pairs found in both keep their record; only the small entries are
       copied), so a step that fails leaves the committed
       table as it was (its entries are marked to be recomputed, the slots it took return to
       the pool, the slots of the pairs it dropped are freed only on success);
     - the output arrays (touching pairs, ended pairs) and one ct_scratch per thread.
   After warm-up a step allocates only what its ct_bp (the incremental broad phase) allocates
   inside (the added and removed lists, and arrays that must grow), and only on the steps
   where some body left its fat box (or bodies were added or removed).

   A step: (1) transforms read and checked, tight world boxes computed (parallel over bodies);
   (2) a body whose tight box left its fat box gets a new fat box (tight grown by its margin);
   when that happened to any body, or bodies were added or removed, the scene's ct_bp is
   updated with the fat boxes (ct_bp_update: the pairs of ct_broadphase on them, found again
   only for boxes that left the ct_bp's own, fatter copies) and the filtered pairs are merged
   into the table (only the ct_bp's added and removed pairs when the table holds its last
   pairs: no body added or removed and no failed step since), else the table is reused;
   (3) the narrow phase on every table pair whose tight boxes (grown by the speculative
   distance) overlap, on all threads (dynamic chunks; each result lands in its own record, so
   the order of work does not matter); (4) on success: events and outputs in table order,
   commit of the fat boxes, the touching flags and the table. Removed bodies' slots are reused
   only after the next successful step, so ids never alias within one step's events.

   Temporal coherence (Ericson, Real-Time Collision Detection, 2005, sec. 7.6: "fat" AABBs;
   Bullet's btDbvtBroadphase and Box2D v3 do the same): a body moving inside its fat box
   changes no broad-phase pair. */

#if defined(_OPENMP) && !defined(CT_NO_OPENMP)
#define CT__SC_OMP 1
#else
#define CT__SC_OMP 0
#endif

/* Default fat-box margin: this fraction of the half-diagonal of the body's first tight box.
   0.1 lets a body move 10% of its size (or turn about 6 degrees) before the broad phase must
   run again, while fattening the box pair count by only ~30% on dense scenes. */
#define CT__SCENE_MARGIN ((ct_real)0.1)
/* Volumetric mode: a hull pair goes to ct_contact_hulls_warm (its record keeps the
   ct_contact_cache; the answer is the cold call's, bit for bit) when it overlapped at the last
   step (the cache holds a structure), otherwise only when ct_manifold_hulls, with this
   speculative distance times the coordinates' magnitude (largest |coordinate| of the two tight
   boxes plus their sizes), finds no separating axis. 4096 ulps is 16x the touching band of
   ct_contact_hulls (256 ulps of the same magnitude), so every pair it reports as touching or
   overlapping passes; a separated pair costs a SAT query instead of the polar LP. */
#define CT__SCENE_DEM_BAND ((ct_real)4096 * CT__EPS)
/* The rounding allowance of a cached separating axis re-checked by the scene (ct__sc_axis_gap,
   world frame) against the SAT's own check of it (hull A's frame), x the magnitude of the
   coordinates (|positions| + reaches): each is a few dot products of that magnitude. */
#define CT__SCENE_AXIS_ROUND ((ct_real)256 * CT__EPS)
/* Narrow-phase chunks: pairs per dynamic chunk, a sixteenth of a thread's share between these
   bounds. Large chunks keep each thread on nearby bodies (the visit order is spatial, and each
   core's cache holds the hulls it met last): 512 instead of 32 took 2-9% off the narrow phase
   of a moving 10,000-hull scene on 2 threads (one process, steps alternating the two); costs
   per pair vary by 10x, so a small scene still gets many small chunks. */
#define CT__SCENE_CHUNK 32
#define CT__SCENE_CHUNK_MAX 512
/* The narrow phase prefetches the table entry this many pairs ahead, and what a moved pair's
   call reads of its record (ct__sc_prefetch_pair) CT__SCENE_AHEAD2 ahead (the entry is there
   by then). */
#define CT__SCENE_AHEAD 4
#define CT__SCENE_AHEAD2 2
/* The bodies' Morton order is kept for this many orders of changed tables while no body is
   added or removed (bodies move a little per step; the order only steers the cache, never an
   answer): sorting 10,000 keys was ~0.7 ms of the ~1 ms an order took. */
#define CT__SCENE_REKEY 16
#if defined(__GNUC__) || defined(__clang__)
#define CT__SC_PREFETCH(p) __builtin_prefetch(p)
#define CT__SC_PREFETCH_W(p) __builtin_prefetch(p, 1)
#else
#define CT__SC_PREFETCH(p) ((void)0)
#define CT__SC_PREFETCH_W(p) ((void)0)
#endif
/* The per-body pass fetches the vertices of the hull this many bodies ahead (hulls of up to
   CT__SCENE_PREFETCH_VERTS vertices: a larger one's own scan streams). */
#define CT__SCENE_BODY_AHEAD 2
#define CT__SCENE_PREFETCH_VERTS 64
/* Bodies per static chunk of the per-body pass (large: each body costs the same). */
#define CT__SCENE_BODY_CHUNK 256
/* Table pairs per chunk of the commit (fixed: the output positions do not depend on the
   thread count). */
#define CT__SCENE_COMMIT_CHUNK 4096
/* The commit fetches a touching pair's result this many table entries ahead. */
#define CT__SCENE_COMMIT_AHEAD 8

/* Dispatch kinds of a body (see the table in contact.h). */
enum { CT__SK_HULL = 0, CT__SK_RHULL, CT__SK_SPHERE, CT__SK_ELLIPSOID, CT__SK_OTHER };

typedef struct ct__sbody {
    ct_shape shape;
    ct_xform xf;             /* the stored transform (used when xref is NULL) */
    const ct_xform *xref;    /* the user's transform, read at each step */
    void *user;
    unsigned group, mask;
    ct_real margin;          /* absolute; 0: CT__SCENE_MARGIN x half-diagonal, per new fat box */
    ct_real reach;           /* largest |x| over the body's points x, local frame (a box bound) */
    ct_aabb fat;             /* committed fat box */
    ct_xform prev;           /* the transform of the last successful step */
    int state;               /* 0 free, 1 live, 2 removed (slot freed at the next step) */
    int fresh;               /* added since the last successful step */
    int kind;
} ct__sbody;

typedef struct ct__spair {   /* the bodies are its table entry's */
    int has_lambda;
    ct_real lambda;
    ct_sat_cache sat;
    ct_gjk_cache gjk;
    ct_contact_cache cc;     /* volumetric hull pairs: the structure of A n B (its block stays
                                with the slot, reused by the next pair that takes it) */
    union { ct_manifold m; ct_contact c; } r;   /* this step's result (by the scene's mode) */
} ct__spair;

/* A table entry: the pair, the slot of its record in the pool, and what the culls and the
   commit read of the pair (kept here, not in the ~800-byte record: the narrow phase's culls
   and the commit then walk the table alone, and read a record only for a pair they work on
   or output). A kept pair's entry is copied into the next table with its flags. */
typedef struct ct__sref {
    int a, b, r;
    unsigned char touching;  /* committed: touching at the last successful step */
    unsigned char valid;     /* the record's result, now and status hold the answer for the
                                committed transforms */
    unsigned char now;       /* this step: touching */
    unsigned char status;    /* this step: the narrow-phase status (a ct_status) */
    ct_real gap;             /* not touching: a lower bound of the distance under the committed
                                transforms (<= 0: none known) */
} ct__sref;
/* A body's place in the narrow phase's order (ct__sc_order). */
typedef struct ct__skey { unsigned long long key; int id; } ct__skey;

struct ct_scene {
    ct_allocator alloc;
    ct_scene_desc desc;
    /* per-body block */
    void *block;
    int cap, n;              /* slots allocated, slots used (ids < n) */
    ct__sbody *body;
    ct_xform *cur;           /* this step's transforms */
    ct_aabb *tight, *nfat;   /* this step's tight boxes and fat boxes */
    ct_real *motion;         /* this step: how far any point of the body moved (a bound) */
    ct_aabb *bpbox;          /* live fat boxes, compacted for the broad phase */
    int *bpid;               /* body id of each compacted box */
    ct_bp bp;                /* the incremental broad phase over bpbox */
    ct_pair *fpair;          /* its pairs that pass the filters, as body ids */
    size_t fpaircap;
    int *freelist;
    int nfree;
    unsigned char *leave;    /* per body: CT__SC_LEAVE | CT__SC_MOVED */
    int topo;                /* bodies added or removed since the last successful step */
    int bpsync;              /* the committed table is the filtered pairs of bp's last update
                                (a broad step that succeeded; a failed one clears it): the
                                next broad step merges only bp's added and removed pairs */
    /* pair records (a pool) and the pair table, double-buffered */
    ct__spair *rec;
    size_t reccap, nrec;
    size_t *ccnt, ccntcap;   /* the commit's per-chunk counts (touching, ended, began, first failure) */
    int *rfree, *rdrop, *rnew;   /* free slots; slots the step drops (freed on success), takes */
    size_t rfreecap, nrfree, rdropcap, nrdrop, rnewcap, nrnew;
    ct__sref *tab[2];
    size_t tabcap[2], ntab;
    int cur_tab;
    /* the narrow phase's order of the table (ct__sc_order), made for table buffer order_tab */
    ct__skey *skey;
    int *sfirst, *order;
    size_t skeycap, sfirstcap, ordercap, norder;
    int order_tab;           /* -1: none */
    int nkey, kage;          /* bodies in skey (0: none yet), orders made from it since */
    /* outputs */
    ct_scene_contact *touch, *ended;
    size_t touchcap, endedcap;
    /* per-thread scratches */
    ct_scratch *scr;
    int nscr;
    int stepped;             /* a step has succeeded */
};

#define CT__SC_LEAVE 1        /* the tight box left the fat box */
#define CT__SC_MOVED 2        /* the transform differs (bitwise) from the last step's, or new */

/* ---- helpers -------------------------------------------------------------------------------- */
CT__INLINE int ct__sc_threads(const ct_scene *s) {
#if CT__SC_OMP
    if (omp_in_parallel()) return 1;
    return s->desc.threads > 0 ? s->desc.threads : omp_get_max_threads();
#else
    (void)s;
    return 1;
#endif
}

CT__INLINE int ct__sc_kind(const ct_shape *sh) {
    switch (sh->type) {
    case CT_SHAPE_HULL: return sh->radius > 0 ? CT__SK_RHULL : CT__SK_HULL;
    case CT_SHAPE_SPHERE: return CT__SK_SPHERE;
    case CT_SHAPE_ELLIPSOID: return sh->radius > 0 ? CT__SK_OTHER : CT__SK_ELLIPSOID;
    default: return CT__SK_OTHER;
    }
}

/* Tight world box of a body: the hull's vertices, else the support of the core along the six
   world axes (row k of r is world axis k in the local frame), grown by the rounding radius. */
CT__PRIVATE ct_aabb ct__sc_box(const ct_shape *sh, const ct_xform *x) {
    ct_aabb b;
    ct_real r = sh->radius;
    int k;
    if (sh->type == CT_SHAPE_HULL) {
        b = ct_hull_aabb(sh->ct__hull, x);
    } else {
        ct_real lo[3], hi[3];
        for (k = 0; k < 3; ++k) {
            ct_vec3 d = ct__v3(x->r[k][0], x->r[k][1], x->r[k][2]);
            int id = -1;
            ct_vec3 p = ct__shape_support(sh, d, &id);
            hi[k] = ct__dot(d, p);
            id = -1;
            p = ct__shape_support(sh, ct__neg(d), &id);
            lo[k] = ct__dot(d, p);
        }
        b.lo = ct__add(ct__v3(lo[0], lo[1], lo[2]), x->p);
        b.hi = ct__add(ct__v3(hi[0], hi[1], hi[2]), x->p);
    }
    b.lo = ct__sub(b.lo, ct__v3(r, r, r));
    b.hi = ct__add(b.hi, ct__v3(r, r, r));
    return b;
}

/* A bound on how far any point x (|x| <= reach, local frame) moves from x0 to x1:
   |dp| + |dR x| <= |dp| + ||dR||_F reach. */
CT__INLINE ct_real ct__sc_motion(const ct_xform *x0, const ct_xform *x1, ct_real reach) {
    ct_real f = 0, m;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            ct_real d = x1->r[i][j] - x0->r[i][j];
            f += d * d;
        }
    m = ct__len(ct__sub(x1->p, x0->p)) + ct__sqrt(f) * reach;
    return ct__finite(m) ? m : CT__MAXR;
}

/* The separation of two hulls along the axis in a SAT cache (a face normal of A or B, or the
   cross product of two edges, oriented from A to B): min over B minus max over A, a lower
   bound of their distance (any direction gives one). <= 0 when the cache holds no axis. */
CT__PRIVATE ct_real ct__sc_axis_gap(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb,
                                    const ct_sat_cache *c) {
    ct_vec3 u, ua, ub;
    ct_real hi, lo;
    int i, ok = 1;
    if (c->type == 1 && c->index_a >= 0 && c->index_a < a->nfaces) {
        u = ct__xf_dir(xa, a->planes[c->index_a].n);
    } else if (c->type == 2 && c->index_b >= 0 && c->index_b < b->nfaces) {
        u = ct__neg(ct__xf_dir(xb, b->planes[c->index_b].n));
    } else if (c->type == 3 && c->index_a >= 0 && c->index_a < 2 * a->nedges && c->index_b >= 0 &&
               c->index_b < 2 * b->nedges && a->he_next && b->he_next) {
        ct_vec3 ea = ct__sub(a->verts[a->face_verts[a->he_next[c->index_a]]], a->verts[a->face_verts[c->index_a]]);
        ct_vec3 eb = ct__sub(b->verts[b->face_verts[b->he_next[c->index_b]]], b->verts[b->face_verts[c->index_b]]);
        u = ct__normalize(ct__cross(ct__xf_dir(xa, ea), ct__xf_dir(xb, eb)), &ok);
        if (ct__dot(u, ct__sub(ct__xf_point(xb, b->center), ct__xf_point(xa, a->center))) < 0) u = ct__neg(u);
    } else {
        return -1;
    }
    if (!ok) return -1;
    ua = ct__xf_inv_dir(xa, u);
    ub = ct__xf_inv_dir(xb, u);
    hi = ct__dot(a->verts[0], ua);
    for (i = 1; i < a->nverts; ++i) hi = ct__max(hi, ct__dot(a->verts[i], ua));
    lo = ct__dot(b->verts[0], ub);
    for (i = 1; i < b->nverts; ++i) lo = ct__min(lo, ct__dot(b->verts[i], ub));
    return (lo + ct__dot(u, xb->p)) - (hi + ct__dot(u, xa->p));
}

CT__INLINE int ct__sc_inside(const ct_aabb *in, const ct_aabb *out) {
    return in->lo.x >= out->lo.x && in->lo.y >= out->lo.y && in->lo.z >= out->lo.z &&
           in->hi.x <= out->hi.x && in->hi.y <= out->hi.y && in->hi.z <= out->hi.z;
}

/* Closed boxes overlapping once a is grown by g on every side. */
CT__INLINE int ct__sc_overlap(const ct_aabb *a, const ct_aabb *b, ct_real g) {
    return a->lo.x - g <= b->hi.x && b->lo.x <= a->hi.x + g && a->lo.y - g <= b->hi.y &&
           b->lo.y <= a->hi.y + g && a->lo.z - g <= b->hi.z && b->lo.z <= a->hi.z + g;
}

/* Volumetric mode's touching band for a pair (see CT__SCENE_DEM_BAND). */
CT__INLINE ct_real ct__sc_band(const ct_scene *s, int a, int b) {
    const ct_aabb *ta = &s->tight[a], *tb = &s->tight[b];
    ct_real mag = ct__max(ct__max(ct__maxabs(ta->lo), ct__maxabs(ta->hi)), ct__max(ct__maxabs(tb->lo), ct__maxabs(tb->hi)));
    mag += ct__maxabs(ct__sub(ta->hi, ta->lo)) + ct__maxabs(ct__sub(tb->hi, tb->lo));
    return CT__SCENE_DEM_BAND * mag;
}

/* 1 when the bounding spheres of two hulls (vertex mean and extent, plus the radii) are more
   than g apart: then so are the bodies. */
CT__INLINE int ct__sc_spheres_apart(const ct_scene *s, int a, int b, ct_real g) {
    const ct__sbody *A = &s->body[a], *B = &s->body[b];
    ct_vec3 ca, cb;
    ct_real r;
    if (A->shape.type != CT_SHAPE_HULL || B->shape.type != CT_SHAPE_HULL) return 0;
    ca = ct__xf_point(&s->cur[a], A->shape.ct__hull->center);
    cb = ct__xf_point(&s->cur[b], B->shape.ct__hull->center);
    r = A->shape.ct__hull->extent + B->shape.ct__hull->extent + A->shape.radius + B->shape.radius + g;
    return ct__len2(ct__sub(ca, cb)) > r * r;
}

CT__INLINE int ct__sc_filter(const ct__sbody *a, const ct__sbody *b) {
    return (a->group & b->mask) != 0 && (b->group & a->mask) != 0;
}

/* Grows an array of elements of size sz to at least want (doubling), keeping count old
   elements and zeroing the rest (unless zero is 0: the record pool, whose slots are cleared
   when taken). Nothing changes on failure. */
CT__PRIVATE ct_status ct__sc_grow_z(const ct_allocator *al, void **p, size_t *cap, size_t old, size_t want, size_t sz,
                                    int zero) {
    size_t ncap = *cap ? *cap : 64, bytes;
    void *q;
    if (want <= *cap) return CT_OK;
    while (ncap < want) ncap *= 2;
    bytes = ct__array_bytes((long long)ncap, sz);
    if (bytes == 0) return CT_NO_MEMORY;
    q = ct__alloc(al, bytes);
    if (!q) return CT_NO_MEMORY;
    if (zero) memset(q, 0, bytes);
    if (old) memcpy(q, *p, old * sz);
    ct__free(al, *p);
    *p = q;
    *cap = ncap;
    return CT_OK;
}
CT__INLINE ct_status ct__sc_grow(const ct_allocator *al, void **p, size_t *cap, size_t old, size_t want, size_t sz) {
    return ct__sc_grow_z(al, p, cap, old, want, sz, 1);
}

/* ---- narrow phase of one pair ---------------------------------------------------------------- */
CT__INLINE void ct__sc_manifold_point(ct_manifold *m, ct_vec3 n, ct_vec3 p, ct_real sep, ct_real spec) {
    memset(m, 0, sizeof *m);
    if (!(sep <= spec)) return;
    m->normal = n;
    m->count = 1;
    m->points[0].point = p;
    m->points[0].separation = sep;
}

CT__INLINE void ct__sc_contact_point(ct_contact *c, ct_vec3 n, ct_vec3 p, ct_real gap) {
    memset(c, 0, sizeof *c);
    c->face_a = c->face_b = -1;
    if (!(gap <= 0)) return;
    c->found = 1;
    c->point = c->centroid = p;
    c->normal = n;
    c->gap = gap;
}

CT__PRIVATE void ct__sc_narrow(const ct_scene *s, ct__sref *e, ct__spair *p, ct_scratch *scr) {
    const ct__sbody *A = &s->body[e->a], *B = &s->body[e->b];
    const ct_xform *xa = &s->cur[e->a], *xb = &s->cur[e->b];
    int ka = A->kind, kb = B->kind, dem = s->desc.mode == CT_SCENE_VOLUMETRIC;
    ct_real spec = dem ? 0 : s->desc.speculative;
    ct_status st;
    if (ka == CT__SK_ELLIPSOID && kb == CT__SK_ELLIPSOID) {
        ct_pw pw;
        st = ct_ellipsoids(A->shape.ct__v[0], xa, B->shape.ct__v[0], xb, p->has_lambda ? &p->lambda : NULL, &pw);
        if (st == CT_OK || st == CT_NO_CONVERGENCE) {
            p->lambda = pw.lambda;
            p->has_lambda = 1;
            e->gap = st == CT_OK ? pw.gap : -1; /* a lower bound of the distance when apart */
            if (dem) ct__sc_contact_point(&p->r.c, pw.normal, pw.point, pw.gap);
            else ct__sc_manifold_point(&p->r.m, pw.normal, pw.point, pw.gap, spec);
        }
    } else if (!dem && ka == CT__SK_HULL && kb == CT__SK_HULL) {
        if (!e->touching && p->sat.type != CT_SAT_NONE && ct__sat_hull_ok(A->shape.ct__hull) &&
            ct__sat_hull_ok(B->shape.ct__hull)) {
            /* apart at the last step: the cached axis, when it still separates the hulls by
               more than the speculative distance (and the rounding of either way of computing
               it), is the call's answer: no manifold (the distance exceeds speculative). The
               call would find the same axis first and say so; this costs a fifth of it. */
            ct_real gap = ct__sc_axis_gap(A->shape.ct__hull, xa, B->shape.ct__hull, xb, &p->sat);
            ct_real mag = ct__len(xa->p) + ct__len(xb->p) + A->reach + B->reach;
            if (gap > spec + CT__SCENE_AXIS_ROUND * mag) {
                e->gap = gap;
                e->status = CT_OK;
                e->now = 0;
                return;
            }
        }
        st = ct__manifold_hulls_xf_ok(A->shape.ct__hull, xa, B->shape.ct__hull, xb, spec, &p->sat, &p->r.m);
        e->gap = st == CT_OK && p->r.m.count == 0 ? ct__sc_axis_gap(A->shape.ct__hull, xa, B->shape.ct__hull, xb, &p->sat) : -1;
    } else if (!dem && (ka == CT__SK_HULL || ka == CT__SK_RHULL) && (kb == CT__SK_HULL || kb == CT__SK_RHULL)) {
        st = ct_manifold_rounded_hulls(A->shape.ct__hull, xa, A->shape.radius, B->shape.ct__hull, xb,
                                       B->shape.radius, spec, &p->sat, &p->r.m);
        e->gap = st == CT_OK && p->r.m.count == 0
                     ? ct__sc_axis_gap(A->shape.ct__hull, xa, B->shape.ct__hull, xb, &p->sat) - A->shape.radius - B->shape.radius
                     : -1;
    } else if (!dem && ka == CT__SK_HULL && kb == CT__SK_SPHERE) {
        st = ct_manifold_hull_sphere(A->shape.ct__hull, xa, xb->p, B->shape.radius, spec, &p->r.m);
        e->gap = -1;
    } else if (!dem && ka == CT__SK_SPHERE && kb == CT__SK_HULL) {
        /* B against A, then the normal turned to point from A to B (ids are symmetric) */
        st = ct_manifold_hull_sphere(B->shape.ct__hull, xb, xa->p, A->shape.radius, spec, &p->r.m);
        e->gap = -1;
        p->r.m.normal = ct__neg(p->r.m.normal);
    } else if (dem && ka == CT__SK_HULL && kb == CT__SK_HULL) {
        /* a pair whose cache holds A n B's structure overlapped at the last step: the SAT would
           let it through again, so the warm start goes first (a structure that still holds is
           the answer, a miss a cold call); otherwise the SAT rejects separated pairs first */
        int near = p->cc.count > 0;
        st = CT_OK;
        e->gap = -1;
        if (!near) {
            st = ct__manifold_hulls_xf_ok(A->shape.ct__hull, xa, B->shape.ct__hull, xb, ct__sc_band(s, e->a, e->b), &p->sat, &p->r.m);
            near = st == CT_OK && p->r.m.count > 0;
            if (st == CT_OK && !near) { /* separated beyond the touching band */
                e->gap = ct__sc_axis_gap(A->shape.ct__hull, xa, B->shape.ct__hull, xb, &p->sat);
                ct__sc_contact_point(&p->r.c, ct__v3(0, 0, 0), ct__v3(0, 0, 0), 1);
            }
        }
        if (near) st = ct_contact_hulls_warm(A->shape.ct__hull, xa, B->shape.ct__hull, xb, &p->cc, scr, &p->r.c);
        if (st == CT_OK && p->r.c.found && ct_sparsify(&p->r.c, 1, 0, s->desc.minarea, 0) == 0) p->r.c.found = 0;
    } else {
        ct_distance d;
        st = ct_signed_distance(&A->shape, xa, &B->shape, xb, &p->gjk, scr, &d);
        e->gap = st == CT_OK ? d.distance : -1;
        if (st == CT_OK || st == CT_NO_CONVERGENCE) {
            ct_vec3 mid = ct__scale(ct__add(d.pa, d.pb), (ct_real)0.5);
            if (dem) ct__sc_contact_point(&p->r.c, d.normal, mid, d.distance);
            else ct__sc_manifold_point(&p->r.m, d.normal, mid, d.distance, spec);
        }
    }
    e->status = (unsigned char)st;
    e->now = (st == CT_OK || st == CT_NO_CONVERGENCE) && (dem ? p->r.c.found != 0 : p->r.m.count > 0);
}

/* ---- public ----------------------------------------------------------------------------------- */
CTDEF ct_status ct_scene_create(const ct_scene_desc *desc, const ct_allocator *a, ct_scene **out) {
    ct_allocator al = ct__allocator(a);
    ct_scene *s;
    if (!out) return CT_INVALID;
    *out = NULL;
    if (desc && (desc->mode != CT_SCENE_MANIFOLD && desc->mode != CT_SCENE_VOLUMETRIC)) return CT_INVALID;
    if (desc && (!ct__finite(desc->speculative) || desc->speculative < 0 || !ct__finite(desc->minarea) ||
                 desc->minarea < 0 || desc->threads < 0))
        return CT_INVALID;
    s = (ct_scene *)ct__alloc(&al, sizeof *s);
    if (!s) return CT_NO_MEMORY;
    memset(s, 0, sizeof *s);
    s->alloc = al;
    s->order_tab = -1;
    if (desc) s->desc = *desc;
    (void)ct_bp_init(&s->bp, 0, &s->alloc);   /* the default margin: cannot fail */
    *out = s;
    return CT_OK;
}

CTDEF void ct_scene_destroy(ct_scene *s) {
    ct_allocator al;
    size_t r;
    int t;
    if (!s) return;
    al = s->alloc;
    for (t = 0; t < s->nscr; ++t) ct_scratch_release(&s->scr[t]);
    for (r = 0; r < s->nrec; ++r) ct_contact_cache_free(&s->rec[r].cc);
    ct__free(&al, s->scr);
    ct__free(&al, s->block);
    ct__free(&al, s->tab[0]);
    ct__free(&al, s->tab[1]);
    ct__free(&al, s->rec);
    ct__free(&al, s->rfree);
    ct__free(&al, s->rdrop);
    ct__free(&al, s->rnew);
    ct__free(&al, s->skey);
    ct__free(&al, s->sfirst);
    ct__free(&al, s->order);
    ct__free(&al, s->touch);
    ct__free(&al, s->ended);
    ct_bp_free(&s->bp);
    ct__free(&al, s->fpair);
    ct__free(&al, s->ccnt);
    ct__free(&al, s);
}

/* Per-body arrays for cap slots in one block; the old contents are copied. */
CT__PRIVATE ct_status ct__sc_reserve(ct_scene *s, int want) {
    size_t sz[9], off[10];
    unsigned char *blk;
    int cap = s->cap ? s->cap : 16, k;
    if (want <= s->cap) return CT_OK;
    while (cap < want) {
        if (cap > (1 << 29)) return CT_NO_MEMORY;
        cap *= 2;
    }
    sz[0] = ct__array_bytes(cap, sizeof(ct__sbody));
    sz[1] = ct__array_bytes(cap, sizeof(ct_xform));
    sz[2] = ct__array_bytes(cap, sizeof(ct_aabb));
    sz[3] = sz[2];
    sz[4] = sz[2];
    sz[5] = ct__array_bytes(cap, sizeof(int));
    sz[6] = sz[5];
    sz[7] = ct__array_bytes(cap, 1);
    sz[8] = ct__array_bytes(cap, sizeof(ct_real));
    off[0] = 0;
    for (k = 0; k < 9; ++k) {
        if (sz[k] == 0 || off[k] > (size_t)-1 - sz[k]) return CT_NO_MEMORY;
        off[k + 1] = off[k] + sz[k];
    }
    blk = (unsigned char *)ct__alloc(&s->alloc, off[9]);
    if (!blk) return CT_NO_MEMORY;
    memset(blk, 0, off[9]);
    if (s->n) memcpy(blk, s->body, (size_t)s->n * sizeof(ct__sbody));
    if (s->nfree) memcpy(blk + off[6], s->freelist, (size_t)s->nfree * sizeof(int));
    ct__free(&s->alloc, s->block);
    s->block = blk;
    s->body = (ct__sbody *)blk;
    s->cur = (ct_xform *)(blk + off[1]);
    s->tight = (ct_aabb *)(blk + off[2]);
    s->nfat = (ct_aabb *)(blk + off[3]);
    s->bpbox = (ct_aabb *)(blk + off[4]);
    s->bpid = (int *)(blk + off[5]);
    s->freelist = (int *)(blk + off[6]);
    s->leave = blk + off[7];
    s->motion = (ct_real *)(blk + off[8]);
    s->cap = cap;
    return CT_OK;
}

CTDEF ct_status ct_scene_add(ct_scene *s, const ct_body_desc *d, int *id) {
    ct__sbody *b;
    int k;
    ct_status st;
    if (id) *id = -1;
    if (!s || !d || !id) return CT_INVALID;
    if (!ct__shape_valid(&d->shape) || !ct__finite(d->margin) || d->margin < 0) return CT_INVALID;
    if (!d->xform_ref && !ct__xf_valid(&d->xform)) return CT_INVALID;
    if (d->xform_ref && !ct__xf_valid(d->xform_ref)) return CT_INVALID;
    if (s->nfree > 0) {
        k = s->freelist[--s->nfree];
    } else {
        if (s->n == 0x7fffffff) return CT_NO_MEMORY;
        st = ct__sc_reserve(s, s->n + 1);
        if (st != CT_OK) return st;
        k = s->n++;
    }
    b = &s->body[k];
    memset(b, 0, sizeof *b);
    b->shape = d->shape;
    b->xf = d->xform_ref ? *d->xform_ref : d->xform;
    b->xref = d->xform_ref;
    b->user = d->user;
    b->group = d->group || d->mask ? d->group : 1u;
    b->mask = d->group || d->mask ? d->mask : ~0u;
    b->margin = d->margin;
    b->state = 1;
    b->fresh = 1;
    b->kind = ct__sc_kind(&d->shape);
    {
        ct_xform id0 = ct__xf_identity();
        ct_aabb lb = ct__sc_box(&d->shape, &id0);
        b->reach = ct__len(ct__vmax(ct__v3(ct__abs(lb.lo.x), ct__abs(lb.lo.y), ct__abs(lb.lo.z)),
                                    ct__v3(ct__abs(lb.hi.x), ct__abs(lb.hi.y), ct__abs(lb.hi.z))));
        if (!ct__finite(b->reach)) b->reach = CT__MAXR;
    }
    s->topo = 1;
    *id = k;
    return CT_OK;
}

CT__INLINE int ct__sc_live(const ct_scene *s, int id) {
    return s && id >= 0 && id < s->n && s->body[id].state == 1;
}

CTDEF ct_status ct_scene_remove(ct_scene *s, int id) {
    if (!ct__sc_live(s, id)) return CT_INVALID;
    s->body[id].state = 2;
    s->topo = 1;
    return CT_OK;
}

CTDEF ct_status ct_scene_set_xform(ct_scene *s, int id, const ct_xform *x) {
    if (!ct__sc_live(s, id) || !x || !ct__xf_valid(x)) return CT_INVALID;
    s->body[id].xf = *x;
    s->body[id].xref = NULL;
    return CT_OK;
}

CTDEF void *ct_scene_user(const ct_scene *s, int id) {
    return ct__sc_live(s, id) ? s->body[id].user : NULL;
}

/* The vertices of a hull body, fetched ahead of its tight box: the hulls' blocks are apart in
   memory and mostly out of cache by the next step. */
CT__ALWAYS void ct__sc_prefetch_verts(const ct__sbody *b) {
    const ct_hull *h = b->shape.ct__hull;
    const char *p, *end;
    if (b->state != 1 || b->shape.type != CT_SHAPE_HULL || !h || h->nverts > CT__SCENE_PREFETCH_VERTS) return;
    p = (const char *)h->verts;
    for (end = p + (size_t)h->nverts * sizeof(ct_vec3); p < end; p += 64) CT__SC_PREFETCH(p);
}
/* Step 1: transforms and tight boxes; returns CT_INVALID when some live body's transform or
   box is not finite/rigid. Fills cur, tight, nfat, leave; sets *any when a box was left. */
CT__PRIVATE ct_status ct__sc_bodies(ct_scene *s, int T, int *any) {
    int n = s->n, i, bad = 0, left = 0;
    (void)T;
#if CT__SC_OMP
#pragma omp parallel for schedule(static, CT__SCENE_BODY_CHUNK) num_threads(T) if (T > 1 && n > 2048) \
    reduction(| : bad) reduction(| : left)
#endif
    for (i = 0; i < n; ++i) {
        const ct__sbody *b = &s->body[i];
        ct_aabb t;
        if (i + CT__SCENE_BODY_AHEAD < n) ct__sc_prefetch_verts(&s->body[i + CT__SCENE_BODY_AHEAD]);
        s->leave[i] = 0;
        if (b->state != 1) continue;
        s->cur[i] = b->xref ? *b->xref : b->xf;
        if (!ct__xf_valid(&s->cur[i])) { bad = 1; continue; }
        t = ct__sc_box(&b->shape, &s->cur[i]);
        if (!ct__finite3(t.lo) || !ct__finite3(t.hi)) { bad = 1; continue; }
        s->tight[i] = t;
        s->motion[i] = 0;
        if (b->fresh || memcmp(&s->cur[i], &b->prev, sizeof b->prev) != 0) {
            s->leave[i] = CT__SC_MOVED;
            s->motion[i] = b->fresh ? CT__MAXR : ct__sc_motion(&b->prev, &s->cur[i], b->reach);
        }
        if (b->fresh || !ct__sc_inside(&t, &b->fat)) {
            ct_real m = b->margin;
            if (m == 0) m = CT__SCENE_MARGIN * (ct_real)0.5 * ct__len(ct__sub(t.hi, t.lo));
            s->nfat[i].lo = ct__sub(t.lo, ct__v3(m, m, m));
            s->nfat[i].hi = ct__add(t.hi, ct__v3(m, m, m));
            s->leave[i] |= CT__SC_LEAVE;
            left = 1;
        } else {
            s->nfat[i] = b->fat;
        }
    }
    *any = left;
    return bad ? CT_INVALID : CT_OK;
}

/* The result of a pair that was not computed: zero (a disjoint ct_contact has faces -1). */
CT__INLINE void ct__sc_end_zero(const ct_scene *s, ct_scene_contact *c) {
    if (s->desc.mode == CT_SCENE_VOLUMETRIC) c->contact.face_a = c->contact.face_b = -1;
}

/* An END event for a pair that was touching: its ids, the result zeroed. */
CT__INLINE void ct__sc_push_end(const ct_scene *s, const ct__sref *p, ct_scene_contact *c) {
    memset(c, 0, sizeof *c);
    c->a = p->a;
    c->b = p->b;
    c->event = CT_SCENE_END;
    ct__sc_end_zero(s, c);
}

/* A new pair's entry, its record a zeroed slot of the pool (a free one first). The pool and
   the step's lists have room (grown by the caller). */
CT__PRIVATE void ct__sc_take(ct_scene *s, ct__sref *e, int a, int b) {
    int reuse = s->nrfree > 0, r = reuse ? s->rfree[--s->nrfree] : (int)s->nrec++;
    ct_contact_cache cc;
    if (reuse) cc = s->rec[r].cc;   /* a slot below nrec was taken before: its block is kept */
    else ct_contact_cache_init(&cc, &s->alloc);
    cc.count = 0;
    memset(&s->rec[r], 0, sizeof s->rec[r]);
    s->rec[r].cc = cc;
    s->rnew[s->nrnew++] = r;
    memset(e, 0, sizeof *e);
    e->a = a;
    e->b = b;
    e->r = r;
}

/* Room for a merge into the other table buffer: entries new table entries, of which at most
   fresh new pairs (records from the pool), and the ended and dropped lists of the old table. */
CT__PRIVATE ct_status ct__sc_merge_room(ct_scene *s, size_t entries, size_t fresh) {
    size_t nold = s->ntab, need = s->nrec + (fresh > s->nrfree ? fresh - s->nrfree : 0);
    int nb = 1 - s->cur_tab;
    ct_status st = ct__sc_grow(&s->alloc, (void **)&s->tab[nb], &s->tabcap[nb], 0, entries, sizeof(ct__sref));
    if (st == CT_OK) st = ct__sc_grow(&s->alloc, (void **)&s->ended, &s->endedcap, 0, nold, sizeof(ct_scene_contact));
    if (st == CT_OK) st = ct__sc_grow_z(&s->alloc, (void **)&s->rec, &s->reccap, s->nrec, need, sizeof(ct__spair), 0);
    if (st == CT_OK) st = ct__sc_grow(&s->alloc, (void **)&s->rfree, &s->rfreecap, s->nrfree, need, sizeof(int));
    if (st == CT_OK) st = ct__sc_grow(&s->alloc, (void **)&s->rdrop, &s->rdropcap, 0, nold, sizeof(int));
    if (st == CT_OK) st = ct__sc_grow(&s->alloc, (void **)&s->rnew, &s->rnewcap, 0, fresh, sizeof(int));
    return st;
}

/* The first entry of t[i..n) not below (a, b) in (a, b) order (n when none): galloping, as
   the pairs that change are few and spread over the table. */
CT__INLINE int ct__sc_below(const ct__sref *e, int a, int b) { return e->a < a || (e->a == a && e->b < b); }
CT__PRIVATE size_t ct__sc_seek(const ct__sref *t, size_t i, size_t n, int a, int b) {
    size_t lo = i, hi, step = 1;
    if (lo >= n || !ct__sc_below(&t[lo], a, b)) return lo;
    /* t[lo] is below: find hi with t[hi] not below (or n), then bisect */
    for (;;) {
        hi = lo + step;
        if (hi >= n) { hi = n; break; }
        if (!ct__sc_below(&t[hi], a, b)) break;
        lo = hi;
        step *= 2;
    }
    while (hi - lo > 1) {   /* t[lo] below, t[hi] not (or hi == n) */
        size_t mid = lo + (hi - lo) / 2;
        if (ct__sc_below(&t[mid], a, b)) lo = mid;
        else hi = mid;
    }
    return hi;
}

/* ct__sc_broad when the committed table is the filtered pairs of bp's last update (bpsync,
   the same bodies): the new table is the old one without bp's removed pairs and with its
   added pairs that pass the filter, the runs between them copied whole. The same table,
   records, slots and ended list as the full merge: the pairs it drops and takes are the same,
   met in the same (a, b) order. */
CT__PRIVATE ct_status ct__sc_broad_diff(ct_scene *s, int open, size_t *nnew, size_t *nended) {
    const ct_pair *ad = s->bp.added.items, *rm = s->bp.removed.items;
    const ct__sref *old = s->tab[s->cur_tab];
    size_t nold = s->ntab, na = s->bp.added.count, nr = s->bp.removed.count, ia = 0, ir = 0, i = 0, j, k = 0, e = 0;
    int nb = 1 - s->cur_tab;
    ct__sref *nw;
    ct_status st = ct__sc_merge_room(s, nold + na, na);
    if (st != CT_OK) return st;
    nw = s->tab[nb];
    s->nrdrop = s->nrnew = 0;
    while (ia < na || ir < nr) {
        /* the next change in (a, b) order (a pair is never both added and removed) */
        int add = ir >= nr || (ia < na && (ad[ia].a < rm[ir].a || (ad[ia].a == rm[ir].a && ad[ia].b < rm[ir].b)));
        const ct_pair *q = add ? &ad[ia++] : &rm[ir++];
        int a = s->bpid[q->a], b = s->bpid[q->b];
        j = ct__sc_seek(old, i, nold, a, b);
        if (j > i) memcpy(nw + k, old + i, (j - i) * sizeof *nw);
        k += j - i;
        i = j;
        if (add) {
            if (open || ct__sc_filter(&s->body[a], &s->body[b])) ct__sc_take(s, &nw[k++], a, b);
        } else if (i < nold && old[i].a == a && old[i].b == b) {   /* else filtered out */
            if (old[i].touching) ct__sc_push_end(s, &old[i], &s->ended[e++]);
            s->rdrop[s->nrdrop++] = old[i++].r;
        }
    }
    if (nold > i) memcpy(nw + k, old + i, (nold - i) * sizeof *nw);
    *nnew = k + (nold - i);
    *nended = e;
    return CT_OK;
}

/* Step 2: broad phase over the live fat boxes, filtered, merged with the committed table into
   the other buffer (pairs in both keep their record, new pairs take a zeroed slot of the pool).
   Old touching pairs that are gone are written to the ended output (their result zeroed). */
CT__PRIVATE ct_status ct__sc_broad(ct_scene *s, size_t *nnew, size_t *nended) {
    const ct_pairs *pairs = &s->bp.pairs;
    const ct_pair *fp;
    const ct__sref *old = s->tab[s->cur_tab];
    ct__sref *nw;
    size_t nold = s->ntab, i = 0, j = 0, k = 0, m = 0, e = 0, fresh = 0;
    int nlive = 0, id, nb = 1 - s->cur_tab, open = 1, inc = s->bpsync && !s->topo;
    ct_status st;
    s->bpsync = 0;   /* until the step succeeds */
    for (id = 0; id < s->n; ++id)
        if (s->body[id].state == 1) {
            s->bpbox[nlive] = s->nfat[id];
            s->bpid[nlive++] = id;
            open &= s->body[id].mask == ~0u && s->body[id].group != 0;
        }
    /* the pairs of ct_broadphase on these boxes, found incrementally: the boxes that stayed
       inside ct_bp's own fat copies keep their candidates (moved NULL: ct_bp compares every box,
       as a failed step may leave boxes it saw that no flag marks) */
    st = ct_bp_update(&s->bp, s->bpbox, nlive, NULL, 0);
    if (st == CT_OK && inc) return ct__sc_broad_diff(s, open, nnew, nended);
    if (st == CT_OK) st = ct__sc_grow(&s->alloc, (void **)&s->fpair, &s->fpaircap, 0, pairs->count, sizeof(ct_pair));
    if (st != CT_OK) return st;
    /* filter, mapping compact indices to ids (monotone: the order stays (a, b)), and count the
       pairs the committed table does not hold; when every body takes every group (open: the
       default filter), no pair is filtered and the bodies are not read */
    for (i = 0, j = 0; j < pairs->count; ++j) {
        int a = s->bpid[pairs->items[j].a], b = s->bpid[pairs->items[j].b];
        if (!open && !ct__sc_filter(&s->body[a], &s->body[b])) continue;
        s->fpair[m].a = a;
        s->fpair[m++].b = b;
        while (i < nold && (old[i].a < a || (old[i].a == a && old[i].b < b))) ++i;
        fresh += !(i < nold && old[i].a == a && old[i].b == b);
    }
    st = ct__sc_merge_room(s, m, fresh);
    if (st != CT_OK) return st;
    nw = s->tab[nb];
    fp = s->fpair;
    s->nrdrop = s->nrnew = 0;
    for (i = 0, j = 0; j < m; ++j) {
        const ct_pair *q = &fp[j];
        while (i < nold && (old[i].a < q->a || (old[i].a == q->a && old[i].b < q->b))) {
            if (old[i].touching) /* gone from the broad phase (or a body removed) */
                ct__sc_push_end(s, &old[i], &s->ended[e++]);
            s->rdrop[s->nrdrop++] = old[i++].r;
        }
        if (i < nold && old[i].a == q->a && old[i].b == q->b) nw[k] = old[i++];
        else ct__sc_take(s, &nw[k], q->a, q->b);
        ++k;
    }
    for (; i < nold; ++i) {
        if (old[i].touching) ct__sc_push_end(s, &old[i], &s->ended[e++]);
        s->rdrop[s->nrdrop++] = old[i].r;
    }
    *nnew = k;
    *nended = e;
    return CT_OK;
}

/* Morton key: 21 bits of each coordinate interleaved (x lowest). */
CT__INLINE unsigned long long ct__sc_spread(unsigned long long x) {
    x &= 0x1fffffULL;
    x = (x | x << 32) & 0x1f00000000ffffULL;
    x = (x | x << 16) & 0x1f0000ff0000ffULL;
    x = (x | x << 8) & 0x100f00f00f00f00fULL;
    x = (x | x << 4) & 0x10c30c30c30c30c3ULL;
    x = (x | x << 2) & 0x1249249249249249ULL;
    return x;
}
CT__INLINE unsigned long long ct__sc_cell(ct_real v, ct_real lo, ct_real ext) {
    ct_real t = ext > 0 ? (v - lo) / ext * (ct_real)2097151 : 0;
    return t > 0 ? (unsigned long long)ct__min(t, (ct_real)2097151) : 0;
}
CT__INLINE int ct__sc_key_less(const ct__skey *a, const ct__skey *b) {
    return a->key < b->key || (a->key == b->key && a->id < b->id);
}
CT__DEFINE_SORT(ct__sc_sort_keys, ct__skey, ct__sc_key_less)

/* The order in which the narrow phase visits table buffer nb (ntab pairs sorted by (a, b)):
   the pairs grouped by their first body, the bodies in the Morton order of their tight boxes'
   centres, so that consecutive pairs meet nearby bodies whose hulls are still in cache (10%
   of a step on the 10,000-hull scene). Each record is worked on alone, so the order changes
   the time, never a result. Made when the table changes (the bodies re-sorted only after
   bodies were added or removed, or every CT__SCENE_REKEY orders); allocates only when it
   grows. */
CT__PRIVATE ct_status ct__sc_order(ct_scene *s, int nb, size_t ntab) {
    const ct__sref *tab = s->tab[nb];
    size_t i, k = 0;
    int id;
    ct_status st;
    s->order_tab = -1;
    st = ct__sc_grow(&s->alloc, (void **)&s->skey, &s->skeycap, (size_t)s->nkey, (size_t)s->n + 1, sizeof(ct__skey));
    if (st == CT_OK) st = ct__sc_grow(&s->alloc, (void **)&s->sfirst, &s->sfirstcap, 0, (size_t)s->n + 1, sizeof(int));
    if (st == CT_OK) st = ct__sc_grow(&s->alloc, (void **)&s->order, &s->ordercap, 0, ntab + 1, sizeof(int));
    if (st != CT_OK) return st;
    if (s->topo || s->nkey == 0 || s->kage >= CT__SCENE_REKEY) {   /* the bodies' Morton keys, sorted */
        ct_vec3 lo = ct__v3(CT__MAXR, CT__MAXR, CT__MAXR), hi = ct__neg(lo);
        int nk = 0;
        for (id = 0; id < s->n; ++id)
            if (s->body[id].state == 1) {
                ct_vec3 c = ct__scale(ct__add(s->tight[id].lo, s->tight[id].hi), (ct_real)0.5);
                lo = ct__vmin(lo, c);
                hi = ct__vmax(hi, c);
            }
        for (id = 0; id < s->n; ++id)
            if (s->body[id].state == 1) {
                ct_vec3 c = ct__scale(ct__add(s->tight[id].lo, s->tight[id].hi), (ct_real)0.5);
                s->skey[nk].key = ct__sc_spread(ct__sc_cell(c.x, lo.x, hi.x - lo.x)) |
                                  ct__sc_spread(ct__sc_cell(c.y, lo.y, hi.y - lo.y)) << 1 |
                                  ct__sc_spread(ct__sc_cell(c.z, lo.z, hi.z - lo.z)) << 2;
                s->skey[nk++].id = id;
            }
        ct__sc_sort_keys(s->skey, (size_t)nk);
        s->nkey = nk;
        s->kage = 0;
    } else {   /* the same bodies as the last sort, moved a little since */
        ++s->kage;
    }
    /* sfirst[a]: where body a's pairs start in the table (sorted by a), sfirst[a + 1] the end */
    for (id = 0; id <= s->n; ++id) s->sfirst[id] = 0;
    for (i = 0; i < ntab; ++i) s->sfirst[tab[i].a + 1]++;
    for (id = 0; id < s->n; ++id) s->sfirst[id + 1] += s->sfirst[id];
    for (id = 0; id < s->nkey; ++id) {
        int a = s->skey[id].id, t;
        for (t = s->sfirst[a]; t < s->sfirst[a + 1]; ++t) s->order[k++] = t;
    }
    if (k != ntab) return CT_INVALID;   /* every pair's bodies are live: not reached */
    s->norder = ntab;
    s->order_tab = nb;
    return CT_OK;
}

/* The record's SAT cache (read) and result (written) of the pair of entry e when a body of
   the pair moved and the pair is not known to be apart by more than its bodies moved (the
   culls' slack left out: a fetch too many costs nothing but the fetch). The records are a pool
   in no spatial order, visited in the bodies' order: fetched ahead, the narrow phase of a moving
   10,000-hull scene takes ~3% less (in one process, chunks of pairs with and without
   alternating). Fetching the hulls' blocks as well made it 5-10% slower: they are mostly in
   cache (nearby bodies come in turn), and ~70 lines of prefetches per pair cost more than the
   misses they save. Branch-free past the moved test (which a moving scene always passes): a
   pair known apart fetches its own entry's line instead, as the test fails at random. Always
   inlined: gcc takes a function of prefetches alone for a pure one and drops the call. */
CT__ALWAYS void ct__sc_prefetch_pair(const ct_scene *s, const ct__sref *e) {
    const ct__spair *q = &s->rec[e->r];
    const char *c, *end, *base;
    size_t far, step;
    int a = e->a, b = e->b;
    if (!((s->leave[a] | s->leave[b]) & CT__SC_MOVED)) return;
    far = (size_t)(e->valid & !e->touching & (e->gap - s->motion[a] - s->motion[b] > 0)) - 1; /* ~0: fetch */
    base = (const char *)&q->sat;
    step = 64 & far;
    c = (const char *)e + (((size_t)(base - (const char *)e)) & far);
    for (end = base + sizeof q->sat; base < end; base += 64, c += step) CT__SC_PREFETCH(c);
    base = (const char *)&q->r;
    c = (const char *)e + (((size_t)(base - (const char *)e)) & far);
    end = base + (s->desc.mode == CT_SCENE_VOLUMETRIC ? sizeof q->r.c : sizeof q->r.m);
    for (; base < end; base += 64, c += step) CT__SC_PREFETCH_W(c);
}

/* Step 3: the narrow phase on every pair of tab whose tight boxes overlap. */
CT__PRIVATE void ct__sc_narrow_all(ct_scene *s, ct__sref *tab, size_t n, int T) {
    long long i, m = (long long)n;
    const int *ord = s->order;
    int dem = s->desc.mode == CT_SCENE_VOLUMETRIC;
    long long ch = m / (16 * (long long)(T > 1 ? T : 1));
    ch = ch < CT__SCENE_CHUNK ? CT__SCENE_CHUNK : (ch > CT__SCENE_CHUNK_MAX ? CT__SCENE_CHUNK_MAX : ch);
    (void)T;
    (void)ch;
#if CT__SC_OMP
#pragma omp parallel for schedule(dynamic, ch) num_threads(T) if (T > 1 && m > CT__SCENE_CHUNK)
#endif
    for (i = 0; i < m; ++i) {
        ct__sref *e = &tab[ord[i]];
        int a = e->a, b = e->b;
        /* the entries are visited in the bodies' order, not in memory order: the entry a few
           pairs ahead is fetched now, and the parts of the record a call would read two ahead */
        if (i + CT__SCENE_AHEAD < m) CT__SC_PREFETCH(&tab[ord[i + CT__SCENE_AHEAD]]);
        if (i + CT__SCENE_AHEAD2 < m) ct__sc_prefetch_pair(s, &tab[ord[i + CT__SCENE_AHEAD2]]);
        /* the culls' slack: the speculative distance, or the touching band of volumetric mode */
        ct_real g = dem ? ct__sc_band(s, a, b) : s->desc.speculative;
        if (e->valid && !((s->leave[a] | s->leave[b]) & CT__SC_MOVED)) {
            e->now = e->touching; /* neither body moved: the committed answer stands */
        } else if (e->valid && !e->touching && e->gap - s->motion[a] - s->motion[b] > g + ct__sc_band(s, a, b)) {
            /* apart by more than g at the last step and neither body moved far enough to
               close the gap (distance is 1-Lipschitz in the motion of the points): still apart */
            e->gap -= s->motion[a] + s->motion[b];
            e->now = 0;
            e->status = CT_OK;
        } else if (ct__sc_overlap(&s->tight[a], &s->tight[b], g) && !ct__sc_spheres_apart(s, a, b, g)) {
#if CT__SC_OMP
            ct__sc_narrow(s, e, &s->rec[e->r], &s->scr[omp_get_thread_num()]);
#else
            ct__sc_narrow(s, e, &s->rec[e->r], &s->scr[0]);
#endif
        } else {
            e->now = 0;
            e->status = CT_OK;
            e->gap = -1;
        }
    }
}

CT__INLINE void ct__sc_emit(const ct_scene *s, const ct__sref *e, const ct__spair *p, ct_scene_contact *c,
                            ct_scene_event ev) {
    c->a = e->a;
    c->b = e->b;
    c->event = ev;
    c->status = (ct_status)e->status;
    if (s->desc.mode == CT_SCENE_VOLUMETRIC) {
        if (e->now) c->contact = p->r.c;
        else { memset(&c->contact, 0, sizeof c->contact); c->contact.face_a = c->contact.face_b = -1; }
    } else {
        if (e->now) c->manifold = p->r.m;
        else memset(&c->manifold, 0, sizeof c->manifold);
    }
}

/* qsort, not CT__DEFINE_SORT, for the ended list: its entries are large (a manifold or a
   contact each), and glibc's qsort moves large elements through pointers */
CT__PRIVATE int ct__sc_cmp(const void *x, const void *y) {
    const ct_scene_contact *a = (const ct_scene_contact *)x, *b = (const ct_scene_contact *)y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : (a->b > b->b);
}

/* A status that fails the step: other than CT_OK and CT_NO_CONVERGENCE. */
CT__INLINE int ct__sc_failed(const ct__sref *e) { return e->status != CT_OK && e->status != CT_NO_CONVERGENCE; }
/* The first failure among tab[i0, i1), or (size_t)-1. */
CT__INLINE size_t ct__sc_first_failure(const ct__sref *tab, size_t i0, size_t i1) {
    for (; i0 < i1; ++i0)
        if (ct__sc_failed(&tab[i0])) return i0;
    return (size_t)-1;
}
/* Writes the outputs of tab[i0, i1) from touch[*wt] and ended[*we] on, counts the BEGINs in
   *nb, and commits the entries' touching flags. */
CT__INLINE void ct__sc_commit_range(ct_scene *s, ct__sref *tab, size_t i0, size_t i1, size_t *wt, size_t *we,
                                    size_t *nb) {
    size_t t = *wt, e = *we, b = *nb;
    for (; i0 < i1; ++i0) {
        ct__sref *p = &tab[i0];
        if (i0 + CT__SCENE_COMMIT_AHEAD < i1 && tab[i0 + CT__SCENE_COMMIT_AHEAD].now) {
            /* the result a touching pair's output copies, fetched ahead (the narrow phase wrote
               it long ago) */
            const char *c = (const char *)&s->rec[tab[i0 + CT__SCENE_COMMIT_AHEAD].r].r, *end;
            end = c + (s->desc.mode == CT_SCENE_VOLUMETRIC ? sizeof s->rec->r.c : sizeof s->rec->r.m);
            for (; c < end; c += 64) CT__SC_PREFETCH(c);
        }
        if (p->now) {   /* only an output reads the record */
            ct__sc_emit(s, p, &s->rec[p->r], &s->touch[t++], p->touching ? CT_SCENE_PERSIST : CT_SCENE_BEGIN);
            b += !p->touching;
        } else if (p->touching) {
            ct__sc_emit(s, p, &s->rec[p->r], &s->ended[e++], CT_SCENE_END);
        }
        p->touching = p->now;
        p->valid = 1;
    }
    *wt = t;
    *we = e;
    *nb = b;
}
/* Step 4's outputs: the touching pairs of tab (BEGIN or PERSIST) into touch, the pairs that
   stopped touching (END) into ended after its first *nended, both in table order, and each
   entry's touching flag committed; or, when some pair failed, the first failure in table
   order (the same for any thread count), and nothing written. On T > 1 threads in two passes
   over fixed chunks of the table (the failures and counts, then the writes at their offsets);
   on one, a failure scan and one pass of writes. */
CT__PRIVATE ct_status ct__sc_commit(ct_scene *s, ct__sref *tab, size_t ntab, int T, size_t *ntouch,
                                    size_t *nended, size_t *nbegan) {
    long long q, nch = (long long)((ntab + CT__SCENE_COMMIT_CHUNK - 1) / CT__SCENE_COMMIT_CHUNK);
    size_t *c = s->ccnt, t = 0, e = *nended, b = 0, f;
    if (T <= 1 || nch <= 1) {
        if ((f = ct__sc_first_failure(tab, 0, ntab)) != (size_t)-1) return (ct_status)tab[f].status;
        ct__sc_commit_range(s, tab, 0, ntab, ntouch, nended, nbegan);
        return CT_OK;
    }
#if CT__SC_OMP
#pragma omp parallel for schedule(static) num_threads(T)
#endif
    for (q = 0; q < nch; ++q) {
        size_t i, i0 = (size_t)q * CT__SCENE_COMMIT_CHUNK, i1 = i0 + CT__SCENE_COMMIT_CHUNK, k[3] = { 0, 0, 0 };
        if (i1 > ntab) i1 = ntab;
        c[4 * q + 3] = (size_t)-1;
        for (i = i0; i < i1; ++i) {   /* one read of each entry: its failure and its counts */
            const ct__sref *p = &tab[i];
            if (ct__sc_failed(p) && c[4 * q + 3] == (size_t)-1) c[4 * q + 3] = i;
            k[0] += (size_t)(p->now != 0);
            k[1] += (size_t)(!p->now && p->touching);
            k[2] += (size_t)(p->now && !p->touching);
        }
        c[4 * q] = k[0];
        c[4 * q + 1] = k[1];
        c[4 * q + 2] = k[2];
    }
    for (q = 0; q < nch; ++q)
        if (c[4 * q + 3] != (size_t)-1) return (ct_status)tab[c[4 * q + 3]].status;
    for (q = 0; q < nch; ++q) {   /* counts -> offsets */
        size_t k0 = c[4 * q], k1 = c[4 * q + 1];
        b += c[4 * q + 2];
        c[4 * q] = t;
        c[4 * q + 1] = e;
        t += k0;
        e += k1;
    }
#if CT__SC_OMP
#pragma omp parallel for schedule(static) num_threads(T)
#endif
    for (q = 0; q < nch; ++q) {
        size_t i0 = (size_t)q * CT__SCENE_COMMIT_CHUNK, i1 = i0 + CT__SCENE_COMMIT_CHUNK, nb = 0;
        if (i1 > ntab) i1 = ntab;
        ct__sc_commit_range(s, tab, i0, i1, &c[4 * q], &c[4 * q + 1], &nb);
    }
    *ntouch = t;
    *nended = e;
    *nbegan = b;
    return CT_OK;
}

CTDEF ct_status ct_scene_step(ct_scene *s, ct_scene_result *out) {
    ct__sref *tab;
    size_t ntab, nended = 0, ntouch = 0, nbegan = 0, i;
    int T, any = 0, bp, id, nb, t;
    ct_status st;
    if (out) memset(out, 0, sizeof *out);
    if (!s || !out) return CT_INVALID;
    T = ct__sc_threads(s);
    if (T > s->nscr) { /* one scratch per thread, kept across steps */
        size_t cap = (size_t)s->nscr;
        st = ct__sc_grow(&s->alloc, (void **)&s->scr, &cap, (size_t)s->nscr, (size_t)T, sizeof(ct_scratch));
        if (st != CT_OK) return st;
        for (t = s->nscr; t < (int)cap; ++t) ct_scratch_init(&s->scr[t], &s->alloc);
        s->nscr = (int)cap;
    }
    st = ct__sc_bodies(s, T, &any);
    if (st != CT_OK) return st;
    bp = any || s->topo || !s->stepped;
    if (bp) { /* the merged table in the other buffer; the committed one stays as it was */
        st = ct__sc_broad(s, &ntab, &nended);
        if (st != CT_OK) return st;
        nb = 1 - s->cur_tab;
    } else {  /* the committed table in place: the narrow phase writes only this step's fields
                 and the caches (which steer, never change, an answer or are refined anyway) */
        nb = s->cur_tab;
        ntab = s->ntab;
        st = ct__sc_grow(&s->alloc, (void **)&s->ended, &s->endedcap, 0, ntab, sizeof(ct_scene_contact));
        if (st != CT_OK) return st;
    }
    tab = s->tab[nb];
    st = ct__sc_grow(&s->alloc, (void **)&s->touch, &s->touchcap, 0, ntab, sizeof(ct_scene_contact));
    if (st == CT_OK)
        st = ct__sc_grow(&s->alloc, (void **)&s->ccnt, &s->ccntcap, 0, 4 * (ntab / CT__SCENE_COMMIT_CHUNK + 1), sizeof(size_t));
    if (st == CT_OK && (bp || s->order_tab != nb || s->norder != ntab)) st = ct__sc_order(s, nb, ntab);
    if (st != CT_OK) {
        if (bp) /* the slots this step took go back to the pool */
            for (i = 0; i < s->nrnew; ++i) s->rfree[s->nrfree++] = s->rnew[i];
        return st;
    }
    ct__sc_narrow_all(s, tab, ntab, T);
    /* commit: outputs and events in table order, touching flags, fat boxes, the table; or the
       first failure in table order */
    st = ct__sc_commit(s, tab, ntab, T, &ntouch, &nended, &nbegan);
    if (st != CT_OK) {
        /* the records were worked on: the committed table's answers are stale now (its entries
           share their records with this step's table); the slots this step took go back to
           the pool */
        for (i = 0; i < s->ntab; ++i) s->tab[s->cur_tab][i].valid = 0;
        if (bp)
            for (i = 0; i < s->nrnew; ++i) s->rfree[s->nrfree++] = s->rnew[i];
        return st;
    }
    if (bp && nended > 1) qsort(s->ended, nended, sizeof *s->ended, ct__sc_cmp);
    if (bp) /* the records of the pairs this step dropped are free now */
        for (i = 0; i < s->nrdrop; ++i) s->rfree[s->nrfree++] = s->rdrop[i];
    for (id = 0; id < s->n; ++id) {
        ct__sbody *b = &s->body[id];
        if (b->state == 1) {
            if (s->leave[id] & CT__SC_LEAVE) b->fat = s->nfat[id];
            b->prev = s->cur[id];
            b->fresh = 0;
        } else if (b->state == 2) { /* removed: its slot is free from now on */
            b->state = 0;
            s->freelist[s->nfree++] = id;
        }
    }
    s->cur_tab = nb;
    s->ntab = ntab;
    if (bp) s->bpsync = 1;
    s->topo = 0;
    s->stepped = 1;
    out->touching = s->touch;
    out->ntouching = (int)ntouch;
    out->ended = s->ended;
    out->nended = (int)nended;
    out->nbegan = (int)nbegan;
    out->npairs = (int)ntab;
    out->broadphase = bp;
    return CT_OK;
}
