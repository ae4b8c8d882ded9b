/* SAT contact manifolds (ct_manifold_hulls): closed-form box configurations, invariants
   (swap, translation, scale, cache), and random hull pairs against a brute-force SAT over every
   face normal and every edge-pair cross product of the two hulls (exact for convex polyhedra).

   Hand-made hulls (boxes, flat plates, wedges) are assembled here from their faces, with their
   half-edges matched by brute force, so the tests do not depend on the hull builder; random
   hulls come from ct_hull_build. */
#include "contact.h"
#include "testutil.h"
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dot3(ct_vec3 a, ct_vec3 b);
static ct_vec3 sub3(ct_vec3 a, ct_vec3 b);

/* ---- a hull from faces (test fixture) ------------------------------------------------------ */
typedef struct th {
    ct_hull h;
    ct_vec3 v[64];
    ct_plane pl[32];
    int ff[33], fv[128], twin[128], next[128], face[128], vedge[64], vfirst[65], vadj[128];
} th;

/* faces: vertex lists separated by -1, each counter-clockwise seen from outside. */
static void th_build(th *t, const ct_vec3 *v, int nv, const int *faces, int nfl) {
    int i, j, k, nf = 0, n = 0;
    memset(t, 0, sizeof *t);
    for (i = 0; i < nv; ++i) t->v[i] = v[i];
    t->ff[0] = 0;
    for (i = 0; i < nfl; ++i) {
        if (faces[i] < 0) { t->ff[++nf] = n; continue; }
        t->fv[n++] = faces[i];
    }
    for (i = 0; i < nf; ++i) {
        /* Newell normal */
        ct_vec3 nn = tu_vec(0, 0, 0), p0 = t->v[t->fv[t->ff[i]]];
        double l;
        for (k = t->ff[i]; k < t->ff[i + 1]; ++k) {
            ct_vec3 a = t->v[t->fv[k]], b = t->v[t->fv[k + 1 < t->ff[i + 1] ? k + 1 : t->ff[i]]];
            nn.x += (a.y - b.y) * (a.z + b.z);
            nn.y += (a.z - b.z) * (a.x + b.x);
            nn.z += (a.x - b.x) * (a.y + b.y);
        }
        l = sqrt((double)(nn.x * nn.x + nn.y * nn.y + nn.z * nn.z));
        t->pl[i].n = tu_vec(nn.x / l, nn.y / l, nn.z / l);
        t->pl[i].d = -(t->pl[i].n.x * p0.x + t->pl[i].n.y * p0.y + t->pl[i].n.z * p0.z);
        {   /* fixture check: outward (>= 0 for the two faces of a flat hull) */
            ct_vec3 fc = tu_vec(0, 0, 0), hc = tu_vec(0, 0, 0);
            int m = t->ff[i + 1] - t->ff[i];
            for (k = t->ff[i]; k < t->ff[i + 1]; ++k) fc = tu_vec(fc.x + t->v[t->fv[k]].x / m, fc.y + t->v[t->fv[k]].y / m, fc.z + t->v[t->fv[k]].z / m);
            for (k = 0; k < nv; ++k) hc = tu_vec(hc.x + v[k].x / nv, hc.y + v[k].y / nv, hc.z + v[k].z / nv);
            cr_assert(dot3(t->pl[i].n, sub3(fc, hc)) >= -1e-6, "fixture: face %d is clockwise", i);
        }
        for (k = t->ff[i]; k < t->ff[i + 1]; ++k) {
            t->face[k] = i;
            t->next[k] = k + 1 < t->ff[i + 1] ? k + 1 : t->ff[i];
        }
    }
    for (k = 0; k < n; ++k) {
        t->twin[k] = -1;
        for (j = 0; j < n; ++j)
            if (t->fv[j] == t->fv[t->next[k]] && t->fv[t->next[j]] == t->fv[k]) t->twin[k] = j;
        cr_assert(t->twin[k] >= 0, "fixture: unmatched half-edge");
        t->vedge[t->fv[k]] = k;
    }
    j = 0;
    for (i = 0; i < nv; ++i) {
        t->vfirst[i] = j;
        for (k = 0; k < n; ++k)
            if (t->fv[k] == i) t->vadj[j++] = t->fv[t->next[k]];
    }
    t->vfirst[nv] = j;
    t->h.nverts = nv; t->h.nfaces = nf; t->h.nedges = n / 2;
    t->h.verts = t->v; t->h.planes = t->pl; t->h.face_first = t->ff; t->h.face_verts = t->fv;
    t->h.he_twin = t->twin; t->h.he_next = t->next; t->h.he_face = t->face; t->h.vert_edge = t->vedge;
    t->h.vert_first = t->vfirst; t->h.vert_adj = t->vadj;
    t->h.center = tu_vec(0, 0, 0);
    for (i = 0; i < nv; ++i) t->h.center = tu_vec(t->h.center.x + v[i].x / nv, t->h.center.y + v[i].y / nv, t->h.center.z + v[i].z / nv);
    for (i = 0; i < nv; ++i) {
        ct_real dx = v[i].x - t->h.center.x, dy = v[i].y - t->h.center.y, dz = v[i].z - t->h.center.z;
        ct_real d = (ct_real)sqrt((double)(dx * dx + dy * dy + dz * dz));
        if (d > t->h.extent) t->h.extent = d;
    }
}

static void th_box(th *t, double hx, double hy, double hz) {
    static const int f[] = { 0, 4, 6, 2, -1, 1, 3, 7, 5, -1, 0, 1, 5, 4, -1,
                             2, 6, 7, 3, -1, 0, 2, 3, 1, -1, 4, 5, 7, 6, -1 };
    ct_vec3 v[8];
    int i;
    for (i = 0; i < 8; ++i) v[i] = tu_vec(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
    th_build(t, v, 8, f, (int)(sizeof f / sizeof f[0]));
}

/* ---- oracles --------------------------------------------------------------------------------- */
static ct_vec3 wpt(const ct_xform *x, ct_vec3 p) {
    if (!x) return p;
    return tu_vec(x->r[0][0] * p.x + x->r[0][1] * p.y + x->r[0][2] * p.z + x->p.x,
                  x->r[1][0] * p.x + x->r[1][1] * p.y + x->r[1][2] * p.z + x->p.y,
                  x->r[2][0] * p.x + x->r[2][1] * p.y + x->r[2][2] * p.z + x->p.z);
}
static ct_vec3 wdir(const ct_xform *x, ct_vec3 p) {
    if (!x) return p;
    return tu_vec(x->r[0][0] * p.x + x->r[0][1] * p.y + x->r[0][2] * p.z,
                  x->r[1][0] * p.x + x->r[1][1] * p.y + x->r[1][2] * p.z,
                  x->r[2][0] * p.x + x->r[2][1] * p.y + x->r[2][2] * p.z);
}
static double dot3(ct_vec3 a, ct_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }
static ct_vec3 sub3(ct_vec3 a, ct_vec3 b) { return tu_vec((double)a.x - b.x, (double)a.y - b.y, (double)a.z - b.z); }
static ct_vec3 cross3(ct_vec3 a, ct_vec3 b) {
    return tu_vec((double)a.y * b.z - (double)a.z * b.y, (double)a.z * b.x - (double)a.x * b.z, (double)a.x * b.y - (double)a.y * b.x);
}

/* Separation of A and B along unit n (A -> B): min over B of n.x minus max over A of n.x. */
static double sep_along(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, ct_vec3 n) {
    double ma = -1e300, mb = 1e300;
    int i;
    for (i = 0; i < a->nverts; ++i) { double d = dot3(n, wpt(xa, a->verts[i])); if (d > ma) ma = d; }
    for (i = 0; i < b->nverts; ++i) { double d = dot3(n, wpt(xb, b->verts[i])); if (d < mb) mb = d; }
    return mb - ma;
}

/* Brute-force SAT: the largest separation over every face normal of A and of B and every
   cross product of an edge of A with an edge of B (both signs). faces_only: skip the edges. */
static double sat_oracle(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, int faces_only) {
    double best = -1e300;
    int i, j;
    for (i = 0; i < a->nfaces; ++i) { double s = sep_along(a, xa, b, xb, wdir(xa, a->planes[i].n)); if (s > best) best = s; }
    for (i = 0; i < b->nfaces; ++i) {
        ct_vec3 n = wdir(xb, b->planes[i].n);
        double s = sep_along(a, xa, b, xb, tu_vec(-n.x, -n.y, -n.z));
        if (s > best) best = s;
    }
    if (faces_only) return best;
    for (i = 0; i < 2 * a->nedges; ++i) {
        ct_vec3 ea;
        if (a->he_twin[i] < i) continue;
        ea = sub3(wpt(xa, a->verts[a->face_verts[a->he_next[i]]]), wpt(xa, a->verts[a->face_verts[i]]));
        for (j = 0; j < 2 * b->nedges; ++j) {
            ct_vec3 eb, n;
            double l;
            if (b->he_twin[j] < j) continue;
            eb = sub3(wpt(xb, b->verts[b->face_verts[b->he_next[j]]]), wpt(xb, b->verts[b->face_verts[j]]));
            n = cross3(ea, eb);
            l = sqrt(dot3(n, n));
            if (!(l > 1e-9 * sqrt(dot3(ea, ea) * dot3(eb, eb)))) continue;
            n = tu_vec(n.x / l, n.y / l, n.z / l);
            { double s = sep_along(a, xa, b, xb, n); if (s > best) best = s; }
            { double s = sep_along(a, xa, b, xb, tu_vec(-n.x, -n.y, -n.z)); if (s > best) best = s; }
        }
    }
    return best;
}

/* Largest signed distance of world point p to the face planes of a hull: 0 on the surface,
   < 0 inside, > 0 outside (exact on faces, a lower bound of the distance near edges). */
static double plane_dist(const ct_hull *h, const ct_xform *x, ct_vec3 p) {
    double best = -1e300;
    int i;
    for (i = 0; i < h->nfaces; ++i) {
        ct_vec3 n = wdir(x, h->planes[i].n), o = wpt(x, tu_vec(0, 0, 0));
        double d = dot3(n, sub3(p, o)) + h->planes[i].d;
        if (d > best) best = d;
    }
    return best;
}

static ct_xform xf(double ax, double ay, double az, double angle, double px, double py, double pz) {
    return ct_xform_from_axis_angle(tu_vec(ax, ay, az), (ct_real)angle, tu_vec(px, py, pz));
}

/* Rotation r1 * r2, translation p. */
static ct_xform compose(const ct_xform *r1, const ct_xform *r2, ct_vec3 p) {
    ct_xform o;
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            double s = 0;
            for (k = 0; k < 3; ++k) s += (double)r1->r[i][k] * r2->r[k][j];
            o.r[i][j] = (ct_real)s;
        }
    o.p = p;
    return o;
}

static void check_finite(const ct_manifold *m) {
    int i;
    cr_assert(isfinite((double)m->normal.x) && isfinite((double)m->normal.y) && isfinite((double)m->normal.z));
    for (i = 0; i < m->count; ++i) {
        cr_assert(isfinite((double)m->points[i].point.x) && isfinite((double)m->points[i].point.y) &&
                  isfinite((double)m->points[i].point.z) && isfinite((double)m->points[i].separation));
    }
}

/* The A-side and B-side points of manifold point i: point -+ separation/2 * normal. */
static void side_points(const ct_manifold *m, int i, ct_vec3 *pa, ct_vec3 *pb) {
    ct_vec3 p = m->points[i].point, n = m->normal;
    double s = (double)m->points[i].separation / 2;
    *pa = tu_vec(p.x - s * n.x, p.y - s * n.y, p.z - s * n.z);
    *pb = tu_vec(p.x + s * n.x, p.y + s * n.y, p.z + s * n.z);
}

/* The surface points p -+ s/2 n lie on A's and on B's boundary. */
static void check_surfaces(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb,
                           const ct_manifold *m, double tol) {
    int i;
    for (i = 0; i < m->count; ++i) {
        ct_vec3 pa, pb;
        double da, db;
        side_points(m, i, &pa, &pb);
        da = plane_dist(a, xa, pa);
        db = plane_dist(b, xb, pb);
        cr_assert(fabs(da) <= tol, "point %d: A-side point off A's surface by %g", i, da);
        cr_assert(fabs(db) <= tol, "point %d: B-side point off B's surface by %g", i, db);
    }
}

