/* contact.h - v0.1 - convex contact detection in one header. Public domain / MIT (see end).

   GJK/EPA distance and penetration, quickhull, polar intersection of convex
   polyhedra (the volumetric contact of DEM codes), SAT manifolds, ellipsoid contact
   (Perram-Wertheim) and an OpenMP broad phase. C99 and C++, double or float.

   USAGE
     In exactly one C or C++ file:
         #define CONTACT_IMPLEMENTATION
         #include "contact.h"
     everywhere else just #include "contact.h". The implementation lives in the detail/ headers
     next to this file; `premake4 --file=premake5.lua amalgamate` writes a single
     self-contained build/contact.h for users who want one file.

         ct_hull a, b;
         ct_contact c;
         if (ct_hull_build(pts_a, na, NULL, NULL, &a) == CT_OK &&
             ct_hull_build(pts_b, nb, NULL, NULL, &b) == CT_OK &&
             ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c) == CT_OK && c.found)
             apply(c.point, c.normal, c.gap);
         ct_hull_free(&a); ct_hull_free(&b);

   TABLE OF CONTENTS (grep for the tags)
     >>config      compile-time options
     >>types       vectors, planes, boxes, transforms, status, allocator, scratch
     >>hull        quickhull, mass properties                    (detail/hull.h, mass.h)
     >>gjk         shapes, GJK distance, EPA penetration         (detail/shape.h, gjk.h, epa.h)
     >>polar       polar intersection, volumetric contact        (detail/polar.h, volcontact.h)
     >>sat         SAT + clipping contact manifolds              (detail/sat.h)
     >>ellipsoid   Perram-Wertheim ellipsoid contact             (detail/ellipsoid.h)
     >>broadphase  OpenMP box-pair search and parallel pair loop (detail/broadphase.h)
     >>scene       the whole step: bodies, pair table, events      (detail/scene.h)

   COMPILE-TIME OPTIONS (>>config). Define before every #include of contact.h unless noted.
     CT_REAL              scalar type, double (default) or float. Must be the same in every file.
     CONTACT_STATIC       define in the implementation file: every function becomes static.
     CTDEF                override the decoration of public functions (default extern).
     CT_MALLOC, CT_FREE   default allocator used when a ct_allocator* is NULL; define both
                          or neither (implementation file only). Signatures as malloc/free.
     CT_ASSERT(x)         checks internal invariants only (never user data). Default: off
                          unless CONTACT_DEBUG is defined, then assert().
     CT_NO_OPENMP         build the broad phase serially even under -fopenmp.

   THREAD SAFETY
     There is no global or static mutable state and there are no locks. Every function is
     reentrant. Temporary memory comes from a ct_scratch that the caller passes (one per
     thread; never share one between threads at the same time) or, when NULL is passed, from a
     scratch that the call creates and frees itself. Results do not depend on the number of
     OpenMP threads. After warm-up, a call given a ct_scratch allocates nothing.

   MEMORY
     Memory that outlives a call (hulls, pair lists) comes from the ct_allocator passed in
     (NULL: CT_MALLOC/CT_FREE). The owning struct remembers it, so ct_hull_free(h) needs
     nothing else. On any error outputs are zeroed/freed and nothing leaks; allocation
     failure returns CT_NO_MEMORY.

   TOLERANCES
     Every tolerance is relative to the size of the input (bounding-box extent) times a small
     multiple of the machine epsilon of ct_real; there are no bare absolute constants.
     Results are invariant to uniform scaling and translation within floating point.
     Where a routine exposes a tolerance (ct_hull_desc.eps) 0 means that relative default.
     Tested range (tests/test_hardening.c): scales 1e-6..1e6 with translations up to 1e6 times
     the scale (1e2 in float), and GJK/EPA at sizes 2^-60..2^60 (float) / 2^-500..2^500
     (double). Beyond what a routine's outputs can represent (a volume is the cube of the size,
     ct_ellipsoids squares the semi-axes) answers are not guaranteed.

   CONVENTIONS
     Normals point from A to B. Distances/gaps/separations are negative when penetrating.
     Points are in world coordinates. A NULL const ct_xform* is the identity.
     Bad input (NULL, negative counts, NaN/Inf) returns CT_INVALID; never a crash.

   ARGUMENT ORDER (one rule for every function)
     1. the inputs, body by body: the body (hull, shape, points + count, semi-axes), then its
        transform, then its own parameters (a rounding radius): a, xa, ra, b, xb, rb;
     2. the call's parameters (speculative distance, tolerances, descriptors, callbacks);
     3. the cache (per pair, may be NULL), then the scratch, then the allocator;
     4. the outputs, last.
     Functions that act on one object (ct_hull_free, ct_scratch_init, ct_pairs_free) take
     that object first.

   VERSION HISTORY
     0.1  (2026-11)  foundation: types, allocator, scratch, math; quickhull; GJK/EPA;
                     polar intersection; SAT manifolds; ellipsoids; broad phase.
*/
#ifndef CONTACT_H_INCLUDED
#define CONTACT_H_INCLUDED

#include <stddef.h>

/* >>config ---------------------------------------------------------------------------- */
#ifndef CT_REAL
#define CT_REAL double
#endif

#ifndef CTDEF
#if defined(CONTACT_STATIC) && defined(__GNUC__)
#define CTDEF static __attribute__((unused))
#elif defined(CONTACT_STATIC)
#define CTDEF static
#else
#define CTDEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* >>types ----------------------------------------------------------------------------- */
typedef CT_REAL ct_real;
typedef struct ct_vec3  { ct_real x, y, z; } ct_vec3;
/* {x : n.x + d = 0}, n unit and outward; inside is n.x + d <= 0 */
typedef struct ct_plane { ct_vec3 n; ct_real d; } ct_plane;
/* closed box */
typedef struct ct_aabb  { ct_vec3 lo, hi; } ct_aabb;
/* world = r * local + p; a NULL ct_xform* means identity */
typedef struct ct_xform { ct_real r[3][3]; ct_vec3 p; } ct_xform;

typedef enum ct_status {
    CT_OK = 0,
    CT_INVALID,        /* bad argument: NULL, negative count, NaN/Inf coordinate */
    CT_DEGENERATE,     /* input does not span the dimension the routine needs */
    CT_NO_MEMORY,      /* the allocator returned NULL; nothing leaked */
    CT_NO_CONVERGENCE  /* an iteration hit its cap; outputs hold the best estimate */
} ct_status;
CTDEF const char *ct_status_string(ct_status s);

