/* contact.h detail: >>query time of impact - conservative advancement on the GJK distance.

   Each body sweeps from transform x0 to x1 over the fraction lambda in [0, 1]: its origin moves
   on the segment p0 -> p1 and it turns about its origin at a constant rate about the fixed
   world axis of R1 R0^T (screw-free interpolation, as Box2D's b2Sweep). Mirtich's conservative
   advancement (B. Mirtich, "Impulse-based dynamic simulation of rigid body systems", PhD
   thesis, 1996; Box2D's b2TimeOfImpact bounds the same motion): with d the core distance and
   n the unit normal A -> B at lambda, the separation of the bodies along the fixed axis n
   changes by at most mu per unit lambda,
       mu = (dp_a - dp_b) . n + theta_a r_a + theta_b r_b,
   dp the translations, theta the rotation angles, r the largest distance of a core point from
   the body's origin; the distance is at least that separation, so stepping by
   (d - aim) / mu never passes the first time the distance reaches aim. For pure translations
   mu is the exact rate along n and the step is Newton's on the convex function d(lambda)
   (van den Bergen's GJK ray cast argument), exact on polytopes after a few steps.
   The radii are handled on the cores: rounded shapes touch at core distance ra + rb. */

/* Distance tolerance of a TOI, relative to the size of the pair (sum of the bounding-box
   half diagonals): above GJK's relative accuracy (1e3 eps) with a wide margin, and well below
   any contact slop an engine uses (~1e-3 of the size). */
#define CT__TOI_REL ((ct_real)(CT__FLOAT ? 1e-4 : 1e-8))
/* Approach rate bound below which the pair counts as not approaching: rounding of mu, in
   units of the size times the motion. */
#define CT__TOI_RATE ((ct_real)64 * CT__EPS)

/* R = Rot(axis, angle) R0, p = p0 + lambda dp */
typedef struct ct__sweep {
    ct_real r0[3][3];
    ct_vec3 p0, dp, axis;
    ct_real angle;
} ct__sweep;

/* Axis and angle in [0, pi] of the rotation matrix m: sin(angle) axis from the skew part; near
   pi (where that vanishes) the axis comes from the symmetric part, cos I + (1 - cos) a a^T. */
CT__PRIVATE void ct__rot_axis_angle(const ct_real m[3][3], ct_vec3 *axis, ct_real *angle) {
    ct_vec3 v = ct__v3((m[2][1] - m[1][2]) / 2, (m[0][2] - m[2][0]) / 2, (m[1][0] - m[0][1]) / 2);
    ct_real c = ct__clamp((m[0][0] + m[1][1] + m[2][2] - 1) / 2, -1, 1), s = ct__len(v);
    int ok;
    *angle = ct__atan2(s, c);
    if (c > 0) { /* angle below pi/2: the skew part is well conditioned */
        *axis = ct__normalize(v, &ok);
        if (!ok) { *axis = ct__v3(1, 0, 0); *angle = 0; }
        return;
    }
    { /* a a^T = (S - c I) / (1 - c): the column with the largest diagonal, signed by v */
        int k = m[0][0] >= m[1][1] ? (m[0][0] >= m[2][2] ? 0 : 2) : (m[1][1] >= m[2][2] ? 1 : 2);
        ct_vec3 col = ct__v3((m[0][k] + m[k][0]) / 2, (m[1][k] + m[k][1]) / 2, (m[2][k] + m[k][2]) / 2);
        if (k == 0) col.x -= c; else if (k == 1) col.y -= c; else col.z -= c;
        *axis = ct__normalize(col, &ok);
        if (!ok) *axis = ct__v3(1, 0, 0);
        if (ct__dot(*axis, v) < 0) *axis = ct__neg(*axis);
    }
}

CT__PRIVATE void ct__sweep_init(ct__sweep *sw, const ct_xform *x0, const ct_xform *x1) {
    ct_xform a = x0 ? *x0 : ct__xf_identity(), b = x1 ? *x1 : ct__xf_identity();
    ct_real m[3][3];
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            ct_real s = 0;
            for (k = 0; k < 3; ++k) s += b.r[i][k] * a.r[j][k]; /* R1 R0^T */
            m[i][j] = s;
            sw->r0[i][j] = a.r[i][j];
        }
    sw->p0 = a.p;
    sw->dp = ct__sub(b.p, a.p);
    ct__rot_axis_angle((const ct_real(*)[3])m, &sw->axis, &sw->angle);
}

CT__PRIVATE void ct__sweep_at(const ct__sweep *sw, ct_real lambda, ct_xform *out) {
    ct_xform q = ct_xform_from_axis_angle(sw->axis, lambda * sw->angle, ct__v3(0, 0, 0));
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            ct_real s = 0;
            for (k = 0; k < 3; ++k) s += q.r[i][k] * sw->r0[k][j];
            out->r[i][j] = s;
        }
    out->p = lambda == 1 ? ct__add(sw->p0, sw->dp) : ct__madd(sw->p0, sw->dp, lambda);
}

/* Largest distance of a core point from the body's origin (bounded by the local box) and the
   half diagonal of the local box of the rounded shape (the body's size). */
CT__PRIVATE void ct__toi_extent(const ct_shape *s, ct_real *rmax, ct_real *size) {
    ct_aabb b;
    ct_vec3 m;
    ct__aabb_core(s, NULL, &b);
    m = ct__vmax(ct__v3(ct__abs(b.lo.x), ct__abs(b.lo.y), ct__abs(b.lo.z)),
                 ct__v3(ct__abs(b.hi.x), ct__abs(b.hi.y), ct__abs(b.hi.z)));
    *rmax = ct__aabb_norm3(m.x, m.y, m.z);
    *size = ct__aabb_norm3(b.hi.x - b.lo.x, b.hi.y - b.lo.y, b.hi.z - b.lo.z) / 2 + s->radius;
}

