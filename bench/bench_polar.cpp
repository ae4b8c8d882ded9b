// Polar intersection and the volumetric contact against qhull's halfspace intersection, on the
// same overlapping random hull pairs (20 and 100 vertices on a sphere, B rotated and offset
// 0.4-1.2 along a random direction). The peer gets what ours computes: qh_new_qhull("H...")
// over the face planes of both bodies with an interior point (given free: the overlap's
// centroid, precomputed), the intersection vertices from its facets, then qhull "FA" on them
// for the volume. Agreement: the volumes match (relative 1e-9) on every pair before timing.
// A last row times ct_contact_hulls where B lies inside A, so the gap comes from EPA.
// The Solfec table: the 249 pairs of the shared Solfec-1.0 cvi regression set (mostly thin
// overlaps), total time for every pair, ours (ct_contact_hulls) vs the same qhull H + FA.
#include "contact.h"
#include "harness.h"
#include "bench_hulls.h"
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

struct Pair {
    ct_hull a, b;
    ct_xform xb;
    double interior[3];           // a point inside the overlap (for qhull's H option)
    std::vector<double> halfspaces; // world planes of A and B: nx ny nz d
    double volume;                // ours
    double gap, width_b;          // ours, and B's width along our normal
};

struct Work {
    std::vector<Pair> pairs;
    ct_scratch scratch;
    int next;
    double sink;
};

// What the peer is given: the world face planes of A and B (nx ny nz d) and, for free, our
// overlap centroid as the interior point.
void set_halfspaces(Pair &p, const ct_contact &c) {
    p.interior[0] = c.centroid.x; p.interior[1] = c.centroid.y; p.interior[2] = c.centroid.z;
    p.halfspaces.clear();
    for (int f = 0; f < p.a.nfaces; ++f) {
        ct_plane q = p.a.planes[f];
        double h[4] = { q.n.x, q.n.y, q.n.z, q.d };
        p.halfspaces.insert(p.halfspaces.end(), h, h + 4);
    }
    for (int f = 0; f < p.b.nfaces; ++f) {
        ct_plane q = p.b.planes[f];
        double n[3], dd;
        for (int i = 0; i < 3; ++i) n[i] = p.xb.r[i][0] * q.n.x + p.xb.r[i][1] * q.n.y + p.xb.r[i][2] * q.n.z;
        dd = q.d - (n[0] * p.xb.p.x + n[1] * p.xb.p.y + n[2] * p.xb.p.z);
        double h[4] = { n[0], n[1], n[2], dd };
        p.halfspaces.insert(p.halfspaces.end(), h, h + 4);
    }
}

// contained: B (radius 0.25) lies inside A, offset 0-0.3: the chord spans B only and the gap
// is EPA's depth (the fallback path of ct_contact_hulls)
void make_work(Work &w, int nv, int count, unsigned long long seed, bool contained) {
    ct_scratch_init(&w.scratch, NULL);
    w.next = 0;
    w.sink = 0;
    while ((int)w.pairs.size() < count) {
        Pair p;
        double r[9], d[3];
        p.a = bench_sphere_hull(nv, 1, &seed);
        p.b = bench_sphere_hull(nv, contained ? 0.25 : 1, &seed);
        wl_rotation(r, &seed);
        wl_direction(d, &seed);
        double off = contained ? 0.3 * bench_uniform(&seed) : 0.4 + 0.8 * bench_uniform(&seed);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) p.xb.r[i][j] = r[3 * i + j];
        p.xb.p.x = off * d[0]; p.xb.p.y = off * d[1]; p.xb.p.z = off * d[2];
        ct_contact c;
        if (ct_contact_hulls(&p.a, NULL, &p.b, &p.xb, &w.scratch, &c) != CT_OK || !c.found || c.volume <= 0) {
            ct_hull_free(&p.a); ct_hull_free(&p.b);
            continue;
        }
        p.volume = c.volume;
        p.gap = c.gap;
        {
            double lo = 1e300, hi = -1e300;
            for (int i = 0; i < p.b.nverts; ++i) {
                ct_vec3 v = p.b.verts[i];
                double h = 0;
                for (int k = 0; k < 3; ++k) {   // (r v) . normal, translation aside
                    double rv = r[3 * k] * v.x + r[3 * k + 1] * v.y + r[3 * k + 2] * v.z;
                    h += rv * (k == 0 ? c.normal.x : k == 1 ? c.normal.y : c.normal.z);
                }
                lo = std::fmin(lo, h);
                hi = std::fmax(hi, h);
            }
            p.width_b = hi - lo;
        }
        set_halfspaces(p, c);
        w.pairs.push_back(p);
    }
}

