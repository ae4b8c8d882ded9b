/* contact.h detail: >>quickhull - 3D convex hulls with merged coplanar faces.

   Quickhull (Barber, Dobkin & Huhdanpaa 1996) in the half-edge form with face merging
   during construction (as in J. E. Lloyd's quickhull3d): after each point is added the new
   faces are merged with any neighbour that is not convex by more than the tolerance, first
   with respect to the larger face, then in both directions. Faces therefore come out as
   maximal coplanar polygons, and no coplanar or near-duplicate point becomes a vertex.

   Robustness: the tolerance is a small multiple of the machine epsilon times the input's
   extent plus the rounding of its absolute coordinates (so a point set translated by 1e6
   keeps its combinatorics as far as its own rounding allows), or desc->eps times the extent.
   Coplanarity merges must keep every vertex of the absorbed face within the tolerance and the
   merged polygon convex; concave edges are always repaired by merging. The initial simplex
   rejects a fourth point whose height is within the rounding of a sliver triangle's plane.
   Predicates are evaluated in double also in a float build (see below). A point is outside a
   face only beyond the rounding of the face's own vertices (its outer plane). Points within
   the tolerance of a face are kept in its coplanar set, not dropped: they are filed again
   when the face is deleted or its plane moves, and a last sweep climbs each one to the face
   it is farthest above, so a point that a later face or merge left outside becomes a vertex
   (qhull keeps coplanar points for the same reason). Points of a merged-away face, or of a
   face whose plane moved, climb from it to the face they are farthest above. A face that the
   eye is above beyond the rounding of its own vertices (its outer plane), or otherwise within
   the tolerance of with the cone triangle folding over it (facing against it), counts as
   visible (else a tolerance-coplanar neighbour leaves a steep or flipped new face), unless
   that makes the horizon other than a simple loop with non-degenerate cone triangles. (An eye
   in the plane of a big face and outside it - a cylinder's next rim point - extends the face
   by one merge; judged against the plane itself or against the visible face's normal, its
   rounding deleted and re-fanned the whole face for every such point: O(m^2) each.)
   Measured (tests, stress runs): on sets a few tolerances thick (flattened spheres, noisy box
   faces, needles) these rules still let chains of near-coplanar decisions tilt a sliver face
   past far points (tens to hundreds of tolerances), leave a non-vertex point outside, or flip
   a face: a cone triangle coplanar with its neighbours is merged with one, and cutting out
   the vertex of degree two that this leaves hands the triangle it spans to the other face,
   which can turn the rest upside down. So ct_hull_build checks such hulls (ct__qh_face_ok
   here, cheaply, when the build made a tolerance decision; ct__qh_verify in full) and
   rebuilds them (default tolerance: in two other point orders, then coarser; desc->eps:
   finer) until they hold.

   The verification and rebuild ladder of ct_hull_build, in detail. desc->eps > 0: the hull is
   verified (every input point within CT__QH_BOUND tol of every face plane, every face convex
   within it, every vertex on 3 or more faces) and, while it fails, rebuilt with eps / 10, down
   to the default tolerance (below CT__QH_EPS_FLOOR). Default tolerance: when the build made a
   tolerance decision (a merge of near-coplanar faces, a fold, a point within tol of a plane)
   or the set may be thin (its first tetrahedron under CT__QH_THIN tol high), the hull is
   checked the same way (ct__qh_face_ok on the hull's vertices, then ct__qh_verify on every
   point), and while it fails it is rebuilt:
   at the default tolerance with the points in two other orders (reversed; reversed and
   rotated by half), then with a tolerance 16, 256, then 4096 times the default
   (CT__QH_COARSEN_LOG2); a set flat within the coarser tolerance, or failing at 4096, is
   CT_DEGENERATE. Cost: the check is O(n) plus O(n) per face that some point is farther from
   the vertex mean than (0 for a round set, few for a flat one; O(n F) at worst) while n F is
   at most CT__QH_VERIFY_PAIRS, and above that a walk over the face graph per point (from the
   face the previous point ended on; ct__qh_contained), plus the squared vertex count of each
   face; a rebuild costs a build. Sets in general position make no tolerance decision and pay
   nothing.

   Memory: every temporary array lives in a ct_scratch and deleted faces and half-edges are
   recycled, so working memory stays proportional to the live hull.

   Speed: arrays are sized from n up front (small sets never grow); triangles get their
   geometry unrolled; each face remembers its farthest outside point as points are claimed
   and its list tail, so adding a point neither scans nor unlinks, and deleted faces hand
   their outside sets (and half-edge loops) on in O(1); reassignment reads the new faces'
   planes from one packed array, starting at the face that took the previous point; the
   merge test is one predictable branch for clearly convex edges; the finite check, bounding
   box and axis extremes share the passes over the input; the output keeps quickhull's twins
   (slot k of face_verts is the half-edge leaving face_verts[k], i.e. next(e_k) where e_k
   heads at face_verts[k]) so the hull block needs no twin search. */

/* ---- working precision -------------------------------------------------------------------- */
/* Every predicate is evaluated in double, also when ct_real is float (the points are converted
   once and the output planes rounded back): in float the planes of small faces far from the
   origin round by more than the tolerance and visibility was decided wrongly (a hull missed a
   point by 1e-3 of its extent). The tolerance stays that of ct_real, the input's own rounding.
   The float test below is made by the preprocessor (CT_REAL is the token double or float), so
   a double build uses ct_vec3 and the helpers of math.h unchanged and copies nothing. */