typedef struct ct_allocator {
    void *(*alloc)(size_t size, void *user);
    void  (*free)(void *ptr, void *user);
    void  *user;
} ct_allocator;

/* A per-thread workspace (an arena that grows through its allocator and is reused).
   Complete type: it may live on the stack or in a per-thread array. Fields are private.
   ct_scratch_init with a NULL allocator uses CT_MALLOC/CT_FREE. It allocates nothing until
   first used; ct_scratch_release returns everything. Between calls the scratch holds one
   block as large as the largest call needed, so a repeated call allocates nothing. */
typedef struct ct_scratch {
    ct_allocator ct__alloc;
    int          ct__has_alloc;
    void        *ct__head;      /* chain of blocks, newest first */
    size_t       ct__used;      /* bytes used in the newest block */
    size_t       ct__peak;      /* largest total in use during one call */
    size_t       ct__total;     /* bytes in use across all blocks */
    int          ct__depth;     /* nesting of calls using this scratch */
} ct_scratch;
CTDEF void ct_scratch_init(ct_scratch *s, const ct_allocator *a);
CTDEF void ct_scratch_release(ct_scratch *s);

/* Transform helpers. q = (x, y, z, w), normalised internally; p is the translation. They never
   fail: a NULL, zero or non-finite q (a zero or non-finite axis or angle) gives the identity
   rotation, so the result is always a valid rigid transform when p is finite. */
CTDEF ct_xform ct_xform_identity(void);
CTDEF ct_xform ct_xform_from_quat(const ct_real q[4], ct_vec3 p);
CTDEF ct_xform ct_xform_from_axis_angle(ct_vec3 axis, ct_real angle, ct_vec3 p);

/* >>hull ------------------------------------------------------------------------------ */
typedef struct ct_hull {
    int nverts, nfaces, nedges;   /* nverts - nedges + nfaces == 2 */
    ct_vec3  *verts;
    ct_plane *planes;             /* one per face */
    int *face_first;              /* nfaces + 1 offsets into face_verts */
    int *face_verts;              /* vertex ids of each face, counter-clockwise seen from outside */
    int *vert_source;             /* index of each hull vertex in the input (-1 if not from an input point) */
    int *face_tag;                /* origin of each face; see ct_intersect; for ct_hull_build, NULL */
    /* Half-edge adjacency. Half-edge k (0 <= k < 2*nedges) is the directed edge that leaves
       face_verts[k] along face he_face[k] towards the next vertex of that face, so the
       half-edges of face f are face_first[f] .. face_first[f+1]-1 in CCW order. */
    int *he_twin;                 /* the opposite half-edge, on the neighbouring face */
    int *he_next;                 /* next half-edge CCW around the same face */
    int *he_face;                 /* face of each half-edge */
    int *vert_edge;               /* one half-edge leaving each vertex */
    int *vert_first;              /* nverts + 1 offsets into vert_adj */
    int *vert_adj;                /* neighbouring vertices of each vertex (CSR) */
    ct_vec3 center;               /* mean of the vertices: strictly inside */
    ct_real extent;               /* largest distance from center to a vertex (scale of the hull) */
    ct_allocator ct__alloc;       /* private: the owner's allocator */
    void        *ct__block;       /* private: one block holds every array */
} ct_hull;

typedef struct ct_hull_desc {
    ct_real eps;          /* 0: relative default (a few ulps of the input's extent); otherwise
                             the distance below which points count as coplanar, relative to
                             the extent (half-width sum of the bounding box) */
    ct_scratch *scratch;  /* temporaries (NULL: a temporary scratch); building many hulls
                             with one scratch allocates only their output blocks */
} ct_hull_desc;

/* Convex hull of npts points by quickhull. Faces are maximal coplanar polygons (a cube: 8
   vertices, 6 quads, 12 edges), CCW seen from outside, with unit outward planes; points within
   the tolerance of the hull are not vertices. CT_INVALID: NULL, npts < 0, NaN/Inf;
   CT_DEGENERATE: fewer than 4 points, or all points within the tolerance of a plane, a line
   or a point. Duplicates are fine. The output owns one block from `a` (NULL: CT_MALLOC).
   Tolerance tol: 0 eps: eps_r (3 E + 2 M) with eps_r the epsilon of ct_real, E the half-width
   sum of the bounding box and M the largest |coordinate|; else desc->eps * max(E, eps_r M).
   Guarantee for desc->eps > 0: every input point p has n.p + d <= 8 tol on every face plane
   (plus the ct_real rounding of evaluating the plane), every face polygon is convex within
   8 tol and every vertex has 3 or more faces. Chains of coplanarity merges can break this on
   sets a few tolerances thick (flat or noisy-planar, at any eps), so the hull is verified and,
   while it fails, rebuilt with eps / 10, down to the default tolerance: eps is an upper bound
   on merging, honoured where the guarantee allows. The check costs O(n) plus O(n) per face
   that some point is farther from the vertex mean than (0 for a round set, few for a flat
   one; O(n F) at worst) plus the squared vertex count of each face, and a rebuild costs a
   build. Default tolerance (eps = 0): when the build made a tolerance decision (a merge of
   near-coplanar faces, a point within tol of a plane) or the set may be thin (its first
   tetrahedron is under 1024 tol high), the hull is checked the same way (every face, every
   point; the points are skipped, leaving a check of the hull's vertices only, when points x
   faces exceed 3e7), and while it fails it is rebuilt: at the default tolerance with the
   points in two other orders (reversed; reversed and rotated by half), then with a tolerance
   16, 256, then 4096 times the default; the guarantee above then holds for the tolerance it
   was built with,
   and a set flat within the coarser tolerance, or failing at 4096, is CT_DEGENERATE. Sets in
   general position make no tolerance decision and pay nothing. Work is in double also when
   ct_real is float. */
CTDEF ct_status ct_hull_build(const ct_vec3 *pts, int npts, const ct_hull_desc *desc /* NULL: defaults */,
                              const ct_allocator *a, ct_hull *out);
