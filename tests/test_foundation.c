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
