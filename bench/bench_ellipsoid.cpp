// Ellipsoid pairs: ct_ellipsoids (Perram-Wertheim, bracketed Newton) against libccd's MPR and
// GJK+EPA penetration on the same ellipsoids through a support function. Cold calls (no
// lambda guess) and warm calls (each pair moved a little, lambda of the previous position as
// the guess; libccd has no warm start and solves the moved pairs from scratch).
// Before a row is timed, ours and the peer must classify every pair the same way (overlap or
// not), except pairs within 1e-3 of tangency (|F - 1| < 1e-3, inside libccd's tolerance); and
// where both say overlap, ours' projection overlap -gap must bound EPA's depth from above (the
// penetration depth is the least projection overlap over all directions). MPR's depth is only
// an estimate (often larger than the true depth), so that bound is checked against EPA only.
#include "contact.h"
#include "harness.h"
#include "oracle.h"
#include "workload.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#ifdef CT_HAVE_CCD
#include <ccd/ccd.h>
#endif

namespace {

const int kPairs = 1024;

struct Body {
    ct_vec3 semi;
    ct_xform x;
};
struct Pair {
    Body a, b;
    ct_real guess;   // lambda of the unmoved pair (warm start)
};
struct Ctx {
    std::vector<Pair> pairs;
    long next;
    bool warm;
    volatile double sink;
    void objects(long k, const void **a, const void **b) const { *a = &pairs[k].a; *b = &pairs[k].b; }
    void shapes(long k, ct_shape *a, const ct_xform **xa, ct_shape *b, const ct_xform **xb) const {
        *a = ct_shape_ellipsoid(pairs[k].a.semi); *xa = &pairs[k].a.x;
        *b = ct_shape_ellipsoid(pairs[k].b.semi); *xb = &pairs[k].b.x;
    }
};

ct_vec3 v3(double x, double y, double z) {
    ct_vec3 v;
    v.x = x; v.y = y; v.z = z;
    return v;
}

ct_xform random_xform(unsigned long long *seed, ct_vec3 p) {
    double r[9];
    ct_xform x;
    wl_rotation(r, seed);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) x.r[i][j] = r[3 * i + j];
    x.p = p;
    return x;
}

// Semi-axes uniform in [0.5, 1.5] (aspect == 0) or log-uniform over a range of `aspect` with
// the largest 1.5. Centres a random direction apart, at a distance that makes about half the
// pairs overlap.
std::vector<Pair> make_pairs(unsigned long long seed, double aspect) {
    std::vector<Pair> out(kPairs);
    for (int k = 0; k < kPairs; ++k) {
        Pair &p = out[k];
        double s[6], d[3], dist;
        for (int i = 0; i < 6; ++i)
            s[i] = aspect > 0 ? 1.5 * std::exp(-std::log(aspect) * bench_uniform(&seed)) : 0.5 + bench_uniform(&seed);
        p.a.semi = v3(s[0], s[1], s[2]);
        p.b.semi = v3(s[3], s[4], s[5]);
        wl_direction(d, &seed);
        dist = aspect > 0 ? 0.05 + 1.0 * bench_uniform(&seed) : 0.8 + 2.4 * bench_uniform(&seed);
        p.a.x = random_xform(&seed, v3(bench_uniform(&seed), bench_uniform(&seed), bench_uniform(&seed)));
        p.b.x = random_xform(&seed, v3(p.a.x.p.x + dist * d[0], p.a.x.p.y + dist * d[1], p.a.x.p.z + dist * d[2]));
        p.guess = 0;
    }
    return out;
}

