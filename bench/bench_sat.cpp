// Contact manifolds (ct_manifold_hulls) against Bullet's btPolyhedralContactClipping
// (findSeparatingAxis + clipHullAgainstHull, what btConvexConvexAlgorithm runs for polyhedral
// shapes; Bullet is built in float). Workloads: box-box and 20-vertex hull pairs, resting
// (B sits on A's top, slightly sunk) and rotated (random orientations, slight overlap along a
// random direction); ours cold (no cache) and cached (a warm ct_sat_cache per pair).
// Agreement is checked before timing: for every case where both report a penetrating contact,
// the normals agree (Bullet's points from B to A) and so does the deepest separation.
//
// Rounded rows (ct_manifold_rounded_hulls, radius 0.05 on both hulls): the peer is what
// Bullet's btConvexConvexAlgorithm runs for two polyhedral shapes with a collision margin
// (btConvexHullShape with setMargin(0.05)): btGjkPairDetector on the margin shapes (Voronoi
// simplex solver, btGjkEpaPenetrationDepthSolver when they overlap) for the axis and distance,
// then btPolyhedralContactClipping::clipHullAgainstHull of the polyhedra (the cores) along that
// axis, its depth window widened by the two margins. (Bullet itself clips only when the cores
// overlap and otherwise keeps GJK's single point per frame in a persistent manifold; this
// peer builds the whole manifold in one call, as ours does.)
// Agreement there: Bullet's GJK/EPA distance (the rounded shapes' signed distance) against
// our deepest separation, and the normals.
#include "contact.h"
#include "harness.h"
#include "oracle.h"
#include "workload.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <algorithm>
#include <string>
#include <vector>

#ifdef CT_HAVE_BULLET
#include <btBulletCollisionCommon.h>
#include <BulletCollision/NarrowPhaseCollision/btPolyhedralContactClipping.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#endif

namespace {

const int kCases = 64;

struct Case {
    const ct_hull *a, *b;
    ct_xform xa, xb;
    int ia, ib;                 // shape indices (Bullet side)
};

struct Work {
    std::vector<Case> cases;
    std::vector<ct_xform> moved;   // scene rows: B after one small motion step (empty: none)
    std::vector<ct_vec3> axis, dir; // scene rows: each pair's turning axis and direction of travel
    std::vector<ct_sat_cache> caches;
    std::vector<int> cache_of;     // path rows: the cache of each case (its pair); empty: its own
    long cursor = 0;               // path rows: where the next repetition goes on
    ct_real spec;
    ct_real radius;             // rounding radius of both hulls (0: ct_manifold_hulls)
    bool cached;
    volatile double sink;
};

ct_vec3 v3(double x, double y, double z) { ct_vec3 v; v.x = (ct_real)x; v.y = (ct_real)y; v.z = (ct_real)z; return v; }

ct_xform random_rot(unsigned long long *seed) {
    double r[9];
    ct_xform x = ct_xform_identity();
    wl_rotation(r, seed);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) x.r[i][j] = (ct_real)r[3 * i + j];
    return x;
}

// support h(d) of hull h under rotation x (no translation)
double support(const ct_hull *h, const ct_xform &x, const double d[3]) {
    double best = -1e300;
    for (int i = 0; i < h->nverts; ++i) {
        ct_vec3 p = h->verts[i];
        double w = 0;
        for (int r = 0; r < 3; ++r) w += d[r] * (x.r[r][0] * p.x + x.r[r][1] * p.y + x.r[r][2] * p.z);
        if (w > best) best = w;
    }
    return best;
}

// Ours on one case (rounded when r > 0).
void manifold(const Case &c, ct_real r, ct_real spec, ct_sat_cache *cache, ct_manifold *m) {
    if (r > 0) ct_manifold_rounded_hulls(c.a, &c.xa, r, c.b, &c.xb, r, spec, cache, m);
    else ct_manifold_hulls(c.a, &c.xa, c.b, &c.xb, spec, cache, m);
}

