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
