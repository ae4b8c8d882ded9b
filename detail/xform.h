/* contact.h detail: >>xform - public transform constructors (quaternion, axis-angle). */

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
