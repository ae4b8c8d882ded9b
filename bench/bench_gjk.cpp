// GJK / EPA: contact.h against libccd (double) and Bullet's btGjkEpaSolver2 (float).
//
// Workload (BENCH.md): hulls of random points on the unit sphere, 20 / 100 / 1000 vertices,
// 32 pairs per size with random orientations, B placed along a random direction so that the
// signed distance is +0.5, +0.001 or -0.05. "cold": no cache; "warm": one ct_gjk_cache per
// pair, reused over the repeated queries of that pair (perfect coherence). Ours uses
// ct_shape_hull (hill climbing above CT_HULL_SCAN_MAX vertices); peers scan all vertices
// (libccd has no hull structure; Bullet's btConvexHullShape scans).
//
// Separated rows: ct_gjk (distance + witnesses) vs ccdGJKIntersect (a yes/no answer only:
// libccd has no distance query) and btGjkEpaSolver2::Distance. Penetrating rows:
// ct_signed_distance vs ccdGJKPenetration, ccdMPRPenetration and btGjkEpaSolver2::Penetration.
#include "contact.h"
#include "harness.h"
#include "oracle.h"
#include "workload.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#ifdef CT_HAVE_CCD
#include <ccd/ccd.h>
#endif
#ifdef CT_HAVE_BULLET
#include <btBulletCollisionCommon.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#endif

namespace {

const int kPairs = 32;

struct Body {
    std::vector<ct_vec3> local;   // points on the unit sphere
    ct_hull hull;
    ct_shape shape;
    ct_xform x;
};

struct Pair {
    int a, b;
    ct_gjk_cache cache;
    double expect;   // our signed distance (the agreement reference)
};

struct Set {
    int nv;
    double gap;
    std::vector<Body> bodies;      // 2 per pair
    std::vector<Pair> pairs;
    ct_scratch scratch;
    int next;
    volatile double sink;
#ifdef CT_HAVE_BULLET
    std::vector<btConvexHullShape *> bt;
    std::vector<btTransform> btx;
#endif
};

ct_xform random_xform(unsigned long long *seed) {
    double r[9];
    ct_xform x;
    wl_rotation(r, seed);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) x.r[i][j] = r[3 * i + j];
    x.p.x = x.p.y = x.p.z = 0;
    return x;
}

double signed_dist(Set &s, Pair &p) {
    ct_distance d;
    ct_signed_distance(&s.bodies[p.a].shape, &s.bodies[p.a].x, &s.bodies[p.b].shape, &s.bodies[p.b].x,
                       NULL, &s.scratch, &d);
    return d.distance;
}

