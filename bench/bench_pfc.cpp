// PFC rigid-block contact: the warm-started full resolution (ct_contact_hulls_warm, one
// ct_contact_cache per pair) against the cold one (ct_contact_hulls) on the same motion
// sequences. Pairs: random 20-vertex hulls (vertices on the unit sphere), B rotated and offset
// 0.4-1.2 along a random direction, both bodies then oscillating (translation amplitude 0.05,
// rotation amplitude 0.05 rad, period 200 steps: about 1.5e-3 of the size per step). Calls
// cycle over the pairs, each pair advancing one step per visit. Agreement: every (pair, step)
// of warm and cold is equal bit for bit (both evaluate the canonical A n B), before timing.
#include "contact.h"
#include "harness.h"
#include "bench_hulls.h"
#include "workload.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#ifdef CT_HAVE_BULLET
#include <btBulletCollisionCommon.h>
#endif

namespace {

const int STEPS = 200;

struct Pair {
    ct_hull a, b;
    std::vector<ct_xform> xa, xb;   // STEPS transforms each
    ct_contact_cache cache;
    ct_block_cache gjk;
    ct_block_cache rounded;   // the rounded rows' (full resolution) cache
};

struct Work {
    std::vector<Pair> pairs;
    ct_scratch scratch;
    long call;
    double sink;
};

// r = m * r0, p = p0 + dp
ct_xform compose(const ct_xform &m, const ct_xform &x0) {
    ct_xform x;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) x.r[i][j] = m.r[i][0] * x0.r[0][j] + m.r[i][1] * x0.r[1][j] + m.r[i][2] * x0.r[2][j];
    x.p = ct_vec3_add(x0.p, m.p);
    return x;
}

ct_vec3 vec(const double d[3]) { return ct_vec3_make(d[0], d[1], d[2]); }

// one oscillating motion: rotation about `axis` by amp sin(phase), translation amp sin(phase) dir
ct_xform wobble(const double axis[3], const double dir[3], double amp, double phase) {
    double s = amp * std::sin(phase);
    return ct_xform_from_axis_angle(vec(axis), s, ct_vec3_scale(vec(dir), s));
}

void make_work(Work &w, int nv, int count, unsigned long long seed) {
    ct_scratch_init(&w.scratch, NULL);
    w.call = 0;
    w.sink = 0;
    while ((int)w.pairs.size() < count) {
        Pair p;
        double r[9], d[3], ax[2][3], dir[2][3];
        p.a = bench_sphere_hull(nv, 1, &seed);
        p.b = bench_sphere_hull(nv, 1, &seed);
        wl_rotation(r, &seed);
        wl_direction(d, &seed);
        for (int k = 0; k < 2; ++k) { wl_direction(ax[k], &seed); wl_direction(dir[k], &seed); }
        double off = 0.4 + 0.8 * bench_uniform(&seed), ph = 6.283185307179586 * bench_uniform(&seed);
        ct_xform xb0, xa0 = ct_xform_identity();
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) xb0.r[i][j] = r[3 * i + j];
        xb0.p = ct_vec3_make(off * d[0], off * d[1], off * d[2]);
        for (int t = 0; t < STEPS; ++t) {
            double phase = 6.283185307179586 * t / STEPS;
            p.xa.push_back(compose(wobble(ax[0], dir[0], 0.05, phase + ph), xa0));
            p.xb.push_back(compose(wobble(ax[1], dir[1], 0.05, phase), xb0));
        }
        bool ok = true;
        for (int t = 0; t < STEPS && ok; ++t) {
            ct_contact c;
            ok = ct_contact_hulls(&p.a, &p.xa[t], &p.b, &p.xb[t], &w.scratch, &c) == CT_OK && c.found && c.volume > 0;
        }
        if (!ok) { ct_hull_free(&p.a); ct_hull_free(&p.b); continue; }
        std::memset(&p.cache, 0, sizeof p.cache);
        std::memset(&p.gjk, 0, sizeof p.gjk);
        ct_block_cache_init(&p.rounded, NULL);
        w.pairs.push_back(p);
    }
}

void free_work(Work &w) {
    for (size_t i = 0; i < w.pairs.size(); ++i) {
        ct_hull_free(&w.pairs[i].a);
        ct_hull_free(&w.pairs[i].b);
        ct_contact_cache_free(&w.pairs[i].cache);
        ct_block_cache_free(&w.pairs[i].gjk);
        ct_block_cache_free(&w.pairs[i].rounded);
    }
    ct_scratch_release(&w.scratch);
}

