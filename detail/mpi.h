/* contact.h detail: >>mpi - the broad phase of boxes spread over MPI ranks (CONTACT_MPI only).

   1. Decomposition (ct_mpi_decomp_build): every rank contributes box centres in proportion to
      its box count (MPI_Allgather of the counts, MPI_Allgatherv of the samples), and every rank
      runs the same recursive coordinate bisection on the same sample list (Berger & Bokhari
      1987; Zoltan's RCB): a region of ranks [r0, r1) is cut along the longest axis of its
      samples at the sample quantile (r1-r0)/2 / (r1-r0), so each rank's region ends up holding
      about the same number of centres. Deterministic: only comparisons of sample coordinates,
      sorted with a total order, so every rank builds the identical tree.
   2. Exchange (ct__mpi_exchange): each box goes to every rank whose half-open region meets the
      closed box (box lo < cut reaches below, box hi >= cut reaches above): MPI_Alltoall of the
      counts, one MPI_Alltoallv of records {box, local index, payload}. Records arrive in rank
      order and, per rank, in index order, so the searched set is sorted by global id.
   3. Search: ct_broadphase on the searched set; a pair is kept when the min corner of its
      intersection box lies in this rank's region. That corner lies in both boxes, so both meet
      the owner's region and were sent there: each pair is found on exactly one rank, and the
      <= comparisons are those of ct_broadphase itself, so the union is bit for bit its answer.

   Statuses are agreed after every step that can fail locally (MPI_Allreduce, MPI_MAX), so all
   ranks leave at the same point and no collective is left half-entered. */

#include <stdlib.h>

/* Samples per rank by default: the quantile of an RCB cut is then within about
   1/sqrt(CT_MPI_SAMPLES * ranks) of exact, a few percent of imbalance, for 24 bytes each. */
#define CT__MPI_SAMPLES CT_MPI_SAMPLES
/* Depth bound of the descent stack: the tree halves its ranks at every cut, so it is at most
   ceil(log2 INT_MAX) = 31 deep; the stack of a depth-first walk holds at most depth + 1. */
#define CT__MPI_STACK 64
/* Record alignment: payloads handed to the user are aligned like malloc's. */
#define CT__MPI_ALIGN ((size_t)16)

CT__INLINE ct_real ct__mpi_coord(ct_vec3 p, int axis) { return axis == 0 ? p.x : axis == 1 ? p.y : p.z; }

/* Centre of a box: halves first, so huge finite boxes do not overflow. */
CT__INLINE ct_vec3 ct__mpi_centre(const ct_aabb *b) {
    return ct__v3(b->lo.x / 2 + b->hi.x / 2, b->lo.y / 2 + b->hi.y / 2, b->lo.z / 2 + b->hi.z / 2);
}

/* The same status on every rank: the largest (CT_OK is 0). A failing MPI call is CT_INVALID. */
CT__PRIVATE ct_status ct__mpi_agree(MPI_Comm comm, ct_status st) {
    int v = (int)st, r = 0;
    if (MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) return CT_INVALID;
    return (ct_status)r;
}

/* Local check of the boxes and counts (no communication). */
CT__PRIVATE ct_status ct__mpi_check_boxes(const ct_aabb *boxes, int n) {
    int i;
    if (n < 0 || (n > 0 && !boxes)) return CT_INVALID;
    for (i = 0; i < n; ++i) {
        const ct_aabb *b = &boxes[i];
        if (!ct__finite3(b->lo) || !ct__finite3(b->hi) || !(b->lo.x <= b->hi.x) || !(b->lo.y <= b->hi.y) ||
            !(b->lo.z <= b->hi.z))
            return CT_INVALID;
    }
    return CT_OK;
}

/* ---- decomposition ------------------------------------------------------------------------ */
/* Total orders on the samples, one per leading axis (qsort has no context argument). */
#define CT__MPI_CMP(name, A, B, C)                                                                 \
    CT__PRIVATE int name(const void *pa, const void *pb) {                                         \
        const ct_vec3 *p = (const ct_vec3 *)pa, *q = (const ct_vec3 *)pb;                          \
        if (p->A != q->A) return p->A < q->A ? -1 : 1;                                             \
        if (p->B != q->B) return p->B < q->B ? -1 : 1;                                             \
        if (p->C != q->C) return p->C < q->C ? -1 : 1;                                             \
        return 0;                                                                                  \
    }
