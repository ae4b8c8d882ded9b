// Quickhull against qhull (libqhull_r, default options: merged facets) on the same points.
// Per-call cost for 8 / 20 / 100 / 1000 points (on a sphere and in a cube), throughput for
// 1e5 / 1e6 points. Agreement: equal volume (relative 1e-9) and vertex count before timing.
#include "contact.h"
#include "harness.h"
#include "oracle.h"
#include "workload.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#ifdef CT_HAVE_QHULL
extern "C" {
#include <libqhull_r/qhull_ra.h>
}
#endif

namespace {

struct Sets {
    int n, count;                 // points per set, number of sets (cycled)
    std::vector<ct_vec3> pts;     // count * n
    std::vector<double> xyz;      // same, as doubles for qhull
    ct_scratch scratch;
    int next;
    double sink;
};

void make_sets(Sets &s, int n, int count, int cube, unsigned long long seed) {
    s.n = n; s.count = count; s.next = 0; s.sink = 0;
    s.xyz.resize((size_t)3 * n * count);
    for (int c = 0; c < count; ++c) {
        double *x = &s.xyz[(size_t)3 * n * c];
        if (cube == 2) {   // a cylinder: n / 2 points around each cap, caps coplanar, phase per set
            int m = n / 2;
            double d[3];
            wl_direction(d, &seed);
            double phase = std::atan2(d[1], d[0]);
            for (int i = 0; i < m; ++i) {
                double a = phase + 6.283185307179586 * i / m;
                for (int k = 0; k < 2; ++k) {
                    x[6 * i + 3 * k] = std::cos(a);
                    x[6 * i + 3 * k + 1] = std::sin(a);
                    x[6 * i + 3 * k + 2] = k ? 0.5 : -0.5;
                }
            }
        } else if (cube >= 3) {   // on a cube's surface: exactly (3) or within 1e-13 of it (4)
            std::vector<double> u((size_t)3 * n);
            wl_cube(&u[0], n, 1, &seed);
            for (int i = 0; i < n; ++i) {
                int face = (int)(6 * (0.5 * u[3 * i] + 0.5)) % 6;   // the first coordinate picks the side
                double v[3] = { u[3 * i + 1], u[3 * i + 2], (face & 1) ? 1.0 : -1.0 };
                if (cube == 4) v[2] += 1e-13 * (2 * bench_uniform(&seed) - 1);
                for (int k = 0; k < 3; ++k) x[3 * i + k] = v[(face / 2 + 1 + k) % 3];
            }
        } else if (cube) wl_cube(x, n, 1, &seed);
        else wl_sphere(x, n, 1, &seed);
    }
    s.pts.resize((size_t)n * count);
    for (size_t i = 0; i < s.pts.size(); ++i) {
        s.pts[i].x = s.xyz[3 * i]; s.pts[i].y = s.xyz[3 * i + 1]; s.pts[i].z = s.xyz[3 * i + 2];
    }
    ct_scratch_init(&s.scratch, NULL);
}

int ours_one(Sets &s, int c, double *vol) {
    ct_hull h;
    ct_hull_desc d;
    std::memset(&d, 0, sizeof d);
    d.scratch = &s.scratch;
    if (ct_hull_build(&s.pts[(size_t)s.n * c], s.n, &d, NULL, &h) != CT_OK) return -1;
    int nv = h.nverts;
    if (vol) *vol = ct_hull_volume(&h, NULL);
    s.sink += h.nfaces;
    ct_hull_free(&h);
    return nv;
}

void bench_ours(void *p, long calls) {
    Sets &s = *static_cast<Sets *>(p);
    for (long i = 0; i < calls; ++i) {
        ours_one(s, s.next, NULL);
        s.next = (s.next + 1) % s.count;
    }
}

#ifdef CT_HAVE_QHULL
int qhull_one(Sets &s, int c, double *vol) {
    qhT qh_qh, *qh = &qh_qh;
    int curlong, totlong, nv = -1;
    qh_zero(qh, stderr);
    int code = qh_new_qhull(qh, 3, s.n, &s.xyz[(size_t)3 * s.n * c], 0, (char *)(vol ? "qhull FA" : "qhull"), NULL, stderr);
    if (!code) {
        nv = qh->num_vertices;
        if (vol) *vol = qh->totvol;
        s.sink += qh->num_facets;
    }
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    return nv;
}

// The hull's planes (n, d per facet, n.x + d <= 0 inside) of set c, for the oracle.
void qhull_planes(Sets &s, int c, std::vector<double> &pl) {
    qhT qh_qh, *qh = &qh_qh;
    int curlong, totlong;
    facetT *facet;
    pl.clear();
    qh_zero(qh, stderr);
    if (!qh_new_qhull(qh, 3, s.n, &s.xyz[(size_t)3 * s.n * c], 0, (char *)"qhull", NULL, stderr))
        FORALLfacets {
            for (int k = 0; k < 3; ++k) pl.push_back(facet->normal[k]);
            pl.push_back(facet->offset);
        }
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
}
void ours_planes(Sets &s, int c, std::vector<double> &pl) {
    ct_hull h;
    pl.clear();
    if (ct_hull_build(&s.pts[(size_t)s.n * c], s.n, NULL, NULL, &h) != CT_OK) return;
    for (int f = 0; f < h.nfaces; ++f) {
        pl.push_back(h.planes[f].n.x); pl.push_back(h.planes[f].n.y); pl.push_back(h.planes[f].n.z);
        pl.push_back(h.planes[f].d);
    }
    ct_hull_free(&h);
}
// Oracle on a disagreeing set: how far the worst input point lies outside each side's hull,
// relative to the set's extent (a hull holds every input point; both sides' vertices are
// input points, so the side that holds them all is the hull). 1e-12 of the extent is "inside".
void hull_vote(Sets &s, int c, oracle_tally &t) {
    std::vector<double> po, pq;
    const double *x = &s.xyz[(size_t)3 * s.n * c];
    double ext = 0;
    for (int i = 0; i < 3 * s.n; ++i) ext = std::fmax(ext, std::fabs(x[i]));
    ours_planes(s, c, po);
    qhull_planes(s, c, pq);
    double eo = po.empty() ? 1 : std::fmax(0, oracle_plane_excess(x, s.n, po.data(), (int)po.size() / 4)) / ext;
    double eq = pq.empty() ? 1 : std::fmax(0, oracle_plane_excess(x, s.n, pq.data(), (int)pq.size() / 4)) / ext;
    oracle_vote(&t, 0, eo <= 1e-12 ? 0 : eo, eq <= 1e-12 ? 0 : eq);
}

void bench_qhull(void *p, long calls) {
    Sets &s = *static_cast<Sets *>(p);
    for (long i = 0; i < calls; ++i) {
        qhull_one(s, s.next, NULL);
        s.next = (s.next + 1) % s.count;
    }
}
#endif

void row(const char *name, int n, int count, int cube) {
    Sets s;
    make_sets(s, n, count, cube, 1000 + n);
    char check[400] = "no peer";
#ifdef CT_HAVE_QHULL
    int bad = 0, checked = count < 20 ? count : 20;
    double worst = 0;
    oracle_tally t = { 0, 0, 0 };
    for (int c = 0; c < checked; ++c) {
        double vo = 0, vq = 0;
        int no = ours_one(s, c, &vo), nq = qhull_one(s, c, &vq);
        double rel = std::fabs(vo - vq) / vq;
        if (rel > worst) worst = rel;
        if ((no != nq && cube != 4) || rel > 1e-9) { ++bad; hull_vote(s, c, t); }
    }
    // within 1e-13 of a cube, each merges its own way within its tolerance: volumes only
    if (bad) {
        std::snprintf(check, sizeof check, "DISAGREE on %d/%d sets (vol rel %.1e)", bad, checked, worst);
        oracle_say(check, sizeof check, "containment of every input point", &t);
    }
    else std::snprintf(check, sizeof check, "agree: %d sets, %s, vol rel <= %.1e", checked,
                       cube == 4 ? "vertex counts differ (merging)" : "same vertex count", worst);
    bench_row(name, bench_ours, &s, "qhull", bench_qhull, &s, check);
#else
    bench_row(name, bench_ours, &s, "qhull (not installed)", NULL, NULL, check);
#endif
    ct_scratch_release(&s.scratch);
}

} // namespace

