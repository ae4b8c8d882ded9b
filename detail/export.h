/* contact.h detail: >>export - debug export of geometry to Wavefront OBJ and legacy VTK.

   Every kind of object (hull, contact, manifold, box set, scene) is described to one writer
   as a mesh: a list of points, then cells of three kinds (single-point vertices, two-point
   lines, polygons), plus named integer arrays on the cells and on the points. The writer
   streams text through the user's callback in blocks of CT__EXPORT_BUF bytes, so an export
   allocates nothing and needs no file system. Every input is validated before the first byte
   is written: bad input writes nothing. */
#include <stdio.h>
#include <stdarg.h>

#define CT__EXPORT_BUF 2048   /* bytes buffered before a call of the user's write function */
#define CT__EXPORT_MAXARR 4   /* named arrays per mesh, cells or points */

typedef struct ct__xout {
    ct_write_fn fn;
    void *user;
    size_t n;
    int failed;
    char buf[CT__EXPORT_BUF];
} ct__xout;

CT__PRIVATE void ct__xout_flush(ct__xout *o) {
    if (o->n && !o->failed && o->fn(o->user, o->buf, o->n) != 0) o->failed = 1;
    o->n = 0;
}

CT__PRIVATE void ct__xout_put(ct__xout *o, const char *s, size_t len) {
    while (len && !o->failed) {
        size_t k = sizeof o->buf - o->n;
        if (k > len) k = len;
        memcpy(o->buf + o->n, s, k);
        o->n += k; s += k; len -= k;
        if (o->n == sizeof o->buf) ct__xout_flush(o);
    }
}

CT__PRIVATE void ct__xout_fmt(ct__xout *o, const char *fmt, ...) {
    char tmp[320];
    int k;
    va_list ap;
    va_start(ap, fmt);
    k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0) { o->failed = 1; return; }
    ct__xout_put(o, tmp, (size_t)k < sizeof tmp ? (size_t)k : sizeof tmp - 1);
}

/* Full precision: the text reads back to the same ct_real (17 digits double, 9 float). */
CT__PRIVATE void ct__xout_real(ct__xout *o, double x) { ct__xout_fmt(o, "%.*g", CT__FLOAT ? 9 : 17, x); }

CT__PRIVATE void ct__xout_vec(ct__xout *o, const char *prefix, ct_vec3 v) {
    ct__xout_fmt(o, "%s", prefix);
    ct__xout_real(o, (double)v.x); ct__xout_put(o, " ", 1);
    ct__xout_real(o, (double)v.y); ct__xout_put(o, " ", 1);
    ct__xout_real(o, (double)v.z); ct__xout_put(o, "\n", 1);
}

/* The mesh a kind presents to the writers. Cells are numbered per kind (0 vertices, 1 lines,
   2 polygons); the writers visit points and the cells of each kind in increasing order, so a
   source may keep a cursor (the scene does) instead of an index. */
typedef struct ct__mesh {
    void *ctx;
    long np, nc[3];
    ct_vec3 (*point)(void *ctx, long i);
    int (*size)(void *ctx, int kind, long i);
    long (*index)(void *ctx, int kind, long i, int j);
    int ncarr, nparr;
    const char *cname[CT__EXPORT_MAXARR], *pname[CT__EXPORT_MAXARR], *ptype[CT__EXPORT_MAXARR];
    long (*cvalue)(void *ctx, int arr, int kind, long i);
    double (*pvalue)(void *ctx, int arr, long i);
} ct__mesh;

CT__PRIVATE void ct__export_obj(ct__xout *o, const ct__mesh *m, const char *title) {
    long i;
    int kind, j;
    ct__xout_fmt(o, "# contact.h export: %s\n", title);
    for (i = 0; i < m->np; ++i) ct__xout_vec(o, "v ", m->point(m->ctx, i));
    for (kind = 0; kind < 3; ++kind)
        for (i = 0; i < m->nc[kind] && !o->failed; ++i) {
            int k = m->size(m->ctx, kind, i);
            ct__xout_put(o, kind == 0 ? "p" : kind == 1 ? "l" : "f", 1);
            for (j = 0; j < k; ++j) ct__xout_fmt(o, " %ld", m->index(m->ctx, kind, i, j) + 1);
            ct__xout_put(o, "\n", 1);
        }
}

