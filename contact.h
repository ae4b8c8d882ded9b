/* contact.h - v0.1 - convex contact detection in one header. Public domain / MIT (see end).

   GJK/EPA distance and penetration, quickhull, polar intersection of convex
   polyhedra (the volumetric contact of DEM codes), SAT manifolds, ellipsoid contact
   (Perram-Wertheim) and an OpenMP broad phase. C99 and C++, double or float.

   USAGE
     In exactly one C or C++ file:
         #define CONTACT_IMPLEMENTATION
         #include "contact.h"
     everywhere else just #include "contact.h".

         ct_hull a, b;
         ct_contact c;
         if (ct_hull_build(pts_a, na, NULL, NULL, &a) == CT_OK &&
             ct_hull_build(pts_b, nb, NULL, NULL, &b) == CT_OK &&
             ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c) == CT_OK && c.found)
             apply(c.point, c.normal, c.gap);
         ct_hull_free(&a); ct_hull_free(&b);

   FILES
     "One header" means contact.h together with the detail/ directory next to it, which holds
     the implementation (one algorithm per file): copy both. For a single self-contained
     file run `premake4 --file=premake5.lua amalgamate` (writes build/contact.h).

   TABLE OF CONTENTS (grep for the tags)
     >>config      compile-time options
     >>types       vectors, transforms, status, allocator, scratch (detail/math.h, alloc.h, xform.h)
     >>quickhull   quickhull, mass properties                    (detail/hull.h, mass.h)
     >>gjk         shapes, GJK distance, EPA penetration         (detail/shape.h, gjk.h, epa.h)
     >>polar       polar intersection, volumetric contact        (detail/polar.h, volcontact.h)
     >>sat         SAT + clipping contact manifolds              (detail/sat.h)
     >>ellipsoid   Perram-Wertheim ellipsoid contact             (detail/ellipsoid.h)
     >>broadphase  OpenMP box-pair search and parallel pair loop (detail/broadphase.h)
     >>export      debug export to Wavefront OBJ and legacy VTK  (detail/export.h)
     >>mpi         optional MPI domain-decomposed broad phase    (detail/mpi.h; CONTACT_MPI)
     >>query       shape AABBs, ray casts, shape casts / TOI     (detail/aabb.h, toi.h, raycast.h)
     >>pairs       manifolds of spheres, boxes, capsules, cylinders, hulls (detail/manifold_pairs.h)
     >>mesh        meshes, heightfields: hull/sphere/capsule contacts, ray casts (detail/mesh.h)
     >>scene       the whole step: bodies, pair table, events    (detail/scene.h)
     >>pfc         PFC rigid blocks: warm/reduced contact, erosion, walls (detail/pfc.h, erode.h, wall.h)

   COMPILE-TIME OPTIONS (>>config). Define before every #include of contact.h unless noted.
     CT_REAL              scalar type, double (default) or float. Must be the same in every file.
     CONTACT_STATIC       define in the implementation file: every function becomes static.
     CTDEF                override the decoration of public functions (default extern).
     CT_MALLOC, CT_FREE   default allocator used when a ct_allocator* is NULL; define both
                          or neither (implementation file only). Signatures as malloc/free.
     CT_ASSERT(x)         checks internal invariants only (never user data): the adjacency
                          (twins, closed face loops) and Euler's formula of every hull made,
                          GJK simplex and EPA polytope sizes, manifold and pair-list order.
                          Default: off unless CONTACT_DEBUG is defined, then assert(). The
                          `sanitize` configuration of premake5.lua (ASan+UBSan) runs every
                          test with it on.
     CT_NO_OPENMP         build the broad phase serially even under -fopenmp.
     CT_NO_SIMD           plain C support scans even where SSE2 is available (the SSE2 scan
                          of point sets, double only, gives the same index bit for bit).
     CONTACT_MPI          declare and build the MPI part (>>mpi); #include <mpi.h> first.

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
     Points are in world coordinates; lengths (distances, gaps, separations, `speculative`)
     are world lengths. A NULL const ct_xform* is the identity; a non-NULL one must be rigid.
     Bad input (NULL, negative counts, NaN/Inf) returns CT_INVALID; never a crash.
     Prose spells "centre"; the identifiers keep `center` (ct_hull.center, arguments).
     Bounds are stated with the names of the CT__* constants (detail/ files, each with its
     reason) and their values. What each routine's normal, depth and point mean:

     routine                 normal (A -> B)          depth (< 0: overlap)        point
     ct_gjk                  closest-point direction  distance >= 0 (0 overlap)   pa, pb closest
     ct_signed_distance      EPA: min translation     -depth of least transl.     pa, pb witnesses
     ct_contact_hulls        area-weighted faces of   -chord of A n B along the   centroid of the
                             A n B (Solfec)           normal (else EPA depth)     overlap surface
     ct_manifold_*           reference face / edge    SAT separation per point    midway, <= 4
                             pair axis of least pen.  along the normal            sorted by id
     ct_ellipsoids           common normal of the     gap = R.n - h_A - h_B       where the scaled
                             scaled ellipsoids (PW)   (sign of F - 1)             ellipsoids touch
     They coincide for two boxes resting face to face (same normal, depth = overlap along it).
     They differ by design when the overlap is not a slab: the chord and the SAT separation
     measure along their own normal, EPA along the shortest way out. Measured on random
     overlapping 20-point hulls (polar/conventions_measured_on_random_hulls): see README.md.

   ARGUMENT ORDER (one rule for every function)
     1. the inputs, body by body: the body (hull, shape, points + count, semi-axes), then its
        transform, then its own parameters (a rounding radius): a, xa, ra, b, xb, rb;
     2. the call's parameters (speculative distance, tolerances, descriptors, callbacks);
     3. the cache (per pair, may be NULL), then the scratch, then the allocator;
     4. the outputs, last.
     Functions that act on one object (ct_hull_free, ct_scratch_init, ct_bp_update,
     ct_scene_step) take that object first; a collective MPI call takes its communicator
     first (the group it runs on). Export functions end with their sink (format, fn, user).

   VERSION HISTORY
     0.1  (2026-11)  foundation: types, allocator, scratch, math; quickhull; GJK/EPA;
                     polar intersection; SAT manifolds; ellipsoids; broad phase; OBJ/VTK export.
                     Optional MPI broad phase (CONTACT_MPI).
                     PFC rigid blocks: warm-started full resolution (ct_contact_hulls_warm,
                     ct_contact_cache), reduced resolution (ct_contact_hulls_reduced), erosion
                     (ct_hull_erode, ct_hull_rounded_volume, ct_hull_rounded_mass), whole walls
                     (ct_contact_mesh_hull).
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
    CT_NO_CONVERGENCE, /* an iteration hit its cap; outputs hold the best estimate */
    CT_WRITE_FAILED    /* an export's write function reported a failure */
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

/* Vector helpers (the arithmetic the library itself uses). Plain arithmetic without checks or
   statuses (NaN in, NaN out), reentrant, allocation-free. ct_vec3_length scales by the
   largest |component| first, so it neither overflows nor underflows for finite vectors. */
CTDEF ct_vec3 ct_vec3_make(ct_real x, ct_real y, ct_real z);
CTDEF ct_vec3 ct_vec3_add(ct_vec3 a, ct_vec3 b);
CTDEF ct_vec3 ct_vec3_sub(ct_vec3 a, ct_vec3 b);
CTDEF ct_vec3 ct_vec3_scale(ct_vec3 a, ct_real s);
CTDEF ct_real ct_vec3_dot(ct_vec3 a, ct_vec3 b);
CTDEF ct_vec3 ct_vec3_cross(ct_vec3 a, ct_vec3 b);
CTDEF ct_real ct_vec3_length(ct_vec3 a);
/* Applying a transform (NULL: identity): ct_xform_point gives r p + t (a point),
   ct_xform_vector r v (a direction or normal: no translation); the inverse ones give
   r^T (p - t) and r^T v, exact inverses for a rigid x (r a rotation). */
CTDEF ct_vec3 ct_xform_point(const ct_xform *x, ct_vec3 p);
CTDEF ct_vec3 ct_xform_vector(const ct_xform *x, ct_vec3 v);
CTDEF ct_vec3 ct_xform_inv_point(const ct_xform *x, ct_vec3 p);
CTDEF ct_vec3 ct_xform_inv_vector(const ct_xform *x, ct_vec3 v);

/* Transform helpers. q = (x, y, z, w), normalised internally; p is the translation. They never
   fail: a NULL, zero or non-finite q (a zero or non-finite axis or angle) gives the identity
   rotation, so the result is always a valid rigid transform when p is finite. */
CTDEF ct_xform ct_xform_identity(void);
CTDEF ct_xform ct_xform_from_quat(const ct_real q[4], ct_vec3 p);
CTDEF ct_xform ct_xform_from_axis_angle(ct_vec3 axis, ct_real angle, ct_vec3 p);

/* >>quickhull ------------------------------------------------------------------------- */
/* A hull the library built (ct_hull_build, ct_intersect, ct_hull_box, ct_hull_erode) was
   checked then and is trusted by every query: do not modify its arrays. A hull filled by hand
   must start zeroed (ct__valid 0); the queries then check its planes on every call. */
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
    unsigned     ct__valid;       /* private: CT__HULL_VALID when built by the library (complete
                                     adjacency, finite contents): queries skip its checks */
    unsigned long long ct__hash;  /* private: with ct__valid, a hash of the planes
                                     (tells a hull rebuilt in the same memory from the old one) */
    ct_real      ct__short;       /* private: > 0 when some edge is shorter than this (a length
                                     within reach of rounding): hill climbs explore such edges */
    ct_real     *ct__depth;       /* private: per face, the depth of center below it,
                                     -(n.center + d), and ct__inner the least of them (the
                                     SAT's bounds); set by the library's builds, else NULL */
    ct_real      ct__inner;
} ct_hull;
#define CT__HULL_VALID 0x48554C4Cu

typedef struct ct_hull_desc {
    ct_real eps;          /* 0: relative default (a few ulps of the input's extent); otherwise
                             the distance below which points count as coplanar, relative to
                             the extent (half-width sum of the bounding box) */
    ct_scratch *scratch;  /* temporaries (NULL: a temporary scratch); building many hulls
                             with one scratch allocates only their output blocks */
} ct_hull_desc;

