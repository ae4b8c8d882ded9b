/* Polar intersection (ct_intersect), the volumetric contact (ct_contact_hulls) and
   ct_sparsify, against independent oracles:
   - brute force: every triple of planes of A u B, the points inside all planes, their hull's
     volume by qhull (CT_HAVE_QHULL) - computed in double from the same planes;
   - closed forms (offset and flush cubes, containment, identical bodies, touching cubes);
   - Monte Carlo volume on a few pairs;
   - invariants: scaling 1e-6..1e6, translation, swap symmetry, Euler's formula, tags;
   - Solfec's regression inputs (see solfec_cvi_regressions), oracle from their own planes. */
#include "contact.h"
#include "testutil.h"
#include "workload.h"
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef CT_HAVE_QHULL
#include <libqhull_r/qhull_ra.h>
#endif

/* ---- helpers ------------------------------------------------------------------------------ */
typedef struct dplane { double n[3], d; } dplane;   /* n.x + d <= 0 inside, n unit */

static ct_hull hull_of(const ct_vec3 *p, int n) {
    ct_hull h;
    ct_status st = ct_hull_build(p, n, NULL, NULL, &h);
    cr_assert_eq(st, CT_OK, "hull build: %s", ct_status_string(st));
    return h;
}

static ct_hull box_hull(double hx, double hy, double hz) {
    ct_vec3 p[8];
    int i;
    for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
    return hull_of(p, 8);
}

/* n points on a sphere of radius r, squashed by (1, sy, sz) for variety */
static ct_hull random_hull(unsigned long long *seed, int n, double r, double sy, double sz) {
    double xyz[3 * 128];
    ct_vec3 p[128];
    int i;
    cr_assert(n <= 128);
    wl_sphere(xyz, n, r, seed);
    for (i = 0; i < n; ++i) p[i] = tu_vec(xyz[3 * i], sy * xyz[3 * i + 1], sz * xyz[3 * i + 2]);
    return hull_of(p, n);
}

static ct_xform xf_trans(double x, double y, double z) {
    ct_xform t = ct_xform_identity();
    t.p = tu_vec(x, y, z);
    return t;
}

/* c = a * b (apply b, then a) */
static ct_xform xf_mul(const ct_xform *a, const ct_xform *b) {
    ct_xform c;
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            double s = 0;
            for (k = 0; k < 3; ++k) s += (double)a->r[i][k] * b->r[k][j];
            c.r[i][j] = (ct_real)s;
        }
    c.p.x = (ct_real)((double)a->r[0][0] * b->p.x + (double)a->r[0][1] * b->p.y + (double)a->r[0][2] * b->p.z + a->p.x);
    c.p.y = (ct_real)((double)a->r[1][0] * b->p.x + (double)a->r[1][1] * b->p.y + (double)a->r[1][2] * b->p.z + a->p.y);
    c.p.z = (ct_real)((double)a->r[2][0] * b->p.x + (double)a->r[2][1] * b->p.y + (double)a->r[2][2] * b->p.z + a->p.z);
    return c;
}

static void xf_apply_d(const ct_xform *x, const double in[3], double out[3]) {
    int i;
    for (i = 0; i < 3; ++i)
        out[i] = (x ? (double)x->r[i][0] * in[0] + (double)x->r[i][1] * in[1] + (double)x->r[i][2] * in[2] + (double)(&x->p.x)[i]
                    : in[i]);
}

/* world planes of a transformed hull, in double */
static int world_planes(const ct_hull *h, const ct_xform *x, dplane *out) {
    int f, i;
    for (f = 0; f < h->nfaces; ++f) {
        double n[3] = { h->planes[f].n.x, h->planes[f].n.y, h->planes[f].n.z }, p0[3], q[3], l;
        double d = h->planes[f].d, zero[3] = { 0, 0, 0 }, o[3];
        /* a point on the plane: -d n */
        for (i = 0; i < 3; ++i) p0[i] = -d * n[i];
        xf_apply_d(x, p0, q);
        xf_apply_d(x, n, out[f].n);
        xf_apply_d(x, zero, o);
        for (i = 0; i < 3; ++i) out[f].n[i] -= o[i];
        l = sqrt(out[f].n[0] * out[f].n[0] + out[f].n[1] * out[f].n[1] + out[f].n[2] * out[f].n[2]);
        for (i = 0; i < 3; ++i) out[f].n[i] /= l;
        out[f].d = -(out[f].n[0] * q[0] + out[f].n[1] * q[1] + out[f].n[2] * q[2]);
    }
    return h->nfaces;
}

static double dp_eval(const dplane *p, const double x[3]) { return p->n[0] * x[0] + p->n[1] * x[1] + p->n[2] * x[2] + p->d; }

/* Brute force: every triple of planes, points inside all planes within tol. Returns the count
   (points written to pts, capacity cap). */
static int brute_points(const dplane *pl, int m, double tol, double *pts, double *dets, int *tri, int cap) {
    int i, j, k, l, n = 0;
    /* long double (x87 extended: 11 more bits) so that vertices of grazing triples, which
       double Cramer misplaces by eps/|det|, are still judged correctly against tol */
    for (i = 0; i < m; ++i)
        for (j = i + 1; j < m; ++j) {
            const double *a = pl[i].n, *b = pl[j].n;
            long double bc0[3] = { (long double)a[1] * b[2] - (long double)a[2] * b[1], (long double)a[2] * b[0] - (long double)a[0] * b[2],
                                   (long double)a[0] * b[1] - (long double)a[1] * b[0] };
            if (bc0[0] * bc0[0] + bc0[1] * bc0[1] + bc0[2] * bc0[2] < 1e-24L) continue;
            for (k = j + 1; k < m; ++k) {
                const double *c = pl[k].n;
                long double det = bc0[0] * c[0] + bc0[1] * c[1] + bc0[2] * c[2], x[3];
                long double bxc[3] = { (long double)b[1] * c[2] - (long double)b[2] * c[1], (long double)b[2] * c[0] - (long double)b[0] * c[2],
                                       (long double)b[0] * c[1] - (long double)b[1] * c[0] };
                long double cxa[3] = { (long double)c[1] * a[2] - (long double)c[2] * a[1], (long double)c[2] * a[0] - (long double)c[0] * a[2],
                                       (long double)c[0] * a[1] - (long double)c[1] * a[0] };
                int in = 1, t;
                if (fabsl(det) < 1e-12L) continue;
                for (t = 0; t < 3; ++t) x[t] = (-(long double)pl[i].d * bxc[t] - (long double)pl[j].d * cxa[t] - (long double)pl[k].d * bc0[t]) / det;
                for (l = 0; l < m && in; ++l)
                    if ((long double)pl[l].n[0] * x[0] + (long double)pl[l].n[1] * x[1] + (long double)pl[l].n[2] * x[2] + pl[l].d > tol) in = 0;
                if (in && n < cap) {
                    for (t = 0; t < 3; ++t) pts[3 * n + t] = (double)x[t];
                    dets[n] = (double)fabsl(det);
                    tri[3 * n] = i; tri[3 * n + 1] = j; tri[3 * n + 2] = k;
                    ++n;
                }
            }
        }
    return n;
}

#ifdef CT_HAVE_QHULL
/* Volume (and surface area) of the hull of n points by qhull; 0 for flat or too few points. */
static double qhull_volume(const double *pts, int n, double *area) {
    qhT qh_qh, *qh = &qh_qh;
    double vol = 0;
    int curlong, totlong, code;
    FILE *null = fopen("/dev/null", "w");
    if (area) *area = 0;
    if (n < 4) { if (null) fclose(null); return 0; }
    qh_zero(qh, null);
    code = qh_new_qhull(qh, 3, n, (coordT *)pts, False, (char *)"qhull Qt", NULL, null);
    if (!code) {
        qh_getarea(qh, qh->facet_list);
        vol = qh->totvol;
        if (area) *area = qh->totarea;
    }
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    if (null) fclose(null);
    return vol;
}
#endif

/* pts: the brute-force vertices; det: |det| of the unit normals of the triple that made each
   (Cramer's rule is accurate to about eps/|det| of the extent) */
typedef struct oracle { double vol, area; int npts; double *pts, *det, worst_det; int *tri; } oracle;

/* oracle volume of the intersection of the plane sets (double); scale L for tolerances */
static oracle brute_oracle(const dplane *pl, int m, double L) {
    oracle o;
    o.pts = (double *)malloc(sizeof(double) * 3 * 20000);
    o.det = (double *)malloc(sizeof(double) * 20000);
    o.tri = (int *)malloc(sizeof(int) * 3 * 20000);
    o.npts = brute_points(pl, m, 1e-11 * L, o.pts, o.det, o.tri, 20000);
    {   /* the volume's sensitivity: the worst-conditioned triple that makes a vertex */
        int i, j;
        o.worst_det = 1;
        for (i = 0; i < o.npts; ++i) o.worst_det = fmin(o.worst_det, o.det[i]);
        /* for matching, a point made by several triples is as good as its best triple */
        for (i = 0; i < o.npts; ++i) {
            double best = o.det[i];
            for (j = 0; j < o.npts; ++j)
                if (o.det[j] > best && fabs(o.pts[3 * i] - o.pts[3 * j]) + fabs(o.pts[3 * i + 1] - o.pts[3 * j + 1]) +
                                               fabs(o.pts[3 * i + 2] - o.pts[3 * j + 2]) <= 1e-9 * L)
                    best = o.det[j];
            o.det[i] = best;
        }
    }
    o.vol = 0;
    o.area = 0;
#ifdef CT_HAVE_QHULL
    o.vol = qhull_volume(o.pts, o.npts, &o.area);
#endif
    return o;
}

/* Volume of the polytope {x : pl_i(x) <= 0} from its vertices pts (brute force), without a
   3D hull: sum over distinct planes of area_i * height_i / 3 (pyramids from the vertex mean),
   each face's area from the 2D hull of the vertices made with its plane. Exact for any thickness,
   unlike qhull which refuses slabs thinner than its own precision. */
static double pyramid_volume(const dplane *pl, int m, const double *pts, const int *tri, int n, double tol) {
    double o[3] = { 0, 0, 0 }, vol = 0;
    int i, j, k;
    if (n < 4) return 0;
    for (k = 0; k < n; ++k)
        for (j = 0; j < 3; ++j) o[j] += pts[3 * k + j] / n;
    for (i = 0; i < m; ++i) {
        double u[3], w[3], (*q)[2], area = 0, h;
        const double *nn = pl[i].n;
        int c = 0, dup = 0, a, b, top = 0;
        int *hull;
        for (j = 0; j < i && !dup; ++j)
            dup = pl[j].n[0] * nn[0] + pl[j].n[1] * nn[1] + pl[j].n[2] * nn[2] > 1 - 1e-12 && fabs(pl[j].d - pl[i].d) <= tol;
        if (dup) continue;
        if (fabs(nn[0]) < 0.6) { u[0] = 0; u[1] = nn[2]; u[2] = -nn[1]; }
        else { u[0] = -nn[2]; u[1] = 0; u[2] = nn[0]; }
        h = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        for (j = 0; j < 3; ++j) u[j] /= h;
        w[0] = nn[1] * u[2] - nn[2] * u[1]; w[1] = nn[2] * u[0] - nn[0] * u[2]; w[2] = nn[0] * u[1] - nn[1] * u[0];
        q = (double (*)[2])malloc(sizeof(double[2]) * (size_t)n);
        hull = (int *)malloc(sizeof(int) * (size_t)(2 * n + 2));
        for (k = 0; k < n; ++k)   /* the points made with plane i lie on it by construction */
            if (tri[3 * k] == i || tri[3 * k + 1] == i || tri[3 * k + 2] == i) {
                q[c][0] = pts[3 * k] * u[0] + pts[3 * k + 1] * u[1] + pts[3 * k + 2] * u[2];
                q[c][1] = pts[3 * k] * w[0] + pts[3 * k + 1] * w[1] + pts[3 * k + 2] * w[2];
                ++c;
            }
        /* insertion sort by (x, y), then Andrew's monotone chain */
        for (a = 1; a < c; ++a)
            for (b = a; b > 0 && (q[b - 1][0] > q[b][0] || (q[b - 1][0] == q[b][0] && q[b - 1][1] > q[b][1])); --b) {
                double t0 = q[b][0], t1 = q[b][1];
                q[b][0] = q[b - 1][0]; q[b][1] = q[b - 1][1]; q[b - 1][0] = t0; q[b - 1][1] = t1;
            }
        for (a = 0; a < c; ++a) {
            while (top >= 2 && (q[hull[top - 1]][0] - q[hull[top - 2]][0]) * (q[a][1] - q[hull[top - 2]][1]) -
                                   (q[hull[top - 1]][1] - q[hull[top - 2]][1]) * (q[a][0] - q[hull[top - 2]][0]) <= 0) --top;
            hull[top++] = a;
        }
        for (a = c - 2, b = top + 1; a >= 0; --a) {
            while (top >= b && (q[hull[top - 1]][0] - q[hull[top - 2]][0]) * (q[a][1] - q[hull[top - 2]][1]) -
                                   (q[hull[top - 1]][1] - q[hull[top - 2]][1]) * (q[a][0] - q[hull[top - 2]][0]) <= 0) --top;
            hull[top++] = a;
        }
        for (a = 0; a + 1 < top; ++a) area += q[hull[a]][0] * q[hull[a + 1]][1] - q[hull[a + 1]][0] * q[hull[a]][1];
        area = c >= 3 ? fabs(area) / 2 : 0;
        vol += area * -dp_eval(&pl[i], o) / 3;
        free(q);
        free(hull);
    }
    return vol;
}

