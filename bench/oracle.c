/* Independent oracles for the benchmarks' agreement checks (see oracle.h). Plain double
   arithmetic on the fields of contact.h's types; no routine of contact.h, no peer. */
#include "oracle.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- placement: world = R local + p ---- */
static void or_world(const ct_xform *x, const ct_vec3 v, double out[3]) {
    double l[3];
    int i;
    l[0] = (double)v.x; l[1] = (double)v.y; l[2] = (double)v.z;
    for (i = 0; i < 3; ++i) {
        out[i] = l[0] * (x ? (double)x->r[i][0] : i == 0) + l[1] * (x ? (double)x->r[i][1] : i == 1) +
                 l[2] * (x ? (double)x->r[i][2] : i == 2);
        if (x) out[i] += i == 0 ? (double)x->p.x : i == 1 ? (double)x->p.y : (double)x->p.z;
    }
}
static void or_rotate(const ct_xform *x, const double v[3], double out[3]) {
    int i;
    for (i = 0; i < 3; ++i)
        out[i] = x ? (double)x->r[i][0] * v[0] + (double)x->r[i][1] * v[1] + (double)x->r[i][2] * v[2] : v[i];
}
/* local = R^T (world - p), and a direction: R^T d */
static void or_local(const ct_xform *x, const double w[3], int point, double out[3]) {
    double d[3];
    int i;
    for (i = 0; i < 3; ++i) d[i] = w[i] - (point && x ? (i == 0 ? (double)x->p.x : i == 1 ? (double)x->p.y : (double)x->p.z) : 0);
    for (i = 0; i < 3; ++i)
        out[i] = x ? (double)x->r[0][i] * d[0] + (double)x->r[1][i] * d[1] + (double)x->r[2][i] * d[2] : d[i];
}
static double or_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void or_cross(const double a[3], const double b[3], double c[3]) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* ---- box pairs: sweep along x ---- */
typedef struct or_key { double lo; int i; } or_key;
static int or_cmp_key(const void *p, const void *q) {
    double a = ((const or_key *)p)->lo, b = ((const or_key *)q)->lo;
    return a < b ? -1 : a > b;
}
long long oracle_box_pairs(const ct_aabb *b, int n) { return oracle_box_pairs_each(b, n, NULL, NULL); }
long long oracle_box_pairs_each(const ct_aabb *b, int n, void (*fn)(void *user, int i, int j), void *user) {
    or_key *ord = (or_key *)malloc(sizeof(or_key) * (size_t)(n > 0 ? n : 1));
    long long count = 0;
    int i, j;
    if (!ord) return -1;
    for (i = 0; i < n; ++i) { ord[i].lo = (double)b[i].lo.x; ord[i].i = i; }
    qsort(ord, (size_t)n, sizeof *ord, or_cmp_key);
    for (i = 0; i < n; ++i) {
        const ct_aabb *p = b + ord[i].i;
        for (j = i + 1; j < n && ord[j].lo <= (double)p->hi.x; ++j) {
            const ct_aabb *q = b + ord[j].i;
            if (p->lo.y <= q->hi.y && q->lo.y <= p->hi.y && p->lo.z <= q->hi.z && q->lo.z <= p->hi.z) {
                ++count;
                if (fn) fn(user, ord[i].i < ord[j].i ? ord[i].i : ord[j].i, ord[i].i < ord[j].i ? ord[j].i : ord[i].i);
            }
        }
    }
    free(ord);
    return count;
}