void free_work(Work &w) {
    for (size_t i = 0; i < w.pairs.size(); ++i) { ct_hull_free(&w.pairs[i].a); ct_hull_free(&w.pairs[i].b); }
    ct_scratch_release(&w.scratch);
}

double ours_intersect_one(Work &w, Pair &p) {
    ct_hull x;
    double v = 0;
    if (ct_intersect(&p.a, NULL, &p.b, &p.xb, &w.scratch, NULL, &x) == CT_OK) {
        v = ct_hull_volume(&x, NULL);
        ct_hull_free(&x);
    }
    return v;
}

void bench_intersect(void *ctx, long calls) {
    Work &w = *static_cast<Work *>(ctx);
    for (long i = 0; i < calls; ++i) {
        w.sink += ours_intersect_one(w, w.pairs[w.next]);
        w.next = (w.next + 1) % (int)w.pairs.size();
    }
}

void bench_contact(void *ctx, long calls) {
    Work &w = *static_cast<Work *>(ctx);
    for (long i = 0; i < calls; ++i) {
        Pair &p = w.pairs[w.next];
        ct_contact c;
        ct_contact_hulls(&p.a, NULL, &p.b, &p.xb, &w.scratch, &c);
        w.sink += c.volume;
        w.next = (w.next + 1) % (int)w.pairs.size();
    }
}

#ifdef CT_HAVE_QHULL
double qhull_one(Work &w, Pair &p) {
    qhT qh_qh, *qh = &qh_qh;
    int curlong, totlong, n = (int)p.halfspaces.size() / 4;
    char cmd[200];
    std::vector<double> verts;
    double vol = 0;
    std::snprintf(cmd, sizeof cmd, "qhull H%.17g,%.17g,%.17g", p.interior[0], p.interior[1], p.interior[2]);
    qh_zero(qh, stderr);
    int code = qh_new_qhull(qh, 4, n, &p.halfspaces[0], 0, cmd, NULL, stderr);
    if (!code) {
        facetT *facet;
        FORALLfacets {
            if (facet->offset < -qh->MINdenom) {   // each dual facet is a vertex of the intersection
                for (int k = 0; k < 3; ++k) verts.push_back(facet->normal[k] / -facet->offset + qh->feasible_point[k]);
            }
        }
    }
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    if (code || verts.size() < 12) return 0;
    qh_zero(qh, stderr);
    code = qh_new_qhull(qh, 3, (int)verts.size() / 3, &verts[0], 0, (char *)"qhull FA", NULL, stderr);
    if (!code) vol = qh->totvol;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    (void)w;
    return vol;
}

void bench_qhull(void *ctx, long calls) {
    Work &w = *static_cast<Work *>(ctx);
    for (long i = 0; i < calls; ++i) {
        w.sink += qhull_one(w, w.pairs[w.next]);
        w.next = (w.next + 1) % (int)w.pairs.size();
    }
}
#endif

void rows(int nv, bool contained) {
    Work w;
    char name[128], check[400] = "no peer";
    const char *kind = contained ? "B inside A (EPA gap)" : "pair";
    make_work(w, nv, 100, 4000 + nv + (contained ? 1 : 0), contained);
#ifdef CT_HAVE_QHULL
    int bad = 0;
    double worst = 0;
    oracle_tally t = { 0, 0, 0 };
    for (size_t i = 0; i < w.pairs.size(); ++i) {
        double vo = ours_intersect_one(w, w.pairs[i]), vq = qhull_one(w, w.pairs[i]);
        double rel = std::fabs(vo - vq) / vq, relc = std::fabs(w.pairs[i].volume - vq) / vq;
        if (relc > rel) rel = relc;
        if (rel > worst) worst = rel;
        if (!(rel <= 1e-9)) {
            // the vertex-enumeration volume of the same planes (O(m^4): the first 5 pairs; -1
            // beyond its 200 planes counts as neither)
            ++bad;
            if (bad <= 5) {
                double vb = oracle_halfspace_volume(w.pairs[i].halfspaces.data(), (int)w.pairs[i].halfspaces.size() / 4);
                if (vb < 0) t.neither++;
                else oracle_vote(&t, vb, vo, vq);
            }
        }
    }
    if (bad) {
        std::snprintf(check, sizeof check, "DISAGREE on %d/%d pairs (vol rel %.1e)", bad, (int)w.pairs.size(), worst);
        oracle_say(check, sizeof check, "brute-force vertex enumeration (first 5)", &t);
    }
    else std::snprintf(check, sizeof check, "agree: %d pairs, vol rel <= %.1e", (int)w.pairs.size(), worst);
    if (contained) {   // a gap beyond B's width along the normal is no chord: EPA's depth
        int epa = 0;
        for (size_t i = 0; i < w.pairs.size(); ++i) epa += -w.pairs[i].gap > w.pairs[i].width_b * (1 + 1e-9);
        size_t len = std::strlen(check);
        std::snprintf(check + len, sizeof check - len, "; gap beyond any chord of B (EPA) on %d/%d", epa, (int)w.pairs.size());
    }
    if (!contained) {
        std::snprintf(name, sizeof name, "ct_intersect + volume, %d-vertex %s", nv, kind);
        bench_row(name, bench_intersect, &w, "qhull H + FA", bench_qhull, &w, check);
    }
    std::snprintf(name, sizeof name, "ct_contact_hulls, %d-vertex %s", nv, kind);
    bench_row(name, bench_contact, &w, "qhull H + FA", bench_qhull, &w, check);
#else
    if (!contained) {
        std::snprintf(name, sizeof name, "ct_intersect + volume, %d-vertex %s", nv, kind);
        bench_row(name, bench_intersect, &w, "qhull (not installed)", NULL, NULL, check);
    }
    std::snprintf(name, sizeof name, "ct_contact_hulls, %d-vertex %s", nv, kind);
    bench_row(name, bench_contact, &w, "qhull (not installed)", NULL, NULL, check);
#endif
    free_work(w);
}