static int pair_planes(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, dplane *pl) {
    int na = world_planes(a, xa, pl);
    return na + world_planes(b, xb, pl + na);
}

static double vdist_d(const double *p, ct_vec3 q) {
    double dx = p[0] - q.x, dy = p[1] - q.y, dz = p[2] - q.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Structural checks on an intersection: Euler, tags (every vertex of a face lies on its
   tagged plane), CCW orientation, half-edge twins, every vertex inside both bodies. */
static void check_structure(const ct_hull *h, const ct_hull *a, const ct_xform *xa, const ct_hull *b,
                            const ct_xform *xb, double tol) {
    dplane pa[256], pb[256];
    int f, k;
    cr_assert(a->nfaces <= 256 && b->nfaces <= 256);
    world_planes(a, xa, pa);
    world_planes(b, xb, pb);
    cr_assert_eq(h->nverts - h->nedges + h->nfaces, 2, "Euler: V %d E %d F %d", h->nverts, h->nedges, h->nfaces);
    cr_assert_not_null(h->face_tag);
    for (f = 0; f < h->nfaces; ++f) {
        int t = h->face_tag[f], b0 = h->face_first[f], e0 = h->face_first[f + 1];
        const dplane *pl;
        double nw[3] = { 0, 0, 0 };
        cr_assert(t >= 0 ? t < a->nfaces : -t - 1 < b->nfaces, "tag %d out of range", t);
        pl = t >= 0 ? &pa[t] : &pb[-t - 1];
        for (k = b0; k < e0; ++k) {
            ct_vec3 v = h->verts[h->face_verts[k]], w = h->verts[h->face_verts[k + 1 == e0 ? b0 : k + 1]];
            double x[3] = { v.x, v.y, v.z };
            cr_assert(fabs(dp_eval(pl, x)) <= tol, "face %d vertex off its tagged plane by %g (tol %g)", f,
                      dp_eval(pl, x), tol);
            nw[0] += ((double)v.y - w.y) * ((double)v.z + w.z);
            nw[1] += ((double)v.z - w.z) * ((double)v.x + w.x);
            nw[2] += ((double)v.x - w.x) * ((double)v.y + w.y);
        }
        cr_assert(nw[0] * pl->n[0] + nw[1] * pl->n[1] + nw[2] * pl->n[2] >= 0, "face %d is not CCW from outside", f);
    }
    /* half-edge adjacency: the twin of u -> v runs v -> u on another face, and back */
    for (f = 0; f < h->nfaces; ++f)
        for (k = h->face_first[f]; k < h->face_first[f + 1]; ++k) {
            int t = h->he_twin[k], kn = k + 1 == h->face_first[f + 1] ? h->face_first[f] : k + 1;
            cr_assert(t >= 0 && t < 2 * h->nedges, "half-edge %d: twin %d", k, t);
            cr_assert_eq(h->he_twin[t], k, "half-edge %d: twin of twin", k);
            cr_assert_neq(h->he_face[t], f, "half-edge %d: twin on the same face", k);
            cr_assert(h->face_verts[t] == h->face_verts[kn] && h->face_verts[h->he_next[t]] == h->face_verts[k],
                      "half-edge %d: twin does not run back", k);
        }
    for (k = 0; k < h->nverts; ++k) {
        double x[3] = { h->verts[k].x, h->verts[k].y, h->verts[k].z };
        for (f = 0; f < a->nfaces; ++f) cr_assert(dp_eval(&pa[f], x) <= tol, "vertex outside A by %g", dp_eval(&pa[f], x));
        for (f = 0; f < b->nfaces; ++f) cr_assert(dp_eval(&pb[f], x) <= tol, "vertex outside B by %g", dp_eval(&pb[f], x));
    }
}

/* Relative volume tolerance: 1e-10 in double (the bound promised for the polar intersection),
   ~2e-4 in float. */
#define VOL_RTOL ((double)(TU_FLOAT ? 2e3 : 4.5e5) * (double)TU_EPS)

/* One pair of bodies of extent about 1 against the brute-force oracle. Returns 1 when the
   pair overlapped. */
static int check_pair(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, int check_vertices) {
    ct_hull x;
    double L = 1.0;
    dplane pl[512];
    int m, overl = 0;
    oracle o;
    ct_status st;
    m = pair_planes(a, xa, b, xb, pl);
    o = brute_oracle(pl, m, L);
    st = ct_intersect(a, xa, b, xb, NULL, NULL, &x);
    cr_assert_eq(st, CT_OK);
    if (o.vol > 1e-3) {
        double v = (double)ct_hull_volume(&x, NULL);
        overl = 1;
        cr_assert_gt(x.nfaces, 0, "missed an overlap of volume %g", o.vol);
        /* 1e-10 relative; where three planes meet at a grazing angle (|det| of their normals
           small) the vertex moves by ~eps/|det| under the rounding of the transformed planes,
           in the brute force as much as here, sweeping that times the surface */
        double tol = VOL_RTOL * o.vol + 1e2 * (double)TU_EPS / o.worst_det * o.area;
        cr_assert(fabs(v - o.vol) <= tol, "volume %.17g vs brute force %.17g (rel %g, worst |det| %g)", v, o.vol,
                  fabs(v - o.vol) / o.vol, o.worst_det);
        /* vertices where nearly concurrent planes meet are off the extra planes by up to the dual
           hull's merge tolerance mapped back (1e5 ulps of the extent), and a vertex of planes
           meeting at a grazing angle is only defined to ~eps/|det| */
        check_structure(&x, a, xa, b, xb, 1e5 * (double)TU_EPS + 1e2 * (double)TU_EPS / o.worst_det);
        if (check_vertices) {
            int i, k;
            /* vertices where nearly concurrent planes meet are ill-conditioned, both here and
               in the brute force (whose vertices are good to ~eps/|det| of their triple), and
               a cluster of brute-force vertices closer than the dual hull's merge tolerance
               is one vertex here: 1e6 ulps of the extent (a stress run of 20,000 pairs saw
               3.3e-11 at worst) */
            double tol = 1e6 * (double)TU_EPS;
            for (k = 0; k < x.nverts; ++k) {
                double best = 1e300, bt = tol;
                for (i = 0; i < o.npts; ++i) {
                    double dd = vdist_d(o.pts + 3 * i, x.verts[k]);
                    if (dd < best) { best = dd; bt = tol + 1e2 * DBL_EPSILON / o.det[i]; }
                }
                cr_assert(best <= bt, "vertex %d is %g from every brute-force vertex", k, best);
            }
            for (i = 0; i < o.npts; ++i) {
                double best = 1e300;
                for (k = 0; k < x.nverts; ++k) best = fmin(best, vdist_d(o.pts + 3 * i, x.verts[k]));
                cr_assert(best <= tol + 1e2 * DBL_EPSILON / o.det[i], "brute-force vertex %d (|det| %g) is %g from every output vertex",
                          i, o.det[i], best);
            }
        }
    } else if (o.vol == 0 && o.npts == 0) {
        cr_assert_eq(x.nfaces, 0, "reported an intersection of disjoint bodies");
    }
    free(o.pts);
    free(o.det);
    free(o.tri);
    ct_hull_free(&x);
    return overl;
}

/* One random pair against the brute-force oracle. Returns 1 when the pair overlapped. */
static int check_random_pair(unsigned long long *seed, int nv, int check_vertices) {
    ct_hull a, b;
    ct_xform xa = tu_random_xform(seed, 2), xb;
    ct_vec3 dir = tu_random_unit(seed);
    double off = 1.6 * tu_uniform(seed);
    int overl;
    a = random_hull(seed, nv, 1.0, 0.6 + 0.4 * tu_uniform(seed), 0.6 + 0.4 * tu_uniform(seed));
    b = random_hull(seed, nv, 0.5 + 0.5 * tu_uniform(seed), 1.0, 0.5 + 0.5 * tu_uniform(seed));
    xb = tu_random_xform(seed, 0);
    xb.p = tu_vec(xa.p.x + off * dir.x, xa.p.y + off * dir.y, xa.p.z + off * dir.z);
    overl = check_pair(&a, &xa, &b, &xb, check_vertices);
    ct_hull_free(&a);
    ct_hull_free(&b);
    return overl;
}

#define SKIP_WITHOUT_QHULL()                                                   \
    do {                                                                       \
        if (!HAVE_QHULL) cr_skip_test("qhull (libqhull-dev) is not installed"); \
    } while (0)
#ifdef CT_HAVE_QHULL
#define HAVE_QHULL 1
#else
#define HAVE_QHULL 0
#endif

/* ---- brute force ---------------------------------------------------------------------- */
Test(polar, random_pairs_match_brute_force) {
    unsigned long long seed = 20261122;
    int i, hits = 0;
    SKIP_WITHOUT_QHULL();
    for (i = 0; i < 2000; ++i) hits += check_random_pair(&seed, 5 + i % 10, i < 200);
    cr_assert_gt(hits, 800, "too few overlapping pairs (%d) to mean anything", hits);
}

Test(polar, random_20_vertex_pairs_match_brute_force) {
    unsigned long long seed = 77;
    int i, hits = 0;
    SKIP_WITHOUT_QHULL();
    for (i = 0; i < 60; ++i) hits += check_random_pair(&seed, 20, 1);
    cr_assert_gt(hits, 20);
}

/* Plane culling (ct__polar_filter drops every plane the other body stays strictly inside):
   small bodies across the surface of a large one, where most of the large body's planes are
   dropped by the exact support test and the rest decide. Any facet dropped by mistake shows as
   a volume or vertex mismatch against the brute force over all planes; both argument orders,
   so both bodies' planes are culled. */
Test(polar, plane_culling_matches_brute_force) {
    unsigned long long seed = 5150;
    int i, hits = 0;
    SKIP_WITHOUT_QHULL();
    for (i = 0; i < 300; ++i) {
        ct_hull a = random_hull(&seed, 8 + i % 13, 1.0, 0.6 + 0.4 * tu_uniform(&seed), 0.6 + 0.4 * tu_uniform(&seed)), b;
        ct_xform xa = tu_random_xform(&seed, 2), xb = tu_random_xform(&seed, 0);
        double r = 0.05 + 0.45 * tu_uniform(&seed), s = 2.4 * tu_uniform(&seed) - 1.2, in[3], at[3];
        ct_vec3 v = a.verts[(int)(tu_uniform(&seed) * a.nverts)], dir = tu_random_unit(&seed);
        if (i % 2) {   /* a point on a face instead of a vertex: the mean of its vertices */
            int f = (int)(tu_uniform(&seed) * a.nfaces), k, cnt = a.face_first[f + 1] - a.face_first[f];
            v = tu_vec(0, 0, 0);
            for (k = a.face_first[f]; k < a.face_first[f + 1]; ++k) {
                ct_vec3 w = a.verts[a.face_verts[k]];
                v = tu_vec(v.x + w.x / cnt, v.y + w.y / cnt, v.z + w.z / cnt);
            }
        }
        b = random_hull(&seed, 5 + i % 16, r, 0.5 + 0.5 * tu_uniform(&seed), 1.0);
        in[0] = v.x; in[1] = v.y; in[2] = v.z;
        xf_apply_d(&xa, in, at);
        xb.p = tu_vec(at[0] + s * r * dir.x, at[1] + s * r * dir.y, at[2] + s * r * dir.z);
        hits += check_pair(&a, &xa, &b, &xb, i < 100);
        check_pair(&b, &xb, &a, &xa, 0);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_assert_gt(hits, 120, "too few overlapping pairs (%d) to mean anything", hits);
}

/* One body strictly inside the other: the intersection is that body, face for face (its
   vertices, faces and twins are copied, with no dual hull), tagged with its own planes, and
   the brute force agrees; also placed far from the origin. */
Test(polar, body_inside_the_other_is_itself) {
    unsigned long long seed = 31337;
    int i, done = 0;
    SKIP_WITHOUT_QHULL();
    for (i = 0; i < 200 && done < 60; ++i) {
        ct_hull a = random_hull(&seed, 20, 1.0, 1, 1), b = random_hull(&seed, 6 + i % 15, 0.2, 1, 0.7), x;
        ct_xform xa = tu_random_xform(&seed, i % 3 ? 2 : 1e3), xb = tu_random_xform(&seed, 0);
        ct_vec3 off = tu_random_unit(&seed);
        const ct_hull *h1, *h2;
        const ct_xform *x1, *x2;
        dplane pa[64];
        double cen[3], at[3], worst = -1e300, vb, tol;
        int k, f, swap = i % 2;
        cen[0] = 0.3 * tu_uniform(&seed) * off.x; cen[1] = 0.3 * tu_uniform(&seed) * off.y; cen[2] = 0.3 * tu_uniform(&seed) * off.z;
        xf_apply_d(&xa, cen, at);
        xb.p = tu_vec(at[0], at[1], at[2]);
        world_planes(&a, &xa, pa);
        for (k = 0; k < b.nverts; ++k) {   /* strictly inside: every vertex of B below every plane of A */
            double p3[3] = { b.verts[k].x, b.verts[k].y, b.verts[k].z }, w[3];
            xf_apply_d(&xb, p3, w);
            for (f = 0; f < a.nfaces; ++f) worst = fmax(worst, dp_eval(&pa[f], w));
        }
        if (!(worst < -1e-3)) { ct_hull_free(&a); ct_hull_free(&b); continue; }
        ++done;
        /* swapped: the inner body B is passed first, so its planes are the first body's (tags >= 0) */
        h1 = swap ? &b : &a; x1 = swap ? &xb : &xa;
        h2 = swap ? &a : &b; x2 = swap ? &xa : &xb;
        cr_assert_eq(ct_intersect(h1, x1, h2, x2, NULL, NULL, &x), CT_OK);
        cr_assert_eq(x.nverts, b.nverts, "vertices %d, B has %d", x.nverts, b.nverts);
        cr_assert_eq(x.nfaces, b.nfaces);
        for (f = 0; f < x.nfaces; ++f) cr_assert(swap ? x.face_tag[f] == f : x.face_tag[f] == -f - 1, "face %d tag %d", f, x.face_tag[f]);
        vb = (double)ct_hull_volume(&b, NULL);
        tol = (TU_FLOAT ? 1e3 : 1e4) * (double)TU_EPS * (1 + (i % 3 ? 2 : 1e3) / 0.2) * vb;
        cr_assert(fabs((double)ct_hull_volume(&x, NULL) - vb) <= tol, "volume %g vs B's %g", (double)ct_hull_volume(&x, NULL), vb);
        check_structure(&x, h1, x1, h2, x2, (TU_FLOAT ? 1e2 : 1e4) * (double)TU_EPS * (1 + (i % 3 ? 2 : 1e3)));
        ct_hull_free(&x);
        if (i % 3) check_pair(&a, &xa, &b, &xb, 1);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_assert_geq(done, 60, "only %d contained placements", done);
}

/* Hulls of the fuzzer's points (its hull vertices, printed by FZ_DEBUG builds). */
static void fuzz_hulls(const double (*pa)[3], int na, const double (*pb)[3], int nb, ct_hull *a, ct_hull *b) {
    ct_vec3 va[32], vb[32];
    int i;
    cr_assert(na <= 32 && nb <= 32);
    for (i = 0; i < na; ++i) va[i] = tu_vec(pa[i][0], pa[i][1], pa[i][2]);
    for (i = 0; i < nb; ++i) vb[i] = tu_vec(pb[i][0], pb[i][1], pb[i][2]);
    cr_assert_eq(ct_hull_build(va, na, NULL, NULL, a), CT_OK);
    cr_assert_eq(ct_hull_build(vb, nb, NULL, NULL, b), CT_OK);
}

/* A n B of two hulls built from the given points (the fuzzer's hull vertices) has every vertex
   inside both bodies' planes within 1e-9 of the size, and the contact has area, volume >= 0,
   gap <= 0. */
static void check_fuzz_pair(const double (*pa)[3], int na, const ct_xform *xa, const double (*pb)[3], int nb) {
    ct_hull a, b, x;
    ct_contact c;
    dplane pla[64], plb[64];
    double L, worst = -1e300;
    int i, f;
    fuzz_hulls(pa, na, pb, nb, &a, &b);
    L = (double)a.extent + (double)b.extent;
    cr_assert_eq(ct_intersect(&a, xa, &b, NULL, NULL, NULL, &x), CT_OK);
    cr_assert_gt(x.nfaces, 0);
    world_planes(&a, xa, pla);
    world_planes(&b, NULL, plb);
    for (i = 0; i < x.nverts; ++i) {
        double p3[3] = { x.verts[i].x, x.verts[i].y, x.verts[i].z };
        for (f = 0; f < a.nfaces; ++f) worst = fmax(worst, dp_eval(&pla[f], p3));
        for (f = 0; f < b.nfaces; ++f) worst = fmax(worst, dp_eval(&plb[f], p3));
    }
    cr_assert(worst <= 1e-9 * L, "a vertex of A n B is %g outside A or B (size %g)", worst, L);
    cr_assert_eq(ct_contact_hulls(&a, xa, &b, NULL, NULL, &c), CT_OK);
    cr_assert_eq(c.found, 1);
    cr_assert(c.area >= 0 && c.volume >= 0 && c.gap <= 0, "area %g volume %g gap %g", c.area, c.volume, c.gap);
    ct_hull_free(&x);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* The fuzzer's 11-vertex lattice body (size 1.3e-5) that two of the regressions below share. */
static const double fuzz_lattice11[11][3] = {
    { -3.0000000000000001e-06, 1.9999999999999999e-06, 4.9999999999999996e-06 },
    { 6.9999999999999999e-06, 9.9999999999999995e-07, 6.9999999999999999e-06 },
    { -6.9999999999999999e-06, 6.9999999999999999e-06, -7.9999999999999996e-06 },
    { 4.9999999999999996e-06, -9.9999999999999995e-07, 7.9999999999999996e-06 },
    { -7.9999999999999996e-06, -7.9999999999999996e-06, 3.0000000000000001e-06 },
    { -7.9999999999999996e-06, -1.9999999999999999e-06, -3.0000000000000001e-06 },
    { -4.9999999999999996e-06, -7.9999999999999996e-06, -7.9999999999999996e-06 },
    { -7.9999999999999996e-06, -7.9999999999999996e-06, 4.9999999999999996e-06 },
    { 1.9999999999999999e-06, -7.9999999999999996e-06, -4.9999999999999996e-06 },
    { 7.9999999999999996e-06, 0, -3.9999999999999998e-06 },
    { 6.0000000000000002e-06, -1.9999999999999999e-06, -7.9999999999999996e-06 } };

/* fuzz_polar, regress_polar_needle_stray_planes: B a needle (three of its four points within
   1e-14 of each other), whose face planes stray far from its vertices. The filter, judging B
   by its vertices, set aside planes of A that B's planes cross, and A n B came out with a
   vertex 35% of the size outside A and a negative area. Now an ill-conditioned vertex makes
   every plane be checked, and the dual hull is redone with every plane. Double only (in
   float the needle is flat and B no hull). */
Test(polar, needle_with_stray_planes_stays_inside_both) {
    static const double pb[4][3] = {
        { -7.0000000458831783e-06, -7.0000000458068844e-06, -7.0000000458831783e-06 },
        { 3.0000000552917478e-06, 3.0000000552917478e-06, 3.0000000552917478e-06 },
        { -7.0000000380706784e-06, -7.0000000458831783e-06, -7.0000000458831783e-06 },
        { -7.0000000458831783e-06, -7.0000000458831783e-06, -7.0000000458618162e-06 } };
    ct_xform xa = ct_xform_identity();
    if (TU_FLOAT) cr_skip_test("the needle is flat in float");
    memset(&xa.r, 0, sizeof xa.r);
    xa.r[0][2] = xa.r[1][0] = xa.r[2][1] = 1;
    xa.p = tu_vec(2.2116699218749998e-06, 2.2116699218749998e-06, 2.2116699218749998e-06);
    check_fuzz_pair(fuzz_lattice11, 11, &xa, pb, 4);
}

/* fuzz_polar, regress_polar_needle_hidden_plane: A a needle 2.4e7 long at 1e7 from the origin
   (its hull's volume comes out negative), B a 9-vertex body. The dual points of the culled
   plane set left planes of B that were kept off the dual hull (its tolerance follows the
   largest dual points): vertices 7% of the size outside B, negative area. The same check as
   above redoes the dual hull with every plane. Double only. */
Test(polar, needle_with_hidden_plane_stays_inside_both) {
    static const double pa[4][3] = {
        { -8000000.0851562498, -8000000.0999999996, -7999999.9007659918 },
        { -7999999.9000030514, -7999999.9007995604, -7999999.9000030514 },
        { 4999999.9768615719, 4999999.9771820074, 4999999.9768615719 },
        { -1999999.9752960205, -1999999.9752960205, -1999999.9752960205 } };
    static const double pb[9][3] = {
        { 7856460.5712890625, 5940460.205078125, -7867141.7236328125 },
        { 8362731.93359375, -7700805.6640625, -8335876.46484375 },
        { 4629013.0615234375, 7856460.5712890625, -8469696.044921875 },
        { 4799560.546875, -8253860.4736328125, -4500793.45703125 },
        { 6640625, 8296066.2841796875, 8296066.2841796875 },
        { -7229415.8935546875, -7229415.8935546875, -7229415.8935546875 },
        { -6639572.1435546875, 7770095.8251953125, 3632263.18359375 },
        { -7229034.423828125, -6768478.3935546875, 8123519.8974609375 },
        { -2496902.4658203125, -2488281.25, -8411376.953125 } };
    if (TU_FLOAT) cr_skip_test("the needle is flat in float");
    check_fuzz_pair(pa, 4, NULL, pb, 9);
}

/* fuzz_polar, regress_polar_sliding_vertex (the open defect of main: "an ill-conditioned
   vertex outside A beyond tolerance"): two lattice bodies with faces 1e-7 off coplanar, where
   a dual face merges four planes that nearly share a line (best triple determinant 1e-8). The
   triple's point slid along that line 4e-3 out of both bodies; the dual face plane, fitted to
   all four, places it inside. */
Test(polar, nearly_collinear_planes_place_their_vertex_inside) {
    static const double pa[9][3] = {
        { -7.9999999006256104, -8.0000000976593011, -6.9999999000030515 },
        { -7.9999999000030515, -8.0000000343780524, 7.0000000994720457 },
        { -8.0000000996032714, -8.0000000999999994, -7.9999999000030515 },
        { 2.0000000193725587, -8.0000000993774414, 8.0000000944213863 },
        { -2.0000000019622801, -8.0000000992218023, -8.0000000910247806 },
        { -8.0000000999999994, -8.0000000929718009, -8.0000000999999994 },
        { -4.0000000740905763, 8.0000000999755851, -7.0000000303619387 },
        { 7.1975708007812498e-08, 1.9999999945281983, -8.0000000984405517 },
        { 3.0000000328460694, -6.000000099609375, -7.9999999000030515 } };
    static const double pb[12][3] = {
        { -4.0000000719848634, -6.0000000998901371, -7.9999999007812503 },
        { -2.0000000019622801, -2.0000000019622801, -8.000000073318482 },
        { 8.0000000599975589, -7.9999999280242919, 2.0000000992218019 },
        { -8.0000000349029534, -8.0000000677154546, -7.9999999000030515 },
        { -8.0000000999755851, -8.0000000023437501, 3.0000000328460694 },
        { -8.0000000999999994, -7.9999999000030515, -7.9999999000030515 },
        { -2.0000000019622801, -2.0000000019622801, -1.9999999988372803 },
        { -7.9999999000030515, -8.0000000486297616, -4.0000000740905763 },
        { -7.9999999122650145, -5.9999999117675777, -5.9999999117675777 },
        { -7.0000000717163084, -8.0000000999999994, -8.0000000328094476 },
        { -8.0000000996337892, -7.9999999007781986, -7.9999999006256104 },
        { -7.0000000325500489, -7.0000000325500489, -8.0000000915985101 } };
    if (TU_FLOAT) cr_skip_test("faces 1e-7 off coplanar are coplanar in float");
    check_fuzz_pair(pa, 9, NULL, pb, 12);
}

static void xform_rows(const double r[3][4], ct_xform *x) {
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) x->r[i][j] = (ct_real)r[i][j];
    x->p = tu_vec(r[0][3], r[1][3], r[2][3]);
}

/* A sliver and a body (hulls from the fuzzer's points, transforms NULL allowed). GJK on the
   vertices is the oracle: overlapping (distance 0), the contact is found with zero volume;
   clearly apart (above sqrt(eps) of the size), it is not found, whatever the LP made of the
   sliver's stray planes. */
static void check_sliver_contact(const double (*pa)[3], int na, const ct_xform *xa, const double (*pb)[3], int nb,
                                 const ct_xform *xb, int overlapping) {
    ct_hull a, b, x;
    ct_contact c;
    ct_shape sa, sb;
    ct_distance d;
    double L, L3;
    fuzz_hulls(pa, na, pb, nb, &a, &b);
    L = (double)a.extent + (double)b.extent;
    L3 = L * L * L;
    sa = ct_shape_hull(&a);
    sb = ct_shape_hull(&b);
    cr_assert_eq(ct_gjk(&sa, xa, &sb, xb, NULL, &d), CT_OK);
    if (overlapping) cr_assert_eq(d.distance, 0, "the oracle: GJK sees the vertex hulls overlap");
    else cr_assert_gt(d.distance, sqrt((double)TU_EPS) * L, "the oracle: apart");
    cr_assert_eq(ct_contact_hulls(&a, xa, &b, xb, NULL, &c), CT_OK);
    cr_assert_eq(c.found, overlapping, "found %d, GJK distance %g", c.found, (double)d.distance);
    if (overlapping) {
        cr_assert(c.gap <= 0 && c.area >= 0 && c.volume >= 0 && c.volume <= 1e-9 * L3);
        cr_assert(fabs(c.normal.x * c.normal.x + c.normal.y * c.normal.y + c.normal.z * c.normal.z - 1) <= 1e-9);
    }
    cr_assert_eq(ct_intersect(&a, xa, &b, xb, NULL, NULL, &x), CT_OK);
    cr_assert(x.nfaces == 0 || (overlapping && (double)ct_hull_volume(&x, NULL) <= 1e-9 * L3));
    ct_hull_free(&x);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* fuzz_polar with its sliver cross-check on (main's open defect: "a body ~1e-13 of its
   extent thick across another reported disjoint"): B a tetrahedron 1e-17 thick at size 1.5e-5
   (two faces 1e-12 rad from opposite) lying 10% of its size deep across A. The Chebyshev LP
   cannot resolve the wedge of its nearly opposite planes and found r = -2.7e-13, below the
   touching band: "disjoint". A disjoint verdict is now confirmed by the vertices along the
   LP's separating normal, else decided by GJK on the vertices, which sees the overlap: a
   zero-volume contact, found. Double only (in float the slivers are flat). */
Test(polar, sliver_across_a_body_is_found) {
    static const double pb[4][3] = {
        { -7.0000000458831783e-06, -7.0000000458831783e-06, -7.0000000458831783e-06 },
        { -7.0000000458831783e-06, 9.999999541168213e-07, -7.0000000458831783e-06 },
        { -4.9999999277770992e-06, 8.0000000600463872e-06, 7.9999999006225588e-06 },
        { -7.0000000458831783e-06, -7.0000000458831783e-06, -7.0000000458068844e-06 } };
    static const double ra[3][4] = {
        { -0.0046224504696894542, -0.0045349736539931906, -0.99997903326300452, -4.5883178710937499e-07 },
        { 0.99997872941320609, -0.0046224504696894542, -0.0046014859345038239, -4.5883178710937499e-07 },
        { -0.0046014859345038239, -0.99997903326300452, 0.004556244240787044, -4.5883178710937499e-07 } };
    static const double rb[3][4] = {
        { -0.10024816335130859, -0.61104726177624014, 0.78522070121746568, 6.0046386718749997e-07 },
        { 0.99376201152272192, -0.10024816335130859, 0.048860722456825489, -9.9377441406249987e-07 },
        { 0.048860722456825489, 0.78522070121746568, 0.61728525025351821, -7.1899414062500001e-08 } };
    ct_xform xa, xb;
    if (TU_FLOAT) cr_skip_test("the sliver is flat in float");
    xform_rows(ra, &xa);
    xform_rows(rb, &xb);
    check_sliver_contact(fuzz_lattice11, 11, &xa, pb, 4, &xb, 1);
}

/* The same harness: B a tetrahedron whose two big faces are 1.5e-10 rad from opposite, 7% of
   the size deep across A (EPA depth 1e-6 at size 1.5e-5); the LP reported r = -0.045 of the
   size, far outside any band - only the vertex check of its certificate catches it. */
Test(polar, sliver_wedge_misjudged_by_the_lp_is_found) {
    static const double pa[11][3] = {
        { 4.9999999999999996e-06, -6.0000000000000002e-06, 7.9999999999999996e-06 },
        { 1.9999999999999999e-06, -7.9999999999999996e-06, -4.9999999999999996e-06 },
        { 6.0000000000000002e-06, -1.9999999999999999e-06, -7.9999999999999996e-06 },
        { -4.9999999999999996e-06, -7.9999999999999996e-06, -7.9999999999999996e-06 },
        { -7.9999999999999996e-06, 0, -7.9999999999999996e-06 },
        { -6.9999999999999999e-06, 6.9999999999999999e-06, -7.9999999999999996e-06 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, 0 },
        { 7.9999999999999996e-06, 1.9999999999999999e-06, 4.9999999999999996e-06 },
        { -7.9999999999999996e-06, -7.9999999999999996e-06, 3.0000000000000001e-06 },
        { 4.9999999999999996e-06, -9.9999999999999995e-07, 7.9999999999999996e-06 },
        { 6.9999999999999999e-06, 9.9999999999999995e-07, 6.9999999999999999e-06 } };
    static const double pb[4][3] = {
        { -7.0000000646331784e-06, -7.0000000458831783e-06, -7.0000000458831783e-06 },
        { -7.0000000458831783e-06, 9.999999541168213e-07, -7.0000000458831783e-06 },
        { 7.9999999891754149e-06, 8.0000000725463861e-06, -7.9999999401611318e-06 },
        { -7.0000000458831783e-06, -7.0000000458831783e-06, -7.0000000458831783e-06 } };
    if (TU_FLOAT) cr_skip_test("the sliver is flat in float");
    check_sliver_contact(pa, 11, NULL, pb, 4, NULL, 1);
}

/* fuzz_polar (sliver cross-check on): a sliver tetrahedron 4e-8 (3.6e-3 of its size) from A,
   which the LP over its stray planes called touching (r = -6e-14). Rebuilt from its printed
   vertices the sliver's planes come out a little differently and the LP is right anyway, so
   this is an oracle check of the pair, not a replay (the float case below is). Double only. */
Test(polar, sliver_apart_is_not_touching) {
    static const double pb[4][3] = {
        { -7.0000000458831783e-06, -7.0000000458831783e-06, -7.0000000458831783e-06 },
        { 8.0000000191528325e-06, -8.0000000460937488e-06, -7.0000000443206787e-06 },
        { -7.0000000458831783e-06, -7.0000000740081789e-06, -4.9999999277770992e-06 },
        { -7.0000000458831783e-06, -7.0000000458068844e-06, -7.0000000458831783e-06 } };
    static const double ra[3][4] = {
        { -0.45822927145790437, -0.48249346850591357, -0.7464757113451792, -4.5883178710937499e-07 },
        { 0.59861942855800054, 0.45327906203589619, -0.66044899248371258, -4.5883178710937499e-07 },
        { 0.65702413542582372, -0.74949192441879664, 0.081124230036146661, -4.5883178710937499e-07 } };
    ct_xform xa;
    if (TU_FLOAT) cr_skip_test("the sliver is flat in float");
    xform_rows(ra, &xa);
    check_sliver_contact(fuzz_lattice11, 11, &xa, pb, 4, NULL, 0);
}

/* fuzz_polar in float (main's polar.h fails it too): two tetrahedra 5.3e-8 (2.4e-3 of the
   size) apart, reported touching by the float LP. Float only. */
Test(polar, float_pair_apart_is_not_touching) {
    static const double pa[4][3] = {
        { -7.9999999798019417e-06, -7.9999999798019417e-06, -7.9999999798019417e-06 },
        { 7.9999999798019417e-06, -7.0000000960135367e-06, -6.0000002122251317e-06 },
        { 6.0000002122251317e-06, -9.9999999747524271e-07, 7.0000000960135367e-06 },
        { -6.0000002122251317e-06, -3.9999999899009708e-06, 0 } };
    static const double pb[4][3] = {
        { -7.9999999798019417e-06, -7.0000000960135367e-06, -7.9999999798019417e-06 },
        { -7.9999999798019417e-06, -3.9999999899009708e-06, 7.9999999798019417e-06 },
        { 6.0000002122251317e-06, -3.9999999899009708e-06, 0 },
        { 1.9999999949504854e-06, -4.9999998736893758e-06, 1.9999999949504854e-06 } };
    static const double ra[3][4] = {
        { -0.10184407234191895, 0.18684989213943481, 0.97709512710571289, -2.9736327178397914e-07 },
        { 0.9689369797706604, 0.24114155769348145, 0.054880261421203613, -1.9999999949504854e-06 },
        { -0.22536388039588928, 0.95233285427093506, -0.20560455322265625, -5.8703614058686071e-07 } };
    static const double rb[3][4] = {
        { -0.23220181465148926, -0.91805922985076904, 0.32132479548454285, -4.909057338409184e-07 },
        { -0.3141426146030426, -0.2418663501739502, -0.91804957389831543, 2.7716063755178766e-07 },
        { 0.92054152488708496, -0.31411457061767578, -0.23223972320556641, -2.9690551173189306e-07 } };
    ct_xform xa, xb;
    if (!TU_FLOAT) cr_skip_test("the fuzzer's rotations are rigid to float precision only");
    xform_rows(ra, &xa);
    xform_rows(rb, &xb);
    check_sliver_contact(pa, 4, &xa, pb, 4, &xb, 0);
}

/* ---- closed forms ----------------------------------------------------------------------- */
static void check_offset_cubes(const ct_xform *frame) {
    ct_hull a = box_hull(0.5, 0.5, 0.5), b = box_hull(0.5, 0.5, 0.5), x;
    ct_xform ta = ct_xform_identity(), tb = xf_trans(0.5, 0, 0), xa = xf_mul(frame, &ta), xb = xf_mul(frame, &tb);
    ct_contact c;
    ct_vec3 ex, pt;
    double tol = 64 * (double)TU_EPS * 8 * (1 + fabs(frame->p.x) + fabs(frame->p.y) + fabs(frame->p.z));
    cr_assert_eq(ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c), CT_OK);
    ex = tu_vec(frame->r[0][0], frame->r[1][0], frame->r[2][0]);          /* frame's x axis */
    pt = tu_vec(frame->r[0][0] * 0.25 + frame->p.x, frame->r[1][0] * 0.25 + frame->p.y, frame->r[2][0] * 0.25 + frame->p.z);
    cr_assert_eq(c.found, 1);
    cr_assert(fabs(c.volume - 0.5) <= tol, "volume %g", c.volume);
    cr_assert(fabs(c.area - 2) <= tol, "area %g", c.area);
    cr_assert(fabs(c.gap + 0.5) <= tol, "gap %g", c.gap);
    cr_assert(fabs(c.normal.x - ex.x) + fabs(c.normal.y - ex.y) + fabs(c.normal.z - ex.z) <= tol, "normal");
    cr_assert(fabs(c.point.x - pt.x) + fabs(c.point.y - pt.y) + fabs(c.point.z - pt.z) <= tol, "point");
    cr_assert(fabs(c.centroid.x - pt.x) + fabs(c.centroid.y - pt.y) + fabs(c.centroid.z - pt.z) <= tol, "centroid");
    /* the nearest faces are A's +x face and B's -x face */
    cr_assert(a.planes[c.face_a].n.x > 0.99, "face_a");
    cr_assert(b.planes[c.face_b].n.x < -0.99, "face_b");
    cr_assert_eq(ct_intersect(&a, &xa, &b, &xb, NULL, NULL, &x), CT_OK);
    cr_assert_eq(x.nfaces, 6);
    cr_assert_eq(x.nverts, 8);
    cr_assert(fabs(ct_hull_volume(&x, NULL) - 0.5) <= tol);
    check_structure(&x, &a, &xa, &b, &xb, tol);
    {   /* flush side faces are tagged with A's planes */
        int f, na = 0;
        for (f = 0; f < 6; ++f) na += x.face_tag[f] >= 0;
        cr_assert_eq(na, 5, "5 faces on A (4 flush + the +x face), got %d", na);
    }
    ct_hull_free(&x);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

Test(polar, unit_cubes_offset_half) {
    ct_xform id = ct_xform_identity();
    unsigned long long seed = 5;
    int i;
    check_offset_cubes(&id);
    for (i = 0; i < 60; ++i) {   /* the last ten far from the origin (1e6; 1e2 in float) */
        ct_xform f = tu_random_xform(&seed, i < 50 ? 3 : (TU_FLOAT ? 1e2 : 1e6));
        check_offset_cubes(&f);
    }
}

Test(polar, containment_and_identical_bodies) {
    unsigned long long seed = 9;
    ct_hull a = random_hull(&seed, 30, 1, 1, 1), small = box_hull(0.1, 0.2, 0.15), x;
    ct_xform xs = tu_random_xform(&seed, 0.05);
    ct_contact c;
    double va = ct_hull_volume(&a, NULL);
    int f;
    /* B inside A: the intersection is B */
    cr_assert_eq(ct_intersect(&a, NULL, &small, &xs, NULL, NULL, &x), CT_OK);
    cr_assert_eq(x.nfaces, 6);
    cr_assert(fabs(ct_hull_volume(&x, NULL) - 0.2 * 0.4 * 0.3) <= 1e3 * TU_EPS * 0.024);
    for (f = 0; f < 6; ++f) cr_assert_lt(x.face_tag[f], 0, "every face is on B");
    ct_hull_free(&x);
    /* A inside B (swapped) */
    cr_assert_eq(ct_intersect(&small, &xs, &a, NULL, NULL, NULL, &x), CT_OK);
    for (f = 0; f < x.nfaces; ++f) cr_assert_geq(x.face_tag[f], 0, "every face is on A");
    ct_hull_free(&x);
    /* identical bodies: the body itself, every face tagged with A */
    cr_assert_eq(ct_intersect(&a, NULL, &a, NULL, NULL, NULL, &x), CT_OK);
    cr_assert_eq(x.nfaces, a.nfaces);
    cr_assert(fabs(ct_hull_volume(&x, NULL) - va) <= 1e3 * TU_EPS * va);
    for (f = 0; f < x.nfaces; ++f) cr_assert_geq(x.face_tag[f], 0);
    ct_hull_free(&x);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &a, NULL, NULL, &c), CT_OK);
    cr_assert_eq(c.found, 1);
    cr_assert(fabs(c.volume - va) <= 1e3 * TU_EPS * va);
    cr_assert(isfinite(c.normal.x) && fabs(c.normal.x * c.normal.x + c.normal.y * c.normal.y + c.normal.z * c.normal.z - 1) < 1e-3);
    ct_hull_free(&a);
    ct_hull_free(&small);
}

Test(polar, disjoint_bodies) {
    ct_hull a = box_hull(0.5, 0.5, 0.5), x;
    ct_xform xb = xf_trans(1.0 + 1e-3, 0.2, 0);
    ct_contact c;
    cr_assert_eq(ct_intersect(&a, NULL, &a, &xb, NULL, NULL, &x), CT_OK);
    cr_assert_eq(x.nfaces, 0);
    ct_hull_free(&x);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &a, &xb, NULL, &c), CT_OK);
    cr_assert_eq(c.found, 0);
    ct_hull_free(&a);
}

/* ---- touching ---------------------------------------------------------------------------- */
Test(polar, touching_face_edge_vertex) {
    ct_hull a = box_hull(0.5, 0.5, 0.5), x;
    ct_contact c;
    double tol = 1e3 * (double)TU_EPS;
    /* face on face, offset laterally: the overlap rectangle */
    ct_xform xb = xf_trans(0.3, -0.2, 1.0);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &a, &xb, NULL, &c), CT_OK);
    cr_assert_eq(c.found, 1);
    cr_assert_eq(c.volume, 0);
    cr_assert_eq(c.gap, 0);
    cr_assert(fabs(c.normal.z - 1) <= tol, "normal %g %g %g", c.normal.x, c.normal.y, c.normal.z);
    cr_assert(fabs(c.area - 0.7 * 0.8) <= tol, "area %g", c.area);
    cr_assert(fabs(c.point.x - 0.15) <= tol && fabs(c.point.y + 0.1) <= tol && fabs(c.point.z - 0.5) <= tol,
              "point %g %g %g", c.point.x, c.point.y, c.point.z);
    cr_assert(a.planes[c.face_a].n.z > 0.99 && a.planes[c.face_b].n.z < -0.99);
    cr_assert_eq(ct_intersect(&a, NULL, &a, &xb, NULL, NULL, &x), CT_OK);
    cr_assert_eq(x.nfaces, 0);
    ct_hull_free(&x);
    /* edge on face: B turned 45 degrees about x, its lowest edge on A's top face */
    xb = ct_xform_from_axis_angle(tu_vec(1, 0, 0), (ct_real)(atan(1.0)), tu_vec(0.2, 0, 0.5 + sqrt(0.5)));
    cr_assert_eq(ct_contact_hulls(&a, NULL, &a, &xb, NULL, &c), CT_OK);
    cr_assert_eq(c.found, 1);
    cr_assert(c.area <= tol, "an edge has no area: %g", c.area);
    cr_assert(fabs(c.point.x - 0.1) <= 1e2 * tol && fabs(c.point.y) <= 1e2 * tol && fabs(c.point.z - 0.5) <= 1e2 * tol,
              "segment midpoint %g %g %g", c.point.x, c.point.y, c.point.z);
    cr_assert(c.normal.z > 0.99);
    /* vertex on face: B's corner (0.5,0.5,0.5) rotated to point straight down */
    {
        double ax[3] = { -1 / sqrt(2.0), 1 / sqrt(2.0), 0 }, ang = acos(-1 / sqrt(3.0));
        ct_xform r = ct_xform_from_axis_angle(tu_vec(ax[0], ax[1], ax[2]), (ct_real)ang, tu_vec(0, 0, 0));
        ct_vec3 corner = tu_vec(r.r[0][0] * 0.5 + r.r[0][1] * 0.5 + r.r[0][2] * 0.5, r.r[1][0] * 0.5 + r.r[1][1] * 0.5 + r.r[1][2] * 0.5,
                                r.r[2][0] * 0.5 + r.r[2][1] * 0.5 + r.r[2][2] * 0.5);
        cr_assert(corner.z < -0.86, "the corner points down (%g)", corner.z);
        r.p = tu_vec(0.1 - corner.x, 0.05 - corner.y, 0.5 - corner.z);
        cr_assert_eq(ct_contact_hulls(&a, NULL, &a, &r, NULL, &c), CT_OK);
        cr_assert_eq(c.found, 1);
        cr_assert(c.area <= tol);
        cr_assert(fabs(c.point.x - 0.1) <= 1e2 * tol && fabs(c.point.y - 0.05) <= 1e2 * tol && fabs(c.point.z - 0.5) <= 1e2 * tol,
                  "vertex %g %g %g", c.point.x, c.point.y, c.point.z);
    }
    ct_hull_free(&a);
}