CT__PRIVATE void ct__export_vtk(ct__xout *o, const ct__mesh *m, const char *title) {
    long i, ncell = m->nc[0] + m->nc[1] + m->nc[2];
    int kind, j, a;
    ct__xout_fmt(o, "# vtk DataFile Version 3.0\n%s\nASCII\nDATASET POLYDATA\nPOINTS %ld %s\n", title, m->np,
                 CT__FLOAT ? "float" : "double");
    for (i = 0; i < m->np && !o->failed; ++i) ct__xout_vec(o, "", m->point(m->ctx, i));
    for (kind = 0; kind < 3; ++kind) {
        long total = 0;
        if (!m->nc[kind]) continue;
        for (i = 0; i < m->nc[kind]; ++i) total += 1 + m->size(m->ctx, kind, i);
        ct__xout_fmt(o, "%s %ld %ld\n", kind == 0 ? "VERTICES" : kind == 1 ? "LINES" : "POLYGONS", m->nc[kind], total);
        for (i = 0; i < m->nc[kind] && !o->failed; ++i) {
            int k = m->size(m->ctx, kind, i);
            ct__xout_fmt(o, "%d", k);
            for (j = 0; j < k; ++j) ct__xout_fmt(o, " %ld", m->index(m->ctx, kind, i, j));
            ct__xout_put(o, "\n", 1);
        }
    }
    if (m->ncarr && ncell) {
        ct__xout_fmt(o, "CELL_DATA %ld\n", ncell);
        for (a = 0; a < m->ncarr; ++a) {
            ct__xout_fmt(o, "SCALARS %s int 1\nLOOKUP_TABLE default\n", m->cname[a]);
            for (kind = 0; kind < 3; ++kind)
                for (i = 0; i < m->nc[kind] && !o->failed; ++i) ct__xout_fmt(o, "%ld\n", m->cvalue(m->ctx, a, kind, i));
        }
    }
    if (m->nparr && m->np) {
        ct__xout_fmt(o, "POINT_DATA %ld\n", m->np);
        for (a = 0; a < m->nparr; ++a) {
            int real = m->ptype[a][0] == 'r';
            ct__xout_fmt(o, "SCALARS %s %s 1\nLOOKUP_TABLE default\n", m->pname[a],
                         real ? (CT__FLOAT ? "float" : "double") : m->ptype[a]);
            for (i = 0; i < m->np && !o->failed; ++i) {
                if (real) ct__xout_real(o, m->pvalue(m->ctx, a, i));
                else ct__xout_fmt(o, "%.0f", m->pvalue(m->ctx, a, i));
                ct__xout_put(o, "\n", 1);
            }
        }
    }
}

CT__PRIVATE ct_status ct__export_run(const ct__mesh *m, const char *title, ct_export_format format,
                                     ct_write_fn fn, void *user) {
    ct__xout o;
    o.fn = fn; o.user = user; o.n = 0; o.failed = 0;
    if (format == CT_EXPORT_OBJ) ct__export_obj(&o, m, title);
    else ct__export_vtk(&o, m, title);
    ct__xout_flush(&o);
    return o.failed ? CT_WRITE_FAILED : CT_OK;
}

CT__PRIVATE void ct__mesh_init(ct__mesh *m, void *ctx) {
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
}

/* Structural check of a hull before its arrays are indexed: counts, offsets, vertex ids in
   range, every coordinate finite. O(size of the hull). */
CT__PRIVATE int ct__export_hull_ok(const ct_hull *h) {
    int i, f;
    if (!h || h->nverts < 4 || h->nfaces < 4 || !h->verts || !h->face_first || !h->face_verts) return 0;
    if (h->face_first[0] != 0) return 0;
    for (f = 0; f < h->nfaces; ++f)
        if (h->face_first[f + 1] - h->face_first[f] < 3) return 0;
    for (i = 0; i < h->face_first[h->nfaces]; ++i)
        if (h->face_verts[i] < 0 || h->face_verts[i] >= h->nverts) return 0;
    for (i = 0; i < h->nverts; ++i)
        if (!ct__finite3(h->verts[i])) return 0;
    return 1;
}

CT__PRIVATE int ct__export_args_ok(ct_export_format format, ct_write_fn fn) {
    return fn && (format == CT_EXPORT_OBJ || format == CT_EXPORT_VTK);
}

/* ---- a hull (also an intersection polyhedron from ct_intersect) ---- */
typedef struct ct__xhull { const ct_hull *h; const ct_xform *x; } ct__xhull;

CT__PRIVATE ct_vec3 ct__xhull_point(void *c, long i) {
    const ct__xhull *s = (const ct__xhull *)c;
    return ct__xf_point(s->x, s->h->verts[i]);
}
CT__PRIVATE int ct__xhull_size(void *c, int kind, long i) {
    const ct_hull *h = ((const ct__xhull *)c)->h;
    (void)kind;
    return h->face_first[i + 1] - h->face_first[i];
}
CT__PRIVATE long ct__xhull_index(void *c, int kind, long i, int j) {
    const ct_hull *h = ((const ct__xhull *)c)->h;
    (void)kind;
    return h->face_verts[h->face_first[i] + j];
}
CT__PRIVATE long ct__xhull_cvalue(void *c, int arr, int kind, long i) {
    const ct_hull *h = ((const ct__xhull *)c)->h;
    (void)kind;
    return arr == 0 ? i : h->face_tag[i];
}
CT__PRIVATE double ct__xhull_pvalue(void *c, int arr, long i) {
    (void)arr;
    return ((const ct__xhull *)c)->h->vert_source[i];
}

CTDEF ct_status ct_export_hull(const ct_hull *h, const ct_xform *x, ct_export_format format, ct_write_fn fn,
                               void *user) {
    ct__xhull s;
    ct__mesh m;
    if (!ct__export_args_ok(format, fn) || !ct__export_hull_ok(h) || !ct__xf_valid(x)) return CT_INVALID;
    s.h = h; s.x = x;
    ct__mesh_init(&m, &s);
    m.np = h->nverts;
    m.nc[2] = h->nfaces;
    m.point = ct__xhull_point; m.size = ct__xhull_size; m.index = ct__xhull_index;
    m.cvalue = ct__xhull_cvalue; m.pvalue = ct__xhull_pvalue;
    m.cname[m.ncarr++] = "face_id";
    if (h->face_tag) m.cname[m.ncarr++] = "face_tag";
    if (h->vert_source) { m.pname[0] = "vert_source"; m.ptype[0] = "int"; m.nparr = 1; }
    return ct__export_run(&m, h->face_tag ? "contact.h hull (intersection: face_tag >= 0 on A, < 0 on B)"
                                          : "contact.h hull", format, fn, user);
}

/* ---- a contact: point, normal arrow, the faces of the intersection ---- */
typedef struct ct__xcontact { const ct_contact *c; const ct_hull *o; ct_real arrow; int np0; } ct__xcontact;

