/* fuzz-ci-runs: 500000 */
/* Fuzz ct_ellipsoids (cold and with a lambda_guess, including guesses outside [0,1]). Semi-axes
   from the shared decoder (NaN, Inf, zero, negative, subnormal, huge; equal axes = spheres),
   rigid or broken transforms. Checks: CT_INVALID exactly for bad arguments (unless the centres
   are too far apart to subtract); on CT_OK (and on CT_NO_CONVERGENCE, the best estimate)
   F >= 0 finite, lambda in [0,1], unit normal, finite point and gap; sign(gap) == sign(F - 1)
   away from tangency; gap == R.n (1 - 1/sqrt(F)); for two spheres F and gap in closed form;
   a warm start and swapping A and B give the same F (lambda -> 1 - lambda, normal negated). */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_check_pw(const ct_pw *p) {
#ifdef FZ_DEBUG
    fprintf(stderr, "check: F %.9g lambda %.9g gap %.9g n %g %g %g point %g %g %g it %d\n", (double)p->F, (double)p->lambda,
            (double)p->gap, (double)p->normal.x, (double)p->normal.y, (double)p->normal.z, (double)p->point.x,
            (double)p->point.y, (double)p->point.z, p->iterations);
#endif
    FZ_CHECK(fz_finite((double)p->F) && p->F >= 0);
    FZ_CHECK(p->lambda >= 0 && p->lambda <= 1);
    FZ_CHECK(fz_unit(p->normal));
    FZ_CHECK(fz_finite3(p->point) && fz_finite((double)p->gap));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    double scale = fz_scale(&f), amin, amax, Rn, tol, relF, S;
    ct_vec3 sa, sb, R;
    ct_xform xa, xb;
    const ct_xform *pa, *pb;
    int ra, rb, valid, sphere, singular;
    unsigned flags = fz_byte(&f);
    ct_real guess;
    ct_pw p, q;
    ct_status st, st2;
    if (flags & 1) { /* spheres, sometimes of equal radii */
        ct_real r1 = fz_real(&f, scale), r2 = flags & 2 ? r1 : fz_real(&f, scale);
        sa = ct__v3(r1, r1, r1);
        sb = ct__v3(r2, r2, r2);
    } else {
        sa = fz_vec(&f, scale);
        sb = fz_vec(&f, scale);
    }
    sphere = sa.x == sa.y && sa.y == sa.z && sb.x == sb.y && sb.y == sb.z;
    xa = fz_xform_r(&f, scale * 2, &ra);
    xb = fz_xform_r(&f, scale * 2, &rb);
    pa = flags & 4 ? NULL : &xa;
    pb = flags & 8 ? NULL : &xb;
    guess = flags & 16 ? fz_real(&f, 1) : (ct_real)((double)fz_byte(&f) / 255.0);
    amin = fmin(fmin(fmin((double)sa.x, (double)sa.y), fmin((double)sa.z, (double)sb.x)), fmin((double)sb.y, (double)sb.z));
    amax = fmax(fz_maxabs(&sa, 1), fz_maxabs(&sb, 1));
    valid = fz_finite3(sa) && fz_finite3(sb) && amin > 0 && (!pa || (ra && fz_finite3(xa.p))) &&
            (!pb || (rb && fz_finite3(xb.p)));
    S = amax + (pa ? fz_maxabs(&xa.p, 1) : 0) + (pb ? fz_maxabs(&xb.p, 1) : 0);

    st = ct_ellipsoids(sa, pa, sb, pb, NULL, &p);
#ifdef FZ_DEBUG
    fprintf(stderr, "semi a %.17g %.17g %.17g b %.17g %.17g %.17g pa %d pb %d st %d F %.17g lambda %.17g gap %.17g n %g %g %g it %d\n",
            (double)sa.x, (double)sa.y, (double)sa.z, (double)sb.x, (double)sb.y, (double)sb.z, pa != NULL, pb != NULL, st,
            (double)p.F, (double)p.lambda, (double)p.gap, (double)p.normal.x, (double)p.normal.y, (double)p.normal.z, p.iterations);
    if (pa) fprintf(stderr, "xa p %.17g %.17g %.17g\n", (double)xa.p.x, (double)xa.p.y, (double)xa.p.z);
    if (pb) fprintf(stderr, "xb p %.17g %.17g %.17g r %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", (double)xb.p.x,
                    (double)xb.p.y, (double)xb.p.z, (double)xb.r[0][0], (double)xb.r[0][1], (double)xb.r[0][2],
                    (double)xb.r[1][0], (double)xb.r[1][1], (double)xb.r[1][2], (double)xb.r[2][0], (double)xb.r[2][1],
                    (double)xb.r[2][2]);
    fprintf(stderr, "guess %.17g\n", (double)guess);
#endif
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE || st == CT_NO_CONVERGENCE);
    if (!valid) FZ_CHECK(st == CT_INVALID);
    if (valid && S <= FZ_BIG) FZ_CHECK(st != CT_INVALID);
    if (st == CT_INVALID || st == CT_DEGENERATE) return 0;
    fz_check_pw(&p);
    if (st != CT_OK || S > FZ_BIG) return 0;

    /* accuracy degrades like the aspect ratio squared */
    relF = 1e3 * FZ_EPS * (amax / amin) * (amax / amin);
    R = ct__sub(pb ? xb.p : ct__v3(0, 0, 0), pa ? xa.p : ct__v3(0, 0, 0));
    Rn = (double)ct__dot(R, p.normal);
    tol = 1e3 * FZ_EPS * S + relF * fabs(Rn);
    if (p.F > 0 && relF < 1e-2) {
        if (fabs((double)p.F - 1) > 10 * relF) FZ_CHECK((p.gap > 0) == (p.F > 1));
        FZ_CHECK(fabs((double)p.gap - Rn * (1 - 1 / sqrt((double)p.F))) <= tol + relF * fabs(Rn / sqrt((double)p.F)));
    }
    if (sphere && relF < 1e-2) { /* closed form: F = (|R| / (ra + rb))^2, gap = |R| - ra - rb */
        long double rx = R.x, ry = R.y, rz = R.z; /* long double: no underflow for subnormal R */
        double d = (double)sqrtl(rx * rx + ry * ry + rz * rz), s = (double)sa.x + (double)sb.x;
        double F = (d / s) * (d / s);
        if (F > (double)CT__MAXR) FZ_CHECK(p.F == CT__MAXR); /* saturates where ct_real overflows */
        else FZ_CHECK(fabs((double)p.F - F) <= 1e3 * FZ_EPS * (F + 1) + 1e3 * FZ_EPS * (S / s) * (S / s));
        FZ_CHECK(fabs((double)p.gap - (d - s)) <= 1e3 * FZ_EPS * S);
    }

    /* Where G's condition (the aspect ratio squared) reaches 1e-2 / eps, G factors at some
       lambdas and not at others next to them, and another path (a warm start, the swapped pair)
       may meet only failures: CT_DEGENERATE, as contact.h documents ("G never factors in working
       precision"; float needles of 1:32700, a 70 s local run). Not below that. */
    singular = (amax / amin) * (amax / amin) * FZ_EPS >= 1e-2;

    /* warm start: the same maximiser */
    st2 = ct_ellipsoids(sa, pa, sb, pb, &guess, &q);
    if (!fz_finite((double)guess)) {
        FZ_CHECK(st2 == CT_INVALID);
        st2 = ct_ellipsoids(sa, pa, sb, pb, NULL, &q);
    }
    FZ_CHECK(st2 == CT_OK || st2 == CT_NO_CONVERGENCE || (st2 == CT_DEGENERATE && singular));
    if (st2 != CT_DEGENERATE) fz_check_pw(&q);
    if (st2 == CT_OK && relF < 1e-2) FZ_CHECK(fabs((double)q.F - (double)p.F) <= 1e2 * relF * ((double)p.F + FZ_EPS));

    /* swapped: lambda -> 1 - lambda, normal negated, same F */
    st2 = ct_ellipsoids(sb, pb, sa, pa, NULL, &q);
    FZ_CHECK(st2 == CT_OK || st2 == CT_NO_CONVERGENCE || (st2 == CT_DEGENERATE && singular));
    if (st2 != CT_DEGENERATE) fz_check_pw(&q);
    if (st2 == CT_OK && relF < 1e-2) {
        FZ_CHECK(fabs((double)q.F - (double)p.F) <= 1e2 * relF * ((double)p.F + FZ_EPS));
        if (p.F > 0) FZ_CHECK(fabs((double)q.lambda - (1 - (double)p.lambda)) <= 1e2 * sqrt(relF));
    }
    return 0;
}