/* ---- flush stacking ------------------------------------------------------------------------ */
Test(polar, flush_stacking_never_misses) {
    unsigned long long seed = 31337;
    ct_hull a = box_hull(0.5, 0.5, 0.5);
    int i, misses = 0;
    double lo = TU_FLOAT ? 1e-4 : 1e-9;
    for (i = 0; i < 3000; ++i) {
        double delta = lo * pow(0.1 / lo, tu_uniform(&seed));
        double dx = (i % 3 == 0) ? 0 : tu_uniform(&seed) - 0.5, dy = (i % 3 == 2) ? tu_uniform(&seed) - 0.5 : 0;
        ct_xform frame = (i & 1) ? tu_random_xform(&seed, 2) : ct_xform_identity();
        ct_xform tb = xf_trans(dx, dy, 1 - delta), xa = frame, xb = xf_mul(&frame, &tb);
        ct_contact c;
        double exact = delta * (1 - fabs(dx)) * (1 - fabs(dy)), area = (1 - fabs(dx)) * (1 - fabs(dy));
        double tol = 1e-10 * exact + 4e3 * (double)TU_EPS * area;
        cr_assert_eq(ct_contact_hulls(&a, &xa, &a, &xb, NULL, &c), CT_OK);
        if (!c.found) { ++misses; continue; }
        cr_assert(fabs(c.volume - exact) <= tol, "overlap %g dx %g dy %g: volume %.17g vs %.17g", delta, dx, dy, c.volume, exact);
        if (c.volume > 0) {
            /* the area^2 weights tilt the normal by O((delta/area)^2) towards the side faces;
               the chord through the point along it spans the slab */
            double nz = c.normal.x * frame.r[0][2] + c.normal.y * frame.r[1][2] + c.normal.z * frame.r[2][2];
            cr_assert(nz > 0.99, "normal is the stacking direction (%g)", nz);
            cr_assert(fabs(c.gap * nz + delta) <= tol / area, "gap %g vs %g", c.gap * nz, -delta);
        }
    }
    cr_assert_eq(misses, 0, "%d flush overlaps missed", misses);
    ct_hull_free(&a);
}

