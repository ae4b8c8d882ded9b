/* contact.h - detail/mesh.h: triangle meshes and heightfields (>>mesh).

   Build: the triangles' unit normals, the edge adjacency (sorted undirected edges: a pair of
   opposite directed edges makes two triangles neighbours), the active-edge flags from the
   dihedral angle, and a median-split AABB tree over the triangles.

   Collision of a convex hull with a mesh: the tree gives the triangles whose box meets the
   hull's box (grown by the speculative distance); each triangle is tested one-sided by the
   separating axis test (the triangle's face, the hull's faces, and the hull's edges crossed
   with the triangle's active edges when the pair builds a face of the Minkowski difference)
   and clipped as in detail/sat.h. Internal edge removal (the idea of Jolt's active edges and
   Bullet's btAdjustInternalEdgeContacts, our own rule): a contact whose normal comes from an
   inactive edge or vertex of the triangle (flat or concave neighbourhood), or from an active
   feature but outside that feature's normal cone, is replaced by the triangle's face contact.
   The points of all triangles are then deduplicated and grouped by normal into manifolds of at
   most four points. */

/* Edges whose neighbour normals differ by less than this angle are flat (inactive): contacts
   there take the face normal. Jolt's default active-edge threshold is 5 degrees; we take 1
   degree, so a slightly convex crease keeps its edge normals. */
#define CT__MESH_ACTIVE_COS ((ct_real)0.99984769515639124) /* cos(1 degree) */
/* A triangle is degenerate when |cross| <= this x (|e1|^2 + |e2|^2): its normal would carry
   no correct digit (sliver or repeated vertex); it never collides. */
#define CT__MESH_DEGEN ((ct_real)64 * CT__EPS)
/* Concavity test of an edge: the neighbour's far vertex counts as below the plane when deeper
   than this x the edge length (rounding of a flat pair is far below). */
#define CT__MESH_BELOW ((ct_real)1e3 * CT__EPS)
/* Triangles per leaf of the tree. */
#define CT__MESH_LEAF 4
/* Depth of the traversal stack (a median split halves the set, so depth <= log2(n) + 2). */
#define CT__MESH_STACK 64
/* Two points of different triangles closer than this x the scale, with parallel normals, are
   one contact (a point on a shared edge or vertex is found by each triangle). Crossings of
   nearly parallel edges amplify the rounding by 1/sin(angle): about 1e6 ulps in float, 5e6 in
   double cover crossings down to 1e-4 / 1e-6 rad. */
#define CT__MESH_DUP (CT__FLOAT ? (ct_real)2e-4 : (ct_real)1e-9)
/* Normals within this cosine share a manifold (after internal edge removal, coplanar triangles
   give bitwise-close normals; the rounding of transforming them is far inside). */
#define CT__MESH_MERGE_COS ((ct_real)1 - (ct_real)1e3 * CT__EPS)
/* Tolerance of the feature and normal-cone tests, x the scale: rounding of a dot product. */
#define CT__MESH_FEAT ((ct_real)1e3 * CT__EPS)
/* Edge axes of nearly parallel edges (|u x w| below this x |u||w|) are skipped: the face axes
   cover them. */
#define CT__MESH_PARALLEL ((ct_real)1e-6)

#define CT__MESH_VALID 0x4D455348u
#define CT__MESH_F_EDGE(k) (1u << (k))        /* edge k active */
#define CT__MESH_F_VERT(k) (1u << (3 + (k)))  /* vertex k active */
#define CT__MESH_F_DEGEN (1u << 6)

/* ---- build --------------------------------------------------------------------------------- */
typedef struct ct__mesh_edge { int lo, hi, slot; } ct__mesh_edge;

CT__PRIVATE int ct__mesh_edge_cmp(const void *pa, const void *pb) {
    const ct__mesh_edge *a = (const ct__mesh_edge *)pa, *b = (const ct__mesh_edge *)pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return a->slot < b->slot ? -1 : (a->slot > b->slot);
}

CT__INLINE ct_vec3 ct__mesh_vert(const ct_mesh *m, int t, int k) { return m->verts[m->tris[3 * t + k]]; }

/* Normals and degenerate flags. */
CT__PRIVATE void ct__mesh_normals(ct_mesh *m) {
    int t, ok;
    for (t = 0; t < m->ntris; ++t) {
        ct_vec3 a = ct__mesh_vert(m, t, 0), e1 = ct__sub(ct__mesh_vert(m, t, 1), a), e2 = ct__sub(ct__mesh_vert(m, t, 2), a);
        ct_vec3 c = ct__cross(e1, e2);
        ct_real s = ct__max(ct__maxabs(e1), ct__maxabs(e2));
        /* scaled first, so tiny or huge coordinates neither underflow nor overflow */
        if (s > 0) {
            e1 = ct__scale(e1, 1 / s); e2 = ct__scale(e2, 1 / s);
            c = ct__cross(e1, e2);
        }
        m->flags[t] = 0;
        m->normals[t] = ct__v3(0, 0, 0);
        if (!(s > 0) || !(ct__len(c) > CT__MESH_DEGEN * (ct__len2(e1) + ct__len2(e2)))) { m->flags[t] = CT__MESH_F_DEGEN; continue; }
        m->normals[t] = ct__normalize(c, &ok);
        if (!ok) { m->flags[t] = CT__MESH_F_DEGEN; m->normals[t] = ct__v3(0, 0, 0); }
    }
}

/* Edge k of t against its neighbour u: active when u is missing, or the edge is convex (u's far
   vertex below t's plane) with normals apart by more than CT__MESH_ACTIVE_COS. */
CT__PRIVATE int ct__mesh_edge_active(const ct_mesh *m, int t, int k, int u) {
    int j, w = -1;
    ct_vec3 a, b;
    ct_real below;
    if (u < 0) return 1;
    a = ct__mesh_vert(m, t, k); b = ct__mesh_vert(m, t, (k + 1) % 3);
    for (j = 0; j < 3; ++j)
        if (m->tris[3 * u + j] != m->tris[3 * t + k] && m->tris[3 * u + j] != m->tris[3 * t + (k + 1) % 3]) w = m->tris[3 * u + j];
    if (w < 0) return 1;
    below = ct__dot(ct__sub(m->verts[w], a), m->normals[t]);
    if (!(below < -CT__MESH_BELOW * ct__dist(a, b))) return 0;               /* flat or concave */
    return ct__dot(m->normals[t], m->normals[u]) < CT__MESH_ACTIVE_COS;
}

/* Adjacency and active flags, from the sorted list of undirected edges. vact: nverts bytes. */
CT__PRIVATE void ct__mesh_adjacency(ct_mesh *m, ct__mesh_edge *e, unsigned char *vact) {
    int t, k, i, j, n = 0;
    for (t = 0; t < m->ntris; ++t)
        for (k = 0; k < 3; ++k) {
            int a = m->tris[3 * t + k], b = m->tris[3 * t + (k + 1) % 3];
            m->adj[3 * t + k] = -1;
            if (m->flags[t] & CT__MESH_F_DEGEN) continue;
            e[n].lo = a < b ? a : b; e[n].hi = a < b ? b : a; e[n].slot = 3 * t + k; ++n;
        }
    qsort(e, (size_t)n, sizeof *e, ct__mesh_edge_cmp);
    for (i = 0; i < n; i = j) {
        for (j = i + 1; j < n && e[j].lo == e[i].lo && e[j].hi == e[i].hi; ++j) {}
        if (j - i == 2) {
            int s0 = e[i].slot, s1 = e[i + 1].slot;
            /* consistent winding only: the two triangles run the edge in opposite directions */
            if (m->tris[s0] == m->tris[3 * (s1 / 3) + (s1 % 3 + 1) % 3]) { m->adj[s0] = s1 / 3; m->adj[s1] = s0 / 3; }
        }
    }
    memset(vact, 0, (size_t)m->nverts);
    for (t = 0; t < m->ntris; ++t) {
        if (m->flags[t] & CT__MESH_F_DEGEN) continue;
        for (k = 0; k < 3; ++k)
            if (ct__mesh_edge_active(m, t, k, m->adj[3 * t + k])) {
                m->flags[t] |= (unsigned char)CT__MESH_F_EDGE(k);
                vact[m->tris[3 * t + k]] = vact[m->tris[3 * t + (k + 1) % 3]] = 1;
            }
    }
    for (t = 0; t < m->ntris; ++t)
        for (k = 0; k < 3; ++k)
            if (!(m->flags[t] & CT__MESH_F_DEGEN) && vact[m->tris[3 * t + k]]) m->flags[t] |= (unsigned char)CT__MESH_F_VERT(k);
}

