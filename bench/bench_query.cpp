// Queries: ray casts and time of impact, contact.h against Bullet (float).
//
// Ray casts: 256 segments per shape, from random points 3 from the shape's origin towards random
// points within 1.2 of it, extended by a random factor (about 70% hit). Ours: ct_ray_cast.
// Peer: btCollisionWorld::rayTestSingle with a ClosestRayResultCallback, default flags (convex
// shapes: btSubsimplexConvexCast; spheres in closed form), on the same shapes: btSphereShape,
// btBoxShape and btConvexHullShape with margin 0 (the same solid), and btBoxShape with its
// margin set to 0.1 against ours ct_shape_rounded(ct_shape_box(h - 0.1), 0.1) (Bullet's margin is
// that rounding). libccd has no ray cast (it answers intersection and penetration only).
//
// Time of impact: 64 pairs of hulls of 20 random points on the unit sphere, B starting 4 away and
// sweeping 7 towards A (offset, so some miss), A still (linear) or both turning by up to 1.0 /
// 1.5 rad (rotating; below pi/2, where Bullet's btTransformUtil::calculateDiffAxisAngle takes
// the short arc as we do). Ours: ct_time_of_impact, target 0, no cache. Peer:
// btContinuousConvexCollision (btVoronoiSimplexSolver, btGjkEpaPenetrationDepthSolver) on
// btConvexHullShape with margin 0, same start and end transforms (Bullet interpolates the same
// screw-free motion: constant linear and angular velocity about the body origin).
#include "contact.h"
#include "harness.h"
#include "oracle.h"
#include "workload.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#ifdef CT_HAVE_BULLET
#include <btBulletCollisionCommon.h>
#include <BulletCollision/NarrowPhaseCollision/btContinuousConvexCollision.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#endif

namespace {

const int kRays = 256, kPairs = 64;

ct_vec3 v3(double x, double y, double z) {
    ct_vec3 v;
    v.x = (ct_real)x; v.y = (ct_real)y; v.z = (ct_real)z;
    return v;
}
ct_xform random_xform(unsigned long long *seed, double t) {
    double r[9];
    ct_xform x;
    wl_rotation(r, seed);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) x.r[i][j] = (ct_real)r[3 * i + j];
    x.p = v3(t * (2 * bench_uniform(seed) - 1), t * (2 * bench_uniform(seed) - 1), t * (2 * bench_uniform(seed) - 1));
    return x;
}
ct_vec3 random_dir(unsigned long long *seed) {
    double d[3];
    wl_direction(d, seed);
    return v3(d[0], d[1], d[2]);
}

#ifdef CT_HAVE_BULLET
btTransform to_bt(const ct_xform &x) {
    btMatrix3x3 m((btScalar)x.r[0][0], (btScalar)x.r[0][1], (btScalar)x.r[0][2], (btScalar)x.r[1][0], (btScalar)x.r[1][1],
                  (btScalar)x.r[1][2], (btScalar)x.r[2][0], (btScalar)x.r[2][1], (btScalar)x.r[2][2]);
    return btTransform(m, btVector3((btScalar)x.p.x, (btScalar)x.p.y, (btScalar)x.p.z));
}
btVector3 to_bt(ct_vec3 v) { return btVector3((btScalar)v.x, (btScalar)v.y, (btScalar)v.z); }
#endif

// ---- ray casts ------------------------------------------------------------------------------
struct RaySet {
    ct_shape shape;
    ct_xform x;
    std::vector<ct_vec3> from, dir;
    ct_hull hull;
    bool has_hull;
#ifdef CT_HAVE_BULLET
    btCollisionShape *bt;
    btCollisionObject *obj;
    btTransform btx;
#endif
};

double g_sink;

void ours_ray(void *p, long calls) {
    RaySet &s = *(RaySet *)p;
    ct_ray_hit h;
    double acc = 0;
    for (long i = 0; i < calls; ++i) {
        int k = (int)(i % kRays);
        ct_ray_cast(&s.shape, &s.x, s.from[k], s.dir[k], &h);
        acc += h.fraction;
    }
    g_sink += acc;
}

