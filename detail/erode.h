/* contact.h detail: >>pfc - erosion of a convex block (PFC's rblock "erode"): the core whose
   Minkowski sum with a ball of radius r is the block with its edges and vertices rounded.

   Each face plane n.x + d <= 0 is moved inwards by r (n.x + d + r <= 0) and the core is the
   intersection of the moved halfspaces: the polar (dual) construction of detail/polar.h on
   one body's planes, about their Chebyshev centre (the deepest point, found by the same LP).
   Faces whose moved plane no longer touches the intersection vanish (their dual points fall
   inside the dual hull). Core (+) ball lies inside the block and touches every face that
   survives; it misses the block's sharp edges and vertices only.

   Volume of the rounded block (Steiner's formula for a convex polyhedron C):
     V(C (+) rB) = V(C) + A(C) r + (sum over edges of length x exterior angle) r^2 / 2 + 4/3 pi r^3
   with the exterior angle of an edge the angle between its two faces' normals. */

/* The block's face plane j moved inwards by radius (world frame). */
CT__INLINE ct_plane ct__erode_plane(const ct_hull *h, int j, ct_real radius) {
    ct_plane q;
    ct_real l = ct__len(h->planes[j].n);
    q.n = ct__scale(h->planes[j].n, 1 / l);
    q.d = h->planes[j].d / l + radius;
    return q;
}

/* The dual hull places the core to its own tolerance, which can leave a vertex beyond a moved
   plane: a plane it left out although it cuts (ct__polar_build's lost: a sliver face between two
   vertices 2e-10 apart of a block of extent 16 left a core vertex 1.95e-10 outside the block at
   radius 0), or one of the near-coplanar planes meeting at a dual face's vertex, which one
   triple placed (1.8e-12 beyond two planes of faces the core has, at extent 0.1). Every core
   vertex is checked against every moved plane; where one crosses a plane by more than lim the
   core is cut by the plane it crosses most, in turn (the vertices inside and the edges'
   crossings, rebuilt as a hull), and each face then takes the moved plane it lies on (the
   smallest largest distance of its vertices). A cut whose points the hull cannot resolve
   (within its tolerance: no build passes its check) leaves the core as it was. core: the dual
   hull's, replaced by the cut one (or freed and zeroed on error). */