CT__PRIVATE ct_aabb ct__mesh_tri_box(const ct_mesh *m, int t) {
    ct_aabb b;
    b.lo = b.hi = ct__mesh_vert(m, t, 0);
    b.lo = ct__vmin(b.lo, ct__mesh_vert(m, t, 1)); b.hi = ct__vmax(b.hi, ct__mesh_vert(m, t, 1));
    b.lo = ct__vmin(b.lo, ct__mesh_vert(m, t, 2)); b.hi = ct__vmax(b.hi, ct__mesh_vert(m, t, 2));
    return b;
}

/* Partial sort of order[lo, hi) so that the element of rank mid sits at mid by key (Hoare's
   quickselect, median-of-three pivot). */
CT__PRIVATE void ct__mesh_select(int *order, const ct_real *key, int lo, int hi, int mid) {
    while (hi - lo > 1) {
        int i = lo, j = hi - 1, a = lo, b = lo + (hi - lo) / 2, c = hi - 1, p;
        ct_real pv;
        p = (key[order[a]] < key[order[b]]) ? ((key[order[b]] < key[order[c]]) ? b : (key[order[a]] < key[order[c]] ? c : a))
                                             : ((key[order[a]] < key[order[c]]) ? a : (key[order[b]] < key[order[c]] ? c : b));
        pv = key[order[p]];
        while (i <= j) {
            while (key[order[i]] < pv) ++i;
            while (key[order[j]] > pv) --j;
            if (i <= j) { int t = order[i]; order[i] = order[j]; order[j] = t; ++i; --j; }
        }
        if (mid <= j) hi = j + 1;
        else if (mid >= i) lo = i;
        else return;
    }
}

/* Builds node `node` over order[first, first + count) (recursively, depth ~ log2(n)); key is
   scratch for one coordinate of the centroids, cen the centroids. */
CT__PRIVATE void ct__mesh_node_build(ct_mesh *m, int node, int first, int count, const ct_vec3 *cen, ct_real *key) {
    int i, axis, half;
    ct_aabb b = ct__mesh_tri_box(m, m->ct__order[first]), cb;
    cb.lo = cb.hi = cen[m->ct__order[first]];
    for (i = first + 1; i < first + count; ++i) {
        ct_aabb tb = ct__mesh_tri_box(m, m->ct__order[i]);
        b.lo = ct__vmin(b.lo, tb.lo); b.hi = ct__vmax(b.hi, tb.hi);
        cb.lo = ct__vmin(cb.lo, cen[m->ct__order[i]]); cb.hi = ct__vmax(cb.hi, cen[m->ct__order[i]]);
    }
    m->ct__node_box[node] = b;
    if (count <= CT__MESH_LEAF) { m->ct__node_a[node] = first; m->ct__node_n[node] = count; return; }
    axis = ct__argmaxabs(ct__sub(cb.hi, cb.lo));
    for (i = first; i < first + count; ++i) key[m->ct__order[i]] = ct__vget(cen[m->ct__order[i]], axis);
    half = count / 2;
    ct__mesh_select(m->ct__order, key, first, first + count, first + half);
    m->ct__node_a[node] = m->ct__nnodes;
    m->ct__node_n[node] = 0;
    m->ct__nnodes += 2;
    ct__mesh_node_build(m, m->ct__node_a[node], first, half, cen, key);
    ct__mesh_node_build(m, m->ct__node_a[node] + 1, first + half, count - half, cen, key);
}

CT__PRIVATE ct_status ct__mesh_check(const ct_vec3 *verts, int nverts, const int *tris, int ntris) {
    int i;
    if (!verts || !tris || nverts < 3 || ntris < 1 || ntris > (1 << 28)) return CT_INVALID;
    for (i = 0; i < nverts; ++i)
        if (!ct__finite3(verts[i])) return CT_INVALID;
    for (i = 0; i < 3 * ntris; ++i)
        if (tris[i] < 0 || tris[i] >= nverts) return CT_INVALID;
    return CT_OK;
}

CTDEF ct_status ct_mesh_build(const ct_vec3 *verts, int nverts, const int *tris, int ntris, const ct_allocator *a,
                              ct_mesh *out) {
    ct_allocator al;
    size_t sz[10], total = 0, off = 0;
    unsigned char *blk;
    ct_scratch local, *s;
    ct__mark mk;
    ct__mesh_edge *edges;
    ct_vec3 *cen;
    ct_real *key;
    unsigned char *vact;
    int i, nlive = 0;
    ct_status st;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    st = ct__mesh_check(verts, nverts, tris, ntris);
    if (st != CT_OK) return st;
    al = ct__allocator(a);
    sz[0] = ct__array_bytes(nverts, sizeof(ct_vec3));
    sz[1] = ct__array_bytes(3LL * ntris, sizeof(int));
    sz[2] = ct__array_bytes(ntris, sizeof(ct_vec3));
    sz[3] = ct__array_bytes(3LL * ntris, sizeof(int));
    sz[4] = ct__array_bytes(ntris, 1);
    sz[5] = ct__array_bytes(2LL * ntris, sizeof(ct_aabb));
    sz[6] = ct__array_bytes(2LL * ntris, sizeof(int));
    sz[7] = sz[6];
    sz[8] = ct__array_bytes(ntris, sizeof(int));
    sz[9] = 0;
    for (i = 0; i < 9; ++i) {
        if (sz[i] == 0) return CT_NO_MEMORY;
        if (total > (size_t)-1 - sz[i]) return CT_NO_MEMORY;
        total += sz[i];
    }
    blk = (unsigned char *)ct__alloc(&al, total);
    if (!blk) return CT_NO_MEMORY;
    out->ct__alloc = al;
    out->ct__block = blk;
    out->verts = (ct_vec3 *)(blk + off); off += sz[0];
    out->tris = (int *)(blk + off); off += sz[1];
    out->normals = (ct_vec3 *)(blk + off); off += sz[2];
    out->adj = (int *)(blk + off); off += sz[3];
    out->flags = blk + off; off += sz[4];
    out->ct__node_box = (ct_aabb *)(blk + off); off += sz[5];
    out->ct__node_a = (int *)(blk + off); off += sz[6];
    out->ct__node_n = (int *)(blk + off); off += sz[7];
    out->ct__order = (int *)(blk + off);
    out->nverts = nverts;
    out->ntris = ntris;
    memcpy(out->verts, verts, (size_t)nverts * sizeof *verts);
    memcpy(out->tris, tris, (size_t)ntris * 3 * sizeof *tris);

    s = ct__scratch_begin(NULL, &local, &al);
    mk = ct__scratch_mark(s);
    edges = CT__SALLOC(s, ct__mesh_edge, 3LL * ntris);
    cen = CT__SALLOC(s, ct_vec3, ntris);
    key = CT__SALLOC(s, ct_real, ntris);
    vact = CT__SALLOC(s, unsigned char, nverts);
    if (!edges || !cen || !key || !vact) {
        ct__scratch_end(s, &local, mk);
        ct_mesh_free(out);
        return CT_NO_MEMORY;
    }
    ct__mesh_normals(out);
    ct__mesh_adjacency(out, edges, vact);
    out->bounds.lo = out->bounds.hi = verts[0];
    for (i = 1; i < nverts; ++i) {
        out->bounds.lo = ct__vmin(out->bounds.lo, verts[i]);
        out->bounds.hi = ct__vmax(out->bounds.hi, verts[i]);
    }
    for (i = 0; i < ntris; ++i) {
        if (out->flags[i] & CT__MESH_F_DEGEN) continue;
        out->ct__order[nlive++] = i;
        cen[i] = ct__scale(ct__add(ct__mesh_vert(out, i, 0), ct__add(ct__mesh_vert(out, i, 1), ct__mesh_vert(out, i, 2))), (ct_real)1 / 3);
    }
    if (nlive == 0) {
        ct__scratch_end(s, &local, mk);
        ct_mesh_free(out);
        return CT_DEGENERATE;
    }
    out->ct__nlive = nlive;
    out->ct__nnodes = 1;
    ct__mesh_node_build(out, 0, 0, nlive, cen, key);
    ct__scratch_end(s, &local, mk);
    out->ct__valid = CT__MESH_VALID;
    return CT_OK;
}