/* Frees the hull's block with the allocator it was built with; zeroes *h. NULL is fine. */
CTDEF void      ct_hull_free(ct_hull *h);
/* Volume (divergence theorem over the faces) and, if centroid != NULL, its centroid. */
CTDEF ct_real   ct_hull_volume(const ct_hull *h, ct_vec3 *centroid /* may be NULL */);
/* Mass, centroid and inertia tensor about the centroid of the solid of uniform density
   (exact for polyhedra: tetrahedral decomposition of the covariance, Tonon 2004). */
CTDEF void      ct_hull_mass(const ct_hull *h, ct_real density, ct_real *mass,
                             ct_vec3 *centroid, ct_real inertia[3][3] /* about the centroid */);
/* Bounding box of the hull's vertices under x (NULL: identity). */
CTDEF ct_aabb   ct_hull_aabb(const ct_hull *h, const ct_xform *x);
/* A box of half extents `half` centred at the origin (8 vertices, 6 quads). */
CTDEF ct_status ct_hull_box(ct_vec3 half, const ct_allocator *a, ct_hull *out);


/* >>gjk ------------------------------------------------------------------------------- */
/* Example (one cache per pair, kept across frames; one scratch per thread):
       ct_shape a = ct_shape_box(half), b = ct_shape_rounded(ct_shape_hull(&hull), 0.01);
       ct_gjk_cache cache = { 0 };
       ct_distance d;
       if (ct_signed_distance(&a, &xa, &b, &xb, &cache, &scratch, &d) == CT_OK && d.distance < 0)
           separate(d.normal, -d.distance);      (moving B by -d.distance * d.normal)

   Shapes are small value types placed by a ct_xform at query time (NULL = identity). Each is
   a convex "core" plus a rounding radius (the Minkowski sum with a ball, Bullet/Jolt's convex
   radius): a sphere is a point core rounded by its radius, ct_shape_rounded adds to the radius.
   ct_shape_points and ct_shape_hull REFER to the caller's memory (the points / the hull):
   it must outlive every use of the shape; nothing is copied. Constructors never fail: a bad
   argument (NULL, n < 1, negative or NaN size) is remembered and every query on the shape
   returns CT_INVALID. A hull passed to ct_shape_hull must come from ct_hull_build (or satisfy
   its invariants: finite verts, vert_first/vert_adj adjacency). Hulls with more than
   CT_HULL_SCAN_MAX vertices use hill climbing over the vertex adjacency, started from the
   last support vertex (within a query, and across queries through the ct_gjk_cache); smaller
   ones are scanned. Measured (GJK on random sphere hulls, cold and warm): climbing already
   wins from about 10 vertices because consecutive support directions are close, so the
   threshold is lower than the ~32 usually quoted for cold scans. */
#ifndef CT_HULL_SCAN_MAX
#define CT_HULL_SCAN_MAX 10   /* may be overridden (implementation file) */
#endif
typedef enum ct_shape_type {
    CT_SHAPE_POINTS = 1, CT_SHAPE_HULL, CT_SHAPE_SPHERE, CT_SHAPE_ELLIPSOID, CT_SHAPE_BOX,
    CT_SHAPE_TRIANGLE, CT_SHAPE_SUPPORT
} ct_shape_type;
typedef struct ct_shape {
    ct_shape_type type;
    int     ct__n;             /* private: point count */
    const ct_vec3 *ct__pts;    /* private: points (not owned) */
    const ct_hull *ct__hull;   /* private: hull (not owned) */
    ct_vec3 ct__v[3];          /* private: box half extents / ellipsoid semi-axes / triangle */
    void  (*ct__fn)(const void *user, const ct_vec3 *dir, ct_vec3 *out);
    const void *ct__user;
    ct_real radius;            /* rounding radius added to the core (>= 0) */
} ct_shape;
CTDEF ct_shape ct_shape_points(const ct_vec3 *pts, int n);     /* convex hull of points */
CTDEF ct_shape ct_shape_hull(const ct_hull *h);
CTDEF ct_shape ct_shape_sphere(ct_real radius);
CTDEF ct_shape ct_shape_ellipsoid(ct_vec3 semi_axes);
CTDEF ct_shape ct_shape_box(ct_vec3 half_extents);
CTDEF ct_shape ct_shape_triangle(ct_vec3 a, ct_vec3 b, ct_vec3 c);
/* Any convex set given by its support function in the shape's local frame: out = a point of
   the set maximising dot(out, *dir) (dir is not normalised). It must return finite points. */
CTDEF ct_shape ct_shape_support(void (*support)(const void *user, const ct_vec3 *dir, ct_vec3 *out),
                                const void *user);             /* any convex set */
CTDEF ct_shape ct_shape_rounded(ct_shape s, ct_real radius);   /* Minkowski sum with a ball */

/* Opt-in temporal coherence (Box2D style): zero it before the first call for a pair, then pass
   the same cache for the same (a, b) pair every frame. It remembers the last simplex (support
   vertex ids for point/hull/box/triangle shapes), the last separating direction and the last
   support vertex of each shape (hill-climbing starts). A cache from another pair is harmless
   (ids are range-checked) but useless. count is the size of the cached simplex, 0 = cold. */
typedef struct ct_gjk_cache {
    int count;
    int ct__ia[4], ct__ib[4];  /* private: simplex vertex ids on A and B */
    int ct__hint_a, ct__hint_b;/* private: last support vertex of A and B */
    ct_real ct__dir[3];        /* private: last closest point of A - B, in A's frame */
} ct_gjk_cache;

typedef struct ct_distance {
    ct_real distance;   /* signed: > 0 apart, < 0 penetration depth, 0 touching */
    ct_vec3 normal;     /* unit, A -> B; moving B by -distance*normal makes them touch */
    ct_vec3 pa, pb;     /* witness points on A and on B */
    int iterations;     /* GJK iterations (+ EPA iterations for ct_signed_distance) */
} ct_distance;

/* GJK only: distance >= 0 (0 when overlapping, normal then unspecified: the zero vector when
   the cores overlap, pa = pb a common point). Van den Bergen's GJK
   with Montanari, Petrinic & Barbieri's (2017) signed-volume subalgorithm; terminates when the
   lower and upper distance bounds agree to a relative tolerance (a step that stalls in rounding
   within 128 ulps of the scale of touching, with the bounds not excluding contact, reports
   contact: EPA then decides the depth; so does a repeated support point clearly beyond the
   origin within sqrt(eps) of the scale, where the simplex's closest point is rounding);
   CT_NO_CONVERGENCE after
   CT_GJK_MAX_ITERS iterations with the best estimate in *out. Bad shapes/transforms/NULL:
   CT_INVALID with *out zeroed. */