CT__PRIVATE ct_vec3 ct__xcontact_point(void *ctx, long i) {
    const ct__xcontact *s = (const ct__xcontact *)ctx;
    if (i == 0) return s->c->point;
    if (i < s->np0) return ct__madd(s->c->point, s->c->normal, s->arrow);
    return s->o->verts[i - s->np0];
}
CT__PRIVATE int ct__xcontact_size(void *ctx, int kind, long i) {
    const ct__xcontact *s = (const ct__xcontact *)ctx;
    if (kind < 2) return kind + 1;
    return s->o->face_first[i + 1] - s->o->face_first[i];
}
CT__PRIVATE long ct__xcontact_index(void *ctx, int kind, long i, int j) {
    const ct__xcontact *s = (const ct__xcontact *)ctx;
    if (kind < 2) return j;
    return s->np0 + s->o->face_verts[s->o->face_first[i] + j];
}
/* arrays: part (0 point, 1 normal arrow, 2 face on A, 3 face on B), face (index in its body) */
CT__PRIVATE long ct__xcontact_cvalue(void *ctx, int arr, int kind, long i) {
    const ct__xcontact *s = (const ct__xcontact *)ctx;
    int tag;
    if (kind < 2) return arr == 0 ? kind : -1;
    tag = s->o->face_tag ? s->o->face_tag[i] : (int)i;
    if (arr == 0) return tag >= 0 ? 2 : 3;
    return tag >= 0 ? tag : -tag - 1;
}

CTDEF ct_status ct_export_contact(const ct_contact *c, const ct_hull *overlap, ct_real arrow,
                                  ct_export_format format, ct_write_fn fn, void *user) {
    ct__xcontact s;
    ct__mesh m;
    char title[256];
    if (!ct__export_args_ok(format, fn) || !c || !ct__finite(arrow) || arrow < 0) return CT_INVALID;
    if (overlap && overlap->nfaces == 0) overlap = NULL; /* ct_intersect's answer for disjoint */
    if (overlap && !ct__export_hull_ok(overlap)) return CT_INVALID;
    if (c->found && (!ct__finite3(c->point) || !ct__finite3(c->normal) || !ct__finite(c->gap) ||
                     !ct__finite(c->area) || !ct__finite(c->volume)))
        return CT_INVALID;
    s.c = c; s.o = overlap; s.arrow = arrow; s.np0 = arrow > 0 ? 2 : 1;
    ct__mesh_init(&m, &s);
    if (c->found) {
        m.np = s.np0 + (overlap ? overlap->nverts : 0);
        m.nc[0] = 1;
        m.nc[1] = arrow > 0;
        m.nc[2] = overlap ? overlap->nfaces : 0;
    }
    m.point = ct__xcontact_point; m.size = ct__xcontact_size; m.index = ct__xcontact_index;
    m.cvalue = ct__xcontact_cvalue;
    m.cname[0] = "part"; m.cname[1] = "face"; m.ncarr = 2;
    snprintf(title, sizeof title, "contact.h contact found %d gap %.*g area %.*g volume %.*g", c->found,
             CT__FLOAT ? 9 : 17, c->found ? (double)c->gap : 0.0, CT__FLOAT ? 9 : 17, c->found ? (double)c->area : 0.0,
             CT__FLOAT ? 9 : 17, c->found ? (double)c->volume : 0.0);
    return ct__export_run(&m, title, format, fn, user);
}

/* ---- a manifold: points, their polygon, one normal arrow from their centroid ---- */
typedef struct ct__xmanifold {
    const ct_manifold *m;
    ct_real arrow;
    int order[CT_MANIFOLD_MAX];   /* the points counter-clockwise about the normal */
    ct_vec3 mid;
} ct__xmanifold;

CT__PRIVATE ct_vec3 ct__xmanifold_point(void *ctx, long i) {
    const ct__xmanifold *s = (const ct__xmanifold *)ctx;
    if (i < s->m->count) return s->m->points[i].point;
    return i == s->m->count ? s->mid : ct__madd(s->mid, s->m->normal, s->arrow);
}
CT__PRIVATE int ct__xmanifold_size(void *ctx, int kind, long i) {
    const ct__xmanifold *s = (const ct__xmanifold *)ctx;
    (void)i;
    return kind < 2 ? kind + 1 : s->m->count;
}
CT__PRIVATE long ct__xmanifold_index(void *ctx, int kind, long i, int j) {
    const ct__xmanifold *s = (const ct__xmanifold *)ctx;
    if (kind == 0) return i;
    if (kind == 2) return s->order[j];
    /* lines: the arrow (centroid, tip) when present, then the segment of a two-point manifold */
    if (s->arrow > 0 && i == 0) return s->m->count + j;
    return j;
}
/* cell array part: 0 point, 1 normal arrow, 2 segment or polygon of the points */
CT__PRIVATE long ct__xmanifold_cvalue(void *ctx, int arr, int kind, long i) {
    const ct__xmanifold *s = (const ct__xmanifold *)ctx;
    (void)arr;
    if (kind == 1) return s->arrow > 0 && i == 0 ? 1 : 2;
    return kind;
}
CT__PRIVATE double ct__xmanifold_pvalue(void *ctx, int arr, long i) {
    const ct__xmanifold *s = (const ct__xmanifold *)ctx;
    if (i >= s->m->count) return arr == 0 ? 0.0 : -1.0;
    return arr == 0 ? (double)s->m->points[i].separation : (double)s->m->points[i].id;
}

