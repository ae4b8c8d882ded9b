/* contact.h detail: >>types - allocator plumbing, the scratch arena, status strings.

   Persistent memory: ct__alloc/ct__free through a resolved ct_allocator (NULL -> CT_MALLOC).
   Temporary memory: a ct_scratch arena. Every entry point that needs temporaries does

       ct_scratch local, *s = ct__scratch_begin(user_scratch, &local, allocator);
       ct__mark m = ct__scratch_mark(s);
       ... p = CT__SALLOC(s, type, count); if (!p) { status = CT_NO_MEMORY; goto done; } ...
     done:
       ct__scratch_end(s, &local, m);

   Nested entry points may share the scratch; marks nest like a stack. When the outermost
   call ends with more than one block in the chain, the chain is replaced by a single block as
   large as the peak use, so the next call of the same size allocates nothing. */

#if !defined(CT_MALLOC)
#include <stdlib.h>
#define CT_MALLOC(sz) malloc(sz)
#define CT_FREE(p) free(p)
#endif

CTDEF const char *ct_status_string(ct_status s) {
    switch (s) {
    case CT_OK: return "ok";
    case CT_INVALID: return "invalid argument";
    case CT_DEGENERATE: return "degenerate input";
    case CT_NO_MEMORY: return "out of memory";
    case CT_NO_CONVERGENCE: return "no convergence";
    case CT_WRITE_FAILED: return "write failed";
    }
    return "unknown status";
}

CT__PRIVATE void *ct__default_alloc(size_t size, void *user) { (void)user; return CT_MALLOC(size); }
CT__PRIVATE void ct__default_free(void *p, void *user) { (void)user; CT_FREE(p); }

CT__INLINE ct_allocator ct__allocator(const ct_allocator *a) {
    ct_allocator out;
    if (a && a->alloc && a->free) return *a;
    out.alloc = ct__default_alloc;
    out.free = ct__default_free;
    out.user = NULL;
    return out;
}
CT__INLINE void *ct__alloc(const ct_allocator *a, size_t n) { return n ? a->alloc(n, a->user) : NULL; }
CT__INLINE void ct__free(const ct_allocator *a, void *p) { if (p) a->free(p, a->user); }

/* Size of an array of count elements of size bytes, rounded up to 16; 0 on overflow or a
   negative count (callers treat 0 as failure where they asked for something). */
#define CT__ALIGN 16u
CT__INLINE size_t ct__array_bytes(long long count, size_t size) {
    size_t n;
    if (count < 0 || size == 0) return 0;
    if ((unsigned long long)count > ((size_t)-1 - CT__ALIGN) / size) return 0;
    n = (size_t)count * size;
    return (n + (CT__ALIGN - 1)) & ~(size_t)(CT__ALIGN - 1);
}

/* ---- scratch arena ---------------------------------------------------------------------- */
typedef struct ct__block {
    struct ct__block *prev;
    size_t size;            /* usable bytes after the header (rounded up to 16 below) */
} ct__block;
#define CT__BLOCK_HDR ((sizeof(ct__block) + (CT__ALIGN - 1)) & ~(size_t)(CT__ALIGN - 1))
#define CT__BLOCK_DATA(b) ((unsigned char *)(b) + CT__BLOCK_HDR)

typedef struct ct__mark { void *head; size_t used, total; } ct__mark;

CTDEF void ct_scratch_init(ct_scratch *s, const ct_allocator *a) {
    if (!s) return;
    memset(s, 0, sizeof *s);
    s->ct__alloc = ct__allocator(a);
    s->ct__has_alloc = 1;
}

CT__PRIVATE void ct__scratch_free_blocks(ct_scratch *s, void *stop) {
    while (s->ct__head && s->ct__head != stop) {
        ct__block *b = (ct__block *)s->ct__head;
        s->ct__head = b->prev;
        ct__free(&s->ct__alloc, b);
    }
}