#define CT_GJK_MAX_ITERS 128
CTDEF ct_status ct_gjk(const ct_shape *a, const ct_xform *xa, const ct_shape *b, const ct_xform *xb,
                       ct_gjk_cache *cache /* may be NULL */, ct_distance *out);
/* Signed distance: GJK; when the (rounded) cores are apart the exact answer comes from the
   cores and the radii; when the cores overlap, EPA on the cores (polytope in the scratch,
   at most CT_EPA_MAX_VERTS vertices) plus the radii. Touching shapes give distance 0 (up to
   rounding) with a finite unit normal. s may be NULL (a local scratch is made). */
#define CT_EPA_MAX_VERTS 256
CTDEF ct_status ct_signed_distance(const ct_shape *a, const ct_xform *xa, const ct_shape *b,
                                   const ct_xform *xb, ct_gjk_cache *cache, ct_scratch *s,
                                   ct_distance *out);
/* Convenience in the shape of Solfec's gjk(): distance between the hulls of two point sets
   (0 when they overlap); pa, pb (may be NULL) get the witness points. Returns -1 for bad input
   (NULL, n < 1, NaN/Inf). */
CTDEF ct_real ct_gjk_points(const ct_vec3 *a, int na, const ct_vec3 *b, int nb, ct_vec3 *pa, ct_vec3 *pb);

/* >>polar ----------------------------------------------------------------------------- */
/* The intersection of two convex polyhedra, as a hull (Muller-Preparata polar duality about
   an interior point: the deepest point on the line of centres when that is clearly inside,
   else the Chebyshev centre of A n B by LP, re-centred when the overlap is thin; every
   tolerance relative to the larger extent). Face planes whose halfspace strictly holds the
   other body (its bounding sphere, else its support found by hill climbing over its vertex
   adjacency) are set aside before the dual hull: they cannot touch A n B. When that sets
   aside every plane of one body, the other lies inside it and is returned face for face
   (its vertices, faces and twins, tags on its own planes) without a dual hull. Cost: the
   dual hull (quickhull over the kept planes' dual points) is about 70% of a call on random
   20-vertex pairs and grows with the faces of A n B, not with the planes set aside.
   Hulls whose face planes stray from their vertices (needles and slivers, faces of width near
   rounding) are guarded: a disjoint or touching verdict of the LP that the vertices do not
   bear out along its separating normal is decided by GJK on the vertices (ct_gjk: overlapping
   or within the touching band is touching, i.e. found with zero volume); an A n B with an
   ill-conditioned vertex (plane triple determinant < 1e-3) is checked against every plane and,
   if one is crossed, rebuilt from all of them; such a vertex is placed by its dual face plane
   when that crosses the planes less than the best triple's point.
   Disjoint or only touching (zero volume): CT_OK with out->nfaces == 0 (out is zeroed, and
   ct_hull_free on it is harmless). Otherwise out is a full ct_hull in world coordinates
   whose memory comes from alloc (NULL: CT_MALLOC); vert_source is -1 for every vertex.
   face_tag[f] >= 0: face f lies on face face_tag[f] of A; < 0: on face -face_tag[f]-1 of B.
   A face on coincident planes of A and B (flush stacking) is tagged with A's face.
   Temporaries come from s (NULL: a scratch made and freed here with alloc).
   CT_INVALID for NULL/invalid hulls or transforms; CT_NO_MEMORY; CT_NO_CONVERGENCE only if
   the interior-point LP gives up on a shallow contact (not seen in testing): out is zeroed. */
CTDEF ct_status ct_intersect(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb,
                             ct_scratch *s, const ct_allocator *alloc, ct_hull *out);

typedef struct ct_contact {
    int     found;      /* 1 when the bodies touch or overlap */
    ct_vec3 point;      /* area-weighted centroid of the intersection surface */
    ct_vec3 normal;     /* unit, A -> B: sum of area^2-weighted face normals of A minus those of B */
    ct_real gap;        /* <= 0 */
    ct_real area;       /* half the surface area of the intersection */
    ct_real volume;     /* overlap volume */
    ct_vec3 centroid;   /* overlap volume centroid */
    int     face_a, face_b;  /* faces of A and B nearest to point */
} ct_contact;
/* Solfec's volumetric contact from A n B. Overlap: the fields as documented above; gap is
   minus the length of the chord of A n B through point along normal (Solfec's
   convex_convex_gap) when that chord is plausible, i.e. all of:
     - the normal is defined: the weighted sum is longer than 64 ulps of sum area^2 (else it
       cancelled, as for identical or symmetric bodies, and the normal of the largest face of
       A n B on A, else minus that on B, stands in);
     - the line through point along normal crosses A n B in a segment no longer than the
       width of A n B along normal, and longer than sqrt(eps) times that width;
     - the segment enters A n B through a face of B and leaves it through a face of A (where
       it passes a corner, any face within sqrt(eps) x width of the end counts): it then spans
       the interpenetration from B's surface to A's. Entering and leaving through faces of one
       body it measures that body's thickness instead (containment, identical bodies, a
       sliver cut across a corner).
   Otherwise gap is minus the EPA penetration depth (ct_signed_distance on ct_shape_hull of
   both): the shortest translation that separates the bodies, never more than the depth along
   normal, and normal becomes EPA's direction when it was a stand-in. Should EPA see no
   penetration (an overlap thinner than GJK's tolerance), the chord, or the width of A n B
   along normal when the line misses, is kept.
   Touching (zero-volume overlap: depth within 256 ulps of the extent, scaled up by the
   coordinates' magnitude over the extent, i.e. the rounding the data carry): found = 1, gap = 0,
   volume = 0, normal = the separating direction, point/centroid = centroid of the touching
   polygon, segment or vertex, area = the polygon's area (0 for an edge or vertex).
   Disjoint: found = 0, face_a = face_b = -1. face_a/face_b: the face of A (B) whose plane
   is nearest to point among the faces of A n B on A (B), else among all faces of A (B).
   With a scratch warmed on the same kinds of pairs (the EPA path included) the call allocates
   nothing (NULL: a temporary scratch). Statuses as ct_intersect; on any error *out is zeroed
   (found = 0, face_a = face_b = -1). */