void build(Set &s, int nv, double gap, unsigned long long seed, bool points = false) {
    s.nv = nv;
    s.gap = gap;
    s.next = 0;
    s.sink = 0;
    ct_scratch_init(&s.scratch, NULL);
    s.bodies.resize(2 * kPairs);
    s.pairs.resize(kPairs);
    std::vector<double> xyz(3 * nv);
    for (int i = 0; i < 2 * kPairs; ++i) {
        Body &b = s.bodies[i];
        wl_sphere(xyz.data(), nv, 1.0, &seed);
        b.local.resize(nv);
        for (int k = 0; k < nv; ++k) {
            b.local[k].x = xyz[3 * k]; b.local[k].y = xyz[3 * k + 1]; b.local[k].z = xyz[3 * k + 2];
        }
        ct_hull_build(b.local.data(), nv, NULL, NULL, &b.hull);
        b.shape = points ? ct_shape_points(b.local.data(), nv) : ct_shape_hull(&b.hull);
        b.x = random_xform(&seed);
    }
    for (int i = 0; i < kPairs; ++i) {
        Pair &p = s.pairs[i];
        p.a = 2 * i;
        p.b = 2 * i + 1;
        std::memset(&p.cache, 0, sizeof p.cache);
        double u[3];
        wl_direction(u, &seed);
        // place B along u so that the signed distance is gap (secant steps on t)
        double t = 2 + gap, d = 0;
        for (int it = 0; it < 30; ++it) {
            s.bodies[p.b].x.p.x = u[0] * t; s.bodies[p.b].x.p.y = u[1] * t; s.bodies[p.b].x.p.z = u[2] * t;
            d = signed_dist(s, p);
            if (std::fabs(d - gap) < 1e-12) break;
            t += gap - d;
        }
        p.expect = d;
    }
#ifdef CT_HAVE_BULLET
    for (int i = 0; i < 2 * kPairs; ++i) {
        Body &b = s.bodies[i];
        btConvexHullShape *h = new btConvexHullShape();
        for (int k = 0; k < nv; ++k) h->addPoint(btVector3(b.local[k].x, b.local[k].y, b.local[k].z), false);
        h->recalcLocalAabb();
        h->setMargin(0);
        s.bt.push_back(h);
        btMatrix3x3 m(b.x.r[0][0], b.x.r[0][1], b.x.r[0][2], b.x.r[1][0], b.x.r[1][1], b.x.r[1][2],
                      b.x.r[2][0], b.x.r[2][1], b.x.r[2][2]);
        s.btx.push_back(btTransform(m, btVector3(b.x.p.x, b.x.p.y, b.x.p.z)));
    }
#endif
}

void destroy(Set &s) {
    for (size_t i = 0; i < s.bodies.size(); ++i) ct_hull_free(&s.bodies[i].hull);
    ct_scratch_release(&s.scratch);
#ifdef CT_HAVE_BULLET
    for (size_t i = 0; i < s.bt.size(); ++i) delete s.bt[i];
#endif
}

Pair &next_pair(Set &s) {
    Pair &p = s.pairs[s.next];
    s.next = (s.next + 1) % kPairs;
    return p;
}

// ---- ours -----------------------------------------------------------------------------------
void ours_gjk_cold(void *c, long calls) {
    Set &s = *static_cast<Set *>(c);
    ct_distance d;
    for (long i = 0; i < calls; ++i) {
        Pair &p = next_pair(s);
        ct_gjk(&s.bodies[p.a].shape, &s.bodies[p.a].x, &s.bodies[p.b].shape, &s.bodies[p.b].x, NULL, &d);
        s.sink = s.sink + d.distance;
    }
}
void ours_gjk_warm(void *c, long calls) {
    Set &s = *static_cast<Set *>(c);
    ct_distance d;
    for (long i = 0; i < calls; ++i) {
        Pair &p = next_pair(s);
        ct_gjk(&s.bodies[p.a].shape, &s.bodies[p.a].x, &s.bodies[p.b].shape, &s.bodies[p.b].x, &p.cache, &d);
        s.sink = s.sink + d.distance;
    }
}
void ours_sd_cold(void *c, long calls) {
    Set &s = *static_cast<Set *>(c);
    ct_distance d;
    for (long i = 0; i < calls; ++i) {
        Pair &p = next_pair(s);
        ct_signed_distance(&s.bodies[p.a].shape, &s.bodies[p.a].x, &s.bodies[p.b].shape, &s.bodies[p.b].x, NULL,
                           &s.scratch, &d);
        s.sink = s.sink + d.distance;
    }
}
void ours_sd_warm(void *c, long calls) {
    Set &s = *static_cast<Set *>(c);
    ct_distance d;
    for (long i = 0; i < calls; ++i) {
        Pair &p = next_pair(s);
        ct_signed_distance(&s.bodies[p.a].shape, &s.bodies[p.a].x, &s.bodies[p.b].shape, &s.bodies[p.b].x, &p.cache,
                           &s.scratch, &d);
        s.sink = s.sink + d.distance;
    }
}