#ifdef CT_HAVE_BULLET
int g_bt_flags; // 0: Bullet's default (btSubsimplexConvexCast); or kF_UseGjkConvexCastRaytest
bool bt_ray_one(RaySet &s, int k, double *fraction) {
    btVector3 f = to_bt(s.from[k]), t = to_bt(ct_vec3{ s.from[k].x + s.dir[k].x, s.from[k].y + s.dir[k].y, s.from[k].z + s.dir[k].z });
    btTransform tf, tt;
    tf.setIdentity(); tf.setOrigin(f);
    tt.setIdentity(); tt.setOrigin(t);
    btCollisionWorld::ClosestRayResultCallback cb(f, t);
    cb.m_flags = (unsigned)g_bt_flags;
    btCollisionWorld::rayTestSingle(tf, tt, s.obj, s.bt, s.btx, cb);
    *fraction = cb.m_closestHitFraction;
    return cb.hasHit();
}
void bt_ray(void *p, long calls) {
    RaySet &s = *(RaySet *)p;
    double acc = 0, f;
    for (long i = 0; i < calls; ++i)
        if (bt_ray_one(s, (int)(i % kRays), &f)) acc += f;
    g_sink += acc;
}
#endif

// The oracle of ray k (bench/oracle.c: closed forms, Cyrus-Beck on the hull's planes, the
// rounded box by golden-section and bisection on the distance to the box); -1 for a miss.
double ray_oracle(const RaySet &s, int kind, int k) {
    double f[3] = { s.from[k].x, s.from[k].y, s.from[k].z }, d[3] = { s.dir[k].x, s.dir[k].y, s.dir[k].z };
    double h[3] = { 1, 0.5, 0.3 }, hr[3] = { 0.9, 0.4, 0.2 };
    if (kind == 0) return oracle_ray_sphere(1, &s.x, f, d);
    if (kind == 1) return oracle_ray_box(h, 0, &s.x, f, d);
    if (kind == 4) return oracle_ray_box(hr, 0.1, &s.x, f, d);
    return oracle_ray_hull(&s.hull, &s.x, f, d);
}

// kind: 0 sphere, 1 box, 2 hull 20, 3 hull 100, 4 rounded box (Bullet margin)
void ray_build(RaySet &s, int kind, unsigned long long seed) {
    s.x = random_xform(&seed, 1);
    s.has_hull = false;
    ct_vec3 h = v3(1, 0.5, 0.3);
    if (kind == 0) s.shape = ct_shape_sphere(1);
    if (kind == 1) s.shape = ct_shape_box(h);
    if (kind == 4) s.shape = ct_shape_rounded(ct_shape_box(v3(0.9, 0.4, 0.2)), (ct_real)0.1);
    std::vector<ct_vec3> pts;
    if (kind == 2 || kind == 3) {
        int n = kind == 2 ? 20 : 100;
        std::vector<double> xyz(3 * n);
        wl_sphere(xyz.data(), n, 1.0, &seed);
        for (int i = 0; i < n; ++i) pts.push_back(v3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]));
        ct_hull_build(pts.data(), n, NULL, NULL, &s.hull);
        s.has_hull = true;
        s.shape = ct_shape_hull(&s.hull);
    }
    for (int k = 0; k < kRays; ++k) {
        ct_vec3 o = random_dir(&seed), t = random_dir(&seed);
        double rt = 1.2 * bench_uniform(&seed), ext = 0.7 + 1.5 * bench_uniform(&seed);
        o = v3(s.x.p.x + 3 * o.x, s.x.p.y + 3 * o.y, s.x.p.z + 3 * o.z);
        t = v3(s.x.p.x + rt * t.x, s.x.p.y + rt * t.y, s.x.p.z + rt * t.z);
        s.from.push_back(o);
        s.dir.push_back(v3(ext * (t.x - o.x), ext * (t.y - o.y), ext * (t.z - o.z)));
    }