// ---- the Solfec cvi regression set ----------------------------------------------------------
// One body of a record: na npa, na vertex lines, npa plane lines (the planes are not used: the
// peer gets our hulls' planes, as in the rows above). Returns false at a bad record.
bool read_body(FILE *f, std::vector<ct_vec3> &v) {
    int nv, np;
    if (std::fscanf(f, "%d %d", &nv, &np) != 2 || nv < 4 || np < 4) return false;
    v.resize((size_t)nv);
    for (int i = 0; i < nv; ++i) {
        double x, y, z;
        if (std::fscanf(f, "%lf %lf %lf", &x, &y, &z) != 3) return false;
        v[i].x = x; v[i].y = y; v[i].z = z;
    }
    for (int i = 0; i < 6 * np; ++i) {
        double skip;
        if (std::fscanf(f, "%lf", &skip) != 1) return false;
    }
    return true;
}

// The directory of the cvi.N files: CT_SOLFEC_CVI, else shared/data/solfec-cvi next to the
// checkout (or next to the worktree's parent); NULL when absent.
const char *solfec_dir(char *buf, size_t len) {
    const char *env = std::getenv("CT_SOLFEC_CVI");
    const char *tries[] = { env, "../shared/data/solfec-cvi", "../../shared/data/solfec-cvi" };
    for (int k = 0; k < 3; ++k) {
        if (!tries[k] || !*tries[k]) continue;
        std::snprintf(buf, len, "%s/README.md", tries[k]);
        FILE *f = std::fopen(buf, "r");
        if (!f) continue;
        std::fclose(f);
        std::snprintf(buf, len, "%s", tries[k]);
        return buf;
    }
    return NULL;
}

// all: every pair; vol: the pairs with an overlap volume (the peer needs an interior point)
bool load_solfec(const char *dir, Work &all, Work &vol) {
    const char *names[] = { "cvi.0", "cvi.1", "cvi.2", "cvi.3", "cvi.5", "cvi.6", "cvi.7", "cvi.10", "cvi.12", "cvi.15" };
    ct_scratch_init(&all.scratch, NULL);
    ct_scratch_init(&vol.scratch, NULL);
    all.next = vol.next = 0;
    all.sink = vol.sink = 0;
    for (int fi = 0; fi < 10; ++fi) {
        char path[700];
        double ge;
        std::snprintf(path, sizeof path, "%s/%s", dir, names[fi]);
        FILE *f = std::fopen(path, "r");
        if (!f) return false;
        while (std::fscanf(f, "%lf", &ge) == 1) {
            std::vector<ct_vec3> va, vb;
            Pair p;
            ct_contact c;
            if (!read_body(f, va) || !read_body(f, vb)) { std::fclose(f); return false; }
            p.xb = ct_xform_identity();
            if (ct_hull_build(&va[0], (int)va.size(), NULL, NULL, &p.a) != CT_OK) { std::fclose(f); return false; }
            if (ct_hull_build(&vb[0], (int)vb.size(), NULL, NULL, &p.b) != CT_OK) { ct_hull_free(&p.a); std::fclose(f); return false; }
            if (ct_contact_hulls(&p.a, NULL, &p.b, NULL, &all.scratch, &c) != CT_OK) { std::fclose(f); return false; }
            p.volume = c.volume;
            p.gap = c.gap;
            p.width_b = 0;
            set_halfspaces(p, c);
            all.pairs.push_back(p);
            if (c.found && c.volume > 0) {   // the same hulls, copied so each Work frees its own
                Pair q = p;
                ct_hull_build(&va[0], (int)va.size(), NULL, NULL, &q.a);
                ct_hull_build(&vb[0], (int)vb.size(), NULL, NULL, &q.b);
                vol.pairs.push_back(q);
            }
        }
        std::fclose(f);
    }
    return true;
}