CTDEF ct_status ct_mesh_heightfield(const ct_real *heights, int nx, int ny, ct_real dx, ct_real dy,
                                    const ct_allocator *a, ct_mesh *out) {
    ct_allocator al;
    ct_vec3 *v;
    int *t, i, j, k = 0;
    size_t nv, nt;
    ct_status st;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    if (!heights || nx < 2 || ny < 2 || nx > (1 << 14) || ny > (1 << 14) || !ct__finite(dx) || !ct__finite(dy) || !(dx > 0) || !(dy > 0))
        return CT_INVALID;
    for (i = 0; i < nx * ny; ++i)
        if (!ct__finite(heights[i])) return CT_INVALID;
    al = ct__allocator(a);
    nv = ct__array_bytes((long long)nx * ny, sizeof(ct_vec3));
    nt = ct__array_bytes(6LL * (nx - 1) * (ny - 1), sizeof(int));
    v = (ct_vec3 *)ct__alloc(&al, nv);
    t = (int *)ct__alloc(&al, nt);
    if (!v || !t) {
        ct__free(&al, v);
        ct__free(&al, t);
        return CT_NO_MEMORY;
    }
    for (j = 0; j < ny; ++j)
        for (i = 0; i < nx; ++i) v[j * nx + i] = ct__v3(dx * (ct_real)i, dy * (ct_real)j, heights[j * nx + i]);
    for (j = 0; j + 1 < ny; ++j)
        for (i = 0; i + 1 < nx; ++i) {
            int p = j * nx + i;
            t[k++] = p; t[k++] = p + 1; t[k++] = p + nx + 1;
            t[k++] = p; t[k++] = p + nx + 1; t[k++] = p + nx;
        }
    st = ct_mesh_build(v, nx * ny, t, 2 * (nx - 1) * (ny - 1), &al, out);
    ct__free(&al, v);
    ct__free(&al, t);
    return st;
}

CTDEF void ct_mesh_free(ct_mesh *m) {
    if (!m) return;
    if (m->ct__block) ct__free(&m->ct__alloc, m->ct__block);
    memset(m, 0, sizeof *m);
}

CT__PRIVATE int ct__mesh_ok(const ct_mesh *m) {
    return m && m->ct__valid == CT__MESH_VALID && m->ct__block && m->verts && m->tris && m->ct__nnodes >= 1;
}

/* Calls visit(user, t) for every live triangle whose box overlaps q (closed boxes), in tree
   order. */
typedef int (*ct__mesh_visit)(void *user, int t);
CT__PRIVATE int ct__mesh_query(const ct_mesh *m, ct_aabb q, ct__mesh_visit visit, void *user) {
    int stack[CT__MESH_STACK], top = 0, i;
    stack[top++] = 0;
    while (top > 0) {
        int n = stack[--top];
        const ct_aabb *b = &m->ct__node_box[n];
        if (b->lo.x > q.hi.x || b->hi.x < q.lo.x || b->lo.y > q.hi.y || b->hi.y < q.lo.y || b->lo.z > q.hi.z || b->hi.z < q.lo.z) continue;
        if (m->ct__node_n[n] > 0) {
            for (i = 0; i < m->ct__node_n[n]; ++i) {
                int t = m->ct__order[m->ct__node_a[n] + i];
                ct_aabb tb = ct__mesh_tri_box(m, t);
                if (tb.lo.x > q.hi.x || tb.hi.x < q.lo.x || tb.lo.y > q.hi.y || tb.hi.y < q.lo.y || tb.lo.z > q.hi.z || tb.hi.z < q.lo.z) continue;
                if (!visit(user, t)) return 0;
            }
            continue;
        }
        CT_ASSERT(top + 2 <= CT__MESH_STACK);
        stack[top++] = m->ct__node_a[n] + 1;
        stack[top++] = m->ct__node_a[n];
    }
    return 1;
}

/* ---- hull against one triangle ---------------------------------------------------------------- */
typedef struct ct__mtri {
    ct_vec3 v[3];          /* vertices in the hull's frame */
    ct_vec3 f;             /* unit normal (front) */
    ct_vec3 nb[3];         /* per edge: the neighbour's normal (active convex edge) or the
                              outward side direction in the plane (boundary) */
    unsigned flags;
    ct_real L;             /* scale of the pair */
} ct__mtri;

typedef struct ct__mpt { ct_vec3 p; ct_real s; unsigned id; } ct__mpt;

/* u in the arc from n1 to n2 (both unit, u and the arc normal to the axis e): a non-negative
   combination of n1 and n2, within tol. */
CT__PRIVATE int ct__mesh_in_arc(ct_vec3 u, ct_vec3 n1, ct_vec3 n2, ct_vec3 e, ct_real tol) {
    ct_real s12 = ct__dot(ct__cross(n1, n2), e), s1u = ct__dot(ct__cross(n1, u), e), su2 = ct__dot(ct__cross(u, n2), e);
    ct_real el = ct__len(e);
    if (ct__dot(u, ct__add(n1, n2)) < -tol) return 0;
    if (ct__abs(s12) <= tol * el) return ct__dot(u, n1) >= 1 - tol; /* a degenerate arc: n1 only */
    return s1u * s12 >= -tol * el * ct__abs(s12) && su2 * s12 >= -tol * el * ct__abs(s12);
}

/* Is -n (the triangle's outward normal at the contact) a legitimate normal of the triangle's
   feature supporting it: its face, an active edge (within the edge's cone from f to the
   neighbour or to the side), or an active vertex (pointing away from the triangle)? */
CT__PRIVATE int ct__mesh_legit(const ct__mtri *t, ct_vec3 n) {
    ct_vec3 m = ct__neg(n);
    ct_real d[3], hi, tol = CT__MESH_FEAT * t->L;
    int k, cnt = 0, which = -1;
    for (k = 0; k < 3; ++k) d[k] = ct__dot(t->v[k], m);
    hi = ct__max(d[0], ct__max(d[1], d[2]));
    for (k = 0; k < 3; ++k)
        if (d[k] >= hi - tol) { ++cnt; which = k; }
    if (cnt >= 3) return ct__dot(m, t->f) >= CT__MESH_MERGE_COS; /* the face: its normal only */
    if (cnt == 2) {
        int e = d[0] >= hi - tol ? (d[1] >= hi - tol ? 0 : 2) : 1;
        if (!(t->flags & CT__MESH_F_EDGE(e))) return 0;
        return ct__mesh_in_arc(m, t->f, t->nb[e], ct__sub(t->v[(e + 1) % 3], t->v[e]), CT__MESH_FEAT);
    }
    if (!(t->flags & CT__MESH_F_VERT(which))) return 0;
    return ct__dot(m, t->f) >= -CT__MESH_FEAT;
}

