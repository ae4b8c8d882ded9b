/* fuzz-ci-runs: 50000 */
/* Fuzz ct_gjk and ct_signed_distance on every shape kind (points, hull, sphere, ellipsoid, box,
   triangle, support function, rounded), with and without a cache and a scratch, under rigid
   and broken transforms. Checks: the status is one the contract allows, and CT_INVALID exactly
   when the contract says the input is bad (unless magnitudes are so large that sums overflow);
   on CT_OK every output is finite, GJK's distance is >= 0 with a unit normal when apart and
   witness points that far apart; the signed distance agrees with GJK when apart and is <= 0
   only when GJK finds contact; swapping A and B and a warm cache give the same distance. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz_box_support { ct_vec3 half; int bad; } fz_box_support;

/* A box given by its support function; `bad` returns NaN (a broken user callback). */
static void fz_support(const void *user, const ct_vec3 *d, ct_vec3 *out) {
    const fz_box_support *b = (const fz_box_support *)user;
    out->x = d->x >= 0 ? b->half.x : -b->half.x;
    out->y = d->y >= 0 ? b->half.y : -b->half.y;
    out->z = d->z >= 0 ? b->half.z : -b->half.z;
    if (b->bad) out->x = (ct_real)NAN;
}

typedef struct fz_shape {
    ct_shape s;
    ct_vec3 pts[16];
    int n;
    ct_hull hull;
    fz_box_support sup;
    int valid;     /* the contract says the shape is usable */
    double size;   /* largest |coordinate| of the shape in its frame, radius included */
} fz_shape;

static int fz_nonneg(ct_vec3 v) { return fz_finite3(v) && v.x >= 0 && v.y >= 0 && v.z >= 0; }

static void fz_decode_shape(fz *f, fz_shape *o, double scale) {
    unsigned kind = fz_byte(f) % 8, core = kind == 7 ? fz_byte(f) % 7 : kind;
    ct_vec3 v;
    memset(o, 0, sizeof *o);
    o->valid = 1;
    switch (core) {
    case 0:
    case 1:
        o->n = fz_points(f, o->pts, 16, scale);
        o->size = fz_maxabs(o->pts, o->n);
        if (core == 0) {
            o->s = ct_shape_points(o->pts, o->n);
            o->valid = o->n >= 1 && fz_finite(o->size);
        } else {
            o->valid = ct_hull_build(o->pts, o->n, NULL, NULL, &o->hull) == CT_OK;
            o->s = ct_shape_hull(&o->hull);
        }
        break;
    case 2: {
        ct_real r = fz_real(f, scale);
        o->s = ct_shape_sphere(r);
        o->size = fabs((double)r);
        o->valid = fz_finite((double)r) && r >= 0;
        break;
    }
    case 3:
    case 4:
        v = fz_vec(f, scale);
        o->s = core == 3 ? ct_shape_ellipsoid(v) : ct_shape_box(v);
        o->size = fz_maxabs(&v, 1);
        o->valid = fz_nonneg(v);
        break;
    case 5:
        o->pts[0] = fz_vec(f, scale); o->pts[1] = fz_vec(f, scale); o->pts[2] = fz_vec(f, scale);
        o->s = ct_shape_triangle(o->pts[0], o->pts[1], o->pts[2]);
        o->size = fz_maxabs(o->pts, 3);
        o->valid = fz_finite(o->size);
        break;
    default:
        v = fz_vec(f, scale);
        o->sup.half = ct__v3(ct__abs(v.x), ct__abs(v.y), ct__abs(v.z));
        o->sup.bad = fz_byte(f) == 9;
        o->s = ct_shape_support(fz_support, &o->sup);
        o->size = fz_maxabs(&v, 1);
        o->valid = fz_finite(o->size) && !o->sup.bad;
        break;
    }
    if (kind == 7) {
        ct_real r = fz_real(f, scale);
        o->s = ct_shape_rounded(o->s, r);
        /* a bad argument stays bad: a rounding of -1 on a sphere of radius 2 is invalid */
        o->valid = o->valid && fz_finite((double)r) && r >= 0 && fz_finite((double)o->s.radius);
    }
    if (o->s.radius == o->s.radius) o->size += fabs((double)o->s.radius);
    else o->size = INFINITY;
}

static int fz_status_ok(ct_status st) { return st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE; }