CT__PRIVATE ct_status ct__erode_cut(ct_scratch *s, const ct_hull *h, ct_real radius, ct_real lim,
                                    const ct_allocator *alloc, ct_hull *core) {
    ct__mark mk = ct__scratch_mark(s), mk2;
    ct_status st = CT_OK;
    int iter, cut = 0, j, k, f;
    ct_plane *mp = CT__SALLOC(s, ct_plane, h->nfaces);   /* the moved planes */
    if (!mp) st = CT_NO_MEMORY;
    for (j = 0; st == CT_OK && j < h->nfaces; ++j) mp[j] = ct__erode_plane(h, j, radius);
    mk2 = ct__scratch_mark(s);
    for (iter = 0; iter < h->nfaces && st == CT_OK; ++iter) {
        ct_real worst = lim, *sv;
        int arg = -1, n = 0, nhe = core->face_first[core->nfaces];
        ct_vec3 *pts;
        ct_hull next;
        ct_hull_desc desc;
        ct_plane q;
        for (j = 0; j < h->nfaces; ++j) {   /* each plane against the core's support along it */
            ct_real x = ct__dot(mp[j].n, core->verts[ct__hull_climb(core, mp[j].n, -1)]) + mp[j].d;
            if (x > worst) { worst = x; arg = j; }
        }
        if (arg < 0) break;
        q = mp[arg];
        sv = CT__SALLOC(s, ct_real, core->nverts);
        pts = CT__SALLOC(s, ct_vec3, core->nverts + nhe / 2);
        if (!sv || !pts) { st = CT_NO_MEMORY; break; }
        for (k = 0; k < core->nverts; ++k) {
            sv[k] = ct__dot(q.n, core->verts[k]) + q.d;
            if (sv[k] <= 0) pts[n++] = core->verts[k];
        }
        for (f = 0; f < core->nfaces; ++f)
            for (k = core->face_first[f]; k < core->face_first[f + 1]; ++k) {
                int a = core->face_verts[k], b = core->face_verts[k + 1 < core->face_first[f + 1] ? k + 1 : core->face_first[f]];
                ct_vec3 x;
                int i;
                if (core->he_twin[k] < k || (sv[a] <= 0) == (sv[b] <= 0)) continue;   /* each crossing edge once */
                x = ct__lerp(core->verts[a], core->verts[b], sv[a] / (sv[a] - sv[b]));
                /* once: a copy made ct_hull_build answer CT_DEGENERATE for a cut it resolves
                   without it (two crossings of a sliver's edges, the same bits) */
                for (i = 0; i < n && (pts[i].x != x.x || pts[i].y != x.y || pts[i].z != x.z); ++i) {}
                if (i == n) pts[n++] = x;
            }
        memset(&desc, 0, sizeof desc);
        desc.scratch = s;
        st = ct_hull_build(pts, n, &desc, alloc, &next);
        ct__scratch_reset(s, mk2);
        if (st == CT_NO_MEMORY) break;
        if (st != CT_OK) { st = CT_OK; break; }   /* a cut beyond the hull's resolution: the core as it is */
        ct_hull_free(core);
        *core = next;
        cut = 1;
    }
    if (st == CT_OK && cut) {   /* the faces on the block's moved planes, tagged */
        ct_plane *planes = CT__SALLOC(s, ct_plane, core->nfaces);
        int *tag = CT__SALLOC(s, int, core->nfaces), *src = CT__SALLOC(s, int, core->nverts);
        ct_hull fin;
        if (!planes || !tag || !src) st = CT_NO_MEMORY;
        for (f = 0; st == CT_OK && f < core->nfaces; ++f) {
            ct_real best = CT__MAXR;
            tag[f] = 0;
            for (j = 0; j < h->nfaces; ++j) {
                ct_real far = 0;
                for (k = core->face_first[f]; k < core->face_first[f + 1]; ++k)
                    far = ct__max(far, ct__abs(ct__dot(mp[j].n, core->verts[core->face_verts[k]]) + mp[j].d));
                if (far < best) { best = far; tag[f] = j; planes[f] = mp[j]; }
            }
        }
        for (k = 0; st == CT_OK && k < core->nverts; ++k) src[k] = -1;
        if (st == CT_OK)
            st = ct__hull_assemble(&fin, core->verts, src, core->nverts, core->face_first, core->face_verts, core->nfaces,
                                   planes, tag, core->he_twin, alloc);
        if (st == CT_OK) { ct_hull_free(core); *core = fin; }
    }
    ct__scratch_reset(s, mk);
    if (st != CT_OK) { ct_hull_free(core); memset(core, 0, sizeof *core); }
    return st;
}

