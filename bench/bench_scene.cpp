// The whole collision step: ct_scene_step against Bullet 3.24's btCollisionWorld
// (performDiscreteCollisionDetection: AABB update, btDbvtBroadphase, btCollisionDispatcher
// narrow phase into persistent manifolds). Bullet is a float build and single-threaded.
//
// Scene (issue #17): n random 20-point hulls (points on the unit sphere scaled by 0.5..1,
// random rotations), centres uniform in a cube of side cbrt(n / 0.78). Bullet's shapes are
// btConvexHullShape over the same hull vertices with margin 0, configured two ways:
//   - polyhedral: initializePolyhedralFeatures() (btConvexConvexAlgorithm then runs GJK/EPA for
//     the normal and clips the polyhedra: a full manifold each step), Bullet's path for hulls;
//   - GJK/EPA: without polyhedral features (one point per step added to the persistent
//     manifold, btPersistentManifold keeps up to 4).
// Ours: ct_scene in manifold mode, speculative 0 (ct_manifold_hulls on every hull pair whose
// tight boxes overlap), transforms read through xform_ref from the caller's array.
// Workloads: first step (adding the bodies included, on both sides), repeated static steps,
// and a moving scene (each body moved 0.5% of its diameter along its own direction and turned
// 1 degree about its own axis per step; 20 steps; mean step), then the same at a tenth of
// that motion. Ours at 1 and 2 threads.
// Protocol: each timed step alternates ours and the peer on the same poses; median per step
// (mean for moving steps: see mean()).
// Agreement: touching-pair counts (ours: manifold count > 0; Bullet: a manifold with a point
// at distance <= 0) at the first step, within 0.5%.
// DEM variant (ours only): CT_SCENE_VOLUMETRIC (ct_contact_hulls on every hull pair).
// CT_BENCH_LONG=1 adds the moving scene at n = 100,000.
#include "contact.h"
#include "harness.h"
#include "oracle.h"
#include "workload.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef CT_HAVE_BULLET
#include <btBulletCollisionCommon.h>
#endif