// B placed along direction d, sunk into A by `depth`: bisection on the distance along d for
// the deepest manifold separation (ours; Bullet's agreement is checked separately).
double deepest(const Case &c, ct_real r) {
    ct_manifold m;
    double best = 1e300;
    manifold(c, r, 10, NULL, &m);
    for (int i = 0; i < m.count; ++i) best = std::min(best, (double)m.points[i].separation);
    return best;
}
void place(Case &c, const double d[3], double depth, ct_real r) {
    double nd[3] = { -d[0], -d[1], -d[2] };
    double lo = 0, hi = support(c.a, c.xa, d) + support(c.b, c.xb, nd) + 2 * r;
    for (int it = 0; it < 50; ++it) {
        double t = (lo + hi) / 2;
        c.xb.p = v3(c.xa.p.x + t * d[0], c.xa.p.y + t * d[1], c.xa.p.z + t * d[2]);
        if (deepest(c, r) < -depth) lo = t; else hi = t;
    }
    c.xb.p = v3(c.xa.p.x + lo * d[0], c.xa.p.y + lo * d[1], c.xa.p.z + lo * d[2]);
}

void run_ours(void *p, long calls) {
    Work *w = static_cast<Work *>(p);
    double acc = 0;
    int n = (int)w->cases.size();
    if (!w->cache_of.empty()) {   // a path: every call goes on where the last one stopped
        for (long i = 0; i < calls; ++i) {
            int k = (int)((w->cursor + i) % n);
            ct_manifold m;
            manifold(w->cases[k], w->radius, w->spec, w->cached ? &w->caches[w->cache_of[k]] : NULL, &m);
            acc += m.count;
        }
        w->cursor = (w->cursor + calls) % n;
        w->sink = acc;
        return;
    }
    for (long i = 0; i < calls; ++i) {
        int k = (int)(i % n);
        ct_manifold m;
        if (!w->moved.empty() && ((i / n) & 1)) {   // every other pass B has moved one step
            Case c = w->cases[k];
            c.xb = w->moved[k];
            manifold(c, w->radius, w->spec, w->cached ? &w->caches[k] : NULL, &m);
        } else {
            manifold(w->cases[k], w->radius, w->spec, w->cached ? &w->caches[k] : NULL, &m);
        }
        acc += m.count;
    }
    w->sink = acc;
}

#ifdef CT_HAVE_BULLET
struct Collect : public btDiscreteCollisionDetectorInterface::Result {
    int count;
    btScalar deepest;
    btVector3 normal, point;
    void reset() { count = 0; deepest = BT_LARGE_FLOAT; }
    void setShapeIdentifiersA(int, int) {}
    void setShapeIdentifiersB(int, int) {}
    void addContactPoint(const btVector3 &n, const btVector3 &p, btScalar depth) {
        ++count;
        if (depth < deepest) { deepest = depth; normal = n; point = p; }
    }
};

struct Peer {
    std::vector<btConvexHullShape *> shapes;
    std::vector<btConvexHullShape *> rounded;   // the same hulls with a margin (Work::radius)
    std::vector<btTransform> ta, tb;
    Work *w;
    btVertexArray v1, v2;
    Collect out;
    bool gjk_path;              // radius 0: btConvexConvexAlgorithm's default (GJK normal + clip)
    volatile double sink;
};

btTransform to_bt(const ct_xform &x) {
    btMatrix3x3 m((btScalar)x.r[0][0], (btScalar)x.r[0][1], (btScalar)x.r[0][2],
                  (btScalar)x.r[1][0], (btScalar)x.r[1][1], (btScalar)x.r[1][2],
                  (btScalar)x.r[2][0], (btScalar)x.r[2][1], (btScalar)x.r[2][2]);
    return btTransform(m, btVector3((btScalar)x.p.x, (btScalar)x.p.y, (btScalar)x.p.z));
}

btConvexHullShape *to_bt(const ct_hull *h, double margin) {
    btConvexHullShape *s = new btConvexHullShape();
    for (int i = 0; i < h->nverts; ++i)
        s->addPoint(btVector3((btScalar)h->verts[i].x, (btScalar)h->verts[i].y, (btScalar)h->verts[i].z), false);
    s->recalcLocalAabb();
    s->setMargin((btScalar)margin);
    s->initializePolyhedralFeatures();
    return s;
}

