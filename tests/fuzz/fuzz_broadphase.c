/* fuzz-ci-runs: 40000 */
/* Fuzz ct_broadphase, ct_broadphase_bipartite and ct_broadphase_foreach on up to 64 decoded
   boxes (lattice corners so touching and identical boxes are common; zero-size, huge, NaN/Inf
   and inverted boxes) against a brute-force double loop: the same pairs, each once, sorted;
   CT_INVALID exactly when some box is invalid (NaN/Inf, lo > hi); foreach visits each pair
   once on any thread. Then up to 6 steps of motion through one ct_bp (decoded moves on the
   lattice, a moved list or none, now and then one box fewer): every step's pairs against the
   double loop, added and removed against the differences of consecutive steps. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fz_box_ok(const ct_aabb *b) {
    return fz_finite3(b->lo) && fz_finite3(b->hi) && b->lo.x <= b->hi.x && b->lo.y <= b->hi.y && b->lo.z <= b->hi.z;
}
static int fz_overlap(const ct_aabb *a, const ct_aabb *b) {
    return a->lo.x <= b->hi.x && b->lo.x <= a->hi.x && a->lo.y <= b->hi.y && b->lo.y <= a->hi.y &&
           a->lo.z <= b->hi.z && b->lo.z <= a->hi.z;
}

/* Boxes: a corner and a size per axis; sometimes a raw (possibly inverted or non-finite) box. */
static int fz_boxes(fz *f, ct_aabb *b, int max, double scale, int *valid) {
    int n = (int)(fz_byte(f) % (unsigned)(max + 1)), i;
    *valid = 1;
    for (i = 0; i < n; ++i) {
        unsigned d = fz_byte(f);
        if (i > 0 && d < 16) b[i] = b[d % i];
        else if (d == 16) { b[i].lo = fz_vec(f, scale); b[i].hi = fz_vec(f, scale); }
        else {
            ct_vec3 s = ct__v3((ct_real)(scale * (fz_byte(f) % 4)), (ct_real)(scale * (fz_byte(f) % 4)),
                               (ct_real)(scale * (fz_byte(f) % 4)));
            b[i].lo = fz_vec(f, scale);
            b[i].hi = ct__add(b[i].lo, s);
        }
        if (!fz_box_ok(&b[i])) *valid = 0;
    }
    return n;
}

typedef struct fz_seen { int n; unsigned char hit[64 * 64]; } fz_seen;
static void fz_visit(void *user, int a, int b, int thread) {
    fz_seen *s = (fz_seen *)user;
    FZ_CHECK(a >= 0 && a < b && b < s->n && thread >= 0);
    __atomic_fetch_add(&s->hit[a * 64 + b], 1, __ATOMIC_RELAXED);
}