// The warm workload: each pair solved, then B moved by 1% of its size and turned by 0.01 rad;
// the old lambda is the guess for the new position.
std::vector<Pair> make_moved(const std::vector<Pair> &in, unsigned long long seed) {
    std::vector<Pair> out = in;
    for (size_t k = 0; k < out.size(); ++k) {
        Pair &p = out[k];
        ct_pw o;
        double d[3], ax[3];
        ct_ellipsoids(in[k].a.semi, &in[k].a.x, in[k].b.semi, &in[k].b.x, NULL, &o);
        p.guess = o.lambda;
        wl_direction(d, &seed);
        wl_direction(ax, &seed);
        ct_xform turn = ct_xform_from_axis_angle(v3(ax[0], ax[1], ax[2]), 0.01, v3(0, 0, 0));
        ct_xform &x = p.b.x;
        ct_real r[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                r[i][j] = turn.r[i][0] * x.r[0][j] + turn.r[i][1] * x.r[1][j] + turn.r[i][2] * x.r[2][j];
        std::memcpy(x.r, r, sizeof r);
        x.p.x += 0.01 * d[0]; x.p.y += 0.01 * d[1]; x.p.z += 0.01 * d[2];
    }
    return out;
}

// One call per pair, cycling; warm contexts pass the previous lambda as the guess.
void ours(void *c, long calls) {
    Ctx *ctx = static_cast<Ctx *>(c);
    double s = 0;
    for (long i = 0; i < calls; ++i) {
        const Pair &p = ctx->pairs[ctx->next];
        ctx->next = (ctx->next + 1) % kPairs;
        ct_pw o;
        ct_ellipsoids(p.a.semi, &p.a.x, p.b.semi, &p.b.x, ctx->warm ? &p.guess : NULL, &o);
        s += o.gap;
    }
    ctx->sink = ctx->sink + s;
}

// The `check` column: n decisive pairs (near = near-tangent ones skipped), how many the two
// sides classify differently, and how many break the stated bound (bound_name; NULL: none).
// On the pairs classified differently, `t` holds the votes of bench/oracle.c's convex program.
std::string verdict(int n, int near, int differ, int overlap, int bound, const char *bound_name, const oracle_tally &t) {
    char buf[400];
    if (differ || bound) {
        std::snprintf(buf, sizeof buf, "DISAGREE: overlap differs on %d/%d; %s broken on %d", differ, n,
                      bound_name ? bound_name : "-", bound);
        if (differ) oracle_say(buf, sizeof buf, "the convex program min q_A over B", &t);
    }
    else
        std::snprintf(buf, sizeof buf, "overlap agrees %d/%d (%d overlap; %d near-tangent skipped)%s%s", n, n,
                      overlap, near, bound_name ? "; " : "", bound_name ? bound_name : "");
    return buf;
}

#ifdef CT_HAVE_CCD
void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out) {
    const Body *b = static_cast<const Body *>(obj);
    ct_vec3 d = v3(dir->v[0], dir->v[1], dir->v[2]);
    const ct_real (*r)[3] = b->x.r;
    // local direction l = R^T d; support = c + R diag(s^2) l / sqrt(l . diag(s^2) l)
    double l[3], s2[3] = { b->semi.x * b->semi.x, b->semi.y * b->semi.y, b->semi.z * b->semi.z }, q = 0;
    for (int i = 0; i < 3; ++i) {
        l[i] = r[0][i] * d.x + r[1][i] * d.y + r[2][i] * d.z;
        q += l[i] * l[i] * s2[i];
    }
    q = q > 0 ? 1 / std::sqrt(q) : 0;
    for (int i = 0; i < 3; ++i) l[i] *= s2[i] * q;
    out->v[0] = b->x.p.x + r[0][0] * l[0] + r[0][1] * l[1] + r[0][2] * l[2];
    out->v[1] = b->x.p.y + r[1][0] * l[0] + r[1][1] * l[1] + r[1][2] * l[2];
    out->v[2] = b->x.p.z + r[2][0] * l[0] + r[2][1] * l[1] + r[2][2] * l[2];
}
void ccd_center(const void *obj, ccd_vec3_t *c) {
    const Body *b = static_cast<const Body *>(obj);
    c->v[0] = b->x.p.x; c->v[1] = b->x.p.y; c->v[2] = b->x.p.z;
}
ccd_t make_ccd() {
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = ccd_support;
    ccd.support2 = ccd_support;
    ccd.center1 = ccd_center;
    ccd.center2 = ccd_center;
    ccd.max_iterations = 100;
    return ccd;
}
typedef int (*ccd_pen_fn)(const void *, const void *, const ccd_t *, ccd_real_t *, ccd_vec3_t *, ccd_vec3_t *);
// One libccd call per pair, cycling over ctx's pairs (C::objects gives a pair's two objects).
template <ccd_pen_fn F, class C>
void ccd_cycle(C *ctx, const ccd_t &ccd, long calls) {
    double s = 0;
    for (long i = 0; i < calls; ++i) {
        const void *o1, *o2;
        ctx->objects(ctx->next, &o1, &o2);
        ctx->next = (ctx->next + 1) % kPairs;
        ccd_real_t depth = 0;
        ccd_vec3_t dir, pos;
        if (F(o1, o2, &ccd, &depth, &dir, &pos) == 0) s += depth;
    }
    ctx->sink = ctx->sink + s;
}
template <ccd_pen_fn F>
void peer(void *c, long calls) {
    ccd_cycle<F>(static_cast<Ctx *>(c), make_ccd(), calls);
}

