/* contact.h detail: >>broadphase - every overlapping pair of closed boxes, and the parallel
   pair loop.

   Algorithm (chosen by measurement, see bench/bench_broadphase.cpp): a 2-D grid of columns
   with a 1-D sweep inside each column ("sort and sweep in cells").
     - The sweep axis is the axis along which the box centres spread most; the columns tile
       the other two axes. Each box lives in the one column that holds its lower corner, and
       each column is sorted by the lower coordinate along the sweep axis.
     - A box finds its partners in the columns that can hold the lower corner of a box
       overlapping it (its own extent plus the largest member extent, on each column axis),
       and inside each such column in the window of lower sweep coordinates
       [lo - largest extent, hi]. The exact closed-box test (<=) decides; the windows are
       only widened (by a few ulps of the scene's magnitude) so that rounding can never drop
       a pair. Cost: n log n for the sort plus about 2.3 candidates per reported pair
       (both directions: each box keeps the partners with a larger index) on uniform scenes,
       independent of the distribution along the sweep axis - unlike a single global sweep,
       whose cost grows like n^(5/3) in 3-D. Measured against cells of 0.5x-1.4x the largest
       extent: 1x is best (finer cells mean more windows per box, which cost more than the
       candidates they save).
     - Cells are as large as the largest member box; the grid covers the central 99.8% of the
       lower corners (sample quantiles; outliers go to the edge columns) and its cells are
       hashed into about 2n buckets (row-major, so the identity, when the grid is small
       enough): far-apart clusters keep fine cells, and empty space costs nothing.
     - Boxes much larger than the rest would make the cells coarse, so the boxes whose extent
       exceeds the 95th percentile on some axis ("big") are kept out of the grid: each big box
       queries the grid of the small ones, and the big boxes are paired among themselves by
       the same algorithm recursively (at most a quarter of the boxes go down a level, so the
       depth is logarithmic). Small sets use the O(n^2) loop.
   Output: each box of the grid writes the sorted list of its partners with a larger index
   into a per-thread buffer (chunks of a fixed size, independent of the thread count,
   scheduled dynamically); the lists are then gathered in index order and merged with the
   big-box pairs. So the result is sorted by (a, b) and identical for any number of threads.
   Every allocation happens on the calling thread (per-thread buffers that overflow are
   grown between passes and the overflowing chunks redone), so a non-thread-safe allocator
   is fine.

   References: the sort-and-sweep and grid ("spatial subdivision") broad phases are described
   in Ericson, Real-Time Collision Detection (2005), sections 7.1 and 7.5; the column-sweep
   combination follows Tracy, Buss and Woods, "Efficient large-scale sweep and prune methods
   with AABB insertion and removal" (IEEE VR 2009), who split the sweep into grid cells. */

#if defined(_OPENMP) && !defined(CT_NO_OPENMP)
#include <omp.h>
#define CT__BP_OMP 1
#else
#define CT__BP_OMP 0
#endif
#if defined(__SSE2__) && !defined(CT_NO_SIMD)
#include <emmintrin.h>
#endif

/* A box with its axes permuted so that [0] is the sweep axis; id is the caller's index,
   rank the position in the (ascending-id) set being processed. */
typedef struct ct__bpbox { ct_real lo[3], hi[3]; int id, rank; } ct__bpbox;

typedef struct ct__bpgrid {
    const ct__bpbox *box;   /* members sorted by (column bucket, lo[0], rank) */
    const int *col_start;   /* nb + 1 offsets into box */
    int n, n1, n2;          /* members; cells per column axis */
    int nb;                 /* buckets (a power of two) */
    int wrap;               /* more cells than buckets: rows are scattered by a hash */
    ct_real min1, min2, inv1, inv2;
    ct_real cq[3];          /* largest member extent per axis, widened by a few ulps */
} ct__bpgrid;

/* The bucket of cell (a, b). When the grid has at most nb cells this is the row-major index
   (neighbouring columns stay close in memory); otherwise each row starts at a hashed bucket
   (Knuth's multiplicative constant) and runs on contiguously, and far-apart cells may share
   a bucket, which only adds candidates that the exact test rejects. */
CT__INLINE int ct__bp_bucket(const ct__bpgrid *g, int a, int b) {
    unsigned long long mask = (unsigned long long)(g->nb - 1);
    if (!g->wrap) return a * g->n2 + b;
    return (int)(((unsigned long long)(unsigned)a * 2654435761ULL + (unsigned long long)(unsigned)b) & mask);
}

/* Window pointers of the current home bucket into the buckets around it, by cell offset
   (-2..2 on each axis) from the probing box's cell; each remembers its bucket, since a home
   bucket may hold several cells. */
typedef struct ct__bpcache { int key[25], ptr[25]; } ct__bpcache;

#define CT__BP_BRUTE 32        /* sets up to this size use the O(n^2) loop */
#define CT__BP_CHUNK 512       /* boxes per scheduled chunk (fixed: output never depends on it) */
#ifndef CT__BP_CELL
#define CT__BP_CELL 1.0
#endif
#define CT__BP_QUANTILE 0.95   /* boxes above this extent quantile on some axis are "big"... */
#define CT__BP_BIGSLACK 1.25   /* ...by this factor: extents within it only coarsen the cells a little, while
                                  boxes a few ulps above the quantile (rounded sizes) must not form a level */
#define CT__BP_SAMPLE 65536    /* quantiles and the sweep axis come from this many evenly spaced boxes */
#define CT__BP_MAXCELLS 1048576 /* cells per column axis at most */
#define CT__BP_WIDEN (4 * CT__EPS) /* cell extents widened by these ulps: rounding never drops a pair */
#define CT__BP_AHEAD 16         /* the assembly prefetches the partner list this many ranks ahead: the lists
                                   were written in grid order, so reading them by rank misses the cache */
#if defined(__GNUC__) || defined(__clang__)
#define CT__BP_PREFETCH(p) __builtin_prefetch(p)
#define CT__BP_RARE(c) __builtin_expect((c), 0)   /* one branch, predicted not taken */
#else
#define CT__BP_PREFETCH(p) ((void)0)
#define CT__BP_RARE(c) (c)
#endif

CT__INLINE int ct__bp_threads(void) {
#if CT__BP_OMP
    return omp_in_parallel() ? 1 : omp_get_max_threads();
#else
    return 1;
#endif
}
CT__INLINE int ct__bp_thread_num(void) {
#if CT__BP_OMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

CT__INLINE int ct__bp_overlap(const ct__bpbox *a, const ct__bpbox *b) {
    return a->lo[0] <= b->hi[0] && b->lo[0] <= a->hi[0] && a->lo[1] <= b->hi[1] &&
           b->lo[1] <= a->hi[1] && a->lo[2] <= b->hi[2] && b->lo[2] <= a->hi[2];
}

/* Column index of a coordinate; monotone in v, robust to huge/infinite intermediate values. */
CT__INLINE int ct__bp_cell(ct_real v, ct_real mn, ct_real inv, int nc) {
    ct_real t = (v - mn) * inv;
    int c;
    if (!(t > 0)) return 0;
    if (t >= (ct_real)nc) return nc - 1;
    c = (int)t;
    return c < nc ? c : nc - 1;
}

/* ---- small sorts (deterministic; keys are distinct because the tie-break is unique) ---- */
CT__INLINE int ct__bp_int_less(const int *a, const int *b) { return *a < *b; }
/* A column member while the columns are sorted: lower sweep coordinate, rank, source index. */
typedef struct ct__bpkey { ct_real x; int rank, src; } ct__bpkey;
CT__INLINE int ct__bp_key_less(const ct__bpkey *a, const ct__bpkey *b) {
    return a->x < b->x || (a->x == b->x && a->rank < b->rank);
}
CT__DEFINE_SORT(ct__bp_sort_keys, ct__bpkey, ct__bp_key_less)
CT__DEFINE_SORT(ct__bp_qsort_ints, int, ct__bp_int_less)
CT__INLINE int ct__bp_hit_less(const ct_hit *a, const ct_hit *b) { return a->t < b->t || (a->t == b->t && a->id < b->id); }
CT__DEFINE_SORT(ct__bp_sort_hits, ct_hit, ct__bp_hit_less)
/* Partner lists are short (about 13 on DEM scenes) and, unless the grid wraps, free of
   repeats: placing each id at its rank (the number of smaller ids) is branch-free, and with the
   list padded to a fixed width W (pads rank last and are never placed) the count loop has a
   constant trip count that compilers vectorise at -O2; it beats insertion sort's mispredicted
   branches. */
#define CT__BP_DEFINE_RANKSORT(name, W)                                                        \
    CT__INLINE void name(int *v, size_t n) {                                                   \
        int w[W], tmp[W];                                                                       \
        size_t i, k;                                                                           \
        for (i = 0; i < W; ++i) w[i] = i < n ? v[i] : 0x7fffffff;                              \
        for (i = 0; i < n; ++i) {                                                              \
            int x = w[i], r = 0;                                                               \
            for (k = 0; k < W; ++k) r += w[k] < x;                                             \
            tmp[r] = x;                                                                        \
        }                                                                                      \
        memcpy(v, tmp, n * sizeof *v);                                                         \
    }
CT__BP_DEFINE_RANKSORT(ct__bp_rank16, 16)
CT__BP_DEFINE_RANKSORT(ct__bp_rank32, 32)
#undef CT__BP_DEFINE_RANKSORT
#if defined(__SSE2__) && !defined(CT_NO_SIMD)
/* The same rank placement on SSE2 (lists of at most 32): the ranks of sixteen ids at a time
   are four registers; each id of the list, broadcast, adds one to the rank of every id above
   it (pads rank last and are never placed). Then each id goes to its rank. */
CT__INLINE void ct__bp_rank_sse2(int *v, size_t n) {
    int w[32], rk[32], tmp[32];
    size_t i, h;
    const __m128i pad = _mm_set1_epi32(0x7fffffff);
    for (i = 0; i < 32; i += 4) _mm_storeu_si128((__m128i *)(void *)(w + i), pad);
    for (i = 0; i < n; ++i) w[i] = v[i];
    for (h = 0; h < n; h += 16) {
        __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)(w + h)),
                c1 = _mm_loadu_si128((const __m128i *)(const void *)(w + h + 4)),
                c2 = _mm_loadu_si128((const __m128i *)(const void *)(w + h + 8)),
                c3 = _mm_loadu_si128((const __m128i *)(const void *)(w + h + 12));
        __m128i r0 = _mm_setzero_si128(), r1 = r0, r2 = r0, r3 = r0;
        for (i = 0; i < n; ++i) {
            __m128i x = _mm_set1_epi32(w[i]);
            r0 = _mm_sub_epi32(r0, _mm_cmpgt_epi32(c0, x));
            r1 = _mm_sub_epi32(r1, _mm_cmpgt_epi32(c1, x));
            r2 = _mm_sub_epi32(r2, _mm_cmpgt_epi32(c2, x));
            r3 = _mm_sub_epi32(r3, _mm_cmpgt_epi32(c3, x));
        }
        _mm_storeu_si128((__m128i *)(void *)(rk + h), r0);
        _mm_storeu_si128((__m128i *)(void *)(rk + h + 4), r1);
        _mm_storeu_si128((__m128i *)(void *)(rk + h + 8), r2);
        _mm_storeu_si128((__m128i *)(void *)(rk + h + 12), r3);
    }
    for (i = 0; i < n; ++i) tmp[rk[i]] = w[i];
    memcpy(v, tmp, n * sizeof *v);
}
#endif
CT__PRIVATE void ct__bp_sort_ints(int *v, size_t n) {
    if (n <= 1) return;
#if defined(__SSE2__) && !defined(CT_NO_SIMD)
    if (n <= 32) { ct__bp_rank_sse2(v, n); return; }
#endif
    if (n <= 16) ct__bp_rank16(v, n);
    else if (n <= 32) ct__bp_rank32(v, n);
    else ct__bp_qsort_ints(v, n);
}

