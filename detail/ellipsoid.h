/* contact.h detail: >>ellipsoid - Perram-Wertheim contact of two ellipsoids.

   References
   [PW85]  J. W. Perram, M. S. Wertheim, "Statistical mechanics of hard ellipsoids. I. Overlap
           algorithm and the contact function", J. Comput. Phys. 58 (1985) 409-416.
   [DTS05] A. Donev, S. Torquato, F. H. Stillinger, "Neighbor list collision-driven molecular
           dynamics simulation for nonspherical hard particles. I. Algorithmic details",
           J. Comput. Phys. 202 (2005) 737-764 (the PW contact function, its derivatives,
           the contact point and normal of two ellipsoids).

   Ellipsoid E_A = {x : (x - r_A)^T A (x - r_A) <= 1}, A = R_A diag(a_i^-2) R_A^T (the inverse
   SQUARED semi-axes), likewise B. With R = r_B - r_A and
       G(l) = (1 - l) A^-1 + l B^-1,   X(l) = G(l)^-1 R,   S(l) = l (1 - l) R^T X(l),
   the contact function is F = max_{l in [0,1]} S(l) [PW85]; the ellipsoids
   scaled by sqrt(F) about their centres touch, so F < 1 overlap, F = 1 tangent, F > 1 apart.
   S is strictly concave with S'(0) = R^T A R > 0 > S'(1) = -R^T B R, so the maximiser l* is
   bracketed in [0,1].

   Derivatives. With u = A^-1 X and v = B^-1 X (so G X = (1-l) u + l v = R), a = X.u, b = X.v:
       S'(l)  = (1 - l)^2 a - l^2 b
   (from S' = (1 - 2l) R.X - l (1 - l) X.(v - u) and R.X = (1-l) a + l b: a difference of two
   non-negative terms, accurate at the root), and with Y = G^-1 (v - u)
   (dX/dl = -Y):
       S''(l) = -2 (1 - l) a - 2 l b - 2 (1 - l)^2 Y.u + 2 l^2 Y.v   (< 0).
   Contact point and normal at l* [PW85, DTS05]: x_C = r_A + (1 - l) A^-1 X = r_B - l B^-1 X is
   where the scaled ellipsoids touch; the gradient of A's form there is 2 (1 - l) X, so the
   normal A -> B is X / |X|.

   Numerics. Everything runs in A's principal frame (A^-1 diagonal; only B^-1 is a full
   symmetric matrix), with every length divided by s = the largest semi-axis and R replaced by
   its unit direction d (S scales with |R|^2, the maximiser does not). G is factored by the
   square-root-free Cholesky factorisation G = L D L^T (no explicit inverse). The iteration is
   Newton on S' = 0, kept inside the shrinking bracket [lo, hi] (any step that leaves it, or a
   non-negative S'', is replaced by bisection). It stops when S' is zero to within its rounding
   (CT__PW_NOISE) or when a step is below CT__PW_RTOL relative to min(l, 1 - l), or when the
   observed quadratic rate predicts an error of a few ulps after the step (the point after that
   step is then evaluated for the outputs), or when a step that small leaves the bracket (the
   root is then within rounding of l). At l*, S' = 0 reads (1-l) |X| h_A(n) = l |X| h_B(n)
   with h the support radii (h_A(n)^2 = n^T A^-1 n) and n the normal, so l* = h_A(n) / (h_A(n)
   + h_B(n)); the cold start l0 = h_A(d) / (h_A(d) + h_B(d)) guesses n = d, which is exact for
   two spheres and whenever the normal lies along the line of centres.
   The same relation brackets the root before any evaluation: h_A(n) lies between A's
   smallest and largest semi-axes a_min, a_max (likewise B), so
       a_min / (a_min + b_max) <= l* <= a_max / (a_max + b_min).
   The iteration starts from that bracket, and any start (the cold guess, a warm guess) is
   clamped into it. Near l = 1, G tends to B^-1, whose conditioning is (b_max / b_min)^2: at
   aspect 1:1e4 in float, G(1) does not factor and G(1 - 1e-5) factors into noise (S' of the
   wrong sign, a false root); the bracket keeps 1 - l >= b_min / (a_max + b_min), where the
   term (1 - l) A^-1 holds G's smallest eigenvalue above (1 - l) a_min^2 (likewise near 0).
   The ends carry no information anyway: S'(0) > 0 > S'(1) always.

   Accuracy degrades like the condition number of G, at most (largest / smallest semi-axis)^2. */

