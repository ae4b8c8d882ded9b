/* Concurrency check of every public entry point (no shared mutable state): 8 pthreads call everything at
   once on shared read-only inputs (hulls, point sets, boxes), each thread with its own
   scratch, caches and allocator, and every thread's answers must be bit-identical (memcmp)
   to a serial run. Built with clang -fsanitize=thread by tests/tsan/run.sh (from the test
   action), with CT_NO_OPENMP and without -fopenmp: Debian's libgomp is not TSan-instrumented
   and would give false reports; OpenMP thread-count independence is tested by Criterion
   (hardening/broadphase_identical_for_1_to_8_threads).
   Exit status: 0 when every result matches and nothing leaked; TSan exits 66 on a race. */
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "workload.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 8
#define ROUNDS 3

/* ---- shared read-only inputs ------------------------------------------------------------ */
typedef struct inputs {
    ct_vec3 pa[200], pb[200], pc[30], pd[30];
    ct_hull ha, hb, hc, hd, box, top;   /* box, top: boxes (the rounded closed-form path) */
    ct_xform xa, xb, xc, xd, xe, xt;   /* xe: hd's pose apart from hc; xt: top resting on box */
    ct_aabb boxes[400];
    ct_mesh mesh;                      /* a 12 x 12 heightfield shared by every thread */
} inputs;

static void cloud(ct_vec3 *p, int n, double r, unsigned long long seed) {
    double xyz[3 * 200];
    int i;
    wl_sphere(xyz, n, r, &seed);
    for (i = 0; i < n; ++i) {
        p[i].x = (ct_real)xyz[3 * i];
        p[i].y = (ct_real)(0.8 * xyz[3 * i + 1]);
        p[i].z = (ct_real)xyz[3 * i + 2];
    }
}

static ct_vec3 v3(double x, double y, double z) {
    ct_vec3 v;
    v.x = (ct_real)x; v.y = (ct_real)y; v.z = (ct_real)z;
    return v;
}

/* heights of the shared mesh: a fixed pattern */
static double mesh_height(int i) { return (double)((i * 37) % 11) / 11.0; }

static int inputs_init(inputs *in) {
    double lo[3 * 400], hi[3 * 400];
    unsigned long long seed = 9;
    int i;
    cloud(in->pa, 200, 1.0, 1);
    cloud(in->pb, 200, 0.9, 2);
    cloud(in->pc, 30, 1.0, 3);
    cloud(in->pd, 30, 0.7, 4);
    if (ct_hull_build(in->pa, 200, NULL, NULL, &in->ha) != CT_OK || ct_hull_build(in->pb, 200, NULL, NULL, &in->hb) != CT_OK ||
        ct_hull_build(in->pc, 30, NULL, NULL, &in->hc) != CT_OK || ct_hull_build(in->pd, 30, NULL, NULL, &in->hd) != CT_OK ||
        ct_hull_box(v3(1, 1, 0.5), NULL, &in->box) != CT_OK || ct_hull_box(v3(0.4, 0.3, 0.2), NULL, &in->top) != CT_OK)
        return 0;
    in->xa = ct_xform_from_axis_angle(v3(0.3, 1, 0.2), (ct_real)0.4, v3(0, 0, 0));
    in->xb = ct_xform_from_axis_angle(v3(1, -0.5, 0.7), (ct_real)1.1, v3(0.9, 0.4, -0.3));
    in->xc = ct_xform_from_axis_angle(v3(0.1, 0.2, 1), (ct_real)0.3, v3(0, 0, 0));
    in->xd = ct_xform_from_axis_angle(v3(-1, 0.4, 0.3), (ct_real)2.0, v3(0.2, 0.3, 1.5));
    in->xe = ct_xform_from_axis_angle(v3(-1, 0.4, 0.3), (ct_real)2.0, v3(0.2, 0.3, 2.2));
    in->xt = ct_xform_from_axis_angle(v3(1, 0.3, 0), (ct_real)0.03, v3(0.1, 0.2, 0.9));
    {
        ct_real hf[144];
        for (i = 0; i < 144; ++i) hf[i] = (ct_real)(0.2 * mesh_height(i));
        if (ct_mesh_heightfield(hf, 12, 12, (ct_real)0.25, (ct_real)0.25, NULL, &in->mesh) != CT_OK) return 0;
    }
    wl_dem_boxes(lo, hi, 400, 1.5, &seed);
    for (i = 0; i < 400; ++i) {
        in->boxes[i].lo = v3(lo[3 * i], lo[3 * i + 1], lo[3 * i + 2]);
        in->boxes[i].hi = v3(hi[3 * i], hi[3 * i + 1], hi[3 * i + 2]);
    }
    return 1;
}

