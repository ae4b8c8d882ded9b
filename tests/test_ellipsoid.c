/* Ellipsoids (Perram-Wertheim): closed forms, invariances, an independent golden-section
   maximisation of S, the contact point on both scaled surfaces, and the sign of the gap against
   dense surface sampling and libccd's GJK (independent oracles). This file embeds a static copy
   of the implementation to reach the iteration cap (ct__ellipsoids). */
#define CONTACT_STATIC
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "testutil.h"
#include <criterion/criterion.h>
#include <math.h>
#ifdef CT_HAVE_CCD
#include <ccd/ccd.h>
#endif

/* ---- independent oracle: S(lambda) in the world frame, in double, by Cramer's rule ---------- */
typedef struct pair {
    ct_vec3 sa, sb;
    ct_xform xa, xb;
} pair;

/* m = R diag(s^2) R^T (the inverse shape matrix). The oracle runs in long double: at aspect
   1:1e4 (condition 1e8) Cramer's rule in double was off by 5e-7 relative, where the
   implementation (and the oracle in long double) agree to 2e-10. */
typedef long double oreal;
static void inv_shape(ct_vec3 s, const ct_xform *x, oreal m[3][3]) {
    oreal d[3] = { (oreal)s.x * s.x, (oreal)s.y * s.y, (oreal)s.z * s.z };
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            m[i][j] = 0;
            for (k = 0; k < 3; ++k) m[i][j] += (oreal)x->r[i][k] * x->r[j][k] * d[k];
        }
}
static double oracle_S(const pair *p, double lam) {
    oreal ai[3][3], bi[3][3], g[3][3], R[3], det, x[3];
    int i, j;
    inv_shape(p->sa, &p->xa, ai);
    inv_shape(p->sb, &p->xb, bi);
    R[0] = (oreal)p->xb.p.x - p->xa.p.x;
    R[1] = (oreal)p->xb.p.y - p->xa.p.y;
    R[2] = (oreal)p->xb.p.z - p->xa.p.z;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) g[i][j] = (1 - (oreal)lam) * ai[i][j] + (oreal)lam * bi[i][j];
    det = g[0][0] * (g[1][1] * g[2][2] - g[1][2] * g[2][1]) - g[0][1] * (g[1][0] * g[2][2] - g[1][2] * g[2][0]) +
          g[0][2] * (g[1][0] * g[2][1] - g[1][1] * g[2][0]);
    for (i = 0; i < 3; ++i) { /* Cramer: replace column i by R */
        oreal m[3][3];
        int r, c;
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c) m[r][c] = c == i ? R[r] : g[r][c];
        x[i] = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])) / det;
    }
    return (double)((oreal)lam * (1 - (oreal)lam) * (R[0] * x[0] + R[1] * x[1] + R[2] * x[2]));
}
/* Golden-section maximisation of the (concave) S on [0,1], until the bracket stops shrinking. */
static double golden_max(const pair *p, double *lam_out) {
    const double g = 0.6180339887498949;
    double lo = 0, hi = 1, x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = oracle_S(p, x1), f2 = oracle_S(p, x2);
    int it;
    for (it = 0; it < 200 && hi - lo > 1e-15; ++it) {
        if (f1 < f2) { lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = oracle_S(p, x2); }
        else { hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = oracle_S(p, x1); }
    }
    if (lam_out) *lam_out = (lo + hi) / 2;
    return f1 > f2 ? f1 : f2;
}
/* The implicit function of an ellipsoid at world point w: |diag(1/s) R^T (w - c)|^2 (double). */
static double implicit(ct_vec3 s, const ct_xform *x, const double w[3]) {
    double d[3] = { w[0] - x->p.x, w[1] - x->p.y, w[2] - x->p.z }, f = 0;
    double sv[3] = { s.x, s.y, s.z };
    int k;
    for (k = 0; k < 3; ++k) {
        double l = (x->r[0][k] * d[0] + x->r[1][k] * d[1] + x->r[2][k] * d[2]) / sv[k];
        f += l * l;
    }
    return f;
}

/* ---- random pairs ---------------------------------------------------------------------------- */
/* Semi-axes in [1/aspect, 1] (log-uniform) times a common scale, random rotations, centres
   spread over [-spread, spread]^3. */
static ct_vec3 rand_semi(unsigned long long *seed, double aspect) {
    double v[3];
    int k;
    for (k = 0; k < 3; ++k) v[k] = exp(-log(aspect) * tu_uniform(seed));
    return tu_vec(v[0], v[1], v[2]);
}
static pair rand_pair(unsigned long long *seed, double aspect, double spread) {
    pair p;
    p.sa = rand_semi(seed, aspect);
    p.sb = rand_semi(seed, aspect);
    p.xa = tu_random_xform(seed, spread);
    p.xb = tu_random_xform(seed, spread);
    return p;
}
static double kappa(const pair *p) { /* (largest / smallest semi-axis)^2: condition of G */
    double mx = ct__max(ct__maxabs(p->sa), ct__maxabs(p->sb));
    double mn = ct__min(ct__min(ct__min(p->sa.x, p->sa.y), ct__min(p->sa.z, p->sb.x)), ct__min(p->sb.y, p->sb.z));
    return (mx / mn) * (mx / mn);
}
static ct_status run(const pair *p, const ct_real *guess, ct_pw *o) {
    return ct_ellipsoids(p->sa, &p->xa, p->sb, &p->xb, guess, o);
}
/* r is o seen after a change of the scene: lengths scaled by c and shifted by shift, and A and B
   swapped when swapped (lambda -> 1 - lambda, normal negated). */