// Rounded: btConvexConvexAlgorithm's polyhedral branch for margin shapes. GJK (EPA when the
// margins overlap) gives the axis and the distance; the polyhedra are clipped along it.
// With p->gjk_path and radius 0 this is btConvexConvexAlgorithm's default path for two
// btConvexHullShape with polyhedral features and margin 0 (m_enableSatConvex off): GJK (EPA when
// they overlap) for the normal, then clipHullAgainstHull along it.
void bullet_call_rounded(Peer *p, int k, Collect *gjk_out) {
    const std::vector<btConvexHullShape *> &set = p->w->radius > 0 ? p->rounded : p->shapes;
    const btConvexHullShape *sa = set[p->w->cases[k].ia], *sb = set[p->w->cases[k].ib];
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btGjkPairDetector gjk(sa, sb, &simplex, &epa);
    btGjkPairDetector::ClosestPointInput input;
    btScalar reach = sa->getMargin() + sb->getMargin() + (btScalar)p->w->spec;
    Collect local;
    Collect *g = gjk_out ? gjk_out : &local;
    input.m_transformA = p->ta[k];
    input.m_transformB = p->tb[k];
    input.m_maximumDistanceSquared = reach * reach;
    g->reset();
    p->out.reset();
    p->v1.resize(0);
    p->v2.resize(0);
    gjk.getClosestPoints(input, *g, NULL);
    if (g->count == 0) return;
    // the polyhedra (the cores) are clipped along GJK's axis; if that finds nothing (edge or
    // vertex contact) GJK's point is the answer, as in btConvexConvexAlgorithm
    // the clip measures the polyhedra (the cores): its depth window is widened by the margins
    btScalar margins = sa->getMargin() + sb->getMargin();
    p->out.normal = g->normal;
    btPolyhedralContactClipping::clipHullAgainstHull(g->normal, *sa->getConvexPolyhedron(), *sb->getConvexPolyhedron(),
                                                     p->ta[k], p->tb[k], g->deepest + margins - (btScalar)p->w->spec,
                                                     reach, p->v1, p->v2, p->out);
    if (p->out.count == 0) p->out.addContactPoint(g->normal, g->point, g->deepest);
}

// One Bullet narrow-phase call, as btConvexConvexAlgorithm does it for polyhedra.
void bullet_call(Peer *p, int k) {
    const btConvexPolyhedron *a = p->shapes[p->w->cases[k].ia]->getConvexPolyhedron();
    const btConvexPolyhedron *b = p->shapes[p->w->cases[k].ib]->getConvexPolyhedron();
    btVector3 sep(0, 0, 0);
    p->out.reset();
    p->v1.resize(0);
    p->v2.resize(0);
    if (btPolyhedralContactClipping::findSeparatingAxis(*a, *b, p->ta[k], p->tb[k], sep, p->out)) {
        p->out.normal = sep;
        btPolyhedralContactClipping::clipHullAgainstHull(sep, *a, *b, p->ta[k], p->tb[k], (btScalar)-1e30,
                                                         (btScalar)p->w->spec, p->v1, p->v2, p->out);
    }
}

void run_bullet(void *q, long calls) {
    Peer *p = static_cast<Peer *>(q);
    double acc = 0;
    int n = (int)p->w->cases.size();
    for (long i = 0; i < calls; ++i) {
        if (p->w->radius > 0 || p->gjk_path) bullet_call_rounded(p, (int)(i % n), NULL);
        else bullet_call(p, (int)(i % n));
        acc += p->out.count;
    }
    p->sink = acc;
}