// one call per visit of a pair, each visit one step further; warm or cold
enum Mode { WARM, COLD, REDUCED, ROUNDED_WARM, ROUNDED_COLD };
const double kRound = 0.05;   // the rounded rows' radius (each block)
void run_calls(Work &w, long calls, Mode mode) {
    long np = (long)w.pairs.size();
    for (long i = 0; i < calls; ++i, ++w.call) {
        Pair &p = w.pairs[(size_t)(w.call % np)];
        int t = (int)((w.call / np) % STEPS);
        ct_contact c;
        if (mode == WARM) ct_contact_hulls_warm(&p.a, &p.xa[t], &p.b, &p.xb[t], &p.cache, &w.scratch, &c);
        else if (mode == COLD) ct_contact_hulls(&p.a, &p.xa[t], &p.b, &p.xb[t], &w.scratch, &c);
        else if (mode == REDUCED) ct_contact_hulls_reduced(&p.a, &p.xa[t], &p.b, &p.xb[t], &p.gjk, &w.scratch, &c);
        else ct_contact_rounded_hulls(&p.a, &p.xa[t], (ct_real)kRound, &p.b, &p.xb[t], (ct_real)kRound, 0,
                                      mode == ROUNDED_WARM ? &p.rounded : NULL, &w.scratch, &c);
        w.sink += c.volume + c.area;
    }
}
void bench_warm(void *ctx, long calls) { run_calls(*static_cast<Work *>(ctx), calls, WARM); }
void bench_cold(void *ctx, long calls) { run_calls(*static_cast<Work *>(ctx), calls, COLD); }
void bench_reduced(void *ctx, long calls) { run_calls(*static_cast<Work *>(ctx), calls, REDUCED); }
void bench_rounded_warm(void *ctx, long calls) { run_calls(*static_cast<Work *>(ctx), calls, ROUNDED_WARM); }
void bench_rounded_cold(void *ctx, long calls) { run_calls(*static_cast<Work *>(ctx), calls, ROUNDED_COLD); }

double vdiff(ct_vec3 a, ct_vec3 b) { return ct_vec3_length(ct_vec3_sub(a, b)); }

// warm == cold over every step of every pair, bit for bit (every field): both evaluate the
// canonical form of A n B. Returns the steps that differ; *worst the largest length difference
// (point, centroid, gap, volume^(1/3)) among them, to say how far.
int agreement(Work &w, double *worst) {
    int bad = 0;
    *worst = 0;
    for (size_t i = 0; i < w.pairs.size(); ++i) {
        Pair &p = w.pairs[i];
        for (int t = 0; t < STEPS; ++t) {
            ct_contact cw, cc;
            ct_contact_hulls_warm(&p.a, &p.xa[t], &p.b, &p.xb[t], &p.cache, &w.scratch, &cw);
            ct_contact_hulls(&p.a, &p.xa[t], &p.b, &p.xb[t], &w.scratch, &cc);
            bool same = cw.found == cc.found && !std::memcmp(&cw.point, &cc.point, sizeof cw.point) &&
                        !std::memcmp(&cw.normal, &cc.normal, sizeof cw.normal) &&
                        !std::memcmp(&cw.centroid, &cc.centroid, sizeof cw.centroid) &&
                        !std::memcmp(&cw.gap, &cc.gap, sizeof cw.gap) && !std::memcmp(&cw.area, &cc.area, sizeof cw.area) &&
                        !std::memcmp(&cw.volume, &cc.volume, sizeof cw.volume) && cw.face_a == cc.face_a &&
                        cw.face_b == cc.face_b;
            if (same) continue;
            ++bad;
            double e = vdiff(cw.point, cc.point);
            e = std::fmax(e, vdiff(cw.centroid, cc.centroid));
            e = std::fmax(e, std::fabs(cw.gap - cc.gap));
            e = std::fmax(e, std::fabs(std::cbrt(cw.volume) - std::cbrt(cc.volume)));
            *worst = std::fmax(*worst, e);
        }
    }
    return bad;
}

