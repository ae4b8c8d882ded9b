/* The implementation unit of the test binaries (compiled as C; impl.cpp compiles it as C++).
   The implementation must stay clean under -Wdouble-promotion -Wconversion (a float build
   must not compute in double behind the user's back); the test files themselves are not held
   to that, so the two warnings are turned into errors for this unit only, in every
   configuration (double, float, sanitize, C and C++). The compile checks of premake5.lua pass
   the same flags on the command line. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic error "-Wdouble-promotion"
#pragma GCC diagnostic error "-Wconversion"
#endif
#define CONTACT_IMPLEMENTATION
#include "contact.h"
