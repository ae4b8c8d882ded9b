/* Every public function of contact.h, by address: the compile tests take them all so a
   missing definition, a C++ linkage slip or a signature change fails the build.
   Each part lists its public functions in its own macro below. */
#define CT_API_FOUNDATION(X) \
    X(ct_status_string) X(ct_scratch_init) X(ct_scratch_release) \
    X(ct_xform_identity) X(ct_xform_from_quat) X(ct_xform_from_axis_angle) \
    X(ct_vec3_make) X(ct_vec3_add) X(ct_vec3_sub) X(ct_vec3_scale) X(ct_vec3_dot) X(ct_vec3_cross) \
    X(ct_vec3_length) X(ct_xform_point) X(ct_xform_vector) X(ct_xform_inv_point) X(ct_xform_inv_vector)

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
#define CT_API_SAT(X) X(ct_manifold_hulls) X(ct_manifold_rounded_hulls) X(ct_manifold_hull_sphere)

/* ellipsoid part */
#define CT_API_ELLIPSOID(X) X(ct_ellipsoids)

/* broad-phase part */
#define CT_API_BROADPHASE(X) \
    X(ct_broadphase) X(ct_broadphase_bipartite) X(ct_pairs_free) X(ct_broadphase_foreach) \
    X(ct_bp_init) X(ct_bp_update) X(ct_bp_free) X(ct_bp_query_box) X(ct_bp_query_ray) X(ct_hits_free) \
    X(ct_broadphase_periodic) X(ct_ppairs_free)

/* export part */
#define CT_API_EXPORT(X) X(ct_export_hull) X(ct_export_contact) X(ct_export_manifold) \
    X(ct_export_aabbs) X(ct_export_scene) X(ct_write_stdio)

/* query part */
#define CT_API_QUERY(X) X(ct_shape_aabb) X(ct_ray_cast) X(ct_time_of_impact) \
    X(ct_manifold_spheres) X(ct_manifold_box_sphere) X(ct_manifold_capsules) X(ct_manifold_hull_capsule)

/* mesh part */
#define CT_API_MESH(X) X(ct_mesh_build) X(ct_mesh_heightfield) X(ct_mesh_free) X(ct_mesh_contacts_init) \
    X(ct_mesh_contacts_free) X(ct_manifold_hull_mesh) X(ct_manifold_sphere_mesh) \
    X(ct_manifold_capsule_mesh) X(ct_ray_cast_mesh)

/* scene part */
#define CT_API_SCENE(X) X(ct_scene_create) X(ct_scene_destroy) X(ct_scene_add) X(ct_scene_remove) \
    X(ct_scene_set_xform) X(ct_scene_user) X(ct_scene_step) X(ct_export_scene_step)

/* PFC rigid-block part */
#define CT_API_PFC(X) X(ct_contact_cache_init) X(ct_contact_cache_free) X(ct_contact_hulls_warm) \
    X(ct_contact_hulls_reduced) X(ct_block_cache_init) X(ct_block_cache_free) X(ct_hull_erode) X(ct_hull_rounded_volume) \
    X(ct_contact_rounded_hulls) X(ct_contact_hull_sphere) X(ct_shape_cylinder) \
    X(ct_contact_facet_hull) X(ct_wall_contacts_init) X(ct_wall_contacts_free) X(ct_contact_mesh_hull) \
    X(ct_hull_rounded_mass)

#define CT_API_LIST(X) CT_API_FOUNDATION(X) CT_API_HULL(X) CT_API_GJK(X) CT_API_POLAR(X) \
    CT_API_SAT(X) CT_API_ELLIPSOID(X) CT_API_BROADPHASE(X) CT_API_EXPORT(X) CT_API_QUERY(X) \
    CT_API_MESH(X) CT_API_SCENE(X) CT_API_PFC(X)

/* MPI part: declared only with CONTACT_MPI and <mpi.h>, so not in CT_API_LIST (the compile
   checks need no MPI); tests/mpi/test_mpi.c takes these. */
#define CT_API_MPI(X) X(ct_mpi_decomp_build) X(ct_mpi_decomp_free) X(ct_mpi_decomp_rank) \
    X(ct_mpi_broadphase) X(ct_mpi_pairs_free) X(ct_mpi_broadphase_foreach)
