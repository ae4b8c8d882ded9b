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

/* A transform: a rotation from a quaternion, or (rarely) a broken one. */
static inline ct_xform fz_xform(fz *f, double scale) {
    ct_real q[4];
    int k;
    unsigned sel = fz_byte(f);
    ct_xform x;
    for (k = 0; k < 4; ++k) q[k] = (ct_real)((double)fz_u16(f) / 32768.0 - 1.0);
    x = ct_xform_from_quat(q, fz_vec(f, scale));
    if (sel == 1) x.r[0][0] = (ct_real)NAN;
    if (sel == 2) x.r[1][2] += (ct_real)0.5;
    return x;
}

/* Invariant checks abort (a crash the fuzzer reports) rather than return. */
#define FZ_CHECK(c) do { if (!(c)) { fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #c, __FILE__, __LINE__); abort(); } } while (0)
#endif