static void assert_same(const ct_pw *o, const ct_pw *r, int swapped, ct_real c, ct_vec3 shift, double tol) {
    ct_real lam = swapped ? 1 - r->lambda : r->lambda;
    ct_vec3 n = swapped ? ct__neg(r->normal) : r->normal;
    cr_assert(ct__abs(r->F - o->F) <= tol * (o->F + TU_EPS), "F %g vs %g", (double)r->F, (double)o->F);
    cr_assert(ct__abs(lam - o->lambda) <= tol, "lambda %g vs %g", (double)lam, (double)o->lambda);
    cr_assert(ct__dist(n, o->normal) <= tol, "normal off by %g", (double)ct__dist(n, o->normal));
    cr_assert(ct__abs(r->gap - c * o->gap) <= 4 * tol * c, "gap %g vs %g", (double)r->gap, (double)(c * o->gap));
    cr_assert(ct__dist(r->point, ct__madd(shift, o->point, c)) <= 4 * tol * c);
}
static void assert_unit(ct_vec3 n) { cr_assert(ct__abs(ct__len(n) - 1) < 16 * TU_EPS, "normal not unit: %g", (double)ct__len(n)); }

/* ---- closed forms ------------------------------------------------------------------------------- */
Test(ellipsoid, spheres_closed_form) {
    ct_pw o;
    ct_xform xb = ct_xform_identity();
    unsigned long long seed = 11;
    int k;
    xb.p = tu_vec(2.7, 0, 0);
    cr_assert_eq(ct_ellipsoids(tu_vec(1, 1, 1), NULL, tu_vec(2, 2, 2), &xb, NULL, &o), CT_OK);
    cr_assert_float_eq(o.F, 0.81, 16 * TU_EPS);
    cr_assert_float_eq(o.lambda, 1.0 / 3, 16 * TU_EPS);
    cr_assert_float_eq(o.gap, -0.3, 16 * TU_EPS);
    cr_assert_float_eq(o.normal.x, 1, 16 * TU_EPS);
    cr_assert_float_eq(o.point.x, 0.9, 16 * TU_EPS);
    cr_assert(o.iterations <= 2, "cold start should be exact for spheres: %d evaluations", o.iterations);
    /* anywhere, any orientation, either sign of overlap: F = |R|^2 / (ra + rb)^2, lam = ra/(ra+rb) */
    for (k = 0; k < 200; ++k) {
        double ra = 0.2 + 2 * tu_uniform(&seed), rb = 0.2 + 2 * tu_uniform(&seed), dist = (ra + rb) * (0.3 + 1.4 * tu_uniform(&seed));
        ct_xform xa = tu_random_xform(&seed, 5), x2 = tu_random_xform(&seed, 0);
        ct_vec3 dir = tu_random_unit(&seed);
        x2.p = ct__madd(xa.p, dir, (ct_real)dist);
        cr_assert_eq(ct_ellipsoids(tu_vec(ra, ra, ra), &xa, tu_vec(rb, rb, rb), &x2, NULL, &o), CT_OK);
        cr_assert(ct__abs(o.F - dist * dist / ((ra + rb) * (ra + rb))) <= 64 * TU_EPS * o.F);
        cr_assert(ct__abs(o.lambda - ra / (ra + rb)) <= 64 * TU_EPS);
        cr_assert(ct__abs(o.gap - (dist - ra - rb)) <= 64 * TU_EPS * (dist + ra + rb));
        cr_assert(ct__dist(o.normal, dir) <= 64 * TU_EPS);
        cr_assert(ct__dist(o.point, ct__madd(xa.p, dir, (ct_real)(dist * ra / (ra + rb)))) <= 64 * TU_EPS * (5 + dist));
        cr_assert(o.iterations <= 2);
    }
}

Test(ellipsoid, ellipsoid_and_sphere_on_the_long_axis) {
    ct_pw o;
    ct_xform xb = ct_xform_identity();
    double F = (2.9 / 3) * (2.9 / 3);
    xb.p = tu_vec(2.9, 0, 0);
    cr_assert_eq(ct_ellipsoids(tu_vec(2, 1, 1), NULL, tu_vec(1, 1, 1), &xb, NULL, &o), CT_OK);
    cr_assert_float_eq(o.lambda, 2.0 / 3, 16 * TU_EPS);
    cr_assert_float_eq(o.F, F, 16 * TU_EPS);
    cr_assert_float_eq(o.gap, -0.1, 32 * TU_EPS);
    cr_assert_float_eq(o.normal.x, 1, 16 * TU_EPS);
    cr_assert_float_eq(o.point.x, 2.9 * 2 / 3, 16 * TU_EPS);
    cr_assert_float_eq(o.point.y, 0, 16 * TU_EPS);
    /* the same along the short axis: h_A = 1, a sphere-like contact at lambda = 1/2 */
    xb.p = tu_vec(0, 2.5, 0);
    cr_assert_eq(ct_ellipsoids(tu_vec(2, 1, 1), NULL, tu_vec(1, 1, 1), &xb, NULL, &o), CT_OK);
    cr_assert_float_eq(o.lambda, 0.5, 16 * TU_EPS);
    cr_assert_float_eq(o.F, 2.5 * 2.5 / 4, 16 * TU_EPS);
    cr_assert_float_eq(o.gap, 0.5, 32 * TU_EPS);
}