// Agreement on the cases where both penetrate: the normals within 1e-3 and the deepest
// separations within 1e-2 x (extent sum). Bullet measures the depth of an edge-axis contact
// from the plane of a face of A, not along the axis, and picks the axis without a face
// preference, so the depths are compared loosely and near-ties of the axis are counted.
std::string agreement(Peer *p) {
    Work *w = p->w;
    int both = 0, normal_ok = 0, biased = 0, biased_depth = 0, depth_ok = 0, depth_tight = 0, only_ours = 0, only_peer = 0;
    oracle_tally vote = { 0, 0, 0 }, side = { 0, 0, 0 };   // side: the one-sided cases alone
    for (int k = 0; k < (int)w->cases.size(); ++k) {
        const Case &c = w->cases[k];
        ct_manifold m;
        manifold(c, w->radius, w->spec, NULL, &m);
        double ours = 1e300;
        for (int i = 0; i < m.count; ++i) ours = std::min(ours, (double)m.points[i].separation);
        Collect g;
        const Collect *ref = &p->out;   // whose deepest separation and normal are compared
        if (w->radius > 0 || p->gjk_path) { bullet_call_rounded(p, k, &g); ref = &g; }
        else bullet_call(p, k);
        bool po = m.count > 0 && ours < 0, pp = p->out.count > 0 && ref->count > 0 && ref->deepest < 0;
        // the oracle (bench/oracle.c's brute-force SAT on the cores; exact depth for
        // polytopes, the rounded depth adds 2 r while the cores overlap)
        double axis[3], core = oracle_sat(c.a, &c.xa, c.b, &c.xb, axis), odeep = core - 2 * (double)w->radius;
        if (po && pp) {
            btVector3 n = ref->normal.normalized();
            double d = -(n.x() * m.normal.x + n.y() * m.normal.y + n.z() * m.normal.z);
            double L = (double)c.a->extent + (double)c.b->extent, e = std::fabs(ours - (double)ref->deepest);
            ++both;
            normal_ok += d >= 1 - 1e-3;
            depth_ok += e <= 1e-2 * L;
            depth_tight += e <= 1e-3 * L;
            // ct_manifold_hulls prefers a face to an edge pair (and A's face to B's) unless the
            // other is deeper by its documented bias (2% of its own depth + 5e-4 L, sat.h): a normal
            // that differs from the least axis by no more, with our deepest point at the exact
            // depth along it, is ours by design and counted apart; any other disagreement goes
            // to the oracle (the depth; the normal nearer the least axis, A to B)
            double ax[3] = { (double)m.normal.x, (double)m.normal.y, (double)m.normal.z };
            double along = (e > 1e-2 * L || d < 1 - 1e-3) ? oracle_sat_along(c.a, &c.xa, c.b, &c.xb, ax) : 0;
            bool by_bias = core <= 0 && along <= 0 && -along <= -core + 0.02 * -along + 5e-4 * L;
            if (e > 1e-2 * L) {
                if (by_bias && std::fabs(ours - along) <= 1e-3 * L) ++biased_depth;
                else if (core <= 0) oracle_vote(&vote, odeep, ours, (double)ref->deepest);
                else vote.neither++;
            } else if (d < 1 - 1e-3) {
                if (by_bias) {
                    ++biased;
                } else {
                    if (std::getenv("BENCH_SAT_VERBOSE"))
                        std::printf("normal case %d: oracle %g, along ours %g, ours %g, Bullet %g, L %g, normal dot %g\n", k,
                                    core, along, ours, (double)ref->deepest, L, d);
                    double dn = axis[0] * m.normal.x + axis[1] * m.normal.y + axis[2] * m.normal.z;
                    double dp = -(axis[0] * n.x() + axis[1] * n.y() + axis[2] * n.z());
                    oracle_vote(&vote, 1, dn, dp);
                }
            }
            if (e > 1e-2 * L && std::getenv("BENCH_SAT_VERBOSE")) {
                std::printf("depth case %d: oracle %g, along ours %g, ours %g, Bullet %g, L %g, normal dot %g\n", k, core,
                            oracle_sat_along(c.a, &c.xa, c.b, &c.xb, ax), ours, (double)ref->deepest, L, d);
            }
            if ((d < 1 - 1e-3 || e > 1e-3 * L) && std::getenv("BENCH_SAT_VERBOSE") && std::getenv("BENCH_SAT_VERBOSE")[0] == '2')
                std::printf("case %d: ours %d points, deepest %g; Bullet %d points, deepest %g; normal dot %g\n", k,
                            m.count, ours, p->out.count, (double)ref->deepest, d);
        } else if (po || pp) {
            only_ours += po;
            only_peer += pp;
            oracle_vote_bool(&vote, odeep < 0, po, pp);
            oracle_vote_bool(&side, odeep < 0, po, pp);
        }
    }
    char buf[640];
    // a case only one side calls penetrating is a disagreement unless the oracle sides with ours
    bool ok = depth_ok + biased_depth == both && side.ours == only_ours + only_peer && normal_ok + biased >= both - both / 10;
    std::snprintf(buf, sizeof buf, "%s: normal(1e-3) %d/%d (+%d ours a face within its bias of the least axis), depth(1e-2 L) %d/%d (+%d "
                  "within the same bias), depth(1e-3 L) %d/%d, one-sided %d/%d (the oracle sides with ours on %d)",
                  ok ? "agree" : "DISAGREE", normal_ok, both, biased, depth_ok, both, biased_depth, depth_tight, both, only_ours, only_peer, side.ours);
    if (!ok) oracle_say(buf, sizeof buf, "the brute-force SAT", &vote);
    return buf;
}
#endif

struct Scene {
    std::vector<ct_hull> hulls;   // 0: box A, 1: box B, 2..: 20-vertex hulls
};