CTDEF ct_status ct_contact_hulls(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                 const ct_xform *xb, ct_scratch *s, ct_contact *out);

/* Solfec's sparsification of redundant contacts between one pair of bodies: in place,
   stable order, returns the number kept. Contact i is dropped when area < minarea, when
   area < threshold * area of another contact of the list, or when its point lies within
   mindist (Euclidean) of a contact kept before it. c == NULL or n <= 0: returns 0. */
CTDEF int ct_sparsify(ct_contact *c, int n, ct_real threshold, ct_real minarea, ct_real mindist);

/* >>sat ------------------------------------------------------------------------------- */
/* Contact manifold of two convex hulls by the separating axis test and clipping: what a game
   engine's contact solver consumes (Gregorius GDC 2013; Box2D v3 / Box3D manifolds).

   ct_manifold_hulls finds the axis of least penetration among the face normals of A and B and
   the edge pairs that build a face of the Minkowski difference (Gauss-map pruning); it stops as
   soon as an axis separates the hulls by more than `speculative` (then count == 0). A face axis
   gives up to CT_MANIFOLD_MAX points: the incident face of the other hull clipped against the
   reference face's side planes, reduced to the deepest point plus the three that maximise the
   contact area. An edge axis gives one point. A face is preferred to an edge unless the edge is
   better by 2% of the separation + 5e-4 x (extent_a + extent_b); a face of B becomes the
   reference only when better than A's by 1% + 2.5e-4 x (extent_a + extent_b). Two hulls that
   are boxes (8 vertices, 6 quads whose normals form 3 orthogonal opposite pairs) take the 15
   axes of the OBB test in closed form (Gottschalk, Lin & Manocha 1996) under the same rules:
   the same axis and features as the general search, at about a third of its cost.

   Each point lies midway between the surfaces: point - separation/2 * normal is on A's surface
   and point + separation/2 * normal on B's; only points with separation <= speculative are
   kept. `id` combines the features of A and B that made the point (vertex, edge or face, with
   14 bits of index) symmetrically, so the same contact keeps its id from frame to frame and
   when A and B are swapped (the normal is then negated). The one price of symmetry: the pair
   (feature X of A, feature Y of B) and (feature Y of A, feature X of B) share an id. Points are
   sorted by id. With count == 0 the normal and the points are zero.

   ct_sat_cache (zero it before first use; one per pair of bodies) remembers the last
   separating axis or contact feature and tests it first: a separating axis that still
   separates answers at once, a contact feature seeds the search so most other axes are
   skipped by bounds. A cache hit returns exactly what a cold call returns. A cache that holds
   indices of another pair of hulls is harmless (it is range-checked, and only steers the
   search). speculative must be finite and >= 0. The hulls' contents are trusted (as built by
   ct_hull_build); transforms must be rigid. No allocation (about 11 KB of stack in double),
   no global state. Hulls of any size work; faces beyond 16 vertices, hulls beyond 64 faces or
   64 listed edges take a slower path for the excess, not a wrong one. */
#define CT_MANIFOLD_MAX 4
typedef struct ct_manifold_point {
    ct_vec3  point;       /* midway between the two surfaces */
    ct_real  separation;  /* < 0 penetrating */
    unsigned id;          /* feature key: same contact, same id, across frames and A/B swap */
} ct_manifold_point;
typedef struct ct_manifold {
    ct_vec3 normal;       /* unit, A -> B */
    int     count;        /* 0 .. CT_MANIFOLD_MAX; 0 = no contact within speculative */
    ct_manifold_point points[CT_MANIFOLD_MAX];
} ct_manifold;
typedef struct ct_sat_cache {
    int type;             /* 0 empty; 1 face index_a of A; 2 face index_b of B; 3 edge pair
                             (half-edges index_a of A and index_b of B) */
    int index_a, index_b;
} ct_sat_cache;

CTDEF ct_status ct_manifold_hulls(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                  const ct_xform *xb, ct_real speculative,
                                  ct_sat_cache *cache /* may be NULL */, ct_manifold *out);

/* Rounded hulls: A is the hull a (its "core") grown by a ball of radius ra (the Minkowski sum,
   ct_shape_rounded(ct_shape_hull(a), ra)), B likewise; radii finite and >= 0. Same conventions
   as ct_manifold_hulls (normal A -> B, <= 4 points sorted by id, midway points, speculative
   filter, symmetric ids, swap symmetry, cache hit == cold call, no allocation). Separations and
   points refer to the rounded surfaces: point - separation/2 * normal is on A's rounded surface
   and point + separation/2 * normal on B's (exactly on the reference face's side and for a
   single point; on the incident side within the rounded hull, off its surface by
   r (1 - cos) of the incident face's tilt).
     1. A cached axis that still separates the cores by more than speculative + ra + rb answers
        at once (count 0; a separation along any axis is at most the distance).
     2. GJK on the cores (Box2D v3 / Box3D style). Cores apart by more than a slop
        (1e-5 x (extent_a + extent_b); 1e-3 in float): if a face of A (or of B) at the closest
        point is parallel to the GJK normal within 0.01 rad, the other hull's incident face is
        clipped against it as in ct_manifold_hulls (a resting rounded box gets 4 points,
        separation = gap - ra - rb, the face normal exactly); else one point (edge-edge,
        vertex-edge, vertex-vertex) with separation d - ra - rb exactly (d: the core distance),
        midway between the rounded surfaces on the line of the closest points. A face clip
        whose deepest point is not the closest pair (within 2% of d + 5e-4 x (extent_a +
        extent_b)) gives way to that single point.
        Two boxes try the closed-form SAT first: a face axis whose clip holds the other box's
        deepest vertex at the axis's separation is exact (that is the distance) and gives the
        same clip without GJK.
     3. Cores overlapping or within the slop: the SAT manifold of the cores (with the
        speculative distance widened by ra + rb), each separation reduced by ra + rb and each
        point moved by (ra - rb)/2 along the normal; if that finds nothing (touching cores whose
        features do not face each other), the closest features give one point.
   ra = rb = 0 gives exactly ct_manifold_hulls' answer and cache (whose separations between
   hulls apart are the SAT's lower bounds of the distance, not the distance). GJK runs cold, so
   the answer does not depend on the cache; the cache keeps an axis (the face most parallel to
   the normal when the cores are apart, the SAT's axis otherwise) for step 1 and the SAT.
   CT_INVALID as ct_manifold_hulls, and for a NaN, infinite or negative radius, and for hulls
   without vertex adjacency (vert_first/vert_adj) beyond CT_HULL_SCAN_MAX vertices. */