/* ---- a counting allocator per thread (its state is the thread's own) --------------------- */
typedef struct counter { long outstanding, calls; } counter;
static void *c_alloc(size_t n, void *user) { counter *c = (counter *)user; c->calls++; c->outstanding++; return malloc(n); }
static void c_free(void *p, void *user) { counter *c = (counter *)user; if (p) { c->outstanding--; free(p); } }

/* ---- the answers, as bytes ---------------------------------------------------------------- */
typedef struct digest { unsigned char *b; size_t n, cap; int calls; } digest;
static void put(digest *d, const void *p, size_t n) {
    if (d->n + n > d->cap) {
        d->cap = 2 * (d->n + n) + 1024;
        d->b = (unsigned char *)realloc(d->b, d->cap);
        if (!d->b) { fprintf(stderr, "tsan_all: out of memory\n"); exit(2); }
    }
    memcpy(d->b + d->n, p, n);
    d->n += n;
}
static void put_i(digest *d, long long v) { put(d, &v, sizeof v); }
static void put_r(digest *d, ct_real v) { put(d, &v, sizeof v); }
static void put_v(digest *d, ct_vec3 v) { put_r(d, v.x); put_r(d, v.y); put_r(d, v.z); }
/* one public call made: its status and the call count */
static void call(digest *d, long long status) { put_i(d, status); d->calls++; }
static void put_hull(digest *d, const ct_hull *h) {
    int i;
    put_i(d, h->nverts); put_i(d, h->nfaces); put_i(d, h->nedges);
    for (i = 0; i < h->nverts; ++i) put_v(d, h->verts[i]);
    for (i = 0; i < h->nfaces; ++i) { put_v(d, h->planes[i].n); put_r(d, h->planes[i].d); }
    if (h->nfaces > 0) put(d, h->face_verts, sizeof(int) * (size_t)h->face_first[h->nfaces]);
    if (h->face_tag) put(d, h->face_tag, sizeof(int) * (size_t)h->nfaces);
}
static void put_dist(digest *d, const ct_distance *x) {
    put_r(d, x->distance); put_v(d, x->normal); put_v(d, x->pa); put_v(d, x->pb); put_i(d, x->iterations);
}
static void put_contact(digest *d, const ct_contact *c) {
    put_i(d, c->found); put_v(d, c->point); put_v(d, c->normal); put_r(d, c->gap); put_r(d, c->area);
    put_r(d, c->volume); put_v(d, c->centroid); put_i(d, c->face_a); put_i(d, c->face_b);
}
static void put_manifold(digest *d, const ct_manifold *m) {
    int i;
    put_v(d, m->normal); put_i(d, m->count);
    for (i = 0; i < m->count; ++i) { put_v(d, m->points[i].point); put_r(d, m->points[i].separation); put_i(d, m->points[i].id); }
}
static void put_pairs(digest *d, const ct_pairs *p) {
    put_i(d, (long long)p->count);
    if (p->count) put(d, p->items, sizeof(ct_pair) * p->count);
}

/* a user support function (a ball of radius 0.5): reads only its const user data */
static void ball_support(const void *user, const ct_vec3 *dir, ct_vec3 *out) {
    const ct_real *r = (const ct_real *)user;
    ct_real l = dir->x * dir->x + dir->y * dir->y + dir->z * dir->z;
    if (l > 0) {
        ct_real s = *r / (ct_real)sqrt((double)l);
        out->x = dir->x * s; out->y = dir->y * s; out->z = dir->z * s;
    } else {
        out->x = *r; out->y = 0; out->z = 0;
    }
}

typedef struct pairsum { unsigned long long sum; long count; } pairsum;
static void pair_fn(void *user, int a, int b, int thread) {
    pairsum *s = (pairsum *)user; /* CT_NO_OPENMP: fn runs on the calling thread */
    s->sum += (unsigned long long)a * 1000003u + (unsigned long long)b + (unsigned long long)thread;
    s->count++;
}