CT__MPI_CMP(ct__mpi_cmp_x, x, y, z)
CT__MPI_CMP(ct__mpi_cmp_y, y, z, x)
CT__MPI_CMP(ct__mpi_cmp_z, z, x, y)
#undef CT__MPI_CMP

/* Cuts the ranks [r0, r1) over the samples s[0..m); returns the child code (a cut index, or
   -rank-1 for a leaf). next: the next free cut index (preorder; ct__mpi_shape walks the same
   order). */
CT__PRIVATE int ct__mpi_rcb(ct_mpi_decomp *d, ct_vec3 *s, int m, int r0, int r1, int *next) {
    int k, axis = 0, half = (r1 - r0) / 2, split = 0, j, i;
    ct_real cut = 0;
    if (r1 - r0 == 1) return -r0 - 1;
    k = (*next)++;
    if (m > 0) {
        ct_vec3 lo = s[0], hi = s[0];
        ct_real ex, ey, ez;
        for (i = 1; i < m; ++i) { lo = ct__vmin(lo, s[i]); hi = ct__vmax(hi, s[i]); }
        ex = hi.x - lo.x; ey = hi.y - lo.y; ez = hi.z - lo.z;
        axis = ex >= ey ? (ex >= ez ? 0 : 2) : (ey >= ez ? 1 : 2);
        qsort(s, (size_t)m, sizeof *s, axis == 0 ? ct__mpi_cmp_x : axis == 1 ? ct__mpi_cmp_y : ct__mpi_cmp_z);
        j = (int)((long long)m * half / (r1 - r0));
        if (j >= m) j = m - 1;
        cut = ct__mpi_coord(s[j], axis);
        split = j;
        while (split > 0 && ct__mpi_coord(s[split - 1], axis) >= cut) --split; /* below: x < cut */
    }
    d->axis[k] = axis;
    d->cut[k] = cut;
    d->child[2 * k] = ct__mpi_rcb(d, s, split, r0, r0 + half, next);
    d->child[2 * k + 1] = ct__mpi_rcb(d, s + split, m - split, r0 + half, r1, next);
    return k;
}

CTDEF void ct_mpi_decomp_free(ct_mpi_decomp *d) {
    if (!d) return;
    if (d->ct__block && d->ct__alloc.free) d->ct__alloc.free(d->ct__block, d->ct__alloc.user);
    memset(d, 0, sizeof *d);
}

/* Allocates the arrays of a decomposition of p ranks in one block. */
CT__PRIVATE ct_status ct__mpi_decomp_alloc(ct_mpi_decomp *d, int p, const ct_allocator *a) {
    size_t nc = (size_t)(p - 1), b1 = ct__array_bytes((long long)nc, sizeof(ct_real)),
           b2 = ct__array_bytes(3 * (long long)nc, sizeof(int));
    unsigned char *blk;
    memset(d, 0, sizeof *d);
    d->ct__alloc = ct__allocator(a);
    d->nranks = p;
    if (p == 1) return CT_OK;
    blk = (unsigned char *)ct__alloc(&d->ct__alloc, b1 + b2);
    if (!blk) { memset(d, 0, sizeof *d); return CT_NO_MEMORY; }
    d->ct__block = blk;
    d->cut = (ct_real *)blk;
    d->axis = (int *)(blk + b1);
    d->child = d->axis + nc;
    return CT_OK;
}

/* Sample counts per rank, the same on every rank: in proportion to the box counts. */
CT__PRIVATE long long ct__mpi_sample_counts(const int *counts, int p, int per_rank, int *ns) {
    long long total = 0, sum = 0;
    double want = (double)per_rank * (double)p;
    int r;
    for (r = 0; r < p; ++r) total += counts[r];
    for (r = 0; r < p; ++r) {
        double x = total > 0 ? ceil(want * (double)counts[r] / (double)total) : 0;
        ns[r] = x < (double)counts[r] ? (int)x : counts[r];
        sum += ns[r];
    }
    return sum;
}