/* Sutherland-Hodgman clip of poly (n points) by {p : dot(p, nrm) <= off}; a new point gets
   the id (kcut << 16) | kedge where kedge is the clipped edge's key (in ekey[]). Returns the
   new count; out holds up to n + 1 points. */
CT__PRIVATE int ct__mesh_clip(const ct__mpt *in, const unsigned *ekey, int n, ct_vec3 nrm, ct_real off, unsigned kcut,
                              ct__mpt *out, unsigned *okey) {
    int i, m = 0;
    for (i = 0; i < n; ++i) {
        const ct__mpt *a = &in[i], *b = &in[(i + 1) % n];
        ct_real da = ct__dot(a->p, nrm) - off, db = ct__dot(b->p, nrm) - off;
        if (da <= 0) { out[m] = *a; okey[m] = ekey[i]; ++m; }
        if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
            ct_real t = da / (da - db);
            out[m].p = ct__lerp(a->p, b->p, t);
            out[m].s = 0;
            out[m].id = (ekey[i] << 16) | kcut;
            /* leaving: the next edge runs along the cutting plane; entering: along edge i */
            okey[m] = da < 0 ? (kcut | 0x8000u) : ekey[i];
            ++m;
        }
    }
    return m;
}

#define CT__MESH_POLY 64
/* Reference = the triangle's face: the hull's incident face (most anti-parallel to f) clipped
   by the triangle's three side planes. */
CT__PRIVATE int ct__mesh_face_tri(const ct_hull *h, const ct__mtri *t, ct_real spec, ct__mpt *pts) {
    ct__mpt buf[2][CT__MESH_POLY + 4];
    unsigned key[2][CT__MESH_POLY + 4];
    int i, j, n, cur = 0, best = 0, cnt = 0;
    ct_real bd = ct__dot(h->planes[0].n, t->f);
    for (i = 1; i < h->nfaces; ++i) {
        ct_real d = ct__dot(h->planes[i].n, t->f);
        if (d < bd) { bd = d; best = i; }
    }
    n = h->face_first[best + 1] - h->face_first[best];
    if (n > CT__MESH_POLY) n = CT__MESH_POLY; /* faces that large are clipped by their first vertices */
    for (i = 0; i < n; ++i) {
        int he = h->face_first[best] + i;
        buf[0][i].p = h->verts[h->face_verts[he]];
        buf[0][i].id = (ct__sat_key(CT__KEY_VERT, h->face_verts[he]) << 16) | ct__sat_key(CT__KEY_FACE, 0);
        key[0][i] = ct__sat_edge_key(h, he);
    }
    for (j = 0; j < 3 && n > 0; ++j) {
        ct_vec3 e = ct__sub(t->v[(j + 1) % 3], t->v[j]);
        int ok;
        ct_vec3 side = ct__normalize(ct__cross(e, t->f), &ok);
        if (!ok) return 0;
        n = ct__mesh_clip(buf[cur], key[cur], n, side, ct__dot(side, t->v[j]), ct__sat_key(CT__KEY_EDGE, j), buf[1 - cur], key[1 - cur]);
        cur = 1 - cur;
    }
    for (i = 0; i < n; ++i) {
        ct_real s = ct__dot(ct__sub(buf[cur][i].p, t->v[0]), t->f);
        if (s > spec) continue;
        /* normal A -> B is -f: the midpoint is s/2 below the hull's point */
        pts[cnt].p = ct__madd(buf[cur][i].p, t->f, -s / 2);
        pts[cnt].s = s;
        pts[cnt].id = buf[cur][i].id;
        if (++cnt == CT__MESH_POLY) break;
    }
    return cnt;
}

/* Reference = face fr of the hull: the triangle clipped by the face's side planes. */
CT__PRIVATE int ct__mesh_face_hull(const ct_hull *h, int fr, const ct__mtri *t, ct_real spec, ct__mpt *pts) {
    ct__mpt buf[2][3 + CT__MESH_POLY + 4];
    unsigned key[2][3 + CT__MESH_POLY + 4];
    int i, n = 3, cur = 0, cnt = 0, he, nf = h->face_first[fr + 1] - h->face_first[fr];
    ct_vec3 nrm = h->planes[fr].n;
    if (nf > CT__MESH_POLY) nf = CT__MESH_POLY;
    for (i = 0; i < 3; ++i) {
        buf[0][i].p = t->v[i];
        buf[0][i].id = (ct__sat_key(CT__KEY_FACE, fr) << 16) | ct__sat_key(CT__KEY_VERT, i);
        key[0][i] = ct__sat_key(CT__KEY_EDGE, i);
    }
    for (he = h->face_first[fr]; he < h->face_first[fr] + nf && n > 0; ++he) {
        ct_vec3 p0 = h->verts[h->face_verts[he]], p1 = h->verts[h->face_verts[h->he_next[he]]];
        int ok;
        ct_vec3 side = ct__normalize(ct__cross(ct__sub(p1, p0), nrm), &ok);
        if (!ok) continue;
        n = ct__mesh_clip(buf[cur], key[cur], n, side, ct__dot(side, p0), ct__sat_edge_key(h, he), buf[1 - cur], key[1 - cur]);
        cur = 1 - cur;
        if (n > CT__MESH_POLY) n = CT__MESH_POLY;
    }
    for (i = 0; i < n; ++i) {
        ct_real s = ct__dot(nrm, buf[cur][i].p) + h->planes[fr].d;
        if (s > spec) continue;
        pts[cnt].p = ct__madd(buf[cur][i].p, nrm, -s / 2);
        pts[cnt].s = s;
        /* the clip ids carry (hull key << 16 | tri key) with the roles fixed above */
        pts[cnt].id = buf[cur][i].id;
        if (++cnt == CT__MESH_POLY) break;
    }
    return cnt;
}

/* Keeps at most CT_MANIFOLD_MAX of the n points: the deepest, the farthest from it, the one
   making the largest triangle with those, and the one adding the largest area outside it
   (the reduction of Gregorius / Box3D, in a plane normal to nrm). Separations within tol of
   the least are ties, broken by the distance from the points' mean (a corner of a resting
   face, not a point that rounding made deeper). Returns the count kept. */
CT__PRIVATE int ct__mesh_reduce(ct__mpt *p, int n, ct_vec3 nrm, ct_real tol) {
    int i, k, pick[CT_MANIFOLD_MAX], np = 0;
    ct__mpt out[CT_MANIFOLD_MAX];
    ct_real best, lo;
    ct_vec3 mean = ct__v3(0, 0, 0);
    if (n <= 2) return n; /* (3 or 4 points too: collinear or inner ones add nothing) */
    lo = p[0].s;
    for (i = 0; i < n; ++i) {
        lo = ct__min(lo, p[i].s);
        mean = ct__add(mean, p[i].p);
    }
    mean = ct__scale(mean, 1 / (ct_real)n);
    pick[0] = -1; best = -1;
    for (i = 0; i < n; ++i) {
        ct_real d = ct__dist(p[i].p, mean);
        if (p[i].s <= lo + tol && d > best) { best = d; pick[0] = i; }
    }
    pick[1] = pick[0] == 0 ? 1 : 0; best = -1;
    for (i = 0; i < n; ++i) {
        ct_real d = ct__dist(p[i].p, p[pick[0]].p);
        if (i != pick[0] && d > best) { best = d; pick[1] = i; }
    }
    np = 2;
    for (k = 2; k < CT_MANIFOLD_MAX; ++k) {
        int bi = -1;
        /* collinear within rounding adds no area: a capsule lying on a face keeps its two ends */
        best = CT__MESH_FEAT * ct__len2(ct__sub(p[pick[1]].p, p[pick[0]].p));
        for (i = 0; i < n; ++i) {
            int j, used = 0;
            ct_real area = 0;
            for (j = 0; j < np; ++j) used |= pick[j] == i;
            if (used) continue;
            if (k == 2) area = ct__abs(ct__dot(ct__cross(ct__sub(p[pick[1]].p, p[pick[0]].p), ct__sub(p[i].p, p[pick[0]].p)), nrm));
            else {
                /* the largest triangle added on the outside of one of the three edges */
                for (j = 0; j < 3; ++j) {
                    ct_vec3 a = p[pick[j]].p, b = p[pick[(j + 1) % 3]].p, c = p[pick[(j + 2) % 3]].p;
                    ct_real side = ct__dot(ct__cross(ct__sub(b, a), ct__sub(c, a)), nrm);
                    ct_real add = ct__dot(ct__cross(ct__sub(b, a), ct__sub(p[i].p, a)), nrm);
                    if (side * add < 0) area = ct__max(area, ct__abs(add));
                }
            }
            if (area > best) { best = area; bi = i; }
        }
        if (bi < 0) break;
        pick[np++] = bi;
    }
    for (i = 0; i < np; ++i) out[i] = p[pick[i]];
    for (i = 0; i < np; ++i) p[i] = out[i];
    return np;
}

