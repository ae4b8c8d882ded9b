/* Shared test helpers; see testutil.h. */
#include "testutil.h"
#include "workload.h"
#include "harness.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Each block carries a 16-byte header holding its size so bytes can be counted. */
static void *tu_alloc_fn(size_t size, void *user) {
    tu_alloc *t = (tu_alloc *)user;
    unsigned char *p;
    t->calls++;
    if (t->fail_at > 0 && t->calls == t->fail_at) return NULL;
    p = (unsigned char *)malloc(size + 16);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    t->outstanding++;
    t->bytes += size;
    return p + 16;
}

static void tu_free_fn(void *ptr, void *user) {
    tu_alloc *t = (tu_alloc *)user;
    size_t size;
    unsigned char *p;
    if (!ptr) return;
    p = (unsigned char *)ptr - 16;
    memcpy(&size, p, sizeof size);
    t->outstanding--;
    t->bytes -= size;
    free(p);
}

void tu_alloc_init(tu_alloc *t, long fail_at) {
    memset(t, 0, sizeof *t);
    t->a.alloc = tu_alloc_fn;
    t->a.free = tu_free_fn;
    t->a.user = t;
    t->fail_at = fail_at;
}

double tu_uniform(unsigned long long *s) { return bench_uniform(s); }

ct_vec3 tu_vec(double x, double y, double z) {
    ct_vec3 v;
    v.x = (ct_real)x; v.y = (ct_real)y; v.z = (ct_real)z;
    return v;
}

ct_vec3 tu_random_unit(unsigned long long *s) {
    double d[3];
    wl_direction(d, s);
    return tu_vec(d[0], d[1], d[2]);
}

void tu_printed_rotation(const double r[3][3], ct_xform *x) {
    double q[3][3];
    int i, j, k;
    memcpy(q, r, sizeof q);
    for (i = 0; i < 3; ++i) {
        double nrm = 0;
        for (k = 0; k < i && !TU_FLOAT; ++k) {
            double dp = q[i][0] * q[k][0] + q[i][1] * q[k][1] + q[i][2] * q[k][2];
            for (j = 0; j < 3; ++j) q[i][j] -= dp * q[k][j];
        }
        for (j = 0; j < 3; ++j) nrm += q[i][j] * q[i][j];
        if (TU_FLOAT) nrm = 1;
        for (j = 0; j < 3; ++j) x->r[i][j] = (ct_real)(q[i][j] / sqrt(nrm));
    }
}

ct_xform tu_random_xform(unsigned long long *s, double translation) {
    double r[9];
    ct_xform x;
    int i, j;
    wl_rotation(r, s);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) x.r[i][j] = (ct_real)r[3 * i + j];
    x.p = tu_vec(translation * (2 * bench_uniform(s) - 1), translation * (2 * bench_uniform(s) - 1),
                 translation * (2 * bench_uniform(s) - 1));
    return x;
}

void tu_set_threads(int t) {
#ifdef _OPENMP
    omp_set_num_threads(t);
#else
    (void)t;
#endif
}

double tu_warm_hull_vs_scan(const ct_hull *h, int queries, unsigned long long *s) {
    ct_vec3 origin = tu_vec(0, 0, 0);
    ct_shape sh = ct_shape_hull(h), sp = ct_shape_points(h->verts, h->nverts), pt = ct_shape_points(&origin, 1);
    ct_gjk_cache cache;
    double worst = 0;
    int t;
    memset(&cache, 0, sizeof cache);
    for (t = 0; t < queries; ++t) {
        ct_vec3 u = tu_random_unit(s);
        double r = (double)h->extent * (1.02 + 0.3 * tu_uniform(s));
        ct_xform x = tu_random_xform(s, 0);
        ct_distance d1, d2;
        x.p = tu_vec((double)h->center.x + r * (double)u.x, (double)h->center.y + r * (double)u.y,
                     (double)h->center.z + r * (double)u.z);
        if (ct_gjk(&sh, NULL, &pt, &x, &cache, &d1) != CT_OK || ct_gjk(&sp, NULL, &pt, &x, NULL, &d2) != CT_OK) return 1e300;
        if (fabs((double)d1.distance - (double)d2.distance) / (double)h->extent > worst)
            worst = fabs((double)d1.distance - (double)d2.distance) / (double)h->extent;
    }
    return worst;
}

void tu_near_sphere(ct_vec3 p[15], ct_xform *xb) {
    static const double pa[15][3] = { { -3000, -1000, -2000 }, { -3000, -1000, -2000 }, { -1000, -1000, -3000 },
                                      { 999.969482421875, 999.969482421875, -2000 }, { -3000, -1000, -1000 },
                                      { 994.720458984375, -3000, -4000 }, { -3000, -3000, -3000 },
                                      { -3000, -4000, -999.786376953125 }, { 999.969482421875, 999.969482421875, 999.969482421875 },
                                      { 999.969482421875, 999.969482421875, -3000 }, { -609.405517578125, -4000, -2000 },
                                      { -3000, -3000, -3000 }, { -4000, -999.786376953125, -3000 },
                                      { 999.969482421875, 999.969482421875, 999.969482421875 },
                                      { 999.969482421875, 999.969482421875, 999.969482421875 } };
    static const double xr[3][4] = { { -0.0019226480320777561, -0.0038852100473106277, 0.99999060423957631, 999.969482421875 },
                                     { 0.99999628900655568, 0.0019226480320778672, 0.0019301289236242081, 999.969482421875 },
                                     { -0.0019301289236242081, 0.99999060423957631, 0.0038814990538664773, 999.969482421875 } };
    int i, j;
    for (i = 0; i < 15; ++i) p[i] = tu_vec(pa[i][0], pa[i][1], pa[i][2]);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) xb->r[i][j] = (ct_real)xr[i][j];
    xb->p = tu_vec(xr[0][3], xr[1][3], xr[2][3]);
}
