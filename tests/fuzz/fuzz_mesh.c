/* fuzz-ci-runs: 60000 */
/* Fuzz the meshes: ct_mesh_build on up to 8 vertices and 8 triangles (NaN/Inf coordinates,
   indices out of range, repeated and collinear vertices, any sizes), ct_mesh_heightfield on a
   3 x 3 grid, and ct_manifold_hull_mesh of a hull against the mesh with broken transforms and
   speculative distances, spheres and capsules against the mesh, and ct_ray_cast_mesh. Checks: only the documented statuses; a mesh that is built has unit
   or zero normals, adjacency in range and symmetric; a transform that is not a rotation is
   CT_INVALID; on CT_OK finite points, unit normals, separations <= speculative, points sorted
   by (triangle, id) with valid triangles, manifolds of 1..4 points whose counts match the
   points marked with them; a ray hit's fraction in [0, 1], unit normal, a live triangle. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_check_mesh(const ct_mesh *m) {
    int t, k, j;
    for (t = 0; t < m->ntris; ++t) {
        FZ_CHECK(fz_unit(m->normals[t]) || (m->flags[t] & 64u));
        for (k = 0; k < 3; ++k) {
            int u = m->adj[3 * t + k], back = 0;
            FZ_CHECK(u >= -1 && u < m->ntris);
            if (u < 0) continue;
            for (j = 0; j < 3; ++j) back += m->adj[3 * u + j] == t;
            FZ_CHECK(back >= 1);
        }
    }
}

static void fz_check_contacts(const ct_mesh *m, const ct_mesh_contacts *c, ct_real spec) {
    int i, g;
    for (i = 0; i < c->npoints; ++i) {
        const ct_mesh_point *p = &c->points[i];
        FZ_CHECK(p->triangle >= 0 && p->triangle < m->ntris && !(m->flags[p->triangle] & 64u));
        FZ_CHECK(fz_finite3(p->point) && fz_finite((double)p->separation) && fz_unit(p->normal));
        FZ_CHECK(p->separation <= spec);
        FZ_CHECK(p->manifold >= -1 && p->manifold < c->nmanifolds);
        if (i > 0) FZ_CHECK(c->points[i - 1].triangle < p->triangle || (c->points[i - 1].triangle == p->triangle && c->points[i - 1].id <= p->id));
    }
    for (g = 0; g < c->nmanifolds; ++g) {
        int n = 0;
        FZ_CHECK(c->manifolds[g].count >= 1 && c->manifolds[g].count <= CT_MANIFOLD_MAX);
        FZ_CHECK(fz_unit(c->manifolds[g].normal));
        for (i = 0; i < c->npoints; ++i) n += c->points[i].manifold == g;
        FZ_CHECK(n == c->manifolds[g].count);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    double scale = fz_scale(&f);
    unsigned flags = fz_byte(&f);
    int nv = (int)(fz_byte(&f) % 9), nt = (int)(fz_byte(&f) % 9), tris[24], i, rigid, rigid_m, have_hull;
    ct_vec3 v[8];
    ct_real hf[9], spec;
    ct_mesh m;
    ct_hull h;
    ct_xform x, xm;
    ct_mesh_contacts c = { 0 };
    ct_status st;
    for (i = 0; i < nv; ++i) v[i] = flags & 1 ? fz_vec(&f, scale) : ct__v3((ct_real)(fz_byte(&f) % 4), (ct_real)(fz_byte(&f) % 4), fz_safe_real(&f, scale, 0.5));
    for (i = 0; i < 3 * nt; ++i) tris[i] = (int)(fz_byte(&f) % 10) - 1; /* -1 and 8 are out of range */
    if (flags & 2) {
        for (i = 0; i < 9; ++i) hf[i] = flags & 4 ? fz_real(&f, scale) : fz_safe_real(&f, scale, 0.5);
        st = ct_mesh_heightfield(hf, 3, 3, fz_real(&f, scale), fz_real(&f, scale), NULL, &m);
    } else {
        st = ct_mesh_build(v, nv, tris, nt, NULL, &m);
    }
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE);
    if (st != CT_OK) { FZ_CHECK(m.ct__block == NULL); return 0; }
    fz_check_mesh(&m);
    {   /* ray cast */
        ct_ray_hit rh;
        ct_vec3 o = fz_vec(&f, 3 * scale), d = fz_vec(&f, 6 * scale);
        xm = fz_xform_r(&f, scale, &rigid_m);
        st = ct_ray_cast_mesh(&m, flags & 32 ? NULL : &xm, o, d, &rh);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (!(flags & 32) && !rigid_m) FZ_CHECK(st == CT_INVALID);
        if (st != CT_OK) FZ_CHECK(rh.hit == 0 && rh.face == -1);
        if (st == CT_OK && rh.hit) {
            FZ_CHECK(rh.fraction >= 0 && rh.fraction <= 1 && fz_unit(rh.normal));
            FZ_CHECK(rh.face >= 0 && rh.face < m.ntris && !(m.flags[rh.face] & 64u));
        }
    }
    {   /* a sphere and a capsule */
        ct_capsule cap;
        ct_real sspec = flags & 64 ? fz_real(&f, scale) : 0;
        cap.p0 = fz_vec(&f, scale); cap.p1 = fz_vec(&f, scale); cap.radius = fz_real(&f, scale);
        x = fz_xform_r(&f, scale, &rigid);
        st = ct_manifold_sphere_mesh(cap.p0, cap.radius, &m, NULL, sspec, &c);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (st == CT_OK) fz_check_contacts(&m, &c, sspec);
        else FZ_CHECK(c.npoints == 0 && c.nmanifolds == 0);
        st = ct_manifold_capsule_mesh(&cap, &x, &m, NULL, sspec, &c);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (!rigid) FZ_CHECK(st == CT_INVALID);
        if (st == CT_OK) fz_check_contacts(&m, &c, sspec);
        else FZ_CHECK(c.npoints == 0 && c.nmanifolds == 0);
    }
    have_hull = fz_safe_hull(&f, &h, scale);
    if (have_hull) {
        x = fz_xform_r(&f, scale, &rigid);
        xm = fz_xform_r(&f, scale, &rigid_m);
        spec = flags & 8 ? fz_real(&f, scale) : 0;
        st = ct_manifold_hull_mesh(&h, &x, &m, flags & 16 ? NULL : &xm, spec, &c);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (!rigid || (!(flags & 16) && !rigid_m)) FZ_CHECK(st == CT_INVALID);
        if (st == CT_OK) fz_check_contacts(&m, &c, spec);
        else FZ_CHECK(c.npoints == 0 && c.nmanifolds == 0);
        ct_hull_free(&h);
    }
    ct_mesh_contacts_free(&c);
    ct_mesh_free(&m);
    return 0;
}