/* Apart: the clip's separations exceed the distance when the closest features are not the
   clipped faces (a vertex or edge beside the triangle). Then the closest points (GJK) give
   one point, if their normal is a legitimate normal of the triangle's feature (else the
   neighbour owns that contact and the clip stays). Returns the new count. */
CT__PRIVATE int ct__mesh_apart(const ct_hull *h, const ct__mtri *t, ct_real spec, ct_vec3 *nrm, ct__mpt *pts, int n) {
    ct_shape sa = ct_shape_hull(h), sb = ct_shape_triangle(t->v[0], t->v[1], t->v[2]);
    ct_distance d;
    ct_real lo = CT__MAXR;
    int i;
    for (i = 0; i < n; ++i) lo = ct__min(lo, pts[i].s);
    if (ct_gjk(&sa, NULL, &sb, NULL, NULL, &d) != CT_OK || !(d.distance > 0) || d.distance > spec) return n;
    if (n > 0 && lo <= d.distance + CT__MESH_FEAT * t->L) return n;
    if (!ct__mesh_legit(t, d.normal)) return n;
    *nrm = d.normal;
    pts[0].p = ct__lerp(d.pa, d.pb, (ct_real)0.5);
    pts[0].s = d.distance;
    pts[0].id = 0xFFFFFFFFu; /* closest features: one point per triangle */
    return 1;
}

/* The manifold of hull h and triangle t (in h's frame; normal A -> B in *nrm). Returns the
   number of points (0: none within spec). */
CT__PRIVATE int ct__mesh_hull_tri(const ct_hull *h, const ct__mtri *t, ct_real spec, ct_vec3 *nrm, ct__mpt *pts) {
    int i, j, k, vf, best_face = -1, best_he = -1, best_e = -1, n;
    ct_real sf, sh = -CT__MAXR, se = -CT__MAXR, tol_face, tol_edge;
    ct_vec3 edge_axis = ct__v3(0, 0, 0);
    /* 1. the triangle's face (one-sided: the hull's support along -f) */
    vf = ct__sat_support(h, ct__neg(t->f));
    sf = ct__dot(ct__sub(h->verts[vf], t->v[0]), t->f);
    if (sf > spec) return 0;
    /* 2. the hull's faces: the deepest triangle vertex below each plane */
    for (i = 0; i < h->nfaces; ++i) {
        ct_vec3 pn = h->planes[i].n;
        ct_real s = ct__min(ct__dot(pn, t->v[0]), ct__min(ct__dot(pn, t->v[1]), ct__dot(pn, t->v[2]))) + h->planes[i].d;
        if (s > spec) return 0;
        if (s > sh) { sh = s; best_face = i; }
    }
    /* 3. hull edges x active triangle edges that build a face of the Minkowski difference */
    for (j = 0; j < 3; ++j) {
        ct_vec3 w = ct__sub(t->v[(j + 1) % 3], t->v[j]);
        if (!(t->flags & CT__MESH_F_EDGE(j))) continue;
        for (k = 0; k < 2 * h->nedges; ++k) {
            int tw = h->he_twin[k], ok;
            ct_vec3 p0 = h->verts[h->face_verts[k]], u, ax, n1, n2;
            ct_real s;
            if (tw < k) continue;
            u = ct__sub(h->verts[h->face_verts[h->he_next[k]]], p0);
            ax = ct__cross(u, w);
            if (!(ct__len(ax) > CT__MESH_PARALLEL * ct__len(u) * ct__len(w))) continue;
            ax = ct__normalize(ax, &ok);
            if (!ok) continue;
            n1 = h->planes[h->he_face[k]].n; n2 = h->planes[h->he_face[tw]].n;
            if (ct__dot(ax, ct__add(n1, n2)) < 0) ax = ct__neg(ax);
            if (!ct__mesh_in_arc(ax, n1, n2, u, CT__MESH_FEAT)) continue;
            if (!ct__mesh_in_arc(ct__neg(ax), t->f, t->nb[j], w, CT__MESH_FEAT)) continue;
            s = ct__dot(ax, ct__sub(t->v[j], p0));
            if (s > spec) return 0;
            if (s > se) { se = s; best_he = k; best_e = j; edge_axis = ax; }
        }
    }
    tol_face = CT__SAT_FACE_REL * ct__abs(sf) + CT__SAT_FACE_ABS * t->L;
    tol_edge = CT__SAT_EDGE_REL * ct__abs(ct__max(sf, sh)) + CT__SAT_EDGE_ABS * t->L;
    /* preference: the triangle's face, then the hull's face, then an edge pair */
    if (best_he >= 0 && se > ct__max(sf, sh) + tol_edge) {
        ct_real s, u;
        ct_vec3 p0 = h->verts[h->face_verts[best_he]], d = ct__sub(h->verts[h->face_verts[h->he_next[best_he]]], p0);
        ct_vec3 w = ct__sub(t->v[(best_e + 1) % 3], t->v[best_e]), pa, pb;
        ct__pair_seg_seg(p0, d, t->v[best_e], w, &s, &u);
        pa = ct__madd(p0, d, s); pb = ct__madd(t->v[best_e], w, u);
        /* the edges' closest points inside both: they realise the axis; else a face does */
        if (s > 0 && s < 1 && u > 0 && u < 1) {
        *nrm = edge_axis;
        pts[0].p = ct__lerp(pa, pb, (ct_real)0.5);
        pts[0].s = se;
        pts[0].id = (ct__sat_edge_key(h, best_he) << 16) | ct__sat_key(CT__KEY_EDGE, best_e);
        return 1;
        }
    }
    n = 0;
    if (best_face >= 0 && sh > sf + tol_face && ct__mesh_legit(t, h->planes[best_face].n)) {
        n = ct__mesh_face_hull(h, best_face, t, spec, pts);
        *nrm = h->planes[best_face].n;
    }
    if (n == 0) {
        /* the triangle's face: the SAT's choice, or the stand-in for an internal feature */
        n = ct__mesh_face_tri(h, t, spec, pts);
        *nrm = ct__neg(t->f);
    }
    if (ct__max(sf, ct__max(sh, se)) > 0) n = ct__mesh_apart(h, t, spec, nrm, pts, n);
    /* not reduced here: the merged manifolds choose among the points of all triangles */
    return n;
}

/* ---- the entry point --------------------------------------------------------------------------- */
typedef struct ct__mesh_job {
    const ct_hull *h;
    const ct_mesh *m;
    ct_xform rel;          /* mesh local -> hull local */
    const ct_xform *xa;
    ct_real spec, L;
    ct_mesh_contacts *out;
    int failed;
    ct_vec3 c0, c1;        /* capsule core in the mesh's frame (capsule path) */
    ct_real r;             /* capsule radius */
} ct__mesh_job;

