// Meshes and the small manifold pairs, contact.h against Bullet (float), same inputs, same process.
//
// Box on a 100k-triangle mesh: ct_manifold_hull_mesh (a ct_hull_box, speculative 0, a warm
// ct_mesh_contacts) against Bullet's btBvhTriangleMeshShape (btTriangleIndexVertexArray, quantized
// AABB compression, default margin) and a btBoxShape (default margin 0.04, which Bullet keeps inside
// the box), through btCollisionWorld::contactPairTest (btDefaultCollisionConfiguration,
// btCollisionDispatcher, btDbvtBroadphase: the dispatcher's btConvexConcaveCollisionAlgorithm, GJK/EPA
// per triangle; Bullet applies no internal-edge fix unless btAdjustInternalEdgeContacts is wired in a
// contact callback, which this default path does not do). One query = one box placement.
//
// Manifold pairs: ct_manifold_spheres / box_sphere / capsules / hull_capsule against the same pair
// through contactPairTest (Bullet's dispatcher picks btSphereSphereCollisionAlgorithm,
// btSphereBoxCollisionAlgorithm, btConvexConvexAlgorithm with its capsule-capsule closed form, and
// btConvexConvexAlgorithm GJK/EPA on btConvexHullShape vs btCapsuleShapeZ), margins 0 where Bullet
// allows. contactPairTest creates and frees the algorithm per call: what a user calling it pays.
#include "contact.h"
#include "harness.h"
#include "workload.h"
#include <cmath>
#include <cstdio>
#include <vector>
#ifdef CT_HAVE_BULLET
#include <btBulletCollisionCommon.h>
#endif

namespace {

ct_vec3 mv(double x, double y, double z) {
    ct_vec3 v;
    v.x = (ct_real)x; v.y = (ct_real)y; v.z = (ct_real)z;
    return v;
}

ct_xform axis_angle(double ax, double ay, double az, double angle, ct_vec3 p) {
    return ct_xform_from_axis_angle(mv(ax, ay, az), (ct_real)angle, p);
}

ct_xform compose(const ct_xform &a, const ct_xform &b) { // a * b
    ct_xform o;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            ct_real s = 0;
            for (int k = 0; k < 3; ++k) s += a.r[i][k] * b.r[k][j];
            o.r[i][j] = s;
        }
    o.p = ct_xform_point(&a, b.p);
    return o;
}

double g_sink;

#ifdef CT_HAVE_BULLET
btTransform bt_xf(const ct_xform &x) {
    btMatrix3x3 m;
    m.setValue((btScalar)x.r[0][0], (btScalar)x.r[0][1], (btScalar)x.r[0][2], (btScalar)x.r[1][0], (btScalar)x.r[1][1],
               (btScalar)x.r[1][2], (btScalar)x.r[2][0], (btScalar)x.r[2][1], (btScalar)x.r[2][2]);
    return btTransform(m, btVector3((btScalar)x.p.x, (btScalar)x.p.y, (btScalar)x.p.z));
}

// The deepest point Bullet reports (distance < 0 penetrating) and its normal on B.
struct Deepest : public btCollisionWorld::ContactResultCallback {
    double depth = 1e30;
    btVector3 normal{ 0, 0, 0 };
    int count = 0;
    btScalar addSingleResult(btManifoldPoint &cp, const btCollisionObjectWrapper *, int, int, const btCollisionObjectWrapper *, int,
                             int) override {
        ++count;
        if (cp.getDistance() < depth) { depth = cp.getDistance(); normal = cp.m_normalWorldOnB; }
        return 0;
    }
};

struct BtWorld {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{ &config };
    btDbvtBroadphase broadphase;
    btCollisionWorld world{ &dispatcher, &broadphase, &config };
};
#endif

// ---- box on a mesh ----------------------------------------------------------------------------
struct MeshSet {
    ct_mesh mesh;
    ct_hull box;
    ct_vec3 half;
    std::vector<ct_xform> xs;
    ct_mesh_contacts out;
#ifdef CT_HAVE_BULLET
    std::vector<float> bverts;
    std::vector<int> btris;
    btTriangleIndexVertexArray *arr = nullptr;
    btBvhTriangleMeshShape *shape = nullptr;
    btBoxShape *bbox = nullptr;
    btCollisionObject *omesh = nullptr, *obox = nullptr;
    BtWorld *w = nullptr;
#endif
};

const int kQueries = 256;