#ifdef CT_HAVE_BULLET
    if (kind == 0) s.bt = new btSphereShape(1);
    if (kind == 1) { s.bt = new btBoxShape(to_bt(h)); s.bt->setMargin(0); }
    if (kind == 4) { s.bt = new btBoxShape(to_bt(h)); s.bt->setMargin((btScalar)0.1); }
    if (kind == 2 || kind == 3) {
        btConvexHullShape *c = new btConvexHullShape();
        for (size_t i = 0; i < pts.size(); ++i) c->addPoint(to_bt(pts[i]), false);
        c->recalcLocalAabb();
        c->setMargin(0);
        s.bt = c;
    }
    s.btx = to_bt(s.x);
    s.obj = new btCollisionObject();
    s.obj->setCollisionShape(s.bt);
    s.obj->setWorldTransform(s.btx);
#endif
}

void ray_destroy(RaySet &s) {
    if (s.has_hull) ct_hull_free(&s.hull);
#ifdef CT_HAVE_BULLET
    delete s.obj;
    delete s.bt;
#endif
}

// ---- time of impact -------------------------------------------------------------------------
struct ToiSet {
    std::vector<ct_hull> hulls;
    std::vector<ct_shape> shapes;
    std::vector<ct_xform> a0, a1, b0, b1;
#ifdef CT_HAVE_BULLET
    std::vector<btConvexHullShape *> bt;
#endif
};

void ours_toi(void *p, long calls) {
    ToiSet &s = *(ToiSet *)p;
    ct_toi r;
    double acc = 0;
    for (long i = 0; i < calls; ++i) {
        int k = (int)(i % kPairs);
        ct_time_of_impact(&s.shapes[2 * k], &s.a0[k], &s.a1[k], &s.shapes[2 * k + 1], &s.b0[k], &s.b1[k], 0, NULL, &r);
        acc += r.fraction;
    }
    g_sink += acc;
}

#ifdef CT_HAVE_BULLET
bool bt_toi_one(ToiSet &s, int k, double *fraction) {
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btContinuousConvexCollision cc(s.bt[2 * k], s.bt[2 * k + 1], &simplex, &epa);
    btConvexCast::CastResult r;
    bool hit = cc.calcTimeOfImpact(to_bt(s.a0[k]), to_bt(s.a1[k]), to_bt(s.b0[k]), to_bt(s.b1[k]), r);
    *fraction = hit ? r.m_fraction : 1;
    return hit;
}
void bt_toi(void *p, long calls) {
    ToiSet &s = *(ToiSet *)p;
    double acc = 0, f;
    for (long i = 0; i < calls; ++i) {
        bt_toi_one(s, (int)(i % kPairs), &f);
        acc += f;
    }
    g_sink += acc;
}
#endif

ct_xform rotate_by(const ct_xform &x0, ct_vec3 axis, double angle, ct_vec3 p) {
    ct_xform q = ct_xform_from_axis_angle(axis, (ct_real)angle, v3(0, 0, 0)), out;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            ct_real t = 0;
            for (int k = 0; k < 3; ++k) t += q.r[i][k] * x0.r[k][j];
            out.r[i][j] = t;
        }
    out.p = p;
    return out;
}