/* ---- invariance ------------------------------------------------------------------------- */
static ct_contact scaled_contact(const ct_vec3 *pa, const ct_vec3 *pb, int n, double s, double t) {
    ct_vec3 sa[64], sb[64];
    ct_hull a, b;
    ct_contact c;
    ct_xform xt = xf_trans(t, -t, 0.5 * t);
    int i;
    for (i = 0; i < n; ++i) {
        sa[i] = tu_vec(pa[i].x * s, pa[i].y * s, pa[i].z * s);
        sb[i] = tu_vec(pb[i].x * s, pb[i].y * s, pb[i].z * s);
    }
    a = hull_of(sa, n);
    b = hull_of(sb, n);
    cr_assert_eq(ct_contact_hulls(&a, &xt, &b, &xt, NULL, &c), CT_OK);
    cr_assert_eq(c.found, 1);
    ct_hull_free(&a);
    ct_hull_free(&b);
    return c;
}

Test(polar, scale_and_translation_invariance) {
    unsigned long long seed = 4242;
    ct_vec3 pa[20], pb[20];
    double xyz[60], scales[5] = { 1e-6, 1e-3, 1, 1e3, 1e6 }, T = TU_FLOAT ? 1e2 : 1e6;
    ct_contact ref;
    int i, k, pass;
    wl_sphere(xyz, 20, 1, &seed);
    for (i = 0; i < 20; ++i) pa[i] = tu_vec(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    wl_sphere(xyz, 20, 0.8, &seed);
    for (i = 0; i < 20; ++i) pb[i] = tu_vec(xyz[3 * i] + 0.9, xyz[3 * i + 1] + 0.3, xyz[3 * i + 2]);
    ref = scaled_contact(pa, pb, 20, 1, 0);
    cr_assert_gt(ref.volume, 0.01);
    for (pass = 0; pass < 2; ++pass)
        for (k = 0; k < 5; ++k) {
            double s = scales[k], t = pass ? T * s : 0, tol = 4e3 * (double)TU_EPS * (1 + (pass ? T : 0));
            ct_contact c = scaled_contact(pa, pb, 20, s, t);
            double vr = c.volume / (s * s * s), ar = c.area / (s * s), gr = c.gap / s;
            cr_assert(fabs(vr - ref.volume) <= tol * ref.volume, "scale %g shift %g: volume %.17g vs %.17g", s, t, vr, ref.volume);
            cr_assert(fabs(ar - ref.area) <= tol * ref.area, "scale %g shift %g: area %.17g vs %.17g", s, t, ar, ref.area);
            cr_assert(fabs(gr - ref.gap) <= tol, "scale %g shift %g: gap %.17g vs %.17g", s, t, gr, ref.gap);
            cr_assert(fabs(c.normal.x - ref.normal.x) + fabs(c.normal.y - ref.normal.y) + fabs(c.normal.z - ref.normal.z) <= tol,
                      "scale %g shift %g: normal", s, t);
            cr_assert(fabs((c.point.x - t) / s - ref.point.x) + fabs((c.point.y + t) / s - ref.point.y) +
                              fabs((c.point.z - 0.5 * t) / s - ref.point.z) <= tol, "scale %g shift %g: point", s, t);
            cr_assert_eq(c.face_a, ref.face_a);
            cr_assert_eq(c.face_b, ref.face_b);
        }
}

Test(polar, swap_symmetry) {
    unsigned long long seed = 606;
    int i, checked = 0;
    for (i = 0; i < 200; ++i) {
        ct_hull a = random_hull(&seed, 12, 1, 1, 0.7), b = random_hull(&seed, 16, 0.8, 0.9, 1);
        ct_xform xa = tu_random_xform(&seed, 1), xb = tu_random_xform(&seed, 1);
        ct_contact c1, c2;
        double tol = 1e4 * (double)TU_EPS;
        cr_assert_eq(ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c1), CT_OK);
        cr_assert_eq(ct_contact_hulls(&b, &xb, &a, &xa, NULL, &c2), CT_OK);
        cr_assert_eq(c1.found, c2.found);
        if (c1.found && c1.volume > 1e-3) {
            ++checked;
            cr_assert(fabs(c1.volume - c2.volume) <= tol * c1.volume);
            cr_assert(fabs(c1.area - c2.area) <= tol * c1.area);
            cr_assert(fabs(c1.gap - c2.gap) <= tol * 10);
            cr_assert(fabs(c1.normal.x + c2.normal.x) + fabs(c1.normal.y + c2.normal.y) + fabs(c1.normal.z + c2.normal.z) <= tol * 10,
                      "normal flips");
            cr_assert(fabs(c1.point.x - c2.point.x) + fabs(c1.point.y - c2.point.y) + fabs(c1.point.z - c2.point.z) <= tol * 10);
            cr_assert(fabs(c1.centroid.x - c2.centroid.x) + fabs(c1.centroid.y - c2.centroid.y) + fabs(c1.centroid.z - c2.centroid.z) <= tol * 10);
            cr_assert_eq(c1.face_a, c2.face_b);
            cr_assert_eq(c1.face_b, c2.face_a);
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_assert_gt(checked, 30);
}

/* ---- Monte Carlo ---------------------------------------------------------------------------- */
Test(polar, monte_carlo_volume) {
    unsigned long long seed = 1234;
    int k;
    for (k = 0; k < 4; ++k) {
        ct_hull a = random_hull(&seed, 25, 1, 1, 1), b = random_hull(&seed, 25, 1, 0.8, 1);
        ct_xform xb = xf_trans(0.7, 0.2 * k, 0);
        dplane pl[256];
        int m = pair_planes(&a, NULL, &b, &xb, pl), i, j, in = 0, N = 200000;
        double box = 0, p, sigma;
        ct_contact c;
        cr_assert_eq(ct_contact_hulls(&a, NULL, &b, &xb, NULL, &c), CT_OK);
        for (i = 0; i < N; ++i) {
            double x[3] = { -1 + 2 * tu_uniform(&seed), -1 + 2 * tu_uniform(&seed), -1 + 2 * tu_uniform(&seed) };
            int ok = 1;
            for (j = 0; j < m && ok; ++j) ok = dp_eval(&pl[j], x) <= 0;
            in += ok;
        }
        box = 8;
        p = (double)in / N;
        sigma = box * sqrt(p * (1 - p) / N);
        cr_assert(fabs(c.volume - box * p) <= 5 * sigma + 1e-9, "volume %g vs Monte Carlo %g +- %g", c.volume, box * p, sigma);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
}

/* ---- Solfec's regression inputs ----------------------------------------------------------- */
typedef struct cvi_body { int nv, np; double *v, *p; } cvi_body;

static int read_body(FILE *f, cvi_body *b) {
    int i;
    if (fscanf(f, "%d %d", &b->nv, &b->np) != 2 || b->nv < 4 || b->np < 4 || b->nv > 1000 || b->np > 1000) return 0;
    b->v = (double *)malloc(sizeof(double) * 3 * b->nv);
    b->p = (double *)malloc(sizeof(double) * 6 * b->np);
    for (i = 0; i < 3 * b->nv; ++i)
        if (fscanf(f, "%lf", &b->v[i]) != 1) return 0;
    for (i = 0; i < 6 * b->np; ++i)
        if (fscanf(f, "%lf", &b->p[i]) != 1) return 0;
    return 1;
}

static void body_planes(const cvi_body *b, dplane *out) {
    int i, k;
    for (i = 0; i < b->np; ++i) {
        const double *q = b->p + 6 * i;
        double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        for (k = 0; k < 3; ++k) out[i].n[k] = q[k] / l;
        out[i].d = -(out[i].n[0] * q[3] + out[i].n[1] * q[4] + out[i].n[2] * q[5]);
    }
}

/* The 249 pairs that once made Solfec-1.0's convex intersection (cvi.c) fail, as dumped by its
   tst/cvitest program: the files tst/inp/cvi.N of the public Solfec-1.0 repository (not ours to
   redistribute). Set CT_SOLFEC_CVI to a directory holding them and a README.md; the test is
   skipped otherwise (the test action of premake5.lua sets it when the data is on the machine).
   Format, whitespace-separated, repeated to the end of the file: GE (Solfec's geometric
   epsilon, ignored); na npa; na lines x y z; npa lines nx ny nz px py pz (outward normal, a
   point on the plane); then B likewise. The vertices build the hulls, the planes are an
   independent description of the same bodies (the oracle's). */
Test(polar, solfec_cvi_regressions) {
    const char *dir = getenv("CT_SOLFEC_CVI");
    const char *names[] = { "cvi.0", "cvi.1", "cvi.2", "cvi.3", "cvi.5", "cvi.6", "cvi.7", "cvi.10", "cvi.12", "cvi.15" };
    int fi, pairs = 0, overlapping = 0, found = 0;
    char path[512];
    FILE *probe;
    if (!dir || !*dir) cr_skip_test("CT_SOLFEC_CVI is not set (Solfec-1.0's tst/inp/cvi.N files)");
    snprintf(path, sizeof path, "%s/README.md", dir);
    probe = fopen(path, "r");
    if (!probe) cr_skip_test("%s is absent", dir);
    fclose(probe);
    SKIP_WITHOUT_QHULL();
    for (fi = 0; fi < (int)(sizeof names / sizeof names[0]); ++fi) {
        FILE *f;
        double ge;
        snprintf(path, sizeof path, "%s/%s", dir, names[fi]);
        f = fopen(path, "r");
        cr_assert_not_null(f, "cannot open %s", path);
        while (fscanf(f, "%lf", &ge) == 1) {
            cvi_body A, B;
            ct_vec3 va[1000], vb[1000];
            ct_hull ha, hb, x;
            dplane pl[2000];
            oracle o;
            int i;
            double L = 0, v, tol;
            cr_assert(read_body(f, &A) && read_body(f, &B), "%s: bad record", path);
            for (i = 0; i < A.nv; ++i) va[i] = tu_vec(A.v[3 * i], A.v[3 * i + 1], A.v[3 * i + 2]);
            for (i = 0; i < B.nv; ++i) vb[i] = tu_vec(B.v[3 * i], B.v[3 * i + 1], B.v[3 * i + 2]);
            ha = hull_of(va, A.nv);
            hb = hull_of(vb, B.nv);
            L = fmax(ha.extent, hb.extent);
            body_planes(&A, pl);
            body_planes(&B, pl + A.np);
            o = brute_oracle(pl, A.np + B.np, L);
            cr_assert_eq(ct_intersect(&ha, NULL, &hb, NULL, NULL, NULL, &x), CT_OK, "%s pair %d", names[fi], pairs);
            v = x.nfaces ? (double)ct_hull_volume(&x, NULL) : 0;
            /* the file's planes and vertices agree to ~1e-15 relative: a thickness error of
               that order over the overlap's surface, plus the library's own rounding */
            tol = VOL_RTOL * o.vol + (TU_FLOAT ? 1e3 : 1e4) * (double)TU_EPS * L * o.area;
            cr_assert(fabs(v - o.vol) <= tol, "%s pair %d: volume %.17g vs brute force %.17g (tol %g)", names[fi], pairs, v,
                      o.vol, tol);
            {   /* real contacts: every pair whose brute force finds a point is found */
                ct_contact c;
                cr_assert_eq(ct_contact_hulls(&ha, NULL, &hb, NULL, NULL, &c), CT_OK);
                if (o.npts > 0) cr_assert_eq(c.found, 1, "%s pair %d: contact missed", names[fi], pairs);
                cr_assert(fabs(c.volume - v) <= 1e3 * (double)TU_EPS * fmax(v, L * L * L * 1e-12) + tol,
                          "%s pair %d: contact volume %g vs %g", names[fi], pairs, c.volume, v);
                if (c.found) ++found;
            }
            if (x.nfaces) {
                ++overlapping;
                check_structure(&x, &ha, NULL, &hb, NULL, 1e4 * (double)TU_EPS * L);
            }
            ++pairs;
            free(o.pts);
    free(o.det);
    free(o.tri);
            ct_hull_free(&x);
            ct_hull_free(&ha);
            ct_hull_free(&hb);
            free(A.v); free(A.p); free(B.v); free(B.p);
        }
        fclose(f);
    }
    cr_assert_geq(pairs, 249, "read %d pairs", pairs);
    printf("polar: %d Solfec cvi regression pairs\n", pairs);
    cr_log_info("solfec-cvi: %d pairs, %d found, %d with a volume", pairs, found, overlapping);
}

/* ---- bad input, memory ------------------------------------------------------------------------ */
Test(polar, bad_input_is_invalid) {
    ct_hull a = box_hull(0.5, 0.5, 0.5), x, zero;
    ct_xform bad = ct_xform_identity(), notrot = ct_xform_identity();
    ct_contact c;
    memset(&zero, 0, sizeof zero);
    bad.p.x = (ct_real)NAN;
    notrot.r[0][0] = 2;
    cr_assert_eq(ct_intersect(NULL, NULL, &a, NULL, NULL, NULL, &x), CT_INVALID);
    cr_assert_eq(x.nfaces, 0);
    cr_assert_eq(ct_intersect(&a, NULL, NULL, NULL, NULL, NULL, &x), CT_INVALID);
    cr_assert_eq(ct_intersect(&a, NULL, &a, NULL, NULL, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_intersect(&a, &bad, &a, NULL, NULL, NULL, &x), CT_INVALID);
    cr_assert_eq(ct_intersect(&a, NULL, &a, &notrot, NULL, NULL, &x), CT_INVALID);
    cr_assert_eq(ct_intersect(&zero, NULL, &a, NULL, NULL, NULL, &x), CT_INVALID);
    cr_assert_eq(ct_contact_hulls(NULL, NULL, &a, NULL, NULL, &c), CT_INVALID);
    cr_assert_eq(c.found, 0);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &a, NULL, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &a, &bad, NULL, &c), CT_INVALID);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &zero, NULL, NULL, &c), CT_INVALID);
    {   /* a hull filled by hand (no build flag: its planes are scanned on every call) whose
           plane holds a NaN; a hull the library built was checked at build and is trusted */
        ct_real keep = a.planes[2].d;
        ct_hull hand = a;
        hand.ct__valid = 0;
        cr_assert_eq(ct_contact_hulls(&hand, NULL, &a, NULL, NULL, &c), CT_OK);
        a.planes[2].d = (ct_real)NAN;
        cr_assert_eq(ct_contact_hulls(&hand, NULL, &a, NULL, NULL, &c), CT_INVALID);
        cr_assert_eq(ct_contact_hulls(&a, NULL, &hand, NULL, NULL, &c), CT_INVALID);
        cr_assert_eq(ct_intersect(&hand, NULL, &hand, NULL, NULL, NULL, &x), CT_INVALID);
        a.planes[2].d = keep;
    }
    cr_assert_eq(ct_sparsify(NULL, 3, 0.1, 0, 0), 0);
    cr_assert_eq(ct_sparsify(&c, -1, 0.1, 0, 0), 0);
    ct_hull_free(&a);
}