/* Convex hull of npts points (quickhull; detail/hull.h). Faces are maximal coplanar polygons
   (a cube: 8 vertices, 6 quads, 12 edges), CCW seen from outside, with unit outward planes;
   every vertex has 3 or more faces; points within the tolerance of the hull are not vertices;
   duplicates are fine. Computed in double also when ct_real is float.
   Tolerance tol: desc->eps == 0 (default): eps_r (3 E + 2 M) (CT__QH_TOL_EXT, CT__QH_TOL_ABS),
   eps_r the epsilon of ct_real, E the half-width sum of the bounding box, M the largest
   |coordinate|; desc->eps > 0: desc->eps * max(E, eps_r M).
   Guarantee (checked by the tests on every hull): every input point p has n.p + d <=
   CT__QH_BOUND (8) tol on every face plane, plus the ct_real rounding of evaluating the plane,
   and every face polygon is convex within CT__QH_BOUND tol, for the tolerance the hull was
   built with: desc->eps > 0 is an upper bound (a finer one, down to the default, is used where
   the guarantee needs it); at the default, sets only a few tolerances thick may be built with
   up to 4096 times the default tolerance.
   CT_INVALID: out NULL, npts < 0, pts NULL, NaN/Inf, desc->eps negative or NaN.
   CT_DEGENERATE: fewer than 4 points, or all points within the tolerance of a plane, a line or
   a point. CT_NO_MEMORY. On error *out is zeroed.
   Memory: the hull owns one block from `a` (NULL: CT_MALLOC), freed by ct_hull_free;
   temporaries come from desc->scratch (NULL: a temporary scratch), so building many hulls
   with one warm scratch allocates only their output blocks. */
CTDEF ct_status ct_hull_build(const ct_vec3 *pts, int npts, const ct_hull_desc *desc /* NULL: defaults */,
                              const ct_allocator *a, ct_hull *out);
/* Frees the hull's block with the allocator it was built with; zeroes *h. NULL is fine. */
CTDEF void      ct_hull_free(ct_hull *h);
/* Volume (divergence theorem over the faces) and, if centroid != NULL, its centroid. Fan sums
   in double, checked against their rounding bound: where that exceeds 1e-7 of the volume
   (needles, slivers far from the origin) volume and centroid are summed exactly (detail/mass.h;
   ct_hull_mass's mass too, its inertia keeps the fan sums). */
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
   ones are scanned (the choice of the threshold: detail/shape.h). A hull is convex only to
   rounding: where it has edges short enough for rounding to turn them (near copies of a
   vertex), a climb that stops at one explores its cluster before it ends. */