/* Iteration cap (evaluations of S'). Newton with the bisection guard needs a handful (measured:
   1-2 for spheres, about 4-5 for moderate shapes cold, 3-4 warm, up to ~16 at aspect 1:100);
   the cap only stops a pathological case, returning CT_NO_CONVERGENCE with the best estimate. */
#define CT__PW_MAX_ITER 64
/* Relative step tolerance on l: sqrt(eps)/4. The step after one of this size is ~eps. */
#define CT__PW_RTOL (ct__sqrt(CT__EPS) / 4)
/* S' counts as zero within this many ulps of its two terms (1 - l)^2 a + l^2 b. */
#define CT__PW_NOISE (8 * CT__EPS)
/* The semi-axis bracket of l is widened by this many ulps of its ends' rounding. */
#define CT__PW_BRACKET_ULPS (8 * CT__EPS)
/* A Newton step of this many ulps of l (relative) leaves l at the root to working accuracy. */
#define CT__PW_ULPS (4 * CT__EPS)

/* ---- symmetric 3x3 matrices and their L D L^T factorisation -------------------------------
   (general helpers; candidates for math.h) Storage: xx, yy, zz, xy, xz, yz. */
/* m = r diag(w) r^T. */
CT__INLINE void ct__sym3_rdrt(const ct_real r[3][3], ct_vec3 w, ct_real m[6]) {
    static const int ii[6] = { 0, 1, 2, 0, 0, 1 }, jj[6] = { 0, 1, 2, 1, 2, 2 };
    int k;
    for (k = 0; k < 6; ++k) {
        int i = ii[k], j = jj[k];
        m[k] = r[i][0] * r[j][0] * w.x + r[i][1] * r[j][1] * w.y + r[i][2] * r[j][2] * w.z;
    }
}
/* G = L D L^T with unit lower L; stores the reciprocal pivots. 0 when G is not (numerically)
   positive definite. Golub & Van Loan, Matrix Computations, Alg. 4.1.2 (LDL^T). */
typedef struct ct__ldl3 { ct_real l10, l20, l21, id0, id1, id2; } ct__ldl3;
CT__INLINE int ct__ldl3_factor(const ct_real g[6], ct__ldl3 *f) {
    ct_real d0 = g[0], d1, d2;
    if (!(d0 > 0)) return 0;
    f->id0 = 1 / d0;
    f->l10 = g[3] * f->id0;
    f->l20 = g[4] * f->id0;
    d1 = g[1] - f->l10 * g[3];
    if (!(d1 > 0)) return 0;
    f->id1 = 1 / d1;
    f->l21 = (g[5] - f->l20 * g[3]) * f->id1;
    d2 = g[2] - f->l20 * g[4] - f->l21 * f->l21 * d1;
    if (!(d2 > 0)) return 0;
    f->id2 = 1 / d2;
    return ct__finite(f->id0 + f->id1 + f->id2);
}
CT__INLINE ct_vec3 ct__ldl3_solve(const ct__ldl3 *f, ct_vec3 b) {
    ct_real y1 = b.y - f->l10 * b.x;
    ct_real y2 = b.z - f->l20 * b.x - f->l21 * y1;
    ct_real x2 = y2 * f->id2;
    ct_real x1 = y1 * f->id1 - f->l21 * x2;
    ct_real x0 = b.x * f->id0 - f->l10 * x1 - f->l20 * x2;
    return ct__v3(x0, x1, x2);
}

/* ---- the problem in A's scaled principal frame --------------------------------------------- */
typedef struct ct__pw_prob {
    ct_vec3 a2;       /* (a_i / s)^2: A^-1, diagonal in this frame */
    ct_vec3 bd2;      /* (b_i / s)^2: B^-1 in B's principal frame */
    ct_real b2[6];    /* B^-1 = Q diag(bd2) Q^T, Q = R_A^T R_B: only to assemble G */
    ct_real q[3][3];  /* Q */
    ct_vec3 d;        /* unit direction from A's centre to B's */
} ct__pw_prob;

/* B^-1 x and x^T B^-1 x (*quad), through B's principal frame: Q (bd2 * Q^T x). Not with the
   assembled b2: its entries carry rounding of the largest semi-axis squared, which swamps
   the smallest (at aspect 1:1e4 in float, x^T b2 x comes out negative for large x along
   B's thin axis - the wrong sign of S' - and the support radius along that axis is noise). */