#define CT__QH_REAL_float 1
#define CT__QH_CAT2(a, b) a##b
#define CT__QH_CAT(a, b) CT__QH_CAT2(a, b)
#if CT__QH_CAT(CT__QH_REAL_, CT_REAL) == 1
#define CT__QH_WIDE 1
typedef double ct__qreal;
typedef struct ct__qv { double x, y, z; } ct__qv;
#define CT__QEPS DBL_EPSILON
#define CT__QMAX DBL_MAX
CT__INLINE ct__qv ct__q_v3(double x, double y, double z) { ct__qv v; v.x = x; v.y = y; v.z = z; return v; }
CT__INLINE ct__qv ct__q_add(ct__qv a, ct__qv b) { return ct__q_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
CT__INLINE ct__qv ct__q_sub(ct__qv a, ct__qv b) { return ct__q_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
CT__INLINE ct__qv ct__q_scale(ct__qv a, double s) { return ct__q_v3(a.x * s, a.y * s, a.z * s); }
CT__INLINE ct__qv ct__q_madd(ct__qv a, ct__qv b, double s) { return ct__q_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
CT__INLINE double ct__q_dot(ct__qv a, ct__qv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CT__INLINE ct__qv ct__q_cross(ct__qv a, ct__qv b) {
    return ct__q_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
CT__INLINE double ct__q_sqrt(double x) { return sqrt(x); }
CT__INLINE double ct__q_abs(double x) { return x < 0 ? -x : x; }
CT__INLINE double ct__q_max(double a, double b) { return a > b ? a : b; }
CT__INLINE double ct__q_len2(ct__qv a) { return ct__q_dot(a, a); }
CT__INLINE double ct__q_len(ct__qv a) { return sqrt(ct__q_dot(a, a)); }
CT__INLINE double ct__q_vget(ct__qv v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
/* as ct__normalize: scaled by the largest component first */
CT__INLINE ct__qv ct__q_normalize(ct__qv a, int *ok) {
    double m = ct__q_max(ct__q_abs(a.x), ct__q_max(ct__q_abs(a.y), ct__q_abs(a.z)));
    if (!(m > 0) || !(m <= DBL_MAX)) { if (ok) *ok = 0; return ct__q_v3(0, 0, 0); }
    a = ct__q_scale(a, 1 / m);
    if (ok) *ok = 1;
    return ct__q_scale(a, 1 / ct__q_len(a));
}
CT__INLINE ct__qv ct__q_of(ct_vec3 a) { return ct__q_v3((double)a.x, (double)a.y, (double)a.z); }
CT__INLINE ct_vec3 ct__q_out(ct__qv a) { return ct__v3((ct_real)a.x, (ct_real)a.y, (ct_real)a.z); }
#else
#define CT__QH_WIDE 0
typedef ct_real ct__qreal;
typedef ct_vec3 ct__qv;
#define CT__QEPS CT__EPS
#define CT__QMAX CT__MAXR
#define ct__q_v3 ct__v3
#define ct__q_add ct__add
#define ct__q_sub ct__sub
#define ct__q_scale ct__scale
#define ct__q_madd ct__madd
#define ct__q_dot ct__dot
#define ct__q_cross ct__cross
#define ct__q_sqrt ct__sqrt
#define ct__q_abs ct__abs
#define ct__q_max ct__max
#define ct__q_len2 ct__len2
#define ct__q_len ct__len
#define ct__q_vget ct__vget
#define ct__q_normalize ct__normalize
#define ct__q_of(a) (a)
#define ct__q_out(a) (a)
#endif

/* ---- tolerances (tol: the build's tolerance, ct__qh_tolerance; all relative to the input) -- */
/* Default tol = eps (CT__QH_TOL_EXT E + CT__QH_TOL_ABS M), E the half-width sum of the bounding
   box, M the largest |coordinate|: the rounding of the extent plus that of absolute coordinates. */
#define CT__QH_TOL_EXT 3
#define CT__QH_TOL_ABS 2
/* The first simplex's spread, triangle height and tetrahedron height must exceed this many tol:
   a set thinner than that is flat, a line or a point (CT_DEGENERATE). */
#define CT__QH_SPAN 2
/* Rounding of the simplex base's normal, in radians (ct__q_cross_accurate); if that overflows,
   in ulps of |e1| |e2| |e3| / |e1 x e2| (a plain cross product of a sliver). */
#define CT__QH_TILT (8 * CT__QEPS)
/* A point this many tol above a new face is clearly outside: the search for its face stops. */
#define CT__QH_FAR 1000
/* A first tetrahedron under this many tol high may be a set that thin: the hull is checked. */
#define CT__QH_THIN 1024
/* The guarantee: every input point within this many tol of every face plane, every face convex
   within it (checked by ct__qh_face_ok / ct__qh_verify; stated in contact.h). */
#define CT__QH_BOUND 8
/* A user eps (relative) shrunk below this by the rebuild ladder becomes the default tolerance. */
#define CT__QH_EPS_FLOOR (10 * CT__EPS)
/* A coplanar merge of a face into one of at least this many vertices (and twice its own) keeps
   the big face's plane and costs O(1) (ct__qh_merge): merging point after point into a big
   coplanar face (a cylinder's caps) stays linear. */
#define CT__QH_BIG 16
/* A merge files the coplanar sets of the faces it changes again while they hold at most this
   many points (as much work as the merge's own geometry pass, about); larger sets wait for the
   last sweep, so merging into a big face stays O(1) amortised in its coplanar points. */
#define CT__QH_REFILE_MAX 64
/* The default-tolerance ladder's coarser rebuilds: tol times 2^(4 k), k = 1, 2, 3 (16, 256, 4096). */
#define CT__QH_COARSEN_LOG2 4

/* cross(b - a, c - a) to a few units in the last place of its own size, however thin the
   triangle. A plain cross product errs by ~eps |b - a| |c - a| (in the edges' rounding and in
   the products), which turns the normal of a needle by eps over its aspect: three points 3.8e-9
   off a line 9 long got a normal 1e-8 rad off, and a fourth point 9 further along the line,
   3.8e-8 below the exact face, was 1.5e-7 (8e6 tolerances) above the computed one, so the
   verified build failed at every tolerance. Here the edges split exactly into rounded part and
   error (Knuth's TwoSum), the rounded parts' products are differenced by Kahan's fma algorithm
   (error 1.5 ulp of the difference) and the error terms are added to first order (what is
   dropped is eps^2 |b - a| |c - a|). */
CT__INLINE ct__qreal ct__q_two_diff_err(ct__qreal x, ct__qreal y, ct__qreal s) {
    ct__qreal yv = x - s, xv = s + yv;   /* s = x - y rounded; returns (x - y) - s exactly */
    return (x - xv) - (y - yv);
}
CT__INLINE ct__qreal ct__q_diff_prod(ct__qreal a, ct__qreal b, ct__qreal c, ct__qreal d) {   /* ab - cd */
    ct__qreal w = c * d;
    return fma(a, b, -w) + fma(-c, d, w);
}
/* *exact (may be NULL) is 0 when the accurate product overflowed (inf - inf in the error terms:
   coordinates near the largest double) and the plain one, which callers already handle, is
   returned instead. */
CT__PRIVATE ct__qv ct__q_cross_accurate(ct__qv a, ct__qv b, ct__qv c, int *exact) {
    ct__qv u = ct__q_sub(b, a), v = ct__q_sub(c, a), ue, ve, r;
    int fin;
    ue = ct__q_v3(ct__q_two_diff_err(b.x, a.x, u.x), ct__q_two_diff_err(b.y, a.y, u.y), ct__q_two_diff_err(b.z, a.z, u.z));
    ve = ct__q_v3(ct__q_two_diff_err(c.x, a.x, v.x), ct__q_two_diff_err(c.y, a.y, v.y), ct__q_two_diff_err(c.z, a.z, v.z));
    r = ct__q_add(ct__q_v3(ct__q_diff_prod(u.y, v.z, u.z, v.y), ct__q_diff_prod(u.z, v.x, u.x, v.z),
                           ct__q_diff_prod(u.x, v.y, u.y, v.x)),
                  ct__q_add(ct__q_cross(u, ve), ct__q_cross(ue, v)));
    fin = r.x - r.x == 0 && r.y - r.y == 0 && r.z - r.z == 0;
    if (exact) *exact = fin;
    return fin ? r : ct__q_cross(u, v);
}
/* A face whose |cross product sum| is below this fraction of its longest squared edge (about
   its width over its length) gets its normal from ct__q_cross_accurate, in the build (every
   visibility decision reads it: plain normals of needles let hulls leave points 1e4 tolerances
   out without any tolerance decision flagged, so nothing was checked) and in the output
   planes. At 1/16 a plain product errs by ~16 eps rad, well under a tolerance across the set.
   The polar intersection's dual hull (detail/polar.h) builds with plain normals (its points are
   whitened and its answers checked on the primal side; accurate ones cost the 20-vertex
   contact 3%). */
#define CT__QH_SKINNY ((ct__qreal)1 / 16)

/* ---- construction state ------------------------------------------------------------------ */
/* Face marks (quickhull3d's names): VISIBLE is any live face, NONCONVEX a live face found
   not convex with a neighbour while merging; DELETED faces await recycling, FREE ones are on
   the free list. */
enum { CT__QF_VISIBLE = 0, CT__QF_NONCONVEX = 1, CT__QF_DELETED = 2, CT__QF_FREE = 3 };

typedef struct ct__qface {
    ct__qv n;         /* unit outward normal */
    ct__qv c;         /* centroid of the vertices */
    ct__qreal off;    /* n . x = off on the plane */
    ct__qreal out;    /* off raised by the largest residual of the face's own vertices */
    ct__qreal area;   /* twice the area (|sum of cross products|) */
    int he0;          /* one half-edge of the loop */
    int nv;           /* vertices in the loop */
    int mark;         /* CT__QF_* */
    int outside;      /* first point of the outside set, -1 if none */
    int outside_tail; /* last point of the outside set (valid when outside >= 0) */
    int coplanar;     /* first point of the coplanar set (within tol of the plane), -1 if none */
    int coplanar_tail; /* its last point (valid when coplanar >= 0): merges splice sets in O(1) */
    int ncoplanar;    /* points in the coplanar set */
    int far_point;    /* farthest outside point, -1 when unknown (the plane moved since) */
    ct__qreal far_dist; /* its distance */
    int queued;       /* in the pending stack */
    int thin;         /* the normal was re-orthogonalised to the longest edge */
    ct__qv csum;      /* sum of the vertices (c = csum / nv) */
    int fit;          /* nv when the plane was last fitted to the loop (ct__qh_face_finish) */
    int grown;        /* 1 while on the step's list of old faces that took in a new one */
} ct__qface;

typedef struct ct__qedge { int head, next, prev, twin, face; } ct__qedge;

typedef struct ct__ivec { int *a; int n, cap; } ct__ivec;   /* growable, in the scratch */

typedef struct ct__qh_state {
    ct_scratch *s;
    const ct__qv *p;  /* the input points in working precision (used as given, not re-centred) */
    int n;
    ct__qreal tol;
    int *pnext;        /* next point in the same outside or coplanar set */
    ct__qface *f; int nf, capf, freef;      /* faces; free list threaded through he0 */
    ct__qedge *e; int ne, cape, freee;      /* half-edges; free list threaded through next */
    ct__ivec stack;                         /* faces with outside points */
    ct__ivec horizon;                       /* horizon half-edges, in order around the eye */
    ct__ivec newf;                          /* faces made for the current point */
    ct__ivec dead;                          /* faces deleted for the current point */
    ct__ivec grown;                         /* old faces that took in a new face this step */
    ct__ivec dfs;                           /* horizon search frames, 2 ints each */
    int unclaimed;                          /* list of points to reassign */
    int eye;                                /* the point being added */
    int folds;                              /* faces the fold rule took in for this eye */
    int *vseen;                             /* per point: the eye whose horizon met it, or -1 */
    ct__qreal *packed; int *packed_face;    /* planes (n, off) of the live new faces, packed; their faces */
    int packed_cap;
    int imin[3], imax[3];                   /* points of least and greatest x, y, z */
    ct__qreal height;                       /* of the simplex's fourth point above the other three */
    ct__qv centre;                          /* of the simplex: inside the hull */
    int fuzzy;                              /* a merge, a fold or a point within tol of a plane */
    int accurate;                           /* skinny faces' normals by ct__q_cross_accurate */
} ct__qh_state;

/* Grows an int or struct array living in the scratch (copying; the old one is left to the
   scratch, which is reset at the end of the call). */
CT__PRIVATE void *ct__qh_grow(ct__qh_state *q, void *old, int count, int *cap, size_t size) {
    int ncap = *cap ? 2 * *cap : 64;
    void *p;
    if (ncap < count) ncap = count;
    p = ct__scratch_array(q->s, ncap, size);
    if (!p) return NULL;
    if (old && *cap) memcpy(p, old, (size_t)*cap * size);
    *cap = ncap;
    return p;
}

CT__PRIVATE int ct__qh_push_slow(ct__qh_state *q, ct__ivec *v, int x) {
    int *p = (int *)ct__qh_grow(q, v->a, v->n + 1, &v->cap, sizeof(int));
    if (!p) return 0;
    v->a = p;
    v->a[v->n++] = x;
    return 1;
}
CT__INLINE int ct__qh_push(ct__qh_state *q, ct__ivec *v, int x) {
    if (v->n == v->cap) return ct__qh_push_slow(q, v, x);
    v->a[v->n++] = x;
    return 1;
}

CT__PRIVATE int ct__qh_grow_edges(ct__qh_state *q) {
    ct__qedge *p = (ct__qedge *)ct__qh_grow(q, q->e, q->ne + 1, &q->cape, sizeof(ct__qedge));
    if (!p) return 0;
    q->e = p;
    return 1;
}
CT__INLINE int ct__qh_new_edge(ct__qh_state *q) {
    int i;
    if (q->freee >= 0) { i = q->freee; q->freee = q->e[i].next; return i; }
    if (q->ne == q->cape && !ct__qh_grow_edges(q)) return -1;
    return q->ne++;
}
CT__INLINE void ct__qh_free_edge(ct__qh_state *q, int i) { q->e[i].face = -1; q->e[i].next = q->freee; q->freee = i; }

CT__PRIVATE int ct__qh_grow_faces(ct__qh_state *q) {
    ct__qface *p = (ct__qface *)ct__qh_grow(q, q->f, q->nf + 1, &q->capf, sizeof(ct__qface));
    if (!p) return 0;
    q->f = p;
    return 1;
}
CT__INLINE int ct__qh_new_face(ct__qh_state *q) {
    int i;
    if (q->freef >= 0) { i = q->freef; q->freef = q->f[i].he0; }
    else {
        if (q->nf == q->capf && !ct__qh_grow_faces(q)) return -1;
        i = q->nf++;
    }
    q->f[i].mark = CT__QF_VISIBLE;
    q->f[i].outside = -1;
    q->f[i].coplanar = -1;
    q->f[i].ncoplanar = 0;
    q->f[i].far_point = -1;
    q->f[i].queued = 0;
    q->f[i].nv = 0;
    q->f[i].grown = 0;
    return i;
}
CT__INLINE void ct__qh_free_face(ct__qh_state *q, int i) { q->f[i].mark = CT__QF_FREE; q->f[i].he0 = q->freef; q->freef = i; }

CT__INLINE int ct__qh_tail(const ct__qh_state *q, int e) { return q->e[q->e[e].prev].head; }
CT__INLINE int ct__qh_oppface(const ct__qh_state *q, int e) { return q->e[q->e[e].twin].face; }
CT__INLINE ct__qreal ct__qh_dist(const ct__qh_state *q, int f, ct__qv x) { return ct__q_dot(q->f[f].n, x) - q->f[f].off; }
/* Height above the outer plane: a point is outside face f when this exceeds the tolerance. */
CT__INLINE ct__qreal ct__qh_above(const ct__qh_state *q, int f, ct__qv x) { return ct__q_dot(q->f[f].n, x) - q->f[f].out; }

/* Sets the outer offset of face f: a point counts as outside only beyond the rounding of the
   face's own plane, so a copy of a vertex is never outside a face through it (it would become
   an eye whose cone has faces of zero area). */
CT__PRIVATE void ct__qh_face_outer(ct__qh_state *q, int f) {
    ct__qface *F = &q->f[f];
    int e0 = F->he0, e = e0;
    ct__qreal r = 0;
    do {
        r = ct__q_max(r, ct__qh_dist(q, f, q->p[q->e[e].head]));
        e = q->e[e].next;
    } while (e != e0);
    F->out = F->off + r;
}

/* Normal, centroid and offset from the vertex loop (sum of fan cross products: Newell's
   normal for planar polygons, exact in orientation for any simple loop). A thin face (area
   tiny against its longest edge squared) has its normal re-orthogonalised to that edge, which
   is the direction the face is best determined in (Lloyd). */
/* Shared tail of the face geometry: csum is the sum of the vertices, nrm the fan cross-product
   sum, lmax the longest squared edge. Returns 1 when the face is thin: the caller then calls
   ct__qh_face_thin with that edge (kept out of line: it is rare). */
CT__INLINE int ct__qh_face_finish(ct__qface *F, int nv, ct__qv csum, ct__qv nrm, ct__qreal lmax) {
    ct__qreal area = ct__q_len(nrm);
    F->nv = nv;
    F->fit = nv;
    F->area = area;
    F->csum = csum;
    F->c = ct__q_scale(csum, (ct__qreal)1 / (ct__qreal)nv);
    if (area > 0) nrm = ct__q_scale(nrm, 1 / area);
    F->n = nrm;
    F->off = ct__q_dot(nrm, F->c);
    F->thin = 0;
    F->far_point = -1;      /* distances of points claimed before are stale */
    return !(area > ct__q_sqrt(CT__QEPS) * lmax) && lmax > 0;
}
/* The thin case of ct__qh_face_finish: lvec is the longest edge, lmax its squared length. */
CT__PRIVATE void ct__qh_face_thin(ct__qface *F, ct__qv lvec, ct__qreal lmax) {
    ct__qv u = ct__q_scale(lvec, 1 / ct__q_sqrt(lmax));
    F->n = ct__q_normalize(ct__q_madd(F->n, u, -ct__q_dot(F->n, u)), NULL);
    F->off = ct__q_dot(F->n, F->c);
    F->thin = 1;
}

CT__PRIVATE void ct__qh_face_geometry(ct__qh_state *q, int f) {
    ct__qface *F = &q->f[f];
    int e0 = F->he0, e = e0, nv = 0, thin;
    ct__qv p0 = q->p[q->e[e0].head], c = ct__q_v3(0, 0, 0), nrm = ct__q_v3(0, 0, 0), d2, lvec = nrm;
    ct__qv tail = q->p[ct__qh_tail(q, e0)];
    ct__qreal lmax = -1;
    d2 = ct__q_sub(q->p[q->e[q->e[e0].next].head], p0);
    do {
        ct__qv h = q->p[q->e[e].head], d = ct__q_sub(h, tail);
        ct__qreal l = ct__q_len2(d);
        if (l > lmax) { lmax = l; lvec = d; }
        c = ct__q_add(c, h);
        tail = h;
        ++nv;
        e = q->e[e].next;
    } while (e != e0);
    e = q->e[q->e[e0].next].next;
    while (e != e0) {
        ct__qv d1 = d2;
        d2 = ct__q_sub(q->p[q->e[e].head], p0);
        nrm = ct__q_add(nrm, ct__q_cross(d1, d2));
        e = q->e[e].next;
    }
    thin = ct__qh_face_finish(F, nv, c, nrm, lmax);
    if (F->area < CT__QH_SKINNY * lmax && q->accurate) {   /* the fan again, accurately */
        nrm = ct__q_v3(0, 0, 0);
        for (e = q->e[q->e[e0].next].next; e != e0; e = q->e[e].next)
            nrm = ct__q_add(nrm, ct__q_cross_accurate(p0, q->p[q->e[q->e[e].prev].head], q->p[q->e[e].head], NULL));
        thin = ct__qh_face_finish(F, nv, c, nrm, lmax);
    }
    if (thin) ct__qh_face_thin(F, lvec, lmax);
    ct__qh_face_outer(q, f);
}

/* A skinny triangle's geometry again, its normal from ct__q_cross_accurate (rare: kept out of
   ct__qh_triangle's hot path). Returns ct__qh_face_finish's thin flag. */
CT__PRIVATE CT__COLD int ct__qh_face_accurate(ct__qface *F, ct__qv pa, ct__qv pb, ct__qv pc, ct__qreal lmax) {
    return ct__qh_face_finish(F, 3, ct__q_add(ct__q_add(pa, pb), pc), ct__q_cross_accurate(pa, pb, pc, NULL), lmax);
}

CT__INLINE int ct__qh_push_pending(ct__qh_state *q, int f) {
    if (q->f[f].queued) return 1;
    q->f[f].queued = 1;
    return ct__qh_push(q, &q->stack, f);
}

/* Adds point i, at distance d above face f, to f's outside set (at the front), keeping track
   of the farthest point: on ties the later claim wins, as the front of the list would. */
CT__INLINE int ct__qh_claim(ct__qh_state *q, int f, int i, ct__qreal d) {
    ct__qface *F = &q->f[f];
    if (F->outside < 0) { F->outside_tail = i; F->far_point = i; F->far_dist = d; }
    else if (F->far_point >= 0 && d >= F->far_dist) { F->far_point = i; F->far_dist = d; }
    q->pnext[i] = F->outside;
    F->outside = i;
    return ct__qh_push_pending(q, f);
}

/* Moves the whole outside set of face f, and its coplanar set, to the unclaimed list. */
CT__INLINE void ct__qh_release_unclaimed(ct__qh_state *q, int f) {
    ct__qface *F = &q->f[f];
    int i, nx;
    for (i = F->coplanar; i >= 0; i = nx) {
        nx = q->pnext[i];
        q->pnext[i] = q->unclaimed;
        q->unclaimed = i;
    }
    F->coplanar = -1;
    F->ncoplanar = 0;
    if (F->outside < 0) return;
    q->pnext[F->outside_tail] = q->unclaimed;
    q->unclaimed = F->outside;
    F->outside = -1;
}

/* Files point i by its height d above face f: outside (beyond tol), coplanar (within tol of
   the plane: kept, as a later face or a merge can leave it outside), or inside (dropped).
   Returns 0 when out of memory. */
CT__INLINE int ct__qh_file(ct__qh_state *q, int f, int i, ct__qreal d) {
    if (d > q->tol) return ct__qh_claim(q, f, i, d);
    if (d > -q->tol) {
        if (q->f[f].coplanar < 0) q->f[f].coplanar_tail = i;
        q->pnext[i] = q->f[f].coplanar;
        q->f[f].coplanar = i;
        q->f[f].ncoplanar++;
        q->fuzzy = 1;
    }
    return 1;
}

/* The face that x is farthest above found by climbing from face f to the neighbour x is
   farthest above while the distance grows (strictly, so it ends); *dist is that distance. */
CT__PRIVATE int ct__qh_climb(const ct__qh_state *q, int f, ct__qv x, ct__qreal *dist) {
    ct__qreal best = ct__qh_dist(q, f, x);
    for (;;) {
        int e0 = q->f[f].he0, e = e0, up = -1;
        do {
            int g = ct__qh_oppface(q, e);
            ct__qreal d = ct__qh_dist(q, g, x);
            if (d > best) { best = d; up = g; }
            e = q->e[e].next;
        } while (e != e0);
        if (up < 0) break;
        f = up;
    }
    *dist = best;
    return f;
}

/* Files the list of points from i by climbing from face `from` (whose plane moved, or which
   took in the face that held them): a point may have left that plane's outside yet be
   outside a neighbour (a face of the previous hull, not visible from the eye, holds points
   that need not be above any new face). Returns 0 when out of memory. */
CT__PRIVATE int ct__qh_refile(ct__qh_state *q, int i, int from) {
    int nx, g;
    for (; i >= 0; i = nx) {
        ct__qreal d;
        nx = q->pnext[i];
        g = ct__qh_climb(q, from, q->p[i], &d);
        if (!ct__qh_file(q, g, i, ct__qh_above(q, g, q->p[i]))) return 0;
    }
    return 1;
}

/* Refiles the outside and coplanar sets of face f, which `absorb` has taken in (f may be
   `absorb` itself when its plane moved). */
CT__PRIVATE int ct__qh_release_points(ct__qh_state *q, int f, int absorb) {
    int out = q->f[f].outside, coplanar_first = q->f[f].coplanar;
    q->f[f].outside = q->f[f].coplanar = -1;
    q->f[f].ncoplanar = 0;
    return ct__qh_refile(q, out, absorb) && ct__qh_refile(q, coplanar_first, absorb);
}

/* A triangle a -> b -> c (CCW from outside); returns the face, -1 when out of memory.
   Half-edge he0 = he[0] heads at a, he[1] at b, he[2] at c; the caller sets the twins. */
CT__INLINE int ct__qh_triangle(ct__qh_state *q, int a, int b, int c, int *he) {
    int f = ct__qh_new_face(q), e0, e1, e2;
    ct__qedge *E;
    if (f < 0 || (e0 = ct__qh_new_edge(q)) < 0 || (e1 = ct__qh_new_edge(q)) < 0 || (e2 = ct__qh_new_edge(q)) < 0)
        return -1;
    E = q->e;
    E[e0].head = a; E[e0].next = e1; E[e0].prev = e2; E[e0].face = f;
    E[e1].head = b; E[e1].next = e2; E[e1].prev = e0; E[e1].face = f;
    E[e2].head = c; E[e2].next = e0; E[e2].prev = e1; E[e2].face = f;
    q->f[f].he0 = e0;
    he[0] = e0; he[1] = e1; he[2] = e2;
    {   /* ct__qh_face_geometry unrolled for a triangle (same operations, same order) */
        ct__qv pa = q->p[a], pb = q->p[b], pc = q->p[c], d1 = ct__q_sub(pb, pa);
        ct__qreal l0 = ct__q_len2(ct__q_sub(pa, pc)), l1 = ct__q_len2(d1), l2 = ct__q_len2(ct__q_sub(pc, pb));
        ct__qreal lmax = ct__q_max(l2, ct__q_max(l1, l0));    /* branch-free; the first longest on ties */
        int thin = ct__qh_face_finish(&q->f[f], 3, ct__q_add(ct__q_add(pa, pb), pc), ct__q_cross(d1, ct__q_sub(pc, pa)), lmax);
        if (q->f[f].area < CT__QH_SKINNY * lmax && q->accurate) thin = ct__qh_face_accurate(&q->f[f], pa, pb, pc, lmax);
        if (thin)
            ct__qh_face_thin(&q->f[f], l1 > l0 ? (l2 > l1 ? ct__q_sub(pc, pb) : d1) : (l2 > l0 ? ct__q_sub(pc, pb) : ct__q_sub(pa, pc)), lmax);
        /* ct__qh_face_outer unrolled */
        q->f[f].out = q->f[f].off + ct__q_max(ct__q_max(0, ct__qh_dist(q, f, pa)),
                                              ct__q_max(ct__qh_dist(q, f, pb), ct__qh_dist(q, f, pc)));
    }
    return f;
}

/* The initial tetrahedron from extreme points. CT_DEGENERATE when the points do not span 3D
   beyond the tolerance. */
CT__PRIVATE ct_status ct__qh_simplex(ct__qh_state *q) {
    const ct__qv *p = q->p;
    int n = q->n, i, k, v[4], ax = 0, f[4], ok, accurate;
    const int *imin = q->imin, *imax = q->imax;   /* extreme points, found with the bounding box */
    ct__qreal best = -1, spread, d;
    ct__qv u, nrm;
    for (k = 0; k < 3; ++k) {
        spread = ct__q_vget(p[imax[k]], k) - ct__q_vget(p[imin[k]], k);
        if (spread > best) { best = spread; ax = k; }
    }
    if (!(best > CT__QH_SPAN * q->tol)) return CT_DEGENERATE;
    v[0] = imin[ax]; v[1] = imax[ax];
    u = ct__q_normalize(ct__q_sub(p[v[1]], p[v[0]]), NULL);
    best = -1; v[2] = -1;
    for (i = 0; i < n; ++i) {
        d = ct__q_len2(ct__q_cross(u, ct__q_sub(p[i], p[v[0]])));
        if (d > best) { best = d; v[2] = i; }
    }
    if (!(ct__q_sqrt(best) > CT__QH_SPAN * q->tol)) return CT_DEGENERATE;
    accurate = 0;
    if (q->accurate) nrm = ct__q_cross_accurate(p[v[0]], p[v[1]], p[v[2]], &accurate);
    /* overflowed (the extent near the largest double): the unit edge's product, as rounded */
    nrm = ct__q_normalize(accurate ? nrm : ct__q_cross(u, ct__q_sub(p[v[2]], p[v[0]])), &ok);
    if (!ok) return CT_DEGENERATE;
    best = -1; v[3] = -1;
    for (i = 0; i < n; ++i) {
        d = ct__q_abs(ct__q_dot(nrm, ct__q_sub(p[i], p[v[0]])));
        if (d > best) { best = d; v[3] = i; }
    }
    /* The normal, from ct__q_cross_accurate, is good to a few eps also for a sliver triangle
       (a plain cross product is uncertain by ~eps |e1| |e2| / |e1 x e2|: a tetrahedron 1e-9
       thick and 4 long was CT_DEGENERATE under that allowance): a height counts above the
       tolerance plus a tilt of CT__QH_TILT over its own length (over the plain product's
       uncertainty when the accurate one overflowed). */
    if (v[3] < 0) return CT_DEGENERATE;   /* no finite height */
    {
        ct__qv e1 = ct__q_sub(p[v[1]], p[v[0]]), e2 = ct__q_sub(p[v[2]], p[v[0]]), e3 = ct__q_sub(p[v[3]], p[v[0]]);
        ct__qreal area2 = accurate ? 0 : ct__q_len(ct__q_cross(e1, e2));
        ct__qreal tilt = accurate ? CT__QH_TILT * ct__q_len(e3)
                       : area2 > 0 ? CT__QH_TILT * ct__q_len(e1) * ct__q_len(e2) * ct__q_len(e3) / area2 : CT__QMAX;
        if (!(best > CT__QH_SPAN * q->tol + tilt)) return CT_DEGENERATE;
        q->height = best;
        q->centre = ct__q_scale(ct__q_add(ct__q_add(p[v[0]], p[v[1]]), ct__q_add(p[v[2]], p[v[3]])), (ct__qreal)0.25);
    }
    /* four faces, each oriented away from the vertex it omits. The orientation of face k is
       the sign of the ordered tetrahedron tri[k], which is +-det by the parity of tri[k]. All
       four come from one sign, the side of v3 against the plane (v0, v1, v2) that the height
       test above has just certified: testing each face on its own let rounding orient a
       sliver's faces inconsistently (half-edges without twins), and a determinant of the
       edge vectors can have the wrong sign where the height is still certain. */
    {
        static const int tri[4][4] = { { 0, 1, 2, 3 }, { 0, 1, 3, 2 }, { 0, 2, 3, 1 }, { 1, 2, 3, 0 } };
        static const int parity[4] = { 1, -1, 1, -1 };
        int he[4][4], a, b;   /* he[u][w]: the half-edge from simplex vertex u to w; its twin is he[w][u] */
        ct__qreal det = ct__q_dot(nrm, ct__q_sub(p[v[3]], p[v[0]]));   /* sign of det(v1-v0, v2-v0, v3-v0) */
        for (k = 0; k < 4; ++k) {
            int l0 = tri[k][0], l1 = tri[k][1], l2 = tri[k][2], te[3];
            if (parity[k] * det > 0) { int t = l1; l1 = l2; l2 = t; }
            if ((f[k] = ct__qh_triangle(q, v[l0], v[l1], v[l2], te)) < 0) return CT_NO_MEMORY;
            he[l2][l0] = te[0];
            he[l0][l1] = te[1];
            he[l1][l2] = te[2];
        }
        for (a = 0; a < 4; ++a)
            for (b = 0; b < 4; ++b)
                if (a != b) q->e[he[a][b]].twin = he[b][a];
    }
    /* every other point goes to the face it is farthest outside of */
    {
        ct__qreal pl[16];
        for (k = 0; k < 4; ++k) {
            pl[4 * k] = q->f[f[k]].n.x; pl[4 * k + 1] = q->f[f[k]].n.y; pl[4 * k + 2] = q->f[f[k]].n.z;
            pl[4 * k + 3] = q->f[f[k]].out;
        }
        int cut[5], a, b, seg;   /* the runs of points between the simplex vertices (sorted) */
        for (a = 0; a < 4; ++a) cut[a] = v[a];
        for (a = 1; a < 4; ++a)
            for (b = a; b > 0 && cut[b - 1] > cut[b]; --b) { int t = cut[b]; cut[b] = cut[b - 1]; cut[b - 1] = t; }
        cut[4] = n;
        for (seg = 0, i = 0; seg < 5; i = cut[seg++] + 1)
            for (; i < cut[seg]; ++i) {
                ct__qv x = p[i];
                int bf = -1;
                ct__qreal bd = -q->tol;
                for (k = 0; k < 4; ++k) {
                    d = pl[4 * k] * x.x + pl[4 * k + 1] * x.y + pl[4 * k + 2] * x.z - pl[4 * k + 3];
                    if (d > bd) { bd = d; bf = k; }
                }
                if (bf >= 0 && !ct__qh_file(q, f[bf], i, bd)) return CT_NO_MEMORY;
            }
    }
    return CT_OK;
}

/* 1 when face f, across half-edge e of a visible face, is visible from eye: above it by more
   than tol; or, with `fold`, above its outer plane at all, or within tol of it while the cone
   triangle over e would face against f (the triangle would fold back over f). Without these,
   a tolerance-coplanar neighbour leaves a steep or flipped new face that cuts off far points.
   Counted in q->folds. */
CT__INLINE int ct__qh_sees(ct__qh_state *q, int f, int e, ct__qv eye, int fold) {
    ct__qreal d = ct__qh_dist(q, f, eye);
    if (d > q->tol) return 1;
    if (!fold || !(d > -q->tol)) return 0;
    if (!(ct__qh_above(q, f, eye) > 0)) {
        ct__qv t = q->p[ct__qh_tail(q, e)], h = q->p[q->e[e].head];
        ct__qv n = ct__q_cross(ct__q_sub(t, eye), ct__q_sub(h, eye));
        if (!(ct__q_dot(n, q->f[f].n) < 0)) return 0;
    }
    q->folds++;
    q->fuzzy = 1;
    return 1;
}

/* 1 when the horizon is one simple loop whose cone has no degenerate triangle: consecutive
   half-edges meet, no vertex repeats and the eye is beyond tol from every edge's line (a face
   taken in by the fold rule can leave a hole or a pinch in the visible region, or put the eye
   in line with a horizon edge). */
CT__PRIVATE int ct__qh_horizon_simple(ct__qh_state *q) {
    int k, n = q->horizon.n, ok = 1;
    ct__qv eye = q->p[q->eye];
    for (k = 0; k < n && ok; ++k) {
        int h = q->horizon.a[k], v = q->e[h].head;
        ct__qv a = q->p[ct__qh_tail(q, h)], b = q->p[v];
        ok = v == ct__qh_tail(q, q->horizon.a[k + 1 < n ? k + 1 : 0]) && q->vseen[v] != q->eye &&
             ct__q_len(ct__q_cross(ct__q_sub(a, eye), ct__q_sub(b, eye))) > q->tol * ct__q_len(ct__q_sub(b, a));
        q->vseen[v] = q->eye;
    }
    for (k = 0; k < n; ++k) q->vseen[q->e[q->horizon.a[k]].head] = -1;
    return ok;
}

/* Depth-first search over the faces visible from `eye` starting at f0 (visible). Marks them
   deleted (the caller releases their points), lists them in q->dead and records the horizon
   half-edges (on the visible side) in order around the eye. Iterative, so deep searches cannot overflow. */
CT__PRIVATE int ct__qh_horizon(ct__qh_state *q, ct__qv eye, int f0, int fold) {
    /* frame: the next half-edge to look across and the half-edge that ends the loop (the one
       we came in by; for f0 its first edge, looked at first). A frame is popped when its last
       edge is taken, before a child is pushed, which keeps the horizon in order. */
    int sp = 0, *st;
    q->horizon.n = q->dead.n = 0;
    q->f[f0].mark = CT__QF_DELETED;
    if (!ct__qh_push(q, &q->dead, f0)) return 0;
    st = q->dfs.a;
    st[0] = st[1] = q->f[f0].he0;
    sp = 2;
    while (sp > 0) {
        int e = st[sp - 2], nx = q->e[e].next, tw = q->e[e].twin, of = q->e[tw].face, mk = q->f[of].mark;
        if (nx == st[sp - 1]) sp -= 2;
        else st[sp - 2] = nx;
        if (mk != CT__QF_VISIBLE && mk != CT__QF_NONCONVEX) continue;
        if (ct__qh_sees(q, of, e, eye, fold)) {
            q->f[of].mark = CT__QF_DELETED;
            if (!ct__qh_push(q, &q->dead, of)) return 0;
            /* continue around `of` after the edge we came in by, stopping at it */
            if (sp + 2 > q->dfs.cap) {
                q->dfs.n = sp;
                if (!ct__qh_push_slow(q, &q->dfs, 0) || !ct__qh_push(q, &q->dfs, 0)) return 0;
                st = q->dfs.a;
            }
            st[sp] = q->e[tw].next;
            st[sp + 1] = tw;
            sp += 2;
        } else if (!ct__qh_push(q, &q->horizon, e)) return 0;
    }
    return 1;
}

/* Cone of new triangles from the eye to the horizon. */
CT__PRIVATE int ct__qh_cone(ct__qh_state *q, int eye) {
    int k, first_side = -1, prev_side = -1;
    q->newf.n = 0;
    for (k = 0; k < q->horizon.n; ++k) {
        int h = q->horizon.a[k], tw = q->e[h].twin, te[3], e0, e1, e2;
        int f = ct__qh_triangle(q, eye, ct__qh_tail(q, h), q->e[h].head, te);
        if (f < 0) return 0;
        e0 = te[0]; e1 = te[1]; e2 = te[2];
        /* e2 runs tail->head of the horizon edge: it faces the surviving neighbour */
        q->e[e2].twin = tw; q->e[tw].twin = e2;
        if (prev_side >= 0) { q->e[e1].twin = prev_side; q->e[prev_side].twin = e1; }
        else first_side = e1;
        prev_side = e0;
        if (!ct__qh_push(q, &q->newf, f)) return 0;
    }
    q->e[first_side].twin = prev_side;
    q->e[prev_side].twin = first_side;
    return 1;
}

/* Distance of the centroid of the face across e from the plane of e's face. */
CT__INLINE ct__qreal ct__qh_oppdist(const ct__qh_state *q, int e) {
    return ct__qh_dist(q, q->e[e].face, q->f[ct__qh_oppface(q, e)].c);
}

/* Joins the loop at vertex head(prev) where prev -> e; removes a redundant edge when both
   run along the same neighbour. Returns a face that disappeared, or -1; *moved is set to a
   neighbour whose loop (and plane) changed. */
CT__PRIVATE int ct__qh_connect(ct__qh_state *q, int f, int prev, int e, int *moved) {
    int gone = -1;
    if (ct__qh_oppface(q, prev) == ct__qh_oppface(q, e)) {
        int of = ct__qh_oppface(q, e), eo;
        int t1 = q->e[e].twin;
        if (q->f[f].he0 == prev) q->f[f].he0 = e;
        if (q->f[of].nv == 3) {
            int t2 = q->e[t1].next, t3 = q->e[t1].prev;
            eo = q->e[t3].twin;
            q->f[of].mark = CT__QF_DELETED;
            gone = of;
            ct__qh_free_edge(q, t1); ct__qh_free_edge(q, t2); ct__qh_free_edge(q, t3);
        } else {
            eo = q->e[t1].next;
            if (q->f[of].he0 == t1) q->f[of].he0 = eo;
            q->e[eo].prev = q->e[t1].prev;
            q->e[q->e[eo].prev].next = eo;
            ct__qh_free_edge(q, t1);
        }
        q->e[e].prev = q->e[prev].prev;
        q->e[q->e[e].prev].next = e;
        ct__qh_free_edge(q, prev);
        q->e[e].twin = eo;
        q->e[eo].twin = e;
        if (gone < 0) { ct__qh_face_geometry(q, of); *moved = of; }
    } else {
        q->e[prev].next = e;
        q->e[e].prev = prev;
    }
    return gone;
}

/* Files the coplanar set of face f again (its plane moved), by climbing from f, when it holds
   at most CT__QH_REFILE_MAX points; a larger set is left to the last sweep. 0: out of memory. */
CT__PRIVATE int ct__qh_refile_coplanar(ct__qh_state *q, int f) {
    int first = q->f[f].coplanar;
    if (q->f[f].ncoplanar > CT__QH_REFILE_MAX) return 1;
    q->f[f].coplanar = -1;
    q->f[f].ncoplanar = 0;
    return ct__qh_refile(q, first, f);
}

/* Merges the face across half-edge `adj` into face f. Faces that disappear are deleted and
   their outside points handed to f. Returns 0 when out of memory. */
CT__PRIVATE int ct__qh_merge(ct__qh_state *q, int f, int adj, int keep) {
    int of = ct__qh_oppface(q, adj), opp = q->e[adj].twin;
    int aprev = q->e[adj].prev, anext = q->e[adj].next;
    int oprev = q->e[opp].prev, onext = q->e[opp].next;
    int e, gone[3], ng = 0, k, moved[2] = { -1, -1 }, nv = q->f[f].nv;
    ct__qface *F;
    ct__qv csum = q->f[f].csum;
    ct__qreal top = -CT__QMAX, area = q->f[of].area;
    gone[ng++] = of;
    q->f[of].mark = CT__QF_DELETED;
    q->fuzzy = 1;
    while (ct__qh_oppface(q, aprev) == of) { aprev = q->e[aprev].prev; onext = q->e[onext].next; }
    while (ct__qh_oppface(q, anext) == of) { oprev = q->e[oprev].prev; anext = q->e[anext].next; }
    for (e = onext; e != q->e[oprev].next; e = q->e[e].next) {
        q->e[e].face = f;
        if (keep) {   /* of's part of the merged loop: its vertices are the heads of its edges */
            ct__qv x = q->p[q->e[e].head];
            csum = ct__q_add(csum, x);
            top = ct__q_max(top, ct__q_dot(q->f[f].n, x));
            ++nv;
        }
    }
    /* the shared runs die (f's run: the heads of its edges leave f's loop) */
    for (e = q->e[aprev].next; e != anext;) {
        int nx = q->e[e].next;
        if (keep) { csum = ct__q_sub(csum, q->p[q->e[e].head]); --nv; }
        ct__qh_free_edge(q, e);
        e = nx;
    }
    for (e = q->e[oprev].next; e != onext;) { int nx = q->e[e].next; ct__qh_free_edge(q, e); e = nx; }
    q->f[f].he0 = anext;
    /* both junctions are linked before either is cleaned up: when one face keeps a single
       edge, the clean-up at one junction reads that edge's other end. A junction whose two
       edges run along one neighbour loses its vertex (ct__qh_connect). */
    q->e[oprev].next = anext; q->e[anext].prev = oprev;
    q->e[aprev].next = onext; q->e[onext].prev = aprev;
    if (keep && ct__qh_oppface(q, oprev) == ct__qh_oppface(q, anext)) { csum = ct__q_sub(csum, q->p[q->e[oprev].head]); --nv; }
    k = ct__qh_connect(q, f, oprev, anext, &moved[0]);
    if (k >= 0) gone[ng++] = k;
    if (keep && ct__qh_oppface(q, aprev) == ct__qh_oppface(q, q->e[aprev].next)) { csum = ct__q_sub(csum, q->p[q->e[aprev].head]); --nv; }
    k = ct__qh_connect(q, f, aprev, q->e[aprev].next, &moved[1]);   /* onext, unless just removed */
    if (k >= 0) gone[ng++] = k;
    F = &q->f[f];
    if (keep && nv <= 2 * F->fit) {
        /* a small coplanar face taken into a big one (ct__qh_adjacent_merge): the plane's
           normal is kept and the rest updated from the small face's vertices alone, so merging
           into a face of m vertices costs O(1), not O(m); the plane is fitted again (below)
           each time the loop has doubled since its last fit. With the normal kept, the outer
           offset is the larger of the old one and the new vertices' heights (ct__qh_face_outer
           over the loop, the residuals of the old vertices being unchanged). */
        F->nv = nv;
        F->csum = csum;
        F->c = ct__q_scale(csum, (ct__qreal)1 / (ct__qreal)nv);
        F->area += area;
        F->off = ct__q_dot(F->n, F->c);
        F->out = ct__q_max(F->out, ct__q_max(F->off, top));
        F->far_point = -1;
        if (!F->grown) {
            F->grown = 1;
            if (!ct__qh_push(q, &q->grown, f)) return 0;
        }
    } else {
        ct__qh_face_geometry(q, f);
    }
    /* Coplanar points of faces whose plane moved, and of the faces that disappear, are
       filed again by climbing (outside points are rescanned when the face is next taken:
       far_point was reset) - unless the set is large (CT__QH_REFILE_MAX): then it stays
       where it is, or joins f's set whole (spliced, O(1)), and the last sweep
       (ct__qh_sweep) climbs each point to the face it is farthest above and claims any left
       outside. Filing large sets again cost O(m) per merge into a big face, O(m^2) in all
       for a face holding m coplanar points (1e5 points on a cube's surface). */
    if (!ct__qh_refile_coplanar(q, f)) return 0;
    for (k = 0; k < 2; ++k)
        if (moved[k] >= 0 && q->f[moved[k]].mark <= CT__QF_NONCONVEX && !ct__qh_refile_coplanar(q, moved[k])) return 0;
    for (k = 0; k < ng; ++k) {
        ct__qface *G = &q->f[gone[k]], *F = &q->f[f];
        if (G->ncoplanar > CT__QH_REFILE_MAX) {
            q->pnext[G->coplanar_tail] = F->coplanar;
            if (F->coplanar < 0) F->coplanar_tail = G->coplanar_tail;
            F->coplanar = G->coplanar;
            F->ncoplanar += G->ncoplanar;
            G->coplanar = -1;
            G->ncoplanar = 0;
        }
        if (!ct__qh_release_points(q, gone[k], f)) return 0;
        if (!ct__qh_push(q, &q->dead, gone[k])) return 0; /* recycled at the end of this step */
        q->f[gone[k]].he0 = -1;               /* its edges were freed or moved */
    }
    return 1;
}

/* 1 when every vertex of face g is within tol of face f's plane (a centroid test alone can
   accept a face whose far corner is well off the plane, and merging it would lose that corner). */
CT__PRIVATE int ct__qh_face_near(const ct__qh_state *q, int f, int g) {
    int e0 = q->f[g].he0, e = e0;
    do {
        if (ct__q_abs(ct__qh_dist(q, f, q->p[q->e[e].head])) > q->tol) return 0;
        e = q->e[e].next;
    } while (e != e0);
    return 1;
}

/* 1 when every face around the head vertex of half-edge `in` has its centroid within tol of
   face f's plane: the vertex is interior to a coplanar patch and merging will remove it. */
CT__PRIVATE int ct__qh_vertex_flat(const ct__qh_state *q, int f, int in) {
    int h = in, guard = 0;
    do {
        int g = q->e[h].face;
        if (g != f && ct__q_abs(ct__qh_dist(q, f, q->f[g].c)) > q->tol) return 0;
        h = q->e[q->e[h].next].twin;
    } while (h != in && ++guard < 1000000);
    return 1;
}

/* 1 when merging the faces across half-edge e (u -> v, on face f) would give a polygon that
   turns the wrong way by more than tol at u or at v while that vertex stays a corner of
   faces that are not coplanar with f (a reflex vertex of a coplanar fan is fine: further
   merges remove it). */
CT__PRIVATE int ct__qh_union_reflex(const ct__qh_state *q, int f, int e) {
    int tw = q->e[e].twin, pe = q->e[e].prev;
    ct__qv n = q->f[f].n;
    ct__qv u = q->p[ct__qh_tail(q, e)], v = q->p[q->e[e].head];
    ct__qv t = q->p[ct__qh_tail(q, pe)];                   /* before u on f */
    ct__qv w = q->p[q->e[q->e[e].next].head];              /* after v on f */
    ct__qv y = q->p[q->e[q->e[tw].next].head];             /* after u on the other face */
    ct__qv x = q->p[ct__qh_tail(q, q->e[tw].prev)];       /* before v on the other face */
    ct__qv s1 = ct__q_cross(n, ct__q_sub(u, t)), s2 = ct__q_cross(n, ct__q_sub(v, x));
    ct__qreal l1 = ct__q_len(s1), l2 = ct__q_len(s2);
    if (l1 > 0 && ct__q_dot(s1, ct__q_sub(y, u)) < -q->tol * l1 && !ct__qh_vertex_flat(q, f, pe)) return 1;
    if (l2 > 0 && ct__q_dot(s2, ct__q_sub(w, v)) < -q->tol * l2 && !ct__qh_vertex_flat(q, f, e)) return 1;
    return 0;
}

/* One merge of face f with a neighbour that is not convex by more than tol.
   strict = 0: only with respect to the larger face (first pass); 1: either way.
   Returns 1 merged, 0 none, -1 out of memory. */
/* 1 when every edge of face f borders face of: the two faces close a zero-volume pillow (a
   needle's rounding can fold a new face back onto its neighbour). Merging them has no
   boundary left to splice, and the walk to the ends of the shared run would not stop. The
   walk stops at the first edge that borders another face: O(1) but for pillows. */
CT__PRIVATE int ct__qh_pillow(const ct__qh_state *q, int f, int of) {
    int e0 = q->f[f].he0, e = e0;
    do {
        if (ct__qh_oppface(q, e) != of) return 0;
        e = q->e[e].next;
    } while (e != e0);
    return 1;
}

/* 1 unless faces f and of (neither a pillow on the other) meet along one chain of edges and
   nowhere else, as ct__qh_merge needs: it splices one chain. Faces that meet along two chains,
   or also at a vertex off their chain (a triangle with two edges on one and one on the other),
   would leave edges whose twins are in the merged face (seen on 5e4-1e5 points within 1e-13
   of a cube's surface: a later merge's walk never ended, or a climb read a freed edge). Both
   conditions are symmetric, so the smaller face is walked: a vertex off the chain is looked
   for around its fan, and one chain of edges in a simple polygon is one chain in the other. */
CT__PRIVATE int ct__qh_tangled(const ct__qh_state *q, int f, int of) {
    int g = q->f[f].nv <= q->f[of].nv ? f : of, o = g == f ? of : f;
    int e0 = q->f[g].he0, e = e0, runs = 0, before = ct__qh_oppface(q, q->e[e0].prev) == o;
    do {
        int nx = q->e[e].next, on = ct__qh_oppface(q, e) == o;
        runs += on && !before;
        before = on;
        if (!on && ct__qh_oppface(q, nx) != o) {   /* head(e) is off the chain: is it a vertex of o? */
            int h = e, guard = 0;
            do {
                if (q->e[h].face == o) return 1;
                h = q->e[q->e[h].next].twin;
            } while (h != e && ++guard < q->n);
        }
        e = nx;
    } while (e != e0);
    return runs != 1;
}

CT__PRIVATE int ct__qh_adjacent_merge(ct__qh_state *q, int f, int strict) {
    int e0 = q->f[f].he0, e = e0, convex = 1;
    ct__qreal tol = q->tol, off = q->f[f].off;
    ct__qv n = q->f[f].n, c = q->f[f].c;
    do {
        int of = ct__qh_oppface(q, e);
        const ct__qface *O = &q->f[of];
        ct__qreal d1 = ct__q_dot(n, O->c) - off;       /* ct__qh_oppdist(q, e) */
        ct__qreal d2 = ct__q_dot(O->n, c) - O->off;    /* ct__qh_oppdist(q, twin of e) */
        if ((d1 > -tol || d2 > -tol) && of != f) {   /* otherwise clearly convex both ways */
            int merge = 0, big;
            if (strict) merge = 1;
            else if (q->f[f].area > O->area) {
                if (d1 > -tol) merge = 1;
                else convex = 0;
            } else {
                if (d2 > -tol) merge = 1;
                else convex = 0;
            }
            /* a merge of merely coplanar faces (not a repair of a concave edge) must leave a
               convex polygon. A face at least CT__QH_BIG vertices and twice f's takes f in and
               keeps its plane (ct__qh_merge's O(1) path): f's vertices must lie within tol of
               it; otherwise the merged face's plane is fitted again and every vertex of the
               other face must lie within tol of f's. */
            big = merge && d1 <= tol && d2 <= tol && O->nv >= CT__QH_BIG && O->nv >= 2 * q->f[f].nv && !O->thin;
            if (merge && d1 <= tol && d2 <= tol &&
                (!(big ? ct__qh_face_near(q, of, f) : ct__qh_face_near(q, f, of)) || ct__qh_union_reflex(q, f, e))) merge = 0;
            if (merge && (ct__qh_pillow(q, f, of) || ct__qh_pillow(q, of, f) || ct__qh_tangled(q, f, of))) merge = 0;
            if (merge && big) return ct__qh_merge(q, of, q->e[e].twin, 1) ? 2 : -1;
            if (merge) return ct__qh_merge(q, f, e, 0) ? 1 : -1;
        }
        e = q->e[e].next;
    } while (e != e0);
    if (!convex) q->f[f].mark = CT__QF_NONCONVEX;
    return 0;
}

/* Files the unclaimed points by the new face they are farthest above (the first one far
   outside ends the search). The planes of the surviving new faces are packed first, so
   the loop over points reads one small array. */
CT__PRIVATE int ct__qh_resolve(ct__qh_state *q) {
    int i = q->unclaimed, nx, k, m = 0, last = 0;
    ct__qreal far = CT__QH_FAR * q->tol;
    q->unclaimed = -1;
    if (i < 0) return 1;
    {   /* a single point to place (besides the eye): scan the new faces directly, in the
           same order and with the same arithmetic as the packed scan from index 0 */
        int only = i == q->eye ? q->pnext[i] : i, rest;
        if (only < 0) return 1;
        rest = q->pnext[only];
        if (rest == q->eye) rest = q->pnext[rest];
        if (rest < 0) {
            ct__qv x = q->p[only];
            ct__qreal bd = -q->tol;
            int bf = -1;
            for (k = 0; k < q->newf.n; ++k) {
                int f = q->newf.a[k];
                ct__qreal d;
                if (q->f[f].mark != CT__QF_VISIBLE) continue;
                d = q->f[f].n.x * x.x + q->f[f].n.y * x.y + q->f[f].n.z * x.z - q->f[f].out;
                if (d > bd) { bd = d; bf = f; if (d > far) break; }
            }
            return bf < 0 || ct__qh_file(q, bf, only, bd);
        }
    }
    if (q->newf.n > q->packed_cap) {
        int cap = 2 * q->newf.n;
        q->packed = CT__SALLOC(q->s, ct__qreal, 8 * cap);
        q->packed_face = CT__SALLOC(q->s, int, cap);
        if (!q->packed || !q->packed_face) return 0;
        q->packed_cap = cap;
    }
    for (k = 0; k < q->newf.n; ++k) {
        int f = q->newf.a[k];
        if (q->f[f].mark != CT__QF_VISIBLE) continue;
        q->packed[4 * m] = q->f[f].n.x; q->packed[4 * m + 1] = q->f[f].n.y; q->packed[4 * m + 2] = q->f[f].n.z;
        q->packed[4 * m + 3] = q->f[f].out;
        q->packed_face[m++] = f;
    }
    memcpy(q->packed + 4 * m, q->packed, (size_t)(4 * m) * sizeof(ct__qreal));   /* so a scan never wraps */
    /* the scan starts at the face that took the previous point: consecutive points of an
       outside set are close, so it is usually the one */
    for (; i >= 0; i = nx) {
        const ct__qreal *h = q->packed + 4 * last;
        ct__qv x;
        ct__qreal bd = -q->tol;
        int bf = -1;
        nx = q->pnext[i];
        if (i == q->eye) continue;   /* the new vertex itself */
        x = q->p[i];
        for (k = 0; k < m; ++k, h += 4) {
            ct__qreal d = h[0] * x.x + h[1] * x.y + h[2] * x.z - h[3];
            if (d > bd) { bd = d; bf = k; if (d > far) break; }
        }
        if (bf >= 0) {
            bf += last;
            if (bf >= m) bf -= m;
            last = bf;
            if (!ct__qh_file(q, q->packed_face[bf], i, bd)) return 0;
        }
    }
    return 1;
}

/* The last check of the coplanar points: each climbs from its face, and one now outside a face
   (made later next to it, or tilted by a merge) is claimed. Returns the number claimed, -1
   when out of memory. */
CT__PRIVATE int ct__qh_sweep(ct__qh_state *q) {
    int f, i, nx, g, claimed = 0;
    for (f = 0; f < q->nf; ++f) {
        if (q->f[f].mark != CT__QF_VISIBLE && q->f[f].mark != CT__QF_NONCONVEX) continue;
        i = q->f[f].coplanar;
        q->f[f].coplanar = -1;
        q->f[f].ncoplanar = 0;
        for (; i >= 0; i = nx) {
            ct__qreal d;
            nx = q->pnext[i];
            g = ct__qh_climb(q, f, q->p[i], &d);
            d = ct__qh_above(q, g, q->p[i]);
            claimed += d > q->tol;
            if (!ct__qh_file(q, g, i, d)) return -1;
        }
    }
    return claimed;
}

/* Adds the farthest outside point of face f. */
CT__PRIVATE ct_status ct__qh_add(ct__qh_state *q, int f) {
    int i, best = q->f[f].far_point, k, r;
    if (best < 0) {   /* the plane moved since the points were claimed: scan */
        ct__qreal bd = q->tol;
        for (i = q->f[f].outside; i >= 0; i = q->pnext[i]) {
            ct__qreal d = ct__qh_above(q, f, q->p[i]);
            if (d > bd) { bd = d; best = i; }
        }
        if (best < 0)   /* none is outside f any more; a point may be outside a neighbour */
            return ct__qh_release_points(q, f, f) ? CT_OK : CT_NO_MEMORY;
    }
    /* the eye stays in f's outside set, which goes to the unclaimed list with f; the
       reassignment skips it */
    q->eye = best;
    q->unclaimed = -1;
    q->folds = 0;
    if (!ct__qh_horizon(q, q->p[best], f, 1)) return CT_NO_MEMORY;
    if (q->folds && !ct__qh_horizon_simple(q)) {   /* again without the fold rule */
        for (k = 0; k < q->dead.n; ++k) q->f[q->dead.a[k]].mark = CT__QF_VISIBLE;
        if (!ct__qh_horizon(q, q->p[best], f, 0)) return CT_NO_MEMORY;
    }
    for (k = 0; k < q->dead.n; ++k) ct__qh_release_unclaimed(q, q->dead.a[k]);
    if (!ct__qh_cone(q, best)) return CT_NO_MEMORY;
    for (k = 0; k < q->newf.n; ++k) {
        int nf = q->newf.a[k];
        if (q->f[nf].mark != CT__QF_VISIBLE) continue;
        while ((r = ct__qh_adjacent_merge(q, nf, 0)) == 1) {}   /* 2: nf was taken into a big face */
        if (r < 0) return CT_NO_MEMORY;
    }
    for (k = 0; k < q->newf.n; ++k) {
        int nf = q->newf.a[k];
        if (q->f[nf].mark != CT__QF_NONCONVEX) continue;
        q->f[nf].mark = CT__QF_VISIBLE;
        while ((r = ct__qh_adjacent_merge(q, nf, 1)) == 1) {}
        if (r < 0) return CT_NO_MEMORY;
    }
    /* the old faces that took new ones in are new surface too: the points to place may be
       above them */
    for (k = 0; k < q->grown.n; ++k) {
        int g = q->grown.a[k];
        q->f[g].grown = 0;
        if (q->f[g].mark <= CT__QF_NONCONVEX && !ct__qh_push(q, &q->newf, g)) return CT_NO_MEMORY;
    }
    q->grown.n = 0;
    if (!ct__qh_resolve(q)) return CT_NO_MEMORY;
    /* recycle the faces (and half-edges of the visible faces) deleted in this step */
    for (k = 0; k < q->dead.n; ++k) {
        int vf = q->dead.a[k], e0 = q->f[vf].he0;
        if (e0 >= 0) {   /* the loop, cut before e0, goes whole onto the free list */
            q->e[q->e[e0].prev].next = q->freee;
            q->freee = e0;
        }
        ct__qh_free_face(q, vf);
    }
    q->dead.n = 0;
    return CT_OK;
}

/* The cheap check of an output face F with plane pl: the simplex centre (inside the hull)
   below the plane (a face flipped on a near-coplanar patch has it above); the polygon turning
   left at each vertex within bound; and the highest hull vertex along the normal within bound
   of the plane, found by climbing the vertex graph from the face's first vertex (a face whose
   own vertices are highest stops after one ring, so the cost is about the sum of the vertex
   degrees over the faces) and again from each seed (half-edges into the input's axis-extreme
   points) that is not clearly lower. The climb can stall on a patch flat to rounding: hull
   vertices only, and heuristic there; ct__qh_verify is the full check. */
CT__PRIVATE void ct__qh_uphill(const ct__qh_state *q, ct__qv nr, int e, ct__qreal *best) {
    int up;
    do {   /* e heads into the current vertex; strictly uphill, so it ends */
        int h = e, guard = 0;
        up = -1;
        do {   /* the half-edges into the vertex: h, twin(next(h)), ... */
            ct__qreal d = ct__q_dot(nr, q->p[ct__qh_tail(q, h)]);
            if (d > *best) { *best = d; up = q->e[h].twin; }
            h = q->e[q->e[h].next].twin;
        } while (h != e && ++guard < q->n);
        if (up >= 0) e = up;
    } while (up >= 0);
}
CT__PRIVATE int ct__qh_face_ok(const ct__qh_state *q, const ct__qface *F, ct_plane pl, ct__qv centre, ct__qreal bound,
                               const int *seed, int nseed) {
    ct__qv nr = ct__q_of(pl.n);
    ct__qreal lim = bound - (ct__qreal)pl.d, best;
    int e0 = F->he0, e = e0, k;
    if (ct__q_dot(nr, centre) > lim) return 0;
    if (F->nv > 3) do {   /* left turns: u -> w -> x (a triangle's normal is its own turn) */
        int en = q->e[e].next;
        ct__qv u = q->p[ct__qh_tail(q, e)], w = q->p[q->e[e].head], x = q->p[q->e[en].head], d = ct__q_sub(w, u);
        if (ct__q_dot(ct__q_cross(nr, d), ct__q_sub(x, u)) < -bound * ct__q_len(d)) return 0;
        e = en;
    } while (e != e0);
    best = ct__q_dot(nr, q->p[q->e[e0].head]);
    ct__qh_uphill(q, nr, e0, &best);
    for (k = 0; k < nseed && best <= lim; ++k)
        if (ct__q_dot(nr, q->p[q->e[seed[k]].head]) > best - bound) ct__qh_uphill(q, nr, seed[k], &best);
    return best <= lim;
}

/* Plane of the polygon loop idx[0..m) of points pq (working precision) or, when pq is NULL,
   pr: the unit sum of fan cross products from the first vertex (exact orientation,
   translation-free; each product accurate to its own size when the loop is skinny) rounded to
   ct_real, and the offset, for that rounded normal, that puts every vertex on or below the
   plane. fallback: the normal of a zero-area loop. */
CT__PRIVATE ct_plane ct__polygon_plane(const ct__qv *pq, const ct_vec3 *pr, const int *idx, int m, ct_vec3 fallback) {
#define CT__QH_PT(k) (pq ? pq[idx[k]] : ct__q_of(pr[idx[k]]))
    ct__qv p0 = CT__QH_PT(0), nrm = ct__q_v3(0, 0, 0), n;
    ct__qreal dmax = -CT__QMAX, l2 = 0;
    ct_plane pl;
    int k, ok;
    for (k = 1; k + 1 < m; ++k) {
        ct__qv d = ct__q_sub(CT__QH_PT(k), p0);
        nrm = ct__q_add(nrm, ct__q_cross(d, ct__q_sub(CT__QH_PT(k + 1), p0)));
        l2 = ct__q_max(l2, ct__q_len2(d));
    }
    if (m > 2) l2 = ct__q_max(l2, ct__q_len2(ct__q_sub(CT__QH_PT(m - 1), p0)));
    if (ct__q_len2(nrm) < CT__QH_SKINNY * CT__QH_SKINNY * l2 * l2) {
        nrm = ct__q_v3(0, 0, 0);
        for (k = 1; k + 1 < m; ++k) nrm = ct__q_add(nrm, ct__q_cross_accurate(p0, CT__QH_PT(k), CT__QH_PT(k + 1), NULL));
    }
    pl.n = ct__q_out(ct__q_normalize(nrm, &ok));
    if (!ok) pl.n = fallback;
    n = ct__q_of(pl.n);
    /* offsets relative to p0, so points far from the origin keep their precision */
    for (k = 0; k < m; ++k) dmax = ct__q_max(dmax, ct__q_dot(n, ct__q_sub(CT__QH_PT(k), p0)));
    pl.d = (ct_real) - (dmax + ct__q_dot(n, p0));
    return pl;
#undef CT__QH_PT
}

/* The result of ct__quickhull: arrays in the scratch, indices into the input points. */
typedef struct ct__qh_result {
    int nverts;
    int *verts;        /* input index of each hull vertex */
    int nfaces;
    int *face_first;   /* nfaces + 1 offsets */
    int *face_verts;   /* input indices, CCW from outside */
    ct_plane *planes;  /* in the input's coordinates */
    int *face_local;   /* face_verts as indices into verts (0 .. nverts-1) */
    int *he_twin;      /* twin of each face_verts slot, as in ct_hull */
    ct__qreal tol;     /* the tolerance it was built with */
    ct__qreal unit;    /* the length desc->eps is relative to (ct__qh_tolerance) */
    int thin;          /* the simplex is under CT__QH_THIN tolerances high: the set may be that thin */
    int ok;            /* every face passed ct__qh_face_ok (or none was checked) */
    int fuzzy;         /* a tolerance decision was made (see ct__qh_state) */
    int accurate;      /* built with accurate normals of skinny faces (ct__quickhull's flag) */
} ct__qh_result;

/* Scale of a point set: the tolerance below which distances are noise. Relative to the
   extent of the set, plus the rounding of its absolute coordinates. */
CT__PRIVATE ct__qreal ct__qh_tolerance(ct_vec3 lo, ct_vec3 hi, ct_real eps) {
    ct_vec3 half = ct__scale(ct__sub(hi, lo), (ct_real)0.5);
    ct_real ext = half.x + half.y + half.z;
    ct_real absmax = ct__max(ct__maxabs(lo), ct__maxabs(hi));
    if (eps > 0) return (ct__qreal)(eps * ct__max(ext, CT__EPS * absmax));
    return (ct__qreal)(CT__EPS * (CT__QH_TOL_EXT * ext + CT__QH_TOL_ABS * absmax));
}

/* Quickhull of pts[0..n). CT_INVALID when a point is not finite. */
CT__PRIVATE ct_status ct__quickhull(ct_scratch *s, const ct_vec3 *pts, int n, ct_real eps, int accurate,
                                    ct__qh_result *out) {
    ct__qh_state q;
    ct_vec3 lo, hi;
    int i, f, claimed, nv, nfo, nfv;
    ct_status st;
    memset(out, 0, sizeof *out);
    if (n < 4) return CT_DEGENERATE;
    memset(&q, 0, sizeof q);
    q.s = s;
    q.n = n;
    q.freef = q.freee = q.unclaimed = q.eye = -1;
    q.accurate = out->accurate = accurate;
    /* bounding box; x - x is 0 for finite x and NaN for NaN and +-Inf (ct__finite3, cheaper) */
    lo = hi = pts[0];
    for (i = 0; i < 3; ++i) q.imin[i] = q.imax[i] = 0;
    for (i = 0; i < n; ++i) {   /* and the extreme points along each axis (the first on ties) */
        ct_vec3 x = pts[i];
        if ((x.x - x.x) + (x.y - x.y) + (x.z - x.z) != 0) return CT_INVALID;
        if (x.x < lo.x) { lo.x = x.x; q.imin[0] = i; }
        if (x.x > hi.x) { hi.x = x.x; q.imax[0] = i; }
        if (x.y < lo.y) { lo.y = x.y; q.imin[1] = i; }
        if (x.y > hi.y) { hi.y = x.y; q.imax[1] = i; }
        if (x.z < lo.z) { lo.z = x.z; q.imin[2] = i; }
        if (x.z > hi.z) { hi.z = x.z; q.imax[2] = i; }
    }
    q.tol = out->tol = ct__qh_tolerance(lo, hi, eps);
    {
        ct_vec3 half = ct__scale(ct__sub(hi, lo), (ct_real)0.5);
        out->unit = (ct__qreal)ct__max(half.x + half.y + half.z, CT__EPS * ct__max(ct__maxabs(lo), ct__maxabs(hi)));
    }
    /* The points are used as given, not re-centred: centring would round every coordinate once
       more, and in float that alone can turn the short edge between two nearby points (exact
       as given) by far more than the tolerance. The tolerance covers absolute coordinates. */
    q.pnext = CT__SALLOC(s, int, n);
    q.vseen = CT__SALLOC(s, int, n);
    if (!q.pnext || !q.vseen) return CT_NO_MEMORY;
    for (i = 0; i < n; ++i) q.vseen[i] = -1;
    {   /* capacities from n (live faces <= 2n - 4, half-edges <= 3 per face, a horizon <= n):
           small sets never grow; large ones start smaller and double */
        int cf = n < 2048 ? 2 * n + 16 : 4096, cv = n < 256 ? n + 16 : 272;
        q.f = CT__SALLOC(s, ct__qface, cf);
        q.e = CT__SALLOC(s, ct__qedge, 3 * cf);
        q.stack.a = CT__SALLOC(s, int, cf);
        q.horizon.a = CT__SALLOC(s, int, cv);
        q.newf.a = CT__SALLOC(s, int, cv);
        q.dead.a = CT__SALLOC(s, int, cv);
        q.dfs.a = CT__SALLOC(s, int, 3 * cv);
        q.packed = CT__SALLOC(s, ct__qreal, 8 * cv);
        q.packed_face = CT__SALLOC(s, int, cv);
        if (!q.f || !q.e || !q.stack.a || !q.horizon.a || !q.newf.a || !q.dead.a || !q.dfs.a || !q.packed || !q.packed_face)
            return CT_NO_MEMORY;
        q.packed_cap = cv;
        q.capf = q.stack.cap = cf;
        q.cape = 3 * cf;
        q.horizon.cap = q.newf.cap = q.dead.cap = cv;
        q.dfs.cap = 3 * cv;
    }
#if CT__QH_WIDE
    {
        ct__qv *wp = CT__SALLOC(s, ct__qv, n);
        if (!wp) return CT_NO_MEMORY;
        for (i = 0; i < n; ++i) wp[i] = ct__q_of(pts[i]);
        q.p = wp;
    }
#else
    q.p = pts;
#endif
    st = ct__qh_simplex(&q);
    if (st != CT_OK) return st;
    out->thin = q.height < CT__QH_THIN * q.tol;
    for (i = 0;; ++i) {
        while (q.stack.n > 0) {
            f = q.stack.a[--q.stack.n];
            q.f[f].queued = 0;
            if (q.f[f].mark != CT__QF_VISIBLE && q.f[f].mark != CT__QF_NONCONVEX) continue;
            if (q.f[f].outside < 0) continue;
            st = ct__qh_add(&q, f);
            if (st != CT_OK) return st;
        }
        /* every sweep that claims a point adds a vertex: bounded by n */
        if (i > n || (claimed = ct__qh_sweep(&q)) == 0) break;
        if (claimed < 0) return CT_NO_MEMORY;
    }
    /* output: live faces and the vertices they use. Slot k of face_verts holds the head of
       quickhull half-edge e_k; the half-edge leaving it along the face is next(e_k), so
       twin(slot k) is the slot of twin(next(e_k)). */
    {
        int *map = CT__SALLOC(s, int, n), *hin = CT__SALLOC(s, int, n), *slot = CT__SALLOC(s, int, q.ne), *leave, k;
        ct__qv ctr = q.centre;
        if (!map || !hin) return CT_NO_MEMORY;
        for (i = 0; i < n; ++i) map[i] = hin[i] = -1;
        nv = nfo = nfv = 0;
        out->ok = 1;
        for (f = 0; f < q.nf; ++f) {
            if (q.f[f].mark != CT__QF_VISIBLE && q.f[f].mark != CT__QF_NONCONVEX) continue;
            ++nfo;
            nfv += q.f[f].nv;
        }
        out->verts = CT__SALLOC(s, int, n);
        out->face_first = CT__SALLOC(s, int, nfo + 1);
        out->face_verts = CT__SALLOC(s, int, nfv);
        out->face_local = CT__SALLOC(s, int, nfv);
        out->he_twin = CT__SALLOC(s, int, nfv);
        out->planes = CT__SALLOC(s, ct_plane, nfo);
        leave = CT__SALLOC(s, int, nfv);
        if (!slot || !out->verts || !out->face_first || !out->face_verts || !out->face_local || !out->he_twin ||
            !out->planes || !leave)
            return CT_NO_MEMORY;
        nfo = nfv = 0;
        for (f = 0; f < q.nf; ++f) {
            const ct__qface *F = &q.f[f];
            int e0, e, first = nfv;
            if (F->mark != CT__QF_VISIBLE && F->mark != CT__QF_NONCONVEX) continue;
            out->face_first[nfo] = nfv;
            e0 = F->he0; e = e0;
            do {
                int v = q.e[e].head, nx = q.e[e].next;
                if (map[v] < 0) { map[v] = nv; out->verts[nv++] = v; hin[v] = e; }
                out->face_verts[nfv] = v;
                out->face_local[nfv] = map[v];
                slot[nx] = nfv;
                leave[nfv++] = nx;
                e = nx;
            } while (e != e0);
            /* plane of the whole merged polygon (a triangle's quickhull normal is already its
               unit cross product) */
            if (F->nv == 3 && !F->thin) {   /* accurate also when skinny (ct__qh_triangle) */
                ct_vec3 nr = ct__q_out(F->n);
                ct__qv n3 = ct__q_of(nr), p0 = q.p[out->face_verts[first]];
                ct__qreal d1 = ct__q_dot(n3, ct__q_sub(q.p[out->face_verts[first + 1]], p0));
                ct__qreal d2 = ct__q_dot(n3, ct__q_sub(q.p[out->face_verts[first + 2]], p0));
                out->planes[nfo].n = nr;
                out->planes[nfo].d = (ct_real) - (ct__q_max(ct__q_max(0, d1), d2) + ct__q_dot(n3, p0));
            } else
                out->planes[nfo] = ct__polygon_plane(q.p, NULL, out->face_verts + first, F->nv, ct__q_out(F->n));
            /* a face of zero area (collinear vertices: a point on an edge taken as a vertex, met
               in float) has no unit normal, and every containment test passes it: not ok, so
               ct__quickhull_checked builds again */
            if (!(ct__len2(out->planes[nfo].n) > (ct_real)0.25)) out->ok = 0;
            ++nfo;
        }
        out->fuzzy = q.fuzzy;
        if (q.fuzzy) {   /* checked (ct__qh_face_ok) only when a tolerance decision was made */
            int seed[6], ns = 0, j;
            for (k = 0; k < 6; ++k) {
                int x = k < 3 ? q.imin[k] : q.imax[k - 3];
                if (map[x] < 0 || hin[x] < 0) continue;
                for (j = 0; j < ns && q.e[seed[j]].head != x; ++j) {}
                if (j == ns) seed[ns++] = hin[x];
            }
            for (f = 0, k = 0; f < q.nf && out->ok; ++f) {
                if (q.f[f].mark != CT__QF_VISIBLE && q.f[f].mark != CT__QF_NONCONVEX) continue;
                out->ok = ct__qh_face_ok(&q, &q.f[f], out->planes[k++], ctr, CT__QH_BOUND * q.tol, seed, ns);
            }
        }
        for (k = 0; k < nfv; ++k) out->he_twin[k] = slot[q.e[leave[k]].twin];
        out->face_first[nfo] = nfv;
        out->nverts = nv;
        out->nfaces = nfo;
    }
    return CT_OK;
}

/* ---- the ct_hull block -------------------------------------------------------------------- */
/* The structure every consumer of a ct_hull relies on (checked by CT_ASSERT on every hull
   assembled here): each half-edge has a twin on another face running the other way, twins
   pair up (he_twin[he_twin[k]] == k), each face loop closes after its own vertex count, and
   Euler's formula V - E + F = 2 holds. */
CT__PRIVATE int ct__hull_structure_ok(const ct_hull *h) {
    int f, k, nhe = h->face_first[h->nfaces];
    if (nhe != 2 * h->nedges || h->nverts - h->nedges + h->nfaces != 2) return 0;
    for (k = 0; k < nhe; ++k) {
        int t = h->he_twin[k];
        if (t < 0 || t >= nhe || h->he_twin[t] != k || h->he_face[t] == h->he_face[k]) return 0;
        if (h->face_verts[t] != h->face_verts[h->he_next[k]]) return 0;
    }
    for (f = 0; f < h->nfaces; ++f) {
        int k0 = h->face_first[f], n = h->face_first[f + 1] - k0, e = k0, i;
        if (n < 3) return 0;
        for (i = 0; i < n; ++i) e = h->he_next[e];
        if (e != k0) return 0;
    }
    return 1;
}

/* A ct_hull in one allocation from CCW faces: fills planes (when NULL, from the polygons),
   half-edge adjacency (he_twin: given, or NULL to find the twins by searching vertex
   out-edges), vertex neighbours, centre and extent. face_verts index `verts`. */
CT__PRIVATE ct_status ct__hull_assemble(ct_hull *out, const ct_vec3 *verts, const int *vert_source, int nverts,
                                           const int *face_first, const int *face_verts, int nfaces,
                                           const ct_plane *planes, const int *face_tag, const int *he_twin,
                                           const ct_allocator *alloc) {
    ct_allocator a = ct__allocator(alloc);
    int nhe = face_first[nfaces], i, f, k;
    size_t sz = 0, o_verts, o_planes, o_ff, o_fv, o_vs, o_tag, o_twin, o_next, o_face, o_ve, o_vf, o_va, o_dep;
    unsigned char *blk;
    memset(out, 0, sizeof *out);
#define CT__SLOT(off, count, T) (off = sz, sz += ct__array_bytes((long long)(count), sizeof(T)))
    CT__SLOT(o_verts, nverts, ct_vec3);
    CT__SLOT(o_planes, nfaces, ct_plane);
    CT__SLOT(o_ff, nfaces + 1, int);
    CT__SLOT(o_fv, nhe, int);
    CT__SLOT(o_vs, nverts, int);
    CT__SLOT(o_tag, face_tag ? nfaces : 0, int);
    CT__SLOT(o_twin, nhe, int);
    CT__SLOT(o_next, nhe, int);
    CT__SLOT(o_face, nhe, int);
    CT__SLOT(o_ve, nverts, int);
    CT__SLOT(o_vf, nverts + 1, int);
    CT__SLOT(o_va, nhe, int);
    CT__SLOT(o_dep, nfaces, ct_real);
#undef CT__SLOT
    blk = (unsigned char *)ct__alloc(&a, sz);
    if (!blk) return CT_NO_MEMORY;
    out->ct__alloc = a;
    out->ct__block = blk;
    out->nverts = nverts;
    out->nfaces = nfaces;
    out->nedges = nhe / 2;
    out->verts = (ct_vec3 *)(blk + o_verts);
    out->planes = (ct_plane *)(blk + o_planes);
    out->face_first = (int *)(blk + o_ff);
    out->face_verts = (int *)(blk + o_fv);
    out->vert_source = (int *)(blk + o_vs);
    out->face_tag = face_tag ? (int *)(blk + o_tag) : NULL;
    out->he_twin = (int *)(blk + o_twin);
    out->he_next = (int *)(blk + o_next);
    out->he_face = (int *)(blk + o_face);
    out->vert_edge = (int *)(blk + o_ve);
    out->vert_first = (int *)(blk + o_vf);
    out->vert_adj = (int *)(blk + o_va);
    out->ct__depth = (ct_real *)(blk + o_dep);
    memcpy(out->verts, verts, (size_t)nverts * sizeof(ct_vec3));
    memcpy(out->face_first, face_first, (size_t)(nfaces + 1) * sizeof(int));
    memcpy(out->face_verts, face_verts, (size_t)nhe * sizeof(int));
    for (i = 0; i < nverts; ++i) out->vert_source[i] = vert_source ? vert_source[i] : -1;
    if (face_tag) memcpy(out->face_tag, face_tag, (size_t)nfaces * sizeof(int));
    /* centre and extent (sqrt is monotone: the root of the largest square) */
    out->center = ct__v3(0, 0, 0);
    for (i = 0; i < nverts; ++i) out->center = ct__add(out->center, verts[i]);
    if (nverts) out->center = ct__scale(out->center, (ct_real)1 / (ct_real)nverts);
    {   /* in working precision: the square of a float extent of 1e30 overflows float */
        ct__qreal e2 = 0;
        for (i = 0; i < nverts; ++i) e2 = ct__q_max(e2, ct__q_len2(ct__q_sub(ct__q_of(verts[i]), ct__q_of(out->center))));
        out->extent = (ct_real)ct__q_sqrt(e2);
    }
    /* half-edges: next, face; vertex out-edges in CSR (slot order) */
    for (f = 0; f < nfaces; ++f) {
        int k0 = face_first[f], k1 = face_first[f + 1];
        for (k = k0; k < k1; ++k) {
            out->he_face[k] = f;
            out->he_next[k] = k + 1;
        }
        if (k1 > k0) out->he_next[k1 - 1] = k0;
    }
    for (i = 0; i <= nverts; ++i) out->vert_first[i] = 0;
    for (k = 0; k < nhe; ++k) out->vert_first[face_verts[k] + 1]++;
    for (i = 0; i < nverts; ++i) out->vert_first[i + 1] += out->vert_first[i];
    if (he_twin) {
        /* neighbours in slot order, with vert_first[v] as the fill cursor (shifted back
           after); vert_edge is the first out-edge met */
        memcpy(out->he_twin, he_twin, (size_t)nhe * sizeof(int));
        for (i = 0; i < nverts; ++i) out->vert_edge[i] = -1;
        for (k = 0; k < nhe; ++k) {
            int u = face_verts[k];
            if (out->vert_edge[u] < 0) out->vert_edge[u] = k;
            out->vert_adj[out->vert_first[u]++] = face_verts[out->he_next[k]];
        }
        for (i = nverts; i > 0; --i) out->vert_first[i] = out->vert_first[i - 1];
        out->vert_first[0] = 0;
    } else {
        /* temporarily use vert_adj to hold out-edges of each vertex; vert_edge as a fill cursor */
        for (i = 0; i < nverts; ++i) out->vert_edge[i] = out->vert_first[i];
        for (k = 0; k < nhe; ++k) out->vert_adj[out->vert_edge[face_verts[k]]++] = k;
        for (k = 0; k < nhe; ++k) {
            int u = face_verts[k], v = face_verts[out->he_next[k]], j;
            out->he_twin[k] = -1;
            for (j = out->vert_first[v]; j < out->vert_first[v + 1]; ++j) {
                int h = out->vert_adj[j];
                if (face_verts[out->he_next[h]] == u) { out->he_twin[k] = h; break; }
            }
        }
        for (i = 0; i < nverts; ++i) {
            out->vert_edge[i] = out->vert_first[i] < out->vert_first[i + 1] ? out->vert_adj[out->vert_first[i]] : -1;
            for (k = out->vert_first[i]; k < out->vert_first[i + 1]; ++k)
                out->vert_adj[k] = face_verts[out->he_next[out->vert_adj[k]]];
        }
    }
    CT_ASSERT(ct__hull_structure_ok(out));
    /* planes */
    for (f = 0; f < nfaces; ++f) {
        if (planes) out->planes[f] = planes[f];
        else out->planes[f] = ct__polygon_plane(NULL, verts, face_verts + face_first[f], face_first[f + 1] - face_first[f],
                                                ct__v3(0, 0, 1));
    }
    /* the centre's depth below each face (as detail/sat.h's bounds evaluate it) */
    out->ct__inner = CT__MAXR;
    for (f = 0; f < nfaces; ++f) {
        out->ct__depth[f] = -(ct__dot(out->planes[f].n, out->center) + out->planes[f].d);
        out->ct__inner = ct__min(out->ct__inner, out->ct__depth[f]);
    }
    {   /* a 64-bit hash of the planes (they fix the polytope): a hull rebuilt in the same memory
           gets another one (detail/sat.h keys its certificates with it). FNV-1a's step on
           64-bit words in four independent lanes (one chain of multiplies took 8% of a
           20-point build), the lanes then mixed by splitmix64's finaliser. */
        size_t nw = (size_t)nfaces * sizeof(ct_plane) / sizeof(unsigned long long), j;
        unsigned long long hl[4] = { 14695981039346656037ULL, 1, 2, 3 }, w, hsh = 0;
        for (j = 0; j < nw; ++j) {
            memcpy(&w, (const unsigned char *)out->planes + j * sizeof w, sizeof w);
            hl[j & 3] = (hl[j & 3] ^ w) * 1099511628211ULL;
        }
        for (j = 0; j < 4; ++j) {
            hsh = (hsh ^ hl[j]) + 0x9E3779B97F4A7C15ULL;
            hsh = (hsh ^ (hsh >> 30)) * 0xBF58476D1CE4E5B9ULL;
            hsh = (hsh ^ (hsh >> 27)) * 0x94D049BB133111EBULL;
            hsh ^= hsh >> 31;
        }
        out->ct__hash = hsh;
    }
    {   /* edges whose direction rounding can turn (see ct__hull_ascend): shorter than sqrt(eps)
           of the coordinates' magnitude (climbs on double hulls with copies 1e-10..1e-8 of the
           extent apart still stopped 1e-8 of it short at 2^10 ulps) */
        ct_real lim = ct__sqrt(CT__EPS) * (ct__maxabs(out->center) + out->extent), l2 = lim * lim;
        for (k = 0; k < nhe && out->ct__short == 0; ++k)   /* each edge once, from its lower half-edge */
            if ((k < out->he_twin[k] || out->he_twin[k] < 0) && ct__len2(ct__sub(verts[face_verts[k]], verts[face_verts[out->he_next[k]]])) < l2)
                out->ct__short = lim;
    }
    out->ct__valid = CT__HULL_VALID; /* complete: per-call checks of its structure are skipped */
    return CT_OK;
}

CTDEF void ct_hull_free(ct_hull *h) {
    if (!h) return;
    if (h->ct__block) {
        ct_allocator a = h->ct__alloc;
        ct__free(&a, h->ct__block);
    }
    memset(h, 0, sizeof *h);
}

/* Points x faces up to which ct__qh_verify checks every pair (about a millisecond); above it
   each point walks to the faces it could pass (ct__qh_contained). */
#define CT__QH_VERIFY_PAIRS 1.0e6

/* The containment part of ct__qh_verify for large sets: 1 when every point has n.p + d <= bound
   on every plane, found per point by climbing the face graph, 0 when one fails, -1 out of
   memory, 2 when the hull does not hold c strictly inside (the caller checks every pair then).
   With r_f = -(n_f.c + d_f) > 0 the depth of c below face f, the point x is inside every plane
   iff max_f n_f.(x - c) / r_f <= 1: a linear function maximised over the vertices n_f / r_f of
   the polar polytope, whose edges join adjacent faces, so an uphill walk over adjacent faces
   finds the maximum (the simplex method's argument; exact for a convex hull, and for ours up to
   its tolerance-level folds). A point above 1 is outside the hull; the faces it sees form a
   connected patch around that face, searched whole for one more than bound above. Each walk
   starts at the face that maximises the ratio for the middle of the point's cell in a cube map
   of directions about c (the ratio's argmax depends on the direction of x - c alone; about one
   cell per face, each found when a point first needs it by a walk from where the last point's
   ended), so a point costs the faces around a path of a step or two, in any input order. The start changes the work, never the answer:
   the patch searched is the one around every face the point sees. The hull's own vertices are
   skipped when the build checked them against every plane (ct__qh_face_ok, run when it made a
   tolerance decision: q->fuzzy): each vertex lies on faces with thousands of edges when the
   hull has big coplanar faces, which a walk through them would scan. */
/* Cube-map cells per side of ct__qh_contained's map of directions at most. */
#define CT__QH_DIRMAP 64

/* The face g maximising n_g.x * inv[g] by the uphill walk from face cur over adjacent faces
   (strictly uphill, so it ends); *best is that maximum. */
CT__PRIVATE int ct__qh_ratio_walk(const ct__qh_result *q, const int *sface, const ct__qv *nrm, const ct__qreal *inv, int cur,
                              ct__qv x, ct__qreal *best) {
    ct__qreal b = ct__q_dot(nrm[cur], x) * inv[cur];
    int k;
    for (;;) {
        int up = -1;
        for (k = q->face_first[cur]; k < q->face_first[cur + 1]; ++k) {
            int g = sface[q->he_twin[k]];
            ct__qreal v = ct__q_dot(nrm[g], x) * inv[g];
            if (v > b) { b = v; up = g; }
        }
        if (up < 0) break;
        cur = up;
    }
    *best = b;
    return cur;
}

CT__PRIVATE int ct__qh_contained(ct_scratch *s, const ct__qh_result *q, const ct_vec3 *pts, int n, ct__qv c,
                                 ct__qreal bound) {
    int nf = q->nfaces, nhe = q->face_first[nf], f, k, i, cur = 0, last = 0, side, *cell;
    unsigned char *vert = NULL;
    ct__qreal best;
    int *sface = CT__SALLOC(s, int, nhe), *seen = CT__SALLOC(s, int, nf), *stack = CT__SALLOC(s, int, nf);
    ct__qv *nrm = CT__SALLOC(s, ct__qv, nf);
    ct__qreal *inv = CT__SALLOC(s, ct__qreal, nf), *depth = CT__SALLOC(s, ct__qreal, nf);
    if (!sface || !seen || !stack || !nrm || !inv || !depth) return -1;
    for (f = 0; f < nf; ++f) {
        nrm[f] = ct__q_of(q->planes[f].n);
        depth[f] = -(ct__q_dot(nrm[f], c) + (ct__qreal)q->planes[f].d);
        if (!(depth[f] > 0)) return 2;
        inv[f] = 1 / depth[f];
        seen[f] = -1;
        for (k = q->face_first[f]; k < q->face_first[f + 1]; ++k) sface[k] = f;
    }
    /* the cube map: K x K cells on each of the 6 sides of the cube of directions, side
       (axis a, sign) then row then column; each cell's start face, found when a point first
       needs it (-1 before) */
    side = 1;
    while (side < CT__QH_DIRMAP && 6 * (side + 1) * (side + 1) <= nf) ++side;
    cell = CT__SALLOC(s, int, 6 * side * side);
    if (!cell) return -1;
    for (k = 0; k < 6 * side * side; ++k) cell[k] = -1;
    if (q->fuzzy) {   /* the hull's vertices passed ct__qh_face_ok against every plane */
        vert = CT__SALLOC(s, unsigned char, n);
        if (!vert) return -1;
        memset(vert, 0, (size_t)n);
        for (k = 0; k < q->nverts; ++k) vert[q->verts[k]] = 1;
    }
    for (i = 0; i < n; ++i) {
        ct__qv x = ct__q_sub(ct__q_of(pts[i]), c);
        ct__qreal ax = ct__q_abs(x.x), ay = ct__q_abs(x.y), az = ct__q_abs(x.z), m, u, w;
        int a = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2), sp = 0, r, col;
        if (vert && vert[i]) continue;
        m = a == 0 ? x.x : (a == 1 ? x.y : x.z);
        u = a == 0 ? x.y : (a == 1 ? x.z : x.x);
        w = a == 0 ? x.z : (a == 1 ? x.x : x.y);
        cur = 0;
        if (m != 0) {   /* (u, w) / |m| in [-1, 1]; cells clamped (x at c: any start) */
            u = (u / ct__q_abs(m) + 1) * (ct__qreal)0.5 * (ct__qreal)side;
            w = (w / ct__q_abs(m) + 1) * (ct__qreal)0.5 * (ct__qreal)side;
            r = u > 0 ? (u < (ct__qreal)side ? (int)u : side - 1) : 0;
            col = w > 0 ? (w < (ct__qreal)side ? (int)w : side - 1) : 0;
            k = (2 * a + (m < 0)) * side * side + r * side + col;
            if (cell[k] < 0) {   /* the face for the cell's middle direction */
                ct__qreal d[3];
                d[a] = m < 0 ? -1 : 1;
                d[(a + 1) % 3] = ((ct__qreal)(2 * r + 1) / (ct__qreal)side) - 1;
                d[(a + 2) % 3] = ((ct__qreal)(2 * col + 1) / (ct__qreal)side) - 1;
                cell[k] = ct__qh_ratio_walk(q, sface, nrm, inv, last, ct__q_v3(d[0], d[1], d[2]), &best);
            }
            cur = cell[k];
        }
        cur = last = ct__qh_ratio_walk(q, sface, nrm, inv, cur, x, &best);
        if (best <= 1) continue;
        /* outside: every face it sees, from the one it sees best */
        seen[cur] = i;
        stack[sp++] = cur;
        while (sp > 0) {
            int g = stack[--sp];
            if (ct__q_dot(nrm[g], x) - depth[g] > bound) return 0;
            for (k = q->face_first[g]; k < q->face_first[g + 1]; ++k) {
                int h = sface[q->he_twin[k]];
                if (seen[h] == i || !(ct__q_dot(nrm[h], x) > depth[h])) continue;
                seen[h] = i;
                stack[sp++] = h;
            }
        }
    }
    return 1;
}

/* Faces with more vertices than this are checked for convexity (ct__qh_verify) through their
   2D hull (ct__qh_face_convex), in O(m log m), rather than every vertex against every edge. */
#define CT__QH_CONVEX_PAIRS 32

/* A face vertex in the face's plane (coordinates about its first vertex) and its loop index. */
typedef struct ct__qh_p2 { ct__qreal x, y; int i; } ct__qh_p2;
CT__INLINE int ct__qh_p2_less(const ct__qh_p2 *a, const ct__qh_p2 *b) {
    return a->x < b->x || (a->x == b->x && (a->y < b->y || (a->y == b->y && a->i < b->i)));
}
CT__DEFINE_SORT(ct__qh_sort_p2, ct__qh_p2, ct__qh_p2_less)
CT__INLINE ct__qreal ct__qh_cross2(ct__qreal ax, ct__qreal ay, ct__qreal bx, ct__qreal by) { return ax * by - ay * bx; }

/* ct__qh_verify's convexity check of face f (normal nr), for a big face: every vertex on the
   left of every edge to within bound, with the smallest left-distance over the vertices found
   on their 2D convex hull H (a linear function's minimum over a point set is its minimum over
   the set's hull): the face's vertices in an orthonormal basis of the plane (about its first
   vertex, so the coordinates keep the face's own precision; nr . (e x w) is the 2D cross
   product there), H by Andrew's monotone chain, and for each edge of the loop the minimum by a
   walk along H from the previous edge's (the function is unimodal around a convex polygon, and
   a loop that is a convex polygon turns its edges once around, so the walks are O(m) in all;
   rounding moves H and the minimum by ulps of the face, far below bound). Returns 1 when the
   face passes, 0 when a vertex is right of an edge by more than bound, 2 when the walks took
   more than a few steps per edge (a loop far from convex: the caller checks every pair), -1
   when out of memory. */
CT__PRIVATE int ct__qh_face_convex(ct_scratch *s, const ct__qh_result *q, const ct_vec3 *pts, int f, ct__qv nr,
                                   ct__qreal bound) {
    int a = q->face_first[f], m = q->face_first[f + 1] - a, k, h = 0, lo, cur = 0, steps = 0;
    ct__qh_p2 *v = CT__SALLOC(s, ct__qh_p2, m), *H = CT__SALLOC(s, ct__qh_p2, m + 1);
    ct__qreal *lx = CT__SALLOC(s, ct__qreal, m), *ly = CT__SALLOC(s, ct__qreal, m);
    ct__qv b1, b2, o;
    if (!v || !H || !lx || !ly) return -1;
    b1 = ct__q_normalize(ct__q_cross(nr, ct__q_abs(nr.x) < (ct__qreal)0.6 ? ct__q_v3(1, 0, 0) : ct__q_v3(0, 1, 0)), NULL);
    b2 = ct__q_cross(nr, b1);
    o = ct__q_of(pts[q->face_verts[a]]);
    for (k = 0; k < m; ++k) {
        ct__qv w = ct__q_sub(ct__q_of(pts[q->face_verts[a + k]]), o);
        lx[k] = v[k].x = ct__q_dot(b1, w);
        ly[k] = v[k].y = ct__q_dot(b2, w);
        v[k].i = k;
    }
    ct__qh_sort_p2(v, (size_t)m);
    for (k = 0; k < m; ++k) {          /* lower chain */
        while (h >= 2 && !(ct__qh_cross2(H[h - 1].x - H[h - 2].x, H[h - 1].y - H[h - 2].y, v[k].x - H[h - 2].x, v[k].y - H[h - 2].y) > 0)) --h;
        H[h++] = v[k];
    }
    lo = h + 1;
    for (k = m - 2; k >= 0; --k) {     /* upper chain */
        while (h >= lo && !(ct__qh_cross2(H[h - 1].x - H[h - 2].x, H[h - 1].y - H[h - 2].y, v[k].x - H[h - 2].x, v[k].y - H[h - 2].y) > 0)) --h;
        H[h++] = v[k];
    }
    h -= 1;                            /* the last point repeats the first */
    if (h < 3) return 2;               /* no area in the plane: the pairs decide */
    for (k = 0; k < m; ++k) {
        int k1 = k + 1 < m ? k + 1 : 0;
        ct__qreal ex = lx[k1] - lx[k], ey = ly[k1] - ly[k], g, gn, gp;
        int nx, pv;
        g = ct__qh_cross2(ex, ey, H[cur].x, H[cur].y);
        for (;;) {   /* downhill along H, forwards or backwards */
            nx = cur + 1 < h ? cur + 1 : 0;
            pv = cur > 0 ? cur - 1 : h - 1;
            gn = ct__qh_cross2(ex, ey, H[nx].x, H[nx].y);
            gp = ct__qh_cross2(ex, ey, H[pv].x, H[pv].y);
            if (gn < g && !(gp < gn)) { cur = nx; g = gn; }
            else if (gp < g) { cur = pv; g = gp; }
            else break;
            if (++steps > 4 * (m + h)) return 2;
        }
        if (g - ct__qh_cross2(ex, ey, lx[k], ly[k]) <
            -bound * ct__q_len(ct__q_sub(ct__q_of(pts[q->face_verts[a + k1]]), ct__q_of(pts[q->face_verts[a + k]]))))
            return 0;
    }
    return 1;
}

/* Verification of a built hull: 1 when every vertex has 3 or more faces, every point has
   n.p + d <= bound on every plane and every face polygon is convex (each vertex left of each
   edge), to within bound (working precision); the first failure exits. -1: out of memory.
   Containment: every point against every face that it could pass while points x faces is at
   most CT__QH_VERIFY_PAIRS, else by ct__qh_contained (a walk per point). */
CT__PRIVATE int ct__qh_verify(ct_scratch *s, const ct__qh_result *q, const ct_vec3 *pts, int n, ct__qreal bound) {
    ct__qv c = ct__q_v3(0, 0, 0);
    ct__qreal r = 0, *dist;
    int f, i, k, *deg = CT__SALLOC(s, int, q->nverts);
    if (!deg) return -1;
    for (i = 0; i < q->nverts; ++i) deg[i] = 0;
    for (k = 0; k < q->face_first[q->nfaces]; ++k) deg[q->face_local[k]]++;
    for (i = 0; i < q->nverts; ++i)
        if (deg[i] < 3) return 0;   /* a vertex inside an edge */
    for (f = 0; f < q->nfaces; ++f) {   /* every vertex on the left of every edge */
        int a = q->face_first[f], m = q->face_first[f + 1] - a, j;
        ct__qv nr = ct__q_of(q->planes[f].n);
        if (!(ct__q_len2(nr) > (ct__qreal)0.25)) return 0;   /* a face of zero area: no unit normal */
        if (m > CT__QH_CONVEX_PAIRS) {
            int r = ct__qh_face_convex(s, q, pts, f, nr, bound);
            if (r <= 0) return r;
            if (r == 1) continue;   /* 2: the walk did not settle; every pair below */
        }
        for (k = 0; k < m; ++k) {
            ct__qv u = ct__q_of(pts[q->face_verts[a + k]]), e = ct__q_sub(ct__q_of(pts[q->face_verts[a + (k + 1) % m]]), u);
            ct__qv in = ct__q_cross(nr, e);
            ct__qreal lim = -bound * ct__q_len(e);
            for (j = 0; j < m; ++j)
                if (ct__q_dot(in, ct__q_sub(ct__q_of(pts[q->face_verts[a + j]]), u)) < lim) return 0;
        }
    }
    for (i = 0; i < q->nverts; ++i) c = ct__q_add(c, ct__q_of(pts[q->verts[i]]));
    c = ct__q_scale(c, 1 / (ct__qreal)q->nverts);
    if ((double)n * q->nfaces > CT__QH_VERIFY_PAIRS) {
        int ok = ct__qh_contained(s, q, pts, n, c, bound);
        if (ok != 2) return ok;
    }
    /* point i can pass face f only if its distance from c exceeds f's distance from c plus
       bound: a face beyond every point costs nothing, and the others skip the points
       nearer c */
    dist = CT__SALLOC(s, ct__qreal, n);
    if (!dist) return -1;
    for (i = 0; i < n; ++i) {
        dist[i] = ct__q_len(ct__q_sub(ct__q_of(pts[i]), c));
        r = dist[i] > r ? dist[i] : r;
    }
    for (f = 0; f < q->nfaces; ++f) {
        ct__qv nr = ct__q_of(q->planes[f].n);
        ct__qreal h = -(ct__q_dot(nr, c) + (ct__qreal)q->planes[f].d) + bound, lim = bound - (ct__qreal)q->planes[f].d;
        if (h >= r) continue;
        for (i = 0; i < n; ++i)
            if (dist[i] > h && ct__q_dot(nr, ct__q_of(pts[i])) > lim) return 0;
    }
    return 1;
}

/* The default-tolerance hull q of pts[0..n), checked and rebuilt until it holds (the scratch
   is reset to mark m, where q was begun, before each rebuild). When a tolerance decision was
   made during the build (a merge, a fold, a point filed within tol of a plane) or the simplex
   says the set may be thin, the hull is checked: cheaply (ct__qh_face_ok: hull vertices only,
   already done by ct__quickhull), then in full (every point, ct__qh_verify). A hull that fails
   (sets only a few tolerances thick, where rounding decides which near-coplanar faces exist,
   and in which order) is built again at the default tolerance with the points in reverse
   order, then reversed and rotated by half, and then with a tolerance 16, 256 and 4096 times
   coarser, each checked against CT__QH_BOUND of its own tolerances; a set flat within the
   coarser tolerance is CT_DEGENERATE, and so is one that fails at 4096. ct_hull_build checks
   in full; the dual hull of the polar intersection (detail/polar.h) with the cheap check only
   (full 0), which is free: the full one would cost a sixth of a contact. */
CT__PRIVATE ct_status ct__quickhull_checked(ct_scratch *s, const ct_vec3 *pts, int npts, ct__mark m, int full,
                                            ct__qh_result *q) {
    ct__qreal tol0 = q->tol;
    int acc = q->accurate;
    ct_status st = CT_OK;
    ct_real eps;
    int ok, step, i;
    for (step = 1; st == CT_OK && (ok = !q->ok ? 0 : !full || !(q->thin || q->fuzzy) ? 1 :
                                       ct__qh_verify(s, q, pts, npts, CT__QH_BOUND * q->tol)) <= 0;
         ++step) {
        if (ok < 0) { st = CT_NO_MEMORY; break; }
        if (step > 5) { st = CT_DEGENERATE; break; }
        ct__scratch_reset(s, m);
        if (step <= 2) {   /* the default tolerance again, the points in another order:
                              reversed, then reversed and rotated by half */
            int *perm = CT__SALLOC(s, int, npts);
            ct_vec3 *pp = CT__SALLOC(s, ct_vec3, npts);
            if (!perm || !pp) { st = CT_NO_MEMORY; break; }
            for (i = 0; i < npts; ++i) {
                perm[i] = step == 1 ? npts - 1 - i : (npts - 1 - i + npts / 2) % npts;
                pp[i] = pts[perm[i]];
            }
            st = ct__quickhull(s, pp, npts, 0, acc, q);
            if (st == CT_OK) {
                for (i = 0; i < q->nverts; ++i) q->verts[i] = perm[q->verts[i]];
                for (i = 0; i < q->face_first[q->nfaces]; ++i) q->face_verts[i] = perm[q->face_verts[i]];
            }
        } else {
            eps = (ct_real)((ct__qreal)(1 << (CT__QH_COARSEN_LOG2 * (step - 2))) * tol0 / q->unit);
            st = ct__quickhull(s, pts, npts, eps, acc, q);
        }
    }
    return st;
}

CTDEF ct_status ct_hull_build(const ct_vec3 *pts, int npts, const ct_hull_desc *desc, const ct_allocator *a,
                              ct_hull *out) {
    ct_scratch local, *s;
    ct__mark m;
    ct__qh_result q;
    ct_status st = CT_OK;
    ct_real eps = desc ? desc->eps : 0;
    int i;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    if (npts < 0 || (npts > 0 && !pts) || !ct__finite(eps) || eps < 0) return CT_INVALID;
    if (npts < 4) {   /* larger sets are checked by ct__quickhull, in its bounding-box pass */
        for (i = 0; i < npts; ++i)
            if (!ct__finite3(pts[i])) return CT_INVALID;
        return CT_DEGENERATE;
    }
    s = ct__scratch_begin(desc ? desc->scratch : NULL, &local, a);
    m = ct__scratch_mark(s);
    st = ct__quickhull(s, pts, npts, eps, 1, &q);
    if (st == CT_OK && eps > 0) {
        /* a user tolerance merges more, and chains of merges can tilt a face past a point
           or fold a polygon: verify the hull within CT__QH_BOUND of the user's tolerances and, while it
           fails, rebuild with a tenth of the tolerance (the default one last, checked as below) */
        ct__qreal bound = CT__QH_BOUND * q.tol;
        int ok;
        while (st == CT_OK && eps > 0 && (ok = ct__qh_verify(s, &q, pts, npts, bound)) <= 0) {
            if (ok < 0) { st = CT_NO_MEMORY; break; }
            eps = eps > CT__QH_EPS_FLOOR ? eps / 10 : 0;
            ct__scratch_reset(s, m);
            st = ct__quickhull(s, pts, npts, eps, 1, &q);
        }
    }
    if (st == CT_OK && eps == 0) st = ct__quickhull_checked(s, pts, npts, m, 1, &q);
    if (st == CT_OK) {
        ct_vec3 *v = CT__SALLOC(s, ct_vec3, q.nverts);
        if (!v) st = CT_NO_MEMORY;
        else {
            for (i = 0; i < q.nverts; ++i) v[i] = pts[q.verts[i]];
            st = ct__hull_assemble(out, v, q.verts, q.nverts, q.face_first, q.face_local, q.nfaces, q.planes, NULL,
                                      q.he_twin, a);
        }
    }
    ct__scratch_end(s, &local, m);
    if (st != CT_OK) memset(out, 0, sizeof *out);
    return st;
}

CTDEF ct_status ct_hull_box(ct_vec3 half, const ct_allocator *a, ct_hull *out) {
    /* vertex i has x, y, z signs from bits 0, 1, 2; faces -x +x -y +y -z +z, CCW outside */
    static const int fv[24] = { 0, 4, 6, 2,  1, 3, 7, 5,  0, 1, 5, 4,  2, 6, 7, 3,  0, 2, 3, 1,  4, 5, 7, 6 };
    static const int ff[7] = { 0, 4, 8, 12, 16, 20, 24 };
    ct_vec3 v[8];
    int i;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    if (!ct__finite3(half) || !(half.x > 0) || !(half.y > 0) || !(half.z > 0)) return CT_INVALID;
    for (i = 0; i < 8; ++i)
        v[i] = ct__v3(i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y, i & 4 ? half.z : -half.z);
    return ct__hull_assemble(out, v, NULL, 8, ff, fv, 6, NULL, NULL, NULL, a);
}

CTDEF ct_aabb ct_hull_aabb(const ct_hull *h, const ct_xform *x) {
    ct_aabb b;
    int i;
    b.lo = b.hi = ct__v3(0, 0, 0);
    if (!h || h->nverts <= 0) return b;
    b.lo = b.hi = ct__xf_point(x, h->verts[0]);
    for (i = 1; i < h->nverts; ++i) {
        ct_vec3 p = ct__xf_point(x, h->verts[i]);
        b.lo = ct__vmin(b.lo, p);
        b.hi = ct__vmax(b.hi, p);
    }
    return b;
}