// Overlap classification of every pair, and the depth bound, as the `check` column.
std::string agreement(const std::vector<Pair> &pairs, ccd_pen_fn F, bool depth_is_exact) {
    ccd_t ccd = make_ccd();
    int differ = 0, near = 0, bound = 0, overlap = 0;
    oracle_tally t = { 0, 0, 0 };
    for (size_t k = 0; k < pairs.size(); ++k) {
        const Pair &p = pairs[k];
        ct_pw o;
        ccd_real_t depth = 0;
        ccd_vec3_t dir, pos;
        ct_ellipsoids(p.a.semi, &p.a.x, p.b.semi, &p.b.x, NULL, &o);
        int theirs = F(&p.a, &p.b, &ccd, &depth, &dir, &pos) == 0, mine = o.gap < 0;
        if (std::fabs(o.F - 1) < 1e-3) { near++; continue; }
        if (theirs != mine) {
            differ++;
            double sa[3] = { p.a.semi.x, p.a.semi.y, p.a.semi.z }, sb[3] = { p.b.semi.x, p.b.semi.y, p.b.semi.z };
            oracle_vote_bool(&t, oracle_ellipsoids_overlap(sa, &p.a.x, sb, &p.b.x, NULL), mine, theirs);
        }
        if (theirs && mine) {
            overlap++;
            if (depth_is_exact && -o.gap < depth * (1 - 1e-3) - 1e-4) bound++;
        }
    }
    return verdict((int)pairs.size() - near, near, differ, overlap, bound, depth_is_exact ? "-gap >= EPA depth" : NULL, t);
}
#endif

#ifdef CT_GJK_MAX_ITERS // the GJK part is merged (see tests/test_ellipsoid.c)
// ct_signed_distance once per pair, cycling over ctx's pairs (C::shapes gives a pair's shapes
// and transforms), with a warm scratch.
template <class C>
void sd_cycle(C *ctx, long calls) {
    ct_scratch scratch;
    ct_scratch_init(&scratch, NULL);
    double s = 0;
    for (long i = 0; i < calls; ++i) {
        ct_shape a, b;
        const ct_xform *xa, *xb;
        ct_distance d;
        ctx->shapes(ctx->next, &a, &xa, &b, &xb);
        ctx->next = (ctx->next + 1) % kPairs;
        ct_signed_distance(&a, xa, &b, xb, NULL, &scratch, &d);
        s += d.distance;
    }
    ct_scratch_release(&scratch);
    ctx->sink = ctx->sink + s;
}
// Our own GJK (+EPA when overlapping) on the same ellipsoids as ct_shape_ellipsoid shapes.
void gjk_peer(void *c, long calls) { sd_cycle(static_cast<Ctx *>(c), calls); }
// Same verdict away from tangency, and gap <= signed distance (see the test suite).
std::string gjk_agreement(const std::vector<Pair> &pairs) {
    int differ = 0, near = 0, bound = 0, overlap = 0;
    oracle_tally t = { 0, 0, 0 };
    for (size_t k = 0; k < pairs.size(); ++k) {
        const Pair &p = pairs[k];
        ct_shape a = ct_shape_ellipsoid(p.a.semi), b = ct_shape_ellipsoid(p.b.semi);
        ct_distance d;
        ct_pw o;
        ct_ellipsoids(p.a.semi, &p.a.x, p.b.semi, &p.b.x, NULL, &o);
        ct_signed_distance(&a, &p.a.x, &b, &p.b.x, NULL, NULL, &d);
        if (o.gap > d.distance + 1e-9) bound++;
        if (std::fabs(o.F - 1) < 1e-3) { near++; continue; }
        if ((d.distance < 0) != (o.gap < 0)) {
            differ++;
            double sa[3] = { p.a.semi.x, p.a.semi.y, p.a.semi.z }, sb[3] = { p.b.semi.x, p.b.semi.y, p.b.semi.z };
            oracle_vote_bool(&t, oracle_ellipsoids_overlap(sa, &p.a.x, sb, &p.b.x, NULL), o.gap < 0, d.distance < 0);
        }
        overlap += d.distance < 0 && o.gap < 0;
    }
    return verdict((int)pairs.size() - near, near, differ, overlap, bound, "gap <= distance", t);
}
#endif