/* The k-th smallest of v[0..n) (v is permuted). */
CT__PRIVATE ct_real ct__bp_select(ct_real *v, int n, int k) {
    int lo = 0, hi = n - 1;
    while (hi > lo) {
        int i = lo, j = hi, m = lo + (hi - lo) / 2;
        ct_real p = v[m], t;
        for (;;) {
            while (v[i] < p) ++i;
            while (p < v[j]) --j;
            if (i >= j) break;
            t = v[i]; v[i] = v[j]; v[j] = t;
            ++i; --j;
        }
        if (k <= j) hi = j; else lo = j + 1;
    }
    return v[k];
}
/* LSD radix sort of 64-bit keys (8-bit digits; digits that are equal everywhere skipped). */
CT__PRIVATE void ct__bp_radix64(unsigned long long *v, unsigned long long *tmp, size_t n) {
    int pass;
    for (pass = 0; pass < 8; ++pass) {
        size_t cnt[256], i, sum = 0;
        int shift = 8 * pass, d;
        memset(cnt, 0, sizeof cnt);
        for (i = 0; i < n; ++i) cnt[(v[i] >> shift) & 255]++;
        if (n == 0 || cnt[(v[0] >> shift) & 255] == n) continue;
        for (d = 0; d < 256; ++d) { size_t c = cnt[d]; cnt[d] = sum; sum += c; }
        for (i = 0; i < n; ++i) tmp[cnt[(v[i] >> shift) & 255]++] = v[i];
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* ---- the grid ------------------------------------------------------------------------- */
CT__INLINE int ct__bp_isbig(const ct__bpbox *b, const ct_real t[3]) {
    return (b->hi[0] - b->lo[0] > t[0]) | (b->hi[1] - b->lo[1] > t[1]) | (b->hi[2] - b->lo[2] > t[2]);
}

/* Builds the grid over the m >= 1 boxes of in[0..n) that are not big for thresholds t. mag is
   the largest |coordinate| of the scene. */
CT__PRIVATE ct_status ct__bp_grid_build(ct_scratch *s, const ct__bpbox *in, int n, int m, const ct_real t[3],
                                        ct_real mag, int nthreads, ct__bpgrid *g) {
    ct_real ext[3], e0 = 0, e1 = 0, e2 = 0, mn1 = CT__MAXR, mx1 = -CT__MAXR, mn2 = CT__MAXR, mx2 = -CT__MAXR;
    ct_real span1, span2, widen = CT__BP_WIDEN;
    double d1, d2, cap = (double)m;
    int i, k, sl, nsl, ncol, *start, *fill, *cell = CT__SALLOC(s, int, n);
    ct__bpbox *box;
    ct__bpkey *key;
    if (!cell) return CT_NO_MEMORY;
    /* min and max are exact, so the parallel reductions are deterministic */
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(nthreads) if (nthreads > 1 && n > 65536) \
    reduction(max : e0, e1, e2, mx1, mx2) reduction(min : mn1, mn2)
#endif
    for (i = 0; i < n; ++i) {
        if (ct__bp_isbig(&in[i], t)) continue;
        e0 = ct__max(e0, in[i].hi[0] - in[i].lo[0]);
        e1 = ct__max(e1, in[i].hi[1] - in[i].lo[1]);
        e2 = ct__max(e2, in[i].hi[2] - in[i].lo[2]);
        mn1 = ct__min(mn1, in[i].lo[1]); mx1 = ct__max(mx1, in[i].lo[1]);
        mn2 = ct__min(mn2, in[i].lo[2]); mx2 = ct__max(mx2, in[i].lo[2]);
    }
    ext[0] = e0; ext[1] = e1; ext[2] = e2;
    {
        /* The columns tile the central 99.8% of the lower corners (quantiles of an evenly
           spaced sample): a few far-away boxes must not stretch the cells over empty space.
           Boxes outside fall into the edge columns; the cell map is monotone and clamped for
           insertion and queries alike, so nothing is lost. */
        int ns = ct__imin(n, CT__BP_SAMPLE), c = 0, q;
        ct_real *y = CT__SALLOC(s, ct_real, ns), *z = CT__SALLOC(s, ct_real, ns);
        if (!y || !z) return CT_NO_MEMORY;
        for (i = 0; i < ns; ++i) {
            const ct__bpbox *b = &in[(long long)i * n / ns];
            if (ct__bp_isbig(b, t)) continue;
            y[c] = b->lo[1];
            z[c++] = b->lo[2];
        }
        if (c >= 1000) {   /* the quantiles by selection: the values a sort gives, in O(c) */
            ct_real y0, y1, z0, z1;
            q = c / 1000;
            y0 = ct__bp_select(y, c, q);
            y1 = ct__bp_select(y, c, c - 1 - q);
            z0 = ct__bp_select(z, c, q);
            z1 = ct__bp_select(z, c, c - 1 - q);
            if (y1 > y0) { mn1 = y0; mx1 = y1; }
            if (z1 > z0) { mn2 = z0; mx2 = z1; }
        }
    }
    /* The window lo - cq must stay below the lower corner of every overlapping box despite
       rounding: cq(1 - eps) >= ext(1 + eps) + eps |lo| suffices (eps = half an ulp). */
    for (k = 0; k < 3; ++k) g->cq[k] = ext[k] * (1 + widen) + widen * mag;
    span1 = mx1 - mn1;
    span2 = mx2 - mn2;
    /* Cells about as large as the largest member (so a box meets 2-3 columns per axis), at
       most CT__BP_MAXCELLS per axis, hashed into nb buckets: nb >= 2m, or the number of
       cells when that is smaller. Empty space costs nothing, so far-apart clusters keep
       fine cells. */
    d1 = ext[1] > 0 ? (double)span1 / ((double)ext[1] * CT__BP_CELL) : CT__BP_MAXCELLS;
    d2 = ext[2] > 0 ? (double)span2 / ((double)ext[2] * CT__BP_CELL) : CT__BP_MAXCELLS;
    d1 = d1 < 1 ? 1 : (d1 > CT__BP_MAXCELLS ? CT__BP_MAXCELLS : d1);
    d2 = d2 < 1 ? 1 : (d2 > CT__BP_MAXCELLS ? CT__BP_MAXCELLS : d2);
    if (!(span1 > 0)) d1 = 1;
    if (!(span2 > 0)) d2 = 1;
    g->n1 = (int)d1;
    g->n2 = (int)d2;
    g->min1 = mn1;
    g->min2 = mn2;
    g->inv1 = span1 > 0 ? (ct_real)g->n1 / span1 : 0;
    g->inv2 = span2 > 0 ? (ct_real)g->n2 / span2 : 0;
    if (!ct__finite(g->inv1)) { g->n1 = 1; g->inv1 = 0; }
    if (!ct__finite(g->inv2)) { g->n2 = 1; g->inv2 = 0; }
    for (g->nb = 1; g->nb < (1 << 30) && (double)g->nb < 2 * cap && (double)g->nb < (double)g->n1 * g->n2;) g->nb <<= 1;
    g->wrap = (double)g->nb < (double)g->n1 * g->n2;
    ncol = g->nb;
    start = CT__SALLOC(s, int, (long long)ncol + 1);
    /* the count and the scatter run on nsl fixed slices of the boxes, each with its own
       column counts, when those are few enough (threads x ncol <= 4n); any slicing gives the
       same grid, since each column is sorted afterwards by a unique key */
    nsl = nthreads > 1 && n > 65536 && (double)ncol * nthreads <= 4.0 * n ? nthreads : 1;
    box = CT__SALLOC(s, ct__bpbox, m);
    key = CT__SALLOC(s, ct__bpkey, m);
    fill = CT__SALLOC(s, int, (long long)nsl * ncol);
    if (!start || !fill || !box || !key) return CT_NO_MEMORY;
    /* counting sort by column (cells computed in parallel), then each column by lower sweep
       coordinate */
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(nthreads) if (nthreads > 1 && n > 65536)
#endif
    for (i = 0; i < n; ++i)
        cell[i] = ct__bp_isbig(&in[i], t) ? -1
                  : ct__bp_bucket(g, ct__bp_cell(in[i].lo[1], mn1, g->inv1, g->n1), ct__bp_cell(in[i].lo[2], mn2, g->inv2, g->n2));
#if CT__BP_OMP
#pragma omp parallel for schedule(static, 1) num_threads(nsl) if (nsl > 1)
#endif
    for (sl = 0; sl < nsl; ++sl) {
        int *h = fill + (size_t)sl * (size_t)ncol, e = (int)((long long)n * (sl + 1) / nsl), j;
        memset(h, 0, (size_t)ncol * sizeof *h);
        for (j = (int)((long long)n * sl / nsl); j < e; ++j)
            if (cell[j] >= 0) h[cell[j]]++;
    }
    start[0] = 0;
    for (k = 0; k < ncol; ++k) {
        int sum = start[k];
        for (sl = 0; sl < nsl; ++sl) {
            int c = fill[(size_t)sl * (size_t)ncol + (size_t)k];
            fill[(size_t)sl * (size_t)ncol + (size_t)k] = sum;
            sum += c;
        }
        start[k + 1] = sum;
    }
    /* the columns are sorted as keys (lower sweep coordinate, rank, source): 16 bytes moved
       instead of a box; the boxes are then gathered in that order, in parallel */
#if CT__BP_OMP
#pragma omp parallel for schedule(static, 1) num_threads(nsl) if (nsl > 1)
#endif
    for (sl = 0; sl < nsl; ++sl) {
        int *h = fill + (size_t)sl * (size_t)ncol, e = (int)((long long)n * (sl + 1) / nsl), j;
        for (j = (int)((long long)n * sl / nsl); j < e; ++j)
            if (cell[j] >= 0) {
                ct__bpkey *q = &key[h[cell[j]]++];
                q->x = in[j].lo[0];
                q->rank = in[j].rank;
                q->src = j;
            }
    }
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 64) num_threads(nthreads) if (nthreads > 1 && n > 4096)
#endif
    for (k = 0; k < ncol; ++k) ct__bp_sort_keys(key + start[k], (size_t)(start[k + 1] - start[k]));
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(nthreads) if (nthreads > 1 && m > 65536)
#endif
    for (i = 0; i < m; ++i) box[i] = in[key[i].src];
    (void)nthreads;
    g->box = box;
    g->col_start = start;
    g->n = m;
    return CT_OK;
}

/* First index in [s, e) of the column whose lower sweep coordinate is >= x. */
CT__INLINE int ct__bp_lower(const ct__bpbox *box, int s, int e, ct_real x) {
    while (s < e) {
        int m = s + (e - s) / 2;
        if (box[m].lo[0] < x) s = m + 1; else e = m;
    }
    return s;
}

/* ---- chunked parallel passes with per-thread buffers ------------------------------------ */
/* One pass produces, for each item (a grid position in self mode, a query otherwise), the
   sorted list of partner ids, recorded under the item's slot (its rank in self mode, the query
   index otherwise) so that the gather reads the records in order: cnt[slot] ids at
   buf[tid[slot]] + start[slot]. Slots without an item keep cnt 0. */
typedef struct ct__bpjob {
    const ct__bpgrid *g;
    const ct__bpbox *query;   /* NULL: self mode (partners with a larger rank) */
    int nitems, nslots, nthreads;
    int **buf;                /* per thread */
    size_t *cap, *used;
    int *full;
    int *chunk_buf;           /* per chunk: the thread buffer holding it, -1 when pending */
    size_t *start;            /* per slot */
    int *cnt, *tid;
} ct__bpjob;

/* Partners of q in the grid, appended to buf (a partner may appear twice when two cells of
   the query share a bucket: the caller sorts and drops repeats); self mode keeps ranks above
   q's. cache: monotone window pointers of the current home column, or NULL.
   Returns 0 when the buffer is full. */
CT__PRIVATE int ct__bp_probe(const ct__bpgrid *g, const ct__bpbox *q, int self, ct__bpcache *cache,
                             int *buf, size_t cap, size_t *used) {
    const ct__bpbox *box = g->box;
    int alo = ct__bp_cell(q->lo[1] - g->cq[1], g->min1, g->inv1, g->n1);
    int ahi = ct__bp_cell(q->hi[1], g->min1, g->inv1, g->n1);
    int blo = ct__bp_cell(q->lo[2] - g->cq[2], g->min2, g->inv2, g->n2);
    int bhi = ct__bp_cell(q->hi[2], g->min2, g->inv2, g->n2);
    ct_real x0 = q->lo[0] - g->cq[0], x1 = q->hi[0];
    ct_real qlo0 = q->lo[0], qlo1 = q->lo[1], qhi1 = q->hi[1], qlo2 = q->lo[2], qhi2 = q->hi[2];
    int qrank = self ? q->rank : -1;   /* ranks are >= 0: no filter for queries */
    /* a query covering more cells than there are buckets visits every bucket once instead */
    int all = (double)(ahi - alo + 1) * (double)(bhi - blo + 1) > (double)g->nb;
    size_t u = *used;
    int a, b, a0 = 0, b0 = 0;
    if (cache) {
        a0 = ct__bp_cell(q->lo[1], g->min1, g->inv1, g->n1);
        b0 = ct__bp_cell(q->lo[2], g->min2, g->inv2, g->n2);
    }
    if (all) { alo = ahi = 0; blo = 0; bhi = g->nb - 1; a0 = -100; }
    for (a = alo; a <= ahi; ++a)
        for (b = blo; b <= bhi; ++b) {
            int col = all ? b : ct__bp_bucket(g, a, b), s = g->col_start[col], e = g->col_start[col + 1], p;
            if (s == e) continue;
            if (cache && a - a0 >= -2 && a - a0 <= 2 && b - b0 >= -2 && b - b0 <= 2) {
                int slot = (a - a0 + 2) * 5 + (b - b0 + 2);
                if (cache->key[slot] != col) { cache->key[slot] = col; p = ct__bp_lower(box, s, e, x0); }
                else for (p = cache->ptr[slot]; p < e && box[p].lo[0] < x0; ++p) {}
                cache->ptr[slot] = p;
            } else {
                p = ct__bp_lower(box, s, e, x0);
            }
            /* branch-free test and append (half the candidates fail the rank test, the rest
               the overlap test: both unpredictable); room for the whole column is checked once */
            if (cap - u < (size_t)(e - p)) { *used = u; return 0; }
            for (; p < e; ++p) {
                const ct__bpbox *o = &box[p];
                int ok;
                if (o->lo[0] > x1) break;
                ok = (o->rank > qrank) & (o->hi[0] >= qlo0) & (o->lo[1] <= qhi1) & (o->hi[1] >= qlo1) &
                     (o->lo[2] <= qhi2) & (o->hi[2] >= qlo2);
                buf[u] = o->id;
                u += (size_t)ok;
            }
        }
    *used = u;
    return 1;
}

/* Sorts a partner list and drops repeats (possible only when the grid wraps); returns its
   new length. */
CT__INLINE size_t ct__bp_sort_unique(const ct__bpgrid *g, int *v, size_t n) {
    size_t i, w = n ? 1 : 0;
    if (!g->wrap) { ct__bp_sort_ints(v, n); return n; }
    ct__bp_qsort_ints(v, n);
    for (i = 1; i < n; ++i)
        if (v[i] != v[w - 1]) v[w++] = v[i];
    return w;
}

/* The fill level is kept in a local (*used below) and stored once per chunk: the per-thread
   counters share a cache line. */
CT__PRIVATE int ct__bp_chunk(const ct__bpjob *j, int k, int t) {
    const ct__bpgrid *g = j->g;
    int p0 = k * CT__BP_CHUNK, p1 = ct__imin(j->nitems, p0 + CT__BP_CHUNK), p, col = -1, lo = 0, hi = g->nb - 1;
    int *buf = j->buf[t];
    size_t cap = j->cap[t], fill = j->used[t];
    ct__bpcache cache;
    if (!j->query) {   /* the bucket holding p0: the last one starting at or before it */
        while (lo < hi) {
            int m = lo + (hi - lo + 1) / 2;
            if (g->col_start[m] <= p0) lo = m; else hi = m - 1;
        }
    }
    for (p = p0; p < p1; ++p) {
        size_t s0 = fill;
        const ct__bpbox *q = j->query ? &j->query[p] : &g->box[p];
        int slot = j->query ? p : q->rank;
        if (!j->query && (col < 0 || p >= g->col_start[col + 1])) {   /* a new home bucket */
            for (col = col < 0 ? lo : col + 1; g->col_start[col + 1] <= p; ++col) {}
            for (lo = 0; lo < 25; ++lo) cache.key[lo] = -1;
        }
        if (!ct__bp_probe(g, q, !j->query, j->query ? NULL : &cache, buf, cap, &fill)) return 0;
        fill = s0 + ct__bp_sort_unique(g, buf + s0, fill - s0);
        j->start[slot] = s0;
        j->cnt[slot] = (int)(fill - s0);
        j->tid[slot] = t;
    }
    j->used[t] = fill;
    return 1;
}

/* Runs every chunk; buffers that overflow are grown on this thread and their chunks redone. */
CT__PRIVATE ct_status ct__bp_run(ct_scratch *s, ct__bpjob *j, size_t estimate) {
    int T = j->nthreads, nch = (j->nitems + CT__BP_CHUNK - 1) / CT__BP_CHUNK, t, k, npend;
    int *pend;
    j->buf = CT__SALLOC(s, int *, T);
    j->cap = CT__SALLOC(s, size_t, T);
    j->used = CT__SALLOC(s, size_t, T);
    j->full = CT__SALLOC(s, int, T);
    j->chunk_buf = CT__SALLOC(s, int, nch);
    j->start = CT__SALLOC(s, size_t, j->nslots);
    j->cnt = CT__SALLOC(s, int, j->nslots);
    j->tid = CT__SALLOC(s, int, j->nslots);
    pend = CT__SALLOC(s, int, nch);
    if (!j->buf || !j->cap || !j->used || !j->full || !j->chunk_buf || !j->start || !j->cnt || !j->tid || !pend)
        return CT_NO_MEMORY;
    memset(j->cnt, 0, (size_t)j->nslots * sizeof *j->cnt);
    for (t = 0; t < T; ++t) {
        j->cap[t] = estimate / (size_t)T + 1024;
        j->used[t] = 0;
        j->buf[t] = CT__SALLOC(s, int, j->cap[t]);
        if (!j->buf[t]) return CT_NO_MEMORY;
    }
    for (k = 0; k < nch; ++k) j->chunk_buf[k] = -1;
    for (;;) {
        for (npend = 0, k = 0; k < nch; ++k)
            if (j->chunk_buf[k] < 0) pend[npend++] = k;
        if (npend == 0) return CT_OK;
        for (t = 0; t < T; ++t) j->full[t] = 0;
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) if (T > 1 && npend > 1)
#endif
        for (k = 0; k < npend; ++k) {
            int tid = ct__bp_thread_num();
            size_t u0 = j->used[tid];
            if (j->full[tid]) continue;
            if (ct__bp_chunk(j, pend[k], tid)) j->chunk_buf[pend[k]] = tid;
            else { j->used[tid] = u0; j->full[tid] = 1; }
        }
        for (t = 0; t < T; ++t) {
            int *nb;
            size_t ncap;
            if (!j->full[t]) continue;
            ncap = 2 * j->cap[t] + 4096;
            nb = CT__SALLOC(s, int, ncap);
            if (!nb) return CT_NO_MEMORY;
            if (j->used[t]) memcpy(nb, j->buf[t], j->used[t] * sizeof *nb);
            j->buf[t] = nb;
            j->cap[t] = ncap;
        }
    }
}