// mixed: depths uniform in [-0.1, 0.05] (negative: a gap), so about half the pairs are apart
// by more than the speculative distance (the early-out and the cached separating axis).
void build_cases(Work &w, const Scene &s, bool boxes, bool rotated, bool mixed, unsigned long long seed) {
    // depth (the deepest rounded separation is -depth) measured with w.radius
    w.cases.clear();
    for (int k = 0; k < kCases; ++k) {
        Case c;
        if (boxes) { c.ia = 0; c.ib = 1; }
        else { c.ia = 2 + (2 * k) % 32; c.ib = 2 + (2 * k + 1) % 32; }
        c.a = &s.hulls[c.ia];
        c.b = &s.hulls[c.ib];
        double d[3] = { 0, 0, 1 };
        if (rotated) {
            c.xa = random_rot(&seed);
            c.xb = random_rot(&seed);
            wl_direction(d, &seed);
        } else {
            c.xa = ct_xform_identity();
            c.xb = ct_xform_from_axis_angle(v3(0, 0, 1), (ct_real)(6.283 * bench_uniform(&seed)), v3(0, 0, 0));
        }
        c.xa.p = v3(0, 0, 0);
        if (!rotated) {   // resting: B slid sideways on A's top
            c.xa.p.x = (ct_real)(-0.4 * (bench_uniform(&seed) - 0.5));
            c.xa.p.y = (ct_real)(-0.4 * (bench_uniform(&seed) - 0.5));
        }
        place(c, d, mixed ? 0.05 - 0.15 * bench_uniform(&seed) : 0.02, w.radius);
        w.cases.push_back(c);
    }
    w.caches.assign(w.cases.size(), ct_sat_cache());
    for (size_t k = 0; k < w.caches.size(); ++k) std::memset(&w.caches[k], 0, sizeof w.caches[k]);
}

// Scene pairs: 10,000 bodies (each its own 20-point hull on the unit sphere, random rotation)
// at uniform random positions in a cube whose side gives about 7.4 AABB-overlapping pairs per
// body (the scene of the narrow-phase issue: 74,383 pairs, 54% separated); the first kScene
// pairs of ct_broadphase's list are timed. Warm: a ct_sat_cache per pair and B moving by one
// small step (0.5% of the size along a random direction and 1 degree about a random axis)
// between consecutive calls of a pair.
const int kBodies = 10000, kScene = 4000;

struct SceneSet {
    std::vector<ct_hull> hulls;
    std::vector<ct_xform> x;
};

// B of each scene pair after one motion step of f times (1 degree about its axis, 0.5% of its
// size along its direction).
void set_motion(Work &w, double f) {
    w.moved.clear();
    for (size_t k = 0; k < w.cases.size(); ++k) {
        const Case &c = w.cases[k];
        ct_xform step = ct_xform_from_axis_angle(w.axis[k], (ct_real)(f * 3.14159265358979 / 180), v3(0, 0, 0));
        ct_xform m = c.xb;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                m.r[i][j] = step.r[i][0] * c.xb.r[0][j] + step.r[i][1] * c.xb.r[1][j] + step.r[i][2] * c.xb.r[2][j];
        double L = (double)c.b->extent;   // 0.5% of the size (the diameter 2 L)
        m.p = v3(c.xb.p.x + f * 0.01 * L * w.dir[k].x, c.xb.p.y + f * 0.01 * L * w.dir[k].y, c.xb.p.z + f * 0.01 * L * w.dir[k].z);
        w.moved.push_back(m);
    }
}

void scene_build(SceneSet &sc, Work &w, unsigned long long seed) {
    double side = std::cbrt(64.0 * kBodies * (kBodies - 1) / 2 / 74383.0);
    std::vector<ct_aabb> boxes(kBodies);
    sc.hulls.resize(kBodies);
    sc.x.resize(kBodies);
    for (int i = 0; i < kBodies; ++i) {
        double xyz[60];
        ct_vec3 p[20];
        wl_sphere(xyz, 20, 1.0, &seed);
        for (int j = 0; j < 20; ++j) p[j] = v3(xyz[3 * j], xyz[3 * j + 1], xyz[3 * j + 2]);
        if (ct_hull_build(p, 20, NULL, NULL, &sc.hulls[i]) != CT_OK) std::printf("hull build failed\n");
        sc.x[i] = random_rot(&seed);
        sc.x[i].p = v3(side * bench_uniform(&seed), side * bench_uniform(&seed), side * bench_uniform(&seed));
        boxes[i] = ct_hull_aabb(&sc.hulls[i], &sc.x[i]);
    }
    ct_pairs pairs;
    ct_broadphase(boxes.data(), kBodies, NULL, &pairs);
    w.cases.clear();
    w.moved.clear();
    w.axis.clear();
    w.dir.clear();
    for (size_t k = 0; k < pairs.count && (int)k < kScene; ++k) {
        Case c;
        c.ia = pairs.items[k].a;
        c.ib = pairs.items[k].b;
        c.a = &sc.hulls[c.ia];
        c.b = &sc.hulls[c.ib];
        c.xa = sc.x[c.ia];
        c.xb = sc.x[c.ib];
        w.cases.push_back(c);
        double d[3], ax[3];
        wl_direction(d, &seed);
        wl_direction(ax, &seed);
        w.axis.push_back(v3(ax[0], ax[1], ax[2]));
        w.dir.push_back(v3(d[0], d[1], d[2]));
    }
    set_motion(w, 1);
    std::printf("scene: %zu AABB pairs among %d bodies (side %.1f); %zu timed\n", pairs.count, kBodies, side, w.cases.size());
    ct_pairs_free(&pairs);
    w.caches.assign(w.cases.size(), ct_sat_cache());
    for (size_t k = 0; k < w.caches.size(); ++k) std::memset(&w.caches[k], 0, sizeof w.caches[k]);
}