#define TOL(L) (4096 * (double)TU_EPS * (L))

/* ---- closed-form configurations ------------------------------------------------------------ */
Test(sat, aligned_cubes_face_on_face) {
    th a, b;
    ct_xform xa = ct_xform_identity(), xb = xf(0, 0, 1, 0, 0.1, 0.2, 1.5 - 0.05);
    ct_manifold m;
    int i, j;
    th_box(&a, 1, 1, 1);
    th_box(&b, 0.5, 0.5, 0.5);
    cr_assert_eq(ct_manifold_hulls(&a.h, &xa, &b.h, &xb, 0, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    cr_assert(fabs(m.normal.x) <= TOL(1) && fabs(m.normal.y) <= TOL(1) && fabs(m.normal.z - 1) <= TOL(1));
    for (i = 0; i < 4; ++i) {
        ct_vec3 p = m.points[i].point;
        cr_assert(fabs(m.points[i].separation + 0.05) <= TOL(2), "depth %g", (double)m.points[i].separation);
        cr_assert(fabs(p.z - (1 - 0.025)) <= TOL(2));
        /* the corners of B's bottom face: x = 0.1 +- 0.5, y = 0.2 +- 0.5 */
        cr_assert(fabs(fabs(p.x - 0.1) - 0.5) <= TOL(2) && fabs(fabs(p.y - 0.2) - 0.5) <= TOL(2));
        for (j = 0; j < i; ++j) cr_assert_neq(m.points[i].id, m.points[j].id);
    }
    check_surfaces(&a.h, &xa, &b.h, &xb, &m, TOL(2));
}

Test(sat, equal_cubes_coincident_edges_four_corners) {
    th a, b;
    ct_xform xb = xf(0, 0, 1, 0, 0, 0, 2 - 0.05);
    ct_manifold m;
    int i, j;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    check_finite(&m);
    for (i = 0; i < 4; ++i) {
        cr_assert(fabs(m.points[i].separation + 0.05) <= TOL(2));
        cr_assert(fabs(fabs(m.points[i].point.x) - 1) <= TOL(2) && fabs(fabs(m.points[i].point.y) - 1) <= TOL(2));
        for (j = 0; j < i; ++j) /* four distinct corners */
            cr_assert(fabs(m.points[i].point.x - m.points[j].point.x) + fabs(m.points[i].point.y - m.points[j].point.y) > 1);
    }
}

static double quad_area(const ct_manifold *m) {
    /* area of the convex hull of the points projected on the xy plane (<= 4 points) */
    double cx = 0, cy = 0, ang[4], area = 0;
    int idx[4], i, j, n = m->count;
    for (i = 0; i < n; ++i) { cx += m->points[i].point.x / n; cy += m->points[i].point.y / n; }
    for (i = 0; i < n; ++i) { idx[i] = i; ang[i] = atan2(m->points[i].point.y - cy, m->points[i].point.x - cx); }
    for (i = 1; i < n; ++i)
        for (j = i; j > 0 && ang[idx[j - 1]] > ang[idx[j]]; --j) { int t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t; }
    for (i = 0; i < n; ++i) {
        ct_vec3 p = m->points[idx[i]].point, q = m->points[idx[(i + 1) % n]].point;
        area += 0.5 * ((double)p.x * q.y - (double)q.x * p.y);
    }
    return fabs(area);
}

Test(sat, box_rotated_45_on_box_keeps_most_area) {
    th a, b;
    ct_xform xb = xf(0, 0, 1, M_PI / 4, 0, 0, 2 - 0.1);
    ct_manifold m;
    double octagon = 4 - 4 * (2 - sqrt(2.0)) * (2 - sqrt(2.0)) / 2;
    int i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    for (i = 0; i < 4; ++i) cr_assert(fabs(m.points[i].separation + 0.1) <= TOL(2));
    /* the best 4 of the octagon's 8 vertices cover 1/sqrt(2) of it */
    cr_assert(quad_area(&m) >= 0.70 * octagon, "area %g of %g", quad_area(&m), octagon);
    check_surfaces(&a.h, NULL, &b.h, &xb, &m, TOL(2));
}

Test(sat, rotated_45_and_tilted_keeps_deepest) {
    /* the same octagon, tilted a little: one vertex is the deepest and must be kept */
    th a, b;
    ct_xform r1 = xf(0, 0, 1, M_PI / 4, 0, 0, 0), r2 = xf(1, 0.3, 0, 0.01, 0, 0, 0), xb;
    ct_manifold m;
    double deepest = 1e300;
    int i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    xb = compose(&r2, &r1, tu_vec(0, 0, 2 - 0.1));
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    /* the clipped octagon's deepest vertex: a B vertex inside A's top face or a crossing;
       its depth is the SAT separation along z when it is a B vertex inside the face */
    for (i = 0; i < m.count; ++i) if (m.points[i].separation < deepest) deepest = m.points[i].separation;
    cr_assert(fabs(deepest - sat_oracle(&a.h, NULL, &b.h, &xb, 0)) <= 0.02, "deepest %g", deepest);
    cr_assert(quad_area(&m) >= 0.6 * (4 - 4 * (2 - sqrt(2.0)) * (2 - sqrt(2.0)) / 2));
    check_surfaces(&a.h, NULL, &b.h, &xb, &m, TOL(2));
}

Test(sat, slightly_tilted_box_keeps_deepest_vertex) {
    th a, b;
    ct_xform xb = xf(1, 0.5, 0, 0.05, 0.3, -0.2, 1 + 0.5 - 0.02);
    ct_manifold m;
    double deepest = 1e300, got = 1e300;
    ct_vec3 dv = tu_vec(0, 0, 0);
    int i;
    th_box(&a, 2, 2, 1);
    th_box(&b, 0.5, 0.5, 0.5);
    for (i = 0; i < 8; ++i) {
        ct_vec3 w = wpt(&xb, b.h.verts[i]);
        if (w.z - 1 < deepest) { deepest = w.z - 1; dv = w; }
    }
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0, NULL, &m), CT_OK);
    cr_assert(m.count >= 2 && m.count <= 4, "count %d", m.count);
    cr_assert(fabs(m.normal.z - 1) <= TOL(1));
    for (i = 0; i < m.count; ++i) {
        cr_assert(m.points[i].separation <= 0);
        if (m.points[i].separation < got) got = m.points[i].separation;
    }
    cr_assert(fabs(got - deepest) <= TOL(3));
    for (i = 0; i < m.count; ++i)
        if (m.points[i].separation == got) {
            cr_assert(fabs(m.points[i].point.x - dv.x) <= TOL(3) && fabs(m.points[i].point.y - dv.y) <= TOL(3));
            cr_assert(fabs(m.points[i].point.z - (dv.z - deepest / 2)) <= TOL(3));
        }
    check_surfaces(&a.h, NULL, &b.h, &xb, &m, TOL(3));
}

Test(sat, edge_edge_crossing_boxes) {
    th a, b;
    double d = 0.1, r2 = sqrt(2.0);
    ct_xform xa = xf(1, 0, 0, M_PI / 4, 0, 0, 0), xb = xf(0, 1, 0, M_PI / 4, 0, 0, 2 * r2 - d);
    ct_manifold m;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    /* face axes lose clearly: the best face axis separates by far less than -d */
    cr_assert(sat_oracle(&a.h, &xa, &b.h, &xb, 1) < -d - 0.2);
    cr_assert(fabs(sat_oracle(&a.h, &xa, &b.h, &xb, 0) + d) <= TOL(4));
    cr_assert_eq(ct_manifold_hulls(&a.h, &xa, &b.h, &xb, 0, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 1);
    cr_assert(fabs(m.normal.x) <= TOL(2) && fabs(m.normal.y) <= TOL(2) && fabs(m.normal.z - 1) <= TOL(2));
    cr_assert(fabs(m.points[0].separation + d) <= TOL(4));
    cr_assert(fabs(m.points[0].point.x) <= TOL(4) && fabs(m.points[0].point.y) <= TOL(4));
    cr_assert(fabs(m.points[0].point.z - (r2 - d / 2)) <= TOL(4));
    check_surfaces(&a.h, &xa, &b.h, &xb, &m, TOL(4));
}

Test(sat, parallel_edges_no_nan) {
    /* two boxes balanced edge on edge, edges parallel: no edge pair survives; the face axes
       give the contact along the shared edge segment */
    th a, b;
    double d = 0.05, r2 = sqrt(2.0);
    ct_xform xa = xf(1, 0, 0, M_PI / 4, 0, 0, 0), xb = xf(1, 0, 0, M_PI / 4, 0.5, 0, 2 * r2 - d);
    ct_manifold m;
    int i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    cr_assert_eq(ct_manifold_hulls(&a.h, &xa, &b.h, &xb, 0, NULL, &m), CT_OK);
    check_finite(&m);
    cr_assert(m.count >= 1);
    /* along any face normal (45 degrees) the separation is -d / sqrt(2) */
    for (i = 0; i < m.count; ++i) cr_assert(fabs(m.points[i].separation + d / r2) <= TOL(4));
    check_surfaces(&a.h, &xa, &b.h, &xb, &m, TOL(4));
}

Test(sat, coplanar_touching_no_nan) {
    th a, b;
    ct_xform xb = xf(0, 0, 1, 0, 0, 0, 2);
    ct_manifold m;
    int i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0, NULL, &m), CT_OK);
    check_finite(&m);
    cr_assert_eq(m.count, 4);
    for (i = 0; i < 4; ++i) cr_assert(fabs(m.points[i].separation) <= TOL(2));
    /* side by side, touching along a whole face and sharing edges with the top/bottom */
    xb = xf(0, 0, 1, 0, 2, 0, 0);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0, NULL, &m), CT_OK);
    check_finite(&m);
    cr_assert_eq(m.count, 4);
    cr_assert(fabs(m.normal.x - 1) <= TOL(1));
}

Test(sat, speculative_gaps) {
    th a, b;
    ct_xform xb = xf(0, 0, 1, 0, 0.2, 0.1, 1 + 0.5 + 0.1);
    ct_manifold m;
    int i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 0.5, 0.5, 0.5);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0.2, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    for (i = 0; i < 4; ++i) cr_assert(fabs(m.points[i].separation - 0.1) <= TOL(2));
    check_surfaces(&a.h, NULL, &b.h, &xb, &m, TOL(2));
    /* beyond the speculative distance: nothing, and a zero manifold */
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0.05, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 0);
    cr_assert(m.normal.x == 0 && m.normal.y == 0 && m.normal.z == 0);
    /* tilted: only the corners within the speculative distance are reported */
    xb = xf(1, 0, 0, 0.2, 0, 0, 1 + 0.5 * cos(0.2) + 0.5 * sin(0.2) + 0.01);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0.05, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 2, "count %d", m.count);
    for (i = 0; i < m.count; ++i) {
        cr_assert(m.points[i].separation <= 0.05);
        cr_assert(fabs(m.points[i].separation - 0.01) <= TOL(2));
    }
}

/* ---- invariants ------------------------------------------------------------------------------ */
static int same_manifold(const ct_manifold *x, const ct_manifold *y) { return memcmp(x, y, sizeof *x) == 0; }

/* ct_manifold_hulls for radii 0, else ct_manifold_rounded_hulls. */
static ct_status manifold_rc(const ct_hull *a, double ra, const ct_xform *xa, const ct_hull *b, double rb,
                             const ct_xform *xb, double spec, ct_sat_cache *cache, ct_manifold *m) {
    if (ra == 0 && rb == 0) return ct_manifold_hulls(a, xa, b, xb, (ct_real)spec, cache, m);
    return ct_manifold_rounded_hulls(a, xa, (ct_real)ra, b, xb, (ct_real)rb, (ct_real)spec, cache, m);
}
static ct_status manifold_r(const ct_hull *a, double ra, const ct_xform *xa, const ct_hull *b, double rb,
                            const ct_xform *xb, double spec, ct_manifold *m) {
    return manifold_rc(a, ra, xa, b, rb, xb, spec, NULL, m);
}

/* B tumbles and drifts through contact, separation and back (height z0 + amp sin): every frame
   the cached call returns exactly the cold one. Returns the frames in contact; *hits counts
   the frames that started with a filled cache. */
