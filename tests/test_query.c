/* Queries (issue #19): shape AABBs, ray casts and shape casts against independent oracles.
   - AABBs: 10,000 surface points sampled per shape without support functions (face points,
     parametric ellipsoid and cylinder surfaces, rounded surfaces as core point + r u) lie in
     the box; on analytic shapes the box is tight to 1e-12 of the size (float: 1e-5) against
     closed forms (the brute-force extreme corner of a box, the Lagrange extreme point of an
     ellipsoid checked on the surface, a cylinder's h(e) = H |e_z| + R |e_xy|);
   - bad input returns CT_INVALID with the output zeroed.
   Oracles run in double so the float build checks the same properties. */
#include "contact.h"
#include "testutil.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QN_SAMPLES 10000
/* tightness on analytic shapes, relative to the size */
#define QN_TIGHT (TU_FLOAT ? 1e-5 : 1e-12)
/* containment slack: the rounding of a transformed coordinate, relative to size + offset */
#define QN_ROUND (64.0 * (double)TU_EPS)

typedef struct qd { double x, y, z; } qd;
static qd qdv(double x, double y, double z) { qd r; r.x = x; r.y = y; r.z = z; return r; }
static qd qof(ct_vec3 v) { return qdv(v.x, v.y, v.z); }
static double qget(qd v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
static qd qadd(qd a, qd b) { return qdv(a.x + b.x, a.y + b.y, a.z + b.z); }
static qd qscl(qd a, double s) { return qdv(a.x * s, a.y * s, a.z * s); }
static double qdot(qd a, qd b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double qlen(qd a) { return sqrt(qdot(a, a)); }
static qd qxf(const ct_xform *x, qd v) { /* world point in double */
    return qdv(x->r[0][0] * v.x + x->r[0][1] * v.y + x->r[0][2] * v.z + x->p.x,
               x->r[1][0] * v.x + x->r[1][1] * v.y + x->r[1][2] * v.z + x->p.y,
               x->r[2][0] * v.x + x->r[2][1] * v.y + x->r[2][2] * v.z + x->p.z);
}
static qd qxdir(const ct_xform *x, qd v) {
    return qdv(x->r[0][0] * v.x + x->r[0][1] * v.y + x->r[0][2] * v.z,
               x->r[1][0] * v.x + x->r[1][1] * v.y + x->r[1][2] * v.z,
               x->r[2][0] * v.x + x->r[2][1] * v.y + x->r[2][2] * v.z);
}
static qd qunit(unsigned long long *s) { return qof(tu_random_unit(s)); }

/* A transform with rotation from the seed and translation scaled by t. */
static ct_xform qxform(unsigned long long *s, double t) { return tu_random_xform(s, t); }

/* ---- support-function test shape: a z-aligned cylinder ----------------------------------- */
typedef struct qcyl { double r, h; } qcyl;
static void qcyl_support(const void *user, const ct_vec3 *d, ct_vec3 *out) {
    const qcyl *c = (const qcyl *)user;
    double l = sqrt((double)d->x * d->x + (double)d->y * d->y);
    out->x = (ct_real)(l > 0 ? c->r * d->x / l : c->r);
    out->y = (ct_real)(l > 0 ? c->r * d->y / l : 0);
    out->z = (ct_real)(d->z >= 0 ? c->h : -c->h);
}
static void qnan_support(const void *user, const ct_vec3 *d, ct_vec3 *out) {
    (void)user; (void)d;
    out->x = out->y = out->z = (ct_real)NAN;
}

/* ---- surface samplers (no support functions) --------------------------------------------- */
static qd sample_box(qd h, unsigned long long *s) {
    int f = (int)(6 * tu_uniform(s)), ax = f % 3;
    double c[3] = { (2 * tu_uniform(s) - 1) * h.x, (2 * tu_uniform(s) - 1) * h.y, (2 * tu_uniform(s) - 1) * h.z };
    c[ax] = (f < 3 ? 1 : -1) * qget(h, ax);
    return qdv(c[0], c[1], c[2]);
}
static qd sample_ellipsoid(qd a, unsigned long long *s) {
    qd u = qunit(s);
    return qdv(a.x * u.x, a.y * u.y, a.z * u.z);
}
static qd sample_cyl(const qcyl *c, unsigned long long *s) {
    double t = 2 * M_PI * tu_uniform(s), z = (2 * tu_uniform(s) - 1) * c->h;
    if (tu_uniform(s) < 0.5) return qdv(c->r * cos(t), c->r * sin(t), z);
    {
        double rr = c->r * sqrt(tu_uniform(s));
        return qdv(rr * cos(t), rr * sin(t), tu_uniform(s) < 0.5 ? c->h : -c->h);
    }
}
/* a point on face f of a hull: a random convex combination of its vertices */
static qd sample_hull(const ct_hull *h, unsigned long long *s) {
    int f = (int)(h->nfaces * tu_uniform(s)), k, n = h->face_first[f + 1] - h->face_first[f];
    double w, sum = 0;
    qd p = qdv(0, 0, 0);
    for (k = 0; k < n; ++k) {
        w = -log(1 - tu_uniform(s));
        sum += w;
        p = qadd(p, qscl(qof(h->verts[h->face_verts[h->face_first[f] + k]]), w));
    }
    return qscl(p, 1 / sum);
}

static void check_contains(const ct_aabb *b, qd p, double slack, const char *what) {
    int i;
    for (i = 0; i < 3; ++i) {
        cr_assert_geq(qget(p, i), qget(qof(b->lo), i) - slack, "%s: axis %d point %.17g below lo %.17g", what, i, qget(p, i), qget(qof(b->lo), i));
        cr_assert_leq(qget(p, i), qget(qof(b->hi), i) + slack, "%s: axis %d point %.17g above hi %.17g", what, i, qget(p, i), qget(qof(b->hi), i));
    }
}

Test(query_aabb, analytic_shapes_contain_samples_and_are_tight) {
    unsigned long long seed = 11;
    int trial, k, i;
    for (trial = 0; trial < 6; ++trial) {
        double size = pow(10.0, -6 + 12.0 * trial / 5.0); /* 1e-6 .. 1e6 */
        ct_xform x = qxform(&seed, size);
        qd h = qdv(size * (0.2 + tu_uniform(&seed)), size * (0.2 + tu_uniform(&seed)), size * (0.2 + tu_uniform(&seed)));
        ct_vec3 hv = tu_vec(h.x, h.y, h.z);
        ct_shape box = ct_shape_box(hv), ell = ct_shape_ellipsoid(hv), sph = ct_shape_sphere(hv.x);
        ct_aabb bb, be, bs;
        double slack = QN_ROUND * 4 * size, tight = QN_TIGHT * size;
        h = qof(hv); /* the radii as the shapes hold them */
        cr_assert_eq(ct_shape_aabb(&box, &x, &bb), CT_OK);
        cr_assert_eq(ct_shape_aabb(&ell, &x, &be), CT_OK);
        cr_assert_eq(ct_shape_aabb(&sph, &x, &bs), CT_OK);
        for (k = 0; k < QN_SAMPLES; ++k) {
            check_contains(&bb, qxf(&x, sample_box(h, &seed)), slack, "box");
            check_contains(&be, qxf(&x, sample_ellipsoid(h, &seed)), slack, "ellipsoid");
            check_contains(&bs, qadd(qof(x.p), qscl(qunit(&seed), h.x)), slack, "sphere");
        }
        for (i = 0; i < 3; ++i) {
            /* box: the extreme corner by brute force */
            double hi = -1e300, lo = 1e300;
            qd e = qdv(i == 0, i == 1, i == 2), l, g, p;
            for (k = 0; k < 8; ++k) {
                qd c = qxf(&x, qdv(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z));
                hi = fmax(hi, qget(c, i));
                lo = fmin(lo, qget(c, i));
            }
            cr_assert_leq(fabs(bb.hi.x * (i == 0) + bb.hi.y * (i == 1) + bb.hi.z * (i == 2) - hi), tight, "box hi axis %d", i);
            cr_assert_leq(fabs(qget(qof(bb.lo), i) - lo), tight, "box lo axis %d", i);
            /* ellipsoid: the Lagrange point p = c + R A^2 R^T e / |A R^T e|, checked on the
               surface and with its gradient A^-2 R^T (p - c) parallel to R^T e */
            l = qdv(x.r[i][0], x.r[i][1], x.r[i][2]); /* R^T e */
            g = qdv(h.x * l.x, h.y * l.y, h.z * l.z);
            p = qscl(qdv(h.x * g.x, h.y * g.y, h.z * g.z), 1 / qlen(g)); /* local point */
            cr_assert_float_eq(qlen(qdv(p.x / h.x, p.y / h.y, p.z / h.z)), 1.0, 1e-12);
            {
                qd gr = qdv(p.x / (h.x * h.x), p.y / (h.y * h.y), p.z / (h.z * h.z));
                qd cr = qdv(gr.y * l.z - gr.z * l.y, gr.z * l.x - gr.x * l.z, gr.x * l.y - gr.y * l.x);
                cr_assert_leq(qlen(cr), 1e-9 * qlen(gr), "ellipsoid Lagrange point not extreme");
            }
            p = qxf(&x, p);
            cr_assert_leq(fabs(qget(qof(be.hi), i) - qget(p, i)), tight, "ellipsoid hi axis %d: %.17g vs %.17g", i, qget(qof(be.hi), i), qget(p, i));
            cr_assert_leq(fabs(qget(qof(be.lo), i) - (2 * qget(qof(x.p), i) - qget(p, i))), tight, "ellipsoid lo axis %d", i);
            cr_assert_leq(fabs(qget(qof(bs.hi), i) - (qget(qof(x.p), i) + h.x)), tight, "sphere hi axis %d", i);
            (void)e;
        }
    }
}

Test(query_aabb, support_shape_cylinder_is_tight_and_contains_samples) {
    unsigned long long seed = 12;
    int trial, k, i;
    for (trial = 0; trial < 4; ++trial) {
        qcyl c;
        ct_shape s;
        ct_xform x = qxform(&seed, 3);
        ct_aabb b;
        c.r = 0.3 + tu_uniform(&seed);
        c.h = 0.2 + tu_uniform(&seed);
        s = ct_shape_support(qcyl_support, &c);
        cr_assert_eq(ct_shape_aabb(&s, &x, &b), CT_OK);
        for (k = 0; k < QN_SAMPLES; ++k) check_contains(&b, qxf(&x, sample_cyl(&c, &seed)), QN_ROUND * 8, "cylinder");
        for (i = 0; i < 3; ++i) { /* h(e_i) = H |R_i2| + R sqrt(R_i0^2 + R_i1^2) */
            double w = c.h * fabs(x.r[i][2]) + c.r * sqrt(x.r[i][0] * x.r[i][0] + x.r[i][1] * x.r[i][1]);
            cr_assert_leq(fabs(qget(qof(b.hi), i) - (qget(qof(x.p), i) + w)), QN_TIGHT * 4, "cylinder hi axis %d", i);
            cr_assert_leq(fabs(qget(qof(b.lo), i) - (qget(qof(x.p), i) - w)), QN_TIGHT * 4, "cylinder lo axis %d", i);
        }
        /* rounded: every side grows by the radius exactly */
        {
            ct_shape r = ct_shape_rounded(s, (ct_real)0.25);
            ct_aabb br;
            cr_assert_eq(ct_shape_aabb(&r, &x, &br), CT_OK);
            for (i = 0; i < 3; ++i) {
                cr_assert_float_eq(qget(qof(br.hi), i), qget(qof(b.hi), i) + 0.25, QN_TIGHT * 4);
                cr_assert_float_eq(qget(qof(br.lo), i), qget(qof(b.lo), i) - 0.25, QN_TIGHT * 4);
            }
        }
    }
}

Test(query_aabb, vertex_shapes_and_rounded_hulls) {
    unsigned long long seed = 13;
    int trial, k, i, n;
    for (trial = 0; trial < 4; ++trial) {
        ct_vec3 pts[200];
        ct_hull h;
        ct_xform x = qxform(&seed, 2);
        ct_shape sp, sh, sr, st;
        ct_aabb bp, bh, br, bt;
        double rad = 0.1 + 0.2 * tu_uniform(&seed);
        n = trial < 2 ? 30 : 200; /* scanned and hill-climbed hulls */
        for (k = 0; k < n; ++k) {
            qd u = qunit(&seed);
            pts[k] = tu_vec(u.x, 0.6 * u.y, 0.3 * u.z);
        }
        cr_assert_eq(ct_hull_build(pts, n, NULL, NULL, &h), CT_OK);
        sp = ct_shape_points(pts, n);
        sh = ct_shape_hull(&h);
        sr = ct_shape_rounded(sh, (ct_real)rad);
        st = ct_shape_triangle(pts[0], pts[1], pts[2]);
        cr_assert_eq(ct_shape_aabb(&sp, &x, &bp), CT_OK);
        cr_assert_eq(ct_shape_aabb(&sh, &x, &bh), CT_OK);
        cr_assert_eq(ct_shape_aabb(&sr, &x, &br), CT_OK);
        cr_assert_eq(ct_shape_aabb(&st, &x, &bt), CT_OK);
        for (k = 0; k < QN_SAMPLES; ++k) {
            qd p = sample_hull(&h, &seed), u = qunit(&seed), q;
            double w0 = tu_uniform(&seed), w1 = tu_uniform(&seed) * (1 - w0);
            check_contains(&bh, qxf(&x, p), QN_ROUND * 4, "hull");
            check_contains(&bp, qxf(&x, p), QN_ROUND * 4, "points");
            /* a point of the rounded surface: a core vertex extreme along u (brute force) + r u */
            {
                int best = 0, v;
                qd lu = u;
                for (v = 1; v < h.nverts; ++v)
                    if (qdot(qof(h.verts[v]), lu) > qdot(qof(h.verts[best]), lu)) best = v;
                q = qadd(qxf(&x, qof(h.verts[best])), qscl(qxdir(&x, u), rad));
                check_contains(&br, q, QN_ROUND * 4, "rounded hull");
            }
            q = qadd(qadd(qscl(qof(pts[0]), 1 - w0 - w1), qscl(qof(pts[1]), w0)), qscl(qof(pts[2]), w1));
            check_contains(&bt, qxf(&x, q), QN_ROUND * 4, "triangle");
        }
        for (i = 0; i < 3; ++i) { /* exact: the extreme vertex by brute force */
            double hi = -1e300, lo = 1e300;
            for (k = 0; k < h.nverts; ++k) {
                double c = qget(qxf(&x, qof(h.verts[k])), i);
                hi = fmax(hi, c);
                lo = fmin(lo, c);
            }
            cr_assert_leq(fabs(qget(qof(bh.hi), i) - hi), QN_TIGHT * 4, "hull hi axis %d", i);
            cr_assert_leq(fabs(qget(qof(bh.lo), i) - lo), QN_TIGHT * 4, "hull lo axis %d", i);
            cr_assert_leq(fabs(qget(qof(br.hi), i) - (hi + rad)), QN_TIGHT * 4, "rounded hull hi axis %d", i);
            cr_assert_leq(fabs(qget(qof(bp.hi), i) - hi), QN_TIGHT * 4, "points hi axis %d", i);
        }
        ct_hull_free(&h);
    }
}

Test(query_aabb, bad_input_is_invalid_and_zeroed) {
    ct_vec3 one = tu_vec(1, 1, 1), nanv = tu_vec(NAN, 1, 1);
    ct_xform bad = ct_xform_identity();
    ct_shape good = ct_shape_box(one), shapes[6];
    ct_aabb b;
    int i;
    bad.r[0][0] = 2; /* not a rotation */
    shapes[0] = ct_shape_sphere(-1);
    shapes[1] = ct_shape_box(nanv);
    shapes[2] = ct_shape_points(NULL, 3);
    shapes[3] = ct_shape_support(qnan_support, NULL);
    shapes[4] = ct_shape_rounded(good, (ct_real)NAN);
    shapes[5] = ct_shape_ellipsoid(tu_vec(1, -1, 1));
    cr_assert_eq(ct_shape_aabb(&good, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_shape_aabb(NULL, NULL, &b), CT_INVALID);
    memset(&b, 0x55, sizeof b);
    cr_assert_eq(ct_shape_aabb(&good, &bad, &b), CT_INVALID);
    cr_assert(b.lo.x == 0 && b.hi.z == 0, "output not zeroed");
    for (i = 0; i < 6; ++i) {
        memset(&b, 0x55, sizeof b);
        cr_assert_eq(ct_shape_aabb(&shapes[i], NULL, &b), CT_INVALID, "shape %d", i);
        cr_assert(b.lo.x == 0 && b.hi.y == 0, "output not zeroed (shape %d)", i);
    }
    /* a box beyond the range of ct_real */
    {
        ct_shape huge = ct_shape_sphere((ct_real)(TU_FLOAT ? 3e38 : 1.7e308));
        ct_xform far = ct_xform_identity();
        far.p.x = (ct_real)(TU_FLOAT ? 3e38 : 1.7e308);
        cr_assert_eq(ct_shape_aabb(&huge, &far, &b), CT_INVALID);
    }
}

/* ---- ray casts ------------------------------------------------------------------------------ */
#define QR_TOL (TU_FLOAT ? 2e-4 : 1e-9)    /* fraction error of the exact kinds, x the size ratio */
#define QR_CA (TU_FLOAT ? 2e-3 : 1e-6)     /* point error of the advancement, relative to the size */

static qd qsub(qd a, qd b) { return qdv(a.x - b.x, a.y - b.y, a.z - b.z); }
static qd qcross(qd a, qd b) { return qdv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static qd qinv(const ct_xform *x, qd w) { /* local point of world w */
    qd d = qsub(w, qof(x->p));
    return qdv(x->r[0][0] * d.x + x->r[1][0] * d.y + x->r[2][0] * d.z,
               x->r[0][1] * d.x + x->r[1][1] * d.y + x->r[2][1] * d.z,
               x->r[0][2] * d.x + x->r[1][2] * d.y + x->r[2][2] * d.z);
}
static qd qinvdir(const ct_xform *x, qd w) {
    return qdv(x->r[0][0] * w.x + x->r[1][0] * w.y + x->r[2][0] * w.z,
               x->r[0][1] * w.x + x->r[1][1] * w.y + x->r[2][1] * w.z,
               x->r[0][2] * w.x + x->r[1][2] * w.y + x->r[2][2] * w.z);
}
static ct_vec3 qct(qd v) { return tu_vec(v.x, v.y, v.z); }

/* First root in [0, 1] of (o + t d)^T diag(1/a^2) (o + t d) = 1 (local frame), stable
   quadratic; *disc_rel gets the discriminant relative to its terms (grazing when small).
   Returns 0 for a miss or an origin inside. */
static int oracle_ellipsoid(qd o, qd d, qd a, double *t, double *disc_rel) {
    qd os = qdv(o.x / a.x, o.y / a.y, o.z / a.z), ds = qdv(d.x / a.x, d.y / a.y, d.z / a.z);
    double A = qdot(ds, ds), B = qdot(os, ds), C = qdot(os, os) - 1, disc = B * B - A * C, q, t0, t1;
    *disc_rel = disc / (B * B + fabs(A * C) + 1e-300);
    if (C <= 0 || disc < 0) return 0;
    q = -(B + (B >= 0 ? 1 : -1) * sqrt(disc));
    t0 = q / A; t1 = C / q;
    *t = fmin(t0, t1);
    return *t >= 0 && *t <= 1;
}

/* First hit of o + t d (local) on the faces of a hull, each face as a polygon (ray-plane point
   inside every CCW edge). *edge_dist: the hit point's distance to its face's boundary. */
static int oracle_hull(const ct_hull *h, qd o, qd d, double *t, int *face, double *edge_dist) {
    int f, k, found = 0;
    for (f = 0; f < h->nfaces; ++f) {
        qd n = qof(h->planes[f].n), p;
        double den = qdot(n, d), tt, md = 1e300;
        int n0 = h->face_first[f], nk = h->face_first[f + 1] - n0, inside = 1;
        if (den >= 0) continue;
        tt = -(qdot(n, o) + h->planes[f].d) / den;
        if (tt < 0 || tt > 1) continue;
        p = qadd(o, qscl(d, tt));
        for (k = 0; k < nk; ++k) {
            qd a = qof(h->verts[h->face_verts[n0 + k]]), b = qof(h->verts[h->face_verts[n0 + (k + 1) % nk]]);
            qd e = qsub(b, a);
            double s = qdot(qcross(e, qsub(p, a)), n) / qlen(e);
            if (s < 0) inside = 0;
            md = fmin(md, fabs(s));
        }
        if (inside && (!found || tt < *t)) { found = 1; *t = tt; *face = f; *edge_dist = md; }
    }
    return found;
}

static double box_dist(qd h, qd p) { /* distance from p to the solid box of half extents h */
    qd q = qdv(fmax(fabs(p.x) - h.x, 0), fmax(fabs(p.y) - h.y, 0), fmax(fabs(p.z) - h.z, 0));
    return qlen(q);
}

Test(query_ray, sphere_and_ellipsoid_match_closed_forms_across_scales) {
    unsigned long long seed = 21;
    int trial, k, hits = 0, graze = 0;
    for (trial = 0; trial < 13; ++trial) {
        double size = pow(10.0, -6 + trial);
        ct_xform x = qxform(&seed, 2 * size);
        ct_vec3 av = tu_vec(size * (0.2 + tu_uniform(&seed)), size * (0.2 + tu_uniform(&seed)), size * (0.2 + tu_uniform(&seed)));
        qd a = qof(av);
        ct_shape ell = ct_shape_ellipsoid(av), sph = ct_shape_sphere(av.x);
        for (k = 0; k < 400; ++k) {
            qd o = qadd(qof(x.p), qscl(qunit(&seed), 3 * size)), tgt = qadd(qof(x.p), qscl(qunit(&seed), 1.2 * size * tu_uniform(&seed)));
            qd d = qscl(qsub(tgt, o), 0.5 + 2 * tu_uniform(&seed));
            ct_vec3 oc = qct(o), dc = qct(d);
            ct_ray_hit r;
            double t, dr;
            int exp_hit, s;
            o = qof(oc); d = qof(dc); /* the ray as ct_real holds it */
            for (s = 0; s < 2; ++s) {
                qd ax = s ? a : qdv(a.x, a.x, a.x);
                cr_assert_eq(ct_ray_cast(s ? &ell : &sph, &x, oc, dc, &r), CT_OK);
                exp_hit = oracle_ellipsoid(qinv(&x, o), qinvdir(&x, d), ax, &t, &dr);
                if (fabs(dr) < (TU_FLOAT ? 1e-3 : 1e-8)) { graze++; continue; } /* tangent: ill-posed */
                cr_assert_eq(r.hit, exp_hit, "scale %g shape %d: hit %d expected %d", size, s, r.hit, exp_hit);
                if (!exp_hit) continue;
                hits++;
                cr_assert_leq(fabs(r.fraction - t) * qlen(d), QR_TOL * size / sqrt(dr), "fraction %.17g vs %.17g", r.fraction, t);
                {   /* point on the surface, normal = normalised gradient A^-2 p */
                    qd pl = qinv(&x, qof(r.point)), g = qdv(pl.x / (ax.x * ax.x), pl.y / (ax.y * ax.y), pl.z / (ax.z * ax.z));
                    qd nl = qinvdir(&x, qof(r.normal));
                    cr_assert_float_eq(qlen(qdv(pl.x / ax.x, pl.y / ax.y, pl.z / ax.z)), 1.0, QR_TOL * 10 / sqrt(dr));
                    cr_assert_float_eq(qlen(nl), 1.0, 1e3 * TU_EPS);
                    cr_assert_leq(qlen(qcross(nl, g)) / qlen(g), QR_TOL * 100 / sqrt(dr), "normal off the gradient");
                    cr_assert_gt(qdot(nl, g), 0);
                }
            }
        }
    }
    cr_assert_gt(hits, 2000, "only %d hits", hits);
    cr_assert_lt(graze, 600, "%d grazing rays of 10400", graze);
}

static void check_hull_ray(const ct_shape *s, const ct_hull *h, const ct_xform *x, qd o, qd d, double size, int *hits) {
    ct_ray_hit r;
    double t = 0, ed = 0;
    int face = -1, exp_hit;
    cr_assert_eq(ct_ray_cast(s, x, qct(o), qct(d), &r), CT_OK);
    exp_hit = oracle_hull(h, qinv(x, o), qinvdir(x, d), &t, &face, &ed);
    if (exp_hit && ed < 1e-6 * size) return; /* through an edge: either face is right */
    if (!exp_hit && r.hit) { /* a miss by the polygons must not be a clear hit: grazing only */
        qd pl = qinv(x, qof(r.point));
        double out = -1e300;
        int f;
        for (f = 0; f < h->nfaces; ++f) out = fmax(out, qdot(qof(h->planes[f].n), pl) + h->planes[f].d);
        cr_assert_leq(fabs(out), QR_TOL * size, "hit %.17g not on the hull (%.3g)", r.fraction, out);
        return;
    }
    cr_assert_eq(r.hit, exp_hit, "hit %d expected %d", r.hit, exp_hit);
    if (!exp_hit) return;
    ++*hits;
    cr_assert_leq(fabs(r.fraction - t) * qlen(d), QR_TOL * size, "fraction %.17g vs %.17g", r.fraction, t);
    cr_assert_leq(qlen(qsub(qinvdir(x, qof(r.normal)), qof(h->planes[face].n))), 1e3 * TU_EPS, "normal is not face %d's", face);
    if (s->type == CT_SHAPE_HULL) cr_assert_eq(r.face, face);
}

Test(query_ray, boxes_and_hulls_match_polygon_brute_force_across_scales) {
    unsigned long long seed = 22;
    int trial, k, hits = 0;
    for (trial = 0; trial < 13; ++trial) {
        double size = pow(10.0, -6 + trial);
        ct_xform x = qxform(&seed, 2 * size);
        ct_vec3 hv = tu_vec(size * (0.2 + tu_uniform(&seed)), size * (0.2 + tu_uniform(&seed)), size * (0.2 + tu_uniform(&seed)));
        ct_vec3 pts[60];
        ct_hull hb, hh;
        ct_shape sb = ct_shape_box(hv), sh;
        for (k = 0; k < 60; ++k) pts[k] = qct(qscl(qunit(&seed), size));
        cr_assert_eq(ct_hull_box(hv, NULL, &hb), CT_OK);
        cr_assert_eq(ct_hull_build(pts, 60, NULL, NULL, &hh), CT_OK);
        sh = ct_shape_hull(&hh);
        for (k = 0; k < 300; ++k) {
            qd o = qof(qct(qadd(qof(x.p), qscl(qunit(&seed), 3 * size))));
            qd tgt = qadd(qof(x.p), qscl(qunit(&seed), 1.2 * size * tu_uniform(&seed)));
            qd d = qof(qct(qscl(qsub(tgt, o), 0.5 + 2 * tu_uniform(&seed))));
            check_hull_ray(&sb, &hb, &x, o, d, size, &hits);
            check_hull_ray(&sh, &hh, &x, o, d, size, &hits);
        }
        ct_hull_free(&hb);
        ct_hull_free(&hh);
    }
    cr_assert_gt(hits, 4000, "only %d hits", hits);
}

Test(query_ray, from_inside_no_hit_and_parallel_to_faces) {
    unsigned long long seed = 23;
    ct_vec3 h = tu_vec(1, 0.5, 0.25), pts[40];
    ct_hull hull;
    ct_shape sh[7];
    ct_ray_hit r;
    qcyl cyl = { 0.5, 0.5 };
    int i, k;
    for (k = 0; k < 40; ++k) pts[k] = qct(qunit(&seed));
    cr_assert_eq(ct_hull_build(pts, 40, NULL, NULL, &hull), CT_OK);
    sh[0] = ct_shape_sphere(1); sh[1] = ct_shape_box(h); sh[2] = ct_shape_ellipsoid(h);
    sh[3] = ct_shape_hull(&hull); sh[4] = ct_shape_rounded(ct_shape_box(h), (ct_real)0.1);
    sh[5] = ct_shape_points(pts, 40); sh[6] = ct_shape_support(qcyl_support, &cyl);
    for (i = 0; i < 7; ++i)
        for (k = 0; k < 50; ++k) { /* from a point well inside, any direction, any length */
            ct_xform x = qxform(&seed, 5);
            ct_vec3 o = qct(qxf(&x, qscl(qunit(&seed), 0.1 * tu_uniform(&seed))));
            ct_vec3 d = qct(qscl(qunit(&seed), 10 * tu_uniform(&seed)));
            cr_assert_eq(ct_ray_cast(&sh[i], &x, o, d, &r), CT_OK);
            cr_assert_eq(r.hit, 0, "shape %d hit from inside at %g", i, r.fraction);
        }
    /* parallel to the box's +y face: just outside misses, just inside enters through -x */
    for (k = -1; k <= 1; k += 2) {
        double y = 0.5 * (1 + k * 1e-9);
        cr_assert_eq(ct_ray_cast(&sh[1], NULL, tu_vec(-3, y, 0.1), tu_vec(6, 0, 0), &r), CT_OK);
        cr_assert_eq(r.hit, TU_FLOAT ? r.hit : k < 0, "y = %.17g", y);
        if (r.hit) {
            cr_assert_float_eq(r.fraction, 2.0 / 6.0, 1e3 * TU_EPS);
            cr_assert_eq(r.face, 1);
            cr_assert_eq(r.normal.x, -1);
        }
    }
    /* exactly in the plane of a face: touching counts (closed box) for the analytic box */
    cr_assert_eq(ct_ray_cast(&sh[1], NULL, tu_vec(-3, 0.5, 0.1), tu_vec(6, 0, 0), &r), CT_OK);
    cr_assert_eq(r.hit, 1);
    /* along a face plane outside: miss; segment ending before the shape: miss */
    cr_assert_eq(ct_ray_cast(&sh[1], NULL, tu_vec(-3, 0.6, 0.1), tu_vec(6, 0, 0), &r), CT_OK);
    cr_assert_eq(r.hit, 0);
    cr_assert_eq(ct_ray_cast(&sh[0], NULL, tu_vec(-3, 0, 0), tu_vec(1.9, 0, 0), &r), CT_OK);
    cr_assert_eq(r.hit, 0);
    cr_assert_eq(ct_ray_cast(&sh[0], NULL, tu_vec(-3, 0, 0), tu_vec(2.1, 0, 0), &r), CT_OK);
    cr_assert_eq(r.hit, 1);
    cr_assert_float_eq(r.fraction, 2 / 2.1, 1e2 * TU_EPS);
    ct_hull_free(&hull);
}

/* Distance from p to the solid hull (local frame), brute force: 0 inside, else the least
   distance to a face polygon (its plane when the projection falls inside, else its edges). */
static double hull_dist(const ct_hull *h, qd p) {
    double best = 1e300;
    int f, k, out = 0;
    for (f = 0; f < h->nfaces; ++f) out |= qdot(qof(h->planes[f].n), p) + h->planes[f].d > 0;
    if (!out) return 0;
    for (f = 0; f < h->nfaces; ++f) {
        qd n = qof(h->planes[f].n), q;
        double s = qdot(n, p) + h->planes[f].d;
        int n0 = h->face_first[f], nk = h->face_first[f + 1] - n0, inside = 1;
        q = qsub(p, qscl(n, s));
        for (k = 0; k < nk; ++k) {
            qd a = qof(h->verts[h->face_verts[n0 + k]]), b = qof(h->verts[h->face_verts[n0 + (k + 1) % nk]]);
            qd e = qsub(b, a);
            double u = qdot(qsub(p, a), e) / qdot(e, e);
            u = fmin(1, fmax(0, u));
            best = fmin(best, qlen(qsub(p, qadd(a, qscl(e, u)))));
            if (qdot(qcross(e, qsub(q, a)), n) < 0) inside = 0;
        }
        if (inside) best = fmin(best, fabs(s));
    }
    return best;
}

/* Rounded hulls and boxes are exact (faces' prisms, edges' cylinders, vertices' balls): the hit
   point lies at distance r from the core (brute-force distance), the segment before it stays
   farther than r, the normal is the direction from the core's nearest point, and a miss keeps
   the (convex) distance above r all along; starts inside give no hit. */
Test(query_ray, rounded_hulls_and_boxes_are_exact) {
    unsigned long long seed = 41;
    int trial, k, hits = 0, edge_hits = 0;
    for (trial = 0; trial < 7; ++trial) {
        double size = pow(10.0, -6 + 2 * trial), rad = size * (0.05 + 0.3 * tu_uniform(&seed));
        ct_xform x = qxform(&seed, 2 * size);
        ct_vec3 pts[24];
        ct_hull hh, hb;
        ct_shape sh[2];
        int which;
        for (k = 0; k < 24; ++k) pts[k] = qct(qscl(qunit(&seed), size));
        cr_assert_eq(ct_hull_build(pts, 24, NULL, NULL, &hh), CT_OK);
        cr_assert_eq(ct_hull_box(tu_vec(size * 0.7, size * 0.4, size * 0.25), NULL, &hb), CT_OK);
        sh[0] = ct_shape_rounded(ct_shape_hull(&hh), (ct_real)rad);
        sh[1] = ct_shape_rounded(ct_shape_box(tu_vec(size * 0.7, size * 0.4, size * 0.25)), (ct_real)rad);
        for (which = 0; which < 2; ++which) {
            const ct_hull *core = which ? &hb : &hh;   /* the box's core as a hull, for the oracle */
            for (k = 0; k < 150; ++k) {
                qd o = qof(qct(qadd(qof(x.p), qscl(qunit(&seed), 3 * size))));
                qd tgt = qadd(qof(x.p), qscl(qunit(&seed), 1.4 * size * tu_uniform(&seed)));
                qd d = qof(qct(qscl(qsub(tgt, o), 0.5 + 2 * tu_uniform(&seed))));
                qd ol = qinv(&x, o), dl = qinvdir(&x, d);
                ct_ray_hit r;
                cr_assert_eq(ct_ray_cast(&sh[which], &x, qct(o), qct(d), &r), CT_OK);
                cr_assert_gt(hull_dist(core, ol), rad);
                if (r.hit) {
                    qd pl = qinv(&x, qof(r.point)), nl = qinvdir(&x, qof(r.normal));
                    double g = hull_dist(core, pl) - rad, gb = hull_dist(core, qadd(ol, qscl(dl, r.fraction * 0.999))) - rad;
                    hits++;
                    edge_hits += r.face < 0;
                    cr_assert_eq(r.iterations, 0);
                    cr_assert_leq(fabs(g), QR_TOL * size * 10, "%s: hit off the surface by %.3g", which ? "box" : "hull", g);
                    cr_assert_gt(gb, -QR_TOL * size * 10, "%s: the segment entered earlier", which ? "box" : "hull");
                    /* the normal: stepping out along it moves away from the core at unit rate */
                    cr_assert_leq(fabs(hull_dist(core, qadd(pl, qscl(nl, 0.01 * rad))) - rad * 1.01), 1e-3 * rad + QR_TOL * size * 10,
                                  "%s: normal off", which ? "box" : "hull");
                    if (r.face >= 0) {   /* a box's faces as ct_ray_cast numbers them: axis face / 2, odd negative */
                        qd fn = which ? qdv(r.face / 2 == 0, r.face / 2 == 1, r.face / 2 == 2) : qof(core->planes[r.face].n);
                        if (which && (r.face & 1)) fn = qscl(fn, -1);
                        cr_assert_leq(fabs(qdot(fn, nl) - 1), 1e-6 + QR_TOL);
                    }
                } else {
                    double lo = 0, hi = 1;
                    int i;
                    for (i = 0; i < 200; ++i) {
                        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
                        if (hull_dist(core, qadd(ol, qscl(dl, m1))) < hull_dist(core, qadd(ol, qscl(dl, m2)))) hi = m2; else lo = m1;
                    }
                    cr_assert_gt(hull_dist(core, qadd(ol, qscl(dl, lo))) - rad, -QR_TOL * size * 10, "%s: missed a hit",
                                 which ? "box" : "hull");
                }
                /* from inside (the core's centre, and just inside the rounded surface): no hit */
                cr_assert_eq(ct_ray_cast(&sh[which], &x, qct(qxf(&x, qof(core->center))), qct(d), &r), CT_OK);
                cr_assert_eq(r.hit, 0);
            }
        }
        ct_hull_free(&hh); ct_hull_free(&hb);
    }
    cr_assert_gt(hits, 800, "only %d hits", hits);
    cr_assert_gt(edge_hits, 50, "only %d hits on rounded edges and corners", edge_hits);
}

/* The advancement path against oracles: a rounded box (the distance to the box minus r is
   convex along the ray, so a zero at f with a positive start is the first contact), a point
   cloud against the plane clip of its hull, a support-function sphere against the closed form. */
Test(query_ray, advancement_shapes_match_oracles) {
    unsigned long long seed = 24;
    int trial, k, hits = 0;
    for (trial = 0; trial < 7; ++trial) {
        double size = pow(10.0, -6 + 2 * trial);
        ct_xform x = qxform(&seed, 2 * size);
        ct_vec3 hv = tu_vec(size * (0.2 + tu_uniform(&seed)), size * (0.2 + tu_uniform(&seed)), size * (0.2 + tu_uniform(&seed)));
        double rad = size * (0.05 + 0.3 * tu_uniform(&seed));
        ct_shape rb = ct_shape_rounded(ct_shape_box(hv), (ct_real)rad), cloud, rs;
        ct_vec3 pts[40];
        ct_hull hh;
        qd h = qof(hv);
        for (k = 0; k < 40; ++k) pts[k] = qct(qscl(qunit(&seed), size));
        cr_assert_eq(ct_hull_build(pts, 40, NULL, NULL, &hh), CT_OK);
        cloud = ct_shape_points(pts, 40);
        rs = ct_shape_rounded(ct_shape_points(pts, 1), (ct_real)rad);
        for (k = 0; k < 200; ++k) {
            qd o = qof(qct(qadd(qof(x.p), qscl(qunit(&seed), 3 * size))));
            qd tgt = qadd(qof(x.p), qscl(qunit(&seed), 1.2 * size * tu_uniform(&seed)));
            qd d = qof(qct(qscl(qsub(tgt, o), 0.5 + 2 * tu_uniform(&seed))));
            qd ol = qinv(&x, o), dl = qinvdir(&x, d);
            ct_ray_hit r, rc, rsph;
            double g0, t, ed, dr;
            int face, i;
            cr_assert_eq(ct_ray_cast(&rb, &x, qct(o), qct(d), &r), CT_OK);
            g0 = box_dist(h, ol) - rad;
            cr_assert_gt(g0, 0);
            if (r.hit) {
                double gf = box_dist(h, qinv(&x, qof(r.point))) - rad;
                hits++;
                cr_assert_leq(fabs(gf), QR_CA * size, "rounded box: hit point off the surface by %.3g", gf);
                cr_assert_eq(r.iterations, 0, "rounded boxes are exact (no advancement)");
            } else { /* a miss: the convex distance stays positive over the segment (ternary search) */
                double lo = 0, hi = 1;
                for (i = 0; i < 200; ++i) {
                    double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
                    if (box_dist(h, qadd(ol, qscl(dl, m1))) < box_dist(h, qadd(ol, qscl(dl, m2)))) hi = m2; else lo = m1;
                }
                cr_assert_gt(box_dist(h, qadd(ol, qscl(dl, lo))) - rad, -QR_CA * size, "rounded box: missed a hit");
            }
            /* point cloud vs the plane clip of its hull */
            cr_assert_eq(ct_ray_cast(&cloud, &x, qct(o), qct(d), &rc), CT_OK);
            if (oracle_hull(&hh, ol, dl, &t, &face, &ed)) {
                double cosang = -qdot(qof(hh.planes[face].n), dl) / qlen(dl);
                if (cosang > 0.05 && ed > 1e-6 * size) {
                    cr_assert(rc.hit, "cloud missed");
                    cr_assert_leq(fabs(rc.fraction - t) * qlen(d) * cosang, QR_CA * size, "cloud fraction %.17g vs %.17g", rc.fraction, t);
                    cr_assert_leq(rc.fraction, t + 64 * TU_EPS, "cloud: past the surface");
                }
            } else if (rc.hit) {
                cr_assert_leq(rc.fraction, 1.0);
            }
            /* a rounded point: the sphere of radius rad at pts[0] */
            cr_assert_eq(ct_ray_cast(&rs, &x, qct(o), qct(d), &rsph), CT_OK);
            if (oracle_ellipsoid(qsub(ol, qof(pts[0])), dl, qdv(rad, rad, rad), &t, &dr) && dr > 1e-3) {
                cr_assert(rsph.hit, "rounded point missed");
                cr_assert_leq(fabs(rsph.fraction - t) * qlen(d), QR_CA * size / sqrt(dr), "rounded point %.17g vs %.17g", rsph.fraction, t);
                cr_assert_leq(rsph.fraction, t + 64 * TU_EPS, "rounded point: past the surface");
            }
        }
        ct_hull_free(&hh);
    }
    cr_assert_gt(hits, 300, "only %d hits", hits);
}

Test(query_ray, bad_input_is_invalid) {
    ct_shape s = ct_shape_box(tu_vec(1, 1, 1)), bad = ct_shape_sphere(-1), nan = ct_shape_support(qnan_support, NULL);
    ct_xform bx = ct_xform_identity();
    ct_ray_hit r;
    ct_vec3 o = tu_vec(-3, 0, 0), d = tu_vec(6, 0, 0);
    bx.r[1][1] = (ct_real)0.5;
    cr_assert_eq(ct_ray_cast(&s, NULL, o, d, NULL), CT_INVALID);
    cr_assert_eq(ct_ray_cast(NULL, NULL, o, d, &r), CT_INVALID);
    cr_assert_eq(ct_ray_cast(&bad, NULL, o, d, &r), CT_INVALID);
    cr_assert_eq(ct_ray_cast(&s, &bx, o, d, &r), CT_INVALID);
    cr_assert_eq(ct_ray_cast(&s, NULL, tu_vec(NAN, 0, 0), d, &r), CT_INVALID);
    cr_assert_eq(ct_ray_cast(&s, NULL, o, tu_vec(INFINITY, 0, 0), &r), CT_INVALID);
    memset(&r, 0x55, sizeof r);
    cr_assert_eq(ct_ray_cast(&nan, NULL, o, d, &r), CT_INVALID);
    cr_assert(r.hit == 0 && r.face == -1 && r.fraction == 0);
    cr_assert_eq(ct_ray_cast(&s, NULL, o, tu_vec(0, 0, 0), &r), CT_OK);
    cr_assert_eq(r.hit, 0);
}

/* ---- time of impact ------------------------------------------------------------------------ */
/* A body's motion built from its parts (independent of the library's matrix logarithm): R(t) =
   Rot(axis, t angle) R0, p(t) = p0 + t dp. */
typedef struct qmotion { ct_xform x0; ct_vec3 axis, dp; double angle; } qmotion;
static ct_xform qmotion_at(const qmotion *m, double t) {
    ct_xform q = ct_xform_from_axis_angle(m->axis, (ct_real)(t * m->angle), tu_vec(0, 0, 0)), out;
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            double s = 0;
            for (k = 0; k < 3; ++k) s += (double)q.r[i][k] * m->x0.r[k][j];
            out.r[i][j] = (ct_real)s;
        }
    out.p = qct(qadd(qof(m->x0.p), qscl(qof(m->dp), t)));
    return out;
}
static double qdistance(const ct_shape *a, const qmotion *ma, const ct_shape *b, const qmotion *mb, double t) {
    ct_xform xa = qmotion_at(ma, t), xb = qmotion_at(mb, t);
    ct_distance d;
    cr_assert_eq(ct_gjk(a, &xa, b, &xb, NULL, &d), CT_OK);
    return d.distance;
}
/* Oracle: the first t with distance <= target, by a dense scan (2000 steps) and bisection on
   ct_gjk; 2 when none. *dmin gets the smallest distance seen over the whole sweep. */
static double oracle_toi(const ct_shape *a, const qmotion *ma, const ct_shape *b, const qmotion *mb, double target, double *dmin) {
    int i, k, n = 2000;
    double prev = 0, first = 2;
    *dmin = 1e300;
    for (i = 0; i <= n; ++i) { /* the whole sweep, so that dmin tells a grazing sweep */
        double t = (double)i / n, d = qdistance(a, ma, b, mb, t);
        *dmin = fmin(*dmin, d);
        if (d <= target && first > 1) {
            double lo = prev, hi = t;
            if (i == 0) { first = 0; continue; }
            for (k = 0; k < 60; ++k) {
                double m = (lo + hi) / 2;
                if (qdistance(a, ma, b, mb, m) <= target) hi = m; else lo = m;
            }
            first = hi;
        }
        prev = t;
    }
    return first;
}

static void check_toi(const ct_shape *a, const qmotion *ma, const ct_shape *b, const qmotion *mb, double target,
                      double size, int *hits) {
    ct_xform xa0 = qmotion_at(ma, 0), xa1 = qmotion_at(ma, 1), xb0 = qmotion_at(mb, 0), xb1 = qmotion_at(mb, 1);
    ct_toi r;
    double dmin, t = oracle_toi(a, ma, b, mb, target, &dmin), tol = (TU_FLOAT ? 1e-4 : 1e-8) * 2 * size;
    ct_status st = ct_time_of_impact(a, &xa0, &xa1, b, &xb0, &xb1, (ct_real)target, NULL, &r);
    cr_assert_eq(st, CT_OK, "status %d after %d iterations", st, r.iterations);
    if (fabs(dmin - target) < 4 * tol) return; /* grazing the target: either answer */
    cr_assert_eq(r.hit, t <= 1, "hit %d, oracle t %g (min distance %g, target %g)", r.hit, t, dmin, target);
    if (!r.hit) { cr_assert_eq(r.fraction, 1); return; }
    ++*hits;
    /* never past the first contact, and stopped within the tolerance of the target */
    cr_assert_leq(r.fraction, t + 1e-12, "fraction %.17g past first contact %.17g", r.fraction, t);
    {
        double d = qdistance(a, ma, b, mb, r.fraction);
        cr_assert_geq(d, target - (TU_FLOAT ? 1e-4 : 1e-11) * size, "distance %.17g below target %.17g", d, target);
        cr_assert_leq(d, target + tol * 1.01, "distance %.17g not within tol %.3g of target %.17g", d, tol, target);
        cr_assert_float_eq(r.distance, d, tol);
        cr_assert_float_eq(qlen(qof(r.normal)), 1.0, 1e3 * TU_EPS);
        /* witnesses: pb - pa = distance * normal (A -> B) */
        cr_assert_leq(qlen(qsub(qsub(qof(r.pb), qof(r.pa)), qscl(qof(r.normal), r.distance))), tol + 1e3 * TU_EPS * size,
                      "witnesses do not span the distance along the normal");
    }
}

static qmotion qrandom_motion(unsigned long long *seed, ct_vec3 p0, ct_vec3 dp, double max_angle) {
    qmotion m;
    m.x0 = qxform(seed, 0);
    m.x0.p = p0;
    m.dp = dp;
    m.axis = qct(qunit(seed));
    m.angle = max_angle * tu_uniform(seed);
    return m;
}

Test(query_toi, linear_and_rotating_sweeps_match_bisection) {
    unsigned long long seed = 31;
    ct_vec3 pa[30], pb[30];
    ct_hull ha, hb;
    int trial, k, hits = 0;
    for (k = 0; k < 30; ++k) { pa[k] = qct(qunit(&seed)); pb[k] = qct(qscl(qunit(&seed), 0.6)); }
    cr_assert_eq(ct_hull_build(pa, 30, NULL, NULL, &ha), CT_OK);
    cr_assert_eq(ct_hull_build(pb, 30, NULL, NULL, &hb), CT_OK);
    for (trial = 0; trial < 120; ++trial) {
        ct_shape A[4], B[4];
        int kind = trial % 4, rot = (trial / 4) % 2;
        double target = (trial % 3) * 0.01;
        /* B starts about 4 away and moves towards A (offset so that some sweeps miss) */
        qd dir = qunit(&seed), off = qscl(qunit(&seed), 1.5 * tu_uniform(&seed));
        qmotion ma = qrandom_motion(&seed, tu_vec(0, 0, 0), qct(qscl(qunit(&seed), 0.5 * tu_uniform(&seed))), rot ? 1.5 : 0);
        qmotion mb = qrandom_motion(&seed, qct(qscl(dir, 4)), qct(qadd(qscl(dir, -7), off)), rot ? 2.5 : 0);
        A[0] = ct_shape_hull(&ha); B[0] = ct_shape_hull(&hb);
        A[1] = ct_shape_box(tu_vec(1, 0.5, 0.3)); B[1] = ct_shape_ellipsoid(tu_vec(0.2, 0.7, 0.4));
        A[2] = ct_shape_rounded(ct_shape_hull(&ha), (ct_real)0.2); B[2] = ct_shape_sphere((ct_real)0.3);
        A[3] = ct_shape_ellipsoid(tu_vec(1, 0.3, 0.6)); B[3] = ct_shape_rounded(ct_shape_box(tu_vec(0.4, 0.1, 0.3)), (ct_real)0.1);
        check_toi(&A[kind], &ma, &B[kind], &mb, target, 2.5, &hits);
    }
    cr_assert_gt(hits, 60, "only %d hits", hits);
    ct_hull_free(&ha);
    ct_hull_free(&hb);
}

/* Closed forms: two rounded points (spheres) and two fast thin plates, which a scan at the end
   poses would miss entirely (no tunnelling). */
Test(query_toi, closed_forms_spheres_and_fast_thin_plates) {
    ct_shape a = ct_shape_sphere((ct_real)0.5), b = ct_shape_sphere((ct_real)0.25);
    ct_xform x0 = ct_xform_identity(), xb0 = ct_xform_identity(), xb1 = ct_xform_identity();
    ct_toi r;
    double tol = TU_FLOAT ? 1e-4 : 1e-8;
    int k;
    xb0.p = tu_vec(10, 1, 0);
    xb1.p = tu_vec(-10, 1, 0);
    /* |(10 - 20 t, 1, 0)| = 0.75 + 0.1: 10 - 20 t = sqrt(0.85^2 - 1) has no root; use y = 0.5 */
    xb0.p.y = xb1.p.y = (ct_real)0.5;
    cr_assert_eq(ct_time_of_impact(&a, &x0, &x0, &b, &xb0, &xb1, (ct_real)0.1, NULL, &r), CT_OK);
    cr_assert(r.hit);
    {
        double x = sqrt(0.85 * 0.85 - 0.25), t = (10 - x) / 20;
        cr_assert_leq(r.fraction, t + 1e-12);
        cr_assert_geq(r.fraction, t - 4 * tol * 0.75 / 20 * 10);
        cr_assert_leq(r.iterations, 10, "linear sweeps converge in a few Newton steps (%d)", r.iterations);
    }
    for (k = 0; k < 2; ++k) { /* plates 1e-3 thick, B crossing A at 1000 thicknesses per frame */
        ct_shape pa = ct_shape_box(tu_vec(1, 1, 0.0005)), pb = ct_shape_box(tu_vec(0.5, 0.5, 0.0005));
        ct_xform b0 = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)0.3, tu_vec(0.2, 0.1, 0.5));
        ct_xform b1 = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(k ? 1.2 : 0.3), tu_vec(0.2, 0.1, -0.5));
        double target = 0.0001, t = (0.5 - 0.001 - target) / 1.0;
        cr_assert_eq(ct_time_of_impact(&pa, NULL, NULL, &pb, &b0, &b1, (ct_real)target, NULL, &r), CT_OK);
        cr_assert(r.hit, "thin plates tunnelled (spin %d)", k);
        cr_assert_leq(r.fraction, t + 1e-12);
        cr_assert_geq(r.fraction, t - 3 * tol * 3, "fraction %.17g, contact at %.17g", r.fraction, t);
        cr_assert_float_eq(r.normal.z, 1, 1e-3, "normal A -> B is +z (B is above A)");
    }
    /* moving apart: no hit, fraction 1; starting within the target: hit at 0 */
    xb1.p = tu_vec(20, 0.5, 0);
    cr_assert_eq(ct_time_of_impact(&a, NULL, NULL, &b, &xb0, &xb1, 0, NULL, &r), CT_OK);
    cr_assert(r.hit == 0 && r.fraction == 1);
    xb0.p = tu_vec(0.7, 0, 0);
    cr_assert_eq(ct_time_of_impact(&a, NULL, NULL, &b, &xb0, &xb1, (ct_real)0.1, NULL, &r), CT_OK);
    cr_assert(r.hit == 1 && r.fraction == 0);
}

