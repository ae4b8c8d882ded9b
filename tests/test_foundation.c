/* Foundation: status strings, transforms, the allocator plumbing and the scratch arena.
   This file embeds a static copy of the implementation so it can reach the private scratch
   functions (ct__scratch_*) directly. */
#define CONTACT_STATIC
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "testutil.h"
#include <criterion/criterion.h>
#include <stdint.h>

Test(foundation, status_strings_are_distinct) {
    int i, j;
    for (i = CT_OK; i <= CT_WRITE_FAILED; ++i) {
        cr_assert_not_null(ct_status_string((ct_status)i));
        for (j = CT_OK; j < i; ++j)
            cr_assert_str_neq(ct_status_string((ct_status)i), ct_status_string((ct_status)j));
    }
}

Test(foundation, quaternion_rotation_is_orthonormal_and_right) {
    ct_real q[4] = { 0, 0, (ct_real)0.7071067811865476, (ct_real)0.7071067811865476 };
    ct_xform x = ct_xform_from_quat(q, tu_vec(1, 2, 3));
    ct_vec3 v = ct__xf_point(&x, tu_vec(1, 0, 0));
    /* 90 degrees about z maps x to y, then translates */
    cr_assert_float_eq(v.x, 1, 10 * TU_EPS);
    cr_assert_float_eq(v.y, 3, 10 * TU_EPS);
    cr_assert_float_eq(v.z, 3, 10 * TU_EPS);
    cr_assert(ct__xf_valid(&x));
    {
        ct_xform y = ct_xform_from_axis_angle(tu_vec(0, 0, 2), CT__PI / 2, tu_vec(1, 2, 3));
        int i, j;
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) cr_assert_float_eq(x.r[i][j], y.r[i][j], 10 * TU_EPS);
    }
}

Test(foundation, transform_inverse_and_relative) {
    unsigned long long seed = 7;
    int k;
    for (k = 0; k < 100; ++k) {
        ct_xform a = tu_random_xform(&seed, 10), b = tu_random_xform(&seed, 10);
        ct_xform rel = ct__xf_rel(&a, &b);
        ct_vec3 p = tu_random_unit(&seed);
        ct_vec3 w = ct__xf_point(&b, p);                 /* world */
        ct_vec3 la = ct__xf_inv_point(&a, w);           /* in A's frame */
        ct_vec3 lr = ct__xf_point(&rel, p);
        cr_assert(ct__dist(la, lr) < 100 * TU_EPS * 20);
        cr_assert(ct__dist(ct__xf_point(&a, la), w) < 100 * TU_EPS * 20);
    }
}

Test(foundation, invalid_transforms_are_detected) {
    ct_xform x = ct_xform_identity();
    cr_assert(ct__xf_valid(NULL));
    cr_assert(ct__xf_valid(&x));
    x.p.y = (ct_real)NAN;
    cr_assert(!ct__xf_valid(&x));
    x = ct_xform_identity();
    x.r[1][1] = (ct_real)INFINITY;
    cr_assert(!ct__xf_valid(&x));
    x = ct_xform_identity();
    x.r[0][0] = 2; /* not a rotation */
    cr_assert(!ct__xf_valid(&x));
    x = ct_xform_identity();
    x.r[2][2] = -1; /* a reflection: orthonormal but det -1 */
    cr_assert(!ct__xf_valid(&x));
    x = ct_xform_identity();
    x.p.z = -(ct_real)INFINITY;
    cr_assert(!ct__xf_valid(&x));
}

