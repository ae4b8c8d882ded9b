/* OBJ / legacy VTK reader for contact.h's exports; see meshread.h. */
#include "meshread.h"
#include <stdlib.h>
#include <string.h>

typedef struct mr_grow { void *p; int n, cap; size_t size; } mr_grow;

static int mr_push(mr_grow *g, const void *item) {
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 64;
        void *q = realloc(g->p, (size_t)cap * g->size);
        if (!q) return -1;
        g->p = q;
        g->cap = cap;
    }
    memcpy((char *)g->p + (size_t)g->n * g->size, item, g->size);
    g->n++;
    return 0;
}

void mr_free(mr_mesh *m) {
    int a;
    free(m->p); free(m->kind); free(m->first); free(m->idx);
    for (a = 0; a < m->narr; ++a) free(m->arr[a].v);
    memset(m, 0, sizeof *m);
}

const mr_array *mr_find(const mr_mesh *m, const char *name) {
    int a;
    for (a = 0; a < m->narr; ++a)
        if (strcmp(m->arr[a].name, name) == 0) return &m->arr[a];
    return NULL;
}

/* A cursor over whitespace-separated tokens. */
typedef struct mr_tok { const char *s; } mr_tok;

static int mr_word(mr_tok *t, char *out, size_t cap) {
    size_t k = 0;
    while (*t->s == ' ' || *t->s == '\t' || *t->s == '\n' || *t->s == '\r') t->s++;
    if (!*t->s) return -1;
    while (*t->s && *t->s != ' ' && *t->s != '\t' && *t->s != '\n' && *t->s != '\r') {
        if (k + 1 < cap) out[k++] = *t->s;
        t->s++;
    }
    out[k] = 0;
    return 0;
}

static int mr_number(mr_tok *t, double *x) {
    char w[64], *end;
    if (mr_word(t, w, sizeof w) != 0) return -1;
    *x = strtod(w, &end);
    return *end == 0 && end != w ? 0 : -1;
}

static int mr_int(mr_tok *t, long *x) {
    double d;
    if (mr_number(t, &d) != 0 || d != (double)(long)d) return -1;
    *x = (long)d;
    return 0;
}

static void mr_line(mr_tok *t, char *out, size_t cap) {
    size_t k = 0;
    while (*t->s == '\n' || *t->s == '\r') t->s++;
    while (*t->s && *t->s != '\n') {
        if (k + 1 < cap) out[k++] = *t->s;
        t->s++;
    }
    out[k] = 0;
}

/* Moves the grown arrays into the mesh. */
static int mr_finish(mr_mesh *m, mr_grow *p, mr_grow *kind, mr_grow *first, mr_grow *idx) {
    int zero = 0;
    if (first->n == 0 && mr_push(first, &zero) != 0) return -1;
    m->np = p->n / 3;
    m->p = (double *)p->p;
    m->nc = kind->n;
    m->kind = (int *)kind->p;
    m->first = (int *)first->p;
    m->idx = (int *)idx->p;
    return 0;
}

int mr_read_obj(const char *text, mr_mesh *m) {
    mr_grow p = { NULL, 0, 0, sizeof(double) }, kind = { NULL, 0, 0, sizeof(int) };
    mr_grow first = { NULL, 0, 0, sizeof(int) }, idx = { NULL, 0, 0, sizeof(int) };
    const char *s = text;
    int zero = 0, bad = 0;
    memset(m, 0, sizeof *m);
    bad |= mr_push(&first, &zero);
    while (*s && !bad) {
        const char *eol = strchr(s, '\n');
        char line[4096];
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        mr_tok t;
        char w[64];
        if (len >= sizeof line) { bad = 1; break; }
        memcpy(line, s, len);
        line[len] = 0;
        s += len + (eol ? 1 : 0);
        t.s = line;
        if (mr_word(&t, w, sizeof w) != 0) continue;
        if (w[0] == '#') {
            if (!m->title[0]) {
                strncpy(m->title, line + 1, sizeof m->title - 1);
                m->title[sizeof m->title - 1] = 0;
            }
        } else if (strcmp(w, "v") == 0) {
            int c;
            for (c = 0; c < 3; ++c) {
                double x;
                bad |= mr_number(&t, &x) != 0 || mr_push(&p, &x) != 0;
            }
        } else if (!strcmp(w, "p") || !strcmp(w, "l") || !strcmp(w, "f")) {
            int k = w[0] == 'p' ? 0 : w[0] == 'l' ? 1 : 2, count = 0, end;
            long i;
            while (mr_int(&t, &i) == 0) {
                int j = (int)i - 1;
                bad |= i < 1 || mr_push(&idx, &j) != 0;
                ++count;
            }
            end = idx.n;
            bad |= count < (k == 2 ? 3 : k + 1) || mr_push(&kind, &k) != 0 || mr_push(&first, &end) != 0;
        } else {
            bad = 1;
        }
    }
    if (!bad) bad = mr_finish(m, &p, &kind, &first, &idx) != 0;
    if (!bad) {
        int i;
        for (i = 0; i < idx.n; ++i) bad |= m->idx[i] >= m->np;
        if (bad) mr_free(m);
        return bad ? -1 : 0;
    }
    free(p.p); free(kind.p); free(first.p); free(idx.p);
    memset(m, 0, sizeof *m);
    return -1;
}