Test(ellipsoid, needles_crossing_at_right_angles) {
    /* (10, .1, .1) along x and along y, centres h apart along z: by symmetry n = z, lam = 1/2,
       F = (h / 0.2)^2, touching at the midpoint. Then off-centre crossings: F against the oracle. */
    ct_xform xa = ct_xform_identity(), xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), CT__PI / 2, tu_vec(0, 0, 0));
    ct_vec3 needle = tu_vec(10, 0.1, 0.1);
    ct_pw o;
    double hs[4] = { 0.15, 0.2, 0.25, 1.0 };
    int k, i, j;
    for (k = 0; k < 4; ++k) {
        xb.p = tu_vec(0, 0, hs[k]);
        cr_assert_eq(ct_ellipsoids(needle, &xa, needle, &xb, NULL, &o), CT_OK);
        cr_assert(ct__abs(o.F - (hs[k] / 0.2) * (hs[k] / 0.2)) <= 1e3 * TU_EPS * o.F, "F %g", (double)o.F);
        cr_assert(ct__abs(o.lambda - 0.5) <= 1e3 * TU_EPS);
        cr_assert(ct__abs(o.normal.z - 1) <= 1e3 * TU_EPS);
        cr_assert(ct__abs(o.gap - (hs[k] - 0.2)) <= 1e3 * TU_EPS);
        cr_assert(ct__abs(o.point.z - hs[k] / 2) <= 1e3 * TU_EPS);
    }
    for (i = 0; i < 7; ++i)
        for (j = 0; j < 7; ++j) {
            pair p;
            double F;
            p.sa = needle;
            p.sb = needle;
            p.xa = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(0.1 * i), tu_vec(0, 0, 0));
            p.xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), CT__PI / 2, tu_vec(3 * i - 9, 4 * j - 12, 0.05 + 0.05 * j));
            cr_assert_eq(run(&p, NULL, &o), CT_OK);
            cr_assert(o.iterations <= 40, "needles: %d evaluations", o.iterations);
            F = golden_max(&p, NULL);
            cr_assert(ct__abs(o.F - F) <= (TU_FLOAT ? 1e4 * TU_EPS : 1e-10) * F, "F %.17g oracle %.17g", (double)o.F, F);
        }
}

/* ---- invariances -------------------------------------------------------------------------------- */
Test(ellipsoid, scaling_R_scales_F_quadratically) {
    unsigned long long seed = 21;
    int k, i;
    double ts[4] = { 0.25, 0.5, 2, 10 };
    for (k = 0; k < 100; ++k) {
        pair p = rand_pair(&seed, 4, 2), q;
        ct_pw o, ot;
        double tol = 64 * TU_EPS * kappa(&p);
        cr_assert_eq(run(&p, NULL, &o), CT_OK);
        for (i = 0; i < 4; ++i) {
            q = p;
            q.xb.p = ct__madd(p.xa.p, ct__sub(p.xb.p, p.xa.p), (ct_real)ts[i]);
            cr_assert_eq(run(&q, NULL, &ot), CT_OK);
            cr_assert(ct__abs(ot.F - ts[i] * ts[i] * o.F) <= tol * ot.F, "F(tR) %g t^2 F %g", (double)ot.F, ts[i] * ts[i] * o.F);
            cr_assert(ct__abs(ot.lambda - o.lambda) <= tol);
            cr_assert(ct__dist(ot.normal, o.normal) <= tol);
        }
    }
}

Test(ellipsoid, swapping_maps_lambda_and_negates_normal) {
    unsigned long long seed = 31;
    int k;
    for (k = 0; k < 200; ++k) {
        pair p = rand_pair(&seed, k < 100 ? 4 : 30, 2);
        ct_pw o, s;
        double tol = 64 * TU_EPS * kappa(&p);
        cr_assert_eq(ct_ellipsoids(p.sa, &p.xa, p.sb, &p.xb, NULL, &o), CT_OK);
        cr_assert_eq(ct_ellipsoids(p.sb, &p.xb, p.sa, &p.xa, NULL, &s), CT_OK);
        assert_same(&o, &s, 1, 1, ct__v3(0, 0, 0), tol);
    }
}

Test(ellipsoid, scale_and_translation_invariance) {
    unsigned long long seed = 41;
    double scales[5] = { 1e-6, 1e-3, 1, 1e3, 1e6 };
    int k, i;
    for (k = 0; k < 50; ++k) {
        pair p = rand_pair(&seed, 5, 1.5), q;
        ct_pw o, os;
        double tol = 64 * TU_EPS * kappa(&p);
        cr_assert_eq(run(&p, NULL, &o), CT_OK);
        for (i = 0; i < 5; ++i) {
            ct_real c = (ct_real)scales[i];
            q = p;
            q.sa = ct__scale(p.sa, c);
            q.sb = ct__scale(p.sb, c);
            q.xa.p = ct__scale(p.xa.p, c);
            q.xb.p = ct__scale(p.xb.p, c);
            cr_assert_eq(run(&q, NULL, &os), CT_OK);
            assert_same(&o, &os, 0, c, ct__v3(0, 0, 0), tol);
        }
        /* translation of the whole scene by 1e6: the centre difference loses eps * 1e6 */
        {
            ct_vec3 t = ct__scale(tu_random_unit(&seed), (ct_real)1e6);
            double ttol = tol + 64 * TU_EPS * 1e6 * kappa(&p);
            q = p;
            q.xa.p = ct__add(p.xa.p, t);
            q.xb.p = ct__add(p.xb.p, t);
            cr_assert_eq(run(&q, NULL, &os), CT_OK);
            assert_same(&o, &os, 0, 1, t, ttol);
        }
    }
}