CTDEF ct_status ct_hull_erode(const ct_hull *h, ct_real radius, const ct_allocator *alloc, ct_hull *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct__polar p;
    ct_status st;
    int j;
    ct_real inv;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    if (!ct__polar_hull_ok(h) || !ct__finite(radius) || radius < 0) return CT_INVALID;
    s = ct__scratch_begin(NULL, &local, alloc);
    mk = ct__scratch_mark(s);
    memset(&p, 0, sizeof p);
    p.na = p.m = p.nkeep = h->nfaces;
    p.origin = h->center;
    p.scale = h->extent;
    inv = 1 / p.scale;
    p.touch = CT__POLAR_TOUCH * (1 + (ct__maxabs(h->center) + h->extent) * inv);
    p.pl = CT__SALLOC(s, ct_plane, p.m);
    p.keep = CT__SALLOC(s, int, p.m);
    if (!p.pl || !p.keep) { st = CT_NO_MEMORY; goto done; }
    for (j = 0; j < p.m; ++j) {   /* moved planes in the working frame (unit = the extent) */
        ct_plane q = h->planes[j];
        int ok;
        q.n = ct__normalize(q.n, &ok);
        if (!ok) { st = CT_INVALID; goto done; }
        q.d = (h->planes[j].d / ct__len(h->planes[j].n) + ct__dot(q.n, p.origin) + radius) * inv;
        p.pl[j] = q;
        p.keep[j] = j;
    }
    st = ct__polar_lp(s, &p, NULL, p.m, NULL, &p.c, NULL, NULL);
    if (st != CT_OK) goto done;
    p.r = ct__polar_depth(&p, p.c);
    if (!(p.r > p.touch)) { st = CT_DEGENERATE; goto done; }   /* radius >= the inradius */
    p.state = CT__POLAR_OVERLAP;
    st = ct__polar_finish(s, &p);
    if (st == CT_OK && p.state != CT__POLAR_OVERLAP) st = CT_DEGENERATE;
    if (st == CT_OK) {
        ct_vec3 *verts = CT__SALLOC(s, ct_vec3, p.nv);
        int *src = CT__SALLOC(s, int, p.nv), *tag = CT__SALLOC(s, int, p.nf);
        ct_plane *planes = CT__SALLOC(s, ct_plane, p.nf);
        if (!verts || !src || !tag || !planes) { st = CT_NO_MEMORY; goto done; }
        for (j = 0; j < p.nv; ++j) { verts[j] = ct__madd(p.origin, ct__add(p.c, p.v[j]), p.scale); src[j] = -1; }
        for (j = 0; j < p.nf; ++j) {
            int q = p.face_plane[j];
            tag[j] = q;
            planes[j].n = p.pl[q].n;   /* the block's face plane moved inwards by radius */
            planes[j].d = h->planes[q].d / ct__len(h->planes[q].n) + radius;
        }
        st = ct__hull_assemble(out, verts, src, p.nv, p.face_first, p.face_verts, p.nf, planes, tag, p.face_twin,
                               alloc);
        if (st == CT_OK) st = ct__erode_cut(s, h, radius, 4 * p.touch * p.scale, alloc, out);
    }
done:
    if (st != CT_OK) memset(out, 0, sizeof *out);
    ct__scratch_end(s, &local, mk);
    return st;
}

CTDEF ct_real ct_hull_rounded_volume(const ct_hull *h, ct_real radius) {
    ct_real v, area = 0, edge = 0;
    int f, k;
    if (!h || !h->verts || !h->planes || !h->face_first || !h->face_verts || !h->he_twin || !h->he_face ||
        h->nfaces < 4 || !ct__finite(radius) || radius < 0)
        return -1;
    v = ct_hull_volume(h, NULL);
    for (f = 0; f < h->nfaces; ++f) {
        int e0 = h->face_first[f], e1 = h->face_first[f + 1];
        ct_vec3 s = ct__v3(0, 0, 0), o = h->verts[h->face_verts[e0]];
        for (k = e0; k < e1; ++k) {
            ct_vec3 a = h->verts[h->face_verts[k]], b = h->verts[h->face_verts[k + 1 < e1 ? k + 1 : e0]];
            int g = h->he_face[h->he_twin[k]];
            s = ct__add(s, ct__cross(ct__sub(a, o), ct__sub(b, o)));
            if (g > f) {   /* each edge once: length x the angle between the two face normals */
                ct_vec3 na = h->planes[f].n, nb = h->planes[g].n;
                edge += ct__dist(a, b) * ct__atan2(ct__len(ct__cross(na, nb)), ct__dot(na, nb));
            }
        }
        area += ct__abs(ct__dot(s, h->planes[f].n)) / 2;
    }
    return v + area * radius + edge * radius * radius / 2 + 4 * CT__PI / 3 * radius * radius * radius;
}