// n x n grid of spacing 0.5; heights: smooth hills (amp) or flat (amp 0).
void mesh_build(MeshSet &s, int n, double amp, unsigned long long seed) {
    std::vector<ct_real> h((size_t)n * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) h[(size_t)j * n + i] = (ct_real)(amp * (std::sin(0.11 * i) * std::cos(0.07 * j) + 0.3 * std::sin(0.37 * i + 0.23 * j)));
    ct_mesh_heightfield(h.data(), n, n, (ct_real)0.5, (ct_real)0.5, NULL, &s.mesh);
    s.half = mv(0.6, 0.4, 0.3);
    ct_hull_box(s.half, NULL, &s.box);
    ct_mesh_contacts_init(&s.out, NULL);
    double size = 0.5 * (n - 1);
    for (int k = 0; k < kQueries; ++k) {
        double x = 2 + (size - 4) * bench_uniform(&seed), y = 2 + (size - 4) * bench_uniform(&seed);
        // resting: the box's bottom at the highest vertex under its footprint (radius 0.75)
        double g = -1e30;
        for (int j = (int)(y / 0.5) - 2; j <= (int)(y / 0.5) + 3; ++j)
            for (int i = (int)(x / 0.5) - 2; i <= (int)(x / 0.5) + 3; ++i)
                if ((0.5 * i - x) * (0.5 * i - x) + (0.5 * j - y) * (0.5 * j - y) <= 0.75 * 0.75) g = std::fmax(g, (double)h[(size_t)j * n + i]);
        ct_xform yaw = axis_angle(0, 0, 1, 2 * M_PI * bench_uniform(&seed), mv(x, y, g + 0.3 - 0.02 * bench_uniform(&seed)));
        ct_xform tilt = axis_angle(1, 0, 0, amp > 0 ? 0.2 * (bench_uniform(&seed) - 0.5) : 0, mv(0, 0, 0));
        s.xs.push_back(compose(yaw, tilt));
    }
#ifdef CT_HAVE_BULLET
    s.bverts.resize(3 * (size_t)s.mesh.nverts);
    for (int i = 0; i < s.mesh.nverts; ++i) {
        s.bverts[3 * i] = (float)s.mesh.verts[i].x; s.bverts[3 * i + 1] = (float)s.mesh.verts[i].y; s.bverts[3 * i + 2] = (float)s.mesh.verts[i].z;
    }
    s.btris.assign(s.mesh.tris, s.mesh.tris + 3 * s.mesh.ntris);
    s.arr = new btTriangleIndexVertexArray(s.mesh.ntris, s.btris.data(), 3 * (int)sizeof(int), s.mesh.nverts, s.bverts.data(),
                                           3 * (int)sizeof(float));
    s.shape = new btBvhTriangleMeshShape(s.arr, true);
    s.bbox = new btBoxShape(btVector3((btScalar)s.half.x, (btScalar)s.half.y, (btScalar)s.half.z));
    s.w = new BtWorld;
    s.omesh = new btCollisionObject();
    s.omesh->setCollisionShape(s.shape);
    s.obox = new btCollisionObject();
    s.obox->setCollisionShape(s.bbox);
    s.w->world.addCollisionObject(s.omesh);
    s.w->world.addCollisionObject(s.obox);
#endif
}

void mesh_destroy(MeshSet &s) {
#ifdef CT_HAVE_BULLET
    s.w->world.removeCollisionObject(s.obox);
    s.w->world.removeCollisionObject(s.omesh);
    delete s.obox; delete s.omesh; delete s.w; delete s.bbox; delete s.shape; delete s.arr;
#endif
    ct_mesh_contacts_free(&s.out);
    ct_hull_free(&s.box);
    ct_mesh_free(&s.mesh);
}

double ours_mesh_one(MeshSet &s, int k, ct_vec3 *normal) {
    ct_manifold_hull_mesh(&s.box, &s.xs[k], &s.mesh, NULL, 0, &s.out);
    double d = 1e30;
    for (int i = 0; i < s.out.npoints; ++i)
        if (s.out.points[i].separation < d) { d = s.out.points[i].separation; if (normal) *normal = s.out.points[i].normal; }
    return d;
}
void ours_mesh(void *p, long calls) {
    MeshSet &s = *(MeshSet *)p;
    double acc = 0;
    for (long i = 0; i < calls; ++i) acc += s.out.npoints + ours_mesh_one(s, (int)(i % kQueries), NULL);
    g_sink += acc;
}
#ifdef CT_HAVE_BULLET
double bt_mesh_one(MeshSet &s, int k, btVector3 *normal) {
    s.obox->setWorldTransform(bt_xf(s.xs[k]));
    Deepest cb;
    s.w->world.contactPairTest(s.obox, s.omesh, cb);
    if (normal) *normal = cb.normal;
    return cb.count ? cb.depth : 1e30;
}
void bt_mesh(void *p, long calls) {
    MeshSet &s = *(MeshSet *)p;
    double acc = 0;
    for (long i = 0; i < calls; ++i) acc += bt_mesh_one(s, (int)(i % kQueries), NULL);
    g_sink += acc;
}
#endif