/* ---- convergence and the solver ----------------------------------------------------------------- */
Test(ellipsoid, random_aspect_ratios_to_1_100_converge) {
    unsigned long long seed = 51;
    int k, worst = 0;
    long total = 0;
    for (k = 0; k < 2000; ++k) {
        pair p = rand_pair(&seed, 100, 1.5);
        ct_pw o;
        cr_assert_eq(run(&p, NULL, &o), CT_OK);
        cr_assert(o.iterations <= 40, "%d evaluations", o.iterations);
        cr_assert(o.lambda >= 0 && o.lambda <= 1 && o.F >= 0 && ct__finite(o.gap));
        assert_unit(o.normal);
        worst = ct__imax(worst, o.iterations);
        total += o.iterations;
    }
    cr_log_info("aspect 1:100, cold: mean %.2f, worst %d evaluations", (double)total / 2000, worst);
}

Test(ellipsoid, converged_point_is_kept_when_rounding_puts_the_root_outside) {
    /* Regression: converging from one side, the last Newton step (below the tolerance) fell
       just outside the bracket by rounding; bisecting then threw the root away and crawled back
       (33 evaluations). Found by a 200,000-pair sweep at aspect 1:100. */
    const ct_real qa[4] = { (ct_real)0.2343972836834235, (ct_real)0.14544964318776721, (ct_real)-0.051430593359556576, (ct_real)-0.33642854069727779 };
    const ct_real qb[4] = { (ct_real)0.21105474502573385, (ct_real)0.31147395369411668, (ct_real)0.044329221713352296, (ct_real)0.17201992728281046 };
    pair p;
    ct_pw o;
    double F;
    p.sa = tu_vec(0.88680883189513982, 0.52994403011474411, 0.043817298628937351);
    p.sb = tu_vec(0.80118433654638199, 0.015629218369773993, 0.72664074667828138);
    p.xa = ct_xform_from_quat(qa, tu_vec(0, 0, 0));
    p.xb = ct_xform_from_quat(qb, tu_vec(0.56114898685681047, 0.28900533166070796, 0.47209931724919207));
    cr_assert_eq(run(&p, NULL, &o), CT_OK);
    cr_assert(o.iterations <= 20, "%d evaluations", o.iterations);
    F = golden_max(&p, NULL);
    cr_assert(ct__abs(o.F - F) <= (TU_FLOAT ? 8 * TU_EPS * kappa(&p) : 1e-10) * F);
}

Test(ellipsoid, warm_start_agrees_with_cold_start) {
    unsigned long long seed = 61;
    int k, i;
    for (k = 0; k < 300; ++k) {
        pair p = rand_pair(&seed, k < 150 ? 3 : 100, 1.5);
        ct_pw cold, warm;
        double tol = 64 * TU_EPS * kappa(&p);
        ct_real guesses[5];
        cr_assert_eq(run(&p, NULL, &cold), CT_OK);
        guesses[0] = cold.lambda;
        guesses[1] = 0;
        guesses[2] = 1;
        guesses[3] = ct__clamp(cold.lambda + (ct_real)0.1, 0, 1);
        guesses[4] = (ct_real)tu_uniform(&seed);
        for (i = 0; i < 5; ++i) {
            cr_assert_eq(run(&p, &guesses[i], &warm), CT_OK);
            assert_same(&cold, &warm, 0, 1, ct__v3(0, 0, 0), tol);
            if (i == 0) cr_assert(warm.iterations <= 2, "warm start at the answer: %d evaluations", warm.iterations);
        }
    }
}

Test(ellipsoid, warm_starts_at_aspect_1_1e4_agree_with_cold_and_oracle) {
    /* Regression (fuzz_ellipsoid, float, aspect 1:1e4): warm-started at lambda = 1, G(1) = B^-1
       did not factor (CT_DEGENERATE against a cold CT_OK), and near 1 it factored into noise:
       x^T B^-1 x < 0, S' of the wrong sign, a false root with F on the wrong side of 1 under
       CT_OK. Checks: the status of every warm start is the cold one; the oracle's maximiser
       lies in the bracket the semi-axes give; in double F agrees with the oracle to the
       condition of G; in float (condition up to 1e8 > 1 / eps) on which side of 1 it lies,
       whenever the oracle puts it a factor 2 away. */
    unsigned long long seed = 81;
    int k, i, ok = 0, sides = 0;
    for (k = 0; k < 400; ++k) {
        pair p = rand_pair(&seed, k % 2 ? 1e4 : 1e3, 1.5);
        ct_pw cold, warm;
        ct_status st = run(&p, NULL, &cold);
        double lam, F = golden_max(&p, &lam);
        double amin = fmin(fmin(p.sa.x, p.sa.y), p.sa.z), amax = fmax(fmax(p.sa.x, p.sa.y), p.sa.z);
        double bmin = fmin(fmin(p.sb.x, p.sb.y), p.sb.z), bmax = fmax(fmax(p.sb.x, p.sb.y), p.sb.z);
        ct_real guesses[6];
        guesses[0] = 0;
        guesses[1] = 1;
        guesses[2] = (ct_real)1e-5;
        guesses[3] = (ct_real)(1 - 1e-5);
        guesses[4] = (ct_real)tu_uniform(&seed);
        guesses[5] = (ct_real)2; /* outside [0,1]: clamped */
        cr_assert(lam >= amin / (amin + bmax) - 1e-9 && lam <= amax / (amax + bmin) + 1e-9, "pair %d: oracle lambda %g", k, lam);
        cr_assert(st == CT_OK || st == CT_DEGENERATE, "pair %d: status %d", k, st);
        for (i = 0; i < 6; ++i) {
            ct_status sw = run(&p, &guesses[i], &warm);
            cr_assert_eq(sw, st, "pair %d guess %g: status %d, cold %d", k, (double)guesses[i], sw, st);
            if (st != CT_OK) continue;
            if (!TU_FLOAT) {
                double tol = 64 * TU_EPS * kappa(&p);
                cr_assert(fabs((double)warm.F - F) <= tol * F, "pair %d guess %g: F %.17g oracle %.17g", k, (double)guesses[i],
                          (double)warm.F, F);
            } else if (F > 2 || F < 0.5) {
                ++sides;
                cr_assert((warm.F > 1) == (F > 1), "pair %d guess %g: F %g, oracle %g", k, (double)guesses[i], (double)warm.F, F);
            }
        }
        ok += st == CT_OK;
    }
    cr_log_info("aspect 1:1e3/1:1e4: %d of 400 cold CT_OK, %d side checks", ok, sides);
    cr_assert(ok >= 300);
    if (TU_FLOAT) cr_assert(sides >= 600, "%d side checks", sides);
}