void run_set(const char *name, std::vector<Pair> cold, unsigned long long seed) {
    Ctx c, w;
    c.pairs = cold;
    c.next = 0;
    c.warm = false;
    c.sink = 0;
    w.pairs = make_moved(cold, seed);
    w.next = 0;
    w.warm = true;
    w.sink = 0;
    long its_c = 0, its_w = 0;
    int worst_c = 0, worst_w = 0;
    for (int k = 0; k < kPairs; ++k) {
        ct_pw o;
        ct_ellipsoids(cold[k].a.semi, &cold[k].a.x, cold[k].b.semi, &cold[k].b.x, NULL, &o);
        its_c += o.iterations;
        worst_c = o.iterations > worst_c ? o.iterations : worst_c;
        const Pair &p = w.pairs[k];
        ct_ellipsoids(p.a.semi, &p.a.x, p.b.semi, &p.b.x, &p.guess, &o);
        its_w += o.iterations;
        worst_w = o.iterations > worst_w ? o.iterations : worst_w;
    }
    std::string cold_name = std::string(name) + ", cold", warm_name = std::string(name) + ", warm";
#ifdef CT_HAVE_CCD
    std::string chk_mpr = agreement(c.pairs, ccdMPRPenetration, false), chk_gjk = agreement(c.pairs, ccdGJKPenetration, true);
    std::string chk_mpr_w = agreement(w.pairs, ccdMPRPenetration, false);
    bench_row(cold_name.c_str(), ours, &c, "libccd ccdMPRPenetration", peer<ccdMPRPenetration>, &c, chk_mpr.c_str());
    bench_row(cold_name.c_str(), ours, &c, "libccd ccdGJKPenetration (GJK+EPA)", peer<ccdGJKPenetration>, &c, chk_gjk.c_str());
    bench_row(warm_name.c_str(), ours, &w, "libccd ccdMPRPenetration", peer<ccdMPRPenetration>, &w, chk_mpr_w.c_str());
#else
    bench_row(cold_name.c_str(), ours, &c, "libccd (not installed)", NULL, NULL, "");
    bench_row(warm_name.c_str(), ours, &w, "libccd (not installed)", NULL, NULL, "");
#endif
#ifdef CT_GJK_MAX_ITERS
    std::string chk_gjk_ours = gjk_agreement(c.pairs);
    bench_row(cold_name.c_str(), ours, &c, "contact.h ct_signed_distance (GJK+EPA)", gjk_peer, &c, chk_gjk_ours.c_str());
#else
    bench_note("(our GJK row skipped: the GJK part is not merged in this build)");
#endif
    bench_note("%s: S' evaluations per call: cold mean %.2f (worst %d), warm mean %.2f (worst %d)", name,
               (double)its_c / kPairs, worst_c, (double)its_w / kPairs, worst_w);
}