Test(foundation, finite_and_normalize) {
    int ok;
    ct_vec3 v;
    cr_assert(!ct__finite((ct_real)NAN));
    cr_assert(!ct__finite((ct_real)INFINITY));
    cr_assert(!ct__finite(-(ct_real)INFINITY));
    cr_assert(ct__finite(CT__MAXR));
    v = ct__normalize(tu_vec(0, 0, 0), &ok);
    cr_assert(!ok);
    /* tiny and huge vectors normalise without under/overflow */
    v = ct__normalize(tu_vec(3e-30, 4e-30, 0), &ok);
    cr_assert(ok);
    cr_assert_float_eq(v.x, 0.6, 10 * TU_EPS);
    v = ct__normalize(tu_vec(0, 3e30, 4e30), &ok);
    cr_assert(ok);
    cr_assert_float_eq(v.z, 0.8, 10 * TU_EPS);
}

/* A fixed pattern of nested allocations, as an entry point would make them. Writes every
   byte so ASan catches any overlap, and checks earlier blocks survive inner resets. */
static int scratch_workload(ct_scratch *user, const ct_allocator *a, int scale) {
    ct_scratch local, *s = ct__scratch_begin(user, &local, a);
    ct__mark m = ct__scratch_mark(s);
    int ok = 1, i, k;
    unsigned char *keep = (unsigned char *)ct__scratch_alloc(s, 100);
    if (!keep) { ok = 0; goto done; }
    memset(keep, 0xAB, 100);
    for (k = 0; k < 5; ++k) {
        ct__mark inner = ct__scratch_mark(s);
        for (i = 1; i <= 8; ++i) {
            size_t n = (size_t)(i * 333 * scale);
            unsigned char *p = (unsigned char *)ct__scratch_alloc(s, n);
            if (!p) { ok = 0; goto done; }
            cr_assert_eq(((uintptr_t)p) % 16, 0);
            memset(p, i, n);
        }
        ct__scratch_reset(s, inner);
    }
    for (i = 0; i < 100; ++i) cr_assert_eq(keep[i], 0xAB);
done:
    ct__scratch_end(s, &local, m);
    return ok;
}

Test(scratch, warm_scratch_makes_no_allocation) {
    tu_alloc t;
    ct_scratch s;
    long before;
    int scale;
    tu_alloc_init(&t, 0);
    ct_scratch_init(&s, &t.a);
    cr_assert_eq(t.calls, 0, "init allocates nothing");
    for (scale = 1; scale <= 16; scale *= 4) {
        cr_assert(scratch_workload(&s, NULL, scale));   /* warm-up: may allocate */
        before = t.calls;
        cr_assert(scratch_workload(&s, NULL, scale));
        cr_assert(scratch_workload(&s, NULL, scale));
        cr_assert_eq(t.calls, before, "a warm scratch allocated %ld times at scale %d",
                     t.calls - before, scale);
        cr_assert_eq(t.outstanding, 1, "one consolidated block between calls");
    }
    /* a smaller call after a larger one also allocates nothing */
    before = t.calls;
    cr_assert(scratch_workload(&s, NULL, 1));
    cr_assert_eq(t.calls, before);
    ct_scratch_release(&s);
    cr_assert_eq(t.outstanding, 0);
    cr_assert_eq(t.bytes, 0);
}

Test(scratch, null_scratch_uses_a_temporary_one_and_frees_it) {
    tu_alloc t;
    tu_alloc_init(&t, 0);
    cr_assert(scratch_workload(NULL, &t.a, 4));
    cr_assert_gt(t.calls, 0);
    cr_assert_eq(t.outstanding, 0);
}

Test(scratch, zeroed_scratch_works_with_default_allocator) {
    ct_scratch s;
    memset(&s, 0, sizeof s);
    cr_assert(scratch_workload(&s, NULL, 2));
    ct_scratch_release(&s);
    ct_scratch_release(&s); /* twice is harmless */
}