CTDEF ct_status ct_mpi_decomp_build(MPI_Comm comm, const ct_aabb *boxes, int n, int samples_per_rank,
                                    const ct_allocator *a, ct_mpi_decomp *out) {
    ct_allocator al = ct__allocator(a);
    ct_scratch local, *s;
    ct__mark mk;
    int p = 0, me = 0, r, i, *counts = NULL, *ns = NULL, *displs = NULL, next = 0;
    long long total = 0;
    ct_vec3 *mine = NULL, *all = NULL;
    MPI_Datatype vt;
    ct_status st = CT_OK;
    if (out) memset(out, 0, sizeof *out);
    if (comm == MPI_COMM_NULL) return CT_INVALID;
    if (MPI_Comm_size(comm, &p) != MPI_SUCCESS || MPI_Comm_rank(comm, &me) != MPI_SUCCESS) return CT_INVALID;
    if (!out || samples_per_rank < 0) st = CT_INVALID;
    if (st == CT_OK) st = ct__mpi_check_boxes(boxes, n);
    if (samples_per_rank == 0) samples_per_rank = CT__MPI_SAMPLES;
    s = ct__scratch_begin(NULL, &local, &al);
    mk = ct__scratch_mark(s);
    if (st == CT_OK) {
        counts = CT__SALLOC(s, int, p);
        ns = CT__SALLOC(s, int, p);
        displs = CT__SALLOC(s, int, p);
        if (!counts || !ns || !displs) st = CT_NO_MEMORY;
    }
    st = ct__mpi_agree(comm, st);
    if (st != CT_OK) goto done;
    if (MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, comm) != MPI_SUCCESS) { st = CT_INVALID; goto done; }
    total = ct__mpi_sample_counts(counts, p, samples_per_rank, ns);
    if (total > 0x7fffffff / (long long)sizeof(ct_vec3)) st = CT_INVALID; /* same on every rank */
    if (st == CT_OK) {
        for (r = 0, i = 0; r < p; ++r) { displs[r] = i; i += ns[r]; }
        mine = CT__SALLOC(s, ct_vec3, ns[me] > 0 ? ns[me] : 1);
        all = CT__SALLOC(s, ct_vec3, total > 0 ? total : 1);
        if (!mine || !all) st = CT_NO_MEMORY;
        if (st == CT_OK) st = ct__mpi_decomp_alloc(out, p, &al);
    }
    st = ct__mpi_agree(comm, st);
    if (st != CT_OK) goto done;
    for (i = 0; i < ns[me]; ++i) { /* evenly strided: index floor((i + 1/2) n / ns) */
        unsigned long long k = ((2ull * (unsigned)i + 1ull) * (unsigned long long)n) / (2ull * (unsigned)ns[me]);
        mine[i] = ct__mpi_centre(&boxes[k]);
    }
    if (MPI_Type_contiguous((int)sizeof(ct_vec3), MPI_BYTE, &vt) != MPI_SUCCESS) { st = CT_INVALID; goto done; }
    MPI_Type_commit(&vt);
    if (MPI_Allgatherv(mine, ns[me], vt, all, ns, displs, vt, comm) != MPI_SUCCESS) st = CT_INVALID;
    MPI_Type_free(&vt);
    if (st == CT_OK && p > 1) ct__mpi_rcb(out, all, (int)total, 0, p, &next);
done:
    ct__scratch_end(s, &local, mk);
    if (st != CT_OK && out) ct_mpi_decomp_free(out);
    return st;
}

CTDEF int ct_mpi_decomp_rank(const ct_mpi_decomp *d, ct_vec3 p) {
    int c;
    if (!d || d->nranks < 1) return -1;
    c = d->nranks > 1 ? 0 : -1;
    while (c >= 0) c = d->child[2 * c + !(ct__mpi_coord(p, d->axis[c]) < d->cut[c])];
    return -c - 1;
}

/* Checks the cuts of the ranks [r0, r1) against the shape ct__mpi_rcb gives them (the shape
   depends on the number of ranks only): child codes as built, axes 0..2, cuts not NaN. The
   walk follows the expected shape, never the stored codes, so it ends at depth <= 31 and every
   index it reads is in range. Returns the expected child code; clears *ok on a mismatch. */
