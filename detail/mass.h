/* contact.h detail: >>quickhull - mass properties: volume, centroid and inertia of a convex hull.

   Each face is fanned into triangles from its first vertex and each triangle coned to the
   hull's center, so the solid splits into tetrahedra (0, a, b, c) in center-relative
   coordinates. For such a tetrahedron, with D = a . (b x c):
     volume    D / 6
     centroid  (a + b + c) / 4
     second moment  C = D / 120 * (a a^T + b b^T + c c^T + s s^T),  s = a + b + c
   (the canonical-tetrahedron covariance mapped by the affine transform; Tonon 2004,
   "Explicit exact formulas for the 3-D tetrahedron inertia tensor"; Blow & Binstock 2004).
   The sums are exact for polyhedra; working relative to the hull's centre (h->center) keeps them accurate far
   from the origin. They are accumulated in quickhull's working precision (double also in a
   float build), so a float hull of extent 1e30 has a volume of +inf, not NaN. The inertia about the centroid is trace(C') I - C' with C' the second
   moment shifted to the centroid (parallel-axis theorem). */

/* ---- exact volume and first moment of ill-conditioned hulls ------------------------------
   A needle (0.2 thick, 1.6e7 long) has cone products a . (b x c) of vectors 1.4e7 long whose
   sum, its volume, is below their rounding: the fan sum gave -14852 for +645. When the sum is
   not clearly above the bound of its rounding error, volume and first moment are recomputed
   exactly from the vertices (about the origin: the sum over a closed surface does not depend
   on it): each determinant as 24 exact triple products (a product x y is p + e with e =
   fma(x, y, -p)), summed by Shewchuk's Grow-Expansion (a list of non-overlapping doubles whose
   sum is exact; Shewchuk, "Adaptive precision floating-point arithmetic and fast robust
   geometric predicates", DCG 1997). The coordinates are scaled by a power of two first, so
   the products neither overflow nor underflow. */
#define CT__XSUM_MAX 128
#define CT__VOL_REL 1e-7   /* relative error bound the fan sums must meet, else the exact sums */
typedef struct ct__xsum { double e[CT__XSUM_MAX]; int n; } ct__xsum;

CT__INLINE void ct__xsum_two_sum(double a, double b, double *s, double *t) {
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    *t = (a - av) + (b - bv);
}
/* x += b, exactly while the expansion has room (it stays a few terms long in practice; when
   full, its two smallest terms are merged, a rounding far below the result's). */
CT__PRIVATE void ct__xsum_add(ct__xsum *x, double b) {
    double q = b, h;
    int i, m = 0;
    if (b == 0) return;
    if (x->n == CT__XSUM_MAX) {
        x->e[1] += x->e[0];
        for (i = 1; i < x->n; ++i) x->e[i - 1] = x->e[i];
        --x->n;
    }
    for (i = 0; i < x->n; ++i) {
        ct__xsum_two_sum(q, x->e[i], &q, &h);
        if (h != 0) x->e[m++] = h;
    }
    if (q != 0) x->e[m++] = q;
    x->n = m;
}
/* x += s a b c exactly (s = +-1): a b = p + e, then p c and e c likewise. */
CT__PRIVATE void ct__xsum_add3(ct__xsum *x, double s, double a, double b, double c) {
    double p = a * b, e = fma(a, b, -p), q1 = p * c, q2 = e * c;
    ct__xsum_add(x, s * q1);
    ct__xsum_add(x, s * fma(p, c, -q1));
    ct__xsum_add(x, s * q2);
    ct__xsum_add(x, s * fma(e, c, -q2));
}
CT__INLINE double ct__xsum_value(const ct__xsum *x) {
    double v = 0;
    int i;
    for (i = 0; i < x->n; ++i) v += x->e[i];   /* smallest first */
    return v;
}

/* The exact 6 x volume and 24 x first moment (about the origin) of the closed polyhedron
   with vertices verts[0..nverts) and faces face_first / face_verts (as in ct_hull). */