Test(scratch, every_allocation_failure_is_clean) {
    long k;
    int succeeded = 0;
    for (k = 1; k < 100 && !succeeded; ++k) {
        tu_alloc t;
        ct_scratch s;
        tu_alloc_init(&t, k);
        ct_scratch_init(&s, &t.a);
        succeeded = scratch_workload(&s, NULL, 8);
        ct_scratch_release(&s);
        cr_assert_eq(t.outstanding, 0, "leak after failing allocation %ld", k);
        /* also through a NULL scratch */
        tu_alloc_init(&t, k);
        scratch_workload(NULL, &t.a, 8);
        cr_assert_eq(t.outstanding, 0, "leak (local scratch) after failing allocation %ld", k);
    }
    cr_assert(succeeded, "the workload never succeeded");
    cr_assert_gt(k, 2, "the sweep exercised no failure");
}

Test(scratch, overflowing_array_requests_fail) {
    ct_scratch s;
    ct_scratch_init(&s, NULL);
    cr_assert_null(CT__SALLOC(&s, ct_vec3, (long long)1 << 62));
    cr_assert_null(CT__SALLOC(&s, ct_vec3, -1));
    cr_assert_not_null(CT__SALLOC(&s, ct_vec3, 0)); /* zero elements: a valid pointer */
    ct_scratch_release(&s);
}

/* The public vector helpers against the component formulas in long double and the identities
   they must satisfy (cross orthogonal to both, Lagrange's identity, length homogeneous). */
Test(foundation, public_vector_helpers) {
    unsigned long long seed = 11;
    int k;
    for (k = 0; k < 200; ++k) {
        ct_vec3 a = ct_vec3_scale(tu_random_unit(&seed), (ct_real)(1 + 9 * tu_uniform(&seed)));
        ct_vec3 b = ct_vec3_make((ct_real)(tu_uniform(&seed) - 0.5), (ct_real)(tu_uniform(&seed) - 0.5), 3);
        long double ax = a.x, ay = a.y, az = a.z, bx = b.x, by = b.y, bz = b.z;
        long double dot = ax * bx + ay * by + az * bz, l2a = ax * ax + ay * ay + az * az;
        long double l2b = bx * bx + by * by + bz * bz, tol = 64 * (long double)TU_EPS * (l2a + l2b);
        ct_vec3 s = ct_vec3_add(a, b), d = ct_vec3_sub(a, b), c = ct_vec3_cross(a, b);
        cr_assert(fabsl(s.x - (ax + bx)) + fabsl(s.y - (ay + by)) + fabsl(s.z - (az + bz)) <= tol);
        cr_assert(fabsl(d.x - (ax - bx)) + fabsl(d.y - (ay - by)) + fabsl(d.z - (az - bz)) <= tol);
        cr_assert(fabsl(ct_vec3_dot(a, b) - dot) <= tol);
        cr_assert(fabsl(c.x - (ay * bz - az * by)) + fabsl(c.y - (az * bx - ax * bz)) +
                  fabsl(c.z - (ax * by - ay * bx)) <= tol);
        cr_assert(fabsl((long double)ct_vec3_dot(c, a)) <= tol * sqrtl(l2a + l2b));
        cr_assert(fabsl((long double)ct_vec3_dot(c, b)) <= tol * sqrtl(l2a + l2b));
        /* |a x b|^2 + (a.b)^2 = |a|^2 |b|^2 */
        cr_assert(fabsl((long double)ct_vec3_dot(c, c) + dot * dot - l2a * l2b) <= tol * (l2a + l2b));
        cr_assert(fabsl(ct_vec3_length(a) - sqrtl(l2a)) <= 4 * (long double)TU_EPS * sqrtl(l2a));
        cr_assert(ct_vec3_add(a, ct_vec3_scale(a, -1)).x == 0);
    }
    {   /* 3-4-12 is 13 at every scale, without overflow or underflow of the squares */
        ct_real big = TU_FLOAT ? (ct_real)1e30 : (ct_real)1e300, tiny = TU_FLOAT ? (ct_real)1e-30 : (ct_real)1e-300;
        ct_vec3 v = ct_vec3_make(3, 4, 12);
        cr_assert(fabsl(ct_vec3_length(ct_vec3_scale(v, big)) - 13.0L * big) <= 4 * (long double)TU_EPS * 13 * big);
        cr_assert(fabsl(ct_vec3_length(ct_vec3_scale(v, tiny)) - 13.0L * tiny) <= 4 * (long double)TU_EPS * 13 * tiny);
        cr_assert(ct_vec3_length(ct_vec3_make(0, 0, 0)) == 0);
    }
}