void rows(int nv) {
    Work w;
    char name[160], check[320];
    double worst;
    make_work(w, nv, 64, 9100 + nv);
    int bad = agreement(w, &worst);
    if (bad) std::snprintf(check, sizeof check, "DISAGREE: warm != cold on %d/%d steps (worst %.1e of the size)", bad,
                           (int)w.pairs.size() * STEPS, worst);
    else std::snprintf(check, sizeof check, "warm == cold bit for bit on all %d steps", (int)w.pairs.size() * STEPS);
    std::snprintf(name, sizeof name, "ct_contact_hulls_warm, %d-vertex pairs, small motion", nv);
    double ratio = bench_row(name, bench_warm, &w, "ct_contact_hulls (cold)", bench_cold, &w, check);
    bench_note("warm / cold = %.0f%% (target <= 30%%)", 100.0 / ratio);
    // reduced: a different answer by design (a cut, not the overlap); checked before timing: the
    // cached call (SAT axis, its certificate and the cut edges in the ct_block_cache) equals a cold one (NULL cache) on
    // every step to 1e-12 of the size, and finds a cut area
    int found = 0, same = 0;
    for (size_t i = 0; i < w.pairs.size(); ++i)
        for (int t = 0; t < STEPS; ++t) {
            ct_contact c, c0;
            Pair &p = w.pairs[i];
            found += ct_contact_hulls_reduced(&p.a, &p.xa[t], &p.b, &p.xb[t], &p.gjk, &w.scratch, &c) == CT_OK && c.found && c.area > 0;
            ct_contact_hulls_reduced(&p.a, &p.xa[t], &p.b, &p.xb[t], NULL, &w.scratch, &c0);
            double e = std::fmax(vdiff(c.point, c0.point), vdiff(c.normal, c0.normal));
            e = std::fmax(e, std::fmax(std::fabs(c.gap - c0.gap), std::fabs(std::sqrt(c.area) - std::sqrt(c0.area))));
            same += c.found == c0.found && e <= 1e-12;
        }
    std::snprintf(check, sizeof check, "cut area on %d/%d steps; cached == cold on %d", found, (int)w.pairs.size() * STEPS, same);
    std::snprintf(name, sizeof name, "ct_contact_hulls_reduced (SAT least axis + walked mid-plane cut, ct_block_cache), %d-vertex pairs", nv);
    ratio = bench_row(name, bench_reduced, &w, "ct_contact_hulls (cold)", bench_cold, &w, check);
    bench_note("reduced: %.2f us per call (target <= 2 us)", 1e6 * bench_time(bench_reduced, &w));
    // rounded blocks (radius kRound each), full resolution: with a ct_block_cache per pair (the
    // moved cores' A n B warm-started, EPA warm) against no cache; checked before timing on every
    // step (EPA's normal moves the cores: equal to 1e-9 of the size, not bit for bit)
    {
        int agree = 0, total = 0;
        double worst2 = 0;
        for (size_t i = 0; i < w.pairs.size(); ++i)
            for (int t = 0; t < STEPS; ++t) {
                ct_contact cw, cc;
                Pair &p = w.pairs[i];
                ct_contact_rounded_hulls(&p.a, &p.xa[t], (ct_real)kRound, &p.b, &p.xb[t], (ct_real)kRound, 0, &p.rounded, &w.scratch, &cw);
                ct_contact_rounded_hulls(&p.a, &p.xa[t], (ct_real)kRound, &p.b, &p.xb[t], (ct_real)kRound, 0, NULL, &w.scratch, &cc);
                double e = std::fmax(vdiff(cw.point, cc.point), vdiff(cw.normal, cc.normal));
                e = std::fmax(e, std::fmax(std::fabs(cw.gap - cc.gap), std::fabs(std::cbrt(cw.volume) - std::cbrt(cc.volume))));
                agree += cw.found == cc.found && e <= 1e-9;
                worst2 = std::fmax(worst2, e);
                ++total;
            }
        if (agree == total) std::snprintf(check, sizeof check, "cached == uncached to 1e-9 on all %d steps (worst %.1e)", total, worst2);
        else std::snprintf(check, sizeof check, "DISAGREE: cached != uncached on %d/%d steps (worst %.1e)", total - agree, total, worst2);
        std::snprintf(name, sizeof name, "ct_contact_rounded_hulls full, radius %.2f, ct_block_cache, %d-vertex pairs", kRound, nv);
        ratio = bench_row(name, bench_rounded_warm, &w, "the same, no cache", bench_rounded_cold, &w, check);
        bench_note("rounded full with a block cache / without = %.0f%%", 100.0 / ratio);
    }
    free_work(w);
}

