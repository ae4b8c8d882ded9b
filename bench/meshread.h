/* A small reader of the OBJ and legacy VTK text that contact.h's export writes, independent of
   contact.h (plain C and strtod): the tests use it as the oracle of the export, the picture
   tool (bench/render.c) to hand the geometry to gnuplot. */
#ifndef CT_BENCH_MESHREAD_H
#define CT_BENCH_MESHREAD_H
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

#define MR_MAXARR 8
typedef struct mr_array {
    char name[64];
    int on_cells;          /* 1: CELL_DATA, 0: POINT_DATA */
    int n;
    double *v;
} mr_array;

typedef struct mr_mesh {
    char title[256];       /* VTK: the title line; OBJ: the first comment */
    int np;
    double *p;             /* 3 * np coordinates */
    int nc;                /* cells in file order (VTK: vertices, lines, polygons) */
    int *kind;             /* 0 vertex (OBJ p), 1 line (l), 2 polygon (f) */
    int *first;            /* nc + 1 offsets into idx */
    int *idx;              /* 0-based point ids */
    int narr;
    mr_array arr[MR_MAXARR];
} mr_mesh;

/* 0 on success; -1 on malformed text (then *m is freed). */
int mr_read_obj(const char *text, mr_mesh *m);
int mr_read_vtk(const char *text, mr_mesh *m);
/* The named array (NULL if absent). */
const mr_array *mr_find(const mr_mesh *m, const char *name);
void mr_free(mr_mesh *m);
/* Writes the cells of one kind in gnuplot's 3-D data format, one block per cell (a polygon
   closed by repeating its first point), blocks separated by blank lines; with `only` >= 0
   and `arr` set, just the cells whose value in the cell array arr is `only`. Returns the
   number of blocks written. */
int mr_gnuplot_blocks(const mr_mesh *m, int kind, const char *arr, int only, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