static int tumble_cached(const ct_hull *a, double ra, const ct_hull *b, double rb, double z0, double amp,
                         ct_sat_cache *cache, int *hits) {
    ct_manifold cold, warm;
    int f, contacts = 0;
    *hits = 0;
    memset(cache, 0, sizeof *cache);
    for (f = 0; f < 200; ++f) {
        double t = f * 0.05;
        ct_xform xb = xf(sin(t), cos(0.7 * t), 0.3, 0.4 * t, 0.3 * sin(t), 0.2 * cos(t), z0 + amp * sin(0.5 * t));
        int before = cache->type;
        cr_assert_eq(manifold_rc(a, ra, NULL, b, rb, &xb, 0.1, NULL, &cold), CT_OK);
        cr_assert_eq(manifold_rc(a, ra, NULL, b, rb, &xb, 0.1, cache, &warm), CT_OK);
        cr_assert(same_manifold(&cold, &warm), "frame %d: cached result differs from cold", f);
        cr_assert(cache->type >= 1 && cache->type <= 3);
        contacts += cold.count > 0;
        if (before) ++*hits;
    }
    return contacts;
}

Test(sat, cache_hit_equals_cold) {
    th a, b;
    ct_sat_cache cache;
    ct_manifold cold, warm;
    int hits;
    th_box(&a, 1, 1, 1);
    th_box(&b, 0.5, 0.7, 0.4);
    tumble_cached(&a.h, 0, &b.h, 0, 1.3, 0.4, &cache, &hits);
    cr_assert(hits >= 199);
    /* a cache full of another pair's indices only steers the search */
    cache.type = CT_SAT_EDGES; cache.index_a = 1000; cache.index_b = -5;
    {
        ct_xform xb = xf(0, 0, 1, 0.3, 0, 0, 1.4);
        cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0.1, NULL, &cold), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0.1, &cache, &warm), CT_OK);
        cr_assert(same_manifold(&cold, &warm));
    }
}

/* Swapping A and B (and their radii) negates the normal and keeps the count, the ids, the
   separations and the points. */
static void check_swap_r(const ct_hull *a, double ra, const ct_xform *xa, const ct_hull *b, double rb,
                         const ct_xform *xb, double spec, double tol) {
    ct_manifold m1, m2;
    int i;
    cr_assert_eq(manifold_r(a, ra, xa, b, rb, xb, spec, &m1), CT_OK);
    cr_assert_eq(manifold_r(b, rb, xb, a, ra, xa, spec, &m2), CT_OK);
    cr_assert(m1.count >= 1);
    cr_assert_eq(m1.count, m2.count);
    cr_assert(fabs(m1.normal.x + m2.normal.x) <= tol && fabs(m1.normal.y + m2.normal.y) <= tol &&
              fabs(m1.normal.z + m2.normal.z) <= tol);
    for (i = 0; i < m1.count; ++i) {
        cr_assert_eq(m1.points[i].id, m2.points[i].id, "point %d: id %x vs %x", i, m1.points[i].id, m2.points[i].id);
        cr_assert(fabs(m1.points[i].separation - m2.points[i].separation) <= tol);
        cr_assert(fabs(m1.points[i].point.x - m2.points[i].point.x) <= tol &&
                  fabs(m1.points[i].point.y - m2.points[i].point.y) <= tol &&
                  fabs(m1.points[i].point.z - m2.points[i].point.z) <= tol);
    }
}
static void check_swap(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, double tol) {
    check_swap_r(a, 0, xa, b, 0, xb, 0.05, tol);
}

/* Resting face on face, turned about the normal, edge on edge: cores gap apart (< 0: overlap). */
static void swap_suite(double ra, double rb, double gap) {
    th a, b;
    ct_xform xa = xf(0.2, 1, 0.1, 0.3, 1, 2, 3), xb;
    double r2 = sqrt(2.0);
    th_box(&a, 1, 1.2, 0.8);
    th_box(&b, 0.5, 0.4, 0.6);
    /* small box resting (face-face: A's face is the reference one way, B's the other) */
    xb = xa;
    xb.p = wpt(&xa, tu_vec(0.1, -0.2, 0.8 + 0.6 + gap));
    check_swap_r(&a.h, ra, &xa, &b.h, rb, &xb, 0.05, TOL(8));
    /* rotated about the normal: crossings of edges */
    {
        ct_xform r = xf(0, 0, 1, 0.5, 0, 0, 0);
        xb = compose(&xa, &r, wpt(&xa, tu_vec(0.9, 0.1, 0.8 + 0.6 + gap)));
        check_swap_r(&a.h, ra, &xa, &b.h, rb, &xb, 0.05, TOL(8));
    }
    /* edge on edge */
    th_box(&b, 1, 1, 1);
    th_box(&a, 1, 1, 1);
    xa = xf(1, 0, 0, M_PI / 4, 0, 0, 0);
    xb = xf(0, 1, 0, M_PI / 4, 0.1, 0.2, 2 * r2 + gap);
    check_swap_r(&a.h, ra, &xa, &b.h, rb, &xb, 0.05, TOL(8));
}

Test(sat, swap_symmetry) {
    swap_suite(0, 0, -0.03);
    swap_suite(0, 0, -0.1);
}

/* The same configuration (B at height 1.4 + gap over A) scaled and shifted gives the scaled,
   shifted manifold: ids, separations, points and normal. */
static void check_transformed_r(double scale, double shift, double ra, double rb, double gap) {
    th a, b, as, bs;
    ct_xform xa = xf(0.3, 0.2, 1, 0.4, 0, 0, 0), xb, xas, xbs;
    ct_manifold m, ms;
    int i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 0.5, 0.3, 0.4);
    th_box(&as, scale, scale, scale);
    th_box(&bs, 0.5 * scale, 0.3 * scale, 0.4 * scale);
    {
        ct_xform r = xf(0.1, 0.3, 1, 0.6, 0, 0, 0);
        xb = compose(&xa, &r, wpt(&xa, tu_vec(0.2, 0.1, 1.4 + gap)));
    }
    xas = xa; xbs = xb;
    xas.p = tu_vec(xa.p.x * scale + shift, xa.p.y * scale + shift, xa.p.z * scale - shift);
    xbs.p = tu_vec(xb.p.x * scale + shift, xb.p.y * scale + shift, xb.p.z * scale - shift);
    cr_assert_eq(manifold_r(&a.h, ra, &xa, &b.h, rb, &xb, 0.05, &m), CT_OK);
    cr_assert_eq(manifold_r(&as.h, ra * scale, &xas, &bs.h, rb * scale, &xbs, 0.05 * scale, &ms), CT_OK);
    cr_assert(m.count >= 3);
    cr_assert_eq(m.count, ms.count);
    for (i = 0; i < m.count; ++i) {
        double tol = TOL(4) * (1 + fabs(shift) / scale);
        cr_assert_eq(m.points[i].id, ms.points[i].id);
        cr_assert(fabs(m.points[i].separation - ms.points[i].separation / scale) <= tol);
        cr_assert(fabs(m.points[i].point.x - (ms.points[i].point.x - shift) / scale) <= tol);
        cr_assert(fabs(m.points[i].point.y - (ms.points[i].point.y - shift) / scale) <= tol);
        cr_assert(fabs(m.points[i].point.z - (ms.points[i].point.z + shift) / scale) <= tol);
    }
    cr_assert(fabs(m.normal.x - ms.normal.x) <= TOL(2) && fabs(m.normal.z - ms.normal.z) <= TOL(2));
}
static void check_transformed(double scale, double shift) { check_transformed_r(scale, shift, 0, 0, -0.15); }

Test(sat, translation_and_scale_invariance) {
    check_transformed(1, 1e4);
    check_transformed(1e-3, 0);
    check_transformed(1e3, 0);
    check_transformed(1e-6, 0);
    check_transformed(1e6, 0);
    if (!TU_FLOAT) check_transformed(1, 1e6);
}

/* ---- flat hulls, wedges --------------------------------------------------------------------- */
static void th_plate(th *t, double h) {
    /* a square plate: two faces, opposite normals */
    static const int f[] = { 0, 1, 2, 3, -1, 3, 2, 1, 0, -1 };
    ct_vec3 v[4];
    v[0] = tu_vec(-h, -h, 0); v[1] = tu_vec(h, -h, 0); v[2] = tu_vec(h, h, 0); v[3] = tu_vec(-h, h, 0);
    th_build(t, v, 4, f, 10);
}

Test(sat, flat_plate_on_box_and_edge_on) {
    th a, p;
    ct_xform xp = xf(0, 0, 1, 0.3, 0.1, 0, 1 - 0.01);
    ct_manifold m;
    int i;
    th_box(&a, 1, 1, 1);
    th_plate(&p, 0.5);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &p.h, &xp, 0, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    cr_assert(fabs(m.normal.z - 1) <= TOL(1));
    for (i = 0; i < 4; ++i) cr_assert(fabs(m.points[i].separation + 0.01) <= TOL(2));
    check_surfaces(&a.h, NULL, &p.h, &xp, &m, TOL(2));
    /* the plate standing on its edge, crossing the box's top edge at 90 degrees: an edge of
       the plate (flat Gauss-map arc) against an edge of a rotated box */
    {
        ct_xform xa = xf(1, 0, 0, M_PI / 4, 0, 0, 0);
        ct_xform xq = xf(0, 1, 0, M_PI / 2, 0, 0, sqrt(2.0) + 0.5 - 0.02);
        cr_assert_eq(ct_manifold_hulls(&a.h, &xa, &p.h, &xq, 0, NULL, &m), CT_OK);
        check_finite(&m);
        cr_assert_eq(m.count, 1);
        cr_assert(fabs(m.normal.z - 1) <= TOL(2));
        cr_assert(fabs(m.points[0].separation + 0.02) <= TOL(4));
        check_surfaces(&a.h, &xa, &p.h, &xq, &m, TOL(4));
        check_swap(&a.h, &xa, &p.h, &xq, TOL(8));
    }
}

Test(sat, wedge_apex_edge_gives_its_two_ends) {
    /* a thin wedge (triangular prism) pressed apex-edge first into a box face: the deepest
       vertex is on the apex edge, the incident face is taken among the faces around it (a
       slanted side, not an end cap), so exactly the two ends of the apex edge are the points. */
    static const int f[] = { 0, 2, 1, -1, 3, 4, 5, -1, 0, 1, 4, 3, -1, 1, 2, 5, 4, -1, 2, 0, 3, 5, -1 };
    ct_vec3 v[6];
    th a, w;
    ct_manifold m;
    ct_xform xw = xf(1, 0, 0, 0, 0, 0, 1 - 0.01);
    int i;
    /* cross-section in yz: apex at the bottom (0,0), top corners (-0.1, 2) and (0.1, 2);
       the prism extends along x over [-0.5, 0.5] */
    v[0] = tu_vec(-0.5, 0, 0); v[1] = tu_vec(-0.5, 0.1, 2); v[2] = tu_vec(-0.5, -0.1, 2);
    v[3] = tu_vec(0.5, 0, 0); v[4] = tu_vec(0.5, 0.1, 2); v[5] = tu_vec(0.5, -0.1, 2);
    th_box(&a, 1, 1, 1);
    th_build(&w, v, 6, f, (int)(sizeof f / sizeof f[0]));
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &w.h, &xw, 0, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 2, "count %d", m.count);
    for (i = 0; i < 2; ++i) {
        cr_assert(fabs(m.points[i].separation + 0.01) <= TOL(4));
        cr_assert(fabs(m.points[i].point.y) <= TOL(4));
        cr_assert(fabs(fabs(m.points[i].point.x) - 0.5) <= TOL(4));
    }
}

/* ---- bad input -------------------------------------------------------------------------------- */
Test(sat, bad_input_is_invalid) {
    th a, b;
    ct_hull zero;
    ct_manifold m;
    ct_xform x = ct_xform_identity();
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    memset(&zero, 0, sizeof zero);
    cr_assert_eq(ct_manifold_hulls(NULL, NULL, &b.h, NULL, 0, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, NULL, NULL, 0, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, NULL, 0, NULL, NULL), CT_INVALID);
    cr_assert_eq(ct_manifold_hulls(&zero, NULL, &b.h, NULL, 0, NULL, &m), CT_INVALID);
    cr_assert_eq(m.count, 0);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, NULL, (ct_real)NAN, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, NULL, -1, NULL, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, NULL, (ct_real)INFINITY, NULL, &m), CT_INVALID);
    x.p.x = (ct_real)NAN;
    cr_assert_eq(ct_manifold_hulls(&a.h, &x, &b.h, NULL, 0, NULL, &m), CT_INVALID);
    x = ct_xform_identity();
    x.r[0][0] = 2;
    cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &x, 0, NULL, &m), CT_INVALID);
    cr_assert_eq(m.count, 0);
}