// Erosion: 64 random 20-vertex blocks (unit sphere), radius 0.1, the core built per call.
struct ErodeWork { std::vector<ct_hull> blocks; size_t next; double sink; };

void bench_erode(void *ctx, long calls) {
    ErodeWork &w = *static_cast<ErodeWork *>(ctx);
    for (long i = 0; i < calls; ++i) {
        ct_hull core;
        if (ct_hull_erode(&w.blocks[w.next], 0.1, NULL, &core) == CT_OK) w.sink += core.nverts;
        ct_hull_free(&core);
        w.next = (w.next + 1) % w.blocks.size();
    }
}

void erode_rows() {
    ErodeWork w;
    unsigned long long seed = 777;
    w.next = 0;
    w.sink = 0;
    for (int i = 0; i < 64; ++i) w.blocks.push_back(bench_sphere_hull(20, 1, &seed));
    bench_row_ours("ct_hull_erode, 20-vertex blocks, radius 0.1 (core hull allocated per call)", bench_erode, &w,
                   "no peer (qhull H on the moved planes would need its interior point given)");
    for (size_t i = 0; i < w.blocks.size(); ++i) ct_hull_free(&w.blocks[i]);
}

// Wall: a floor of 2 x 70 x 70 = 9800 triangles over [0, 10]^2 (z = 0), 1000 blocks (20-vertex
// hulls of radius 0.15, random rotations) sunk 0.02 into it at random places; one call = the
// bipartite broad phase of facet and block boxes plus ct_contact_facet_hull on every pair.
struct WallWork {
    std::vector<ct_vec3> tri;      // 3 per facet
    std::vector<ct_aabb> tboxes, bboxes;
    std::vector<ct_hull> blocks;
    std::vector<ct_xform> xb;
    ct_scratch scratch;
    int reduced;
    long contacts;
    ct_mesh mesh;                  // the same facets as one ct_mesh
    ct_wall_contacts out;
    long touched;                  // blocks with at least one contact
};

// ct_contact_mesh_hull for every block (the mesh's tree is the broad phase).
void bench_wall_mesh(void *ctx, long calls) {
    WallWork &w = *static_cast<WallWork *>(ctx);
    for (long i = 0; i < calls; ++i) {
        w.contacts = w.touched = 0;
        for (size_t b = 0; b < w.blocks.size(); ++b)
            if (ct_contact_mesh_hull(&w.mesh, NULL, &w.blocks[b], &w.xb[b], &w.scratch, &w.out) == CT_OK) {
                w.contacts += w.out.count;
                w.touched += w.out.count > 0;
            }
    }
}

#ifdef CT_HAVE_BULLET
// Bullet as its users run a static wall: one btBvhTriangleMeshShape (quantized BVH) object and a
// btConvexHullShape per block (default margin 0.04) in a btCollisionWorld (default collision
// configuration, dispatcher, btDbvtBroadphase); one call = performDiscreteCollisionDetection.
struct BtWall {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{ &config };
    btDbvtBroadphase broadphase;
    btCollisionWorld world{ &dispatcher, &broadphase, &config };
    std::vector<float> verts;
    std::vector<int> tris;
    btTriangleIndexVertexArray *arr = nullptr;
    btBvhTriangleMeshShape *shape = nullptr;
    btCollisionObject *owall = nullptr;
    std::vector<btConvexHullShape *> hulls;
    std::vector<btCollisionObject *> objs;
    long points = 0, touched = 0;
};