void mesh_rows() {
    char chk[512], name[128];
    bench_table("Box on a triangle mesh: ct_manifold_hull_mesh vs Bullet btBvhTriangleMeshShape",
                "Heightfield 224 x 224 vertices (99,458 triangles), spacing 0.5; box half extents 0.6 x 0.4 x 0.3 "
                "resting 0..0.02 deep on the highest vertex under it, random yaw (hills: also tilted up to 0.1 rad); 256 placements. Ours: "
                "ct_hull_box, speculative 0, warm ct_mesh_contacts (internal edge removal on). Peer: "
                "btBvhTriangleMeshShape (quantized BVH) + btBoxShape (default margin) via "
                "btCollisionWorld::contactPairTest (default dispatcher, GJK/EPA per triangle), float. Agreement: "
                "penetration depths (deepest separation / distance clamped at 0, no contact = 0) within 0.02 (Bullet's "
                "margins shift its depths by about 0.01 here and it reports points apart by its margin; ours equals the "
                "per-triangle brute-force signed distance where a face decides); normals: how many of Bullet's deepest normals are "
                "more than 1 degree off ours (Bullet has no internal-edge fix on this path).");
#ifndef CT_HAVE_BULLET
    bench_note("peer Bullet skipped: libbullet-dev not installed");
#endif
    for (int hills = 0; hills < 2; ++hills) {
        MeshSet s;
        mesh_build(s, 224, hills ? 1.0 : 0.0, 31 + hills);
        std::snprintf(name, sizeof name, "box on %s, %d triangles", hills ? "hills" : "flat floor", s.mesh.ntris);
        double npts = 0;
        for (int k = 0; k < kQueries; ++k) { ours_mesh_one(s, k, NULL); npts += s.out.npoints; }
#ifdef CT_HAVE_BULLET
        int off = 0, miss = 0;
        double worst = 0;
        for (int k = 0; k < kQueries; ++k) {
            ct_vec3 n = mv(0, 0, 0);
            btVector3 bn;
            double o = ours_mesh_one(s, k, &n), b = bt_mesh_one(s, k, &bn);
            // Bullet also reports points apart by up to its margins (distance > 0), and its depths
            // sit about 0.01 above the exact ones here: compare the penetration depths (deepest
            // value clamped at 0, no contact = 0), so a contact one side misses counts when deep
            if ((o < 1e29) != (b < 1e29)) ++miss;
            worst = std::fmax(worst, std::fabs(std::fmin(o, 0.0) - std::fmin(b, 0.0)));
            if (o > 1e29 || b > 1e29) continue;
            // Bullet's normal on B points from B to A: ours (A -> B) is its negation
            double c = -(n.x * bn.x() + n.y * bn.y() + n.z * bn.z());
            if (c < std::cos(M_PI / 180)) ++off;
        }
        std::snprintf(chk, sizeof chk, "%s: worst penetration-depth gap %.2g; %d/%d with a contact on one side only; Bullet normals > 1 deg off ours: %d/%d; ours %.1f points/query",
                      worst < 0.02 ? "agree" : "DISAGREE", worst, miss, kQueries, off, kQueries, npts / kQueries);
        bench_row(name, ours_mesh, &s, "Bullet btBvhTriangleMeshShape contactPairTest", bt_mesh, &s, chk);
#else
        std::snprintf(chk, sizeof chk, "%.1f points/query", npts / kQueries);
        bench_row_ours(name, ours_mesh, &s, chk);
#endif
        mesh_destroy(s);
    }
}

// ---- manifold pairs ---------------------------------------------------------------------------
enum PairKind { kSpheres, kBoxSphere, kCapsules, kHullCapsule, kHullCylinder, kBoxCylinder, kNumPairKinds };
struct PairSet {
    PairKind kind;
    std::vector<ct_xform> xa, xb;
    ct_hull hull, box;
    ct_capsule cap;
    ct_scratch scratch;
    ct_vec3 half;
#ifdef CT_HAVE_BULLET
    btCollisionShape *sa = nullptr, *sb = nullptr;
    btCollisionObject *oa = nullptr, *ob = nullptr;
    BtWorld *w = nullptr;
#endif
};
const int kPairsN = 256;

