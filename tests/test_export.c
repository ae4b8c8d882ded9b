/* Debug export (OBJ / legacy VTK): every kind is written, read back by an independent parser
   (bench/meshread.c: strtod and nothing of contact.h) and checked: counts, exact coordinates,
   closed 2-manifold surfaces (each directed edge once, its reverse once), Euler characteristic,
   volume recomputed from the text against ct_hull_volume / the contact's volume, the arrays;
   bad input and writer failures give a status and write nothing; each kind is rendered by
   gnuplot to a PNG that must differ from a blank render. */
#include "contact.h"
#include "testutil.h"
#include "meshread.h"
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a growing text buffer as the write function, optionally failing at call fail_at ---- */
typedef struct tx_buf { char *s; size_t n, cap; int calls, fail_at; } tx_buf;

static int tx_write(void *user, const char *bytes, size_t n) {
    tx_buf *b = (tx_buf *)user;
    b->calls++;
    if (b->fail_at && b->calls == b->fail_at) return 1;
    if (b->n + n + 1 > b->cap) {
        size_t cap = 2 * (b->n + n + 1);
        char *q = (char *)realloc(b->s, cap);
        if (!q) return 1;
        b->s = q; b->cap = cap;
    }
    memcpy(b->s + b->n, bytes, n);
    b->n += n;
    b->s[b->n] = 0;
    return 0;
}
static void tx_init(tx_buf *b, int fail_at) { memset(b, 0, sizeof *b); b->fail_at = fail_at; }
static void tx_free(tx_buf *b) { free(b->s); memset(b, 0, sizeof *b); }

/* Tolerance of a volume recomputed from the printed (round-tripping) coordinates. */
#define TX_VOL_TOL (TU_FLOAT ? 1e-4 : 1e-11)

/* ---- independent checks on a parsed mesh ---- */
typedef struct tx_edge { int u, v; } tx_edge;
static int tx_edge_cmp(const void *a, const void *b) {
    const tx_edge *x = (const tx_edge *)a, *y = (const tx_edge *)b;
    return x->u != y->u ? (x->u < y->u ? -1 : 1) : (x->v < y->v ? -1 : x->v > y->v);
}

/* Polygon cells (kind 2, optionally only those with cell array `arr` == only): every directed
   edge once and its reverse once (a closed, consistently oriented 2-manifold). Returns the
   Euler characteristic V - E + F over the vertices used, or -1000 when not closed. */
static int tx_closed_euler(const mr_mesh *m, const char *arr, int only) {
    const mr_array *a = arr ? mr_find(m, arr) : NULL;
    tx_edge *e = (tx_edge *)malloc(sizeof *e * (size_t)(m->first[m->nc] + 1));
    char *used = (char *)calloc((size_t)m->np + 1, 1);
    int c, j, ne = 0, nf = 0, nv = 0, ok = 1;
    for (c = 0; c < m->nc; ++c) {
        int n = m->first[c + 1] - m->first[c];
        const int *f = m->idx + m->first[c];
        if (m->kind[c] != 2 || (a && a->v[c] != only)) continue;
        ++nf;
        for (j = 0; j < n; ++j) {
            e[ne].u = f[j]; e[ne].v = f[(j + 1) % n]; ++ne;
            if (!used[f[j]]) { used[f[j]] = 1; ++nv; }
        }
    }
    qsort(e, (size_t)ne, sizeof *e, tx_edge_cmp);
    for (j = 0; j < ne && ok; ++j) {
        tx_edge r;
        r.u = e[j].v; r.v = e[j].u;
        if (j + 1 < ne && !tx_edge_cmp(&e[j], &e[j + 1])) ok = 0;                 /* twice */
        if (!bsearch(&r, e, (size_t)ne, sizeof *e, tx_edge_cmp)) ok = 0;          /* no twin */
    }
    free(e); free(used);
    return ok ? nv - ne / 2 + nf : -1000;
}

/* Volume enclosed by the polygon cells (divergence theorem, fan triangles about a point). */
static double tx_volume(const mr_mesh *m, const char *arr, int only) {
    const mr_array *a = arr ? mr_find(m, arr) : NULL;
    double v = 0;
    int c, j;
    for (c = 0; c < m->nc; ++c) {
        int n = m->first[c + 1] - m->first[c];
        const int *f = m->idx + m->first[c];
        const double *p0 = m->p + 3 * f[0];
        if (m->kind[c] != 2 || (a && a->v[c] != only)) continue;
        for (j = 1; j + 1 < n; ++j) {
            const double *p1 = m->p + 3 * f[j], *p2 = m->p + 3 * f[j + 1];
            v += (p0[0] * (p1[1] * p2[2] - p1[2] * p2[1]) - p0[1] * (p1[0] * p2[2] - p1[2] * p2[0]) +
                  p0[2] * (p1[0] * p2[1] - p1[1] * p2[0])) / 6;
        }
    }
    return v;
}

static int tx_count(const mr_mesh *m, int kind) {
    int c, k = 0;
    for (c = 0; c < m->nc; ++c) k += m->kind[c] == kind;
    return k;
}

/* The parsed coordinates of point i are exactly v (the text round-trips ct_real). */
static void tx_assert_point(const mr_mesh *m, int i, ct_vec3 v) {
    cr_assert((ct_real)m->p[3 * i] == v.x && (ct_real)m->p[3 * i + 1] == v.y && (ct_real)m->p[3 * i + 2] == v.z,
              "point %d: %.17g %.17g %.17g vs %.17g %.17g %.17g", i, m->p[3 * i], m->p[3 * i + 1],
              m->p[3 * i + 2], (double)v.x, (double)v.y, (double)v.z);
}

static void tx_parse(const tx_buf *b, ct_export_format f, mr_mesh *m) {
    int r = f == CT_EXPORT_OBJ ? mr_read_obj(b->s, m) : mr_read_vtk(b->s, m);
    cr_assert_eq(r, 0, "unparsable export:\n%.400s", b->s ? b->s : "(nothing)");
}

/* ---- inputs ---- */
static void tx_hull(unsigned long long seed, int n, double r, ct_vec3 c, ct_hull *h, ct_vec3 *pts) {
    int i;
    for (i = 0; i < n; ++i) pts[i] = ct__madd(c, tu_random_unit(&seed), (ct_real)r);
    cr_assert_eq(ct_hull_build(pts, n, NULL, NULL, h), CT_OK);
}

/* Two overlapping 20-vertex hulls, their intersection and contact. */
typedef struct tx_pair { ct_hull a, b, x; ct_vec3 pa[20], pb[20]; ct_xform xa, xb; ct_contact c; } tx_pair;
static void tx_pair_make(unsigned long long seed, tx_pair *p) {
    unsigned long long s = seed;
    tx_hull(seed * 3 + 1, 20, 1, tu_vec(0, 0, 0), &p->a, p->pa);
    tx_hull(seed * 3 + 2, 20, 1, tu_vec(0, 0, 0), &p->b, p->pb);
    p->xa = tu_random_xform(&s, 0.2);
    p->xb = tu_random_xform(&s, 0.2);
    p->xb.p = ct__add(p->xa.p, ct__scale(tu_random_unit(&s), (ct_real)1.2));
    cr_assert_eq(ct_intersect(&p->a, &p->xa, &p->b, &p->xb, NULL, NULL, &p->x), CT_OK);
    cr_assert_gt(p->x.nfaces, 0);
    cr_assert_eq(ct_contact_hulls(&p->a, &p->xa, &p->b, &p->xb, NULL, &p->c), CT_OK);
    cr_assert(p->c.found);
}
static void tx_pair_free(tx_pair *p) { ct_hull_free(&p->a); ct_hull_free(&p->b); ct_hull_free(&p->x); }