/* ---- assembly -------------------------------------------------------------------------- */
/* out[] = for each rank r (ids[r] ascending) the merge of its list from the job (slot r)
   and the pairs of e (sorted) whose a is ids[r]. Output memory comes from oa (the caller's
   allocator) or, when oa is NULL, from the scratch. */
CT__PRIVATE ct_status ct__bp_assemble(ct_scratch *s, const ct__bpjob *j, const int *ids,
                                      int m, const ct_pair *e, size_t ne, int T,
                                      const ct_allocator *oa, ct_pair **out, size_t *count) {
    size_t *off = CT__SALLOC(s, size_t, (long long)m + 1), *eoff = CT__SALLOC(s, size_t, (long long)m + 1);
    size_t tot = 0, q = 0, bytes;
    ct_pair *res;
    int r;
    *out = NULL;
    *count = 0;
    if (!off || !eoff) return CT_NO_MEMORY;
    for (r = 0; r < m; ++r) {
        while (q < ne && e[q].a < ids[r]) ++q;
        eoff[r] = q;
        off[r] = tot;
        while (q < ne && e[q].a == ids[r]) ++q;
        tot += (q - eoff[r]) + (size_t)j->cnt[r];
    }
    eoff[m] = q;
    off[m] = tot;
    if (tot == 0) return CT_OK;
    bytes = ct__array_bytes((long long)tot, sizeof(ct_pair));
    if (bytes == 0) return CT_NO_MEMORY;
    res = oa ? (ct_pair *)ct__alloc(oa, bytes) : CT__SALLOC(s, ct_pair, tot);
    if (!res) return CT_NO_MEMORY;
#if CT__BP_OMP
#pragma omp parallel for schedule(static, 1024) num_threads(T) if (T > 1 && tot > 65536)
#endif
    for (r = 0; r < m; ++r) {
        ct_pair *o = res + off[r];
        size_t qe = eoff[r], qend = eoff[r + 1], i = 0, nl = (size_t)j->cnt[r];
        const int *list = nl ? j->buf[j->tid[r]] + j->start[r] : NULL;
        if (r + CT__BP_AHEAD < m && j->cnt[r + CT__BP_AHEAD])
            CT__BP_PREFETCH(j->buf[j->tid[r + CT__BP_AHEAD]] + j->start[r + CT__BP_AHEAD]);
        while (i < nl || qe < qend) {
            int b = (qe == qend || (i < nl && list[i] < e[qe].b)) ? list[i++] : e[qe++].b;
            o->a = ids[r];
            o->b = b;
            ++o;
        }
    }
    (void)T;
    *out = res;
    *count = tot;
    return CT_OK;
}

/* Pairs of a small set by the O(n^2) loop, sorted (ids ascending). Self when b == NULL. */
CT__PRIVATE ct_status ct__bp_brute(ct_scratch *s, const ct__bpbox *a, int na, const ct__bpbox *b, int nb,
                                   const ct_allocator *oa, ct_pair **out, size_t *count) {
    size_t n = 0, bytes;
    int pass, i, k;
    ct_pair *res = NULL;
    *out = NULL;
    *count = 0;
    for (pass = 0; pass < 2; ++pass) {
        size_t w = 0;
        for (i = 0; i < na; ++i)
            for (k = b ? 0 : i + 1; k < (b ? nb : na); ++k) {
                const ct__bpbox *o = b ? &b[k] : &a[k];
                if (!ct__bp_overlap(&a[i], o)) continue;
                if (res) { res[w].a = a[i].id; res[w].b = o->id; }
                ++w;
            }
        if (pass == 0) {
            n = w;
            if (n == 0) return CT_OK;
            bytes = ct__array_bytes((long long)n, sizeof(ct_pair));
            res = oa ? (ct_pair *)ct__alloc(oa, bytes) : CT__SALLOC(s, ct_pair, n);
            if (!res) return CT_NO_MEMORY;
        }
    }
    *out = res;
    *count = n;
    return CT_OK;
}

/* Chooses the size thresholds t of the small boxes of set[0..n) (see the top of the file) and
   copies the big ones, in order, to *big (renumbered 0..: they form the set of the next
   level). Returns the number of big boxes, or -1 when out of memory. */
CT__PRIVATE int ct__bp_split(ct_scratch *s, const ct__bpbox *set, int n, int T, ct_real t[3], ct__bpbox **big) {
    int i, k, nbig = 0, ns = ct__imin(n, CT__BP_SAMPLE), q = (int)(CT__BP_QUANTILE * (double)(ns - 1));
    ct_real *ext = CT__SALLOC(s, ct_real, ns);
    *big = NULL;
    if (!ext) return -1;
    for (k = 0; k < 3; ++k) {   /* the quantile of an evenly spaced sample (all boxes when n is small) */
        for (i = 0; i < ns; ++i) {
            const ct__bpbox *b = &set[(long long)i * n / ns];
            ext[i] = b->hi[k] - b->lo[k];
        }
        t[k] = ct__bp_select(ext, ns, q) * (ct_real)CT__BP_BIGSLACK;
    }
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(T) if (T > 1 && n > 65536) reduction(+ : nbig)
#endif
    for (i = 0; i < n; ++i) nbig += ct__bp_isbig(&set[i], t);
    (void)T;
    if (nbig > n / 4) {   /* no clear outliers: one grid for all (extents may be +inf) */
        for (k = 0; k < 3; ++k)
            for (t[k] = 0, i = 0; i < n; ++i) t[k] = ct__max(t[k], set[i].hi[k] - set[i].lo[k]);
        nbig = 0;
    }
    if (nbig == 0) return 0;
    *big = CT__SALLOC(s, ct__bpbox, nbig);
    if (!*big) return -1;
    for (nbig = 0, i = 0; i < n; ++i)
        if (ct__bp_isbig(&set[i], t)) {
            (*big)[nbig] = set[i];
            (*big)[nbig].rank = nbig;
            ++nbig;
        }
    return nbig;
}

/* Merges two sorted pair lists into the scratch. */
CT__PRIVATE ct_pair *ct__bp_merge(ct_scratch *s, const ct_pair *x, size_t nx, const ct_pair *y, size_t ny) {
    ct_pair *o = CT__SALLOC(s, ct_pair, nx + ny);
    size_t i = 0, j = 0, w = 0;
    if (!o) return NULL;
    while (i < nx || j < ny) {
        int takex = j == ny || (i < nx && (x[i].a < y[j].a || (x[i].a == y[j].a && x[i].b < y[j].b)));
        o[w++] = takex ? x[i++] : y[j++];
    }
    return o;
}

CT__PRIVATE size_t ct__bp_estimate(size_t n) { return 16 * n; }

/* One level: splits set[0..n) into small and big boxes, builds the grid of the small ones and
   runs the pass over it: pairs among them (query NULL), or every query box against them. */
CT__PRIVATE ct_status ct__bp_level(ct_scratch *s, const ct__bpbox *set, int n, const ct__bpbox *query, int nq,
                                   ct_real mag, int T, ct__bpgrid *g, ct__bpjob *job, ct__bpbox **big, int *nbig) {
    ct_real t[3];
    ct_status st;
    *nbig = ct__bp_split(s, set, n, T, t, big);
    if (*nbig < 0) return CT_NO_MEMORY;
    st = ct__bp_grid_build(s, set, n, n - *nbig, t, mag, T, g);
    if (st != CT_OK) return st;
    memset(job, 0, sizeof *job);
    job->g = g;
    job->query = query;
    job->nitems = query ? nq : n - *nbig;
    job->nslots = query ? nq : n;
    job->nthreads = T;
    return ct__bp_run(s, job, ct__bp_estimate((size_t)job->nitems));
}

/* Every overlapping pair of set[0..n) (ids ascending, rank = position), sorted. */
CT__PRIVATE ct_status ct__bp_self(ct_scratch *s, const ct__bpbox *set, int n, ct_real mag, int T,
                                  const ct_allocator *oa, ct_pair **out, size_t *count) {
    ct__bpbox *big;
    ct__bpgrid g;
    ct__bpjob job, bj;
    ct_pair *e = NULL, *e2 = NULL;
    size_t ne = 0, ne2 = 0;
    int nbig, i, *ids;
    ct_status st;
    *out = NULL;
    *count = 0;
    if (n <= CT__BP_BRUTE) return ct__bp_brute(s, set, n, NULL, 0, oa, out, count);
    ids = CT__SALLOC(s, int, n);
    if (!ids) return CT_NO_MEMORY;
    st = ct__bp_level(s, set, n, NULL, 0, mag, T, &g, &job, &big, &nbig);
    if (st != CT_OK) return st;
    if (nbig > 0) {
        /* big boxes against the grid of small ones: pairs (min id, max id), radix-sorted */
        unsigned long long *key, *tmp;
        size_t w = 0;
        int r;
        memset(&bj, 0, sizeof bj);
        bj.g = &g;
        bj.query = big;
        bj.nitems = bj.nslots = nbig;
        bj.nthreads = T;
        st = ct__bp_run(s, &bj, ct__bp_estimate((size_t)nbig));
        if (st != CT_OK) return st;
        for (r = 0; r < nbig; ++r) ne += (size_t)bj.cnt[r];
        key = CT__SALLOC(s, unsigned long long, ne);
        tmp = CT__SALLOC(s, unsigned long long, ne);
        e = CT__SALLOC(s, ct_pair, ne);
        if (ne && (!key || !tmp || !e)) return CT_NO_MEMORY;
        for (r = 0; r < nbig; ++r) {
            const int *l = bj.buf[bj.tid[r]] + bj.start[r];
            int c;
            for (c = 0; c < bj.cnt[r]; ++c) {
                unsigned long long a = (unsigned long long)(unsigned)big[r].id, b = (unsigned long long)(unsigned)l[c];
                key[w++] = a < b ? (a << 32 | b) : (b << 32 | a);
            }
        }
        ct__bp_radix64(key, tmp, ne);
        for (w = 0; w < ne; ++w) { e[w].a = (int)(key[w] >> 32); e[w].b = (int)(key[w] & 0xffffffffu); }
        /* big boxes among themselves, recursively */
        st = ct__bp_self(s, big, nbig, mag, T, NULL, &e2, &ne2);
        if (st != CT_OK) return st;
        if (ne2) {
            e = ct__bp_merge(s, e, ne, e2, ne2);
            if (!e) return CT_NO_MEMORY;
            ne += ne2;
        }
    }
    for (i = 0; i < n; ++i) ids[i] = set[i].id;
    return ct__bp_assemble(s, &job, ids, n, e, ne, T, oa, out, count);
}

/* Every overlapping (a in A, b in B), sorted: the grid over the small boxes of B is queried
   by every box of A; the big boxes of B recursively. */
CT__PRIVATE ct_status ct__bp_bip(ct_scratch *s, const ct__bpbox *A, int na, const ct__bpbox *B, int nb,
                                 ct_real mag, int T, const ct_allocator *oa, ct_pair **out, size_t *count) {
    ct__bpbox *big;
    ct__bpgrid g;
    ct__bpjob job;
    ct_pair *e = NULL;
    size_t ne = 0;
    int nbig, i, *ids;
    ct_status st;
    *out = NULL;
    *count = 0;
    if (na == 0 || nb == 0) return CT_OK;
    if ((long long)na * nb <= 64 * CT__BP_BRUTE || nb <= 2) return ct__bp_brute(s, A, na, B, nb, oa, out, count);
    ids = CT__SALLOC(s, int, na);
    if (!ids) return CT_NO_MEMORY;
    st = ct__bp_level(s, B, nb, A, na, mag, T, &g, &job, &big, &nbig);
    if (st != CT_OK) return st;
    if (nbig > 0) {
        st = ct__bp_bip(s, A, na, big, nbig, mag, T, NULL, &e, &ne);
        if (st != CT_OK) return st;
    }
    for (i = 0; i < na; ++i) ids[i] = A[i].id;
    return ct__bp_assemble(s, &job, ids, na, e, ne, T, oa, out, count);
}

/* Checks boxes[0..n) and converts them (sweep axis first). axis: -1 to choose it here (the
   axis along which the centres spread most), else given. mag: running max |coordinate|. */
CT__PRIVATE ct_status ct__bp_prepare(ct_scratch *s, const ct_aabb *boxes, int n, int T, int *axis, ct_real *mag,
                                     ct__bpbox **out) {
    ct__bpbox *v;
    ct_real m = *mag;
    double mean[3] = { 0, 0, 0 }, m2[3] = { 0, 0, 0 };
    int i, k, bad = 0, ns = ct__imin(n, CT__BP_SAMPLE);
    *out = NULL;
    if (n < 0 || (n > 0 && !boxes)) return CT_INVALID;
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(T) if (T > 1 && n > 65536) reduction(| : bad) reduction(max : m)
#endif
    for (i = 0; i < n; ++i) {
        const ct_aabb *b = &boxes[i];
        bad |= !ct__finite3(b->lo) || !ct__finite3(b->hi) || !(b->lo.x <= b->hi.x) || !(b->lo.y <= b->hi.y) ||
               !(b->lo.z <= b->hi.z);
        m = ct__max(m, ct__max(ct__maxabs(b->lo), ct__maxabs(b->hi)));
    }
    (void)T;
    if (bad) return CT_INVALID;
    *mag = m;
    /* sweep axis: largest variance of the centres (Welford), over an evenly spaced sample */
    for (i = 0; i < ns; ++i) {
        const ct_aabb *b = &boxes[(long long)i * n / ns];
        for (k = 0; k < 3; ++k) {
            double c = 0.5 * (double)ct__vget(b->lo, k) + 0.5 * (double)ct__vget(b->hi, k), d = c - mean[k];
            mean[k] += d / (double)(i + 1);
            m2[k] += d * (c - mean[k]);
        }
    }
    if (*axis < 0) *axis = m2[0] >= m2[1] ? (m2[0] >= m2[2] ? 0 : 2) : (m2[1] >= m2[2] ? 1 : 2);
    v = CT__SALLOC(s, ct__bpbox, n);
    if (n > 0 && !v) return CT_NO_MEMORY;
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(T) if (T > 1 && n > 65536) private(k)
#endif
    for (i = 0; i < n; ++i) {
        for (k = 0; k < 3; ++k) {
            int src = (*axis + k) % 3;
            v[i].lo[k] = ct__vget(boxes[i].lo, src);
            v[i].hi[k] = ct__vget(boxes[i].hi, src);
        }
        v[i].id = v[i].rank = i;
    }
    *out = v;
    return CT_OK;
}