CT__PRIVATE int ct__mesh_grow(ct_mesh_contacts *c, int need) {
    ct_mesh_point *np;
    ct_manifold *nm;
    int cap;
    if (need <= c->ct__cap) return 1;
    cap = c->ct__cap ? 2 * c->ct__cap : 64;
    while (cap < need) cap *= 2;
    np = (ct_mesh_point *)ct__alloc(&c->ct__alloc, ct__array_bytes(cap, sizeof *np));
    nm = (ct_manifold *)ct__alloc(&c->ct__alloc, ct__array_bytes(cap, sizeof *nm));
    if (!np || !nm) {
        ct__free(&c->ct__alloc, np);
        ct__free(&c->ct__alloc, nm);
        return 0;
    }
    if (c->npoints) memcpy(np, c->points, (size_t)c->npoints * sizeof *np);
    ct__free(&c->ct__alloc, c->points);
    ct__free(&c->ct__alloc, c->manifolds);
    c->points = np;
    c->manifolds = nm;
    c->ct__cap = cap;
    return 1;
}

/* Triangle ti in the job's working frame, with its flags and neighbour directions. */
CT__PRIVATE void ct__mesh_tri_setup(const ct__mesh_job *j, int ti, ct__mtri *t) {
    const ct_mesh *m = j->m;
    int k, ok;
    for (k = 0; k < 3; ++k) t->v[k] = ct__xf_point(&j->rel, ct__mesh_vert(m, ti, k));
    t->f = ct__xf_dir(&j->rel, m->normals[ti]);
    t->flags = m->flags[ti];
    t->L = j->L;
    for (k = 0; k < 3; ++k) {
        int u = m->adj[3 * ti + k];
        if (u >= 0 && (t->flags & CT__MESH_F_EDGE(k))) t->nb[k] = ct__xf_dir(&j->rel, m->normals[u]);
        else t->nb[k] = ct__normalize(ct__cross(ct__sub(t->v[(k + 1) % 3], t->v[k]), t->f), &ok);
    }
}

/* Appends one point (working frame -> world through j->xa); 0 when memory fails. */
CT__PRIVATE int ct__mesh_emit(ct__mesh_job *j, int ti, ct_vec3 nrm, const ct__mpt *q) {
    ct_mesh_point *p;
    if (!ct__mesh_grow(j->out, j->out->npoints + 1)) { j->failed = 1; return 0; }
    p = &j->out->points[j->out->npoints++];
    p->point = ct__xf_point(j->xa, q->p);
    p->normal = ct__xf_dir(j->xa, nrm);
    p->separation = q->s;
    p->triangle = ti;
    p->id = q->id;
    p->manifold = -1;
    return 1;
}

CT__PRIVATE int ct__mesh_visit_hull(void *user, int ti) {
    ct__mesh_job *j = (ct__mesh_job *)user;
    ct__mtri t;
    ct__mpt pts[CT__MESH_POLY];
    ct_vec3 nrm;
    int k, n;
    ct__mesh_tri_setup(j, ti, &t);
    /* one-sided: a hull whose centre is behind the triangle's plane came from behind */
    if (ct__dot(ct__sub(j->h->center, t.v[0]), t.f) < 0) return 1;
    n = ct__mesh_hull_tri(j->h, &t, j->spec, &nrm, pts);
    for (k = 0; k < n; ++k)
        if (!ct__mesh_emit(j, ti, nrm, &pts[k])) return 0;
    return 1;
}

CT__PRIVATE int ct__mesh_point_cmp(const void *pa, const void *pb) {
    const ct_mesh_point *a = (const ct_mesh_point *)pa, *b = (const ct_mesh_point *)pb;
    if (a->triangle != b->triangle) return a->triangle < b->triangle ? -1 : 1;
    return a->id < b->id ? -1 : (a->id > b->id);
}

/* Drops points that another triangle found too (same place, parallel normals), keeping the
   first in (triangle, id) order. */
CT__PRIVATE void ct__mesh_dedup(ct_mesh_contacts *c, ct_real tol) {
    int i, j, n = 0;
    for (i = 0; i < c->npoints; ++i) {
        int dup = 0;
        for (j = 0; j < n && !dup; ++j)
            dup = ct__dist(c->points[i].point, c->points[j].point) <= tol &&
                  ct__dot(c->points[i].normal, c->points[j].normal) >= CT__MESH_MERGE_COS;
        if (!dup) c->points[n++] = c->points[i];
    }
    c->npoints = n;
}

CT__INLINE unsigned ct__mesh_point_id(const ct_mesh_point *p) { return p->id ^ ((unsigned)p->triangle * 2654435761u); }

/* Groups the points by normal into manifolds (first-come order), each reduced to at most
   CT_MANIFOLD_MAX points; marks each point with its manifold, or -1 when the reduction left it
   out. */
CT__PRIVATE void ct__mesh_group(ct_mesh_contacts *c, ct_real tol) {
    int i, g;
    c->nmanifolds = 0;
    for (i = 0; i < c->npoints; ++i) {
        for (g = 0; g < c->nmanifolds; ++g)
            if (ct__dot(c->points[i].normal, c->manifolds[g].normal) >= CT__MESH_MERGE_COS) break;
        if (g == c->nmanifolds) {
            memset(&c->manifolds[g], 0, sizeof c->manifolds[g]);
            c->manifolds[g].normal = c->points[i].normal;
            c->nmanifolds++;
        }
        c->points[i].manifold = g;
    }
    for (g = 0; g < c->nmanifolds; ++g) {
        ct_manifold *m = &c->manifolds[g];
        ct__mpt p[CT__MESH_POLY];
        int n = 0, a, b;
        /* reduced in chunks: the kept points plus the next ones, until all were seen */
        for (i = 0; i < c->npoints; ++i) {
            if (c->points[i].manifold != g) continue;
            c->points[i].manifold = -1;
            p[n].p = c->points[i].point; p[n].s = c->points[i].separation; p[n].id = (unsigned)i;
            if (++n == CT__MESH_POLY) n = ct__mesh_reduce(p, n, m->normal, tol);
        }
        n = ct__mesh_reduce(p, n, m->normal, tol);
        for (a = 0; a < n; ++a) {
            ct_mesh_point *q = &c->points[p[a].id];
            q->manifold = g;
            /* insertion by id: manifold points are sorted by id */
            for (b = m->count; b > 0 && m->points[b - 1].id > ct__mesh_point_id(q); --b) m->points[b] = m->points[b - 1];
            m->points[b].point = q->point;
            m->points[b].separation = q->separation;
            m->points[b].id = ct__mesh_point_id(q);
            m->count++;
        }
        ct__manifold_deepest(m);
    }
}

/* Sorts the points by (triangle, id), drops the duplicates and groups them into manifolds. */
CT__PRIVATE void ct__mesh_finish(ct_mesh_contacts *out, ct_real scale) {
    if (out->npoints > 1) qsort(out->points, (size_t)out->npoints, sizeof *out->points, ct__mesh_point_cmp);
    ct__mesh_dedup(out, CT__MESH_DUP * scale);
    ct__mesh_group(out, CT__MESH_FEAT * scale);
}

CTDEF void ct_mesh_contacts_init(ct_mesh_contacts *c, const ct_allocator *a) {
    if (!c) return;
    memset(c, 0, sizeof *c);
    c->ct__alloc = ct__allocator(a);
    c->ct__has_alloc = 1;
}

CTDEF void ct_mesh_contacts_free(ct_mesh_contacts *c) {
    if (!c) return;
    if (c->ct__has_alloc) {
        ct__free(&c->ct__alloc, c->points);
        ct__free(&c->ct__alloc, c->manifolds);
    }
    memset(c, 0, sizeof *c);
}