/* A SCALARS block of n values under CELL_DATA or POINT_DATA. */
static int mr_scalars(mr_tok *t, mr_mesh *m, int on_cells, int n) {
    char name[64], type[32], w[64];
    mr_array *a;
    int i;
    long one;
    if (m->narr == MR_MAXARR || mr_word(t, name, sizeof name) || mr_word(t, type, sizeof type) ||
        mr_int(t, &one) || one != 1 || mr_word(t, w, sizeof w) || strcmp(w, "LOOKUP_TABLE") ||
        mr_word(t, w, sizeof w))
        return -1;
    a = &m->arr[m->narr++];
    snprintf(a->name, sizeof a->name, "%s", name);
    a->on_cells = on_cells;
    a->n = n;
    a->v = (double *)malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!a->v) return -1;
    for (i = 0; i < n; ++i)
        if (mr_number(t, &a->v[i]) != 0) return -1;
    return 0;
}

int mr_read_vtk(const char *text, mr_mesh *m) {
    mr_grow p = { NULL, 0, 0, sizeof(double) }, kind = { NULL, 0, 0, sizeof(int) };
    mr_grow first = { NULL, 0, 0, sizeof(int) }, idx = { NULL, 0, 0, sizeof(int) };
    mr_tok t;
    char line[256], w[64];
    int zero = 0, bad = 0, section = 0, ndata = 0, on_cells = 0;
    long n = 0, i, j;
    memset(m, 0, sizeof *m);
    t.s = text;
    mr_line(&t, line, sizeof line);
    if (strncmp(line, "# vtk DataFile Version", 22) != 0) return -1;
    mr_line(&t, m->title, sizeof m->title);
    if (mr_word(&t, w, sizeof w) || strcmp(w, "ASCII") || mr_word(&t, w, sizeof w) || strcmp(w, "DATASET") ||
        mr_word(&t, w, sizeof w) || strcmp(w, "POLYDATA"))
        return -1;
    bad |= mr_push(&first, &zero);
    while (!bad && mr_word(&t, w, sizeof w) == 0) {
        if (!strcmp(w, "POINTS")) {
            bad |= mr_int(&t, &n) || mr_word(&t, w, sizeof w) || (strcmp(w, "double") && strcmp(w, "float"));
            for (i = 0; i < 3 * n && !bad; ++i) {
                double x;
                bad |= mr_number(&t, &x) || mr_push(&p, &x);
            }
        } else if (!strcmp(w, "VERTICES") || !strcmp(w, "LINES") || !strcmp(w, "POLYGONS")) {
            int k = w[0] == 'V' ? 0 : w[0] == 'L' ? 1 : 2;
            long size = 0, used = 0;
            bad |= k < section || mr_int(&t, &n) || mr_int(&t, &size); /* VTK's order of sections */
            section = k + 1;
            for (i = 0; i < n && !bad; ++i) {
                long cnt = 0, id = 0;
                int end;
                bad |= mr_int(&t, &cnt) || cnt < 1;
                for (j = 0; j < cnt && !bad; ++j) {
                    int v;
                    bad |= mr_int(&t, &id) || id < 0 || id >= p.n / 3;
                    v = (int)id;
                    bad |= mr_push(&idx, &v);
                }
                used += 1 + cnt;
                end = idx.n;
                bad |= mr_push(&kind, &k) || mr_push(&first, &end);
            }
            bad |= used != size;
        } else if (!strcmp(w, "CELL_DATA") || !strcmp(w, "POINT_DATA")) {
            on_cells = w[0] == 'C';
            bad |= mr_int(&t, &n) || n != (on_cells ? kind.n : p.n / 3);
            ndata = (int)n;
        } else if (!strcmp(w, "SCALARS")) {
            bad |= mr_scalars(&t, m, on_cells, ndata);
        } else {
            bad = 1;
        }
    }
    if (!bad) bad = mr_finish(m, &p, &kind, &first, &idx) != 0;
    if (!bad) return 0;
    if (!m->p) { free(p.p); free(kind.p); free(first.p); free(idx.p); }
    mr_free(m);
    return -1;
}

int mr_gnuplot_blocks(const mr_mesh *m, int kind, const char *arr, int only, FILE *f) {
    const mr_array *a = arr ? mr_find(m, arr) : NULL;
    int c, j, blocks = 0;
    for (c = 0; c < m->nc; ++c) {
        int n = m->first[c + 1] - m->first[c];
        if (m->kind[c] != kind || (a && only >= 0 && a->v[c] != only)) continue;
        for (j = 0; j <= n; ++j) {
            const double *q = m->p + 3 * m->idx[m->first[c] + (j % n)];
            if (j == n && kind != 2) break;
            fprintf(f, "%.17g %.17g %.17g\n", q[0], q[1], q[2]);
        }
        fprintf(f, "\n\n");
        ++blocks;
    }
    return blocks;
}