/* Both entry points: self pairs of A when B is NULL, else the pairs of A x B. */
/* The output's promise: pairs sorted by (a, b), each once, a < b within one set. */
CT__PRIVATE int ct__bp_sorted(const ct_pairs *p, int self) {
    size_t k;
    for (k = 0; k < p->count; ++k) {
        if (self && !(p->items[k].a < p->items[k].b)) return 0;
        if (k > 0 && !(p->items[k - 1].a < p->items[k].a ||
                       (p->items[k - 1].a == p->items[k].a && p->items[k - 1].b < p->items[k].b))) return 0;
    }
    return 1;
}

CT__PRIVATE ct_status ct__bp_entry(const ct_aabb *A, int na, const ct_aabb *B, int nb, int self,
                                   const ct_allocator *a, ct_pairs *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct__bpbox *va = NULL, *vb = NULL;
    ct_real mag = 0;
    int axis = -1, T = ct__bp_threads();
    ct_status st;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->ct__alloc = ct__allocator(a);
    if (na < 0 || nb < 0 || (na > 0 && !A) || (nb > 0 && !B)) return CT_INVALID;
    s = ct__scratch_begin(NULL, &local, &out->ct__alloc);
    mk = ct__scratch_mark(s);
    /* the sweep axis follows the set the grid is built over (B for bipartite) */
    st = self ? CT_OK : ct__bp_prepare(s, B, nb, T, &axis, &mag, &vb);
    if (st == CT_OK) st = ct__bp_prepare(s, A, na, T, &axis, &mag, &va);
    if (st == CT_OK)
        st = self ? ct__bp_self(s, va, na, mag, T, &out->ct__alloc, &out->items, &out->count)
                  : ct__bp_bip(s, va, na, vb, nb, mag, T, &out->ct__alloc, &out->items, &out->count);
    ct__scratch_end(s, &local, mk);
    CT_ASSERT(st != CT_OK || ct__bp_sorted(out, self));
    if (st != CT_OK) {
        ct_allocator keep = out->ct__alloc;
        memset(out, 0, sizeof *out);
        out->ct__alloc = keep;
    }
    return st;
}

CTDEF ct_status ct_broadphase(const ct_aabb *boxes, int n, const ct_allocator *a, ct_pairs *out) {
    return ct__bp_entry(boxes, n, NULL, 0, 1, a, out);
}

CTDEF ct_status ct_broadphase_bipartite(const ct_aabb *A, int na, const ct_aabb *B, int nb,
                                        const ct_allocator *a, ct_pairs *out) {
    return ct__bp_entry(A, na, B, nb, 0, a, out);
}

CTDEF void ct_pairs_free(ct_pairs *p) {
    if (!p) return;
    if (p->items && p->ct__alloc.free) p->ct__alloc.free(p->items, p->ct__alloc.user);
    p->items = NULL;
    p->count = 0;
}

CTDEF ct_status ct_broadphase_foreach(const ct_aabb *boxes, int n, ct_pair_fn fn, void *user) {
    ct_pairs p;
    ct_status st;
    long long i, m;
    if (!fn) return CT_INVALID;
    st = ct_broadphase(boxes, n, NULL, &p);
    if (st != CT_OK) return st;
    m = (long long)p.count;
#if CT__BP_OMP
    if (!omp_in_parallel()) {
        /* narrow-phase costs vary a lot per pair: small dynamic chunks balance them */
#pragma omp parallel for schedule(dynamic, 16)
        for (i = 0; i < m; ++i) fn(user, p.items[i].a, p.items[i].b, omp_get_thread_num());
    } else {
        /* already inside a parallel region: no nested team, run on the calling thread */
        int t = omp_get_thread_num();
        for (i = 0; i < m; ++i) fn(user, p.items[i].a, p.items[i].b, t);
    }
#else
    for (i = 0; i < m; ++i) fn(user, p.items[i].a, p.items[i].b, 0);
#endif
    ct_pairs_free(&p);
    return CT_OK;
}

/* ---- incremental broad phase (ct_bp) ---------------------------------------------------
   Invariant after a successful update: cand = every pair whose fat boxes overlap, and every
   box lies inside its fat box, so the step's pairs are the candidates that pass the exact
   test. A step re-queries only the boxes that left their fat box, through a hashed 3-D grid
   of the fat boxes' lower corners (cells as large as the largest fat box, so a box's partners
   lie in the cells of [lo - h, hi]; doubly linked bucket lists, so a box moves in O(1)).
   Many escapes (or a box outgrowing the cells) rebuild everything with the one-shot
   ct__bp_self. This is the "fat AABB" scheme of dynamic-tree broad phases (Box2D's b2_aabbMargin)
   on top of the one-shot grid.
   A step (ct__bp_step) is one merge of the old candidates, minus those of escaped boxes, with
   the escaped boxes' new ones, in fixed stretches on all threads: pass 0 tests each candidate
   once, pass 1 writes the candidates (only when some escaped), the pairs and, from a bit per
   candidate that says whether it was a pair, the added and removed pairs. The test reads the
   partner's box at random, which at 1e6 boxes misses the cache: double builds read a float
   copy rounded outwards (half the bytes), exact where it decides and the double boxes where
   it cannot. The arrays a step replaces are reused by the next (fresh pages cost a fault per
   4 KB, which serialises two threads). */
#define CT__BP_MARGIN 0.05     /* default fat margin: 10 steps of 0.5% motion per re-query */
#define CT__BP_REBUILD 8       /* more than n / this escapes in one step: rebuild from scratch */
#define CT__BP_HSLACK ((ct_real)0.0625)   /* grid cells this much larger than the largest fat box */
#define CT__BP_FCHUNK 65536    /* candidate pairs per scheduled chunk of the filter (fixed) */
#define CT__BP_DCHUNKS 256     /* index ranges of the parallel diff (fixed) */
#define CT__BP_RAYSEG 4        /* a ray is queried in segments this many cells long */

CT__INLINE int ct__bp_valid(const ct_aabb *b) {
    return ct__finite3(b->lo) && ct__finite3(b->hi) && b->lo.x <= b->hi.x && b->lo.y <= b->hi.y && b->lo.z <= b->hi.z;
}
/* branch-free: a quarter of the filter's candidates fail on some axis, at random */
CT__INLINE int ct__bp_aabb_overlap(const ct_aabb *a, const ct_aabb *b) {
    return (a->lo.x <= b->hi.x) & (b->lo.x <= a->hi.x) & (a->lo.y <= b->hi.y) & (b->lo.y <= a->hi.y) &
           (a->lo.z <= b->hi.z) & (b->lo.z <= a->hi.z);
}
CT__INLINE int ct__bp_inside(const ct_aabb *b, const ct_aabb *f) {
    return f->lo.x <= b->lo.x && f->lo.y <= b->lo.y && f->lo.z <= b->lo.z && b->hi.x <= f->hi.x &&
           b->hi.y <= f->hi.y && b->hi.z <= f->hi.z;
}
CT__INLINE unsigned long long ct__bp_key(const ct_pair *p) {
    return (unsigned long long)(unsigned)p->a << 32 | (unsigned)p->b;
}
/* b grown by margin times its largest extent (lo - d <= lo exactly, as d >= 0); b itself
   where that would overflow. */
CT__INLINE ct_aabb ct__bp_fatten(const ct_aabb *b, ct_real margin) {
    ct_vec3 e = ct__sub(b->hi, b->lo);
    ct_real d = margin * ct__max(e.x, ct__max(e.y, e.z));
    ct_aabb f;
    f.lo = ct__v3(b->lo.x - d, b->lo.y - d, b->lo.z - d);
    f.hi = ct__v3(b->hi.x + d, b->hi.y + d, b->hi.z + d);
    return ct__finite3(f.lo) && ct__finite3(f.hi) ? f : *b;
}

/* The filter's compact copy: each box rounded outwards to float and stored as lo.x, lo.y,
   lo.z, -hi.x, -hi.y, -hi.z (24 bytes instead of 48 in double builds, so the partners' boxes
   miss the cache half as often; in float builds an exact copy), with the upper corner negated
   so that one comparison direction serves both halves: A and B overlap where
   (A.lo, -A.hi) <= (B.hi, -B.lo) lane by lane. The array has CT__BP_FPAD floats more, zero,
   so a 4-float load at any box's fourth float stays inside it. In double builds a candidate
   whose float boxes do not overlap does not overlap; one whose float boxes overlap by the
   margin ct__bp_fmargin on every axis overlaps (see there); the rest (boxes within a few
   float ulps of touching) take the exact test. */
#define CT__BP_FPAD 4
/* The float next to f (finite or infinite) downwards or upwards, by its bits (IEEE binary32,
   as ct__bp_fmargin checks): nextafterf, without a libm call per coordinate. */
CT__INLINE float ct__bp_fnext(float f, int up) {
    unsigned int u;
    memcpy(&u, &f, sizeof u);
    if (f == 0) u = up ? 1u : 0x80000001u;
    else if ((f > 0) == (up != 0)) u += 1u;
    else u -= 1u;
    memcpy(&f, &u, sizeof f);
    return f;
}
CT__INLINE float ct__bp_fdown(ct_real v) {
    float f = (float)v;
    return (ct_real)f > v ? ct__bp_fnext(f, 0) : f;
}
CT__INLINE float ct__bp_fup(ct_real v) {
    float f = (float)v;
    return (ct_real)f < v ? ct__bp_fnext(f, 1) : f;
}
CT__INLINE void ct__bp_fset(float *f, const ct_aabb *b) {
    f[0] = ct__bp_fdown(b->lo.x); f[1] = ct__bp_fdown(b->lo.y); f[2] = ct__bp_fdown(b->lo.z);
    f[3] = -ct__bp_fup(b->hi.x); f[4] = -ct__bp_fup(b->hi.y); f[5] = -ct__bp_fup(b->hi.z);
}
/* The margin m of the float test, or 0 when the float copy must not be used (double builds)
   or needs no margin (float builds: it is exact). With every coordinate within M (the fat
   boxes' bounds) and M in [2^-100, 2^100], a rounded coordinate is off by less than
   U = M 2^-22 (one float ulp at most M 2^-23; no overflow, no subnormals), and lo_f + m with
   m = 8U rounds to at least lo_f + 7U: so lo_f + m <= hi_f gives
   lo < lo_f + U <= hi_f - 6U < hi. The other half of the test, -hi_f + m <= -lo_f, is the
   same bound mirrored (rounding to nearest is odd: round(m - hi_f) = -round(hi_f - m)). */
CT__INLINE float ct__bp_fmargin(const ct_bp *bp) {
    ct_real M = ct__max(ct__maxabs(bp->ct__bounds.lo), ct__maxabs(bp->ct__bounds.hi));
    if (CT__FLOAT || !bp->ct__fbox || sizeof(unsigned int) != sizeof(float) || FLT_MANT_DIG != 24 ||
        !(M >= (ct_real)ldexp(1.0, -100)) || !(M <= (ct_real)ldexp(1.0, 100))) return 0;
    return (float)ldexp((double)M, -19);
}
/* The float test of the boxes at A and B (the copy's layout): 1 when they overlap by m on
   every axis (m >= 0: then they overlap), else 0 with *near = 1 when they overlap all the
   same. Branch-free, as the masks are turned into bits by arithmetic (a quarter of the
   candidates fail, at random: a branch on the result mispredicts); SSE2 where the compiler
   has it. */
CT__INLINE int ct__bp_ftest(const float *A, const float *B, float m, int *near) {
#if defined(__SSE2__) && !defined(CT_NO_SIMD)
    const __m128 sign = _mm_set1_ps(-0.0f), mm = _mm_set1_ps(m);
    __m128 alo = _mm_loadu_ps(A), anh = _mm_loadu_ps(A + 3);          /* lane 3: a neighbour's float */
    __m128 bhi = _mm_xor_ps(_mm_loadu_ps(B + 3), sign), bnl = _mm_xor_ps(_mm_loadu_ps(B), sign);
    int o = _mm_movemask_ps(_mm_and_ps(_mm_cmple_ps(alo, bhi), _mm_cmple_ps(anh, bnl)));
    int i = _mm_movemask_ps(_mm_and_ps(_mm_cmple_ps(_mm_add_ps(alo, mm), bhi), _mm_cmple_ps(_mm_add_ps(anh, mm), bnl)));
    o = ((o & 7) + 1) >> 3;   /* 1 when lanes 0-2 are set */
    i = ((i & 7) + 1) >> 3;
#else
    int o = (A[0] <= -B[3]) & (A[1] <= -B[4]) & (A[2] <= -B[5]) & (A[3] <= -B[0]) & (A[4] <= -B[1]) & (A[5] <= -B[2]);
    int i = (A[0] + m <= -B[3]) & (A[1] + m <= -B[4]) & (A[2] + m <= -B[5]) & (A[3] + m <= -B[0]) &
            (A[4] + m <= -B[1]) & (A[5] + m <= -B[2]);
#endif
    *near = o & (i ^ 1);
    return i;
}
/* The overlap of candidate boxes a and b: the float test, and the exact one where the float
   test cannot decide (fb NULL: the exact test only). */
CT__INLINE int ct__bp_cand_test(const float *fb, float m, const ct_aabb *boxes, int a, int b) {
    int near, x;
    if (!fb) return ct__bp_aabb_overlap(&boxes[a], &boxes[b]);
    x = ct__bp_ftest(fb + 6 * (size_t)a, fb + 6 * (size_t)b, m, &near);
    if (CT__BP_RARE(near)) x = ct__bp_aabb_overlap(&boxes[a], &boxes[b]);
    return x;
}
/* The float copy to test with: NULL when only the exact test is right. */
CT__INLINE const float *ct__bp_fcopy(const ct_bp *bp, float m) {
    return CT__FLOAT || m > 0 ? bp->ct__fbox : NULL;
}

