/* contact.h detail: >>query ray casts - the first point of a shape on a segment.

   In the shape's local frame: spheres (a rounded point) by the closest point of the line to
   the centre and Pythagoras (Box2D's b2RayCastCircle form, free of the cancellation of the
   textbook quadratic), ellipsoids by the same on the unit sphere after scaling by the
   semi-axes (a linear map keeps the fraction), boxes and hulls by clipping the segment against
   the face planes (Cyrus-Beck; the entering plane is the face hit). Everything else (point
   sets, triangles, support functions, rounded boxes/hulls/ellipsoids, flat ellipsoids) by
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
        hit = ct__ray_sphere(o, dir, s->radius, &f);
        if (hit) n = ct__normalize(ct__madd(o, dir, f), NULL);
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