Test(ellipsoid, F_matches_golden_section_oracle) {
    /* 1e-10 relative in double (float: scaled by its epsilon and the condition of G) */
    unsigned long long seed = 71;
    int k;
    for (k = 0; k < 300; ++k) {
        pair p = rand_pair(&seed, k < 100 ? 2 : (k < 200 ? 10 : 100), 1.5);
        ct_pw o;
        double lam, F = 0, tol = TU_FLOAT ? 8 * TU_EPS * kappa(&p) : 1e-10;
        cr_assert_eq(run(&p, NULL, &o), CT_OK);
        F = golden_max(&p, &lam);
        cr_assert(ct__abs(o.F - F) <= tol * F, "F %.17g oracle %.17g (aspect set %d)", (double)o.F, F, k / 100);
        /* lambda is only determined to ~sqrt(eps) by the oracle's flat maximum */
        cr_assert(ct__abs(o.lambda - lam) <= 1e-5 + 1e3 * TU_EPS * kappa(&p), "lam %.17g oracle %.17g", (double)o.lambda, lam);
    }
}

Test(ellipsoid, iteration_cap_returns_best_estimate) {
    pair p;
    ct_pw o, full;
    p.sa = tu_vec(3, 0.2, 1);
    p.sb = tu_vec(0.3, 2, 1);
    p.xa = ct_xform_from_axis_angle(tu_vec(1, 2, 3), 0.7, tu_vec(0, 0, 0));
    p.xb = ct_xform_from_axis_angle(tu_vec(-1, 0, 3), 1.1, tu_vec(2, 1, 0.5));
    cr_assert_eq(run(&p, NULL, &full), CT_OK);
    cr_assert(full.iterations > 2);
    cr_assert_eq(ct__ellipsoids(p.sa, &p.xa, p.sb, &p.xb, NULL, 2, &o), CT_NO_CONVERGENCE);
    cr_assert_eq(o.iterations, 2);
    cr_assert(ct__finite(o.F) && ct__finite(o.gap) && ct__finite3(o.point) && o.lambda > 0 && o.lambda < 1);
    assert_unit(o.normal);
    /* a lower bound of the maximum, and closer than the cold start */
    cr_assert(o.F <= full.F * (1 + 64 * TU_EPS));
    cr_assert(ct__abs(o.lambda - full.lambda) < 0.5);
}

/* ---- the contact point, normal and gap ---------------------------------------------------------- */
Test(ellipsoid, contact_point_lies_on_both_scaled_surfaces) {
    /* F_A(x_C) = F_B(x_C) = F, and the normal is along grad F_A = -grad F_B there */
    unsigned long long seed = 81;
    int k;
    for (k = 0; k < 300; ++k) {
        pair p = rand_pair(&seed, k < 150 ? 4 : 30, 2);
        ct_pw o;
        double w[3], fa, fb, tol = 256 * TU_EPS * kappa(&p);
        cr_assert_eq(run(&p, NULL, &o), CT_OK);
        w[0] = o.point.x; w[1] = o.point.y; w[2] = o.point.z;
        fa = implicit(p.sa, &p.xa, w);
        fb = implicit(p.sb, &p.xb, w);
        cr_assert(fabs(fa - o.F) <= tol * (o.F + 1e-3), "F_A(x) %g F %g", fa, (double)o.F);
        cr_assert(fabs(fb - o.F) <= tol * (o.F + 1e-3), "F_B(x) %g F %g", fb, (double)o.F);
        {   /* gradient of F_A: 2 R diag(1/s^2) R^T (x - c), compared as a direction */
            ct_vec3 l = ct__xf_inv_point(&p.xa, o.point), g;
            int ok;
            l = ct__v3(l.x / (p.sa.x * p.sa.x), l.y / (p.sa.y * p.sa.y), l.z / (p.sa.z * p.sa.z));
            g = ct__normalize(ct__xf_dir(&p.xa, l), &ok);
            cr_assert(ok);
            cr_assert(ct__dist(g, o.normal) <= tol, "normal off the gradient by %g", (double)ct__dist(g, o.normal));
            l = ct__xf_inv_point(&p.xb, o.point);
            l = ct__v3(l.x / (p.sb.x * p.sb.x), l.y / (p.sb.y * p.sb.y), l.z / (p.sb.z * p.sb.z));
            g = ct__normalize(ct__xf_dir(&p.xb, l), &ok);
            cr_assert(ct__dist(g, ct__neg(o.normal)) <= tol);
        }
        /* optimality: lambda / (1 - lambda) = h_A(n) / h_B(n), h the support radii */
        {
            ct_vec3 la = ct__xf_inv_dir(&p.xa, o.normal), lb = ct__xf_inv_dir(&p.xb, o.normal);
            double ha = sqrt((double)ct__dot(ct__mul(la, la), ct__mul(p.sa, p.sa)));
            double hb = sqrt((double)ct__dot(ct__mul(lb, lb), ct__mul(p.sb, p.sb)));
            cr_assert(fabs(o.lambda - ha / (ha + hb)) <= tol, "lambda %g, h_A/(h_A+h_B) %g", (double)o.lambda, ha / (ha + hb));
        }
        /* gap = R.n (1 - 1/sqrt(F)): the support-function gap is consistent with F */
        {
            double Rn = ct__dot(ct__sub(p.xb.p, p.xa.p), o.normal);
            cr_assert(fabs(o.gap - Rn * (1 - 1 / sqrt((double)o.F))) <= tol * (Rn + 1));
            cr_assert((o.gap < 0) == (o.F < 1) || fabs(o.F - 1) < tol);
        }
    }
}