/* ---- brute-force SAT ---- */
typedef struct or_poly { int nv, ne, nf; double *v, *e, *f; } or_poly;
static int or_poly_make(const ct_hull *h, const ct_xform *x, or_poly *p) {
    int i, f, k, nfv = h->face_first[h->nfaces];
    p->nv = h->nverts; p->nf = h->nfaces; p->ne = 0;
    p->v = (double *)malloc(sizeof(double) * 3 * (size_t)(h->nverts + h->nfaces + nfv));
    if (!p->v) return 0;
    p->f = p->v + 3 * h->nverts;
    p->e = p->f + 3 * h->nfaces;
    for (i = 0; i < h->nverts; ++i) or_world(x, h->verts[i], p->v + 3 * i);
    for (f = 0; f < h->nfaces; ++f) {
        double n[3];
        n[0] = (double)h->planes[f].n.x; n[1] = (double)h->planes[f].n.y; n[2] = (double)h->planes[f].n.z;
        or_rotate(x, n, p->f + 3 * f);
        for (k = h->face_first[f]; k < h->face_first[f + 1]; ++k) {   /* each edge once: u < v */
            int u = h->face_verts[k], w = h->face_verts[k + 1 < h->face_first[f + 1] ? k + 1 : h->face_first[f]];
            if (u < w) {
                for (i = 0; i < 3; ++i) p->e[3 * p->ne + i] = p->v[3 * w + i] - p->v[3 * u + i];
                ++p->ne;
            }
        }
    }
    return 1;
}
static void or_extent(const or_poly *p, const double a[3], double *lo, double *hi) {
    int i;
    *lo = *hi = or_dot(a, p->v);
    for (i = 1; i < p->nv; ++i) {
        double t = or_dot(a, p->v + 3 * i);
        if (t < *lo) *lo = t;
        if (t > *hi) *hi = t;
    }
}
/* separation of B from A along unit axis a, oriented so that it points from A to B */
static double or_axis(const or_poly *A, const or_poly *B, double a[3]) {
    double la, ha, lb, hb, s1, s2;
    or_extent(A, a, &la, &ha);
    or_extent(B, a, &lb, &hb);
    s1 = lb - ha; s2 = la - hb;
    if (s2 > s1) { a[0] = -a[0]; a[1] = -a[1]; a[2] = -a[2]; return s2; }
    return s1;
}
double oracle_sat(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, double axis[3]) {
    or_poly A, B;
    double best = -HUGE_VAL, ax[3] = { 0, 0, 1 };
    int i, j;
    if (!or_poly_make(a, xa, &A)) return NAN;
    if (!or_poly_make(b, xb, &B)) { free(A.v); return NAN; }
    for (i = 0; i < A.nf + B.nf; ++i) {
        double n[3], s;
        memcpy(n, i < A.nf ? A.f + 3 * i : B.f + 3 * (i - A.nf), sizeof n);
        s = or_axis(&A, &B, n);
        if (s > best) { best = s; memcpy(ax, n, sizeof ax); }
    }
    for (i = 0; i < A.ne; ++i)
        for (j = 0; j < B.ne; ++j) {
            double c[3], l, s;
            or_cross(A.e + 3 * i, B.e + 3 * j, c);
            l = sqrt(or_dot(c, c));
            if (!(l > 1e-12 * sqrt(or_dot(A.e + 3 * i, A.e + 3 * i) * or_dot(B.e + 3 * j, B.e + 3 * j)))) continue;
            c[0] /= l; c[1] /= l; c[2] /= l;
            s = or_axis(&A, &B, c);
            if (s > best) { best = s; memcpy(ax, c, sizeof ax); }
        }
    if (axis) memcpy(axis, ax, sizeof ax);
    free(A.v); free(B.v);
    return best;
}
double oracle_sat_along(const ct_hull *a, const ct_xform *xa, const ct_hull *b, const ct_xform *xb, const double axis[3]) {
    or_poly A, B;
    double n[3], l = sqrt(or_dot(axis, axis)), s;
    if (!(l > 0)) return NAN;
    n[0] = axis[0] / l; n[1] = axis[1] / l; n[2] = axis[2] / l;
    if (!or_poly_make(a, xa, &A)) return NAN;
    if (!or_poly_make(b, xb, &B)) { free(A.v); return NAN; }
    {
        double la, ha, lb, hb;
        or_extent(&A, n, &la, &ha);
        or_extent(&B, n, &lb, &hb);
        s = lb - ha;
    }
    free(A.v); free(B.v);
    return s;
}