Test(polar, allocation_failures_are_clean) {
    unsigned long long seed = 88;
    ct_hull a = random_hull(&seed, 20, 1, 1, 1), b = random_hull(&seed, 20, 1, 1, 1), x;
    ct_hull small = box_hull(0.1, 0.2, 0.15);
    ct_xform xb = xf_trans(0.8, 0.1, 0), xs = xf_trans(0.1, 0, 0);
    long k;
    int done_i = 0, done_c = 0, done_e = 0;
    for (k = 1; k < 400 && !(done_i && done_c && done_e); ++k) {
        tu_alloc t;
        ct_scratch s;
        ct_contact c;
        ct_status st;
        /* ct_intersect through a temporary scratch and the output allocator */
        tu_alloc_init(&t, k);
        st = ct_intersect(&a, NULL, &b, &xb, NULL, &t.a, &x);
        if (st == CT_OK) { done_i = 1; cr_assert_gt(x.nfaces, 0); ct_hull_free(&x); }
        else { cr_assert_eq(st, CT_NO_MEMORY); cr_assert_eq(x.nfaces, 0); }
        cr_assert_eq(t.outstanding, 0, "leak after failing allocation %ld", k);
        /* ct_contact_hulls through a user scratch */
        tu_alloc_init(&t, k);
        ct_scratch_init(&s, &t.a);
        st = ct_contact_hulls(&a, NULL, &b, &xb, &s, &c);
        if (st == CT_OK) { done_c = 1; cr_assert_eq(c.found, 1); }
        else { cr_assert_eq(st, CT_NO_MEMORY); cr_assert_eq(c.found, 0); }
        ct_scratch_release(&s);
        cr_assert_eq(t.outstanding, 0, "leak after failing allocation %ld", k);
        /* the EPA gap (a box inside A) through a temporary scratch */
        tu_alloc_init(&t, k);
        ct_scratch_init(&s, &t.a);
        st = ct_contact_hulls(&a, NULL, &small, &xs, &s, &c);
        if (st == CT_OK) { done_e = 1; cr_assert_eq(c.found, 1); cr_assert_lt(c.gap, -0.4); }
        else { cr_assert_eq(st, CT_NO_MEMORY); cr_assert_eq(c.found, 0); }
        ct_scratch_release(&s);
        cr_assert_eq(t.outstanding, 0, "leak after failing allocation %ld (EPA path)", k);
    }
    cr_assert(done_i && done_c && done_e);
    cr_assert_gt(k, 3, "the sweep exercised no failure");
    ct_hull_free(&a);
    ct_hull_free(&b);
    ct_hull_free(&small);
}