/* Applying a transform: against r p + t written out, the inverse undoes it, a vector ignores
   the translation and keeps its length, NULL is the identity. */
Test(foundation, public_transform_helpers) {
    unsigned long long seed = 13;
    ct_real q[4] = { 0, 0, (ct_real)0.7071067811865476, (ct_real)0.7071067811865476 };
    ct_xform z90 = ct_xform_from_quat(q, tu_vec(1, 2, 3));
    ct_vec3 p = ct_xform_point(&z90, tu_vec(1, 0, 0)), v = ct_xform_vector(&z90, tu_vec(1, 0, 0));
    int k;
    cr_assert(fabs((double)(p.x - 1)) + fabs((double)(p.y - 3)) + fabs((double)(p.z - 3)) <= 10 * TU_EPS);
    cr_assert(fabs((double)v.x) + fabs((double)(v.y - 1)) + fabs((double)v.z) <= 10 * TU_EPS);
    p = tu_vec(5, -6, 7);
    cr_assert(ct_xform_point(NULL, p).x == 5 && ct_xform_vector(NULL, p).y == -6 && ct_xform_inv_point(NULL, p).z == 7);
    cr_assert(ct_xform_inv_vector(NULL, p).x == 5);
    for (k = 0; k < 200; ++k) {
        ct_xform x = tu_random_xform(&seed, 10);
        ct_vec3 a = ct_vec3_scale(tu_random_unit(&seed), 3), w = ct_xform_point(&x, a), r = ct_xform_vector(&x, a);
        long double e[3];
        int i;
        for (i = 0; i < 3; ++i)
            e[i] = (long double)x.r[i][0] * a.x + (long double)x.r[i][1] * a.y + (long double)x.r[i][2] * a.z;
        cr_assert(fabsl(w.x - (e[0] + x.p.x)) + fabsl(w.y - (e[1] + x.p.y)) + fabsl(w.z - (e[2] + x.p.z)) <= 200 * TU_EPS);
        cr_assert(fabsl(r.x - e[0]) + fabsl(r.y - e[1]) + fabsl(r.z - e[2]) <= 64 * TU_EPS);
        cr_assert(fabs((double)(ct_vec3_length(r) - 3)) <= 64 * TU_EPS);
        cr_assert(ct_vec3_length(ct_vec3_sub(ct_xform_inv_point(&x, w), a)) <= 400 * TU_EPS);
        cr_assert(ct_vec3_length(ct_vec3_sub(ct_xform_inv_vector(&x, r), a)) <= 64 * TU_EPS);
        /* the difference of two points transforms as a vector */
        cr_assert(ct_vec3_length(ct_vec3_sub(ct_vec3_sub(w, ct_xform_point(&x, tu_vec(0, 0, 0))), r)) <= 400 * TU_EPS);
    }
}

/* The structural checks CT_ASSERT applies in the debug configuration accept what the library
   builds and reject each kind of corruption they exist to catch. */