/* Orders the points by angle about the normal (at most 4: insertion sort). */
CT__PRIVATE void ct__xmanifold_order(ct__xmanifold *s) {
    const ct_manifold *m = s->m;
    ct_vec3 u, v;
    ct_real ang[CT_MANIFOLD_MAX];
    int i, j;
    s->mid = ct__v3(0, 0, 0);
    for (i = 0; i < m->count; ++i) s->mid = ct__add(s->mid, m->points[i].point);
    if (m->count) s->mid = ct__scale(s->mid, 1 / (ct_real)m->count);
    ct__basis(m->normal, &u, &v);
    for (i = 0; i < m->count; ++i) {
        ct_vec3 d = ct__sub(m->points[i].point, s->mid);
        ct_real a = ct__atan2(ct__dot(d, v), ct__dot(d, u));
        for (j = i; j > 0 && ang[j - 1] > a; --j) { ang[j] = ang[j - 1]; s->order[j] = s->order[j - 1]; }
        ang[j] = a; s->order[j] = i;
    }
}

CTDEF ct_status ct_export_manifold(const ct_manifold *mf, ct_real arrow, ct_export_format format, ct_write_fn fn,
                                   void *user) {
    ct__xmanifold s;
    ct__mesh m;
    int i, ok;
    if (!ct__export_args_ok(format, fn) || !mf || !ct__finite(arrow) || arrow < 0) return CT_INVALID;
    if (mf->count < 0 || mf->count > CT_MANIFOLD_MAX) return CT_INVALID;
    for (i = 0; i < mf->count; ++i)
        if (!ct__finite3(mf->points[i].point) || !ct__finite(mf->points[i].separation)) return CT_INVALID;
    if (mf->count) {
        (void)ct__normalize(mf->normal, &ok);
        if (!ok) return CT_INVALID;
    }
    s.m = mf; s.arrow = arrow;
    ct__xmanifold_order(&s);
    ct__mesh_init(&m, &s);
    if (mf->count) {
        m.np = mf->count + (arrow > 0 ? 2 : 0);
        m.nc[0] = mf->count;
        m.nc[1] = (arrow > 0) + (mf->count == 2);
        m.nc[2] = mf->count >= 3;
    }
    m.point = ct__xmanifold_point; m.size = ct__xmanifold_size; m.index = ct__xmanifold_index;
    m.cvalue = ct__xmanifold_cvalue; m.pvalue = ct__xmanifold_pvalue;
    m.cname[0] = "part"; m.ncarr = 1;
    m.pname[0] = "separation"; m.ptype[0] = "real";
    m.pname[1] = "id"; m.ptype[1] = "double"; m.nparr = 2;   /* an unsigned feature key; -1 on the arrow */
    return ct__export_run(&m, "contact.h manifold", format, fn, user);
}

/* ---- a set of boxes: 8 corners and 6 outward quads each ---- */
/* Corner j of quad f of a box whose corners are c = x + 2y + 4z (as ct__shape_vertex numbers a
   box's), each quad counter-clockwise seen from outside. */
CT__PRIVATE int ct__box_quad(int f, int j) {
    static const int quad[6][4] = { { 0, 4, 6, 2 }, { 1, 3, 7, 5 }, { 0, 1, 5, 4 },
                                    { 2, 6, 7, 3 }, { 0, 2, 3, 1 }, { 4, 5, 7, 6 } };
    return quad[f][j];
}
typedef struct ct__xboxes { const ct_aabb *b; } ct__xboxes;

CT__PRIVATE ct_vec3 ct__xboxes_point(void *ctx, long i) {
    const ct_aabb *b = ((const ct__xboxes *)ctx)->b + i / 8;
    int c = (int)(i % 8);
    return ct__v3(c & 1 ? b->hi.x : b->lo.x, c & 2 ? b->hi.y : b->lo.y, c & 4 ? b->hi.z : b->lo.z);
}
CT__PRIVATE int ct__xboxes_size(void *ctx, int kind, long i) { (void)ctx; (void)kind; (void)i; return 4; }
CT__PRIVATE long ct__xboxes_index(void *ctx, int kind, long i, int j) {
    (void)ctx; (void)kind;
    return 8 * (i / 6) + ct__box_quad((int)(i % 6), j);
}
CT__PRIVATE long ct__xboxes_cvalue(void *ctx, int arr, int kind, long i) {
    (void)ctx; (void)arr; (void)kind;
    return i / 6;
}

CTDEF ct_status ct_export_aabbs(const ct_aabb *boxes, int n, ct_export_format format, ct_write_fn fn, void *user) {
    ct__xboxes s;
    ct__mesh m;
    int i;
    if (!ct__export_args_ok(format, fn) || n < 0 || (n > 0 && !boxes)) return CT_INVALID;
    for (i = 0; i < n; ++i)
        if (!ct__finite3(boxes[i].lo) || !ct__finite3(boxes[i].hi) || !(boxes[i].lo.x <= boxes[i].hi.x) ||
            !(boxes[i].lo.y <= boxes[i].hi.y) || !(boxes[i].lo.z <= boxes[i].hi.z))
            return CT_INVALID;
    s.b = boxes;
    ct__mesh_init(&m, &s);
    m.np = 8L * n;
    m.nc[2] = 6L * n;
    m.point = ct__xboxes_point; m.size = ct__xboxes_size; m.index = ct__xboxes_index;
    m.cvalue = ct__xboxes_cvalue;
    m.cname[0] = "box"; m.ncarr = 1;
    return ct__export_run(&m, "contact.h boxes", format, fn, user);
}