/* The scene: hulls of the shared inputs (plus spheres and ellipsoids) on a small lattice,
   stepped with motion, a removal and an addition; every output digested. */
static void put_scene_contact(digest *d, const ct_scene_contact *c) {
    put_i(d, c->a); put_i(d, c->b); put_i(d, c->event); put_i(d, c->status);
    put_manifold(d, &c->manifold); put_contact(d, &c->contact);
}
static void run_scene(const inputs *in, digest *d, const ct_allocator *al, ct_scene_mode mode) {
    const ct_hull *hulls[6];
    ct_xform xf[24];
    ct_scene *s;
    ct_scene_desc desc;
    ct_scene_result r;
    int i, k, id;
    hulls[0] = &in->ha; hulls[1] = &in->hb; hulls[2] = &in->hc; hulls[3] = &in->hd; hulls[4] = &in->box; hulls[5] = &in->top;
    memset(&desc, 0, sizeof desc);
    desc.mode = mode;
    desc.speculative = (ct_real)0.05;
    call(d, ct_scene_create(&desc, al, &s));
    for (i = 0; i < 24; ++i) {
        ct_body_desc b;
        memset(&b, 0, sizeof b);
        xf[i] = ct_xform_from_axis_angle(v3(1, 0.3 * i, 0.1), (ct_real)(0.2 * i), v3(1.3 * (i % 4), 1.3 * ((i / 4) % 3), 1.3 * (i / 12)));
        b.shape = i % 4 == 3 ? (i % 8 == 3 ? ct_shape_sphere((ct_real)0.6) : ct_shape_ellipsoid(v3(0.7, 0.5, 0.4)))
                             : ct_shape_hull(hulls[i % 6]);
        b.xform_ref = &xf[i];
        call(d, ct_scene_add(s, &b, &id)); put_i(d, id);
    }
    for (k = 0; k < 4; ++k) {
        for (i = 0; i < 24; ++i) xf[i].p.x += (ct_real)(0.05 * ((i % 3) - 1));
        if (k == 2) call(d, ct_scene_remove(s, 5));
        call(d, ct_scene_step(s, &r));
        put_i(d, r.ntouching); put_i(d, r.nended); put_i(d, r.nbegan); put_i(d, r.npairs);
        for (i = 0; i < r.ntouching; ++i) put_scene_contact(d, &r.touching[i]);
        for (i = 0; i < r.nended; ++i) put_scene_contact(d, &r.ended[i]);
    }
    ct_scene_destroy(s); call(d, 0);
}