/* ---- rays ---- */
/* smallest root in [0, 1] of |q + t d|^2 = 1 entering the unit ball; 0 when q is inside */
static double or_ray_unit_ball(const double q[3], const double d[3]) {
    double a = or_dot(d, d), b = or_dot(q, d), c = or_dot(q, q) - 1, disc, t;
    if (c <= 0) return 0;
    if (a == 0) return -1;
    disc = b * b - a * c;
    if (disc < 0) return -1;
    t = (-b - sqrt(disc)) / a;
    return t >= 0 && t <= 1 ? t : -1;
}
double oracle_ray_sphere(double r, const ct_xform *x, const double from[3], const double dir[3]) {
    double q[3], d[3];
    int i;
    or_local(x, from, 1, q); or_local(x, dir, 0, d);
    for (i = 0; i < 3; ++i) { q[i] /= r; d[i] /= r; }
    return or_ray_unit_ball(q, d);
}
double oracle_ray_ellipsoid(const double h[3], const ct_xform *x, const double from[3], const double dir[3]) {
    double q[3], d[3];
    int i;
    or_local(x, from, 1, q); or_local(x, dir, 0, d);
    for (i = 0; i < 3; ++i) { q[i] /= h[i]; d[i] /= h[i]; }
    return or_ray_unit_ball(q, d);
}
static double or_box_dist(const double h[3], const double q[3], const double d[3], double t) {
    double s = 0;
    int i;
    for (i = 0; i < 3; ++i) {
        double c = fabs(q[i] + t * d[i]) - h[i];
        if (c > 0) s += c * c;
    }
    return sqrt(s);
}
double oracle_ray_box(const double h[3], double r, const ct_xform *x, const double from[3], const double dir[3]) {
    double q[3], d[3], lo = 0, hi = 1, t0 = 0, t1 = 1;
    int i, it;
    or_local(x, from, 1, q); or_local(x, dir, 0, d);
    if (r <= 0) {   /* slabs */
        for (i = 0; i < 3; ++i) {
            double a, b;
            if (d[i] == 0) { if (fabs(q[i]) > h[i]) return -1; continue; }
            a = (-h[i] - q[i]) / d[i]; b = (h[i] - q[i]) / d[i];
            if (a > b) { double s = a; a = b; b = s; }
            if (a > t0) t0 = a;
            if (b < t1) t1 = b;
            if (t0 > t1) return -1;
        }
        return t0;
    }
    /* the distance to the box is convex along the segment: its minimum by golden sections,
       then the first crossing of r by bisection before it */
    if (or_box_dist(h, q, d, 0) <= r) return 0;
    for (it = 0; it < 200; ++it) {
        double m1 = lo + (hi - lo) * 0.381966011250105, m2 = hi - (hi - lo) * 0.381966011250105;
        if (or_box_dist(h, q, d, m1) <= or_box_dist(h, q, d, m2)) hi = m2; else lo = m1;
    }
    if (or_box_dist(h, q, d, lo) > r) return -1;
    hi = lo; lo = 0;
    for (it = 0; it < 200; ++it) {
        double m = 0.5 * (lo + hi);
        if (or_box_dist(h, q, d, m) > r) lo = m; else hi = m;
    }
    return hi;
}
double oracle_ray_hull(const ct_hull *h, const ct_xform *x, const double from[3], const double dir[3]) {
    double q[3], d[3], t0 = 0, t1 = 1;
    int f;
    or_local(x, from, 1, q); or_local(x, dir, 0, d);
    for (f = 0; f < h->nfaces; ++f) {   /* Cyrus-Beck: clip the segment by each face plane */
        double n[3], num, den;
        n[0] = (double)h->planes[f].n.x; n[1] = (double)h->planes[f].n.y; n[2] = (double)h->planes[f].n.z;
        num = or_dot(n, q) + (double)h->planes[f].d;
        den = or_dot(n, d);
        if (den == 0) { if (num > 0) return -1; continue; }
        if (den < 0) { double t = -num / den; if (t > t0) t0 = t; }
        else { double t = -num / den; if (t < t1) t1 = t; }
        if (t0 > t1) return -1;
    }
    return t0;
}