/* ---- a scene: hulls placed by their transforms, then each found contact ---- */
typedef struct ct__xscene {
    const ct_hull *const *h;
    const ct_xform *x;
    int n;
    const ct_contact *c;
    int nc;
    ct_real arrow;
    long nv;                      /* points of all hulls */
    int pb; long pbase;           /* cursor over points: body pb starts at point pbase */
    int fb; long fbase, vbase;    /* cursor over faces: body fb starts at face fbase, point vbase */
    int ci; long cidx;            /* cursor over found contacts: cell cidx is contact ci */
} ct__xscene;

/* Moves a cursor (body b, first element base) to the body holding element i; count = 0 points,
   1 faces. The writers visit elements in increasing order, so this is amortised O(1). */
CT__PRIVATE void ct__xscene_seek(const ct__xscene *s, int count, long i, int *b, long *base, long *vbase) {
    if (i < *base) { *b = 0; *base = 0; if (vbase) *vbase = 0; }
    for (;;) {
        long k = count ? s->h[*b]->nfaces : s->h[*b]->nverts;
        if (i < *base + k) return;
        *base += k;
        if (vbase) *vbase += s->h[*b]->nverts;
        ++*b;
    }
}
CT__PRIVATE int ct__xscene_contact(ct__xscene *s, long i) {
    if (i < s->cidx) { s->ci = 0; s->cidx = 0; }
    for (;;) {
        while (!s->c[s->ci].found) ++s->ci;
        if (s->cidx == i) return s->ci;
        ++s->ci; ++s->cidx;
    }
}
CT__PRIVATE ct_vec3 ct__xscene_point(void *ctx, long i) {
    ct__xscene *s = (ct__xscene *)ctx;
    if (i < s->nv) {
        ct__xscene_seek(s, 0, i, &s->pb, &s->pbase, NULL);
        return ct__xf_point(s->x ? s->x + s->pb : NULL, s->h[s->pb]->verts[i - s->pbase]);
    } else {
        long k = s->arrow > 0 ? 2 : 1;
        const ct_contact *c = s->c + ct__xscene_contact(s, (i - s->nv) / k);
        return (i - s->nv) % k ? ct__madd(c->point, c->normal, s->arrow) : c->point;
    }
}
CT__PRIVATE int ct__xscene_size(void *ctx, int kind, long i) {
    ct__xscene *s = (ct__xscene *)ctx;
    const ct_hull *h;
    if (kind < 2) return kind + 1;
    ct__xscene_seek(s, 1, i, &s->fb, &s->fbase, &s->vbase);
    h = s->h[s->fb];
    i -= s->fbase;
    return h->face_first[i + 1] - h->face_first[i];
}
CT__PRIVATE long ct__xscene_index(void *ctx, int kind, long i, int j) {
    ct__xscene *s = (ct__xscene *)ctx;
    const ct_hull *h;
    long k = s->arrow > 0 ? 2 : 1;
    if (kind < 2) return s->nv + k * i + j;
    ct__xscene_seek(s, 1, i, &s->fb, &s->fbase, &s->vbase);
    h = s->h[s->fb];
    return s->vbase + h->face_verts[h->face_first[i - s->fbase] + j];
}
/* arrays: body (hull index, -1 for contacts), face (face index, -1), contact (index, -1) */
CT__PRIVATE long ct__xscene_cvalue(void *ctx, int arr, int kind, long i) {
    ct__xscene *s = (ct__xscene *)ctx;
    if (kind < 2) return arr == 2 ? ct__xscene_contact(s, i) : -1;
    if (arr == 2) return -1;
    ct__xscene_seek(s, 1, i, &s->fb, &s->fbase, &s->vbase);
    return arr == 0 ? s->fb : i - s->fbase;
}

CTDEF ct_status ct_export_scene(const ct_hull *const *hulls, const ct_xform *xforms, int n,
                                const ct_contact *contacts, int ncontacts, ct_real arrow,
                                ct_export_format format, ct_write_fn fn, void *user) {
    ct__xscene s;
    ct__mesh m;
    long nf = 0, found = 0;
    int i;
    if (!ct__export_args_ok(format, fn) || n < 0 || ncontacts < 0 || (n > 0 && !hulls) ||
        (ncontacts > 0 && !contacts) || !ct__finite(arrow) || arrow < 0)
        return CT_INVALID;
    memset(&s, 0, sizeof s);
    for (i = 0; i < n; ++i) {
        if (!ct__export_hull_ok(hulls[i]) || (xforms && !ct__xf_valid(xforms + i))) return CT_INVALID;
        s.nv += hulls[i]->nverts;
        nf += hulls[i]->nfaces;
    }
    for (i = 0; i < ncontacts; ++i) {
        const ct_contact *c = contacts + i;
        if (!c->found) continue;
        if (!ct__finite3(c->point) || !ct__finite3(c->normal)) return CT_INVALID;
        ++found;
    }
    s.h = hulls; s.x = xforms; s.n = n; s.c = contacts; s.nc = ncontacts; s.arrow = arrow;
    ct__mesh_init(&m, &s);
    m.np = s.nv + found * (arrow > 0 ? 2 : 1);
    m.nc[0] = found;
    m.nc[1] = arrow > 0 ? found : 0;
    m.nc[2] = nf;
    m.point = ct__xscene_point; m.size = ct__xscene_size; m.index = ct__xscene_index;
    m.cvalue = ct__xscene_cvalue;
    m.cname[0] = "body"; m.cname[1] = "face"; m.cname[2] = "contact"; m.ncarr = 3;
    return ct__export_run(&m, "contact.h scene", format, fn, user);
}

