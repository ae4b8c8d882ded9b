/* Every public function of contact.h, by address: the compile tests take them all so a
   missing definition, a C++ linkage slip or a signature change fails the build.
   Each part lists its public functions in its own macro below. */
#define CT_API_FOUNDATION(X) \
    X(ct_status_string) X(ct_scratch_init) X(ct_scratch_release) \
    X(ct_xform_identity) X(ct_xform_from_quat) X(ct_xform_from_axis_angle)

/* quickhull part */
#define CT_API_HULL(X) X(ct_hull_build) X(ct_hull_free) X(ct_hull_volume) X(ct_hull_mass) \
    X(ct_hull_aabb) X(ct_hull_box)

/* GJK part */
#define CT_API_GJK(X) \
    X(ct_shape_points) X(ct_shape_hull) X(ct_shape_sphere) X(ct_shape_ellipsoid) X(ct_shape_box) \
    X(ct_shape_triangle) X(ct_shape_support) X(ct_shape_rounded) X(ct_gjk) X(ct_signed_distance) \
    X(ct_gjk_points)

/* polar part */
#define CT_API_POLAR(X) X(ct_intersect) X(ct_contact_hulls) X(ct_sparsify)

/* SAT part */
#define CT_API_SAT(X) X(ct_manifold_hulls) X(ct_manifold_hull_sphere)

/* ellipsoid part */
#define CT_API_ELLIPSOID(X) X(ct_ellipsoids)

/* broad-phase part */
#define CT_API_BROADPHASE(X) \
    X(ct_broadphase) X(ct_broadphase_bipartite) X(ct_pairs_free) X(ct_broadphase_foreach)

/* scene part */
#define CT_API_SCENE(X) X(ct_scene_create) X(ct_scene_destroy) X(ct_scene_add) X(ct_scene_remove) \
    X(ct_scene_set_xform) X(ct_scene_user) X(ct_scene_step)

#define CT_API_LIST(X) CT_API_FOUNDATION(X) CT_API_HULL(X) CT_API_GJK(X) CT_API_POLAR(X) \
    CT_API_SAT(X) CT_API_ELLIPSOID(X) CT_API_BROADPHASE(X) CT_API_SCENE(X)