namespace {

// Moving steps are averaged, not medianed: a pair's certificate answers several steps and is
// renewed on the next, so step times alternate, and the mean is what a simulation pays.
double mean(const std::vector<double> &v) {
    double s = 0;
    for (size_t i = 0; i < v.size(); ++i) s += v[i];
    return v.empty() ? 0 : s / (double)v.size();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

ct_vec3 v3(double x, double y, double z) {
    ct_vec3 v;
    v.x = (ct_real)x; v.y = (ct_real)y; v.z = (ct_real)z;
    return v;
}

// The scene: hulls in local coordinates, initial poses and per-body motion.
struct Scene {
    int n;
    std::vector<ct_hull> hulls;
    std::vector<double> p0, r0, dir, axis, size;   // 3 / 9 / 3 / 3 / 1 per body
    explicit Scene(int n_) : n(n_) {}
    ~Scene() { for (auto &h : hulls) ct_hull_free(&h); }
};

bool make_scene(Scene &sc, unsigned long long seed) {
    int n = sc.n;
    double side = std::cbrt(n / 0.78);
    sc.hulls.resize((size_t)n);
    sc.p0.resize(3 * (size_t)n); sc.r0.resize(9 * (size_t)n); sc.dir.resize(3 * (size_t)n);
    sc.axis.resize(3 * (size_t)n); sc.size.resize((size_t)n);
    std::vector<double> xyz(60);
    std::vector<ct_vec3> pts(20);
    for (int i = 0; i < n; ++i) {
        double s = 0.5 + 0.5 * bench_uniform(&seed);
        wl_sphere(xyz.data(), 20, s, &seed);
        for (int k = 0; k < 20; ++k) pts[k] = v3(xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2]);
        if (ct_hull_build(pts.data(), 20, NULL, NULL, &sc.hulls[i]) != CT_OK) return false;
        for (int k = 0; k < 3; ++k) sc.p0[3 * i + k] = side * bench_uniform(&seed);
        wl_rotation(&sc.r0[9 * i], &seed);
        wl_direction(&sc.dir[3 * i], &seed);
        wl_direction(&sc.axis[3 * i], &seed);
        sc.size[i] = 2 * s;
    }
    return true;
}

// Pose of body i at step k (double), as a row-major rotation and a translation.
void pose(const Scene &sc, int i, double k, double r[9], double p[3]) {
    const double *a = &sc.axis[3 * i], *r0 = &sc.r0[9 * i];
    double t = k * (M_PI / 180), c = std::cos(t), s = std::sin(t), C = 1 - c, q[9];
    // Rodrigues: rotation by t about a, applied after r0
    q[0] = c + a[0] * a[0] * C;        q[1] = a[0] * a[1] * C - a[2] * s; q[2] = a[0] * a[2] * C + a[1] * s;
    q[3] = a[1] * a[0] * C + a[2] * s; q[4] = c + a[1] * a[1] * C;        q[5] = a[1] * a[2] * C - a[0] * s;
    q[6] = a[2] * a[0] * C - a[1] * s; q[7] = a[2] * a[1] * C + a[0] * s; q[8] = c + a[2] * a[2] * C;
    for (int u = 0; u < 3; ++u)
        for (int v = 0; v < 3; ++v) r[3 * u + v] = q[3 * u] * r0[v] + q[3 * u + 1] * r0[3 + v] + q[3 * u + 2] * r0[6 + v];
    for (int u = 0; u < 3; ++u) p[u] = sc.p0[3 * i + u] + k * 0.005 * sc.size[i] * sc.dir[3 * i + u];
}

// The independent oracle of a touching count: bench/oracle.c's sweep over world boxes made
// here from the placed vertices, then its brute-force SAT on every overlapping box pair.
struct OracleCount { const Scene *sc; const ct_xform *xf; int touching; };
void oracle_pair(void *u, int i, int j) {
    OracleCount &o = *static_cast<OracleCount *>(u);
    o.touching += oracle_sat(&o.sc->hulls[i], &o.xf[i], &o.sc->hulls[j], &o.xf[j], NULL) <= 0;
}
int oracle_touching(const Scene &sc, const std::vector<ct_xform> &xf) {
    std::vector<ct_aabb> box((size_t)sc.n);
    for (int i = 0; i < sc.n; ++i) {
        const ct_hull &h = sc.hulls[i];
        for (int k = 0; k < h.nverts; ++k) {
            const ct_xform &x = xf[i];
            const ct_vec3 &v = h.verts[k];
            double w[3];
            for (int u = 0; u < 3; ++u) w[u] = x.r[u][0] * v.x + x.r[u][1] * v.y + x.r[u][2] * v.z;
            ct_vec3 p = v3(w[0] + x.p.x, w[1] + x.p.y, w[2] + x.p.z);
            if (k == 0) box[i].lo = box[i].hi = p;
            box[i].lo = v3(std::fmin(box[i].lo.x, p.x), std::fmin(box[i].lo.y, p.y), std::fmin(box[i].lo.z, p.z));
            box[i].hi = v3(std::fmax(box[i].hi.x, p.x), std::fmax(box[i].hi.y, p.y), std::fmax(box[i].hi.z, p.z));
        }
    }
    OracleCount o = { &sc, xf.data(), 0 };
    oracle_box_pairs_each(box.data(), sc.n, oracle_pair, &o);
    return o.touching;
}

// ---- ours ------------------------------------------------------------------------------------
struct Ours {
    const Scene *sc;
    ct_scene *scene = nullptr;
    std::vector<ct_xform> xf;
    ct_scene_result r;
    int threads;
    Ours(const Scene *s, int t) : sc(s), xf((size_t)s->n), threads(t) { std::memset(&r, 0, sizeof r); }
    ~Ours() { ct_scene_destroy(scene); }
    void set_poses(double k) {
        for (int i = 0; i < sc->n; ++i) {
            double R[9], p[3];
            pose(*sc, i, k, R, p);
            for (int u = 0; u < 3; ++u)
                for (int v = 0; v < 3; ++v) xf[i].r[u][v] = (ct_real)R[3 * u + v];
            xf[i].p = v3(p[0], p[1], p[2]);
        }
    }
    void clear() { ct_scene_destroy(scene); scene = nullptr; }
    bool build(ct_scene_mode mode) {
        ct_scene_desc d;
        std::memset(&d, 0, sizeof d);
        d.mode = mode;
        d.threads = threads;
        if (ct_scene_create(&d, NULL, &scene) != CT_OK) return false;
        for (int i = 0; i < sc->n; ++i) {
            ct_body_desc b;
            std::memset(&b, 0, sizeof b);
            b.shape = ct_shape_hull(&sc->hulls[i]);
            b.xform_ref = &xf[i];
            int id;
            if (ct_scene_add(scene, &b, &id) != CT_OK) return false;
        }
        return true;
    }
    bool step() {
#ifdef _OPENMP
        omp_set_num_threads(threads); // ct_broadphase inside the step follows OpenMP's count
#endif
        return ct_scene_step(scene, &r) == CT_OK;
    }
    int touching() const { return r.ntouching; }
};

#ifdef CT_HAVE_BULLET
// ---- Bullet ----------------------------------------------------------------------------------
struct Bullet {
    const Scene *sc;
    bool poly;
    btDefaultCollisionConfiguration *cfg = nullptr;
    btCollisionDispatcher *disp = nullptr;
    btDbvtBroadphase *bp = nullptr;
    btCollisionWorld *world = nullptr;
    std::vector<btConvexHullShape *> shapes;
    std::vector<btCollisionObject *> objs;
    std::vector<btTransform> tf;
    Bullet(const Scene *s, bool p) : sc(s), poly(p), tf((size_t)s->n) {
        for (int i = 0; i < s->n; ++i) {
            const ct_hull &h = s->hulls[i];
            btConvexHullShape *b = new btConvexHullShape();
            for (int k = 0; k < h.nverts; ++k)
                b->addPoint(btVector3((btScalar)h.verts[k].x, (btScalar)h.verts[k].y, (btScalar)h.verts[k].z), false);
            b->recalcLocalAabb();
            b->setMargin(0);
            if (poly) b->initializePolyhedralFeatures();
            shapes.push_back(b);
        }
    }
    ~Bullet() { clear(); for (auto *s : shapes) delete s; }
    // Teardown without Bullet's per-object removal (each removeCollisionObject scans every
    // pair: minutes at 10,000 bodies): manifolds released, proxies dropped with the broad phase.
    void clear() {
        if (world) {
            while (disp->getNumManifolds() > 0) disp->releaseManifold(disp->getManifoldByIndexInternal(disp->getNumManifolds() - 1));
            for (auto *o : objs) o->setBroadphaseHandle(nullptr);
        }
        for (auto *o : objs) delete o;
        objs.clear();
        delete world; delete bp; delete disp; delete cfg;
        world = nullptr; bp = nullptr; disp = nullptr; cfg = nullptr;
    }
    void set_poses(double k) {
        for (int i = 0; i < sc->n; ++i) {
            double R[9], p[3];
            pose(*sc, i, k, R, p);
            btMatrix3x3 m((btScalar)R[0], (btScalar)R[1], (btScalar)R[2], (btScalar)R[3], (btScalar)R[4],
                          (btScalar)R[5], (btScalar)R[6], (btScalar)R[7], (btScalar)R[8]);
            tf[i] = btTransform(m, btVector3((btScalar)p[0], (btScalar)p[1], (btScalar)p[2]));
            if (!objs.empty()) objs[i]->setWorldTransform(tf[i]);
        }
    }
    void build() {
        cfg = new btDefaultCollisionConfiguration();
        disp = new btCollisionDispatcher(cfg);
        bp = new btDbvtBroadphase();
        world = new btCollisionWorld(disp, bp, cfg);
        for (int i = 0; i < sc->n; ++i) {
            btCollisionObject *o = new btCollisionObject();
            o->setCollisionShape(shapes[i]);
            o->setWorldTransform(tf[i]);
            world->addCollisionObject(o);
            objs.push_back(o);
        }
    }
    void step() { world->performDiscreteCollisionDetection(); }
    int touching() const {
        int n = disp->getNumManifolds(), t = 0;
        for (int i = 0; i < n; ++i) {
            const btPersistentManifold *m = disp->getManifoldByIndexInternal(i);
            for (int k = 0; k < m->getNumContacts(); ++k)
                if (m->getContactPoint(k).getDistance() <= 0) { ++t; break; }
        }
        return t;
    }
};
#endif

// Stands in for the peer when Bullet is not installed (compare() then times ours only).
struct NoPeer {
    void set_poses(double) {}
    void clear() {}
    void build() {}
    void step() {}
    int touching() const { return 0; }
};

void row(const char *work, double ours, const char *peer, double tp, const char *check) {
    if (tp > 0)
        bench_note("| %s | %.0f | %s | %.0f | **%.2fx** | %s |", work, ours * 1e6, peer, tp * 1e6, tp / ours, check);
    else
        bench_note("| %s | %.0f | %s | - | - | %s |", work, ours * 1e6, peer, check);
}

const int REPS_FIRST = 3, REPS_STATIC = 3, STEPS_MOVING = 20, STEPS_DEM = 5;

// One peer configuration against ours at 1 and 2 threads: first, static, moving.
template <class Peer>
void compare(const Scene &sc, Peer *peer, const char *pname) {
    char work[160], check[400];
    std::vector<double> tpeer_first;
    for (int threads = 1; threads <= 2; ++threads) {
        Ours o(&sc, threads);
        std::vector<double> to, tp;
        int co = 0, cp = 0;
        o.set_poses(0);
        if (peer) peer->set_poses(0);
        for (int r = 0; r < REPS_FIRST; ++r) {
            o.clear();
            double t0 = bench_seconds();
            if (!o.build(CT_SCENE_MANIFOLD) || !o.step()) { bench_note("ours failed"); return; }
            to.push_back(bench_seconds() - t0);
            co = o.touching();
            if (peer && (threads == 1 || r == 0)) { // the peer is single-threaded: timed in the 1-thread pass
                peer->clear();
                peer->set_poses(0);
                t0 = bench_seconds();
                peer->build();
                peer->step();
                tp.push_back(bench_seconds() - t0);
                cp = peer->touching();
            }
        }
        if (threads == 1) tpeer_first = tp;
        tp = tpeer_first;
        if (peer) std::snprintf(check, sizeof check, "touching %d vs %d (%+.2f%%)%s%s", co, cp, 100.0 * (cp - co) / co,
                                std::abs(cp - co) <= 0.005 * co ? "" : " DISAGREE > 0.5%",
                                threads > 1 ? "; peer: median of the 1-thread pass" : "");
        if (peer && std::abs(cp - co) > 0.005 * co) {   // who is right: the brute-force SAT's count
            oracle_tally t = { 0, 0, 0 };
            oracle_vote(&t, oracle_touching(sc, o.xf), co, cp);
            oracle_say(check, sizeof check, "the brute-force SAT count", &t);
        }
        else std::snprintf(check, sizeof check, "touching %d", co);
        std::snprintf(work, sizeof work, "n = %d, first step (bodies added), %d thread%s", sc.n, threads, threads > 1 ? "s" : "");
        row(work, median(to), pname, peer ? median(tp) : 0, check);
        to.clear(); tp.clear();
        for (int r = 0; r < REPS_STATIC; ++r) {
            double t0 = bench_seconds();
            o.step();
            to.push_back(bench_seconds() - t0);
            if (peer) {
                t0 = bench_seconds();
                peer->step();
                tp.push_back(bench_seconds() - t0);
            }
        }
        std::snprintf(work, sizeof work, "n = %d, repeated static step, %d thread%s", sc.n, threads, threads > 1 ? "s" : "");
        std::snprintf(check, sizeof check, "median of %d; ours: broad phase %s", REPS_STATIC, o.r.broadphase ? "ran" : "skipped");
        row(work, median(to), pname, peer ? median(tp) : 0, check);
        to.clear(); tp.clear();
        // the scene's motion, then a tenth of it (a slow flow or a settling pile), going on
        // from where the first run stopped
        for (int slow = 0; slow < 2; ++slow) {
            int bps = 0, dmax = 0;
            to.clear(); tp.clear();
            for (int k = 1; k <= STEPS_MOVING; ++k) {
                double at = slow ? STEPS_MOVING + 0.1 * k : k;
                o.set_poses(at);
                double t0 = bench_seconds();
                o.step();
                to.push_back(bench_seconds() - t0);
                bps += o.r.broadphase;
                if (peer) {
                    peer->set_poses(at);
                    t0 = bench_seconds();
                    peer->step();
                    tp.push_back(bench_seconds() - t0);
                    dmax = std::max(dmax, std::abs(peer->touching() - o.touching()));
                }
            }
            std::snprintf(work, sizeof work, "n = %d, moving%s, mean of %d steps, %d thread%s", sc.n,
                          slow ? " slowly (0.05% and 0.1 degree per step)" : "", STEPS_MOVING, threads, threads > 1 ? "s" : "");
            if (peer) std::snprintf(check, sizeof check, "touching %d; largest count difference over the steps %d; ours: broad phase in %d of %d steps",
                                    o.touching(), dmax, bps, STEPS_MOVING);
            else std::snprintf(check, sizeof check, "touching %d; broad phase in %d of %d steps", o.touching(), bps, STEPS_MOVING);
            row(work, mean(to), pname, peer ? mean(tp) : 0, check);
        }
    }
}

void dem(const Scene &sc) {
    char work[160], check[160];
    for (int threads = 1; threads <= 2; ++threads) {
        Ours o(&sc, threads);
        std::vector<double> t;
        o.set_poses(0);
        double t0 = bench_seconds();
        if (!o.build(CT_SCENE_VOLUMETRIC) || !o.step()) { bench_note("ours (DEM) failed"); return; }
        double first = bench_seconds() - t0;
        int c0 = o.touching();
        for (int k = 1; k <= STEPS_DEM; ++k) {
            o.set_poses(k);
            t0 = bench_seconds();
            o.step();
            t.push_back(bench_seconds() - t0);
        }
        std::snprintf(work, sizeof work, "n = %d, DEM volumetric, first step, %d thread%s", sc.n, threads, threads > 1 ? "s" : "");
        std::snprintf(check, sizeof check, "%d overlapping pairs", c0);
        row(work, first, "-", 0, check);
        std::snprintf(work, sizeof work, "n = %d, DEM volumetric, moving, mean of %d steps, %d thread%s", sc.n, STEPS_DEM, threads, threads > 1 ? "s" : "");
        std::snprintf(check, sizeof check, "%d overlapping pairs at the last step", o.touching());
        row(work, mean(t), "-", 0, check);
    }
}

void moving_only(const Scene &sc, int threads) {
    char work[160], check[160];
    Ours o(&sc, threads);
    std::vector<double> t;
    o.set_poses(0);
    if (!o.build(CT_SCENE_MANIFOLD) || !o.step()) { bench_note("ours failed"); return; }
    for (int k = 1; k <= STEPS_MOVING; ++k) {
        o.set_poses(k);
        double t0 = bench_seconds();
        o.step();
        t.push_back(bench_seconds() - t0);
    }
    std::snprintf(work, sizeof work, "n = %d, moving, mean of %d steps, %d thread%s", sc.n, STEPS_MOVING, threads, threads > 1 ? "s" : "");
    std::snprintf(check, sizeof check, "touching %d", o.touching());
    row(work, mean(t), "-", 0, check);
}

} // namespace