// ---- libccd ---------------------------------------------------------------------------------
#ifdef CT_HAVE_CCD
struct CcdObj { const Body *b; };
void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out) {
    const Body *b = static_cast<const CcdObj *>(obj)->b;
    const ct_real(*r)[3] = b->x.r;
    double d[3] = { dir->v[0], dir->v[1], dir->v[2] };
    // local direction = R^T d; scan; world point = R p + t
    double l[3] = { r[0][0] * d[0] + r[1][0] * d[1] + r[2][0] * d[2], r[0][1] * d[0] + r[1][1] * d[1] + r[2][1] * d[2],
                    r[0][2] * d[0] + r[1][2] * d[1] + r[2][2] * d[2] };
    int best = 0;
    double bd = -1e300;
    for (size_t k = 0; k < b->local.size(); ++k) {
        double t = b->local[k].x * l[0] + b->local[k].y * l[1] + b->local[k].z * l[2];
        if (t > bd) { bd = t; best = (int)k; }
    }
    ct_vec3 p = b->local[best];
    out->v[0] = r[0][0] * p.x + r[0][1] * p.y + r[0][2] * p.z + b->x.p.x;
    out->v[1] = r[1][0] * p.x + r[1][1] * p.y + r[1][2] * p.z + b->x.p.y;
    out->v[2] = r[2][0] * p.x + r[2][1] * p.y + r[2][2] * p.z + b->x.p.z;
}
void ccd_center(const void *obj, ccd_vec3_t *c) {
    const Body *b = static_cast<const CcdObj *>(obj)->b;
    c->v[0] = b->x.p.x; c->v[1] = b->x.p.y; c->v[2] = b->x.p.z;
}
struct CcdCtx { Set *s; ccd_t ccd; std::vector<CcdObj> objs; };
void ccd_setup(CcdCtx &c, Set &s) {
    c.s = &s;
    CCD_INIT(&c.ccd);
    c.ccd.support1 = c.ccd.support2 = ccd_support;
    c.ccd.center1 = c.ccd.center2 = ccd_center;
    c.ccd.max_iterations = 100;
    c.objs.resize(s.bodies.size());
    for (size_t i = 0; i < s.bodies.size(); ++i) c.objs[i].b = &s.bodies[i];
}
void ccd_intersect(void *p, long calls) {
    CcdCtx &c = *static_cast<CcdCtx *>(p);
    for (long i = 0; i < calls; ++i) {
        Pair &q = next_pair(*c.s);
        c.s->sink = c.s->sink + ccdGJKIntersect(&c.objs[q.a], &c.objs[q.b], &c.ccd);
    }
}
void ccd_gjk_pen(void *p, long calls) {
    CcdCtx &c = *static_cast<CcdCtx *>(p);
    for (long i = 0; i < calls; ++i) {
        Pair &q = next_pair(*c.s);
        ccd_real_t depth = 0;
        ccd_vec3_t dir, pos;
        ccdGJKPenetration(&c.objs[q.a], &c.objs[q.b], &c.ccd, &depth, &dir, &pos);
        c.s->sink = c.s->sink + depth;
    }
}
void ccd_mpr_pen(void *p, long calls) {
    CcdCtx &c = *static_cast<CcdCtx *>(p);
    for (long i = 0; i < calls; ++i) {
        Pair &q = next_pair(*c.s);
        ccd_real_t depth = 0;
        ccd_vec3_t dir, pos;
        ccdMPRPenetration(&c.objs[q.a], &c.objs[q.b], &c.ccd, &depth, &dir, &pos);
        c.s->sink = c.s->sink + depth;
    }
}
#endif