Test(polar, warm_scratch_allocates_nothing) {
    unsigned long long seed = 99;
    ct_hull a = random_hull(&seed, 40, 1, 1, 1), b = random_hull(&seed, 40, 1, 1, 1), box = box_hull(0.5, 0.5, 0.5), x;
    ct_hull small = box_hull(0.1, 0.2, 0.15);
    ct_xform xb = xf_trans(0.8, 0.1, 0), touch = xf_trans(0.2, 0.1, 1), inside = xf_trans(0.1, 0, 0);
    tu_alloc t;
    ct_scratch s;
    ct_contact c;
    long before;
    int i;
    tu_alloc_init(&t, 0);
    ct_scratch_init(&s, &t.a);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &b, &xb, &s, &c), CT_OK);
    cr_assert_eq(ct_contact_hulls(&box, NULL, &box, &touch, &s, &c), CT_OK);
    cr_assert_eq(ct_contact_hulls(&a, NULL, &small, &inside, &s, &c), CT_OK);   /* the EPA gap */
    before = t.calls;
    for (i = 0; i < 5; ++i) {
        cr_assert_eq(ct_contact_hulls(&a, NULL, &b, &xb, &s, &c), CT_OK);
        cr_assert_eq(ct_contact_hulls(&box, NULL, &box, &touch, &s, &c), CT_OK);
        cr_assert_eq(c.found, 1);
        cr_assert_eq(ct_contact_hulls(&a, NULL, &small, &inside, &s, &c), CT_OK);
        cr_assert_lt(c.gap, -0.4);
    }
    cr_assert_eq(t.calls, before, "a warm scratch allocated %ld times", t.calls - before);
    /* ct_intersect: the output hull only (one block), nothing else */
    cr_assert_eq(ct_intersect(&a, NULL, &b, &xb, &s, &t.a, &x), CT_OK);
    ct_hull_free(&x);
    before = t.calls;
    cr_assert_eq(ct_intersect(&a, NULL, &b, &xb, &s, &t.a, &x), CT_OK);
    cr_assert_eq(t.calls - before, 1, "%ld allocations for one output hull", t.calls - before);
    ct_hull_free(&x);
    ct_scratch_release(&s);
    cr_assert_eq(t.outstanding, 0);
    ct_hull_free(&a);
    ct_hull_free(&b);
    ct_hull_free(&box);
    ct_hull_free(&small);
}

/* ---- sparsify ----------------------------------------------------------------------------------- */
static ct_contact mkc(double area, double x, double y, double z) {
    ct_contact c;
    memset(&c, 0, sizeof c);
    c.found = 1;
    c.area = (ct_real)area;
    c.point = tu_vec(x, y, z);
    return c;
}

Test(polar, sparsify_rules) {
    ct_contact c[6];
    int n;
    c[0] = mkc(1.0, 0, 0, 0);
    c[1] = mkc(0.001, 5, 0, 0);     /* below 0.01 x the largest: dropped */
    c[2] = mkc(0.5, 1, 0, 0);
    c[3] = mkc(0.4, 1.0005, 0, 0);  /* within mindist of c[2]: dropped */
    c[4] = mkc(0.05, 3, 0, 0);      /* below minarea: dropped */
    c[5] = mkc(0.3, 2, 0, 0);
    n = ct_sparsify(c, 6, 0.01, 0.1, 0.001);
    cr_assert_eq(n, 3);
    cr_assert_eq(c[0].area, (ct_real)1.0);
    cr_assert_eq(c[1].area, (ct_real)0.5);
    cr_assert_eq(c[2].area, (ct_real)0.3, "stable order");
    /* the largest contact is never dropped by the threshold rule */
    c[0] = mkc(1, 0, 0, 0);
    c[1] = mkc(1, 1, 0, 0);
    cr_assert_eq(ct_sparsify(c, 2, 0.5, 0, 0), 2);
    cr_assert_eq(ct_sparsify(c, 1, 0.5, 0, 0), 1);
}

/* independent, allocation-based evaluation of the documented rules */
static int sparsify_oracle(const ct_contact *in, int n, double th, double minarea, double mindist, int *keep) {
    int i, j, k = 0;
    int kept[64];
    cr_assert(n <= 64);
    for (i = 0; i < n; ++i) {
        int drop = in[i].area < minarea;
        for (j = 0; j < n && !drop; ++j)
            if (j != i && in[i].area < th * in[j].area) drop = 1;
        for (j = 0; j < i && !drop; ++j)
            if (kept[j]) {
                double dx = in[i].point.x - in[j].point.x, dy = in[i].point.y - in[j].point.y, dz = in[i].point.z - in[j].point.z;
                if (sqrt(dx * dx + dy * dy + dz * dz) < mindist) drop = 1;
            }
        kept[i] = !drop;
        if (!drop) keep[k++] = i;
    }
    return k;
}