double ours_pair_one(PairSet &s, int k) {
    ct_manifold m;
    const ct_xform &a = s.xa[k], &b = s.xb[k];
    switch (s.kind) {
    case kSpheres: ct_manifold_spheres(a.p, 1, b.p, (ct_real)0.7, 0, &m); break;
    case kBoxSphere: ct_manifold_box_sphere(s.half, &a, b.p, (ct_real)0.7, 0, &m); break;
    case kCapsules: ct_manifold_capsules(&s.cap, &a, &s.cap, &b, 0, &m); break;
    case kHullCapsule: ct_manifold_hull_capsule(&s.hull, &a, &s.cap, &b, 0, &m); break;
    case kHullCylinder: ct_manifold_hull_cylinder(&s.hull, &a, (ct_real)0.4, (ct_real)0.6, &b, 0, &s.scratch, &m); break;
    default: ct_manifold_hull_cylinder(&s.box, &a, (ct_real)0.4, (ct_real)0.6, &b, 0, &s.scratch, &m); break;
    }
    return m.count ? m.points[m.deepest].separation : 1e30;
}
void ours_pair(void *p, long calls) {
    PairSet &s = *(PairSet *)p;
    double acc = 0;
    for (long i = 0; i < calls; ++i) acc += ours_pair_one(s, (int)(i % kPairsN));
    g_sink += acc;
}
#ifdef CT_HAVE_BULLET
double bt_pair_one(PairSet &s, int k) {
    s.oa->setWorldTransform(bt_xf(s.xa[k]));
    s.ob->setWorldTransform(bt_xf(s.xb[k]));
    Deepest cb;
    s.w->world.contactPairTest(s.oa, s.ob, cb);
    return cb.count ? cb.depth : 1e30;
}
void bt_pair(void *p, long calls) {
    PairSet &s = *(PairSet *)p;
    double acc = 0;
    for (long i = 0; i < calls; ++i) acc += bt_pair_one(s, (int)(i % kPairsN));
    g_sink += acc;
}
#endif

void pair_build(PairSet &s, PairKind kind, unsigned long long seed) {
    s.kind = kind;
    s.half = mv(0.8, 0.6, 0.5);
    s.cap.p0 = mv(0, 0, -0.6); s.cap.p1 = mv(0, 0, 0.6); s.cap.radius = (ct_real)0.4; // Bullet's capsule is along z here
    std::vector<ct_vec3> pts;
    for (int i = 0; i < 20; ++i) {
        double d[3];
        wl_direction(d, &seed);
        pts.push_back(mv(d[0], d[1], d[2]));
    }
    ct_hull_build(pts.data(), 20, NULL, NULL, &s.hull);
    ct_hull_box(s.half, NULL, &s.box);
    ct_scratch_init(&s.scratch, NULL);
    for (int k = 0; k < kPairsN; ++k) {
        double r[9], d[3];
        ct_xform a, b;
        wl_rotation(r, &seed);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) a.r[i][j] = (ct_real)r[3 * i + j];
        a.p = mv(0, 0, 0);
        wl_rotation(r, &seed);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) b.r[i][j] = (ct_real)r[3 * i + j];
        wl_direction(d, &seed);
        double dist = (kind == kSpheres ? 1.7 : kind == kBoxSphere ? 1.3 : kind == kCapsules ? 1.0 : kind == kHullCapsule ? 1.2
                       : kind == kHullCylinder ? 1.45 : 1.3) * (0.9 + 0.15 * bench_uniform(&seed));
        b.p = mv(dist * d[0], dist * d[1], dist * d[2]);
        s.xa.push_back(a);
        s.xb.push_back(b);
    }