/* ---- random hull pairs against the brute-force SAT ------------------------------------------ */
static int random_hull(ct_hull *h, unsigned long long *seed, int n, double scale) {
    ct_vec3 p[512];
    int i;
    double ax = 0.6 + 0.8 * tu_uniform(seed), ay = 0.6 + 0.8 * tu_uniform(seed);
    for (i = 0; i < n; ++i) {
        ct_vec3 u = tu_random_unit(seed);
        p[i] = tu_vec(u.x * ax * scale, u.y * ay * scale, u.z * scale);
    }
    return ct_hull_build(p, n, NULL, NULL, h) == CT_OK;
}

/* One random pair: B's centre at a random direction from A's at a distance that ranges from
   deep overlap to a clear gap. */
static void random_pair_span(unsigned long long *seed, ct_xform *xa, ct_xform *xb, double scale, double rmin,
                             double rspan, double shift) {
    ct_vec3 d = tu_random_unit(seed);
    double r = scale * (rmin + rspan * tu_uniform(seed));
    *xa = tu_random_xform(seed, 0);
    *xb = tu_random_xform(seed, 0);
    xa->p = tu_vec(shift, -shift, shift);
    xb->p = tu_vec(shift + r * d.x, -shift + r * d.y, shift + r * d.z);
}

static void random_pair(unsigned long long *seed, ct_xform *xa, ct_xform *xb, double scale, double shift) {
    random_pair_span(seed, xa, xb, scale, 1.2, 1.0, shift);
}

typedef struct pair_stats { int contacts, separated, single, multi, exact_deepest; } pair_stats;

/* One pair against the brute-force SAT (see the assertions). */
static void check_pair(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, int k, pair_stats *st) {
    ct_manifold m;
    double L = (double)a->extent + (double)b->extent, spec = 0.05 * L, tol = TOL(4 * L), sat, satf, along, deepest = 1e300;
    int i;
    cr_assert_eq(ct_manifold_hulls(a, xa, b, xb, (ct_real)spec, NULL, &m), CT_OK);
    check_finite(&m);
    /* Over every face normal and edge cross product the largest separation is exact (minus
       the penetration depth) when the hulls overlap; when they are apart it is a lower bound
       of the distance that may exceed the SAT's (only the Minkowski-face edge pairs count
       there), while the face normals are always in the SAT's set. */
    sat = sat_oracle(a, xa, b, xb, 0);
    satf = sat_oracle(a, xa, b, xb, 1);
    if (satf > spec + tol) cr_assert_eq(m.count, 0, "pair %d: separated by %g > %g but %d points", k, satf, spec, m.count);
    if (sat < -tol) cr_assert(m.count >= 1, "pair %d: overlapping by %g but no point", k, -sat);
    if (m.count == 0) { ++st->separated; return; }
    ++st->contacts;
    cr_assert(fabs(dot3(m.normal, m.normal) - 1) <= tol);
    along = sep_along(a, xa, b, xb, m.normal);
    /* the chosen axis is the least-penetration one, up to the face preferences */
    if (sat <= 0) cr_assert(along >= sat - (0.03 * fabs(sat) + 7.5e-4 * L) - tol, "pair %d: axis separation %g, best %g", k, along, sat);
    else cr_assert(along >= -tol && along >= satf - (0.03 * fabs(satf) + 7.5e-4 * L) - tol, "pair %d: apart, axis separation %g", k, along);
    for (i = 0; i < m.count; ++i) {
        cr_assert(m.points[i].separation >= along - tol, "pair %d: point deeper than the SAT", k);
        cr_assert(m.points[i].separation <= spec + tol);
        if (m.points[i].separation < deepest) deepest = m.points[i].separation;
    }
    check_surfaces(a, xa, b, xb, &m, tol);
    if (m.count == 1) ++st->single; else ++st->multi;
    if (fabs(deepest - along) <= tol) ++st->exact_deepest;
}

/* n random hull pairs (8 to 31 vertices) whose centres lie rmin to rmin + rspan apart (times
   the hulls' size, about 1), each checked against the brute-force SAT; both: in both orders. */
static void sat_pairs(unsigned long long seed, int n, double rmin, double rspan, int both, pair_stats *st) {
    int k;
    memset(st, 0, sizeof *st);
    for (k = 0; k < n; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        cr_assert(random_hull(&a, &seed, 8 + (int)(tu_uniform(&seed) * 24), 1));
        cr_assert(random_hull(&b, &seed, 8 + (int)(tu_uniform(&seed) * 24), 1));
        random_pair_span(&seed, &xa, &xb, 1, rmin, rspan, 0);
        check_pair(&a, &xa, &b, &xb, k, st);
        if (both) check_pair(&b, &xb, &a, &xa, k, st);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
}

Test(sat, random_pairs_against_brute_force_sat) {
    pair_stats st;
    sat_pairs(2024, 300, 1.2, 1.0, 0, &st);
    cr_log_info("random pairs: %d contacts (%d single-point, %d multi), %d separated; deepest point at the SAT depth in %d",
                st.contacts, st.single, st.multi, st.separated, st.exact_deepest);
    cr_assert(st.contacts > 100 && st.separated > 50);
}

Test(sat, deep_overlap_pairs_against_brute_force_sat) {
    /* centres 0.05 to 1.2 apart: each hull's witness vertex lies deep inside the other, where
       its bounds skip most face supports and edge arcs; the chosen axis must still be the
       brute-force SAT's, up to the face preferences, in both orders */
    pair_stats st;
    sat_pairs(4048, 200, 0.05, 1.15, 1, &st);
    cr_log_info("deep pairs: %d contacts, %d separated", st.contacts, st.separated);
    cr_assert(st.contacts >= 360, "%d of 400 in contact", st.contacts);
}

Test(sat, random_box_pairs_against_brute_force_sat) {
    /* two boxes take the closed-form (OBB) query: the same checks against the brute-force SAT
       as the generic hulls, for random sizes and orientations, built both ways (ct_hull_box
       and ct_hull_build of the 8 corners, whose faces come in another order), plus the cache */
    unsigned long long seed = 4711;
    pair_stats st;
    int k, edges = 0;
    memset(&st, 0, sizeof st);
    for (k = 0; k < 300; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        ct_manifold m, mc;
        ct_sat_cache cache;
        ct_vec3 ha = tu_vec(0.2 + tu_uniform(&seed), 0.2 + tu_uniform(&seed), 0.2 + tu_uniform(&seed));
        ct_vec3 hb = tu_vec(0.2 + tu_uniform(&seed), 0.2 + tu_uniform(&seed), 0.2 + tu_uniform(&seed));
        cr_assert_eq(ct_hull_box(ha, NULL, &a), CT_OK);
        if (k % 2) {
            ct_vec3 p[8];
            int i;
            for (i = 0; i < 8; ++i) p[i] = tu_vec(i & 1 ? hb.x : -hb.x, i & 2 ? hb.y : -hb.y, i & 4 ? hb.z : -hb.z);
            cr_assert_eq(ct_hull_build(p, 8, NULL, NULL, &b), CT_OK);
        } else cr_assert_eq(ct_hull_box(hb, NULL, &b), CT_OK);
        random_pair(&seed, &xa, &xb, 0.8, k % 3 == 0 ? 1e3 : 0);
        check_pair(&a, &xa, &b, &xb, k, &st);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, (ct_real)(0.05 * (a.extent + b.extent)), NULL, &m), CT_OK);
        memset(&cache, 0, sizeof cache);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, (ct_real)(0.05 * (a.extent + b.extent)), &cache, &mc), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, (ct_real)(0.05 * (a.extent + b.extent)), &cache, &mc), CT_OK);
        cr_assert(same_manifold(&m, &mc), "pair %d: cached differs", k);
        edges += cache.type == CT_SAT_EDGES;
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_log_info("boxes: %d contacts (%d single-point, %d multi), %d separated, %d edge axes", st.contacts, st.single,
                st.multi, st.separated, edges);
    cr_assert(st.contacts > 100 && st.separated > 30 && st.single > 10 && st.multi > 50);
}

Test(sat, large_hulls_hill_climbing_against_brute_force_sat) {
    /* more than 64 vertices: supports by hill climbing; scaled and shifted */
    unsigned long long seed = 77;
    pair_stats st;
    int k;
    memset(&st, 0, sizeof st);
    for (k = 0; k < 6; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        double sc = k % 3 == 0 ? 1e-3 : (k % 3 == 1 ? 1 : 1e3);
        cr_assert(random_hull(&a, &seed, 72, sc));
        cr_assert(random_hull(&b, &seed, 72, sc));
        cr_assert(a.nverts > 64 && b.nverts > 64);
        random_pair(&seed, &xa, &xb, sc, 1e3 * sc);
        check_pair(&a, &xa, &b, &xb, k, &st);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_log_info("large hulls: %d contacts, %d separated", st.contacts, st.separated);
    cr_assert(st.contacts >= 2);
}

/* A hull from lattice points (integers in [-8, 8] times scale), jittered by up to `jitter`
   lattice units, with `near` of them copied and moved by `dup` units along one axis: near
   duplicates make edges whose length is of the order of the hull's tolerance (float). */
static int lattice_hull(ct_hull *h, unsigned long long *seed, double scale, double jitter, int near, double dup) {
    ct_vec3 p[24];
    int n = 4 + (int)(tu_uniform(seed) * 12), i;
    for (i = 0; i < n; ++i)
        p[i] = tu_vec(scale * ((int)(tu_uniform(seed) * 17) - 8 + jitter * (2 * tu_uniform(seed) - 1)),
                      scale * ((int)(tu_uniform(seed) * 17) - 8 + jitter * (2 * tu_uniform(seed) - 1)),
                      scale * ((int)(tu_uniform(seed) * 17) - 8 + jitter * (2 * tu_uniform(seed) - 1)));
    for (i = 0; i < near; ++i) {
        ct_vec3 q = p[(int)(tu_uniform(seed) * n)];
        int axis = (int)(tu_uniform(seed) * 3);
        ct_real *c = axis == 0 ? &q.x : (axis == 1 ? &q.y : &q.z);
        *c = (ct_real)((double)*c + scale * dup);
        p[n++] = q;
    }
    return ct_hull_build(p, n, NULL, NULL, h) == CT_OK;
}

Test(sat, lattice_hulls_with_near_duplicate_vertices_against_brute_force_sat) {
    /* Regression (fuzz_sat, float): an edge 1.3e-5 long between two vertices of faces merged
       from nearly coplanar ones has a direction its faces do not share; the arc test accepted
       it with an edge of A far from the supports and the query found deeply overlapping hulls
       "apart by +1". The brute-force SAT measures every axis by the supports. */
    unsigned long long seed = 1313;
    pair_stats st;
    int k;
    memset(&st, 0, sizeof st);
    for (k = 0; k < 1500; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        double dup = k % 3 == 0 ? 1e-5 : (k % 3 == 1 ? 2e-6 : 1e-4);
        if (!lattice_hull(&a, &seed, 1, 1e-3, 2, dup)) continue;
        if (!lattice_hull(&b, &seed, 1, 1e-3, 2, dup)) { ct_hull_free(&a); continue; }
        xa = tu_random_xform(&seed, 0);
        xb = tu_random_xform(&seed, 6);
        check_pair(&a, &xa, &b, &xb, k, &st);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_log_info("lattice hulls with near duplicates: %d contacts, %d separated", st.contacts, st.separated);
    cr_assert(st.contacts > 500 && st.separated > 60);
}

/* x moved by one ulp towards +inf (dir > 0) or -inf */
static ct_real ulp_step(ct_real x, int dir) {
    return TU_FLOAT ? (ct_real)nextafterf((float)x, dir > 0 ? INFINITY : -INFINITY) : (ct_real)nextafter((double)x, dir > 0 ? INFINITY : -INFINITY);
}

Test(sat, speculative_bounds_every_separation) {
    /* Contract: every point has separation <= speculative. Probed where it is tightest: with
       speculative equal to a point's own separation and one ulp either side (an edge contact
       used to recompute its separation from the closest points and exceed the query's value,
       which had decided "within speculative", by an ulp: 5% of such probes, both precisions). */
    unsigned long long seed = 4242;
    static const double scales[3] = { 1e-6, 1, 1e6 };
    int k, probes = 0;
    for (k = 0; k < 600; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        ct_manifold m, m2;
        double scale = scales[k % 3];
        int i, j, d;
        if (!lattice_hull(&a, &seed, scale, 0, 0, 0)) continue;
        if (!lattice_hull(&b, &seed, scale, 0, 0, 0)) { ct_hull_free(&a); continue; }
        xa = tu_random_xform(&seed, 4 * scale);
        xb = tu_random_xform(&seed, 12 * scale);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, (ct_real)(100 * scale), NULL, &m), CT_OK);
        for (i = 0; i < m.count; ++i) {
            if (!(m.points[i].separation >= 0)) continue;
            for (d = -1; d <= 1; ++d) {
                ct_real spec = d ? ulp_step(m.points[i].separation, d) : m.points[i].separation;
                ++probes;
                cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, spec, NULL, &m2), CT_OK);
                for (j = 0; j < m2.count; ++j)
                    cr_assert(m2.points[j].separation <= spec, "pair %d: separation %.9g > speculative %.9g", k,
                              (double)m2.points[j].separation, (double)spec);
                cr_assert_eq(ct_manifold_rounded_hulls(&a, &xa, 0, &b, &xb, 0, spec, NULL, &m2), CT_OK);
                for (j = 0; j < m2.count; ++j) cr_assert(m2.points[j].separation <= spec, "pair %d (rounded, radius 0)", k);
            }
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_log_info("speculative probes: %d", probes);
    cr_assert(probes > 300, "only %d probes", probes);
}

