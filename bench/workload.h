/* Seeded workload generators shared by every benchmark (and usable by tests).
   Coordinates are written as double triples xyz[3*i+0..2]; callers convert to ct_vec3. */
#ifndef CT_BENCH_WORKLOAD_H
#define CT_BENCH_WORKLOAD_H
#ifdef __cplusplus
extern "C" {
#endif

void wl_sphere(double *xyz, int n, double radius, unsigned long long *seed);   /* on the sphere */
void wl_ball(double *xyz, int n, double radius, unsigned long long *seed);     /* in the ball */
void wl_cube(double *xyz, int n, double half, unsigned long long *seed);       /* in [-half, half]^3 */
void wl_gauss(double *xyz, int n, double sigma, unsigned long long *seed);
/* A random unit vector and a random rotation matrix (row-major 3x3). */
void wl_direction(double d[3], unsigned long long *seed);
void wl_rotation(double r[9], unsigned long long *seed);
/* DEM-like scene: n boxes in the unit cube, centres uniform, edge = factor * mean spacing
   (mean spacing = n^(-1/3)); lo/hi as xyz triples. factor 1.5 gives about 13 pairs per box. */
void wl_dem_boxes(double *lo, double *hi, int n, double factor, unsigned long long *seed);

#ifdef __cplusplus
}
#endif
#endif