CTDEF ct_status ct_manifold_rounded_hulls(const ct_hull *a, const ct_xform *xa, ct_real ra, const ct_hull *b,
                                          const ct_xform *xb, ct_real rb, ct_real speculative,
                                          ct_sat_cache *cache /* may be NULL */, ct_manifold *out);

/* Extra: a hull A against a sphere B (centre in world coordinates, radius >= 0): one point,
   the normal from A to B. Outside the hull the point comes from the hull's closest point to
   the centre (exact: face, edge or vertex); inside, from the face of least penetration.
   Same conventions as above (midway point, separation, speculative, symmetric id). */
CTDEF ct_status ct_manifold_hull_sphere(const ct_hull *a, const ct_xform *xa, ct_vec3 center, ct_real radius,
                                        ct_real speculative, ct_manifold *out);

/* >>ellipsoid ------------------------------------------------------------------------- */
/* Perram-Wertheim contact of two solid ellipsoids (J. W. Perram, M. S. Wertheim, J. Comput.
   Phys. 58 (1985) 409; contact point after Donev, Torquato, Stillinger, J. Comput. Phys. 202
   (2005) 737). An ellipsoid is given by its three semi-axes along the local x, y, z axes and a
   transform (NULL: centred at the origin, axis-aligned).

   F is the PW contact function: the ellipsoids each scaled by sqrt(F) about their centres
   touch, so F < 1 overlap, F = 1 tangent, F > 1 apart (F is dimensionless; moving B along the
   line of centres scales F with the square of the centre distance). lambda in [0,1] is the
   maximiser of S(lambda) = lambda (1 - lambda) R^T G^-1 R, G = (1-lambda) A^-1 + lambda B^-1;
   pass last step's value as lambda_guess to warm-start a persistent pair (NULL: a cold start
   that is exact for spheres); any guess is clamped into the interval that the semi-axes
   prove holds the maximiser, [a_min / (a_min + b_max), a_max / (a_max + b_min)]. Swapping A and B maps lambda to 1 - lambda and negates the
   normal. normal is the unit common normal of the scaled ellipsoids at their contact, from A
   to B; point is where they touch (world). gap = R.n - h_A(n) - h_B(-n) (h the support
   functions about the centres): the separation of the two bodies' projections on the normal,
   negative when they overlap; it has the sign of F - 1 and equals R.n (1 - 1/sqrt(F)). It is
   a lower bound of the true distance when apart, not the exact penetration depth.

   Coincident centres (R = 0): F = 0, the normal is the principal axis (of A or B) of least
   overlap, point is the centre. Returns CT_INVALID for NULL out, NaN/Inf input, a semi-axis
   <= 0, a transform that is not a rigid motion, or centres too far apart to subtract;
   CT_DEGENERATE when a semi-axis is so much smaller than another that its square underflows;
   CT_NO_CONVERGENCE (outputs hold the last iterate) when the iteration cap (64 evaluations of
   S') is hit, which the bracketed Newton iteration does not do in practice: 1-2 evaluations
   for spheres, about 4-5 for moderate shapes cold (3-4 warm), up to ~16 at aspect 1:100.
   Accuracy is relative, degrading like (largest/smallest semi-axis)^2. Allocates nothing. */
typedef struct ct_pw {
    ct_real F;          /* contact function: < 1 overlap, 1 tangent, > 1 apart */
    ct_real lambda;     /* maximiser of S(lambda) on [0,1] */
    ct_vec3 normal;     /* unit, A -> B */
    ct_vec3 point;      /* where the scaled ellipsoids touch */
    ct_real gap;        /* signed, along normal */
    int     iterations; /* evaluations of S' (0 for coincident centres) */
} ct_pw;
CTDEF ct_status ct_ellipsoids(ct_vec3 semi_a, const ct_xform *xa, ct_vec3 semi_b, const ct_xform *xb,
                              const ct_real *lambda_guess /* warm start, may be NULL */, ct_pw *out);

/* >>broadphase ------------------------------------------------------------------------ */
/* Closed boxes overlap when they intersect or touch on every axis (a shared face, edge or
   corner counts; zero-size boxes are fine). A box with NaN/Inf or with lo > hi on some axis
   is invalid: the call returns CT_INVALID (no pairs are guessed for it). Results are exact
   (no tolerance: the same <= comparisons as a brute-force loop) and identical for any number
   of OpenMP threads and for a build without OpenMP (or with CT_NO_OPENMP). Called from inside
   a parallel region the calls run on the calling thread only (no nested team).
   Cost: n log n plus the number of pairs, on uniform, clustered (also far apart) and
   mixed-size scenes (a few huge boxes among many small ones are handled apart); see
   detail/broadphase.h for the algorithm. Temporary memory: about 170 bytes per box (double) plus 4 per
   pair, besides the 8 bytes per pair of the result. Every allocation happens on the calling
   thread, so the allocator need not be thread-safe. */
typedef struct ct_pair  { int a, b; } ct_pair;   /* a < b (bipartite: a indexes set A, b set B) */
typedef struct ct_pairs {
    ct_pair *items;
    size_t   count;
    ct_allocator ct__alloc;  /* private: the allocator of items */
} ct_pairs;

/* Every pair of closed boxes that overlap (touching counts), each once, sorted by (a, b):
   the same output for any number of threads. out is overwritten (not read); free it with
   ct_pairs_free. On error out is empty. items is NULL when count is 0. */
CTDEF ct_status ct_broadphase(const ct_aabb *boxes, int n, const ct_allocator *a, ct_pairs *out);
/* Every (a, b) with A[a] and B[b] overlapping, sorted by (a, b). */
CTDEF ct_status ct_broadphase_bipartite(const ct_aabb *A, int na, const ct_aabb *B, int nb,
                                        const ct_allocator *a, ct_pairs *out);
/* Frees items and empties *p; a zeroed or already freed ct_pairs is fine. */
CTDEF void      ct_pairs_free(ct_pairs *p);