/* ---- a scene of the scene pipeline: its bodies, its touching pairs, its fat boxes ---- */
/* A body that is neither a plain hull nor a plain box is drawn as the polyhedron through its
   support points along a latitude-longitude grid of directions: the two poles and
   CT__EXPORT_LAT - 1 rings of CT__EXPORT_LON directions (triangles at the poles, quads
   between rings; inscribed in the shape, with repeated points where the shape is flat). */
#define CT__EXPORT_LAT 8
#define CT__EXPORT_LON 16
#define CT__EXPORT_UVP (2 + (CT__EXPORT_LAT - 1) * CT__EXPORT_LON)
#define CT__EXPORT_UVF (CT__EXPORT_LAT * CT__EXPORT_LON)

enum { CT__XB_HULL = 0, CT__XB_BOX, CT__XB_UV };
typedef struct ct__xpair { int p; long pts, verts, arrows; } ct__xpair;

typedef struct ct__xstep {
    const ct_scene *s;
    const ct_scene_result *r;
    unsigned parts;
    ct_real arrow;
    long nbp, nbf;                 /* points and faces of all bodies */
    long ncp, ncv, nca;            /* contact points, of them vertex cells, arrows */
    long nboxes;                   /* fat boxes (bodies that existed at the last step) */
    int pb; long pbase;            /* cursor: body pb's points start at pbase */
    int fb; long fbase, vbase;     /* cursor: body fb's faces start at fbase, its points at vbase */
    ct__xpair cp, cv, ca;          /* cursors over the pairs by points, vertex cells, arrows */
    long xbase; int xb_id;         /* cursor: fat box xbase is body xb_id's (-1: before the first) */
} ct__xstep;

CT__INLINE int ct__xstep_kind(const ct_shape *sh) {
    if (sh->radius > 0) return CT__XB_UV;
    return sh->type == CT_SHAPE_HULL ? CT__XB_HULL : sh->type == CT_SHAPE_BOX ? CT__XB_BOX : CT__XB_UV;
}
CT__INLINE const ct_xform *ct__xstep_xf(const ct__sbody *b) { return b->xref ? b->xref : &b->xf; }
CT__PRIVATE long ct__xstep_body_count(const ct_scene *s, int b, int faces) {
    const ct__sbody *d = s->body + b;
    if (d->state != 1) return 0;
    switch (ct__xstep_kind(&d->shape)) {
    case CT__XB_HULL: return faces ? d->shape.ct__hull->nfaces : d->shape.ct__hull->nverts;
    case CT__XB_BOX: return faces ? 6 : 8;
    default: return faces ? CT__EXPORT_UVF : CT__EXPORT_UVP;
    }
}
/* The point of the (ring, column) grid: k = 0 the north pole, 1..LAT-1 the rings, LAT the
   south pole. */
CT__PRIVATE long ct__xstep_uv(int k, int j) {
    if (k == 0) return 0;
    if (k == CT__EXPORT_LAT) return CT__EXPORT_UVP - 1;
    return 1 + (long)(k - 1) * CT__EXPORT_LON + j % CT__EXPORT_LON;
}
CT__PRIVATE ct_vec3 ct__xstep_body_point(const ct__sbody *d, long i) {
    const ct_shape *sh = &d->shape;
    ct_vec3 p, dir;
    int id = -1;
    switch (ct__xstep_kind(sh)) {
    case CT__XB_HULL: p = sh->ct__hull->verts[i]; break;
    case CT__XB_BOX: p = ct__shape_vertex(sh, (int)i); break;
    default: {
        ct_real th, ph;
        if (i == 0) { th = 0; ph = 0; }
        else if (i == CT__EXPORT_UVP - 1) { th = CT__PI; ph = 0; }
        else {
            th = CT__PI * (ct_real)((i - 1) / CT__EXPORT_LON + 1) / CT__EXPORT_LAT;
            ph = 2 * CT__PI * (ct_real)((i - 1) % CT__EXPORT_LON) / CT__EXPORT_LON;
        }
        dir = ct__v3(ct__sin(th) * ct__cos(ph), ct__sin(th) * ct__sin(ph), ct__cos(th));
        p = ct__madd(ct__shape_support(sh, dir, &id), dir, sh->radius);
    }
    }
    return ct__xf_point(ct__xstep_xf(d), p);
}
CT__PRIVATE int ct__xstep_body_fsize(const ct__sbody *d, long f) {
    switch (ct__xstep_kind(&d->shape)) {
    case CT__XB_HULL: return d->shape.ct__hull->face_first[f + 1] - d->shape.ct__hull->face_first[f];
    case CT__XB_BOX: return 4;
    default: return f < CT__EXPORT_LON || f >= CT__EXPORT_UVF - CT__EXPORT_LON ? 3 : 4;
    }
}
CT__PRIVATE long ct__xstep_body_findex(const ct__sbody *d, long f, int j) {
    const ct_hull *h = d->shape.ct__hull;
    int k, c;
    switch (ct__xstep_kind(&d->shape)) {
    case CT__XB_HULL: return h->face_verts[h->face_first[f] + j];
    case CT__XB_BOX: return ct__box_quad((int)f, j);
    default:
        /* face f joins ring k = f / LON to ring k + 1 at columns c, c + 1, counter-clockwise
           from outside (down the meridian, then east) */
        k = (int)(f / CT__EXPORT_LON); c = (int)(f % CT__EXPORT_LON);
        if (k == 0) { static const int t[3][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 } }; return ct__xstep_uv(t[j][0], c + t[j][1]); }
        if (k == CT__EXPORT_LAT - 1) {
            static const int t[3][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 } };
            return ct__xstep_uv(k + t[j][0], c + t[j][1]);
        } else {
            static const int t[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
            return ct__xstep_uv(k + t[j][0], c + t[j][1]);
        }
    }
}
/* Moves a cursor over the bodies (b, base; vbase: the body's first point when counting
   faces) to the body holding element i of the count (0 points, 1 faces). The writers visit
   elements in increasing order, so this is amortised O(1). */
