/* contact.h detail: >>types - private scalar, vector, matrix and transform helpers, and the
   small dense solvers (4x4 linear system, symmetric 3x3 eigen-decomposition).
   Everything here is static (inline, or unused-ok) and stateless. Included once, by contact.h, under
   CONTACT_IMPLEMENTATION. Guarded and free of external definitions, so tests may include it
   after contact.h to reach the same helpers. */
#ifndef CT__MATH_H
#define CT__MATH_H

#include <math.h>
#include <float.h>
#include <string.h>

#ifndef CT_ASSERT
#ifdef CONTACT_DEBUG
#include <assert.h>
#define CT_ASSERT(x) assert(x)
#else
#define CT_ASSERT(x) ((void)0)
#endif
#endif

#define CT__INLINE static inline
/* Private functions that are not inline still get internal linkage; marked unused-ok so a
   CONTACT_STATIC build that uses only part of the library compiles warning-free. */
#if defined(__GNUC__)
#define CT__PRIVATE static __attribute__((unused))
#define CT__COLD __attribute__((noinline, cold))   /* a rare path kept out of its hot caller */
#define CT__ALWAYS static inline __attribute__((always_inline))   /* a small test in a hot loop */
#else
#define CT__PRIVATE static
#define CT__COLD
#define CT__ALWAYS static inline
#endif

/* ---- scalar ---------------------------------------------------------------------------- */
/* CT__FLOAT is 1 when ct_real is float; every libm call goes through these wrappers so the
   float build never promotes to double behind our back. */
#define CT__FLOAT (sizeof(ct_real) == sizeof(float))
#define CT__EPS   (CT__FLOAT ? (ct_real)FLT_EPSILON : (ct_real)DBL_EPSILON)
#define CT__MAXR  (CT__FLOAT ? (ct_real)FLT_MAX : (ct_real)DBL_MAX)   /* the arm not taken is never evaluated */
#define CT__PI    ((ct_real)3.14159265358979323846)
/* A rotation is accepted when orthonormal and det > 0 within this (relative): the rounding of
   a user's quaternion-to-matrix conversion, far below any real shear or scale. */
#define CT__XF_TOL ((ct_real)1e3 * CT__EPS)
/* ct__solve4: a pivot below this many ulps of the largest entry makes the system singular. */
#define CT__SOLVE_SINGULAR (16 * CT__EPS)
/* ct__sym3_eigen: sweeps at most (Jacobi converges quadratically: 4-6 reach eps in practice). */
#define CT__JACOBI_SWEEPS 16

CT__INLINE ct_real ct__sqrt(ct_real x) { return CT__FLOAT ? (ct_real)sqrtf((float)x) : (ct_real)sqrt((double)x); }
CT__INLINE ct_real ct__abs(ct_real x)  { return CT__FLOAT ? (ct_real)fabsf((float)x) : (ct_real)fabs((double)x); }
CT__INLINE ct_real ct__min(ct_real a, ct_real b) { return a < b ? a : b; }
CT__INLINE ct_real ct__max(ct_real a, ct_real b) { return a > b ? a : b; }
CT__INLINE ct_real ct__clamp(ct_real x, ct_real lo, ct_real hi) { return x < lo ? lo : (x > hi ? hi : x); }
CT__INLINE ct_real ct__sin(ct_real x) { return CT__FLOAT ? (ct_real)sinf((float)x) : (ct_real)sin((double)x); }
CT__INLINE ct_real ct__cos(ct_real x) { return CT__FLOAT ? (ct_real)cosf((float)x) : (ct_real)cos((double)x); }
CT__INLINE ct_real ct__atan2(ct_real y, ct_real x) { return CT__FLOAT ? (ct_real)atan2f((float)y, (float)x) : (ct_real)atan2((double)y, (double)x); }
/* Finite: not NaN and not +-Inf. (x - x) is 0 only for finite x; written so that it
   survives -ffast-math-free builds without relying on isfinite's macro in C++. */