#ifndef CT_HULL_SCAN_MAX
#define CT_HULL_SCAN_MAX 10   /* may be overridden (implementation file) */
#endif
typedef enum ct_shape_type {
    CT_SHAPE_POINTS = 1, CT_SHAPE_HULL, CT_SHAPE_SPHERE, CT_SHAPE_ELLIPSOID, CT_SHAPE_BOX,
    CT_SHAPE_TRIANGLE, CT_SHAPE_SUPPORT, CT_SHAPE_CYLINDER
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
/* A solid cylinder of the given radius about the local z axis, z in [-half_height, half_height]
   (PFC's cylinders; a capsule is ct_shape_rounded of a 2-point ct_shape_points segment). GJK,
   EPA (a curved core: refined as ellipsoids are), ct_shape_aabb and the queries take it. */
CTDEF ct_shape ct_shape_cylinder(ct_real radius, ct_real half_height);

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

/* GJK distance (detail/gjk.h): distance >= 0 between the rounded shapes, 0 when they overlap
   (normal then the zero vector when the cores overlap, pa = pb a common point). The distance
   is exact to the relative tolerance CT__GJK_REL (1e3 ulps) of the lower and upper bounds;
   shapes within rounding of touching (CT__GJK_TOUCH, 128 ulps of the scale; CT__GJK_STALL,
   sqrt(eps) of it, when a support beyond the origin repeats or brings no progress) are in
   contact (distance 0), for EPA to decide. CT_NO_CONVERGENCE after CT_GJK_MAX_ITERS
   iterations with the best estimate in *out. CT_INVALID (bad shapes, transforms, NULL) with
   *out zeroed. Allocates nothing. */
#define CT_GJK_MAX_ITERS 128
CTDEF ct_status ct_gjk(const ct_shape *a, const ct_xform *xa, const ct_shape *b, const ct_xform *xb,
                       ct_gjk_cache *cache /* may be NULL */, ct_distance *out);
/* Signed distance (detail/epa.h): the GJK distance when the cores are apart; when they
   overlap, minus the penetration depth (the shortest translation of B that separates them)
   by EPA on the cores plus the radii (EPA stops when its bounds agree within CT__EPA_REL,
   256 ulps relative, for polytopes). On curved cores (ellipsoids, support functions) EPA's
   answer is refined until the support point along the normal is parallel to it: the depth is
   then exact to about eps relative on strictly convex smooth shapes, concentric ones included.
   Where the depth's minimum sits on a flat facet of a curved A - B (a face of a hull, box,
   triangle or cloud, or a cylinder's cap, against the other core's support point: an
   ellipsoid on a wall) the depth at that face's normal is taken when the foot point lies on
   the facet: exact there too; likewise on the patch of an edge of a polytope core against
   the curved one (an ellipsoid on a box's edge: Newton along the circle of normals that keep
   the edge's ends tied). Elsewhere on a curved A - B that is not strictly convex EPA's curved
   tolerance (CT__EPA_REL_SMOOTH, 1e-7 relative; 1e-4 in float) stands. When EPA's bounds
   stay loose (deep in a near-sphere the depth can have several local minima, some at kinks),
   a polytope core (cloud, hull, box; at most 64 vertices) against a curved one has its
   features enumerated (face normals, minima along each edge's arc of normals, each vertex's
   patch by Newton): every candidate is scored by the support function itself, so the least
   is the depth. An ellipsoid with three equal semi-axes is a ball and is taken as a
   sphere (exact, as polytopes are). Touching shapes give distance 0 (up to rounding) with a
   finite unit normal. The polytope
   (at most CT_EPA_MAX_VERTS vertices) lives in s (NULL: a temporary scratch): a warm scratch
   allocates nothing. Statuses as ct_gjk, plus CT_NO_MEMORY, and CT_NO_CONVERGENCE when the
   polytope fills up or stalls far from converged (CT__EPA_STUCK) and the refinement fails
   too, *out then holding the best lower bound. */
#define CT_EPA_MAX_VERTS 256
CTDEF ct_status ct_signed_distance(const ct_shape *a, const ct_xform *xa, const ct_shape *b,
                                   const ct_xform *xb, ct_gjk_cache *cache, ct_scratch *s,
                                   ct_distance *out);
/* Convenience in the shape of Solfec's gjk(): distance between the hulls of two point sets
   (0 when they overlap); pa, pb (may be NULL) get the witness points. Returns -1 for bad input
   (NULL, n < 1, NaN/Inf). */
CTDEF ct_real ct_gjk_points(const ct_vec3 *a, int na, const ct_vec3 *b, int nb, ct_vec3 *pa, ct_vec3 *pb);

/* >>polar ----------------------------------------------------------------------------- */
/* The intersection A n B of two convex polyhedra, as a hull in world coordinates (polar
   duality about an interior point; detail/polar.h). Tested against the brute force over all
   plane triples. Disjoint or only touching (zero volume: the depth of the deepest interior
   point within CT__POLAR_TOUCH, 256 ulps of the extent, scaled up by the coordinates'
   magnitude over the extent): CT_OK with out->nfaces == 0 (out zeroed; ct_hull_free on it is
   harmless). Otherwise out is a full ct_hull; vert_source is -1 for every vertex;
   face_tag[f] >= 0: face f lies on face face_tag[f] of A; < 0: on face -face_tag[f]-1 of B;
   a face on coincident planes of A and B (flush stacking) is tagged with A's face. A body
   inside the other is returned face for face (its vertices, faces, twins and tags).
   Memory: out owns one block from alloc (NULL: CT_MALLOC); temporaries come from s (NULL: a
   scratch made and freed here with alloc). CT_INVALID for NULL/invalid hulls or transforms;
   CT_NO_MEMORY; CT_NO_CONVERGENCE if the interior-point LP gives up on a shallow contact (not
   seen in testing), or if the bodies' face planes cannot resolve A n B: a vertex of the
   planes' intersection lies outside a body's bounding sphere of doubled radius, or (with an
   ill-conditioned vertex) more than 1e-3 of its faces' area is inverted (needles whose long
   faces meet at angles near the rounding of their normals, e.g. 0.2 thick and 1.6e7 long;
   detail/polar.h, ct__polar_bounded). On error out is zeroed. */
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
/* Solfec's volumetric contact from A n B (detail/volcontact.h). Overlap: the fields as
   documented above; gap is minus the length of the chord of A n B through point along normal
   (Solfec's convex_convex_gap) when that chord measures the interpenetration: the normal is
   defined (the weighted sum longer than CT__VC_NORMAL, 64 ulps, of sum area^2; else it
   cancelled, as for identical or symmetric bodies, and the normal of the largest face of
   A n B on A, else minus that on B, stands in), the chord is no longer than the width of
   A n B along normal and longer than CT__VC_FEATURE (sqrt(eps)) times it, and it enters
   A n B through a face of B and leaves it through a face of A (at a corner: any face within
   CT__VC_FEATURE x width of the end). Otherwise (containment, identical bodies, a sliver cut
   across a corner) gap is minus the EPA penetration depth (ct_signed_distance on the hulls),
   never more than the depth along normal, and a stand-in normal becomes EPA's direction;
   should EPA see no penetration (thinner than GJK's tolerance) the chord, or the width along
   normal, is kept.
   Touching (zero volume, as ct_intersect): found = 1, gap = 0, volume = 0, normal = the
   separating direction, point = centroid = centroid of the touching polygon, segment or
   vertex, area = the polygon's area (0 for an edge or vertex).
   Disjoint: found = 0, face_a = face_b = -1. face_a/face_b: the face of A (B) whose plane
   is nearest to point among the faces of A n B on A (B), else among all faces of A (B).
   Memory: temporaries from s (NULL: a temporary scratch); with a scratch warmed on the same
   kinds of pairs (the EPA path included) the call allocates nothing. Statuses as
   ct_intersect; on any error *out is zeroed (found = 0, face_a = face_b = -1). */
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
   better by CT__SAT_EDGE_REL (2%) of the separation + CT__SAT_EDGE_ABS (5e-4) x (extent_a +
   extent_b); a face of B becomes the reference only when better than A's by CT__SAT_FACE_REL
   (1%) + CT__SAT_FACE_ABS (2.5e-4) x (extent_a + extent_b). Two boxes (8 vertices, 6 quads in
   3 orthogonal opposite pairs) get the same axis and features from a closed-form OBB test.
   Every pair whose signed distance is <= speculative gets at least one point (units of
   speculative: a world length). For hulls apart the deepest separation equals the distance
   within 1024 eps (extent_a + extent_b) (the manifold then comes from the closest features
   when the SAT clip does not hold the distance); for penetrating hulls it is the winning
   axis's separation, within the biases above of the signed distance. points[deepest] is the
   point of least separation.

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
   skipped by bounds. From a pair's second call on it also keeps, for a contact, a certificate:
   the few faces and edges that come within a lead of the decisions (the lead: about three
   calls' worth of the pair's motion so far, at least 2% of the hulls' size), re-evaluated
   exactly on later calls, and bounds on every other axis, valid while the bodies move less
   than the lead. So a contact moving by 0.05% of its size and 0.1 degree per call is answered
   by a few axes on most calls and a resting one on nearly all; at 1 degree per call a
   certificate would answer two or three calls, less than it costs to make with the lead such
   motion sets, so the cache makes none while the lead exceeds twice its least (a pair whose
   certificates do not pay waits longer and longer; each tries again as soon as it slows
   down). A cache hit returns exactly what a cold call returns. A cache that holds indices of another
   pair of hulls is harmless (it is range-checked, and only steers the search; a certificate
   is used only for the hulls it was made for, told by their planes arrays and a hash of their
   planes, and only for hulls built by the library). speculative must be finite and >= 0. The
   hulls' contents are trusted (as built by ct_hull_build); transforms must be rigid. No
   allocation (about 20 KB of stack in double), no global state. Hulls of any size work;
   faces beyond 16 vertices, hulls beyond 64 faces or 64 listed edges take a slower path for
   the excess, not a wrong one. */
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
    int     deepest;      /* index of the point of least separation (first on ties); 0 when
                             count == 0 */
} ct_manifold;
/* The feature a ct_sat_cache remembers (Box3D's b3SeparatingFeature). */
typedef enum ct_sat_feature {
    CT_SAT_NONE = 0,      /* empty */
    CT_SAT_FACE_A,        /* face index_a of A */
    CT_SAT_FACE_B,        /* face index_b of B */
    CT_SAT_EDGES          /* edge pair: half-edges index_a of A and index_b of B */
} ct_sat_feature;
#define CT__SAT_LIVE 16  /* live edges of each hull a certificate holds (detail/sat.h) */
#define CT__SAT_LIST 8   /* faces of each hull a certificate re-evaluates (detail/sat.h) */
typedef struct ct_sat_cache {
    ct_sat_feature type;
    int index_a, index_b;
    /* private: the certificate of the last full query (detail/sat.h, ct__sat_cert_query) */
    int ct__ok, ct__nla, ct__nlb, ct__nrows, ct__ncols, ct__wait, ct__retry, ct__calls, ct__hits;
    unsigned short ct__la[CT__SAT_LIST], ct__lb[CT__SAT_LIST];       /* faces re-evaluated */
    unsigned short ct__rows[CT__SAT_LIVE], ct__cols[CT__SAT_LIVE];   /* live half-edges (< 65536) */
    ct_real ct__g[3];                  /* bounds: other faces of A, of B, other edge pairs */
    ct_real ct__room;                  /* the least lead over them at that pose */
    ct_real ct__step;                  /* the pair's motion per call (a recent largest) */
    ct_real ct__slow;                  /* the motion per call at which the last one did not pay */
    ct_xform ct__rel;                  /* the relative transform they hold at */
    const void *ct__key[2];            /* the pair they belong to: planes arrays and hashes */
    unsigned long long ct__hash[2];
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
   r (1 - cos) of the incident face's tilt). Cores apart by more than CT__SAT_ROUND_SLOP
   (1e-5; 1e-3 in float) x (extent_a + extent_b): separations come from the GJK distance d of
   the cores (a face clip when a face at the closest point is parallel to the normal within
   CT__SAT_ROUND_PAR, about 0.01 rad: separation = d - ra - rb along the face normal; else one
   point with separation d - ra - rb exactly). Cores overlapping or closer: the SAT manifold of
   the cores with each separation reduced by ra + rb. ra = rb = 0 gives exactly
   ct_manifold_hulls' answer and cache. The answer does not depend on the cache (GJK runs
   cold; the cache only lets a still-separating axis answer at once). The cases in full:
   detail/sat.h. CT_INVALID as ct_manifold_hulls, and for a NaN, infinite or negative
   radius, and for hulls without vertex adjacency (vert_first/vert_adj) beyond
   CT_HULL_SCAN_MAX vertices. */
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
   CT_DEGENERATE when a semi-axis is so much smaller than another that its square underflows,
   or when G never factors in working precision; CT_NO_CONVERGENCE (outputs hold the last
   iterate that factored) when the iteration cap (CT__PW_MAX_ITER, 64 evaluations of S') is
   hit, seen only beyond the working precision's aspect ratio (G's condition, the aspect squared,
   near 1/eps: past about 1:1e3 in float, where G factors at some lambdas and not at others near
   them, so there a pair, its swap and a warm start can end with different statuses). Accuracy
   is relative, degrading like (largest/smallest semi-axis)^2. Allocates nothing. */
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
   Temporary memory: about 170 bytes per box (double) plus 4 per pair, besides the 8 bytes
   per pair of the result. Every allocation happens on the calling thread, so the allocator
   need not be thread-safe. The algorithm and its cost: detail/broadphase.h. */
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

/* Incremental broad phase for time steps. ct_bp keeps, besides the result, a "fat" copy of
   every box (the box grown by margin times its largest extent on every side) and the pairs
   of overlapping fat boxes; a step re-queries only the boxes that left their fat box, and
   the exact closed-box test over those candidates gives the step's pairs: always the same
   set as ct_broadphase on the same boxes, for any number of threads. Added and removed come
   from the same pass (each candidate remembers whether it was a pair). Memory: the arrays a
   step replaces (pairs, candidates) and its temporaries (a scratch as large as the largest
   step's: about 1 byte per candidate plus 20 per re-queried candidate) are kept and reused by
   the next step, so a step writes into pages it already owns; about 2 x (8 bytes per pair +
   9 per candidate) in all, plus about 90 bytes per box (double; 70 in float). Fields pairs, added
   and removed are read-only, owned by the ct_bp and valid until the next update or free.
   Not thread-safe on one ct_bp (updates run OpenMP teams themselves); queries on a ct_bp
   that is not being updated may run concurrently. */
typedef struct ct_bp {
    ct_pairs pairs;     /* this step's overlapping pairs, sorted by (a, b), a < b */
    ct_pairs added;     /* in pairs, not in the previous step's pairs; sorted */
    ct_pairs removed;   /* in the previous step's pairs, not in pairs; sorted */
    /* private */
    int ct__n, ct__valid, ct__nb;
    ct_real ct__margin, ct__mag, ct__h[3], ct__inv[3], ct__org[3];
    ct_aabb ct__bounds;        /* of the fat boxes */
    ct_aabb *ct__fat;
    int *ct__head, *ct__next, *ct__prev, *ct__bucket;
    ct_pairs ct__cand;         /* pairs of overlapping fat boxes, sorted */
    unsigned char *ct__was;    /* per candidate: 1 when it is among pairs */
    float *ct__fbox;           /* the boxes rounded outwards to float (lo, -hi), 6 per box */
    ct_pair *ct__cspare, *ct__pspare;   /* arrays a step replaced, reused by the next step */
    unsigned char *ct__wspare;
    size_t ct__ccap, ct__pcap, ct__wcap, ct__cspare_cap, ct__pspare_cap, ct__wspare_cap;   /* capacities */
    ct_allocator ct__alloc;
    ct_scratch ct__scr;        /* a step's temporaries, kept for the next step */
} ct_bp;
/* Empties *bp. margin: the fat boxes' growth as a fraction of each box's largest extent,
   0 for the default (0.05; zero-size boxes get no margin and are re-queried when they move).
   Larger margins re-query less often but test more candidates. CT_INVALID for a negative
   or non-finite margin. Memory comes from a (NULL: CT_MALLOC/CT_FREE). */
CTDEF ct_status ct_bp_init(ct_bp *bp, ct_real margin, const ct_allocator *a);
/* One step: boxes[0..n) are this step's boxes (the ct_bp keeps no pointer to them). moved
   lists the indices of the boxes that changed since the last update (any order, repeats
   fine), or is NULL when any may have; boxes not listed must be unchanged. The first update,
   and one whose n differs from the last, starts from scratch (added = pairs relative to the
   previous pairs, none before the first). CT_INVALID for bad boxes (as ct_broadphase), a
   NULL bp or boxes, n < 0, or a moved index outside [0, n); then nothing changes. On
   CT_NO_MEMORY the previous step's results stay and the next update starts from scratch. */
CTDEF ct_status ct_bp_update(ct_bp *bp, const ct_aabb *boxes, int n, const int *moved, int nmoved);
/* Frees everything the ct_bp owns and empties it; a zeroed or freed ct_bp is fine. */
CTDEF void      ct_bp_free(ct_bp *bp);

/* Query results: box indices with, for rays, the entry distance t (0 for box queries). */
typedef struct ct_hit  { int id; ct_real t; } ct_hit;
typedef struct ct_hits {
    ct_hit *items;
    size_t  count;
    ct_allocator ct__alloc;  /* private: the allocator of items */
} ct_hits;
/* Every box of the last update (boxes: the same array, unchanged) overlapping the closed box
   q, sorted by index, each once. CT_INVALID for a bad q or a ct_bp without a successful
   update. out is overwritten; free it with ct_hits_free. Reentrant on a constant ct_bp. */
CTDEF ct_status ct_bp_query_box(const ct_bp *bp, const ct_aabb *boxes, ct_aabb q, const ct_allocator *a,
                                ct_hits *out);
/* Every box of the last update met by the ray origin + t dir, 0 <= t <= max_t (dir need
   not be unit; max_t may be +inf), with t its entry distance (0 when the origin is inside),
   sorted by (t, index). The slab test runs in ct_real: a ray grazing a face within rounding
   may go either way, the same way for every query. CT_INVALID for NaN/Inf origin or dir, a
   zero dir, max_t NaN or < 0, or a ct_bp without a successful update. */
CTDEF ct_status ct_bp_query_ray(const ct_bp *bp, const ct_aabb *boxes, ct_vec3 origin, ct_vec3 dir, ct_real max_t,
                                const ct_allocator *a, ct_hits *out);
/* Frees items and empties *h; a zeroed or already freed ct_hits is fine. */
CTDEF void      ct_hits_free(ct_hits *h);

/* Periodic boundaries (DEM): the cell is the box [cell.lo, cell.hi); on each axis k with
   periodic[k] != 0 space repeats with period L = cell.hi - cell.lo. A pair (a, b, shift),
   a < b, is reported when box a overlaps box b translated by shift[k] * L_k on every axis
   (shift is 0 on the other axes), once per such shift: a pair meeting through two images
   is reported twice. Sorted by (a, b, shift). On periodic axes every box must have its lower
   corner in the cell and extent at most L (so shifts are -1, 0 or 1); CT_INVALID otherwise,
   for a bad cell (lo >= hi on a periodic axis, NaN/Inf) and as ct_broadphase. Exact, and the
   same for any number of threads. Free out with ct_ppairs_free. */
typedef struct ct_ppair  { int a, b; int shift[3]; } ct_ppair;
typedef struct ct_ppairs {
    ct_ppair *items;
    size_t    count;
    ct_allocator ct__alloc;  /* private: the allocator of items */
} ct_ppairs;
CTDEF ct_status ct_broadphase_periodic(const ct_aabb *boxes, int n, ct_aabb cell, const int periodic[3],
                                       const ct_allocator *a, ct_ppairs *out);
/* Frees items and empties *p; a zeroed or already freed ct_ppairs is fine. */
CTDEF void      ct_ppairs_free(ct_ppairs *p);
/* >>export ---------------------------------------------------------------------------- */
/* Debug export: geometry as text for a viewer (ParaView/VisIt read legacy VTK; Blender,
   MeshLab and most tools read Wavefront OBJ). Nothing is allocated and no file is opened:
   the text goes through `fn(user, bytes, n)`, which returns 0 on success and anything else to
   stop the export (the call then returns CT_WRITE_FAILED; the stream holds a prefix).
   ct_write_stdio is such a function for a FILE* passed as user (the implementation includes
   <stdio.h>; this declaration does not).
   Every input is checked before the first byte is written: NULL fn or object, an unknown
   format, a hull whose counts, offsets or vertex ids are inconsistent or whose vertices are
   not finite, an invalid transform, a NaN/Inf point or normal, a negative count or arrow,
   a box with lo > hi: CT_INVALID and nothing written.
   Coordinates are printed in full precision (17 significant digits in double, 9 in float),
   so they read back to the same ct_real. VTK files are ASCII POLYDATA (points; VERTICES,
   LINES, POLYGONS cells in that order; named int arrays under CELL_DATA, named arrays under
   POINT_DATA); OBJ files carry the same points and cells (v; p, l, f, 1-based) without the
   arrays. A normal is drawn as a line of length `arrow` (world units; 0: not drawn).
   Reentrant; the only state is the caller's. */
typedef int (*ct_write_fn)(void *user, const char *bytes, size_t n);
typedef enum ct_export_format { CT_EXPORT_OBJ = 1, CT_EXPORT_VTK } ct_export_format;

/* A hull placed by x (NULL: identity): its vertices and faces (CCW from outside). Cell
   arrays: face_id, and face_tag when h->face_tag is set (ct_intersect's output: >= 0 on face
   face_tag of A, < 0 on face -face_tag-1 of B). Point array: vert_source when set. */
CTDEF ct_status ct_export_hull(const ct_hull *h, const ct_xform *x, ct_export_format format, ct_write_fn fn,
                               void *user);
/* A contact from ct_contact_hulls: the point (a vertex cell), the normal arrow (a line from
   the point), and the faces of the intersection polyhedron `overlap` (ct_intersect's output
   for the same pair, in world coordinates; NULL or empty: none), which hold the contact
   polygons. Cell arrays: part (0 point, 1 arrow, 2 face on A, 3 face on B) and face (its
   index in its body, -1 for the point and the arrow). A contact with found == 0 writes an
   empty data set. */
CTDEF ct_status ct_export_contact(const ct_contact *c, const ct_hull *overlap, ct_real arrow,
                                  ct_export_format format, ct_write_fn fn, void *user);
/* A manifold: its points (vertex cells), their polygon counter-clockwise about the normal (3
   or 4 points; a line for 2), and the normal arrow from their mean. Cell array part (0
   point, 1 arrow, 2 segment or polygon); point arrays separation and id (0 and -1 on the
   arrow). count == 0 writes an empty data set. */
CTDEF ct_status ct_export_manifold(const ct_manifold *m, ct_real arrow, ct_export_format format,
                                   ct_write_fn fn, void *user);
/* Boxes (a broad-phase input): 8 corners and 6 quads each (outward, CCW), cell array box. */
CTDEF ct_status ct_export_aabbs(const ct_aabb *boxes, int n, ct_export_format format, ct_write_fn fn,
                                void *user);
/* A scene: hull i placed by xforms[i] (xforms NULL: all identity), then for every contact with
   found != 0 its point and normal arrow. Cell arrays: body and face (-1 for contact cells),
   contact (its index in contacts, -1 for faces). */
CTDEF ct_status ct_export_scene(const ct_hull *const *hulls, const ct_xform *xforms, int n,
                                const ct_contact *contacts, int ncontacts, ct_real arrow,
                                ct_export_format format, ct_write_fn fn, void *user);
/* A ct_write_fn for a FILE* passed as user: 0 when every byte was written. */
CTDEF int ct_write_stdio(void *file, const char *bytes, size_t n);
/* >>mpi ------------------------------------------------------------------------------- */
/* Optional (define CONTACT_MPI and #include <mpi.h> before contact.h, in every file that uses
   it and in the implementation file; without CONTACT_MPI nothing here exists and no MPI is
   needed). The broad phase of one set of boxes spread over the ranks of a communicator.

   Each rank passes its own boxes; a box is named globally by ct_mpi_id {rank, index}: the rank
   that passed it and its index there. Space is cut into one region per rank by recursive
   coordinate bisection (ct_mpi_decomp). Regions are half-open: below a cut is x[axis] < cut,
   above is x[axis] >= cut, so every point of space lies in exactly one region. A box is sent
   to every rank whose region it meets (its ghosts there). A pair of overlapping boxes (closed
   boxes, touching counts, exactly as ct_broadphase) is OWNED by the rank whose region holds
   the min corner of the pair's intersection box (both boxes meet that region, so both are
   there) and is reported there only: every overlapping pair of the global set is reported
   exactly once, also for boxes on cut planes or spanning many regions, and the union over the
   ranks equals ct_broadphase on all boxes gathered in rank order (global index = index plus
   the box counts of the lower ranks), bit for bit. The result depends on the decomposition
   only through where each pair is reported.

   Collective: every rank of comm must make the same call (n may differ, also be 0). Statuses
   are agreed by an MPI_Allreduce, so all ranks return the same one: bad input on any rank
   (CT_INVALID: NULL where not allowed, n < 0, NaN/Inf or lo > hi, a decomposition made for
   another number of ranks) or an allocation failure on any rank (CT_NO_MEMORY) fails all.
   comm == MPI_COMM_NULL returns CT_INVALID at once (no communication). Communication:
   MPI_Allgather/Allgatherv of samples (decomposition), MPI_Alltoall of counts and one
   MPI_Alltoallv of box records (56 bytes each in double, plus the payload of the foreach).
   Ranks must share one binary layout of ct_real (homogeneous cluster). MPI errors abort under
   MPI's default error handler; with MPI_ERRORS_RETURN the rank that sees one returns
   CT_INVALID. No global state; several calls may run at once on different communicators. */
#if defined(CONTACT_MPI)
#if !defined(MPI_VERSION)
#error "contact.h: CONTACT_MPI needs #include <mpi.h> before contact.h"
#endif
typedef struct ct_mpi_id { int rank, index; } ct_mpi_id;
/* a < b: (a.rank, a.index) lexicographically below (b.rank, b.index) */
typedef struct ct_mpi_pair { ct_mpi_id a, b; } ct_mpi_pair;
typedef struct ct_mpi_pairs {
    ct_mpi_pair *items;      /* the pairs this rank owns, sorted by (a, b) */
    size_t count;
    ct_allocator ct__alloc;  /* private: the allocator of items */
} ct_mpi_pairs;

/* A recursive coordinate bisection: nranks - 1 cuts in a binary tree (preorder, root 0), each
   splitting its ranks [r0, r1) into [r0, r0 + (r1-r0)/2) below and the rest above, along the
   longest axis of the sample centres in its region, at the sample quantile matching that share
   of ranks. Identical on every rank. Keep it and reuse it as long as the bodies stay roughly
   where they were; rebuild it (collectively) when the balance degrades. */
typedef struct ct_mpi_decomp {
    int nranks;              /* size of the communicator it was built for */
    int *axis;               /* per cut: 0, 1 or 2 */
    ct_real *cut;            /* per cut: below is x[axis] < cut, above x[axis] >= cut */
    int *child;              /* per cut, below then above: >= 0 another cut, < 0 rank -child-1 */
    ct_allocator ct__alloc;  /* private: the owner's allocator */
    void *ct__block;         /* private: one block holds the arrays */
} ct_mpi_decomp;

/* Traffic of one call on this rank (self excluded). */
typedef struct ct_mpi_stats {
    long long sent, received;             /* box records to / from other ranks (a box once per
                                             destination) */
    long long bytes_sent, bytes_received; /* their size on the wire */
    int searched;                         /* boxes searched here: own boxes meeting the own
                                             region plus the ghosts received */
    long long pairs;                      /* pairs owned (reported) here */
} ct_mpi_stats;

/* Collective. Builds the decomposition from the centres ((lo + hi) / 2) of a sample of the
   boxes: samples_per_rank times the number of ranks in all (0: CT_MPI_SAMPLES), drawn from the
   ranks in proportion to their box counts, evenly strided over each rank's boxes, gathered on
   every rank (MPI_Allgatherv). out is owned by the caller (ct_mpi_decomp_free) and its memory
   comes from a (NULL: CT_MALLOC). Statuses as above; on error *out is zeroed. */
#define CT_MPI_SAMPLES 1024
CTDEF ct_status ct_mpi_decomp_build(MPI_Comm comm, const ct_aabb *boxes, int n, int samples_per_rank,
                                    const ct_allocator *a, ct_mpi_decomp *out);
/* Frees the arrays and zeroes *d; NULL or a zeroed decomposition is fine. */
CTDEF void      ct_mpi_decomp_free(ct_mpi_decomp *d);
/* The rank whose region holds p (a NaN coordinate goes above its cut); -1 for a NULL or
   zeroed decomposition. Local, no communication. */
CTDEF int       ct_mpi_decomp_rank(const ct_mpi_decomp *d, ct_vec3 p);

/* Collective. The pairs this rank owns, with global ids, sorted by (a, b) (ids in rank order,
   so the concatenation over ranks 0, 1, ... is also free of repeats). decomp: a decomposition
   of comm's size, built by ct_mpi_decomp_build on the same comm (NULL: one is built from these
   boxes and freed); one of another size or shape is CT_INVALID. Any decomposition gives the
   exact pair set; a good one balances the work and keeps the ghosts few. owner (n entries, may be NULL): for each local box, the rank whose region
   holds its centre, where it should migrate; -1 on error. stats may be NULL. out->items comes
   from a (NULL: CT_MALLOC); free with ct_mpi_pairs_free. On error out is empty. */
CTDEF ct_status ct_mpi_broadphase(MPI_Comm comm, const ct_aabb *boxes, int n, const ct_mpi_decomp *decomp,
                                  const ct_allocator *a, ct_mpi_pairs *out, int *owner, ct_mpi_stats *stats);
/* Frees items and empties *p; a zeroed or already freed ct_mpi_pairs is fine. */
CTDEF void      ct_mpi_pairs_free(ct_mpi_pairs *p);

/* The loop over the pairs this rank owns: fn runs once per owned pair (a < b), concurrently on
   OpenMP threads as in ct_broadphase_foreach, in unspecified order. Each box may carry
   data_size bytes of payload (data + i * data_size for local box i; data may be NULL when
   data_size is 0), shipped with its ghosts, so fn gets both bodies' payloads (16-byte aligned,
   valid during the call only; NULL when data_size is 0): the narrow phase can run on the owner
   rank. Temporary memory from CT_MALLOC. decomp, owner, stats as ct_mpi_broadphase. If the
   pair search fails on some rank after others have begun calling fn, the status is still
   agreed, but some calls may have run. */
typedef void (*ct_mpi_pair_fn)(void *user, ct_mpi_id a, const void *data_a, ct_mpi_id b,
                               const void *data_b, int thread);
CTDEF ct_status ct_mpi_broadphase_foreach(MPI_Comm comm, const ct_aabb *boxes, int n, const void *data,
                                          size_t data_size, const ct_mpi_decomp *decomp, ct_mpi_pair_fn fn,
                                          void *user, int *owner, ct_mpi_stats *stats);
#endif /* CONTACT_MPI */
/* >>query ----------------------------------------------------------------------------- */
/* Bounding box of a shape (core plus rounding radius) under x (NULL: identity), exact for
   every kind: boxes (half width sum_j |R_ij| h_j), ellipsoids (sqrt(sum_j (R_ij a_j)^2)),
   spheres, triangles, point sets and hulls (their vertices), support-function shapes (the six
   axis supports, so as tight as the support function is exact). CT_INVALID (and *out zeroed)
   for NULL, an invalid shape or transform, or a box not finite in ct_real (a support function
   returning NaN/Inf). Allocates nothing; reentrant. */
CTDEF ct_status ct_shape_aabb(const ct_shape *s, const ct_xform *x, ct_aabb *out);

/* Ray cast: the first point of the shape (core plus radius, under x; NULL: identity) on the
   segment origin + t * translation, t in [0, 1]. hit = 1 and fraction = that t, point = the
   world point, normal = the unit outward surface normal there (world; on a sphere of radius 0,
   a point, the ray's reverse direction), face = the face hit
   for hulls (index into planes) and boxes (0..5: +x, -x, +y, -y, +z, -z), rounded or not,
   else -1 (also on a rounded edge or corner).
   A segment that starts inside the shape reports no hit (Box2D's convention); one that starts
   on the surface may report a hit at 0 or none. An empty translation hits nothing.
   Spheres, boxes, hulls, rounded boxes and hulls, and ellipsoids are exact (closed forms,
   plane clipping, the faces, edges and vertices of the rounded surface); every other shape
   (point sets, triangles, support functions, rounded ellipsoids and points) takes
   conservative advancement on the GJK distance (as ct_time_of_impact), whose fraction never
   lies past the surface by more than rounding and is within CT__TOI_REL (1e-8, float 1e-4)
   of the shape's size of it; iterations counts its GJK calls (0 for the exact kinds).
   CT_INVALID (output zeroed, face -1) for NULL, an invalid shape or transform, NaN/Inf
   origin or translation, or a hit beyond the range of ct_real; CT_NO_CONVERGENCE when the
   advancement hits CT_TOI_MAX_ITERS (no hit reported). Allocates nothing; reentrant. */
typedef struct ct_ray_hit {
    int     hit;        /* 1 when the segment reaches the shape */
    ct_real fraction;   /* point = origin + fraction * translation */
    ct_vec3 point;      /* world */
    ct_vec3 normal;     /* unit outward normal of the shape at point (world) */
    int     face;       /* hull / box face hit, else -1 */
    int     iterations; /* GJK calls of the advancement (0 for the closed forms) */
} ct_ray_hit;
CTDEF ct_status ct_ray_cast(const ct_shape *s, const ct_xform *x, ct_vec3 origin, ct_vec3 translation,
                            ct_ray_hit *out);

/* Time of impact (shape cast) by conservative advancement (Mirtich 1996; the motion of Box2D's
   b2TimeOfImpact): A sweeps from xa0 to xa1 and B from xb0 to xb1 over the fraction t in
   [0, 1], each origin on a straight line and each body turning about its origin at a constant
   rate about the fixed axis of R1 R0^T (angle at most pi). Finds the first t at which the
   distance between the (rounded) shapes comes down to target (>= 0, e.g. a linear slop;
   touching would be 0): hit = 1, fraction = t with target <= distance <= target + tol where
   tol = CT__TOI_REL (1e-8; float 1e-4) x the pair's size (sum of the bounding-box half
   diagonals), and the distance is above target on all of [0, t) (never past the first
   contact, GJK's rounding apart). normal (unit, A -> B), pa, pb (witness points on the
   surfaces) and distance are those at t. Pure translations advance by Newton steps on the
   convex distance (a few GJK calls); rotations by the bound (dp_a - dp_b).n + angle_a r_a +
   angle_b r_b on the approach rate (r: the largest distance of a core point from the body's
   origin), which takes more steps the more the rotation dominates. Starting within target:
   hit = 1, fraction = 0 (overlapping cores: normal zero; cores that meet
   exactly later in the sweep get the approach direction). No contact in the sweep: hit = 0,
   fraction = 1, the rest zero. cache (may be NULL) warm-starts each GJK call.
   CT_INVALID (output zeroed, fraction 1) for NULL shapes or out, invalid shapes or
   transforms, a NaN, infinite or negative target, or a hit beyond the range of ct_real;
   CT_NO_CONVERGENCE after CT_TOI_MAX_ITERS
   steps, with hit = 0 and fraction the (conservative) time reached. No allocation. */
#define CT_TOI_MAX_ITERS 256
typedef struct ct_toi {
    int     hit;        /* 1: the distance reaches target within the sweep */
    ct_real fraction;   /* of the sweep, in [0, 1] */
    ct_real distance;   /* surface distance at fraction (about target when hit) */
    ct_vec3 normal;     /* unit, A -> B, at fraction */
    ct_vec3 pa, pb;     /* witness points on A and B at fraction (world) */
    int     iterations; /* GJK calls */
} ct_toi;
CTDEF ct_status ct_time_of_impact(const ct_shape *a, const ct_xform *xa0, const ct_xform *xa1,
                                  const ct_shape *b, const ct_xform *xb0, const ct_xform *xb1,
                                  ct_real target, ct_gjk_cache *cache /* may be NULL */, ct_toi *out);

/* >>pairs ----------------------------------------------------------------------------- */
/* Contact manifolds of rounded primitives, with the conventions of ct_manifold_hulls: normal
   unit A -> B, each point midway between the surfaces (point -+ separation/2 * normal on A's /
   B's surface), separation < 0 penetrating, only points with separation <= speculative
   (finite, >= 0), ids symmetric in A and B from the features that made the point, points
   sorted by id, count 0 and everything zero when nothing is within speculative. Swapping A
   and B negates the normal and keeps points, separations and ids. No allocation, reentrant.
   CT_INVALID (out zeroed) for NULL, NaN/Inf, negative radii or half extents, invalid
   transforms or hulls, and for finite inputs so large that the answer overflows ct_real.

   A capsule is a segment p0-p1 in its body's frame rounded by radius (p0 == p1: a sphere).
   As a ct_shape (for GJK, ray casts, TOI) it is ct_shape_rounded(ct_shape_triangle(p0, p1,
   p1), radius), a value type that needs no memory. */
typedef struct ct_capsule { ct_vec3 p0, p1; ct_real radius; } ct_capsule;
/* Two spheres (centres in world coordinates): one point. Coincident centres: normal +z. */
CTDEF ct_status ct_manifold_spheres(ct_vec3 ca, ct_real ra, ct_vec3 cb, ct_real rb, ct_real speculative,
                                    ct_manifold *out);
/* A box (half extents, placed by xa) against a sphere: one point, the box's closest point to
   the centre (face, edge or corner feature) or, with the centre inside, the face of least
   penetration. The same answer as ct_manifold_hull_sphere on ct_hull_box, without a hull. */
CTDEF ct_status ct_manifold_box_sphere(ct_vec3 half, const ct_xform *xa, ct_vec3 center, ct_real radius,
                                       ct_real speculative, ct_manifold *out);
/* Two capsules: the closest points of the segments (one point, separation = distance - ra -
   rb); segments parallel within 0.005 rad whose projections overlap give two points, the ends
   of the overlap (a capsule lying on a capsule). Crossing segments: normal along u x v. */
CTDEF ct_status ct_manifold_capsules(const ct_capsule *a, const ct_xform *xa, const ct_capsule *b,
                                     const ct_xform *xb, ct_real speculative, ct_manifold *out);
/* A hull (radius 0) against a capsule. Apart: GJK on the cores; if a face of A is parallel to
   the GJK normal within 0.005 rad the segment is clipped to that face's prism (up to two
   points, a capsule lying on a face), else the closest pair (separation = distance - radius).
   Segment touching or inside the hull: the separating axis test over A's face normals and
   A's edges crossed with the segment (a face is kept unless an edge is better by 2% + 5e-4
   of the size), then the same clip, or the edge-segment closest pair. Clip separations are
   distances to the face plane. A clip whose deepest point is farther than the closest pair /
   the axis's separation (beyond rounding), or nearer by more than 2% + 5e-4 of the size,
   gives way to one point: the closest pair, or the deepest end of the segment. */
CTDEF ct_status ct_manifold_hull_capsule(const ct_hull *a, const ct_xform *xa, const ct_capsule *b,
                                         const ct_xform *xb, ct_real speculative, ct_manifold *out);
/* A hull (radius 0; a box as ct_hull_box) against a solid cylinder (ct_shape_cylinder: radius,
   half_height >= 0 about the local z axis of xb). The signed distance (GJK, or EPA when they
   overlap) gives the normal and the closest / deepest pair; then, when a face of A is parallel
   to that normal within 0.005 rad: a cap facing it is clipped to the face's prism (its rim as 8
   points at fixed angles of the local x axis, plus the deepest rim point when the cap is tilted
   deeper than those, plus the face's vertices lying on the disk; reduced to 4 as
   ct_manifold_hulls: a cylinder standing on a box gets 4 points), or the side line facing it
   is (up to 2 points: a cylinder lying on a face); when a cap is parallel to the normal, A's
   edge facing it (normal to the normal within 0.005 rad) is clipped to the disk (2 points: a
   cylinder standing across a ridge). A clip whose deepest point is farther than the pair's
   separation (beyond rounding), or nearer by more than 2% + 5e-4 of the size, gives way to the
   one point, which is also the answer in every other case (a rim or side point). Conventions of
   the manifolds above (normal A -> B; midway points; speculative; symmetric ids; sorted by
   id). EPA's polytope and the cap's candidates live in s (NULL: a temporary scratch; a warm
   one allocates nothing). CT_INVALID as above (also for a bad radius or half_height);
   CT_NO_MEMORY; with CT_NO_CONVERGENCE the answer from EPA's best bound. */
CTDEF ct_status ct_manifold_hull_cylinder(const ct_hull *a, const ct_xform *xa, ct_real radius, ct_real half_height,
                                          const ct_xform *xb, ct_real speculative, ct_scratch *s,
                                          ct_manifold *out);
/* >>mesh ------------------------------------------------------------------------------ */
/* Triangle meshes and heightfields (detail/mesh.h), and hulls, spheres and capsules against them.

   ct_mesh_build copies the vertices and triangles (3 vertex ids each, counter-clockwise seen
   from the front side: the side contacts push towards) and computes each triangle's unit
   normal, its neighbour across each edge (adj: the triangle that runs the edge the other way;
   -1 on a boundary, a non-manifold edge or an inconsistent winding), the active flags and an
   AABB tree. An edge is active when it is a boundary or convex with the neighbour's normal more
   than 1 degree away (CT__MESH_ACTIVE_COS); flat and concave edges are internal. A vertex is
   active when an edge of any triangle at it is. Triangles of no area (|e1 x e2| at most
   CT__MESH_DEGEN, 64 ulps, of |e1|^2 + |e2|^2) are kept in tris but never collide and are no
   one's neighbour. CT_INVALID: out NULL, verts or tris NULL, nverts < 3, ntris < 1 (or beyond
   2^28), a NaN/Inf vertex, an index outside [0, nverts). CT_DEGENERATE: every triangle has no
   area. CT_NO_MEMORY. On error *out is zeroed. Memory: one block from `a` (NULL: CT_MALLOC),
   freed by ct_mesh_free; temporaries of the build come from `a` too.
   ct_mesh_heightfield: the grid heights[j * nx + i] at (i dx, j dy, height), nx, ny >= 2
   (at most 2^14 each), dx, dy > 0, two triangles per cell (diagonal (i, j)-(i+1, j+1)), front
   side +z; statuses as above.

   ct_manifold_hull_mesh: the contacts of a hull A (radius 0, placed by xa) with the mesh B
   (placed by xm), normals A -> B. The tree gives the triangles whose boxes meet A's box grown by
   speculative; each is tested one-sided (a triangle whose plane has A's centre behind it is
   skipped) by the separating axis test over the triangle's face, A's faces, and A's edges
   crossed with the triangle's active edges, with the preferences of ct_manifold_hulls
   (CT__SAT_FACE_*, CT__SAT_EDGE_*; the triangle's face first), and clipped as there (A's
   incident face against the triangle's side planes, or the triangle against A's reference
   face's; an edge pair whose closest points lie inside both edges gives one point): every
   clip vertex within speculative is a point (not reduced per triangle), midway between the
   surfaces with its separation along the normal. Apart, when the clip's separations exceed
   the GJK distance (the closest features lie beside the clipped faces), the closest points
   give one point instead if their normal is legitimate (below). Internal edge removal: a normal from an internal edge or vertex of the triangle, or
   from an active one but outside its cone of normals (the arc to the neighbour's normal, or to
   the side for a boundary edge; away from the triangle for a vertex), is replaced by the
   triangle's face contact (A's face most opposed to the triangle's normal clipped to the
   triangle, separations along that normal). So on a flat or concave tessellated surface every
   normal is a face normal. Points of different triangles within CT__MESH_DUP (1e-9; float 2e-4) of
   the scale of each other with parallel normals are one (the first in triangle order is kept).
   Output (ct_mesh_contacts, reused across calls; it grows through its allocator and a warm one
   allocates nothing): points = every contact, DEM style, sorted by (triangle, id), each with
   its own normal and the manifold it was kept in (-1: reduced away); manifolds = the points
   grouped by normal (cosine within CT__MESH_MERGE_COS of 1, so coplanar triangles share one),
   each reduced to at most 4 (the deepest, ties within CT__MESH_FEAT (1e3 ulps) of the scale
   going to the farthest from the points' mean; the farthest from it; then the largest areas,
   so collinear points add none: a capsule lying on a face keeps its two ends), ids = the point's id mixed with
   its triangle index, sorted by id, `deepest` set. speculative finite and >= 0; transforms
   rigid. CT_INVALID (empty output) for NULL, a hull not built by the library, a mesh not built
   by ct_mesh_build/heightfield, bad transforms or speculative; CT_NO_MEMORY (empty output).
   Reentrant: a mesh may be shared by threads, each with its own ct_mesh_contacts. */
typedef struct ct_mesh {
    int nverts, ntris;
    ct_vec3 *verts;               /* copied from the input */
    int     *tris;                /* 3 vertex ids per triangle, CCW seen from the front */
    ct_vec3 *normals;             /* unit front normal of each triangle (zero: no area) */
    int     *adj;                 /* 3 per triangle: the neighbour across edge k (tris[3t+k] ->
                                     tris[3t+(k+1)%3]), -1 when none */
    unsigned char *flags;         /* per triangle: bit k edge k active, bit 3+k vertex k active,
                                     bit 6 no area */
    ct_aabb bounds;               /* of the vertices */
    ct_aabb *ct__node_box;        /* private: the AABB tree */
    int *ct__node_a, *ct__node_n; /* private: first child (inner) or first leaf slot; leaf count */
    int *ct__order;               /* private: triangles in leaf order */
    int ct__nnodes, ct__nlive;
    ct_allocator ct__alloc;       /* private: the owner's allocator */
    void        *ct__block;       /* private: one block holds every array */
    unsigned     ct__valid;       /* private: set by the build */
} ct_mesh;
typedef struct ct_mesh_point {
    ct_vec3  point;               /* midway between the surfaces (world) */
    ct_vec3  normal;              /* unit, A -> B */
    ct_real  separation;          /* < 0 penetrating */
    int      triangle;            /* the mesh triangle */
    unsigned id;                  /* features of A and of the triangle (14 bits of index each) */
    int      manifold;            /* index into manifolds, -1 when reduced away */
} ct_mesh_point;
typedef struct ct_mesh_contacts {
    ct_mesh_point *points;        /* npoints */
    int            npoints;
    ct_manifold   *manifolds;     /* nmanifolds */
    int            nmanifolds;
    int            ct__cap;       /* private: capacity of both arrays */
    ct_allocator   ct__alloc;     /* private */
    int            ct__has_alloc; /* private: 0 in a zeroed struct (then CT_MALLOC) */
} ct_mesh_contacts;
CTDEF ct_status ct_mesh_build(const ct_vec3 *verts, int nverts, const int *tris, int ntris, const ct_allocator *a,
                              ct_mesh *out);
CTDEF ct_status ct_mesh_heightfield(const ct_real *heights, int nx, int ny, ct_real dx, ct_real dy,
                                    const ct_allocator *a, ct_mesh *out);
/* Frees the mesh's block with its allocator; zeroes *m. NULL is fine. */
CTDEF void      ct_mesh_free(ct_mesh *m);
/* An empty output whose arrays come from a (NULL: CT_MALLOC); a zeroed struct is the same as
   init with NULL. ct_mesh_contacts_free returns the arrays and zeroes it. */
CTDEF void      ct_mesh_contacts_init(ct_mesh_contacts *c, const ct_allocator *a);
CTDEF void      ct_mesh_contacts_free(ct_mesh_contacts *c);
CTDEF ct_status ct_manifold_hull_mesh(const ct_hull *a, const ct_xform *xa, const ct_mesh *m, const ct_xform *xm,
                                      ct_real speculative, ct_mesh_contacts *out);
/* A sphere (centre in world coordinates, radius >= 0) or a capsule (placed by xa) against the
   mesh, with the output, speculative filter, one-sidedness (the core's middle behind a
   triangle's plane: skipped), deduplication and grouping of ct_manifold_hull_mesh. Per
   triangle: a capsule parallel to the face within 0.005 rad (CT__PAIR_PARALLEL) lying over
   it gives the two ends of its part over the triangle (separations to the plane); otherwise
   the closest points of the core and the triangle give one point (separation = distance -
   radius, normal along them) when that normal is legitimate for the triangle's feature (as
   above), else the face contact of the core's closest point if it lies over the triangle,
   else nothing (a neighbour owns it). A core crossing the face: the face contact of its
   deeper end. CT_INVALID also for a NaN/Inf centre or ends, a NaN or negative radius. */
CTDEF ct_status ct_manifold_sphere_mesh(ct_vec3 center, ct_real radius, const ct_mesh *m, const ct_xform *xm,
                                        ct_real speculative, ct_mesh_contacts *out);
CTDEF ct_status ct_manifold_capsule_mesh(const ct_capsule *a, const ct_xform *xa, const ct_mesh *m, const ct_xform *xm,
                                         ct_real speculative, ct_mesh_contacts *out);
/* Ray cast against the mesh (placed by xm): the first front face (the ray going against its
   normal) met by origin + t * translation, t in [0, 1], edges and vertices included; ties go
   to the lower triangle index. As ct_ray_cast: hit, fraction, point (origin + fraction *
   translation), normal (the triangle's unit normal, world), face = the triangle, iterations 0;
   triangles seen from behind or edge-on are not hit, an empty translation hits nothing.
   CT_INVALID (output zeroed, face -1) for NULL, a mesh not built by the library, a bad
   transform, a NaN/Inf origin or translation. Allocates nothing; reentrant. */
CTDEF ct_status ct_ray_cast_mesh(const ct_mesh *m, const ct_xform *xm, ct_vec3 origin, ct_vec3 translation,
                                 ct_ray_hit *out);
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
       hull - hull               ct_manifold_hulls (ct_sat_cache)   ct_contact_hulls_warm
                                                                    (ct_contact_cache), then
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
   with the pair's caches (the hull manifolds and the volumetric hull pairs: to cold calls,
   ct_manifold_hulls and ct_contact_hulls, whose cache hits are exact), up to the culls above.
   Volumetric mode sends a hull pair to ct_contact_hulls_warm when its cache holds the structure
   of A n B from an earlier step (an overlap; a structure that still holds is the answer),
   otherwise only when ct_manifold_hulls, with a speculative distance of 4096 ulps of
   the coordinates' magnitude (16x ct_contact_hulls' touching band), finds no separating axis.

   Threads: desc.threads (0: omp_get_max_threads(); 1 inside a parallel region; 1 without
   OpenMP or with CT_NO_OPENMP). With more than one thread the per-thread scratches may grow
   on their threads, so the allocator must then be thread-safe (NULL, malloc, is).
   Memory: the scene, its per-body arrays, its pair table (two buffers), its outputs and its
   scratches come from the allocator given to ct_scene_create; after warm-up a step allocates
   only inside its incremental broad phase (a ct_bp over the fat boxes), on steps where it
   runs (the added and removed lists, arrays that grow), and for a volumetric pair whose overlap
   outgrows its ct_contact_cache block (kept with the pair's record and reused).

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
/* Debug export of a scene (the conventions of >>export): the parts selected, in one data set
   (call once per part for one file per kind). CT_EXPORT_BODIES: every live body's faces under
   its current transform (*xform_ref or the stored one) - a plain hull's faces, a box's six
   quads, any other shape (spheres, ellipsoids, rounded shapes, points, triangles, support
   functions) as the closed polyhedron through its support points along a fixed grid of 114
   directions (inscribed; repeated points where the shape is flat). CT_EXPORT_CONTACTS: r's
   touching pairs (r from the last ct_scene_step on s): each manifold point, or the volumetric
   contact point, as a vertex cell, and a normal arrow of length arrow (0: none) from the
   points' mean. CT_EXPORT_FAT_BOXES: the fat boxes of the bodies that were in the scene at
   its last successful step. Cell arrays: body (its id; -1 on contact cells), part (0 body
   face, 1 contact point, 2 normal arrow, 3 fat box), pair (index in r->touching; -1 on
   bodies and boxes). CT_INVALID (nothing written): NULL s, parts 0 or unknown bits, a NaN or
   negative arrow, CT_EXPORT_CONTACTS without a valid r, a body whose transform, hull or
   support points are not finite and valid. Reads s only; not concurrently with a call that
   changes s. */
typedef enum ct_export_part {
    CT_EXPORT_BODIES = 1, CT_EXPORT_CONTACTS = 2, CT_EXPORT_FAT_BOXES = 4, CT_EXPORT_ALL = 7
} ct_export_part;
CTDEF ct_status ct_export_scene_step(const ct_scene *s, const ct_scene_result *r, unsigned parts, ct_real arrow,
                                     ct_export_format format, ct_write_fn fn, void *user);

/* >>pfc ------------------------------------------------------------------------------- */
/* PFC rigid blocks (detail/pfc.h): the contact resolutions of Itasca PFC's rigid-block model.

   Full resolution, warm-started. ct_contact_hulls_warm computes what ct_contact_hulls computes,
   bit for bit (both evaluate the canonical form of A n B: vertices named by their planes and
   placed from those names, faces in plane order; equal in the tests on every step of 1000-step
   motion sequences), and keeps, per pair, the combinatorial structure of A n B (plane ids of
   its vertices and faces: invariant under rigid motion). The next call places the cached
   vertices from their names and accepts them when each lies strictly inside every other plane
   (by 4 touch bands, CT__WARM_MARGIN): then they are A n B and no interior-point LP or dual
   hull is needed; otherwise the call is cold. Overlaps with a vertex where more than three
   planes of both bodies meet (flush faces) are not cached.

   ct_contact_cache: zero it (or ct_contact_cache_init with an allocator; NULL: CT_MALLOC)
   before the first call, pass the same cache for the same (a, b) pair, in the same order,
   every step; free it with ct_contact_cache_free. A cache used with other hulls (other
   objects, blocks or face counts) is ignored and refilled; the answer never depends on the
   cache. count is the number of cached vertices (0: the next call is cold); point_a and
   point_b the last overlap centroid in A's and B's local frames. The cache's block grows
   through its allocator when an overlap has more vertices than any before.
   Statuses as ct_contact_hulls, plus CT_INVALID for a NULL cache and CT_NO_MEMORY when the
   cache cannot grow (*out zeroed, the cache emptied, nothing leaked). Not thread-safe on one
   cache; temporaries from s (NULL: a temporary scratch). */
typedef struct ct_contact_cache {
    int count;                  /* vertices of the cached A n B; 0: none */
    ct_vec3 point_a, point_b;   /* the last overlap centroid in A's and in B's local frame */
    const ct_hull *ct__a, *ct__b;      /* private: the pair the structure belongs to */
    const void *ct__ba, *ct__bb;
    int ct__na, ct__nb, ct__nf, ct__nhe, ct__cap;
    int *ct__data;                     /* private: the structure (ct__cap ints) */
    ct_allocator ct__alloc;
    int ct__has_alloc;
} ct_contact_cache;
CTDEF void      ct_contact_cache_init(ct_contact_cache *c, const ct_allocator *a);
/* Frees the cache's block (its allocator is kept); *c is then empty. NULL is fine. */
CTDEF void      ct_contact_cache_free(ct_contact_cache *c);
CTDEF ct_status ct_contact_hulls_warm(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                      const ct_xform *xb, ct_contact_cache *cache, ct_scratch *s,
                                      ct_contact *out);

/* The per-pair cache of the rigid-block contacts (ct_contact_hulls_reduced,
   ct_contact_rounded_hulls in either mode): zero it (or ct_block_cache_init with an allocator;
   NULL: CT_MALLOC) before the first call for a pair, pass it on every step, free it with
   ct_block_cache_free (only the full resolution's structure owns memory). The answer never
   depends on it; a cache of another pair is harmless. Not thread-safe on one cache. */
typedef struct ct_block_cache {
    ct_gjk_cache gjk;       /* GJK / EPA on the cores (rounded cores apart, hulls without adjacency) */
    ct_sat_cache sat;       /* the SAT's least axis and its certificate (reduced resolution) */
    ct_contact_cache full;  /* the structure of the moved cores' A n B (full resolution, warm) */
    int ct__cut[2];         /* private: the last cut's starting half-edges on A and B */
} ct_block_cache;
CTDEF void ct_block_cache_init(ct_block_cache *c, const ct_allocator *a);
/* Frees what the cache holds (its allocator is kept); *c is then empty. NULL is fine. */
CTDEF void ct_block_cache_free(ct_block_cache *c);

/* Reduced resolution (no overlap volume): the penetration vector of A and B (normal, depth
   and the deepest points pa, pb) gives the mid-plane through (pa + pb) / 2 normal to it; both
   bodies are cut by that plane and point = centroid of the intersection of the two
   cross-section polygons, area = its area, normal = the penetration normal (A -> B), gap =
   minus the penetration depth, centroid = point, volume = 0, face_a/face_b = the face of A / B
   whose plane is nearest to point. The penetration is the SAT's axis of least penetration (face
   normals of A and B, crossing edge pairs: the faces of the Minkowski difference), which is
   ct_signed_distance's (EPA's) depth and normal up to rounding (ties between axes aside); hulls
   without adjacency use ct_signed_distance. The sections are walked face to face from a
   crossing edge; a vertex within CT__PFC_ON_PLANE (64 ulps of the extent) of the plane makes
   them a scan with such vertices on the plane. Apart: found = 0. cache: the pair's
   ct_block_cache (may be NULL): it keeps the SAT's axis with its certificate (as
   ct_manifold_hulls' ct_sat_cache: under small motion most calls re-evaluate a few faces and
   edge pairs instead of the whole SAT) and the cut's starting edges; the answer does not
   depend on it (a cached call equals a cold one). Hulls as ct_contact_hulls (face lists
   required). CT_INVALID (and *out zeroed) for bad hulls or transforms; CT_NO_MEMORY; with the
   ct_signed_distance fallback its statuses (CT_NO_CONVERGENCE with EPA's best estimate used).
   Not thread-safe on one cache; temporaries from s (NULL: a temporary scratch). */
/* Rounded blocks: A = the core hull a grown by a ball of radius ra (ct_shape_rounded), B
   likewise. gap = the signed distance of the rounded blocks (the cores' GJK distance minus
   ra + rb while the cores are apart: no EPA below the summed radii; once the cores overlap,
   EPA on them (reduced == 0) or the SAT's least axis (reduced == 1, as
   ct_contact_hulls_reduced)). When gap <= 0 the cores are moved towards each other by (ra + rb) / 2 each
   along the distance's normal, so that they overlap by -gap, and the full (reduced == 0:
   ct_contact_hulls) or reduced (reduced == 1: ct_contact_hulls_reduced) resolution on the
   moved cores gives point, centroid, normal, area, volume and faces (moving both cores by
   the same amount keeps their midpoint, hence the point, in place); gap stays the signed
   distance. Apart: found = 0. radii 0 give the resolution's answer (ct_contact_hulls_reduced
   is this call with radii 0). cache: the pair's ct_block_cache (may be NULL; the same one for
   either mode): GJK/EPA use its gjk member, the reduced resolution its sat and cut state, the
   full resolution its full member (ct_contact_hulls_warm on the moved cores: bit for bit the
   cold answer; the cores move rigidly, so their A n B keeps its structure under small motion;
   CT_NO_MEMORY when that structure cannot grow, the cache then emptied).
   CT_INVALID for bad hulls, transforms, radii (negative, NaN) or reduced not 0/1; otherwise
   statuses as ct_signed_distance and the resolution. */
CTDEF ct_status ct_contact_rounded_hulls(const ct_hull *a, const ct_xform *xa, ct_real ra, const ct_hull *b,
                                         const ct_xform *xb, ct_real rb, int reduced, ct_block_cache *cache,
                                         ct_scratch *s, ct_contact *out);
/* A ball (centre in world coordinates, radius >= 0) against a block, as the DEM contact struct:
   from ct_manifold_hull_sphere (speculative 0): found when the separation is <= 0, point
   midway between the surfaces (= centroid), normal A -> B, gap = the separation, area =
   volume = 0, face_a = the face of A whose plane is nearest to A's surface point, face_b -1.
   Statuses as ct_manifold_hull_sphere. */
CTDEF ct_status ct_contact_hull_sphere(const ct_hull *a, const ct_xform *xa, ct_vec3 center, ct_real radius,
                                       ct_contact *out);
/* A wall facet (triangle tri, world coordinates, counter-clockwise seen from the outside of
   the wall) against a block: the facet extruded behind itself (against its outward normal)
   into a prism deeper than the block can reach, then the full (reduced == 0) or reduced
   (reduced == 1) resolution of the prism (as A) against the block: a block pushed past the
   facet's plane is pushed back out of the wall's side, never through it. face_a: 0 when the
   contact's nearest prism face is the facet, 1 when a side of the prism (an edge contact).
   The prism is built per call (ct_hull_build: one CT_MALLOC block, temporaries from s).
   CT_INVALID for NaN/Inf corners, a bad hull or transform, reduced not 0/1; CT_DEGENERATE
   for a degenerate triangle; otherwise statuses as the resolution. */
CTDEF ct_status ct_contact_facet_hull(const ct_vec3 tri[3], const ct_hull *b, const ct_xform *xb, int reduced,
                                      ct_scratch *s, ct_contact *out);
/* A whole wall (a ct_mesh m placed by xm, front sides counter-clockwise as ct_mesh_build) against
   a block b (placed by xb), full resolution (detail/wall.h): per facet the contact of
   ct_contact_facet_hull (the block's overlap with the facet's prism, computed by clipping the
   block by the facet's plane and its three side planes; no hull is built), with the facets that
   touch one another across an edge with agreeing normals (within CT__MESH_MERGE_COS, 1e3 ulps:
   a flat tessellation) merged into ONE contact: the overlap of their union, its internal side
   faces dropped and each plane's pieces summed into one face (so a block resting across a
   shared edge of a flat wall gets one contact, as against one big facet). Facets across convex
   ridges or concave creases keep separate contacts. Each contact as ct_contact_hulls with the
   wall as A (normal wall -> block); gap = minus the chord when it enters through the block and
   leaves through the wall, else minus the overlap's depth below the wall's plane; face_a = the
   group's triangle with the largest overlap on its face, face_b = the block face nearest to
   point. Only overlaps with volume count (touching is no contact). The facets considered are
   those whose boxes meet the block's box; when none of them overlaps it, those within the
   block's diameter of its box (a block pushed wholly behind the wall). Contacts are ordered by
   their groups' lowest triangle index. out: a ct_wall_contacts (zeroed or
   ct_wall_contacts_init; reused across calls; grows through its allocator; warm, nothing is
   allocated). CT_INVALID (out->count 0) for NULL, a mesh not built by the library, a hull
   without face lists, a bad transform; CT_NO_MEMORY (count 0). Temporaries from s (NULL: a
   temporary scratch). Reentrant: a mesh may be shared by threads, each with its own output. */
typedef struct ct_wall_contacts {
    ct_contact  *contacts;        /* count */
    int          count;
    int          ct__cap;         /* private */
    ct_allocator ct__alloc;       /* private */
    int          ct__has_alloc;   /* private: 0 in a zeroed struct (then CT_MALLOC) */
} ct_wall_contacts;
CTDEF void      ct_wall_contacts_init(ct_wall_contacts *c, const ct_allocator *a);
/* Frees the array (the allocator is kept); NULL is fine. */
CTDEF void      ct_wall_contacts_free(ct_wall_contacts *c);
CTDEF ct_status ct_contact_mesh_hull(const ct_mesh *m, const ct_xform *xm, const ct_hull *b, const ct_xform *xb,
                                     ct_scratch *s, ct_wall_contacts *out);
/* Erosion (detail/erode.h): the core of the block h rounded by `radius`: every face plane moved
   inwards by radius, the core = the intersection of the moved halfspaces (faces whose moved
   plane misses it are dropped), so that core (+) ball(radius) is the block with rounded edges
   and vertices (inside the block, touching every surviving face). out is a full ct_hull
   (vert_source -1; face_tag[f] = the face of h it comes from), owning one block from alloc
   (NULL: CT_MALLOC), which also serves the temporaries. radius 0 gives the block itself.
   CT_INVALID: NULL out, an invalid hull, radius negative or not finite; CT_DEGENERATE: radius
   at least the block's inradius (the core is empty or flat); CT_NO_MEMORY. On error *out is
   zeroed. */
CTDEF ct_status ct_hull_erode(const ct_hull *h, ct_real radius, const ct_allocator *alloc, ct_hull *out);
/* Volume of the rounded block core (+) ball(radius) (Steiner's formula: V + A r + (sum over
   edges of length x the angle between the two face normals) r^2 / 2 + 4/3 pi r^3). h needs
   face lists and twins (as ct_hull_build and ct_hull_erode make). -1 for bad input. */
CTDEF ct_real   ct_hull_rounded_volume(const ct_hull *h, ct_real radius);
/* Mass properties of the rounded block h (+) ball(radius) at uniform density: mass, centroid
   and the inertia tensor about the centroid (as ct_hull_mass, whose answer radius 0 gives).
   Exact (detail/erode.h): the hull, a slab on each face, a cylinder wedge on each edge and a
   ball sector on each vertex, each in closed form. Outputs may be NULL. h needs face lists and
   twins (as ct_hull_build and ct_hull_erode make). CT_INVALID (outputs zeroed) for NULL or such
   a hull missing, radius negative or not finite, density not finite; CT_DEGENERATE for a hull
   of no volume. */
CTDEF ct_status ct_hull_rounded_mass(const ct_hull *h, ct_real radius, ct_real density, ct_real *mass,
                                     ct_vec3 *centroid, ct_real inertia[3][3]);

CTDEF ct_status ct_contact_hulls_reduced(const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                                         const ct_xform *xb, ct_block_cache *cache, ct_scratch *s,
                                         ct_contact *out);

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

/* MPI domain decomposition (only with CONTACT_MPI) */
#if defined(CONTACT_MPI)
#include "detail/mpi.h"
#endif
/* queries: shape AABBs, shape casts, ray casts */
#include "detail/aabb.h"
#include "detail/toi.h"
#include "detail/raycast.h"

/* manifolds of spheres, boxes, capsules and hulls */
#include "detail/manifold_pairs.h"
/* triangle meshes and heightfields */
#include "detail/mesh.h"
/* scene: the whole step (broad phase, pair table, narrow phase, events) */
#include "detail/scene.h"
/* PFC rigid blocks: warm-started full resolution */
#include "detail/pfc.h"
#include "detail/erode.h"
#include "detail/wall.h"
/* debug export (after the scene: it also writes a scene's bodies and contacts) */
#include "detail/export.h"


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
