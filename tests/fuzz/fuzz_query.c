/* fuzz-ci-runs: 100000 */
/* Fuzz the queries: ct_shape_aabb, ct_ray_cast and ct_time_of_impact on every shape kind
   (point clouds with NaN/Inf, hulls, spheres, ellipsoids, boxes, triangles, rounded boxes; any
   sizes, broken transforms), and the pair manifolds (spheres, box-sphere, capsules,
   hull-capsule). Checks: only the documented statuses; a transform that is not a rotation is
   CT_INVALID; on CT_OK finite outputs: lo <= hi, a hit's fraction in [0, 1] with a unit normal
   and a point in the shape's box (slack relative to the scene), a TOI fraction in [0, 1] with
   a unit (or, starting overlapped, zero) normal, manifolds of at most 2 points (1 for spheres)
   with a unit normal and separations <= speculative; swapping capsules keeps the count. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fz_status_ok(ct_status st) { return st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE; }

static void fz_check_manifold(const ct_manifold *m, int max, ct_real spec) {
    int i;
    FZ_CHECK(m->count >= 0 && m->count <= max);
    if (m->count == 0) return;
    FZ_CHECK(fz_unit(m->normal));
    for (i = 0; i < m->count; ++i) {
        FZ_CHECK(fz_finite3(m->points[i].point) && fz_finite((double)m->points[i].separation));
        FZ_CHECK(m->points[i].separation <= spec);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    double scale = fz_scale(&f);
    unsigned kind = fz_byte(&f) % 7, flags = fz_byte(&f);
    ct_vec3 pts[16], o, d;
    ct_hull h;
    int have_hull = 0, rigid, rigid1, n;
    ct_shape s, b;
    ct_xform x, x1, xb0, xb1;
    ct_aabb box;
    ct_ray_hit rh;
    ct_toi toi;
    ct_status st, sta;
    double big;
    memset(&h, 0, sizeof h);
    switch (kind) {
    case 0: n = fz_points(&f, pts, 16, scale); s = ct_shape_points(pts, n); break;
    case 1:
        have_hull = fz_safe_hull(&f, &h, scale);
        if (!have_hull) return 0;
        s = ct_shape_hull(&h);
        break;
    case 2: s = ct_shape_sphere(fz_real(&f, scale)); break;
    case 3: s = ct_shape_ellipsoid(fz_vec(&f, scale)); break;
    case 4: s = ct_shape_box(fz_vec(&f, scale)); break;
    case 5: o = fz_vec(&f, scale); d = fz_vec(&f, scale); s = ct_shape_triangle(o, d, fz_vec(&f, scale)); break;
    default: s = ct_shape_rounded(ct_shape_box(fz_vec(&f, scale)), fz_real(&f, scale)); break;
    }
    x = fz_xform_r(&f, scale, &rigid);
    x1 = fz_xform_r(&f, scale, &rigid1);

    /* AABB */
    sta = ct_shape_aabb(&s, &x, &box);
    FZ_CHECK(sta == CT_OK || sta == CT_INVALID);
    if (!rigid) FZ_CHECK(sta == CT_INVALID);
    if (sta == CT_OK) FZ_CHECK(fz_finite3(box.lo) && fz_finite3(box.hi) && box.lo.x <= box.hi.x && box.lo.y <= box.hi.y && box.lo.z <= box.hi.z);

    /* ray cast */
    o = fz_vec(&f, 3 * scale);
    d = fz_vec(&f, 6 * scale);
    st = ct_ray_cast(&s, &x, o, d, &rh);
    FZ_CHECK(fz_status_ok(st));
    if (!rigid) FZ_CHECK(st == CT_INVALID);
    if (st != CT_OK) FZ_CHECK(rh.hit == 0);
    if (st == CT_OK && rh.hit) {
        FZ_CHECK(rh.fraction >= 0 && rh.fraction <= 1);
        FZ_CHECK(fz_unit(rh.normal) && fz_finite3(rh.point));
        big = fz_maxabs(&box.lo, 1) + fz_maxabs(&box.hi, 1) + fz_maxabs(&o, 1) + fz_maxabs(&d, 1);
        if (sta == CT_OK && big <= FZ_BIG) { /* the hit lies in the shape's box (rounding slack) */
            double slack = (sizeof(ct_real) == 4 ? 1e-2 : 1e-6) * big;
            FZ_CHECK(rh.point.x >= box.lo.x - slack && rh.point.x <= box.hi.x + slack);
            FZ_CHECK(rh.point.y >= box.lo.y - slack && rh.point.y <= box.hi.y + slack);
            FZ_CHECK(rh.point.z >= box.lo.z - slack && rh.point.z <= box.hi.z + slack);
        }
    }

    /* time of impact: the shape sweeping x -> x1 against a sphere or a rounded box sweeping */
    b = flags & 1 ? ct_shape_sphere(fz_real(&f, scale)) : ct_shape_rounded(ct_shape_box(fz_vec(&f, scale)), fz_real(&f, scale));
    xb0 = fz_xform(&f, 2 * scale);
    xb1 = fz_xform(&f, 2 * scale);
    st = ct_time_of_impact(&s, &x, &x1, &b, &xb0, flags & 2 ? NULL : &xb1, fz_real(&f, scale), NULL, &toi);
    FZ_CHECK(fz_status_ok(st));
    if (!rigid || !rigid1) FZ_CHECK(st == CT_INVALID);
    FZ_CHECK(toi.fraction >= 0 && toi.fraction <= 1);
    if (st == CT_OK && toi.hit) {
        FZ_CHECK(fz_finite((double)toi.distance) && fz_finite3(toi.pa) && fz_finite3(toi.pb));
        FZ_CHECK(fz_unit(toi.normal) || (toi.fraction == 0 && toi.normal.x == 0 && toi.normal.y == 0 && toi.normal.z == 0));
    }
    if (st != CT_OK) FZ_CHECK(toi.hit == 0);

    {   /* pair manifolds */
        ct_capsule ca, cb;
        ct_manifold m, w;
        ct_real spec = flags & 4 ? fz_real(&f, scale) : 0;
        ca.p0 = fz_vec(&f, scale); ca.p1 = fz_vec(&f, scale); ca.radius = fz_real(&f, scale);
        cb.p0 = fz_vec(&f, scale); cb.p1 = fz_vec(&f, scale); cb.radius = fz_real(&f, scale);
        st = ct_manifold_spheres(ca.p0, ca.radius, cb.p0, cb.radius, spec, &m);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (st == CT_OK) fz_check_manifold(&m, 1, spec);
        st = ct_manifold_box_sphere(cb.p1, &x, ca.p0, ca.radius, spec, &m);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (!rigid) FZ_CHECK(st == CT_INVALID);
        if (st == CT_OK) fz_check_manifold(&m, 1, spec);
        st = ct_manifold_capsules(&ca, &x, &cb, &xb0, spec, &m);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (st == CT_OK) {
            fz_check_manifold(&m, 2, spec);
            FZ_CHECK(ct_manifold_capsules(&cb, &xb0, &ca, &x, spec, &w) == CT_OK);
            fz_check_manifold(&w, 2, spec);
        }
        if (have_hull) {
            st = ct_manifold_hull_capsule(&h, &x, &cb, &xb0, spec, &m);
            FZ_CHECK(st == CT_OK || st == CT_INVALID);
            if (!rigid) FZ_CHECK(st == CT_INVALID);
            if (st == CT_OK) fz_check_manifold(&m, 2, spec);
            /* the capsule's segment length and radius as a cylinder's height and radius */
            st = ct_manifold_hull_cylinder(&h, &x, cb.radius, ct_vec3_length(ct_vec3_sub(cb.p1, cb.p0)) / 2, &xb0, spec, NULL, &m);
            FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
            if (!rigid) FZ_CHECK(st == CT_INVALID);
            if (st == CT_OK || st == CT_NO_CONVERGENCE) fz_check_manifold(&m, CT_MANIFOLD_MAX, spec);
        }
    }
    if (have_hull) ct_hull_free(&h);
    return 0;
}
