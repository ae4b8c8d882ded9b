/* The MPI implementation unit compiled as C++. */
#include "impl.c"
