/* Shared decoding of fuzzer bytes into the inputs of contact.h: coordinates that include NaN,
   Inf, denormals, huge and tiny values, exact duplicates and flat sets, and transforms that are
   rotations (from a quaternion) or deliberately broken matrices. Header-only; each harness
   includes it once. */
#ifndef CT_FUZZ_INPUT_H
#define CT_FUZZ_INPUT_H
#include "contact.h"
#include "detail/math.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz { const uint8_t *p; size_t n, i; } fz;

static inline unsigned fz_byte(fz *f) { return f->i < f->n ? f->p[f->i++] : 0; }
static inline unsigned fz_u16(fz *f) { unsigned a = fz_byte(f); return a | (fz_byte(f) << 8); }
static inline int fz_left(const fz *f) { return f->i < f->n; }

/* A scalar: mostly moderate values on a coarse grid (so coplanar and duplicate points are
   common), sometimes a special value. `scale` sets the size of the scene. */
static inline ct_real fz_real(fz *f, double scale) {
    unsigned sel = fz_byte(f);
    switch (sel) {
    case 0: return (ct_real)NAN;
    case 1: return (ct_real)INFINITY;
    case 2: return -(ct_real)INFINITY;
    case 3: return (ct_real)(sizeof(ct_real) == 4 ? 1e-40 : 1e-310);   /* denormal */
    case 4: return (ct_real)(sizeof(ct_real) == 4 ? 1e30 : 1e300);
    case 5: return (ct_real)(sizeof(ct_real) == 4 ? -1e30 : -1e300);
    case 6: return 0;
    default: break;
    }
    if (sel < 64) return (ct_real)(scale * ((int)(sel % 8) - 4));        /* lattice */
    return (ct_real)(scale * ((double)fz_u16(f) / 32768.0 - 1.0));
}

static inline ct_vec3 fz_vec(fz *f, double scale) {
    ct_vec3 v;
    v.x = fz_real(f, scale); v.y = fz_real(f, scale); v.z = fz_real(f, scale);
    return v;
}

/* A scale factor spanning 1e-6 .. 1e6. */
static inline double fz_scale(fz *f) {
    static const double s[8] = { 1e-6, 1e-3, 1, 1, 1, 1, 1e3, 1e6 };
    return s[fz_byte(f) & 7];
}

/* Points: count from the input, each either new or a copy of an earlier one; sometimes all
   flattened onto a plane or a line. */
static inline int fz_points(fz *f, ct_vec3 *out, int max, double scale) {
    int n = (int)(fz_byte(f) % (unsigned)(max + 1)), i;
    unsigned mode = fz_byte(f);
    for (i = 0; i < n; ++i) {
        unsigned d = fz_byte(f);
        if (i > 0 && d < 24) out[i] = out[d % i];
        else out[i] = fz_vec(f, scale);
        if (mode == 1) out[i].z = 0;
        if (mode == 2) { out[i].y = out[i].x; out[i].z = out[i].x; }
    }
    return n;
}

/* A transform: a rotation from a quaternion, or (rarely) a broken one. *rigid (may be NULL) is
   set to 1 when the rotation part is a rotation (the translation may still be non-finite). */
static inline ct_xform fz_xform_r(fz *f, double scale, int *rigid) {
    ct_real q[4];
    int k;
    unsigned sel = fz_byte(f);
    ct_xform x;
    for (k = 0; k < 4; ++k) q[k] = (ct_real)((double)fz_u16(f) / 32768.0 - 1.0);
    x = ct_xform_from_quat(q, fz_vec(f, scale));
    if (rigid) *rigid = sel < 1 || sel > 4;
    if (sel == 1) x.r[0][0] = (ct_real)NAN;
    if (sel == 2) x.r[1][2] += (ct_real)0.5;                            /* skewed */
    if (sel == 3) for (k = 0; k < 3; ++k) x.r[k][0] = -x.r[k][0];      /* a reflection */
    if (sel == 4) for (k = 0; k < 9; ++k) x.r[k / 3][k % 3] *= (ct_real)1.5; /* scaled */
    return x;
}
static inline ct_xform fz_xform(fz *f, double scale) { return fz_xform_r(f, scale, NULL); }

/* A finite coordinate on a lattice of `scale`, optionally jittered (sliver faces, near-coplanar
   points) - what the polar/SAT harnesses build hulls from (no NaN/Inf: those are tested by
   fuzz_hull, here they would only stop at the hull). */
static inline ct_real fz_safe_real(fz *f, double scale, double jitter) {
    int lat = (int)(fz_byte(f) % 17) - 8;
    double j = jitter > 0 ? jitter * ((double)fz_u16(f) / 32768.0 - 1.0) : 0;
    return (ct_real)(scale * (lat + j));
}

/* Points for a hull: count, jitter level, then each point new or a copy of an earlier one. */
static inline int fz_safe_points(fz *f, ct_vec3 *out, int max, double scale) {
    static const double jit[4] = { 0, 1e-7, 1e-3, 0.5 };
    int n = 4 + (int)(fz_byte(f) % (unsigned)(max - 3)), i;
    double jitter = jit[fz_byte(f) & 3];
    for (i = 0; i < n; ++i) {
        unsigned d = fz_byte(f);
        if (i > 0 && d < 16) { out[i] = out[d % i]; continue; }
        out[i].x = fz_safe_real(f, scale, jitter);
        out[i].y = fz_safe_real(f, scale, jitter);
        out[i].z = fz_safe_real(f, scale, jitter);
    }
    return n;
}