/* Grid cell of coordinate v on axis k: monotone in v, clamped. */
CT__INLINE long long ct__bp_gcell(const ct_bp *bp, ct_real v, int k) {
    double t = ((double)v - (double)bp->ct__org[k]) * (double)bp->ct__inv[k];
    if (!(t > -1e15)) t = -1e15;
    if (t > 1e15) t = 1e15;
    return (long long)floor(t);
}
CT__INLINE int ct__bp_ghash(const ct_bp *bp, long long x, long long y, long long z) {
    unsigned long long h = (unsigned long long)x * 0x9E3779B97F4A7C15ULL ^ (unsigned long long)y * 0xC2B2AE3D27D4EB4FULL ^
                           (unsigned long long)z * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    return (int)(h & (unsigned long long)(bp->ct__nb - 1));
}
CT__INLINE int ct__bp_gbucket(const ct_bp *bp, const ct_aabb *f) {
    return ct__bp_ghash(bp, ct__bp_gcell(bp, f->lo.x, 0), ct__bp_gcell(bp, f->lo.y, 1), ct__bp_gcell(bp, f->lo.z, 2));
}
CT__INLINE void ct__bp_glink(ct_bp *bp, int i) {
    int c = ct__bp_gbucket(bp, &bp->ct__fat[i]), h = bp->ct__head[c];
    bp->ct__bucket[i] = c;
    bp->ct__prev[i] = -1;
    bp->ct__next[i] = h;
    if (h >= 0) bp->ct__prev[h] = i;
    bp->ct__head[c] = i;
}
CT__INLINE void ct__bp_gunlink(ct_bp *bp, int i) {
    int p = bp->ct__prev[i], nx = bp->ct__next[i];
    if (p >= 0) bp->ct__next[p] = nx; else bp->ct__head[bp->ct__bucket[i]] = nx;
    if (nx >= 0) bp->ct__prev[nx] = p;
}
CT__INLINE void ct__bp_bounds_add(ct_aabb *B, const ct_aabb *f) {
    B->lo = ct__v3(ct__min(B->lo.x, f->lo.x), ct__min(B->lo.y, f->lo.y), ct__min(B->lo.z, f->lo.z));
    B->hi = ct__v3(ct__max(B->hi.x, f->hi.x), ct__max(B->hi.y, f->hi.y), ct__max(B->hi.z, f->hi.z));
}

/* A growable int list in the scratch. */
typedef struct ct__bpvec { int *v; size_t n, cap; } ct__bpvec;
CT__PRIVATE int ct__bp_reserve(ct_scratch *s, ct__bpvec *l, size_t extra) {
    if (l->cap - l->n < extra) {
        size_t nc = 2 * (l->n + extra) + 256;
        int *nv = CT__SALLOC(s, int, nc);
        if (!nv) return 0;
        if (l->n) memcpy(nv, l->v, l->n * sizeof *nv);
        l->v = nv;
        l->cap = nc;
    }
    return 1;
}

/* Every box but skip whose fat box overlaps r, some possibly twice (when two cells of the
   range share a bucket): the first cap of them written to out; returns their number. Reads
   the grid only: concurrent scans are fine. */
CT__PRIVATE size_t ct__bp_gscan(const ct_bp *bp, const ct_aabb *r, int skip, int *out, size_t cap) {
    long long lo[3], hi[3], x, y, z;
    double cells = 1;
    size_t w = 0;
    int k, c, i;
    for (k = 0; k < 3; ++k) {
        /* partners' lower corners lie in [r.lo - h, r.hi]; h is widened by ulps (see rebuild) */
        lo[k] = ct__bp_gcell(bp, ct__vget(r->lo, k) - bp->ct__h[k], k);
        hi[k] = ct__bp_gcell(bp, ct__vget(r->hi, k), k);
        cells *= (double)(hi[k] - lo[k] + 1);
    }
    if (cells > (double)bp->ct__nb) {   /* a large range: every bucket once */
        for (c = 0; c < bp->ct__nb; ++c)
            for (i = bp->ct__head[c]; i >= 0; i = bp->ct__next[i])
                if (i != skip && ct__bp_aabb_overlap(&bp->ct__fat[i], r)) {
                    if (w < cap) out[w] = i;
                    ++w;
                }
        return w;
    }
    for (x = lo[0]; x <= hi[0]; ++x)
        for (y = lo[1]; y <= hi[1]; ++y)
            for (z = lo[2]; z <= hi[2]; ++z)
                for (i = bp->ct__head[ct__bp_ghash(bp, x, y, z)]; i >= 0; i = bp->ct__next[i])
                    if (i != skip && ct__bp_aabb_overlap(&bp->ct__fat[i], r)) {
                        if (w < cap) out[w] = i;
                        ++w;
                    }
    return w;
}
/* Appends to l every box but skip whose fat box overlaps r (see ct__bp_gscan). Returns 0
   when out of memory. */
CT__PRIVATE int ct__bp_gquery(const ct_bp *bp, ct_scratch *s, const ct_aabb *r, int skip, ct__bpvec *l) {
    size_t room = l->cap - l->n, m = ct__bp_gscan(bp, r, skip, l->v ? l->v + l->n : NULL, room);
    if (m > room) {   /* scanned again only when the list had to grow */
        if (!ct__bp_reserve(s, l, m)) return 0;
        ct__bp_gscan(bp, r, skip, l->v + l->n, m);
    }
    l->n += m;
    return 1;
}

/* Sorts ints and drops repeats; returns the new length. */
CT__PRIVATE size_t ct__bp_unique(int *v, size_t n) {
    size_t i, w = n ? 1 : 0;
    ct__bp_qsort_ints(v, n);
    for (i = 1; i < n; ++i)
        if (v[i] != v[w - 1]) v[w++] = v[i];
    return w;
}

CTDEF ct_status ct_bp_init(ct_bp *bp, ct_real margin, const ct_allocator *a) {
    if (!bp) return CT_INVALID;
    memset(bp, 0, sizeof *bp);
    bp->ct__alloc = ct__allocator(a);
    bp->pairs.ct__alloc = bp->added.ct__alloc = bp->removed.ct__alloc = bp->ct__cand.ct__alloc = bp->ct__alloc;
    if (!(margin >= 0) || !ct__finite(margin)) return CT_INVALID;
    bp->ct__margin = margin > 0 ? margin : (ct_real)CT__BP_MARGIN;
    ct_scratch_init(&bp->ct__scr, &bp->ct__alloc);
    return CT_OK;
}

CT__PRIVATE void ct__bp_free_grid(ct_bp *bp) {
    ct__free(&bp->ct__alloc, bp->ct__fat);
    ct__free(&bp->ct__alloc, bp->ct__head);
    ct__free(&bp->ct__alloc, bp->ct__next);
    ct__free(&bp->ct__alloc, bp->ct__prev);
    ct__free(&bp->ct__alloc, bp->ct__bucket);
    bp->ct__fat = NULL;
    bp->ct__head = bp->ct__next = bp->ct__prev = bp->ct__bucket = NULL;
    ct_pairs_free(&bp->ct__cand);
    ct__free(&bp->ct__alloc, bp->ct__fbox);
    ct__free(&bp->ct__alloc, bp->ct__cspare);
    bp->ct__fbox = NULL;
    bp->ct__cspare = NULL;
    bp->ct__ccap = bp->ct__cspare_cap = 0;
    ct__free(&bp->ct__alloc, bp->ct__was);
    ct__free(&bp->ct__alloc, bp->ct__wspare);
    bp->ct__was = bp->ct__wspare = NULL;
    bp->ct__wcap = bp->ct__wspare_cap = 0;
    bp->ct__valid = 0;
}

CTDEF void ct_bp_free(ct_bp *bp) {
    if (!bp || !bp->ct__alloc.free) return;
    ct__bp_free_grid(bp);
    ct_pairs_free(&bp->pairs);
    ct_pairs_free(&bp->added);
    ct_pairs_free(&bp->removed);
    ct__free(&bp->ct__alloc, bp->ct__pspare);
    bp->ct__pspare = NULL;
    bp->ct__pcap = bp->ct__pspare_cap = 0;
    bp->ct__n = 0;
    ct_scratch_release(&bp->ct__scr);
}

/* From scratch: fat boxes, their pairs by the one-shot search, the grid. */
CT__PRIVATE ct_status ct__bp_rebuild(ct_bp *bp, ct_scratch *s, const ct_aabb *boxes, int n, int T) {
    size_t nb = 1;
    ct_real ext[3] = { 0, 0, 0 }, mag = 0, widen = 4 * CT__EPS;
    ct__bpbox *v;
    ct_aabb *fat;
    int i, k, axis = -1;
    ct_status st;
    ct__bp_free_grid(bp);
    while (nb < 2 * (size_t)n && nb < ((size_t)1 << 30)) nb <<= 1;
    fat = (ct_aabb *)ct__alloc(&bp->ct__alloc, ct__array_bytes(n, sizeof(ct_aabb)) + !n);
    bp->ct__fat = fat;
    bp->ct__head = (int *)ct__alloc(&bp->ct__alloc, ct__array_bytes((long long)nb, sizeof(int)));
    bp->ct__next = (int *)ct__alloc(&bp->ct__alloc, ct__array_bytes(n, sizeof(int)) + !n);
    bp->ct__prev = (int *)ct__alloc(&bp->ct__alloc, ct__array_bytes(n, sizeof(int)) + !n);
    bp->ct__bucket = (int *)ct__alloc(&bp->ct__alloc, ct__array_bytes(n, sizeof(int)) + !n);
    if (!fat || !bp->ct__head || !bp->ct__next || !bp->ct__prev || !bp->ct__bucket) return CT_NO_MEMORY;
    bp->ct__nb = (int)nb;
    bp->ct__fbox = (float *)ct__alloc(&bp->ct__alloc, ct__array_bytes(6 * (long long)n + CT__BP_FPAD, sizeof(float)));
    if (!bp->ct__fbox) return CT_NO_MEMORY;
    memset(bp->ct__fbox + 6 * (size_t)n, 0, CT__BP_FPAD * sizeof(float));
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(T) if (T > 1 && n > 65536)
#endif
    for (i = 0; i < n; ++i) {
        fat[i] = ct__bp_fatten(&boxes[i], bp->ct__margin);
        ct__bp_fset(bp->ct__fbox + 6 * (size_t)i, &boxes[i]);
    }
    st = ct__bp_prepare(s, fat, n, T, &axis, &mag, &v);
    if (st == CT_OK) st = ct__bp_self(s, v, n, mag, T, &bp->ct__alloc, &bp->ct__cand.items, &bp->ct__cand.count);
    if (st != CT_OK) return st;
    bp->ct__bounds.lo = ct__v3(CT__MAXR, CT__MAXR, CT__MAXR);
    bp->ct__bounds.hi = ct__v3(-CT__MAXR, -CT__MAXR, -CT__MAXR);
    for (i = 0; i < n; ++i) {
        ct_vec3 e = ct__sub(fat[i].hi, fat[i].lo);
        ext[0] = ct__max(ext[0], e.x);
        ext[1] = ct__max(ext[1], e.y);
        ext[2] = ct__max(ext[2], e.z);
        ct__bp_bounds_add(&bp->ct__bounds, &fat[i]);
    }
    bp->ct__mag = mag;
    for (k = 0; k < 3; ++k) {
        /* as in ct__bp_grid_build: lo - h stays below every overlapping lower corner despite
           rounding; cells at most 2^20 per unit of the span so the cell numbers stay exact.
           The cells are CT__BP_HSLACK larger than the largest fat box (and the rounding term
           twice the one needed): a re-fattened box that grew (a body that turned) or moved
           away from the origin fits without a rebuild */
        ct_real span = n ? ct__vget(bp->ct__bounds.hi, k) - ct__vget(bp->ct__bounds.lo, k) : 0;
        bp->ct__h[k] = ext[k] * (1 + CT__BP_HSLACK + widen) + 2 * widen * mag;
        bp->ct__org[k] = n ? ct__vget(bp->ct__bounds.lo, k) : 0;
        bp->ct__inv[k] = bp->ct__h[k] > span * (ct_real)1e-6 && bp->ct__h[k] > 0 ? 1 / bp->ct__h[k]
                         : (span > 0 ? (ct_real)1e6 / span : 0);
        if (!ct__finite(bp->ct__inv[k])) bp->ct__inv[k] = 0;
    }
    for (i = 0; i < (int)nb; ++i) bp->ct__head[i] = -1;
    for (i = n - 1; i >= 0; --i) ct__bp_glink(bp, i);
    bp->ct__n = n;
    bp->ct__valid = 1;
    return CT_OK;
}

/* Re-fattens the escaped boxes esc[0..ne), moves them in the grid and finds their new
   candidates: *key (in the scratch) = the sorted, distinct keys of the pairs of overlapping
   fat boxes that involve an escaped box, *mark = a bit set of the escaped boxes. The old
   candidates of marked boxes are replaced by these in ct__bp_step. Returns CT_INVALID (not an
   error: the caller rebuilds) when a new fat box outgrows the cells. */
