// Compile test: the header and its implementation as C++ (-pedantic -Werror), double and float.
// With CT_TEST_MPI (compiled by mpicxx) the optional MPI part too.
#ifdef CT_TEST_MPI
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#define CONTACT_MPI
#endif
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "tests/compile/api_list.h"

typedef void (*any_fn)();
#define TAKE(f) reinterpret_cast<any_fn>(&f),
#ifdef CT_TEST_MPI
static const any_fn api[] = { CT_API_LIST(TAKE) CT_API_MPI(TAKE) nullptr };
#else
static const any_fn api[] = { CT_API_LIST(TAKE) nullptr };
#endif

int main() {
    ct_scratch s;
    ct_scratch_init(&s, nullptr);
    ct_scratch_release(&s);
    return api[0] == nullptr;
}