#ifdef CT_HAVE_CCD
static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out) {
    const pair *p = (const pair *)((const void *const *)obj)[0];
    int which = (int)(size_t)((const void *const *)obj)[1];
    ct_vec3 s = which ? p->sb : p->sa, d = tu_vec(dir->v[0], dir->v[1], dir->v[2]), l, w;
    const ct_xform *x = which ? &p->xb : &p->xa;
    double len;
    l = ct__xf_inv_dir(x, d);
    l = ct__mul(ct__mul(s, s), l);
    len = sqrt((double)ct__dot(l, ct__xf_inv_dir(x, d)));
    w = ct__xf_point(x, ct__scale(l, (ct_real)(1 / len)));
    out->v[0] = w.x; out->v[1] = w.y; out->v[2] = w.z;
}
static void ccd_center(const void *obj, ccd_vec3_t *c) {
    const pair *p = (const pair *)((const void *const *)obj)[0];
    int which = (int)(size_t)((const void *const *)obj)[1];
    ct_vec3 v = which ? p->xb.p : p->xa.p;
    c->v[0] = v.x; c->v[1] = v.y; c->v[2] = v.z;
}
#endif

Test(ellipsoid, gap_sign_agrees_with_independent_oracles) {
    /* Independent of PW: (1) a point sampled on A's surface inside B proves overlap, so F > 1
       must never see one, and F < 0.9 must (dense enough sampling); (2) libccd's GJK and MPR
       intersection tests on the same ellipsoids through a support function. */
    unsigned long long seed = 91;
    int k, agree = 0, checked_ccd = 0;
    for (k = 0; k < 120; ++k) {
        pair p = rand_pair(&seed, 4, 1.2);
        ct_pw o;
        int i, j, inside = 0, nth = 90, nph = 180;
        double wA[3] = { p.xa.p.x, p.xa.p.y, p.xa.p.z }, wB[3] = { p.xb.p.x, p.xb.p.y, p.xb.p.z };
        cr_assert_eq(run(&p, NULL, &o), CT_OK);
        if (fabs(o.F - 1) < 0.1) continue;
        inside = implicit(p.sb, &p.xb, wA) < 1 || implicit(p.sa, &p.xa, wB) < 1;
        for (i = 0; i <= nth && !inside; ++i)
            for (j = 0; j < nph && !inside; ++j) {
                double th = CT__PI * i / nth, ph = 2 * CT__PI * j / nph, w[3];
                ct_vec3 l = tu_vec(p.sa.x * sin(th) * cos(ph), p.sa.y * sin(th) * sin(ph), p.sa.z * cos(th));
                ct_vec3 x = ct__xf_point(&p.xa, l);
                w[0] = x.x; w[1] = x.y; w[2] = x.z;
                inside = implicit(p.sb, &p.xb, w) < 1;
            }
        cr_assert_eq(inside, o.gap < 0, "F %g gap %g sampled overlap %d", (double)o.F, (double)o.gap, inside);
        agree++;
#ifdef CT_HAVE_CCD
        {
            ccd_t ccd;
            const void *oa[2], *ob[2];
            oa[0] = &p; oa[1] = (const void *)(size_t)0;
            ob[0] = &p; ob[1] = (const void *)(size_t)1;
            CCD_INIT(&ccd);
            ccd.support1 = ccd_support;
            ccd.support2 = ccd_support;
            ccd.center1 = ccd_center;
            ccd.center2 = ccd_center;
            ccd.max_iterations = 1000;
            cr_assert_eq(ccdGJKIntersect(oa, ob, &ccd) != 0, o.gap < 0, "libccd GJK disagrees: F %g", (double)o.F);
            cr_assert_eq(ccdMPRIntersect(oa, ob, &ccd) != 0, o.gap < 0, "libccd MPR disagrees: F %g", (double)o.F);
            checked_ccd++;
        }
#endif
    }
    cr_assert(agree > 60, "too few decisive cases: %d", agree);
    cr_log_info("gap sign: %d cases against sampling, %d against libccd", agree, checked_ccd);
}