/* ---- mass properties of the rounded block ------------------------------------------------
   C (+) rB of a convex polyhedron C splits into disjoint parts: C itself; a slab of thickness r
   on each face (the face moved along its normal); a wedge of a cylinder on each edge (radius r,
   the angle phi between its two faces' normals); and on each vertex v a sector of the ball
   over the vertex's normal cone N(v) (the spherical polygon of the normals of its faces,
   solid angle Omega; the cones tile the sphere). Each part's volume, first moment and second
   moment are closed forms:
     slab over face F (area A, normal n):  x + h n, h in [0, r]
     wedge over edge p-q (length L):       c(s) + t w(a), w(a) = cos a n_f + sin a t_f,
                                           a in [0, phi], t in [0, r] (Jacobian t)
     sector at v:                          v + t u, u in N(v), t in [0, r] (Jacobian t^2)
   The sector needs the moments of the spherical polygon N(v): with its edges the great arcs
   a -> b (counter-clockwise seen from outside), theta = the arc's angle, m = unit(a x b) and
   s = the integral of u along the arc = (b - a) x m, the spherical Laplacian of u_i (-2 u_i)
   and of u_i u_j (2 delta_ij - 6 u_i u_j) with the divergence theorem on the sphere give
     int u dOmega     = 1/2 sum theta m
     int u u^T dOmega = (2 Omega I + sum (m s^T + s m^T)) / 6. */

/* Adds the moments (volume, first, second; about the hull's centre) of the parts grown on
   the faces, edges and vertices of h by radius r. */
