/* Pictures of typical contacts, made from contact.h's OBJ/VTK export and drawn by gnuplot.

     build/release/render [dir]     (default build/bench/pictures)

   `premake4 --file=premake5.lua pictures` builds it, runs it and copies the two PNGs to examples/
   (the README's pictures); the bench action runs it for build/bench/report.md.

   Writes, for each picture, the exported .vtk/.obj files (open them in ParaView, VisIt,
   MeshLab, Blender), the gnuplot data read back from them (bench/meshread.c) and the .png:
     stack.png   a flush stack of three blocks, each resting on the one below with a slight
                 overlap and turn: the contact polygons (faces of each intersection, a thin
                 slab), the SAT manifold points and the contact normals;
     pair20.png  two random 20-vertex hulls and their intersection polyhedron, faces coloured
                 by the body they lie on (face_tag), with the volumetric contact's point and
                 normal. */
#define _POSIX_C_SOURCE 200809L
#include "contact.h"
#include "meshread.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *g_dir = "build/bench/pictures";

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    long n;
    char *s;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    s = (char *)malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* Exports through ct_write_stdio into dir/name; returns 0 on success. */
typedef ct_status (*export_fn)(const void *what, FILE *f);
static int export_file(const char *name, export_fn fn, const void *what) {
    char path[512];
    FILE *f;
    ct_status st;
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    f = fopen(path, "w");
    if (!f) { fprintf(stderr, "render: cannot write %s\n", path); return -1; }
    st = fn(what, f);
    if (fclose(f) != 0 || st != CT_OK) { fprintf(stderr, "render: %s: %s\n", name, ct_status_string(st)); return -1; }
    return 0;
}

/* Reads an exported file back and writes the gnuplot blocks of one kind of cell (optionally
   only those whose cell array arr is `only`) to dir/dat; returns the number of blocks. */