/* The parallel loop over box pairs: fn runs once per overlapping pair, concurrently on
   OpenMP threads (thread = omp thread number). Typical use: narrow phase inside fn.
   thread is omp_get_thread_num() of the thread running fn, so it is below
   omp_get_max_threads() and can index per-thread data (one ct_scratch per thread). Pairs are
   handed out in small dynamic chunks, so uneven narrow-phase costs balance. Called from inside
   a parallel region, every fn runs on the calling thread (thread = its number in the
   enclosing team): no oversubscription. The pair list is built first (CT_MALLOC memory,
   freed before returning); the order of the calls is unspecified. */
typedef void (*ct_pair_fn)(void *user, int a, int b, int thread);
CTDEF ct_status ct_broadphase_foreach(const ct_aabb *boxes, int n, ct_pair_fn fn, void *user);

/* >>scene ----------------------------------------------------------------------------- */
/* The whole collision step over a scene of bodies: fat world boxes, the broad phase when some
   body left its fat box, a persistent pair table with each pair's caches, the narrow phase on
   all OpenMP threads (one ct_scratch per thread, owned by the scene), and the touching pairs
   with begin/persist/end events. The scene owns no shape: a body's ct_shape refers to the
   caller's hull or points, which must outlive the body (as for ct_shape_hull).

   Example (a complete program is in README.md):
       ct_scene *scene;
       ct_scene_result r;
       ct_body_desc d = { 0 };
       int id;
       ct_scene_create(NULL, NULL, &scene);             (manifolds, speculative 0)
       d.shape = ct_shape_hull(&hull); d.xform_ref = &my_xforms[k];
       ct_scene_add(scene, &d, &id);
       each frame: move my_xforms; ct_scene_step(scene, &r);
                   for (i = 0; i < r.ntouching; ++i) solve(&r.touching[i]);
       ct_scene_destroy(scene);

   Bodies and ids. ct_scene_add returns a stable id (>= 0) that stays the body's until it is
   removed; a removed body's id is reused only after the next successful step, so the end
   events of its pairs name it unambiguously. Adding and removing bodies between steps is
   cheap (no rebuild: the next step runs the broad phase). A body's transform is read at every
   step from *xform_ref when that is not NULL (the caller's memory, no copy; it must outlive
   the body), else from the stored xform (ct_scene_set_xform replaces it and drops xform_ref).
   Transforms must be rigid (as everywhere). A body's shape (and the hull or points it refers
   to) must not change while the body is in the scene: remove and add it instead.

   Filter: bodies a and b are paired when (a.group & b.mask) and (b.group & a.mask) are both
   non-zero; group = mask = 0 (a zeroed desc) means group 1, mask all bits (pairs with all).

   Fat boxes: a body's tight world box (the hull's vertices under its transform, else the
   support along the world axes, plus the rounding radius) is grown by margin on every side
   (margin 0: 0.1 x the half-diagonal of the tight box when it is made). The broad phase runs
   when some body's tight box leaves its fat box, or bodies were added or removed; otherwise
   the last pair set is reused. The narrow phase runs on the pairs whose fat boxes overlap,
   except (temporal coherence and cheap bounds) a pair whose two transforms are bitwise
   unchanged since the last successful step keeps its answer, and a pair proven apart by more
   than the speculative distance is not touching without a call: tight boxes (grown by the
   speculative distance) apart, bounding spheres of two hulls apart, or the last step's lower
   bound of the distance (the SAT axis's separation, the signed distance, the PW gap) minus a
   bound of how far each body's points moved since (|dp| + ||dR||_F x the body's reach).
   With speculative = 0 this is exactly what the routine would say; with speculative > 0 a
   SAT routine may report a point for a pair that is apart by more than speculative (its
   separations are lower bounds), and the scene then may not.

   The default routine for each pair of shape kinds (A, B as stored, a < b; "hull" is
   ct_shape_hull with radius 0, "rounded hull" with a radius, "sphere" ct_shape_sphere
   (rounded or not), "ellipsoid" ct_shape_ellipsoid with radius 0; "other" is everything else:
   points, box, triangle, support, rounded ellipsoid):
       pair                      CT_SCENE_MANIFOLD                  CT_SCENE_VOLUMETRIC
       hull - hull               ct_manifold_hulls (ct_sat_cache)   ct_contact_hulls, then
                                                                    ct_sparsify(minarea)
       hull/rounded - rounded    ct_manifold_rounded_hulls (cache)  one-point (below)
       hull - sphere             ct_manifold_hull_sphere            one-point
       ellipsoid - ellipsoid     ct_ellipsoids (lambda warm start)  ct_ellipsoids
       any other                 one-point                          one-point
   "one-point": ct_signed_distance (ct_gjk_cache kept per pair, the thread's scratch): normal,
   separation = distance, point midway between the witness points, id 0; a ct_contact gets
   found, point (= centroid), normal and gap, with area = volume = 0 and face_a = face_b = -1.
   ct_ellipsoids gives normal, point (where the scaled ellipsoids touch) and gap (the
   separation; a lower bound of the distance when apart). A box gets a 4-point manifold as a
   hull (ct_hull_box + ct_shape_hull). A pair touches when its manifold has count > 0
   (separation <= speculative) or its contact has found = 1.

   Output (ct_scene_result, valid until the next call on the scene): touching = every touching
   pair, sorted by (a, b), event CT_SCENE_BEGIN (not touching at the last successful step) or
   CT_SCENE_PERSIST, with its manifold (CT_SCENE_MANIFOLD) or contact (CT_SCENE_VOLUMETRIC; the
   other field stays zero) and the status of its routine (CT_OK, or CT_NO_CONVERGENCE with the
   routine's best estimate); ended = the pairs that touched at the last successful step and do
   not now (event CT_SCENE_END; separated, left the broad phase, or a body was removed), sorted
   by (a, b), with this step's result (zeroed when not computed). The output is identical for
   any number of threads and bit-identical to the routine of the table called on the pair
   with the pair's caches (the hull manifolds and ct_contact_hulls: to cold calls, whose cache
   hits are exact), up to the culls above. Volumetric mode sends a hull pair to
   ct_contact_hulls only when ct_manifold_hulls, with a speculative distance of 4096 ulps of
   the coordinates' magnitude (16x ct_contact_hulls' touching band), finds no separating axis.

   Threads: desc.threads (0: omp_get_max_threads(); 1 inside a parallel region; 1 without
   OpenMP or with CT_NO_OPENMP). With more than one thread the per-thread scratches may grow
   on their threads, so the allocator must then be thread-safe (NULL, malloc, is).
   Memory: the scene, its per-body arrays, its pair table (two buffers), its outputs and its
   scratches come from the allocator given to ct_scene_create; after warm-up a step allocates
   only inside ct_broadphase, on steps where it runs.

   Statuses. ct_scene_create: CT_INVALID for a bad desc (unknown mode, negative or NaN
   speculative/minarea, threads < 0) or NULL out. ct_scene_add: CT_INVALID for a NULL argument,
   an invalid shape (as the shape queries would say), a NaN or negative margin or a non-rigid
   transform. ct_scene_remove / ct_scene_set_xform: CT_INVALID for an id that is not a live
   body or a bad transform. ct_scene_step: CT_INVALID when some live body's transform is not
   finite and rigid (or its box is not finite), CT_NO_MEMORY, or the first failing status of a
   pair routine in (a, b) order. On any error the scene is as before the call (no event is
   lost or repeated; the step can be retried once the cause is fixed) and *out is zeroed.
   Not thread-safe on one scene (one scene per thread is fine); no global state. */