void scene_rows(unsigned long long seed) {
    SceneSet sc;
    Work w;
    w.spec = (ct_real)0.02;
    w.radius = 0;
    w.cached = false;
    w.sink = 0;
    scene_build(sc, w, seed);
    int apart = 0, contacts = 0;
    for (size_t k = 0; k < w.cases.size(); ++k) {
        ct_shape sa = ct_shape_hull(w.cases[k].a), sb = ct_shape_hull(w.cases[k].b);
        ct_distance d;
        ct_manifold m;
        ct_gjk(&sa, &w.cases[k].xa, &sb, &w.cases[k].xb, NULL, &d);
        apart += d.distance > 0;
        manifold(w.cases[k], 0, w.spec, NULL, &m);
        contacts += m.count > 0;
    }
    char setup[400], row[160];
    std::snprintf(setup, sizeof setup, "%d bodies, %zu of their AABB-overlapping pairs (%.0f%% separated, %d with "
                  "a contact within speculative 0.02); warm = a ct_sat_cache per pair with B moved by 0.5%% of the "
                  "size and 1 degree (a tenth of that, none) between consecutive calls. Bullet (float): default path, "
                  "no persistent state.",
                  kBodies, w.cases.size(), 100.0 * apart / (double)w.cases.size(), contacts);
    bench_table("Contact manifold on scene pairs (20-point hulls)", setup);
#ifdef CT_HAVE_BULLET
    Peer peer;
    peer.w = &w;
    peer.gjk_path = true;
    peer.shapes.assign(kBodies, (btConvexHullShape *)NULL);
    for (size_t k = 0; k < w.cases.size(); ++k)
        for (int e = 0; e < 2; ++e) {
            int i = e ? w.cases[k].ib : w.cases[k].ia;
            if (!peer.shapes[i]) peer.shapes[i] = to_bt(&sc.hulls[i], 0);
        }
    for (size_t k = 0; k < w.cases.size(); ++k) { peer.ta.push_back(to_bt(w.cases[k].xa)); peer.tb.push_back(to_bt(w.cases[k].xb)); }
    std::string check = agreement(&peer);
#endif
    // cold; warm under the small motion; warm under a tenth of it and at rest (a
    // resting or slowly sliding contact: the certificate the cache keeps answers most calls)
    static const double kMotion[4] = { -1, 1, 0.1, 0 };
    static const char *kName[4] = { "cold", "warm (small motion)", "warm (slow: 0.05%, 0.1 deg)", "warm (at rest)" };
    for (int r = 0; r < 4; ++r) {
        w.cached = kMotion[r] >= 0;
        if (w.cached) set_motion(w, kMotion[r]);
        else w.moved.clear();   // cold: the same transforms every call
        for (size_t k = 0; k < w.caches.size(); ++k) std::memset(&w.caches[k], 0, sizeof w.caches[k]);
        std::snprintf(row, sizeof row, "scene pairs, %s", kName[r]);
#ifdef CT_HAVE_BULLET
        bench_row(row, run_ours, &w, "Bullet default: GJK + clip (float)", run_bullet, &peer, check.c_str());
#else
        bench_row(row, run_ours, &w, "Bullet (not installed)", NULL, NULL, "-");
#endif
    }
    // Both bodies of every pair moving on, as in a scene: each turns 1 degree about its own
    // axis and travels 0.5% of its size along its own direction per call, back and forth along
    // a 12-step path (the frames of all pairs in turn, each pair's cache kept across them). The
    // certificate must outlast the motion, not a swing between two poses.
    {
        const int kSteps = 12;
        Work pw;
        pw.spec = w.spec;
        pw.radius = 0;
        pw.cursor = 0;
        pw.sink = 0;
        std::vector<std::vector<ct_xform> > pa(w.cases.size()), pb(w.cases.size());
        unsigned long long pseed = seed + 7;
        for (size_t k = 0; k < w.cases.size(); ++k) {
            double d[3];
            ct_vec3 ax[2], dir[2];
            for (int e = 0; e < 2; ++e) {
                wl_direction(d, &pseed);
                ax[e] = v3(d[0], d[1], d[2]);
                wl_direction(d, &pseed);
                dir[e] = v3(d[0], d[1], d[2]);
            }
            ct_xform x[2] = { w.cases[k].xa, w.cases[k].xb };
            for (int st = 0; st < kSteps; ++st) {
                pa[k].push_back(x[0]);
                pb[k].push_back(x[1]);
                for (int e = 0; e < 2; ++e) {
                    const ct_hull *h = e ? w.cases[k].b : w.cases[k].a;
                    ct_xform turn = ct_xform_from_axis_angle(ax[e], (ct_real)(3.14159265358979 / 180), v3(0, 0, 0)), m = x[e];
                    for (int i = 0; i < 3; ++i)
                        for (int j = 0; j < 3; ++j)
                            m.r[i][j] = turn.r[i][0] * x[e].r[0][j] + turn.r[i][1] * x[e].r[1][j] + turn.r[i][2] * x[e].r[2][j];
                    double L = (double)h->extent;   // 0.5% of the size (the diameter 2 L)
                    m.p = v3(x[e].p.x + 0.01 * L * dir[e].x, x[e].p.y + 0.01 * L * dir[e].y, x[e].p.z + 0.01 * L * dir[e].z);
                    x[e] = m;
                }
            }
        }
        for (int f = 0; f < 2 * kSteps - 2; ++f) {
            int st = f < kSteps ? f : 2 * kSteps - 2 - f;
            for (size_t k = 0; k < w.cases.size(); ++k) {
                Case c = w.cases[k];
                c.xa = pa[k][st];
                c.xb = pb[k][st];
                pw.cases.push_back(c);
                pw.cache_of.push_back((int)k);
            }
        }
        pw.caches.assign(w.cases.size(), ct_sat_cache());
#ifdef CT_HAVE_BULLET
        Peer pp;
        pp.w = &pw;
        pp.gjk_path = true;
        pp.shapes = peer.shapes;
        for (size_t k = 0; k < pw.cases.size(); ++k) { pp.ta.push_back(to_bt(pw.cases[k].xa)); pp.tb.push_back(to_bt(pw.cases[k].xb)); }
#endif
        for (int r = 0; r < 2; ++r) {
            pw.cached = r == 1;
            pw.cursor = 0;
            for (size_t k = 0; k < pw.caches.size(); ++k) std::memset(&pw.caches[k], 0, sizeof pw.caches[k]);
            std::snprintf(row, sizeof row, "scene pairs, both bodies moving on (0.5%%, 1 deg per call), %s", r ? "warm" : "cold");
#ifdef CT_HAVE_BULLET
            bench_row(row, run_ours, &pw, "Bullet default: GJK + clip (float)", run_bullet, &pp, "same pairs as above, moved");
#else
            bench_row(row, run_ours, &pw, "Bullet (not installed)", NULL, NULL, "-");
#endif
        }
    }
#ifdef CT_HAVE_BULLET
    for (size_t i = 0; i < peer.shapes.size(); ++i) delete peer.shapes[i];
#endif
    for (size_t i = 0; i < sc.hulls.size(); ++i) ct_hull_free(&sc.hulls[i]);
}

} // namespace