/* Largest |coordinate| of points (0 for none); NaN counts as huge. */
static inline double fz_maxabs(const ct_vec3 *p, int n) {
    double m = 0;
    int i;
    for (i = 0; i < n; ++i) {
        double a = fabs((double)p[i].x), b = fabs((double)p[i].y), c = fabs((double)p[i].z);
        if (a != a || b != b || c != c) return INFINITY;
        if (a > m) m = a;
        if (b > m) m = b;
        if (c > m) m = c;
    }
    return m;
}

/* A hull from fz_safe_points (the polar and SAT harnesses); 0 when degenerate. In float,
   hulls whose extent is below 1e-2 of their largest coordinate are skipped: their vertices
   carry input rounding far above tolerances scaled to the extent, and these harnesses test
   the code that consumes hulls (quickhull itself is fuzzed by fuzz_hull, in double and float). */
static inline int fz_safe_hull(fz *f, ct_hull *h, double scale) {
    ct_vec3 pts[24];
    int n = fz_safe_points(f, pts, 24, scale);
    if (ct_hull_build(pts, n, NULL, NULL, h) != CT_OK) return 0;
    if (sizeof(ct_real) == 4 && (double)h->extent < 1e-2 * fz_maxabs(h->verts, h->nverts)) {
        ct_hull_free(h);
        return 0;
    }
    return 1;
}

/* Magnitudes above this make squares and sums overflow (1e150 double, 1e15 float): inputs that
   large may legitimately be answered CT_INVALID, and only the finiteness checks apply. */
#define FZ_BIG (sizeof(ct_real) == 4 ? 1e15 : 1e150)
/* Machine epsilon of the build. */
#define FZ_EPS ((double)CT__EPS)

static inline int fz_finite(double x) { return x == x && fabs(x) <= (double)CT__MAXR; }
static inline int fz_finite3(ct_vec3 v) { return fz_finite((double)v.x) && fz_finite((double)v.y) && fz_finite((double)v.z); }
static inline int fz_unit(ct_vec3 v) { return fabs((double)ct__len(v) - 1) <= 1e3 * FZ_EPS; }

/* Invariant checks abort (a crash the fuzzer reports) rather than return. */
#define FZ_CHECK(c) do { if (!(c)) { fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #c, __FILE__, __LINE__); abort(); } } while (0)

/* The structural invariants of a hull: Euler, twins, face cycles, unit planes, finite data. */
static inline void fz_check_hull(const ct_hull *h) {
    int k, f;
    FZ_CHECK(h->nverts >= 4 && h->nfaces >= 4 && h->nverts - h->nedges + h->nfaces == 2);
    FZ_CHECK(h->face_first[0] == 0 && h->face_first[h->nfaces] == 2 * h->nedges);
    for (k = 0; k < h->nverts; ++k) FZ_CHECK(fz_finite3(h->verts[k]));
    for (k = 0; k < 2 * h->nedges; ++k) {
        FZ_CHECK(h->he_twin[k] >= 0 && h->he_twin[k] < 2 * h->nedges && h->he_twin[h->he_twin[k]] == k);
        FZ_CHECK(h->face_verts[k] >= 0 && h->face_verts[k] < h->nverts);
        /* the twin runs the other way: it starts where this half-edge ends */
        FZ_CHECK(h->face_verts[h->he_twin[k]] == h->face_verts[h->he_next[k]]);
    }
    for (f = 0; f < h->nfaces; ++f) {
        FZ_CHECK(h->face_first[f + 1] - h->face_first[f] >= 3);
        for (k = h->face_first[f]; k < h->face_first[f + 1]; ++k) FZ_CHECK(h->he_face[k] == f);
        FZ_CHECK(fz_unit(h->planes[f].n) && fz_finite((double)h->planes[f].d));
    }
}
/* The conditioning of each vertex of I: the largest |det| of three unit normals of faces
   through it (the best-conditioned triple, the one the polar code solves; a vertex is exact
   to about eps / det of the size). */
static inline void fz_vertex_det(const ct_hull *I, double *det) {
    int v, f, k;
    for (v = 0; v < I->nverts; ++v) {
        ct_vec3 n[32];
        int m = 0, i, j, l;
        double best = 0;
        for (f = 0; f < I->nfaces; ++f)
            for (k = I->face_first[f]; k < I->face_first[f + 1]; ++k)
                if (I->face_verts[k] == v && m < 32) n[m++] = I->planes[f].n;
        for (i = 0; i < m; ++i)
            for (j = i + 1; j < m; ++j)
                for (l = j + 1; l < m; ++l) {
                    double d = fabs((double)ct__dot(n[i], ct__cross(n[j], n[l])));
                    if (d > best) best = d;
                }
        det[v] = best;
    }
}

#endif