/* ---- ellipsoids ---- */
/* M = R diag(1/s^2) R^T */
static void or_quad(const double s[3], const ct_xform *x, double m[3][3]) {
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            m[i][j] = 0;
            for (k = 0; k < 3; ++k) m[i][j] += (double)x->r[i][k] * (double)x->r[j][k] / (s[k] * s[k]);
        }
}
static double or_form(double m[3][3], const double x[3], const double c[3]) {
    double d[3] = { x[0] - c[0], x[1] - c[1], x[2] - c[2] }, s = 0;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) s += d[i] * m[i][j] * d[j];
    return s;
}
static int or_solve3(double a[3][3], const double b[3], double x[3]) {
    double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                 a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    int i;
    if (det == 0 || !isfinite(det)) return 0;
    for (i = 0; i < 3; ++i) {   /* Cramer */
        double c[3][3];
        int r;
        memcpy(c, a, sizeof c);
        for (r = 0; r < 3; ++r) c[r][i] = b[r];
        x[i] = (c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
                c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0])) / det;
    }
    return 1;
}
/* x(mu) = (MA + mu MB)^-1 (MA cA + mu MB cB): the minimiser of qA + mu qB */
static int or_pw_point(double ma[3][3], double mb[3][3], const double ca[3], const double cb[3], double mu, double x[3]) {
    double a[3][3], r[3];
    int i, j;
    for (i = 0; i < 3; ++i) {
        r[i] = 0;
        for (j = 0; j < 3; ++j) {
            a[i][j] = ma[i][j] + mu * mb[i][j];
            r[i] += ma[i][j] * ca[j] + mu * mb[i][j] * cb[j];
        }
    }
    return or_solve3(a, r, x);
}
int oracle_ellipsoids_overlap(const double sa[3], const ct_xform *xa, const double sb[3], const ct_xform *xb,
                              double *value) {
    double ma[3][3], mb[3][3], ca[3], cb[3], x[3], lo = 0, hi = 1, v;
    int it;
    or_quad(sa, xa, ma); or_quad(sb, xb, mb);
    ca[0] = (double)xa->p.x; ca[1] = (double)xa->p.y; ca[2] = (double)xa->p.z;
    cb[0] = (double)xb->p.x; cb[1] = (double)xb->p.y; cb[2] = (double)xb->p.z;
    if (or_form(mb, ca, cb) <= 1) { if (value) *value = 0; return 1; }   /* A's centre is in B */
    /* g(mu) = qB(x(mu)) falls from qB(cA) > 1 towards 0: bracket and bisect g = 1 */
    for (it = 0; it < 200 && or_pw_point(ma, mb, ca, cb, hi, x) && or_form(mb, x, cb) > 1; ++it) hi *= 2;
    for (it = 0; it < 200; ++it) {
        double m = 0.5 * (lo + hi);
        if (!or_pw_point(ma, mb, ca, cb, m, x)) break;
        if (or_form(mb, x, cb) > 1) lo = m; else hi = m;
    }
    or_pw_point(ma, mb, ca, cb, hi, x);
    v = or_form(ma, x, ca);
    if (value) *value = v;
    return v <= 1;
}

