/* Hull workloads shared by the C++ benchmarks (workload.c stays free of contact.h's types). */
#ifndef CT_BENCH_HULLS_H
#define CT_BENCH_HULLS_H
#include "contact.h"
#include "workload.h"
#include <cstdio>
#include <cstdlib>
#include <vector>

// The hull of n random points on the sphere of the given radius (exits on failure).
inline ct_hull bench_sphere_hull(int n, double radius, unsigned long long *seed) {
    std::vector<double> xyz((size_t)3 * n);
    std::vector<ct_vec3> p((size_t)n);
    wl_sphere(&xyz[0], n, radius, seed);
    for (int i = 0; i < n; ++i) { p[i].x = xyz[3 * i]; p[i].y = xyz[3 * i + 1]; p[i].z = xyz[3 * i + 2]; }
    ct_hull h;
    if (ct_hull_build(&p[0], n, NULL, NULL, &h) != CT_OK) { std::fprintf(stderr, "hull build failed\n"); std::exit(1); }
    return h;
}
#endif