// ---- Bullet -----------------------------------------------------------------------------------
#ifdef CT_HAVE_BULLET
btVector3 bt_guess(Set &s, const Pair &p) {
    return s.btx[p.b].getOrigin() - s.btx[p.a].getOrigin();
}
void bt_distance(void *c, long calls) {
    Set &s = *static_cast<Set *>(c);
    btGjkEpaSolver2::sResults r;
    for (long i = 0; i < calls; ++i) {
        Pair &p = next_pair(s);
        btGjkEpaSolver2::Distance(s.bt[p.a], s.btx[p.a], s.bt[p.b], s.btx[p.b], bt_guess(s, p), r);
        s.sink = s.sink + r.distance;
    }
}
void bt_penetration(void *c, long calls) {
    Set &s = *static_cast<Set *>(c);
    btGjkEpaSolver2::sResults r;
    for (long i = 0; i < calls; ++i) {
        Pair &p = next_pair(s);
        btGjkEpaSolver2::Penetration(s.bt[p.a], s.btx[p.a], s.bt[p.b], s.btx[p.b], bt_guess(s, p), r, false);
        s.sink = s.sink + r.distance;
    }
}
#endif

// ---- agreement checks --------------------------------------------------------------------------
void check_ours(Set &s, char *buf, size_t n, bool warm) {
    double worst = 0;
    for (int i = 0; i < kPairs; ++i) {
        Pair &p = s.pairs[i];
        ct_distance d;
        ct_signed_distance(&s.bodies[p.a].shape, &s.bodies[p.a].x, &s.bodies[p.b].shape, &s.bodies[p.b].x,
                           warm ? &p.cache : NULL, &s.scratch, &d);
        worst = std::fmax(worst, std::fabs(d.distance - p.expect));
        worst = std::fmax(worst, std::fabs(p.expect - s.gap));
    }
    std::snprintf(buf, n, "gap reached to %.1e", worst);
}

// The oracle of a disagreement: bench/oracle.c's brute-force SAT on the pair's hulls (its
// classification is exact; when they overlap minus its value is the penetration depth).
double oracle_gap(Set &s, Pair &p) {
    return oracle_sat(&s.bodies[p.a].hull, &s.bodies[p.a].x, &s.bodies[p.b].hull, &s.bodies[p.b].x, NULL);
}
// One pair's vote: the peer failed (peer_ok 0), or classified or measured it otherwise.
void gjk_vote(Set &s, Pair &p, oracle_tally &t, int peer_ok, double peer_value) {
    double o = oracle_gap(s, p);
    if (!peer_ok) oracle_vote_bool(&t, o > 0, p.expect > 0, !(s.gap > 0));   // a failure answers the other way
    else if (s.gap > 0) oracle_vote_bool(&t, o > 0, p.expect > 0, peer_value > 0);
    else oracle_vote(&t, o, p.expect, peer_value);
}

#ifdef CT_HAVE_CCD
void check_ccd(Set &s, CcdCtx &c, bool mpr, char *buf, size_t n) {
    double worst = 0;
    int wrong = 0;
    oracle_tally t = { 0, 0, 0 };
    for (int i = 0; i < kPairs; ++i) {
        Pair &p = s.pairs[i];
        if (s.gap > 0) {
            int hit = ccdGJKIntersect(&c.objs[p.a], &c.objs[p.b], &c.ccd) != 0;
            wrong += hit;
            if (hit) gjk_vote(s, p, t, 1, -1);
        } else {
            ccd_real_t depth = 0;
            ccd_vec3_t dir, pos;
            int r = mpr ? ccdMPRPenetration(&c.objs[p.a], &c.objs[p.b], &c.ccd, &depth, &dir, &pos)
                        : ccdGJKPenetration(&c.objs[p.a], &c.objs[p.b], &c.ccd, &depth, &dir, &pos);
            if (r != 0) { wrong++; gjk_vote(s, p, t, 0, 0); }
            else {
                worst = std::fmax(worst, std::fabs(depth + p.expect));
                if (std::fabs(depth + p.expect) >= 1e-2) gjk_vote(s, p, t, 1, -depth);
            }
        }
    }
    if (wrong) std::snprintf(buf, n, "DISAGREE: %d of %d pairs classified differently (max depth diff %.1e)", wrong, kPairs, worst);
    else if (s.gap > 0) std::snprintf(buf, n, "agree: all separated");
    else std::snprintf(buf, n, "%s depth %.1e", worst < 1e-2 ? "agree" : "DISAGREE", worst);
    if (t.ours + t.peer + t.neither) oracle_say(buf, n, "the brute-force SAT", &t);
}
#endif