Test(query_toi, bad_input_is_invalid) {
    ct_shape s = ct_shape_box(tu_vec(1, 1, 1)), bad = ct_shape_box(tu_vec(-1, 1, 1));
    ct_xform bx = ct_xform_identity(), x1 = ct_xform_identity();
    ct_toi r;
    bx.p.x = (ct_real)NAN;
    x1.p.x = 5;
    cr_assert_eq(ct_time_of_impact(&s, NULL, NULL, &s, &x1, NULL, 0, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_time_of_impact(NULL, NULL, NULL, &s, &x1, NULL, 0, NULL, &r), CT_INVALID);
    cr_assert_eq(ct_time_of_impact(&s, NULL, NULL, &bad, &x1, NULL, 0, NULL, &r), CT_INVALID);
    cr_assert_eq(ct_time_of_impact(&s, NULL, &bx, &s, &x1, NULL, 0, NULL, &r), CT_INVALID);
    cr_assert_eq(ct_time_of_impact(&s, NULL, NULL, &s, &x1, NULL, -1, NULL, &r), CT_INVALID);
    memset(&r, 0x55, sizeof r);
    cr_assert_eq(ct_time_of_impact(&s, NULL, NULL, &s, &x1, NULL, (ct_real)NAN, NULL, &r), CT_INVALID);
    cr_assert(r.hit == 0 && r.fraction == 1 && r.iterations == 0);
}

/* ---- manifolds of spheres, boxes, capsules and hulls ---------------------------------------- */
#define QM_TOL (TU_FLOAT ? 2e-4 : 1e-9)

/* Swap symmetry: B-A negates the normal and has the same points, separations and ids. */
static void check_swap(const ct_manifold *m, const ct_manifold *w, double tol) {
    int i, j;
    cr_assert_eq(m->count, w->count, "swap changed the count: %d vs %d", m->count, w->count);
    if (!m->count) return;
    cr_assert_leq(qlen(qadd(qof(m->normal), qof(w->normal))), tol, "swap did not negate the normal");
    for (i = 0; i < m->count; ++i) {
        int found = 0;
        for (j = 0; j < w->count; ++j)
            if (m->points[i].id == w->points[j].id && fabs(m->points[i].separation - w->points[j].separation) <= tol &&
                qlen(qsub(qof(m->points[i].point), qof(w->points[j].point))) <= tol) found = 1;
        cr_assert(found, "point %d (id %x) has no swapped twin", i, m->points[i].id);
    }
}
/* The least separation of a manifold, checking on the way that m->deepest indexes it (the
   first on ties), as every manifold routine promises. */
static double min_sep(const ct_manifold *m) {
    double s = 1e300;
    int i, first = 0;
    for (i = 0; i < m->count; ++i) {
        if (m->points[i].separation < m->points[first].separation) first = i;
        s = fmin(s, m->points[i].separation);
    }
    if (m->count) cr_assert_eq(m->deepest, first, "deepest is point %d, the least separation is point %d", m->deepest, first);
    return s;
}
static double signed_dist(const ct_shape *a, const ct_xform *xa, const ct_shape *b, const ct_xform *xb) {
    ct_distance d;
    cr_assert_eq(ct_signed_distance(a, xa, b, xb, NULL, NULL, &d), CT_OK);
    return d.distance;
}

Test(query_pairs, spheres_and_box_sphere_match_closed_forms_and_hull_sphere) {
    unsigned long long seed = 41;
    ct_hull hb;
    ct_vec3 h = tu_vec(1, 0.6, 0.3);
    int k;
    cr_assert_eq(ct_hull_box(h, NULL, &hb), CT_OK);
    for (k = 0; k < 2000; ++k) {
        ct_xform x = qxform(&seed, 1);
        ct_vec3 c = qct(qadd(qof(x.p), qscl(qunit(&seed), 2 * tu_uniform(&seed))));
        ct_vec3 c2 = qct(qadd(qof(c), qscl(qunit(&seed), 1.5 * tu_uniform(&seed))));
        double r = 0.1 + 0.5 * tu_uniform(&seed), r2 = 0.1 + 0.5 * tu_uniform(&seed);
        ct_manifold m, w, ref;
        ct_shape sph = ct_shape_sphere((ct_real)r), sph2 = ct_shape_sphere((ct_real)r2), box = ct_shape_box(h);
        ct_xform xc = ct_xform_identity(), xc2 = ct_xform_identity();
        xc.p = c; xc2.p = c2;
        /* spheres: closed form, signed distance, swap */
        cr_assert_eq(ct_manifold_spheres(c, (ct_real)r, c2, (ct_real)r2, 10, &m), CT_OK);
        cr_assert_eq(ct_manifold_spheres(c2, (ct_real)r2, c, (ct_real)r, 10, &w), CT_OK);
        cr_assert_eq(m.count, 1);
        cr_assert_float_eq(m.points[0].separation, qlen(qsub(qof(c2), qof(c))) - r - r2, QM_TOL);
        cr_assert_float_eq(m.points[0].separation, signed_dist(&sph, &xc, &sph2, &xc2), QM_TOL * 10);
        check_swap(&m, &w, QM_TOL);
        {   /* point +- sep/2 n on the spheres */
            qd pa = qsub(qof(m.points[0].point), qscl(qof(m.normal), m.points[0].separation / 2));
            cr_assert_float_eq(qlen(qsub(pa, qof(c))), r, QM_TOL);
        }
        /* box-sphere: the same as hull-sphere on the box's hull, and the signed distance */
        cr_assert_eq(ct_manifold_box_sphere(h, &x, c, (ct_real)r, 10, &m), CT_OK);
        cr_assert_eq(ct_manifold_hull_sphere(&hb, &x, c, (ct_real)r, 10, &ref), CT_OK);
        cr_assert_eq(m.count, 1);
        cr_assert_eq(ref.count, 1);
        cr_assert_float_eq(m.points[0].separation, ref.points[0].separation, QM_TOL);
        cr_assert_leq(qlen(qsub(qof(m.normal), qof(ref.normal))), QM_TOL * 10, "normal differs from hull-sphere");
        cr_assert_leq(qlen(qsub(qof(m.points[0].point), qof(ref.points[0].point))), QM_TOL * 10);
        cr_assert_float_eq(m.points[0].separation, signed_dist(&box, &x, &sph, &xc), QM_TOL * 10);
        /* speculative filter */
        cr_assert_eq(ct_manifold_box_sphere(h, &x, c, (ct_real)r, 0, &w), CT_OK);
        cr_assert_eq(w.count, m.points[0].separation <= 0 ? 1 : 0);
        if (!w.count) cr_assert(w.normal.x == 0 && w.normal.y == 0 && w.normal.z == 0);
    }
    ct_hull_free(&hb);
}

/* A capsule as a ct_shape: the segment as a triangle with a repeated corner, rounded. */
static ct_shape qcapsule_shape(const ct_capsule *c) {
    return ct_shape_rounded(ct_shape_triangle(c->p0, c->p1, c->p1), c->radius);
}

Test(query_pairs, capsules_match_signed_distance_swap_and_resting_closed_form) {
    unsigned long long seed = 42;
    int k;
    for (k = 0; k < 2000; ++k) {
        ct_capsule a, b;
        ct_xform xa = qxform(&seed, 0.5), xb = qxform(&seed, 2);
        ct_manifold m, w;
        ct_shape sa, sb;
        double sd;
        a.p0 = qct(qscl(qunit(&seed), 0.8)); a.p1 = qct(qscl(qof(a.p0), -1)); a.radius = (ct_real)(0.1 + 0.3 * tu_uniform(&seed));
        b.p0 = qct(qscl(qunit(&seed), 0.5)); b.p1 = qct(qscl(qof(b.p0), -0.5)); b.radius = (ct_real)(0.1 + 0.3 * tu_uniform(&seed));
        sa = qcapsule_shape(&a); sb = qcapsule_shape(&b);
        cr_assert_eq(ct_manifold_capsules(&a, &xa, &b, &xb, 10, &m), CT_OK);
        cr_assert_eq(ct_manifold_capsules(&b, &xb, &a, &xa, 10, &w), CT_OK);
        cr_assert_eq(m.count, 1);
        sd = signed_dist(&sa, &xa, &sb, &xb);
        if (sd > -fmin(a.radius, b.radius)) /* the cores are apart: the separation is the distance */
            cr_assert_float_eq(m.points[0].separation, sd, QM_TOL * 100, "capsules: %.17g vs signed distance %.17g", m.points[0].separation, sd);
        check_swap(&m, &w, QM_TOL * 10);
    }
    {   /* parallel capsules, one lying on the other with an overlap [0.5, 1] along x */
        ct_capsule a = { { -1, 0, 0 }, { 1, 0, 0 }, (ct_real)0.25 }, b = { { -1, 0, 0 }, { 1, 0, 0 }, (ct_real)0.5 };
        ct_xform xb = ct_xform_identity();
        ct_manifold m, w;
        xb.p = tu_vec(1.5, 0.7, 0);
        cr_assert_eq(ct_manifold_capsules(&a, NULL, &b, &xb, 0, &m), CT_OK);
        cr_assert_eq(m.count, 2);
        cr_assert_float_eq(m.points[0].separation, -0.05, QM_TOL);
        cr_assert_float_eq(m.points[1].separation, -0.05, QM_TOL);
        cr_assert_float_eq(m.normal.y, 1, QM_TOL);
        cr_assert_float_eq(fmin(m.points[0].point.x, m.points[1].point.x), 0.5, QM_TOL);
        cr_assert_float_eq(fmax(m.points[0].point.x, m.points[1].point.x), 1.0, QM_TOL);
        cr_assert_neq(m.points[0].id, m.points[1].id);
        cr_assert_eq(ct_manifold_capsules(&b, &xb, &a, NULL, 0, &w), CT_OK);
        check_swap(&m, &w, QM_TOL);
    }
}

Test(query_pairs, hull_capsule_matches_signed_distance_and_rests_on_faces) {
    unsigned long long seed = 43;
    ct_vec3 pts[30], h = tu_vec(1, 0.7, 0.4);
    ct_hull hull, hb;
    int k, trial;
    for (k = 0; k < 30; ++k) pts[k] = qct(qunit(&seed));
    cr_assert_eq(ct_hull_build(pts, 30, NULL, NULL, &hull), CT_OK);
    cr_assert_eq(ct_hull_box(h, NULL, &hb), CT_OK);
    for (trial = 0; trial < 3000; ++trial) {
        const ct_hull *H = trial % 2 ? &hull : &hb;
        ct_capsule c;
        ct_xform xa = qxform(&seed, 0.3), xb = qxform(&seed, 0);
        ct_manifold m;
        ct_shape sa = ct_shape_hull(H), sb;
        double sd, L = 4;
        xb.p = qct(qscl(qunit(&seed), 0.6 + 2 * tu_uniform(&seed)));
        c.p0 = qct(qscl(qunit(&seed), 0.6)); c.p1 = qct(qscl(qof(c.p0), -1)); c.radius = (ct_real)(0.05 + 0.3 * tu_uniform(&seed));
        sb = qcapsule_shape(&c);
        cr_assert_eq(ct_manifold_hull_capsule(H, &xa, &c, &xb, 10, &m), CT_OK);
        sd = signed_dist(&sa, &xa, &sb, &xb);
        cr_assert_geq(m.count, 1);
        if (sd > -c.radius && m.count == 1) /* cores apart, closest pair: the distance */
            cr_assert_float_eq(min_sep(&m), sd, QM_TOL * 100, "trial %d apart: %.17g vs %.17g", trial, min_sep(&m), sd);
        else if (sd > -c.radius) { /* a face clip: distances to the face plane, a lower bound */
            cr_assert_leq(min_sep(&m), sd + QM_TOL * 100, "trial %d clip above the distance", trial);
            cr_assert_geq(min_sep(&m), sd - 0.02 * fabs(sd) - 5e-4 * L, "trial %d clip: %.17g vs %.17g", trial, min_sep(&m), sd);
        } else /* cores overlap: the SAT axis, a face within 2% + 5e-4 L of the best */
            cr_assert_leq(fabs(min_sep(&m) - sd), 0.02 * fabs(sd) + 5e-4 * L + QM_TOL * 100, "trial %d overlap: %.17g vs %.17g", trial, min_sep(&m), sd);
        for (k = 0; k < m.count; ++k) { /* point + sep/2 n lies on the capsule (on its surface
                                            for a closest pair; inside by r (1 - cos tilt) for a
                                            clipped end of a segment tilted to the face) */
            qd q = qof(qct(qadd(qof(m.points[k].point), qscl(qof(m.normal), m.points[k].separation / 2))));
            qd a0 = qxf(&xb, qof(c.p0)), a1 = qxf(&xb, qof(c.p1)), e = qsub(a1, a0);
            double t = fmin(1, fmax(0, qdot(qsub(q, a0), e) / qdot(e, e)));
            double dq = qlen(qsub(q, qadd(a0, qscl(e, t))));
            cr_assert_leq(dq, c.radius + 1e-6, "trial %d point %d off the capsule", trial, k);
            if (m.points[k].separation == min_sep(&m) && fabs(min_sep(&m) - sd) < 1e-9)
                cr_assert_float_eq(dq, c.radius, 1e-6, "trial %d: deepest point %d off the capsule surface", trial, k);
        }
    }
    {   /* a capsule lying on the box's top face, 0.01 above it, partly over the edge */
        ct_capsule c = { { -0.5, 0, 0 }, { 0.5, 0, 0 }, (ct_real)0.1 };
        ct_xform xb = ct_xform_identity();
        ct_manifold m;
        xb.p = tu_vec(0.8, 0, 0.4 + 0.1 + 0.01);
        cr_assert_eq(ct_manifold_hull_capsule(&hb, NULL, &c, &xb, (ct_real)0.1, &m), CT_OK);
        cr_assert_eq(m.count, 2);
        cr_assert_float_eq(m.normal.z, 1, QM_TOL);
        cr_assert_float_eq(m.points[0].separation, 0.01, QM_TOL);
        cr_assert_float_eq(m.points[1].separation, 0.01, QM_TOL);
        cr_assert_float_eq(fmin(m.points[0].point.x, m.points[1].point.x), 0.3, QM_TOL);
        cr_assert_float_eq(fmax(m.points[0].point.x, m.points[1].point.x), 1.0, QM_TOL);
        /* sunk 0.05 into the face: the same clip, penetrating */
        xb.p.z = (ct_real)(0.4 + 0.1 - 0.05);
        cr_assert_eq(ct_manifold_hull_capsule(&hb, NULL, &c, &xb, 0, &m), CT_OK);
        cr_assert_eq(m.count, 2);
        cr_assert_float_eq(m.points[0].separation, -0.05, QM_TOL);
        cr_assert_float_eq(m.normal.z, 1, QM_TOL);
    }
    ct_hull_free(&hull);
    ct_hull_free(&hb);
}

/* A point p + sep/2 n of a cylinder manifold (B's side) lies on or in the cylinder. */
static void on_cylinder(const ct_manifold *m, const ct_xform *xb, double R, double H, double tol, int trial) {
    int k;
    for (k = 0; k < m->count; ++k) {
        qd q = qadd(qof(m->points[k].point), qscl(qof(m->normal), m->points[k].separation / 2));
        ct_vec3 l = ct_xform_inv_point(xb, qct(q));
        cr_assert_leq(fabs(l.z), H + tol, "trial %d point %d above the cylinder: z %g", trial, k, (double)l.z);
        cr_assert_leq(sqrt((double)l.x * l.x + (double)l.y * l.y), R + tol, "trial %d point %d outside the cylinder", trial, k);
    }
}

Test(query_pairs, hull_cylinder_matches_closed_forms_and_signed_distance) {
    const double R = 0.3, H = 0.5, d = 0.05, PI = 3.14159265358979323846;
    ct_hull hb, cube, hull;
    ct_manifold m;
    ct_xform xb;
    ct_scratch sc;
    ct_vec3 pts[30];
    unsigned long long seed = 71;
    int k, trial;
    ct_scratch_init(&sc, NULL);
    cr_assert_eq(ct_hull_box(tu_vec(1, 0.7, 0.4), NULL, &hb), CT_OK);
    cr_assert_eq(ct_hull_box(tu_vec(0.5, 0.5, 0.5), NULL, &cube), CT_OK);
    for (k = 0; k < 30; ++k) pts[k] = qct(qunit(&seed));
    cr_assert_eq(ct_hull_build(pts, 30, NULL, NULL, &hull), CT_OK);
    /* standing on the box's top face, sunk d: 4 points at separation -d on the cap */
    xb = ct_xform_identity();
    xb.p = tu_vec(0.1, -0.1, 0.4 + H - d);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, (ct_real)R, (ct_real)H, &xb, 0, &sc, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    cr_assert_float_eq(m.normal.z, 1, QM_TOL);
    for (k = 0; k < 4; ++k) {
        cr_assert_float_eq(m.points[k].separation, -d, QM_TOL);
        cr_assert_float_eq(m.points[k].point.z, 0.4 - d / 2, QM_TOL);
    }
    on_cylinder(&m, &xb, R, H, QM_TOL, -1);
    /* 0.01 above it: 4 points within speculative 0.02, none within 0.005 */
    xb.p.z = (ct_real)(0.4 + H + 0.01);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, (ct_real)R, (ct_real)H, &xb, (ct_real)0.02, &sc, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    for (k = 0; k < 4; ++k) cr_assert_float_eq(m.points[k].separation, 0.01, QM_TOL);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, (ct_real)R, (ct_real)H, &xb, (ct_real)0.005, &sc, &m), CT_OK);
    cr_assert_eq(m.count, 0);
    /* over the box's edge x = 1: the clipped half disk, no point beyond the edge */
    xb.p = tu_vec(1, 0, 0.4 + H - d);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, (ct_real)R, (ct_real)H, &xb, 0, &sc, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    for (k = 0; k < 4; ++k) {
        cr_assert_leq(m.points[k].point.x, 1 + QM_TOL);
        cr_assert_float_eq(m.points[k].separation, -d, QM_TOL);
    }
    cr_assert_float_eq(fmax(fmax(m.points[0].point.y, m.points[1].point.y), fmax(m.points[2].point.y, m.points[3].point.y)), R, QM_TOL);
    /* lying on its side along x: the side line, two points at its ends */
    xb = ct_xform_from_axis_angle(tu_vec(0, 1, 0), (ct_real)(PI / 2), tu_vec(0.2, 0.1, 0.4 + R - d));
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, (ct_real)R, (ct_real)H, &xb, 0, &sc, &m), CT_OK);
    cr_assert_eq(m.count, 2);
    cr_assert_float_eq(m.normal.z, 1, QM_TOL);
    cr_assert_float_eq(fmin(m.points[0].point.x, m.points[1].point.x), 0.2 - H, QM_TOL);
    cr_assert_float_eq(fmax(m.points[0].point.x, m.points[1].point.x), 0.2 + H, QM_TOL);
    for (k = 0; k < 2; ++k) cr_assert_float_eq(m.points[k].separation, -d, QM_TOL);
    /* tilted 30 degrees about x: the lowest rim point alone, at the depth d */
    {
        double a = PI / 6;
        xb = ct_xform_from_axis_angle(tu_vec(1, 0, 0), (ct_real)a, tu_vec(0, 0, 0.4 + H * cos(a) + R * sin(a) - d));
        cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, (ct_real)R, (ct_real)H, &xb, 0, &sc, &m), CT_OK);
        cr_assert_eq(m.count, 1);
        cr_assert_float_eq(m.points[0].separation, -d, QM_TOL * 10);
        cr_assert_float_eq(m.normal.z, 1, QM_TOL * 10);
    }
    /* standing across the ridge of a cube turned 45 degrees about x: the ridge clipped to the
       disk, two points at x = -R and +R */
    {
        ct_xform xc = ct_xform_from_axis_angle(tu_vec(1, 0, 0), (ct_real)(PI / 4), tu_vec(0, 0, 0));
        xb = ct_xform_identity();
        xb.p = tu_vec(0, 0, 0.5 * sqrt(2.0) + H - d);
        cr_assert_eq(ct_manifold_hull_cylinder(&cube, &xc, (ct_real)R, (ct_real)H, &xb, 0, &sc, &m), CT_OK);
        cr_assert_eq(m.count, 2);
        cr_assert_float_eq(m.normal.z, 1, QM_TOL * 10);
        cr_assert_float_eq(fmin(m.points[0].point.x, m.points[1].point.x), -R, QM_TOL * 10);
        cr_assert_float_eq(fmax(m.points[0].point.x, m.points[1].point.x), R, QM_TOL * 10);
        for (k = 0; k < 2; ++k) cr_assert_float_eq(m.points[k].separation, -d, QM_TOL * 10);
    }
    /* random poses: at least one point exactly when within speculative, the deepest within the
       face tolerance of the signed distance, every point on the cylinder */
    for (trial = 0; trial < 2000; ++trial) {
        const ct_hull *Hh = trial % 2 ? &hull : &hb;
        ct_xform xa = qxform(&seed, 0.3);
        ct_shape sa = ct_shape_hull(Hh), sb;
        double r = 0.1 + 0.4 * tu_uniform(&seed), h = 0.05 + 0.5 * tu_uniform(&seed), sd, L, spec = 0.02;
        xb = qxform(&seed, 0);
        xb.p = qct(qadd(qof(xa.p), qscl(qunit(&seed), 0.5 + 1.5 * tu_uniform(&seed))));
        if (trial % 4 == 0) {   /* upright over a face now and then: the cap and side clips */
            memcpy(xb.r, xa.r, sizeof xb.r);
            if (trial % 8 == 0) xb = ct_xform_from_axis_angle(ct_xform_vector(&xa, tu_vec(0, 1, 0)), (ct_real)(PI / 2), xb.p);
        }
        sb = ct_shape_cylinder((ct_real)r, (ct_real)h);
        L = Hh->extent + r + h;
        cr_assert_eq(ct_manifold_hull_cylinder(Hh, &xa, (ct_real)r, (ct_real)h, &xb, (ct_real)spec, &sc, &m), CT_OK);
        sd = signed_dist(&sa, &xa, &sb, &xb);
        if (sd > spec + QM_TOL) { cr_assert_eq(m.count, 0, "trial %d: %d points at %g", trial, m.count, sd); continue; }
        if (sd <= spec - QM_TOL) cr_assert_geq(m.count, 1, "trial %d: none at %g", trial, sd);
        if (!m.count) continue;
        cr_assert_leq(min_sep(&m), sd + QM_TOL * 10, "trial %d: deeper %.17g than the distance %.17g", trial, min_sep(&m), sd);
        cr_assert_geq(min_sep(&m), sd - 0.02 * fabs(sd) - 5e-4 * L - QM_TOL * 10, "trial %d: %.17g vs %.17g", trial, min_sep(&m), sd);
        for (k = 0; k < m.count; ++k) cr_assert_leq(m.points[k].separation, spec + QM_TOL);
        on_cylinder(&m, &xb, r, h, 1e-6 + QM_TOL * 10, trial);
    }
    /* bad input */
    cr_assert_eq(ct_manifold_hull_cylinder(NULL, NULL, 1, 1, NULL, 0, &sc, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, -1, 1, NULL, 0, &sc, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, 1, (ct_real)NAN, NULL, 0, &sc, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, 1, 1, NULL, (ct_real)-1, &sc, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, 1, 1, NULL, 0, &sc, NULL), CT_INVALID);
    xb = ct_xform_identity();
    xb.p.x = (ct_real)INFINITY;
    memset(&m, 0x55, sizeof m);
    cr_assert_eq(ct_manifold_hull_cylinder(&hb, NULL, 1, 1, &xb, 0, &sc, &m), CT_INVALID);
    cr_assert(m.count == 0 && m.normal.x == 0);
    ct_scratch_release(&sc);
    ct_hull_free(&hb);
    ct_hull_free(&cube);
    ct_hull_free(&hull);
}