CT__INLINE ct_vec3 ct__pw_binv(const ct__pw_prob *p, ct_vec3 x, ct_real *quad) {
    ct_vec3 w = ct__m3_tmul(p->q, x), t = ct__mul(p->bd2, w);
    *quad = ct__dot(w, t);
    return ct__m3_mul(p->q, t);
}

typedef struct ct__pw_point {
    ct_real lam;
    ct__ldl3 f;       /* G(lam) */
    ct_vec3 x, u, v;  /* X = G^-1 d, u = A^-1 X, v = B^-1 X */
    ct_real a, b;     /* X.u, X.v */
    ct_real ds;       /* S'(lam) / |R|^2 */
    ct_real noise;    /* rounding scale of ds */
} ct__pw_point;

/* S'(lam) (per unit |R|^2). 0 when G(lam) cannot be factored. */
CT__INLINE int ct__pw_eval(const ct__pw_prob *p, ct_real lam, ct__pw_point *e) {
    ct_real mu = 1 - lam, g[6];
    g[0] = mu * p->a2.x + lam * p->b2[0];
    g[1] = mu * p->a2.y + lam * p->b2[1];
    g[2] = mu * p->a2.z + lam * p->b2[2];
    g[3] = lam * p->b2[3];
    g[4] = lam * p->b2[4];
    g[5] = lam * p->b2[5];
    e->lam = lam;
    if (!ct__ldl3_factor(g, &e->f)) return 0;
    e->x = ct__ldl3_solve(&e->f, p->d);
    e->u = ct__mul(p->a2, e->x);
    e->v = ct__pw_binv(p, e->x, &e->b);
    e->a = ct__dot(e->x, e->u);
    e->ds = mu * mu * e->a - lam * lam * e->b;
    e->noise = mu * mu * e->a + lam * lam * e->b;
    return ct__finite(e->ds);
}
/* S''(lam) at an evaluated point (one more solve with the same factor). */
CT__INLINE ct_real ct__pw_dds(const ct__pw_point *e) {
    ct_real mu = 1 - e->lam, lam = e->lam;
    ct_vec3 y = ct__ldl3_solve(&e->f, ct__sub(e->v, e->u));
    return -2 * (mu * e->a + lam * e->b) - 2 * mu * mu * ct__dot(y, e->u) + 2 * lam * lam * ct__dot(y, e->v);
}
/* Support radius of the centred ellipsoid with inverse shape matrix m along unit n:
   h(n) = sqrt(n^T m n). */
CT__INLINE ct_real ct__pw_support_a(const ct__pw_prob *p, ct_vec3 n) { return ct__sqrt(ct__dot(n, ct__mul(p->a2, n))); }
CT__INLINE ct_real ct__pw_support_b(const ct__pw_prob *p, ct_vec3 n) {
    ct_real h2;
    (void)ct__pw_binv(p, n, &h2);
    return ct__sqrt(h2);
}

/* The bracket of l* from the semi-axes (see the top of this part), widened by a few ulps of
   its ends' rounding; 1 - hi is formed from b_min directly (1 - hi can be far below 1). */
CT__PRIVATE void ct__pw_bracket(ct_vec3 semi_a, ct_vec3 semi_b, ct_real *lo, ct_real *hi) {
    ct_real amin = ct__min(ct__min(semi_a.x, semi_a.y), semi_a.z), amax = ct__max(ct__max(semi_a.x, semi_a.y), semi_a.z);
    ct_real bmin = ct__min(ct__min(semi_b.x, semi_b.y), semi_b.z), bmax = ct__max(ct__max(semi_b.x, semi_b.y), semi_b.z);
    ct_real shrink = 1 - CT__PW_BRACKET_ULPS;
    *lo = amin / (amin + bmax) * shrink;
    *hi = 1 - bmin / (amax + bmin) * shrink;
}

/* Safeguarded Newton on S'(lam) = 0 from lam, inside the bracket [lo, hi] that holds the
   root. On return *e holds the last evaluation and *iters the number of evaluations.
   When G cannot be factored at the last of max_iter tries: CT_NO_CONVERGENCE with *e the last
   evaluation that factored (beyond float's resolution, aspect ratios past 1:1e4, G factors at
   some lambdas and not at others near them), CT_DEGENERATE when none did. */
