/* Every public function of contact.h, by address: the compile tests take them all so a
   missing definition, a C++ linkage slip or a signature change fails the build.
   Add each new public function here. */
#define CT_API_LIST(X) \
    X(ct_status_string) X(ct_scratch_init) X(ct_scratch_release) \
    X(ct_xform_identity) X(ct_xform_from_quat) X(ct_xform_from_axis_angle)