/* Every public entry point, in a fixed order. */
static void run_all(const inputs *in, digest *d, counter *cnt) {
    static const ct_real ball_r = (ct_real)0.5;
    ct_allocator al;
    ct_scratch sc;
    ct_hull_desc desc;
    ct_hull h;
    ct_shape sh[9];
    ct_gjk_cache gc;
    ct_block_cache bc;
    ct_sat_cache sat, rsat[3];
    ct_distance dist;
    ct_contact con[4];
    ct_manifold m;
    ct_pw pw;
    ct_pairs pairs;
    pairsum ps;
    ct_vec3 c, wa, wb;
    ct_real mass, inertia[3][3], q[4] = { (ct_real)0.1, (ct_real)0.7, (ct_real)-0.3, (ct_real)0.6 }, lam;
    ct_xform x;
    ct_aabb bb;
    int i, j;

    al.alloc = c_alloc; al.free = c_free; al.user = cnt;
    ct_scratch_init(&sc, &al); call(d, 0);
    memset(&desc, 0, sizeof desc);
    desc.scratch = &sc;

    /* foundation */
    for (i = CT_OK; i <= CT_NO_CONVERGENCE; ++i) { put(d, ct_status_string((ct_status)i), 4); call(d, 0); }
    x = ct_xform_identity(); put(d, &x, sizeof x); call(d, 0);
    x = ct_xform_from_quat(q, v3(1, 2, 3)); put(d, &x, sizeof x); call(d, 0);
    x = ct_xform_from_axis_angle(v3(1, 1, 0), (ct_real)0.7, v3(-1, 0, 2)); put(d, &x, sizeof x); call(d, 0);

    /* hull */
    call(d, ct_hull_build(in->pa, 200, &desc, &al, &h)); put_hull(d, &h);
    put_r(d, ct_hull_volume(&h, &c)); put_v(d, c); call(d, 0);
    ct_hull_mass(&h, 3, &mass, &c, inertia); put_r(d, mass); put_v(d, c); put(d, inertia, sizeof inertia); call(d, 0);
    bb = ct_hull_aabb(&h, &in->xb); put_v(d, bb.lo); put_v(d, bb.hi); call(d, 0);
    ct_hull_free(&h); call(d, 0);
    call(d, ct_hull_build(in->pd, 30, NULL, &al, &h)); put_hull(d, &h); ct_hull_free(&h);
    call(d, ct_hull_box(v3(0.5, 1, 2), &al, &h)); put_hull(d, &h); ct_hull_free(&h);

    /* shapes, GJK, signed distance (a cache per pair, used cold then warm) */
    sh[0] = ct_shape_points(in->pc, 30);
    sh[1] = ct_shape_hull(&in->hb);
    sh[2] = ct_shape_sphere((ct_real)0.6);
    sh[3] = ct_shape_ellipsoid(v3(0.3, 0.6, 0.9));
    sh[4] = ct_shape_box(v3(0.4, 0.5, 0.6));
    sh[5] = ct_shape_triangle(v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0.2));
    sh[6] = ct_shape_support(ball_support, &ball_r);
    sh[7] = ct_shape_rounded(ct_shape_box(v3(0.3, 0.3, 0.3)), (ct_real)0.2);
    sh[8] = ct_shape_hull(&in->ha);
    for (i = 0; i < 9; ++i) call(d, 0); /* the constructors */
    for (i = 0; i < 9; ++i)
        for (j = 0; j < 9; ++j) {
            int k;
            memset(&gc, 0, sizeof gc);
            for (k = 0; k < 2; ++k) {
                call(d, ct_gjk(&sh[i], &in->xa, &sh[j], &in->xd, &gc, &dist)); put_dist(d, &dist);
                call(d, ct_signed_distance(&sh[i], &in->xa, &sh[j], &in->xd, &gc, &sc, &dist)); put_dist(d, &dist);
            }
            call(d, ct_signed_distance(&sh[i], &in->xc, &sh[j], &in->xb, NULL, NULL, &dist)); put_dist(d, &dist);
        }
    put_r(d, ct_gjk_points(in->pc, 30, in->pd, 30, &wa, &wb)); put_v(d, wa); put_v(d, wb); call(d, 0);

    /* polar intersection, volumetric contact, sparsify */
    call(d, ct_intersect(&in->ha, &in->xa, &in->hb, &in->xb, &sc, &al, &h)); put_hull(d, &h); ct_hull_free(&h);
    call(d, ct_intersect(&in->hc, &in->xc, &in->hd, &in->xd, NULL, &al, &h)); put_hull(d, &h); ct_hull_free(&h);
    call(d, ct_contact_hulls(&in->ha, &in->xa, &in->hb, &in->xb, &sc, &con[0])); put_contact(d, &con[0]);
    call(d, ct_contact_hulls(&in->hc, &in->xc, &in->hd, &in->xd, NULL, &con[1])); put_contact(d, &con[1]);
    call(d, ct_contact_hulls(&in->hb, &in->xb, &in->hd, &in->xd, &sc, &con[2])); put_contact(d, &con[2]);
    con[3] = con[0];
    put_i(d, ct_sparsify(con, 4, (ct_real)0.1, 0, (ct_real)1e-3)); call(d, 0);

    /* manifolds (cache cold then warm) */
    memset(&sat, 0, sizeof sat);
    for (i = 0; i < 2; ++i) {
        call(d, ct_manifold_hulls(&in->hc, &in->xc, &in->hd, &in->xd, (ct_real)0.05, &sat, &m)); put_manifold(d, &m);
        call(d, ct_manifold_hulls(&in->ha, &in->xa, &in->hb, &in->xb, 0, NULL, &m)); put_manifold(d, &m);
    }
    /* rounded manifolds, every path (caches cold then warm): overlapping cores (SAT), cores
       apart (GJK), resting boxes (closed form), zero radii */
    memset(rsat, 0, sizeof rsat);
    for (i = 0; i < 2; ++i) {
        call(d, ct_manifold_rounded_hulls(&in->hc, &in->xc, (ct_real)0.05, &in->hd, &in->xd, (ct_real)0.1, (ct_real)0.05, &rsat[0], &m));
        put_manifold(d, &m);
        call(d, ct_manifold_rounded_hulls(&in->hc, &in->xc, (ct_real)0.05, &in->hd, &in->xe, (ct_real)0.1, (ct_real)0.5, &rsat[1], &m));
        put_manifold(d, &m);
        call(d, ct_manifold_rounded_hulls(&in->box, NULL, (ct_real)0.1, &in->top, &in->xt, (ct_real)0.05, (ct_real)0.1, &rsat[2], &m));
        put_manifold(d, &m);
        call(d, ct_manifold_rounded_hulls(&in->ha, &in->xa, 0, &in->hb, &in->xb, 0, 0, NULL, &m)); put_manifold(d, &m);
    }
    put(d, rsat, sizeof rsat);
    call(d, ct_manifold_hull_sphere(&in->hc, &in->xc, v3(0.3, 0.2, 1.4), (ct_real)0.5, (ct_real)0.1, &m)); put_manifold(d, &m);

    /* ellipsoids (cold, then warm from the cold answer) */
    call(d, ct_ellipsoids(v3(1, 0.5, 0.3), &in->xc, v3(0.4, 0.8, 0.6), &in->xd, NULL, &pw));
    put(d, &pw.F, sizeof pw.F); put_r(d, pw.lambda); put_v(d, pw.normal); put_v(d, pw.point); put_r(d, pw.gap);
    lam = pw.lambda;
    call(d, ct_ellipsoids(v3(1, 0.5, 0.3), &in->xc, v3(0.4, 0.8, 0.6), &in->xd, &lam, &pw));
    put_r(d, pw.F); put_r(d, pw.lambda); put_v(d, pw.normal); put_v(d, pw.point); put_r(d, pw.gap);

    /* queries: AABBs, ray casts and times of impact on every shape kind, the pair manifolds */
    for (i = 0; i < 9; ++i) {
        ct_ray_hit rh;
        ct_toi toi;
        call(d, ct_shape_aabb(&sh[i], &in->xb, &bb)); put_v(d, bb.lo); put_v(d, bb.hi);
        call(d, ct_ray_cast(&sh[i], &in->xa, v3(3, 0.2, -0.1), v3(-6, 0.1, 0.3), &rh));
        put_i(d, rh.hit); put_r(d, rh.fraction); put_v(d, rh.point); put_v(d, rh.normal); put_i(d, rh.face);
        memset(&gc, 0, sizeof gc);
        call(d, ct_time_of_impact(&sh[i], &in->xa, &in->xc, &sh[(i + 4) % 9], &in->xe, &in->xb, (ct_real)0.01, &gc, &toi));
        put_i(d, toi.hit); put_r(d, toi.fraction); put_r(d, toi.distance); put_v(d, toi.normal); put_v(d, toi.pa);
        put_v(d, toi.pb); put_i(d, toi.iterations);
    }
    {
        ct_capsule ca = { { 0, 0, -0.5 }, { 0, 0, 0.5 }, 0.2 }, cb = { { -0.4, 0, 0 }, { 0.4, 0, 0 }, 0.3 };
        call(d, ct_manifold_spheres(v3(0, 0, 0), (ct_real)0.5, v3(0.3, 0.6, 0.2), (ct_real)0.4, (ct_real)0.1, &m)); put_manifold(d, &m);
        call(d, ct_manifold_box_sphere(v3(1, 0.5, 0.3), &in->xc, v3(0.3, 0.2, 0.9), (ct_real)0.5, (ct_real)0.1, &m)); put_manifold(d, &m);
        call(d, ct_manifold_capsules(&ca, &in->xa, &cb, &in->xd, (ct_real)0.5, &m)); put_manifold(d, &m);
        call(d, ct_manifold_hull_capsule(&in->box, NULL, &cb, &in->xt, (ct_real)0.1, &m)); put_manifold(d, &m);
        call(d, ct_manifold_hull_capsule(&in->hc, &in->xc, &ca, &in->xd, (ct_real)0.5, &m)); put_manifold(d, &m);
        call(d, ct_manifold_hull_cylinder(&in->hc, &in->xc, (ct_real)0.3, (ct_real)0.5, &in->xd, (ct_real)0.5, NULL, &m)); put_manifold(d, &m);
        call(d, ct_manifold_hull_cylinder(&in->box, NULL, (ct_real)0.4, (ct_real)0.3, &in->xt, (ct_real)0.1, NULL, &m)); put_manifold(d, &m);
    }

    {   /* meshes: the shared mesh against hulls, a capsule, a sphere; ray casts */
        ct_mesh_contacts mc;
        ct_ray_hit mh;
        ct_xform xm = ct_xform_from_axis_angle(v3(0, 0, 1), (ct_real)0.3, v3(1.4, 1.3, 0.55));
        int k;
        ct_mesh_contacts_init(&mc, &al);
        call(d, ct_manifold_hull_mesh(&in->hc, &xm, &in->mesh, NULL, (ct_real)0.1, &mc));
        put_i(d, mc.npoints); put_i(d, mc.nmanifolds);
        for (k = 0; k < mc.npoints; ++k) { put_v(d, mc.points[k].point); put_r(d, mc.points[k].separation); put_i(d, mc.points[k].triangle); }
        for (k = 0; k < mc.nmanifolds; ++k) put_manifold(d, &mc.manifolds[k]);
        call(d, ct_manifold_hull_mesh(&in->top, &in->xt, &in->mesh, &in->xa, (ct_real)0.1, &mc));
        put_i(d, mc.npoints); put_i(d, mc.nmanifolds);
        {
            ct_capsule cp = { { -0.4, 0, 0 }, { 0.4, 0.1, 0 }, 0.3 };
            call(d, ct_manifold_capsule_mesh(&cp, &xm, &in->mesh, NULL, (ct_real)0.1, &mc));
            put_i(d, mc.npoints); for (k = 0; k < mc.npoints; ++k) put_r(d, mc.points[k].separation);
            call(d, ct_manifold_sphere_mesh(v3(1.5, 1.5, 0.3), (ct_real)0.25, &in->mesh, NULL, (ct_real)0.1, &mc));
            put_i(d, mc.npoints); for (k = 0; k < mc.npoints; ++k) put_r(d, mc.points[k].separation);
        }
        ct_mesh_contacts_free(&mc); call(d, 0);
        call(d, ct_ray_cast_mesh(&in->mesh, NULL, v3(1.2, 1.5, 2), v3(0.3, -0.2, -4), &mh));
        put_i(d, mh.hit); put_r(d, mh.fraction); put_v(d, mh.normal); put_i(d, mh.face);
    }

    {   /* PFC rigid blocks: warm (cold, then warm), reduced, rounded, ball, facet, wall mesh, erosion, rounded mass */
        ct_contact_cache cc;
        ct_wall_contacts wc;
        ct_xform xw = ct_xform_from_axis_angle(v3(0.2, 0.1, 1), (ct_real)0.4, v3(1.4, 1.3, 0.9));
        ct_vec3 tri[3];
        int k;
        tri[0] = v3(-2, -2, 0.6); tri[1] = v3(2, -2, 0.7); tri[2] = v3(0, 2, 0.5);
        ct_contact_cache_init(&cc, &al);
        for (k = 0; k < 2; ++k) { call(d, ct_contact_hulls_warm(&in->hc, &in->xc, &in->hd, &in->xd, &cc, &sc, &con[0])); put_contact(d, &con[0]); }
        ct_contact_cache_free(&cc); call(d, 0);
        memset(&bc, 0, sizeof bc);
        call(d, ct_contact_hulls_reduced(&in->hc, &in->xc, &in->hd, &in->xd, &bc, &sc, &con[0])); put_contact(d, &con[0]);
        call(d, ct_contact_rounded_hulls(&in->hc, &in->xc, (ct_real)0.05, &in->hd, &in->xe, (ct_real)0.1, 0, NULL, &sc, &con[0])); put_contact(d, &con[0]);
        call(d, ct_contact_rounded_hulls(&in->hc, &in->xc, (ct_real)0.05, &in->hd, &in->xd, (ct_real)0.1, 1, NULL, NULL, &con[0])); put_contact(d, &con[0]);
        call(d, ct_contact_hull_sphere(&in->hc, &in->xc, v3(0.3, 0.2, 1.2), (ct_real)0.5, &con[0])); put_contact(d, &con[0]);
        call(d, ct_contact_facet_hull(tri, &in->hd, &in->xd, 0, &sc, &con[0])); put_contact(d, &con[0]);
        ct_wall_contacts_init(&wc, &al);
        call(d, ct_contact_mesh_hull(&in->mesh, NULL, &in->hc, &xw, &sc, &wc)); put_i(d, wc.count);
        for (k = 0; k < wc.count; ++k) put_contact(d, &wc.contacts[k]);
        ct_wall_contacts_free(&wc); call(d, 0);
        call(d, ct_hull_erode(&in->hd, (ct_real)0.1, &al, &h)); put_hull(d, &h); ct_hull_free(&h);
        put_r(d, ct_hull_rounded_volume(&in->hd, (ct_real)0.1)); call(d, 0);
        call(d, ct_hull_rounded_mass(&in->hd, (ct_real)0.1, 2, &mass, &c, inertia)); put_r(d, mass); put_v(d, c); put(d, inertia, sizeof inertia);
    }

    /* broad phase */
    call(d, ct_broadphase(in->boxes, 400, &al, &pairs)); put_pairs(d, &pairs);
    ct_pairs_free(&pairs); call(d, 0);
    call(d, ct_broadphase_bipartite(in->boxes, 150, in->boxes + 150, 250, &al, &pairs)); put_pairs(d, &pairs);
    ct_pairs_free(&pairs);
    memset(&ps, 0, sizeof ps);
    call(d, ct_broadphase_foreach(in->boxes, 400, pair_fn, &ps)); put_i(d, (long long)ps.sum); put_i(d, ps.count);

    /* scene (both modes) */
    run_scene(in, d, &al, CT_SCENE_MANIFOLD);
    run_scene(in, d, &al, CT_SCENE_VOLUMETRIC);

    ct_scratch_release(&sc); call(d, 0);
}

