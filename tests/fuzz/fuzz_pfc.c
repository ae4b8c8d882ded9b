/* fuzz-ci-runs: 20000 */
/* Fuzz the PFC rigid-block entry points: ct_contact_hulls_warm (two calls, the second after a
   small motion), ct_contact_hulls_reduced, ct_contact_rounded_hulls (both modes, with and without a
   ct_block_cache),
   ct_contact_facet_hull, ct_contact_hull_sphere, ct_hull_erode (+ ct_hull_rounded_volume,
   ct_hull_rounded_mass), ct_contact_mesh_hull (A's surface as a wall mesh, and A's first
   triangle alone against ct_contact_facet_hull) and ct_shape_cylinder. Two lattice hulls placed by rigid or broken transforms, radii from the
   input. Checks: allowed statuses, CT_INVALID exactly for broken transforms / bad radii;
   found contacts have finite fields, a unit normal and gap <= 0; warm == cold in found (and
   in every field to the polar tolerance when the overlap is clear); the eroded core is a
   valid hull inside the block with volume <= the block's; the rounded mass equals the rounded
   volume (density 1) with a symmetric inertia obeying the triangle inequality; the wall's
   contacts are finite, unit-normal, gap <= 0, and a one-triangle wall finds what the facet
   finds when its overlap is clear. */
#include "fuzz_input.h"

/* Surface area of a hull (fans of its faces). */
static double fz_area(const ct_hull *h) {
    double a = 0;
    int f, k;
    for (f = 0; f < h->nfaces; ++f) {
        ct_vec3 p0 = h->verts[h->face_verts[h->face_first[f]]];
        for (k = h->face_first[f] + 1; k + 1 < h->face_first[f + 1]; ++k)
            a += 0.5 * (double)ct__len(ct__cross(ct__sub(h->verts[h->face_verts[k]], p0), ct__sub(h->verts[h->face_verts[k + 1]], p0)));
    }
    return a;
}

/* 1 when the triangle's box meets the block's world box grown by the block's diameter: the
   facets ct_contact_mesh_hull considers for a block pushed wholly behind the wall (contact.h);
   ct_contact_facet_hull's prism reaches any depth (a block 9000 behind a one-triangle mesh, far
   beyond that, was its contact and not the mesh's). */
