/* contact.h detail: >>types - public vector helpers and transforms (constructors from a
   quaternion or an axis-angle, applying a transform and its inverse). Thin wrappers over the
   private helpers of math.h, so the library and its users compute the same thing. */

CTDEF ct_vec3 ct_vec3_make(ct_real x, ct_real y, ct_real z) { return ct__v3(x, y, z); }
CTDEF ct_vec3 ct_vec3_add(ct_vec3 a, ct_vec3 b) { return ct__add(a, b); }
CTDEF ct_vec3 ct_vec3_sub(ct_vec3 a, ct_vec3 b) { return ct__sub(a, b); }
CTDEF ct_vec3 ct_vec3_scale(ct_vec3 a, ct_real s) { return ct__scale(a, s); }
CTDEF ct_real ct_vec3_dot(ct_vec3 a, ct_vec3 b) { return ct__dot(a, b); }
CTDEF ct_vec3 ct_vec3_cross(ct_vec3 a, ct_vec3 b) { return ct__cross(a, b); }
CTDEF ct_real ct_vec3_length(ct_vec3 a) {
    ct_real m = ct__maxabs(a);   /* scaled first: no overflow or underflow of the squares */
    return m > 0 && ct__finite(m) ? m * ct__len(ct__unscale(a, m)) : ct__len(a);
}

CTDEF ct_vec3 ct_xform_point(const ct_xform *x, ct_vec3 p) { return ct__xf_point(x, p); }
CTDEF ct_vec3 ct_xform_vector(const ct_xform *x, ct_vec3 v) { return ct__xf_dir(x, v); }
CTDEF ct_vec3 ct_xform_inv_point(const ct_xform *x, ct_vec3 p) { return ct__xf_inv_point(x, p); }
CTDEF ct_vec3 ct_xform_inv_vector(const ct_xform *x, ct_vec3 v) { return ct__xf_inv_dir(x, v); }

CTDEF ct_xform ct_xform_identity(void) { return ct__xf_identity(); }

CTDEF ct_xform ct_xform_from_quat(const ct_real q[4], ct_vec3 p) {
    ct_xform x = ct__xf_identity();
    ct_real n, qx, qy, qz, qw;
    x.p = p;
    if (!q) return x;
    n = ct__sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0) || !ct__finite(n)) return x;
    qx = q[0] / n; qy = q[1] / n; qz = q[2] / n; qw = q[3] / n;
    x.r[0][0] = 1 - 2 * (qy * qy + qz * qz); x.r[0][1] = 2 * (qx * qy - qz * qw); x.r[0][2] = 2 * (qx * qz + qy * qw);
    x.r[1][0] = 2 * (qx * qy + qz * qw); x.r[1][1] = 1 - 2 * (qx * qx + qz * qz); x.r[1][2] = 2 * (qy * qz - qx * qw);
    x.r[2][0] = 2 * (qx * qz - qy * qw); x.r[2][1] = 2 * (qy * qz + qx * qw); x.r[2][2] = 1 - 2 * (qx * qx + qy * qy);
    return x;
}

CTDEF ct_xform ct_xform_from_axis_angle(ct_vec3 axis, ct_real angle, ct_vec3 p) {
    ct_real q[4], s;
    int ok;
    axis = ct__normalize(axis, &ok);
    if (!ok) { ct_xform x = ct__xf_identity(); x.p = p; return x; }
    s = ct__sin(angle / 2);
    q[0] = axis.x * s; q[1] = axis.y * s; q[2] = axis.z * s; q[3] = ct__cos(angle / 2);
    return ct_xform_from_quat(q, p);
}
