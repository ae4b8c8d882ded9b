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
         if (ct_hull_build(&a, pts_a, na, NULL, NULL) == CT_OK &&
             ct_hull_build(&b, pts_b, nb, NULL, NULL) == CT_OK &&
             ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c) == CT_OK && c.found)
             apply(c.point, c.normal, c.gap);
         ct_hull_free(&a); ct_hull_free(&b);

   TABLE OF CONTENTS (grep for the tags)
     >>config      compile-time options
     >>types       vectors, planes, boxes, transforms, status, allocator, scratch
     >>hull        quickhull, mass properties                    (detail/hull.h, mass.h)
     >>gjk         shapes, GJK distance, EPA penetration         (detail/shape.h, gjk.h, epa.h)
     >>polar       polar intersection, volumetric contact        (detail/polar.h, contact.h)
     >>sat         SAT + clipping contact manifolds              (detail/sat.h)
     >>ellipsoid   Perram-Wertheim ellipsoid contact             (detail/ellipsoid.h)
     >>broadphase  OpenMP box-pair search and parallel pair loop (detail/broadphase.h)

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

   CONVENTIONS
     Normals point from A to B. Distances/gaps/separations are negative when penetrating.
     Points are in world coordinates. A NULL const ct_xform* is the identity.
     Bad input (NULL, negative counts, NaN/Inf) returns CT_INVALID; never a crash.

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

/* Transform helpers. q = (x, y, z, w), normalised internally; NULL p means the origin. */
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
   or a point. Duplicates are fine. The output owns one block from `a` (NULL: CT_MALLOC). */
CTDEF ct_status ct_hull_build(ct_hull *out, const ct_vec3 *pts, int npts,
                              const ct_hull_desc *desc /* NULL: defaults */, const ct_allocator *a);
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
CTDEF ct_status ct_hull_box(ct_hull *out, ct_vec3 half, const ct_allocator *a);


/* >>gjk ------------------------------------------------------------------------------- */
/* (shapes, GJK and EPA: declared by the GJK part) */

/* >>polar ----------------------------------------------------------------------------- */
/* (polar intersection and volumetric contact: declared by the polar part) */

/* >>sat ------------------------------------------------------------------------------- */
/* (contact manifolds: declared by the SAT part) */

/* >>ellipsoid ------------------------------------------------------------------------- */
/* (Perram-Wertheim: declared by the ellipsoid part) */

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

/* polar intersection and the volumetric contact */

/* SAT manifolds */

/* ellipsoids */

/* broad phase */
#include "detail/broadphase.h"


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