typedef struct job {
    const inputs *in;
    const digest *ref;
    int id, ok;
    long calls;
    counter cnt;
} job;

static void *worker(void *arg) {
    job *j = (job *)arg;
    int r;
    j->ok = 1;
    for (r = 0; r < ROUNDS; ++r) {
        digest d;
        memset(&d, 0, sizeof d);
        run_all(j->in, &d, &j->cnt);
        j->calls += d.calls;
        if (d.n != j->ref->n || memcmp(d.b, j->ref->b, d.n) != 0) j->ok = 0;
        free(d.b);
    }
    return NULL;
}

int main(void) {
    inputs *in = (inputs *)calloc(1, sizeof *in);
    digest ref;
    counter cnt = { 0, 0 };
    job jobs[NTHREADS];
    pthread_t th[NTHREADS];
    long calls = 0;
    int i, bad = 0;
    if (!in || !inputs_init(in)) { fprintf(stderr, "tsan_all: input construction failed\n"); return 1; }
    memset(&ref, 0, sizeof ref);
    run_all(in, &ref, &cnt);             /* the serial answers */
    if (cnt.outstanding != 0) { fprintf(stderr, "tsan_all: serial run leaked %ld blocks\n", cnt.outstanding); return 1; }
    for (i = 0; i < NTHREADS; ++i) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].in = in;
        jobs[i].ref = &ref;
        jobs[i].id = i;
        if (pthread_create(&th[i], NULL, worker, &jobs[i]) != 0) { fprintf(stderr, "tsan_all: pthread_create\n"); return 1; }
    }
    for (i = 0; i < NTHREADS; ++i) pthread_join(th[i], NULL);
    for (i = 0; i < NTHREADS; ++i) {
        calls += jobs[i].calls;
        if (!jobs[i].ok) { fprintf(stderr, "tsan_all: thread %d: answers differ from the serial run\n", i); bad = 1; }
        if (jobs[i].cnt.outstanding != 0) { fprintf(stderr, "tsan_all: thread %d leaked %ld blocks\n", i, jobs[i].cnt.outstanding); bad = 1; }
    }
    printf("tsan_all (%s): %d threads x %d rounds x %d calls = %ld concurrent calls, %s\n",
           sizeof(ct_real) == sizeof(float) ? "float" : "double", NTHREADS, ROUNDS, ref.calls, calls,
           bad ? "MISMATCH" : "all bit-identical to the serial run");
    ct_hull_free(&in->ha); ct_hull_free(&in->hb); ct_hull_free(&in->hc); ct_hull_free(&in->hd);
    ct_hull_free(&in->box); ct_hull_free(&in->top);
    ct_mesh_free(&in->mesh);
    free(in);
    free(ref.b);
    return bad;
}