/* ---- half-space intersection volume by vertex enumeration ---- */
double oracle_halfspace_volume(const double *planes, int m) {
    double *pl, *v, scale = 0, tol, c[3] = { 0, 0, 0 }, vol = 0;
    int nv = 0, cap, i, j, k, l;
    if (m < 4 || m > 200) return -1;
    pl = (double *)malloc(sizeof(double) * 4 * (size_t)m);
    cap = 4096;
    v = (double *)malloc(sizeof(double) * 3 * (size_t)cap);
    if (!pl || !v) { free(pl); free(v); return -1; }
    for (i = 0; i < m; ++i) {   /* unit normals */
        double len = sqrt(planes[4 * i] * planes[4 * i] + planes[4 * i + 1] * planes[4 * i + 1] + planes[4 * i + 2] * planes[4 * i + 2]);
        for (j = 0; j < 4; ++j) pl[4 * i + j] = planes[4 * i + j] / len;
        if (fabs(pl[4 * i + 3]) > scale) scale = fabs(pl[4 * i + 3]);
    }
    tol = 1e-9 * (scale > 0 ? scale : 1);
    for (i = 0; i < m; ++i)
        for (j = i + 1; j < m; ++j)
            for (k = j + 1; k < m; ++k) {
                double a[3][3], b[3], x[3];
                int ok = 1, r;
                for (r = 0; r < 3; ++r) {
                    a[0][r] = pl[4 * i + r]; a[1][r] = pl[4 * j + r]; a[2][r] = pl[4 * k + r];
                }
                b[0] = -pl[4 * i + 3]; b[1] = -pl[4 * j + 3]; b[2] = -pl[4 * k + 3];
                if (!or_solve3(a, b, x)) continue;
                for (l = 0; l < m && ok; ++l) ok = or_dot(pl + 4 * l, x) + pl[4 * l + 3] <= tol;
                for (l = 0; l < nv && ok; ++l)
                    ok = fabs(v[3 * l] - x[0]) + fabs(v[3 * l + 1] - x[1]) + fabs(v[3 * l + 2] - x[2]) > tol;
                if (!ok) continue;
                if (nv == cap) {
                    double *w = (double *)realloc(v, sizeof(double) * 6 * (size_t)cap);
                    if (!w) { free(pl); free(v); return -1; }
                    v = w; cap *= 2;
                }
                memcpy(v + 3 * nv++, x, sizeof x);
            }
    if (nv < 4) { free(pl); free(v); return -1; }
    for (l = 0; l < nv; ++l) for (j = 0; j < 3; ++j) c[j] += v[3 * l + j] / nv;
    for (i = 0; i < m; ++i) {   /* face i: its vertices by angle about their mean */
        int *on = (int *)malloc(sizeof(int) * (size_t)nv), n = 0;
        double *ang, u[3], w[3], mid[3] = { 0, 0, 0 }, area = 0, h;
        if (!on) { free(pl); free(v); return -1; }
        for (l = 0; l < nv; ++l)
            if (fabs(or_dot(pl + 4 * i, v + 3 * l) + pl[4 * i + 3]) <= tol) on[n++] = l;
        if (n < 3) { free(on); continue; }
        ang = (double *)malloc(sizeof(double) * (size_t)n);
        if (!ang) { free(on); free(pl); free(v); return -1; }
        for (l = 0; l < n; ++l) for (j = 0; j < 3; ++j) mid[j] += v[3 * on[l] + j] / n;
        /* in-plane basis */
        if (fabs(pl[4 * i]) < 0.6) { double e[3] = { 1, 0, 0 }; or_cross(pl + 4 * i, e, u); }
        else { double e[3] = { 0, 1, 0 }; or_cross(pl + 4 * i, e, u); }
        h = sqrt(or_dot(u, u)); u[0] /= h; u[1] /= h; u[2] /= h;
        or_cross(pl + 4 * i, u, w);
        for (l = 0; l < n; ++l) {
            double d[3] = { v[3 * on[l]] - mid[0], v[3 * on[l] + 1] - mid[1], v[3 * on[l] + 2] - mid[2] };
            ang[l] = atan2(or_dot(d, w), or_dot(d, u));
        }
        for (l = 1; l < n; ++l)   /* insertion sort by angle */
            for (j = l; j > 0 && ang[j - 1] > ang[j]; --j) {
                double ta = ang[j]; int ti = on[j];
                ang[j] = ang[j - 1]; on[j] = on[j - 1]; ang[j - 1] = ta; on[j - 1] = ti;
            }
        for (l = 0; l < n; ++l) {   /* polygon area about mid */
            const double *p = v + 3 * on[l], *q = v + 3 * on[(l + 1) % n];
            double e1[3] = { p[0] - mid[0], p[1] - mid[1], p[2] - mid[2] }, e2[3] = { q[0] - mid[0], q[1] - mid[1], q[2] - mid[2] }, cr[3];
            or_cross(e1, e2, cr);
            area += 0.5 * or_dot(cr, pl + 4 * i);
        }
        vol += fabs(area) * -(or_dot(pl + 4 * i, c) + pl[4 * i + 3]) / 3;
        free(ang); free(on);
    }
    free(pl); free(v);
    return vol;
}

double oracle_plane_excess(const double *pts, int n, const double *planes, int m) {
    double worst = -HUGE_VAL;
    int i, k;
    for (k = 0; k < m; ++k) {
        const double *p = planes + 4 * k;
        double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        for (i = 0; i < n; ++i) {
            double e = (or_dot(p, pts + 3 * i) + p[3]) / len;
            if (e > worst) worst = e;
        }
    }
    return worst;
}