CT__INLINE int ct__finite(ct_real x) { return (x - x) == (x - x) && x == x && ct__abs(x) <= CT__MAXR; }
/* Whether frexp(M) would give an exponent within +-20 (float) / +-200 (double): the range the
   scale-sensitive solvers (GJK, capsule pairs) use as they are. The same test without the libm
   call: 2^(-lim-1) <= M < 2^lim, with the powers of two built exactly from 2^50. */
#define CT__P2_50 1125899906842624.0
#define CT__RANGE_HI (CT__FLOAT ? 1048576.0 : CT__P2_50 * CT__P2_50 * CT__P2_50 * CT__P2_50)
CT__INLINE int ct__in_range(ct_real m) { return (double)m >= 0.5 / CT__RANGE_HI && (double)m < CT__RANGE_HI; }
CT__INLINE int ct__imin(int a, int b) { return a < b ? a : b; }
/* Index of the lowest set bit of m (m != 0). */
CT__INLINE int ct__ctz64(unsigned long long m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(m);
#else
    int k = 0;
    while (!(m & 1)) { m >>= 1; ++k; }
    return k;
#endif
}
CT__INLINE int ct__imax(int a, int b) { return a > b ? a : b; }

/* Quicksort (median of three, recursion on the smaller side, insertion sort below 17), for keys
   that are distinct (a unique tie-break makes the order deterministic). One definition,
   instantiated where a sort is needed (the broad phase's columns, partner lists and hits; the
   quickhull's check of big faces). */
#define CT__DEFINE_SORT(name, T, LESS)                                                         \
    CT__PRIVATE void name(T *v, size_t n) {                                                    \
        size_t i, j;                                                                           \
        T p, t;                                                                                \
        while (n > 16) {                                                                       \
            size_t m = n / 2;                                                                  \
            i = 0; j = n - 1;                                                                  \
            if (LESS(&v[m], &v[0])) { t = v[m]; v[m] = v[0]; v[0] = t; }                       \
            if (LESS(&v[n - 1], &v[0])) { t = v[n - 1]; v[n - 1] = v[0]; v[0] = t; }           \
            if (LESS(&v[n - 1], &v[m])) { t = v[n - 1]; v[n - 1] = v[m]; v[m] = t; }           \
            p = v[m];                                                                          \
            for (;;) {                                                                         \
                while (LESS(&v[i], &p)) ++i;                                                   \
                while (LESS(&p, &v[j])) --j;                                                   \
                if (i >= j) break;                                                             \
                t = v[i]; v[i] = v[j]; v[j] = t;                                               \
                ++i; --j;                                                                      \
            }                                                                                  \
            /* [0, j] <= p <= [j + 1, n) */                                                    \
            if (j + 1 < n - j - 1) { name(v, j + 1); v += j + 1; n -= j + 1; }                 \
            else { name(v + j + 1, n - j - 1); n = j + 1; }                                    \
        }                                                                                      \
        for (i = 1; i < n; ++i) {                                                              \
            t = v[i];                                                                          \
            for (j = i; j > 0 && LESS(&t, &v[j - 1]); --j) v[j] = v[j - 1];                    \
            v[j] = t;                                                                          \
        }                                                                                      \
    }