CT__PRIVATE void ct__moments_exact(const ct_vec3 *verts, int nverts, const int *face_first, const int *face_verts,
                                   int nfaces, double *vol6, double m24[3]) {
    ct__xsum v, m[3];
    double big = 0, sc;
    int f, k, i, j, e;
    for (k = 0; k < nverts; ++k) big = ct__q_max(big, (double)ct__maxabs(verts[k]));
    (void)frexp(big, &e);
    sc = ldexp(1.0, -e);
    v.n = m[0].n = m[1].n = m[2].n = 0;
    for (f = 0; f < nfaces; ++f) {
        int k0 = face_first[f];
        for (k = k0 + 1; k + 1 < face_first[f + 1]; ++k) {
            const ct_vec3 *pv[3];
            double t[3][3];
            ct__xsum d;
            pv[0] = &verts[face_verts[k0]];
            pv[1] = &verts[face_verts[k]];
            pv[2] = &verts[face_verts[k + 1]];
            for (i = 0; i < 3; ++i) {
                t[i][0] = (double)pv[i]->x * sc; t[i][1] = (double)pv[i]->y * sc; t[i][2] = (double)pv[i]->z * sc;
            }
            /* D = a . (b x c): six signed triple products */
            d.n = 0;
            for (i = 0; i < 3; ++i) {
                int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
                ct__xsum_add3(&d, 1, t[0][i], t[1][i1], t[2][i2]);
                ct__xsum_add3(&d, -1, t[0][i], t[1][i2], t[2][i1]);
            }
            for (j = 0; j < d.n; ++j) {
                ct__xsum_add(&v, d.e[j]);
                for (i = 0; i < 3; ++i) {   /* D (a_i + b_i + c_i), each product exact */
                    int c;
                    for (c = 0; c < 3; ++c) {
                        double p = d.e[j] * t[c][i];
                        ct__xsum_add(&m[i], p);
                        ct__xsum_add(&m[i], fma(d.e[j], t[c][i], -p));
                    }
                }
            }
        }
    }
    *vol6 = ldexp(ct__xsum_value(&v), 3 * e);
    for (i = 0; i < 3; ++i) m24[i] = ldexp(ct__xsum_value(&m[i]), 4 * e);
}