CT__PRIVATE void ct__rounded_parts(const ct_hull *h, ct_real r, ct_real *vol, ct_vec3 *S, ct_real C[3][3]) {
    int f, k, i, j, pass;
    ct_real r2 = r * r, r3 = r2 * r, omsum = 0, omscale = 1;
    for (f = 0; f < h->nfaces; ++f) {
        int e0 = h->face_first[f], e1 = h->face_first[f + 1];
        ct_vec3 n = h->planes[f].n, a = ct__sub(h->verts[h->face_verts[e0]], h->center), fx = ct__v3(0, 0, 0);
        ct_real A = 0, fxx[3][3];
        memset(fxx, 0, sizeof fxx);
        for (k = e0; k < e1; ++k) {   /* the slab: the face's area moments (fan from a) */
            ct_vec3 b = ct__sub(h->verts[h->face_verts[k]], h->center), c;
            if (k + 1 >= e1 || k == e0) continue;
            c = ct__sub(h->verts[h->face_verts[k + 1]], h->center);
            {
                ct_real T = ct__dot(ct__cross(ct__sub(b, a), ct__sub(c, a)), n) / 2;
                ct_vec3 s = ct__add(a, ct__add(b, c));
                ct_real va[3] = { a.x, a.y, a.z }, vb[3] = { b.x, b.y, b.z }, vc[3] = { c.x, c.y, c.z }, vs[3] = { s.x, s.y, s.z };
                A += T;
                fx = ct__madd(fx, s, T / 3);
                for (i = 0; i < 3; ++i)
                    for (j = 0; j < 3; ++j) fxx[i][j] += T / 12 * (va[i] * va[j] + vb[i] * vb[j] + vc[i] * vc[j] + vs[i] * vs[j]);
            }
        }
        {
            ct_vec3 m1 = ct__madd(ct__scale(fx, r), n, A * r2 / 2);
            ct_real vn[3] = { n.x, n.y, n.z }, vx[3] = { fx.x, fx.y, fx.z };
            *vol += A * r;
            *S = ct__add(*S, m1);
            for (i = 0; i < 3; ++i)
                for (j = 0; j < 3; ++j)
                    C[i][j] += r * fxx[i][j] + r2 / 2 * (vx[i] * vn[j] + vn[i] * vx[j]) + A * r3 / 3 * vn[i] * vn[j];
        }
        for (k = e0; k < e1; ++k) {   /* the wedges: each edge once */
            int g = h->he_face[h->he_twin[k]];
            ct_vec3 p, q, nf = n, ng, t, W1, Sg;
            ct_real L, phi, sn, cs, W2[3][3], vp[3], vq[3], vw[3], vs[3], vf[3], vt[3];
            int ok;
            if (g <= f) continue;
            ng = h->planes[g].n;
            p = ct__sub(h->verts[h->face_verts[k]], h->center);
            q = ct__sub(h->verts[h->face_verts[k + 1 < e1 ? k + 1 : e0]], h->center);
            L = ct__dist(p, q);
            phi = ct__atan2(ct__len(ct__cross(nf, ng)), ct__dot(nf, ng));
            t = ct__normalize(ct__madd(ng, nf, -ct__dot(nf, ng)), &ok);
            if (!ok) continue;   /* flush faces: no wedge */
            sn = ct__sin(phi);
            cs = ct__cos(phi);
            W1 = ct__madd(ct__scale(nf, sn), t, 1 - cs);
            Sg = ct__scale(ct__add(p, q), L / 2);
            vp[0] = p.x; vp[1] = p.y; vp[2] = p.z; vq[0] = q.x; vq[1] = q.y; vq[2] = q.z;
            vw[0] = W1.x; vw[1] = W1.y; vw[2] = W1.z; vs[0] = Sg.x; vs[1] = Sg.y; vs[2] = Sg.z;
            vf[0] = nf.x; vf[1] = nf.y; vf[2] = nf.z; vt[0] = t.x; vt[1] = t.y; vt[2] = t.z;
            for (i = 0; i < 3; ++i)
                for (j = 0; j < 3; ++j)
                    W2[i][j] = vf[i] * vf[j] * (phi / 2 + sn * cs / 2) + vt[i] * vt[j] * (phi / 2 - sn * cs / 2) +
                               (vf[i] * vt[j] + vt[i] * vf[j]) * sn * sn / 2;
            *vol += L * phi * r2 / 2;
            *S = ct__add(*S, ct__madd(ct__scale(Sg, phi * r2 / 2), W1, L * r3 / 3));
            for (i = 0; i < 3; ++i)
                for (j = 0; j < 3; ++j)
                    C[i][j] += phi * r2 / 2 * L * ((vp[i] * vp[j] + vq[i] * vq[j]) / 3 + (vp[i] * vq[j] + vq[i] * vp[j]) / 6) +
                               r3 / 3 * (vs[i] * vw[j] + vw[i] * vs[j]) + L * r2 * r2 / 4 * W2[i][j];
        }
    }
    /* the sectors: each vertex once, from its first half-edge. Their cones tile the sphere, so
       their solid angles sum to 4 pi; on a sliver whose face normals are off by rounding the
       computed cones overlap or gap (0.5% short seen), so a first pass sums them and the
       second scales each by 4 pi / sum: the ball's volume is then exactly Steiner's. */
    for (pass = 0; pass < 2; ++pass) {
    if (pass == 1 && omsum > 0) omscale = 4 * CT__PI / omsum;
    for (f = 0; f < h->nfaces; ++f) {
        int e0 = h->face_first[f], e1 = h->face_first[f + 1];
        for (k = e0; k < e1; ++k) {
            int v = h->face_verts[k], e = k, first = 1, guard = 0;
            ct_real om = 0, sgn, U2[3][3], vv[3], vu[3];
            ct_vec3 U1 = ct__v3(0, 0, 0), n0 = h->planes[f].n, x = ct__sub(h->verts[v], h->center), sm = ct__v3(0, 0, 0),
                    prev;
            ct_real ms[3][3];
            int ok;
            /* the vertex is handled at the half-edge of lowest index that starts at it */
            {
                int ee = k, lowest = k;
                do {
                    int fe = h->he_face[ee], pe = ee == h->face_first[fe] ? h->face_first[fe + 1] - 1 : ee - 1;
                    ee = h->he_twin[pe];
                    if (ee < lowest) lowest = ee;
                } while (ee != k && ++guard < h->nfaces + 1);
                if (lowest != k) continue;
            }
            memset(ms, 0, sizeof ms);
            prev = n0;
            guard = 0;
            do {   /* faces around v: the next half-edge from v is the twin of the one entering it */
                int fe = h->he_face[e], pe = e == h->face_first[fe] ? h->face_first[fe + 1] - 1 : e - 1, fn;
                ct_vec3 a, b, m, s;
                ct_real th;
                e = h->he_twin[pe];
                fn = h->he_face[e];
                a = prev;
                b = h->planes[fn].n;
                th = ct__atan2(ct__len(ct__cross(a, b)), ct__dot(a, b));
                m = ct__normalize(ct__cross(a, b), &ok);
                if (ok) {
                    s = ct__cross(ct__sub(b, a), m);
                    U1 = ct__madd(U1, m, th / 2);
                    sm = ct__add(sm, s);
                    vv[0] = m.x; vv[1] = m.y; vv[2] = m.z; vu[0] = s.x; vu[1] = s.y; vu[2] = s.z;
                    for (i = 0; i < 3; ++i)
                        for (j = 0; j < 3; ++j) ms[i][j] += vv[i] * vu[j] + vu[i] * vv[j];
                }
                if (!first) {   /* fan triangle (n0, a, b): signed solid angle (Van Oosterom-Strackee) */
                    ct_real den = 1 + ct__dot(n0, a) + ct__dot(a, b) + ct__dot(b, n0);
                    om += 2 * ct__atan2(ct__dot(n0, ct__cross(a, b)), den);
                }
                first = 0;
                prev = b;
            } while (e != k && ++guard < h->nfaces + 1);
            sgn = om < 0 ? -1 : 1;
            om *= sgn;
            if (pass == 0) { omsum += om; continue; }
            om *= omscale;
            U1 = ct__scale(U1, sgn);
            vv[0] = x.x; vv[1] = x.y; vv[2] = x.z; vu[0] = U1.x; vu[1] = U1.y; vu[2] = U1.z;
            for (i = 0; i < 3; ++i)
                for (j = 0; j < 3; ++j) U2[i][j] = ((i == j ? 2 * om : 0) + sgn * ms[i][j]) / 6;
            *vol += om * r3 / 3;
            *S = ct__add(*S, ct__madd(ct__scale(x, om * r3 / 3), U1, r2 * r2 / 4));
            for (i = 0; i < 3; ++i)
                for (j = 0; j < 3; ++j)
                    C[i][j] += om * r3 / 3 * vv[i] * vv[j] + r2 * r2 / 4 * (vv[i] * vu[j] + vu[i] * vv[j]) + r3 * r2 / 5 * U2[i][j];
        }
    }
    }
}