typedef struct ct_scene ct_scene;
typedef enum ct_scene_mode {
    CT_SCENE_MANIFOLD = 0,      /* game engine: ct_manifold_* with a speculative distance */
    CT_SCENE_VOLUMETRIC = 1     /* DEM: ct_contact_hulls + ct_sparsify */
} ct_scene_mode;
typedef struct ct_scene_desc {
    ct_scene_mode mode;
    ct_real speculative;        /* manifold mode: keep points with separation <= this (>= 0) */
    ct_real minarea;            /* volumetric mode: ct_sparsify drops contacts with area < this */
    int     threads;            /* 0: omp_get_max_threads() */
} ct_scene_desc;
typedef struct ct_body_desc {
    ct_shape shape;             /* refers to the caller's hull/points (not copied) */
    ct_xform xform;             /* used when xform_ref is NULL */
    const ct_xform *xform_ref;  /* read at every step when not NULL (the caller's memory) */
    void    *user;              /* returned by ct_scene_user */
    unsigned group, mask;       /* filter; both 0: group 1, mask all */
    ct_real  margin;            /* fat-box margin (>= 0; 0: 0.1 x half-diagonal) */
} ct_body_desc;
typedef enum ct_scene_event { CT_SCENE_BEGIN = 1, CT_SCENE_PERSIST = 2, CT_SCENE_END = 3 } ct_scene_event;
typedef struct ct_scene_contact {
    int a, b;                   /* body ids, a < b; normals point from a to b */
    ct_scene_event event;
    ct_status status;           /* CT_OK or CT_NO_CONVERGENCE */
    ct_manifold manifold;       /* CT_SCENE_MANIFOLD */
    ct_contact  contact;        /* CT_SCENE_VOLUMETRIC */
} ct_scene_contact;
typedef struct ct_scene_result {
    const ct_scene_contact *touching;  /* ntouching, sorted by (a, b) */
    int ntouching;
    const ct_scene_contact *ended;     /* nended, sorted by (a, b) */
    int nended;
    int nbegan;                 /* touching pairs with event CT_SCENE_BEGIN */
    int npairs;                 /* pairs in the table (fat boxes overlapping, filters passed) */
    int broadphase;             /* 1 when the broad phase ran in this step */
} ct_scene_result;

/* A new empty scene (desc NULL: manifolds, speculative 0, all threads). Free with
   ct_scene_destroy (NULL is fine). */
CTDEF ct_status ct_scene_create(const ct_scene_desc *desc, const ct_allocator *a, ct_scene **out);
CTDEF void      ct_scene_destroy(ct_scene *s);
/* Adds a body; *id gets its id (-1 on error). */
CTDEF ct_status ct_scene_add(ct_scene *s, const ct_body_desc *d, int *id);
/* Removes a body: its touching pairs end at the next step. */
CTDEF ct_status ct_scene_remove(ct_scene *s, int id);
/* Stores the body's transform for the next steps (and drops its xform_ref). */
CTDEF ct_status ct_scene_set_xform(ct_scene *s, int id, const ct_xform *x);
/* The body's user pointer (NULL for an id that is not a live body). */
CTDEF void     *ct_scene_user(const ct_scene *s, int id);
/* One collision step (see above). */
CTDEF ct_status ct_scene_step(ct_scene *s, ct_scene_result *out);

#ifdef __cplusplus
}
#endif
#endif /* CONTACT_H_INCLUDED */

/* ====================================================================================== */
/*                                    IMPLEMENTATION                                      */
/* ====================================================================================== */
#ifdef CONTACT_IMPLEMENTATION
#ifndef CONTACT_IMPLEMENTATION_DONE
#define CONTACT_IMPLEMENTATION_DONE

#if defined(CT_MALLOC) && defined(CT_FREE)
#elif !defined(CT_MALLOC) && !defined(CT_FREE)
#else
#error "contact.h: define both CT_MALLOC and CT_FREE, or neither"
#endif

#include "detail/math.h"
#include "detail/xform.h"
#include "detail/alloc.h"

/* quickhull and mass properties */
#include "detail/hull.h"
#include "detail/mass.h"

/* shapes, support functions, GJK, EPA */
#include "detail/shape.h"
#include "detail/gjk.h"
#include "detail/epa.h"

/* polar intersection and the volumetric contact */
#include "detail/polar.h"
#include "detail/volcontact.h"

/* SAT manifolds */
#include "detail/sat.h"

/* ellipsoids */
#include "detail/ellipsoid.h"

/* broad phase */
#include "detail/broadphase.h"

/* scene: the whole step (broad phase, pair table, narrow phase, events) */
#include "detail/scene.h"


#endif /* CONTACT_IMPLEMENTATION_DONE */
#endif /* CONTACT_IMPLEMENTATION */

/*
------------------------------------------------------------------------------
This software is available under 2 licenses -- choose whichever you prefer.
------------------------------------------------------------------------------
ALTERNATIVE A - MIT License
Copyright (c) 2026 the contact.h authors
Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:
The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
ALTERNATIVE B - Public Domain (www.unlicense.org)
This is free and unencumbered software released into the public domain.
Anyone is free to copy, modify, publish, use, compile, sell, or distribute this
software, either in source code form or as a compiled binary, for any purpose,
commercial or non-commercial, and by any means.
------------------------------------------------------------------------------
*/