// An ellipsoid pressed into a box's top face (a DEM particle on a wall): semi-axes 0.5-1.5,
// random rotation, the box 50 x 50 x 3 (half extents) with its top face on z = 0, the
// ellipsoid's lowest point 0.001-0.4 below it. The depth has the closed form -gap (h = |S m|,
// m = R^T (-z)). Ours: ct_signed_distance (ellipsoid, box); libccd: its GJK+EPA and MPR with an
// ellipsoid and a box support function (default tolerances).
struct Wall {
    Body e;
    ct_vec3 half;
    ct_xform xb;
    double gap;
};
struct WallCtx {
    std::vector<Wall> pairs;
    long next;
    volatile double sink;
    void objects(long k, const void **a, const void **b) const { *a = &pairs[k].e; *b = &pairs[k]; }
    void shapes(long k, ct_shape *a, const ct_xform **xa, ct_shape *b, const ct_xform **xb) const {
        *a = ct_shape_ellipsoid(pairs[k].e.semi); *xa = &pairs[k].e.x;
        *b = ct_shape_box(pairs[k].half); *xb = &pairs[k].xb;
    }
};
// edge: the ellipsoid (semi-axes 0.5-1) pressed 0.001-0.1 onto the box's edge along x at
// y = z = 0 instead, along n = (0, cos t, sin t), t in [0.3, 1.27] (between the two faces'
// normals), placed so that its support point along -n lies that far below the edge.
std::vector<Wall> make_walls(unsigned long long seed, bool edge) {
    std::vector<Wall> out(kPairs);
    for (int k = 0; k < kPairs; ++k) {
        Wall &w = out[k];
        double m[3], n[3] = { 0, 0, 1 };
        w.e.semi = edge ? v3(0.5 + 0.5 * bench_uniform(&seed), 0.5 + 0.5 * bench_uniform(&seed), 0.5 + 0.5 * bench_uniform(&seed))
                        : v3(0.5 + bench_uniform(&seed), 0.5 + bench_uniform(&seed), 0.5 + bench_uniform(&seed));
        w.e.x = random_xform(&seed, v3(0, 0, 0));
        if (edge) {
            double t = 0.3 + 0.97 * bench_uniform(&seed);
            n[1] = std::cos(t);
            n[2] = std::sin(t);
        }
        for (int i = 0; i < 3; ++i) m[i] = -(w.e.x.r[0][i] * n[0] + w.e.x.r[1][i] * n[1] + w.e.x.r[2][i] * n[2]);
        double S[3] = { w.e.semi.x, w.e.semi.y, w.e.semi.z };
        double h = std::sqrt(S[0] * S[0] * m[0] * m[0] + S[1] * S[1] * m[1] * m[1] + S[2] * S[2] * m[2] * m[2]);
        w.gap = edge ? -(0.001 + 0.099 * bench_uniform(&seed)) : -(0.001 + 0.399 * bench_uniform(&seed));
        double x0 = 2 * bench_uniform(&seed) - 1, y0 = edge ? 0 : 2 * bench_uniform(&seed) - 1, c[3];
        for (int i = 0; i < 3; ++i) {   // centre = edge (or face) point + gap n - R (S^2 m / h)
            double sl = w.e.x.r[i][0] * S[0] * S[0] * m[0] + w.e.x.r[i][1] * S[1] * S[1] * m[1] + w.e.x.r[i][2] * S[2] * S[2] * m[2];
            c[i] = (i == 0 ? x0 : i == 1 ? y0 : 0) + w.gap * n[i] - sl / h;
        }
        w.e.x.p = v3(c[0], c[1], c[2]);
        w.half = edge ? v3(50, 3, 3) : v3(50, 50, 3);
        w.xb = ct_xform_identity();
        w.xb.p = edge ? v3(0, -3, -3) : v3(0, 0, -3);
    }
    return out;
}
void wall_ours(void *c, long calls) { sd_cycle(static_cast<WallCtx *>(c), calls); }
double wall_error_ours(const std::vector<Wall> &pairs) {
    double worst = 0;
    for (size_t k = 0; k < pairs.size(); ++k) {
        const Wall &w = pairs[k];
        ct_shape a = ct_shape_ellipsoid(w.e.semi), b = ct_shape_box(w.half);
        ct_distance d;
        ct_signed_distance(&a, &w.e.x, &b, &w.xb, NULL, NULL, &d);
        worst = std::fmax(worst, std::fabs((double)d.distance - w.gap));
    }
    return worst;
}
#ifdef CT_HAVE_CCD
void ccd_box_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out) {
    const Wall *w = static_cast<const Wall *>(obj);   // axis-aligned (xb is a translation)
    out->v[0] = w->xb.p.x + (dir->v[0] >= 0 ? w->half.x : -w->half.x);
    out->v[1] = w->xb.p.y + (dir->v[1] >= 0 ? w->half.y : -w->half.y);
    out->v[2] = w->xb.p.z + (dir->v[2] >= 0 ? w->half.z : -w->half.z);
}
void ccd_box_center(const void *obj, ccd_vec3_t *c) {
    const Wall *w = static_cast<const Wall *>(obj);
    c->v[0] = w->xb.p.x; c->v[1] = w->xb.p.y; c->v[2] = w->xb.p.z;
}
ccd_t make_wall_ccd() {
    ccd_t ccd = make_ccd();
    ccd.support2 = ccd_box_support;
    ccd.center2 = ccd_box_center;
    return ccd;
}
template <ccd_pen_fn F>
void wall_peer(void *c, long calls) {
    ccd_cycle<F>(static_cast<WallCtx *>(c), make_wall_ccd(), calls);
}
template <ccd_pen_fn F>
double wall_error_peer(const std::vector<Wall> &pairs) {
    ccd_t ccd = make_wall_ccd();
    double worst = 0;
    for (size_t k = 0; k < pairs.size(); ++k) {
        ccd_real_t depth = 0;
        ccd_vec3_t dir, pos;
        if (F(&pairs[k].e, &pairs[k], &ccd, &depth, &dir, &pos) != 0) return HUGE_VAL;
        worst = std::fmax(worst, std::fabs((double)depth + pairs[k].gap));
    }
    return worst;
}
#endif