/* Shares of the escaped boxes per thread in a step's re-query (ct__bp_requery). */
#define CT__BP_REQ_SHARES 4
CT__PRIVATE ct_status ct__bp_requery(ct_bp *bp, ct_scratch *s, const ct_aabb *boxes, const int *esc, int ne, int T,
                                     unsigned long long **keyp, size_t *nkp, unsigned char **markp) {
    ct_real widen = 4 * CT__EPS;
    unsigned long long *key, *tmp;
    unsigned char *mark;
    size_t i, w, nk, *cnt;
    int e, k, *ids, par;
    for (e = 0; e < ne; ++e) {
        ct_aabb f = ct__bp_fatten(&boxes[esc[e]], bp->ct__margin);
        ct_real m = ct__max(ct__maxabs(f.lo), ct__maxabs(f.hi));
        for (k = 0; k < 3; ++k)
            if ((ct__vget(f.hi, k) - ct__vget(f.lo, k)) * (1 + widen) + widen * m > bp->ct__h[k]) return CT_INVALID;
    }
    mark = CT__SALLOC(s, unsigned char, bp->ct__n / 8 + 1);   /* bits: in cache for the merge's random reads */
    if (!mark) return CT_NO_MEMORY;
    memset(mark, 0, (size_t)bp->ct__n / 8 + 1);
    bp->ct__valid = 0;   /* the grid changes below: on failure the next update rebuilds */
    for (e = 0; e < ne; ++e) {
        int id = esc[e];
        mark[id >> 3] |= (unsigned char)(1u << (id & 7));
        ct__bp_gunlink(bp, id);
        bp->ct__fat[id] = ct__bp_fatten(&boxes[id], bp->ct__margin);
        ct__bp_bounds_add(&bp->ct__bounds, &bp->ct__fat[id]);
        ct__bp_glink(bp, id);
    }
    /* the new partners of each escaped box (cnt[e]: where box e's partners start in ids), one
       scan per box: on threads into regions of one buffer, packed in order after; on one
       thread into a list that grows */
    cnt = CT__SALLOC(s, size_t, (long long)ne + 1);
    if (!cnt) return CT_NO_MEMORY;
    par = T > 1 && ne > 256;
    if (par) {
        /* one scan per box: CT__BP_REQ_SHARES contiguous shares of the escapes on the threads,
           each writing into its own region of one buffer (room for twice the mean number of
           partners per box, 4 cand / n, plus 16); a share that outgrows its region stops there, and the rest of
           it is scanned on this thread when the shares are packed in order */
        long long r, R = CT__BP_REQ_SHARES * (long long)T;
        size_t per = 4 * (bp->ct__cand.count / (size_t)(bp->ct__n > 0 ? bp->ct__n : 1)) + 16, room = per * (size_t)ne;
        size_t *used = CT__SALLOC(s, size_t, R), pos;
        int *stop = CT__SALLOC(s, int, R), *buf = CT__SALLOC(s, int, room + 1);
        ct__bpvec l = { NULL, 0, 0 };
        if (!used || !stop || !buf || !ct__bp_reserve(s, &l, room / 2)) return CT_NO_MEMORY;
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(T)
#endif
        for (r = 0; r < R; ++r) {
            int e0 = (int)(ne * r / R), e1 = (int)(ne * (r + 1) / R), x;
            size_t w = 0, lim = per * (size_t)(e1 - e0);
            int *out = buf + per * (size_t)e0;
            for (x = e0; x < e1; ++x) {
                size_t m = ct__bp_gscan(bp, &bp->ct__fat[esc[x]], esc[x], out + w, lim - w);
                if (m > lim - w) break;   /* did not fit: scanned again below */
                cnt[x] = m;
                w += m;
            }
            used[r] = w;
            stop[r] = x;
        }
        for (r = 0; r < R; ++r) {
            int e0 = (int)(ne * r / R), e1 = (int)(ne * (r + 1) / R), x;
            if (!ct__bp_reserve(s, &l, used[r])) return CT_NO_MEMORY;
            if (used[r]) memcpy(l.v + l.n, buf + per * (size_t)e0, used[r] * sizeof *l.v);
            for (x = e0, pos = l.n; x < stop[r]; ++x) { size_t c = cnt[x]; cnt[x] = pos; pos += c; }
            l.n += used[r];
            for (x = stop[r]; x < e1; ++x) {
                cnt[x] = l.n;
                if (!ct__bp_gquery(bp, s, &bp->ct__fat[esc[x]], esc[x], &l)) return CT_NO_MEMORY;
            }
        }
        cnt[ne] = nk = l.n;
        ids = l.v;
    } else {
        ct__bpvec l = { NULL, 0, 0 };
        if (!ct__bp_reserve(s, &l, 32 * (size_t)ne)) return CT_NO_MEMORY;
        for (e = 0; e < ne; ++e) {
            cnt[e] = l.n;
            if (!ct__bp_gquery(bp, s, &bp->ct__fat[esc[e]], esc[e], &l)) return CT_NO_MEMORY;
        }
        cnt[ne] = nk = l.n;
        ids = l.v;
    }
    key = CT__SALLOC(s, unsigned long long, nk + 1);
    tmp = CT__SALLOC(s, unsigned long long, nk + 1);
    if (!key || !tmp) return CT_NO_MEMORY;
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 64) num_threads(T) if (par)
#endif
    for (e = 0; e < ne; ++e) {
        unsigned long long x = (unsigned)esc[e];
        size_t j;
        for (j = cnt[e]; j < cnt[e + 1]; ++j) {
            unsigned long long y = (unsigned)ids[j];
            key[j] = x < y ? (x << 32 | y) : (y << 32 | x);
        }
    }
    ct__bp_radix64(key, tmp, nk);
    for (i = 0, w = 0; i < nk; ++i)   /* pairs of two escaped boxes come twice; bucket repeats too */
        if (w == 0 || key[i] != key[w - 1]) key[w++] = key[i];
    *keyp = key;
    *nkp = w;
    *markp = mark;
    (void)T;
    return CT_OK;
}

/* Marks each candidate that passes the exact test (was[i] = 1) and gathers those pairs into
   *out (the caller's allocator). Used after a rebuild; ct__bp_step does the same and more on
   a step that keeps the candidates. */
CT__PRIVATE ct_status ct__bp_filter(const ct_bp *bp, ct_scratch *s, const ct_aabb *boxes, int T, unsigned char *was,
                                    ct_pairs *out) {
    const ct_pair *c = bp->ct__cand.items;
    size_t m = bp->ct__cand.count, nch = (m + CT__BP_FCHUNK - 1) / CT__BP_FCHUNK, *cnt, tot = 0, k;
    float fm = ct__bp_fmargin(bp);
    const float *fb = ct__bp_fcopy(bp, fm);
    long long q;
    cnt = CT__SALLOC(s, size_t, nch + 1);
    if (!cnt) return CT_NO_MEMORY;
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) if (T > 1 && nch > 1)
#endif
    for (q = 0; q < (long long)nch; ++q) {
        size_t i, i0 = (size_t)q * CT__BP_FCHUNK, e = i0 + CT__BP_FCHUNK < m ? i0 + CT__BP_FCHUNK : m, w = 0;
        for (i = i0; i < e; ++i) {
            int ok;
            if (i + CT__BP_AHEAD < e)
                CT__BP_PREFETCH(fb ? (const void *)(fb + 6 * (size_t)c[i + CT__BP_AHEAD].b) : (const void *)&boxes[c[i + CT__BP_AHEAD].b]);
            ok = ct__bp_cand_test(fb, fm, boxes, c[i].a, c[i].b);
            was[i] = (unsigned char)ok;
            w += (size_t)ok;
        }
        cnt[q] = w;
    }
    for (k = 0; k < nch; ++k) { size_t t = cnt[k]; cnt[k] = tot; tot += t; }   /* counts -> offsets */
    cnt[nch] = tot;
    out->items = tot ? (ct_pair *)ct__alloc(&bp->ct__alloc, ct__array_bytes((long long)tot, sizeof(ct_pair))) : NULL;
    out->count = tot;
    if (tot && !out->items) return CT_NO_MEMORY;
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) if (T > 1 && nch > 1)
#endif
    for (q = 0; q < (long long)nch; ++q) {
        size_t i, i0 = (size_t)q * CT__BP_FCHUNK, e = i0 + CT__BP_FCHUNK < m ? i0 + CT__BP_FCHUNK : m;
        size_t w = cnt[q], end = cnt[q + 1];   /* branch-free, and nothing past the chunk's last pair */
        for (i = i0; i < e; ++i) {
            if (w < end) out->items[w] = c[i];
            w += was[i];
        }
    }
    (void)T;
    return CT_OK;
}

/* First index of the sorted key list key[0..n) at or above x. */
CT__INLINE size_t ct__bp_lower_key(const unsigned long long *key, size_t n, unsigned long long x) {
    size_t s = 0, e = n;
    while (s < e) {
        size_t m = s + (e - s) / 2;
        if (key[m] < x) s = m + 1; else e = m;
    }
    return s;
}

/* First index in [s, e) of the sorted pairs p whose key is at or above x. */
CT__INLINE size_t ct__bp_lower_pair(const ct_pair *p, size_t s, size_t e, unsigned long long x) {
    while (s < e) {
        size_t m = s + (e - s) / 2;
        if (ct__bp_key(&p[m]) < x) s = m + 1; else e = m;
    }
    return s;
}

/* The same from s by galloping: O(log d) probes for an answer d places on, near s in
   memory (a step's new keys are dense among the old candidates: a binary search over the
   whole stretch per key cost a fifth of a 10,000-box step). */
CT__INLINE size_t ct__bp_gallop_pair(const ct_pair *p, size_t s, size_t e, unsigned long long x) {
    size_t step = 1;
    if (s >= e || ct__bp_key(&p[s]) >= x) return s;
    while (step < e - s && ct__bp_key(&p[s + step]) < x) {   /* p[s] < x holds */
        s += step;
        step *= 2;
    }
    return ct__bp_lower_pair(p, s + 1, step < e - s ? s + step : e, x);
}

/* The counts of one stretch of a step (see ct__bp_step). */
typedef struct ct__bpstretch { size_t i0, i1, k0, k1, cand, pairs, added, removed; } ct__bpstretch;

/* The writer of a stretch: pass 0 tests a candidate (now[pos] = overlap) and counts it;
   pass 1 writes it (when cand is not NULL), its was bit, and the pair, added or removed it
   makes. Pairs are written branch-free (a quarter of the candidates fail, at random) up to
   the stretch's count of them, so nothing is written past the stretch's part of the output. */
typedef struct ct__bpemit {
    const ct_aabb *boxes;
    const float *fb;   /* the float copy, or NULL: the exact test only */
    float fm;          /* its margin */
    unsigned char *now, *nwas;
    ct_pair *cand, *pairs, *added, *removed;
    size_t lim, nc, np, na, nr;
} ct__bpemit;
CT__INLINE void ct__bp_emit(ct__bpemit *e, int pass, ct_pair p, int w, size_t pos) {
    int x;
    if (pass == 0) {
        x = ct__bp_cand_test(e->fb, e->fm, e->boxes, p.a, p.b);
        e->now[pos] = (unsigned char)x;
    } else {
        x = e->now[pos];
        if (e->cand) e->cand[e->nc] = p;
        e->nwas[e->nc] = (unsigned char)x;
        if (e->np < e->lim) e->pairs[e->np] = p;
        if (x != w) {
            if (x) e->added[e->na] = p;
            else e->removed[e->nr] = p;
        }
    }
    e->nc++;
    e->np += (size_t)x;
    e->na += (size_t)(x & !w);
    e->nr += (size_t)(w & !x);
}

/* Pass 0 over a run of old candidates c[i, j) that no new key repeats: tests each kept one
   into now[i + k] and adds the counts to e's. The counters are locals: through e, every byte
   store to now would make the compiler reload and store them (a char may alias anything). */
CT__INLINE void ct__bp_run0(const ct_pair *c, const unsigned char *was, const unsigned char *mark, size_t i, size_t j,
                            size_t k, ct__bpemit *e) {
    const float *fb = e->fb;
    const ct_aabb *boxes = e->boxes;
    float m = e->fm;
    unsigned char *now = e->now + k;
    size_t nc = 0, np = 0, na = 0, nr = 0;
    for (; i < j; ++i) {
        ct_pair p = c[i];
        size_t w = was[i], x;
        if (mark && ((mark[p.a >> 3] >> (p.a & 7)) | (mark[p.b >> 3] >> (p.b & 7))) & 1) {
            nr += w;   /* dropped: removed if it was a pair */
            continue;
        }
        if (i + CT__BP_AHEAD < j)
            CT__BP_PREFETCH(fb ? (const void *)(fb + 6 * (size_t)c[i + CT__BP_AHEAD].b) : (const void *)&boxes[c[i + CT__BP_AHEAD].b]);
        x = (size_t)ct__bp_cand_test(fb, m, boxes, p.a, p.b);
        now[i] = (unsigned char)x;
        nc++;
        np += x;
        na += x & (w ^ 1);
        nr += w & (x ^ 1);
    }
    e->nc += nc;
    e->np += np;
    e->na += na;
    e->nr += nr;
}

/* Pass 1 over the same run: writes the kept candidates (when e->cand is not NULL; with no
   escapes, mark is NULL, the candidates stay and pass 0 wrote the was bytes in place), their
   was bytes, the pairs (up to e->lim) and the added and removed ones. Locals again. */
CT__INLINE void ct__bp_run1(const ct_pair *c, const unsigned char *was, const unsigned char *mark, size_t i, size_t j,
                            size_t k, ct__bpemit *e) {
    const unsigned char *now = e->now + k;
    unsigned char *nwas = e->nwas;
    ct_pair *cand = e->cand, *pairs = e->pairs;
    size_t nc = e->nc, np = e->np, na = e->na, nr = e->nr, lim = e->lim;
    for (; i < j; ++i) {
        ct_pair p = c[i];
        size_t w = was[i], x;
        if (mark && ((mark[p.a >> 3] >> (p.a & 7)) | (mark[p.b >> 3] >> (p.b & 7))) & 1) {
            if (w) e->removed[nr++] = p;
            continue;
        }
        x = now[i];
        if (mark) {
            if (cand) cand[nc] = p;
            nwas[nc] = (unsigned char)x;
        }
        if (np < lim) pairs[np] = p;
        if (CT__BP_RARE(x != w)) {
            if (x) e->added[na++] = p;
            else e->removed[nr++] = p;
        }
        nc++;
        np += x;
    }
    e->nc = nc;
    e->np = np;
    e->na = na;
    e->nr = nr;
}

/* One stretch of the merge of the old candidates c[i0, i1) (their was bits) with the new keys
   key[k0, k1): an old candidate of a marked box is dropped (removed, if it was a pair: its fat
   boxes no longer overlap) unless a new key repeats it; the others, and the new keys (was 0),
   are this step's candidates. Runs of old candidates between new keys go through
   ct__bp_run0 / ct__bp_run1. A candidate's now byte sits at i + k, the positions reached in
   the two lists. */
CT__INLINE void ct__bp_stretch(const ct_pair *c, const unsigned char *was, const unsigned long long *key,
                               const unsigned char *mark, int pass, ct__bpstretch *r, ct__bpemit *e) {
    size_t i = r->i0, k = r->k0;
    e->nc = e->np = e->na = e->nr = 0;
    for (;;) {
        size_t j = k < r->k1 ? ct__bp_gallop_pair(c, i, r->i1, key[k]) : r->i1;   /* old ones below the next new key */
        ct_pair p;
        if (pass == 0) ct__bp_run0(c, was, mark, i, j, k, e);
        else ct__bp_run1(c, was, mark, i, j, k, e);
        i = j;
        if (k == r->k1) break;
        p.a = (int)(key[k] >> 32);
        p.b = (int)(key[k] & 0xffffffffu);
        if (i < r->i1 && ct__bp_key(&c[i]) == key[k]) {
            ct__bp_emit(e, pass, p, was[i], i + k);
            ++i;
        } else {
            ct__bp_emit(e, pass, p, 0, i + k);
        }
        ++k;
    }
    if (pass == 0) { r->cand = e->nc; r->pairs = e->np; r->added = e->na; r->removed = e->nr; }
}
CT__PRIVATE void ct__bp_stretch0(const ct_pair *c, const unsigned char *was, const unsigned long long *key,
                                 const unsigned char *mark, ct__bpstretch *r, ct__bpemit *e) {
    ct__bp_stretch(c, was, key, mark, 0, r, e);
}
CT__PRIVATE void ct__bp_stretch1(const ct_pair *c, const unsigned char *was, const unsigned long long *key,
                                 const unsigned char *mark, ct__bpstretch *r, ct__bpemit *e) {
    ct__bp_stretch(c, was, key, mark, 1, r, e);
}

/* An array for n > 0 elements of sz bytes: spare when it is large enough, else a new one with
   room for an eighth more (a step's counts vary a little). *cap = its capacity. */
CT__PRIVATE void *ct__bp_array(const ct_allocator *a, void *spare, size_t spare_cap, size_t n, size_t sz, size_t *cap) {
    if (spare && spare_cap >= n) { *cap = spare_cap; return spare; }
    *cap = n + n / 8 + 64;
    return ct__alloc(a, ct__array_bytes((long long)*cap, sz));
}

/* A step that keeps the candidates of the boxes that did not escape: merges the old
   candidates with the new keys key[0..nk) (those of the boxes marked in mark; mark NULL and
   nk 0 when none escaped), tests every candidate once and writes the new candidates (only
   when some escaped: *cand, else the old ones stay), their was bits (*wasp) and the pairs,
   added and removed, all sorted, in two passes over fixed stretches of the old candidates
   (identical for any thread count). Outputs come from the ct_bp's allocator; on failure
   nothing is kept. */