void bt_wall_setup(BtWall &b, const WallWork &w) {
    for (int i = 0; i < w.mesh.nverts; ++i) {
        b.verts.push_back((float)w.mesh.verts[i].x); b.verts.push_back((float)w.mesh.verts[i].y); b.verts.push_back((float)w.mesh.verts[i].z);
    }
    b.tris.assign(w.mesh.tris, w.mesh.tris + 3 * w.mesh.ntris);
    b.arr = new btTriangleIndexVertexArray(w.mesh.ntris, b.tris.data(), 3 * (int)sizeof(int), w.mesh.nverts, b.verts.data(),
                                           3 * (int)sizeof(float));
    b.shape = new btBvhTriangleMeshShape(b.arr, true);
    b.owall = new btCollisionObject();
    b.owall->setCollisionShape(b.shape);
    // the wall in group 1 meets group 2 only, the blocks in group 2 meet the wall only: no
    // block-block pairs (our rows compute none)
    b.world.addCollisionObject(b.owall, 1, 2);
    for (size_t k = 0; k < w.blocks.size(); ++k) {
        const ct_hull &h = w.blocks[k];
        const ct_xform &x = w.xb[k];
        btConvexHullShape *sh = new btConvexHullShape();
        for (int i = 0; i < h.nverts; ++i) sh->addPoint(btVector3((btScalar)h.verts[i].x, (btScalar)h.verts[i].y, (btScalar)h.verts[i].z), false);
        sh->recalcLocalAabb();
        btMatrix3x3 m;
        m.setValue((btScalar)x.r[0][0], (btScalar)x.r[0][1], (btScalar)x.r[0][2], (btScalar)x.r[1][0], (btScalar)x.r[1][1],
                   (btScalar)x.r[1][2], (btScalar)x.r[2][0], (btScalar)x.r[2][1], (btScalar)x.r[2][2]);
        btCollisionObject *o = new btCollisionObject();
        o->setCollisionShape(sh);
        o->setWorldTransform(btTransform(m, btVector3((btScalar)x.p.x, (btScalar)x.p.y, (btScalar)x.p.z)));
        b.world.addCollisionObject(o, 2, 1);
        b.hulls.push_back(sh);
        b.objs.push_back(o);
    }
}

void bt_wall_teardown(BtWall &b) {
    for (size_t k = 0; k < b.objs.size(); ++k) { b.world.removeCollisionObject(b.objs[k]); delete b.objs[k]; delete b.hulls[k]; }
    b.world.removeCollisionObject(b.owall);
    delete b.owall; delete b.shape; delete b.arr;
}

void bt_wall(void *ctx, long calls) {
    BtWall &b = *static_cast<BtWall *>(ctx);
    for (long i = 0; i < calls; ++i) {
        b.world.performDiscreteCollisionDetection();
        b.points = b.touched = 0;
        int nm = b.dispatcher.getNumManifolds();
        for (int k = 0; k < nm; ++k) {
            btPersistentManifold *m = b.dispatcher.getManifoldByIndexInternal(k);
            int pen = 0;
            for (int p = 0; p < m->getNumContacts(); ++p) pen += m->getContactPoint(p).getDistance() < 0;
            b.points += pen;
            b.touched += pen > 0;
        }
    }
}
#endif

void bench_wall(void *ctx, long calls) {
    WallWork &w = *static_cast<WallWork *>(ctx);
    for (long i = 0; i < calls; ++i) {
        ct_pairs pairs;
        w.contacts = 0;
        if (ct_broadphase_bipartite(&w.tboxes[0], (int)w.tboxes.size(), &w.bboxes[0], (int)w.bboxes.size(), NULL, &pairs) != CT_OK) continue;
        for (size_t k = 0; k < pairs.count; ++k) {
            ct_contact c;
            int t = pairs.items[k].a, b = pairs.items[k].b;
            if (ct_contact_facet_hull(&w.tri[3 * (size_t)t], &w.blocks[(size_t)b], &w.xb[(size_t)b], w.reduced, &w.scratch, &c) == CT_OK)
                w.contacts += c.found;
        }
        ct_pairs_free(&pairs);
    }
}

