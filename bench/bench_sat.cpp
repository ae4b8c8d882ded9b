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
    std::vector<ct_sat_cache> caches;
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
    for (long i = 0; i < calls; ++i) {
        int k = (int)(i % n);
        const Case &c = w->cases[k];
        ct_manifold m;
        manifold(c, w->radius, w->spec, w->cached ? &w->caches[k] : NULL, &m);
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
void bullet_call_rounded(Peer *p, int k, Collect *gjk_out) {
    const btConvexHullShape *sa = p->rounded[p->w->cases[k].ia], *sb = p->rounded[p->w->cases[k].ib];
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
        if (p->w->radius > 0) bullet_call_rounded(p, (int)(i % n), NULL);
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
    int both = 0, normal_ok = 0, depth_ok = 0, depth_tight = 0, only_ours = 0, only_peer = 0;
    for (int k = 0; k < (int)w->cases.size(); ++k) {
        const Case &c = w->cases[k];
        ct_manifold m;
        manifold(c, w->radius, w->spec, NULL, &m);
        double ours = 1e300;
        for (int i = 0; i < m.count; ++i) ours = std::min(ours, (double)m.points[i].separation);
        Collect g;
        const Collect *ref = &p->out;   // whose deepest separation and normal are compared
        if (w->radius > 0) { bullet_call_rounded(p, k, &g); ref = &g; }
        else bullet_call(p, k);
        bool po = m.count > 0 && ours < 0, pp = p->out.count > 0 && ref->count > 0 && ref->deepest < 0;
        if (po && pp) {
            btVector3 n = ref->normal.normalized();
            double d = -(n.x() * m.normal.x + n.y() * m.normal.y + n.z() * m.normal.z);
            double L = (double)c.a->extent + (double)c.b->extent, e = std::fabs(ours - (double)ref->deepest);
            ++both;
            normal_ok += d >= 1 - 1e-3;
            depth_ok += e <= 1e-2 * L;
            depth_tight += e <= 1e-3 * L;
            if ((d < 1 - 1e-3 || e > 1e-3 * L) && std::getenv("BENCH_SAT_VERBOSE"))
                std::printf("case %d: ours %d points, deepest %g; Bullet %d points, deepest %g; normal dot %g\n", k,
                            m.count, ours, p->out.count, (double)ref->deepest, d);
        } else if (po) ++only_ours;
        else if (pp) ++only_peer;
    }
    char buf[200];
    bool ok = depth_ok == both && only_ours == 0 && only_peer == 0 && normal_ok >= both - both / 10;
    std::snprintf(buf, sizeof buf, "%s: normal(1e-3) %d/%d, depth(1e-2 L) %d/%d, depth(1e-3 L) %d/%d, one-sided %d/%d",
                  ok ? "agree" : "DISAGREE", normal_ok, both, depth_ok, both, depth_tight, both, only_ours, only_peer);
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

} // namespace

int main() {
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
                "64 pairs per row, cycled; speculative 0.02; ours double, Bullet float (btPolyhedralContactClipping: "
                "findSeparatingAxis + clipHullAgainstHull); cached = a warm ct_sat_cache per pair.");
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
        std::string check = agreement(&peer);
        for (int cached = 0; cached < 2; ++cached) {
            w.cached = cached != 0;
            std::snprintf(row, sizeof row, "%s, %s (%d/64 in contact)", names[r], cached ? "cached" : "cold", contacts);
            bench_row(row, run_ours, &w, "Bullet (float)", run_bullet, &peer, check.c_str());
        }
#else
        for (int cached = 0; cached < 2; ++cached) {
            w.cached = cached != 0;
            std::snprintf(row, sizeof row, "%s, %s (%d/64 in contact)", names[r], cached ? "cached" : "cold", contacts);
            bench_row(row, run_ours, &w, "Bullet (not installed)", NULL, NULL, "-");
        }
#endif
    }
#ifdef CT_HAVE_BULLET
    for (size_t i = 0; i < peer.shapes.size(); ++i) { delete peer.shapes[i]; delete peer.rounded[i]; }
#endif
    for (size_t i = 0; i < s.hulls.size(); ++i) ct_hull_free(&s.hulls[i]);
    return 0;
}
