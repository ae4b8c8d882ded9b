/* contact.h detail: >>query ray casts - the first point of a shape on a segment.

   In the shape's local frame: spheres (a rounded point) by the closest point of the line to
   the centre and Pythagoras (Box2D's b2RayCastCircle form, free of the cancellation of the
   textbook quadratic), ellipsoids by the same on the unit sphere after scaling by the
   semi-axes (a linear map keeps the fraction), boxes and hulls by clipping the segment against
   the face planes (Cyrus-Beck; the entering plane is the face hit), rounded boxes and hulls
   by their faces' prisms, edges' cylinders and vertices' balls (below). Everything else (point
   sets, triangles, support functions, rounded ellipsoids, flat ellipsoids) by
   conservative advancement of a point on the GJK distance (ct__toi_run), exact to its
   tolerance and never past the surface. A segment that starts inside the shape reports no hit
   (Box2D's convention). */

/* Segment against the planes {x : n.x + d = 0} of a convex polyhedron (local frame). Returns
   the entering plane's index, or -1 (no entering plane in [0, 1]: a miss, or the origin is
   inside). */
CT__PRIVATE int ct__ray_clip(const ct_plane *pl, int n, ct_vec3 o, ct_vec3 dir, ct_real *fraction) {
    ct_real lower = 0, upper = 1;
    int i, index = -1;
    for (i = 0; i < n; ++i) {
        ct_real num = -(ct__dot(pl[i].n, o) + pl[i].d), den = ct__dot(pl[i].n, dir);
        if (den == 0) {
            if (num < 0) return -1; /* parallel and outside this face */
        } else if (den < 0 && num < lower * den) {
            lower = num / den; /* entering */
            index = i;
        } else if (den > 0 && num < upper * den) {
            upper = num / den; /* leaving */
        }
        if (upper < lower) return -1;
    }
    *fraction = lower;
    return index;
}

/* Segment o + t dir (t in [0, 1]) against the sphere of radius r centred at the origin. */
CT__PRIVATE int ct__ray_sphere(ct_vec3 o, ct_vec3 dir, ct_real r, ct_real *fraction) {
    ct_real len = ct__len(dir), t, cc, h, f;
    ct_vec3 u, c;
    if (!(len > 0)) return 0;
    u = ct__scale(dir, 1 / len);
    t = -ct__dot(o, u);
    c = ct__madd(o, u, t);
    cc = ct__len2(c);
    if (cc > r * r) return 0;
    h = ct__sqrt(r * r - cc);
    f = t - h;
    if (f < 0 || f > len) return 0; /* inside, behind, or beyond the end */
    *fraction = f / len;
    return 1;
}

CT__PRIVATE void ct__ray_box_planes(ct_vec3 h, ct_plane *pl) {
    int i;
    for (i = 0; i < 6; ++i) {
        ct_real s = (i & 1) ? -1 : 1;
        pl[i].n = ct__v3(i / 2 == 0 ? s : 0, i / 2 == 1 ? s : 0, i / 2 == 2 ? s : 0);
        pl[i].d = -ct__vget(h, i / 2);
    }
}

/* Rounded boxes and hulls exactly: the Minkowski sum of a polytope and a ball of radius r is
   the union of the polytope, one prism per face (the face swept outwards by r), one cylinder
   per edge and one ball per vertex, so the segment enters the sum where it first enters one
   of them - on a prism's outer face (its plane moved out by r, inside the face polygon), on a
   cylinder (between the edge's end planes) or on a ball - and starts inside the sum when its
   origin lies in one of them. The candidate found first wins; a hit near a face's border
   that rounding sends outside its polygon is found, at the same place, on the edge's
   cylinder, so the test needs no tolerance. */
typedef struct ct__rray {
    ct_vec3 o, dir;
    ct_real r, best;
    int inside, face;         /* the origin is inside; the face hit (-1: a cylinder or ball) */
    ct_vec3 n;                /* the outward normal at the best hit */
} ct__rray;

/* The outer face of face f's prism: plane n.x + d = r, point back on the face inside the
   polygon (the polygon test by the caller's in_face on q = hit - r n). */
CT__PRIVATE void ct__rray_face(ct__rray *ry, ct_plane pl, int f, int (*in_face)(const void *, int, ct_vec3),
                               const void *ctx) {
    ct_real s = ct__dot(pl.n, ry->o) + pl.d, den = ct__dot(pl.n, ry->dir), t;
    ct_vec3 q = ct__madd(ry->o, pl.n, -s);
    if (s <= ry->r && s >= 0 && in_face(ctx, f, q)) { ry->inside = 1; return; }
    if (!(den < 0) || s <= ry->r) return;
    t = (ry->r - s) / den;
    if (!(t <= ry->best)) return;
    q = ct__madd(ct__madd(ry->o, ry->dir, t), pl.n, -ry->r);
    if (!in_face(ctx, f, q)) return;
    ry->best = t; ry->face = f; ry->n = pl.n;
}