Test(query_pairs, bad_input_is_invalid) {
    ct_capsule c = { { 0, 0, 0 }, { 1, 0, 0 }, 1 }, bad = { { 0, 0, 0 }, { 1, 0, 0 }, -1 };
    ct_hull hb;
    ct_manifold m;
    ct_vec3 o = tu_vec(0, 0, 0), nanv = tu_vec(NAN, 0, 0);
    cr_assert_eq(ct_hull_box(tu_vec(1, 1, 1), NULL, &hb), CT_OK);
    cr_assert_eq(ct_manifold_spheres(o, 1, o, 1, 0, NULL), CT_INVALID);
    cr_assert_eq(ct_manifold_spheres(nanv, 1, o, 1, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_spheres(o, -1, o, 1, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_spheres(o, 1, o, 1, -1, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_box_sphere(tu_vec(-1, 1, 1), NULL, o, 1, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_box_sphere(tu_vec(1, 1, 1), NULL, nanv, 1, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_capsules(&c, NULL, &bad, NULL, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_capsules(NULL, NULL, &c, NULL, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_capsules(&c, NULL, &c, NULL, (ct_real)NAN, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_capsule(NULL, NULL, &c, NULL, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_capsule(&hb, NULL, &bad, NULL, 0, &m), CT_INVALID);
    c.p1 = nanv;
    memset(&m, 0x55, sizeof m);
    cr_assert_eq(ct_manifold_hull_capsule(&hb, NULL, &c, NULL, 0, &m), CT_INVALID);
    cr_assert(m.count == 0 && m.normal.x == 0);
    ct_hull_free(&hb);
}

/* fuzz_query (regress_query_overflowing_midpoint): finite inputs whose answer overflows are
   CT_INVALID with the output zeroed, never Inf/NaN. */
Test(query_pairs, overflowing_answers_are_invalid) {
    double big = TU_FLOAT ? 3e38 : 1.7e308;
    ct_manifold m;
    ct_ray_hit r;
    ct_shape s = ct_shape_sphere((ct_real)big);
    ct_xform far = ct_xform_identity();
    cr_assert_eq(ct_manifold_spheres(tu_vec(-big, 0, 0), (ct_real)big, tu_vec(big, 0, 0), (ct_real)big, (ct_real)big, &m), CT_INVALID);
    cr_assert(m.count == 0 && m.normal.x == 0);
    far.p = tu_vec(big, 0, 0);
    cr_assert_eq(ct_ray_cast(&s, &far, tu_vec(-big, 0, 0), tu_vec(big, 0, 0), &r), CT_INVALID);
    cr_assert(r.hit == 0 && r.face == -1);
}

/* Scale and translation: the same sweep at sizes 1e-6..1e6, shifted by 10 sizes, gives the
   same fraction to the TOI tolerance (fractions are dimensionless). */
Test(query_toi, scale_and_translation_invariant) {
    unsigned long long seed = 44;
    ct_vec3 pts[24];
    int k, e;
    double ref = -1;
    for (k = 0; k < 24; ++k) pts[k] = qct(qunit(&seed));
    for (e = -6; e <= 6; e += 3) {
        double s = pow(10.0, e);
        ct_vec3 sp[24];
        ct_hull h;
        ct_shape a, b;
        ct_xform xa0 = ct_xform_from_axis_angle(tu_vec(0.2, 1, 0.3), (ct_real)0.4, tu_vec(10 * s, -3 * s, 5 * s));
        ct_xform xa1 = ct_xform_from_axis_angle(tu_vec(0.2, 1, 0.3), (ct_real)0.9, tu_vec(10 * s, -3 * s, 5 * s));
        ct_xform xb0 = ct_xform_from_axis_angle(tu_vec(1, 0, 0.3), (ct_real)0.1, tu_vec(14 * s, -2.5 * s, 5 * s));
        ct_xform xb1 = ct_xform_from_axis_angle(tu_vec(1, 0, 0.3), (ct_real)1.1, tu_vec(7 * s, -3.2 * s, 5.1 * s));
        ct_toi r;
        for (k = 0; k < 24; ++k) sp[k] = qct(qscl(qof(pts[k]), s));
        cr_assert_eq(ct_hull_build(sp, 24, NULL, NULL, &h), CT_OK);
        a = ct_shape_hull(&h);
        b = ct_shape_rounded(ct_shape_box(tu_vec(0.5 * s, 0.3 * s, 0.2 * s)), (ct_real)(0.1 * s));
        cr_assert_eq(ct_time_of_impact(&a, &xa0, &xa1, &b, &xb0, &xb1, (ct_real)(0.01 * s), NULL, &r), CT_OK);
        cr_assert(r.hit, "scale %g: no hit", s);
        if (ref < 0) ref = r.fraction;
        cr_assert_float_eq(r.fraction, ref, TU_FLOAT ? 2e-3 : 1e-7, "scale %g: fraction %.17g vs %.17g", s, r.fraction, ref);
        cr_assert_float_eq(r.distance / s, 0.01, TU_FLOAT ? 2e-3 : 1e-7);
        ct_hull_free(&h);
    }
}

/* fuzz_query (a 100 s local float run, 2026-11-28), regress_query_ray_grazing_sliver: a ray along
   a degenerate triangle (a segment 1000 long at 3.8e-4 rad to the ray, ending on it) in float.
   The cast stops within its tolerance of the segment, then a last Newton step to the surface
   divides by the rate along the normal; that normal's component along the ray (3.8e-4) is
   below the rounding of the closest-point difference at coordinates 1e3, came out at half its
   value, and the step went 124 past the segment's end (the hit outside the triangle's box).
   The step now takes the largest rate the rounding allows, and none when that may be 0. */
Test(query, ray_grazing_a_sliver_triangle_stops_at_it) {
    ct_shape s = ct_shape_triangle(tu_vec(0, -1000, 0), tu_vec(0, 0, 0), tu_vec(0, 0, 0));
    ct_xform x;
    ct_aabb box;
    ct_ray_hit rh;
    static const double r[3][3] = { { -0.000561118126, -0.000271588564, 0.999999762 },
                                    { 0.999999762, 0.000271439552, 0.000561207533 },
                                    { -0.000271588564, 0.999999881, 0.000271439552 } };
    tu_printed_rotation(r, &x);   /* in double made orthonormal again */
    x.p = tu_vec(0, 0, 937.225342);
    cr_assert_eq(ct_shape_aabb(&s, &x, &box), CT_OK);
    cr_assert_eq(ct_ray_cast(&s, &x, tu_vec(1e-40, 1e-40, 1e-40), tu_vec(1e-40, 1e-40, 5623.35205), &rh), CT_OK);
    cr_assert(rh.hit);
    /* the segment's upper end is on the ray at z = 937.2: the hit is at most there, and within
       the cast's distance tolerance (1e-4 of the size in float) of the segment */
    cr_assert_leq((double)rh.point.z, (double)box.hi.z + 1e-3 * 1000, "hit at z %g, the triangle ends at %g", (double)rh.point.z,
                  (double)box.hi.z);
    cr_assert_geq((double)rh.point.z, 937.225342 - (TU_FLOAT ? 200 : 1e-3));
}
