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