CT__PRIVATE void ct__xstep_seek(const ct_scene *s, int faces, long i, int *b, long *base, long *vbase) {
    if (i < *base) { *b = 0; *base = 0; if (vbase) *vbase = 0; }
    for (;;) {
        long k = ct__xstep_body_count(s, *b, faces);
        if (i < *base + k) return;
        *base += k;
        if (vbase) *vbase += ct__xstep_body_count(s, *b, 0);
        ++*b;
    }
}
/* Contact points of touching pair p: its manifold's points (manifold mode) or its point
   (volumetric), then, when arrows are drawn and it has points, the arrow's base (their mean)
   and tip. A cursor over the pairs counts, before pair p, the points (pts), the contact-point
   cells (verts) and the arrows (arrows); it is sought by one of them. */
CT__INLINE int ct__xstep_npts(const ct__xstep *x, int p) {
    const ct_scene_contact *c = x->r->touching + p;
    return x->s->desc.mode == CT_SCENE_MANIFOLD ? c->manifold.count : c->contact.found != 0;
}
CT__PRIVATE void ct__xstep_seek_pair(const ct__xstep *x, ct__xpair *c, int by, long i) {
    long *key = by == 0 ? &c->pts : by == 1 ? &c->verts : &c->arrows;
    if (i < *key) memset(c, 0, sizeof *c);
    for (;;) {
        long n = ct__xstep_npts(x, c->p), a = n > 0 && x->arrow > 0;
        long k = by == 0 ? n + 2 * a : by == 1 ? n : a;
        if (i < *key + k) return;
        c->pts += n + 2 * a; c->verts += n; c->arrows += a;
        ++c->p;
    }
}
CT__PRIVATE ct_vec3 ct__xstep_pair_point(const ct__xstep *x, int p, int k) {
    const ct_scene_contact *c = x->r->touching + p;
    int n = ct__xstep_npts(x, p), j;
    ct_vec3 mid = ct__v3(0, 0, 0), nrm;
    if (x->s->desc.mode != CT_SCENE_MANIFOLD) {
        mid = c->contact.point; nrm = c->contact.normal;
    } else {
        if (k < n) return c->manifold.points[k].point;
        for (j = 0; j < n; ++j) mid = ct__add(mid, c->manifold.points[j].point);
        mid = ct__scale(mid, 1 / (ct_real)n);
        nrm = c->manifold.normal;
    }
    return k <= n ? mid : ct__madd(mid, nrm, x->arrow);
}
/* The body of the i-th fat box (bodies live at the last successful step, in id order). */
CT__PRIVATE int ct__xstep_box_body(ct__xstep *x, long i) {
    const ct_scene *s = x->s;
    if (i < x->xbase) { x->xbase = -1; x->xb_id = -1; }
    while (x->xbase < i) {
        ++x->xb_id;
        while (s->body[x->xb_id].state != 1 || s->body[x->xb_id].fresh) ++x->xb_id;
        ++x->xbase;
    }
    return x->xb_id;
}

/* Points: bodies, then contact points and arrows, then box corners. */
CT__PRIVATE ct_vec3 ct__xstep_point(void *ctx, long i) {
    ct__xstep *x = (ct__xstep *)ctx;
    if (i < x->nbp) {
        ct__xstep_seek(x->s, 0, i, &x->pb, &x->pbase, NULL);
        return ct__xstep_body_point(x->s->body + x->pb, i - x->pbase);
    }
    i -= x->nbp;
    if (i < x->ncp) {
        ct__xstep_seek_pair(x, &x->cp, 0, i);
        return ct__xstep_pair_point(x, x->cp.p, (int)(i - x->cp.pts));
    }
    i -= x->ncp;
    {
        const ct_aabb *b = &x->s->body[ct__xstep_box_body(x, i / 8)].fat;
        int c = (int)(i % 8);
        return ct__v3(c & 1 ? b->hi.x : b->lo.x, c & 2 ? b->hi.y : b->lo.y, c & 4 ? b->hi.z : b->lo.z);
    }
}
/* Cells: contact points (vertices), arrows (lines), body faces and box quads (polygons). */
CT__PRIVATE int ct__xstep_size(void *ctx, int kind, long i) {
    ct__xstep *x = (ct__xstep *)ctx;
    if (kind < 2) return kind + 1;
    if (i < x->nbf) {
        ct__xstep_seek(x->s, 1, i, &x->fb, &x->fbase, &x->vbase);
        return ct__xstep_body_fsize(x->s->body + x->fb, i - x->fbase);
    }
    return 4;
}
CT__PRIVATE long ct__xstep_index(void *ctx, int kind, long i, int j) {
    ct__xstep *x = (ct__xstep *)ctx;
    if (kind == 0) {   /* contact point i: the pair's points come first in its block */
        ct__xstep_seek_pair(x, &x->cv, 1, i);
        return x->nbp + x->cv.pts + (i - x->cv.verts);
    }
    if (kind == 1) {   /* arrow i: base and tip follow the pair's points */
        ct__xstep_seek_pair(x, &x->ca, 2, i);
        return x->nbp + x->ca.pts + ct__xstep_npts(x, x->ca.p) + j;
    }
    if (i < x->nbf) {
        ct__xstep_seek(x->s, 1, i, &x->fb, &x->fbase, &x->vbase);
        return x->vbase + ct__xstep_body_findex(x->s->body + x->fb, i - x->fbase, j);
    }
    i -= x->nbf;
    return x->nbp + x->ncp + 8 * (i / 6) + ct__box_quad((int)(i % 6), j);
}
/* Cell arrays: body (id; -1 on contact cells), part (0 body face, 1 contact point, 2 normal
   arrow, 3 fat box), pair (index in touching; -1 on bodies and boxes). */