CT__PRIVATE int ct__mpi_shape(const ct_mpi_decomp *d, int r0, int r1, int *next, int *ok) {
    int k, half = (r1 - r0) / 2;
    if (r1 - r0 == 1) return -r0 - 1;
    k = (*next)++;
    if (d->axis[k] < 0 || d->axis[k] > 2 || d->cut[k] != d->cut[k]) *ok = 0;
    if (d->child[2 * k] != ct__mpi_shape(d, r0, r0 + half, next, ok)) *ok = 0;
    if (d->child[2 * k + 1] != ct__mpi_shape(d, r0 + half, r1, next, ok)) *ok = 0;
    return k;
}

/* A decomposition usable with p ranks: built for p ranks, in the shape ct_mpi_decomp_build
   makes (so the descent stacks of ct__mpi_route stay within CT__MPI_STACK). Local; the verdict
   is agreed by the callers. */
CT__PRIVATE int ct__mpi_decomp_ok(const ct_mpi_decomp *d, int p) {
    int ok = 1, next = 0;
    if (!d || d->nranks != p) return 0;
    if (p == 1) return 1;
    if (!d->axis || !d->cut || !d->child) return 0;
    ct__mpi_shape(d, 0, p, &next, &ok);
    return ok;
}

/* The ranks whose regions meet the closed box b, in increasing order of the tree walk;
   returns their number. Below a cut: b.lo < cut; above: b.hi >= cut. */
CT__PRIVATE int ct__mpi_route(const ct_mpi_decomp *d, const ct_aabb *b, int *ranks) {
    int stack[CT__MPI_STACK], top = 0, n = 0;
    stack[top++] = d->nranks > 1 ? 0 : -1;
    while (top > 0) {
        int c = stack[--top];
        if (c < 0) { ranks[n++] = -c - 1; continue; }
        /* push above first so that below is visited first */
        if (ct__mpi_coord(b->hi, d->axis[c]) >= d->cut[c]) stack[top++] = d->child[2 * c + 1];
        if (ct__mpi_coord(b->lo, d->axis[c]) < d->cut[c]) stack[top++] = d->child[2 * c];
    }
    return n;
}

/* The region of rank `rank` as a box [lo, hi) (infinite where no cut bounds it): the
   largest cut passed above and the smallest passed below on each axis. Depth-first over
   the tree from cut c; returns 1 when the rank was found below c. */
CT__PRIVATE int ct__mpi_region(const ct_mpi_decomp *d, int c, int rank, ct_real lo[3], ct_real hi[3]) {
    ct_real keep;
    int ax;
    if (c < 0) return -c - 1 == rank;
    ax = d->axis[c];
    keep = hi[ax];
    if (d->cut[c] < hi[ax]) hi[ax] = d->cut[c];
    if (ct__mpi_region(d, d->child[2 * c], rank, lo, hi)) return 1;
    hi[ax] = keep;
    keep = lo[ax];
    if (d->cut[c] > lo[ax]) lo[ax] = d->cut[c];
    if (ct__mpi_region(d, d->child[2 * c + 1], rank, lo, hi)) return 1;
    lo[ax] = keep;
    return 0;
}

/* ---- exchange ----------------------------------------------------------------------------- */
typedef struct ct__mpi_set {
    int p, me, n;               /* ranks, this rank, boxes searched here */
    ct_aabb *boxes;             /* searched boxes, sorted by id */
    ct_mpi_id *ids;
    unsigned char *recv;        /* the records; payload of box i at recv + i * rec + off */
    unsigned char *side;        /* per box, bit k: lo[k] below the region's upper bound on
                                   axis k; bit 3 + k: lo[k] at or above its lower bound */
    size_t rec, off, dsize;
    const ct_mpi_decomp *d;
} ct__mpi_set;

/* Record layout: the box, the local index, then the payload, each 16-byte aligned. */
CT__INLINE size_t ct__mpi_round(size_t x) { return (x + (CT__MPI_ALIGN - 1)) & ~(CT__MPI_ALIGN - 1); }

/* Validation, owners, decomposition (given or built into *own) and the ghost exchange. All
   memory from s; the status is agreed. */
