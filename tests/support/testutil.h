/* Shared test helpers: the counting/failing allocator, tolerances, seeded random data. */
#ifndef CT_TESTUTIL_H
#define CT_TESTUTIL_H
#include "contact.h"
#include "detail/math.h" /* the private vector helpers (ct__dot, ct__cross, ...) */
#include <stddef.h>

/* A counting allocator that fails the fail_at-th allocation (1-based; 0 = never fails).
   Every test that proves CT_NO_MEMORY sweeps fail_at = 1, 2, ... until the call succeeds,
   and checks outstanding == 0 after each failure. */
typedef struct tu_alloc {
    ct_allocator a;        /* pass &t.a */
    long fail_at;          /* 1-based allocation number to fail; 0: never */
    long calls;            /* allocations attempted */
    long outstanding;      /* blocks allocated and not yet freed */
    size_t bytes;          /* bytes outstanding */
} tu_alloc;
void tu_alloc_init(tu_alloc *t, long fail_at);

/* Tolerance scale of the build: machine epsilon of ct_real. */
#define TU_EPS ((ct_real)(sizeof(ct_real) == sizeof(float) ? 1.1920929e-07 : 2.220446049250313e-16))
/* 1 in the float build, 0 in double. */
#define TU_FLOAT (sizeof(ct_real) == sizeof(float))

/* Seeded random helpers (splitmix64). */
double tu_uniform(unsigned long long *s);                  /* [0, 1) */
ct_vec3 tu_vec(double x, double y, double z);
ct_vec3 tu_random_unit(unsigned long long *s);
ct_xform tu_random_xform(unsigned long long *s, double translation);
/* The rotation of x from rows printed by a fuzzer (a float build's, to 9 digits): in float as
   given, in double made orthonormal again (Gram-Schmidt over the rows), as the double build's
   transform check requires. x->p is left as it is. */
void tu_printed_rotation(const double r[3][3], ct_xform *x);

/* ct_gjk from hull h to a point walked around it (queries positions 2-32% of the extent
   outside, each warm-started from the one before through one cache) against the same
   vertices as a scanned cloud: the largest difference of the distances over h's extent. */
double tu_warm_hull_vs_scan(const ct_hull *h, int queries, unsigned long long *s);

/* fuzz_gjk's near-sphere input (2026-11-28): a 15-point cloud (the points) with a vertex at the
   centre of a rounded ellipsoid, semi-axes TU_NEAR_SPHERE_AXES and rounding 1000, placed by
   *xb (rows of the rotation and the translation). EPA fills up on it and ct_signed_distance
   enumerates the cloud's features. */
#define TU_NEAR_SPHERE_AXES 999.969482421875, 1000, 1000
void tu_near_sphere(ct_vec3 p[15], ct_xform *xb);

/* OpenMP thread count of the following parallel regions (the broad phase); no-op without
   OpenMP. */
void tu_set_threads(int t);
#endif