// One "call" is the whole set: every pair once.
void bench_contact_set(void *ctx, long calls) {
    Work &w = *static_cast<Work *>(ctx);
    for (long i = 0; i < calls; ++i) bench_contact(ctx, (long)w.pairs.size());
}

#ifdef CT_HAVE_QHULL
void bench_qhull_set(void *ctx, long calls) {
    Work &w = *static_cast<Work *>(ctx);
    for (long i = 0; i < calls; ++i) bench_qhull(ctx, (long)w.pairs.size());
}
#endif

void solfec_rows() {
    char buf[600], name[160], check[256] = "no peer";
    const char *dir = solfec_dir(buf, sizeof buf);
    bench_table("Volumetric contact: the Solfec cvi regression set",
                "The 249 pairs that once made Solfec-1.0's cvi fail (shared/data/solfec-cvi; finite-element and "
                "polyhedron contacts, mostly overlaps of the order of Solfec's geometric epsilon), hulls built "
                "from the files' vertices; time per pass over the whole set; double; warm scratch. Peer as "
                "above (qhull H on both hulls' face planes with our overlap centroid as the interior point, then "
                "FA), on the pairs with an overlap volume (qhull H needs an interior point).");
    if (!dir) {
        bench_note("skipped: the Solfec cvi set is absent (set CT_SOLFEC_CVI or put it in ../shared/data/solfec-cvi)");
        return;
    }
    Work all, vol;
    if (!load_solfec(dir, all, vol)) {
        bench_note("skipped: a file of %s could not be read", dir);
        free_work(all);
        free_work(vol);
        return;
    }
    std::snprintf(name, sizeof name, "ct_contact_hulls, all %d pairs", (int)all.pairs.size());
    bench_row_ours(name, bench_contact_set, &all, "one pass over the set; no peer row (see the next row)");
#ifdef CT_HAVE_QHULL
    int bad = 0, failed = 0;
    double worst = 0;
    for (size_t i = 0; i < vol.pairs.size(); ++i) {
        double vq = qhull_one(vol, vol.pairs[i]), vo = vol.pairs[i].volume;
        if (!(vq > 0)) { ++failed; continue; }
        double rel = std::fabs(vo - vq) / vq;
        if (rel > worst) worst = rel;
        if (!(rel <= 1e-6)) ++bad;
    }
    if (bad || failed)
        std::snprintf(check, sizeof check, "DISAGREE on %d/%d pairs (vol rel %.1e), qhull no volume on %d", bad,
                      (int)vol.pairs.size(), worst, failed);
    else std::snprintf(check, sizeof check, "agree: %d pairs, vol rel <= %.1e", (int)vol.pairs.size(), worst);
    std::snprintf(name, sizeof name, "ct_contact_hulls, the %d pairs with a volume", (int)vol.pairs.size());
    bench_row(name, bench_contact_set, &vol, "qhull H + FA", bench_qhull_set, &vol, check);
#else
    std::snprintf(name, sizeof name, "ct_contact_hulls, the %d pairs with a volume", (int)vol.pairs.size());
    bench_row(name, bench_contact_set, &vol, "qhull (not installed)", NULL, NULL, check);
#endif
    free_work(all);
    free_work(vol);
}

} // namespace

int main() {
    bench_table("Polar intersection / volumetric contact",
                "Overlapping random hull pairs (vertices on the unit sphere, B rotated and offset 0.4-1.2), 100 pairs "
                "cycled; double; warm scratch; the last row: B of radius 0.25 inside A, where the gap is EPA's depth. "
                "ct_intersect allocates and frees its output hull per call. Peer: "
                "qh_new_qhull(\"H<interior point>\") on the face planes, vertices from its facets, then "
                "qh_new_qhull(\"FA\") for the volume; the interior point is given to qhull for free.");
    rows(20, false);
    rows(100, false);
    rows(20, true);
    solfec_rows();
    return 0;
}
