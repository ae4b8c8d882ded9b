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

/* Accumulates volume (6x), first moment (24x) and second moment (120x) about h->center. */
CT__PRIVATE void ct__hull_moments(const ct_hull *h, ct__qreal *vol6, ct__qv *m24, ct__qreal c120[3][3]) {
    int f, k, i, j;
    ct__qv o = ct__q_of(h->center);
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