static int fz_within_reach(const ct_vec3 tri[3], const ct_hull *b, const ct_xform *xb) {
    ct_aabb bb = ct_hull_aabb(b, xb);
    double g = 2 * (double)b->extent;
    int k;
    for (k = 0; k < 3; ++k) {
        double lo = (double)ct__vget(tri[0], k), hi = lo;
        lo = fmin(lo, fmin((double)ct__vget(tri[1], k), (double)ct__vget(tri[2], k)));
        hi = fmax(hi, fmax((double)ct__vget(tri[1], k), (double)ct__vget(tri[2], k)));
        if (hi < (double)ct__vget(bb.lo, k) - g || lo > (double)ct__vget(bb.hi, k) + g) return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_contact_ok(const ct_contact *c) {
    if (!c->found) return;
    FZ_CHECK(fz_finite3(c->point) && fz_finite3(c->centroid) && fz_finite((double)c->gap));
    FZ_CHECK(fz_finite((double)c->area) && c->area >= 0 && fz_finite((double)c->volume) && c->volume >= 0);
    FZ_CHECK(fz_unit(c->normal));
    FZ_CHECK(c->gap <= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    ct_hull A, B, core;
    ct_xform xa, xb, xb2;
    int ra, rb, okA, okB, valid;
    double scale = fz_scale(&f), P;
    unsigned flags;
    ct_real rad_a, rad_b;
    ct_contact c, cw, cc;
    ct_contact_cache cache;
    ct_status st, st2;
    memset(&A, 0, sizeof A);
    memset(&B, 0, sizeof B);
    memset(&cache, 0, sizeof cache);
    okA = fz_safe_hull(&f, &A, scale);
    okB = fz_safe_hull(&f, &B, scale);
    xa = fz_xform_r(&f, scale, &ra);
    xb = fz_xform_r(&f, scale, &rb);
    flags = fz_byte(&f);
    rad_a = fz_real(&f, scale * 0.25);
    rad_b = fz_real(&f, scale * 0.25);
    if (!okA || !okB) goto done;
    valid = ra && rb && fz_finite3(xa.p) && fz_finite3(xb.p);
    P = (double)A.extent + (double)B.extent + fz_maxabs(A.verts, A.nverts) + fz_maxabs(B.verts, B.nverts) +
        (valid ? fz_maxabs(&xa.p, 1) + fz_maxabs(&xb.p, 1) : 0);
    if (P > FZ_BIG) valid = -1;   /* overflowing placements: any allowed status */

    /* warm: two calls, the second after a small motion of B */
    st = ct_contact_hulls_warm(&A, &xa, &B, &xb, &cache, NULL, &cw);
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE);
    if (valid == 1) FZ_CHECK(st != CT_INVALID);
    if (valid == 0) FZ_CHECK(st == CT_INVALID && !cw.found);
    if (st == CT_OK) fz_contact_ok(&cw);
    xb2 = xb;
    xb2.p.x = (ct_real)((double)xb2.p.x + 1e-3 * (double)B.extent * ((flags & 1) ? 1 : -1));
    st = ct_contact_hulls_warm(&A, &xa, &B, &xb2, &cache, NULL, &cw);
    st2 = ct_contact_hulls(&A, &xa, &B, &xb2, NULL, &cc);
    FZ_CHECK(st == st2);
    if (st == CT_OK && valid == 1) {
        fz_contact_ok(&cw);
        FZ_CHECK(cw.found == cc.found || cc.volume <= 1e-6 * (double)(A.extent * A.extent * A.extent));
    }
    ct_contact_cache_free(&cache);

    st = ct_contact_hulls_reduced(&A, &xa, &B, &xb, NULL, NULL, &c);
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
    if (valid == 0) FZ_CHECK(st == CT_INVALID && !c.found);
    if (st == CT_OK) fz_contact_ok(&c);
    {   /* with a block cache over three small steps of B: the SAT's axis (kept, or answered by its
           certificate) is the cold call's, so status, found, gap and normal are the cold ones */
        ct_block_cache bc;
        int k;
        memset(&bc, 0, sizeof bc);
        xb2 = xb;
        for (k = 0; k < 3; ++k) {
            st = ct_contact_hulls_reduced(&A, &xa, &B, &xb2, &bc, NULL, &cw);
            st2 = ct_contact_hulls_reduced(&A, &xa, &B, &xb2, NULL, NULL, &cc);
            FZ_CHECK(st == st2);
            if (st == CT_OK && valid == 1) {
                FZ_CHECK(cw.found == cc.found);
                FZ_CHECK(!memcmp(&cw.gap, &cc.gap, sizeof cw.gap) && !memcmp(&cw.normal, &cc.normal, sizeof cw.normal));
            }
            xb2.p.y = (ct_real)((double)xb2.p.y + 1e-3 * (double)B.extent * ((flags & 8) ? 1 : -1));
        }
    }

    st = ct_contact_rounded_hulls(&A, &xa, rad_a, &B, &xb, rad_b, (int)((flags >> 1) & 1), NULL, NULL, &c);
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
    if (valid == 0 || !(rad_a >= 0) || !(rad_b >= 0)) FZ_CHECK(st == CT_INVALID && !c.found);
    if (st == CT_OK) fz_contact_ok(&c);
    {   /* the same with a ct_block_cache, twice (the second call warm-started): statuses as
           above, finite contacts, the cache freed */
        ct_block_cache bc;
        int k;
        ct_block_cache_init(&bc, NULL);
        for (k = 0; k < 2; ++k) {
            st = ct_contact_rounded_hulls(&A, &xa, rad_a, &B, &xb, rad_b, (int)((flags >> 1) & 1), &bc, NULL, &cw);
            FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
            if (valid == 0 || !(rad_a >= 0) || !(rad_b >= 0)) FZ_CHECK(st == CT_INVALID && !cw.found);
            if (st == CT_OK) fz_contact_ok(&cw);
        }
        ct_block_cache_free(&bc);
    }

    {
        ct_vec3 tri[3];
        int k;
        for (k = 0; k < 3; ++k) tri[k] = ct__xf_point(&xa, A.verts[k % A.nverts]);
        st = ct_contact_facet_hull(tri, &B, &xb, (int)((flags >> 2) & 1), NULL, &c);
        FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
        if (st == CT_OK) fz_contact_ok(&c);
        st = ct_contact_hull_sphere(&A, &xa, tri[0], rad_b, &c);
        FZ_CHECK(st == CT_OK || st == CT_INVALID);
        if (!(rad_b >= 0)) FZ_CHECK(st == CT_INVALID);
    }

    st = ct_hull_erode(&A, rad_a, NULL, &core);
    FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE || st == CT_NO_CONVERGENCE);
    if (!(rad_a >= 0) || !fz_finite((double)rad_a)) FZ_CHECK(st == CT_INVALID);
    if (st == CT_OK) {
        int k, j;
        double L = (double)A.extent + fz_maxabs(A.verts, A.nverts), tol = 1e4 * FZ_EPS * L, det[256];
        FZ_CHECK(core.nverts - core.nedges + core.nfaces == 2);
        /* the core's vertices are placed to within tol (a length), and an ill-conditioned one
           to eps / det of the size (the allowance of the vertex check below), so its volume to
           within that times the block's surface area (was tol^3: a sliver's core at radius 0,
           vertices 4e-7 off at coordinates 6e3, came out 9e-5 larger in a volume of 1.4e6;
           then tol alone: a slab 1e-7 thick and 14 wide eroded by 1e-310, its 8 core vertices
           placed by triples of det ~1e-8 up to 5e-7 off, had 1.57e-6 for the block's 1.31e-6) */
        FZ_CHECK(core.nverts <= 256);
        fz_vertex_det(&core, det);
        {
            double place = tol;
            for (k = 0; k < core.nverts && k < 256; ++k) place = fmax(place, tol + 1e3 * FZ_EPS * L / det[k]);
            FZ_CHECK((double)ct_hull_volume(&core, NULL) <= (double)ct_hull_volume(&A, NULL) * (1 + 1e3 * FZ_EPS) + place * fz_area(&A));
        }
#ifdef FZ_DEBUG
        fprintf(stderr, "erode: radius %.17g, block nv %d nf %d extent %.17g vol %.17g, core nv %d nf %d vol %.17g tol %g\n",
                (double)rad_a, A.nverts, A.nfaces, (double)A.extent, (double)ct_hull_volume(&A, NULL), core.nverts, core.nfaces,
                (double)ct_hull_volume(&core, NULL), tol);
        for (k = 0; k < A.nverts; ++k)
            fprintf(stderr, "  A { %.17g, %.17g, %.17g },\n", (double)A.verts[k].x, (double)A.verts[k].y, (double)A.verts[k].z);
        for (k = 0; k < core.nverts; ++k) {
            double worst = -1e300;
            for (j = 0; j < A.nfaces; ++j) worst = fmax(worst, (double)(ct__dot(A.planes[j].n, core.verts[k]) + A.planes[j].d) + (double)rad_a);
            fprintf(stderr, "  core { %.17g, %.17g, %.17g } beyond %g\n", (double)core.verts[k].x, (double)core.verts[k].y,
                    (double)core.verts[k].z, worst);
        }
        fz_vertex_det(&core, det);
        for (k = 0; k < core.nverts; ++k) {
            fprintf(stderr, "  det %d %g\n", k, det[k]);
        }
#endif
        /* inside the block by the radius, to rounding: a vertex is placed to eps / det of the
           size, det its best triple of unit normals (fuzz_polar's allowance; a lattice-like
           block with 1e-7 offsets eroded by 1e-310 split a vertex of four nearly flush faces,
           one copy placed by a triple of det ~1e-8, 1.1e-8 beyond a face) */
        FZ_CHECK(core.nverts <= 256);
        fz_vertex_det(&core, det);
        for (k = 0; k < core.nverts; ++k)
            for (j = 0; j < A.nfaces; ++j)
                FZ_CHECK((double)(ct__dot(A.planes[j].n, core.verts[k]) + A.planes[j].d) <=
                         -(double)rad_a + tol + 1e3 * FZ_EPS * L / det[k]);
        FZ_CHECK((double)ct_hull_rounded_volume(&core, rad_a) >= 0);
        ct_hull_free(&core);
    }

    {   /* rounded mass: the volume of Steiner's formula, a symmetric physical inertia */
        ct_real m, I[3][3];
        ct_vec3 g;
        st = ct_hull_rounded_mass(&A, rad_a, 1, &m, &g, I);
        FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_DEGENERATE);
        if (!(rad_a >= 0) || !fz_finite((double)rad_a)) FZ_CHECK(st == CT_INVALID);
        if (st == CT_OK && (double)rad_a < 1e3 * (double)A.extent && fz_maxabs(A.verts, A.nverts) < 1e3 * (double)A.extent) {
            double v = (double)ct_hull_rounded_volume(&A, rad_a), tr = (double)(I[0][0] + I[1][1] + I[2][2]);
            FZ_CHECK(fabs((double)m - v) <= 1e3 * FZ_EPS * v);
            FZ_CHECK(fz_finite3(g));
            FZ_CHECK(fabs((double)(I[0][1] - I[1][0])) <= 1e3 * FZ_EPS * tr && fabs((double)(I[0][2] - I[2][0])) <= 1e3 * FZ_EPS * tr);
            FZ_CHECK((double)I[0][0] <= (double)(I[1][1] + I[2][2]) + 1e3 * FZ_EPS * tr);
            FZ_CHECK((double)I[1][1] <= (double)(I[0][0] + I[2][2]) + 1e3 * FZ_EPS * tr);
            FZ_CHECK((double)I[2][2] <= (double)(I[0][0] + I[1][1]) + 1e3 * FZ_EPS * tr);
        }
    }

    if (valid == 1 && A.nverts <= 256) {   /* A's surface (placed by xa) as a wall, B against it */
        ct_vec3 v[256];
        int tris[3 * 512], nt = 0, k, j;
        ct_mesh m;
        ct_wall_contacts wc;
        for (k = 0; k < A.nverts; ++k) v[k] = ct__xf_point(&xa, A.verts[k]);
        for (k = 0; k < A.nfaces && nt < 512; ++k)
            for (j = A.face_first[k] + 1; j + 1 < A.face_first[k + 1] && nt < 512; ++j) {
                tris[3 * nt] = A.face_verts[A.face_first[k]];
                tris[3 * nt + 1] = A.face_verts[j];
                tris[3 * nt + 2] = A.face_verts[j + 1];
                ++nt;
            }
        ct_wall_contacts_init(&wc, NULL);
        st = ct_mesh_build(v, A.nverts, tris, nt, NULL, &m);
        FZ_CHECK(st == CT_OK || st == CT_DEGENERATE || st == CT_NO_MEMORY);
        if (st == CT_OK) {
            st = ct_contact_mesh_hull(&m, NULL, &B, &xb, NULL, &wc);
            FZ_CHECK(st == CT_OK || st == CT_NO_MEMORY);
            if (st == CT_OK) {
                FZ_CHECK(wc.count >= 0 && wc.count <= nt);
                for (k = 0; k < wc.count; ++k) {
                    fz_contact_ok(&wc.contacts[k]);
                    FZ_CHECK(wc.contacts[k].found && wc.contacts[k].face_a >= 0 && wc.contacts[k].face_a < nt);
                }
            }
            ct_mesh_free(&m);
        }
        if (ct_mesh_build(v, A.nverts, tris, 1, NULL, &m) == CT_OK) {   /* one triangle: as the facet */
            ct_vec3 tri[3];
            tri[0] = v[tris[0]]; tri[1] = v[tris[1]]; tri[2] = v[tris[2]];
            st = ct_contact_mesh_hull(&m, NULL, &B, &xb, NULL, &wc);
            st2 = ct_contact_facet_hull(tri, &B, &xb, 0, NULL, &c);
            FZ_CHECK(st == CT_OK || st == CT_NO_MEMORY);
#ifdef FZ_DEBUG
            {
                int q;
                fprintf(stderr, "facet: st %d %d, wall count %d vol %.9g, facet found %d vol %.9g gap %.9g\n", st, st2, wc.count,
                        wc.count > 0 ? (double)wc.contacts[0].volume : 0.0, c.found, (double)c.volume, (double)c.gap);
                for (q = 0; q < 3; ++q) fprintf(stderr, "  tri { %.9g, %.9g, %.9g },\n", (double)tri[q].x, (double)tri[q].y, (double)tri[q].z);
                for (q = 0; q < B.nverts; ++q)
                    fprintf(stderr, "  B { %.9g, %.9g, %.9g },\n", (double)B.verts[q].x, (double)B.verts[q].y, (double)B.verts[q].z);
                for (q = 0; q < 3; ++q)
                    fprintf(stderr, "  xb { %.9g, %.9g, %.9g }, %.9g\n", (double)xb.r[q][0], (double)xb.r[q][1], (double)xb.r[q][2],
                            (double)(q == 0 ? xb.p.x : q == 1 ? xb.p.y : xb.p.z));
            }
#endif
            if (st == CT_OK && st2 == CT_OK && fz_within_reach(tri, &B, &xb)) {
                double L = (double)B.extent + fz_maxabs(tri, 3) + fz_maxabs(&xb.p, 1);
                /* both to 1e-3, plus the polar construction's vertex tolerance (1e3 ulps of the
                   scene, as fuzz_polar allows) over the contact's area: a thin contact in float
                   (1.1e-6 deep in a 1.4e-5 block) differed by 1.1e-3 of its volume, the facet's
                   prism 630 ulps off a double reference where the wall's cut was within 1e-6 */
                if (c.found && c.volume > 1e-3 * (double)B.extent * (double)B.extent * (double)B.extent && L < 1e3 * (double)B.extent)
                    FZ_CHECK(wc.count == 1 && fabs((double)(wc.contacts[0].volume - c.volume)) <=
                                                  1e-3 * (double)c.volume + 2e3 * FZ_EPS * L * (double)c.area);
                if (!c.found) FZ_CHECK(wc.count == 0);
            }
            ct_mesh_free(&m);
        }
        ct_wall_contacts_free(&wc);
    }

    {   /* a cylinder of the input's sizes against B */
        ct_shape cy = ct_shape_cylinder(rad_a, rad_b), sb = ct_shape_hull(&B);
        ct_distance d;
        st = ct_signed_distance(&cy, &xa, &sb, &xb, NULL, NULL, &d);
        FZ_CHECK(st == CT_OK || st == CT_INVALID || st == CT_NO_CONVERGENCE || st == CT_NO_MEMORY);
        if (!(rad_a >= 0) || !(rad_b >= 0) || valid == 0) FZ_CHECK(st == CT_INVALID);
        if (st == CT_OK && valid == 1) FZ_CHECK(fz_finite((double)d.distance));
    }
done:
    ct_hull_free(&A);
    ct_hull_free(&B);
    return 0;
}