void wall_rows() {
    WallWork w;
    unsigned long long seed = 4242;
    const int N = 70;
    const double L = 10.0 / N;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            ct_vec3 p00 = ct_vec3_make(i * L, j * L, 0), p10 = ct_vec3_make((i + 1) * L, j * L, 0);
            ct_vec3 p01 = ct_vec3_make(i * L, (j + 1) * L, 0), p11 = ct_vec3_make((i + 1) * L, (j + 1) * L, 0);
            ct_vec3 t[6] = { p00, p10, p11, p00, p11, p01 };   // counter-clockwise from +z
            for (int k = 0; k < 6; ++k) w.tri.push_back(t[k]);
        }
    for (size_t f = 0; f < w.tri.size() / 3; ++f) {
        ct_aabb b;
        b.lo = b.hi = w.tri[3 * f];
        for (int k = 1; k < 3; ++k) {
            ct_vec3 q = w.tri[3 * f + k];
            b.lo = ct_vec3_make(std::fmin(b.lo.x, q.x), std::fmin(b.lo.y, q.y), std::fmin(b.lo.z, q.z));
            b.hi = ct_vec3_make(std::fmax(b.hi.x, q.x), std::fmax(b.hi.y, q.y), std::fmax(b.hi.z, q.z));
        }
        w.tboxes.push_back(b);
    }
    for (int i = 0; i < 1000; ++i) {
        double r[9];
        ct_xform x;
        w.blocks.push_back(bench_sphere_hull(20, 0.15, &seed));
        wl_rotation(r, &seed);
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) x.r[a][b] = r[3 * a + b];
        x.p = ct_vec3_make(0.2 + 9.6 * bench_uniform(&seed), 0.2 + 9.6 * bench_uniform(&seed), 0);
        ct_aabb bb = ct_hull_aabb(&w.blocks.back(), &x);
        x.p.z = -bb.lo.z - 0.02;   // lowest vertex 0.02 below the floor
        w.xb.push_back(x);
        w.bboxes.push_back(ct_hull_aabb(&w.blocks.back(), &x));
    }
    ct_scratch_init(&w.scratch, NULL);
    {
        std::vector<ct_vec3> v;
        std::vector<int> t;
        for (int j = 0; j <= N; ++j)
            for (int i = 0; i <= N; ++i) v.push_back(ct_vec3_make(i * L, j * L, 0));
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) {
                int a = j * (N + 1) + i, b = a + 1, c = a + N + 1, d = c + 1;
                int q[6] = { a, b, d, a, d, c };   // the facets of w.tri, counter-clockwise from +z
                t.insert(t.end(), q, q + 6);
            }
        ct_mesh_build(v.data(), (int)v.size(), t.data(), (int)t.size() / 3, NULL, &w.mesh);
        ct_wall_contacts_init(&w.out, NULL);
    }
    char note[400];
    bench_wall_mesh(&w, 1);
#ifdef CT_HAVE_BULLET
    {
        BtWall b;
        bt_wall_setup(b, w);
        bt_wall(&b, 1);
        std::snprintf(note, sizeof note, "%s: blocks in contact ours %ld, Bullet %ld (of 1000); contacts ours %ld (one per block: "
                      "flat facets merged), Bullet penetrating manifold points %ld",
                      w.touched == b.touched ? "agree" : "DISAGREE", w.touched, b.touched, w.contacts, b.points);
        bench_row("wall of 9800 facets vs 1000 blocks (20-vertex hulls): ct_contact_mesh_hull per block, full resolution",
                  bench_wall_mesh, &w, "Bullet btBvhTriangleMeshShape + btConvexHullShape, btCollisionWorld (float)", bt_wall, &b,
                  note);
        bt_wall_teardown(b);
    }
#else
    bench_note("peer Bullet skipped: libbullet-dev not installed");
    std::snprintf(note, sizeof note, "%ld contacts, %ld blocks in contact", w.contacts, w.touched);
    bench_row_ours("wall of 9800 facets vs 1000 blocks (20-vertex hulls): ct_contact_mesh_hull per block, full resolution",
                   bench_wall_mesh, &w, note);
#endif
    for (w.reduced = 0; w.reduced < 2; ++w.reduced) {
        bench_wall(&w, 1);
        std::snprintf(note, sizeof note, "%ld facet-block contacts per call (blocks across shared edges count once per facet)", w.contacts);
        bench_row_ours(w.reduced ? "wall of 9800 facets vs 1000 blocks, reduced (broad phase + ct_contact_facet_hull)"
                                 : "wall of 9800 facets vs 1000 blocks, full (broad phase + ct_contact_facet_hull)",
                       bench_wall, &w, note);
    }
    for (size_t i = 0; i < w.blocks.size(); ++i) ct_hull_free(&w.blocks[i]);
    ct_scratch_release(&w.scratch);
    ct_wall_contacts_free(&w.out);
    ct_mesh_free(&w.mesh);
}

} // namespace

int main() {
    bench_table("PFC rigid blocks: warm-started full resolution",
                "64 pairs of random hulls (vertices on the unit sphere; B rotated, offset 0.4-1.2), both bodies "
                "oscillating (amplitude 0.05 in translation and 0.05 rad in rotation, 200-step period: ~1.5e-3 of "
                "the size per step), each pair one step per visit; double; one warm scratch. The peer column is "
                "our own cold ct_contact_hulls on the same steps (the job the cache saves).");
    rows(20);
    rows(100);
    bench_table("PFC rigid blocks: erosion and wall facets",
                "double; one thread; erosion and the per-facet rows ours only (no peer does these jobs); the wall as one "
                "mesh against Bullet (float, its default collision path).");
    erode_rows();
    wall_rows();
    return 0;
}