/* Random 20-vertex hull pairs moving over 30 frames (radius r on both, 0: ct_manifold_hulls):
   the cached call returns the cold one every frame; returns the swapped calls that kept the
   count, the ids and the negated normal, out of *swaps contacts. */
static int cache_and_swap_frames(double r, unsigned long long seed, int *swaps) {
    int k, f, swap_same = 0;
    *swaps = 0;
    for (k = 0; k < 40; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        ct_sat_cache cache;
        ct_vec3 v = tu_random_unit(&seed);
        cr_assert(random_hull(&a, &seed, 20, 1));
        cr_assert(random_hull(&b, &seed, 20, 1));
        random_pair(&seed, &xa, &xb, 1, 0);
        memset(&cache, 0, sizeof cache);
        for (f = 0; f < 30; ++f) {
            ct_manifold cold, warm, sw;
            ct_xform dx = xf(v.y, v.z, v.x, 0.02 * f, 0.02 * f * v.x, 0.02 * f * v.y, 0.02 * f * v.z);
            ct_xform x2 = compose(&dx, &xb, tu_vec(xb.p.x + dx.p.x, xb.p.y + dx.p.y, xb.p.z + dx.p.z));
            int i;
            cr_assert_eq(manifold_rc(&a, r, &xa, &b, r, &x2, 0.1, NULL, &cold), CT_OK);
            cr_assert_eq(manifold_rc(&a, r, &xa, &b, r, &x2, 0.1, &cache, &warm), CT_OK);
            cr_assert(same_manifold(&cold, &warm), "r %g pair %d frame %d: cache changed the result", r, k, f);
            cr_assert_eq(manifold_rc(&b, r, &x2, &a, r, &xa, 0.1, NULL, &sw), CT_OK);
            if (cold.count > 0) {
                int same = sw.count == cold.count;
                ++*swaps;
                for (i = 0; same && i < cold.count; ++i) same = sw.points[i].id == cold.points[i].id;
                same = same && fabs(sw.normal.x + cold.normal.x) + fabs(sw.normal.y + cold.normal.y) +
                                   fabs(sw.normal.z + cold.normal.z) <= TOL(4);
                swap_same += same;
            }
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    return swap_same;
}

Test(sat, random_pairs_cache_equals_cold_and_swap) {
    int swaps, same = cache_and_swap_frames(0, 99, &swaps);
    cr_log_info("swap: %d of %d contacts identical under A/B swap", same, swaps);
    /* a near-tie between a face of A and one of B goes to A both ways, so a few differ */
    cr_assert(same >= 0.8 * swaps, "swap: %d of %d", same, swaps);
}

Test(sat, rounded_random_pairs_cache_equals_cold_and_swap) {
    /* expectation: as for the plain hulls, with radius 0.05 on both (GJK and SAT paths) */
    int swaps, same = cache_and_swap_frames(0.05, 199, &swaps);
    cr_log_info("rounded swap: %d of %d contacts identical under A/B swap", same, swaps);
    cr_assert(swaps > 200 && same >= 0.8 * swaps, "swap: %d of %d", same, swaps);
}

/* The certificate a contact leaves in the cache: random 20-vertex pairs in contact, B drifting
   and turning by 0 .. 3e-3 of the size per frame (resting to slowly sliding bodies). Every
   cached call returns the cold call bit for bit, and most of them are answered by the
   certificate: such a call leaves the cache's base pose (ct__rel) as it was, a full query
   moves it to the current pose. A cache carried over to another pair of hulls (a hull rebuilt
   in the same struct, the pair swapped) is not taken for theirs. */
Test(sat, certificate_answers_equal_cold) {
    static const double step[4] = { 0, 1e-6, 3e-4, 3e-3 };
    unsigned long long seed = 4242;
    int k, f, calls = 0, certified = 0, certs = 0;
    for (k = 0; k < 160; ++k) {
        ct_hull a, b;
        ct_xform xa, xb, x2;
        ct_sat_cache cache;
        ct_manifold cold, warm;
        ct_vec3 v = tu_random_unit(&seed), ax = tu_random_unit(&seed);
        double e = step[k % 4];
        cr_assert(random_hull(&a, &seed, 20, 1));
        cr_assert(random_hull(&b, &seed, 20, 1));
        random_pair_span(&seed, &xa, &xb, 1, 0.5, 1.2, k % 3 ? 0 : 1e3);
        memset(&cache, 0, sizeof cache);
        for (f = 0; f < 24; ++f) {
            ct_xform dx = xf(ax.x, ax.y, ax.z, e * f, e * f * v.x, e * f * v.y, e * f * v.z), base;
            x2 = compose(&dx, &xb, tu_vec(xb.p.x + dx.p.x, xb.p.y + dx.p.y, xb.p.z + dx.p.z));
            base = cache.ct__rel;
            cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &x2, 0.02, NULL, &cold), CT_OK);
            cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &x2, 0.02, &cache, &warm), CT_OK);
            cr_assert(same_manifold(&cold, &warm), "pair %d frame %d (step %g): the cached call differs", k, f, e);
            if (f > 0 && cold.count > 0) {
                ++calls;
                certified += cache.ct__ok == 1 && memcmp(&base, &cache.ct__rel, sizeof base) == 0;
            }
            certs += f == 1 && cache.ct__ok == 1;   /* kept from the second call on */
        }
        /* carried over: the swapped pair, then B rebuilt in place from other points */
        cr_assert_eq(ct_manifold_hulls(&b, &x2, &a, &xa, 0.02, NULL, &cold), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&b, &x2, &a, &xa, 0.02, &cache, &warm), CT_OK);
        cr_assert(same_manifold(&cold, &warm), "pair %d: a cache of (A, B) changed (B, A)", k);
        ct_hull_free(&b);
        cr_assert(random_hull(&b, &seed, 20, 1.1));
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &x2, 0.02, NULL, &cold), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &x2, 0.02, &cache, &warm), CT_OK);
        cr_assert(same_manifold(&cold, &warm), "pair %d: a cache of the old B changed the rebuilt one", k);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    cr_log_info("certificate: %d of %d contact calls answered by it (%d pairs left one)", certified, calls, certs);
    cr_assert(certs > 40 && certified > calls / 3, "certificate: %d of %d calls, %d pairs", certified, calls, certs);
}

/* The certificate under a scene's motion: both bodies of a contact drift 0.5% of their size
   and turn by 1 degree about their own axes on every call (the scene pipeline issue's step),
   at a tenth of that, and five times that (beyond what a certificate's lead covers: the calls
   fall back to full queries); 20-vertex hulls and 100-vertex ones (about 200 faces: the
   certificate keeps entries for the first CT__SAT_CE and one bound for the rest) and a few of
   300 vertices (about 600 faces). Every cached call returns the cold call bit for bit. At a
   tenth of the motion most contact calls are answered by the certificate, which lists the
   candidates a few calls' motion below each decision (a certificate of the winners alone held
   for under 1% of these calls); at the scene's motion one would answer two or three calls,
   less than it costs with a lead that large (over twice the least), so the cache makes none
   for most pairs. */
Test(sat, certificate_under_scene_motion) {
    static const double rate[3] = { 0.1, 1, 5 };
    unsigned long long seed = 5151;
    static const int size[3] = { 20, 100, 300 };
    int k, f, r, big, calls[3][3], certified[3][3];
    memset(calls, 0, sizeof calls);
    memset(certified, 0, sizeof certified);
    for (k = 0; k < 132; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        ct_sat_cache cache;
        ct_manifold cold, warm;
        ct_vec3 va = tu_random_unit(&seed), vb = tu_random_unit(&seed), aa = tu_random_unit(&seed), ab = tu_random_unit(&seed);
        int n;
        r = k % 3;
        big = k >= 120 ? 2 : (k / 3) % 4 == 0;   /* 300 vertices: best faces beyond CT__SAT_CE */
        n = size[big];
        cr_assert(random_hull(&a, &seed, n, 1));
        cr_assert(random_hull(&b, &seed, n, 1));
        random_pair_span(&seed, &xa, &xb, 1, 0.9, 0.9, k % 2 ? 0 : 1e3);
        memset(&cache, 0, sizeof cache);
        for (f = 0; f < 30; ++f) {
            double da = 0.01 * rate[r] * (double)a.extent, db = 0.01 * rate[r] * (double)b.extent, t = rate[r] * 3.14159265358979 / 180;
            ct_xform ra = xf(aa.x, aa.y, aa.z, t, 0, 0, 0), rb = xf(ab.x, ab.y, ab.z, t, 0, 0, 0), base = cache.ct__rel;
            xa = compose(&ra, &xa, tu_vec(xa.p.x + da * va.x, xa.p.y + da * va.y, xa.p.z + da * va.z));
            xb = compose(&rb, &xb, tu_vec(xb.p.x + db * vb.x, xb.p.y + db * vb.y, xb.p.z + db * vb.z));
            cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, 0.02, NULL, &cold), CT_OK);
            cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, 0.02, &cache, &warm), CT_OK);
            cr_assert(same_manifold(&cold, &warm), "pair %d (%d vertices, rate %g) frame %d: the cached call differs", k, n,
                      rate[r], f);
            if (f > 1 && cold.count > 0) {
                ++calls[big][r];
                certified[big][r] += cache.ct__ok == 1 && memcmp(&base, &cache.ct__rel, sizeof base) == 0;
            }
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
    for (big = 0; big < 3; ++big)
        cr_log_info("certificate under motion, %d vertices: %d of %d (0.1x), %d of %d (1x), %d of %d (5x) contact calls "
                    "answered by it", size[big], certified[big][0], calls[big][0], certified[big][1], calls[big][1],
                    certified[big][2], calls[big][2]);
    cr_assert(calls[0][0] > 200 && certified[0][0] > calls[0][0] * 3 / 4, "0.1x: %d of %d", certified[0][0], calls[0][0]);
    /* at the scene's motion a certificate would answer two or three calls, less than it costs
       with the lead that motion sets: the cache makes none for most pairs (the policy of
       ct__sat_cached_query; certificates made anyway answered 19% of these calls) */
    cr_assert(calls[0][1] > 200 && certified[0][1] < calls[0][1] / 10, "1x: %d of %d", certified[0][1], calls[0][1]);
}

/* A hull rebuilt in the same struct from its own points turned a quarter turn about their
   centre (same size, same extent, likely the same memory): a cache holding a certificate of the
   old hull must not answer for the new one. */