CT__PRIVATE ct_status ct__mpi_exchange(MPI_Comm comm, const ct_aabb *boxes, int n, const void *data, size_t dsize,
                                       const ct_mpi_decomp *decomp, ct_mpi_decomp *own, ct_scratch *s,
                                       const ct_allocator *al, int *owner, ct_mpi_stats *stats, ct__mpi_set *set) {
    int p = 0, me = 0, r, i, k, *route = NULL, *scnt = NULL, *rcnt = NULL, *sdis = NULL, *rdis = NULL, *pos = NULL;
    long long nsend = 0, nrecv = 0;
    unsigned char *sbuf = NULL;
    MPI_Datatype rt;
    ct_status st = CT_OK;
    memset(set, 0, sizeof *set);
    if (MPI_Comm_size(comm, &p) != MPI_SUCCESS || MPI_Comm_rank(comm, &me) != MPI_SUCCESS) return CT_INVALID;
    set->p = p;
    set->me = me;
    set->dsize = dsize;
    set->off = ct__mpi_round(sizeof(ct_aabb) + sizeof(int));
    if (dsize > 0x7fffffff - set->off - CT__MPI_ALIGN || (dsize > 0 && n > 0 && !data)) st = CT_INVALID;
    set->rec = dsize > 0x7fffffff ? 0 : ct__mpi_round(set->off + dsize);
    if (st == CT_OK) st = ct__mpi_check_boxes(boxes, n);
    if (st == CT_OK && decomp && !ct__mpi_decomp_ok(decomp, p)) st = CT_INVALID;
    st = ct__mpi_agree(comm, st);
    if (st != CT_OK) return st;
    if (!decomp) {
        st = ct_mpi_decomp_build(comm, boxes, n, 0, al, own);
        if (st != CT_OK) return st;
        decomp = own;
    }
    set->d = decomp;
    if (owner)
        for (i = 0; i < n; ++i) owner[i] = ct_mpi_decomp_rank(decomp, ct__mpi_centre(&boxes[i]));
    route = CT__SALLOC(s, int, p);
    scnt = CT__SALLOC(s, int, p);
    rcnt = CT__SALLOC(s, int, p);
    sdis = CT__SALLOC(s, int, p);
    rdis = CT__SALLOC(s, int, p);
    pos = CT__SALLOC(s, int, p);
    if (!route || !scnt || !rcnt || !sdis || !rdis || !pos) st = CT_NO_MEMORY;
    if (st == CT_OK) {
        memset(scnt, 0, (size_t)p * sizeof *scnt);
        for (i = 0; i < n; ++i) {
            int m = ct__mpi_route(decomp, &boxes[i], route);
            for (k = 0; k < m; ++k) ++scnt[route[k]];
            nsend += m;
        }
        /* record counts are MPI ints and offsets too */
        if (nsend > 0x7fffffff) st = CT_INVALID;
        else sbuf = (unsigned char *)ct__scratch_array(s, nsend > 0 ? nsend : 1, set->rec);
        if (st == CT_OK && !sbuf) st = CT_NO_MEMORY;
    }
    st = ct__mpi_agree(comm, st);
    if (st != CT_OK) return st;
    if (MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm) != MPI_SUCCESS) return CT_INVALID;
    for (r = 0; r < p; ++r) {
        sdis[r] = r > 0 ? sdis[r - 1] + scnt[r - 1] : 0;
        pos[r] = sdis[r];
        rdis[r] = (int)nrecv;
        nrecv += rcnt[r];
        if (nrecv > 0x7fffffff) { st = CT_INVALID; break; }
    }
    if (st == CT_OK) {
        set->n = (int)nrecv;
        set->recv = (unsigned char *)ct__scratch_array(s, nrecv > 0 ? nrecv : 1, set->rec);
        set->boxes = CT__SALLOC(s, ct_aabb, nrecv > 0 ? nrecv : 1);
        set->ids = CT__SALLOC(s, ct_mpi_id, nrecv > 0 ? nrecv : 1);
        set->side = CT__SALLOC(s, unsigned char, nrecv > 0 ? nrecv : 1);
        if (!set->recv || !set->boxes || !set->ids || !set->side) st = CT_NO_MEMORY;
    }
    st = ct__mpi_agree(comm, st);
    if (st != CT_OK) return st;
    for (i = 0; i < n; ++i) { /* pack in index order: records arrive sorted by id */
        int m = ct__mpi_route(decomp, &boxes[i], route);
        for (k = 0; k < m; ++k) {
            unsigned char *q = sbuf + (size_t)pos[route[k]]++ * set->rec;
            memset(q, 0, set->rec); /* padding too: no uninitialised bytes on the wire */
            memcpy(q, &boxes[i], sizeof(ct_aabb));
            memcpy(q + sizeof(ct_aabb), &i, sizeof(int));
            if (dsize > 0) memcpy(q + set->off, (const unsigned char *)data + (size_t)i * dsize, dsize);
        }
    }
    if (MPI_Type_contiguous((int)set->rec, MPI_BYTE, &rt) != MPI_SUCCESS) return CT_INVALID;
    MPI_Type_commit(&rt);
    if (MPI_Alltoallv(sbuf, scnt, sdis, rt, set->recv, rcnt, rdis, rt, comm) != MPI_SUCCESS) st = CT_INVALID;
    MPI_Type_free(&rt);
    if (st != CT_OK) return st;
    {
        ct_real rlo[3], rhi[3];
        for (k = 0; k < 3; ++k) { rlo[k] = -(ct_real)INFINITY; rhi[k] = (ct_real)INFINITY; }
        if (p > 1) ct__mpi_region(decomp, 0, me, rlo, rhi);
        for (r = 0; r < p; ++r)
            for (k = rdis[r]; k < rdis[r] + rcnt[r]; ++k) {
                const unsigned char *q = set->recv + (size_t)k * set->rec;
                const ct_aabb *b = &set->boxes[k];
                int ax;
                memcpy(&set->boxes[k], q, sizeof(ct_aabb));
                memcpy(&set->ids[k].index, q + sizeof(ct_aabb), sizeof(int));
                set->ids[k].rank = r;
                set->side[k] = 0;
                for (ax = 0; ax < 3; ++ax)
                    set->side[k] |= (unsigned char)((ct__mpi_coord(b->lo, ax) < rhi[ax]) << ax |
                                                    (ct__mpi_coord(b->lo, ax) >= rlo[ax]) << (3 + ax));
            }
    }
    if (stats) {
        memset(stats, 0, sizeof *stats);
        for (r = 0; r < p; ++r)
            if (r != me) { stats->sent += scnt[r]; stats->received += rcnt[r]; }
        stats->bytes_sent = stats->sent * (long long)set->rec;
        stats->bytes_received = stats->received * (long long)set->rec;
        stats->searched = set->n;
    }
    return CT_OK;
}