int main() {
    bench_table("Quickhull: per call", "ct_hull_build (warm scratch, output allocated and freed per call) vs qh_new_qhull(\"qhull\"); double; 200 different sets cycled.");
    const int sizes[] = { 8, 20, 100, 1000 };
    char name[128];
    for (int k = 0; k < 4; ++k) {
        std::snprintf(name, sizeof name, "%d points on a sphere", sizes[k]);
        row(name, sizes[k], 200, 0);
        std::snprintf(name, sizeof name, "%d points in a cube", sizes[k]);
        row(name, sizes[k], 200, 1);
    }
    bench_table("Quickhull: coplanar caps", "cylinders: n / 2 points on each of two coplanar circles (a DEM particle mesh), random phase per set; double; the caps merge into two n / 2-gons.");
    row("200-point cylinder", 200, 20, 2);
    row("2000-point cylinder", 2000, 4, 2);
    bench_table("Quickhull: throughput", "one large set per call; double.");
    row("1e5 points in a cube", 100000, 1, 1);
    row("1e5 points on a sphere", 100000, 1, 0);
    row("1e6 points in a cube", 1000000, 1, 1);
    row("1e6 points on a sphere", 1000000, 1, 0);
    bench_table("Quickhull: big coplanar faces", "points uniform on a cube's six sides (n / 6 coplanar points per side), exactly on them or within 1e-13; one set per call; double.");
    row("1e5 points on a cube's surface", 100000, 1, 3);
    row("1e5 points within 1e-13 of a cube's surface", 100000, 1, 4);
    row("1e6 points on a cube's surface", 1000000, 1, 3);
    row("1e6 points within 1e-13 of a cube's surface", 1000000, 1, 4);
    return 0;
}