int main() {
    if (std::getenv("CT_BENCH_ONLY_SCENE")) {   // just the scene-pair table (profiling)
        scene_rows(12345 + 99);
        return 0;
    }
    Scene s;
    unsigned long long seed = 12345;
    s.hulls.resize(2 + 32);
    ct_hull_box(v3(1, 1, 1), NULL, &s.hulls[0]);
    ct_hull_box(v3(0.5, 0.7, 0.4), NULL, &s.hulls[1]);
    for (int i = 0; i < 32; ++i) {
        double xyz[60];
        ct_vec3 p[20];
        wl_sphere(xyz, 20, 1.0, &seed);
        for (int j = 0; j < 20; ++j) p[j] = v3(xyz[3 * j], xyz[3 * j + 1], xyz[3 * j + 2]);
        if (ct_hull_build(p, 20, NULL, NULL, &s.hulls[2 + i]) != CT_OK) { std::printf("hull build failed\n"); return 1; }
    }
    Work w;
    w.spec = (ct_real)0.02;
    w.radius = 0;
    w.cached = false;
    w.sink = 0;

#ifdef CT_HAVE_BULLET
    Peer peer;
    peer.w = &w;
    const double kRadius = 0.05;
    for (size_t i = 0; i < s.hulls.size(); ++i) {
        peer.shapes.push_back(to_bt(&s.hulls[i], 0));
        peer.rounded.push_back(to_bt(&s.hulls[i], kRadius));
    }
#else
    const double kRadius = 0.05;
#endif
    bench_table("Contact manifold (SAT + clipping)",
                "64 pairs per row, cycled; speculative 0.02; ours double, Bullet float. Two Bullet peers: its default "
                "path (btConvexConvexAlgorithm with m_enableSatConvex off: btGjkPairDetector + "
                "btGjkEpaPenetrationDepthSolver on btConvexHullShape with initializePolyhedralFeatures(), margin 0, "
                "for the normal, then btPolyhedralContactClipping::clipHullAgainstHull) and its SAT option "
                "(findSeparatingAxis + clipHullAgainstHull); cached = a warm ct_sat_cache per pair.");
    const char *names[9] = { "box-box resting", "box-box rotated", "20-vertex hulls resting", "20-vertex hulls rotated",
                             "box-box rotated, mixed gaps", "20-vertex hulls rotated, mixed gaps",
                             "rounded (0.05) box-box resting", "rounded (0.05) box-box rotated",
                             "rounded (0.05) 20-vertex hulls rotated" };
    for (int r = 0; r < 9; ++r) {
        bool boxes = r < 2 || r == 4 || r == 6 || r == 7, rotated = r % 2 == 1 || r >= 4;
        if (r == 6) rotated = false;
        w.radius = r >= 6 ? (ct_real)kRadius : 0;
        if (r == 6)
            bench_note("Rounded rows: ct_manifold_rounded_hulls vs Bullet's margin path (btGjkPairDetector + "
                       "btGjkEpaPenetrationDepthSolver on btConvexHullShape with margin 0.05, then clipHullAgainstHull).");
        build_cases(w, s, boxes, rotated, r >= 4 && r < 6, 1000 + r);
        int contacts = 0;
        for (size_t k = 0; k < w.cases.size(); ++k) {
            ct_manifold m;
            manifold(w.cases[k], w.radius, w.spec, &w.caches[k], &m);
            contacts += m.count > 0;
        }
        char row[128];
#ifdef CT_HAVE_BULLET
        peer.ta.clear(); peer.tb.clear();
        for (size_t k = 0; k < w.cases.size(); ++k) { peer.ta.push_back(to_bt(w.cases[k].xa)); peer.tb.push_back(to_bt(w.cases[k].xb)); }
        peer.gjk_path = false;
        std::string check = agreement(&peer);
        peer.gjk_path = true;
        std::string check_gjk = w.radius > 0 ? check : agreement(&peer);
        for (int cached = 0; cached < 2; ++cached) {
            w.cached = cached != 0;
            std::snprintf(row, sizeof row, "%s, %s (%d/64 in contact)", names[r], cached ? "cached" : "cold", contacts);
            if (w.radius == 0) {   // the default path first: the headline peer
                peer.gjk_path = true;
                bench_row(row, run_ours, &w, "Bullet default: GJK + clip (float)", run_bullet, &peer, check_gjk.c_str());
            }
            peer.gjk_path = false;
            bench_row(row, run_ours, &w, w.radius > 0 ? "Bullet margin path (float)" : "Bullet findSeparatingAxis + clip (float)",
                      run_bullet, &peer, check.c_str());
        }
#else
        for (int cached = 0; cached < 2; ++cached) {
            w.cached = cached != 0;
            std::snprintf(row, sizeof row, "%s, %s (%d/64 in contact)", names[r], cached ? "cached" : "cold", contacts);
            bench_row(row, run_ours, &w, "Bullet (not installed)", NULL, NULL, "-");
        }
#endif
    }
    scene_rows(seed + 99);
#ifdef CT_HAVE_BULLET
    for (size_t i = 0; i < peer.shapes.size(); ++i) { delete peer.shapes[i]; delete peer.rounded[i]; }
#endif
    for (size_t i = 0; i < s.hulls.size(); ++i) ct_hull_free(&s.hulls[i]);
    return 0;
}