Test(polar, sparsify_matches_rule_oracle) {
    unsigned long long seed = 3;
    int trial;
    for (trial = 0; trial < 500; ++trial) {
        ct_contact in[40], work[40];
        int keep[40], n = 1 + (int)(tu_uniform(&seed) * 39), i, k, kk;
        double th = 0.3 * tu_uniform(&seed), ma = 0.1 * tu_uniform(&seed), md = 0.3 * tu_uniform(&seed);
        for (i = 0; i < n; ++i) in[i] = mkc(pow(10, -3 * tu_uniform(&seed)), tu_uniform(&seed), tu_uniform(&seed), 0);
        memcpy(work, in, sizeof(ct_contact) * (size_t)n);
        k = ct_sparsify(work, n, (ct_real)th, (ct_real)ma, (ct_real)md);
        kk = sparsify_oracle(in, n, (ct_real)th, (ct_real)ma, (ct_real)md, keep);
        cr_assert_eq(k, kk, "trial %d: kept %d, oracle %d", trial, k, kk);
        for (i = 0; i < k; ++i) cr_assert_eq(memcmp(&work[i], &in[keep[i]], sizeof(ct_contact)), 0);
    }
}

/* ---- thin face-on-face overlaps of random hulls ---------------------------------------------- */
/* A hull with a flat face on z = zface (a random polygon of k points) and the rest of its
   points on a sphere cap on the side `side` (+1 above, -1 below). */
static ct_hull flat_hull(unsigned long long *seed, double zface, int side) {
    ct_vec3 p[40];
    int i, n = 0, k = 5 + (int)(tu_uniform(seed) * 6);
    for (i = 0; i < k; ++i) {
        double a = 2 * 3.14159265358979 * (i + 0.5 * tu_uniform(seed)) / k, r = 0.5 + 0.3 * tu_uniform(seed);
        p[n++] = tu_vec(r * cos(a) + 0.1 * tu_uniform(seed), r * sin(a), zface);
    }
    for (i = 0; i < 16; ++i) {
        ct_vec3 u = tu_random_unit(seed);
        p[n++] = tu_vec(0.8 * u.x, 0.8 * u.y, zface + side * (0.05 + 0.6 * fabs(u.z)));
    }
    return hull_of(p, n);
}

Test(polar, thin_face_on_face_overlaps) {
    unsigned long long seed = 2718;
    int i, found = 0;
    double lo = TU_FLOAT ? 1e-4 : 1e-12;
    SKIP_WITHOUT_QHULL();
    for (i = 0; i < 400; ++i) {
        double delta = lo * pow(1e-2 / lo, tu_uniform(&seed));
        ct_hull a = flat_hull(&seed, 0, 1), b = flat_hull(&seed, 0, -1), x;
        ct_xform frame = tu_random_xform(&seed, 1), tb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)(6.3 * tu_uniform(&seed)),
                                                                                  tu_vec(0.2 * tu_uniform(&seed), 0.2 * tu_uniform(&seed), delta));
        ct_xform xa = frame, xb = xf_mul(&frame, &tb);
        dplane pl[256];
        int m = pair_planes(&a, &xa, &b, &xb, pl);
        oracle o = brute_oracle(pl, m, 1);
        ct_contact c;
        double v, tol, vq = o.vol;
        double vp = pyramid_volume(pl, m, o.pts, o.tri, o.npts, 1e-11);
        /* qhull gives up on slabs below ~1e-9: then the pyramid sum is the oracle */
        if (vq == 0) o.vol = vp;
        cr_assert_eq(ct_intersect(&a, &xa, &b, &xb, NULL, NULL, &x), CT_OK);
        cr_assert_eq(ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c), CT_OK);
        cr_assert_eq(c.found, 1, "overlap %g missed", delta);
        v = x.nfaces ? (double)ct_hull_volume(&x, NULL) : 0;
        /* a thickness error of some ulps of the extent over the contact area; grazing side
           planes (triples with |det| ~ 1e-4) leave the brute force's own vertices only
           eps/|det| ~ 1e-12 accurate, hence 2e4 ulps */
        if (o.area == 0) o.area = 2 * 3.1416 * 0.81;   /* qhull gave up: two discs of radius <= 0.9 */
        tol = VOL_RTOL * o.vol + 2e4 * (double)TU_EPS * o.area;
        cr_assert(fabs(v - o.vol) <= tol, "pair %d overlap %g: volume %.17g vs brute force %.17g", i, delta, v, o.vol);
        cr_assert(fabs(c.volume - o.vol) <= tol, "pair %d: contact volume %.17g vs %.17g", i, c.volume, o.vol);
        if (x.nfaces) {
            ++found;
            /* below ~1e-9 the dual hull may merge vertices that lie within the slab's
               thickness of each other: such a vertex can sit up to that thickness outside
               (1 in ~3,000 of these pairs in a stress run; the volume stays within tol) */
            check_structure(&x, &a, &xa, &b, &xb, 1e5 * (double)TU_EPS + 1e2 * (double)TU_EPS / o.worst_det + fmin(delta, 1e-9));
        }
        free(o.pts);
    free(o.det);
    free(o.tri);
        ct_hull_free(&x);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_assert_gt(found, 300, "only %d of the overlaps had a volume", found);
}

Test(polar, touching_faces_under_random_placement) {
    unsigned long long seed = 8080;
    ct_hull a = box_hull(0.5, 0.5, 0.5), bb = box_hull(0.3, 0.4, 0.25);
    int i;
    for (i = 0; i < 300; ++i) {
        double dx = 0.6 * (tu_uniform(&seed) - 0.5), dy = 0.6 * (tu_uniform(&seed) - 0.5);
        ct_xform frame = tu_random_xform(&seed, i % 2 ? 10 : 0.5), tb = xf_trans(dx, dy, 0.75), xb = xf_mul(&frame, &tb);
        ct_contact c, c2;
        double ax = fmin(0.5, dx + 0.3) - fmax(-0.5, dx - 0.3), ay = fmin(0.5, dy + 0.4) - fmax(-0.5, dy - 0.4);
        double px = (fmin(0.5, dx + 0.3) + fmax(-0.5, dx - 0.3)) / 2, py = (fmin(0.5, dy + 0.4) + fmax(-0.5, dy - 0.4)) / 2;
        double tol = 1e4 * (double)TU_EPS * (1 + fabs(frame.p.x) + fabs(frame.p.y) + fabs(frame.p.z));
        ct_vec3 pw;
        cr_assert_eq(ct_contact_hulls(&a, &frame, &bb, &xb, NULL, &c), CT_OK);
        cr_assert_eq(c.found, 1, "placement %d: touching faces missed", i);
        cr_assert(c.volume <= tol, "placement %d: volume %g", i, c.volume);
        cr_assert(fabs(c.area - ax * ay) <= tol, "placement %d: area %g vs %g", i, c.area, ax * ay);
        pw = tu_vec(frame.r[0][0] * px + frame.r[0][1] * py + frame.r[0][2] * 0.5 + frame.p.x,
                    frame.r[1][0] * px + frame.r[1][1] * py + frame.r[1][2] * 0.5 + frame.p.y,
                    frame.r[2][0] * px + frame.r[2][1] * py + frame.r[2][2] * 0.5 + frame.p.z);
        cr_assert(fabs(c.point.x - pw.x) + fabs(c.point.y - pw.y) + fabs(c.point.z - pw.z) <= tol, "placement %d: point", i);
        cr_assert(c.normal.x * frame.r[0][2] + c.normal.y * frame.r[1][2] + c.normal.z * frame.r[2][2] > 1 - tol, "normal");
        /* swapped: the same contact, normal reversed */
        cr_assert_eq(ct_contact_hulls(&bb, &xb, &a, &frame, NULL, &c2), CT_OK);
        cr_assert_eq(c2.found, 1);
        cr_assert(fabs(c2.area - c.area) <= tol);
        cr_assert(fabs(c2.point.x - c.point.x) + fabs(c2.point.y - c.point.y) + fabs(c2.point.z - c.point.z) <= tol);
        cr_assert(c2.normal.x * c.normal.x + c2.normal.y * c.normal.y + c2.normal.z * c.normal.z < -1 + tol);
    }
    ct_hull_free(&a);
    ct_hull_free(&bb);
}

/* ---- the gap: chord or EPA depth ----------------------------------------------------------- */
/* World vertices of a transformed hull, in double. */
static void world_verts(const ct_hull *h, const ct_xform *x, double *out) {
    int i;
    for (i = 0; i < h->nverts; ++i) {
        double v[3] = { h->verts[i].x, h->verts[i].y, h->verts[i].z };
        xf_apply_d(x, v, out + 3 * i);
    }
}

/* max over A of u.x minus min over B of u.x: how far B must move along -u... along u to clear A */
static double overlap_along(const double *va, int na, const double *vb, int nb, const double u[3]) {
    double ha = -1e300, hb = -1e300;
    int i;
    for (i = 0; i < na; ++i) ha = fmax(ha, u[0] * va[3 * i] + u[1] * va[3 * i + 1] + u[2] * va[3 * i + 2]);
    for (i = 0; i < nb; ++i) hb = fmax(hb, -(u[0] * vb[3 * i] + u[1] * vb[3 * i + 1] + u[2] * vb[3 * i + 2]));
    return ha + hb;
}

/* Penetration depth by brute force (Cameron & Culley): the minimum over unit u of
   h_A(u) + h_B(-u). Every u gives an upper bound and the minimum is attained at a facet normal
   of A - B, i.e. a face normal of A or of B or the cross product of an edge of A with an edge
   of B, so the minimum over those candidates (both signs) is the depth. dir gets the argmin. */
static double depth_oracle(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, double dir[3]) {
    double *va = (double *)malloc(sizeof(double) * 3 * (size_t)a->nverts);
    double *vb = (double *)malloc(sizeof(double) * 3 * (size_t)b->nverts), best = 1e300;
    dplane pa[256], pb[256];
    int f, g, i, k, s;
    cr_assert(a->nfaces <= 256 && b->nfaces <= 256);
    world_verts(a, xa, va);
    world_verts(b, xb, vb);
    world_planes(a, xa, pa);
    world_planes(b, xb, pb);
    for (k = 0; k < a->nfaces + b->nfaces; ++k)
        for (s = -1; s <= 1; s += 2) {
            const double *n = k < a->nfaces ? pa[k].n : pb[k - a->nfaces].n;
            double u[3] = { s * n[0], s * n[1], s * n[2] }, o = overlap_along(va, a->nverts, vb, b->nverts, u);
            if (o < best) { best = o; memcpy(dir, u, sizeof u); }
        }
    for (f = 0; f < a->face_first[a->nfaces]; ++f) {
        int fa = 0, i0, i1;
        double ea[3];
        while (a->face_first[fa + 1] <= f) ++fa;
        i0 = a->face_verts[f];
        i1 = a->face_verts[f + 1 == a->face_first[fa + 1] ? a->face_first[fa] : f + 1];
        for (i = 0; i < 3; ++i) ea[i] = va[3 * i1 + i] - va[3 * i0 + i];
        for (g = 0; g < b->face_first[b->nfaces]; ++g) {
            int fb = 0, j0, j1;
            double eb[3], u[3], l, o;
            while (b->face_first[fb + 1] <= g) ++fb;
            j0 = b->face_verts[g];
            j1 = b->face_verts[g + 1 == b->face_first[fb + 1] ? b->face_first[fb] : g + 1];
            for (i = 0; i < 3; ++i) eb[i] = vb[3 * j1 + i] - vb[3 * j0 + i];
            u[0] = ea[1] * eb[2] - ea[2] * eb[1];
            u[1] = ea[2] * eb[0] - ea[0] * eb[2];
            u[2] = ea[0] * eb[1] - ea[1] * eb[0];
            l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            if (!(l > 1e-9)) continue;
            for (s = -1; s <= 1; s += 2) {
                double w[3] = { s * u[0] / l, s * u[1] / l, s * u[2] / l };
                o = overlap_along(va, a->nverts, vb, b->nverts, w);
                if (o < best) { best = o; memcpy(dir, w, sizeof w); }
            }
        }
    }
    free(va);
    free(vb);
    return best;
}

static ct_xform xf_rotz(double angle, double x, double y, double z) {
    return ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)angle, tu_vec(x, y, z));
}