/* Owner test of the pair (i, j) of the searched set: the min corner of the intersection box,
   max(lo_i, lo_j), lies in this rank's region [rlo, rhi) when on every axis both lo are below
   rhi and one of them is at or above rlo. (The same comparisons as ct_mpi_decomp_rank on the
   corner, folded into the region's bounds.) */
CT__INLINE int ct__mpi_owned(const ct__mpi_set *set, int i, int j) {
    unsigned a = set->side[i], b = set->side[j];
    return (a & b & 7u) == 7u && ((a | b) >> 3) == 7u;
}

/* The error path's outputs: owners -1, stats zeroed. */
CT__PRIVATE void ct__mpi_fail(int *owner, int n, ct_mpi_stats *stats) {
    int i;
    if (owner)
        for (i = 0; i < n; ++i) owner[i] = -1;
    if (stats) memset(stats, 0, sizeof *stats);
}

CTDEF ct_status ct_mpi_broadphase(MPI_Comm comm, const ct_aabb *boxes, int n, const ct_mpi_decomp *decomp,
                                  const ct_allocator *a, ct_mpi_pairs *out, int *owner, ct_mpi_stats *stats) {
    ct_allocator al = ct__allocator(a);
    ct_scratch local, *s;
    ct__mark mk;
    ct_mpi_decomp own;
    ct__mpi_set set;
    ct_pairs pp;
    size_t i, kept = 0;
    ct_status st;
    memset(&own, 0, sizeof own);
    memset(&pp, 0, sizeof pp);
    if (out) { memset(out, 0, sizeof *out); out->ct__alloc = al; }
    if (comm == MPI_COMM_NULL) return CT_INVALID;
    s = ct__scratch_begin(NULL, &local, &al);
    mk = ct__scratch_mark(s);
    st = ct__mpi_exchange(comm, boxes, out ? n : -1, NULL, 0, decomp, &own, s, &al, owner, stats, &set);
    if (st != CT_OK) goto done;
    st = ct_broadphase(set.boxes, set.n, &al, &pp);
    if (st == CT_OK) {
        for (i = 0; i < pp.count; ++i) /* compact the owned pairs in place */
            if (ct__mpi_owned(&set, pp.items[i].a, pp.items[i].b)) pp.items[kept++] = pp.items[i];
        out->items = (ct_mpi_pair *)ct__alloc(&al, ct__array_bytes((long long)kept, sizeof(ct_mpi_pair)));
        if (kept > 0 && !out->items) st = CT_NO_MEMORY;
    }
    st = ct__mpi_agree(comm, st);
    if (st == CT_OK) {
        for (i = 0; i < kept; ++i) {
            out->items[i].a = set.ids[pp.items[i].a];
            out->items[i].b = set.ids[pp.items[i].b];
        }
        out->count = kept;
        if (stats) stats->pairs = (long long)kept;
    }
done:
    ct_pairs_free(&pp);
    ct_mpi_decomp_free(&own);
    ct__scratch_end(s, &local, mk);
    if (st != CT_OK) {
        if (out) ct_mpi_pairs_free(out);
        ct__mpi_fail(owner, n, stats);
    }
    return st;
}