CTDEF void ct_scratch_release(ct_scratch *s) {
    if (!s) return;
    if (!s->ct__has_alloc) { memset(s, 0, sizeof *s); return; }
    ct__scratch_free_blocks(s, NULL);
    s->ct__used = s->ct__total = s->ct__peak = 0;
    s->ct__depth = 0;
}

CT__INLINE ct__mark ct__scratch_mark(const ct_scratch *s) {
    ct__mark m;
    m.head = s->ct__head;
    m.used = s->ct__used;
    m.total = s->ct__total;
    return m;
}

/* 16-byte aligned memory of at least n bytes, or NULL when the allocator fails. */
CT__PRIVATE void *ct__scratch_alloc(ct_scratch *s, size_t n) {
    ct__block *b = (ct__block *)s->ct__head;
    void *p;
    n = (n + (CT__ALIGN - 1)) & ~(size_t)(CT__ALIGN - 1);
    if (n == 0) n = CT__ALIGN;
    if (!b || b->size - s->ct__used < n) {
        size_t want = n, grow = b ? 2 * b->size : 4096;
        ct__block *nb;
        if (want < grow) want = grow;
        if (want > (size_t)-1 - CT__BLOCK_HDR) return NULL;
        nb = (ct__block *)ct__alloc(&s->ct__alloc, CT__BLOCK_HDR + want);
        if (!nb) return NULL;
        nb->prev = b;
        nb->size = want;
        s->ct__head = nb;
        s->ct__used = 0;
        b = nb;
    }
    p = CT__BLOCK_DATA(b) + s->ct__used;
    s->ct__used += n;
    s->ct__total += n;
    if (s->ct__total > s->ct__peak) s->ct__peak = s->ct__total;
    return p;
}

/* Array allocation with overflow checks. */
CT__INLINE void *ct__scratch_array(ct_scratch *s, long long count, size_t size) {
    size_t n = ct__array_bytes(count, size);
    if (n == 0 && count != 0) return NULL;
    return ct__scratch_alloc(s, n);
}
#define CT__SALLOC(s, T, count) ((T *)ct__scratch_array((s), (long long)(count), sizeof(T)))

/* Pops everything allocated since m (blocks pushed since then are freed). */
CT__INLINE void ct__scratch_reset(ct_scratch *s, ct__mark m) {
    ct__scratch_free_blocks(s, m.head);
    s->ct__used = m.used;
    s->ct__total = m.total;
}

CT__INLINE ct_scratch *ct__scratch_begin(ct_scratch *user, ct_scratch *local, const ct_allocator *a) {
    ct_scratch *s = user;
    if (!s) { ct_scratch_init(local, a); s = local; }
    else if (!s->ct__has_alloc) ct_scratch_init(s, NULL); /* a zeroed scratch works too */
    s->ct__depth++;
    return s;
}

/* Ends a call: pops to m; at the outermost level makes sure the next call of the same size
   finds one block large enough (the only place a warm scratch may allocate, and only after a
   call that outgrew it). */
CT__PRIVATE void ct__scratch_end(ct_scratch *s, ct_scratch *local, ct__mark m) {
    ct__block *b;
    s->ct__depth--;
    if (s == local) { ct_scratch_release(s); return; }
    if (s->ct__depth > 0) { ct__scratch_reset(s, m); return; }
    /* outermost call: everything is free again; keep (or make) one block of peak size */
    b = (ct__block *)s->ct__head;
    s->ct__used = 0;
    s->ct__total = 0;
    if (b && !b->prev && b->size >= s->ct__peak) return;
    ct__scratch_free_blocks(s, NULL);
    if (s->ct__peak == 0) return;
    b = (ct__block *)ct__alloc(&s->ct__alloc, CT__BLOCK_HDR + s->ct__peak);
    if (!b) return; /* the next call grows again */
    b->prev = NULL;
    b->size = s->ct__peak;
    s->ct__head = b;
}