Test(ellipsoid, coincident_centres_overlap_with_a_finite_normal) {
    ct_pw o;
    ct_xform xa = ct_xform_from_axis_angle(tu_vec(1, 1, 0), 0.4, tu_vec(3, -2, 1));
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(0, 1, 1), 1.2, tu_vec(3, -2, 1));
    cr_assert_eq(ct_ellipsoids(tu_vec(1, 1, 1), &xa, tu_vec(2, 2, 2), &xa, NULL, &o), CT_OK);
    cr_assert_eq(o.F, 0);
    assert_unit(o.normal);
    cr_assert_float_eq(o.gap, -3, 16 * TU_EPS);
    cr_assert(ct__dist(o.point, xa.p) <= 16 * TU_EPS * 4);
    cr_assert_float_eq(o.lambda, 1.0 / 3, 16 * TU_EPS);
    cr_assert_eq(ct_ellipsoids(tu_vec(3, 0.5, 1), &xa, tu_vec(0.2, 2, 1), &xb, NULL, &o), CT_OK);
    assert_unit(o.normal);
    cr_assert(o.F == 0 && o.gap < 0 && ct__finite(o.gap) && o.lambda > 0 && o.lambda < 1);
    /* the overlap along the chosen axis is the least among both bodies' principal axes:
       A's short axis (0.5) plus B's extent along it is at most 0.5 + 2 */
    cr_assert(-o.gap <= 2.5 + 16 * TU_EPS);
}

Test(ellipsoid, bad_input_is_invalid_and_zeroes_the_output) {
    ct_pw o;
    ct_xform x = ct_xform_identity(), far = ct_xform_identity();
    ct_vec3 one = tu_vec(1, 1, 1);
    ct_real nan = (ct_real)NAN, g;
    memset(&o, 0x5a, sizeof o);
    cr_assert_eq(ct_ellipsoids(tu_vec(1, nan, 1), NULL, one, &x, NULL, &o), CT_INVALID);
    cr_assert(o.F == 0 && o.gap == 0 && o.normal.x == 0 && o.iterations == 0);
    cr_assert_eq(ct_ellipsoids(one, NULL, tu_vec(1, 1, (ct_real)INFINITY), NULL, NULL, &o), CT_INVALID);
    cr_assert_eq(ct_ellipsoids(tu_vec(1, 0, 1), NULL, one, NULL, NULL, &o), CT_INVALID);
    cr_assert_eq(ct_ellipsoids(one, NULL, tu_vec(1, 1, -2), NULL, NULL, &o), CT_INVALID);
    cr_assert_eq(ct_ellipsoids(one, NULL, one, NULL, NULL, NULL), CT_INVALID);
    x.p.y = nan;
    cr_assert_eq(ct_ellipsoids(one, &x, one, NULL, NULL, &o), CT_INVALID);
    x = ct_xform_identity();
    x.r[0][1] = (ct_real)0.5; /* not a rotation */
    cr_assert_eq(ct_ellipsoids(one, NULL, one, &x, NULL, &o), CT_INVALID);
    x = ct_xform_identity();
    x.p.x = 3;
    g = nan;
    cr_assert_eq(ct_ellipsoids(one, NULL, one, &x, &g, &o), CT_INVALID);
    g = (ct_real)INFINITY;
    cr_assert_eq(ct_ellipsoids(one, NULL, one, &x, &g, &o), CT_INVALID);
    /* finite guesses outside [0,1] are clamped */
    g = 7;
    cr_assert_eq(ct_ellipsoids(one, NULL, one, &x, &g, &o), CT_OK);
    cr_assert_float_eq(o.lambda, 0.5, 16 * TU_EPS);
    /* centres whose difference overflows */
    x.p.x = CT__MAXR / 2 * 3 / 2;
    far.p.x = -x.p.x;
    cr_assert_eq(ct_ellipsoids(one, &far, one, &x, NULL, &o), CT_INVALID);
    cr_assert(o.F == 0);
    /* a semi-axis whose square underflows relative to the largest: degenerate, not a crash */
    x.p.x = 1;
    cr_assert_eq(ct_ellipsoids(tu_vec(1, TU_FLOAT ? 1e-25 : 1e-170, 1), NULL, one, &x, NULL, &o), CT_DEGENERATE);
    cr_assert(o.F == 0 && o.normal.x == 0);
}

Test(ellipsoid, outputs_are_finite_over_extreme_but_valid_inputs) {
    /* huge and tiny scales, very far apart and nearly coincident centres: never NaN */
    unsigned long long seed = 101;
    int k;
    for (k = 0; k < 300; ++k) {
        pair p = rand_pair(&seed, 1000, 1);
        ct_pw o;
        ct_real c = (ct_real)pow(10.0, (TU_FLOAT ? 20 : 200) * (2 * tu_uniform(&seed) - 1));
        ct_real d = (ct_real)pow(10.0, (TU_FLOAT ? 6 : 12) * (2 * tu_uniform(&seed) - 1));
        p.sa = ct__scale(p.sa, c);
        p.sb = ct__scale(p.sb, c);
        p.xa.p = ct__scale(p.xa.p, c);
        p.xb.p = ct__madd(p.xa.p, tu_random_unit(&seed), c * d);
        {
            ct_status st = run(&p, NULL, &o);
            cr_assert(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE, "status %d", st);
            if (st == CT_OK) {
                cr_assert(ct__finite(o.F) && ct__finite(o.gap) && ct__finite3(o.point) && ct__finite(o.lambda));
                assert_unit(o.normal);
            }
        }
    }
}