CT__PRIVATE ct_status ct__pw_solve(const ct__pw_prob *p, ct_real lam, ct_real lo, ct_real hi, int max_iter,
                                   ct__pw_point *e, int *iters) {
    ct_real prev = 0; /* the last Newton step, 0 after a bisection */
    ct_real good = 0;   /* the last lambda where G factored (when have) */
    int it, small = 0, have = 0;
    for (it = 1;; ++it) {
        ct_real dds, next, step, scale;
        *iters = it;
        if (!ct__pw_eval(p, lam, e)) {
            /* G does not factor here: lam is too near an end for the thin axes (near 1, G ~ B^-1
               carries the rounding of B's largest axis squared, which can swamp (1 - l) a_min^2
               in float: a warm start at l = 0.11 of a pair whose root is 0.9988, B 3 by 3e-5,
               stepped to 0.99889 and failed). The root is on the well-conditioned side of it:
               bisect towards the middle. */
            ct_real mid;
            if (it >= max_iter) return have && ct__pw_eval(p, good, e) ? CT_NO_CONVERGENCE : CT_DEGENERATE;
            if (lam >= (ct_real)0.5) hi = lam;
            else lo = lam;
            mid = (lo + hi) / 2;
            if (!(mid > lo && mid < hi)) {   /* nothing between: the other end is the root */
                mid = lam >= (ct_real)0.5 ? lo : hi;
                small = 1;                    /* evaluated for the outputs, then returned */
            }
            if (mid == lam) return have && ct__pw_eval(p, good, e) ? CT_NO_CONVERGENCE : CT_DEGENERATE;
            lam = mid;
            prev = 0;
            continue;
        }
        have = 1;
        good = lam;
        if (e->ds > 0) lo = lam;
        else hi = lam;
        if (small || ct__abs(e->ds) <= CT__PW_NOISE * e->noise) return CT_OK;
        if (it >= max_iter) return CT_NO_CONVERGENCE;
        dds = ct__pw_dds(e);
        next = lam - e->ds / dds;
        if (!(dds < 0) || !(next > lo && next < hi)) {
            /* A Newton step below the tolerance that leaves the bracket points at a root that
               rounding has put on the wrong side of lam: lam is the root to working accuracy
               (bisecting here would throw it away and crawl back). */
            if (dds < 0 && ct__abs(next - lam) <= CT__PW_RTOL * ct__min(lam, 1 - lam) + CT__PW_ULPS) return CT_OK;
            next = (lo + hi) / 2;
        }
        step = ct__abs(next - lam);
        scale = ct__min(next, 1 - next);
        /* a step of a few ulps: lam already is the root to working accuracy */
        if (step <= CT__PW_ULPS * scale) return CT_OK;
        /* Stop after this step when it is below the relative tolerance, or when the quadratic
           rate seen so far (error after a step ~ K step^2, K ~ step / prev^2) predicts that
           the point it reaches is accurate to a few ulps. */
        small = step <= CT__PW_RTOL * scale + CT__PW_ULPS ||
                (prev > 0 && step < prev && step * step * step <= CT__PW_ULPS * scale * prev * prev);
        prev = next == (lo + hi) / 2 ? 0 : step;
        lam = next;
    }
}

/* Coincident centres (R = 0): every scaled copy overlaps, F = 0. The normal is the principal
   axis (of A or of B) along which the overlap h_A(n) + h_B(n) is smallest. */
CT__PRIVATE void ct__pw_coincident(const ct__pw_prob *p, const ct_real q[3][3], ct_real s,
                                   ct_vec3 *n, ct_real *lam, ct_real *gap) {
    ct_real best = CT__MAXR;
    int k;
    *n = ct__v3(1, 0, 0);
    *lam = (ct_real)0.5;
    for (k = 0; k < 6; ++k) {
        ct_vec3 c = k < 3 ? ct__v3(k == 0, k == 1, k == 2) : ct__v3(q[0][k - 3], q[1][k - 3], q[2][k - 3]);
        ct_real ha = ct__pw_support_a(p, c), hb = ct__pw_support_b(p, c);
        if (ha + hb < best) {
            best = ha + hb;
            *n = c;
            *lam = ha / (ha + hb);
        }
    }
    *gap = -s * best;
}

/* The whole query with an explicit iteration cap (the public entry point uses
   CT__PW_MAX_ITER; tests reach the cap through this). */