CTDEF ct_status ct_hull_rounded_mass(const ct_hull *h, ct_real radius, ct_real density, ct_real *mass, ct_vec3 *centroid,
                                     ct_real inertia[3][3]) {
    ct__qreal v6, c120[3][3];
    ct__qv m24;
    ct_real vol, C[3][3], tr, xv[3];
    ct_vec3 S, x;
    int i, j;
    if (mass) *mass = 0;
    if (centroid) *centroid = ct__v3(0, 0, 0);
    if (inertia) memset(inertia, 0, 9 * sizeof(ct_real));
    if (!h || !h->verts || !h->planes || !h->face_first || !h->face_verts || !h->he_twin || !h->he_face ||
        h->nfaces < 4 || !ct__finite(radius) || radius < 0 || !ct__finite(density))
        return CT_INVALID;
    ct__hull_moments(h, &v6, &m24, c120);
    vol = (ct_real)(v6 / 6);
    S = ct__q_out(ct__q_scale(m24, (ct__qreal)1 / 24));
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) C[i][j] = (ct_real)(c120[i][j] / 120);
    if (radius > 0) ct__rounded_parts(h, radius, &vol, &S, C);
    if (!(vol > 0)) return CT_DEGENERATE;
    x = ct__scale(S, 1 / vol);   /* centroid - center */
    xv[0] = x.x; xv[1] = x.y; xv[2] = x.z;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) C[i][j] -= vol * xv[i] * xv[j];
    tr = C[0][0] + C[1][1] + C[2][2];
    if (mass) *mass = density * vol;
    if (centroid) *centroid = ct__add(h->center, x);
    if (inertia)
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) inertia[i][j] = density * ((i == j ? tr : 0) - C[i][j]);
    return CT_OK;
}