#ifdef CT_HAVE_BULLET
    s.w = new BtWorld;
    switch (kind) {
    case kSpheres: s.sa = new btSphereShape(1); s.sb = new btSphereShape((btScalar)0.7); break;
    case kBoxSphere: s.sa = new btBoxShape(btVector3((btScalar)0.8, (btScalar)0.6, (btScalar)0.5)); s.sb = new btSphereShape((btScalar)0.7); break;
    case kCapsules: s.sa = new btCapsuleShapeZ((btScalar)0.4, (btScalar)1.2); s.sb = new btCapsuleShapeZ((btScalar)0.4, (btScalar)1.2); break;
    case kBoxCylinder:
        s.sa = new btBoxShape(btVector3((btScalar)0.8, (btScalar)0.6, (btScalar)0.5));
        s.sa->setMargin(0);
        s.sb = new btCylinderShapeZ(btVector3((btScalar)0.4, (btScalar)0.4, (btScalar)0.6));
        s.sb->setMargin(0);
        break;
    default: {
        btConvexHullShape *c = new btConvexHullShape();
        for (int i = 0; i < s.hull.nverts; ++i) c->addPoint(btVector3((btScalar)s.hull.verts[i].x, (btScalar)s.hull.verts[i].y, (btScalar)s.hull.verts[i].z), false);
        c->recalcLocalAabb();
        c->setMargin(0);
        s.sa = c;
        if (kind == kHullCylinder) {
            s.sb = new btCylinderShapeZ(btVector3((btScalar)0.4, (btScalar)0.4, (btScalar)0.6));
            s.sb->setMargin(0);
        } else {
            s.sb = new btCapsuleShapeZ((btScalar)0.4, (btScalar)1.2);
        }
    }
    }
    if (kind == kBoxSphere) s.sa->setMargin(0);
    s.oa = new btCollisionObject(); s.oa->setCollisionShape(s.sa);
    s.ob = new btCollisionObject(); s.ob->setCollisionShape(s.sb);
    s.w->world.addCollisionObject(s.oa);
    s.w->world.addCollisionObject(s.ob);
#endif
}

void pair_destroy(PairSet &s) {
#ifdef CT_HAVE_BULLET
    s.w->world.removeCollisionObject(s.oa);
    s.w->world.removeCollisionObject(s.ob);
    delete s.oa; delete s.ob; delete s.sa; delete s.sb; delete s.w;
#endif
    ct_hull_free(&s.hull);
    ct_hull_free(&s.box);
    ct_scratch_release(&s.scratch);
}

void pair_rows() {
    char chk[256];
    const char *names[kNumPairKinds] = { "sphere-sphere", "box-sphere", "capsule-capsule", "hull 20 v-capsule", "hull 20 v-cylinder",
                                         "box-cylinder" };
    const char *peers[kNumPairKinds] = { "btSphereSphereCollisionAlgorithm", "btSphereBoxCollisionAlgorithm",
                                         "btConvexConvexAlgorithm (capsule closed form)", "btConvexConvexAlgorithm (GJK/EPA)",
                                         "btConvexConvexAlgorithm (GJK/EPA, btCylinderShapeZ margin 0)",
                                         "btConvexConvexAlgorithm (GJK/EPA, btCylinderShapeZ margin 0)" };
    bench_table("Manifold pairs: ct_manifold_spheres / box_sphere / capsules / hull_capsule / hull_cylinder vs Bullet's dispatcher",
                "256 random pairs per kind at distances around touching (about half overlapping), random rotations; "
                "sphere radii 1 and 0.7, box 0.8 x 0.6 x 0.5, capsules segment 1.2 radius 0.4, cylinders radius 0.4 "
                "half height 0.6 (ours with a warm scratch; the box as ct_hull_box), hull: 20 points on the "
                "unit sphere. Ours: speculative 0. Peer: btCollisionWorld::contactPairTest on the same two shapes "
                "(the dispatcher's algorithm for the pair, created per call), margins 0 where Bullet allows (capsule "
                "and sphere margins are their radii), float. Agreement: same contact/no-contact and deepest "
                "separation vs Bullet's deepest distance.");
    for (int kind = 0; kind < kNumPairKinds; ++kind) {
        PairSet s;
        pair_build(s, (PairKind)kind, 500 + kind);
#ifdef CT_HAVE_BULLET
        int miss = 0, touch = 0;
        double worst = 0;
        for (int k = 0; k < kPairsN; ++k) {
            double o = ours_pair_one(s, k), b = bt_pair_one(s, k);
            if ((o < 1e29) != (b < 1e29)) {
                // pairs within rounding of touching may differ
                if (std::fmin(std::fabs(o < 1e29 ? o : 0), std::fabs(b < 1e29 ? b : 0)) > 1e-4) ++miss;
                continue;
            }
            if (o > 1e29) continue;
            ++touch;
            worst = std::fmax(worst, std::fabs(o - b));
        }
        std::snprintf(chk, sizeof chk, "%s: %d touching, %d contact/no-contact disagreements, worst deepest gap %.2g",
                      miss == 0 && worst < 5e-3 ? "agree" : "DISAGREE", touch, miss, worst);
        bench_row(names[kind], ours_pair, &s, peers[kind], bt_pair, &s, chk);
#else
        bench_row_ours(names[kind], ours_pair, &s, "");
#endif
        pair_destroy(s);
    }
}

} // namespace

int main() {
    mesh_rows();
    pair_rows();
    std::printf("(sink %g)\n", g_sink);
    return 0;
}