static int to_gnuplot(const char *exported, int kind, const char *arr, int only, const char *dat) {
    char path[512];
    char *text;
    mr_mesh m;
    FILE *f;
    int n = -1, vtk = strstr(exported, ".vtk") != NULL;
    snprintf(path, sizeof path, "%s/%s", g_dir, exported);
    text = slurp(path);
    if (!text || (vtk ? mr_read_vtk(text, &m) : mr_read_obj(text, &m)) != 0) {
        fprintf(stderr, "render: cannot read back %s\n", path);
        free(text);
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s", g_dir, dat);
    f = fopen(path, "a");
    if (f) { n = mr_gnuplot_blocks(&m, kind, arr, only, f); fclose(f); }
    mr_free(&m);
    free(text);
    return n;
}

/* One layer of a picture: the cells of one kind (and cell-array value) of an exported file,
   appended to a gnuplot data file; style NULL: the data file of the layer before, continued. */
typedef struct layer { const char *src; int kind; const char *arr; int only; const char *dat, *style; } layer;

/* Converts the layers and draws them in one depth-sorted splot into dir/name.png. */
static int draw(const char *name, const char *head, const layer *l, int n) {
    char path[512], cmd[1200];
    FILE *f;
    int i;
    for (i = 0; i < n; ++i) {
        if (l[i].style) {   /* a new data file */
            snprintf(path, sizeof path, "%s/%s", g_dir, l[i].dat);
            f = fopen(path, "w");
            if (!f) return -1;
            fclose(f);
        }
        if (to_gnuplot(l[i].src, l[i].kind, l[i].arr, l[i].only, l[i].dat) <= 0) return -1;
    }
    snprintf(path, sizeof path, "%s/%s.gp", g_dir, name);
    f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "set terminal pngcairo size 640,480 noenhanced\nset output '%s/%s.png'\n"
               "unset border\nunset tics\nset key off\nset view equal xyz\nset xyplane 0\n"
               "set pm3d depthorder border lc rgb '#303030' lw 0.5\n%ssplot ", g_dir, name, head);
    for (i = 0; i < n; ++i)
        if (l[i].style) fprintf(f, "%s'%s/%s' %s", i ? ", \\\n      " : "", g_dir, l[i].dat, l[i].style);
    fprintf(f, "\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "gnuplot %s", path);
    if (system(cmd) != 0) { fprintf(stderr, "render: gnuplot failed on %s\n", path); return -1; }
    printf("wrote %s/%s.png\n", g_dir, name);
    return 0;
}

/* ---- the block stack ---- */
typedef struct stack { const ct_hull *h[3]; ct_xform x[3]; ct_contact c[2]; ct_hull o[2]; ct_manifold m[2]; } stack;

static ct_status ex_scene(const void *w, FILE *f) {
    const stack *s = (const stack *)w;
    return ct_export_scene(s->h, s->x, 3, s->c, 2, (ct_real)0.6, CT_EXPORT_VTK, ct_write_stdio, f);
}
static ct_status ex_o0(const void *w, FILE *f) { const stack *s = (const stack *)w; return ct_export_contact(&s->c[0], &s->o[0], 0, CT_EXPORT_VTK, ct_write_stdio, f); }
static ct_status ex_o1(const void *w, FILE *f) { const stack *s = (const stack *)w; return ct_export_contact(&s->c[1], &s->o[1], 0, CT_EXPORT_VTK, ct_write_stdio, f); }
static ct_status ex_m0(const void *w, FILE *f) { const stack *s = (const stack *)w; return ct_export_manifold(&s->m[0], 0, CT_EXPORT_VTK, ct_write_stdio, f); }
static ct_status ex_m1(const void *w, FILE *f) { const stack *s = (const stack *)w; return ct_export_manifold(&s->m[1], 0, CT_EXPORT_VTK, ct_write_stdio, f); }
static ct_status ex_obj(const void *w, FILE *f) {
    const stack *s = (const stack *)w;
    return ct_export_scene(s->h, s->x, 3, NULL, 0, 0, CT_EXPORT_OBJ, ct_write_stdio, f);
}

static int picture_stack(void) {
    ct_hull box[3];
    stack s;
    ct_vec3 half[3], up;
    int i, rc = 0;
    double z = 0;
    half[0].x = 1.6; half[0].y = 1.2; half[0].z = 0.35;
    half[1].x = 1.1; half[1].y = 0.8; half[1].z = 0.45;
    half[2].x = 0.7; half[2].y = 0.5; half[2].z = 0.3;
    up.x = 0; up.y = 0; up.z = 1;
    memset(&s, 0, sizeof s);
    for (i = 0; i < 3; ++i) {
        ct_vec3 p;
        if (ct_hull_box(half[i], NULL, &box[i]) != CT_OK) return -1;
        s.h[i] = &box[i];
        z += i ? half[i - 1].z + half[i].z - 0.02 : 0;    /* each rests 0.02 deep in the one below */
        p.x = (ct_real)(0.15 * i); p.y = (ct_real)(-0.1 * i); p.z = (ct_real)z;
        s.x[i] = ct_xform_from_axis_angle(up, (ct_real)(0.25 * i), p);   /* each turned a little more */
    }
    for (i = 0; i < 2; ++i) {
        if (ct_intersect(s.h[i], &s.x[i], s.h[i + 1], &s.x[i + 1], NULL, NULL, &s.o[i]) != CT_OK ||
            ct_contact_hulls(s.h[i], &s.x[i], s.h[i + 1], &s.x[i + 1], NULL, &s.c[i]) != CT_OK ||
            ct_manifold_hulls(s.h[i], &s.x[i], s.h[i + 1], &s.x[i + 1], 0, NULL, &s.m[i]) != CT_OK)
            rc = -1;
    }
    if (!rc) rc = export_file("stack_scene.vtk", ex_scene, &s) | export_file("stack_scene.obj", ex_obj, &s) |
                  export_file("stack_contact0.vtk", ex_o0, &s) | export_file("stack_contact1.vtk", ex_o1, &s) |
                  export_file("stack_manifold0.vtk", ex_m0, &s) | export_file("stack_manifold1.vtk", ex_m1, &s);
    if (!rc) {
        static const layer layers[] = {
            { "stack_scene.vtk", 2, "body", 0, "stack_box0.dat", "with polygons fs transparent solid 0.3 fc rgb '#8899aa'" },
            { "stack_scene.vtk", 2, "body", 1, "stack_box1.dat", "with polygons fs transparent solid 0.3 fc rgb '#99bb88'" },
            { "stack_scene.vtk", 2, "body", 2, "stack_box2.dat", "with polygons fs transparent solid 0.3 fc rgb '#bb99cc'" },
            { "stack_contact0.vtk", 2, NULL, -1, "stack_slab.dat", "with polygons fs solid 1.0 fc rgb '#ff8800'" },
            { "stack_contact1.vtk", 2, NULL, -1, "stack_slab.dat", NULL },
            { "stack_scene.vtk", 1, NULL, -1, "stack_normals.dat", "with lines lw 3 lc rgb '#cc0000'" },
            { "stack_manifold0.vtk", 0, NULL, -1, "stack_points.dat", "with points pt 7 ps 1.2 lc rgb '#0033cc'" },
            { "stack_manifold1.vtk", 0, NULL, -1, "stack_points.dat", NULL },
        };
        rc = draw("stack", "set title 'Flush stack: contact polygons (orange), manifold points (blue), normals (red)' "
                           "font ',11'\nset view 52, 32, 1.45\n", layers, 8);
    }
    for (i = 0; i < 3; ++i) ct_hull_free(&box[i]);
    ct_hull_free(&s.o[0]);
    ct_hull_free(&s.o[1]);
    return rc;
}

/* ---- a pair of 20-vertex hulls ---- */
typedef struct pair { ct_hull a, b, o; ct_xform xa, xb; ct_contact c; } pair;

static ct_status ex_a(const void *w, FILE *f) { const pair *p = (const pair *)w; return ct_export_hull(&p->a, &p->xa, CT_EXPORT_OBJ, ct_write_stdio, f); }
static ct_status ex_b(const void *w, FILE *f) { const pair *p = (const pair *)w; return ct_export_hull(&p->b, &p->xb, CT_EXPORT_OBJ, ct_write_stdio, f); }
static ct_status ex_o(const void *w, FILE *f) { const pair *p = (const pair *)w; return ct_export_hull(&p->o, NULL, CT_EXPORT_VTK, ct_write_stdio, f); }
static ct_status ex_c(const void *w, FILE *f) { const pair *p = (const pair *)w; return ct_export_contact(&p->c, &p->o, (ct_real)0.8, CT_EXPORT_VTK, ct_write_stdio, f); }

static void sphere_points(unsigned long long seed, ct_vec3 *pts, int n) {
    int i;
    for (i = 0; i < n; ++i) {   /* uniform on the sphere by normalised Gaussians (Box-Muller) */
        double g[3], r;
        int k;
        for (k = 0; k < 3; ++k) {
            double u, v;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            u = ((double)(seed >> 11) + 1) / 9007199254740993.0;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            v = (double)(seed >> 11) / 9007199254740992.0;
            g[k] = sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
        }
        r = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        pts[i].x = (ct_real)(g[0] / r); pts[i].y = (ct_real)(g[1] / r); pts[i].z = (ct_real)(g[2] / r);
    }
}

static int picture_pair(void) {
    pair p;
    ct_vec3 pa[20], pb[20], axis, pos;
    int rc = 0;
    memset(&p, 0, sizeof p);
    sphere_points(7, pa, 20);
    sphere_points(11, pb, 20);
    if (ct_hull_build(pa, 20, NULL, NULL, &p.a) != CT_OK || ct_hull_build(pb, 20, NULL, NULL, &p.b) != CT_OK) return -1;
    axis.x = 1; axis.y = 2; axis.z = 0.5;
    pos.x = 0; pos.y = 0; pos.z = 0;
    p.xa = ct_xform_from_axis_angle(axis, 0.3, pos);
    pos.x = 1.05; pos.y = 0.35; pos.z = 0.25;
    p.xb = ct_xform_from_axis_angle(axis, -0.9, pos);
    if (ct_intersect(&p.a, &p.xa, &p.b, &p.xb, NULL, NULL, &p.o) != CT_OK || p.o.nfaces == 0 ||
        ct_contact_hulls(&p.a, &p.xa, &p.b, &p.xb, NULL, &p.c) != CT_OK)
        rc = -1;
    if (!rc) rc = export_file("pair20_a.obj", ex_a, &p) | export_file("pair20_b.obj", ex_b, &p) |
                  export_file("pair20_intersection.vtk", ex_o, &p) | export_file("pair20_contact.vtk", ex_c, &p);
    if (!rc) {
        static const layer layers[] = {
            { "pair20_a.obj", 2, NULL, -1, "pair20_a.dat", "with polygons fs transparent solid 0.12 fc rgb '#3366cc'" },
            { "pair20_b.obj", 2, NULL, -1, "pair20_b.dat", "with polygons fs transparent solid 0.12 fc rgb '#33aa55'" },
            { "pair20_contact.vtk", 2, "part", 2, "pair20_on_a.dat", "with polygons fs solid 1.0 fc rgb '#5588ee'" },
            { "pair20_contact.vtk", 2, "part", 3, "pair20_on_b.dat", "with polygons fs solid 1.0 fc rgb '#55cc77'" },
            { "pair20_contact.vtk", 1, NULL, -1, "pair20_normal.dat", "with lines lw 3 lc rgb '#cc0000'" },
        };
        rc = draw("pair20", "set title '20-vertex pair: A n B, faces on A (blue), on B (green), normal (red)' "
                            "font ',11'\nset view 70, 35, 1.5\n", layers, 5);
    }
    ct_hull_free(&p.a); ct_hull_free(&p.b); ct_hull_free(&p.o);
    return rc;
}

int main(int argc, char **argv) {
    char cmd[600];
    int rc;
    if (argc > 1) g_dir = argv[1];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", g_dir);
    if (system(cmd) != 0) return 1;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("render: gnuplot not installed, no pictures\n");
        return 0;
    }
    rc = picture_stack();
    rc |= picture_pair();
    return rc ? 1 : 0;
}