/* The cylinder of radius r about edge ab, between the planes through a and b normal to it. */
CT__PRIVATE void ct__rray_edge(ct__rray *ry, ct_vec3 a, ct_vec3 b) {
    ct_vec3 e = ct__sub(b, a), m = ct__sub(ry->o, a), mp, dp;
    ct_real ee = ct__len2(e), me, A, B, C, disc, t, u;
    if (!(ee > 0)) return;
    me = ct__dot(m, e);
    mp = ct__madd(m, e, -me / ee);                         /* parts normal to the edge */
    dp = ct__madd(ry->dir, e, -ct__dot(ry->dir, e) / ee);
    C = ct__len2(mp) - ry->r * ry->r;
    if (C <= 0 && me >= 0 && me <= ee) { ry->inside = 1; return; }
    A = ct__len2(dp);
    B = ct__dot(mp, dp);
    if (!(A > 0) || C <= 0 || B >= 0) return;              /* parallel, inside the line's reach, or receding */
    disc = B * B - A * C;
    if (disc < 0) return;
    t = C / (-B + ct__sqrt(disc));                          /* the smaller root, without cancellation */
    if (!(t <= ry->best)) return;
    u = me + t * ct__dot(ry->dir, e);
    if (u < 0 || u > ee) return;
    ry->best = t; ry->face = -1;
    ry->n = ct__normalize(ct__madd(ct__madd(m, ry->dir, t), e, -u / ee), NULL);
}

CT__PRIVATE void ct__rray_vertex(ct__rray *ry, ct_vec3 v) {
    ct_vec3 m = ct__sub(ry->o, v);
    ct_real f;
    if (ct__len2(m) <= ry->r * ry->r) { ry->inside = 1; return; }
    if (ct__ray_sphere(m, ry->dir, ry->r, &f) && f <= ry->best) {
        ry->best = f; ry->face = -1;
        ry->n = ct__normalize(ct__madd(m, ry->dir, f), NULL);
    }
}

/* q inside face f (its polygon, counter-clockwise seen from outside) of a hull */
CT__PRIVATE int ct__rray_in_hull_face(const void *ctx, int f, ct_vec3 q) {
    const ct_hull *h = (const ct_hull *)ctx;
    int k, k0 = h->face_first[f], k1 = h->face_first[f + 1];
    for (k = k0; k < k1; ++k) {
        ct_vec3 a = h->verts[h->face_verts[k]], b = h->verts[h->face_verts[k + 1 < k1 ? k + 1 : k0]];
        if (ct__dot(ct__cross(ct__sub(b, a), ct__sub(q, a)), h->planes[f].n) < 0) return 0;
    }
    return 1;
}
/* q inside face f of a box (planes as ct__ray_box_planes: axis f / 2) */
CT__PRIVATE int ct__rray_in_box_face(const void *ctx, int f, ct_vec3 q) {
    ct_vec3 h = *(const ct_vec3 *)ctx;
    int k;
    for (k = 0; k < 3; ++k)
        if (k != f / 2 && ct__abs(ct__vget(q, k)) > ct__vget(h, k)) return 0;
    return 1;
}

/* A rounded box or hull (radius r > 0), local frame: 1 and the fraction, normal and face
   (-1 on a rounded edge or corner) of the entry, 0 for a miss or an origin inside. */
CT__PRIVATE int ct__ray_rounded_polytope(const ct_shape *s, ct_vec3 o, ct_vec3 dir, ct_real *f, ct_vec3 *n,
                                         int *face) {
    ct__rray ry;
    int i, k;
    ry.o = o; ry.dir = dir; ry.r = s->radius; ry.best = 1; ry.inside = 0; ry.face = -2;
    ry.n = ct__v3(0, 0, 0);
    if (s->type == CT_SHAPE_BOX) {
        ct_vec3 h = s->ct__v[0];
        ct_plane pl[6];
        ct__ray_box_planes(h, pl);
        for (i = 0; i < 6; ++i) ct__rray_face(&ry, pl[i], i, ct__rray_in_box_face, &h);
        for (i = 0; i < 8; ++i) {
            ct_vec3 v = ct__shape_vertex(s, i);
            ct__rray_vertex(&ry, v);
            for (k = 1; k < 8; k <<= 1)   /* the edges to the corners one bit up */
                if (!(i & k)) ct__rray_edge(&ry, v, ct__shape_vertex(s, i | k));
        }
        if (ry.inside || (ct__abs(o.x) <= h.x && ct__abs(o.y) <= h.y && ct__abs(o.z) <= h.z)) return 0;
    } else {
        const ct_hull *h = s->ct__hull;
        int core = 1;
        for (i = 0; i < h->nfaces; ++i) {
            ct__rray_face(&ry, h->planes[i], i, ct__rray_in_hull_face, h);
            core &= ct__dot(h->planes[i].n, o) + h->planes[i].d <= 0;
            for (k = h->face_first[i]; k < h->face_first[i + 1]; ++k) {   /* each edge once */
                int u = h->face_verts[k], v = h->face_verts[k + 1 < h->face_first[i + 1] ? k + 1 : h->face_first[i]];
                if (u < v) ct__rray_edge(&ry, h->verts[u], h->verts[v]);
            }
        }
        for (i = 0; i < h->nverts; ++i) ct__rray_vertex(&ry, h->verts[i]);
        if (ry.inside || core) return 0;
    }
    if (ry.face == -2) return 0;
    *f = ry.best; *n = ry.n; *face = ry.face;
    return 1;
}