int main() {
    Scene sc(10000);
    if (!make_scene(sc, 17)) { std::printf("scene construction failed\n"); return 1; }
    bench_table("Scene step (ct_scene_step) vs Bullet btCollisionWorld",
                "10,000 random 20-point hulls (scaled 0.5-1, random rotations) in a cube of side cbrt(10000/0.78); "
                "times per step in us; ours double, manifold mode, speculative 0, 1 and 2 threads; Bullet 3.24 (float, "
                "1 thread): btCollisionWorld + btDbvtBroadphase + btDefaultCollisionConfiguration, btConvexHullShape over "
                "the same vertices, margin 0. Moving: each body moved 0.5% of its diameter and turned 1 degree per step. "
                "Each step alternates ours and the peer on the same poses.");
#ifdef CT_HAVE_BULLET
    {
        Bullet poly(&sc, true);
        compare(sc, &poly, "Bullet, polyhedral features (clipping)");
    }
    {
        Bullet gjk(&sc, false);
        compare(sc, &gjk, "Bullet, GJK/EPA (no polyhedral features)");
    }
#else
    bench_note("Bullet not installed (libbullet-dev): peer rows skipped");
    compare<NoPeer>(sc, nullptr, "-");
#endif
#ifdef CT_HAVE_BULLET
    bench_note("Touching counts: ours = manifold count > 0 at speculative 0 (double); Bullet = a persistent-manifold "
               "point at distance <= 0 (float, points kept from earlier steps while within its breaking threshold). "
               "The differences have not been analysed pair by pair.");
#endif
    dem(sc);
    if (std::getenv("CT_BENCH_LONG")) {
        Scene big(100000);
        if (make_scene(big, 18)) {
            moving_only(big, 1);
            moving_only(big, 2);
        }
    } else {
        bench_note("(n = 100,000 moving scene: set CT_BENCH_LONG=1)");
    }
    return 0;
}