Test(sat, certificate_not_taken_for_a_rebuilt_hull) {
    unsigned long long seed = 77;
    ct_vec3 p[20], q[20];
    ct_hull a, b;
    ct_xform xa = ct_xform_identity(), xb = ct_xform_identity();
    ct_sat_cache cache;
    ct_manifold cold, warm;
    int i, f, rebuilt = 0;
    for (i = 0; i < 20; ++i) p[i] = tu_random_unit(&seed);
    cr_assert(random_hull(&a, &seed, 20, 1));
    for (f = 0; f < 20; ++f) {
        xb.p = tu_vec(0.9 + 0.01 * f, 0.3, -0.2);
        cr_assert_eq(ct_hull_build(p, 20, NULL, NULL, &b), CT_OK);
        memset(&cache, 0, sizeof cache);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, 0.02, &cache, &warm), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, 0.02, &cache, &warm), CT_OK);
        rebuilt += cache.ct__ok == 1;
        ct_hull_free(&b);
        for (i = 0; i < 20; ++i) q[i] = tu_vec(-p[i].y, p[i].x, p[i].z);
        cr_assert_eq(ct_hull_build(q, 20, NULL, NULL, &b), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, 0.02, NULL, &cold), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, 0.02, &cache, &warm), CT_OK);
        cr_assert(same_manifold(&cold, &warm), "frame %d: the old hull's certificate answered for the rebuilt one", f);
        /* a foreign cache: the call neither used nor rebuilt a certificate (a first call of a
           pair keeps none), it left a probe */
        cr_assert(cache.ct__ok != 1, "frame %d: the old hull's cache was taken for the rebuilt hull's", f);
        ct_hull_free(&b);
    }
    cr_assert(rebuilt > 5, "only %d frames had a certificate to test", rebuilt);
    ct_hull_free(&a);
}

Test(sat, built_box_matches_fixture_box) {
    /* the same configuration with boxes from ct_hull_box (the library's half-edge layout)
       and from the fixture: the same manifold up to feature numbering */
    th fa, fb;
    ct_hull a, b;
    ct_xform xb = xf(0.3, -0.2, 1, 0.4, 0.2, -0.1, 1 + 0.4 - 0.03);
    ct_manifold m1, m2;
    int i, j;
    th_box(&fa, 1, 1, 1);
    th_box(&fb, 0.5, 0.7, 0.4);
    cr_assert_eq(ct_hull_box(tu_vec(1, 1, 1), NULL, &a), CT_OK);
    cr_assert_eq(ct_hull_box(tu_vec(0.5, 0.7, 0.4), NULL, &b), CT_OK);
    cr_assert_eq(ct_manifold_hulls(&fa.h, NULL, &fb.h, &xb, 0.05, NULL, &m1), CT_OK);
    cr_assert_eq(ct_manifold_hulls(&a, NULL, &b, &xb, 0.05, NULL, &m2), CT_OK);
    cr_assert(m1.count >= 3);
    cr_assert_eq(m1.count, m2.count);
    cr_assert(fabs(m1.normal.z - m2.normal.z) <= TOL(1));
    for (i = 0; i < m1.count; ++i) {
        int found = 0;
        for (j = 0; j < m2.count; ++j)
            found |= fabs(m1.points[i].point.x - m2.points[j].point.x) + fabs(m1.points[i].point.y - m2.points[j].point.y) +
                     fabs(m1.points[i].point.z - m2.points[j].point.z) <= TOL(4) &&
                     fabs(m1.points[i].separation - m2.points[j].separation) <= TOL(4);
        cr_assert(found, "point %d of the fixture boxes not found with ct_hull_box", i);
    }
    check_surfaces(&a, NULL, &b, &xb, &m2, TOL(2));
    ct_hull_free(&a);
    ct_hull_free(&b);
}

/* ---- hull against sphere ---------------------------------------------------------------------- */
Test(sat, hull_sphere_closed_forms) {
    th a;
    ct_manifold m;
    double r3 = 1 / sqrt(3.0), s2 = sqrt(2.0);
    th_box(&a, 1, 1, 1);
    /* above the top face */
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(0.3, 0.2, 1.5), (ct_real)0.6, 0, &m), CT_OK);
    cr_assert_eq(m.count, 1);
    cr_assert(fabs(m.normal.z - 1) <= TOL(1) && fabs(m.points[0].separation + 0.1) <= TOL(2));
    cr_assert(fabs(m.points[0].point.x - 0.3) <= TOL(2) && fabs(m.points[0].point.z - 0.95) <= TOL(2));
    /* off a corner, within the speculative distance */
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(1 + 0.5 * r3, 1 + 0.5 * r3, 1 + 0.5 * r3), (ct_real)0.4, (ct_real)0.2, &m), CT_OK);
    cr_assert_eq(m.count, 1);
    cr_assert(fabs(m.normal.x - r3) <= TOL(2) && fabs(m.normal.y - r3) <= TOL(2) && fabs(m.normal.z - r3) <= TOL(2));
    cr_assert(fabs(m.points[0].separation - 0.1) <= TOL(2));
    /* ... but not beyond it */
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(1 + 0.5 * r3, 1 + 0.5 * r3, 1 + 0.5 * r3), (ct_real)0.4, (ct_real)0.05, &m), CT_OK);
    cr_assert_eq(m.count, 0);
    /* at an edge */
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(1.3, 1.3, 0.2), (ct_real)0.5, 0, &m), CT_OK);
    cr_assert_eq(m.count, 1);
    cr_assert(fabs(m.normal.x - 1 / s2) <= TOL(2) && fabs(m.normal.y - 1 / s2) <= TOL(2) && fabs(m.normal.z) <= TOL(2));
    cr_assert(fabs(m.points[0].separation - (0.3 * s2 - 0.5)) <= TOL(2));
    /* centre inside: the face of least penetration */
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(0.2, 0.5, 0.1), (ct_real)0.3, 0, &m), CT_OK);
    cr_assert_eq(m.count, 1);
    cr_assert(fabs(m.normal.y - 1) <= TOL(1) && fabs(m.points[0].separation + 0.8) <= TOL(2));
    /* centre exactly on the surface, radius 0: no direction from the closest point */
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(0.5, 1, 0.5), 0, 0, &m), CT_OK);
    check_finite(&m);
    cr_assert_eq(m.count, 1);
    cr_assert(fabs(m.normal.y - 1) <= TOL(1) && fabs(m.points[0].separation) <= TOL(2));
    /* bad input */
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(NAN, 0, 0), 1, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(0, 0, 0), -1, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_sphere(NULL, NULL, tu_vec(0, 0, 0), 1, 0, &m), CT_INVALID);
    cr_assert_eq(ct_manifold_hull_sphere(&a.h, NULL, tu_vec(0, 0, 0), 1, 0, NULL), CT_INVALID);
}

Test(sat, hull_sphere_random_against_projection_certificate) {
    /* outside: p (hull side) is on the surface, is a support point along n, and the centre
       is p + (separation + radius) n, which together certify p as the projection of the
       centre; inside: separation + radius is the largest plane distance. */
    unsigned long long seed = 31;
    int k, outside = 0;
    for (k = 0; k < 200; ++k) {
        ct_hull a;
        ct_xform xa;
        ct_manifold m;
        ct_vec3 c, n, pa;
        double r, dmax = -1e300, hmax = -1e300, L = 1, tol = TOL(8);
        int i;
        cr_assert(random_hull(&a, &seed, 6 + (int)(tu_uniform(&seed) * 30), 1));
        xa = tu_random_xform(&seed, 3);
        n = tu_random_unit(&seed);
        r = 0.5 * tu_uniform(&seed);
        c = wpt(&xa, tu_vec(n.x * 2 * tu_uniform(&seed), n.y * 2 * tu_uniform(&seed), n.z * 2 * tu_uniform(&seed)));
        cr_assert_eq(ct_manifold_hull_sphere(&a, &xa, c, (ct_real)r, 10, &m), CT_OK);
        cr_assert_eq(m.count, 1);
        n = m.normal;
        pa = tu_vec(m.points[0].point.x - m.points[0].separation / 2 * n.x, m.points[0].point.y - m.points[0].separation / 2 * n.y,
                    m.points[0].point.z - m.points[0].separation / 2 * n.z);
        for (i = 0; i < a.nfaces; ++i) {
            ct_vec3 wn = wdir(&xa, a.planes[i].n);
            double d = dot3(wn, sub3(c, wpt(&xa, tu_vec(0, 0, 0)))) + a.planes[i].d;
            if (d > dmax) dmax = d;
        }
        for (i = 0; i < a.nverts; ++i) { double h = dot3(n, wpt(&xa, a.verts[i])); if (h > hmax) hmax = h; }
        if (dmax > tol) {
            ++outside;
            cr_assert(fabs(plane_dist(&a, &xa, pa)) <= tol * L, "sphere %d: hull point off the surface", k);
            cr_assert(fabs(hmax - dot3(n, pa)) <= tol * L, "sphere %d: hull point is not a support point", k);
            cr_assert(fabs(pa.x + (m.points[0].separation + r) * n.x - c.x) + fabs(pa.y + (m.points[0].separation + r) * n.y - c.y) +
                      fabs(pa.z + (m.points[0].separation + r) * n.z - c.z) <= 3 * tol, "sphere %d: centre off the normal line", k);
        } else if (dmax < -tol) {
            cr_assert(fabs(m.points[0].separation + r - dmax) <= tol, "sphere %d: inside depth", k);
        }
        ct_hull_free(&a);
    }
    cr_assert(outside > 50);
}

Test(sat, degenerate_box_arrangements_fuzz) {
    /* boxes on a half-unit lattice, rotated by multiples of 45 degrees: faces touching exactly,
       coincident edges and vertices, parallel edges everywhere. No NaN, the oracle's
       invariants, and the cache gives the cold answer. */
    unsigned long long seed = 4242;
    int k, contacts = 0;
    for (k = 0; k < 300; ++k) {
        th a, b;
        ct_xform xa, xb, r1, r2;
        ct_manifold m, mc;
        ct_sat_cache cache;
        int ax = (int)(tu_uniform(&seed) * 3), q = (int)(tu_uniform(&seed) * 8);
        double L, sat, tol;
        th_box(&a, 1, 0.5 + 0.5 * (int)(tu_uniform(&seed) * 3), 1);
        th_box(&b, 0.5 * (1 + (int)(tu_uniform(&seed) * 2)), 0.5, 0.5 * (1 + (int)(tu_uniform(&seed) * 3)));
        r1 = xf(ax == 0, ax == 1, ax == 2, q * M_PI / 4, 0, 0, 0);
        r2 = xf(ax != 0, ax == 0, 0, (int)(tu_uniform(&seed) * 4) * M_PI / 2, 0, 0, 0);
        xa = ct_xform_identity();
        xb = compose(&r1, &r2, tu_vec(0.5 * (int)(tu_uniform(&seed) * 7 - 3), 0.5 * (int)(tu_uniform(&seed) * 7 - 3),
                                      0.5 * (int)(tu_uniform(&seed) * 7 - 3)));
        L = (double)a.h.extent + (double)b.h.extent;
        tol = TOL(4 * L);
        cr_assert_eq(ct_manifold_hulls(&a.h, &xa, &b.h, &xb, 0.1, NULL, &m), CT_OK);
        check_finite(&m);
        cr_assert(m.count >= 0 && m.count <= CT_MANIFOLD_MAX);
        sat = sat_oracle(&a.h, &xa, &b.h, &xb, 0);
        if (sat < -tol) cr_assert(m.count >= 1, "arrangement %d: overlap %g but no point", k, -sat);
        if (sat_oracle(&a.h, &xa, &b.h, &xb, 1) > 0.1 + tol) cr_assert_eq(m.count, 0);
        if (m.count > 0) {
            ++contacts;
            if (sat <= 0) cr_assert(sep_along(&a.h, &xa, &b.h, &xb, m.normal) >= sat - (0.03 * fabs(sat) + 7.5e-4 * L) - tol);
            check_surfaces(&a.h, &xa, &b.h, &xb, &m, tol);
        }
        memset(&cache, 0, sizeof cache);
        cr_assert_eq(ct_manifold_hulls(&a.h, &xa, &b.h, &xb, 0.1, &cache, &mc), CT_OK);
        cr_assert_eq(ct_manifold_hulls(&a.h, &xa, &b.h, &xb, 0.1, &cache, &mc), CT_OK);
        cr_assert(same_manifold(&m, &mc), "arrangement %d: cached differs", k);
    }
    cr_assert(contacts > 50);
}

