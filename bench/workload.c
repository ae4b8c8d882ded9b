/* Seeded workload generators; see workload.h. */
#include "workload.h"
#include "harness.h"
#include <math.h>

void wl_direction(double d[3], unsigned long long *seed) {
    double l;
    do {
        d[0] = bench_gauss(seed); d[1] = bench_gauss(seed); d[2] = bench_gauss(seed);
        l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    } while (l < 1e-12);
    d[0] /= l; d[1] /= l; d[2] /= l;
}

void wl_sphere(double *xyz, int n, double radius, unsigned long long *seed) {
    int i;
    for (i = 0; i < n; ++i) {
        wl_direction(xyz + 3 * i, seed);
        xyz[3 * i] *= radius; xyz[3 * i + 1] *= radius; xyz[3 * i + 2] *= radius;
    }
}

void wl_ball(double *xyz, int n, double radius, unsigned long long *seed) {
    int i;
    for (i = 0; i < n; ++i) {
        double r = radius * cbrt(bench_uniform(seed));
        wl_direction(xyz + 3 * i, seed);
        xyz[3 * i] *= r; xyz[3 * i + 1] *= r; xyz[3 * i + 2] *= r;
    }
}

void wl_cube(double *xyz, int n, double half, unsigned long long *seed) {
    int i;
    for (i = 0; i < 3 * n; ++i) xyz[i] = half * (2 * bench_uniform(seed) - 1);
}

void wl_gauss(double *xyz, int n, double sigma, unsigned long long *seed) {
    int i;
    for (i = 0; i < 3 * n; ++i) xyz[i] = sigma * bench_gauss(seed);
}

/* Rotation from a random unit quaternion (uniform on SO(3)). */
void wl_rotation(double r[9], unsigned long long *seed) {
    double q[4], l;
    int i;
    do {
        l = 0;
        for (i = 0; i < 4; ++i) { q[i] = bench_gauss(seed); l += q[i] * q[i]; }
    } while (l < 1e-12);
    l = sqrt(l);
    for (i = 0; i < 4; ++i) q[i] /= l;
    r[0] = 1 - 2 * (q[1] * q[1] + q[2] * q[2]); r[1] = 2 * (q[0] * q[1] - q[2] * q[3]); r[2] = 2 * (q[0] * q[2] + q[1] * q[3]);
    r[3] = 2 * (q[0] * q[1] + q[2] * q[3]); r[4] = 1 - 2 * (q[0] * q[0] + q[2] * q[2]); r[5] = 2 * (q[1] * q[2] - q[0] * q[3]);
    r[6] = 2 * (q[0] * q[2] - q[1] * q[3]); r[7] = 2 * (q[1] * q[2] + q[0] * q[3]); r[8] = 1 - 2 * (q[0] * q[0] + q[1] * q[1]);
}

void wl_dem_boxes(double *lo, double *hi, int n, double factor, unsigned long long *seed) {
    double h = 0.5 * factor * pow((double)n, -1.0 / 3.0);
    int i, k;
    for (i = 0; i < n; ++i)
        for (k = 0; k < 3; ++k) {
            double c = bench_uniform(seed);
            lo[3 * i + k] = c - h;
            hi[3 * i + k] = c + h;
        }
}