#ifdef CT_HAVE_CCD
// The libccd rows of one set: ccdGJKIntersect (separated) or ccdGJKPenetration and
// ccdMPRPenetration (penetrating), each after its agreement check.
void ccd_rows(Set &s, bench_fn ours, const char *name, bool sep, const char *chk) {
    CcdCtx c;
    char b[512];
    ccd_setup(c, s);
    check_ccd(s, c, false, b, sizeof b);
    std::snprintf(b + std::strlen(b), sizeof b - std::strlen(b), "; ours %s", chk);
    bench_row(name, ours, &s, sep ? "ccdGJKIntersect" : "ccdGJKPenetration", sep ? ccd_intersect : ccd_gjk_pen, &c, b);
    if (!sep) {
        check_ccd(s, c, true, b, sizeof b);
        bench_row(name, ours, &s, "ccdMPRPenetration", ccd_mpr_pen, &c, b);
    }
}
#endif

#ifdef CT_HAVE_BULLET
void check_bt(Set &s, char *buf, size_t n) {
    double worst = 0;
    int failed = 0;
    oracle_tally t = { 0, 0, 0 };
    for (int i = 0; i < kPairs; ++i) {
        Pair &p = s.pairs[i];
        btGjkEpaSolver2::sResults r;
        bool ok = s.gap > 0 ? btGjkEpaSolver2::Distance(s.bt[p.a], s.btx[p.a], s.bt[p.b], s.btx[p.b], bt_guess(s, p), r)
                            : btGjkEpaSolver2::Penetration(s.bt[p.a], s.btx[p.a], s.bt[p.b], s.btx[p.b], bt_guess(s, p), r, false);
        if (!ok) { failed++; gjk_vote(s, p, t, 0, 0); }
        else {
            double e = std::fabs((double)r.distance - p.expect);
            worst = std::fmax(worst, e);
            if (!(e < 1e-3 * (1 + std::fabs(s.gap)))) gjk_vote(s, p, t, 1, (double)r.distance);
        }
    }
    if (failed) std::snprintf(buf, n, "DISAGREE: Bullet failed on %d of %d (max diff %.1e)", failed, kPairs, worst);
    else std::snprintf(buf, n, "%s %.1e (float)", worst < 1e-3 * (1 + std::fabs(s.gap)) ? "agree" : "DISAGREE", worst);
    if (t.ours + t.peer + t.neither) oracle_say(buf, n, "the brute-force SAT", &t);
}
#endif

} // namespace