void toi_build(ToiSet &s, bool rotating, unsigned long long seed) {
    s.hulls.resize(2 * kPairs);
    for (int k = 0; k < 2 * kPairs; ++k) {
        std::vector<double> xyz(60);
        std::vector<ct_vec3> pts(20);
        wl_sphere(xyz.data(), 20, 1.0, &seed);
        for (int i = 0; i < 20; ++i) pts[i] = v3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
        ct_hull_build(pts.data(), 20, NULL, NULL, &s.hulls[k]);
#ifdef CT_HAVE_BULLET
        btConvexHullShape *c = new btConvexHullShape();
        for (int i = 0; i < 20; ++i) c->addPoint(to_bt(pts[i]), false);
        c->recalcLocalAabb();
        c->setMargin(0);
        s.bt.push_back(c);
#endif
    }
    for (int k = 0; k < 2 * kPairs; ++k) s.shapes.push_back(ct_shape_hull(&s.hulls[k]));
    for (int k = 0; k < kPairs; ++k) {
        ct_xform a0 = random_xform(&seed, 0), b0 = random_xform(&seed, 0);
        ct_vec3 d = random_dir(&seed), off = random_dir(&seed);
        double o = 1.5 * bench_uniform(&seed);
        b0.p = v3(4 * d.x, 4 * d.y, 4 * d.z);
        ct_vec3 b1p = v3(b0.p.x - 7 * d.x + o * off.x, b0.p.y - 7 * d.y + o * off.y, b0.p.z - 7 * d.z + o * off.z);
        double wa = rotating ? 1.0 * bench_uniform(&seed) : 0, wb = rotating ? 1.5 * bench_uniform(&seed) : 0;
        s.a0.push_back(a0);
        s.a1.push_back(rotate_by(a0, random_dir(&seed), wa, a0.p));
        s.b0.push_back(b0);
        s.b1.push_back(rotate_by(b0, random_dir(&seed), wb, b1p));
    }
}

void toi_destroy(ToiSet &s) {
    for (size_t k = 0; k < s.hulls.size(); ++k) ct_hull_free(&s.hulls[k]);
#ifdef CT_HAVE_BULLET
    for (size_t k = 0; k < s.bt.size(); ++k) delete s.bt[k];
#endif
}

} // namespace