CTDEF ct_status ct_ray_cast(const ct_shape *s, const ct_xform *x, ct_vec3 origin, ct_vec3 translation,
                            ct_ray_hit *out) {
    ct_vec3 o, dir, n = ct__v3(0, 0, 0);
    ct_real f = 0;
    int face = -1, hit = 0;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->face = -1;
    if (!ct__shape_valid(s) || !ct__xf_valid(x) || !ct__finite3(origin) || !ct__finite3(translation))
        return CT_INVALID;
    if (ct__maxabs(translation) == 0) return CT_OK; /* an empty segment hits nothing */
    o = ct__xf_inv_point(x, origin);
    dir = ct__xf_inv_dir(x, translation);
    if (s->type == CT_SHAPE_SPHERE) {
        int ok = 1;
        hit = ct__ray_sphere(o, dir, s->radius, &f);
        if (hit) n = ct__normalize(ct__madd(o, dir, f), &ok);
        if (hit && !ok) n = ct__normalize(ct__neg(dir), NULL); /* a point (radius 0) faces the ray */
    } else if (s->type == CT_SHAPE_ELLIPSOID && s->radius == 0 && s->ct__v[0].x > 0 && s->ct__v[0].y > 0 &&
               s->ct__v[0].z > 0) {
        ct_vec3 a = s->ct__v[0], ia = ct__v3(1 / a.x, 1 / a.y, 1 / a.z);
        hit = ct__ray_sphere(ct__mul(o, ia), ct__mul(dir, ia), 1, &f);
        if (hit) n = ct__normalize(ct__mul(ct__mul(ct__madd(o, dir, f), ia), ia), NULL); /* gradient A^-2 p */
    } else if ((s->type == CT_SHAPE_BOX || s->type == CT_SHAPE_HULL) && s->radius == 0 &&
               (s->type == CT_SHAPE_BOX || (s->ct__hull->planes && s->ct__hull->nfaces > 0))) {
        ct_plane box[6];
        const ct_plane *pl = box;
        int np = 6;
        if (s->type == CT_SHAPE_BOX) ct__ray_box_planes(s->ct__v[0], box);
        else { pl = s->ct__hull->planes; np = s->ct__hull->nfaces; }
        face = ct__ray_clip(pl, np, o, dir, &f);
        hit = face >= 0;
        if (hit) n = pl[face].n;
    } else if ((s->type == CT_SHAPE_BOX || s->type == CT_SHAPE_HULL) && s->radius > 0 &&
               (s->type == CT_SHAPE_BOX || (s->ct__hull->planes && s->ct__hull->nfaces > 0))) {
        hit = ct__ray_rounded_polytope(s, o, dir, &f, &n, &face);
    } else { /* conservative advancement of the ray's origin (a point) onto the shape */
        ct_shape pt = ct_shape_sphere(0);
        ct_xform p0 = ct__xf_identity(), p1 = ct__xf_identity();
        ct_toi t;
        ct_status st;
        memset(&t, 0, sizeof t);
        t.fraction = 1;
        p0.p = o;
        p1.p = ct__add(o, dir);
        st = ct__toi_run(s, NULL, NULL, &pt, &p0, &p1, 0, 1, NULL, &t);
        out->iterations = t.iterations;
        if (st == CT_INVALID) { memset(out, 0, sizeof *out); out->face = -1; return st; }
        if (st != CT_OK || !t.hit) return st;
        hit = 1;
        f = t.fraction;
        n = t.normal;
    }
    if (!hit) return CT_OK;
    out->hit = 1;
    out->fraction = f;
    out->point = ct__madd(origin, translation, f);
    out->normal = ct__xf_dir(x, n);
    out->face = face;
    if (!ct__finite(f) || !ct__finite3(out->point) || !ct__finite3(out->normal)) { /* beyond ct_real's range */
        memset(out, 0, sizeof *out);
        out->face = -1;
        return CT_INVALID;
    }
    return CT_OK;
}