CTDEF ct_status ct_manifold_hull_mesh(const ct_hull *a, const ct_xform *xa, const ct_mesh *m, const ct_xform *xm,
                                      ct_real speculative, ct_mesh_contacts *out) {
    ct__mesh_job job;
    ct_xform inv;
    ct_aabb q;
    ct_real grow, scale;
    if (!out) return CT_INVALID;
    if (!out->ct__has_alloc) ct_mesh_contacts_init(out, NULL); /* a zeroed struct works too */
    out->npoints = out->nmanifolds = 0;
    if (!a || !ct__sat_hull_ok(a) || !ct__mesh_ok(m) || !ct__xf_valid(xa) || !ct__xf_valid(xm) || !ct__finite(speculative) ||
        speculative < 0)
        return CT_INVALID;
    memset(&job, 0, sizeof job);
    job.h = a; job.m = m; job.xa = xa; job.out = out;
    job.spec = speculative;
    job.rel = ct__xf_rel(xa, xm);
    inv = ct__xf_rel(xm, xa);
    job.L = 2 * a->extent;
    /* the hull's box in the mesh's frame, grown by speculative and the rounding of the moves */
    q = ct_hull_aabb(a, &inv);
    grow = speculative + CT__MESH_FEAT * (a->extent + ct__maxabs(inv.p));
    q.lo = ct__sub(q.lo, ct__v3(grow, grow, grow));
    q.hi = ct__add(q.hi, ct__v3(grow, grow, grow));
    if (!ct__finite3(q.lo) || !ct__finite3(q.hi)) return CT_INVALID;
    ct__mesh_query(m, q, ct__mesh_visit_hull, &job);
    if (job.failed) {
        out->npoints = out->nmanifolds = 0;
        return CT_NO_MEMORY;
    }
    scale = a->extent + ct__maxabs(a->center) + (xa ? ct__maxabs(xa->p) : 0);
    ct__mesh_finish(out, scale);
    return CT_OK;
}

/* ---- capsules and spheres against the mesh -------------------------------------------------------- */
/* Is p inside the prism of triangle t (its three side planes, edges included)? */
CT__PRIVATE int ct__mesh_in_prism(const ct__mtri *t, ct_vec3 p) {
    int k;
    for (k = 0; k < 3; ++k)
        if (ct__dot(ct__cross(ct__sub(t->v[(k + 1) % 3], t->v[k]), ct__sub(p, t->v[k])), t->f) < 0) return 0;
    return 1;
}

/* Closest points of segment p0-p1 and triangle t: ps on the segment, pt on the triangle; the
   candidates are the endpoints over the face, the segment against the three edges, and the
   segment crossing the face (distance 0). Returns the distance. */
CT__PRIVATE ct_real ct__mesh_seg_tri(const ct__mtri *t, ct_vec3 p0, ct_vec3 p1, ct_vec3 *ps, ct_vec3 *pt) {
    ct_real best = CT__MAXR, d0 = ct__dot(ct__sub(p0, t->v[0]), t->f), d1 = ct__dot(ct__sub(p1, t->v[0]), t->f), s, u, d;
    ct_vec3 e[2], q;
    int k;
    e[0] = p0; e[1] = p1;
    *ps = p0; *pt = t->v[0];
    if ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0)) {
        q = ct__lerp(p0, p1, d0 / (d0 - d1));
        if (ct__mesh_in_prism(t, q)) { *ps = *pt = q; return 0; }
    }
    for (k = 0; k < 2; ++k) {
        ct_real dk = k ? d1 : d0;
        q = ct__madd(e[k], t->f, -dk);
        if (ct__abs(dk) < best && ct__mesh_in_prism(t, q)) { best = ct__abs(dk); *ps = e[k]; *pt = q; }
    }
    for (k = 0; k < 3; ++k) {
        ct_vec3 w = ct__sub(t->v[(k + 1) % 3], t->v[k]), a, b;
        ct__pair_seg_seg(p0, ct__sub(p1, p0), t->v[k], w, &s, &u);
        a = ct__lerp(p0, p1, s); b = ct__madd(t->v[k], w, u);
        d = ct__dist(a, b);
        if (d < best) { best = d; *ps = a; *pt = b; }
    }
    return best;
}

/* Face contact of the capsule core point e (radius r) on triangle t: normal -f. */
CT__INLINE void ct__mesh_cap_face(const ct__mtri *t, ct_vec3 e, ct_real r, unsigned id, ct__mpt *pt) {
    ct_real s = ct__dot(ct__sub(e, t->v[0]), t->f) - r;
    pt->p = ct__madd(e, t->f, -(r + s / 2));
    pt->s = s;
    pt->id = id;
}

/* Capsule p0-p1 of radius r (the triangle's frame) against triangle t: up to two points. A
   segment parallel to the face within CT__PAIR_PARALLEL lies on it: its part over the
   triangle gives its two ends. Otherwise the closest points give one (normal along them) when
   that normal is legitimate for the triangle's feature; else the face contact of the closest
   segment point when it lies over the triangle. A core crossing the face: the face contact of
   the deeper end. */
CT__PRIVATE int ct__mesh_capsule_tri(const ct__mtri *t, ct_vec3 p0, ct_vec3 p1, ct_real r, ct_real spec, ct_vec3 *nrm, ct__mpt *pts) {
    ct_vec3 ps = p0, pq = p0, u = ct__sub(p1, p0);
    ct_real d = ct__mesh_seg_tri(t, p0, p1, &ps, &pq), len = ct__len(u), lo = 0, hi = 1;
    int k, n = 0, ok;
    if (d - r > spec) return 0;
    *nrm = ct__neg(t->f);
    if (d > 0 && len > 0 && ct__abs(ct__dot(u, t->f)) <= CT__PAIR_PARALLEL * len) {
        for (k = 0; k < 3 && lo <= hi; ++k) { /* clip the segment to the triangle's prism */
            ct_vec3 side = ct__cross(ct__sub(t->v[(k + 1) % 3], t->v[k]), t->f);
            ct_real a = ct__dot(side, ct__sub(p0, t->v[k])), b = ct__dot(side, ct__sub(p1, t->v[k]));
            if (a > 0 && b > 0) { hi = -1; break; }
            if (a > 0) lo = ct__max(lo, a / (a - b));
            else if (b > 0) hi = ct__min(hi, a / (a - b));
        }
        if (lo <= hi) {
            ct__mesh_cap_face(t, ct__lerp(p0, p1, lo), r, 0x80000000u, &pts[n]);
            if (pts[n].s <= spec) ++n;
            ct__mesh_cap_face(t, ct__lerp(p0, p1, hi), r, 0x80000001u, &pts[n]);
            if (pts[n].s <= spec && hi > lo) ++n;
            return n;
        }
    }
    if (d > 0) {
        ct_vec3 nn = ct__normalize(ct__sub(pq, ps), &ok);
        /* along the face normal (within rounding): the face contact below, exactly -f */
        int face = ok && ct__dot(nn, t->f) <= -CT__MESH_MERGE_COS;
        if (face) {
            ct__mesh_cap_face(t, ps, r, 0x80000003u, &pts[0]);
            return pts[0].s <= spec;
        }
        if (ok && ct__mesh_legit(t, nn)) {
            *nrm = nn;
            pts[0].s = d - r;
            pts[0].p = ct__lerp(ct__madd(ps, nn, r), pq, (ct_real)0.5);
            pts[0].id = 0x80000002u;
            return 1;
        }
        if (!ct__mesh_in_prism(t, ps)) return 0; /* the neighbour owns it */
        ct__mesh_cap_face(t, ps, r, 0x80000003u, &pts[0]);
        return pts[0].s <= spec;
    }
    ct__mesh_cap_face(t, ct__dot(p0, t->f) < ct__dot(p1, t->f) ? p0 : p1, r, 0x80000004u, &pts[0]);
    return pts[0].s <= spec;
}