CT__PRIVATE ct_status ct__ellipsoids(ct_vec3 semi_a, const ct_xform *xa, ct_vec3 semi_b, const ct_xform *xb,
                                     const ct_real *lambda_guess, int max_iter, ct_pw *out) {
    ct__pw_prob p;
    ct__pw_point e;
    ct_xform rel;
    const ct_xform *q = &rel; /* Q = R_A^T R_B as const (C forbids the implicit conversion) */
    ct_real s, mn, dist, lam, lo, hi, tiny = CT__FLOAT ? (ct_real)FLT_MIN : (ct_real)DBL_MIN;
    ct_vec3 n;
    ct_status st;
    int ok, iters = 0;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    if (!ct__finite3(semi_a) || !ct__finite3(semi_b) || !ct__xf_valid(xa) || !ct__xf_valid(xb))
        return CT_INVALID;
    mn = ct__min(ct__min(ct__min(semi_a.x, semi_a.y), ct__min(semi_a.z, semi_b.x)), ct__min(semi_b.y, semi_b.z));
    if (!(mn > 0)) return CT_INVALID;
    if (lambda_guess && !ct__finite(*lambda_guess)) return CT_INVALID;
    s = ct__max(ct__max(ct__maxabs(semi_a), ct__maxabs(semi_b)), mn);
    /* a semi-axis so much smaller than another that its square underflows: flat, not solid */
    if (!((mn / s) * (mn / s) >= tiny)) return CT_DEGENERATE;
    rel = ct__xf_rel(xa, xb);
    if (!ct__finite3(rel.p)) return CT_INVALID; /* centres too far apart to subtract */
    p.a2 = ct__mul(ct__unscale(semi_a, s), ct__unscale(semi_a, s));   /* not * (1 / s): overflows for subnormal s */
    semi_b = ct__unscale(semi_b, s);
    p.bd2 = ct__mul(semi_b, semi_b);
    ct__sym3_rdrt(q->r, p.bd2, p.b2);
    memcpy(p.q, q->r, sizeof p.q);
    p.d = ct__normalize(rel.p, &ok);
    dist = ct__dot(rel.p, p.d); /* |R| without a second square root */
    if (!ct__finite(dist)) return CT_INVALID;

    if (!ok) {
        ct_real gap;
        ct__pw_coincident(&p, q->r, s, &n, &lam, &gap);
        out->F = 0;
        out->lambda = lam;
        out->normal = ct__xf_dir(xa, n);
        out->point = ct__xf_point(xa, ct__v3(0, 0, 0));
        out->gap = gap;
        out->iterations = 0;
        return CT_OK;
    }
    ct__pw_bracket(ct__unscale(semi_a, s), semi_b, &lo, &hi);
    if (lambda_guess) {
        lam = *lambda_guess;
    } else {
        ct_real ha = ct__pw_support_a(&p, p.d), hb = ct__pw_support_b(&p, p.d);
        lam = ha / (ha + hb);
    }
    lam = ct__clamp(lam, lo, hi);
    st = ct__pw_solve(&p, lam, lo, hi, max_iter < 1 ? 1 : max_iter, &e, &iters);
    if (st == CT_DEGENERATE) return st;
    lam = e.lam;
    n = ct__normalize(e.x, &ok);
    if (!ok) return CT_DEGENERATE;
    {
        ct_real rho = dist / s, F = rho * rho * lam * (1 - lam) * ct__dot(p.d, e.x);
        ct_real ha = ct__pw_support_a(&p, n), hb = ct__pw_support_b(&p, n);
        out->F = ct__finite(F) ? F : CT__MAXR;
        out->lambda = lam;
        out->normal = ct__xf_dir(xa, n);
        /* x_C = r_A + (1 - l) A^-1 X with X = G^-1 R = |R| G^-1 d (lengths back in world units) */
        out->point = ct__xf_point(xa, ct__scale(e.u, (1 - lam) * dist));
        out->gap = dist * ct__dot(p.d, n) - s * (ha + hb);
        out->iterations = iters;
    }
    return st;
}

CTDEF ct_status ct_ellipsoids(ct_vec3 semi_a, const ct_xform *xa, ct_vec3 semi_b, const ct_xform *xb,
                              const ct_real *lambda_guess, ct_pw *out) {
    return ct__ellipsoids(semi_a, xa, semi_b, xb, lambda_guess, CT__PW_MAX_ITER, out);
}