/* Steps of motion through one ct_bp, checked against the double loop (A valid). */
static void fz_incremental(fz *f, ct_aabb *A, int na, double scale) {
    static const ct_real margins[4] = { 0, (ct_real)0.01, (ct_real)0.25, (ct_real)2 };
    unsigned char prev[64 * 64], cur[64 * 64];
    int step, nsteps = (int)(fz_byte(f) % 7), n = na, i, j;
    ct_bp bp;
    FZ_CHECK(ct_bp_init(&bp, margins[fz_byte(f) % 4], NULL) == CT_OK);
    memset(prev, 0, sizeof prev);
    for (step = 0; step < nsteps; ++step) {
        int moved[2 * 64], nm = 0, list = 0, ok = 1;
        size_t k = 0, ka = 0, kr = 0;
        if (step > 0) {
            unsigned d = fz_byte(f);
            list = d & 1;
            if ((d & 6) == 6 && n > 0) --n;
            for (i = 0; i < n; ++i) {
                unsigned m = fz_byte(f);
                if (m >= 96) continue;
                {   /* a shift of a quarter of the lattice step on one axis, or onto another box */
                    double q = scale * (double)((int)(m % 9) - 4) / 4;
                    ct_vec3 s = ct__v3(m % 3 == 0 ? (ct_real)q : 0, m % 3 == 1 ? (ct_real)q : 0, m % 3 == 2 ? (ct_real)q : 0);
                    if (m >= 90) A[i] = A[m % (unsigned)n];
                    else { A[i].lo = ct__add(A[i].lo, s); A[i].hi = ct__add(A[i].hi, s); }
                }
                moved[nm++] = i;
                if (m % 5 == 0) moved[nm++] = i;   /* repeats are fine */
                if (!fz_box_ok(&A[i])) ok = 0;
            }
        }
        if (!ok) {   /* a shift overflowed: refused, nothing changes */
            FZ_CHECK(ct_bp_update(&bp, A, n, list ? moved : NULL, nm) == CT_INVALID);
            break;
        }
        FZ_CHECK(ct_bp_update(&bp, A, n, list ? moved : NULL, nm) == CT_OK);
        memset(cur, 0, sizeof cur);
        for (i = 0; i < n; ++i)
            for (j = i + 1; j < n; ++j)
                if (fz_overlap(&A[i], &A[j])) {
                    cur[i * 64 + j] = 1;
                    FZ_CHECK(k < bp.pairs.count && bp.pairs.items[k].a == i && bp.pairs.items[k].b == j);
                    ++k;
                }
        FZ_CHECK(k == bp.pairs.count);
        for (i = 0; i < 64; ++i)
            for (j = i + 1; j < 64; ++j) {
                if (cur[i * 64 + j] && !prev[i * 64 + j]) {
                    FZ_CHECK(ka < bp.added.count && bp.added.items[ka].a == i && bp.added.items[ka].b == j);
                    ++ka;
                }
                if (prev[i * 64 + j] && !cur[i * 64 + j]) {
                    FZ_CHECK(kr < bp.removed.count && bp.removed.items[kr].a == i && bp.removed.items[kr].b == j);
                    ++kr;
                }
            }
        FZ_CHECK(ka == bp.added.count && kr == bp.removed.count);
        memcpy(prev, cur, sizeof prev);
    }
    ct_bp_free(&bp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    ct_aabb A[64], B[64];
    int na, nb, va, vb, i, j;
    size_t k;
    double scale = fz_scale(&f);
    ct_pairs p;
    ct_status st;
    fz_seen seen;
    na = fz_boxes(&f, A, 64, scale, &va);
    nb = fz_boxes(&f, B, 32, scale, &vb);

    st = ct_broadphase(A, na, NULL, &p);
    FZ_CHECK(st == (va ? CT_OK : CT_INVALID));
    if (st == CT_OK) {
        k = 0;
        for (i = 0; i < na; ++i)
            for (j = i + 1; j < na; ++j)
                if (fz_overlap(&A[i], &A[j])) {
                    FZ_CHECK(k < p.count && p.items[k].a == i && p.items[k].b == j);
                    ++k;
                }
        FZ_CHECK(k == p.count && (p.count > 0) == (p.items != NULL));
    } else {
        FZ_CHECK(p.count == 0 && p.items == NULL);
    }
    ct_pairs_free(&p);

    memset(&seen, 0, sizeof seen);
    seen.n = na;
    st = ct_broadphase_foreach(A, na, fz_visit, &seen);
    FZ_CHECK(st == (va ? CT_OK : CT_INVALID));
    if (st == CT_OK)
        for (i = 0; i < na; ++i)
            for (j = i + 1; j < na; ++j) FZ_CHECK(seen.hit[i * 64 + j] == fz_overlap(&A[i], &A[j]));

    st = ct_broadphase_bipartite(A, na, B, nb, NULL, &p);
    FZ_CHECK(st == (va && vb ? CT_OK : CT_INVALID));
    if (st == CT_OK) {
        k = 0;
        for (i = 0; i < na; ++i)
            for (j = 0; j < nb; ++j)
                if (fz_overlap(&A[i], &B[j])) {
                    FZ_CHECK(k < p.count && p.items[k].a == i && p.items[k].b == j);
                    ++k;
                }
        FZ_CHECK(k == p.count);
    } else {
        FZ_CHECK(p.count == 0 && p.items == NULL);
    }
    ct_pairs_free(&p);

    if (va) fz_incremental(&f, A, na, scale);
    return 0;
}
