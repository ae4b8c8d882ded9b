/* fuzz-ci-runs: 40000 */
/* Fuzz ct_broadphase, ct_broadphase_bipartite and ct_broadphase_foreach on up to 64 decoded
   boxes (lattice corners so touching and identical boxes are common; zero-size, huge, NaN/Inf
   and inverted boxes) against a brute-force double loop: the same pairs, each once, sorted;
   CT_INVALID exactly when some box is invalid (NaN/Inf, lo > hi); foreach visits each pair
   once on any thread. */
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
    return 0;
}
