/* The implementation unit of the benchmark binaries (always compiled as C). */
#define CONTACT_IMPLEMENTATION
#include "contact.h"

/* The scratch benchmark drives the private arena directly: one "call" = begin, a few
   temporaries, end, exactly what an entry point does. */
void bench_scratch_calls(ct_scratch *s, const size_t *sizes, int n, long calls, volatile unsigned *sink);
void bench_scratch_calls(ct_scratch *s, const size_t *sizes, int n, long calls, volatile unsigned *sink) {
    long i;
    int k;
    for (i = 0; i < calls; ++i) {
        ct_scratch local, *sc = ct__scratch_begin(s, &local, NULL);
        ct__mark m = ct__scratch_mark(sc);
        for (k = 0; k < n; ++k) {
            unsigned char *p = (unsigned char *)ct__scratch_alloc(sc, sizes[k]);
            if (p) { p[0] = (unsigned char)k; *sink += p[0]; }
        }
        ct__scratch_end(sc, &local, m);
    }
}