Test(sat, feature_ids_stable_across_frames) {
    /* a box sliding and turning slowly on a larger one: the same features touch, so the
       same ids come back every frame (points move, ids do not); then it slides over the edge
       of the top face and only the points that changed feature get new ids */
    th a, b;
    ct_manifold m0, m;
    int f, i, j, kept;
    th_box(&a, 2, 2, 1);
    th_box(&b, 0.5, 0.3, 0.4);
    {
        ct_xform xb = xf(0, 0, 1, 0.1, 0, 0, 1 + 0.4 - 0.01);
        cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0.02, NULL, &m0), CT_OK);
        cr_assert_eq(m0.count, 4);
    }
    for (f = 1; f < 60; ++f) {
        ct_xform xb = xf(0, 0, 1, 0.1 + 0.005 * f, 0.01 * f, -0.005 * f, 1 + 0.4 - 0.01 + 0.0001 * f);
        cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0.02, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 4);
        for (i = 0; i < 4; ++i) cr_assert_eq(m.points[i].id, m0.points[i].id, "frame %d point %d", f, i);
    }
    /* past the edge of A's top face (x = 2): two corners hang over, the clip makes new points
       on the edge; the two corners still on the face keep their ids */
    {
        ct_xform xb = xf(0, 0, 1, 0.1, 1.9, 0, 1 + 0.4 - 0.01);
        cr_assert_eq(ct_manifold_hulls(&a.h, NULL, &b.h, &xb, 0.02, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 4);
        kept = 0;
        for (i = 0; i < 4; ++i)
            for (j = 0; j < 4; ++j) kept += m.points[i].id == m0.points[j].id;
        cr_assert_eq(kept, 2);
    }
}

/* ---- rounded hulls (ct_manifold_rounded_hulls) ------------------------------------------------ */
/* Signed distance of world point p to a hull (brute force): the largest plane distance when
   inside; outside, the nearest point over the faces (projections inside the face polygon),
   the edges (clamped segment projections) and so the vertices. */
static double hull_sd(const ct_hull *h, const ct_xform *x, ct_vec3 p) {
    double inside = plane_dist(h, x, p), best = 1e300;
    int f, k;
    if (inside <= 0) return inside;
    for (f = 0; f < h->nfaces; ++f) {
        ct_vec3 n = wdir(x, h->planes[f].n), q;
        double d = dot3(n, sub3(p, wpt(x, h->verts[h->face_verts[h->face_first[f]]])));
        int in = 1;
        q = tu_vec(p.x - d * n.x, p.y - d * n.y, p.z - d * n.z);
        for (k = h->face_first[f]; k < h->face_first[f + 1]; ++k) {
            ct_vec3 a = wpt(x, h->verts[h->face_verts[k]]), b = wpt(x, h->verts[h->face_verts[h->he_next[k]]]);
            if (dot3(cross3(sub3(b, a), n), sub3(q, a)) > 0) in = 0;
        }
        if (in && fabs(d) < best) best = fabs(d);
    }
    for (k = 0; k < h->face_first[h->nfaces]; ++k) {
        ct_vec3 a = wpt(x, h->verts[h->face_verts[k]]), e = sub3(wpt(x, h->verts[h->face_verts[h->he_next[k]]]), a), q;
        double t = dot3(sub3(p, a), e) / dot3(e, e);
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        q = tu_vec(a.x + t * e.x, a.y + t * e.y, a.z + t * e.z);
        q = sub3(p, q);
        if (sqrt(dot3(q, q)) < best) best = sqrt(dot3(q, q));
    }
    return best;
}

/* The A-side point p - s/2 n is within A's rounded hull (distance to the core <= ra) and the
   B-side point within B's; at least one of them on its rounded surface (the reference face's
   side, or both for a single point). */
static void check_rounded_surfaces(const ct_hull *a, double ra, const ct_xform *xa, const ct_hull *b, double rb,
                                   const ct_xform *xb, const ct_manifold *m, double tol) {
    int i;
    for (i = 0; i < m->count; ++i) {
        ct_vec3 pa, pb;
        double da, db;
        side_points(m, i, &pa, &pb);
        da = hull_sd(a, xa, pa) - ra;
        db = hull_sd(b, xb, pb) - rb;
        cr_assert(da <= tol && db <= tol, "point %d: outside the rounded hulls (%g, %g)", i, da, db);
        cr_assert(da >= -tol || db >= -tol, "point %d: on neither rounded surface (%g, %g)", i, da, db);
    }
}

static double deepest_sep(const ct_manifold *m) {
    double d = 1e300;
    int i;
    for (i = 0; i < m->count; ++i) if (m->points[i].separation < d) d = m->points[i].separation;
    return d;
}

Test(sat, rounded_boxes_resting_with_gap) {
    /* expectation: a rounded box resting on a larger one, cores apart by g: 4 points (B's bottom
       corners), separation g - ra - rb, normal exactly +z, points midway between the rounded
       faces z = 1 + ra and z = 1 + g - rb */
    th a, b;
    const double ra = 0.1, rb = 0.05, gaps[3] = { 0.12, 0.2, 0.15 };
    ct_manifold m;
    int k, i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 0.5, 0.5, 0.5);
    for (k = 0; k < 3; ++k) {
        double g = gaps[k], sep = g - ra - rb;
        ct_xform xb = xf(0, 0, 1, 0, 0.1, 0.2, 1 + 0.5 + g);
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &b.h, &xb, (ct_real)rb, 0.1, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 4, "gap %g: count %d", g, m.count);
        cr_assert(m.normal.x == 0 && m.normal.y == 0 && m.normal.z == 1, "gap %g: normal not exact", g);
        for (i = 0; i < 4; ++i) {
            ct_vec3 p = m.points[i].point;
            cr_assert(fabs(m.points[i].separation - sep) <= TOL(4), "gap %g: separation %g, expected %g", g, (double)m.points[i].separation, sep);
            cr_assert(fabs(p.z - (1 + ra + sep / 2)) <= TOL(4));
            cr_assert(fabs(fabs(p.x - 0.1) - 0.5) <= TOL(2) && fabs(fabs(p.y - 0.2) - 0.5) <= TOL(2));
        }
        check_rounded_surfaces(&a.h, ra, NULL, &b.h, rb, &xb, &m, TOL(8));
    }
    /* beyond the speculative distance: nothing */
    {
        ct_xform xb = xf(0, 0, 1, 0, 0.1, 0.2, 1 + 0.5 + 0.3);
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &b.h, &xb, (ct_real)rb, 0.1, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 0);
        cr_assert(m.normal.x == 0 && m.normal.y == 0 && m.normal.z == 0);
    }
}

Test(sat, rounded_boxes_penetrating) {
    /* expectation: cores overlapping by 0.05 (the SAT path): 4 points at -0.05 - ra - rb;
       cores apart by 0.03 with ra + rb = 0.15 (the GJK path): 4 points at -0.12; a corner-down
       cube whose rounded corner sinks into the face: 1 point at the corner, the normal +z */
    th a, b;
    const double ra = 0.1, rb = 0.05;
    ct_manifold m;
    int i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 0.5, 0.7, 0.4);
    {
        ct_xform xb = xf(0, 0, 1, 0.3, -0.2, 0.1, 1 + 0.4 - 0.05);
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &b.h, &xb, (ct_real)rb, 0, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 4);
        cr_assert(fabs(m.normal.z - 1) <= TOL(1));
        for (i = 0; i < 4; ++i) cr_assert(fabs(m.points[i].separation + 0.2) <= TOL(4));
        check_rounded_surfaces(&a.h, ra, NULL, &b.h, rb, &xb, &m, TOL(8));
    }
    {
        ct_xform xb = xf(0, 0, 1, 0.3, -0.2, 0.1, 1 + 0.4 + 0.03);
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &b.h, &xb, (ct_real)rb, 0, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 4);
        cr_assert(m.normal.x == 0 && m.normal.y == 0 && m.normal.z == 1);
        for (i = 0; i < 4; ++i) cr_assert(fabs(m.points[i].separation + 0.12) <= TOL(4));
        check_rounded_surfaces(&a.h, ra, NULL, &b.h, rb, &xb, &m, TOL(8));
    }
    {
        /* vertex-face: the cube (1,1,1)/2-corner pointing down, cores 0.1 apart */
        th c;
        double h = 0.5 * sqrt(3.0), g = 0.1, r2 = 0.08;
        ct_xform r1 = xf(1, -1, 0, acos(1 / sqrt(3.0)), 0, 0, 0), xb;
        th_box(&c, 0.5, 0.5, 0.5);
        /* r1 turns (1,1,1)/sqrt(3) to +z, so the corner (-,-,-) points down */
        xb = r1;
        xb.p = tu_vec(0.2, 0.1, 1 + h + g);
        cr_assert(fabs(wpt(&xb, tu_vec(-0.5, -0.5, -0.5)).z - (1 + g)) <= TOL(4), "fixture: corner not down");
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &c.h, &xb, (ct_real)r2, 0, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 1, "count %d", m.count);
        cr_assert(m.normal.x == 0 && m.normal.y == 0 && m.normal.z == 1);
        cr_assert(fabs(m.points[0].separation - (g - ra - r2)) <= TOL(4));
        cr_assert(fabs(m.points[0].point.x - 0.2) <= TOL(4) && fabs(m.points[0].point.y - 0.1) <= TOL(4));
        cr_assert(fabs(m.points[0].point.z - (1 + ra + (g - ra - r2) / 2)) <= TOL(4));
        check_rounded_surfaces(&a.h, ra, NULL, &c.h, r2, &xb, &m, TOL(8));
        /* a speculative distance that reaches the next corners up: more points, the corner
           still the deepest */
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &c.h, &xb, (ct_real)r2, 1, NULL, &m), CT_OK);
        cr_assert(m.count >= 2);
        cr_assert(fabs(deepest_sep(&m) - (g - ra - r2)) <= TOL(4));
        check_rounded_surfaces(&a.h, ra, NULL, &c.h, r2, &xb, &m, TOL(8));
    }
}

Test(sat, rounded_box_rotated_45_on_rounded_box) {
    /* expectation: 4 points of the octagon, all at gap - ra - rb, normal +z, area >= 0.7 of it */
    th a, b;
    const double ra = 0.1, rb = 0.1, g = 0.1;
    ct_xform xb = xf(0, 0, 1, M_PI / 4, 0, 0, 2 + g);
    ct_manifold m;
    double octagon = 4 - 4 * (2 - sqrt(2.0)) * (2 - sqrt(2.0)) / 2;
    int i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &b.h, &xb, (ct_real)rb, 0, NULL, &m), CT_OK);
    cr_assert_eq(m.count, 4);
    cr_assert(m.normal.x == 0 && m.normal.y == 0 && m.normal.z == 1);
    for (i = 0; i < 4; ++i) cr_assert(fabs(m.points[i].separation - (g - ra - rb)) <= TOL(4));
    cr_assert(quad_area(&m) >= 0.70 * octagon, "area %g of %g", quad_area(&m), octagon);
    check_rounded_surfaces(&a.h, ra, NULL, &b.h, rb, &xb, &m, TOL(8));
}