void wall_rows(unsigned long long seed, bool edge) {
    const char *name = edge ? "ellipsoid onto a box edge" : "ellipsoid into a box face";
    WallCtx c;
    c.pairs = make_walls(seed, edge);
    c.next = 0;
    c.sink = 0;
    char chk[200];
    double eo = wall_error_ours(c.pairs);
#ifdef CT_HAVE_CCD
    double eg = wall_error_peer<ccdGJKPenetration>(c.pairs), em = wall_error_peer<ccdMPRPenetration>(c.pairs);
    std::snprintf(chk, sizeof chk, "depth vs closed form: ours worst %.1e, peer worst %.1e", eo, eg);
    bench_row(name, wall_ours, &c, "libccd ccdGJKPenetration (GJK+EPA)", wall_peer<ccdGJKPenetration>, &c, chk);
    std::snprintf(chk, sizeof chk, "depth vs closed form: ours worst %.1e, peer worst %.1e", eo, em);
    bench_row(name, wall_ours, &c, "libccd ccdMPRPenetration", wall_peer<ccdMPRPenetration>, &c, chk);
#else
    std::snprintf(chk, sizeof chk, "depth vs closed form: ours worst %.1e", eo);
    bench_row(name, wall_ours, &c, "libccd (not installed)", NULL, NULL, chk);
#endif
}

} // namespace

int main() {
    bench_table("Ellipsoid contact (Perram-Wertheim) per pair",
                "1024 random pairs, random orientations (51% overlap at semi-axes 0.5-1.5, 37% at aspect 1:100); double, -O2, one thread. "
                "libccd peers use an ellipsoid support function (mpr/epa tolerance 1e-4, its default). "
                "Warm: B moved 0.01 and turned 0.01 rad, previous lambda as the guess.");
    run_set("semi-axes 0.5-1.5", make_pairs(1, 0), 2);
    run_set("aspect to 1:100", make_pairs(3, 100), 4);
    bench_table("Ellipsoid on a wall: ct_signed_distance (ellipsoid, box)",
                "1024 ellipsoids (semi-axes 0.5-1.5, random rotations) pressed 0.001-0.4 into the top face of a box "
                "50 x 50 x 3 (a DEM wall), and (semi-axes 0.5-1) 0.001-0.1 onto the edge of a box 50 x 3 x 3 between its "
                "faces; double, one thread, a warm scratch. libccd: its GJK+EPA and MPR with an ellipsoid and a box support "
                "function, default tolerances (1e-4). Check: the largest depth error against the closed form.");
    wall_rows(6, false);
    wall_rows(7, true);
    return 0;
}