/* Closed forms where the chord measures one body's thickness, not the interpenetration. */
Test(polar, gap_falls_back_to_epa_depth) {
    unsigned long long seed = 515;
    ct_hull big = box_hull(1, 1, 1), small = box_hull(0.1, 0.2, 0.15), plate = box_hull(3, 0.01, 3);
    double tol = 2e3 * (double)TU_EPS, dir[3];
    int i;
    for (i = 0; i < 20; ++i) {
        /* the whole scene in a random frame (the first one the identity) */
        ct_xform frame = i ? tu_random_xform(&seed, 3) : ct_xform_identity();
        ct_xform ts = xf_trans(0.3, -0.2, 0.1), xs = xf_mul(&frame, &ts);
        /* a thin plate cutting off the corner (1, 1, z) of the box, its mid-plane 0.3 below
           the corner edge: the chord along the plate's normal spans its thickness 0.02, the
           plate must move 0.3 + 0.01 along that normal to clear the box */
        ct_xform tp = xf_rotz(-atan(1.0), (sqrt(2.0) - 0.3) / sqrt(2.0), (sqrt(2.0) - 0.3) / sqrt(2.0), 0);
        ct_xform xp = xf_mul(&frame, &tp);
        ct_vec3 ex = tu_vec(frame.r[0][0], frame.r[1][0], frame.r[2][0]), m;
        ct_contact c;
        /* B inside A: a box 0.1 x 0.2 x 0.15 (half) at (0.3, -0.2, 0.1) in the unit box: it must
           move 1 + 0.1 - 0.3 = 0.8 along +x (y: 1.0, z: 1.05). Its faces cancel: the normal is
           EPA's, +x. */
        cr_assert_eq(ct_contact_hulls(&big, &frame, &small, &xs, NULL, &c), CT_OK);
        cr_assert_eq(c.found, 1);
        cr_assert(fabs(c.gap + 0.8) <= tol, "frame %d: contained box gap %.17g, not -0.8", i, c.gap);
        cr_assert(fabs(c.normal.x - ex.x) + fabs(c.normal.y - ex.y) + fabs(c.normal.z - ex.z) <= 1e2 * tol,
                  "frame %d: contained box normal %g %g %g", i, c.normal.x, c.normal.y, c.normal.z);
        cr_assert(fabs(c.gap + depth_oracle(&big, &frame, &small, &xs, dir)) <= tol);
        /* A inside B (swapped): the same depth, the normal reversed */
        cr_assert_eq(ct_contact_hulls(&small, &xs, &big, &frame, NULL, &c), CT_OK);
        cr_assert(fabs(c.gap + 0.8) <= tol, "frame %d: swapped containment gap %.17g", i, c.gap);
        cr_assert(fabs(c.normal.x + ex.x) + fabs(c.normal.y + ex.y) + fabs(c.normal.z + ex.z) <= 1e2 * tol);
        /* the plate across the corner */
        m = tu_vec((frame.r[0][0] + frame.r[0][1]) / sqrt(2.0), (frame.r[1][0] + frame.r[1][1]) / sqrt(2.0),
                   (frame.r[2][0] + frame.r[2][1]) / sqrt(2.0));
        cr_assert_eq(ct_contact_hulls(&big, &frame, &plate, &xp, NULL, &c), CT_OK);
        cr_assert_eq(c.found, 1);
        cr_assert(c.normal.x * m.x + c.normal.y * m.y + c.normal.z * m.z > 0.99, "plate: the normal is the plate's");
        cr_assert(fabs(c.gap + 0.31) <= tol, "frame %d: plate gap %.17g, not -0.31 (chord 0.02)", i, c.gap);
        cr_assert(fabs(c.gap + depth_oracle(&big, &frame, &plate, &xp, dir)) <= tol);
    }
    {   /* identical bodies: every face of A n B is on A, the chord is a width of A; the depth
           is A's least width */
        ct_hull a = random_hull(&seed, 30, 1, 0.8, 0.6);
        ct_xform xa = tu_random_xform(&seed, 2);
        ct_contact c;
        double d = depth_oracle(&a, &xa, &a, &xa, dir);
        cr_assert_eq(ct_contact_hulls(&a, &xa, &a, &xa, NULL, &c), CT_OK);
        cr_assert(fabs(c.gap + d) <= tol * 4, "identical bodies: gap %.17g vs least width %.17g", c.gap, d);
        ct_hull_free(&a);
    }
    for (i = 0; i < 30; ++i) {   /* a random small hull inside a random big one */
        ct_hull a = random_hull(&seed, 24, 1, 0.9, 0.8), b = random_hull(&seed, 8, 0.15, 0.7, 1);
        ct_xform xa = tu_random_xform(&seed, 1), tb = tu_random_xform(&seed, 0.2), xb = xf_mul(&xa, &tb);
        ct_contact c;
        double d = depth_oracle(&a, &xa, &b, &xb, dir);
        cr_assert_eq(ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c), CT_OK);
        cr_assert_eq(c.found, 1);
        cr_assert(fabs(c.volume - ct_hull_volume(&b, NULL)) <= 1e3 * TU_EPS * c.volume, "B is inside A");
        cr_assert(fabs(c.gap + d) <= tol * 4, "pair %d: contained hull gap %.17g vs depth %.17g", i, c.gap, d);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    ct_hull_free(&big);
    ct_hull_free(&small);
    ct_hull_free(&plate);
}

/* The rule on random pairs, decided independently: clip the line point + t normal by every
   plane of A and B; when it leaves through a plane of A and enters through a plane of B the gap
   is minus that chord, otherwise minus the brute-force depth. Pairs whose line passes within
   1e-6 of a corner where the answer flips, or meets the exit planes at a grazing angle, are
   skipped. Both branches must occur. */
Test(polar, gap_rule_on_random_pairs) {
    unsigned long long seed = 9009;
    int i, nchord = 0, ndepth = 0;
    for (i = 0; i < 600; ++i) {
        int nva = 5 + i % 5, nvb = 5 + (i / 5) % 5, k, m, pass;
        ct_hull a = random_hull(&seed, nva, 1, 0.6 + 0.4 * tu_uniform(&seed), 0.6 + 0.4 * tu_uniform(&seed));
        ct_hull b = random_hull(&seed, nvb, 0.3 + 0.7 * tu_uniform(&seed), 1, 0.5 + 0.5 * tu_uniform(&seed));
        ct_xform xa = tu_random_xform(&seed, 2), xb = tu_random_xform(&seed, 0);
        ct_vec3 dir = tu_random_unit(&seed);
        double off = 1.2 * tu_uniform(&seed), P[3], N[3], thi = 1e300, tlo = -1e300, dhi = 1, dlo = 1, o[3];
        int hiA = 0, hiB = 0, loA = 0, loB = 0;
        dplane pl[64];
        ct_contact c;
        xb.p = tu_vec(xa.p.x + off * dir.x, xa.p.y + off * dir.y, xa.p.z + off * dir.z);
        cr_assert_eq(ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c), CT_OK);
        if (!c.found || c.volume < 1e-3) goto next;
        m = pair_planes(&a, &xa, &b, &xb, pl);
        P[0] = c.point.x; P[1] = c.point.y; P[2] = c.point.z;
        N[0] = c.normal.x; N[1] = c.normal.y; N[2] = c.normal.z;
        for (pass = 0; pass < 2; ++pass)
            for (k = 0; k < m; ++k) {
                double dn = pl[k].n[0] * N[0] + pl[k].n[1] * N[1] + pl[k].n[2] * N[2], t = -dp_eval(&pl[k], P) / dn;
                int onA = k < a.nfaces;
                if (dn > 1e-12) {
                    if (!pass) thi = fmin(thi, t);
                    else if (t <= thi + 1e-6) { hiA |= onA; hiB |= !onA; dhi = fmin(dhi, dn); }
                } else if (dn < -1e-12) {
                    if (!pass) tlo = fmax(tlo, t);
                    else if (t >= tlo - 1e-6) { loA |= onA; loB |= !onA; dlo = fmin(dlo, -dn); }
                }
            }
        /* the exit or the entry at a corner of A and B, or met at a grazing angle: skipped */
        if ((hiA && hiB) || (loA && loB) || fmin(dhi, dlo) < 0.05) goto next;
        if (hiA && loB) {
            double tol = 1e4 * (double)TU_EPS / fmin(dhi, dlo);
            ++nchord;
            cr_assert(fabs(c.gap + (thi - tlo)) <= tol, "pair %d: gap %.17g vs chord %.17g", i, c.gap, thi - tlo);
        } else {
            double d = depth_oracle(&a, &xa, &b, &xb, o);
            ++ndepth;
            cr_assert(fabs(c.gap + d) <= 4e3 * (double)TU_EPS, "pair %d (exit on %s, entry on %s): gap %.17g vs depth %.17g", i,
                      hiA ? "A" : "B", loB ? "B" : "A", c.gap, d);
        }
    next:
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_log_info("gap rule: %d chords, %d depths", nchord, ndepth);
    cr_assert_gt(nchord, 100, "only %d chord cases", nchord);
    cr_assert_gt(ndepth, 10, "only %d depth cases", ndepth);
}

/* ---- the depth/normal conventions of the three contact routines (contact.h CONVENTIONS) --- */

/* Where they coincide: a box resting on a larger one with a shallow overlap delta, its
   footprint inside the top face. The SAT manifold, EPA and the volumetric contact must all
   give the face normal +z and the depth delta. */
Test(polar, conventions_coincide_for_resting_boxes) {
    ct_hull a = box_hull(1, 1, 1), b = box_hull(0.5, 0.7, 0.6);
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)0.3, tu_vec(0.1, -0.05, 1 + 0.6 - 0.05));
    ct_shape sa = ct_shape_hull(&a), sb = ct_shape_hull(&b);
    ct_contact c;
    ct_distance d;
    ct_manifold m;
    double tol = TU_FLOAT ? 2e-5 : 1e-11, delta = 0.05;
    int i;
    cr_assert_eq(ct_contact_hulls(&a, NULL, &b, &xb, NULL, &c), CT_OK);
    cr_assert_eq(ct_signed_distance(&sa, NULL, &sb, &xb, NULL, NULL, &d), CT_OK);
    cr_assert_eq(ct_manifold_hulls(&a, NULL, &b, &xb, 0, NULL, &m), CT_OK);
    cr_assert(c.found && m.count == 4);
    cr_assert(fabs((double)c.normal.z - 1) <= tol && fabs((double)d.normal.z - 1) <= tol && fabs((double)m.normal.z - 1) <= tol);
    cr_assert(fabs((double)c.gap + delta) <= tol, "volumetric gap %g", (double)c.gap);
    cr_assert(fabs((double)d.distance + delta) <= tol, "EPA distance %g", (double)d.distance);
    for (i = 0; i < m.count; ++i) cr_assert(fabs((double)m.points[i].separation + delta) <= tol);
    ct_hull_free(&a);
    ct_hull_free(&b);
}

typedef struct conv_stats { int pairs, wide, reversed; double rsum, rmin, rmax, asum; } conv_stats;

static void conv_add(conv_stats *st, double ratio, double ang) {
    if (st->pairs == 0) st->rmin = st->rmax = ratio;
    st->rsum += ratio;
    st->rmin = fmin(st->rmin, ratio);
    st->rmax = fmax(st->rmax, ratio);
    st->asum += ang;
    st->wide += ang > 25;
    st->reversed += ang > 90;
    ++st->pairs;
}

static void conv_print(const char *what, const conv_stats *st) {
    if (st->pairs == 0) return;
    printf("conventions, %s: %d pairs; volumetric |gap| / EPA depth mean %.2f (%.2f..%.2f); SAT vs "
           "volumetric normal mean %.1f deg, %.0f%% > 25 deg, %.0f%% > 90 deg\n", what, st->pairs,
           st->rsum / st->pairs, st->rmin, st->rmax, st->asum / st->pairs, 100.0 * st->wide / st->pairs,
           100.0 * st->reversed / st->pairs);
}

/* Where they differ, measured: random overlapping 20-point hulls, shallow (EPA depth under 10%
   of the summed extents) and deep. Prints the figures the README quotes (volumetric |gap| over
   the EPA depth; the angle between the SAT and the volumetric normals). Checked bounds: the
   volumetric gap is negative and the normals unit; the SAT's deepest point is never deeper
   than its axis, whose depth exceeds the least (EPA's) by at most the SAT's face preferences
   (CT__SAT_EDGE_REL/ABS plus CT__SAT_FACE_REL/ABS: 3% + 7.5e-4 of the extents, bounded here
   by 5% + 1e-3). */
Test(polar, conventions_measured_on_random_hulls) {
    unsigned long long seed = 2026;
    int k;
    conv_stats shallow, deep;
    memset(&shallow, 0, sizeof shallow);
    memset(&deep, 0, sizeof deep);
    for (k = 0; k < 1200; ++k) {
        ct_xform xa = tu_random_xform(&seed, 2), xb;
        ct_vec3 dir = tu_random_unit(&seed);
        double off = 1.9 * tu_uniform(&seed), ratio, ang, epa, sat = 0, ext;
        ct_hull a = random_hull(&seed, 20, 1.0, 0.6 + 0.4 * tu_uniform(&seed), 0.6 + 0.4 * tu_uniform(&seed));
        ct_hull b = random_hull(&seed, 20, 0.5 + 0.5 * tu_uniform(&seed), 1.0, 0.5 + 0.5 * tu_uniform(&seed));
        ct_shape sa = ct_shape_hull(&a), sb = ct_shape_hull(&b);
        ct_contact c;
        ct_distance d;
        ct_manifold m;
        int i;
        xb = tu_random_xform(&seed, 0);
        xb.p = tu_vec(xa.p.x + off * dir.x, xa.p.y + off * dir.y, xa.p.z + off * dir.z);
        ext = (double)(a.extent + b.extent);
        cr_assert_eq(ct_contact_hulls(&a, &xa, &b, &xb, NULL, &c), CT_OK);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &d), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, 0, NULL, &m), CT_OK);
        if (c.found && c.volume > 0 && d.distance < 0 && m.count > 0) {
            epa = -(double)d.distance;
            for (i = 0; i < m.count; ++i) sat = fmax(sat, -(double)m.points[i].separation);
            cr_assert(c.gap < 0);
            cr_assert(fabs((double)ct_vec3_length(c.normal) - 1) < 1e-4 && fabs((double)ct_vec3_length(m.normal) - 1) < 1e-4);
            cr_assert(sat <= 1.05 * epa + 1e-3 * ext, "pair %d: SAT depth %g, EPA %g", k, sat, epa);
            ratio = -(double)c.gap / epa;
            ang = acos(fmin(1.0, (double)ct_vec3_dot(m.normal, c.normal))) * 180 / 3.14159265358979323846;
            conv_add(epa < 0.1 * ext ? &shallow : &deep, ratio, ang);
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_assert(shallow.pairs >= 100 && deep.pairs >= 100, "%d shallow, %d deep pairs", shallow.pairs, deep.pairs);
    conv_print("shallow", &shallow);
    conv_print("deep", &deep);
}