Test(foundation, debug_structure_checks_reject_corruption) {
    ct_hull h;
    ct_pairs p;
    ct_pair items[3];
    int t;
    cr_assert_eq(ct_hull_box(tu_vec(1, 2, 3), NULL, &h), CT_OK);
    cr_assert(ct__hull_structure_ok(&h));
    t = h.he_twin[0];
    h.he_twin[0] = h.he_twin[1];                       /* twins no longer pair up */
    cr_assert(!ct__hull_structure_ok(&h));
    h.he_twin[0] = t;
    cr_assert(ct__hull_structure_ok(&h));
    h.he_next[h.face_first[1] - 1] = h.face_first[0] + 1;   /* face 0's loop does not close */
    cr_assert(!ct__hull_structure_ok(&h));
    h.he_next[h.face_first[1] - 1] = h.face_first[0];
    h.nverts += 1;                                     /* Euler broken */
    cr_assert(!ct__hull_structure_ok(&h));
    h.nverts -= 1;
    ct_hull_free(&h);
    items[0].a = 0; items[0].b = 1;
    items[1].a = 0; items[1].b = 2;
    items[2].a = 1; items[2].b = 2;
    memset(&p, 0, sizeof p);
    p.items = items;
    p.count = 3;
    cr_assert(ct__bp_sorted(&p, 1));
    items[1].b = 1;                                    /* a repeated pair */
    cr_assert(!ct__bp_sorted(&p, 1));
    items[1].a = 2; items[1].b = 0;                    /* out of order, and a > b */
    cr_assert(!ct__bp_sorted(&p, 1) && !ct__bp_sorted(&p, 0));
}

/* ---- the reduced resolution's 2D clip (ct__pfc_clip2d) against an independent oracle ------
   The oracle: the vertices of each polygon inside the other and every edge-edge crossing,
   sorted by angle about their mean (the intersection of two convex polygons is the convex
   polygon of those points), in double. Cases: random convex polygons (points on ellipses, 3 to
   40 vertices, sizes 1e-3..1, offsets up to the size), flat turns (200 points on an arc of
   radius 1e3), a polygon against itself, turned by 1e-9 rad or moved by 1e-12, needles 1e-9
   wide, nested and disjoint pairs. Checked: the area to 1e-11 of the frame's size squared
   (float: 1e4 ulps), every output point inside both polygons to the same, convex and CCW. */
typedef struct clip_pt { double x, y; } clip_pt;