CTDEF void ct_mpi_pairs_free(ct_mpi_pairs *p) {
    if (!p) return;
    if (p->items && p->ct__alloc.free) p->ct__alloc.free(p->items, p->ct__alloc.user);
    p->items = NULL;
    p->count = 0;
}

typedef struct ct__mpi_loop {
    const ct__mpi_set *set;
    ct_mpi_pair_fn fn;
    void *user;
    long long calls;
} ct__mpi_loop;

CT__PRIVATE void ct__mpi_visit(void *user, int i, int j, int thread) {
    ct__mpi_loop *L = (ct__mpi_loop *)user;
    const ct__mpi_set *set = L->set;
    const void *da = NULL, *db = NULL;
    if (!ct__mpi_owned(set, i, j)) return;
    if (set->dsize > 0) {
        da = set->recv + (size_t)i * set->rec + set->off;
        db = set->recv + (size_t)j * set->rec + set->off;
    }
    L->fn(L->user, set->ids[i], da, set->ids[j], db, thread);
#ifdef _OPENMP
#pragma omp atomic
#endif
    L->calls++;
}

CTDEF ct_status ct_mpi_broadphase_foreach(MPI_Comm comm, const ct_aabb *boxes, int n, const void *data,
                                          size_t data_size, const ct_mpi_decomp *decomp, ct_mpi_pair_fn fn,
                                          void *user, int *owner, ct_mpi_stats *stats) {
    ct_allocator al = ct__allocator(NULL);
    ct_scratch local, *s;
    ct__mark mk;
    ct_mpi_decomp own;
    ct__mpi_set set;
    ct__mpi_loop L;
    ct_status st;
    memset(&own, 0, sizeof own);
    if (comm == MPI_COMM_NULL) return CT_INVALID;
    s = ct__scratch_begin(NULL, &local, &al);
    mk = ct__scratch_mark(s);
    st = ct__mpi_exchange(comm, boxes, fn ? n : -1, data, data_size, decomp, &own, s, &al, owner, stats, &set);
    if (st == CT_OK) {
        L.set = &set;
        L.fn = fn;
        L.user = user;
        L.calls = 0;
        st = ct__mpi_agree(comm, ct_broadphase_foreach(set.boxes, set.n, ct__mpi_visit, &L));
        if (st == CT_OK && stats) stats->pairs = L.calls;
    }
    ct_mpi_decomp_free(&own);
    ct__scratch_end(s, &local, mk);
    if (st != CT_OK) ct__mpi_fail(owner, n, stats);
    return st;
}