/* ---- time of impact: sampling and bisection on the brute-force SAT ---- */
/* x(t): p0 + t (p1 - p0), and R(t) = Rot(axis, t angle) R0 with (axis, angle) of R1 R0^T */
static void or_motion(const ct_xform *x0, const ct_xform *x1, double t, ct_xform *out) {
    double m[3][3], ax[3], ang, s, c, C, q[3][3], l;
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            m[i][j] = 0;
            for (k = 0; k < 3; ++k) m[i][j] += (double)x1->r[i][k] * (double)x0->r[j][k];
        }
    ax[0] = m[2][1] - m[1][2]; ax[1] = m[0][2] - m[2][0]; ax[2] = m[1][0] - m[0][1];
    l = sqrt(or_dot(ax, ax));
    ang = atan2(0.5 * l, 0.5 * (m[0][0] + m[1][1] + m[2][2] - 1));
    if (l > 0) { ax[0] /= l; ax[1] /= l; ax[2] /= l; } else { ax[0] = 1; ax[1] = ax[2] = 0; ang = 0; }
    ang *= t; s = sin(ang); c = cos(ang); C = 1 - c;   /* Rodrigues */
    q[0][0] = c + ax[0] * ax[0] * C;         q[0][1] = ax[0] * ax[1] * C - ax[2] * s; q[0][2] = ax[0] * ax[2] * C + ax[1] * s;
    q[1][0] = ax[1] * ax[0] * C + ax[2] * s; q[1][1] = c + ax[1] * ax[1] * C;         q[1][2] = ax[1] * ax[2] * C - ax[0] * s;
    q[2][0] = ax[2] * ax[0] * C - ax[1] * s; q[2][1] = ax[2] * ax[1] * C + ax[0] * s; q[2][2] = c + ax[2] * ax[2] * C;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            double v = 0;
            for (k = 0; k < 3; ++k) v += q[i][k] * (double)x0->r[k][j];
            out->r[i][j] = (ct_real)v;
        }
    out->p.x = (ct_real)((double)x0->p.x + t * ((double)x1->p.x - (double)x0->p.x));
    out->p.y = (ct_real)((double)x0->p.y + t * ((double)x1->p.y - (double)x0->p.y));
    out->p.z = (ct_real)((double)x0->p.z + t * ((double)x1->p.z - (double)x0->p.z));
}
static double or_sat_at(const ct_hull *a, const ct_xform *xa0, const ct_xform *xa1, const ct_hull *b,
                        const ct_xform *xb0, const ct_xform *xb1, double t) {
    ct_xform xa, xb;
    or_motion(xa0, xa1, t, &xa);
    or_motion(xb0, xb1, t, &xb);
    return oracle_sat(a, &xa, b, &xb, NULL);
}
double oracle_toi(const ct_hull *a, const ct_xform *xa0, const ct_xform *xa1, const ct_hull *b, const ct_xform *xb0,
                  const ct_xform *xb1) {
    const int steps = 4096;
    double lo, hi;
    int i, it;
    if (or_sat_at(a, xa0, xa1, b, xb0, xb1, 0) <= 0) return 0;
    for (i = 1; i <= steps; ++i)
        if (or_sat_at(a, xa0, xa1, b, xb0, xb1, (double)i / steps) <= 0) break;
    if (i > steps) return -1;
    lo = (double)(i - 1) / steps; hi = (double)i / steps;
    for (it = 0; it < 60; ++it) {
        double m = 0.5 * (lo + hi);
        if (or_sat_at(a, xa0, xa1, b, xb0, xb1, m) <= 0) hi = m; else lo = m;
    }
    return hi;
}

/* ---- verdicts ---- */
void oracle_vote(oracle_tally *t, double oracle, double ours, double peer) {
    double eo = fabs(ours - oracle), ep = fabs(peer - oracle);
    if (!(fabs(eo - ep) > 1e-9 * (1 + fabs(oracle)))) t->neither++;
    else if (eo < ep) t->ours++;
    else t->peer++;
}
void oracle_vote_bool(oracle_tally *t, int oracle, int ours, int peer) {
    if ((ours != 0) == (oracle != 0) && (peer != 0) != (oracle != 0)) t->ours++;
    else if ((peer != 0) == (oracle != 0) && (ours != 0) != (oracle != 0)) t->peer++;
    else t->neither++;
}
void oracle_say(char *buf, size_t n, const char *oracle, const oracle_tally *t) {
    size_t k = strlen(buf);
    if (k + 1 < n)
        snprintf(buf + k, n - k, "; %s supports ours on %d, the peer on %d, neither on %d", oracle, t->ours, t->peer,
                 t->neither);
}
