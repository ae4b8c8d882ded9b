/* Compile test: the header and its implementation as strict C99 (-pedantic -Werror), in
   double and (with -DCT_REAL=float) float. With CT_USE_AMALGAMATED it compiles the single-file
   header written by `premake4 --file=premake5.lua amalgamate` instead. With CT_TEST_MPI
   (compiled by mpicc) the optional MPI part is compiled and taken as well. */
#ifdef CT_TEST_MPI
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#define CONTACT_MPI
#endif
#define CONTACT_IMPLEMENTATION
#ifdef CT_USE_AMALGAMATED
#include "build/contact.h"
#include "build/contact.h" /* twice: the include guard and the implementation guard hold */
#else
#include "contact.h"
#include "contact.h"
#endif
#include "tests/compile/api_list.h"

typedef void (*any_fn)(void);
#define TAKE(f) (any_fn)(f),
#ifdef CT_TEST_MPI
static const any_fn api[] = { CT_API_LIST(TAKE) CT_API_MPI(TAKE) (any_fn)0 };
#else
static const any_fn api[] = { CT_API_LIST(TAKE) (any_fn)0 };
#endif

int main(void) {
    ct_scratch s;
    ct_scratch_init(&s, NULL);
    ct_scratch_release(&s);
    return api[0] == 0;
}