/* Needs the GJK part (ct_shape_ellipsoid, ct_signed_distance): compiled once it is merged,
   detected by its public CT_GJK_MAX_ITERS macro. Verified against the gjk branch at a134533 and b99ca98. */
#ifdef CT_GJK_MAX_ITERS
Test(ellipsoid, gap_sign_agrees_with_gjk) {
    /* Our GJK/EPA on the same two ct_shape_ellipsoid shapes: the same overlap verdict away from
       tangency, and gap <= signed distance always (the projection gap along any direction is a
       lower bound of the distance when apart, and the projection overlap an upper bound of the
       depth when overlapping; GJK/EPA's polytopes lie inside the Minkowski difference, so their
       answer can only err upwards). */
    unsigned long long seed = 111;
    int k, decisive = 0;
    for (k = 0; k < 300; ++k) {
        pair p = rand_pair(&seed, k < 150 ? 4 : 30, 1.2);
        ct_shape a = ct_shape_ellipsoid(p.sa), b = ct_shape_ellipsoid(p.sb);
        ct_distance d;
        ct_pw o;
        double scale = ct__max(ct__maxabs(p.sa), ct__maxabs(p.sb));
        cr_assert_eq(run(&p, NULL, &o), CT_OK);
        cr_assert_eq(ct_signed_distance(&a, &p.xa, &b, &p.xb, NULL, NULL, &d), CT_OK);
        cr_assert(o.gap <= d.distance + 1e3 * TU_EPS * scale, "gap %g above the signed distance %g", (double)o.gap, (double)d.distance);
        if (fabs(o.F - 1) < 0.02) continue;
        decisive++;
        cr_assert_eq(d.distance < 0, o.gap < 0, "GJK distance %g, PW gap %g, F %g", (double)d.distance, (double)o.gap, (double)o.F);
    }
    cr_assert(decisive > 200);
}
#endif

/* fuzz_ellipsoid (local float runs, 2026-11-28), regress_ellipsoid_warm_start_thin_b and
   regress_ellipsoid_warm_start_bracket_collapse: B 1 x 3e-5 x 3 against a 0.01-0.03 A, F = 3.4e4
   and 9.3e4. Cold, the maximiser is l* ~ 0.9988; warm-started from l = 0.11 (0.18), Newton
   stepped to 0.99889, where G = (1 - l) A^-1 + l B^-1 does not factor in float (B^-1 carries
   the rounding of its largest axis squared, above (1 - l) a_min^2), and the call returned
   CT_DEGENERATE. Such a point now narrows the bracket and the iteration bisects towards the
   middle; a bracket narrowed to two adjacent floats (the second pair) ends at its other end,
   the root to working accuracy. Every start in (0, 1): a status of a converged or capped
   iteration and a finite positive F; in double also F as the cold call's (B's aspect, 1:1e5,
   is beyond float's 1:1e4: S' is noise near the root there, and starts end on different false
   roots). */
Test(ellipsoid, warm_start_across_an_unfactorable_end) {
    static const double semi_a[2][3] = { { 0.024261474609375, 0.027435302734375, 0.02471923828125 },
                                         { 0.024261474609375, 0.011810302734375, 0.027435302734375 } };
    static const double rot_b[2][3][3] = {
        { { 0.11700499057769775, 0.42801326513290405, 0.89616656303405762 },
          { 0.97374123334884644, 0.12799942493438721, -0.18826645612716675 },
          { -0.19528934359550476, 0.89466243982315063, -0.40179753303527832 } },
        { { 0.11649042367935181, 0.42864018678665161, 0.89593392610549927 },
          { 0.97393125295639038, 0.12749111652374268, -0.1876271665096283 },
          { -0.19464820623397827, 0.89443480968475342, -0.40261459350585938 } } };
    static const double guess_at[2] = { 0.113725491, 0.176470593 };
    ct_vec3 sb = tu_vec(0.99859619140625, 3.0517578125e-05, 3);
    int c;
    for (c = 0; c < 2; ++c) {
        static const double ra[3][3] = { { 0.0382629633, 0.215296686, -0.975798845 },
                                         { 0.998132527, 0.0382999182, 0.0475890636 },
                                         { 0.047618866, -0.975797415, -0.213429213 } };
        ct_vec3 sa = tu_vec(semi_a[c][0], semi_a[c][1], semi_a[c][2]);
        ct_xform xa, xb;
        ct_pw cold, warm;
        ct_real guess;
        ct_status st;
        int g;
        tu_printed_rotation(ra, &xa);         /* the fuzzer's floats; in double made */
        tu_printed_rotation(rot_b[c], &xb);   /* orthonormal again */
        xa.p = tu_vec(0.56640625, 1.9971923828125, 6.103515625e-05);
        xb.p = tu_vec(2, 2, 2);
        cr_assert_eq(ct_ellipsoids(sa, &xa, sb, &xb, NULL, &cold), CT_OK);
        for (g = 0; g < 100; ++g) {
            guess = (ct_real)(g ? g / 100.0 : guess_at[c]);
            st = ct_ellipsoids(sa, &xa, sb, &xb, &guess, &warm);
            cr_assert(st == CT_OK || st == CT_NO_CONVERGENCE, "pair %d, guess %g: status %d", c, (double)guess, (int)st);
            cr_assert(warm.F > 0 && isfinite((double)warm.F));
            if (!TU_FLOAT)
                cr_assert_leq(fabs((double)warm.F - (double)cold.F), 1e-6 * (double)cold.F, "pair %d, guess %g: F %g, cold %g", c,
                              (double)guess, (double)warm.F, (double)cold.F);
        }
    }
}
