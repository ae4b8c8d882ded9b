/* Independent oracles for the benchmarks' agreement checks: when ours and a peer disagree, the
   row says which side one of these supports. Each is a deliberately simple method, in double,
   written without any routine of contact.h (its types are read as plain data) and without the
   peers: brute force, closed forms, bisection. Slow by design; called only on disagreements
   (and by tests/test_oracle.c against closed forms). */
#ifndef CT_BENCH_ORACLE_H
#define CT_BENCH_ORACLE_H
#include "contact.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Pairs i < j of closed boxes that overlap (touching counts), by a sweep along x. */
long long oracle_box_pairs(const ct_aabb *b, int n);
/* The same, calling fn(user, i, j) (i < j) on each pair. */
long long oracle_box_pairs_each(const ct_aabb *b, int n, void (*fn)(void *user, int i, int j), void *user);

/* Brute-force separating-axis test of two hulls placed by xa, xb (NULL: identity): every
   face normal of both and every cross product of an edge of A with an edge of B. Returns the
   largest separation over those axes: > 0 the hulls are apart (by at least that; exactly
   that when the closest features are a face and a vertex), <= 0 they overlap and minus the
   value is the penetration depth. *axis (may be NULL) gets the unit axis, pointing from A
   to B. */
double oracle_sat(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, double axis[3]);
/* The separation of the two hulls along one axis (from A to B, need not be unit): min over B's
   vertices minus max over A's along it; the penetration depth along it is minus that. */
double oracle_sat_along(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, const double axis[3]);

/* Entry fraction t in [0, 1] of the segment from + t dir into a shape placed by x, or -1 for
   a miss (a start inside gives 0). Sphere (radius r about the origin), box (half extents h),
   box rounded by r (distance to the box <= r), ellipsoid (semi-axes h), hull (its planes). */
double oracle_ray_sphere(double r, const ct_xform *x, const double from[3], const double dir[3]);
double oracle_ray_box(const double h[3], double r, const ct_xform *x, const double from[3], const double dir[3]);
double oracle_ray_ellipsoid(const double h[3], const ct_xform *x, const double from[3], const double dir[3]);
double oracle_ray_hull(const ct_hull *h, const ct_xform *x, const double from[3], const double dir[3]);

/* Ellipsoids with semi-axes sa, sb placed by xa, xb: 1 overlap, 0 apart, by the convex
   program min q_A(x) over x in B (q_A = 1 on A's surface) solved through its Lagrange
   multiplier (a monotone bisection). *value (may be NULL) gets the minimum (<= 1: overlap). */
int oracle_ellipsoids_overlap(const double sa[3], const ct_xform *xa, const double sb[3], const ct_xform *xb,
                              double *value);

/* Volume of {x : n_k . x + d_k <= 0, k < m} (planes as n.x, n.y, n.z, d), bounded, by brute
   force: every triple of planes gives a candidate vertex, kept when it satisfies all the
   planes (to tol, relative to the coordinates); each plane's vertices sorted by angle make
   its face; volume = sum of the cones from the vertices' mean. O(m^4): meant for m <= ~120.
   Returns -1 when m > 200 or the set is empty or unbounded. */
double oracle_halfspace_volume(const double *planes, int m);

/* How far the worst of n points lies outside the intersection of m planes (as above), in the
   units of the points: max over points of max over planes of n.x + d (<= 0: all inside). */
double oracle_plane_excess(const double *pts, int n, const double *planes, int m);

/* First time t in [0, 1] at which two hulls touch (oracle_sat <= 0) while A moves from xa0 to
   xa1 and B from xb0 to xb1, each origin on a straight line and each rotation at a constant
   rate about the fixed axis of R1 R0^T; -1 when they never touch. Sampled at 4096 even steps,
   then bisected: a contact shorter than a step can be missed. */
double oracle_toi(const ct_hull *a, const ct_xform *xa0, const ct_xform *xa1, const ct_hull *b, const ct_xform *xb0,
                  const ct_xform *xb1);

/* Tally of an oracle's verdicts on the items where ours and a peer disagree. */
typedef struct oracle_tally { int ours, peer, neither; } oracle_tally;
void oracle_vote(oracle_tally *t, double oracle, double ours, double peer);   /* nearer wins */
void oracle_vote_bool(oracle_tally *t, int oracle, int ours, int peer);
/* Appends "; <oracle> supports ours on a, the peer on b, neither on c" to buf. */
void oracle_say(char *buf, size_t n, const char *oracle, const oracle_tally *t);

#ifdef __cplusplus
}
#endif
#endif