CT__PRIVATE long ct__xstep_cvalue(void *ctx, int arr, int kind, long i) {
    ct__xstep *x = (ct__xstep *)ctx;
    if (kind < 2) {
        if (arr == 0) return -1;
        if (arr == 1) return kind + 1;
        if (kind == 1) { ct__xstep_seek_pair(x, &x->ca, 2, i); return x->ca.p; }
        ct__xstep_seek_pair(x, &x->cv, 1, i);
        return x->cv.p;
    }
    if (i < x->nbf) {
        if (arr != 0) return arr == 1 ? 0 : -1;
        ct__xstep_seek(x->s, 1, i, &x->fb, &x->fbase, &x->vbase);
        return x->fb;
    }
    if (arr != 0) return arr == 1 ? 3 : -1;
    return ct__xstep_box_body(x, (i - x->nbf) / 6);
}
CTDEF ct_status ct_export_scene_step(const ct_scene *s, const ct_scene_result *r, unsigned parts, ct_real arrow,
                                     ct_export_format format, ct_write_fn fn, void *user) {
    ct__xstep x;
    ct__mesh m;
    char title[160];
    int b, p, j, ok;
    long i, nbody = 0;
    if (!s || !ct__export_args_ok(format, fn) || !parts || (parts & ~(unsigned)CT_EXPORT_ALL) ||
        !ct__finite(arrow) || arrow < 0)
        return CT_INVALID;
    memset(&x, 0, sizeof x);
    x.s = s; x.r = r; x.parts = parts; x.arrow = arrow; x.xbase = -1; x.xb_id = -1;
    for (b = 0; b < s->n; ++b) {
        const ct__sbody *d = s->body + b;
        if (d->state != 1) continue;
        ++nbody;
        if (parts & CT_EXPORT_BODIES) {
            if (!ct__xf_valid(ct__xstep_xf(d))) return CT_INVALID;
            if (ct__xstep_kind(&d->shape) == CT__XB_HULL && !ct__export_hull_ok(d->shape.ct__hull)) return CT_INVALID;
            x.nbp += ct__xstep_body_count(s, b, 0);
            x.nbf += ct__xstep_body_count(s, b, 1);
            if (ct__xstep_kind(&d->shape) == CT__XB_UV) /* a user's support function may misbehave */
                for (i = 0; i < CT__EXPORT_UVP; ++i)
                    if (!ct__finite3(ct__xstep_body_point(d, i))) return CT_INVALID;
        }
        if ((parts & CT_EXPORT_FAT_BOXES) && !d->fresh) {
            if (!ct__finite3(d->fat.lo) || !ct__finite3(d->fat.hi)) return CT_INVALID;
            ++x.nboxes;
        }
    }
    if (parts & CT_EXPORT_CONTACTS) {
        if (!r || r->ntouching < 0 || (r->ntouching > 0 && !r->touching)) return CT_INVALID;
        for (p = 0; p < r->ntouching; ++p) {
            const ct_scene_contact *c = r->touching + p;
            int n;
            if (s->desc.mode == CT_SCENE_MANIFOLD) {
                if (c->manifold.count < 0 || c->manifold.count > CT_MANIFOLD_MAX) return CT_INVALID;
                for (j = 0; j < c->manifold.count; ++j)
                    if (!ct__finite3(c->manifold.points[j].point)) return CT_INVALID;
            } else if (c->contact.found && !ct__finite3(c->contact.point)) {
                return CT_INVALID;
            }
            n = ct__xstep_npts(&x, p);
            if (n && arrow > 0) {
                (void)ct__normalize(s->desc.mode == CT_SCENE_MANIFOLD ? c->manifold.normal : c->contact.normal, &ok);
                if (!ok) return CT_INVALID;
            }
            x.ncv += n;
            x.nca += n > 0 && arrow > 0;
        }
        x.ncp = x.ncv + 2 * x.nca;
    }
    ct__mesh_init(&m, &x);
    m.np = x.nbp + x.ncp + 8 * x.nboxes;
    m.nc[0] = x.ncv;
    m.nc[1] = x.nca;
    m.nc[2] = x.nbf + 6 * x.nboxes;
    m.point = ct__xstep_point; m.size = ct__xstep_size; m.index = ct__xstep_index;
    m.cvalue = ct__xstep_cvalue;
    m.cname[0] = "body"; m.cname[1] = "part"; m.cname[2] = "pair"; m.ncarr = 3;
    snprintf(title, sizeof title, "contact.h scene step: %ld bodies, %d touching pairs (part: 0 body, 1 contact "
             "point, 2 normal, 3 fat box)", nbody, r ? r->ntouching : 0);
    return ct__export_run(&m, title, format, fn, user);
}

CTDEF int ct_write_stdio(void *file, const char *bytes, size_t n) {
    return file && fwrite(bytes, 1, n, (FILE *)file) == n ? 0 : -1;
}
