/* The implementation unit of the MPI tests, with the MPI part (impl.cpp: the same as C++).
   OMPI_SKIP_MPICXX / MPICH_SKIP_MPICXX: only MPI's C API is used; its deprecated C++
   bindings do not compile under -Wextra -Werror. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#define CONTACT_MPI
#define CONTACT_IMPLEMENTATION
#include "contact.h"