/* The finiteness and sign checks of a CT_OK (or best-estimate) result. */
static void fz_check_distance(const ct_distance *d, int gjk, int apart_tol_ok) {
#ifdef FZ_DEBUG
    fprintf(stderr, "check %s: d %.17g n %g %g %g pa %g %g %g pb %g %g %g\n", gjk ? "gjk" : "signed", (double)d->distance,
            (double)d->normal.x, (double)d->normal.y, (double)d->normal.z, (double)d->pa.x, (double)d->pa.y,
            (double)d->pa.z, (double)d->pb.x, (double)d->pb.y, (double)d->pb.z);
#endif
    FZ_CHECK(fz_finite((double)d->distance) && fz_finite3(d->pa) && fz_finite3(d->pb) && fz_finite3(d->normal));
    if (gjk) FZ_CHECK(d->distance >= 0);
    if (!gjk || (d->distance > 0 && apart_tol_ok)) FZ_CHECK(fz_unit(d->normal));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    fz_shape A, B;
    ct_xform xa, xb;
    int ra, rb, ia, ib;
    double scale = fz_scale(&f), S, tol;
    unsigned flags;
    ct_distance g, g2, gs, sd, sd2;
    ct_status st, st2, sst, sst2;
    ct_gjk_cache cache;
    ct_scratch scr;
    int valid, big, smooth;
    fz_decode_shape(&f, &A, scale);
    fz_decode_shape(&f, &B, scale);
    xa = fz_xform_r(&f, scale, &ra);
    xb = fz_xform_r(&f, scale, &rb);
    flags = fz_byte(&f);
    ia = flags & 1; /* identity (NULL) transforms */
    ib = flags & 2;
    ct_scratch_init(&scr, NULL);
    valid = A.valid && B.valid && (ia || (ra && fz_finite3(xa.p))) && (ib || (rb && fz_finite3(xb.p)));
    S = A.size + B.size + (ia ? 0 : fz_maxabs(&xa.p, 1)) + (ib ? 0 : fz_maxabs(&xb.p, 1));
    big = !(S <= FZ_BIG);
    smooth = A.s.type == CT_SHAPE_ELLIPSOID || A.s.type == CT_SHAPE_SUPPORT || B.s.type == CT_SHAPE_ELLIPSOID ||
             B.s.type == CT_SHAPE_SUPPORT;
    /* polytopes: GJK's bounds agree to ~1e3 ulps of the scene; curved cores (ellipsoid, support
       function) near touching only to ~sqrt(eps) of it (the bounds' gap closes linearly there,
       and rounding stops the iteration first) */
    tol = smooth ? 10 * sqrt(FZ_EPS) * S : 1e4 * FZ_EPS * S;

    st = ct_gjk(&A.s, ia ? NULL : &xa, &B.s, ib ? NULL : &xb, NULL, &g);
#ifdef FZ_DEBUG
    {
        int k;
        const fz_shape *sh[2] = { &A, &B };
        const ct_xform *xs[2] = { ia ? NULL : &xa, ib ? NULL : &xb };
        for (k = 0; k < 2; ++k) {
            int i;
            fprintf(stderr, "shape %c: type %d n %d radius %.17g size %g valid %d v0 %.17g %.17g %.17g\n", 'A' + k, sh[k]->s.type,
                    sh[k]->n, (double)sh[k]->s.radius, sh[k]->size, sh[k]->valid, (double)sh[k]->s.ct__v[0].x,
                    (double)sh[k]->s.ct__v[0].y, (double)sh[k]->s.ct__v[0].z);
            for (i = 0; i < sh[k]->n; ++i)
                fprintf(stderr, "  p %.17g %.17g %.17g\n", (double)sh[k]->pts[i].x, (double)sh[k]->pts[i].y, (double)sh[k]->pts[i].z);
            if (xs[k]) for (i = 0; i < 3; ++i)
                fprintf(stderr, "  x %.17g %.17g %.17g | %.17g\n", (double)xs[k]->r[i][0], (double)xs[k]->r[i][1], (double)xs[k]->r[i][2],
                        (double)(i == 0 ? xs[k]->p.x : i == 1 ? xs[k]->p.y : xs[k]->p.z));
        }
        fprintf(stderr, "gjk st %d d %.17g iters %d tol %g\n", st, (double)g.distance, g.iterations, tol);
        st2 = ct_gjk(&B.s, ib ? NULL : &xb, &A.s, ia ? NULL : &xa, NULL, &g2);
        fprintf(stderr, "swapped st %d d %.17g iters %d\n", st2, (double)g2.distance, g2.iterations);
    }
#endif
    FZ_CHECK(fz_status_ok(st));
    if (!valid) FZ_CHECK(st == CT_INVALID);
    else if (!big) FZ_CHECK(st != CT_INVALID);
    if (st == CT_INVALID) {
        FZ_CHECK(g.distance == 0 && g.iterations == 0);
        goto done;
    }
    fz_check_distance(&g, 1, 1);
    /* witnesses: on the shapes, as far apart as the distance */
    if (!big && st == CT_OK && g.distance > tol)
    {   /* hypot: the length of a subnormal gap must not square to zero */
        ct_vec3 w = ct__sub(g.pb, g.pa);
        double len = hypot(hypot((double)w.x, (double)w.y), (double)w.z);
        FZ_CHECK(fabs(len - (double)g.distance) <= tol);
    }

    /* swap symmetry */
    st2 = ct_gjk(&B.s, ib ? NULL : &xb, &A.s, ia ? NULL : &xa, NULL, &g2);
    FZ_CHECK(st2 != CT_INVALID || big);
    if (!big && st == CT_OK && st2 == CT_OK) FZ_CHECK(fabs((double)g.distance - (double)g2.distance) <= tol);

    /* a cache: cold, then warm on the same pair */
    memset(&cache, 0, sizeof cache);
    st2 = ct_gjk(&A.s, ia ? NULL : &xa, &B.s, ib ? NULL : &xb, &cache, &g2);
    FZ_CHECK(st2 == st || big || st2 == CT_NO_CONVERGENCE || st == CT_NO_CONVERGENCE);
    FZ_CHECK(cache.count >= 0 && cache.count <= 4);
    st2 = ct_gjk(&A.s, ia ? NULL : &xa, &B.s, ib ? NULL : &xb, &cache, &g2);
    FZ_CHECK(fz_status_ok(st2) && (st2 != CT_INVALID || big));
    if (st2 != CT_INVALID) fz_check_distance(&g2, 1, 1);
    if (!big && st == CT_OK && st2 == CT_OK) FZ_CHECK(fabs((double)g.distance - (double)g2.distance) <= tol);

    /* signed distance: cold without scratch, warm with */
    sst = ct_signed_distance(&A.s, ia ? NULL : &xa, &B.s, ib ? NULL : &xb, NULL, NULL, &sd);
    FZ_CHECK(fz_status_ok(sst) && (sst != CT_INVALID || big));
    if (sst != CT_INVALID) fz_check_distance(&sd, 0, 1);
    sst2 = ct_signed_distance(&A.s, ia ? NULL : &xa, &B.s, ib ? NULL : &xb, &cache, (flags & 4) ? &scr : NULL, &sd2);
    FZ_CHECK(fz_status_ok(sst2) && (sst2 != CT_INVALID || big));
    if (sst2 != CT_INVALID) fz_check_distance(&sd2, 0, 1);
    if (!big && st == CT_OK && sst == CT_OK) {
        /* apart: the same GJK answer; in contact: GJK says 0 */
        if (g.distance > tol) FZ_CHECK(fabs((double)sd.distance - (double)g.distance) <= tol);
        if (sd.distance < -tol) FZ_CHECK(g.distance <= tol);
        if (sd.distance > tol) FZ_CHECK(g.distance > 0);
    }
    if (!big && sst == CT_OK && sst2 == CT_OK) {
        double etol = tol;
        FZ_CHECK(fabs((double)sd.distance - (double)sd2.distance) <= etol);
        /* swapped: the same depth, the normal reversed */
        sst2 = ct_signed_distance(&B.s, ib ? NULL : &xb, &A.s, ia ? NULL : &xa, NULL, &scr, &gs);
#ifdef FZ_DEBUG
        fprintf(stderr, "signed %.17g (n %g %g %g) warm %.17g swapped st %d %.17g (n %g %g %g)\n", (double)sd.distance,
                (double)sd.normal.x, (double)sd.normal.y, (double)sd.normal.z, (double)sd2.distance, sst2,
                (double)gs.distance, (double)gs.normal.x, (double)gs.normal.y, (double)gs.normal.z);
#endif
        if (sst2 == CT_OK) FZ_CHECK(fabs((double)sd.distance - (double)gs.distance) <= etol);
    }

    /* the Solfec-style convenience on point clouds is GJK with identity transforms */
    if (A.s.type == CT_SHAPE_POINTS && B.s.type == CT_SHAPE_POINTS && A.s.radius == 0 && B.s.radius == 0) {
        ct_vec3 pa, pb;
        ct_real d = ct_gjk_points(A.pts, A.n, B.pts, B.n, &pa, &pb);
        st2 = ct_gjk(&A.s, NULL, &B.s, NULL, NULL, &g2);
        if (st2 == CT_INVALID) FZ_CHECK(d == -1);
        else FZ_CHECK(d == g2.distance && d >= 0 && pa.x == g2.pa.x && pb.z == g2.pb.z);
    }
done:
    ct_scratch_release(&scr);
    ct_hull_free(&A.hull);
    ct_hull_free(&B.hull);
    return 0;
}