CT__PRIVATE ct_status ct__bp_step(ct_bp *bp, ct_scratch *s, const ct_aabb *boxes, const unsigned long long *key,
                                  size_t nk, const unsigned char *mark, int T, ct_pairs *cand, unsigned char **wasp,
                                  ct_pairs *np, ct_pairs *na, ct_pairs *nr, size_t cap[3]) {
    const ct_pair *c = bp->ct__cand.items;
    const ct_allocator *al = &bp->ct__alloc;
    size_t nold = bp->ct__cand.count, nch = (nold + CT__BP_FCHUNK - 1) / CT__BP_FCHUNK, *off, tot[4] = { 0, 0, 0, 0 }, q;
    ct__bpstretch *r;
    unsigned char *now, *nwas = NULL;
    float fm = ct__bp_fmargin(bp);
    long long t;
    if (nch == 0) nch = 1;
    r = CT__SALLOC(s, ct__bpstretch, nch);
    off = CT__SALLOC(s, size_t, 4 * nch);
    if (!r || !off) return CT_NO_MEMORY;
    /* with no escapes every candidate stays where it is, so the tests go straight into the new
       was bytes (a spare array: no fresh pages); else into the scratch, at i + k */
    if (!mark && nold) {
        nwas = (unsigned char *)ct__bp_array(al, bp->ct__wspare, bp->ct__wspare_cap, nold, 1, &cap[1]);
        now = nwas;
    } else {
        now = CT__SALLOC(s, unsigned char, nold + nk + 1);
    }
    if (!now) return CT_NO_MEMORY;
    for (q = 0; q < nch; ++q) {
        r[q].i0 = q * CT__BP_FCHUNK;
        r[q].i1 = r[q].i0 + CT__BP_FCHUNK < nold ? r[q].i0 + CT__BP_FCHUNK : nold;
        r[q].k0 = q == 0 ? 0 : ct__bp_lower_key(key, nk, ct__bp_key(&c[r[q].i0]));
        r[q].k1 = q == nch - 1 ? nk : ct__bp_lower_key(key, nk, ct__bp_key(&c[r[q].i1]));
    }
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) if (T > 1 && nch > 1)
#endif
    for (t = 0; t < (long long)nch; ++t) {
        ct__bpemit e;
        memset(&e, 0, sizeof e);
        e.boxes = boxes;
        e.fm = fm;
        e.fb = ct__bp_fcopy(bp, fm);
        e.now = now;
        ct__bp_stretch0(c, bp->ct__was, key, mark, &r[t], &e);
    }
    for (q = 0; q < nch; ++q) {
        off[4 * q] = tot[0]; tot[0] += r[q].cand;
        off[4 * q + 1] = tot[1]; tot[1] += r[q].pairs;
        off[4 * q + 2] = tot[2]; tot[2] += r[q].added;
        off[4 * q + 3] = tot[3]; tot[3] += r[q].removed;
    }
    cand->items = NULL;
    cand->count = 0;
    /* candidates, was bits and pairs go into the arrays a step before replaced when they are
       large enough: a fresh array costs a page fault per 4 KB written */
    if (mark && tot[0]) cand->items = (ct_pair *)ct__bp_array(al, bp->ct__cspare, bp->ct__cspare_cap, tot[0], sizeof(ct_pair), &cap[0]);
    if (tot[0] && !nwas) nwas = (unsigned char *)ct__bp_array(al, bp->ct__wspare, bp->ct__wspare_cap, tot[0], 1, &cap[1]);
    if (tot[1]) np->items = (ct_pair *)ct__bp_array(al, bp->ct__pspare, bp->ct__pspare_cap, tot[1], sizeof(ct_pair), &cap[2]);
    if (tot[2]) na->items = (ct_pair *)ct__alloc(al, ct__array_bytes((long long)tot[2], sizeof(ct_pair)));
    if (tot[3]) nr->items = (ct_pair *)ct__alloc(al, ct__array_bytes((long long)tot[3], sizeof(ct_pair)));
    if ((mark && tot[0] && !cand->items) || (tot[0] && !nwas) || (tot[1] && !np->items) || (tot[2] && !na->items) ||
        (tot[3] && !nr->items)) {
        if (cand->items != bp->ct__cspare) ct__free(al, cand->items);
        if (nwas != bp->ct__wspare) ct__free(al, nwas);
        if (np->items == bp->ct__pspare) np->items = NULL;
        cand->items = NULL;
        return CT_NO_MEMORY;   /* the caller frees np, na and nr */
    }
    /* nothing fails below: the spares taken are the new arrays (capacities in the ct_bp; the
       caller turns the arrays they replace into spares) */
    if (cand->items && cand->items == bp->ct__cspare) { bp->ct__cspare = NULL; bp->ct__cspare_cap = 0; }
    if (nwas && nwas == bp->ct__wspare) { bp->ct__wspare = NULL; bp->ct__wspare_cap = 0; }
    if (np->items && np->items == bp->ct__pspare) { bp->ct__pspare = NULL; bp->ct__pspare_cap = 0; }
    if (mark) cand->count = tot[0];
    np->count = tot[1];
    na->count = tot[2];
    nr->count = tot[3];
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) if (T > 1 && nch > 1)
#endif
    for (t = 0; t < (long long)nch; ++t) {
        size_t *o = off + 4 * t;
        ct__bpemit e;
        e.boxes = boxes;
        e.fb = NULL;
        e.fm = 0;
        e.now = now;
        e.cand = cand->items ? cand->items + o[0] : NULL;
        e.nwas = nwas ? nwas + o[0] : NULL;
        e.pairs = np->items ? np->items + o[1] : NULL;
        e.added = na->items ? na->items + o[2] : NULL;
        e.removed = nr->items ? nr->items + o[3] : NULL;
        e.lim = r[t].pairs;
        ct__bp_stretch1(c, bp->ct__was, key, mark, &r[t], &e);
    }
    *wasp = nwas;
    (void)T;
    return CT_OK;
}

/* One merge of x[x0, x1) and y[y0, y1) (both sorted): the pairs of x not in y into ox, those
   of y not in x into oy; returns their counts in *nx, *ny. */
CT__PRIVATE void ct__bp_diff_range(const ct_pair *x, size_t x0, size_t x1, const ct_pair *y, size_t y0, size_t y1,
                                   ct_pair *ox, size_t *nx, ct_pair *oy, size_t *ny) {
    size_t wx = 0, wy = 0;
    while (x0 < x1 && y0 < y1) {
        unsigned long long kx = ct__bp_key(&x[x0]), ky = ct__bp_key(&y[y0]);
        if (kx < ky) ox[wx++] = x[x0++];
        else if (ky < kx) oy[wy++] = y[y0++];
        else { ++x0; ++y0; }
    }
    while (x0 < x1) ox[wx++] = x[x0++];
    while (y0 < y1) oy[wy++] = y[y0++];
    *nx = wx;
    *ny = wy;
}
/* *ox = x \ y and *oy = y \ x for sorted pair lists over indices below n, by one merge in
   CT__BP_DCHUNKS ranges of a: each range writes into its own stretch of scratch as long as
   its part of x (of y), and the stretches are then packed into the outputs. */
CT__PRIVATE ct_status ct__bp_diff(const ct_bp *bp, ct_scratch *s, const ct_pairs *x, const ct_pairs *y, int n, int T,
                                  ct_pairs *ox, ct_pairs *oy) {
    size_t *xo = CT__SALLOC(s, size_t, CT__BP_DCHUNKS + 1), *yo = CT__SALLOC(s, size_t, CT__BP_DCHUNKS + 1);
    size_t *cx = CT__SALLOC(s, size_t, CT__BP_DCHUNKS + 1), *cy = CT__SALLOC(s, size_t, CT__BP_DCHUNKS + 1);
    ct_pair *bx = x->count ? CT__SALLOC(s, ct_pair, x->count) : NULL, *by = y->count ? CT__SALLOC(s, ct_pair, y->count) : NULL;
    size_t tx = 0, ty = 0;
    int k;
    ox->items = oy->items = NULL;
    ox->count = oy->count = 0;
    if (!xo || !yo || !cx || !cy || (x->count && !bx) || (y->count && !by)) return CT_NO_MEMORY;
    for (k = 0; k <= CT__BP_DCHUNKS; ++k) {
        int a = (int)((long long)n * k / CT__BP_DCHUNKS);
        xo[k] = k == CT__BP_DCHUNKS ? x->count : ct__bp_lower_pair(x->items, 0, x->count, (unsigned long long)(unsigned)a << 32);
        yo[k] = k == CT__BP_DCHUNKS ? y->count : ct__bp_lower_pair(y->items, 0, y->count, (unsigned long long)(unsigned)a << 32);
    }
#if CT__BP_OMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(T) if (T > 1 && x->count + y->count > 65536)
#endif
    for (k = 0; k < CT__BP_DCHUNKS; ++k)
        ct__bp_diff_range(x->items, xo[k], xo[k + 1], y->items, yo[k], yo[k + 1], bx ? bx + xo[k] : NULL, &cx[k],
                          by ? by + yo[k] : NULL, &cy[k]);
    for (k = 0; k < CT__BP_DCHUNKS; ++k) { tx += cx[k]; ty += cy[k]; }
    if (tx) ox->items = (ct_pair *)ct__alloc(&bp->ct__alloc, ct__array_bytes((long long)tx, sizeof(ct_pair)));
    if (ty) oy->items = (ct_pair *)ct__alloc(&bp->ct__alloc, ct__array_bytes((long long)ty, sizeof(ct_pair)));
    if ((tx && !ox->items) || (ty && !oy->items)) {
        ct_pairs_free(ox);
        ct_pairs_free(oy);
        return CT_NO_MEMORY;
    }
    ox->count = tx;
    oy->count = ty;
    for (k = 0, tx = ty = 0; k < CT__BP_DCHUNKS; ++k) {
        if (cx[k]) memcpy(ox->items + tx, bx + xo[k], cx[k] * sizeof(ct_pair));
        if (cy[k]) memcpy(oy->items + ty, by + yo[k], cy[k] * sizeof(ct_pair));
        tx += cx[k];
        ty += cy[k];
    }
    (void)T;
    return CT_OK;
}

CTDEF ct_status ct_bp_update(ct_bp *bp, const ct_aabb *boxes, int n, const int *moved, int nmoved) {
    ct_scratch local, *s;
    ct__mark mk;
    ct_pairs np, na, nr, nc;
    int T = ct__bp_threads(), bad = 0, i, ne = 0, *esc = NULL, *ecnt, nmax, fresh = 1;
    unsigned long long *key = NULL;
    unsigned char *mark = NULL, *was = NULL;
    size_t nk = 0, cap[3] = { 0, 0, 0 };
    long long cnt, nch, q;
    ct_status st = CT_OK;
    if (!bp || !bp->ct__alloc.alloc || n < 0 || (n > 0 && !boxes) || (moved && nmoved < 0)) return CT_INVALID;
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(T) if (T > 1 && n > 65536) reduction(| : bad)
#endif
    for (i = 0; i < n; ++i) bad |= !ct__bp_valid(&boxes[i]);
    if (moved)
        for (i = 0; i < nmoved; ++i) bad |= moved[i] < 0 || moved[i] >= n;
    if (bad) return CT_INVALID;
    memset(&np, 0, sizeof np);
    np.ct__alloc = na.ct__alloc = nr.ct__alloc = nc.ct__alloc = bp->ct__alloc;
    na.items = nr.items = nc.items = NULL;
    na.count = nr.count = nc.count = 0;
    nmax = n > bp->ct__n ? n : bp->ct__n;   /* the previous pairs index the previous boxes */
    s = ct__scratch_begin(&bp->ct__scr, &local, &bp->ct__alloc);
    mk = ct__scratch_mark(s);
    if (bp->ct__valid && n == bp->ct__n) {
        /* the boxes that left their fat box, in index order */
        fresh = 0;
        cnt = moved ? nmoved : n;
        nch = (cnt + CT__BP_FCHUNK - 1) / CT__BP_FCHUNK;
        esc = CT__SALLOC(s, int, cnt + 1);
        ecnt = CT__SALLOC(s, int, nch + 1);
        if (!esc || !ecnt) st = CT_NO_MEMORY;
        if (st == CT_OK) {   /* each chunk packs its escapes at its start, then the chunks are packed */
#if CT__BP_OMP
#pragma omp parallel for schedule(static) num_threads(T) if (T > 1 && nch > 1)
#endif
            for (q = 0; q < nch; ++q) {
                long long j, j0 = q * CT__BP_FCHUNK, j1 = j0 + CT__BP_FCHUNK < cnt ? j0 + CT__BP_FCHUNK : cnt;
                int w = 0;
                for (j = j0; j < j1; ++j) {
                    int id = moved ? moved[j] : (int)j;
                    if (!ct__bp_inside(&boxes[id], &bp->ct__fat[id])) esc[j0 + w++] = id;
                    if (!moved) ct__bp_fset(bp->ct__fbox + 6 * (size_t)id, &boxes[id]);
                }
                ecnt[q] = w;
            }
            if (moved)   /* on this thread: a moved list may repeat an index */
                for (i = 0; i < nmoved; ++i) ct__bp_fset(bp->ct__fbox + 6 * (size_t)moved[i], &boxes[moved[i]]);
            for (q = 0; q < nch; ++q) {
                if (ecnt[q] && ne != (int)(q * CT__BP_FCHUNK)) memmove(esc + ne, esc + q * CT__BP_FCHUNK, (size_t)ecnt[q] * sizeof *esc);
                ne += ecnt[q];
            }
        }
        if (st == CT_OK && moved) ne = (int)ct__bp_unique(esc, (size_t)ne);
        if (st == CT_OK && ne > 0) {
            st = ne > n / CT__BP_REBUILD ? CT_INVALID : ct__bp_requery(bp, s, boxes, esc, ne, T, &key, &nk, &mark);
            if (st == CT_INVALID) fresh = 1;
        }
    }
    if (fresh) {   /* from scratch: the pairs by the exact test, added and removed by a merge */
        st = ct__bp_rebuild(bp, s, boxes, n, T);
        if (st == CT_OK && bp->ct__cand.count && !(was = (unsigned char *)ct__alloc(&bp->ct__alloc, bp->ct__cand.count)))
            st = CT_NO_MEMORY;
        if (st == CT_OK) st = ct__bp_filter(bp, s, boxes, T, was, &np);
        if (st == CT_OK) st = ct__bp_diff(bp, s, &np, &bp->pairs, nmax, T, &na, &nr);
    } else if (st == CT_OK) {
        st = ct__bp_step(bp, s, boxes, key, nk, mark, T, &nc, &was, &np, &na, &nr, cap);
    }
    ct__scratch_end(s, &local, mk);
    if (st != CT_OK) {
        ct_pairs_free(&np);
        ct_pairs_free(&na);
        ct_pairs_free(&nr);
        ct__free(&bp->ct__alloc, was);
        ct__bp_free_grid(bp);
        return st;
    }
    /* the arrays this step replaces become the next step's spares */
    if (fresh) {   /* exact sizes; the arrays before went with the old grid */
        cap[0] = bp->ct__cand.count;
        cap[1] = bp->ct__cand.count;
        cap[2] = np.count;
    } else if (mark) {
        ct__free(&bp->ct__alloc, bp->ct__cspare);
        bp->ct__cspare = bp->ct__cand.items;
        bp->ct__cspare_cap = bp->ct__cand.items ? bp->ct__ccap : 0;
        bp->ct__cand = nc;
    } else {
        cap[0] = bp->ct__ccap;
    }
    if (bp->ct__was) {
        ct__free(&bp->ct__alloc, bp->ct__wspare);
        bp->ct__wspare = bp->ct__was;
        bp->ct__wspare_cap = bp->ct__wcap;
    }
    if (bp->pairs.items) {
        ct__free(&bp->ct__alloc, bp->ct__pspare);
        bp->ct__pspare = bp->pairs.items;
        bp->ct__pspare_cap = bp->ct__pcap;
        bp->pairs.items = NULL;
    }
    bp->ct__was = was;
    bp->ct__ccap = cap[0];
    bp->ct__wcap = cap[1];
    bp->ct__pcap = cap[2];
    bp->ct__valid = 1;
    ct_pairs_free(&bp->pairs);
    ct_pairs_free(&bp->added);
    ct_pairs_free(&bp->removed);
    bp->pairs = np;
    bp->added = na;
    bp->removed = nr;
    return CT_OK;
}