CT__PRIVATE int ct__mesh_visit_capsule(void *user, int ti) {
    ct__mesh_job *j = (ct__mesh_job *)user;
    ct__mtri t;
    ct__mpt pts[2];
    ct_vec3 nrm;
    int k, n;
    ct__mesh_tri_setup(j, ti, &t);
    /* one-sided: a core whose middle is behind the triangle's plane came from behind */
    if (ct__dot(ct__sub(ct__lerp(j->c0, j->c1, (ct_real)0.5), t.v[0]), t.f) < 0) return 1;
    n = ct__mesh_capsule_tri(&t, j->c0, j->c1, j->r, j->spec, &nrm, pts);
    for (k = 0; k < n; ++k)
        if (!ct__mesh_emit(j, ti, nrm, &pts[k])) return 0;
    return 1;
}

/* The capsule (sphere: p0 == p1) entry points share this. */
CT__PRIVATE ct_status ct__mesh_capsule(ct_vec3 p0, ct_vec3 p1, ct_real r, const ct_mesh *m, const ct_xform *xm, ct_real spec,
                                       ct_mesh_contacts *out) {
    ct__mesh_job job;
    ct_aabb q;
    ct_real grow, scale;
    if (!ct__mesh_ok(m) || !ct__xf_valid(xm) || !ct__finite(spec) || spec < 0 || !ct__finite(r) || r < 0 || !ct__finite3(p0) ||
        !ct__finite3(p1))
        return CT_INVALID;
    memset(&job, 0, sizeof job);
    job.m = m; job.xa = xm; job.out = out; job.spec = spec; job.r = r;
    job.rel = ct__xf_identity(); /* the work is done in the mesh's frame */
    job.c0 = ct__xf_inv_point(xm, p0);
    job.c1 = ct__xf_inv_point(xm, p1);
    job.L = 2 * r + ct__dist(p0, p1);
    grow = r + spec + CT__MESH_FEAT * (job.L + ct__maxabs(job.c0));
    q.lo = ct__sub(ct__vmin(job.c0, job.c1), ct__v3(grow, grow, grow));
    q.hi = ct__add(ct__vmax(job.c0, job.c1), ct__v3(grow, grow, grow));
    if (!ct__finite3(q.lo) || !ct__finite3(q.hi) || !ct__finite(job.L)) return CT_INVALID;
    ct__mesh_query(m, q, ct__mesh_visit_capsule, &job);
    if (job.failed) return CT_NO_MEMORY;
    scale = job.L + ct__maxabs(p0) + ct__maxabs(p1);
    ct__mesh_finish(out, scale);
    return CT_OK;
}

CTDEF ct_status ct_manifold_sphere_mesh(ct_vec3 center, ct_real radius, const ct_mesh *m, const ct_xform *xm, ct_real speculative,
                                        ct_mesh_contacts *out) {
    ct_status st;
    if (!out) return CT_INVALID;
    if (!out->ct__has_alloc) ct_mesh_contacts_init(out, NULL);
    out->npoints = out->nmanifolds = 0;
    st = ct__mesh_capsule(center, center, radius, m, xm, speculative, out);
    if (st != CT_OK) out->npoints = out->nmanifolds = 0;
    return st;
}

CTDEF ct_status ct_manifold_capsule_mesh(const ct_capsule *a, const ct_xform *xa, const ct_mesh *m, const ct_xform *xm,
                                         ct_real speculative, ct_mesh_contacts *out) {
    ct_status st;
    if (!out) return CT_INVALID;
    if (!out->ct__has_alloc) ct_mesh_contacts_init(out, NULL);
    out->npoints = out->nmanifolds = 0;
    if (!a || !ct__xf_valid(xa)) return CT_INVALID;
    st = ct__mesh_capsule(ct__xf_point(xa, a->p0), ct__xf_point(xa, a->p1), a->radius, m, xm, speculative, out);
    if (st != CT_OK) out->npoints = out->nmanifolds = 0;
    return st;
}

/* ---- ray cast ------------------------------------------------------------------------------------ */
typedef struct ct__mesh_ray {
    const ct_mesh *m;
    ct_vec3 o, d, inv;     /* mesh frame; inv = 1 / d per axis (inf for 0) */
    ct_real best;          /* fraction of the nearest hit so far (1: none) */
    int tri;
} ct__mesh_ray;

/* The segment o + t d, t in [0, best], meets box b (slab test; closed box). */
CT__PRIVATE int ct__mesh_ray_box(const ct__mesh_ray *r, const ct_aabb *b) {
    ct_real lo = 0, hi = r->best, t0, t1, s;
    int k;
    for (k = 0; k < 3; ++k) {
        ct_real o = ct__vget(r->o, k), d = ct__vget(r->d, k), bl = ct__vget(b->lo, k), bh = ct__vget(b->hi, k);
        if (d == 0) {
            if (o < bl || o > bh) return 0;
            continue;
        }
        s = ct__vget(r->inv, k);
        t0 = (bl - o) * s; t1 = (bh - o) * s;
        if (t0 > t1) { ct_real x = t0; t0 = t1; t1 = x; }
        lo = ct__max(lo, t0); hi = ct__min(hi, t1);
        if (lo > hi) return 0;
    }
    return 1;
}

/* Front-face hit of triangle t at a fraction below r->best (edges and vertices included). */
CT__PRIVATE void ct__mesh_ray_tri(ct__mesh_ray *r, int t) {
    const ct_mesh *m = r->m;
    ct_vec3 v0 = ct__mesh_vert(m, t, 0), n = m->normals[t], p;
    ct_real den = ct__dot(r->d, n), f;
    int k;
    if (!(den < 0)) return; /* parallel, or seen from behind */
    f = ct__dot(ct__sub(v0, r->o), n) / den;
    if (!(f >= 0) || f > r->best || (f == r->best && r->tri >= 0 && t > r->tri)) return;
    p = ct__madd(r->o, r->d, f);
    for (k = 0; k < 3; ++k) {
        ct_vec3 a = ct__mesh_vert(m, t, k), b = ct__mesh_vert(m, t, (k + 1) % 3);
        if (ct__dot(ct__cross(ct__sub(b, a), ct__sub(p, a)), n) < 0) return;
    }
    r->best = f;
    r->tri = t;
}

CTDEF ct_status ct_ray_cast_mesh(const ct_mesh *m, const ct_xform *xm, ct_vec3 origin, ct_vec3 translation, ct_ray_hit *out) {
    ct__mesh_ray r;
    int stack[CT__MESH_STACK], top = 0, i, k;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->face = -1;
    if (!ct__mesh_ok(m) || !ct__xf_valid(xm) || !ct__finite3(origin) || !ct__finite3(translation)) return CT_INVALID;
    r.m = m;
    r.o = ct__xf_inv_point(xm, origin);
    r.d = ct__xf_inv_dir(xm, translation);
    if (!ct__finite3(r.o) || !ct__finite3(r.d)) return CT_INVALID;
    for (k = 0; k < 3; ++k) {
        ct_real d = ct__vget(r.d, k);
        ct_real s = d != 0 ? 1 / d : 0;
        if (k == 0) r.inv.x = s; else if (k == 1) r.inv.y = s; else r.inv.z = s;
    }
    r.best = 1;
    r.tri = -1;
    if (ct__len2(r.d) == 0) return CT_OK; /* an empty translation hits nothing */
    stack[top++] = 0;
    while (top > 0) {
        int n = stack[--top];
        if (!ct__mesh_ray_box(&r, &m->ct__node_box[n])) continue;
        if (m->ct__node_n[n] > 0) {
            for (i = 0; i < m->ct__node_n[n]; ++i) ct__mesh_ray_tri(&r, m->ct__order[m->ct__node_a[n] + i]);
            continue;
        }
        CT_ASSERT(top + 2 <= CT__MESH_STACK);
        stack[top++] = m->ct__node_a[n] + 1;
        stack[top++] = m->ct__node_a[n];
    }
    if (r.tri < 0) return CT_OK;
    out->hit = 1;
    out->fraction = r.best;
    out->point = ct__madd(origin, translation, r.best);
    out->normal = ct__xf_dir(xm, m->normals[r.tri]);
    out->face = r.tri;
    return CT_OK;
}