static double clip_cross(clip_pt o, clip_pt a, clip_pt b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

static int clip_inside(const clip_pt *p, int n, clip_pt s) {
    int i;
    for (i = 0; i < n; ++i)
        if (clip_cross(p[i], p[(i + 1) % n], s) < 0) return 0;
    return 1;
}

static double clip_area(const clip_pt *p, int n) {
    double a = 0;
    int i;
    for (i = 0; i < n; ++i) a += p[i].x * p[(i + 1) % n].y - p[(i + 1) % n].x * p[i].y;
    return a / 2;
}

static int clip_angle_cmp(const void *a, const void *b) {
    double x = ((const double *)a)[2], y = ((const double *)b)[2];
    return (x > y) - (x < y);
}

/* area of the intersection of convex CCW p and q */
static double clip_oracle(const clip_pt *p, int np, const clip_pt *q, int nq) {
    static const int cap = 4096;
    double c[4096][3], mx = 0, my = 0, a = 0;
    int i, j, n = 0;
    for (i = 0; i < np; ++i)
        if (clip_inside(q, nq, p[i])) { c[n][0] = p[i].x; c[n][1] = p[i].y; ++n; }
    for (i = 0; i < nq; ++i)
        if (clip_inside(p, np, q[i])) { c[n][0] = q[i].x; c[n][1] = q[i].y; ++n; }
    for (i = 0; i < np; ++i)
        for (j = 0; j < nq && n < cap; ++j) {
            clip_pt a0 = p[i], a1 = p[(i + 1) % np], b0 = q[j], b1 = q[(j + 1) % nq];
            double d0 = clip_cross(b0, b1, a0), d1 = clip_cross(b0, b1, a1), e0 = clip_cross(a0, a1, b0), e1 = clip_cross(a0, a1, b1);
            if (((d0 < 0) != (d1 < 0)) && ((e0 < 0) != (e1 < 0))) {
                double t = d0 / (d0 - d1);
                c[n][0] = a0.x + t * (a1.x - a0.x);
                c[n][1] = a0.y + t * (a1.y - a0.y);
                ++n;
            }
        }
    if (n < 3) return 0;
    for (i = 0; i < n; ++i) { mx += c[i][0] / n; my += c[i][1] / n; }
    for (i = 0; i < n; ++i) c[i][2] = atan2(c[i][1] - my, c[i][0] - mx);
    qsort(c, (size_t)n, sizeof c[0], clip_angle_cmp);
    for (i = 0; i < n; ++i) a += c[i][0] * c[(i + 1) % n][1] - c[(i + 1) % n][0] * c[i][1];
    return a / 2;
}

/* k points on the ellipse (semi-axes sa, sb, turned by th, centred at (cx, cy)), CCW */
static int clip_ellipse(clip_pt *p, int k, double sa, double sb, double th, double cx, double cy, double arc,
                        unsigned long long *seed) {
    double t[256];
    int i, j;
    for (i = 0; i < k; ++i) t[i] = arc * tu_uniform(seed);
    for (i = 1; i < k; ++i)   /* sorted angles */
        for (j = i; j > 0 && t[j - 1] > t[j]; --j) { double s = t[j]; t[j] = t[j - 1]; t[j - 1] = s; }
    for (i = 0, j = 0; i < k; ++i) {
        if (i > 0 && t[i] - t[i - 1] < 1e-9) continue;
        p[j].x = cx + sa * cos(t[i]) * cos(th) - sb * sin(t[i]) * sin(th);
        p[j].y = cy + sa * cos(t[i]) * sin(th) + sb * sin(t[i]) * cos(th);
        ++j;
    }
    return j;
}

static void clip_check(const clip_pt *p, int np, const clip_pt *q, int nq, int id) {
    ct__v2 fp[256], fq[256], out[1024], buf[1024];
    clip_pt o[1024];
    double r = 0, ref, area, tol;
    int i, n;
    for (i = 0; i < np; ++i) { fp[i] = ct__v2_make((ct_real)p[i].x, (ct_real)p[i].y); r = fmax(r, fabs(p[i].x) + fabs(p[i].y)); }
    for (i = 0; i < nq; ++i) { fq[i] = ct__v2_make((ct_real)q[i].x, (ct_real)q[i].y); r = fmax(r, fabs(q[i].x) + fabs(q[i].y)); }
    n = ct__pfc_clip2d(fp, np, fq, nq, out, buf, 1024);
    cr_assert(n >= 0 && n <= np + nq, "case %d: %d points", id, n);
    for (i = 0; i < n; ++i) { o[i].x = (double)out[i].x; o[i].y = (double)out[i].y; }
    ref = clip_oracle(p, np, q, nq);
    area = n >= 3 ? clip_area(o, n) : 0;
    tol = (TU_FLOAT ? 1e4 * 1.2e-7 : 1e-11) * r * r;
    cr_expect(fabs(area - ref) <= tol, "case %d: area %.17g, oracle %.17g (r %g, %d and %d points)", id, area, ref, r, np, nq);
    for (i = 0; i < n; ++i) {
        int j;
        for (j = 0; j < np; ++j)
            cr_expect(clip_cross(p[j], p[(j + 1) % np], o[i]) >= -tol, "case %d: point %d outside p's edge %d by %g", id, i,
                      j, clip_cross(p[j], p[(j + 1) % np], o[i]));
        for (j = 0; j < nq; ++j)
            cr_expect(clip_cross(q[j], q[(j + 1) % nq], o[i]) >= -tol, "case %d: point %d outside q's edge %d by %g", id, i,
                      j, clip_cross(q[j], q[(j + 1) % nq], o[i]));
        if (n >= 3) cr_expect(clip_cross(o[i], o[(i + 1) % n], o[(i + 2) % n]) >= -tol, "case %d: turn at %d clockwise", id, i);
    }
}

Test(clip2d, pfc_clip_against_the_candidates_oracle) {
    unsigned long long seed = 2029;
    clip_pt p[256], q[256];
    int c, np, nq, i;
    for (c = 0; c < 3000; ++c) {   /* random ellipse polygons */
        double s = pow(10, -3 * tu_uniform(&seed));
        np = clip_ellipse(p, 3 + (int)(38 * tu_uniform(&seed)), s * (0.2 + tu_uniform(&seed)), s * (0.2 + tu_uniform(&seed)),
                          6.3 * tu_uniform(&seed), s * (tu_uniform(&seed) - 0.5), s * (tu_uniform(&seed) - 0.5), 6.283185307179586, &seed);
        nq = clip_ellipse(q, 3 + (int)(38 * tu_uniform(&seed)), s * (0.2 + tu_uniform(&seed)), s * (0.2 + tu_uniform(&seed)),
                          6.3 * tu_uniform(&seed), s * (tu_uniform(&seed) - 0.5), s * (tu_uniform(&seed) - 0.5), 6.283185307179586, &seed);
        if (np >= 3 && nq >= 3) clip_check(p, np, q, nq, c);
    }
    for (c = 0; c < 200; ++c) {   /* flat turns: an arc of radius 1e3 closed by its chord, against a polygon */
        double th = 6.3 * tu_uniform(&seed);
        np = clip_ellipse(p, 200, 1e3, 1e3, th, -1e3 * cos(th), -1e3 * sin(th) - 0.5 + tu_uniform(&seed), 1e-3, &seed);
        nq = clip_ellipse(q, 3 + (int)(20 * tu_uniform(&seed)), 0.5 + tu_uniform(&seed), 0.3 + tu_uniform(&seed), 6.3 * tu_uniform(&seed),
                          0.3 * (tu_uniform(&seed) - 0.5), 0.3 * (tu_uniform(&seed) - 0.5), 6.283185307179586, &seed);
        clip_check(p, np, q, nq, 10000 + c);
        clip_check(q, nq, p, np, 20000 + c);
    }
    for (c = 0; c < 300; ++c) {   /* a polygon against itself, turned by 1e-9 or moved by 1e-12 */
        double th = c % 3 == 1 ? 1e-9 : 0, dx = c % 3 == 2 ? 1e-12 : 0;
        np = clip_ellipse(p, 3 + (int)(30 * tu_uniform(&seed)), 0.3 + tu_uniform(&seed), 0.3 + tu_uniform(&seed), 6.3 * tu_uniform(&seed),
                          0, 0, 6.283185307179586, &seed);
        for (i = 0; i < np; ++i) {
            q[i].x = p[i].x * cos(th) - p[i].y * sin(th) + dx;
            q[i].y = p[i].x * sin(th) + p[i].y * cos(th);
        }
        if (np >= 3) clip_check(p, np, q, np, 30000 + c);
    }
    for (c = 0; c < 300; ++c) {   /* needles 1e-9 wide across a polygon; nested; disjoint */
        double th = 6.3 * tu_uniform(&seed);
        np = clip_ellipse(p, 3 + (int)(20 * tu_uniform(&seed)), 0.5, 0.4, th, 0, 0, 6.283185307179586, &seed);
        if (c % 3 == 0) nq = clip_ellipse(q, 4 + (int)(6 * tu_uniform(&seed)), 1.5, 1e-9, 6.3 * tu_uniform(&seed), 0.1, 0, 6.283185307179586, &seed);
        else if (c % 3 == 1) nq = clip_ellipse(q, 3 + (int)(20 * tu_uniform(&seed)), 0.1, 0.05, th, 0.05, 0, 6.283185307179586, &seed);
        else nq = clip_ellipse(q, 3 + (int)(20 * tu_uniform(&seed)), 0.2, 0.1, th, 2, 1, 6.283185307179586, &seed);
        if (np >= 3 && nq >= 3) { clip_check(p, np, q, nq, 40000 + c); clip_check(q, nq, p, np, 50000 + c); }
    }
}