/* ---- queries on a ct_bp ---------------------------------------------------------------- */
CTDEF void ct_hits_free(ct_hits *h) {
    if (!h) return;
    if (h->items && h->ct__alloc.free) h->ct__alloc.free(h->items, h->ct__alloc.user);
    h->items = NULL;
    h->count = 0;
}

/* out = hits[0..n) in the caller's memory. */
CT__PRIVATE ct_status ct__bp_hits_out(const ct_hit *hits, size_t n, ct_hits *out) {
    if (n == 0) return CT_OK;
    out->items = (ct_hit *)ct__alloc(&out->ct__alloc, ct__array_bytes((long long)n, sizeof(ct_hit)));
    if (!out->items) return CT_NO_MEMORY;
    memcpy(out->items, hits, n * sizeof *hits);
    out->count = n;
    return CT_OK;
}

CT__PRIVATE ct_status ct__bp_query_begin(const ct_bp *bp, const ct_aabb *boxes, const ct_allocator *a, ct_hits *out) {
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->ct__alloc = ct__allocator(a);
    if (!bp || !bp->ct__valid || (bp->ct__n > 0 && !boxes)) return CT_INVALID;
    return CT_OK;
}

CTDEF ct_status ct_bp_query_box(const ct_bp *bp, const ct_aabb *boxes, ct_aabb q, const ct_allocator *a, ct_hits *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct__bpvec l;
    ct_hit *h;
    size_t i, n, w = 0;
    ct_status st = ct__bp_query_begin(bp, boxes, a, out);
    if (st != CT_OK) return st;
    if (!ct__bp_valid(&q)) return CT_INVALID;
    s = ct__scratch_begin(NULL, &local, &out->ct__alloc);
    mk = ct__scratch_mark(s);
    memset(&l, 0, sizeof l);
    if (!ct__bp_gquery(bp, s, &q, -1, &l)) st = CT_NO_MEMORY;
    n = st == CT_OK ? ct__bp_unique(l.v, l.n) : 0;
    h = CT__SALLOC(s, ct_hit, n);
    if (n && !h) st = CT_NO_MEMORY;
    for (i = 0; st == CT_OK && i < n; ++i)
        if (ct__bp_aabb_overlap(&boxes[l.v[i]], &q)) { h[w].id = l.v[i]; h[w++].t = 0; }
    if (st == CT_OK) st = ct__bp_hits_out(h, w, out);
    ct__scratch_end(s, &local, mk);
    return st;
}

/* Entry distance of the ray into b within [0, tmax] (slabs), or -1 for a miss. */
CT__INLINE ct_real ct__bp_slab(const ct_aabb *b, ct_vec3 o, ct_vec3 d, ct_real tmax) {
    ct_real t0 = 0, t1 = tmax;
    int k;
    for (k = 0; k < 3; ++k) {
        ct_real ok = ct__vget(o, k), dk = ct__vget(d, k), lo = ct__vget(b->lo, k), hi = ct__vget(b->hi, k);
        if (dk == 0) {
            if (ok < lo || ok > hi) return -1;
        } else {
            ct_real ta = (lo - ok) / dk, tb = (hi - ok) / dk;
            if (ta > tb) { ct_real t = ta; ta = tb; tb = t; }
            t0 = ct__max(t0, ta);
            t1 = ct__min(t1, tb);
            if (t0 > t1) return -1;
        }
    }
    return t0;
}

/* The ray is clipped to the fat boxes' bounds and cut into segments a few cells long; each
   segment's (widened) bounding box is queried in the grid, and a hit belongs to the segment
   holding its entry distance, so no box is reported twice and segments come out in order. */
CTDEF ct_status ct_bp_query_ray(const ct_bp *bp, const ct_aabb *boxes, ct_vec3 origin, ct_vec3 dir, ct_real max_t,
                                const ct_allocator *a, ct_hits *out) {
    ct_scratch local, *s;
    ct__mark mk;
    ct__bpvec l;
    ct_hit *h = NULL;
    size_t nh = 0, caph = 0;
    ct_real tb0, tb1, dt, dmax, hmax, widen;
    long long nseg, k;
    ct_status st = ct__bp_query_begin(bp, boxes, a, out);
    if (st != CT_OK) return st;
    if (!ct__finite3(origin) || !ct__finite3(dir) || ct__maxabs(dir) == 0 || !(max_t >= 0)) return CT_INVALID;
    if (bp->ct__n == 0) return CT_OK;
    tb1 = ct__bp_slab(&bp->ct__bounds, origin, dir, max_t);
    if (tb1 < 0) return CT_OK;
    tb0 = tb1;
    {   /* exit from the bounds: entry of the reversed ray from far along */
        ct_real lo = tb0, hi = max_t;
        int k2;
        for (k2 = 0; k2 < 3; ++k2) {
            ct_real dk = ct__vget(dir, k2), ok = ct__vget(origin, k2);
            if (dk != 0) hi = ct__min(hi, ct__max((ct__vget(bp->ct__bounds.lo, k2) - ok) / dk, (ct__vget(bp->ct__bounds.hi, k2) - ok) / dk));
        }
        tb1 = ct__max(lo, hi);
    }
    dmax = ct__maxabs(dir);
    hmax = ct__max(bp->ct__h[0], ct__max(bp->ct__h[1], bp->ct__h[2]));
    dt = (ct_real)CT__BP_RAYSEG * hmax / dmax;
    nseg = dt > 0 && (double)(tb1 - tb0) / (double)dt < 65536.0 ? (long long)((double)(tb1 - tb0) / (double)dt) + 1 : 65536;
    if (!(dt > 0)) nseg = 1;
    dt = (tb1 - tb0) / (ct_real)nseg;
    widen = 8 * CT__EPS * (ct__maxabs(origin) + tb1 * dmax + bp->ct__mag);
    s = ct__scratch_begin(NULL, &local, &out->ct__alloc);
    mk = ct__scratch_mark(s);
    for (k = 0; k < nseg && st == CT_OK; ++k) {
        ct_real ta = tb0 + dt * (ct_real)k, tb = k + 1 == nseg ? tb1 : tb0 + dt * (ct_real)(k + 1);
        ct_vec3 pa = ct__add(origin, ct__scale(dir, ta)), pb = ct__add(origin, ct__scale(dir, tb));
        ct_aabb r;
        size_t i, n, h0 = nh;
        r.lo = ct__sub(ct__vmin(pa, pb), ct__v3(widen, widen, widen));
        r.hi = ct__add(ct__vmax(pa, pb), ct__v3(widen, widen, widen));
        memset(&l, 0, sizeof l);
        if (!ct__bp_gquery(bp, s, &r, -1, &l)) { st = CT_NO_MEMORY; break; }
        n = ct__bp_unique(l.v, l.n);
        if (nh + n > caph) {
            ct_hit *nhits;
            caph = 2 * (nh + n) + 64;
            nhits = CT__SALLOC(s, ct_hit, caph);
            if (!nhits) { st = CT_NO_MEMORY; break; }
            if (nh) memcpy(nhits, h, nh * sizeof *h);
            h = nhits;
        }
        for (i = 0; i < n; ++i) {
            ct_real t = ct__bp_slab(&boxes[l.v[i]], origin, dir, max_t);
            if (t < 0 || (k > 0 && t < ta) || (k + 1 < nseg && t >= tb)) continue;
            h[nh].id = l.v[i];
            h[nh++].t = t;
        }
        ct__bp_sort_hits(h + h0, nh - h0);
    }
    if (st == CT_OK) st = ct__bp_hits_out(h, nh, out);
    ct__scratch_end(s, &local, mk);
    return st;
}

/* ---- periodic boundaries --------------------------------------------------------------
   The boxes against the images of the boxes shifted by one period on some periodic axes,
   kept only where they reach the boxes' bounds (so mostly the boundary layers), by the
   bipartite search; plus the ordinary pairs for shift 0. Images are generated in the order
   (box, shift), so the bipartite output is already sorted by (a, b, shift). */
CTDEF void ct_ppairs_free(ct_ppairs *p) {
    if (!p) return;
    if (p->items && p->ct__alloc.free) p->ct__alloc.free(p->items, p->ct__alloc.user);
    p->items = NULL;
    p->count = 0;
}

CT__INLINE int ct__bp_pless(const ct_ppair *x, const ct_ppair *y) {
    int k;
    if (x->a != y->a) return x->a < y->a;
    if (x->b != y->b) return x->b < y->b;
    for (k = 0; k < 3; ++k)
        if (x->shift[k] != y->shift[k]) return x->shift[k] < y->shift[k];
    return 0;
}

CTDEF ct_status ct_broadphase_periodic(const ct_aabb *boxes, int n, ct_aabb cell, const int periodic[3],
                                       const ct_allocator *a, ct_ppairs *out) {
    ct_pairs self, bip;
    ct_aabb R, *img = NULL;
    ct_scratch local, *s;
    ct__mark mk;
    int *src = NULL, (*sh)[3] = NULL, i, k, nimg = 0, cap, per[3], bad = 0;
    ct_real L[3];
    size_t x, y, w;
    ct_status st;
    if (!out) return CT_INVALID;
    memset(out, 0, sizeof *out);
    out->ct__alloc = ct__allocator(a);
    if (!periodic || n < 0 || (n > 0 && !boxes) || !ct__finite3(cell.lo) || !ct__finite3(cell.hi)) return CT_INVALID;
    for (k = 0; k < 3; ++k) {
        per[k] = periodic[k] != 0;
        L[k] = ct__vget(cell.hi, k) - ct__vget(cell.lo, k);
        if (per[k] && !(L[k] > 0 && ct__finite(L[k]))) return CT_INVALID;
    }
    for (i = 0; i < n; ++i) {
        bad |= !ct__bp_valid(&boxes[i]);
        for (k = 0; k < 3; ++k)
            if (per[k]) {
                ct_real lo = ct__vget(boxes[i].lo, k), hi = ct__vget(boxes[i].hi, k);
                bad |= !(lo >= ct__vget(cell.lo, k) && lo < ct__vget(cell.hi, k) && hi - lo <= L[k]);
            }
    }
    if (bad) return CT_INVALID;
    memset(&self, 0, sizeof self);
    memset(&bip, 0, sizeof bip);
    st = ct_broadphase(boxes, n, &out->ct__alloc, &self);
    if (st != CT_OK) return st;
    s = ct__scratch_begin(NULL, &local, &out->ct__alloc);
    mk = ct__scratch_mark(s);
    R = n ? boxes[0] : cell;
    for (i = 1; i < n; ++i) ct__bp_bounds_add(&R, &boxes[i]);
    cap = 0;
    for (i = 0; i < n && st == CT_OK; ++i) {
        int c;
        for (c = 0; c < 27; ++c) {
            int d[3] = { c / 9 - 1, (c / 3) % 3 - 1, c % 3 - 1 };
            ct_aabb b = boxes[i];
            if ((!per[0] && d[0]) || (!per[1] && d[1]) || (!per[2] && d[2]) || (!d[0] && !d[1] && !d[2])) continue;
            b.lo = ct__v3(b.lo.x + (ct_real)d[0] * L[0], b.lo.y + (ct_real)d[1] * L[1], b.lo.z + (ct_real)d[2] * L[2]);
            b.hi = ct__v3(b.hi.x + (ct_real)d[0] * L[0], b.hi.y + (ct_real)d[1] * L[1], b.hi.z + (ct_real)d[2] * L[2]);
            if (!ct__bp_aabb_overlap(&b, &R)) continue;
            if (!ct__bp_valid(&b)) { st = CT_INVALID; break; }   /* a shift overflowed */
            if (nimg == cap) {
                int nc = 2 * cap + 1024;
                ct_aabb *ni = CT__SALLOC(s, ct_aabb, nc);
                int *ns = CT__SALLOC(s, int, nc), (*nsh)[3] = (int (*)[3])CT__SALLOC(s, int, 3 * (long long)nc);
                if (!ni || !ns || !nsh) { st = CT_NO_MEMORY; break; }
                if (nimg) {
                    memcpy(ni, img, (size_t)nimg * sizeof *img);
                    memcpy(ns, src, (size_t)nimg * sizeof *src);
                    memcpy(nsh, sh, (size_t)nimg * sizeof *sh);
                }
                img = ni; src = ns; sh = nsh; cap = nc;
            }
            img[nimg] = b;
            src[nimg] = i;
            sh[nimg][0] = d[0]; sh[nimg][1] = d[1]; sh[nimg][2] = d[2];
            ++nimg;
        }
    }
    if (st == CT_OK) st = ct__bp_entry(boxes, n, img, nimg, 0, &out->ct__alloc, &bip);
    if (st == CT_OK) {
        size_t nb = 0;
        for (x = 0; x < bip.count; ++x) nb += bip.items[x].a < src[bip.items[x].b];
        if (nb + self.count) {
            out->items = (ct_ppair *)ct__alloc(&out->ct__alloc, ct__array_bytes((long long)(nb + self.count), sizeof(ct_ppair)));
            if (!out->items) st = CT_NO_MEMORY;
        }
        for (x = 0, y = 0, w = 0; st == CT_OK && (x < bip.count || y < self.count);) {
            ct_ppair p, q;
            if (x < bip.count && bip.items[x].a >= src[bip.items[x].b]) { ++x; continue; }
            if (x < bip.count) {
                p.a = bip.items[x].a;
                p.b = src[bip.items[x].b];
                for (k = 0; k < 3; ++k) p.shift[k] = sh[bip.items[x].b][k];
            }
            if (y < self.count) {
                q.a = self.items[y].a;
                q.b = self.items[y].b;
                q.shift[0] = q.shift[1] = q.shift[2] = 0;
            }
            if (y == self.count || (x < bip.count && ct__bp_pless(&p, &q))) { out->items[w++] = p; ++x; }
            else { out->items[w++] = q; ++y; }
        }
        if (st == CT_OK) out->count = w;
    }
    ct_pairs_free(&bip);
    ct_pairs_free(&self);
    ct__scratch_end(s, &local, mk);
    if (st != CT_OK) ct_ppairs_free(out);
    return st;
}