int main() {
    char name[128], chk[512];
    const char *ray_names[5] = { "sphere", "box", "hull 20 v", "hull 100 v", "rounded box (Bullet margin 0.1)" };
    bench_table("Ray casts: ct_ray_cast vs btCollisionWorld::rayTestSingle",
                "256 segments per shape from 3 away towards points within 1.2 (about 70% hit). Peer: "
                "rayTestSingle + ClosestRayResultCallback, default flags (btSubsimplexConvexCast for convex "
                "shapes), float; box and hulls with margin 0, the rounded box as btBoxShape with margin 0.1. "
                "libccd: no ray cast. Agreement: same hit/miss and |fraction difference| x |segment| < 1e-3.");
#ifndef CT_HAVE_BULLET
    bench_note("peer Bullet skipped: libbullet-dev not installed");
#endif
    unsigned long long seed = 19;
    for (int kind = 0; kind < 5; ++kind) {
        RaySet s;
        ray_build(s, kind, seed + 7 * kind);
        int hits = 0;
        for (int k = 0; k < kRays; ++k) {
            ct_ray_hit h;
            ct_ray_cast(&s.shape, &s.x, s.from[k], s.dir[k], &h);
            hits += h.hit;
        }
        std::snprintf(name, sizeof name, "%s", ray_names[kind]);
#ifdef CT_HAVE_BULLET
        {
            for (int fl = 0; fl < 2; ++fl) {
                int disagree = 0;
                double worst = 0;
                oracle_tally t = { 0, 0, 0 };
                g_bt_flags = fl ? (int)btTriangleRaycastCallback::kF_UseGjkConvexCastRaytest : 0;
                for (int k = 0; k < kRays; ++k) {
                    ct_ray_hit h;
                    double f;
                    ct_ray_cast(&s.shape, &s.x, s.from[k], s.dir[k], &h);
                    bool bh = bt_ray_one(s, k, &f);
                    double len = std::sqrt((double)s.dir[k].x * s.dir[k].x + (double)s.dir[k].y * s.dir[k].y + (double)s.dir[k].z * s.dir[k].z);
                    if (bh != (h.hit != 0)) { disagree++; oracle_vote_bool(&t, ray_oracle(s, kind, k) >= 0, h.hit != 0, bh); }
                    else if (bh) {
                        worst = std::fmax(worst, std::fabs(f - h.fraction) * len);
                        if (std::fabs(f - h.fraction) * len >= 1e-3) oracle_vote(&t, ray_oracle(s, kind, k), h.fraction, f);
                    }
                }
                std::snprintf(chk, sizeof chk, "%s: %d/%d hits, %d hit/miss disagreements, worst point gap %.2g",
                              disagree == 0 && worst < 1e-3 ? "agree" : "DISAGREE", hits, kRays, disagree, worst);
                if (t.ours + t.peer + t.neither) oracle_say(chk, sizeof chk, "the closed-form / plane-clip ray", &t);
                bench_row(name, ours_ray, &s, fl ? "Bullet rayTestSingle (GJK cast flag)" : "Bullet rayTestSingle (default)", bt_ray, &s, chk);
            }
        }
#else
        std::snprintf(chk, sizeof chk, "%d/%d hits", hits, kRays);
        bench_row_ours(name, ours_ray, &s, chk);
#endif
        ray_destroy(s);
    }

    bench_table("Time of impact: ct_time_of_impact vs btContinuousConvexCollision",
                "64 pairs of 20-vertex hulls (points on the unit sphere), B starting 4 away and sweeping 7 "
                "towards A with an offset; linear: pure translation of B; rotating: A turns up to 1.0 rad, B "
                "up to 1.5 rad (short arc in both). Ours: target 0, no cache. Peer: btContinuousConvexCollision "
                "(btVoronoiSimplexSolver, btGjkEpaPenetrationDepthSolver), btConvexHullShape margin 0, float. "
                "Agreement: same hit/miss and |fraction difference| x sweep length < 2e-3.");
    for (int rot = 0; rot < 2; ++rot) {
        ToiSet s;
        toi_build(s, rot != 0, seed + 100 + rot);
        int hits = 0;
        double iters = 0;
        for (int k = 0; k < kPairs; ++k) {
            ct_toi r;
            ct_time_of_impact(&s.shapes[2 * k], &s.a0[k], &s.a1[k], &s.shapes[2 * k + 1], &s.b0[k], &s.b1[k], 0, NULL, &r);
            hits += r.hit;
            iters += r.iterations;
        }
        std::snprintf(name, sizeof name, "hull 20 v, %s", rot ? "rotating" : "linear");
#ifdef CT_HAVE_BULLET
        {
            int disagree = 0;
            double worst = 0;
            oracle_tally t = { 0, 0, 0 };
            for (int k = 0; k < kPairs; ++k) {
                ct_toi r;
                double f;
                ct_time_of_impact(&s.shapes[2 * k], &s.a0[k], &s.a1[k], &s.shapes[2 * k + 1], &s.b0[k], &s.b1[k], 0, NULL, &r);
                bool bh = bt_toi_one(s, k, &f);
                bool off = bh != (r.hit != 0) || (bh && std::fabs(f - r.fraction) * 7 >= 2e-3);
                if (bh != (r.hit != 0)) disagree++;
                else if (bh) worst = std::fmax(worst, std::fabs(f - r.fraction) * 7);
                if (off) {   // bench/oracle.c: sampling + bisection of the brute-force SAT along the motion
                    double o = oracle_toi(&s.hulls[2 * k], &s.a0[k], &s.a1[k], &s.hulls[2 * k + 1], &s.b0[k], &s.b1[k]);
                    if (bh != (r.hit != 0)) oracle_vote_bool(&t, o >= 0, r.hit != 0, bh);
                    else oracle_vote(&t, o, r.fraction, f);
                }
            }
            std::snprintf(chk, sizeof chk, "%s: %d/%d hits, %d hit/miss disagreements, worst gap %.2g; ours %.1f GJK calls/query",
                          disagree == 0 && worst < 2e-3 ? "agree" : "DISAGREE", hits, kPairs, disagree, worst, iters / kPairs);
            if (t.ours + t.peer + t.neither) oracle_say(chk, sizeof chk, "the sampled brute-force SAT", &t);
            bench_row(name, ours_toi, &s, "btContinuousConvexCollision", bt_toi, &s, chk);
        }
#else
        std::snprintf(chk, sizeof chk, "%d/%d hits, %.1f GJK calls/query", hits, kPairs, iters / kPairs);
        bench_row_ours(name, ours_toi, &s, chk);
#endif
        toi_destroy(s);
    }
    std::printf("(sink %g)\n", g_sink);
    return 0;
}