/* The advancement loop, arguments checked. target: surface distance at which the cast stops.
   ray: 1 for a ray cast (no hit when starting within target + tol; the fraction is then
   extrapolated from the last step to the surface). */
CT__PRIVATE ct_status ct__toi_run(const ct_shape *a, const ct_xform *xa0, const ct_xform *xa1,
                                  const ct_shape *b, const ct_xform *xb0, const ct_xform *xb1,
                                  ct_real target, int ray, ct_gjk_cache *cache, ct_toi *out) {
    ct__sweep sa, sb;
    ct_shape ca = *a, cb = *b;
    ct_xform xa, xb;
    ct_distance d;
    ct_real ra_max, rb_max, size_a, size_b, tol, aim, lambda = 0, motion;
    ct_real T = target + a->radius + b->radius; /* core distance at which the surfaces reach target */
    ct_vec3 dv, last = ct__v3(0, 0, 0); /* last: the normal of the last step apart */
    int it;
    ca.radius = cb.radius = 0;
    ct__sweep_init(&sa, xa0, xa1);
    ct__sweep_init(&sb, xb0, xb1);
    ct__toi_extent(&ca, &ra_max, &size_a);
    ct__toi_extent(&cb, &rb_max, &size_b);
    tol = CT__TOI_REL * (size_a + size_b + a->radius + b->radius);
    if (!(tol > 0)) tol = CT__TOI_REL * ct__max(ct__maxabs(sa.dp), ct__maxabs(sb.dp)); /* two points */
    aim = T + tol / 2;
    dv = ct__sub(sa.dp, sb.dp);
    motion = ct__len(dv) + sa.angle * ra_max + sb.angle * rb_max;
    for (it = 0; it < CT_TOI_MAX_ITERS; ++it) {
        ct_status st;
        ct_real mu;
        ct__sweep_at(&sa, lambda, &xa);
        ct__sweep_at(&sb, lambda, &xb);
        st = ct_gjk(&ca, &xa, &cb, &xb, cache, &d);
        if (st == CT_INVALID) return st;
        out->iterations = it + 1;
        if (d.distance <= T + tol) { /* reached the target (or started within it) */
            if (ray && lambda == 0) return CT_OK;
            out->hit = 1;
            out->fraction = lambda;
            out->distance = d.distance - a->radius - b->radius;
            if (!(ct__len2(d.normal) > 0) && lambda > 0) {
                /* the cores met exactly (a point reaching a point): the approach direction,
                   the last step's normal, else the relative motion */
                int ok = 1;
                d.normal = ct__len2(last) > 0 ? last : ct__normalize(dv, &ok);
                if (!ok) d.normal = ct__v3(0, 0, 0);
            }
            out->normal = d.normal;
            if (!(ct__len2(d.normal) > 0)) { /* cores overlap at the start: no direction */
                out->pa = d.pa;
                out->pb = d.pb;
                return CT_OK;
            }
            out->pa = ct__madd(d.pa, d.normal, a->radius);
            out->pb = ct__madd(d.pb, d.normal, -b->radius);
            if (ray) {
                /* last Newton step to the surface (exact rate along n: translation only), with
                   the rate's rounding: n comes from pb - pa, whose coordinates are rounded to
                   about eps M (M their magnitude), so n is known to eps M / d and the rate to
                   |dv| times that. The step takes the largest rate it may be (never past the
                   surface) and none when the rate may be 0: a ray grazing a sliver triangle at
                   coordinates 1e3 (float) got n's component along the ray at half its value
                   and stepped 124 past the triangle's end */
                ct_real err = d.distance > 0 ? ct__len(dv) * 64 * CT__EPS * (ct__maxabs(d.pa) + ct__maxabs(d.pb)) / d.distance
                                             : CT__MAXR;
                mu = ct__dot(dv, d.normal);
                if (mu > err) out->fraction = ct__min(1, lambda + (d.distance - T) / (mu + err));
            }
            return CT_OK;
        }
        last = d.normal;
        mu = ct__dot(dv, d.normal) + sa.angle * ra_max + sb.angle * rb_max;
        if (mu <= CT__TOI_RATE * motion) return CT_OK; /* not approaching along n: never closer */
        lambda += (d.distance - aim) / mu;
        if (!(lambda <= 1)) return CT_OK; /* the sweep ends before contact (NaN cannot pass) */
    }
    out->fraction = lambda; /* conservative: not past the first contact */
    return CT_NO_CONVERGENCE;
}

CTDEF ct_status ct_time_of_impact(const ct_shape *a, const ct_xform *xa0, const ct_xform *xa1,
                                  const ct_shape *b, const ct_xform *xb0, const ct_xform *xb1,
                                  ct_real target, ct_gjk_cache *cache, ct_toi *out) {
    ct_status st;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->fraction = 1;
    if (!ct__shape_valid(a) || !ct__shape_valid(b) || !ct__xf_valid(xa0) || !ct__xf_valid(xa1) ||
        !ct__xf_valid(xb0) || !ct__xf_valid(xb1) || !ct__finite(target) || target < 0)
        return CT_INVALID;
    st = ct__toi_run(a, xa0, xa1, b, xb0, xb1, target, 0, cache, out);
    if (st != CT_INVALID && out->hit && (!ct__finite(out->distance) || !ct__finite3(out->normal) ||
                                         !ct__finite3(out->pa) || !ct__finite3(out->pb)))
        st = CT_INVALID; /* a scene beyond the range of ct_real */
    if (st == CT_INVALID) { memset(out, 0, sizeof *out); out->fraction = 1; }
    return st;
}
