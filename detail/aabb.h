/* contact.h detail: >>query shape AABBs - the bounding box of any ct_shape under a transform.

   Analytic kinds in closed form: a box's half width along world axis i is sum_j |R_ij| h_j,
   an ellipsoid's is sqrt(sum_j (R_ij a_j)^2) (the support function h(e_i) = |A R^T e_i|),
   a sphere's its radius. Vertex kinds (points, triangles, small hulls) scan their vertices;
   large hulls and support-function shapes take the six axis supports (exact: the support
   along +-e_i is the extreme point along e_i). Rounded shapes add the radius on every side. */

/* Hulls with more vertices than this take six hill-climbing supports instead of a scan. */
#define CT__AABB_SCAN 64

/* sqrt(x^2 + y^2 + z^2) without overflow or underflow: scaled by the largest term first. */
CT__INLINE ct_real ct__aabb_norm3(ct_real x, ct_real y, ct_real z) {
    ct_vec3 v = ct__v3(x, y, z);
    ct_real m = ct__maxabs(v);
    if (!(m > 0)) return 0;
    return m * ct__len(ct__unscale(v, m));
}

/* Box of the core in the frame of x (local frame when x is NULL), radius not included. */
CT__PRIVATE void ct__aabb_core(const ct_shape *s, const ct_xform *x, ct_aabb *out) {
    ct_xform id = ct__xf_identity();
    const ct_xform *t = x ? x : &id;
    ct_vec3 c = t->p, h;
    int i, j;
    switch (s->type) {
    case CT_SHAPE_SPHERE:
        out->lo = out->hi = c;
        return;
    case CT_SHAPE_BOX:
    case CT_SHAPE_ELLIPSOID: {
        ct_vec3 a = s->ct__v[0];
        ct_real w[3];
        for (i = 0; i < 3; ++i) {
            const ct_real *r = t->r[i];
            w[i] = s->type == CT_SHAPE_BOX
                 ? ct__abs(r[0]) * a.x + ct__abs(r[1]) * a.y + ct__abs(r[2]) * a.z
                 : ct__aabb_norm3(r[0] * a.x, r[1] * a.y, r[2] * a.z);
        }
        h = ct__v3(w[0], w[1], w[2]);
        out->lo = ct__sub(c, h);
        out->hi = ct__add(c, h);
        return;
    }
    case CT_SHAPE_POINTS:
    case CT_SHAPE_TRIANGLE:
    case CT_SHAPE_HULL:
        if (s->type != CT_SHAPE_HULL || ct__shape_nids(s) <= CT__AABB_SCAN) {
            int n = ct__shape_nids(s);
            out->lo = out->hi = ct__xf_point(t, ct__shape_vertex(s, 0));
            for (i = 1; i < n; ++i) {
                ct_vec3 p = ct__xf_point(t, ct__shape_vertex(s, i));
                out->lo = ct__vmin(out->lo, p);
                out->hi = ct__vmax(out->hi, p);
            }
            return;
        }
        break;
    default:
        break;
    }
    { /* large hulls and support shapes: the six axis supports */
        ct_real lo[3], hi[3];
        int id = -1;
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 2; ++j) {
                /* the local direction of world axis e_i is row i of R */
                ct_vec3 d = ct__v3(t->r[i][0], t->r[i][1], t->r[i][2]);
                ct_vec3 p = ct__xf_point(t, ct__shape_support(s, j ? d : ct__neg(d), &id));
                if (j) hi[i] = ct__vget(p, i); else lo[i] = ct__vget(p, i);
            }
        out->lo = ct__v3(lo[0], lo[1], lo[2]);
        out->hi = ct__v3(hi[0], hi[1], hi[2]);
    }
}

CTDEF ct_status ct_shape_aabb(const ct_shape *s, const ct_xform *x, ct_aabb *out) {
    ct_aabb b;
    ct_vec3 r;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    if (!ct__shape_valid(s) || !ct__xf_valid(x)) return CT_INVALID;
    ct__aabb_core(s, x, &b);
    r = ct__v3(s->radius, s->radius, s->radius);
    b.lo = ct__sub(b.lo, r);
    b.hi = ct__add(b.hi, r);
    /* a support function returning NaN/Inf, or a box beyond the range of ct_real */
    if (!ct__finite3(b.lo) || !ct__finite3(b.hi) || !(b.lo.x <= b.hi.x && b.lo.y <= b.hi.y && b.lo.z <= b.hi.z))
        return CT_INVALID;
    *out = b;
    return CT_OK;
}