Test(sat, rounded_edge_edge_and_vertex_vertex_one_point) {
    /* expectation: crossing edges (cores apart by 0.1, and overlapping by 0.05): one point
       above the crossing, separation core gap - ra - rb, normal +z, midway between the rounded
       edges; two cubes corner to corner along the diagonal: one point on the diagonal,
       separation = corner distance - ra - rb, normal along the diagonal */
    th a, b;
    const double ra = 0.1, rb = 0.05, r2 = sqrt(2.0), gaps[2] = { 0.1, -0.05 };
    ct_xform xa = xf(1, 0, 0, M_PI / 4, 0, 0, 0);
    ct_manifold m;
    int k;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    for (k = 0; k < 2; ++k) {
        double g = gaps[k], sep = g - ra - rb;
        ct_xform xb = xf(0, 1, 0, M_PI / 4, 0, 0, 2 * r2 + g);
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, &xa, (ct_real)ra, &b.h, &xb, (ct_real)rb, 0, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 1, "gap %g: count %d", g, m.count);
        cr_assert(fabs(m.normal.x) <= TOL(2) && fabs(m.normal.y) <= TOL(2) && fabs(m.normal.z - 1) <= TOL(2));
        cr_assert(fabs(m.points[0].separation - sep) <= TOL(4), "gap %g: separation %g", g, (double)m.points[0].separation);
        cr_assert(fabs(m.points[0].point.x) <= TOL(4) && fabs(m.points[0].point.y) <= TOL(4));
        cr_assert(fabs(m.points[0].point.z - (r2 + ra + sep / 2)) <= TOL(4));
        check_rounded_surfaces(&a.h, ra, &xa, &b.h, rb, &xb, &m, TOL(8));
    }
    {
        double dist = 0.2, s3 = sqrt(3.0);
        ct_xform xb = xf(0, 0, 1, 0, 2 + dist / s3, 2 + dist / s3, 2 + dist / s3);
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &b.h, &xb, (ct_real)rb, 0.1, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 1);
        cr_assert(fabs(m.normal.x - 1 / s3) <= TOL(2) && fabs(m.normal.y - 1 / s3) <= TOL(2) && fabs(m.normal.z - 1 / s3) <= TOL(2));
        cr_assert(fabs(m.points[0].separation - (dist - ra - rb)) <= TOL(4));
        cr_assert(fabs(m.points[0].point.x - (1 + (ra + (dist - ra - rb) / 2) / s3)) <= TOL(4));
        check_rounded_surfaces(&a.h, ra, NULL, &b.h, rb, &xb, &m, TOL(8));
        /* the SAT alone would call this a contact at 0.2/sqrt(3) - 0.15 < 0: not with the radii */
        xb = xf(0, 0, 1, 0, 2 + 0.3 / s3, 2 + 0.3 / s3, 2 + 0.3 / s3);
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)ra, &b.h, &xb, (ct_real)rb, 0, NULL, &m), CT_OK);
        cr_assert_eq(m.count, 0);
    }
}

Test(sat, rounded_swap_symmetry) {
    /* expectation: swapping A and B (and their radii) negates the normal and keeps the count,
       the ids, the separations and the points: resting, turned about the normal and edge on
       edge with the cores apart (0.1) and overlapping (-0.03), and corner to corner */
    th a, b;
    ct_xform xb = xf(0, 0, 1, 0, 2.1, 2.05, 2.08);
    swap_suite(0.07, 0.05, 0.1);
    swap_suite(0.07, 0.05, -0.03);
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    check_swap_r(&a.h, 0.1, NULL, &b.h, 0.03, &xb, 0.1, TOL(8));
}

Test(sat, rounded_radius_zero_is_manifold_hulls) {
    /* expectation: ra = rb = 0 gives ct_manifold_hulls' manifold and cache, bit for bit */
    unsigned long long seed = 515;
    int k;
    for (k = 0; k < 60; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        ct_manifold m1, m2;
        ct_sat_cache c1, c2;
        cr_assert(random_hull(&a, &seed, 8 + (int)(tu_uniform(&seed) * 16), 1));
        cr_assert(random_hull(&b, &seed, 8 + (int)(tu_uniform(&seed) * 16), 1));
        random_pair(&seed, &xa, &xb, 1, 0);
        memset(&c1, 0, sizeof c1);
        memset(&c2, 0, sizeof c2);
        cr_assert_eq(ct_manifold_hulls(&a, &xa, &b, &xb, 0.1, &c1, &m1), CT_OK);
        cr_assert_eq(ct_manifold_rounded_hulls(&a, &xa, 0, &b, &xb, 0, 0.1, &c2, &m2), CT_OK);
        cr_assert(same_manifold(&m1, &m2), "pair %d: differs from ct_manifold_hulls", k);
        cr_assert(memcmp(&c1, &c2, sizeof c1) == 0);
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
}

Test(sat, rounded_translation_and_scale_invariance) {
    /* expectation: both paths (cores apart by 0.05, cores overlapping by 0.03) commute with
       scaling by 1e-3 and 1e3 and with a shift of 1e4 */
    int k;
    for (k = 0; k < 2; ++k) {
        double g = k == 0 ? 0.05 : -0.03;
        check_transformed_r(1, 1e4, 0.06, 0.04, g);
        check_transformed_r(1e-3, 0, 0.06, 0.04, g);
        check_transformed_r(1e3, 0, 0.06, 0.04, g);
    }
}

Test(sat, rounded_cache_hit_equals_cold) {
    /* expectation: a rounded box tumbling through contact (both paths), separation and back:
       the cached call returns exactly the cold one every frame */
    th a, b;
    ct_sat_cache cache;
    int hits, contacts;
    th_box(&a, 1, 1, 1);
    th_box(&b, 0.5, 0.7, 0.4);
    contacts = tumble_cached(&a.h, 0.08, &b.h, 0.05, 1.6, 0.6, &cache, &hits);
    cr_assert(contacts > 50 && contacts < 200, "contacts %d", contacts);
    cr_assert(hits >= 199);
}

/* Oracle: ct_signed_distance on ct_shape_rounded(ct_shape_hull(.)) shapes (GJK, EPA).
   Expectations: no point when the rounded hulls are farther apart than the speculative
   distance, a point whenever they overlap; the deepest separation is never deeper than the
   signed distance beyond the SAT's face preference (2% + 5e-4 L, and 1% + 2.5e-4 L), and
   with the cores apart it is the signed distance (single point: exactly; face clip: within
   that preference); every point lies within both rounded hulls' reach and on one of the
   rounded surfaces (brute-force point-hull distance). boxes: random boxes instead of random
   hulls (the closed-form paths). */
typedef struct rounded_stats { int apart, apart_exact, overlap, overlap_exact; } rounded_stats;

static void rounded_oracle(unsigned long long seed, int boxes, rounded_stats *st) {
    int k;
    memset(st, 0, sizeof *st);
    for (k = 0; k < 300; ++k) {
        ct_hull a, b;
        ct_xform xa, xb;
        ct_manifold m;
        ct_shape sa, sb, ca, cb;
        ct_distance sd, cd;
        double ra, rb, L, spec, tol, deep, pref;
        if (boxes) {
            cr_assert_eq(ct_hull_box(tu_vec(0.2 + tu_uniform(&seed), 0.2 + tu_uniform(&seed), 0.2 + tu_uniform(&seed)), NULL, &a), CT_OK);
            cr_assert_eq(ct_hull_box(tu_vec(0.2 + tu_uniform(&seed), 0.2 + tu_uniform(&seed), 0.2 + tu_uniform(&seed)), NULL, &b), CT_OK);
        } else {
            cr_assert(random_hull(&a, &seed, 8 + (int)(tu_uniform(&seed) * 24), 1));
            cr_assert(random_hull(&b, &seed, 8 + (int)(tu_uniform(&seed) * 24), 1));
        }
        random_pair(&seed, &xa, &xb, 1, 0);
        ra = 0.2 * tu_uniform(&seed);
        rb = 0.2 * tu_uniform(&seed);
        L = (double)a.extent + (double)b.extent;
        spec = 0.05 * L;
        tol = TOL(16 * L);
        ca = ct_shape_hull(&a); cb = ct_shape_hull(&b);
        sa = ct_shape_rounded(ca, (ct_real)ra);
        sb = ct_shape_rounded(cb, (ct_real)rb);
        cr_assert_eq(ct_signed_distance(&sa, &xa, &sb, &xb, NULL, NULL, &sd), CT_OK);
        cr_assert_eq(ct_gjk(&ca, &xa, &cb, &xb, NULL, &cd), CT_OK);
        cr_assert_eq(ct_manifold_rounded_hulls(&a, &xa, (ct_real)ra, &b, &xb, (ct_real)rb, (ct_real)spec, NULL, &m), CT_OK);
        check_finite(&m);
        if (sd.distance > spec + tol) cr_assert_eq(m.count, 0, "pair %d: apart by %g but %d points", k, (double)sd.distance, m.count);
        if (sd.distance < -tol) cr_assert(m.count >= 1, "pair %d: overlap %g but no point", k, (double)sd.distance);
        if (m.count > 0) {
            deep = deepest_sep(&m);
            pref = 0.03 * fabs((double)sd.distance + ra + rb) + 7.5e-4 * L + tol;
            cr_assert(deep >= sd.distance - pref, "pair %d: deepest %g below the signed distance %g", k, deep, (double)sd.distance);
            check_rounded_surfaces(&a, ra, &xa, &b, rb, &xb, &m, 16 * tol);
            if (cd.distance > 1e-3 * L) {
                ++st->apart;
                cr_assert(deep <= sd.distance + 0.02 * cd.distance + 5e-4 * L + tol, "pair %d: cores apart, deepest %g, distance %g",
                          k, deep, (double)sd.distance);
                if (m.count == 1) cr_assert(fabs(deep - sd.distance) <= tol, "pair %d: single point %g, distance %g", k, deep, (double)sd.distance);
                st->apart_exact += fabs(deep - sd.distance) <= tol;
            } else if (cd.distance == 0) {
                ++st->overlap;
                st->overlap_exact += fabs(deep - sd.distance) <= 1e-6 * L + tol;
            }
        }
        ct_hull_free(&a);
        ct_hull_free(&b);
    }
}

Test(sat, rounded_random_against_signed_distance) {
    rounded_stats st;
    rounded_oracle(8080, 0, &st);
    cr_log_info("rounded: cores apart %d (exact %d), overlapping %d (exact %d)", st.apart, st.apart_exact, st.overlap, st.overlap_exact);
    cr_assert(st.apart > 30 && st.overlap > 30, "apart %d overlap %d", st.apart, st.overlap);
    cr_assert(st.apart_exact >= 0.9 * st.apart && st.overlap_exact >= 0.7 * st.overlap);
}

Test(sat, rounded_random_boxes_against_signed_distance) {
    /* expectation: as above, for rounded boxes (the closed-form SAT and its shortcut when the
       cores are apart) */
    rounded_stats st;
    rounded_oracle(9090, 1, &st);
    cr_log_info("rounded boxes: cores apart %d (exact %d), overlapping %d (exact %d)", st.apart, st.apart_exact, st.overlap,
                st.overlap_exact);
    cr_assert(st.apart > 30 && st.overlap > 30, "apart %d overlap %d", st.apart, st.overlap);
    cr_assert(st.apart_exact >= 0.9 * st.apart && st.overlap_exact >= 0.7 * st.overlap);
}

Test(sat, rounded_bad_input_is_invalid) {
    /* expectation: every bad argument gives CT_INVALID and a zeroed manifold */
    th a, b;
    ct_hull zero;
    ct_manifold m;
    ct_xform x = ct_xform_identity();
    struct { const ct_hull *a; double ra; const ct_hull *b; double rb; double spec; const ct_xform *xa; } rows[] = {
        { NULL, 0.1, &b.h, 0.1, 0, NULL },         { &a.h, 0.1, NULL, 0.1, 0, NULL },
        { &zero, 0.1, &b.h, 0.1, 0, NULL },        { &a.h, -0.1, &b.h, 0.1, 0, NULL },
        { &a.h, 0.1, &b.h, -1e-30, 0, NULL },      { &a.h, NAN, &b.h, 0.1, 0, NULL },
        { &a.h, 0.1, &b.h, INFINITY, 0, NULL },    { &a.h, 0.1, &b.h, 0.1, NAN, NULL },
        { &a.h, 0.1, &b.h, 0.1, -1, NULL },        { &a.h, 0.1, &b.h, 0.1, 0, &x },
    };
    unsigned i;
    th_box(&a, 1, 1, 1);
    th_box(&b, 1, 1, 1);
    memset(&zero, 0, sizeof zero);
    x.p.y = (ct_real)NAN;
    for (i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        memset(&m, 0xff, sizeof m);
        cr_assert_eq(ct_manifold_rounded_hulls(rows[i].a, rows[i].xa, (ct_real)rows[i].ra, rows[i].b, NULL, (ct_real)rows[i].rb,
                                               (ct_real)rows[i].spec, NULL, &m), CT_INVALID, "row %u", i);
        cr_assert_eq(m.count, 0, "row %u", i);
    }
    cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, 0.1, &b.h, NULL, 0.1, 0, NULL, NULL), CT_INVALID);
    if (!TU_FLOAT) /* radii whose sum with the speculative distance overflows */
        cr_assert_eq(ct_manifold_rounded_hulls(&a.h, NULL, (ct_real)1e308, &b.h, NULL, (ct_real)1e308, (ct_real)1e308, NULL, &m), CT_INVALID);
}