/* ---- hulls ---- */
Test(export, hull_obj_is_closed_with_the_hulls_volume) {
    static const int sizes[] = { 8, 20, 100, 1000 };
    int k, seed;
    for (k = 0; k < 4; ++k)
        for (seed = 1; seed <= 5; ++seed) {
            ct_vec3 *pts = (ct_vec3 *)malloc(sizeof *pts * (size_t)sizes[k]);
            unsigned long long s = (unsigned long long)(100 * k + seed);
            ct_xform x = tu_random_xform(&s, 10);
            ct_hull h;
            tx_buf b;
            mr_mesh m;
            int i;
            double vol;
            tx_hull(s, sizes[k], 1 + seed, tu_vec(seed, -seed, 0.5), &h, pts);
            tx_init(&b, 0);
            cr_assert_eq(ct_export_hull(&h, &x, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
            tx_parse(&b, CT_EXPORT_OBJ, &m);
            cr_assert_eq(m.np, h.nverts);
            cr_assert_eq(tx_count(&m, 2), h.nfaces);
            cr_assert_eq(m.nc, h.nfaces);
            for (i = 0; i < h.nverts; ++i) tx_assert_point(&m, i, ct__xf_point(&x, h.verts[i]));
            cr_assert_eq(tx_closed_euler(&m, NULL, 0), 2);
            vol = tx_volume(&m, NULL, 0);
            cr_assert(fabs(vol - (double)ct_hull_volume(&h, NULL)) <= TX_VOL_TOL * vol, "volume %.17g vs %.17g",
                      vol, (double)ct_hull_volume(&h, NULL));
            mr_free(&m); tx_free(&b); ct_hull_free(&h); free(pts);
        }
}

Test(export, hull_vtk_has_counts_and_arrays) {
    ct_vec3 pts[200];
    ct_hull h;
    tx_buf b;
    mr_mesh m;
    const mr_array *src, *fid;
    int i;
    tx_hull(7, 200, 3, tu_vec(1e3, 0, 0), &h, pts);
    tx_init(&b, 0);
    cr_assert_eq(ct_export_hull(&h, NULL, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    cr_assert(strstr(b.s, TU_FLOAT ? "POINTS " : "POINTS ") != NULL);
    cr_assert(strstr(b.s, TU_FLOAT ? " float\n" : " double\n") != NULL);
    tx_parse(&b, CT_EXPORT_VTK, &m);
    cr_assert_eq(m.np, h.nverts);
    cr_assert_eq(tx_count(&m, 2), h.nfaces);
    cr_assert_eq(tx_closed_euler(&m, NULL, 0), 2);
    src = mr_find(&m, "vert_source");
    fid = mr_find(&m, "face_id");
    cr_assert(src && !src->on_cells && src->n == h.nverts);
    cr_assert(fid && fid->on_cells && fid->n == h.nfaces);
    cr_assert_null(mr_find(&m, "face_tag"));
    for (i = 0; i < h.nverts; ++i) {
        int j = (int)src->v[i];
        cr_assert(j >= 0 && j < 200);
        tx_assert_point(&m, i, pts[j]);     /* the vertex is the input point it names */
    }
    for (i = 0; i < h.nfaces; ++i) cr_assert_eq((int)fid->v[i], i);
    mr_free(&m); tx_free(&b); ct_hull_free(&h);
}

/* The intersection polyhedron: face_tag as a cell array, each face on the plane it names. */
Test(export, intersection_vtk_tags_faces_by_their_body) {
    int seed;
    for (seed = 1; seed <= 10; ++seed) {
        tx_pair p;
        tx_buf b;
        mr_mesh m;
        const mr_array *tag;
        int c, j, on_a = 0, on_b = 0;
        double vol;
        tx_pair_make((unsigned long long)seed, &p);
        tx_init(&b, 0);
        cr_assert_eq(ct_export_hull(&p.x, NULL, CT_EXPORT_VTK, tx_write, &b), CT_OK);
        tx_parse(&b, CT_EXPORT_VTK, &m);
        cr_assert_eq(tx_closed_euler(&m, NULL, 0), 2);
        tag = mr_find(&m, "face_tag");
        cr_assert(tag && tag->on_cells && tag->n == p.x.nfaces);
        for (c = 0; c < m.nc; ++c) {
            int t = (int)tag->v[c];
            const ct_hull *body = t >= 0 ? &p.a : &p.b;
            const ct_xform *xf = t >= 0 ? &p.xa : &p.xb;
            ct_plane pl = body->planes[t >= 0 ? t : -t - 1];
            cr_assert_eq(t, p.x.face_tag[c]);
            on_a += t >= 0; on_b += t < 0;
            for (j = m.first[c]; j < m.first[c + 1]; ++j) {
                const double *q = m.p + 3 * m.idx[j];
                ct_vec3 w = ct__xf_inv_point(xf, tu_vec(q[0], q[1], q[2]));
                double d = (double)(ct__dot(pl.n, w) + pl.d);
                cr_assert(fabs(d) <= (TU_FLOAT ? 1e-4 : 1e-9), "face %d off its plane by %g", c, d);
            }
        }
        cr_assert(on_a > 0 && on_b > 0);
        vol = tx_volume(&m, NULL, 0);
        cr_assert(fabs(vol - (double)p.c.volume) <= (TU_FLOAT ? 1e-3 : 1e-9) * vol, "%.17g vs %.17g", vol,
                  (double)p.c.volume);
        mr_free(&m); tx_free(&b); tx_pair_free(&p);
    }
}

/* ---- contact ---- */
Test(export, contact_has_point_arrow_and_the_overlap_faces) {
    int f;
    for (f = CT_EXPORT_OBJ; f <= CT_EXPORT_VTK; ++f) {
        tx_pair p;
        tx_buf b;
        mr_mesh m;
        double arrow = 0.25, len, vol;
        ct_vec3 tip;
        tx_pair_make(21, &p);
        tx_init(&b, 0);
        cr_assert_eq(ct_export_contact(&p.c, &p.x, (ct_real)arrow, (ct_export_format)f, tx_write, &b), CT_OK);
        tx_parse(&b, (ct_export_format)f, &m);
        cr_assert_eq(m.np, 2 + p.x.nverts);
        cr_assert_eq(tx_count(&m, 0), 1);
        cr_assert_eq(tx_count(&m, 1), 1);
        cr_assert_eq(tx_count(&m, 2), p.x.nfaces);
        cr_assert_eq(m.kind[0], 0);
        tx_assert_point(&m, m.idx[m.first[0]], p.c.point);
        tip = tu_vec(m.p[3 * m.idx[m.first[1] + 1]], m.p[3 * m.idx[m.first[1] + 1] + 1], m.p[3 * m.idx[m.first[1] + 1] + 2]);
        len = (double)ct__dist(tip, p.c.point);
        cr_assert(fabs(len - arrow) <= 1e-5 * arrow, "arrow length %g", len);
        cr_assert_gt((double)ct__dot(ct__sub(tip, p.c.point), p.c.normal), 0);
        cr_assert_eq(tx_closed_euler(&m, NULL, 0), 2);
        vol = tx_volume(&m, NULL, 0);
        cr_assert(fabs(vol - (double)p.c.volume) <= (TU_FLOAT ? 1e-3 : 1e-9) * vol);
        if (f == CT_EXPORT_VTK) {
            const mr_array *part = mr_find(&m, "part"), *face = mr_find(&m, "face");
            int c;
            cr_assert(part && face && part->n == m.nc);
            cr_assert(part->v[0] == 0 && part->v[1] == 1 && face->v[0] == -1 && face->v[1] == -1);
            for (c = 2; c < m.nc; ++c) {
                int t = p.x.face_tag[c - 2];
                cr_assert_eq((int)part->v[c], t >= 0 ? 2 : 3);
                cr_assert_eq((int)face->v[c], t >= 0 ? t : -t - 1);
            }
        }
        mr_free(&m); tx_free(&b); tx_pair_free(&p);
    }
}

Test(export, contact_without_overlap_or_not_found) {
    tx_pair p;
    tx_buf b;
    mr_mesh m;
    ct_contact none;
    tx_pair_make(5, &p);
    tx_init(&b, 0);
    cr_assert_eq(ct_export_contact(&p.c, NULL, 0, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_parse(&b, CT_EXPORT_VTK, &m);
    cr_assert(m.np == 1 && m.nc == 1 && m.kind[0] == 0);
    tx_assert_point(&m, 0, p.c.point);
    mr_free(&m); tx_free(&b);
    memset(&none, 0, sizeof none);
    none.point.x = (ct_real)NAN;   /* not found: the fields are not looked at */
    tx_init(&b, 0);
    cr_assert_eq(ct_export_contact(&none, &p.x, 1, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
    tx_parse(&b, CT_EXPORT_OBJ, &m);
    cr_assert(m.np == 0 && m.nc == 0);
    mr_free(&m); tx_free(&b); tx_pair_free(&p);
}

/* ---- manifold: a box resting on a box, slightly turned ---- */
Test(export, manifold_polygon_is_convex_about_the_normal) {
    ct_hull a, bb;
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)0.3, tu_vec(0.1, -0.05, 0.99));
    ct_manifold mf;
    tx_buf b;
    mr_mesh m;
    const mr_array *sep, *id, *part;
    int i, c = -1;
    cr_assert_eq(ct_hull_box(tu_vec(1, 1, 0.5), NULL, &a), CT_OK);
    cr_assert_eq(ct_hull_box(tu_vec(0.4, 0.3, 0.5), NULL, &bb), CT_OK);
    xb.p.z = (ct_real)0.99;
    cr_assert_eq(ct_manifold_hulls(&a, NULL, &bb, &xb, 0, NULL, &mf), CT_OK);
    cr_assert_eq(mf.count, 4);
    tx_init(&b, 0);
    cr_assert_eq(ct_export_manifold(&mf, (ct_real)0.5, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_parse(&b, CT_EXPORT_VTK, &m);
    cr_assert_eq(m.np, 6);
    cr_assert(tx_count(&m, 0) == 4 && tx_count(&m, 1) == 1 && tx_count(&m, 2) == 1);
    for (i = 0; i < 4; ++i) tx_assert_point(&m, i, mf.points[i].point);
    sep = mr_find(&m, "separation"); id = mr_find(&m, "id"); part = mr_find(&m, "part");
    cr_assert(sep && id && part);
    for (i = 0; i < 4; ++i) {
        cr_assert((ct_real)sep->v[i] == mf.points[i].separation);
        cr_assert_eq((unsigned)id->v[i], mf.points[i].id);
    }
    for (i = 0; i < m.nc; ++i) if (m.kind[i] == 2) c = i;
    cr_assert_eq(part->v[c], 2);
    for (i = 0; i < 4; ++i) {   /* each turn of the polygon is counter-clockwise about the normal */
        const int *f = m.idx + m.first[c];
        const double *p0 = m.p + 3 * f[i], *p1 = m.p + 3 * f[(i + 1) % 4], *p2 = m.p + 3 * f[(i + 2) % 4];
        ct_vec3 e1 = tu_vec(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]);
        ct_vec3 e2 = tu_vec(p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]);
        cr_assert_gt((double)ct__dot(ct__cross(e1, e2), mf.normal), 0);
    }
    mr_free(&m); tx_free(&b);
    /* two points: a segment; none: an empty data set */
    mf.count = 2;
    tx_init(&b, 0);
    cr_assert_eq(ct_export_manifold(&mf, 0, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
    tx_parse(&b, CT_EXPORT_OBJ, &m);
    cr_assert(m.np == 2 && tx_count(&m, 0) == 2 && tx_count(&m, 1) == 1 && tx_count(&m, 2) == 0);
    mr_free(&m); tx_free(&b);
    mf.count = 0;
    tx_init(&b, 0);
    cr_assert_eq(ct_export_manifold(&mf, 1, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_parse(&b, CT_EXPORT_VTK, &m);
    cr_assert(m.np == 0 && m.nc == 0);
    mr_free(&m); tx_free(&b);
    ct_hull_free(&a); ct_hull_free(&bb);
}

/* ---- boxes ---- */
Test(export, boxes_are_closed_cubes_with_their_volumes) {
    ct_aabb box[50];
    unsigned long long s = 99;
    double want = 0;
    int i, f;
    for (i = 0; i < 50; ++i) {
        ct_vec3 c = tu_vec(tu_uniform(&s), tu_uniform(&s), tu_uniform(&s));
        ct_vec3 h = tu_vec(0.01 + tu_uniform(&s), 0.01 + tu_uniform(&s), 0.01 + tu_uniform(&s));
        box[i].lo = ct__sub(c, h); box[i].hi = ct__add(c, h);
        want += (double)(box[i].hi.x - box[i].lo.x) * (double)(box[i].hi.y - box[i].lo.y) *
                (double)(box[i].hi.z - box[i].lo.z);
    }
    for (f = CT_EXPORT_OBJ; f <= CT_EXPORT_VTK; ++f) {
        tx_buf b;
        mr_mesh m;
        double vol;
        tx_init(&b, 0);
        cr_assert_eq(ct_export_aabbs(box, 50, (ct_export_format)f, tx_write, &b), CT_OK);
        tx_parse(&b, (ct_export_format)f, &m);
        cr_assert(m.np == 400 && tx_count(&m, 2) == 300);
        cr_assert_eq(tx_closed_euler(&m, NULL, 0), 100);   /* 50 spheres */
        vol = tx_volume(&m, NULL, 0);
        cr_assert(fabs(vol - want) <= TX_VOL_TOL * want, "%.17g vs %.17g", vol, want);
        if (f == CT_EXPORT_VTK) {
            const mr_array *id = mr_find(&m, "box");
            cr_assert(id && id->n == 300);
            for (i = 0; i < 50; ++i) cr_assert_eq(tx_closed_euler(&m, "box", i), 2);
        }
        mr_free(&m); tx_free(&b);
    }
}

/* ---- scene ---- */
Test(export, scene_places_each_body_and_marks_contacts) {
    ct_vec3 pts[3][30];
    ct_hull h[3];
    const ct_hull *hp[3];
    ct_xform x[3];
    ct_contact c[3];
    unsigned long long s = 5;
    tx_buf b;
    mr_mesh m;
    const mr_array *body, *contact;
    int i, nfound = 0, nv = 0, nf = 0;
    for (i = 0; i < 3; ++i) {
        tx_hull(40 + i, 30, 1, tu_vec(0, 0, 0), &h[i], pts[i]);
        hp[i] = &h[i];
        x[i] = tu_random_xform(&s, 0);
        x[i].p = tu_vec(1.5 * i, 0.1 * i, 0);
        nv += h[i].nverts; nf += h[i].nfaces;
    }
    cr_assert_eq(ct_contact_hulls(&h[0], &x[0], &h[1], &x[1], NULL, &c[0]), CT_OK);
    cr_assert_eq(ct_contact_hulls(&h[1], &x[1], &h[2], &x[2], NULL, &c[1]), CT_OK);
    cr_assert_eq(ct_contact_hulls(&h[0], &x[0], &h[2], &x[2], NULL, &c[2]), CT_OK);
    for (i = 0; i < 3; ++i) nfound += c[i].found;
    cr_assert(nfound >= 2 && !c[2].found);
    tx_init(&b, 0);
    cr_assert_eq(ct_export_scene(hp, x, 3, c, 3, (ct_real)0.3, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_parse(&b, CT_EXPORT_VTK, &m);
    cr_assert_eq(m.np, nv + 2 * nfound);
    cr_assert(tx_count(&m, 0) == nfound && tx_count(&m, 1) == nfound && tx_count(&m, 2) == nf);
    body = mr_find(&m, "body"); contact = mr_find(&m, "contact");
    cr_assert(body && contact && mr_find(&m, "face"));
    for (i = 0; i < 3; ++i) {
        double vol = tx_volume(&m, "body", i), want = (double)ct_hull_volume(&h[i], NULL);
        cr_assert_eq(tx_closed_euler(&m, "body", i), 2);
        cr_assert(fabs(vol - want) <= TX_VOL_TOL * want);
    }
    for (i = 0; i < nfound; ++i) {
        int k = (int)contact->v[i];
        cr_assert(k >= 0 && k < 3 && c[k].found && body->v[i] == -1);
        tx_assert_point(&m, m.idx[m.first[i]], c[k].point);
    }
    mr_free(&m); tx_free(&b);
    /* OBJ of the same scene without transforms: the bodies at their local coordinates */
    tx_init(&b, 0);
    cr_assert_eq(ct_export_scene(hp, NULL, 3, NULL, 0, 0, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
    tx_parse(&b, CT_EXPORT_OBJ, &m);
    cr_assert(m.np == nv && m.nc == nf);
    tx_assert_point(&m, h[0].nverts, h[1].verts[0]);
    cr_assert_eq(tx_closed_euler(&m, NULL, 0), 6);
    mr_free(&m); tx_free(&b);
    for (i = 0; i < 3; ++i) ct_hull_free(&h[i]);
}

/* ---- a scene of the scene pipeline: bodies of every kind, contacts, fat boxes ---- */
#define TX_NB 7
typedef struct tx_step {
    ct_vec3 pts[2][20], cloud[12];
    ct_hull h[2];
    ct_xform x[TX_NB];
    ct_scene *s;
    ct_scene_result r;
    ct_vec3 semi;            /* the ellipsoid's semi-axes */
} tx_step;
static void tx_nan_support(const void *u, const ct_vec3 *d, ct_vec3 *out) {
    (void)u;
    *out = *d;
    if (d->z > (ct_real)0.9) out->x = (ct_real)NAN;
}
/* Bodies 0..6: hull, box, sphere r 0.6, ellipsoid, hull rounded by 0.1, a point cloud, a box,
   in a row 0.9 apart so that neighbours touch; one step in manifold mode or volumetric. */
static void tx_step_make(tx_step *t, ct_scene_mode mode) {
    unsigned long long seed = 77;
    ct_scene_desc sd;
    int i;
    memset(t, 0, sizeof *t);
    tx_hull(61, 20, 0.6, tu_vec(0, 0, 0), &t->h[0], t->pts[0]);
    tx_hull(62, 20, 0.6, tu_vec(0, 0, 0), &t->h[1], t->pts[1]);
    for (i = 0; i < 12; ++i) t->cloud[i] = ct__scale(tu_random_unit(&seed), (ct_real)0.5);
    t->semi = tu_vec(0.7, 0.4, 0.3);
    memset(&sd, 0, sizeof sd);
    sd.mode = mode;
    sd.speculative = (ct_real)0.01;
    cr_assert_eq(ct_scene_create(&sd, NULL, &t->s), CT_OK);
    for (i = 0; i < TX_NB; ++i) {
        ct_body_desc d;
        int id;
        memset(&d, 0, sizeof d);
        t->x[i] = tu_random_xform(&seed, 0);
        t->x[i].p = tu_vec(0.9 * i, 0.05 * i, -0.03 * i);
        switch (i) {
        case 0: d.shape = ct_shape_hull(&t->h[0]); break;
        case 1: case 6: d.shape = ct_shape_box(tu_vec(0.4, 0.3, 0.5)); break;
        case 2: d.shape = ct_shape_sphere((ct_real)0.6); break;
        case 3: d.shape = ct_shape_ellipsoid(t->semi); break;
        case 4: d.shape = ct_shape_rounded(ct_shape_hull(&t->h[1]), (ct_real)0.1); break;
        default: d.shape = ct_shape_points(t->cloud, 12); break;
        }
        d.xform_ref = &t->x[i];
        cr_assert_eq(ct_scene_add(t->s, &d, &id), CT_OK);
        cr_assert_eq(id, i);
    }
    cr_assert_eq(ct_scene_step(t->s, &t->r), CT_OK);
    cr_assert_geq(t->r.ntouching, 3, "the row must have touching neighbours");
}
static void tx_step_free(tx_step *t) {
    ct_scene_destroy(t->s);
    ct_hull_free(&t->h[0]); ct_hull_free(&t->h[1]);
}
static ct_vec3 tx_local(const mr_mesh *m, int i, const ct_xform *x) {
    ct_vec3 p = tu_vec(m->p[3 * i], m->p[3 * i + 1], m->p[3 * i + 2]), d = ct__sub(p, x->p);
    /* R^T (p - x.p): the rows of R^T are the columns of R */
    return tu_vec((double)(x->r[0][0] * d.x + x->r[1][0] * d.y + x->r[2][0] * d.z),
                  (double)(x->r[0][1] * d.x + x->r[1][1] * d.y + x->r[2][1] * d.z),
                  (double)(x->r[0][2] * d.x + x->r[1][2] * d.y + x->r[2][2] * d.z));
}

/* Bodies alone (one file per kind): each a closed surface of Euler characteristic 2; hulls
   and boxes exact (volume), the curved ones inscribed (every point on the surface, the
   volume a little below the closed form), the rounded hull and the cloud within their sets. */
Test(export, scene_step_bodies_are_closed_and_exact_or_inscribed) {
    tx_step t;
    tx_buf b;
    mr_mesh m;
    const mr_array *body, *part;
    int i, c;
    double tol = TU_FLOAT ? 1e-5 : 1e-12, pi = 3.14159265358979323846;
    tx_step_make(&t, CT_SCENE_MANIFOLD);
    tx_init(&b, 0);
    cr_assert_eq(ct_export_scene_step(t.s, NULL, CT_EXPORT_BODIES, 0, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_parse(&b, CT_EXPORT_VTK, &m);
    body = mr_find(&m, "body"); part = mr_find(&m, "part");
    cr_assert(body && part && mr_find(&m, "pair"));
    cr_assert_eq(tx_count(&m, 0) + tx_count(&m, 1), 0, "bodies only");
    for (c = 0; c < m.nc; ++c) cr_assert(part->v[c] == 0 && body->v[c] >= 0 && body->v[c] < TX_NB);
    for (i = 0; i < TX_NB; ++i) {
        double vol = tx_volume(&m, "body", i), want = 0;
        int k, n = 0;
        cr_assert_eq(tx_closed_euler(&m, "body", i), 2, "body %d", i);
        for (c = 0; c < m.nc; ++c) {
            if (body->v[c] != i) continue;
            for (k = m.first[c]; k < m.first[c + 1]; ++k) {
                ct_vec3 q = tx_local(&m, m.idx[k], &t.x[i]);
                double e;
                ++n;
                switch (i) {
                case 2: cr_assert(fabs(ct__len(q) - 0.6) <= 1e3 * tol, "sphere point off by %g", (double)ct__len(q) - 0.6); break;
                case 3:
                    e = (double)(q.x * q.x / (t.semi.x * t.semi.x) + q.y * q.y / (t.semi.y * t.semi.y) +
                                 q.z * q.z / (t.semi.z * t.semi.z));
                    cr_assert(fabs(e - 1) <= 1e3 * tol, "ellipsoid point off by %g", e - 1);
                    break;
                case 4: {   /* within 0.1 of the hull: no face plane more than 0.1 below the point */
                    int f;
                    for (f = 0; f < t.h[1].nfaces; ++f)
                        cr_assert(ct__dot(t.h[1].planes[f].n, q) + t.h[1].planes[f].d <= 0.1 + 1e3 * tol);
                    break;
                }
                case 5: {   /* a point of the cloud */
                    int j, hit = 0;
                    for (j = 0; j < 12; ++j) hit |= ct__len(ct__sub(q, t.cloud[j])) <= 1e3 * tol;
                    cr_assert(hit, "a cloud body's point is not one of its points");
                    break;
                }
                default: break;
                }
            }
        }
        cr_assert_gt(n, 0);
        switch (i) {
        case 0: want = (double)ct_hull_volume(&t.h[0], NULL); break;
        case 1: case 6: want = 8 * 0.4 * 0.3 * 0.5; break;
        case 2: want = 4.0 / 3 * pi * 0.6 * 0.6 * 0.6; break;
        case 3: want = 4.0 / 3 * pi * (double)(t.semi.x * t.semi.y * t.semi.z); break;
        case 4: want = (double)ct_hull_volume(&t.h[1], NULL); break;
        default: want = 0; break;
        }
        if (i == 0 || i == 1 || i == 6) cr_assert(fabs(vol - want) <= TX_VOL_TOL * want, "body %d volume %g, %g", i, vol, want);
        if (i == 2 || i == 3) cr_assert(vol < want && vol > 0.9 * want, "body %d inscribed volume %g of %g", i, vol, want);
        if (i == 4) cr_assert(vol > want, "the rounded hull encloses its core");
        if (i == 5) cr_assert(vol > 0);
    }
    mr_free(&m); tx_free(&b);
    tx_step_free(&t);
}

/* Contacts alone, fat boxes alone, then everything in one file (the sum of the three). */
Test(export, scene_step_contacts_and_fat_boxes) {
    tx_step t;
    tx_buf b;
    mr_mesh m;
    const mr_array *body, *part, *pair;
    int i, c, k, npts = 0, mode, np[3], nc[3];
    for (mode = 0; mode < 2; ++mode) {
        tx_step_make(&t, mode ? CT_SCENE_VOLUMETRIC : CT_SCENE_MANIFOLD);
        for (i = 0, npts = 0; i < t.r.ntouching; ++i)
            npts += mode ? t.r.touching[i].contact.found : t.r.touching[i].manifold.count;
        cr_assert_gt(npts, 0);
        tx_init(&b, 0);
        cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_CONTACTS, (ct_real)0.25, CT_EXPORT_VTK, tx_write, &b), CT_OK);
        tx_parse(&b, CT_EXPORT_VTK, &m);
        part = mr_find(&m, "part"); pair = mr_find(&m, "pair"); body = mr_find(&m, "body");
        cr_assert_eq(tx_count(&m, 0), npts);
        cr_assert_eq(tx_count(&m, 1), t.r.ntouching);
        cr_assert_eq(tx_count(&m, 2), 0);
        for (c = 0, k = 0; c < m.nc; ++c) {
            int p = (int)pair->v[c];
            const ct_scene_contact *sc;
            cr_assert(p >= 0 && p < t.r.ntouching && body->v[c] == -1 && part->v[c] == m.kind[c] + 1);
            sc = t.r.touching + p;
            if (m.kind[c] == 0) {   /* the points in pair order, each the routine's point */
                ct_vec3 want;
                if (c > 0 && pair->v[c - 1] == p) ++k; else k = 0;
                want = mode ? sc->contact.point : sc->manifold.points[k].point;
                tx_assert_point(&m, m.idx[m.first[c]], want);
            } else {                /* arrow: tip - base = 0.25 x the normal */
                const double *a = m.p + 3 * m.idx[m.first[c]], *z = m.p + 3 * m.idx[m.first[c] + 1];
                ct_vec3 n = mode ? sc->contact.normal : sc->manifold.normal;
                double e = fabs(z[0] - a[0] - 0.25 * (double)n.x) + fabs(z[1] - a[1] - 0.25 * (double)n.y) +
                           fabs(z[2] - a[2] - 0.25 * (double)n.z);
                cr_assert(e <= (TU_FLOAT ? 1e-5 : 1e-13), "arrow off by %g", e);
            }
        }
        np[0] = m.np; nc[0] = m.nc;
        mr_free(&m); tx_free(&b);
        /* fat boxes: one closed box per body, holding the body's exported points */
        tx_init(&b, 0);
        cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_FAT_BOXES, 0, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
        tx_parse(&b, CT_EXPORT_OBJ, &m);
        cr_assert_eq(m.nc, 6 * TX_NB);
        cr_assert_eq(tx_closed_euler(&m, NULL, 0), 2 * TX_NB);
        np[1] = m.np; nc[1] = m.nc;
        {
            mr_mesh mb;
            tx_buf bb;
            tx_init(&bb, 0);
            cr_assert_eq(ct_export_scene_step(t.s, NULL, CT_EXPORT_BODIES, 0, CT_EXPORT_VTK, tx_write, &bb), CT_OK);
            tx_parse(&bb, CT_EXPORT_VTK, &mb);
            np[2] = mb.np; nc[2] = mb.nc;
            body = mr_find(&mb, "body");
            for (c = 0; c < mb.nc; ++c) {
                double hi[3] = { -1e300, -1e300, -1e300 }, l[3] = { 1e300, 1e300, 1e300 };
                int q, j;
                for (q = 0; q < 4; ++q)   /* corners of the body's box: two opposite quads */
                    for (j = 0; j < 3; ++j) {
                        const double *v0 = m.p + 3 * m.idx[m.first[6 * (int)body->v[c]] + q];
                        const double *v1 = m.p + 3 * m.idx[m.first[6 * (int)body->v[c] + 1] + q];
                        if (v0[j] < l[j]) l[j] = v0[j];
                        if (v1[j] < l[j]) l[j] = v1[j];
                        if (v0[j] > hi[j]) hi[j] = v0[j];
                        if (v1[j] > hi[j]) hi[j] = v1[j];
                    }
                for (k = mb.first[c]; k < mb.first[c + 1]; ++k)
                    for (j = 0; j < 3; ++j)
                        cr_assert(mb.p[3 * mb.idx[k] + j] >= l[j] && mb.p[3 * mb.idx[k] + j] <= hi[j],
                                  "body %d point outside its fat box", (int)body->v[c]);
            }
            mr_free(&mb); tx_free(&bb);
        }
        mr_free(&m); tx_free(&b);
        /* all parts in one file: the three together */
        tx_init(&b, 0);
        cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_ALL, (ct_real)0.25, CT_EXPORT_VTK, tx_write, &b), CT_OK);
        tx_parse(&b, CT_EXPORT_VTK, &m);
        cr_assert_eq(m.np, np[0] + np[1] + np[2]);
        cr_assert_eq(m.nc, nc[0] + nc[1] + nc[2]);
        cr_assert_eq(tx_closed_euler(&m, "part", 0), 2 * TX_NB);
        cr_assert_eq(tx_closed_euler(&m, "part", 3), 2 * TX_NB);
        mr_free(&m); tx_free(&b);
        tx_step_free(&t);
    }
}

/* Bad input writes nothing; a writer failing at each call is reported. */
Test(export, scene_step_bad_input_and_writer_failure) {
    tx_step t;
    tx_buf b, full;
    ct_scene_result bad;
    ct_body_desc d;
    int id, fail;
    tx_step_make(&t, CT_SCENE_MANIFOLD);
    tx_init(&b, 0);
    cr_assert_eq(ct_export_scene_step(NULL, &t.r, CT_EXPORT_ALL, 0, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, 0, 0, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, 8, 0, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_ALL, (ct_real)NAN, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_ALL, -1, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_ALL, 0, (ct_export_format)9, tx_write, &b), CT_INVALID);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_ALL, 0, CT_EXPORT_VTK, NULL, &b), CT_INVALID);
    cr_assert_eq(ct_export_scene_step(t.s, NULL, CT_EXPORT_CONTACTS, 0, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    bad = t.r; bad.ntouching = -1;
    cr_assert_eq(ct_export_scene_step(t.s, &bad, CT_EXPORT_CONTACTS, 0, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    bad = t.r; bad.touching = NULL;
    cr_assert_eq(ct_export_scene_step(t.s, &bad, CT_EXPORT_CONTACTS, 0, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    t.x[3].p.y = (ct_real)NAN;   /* a body's transform (read through xform_ref) */
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_BODIES, 0, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_CONTACTS, 0, CT_EXPORT_VTK, tx_write, &b), CT_OK,
                 "the contacts do not read the transforms");
    cr_assert_eq(b.calls, 1);
    tx_free(&b); tx_init(&b, 0);
    t.x[3].p.y = (ct_real)0.15;
    memset(&d, 0, sizeof d);     /* a support function giving NaN for some directions */
    d.shape = ct_shape_support(tx_nan_support, NULL);
    d.xform = ct_xform_identity();
    cr_assert_eq(ct_scene_add(t.s, &d, &id), CT_OK);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_BODIES, 0, CT_EXPORT_VTK, tx_write, &b), CT_INVALID);
    cr_assert_eq(b.calls, 0, "bad input wrote something");
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_FAT_BOXES, 0, CT_EXPORT_VTK, tx_write, &b), CT_OK,
                 "a body added after the step has no fat box yet");
    tx_free(&b);
    cr_assert_eq(ct_scene_remove(t.s, id), CT_OK);
    tx_init(&full, 0);
    cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_ALL, 1, CT_EXPORT_VTK, tx_write, &full), CT_OK);
    cr_assert_gt(full.calls, 3);
    for (fail = 1; fail <= full.calls; ++fail) {
        tx_init(&b, fail);
        cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_ALL, 1, CT_EXPORT_VTK, tx_write, &b), CT_WRITE_FAILED);
        cr_assert_eq(b.calls, fail);
        cr_assert(b.n == 0 || memcmp(b.s, full.s, b.n) == 0);
        tx_free(&b);
    }
    tx_free(&full);
    tx_step_free(&t);
}

/* ---- bad input: CT_INVALID and not a byte written ---- */
Test(export, bad_input_is_invalid_and_writes_nothing) {
    tx_pair p;
    ct_hull bad;
    ct_xform shear = ct_xform_identity();
    ct_contact cn;
    ct_manifold mf;
    ct_aabb box[2];
    const ct_hull *hp[2];
    int face_verts_saved, first_saved, n = 0;
    tx_buf b;
    ct_status st[40];
    tx_pair_make(3, &p);
    tx_init(&b, 0);
    shear.r[0][1] = (ct_real)0.5;
    st[n++] = ct_export_hull(NULL, NULL, CT_EXPORT_OBJ, tx_write, &b);
    st[n++] = ct_export_hull(&p.a, NULL, CT_EXPORT_OBJ, NULL, &b);
    st[n++] = ct_export_hull(&p.a, NULL, (ct_export_format)0, tx_write, &b);
    st[n++] = ct_export_hull(&p.a, NULL, (ct_export_format)3, tx_write, &b);
    st[n++] = ct_export_hull(&p.a, &shear, CT_EXPORT_VTK, tx_write, &b);
    bad = p.a; bad.nverts = 3;
    st[n++] = ct_export_hull(&bad, NULL, CT_EXPORT_VTK, tx_write, &b);
    bad = p.a; bad.face_verts = NULL;
    st[n++] = ct_export_hull(&bad, NULL, CT_EXPORT_VTK, tx_write, &b);
    memset(&bad, 0, sizeof bad);
    st[n++] = ct_export_hull(&bad, NULL, CT_EXPORT_VTK, tx_write, &b);
    face_verts_saved = p.a.face_verts[5];
    p.a.face_verts[5] = p.a.nverts;            /* a vertex id out of range */
    st[n++] = ct_export_hull(&p.a, NULL, CT_EXPORT_OBJ, tx_write, &b);
    p.a.face_verts[5] = -1;
    st[n++] = ct_export_hull(&p.a, NULL, CT_EXPORT_OBJ, tx_write, &b);
    p.a.face_verts[5] = face_verts_saved;
    p.a.verts[2].y = (ct_real)NAN;
    st[n++] = ct_export_hull(&p.a, NULL, CT_EXPORT_OBJ, tx_write, &b);
    hp[0] = &p.a; hp[1] = &p.b;
    st[n++] = ct_export_scene(hp, NULL, 2, NULL, 0, 0, CT_EXPORT_VTK, tx_write, &b);
    p.a.verts[2].y = 0;
    first_saved = p.a.face_first[1];
    p.a.face_first[1] = p.a.face_first[0] + 2; /* a two-vertex face */
    st[n++] = ct_export_hull(&p.a, NULL, CT_EXPORT_OBJ, tx_write, &b);
    st[n++] = ct_export_scene(hp, NULL, -1, NULL, 0, 0, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_scene(NULL, NULL, 2, NULL, 0, 0, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_scene(hp + 1, &shear, 1, NULL, 0, 0, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_scene(hp + 1, NULL, 1, NULL, 1, 0, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_scene(hp + 1, NULL, 1, &p.c, 1, -1, CT_EXPORT_VTK, tx_write, &b);
    cn = p.c; cn.normal.z = (ct_real)INFINITY;
    st[n++] = ct_export_scene(hp + 1, NULL, 1, &cn, 1, 1, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_contact(&cn, NULL, 1, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_contact(NULL, NULL, 1, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_contact(&p.c, NULL, (ct_real)NAN, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_contact(&p.c, &p.a, -1, CT_EXPORT_VTK, tx_write, &b);
    bad = p.x; bad.nfaces = 2;
    st[n++] = ct_export_contact(&p.c, &bad, 1, CT_EXPORT_VTK, tx_write, &b);
    memset(&mf, 0, sizeof mf);
    mf.count = 5;
    st[n++] = ct_export_manifold(&mf, 1, CT_EXPORT_VTK, tx_write, &b);
    mf.count = -1;
    st[n++] = ct_export_manifold(&mf, 1, CT_EXPORT_VTK, tx_write, &b);
    mf.count = 1;                              /* a zero normal */
    st[n++] = ct_export_manifold(&mf, 1, CT_EXPORT_VTK, tx_write, &b);
    mf.normal.z = 1; mf.points[0].separation = (ct_real)NAN;
    st[n++] = ct_export_manifold(&mf, 1, CT_EXPORT_VTK, tx_write, &b);
    mf.points[0].separation = 0;
    st[n++] = ct_export_manifold(&mf, (ct_real)INFINITY, CT_EXPORT_VTK, tx_write, &b);
    st[n++] = ct_export_manifold(NULL, 1, CT_EXPORT_VTK, tx_write, &b);
    box[0].lo = tu_vec(0, 0, 0); box[0].hi = tu_vec(1, 1, 1); box[1] = box[0];
    box[1].lo.y = 2;                            /* lo > hi */
    st[n++] = ct_export_aabbs(box, 2, CT_EXPORT_OBJ, tx_write, &b);
    box[1] = box[0]; box[1].hi.z = (ct_real)NAN;
    st[n++] = ct_export_aabbs(box, 2, CT_EXPORT_OBJ, tx_write, &b);
    st[n++] = ct_export_aabbs(box, -1, CT_EXPORT_OBJ, tx_write, &b);
    st[n++] = ct_export_aabbs(NULL, 3, CT_EXPORT_OBJ, tx_write, &b);
    cr_assert_eq(b.calls, 0, "bad input wrote through the callback");
    while (n--) cr_assert_eq(st[n], CT_INVALID, "case %d: %s", n, ct_status_string(st[n]));
    /* the valid neighbours of those cases do write */
    cr_assert_eq(ct_export_aabbs(box, 1, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
    cr_assert_eq(ct_export_aabbs(NULL, 0, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
    cr_assert_gt(b.calls, 0);
    tx_free(&b);
    p.a.face_first[1] = first_saved;
    tx_pair_free(&p);
}

/* ---- the write function failing at each of its calls ---- */
typedef ct_status (*tx_kind_fn)(const tx_pair *p, ct_write_fn fn, void *user);
static ct_status tx_k_hull(const tx_pair *p, ct_write_fn fn, void *u) { return ct_export_hull(&p->x, NULL, CT_EXPORT_VTK, fn, u); }
static ct_status tx_k_obj(const tx_pair *p, ct_write_fn fn, void *u) {
    const ct_hull *h[3];
    h[0] = &p->a; h[1] = &p->b; h[2] = &p->x;
    return ct_export_scene(h, NULL, 3, NULL, 0, 0, CT_EXPORT_OBJ, fn, u);
}
static ct_status tx_k_contact(const tx_pair *p, ct_write_fn fn, void *u) { return ct_export_contact(&p->c, &p->x, 1, CT_EXPORT_VTK, fn, u); }
static ct_status tx_k_scene(const tx_pair *p, ct_write_fn fn, void *u) {
    const ct_hull *h[2];
    ct_xform x[2];
    h[0] = &p->a; h[1] = &p->b; x[0] = p->xa; x[1] = p->xb;
    return ct_export_scene(h, x, 2, &p->c, 1, 1, CT_EXPORT_VTK, fn, u);
}
static ct_status tx_k_boxes(const tx_pair *p, ct_write_fn fn, void *u) {
    ct_aabb box[40];
    int i;
    for (i = 0; i < 40; ++i) box[i] = ct_hull_aabb(i % 2 ? &p->a : &p->b, NULL);
    return ct_export_aabbs(box, 40, CT_EXPORT_VTK, fn, u);
}

Test(export, writer_failure_at_every_call_is_reported) {
    tx_kind_fn kinds[5];
    tx_pair p;
    int k;
    kinds[0] = tx_k_hull; kinds[1] = tx_k_obj; kinds[2] = tx_k_contact; kinds[3] = tx_k_scene; kinds[4] = tx_k_boxes;
    tx_pair_make(11, &p);
    for (k = 0; k < 5; ++k) {
        tx_buf full, b;
        int fail;
        tx_init(&full, 0);
        cr_assert_eq(kinds[k](&p, tx_write, &full), CT_OK);
        cr_assert_gt(full.calls, 1, "kind %d: one block only, the sweep would be trivial", k);
        for (fail = 1; fail <= full.calls; ++fail) {
            tx_init(&b, fail);
            cr_assert_eq(kinds[k](&p, tx_write, &b), CT_WRITE_FAILED, "kind %d fail at %d", k, fail);
            cr_assert_eq(b.calls, fail, "kind %d: writing went on after the failure", k);
            cr_assert(b.n == 0 || memcmp(b.s, full.s, b.n) == 0);   /* a prefix of the full text */
            tx_free(&b);
        }
        tx_free(&full);
    }
    tx_pair_free(&p);
    cr_assert_str_eq(ct_status_string(CT_WRITE_FAILED), "write failed");
}

Test(export, stdio_writer_gives_the_same_bytes) {
    tx_pair p;
    tx_buf b;
    FILE *f = tmpfile();
    char *text;
    long len;
    cr_assert_not_null(f);
    tx_pair_make(2, &p);
    tx_init(&b, 0);
    cr_assert_eq(ct_export_contact(&p.c, &p.x, 1, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    cr_assert_eq(ct_export_contact(&p.c, &p.x, 1, CT_EXPORT_VTK, ct_write_stdio, f), CT_OK);
    len = ftell(f);
    cr_assert_eq((size_t)len, b.n);
    text = (char *)malloc((size_t)len + 1);
    rewind(f);
    cr_assert_eq(fread(text, 1, (size_t)len, f), (size_t)len);
    cr_assert_eq(memcmp(text, b.s, b.n), 0);
    cr_assert_neq(ct_write_stdio(NULL, "x", 1), 0);
    cr_assert_eq(ct_export_hull(&p.a, NULL, CT_EXPORT_OBJ, ct_write_stdio, NULL), CT_WRITE_FAILED);
    free(text); fclose(f); tx_free(&b); tx_pair_free(&p);
}

/* ---- rendered by gnuplot (headless PNG), each kind ---- */
static int tx_have_gnuplot(void) { return system("command -v gnuplot >/dev/null 2>&1") == 0; }

static long tx_file_size(const char *path) {
    FILE *f = fopen(path, "rb");
    long n;
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fclose(f);
    return n;
}

/* Renders the parsed mesh (polygons filled, lines and points drawn) and a blank plot of the
   same frame; the picture must be a PNG of the asked size, larger than the blank one. */
static void tx_render(const tx_buf *b, ct_export_format f, const char *name) {
    char dir[] = "/tmp/ct_export_XXXXXX", path[256], cmd[1024];
    mr_mesh m;
    FILE *d;
    unsigned char head[24];
    int k, any[3], w, h;
    long size, blank;
    tx_parse(b, f, &m);
    cr_assert_not_null(mkdtemp(dir));
    for (k = 0; k < 3; ++k) {
        snprintf(path, sizeof path, "%s/k%d.dat", dir, k);
        d = fopen(path, "w");
        cr_assert_not_null(d);
        any[k] = mr_gnuplot_blocks(&m, k, NULL, -1, d);
        fclose(d);
    }
    cr_assert(any[0] + any[1] + any[2] > 0);
    snprintf(path, sizeof path, "%s/plot.gp", dir);
    d = fopen(path, "w");
    cr_assert_not_null(d);
    fprintf(d, "set terminal png size 320,240\nunset border\nunset tics\nunset key\nset view equal xyz\n");
    for (k = 0; k < 2; ++k) {
        int first = 1;
        fprintf(d, "set pm3d depthorder border lc '%s'\nset output '%s/%s.png'\nsplot ", k ? "black" : "white", dir,
                k ? name : "blank");
        if (any[2]) { fprintf(d, "'%s/k2.dat' with polygons fs solid 0.8 fc '%s'", dir, k ? "orange" : "white"); first = 0; }
        if (any[1]) { fprintf(d, "%s'%s/k1.dat' with lines lc '%s' lw 2", first ? "" : ", ", dir, k ? "red" : "white"); first = 0; }
        if (any[0]) fprintf(d, "%s'%s/k0.dat' with points pt 7 lc '%s'", first ? "" : ", ", dir, k ? "blue" : "white");
        fprintf(d, "\n");
    }
    fclose(d);
    snprintf(cmd, sizeof cmd, "gnuplot %s/plot.gp 2>%s/err.txt", dir, dir);
    cr_assert_eq(system(cmd), 0, "gnuplot failed on %s (see %s/err.txt)", name, dir);
    snprintf(path, sizeof path, "%s/%s.png", dir, name);
    size = tx_file_size(path);
    d = fopen(path, "rb");
    cr_assert_not_null(d);
    cr_assert_eq(fread(head, 1, 24, d), 24u);
    fclose(d);
    cr_assert_eq(memcmp(head, "\x89PNG\r\n\x1a\n", 8), 0);
    w = (head[16] << 24) | (head[17] << 16) | (head[18] << 8) | head[19];
    h = (head[20] << 24) | (head[21] << 16) | (head[22] << 8) | head[23];
    cr_assert(w == 320 && h == 240);
    snprintf(path, sizeof path, "%s/blank.png", dir);
    blank = tx_file_size(path);
    cr_assert(size > blank + 100, "%s: %ld bytes, a blank render %ld", name, size, blank);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
    mr_free(&m);
}

Test(export, every_kind_renders_with_gnuplot) {
    tx_pair p;
    tx_buf b;
    ct_manifold mf;
    ct_hull box;
    ct_aabb boxes[6];
    const ct_hull *hp[2];
    ct_xform xb = ct_xform_from_axis_angle(tu_vec(0, 0, 1), (ct_real)0.4, tu_vec(0.2, 0, 1.95));
    int i;
    if (!tx_have_gnuplot()) cr_skip_test("gnuplot is not installed (apt-get install gnuplot-nox): rendering not checked");
    tx_pair_make(8, &p);
    hp[0] = &p.a; hp[1] = &p.b;
    tx_init(&b, 0);
    cr_assert_eq(ct_export_hull(&p.a, &p.xa, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
    tx_render(&b, CT_EXPORT_OBJ, "hull");
    tx_free(&b); tx_init(&b, 0);
    cr_assert_eq(ct_export_hull(&p.x, NULL, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_render(&b, CT_EXPORT_VTK, "intersection");
    tx_free(&b); tx_init(&b, 0);
    cr_assert_eq(ct_export_contact(&p.c, &p.x, (ct_real)0.5, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_render(&b, CT_EXPORT_VTK, "contact");
    tx_free(&b); tx_init(&b, 0);
    cr_assert_eq(ct_export_scene(hp, NULL, 2, &p.c, 1, (ct_real)0.5, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_render(&b, CT_EXPORT_VTK, "scene");
    tx_free(&b); tx_init(&b, 0);
    for (i = 0; i < 6; ++i) boxes[i] = ct_hull_aabb(&p.a, NULL), boxes[i].lo.x += (ct_real)i, boxes[i].hi.x += (ct_real)i;
    cr_assert_eq(ct_export_aabbs(boxes, 6, CT_EXPORT_OBJ, tx_write, &b), CT_OK);
    tx_render(&b, CT_EXPORT_OBJ, "boxes");
    tx_free(&b); tx_init(&b, 0);
    cr_assert_eq(ct_hull_box(tu_vec(1, 1, 1), NULL, &box), CT_OK);
    cr_assert_eq(ct_manifold_hulls(&box, NULL, &box, &xb, 0, NULL, &mf), CT_OK);
    cr_assert_eq(mf.count, 4);
    cr_assert_eq(ct_export_manifold(&mf, (ct_real)0.5, CT_EXPORT_VTK, tx_write, &b), CT_OK);
    tx_render(&b, CT_EXPORT_VTK, "manifold");
    tx_free(&b);
    {   /* a scene step: bodies of every kind, contacts, fat boxes */
        tx_step t;
        tx_step_make(&t, CT_SCENE_MANIFOLD);
        tx_init(&b, 0);
        cr_assert_eq(ct_export_scene_step(t.s, &t.r, CT_EXPORT_ALL, (ct_real)0.3, CT_EXPORT_VTK, tx_write, &b), CT_OK);
        tx_render(&b, CT_EXPORT_VTK, "scene_step");
        tx_free(&b);
        tx_step_free(&t);
    }
    ct_hull_free(&box);
    tx_pair_free(&p);
}

/* ---- reentrancy: exports from 4 threads at once give the serial bytes ---- */
typedef struct tx_job { const tx_pair *p; tx_buf out; ct_status st; } tx_job;
static void *tx_thread(void *arg) {
    tx_job *j = (tx_job *)arg;
    int r;
    for (r = 0; r < 20 && j->st == CT_OK; ++r) {
        tx_free(&j->out);
        j->st = tx_k_scene(j->p, tx_write, &j->out);
        if (j->st == CT_OK) j->st = tx_k_contact(j->p, tx_write, &j->out);
    }
    return NULL;
}

Test(export, threads_give_the_serial_bytes) {
    tx_pair p;
    tx_job job[4];
    pthread_t th[4];
    tx_buf serial;
    int i;
    tx_pair_make(17, &p);
    tx_init(&serial, 0);
    cr_assert_eq(tx_k_scene(&p, tx_write, &serial), CT_OK);
    cr_assert_eq(tx_k_contact(&p, tx_write, &serial), CT_OK);
    for (i = 0; i < 4; ++i) {
        job[i].p = &p; job[i].st = CT_OK;
        tx_init(&job[i].out, 0);
        cr_assert_eq(pthread_create(&th[i], NULL, tx_thread, &job[i]), 0);
    }
    for (i = 0; i < 4; ++i) {
        cr_assert_eq(pthread_join(th[i], NULL), 0);
        cr_assert_eq(job[i].st, CT_OK);
        cr_assert(job[i].out.n == serial.n && memcmp(job[i].out.s, serial.s, serial.n) == 0);
        tx_free(&job[i].out);
    }
    tx_free(&serial);
    tx_pair_free(&p);
}