/* Accumulates volume (6x), first moment (24x) and second moment (120x) about h->center. */
CT__PRIVATE void ct__hull_moments(const ct_hull *h, ct__qreal *vol6, ct__qv *m24, ct__qreal c120[3][3]) {
    int f, k, i, j, ntri = 0;
    ct__qv o = ct__q_of(h->center);
    ct__qreal mag = 0, absd = 0;   /* sums over the cones of |a| |b| |c| (max norms) and of |D|:
                                      the scales of the cone products' rounding and of the sum's */
    *vol6 = 0;
    *m24 = ct__q_v3(0, 0, 0);
    if (c120) memset(c120, 0, 9 * sizeof(ct__qreal));
    for (f = 0; f < h->nfaces; ++f) {
        int k0 = h->face_first[f];
        ct__qv a = ct__q_sub(ct__q_of(h->verts[h->face_verts[k0]]), o);
        for (k = k0 + 1; k + 1 < h->face_first[f + 1]; ++k) {
            ct__qv b = ct__q_sub(ct__q_of(h->verts[h->face_verts[k]]), o);
            ct__qv c = ct__q_sub(ct__q_of(h->verts[h->face_verts[k + 1]]), o);
            ct__qreal D = ct__q_dot(a, ct__q_cross(b, c));
            ct__qv s = ct__q_add(a, ct__q_add(b, c));
            mag += ct__q_max(ct__q_max(ct__q_abs(a.x), ct__q_abs(a.y)), ct__q_abs(a.z)) *
                   ct__q_max(ct__q_max(ct__q_abs(b.x), ct__q_abs(b.y)), ct__q_abs(b.z)) *
                   ct__q_max(ct__q_max(ct__q_abs(c.x), ct__q_abs(c.y)), ct__q_abs(c.z));
            absd += ct__q_abs(D);
            ++ntri;
            *vol6 += D;
            *m24 = ct__q_madd(*m24, s, D);
            if (c120) {
                ct__qreal va[3] = { a.x, a.y, a.z }, vb[3] = { b.x, b.y, b.z }, vc[3] = { c.x, c.y, c.z },
                        vs[3] = { s.x, s.y, s.z };
                for (i = 0; i < 3; ++i)
                    for (j = 0; j < 3; ++j)
                        c120[i][j] += D * (va[i] * va[j] + vb[i] * vb[j] + vc[i] * vc[j] + vs[i] * vs[j]);
            }
        }
    }
    /* Each cone's D is within 16 eps |a| |b| |c| of the exact one (its six products and their
       sums, and the corners' own rounding), and the sum adds at most ntri eps sum |D|: a volume
       whose error bound exceeds CT__VOL_REL of it (a needle, a sliver; a round hull of 1e6
       vertices stays near 1e-9) is recomputed exactly (volume and first moment; the second
       moment keeps the fan sums). */
    if (!((ct__qreal)16 * (ct__qreal)DBL_EPSILON * mag + (ct__qreal)(ntri + 4) * (ct__qreal)DBL_EPSILON * absd <=
          (ct__qreal)CT__VOL_REL * *vol6) && (double)mag <= DBL_MAX) {
        double v6, m[3];
        ct__moments_exact(h->verts, h->nverts, h->face_first, h->face_verts, h->nfaces, &v6, m);
        if (ct__q_abs((ct__qreal)v6) <= (ct__qreal)DBL_MAX) {
            *vol6 = (ct__qreal)v6;
            /* about the centre: 24 M1 - 4 V6 o, rounded once more (eps of the coordinates) */
            *m24 = ct__q_v3((ct__qreal)(m[0] - 4 * v6 * (double)o.x), (ct__qreal)(m[1] - 4 * v6 * (double)o.y),
                            (ct__qreal)(m[2] - 4 * v6 * (double)o.z));
        }
    }
}

CTDEF ct_real ct_hull_volume(const ct_hull *h, ct_vec3 *centroid) {
    ct__qreal v6;
    ct__qv m24;
    if (!h || h->nfaces <= 0) {
        if (centroid) *centroid = ct__v3(0, 0, 0);
        return 0;
    }
    ct__hull_moments(h, &v6, &m24, NULL);
    if (centroid) *centroid = v6 > 0 ? ct__q_out(ct__q_add(ct__q_of(h->center), ct__q_scale(m24, (ct__qreal)0.25 / v6))) : h->center;
    return (ct_real)(v6 / 6);
}

CTDEF void ct_hull_mass(const ct_hull *h, ct_real density, ct_real *mass, ct_vec3 *centroid,
                        ct_real inertia[3][3]) {
    ct__qreal v6, c120[3][3], C[3][3], tr, m, rho = (ct__qreal)density;
    ct__qv m24, x;
    int i, j;
    if (!h || h->nfaces <= 0 || !ct__finite(density)) {
        if (mass) *mass = 0;
        if (centroid) *centroid = h ? h->center : ct__v3(0, 0, 0);
        if (inertia) memset(inertia, 0, 9 * sizeof(ct_real));
        return;
    }
    ct__hull_moments(h, &v6, &m24, c120);
    m = rho * v6 / 6;
    x = v6 > 0 ? ct__q_scale(m24, (ct__qreal)0.25 / v6) : ct__q_v3(0, 0, 0);   /* centroid - center */
    if (mass) *mass = (ct_real)m;
    if (centroid) *centroid = ct__q_out(ct__q_add(ct__q_of(h->center), x));
    if (!inertia) return;
    {
        ct__qreal vx[3];
        vx[0] = x.x; vx[1] = x.y; vx[2] = x.z;
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) C[i][j] = rho * c120[i][j] / 120 - m * vx[i] * vx[j];
    }
    tr = C[0][0] + C[1][1] + C[2][2];
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) inertia[i][j] = (ct_real)((i == j ? tr : 0) - C[i][j]);
}
