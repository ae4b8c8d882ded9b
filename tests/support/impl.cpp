/* The same implementation unit compiled as C++: the tests then link against C++-built code. */
#include "impl.c"
