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
#define CT_API_GJK(X)

/* polar part */
#define CT_API_POLAR(X)

/* SAT part */
#define CT_API_SAT(X)

/* ellipsoid part */
#define CT_API_ELLIPSOID(X)

/* broad-phase part */
#define CT_API_BROADPHASE(X) \
    X(ct_broadphase) X(ct_broadphase_bipartite) X(ct_pairs_free) X(ct_broadphase_foreach)

#define CT_API_LIST(X) CT_API_FOUNDATION(X) CT_API_HULL(X) CT_API_GJK(X) CT_API_POLAR(X) \
    CT_API_SAT(X) CT_API_ELLIPSOID(X) CT_API_BROADPHASE(X)