/* ---- vectors --------------------------------------------------------------------------- */
CT__INLINE ct_vec3 ct__v3(ct_real x, ct_real y, ct_real z) { ct_vec3 v; v.x = x; v.y = y; v.z = z; return v; }
CT__INLINE ct_vec3 ct__add(ct_vec3 a, ct_vec3 b) { return ct__v3(a.x + b.x, a.y + b.y, a.z + b.z); }
CT__INLINE ct_vec3 ct__sub(ct_vec3 a, ct_vec3 b) { return ct__v3(a.x - b.x, a.y - b.y, a.z - b.z); }
CT__INLINE ct_vec3 ct__neg(ct_vec3 a) { return ct__v3(-a.x, -a.y, -a.z); }
CT__INLINE ct_vec3 ct__scale(ct_vec3 a, ct_real s) { return ct__v3(a.x * s, a.y * s, a.z * s); }
CT__INLINE ct_vec3 ct__mul(ct_vec3 a, ct_vec3 b) { return ct__v3(a.x * b.x, a.y * b.y, a.z * b.z); }
/* a + s * b */
CT__INLINE ct_vec3 ct__madd(ct_vec3 a, ct_vec3 b, ct_real s) { return ct__v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
CT__INLINE ct_vec3 ct__lerp(ct_vec3 a, ct_vec3 b, ct_real t) { return ct__madd(a, ct__sub(b, a), t); }
CT__INLINE ct_real ct__dot(ct_vec3 a, ct_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CT__INLINE ct_vec3 ct__cross(ct_vec3 a, ct_vec3 b) {
    return ct__v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
CT__INLINE ct_real ct__len2(ct_vec3 a) { return ct__dot(a, a); }
CT__INLINE ct_real ct__len(ct_vec3 a) { return ct__sqrt(ct__dot(a, a)); }
CT__INLINE ct_real ct__dist(ct_vec3 a, ct_vec3 b) { return ct__len(ct__sub(a, b)); }
CT__INLINE ct_real ct__maxabs(ct_vec3 a) { return ct__max(ct__abs(a.x), ct__max(ct__abs(a.y), ct__abs(a.z))); }
CT__INLINE ct_vec3 ct__vmin(ct_vec3 a, ct_vec3 b) { return ct__v3(ct__min(a.x, b.x), ct__min(a.y, b.y), ct__min(a.z, b.z)); }
CT__INLINE ct_vec3 ct__vmax(ct_vec3 a, ct_vec3 b) { return ct__v3(ct__max(a.x, b.x), ct__max(a.y, b.y), ct__max(a.z, b.z)); }
CT__INLINE ct_real ct__vget(ct_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
/* v - v is 0 for a finite v and NaN otherwise; a NaN sticks in the sum: one test, no branch */
CT__INLINE int ct__finite3(ct_vec3 a) { return (a.x - a.x) + (a.y - a.y) + (a.z - a.z) == 0; }
/* a / m for m > 0: by the reciprocal, unless m is so small (subnormal) that 1 / m overflows. */
CT__INLINE ct_vec3 ct__unscale(ct_vec3 a, ct_real m) {
    return m >= 1 / CT__MAXR ? ct__scale(a, 1 / m) : ct__v3(a.x / m, a.y / m, a.z / m);
}
/* Unit vector, or *ok = 0 and the zero vector when a has no usable length. Scaling by the
   largest component first keeps tiny and huge vectors from under/overflowing. */
CT__INLINE ct_vec3 ct__normalize(ct_vec3 a, int *ok) {
    ct_real m = ct__maxabs(a), l;
    if (!(m > 0) || !ct__finite(m)) { if (ok) *ok = 0; return ct__v3(0, 0, 0); }
    a = ct__unscale(a, m);
    l = ct__len(a);
    if (ok) *ok = 1;
    return ct__scale(a, 1 / l);
}
/* Index of the largest |component|. */
CT__INLINE int ct__argmaxabs(ct_vec3 a) {
    ct_real x = ct__abs(a.x), y = ct__abs(a.y), z = ct__abs(a.z);
    return x >= y ? (x >= z ? 0 : 2) : (y >= z ? 1 : 2);
}
/* A unit vector orthogonal to unit n, and a second one completing a right-handed frame. */
CT__INLINE void ct__basis(ct_vec3 n, ct_vec3 *u, ct_vec3 *v) {
    ct_vec3 t = ct__abs(n.x) < (ct_real)0.57735 ? ct__v3(1, 0, 0)
              : (ct__abs(n.y) < (ct_real)0.57735 ? ct__v3(0, 1, 0) : ct__v3(0, 0, 1));
    *u = ct__normalize(ct__cross(n, t), NULL);
    *v = ct__cross(n, *u);
}

/* ---- 3x3 matrices (row-major ct_real[3][3]) -------------------------------------------- */
typedef struct ct__m3 { ct_real m[3][3]; } ct__m3;
CT__INLINE ct_vec3 ct__m3_mul(const ct_real r[3][3], ct_vec3 v) {
    return ct__v3(r[0][0] * v.x + r[0][1] * v.y + r[0][2] * v.z,
                  r[1][0] * v.x + r[1][1] * v.y + r[1][2] * v.z,
                  r[2][0] * v.x + r[2][1] * v.y + r[2][2] * v.z);
}
/* r^T v */
CT__INLINE ct_vec3 ct__m3_tmul(const ct_real r[3][3], ct_vec3 v) {
    return ct__v3(r[0][0] * v.x + r[1][0] * v.y + r[2][0] * v.z,
                  r[0][1] * v.x + r[1][1] * v.y + r[2][1] * v.z,
                  r[0][2] * v.x + r[1][2] * v.y + r[2][2] * v.z);
}

/* ---- small dense solvers ---------------------------------------------------------------- */
/* Solves M x = b (4x4, row-major, destroyed) with partial pivoting; 0 when singular
   relative to the largest entry. */
CT__PRIVATE int ct__solve4(ct_real M[4][4], ct_real b[4], ct_real x[4]) {
    int i, j, k;
    ct_real big = 0;
    for (i = 0; i < 4; ++i)
        for (j = 0; j < 4; ++j) big = ct__max(big, ct__abs(M[i][j]));
    if (!(big > 0)) return 0;
    for (k = 0; k < 4; ++k) {
        int p = k;
        ct_real t;
        for (i = k + 1; i < 4; ++i)
            if (ct__abs(M[i][k]) > ct__abs(M[p][k])) p = i;
        if (!(ct__abs(M[p][k]) > CT__SOLVE_SINGULAR * big)) return 0;
        if (p != k) {
            for (j = 0; j < 4; ++j) { t = M[k][j]; M[k][j] = M[p][j]; M[p][j] = t; }
            t = b[k]; b[k] = b[p]; b[p] = t;
        }
        for (i = k + 1; i < 4; ++i) {
            ct_real f = M[i][k] / M[k][k];
            for (j = k; j < 4; ++j) M[i][j] -= f * M[k][j];
            b[i] -= f * b[k];
        }
    }
    for (k = 3; k >= 0; --k) {
        ct_real sum = b[k];
        for (j = k + 1; j < 4; ++j) sum -= M[k][j] * x[j];
        x[k] = sum / M[k][k];
    }
    return 1;
}

/* Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations (Golub & Van Loan,
   Alg. 8.4.3): on return a is diagonal (the eigenvalues) and the columns of v the vectors. */
CT__PRIVATE void ct__sym3_eigen(ct_real a[3][3], ct_real v[3][3]) {
    static const int P[3] = { 0, 0, 1 }, Q[3] = { 1, 2, 2 };
    int sweep, r, i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) v[i][j] = i == j;
    for (sweep = 0; sweep < CT__JACOBI_SWEEPS; ++sweep) {
        ct_real off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        ct_real dia = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if (!(off > CT__EPS * CT__EPS * dia)) break;
        for (r = 0; r < 3; ++r) {
            int p = P[r], q = Q[r];
            ct_real th, t, c, s;
            if (a[p][q] == 0) continue;
            th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
            t = (th >= 0 ? 1 : -1) / (ct__abs(th) + ct__sqrt(th * th + 1));
            c = 1 / ct__sqrt(t * t + 1);
            s = t * c;
            for (i = 0; i < 3; ++i) {            /* a <- a J (columns p, q) */
                ct_real ap = a[i][p], aq = a[i][q];
                a[i][p] = c * ap - s * aq;
                a[i][q] = s * ap + c * aq;
            }
            for (j = 0; j < 3; ++j) {            /* a <- J^T a (rows p, q) */
                ct_real ap = a[p][j], aq = a[q][j];
                a[p][j] = c * ap - s * aq;
                a[q][j] = s * ap + c * aq;
            }
            for (i = 0; i < 3; ++i) {
                ct_real vp = v[i][p], vq = v[i][q];
                v[i][p] = c * vp - s * vq;
                v[i][q] = s * vp + c * vq;
            }
        }
    }
}

/* ---- transforms: world = r * local + p; NULL = identity -------------------------------- */
CT__INLINE ct_vec3 ct__xf_point(const ct_xform *x, ct_vec3 v) { return x ? ct__add(ct__m3_mul(x->r, v), x->p) : v; }
CT__INLINE ct_vec3 ct__xf_dir(const ct_xform *x, ct_vec3 v) { return x ? ct__m3_mul(x->r, v) : v; }
CT__INLINE ct_vec3 ct__xf_inv_point(const ct_xform *x, ct_vec3 v) { return x ? ct__m3_tmul(x->r, ct__sub(v, x->p)) : v; }
CT__INLINE ct_vec3 ct__xf_inv_dir(const ct_xform *x, ct_vec3 v) { return x ? ct__m3_tmul(x->r, v) : v; }
CT__INLINE ct_plane ct__xf_plane(const ct_xform *x, ct_plane pl) {
    ct_plane out;
    if (!x) return pl;
    out.n = ct__m3_mul(x->r, pl.n);
    out.d = pl.d - ct__dot(out.n, x->p);
    return out;
}
/* A transform is usable when finite and r is a rotation to within a relative tolerance
   (orthonormal columns and det > 0, so a reflection is rejected). Checked once per call at
   entry points, so kept to a few dozen flops and two branches. */
CT__INLINE int ct__xf_valid(const ct_xform *x) {
    const ct_real (*r)[3];
    ct_real z, e, tol = CT__XF_TOL;
    if (!x) return 1;
    r = x->r;
    /* v - v is 0 for finite v and NaN for NaN/Inf: one test covers all 12 entries (a sum of
       the entries themselves would overflow for finite translations near the range's end) */
    z = (r[0][0] - r[0][0]) + (r[0][1] - r[0][1]) + (r[0][2] - r[0][2]) + (r[1][0] - r[1][0]) +
        (r[1][1] - r[1][1]) + (r[1][2] - r[1][2]) + (r[2][0] - r[2][0]) + (r[2][1] - r[2][1]) +
        (r[2][2] - r[2][2]) + (x->p.x - x->p.x) + (x->p.y - x->p.y) + (x->p.z - x->p.z);
    if (!(z == 0)) return 0;
    /* columns orthonormal: the 6 distinct entries of R^T R - I */
    e = ct__abs(r[0][0] * r[0][0] + r[1][0] * r[1][0] + r[2][0] * r[2][0] - 1);
    e = ct__max(e, ct__abs(r[0][1] * r[0][1] + r[1][1] * r[1][1] + r[2][1] * r[2][1] - 1));
    e = ct__max(e, ct__abs(r[0][2] * r[0][2] + r[1][2] * r[1][2] + r[2][2] * r[2][2] - 1));
    e = ct__max(e, ct__abs(r[0][0] * r[0][1] + r[1][0] * r[1][1] + r[2][0] * r[2][1]));
    e = ct__max(e, ct__abs(r[0][0] * r[0][2] + r[1][0] * r[1][2] + r[2][0] * r[2][2]));
    e = ct__max(e, ct__abs(r[0][1] * r[0][2] + r[1][1] * r[1][2] + r[2][1] * r[2][2]));
    /* det = r0 . (r1 x r2) over rows: +1 for a rotation, -1 for a reflection */
    z = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
        r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
    return e <= tol && z > 0;
}
CT__INLINE ct_xform ct__xf_identity(void) {
    ct_xform x;
    memset(&x, 0, sizeof x);
    x.r[0][0] = x.r[1][1] = x.r[2][2] = 1;
    return x;
}
/* b relative to a: local_a = rel * local_b (used to work in one body's frame). */
CT__INLINE ct_xform ct__xf_rel(const ct_xform *a, const ct_xform *b) {
    ct_xform out, id;
    int i, j, k;
    if (!a || !b) {   /* the identity only where one is missing (it is built with a memset) */
        id = ct__xf_identity();
        if (!a) a = &id;
        if (!b) b = &id;
    }
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            ct_real s = 0;
            for (k = 0; k < 3; ++k) s += a->r[k][i] * b->r[k][j];
            out.r[i][j] = s;
        }
    out.p = ct__m3_tmul(a->r, ct__sub(b->p, a->p));
    return out;
}

/* ---- deterministic pseudo-random numbers (tests, benches and seeded internals) ---------- */
/* splitmix64: state lives in the caller. */
CT__INLINE unsigned long long ct__rand_u64(unsigned long long *state) {
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif /* CT__MATH_H */
