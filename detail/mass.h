/* contact.h detail: >>mass - volume, centroid and inertia of a convex hull.

   Each face is fanned into triangles from its first vertex and each triangle coned to the
   hull's center, so the solid splits into tetrahedra (0, a, b, c) in center-relative
   coordinates. For such a tetrahedron, with D = a . (b x c):
     volume    D / 6
     centroid  (a + b + c) / 4
     second moment  C = D / 120 * (a a^T + b b^T + c c^T + s s^T),  s = a + b + c
   (the canonical-tetrahedron covariance mapped by the affine transform; Tonon 2004,
   "Explicit exact formulas for the 3-D tetrahedron inertia tensor"; Blow & Binstock 2004).
   The sums are exact for polyhedra; working relative to the center keeps them accurate far
   from the origin. The inertia about the centroid is trace(C') I - C' with C' the second
   moment shifted to the centroid (parallel-axis theorem). */

/* Accumulates volume (6x), first moment (24x) and second moment (120x) about h->center. */
CT__PRIVATE void ct__hull_moments(const ct_hull *h, ct_real *vol6, ct_vec3 *m24, ct_real c120[3][3]) {
    int f, k, i, j;
    *vol6 = 0;
    *m24 = ct__v3(0, 0, 0);
    if (c120) memset(c120, 0, 9 * sizeof(ct_real));
    for (f = 0; f < h->nfaces; ++f) {
        int k0 = h->face_first[f];
        ct_vec3 a = ct__sub(h->verts[h->face_verts[k0]], h->center);
        for (k = k0 + 1; k + 1 < h->face_first[f + 1]; ++k) {
            ct_vec3 b = ct__sub(h->verts[h->face_verts[k]], h->center);
            ct_vec3 c = ct__sub(h->verts[h->face_verts[k + 1]], h->center);
            ct_real D = ct__dot(a, ct__cross(b, c));
            ct_vec3 s = ct__add(a, ct__add(b, c));
            *vol6 += D;
            *m24 = ct__madd(*m24, s, D);
            if (c120) {
                ct_real va[3] = { a.x, a.y, a.z }, vb[3] = { b.x, b.y, b.z }, vc[3] = { c.x, c.y, c.z },
                        vs[3] = { s.x, s.y, s.z };
                for (i = 0; i < 3; ++i)
                    for (j = 0; j < 3; ++j)
                        c120[i][j] += D * (va[i] * va[j] + vb[i] * vb[j] + vc[i] * vc[j] + vs[i] * vs[j]);
            }
        }
    }
}

CTDEF ct_real ct_hull_volume(const ct_hull *h, ct_vec3 *centroid) {
    ct_real v6;
    ct_vec3 m24;
    if (!h || h->nfaces <= 0) {
        if (centroid) *centroid = ct__v3(0, 0, 0);
        return 0;
    }
    ct__hull_moments(h, &v6, &m24, NULL);
    if (centroid) *centroid = v6 > 0 ? ct__add(h->center, ct__scale(m24, (ct_real)0.25 / v6)) : h->center;
    return v6 / 6;
}

CTDEF void ct_hull_mass(const ct_hull *h, ct_real density, ct_real *mass, ct_vec3 *centroid,
                        ct_real inertia[3][3]) {
    ct_real v6, c120[3][3], C[3][3], tr, m;
    ct_vec3 m24, x;
    int i, j;
    if (!h || h->nfaces <= 0 || !ct__finite(density)) {
        if (mass) *mass = 0;
        if (centroid) *centroid = h ? h->center : ct__v3(0, 0, 0);
        if (inertia) memset(inertia, 0, 9 * sizeof(ct_real));
        return;
    }
    ct__hull_moments(h, &v6, &m24, c120);
    m = density * v6 / 6;
    x = v6 > 0 ? ct__scale(m24, (ct_real)0.25 / v6) : ct__v3(0, 0, 0);   /* centroid - center */
    if (mass) *mass = m;
    if (centroid) *centroid = ct__add(h->center, x);
    if (!inertia) return;
    {
        ct_real vx[3] = { x.x, x.y, x.z };
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) C[i][j] = density * c120[i][j] / 120 - m * vx[i] * vx[j];
    }
    tr = C[0][0] + C[1][1] + C[2][2];
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) inertia[i][j] = (i == j ? tr : 0) - C[i][j];
}