int main() {
    const int sizes[3] = { 20, 100, 1000 };
    const double gaps[3] = { 0.5, 0.001, -0.05 };
    char title[256], setup[1024], name[128], chk[256];
    std::snprintf(setup, sizeof setup,
                  "Hulls of random points on the unit sphere, %d pairs per row, random orientations; B placed "
                  "so the signed distance is the gap. Ours: ct_shape_hull (hill climbing above %d vertices); "
                  "cold = no cache, warm = a ct_gjk_cache per pair reused over repeated queries. Separated: "
                  "ct_gjk vs ccdGJKIntersect (yes/no only) and btGjkEpaSolver2::Distance (float, margin 0). "
                  "Penetrating: ct_signed_distance vs ccdGJKPenetration / ccdMPRPenetration (tolerance 1e-4) "
                  "and btGjkEpaSolver2::Penetration (float).", kPairs, CT_HULL_SCAN_MAX);
    std::snprintf(title, sizeof title, "GJK / EPA: distance and penetration");
    bench_table(title, setup);
#ifndef CT_HAVE_CCD
    bench_note("peer libccd skipped: libccd-dev not installed");
#endif
#ifndef CT_HAVE_BULLET
    bench_note("peer Bullet skipped: libbullet-dev not installed");
#endif
    unsigned long long seed = 2026;
    for (int zi = 0; zi < 3; ++zi)
        for (int gi = 0; gi < 3; ++gi) {
            Set s;
            build(s, sizes[zi], gaps[gi], seed + 17 * zi + gi);
            bool sep = gaps[gi] > 0;
            bench_fn cold = sep ? ours_gjk_cold : ours_sd_cold, warm = sep ? ours_gjk_warm : ours_sd_warm;
            const char *what = sep ? "ct_gjk" : "ct_signed_distance";
            for (int w = 0; w < 2; ++w) {
                bench_fn ours = w ? warm : cold;
                check_ours(s, chk, sizeof chk, w != 0);
                std::snprintf(name, sizeof name, "%s %d v, gap %+g, %s", what, sizes[zi], gaps[gi], w ? "warm" : "cold");
#ifdef CT_HAVE_BULLET
                {
                    char b[512];
                    check_bt(s, b, sizeof b);
                    std::snprintf(b + std::strlen(b), sizeof b - std::strlen(b), "; ours %s", chk);
                    bench_row(name, ours, &s, sep ? "Bullet Distance" : "Bullet Penetration", sep ? bt_distance : bt_penetration, &s, b);
                }
#endif
#ifdef CT_HAVE_CCD
                ccd_rows(s, ours, name, sep, chk);
#endif
#if !defined(CT_HAVE_CCD) && !defined(CT_HAVE_BULLET)
                bench_row_ours(name, ours, &s, chk);
#endif
            }
            destroy(s);
        }

    // Point clouds: the same 20-point sets as ct_shape_points (every support scans the points).
    bench_table("GJK / EPA on 20-point clouds (ct_shape_points)",
                "As above with the 20 points given as ct_shape_points instead of a hull; libccd's support "
                "scans the same points.");
    for (int gi = 0; gi < 3; ++gi) {
        Set s;
        build(s, 20, gaps[gi], seed + 500 + gi, true);
        bool sep = gaps[gi] > 0;
        for (int w = 0; w < 2; ++w) {
            bench_fn ours = w ? (sep ? ours_gjk_warm : ours_sd_warm) : (sep ? ours_gjk_cold : ours_sd_cold);
            check_ours(s, chk, sizeof chk, w != 0);
            std::snprintf(name, sizeof name, "%s 20 points, gap %+g, %s", sep ? "ct_gjk" : "ct_signed_distance", gaps[gi],
                          w ? "warm" : "cold");
#ifdef CT_HAVE_CCD
            ccd_rows(s, ours, name, sep, chk);
#else
            bench_row_ours(name, ours, &s, chk);
#endif
        }
        destroy(s);
    }

    // Cold cost against vertex count: hill climbing from 16 sampled vertices makes it grow
    // sub-linearly (a scan would be linear).
    bench_table("GJK cold cost against hull size (ours only)",
                "ct_gjk, no cache, gap +0.001, random points on the unit sphere; time per query.");
    const int scale_sizes[5] = { 20, 100, 1000, 5000, 20000 };
    double t20 = 0;
    for (int zi = 0; zi < 5; ++zi) {
        Set s;
        build(s, scale_sizes[zi], 0.001, seed + 1000 + zi);
        double t = bench_time(ours_gjk_cold, &s);
        if (zi == 0) t20 = t;
        std::snprintf(name, sizeof name, "%d vertices", scale_sizes[zi]);
        std::snprintf(chk, sizeof chk, "%.3g us; x%.2f the 20-vertex time for x%.0f the vertices", t * 1e6, t / t20,
                      scale_sizes[zi] / 20.0);
        bench_row_ours(name, ours_gjk_cold, &s, chk);
        destroy(s);
    }
    return 0;
}
